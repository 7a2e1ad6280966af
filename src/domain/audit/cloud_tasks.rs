//! Google Cloud Tasks queues (`brief/QUEUES.md` §11), in the two forms teams keep:
//! the API's `Queue` as `gcloud tasks queues describe` prints it (YAML, or JSON with
//! `--format json`): `retryConfig` (`maxAttempts`, `maxRetryDuration`, `minBackoff`,
//! `maxBackoff`, `maxDoublings`) and `rateLimits`; and App Engine's `queue.yaml`, the file
//! our export writes: `queue: [{name, rate, max_concurrent_requests, retry_parameters:
//! {task_retry_limit, task_age_limit, min_backoff_seconds, max_backoff_seconds,
//! max_doublings}}]`. Durations are read as the API writes them (`3600s`, `0.100s`) and as
//! queue.yaml does (`2d`, `3h`, `10m`, `30s`, or seconds as a number).

use super::found::{Fact, Found, Pos, ReadError, Setting};
use super::setting::{ms_of_s, number, stated, unresolved};
use super::tree::Node;
use crate::domain::queues::TargetId;

/// Whether `doc` is a Cloud Tasks queue in either form.
pub fn is_queue(doc: &Node) -> bool {
    doc.get("retryConfig").is_some()
        || doc.get("rateLimits").is_some()
        || doc
            .get("name")
            .and_then(Node::text)
            .is_some_and(|n| n.starts_with("projects/") && n.contains("/queues/"))
        || doc.get("queue").is_some_and(|q| {
            q.items().iter().any(|i| {
                i.get("name").is_some()
                    && (i.get("rate").is_some() || i.get("retry_parameters").is_some())
            })
        })
}

/// A duration as the API (`"3600s"`, `"0.100s"`) or queue.yaml (`2d`, `3h`, `10m`, `30s`,
/// `10`) writes it, in ms.
pub fn duration_ms(text: &str) -> Option<u64> {
    let t = text.trim();
    let (num, unit) = match t.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((i, _)) => t.split_at(i),
        None => (t, "s"),
    };
    let factor = match unit {
        "s" => 1.0,
        "m" => 60.0,
        "h" => 3_600.0,
        "d" => 86_400.0,
        _ => return None,
    };
    number(num).map(|v| ms_of_s(v * factor))
}

fn duration(key: &str, n: &Node, name: &'static str, fact: fn(u64) -> Fact) -> Setting {
    match n.text().and_then(duration_ms) {
        Some(ms) => stated(key, n.at, fact(ms)),
        None => unresolved(key, n.at, name, &n.shown()),
    }
}

fn int(n: &Node) -> Option<i64> {
    n.text()?.trim().parse().ok()
}

fn attempts(key: &str, n: &Node, retries: bool) -> Setting {
    match int(n) {
        Some(v) if v < 0 => stated(key, n.at, Fact::Attempts(None)),
        Some(v) => {
            let v = u32::try_from(v).unwrap_or(u32::MAX);
            stated(
                key,
                n.at,
                Fact::Attempts(Some(if retries { v.saturating_add(1) } else { v })),
            )
        }
        None => unresolved(key, n.at, "attempts", &n.shown()),
    }
}

fn doublings(key: &str, n: &Node) -> Setting {
    match int(n).and_then(|v| u32::try_from(v).ok()) {
        Some(v) => stated(key, n.at, Fact::MaxDoublings(v)),
        None => unresolved(key, n.at, "max-doublings", &n.shown()),
    }
}

/// `5/s`, `600/m`, `5/h`, `1/d` in thousandths of a call per second.
fn rate_milli(text: &str) -> Option<u64> {
    let (n, per) = text.trim().split_once('/')?;
    let per_s = match per.trim() {
        "s" => 1.0,
        "m" => 60.0,
        "h" => 3_600.0,
        "d" => 86_400.0,
        _ => return None,
    };
    number(n).map(|v| (v * 1000.0 / per_s).round() as u64)
}

