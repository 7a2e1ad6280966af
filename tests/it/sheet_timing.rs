//! One set of numbers, entered once: the response-time target and p95 the wizard derived
//! `within-seconds` from pre-fill the sheet's timeouts, lease and acceptable wait (each with
//! a reason naming them), the checks compare the sheet with them, and a later change of the
//! numbers moves what was pre-filled and never what the user typed.

use modality_advisor::domain::app_state::{Action, AppState};
use modality_advisor::domain::flowchart::Answer;
use modality_advisor::domain::sheet::check::{validate, Severity};
use modality_advisor::domain::sheet::edit::SheetEdit;
use modality_advisor::domain::sheet::prefill::timing::wait_when_stated;
use modality_advisor::domain::sheet::prefill::{
    changed_from_default, default_reason, for_decision, prefill,
};
use modality_advisor::domain::sheet::{Decision, FieldId, JobSheet, ProcessFacts};
use modality_advisor::domain::{Answers, Lang, Outcome, QuestionId, Timing};

use QuestionId::{ExternalCall, KeepAcceptingWhenDown, NeedsResultNow, TimeTriggered};

const S: u64 = 1_000;
const MIN: u64 = 60_000;
const H: u64 = 3_600_000;

/// Where the walk goes after `within-seconds`.
#[derive(Clone, Copy, Debug)]
enum Path {
    /// Within the target, no external call: sync.
    NoCall,
    /// Within, an external call, refusing while it is down: sync with a timeout.
    CallRefuse,
    /// Within, an external call, accepting while it is down: a ticket.
    CallAccept,
}

/// The decision for a target and p95 (ms): a ticket when p95 > target, else `path`.
fn decided(target_ms: u64, p95_ms: u64, path: Path) -> Decision {
    let timing = Timing::new(target_ms, p95_ms).expect("in range");
    let mut a = Answers::new();
    a.set(TimeTriggered, false)
        .set(NeedsResultNow, true)
        .set_timing(timing);
    match path {
        Path::NoCall => a.set(ExternalCall, false),
        Path::CallRefuse => a.set(ExternalCall, true).set(KeepAcceptingWhenDown, false),
        Path::CallAccept => a.set(ExternalCall, true).set(KeepAcceptingWhenDown, true),
    };
    Decision::from_answers(&a).expect("complete")
}

fn sheet(target_ms: u64, p95_ms: u64, path: Path) -> JobSheet {
    prefill(
        ProcessFacts::default(),
        decided(target_ms, p95_ms, path),
        Lang::En,
    )
}

/// What the numbers pre-fill: outcome, (attempt timeout, lease), call timeout, acceptable wait.
type Filled = (Outcome, Option<(u64, u64)>, Option<u64>, Option<u64>);

fn filled(s: &JobSheet) -> Filled {
    (
        s.decision.outcome,
        s.retry.as_ref().map(|r| (r.attempt_timeout_ms, r.lease_ms)),
        s.sync.as_ref().map(|y| y.call_timeout_ms),
        s.process.acceptable_wait_ms,
    )
}

fn check(target_ms: u64, p95_ms: u64, path: Path, want: Filled) {
    let s = sheet(target_ms, p95_ms, path);
    assert_eq!(
        filled(&s),
        want,
        "target {target_ms}, p95 {p95_ms}, {path:?}"
    );
}

#[test]
fn the_numbers_prefill_timeouts_lease_and_the_acceptable_wait() {
    use Outcome::{AsyncTicket, Sync, SyncTimeout};
    use Path::{CallAccept, CallRefuse, NoCall};
    // The invoice PDF: p95 5 min against a 1 s target → a ticket; 2 × 5 min = 10 min.
    check(
        S,
        5 * MIN,
        NoCall,
        (AsyncTicket, Some((10 * MIN, 20 * MIN)), None, None),
    );
    // 2 × p95 rounded up to a round value: 8 min → 10 min, 40 s → 1 min, 3 min → 3 min.
    check(
        S,
        4 * MIN,
        NoCall,
        (AsyncTicket, Some((10 * MIN, 20 * MIN)), None, None),
    );
    check(
        S,
        20 * S,
        NoCall,
        (AsyncTicket, Some((MIN, 2 * MIN)), None, None),
    );
    check(
        S,
        90 * S,
        NoCall,
        (AsyncTicket, Some((3 * MIN, 6 * MIN)), None, None),
    );
    check(
        S,
        6 * H,
        NoCall,
        (AsyncTicket, Some((12 * H, 24 * H)), None, None),
    );
    // Never under the fixed 30 s for a short handler.
    check(
        500,
        800,
        NoCall,
        (AsyncTicket, Some((30 * S, MIN)), None, None),
    );
    check(
        10 * S,
        2 * S,
        CallAccept,
        (AsyncTicket, Some((30 * S, MIN)), None, None),
    );
    // The longest the lease leaves room for: 12 h, lease 1 d (the check then speaks).
    let week = Timing::MAX_MS;
    check(
        S,
        week,
        NoCall,
        (AsyncTicket, Some((12 * H, 24 * H)), None, None),
    );
    // Synchronous: the call must end within the target, and the user waits that long.
    check(S, 500, NoCall, (Sync, None, Some(S), Some(S)));
    check(
        2 * S,
        2 * S,
        CallRefuse,
        (SyncTimeout, None, Some(2 * S), Some(2 * S)),
    );
    check(7, 0, NoCall, (Sync, None, Some(7), Some(7)));
    // A target past the call timeout's limit (10 min): the limit; the wait is the target.
    check(week, H, NoCall, (Sync, None, Some(10 * MIN), Some(week)));
}

