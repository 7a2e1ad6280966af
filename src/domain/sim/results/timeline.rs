//! The worker timeline: one lane per worker, a bar per run from its claim to its end, the
//! lease as a window behind the bar, marks for what happened (side effect, crash, lease
//! running out, key rejected, dead, refused stale result), and under the lanes each row's
//! status over time — built from the run's event log and its lease ([`Timeline::build`]),
//! drawn as SVG with [`plot::lanes`] in English or Japanese ([`Timeline::svg`]), with a title
//! and a description saying in words what happens.
//!
//! Adding a log event: `Builder::entry` matches every [`LogEvent`] without a catch-all, so
//! a new variant is one compile error and one match arm there (end a run, add a [`Mark`],
//! change a row's status, or nothing).
//!
//! Only runs of at most [`MAX_TIMELINE_JOBS`] jobs get a timeline: past a few hundred jobs a
//! run's bar is narrower than a pixel and the lanes read as solid colour.

use crate::domain::lang::Lang;
use crate::domain::plot::{self, Axis, Frame, Lane, LaneChart, Limits, Shape, Span};
use crate::domain::sim::core::time::{SimDuration, SimTime};
use crate::domain::sim::results::log::{LogEntry, LogEvent, LogNames, NO_WORKER};
use crate::text::t;

/// Jobs a run may have and still get a timeline.
pub const MAX_TIMELINE_JOBS: u64 = 300;

/// Jobs whose row status is drawn under the lanes at most (one strip each).
pub const MAX_STATUS_STRIPS: usize = 8;

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunEnd {
    /// Completed (`done`).
    Done,
    /// Failed and released for a retry.
    Retry,
    /// Failed for good: the row went `dead`.
    Dead,
    /// The worker died during the run.
    Crashed,
    /// Its result came after its lease and the owner check refused it.
    Refused,
    /// Still going when the run stopped.
    Open,
}

/// A point event on a worker's lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// The handler's side effect was applied.
    SideEffect,
    /// The idempotency key stopped a second side effect.
    KeyRejected,
    /// The worker died.
    Crash,
    /// The run's lease ran out while the run was still going (or after its worker died).
    LeaseExpired,
    /// A result from a worker whose lease had expired was refused (owner check).
    Refused,
    /// The row went `dead`.
    Dead,
}

impl Mark {
    /// Class key and shape.
    fn look(self) -> (&'static str, Shape) {
        match self {
            Mark::SideEffect => ("effect", Shape::Diamond),
            Mark::KeyRejected => ("key", Shape::Refused),
            Mark::Crash => ("crash", Shape::Cross),
            Mark::LeaseExpired => ("expired", Shape::Tick),
            Mark::Refused => ("refused", Shape::Refused),
            Mark::Dead => ("dead", Shape::Dot),
        }
    }

    /// The locale key suffix of its name.
    fn id(self) -> &'static str {
        match self {
            Mark::SideEffect => "effect",
            Mark::KeyRejected => "key",
            Mark::Crash => "crash",
            Mark::LeaseExpired => "expired",
            Mark::Refused => "refused",
            Mark::Dead => "dead",
        }
    }

    const ALL: [Mark; 6] = [
        Mark::SideEffect,
        Mark::KeyRejected,
        Mark::Crash,
        Mark::LeaseExpired,
        Mark::Refused,
        Mark::Dead,
    ];
}

/// One handler run: a worker, a job's attempt, from its claim to its end.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// Worker index (into [`LogNames::workers`]).
    pub worker: u16,
    /// Job id.
    pub job: u32,
    /// Attempt number (1-based).
    pub attempt: u32,
    /// The claim.
    pub from: SimTime,
    /// The end (the run's stop time when [`RunEnd::Open`]).
    pub to: SimTime,
    /// How it ended.
    pub end: RunEnd,
    /// The lease the claim set: `from + lease`.
    pub lease_until: SimTime,
}

/// A row's status, as the strips under the lanes draw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowStatus {
    /// Waiting to be claimed.
    Queued,
    /// Claimed, lease held.
    Running,
    /// Claimed, but the lease ran out: another worker may claim it.
    Expired,
    /// Completed.
    Done,
    /// Dead-lettered.
    Dead,
}

impl RowStatus {
    const ALL: [RowStatus; 5] = [
        RowStatus::Queued,
        RowStatus::Running,
        RowStatus::Expired,
        RowStatus::Done,
        RowStatus::Dead,
    ];

