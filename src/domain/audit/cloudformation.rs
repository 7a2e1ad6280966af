//! CloudFormation templates (YAML with short tags, or JSON): SQS queues, Lambda functions,
//! event source mappings and SAM functions with an SQS event (`brief/QUEUES.md` §2). Short
//! tags read as their long forms, as cfn-guard does (`!Ref X` = `{Ref: X}`, `!GetAtt X.Arn` =
//! `{Fn::GetAtt: [X, Arn]}`). One job per queue consumed: the queue, its mapping and its
//! function joined through literal `Ref` / `Fn::GetAtt` to resources of the same template; a
//! reference to anything else (a parameter, an import, another stack) is not resolved. A SAM
//! template's `Globals.Function.Timeout` is the timeout of its SAM functions that set none.

use super::found::{Fact, Found, Pos, ReadError, Setting};
use super::setting::{dead_letter_limits, dead_letter_of, seconds, stated, unresolved, whole};
use super::tree::{Kind, Node};
use crate::domain::queues::TargetId;

/// Whether `doc` is a CloudFormation template (a `Resources` mapping whose entries have an
/// `AWS::` type, or `AWSTemplateFormatVersion`).
pub fn is_template(doc: &Node) -> bool {
    doc.get("AWSTemplateFormatVersion").is_some()
        || doc.get("Resources").is_some_and(|r| {
            r.entries().iter().any(|(_, _, v)| {
                v.get("Type")
                    .and_then(Node::text)
                    .is_some_and(|t| t.starts_with("AWS::"))
            })
        })
}

/// The logical id a `Ref` / `Fn::GetAtt` names (short or long form), if the node is one.
pub fn reference(node: &Node) -> Option<String> {
    let (name, arg) = match (&node.tag, &node.kind) {
        (Some(t), _) => (t.as_str(), node),
        (None, Kind::Map(m)) if m.len() == 1 => (m[0].0.as_str(), &m[0].2),
        _ => return None,
    };
    let name = name.strip_prefix("Fn::").unwrap_or(name);
    match name {
        "Ref" => arg.raw_text().map(str::to_owned),
        "GetAtt" => match &arg.kind {
            Kind::Seq(items) => items.first().and_then(Node::text).map(str::to_owned),
            Kind::Scalar { .. } => arg
                .raw_text()
                .map(|t| t.split('.').next().unwrap_or(t).to_owned()),
            Kind::Map(_) => None,
        },
        _ => None,
    }
}

struct Resource<'a> {
    id: &'a str,
    at: Pos,
    kind: &'a str,
    props: Option<&'a Node>,
}

fn prop<'a>(r: &Resource<'a>, key: &str) -> Option<&'a Node> {
    r.props.and_then(|p| p.get(key))
}

fn queue_settings(q: &Resource, out: &mut Vec<Setting>) {
    if let Some(n) = prop(q, "VisibilityTimeout") {
        out.push(seconds("VisibilityTimeout", n, "lease-ms", Fact::LeaseMs));
    }
    if let Some(n) = prop(q, "MessageRetentionPeriod") {
        out.push(seconds(
            "MessageRetentionPeriod",
            n,
            "retention-ms",
            Fact::RetentionMs,
        ));
    }
    let Some(rp) = prop(q, "RedrivePolicy") else {
        return;
    };
    // A JSON string is allowed too: read it as a document of its own, its positions at
    // the string's start.
    let parsed;
    let policy = match rp.text() {
        Some(json) if rp.tag.is_none() => match super::yaml::documents(json) {
            Ok(mut d) if !d.is_empty() => {
                let mut doc = d.remove(0);
                doc.relocate(rp.at);
                parsed = doc;
                &parsed
            }
            _ => {
                out.push(unresolved("RedrivePolicy", rp.at, "dead-letter", json));
                return;
            }
        },
        _ => rp,
    };
    if !matches!(policy.kind, Kind::Map(_)) || policy.tag.is_some() {
        out.push(unresolved(
            "RedrivePolicy",
            rp.at,
            "dead-letter",
            &rp.shown(),
        ));
        return;
    }
    if let Some(n) = policy.get("deadLetterTargetArn") {
        let key = "RedrivePolicy.deadLetterTargetArn";
        match (reference(n), n.text()) {
            (Some(id), _) => out.push(stated(key, n.at, Fact::DeadLetter(id))),
            (None, Some(arn)) => out.push(stated(key, n.at, Fact::DeadLetter(arn.to_owned()))),
            (None, None) => out.push(unresolved(key, n.at, "dead-letter", &n.shown())),
        }
    }
    if let Some(n) = policy.get("maxReceiveCount") {
        out.push(whole(
            "RedrivePolicy.maxReceiveCount",
            n,
            "max-receive-count",
            Fact::MaxReceiveCount,
        ));
    }
}

