//! The app's "Check an existing configuration" (issue 27 item 2), in the document worker: an
//! audited file as new processes for the catalog ([`ReadDone::Audited`]) — one per job, its
//! sheet what the file says (the system's defaults where it says nothing, listed as not
//! stated), named after the job — with what the audit says about each, in English and in
//! Japanese, kept with the process ([`AuditOrigin`]); or why the file cannot be read, naming the file and the line
//! ([`ReadDone::AuditRefused`]). The page adds the processes under ids unused in its catalog.
//! Lock and requirement files given with the configuration pin the releases the jobs are
//! audited for ([`super::pins`]); each job's notes say the release followed and where it
//! came from, or that it was assumed and which lock file to add.

use super::job::AuditJob;
use super::job_version::Asker;
use super::pins::{self, Pin};
use crate::domain::catalog::import::read_sheet_as_process;
use crate::domain::catalog::origin::{
    hold, AuditOrigin, MAX_FILE_CHARS, MAX_NOTES, MAX_NOTE_CHARS,
};
use crate::domain::catalog::{Catalog, MAX_NAME_CHARS};
use crate::domain::export::read::ReadDone;
use crate::domain::sheet::check::Severity;
use crate::domain::sheet::FieldId;
use crate::domain::Lang;
use crate::text::t;

/// The most jobs one file adds; a file with more is refused, naming its count (a catalog holds at most
/// [`MAX_PROCESSES`](crate::domain::catalog::MAX_PROCESSES); the page refuses a merge past it).
pub const MAX_JOBS: usize = 200;

/// The pins of the lock files given (name, text), and for each one that cannot be read the
/// note saying so, in English and in Japanese.
fn pins_of(lock_files: &[(String, String)]) -> (Vec<Pin>, Vec<(String, String)>) {
    let mut found = Vec::new();
    let mut unread = Vec::new();
    for (name, text) in lock_files {
        match pins::read(name, text) {
            Ok(p) => found.extend(p),
            Err(e) => {
                let say = |lang: Lang| {
                    let why = match e.at() {
                        Some(at) => format!("{} ({}:{})", e.message(lang), name, at.line),
                        None => e.message(lang),
                    };
                    t!(
                        "audit-note.version.pins-unread",
                        locale = lang.code(),
                        file = name.as_str(),
                        why = why
                    )
                    .into_owned()
                };
                unread.push((say(Lang::En), say(Lang::Ja)));
            }
        }
    }
    (found, unread)
}

