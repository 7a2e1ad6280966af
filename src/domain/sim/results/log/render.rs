//! A log line as text: English through [`Line`]'s `Display` (the source documents' printed runs, byte for
//! byte) and any language through [`Line::render`] with the templates in
//! `locales/simulator/sim-log.yml`; the name and error look-ups both use.

use super::*;

/// Seconds as a log writes them: `1031.000s` when the log is in milliseconds, `0.066988s`
/// when it has any time or wait with a sub-millisecond part ([`EventLog::micros`]). One choice
/// per log, so its times line up; a value with a sub-millisecond part always gets six decimals,
/// so nothing is ever rounded.
#[derive(Clone, Copy)]
struct Secs {
    us: u64,
    micros: bool,
}

impl fmt::Display for Secs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (s, frac) = (self.us / 1_000_000, self.us % 1_000_000);
        if self.micros || !frac.is_multiple_of(1_000) {
            write!(f, "{s}.{frac:06}s")
        } else {
            write!(f, "{s}.{:03}s", frac / 1_000)
        }
    }
}

impl LogNames {
    fn kind(&self, k: u32) -> Option<&KindNames> {
        self.kinds.get(k as usize)
    }

    fn error(&self, e: ErrorId) -> &str {
        self.errors.get(e.0 as usize).map_or("", String::as_str)
    }

    /// The error text in `lang`: the engine's own errors come from the locale file, the
    /// handlers' own messages (e.g. `TimeoutError: …`) stay as raised.
    fn error_in(&self, e: ErrorId, lang: Lang) -> String {
        match e.0.checked_sub(self.builtin_errors).map(|i| i as usize) {
            Some(i) if i < BUILTIN_KEYS.len() => {
                t!(BUILTIN_KEYS[i], locale = lang.code()).into_owned()
            }
            _ => self.error(e).to_owned(),
        }
    }

    fn key(&self, k: u32, arrival: u32, job: u32) -> String {
        self.kind(k)
            .and_then(|k| k.key.as_deref())
            .map(|t| fill_key(t, u64::from(arrival), u64::from(job)))
            .unwrap_or_default()
    }

    fn after(&self, k: u32, before: i64) -> i64 {
        before.saturating_add(self.kind(k).map_or(0, |k| k.amount))
    }

    /// Pairs an entry with these names, its times in milliseconds unless the entry itself
    /// needs microseconds (set [`Line::micros`] to the log's [`EventLog::micros`] to line a
    /// whole log up).
    pub fn line<'a>(&'a self, entry: &'a LogEntry) -> Line<'a> {
        Line {
            entry,
            names: self,
            micros: false,
        }
    }
}

/// An idempotency-key template filled in: `{n}` = the request (arrival) number, `{id}` = the
/// job id (differs for the same request submitted twice).
pub(crate) fn fill_key(template: &str, arrival: u64, job: u64) -> String {
    template
        .replace("{n}", &arrival.to_string())
        .replace("{id}", &job.to_string())
}

