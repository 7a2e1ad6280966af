//! Values of the call shapes, read from tokens: literals (numbers, strings, booleans, null,
//! symbols), lists, maps (Python dicts, Ruby hashes and keyword arguments, Elixir keyword
//! lists, JS objects, Go composite literals), durations written with their unit
//! (`5.seconds`, `30 * time.Second`, `:timer.seconds(30)`) and names. Anything else is
//! [`Val::Other`]: an expression the scanner does not evaluate, reported unresolved.
//!
//! A name bound exactly once in the same file to a literal (`ATTEMPTS = 5`,
//! `const QUEUE = "mail"`, `@base_ms 10_000`) is read as that literal: the file states the
//! value, one step away.

use super::lex::{Fam, Tok, K};
use crate::domain::audit::found::Pos;
use std::collections::HashMap;

/// A value as far as the scanner reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    /// A number.
    Num(f64),
    /// A string without interpolation.
    Str(String),
    /// `true` / `True`.
    Bool(bool),
    /// `nil`, `None`, `null`.
    Null,
    /// A Ruby symbol / Elixir atom.
    Sym(String),
    /// A name or dotted path (a class, a constant not bound to a literal in the file).
    Name(String),
    /// A list, tuple or array.
    List(Vec<Item>),
    /// A map, dict, hash, object or keyword list.
    Map(Vec<Entry>),
    /// A duration written with its unit, in ms.
    Ms(f64),
    /// Anything else.
    Other,
}

/// A value with where it is and its text as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// The value.
    pub val: Val,
    /// Where it starts.
    pub at: Pos,
    /// The text as written (whitespace runs shown as one space).
    pub text: String,
}

/// One entry of a map.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The key as written, without quotes or colon.
    pub key: String,
    /// Where the key is.
    pub at: Pos,
    /// The value.
    pub item: Item,
}

impl Item {
    /// The entry `key` of a map value.
    pub fn get(&self, key: &str) -> Option<&Item> {
        match &self.val {
            Val::Map(es) => es.iter().find(|e| e.key == key).map(|e| &e.item),
            _ => None,
        }
    }
}

/// The tokens of one file with what the scanners need to read values.
pub struct Cx<'a> {
    /// The file's text.
    pub src: &'a str,
    /// Its tokens.
    pub toks: &'a [Tok],
    /// The matching closer of each opening bracket.
    pub close: &'a [Option<usize>],
    /// The language family.
    pub fam: Fam,
    /// Names bound once to a literal: name → token range of the value.
    consts: HashMap<String, (usize, usize)>,
}

const NESTING: usize = 80;

impl<'a> Cx<'a> {
    /// A context over `toks`, with the file's single-literal bindings collected.
    pub fn new(src: &'a str, toks: &'a [Tok], close: &'a [Option<usize>], fam: Fam) -> Self {
        let mut cx = Cx {
            src,
            toks,
            close,
            fam,
            consts: HashMap::new(),
        };
        cx.consts = cx.bindings();
        cx
    }

    /// Where token `i` starts; past the end, where the last token starts (1:1 in an empty
    /// file).
    pub fn pos(&self, i: usize) -> Pos {
        self.toks
            .get(i)
            .or_else(|| self.toks.last())
            .map_or(Pos { line: 1, column: 1 }, |t| t.at)
    }

    /// The text of token `i`.
    pub fn text(&self, i: usize) -> &str {
        self.toks
            .get(i)
            .and_then(|t| self.src.get(t.start..t.end))
            .unwrap_or("")
    }

    /// Whether token `i` is the identifier `w`.
    pub fn word(&self, i: usize, w: &str) -> bool {
        self.toks.get(i).is_some_and(|t| t.k == K::Ident) && self.text(i) == w
    }

    /// Whether token `i` is the punctuation `c`.
    pub fn p(&self, i: usize, c: char) -> bool {
        self.toks.get(i).is_some_and(|t| t.is(c))
    }

