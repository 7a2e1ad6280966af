//! Issue 27 item 4: the names an export derives from the process's code name, and the sheet's
//! error lists in the code. A code name without ASCII letters (確認メールの送信) gives a valid,
//! stable identifier that differs from another process's (`Process…`, never `JobJob`); an
//! error the sheet describes in words ("入力の形式エラー") never reaches the code, which
//! compares class / type names, only a comment. The real parsers read the same names and
//! errors in `target_tools.rs` (its `named_cases`).

use crate::target_kit::example;
use modality_advisor::domain::queues::{report, text, Format, TargetError, TargetId};
use modality_advisor::domain::sheet::JobSheet;
use modality_advisor::domain::Lang;
use proptest::prelude::*;

/// A `snake_case` identifier as Python, Ruby (method), Elixir (atom) and Go read one.
fn is_snake(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|f| f.is_ascii_lowercase())
        && c.all(|x| x.is_ascii_lowercase() || x.is_ascii_digit() || x == '_')
        && !s.ends_with('_')
        && !s.contains("__")
        && s.len() <= text::MAX_IDENT
}

/// A `CamelCase` identifier: a Ruby constant, an Elixir alias, an exported Go name, a
/// TypeScript name.
fn is_camel(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|f| f.is_ascii_uppercase())
        && c.all(|x| x.is_ascii_alphanumeric())
        && s.len() <= text::MAX_IDENT
}

/// A DNS-1123 label of at most 52 characters (a Kubernetes CronJob's name), which is also an
/// SQS queue name (`[A-Za-z0-9_-]{1,80}`, with `-dlq` added) and a Cloud Tasks queue id.
fn is_label(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|f| f.is_ascii_lowercase())
        && s.chars()
            .all(|x| x.is_ascii_lowercase() || x.is_ascii_digit() || x == '-')
        && !s.ends_with('-')
        && s.len() <= text::MAX_LABEL
}

/// Code names of every kind: ASCII (punctuation too), Japanese, emoji, digits first, ASCII
/// inside Japanese, up to 200 characters.
fn code_name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[ -~]{0,40}",
        "[ぁ-んァ-ヶ一-龠]{1,20}",
        "[0-9]{1,3}[ぁ-ん]{1,5}",
        "[😀-🙏🎉📧 ]{1,8}",
        "[a-z_ ぁ-ん0-9]{1,30}",
        "[a-zA-Z0-9ぁ-ん一-龠_ -]{150,200}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn every_code_name_gives_valid_identifiers(name in code_name()) {
        let snake = text::snake_ident(&name);
        let camel = text::camel_ident(&name);
        let label = text::dns_label(&name);
        prop_assert!(is_snake(&snake), "{name:?} → snake {snake:?}");
        prop_assert!(is_camel(&camel), "{name:?} → camel {camel:?}");
        prop_assert!(is_label(&label), "{name:?} → label {label:?}");
        prop_assert!(label.len() + "-dlq".len() <= 80);
        // Stable: the same name, the same identifiers.
        prop_assert_eq!(&snake, &text::snake_ident(&name));
        prop_assert_eq!(&label, &text::dns_label(&name));
        // A name with letters other than ASCII carries its tag, whatever its length.
        if name.chars().any(|c| !c.is_ascii() && !c.is_whitespace()) {
            let tag = text::name_tag(&name);
            prop_assert!(snake.ends_with(&format!("_{tag}")), "{name:?} → {snake:?}");
            prop_assert!(label.ends_with(&format!("-{tag}")), "{name:?} → {label:?}");
        }
    }

    #[test]
    fn two_names_without_ascii_letters_never_share_an_identifier(
        a in "[ぁ-んァ-ヶ一-龠]{1,12}",
        b in "[ぁ-んァ-ヶ一-龠]{1,12}",
    ) {
        prop_assume!(a != b);
        prop_assert_ne!(text::camel_ident(&a), text::camel_ident(&b));
        prop_assert_ne!(text::dns_label(&a), text::dns_label(&b));
    }
}

