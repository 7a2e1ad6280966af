//! The sheet as rows of (item, what to write, this job's value) — the source documents' three columns —
//! in either language. Every export and the print view are built from these rows.

use crate::domain::duration::{approx, exact};
use crate::domain::flowchart::evaluate;
use crate::domain::lang::Lang;
use crate::domain::number::group_thousands;
use crate::domain::sheet::{
    BackoffKind, BackoffPolicy, BatchSpec, CallEffect, ExternalCall, FieldId, Jitter, JobSheet,
    Keep, KeyVia, LastErrorOnDone, LayerKind, Resolve, RetrySpec,
};
use crate::text::t;

/// One row of the sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// Which field.
    pub field: FieldId,
    /// The item's name, e.g. "Max attempts".
    pub item: String,
    /// What the item holds, e.g. "including the first".
    pub what: String,
    /// This job's value as text.
    pub value: String,
}

fn tr(key: &str, lang: Lang) -> String {
    t!(key, locale = lang.code()).into_owned()
}

/// Joins a list the way each language writes one: `a, b` / `a、b`.
pub fn join_list(items: &[String], lang: Lang) -> String {
    let sep = match lang {
        Lang::En => ", ",
        Lang::Ja => "、",
    };
    items
        .iter()
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(sep)
}

/// "exponential backoff (first 10 s, cap 10 min) + full jitter" /
/// "指数バックオフ（初回10秒、上限10分）＋ジッター（フル）".
pub fn describe_backoff(b: &BackoffPolicy, lang: Lang) -> String {
    let base = exact(b.base_ms, lang);
    let cap = exact(b.cap_ms, lang);
    let head = match (b.kind, lang) {
        (BackoffKind::Fixed, Lang::En) => format!("fixed wait of {base}"),
        (BackoffKind::Fixed, Lang::Ja) => format!("固定間隔（{base}）"),
        (BackoffKind::Exponential, Lang::En) => {
            format!("exponential backoff (first {base}, cap {cap})")
        }
        (BackoffKind::Exponential, Lang::Ja) => format!("指数バックオフ（初回{base}、上限{cap}）"),
        (BackoffKind::Polynomial(p), Lang::En) => format!(
            "polynomial backoff ({base} + n^{k} s, n from {n0}, cap {cap})",
            k = p.exponent,
            n0 = p.first_n
        ),
        (BackoffKind::Polynomial(p), Lang::Ja) => format!(
            "多項式バックオフ（{base}＋n^{k}秒、nは{n0}から、上限{cap}）",
            k = p.exponent,
            n0 = p.first_n
        ),
    };
    let jitter = match (b.jitter, lang) {
        (Jitter::None, _) => String::new(),
        (Jitter::Full, Lang::En) => " + full jitter".into(),
        (Jitter::Equal, Lang::En) => " + equal jitter".into(),
        (Jitter::Decorrelated, Lang::En) => format!(" + decorrelated jitter (cap {cap})"),
        (Jitter::Full, Lang::Ja) => "＋ジッター（フル）".into(),
        (Jitter::Equal, Lang::Ja) => "＋ジッター（イコール）".into(),
        (Jitter::Decorrelated, Lang::Ja) => format!("＋ジッター（デコリレーテッド、上限{cap}）"),
    };
    format!("{head}{jitter}")
}

fn keep(k: Keep, lang: Lang) -> String {
    match (k, lang) {
        (Keep::Days(d), Lang::En) => format!("{} days", group_thousands(u64::from(d))),
        (Keep::Days(d), Lang::Ja) => format!("{}日", group_thousands(u64::from(d))),
        (Keep::UntilHandled, Lang::En) => "until handled".into(),
        (Keep::UntilHandled, Lang::Ja) => "対応が終わるまで".into(),
    }
}

/// The decision a sheet comes from, in words (the print view and every export show it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecisionText {
    /// The outcome's title, e.g. "Asynchronous: enqueue a job".
    pub outcome: String,
    /// One reason per answered question on the path, in order.
    pub reasons: Vec<String>,
    /// The path: each question asked and its answer, "Does it …? — no", in order.
    pub path: Vec<String>,
}

/// The decision of `sheet` in `lang`: its outcome, the reasons and the path of its answers
/// (the same words as the wizard's result, `locales/page/decide.yml`).
pub fn decision_text(sheet: &JobSheet, lang: Lang) -> DecisionText {
    let eval = evaluate(&sheet.decision.to_answers());
    let path = eval
        .path
        .iter()
        .map(|s| {
            let answer = tr(if s.yes() { "answer.yes" } else { "answer.no" }, lang);
            format!("{} — {answer}", s.question.text(lang))
        })
        .collect();
    DecisionText {
        outcome: sheet.decision.outcome.title(lang),
        reasons: eval.reasons(lang),
        path,
    }
}

