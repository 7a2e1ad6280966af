//! The document tree the YAML / JSON readers share: scalars, sequences and mappings with the
//! position of every node and key, and the tag a node carries (CloudFormation's `!Ref`,
//! `!GetAtt` …). Built by [`super::yaml`] from parser events; JSON is read as YAML 1.2 (a
//! superset), so one reader gives positions for both.

use super::found::Pos;

/// A node of a document.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Where the node starts.
    pub at: Pos,
    /// Its local tag without the `!` (`Ref`, `GetAtt`), when it has one.
    pub tag: Option<String>,
    /// What it holds.
    pub kind: Kind,
}

/// What a node holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// A scalar as written (after YAML's escapes); `plain` when unquoted (so `null`, numbers
    /// and booleans are recognised only then).
    Scalar {
        /// The text.
        text: String,
        /// Unquoted.
        plain: bool,
    },
    /// A sequence.
    Seq(Vec<Node>),
    /// A mapping: key text, key position, value.
    Map(Vec<(String, Pos, Node)>),
}

impl Node {
    /// The value under `key` of a mapping, with the key's position.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|(_, n)| n)
    }

    /// The key's position and value under `key` of a mapping.
    pub fn entry(&self, key: &str) -> Option<(Pos, &Node)> {
        match &self.kind {
            Kind::Map(m) => m.iter().find(|(k, _, _)| k == key).map(|(_, p, n)| (*p, n)),
            _ => None,
        }
    }

    /// The value at a path of keys.
    pub fn path(&self, keys: &[&str]) -> Option<&Node> {
        keys.iter().try_fold(self, |n, k| n.get(k))
    }

    /// The scalar's text (`None` for a collection, a tagged node or a null).
    pub fn text(&self) -> Option<&str> {
        match &self.kind {
            Kind::Scalar { text, plain } if self.tag.is_none() => {
                if *plain && matches!(text.as_str(), "" | "~" | "null" | "Null" | "NULL") {
                    None
                } else {
                    Some(text.as_str())
                }
            }
            _ => None,
        }
    }

    /// The scalar's text whatever its tag (`!Ref Queue` → `Queue`).
    pub fn raw_text(&self) -> Option<&str> {
        match &self.kind {
            Kind::Scalar { text, .. } => Some(text),
            _ => None,
        }
    }

    /// The mapping's entries (empty for anything else).
    pub fn entries(&self) -> &[(String, Pos, Node)] {
        match &self.kind {
            Kind::Map(m) => m,
            _ => &[],
        }
    }

    /// The sequence's items (empty for anything else).
    pub fn items(&self) -> &[Node] {
        match &self.kind {
            Kind::Seq(s) => s,
            _ => &[],
        }
    }

    /// Moves every position of the node and of all it holds to `at`: for a document read
    /// from inside a string (a redrive policy as JSON text, a Terraform interpolation), whose
    /// own lines and columns mean nothing in the file.
    pub fn relocate(&mut self, at: Pos) {
        self.at = at;
        match &mut self.kind {
            Kind::Scalar { .. } => {}
            Kind::Seq(items) => items.iter_mut().for_each(|i| i.relocate(at)),
            Kind::Map(m) => m.iter_mut().for_each(|(_, p, v)| {
                *p = at;
                v.relocate(at);
            }),
        }
    }

    /// The node as written, on one line, at most 120 characters (for "not resolved").
    pub fn shown(&self) -> String {
        let mut s = String::new();
        self.show(&mut s);
        if s.chars().count() > 120 {
            s = s.chars().take(119).collect::<String>() + "…";
        }
        s
    }

    fn show(&self, out: &mut String) {
        if out.len() > 200 {
            return;
        }
        if let Some(t) = self.tag.as_ref().filter(|t| *t != "=") {
            out.push('!');
            out.push_str(t);
            out.push(' ');
        }
        match &self.kind {
            Kind::Scalar { text, .. } => out.push_str(text),
            Kind::Seq(items) => {
                out.push('[');
                for (i, n) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    n.show(out);
                }
                out.push(']');
            }
            Kind::Map(m) => {
                out.push('{');
                for (i, (k, _, n)) in m.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(k);
                    out.push_str(": ");
                    n.show(out);
                }
                out.push('}');
            }
        }
    }
}

/// Byte offsets to 1-based line and column (columns in characters), for readers whose parser
/// gives byte ranges (HCL).
pub struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    /// The index of `text`'s line starts.
    pub fn new(text: &'a str) -> Lines<'a> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { text, starts }
    }

    /// The position of byte `offset` (clamped to the text).
    pub fn pos(&self, offset: usize) -> Pos {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|s| *s <= offset).max(1);
        let start = self.starts[line - 1];
        let column = self
            .text
            .get(start..offset)
            .map_or(1, |s| s.chars().count() + 1);
        Pos {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: u32::try_from(column).unwrap_or(u32::MAX),
        }
    }
}