/// Reads `text` (named `file_name`) as a configuration and answers as the page asks
/// ([`ReadAs::Configuration`](crate::domain::export::read::ReadAs::Configuration)): the new
/// processes (ids `p-…` from `seed`, created at `now_ms`, in a catalog named
/// `catalog_name`), each audited for the release `lock_files` (name, text) pin, and their
/// notes, or the refusal. Never panics.
pub fn read(
    file_name: &str,
    text: &str,
    lock_files: &[(String, String)],
    catalog_name: &str,
    seed: u64,
    now_ms: u64,
    lang: Lang,
) -> ReadDone {
    let file = if file_name.trim().is_empty() {
        t!("audit-note.pasted", locale = lang.code()).into_owned()
    } else {
        file_name.trim().to_owned()
    };
    let refused = |en: String, ja: String| ReadDone::AuditRefused { en, ja };
    let (pins, unread) = pins_of(lock_files);
    // Read once; the jobs are worded in both languages from the same reading.
    let jobs = match super::read(&file, text) {
        Ok((_, found)) => {
            let say = |lang: Lang| -> Vec<AuditJob> {
                found
                    .iter()
                    .map(|f| {
                        let choice = pins::choose(f.system, None, &pins);
                        super::audit_job_for(&file, f, &choice, Asker::App, lang)
                    })
                    .collect()
            };
            (say(Lang::En), say(Lang::Ja))
        }
        Err(e) => {
            let say = |lang: Lang| {
                let l = lang.code();
                let why = sentence(e.message(lang), lang);
                match e.at() {
                    Some(at) => t!(
                        "audit-note.refused-at",
                        locale = l,
                        file = file.as_str(),
                        line = at.line,
                        why = why
                    )
                    .into_owned(),
                    None => t!(
                        "audit-note.refused",
                        locale = l,
                        file = file.as_str(),
                        why = why
                    )
                    .into_owned(),
                }
            };
            return refused(say(Lang::En), say(Lang::Ja));
        }
    };
    let (en, ja) = jobs;
    if en.is_empty() {
        let say = |l: &str| t!("audit-note.no-job", locale = l, file = file.as_str()).into_owned();
        return refused(say("en"), say("ja"));
    }
    if en.len() > MAX_JOBS {
        let say = |l: &str| {
            t!(
                "audit-note.too-many",
                locale = l,
                file = file.as_str(),
                n = en.len(),
                most = MAX_JOBS
            )
            .into_owned()
        };
        return refused(say("en"), say("ja"));
    }
    let mut catalog = Catalog::new(catalog_name);
    for (i, (job_en, job_ja)) in en.iter().zip(&ja).enumerate() {
        let id = catalog.fresh_id(seed.wrapping_add(i as u64));
        let job = if lang == Lang::Ja { job_ja } else { job_en };
        let mut sheet = job.sheet.clone();
        sheet.process.process_name = process_name(job, &file);
        // A value the system takes but a sheet cannot hold (SQS's visibility timeout of 0 s)
        // is brought to the nearest one it holds and said first; the findings keep the
        // file's value.
        let first: Vec<(String, String)> = fitted(job, &mut sheet)
            .iter()
            .map(|f| (f.note(Lang::En), f.note(Lang::Ja)))
            .chain(unread.iter().cloned())
            .collect();
        let json = crate::domain::json::compact(&sheet);
        let process = match read_sheet_as_process(&json, lang, id.clone(), now_ms) {
            Ok(p) => p,
            Err(e) => {
                let say = |lang: Lang| {
                    t!(
                        "audit-note.sheet-refused",
                        locale = lang.code(),
                        file = file.as_str(),
                        line = job.line,
                        why = e.message(lang)
                    )
                    .into_owned()
                };
                return refused(say(Lang::En), say(Lang::Ja));
            }
        };
        let mut process = process;
        process.audit = hold(origin(&file, job_en, job_ja, &first));
        catalog.processes.push(process);
    }
    ReadDone::Audited { catalog }
}

/// What `sheet` (the sheet of `job`) holds at another value than the file states: its
/// durations brought into range ([`fit`]), and first the attempts past the sheet's 100, which
/// the job's sheet already holds at 100 while its schedule keeps the file's count — said when
/// the file states them (SQS `maxReceiveCount = 1000`), as a "not stated" note says it for a
/// default.
fn fitted(job: &AuditJob, sheet: &mut crate::domain::sheet::JobSheet) -> Vec<Fitted> {
    let mut out = fit(sheet);
    // Stated, and not already said by the job's own finding (SQS's `maxReceiveCount` past
    // 100 is one: its words are the CLI's too).
    let stated = !job
        .not_stated
        .iter()
        .any(|n| n.path == "retry.max_attempts")
        && !job
            .findings
            .iter()
            .any(|f| f.code == "setting-not-in-sheet" && f.field == "retry.max_attempts");
    if let (Some(n), Some(r), true) = (job.schedule.attempts, sheet.retry.as_ref(), stated) {
        if n > r.max_attempts {
            use crate::domain::sheet::import::limits::MAX_ATTEMPTS;
            out.insert(
                0,
                Fitted {
                    path: "retry.max_attempts",
                    from: u64::from(n),
                    range: MAX_ATTEMPTS,
                    to: u64::from(r.max_attempts),
                },
            );
        }
    }
    out
}

