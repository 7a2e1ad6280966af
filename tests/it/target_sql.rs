//! The `sql-sqlite` and `sql-postgres` targets: the source documents' table queue with the
//! sheet's lease, attempts and wait, EXECUTED on real SQLite and on a real PostgreSQL server
//! the test starts itself (`target_sql_support.rs`). The exported claim / release / complete,
//! driven in the order of the documents' first and third runs (`docs/DOMAIN.md` §3;
//! `sim_documented_runs.rs`), reproduce their final rows on both.

use crate::target_sql_support::{lit, stmt, ts, Lite, Pg, Queue, Row};
use modality_advisor::domain::queues::sql::{self, Dialect};
use modality_advisor::domain::queues::{report, sample, TargetError, TargetId};
use modality_advisor::domain::sheet::{
    BackoffKind, BackoffPolicy, Jitter, JobSheet, Polynomial, RetrySpec,
};
use modality_advisor::domain::sim::SimRng;
use modality_advisor::domain::{Lang, Outcome};
use proptest::prelude::*;

/// The documents' errors (`repr(e)` in `work_once`), verbatim.
const TIMEOUT: &str = "TimeoutError('メールサーバーが応答しません')";
const NOT_IMAGE: &str = "ValueError('画像ではありません: memo.txt')";

pub fn example() -> JobSheet {
    modality_advisor::domain::sheet::example::example(Lang::En).expect("the example")
}

/// A sheet for one of the documents' jobs: `code` with `attempts`, a fixed 0.2 s wait
/// (`work_once(wait_sec=0.2)`), the 30 s lease (`timeout_sec=30`), no key.
fn doc_sheet(code: &str, attempts: u32) -> JobSheet {
    let mut s = example();
    s.process.code_name = code.to_owned();
    let r = s.retry.as_mut().expect("retry");
    r.max_attempts = attempts;
    r.backoff = BackoffPolicy {
        kind: BackoffKind::Fixed,
        base_ms: 200,
        cap_ms: 200,
        jitter: Jitter::None,
    };
    r.lease_ms = 30_000;
    r.attempt_timeout_ms = 20_000;
    r.idempotency_key = String::new();
    s
}

fn export(sheet: &JobSheet, d: Dialect) -> String {
    match sql::build(sheet, d, Lang::En) {
        Ok(b) => b.text,
        Err(e) => panic!("{e:?}"),
    }
}

fn row(id: i64, name: &str, status: &str, a: i64, m: i64, e: Option<&str>) -> Row {
    (id, name.into(), status.into(), a, m, e.map(str::to_owned))
}

