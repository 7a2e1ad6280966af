//! The source documents' job queue on real SQLite, driven by an event loop of its own: the
//! reference side of the differential test (`sim_sqlite_diff.rs`).
//!
//! The SQL is source document `000`'s `miniqueue.py` (schema, `enqueue`, `claim`, `complete`,
//! `release`; restated in `docs/DOMAIN.md` §2), adapted only where Python computed a value:
//! `now + timeout_sec` and `now + wait_sec` are computed here and bound, and every time is an
//! integer number of microseconds (the engine's `SimTime`), so equality is exact. The `REAL`
//! columns hold those integers exactly (below 2⁵³).
//!
//! The loop knows nothing of the engine's code; it follows the engine's documented order of
//! events (`src/domain/sim.rs`, `engine.rs`): events by `(time, sequence number)`, ties first in
//! first out, one sequence counter for every event filed (arrivals included); a worker that
//! ends a run claims again at once; after every event the idle workers that are woken on work
//! claim, longest idle first, while a row is claimable; a woken worker left idle gets a wake-up
//! at the earliest instant a row becomes claimable (unless one is due by then); a polling
//! worker polls again after its interval; the run stops before the first event that finds
//! nothing queued, nothing running and no arrival left.
//!
//! The handler fails on the job's first `k` runs, counting a run when it starts, as the
//! documents' handler increments its call counter on its first line ([`Rules::DOCUMENTS`]).
//! The two rules the engine on main still has (issue 15) can be switched on to explain a
//! difference: an expired lease on the last attempt dead-lettered instead of claimed again
//! ([`Expired::DeadLetter`]), and a run counted when it ends ([`Counted::AtEnd`]).

use rusqlite::{params, Connection, OptionalExtension};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::fmt;

/// Source document `000`'s schema, unchanged.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS jobs (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    name          TEXT    NOT NULL,              -- ジョブ名（どの処理を呼ぶか）
    payload       TEXT    NOT NULL,              -- 引数（JSON）
    status        TEXT    NOT NULL DEFAULT 'queued',  -- queued / running / done / dead
    attempts      INTEGER NOT NULL DEFAULT 0,    -- 取り出した回数
    max_attempts  INTEGER NOT NULL DEFAULT 3,    -- 最大試行回数
    run_after     REAL    NOT NULL DEFAULT 0,    -- この時刻以降に取り出してよい
    locked_until  REAL,                          -- この時刻まで他のワーカーは触らない
    last_error    TEXT
);
";

/// `enqueue`.
const ENQUEUE: &str = "INSERT INTO jobs (name, payload, max_attempts) VALUES (?, ?, ?)";

/// `claim`, under `BEGIN IMMEDIATE`; bound with `(now + timeout, now, now)`.
const CLAIM: &str = "
        UPDATE jobs
           SET status = 'running', attempts = attempts + 1, locked_until = ?
         WHERE id = (
               SELECT id FROM jobs
                WHERE (status = 'queued'  AND run_after    <= ?)
                   OR (status = 'running' AND locked_until <= ?)  -- 時間切れの回収
                ORDER BY id LIMIT 1)
        RETURNING id, name, payload, attempts, max_attempts
        ";

/// `complete`.
const COMPLETE: &str = "UPDATE jobs SET status = 'done', locked_until = NULL WHERE id = ?";

/// `release` when the claimed row's `attempts >= max_attempts`.
const RELEASE_DEAD: &str =
    "UPDATE jobs SET status = 'dead', locked_until = NULL, last_error = ? WHERE id = ?";

/// `release` otherwise; bound with `(now + wait, error, id)`.
const RELEASE_QUEUED: &str = "UPDATE jobs SET status = 'queued', locked_until = NULL, run_after = ?, last_error = ? WHERE id = ?";

/// The claim's `WHERE`, counted: is any row claimable now? (The loop's question, not the
/// documents'.)
const CLAIMABLE: &str = "SELECT count(*) FROM jobs
     WHERE (status = 'queued' AND run_after <= ?1) OR (status = 'running' AND locked_until <= ?1)";

/// The earliest instant a row becomes claimable (the woken workers' wake-up).
const NEXT_CLAIMABLE: &str = "SELECT min(t) FROM (
     SELECT run_after AS t FROM jobs WHERE status = 'queued'
     UNION ALL SELECT locked_until FROM jobs WHERE status = 'running') WHERE t > ?1";

/// [`Expired::DeadLetter`] only: the engine's dead-letter of an expired last attempt.
const EXPIRE: &str = "UPDATE jobs SET status = 'dead', locked_until = NULL, last_error = ?1
     WHERE status = 'running' AND attempts >= max_attempts AND locked_until <= ?2";