#[test]
fn without_numbers_the_fixed_defaults_stay() {
    let mut a = Answers::new();
    a.set(TimeTriggered, false)
        .set(NeedsResultNow, true)
        .set(QuestionId::WithinSeconds, true)
        .set(ExternalCall, false);
    let sync = prefill(
        ProcessFacts::default(),
        Decision::from_answers(&a).expect("complete"),
        Lang::En,
    );
    assert_eq!(filled(&sync), (Outcome::Sync, None, Some(5 * S), None));
    a.set(ExternalCall, true).set(KeepAcceptingWhenDown, false);
    let d = Decision::from_answers(&a).expect("complete");
    assert_eq!(wait_when_stated(&d), 10 * MIN);
    let timeout = prefill(ProcessFacts::default(), d, Lang::En);
    assert_eq!(
        filled(&timeout),
        (Outcome::SyncTimeout, None, Some(3 * S), None)
    );
    a.set(KeepAcceptingWhenDown, true);
    let ticket = prefill(
        ProcessFacts::default(),
        Decision::from_answers(&a).expect("complete"),
        Lang::En,
    );
    assert_eq!(
        filled(&ticket),
        (Outcome::AsyncTicket, Some((30 * S, MIN)), None, None)
    );
    // An acceptable wait the facts state is kept.
    let facts = ProcessFacts {
        acceptable_wait_ms: Some(3 * S),
        ..ProcessFacts::default()
    };
    let stated = prefill(facts, decided(S, 500, Path::NoCall), Lang::En);
    assert_eq!(stated.process.acceptable_wait_ms, Some(3 * S));
    // Ticking "users can wait at most…" starts from the target when there is one.
    assert_eq!(wait_when_stated(&decided(S, 500, Path::NoCall)), S);
    assert_eq!(
        wait_when_stated(&decided(S, 5 * MIN, Path::NoCall)),
        10 * MIN
    );
}

/// The reasons name the numbers they came from, in both languages.
#[test]
fn reasons_name_the_numbers() {
    let reason = |d: &Decision, field, lang| default_reason(field, d, lang).unwrap_or_default();
    let pdf = decided(S, 5 * MIN, Path::NoCall);
    let cases = [
        (&pdf, FieldId::Timeout, Lang::En, "10 min per attempt: at least twice the p95 from the questions (5 min × 2 = 10 min), rounded up to a round value, so the slow tail finishes and a hung call still ends; the lease is twice the timeout (20 min), so a running job is never claimed again."),
        (&pdf, FieldId::Timeout, Lang::Ja, "1回10分：質問で答えた p95（5分）の2倍（10分）以上の切りのよい値です。遅い実行も終わり、固まった呼び出しは打ち切れます。リースはその2倍（20分）にして、実行中のジョブが再取得されないようにします。"),
        (&pdf, FieldId::AcceptableWait, Lang::En, "Not the response-time target from the questions (1 s): that bounds the response that hands out the ticket, and the result comes later. Say how long users can wait for it."),
    ];
    for (d, field, lang, want) in cases {
        assert_eq!(reason(d, field, lang), want, "{field:?} {lang:?}");
    }
    let short = decided(500, 1_234, Path::NoCall);
    let text = reason(&short, FieldId::Timeout, Lang::En);
    assert!(text.starts_with("30 s per attempt (never less)"), "{text}");
    assert!(
        text.contains("1,234 ms") && text.contains("2,468 ms"),
        "{text}"
    );
    let long = decided(S, 10 * H, Path::NoCall);
    let text = reason(&long, FieldId::Timeout, Lang::En);
    assert!(
        text.contains("12 h") && text.contains("20 h") && text.contains("1 d"),
        "{text}"
    );
    let sync = decided(1_500, 800, Path::NoCall);
    assert_eq!(
        reason(&sync, FieldId::CallTimeout, Lang::En),
        "The response-time target from the questions (1,500 ms): the call must end within it, so no user waits longer; the p95 (800 ms) fits inside."
    );
    assert_eq!(
        reason(&sync, FieldId::AcceptableWait, Lang::Ja),
        "質問で答えた応答時間の目標（1,500ミリ秒）です。利用者は応答の中で結果を待ちます。"
    );
    let capped = decided(Timing::MAX_MS, H, Path::NoCall);
    assert!(reason(&capped, FieldId::CallTimeout, Lang::En).contains("10 min, the field's limit"));
    // Fields the numbers do not set keep their fixed reason.
    assert!(reason(&pdf, FieldId::MaxAttempts, Lang::En).starts_with("5 attempts"));
}