    fn key(self) -> &'static str {
        match self {
            RowStatus::Queued => "queued",
            RowStatus::Running => "running",
            RowStatus::Expired => "expired-row",
            RowStatus::Done => "done",
            RowStatus::Dead => "dead",
        }
    }
}

/// A run's timeline, ready to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct Timeline {
    /// Worker names, one lane each.
    pub workers: Vec<String>,
    /// The runs, in claim order.
    pub runs: Vec<Run>,
    /// Marks: (worker, time, mark, job).
    pub marks: Vec<(u16, SimTime, Mark, u32)>,
    /// Per job (at most [`MAX_STATUS_STRIPS`], in id order): its status changes `(from, status)`.
    pub rows: Vec<(u32, Vec<(SimTime, RowStatus)>)>,
    /// The run's end.
    pub end: SimTime,
    /// The lease each claim sets.
    pub lease: SimDuration,
}

/// Reads the log entry by entry ([`Builder::entry`]).
struct Builder {
    t: Timeline,
    /// Index into `t.runs` of each worker's run in progress.
    open: Vec<Option<usize>>,
}

impl Builder {
    /// The run in progress of the entry's worker, if any.
    fn current(&self, e: &LogEntry) -> Option<usize> {
        self.open.get(usize::from(e.worker)).copied().flatten()
    }

    fn status(&mut self, job: u32, at: SimTime, s: RowStatus) {
        if let Some((_, changes)) = self.t.rows.iter_mut().find(|(j, _)| *j == job) {
            changes.push((at, s));
        } else if s == RowStatus::Queued && self.t.rows.len() < MAX_STATUS_STRIPS {
            self.t.rows.push((job, vec![(at, s)]));
        }
    }

    fn mark(&mut self, e: &LogEntry, m: Mark) {
        if e.worker != NO_WORKER {
            self.t.marks.push((e.worker, e.time, m, e.job));
        }
    }

    fn claim(&mut self, e: &LogEntry) {
        let w = usize::from(e.worker);
        if e.worker == NO_WORKER || w >= self.open.len() {
            return;
        }
        self.open[w] = Some(self.t.runs.len());
        self.t.runs.push(Run {
            worker: e.worker,
            job: e.job,
            attempt: e.attempt,
            from: e.time,
            to: e.time,
            end: RunEnd::Open,
            lease_until: e.time.plus(self.t.lease),
        });
        self.status(e.job, e.time, RowStatus::Running);
    }

    /// Ends the entry's worker's run as `end`; the row becomes `row` (None: unchanged).
    fn end(&mut self, e: &LogEntry, end: RunEnd, row: Option<RowStatus>) {
        if let Some(i) = self.current(e) {
            self.t.runs[i].to = e.time;
            self.t.runs[i].end = end;
            self.open[usize::from(e.worker)] = None;
        }
        if let Some(s) = row {
            self.status(e.job, e.time, s);
        }
    }

    /// One log entry. Every [`LogEvent`] has its arm: add one for each new variant.
    fn entry(&mut self, e: &LogEntry) {
        match &e.event {
            LogEvent::Enqueued => self.status(e.job, e.time, RowStatus::Queued),
            LogEvent::Claimed(_) => self.claim(e),
            LogEvent::Done => self.end(e, RunEnd::Done, Some(RowStatus::Done)),
            LogEvent::ErrorQueued { .. } => self.end(e, RunEnd::Retry, Some(RowStatus::Queued)),
            LogEvent::ErrorDead { .. } | LogEvent::ErrorPermanent { .. } => {
                self.mark(e, Mark::Dead);
                self.end(e, RunEnd::Dead, Some(RowStatus::Dead));
            }
            LogEvent::SideEffect { .. } => self.mark(e, Mark::SideEffect),
            LogEvent::KeyRejected { .. } => self.mark(e, Mark::KeyRejected),
            LogEvent::Crash => {
                self.mark(e, Mark::Crash);
                self.end(e, RunEnd::Crashed, None);
            }
            // The owner check refused the result: the run ends, the row stays as the claim
            // that holds it left it. (An applied stale result is followed by its `done` or
            // `error` line, which ends the run.)
            LogEvent::StaleResult { refused: true, .. } => {
                self.mark(e, Mark::Refused);
                self.end(e, RunEnd::Refused, None);
            }
            LogEvent::LeaseRenewed { until } => {
                if let Some(i) = self.current(e) {
                    self.t.runs[i].lease_until = *until;
                }
            }
            LogEvent::EnqueuedAgain => self.status(e.job, e.time, RowStatus::Queued),
            // Acknowledged at the claim: the row is done while the handler still runs.
            LogEvent::AckedEarly => self.status(e.job, e.time, RowStatus::Done),
            // Acknowledged before the work and failed: no release follows, the run ends here
            // (a crash has ended it already).
            LogEvent::Lost => self.end(e, RunEnd::Dead, None),
            LogEvent::LeaseExpiredDead => self.status(e.job, e.time, RowStatus::Dead),
            // Said in the log and counted; the bars already show the overlap, the attempt
            // number and the `done` that follows.
            LogEvent::Overlap
            | LogEvent::ClaimOverMax
            | LogEvent::StaleResult { refused: false, .. }
            | LogEvent::CompletedAfterDead => {}
            // Lines that start or end no run and change no row.
            LogEvent::Picked { .. }
            | LogEvent::NothingToClaim
            | LogEvent::ProbeRollback
            | LogEvent::RowLockWait { .. }
            | LogEvent::SkipLocked { .. }
            | LogEvent::LockError(_)
            | LogEvent::DownstreamOk
            | LogEvent::InWorkerRetry { .. }
            | LogEvent::SubmissionFallback { .. }
            | LogEvent::SubmissionFailed { .. }
            | LogEvent::SubmissionAccepted { .. }
            | LogEvent::SubmissionRetry { .. }
            | LogEvent::SubmissionGaveUp { .. } => {}
        }
    }

