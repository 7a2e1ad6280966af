//! The SQL text of the table-queue export (see [`super`]): one function per statement, both
//! dialects side by side. User text reaches the SQL only through [`text::sql_sq`] (string
//! literals) and [`text::comment`] (comments).

use super::super::{header, text, versions};
use super::Dialect;
use crate::domain::lang::Lang;
use crate::domain::sheet::{
    BackoffKind, Jitter, JobSheet, Keep, LastErrorOnDone, Retention, RetrySpec,
};
use crate::text::t;
use std::fmt::Write as _;

/// A time in ms as seconds for SQL: `60000` → `60.0`, `200` → `0.2`.
pub(super) fn secs(ms: u64) -> String {
    let whole = ms / 1000;
    let frac = ms % 1000;
    if frac == 0 {
        format!("{whole}.0")
    } else {
        let f = format!("{frac:03}");
        format!("{whole}.{}", f.trim_end_matches('0'))
    }
}

/// A string literal on one line: [`text::sql_sq`] for the text between control characters,
/// each control character as `char(n)` (SQLite) / `chr(n)` (PostgreSQL) joined with `||`, so a
/// line break in user text can neither split a statement's lines nor be changed by a reader
/// that normalises line ends.
pub(super) fn lit(d: Dialect, s: &str) -> String {
    let f = match d {
        Dialect::Sqlite => "char",
        Dialect::Postgres => "chr",
    };
    let mut parts: Vec<String> = Vec::new();
    let mut run = String::new();
    for c in s.chars() {
        if c.is_control() {
            if !run.is_empty() {
                parts.push(text::sql_sq(&std::mem::take(&mut run)));
            }
            // NUL is refused by PostgreSQL's text and ends SQLite's: a space instead.
            let n = if c == '\0' { 32 } else { c as u32 };
            parts.push(format!("{f}({n})"));
        } else {
            run.push(c);
        }
    }
    if !run.is_empty() || parts.is_empty() {
        parts.push(text::sql_sq(&run));
    }
    parts.join(" || ")
}

/// The placeholders of one statement, in order: SQLite `:name`, PostgreSQL `$n::type`.
struct Params {
    dialect: Dialect,
    names: &'static [(&'static str, &'static str)],
}

impl Params {
    /// The placeholder of `name`.
    fn p(&self, name: &str) -> String {
        let i = self.names.iter().position(|(n, _)| *n == name).unwrap_or(0);
        match self.dialect {
            Dialect::Sqlite => format!(":{name}"),
            Dialect::Postgres => format!("${}::{}", i + 1, self.names[i].1),
        }
    }

    /// The comment lines that list the parameters.
    fn doc(&self, out: &mut String) {
        for (i, (name, ty)) in self.names.iter().enumerate() {
            let what = match *name {
                "now" => match self.dialect {
                    Dialect::Sqlite => "the current time, seconds since the Unix epoch (REAL)",
                    Dialect::Postgres => "the current time (now() or the program's clock)",
                },
                "id" => "the job's id (from claim)",
                "attempt" => "the attempts value claim returned: the owner check",
                "error" => "the error text, kept in last_error",
                "payload" => "the job's arguments as JSON",
                "key" => "the idempotency key (NULL: none)",
                _ => "",
            };
            let _ = match self.dialect {
                Dialect::Sqlite => writeln!(out, "-- :{name} {what}"),
                Dialect::Postgres => writeln!(out, "-- ${} {name} ({ty}): {what}", i + 1),
            };
        }
    }
}

const NOW: (&str, &str) = ("now", "timestamptz");
const ID: (&str, &str) = ("id", "bigint");
const ATTEMPT: (&str, &str) = ("attempt", "integer");
const ERROR: (&str, &str) = ("error", "text");

/// `now + s seconds` in the dialect (`s` an SQL expression in seconds).
fn plus(d: Dialect, now: &str, s: &str) -> String {
    match d {
        Dialect::Sqlite => format!("{now} + {s}"),
        Dialect::Postgres => format!("{now} + make_interval(secs => ({s})::float8)"),
    }
}

fn least(d: Dialect) -> &'static str {
    match d {
        Dialect::Sqlite => "min",
        Dialect::Postgres => "least",
    }
}

/// A uniform number in `[0, 1)`.
fn uniform(d: Dialect) -> &'static str {
    match d {
        // random() is a signed 64-bit integer: / 2⁶⁴ + 0.5 maps it onto [0, 1].
        Dialect::Sqlite => "(random() / 18446744073709551616.0 + 0.5)",
        Dialect::Postgres => "random()",
    }
}