    /// The index just past the closer of the bracket opened at `i` (or `i + 1`).
    pub fn after(&self, i: usize) -> usize {
        self.close
            .get(i)
            .copied()
            .flatten()
            .map_or(i + 1, |c| c + 1)
    }

    /// The source text of tokens `i..j`, whitespace runs as one space, at most 120 characters.
    /// What lies between two tokens (spaces, line breaks, comments) is one space: a block's
    /// comment lines are not shown as part of its expression.
    pub fn span(&self, i: usize, j: usize) -> String {
        let toks = self.toks.get(i..j.min(self.toks.len())).unwrap_or(&[]);
        // Whitespace runs as one space, stopping once past 120 characters (an item can be
        // most of a 5 MiB file; only its start is shown).
        let mut out = String::new();
        let mut n = 0usize;
        let mut space = false;
        let mut prev_end = None;
        for t in toks {
            if prev_end.is_some_and(|e| t.start > e) {
                space = n > 0;
            }
            prev_end = Some(t.end.max(t.start));
            let raw = self.src.get(t.start..t.end.max(t.start)).unwrap_or("");
            for c in raw.chars() {
                if c.is_whitespace() {
                    space = n > 0;
                    continue;
                }
                if space {
                    out.push(' ');
                    n += 1;
                    space = false;
                }
                out.push(c);
                n += 1;
                if n > 120 {
                    let mut cut: String = out.chars().take(119).collect();
                    cut.push('…');
                    return cut;
                }
            }
        }
        out
    }

    /// The end of an expression starting at `i`: the first comma or closing bracket outside
    /// brackets; with `line`, also a line break not after a comma or an operator (Ruby and
    /// Elixir calls without parentheses), or a Ruby `do`.
    pub fn expr_end(&self, i: usize, line: bool) -> usize {
        let mut k = i;
        while let Some(t) = self.toks.get(k) {
            if k > i && line && t.nl && !self.continues(k - 1) {
                return k;
            }
            match t.k {
                K::P(',' | ')' | ']' | '}') => return k,
                K::P('(' | '[' | '{') => k = self.after(k),
                K::Ident if line && k > i && self.text(k) == "do" => return k,
                _ => k += 1,
            }
        }
        k
    }

    /// The end of a call's arguments written without parentheses (Ruby, Elixir): expressions
    /// joined by commas, a line break after a comma continuing them.
    pub fn args_end(&self, i: usize) -> usize {
        let mut k = i;
        loop {
            let e = self.expr_end(k, true);
            if self.p(e, ',') {
                k = e + 1;
            } else {
                return e;
            }
        }
    }

    fn continues(&self, k: usize) -> bool {
        self.toks.get(k).is_some_and(|t| {
            matches!(
                t.k,
                K::P(',' | '\\' | '+' | '-' | '*' | '/' | '=' | '(' | '[' | '{' | '|' | '.')
            )
        })
    }

    /// Splits `i..j` at commas outside brackets into ranges (a trailing comma ignored).
    pub fn split(&self, i: usize, j: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut a = i;
        let mut k = i;
        while k < j {
            if self.p(k, ',') {
                out.push((a, k));
                a = k + 1;
                k += 1;
            } else if matches!(self.toks.get(k).map(|t| &t.k), Some(K::P('(' | '[' | '{'))) {
                k = self.after(k).min(j);
            } else {
                k += 1;
            }
        }
        if a < j {
            out.push((a, j));
        }
        out
    }