/// Applies `change` to the sheet the numbers pre-fill and expects exactly `want`.
fn check_findings(s: JobSheet, change: impl Fn(&mut JobSheet), want: &[(&str, Severity)]) {
    let mut s = s;
    s.process.process_name = "invoice PDF".into();
    s.process.code_name = "render_invoice_pdf".into();
    s.process.trigger = "the user asks for the invoice".into();
    // The business key typed, and the keys built from it as the form builds them.
    s = SheetEdit::BusinessKey("invoice id".into())
        .apply(&s)
        .expect("a business key is taken");
    change(&mut s);
    for lang in Lang::ALL {
        let got: Vec<(&str, Severity)> = validate(&s, lang)
            .iter()
            .map(|f| (f.code, f.severity))
            .collect();
        assert_eq!(got, want, "{lang:?}");
    }
}

#[test]
fn the_checks_compare_the_sheet_with_the_numbers() {
    use Severity::{Error, Warning};
    let pdf = || sheet(S, 5 * MIN, Path::NoCall);
    let retry = |s: &mut JobSheet, timeout: u64| {
        if let Some(r) = s.retry.as_mut() {
            r.attempt_timeout_ms = timeout;
        }
    };
    // As pre-filled: no problem.
    check_findings(pdf(), |_| {}, &[]);
    // The attempt timeout under the handler's p95 is an error; at the p95 it is not.
    check_findings(
        pdf(),
        |s| retry(s, 4 * MIN),
        &[("attempt-timeout-under-p95", Error)],
    );
    check_findings(
        pdf(),
        |s| retry(s, 5 * MIN - 1),
        &[("attempt-timeout-under-p95", Error)],
    );
    check_findings(pdf(), |s| retry(s, 5 * MIN), &[]);
    // Under the p95 and not under the lease: both errors.
    check_findings(
        pdf(),
        |s| {
            retry(s, 30 * S);
            if let Some(r) = s.retry.as_mut() {
                r.lease_ms = 30 * S;
            }
        },
        &[
            ("lease-not-longer-than-timeout", Error),
            ("attempt-timeout-under-p95", Error),
        ],
    );
    // A p95 longer than any timeout the lease leaves room for: the pre-fill says so.
    check_findings(
        sheet(S, Timing::MAX_MS, Path::NoCall),
        |_| {},
        &[("attempt-timeout-under-p95", Error)],
    );
    // Synchronous: the call timeout against the target and the p95.
    let sync = || sheet(2 * S, 800, Path::NoCall);
    let call = |s: &mut JobSheet, ms: u64| {
        if let Some(y) = s.sync.as_mut() {
            y.call_timeout_ms = ms;
        }
    };
    check_findings(sync(), |_| {}, &[]);
    check_findings(sync(), |s| call(s, 800), &[]);
    check_findings(
        sync(),
        |s| call(s, 799),
        &[("call-timeout-under-p95", Warning)],
    );
    // Over the target: the acceptable wait (the target) already says so, once.
    check_findings(
        sync(),
        |s| call(s, 5 * S),
        &[("call-timeout-exceeds-wait", Warning)],
    );
    check_findings(
        sync(),
        |s| {
            call(s, 5 * S);
            s.process.acceptable_wait_ms = None;
        },
        &[("call-timeout-exceeds-target", Warning)],
    );
    check_findings(
        sync(),
        |s| {
            call(s, 5 * S);
            s.process.acceptable_wait_ms = Some(10 * S);
        },
        &[("call-timeout-exceeds-target", Warning)],
    );
    check_findings(
        sheet(Timing::MAX_MS, H, Path::NoCall),
        |_| {},
        &[("call-timeout-under-p95", Warning)],
    );
}