/// The `last_error` the engine on main gives a row it dead-letters on lease expiry.
const EXPIRY_ERROR: &str = "lease expired on the last attempt (worker lost)";

/// The handler's name and error (the documents' mail server that does not answer).
pub const NAME: &str = "send_mail";
/// The error a failing run raises (`repr(e)` in the documents' `work_once`).
pub const ERROR: &str = "TimeoutError('mail server did not respond')";

/// One worker of a scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerPlan {
    /// When it first polls, ms.
    pub start_ms: u64,
    /// Idle poll interval, ms; `None`: woken when a row becomes claimable.
    pub poll_ms: Option<u64>,
}

/// A deterministic scenario: one handler with a fixed duration that fails on each job's first
/// `fail_first` runs, a fixed retry wait, jobs at fixed instants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scenario {
    /// Its number in the generated list.
    pub number: u64,
    /// The workers (1–4).
    pub workers: Vec<WorkerPlan>,
    /// When each job is enqueued, ms, ascending (job `i + 1` at `arrivals_ms[i]`).
    pub arrivals_ms: Vec<u64>,
    /// Every run's duration, ms.
    pub run_ms: u64,
    /// The claim's lease (`timeout_sec`), ms.
    pub lease_ms: u64,
    /// The release's wait (`wait_sec`), ms.
    pub wait_ms: u64,
    /// Runs of each job that fail.
    pub fail_first: u32,
    /// Every job's `max_attempts`.
    pub max_attempts: u32,
}

/// What happens to a row still `running` on its last attempt when its lease expires.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expired {
    /// The documents' claim has no attempts check: it is claimed again.
    ClaimedAgain,
    /// The engine on main: `dead` when the table next looks at it.
    DeadLetter,
}

/// When the `first-runs` model counts a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counted {
    /// At its start (the documents' handler increments its counter first).
    AtStart,
    /// At its end (the engine on main: runs started by then).
    AtEnd,
}

/// The two rules issue 15 changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    /// Rule (a).
    pub expired: Expired,
    /// Rule (b).
    pub counted: Counted,
}

impl Rules {
    /// The source documents' rules.
    pub const DOCUMENTS: Rules = Rules {
        expired: Expired::ClaimedAgain,
        counted: Counted::AtStart,
    };

    /// All four combinations, the documents' first.
    pub const ALL: [Rules; 4] = [
        Rules::DOCUMENTS,
        Rules {
            expired: Expired::DeadLetter,
            counted: Counted::AtStart,
        },
        Rules {
            expired: Expired::ClaimedAgain,
            counted: Counted::AtEnd,
        },
        Rules {
            expired: Expired::DeadLetter,
            counted: Counted::AtEnd,
        },
    ];
}

/// What an operation did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// `claim` returned the row.
    Claimed,
    /// `complete`.
    Done,
    /// `release` → `queued` with this `run_after` (µs).
    Queued(u64),
    /// `release` → `dead`.
    Dead,
}

/// One claim, complete or release: when (µs), by which worker (index), on which job, with
/// the attempt number the worker claimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Op {
    /// Virtual time, µs.
    pub time: u64,
    /// Worker index.
    pub worker: usize,
    /// Job id.
    pub job: u64,
    /// The claimed `attempts`.
    pub attempt: u32,
    /// What it did.
    pub outcome: Outcome,
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.outcome {
            Outcome::Claimed => "claimed".to_owned(),
            Outcome::Done => "done".to_owned(),
            Outcome::Queued(t) => format!("error -> queued until {}", ms(t)),
            Outcome::Dead => "error -> dead".to_owned(),
        };
        // Workers named as the engine names them by default: A, B, …
        let worker = char::from(b'A' + (self.worker % 26) as u8);
        write!(
            f,
            "{} worker {worker} job#{} attempt {}: {what}",
            ms(self.time),
            self.job,
            self.attempt
        )
    }
}

/// `µs` as `12.345ms`.
pub fn ms(us: u64) -> String {
    format!("{}.{:03}ms", us / 1_000, us % 1_000)
}

/// One row of the final table, times in µs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowOut {
    /// `id`.
    pub id: u64,
    /// `name`.
    pub name: String,
    /// `status`.
    pub status: String,
    /// `attempts`.
    pub attempts: u32,
    /// `max_attempts`.
    pub max_attempts: u32,
    /// `run_after`, µs.
    pub run_after: u64,
    /// `locked_until`, µs (`NULL`: `None`).
    pub locked_until: Option<u64>,
    /// `last_error`.
    pub last_error: Option<String>,
}