    /// Closes open runs at `end`, marks leases that ran out before their run ended, and
    /// inserts the rows' lease-expired stretches.
    fn finish(mut self) -> Timeline {
        let end = self.t.end;
        for r in &mut self.t.runs {
            if r.end == RunEnd::Open {
                r.to = end;
            }
        }
        let mut expired = Vec::new();
        for r in &self.t.runs {
            // A crashed run's lease runs out after the crash; a live run's while it runs.
            let outlived = match r.end {
                RunEnd::Crashed => r.lease_until <= end,
                _ => r.lease_until < r.to,
            };
            if outlived {
                expired.push((r.worker, r.lease_until, Mark::LeaseExpired, r.job, r.from));
            }
        }
        for &(_, at, _, job, claimed) in &expired {
            // Still running on this run's claim when its lease ran out: the row's latest
            // change before then is this run's claim (a later claim holds a lease of its own).
            let Some((_, changes)) = self.t.rows.iter_mut().find(|(j, _)| *j == job) else {
                continue;
            };
            let i = changes.partition_point(|&(t, _)| t <= at);
            if i > 0 && changes[i - 1] == (claimed, RowStatus::Running) {
                changes.insert(i, (at, RowStatus::Expired));
            }
        }
        self.t.marks.extend(
            expired
                .into_iter()
                .map(|(w, at, m, job, _)| (w, at, m, job)),
        );
        self.t.marks.sort_by_key(|&(w, t, _, _)| (t, w));
        self.t
    }
}