/// The smallest `n` with `base·2ⁿ ≥ cap` (at most 62): the exponent beyond which the cap
/// holds, so the shift cannot overflow.
fn doublings(base_ms: u64, cap_ms: u64) -> u32 {
    let mut n = 0;
    while n < 62 && base_ms.saturating_mul(1u64 << n) < cap_ms {
        n += 1;
    }
    n
}

/// The wait before the next attempt, in seconds, as an SQL expression of the row's `attempts`
/// (n = attempts − 1 is 0 at the first retry) and, for decorrelated jitter, `last_wait_s`.
pub(super) fn wait_expr(r: &RetrySpec, d: Dialect) -> String {
    let b = &r.backoff;
    let base = secs(b.base_ms);
    let cap = secs(b.cap_ms.max(b.base_ms));
    let min = least(d);
    let grown = match b.kind {
        BackoffKind::Fixed => base.clone(),
        BackoffKind::Exponential => {
            let k = doublings(b.base_ms, b.cap_ms);
            match d {
                Dialect::Sqlite => {
                    format!("{min}({cap}, {base} * (1 << {min}(attempts - 1, {k})))")
                }
                Dialect::Postgres => {
                    format!("{min}({cap}, {base} * (1::bigint << {min}(attempts - 1, {k})))")
                }
            }
        }
        BackoffKind::Polynomial(p) => {
            let n = format!("(attempts - 1 + {})", p.first_n);
            let pow = match d {
                Dialect::Sqlite => vec![n; p.exponent.max(1) as usize].join(" * "),
                Dialect::Postgres => format!("power({n}::float8, {})", p.exponent),
            };
            format!("{min}({cap}, {base} + {pow})")
        }
    };
    let u = uniform(d);
    match b.jitter {
        Jitter::None => grown,
        Jitter::Full => format!("{grown} * {u}"),
        Jitter::Equal => format!("{grown} / 2.0 + {grown} / 2.0 * {u}"),
        Jitter::Decorrelated => {
            format!("{min}({cap}, {base} + {u} * (3.0 * coalesce(last_wait_s, {base}) - {base}))")
        }
    }
}

/// Days of retention for done and dead rows, `None` when neither is kept for a number of days
/// (then there is nothing to purge).
pub(super) fn purge_days(r: Retention) -> Option<(Option<u32>, Option<u32>)> {
    let days = |k: Keep| match k {
        Keep::Days(d) => Some(d),
        Keep::UntilHandled => None,
    };
    let (done, dead) = (days(r.done), days(r.dead));
    (done.is_some() || dead.is_some()).then_some((done, dead))
}

fn has_key(r: &RetrySpec) -> bool {
    !r.idempotency_key.trim().is_empty()
}

/// The header comment's lines (written by [`header::write`]): the job, the table and dialect,
/// the attempts and the wait, the key, the errors, the dead letter, who is told and how to
/// rerun, the load, how the statements are named.
fn header_lines(sheet: &JobSheet, r: &RetrySpec, d: Dialect, lang: Lang) -> Vec<String> {
    let p = &sheet.process;
    let what = match d {
        Dialect::Sqlite => "SQLite 3.35+ (UPDATE … RETURNING)",
        Dialect::Postgres => "PostgreSQL (FOR UPDATE SKIP LOCKED)",
    };
    let mut lines = Vec::new();
    let mut c = |s: String| lines.push(s);
    // The labels follow the export's language; the values are the sheet's as typed.
    let l = lang.code();
    let sep = if lang == Lang::Ja { "、" } else { ", " };
    c(t!(
        "target.sql.header.job",
        locale = l,
        name = crate::domain::queues::text::named(&p.process_name, &p.code_name, lang == Lang::Ja)
    )
    .into_owned());
    c(t!("target.sql.header.table", locale = l, what = what).into_owned());
    c(t!(
        "target.sql.header.attempts",
        locale = l,
        attempts = r.max_attempts,
        lease = secs(r.lease_ms),
        timeout = secs(r.attempt_timeout_ms)
    )
    .into_owned());
    c(t!("target.sql.header.wait", locale = l, expr = wait_expr(r, d)).into_owned());
    if has_key(r) {
        c(t!(
            "target.kit.header.key",
            locale = l,
            key = &r.idempotency_key
        )
        .into_owned());
    }
    c(t!(
        "target.sql.header.retryable",
        locale = l,
        list = r.retryable_errors.join(sep)
    )
    .into_owned());
    c(t!(
        "target.sql.header.permanent",
        locale = l,
        list = r.non_retryable_errors.join(sep)
    )
    .into_owned());
    if let Some(f) = &sheet.failure {
        c(t!("target.sql.header.dead", locale = l, dead = &f.dead_letter).into_owned());
        if !f.notify.trim().is_empty() {
            c(t!("target.sql.header.notify", locale = l, notify = &f.notify).into_owned());
        }
        c(t!("target.sql.header.rerun", locale = l, rerun = &f.rerun).into_owned());
    }
    if let Some(line) = super::super::knobs::comment_line(sheet, lang) {
        c(line);
    }
    c(t!("target.sql.header.names", locale = l).into_owned());
    lines
}