/// The documents' first run: `send_mail` (5 attempts) fails twice then succeeds,
/// `resize_image` (3 attempts) always fails; one worker claims until the queue is empty,
/// waiting for the next `run_after` when nothing is claimable. Returns the order of outcomes.
fn first_run(q: &mut dyn Queue, d: Dialect) -> Vec<(i64, i64, String)> {
    let mail = export(&doc_sheet("send_mail", 5), d);
    let image = export(&doc_sheet("resize_image", 3), d);
    q.enqueue(
        &stmt(&mail, "enqueue"),
        0.0,
        r#"{"to": "taro@example.com"}"#,
    );
    q.enqueue(&stmt(&image, "enqueue"), 0.0, r#"{"file": "memo.txt"}"#);
    let mut now = 0.0;
    let mut mail_calls = 0;
    let mut order = Vec::new();
    for _ in 0..100 {
        let Some((id, attempt, _max)) = q.claim(now) else {
            match q.next_run_after() {
                Some(t) => {
                    now = t;
                    continue;
                }
                None => break,
            }
        };
        let error = if id == 1 {
            mail_calls += 1;
            (mail_calls <= 2).then_some(TIMEOUT)
        } else {
            Some(NOT_IMAGE)
        };
        let outcome = match error {
            Some(e) => q.release(now, id, attempt, e).expect("owner").0,
            None => q.complete(now, id, attempt).expect("owner"),
        };
        order.push((id, attempt, outcome));
    }
    order
}

fn check_first_run(q: &mut dyn Queue, d: Dialect) {
    let order = first_run(q, d);
    let o = |id, a, s: &str| (id, a, s.to_owned());
    // The documents: job 1 #1 error → queued; job 2 #1 → queued; job 1 #2 → queued;
    // job 2 #2 → queued; job 1 #3 done; job 2 #3 error → dead.
    assert_eq!(
        order,
        [
            o(1, 1, "queued"),
            o(2, 1, "queued"),
            o(1, 2, "queued"),
            o(2, 2, "queued"),
            o(1, 3, "done"),
            o(2, 3, "dead"),
        ],
        "{d:?}"
    );
    assert_eq!(
        q.rows(),
        [
            row(1, "send_mail", "done", 3, 5, Some(TIMEOUT)),
            row(2, "resize_image", "dead", 3, 3, Some(NOT_IMAGE)),
        ],
        "{d:?}"
    );
}

#[test]
fn first_run_on_sqlite_matches_the_documents() {
    let mut q = Lite::new(&export(&doc_sheet("send_mail", 5), Dialect::Sqlite));
    check_first_run(&mut q, Dialect::Sqlite);
}

/// Two workers, two queued jobs, the atomic claim: A gets job 1, B gets job 2; both done
/// with 1 attempt each (the documents' default of 3 attempts).
#[test]
fn third_run_on_sqlite_matches_the_documents() {
    let sheet = doc_sheet("send_mail", 3);
    let text = export(&sheet, Dialect::Sqlite);
    let mut a = Lite::new(&text);
    let mut b = a.second();
    let enqueue = stmt(&text, "enqueue");
    a.enqueue(&enqueue, 0.0, r#"{"to": "taro@example.com"}"#);
    a.enqueue(&enqueue, 0.0, r#"{"to": "hanako@example.com"}"#);
    let ja = a.claim(0.0).expect("A claims");
    let jb = b.claim(0.0).expect("B claims");
    assert_eq!((ja.0, jb.0), (1, 2));
    assert_eq!(a.complete(0.1, ja.0, ja.1).as_deref(), Some("done"));
    assert_eq!(b.complete(0.1, jb.0, jb.1).as_deref(), Some("done"));
    assert_eq!(
        a.rows(),
        [
            row(1, "send_mail", "done", 1, 3, None),
            row(2, "send_mail", "done", 1, 3, None),
        ]
    );
}

/// One job that always fails, released until dead: every wait (`run_after − now`) lies in the
/// reported delay's [min, max]; the last release turns it dead.
fn check_waits(q: &mut dyn Queue, sheet: &JobSheet, d: Dialect, slack: f64) {
    let text = export(sheet, d);
    let Ok(rep) = report(sheet, d.target(), None, Lang::En) else {
        panic!("report")
    };
    let r = sheet.retry.as_ref().expect("retry");
    let id = q.enqueue(&stmt(&text, "enqueue"), 100.0, "{}");
    let mut now = 100.0;
    for k in 0..r.max_attempts as usize {
        let (cid, attempt, _) = q.claim(now).expect("claimable");
        assert_eq!((cid, attempt), (id, k as i64 + 1));
        let (status, run_after) = q.release(now, id, attempt, "boom").expect("owner");
        if k + 1 == r.max_attempts as usize {
            assert_eq!(status, "dead");
            break;
        }
        assert_eq!(status, "queued");
        let w = run_after - now;
        let want = rep.built.actual.delays[k];
        assert!(
            w >= want.min_s - slack && w <= want.max_s + slack,
            "{d:?} wait {k}: {w} outside [{}, {}]",
            want.min_s,
            want.max_s
        );
        now = run_after;
    }
}

fn variants() -> Vec<JobSheet> {
    let mut out = vec![example()];
    let mut s = example();
    s.retry.as_mut().expect("retry").backoff.jitter = Jitter::Decorrelated;
    out.push(s);
    let mut s = example();
    let b = &mut s.retry.as_mut().expect("retry").backoff;
    b.kind = BackoffKind::Polynomial(Polynomial {
        exponent: 4,
        first_n: 0,
    });
    b.base_ms = 15_000;
    b.jitter = Jitter::Equal;
    out.push(s);
    out
}

#[test]
fn waits_computed_in_sqlite_lie_in_the_reported_window() {
    for sheet in variants() {
        for _ in 0..5 {
            let mut q = Lite::new(&export(&sheet, Dialect::Sqlite));
            check_waits(&mut q, &sheet, Dialect::Sqlite, 1e-9);
        }
    }
}

/// Decorrelated jitter keeps the wait it drew (one draw for `run_after` and `last_wait_s`).
#[test]
fn decorrelated_release_stores_the_wait_it_used() {
    let sheet = &variants()[1];
    let text = export(sheet, Dialect::Sqlite);
    let mut q = Lite::new(&text);
    let id = q.enqueue(&stmt(&text, "enqueue"), 100.0, "{}");
    let mut now = 100.0;
    for _ in 0..3 {
        let (_, attempt, _) = q.claim(now).expect("claim");
        let (_, run_after) = q.release(now, id, attempt, "e").expect("owner");
        let last: f64 = q
            .conn
            .query_row("SELECT last_wait_s FROM jobs", [], |r| r.get(0))
            .expect("last_wait_s");
        assert!(
            (run_after - now - last).abs() < 1e-9,
            "{run_after} - {now} vs {last}"
        );
        now = run_after;
    }
}

/// The owner check: a worker whose lease expired and whose job was claimed again cannot
/// complete it; `fail` dead-letters at once; `rerun` puts it back; the key is recorded once.
#[test]
fn owner_check_fail_rerun_and_key_on_sqlite() {
    let sheet = example();
    let text = export(&sheet, Dialect::Sqlite);
    let mut a = Lite::new(&text);
    let id = a.enqueue(&stmt(&text, "enqueue"), 0.0, "{}");
    let (_, first, _) = a.claim(0.0).expect("claim");
    // The lease is 60 s: at 61 s another worker claims it again (attempt 2).
    assert_eq!(a.claim(30.0), None);
    let (_, second, _) = a.claim(61.0).expect("reclaimed");
    assert_eq!((first, second), (1, 2));
    assert_eq!(
        a.complete(62.0, id, first),
        None,
        "the lost lease cannot complete"
    );
    assert_eq!(
        a.fail(62.0, id, second, "malformed address").as_deref(),
        Some("dead")
    );
    let rerun: i64 = a
        .conn
        .query_row(
            &stmt(&text, "rerun"),
            rusqlite::named_params! {":now": 70.0, ":id": id},
            |r| r.get(0),
        )
        .expect("rerun");
    assert_eq!(rerun, id);
    let (_, again, _) = a.claim(70.0).expect("claim after rerun");
    assert_eq!(again, 1);
    assert_eq!(a.complete(71.0, id, again).as_deref(), Some("done"));
    // The idempotency key: a second enqueue of the same key returns no row; record_key twice
    // fails on the primary key.
    let enqueue = stmt(&text, "enqueue");
    let key = rusqlite::named_params! {":now": 0.0, ":payload": "{}", ":key": "r-1:confirm-mail"};
    let mut st = a.conn.prepare(&enqueue).expect("prepare");
    assert!(st.query(key).expect("q").next().expect("row").is_some());
    assert!(st.query(key).expect("q").next().expect("row").is_none());
    drop(st);
    let record = stmt(&text, "record_key");
    let k = rusqlite::named_params! {":key": "r-1:confirm-mail"};
    assert!(a.conn.execute(&record, k).is_ok());
    assert!(a.conn.execute(&record, k).is_err());
    // purge: done 30 days; the done row finished at 71 s goes at 71 s + 30 d, not before.
    let purge = stmt(&text, "purge");
    let n = a
        .conn
        .execute(
            &purge,
            rusqlite::named_params! {":now": 71.0 + 30.0 * 86_400.0 - 1.0},
        )
        .expect("purge");
    assert_eq!(n, 0);
    let n = a
        .conn
        .execute(
            &purge,
            rusqlite::named_params! {":now": 71.0 + 30.0 * 86_400.0},
        )
        .expect("purge");
    assert_eq!(n, 1);
}

/// A worker that dies on every attempt: `claim` takes the expired lease again only while
/// attempts remain; on the last one `reap` dead-letters the job, so a poison job ends instead of
/// being claimed past `max_attempts` forever.
#[test]
fn an_expired_last_attempt_is_reaped_not_claimed_again() {
    let sheet = example();
    let max = i64::from(sheet.retry.as_ref().expect("retry").max_attempts);
    let text = export(&sheet, Dialect::Sqlite);
    let mut a = Lite::new(&text);
    let id = a.enqueue(&stmt(&text, "enqueue"), 0.0, "{}");
    let reap = stmt(&text, "reap");
    let mut now = 0.0;
    for attempt in 1..=max {
        let (_, got, _) = a.claim(now).expect("claimed while attempts remain");
        assert_eq!(got, attempt);
        // The worker dies: nobody releases; the 60 s lease runs out.
        now += 61.0;
    }
    assert_eq!(
        a.claim(now),
        None,
        "the last attempt's lease is not claimed again"
    );
    let reaped: Vec<(i64, i64)> = {
        let mut st = a.conn.prepare(&reap).expect("prepare reap");
        st.query_map(
            rusqlite::named_params! {":now": now, ":error": "lease expired on the last attempt"},
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("reap")
        .collect::<Result<_, _>>()
        .expect("rows")
    };
    assert_eq!(reaped, vec![(id, max)]);
    let (status, error): (String, String) = a
        .conn
        .query_row(
            "SELECT status, last_error FROM jobs WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("row");
    assert_eq!(
        (status.as_str(), error.as_str()),
        ("dead", "lease expired on the last attempt")
    );
    assert_eq!(a.claim(now + 1_000.0), None);
}

/// Everything above on one PostgreSQL server: the first run, the third run with A's claim
/// held open in its transaction (B's SKIP LOCKED passes over job 1), the waits, the owner
/// check.
#[test]
fn the_documents_runs_on_postgresql() {
    let d = Dialect::Postgres;
    let mut pg = Pg::start(&export(&doc_sheet("send_mail", 5), d));
    check_first_run(&mut pg, d);

    // Third run: fresh table, 3 attempts.
    let text = export(&doc_sheet("send_mail", 3), d);
    pg.psql(&format!("DROP TABLE jobs;\n{}", stmt(&text, "schema")));
    let enqueue = stmt(&text, "enqueue");
    pg.enqueue(&enqueue, 0.0, r#"{"to": "taro@example.com"}"#);
    pg.enqueue(&enqueue, 0.0, r#"{"to": "hanako@example.com"}"#);
    let marker = pg.dir().join("a-claimed");
    let mut a = pg.session();
    let mut a_in = a.stdin.take().expect("stdin");
    let script = format!(
        "BEGIN;\n{}\\! touch {}\n",
        Pg::exec(&stmt(&text, "claim"), &[ts(0.0)]),
        marker.display()
    );
    std::io::Write::write_all(&mut a_in, script.as_bytes()).expect("A's claim");
    std::io::Write::flush(&mut a_in).expect("flush");
    for _ in 0..500 {
        if marker.exists() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(marker.exists(), "A's claim ran");
    // B claims while A's transaction still holds job 1 (lock_timeout: a wait would fail).
    let b = pg.psql(&format!(
        "SET lock_timeout = '2s';\n{}",
        Pg::exec(&stmt(&text, "claim"), &[ts(0.0)])
    ));
    std::io::Write::write_all(&mut a_in, b"COMMIT;\n").expect("A commits");
    drop(a_in);
    let out = a.wait_with_output().expect("A ends");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let a_row = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    assert!(a_row.starts_with("1|send_mail|"), "A got job 1: {a_row}");
    assert!(
        b.len() == 1 && b[0].starts_with("2|send_mail|"),
        "B got job 2: {b:?}"
    );
    assert_eq!(pg.complete(0.1, 1, 1).as_deref(), Some("done"));
    assert_eq!(pg.complete(0.1, 2, 1).as_deref(), Some("done"));
    assert_eq!(
        pg.rows(),
        [
            row(1, "send_mail", "done", 1, 3, None),
            row(2, "send_mail", "done", 1, 3, None),
        ]
    );

    // The waits and the owner check, on the sheet's own statements.
    for sheet in variants() {
        let text = export(&sheet, d);
        let mut q = Pg::start(&text);
        check_waits(&mut q, &sheet, d, 2e-6);
        let id = q.enqueue(&stmt(&text, "enqueue"), 1000.0, "{}");
        let (_, first, _) = q.claim(1000.0).expect("claim");
        let (_, second, _) = q.claim(1061.0).expect("reclaimed after the 60 s lease");
        assert_eq!(q.complete(1062.0, id, first), None);
        assert_eq!(q.complete(1062.0, id, second).as_deref(), Some("done"));
        let key = q.psql(&Pg::exec(&stmt(&text, "record_key"), &[lit("k")]));
        assert!(key.is_empty());
        let purged = q.psql(&format!(
            "{}SELECT count(*) FROM jobs;",
            Pg::exec(&stmt(&text, "purge"), &[ts(1062.0 + 30.0 * 86_400.0)])
        ));
        assert_eq!(
            purged,
            ["1"],
            "the dead job of check_waits stays until handled"
        );
    }

    // Hostile names read back as written.
    for text in crate::sheet_hostile::HOSTILE {
        let mut s = example();
        s.process.code_name = hostile_name(text);
        let t = export(&s, d);
        pg.psql(&format!("DROP TABLE jobs;\n{}", stmt(&t, "schema")));
        pg.enqueue(&stmt(&t, "enqueue"), 0.0, "{}");
        assert_eq!(pg.rows()[0].1, s.process.code_name.replace('\0', " "));
    }
}

fn table(rows: &[modality_advisor::domain::queues::MappingRow]) -> String {
    rows.iter()
        .map(|r| {
            format!(
                "{} | {} | {} | {} | {}",
                r.field.id(),
                r.sheet,
                r.key,
                r.value,
                r.note
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn mapping_of_the_example_en_and_ja() {
    let en = report(&example(), TargetId::SqlSqlite, None, Lang::En).expect("en");
    insta::assert_snapshot!("sql_mapping_en", table(&en.built.mapping));
    let ja = report(
        &modality_advisor::domain::sheet::example::example(Lang::Ja).expect("ja"),
        TargetId::SqlPostgres,
        None,
        Lang::Ja,
    )
    .expect("ja");
    insta::assert_snapshot!("sql_mapping_ja", table(&ja.built.mapping));
    insta::assert_snapshot!("sql_example_sqlite", en.built.text);
    let pg = report(&example(), TargetId::SqlPostgres, None, Lang::En).expect("pg");
    insta::assert_snapshot!("sql_example_postgres", pg.built.text);
    assert_eq!(en.file_name, "send_reservation_mail.sql-sqlite.sql");
}

#[test]
fn actual_schedule_is_the_sheets_formula() {
    // 5 attempts → 4 waits; exponential from 10 s, ×2 per retry (n = attempts − 1 = 0 at the
    // first retry), cap 600 s: ceilings 10, 20, 40, 80 s; full jitter U(0, t): min 0,
    // expected t/2 = 5, 10, 20, 40; window max 10+20+40+80 = 150, expected 75.
    let rep = report(&example(), TargetId::SqlSqlite, None, Lang::En).expect("report");
    let a = &rep.built.actual;
    let got: Vec<(f64, f64, f64)> = a
        .delays
        .iter()
        .map(|d| (d.min_s, d.expected_s, d.max_s))
        .collect();
    assert_eq!(
        got,
        [
            (0.0, 5.0, 10.0),
            (0.0, 10.0, 20.0),
            (0.0, 20.0, 40.0),
            (0.0, 40.0, 80.0)
        ]
    );
    assert_eq!(a.attempts, Some(5));
    assert_eq!(
        (a.window_s.min, a.window_s.expected, a.window_s.max),
        (Some(0.0), Some(75.0), Some(150.0))
    );
    // The documents' fixed 0.2 s, 3 attempts: 2 waits of 0.2 s.
    let rep = report(&doc_sheet("x", 3), TargetId::SqlPostgres, None, Lang::En).expect("r");
    assert_eq!(rep.built.actual.window_s.max, Some(0.4));
}

#[test]
fn defaults_are_the_documents_miniqueue() {
    for d in [Dialect::Sqlite, Dialect::Postgres] {
        let p = sql::defaults(d, Lang::En);
        // max_attempts DEFAULT 3 → 2 waits of wait_sec = 0.2 s: window 0.4 s, no jitter.
        assert_eq!(p.attempts, Some(3));
        assert_eq!(p.schedule.window_s.min, Some(0.2 + 0.2));
        assert_eq!(p.schedule.window_s.max, Some(0.4));
        assert!(
            p.summary.contains("0.2") || p.summary.contains("200"),
            "{}",
            p.summary
        );
        assert!(!sql::defaults(d, Lang::Ja).summary.is_empty());
    }
}

#[test]
fn sheets_without_retries_are_not_applicable() {
    let mut s = example();
    s.retry = None;
    s.decision.outcome = Outcome::Batch;
    for t in [TargetId::SqlSqlite, TargetId::SqlPostgres] {
        let e = report(&s, t, None, Lang::En).expect_err("batch");
        assert_eq!(
            e,
            TargetError::NotApplicable {
                target: t,
                outcome: "batch"
            }
        );
        assert!(e.message(Lang::En).contains("batch"));
        assert!(e.message(Lang::Ja).contains("batch"));
    }
}

/// A code name that tries to end the literal, the statement and the `-- name:` framing.
fn hostile_name(text: &str) -> String {
    format!("{text}*/ -- name: x\n-- name: evil\r\n'); DROP TABLE jobs; --\u{0}\u{7}")
}

/// Hostile text in every user field still gives SQL SQLite runs, with the name read back.
#[test]
fn hostile_text_runs_on_sqlite() {
    for (i, text) in crate::sheet_hostile::HOSTILE.iter().enumerate() {
        let mut s = example();
        s.process.process_name = (*text).to_owned();
        s.process.code_name = hostile_name(text);
        let r = s.retry.as_mut().expect("retry");
        r.idempotency_key = format!("{text} ${{x}} #{{y}} `z` \u{202e}");
        r.retryable_errors = vec![(*text).to_owned()];
        r.non_retryable_errors = vec![format!("{text}\n-- name: evil")];
        if let Some(f) = s.failure.as_mut() {
            f.dead_letter = (*text).to_owned();
            f.notify = format!("</script>{text}");
        }
        for d in [Dialect::Sqlite, Dialect::Postgres] {
            let t = export(&s, d);
            let names: Vec<String> = sql::statements(&t).into_iter().map(|(n, _)| n).collect();
            assert_eq!(names, sql::STATEMENTS, "{i}: {d:?}");
        }
        let t = export(&s, Dialect::Sqlite);
        let mut q = Lite::new(&t);
        q.enqueue(&stmt(&t, "enqueue"), 0.0, "{}");
        // NUL cannot be stored (PostgreSQL refuses it): a space instead.
        assert_eq!(q.rows()[0].1, s.process.code_name.replace('\0', " "), "{i}");
    }
}

/// Generated retry sheets (every kind, jitter, 1–30 attempts, waits up to 10 min + 50 min of
/// cap), shared by the other targets' property tests.
pub fn retry_sheet() -> impl Strategy<Value = JobSheet> {
    let kind = prop_oneof![
        Just(BackoffKind::Fixed),
        Just(BackoffKind::Exponential),
        (1u32..=8, 0u32..=1).prop_map(|(exponent, first_n)| BackoffKind::Polynomial(Polynomial {
            exponent,
            first_n
        })),
    ];
    let jitter = prop_oneof![
        Just(Jitter::None),
        Just(Jitter::Full),
        Just(Jitter::Equal),
        Just(Jitter::Decorrelated)
    ];
    (1u32..=30, kind, 1u64..=600_000, 0u64..=3_000_000, jitter).prop_map(
        |(attempts, kind, base_ms, extra, jitter)| {
            let mut s = example();
            let r: &mut RetrySpec = s.retry.as_mut().expect("retry");
            r.max_attempts = attempts;
            r.backoff = BackoffPolicy {
                kind,
                base_ms,
                cap_ms: base_ms + extra,
                jitter,
            };
            s
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn sampled_waits_lie_within_the_reported_schedule(sheet in retry_sheet(), seed in 0u64..1000) {
        for t in [TargetId::SqlSqlite, TargetId::SqlPostgres] {
            let rep = report(&sheet, t, None, Lang::En).expect("every retry sheet exports");
            let a = &rep.built.actual;
            for d in &a.delays {
                prop_assert!(d.min_s <= d.expected_s + 1e-9 && d.expected_s <= d.max_s + 1e-9);
            }
            let mut rng = SimRng::new(seed);
            let mut u = || rng.unit();
            for _ in 0..20 {
                let run = sample(&sheet, t, &mut u).expect("sample");
                prop_assert_eq!(run.len(), a.delays.len());
                for (w, d) in run.iter().zip(&a.delays) {
                    prop_assert!(*w >= d.min_s - 1e-9 && *w <= d.max_s + 1e-9, "{} not in {:?}", w, d);
                }
                let total: f64 = run.iter().sum();
                let (lo, hi) = (a.window_s.min.unwrap_or(0.0), a.window_s.max.unwrap_or(f64::MAX));
                prop_assert!(total >= lo - 1e-6 && total <= hi + 1e-6);
            }
        }
    }
}