#[test]
fn a_japanese_code_name_gives_process_and_its_tag() {
    // Pinned: an export's names must not move between versions.
    assert_eq!(text::name_tag("確認メールの送信"), "ef906c79");
    assert_eq!(text::snake_ident("確認メールの送信"), "process_ef906c79");
    assert_eq!(text::camel_ident("確認メールの送信"), "ProcessEf906c79");
    assert_eq!(text::dns_label("確認メールの送信"), "process-ef906c79");
    // ASCII names are as before: no tag.
    assert_eq!(
        text::snake_ident("send_reservation_mail"),
        "send_reservation_mail"
    );
    assert_eq!(
        text::camel_ident("Send reservation mail"),
        "SendReservationMail"
    );
    assert_eq!(text::dns_label("3 mails"), "job-3-mails");
    assert_eq!(text::snake_ident(""), "job");
    // The ASCII a mixed name has is kept, the tag tells two apart.
    let a = text::snake_ident("予約mail送信");
    let b = text::snake_ident("取消mail送信");
    assert!(
        a.starts_with("mail_") && b.starts_with("mail_") && a != b,
        "{a} {b}"
    );
}

/// The worked example named `code_name`.
fn named(code_name: &str) -> JobSheet {
    let mut s = example(Lang::Ja);
    s.process.code_name = code_name.to_owned();
    s
}

/// Every export of `sheet` that `report` gives: (target, format, text).
fn exports(sheet: &JobSheet) -> Vec<(TargetId, Format, String)> {
    let mut out = Vec::new();
    for target in TargetId::ALL {
        for &format in target.formats() {
            match report(sheet, target, Some(format), Lang::En) {
                Ok(r) => out.push((target, format, r.built.text)),
                Err(TargetError::NotApplicable { .. }) => {}
                Err(e) => panic!(
                    "{} {}: {}",
                    target.name(),
                    format.name(),
                    e.message(Lang::En)
                ),
            }
        }
    }
    out
}

/// The identifier `target` derives from `code_name`, as it appears in the export (`None`:
/// the target writes the name only as text, e.g. SQL's `job_type` literal).
fn identifier(target: TargetId, code_name: &str) -> Option<String> {
    Some(match target {
        TargetId::Sidekiq => format!("class {}Job", text::camel_ident(code_name)),
        TargetId::ActiveJob | TargetId::Oban | TargetId::River | TargetId::Temporal => {
            text::camel_ident(code_name)
        }
        TargetId::Celery => format!("def {}(", text::snake_ident(code_name)),
        TargetId::Bullmq
        | TargetId::PgBoss
        | TargetId::Sqs
        | TargetId::CloudTasks
        | TargetId::Kubernetes => text::dns_label(code_name),
        TargetId::SqlSqlite | TargetId::SqlPostgres => return None,
    })
}

#[test]
fn every_target_names_a_japanese_process_by_its_tag_and_two_processes_apart() {
    let (a, b) = ("確認メールの送信", "予約の取り消し");
    let (ea, eb) = (exports(&named(a)), exports(&named(b)));
    assert_eq!(ea.len(), eb.len());
    let mut seen = 0;
    for ((target, format, ta), (_, _, tb)) in ea.iter().zip(&eb) {
        let what = format!("{} {}", target.name(), format.name());
        assert!(!ta.contains("JobJob"), "{what}: {ta}");
        // The human name stays in the header comment.
        assert!(ta.contains(a), "{what} keeps the code name as written");
        if let Some(id) = identifier(*target, a) {
            assert!(id.to_lowercase().contains("ef906c79"), "{what}: {id}");
            // Temporal's TypeScript starts its variable lower-case.
            let has = |t: &str, id: &str| t.to_lowercase().contains(&id.to_lowercase());
            assert!(has(ta, &id), "{what} names the process {id}:\n{ta}");
            let other = identifier(*target, b).expect("the same target");
            assert!(!has(ta, &other) && has(tb, &other), "{what}: {other}");
            seen += 1;
        }
    }
    assert!(seen >= 13, "only {seen} exports name the process");
}

/// The descriptions among the mixed errors of `target_tools.rs`'s named cases.
const DESCRIPTIONS: [&str; 3] = [
    "メールサーバーの一時的な失敗",
    "入力の形式エラー",
    "malformed input",
];

/// Whether `line` is a comment in the target's language.
fn is_comment(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with('#') || t.starts_with("//") || t.starts_with("--")
}

/// The mixed errors: names of several languages and descriptions.
fn mixed() -> JobSheet {
    let mut s = example(Lang::En);
    let r = s.retry.as_mut().expect("the example retries");
    r.retryable_errors = vec![
        "Net::ReadTimeout".into(),
        "TimeoutError".into(),
        DESCRIPTIONS[0].into(),
    ];
    r.non_retryable_errors = vec![
        DESCRIPTIONS[1].into(),
        DESCRIPTIONS[2].into(),
        "ValidationError".into(),
        "ActiveRecord::RecordInvalid".into(),
        "*pgconn.PgError".into(),
        "23505".into(),
    ];
    s
}