#[test]
fn the_messages_name_both_numbers_with_grouped_digits() {
    let mut s = sheet(S, 1_234_567, Path::NoCall);
    if let Some(r) = s.retry.as_mut() {
        r.attempt_timeout_ms = 1_000_001;
    }
    let message = |lang| {
        validate(&s, lang)
            .into_iter()
            .find(|f| f.code == "attempt-timeout-under-p95")
            .map(|f| f.message)
            .unwrap_or_default()
    };
    assert_eq!(
        message(Lang::En),
        "The attempt timeout (1,000,001 ms) is shorter than the handler's p95 from the questions (1,234,567 ms): more than 1 attempt in 20 is cut off before it can finish, and its retries are cut off the same way. Make it longer than the p95 (e.g. 1 h)."
    );
    assert_eq!(
        message(Lang::Ja),
        "1回のタイムアウト（1,000,001ミリ秒）が、質問で答えた処理の p95（1,234,567ミリ秒）より短くなっています。20回に1回を超える実行が終わる前に打ち切られ、再試行も同じように打ち切られます。p95 より長くしてください（例：1時間）。"
    );
    let mut y = sheet(2 * S, 1_500, Path::NoCall);
    y.process.acceptable_wait_ms = None;
    if let Some(c) = y.sync.as_mut() {
        c.call_timeout_ms = 12_345;
    }
    let messages: Vec<String> = validate(&y, Lang::En)
        .into_iter()
        .filter(|f| f.field == FieldId::CallTimeout)
        .map(|f| f.message)
        .collect();
    assert_eq!(
        messages,
        ["The call timeout (12,345 ms) is longer than the response-time target from the questions (2 s): a slow call keeps the user waiting past the target."]
    );
}

/// The sheet after the numbers change from `(target, p95)` to `(target2, p95_2)` (the same
/// path), the user's `edits` made in between.
fn renumbered(from: (u64, u64), to: (u64, u64), path: Path, edits: &[SheetEdit]) -> JobSheet {
    let mut s = sheet(from.0, from.1, path);
    for e in edits {
        s = e.clone().apply(&s).expect("in range");
    }
    for_decision(Some(&s), decided(to.0, to.1, path), Lang::En)
}

#[test]
fn changed_numbers_move_what_was_prefilled_and_never_what_was_typed() {
    use SheetEdit::{AcceptableWait, AttemptTimeoutMs, CallTimeoutMs, LeaseMs};
    let t = Outcome::AsyncTicket;
    type Case<'a> = ((u64, u64), (u64, u64), Path, &'a [SheetEdit], Filled);
    let cases: [Case; 9] = [
        // p95 5 min → 20 min: 10 / 20 min → 1 h / 2 h.
        (
            (S, 5 * MIN),
            (S, 20 * MIN),
            Path::NoCall,
            &[],
            (t, Some((H, 2 * H)), None, None),
        ),
        // A typed timeout stays; the lease nobody touched follows.
        (
            (S, 5 * MIN),
            (S, 20 * MIN),
            Path::NoCall,
            &[AttemptTimeoutMs(15 * MIN)],
            (t, Some((15 * MIN, 2 * H)), None, None),
        ),
        (
            (S, 5 * MIN),
            (S, 20 * MIN),
            Path::NoCall,
            &[LeaseMs(3 * H)],
            (t, Some((H, 3 * H)), None, None),
        ),
        // Synchronous: target 1 s → 2 s moves the call timeout and the acceptable wait.
        (
            (S, 500),
            (2 * S, 500),
            Path::NoCall,
            &[],
            (Outcome::Sync, None, Some(2 * S), Some(2 * S)),
        ),
        (
            (S, 500),
            (2 * S, 500),
            Path::NoCall,
            &[CallTimeoutMs(700), AcceptableWait(Some(5 * S))],
            (Outcome::Sync, None, Some(700), Some(5 * S)),
        ),
        // Unticked by the user: stays unticked.
        (
            (S, 500),
            (2 * S, 500),
            Path::NoCall,
            &[AcceptableWait(None)],
            (Outcome::Sync, None, Some(2 * S), None),
        ),
        // Sync → ticket: the wait taken from the target goes, a typed one stays.
        (
            (S, 500),
            (S, 5 * MIN),
            Path::NoCall,
            &[],
            (t, Some((10 * MIN, 20 * MIN)), None, None),
        ),
        (
            (S, 500),
            (S, 5 * MIN),
            Path::NoCall,
            &[AcceptableWait(Some(H))],
            (t, Some((10 * MIN, 20 * MIN)), None, Some(H)),
        ),
        // The same numbers: nothing moves.
        (
            (S, 5 * MIN),
            (S, 5 * MIN),
            Path::NoCall,
            &[AttemptTimeoutMs(30 * S)],
            (t, Some((30 * S, 20 * MIN)), None, None),
        ),
    ];
    for (from, to, path, edits, want) in cases {
        let got = filled(&renumbered(from, to, path, edits));
        assert_eq!(got, want, "{from:?} → {to:?} after {edits:?}");
    }
}