impl Timeline {
    /// The timeline of a run from its log `entries` (in order), the names they refer to, the
    /// lease each claim sets and the run's end time.
    pub fn build<'a>(
        entries: impl IntoIterator<Item = &'a LogEntry>,
        names: &LogNames,
        lease: SimDuration,
        end: SimTime,
    ) -> Timeline {
        let mut b = Builder {
            t: Timeline {
                workers: names.workers.clone(),
                runs: Vec::new(),
                marks: Vec::new(),
                rows: Vec::new(),
                end,
                lease,
            },
            open: vec![None; names.workers.len()],
        };
        for e in entries {
            b.entry(e);
        }
        b.finish()
    }

    /// Pairs of runs of the same job that overlapped in time (the second claimed before the
    /// first ended, or before a crashed run's lease ran out).
    pub fn overlaps(&self) -> usize {
        let mut n = 0;
        for (i, a) in self.runs.iter().enumerate() {
            let a_end = if a.end == RunEnd::Crashed {
                a.to
            } else {
                a.to.max(a.from)
            };
            n += self.runs[i + 1..]
                .iter()
                .filter(|b| b.job == a.job && b.from < a_end)
                .count();
        }
        n
    }

    /// The time axis' range (s): from the first claim to the run's end, the end of the last
    /// run, or the end of a crashed run's lease (when its job can be claimed again), so a
    /// run whose jobs wait (the documents' clock starts at 1 000 s) is not a sliver. The
    /// lease of a run that ended otherwise is drawn up to the axis' end: a 0.4 s run under
    /// a 30 s lease is not drawn on a 30 s axis (its lease's end is in the window's tip).
    pub fn axis_s(&self) -> (f64, f64) {
        let lo = self.runs.first().map_or(0.0, |r| r.from.as_secs_f64());
        let hi = self
            .runs
            .iter()
            .map(|r| match r.end {
                RunEnd::Crashed => r.to.max(r.lease_until),
                _ => r.to,
            })
            .map(SimTime::as_secs_f64)
            .fold(self.end.as_secs_f64(), f64::max)
            // Some span when every run is instantaneous; runs of 0.4 s get a 0.4 s axis.
            .max(lo + 0.01);
        // A little room on the left, so marks at the first claim clear the axis.
        ((lo - (hi - lo) * 0.03).max(0.0), hi)
    }

    /// The legend's entries `(text, class key, mark shape)`: one swatch per way the runs on
    /// the lanes ended (their bars' colours), the lease, the row states and the marks drawn.
    fn legend(&self, tr: &dyn Fn(&str) -> String) -> Vec<(String, &'static str, Option<Shape>)> {
        let mut legend: Vec<(String, &'static str, Option<Shape>)> = Vec::new();
        for end in [
            RunEnd::Done,
            RunEnd::Retry,
            RunEnd::Refused,
            RunEnd::Dead,
            RunEnd::Crashed,
            RunEnd::Open,
        ] {
            let key = run_key(end);
            let shown = legend.iter().any(|x| x.1 == key);
            if !shown && self.runs.iter().any(|r| run_key(r.end) == key) {
                legend.push((tr(&format!("legend.{key}")), key, None));
            }
        }
        legend.push((tr("legend.lease"), "lease", None));
        for s in RowStatus::ALL {
            if self.rows.iter().any(|r| r.1.iter().any(|c| c.1 == s)) {
                legend.push((tr(&format!("row.{}", s.key())), s.key(), None));
            }
        }
        for m in Mark::ALL {
            if self.marks.iter().any(|x| x.2 == m) {
                legend.push((
                    tr(&format!("mark.{}", m.id())),
                    m.look().0,
                    Some(m.look().1),
                ));
            }
        }
        legend
    }

    /// The timeline as SVG in `lang` (`class="plot plot-lanes"`; see [`plot::lanes`] for how
    /// the page moves its "now" cursor), with its title and a description in words.
    pub fn svg(&self, lang: Lang) -> String {
        let l = lang.code();
        let tr = |k: &str| t!(format!("timeline.{k}"), locale = l).into_owned();
        let secs = |t: SimTime| plot::format_value(t.as_secs_f64());
        let lanes: Vec<Lane> = self
            .workers
            .iter()
            .enumerate()
            .map(|(w, name)| {
                let mine = || self.runs.iter().filter(move |r| usize::from(r.worker) == w);
                let tip = |r: &Run| {
                    t!(
                        "timeline.tip.run",
                        locale = l,
                        worker = name,
                        job = r.job,
                        attempt = r.attempt,
                        from = secs(r.from),
                        to = secs(r.to),
                        end = tr(&format!("end.{}", end_id(r.end)))
                    )
                    .into_owned()
                };
                Lane {
                    name: name.clone(),
                    windows: mine()
                        .map(|r| Span {
                            from: r.from.as_secs_f64(),
                            to: r.lease_until.as_secs_f64(),
                            key: "lease",
                            tip: t!(
                                "timeline.tip.lease",
                                locale = l,
                                job = r.job,
                                until = secs(r.lease_until)
                            )
                            .into_owned(),
                        })
                        .collect(),
                    bars: mine()
                        .map(|r| Span {
                            from: r.from.as_secs_f64(),
                            to: r.to.as_secs_f64(),
                            key: run_key(r.end),
                            tip: tip(r),
                        })
                        .collect(),
                    marks: self
                        .marks
                        .iter()
                        .filter(|m| usize::from(m.0) == w)
                        .map(|&(_, at, m, job)| plot::Mark {
                            at: at.as_secs_f64(),
                            key: m.look().0,
                            shape: m.look().1,
                            tip: format!(
                                "{} s — job#{job}: {}",
                                secs(at),
                                tr(&format!("mark.{}", m.id()))
                            ),
                        })
                        .collect(),
                }
            })
            .collect();
        let strips = self.strips(l);
        let legend = self.legend(&tr);
        let (title, desc) = (tr("title"), self.describe(lang));
        let x_label = tr("axis");
        let unit = t!("charts.unit.s", locale = l).into_owned();
        plot::lanes(&LaneChart {
            frame: Frame {
                title: &title,
                desc: &desc,
                x: Axis {
                    label: &x_label,
                    unit: &unit,
                },
                y: Axis {
                    label: "",
                    unit: "",
                },
                empty: "",
                compact: false,
                limits: Limits::NONE,
            },
            lanes: &lanes,
            strips: &strips,
            range: self.axis_s(),
            legend: &legend,
        })
    }

    /// The rows' status strips: `job#N` with a bar per status stretch.
    fn strips(&self, l: &str) -> Vec<Lane> {
        let end = self.axis_s().1;
        self.rows
            .iter()
            .map(|(job, changes)| Lane {
                name: format!("job#{job}"),
                bars: changes
                    .iter()
                    .enumerate()
                    .map(|(i, &(at, s))| {
                        let to = changes.get(i + 1).map_or(end, |c| c.0.as_secs_f64());
                        Span {
                            from: at.as_secs_f64(),
                            to,
                            key: s.key(),
                            tip: format!(
                                "job#{job}: {} ({} s)",
                                t!(format!("timeline.row.{}", s.key()), locale = l),
                                plot::format_value(at.as_secs_f64())
                            ),
                        }
                    })
                    .collect(),
                ..Lane::default()
            })
            .collect()
    }

    /// The description in words: lanes, runs, what happened in each (the first few), the
    /// overlaps.
    pub fn describe(&self, lang: Lang) -> String {
        let l = lang.code();
        let secs = |t: SimTime| plot::format_value(t.as_secs_f64());
        let jobs = {
            let mut j: Vec<u32> = self.runs.iter().map(|r| r.job).collect();
            j.sort_unstable();
            j.dedup();
            j.len()
        };
        let mut out = t!(
            "timeline.desc.lanes",
            locale = l,
            workers = self.workers.join(", "),
            n = self.workers.len(),
            runs = self.runs.len(),
            jobs = jobs,
            lease = plot::format_value(self.lease.as_ms_f64() / 1_000.0)
        )
        .into_owned();
        for r in self.runs.iter().take(12) {
            let marks: Vec<String> = self
                .marks
                .iter()
                .filter(|m| m.0 == r.worker && m.3 == r.job && m.1 >= r.from)
                .filter(|m| m.1 <= r.to || m.2 == Mark::LeaseExpired && m.1 == r.lease_until)
                .map(|&(_, at, m, _)| {
                    format!(
                        "{} ({} s)",
                        t!(format!("timeline.mark.{}", m.id()), locale = l),
                        secs(at)
                    )
                })
                .collect();
            out.push(' ');
            out.push_str(&t!(
                "timeline.desc.run",
                locale = l,
                worker = self
                    .workers
                    .get(usize::from(r.worker))
                    .map_or("?", String::as_str),
                job = r.job,
                attempt = r.attempt,
                from = secs(r.from),
                to = secs(r.to),
                end = t!(format!("timeline.end.{}", end_id(r.end)), locale = l)
            ));
            if !marks.is_empty() {
                out.push_str(&t!(
                    "timeline.desc.marks",
                    locale = l,
                    marks = marks.join(t!("timeline.desc.sep", locale = l).as_ref())
                ));
            } else {
                out.push_str(&t!("timeline.desc.end", locale = l));
            }
        }
        if self.runs.len() > 12 {
            out.push(' ');
            out.push_str(&t!(
                "timeline.desc.more",
                locale = l,
                n = self.runs.len() - 12
            ));
        }
        out.push(' ');
        let overlaps = self.overlaps();
        out.push_str(&if overlaps == 0 {
            t!("timeline.desc.no-overlap", locale = l)
        } else {
            t!("timeline.desc.overlap", locale = l, n = overlaps)
        });
        out
    }
}

fn run_key(end: RunEnd) -> &'static str {
    match end {
        RunEnd::Done => "run-done",
        RunEnd::Retry => "run-retry",
        RunEnd::Dead => "run-dead",
        RunEnd::Crashed => "run-crashed",
        RunEnd::Refused => "run-retry",
        RunEnd::Open => "run-open",
    }
}

fn end_id(end: RunEnd) -> &'static str {
    match end {
        RunEnd::Done => "done",
        RunEnd::Retry => "retry",
        RunEnd::Dead => "dead",
        RunEnd::Crashed => "crashed",
        RunEnd::Refused => "refused",
        RunEnd::Open => "open",
    }
}