/// The rows of `sheet` in `lang`: the source documents' 13 fields in its order, then the acceptable wait
/// and the business key, then, when the sheet has a retry section, the retry window, who retries and the queue's
/// retention (schema 2), then the rows of the outcome's own section (ticket, batch or sync, with
/// the external call's rows when it is described), then
/// the load and capacity rows of an asynchronous sheet (schema 3). A field of a section the
/// outcome does not have (a synchronous call's retries, a batch's per-job retries) is left
/// out: [`left_out`] names them in one line.
pub fn rows(sheet: &JobSheet, lang: Lang) -> Vec<Row> {
    all_rows(sheet, lang).out
}

/// The one line every document writes under the rows when fields are left out, e.g. "Not in
/// this sheet — does not apply (synchronous: no queue, no job): Max attempts, Wait strategy,
/// …" (the reason is the page's, `sheet.na.<outcome>`); `None` when every field applies.
pub fn left_out(sheet: &JobSheet, lang: Lang) -> Option<String> {
    let r = all_rows(sheet, lang);
    if r.left_out.is_empty() {
        return None;
    }
    let na = tr(&format!("sheet.na.{}", sheet.decision.outcome.id()), lang);
    Some(
        t!(
            "sheet.left-out",
            locale = lang.code(),
            na = na,
            items = join_list(&r.left_out, lang)
        )
        .into_owned(),
    )
}

fn all_rows(sheet: &JobSheet, lang: Lang) -> Rows {
    let mut out = Rows {
        out: Vec::with_capacity(24),
        left_out: Vec::new(),
        lang,
    };
    process_rows(&mut out, sheet);
    retry_rows(&mut out, sheet.retry.as_ref());
    failure_rows(&mut out, sheet);
    let business_key = sheet.process.business_key.trim();
    out.push(
        FieldId::BusinessKey,
        Some(if business_key.is_empty() {
            tr("sheet.not-stated", lang)
        } else {
            business_key.to_owned()
        }),
    );
    if let Some(r) = &sheet.retry {
        out.push(FieldId::RetryWindow, Some(retry_window_text(r, lang)));
        out.push(FieldId::RetryLayers, Some(layers_text(r, lang)));
        out.push(
            FieldId::QueueRetention,
            Some(match r.queue_retention_ms {
                Some(ms) => exact(ms, lang),
                None => tr("sheet.not-stated", lang),
            }),
        );
    }
    if let Some(tk) = &sheet.ticket {
        out.push(FieldId::TicketStates, Some(tk.states.join(" → ")));
        out.push(
            FieldId::TicketCompletion,
            Some(tk.completion.trim().to_owned()),
        );
        out.push(
            FieldId::PollInterval,
            Some(exact(tk.poll_interval_ms, lang)),
        );
    }
    if let Some(b) = &sheet.batch {
        batch_rows(&mut out, b);
    }
    if let Some(s) = &sheet.sync {
        out.push(FieldId::CallTimeout, Some(exact(s.call_timeout_ms, lang)));
        out.push(FieldId::OnTimeout, Some(s.on_timeout.trim().to_owned()));
        if let Some(c) = &s.call {
            call_rows(&mut out, c);
        }
    }
    load_rows(&mut out, sheet);
    out
}

/// The "Load and capacity" section (asynchronous sheets; schema 1 and 2 sheets read as an
/// empty section): a row per field, then the computed capacity answer (analytic only).
fn load_rows(out: &mut Rows, sheet: &JobSheet) {
    use crate::domain::sheet::load::LoadSpec;
    use crate::domain::sheet::load_text as lt;
    let Some(l) = lt::load_of(sheet) else {
        return;
    };
    let lang = out.lang;
    let wizard_p95 = LoadSpec::wizard_p95_ms(sheet);
    out.push(FieldId::ArrivalRate, Some(lt::arrival_text(&l, lang)));
    out.push(FieldId::Burst, Some(lt::burst_text(l.burst, lang)));
    out.push(
        FieldId::HandlerTime,
        Some(lt::handler_text(l.handler, wizard_p95, lang)),
    );
    out.push(
        FieldId::FailureRate,
        Some(lt::failure_text(l.failure_bp, lang)),
    );
    out.push(
        FieldId::DownstreamLimits,
        Some(lt::downstream_text(&l, lang)),
    );
    out.push(
        FieldId::OurLimit,
        Some(lt::our_limit_text(l.our_limit, lang)),
    );
    out.push(
        FieldId::CapacityTargets,
        Some(lt::targets_text(&l, sheet, lang)),
    );
    out.push(FieldId::Workers, Some(lt::workers_text(&l, lang)));
    out.push(FieldId::Capacity, Some(lt::capacity_text(sheet, lang)));
}

