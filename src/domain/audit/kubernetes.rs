//! Kubernetes `batch/v1` Jobs and CronJobs, in multi-document YAML (`brief/QUEUES.md` §14):
//! `backoffLimit` (retries: attempts = backoffLimit + 1), the Job's `activeDeadlineSeconds`
//! (all attempts), the pod template's (one attempt), `parallelism`, and a CronJob's
//! `schedule`, `timeZone`, `concurrencyPolicy` and `startingDeadlineSeconds`, and the pod
//! template's `restartPolicy`. The waits are the system's own, fixed: with `Never` the Job
//! controller's pod backoff (10 s doubling, capped), with `OnFailure` the kubelet's crash-loop
//! back-off of the container restarted in place (10 s doubling, capped at 5 min, reset after
//! 10 min of running), whose restarts count toward `backoffLimit` ("When using
//! restartPolicy = "OnFailure", the number of retries in all the containers of Pods with
//! .status.phase equal to Pending or Running", kubernetes.io, *Jobs*, "Pod backoff failure
//! policy"). No setting changes either, and neither can be given jitter.

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
    if let Some(n) = spec.path(&["template", "spec", "restartPolicy"]) {
        out.push(text_setting(
            &key("template.spec.restartPolicy"),
            n,
            "restart-policy",
            Fact::RestartPolicy,
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
            elsewhere: Vec::new(),
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

#[cfg(test)]
mod tests {
    use crate::domain::audit::{audit, AuditJob};
    use crate::domain::lang::Lang;

    fn job(policy: &str, lang: Lang) -> AuditJob {
        let text = format!(
            "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: pi\nspec:\n  backoffLimit: 6\n  \
             template:\n    spec:\n      restartPolicy: {policy}\n      containers:\n        \
             - name: pi\n          image: perl\n"
        );
        let (_, jobs) = audit("job.yaml", &text, lang).expect("reads");
        jobs.into_iter().next().expect("one job")
    }

    fn waits(j: &AuditJob) -> Vec<f64> {
        j.schedule.delays.iter().map(|d| d.max_s).collect()
    }

    fn backoff_note(j: &AuditJob) -> &str {
        j.not_stated
            .iter()
            .find(|n| n.path == "retry.backoff")
            .map_or("", |n| n.default.as_str())
    }

    #[test]
    fn no_jitter_finding_for_a_backoff_nobody_can_change() {
        for policy in ["Never", "OnFailure"] {
            let j = job(policy, Lang::En);
            assert!(
                !j.findings
                    .iter()
                    .any(|f| f.code == "exponential-without-jitter"),
                "{policy}: {:?}",
                j.findings
            );
            assert!(!j
                .evaluated
                .contains(&"MA-exponential-without-jitter".to_owned()));
            assert!(backoff_note(&j).contains("fixed"), "{}", backoff_note(&j));
        }
    }

    #[test]
    fn never_replaces_the_pod_after_the_controllers_backoff() {
        let j = job("Never", Lang::En);
        assert_eq!(j.schedule.attempts, Some(7));
        assert_eq!(waits(&j), [10.0, 20.0, 40.0, 80.0, 160.0, 320.0]);
        assert!(backoff_note(&j).contains("Job controller's pod backoff"));
    }

    #[test]
    fn on_failure_restarts_in_place_with_the_kubelets_crash_loop_back_off() {
        let j = job("OnFailure", Lang::En);
        assert_eq!(j.schedule.attempts, Some(7));
        // Capped at 5 min, not the controller's 320 s step.
        assert_eq!(waits(&j), [10.0, 20.0, 40.0, 80.0, 160.0, 300.0]);
        assert_eq!(j.schedule.window_s.max, Some(610.0));
        let note = backoff_note(&j);
        for want in [
            "kubelet's crash-loop back-off",
            "5 min",
            "10 min",
            "backoffLimit",
        ] {
            assert!(note.contains(want), "{want}: {note}");
        }
        let r = j.sheet.retry.as_ref().expect("retry");
        assert_eq!(r.backoff.cap_ms, 300_000);
        assert!(backoff_note(&job("OnFailure", Lang::Ja)).contains("クラッシュループ"));
    }
}