fn schema(r: &RetrySpec, d: Dialect, out: &mut String) {
    let decorrelated = r.backoff.jitter == Jitter::Decorrelated;
    out.push_str("-- name: schema\n");
    let (id, payload, time, real, run_after_default) = match d {
        Dialect::Sqlite => (
            "INTEGER PRIMARY KEY AUTOINCREMENT",
            "TEXT",
            "REAL",
            "REAL",
            "0",
        ),
        Dialect::Postgres => (
            "bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
            "jsonb",
            "timestamptz",
            "double precision",
            "'-infinity'",
        ),
    };
    let _ = writeln!(out, "CREATE TABLE IF NOT EXISTS jobs (");
    let _ = writeln!(out, "    id            {id},");
    let _ = writeln!(
        out,
        "    name          text NOT NULL,               -- which handler"
    );
    let _ = writeln!(
        out,
        "    payload       {payload} NOT NULL,               -- arguments (JSON)"
    );
    let _ = writeln!(
        out,
        "    status        text NOT NULL DEFAULT 'queued'\n                  CHECK (status IN ('queued', 'running', 'done', 'dead')),"
    );
    let _ = writeln!(
        out,
        "    attempts      integer NOT NULL DEFAULT 0,   -- times claimed"
    );
    let _ = writeln!(
        out,
        "    max_attempts  integer NOT NULL DEFAULT {},   -- including the first",
        r.max_attempts
    );
    let _ = writeln!(
        out,
        "    run_after     {time} NOT NULL DEFAULT {run_after_default},  -- not claimable before"
    );
    let _ = writeln!(
        out,
        "    locked_until  {time},                  -- lease end"
    );
    let _ = writeln!(out, "    last_error    text,");
    if has_key(r) {
        let _ = writeln!(
            out,
            "    idempotency_key text UNIQUE,           -- one job per real-world event"
        );
    }
    if decorrelated {
        let _ = writeln!(
            out,
            "    last_wait_s   {real},      -- the previous wait (decorrelated jitter)"
        );
    }
    let _ = writeln!(
        out,
        "    finished_at   {time}                   -- when done or dead"
    );
    out.push_str(");\n");
    if has_key(r) {
        out.push_str(
            "-- Record the key in the SAME transaction as the job's business write (record_key).\n",
        );
        out.push_str(
            "CREATE TABLE IF NOT EXISTS processed_keys (idempotency_key text PRIMARY KEY);\n",
        );
    }
}

fn enqueue(sheet: &JobSheet, r: &RetrySpec, d: Dialect, out: &mut String) {
    let names: &'static [(&str, &str)] = if has_key(r) {
        &[NOW, ("payload", "jsonb"), ("key", "text")]
    } else {
        &[NOW, ("payload", "jsonb")]
    };
    let ps = Params { dialect: d, names };
    out.push_str("-- name: enqueue\n");
    ps.doc(out);
    let name = lit(d, &sheet.process.code_name);
    let (now, payload) = (ps.p("now"), ps.p("payload"));
    if has_key(r) {
        out.push_str("-- No row returned: a job with this key exists already.\n");
        let _ = writeln!(
            out,
            "INSERT INTO jobs (name, payload, max_attempts, run_after, idempotency_key)\nVALUES ({name}, {payload}, {}, {now}, {})\nON CONFLICT (idempotency_key) DO NOTHING\nRETURNING id;",
            r.max_attempts,
            ps.p("key")
        );
    } else {
        let _ = writeln!(
            out,
            "INSERT INTO jobs (name, payload, max_attempts, run_after)\nVALUES ({name}, {payload}, {}, {now})\nRETURNING id;",
            r.max_attempts
        );
    }
}

