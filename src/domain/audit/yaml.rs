//! YAML (and JSON, read as YAML 1.2) into [`Node`] trees with positions, from the events of
//! `granit-parser` (the pure-Rust, panic-free parser serde-saphyr uses). Limits against
//! hostile files: nesting deeper than [`MAX_DEPTH`] and more than [`MAX_NODES`] nodes —
//! aliases counted at their expanded size, so a "billion laughs" file stops early — give
//! [`ReadError::TooDeep`] at the place the limit was reached.

use super::found::{Pos, ReadError, MAX_DEPTH};
use super::tree::{Kind, Node};
use granit_parser::{ErrorKind, Event, Options, Parser, ScanError};
use std::collections::HashMap;

/// The most nodes a file may hold, aliases counted expanded (a 5 MiB file of real
/// configuration holds far fewer).
pub const MAX_NODES: usize = 200_000;

/// A collection being read.
struct Frame {
    at: Pos,
    tag: Option<String>,
    anchor: usize,
    /// `None`: a sequence.
    map: Option<Vec<(String, Pos, Node)>>,
    items: Vec<Node>,
    key: Option<(String, Pos)>,
}

fn pos(m: &granit_parser::Marker) -> Pos {
    Pos {
        line: u32::try_from(m.line()).unwrap_or(u32::MAX).max(1),
        column: u32::try_from(m.col()).unwrap_or(u32::MAX).saturating_add(1),
    }
}

fn syntax(e: &ScanError) -> ReadError {
    ReadError::Syntax {
        at: pos(e.marker()),
        message: e.info().to_owned(),
        reason: reason(e.kind()),
    }
}

/// The locale key (locales/worker/audit.yml) that says a YAML syntax error of this kind in
/// plain words, for the kinds a hand-edited configuration runs into; `None` for the rest
/// (directives, tags, input limits), which keep the parser's message.
///
/// Source: granit-parser 1's `ErrorKind`.
fn reason(kind: &ErrorKind) -> Option<&'static str> {
    Some(match kind {
        ErrorKind::UnexpectedEofFlowSequence
        | ErrorKind::UnexpectedEofFlowMapping
        | ErrorKind::UnexpectedEofImplicitFlowMapping
        | ErrorKind::UnexpectedEofBlockSequence
        | ErrorKind::UnexpectedEofBlockMapping
        | ErrorKind::UnexpectedEof => "audit.yaml.eof",
        ErrorKind::ExpectedBlockMappingKey
        | ErrorKind::InvalidIndentation
        | ErrorKind::InvalidSimpleKey
        | ErrorKind::SimpleKeyExpected
        | ErrorKind::MappingValueNotAllowed
        | ErrorKind::InvalidColonPlacement => "audit.yaml.indent",
        ErrorKind::ExpectedBlockSequenceEntry
        | ErrorKind::BlockSequenceEntryNotAllowed
        | ErrorKind::BlockEntryInFlowCollection
        | ErrorKind::InvalidBlockEntryWhitespace => "audit.yaml.dash",
        ErrorKind::ExpectedFlowMappingSeparator
        | ErrorKind::ExpectedFlowSequenceSeparator
        | ErrorKind::MisplacedFlowCollectionEnd
        | ErrorKind::MismatchedFlowCollectionEnd { .. }
        | ErrorKind::UnclosedFlowCollection { .. } => "audit.yaml.brackets",
        ErrorKind::TabNotAllowed
        | ErrorKind::TabInBlockIndentation
        | ErrorKind::TabInIndentation
        | ErrorKind::TabAtBlockScalarStart => "audit.yaml.tab",
        ErrorKind::UnclosedQuotedScalar
        | ErrorKind::InvalidTrailingSingleQuotedScalar
        | ErrorKind::InvalidTrailingDoubleQuotedScalar
        | ErrorKind::UnknownQuotedScalarEscape
        | ErrorKind::InvalidQuotedScalarHexEscape
        | ErrorKind::InvalidQuotedScalarIndent => "audit.yaml.quote",
        ErrorKind::UnknownAnchor => "audit.yaml.anchor",
        ErrorKind::UnexpectedCharacter { .. } | ErrorKind::ExpectedNodeContent => {
            "audit.yaml.character"
        }
        _ => return None,
    })
}

fn local_tag(tag: Option<&granit_parser::Tag>) -> Option<String> {
    let t = tag?;
    (t.handle() == "!").then(|| t.suffix().to_owned())
}

fn size(n: &Node) -> usize {
    match &n.kind {
        Kind::Scalar { .. } => 1,
        Kind::Seq(s) => 1 + s.iter().map(size).sum::<usize>(),
        Kind::Map(m) => 1 + m.iter().map(|(_, _, v)| 1 + size(v)).sum::<usize>(),
    }
}

