//! Bidi control characters in user text (`domain::bidi`): no document the app writes carries
//! one raw — every export of a sheet with U+202E in each text field shows it as `<U+202E>`
//! (`\u202E` in JSON, which reads back the same) — and the sheet's check names each field
//! that holds one. Download file names are cut with their extension kept.

use modality_advisor::domain::bidi::{self, is_control, Shown};
use modality_advisor::domain::catalog::{Catalog, Process, ProcessId};
use modality_advisor::domain::export::protocol::{ExportFormat, ExportRequest, ExportSubject};
use modality_advisor::domain::export::target_panel;
use modality_advisor::domain::export::{
    file_name, file_stem, to_csv, to_json, to_markdown, to_tsv, MAX_STEM_BYTES, MAX_STEM_CHARS,
};
use modality_advisor::domain::queues::{report, TargetId};
use modality_advisor::domain::share::panel::panel;
use modality_advisor::domain::share::svg::metadata;
use modality_advisor::domain::share::{Share, Shared};
use modality_advisor::domain::sheet::check::{validate, Severity};
use modality_advisor::domain::sheet::import::import_json;
use modality_advisor::domain::sheet::prefill::prefill;
use modality_advisor::domain::sheet::{Decision, JobSheet, LayerKind, RetryLayer};
use modality_advisor::domain::{Answers, Lang, QuestionId};

use crate::sheet_support::example;

const RLO: &str = "\u{202E}";

/// The answers giving each outcome: batch, async-enqueue, async-ticket, sync, sync-timeout.
pub(crate) fn walks() -> Vec<Answers> {
    use QuestionId::*;
    let a = |steps: &[(QuestionId, bool)]| {
        steps
            .iter()
            .fold(Answers::new(), |a, (q, yes)| a.with(*q, *yes))
    };
    vec![
        a(&[(TimeTriggered, true)]),
        a(&[(TimeTriggered, false), (NeedsResultNow, false)]),
        a(&[
            (TimeTriggered, false),
            (NeedsResultNow, true),
            (WithinSeconds, false),
        ]),
        a(&[
            (TimeTriggered, false),
            (NeedsResultNow, true),
            (WithinSeconds, true),
            (ExternalCall, false),
        ]),
        a(&[
            (TimeTriggered, false),
            (NeedsResultNow, true),
            (WithinSeconds, true),
            (ExternalCall, true),
            (KeepAcceptingWhenDown, false),
        ]),
    ]
}

/// `text` with a right-to-left override in its middle: `ab`, U+202E, `cd <text>`.
fn hostile(text: &str) -> String {
    format!("ab{RLO}cd {text}")
}

/// The example's facts walked to `answers`, then U+202E put into every text field the sheet of
/// that outcome has (and one more retry layer, named with it).
pub(crate) fn hostile_sheet(answers: &Answers, lang: Lang) -> JobSheet {
    let decision = Decision::from_answers(answers).expect("a complete walk");
    let mut s = prefill(example(lang).process, decision, lang);
    let p = &mut s.process;
    for t in [
        &mut p.process_name,
        &mut p.code_name,
        &mut p.trigger,
        &mut p.business_key,
    ] {
        *t = hostile(t);
    }
    p.arguments.push(hostile("argument"));
    if let Some(r) = &mut s.retry {
        r.idempotency_key = hostile(&r.idempotency_key);
        r.retryable_errors.push(hostile("retryable"));
        r.non_retryable_errors.push(hostile("permanent"));
        r.layers.push(RetryLayer {
            layer: LayerKind::Sdk,
            attempts: 2,
            what: hostile("SDK"),
        });
    }
    if let Some(f) = &mut s.failure {
        for t in [&mut f.dead_letter, &mut f.notify, &mut f.rerun] {
            *t = hostile(t);
        }
    }
    if let Some(t) = &mut s.ticket {
        t.states.push(hostile("state"));
        t.completion = hostile(&t.completion);
    }
    if let Some(b) = &mut s.batch {
        b.schedule = hostile(&b.schedule);
        b.partial_failure = hostile(&b.partial_failure);
    }
    if let Some(y) = &mut s.sync {
        y.on_timeout = hostile(&y.on_timeout);
    }
    s
}

/// A process holding `sheet`, its name with U+202E too.
fn process_of(sheet: &JobSheet, answers: &Answers) -> Process {
    let mut p = Process::new(ProcessId("p-1".into()), &sheet.process.process_name, 1_000);
    p.set_answers(answers);
    p.sheet = Some(sheet.clone());
    p
}

fn assert_no_raw(what: &str, text: &str) {
    if let Some(i) = text.find(is_control) {
        let start = text[..i].char_indices().rev().nth(30).map_or(0, |(j, _)| j);
        panic!(
            "{what}: a raw bidi control at byte {i}: …{}",
            &text[start..i]
        );
    }
}