fn claim(r: &RetrySpec, d: Dialect, out: &mut String) {
    let ps = Params {
        dialect: d,
        names: &[NOW],
    };
    out.push_str("-- name: claim\n");
    ps.doc(out);
    match d {
        Dialect::Sqlite => out.push_str(
            "-- Run between BEGIN IMMEDIATE and COMMIT (the write lock first; busy_timeout 5 s).\n",
        ),
        Dialect::Postgres => {
            out.push_str("-- SKIP LOCKED passes over rows another transaction is claiming.\n")
        }
    }
    out.push_str("-- An expired lease is claimed again and counts as an attempt, while attempts remain;\n-- on the last attempt it is reap's to dead-letter (the documents' claim reclaimed it past\n-- max_attempts: a job that always kills its worker never ended).\n");
    out.push_str(
        "-- Takes any job of the table, lowest id first (as the documents): give jobs with another\n-- lease or wait their own table, or add AND name = ... to the inner SELECT.\n",
    );
    let now = ps.p("now");
    let until = match d {
        Dialect::Sqlite => plus(d, &now, &secs(r.lease_ms)),
        Dialect::Postgres => format!("{now} + interval '{} seconds'", secs(r.lease_ms)),
    };
    let lock = match d {
        Dialect::Sqlite => "",
        Dialect::Postgres => "\n              FOR UPDATE SKIP LOCKED",
    };
    let _ = writeln!(
        out,
        "UPDATE jobs\n   SET status = 'running', attempts = attempts + 1, locked_until = {until}\n WHERE id = (SELECT id FROM jobs\n              WHERE (status = 'queued' AND run_after <= {now})\n                 OR (status = 'running' AND locked_until <= {now}\n                     AND attempts < max_attempts)\n              ORDER BY id\n              LIMIT 1{lock})\nRETURNING id, name, payload, attempts, max_attempts;"
    );
}

/// The lease that expired on the last attempt: the worker died or hung with no attempt left,
/// so the job is dead (issue 15's dead-letter rule; `claim` no longer takes such a row).
fn reap(d: Dialect, out: &mut String) {
    let ps = Params {
        dialect: d,
        names: &[NOW, ERROR],
    };
    out.push_str("-- name: reap\n");
    ps.doc(out);
    out.push_str("-- Run before each claim (or on a timer): jobs whose lease expired on their last attempt go\n-- to dead with the error text as last_error (e.g. 'lease expired on the last attempt').\n");
    let _ = writeln!(
        out,
        "UPDATE jobs\n   SET status = 'dead', locked_until = NULL, last_error = {}, finished_at = {}\n WHERE status = 'running' AND locked_until <= {} AND attempts >= max_attempts\nRETURNING id, attempts;",
        ps.p("error"),
        ps.p("now"),
        ps.p("now")
    );
}

const OWNER: &str = "status = 'running' AND attempts = ";

fn complete(sheet: &JobSheet, d: Dialect, out: &mut String) {
    let ps = Params {
        dialect: d,
        names: &[NOW, ID, ATTEMPT],
    };
    out.push_str("-- name: complete\n");
    ps.doc(out);
    out.push_str(
        "-- No row returned: the lease was lost (another worker claimed the job again).\n",
    );
    let clear = match sheet.failure.as_ref().map(|f| f.last_error_on_done) {
        Some(LastErrorOnDone::Clear) => ", last_error = NULL",
        _ => "",
    };
    let _ = writeln!(
        out,
        "UPDATE jobs\n   SET status = 'done', locked_until = NULL, finished_at = {}{clear}\n WHERE id = {} AND {OWNER}{}\nRETURNING id, status, attempts;",
        ps.p("now"),
        ps.p("id"),
        ps.p("attempt")
    );
}

fn release(r: &RetrySpec, d: Dialect, out: &mut String) {
    let ps = Params {
        dialect: d,
        names: &[NOW, ID, ATTEMPT, ERROR],
    };
    out.push_str("-- name: release\n");
    ps.doc(out);
    out.push_str("-- A retryable error: queued again after the wait, or dead once attempts reach max_attempts.\n");
    out.push_str("-- No row returned: the lease was lost.\n");
    let (now, id, attempt, error) = (ps.p("now"), ps.p("id"), ps.p("attempt"), ps.p("error"));
    let used = "attempts >= max_attempts";
    let decorrelated = r.backoff.jitter == Jitter::Decorrelated;
    let (with, wait) = if decorrelated {
        // One draw for both columns: a materialised CTE is computed once.
        (
            format!(
                "WITH w AS MATERIALIZED (SELECT {} AS wait_s FROM jobs WHERE id = {id})\n",
                wait_expr(r, d)
            ),
            "(SELECT wait_s FROM w)".to_owned(),
        )
    } else {
        (String::new(), wait_expr(r, d))
    };
    let last_wait = if decorrelated {
        format!(",\n       last_wait_s = CASE WHEN {used} THEN last_wait_s ELSE {wait} END")
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "{with}UPDATE jobs\n   SET status = CASE WHEN {used} THEN 'dead' ELSE 'queued' END,\n       locked_until = NULL,\n       last_error = {error},\n       run_after = CASE WHEN {used} THEN run_after\n                        ELSE {} END,\n       finished_at = CASE WHEN {used} THEN {now} END{last_wait}\n WHERE id = {id} AND {OWNER}{attempt}\nRETURNING id, status, attempts, run_after;",
        plus(d, &now, &wait)
    );
}