/// What a run produced: its operations in order and its final table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    /// Claims, completes and releases in order.
    pub ops: Vec<Op>,
    /// The table at the end, by id.
    pub table: Vec<RowOut>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Ev {
    Arrival,
    Poll(usize),
    WorkDone(usize),
    Wake,
}

#[derive(Debug, Clone, Copy)]
struct Run {
    id: i64,
    attempts: i64,
    max_attempts: i64,
    /// The handler's call counter after this run's increment.
    calls_at_start: u32,
}

#[derive(Debug, Clone, Copy)]
enum Busy {
    Idle,
    Running(Run),
}

/// Events processed at most (the scenarios need a few hundred).
const MAX_STEPS: u64 = 1_000_000;

struct Driver<'a> {
    sc: &'a Scenario,
    rules: Rules,
    conn: Connection,
    now: u64,
    seq: u64,
    events: BinaryHeap<Reverse<(u64, u64, Ev)>>,
    workers: Vec<Busy>,
    idle: VecDeque<usize>,
    wake_at: Option<u64>,
    arrived: usize,
    /// Per job (index id − 1): the handler's call counter.
    calls: Vec<u32>,
    ops: Vec<Op>,
}

/// Runs `sc` on SQLite under `rules`.
///
/// # Panics
/// On an SQLite error, or past [`MAX_STEPS`] events (a test failure either way).
pub fn run(sc: &Scenario, rules: Rules) -> Trace {
    let conn = Connection::open_in_memory().expect("in-memory SQLite");
    conn.execute_batch(SCHEMA).expect("schema");
    let mut d = Driver {
        sc,
        rules,
        conn,
        now: 0,
        seq: 0,
        events: BinaryHeap::new(),
        workers: vec![Busy::Idle; sc.workers.len()],
        idle: VecDeque::new(),
        wake_at: None,
        arrived: 0,
        calls: vec![0; sc.arrivals_ms.len()],
        ops: Vec::new(),
    };
    d.go();
    let table = d.table();
    Trace { ops: d.ops, table }
}

