//! What the decoder fuzz tests (`fuzz_*.rs`) share: the case count (`PROPTEST_CASES`), edits
//! of text and bytes, and structural edits of JSON documents that remember which field they
//! broke, so a test can check that the error names it.
//!
//! Every family runs its default count in `cargo test`; `PROPTEST_CASES=N` runs N cases of
//! each family instead (`PROPTEST_CASES=1000000 cargo test --release --locked --test it fuzz_`
//! for the long run).

use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::Value;

/// Cases per family: `PROPTEST_CASES` when set, else `default`.
pub fn cases(default: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default);
    ProptestConfig::with_cases(cases)
}

/// One edit of a text: change, insert or delete a character, or cut the rest.
#[derive(Debug, Clone)]
pub enum Edit {
    Set(Index, char),
    Insert(Index, char),
    Delete(Index),
    Cut(Index),
}

/// An edit whose new characters are mostly drawn from `alphabet`, sometimes any character.
pub fn edit_from(alphabet: &'static str) -> impl Strategy<Value = Edit> {
    let ch = prop_oneof![
        4 => prop::sample::select(alphabet.chars().collect::<Vec<_>>()),
        1 => any::<char>(),
    ];
    prop_oneof![
        4 => (any::<Index>(), ch.clone()).prop_map(|(i, c)| Edit::Set(i, c)),
        2 => (any::<Index>(), ch).prop_map(|(i, c)| Edit::Insert(i, c)),
        2 => any::<Index>().prop_map(Edit::Delete),
        1 => any::<Index>().prop_map(Edit::Cut),
    ]
}

/// The characters that matter to JSON, for [`edit_from`].
pub const JSON_CHARS: &str = "{}[]\":,0123456789-.eE+ntfrulsa\\ \n_xyz";

/// `text` with `edits` applied in order.
pub fn apply_edits(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for e in edits {
        apply(&mut chars, e);
    }
    String::from_iter(chars)
}

/// Applies one edit.
pub fn apply(chars: &mut Vec<char>, e: &Edit) {
    let n = chars.len().max(1);
    match e {
        Edit::Set(i, c) if !chars.is_empty() => chars[i.index(n)] = *c,
        Edit::Insert(i, c) => chars.insert(i.index(n + 1).min(chars.len()), *c),
        Edit::Delete(i) if !chars.is_empty() => {
            chars.remove(i.index(n));
        }
        Edit::Cut(i) => chars.truncate(i.index(n)),
        _ => {}
    }
}

/// Edits of bytes: set a byte, flip a bit, insert, delete, or cut the rest.
pub fn byte_edits() -> impl Strategy<Value = Vec<(u8, Index, u8)>> {
    prop::collection::vec((0u8..5, any::<Index>(), any::<u8>()), 1..4)
}

/// Applies [`byte_edits`].
pub fn apply_bytes(bytes: &mut Vec<u8>, edits: &[(u8, Index, u8)]) {
    for (kind, i, b) in edits {
        if bytes.is_empty() {
            return;
        }
        let at = i.index(bytes.len());
        match kind {
            0 => bytes[at] = *b,
            1 => bytes[at] ^= 1 << (b % 8),
            2 => bytes.insert(at, *b),
            3 => {
                bytes.remove(at);
            }
            _ => bytes.truncate(at),
        }
    }
}

/// Bytes after edits as a decoder that takes text sees them: decoded as UTF-8 with invalid
/// sequences replaced (what the browser's `File.text()` does).
pub fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Any text: mostly JSON's own characters, sometimes any character.
pub fn json_ish_text() -> impl Strategy<Value = String> {
    let ch = prop_oneof![
        6 => prop::sample::select(JSON_CHARS.chars().collect::<Vec<_>>()),
        1 => any::<char>(),
    ];
    let head = prop::sample::select(vec!["", "{", "{\"", "[", "\u{feff}{", "\"", "0"]);
    (head, prop::collection::vec(ch, 0..200))
        .prop_map(|(head, body)| format!("{head}{}", String::from_iter(body)))
}

