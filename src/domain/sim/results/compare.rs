//! Comparing two runs on the same seed: the key numbers of each ([`KeyNumbers`], carried in
//! [`RunView::key`](crate::domain::sim::runner::RunView)) and the lines that differ ([`diff`]), e.g.
//! `balance: 200 → 100`, `downstream calls: 40 → 10 (−75 %)`.

use crate::domain::duration::unit_suffix;
use crate::domain::number::group_thousands;
use crate::domain::sim::results::charts::TimeUnit;
use crate::domain::sim::results::report::Report;
use crate::domain::Lang;
use serde::{Deserialize, Serialize};

/// The figures a comparison looks at. Counts are whole runs; times in ms or s as named.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct KeyNumbers {
    /// Whether the run is a queue model (`false`: the jitter study, only `contention`).
    pub queue: bool,
    /// Rows done.
    pub done: u64,
    /// Rows dead (in the dead-letter queue).
    pub dead: u64,
    /// Rows still queued or running when the run stopped.
    pub unfinished: u64,
    /// Handler runs started.
    pub runs: u64,
    /// The store's balance, when jobs have a side effect.
    pub balance: Option<i64>,
    /// Side effects applied twice (at-least-once delivery without a key).
    pub duplicates: u64,
    /// Second runs stopped by the idempotency key.
    pub prevented: u64,
    /// Downstream calls made.
    pub calls: u64,
    /// Downstream answers: ok.
    pub calls_ok: u64,
    /// Downstream answers: busy.
    pub calls_busy: u64,
    /// Downstream answers: failed (rate limited + unavailable).
    pub calls_failed: u64,
    /// Submissions accepted (the user was told "ok").
    pub accepted: u64,
    /// Submissions failed back to the user.
    pub failed_to_user: u64,
    /// Worker name → id of the first job it claimed, in worker-name order (`A: #1, B: #1`
    /// is the claim race's double claim).
    pub claims: Vec<(String, u64)>,
    /// Names of the workers whose claim failed on a locked row (lock timeout, `NOWAIT`).
    pub lock_errors: Vec<String>,
    /// Enqueue → done, 95th percentile, ms.
    pub p95_ms: Option<f64>,
    /// Virtual time at the end, s.
    pub end_s: f64,
    /// Jitter study: mean calls and mean completion time (ms).
    pub contention: Option<(f64, f64)>,
    /// Overlapping runs, stale results, claims past max_attempts, dead jobs completed late,
    /// lost jobs, lease renewals ([`Counters::lease_counts`](crate::domain::sim::Counters::lease_counts)).
    #[serde(default)]
    pub leases: [u64; 6],
}

impl KeyNumbers {
    /// The key numbers of a report.
    pub fn of_report(r: &Report) -> KeyNumbers {
        let mut k = KeyNumbers {
            balance: r.balance,
            claims: r.claims.iter().map(|(w, j)| (w.clone(), *j)).collect(),
            lock_errors: r.errors.keys().cloned().collect(),
            contention: r
                .contention
                .as_ref()
                .map(|c| (c.calls_mean, c.completion_ms_mean)),
            ..KeyNumbers::default()
        };
        if let Some(m) = &r.metrics {
            let c = &m.counters;
            k.queue = true;
            k.done = m.done;
            k.dead = m.dead;
            k.unfinished = m.queued + m.running;
            k.runs = c.runs;
            k.leases = c.lease_counts();
            k.duplicates = c.duplicate_effects;
            k.prevented = c.prevented_by_key;
            k.calls = c.calls;
            k.calls_ok = c.calls_ok;
            k.calls_busy = c.calls_busy;
            k.calls_failed = c.calls_rate_limited + c.calls_unavailable;
            k.accepted = c.accepted;
            k.failed_to_user = c.failed_to_user;
            k.p95_ms = m.latency_ms.map(|p| p.p95);
            k.end_s = m.end_time_s;
        }
        k
    }
}

/// One compared figure. `id` is the locale key suffix of its label (`compare.<id>`, in `locales/worker/sim-compare.yml`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffLine {
    /// Figure id, e.g. `balance`.
    pub id: &'static str,
    /// A's value as shown.
    pub a: String,
    /// B's value as shown.
    pub b: String,
    /// The relative change from A to B, e.g. `−75 %` (`None`: equal, or A is zero).
    pub change: Option<String>,
    /// Whether the values differ.
    pub differs: bool,
}

impl std::fmt::Display for DiffLine {
    /// `balance: 200 → 100`, `runs: 40 → 10 (−75 %)`, `dead: 0 = 0`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let op = if self.differs { "→" } else { "=" };
        write!(f, "{}: {} {op} {}", self.id, self.a, self.b)?;
        if let Some(c) = &self.change {
            write!(f, " ({c})")?;
        }
        Ok(())
    }
}

fn count(v: u64) -> String {
    group_thousands(v)
}