impl Driver<'_> {
    fn schedule(&mut self, at: u64, ev: Ev) {
        self.events.push(Reverse((at, self.seq, ev)));
        self.seq += 1;
    }

    fn go(&mut self) {
        if let Some(&t) = self.sc.arrivals_ms.first() {
            self.schedule(t * 1_000, Ev::Arrival);
        }
        for (w, plan) in self.sc.workers.iter().enumerate() {
            self.schedule(plan.start_ms * 1_000, Ev::Poll(w));
        }
        let mut steps = 0u64;
        while !self.drained() {
            let Some(Reverse((t, _, ev))) = self.events.pop() else {
                break;
            };
            steps += 1;
            assert!(steps <= MAX_STEPS, "scenario {:?} does not end", self.sc);
            self.now = t;
            match ev {
                Ev::Arrival => self.arrive(),
                Ev::Poll(w) => self.poll(w),
                Ev::WorkDone(w) => self.work_done(w),
                Ev::Wake => self.wake_at = None,
            }
            self.wake_idle();
        }
    }

    fn count(&self, sql: &str, now: u64) -> i64 {
        self.conn
            .query_row(sql, [now as i64], |r| r.get(0))
            .expect("count")
    }

    fn drained(&self) -> bool {
        let busy = self
            .conn
            .query_row(
                "SELECT count(*) FROM jobs WHERE status IN ('queued', 'running')",
                [],
                |r| r.get::<_, i64>(0),
            )
            .expect("count");
        self.arrived == self.sc.arrivals_ms.len()
            && busy == 0
            && self.workers.iter().all(|w| matches!(w, Busy::Idle))
    }

    /// Where the engine on main brings its table up to `now`: its dead-letter of expired last
    /// attempts ([`Expired::DeadLetter`]).
    fn refresh(&mut self) {
        if self.rules.expired == Expired::DeadLetter {
            self.conn
                .execute(EXPIRE, params![EXPIRY_ERROR, self.now as i64])
                .expect("expire");
        }
    }

    fn arrive(&mut self) {
        self.refresh();
        let n = self.arrived + 1;
        self.conn
            .execute(
                ENQUEUE,
                params![NAME, format!("{{\"n\": {n}}}"), self.sc.max_attempts],
            )
            .expect("enqueue");
        self.arrived = n;
        if let Some(&t) = self.sc.arrivals_ms.get(n) {
            self.schedule((t * 1_000).max(self.now), Ev::Arrival);
        }
    }

    /// `claim(conn, timeout_sec, now)`.
    fn claim(&mut self) -> Option<(i64, i64, i64)> {
        let now = self.now as i64;
        let until = now + (self.sc.lease_ms * 1_000) as i64;
        self.conn.execute_batch("BEGIN IMMEDIATE").expect("begin");
        let row = self
            .conn
            .query_row(CLAIM, params![until, now, now], |r| {
                Ok((r.get(0)?, r.get(3)?, r.get(4)?))
            })
            .optional()
            .expect("claim");
        self.conn.execute_batch("COMMIT").expect("commit");
        row
    }

    fn poll(&mut self, w: usize) {
        self.workers[w] = Busy::Idle;
        self.refresh();
        match self.claim() {
            Some((id, attempts, max_attempts)) => {
                let i = (id - 1) as usize;
                self.calls[i] += 1;
                self.ops.push(Op {
                    time: self.now,
                    worker: w,
                    job: id as u64,
                    attempt: attempts as u32,
                    outcome: Outcome::Claimed,
                });
                self.workers[w] = Busy::Running(Run {
                    id,
                    attempts,
                    max_attempts,
                    calls_at_start: self.calls[i],
                });
                self.schedule(self.now + self.sc.run_ms * 1_000, Ev::WorkDone(w));
            }
            None => match self.sc.workers[w].poll_ms {
                Some(p) => self.schedule(self.now + p * 1_000, Ev::Poll(w)),
                None => self.idle.push_back(w),
            },
        }
    }

    /// The handler's end: `complete`, or `release` with the claimed row's numbers; then the
    /// worker's next claim.
    fn work_done(&mut self, w: usize) {
        let Busy::Running(run) = self.workers[w] else {
            return;
        };
        let calls = match self.rules.counted {
            Counted::AtStart => run.calls_at_start,
            Counted::AtEnd => self.calls[(run.id - 1) as usize],
        };
        let outcome = if calls <= self.sc.fail_first {
            if run.attempts >= run.max_attempts {
                self.conn
                    .execute(RELEASE_DEAD, params![ERROR, run.id])
                    .expect("release");
                Outcome::Dead
            } else {
                let run_after = self.now + self.sc.wait_ms * 1_000;
                self.conn
                    .execute(RELEASE_QUEUED, params![run_after as i64, ERROR, run.id])
                    .expect("release");
                Outcome::Queued(run_after)
            }
        } else {
            self.conn
                .execute(COMPLETE, params![run.id])
                .expect("complete");
            Outcome::Done
        };
        self.ops.push(Op {
            time: self.now,
            worker: w,
            job: run.id as u64,
            attempt: run.attempts as u32,
            outcome,
        });
        self.poll(w);
    }

    /// Idle woken workers claim, longest idle first, while a row is claimable; then a wake-up
    /// for those left at the earliest instant a row becomes claimable.
    fn wake_idle(&mut self) {
        while !self.idle.is_empty() {
            self.refresh();
            if self.count(CLAIMABLE, self.now) == 0 {
                break;
            }
            let Some(w) = self.idle.pop_front() else {
                break;
            };
            self.poll(w);
        }
        if self.idle.is_empty() {
            return;
        }
        let next: Option<f64> = self
            .conn
            .query_row(NEXT_CLAIMABLE, [self.now as i64], |r| r.get(0))
            .expect("next claimable");
        if let Some(t) = next.map(exact) {
            let now = self.now;
            if t > now && self.wake_at.is_none_or(|x| t < x || x <= now) {
                self.wake_at = Some(t);
                self.schedule(t, Ev::Wake);
            }
        }
    }

    fn table(&self) -> Vec<RowOut> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT id, name, status, attempts, max_attempts, run_after, locked_until,
                        last_error FROM jobs ORDER BY id",
            )
            .expect("select");
        stmt.query_map([], |r| {
            Ok(RowOut {
                id: r.get::<_, i64>(0)? as u64,
                name: r.get(1)?,
                status: r.get(2)?,
                attempts: r.get::<_, i64>(3)? as u32,
                max_attempts: r.get::<_, i64>(4)? as u32,
                run_after: exact(r.get(5)?),
                locked_until: r.get::<_, Option<f64>>(6)?.map(exact),
                last_error: r.get(7)?,
            })
        })
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("rows")
    }
}

/// A `REAL` column's value back as the integer µs it was written as.
fn exact(v: f64) -> u64 {
    assert!(
        v >= 0.0 && v.fract() == 0.0 && v < 9.0e15,
        "time {v} is not whole µs"
    );
    v as u64
}
