//! Where a field is in a JSON file: a finding's JSON path (`processes[2].sheet.retry.lease_ms`)
//! to the line and column of the field's name in the text, by dprint's `jsonc-parser`, which
//! keeps every node's byte range. The file has been read by `serde_json` before (strict JSON;
//! jsonc-parser's leniency never decides anything here), and jsonc-parser limits nesting to
//! 512 levels, so a hostile file cannot overflow the stack.

use jsonc_parser::ast::Value;
use jsonc_parser::common::Ranged;
use jsonc_parser::{CollectOptions, ParseOptions};

/// A place in the file: 1-based line and column (columns count Unicode code points, SARIF's
/// `unicodeCodePoints`), and how much of the asked path exists there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in Unicode code points.
    pub column: usize,
    /// The longest prefix of the asked path the file has (`""`: the top of the file); equal
    /// to the asked path when the field itself is in the file.
    pub found: String,
    /// True when the field itself is in the file.
    pub exact: bool,
}

/// One step of a JSON path.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Key(String),
    Index(usize),
}

/// `a.b[2].c` as steps; `""` and `"."` are the top of the file.
fn steps(path: &str) -> Vec<Step> {
    let mut out = Vec::new();
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let (key, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !key.is_empty() {
            out.push(Step::Key(key.to_owned()));
        }
        while let Some(end) = rest.find(']') {
            if let Ok(i) = rest[1..end].parse() {
                out.push(Step::Index(i));
            }
            rest = &rest[end + 1..];
        }
    }
    out
}

/// The text of `steps[..n]` as a path (`processes[2].sheet`).
fn path_of(steps: &[Step]) -> String {
    let mut s = String::new();
    for step in steps {
        match step {
            Step::Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(k);
            }
            Step::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

/// An index of one file's text: its parsed tree and where each line starts.
pub struct PositionIndex<'a> {
    text: &'a str,
    root: Option<Value<'a>>,
    line_starts: Vec<usize>,
}

impl<'a> PositionIndex<'a> {
    /// Indexes `text` (a byte order mark, if any, stripped by the caller). A text the parser
    /// cannot read leaves every path at line 1, column 1.
    pub fn new(text: &'a str) -> PositionIndex<'a> {
        let root =
            jsonc_parser::parse_to_ast(text, &CollectOptions::default(), &ParseOptions::default())
                .ok()
                .and_then(|r| r.value);
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        PositionIndex {
            text,
            root,
            line_starts,
        }
    }

    /// Line and column of byte `offset`.
    fn line_column(&self, offset: usize) -> (usize, usize) {
        let line = self.line_starts.partition_point(|&s| s <= offset).max(1);
        let start = self.line_starts[line - 1];
        let column = self
            .text
            .get(start..offset)
            .map_or(0, |s| s.chars().count());
        (line, column + 1)
    }

    /// Where `path` is: the start of the field's name (an array item: the item), else of the
    /// deepest part of the path the file has (the top of the file: line 1, column 1).
    pub fn locate(&self, path: &str) -> Position {
        let steps = steps(path);
        let mut offset = None;
        let mut depth = 0;
        let mut node = self.root.as_ref();
        for step in &steps {
            let next = match (node, step) {
                (Some(Value::Object(o)), Step::Key(k)) => o
                    .properties
                    .iter()
                    .find(|p| p.name.as_str() == k)
                    .map(|p| (p.name.start(), &p.value)),
                (Some(Value::Array(a)), Step::Index(i)) => {
                    a.elements.get(*i).map(|v| (v.start(), v))
                }
                _ => None,
            };
            let Some((at, value)) = next else { break };
            offset = Some(at);
            node = Some(value);
            depth += 1;
        }
        let (line, column) = offset.map_or((1, 1), |o| self.line_column(o));
        Position {
            line,
            column,
            found: path_of(&steps[..depth]),
            exact: depth == steps.len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_its_parent_and_the_top() {
        let text =
            "{\n  \"retry\": {\n    \"lease_ms\": 5,\n    \"x\": [1, {\"予約\": 2}]\n  }\n}\n";
        let idx = PositionIndex::new(text);
        let at = |p: &str| {
            let pos = idx.locate(p);
            (pos.line, pos.column, pos.found, pos.exact)
        };
        assert_eq!(at("retry.lease_ms"), (3, 5, "retry.lease_ms".into(), true));
        assert_eq!(
            at("retry.x[1].予約"),
            (4, 15, "retry.x[1].予約".into(), true)
        );
        assert_eq!(at("retry.backoff.jitter"), (2, 3, "retry".into(), false));
        assert_eq!(at("failure.notify"), (1, 1, String::new(), false));
        assert_eq!(at(""), (1, 1, String::new(), true));
    }
}
