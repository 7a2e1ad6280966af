//! The named scenarios and their variants, each a [`SimConfig`] built in code.
//!
//! | scenario | variants | source |
//! |---|---|---|
//! | `retry-dead-letter` | `seed`, `classified` | source document `000`, demo 1 |
//! | `duplicate-execution` | `plain`, `idempotency-key`, `same-order-job-key`, `same-order-order-key` | source document `000`, demo 2 (the last two: its warning about keys from the job id) |
//! | `claim-race` | `two-statement`, `atomic` | source document `000`, demo 3 |
//! | `pg-row-locks` | `skip-locked`, `lock-timeout`, `nowait` | source document `000`, PostgreSQL demo |
//! | `burst-leveling` | `direct`, `queue-redelivery`, `two-tier-jitter` | source document `003` |
//! | `jitter-contention` | `none`, `exponential`, `full`, `equal`, `decorrelated` | AWS blog |
//! | `lease-shorter-than-handler` | `naive`, `owner-check`, `heartbeat` | source document `000` (`running → running`), issue 15 |
//!
//! The first variant is the default. Titles and lessons are in `locales/simulator/sim-presets.yml`
//! (`sim.preset.<id>.title`, `sim.preset.<id>.lesson`, `sim.variant.<variant>`); the variants
//! added with issue 15 also have a lesson of their own, `sim.variant-lesson.<id>.<variant>`
//! ([`Scenario::variant_lesson`]).

use crate::domain::sim::core::backoff::{BackoffPolicy, Strategy};
use crate::domain::sim::core::time::{SimDuration, SimTime};
use crate::domain::sim::engine::Simulation;
use crate::domain::sim::reference::contention::{run_contention, ContentionConfig, STUDY_RUNS};
use crate::domain::sim::results::report::Report;
use crate::domain::sim::setup::config::{
    Arrivals, ClaimStrategy, Downstream, DuplicateSubmissions, DurationDist, Effect, ErrorClass,
    ExpiryRule, FailureModel, InWorkerRetry, Intake, JobKind, Pattern, SimConfig, WorkerSpec,
};
use crate::domain::sim::setup::error::{ConfigError, Reason};
use std::collections::BTreeMap;

/// A named scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scenario {
    /// A transient error that clears on the third run, and a permanent one that dead-letters.
    RetryDeadLetter,
    /// A worker dies after the side effect; the job runs again after the lease.
    DuplicateExecution,
    /// Two workers, two-statement versus atomic claim.
    ClaimRace,
    /// PostgreSQL row locks: `SKIP LOCKED`, `lock_timeout`, `NOWAIT`.
    PgRowLocks,
    /// Ten simultaneous submissions against a capacity-1 downstream.
    BurstLeveling,
    /// The AWS study: 100 clients contending on one versioned row.
    JitterContention,
    /// A handler that outlives its lease: naive, with the owner check, with heartbeats.
    LeaseShorterThanHandler,
}

impl Scenario {
    /// All scenarios.
    pub const ALL: [Scenario; 7] = [
        Scenario::RetryDeadLetter,
        Scenario::DuplicateExecution,
        Scenario::ClaimRace,
        Scenario::PgRowLocks,
        Scenario::BurstLeveling,
        Scenario::JitterContention,
        Scenario::LeaseShorterThanHandler,
    ];