/// The function's timeout: its own `Timeout`, else — for a SAM function — the template's
/// `Globals.Function.Timeout` (SAM copies it into every `AWS::Serverless::Function` that does
/// not set one; it does not apply to a plain `AWS::Lambda::Function`), else nothing (Lambda's
/// default of 3 s is the system's, listed as not stated).
fn function_settings(f: &Resource, globals: Option<&Node>, out: &mut Vec<Setting>) {
    let (key, n) = match prop(f, "Timeout") {
        Some(n) => ("Timeout", n),
        None if f.kind == "AWS::Serverless::Function" => {
            match globals.and_then(|g| g.get("Timeout")) {
                Some(n) => ("Globals.Function.Timeout", n),
                None => return,
            }
        }
        None => return,
    };
    out.push(seconds(
        key,
        n,
        "attempt-timeout-ms",
        Fact::AttemptTimeoutMs,
    ));
}

/// The settings of an event source mapping's properties (`AWS::Lambda::EventSourceMapping`,
/// or a SAM function's SQS event).
fn mapping_settings(p: &Node, out: &mut Vec<Setting>) {
    if let Some(n) = p.get("BatchSize") {
        out.push(whole("BatchSize", n, "batch-size", Fact::BatchSize));
    }
    if let Some(n) = p.get("MaximumBatchingWindowInSeconds") {
        out.push(seconds(
            "MaximumBatchingWindowInSeconds",
            n,
            "batch-window-ms",
            Fact::BatchWindowMs,
        ));
    }
    if let Some(n) = p.path(&["ScalingConfig", "MaximumConcurrency"]) {
        out.push(whole(
            "ScalingConfig.MaximumConcurrency",
            n,
            "concurrency",
            Fact::Concurrency,
        ));
    }
    if let Some(n) = p.get("FunctionResponseTypes") {
        let partial = n
            .items()
            .iter()
            .any(|i| i.text() == Some("ReportBatchItemFailures"));
        out.push(stated(
            "FunctionResponseTypes",
            n.at,
            Fact::PartialBatchResponse(partial),
        ));
    }
}

/// A consumer of a queue: the mapping's properties and the function it calls (if in the file).
struct Consumer<'a> {
    queue: Option<String>,
    source: &'a Node,
    props: &'a Node,
    function: Option<&'a str>,
    at: Pos,
    name: &'a str,
}