    /// A keyword argument or map entry in `i..j`: `key: v`, `key = v` (Python), `"key": v`,
    /// `:key => v`, `"key" => v`. Returns the key, its position and where the value starts.
    pub fn keyed(&self, i: usize, j: usize) -> Option<(String, Pos, usize)> {
        let t = self.toks.get(i)?;
        if i + 2 > j {
            return None;
        }
        let key = match &t.k {
            K::Ident => self.text(i).to_owned(),
            K::Str {
                value,
                interp: false,
            } => value.clone(),
            K::Sym(s) => s.clone(),
            _ => return None,
        };
        let next = self.toks.get(i + 1)?;
        let colon = next.is(':') && !self.p(i + 2, ':');
        let colon_ok = colon
            && match self.fam {
                Fam::Ruby | Fam::Elixir => t.k != K::Ident || next.start == t.end,
                _ => true,
            };
        let rocket = next.is('=') && self.p(i + 2, '>');
        let py_kw =
            self.fam == Fam::Python && t.k == K::Ident && next.is('=') && !self.p(i + 2, '=');
        if colon_ok || py_kw {
            Some((key, t.at, i + 2))
        } else if rocket && i + 3 <= j {
            Some((key, t.at, i + 3))
        } else {
            None
        }
    }

    /// A JS object's shorthand entry `{ connection }` (the key names a variable) or spread
    /// `...rest` (kept as the entry `...`).
    fn shorthand(&self, a: usize, b: usize) -> Option<(String, Pos, usize)> {
        if self.fam != Fam::Js {
            return None;
        }
        let t = self.toks.get(a)?;
        if b == a + 1 && t.k == K::Ident {
            return Some((self.text(a).to_owned(), t.at, a));
        }
        (self.p(a, '.') && self.p(a + 1, '.') && self.p(a + 2, '.'))
            .then(|| ("...".to_owned(), t.at, a + 3))
    }

    /// The value of tokens `i..j`.
    pub fn item(&self, i: usize, j: usize) -> Item {
        self.item_at(i, j, 0)
    }

    fn item_at(&self, i: usize, j: usize, depth: usize) -> Item {
        let at = self.pos(i);
        let val = if depth > NESTING || i >= j {
            Val::Other
        } else {
            self.val(i, j, depth)
        };
        Item {
            val,
            at,
            text: self.span(i, j),
        }
    }

    fn val(&self, mut i: usize, j: usize, depth: usize) -> Val {
        if self.fam == Fam::Go && self.p(i, '&') {
            i += 1;
        }
        let Some(t) = self.toks.get(i) else {
            return Val::Other;
        };
        if j == i + 1 {
            return self.single(i, depth);
        }
        if t.is('-') && j == i + 2 {
            if let Val::Num(n) = self.single(i + 1, depth) {
                return Val::Num(-n);
            }
        }
        if matches!(t.k, K::P('(' | '[' | '{'))
            && self.close.get(i).copied().flatten() == Some(j - 1)
        {
            return self.bracket(i, j, depth);
        }
        if let Some(v) = self.duration(i, j) {
            return v;
        }
        if let Some(p) = self.path_end(i, j) {
            if p == j {
                return Val::Name(self.span(i, j));
            }
            // A typed composite literal: `temporal.RetryPolicy{…}`, `[]string{…}`.
            if self.fam == Fam::Go && self.p(p, '{') && self.after(p) == j {
                return self.bracket(p, j, depth);
            }
        }
        if self.fam == Fam::Go && self.p(i, '[') && self.p(i + 1, ']') {
            if let Some(p) = self.path_end(i + 2, j) {
                if self.p(p, '{') && self.after(p) == j {
                    return self.bracket(p, j, depth);
                }
            }
        }
        Val::Other
    }

    fn single(&self, i: usize, depth: usize) -> Val {
        let Some(t) = self.toks.get(i) else {
            return Val::Other;
        };
        match &t.k {
            K::Num => number(self.text(i)).map_or(Val::Other, Val::Num),
            K::Str {
                value,
                interp: false,
            } => Val::Str(value.clone()),
            K::Str { .. } | K::P(_) => Val::Other,
            K::Sym(s) => Val::Sym(s.clone()),
            K::Ident => match self.text(i) {
                "true" | "True" => Val::Bool(true),
                "false" | "False" => Val::Bool(false),
                "nil" | "None" | "null" => Val::Null,
                name => match self.consts.get(name) {
                    Some(&(a, b)) if depth < 4 => self.item_at(a, b, depth + 1).val,
                    _ => Val::Name(name.to_owned()),
                },
            },
        }
    }

