//! The header comment every export starts with, written here and nowhere else (a tidy test,
//! `tests/it/tidy.rs`, holds the targets' modules to it): what the file was generated from,
//! one comment line each. A target gives its lines (its own texts) or takes one of the two
//! line sets the targets share ([`labelled`]: SQS, Celery, Sidekiq, BullMQ; [`sentences`]:
//! Oban, River, pg-boss, Active Job, Temporal); [`write`] makes every line safe as a one-line
//! comment of every target's syntax and of a YAML stream, prefixes it, and ends with the line
//! naming the releases the export follows (`versions.rs`). No date, so the
//! same sheet gives the same text. Texts: `locales/worker/target-rows.yml` (the labelled
//! lines), `locales/worker/target-kit.yml` (the sentences).

use super::rows::comment;
use super::{kit, rows, TargetId};
use crate::domain::duration::exact;
use crate::domain::lang::Lang;
use crate::domain::sheet::fields::describe_backoff;
use crate::domain::sheet::JobSheet;
use crate::text::t;

/// The header comment: each of `lines`, then `follows` (the releases the export follows,
/// [`super::versions::header_line`]), made safe by [`comment`] (control characters as spaces,
/// `*/` broken, the characters YAML forbids dropped, trimmed) and written as
/// `"{prefix} {line}\n"`, `prefix` being the target's comment marker (`#`, `//`, `--`).
pub(crate) fn write(
    prefix: &str,
    follows: String,
    lines: impl IntoIterator<Item = String>,
) -> String {
    let mut out = String::new();
    for line in lines.into_iter().chain([follows]) {
        out.push_str(prefix);
        out.push(' ');
        out.push_str(&comment(&line));
        out.push('\n');
    }
    out
}

/// The labelled lines (SQS, Celery, Sidekiq, BullMQ), in `lang`: two fixed lines first
/// (Python reads an encoding declaration from line 1 or 2 and Ruby from line 1, so user text
/// there could change how the file is read), the process, the trigger, the retry values, the
/// idempotency key, the errors, the dead letter and who is told, the load.
pub(crate) fn labelled(sheet: &JobSheet, target: TargetId, lang: Lang) -> Vec<String> {
    let l = lang.code();
    let p = &sheet.process;
    let mut lines = vec![
        t!(
            "target.rows.generated",
            locale = l,
            target = target.label_in(lang)
        )
        .into_owned(),
        t!(
            "target.rows.generated-report",
            locale = l,
            target = target.label_in(lang)
        )
        .into_owned(),
        // The name in code in brackets where the sheet gives one (no empty "()").
        comment(&super::text::named(
            &p.process_name,
            &p.code_name,
            lang == Lang::Ja,
        )),
    ];
    if !p.trigger.trim().is_empty() {
        lines.push(format!(
            "{}: {}",
            t!("target.rows.trigger", locale = l),
            comment(&p.trigger)
        ));
    }
    if let Some(r) = &sheet.retry {
        lines.push(format!(
            "{}: {} · {}: {} · {}: {} · {}: {}",
            t!("target.rows.attempts", locale = l),
            r.max_attempts,
            t!("target.rows.wait", locale = l),
            describe_backoff(&r.backoff, lang),
            t!("target.rows.timeout", locale = l),
            exact(r.attempt_timeout_ms, lang),
            t!("target.rows.lease", locale = l),
            exact(r.lease_ms, lang),
        ));
        let labelled =
            |label: &str, value: &str| format!("{}: {}", t!(label, locale = l), comment(value));
        lines.push(labelled("target.rows.key", &r.idempotency_key));
        lines.push(labelled(
            "target.rows.retryable",
            &rows::list_text(&r.retryable_errors, lang),
        ));
        lines.push(labelled(
            "target.rows.non-retryable",
            &rows::list_text(&r.non_retryable_errors, lang),
        ));
    }
    if let Some(f) = &sheet.failure {
        lines.push(format!(
            "{}: {} · {}: {}",
            t!("target.rows.dead-letter", locale = l),
            comment(&f.dead_letter),
            t!("target.rows.notify", locale = l),
            comment(&f.notify)
        ));
    }
    // The load section's numbers, only when the sheet gives some.
    lines.extend(super::knobs::comment_line(sheet, lang));
    lines
}

/// The sentences (Oban, River, pg-boss, Active Job, Temporal), in `lang`: what the file is and
/// where it came from, the trigger, the retry values, the errors, the idempotency key, the
/// dead letter and who is told, the load.
pub(crate) fn sentences(sheet: &JobSheet, target: TargetId, lang: Lang) -> Vec<String> {
    let l = lang.code();
    let c = super::text::comment;
    let p = &sheet.process;
    // The name in code in brackets where the sheet gives one (no empty "()", as every
    // header: `text::named`), the trigger where it is stated.
    let named = super::text::named(&p.process_name, &p.code_name, lang == Lang::Ja);
    let mut lines = vec![t!(
        "target.kit.header.title",
        locale = l,
        name = c(&named),
        target = target.label_in(lang)
    )
    .into_owned()];
    if !p.trigger.trim().is_empty() {
        lines.push(
            t!(
                "target.kit.header.trigger",
                locale = l,
                trigger = c(&p.trigger)
            )
            .into_owned(),
        );
    }
    if let Some(r) = &sheet.retry {
        lines.push(
            t!(
                "target.kit.header.retry",
                locale = l,
                attempts = r.max_attempts,
                wait = describe_backoff(&r.backoff, lang),
                timeout = exact(r.attempt_timeout_ms, lang),
                lease = exact(r.lease_ms, lang)
            )
            .into_owned(),
        );
        let errors = |list: &[String]| c(&kit::list_text(list, lang));
        lines.push(
            t!(
                "target.kit.header.errors",
                locale = l,
                retryable = errors(&r.retryable_errors),
                permanent = errors(&r.non_retryable_errors)
            )
            .into_owned(),
        );
        lines.push(
            t!(
                "target.kit.header.key",
                locale = l,
                key = c(&r.idempotency_key)
            )
            .into_owned(),
        );
    }
    if let Some(f) = &sheet.failure {
        lines.push(
            t!(
                "target.kit.header.failure",
                locale = l,
                dead = c(&f.dead_letter),
                notify = c(&f.notify)
            )
            .into_owned(),
        );
    }
    // The load section's numbers, only when the sheet gives some.
    lines.extend(super::knobs::comment_line(sheet, lang));
    lines
}
