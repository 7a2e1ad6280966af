//! The permalink codec (`domain::share::link`): every outcome, an undecided process, a process
//! without a sheet and the whole example catalog survive encode → decode in both languages,
//! full and without notes; the short link is never longer and shows the same findings.
//! Bad fragments are in `share_bad_links.rs`, the committed vectors in `share_vectors.rs`,
//! generated and mutated fragments in `fuzz_share.rs`.

use crate::catalog_support::example_catalog;
use modality_advisor::domain::catalog::{Catalog, Process, ProcessId};
use modality_advisor::domain::flowchart::Outcome;
use modality_advisor::domain::share::link::{app_url, decode, embed_url, encode, PREFIX_V1};
use modality_advisor::domain::share::{Share, Shared};
use modality_advisor::domain::sheet::check::validate;
use modality_advisor::domain::sheet::prefill::prefill;
use modality_advisor::domain::sheet::{Decision, ProcessFacts};
use modality_advisor::domain::{Answers, Lang, QuestionId, Timing};

/// 2026-03-02 09:00 UTC, as the example catalog.
const T0: u64 = 1_772_442_000_000;

/// Text no renderer may trust: markup, both quotes, a right-to-left override, emoji, a line
/// break and Japanese.
pub const HOSTILE: &str =
    "<script>alert(\"x\")</script> it's \u{202E}evil\u{202C} 🙂👍🏽 & <b>予約</b>\n</svg>";

/// One process, shared in `lang`.
pub fn process_share(p: &Process, lang: Lang) -> Share {
    Share {
        lang,
        content: Shared::Process(Box::new(p.clone())),
    }
}

fn answers(pairs: &[(QuestionId, bool)]) -> Answers {
    let mut a = Answers::new();
    for (q, v) in pairs {
        a.set(*q, *v);
    }
    a
}

/// A process still being decided: an incomplete walk (needs the result now, not yet said
/// whether within seconds), no sheet.
pub fn undecided() -> Process {
    let mut p = Process::new(ProcessId("refund-request".into()), "Refund a stay", T0);
    p.set_answers(&answers(&[
        (QuestionId::TimeTriggered, false),
        (QuestionId::NeedsResultNow, true),
    ]));
    p
}

/// A decided process (async enqueue) whose sheet was never opened.
pub fn decided_without_sheet() -> Process {
    let mut p = Process::new(
        ProcessId("loyalty-points".into()),
        "Credit loyalty points",
        T0,
    );
    p.set_answers(&answers(&[
        (QuestionId::TimeTriggered, false),
        (QuestionId::NeedsResultNow, false),
    ]));
    p
}

/// A decided process (async ticket) with a sheet pre-filled in Japanese, Japanese names.
pub fn japanese() -> Process {
    let mut a = answers(&[
        (QuestionId::TimeTriggered, false),
        (QuestionId::NeedsResultNow, true),
    ]);
    a.set_timing(Timing::new(2_000, 30_000).expect("in range"));
    let facts = ProcessFacts {
        process_name: "団体予約の請求書PDFを発行する".into(),
        code_name: "issue_group_invoice".into(),
        trigger: "担当者が団体予約の請求書を依頼したとき".into(),
        arguments: vec!["団体予約ID".into()],
        business_key: "団体予約ID＋請求書の版".into(),
        ..ProcessFacts::default()
    };
    let mut p = Process::new(
        ProcessId("group-invoice-ja".into()),
        &facts.process_name,
        T0,
    );
    p.updated_ms = T0 + 60_000;
    p.set_answers(&a);
    let d = Decision::from_answers(&a).expect("a complete walk");
    p.sheet = Some(prefill(facts, d, Lang::Ja));
    p
}