/// A number of the file the sheet holds at another value: its path, the file's value, the
/// sheet's range and the value the sheet holds (milliseconds).
struct Fitted {
    path: &'static str,
    from: u64,
    range: (u64, u64),
    to: u64,
}

impl Fitted {
    /// The note saying so, first among the job's notes (attempts as a count, the rest as
    /// durations).
    fn note(&self, lang: Lang) -> String {
        let ms = |v: u64| match self.path {
            "retry.max_attempts" => crate::domain::number::group_thousands(v),
            _ => crate::domain::duration::exact(v, lang),
        };
        t!(
            "audit-note.fitted",
            locale = lang.code(),
            field = field_words(self.path, lang),
            from = ms(self.from),
            min = ms(self.range.0),
            max = ms(self.range.1),
            to = ms(self.to)
        )
        .into_owned()
    }
}

/// Brings the sheet's durations into the ranges a sheet holds
/// ([`limits`](crate::domain::sheet::import::limits)): a system can take values a sheet
/// cannot (SQS a visibility timeout of 0 s: the message is visible again at once; the
/// sheet's lease is at least 1 ms), and one such value must not refuse the file's other
/// jobs. Returns what moved, in the order the sheet's check reads the fields (the cap after
/// the base it must reach).
fn fit(sheet: &mut crate::domain::sheet::JobSheet) -> Vec<Fitted> {
    use crate::domain::sheet::import::limits;
    use crate::domain::sheet::BackoffKind;
    let mut out = Vec::new();
    let mut one = |path: &'static str, v: &mut u64, range: (u64, u64)| {
        let to = (*v).clamp(range.0, range.1);
        if to != *v {
            out.push(Fitted {
                path,
                from: *v,
                range,
                to,
            });
            *v = to;
        }
    };
    if let Some(r) = sheet.retry.as_mut() {
        let base = match r.backoff.kind {
            BackoffKind::Polynomial(_) => limits::POLY_BASE_MS,
            BackoffKind::Fixed | BackoffKind::Exponential => limits::BASE_MS,
        };
        one("retry.backoff.base_ms", &mut r.backoff.base_ms, base);
        let cap = (r.backoff.base_ms.max(limits::CAP_MS.0), limits::CAP_MS.1);
        one("retry.backoff.cap_ms", &mut r.backoff.cap_ms, cap);
        one(
            "retry.attempt_timeout_ms",
            &mut r.attempt_timeout_ms,
            limits::TIMEOUT_MS,
        );
        one("retry.lease_ms", &mut r.lease_ms, limits::TIMEOUT_MS);
        if let Some(ms) = r.queue_retention_ms.as_mut() {
            one("retry.queue_retention_ms", ms, limits::QUEUE_RETENTION_MS);
        }
    }
    if let Some(b) = sheet.batch.as_mut() {
        one(
            "batch.run_timeout_ms",
            &mut b.run_timeout_ms,
            limits::RUN_TIMEOUT_MS,
        );
    }
    out
}

/// The process's name: the job's name as the file writes it and the file, e.g.
/// `orders (main.tf)`, within [`MAX_NAME_CHARS`]; the system and the line when the file
/// names no job.
fn process_name(job: &AuditJob, file: &str) -> String {
    let base = if job.name.trim().is_empty() {
        format!("{} {}:{}", job.system.label(), file, job.line)
    } else {
        format!("{} ({file})", job.name.trim())
    };
    base.chars().take(MAX_NAME_CHARS).collect()
}

