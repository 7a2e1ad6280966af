//! Each queue-code system's defaults in the sheet's units (`brief/QUEUES.md` §3–§10 and the
//! constants of [`crate::domain::queues`]), for [`super::code_job`]: what the system does
//! when the file does not state a setting.

use crate::domain::queues::{
    active_job, bullmq, celery, oban, pg_boss, river, sidekiq, temporal, TargetId,
};
use crate::domain::sheet::{BackoffKind, Jitter, Polynomial, MAX_CAP_MS};

/// Celery's `retry_backoff_max` when not set, in ms (celery/app/autoretry.py L25–28).
const CELERY_BACKOFF_MAX_MS: u64 = 600_000;
/// Celery's Redis broker `visibility_timeout` when not set, in ms (kombu redis.py L726).
const CELERY_VISIBILITY_MS: u64 = 3_600_000;
/// River's `JobTimeout` when not set, in ms.
const RIVER_JOB_TIMEOUT_MS: u64 = 60_000;
/// River's `RescueStuckJobsAfter` when not set, in ms.
const RIVER_RESCUE_MS: u64 = 3_600_000;
/// pg-boss's `expireInSeconds` when not set, in ms (900 s).
const PG_BOSS_EXPIRE_MS: u64 = 900_000;
/// A system's defaults in the sheet's units.
pub(super) struct Defaults {
    /// Runs including the first; `None`: unlimited.
    pub(super) attempts: Option<u32>,
    /// The wait's shape when none is stated.
    pub(super) kind: BackoffKind,
    /// The first wait when none is stated (the sheet's smallest where the system waits 0).
    pub(super) base_ms: u64,
    /// The cap of the default wait.
    pub(super) cap_ms: u64,
    /// The default wait's jitter as the sheet can hold it.
    pub(super) jitter: Jitter,
    /// The cap when the file states a wait of another kind (exponential, polynomial)
    /// without one.
    pub(super) exp_cap_ms: u64,
    /// The jitter when the file states a wait of another kind without one.
    pub(super) exp_jitter: Jitter,
    /// The attempt timeout; `None`: none (the sheet keeps its prefilled value).
    pub(super) timeout_ms: Option<u64>,
    /// The lease; `None`: none (the sheet keeps its prefilled value).
    pub(super) lease_ms: Option<u64>,
}

/// The defaults of `sys` (one of the eight code systems), `brief/QUEUES.md` §3–§10.
pub(super) fn defaults(sys: TargetId) -> Defaults {
    let none = Defaults {
        attempts: Some(1),
        kind: BackoffKind::Fixed,
        base_ms: 1,
        cap_ms: 1,
        jitter: Jitter::None,
        exp_cap_ms: MAX_CAP_MS,
        exp_jitter: Jitter::None,
        timeout_ms: None,
        lease_ms: None,
    };
    match sys {
        TargetId::Celery => Defaults {
            attempts: Some(celery::DEFAULT_MAX_RETRIES + 1),
            base_ms: celery::DEFAULT_RETRY_DELAY_S * 1000,
            cap_ms: celery::DEFAULT_RETRY_DELAY_S * 1000,
            exp_cap_ms: CELERY_BACKOFF_MAX_MS,
            exp_jitter: Jitter::Full,
            lease_ms: Some(CELERY_VISIBILITY_MS),
            ..none
        },
        TargetId::Sidekiq => Defaults {
            attempts: Some(sidekiq::DEFAULT_RETRIES + 1),
            kind: BackoffKind::Polynomial(Polynomial {
                exponent: 4,
                first_n: 0,
            }),
            base_ms: sidekiq::default_delay_s(0) as u64 * 1000,
            cap_ms: MAX_CAP_MS,
            ..none
        },
        TargetId::ActiveJob => Defaults {
            attempts: Some(active_job::DEFAULT_ATTEMPTS),
            base_ms: (active_job::DEFAULT_WAIT_S * 1000.0) as u64,
            cap_ms: (active_job::DEFAULT_WAIT_S * 1000.0) as u64,
            ..none
        },
        TargetId::Oban => Defaults {
            attempts: Some(oban::DEFAULT_MAX_ATTEMPTS),
            kind: BackoffKind::Exponential,
            // `15 + 2^a` s: the sheet holds its growing part, 2^a = 2 s · 2^n (n = 0 first),
            // so the window stays within 15 s per retry of Oban's.
            base_ms: 2_000,
            cap_ms: oban::default_base_s(
                oban::DEFAULT_MAX_ATTEMPTS - 1,
                oban::DEFAULT_MAX_ATTEMPTS,
            ) * 1000,
            ..none
        },
        TargetId::River => Defaults {
            attempts: Some(river::DEFAULT_MAX_ATTEMPTS),
            kind: BackoffKind::Polynomial(Polynomial {
                exponent: 4,
                first_n: 1,
            }),
            base_ms: 0,
            cap_ms: MAX_CAP_MS,
            timeout_ms: Some(RIVER_JOB_TIMEOUT_MS),
            lease_ms: Some(RIVER_RESCUE_MS),
            ..none
        },
        TargetId::Bullmq => Defaults {
            attempts: Some(bullmq::DEFAULT_ATTEMPTS),
            lease_ms: Some(bullmq::DEFAULT_LOCK_MS),
            ..none
        },
        TargetId::PgBoss => Defaults {
            attempts: Some(pg_boss::DEFAULT_RETRY_LIMIT + 1),
            exp_jitter: Jitter::Equal,
            timeout_ms: Some(PG_BOSS_EXPIRE_MS),
            lease_ms: Some(PG_BOSS_EXPIRE_MS),
            ..none
        },
        _ => Defaults {
            attempts: None,
            kind: BackoffKind::Exponential,
            base_ms: temporal::DEFAULT_INITIAL_MS,
            cap_ms: temporal::DEFAULT_INITIAL_MS * temporal::DEFAULT_MAX_INTERVAL_FACTOR,
            ..none
        },
    }
}