/// The rows being written, in `lang`, and the items of the fields left out (they do not apply
/// to the outcome).
struct Rows {
    out: Vec<Row>,
    left_out: Vec<String>,
    lang: Lang,
}

impl Rows {
    fn push(&mut self, field: FieldId, value: Option<String>) {
        let lang = self.lang;
        let item = tr(&format!("sheet.field.{}.item", field.id()), lang);
        let Some(value) = value else {
            self.left_out.push(item);
            return;
        };
        self.out.push(Row {
            field,
            item,
            what: tr(&format!("sheet.field.{}.what", field.id()), lang),
            value,
        });
    }
}

/// The job's name (code name and human name), trigger and arguments.
fn process_rows(out: &mut Rows, sheet: &JobSheet) {
    let (p, lang) = (&sheet.process, out.lang);
    let job_name = match (p.process_name.trim().is_empty(), lang) {
        (true, _) => p.code_name.trim().to_owned(),
        // No name in code: the name alone, not " (name)".
        _ if p.code_name.trim().is_empty() => p.process_name.trim().to_owned(),
        (false, Lang::En) => format!("{} ({})", p.code_name.trim(), p.process_name.trim()),
        (false, Lang::Ja) => format!("{}（{}）", p.code_name.trim(), p.process_name.trim()),
    };
    out.push(FieldId::JobName, Some(job_name));
    out.push(FieldId::Trigger, Some(p.trigger.trim().to_owned()));
    out.push(FieldId::Arguments, Some(join_list(&p.arguments, lang)));
}

/// Attempts, wait strategy, timeout and lease, idempotency key, which errors retry.
fn retry_rows(out: &mut Rows, r: Option<&RetrySpec>) {
    let lang = out.lang;
    out.push(
        FieldId::MaxAttempts,
        r.map(|r| match lang {
            Lang::En => r.max_attempts.to_string(),
            Lang::Ja => format!("{}回", r.max_attempts),
        }),
    );
    out.push(
        FieldId::WaitStrategy,
        r.map(|r| describe_backoff(&r.backoff, lang)),
    );
    out.push(
        FieldId::Timeout,
        r.map(|r| {
            let a = exact(r.attempt_timeout_ms, lang);
            let l = exact(r.lease_ms, lang);
            match lang {
                Lang::En => format!("{a} (lease / visibility timeout {l})"),
                Lang::Ja => format!("{a}（リース／可視性タイムアウト {l}）"),
            }
        }),
    );
    out.push(
        FieldId::IdempotencyKey,
        r.map(|r| key_or_not_stated(&r.idempotency_key, lang)),
    );
    out.push(
        FieldId::RetryableErrors,
        r.map(|r| join_list(&r.retryable_errors, lang)),
    );
    out.push(
        FieldId::NonRetryableErrors,
        r.map(|r| join_list(&r.non_retryable_errors, lang)),
    );
}

/// Dead-letter, who is notified, re-run, retention, and the acceptable wait.
fn failure_rows(out: &mut Rows, sheet: &JobSheet) {
    let (p, lang) = (&sheet.process, out.lang);
    let f = sheet.failure.as_ref();
    out.push(
        FieldId::DeadLetter,
        f.map(|f| f.dead_letter.trim().to_owned()),
    );
    out.push(
        FieldId::Notify,
        f.map(|f| {
            let who = if f.notify.trim().is_empty() {
                tr("sheet.nobody", lang)
            } else {
                f.notify.trim().to_owned()
            };
            let hours = group_thousands(u64::from(f.notice_within_h));
            match lang {
                Lang::En => format!("{who} (acted on within {hours} h)"),
                Lang::Ja => format!("{who}（{hours}時間以内に対応）"),
            }
        }),
    );
    out.push(FieldId::Rerun, f.map(|f| f.rerun.trim().to_owned()));
    out.push(
        FieldId::Retention,
        f.map(|f| {
            let (d, x) = (keep(f.retention.done, lang), keep(f.retention.dead, lang));
            let last = match (f.last_error_on_done, lang) {
                (LastErrorOnDone::Keep, Lang::En) => "done jobs keep the last error",
                (LastErrorOnDone::Clear, Lang::En) => "the last error is cleared on done",
                (LastErrorOnDone::Keep, Lang::Ja) => "doneでもlast_errorを残す",
                (LastErrorOnDone::Clear, Lang::Ja) => "done時にlast_errorを消す",
            };
            match lang {
                Lang::En => format!("done: {d}; dead: {x} ({last})"),
                Lang::Ja => format!("doneは{d}、deadは{x}（{last}）"),
            }
        }),
    );
    out.push(
        FieldId::AcceptableWait,
        Some(match p.acceptable_wait_ms {
            Some(ms) => exact(ms, lang),
            None => tr("sheet.not-stated", lang),
        }),
    );
}