fn open(
    stack: &mut Vec<Frame>,
    at: Pos,
    anchor: usize,
    tag: Option<&granit_parser::Tag>,
    is_map: bool,
) -> Result<(), ReadError> {
    if stack.len() >= MAX_DEPTH {
        return Err(ReadError::TooDeep { at });
    }
    stack.push(Frame {
        at,
        tag: local_tag(tag),
        anchor,
        map: is_map.then(Vec::new),
        items: Vec::new(),
        key: None,
    });
    Ok(())
}

/// Where a key of a mapping is written a second time (the later place), if one is: YAML
/// wants keys unique, Kubernetes' strict decoding refuses such a file and lenient readers
/// keep only the last value, so the audit would read another value than the system runs.
/// The merge key `<<` is left alone. Sorted, not compared pairwise, so a mapping of many
/// keys costs `n log n`.
fn duplicate_key(entries: &[(String, Pos, Node)]) -> Option<Pos> {
    let mut keys: Vec<(&str, Pos)> = entries.iter().map(|(k, p, _)| (k.as_str(), *p)).collect();
    keys.sort_unstable();
    keys.windows(2)
        .find(|w| w[0].0 == w[1].0 && w[0].0 != "<<")
        .map(|w| w[1].1)
}

/// Every document of `text`, in order.
///
/// # Errors
/// [`ReadError::Syntax`] with the parser's message and place; [`ReadError::TooDeep`] past
/// [`MAX_DEPTH`] levels or [`MAX_NODES`] nodes.
pub fn documents(text: &str) -> Result<Vec<Node>, ReadError> {
    let mut options = Options::default();
    options.emit_comments = false;
    let parser = Parser::new_from_str_with_options(text, options);
    let mut docs = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut anchors: HashMap<usize, Node> = HashMap::new();
    let mut count = 0usize;
    for event in parser {
        let (event, span) = event.map_err(|e| syntax(&e))?;
        // A tagged node starts at its tag (`!Ref X`), as written.
        let at = pos(span.tag_start.as_ref().unwrap_or(&span.start));
        let done = match event {
            Event::Scalar(text, style, anchor, tag) => {
                count += 1;
                let node = Node {
                    at,
                    tag: local_tag(tag.as_deref()),
                    kind: Kind::Scalar {
                        text: text.into_owned(),
                        plain: style == granit_parser::ScalarStyle::Plain,
                    },
                };
                if anchor != 0 {
                    anchors.insert(anchor, node.clone());
                }
                Some(node)
            }
            Event::Alias(id) => {
                let node = anchors.get(&id).cloned().ok_or(ReadError::Syntax {
                    at,
                    message: "alias to an unknown anchor".to_owned(),
                    reason: Some("audit.yaml.anchor"),
                })?;
                count = count.saturating_add(size(&node));
                Some(node)
            }
            Event::SequenceStart(_, anchor, tag) => {
                open(&mut stack, at, anchor, tag.as_deref(), false)?;
                count += 1;
                None
            }
            Event::MappingStart(_, anchor, tag) => {
                open(&mut stack, at, anchor, tag.as_deref(), true)?;
                count += 1;
                None
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(f) = stack.pop() else {
                    continue;
                };
                let kind = match f.map {
                    Some(m) => {
                        if let Some(at) = duplicate_key(&m) {
                            return Err(ReadError::Syntax {
                                at,
                                message: "duplicate key in a mapping".to_owned(),
                                reason: Some("audit.yaml.duplicate"),
                            });
                        }
                        Kind::Map(m)
                    }
                    None => Kind::Seq(f.items),
                };
                let node = Node {
                    at: f.at,
                    tag: f.tag,
                    kind,
                };
                if f.anchor != 0 {
                    anchors.insert(f.anchor, node.clone());
                }
                Some(node)
            }
            _ => None,
        };
        if count > MAX_NODES {
            return Err(ReadError::TooDeep { at });
        }
        let Some(node) = done else {
            continue;
        };
        match stack.last_mut() {
            None => docs.push(node),
            Some(parent) => match &mut parent.map {
                None => parent.items.push(node),
                Some(entries) => match parent.key.take() {
                    None => {
                        let key = node.text().map_or_else(|| node.shown(), str::to_owned);
                        parent.key = Some((key, node.at));
                    }
                    Some((k, p)) => entries.push((k, p, node)),
                },
            },
        }
    }
    Ok(docs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tags_positions_and_refuses_bombs() {
        let docs = documents("a:\n  b: !Ref X\n---\n[1, 2]\n").unwrap_or_default();
        assert_eq!(docs.len(), 2);
        let b = docs[0].path(&["a", "b"]).cloned();
        assert_eq!(
            b.as_ref().and_then(|b| b.tag.clone()).as_deref(),
            Some("Ref")
        );
        assert_eq!(b.map(|b| b.at), Some(Pos { line: 2, column: 6 }));
        let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..9 {
            let p = i - 1;
            bomb.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        assert!(matches!(documents(&bomb), Err(ReadError::TooDeep { .. })));
        let deep = "[".repeat(100) + &"]".repeat(100);
        assert!(matches!(documents(&deep), Err(ReadError::TooDeep { .. })));
    }
}
