//! Every text exists in both languages (rust-i18n returns the key for a missing one).

use modality_advisor::domain::{Lang, Outcome, QuestionId};

fn check(text: &str, what: &str) {
    assert!(!text.trim().is_empty(), "{what} is empty");
    assert!(
        !text.contains("question.") && !text.contains("outcome."),
        "{what} is a missing key: {text}"
    );
}

#[test]
fn questions_and_outcomes_have_every_text_in_both_languages() {
    for q in QuestionId::ALL {
        let en = (q.text(Lang::En), q.why(Lang::En));
        let ja = (q.text(Lang::Ja), q.why(Lang::Ja));
        assert_ne!(en, ja, "{q:?} is not translated");
        for lang in Lang::ALL {
            check(&q.text(lang), &format!("{q:?} text {lang:?}"));
            check(&q.why(lang), &format!("{q:?} why {lang:?}"));
            check(&q.reason(true, lang), &format!("{q:?} reason yes {lang:?}"));
            check(&q.reason(false, lang), &format!("{q:?} reason no {lang:?}"));
        }
    }
    for o in Outcome::ALL {
        for lang in Lang::ALL {
            check(&o.title(lang), &format!("{o:?} title {lang:?}"));
            check(&o.summary(lang), &format!("{o:?} summary {lang:?}"));
            let t = o.tradeoffs(lang);
            assert!(t.len() >= 2, "{o:?} {lang:?} has {} trade-offs", t.len());
            assert!(!o.next_steps(lang).is_empty(), "{o:?} {lang:?} next steps");
        }
        assert_eq!(
            o.tradeoffs(Lang::En).len(),
            o.tradeoffs(Lang::Ja).len(),
            "{o:?}"
        );
        assert_eq!(
            o.next_steps(Lang::En).len(),
            o.next_steps(Lang::Ja).len(),
            "{o:?}"
        );
        assert_ne!(o.title(Lang::En), o.title(Lang::Ja));
    }
}

#[test]
fn tradeoffs_name_what_each_choice_costs() {
    let all = |o: Outcome| o.tradeoffs(Lang::En).join(" ").to_lowercase();
    for o in [Outcome::AsyncEnqueue, Outcome::AsyncTicket] {
        let t = all(o);
        for word in ["state", "retr", "idempoten"] {
            assert!(t.contains(word), "{o:?} trade-offs lack {word}: {t}");
        }
    }
    assert!(all(Outcome::Batch).contains("schedule"));
    assert!(all(Outcome::Sync).contains("slowest"));
    assert!(all(Outcome::SyncTimeout).contains("coupled"));
}
