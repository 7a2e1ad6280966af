//! Terraform (HCL, read with `hcl-edit`, which keeps every node's span): `aws_sqs_queue`,
//! `aws_lambda_function` and `aws_lambda_event_source_mapping` (`brief/QUEUES.md` §2).
//! Literal values only: `redrive_policy = jsonencode({...})` of a literal object (or a JSON
//! string or heredoc) is read; `var.*`, `local.*`, a function and an attribute of another
//! resource are "not resolved", the expression as written. A reference to a queue or a
//! function of the same file (`aws_sqs_queue.jobs.arn`) joins the mapping to them.

use super::found::{Fact, Found, Pos, ReadError, Setting, Value};
use super::setting::{dead_letter_limits, dead_letter_of, seconds, stated, unresolved, whole};
use super::tree::{Kind, Lines, Node};
use crate::domain::queues::TargetId;
use hcl_edit::expr::{Expression, ObjectKey};
use hcl_edit::structure::{Block, BlockLabel, Body, Structure};
use hcl_edit::template::{Element, Template};
use hcl_edit::Span;

/// The tag of a node that stands for an expression the reader does not evaluate; its text
/// is the expression as written.
pub const EXPR_TAG: &str = "=";

/// Turns hcl-edit's syntax tree into the readers' [`Node`] tree, positions from `text`.
pub(super) struct Conv<'a> {
    text: &'a str,
    lines: Lines<'a>,
}