fn signed(v: i64) -> String {
    crate::domain::number::group_thousands_signed(v)
}

fn decimal(v: f64, unit: &str) -> String {
    let v = if v.is_finite() { v } else { 0.0 };
    if v >= 100.0 {
        format!("{}{unit}", group_thousands(v.round() as u64))
    } else {
        format!("{v:.1}{unit}")
    }
}

/// Two times in ms shown in one unit chosen from the larger ([`TimeUnit::for_max_ms`], the
/// charts' rule): `(202 ms, 100 ms)`; `(2 min, 32.2 s)` → `"2.0 min"`, `"0.54 min"` (two
/// decimals below one unit, so the smaller run keeps its digits); `–` for none.
fn times_ms(a: Option<f64>, b: Option<f64>, lang: Lang) -> (String, String) {
    let max = a.unwrap_or(0.0).max(b.unwrap_or(0.0));
    let tu = TimeUnit::for_max_ms(max);
    let unit = unit_suffix(tu.key(), lang);
    let show = |v: Option<f64>| {
        v.map_or_else(
            || "–".to_owned(),
            |x| match x / tu.ms() {
                u if tu != TimeUnit::Ms && u.is_finite() && u < 1.0 => format!("{u:.2}{unit}"),
                u => decimal(u, &unit),
            },
        )
    };
    (show(a), show(b))
}

/// The change from `a` to `b`: a signed percentage with a proper minus sign (`+40 %`,
/// `−75 %`; one decimal under 1 %: `−0.2 %`; `+<0.1 %` / `−<0.1 %` below that) while `b` is
/// less than ten times `a`; from ten times on, the factor `×10`, `×401`, `×12,000` (rounded,
/// grouped), since `+40,027 %` reads badly. The sign is that of `b − a`. `None` when `a` is
/// zero or not finite, or the values are equal.
pub fn change(a: f64, b: f64) -> Option<String> {
    if a == 0.0 || a == b || !a.is_finite() || !b.is_finite() {
        return None;
    }
    let ratio = b / a;
    if ratio >= 10.0 {
        return Some(format!("×{}", group_thousands(ratio.round() as u64)));
    }
    let p = (b - a) / a * 100.0;
    let sign = if b < a { "−" } else { "+" };
    let size = p.abs();
    Some(if size >= 1.0 {
        format!("{sign}{} %", size.round())
    } else if size >= 0.1 {
        format!("{sign}{size:.1} %")
    } else {
        format!("{sign}<0.1 %")
    })
}

/// `A: #1, B: #2`; `–` when none.
fn claim_list(c: &[(String, u64)]) -> String {
    if c.is_empty() {
        return "–".into();
    }
    let v: Vec<String> = c.iter().map(|(w, j)| format!("{w}: #{j}")).collect();
    v.join(", ")
}

/// Workers the claims line shows at most (a run with more claiming workers, e.g. the ten
/// of burst-leveling, leaves the line out).
const MAX_CLAIM_WORKERS: usize = 4;

/// The figures of `a` and `b` side by side, in this order, for queue runs: `claims` (worker →
/// first job, when either run has claims and at most `MAX_CLAIM_WORKERS` (4) workers claimed),
/// `lock-errors` (count and workers, when either run has one), done, dead, unfinished,
/// runs, balance and duplicates (when a job has a side effect), `prevented` (stopped by the
/// key), downstream `calls`, `calls-ok`, `calls-busy`, `calls-failed`, `accepted` and
/// `failed-to-user` (when either run failed a submission back or accepted a different
/// number), p95 latency and end time (each only when either run has it); for the jitter
/// study the mean calls and completion time. Both values of a time line share one unit,
/// chosen from the larger as the charts do ([`TimeUnit::for_max_ms`]): `2.0 min → 32.2 s`
/// reads `2.0 min → 0.5 min`. Counts that change by a ratio get a relative
/// change ([`change`]).
pub fn diff(a: &KeyNumbers, b: &KeyNumbers) -> Vec<DiffLine> {
    diff_in(a, b, Lang::En)
}