/// A decided process (sync with a timeout) whose every free text is [`HOSTILE`].
pub fn hostile() -> Process {
    let mut a = answers(&[
        (QuestionId::TimeTriggered, false),
        (QuestionId::NeedsResultNow, true),
    ]);
    a.set_timing(Timing::new(3_000, 1_200).expect("in range"));
    a.set(QuestionId::ExternalCall, true)
        .set(QuestionId::KeepAcceptingWhenDown, false);
    let facts = ProcessFacts {
        process_name: HOSTILE.into(),
        code_name: HOSTILE.into(),
        trigger: HOSTILE.into(),
        arguments: vec![HOSTILE.into(), "\"quoted\" 'single'".into()],
        business_key: HOSTILE.into(),
        key_purpose: HOSTILE.into(),
        permanent_errors: vec![HOSTILE.into()],
        ..ProcessFacts::default()
    };
    let mut p = Process::new(ProcessId("hostile".into()), HOSTILE, T0);
    p.set_answers(&a);
    let d = Decision::from_answers(&a).expect("a complete walk");
    let mut sheet = prefill(facts, d, Lang::En);
    if let Some(s) = sheet.sync.as_mut() {
        s.on_timeout = HOSTILE.into();
    }
    p.sheet = Some(sheet);
    p
}

/// Every process the round trips cover: the example's (every outcome, one undecided) and the
/// ones above.
fn all_processes() -> Vec<Process> {
    let mut all = example_catalog().processes;
    all.extend([undecided(), decided_without_sheet(), japanese(), hostile()]);
    all
}

/// `share` → fragment → share, with and without `#`, and its short form the same way; the
/// short fragment is never the longer one.
fn assert_round_trip(share: &Share) {
    let full = encode(share);
    assert!(full.starts_with(PREFIX_V1), "{full:.40}");
    assert_eq!(decode(&full).as_ref(), Ok(share));
    assert_eq!(decode(&format!("#{full}")).as_ref(), Ok(share));
    let short = share.without_notes();
    let short_link = encode(&short);
    assert_eq!(decode(&short_link), Ok(short.clone()));
    assert!(
        short_link.len() <= full.len(),
        "short {} > full {}",
        short_link.len(),
        full.len()
    );
    assert_eq!(short.without_notes(), short, "without_notes is idempotent");
}

#[test]
fn every_outcome_an_undecided_process_and_one_without_a_sheet_round_trip_in_both_languages() {
    let all = all_processes();
    let outcomes: Vec<Option<Outcome>> = all.iter().map(|p| p.outcome).collect();
    for o in Outcome::ALL {
        assert!(outcomes.contains(&Some(o)), "{} not covered", o.id());
    }
    assert!(all
        .iter()
        .any(|p| p.outcome.is_none() && !p.answers.is_empty()));
    assert!(all.iter().any(|p| p.sheet.is_none() && p.outcome.is_some()));
    for p in &all {
        for lang in [Lang::En, Lang::Ja] {
            assert_round_trip(&process_share(p, lang));
        }
    }
}

#[test]
fn the_example_catalog_round_trips_in_both_languages_and_through_the_app_and_embed_links() {
    let mut catalog = example_catalog();
    catalog
        .processes
        .extend([undecided(), decided_without_sheet(), japanese(), hostile()]);
    for lang in [Lang::En, Lang::Ja] {
        let share = Share {
            lang,
            content: Shared::Catalog(catalog.clone()),
        };
        assert_round_trip(&share);
        let link = app_url("https://example.org/app/index.html#catalog", &share);
        assert!(link.starts_with("https://example.org/app/#share-v1:"));
        assert_eq!(
            decode(link.split_once('#').map_or("", |s| s.1)),
            Ok(share.clone())
        );
        let embed = embed_url("https://example.org/app/?x=1", &share);
        assert!(embed.starts_with("https://example.org/app/embed.html#share-v1:"));
        assert_eq!(decode(embed.split_once('#').map_or("", |s| s.1)), Ok(share));
    }
    let empty = Share {
        lang: Lang::En,
        content: Shared::Catalog(Catalog::new("")),
    };
    assert_round_trip(&empty);
}