fn job_list(jobs: &[u32]) -> String {
    jobs.iter()
        .map(|j| format!("job#{j}"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Line<'_> {
    /// `us` microseconds as this line writes seconds.
    fn secs(&self, us: u64) -> Secs {
        Secs {
            us,
            micros: self.micros,
        }
    }

    fn head(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (e, n) = (self.entry, self.names);
        write!(f, "{}", self.secs(e.time.0))?;
        if let Some(w) = n.workers.get(usize::from(e.worker)) {
            write!(f, " {w}")?;
        }
        if e.job != 0 {
            let (name, max) = n
                .kind(e.kind)
                .map_or(("", 0), |k| (k.name.as_str(), k.max_attempts));
            write!(f, " job#{} {name} {}/{max}", e.job, e.attempt)?;
        }
        // A submission's line names it where a job's names the job, then its colon:
        // `0.020s submission 2: downstream ok → accepted`, as `0.020s job#2 …: done`.
        let submission = matches!(
            e.event,
            LogEvent::SubmissionFallback { .. }
                | LogEvent::SubmissionFailed { .. }
                | LogEvent::SubmissionAccepted { .. }
                | LogEvent::SubmissionRetry { .. }
                | LogEvent::SubmissionGaveUp { .. }
        );
        f.write_str(if submission { " " } else { ": " })
    }

    /// The line in `lang`, from the templates in `locales/simulator/sim-log.yml`: the English ones are
    /// the [`Display`](fmt::Display) text (a test holds them equal); Japanese keeps the time,
    /// worker, job, kind, attempt, SQL and the handlers' own error messages and translates
    /// the rest.
    pub fn render(&self, lang: Lang) -> String {
        struct Head<'a>(&'a Line<'a>);
        impl fmt::Display for Head<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.head(f)
            }
        }
        let mut s = Head(self).to_string();
        let (key, args) = self.template(lang);
        fill(&mut s, &t!(key, locale = lang.code()), &args);
        s
    }

    /// The template key of the event and its `%{name}` values.
    fn template(&self, lang: Lang) -> (&'static str, Vec<(&'static str, String)>) {
        let (e, n) = (self.entry, self.names);
        let call = |r: CallResult| t!(r.key(), locale = lang.code()).into_owned();
        let err = |id: ErrorId| ("error", n.error_in(id, lang));
        match &e.event {
            LogEvent::Enqueued => ("sim-log.enqueued", vec![]),
            LogEvent::Claimed(how) => ("sim-log.claimed", vec![("sql", how.sql().to_owned())]),
            LogEvent::Picked { job } => ("sim-log.picked", vec![("job", job.to_string())]),
            LogEvent::NothingToClaim => ("sim-log.nothing", vec![]),
            LogEvent::ProbeRollback => ("sim-log.probe-rollback", vec![]),
            LogEvent::Done => ("sim-log.done", vec![]),
            LogEvent::ErrorQueued { err: id, until } => (
                "sim-log.error-queued",
                vec![err(*id), ("until", self.secs(until.0).to_string())],
            ),
            LogEvent::ErrorDead { err: id } => ("sim-log.error-dead", vec![err(*id)]),
            LogEvent::ErrorPermanent { err: id } => ("sim-log.error-permanent", vec![err(*id)]),
            LogEvent::SideEffect { before } => (
                "sim-log.side-effect",
                vec![
                    ("before", before.to_string()),
                    ("after", n.after(e.kind, *before).to_string()),
                ],
            ),
            LogEvent::KeyRejected { arrival, balance } => (
                "sim-log.key-rejected",
                vec![
                    ("key", n.key(e.kind, *arrival, e.job)),
                    ("balance", balance.to_string()),
                ],
            ),
            LogEvent::Crash => ("sim-log.crash", vec![]),
            LogEvent::RowLockWait { job } => {
                ("sim-log.row-lock-wait", vec![("job", job.to_string())])
            }
            LogEvent::SkipLocked { jobs } => {
                ("sim-log.skip-locked", vec![("jobs", job_list(jobs))])
            }
            LogEvent::LockError(le) => {
                ("sim-log.lock-error", vec![("error", le.text().to_owned())])
            }
            LogEvent::DownstreamOk => ("sim-log.downstream-ok", vec![]),
            LogEvent::InWorkerRetry { result, wait } => (
                "sim-log.in-worker-retry",
                vec![
                    ("result", call(*result)),
                    ("wait", self.secs(wait.0).to_string()),
                ],
            ),
            LogEvent::SubmissionFallback { n } => {
                ("sim-log.submission-fallback", vec![("n", n.to_string())])
            }
            LogEvent::SubmissionFailed { n } => {
                ("sim-log.submission-failed", vec![("n", n.to_string())])
            }
            LogEvent::SubmissionAccepted { n } => {
                ("sim-log.submission-accepted", vec![("n", n.to_string())])
            }
            LogEvent::SubmissionRetry { n, result, wait } => (
                "sim-log.submission-retry",
                vec![
                    ("n", n.to_string()),
                    ("result", call(*result)),
                    ("wait", self.secs(wait.0).to_string()),
                ],
            ),
            LogEvent::SubmissionGaveUp { n, result } => (
                "sim-log.submission-gave-up",
                vec![("n", n.to_string()), ("result", call(*result))],
            ),
            LogEvent::Overlap => ("sim-log.overlap", vec![]),
            LogEvent::ClaimOverMax => ("sim-log.claim-over-max", vec![]),
            LogEvent::StaleResult { op, refused } => (
                if *refused {
                    "sim-log.stale-refused"
                } else {
                    "sim-log.stale-applied"
                },
                vec![("op", op.text().to_owned())],
            ),
            LogEvent::CompletedAfterDead => ("sim-log.completed-after-dead", vec![]),
            LogEvent::LeaseExpiredDead => ("sim-log.lease-expired-dead", vec![]),
            LogEvent::AckedEarly => ("sim-log.acked-early", vec![]),
            LogEvent::Lost => ("sim-log.lost", vec![]),
            LogEvent::LeaseRenewed { until } => (
                "sim-log.lease-renewed",
                vec![("until", self.secs(until.0).to_string())],
            ),
            LogEvent::EnqueuedAgain => ("sim-log.enqueued-again", vec![]),
        }
    }
}

