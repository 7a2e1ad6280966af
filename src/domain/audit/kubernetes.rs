//! Kubernetes `batch/v1` Jobs and CronJobs, in multi-document YAML (`brief/QUEUES.md` §14):
//! `backoffLimit` (retries: attempts = backoffLimit + 1), the Job's `activeDeadlineSeconds`
//! (all attempts), the pod template's (one attempt), `parallelism`, and a CronJob's
//! `schedule`, `timeZone`, `concurrencyPolicy` and `startingDeadlineSeconds`. The pod
//! backoff (10 s doubling, capped) is the controller's own: no setting changes it.

use super::found::{Fact, Found, Pos, ReadError, Setting};
use super::setting::{seconds, stated, unresolved, whole};
use super::tree::Node;
use crate::domain::queues::TargetId;

/// Whether `doc` is a Job or CronJob manifest.
pub fn is_manifest(doc: &Node) -> bool {
    matches!(
        doc.get("kind").and_then(Node::text),
        Some("Job" | "CronJob")
    ) && doc.get("apiVersion").is_some()
}

/// Whether `doc` is a Kubernetes object of another kind (`apiVersion` and `kind` both text,
/// the kind not Job / CronJob): a Deployment, a Service, a ConfigMap …
pub fn is_other_object(doc: &Node) -> bool {
    doc.get("apiVersion").and_then(Node::text).is_some()
        && doc.get("kind").and_then(Node::text).is_some()
        && !is_manifest(doc)
}

fn text_setting(key: &str, n: &Node, name: &'static str, fact: fn(String) -> Fact) -> Setting {
    match n.text() {
        Some(t) => stated(key, n.at, fact(t.to_owned())),
        None => unresolved(key, n.at, name, &n.shown()),
    }
}

/// The settings of a JobSpec at `prefix` (`spec.` or `spec.jobTemplate.spec.`).
fn job_spec(spec: &Node, prefix: &str, out: &mut Vec<Setting>) {
    let key = |k: &str| format!("{prefix}{k}");
    if let Some(n) = spec.get("backoffLimit") {
        let mut s = whole(&key("backoffLimit"), n, "attempts", |r| {
            Fact::Attempts(Some(r.saturating_add(1)))
        });
        if let super::found::Value::Unresolved { .. } = s.value {
            s.value = super::found::Value::Unresolved {
                fact: "attempts",
                expression: n.shown(),
            };
        }
        out.push(s);
    }
    if let Some(n) = spec.get("activeDeadlineSeconds") {
        out.push(seconds(
            &key("activeDeadlineSeconds"),
            n,
            "max-retry-duration-ms",
            Fact::MaxRetryDurationMs,
        ));
    }
    if let Some(n) = spec.get("parallelism") {
        out.push(whole(
            &key("parallelism"),
            n,
            "concurrency",
            Fact::Concurrency,
        ));
    }
    if let Some(n) = spec.path(&["template", "spec", "activeDeadlineSeconds"]) {
        out.push(seconds(
            &key("template.spec.activeDeadlineSeconds"),
            n,
            "attempt-timeout-ms",
            Fact::AttemptTimeoutMs,
        ));
    }
}

fn cron_spec(spec: &Node, out: &mut Vec<Setting>) {
    if let Some(n) = spec.get("schedule") {
        out.push(text_setting("spec.schedule", n, "cron", Fact::Cron));
    }
    if let Some(n) = spec.get("timeZone") {
        out.push(text_setting(
            "spec.timeZone",
            n,
            "time-zone",
            Fact::TimeZone,
        ));
    }
    if let Some(n) = spec.get("concurrencyPolicy") {
        out.push(text_setting(
            "spec.concurrencyPolicy",
            n,
            "concurrency-policy",
            Fact::ConcurrencyPolicy,
        ));
    }
    if let Some(n) = spec.get("startingDeadlineSeconds") {
        out.push(seconds(
            "spec.startingDeadlineSeconds",
            n,
            "starting-deadline-ms",
            Fact::StartingDeadlineMs,
        ));
    }
}

/// The Jobs and CronJobs of the documents (other kinds are left out).
///
/// # Errors
/// None beyond parsing (done by the caller); `Result` for the readers' common shape.
pub fn read(docs: &[Node]) -> Result<Vec<Found>, ReadError> {
    let mut jobs = Vec::new();
    for doc in docs.iter().filter(|d| is_manifest(d)) {
        let kind = doc.get("kind").and_then(Node::text).unwrap_or("");
        let meta = doc.get("metadata");
        let name = meta
            .and_then(|m| m.get("name").or_else(|| m.get("generateName")))
            .and_then(Node::text)
            .unwrap_or("")
            .to_owned();
        let mut settings = Vec::new();
        if let Some(spec) = doc.get("spec") {
            if kind == "CronJob" {
                cron_spec(spec, &mut settings);
                if let Some(js) = spec.path(&["jobTemplate", "spec"]) {
                    job_spec(js, "spec.jobTemplate.spec.", &mut settings);
                }
            } else {
                job_spec(spec, "spec.", &mut settings);
            }
        }
        settings.sort_by_key(|s| s.at);
        jobs.push(Found {
            system: TargetId::Kubernetes,
            name,
            at: doc
                .get("kind")
                .map_or(doc.at, |k| Pos { column: 1, ..k.at }),
            settings,
            version: doc
                .get("apiVersion")
                .and_then(Node::text)
                .map(str::to_owned),
        });
    }
    Ok(jobs)
}

/// Whether a Kubernetes job is a CronJob (its settings include a schedule key).
pub fn is_cron(f: &Found) -> bool {
    f.settings
        .iter()
        .any(|s| s.key.starts_with("spec.jobTemplate") || s.key == "spec.schedule")
}
