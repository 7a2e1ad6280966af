//! A [`LogEntry`] as integers, its form on the wire (JSON between the worker and the page):
//! [`LogEntry::to_words`], [`LogEntry::from_words`] and the serde impls that use them.

use super::*;

fn call_of(w: u64) -> Option<CallResult> {
    [
        CallResult::Ok,
        CallResult::Busy,
        CallResult::RateLimited,
        CallResult::Unavailable,
    ]
    .get(usize::try_from(w).ok()?)
    .copied()
}

fn call_word(r: CallResult) -> u64 {
    match r {
        CallResult::Ok => 0,
        CallResult::Busy => 1,
        CallResult::RateLimited => 2,
        CallResult::Unavailable => 3,
    }
}

impl LogEntry {
    /// The entry as integers: `[time µs, job, kind, attempt, worker, tag, payload…]`, where
    /// the tag numbers the [`LogEvent`] variants in declaration order (0 = `Enqueued` …
    /// 21 = `SubmissionGaveUp`, then 22 = `Overlap` … 30 = `EnqueuedAgain`; numbers are never
    /// reused) and the payload is its fields in order (signed balances as
    /// their two's-complement bits; `SkipLocked`: the job ids).
    pub fn to_words(&self) -> Vec<u64> {
        use LogEvent as E;
        let (tag, payload): (u64, Vec<u64>) = match &self.event {
            E::Enqueued => (0, vec![]),
            E::Claimed(h) => (1, vec![*h as u64]),
            E::Picked { job } => (2, vec![u64::from(*job)]),
            E::NothingToClaim => (3, vec![]),
            E::ProbeRollback => (4, vec![]),
            E::Done => (5, vec![]),
            E::ErrorQueued { err, until } => (6, vec![u64::from(err.0), until.0]),
            E::ErrorDead { err } => (7, vec![u64::from(err.0)]),
            E::ErrorPermanent { err } => (8, vec![u64::from(err.0)]),
            E::SideEffect { before } => (9, vec![*before as u64]),
            E::KeyRejected { arrival, balance } => (10, vec![u64::from(*arrival), *balance as u64]),
            E::Crash => (11, vec![]),
            E::RowLockWait { job } => (12, vec![u64::from(*job)]),
            E::SkipLocked { jobs } => (13, jobs.iter().map(|&j| u64::from(j)).collect()),
            E::LockError(le) => (14, vec![*le as u64]),
            E::DownstreamOk => (15, vec![]),
            E::InWorkerRetry { result, wait } => (16, vec![call_word(*result), wait.0]),
            E::SubmissionFallback { n } => (17, vec![u64::from(*n)]),
            E::SubmissionFailed { n } => (18, vec![u64::from(*n)]),
            E::SubmissionAccepted { n } => (19, vec![u64::from(*n)]),
            E::SubmissionRetry { n, result, wait } => {
                (20, vec![u64::from(*n), call_word(*result), wait.0])
            }
            E::SubmissionGaveUp { n, result } => (21, vec![u64::from(*n), call_word(*result)]),
            E::Overlap => (22, vec![]),
            E::ClaimOverMax => (23, vec![]),
            E::StaleResult { op, refused } => (24, vec![*op as u64, u64::from(*refused)]),
            E::CompletedAfterDead => (25, vec![]),
            E::LeaseExpiredDead => (26, vec![]),
            E::AckedEarly => (27, vec![]),
            E::Lost => (28, vec![]),
            E::LeaseRenewed { until } => (29, vec![until.0]),
            E::EnqueuedAgain => (30, vec![]),
        };
        let mut w = vec![
            self.time.0,
            u64::from(self.job),
            u64::from(self.kind),
            u64::from(self.attempt),
            u64::from(self.worker),
            tag,
        ];
        w.extend(payload);
        w
    }

    /// Reads [`LogEntry::to_words`]; `None` for anything malformed (never panics).
    pub fn from_words(w: &[u64]) -> Option<LogEntry> {
        use LogEvent as E;
        let u32_at = |i: usize| w.get(i).and_then(|&x| u32::try_from(x).ok());
        let at = |i: usize| w.get(i).copied();
        let p = |i: usize| u32_at(6 + i);
        let event = match at(5)? {
            0 => E::Enqueued,
            1 => E::Claimed(
                [
                    ClaimHow::Atomic,
                    ClaimHow::ById,
                    ClaimHow::ForUpdate,
                    ClaimHow::Nowait,
                    ClaimHow::SkipLocked,
                ]
                .get(usize::try_from(at(6)?).ok()?)
                .copied()?,
            ),
            2 => E::Picked { job: p(0)? },
            3 => E::NothingToClaim,
            4 => E::ProbeRollback,
            5 => E::Done,
            6 => E::ErrorQueued {
                err: ErrorId(p(0)?),
                until: SimTime(at(7)?),
            },
            7 => E::ErrorDead {
                err: ErrorId(p(0)?),
            },
            8 => E::ErrorPermanent {
                err: ErrorId(p(0)?),
            },
            9 => E::SideEffect {
                before: at(6)? as i64,
            },
            10 => E::KeyRejected {
                arrival: p(0)?,
                balance: at(7)? as i64,
            },
            11 => E::Crash,
            12 => E::RowLockWait { job: p(0)? },
            13 => E::SkipLocked {
                jobs: Box::new(
                    w[6.min(w.len())..]
                        .iter()
                        .map(|&j| u32::try_from(j).ok())
                        .collect::<Option<Vec<u32>>>()?,
                ),
            },
            14 => E::LockError(match at(6)? {
                0 => LockError::Nowait,
                1 => LockError::Timeout,
                _ => return None,
            }),
            15 => E::DownstreamOk,
            16 => E::InWorkerRetry {
                result: call_of(at(6)?)?,
                wait: SimDuration(at(7)?),
            },
            17 => E::SubmissionFallback { n: p(0)? },
            18 => E::SubmissionFailed { n: p(0)? },
            19 => E::SubmissionAccepted { n: p(0)? },
            20 => E::SubmissionRetry {
                n: p(0)?,
                result: call_of(at(7)?)?,
                wait: SimDuration(at(8)?),
            },
            21 => E::SubmissionGaveUp {
                n: p(0)?,
                result: call_of(at(7)?)?,
            },
            22 => E::Overlap,
            23 => E::ClaimOverMax,
            24 => E::StaleResult {
                op: match at(6)? {
                    0 => Finish::Complete,
                    1 => Finish::Release,
                    _ => return None,
                },
                refused: match at(7)? {
                    0 => false,
                    1 => true,
                    _ => return None,
                },
            },
            25 => E::CompletedAfterDead,
            26 => E::LeaseExpiredDead,
            27 => E::AckedEarly,
            28 => E::Lost,
            29 => E::LeaseRenewed {
                until: SimTime(at(6)?),
            },
            30 => E::EnqueuedAgain,
            _ => return None,
        };
        Some(LogEntry {
            time: SimTime(at(0)?),
            event,
            job: u32_at(1)?,
            kind: u32_at(2)?,
            attempt: u32_at(3)?,
            worker: u16::try_from(at(4)?).ok()?,
        })
    }
}

impl Serialize for LogEntry {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_words().serialize(s)
    }
}

impl<'de> Deserialize<'de> for LogEntry {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<LogEntry, D::Error> {
        let w = Vec::<u64>::deserialize(d)?;
        LogEntry::from_words(&w).ok_or_else(|| serde::de::Error::custom("not a log entry"))
    }
}
