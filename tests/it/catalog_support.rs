//! Shared inputs of the catalog tests: the example catalog as the code builds it (the file
//! `static/examples/reservation-system.catalog.json` is written from it), and the file itself.

use modality_advisor::domain::catalog::{Catalog, Process, ProcessId};
use modality_advisor::domain::session::SimChoice;
use modality_advisor::domain::sheet::prefill::prefill;
use modality_advisor::domain::sheet::{Decision, ProcessFacts};
use modality_advisor::domain::{Answers, Lang, QuestionId, Timing};

/// The shipped example catalog file.
pub const EXAMPLE_PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/static/examples/reservation-system.catalog.json"
);

/// 2026-03-02 09:00 UTC, the example's creation time (Unix ms).
const T0: u64 = 1_772_442_000_000;
const HOUR: u64 = 3_600_000;

fn facts(name: &str, code: &str, trigger: &str, args: &[&str], key: &str) -> ProcessFacts {
    ProcessFacts {
        process_name: name.into(),
        code_name: code.into(),
        trigger: trigger.into(),
        arguments: args.iter().map(|s| (*s).to_owned()).collect(),
        business_key: key.into(),
        ..ProcessFacts::default()
    }
}

/// A decided process with a full sheet pre-filled in English for `answers`.
fn decided(id: &str, f: ProcessFacts, answers: &Answers, n: u64) -> Process {
    let mut p = Process::new(ProcessId(id.into()), &f.process_name, T0 + n * HOUR);
    p.updated_ms = T0 + (n + 24) * HOUR;
    p.set_answers(answers);
    let decision = Decision::from_answers(answers).expect("a complete walk");
    p.sheet = Some(prefill(f, decision, Lang::En));
    p
}

fn yes_no(pairs: &[(QuestionId, bool)]) -> Answers {
    let mut a = Answers::new();
    for (q, v) in pairs {
        a.set(*q, *v);
    }
    a
}

/// The example: a small reservation system, every outcome, one process still undecided.
pub fn example_catalog() -> Catalog {
    use QuestionId::*;
    let mut c = Catalog::new("Reservation system");
    c.processes.push(decided(
        "check-availability",
        facts(
            "Check room availability",
            "check_availability",
            "a guest searches dates on the booking page",
            &["hotel id", "check-in date", "nights"],
            "search request id",
        ),
        &yes_no(&[
            (TimeTriggered, false),
            (NeedsResultNow, true),
            (WithinSeconds, true),
            (ExternalCall, false),
        ]),
        0,
    ));
    let mut pay = Answers::new();
    pay.set(TimeTriggered, false).set(NeedsResultNow, true);
    pay.set_timing(Timing::new(3_000, 1_200).expect("in range"));
    pay.set(ExternalCall, true)
        .set(KeepAcceptingWhenDown, false);
    let mut charge = decided(
        "charge-card",
        facts(
            "Charge the card at checkout",
            "charge_card",
            "the guest presses Pay",
            &["reservation id", "amount"],
            "reservation id",
        ),
        &pay,
        1,
    );
    if let Some(s) = charge.sheet.as_mut().and_then(|s| s.sync.as_mut()) {
        s.call_timeout_ms = 8_000;
        s.on_timeout = "show \"payment pending\" and confirm by mail once the PSP answers".into();
        // The card's outcome after a timeout is settled by asking the provider, by the key.
        if let Some(c) = s.call.as_mut() {
            c.resolve = modality_advisor::domain::sheet::Resolve::QueryStatus;
        }
    }
    c.processes.push(charge);
    let mut mail = decided(
        "confirmation-mail",
        facts(
            "Send the reservation confirmation mail",
            "send_confirmation_mail",
            "a reservation is confirmed",
            &["reservation id"],
            "reservation id",
        ),
        &yes_no(&[(TimeTriggered, false), (NeedsResultNow, false)]),
        2,
    );
    mail.sim = Some(SimChoice {
        seed: 42,
        ..SimChoice::default()
    });
    c.processes.push(mail);
    let mut pdf = Answers::new();
    pdf.set(TimeTriggered, false).set(NeedsResultNow, true);
    pdf.set_timing(Timing::new(3_000, 45_000).expect("in range"));
    c.processes.push(decided(
        "group-invoice-pdf",
        facts(
            "Issue the group booking invoice PDF",
            "issue_group_invoice",
            "an agent requests the invoice of a group booking",
            &["group booking id"],
            "group booking id + invoice version",
        ),
        &pdf,
        3,
    ));
    let mut hold = decided(
        "partner-hold",
        facts(
            "Hold a room at a partner hotel",
            "hold_partner_room",
            "a guest books a partner hotel's room",
            &["reservation id", "partner id"],
            "reservation id",
        ),
        &yes_no(&[
            (TimeTriggered, false),
            (NeedsResultNow, true),
            (WithinSeconds, true),
            (ExternalCall, true),
            (KeepAcceptingWhenDown, true),
        ]),
        4,
    );
    // Sized: 5 holds/s at the peak against the partner's 8 calls/s, and a burst of 200 when
    // a tour operator books a block (the partner's limit is the bottleneck).
    if let Some(l) = hold.sheet.as_mut().and_then(|s| s.load.as_mut()) {
        use modality_advisor::domain::sheet::load::{Burst, HandlerTime, Per, Rate};
        let per_s = |count| Rate {
            count,
            per: Per::Second,
        };
        l.arrival = Some(Rate {
            count: 3_600,
            per: Per::Hour,
        });
        l.peak = Some(per_s(5));
        l.burst = Some(Burst::AtOnce { count: 200 });
        l.handler = Some(HandlerTime::Lognormal {
            p50_ms: 400,
            p95_ms: 1_500,
        });
        l.failure_bp = Some(200);
        l.downstream.rate = Some(per_s(8));
        l.downstream.rate_burst = Some(10);
        l.target_wait_p95_ms = Some(30_000);
        l.drain_within_ms = Some(120_000);
        l.workers = Some(4);
        l.concurrency = Some(2);
    }
    c.processes.push(hold);
    let mut report = decided(
        "no-show-report",
        facts(
            "Nightly no-show report",
            "no_show_report",
            "every night at 02:30",
            &["business date"],
            "business date",
        ),
        &yes_no(&[(TimeTriggered, true)]),
        5,
    );
    if let Some(b) = report.sheet.as_mut().and_then(|s| s.batch.as_mut()) {
        b.schedule = "30 2 * * *".into();
    }
    c.processes.push(report);
    let mut waitlist = Process::new(
        ProcessId("waitlist-promotion".into()),
        "Promote the waitlist when a room frees up",
        T0 + 6 * HOUR,
    );
    waitlist.set_answers(&yes_no(&[(TimeTriggered, false)]));
    c.processes.push(waitlist);
    c
}

/// The example file's text.
pub fn example_text() -> String {
    match std::fs::read_to_string(EXAMPLE_PATH) {
        Ok(t) => t,
        Err(e) => panic!("cannot read {EXAMPLE_PATH}: {e}"),
    }
}