/// Every text export of `sheet` (and of a catalog and a share holding it), by name.
pub(crate) fn exports(sheet: &JobSheet, answers: &Answers, lang: Lang) -> Vec<(String, String)> {
    let mut out = vec![
        ("markdown".to_owned(), to_markdown(sheet, lang)),
        ("tsv".to_owned(), to_tsv(sheet, lang)),
        ("csv".to_owned(), to_csv(sheet, lang, true)),
        ("json".to_owned(), to_json(sheet)),
    ];
    let mut catalog = Catalog::new(&hostile("System"));
    catalog.processes.push(process_of(sheet, answers));
    for format in [
        ExportFormat::Markdown,
        ExportFormat::Tsv,
        ExportFormat::Csv { bom: false },
        ExportFormat::Json,
    ] {
        let request = ExportRequest {
            now_ms: None,
            id: 1,
            lang,
            format,
            subject: ExportSubject::Catalog(catalog.clone()),
        };
        out.push((format!("catalog {format:?}"), request.render()));
    }
    let shares = [
        Shared::Process(Box::new(process_of(sheet, answers))),
        Shared::Catalog(catalog),
    ];
    for content in shares {
        let share = Share { lang, content };
        let p = panel(&share, "https://tools.example/advisor/", lang);
        for key in [
            "md",
            "md-azure",
            "rich",
            "rich-plain",
            "svg",
            "adr",
            "embed",
        ] {
            out.push((format!("share {key}"), p.item(key).to_owned()));
        }
    }
    for target in TargetId::ALL {
        for format in target.formats() {
            if let Ok(r) = report(sheet, target, Some(*format), lang) {
                out.push((format!("{target:?} {format:?}"), r.built.text.clone()));
            }
            let panel = target_panel::render(sheet, target, Some(*format), lang);
            out.push((format!("{target:?} {format:?} panel"), panel.html));
        }
    }
    out
}

#[test]
fn no_export_carries_a_raw_bidi_control() {
    for lang in Lang::ALL {
        for answers in walks() {
            let sheet = hostile_sheet(&answers, lang);
            let outcome = sheet.decision.outcome.id();
            let all = exports(&sheet, &answers, lang);
            assert!(all.len() > 30, "{outcome}: {} exports", all.len());
            for (what, text) in &all {
                assert_no_raw(&format!("{lang:?} {outcome} {what}"), text);
                assert!(!text.is_empty(), "{lang:?} {outcome} {what} is empty");
            }
            // Shown, not dropped: the code point is there for a reader to see.
            for (what, text) in all.iter().take(3) {
                // The Markdown writes `<` as `&lt;` (the same to the eye).
                let shown = if what == "markdown" {
                    "ab&lt;U+202E&gt;cd"
                } else {
                    "ab<U+202E>cd"
                };
                assert!(text.contains(shown), "{lang:?} {outcome} {what}: {text}");
            }
        }
    }
}

#[test]
fn the_json_files_read_back_the_same_text() {
    for answers in walks() {
        let sheet = hostile_sheet(&answers, Lang::En);
        let json = to_json(&sheet);
        assert!(json.contains("ab\\u202Ecd"), "{json}");
        assert_eq!(import_json(&json, Lang::En).ok(), Some(sheet.clone()));
        let share = Share {
            lang: Lang::En,
            content: Shared::Process(Box::new(process_of(&sheet, &answers))),
        };
        let svg = panel(&share, "https://tools.example/", Lang::En)
            .item("svg")
            .to_owned();
        let back = metadata(&svg).expect("the card's metadata reads back");
        assert_eq!(back, share);
    }
}

#[test]
fn show_writes_each_control_in_its_syntax() {
    let text = "a\u{202A}b\u{202E}c\u{2066}d\u{2069}e\u{200E}f\u{200F}g\u{061C}h";
    assert_eq!(
        bidi::show(text, Shown::Text),
        "a<U+202A>b<U+202E>c<U+2066>d<U+2069>e<U+200E>f<U+200F>g<U+061C>h"
    );
    assert_eq!(bidi::show("x\u{202E}y", Shown::Markup), "x&lt;U+202E&gt;y");
    assert_eq!(bidi::show("x\u{202E}y", Shown::Json), "x\\u202Ey");
    // Other invisible characters are not bidi controls.
    assert_eq!(
        bidi::show("a\u{200B}b\u{FEFF}c", Shown::Text),
        "a\u{200B}b\u{FEFF}c"
    );
    assert_eq!(
        bidi::controls("\u{202E}a\u{200F}\u{202E}"),
        ["U+202E", "U+200F"]
    );
}