/// A key as the rows show it: trimmed, or "not stated" when blank (a key pre-filled before
/// the business key is typed is empty, never placeholder words).
fn key_or_not_stated(key: &str, lang: Lang) -> String {
    match key.trim() {
        "" => tr("sheet.not-stated", lang),
        k => k.to_owned(),
    }
}

/// The external call of a `sync-timeout` sheet: what it does, its key and how the provider
/// takes it, how an unknown outcome is resolved.
fn call_rows(out: &mut Rows, c: &ExternalCall) {
    let lang = out.lang;
    let l = lang.code();
    out.push(
        FieldId::CallEffect,
        Some(tr(
            match c.effect {
                CallEffect::Changes => "sheet.call.effect.changes",
                CallEffect::ReadsOnly => "sheet.call.effect.reads-only",
            },
            lang,
        )),
    );
    let key = key_or_not_stated(&c.idempotency_key, lang);
    let via = match c.key_via {
        KeyVia::Header => "sheet.call.via.header",
        KeyVia::Field => "sheet.call.via.field",
        KeyVia::NotSupported => "sheet.call.via.not-supported",
    };
    let key = t!(via, locale = l, key = key, name = c.key_name.trim());
    out.push(FieldId::CallKey, Some(key.into_owned()));
    out.push(
        FieldId::CallResolve,
        Some(tr(
            match c.resolve {
                Resolve::RetrySameKey => "sheet.call.resolve.retry-same-key",
                Resolve::QueryStatus => "sheet.call.resolve.query-status",
                Resolve::ReconcileLater => "sheet.call.resolve.reconcile-later",
            },
            lang,
        )),
    );
}

/// The batch section: schedule, overlap, missed runs, run timeout, partial failure.
fn batch_rows(out: &mut Rows, b: &BatchSpec) {
    let lang = out.lang;
    out.push(FieldId::Schedule, Some(b.schedule.trim().to_owned()));
    out.push(FieldId::TimeZone, Some(b.time_zone.trim().to_owned()));
    out.push(FieldId::Overlap, Some(tr(b.overlap.text_key(), lang)));
    out.push(FieldId::MissedRun, Some(tr(b.missed_run.text_key(), lang)));
    out.push(FieldId::RunTimeout, Some(exact(b.run_timeout_ms, lang)));
    out.push(
        FieldId::PartialFailure,
        Some(b.partial_failure.trim().to_owned()),
    );
}

/// The retry window as one line: "min 0 s · expected 1.3 min · max 2.5 min, plus up to
/// 5 × 30 s of attempts" (the waits' total, min / expected / max, and the attempts' longest
/// time; [`retry_window`](crate::domain::sheet::retry_window::retry_window)).
pub fn retry_window_text(r: &RetrySpec, lang: Lang) -> String {
    let w = crate::domain::sheet::retry_window::retry_window(
        &r.backoff,
        r.max_attempts,
        r.attempt_timeout_ms,
    );
    t!(
        "sheet.window",
        locale = lang.code(),
        min = approx(w.total_wait.min_ms, lang),
        exp = approx(w.total_wait.expected_ms, lang),
        max = approx(w.total_wait.max_ms, lang),
        n = r.max_attempts,
        timeout = exact(r.attempt_timeout_ms, lang)
    )
    .into_owned()
}

/// A layer's name: what it is, or its kind ("SDK") when that is not written.
fn layer_name(kind: LayerKind, what: &str, lang: Lang) -> String {
    let what = what.trim();
    if !what.is_empty() {
        return what.to_owned();
    }
    let key = match kind {
        LayerKind::Queue => "sheet.layer.queue",
        LayerKind::Framework => "sheet.layer.framework",
        LayerKind::Sdk => "sheet.layer.sdk",
    };
    tr(key, lang)
}

/// Who retries, and the total calls: "this job 4 × AWS SDK 3 = 12 calls" ("this job only:
/// at most 4 calls" without layers).
pub fn layers_text(r: &RetrySpec, lang: Lang) -> String {
    let l = lang.code();
    let total = group_thousands(r.total_calls());
    if r.layers.is_empty() {
        return t!("sheet.layers.none", locale = l, total = total).into_owned();
    }
    let mut parts = vec![format!(
        "{} {}",
        tr("sheet.layers.job", lang),
        r.max_attempts
    )];
    parts.extend(
        r.layers
            .iter()
            .map(|x| format!("{} {}", layer_name(x.layer, &x.what, lang), x.attempts)),
    );
    t!(
        "sheet.layers.product",
        locale = l,
        parts = parts.join(" × "),
        total = total
    )
    .into_owned()
}