    fn bracket(&self, i: usize, j: usize, depth: usize) -> Val {
        let parts = self.split(i + 1, j - 1);
        let keyed: Vec<_> = parts
            .iter()
            .map(|&(a, b)| self.keyed(a, b).or_else(|| self.shorthand(a, b)))
            .collect();
        let open = self.toks.get(i).map(|t| t.k.clone());
        if !parts.is_empty() && keyed.iter().all(Option::is_some) {
            let entries = parts
                .iter()
                .zip(keyed)
                .filter_map(|(&(_, b), k)| {
                    let (key, at, v) = k?;
                    Some(Entry {
                        key,
                        at,
                        item: self.item_at(v, b, depth + 1),
                    })
                })
                .collect();
            return Val::Map(entries);
        }
        match open {
            Some(K::P('{')) if parts.is_empty() => Val::Map(Vec::new()),
            Some(K::P('(')) if parts.len() == 1 && !self.p(j.saturating_sub(2), ',') => {
                self.item_at(i + 1, j - 1, depth + 1).val
            }
            Some(K::P('{')) if self.fam != Fam::Go => Val::Other,
            _ => Val::List(
                parts
                    .iter()
                    .map(|&(a, b)| self.item_at(a, b, depth + 1))
                    .collect(),
            ),
        }
    }

    /// The end of a dotted path starting at `i` (identifiers joined by `.` or `::`).
    pub fn path_end(&self, i: usize, j: usize) -> Option<usize> {
        let mut k = i;
        let first = self.toks.get(k)?;
        if !matches!(first.k, K::Ident | K::Sym(_)) {
            return None;
        }
        k += 1;
        loop {
            if k + 1 < j && self.p(k, '.') && self.toks.get(k + 1).is_some_and(|t| t.k == K::Ident)
            {
                k += 2;
            } else if k + 2 < j
                && self.p(k, ':')
                && self.p(k + 1, ':')
                && self.toks.get(k + 2).is_some_and(|t| t.k == K::Ident)
            {
                k += 3;
            } else {
                return Some(k);
            }
        }
    }

    /// A duration with its unit: Ruby `5.seconds`, Elixir `:timer.seconds(30)`, Go products
    /// of numbers and `time.Second`-style units; a product of plain numbers is a number.
    fn duration(&self, i: usize, j: usize) -> Option<Val> {
        // Ruby: N.unit
        if self.fam == Fam::Ruby && j == i + 3 && self.p(i + 1, '.') {
            let n = match self.single(i, 9) {
                Val::Num(n) => n,
                _ => return None,
            };
            return ruby_unit(self.text(i + 2)).map(|u| Val::Ms(n * u));
        }
        // Elixir: :timer.seconds(N)
        if self.fam == Fam::Elixir
            && j == i + 6
            && self
                .toks
                .get(i)
                .is_some_and(|t| t.k == K::Sym("timer".into()))
            && self.p(i + 1, '.')
            && self.p(i + 3, '(')
            && self.p(i + 5, ')')
        {
            let n = number(self.text(i + 4))?;
            let u = match self.text(i + 2) {
                "seconds" => 1_000.0,
                "minutes" => 60_000.0,
                "hours" => 3_600_000.0,
                _ => return None,
            };
            return Some(Val::Ms(n * u));
        }
        // A product: factor (* factor)*
        let mut k = i;
        let mut product = 1.0f64;
        let mut unit = false;
        loop {
            let t = self.toks.get(k)?;
            if t.k == K::Num {
                product *= number(self.text(k))?;
                k += 1;
            } else if self.fam == Fam::Go && self.word(k, "time") && self.p(k + 1, '.') {
                product *= go_unit(self.text(k + 2))?;
                unit = true;
                k += 3;
            } else {
                return None;
            }
            if k == j {
                break;
            }
            if !self.p(k, '*') || k + 1 >= j {
                return None;
            }
            k += 1;
        }
        if k != j || (k == i + 1) {
            return None;
        }
        Some(if unit {
            Val::Ms(product)
        } else {
            Val::Num(product)
        })
    }