fn api_queue(doc: &Node) -> Found {
    let mut s = Vec::new();
    if let Some(r) = doc.get("retryConfig") {
        if let Some(n) = r.get("maxAttempts") {
            s.push(attempts("retryConfig.maxAttempts", n, false));
        }
        if let Some(n) = r.get("maxRetryDuration") {
            s.push(duration(
                "retryConfig.maxRetryDuration",
                n,
                "max-retry-duration-ms",
                Fact::MaxRetryDurationMs,
            ));
        }
        if let Some(n) = r.get("minBackoff") {
            s.push(duration(
                "retryConfig.minBackoff",
                n,
                "base-ms",
                Fact::BaseMs,
            ));
        }
        if let Some(n) = r.get("maxBackoff") {
            s.push(duration("retryConfig.maxBackoff", n, "cap-ms", Fact::CapMs));
        }
        if let Some(n) = r.get("maxDoublings") {
            s.push(doublings("retryConfig.maxDoublings", n));
        }
    }
    if let Some(r) = doc.get("rateLimits") {
        if let Some(n) = r.get("maxDispatchesPerSecond") {
            s.push(match n.text().and_then(number) {
                Some(v) => stated(
                    "rateLimits.maxDispatchesPerSecond",
                    n.at,
                    Fact::RatePerSecMilli((v * 1000.0).round() as u64),
                ),
                None => unresolved(
                    "rateLimits.maxDispatchesPerSecond",
                    n.at,
                    "rate-per-sec-milli",
                    &n.shown(),
                ),
            });
        }
        if let Some(n) = r.get("maxConcurrentDispatches") {
            s.push(super::setting::whole(
                "rateLimits.maxConcurrentDispatches",
                n,
                "concurrency",
                Fact::Concurrency,
            ));
        }
    }
    let name = doc.get("name").and_then(Node::text).unwrap_or("");
    found(name.rsplit('/').next().unwrap_or(name), doc.at, s)
}

fn yaml_queue(q: &Node) -> Found {
    let mut s = Vec::new();
    if let Some(n) = q.get("rate") {
        s.push(match n.text().and_then(rate_milli) {
            Some(v) => stated("rate", n.at, Fact::RatePerSecMilli(v)),
            None => unresolved("rate", n.at, "rate-per-sec-milli", &n.shown()),
        });
    }
    if let Some(n) = q.get("max_concurrent_requests") {
        s.push(super::setting::whole(
            "max_concurrent_requests",
            n,
            "concurrency",
            Fact::Concurrency,
        ));
    }
    if let Some(r) = q.get("retry_parameters") {
        let k = |x: &str| format!("retry_parameters.{x}");
        if let Some(n) = r.get("task_retry_limit") {
            s.push(attempts(&k("task_retry_limit"), n, true));
        }
        if let Some(n) = r.get("task_age_limit") {
            s.push(duration(
                &k("task_age_limit"),
                n,
                "max-retry-duration-ms",
                Fact::MaxRetryDurationMs,
            ));
        }
        if let Some(n) = r.get("min_backoff_seconds") {
            s.push(duration(
                &k("min_backoff_seconds"),
                n,
                "base-ms",
                Fact::BaseMs,
            ));
        }
        if let Some(n) = r.get("max_backoff_seconds") {
            s.push(duration(
                &k("max_backoff_seconds"),
                n,
                "cap-ms",
                Fact::CapMs,
            ));
        }
        if let Some(n) = r.get("max_doublings") {
            s.push(doublings(&k("max_doublings"), n));
        }
    }
    let name = q.get("name").and_then(Node::text).unwrap_or("");
    let at = q.get("name").map_or(q.at, |n| n.at);
    found(name, at, s)
}

fn found(name: &str, at: Pos, mut settings: Vec<Setting>) -> Found {
    settings.sort_by_key(|s| s.at);
    Found {
        system: TargetId::CloudTasks,
        name: name.to_owned(),
        at,
        settings,
        version: None,
        elsewhere: Vec::new(),
    }
}

/// The queues of the documents: a `queue:` list (queue.yaml) or an API queue each.
///
/// # Errors
/// None beyond parsing (done by the caller); `Result` for the readers' common shape.
pub fn read(docs: &[Node]) -> Result<Vec<Found>, ReadError> {
    let mut out = Vec::new();
    for d in docs.iter().filter(|d| is_queue(d)) {
        match d.get("queue") {
            Some(list) if d.get("retryConfig").is_none() => {
                out.extend(list.items().iter().map(yaml_queue));
            }
            _ => out.push(api_queue(d)),
        }
    }
    Ok(out)
}
