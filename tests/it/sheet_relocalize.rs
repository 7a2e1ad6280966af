//! Switching language: defaults nobody changed follow the language, the user's words stay.

use modality_advisor::domain::sheet::edit::SheetEdit;
use modality_advisor::domain::sheet::prefill::{prefill, relocalize};
use modality_advisor::domain::sheet::{Decision, JobSheet, ProcessFacts};
use modality_advisor::domain::{Answers, Lang, QuestionId};

/// Every complete decision reachable by answering the questions in order.
fn decisions() -> Vec<Decision> {
    let mut out = Vec::new();
    for bits in 0u32..32 {
        let mut a = Answers::new();
        for (i, &q) in QuestionId::ALL.iter().enumerate() {
            a.set(q, bits & (1 << i) != 0);
        }
        if let Some(d) = Decision::from_answers(&a) {
            if !out.iter().any(|x: &Decision| x.outcome == d.outcome) {
                out.push(d);
            }
        }
    }
    out
}

fn facts() -> ProcessFacts {
    ProcessFacts {
        process_name: "send mail".into(),
        business_key: "reservation id".into(),
        ..ProcessFacts::default()
    }
}

#[test]
fn untouched_defaults_become_the_other_language_for_every_outcome() {
    let ds = decisions();
    assert_eq!(ds.len(), 5, "all five outcomes are reachable");
    for d in ds {
        let en = prefill(facts(), d.clone(), Lang::En);
        let ja = prefill(facts(), d.clone(), Lang::Ja);
        assert_ne!(en, ja, "{:?}: the defaults differ by language", d.outcome);
        assert_eq!(relocalize(&en, Lang::Ja), ja, "{:?}", d.outcome);
        assert_eq!(relocalize(&ja, Lang::En), en, "{:?}", d.outcome);
    }
}

#[test]
fn edited_fields_stay_and_numbers_never_change() {
    let d = decisions()
        .into_iter()
        .find(|d| d.outcome.id() == "async-enqueue")
        .expect("async-enqueue");
    let en = prefill(facts(), d.clone(), Lang::En);
    let edited: JobSheet = [
        SheetEdit::Notify("ops channel #jobs".into()),
        SheetEdit::MaxAttempts(7),
    ]
    .into_iter()
    .try_fold(en, |s, e| e.apply(&s))
    .expect("valid edits");
    let ja = relocalize(&edited, Lang::Ja);
    let fresh_ja = prefill(facts(), d, Lang::Ja);
    let (f, r) = (ja.failure.as_ref().unwrap(), ja.retry.as_ref().unwrap());
    assert_eq!(f.notify, "ops channel #jobs");
    assert_eq!(r.max_attempts, 7);
    assert_eq!(
        f.dead_letter,
        fresh_ja.failure.as_ref().unwrap().dead_letter
    );
    assert_eq!(
        r.idempotency_key,
        fresh_ja.retry.as_ref().unwrap().idempotency_key
    );
    assert_eq!(ja.lang, Some(Lang::Ja));
}

#[test]
fn same_language_or_unknown_language_is_unchanged() {
    let d = decisions().remove(0);
    let en = prefill(facts(), d, Lang::En);
    assert_eq!(relocalize(&en, Lang::En), en);
    let old_file = JobSheet { lang: None, ..en };
    assert_eq!(relocalize(&old_file, Lang::Ja), old_file);
}