/// Appends `template` to `out` with each `%{name}` replaced by its value, in one pass (a
/// value that itself contains `%{…}` is left alone). Unknown names stay as written.
fn fill(out: &mut String, template: &str, args: &[(&str, String)]) {
    let mut rest = template;
    while let Some(i) = rest.find("%{") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        match after.find('}') {
            Some(j) => {
                let name = &after[..j];
                match args.iter().find(|(k, _)| *k == name) {
                    Some((_, v)) => out.push_str(v),
                    None => out.push_str(&rest[i..i + 3 + j]),
                }
                rest = &after[j + 1..];
            }
            None => {
                out.push_str(&rest[i..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
}

impl fmt::Display for Line<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.head(f)?;
        let (e, n) = (self.entry, self.names);
        match &e.event {
            LogEvent::Enqueued => f.write_str("enqueued"),
            LogEvent::Claimed(how) => write!(f, "claimed ({})", how.sql()),
            LogEvent::Picked { job } => write!(f, "SELECT picks job#{job}"),
            LogEvent::NothingToClaim => f.write_str("nothing to claim"),
            LogEvent::ProbeRollback => f.write_str("ROLLBACK (the probe only looks)"),
            LogEvent::Done => f.write_str("done"),
            LogEvent::ErrorQueued { err, until } => {
                let until = self.secs(until.0);
                write!(f, "error {} → queued until {until}", n.error(*err))
            }
            LogEvent::ErrorDead { err } => write!(f, "error {} → dead", n.error(*err)),
            LogEvent::ErrorPermanent { err } => {
                write!(f, "error {} (permanent) → dead", n.error(*err))
            }
            LogEvent::SideEffect { before } => write!(
                f,
                "side effect applied: balance {before} → {}",
                n.after(e.kind, *before)
            ),
            LogEvent::KeyRejected { arrival, balance } => write!(
                f,
                "idempotency key {} already recorded (unique constraint) → ROLLBACK, balance stays {balance}",
                n.key(e.kind, *arrival, e.job)
            ),
            LogEvent::Crash => f.write_str("worker dies before complete()"),
            LogEvent::RowLockWait { job } => {
                write!(f, "FOR UPDATE waits for the row lock on job#{job}")
            }
            LogEvent::SkipLocked { jobs } => {
                write!(f, "SKIP LOCKED passes over {}", job_list(jobs))
            }
            LogEvent::LockError(le) => write!(f, "error: {}", le.text()),
            LogEvent::DownstreamOk => f.write_str("downstream ok"),
            LogEvent::InWorkerRetry { result, wait } => {
                let wait = self.secs(wait.0);
                write!(f, "{} → retry in the worker in {wait}", result.text())
            }
            LogEvent::SubmissionFallback { n } => write!(
                f,
                "submission {n}: publish failed, calling the downstream directly"
            ),
            LogEvent::SubmissionFailed { n } => {
                write!(f, "submission {n}: failed back to the user")
            }
            LogEvent::SubmissionAccepted { n } => {
                write!(f, "submission {n}: downstream ok → accepted")
            }
            LogEvent::SubmissionRetry { n, result, wait } => write!(
                f,
                "submission {n}: {} → call again in {}",
                result.text(),
                self.secs(wait.0)
            ),
            LogEvent::SubmissionGaveUp { n, result } => write!(
                f,
                "submission {n}: {} → failed back to the user",
                result.text()
            ),
            LogEvent::Overlap => {
                f.write_str("another run of this job is still going (overlapping runs)")
            }
            LogEvent::ClaimOverMax => {
                f.write_str("attempt past max_attempts (the claim has no attempts check)")
            }
            LogEvent::StaleResult { op, refused } => write!(
                f,
                "stale {}: this worker no longer holds the job → {}",
                op.text(),
                if *refused {
                    "refused (owner check), the row stays as it is"
                } else {
                    "applied (no owner check)"
                }
            ),
            LogEvent::CompletedAfterDead => f.write_str("a dead job turned done by a late complete()"),
            LogEvent::LeaseExpiredDead => {
                f.write_str("lease expired on the last attempt → dead (dead-letter rule)")
            }
            LogEvent::AckedEarly => {
                f.write_str("acknowledged at the claim, before the work (at-most-once)")
            }
            LogEvent::Lost => {
                f.write_str("the job was acknowledged before the work and is lost (never done)")
            }
            LogEvent::LeaseRenewed { until } => {
                write!(f, "heartbeat: lease extended until {}", self.secs(until.0))
            }
            LogEvent::EnqueuedAgain => {
                f.write_str("enqueued again (the same request submitted twice)")
            }
        }
    }
}