impl<'a> Conv<'a> {
    /// A converter for nodes parsed from `text`.
    pub(super) fn new(text: &'a str) -> Conv<'a> {
        Conv {
            text,
            lines: Lines::new(text),
        }
    }

    fn at(&self, span: Option<std::ops::Range<usize>>) -> Pos {
        self.lines.pos(span.map_or(0, |r| r.start))
    }

    fn source(&self, span: Option<std::ops::Range<usize>>) -> String {
        span.and_then(|r| self.text.get(r))
            .unwrap_or("")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn scalar(at: Pos, text: String, plain: bool) -> Node {
        Node {
            at,
            tag: None,
            kind: Kind::Scalar { text, plain },
        }
    }

    fn literal(t: &Template) -> Option<String> {
        let mut s = String::new();
        for e in t.iter() {
            match e {
                Element::Literal(l) => s.push_str(l.as_str()),
                _ => return None,
            }
        }
        Some(s)
    }

    /// A template as Terraform's JSON syntax writes it: the literal parts, each interpolation
    /// as `${expression}`; `None` with a directive (`%{if}`).
    fn rendered(&self, t: &Template) -> Option<String> {
        let mut s = String::new();
        for e in t.iter() {
            match e {
                Element::Literal(l) => s.push_str(l.as_str()),
                Element::Interpolation(i) => {
                    s.push_str("${");
                    s.push_str(&self.source(i.expr.span()));
                    s.push('}');
                }
                Element::Directive(_) => return None,
            }
        }
        Some(s)
    }

    /// An expression as a node: literals as scalars, arrays, objects, `jsonencode` of a
    /// literal object as that object; anything else tagged [`EXPR_TAG`], as written.
    pub(super) fn expr(&self, e: &Expression) -> Node {
        let at = self.at(e.span());
        match e {
            Expression::Null(_) => Self::scalar(at, "null".to_owned(), true),
            Expression::Bool(b) => Self::scalar(at, b.to_string(), true),
            Expression::Number(n) => Self::scalar(at, n.to_string(), true),
            Expression::String(s) => Self::scalar(at, s.as_str().to_owned(), false),
            Expression::StringTemplate(t) => match Self::literal(t) {
                Some(s) => Self::scalar(at, s, false),
                None => self
                    .rendered(t)
                    .and_then(|r| json_with_interpolations(&r, at))
                    .unwrap_or_else(|| self.opaque(e)),
            },
            Expression::HeredocTemplate(h) => match Self::literal(&h.template) {
                Some(s) => Self::scalar(at, s, false),
                None => self.opaque(e),
            },
            Expression::Array(a) => Node {
                at,
                tag: None,
                kind: Kind::Seq(a.iter().map(|x| self.expr(x)).collect()),
            },
            Expression::Object(o) => Node {
                at,
                tag: None,
                kind: Kind::Map(
                    o.iter()
                        .map(|(k, v)| {
                            let (key, kat) = match k {
                                ObjectKey::Ident(i) => (i.as_str().to_owned(), self.at(i.span())),
                                ObjectKey::Expression(x) => {
                                    let n = self.expr(x);
                                    (n.text().map_or_else(|| n.shown(), str::to_owned), n.at)
                                }
                            };
                            (key, kat, self.expr(v.expr()))
                        })
                        .collect(),
                ),
            },
            Expression::Parenthesis(p) => self.expr(p.inner()),
            Expression::FuncCall(f)
                if f.name.namespace.is_empty()
                    && f.name.name.as_str() == "jsonencode"
                    && f.args.len() == 1 =>
            {
                match f.args.get(0) {
                    Some(inner @ Expression::Object(_)) => {
                        let mut n = self.expr(inner);
                        n.at = at;
                        n
                    }
                    _ => self.opaque(e),
                }
            }
            _ => self.opaque(e),
        }
    }

    fn opaque(&self, e: &Expression) -> Node {
        Node {
            at: self.at(e.span()),
            tag: Some(EXPR_TAG.to_owned()),
            kind: Kind::Scalar {
                text: self.source(e.span()),
                plain: false,
            },
        }
    }

    fn body(&self, b: &Body, at: Pos) -> Node {
        let mut entries = Vec::new();
        for s in b.iter() {
            match s {
                Structure::Attribute(a) => {
                    entries.push((
                        a.key.as_str().to_owned(),
                        self.at(a.key.span()),
                        self.expr(&a.value),
                    ));
                }
                Structure::Block(bl) => {
                    let bat = self.at(bl.ident.span());
                    entries.push((bl.ident.as_str().to_owned(), bat, self.body(&bl.body, bat)));
                }
            }
        }
        Node {
            at,
            tag: None,
            kind: Kind::Map(entries),
        }
    }
}

fn label(l: &BlockLabel) -> &str {
    match l {
        BlockLabel::Ident(i) => i.as_str(),
        BlockLabel::String(s) => s.as_str(),
    }
}

/// A string with interpolations that holds a JSON object — a redrive policy written by hand
/// as `"{\"deadLetterTargetArn\":\"${aws_sqs_queue.dlq.arn}\",\"maxReceiveCount\":4}"`, or
/// CDK for Terraform's output for `JSON.stringify` — as that object: a string value that is
/// one interpolation becomes the expression (so a reference to a queue of the file joins),
/// one with an interpolation among other text stays not resolved; every position is `at`
/// (the string's). `None` when the text is not such an object (an interpolation outside a
/// JSON string, say): the caller keeps the whole string unresolved.
pub(super) fn json_with_interpolations(rendered: &str, at: Pos) -> Option<Node> {
    if !rendered.trim_start().starts_with('{') {
        return None;
    }
    let mut doc = super::yaml::documents(rendered).ok()?.into_iter().next()?;
    if !matches!(doc.kind, Kind::Map(_)) {
        return None;
    }
    fn expressions(n: &mut Node) {
        match &mut n.kind {
            Kind::Scalar { text, plain: false } if n.tag.is_none() && text.contains("${") => {
                let inner = text
                    .strip_prefix("${")
                    .and_then(|t| t.strip_suffix('}'))
                    .filter(|t| !t.contains("${") && !t.contains('}'));
                if let Some(inner) = inner {
                    *text = inner.trim().to_owned();
                }
                n.tag = Some(EXPR_TAG.to_owned());
            }
            Kind::Scalar { .. } => {}
            Kind::Seq(items) => items.iter_mut().for_each(expressions),
            Kind::Map(m) => m.iter_mut().for_each(|(_, _, v)| expressions(v)),
        }
    }
    expressions(&mut doc);
    doc.relocate(at);
    Some(doc)
}

/// A `resource "kind" "name"` block: its body as a node.
pub(super) struct Resource {
    /// The resource type (`aws_sqs_queue`).
    pub(super) kind: String,
    /// Its name.
    pub(super) name: String,
    /// Where the block starts.
    pub(super) at: Pos,
    /// Its attributes and nested blocks.
    pub(super) body: Node,
}

/// The resource `type.name` an expression such as `aws_sqs_queue.jobs.arn` names.
fn reference(n: &Node) -> Option<(String, String)> {
    if n.tag.as_deref() != Some(EXPR_TAG) {
        return None;
    }
    let Kind::Scalar { text, .. } = &n.kind else {
        return None;
    };
    let mut parts = text.split('.');
    let (kind, name) = (parts.next()?, parts.next()?);
    kind.starts_with("aws_").then(|| {
        (
            kind.to_owned(),
            name.trim_end_matches(|c: char| !c.is_alphanumeric() && c != '_' && c != '-')
                .to_owned(),
        )
    })
}

fn queue_settings(q: &Resource, out: &mut Vec<Setting>) {
    let b = &q.body;
    if let Some(n) = b.get("visibility_timeout_seconds") {
        out.push(seconds(
            "visibility_timeout_seconds",
            n,
            "lease-ms",
            Fact::LeaseMs,
        ));
    }
    if let Some(n) = b.get("message_retention_seconds") {
        out.push(seconds(
            "message_retention_seconds",
            n,
            "retention-ms",
            Fact::RetentionMs,
        ));
    }
    let Some(rp) = b.get("redrive_policy") else {
        return;
    };
    let parsed;
    let policy = match (&rp.kind, rp.tag.is_none()) {
        (Kind::Scalar { text, .. }, true) => match super::yaml::documents(text) {
            Ok(mut d) if !d.is_empty() => {
                parsed = d.remove(0);
                &parsed
            }
            _ => {
                out.push(unresolved("redrive_policy", rp.at, "dead-letter", text));
                return;
            }
        },
        _ => rp,
    };
    if !matches!(policy.kind, Kind::Map(_)) || policy.tag.is_some() {
        out.push(unresolved(
            "redrive_policy",
            rp.at,
            "dead-letter",
            &rp.shown(),
        ));
        return;
    }
    let place = |n: &Node| {
        if rp.tag.is_none() && matches!(rp.kind, Kind::Scalar { .. }) {
            rp.at
        } else {
            n.at
        }
    };
    if let Some(n) = policy.get("deadLetterTargetArn") {
        let key = "redrive_policy.deadLetterTargetArn";
        match (reference(n), n.text()) {
            (Some((k, name)), _) => out.push(stated(
                key,
                place(n),
                Fact::DeadLetter(format!("{k}.{name}")),
            )),
            (None, Some(arn)) => out.push(stated(key, place(n), Fact::DeadLetter(arn.to_owned()))),
            (None, None) => out.push(unresolved(key, place(n), "dead-letter", &n.shown())),
        }
    }
    if let Some(n) = policy.get("maxReceiveCount") {
        let mut s = whole(
            "redrive_policy.maxReceiveCount",
            n,
            "max-receive-count",
            Fact::MaxReceiveCount,
        );
        s.at = place(n);
        out.push(s);
    }
}

fn mapping_settings(b: &Node, out: &mut Vec<Setting>) {
    if let Some(n) = b.get("batch_size") {
        out.push(whole("batch_size", n, "batch-size", Fact::BatchSize));
    }
    if let Some(n) = b.get("maximum_batching_window_in_seconds") {
        out.push(seconds(
            "maximum_batching_window_in_seconds",
            n,
            "batch-window-ms",
            Fact::BatchWindowMs,
        ));
    }
    if let Some(n) = b.path(&["scaling_config", "maximum_concurrency"]) {
        out.push(whole(
            "scaling_config.maximum_concurrency",
            n,
            "concurrency",
            Fact::Concurrency,
        ));
    }
    if let Some(n) = b.get("function_response_types") {
        let partial = n
            .items()
            .iter()
            .any(|i| i.text() == Some("ReportBatchItemFailures"));
        out.push(stated(
            "function_response_types",
            n.at,
            Fact::PartialBatchResponse(partial),
        ));
    }
}

/// hcl-edit's syntax `message` in Japanese: its form is "invalid LABEL; expected A, B or C",
/// "invalid LABEL; unexpected token" or either part alone, optionally followed by "; CAUSE"
/// (hcl-edit 0.10's `format_context_error`; each expectation is winnow's `StrContextValue` as
/// displayed: `` `=` ``, "newline", a description). The label and the descriptions are
/// translated, the characters kept; a cause stays in English in brackets. `None` for a
/// message not of that form or with a word not known here (it is then shown as it is).
pub fn words_ja(message: &str) -> Option<String> {
    const WORDS: [(&str, &str); 19] = [
        ("object item", "オブジェクトの要素"),
        ("attribute", "属性"),
        ("unicode 8-digit hex code", "8桁のUnicodeコード"),
        ("unicode 4-digit hex code", "4桁のUnicodeコード"),
        ("traversal operator", "参照の演算子"),
        ("structure", "構造"),
        ("object value assignment", "オブジェクトの値の代入"),
        ("nesting depth", "入れ子の深さ"),
        ("expression", "式"),
        ("escape sequence", "エスケープシーケンス"),
        ("block body", "ブロックの本体"),
        ("binary operation", "二項演算"),
        ("digit", "数字"),
        ("unsigned integer", "符号なし整数"),
        ("letter", "英字"),
        ("identifier", "識別子"),
        ("heredoc end delimiter", "ヒアドキュメントの終わりの区切り"),
        ("eof", "ファイルの終わり"),
        ("newline", "改行"),
    ];
    let word = |w: &str| -> Option<String> {
        if w.len() > 2 && w.starts_with('`') && w.ends_with('`') || w == "'`'" {
            return Some(w.to_owned());
        }
        WORDS
            .iter()
            .find(|(en, _)| *en == w)
            .map(|(_, ja)| (*ja).to_owned())
    };
    let (label, rest) = match message.strip_prefix("invalid ") {
        Some(r) => {
            let (l, rest) = r.split_once("; ")?;
            (Some(word(l)?), rest)
        }
        None => (None, message),
    };
    let (what, cause) = match rest.split_once("; ") {
        Some((what, cause)) => (what, Some(cause)),
        None => (rest, None),
    };
    let said = if what == "unexpected token" {
        "予期しない記号があります".to_owned()
    } else {
        let list = what.strip_prefix("expected ")?;
        let (head, last) = list.rsplit_once(" or ").unwrap_or(("", list));
        let mut items = head
            .split(", ")
            .filter(|s| !s.is_empty())
            .map(word)
            .collect::<Option<Vec<_>>>()?;
        items.push(word(last)?);
        match items.len() {
            1 => format!("{}が必要です", items[0]),
            _ => format!("{}のどれかが必要です", items.join("・")),
        }
    };
    let mut out = match label {
        Some(l) => format!("{l}が正しくありません。{said}"),
        None => said,
    };
    if let Some(c) = cause {
        out.push_str(&format!("（{c}）"));
    }
    Some(out)
}

/// The jobs of a Terraform file: as CloudFormation's ([`super::cloudformation::read`]).
///
/// # Errors
/// [`ReadError::Syntax`] with hcl-edit's message and place (its own nesting limit, 64, turns
/// deeper input into a syntax error).
pub fn read(text: &str) -> Result<Vec<Found>, ReadError> {
    let body = hcl_edit::parser::parse_body(text).map_err(|e| ReadError::Syntax {
        at: Pos {
            line: u32::try_from(e.location().line()).unwrap_or(u32::MAX),
            column: u32::try_from(e.location().column()).unwrap_or(u32::MAX),
        },
        message: e.message().to_owned(),
        reason: None,
    })?;
    let conv = Conv::new(text);
    let resources: Vec<Resource> = body
        .get_blocks("resource")
        .filter_map(|b: &Block| {
            let (k, n) = (b.labels.first()?, b.labels.get(1)?);
            let at = conv.at(b.ident.span());
            Some(Resource {
                kind: label(k).to_owned(),
                name: label(n).to_owned(),
                at,
                body: conv.body(&b.body, at),
            })
        })
        .collect();
    Ok(assemble(&resources))
}

/// The jobs of a file's resources, in HCL or in Terraform's JSON syntax
/// ([`super::terraform_json`]).
pub(super) fn assemble(resources: &[Resource]) -> Vec<Found> {
    let find = |k: &str, n: &str| resources.iter().find(|r| r.kind == k && r.name == n);
    let mut dead = Vec::new();
    for q in resources.iter().filter(|r| r.kind == "aws_sqs_queue") {
        let mut s = Vec::new();
        queue_settings(q, &mut s);
        dead.extend(s.into_iter().filter_map(|x| match x.value {
            Value::Stated(Fact::DeadLetter(d)) => Some(d),
            _ => None,
        }));
    }
    let mut jobs = Vec::new();
    let mut consumed = Vec::new();
    for m in resources
        .iter()
        .filter(|r| r.kind == "aws_lambda_event_source_mapping")
    {
        let Some(source) = m.body.get("event_source_arn") else {
            continue;
        };
        let queue = reference(source)
            .and_then(|(k, n)| find(&k, &n))
            .filter(|q| q.kind == "aws_sqs_queue");
        let mut settings = Vec::new();
        let (name, at) = match queue {
            Some(q) => {
                consumed.push(q.name.clone());
                queue_settings(q, &mut settings);
                (q.name.clone(), q.at)
            }
            None => {
                settings.push(unresolved(
                    "event_source_arn",
                    source.at,
                    "lease-ms",
                    &source.shown(),
                ));
                (m.name.clone(), m.at)
            }
        };
        mapping_settings(&m.body, &mut settings);
        let function = m
            .body
            .get("function_name")
            .and_then(reference)
            .and_then(|(k, n)| find(&k, &n));
        if let Some(n) = function.and_then(|f| f.body.get("timeout")) {
            settings.push(seconds(
                "timeout",
                n,
                "attempt-timeout-ms",
                Fact::AttemptTimeoutMs,
            ));
        }
        jobs.push(found(name, at, settings));
    }
    for q in resources.iter().filter(|r| r.kind == "aws_sqs_queue") {
        let id = format!("aws_sqs_queue.{}", q.name);
        if consumed.contains(&q.name) || dead.contains(&id) {
            continue;
        }
        let mut settings = Vec::new();
        queue_settings(q, &mut settings);
        jobs.push(found(q.name.clone(), q.at, settings));
    }
    for j in &mut jobs {
        j.elsewhere = dead_letter_queue(&j.settings, resources);
    }
    jobs.sort_by_key(|j| j.at);
    jobs
}

/// The visibility timeout and retention the job's dead-letter queue states, when it is a
/// queue of this file (`aws_sqs_queue.dlq`), keyed by the resource (`aws_sqs_queue.dlq.
/// message_retention_seconds`): AWS refuses them out of its limits there too.
fn dead_letter_queue(settings: &[Setting], resources: &[Resource]) -> Vec<Setting> {
    let Some(id) = dead_letter_of(settings) else {
        return Vec::new();
    };
    let mut own = Vec::new();
    if let Some(dlq) = resources
        .iter()
        .find(|r| r.kind == "aws_sqs_queue" && format!("aws_sqs_queue.{}", r.name) == id)
    {
        queue_settings(dlq, &mut own);
    }
    dead_letter_limits(own, id)
}

fn found(name: String, at: Pos, mut settings: Vec<Setting>) -> Found {
    settings.sort_by_key(|s| s.at);
    Found {
        system: TargetId::Sqs,
        name,
        at,
        settings,
        version: None,
        elsewhere: Vec::new(),
    }
}