    fn bindings(&self) -> HashMap<String, (usize, usize)> {
        let mut seen: HashMap<String, (u32, Option<(usize, usize)>)> = HashMap::new();
        for i in 0..self.toks.len() {
            let Some((name, v)) = self.binding_at(i) else {
                continue;
            };
            let end = self.expr_end(v, true);
            let e = seen.entry(name).or_insert((0, None));
            e.0 += 1;
            if end > v && self.literal_tokens(v, end) {
                e.1 = Some((v, end));
            }
        }
        seen.into_iter()
            .filter_map(|(k, (n, r))| if n == 1 { r.map(|r| (k, r)) } else { None })
            .collect()
    }

    /// `NAME = …` at a statement's start (Python, Ruby), `const NAME = …` / `const NAME: T =
    /// …` (JS, Go), `@name …` (Elixir): the name and where the value starts.
    fn binding_at(&self, i: usize) -> Option<(String, usize)> {
        let t = self.toks.get(i)?;
        match self.fam {
            Fam::Python | Fam::Ruby
                if t.k == K::Ident && t.nl && (self.fam == Fam::Ruby || t.at.column == 1) =>
            {
                let name = self.text(i);
                let upper = name.chars().next().is_some_and(char::is_uppercase);
                (self.p(i + 1, '=') && !self.p(i + 2, '=') && (upper || self.fam == Fam::Python))
                    .then(|| (name.to_owned(), i + 2))
            }
            Fam::Js | Fam::Go if self.word(i, "const") => {
                let name = self.text(i + 1).to_owned();
                if self.p(i + 2, '=') {
                    return Some((name, i + 3));
                }
                if self.fam == Fam::Js && self.p(i + 2, ':') {
                    let eq = (i + 3..i + 8).find(|&k| self.p(k, '='))?;
                    return Some((name, eq + 1));
                }
                None
            }
            Fam::Elixir
                if t.is('@') && t.nl && self.toks.get(i + 1).is_some_and(|n| n.k == K::Ident) =>
            {
                Some((self.text(i + 1).to_owned(), i + 2))
            }
            _ => None,
        }
    }

    fn literal_tokens(&self, i: usize, j: usize) -> bool {
        !matches!(self.item_at(i, j, 1).val, Val::Other | Val::Name(_))
    }
}

/// A number as written: `10_000`, `1.5`, `1e3`, `0x1F`; `None` for anything else.
pub fn number(s: &str) -> Option<f64> {
    let s: String = s.chars().filter(|&c| c != '_').collect();
    let s = s.trim_end_matches(['n', 'L', 'l', 'f']);
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        return u64::from_str_radix(h, 16).ok().map(|v| v as f64);
    }
    s.parse::<f64>().ok().filter(|v| v.is_finite())
}

fn ruby_unit(u: &str) -> Option<f64> {
    Some(match u {
        "second" | "seconds" => 1_000.0,
        "minute" | "minutes" => 60_000.0,
        "hour" | "hours" => 3_600_000.0,
        "day" | "days" => 86_400_000.0,
        "week" | "weeks" => 604_800_000.0,
        _ => return None,
    })
}

fn go_unit(u: &str) -> Option<f64> {
    Some(match u {
        "Nanosecond" => 1e-6,
        "Microsecond" => 1e-3,
        "Millisecond" => 1.0,
        "Second" => 1_000.0,
        "Minute" => 60_000.0,
        "Hour" => 3_600_000.0,
        _ => return None,
    })
}