/// What the audit says about one job, kept with the process it becomes: the file, the line,
/// the system and the release followed, the findings counted, and `unread` (why a lock file
/// was not read, (English, Japanese)) before the job's notes in both languages — within the
/// limits a catalog checks ([`MAX_NOTES`] notes of [`MAX_NOTE_CHARS`] characters, as many in
/// each language, no more findings than notes).
fn origin(file: &str, en: &AuditJob, ja: &AuditJob, unread: &[(String, String)]) -> AuditOrigin {
    let notes = |job: &AuditJob, lang: Lang, pick: fn(&(String, String)) -> &String| {
        let own = lines(job, lang);
        unread
            .iter()
            .map(pick)
            .cloned()
            .chain(own)
            .map(|n| n.chars().take(MAX_NOTE_CHARS).collect())
            .collect::<Vec<String>>()
    };
    let (mut en_notes, mut ja_notes) =
        (notes(en, Lang::En, |u| &u.0), notes(ja, Lang::Ja, |u| &u.1));
    let n = en_notes.len().min(ja_notes.len()).min(MAX_NOTES);
    en_notes.truncate(n);
    ja_notes.truncate(n);
    let count = |s: Severity| en.findings.iter().filter(|f| f.severity == s).count();
    let errors = count(Severity::Error).min(n);
    let warnings = count(Severity::Warning).min(n - errors);
    AuditOrigin {
        file: file.chars().take(MAX_FILE_CHARS).collect(),
        line: en.line.max(1),
        system: en.system.name().to_owned(),
        version: en.version.release.map(str::to_owned),
        errors: u32::try_from(errors).unwrap_or(0),
        warnings: u32::try_from(warnings).unwrap_or(0),
        en: en_notes,
        ja: ja_notes,
    }
}

fn lines(job: &AuditJob, lang: Lang) -> Vec<String> {
    let l = lang.code();
    // The release followed first: it decides the schedule the findings are about.
    let version = (!job.version.note.is_empty()).then(|| job.version.note.clone());
    let mut out: Vec<String> = version.into_iter().collect();
    // The schedule the system really runs, as the CLI's report words it (the check's
    // introduction promises it).
    out.push(super::schedule_line::schedule_line(job, lang));
    out.extend(job.findings.iter().map(|f| {
        let severity = match f.severity {
            Severity::Error => t!("audit-note.error", locale = l),
            Severity::Warning => t!("audit-note.warning", locale = l),
        };
        t!(
            "audit-note.finding",
            locale = l,
            line = f.line,
            severity = severity,
            message = f.message.as_str()
        )
        .into_owned()
    }));
    out.extend(job.unresolved.iter().map(|u| {
        t!(
            "audit-note.unresolved",
            locale = l,
            line = u.line,
            key = u.key.as_str(),
            expression = u.expression.as_str()
        )
        .into_owned()
    }));
    out.extend(job.unchecked.iter().map(|u| {
        t!(
            "audit-note.unchecked",
            locale = l,
            rule = rule_words(&u.rule, lang),
            needs = u.needs.join(if lang == Lang::Ja { "、" } else { ", " })
        )
        .into_owned()
    }));
    if !job.not_stated.is_empty() {
        let list: Vec<String> = job
            .not_stated
            .iter()
            .map(|n| format!("{} = {}", field_words(n.path, lang), n.default))
            .collect();
        out.push(
            t!(
                "audit-note.not-stated",
                locale = l,
                list = list.join(if lang == Lang::Ja { "、" } else { "; " })
            )
            .into_owned(),
        );
    }
    // The sheet's own checks the system answers itself: the form still raises them (the
    // sheet cannot hold the system's own jitter or rule), so the notes say why they do not
    // apply to the job as it runs.
    let raised = crate::domain::sheet::check::validate(&job.sheet, lang);
    for code in &job.moot {
        let Some(rule) = raised
            .iter()
            .find(|f| f.code == *code)
            .and_then(|f| crate::domain::rules::rule_of(f.code))
        else {
            continue;
        };
        out.push(
            t!(
                "audit-note.moot",
                locale = l,
                rule = rule_words(&rule.id(), lang),
                system = job.system.label()
            )
            .into_owned(),
        );
    }
    out
}