/// [`diff`] with the time units written in `lang` (`17.2 min` / `17.2分`).
pub fn diff_in(a: &KeyNumbers, b: &KeyNumbers, lang: Lang) -> Vec<DiffLine> {
    let mut out = Vec::new();
    let mut line = |id: &'static str, av: String, bv: String, change: Option<String>| {
        let differs = av != bv;
        out.push(DiffLine {
            id,
            a: av,
            b: bv,
            change: change.filter(|_| differs),
            differs,
        });
    };
    if a.queue || b.queue {
        let (ca, cb) = (&a.claims, &b.claims);
        if (!ca.is_empty() || !cb.is_empty())
            && ca.len() <= MAX_CLAIM_WORKERS
            && cb.len() <= MAX_CLAIM_WORKERS
        {
            line("claims", claim_list(ca), claim_list(cb), None);
        }
        if !a.lock_errors.is_empty() || !b.lock_errors.is_empty() {
            let show = |e: &[String]| {
                if e.is_empty() {
                    "0".to_owned()
                } else {
                    format!("{} ({})", e.len(), e.join(", "))
                }
            };
            line(
                "lock-errors",
                show(&a.lock_errors),
                show(&b.lock_errors),
                None,
            );
        }
        let mut n = |id, x: u64, y: u64, rel: bool| {
            line(
                id,
                count(x),
                count(y),
                rel.then(|| change(x as f64, y as f64)).flatten(),
            )
        };
        n("done", a.done, b.done, false);
        n("dead", a.dead, b.dead, false);
        if a.unfinished + b.unfinished > 0 {
            n("unfinished", a.unfinished, b.unfinished, false);
        }
        n("runs", a.runs, b.runs, true);
        if a.balance.is_some() || b.balance.is_some() {
            let show = |v: Option<i64>| v.map_or_else(|| "–".to_owned(), signed);
            line("balance", show(a.balance), show(b.balance), None);
        }
        if a.balance.is_some() || b.balance.is_some() || a.duplicates + b.duplicates > 0 {
            line("duplicates", count(a.duplicates), count(b.duplicates), None);
        }
        if a.prevented + b.prevented > 0 {
            line("prevented", count(a.prevented), count(b.prevented), None);
        }
        lease_lines(a, b, &mut line);
        if a.calls + b.calls > 0 {
            line(
                "calls",
                count(a.calls),
                count(b.calls),
                change(a.calls as f64, b.calls as f64),
            );
            line("calls-ok", count(a.calls_ok), count(b.calls_ok), None);
            line("calls-busy", count(a.calls_busy), count(b.calls_busy), None);
            if a.calls_failed + b.calls_failed > 0 {
                line(
                    "calls-failed",
                    count(a.calls_failed),
                    count(b.calls_failed),
                    None,
                );
            }
        }
        if a.failed_to_user + b.failed_to_user > 0 || a.accepted != b.accepted {
            line("accepted", count(a.accepted), count(b.accepted), None);
            line(
                "failed-to-user",
                count(a.failed_to_user),
                count(b.failed_to_user),
                None,
            );
        }
        if a.p95_ms.is_some() || b.p95_ms.is_some() {
            let change = match (a.p95_ms, b.p95_ms) {
                (Some(x), Some(y)) => change(x, y),
                _ => None,
            };
            let (av, bv) = times_ms(a.p95_ms, b.p95_ms, lang);
            line("p95", av, bv, change);
        }
        line(
            "end",
            decimal(a.end_s, &unit_suffix("s", lang)),
            decimal(b.end_s, &unit_suffix("s", lang)),
            change(a.end_s, b.end_s),
        );
    }
    if let (Some((ac, at)), Some((bc, bt))) = (a.contention, b.contention) {
        line(
            "mean-calls",
            decimal(ac, ""),
            decimal(bc, ""),
            change(ac, bc),
        );
        let (av, bv) = times_ms(Some(at), Some(bt), lang);
        line("mean-completion", av, bv, change(at, bt));
    }
    out
}

/// The lease counts' lines ([`KeyNumbers::leases`]), each when either run had any of it.
fn lease_lines(
    a: &KeyNumbers,
    b: &KeyNumbers,
    line: &mut impl FnMut(&'static str, String, String, Option<String>),
) {
    for (i, id) in crate::domain::sim::engine::LEASE_IDS
        .into_iter()
        .enumerate()
    {
        let (x, y) = (a.leases[i], b.leases[i]);
        if x + y > 0 {
            line(id, count(x), count(y), None);
        }
    }
}

/// The variant a preset is compared with by default: `duplicate-execution` plain ↔
/// idempotency-key and same-order-job-key ↔ same-order-order-key, `jitter-contention` none ↔ full, `burst-leveling` queue-redelivery ↔
/// two-tier-jitter (and direct → queue-redelivery); otherwise the first other variant.
pub fn default_alternative(
    scenario: &str,
    variant: &str,
    variants: &[&'static str],
) -> Option<&'static str> {
    let preferred = match (scenario, variant) {
        ("jitter-contention", "none") => "full",
        ("jitter-contention", _) => "none",
        ("burst-leveling", "direct") => "queue-redelivery",
        ("burst-leveling", "queue-redelivery") => "two-tier-jitter",
        ("burst-leveling", _) => "queue-redelivery",
        ("duplicate-execution", "same-order-job-key") => "same-order-order-key",
        ("duplicate-execution", "same-order-order-key") => "same-order-job-key",
        _ => "",
    };
    variants
        .iter()
        .copied()
        .find(|v| *v == preferred)
        .or_else(|| variants.iter().copied().find(|v| *v != variant))
}