    /// The stable name, e.g. `claim-race`.
    pub fn id(self) -> &'static str {
        match self {
            Scenario::RetryDeadLetter => "retry-dead-letter",
            Scenario::DuplicateExecution => "duplicate-execution",
            Scenario::ClaimRace => "claim-race",
            Scenario::PgRowLocks => "pg-row-locks",
            Scenario::BurstLeveling => "burst-leveling",
            Scenario::JitterContention => "jitter-contention",
            Scenario::LeaseShorterThanHandler => "lease-shorter-than-handler",
        }
    }

    /// The locale key of a variant's own lesson (`sim.variant-lesson.<id>.<variant>`), for
    /// the variants that have one (those added with issue 15); `None` for the others, whose
    /// preset's lesson covers them.
    pub fn variant_lesson(self, variant: &str) -> Option<String> {
        let own = match self {
            Scenario::DuplicateExecution => variant.starts_with("same-order-"),
            Scenario::LeaseShorterThanHandler => true,
            _ => false,
        };
        (own && self.variants().contains(&variant))
            .then(|| format!("sim.variant-lesson.{}.{variant}", self.id()))
    }

    /// Its variants; the first is the default.
    pub fn variants(self) -> &'static [&'static str] {
        match self {
            // `seed` is the variant "as in the source documents" (every error retried). The id
            // predates the rule that "seed" names only the RNG seed; it stays, because it is in
            // every such run's report (hence its trace hash), saved sessions and command lines.
            Scenario::RetryDeadLetter => &["seed", "classified"],
            Scenario::DuplicateExecution => &[
                "plain",
                "idempotency-key",
                "same-order-job-key",
                "same-order-order-key",
            ],
            Scenario::ClaimRace => &["two-statement", "atomic"],
            Scenario::PgRowLocks => &["skip-locked", "lock-timeout", "nowait"],
            Scenario::BurstLeveling => &["direct", "queue-redelivery", "two-tier-jitter"],
            Scenario::JitterContention => &["none", "exponential", "full", "equal", "decorrelated"],
            Scenario::LeaseShorterThanHandler => &["naive", "owner-check", "heartbeat"],
        }
    }

    /// Parses a name.
    ///
    /// # Errors
    /// [`ConfigError::Invalid`] on `scenario`, listing the names.
    pub fn parse(s: &str) -> Result<Scenario, ConfigError> {
        Scenario::ALL
            .into_iter()
            .find(|x| x.id() == s)
            .ok_or_else(|| ConfigError::Invalid {
                field: "scenario".into(),
                reason: Reason::UnknownScenario {
                    got: s.to_owned(),
                    allowed: Scenario::ALL.iter().map(|x| x.id().to_owned()).collect(),
                },
            })
    }

    /// Resolves a variant name (`None`: the default).
    ///
    /// # Errors
    /// [`ConfigError::Invalid`] on `variant`, listing the scenario's variants.
    pub fn variant(self, v: Option<&str>) -> Result<&'static str, ConfigError> {
        let all = self.variants();
        match v {
            None => Ok(all[0]),
            Some(v) => all
                .iter()
                .copied()
                .find(|x| *x == v)
                .ok_or_else(|| ConfigError::Invalid {
                    field: "variant".into(),
                    reason: Reason::UnknownVariant {
                        got: v.to_owned(),
                        scenario: self.id().to_owned(),
                        allowed: all.iter().map(|x| (*x).to_owned()).collect(),
                    },
                }),
        }
    }

    /// The queue config of a variant (`None` for `jitter-contention`, which is not a queue
    /// model; see [`run_contention`]).
    ///
    /// # Errors
    /// An unknown variant.
    pub fn config(
        self,
        variant: Option<&str>,
        seed: u64,
    ) -> Result<Option<SimConfig>, ConfigError> {
        let v = self.variant(variant)?;
        Ok(match self {
            Scenario::RetryDeadLetter => Some(retry_dead_letter(v, seed)),
            Scenario::DuplicateExecution => Some(duplicate_execution(v, seed)),
            Scenario::ClaimRace => Some(claim_race(v, seed)),
            Scenario::PgRowLocks => Some(pg_row_locks(v, seed)),
            Scenario::BurstLeveling => Some(burst_leveling(v, seed)),
            Scenario::JitterContention => None,
            Scenario::LeaseShorterThanHandler => Some(lease_shorter_than_handler(v, seed)),
        })
    }
}