fn consumers<'a>(resources: &'a [Resource<'a>]) -> Vec<Consumer<'a>> {
    let mut out = Vec::new();
    for r in resources {
        match r.kind {
            "AWS::Lambda::EventSourceMapping" => {
                let Some(props) = r.props else { continue };
                let Some(source) = props.get("EventSourceArn") else {
                    continue;
                };
                out.push(Consumer {
                    queue: reference(source),
                    source,
                    props,
                    function: None,
                    at: r.at,
                    name: r.id,
                });
                let f = props.get("FunctionName").and_then(reference);
                if let (Some(c), Some(f)) = (out.last_mut(), f) {
                    c.function = resources.iter().find(|x| x.id == f).map(|x| x.id);
                }
            }
            "AWS::Serverless::Function" => {
                for (_, at, ev) in r
                    .props
                    .and_then(|p| p.get("Events"))
                    .map_or(&[][..], Node::entries)
                {
                    if ev.get("Type").and_then(Node::text) != Some("SQS") {
                        continue;
                    }
                    let Some(props) = ev.get("Properties") else {
                        continue;
                    };
                    let Some(source) = props.get("Queue") else {
                        continue;
                    };
                    out.push(Consumer {
                        queue: reference(source),
                        source,
                        props,
                        function: Some(r.id),
                        at: *at,
                        name: r.id,
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// The jobs of a template: one per queue a mapping consumes, one per mapping whose queue is
/// not in the file, and one per queue of the file nobody consumes that is not a dead-letter
/// queue of another.
///
/// # Errors
/// None beyond the caller's: a template is already parsed; kept `Result` for the readers'
/// common shape.
pub fn read(doc: &Node) -> Result<Vec<Found>, ReadError> {
    let resources: Vec<Resource> = doc
        .get("Resources")
        .map_or(&[][..], Node::entries)
        .iter()
        .map(|(id, at, r)| Resource {
            id,
            at: *at,
            kind: r.get("Type").and_then(Node::text).unwrap_or(""),
            props: r.get("Properties"),
        })
        .collect();
    let queue = |id: &str| {
        resources
            .iter()
            .find(|r| r.id == id && r.kind == "AWS::SQS::Queue")
    };
    let mut dead = Vec::new();
    for q in resources.iter().filter(|r| r.kind == "AWS::SQS::Queue") {
        let mut s = Vec::new();
        queue_settings(q, &mut s);
        for x in &s {
            if let super::found::Value::Stated(Fact::DeadLetter(d)) = &x.value {
                dead.push(d.clone());
            }
        }
    }
    let mut jobs = Vec::new();
    let mut consumed = Vec::new();
    for c in consumers(&resources) {
        let mut settings = Vec::new();
        let (name, at) = match c.queue.as_deref().and_then(queue) {
            Some(q) => {
                consumed.push(q.id);
                queue_settings(q, &mut settings);
                (q.id, q.at)
            }
            None => {
                settings.push(unresolved(
                    "EventSourceArn",
                    c.source.at,
                    "lease-ms",
                    &c.source.shown(),
                ));
                (c.name, c.at)
            }
        };
        mapping_settings(c.props, &mut settings);
        if let Some(f) = c
            .function
            .and_then(|f| resources.iter().find(|r| r.id == f))
        {
            function_settings(f, doc.path(&["Globals", "Function"]), &mut settings);
        }
        jobs.push(found(name, at, settings));
    }
    for q in resources.iter().filter(|r| r.kind == "AWS::SQS::Queue") {
        if consumed.contains(&q.id) || dead.iter().any(|d| d == q.id) {
            continue;
        }
        let mut settings = Vec::new();
        queue_settings(q, &mut settings);
        jobs.push(found(q.id, q.at, settings));
    }
    for j in &mut jobs {
        j.elsewhere = dead_letter_queue(&j.settings, &resources);
    }
    jobs.sort_by_key(|j| j.at);
    Ok(jobs)
}

/// The visibility timeout and retention the job's dead-letter queue states, when it is a
/// queue of this template (`!GetAtt Dlq.Arn`), keyed by the resource
/// (`Dlq.MessageRetentionPeriod`): AWS refuses them out of its limits there too.
fn dead_letter_queue(settings: &[Setting], resources: &[Resource]) -> Vec<Setting> {
    let Some(id) = dead_letter_of(settings) else {
        return Vec::new();
    };
    let mut own = Vec::new();
    if let Some(dlq) = resources
        .iter()
        .find(|r| r.id == id && r.kind == "AWS::SQS::Queue")
    {
        queue_settings(dlq, &mut own);
    }
    dead_letter_limits(own, id)
}

fn found(name: &str, at: Pos, mut settings: Vec<Setting>) -> Found {
    settings.sort_by_key(|s| s.at);
    Found {
        system: TargetId::Sqs,
        name: name.to_owned(),
        at,
        settings,
        version: None,
        elsewhere: Vec::new(),
    }
}