/// A rule as people read it: its title, its id in parentheses ("“…” (MA-…)"); an id the
/// catalogue does not know stays as it is.
fn rule_words(id: &str, lang: Lang) -> String {
    let code = id
        .strip_prefix(crate::domain::rules::RULE_PREFIX)
        .unwrap_or(id);
    match crate::domain::rules::rule_of(code) {
        Some(r) if lang == Lang::Ja => format!("「{}」({id})", r.title(lang)),
        Some(r) => format!("“{}” ({id})", r.title(lang)),
        None => id.to_owned(),
    }
}

/// A sheet field's path as people read it in the app: the sheet's own label, the path in
/// parentheses ("Max attempts (retry.max_attempts)"); a path the sheet shows no single
/// field for stays as it is.
fn field_words(path: &str, lang: Lang) -> String {
    if path == "retry.lease_ms" {
        let label = t!("sheet.ui.lease", locale = lang.code());
        return format!("{label} ({path})");
    }
    let field = match path {
        "retry.max_attempts" => FieldId::MaxAttempts,
        p if p.starts_with("retry.backoff") => FieldId::WaitStrategy,
        "retry.attempt_timeout_ms" => FieldId::Timeout,
        "retry.queue_retention_ms" => FieldId::QueueRetention,
        p if p.starts_with("failure.dead_letter") => FieldId::DeadLetter,
        p if p.starts_with("failure.retention") || p.starts_with("retention") => FieldId::Retention,
        "batch.schedule" => FieldId::Schedule,
        "batch.time_zone" => FieldId::TimeZone,
        "batch.overlap" => FieldId::Overlap,
        "batch.missed_run" => FieldId::MissedRun,
        "batch.run_timeout_ms" => FieldId::RunTimeout,
        _ => return path.to_owned(),
    };
    let label = t!(
        format!("sheet.field.{}.item", field.id()),
        locale = lang.code()
    );
    format!("{label} ({path})")
}

/// `text` ended as a sentence in `lang` (a reader's message may end in a parenthesis or a
/// word), so that the next sentence of the note does not run into it.
fn sentence(text: String, lang: Lang) -> String {
    let ends = ['.', '!', '?', '。', '！', '？'];
    match text.trim_end().ends_with(ends) {
        true => text,
        false if lang == Lang::Ja => format!("{}。", text.trim_end()),
        false => format!("{}.", text.trim_end()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_named_by_the_sheets_labels() {
        assert_eq!(
            field_words("retry.max_attempts", Lang::En),
            "Max attempts (retry.max_attempts)"
        );
        assert_eq!(
            field_words("retry.backoff.cap_ms", Lang::Ja),
            "待ち時間 (retry.backoff.cap_ms)"
        );
        assert_eq!(field_words("load.workers", Lang::En), "load.workers");
        assert_eq!(
            field_words("retry.lease_ms", Lang::En),
            "Lease / visibility timeout (retry.lease_ms)"
        );
    }

    #[test]
    fn rules_are_named_by_their_titles() {
        let en = rule_words("MA-lease-not-longer-than-timeout", Lang::En);
        assert!(
            en.starts_with('“') && en.ends_with("” (MA-lease-not-longer-than-timeout)"),
            "{en}"
        );
        assert!(
            en.len() > "“” (MA-lease-not-longer-than-timeout)".len(),
            "{en}"
        );
        let ja = rule_words("MA-lease-not-longer-than-timeout", Lang::Ja);
        assert!(ja.starts_with('「'), "{ja}");
        assert_eq!(rule_words("MA-no-such-rule", Lang::En), "MA-no-such-rule");
    }

    #[test]
    fn a_refusal_ends_its_sentence_before_the_next() {
        let en = sentence("expected a mapping (JSON)".into(), Lang::En);
        assert_eq!(en, "expected a mapping (JSON).");
        assert_eq!(sentence("Done.".into(), Lang::En), "Done.");
        assert_eq!(sentence("読めません".into(), Lang::Ja), "読めません。");
    }
}