/// Runs a named scenario.
///
/// # Errors
/// An unknown scenario or variant ([`ConfigError::Invalid`]).
pub fn run_scenario(name: &str, variant: Option<&str>, seed: u64) -> Result<Report, ConfigError> {
    let sc = Scenario::parse(name)?;
    let v = sc.variant(variant)?;
    match sc.config(Some(v), seed)? {
        Some(cfg) => {
            let mut sim = Simulation::new(cfg).map_err(|mut e| e.remove(0))?;
            sim.run();
            Ok(Report::from_sim(&sim, sc.id(), v))
        }
        None => {
            let strategy = Strategy::ALL
                .into_iter()
                .find(|s| s.id() == v)
                .unwrap_or(Strategy::None);
            let result = run_contention(&ContentionConfig::study(100, strategy, STUDY_RUNS, seed));
            Ok(Report {
                scenario: sc.id().into(),
                variant: v.into(),
                seed,
                jobs: Vec::new(),
                metrics: None,
                balance: None,
                claims: BTreeMap::new(),
                errors: BTreeMap::new(),
                contention: Some(result),
                events: Vec::new(),
            })
        }
    }
}

fn kind(name: &str, max_attempts: u32) -> JobKind {
    JobKind {
        name: name.into(),
        max_attempts,
        duration: DurationDist::Fixed { ms: 0 },
        failure: FailureModel::Never,
        error: String::new(),
        error_class: ErrorClass::Retryable,
        effect: None,
        calls_downstream: false,
    }
}

fn burst(kind: usize, count: u64) -> Arrivals {
    Arrivals {
        kind,
        pattern: Pattern::Burst { count, at_ms: 0 },
    }
}

/// Source document `000`, demo 1: `send_mail` (max 5) times out on its first two runs; `resize_image` (max 3)
/// always raises a value error. One worker, fixed 0.2 s wait, 50 ms idle poll.
/// `classified`: permanent errors go to `dead` on the first attempt.
fn retry_dead_letter(v: &str, seed: u64) -> SimConfig {
    let mut cfg = SimConfig::empty(seed);
    cfg.kinds = vec![
        JobKind {
            failure: FailureModel::FirstRuns { k: 2 },
            error: "TimeoutError: mail server did not respond".into(),
            ..kind("send_mail", 5)
        },
        JobKind {
            failure: FailureModel::Always,
            error: "ValueError: not an image: memo.txt".into(),
            error_class: ErrorClass::Permanent,
            ..kind("resize_image", 3)
        },
    ];
    cfg.arrivals = vec![burst(0, 1), burst(1, 1)];
    cfg.workers = vec![WorkerSpec::new("A", 50)];
    cfg.retry = BackoffPolicy::fixed(SimDuration::from_ms(200));
    cfg.classify_errors = v == "classified";
    cfg
}

/// Source document `000`, demo 2: one job adds 100 points. Worker A claims at t=1000 s (30 s lease), applies
/// the effect and dies before `complete`; worker B starts at t=1031 s and claims it again.
/// `idempotency-key`: the key `order-1001-points` is recorded in the same transaction.
/// `same-order-…`: see [`same_order_twice`].
fn duplicate_execution(v: &str, seed: u64) -> SimConfig {
    if v.starts_with("same-order-") {
        return same_order_twice(v, seed);
    }
    let mut cfg = SimConfig::empty(seed);
    cfg.kinds = vec![JobKind {
        effect: Some(Effect {
            amount: 100,
            idempotency_key: (v == "idempotency-key").then(|| "order-1001-points".into()),
        }),
        ..kind("add_points", 3)
    }];
    cfg.arrivals = vec![burst(0, 1)];
    cfg.workers = vec![
        WorkerSpec {
            start: SimTime::from_secs(1_000),
            crash_probability: 1.0,
            ..WorkerSpec::new("A", 1_000)
        },
        WorkerSpec {
            start: SimTime::from_secs(1_031),
            ..WorkerSpec::new("B", 1_000)
        },
    ];
    cfg.lease = SimDuration::from_secs(30);
    cfg
}