/// A value of a type chosen to be wrong somewhere, or at an edge: huge and negative numbers,
/// floats, long strings, deep nesting, empty containers, `null`.
pub fn odd_value() -> impl Strategy<Value = Value> {
    let text = |s: &str| Value::String(s.to_owned());
    let numbers = edge_numbers();
    prop_oneof![
        3 => prop::sample::select(numbers),
        2 => prop::sample::select(vec![
            Value::Null,
            Value::Bool(true),
            Value::Bool(false),
            Value::Array(vec![]),
            Value::Object(serde_json::Map::new()),
            text(""),
            text("x"),
            text("exponential"),
            text("\u{0}\u{202e}<script>"),
        ]),
        1 => (1usize..12_000).prop_map(|n| Value::String("長".repeat(n))),
        1 => (1usize..400).prop_map(|depth| {
            let mut v = Value::Null;
            for _ in 0..depth {
                v = Value::Array(vec![v]);
            }
            v
        }),
        1 => (1usize..300).prop_map(|n| Value::Array(vec![Value::from(1); n])),
    ]
}

/// A structural edit of a JSON document.
#[derive(Debug, Clone)]
pub enum Mutation {
    /// Put a value in place of the node.
    Replace(Index, Value),
    /// Remove the node from its object or list.
    Remove(Index),
    /// Add a field no format knows to the node (an object).
    Unknown(Index),
    /// Write a field of the node (an object) a second time, with another value.
    Duplicate(Index, Value),
    /// Copy a list item (a list gets one more of the same).
    Repeat(Index),
}

/// One structural edit, its node picked among all of a document's nodes.
pub fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        6 => (any::<Index>(), odd_value()).prop_map(|(i, v)| Mutation::Replace(i, v)),
        2 => any::<Index>().prop_map(Mutation::Remove),
        1 => any::<Index>().prop_map(Mutation::Unknown),
        1 => (any::<Index>(), odd_value()).prop_map(|(i, v)| Mutation::Duplicate(i, v)),
        1 => any::<Index>().prop_map(Mutation::Repeat),
    ]
}

/// A path segment of a JSON document.
#[derive(Debug, Clone, PartialEq)]
enum Seg {
    Key(String),
    At(usize),
}

/// Every node's path, the root (empty) first, in document order.
fn paths(v: &Value) -> Vec<Vec<Seg>> {
    let mut out = vec![vec![]];
    walk(v, &mut vec![], &mut out);
    out
}