/// One text field: how to put the override in, the finding's code and the field's name.
type Case = (fn(&mut JobSheet), &'static str, &'static str, &'static str);

fn cases() -> Vec<Case> {
    vec![
        (
            |s| s.process.process_name.push_str(RLO),
            "process-name",
            "Process name",
            "プロセス名（日本語名）",
        ),
        (
            |s| s.process.code_name.push_str(RLO),
            "code-name",
            "Name in code",
            "コード上の名前",
        ),
        (
            |s| s.process.trigger.push_str(RLO),
            "trigger",
            "Trigger",
            "起点",
        ),
        (
            |s| s.process.arguments.push(RLO.into()),
            "arguments",
            "Arguments",
            "引数",
        ),
        (
            |s| s.process.business_key.push_str(RLO),
            "business-key",
            "Business key",
            "業務キー",
        ),
        (
            |s| {
                s.retry
                    .as_mut()
                    .map_or((), |r| r.idempotency_key.push_str(RLO))
            },
            "idempotency-key",
            "Idempotency key",
            "冪等キー",
        ),
        (
            |s| {
                s.retry
                    .as_mut()
                    .map_or((), |r| r.retryable_errors.push(RLO.into()))
            },
            "retryable-errors",
            "Retryable errors",
            "再試行するエラー",
        ),
        (
            |s| s.failure.as_mut().map_or((), |f| f.notify.push_str(RLO)),
            "notify",
            "Notify",
            "通知先",
        ),
        (
            |s| s.failure.as_mut().map_or((), |f| f.rerun.push_str(RLO)),
            "rerun",
            "Re-run procedure",
            "再実行の手順",
        ),
    ]
}

#[test]
fn the_check_names_the_field_holding_a_bidi_control() {
    for lang in Lang::ALL {
        let clean = example(lang);
        assert!(
            validate(&clean, lang)
                .iter()
                .all(|f| !f.code.starts_with("bidi-control")),
            "the example has no bidi finding"
        );
        for (put, input, en, ja) in cases() {
            let mut sheet = clean.clone();
            put(&mut sheet);
            let found: Vec<_> = validate(&sheet, lang)
                .into_iter()
                .filter(|f| f.code.starts_with("bidi-control"))
                .collect();
            assert_eq!(found.len(), 1, "{input}: {found:?}");
            let f = &found[0];
            assert_eq!(f.code, format!("bidi-control-{input}"));
            assert_eq!(f.severity, Severity::Warning);
            let name = if lang == Lang::En { en } else { ja };
            assert!(f.message.contains(name), "{input}: {}", f.message);
            assert!(f.message.contains("U+202E"), "{}", f.message);
            assert!(!f.message.contains(is_control), "{}", f.message);
        }
    }
}

#[test]
fn a_finding_quoting_user_text_shows_its_controls() {
    let mut sheet = example(Lang::En);
    if let Some(r) = &mut sheet.retry {
        r.idempotency_key = format!("message id{RLO} + confirm-mail");
    }
    let all = validate(&sheet, Lang::En);
    let quoting = all
        .iter()
        .find(|f| f.code == "key-without-business-key")
        .expect("the key does not hold the business key");
    assert!(
        quoting
            .message
            .contains("“message id<U+202E> + confirm-mail”"),
        "{}",
        quoting.message
    );
    for f in &all {
        assert!(!f.message.contains(is_control), "{}", f.message);
    }
}

#[test]
fn a_download_name_is_cut_and_keeps_its_extension() {
    for (name, fallback, suffix) in [
        ("x".repeat(10_000), "job-sheet", ".sheet.md"),
        (
            format!("{RLO}{}", "x".repeat(9_999)),
            "job-sheet",
            ".sheet.json",
        ),
        ("日".repeat(10_000), "catalog", ".catalog.csv"),
        ("𠮷".repeat(500), "job", ".sqs.tf"),
        (
            "../../etc/passwd\u{0}\"<>|:*?".into(),
            "job-sheet",
            ".sheet.tsv",
        ),
        (RLO.into(), "job-sheet", ".sheet.md"),
    ] {
        let got = file_name(&name, fallback, suffix);
        let stem = got.strip_suffix(suffix).expect("the extension is kept");
        assert!(stem.chars().count() <= MAX_STEM_CHARS, "{got}");
        assert!(stem.len() <= MAX_STEM_BYTES, "{got}: {} bytes", stem.len());
        assert!(got.len() <= 255, "{got}");
        assert!(!stem.is_empty(), "{name:?}");
        assert!(
            stem.chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '_'),
            "{got}"
        );
    }
    assert_eq!(
        file_name(RLO, "job-sheet", ".sheet.md"),
        "job-sheet.sheet.md"
    );
    assert_eq!(file_stem(&"x".repeat(10_000)), "x".repeat(MAX_STEM_CHARS));
}
