//! Terraform's JSON syntax (`*.tf.json`: what CDK for Terraform synthesises, and what teams
//! generate from scripts), read into the same resources as the HCL reader
//! ([`super::terraform`]) so the jobs, joins and findings are the same.
//!
//! The syntax (HashiCorp's "JSON Configuration Syntax"): `"resource"` holds an object of
//! resource types, each an object of names, each the resource's body; at every level an array
//! of such objects may stand for the object. In a body, a nested block is an object or an
//! array of objects. A string is a template: `"${aws_sqs_queue.jobs.arn}"` is that
//! expression, read with hcl-edit like the HCL file's (a reference joins, `jsonencode` of a
//! literal object is read, `var.*` is not resolved); a JSON object written as a string with
//! interpolations in its values (CDK for Terraform's `JSON.stringify`) is read as that object;
//! any other string with an interpolation among other text is not resolved; `$${` and `%%{`
//! are a literal `${` and `%{`. Keys named `//` are comments.

use super::found::{Found, ReadError};
use super::terraform::{assemble, json_with_interpolations, Conv, Resource, EXPR_TAG};
use super::tree::{Kind, Node};

/// Whether `doc` is a Terraform JSON configuration with AWS resources: a top-level
/// `"resource"` whose types start with `aws_`.
pub fn is_config(doc: &Node) -> bool {
    doc.get("resource").is_some_and(|r| {
        objects(r).any(|types| {
            types
                .entries()
                .iter()
                .any(|(k, _, _)| k.starts_with("aws_"))
        })
    })
}

/// The jobs of the configurations among `docs` (one JSON document, in practice).
///
/// # Errors
/// None: the documents are parsed already; `Result` for the readers' common shape.
pub fn read(docs: &[Node]) -> Result<Vec<Found>, ReadError> {
    let mut resources = Vec::new();
    for doc in docs.iter().filter(|d| is_config(d)) {
        let Some(r) = doc.get("resource") else {
            continue;
        };
        for types in objects(r) {
            for (kind, _, names) in types.entries().iter().filter(|(k, _, _)| k != "//") {
                for named in objects(names) {
                    for (name, at, body) in named.entries().iter().filter(|(k, _, _)| k != "//") {
                        for body in objects(body) {
                            resources.push(Resource {
                                kind: kind.clone(),
                                name: name.clone(),
                                at: *at,
                                body: body_node(body),
                            });
                        }
                    }
                }
            }
        }
    }
    Ok(assemble(&resources))
}

/// The objects a level stands for: itself if an object, the objects of an array.
fn objects(n: &Node) -> impl Iterator<Item = &Node> {
    let (one, many): (Option<&Node>, &[Node]) = match &n.kind {
        Kind::Map(_) => (Some(n), &[]),
        Kind::Seq(items) => (None, items),
        Kind::Scalar { .. } => (None, &[]),
    };
    one.into_iter()
        .chain(many.iter().filter(|i| matches!(i.kind, Kind::Map(_))))
}

/// A body as the HCL reader's: a nested block given as an array of one object becomes that
/// object, every string a template (see the module's text).
fn body_node(n: &Node) -> Node {
    match &n.kind {
        Kind::Scalar { text, plain: false } if n.tag.is_none() => template(n, text),
        Kind::Scalar { .. } => n.clone(),
        Kind::Seq(items) => match items.as_slice() {
            [one] if matches!(one.kind, Kind::Map(_)) => body_node(one),
            _ => Node {
                at: n.at,
                tag: None,
                kind: Kind::Seq(items.iter().map(body_node).collect()),
            },
        },
        Kind::Map(m) => Node {
            at: n.at,
            tag: None,
            kind: Kind::Map(
                m.iter()
                    .filter(|(k, _, _)| k != "//")
                    .map(|(k, at, v)| (k.clone(), *at, body_node(v)))
                    .collect(),
            ),
        },
    }
}

/// A JSON string as Terraform reads it: a literal (escapes undone), one interpolation (the
/// expression, read by hcl-edit; its positions are the string's), or anything else with an
/// interpolation or a directive (not resolved, as written).
fn template(n: &Node, text: &str) -> Node {
    let opaque = || Node {
        at: n.at,
        tag: Some(EXPR_TAG.to_owned()),
        kind: Kind::Scalar {
            text: text.to_owned(),
            plain: false,
        },
    };
    if !has_template_sequence(text) {
        return Node {
            at: n.at,
            tag: None,
            kind: Kind::Scalar {
                text: text.replace("$${", "${").replace("%%{", "%{"),
                plain: false,
            },
        };
    }
    let Some(inner) = text
        .strip_prefix("${")
        .and_then(|t| t.strip_suffix('}'))
        .filter(|t| !has_template_sequence(t))
    else {
        return json_with_interpolations(text, n.at).unwrap_or_else(opaque);
    };
    match hcl_edit::parser::parse_expr(inner) {
        Ok(expr) => {
            let mut node = Conv::new(inner).expr(&expr);
            node.relocate(n.at);
            node
        }
        Err(_) => opaque(),
    }
}

/// Whether `text` holds an interpolation `${` or a directive `%{` that is not escaped
/// (`$${`, `%%{`).
fn has_template_sequence(text: &str) -> bool {
    let b = text.as_bytes();
    (0..b.len().saturating_sub(1))
        .any(|i| (b[i] == b'$' || b[i] == b'%') && b[i + 1] == b'{' && (i == 0 || b[i - 1] != b[i]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(text: &str) -> Node {
        let doc = super::super::yaml::documents(&format!("{{\"v\": {text}}}"))
            .expect("JSON")
            .remove(0);
        body_node(doc.get("v").expect("v"))
    }

    #[test]
    fn strings_are_templates() {
        assert_eq!(node("\"60\"").text(), Some("60"));
        assert_eq!(node("\"a $${b} %%{c}\"").text(), Some("a ${b} %{c}"));
        let r = node("\"${aws_sqs_queue.jobs.arn}\"");
        assert_eq!(r.tag.as_deref(), Some(EXPR_TAG));
        assert_eq!(r.raw_text(), Some("aws_sqs_queue.jobs.arn"));
        let mixed = node("\"arn:${var.region}:x\"");
        assert_eq!(mixed.tag.as_deref(), Some(EXPR_TAG));
        assert_eq!(mixed.raw_text(), Some("arn:${var.region}:x"));
        let policy = node("\"${jsonencode({maxReceiveCount = 4})}\"");
        assert_eq!(
            policy.get("maxReceiveCount").and_then(Node::text),
            Some("4")
        );
        // Not HCL inside: not resolved, never a panic.
        assert_eq!(node("\"${(}\"").tag.as_deref(), Some(EXPR_TAG));
        assert_eq!(node("\"${\"").tag.as_deref(), Some(EXPR_TAG));
    }

    #[test]
    fn a_block_as_an_array_of_one_object_is_the_object() {
        let n = node("[{\"maximum_concurrency\": 5}]");
        assert_eq!(n.get("maximum_concurrency").and_then(Node::text), Some("5"));
        let list = node("[\"ReportBatchItemFailures\"]");
        assert_eq!(list.items().len(), 1);
    }
}