#[test]
fn the_short_link_keeps_every_finding_of_every_sheet() {
    let mut catalog = example_catalog();
    catalog.processes.extend([japanese(), hostile()]);
    // Findings that read the fields the short link keeps: a job-id key, no notify, overlap.
    let mut odd = catalog.processes[2].clone();
    odd.id = ProcessId("odd".into());
    if let Some(s) = odd.sheet.as_mut() {
        if let Some(r) = s.retry.as_mut() {
            r.idempotency_key = "job id".into();
            r.lease_ms = r.attempt_timeout_ms;
        }
        if let Some(f) = s.failure.as_mut() {
            f.notify.clear();
        }
    }
    catalog.processes.push(odd);
    let share = Share {
        lang: Lang::En,
        content: Shared::Catalog(catalog),
    };
    let short = share.without_notes();
    let mut sheets = 0;
    for (full, cut) in share.processes().iter().zip(short.processes()) {
        assert_eq!((&full.id, &full.name), (&cut.id, &cut.name));
        assert_eq!(full.answers, cut.answers);
        assert_eq!(full.outcome, cut.outcome);
        let (Some(a), Some(b)) = (&full.sheet, &cut.sheet) else {
            assert_eq!(full.sheet.is_none(), cut.sheet.is_none(), "{}", full.id);
            continue;
        };
        sheets += 1;
        for lang in [Lang::En, Lang::Ja] {
            assert_eq!(
                validate(a, lang),
                validate(b, lang),
                "{} in {lang:?}",
                full.id
            );
        }
        assert_eq!(a.decision, b.decision);
        assert_eq!(
            a.retry, b.retry,
            "{}: the retry policy is kept whole",
            full.id
        );
    }
    assert_eq!(sheets, 9);
    assert!(!validate(
        short.processes()[9].sheet.as_ref().expect("a sheet"),
        Lang::En
    )
    .is_empty());
    // Something was left out: the shared example has notes and simulator choices.
    assert!(encode(&short).len() < encode(&share).len());
    assert!(short.processes().iter().all(|p| p.sim.is_none()));
}

#[test]
fn the_embed_pages_plain_reader_opens_what_the_strict_one_opens_and_refuses_the_rest() {
    use modality_advisor::domain::share::link::{decode_plain, LinkError};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/share-v1");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).expect("vectors").flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "txt") {
            let fragment = std::fs::read_to_string(&path).expect("reads");
            assert_eq!(
                decode_plain(&fragment),
                decode(&fragment),
                "{}",
                path.display()
            );
            n += 1;
        }
    }
    assert!(n >= 10, "{n} vectors");
    // A bad link is refused by both, for the same reason class.
    let catalog = example_catalog();
    let mut bad = catalog.clone();
    if let Some(r) = bad.processes[2]
        .sheet
        .as_mut()
        .and_then(|s| s.retry.as_mut())
    {
        r.max_attempts = 0;
    }
    let share = Share {
        lang: Lang::En,
        content: Shared::Catalog(bad),
    };
    let fragment = encode(&share);
    assert!(matches!(decode(&fragment), Err(LinkError::Invalid(_))));
    match decode_plain(&fragment) {
        Err(LinkError::Invalid(e)) => {
            let m = e.message(Lang::En);
            assert!(
                m.contains("content.catalog.processes[2]") && m.contains("max_attempts"),
                "{m}"
            );
        }
        other => panic!("{other:?}"),
    }
    let mut cut = fragment.clone();
    cut.truncate(fragment.len() / 2);
    assert!(decode_plain(&cut).is_err());
}

#[test]
fn a_link_wrapped_or_percent_encoded_by_a_mail_tool_still_opens() {
    let share = Share {
        lang: Lang::En,
        content: Shared::Process(Box::new(example_catalog().processes[2].clone())),
    };
    let fragment = encode(&share);
    let (a, b) = fragment.split_at(300);
    for mangled in [
        format!("{a}\n{b}"),
        format!("{a}%0A{b}"),
        format!("{a}%20{b}"),
        format!("{a} \r\n {b}"),
        fragment.replacen(':', "%3A", 1),
    ] {
        assert_eq!(decode(&mangled), Ok(share.clone()), "{}", &mangled[..20]);
    }
    // A link cut in the middle says it was cut, not that a valid letter is not allowed.
    let cut = &fragment[..fragment.len() / 2];
    assert!(
        matches!(
            decode(cut),
            Err(modality_advisor::domain::share::link::LinkError::NotBase64 { at: None })
                | Err(modality_advisor::domain::share::link::LinkError::Corrupt)
        ),
        "{:?}",
        decode(cut)
    );
}