#[test]
fn an_error_described_in_words_is_only_ever_a_comment() {
    for (target, format, t) in exports(&mixed()) {
        let what = format!("{} {}", target.name(), format.name());
        for line in t.lines() {
            for d in DESCRIPTIONS {
                assert!(
                    !line.contains(d) || is_comment(line),
                    "{what}: {d:?} outside a comment: {line}"
                );
            }
        }
    }
}

/// The line of `text` that starts (trimmed) with `start`.
fn line_of<'a>(text: &'a str, start: &str) -> &'a str {
    text.lines()
        .find(|l| l.trim_start().starts_with(start))
        .unwrap_or_else(|| panic!("no line {start:?} in\n{text}"))
}

#[test]
fn each_target_keeps_the_names_its_language_compares() {
    let sheet = mixed();
    let text_of = |target: TargetId, format: Format| {
        report(&sheet, target, Some(format), Lang::Ja)
            .expect("the example exports")
            .built
            .text
    };
    let sidekiq = text_of(TargetId::Sidekiq, Format::Ruby);
    assert_eq!(
        line_of(&sidekiq, "NON_RETRYABLE ="),
        "  NON_RETRYABLE = ['ValidationError', 'ActiveRecord::RecordInvalid'].freeze"
    );
    assert_eq!(
        line_of(&sidekiq, "RETRYABLE ="),
        "  RETRYABLE = ['Net::ReadTimeout', 'TimeoutError'].freeze"
    );
    // The comment tells the reader what to add.
    assert!(sidekiq.contains("  #   - 入力の形式エラー\n"), "{sidekiq}");
    assert!(
        sidekiq.contains("ActiveRecord::RecordInvalid）を加えてください"),
        "{sidekiq}"
    );
    let bullmq = text_of(TargetId::Bullmq, Format::TypeScript);
    assert_eq!(
        line_of(&bullmq, "export const NON_RETRYABLE"),
        "export const NON_RETRYABLE: string[] = [\"ValidationError\"];"
    );
    let pg_boss = text_of(TargetId::PgBoss, Format::JavaScript);
    assert!(
        pg_boss.contains("  //   - *pgconn.PgError\n  \"ValidationError\",\n  \"23505\",\n]"),
        "{pg_boss}"
    );
    let river = text_of(TargetId::River, Format::Go);
    assert!(
        river.contains("\t\"ValidationError\",\n\t\"*pgconn.PgError\",\n}"),
        "{river}"
    );
    let temporal = text_of(TargetId::Temporal, Format::Go);
    assert!(
        temporal.contains("NonRetryableErrorTypes: []string{\"ValidationError\"}"),
        "{temporal}"
    );
    let temporal_ts = text_of(TargetId::Temporal, Format::TypeScript);
    assert!(
        temporal_ts.contains("nonRetryableErrorTypes: [\n")
            && temporal_ts.contains("      \"ValidationError\",\n    ],"),
        "{temporal_ts}"
    );
    let celery = text_of(TargetId::Celery, Format::Python);
    assert!(celery.contains("(ValidationError,)"), "{celery}");
}

/// A sheet without a name in code or a trigger (both optional on the form): no export's
/// header leaves empty brackets after the process's name ("# Scratch import ()") or a trigger
/// line with nothing after its label, in either language.
#[test]
fn no_header_leaves_empty_brackets_or_an_empty_trigger() {
    let mut bad_lines = Vec::new();
    for lang in Lang::ALL {
        let mut s = example(lang);
        s.process.code_name = String::new();
        s.process.trigger = String::new();
        let name = s.process.process_name.clone();
        for target in TargetId::ALL {
            for &format in target.formats() {
                let Ok(r) = report(&s, target, Some(format), lang) else {
                    continue;
                };
                for line in r.built.text.lines() {
                    let l = line.trim_end();
                    let empty_brackets =
                        l.contains(&format!("{name} ()")) || l.contains(&format!("{name}（）"));
                    let empty_trigger = ["trigger:", "起点:", "Created when:", "起点："]
                        .iter()
                        .any(|label| l.ends_with(label));
                    if empty_brackets || empty_trigger {
                        bad_lines.push(format!(
                            "{} {} {lang:?}: {l}",
                            target.name(),
                            format.name()
                        ));
                    }
                }
            }
        }
    }
    assert!(bad_lines.is_empty(), "{}", bad_lines.join("\n"));
}