/// The source documents' warning about keys (`docs/DOMAIN.md` §2): the same order (request 1)
/// is submitted twice, 2 s apart, as two rows; worker A (woken on work) runs both, each adding
/// 100 points. `same-order-job-key`: the key is made from the job id (`points-job-{id}`),
/// which differs per row: both apply, 200. `same-order-order-key`: from the order
/// (`order-{n}-points`): the second is refused, 100.
fn same_order_twice(v: &str, seed: u64) -> SimConfig {
    let mut cfg = SimConfig::empty(seed);
    let key = if v == "same-order-job-key" {
        "points-job-{id}"
    } else {
        "order-{n}-points"
    };
    cfg.kinds = vec![JobKind {
        duration: DurationDist::Fixed { ms: 100 },
        effect: Some(Effect {
            amount: 100,
            idempotency_key: Some(key.into()),
        }),
        ..kind("add_points", 3)
    }];
    cfg.arrivals = vec![burst(0, 1)];
    cfg.workers = vec![WorkerSpec::new("A", 0)];
    cfg.duplicate_submissions = Some(DuplicateSubmissions { after_ms: 2_000 });
    cfg
}

/// The source documents' `running → running` transition (a lease that runs out under a live
/// handler), issue 15: one `resize_image` job whose handler takes 40 s and always fails,
/// a 30 s lease, 3 workers woken on work, `max_attempts` 2, retried after 1 s.
/// * `naive`: the source documents' SQL. B reclaims at 30 s while A still runs; A's late
///   error re-queues the row and it is claimed a third time (3/2); every late result is stale.
/// * `owner-check`: `complete` / `release` only while the claim holds the row, and the
///   dead-letter rule for an expired last lease (with the owner check alone, the documents'
///   claim would reclaim the row past `max_attempts` for ever).
/// * `heartbeat`: the running worker extends its lease every 10 s: no overlap, 2 runs.
fn lease_shorter_than_handler(v: &str, seed: u64) -> SimConfig {
    let mut cfg = SimConfig::empty(seed);
    cfg.kinds = vec![JobKind {
        duration: DurationDist::Fixed { ms: 40_000 },
        failure: FailureModel::Always,
        error: "MemoryError: image too large".into(),
        ..kind("resize_image", 2)
    }];
    cfg.arrivals = vec![burst(0, 1)];
    cfg.workers = ["A", "B", "C"]
        .into_iter()
        .map(|n| WorkerSpec::new(n, 0))
        .collect();
    cfg.lease = SimDuration::from_secs(30);
    cfg.retry = BackoffPolicy::fixed(SimDuration::from_secs(1));
    match v {
        "owner-check" => {
            cfg.owner_check = true;
            cfg.expired_on_last_attempt = ExpiryRule::DeadLetter;
        }
        "heartbeat" => cfg.heartbeat_ms = Some(10_000),
        _ => {}
    }
    cfg
}

/// Source document `000`, demo 3: two queued jobs, workers A and B poll at the same instant. `two-statement`:
/// `SELECT` then `UPDATE` 1 ms later; `atomic`: one `UPDATE … RETURNING`. Runs take 100 ms.
fn claim_race(v: &str, seed: u64) -> SimConfig {
    let mut cfg = SimConfig::empty(seed);
    cfg.kinds = vec![JobKind {
        duration: DurationDist::Fixed { ms: 100 },
        ..kind("send_mail", 3)
    }];
    cfg.arrivals = vec![burst(0, 2)];
    cfg.workers = vec![WorkerSpec::new("A", 1_000), WorkerSpec::new("B", 1_000)];
    cfg.claim = if v == "atomic" {
        ClaimStrategy::Atomic
    } else {
        ClaimStrategy::TwoStatement {
            gap: SimDuration::from_ms(1),
        }
    };
    cfg
}