fn walk(v: &Value, at: &mut Vec<Seg>, out: &mut Vec<Vec<Seg>>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                at.push(Seg::Key(k.clone()));
                out.push(at.clone());
                walk(x, at, out);
                at.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                at.push(Seg::At(i));
                out.push(at.clone());
                walk(x, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

/// A path as the decoders write it: `processes[2].sheet.retry.max_attempts`.
fn path_text(path: &[Seg]) -> String {
    let mut s = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) if s.is_empty() => s.push_str(k),
            Seg::Key(k) => {
                s.push('.');
                s.push_str(k);
            }
            Seg::At(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

fn node_mut<'a>(v: &'a mut Value, path: &[Seg]) -> Option<&'a mut Value> {
    path.iter().try_fold(v, |v, seg| match seg {
        Seg::Key(k) => v.get_mut(k.as_str()),
        Seg::At(i) => v.get_mut(*i),
    })
}

/// What a structural edit did: the document's text and the field it made wrong (the path
/// of a replaced node, or of the added unknown field), when one is known.
#[derive(Debug, Clone)]
pub struct Mutated {
    /// The edited document.
    pub text: String,
    /// The node replaced by a value of another JSON type, by its path (`None`: the edit
    /// made no single known field wrong).
    pub wrong_type_at: Option<String>,
    /// The unknown field added, by its path.
    pub unknown_at: Option<String>,
}

fn json_type(v: &Value) -> u8 {
    match v {
        Value::Null => 0,
        Value::Bool(_) => 1,
        Value::Number(_) => 2,
        Value::String(_) => 3,
        Value::Array(_) => 4,
        Value::Object(_) => 5,
    }
}

/// `doc` with `m` applied.
pub fn mutate(doc: &Value, m: &Mutation) -> Mutated {
    let mut v = doc.clone();
    let all = paths(&v);
    let pick = |i: &Index| all[i.index(all.len())].clone();
    let mut out = Mutated {
        text: String::new(),
        wrong_type_at: None,
        unknown_at: None,
    };
    match m {
        Mutation::Replace(i, new) => {
            let path = pick(i);
            if let Some(node) = node_mut(&mut v, &path) {
                // `null` is how an optional field is left out: not a wrong type, and a value
                // in place of a left-out field may be the field's own type.
                if json_type(node) != json_type(new)
                    && !new.is_null()
                    && !node.is_null()
                    && !path.is_empty()
                {
                    out.wrong_type_at = Some(path_text(&path));
                }
                *node = new.clone();
            }
        }
        Mutation::Remove(i) => {
            let path = pick(i);
            if let Some((last, parent)) = path.split_last() {
                match (node_mut(&mut v, parent), last) {
                    (Some(Value::Object(m)), Seg::Key(k)) => {
                        m.remove(k);
                    }
                    (Some(Value::Array(a)), Seg::At(i)) => {
                        a.remove(*i);
                    }
                    _ => {}
                }
            }
        }
        Mutation::Unknown(i) => {
            let path = pick(i);
            if let Some(Value::Object(m)) = node_mut(&mut v, &path) {
                m.insert("zz_unknown".into(), Value::from(1));
                let mut at = path.clone();
                at.push(Seg::Key("zz_unknown".into()));
                out.unknown_at = Some(path_text(&at));
            }
        }
        Mutation::Duplicate(i, new) => {
            let path = pick(i);
            if let Some(Value::Object(m)) = node_mut(&mut v, &path) {
                if let Some(k) = m.keys().next().cloned() {
                    // A key the serialiser would write once: marked, then doubled in the text.
                    m.insert(format!("{k}\u{1}dup"), new.clone());
                }
            }
            out.text = serde_json::to_string(&v).unwrap_or_default();
            out.text = out.text.replace("\\u0001dup\"", "\"");
            return out;
        }
        Mutation::Repeat(i) => {
            let path = pick(i);
            if let Some((Seg::At(at), parent)) = path.split_last() {
                if let Some(Value::Array(a)) = node_mut(&mut v, parent) {
                    let item = a[*at].clone();
                    a.insert(*at, item);
                }
            }
        }
    }
    out.text = serde_json::to_string_pretty(&v).unwrap_or_default();
    out
}

/// Whether `named` (a path an error gives) names the field at `wrong` or a field around it
/// (`a.b` names `a.b.c`, and `a.b.c` names `a.b`: a tagged object's field may be reported at
/// the object).
pub fn names(named: &str, wrong: &str) -> bool {
    let within = |long: &str, short: &str| {
        long == short
            || !short.is_empty()
                && long
                    .strip_prefix(short)
                    .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
    };
    within(named, wrong) || within(wrong, named)
}

/// The edge numbers [`odd_value`] draws from and [`every_replacement`] sweeps (each a JSON
/// number, or `null` where serde_json cannot hold it).
pub fn edge_numbers() -> Vec<Value> {
    [
        "0",
        "-1",
        "1",
        "1.5",
        "-0.0",
        "1e300",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "4294967296",
        "9007199254740993",
        "100000000000000000000000000000000000",
    ]
    .iter()
    .map(|s| serde_json::from_str(s).unwrap_or(Value::Null))
    .collect()
}

/// Every node of `doc` that holds a number, replaced in turn by each of `values` (one edit
/// per document): the deterministic sweep beside the random families, so an arithmetic
/// overflow on an edge value of one field (a panic under the test profile's overflow checks)
/// cannot hide behind the sampling.
pub fn every_replacement(doc: &Value, values: &[Value]) -> Vec<Mutated> {
    let mut out = Vec::new();
    for path in paths(doc).into_iter().filter(|p| !p.is_empty()) {
        let mut base = doc.clone();
        if !node_mut(&mut base, &path).is_some_and(|n| n.is_number()) {
            continue;
        }
        for new in values {
            let mut v = base.clone();
            if let Some(node) = node_mut(&mut v, &path) {
                *node = new.clone();
            }
            out.push(Mutated {
                text: serde_json::to_string_pretty(&v).unwrap_or_default(),
                wrong_type_at: (!new.is_number() && !new.is_null()).then(|| path_text(&path)),
                unknown_at: None,
            });
        }
    }
    out
}