#[test]
fn numbers_given_or_taken_back_move_the_defaults_too() {
    let mut direct = Answers::new();
    direct
        .set(TimeTriggered, false)
        .set(NeedsResultNow, true)
        .set(QuestionId::WithinSeconds, true)
        .set(ExternalCall, false);
    let direct = Decision::from_answers(&direct).expect("complete");
    let plain = prefill(ProcessFacts::default(), direct.clone(), Lang::En);
    // Answered from numbers later: the fixed 5 s and the unstated wait take the target.
    let numbers = for_decision(Some(&plain), decided(S, 500, Path::NoCall), Lang::En);
    assert_eq!(filled(&numbers), (Outcome::Sync, None, Some(S), Some(S)));
    // Back to a plain yes: the fixed defaults return.
    let back = for_decision(Some(&numbers), direct, Lang::En);
    assert_eq!(filled(&back), filled(&plain));
}

/// A value changed from a default the numbers gave names that default.
#[test]
fn a_changed_timeout_names_the_default_from_the_numbers() {
    let s = sheet(S, 5 * MIN, Path::NoCall);
    assert_eq!(changed_from_default(&s, Lang::En), vec![]);
    let s = SheetEdit::AttemptTimeoutMs(30 * S)
        .apply(&s)
        .expect("in range");
    let changed = changed_from_default(&s, Lang::En);
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert_eq!(changed[0].0, FieldId::Timeout);
    assert!(changed[0].1.starts_with("10 min"), "{changed:?}");
    // The acceptable wait the target gave, changed, names it; where the target gives none (a
    // ticket), a stated wait changes no default.
    let wait = |s: &JobSheet, ms| SheetEdit::AcceptableWait(ms).apply(s).expect("in range");
    let sync = wait(&sheet(S, 500, Path::NoCall), Some(5 * S));
    assert_eq!(
        changed_from_default(&sync, Lang::En),
        vec![(FieldId::AcceptableWait, "1 s".to_owned())]
    );
    let ticket = wait(&sheet(S, 5 * MIN, Path::NoCall), Some(10 * MIN));
    assert_eq!(changed_from_default(&ticket, Lang::En), vec![]);
}

/// Through the page's reducer: the sheet opens with the numbers, the numbers changed in the
/// wizard reach it when it is opened again, a typed value stays, and answering alone never
/// makes a sheet.
#[test]
fn the_wizard_numbers_reach_the_sheet_through_the_reducer() {
    let timing = |target, p95| {
        Action::Answer(
            QuestionId::WithinSeconds,
            Answer::Derived(Timing::new(target, p95).expect("in range")),
        )
    };
    let answers = [
        Action::Answer(TimeTriggered, Answer::Given(false)),
        Action::Answer(NeedsResultNow, Answer::Given(true)),
        timing(S, 5 * MIN),
    ];
    let s = answers
        .into_iter()
        .fold(AppState::new(Lang::En), AppState::after);
    assert_eq!(s.sheet, None, "answering makes no sheet");
    let s = s.after(Action::OpenSheet);
    let sheet = s.sheet.as_ref().expect("opened");
    assert_eq!(
        filled(sheet),
        (Outcome::AsyncTicket, Some((10 * MIN, 20 * MIN)), None, None)
    );
    let s = s.after(Action::EditSheet(SheetEdit::LeaseMs(45 * MIN)));
    let s = s.after(Action::ShowDecide).after(timing(S, 20 * MIN));
    assert_eq!(
        s.sheet.as_ref().map(filled),
        Some((Outcome::AsyncTicket, Some((10 * MIN, 45 * MIN)), None, None)),
        "the sheet changes when it is opened, not while answering"
    );
    let s = s.after(Action::OpenSheet);
    assert_eq!(
        s.sheet.as_ref().map(filled),
        Some((Outcome::AsyncTicket, Some((H, 45 * MIN)), None, None))
    );
    let codes: Vec<&str> = validate(s.sheet.as_ref().expect("open"), Lang::En)
        .iter()
        .map(|f| f.code)
        .collect();
    assert!(
        codes.contains(&"lease-not-longer-than-timeout"),
        "{codes:?}"
    );
}