/// The source documents' PostgreSQL demo: three queued jobs; A takes job 1 and holds its row lock for
/// 2 s, then commits it `done`. B tries one claim at 0.1 s with the variant's locking clause
/// and rolls back (`lock-timeout`: `FOR UPDATE` with `lock_timeout = 1s`).
fn pg_row_locks(v: &str, seed: u64) -> SimConfig {
    let mut cfg = SimConfig::empty(seed);
    cfg.kinds = vec![
        JobKind {
            duration: DurationDist::Fixed { ms: 2_000 },
            ..kind("send_mail", 3)
        },
        kind("resize_image", 3),
        kind("export_csv", 3),
    ];
    cfg.arrivals = vec![burst(0, 1), burst(1, 1), burst(2, 1)];
    cfg.workers = vec![
        WorkerSpec {
            max_claims: Some(1),
            ..WorkerSpec::new("A", 1_000)
        },
        WorkerSpec {
            start: SimTime::from_ms(100),
            probe: true,
            ..WorkerSpec::new("B", 1_000)
        },
    ];
    cfg.claim = match v {
        "lock-timeout" => ClaimStrategy::ForUpdate {
            lock_timeout: Some(SimDuration::from_secs(1)),
        },
        "nowait" => ClaimStrategy::Nowait,
        _ => ClaimStrategy::SkipLocked,
    };
    cfg
}

/// Source document `003`: ten submissions at the same instant; the downstream (a spreadsheet script) serves
/// one call at a time (300 ms) and answers "busy" (20 ms) to overlapping calls.
/// * `direct`: the API calls the downstream once; the user sees the failure.
/// * `queue-redelivery`: publish, ten workers receive the ten messages at once, one call each;
///   a failure goes back to the queue, redelivered after a fixed 30 s, 5 deliveries at most.
/// * `two-tier-jitter`: the same plus up to 4 short full-jitter retries inside the worker
///   (base 250 ms, cap 4 s) before giving the message back.
fn burst_leveling(v: &str, seed: u64) -> SimConfig {
    let mut cfg = SimConfig::empty(seed);
    cfg.kinds = vec![JobKind {
        calls_downstream: true,
        error: "busy".into(),
        ..kind("append_row", 5)
    }];
    cfg.arrivals = vec![burst(0, 10)];
    cfg.downstream = Some(Downstream {
        capacity: 1,
        latency: DurationDist::Fixed { ms: 300 },
        refusal: SimDuration::from_ms(20),
        rate_limit: None,
        outage: None,
        failure_p: 0.0,
    });
    cfg.lease = SimDuration::from_secs(60);
    cfg.retry = BackoffPolicy::fixed(SimDuration::from_secs(30));
    cfg.workers = (0..10)
        .map(|i| WorkerSpec::new(WorkerSpec::default_name(i), 0))
        .collect();
    match v {
        "direct" => {
            cfg.intake = Intake::Direct { calls: 1 };
            cfg.workers.clear();
        }
        "two-tier-jitter" => {
            cfg.in_worker_retry = Some(InWorkerRetry {
                max_retries: 4,
                backoff: BackoffPolicy::named(
                    Strategy::Full,
                    SimDuration::from_ms(250),
                    SimDuration::from_secs(4),
                ),
            });
        }
        _ => {}
    }
    cfg
}

/// A 64-bit FNV-1a digest of the JSON reports of every scenario and variant, plus a short
/// M/M/c run with failures and lognormal run times, all with `seed`. Equal digests
/// natively and in wasm mean equal traces (the benchmark scripts compare them).
pub fn trace_digest(seed: u64) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for sc in Scenario::ALL {
        for v in sc.variants() {
            if let Ok(r) = run_scenario(sc.id(), Some(v), seed) {
                eat(crate::domain::json::compact(&r).as_bytes());
            }
        }
    }
    let mut cfg = crate::domain::sim::reference::erlang::MmcModel::bench(2_000, seed).config();
    cfg.log = true;
    // The whole table goes into the digest.
    cfg.retention = crate::domain::sim::jobs::Retention::All;
    cfg.kinds[0].duration = DurationDist::LogNormal {
        p50_ms: 80.0,
        p95_ms: 300.0,
    };
    if let Ok(mut sim) = Simulation::new(cfg) {
        sim.run();
        let r = Report::from_sim(&sim, "mmc", "digest");
        eat(crate::domain::json::compact(&r).as_bytes());
    }
    h
}