fn fail(d: Dialect, out: &mut String) {
    let ps = Params {
        dialect: d,
        names: &[NOW, ID, ATTEMPT, ERROR],
    };
    out.push_str("-- name: fail\n");
    ps.doc(out);
    out.push_str("-- A non-retryable error: dead at once.\n");
    let _ = writeln!(
        out,
        "UPDATE jobs\n   SET status = 'dead', locked_until = NULL, last_error = {}, finished_at = {}\n WHERE id = {} AND {OWNER}{}\nRETURNING id, status, attempts;",
        ps.p("error"),
        ps.p("now"),
        ps.p("id"),
        ps.p("attempt")
    );
}

fn record_key(r: &RetrySpec, d: Dialect, out: &mut String) {
    if !has_key(r) {
        return;
    }
    let ps = Params {
        dialect: d,
        names: &[("key", "text")],
    };
    out.push_str("-- name: record_key\n");
    ps.doc(out);
    out.push_str("-- In the business write's transaction: a second run fails on the primary key and rolls back.\n");
    let _ = writeln!(
        out,
        "INSERT INTO processed_keys (idempotency_key) VALUES ({});",
        ps.p("key")
    );
}

fn purge(sheet: &JobSheet, d: Dialect, out: &mut String) {
    let Some((done, dead)) = sheet.failure.as_ref().and_then(|f| purge_days(f.retention)) else {
        return;
    };
    let ps = Params {
        dialect: d,
        names: &[NOW],
    };
    out.push_str("-- name: purge\n");
    ps.doc(out);
    let now = ps.p("now");
    let older = |days: u32| match d {
        Dialect::Sqlite => format!("finished_at <= {now} - {}", u64::from(days) * 86_400),
        Dialect::Postgres => format!("finished_at <= {now} - interval '{days} days'"),
    };
    let mut conds = Vec::new();
    if let Some(n) = done {
        conds.push(format!("(status = 'done' AND {})", older(n)));
    }
    if let Some(n) = dead {
        conds.push(format!("(status = 'dead' AND {})", older(n)));
    }
    let _ = writeln!(out, "DELETE FROM jobs\n WHERE {};", conds.join("\n    OR "));
}

fn rerun(r: &RetrySpec, d: Dialect, out: &mut String) {
    let ps = Params {
        dialect: d,
        names: &[NOW, ID],
    };
    out.push_str("-- name: rerun\n");
    ps.doc(out);
    let reset = if r.backoff.jitter == Jitter::Decorrelated {
        ", last_wait_s = NULL"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "UPDATE jobs\n   SET status = 'queued', attempts = 0, run_after = {}, locked_until = NULL,\n       finished_at = NULL{reset}\n WHERE id = {} AND status = 'dead'\nRETURNING id;",
        ps.p("now"),
        ps.p("id")
    );
}

/// The whole export.
pub(super) fn export(sheet: &JobSheet, r: &RetrySpec, d: Dialect, lang: Lang) -> String {
    let mut out = header::write(
        "--",
        versions::header_line(d.target(), None, lang),
        header_lines(sheet, r, d, lang),
    );
    out.push('\n');
    schema(r, d, &mut out);
    let parts: [&dyn Fn(&mut String); 9] = [
        &|o| enqueue(sheet, r, d, o),
        &|o| claim(r, d, o),
        &|o| reap(d, o),
        &|o| complete(sheet, d, o),
        &|o| release(r, d, o),
        &|o| fail(d, o),
        &|o| record_key(r, d, o),
        &|o| purge(sheet, d, o),
        &|o| rerun(r, d, o),
    ];
    for part in parts {
        let mut s = String::new();
        part(&mut s);
        if !s.is_empty() {
            out.push('\n');
            out.push_str(&s);
        }
    }
    out
}
