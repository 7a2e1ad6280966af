//! BullMQ (`brief/QUEUES.md` §5): a TypeScript module with the Queue's default job options
//! (`attempts` = max attempts, `backoff {type, delay, jitter}`, `removeOnComplete` /
//! `removeOnFail` from the retention), the Worker (`lockDuration` = the lease, non-retryable
//! errors thrown as `UnrecoverableError`, a custom `backoffStrategy` where BullMQ's own
//! cannot hold the sheet's wait), an `enqueue` that uses the key as `jobId`, and a `failed`
//! listener for the dead letter.
//!
//! BullMQ's own backoff (`src/classes/backoffs.ts`): fixed `delay`, exponential
//! `round(2^(k−1) · delay)` ms with k = 1 at the first retry, both with jitter `j` drawn as
//! `floor(random() · m · j + m · (1 − j))` (downward); no cap.

use super::kit;
use super::knobs::{self, Knobs};
use super::mapping::{self, gap, row};
use super::rows::{self, comment, SheetText};
use super::schedule::{of_sheet, Delay};
use super::{header, versions};
use super::{text, Built, DefaultPolicy, Format, Instead, Schedule, TargetError, TargetId};
use crate::domain::lang::Lang;
use crate::domain::sheet::load::{Per, Rate};
use crate::domain::sheet::retry_window::ceiling_ms;
use crate::domain::sheet::{BackoffKind, FieldId, Jitter, JobSheet, Keep, RetrySpec};
use crate::text::t;
use std::fmt::Write;

/// BullMQ's `attempts` when not set: one run, no retry.
pub const DEFAULT_ATTEMPTS: u32 = 1;
/// The Worker's `lockDuration` when not set, in ms.
pub const DEFAULT_LOCK_MS: u64 = 30_000;

/// BullMQ's own backoff: `type`, `delay` (ms) and `jitter` (0, 0.5 or 1).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Builtin {
    exponential: bool,
    delay_ms: u64,
    jitter: f64,
}

/// BullMQ's own backoff when it holds the sheet's wait: fixed or exponential, jitter none /
/// full / equal, and (exponential) a cap never reached.
fn builtin(r: &RetrySpec) -> Option<Builtin> {
    let b = &r.backoff;
    let jitter = match b.jitter {
        Jitter::None => 0.0,
        Jitter::Full => 1.0,
        Jitter::Equal => 0.5,
        Jitter::Decorrelated => return None,
    };
    let retries = r.max_attempts.saturating_sub(1);
    let exponential = match b.kind {
        BackoffKind::Fixed => false,
        BackoffKind::Exponential => {
            // No cap in BullMQ: only when the sheet's cap is never reached.
            let uncapped = (0..retries).all(|n| {
                1u64.checked_shl(n)
                    .and_then(|f| b.base_ms.checked_mul(f))
                    .is_some_and(|t| t <= b.cap_ms)
            });
            if !uncapped {
                return None;
            }
            true
        }
        BackoffKind::Polynomial(_) => return None,
    };
    Some(Builtin {
        exponential,
        delay_ms: b.base_ms,
        jitter,
    })
}

/// BullMQ's delay before retry `k` (1 at the first retry) without jitter, in ms.
fn builtin_ms(b: Builtin, k: u32) -> f64 {
    if b.exponential {
        (2f64.powi(k as i32 - 1) * b.delay_ms as f64).round()
    } else {
        b.delay_ms as f64
    }
}

/// Builds the TypeScript module, the mapping, the gaps and the actual schedule.
///
/// # Errors
/// [`TargetError::NotApplicable`] for a sheet without a retry section;
/// [`TargetError::UnknownFormat`] for a format other than TypeScript.
pub fn build(sheet: &JobSheet, format: Format, lang: Lang) -> Result<Built, TargetError> {
    let r = rows::retry_of(sheet, TargetId::Bullmq)?;
    if format != Format::TypeScript {
        return Err(TargetError::UnknownFormat {
            target: TargetId::Bullmq,
            format: format.name().to_owned(),
        });
    }
    let own = builtin(r);
    Ok(Built {
        text: typescript(sheet, r, own, lang),
        mapping: mapping(sheet, r, own, lang),
        gaps: gaps(r, own, lang),
        actual: actual(sheet, r, own),
    })
}

fn actual(sheet: &JobSheet, r: &RetrySpec, own: Option<Builtin>) -> Schedule {
    let Some(b) = own else {
        return of_sheet(sheet);
    };
    Schedule::bounded(
        (1..r.max_attempts)
            .map(|k| {
                let m = builtin_ms(b, k);
                if b.jitter == 0.0 || m < 1.0 {
                    return Delay::fixed(m / 1000.0);
                }
                // floor(U·m·j + m·(1 − j)), U in [0, 1): whole ms from floor(m(1 − j)) to m − 1.
                let min = (m * (1.0 - b.jitter)).floor();
                let max = m - 1.0;
                let expected = (m * (1.0 - b.jitter) + m * b.jitter / 2.0 - 0.5).clamp(min, max);
                Delay {
                    min_s: min / 1000.0,
                    expected_s: expected / 1000.0,
                    max_s: max / 1000.0,
                }
            })
            .collect(),
    )
}

fn ts_list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| text::dq(s.trim())).collect();
    format!("[{}]", quoted.join(", "))
}

fn keep(k: Option<Keep>) -> String {
    match k {
        Some(Keep::Days(d)) => format!("{{ age: {} }}", u64::from(d) * 86_400),
        _ => "false".to_owned(),
    }
}

fn typescript(sheet: &JobSheet, r: &RetrySpec, own: Option<Builtin>, lang: Lang) -> String {
    let l = lang.code();
    let c = |k: &str| comment(&t!(format!("target.bullmq.code.{k}"), locale = l));
    let mut s = header::write(
        "//",
        versions::header_line(TargetId::Bullmq, None, lang),
        header::labelled(sheet, TargetId::Bullmq, lang),
    );
    s.push_str("\nimport { Job, Queue, UnrecoverableError, Worker } from \"bullmq\";\n\n");
    s.push_str("const connection = { host: \"localhost\", port: 6379 };\n");
    let _ = writeln!(
        s,
        "export const QUEUE_NAME = {};\n",
        text::dq(&text::dns_label(&sheet.process.code_name))
    );
    let (retry_names, retry_texts) =
        kit::split_classes(&r.retryable_errors, text::is_js_error_name);
    let (dead_names, dead_texts) =
        kit::split_classes(&r.non_retryable_errors, text::is_js_error_name);
    let _ = writeln!(s, "// {}", c("retryable"));
    s.push_str(&kit::described_lines(
        &retry_texts,
        "// ",
        "TimeoutError",
        lang,
    ));
    let _ = writeln!(
        s,
        "export const RETRYABLE: string[] = {};",
        ts_list(&retry_names)
    );
    let _ = writeln!(s, "// {}", c("non-retryable"));
    s.push_str(&kit::described_lines(
        &dead_texts,
        "// ",
        "ValidationError",
        lang,
    ));
    let _ = writeln!(
        s,
        "export const NON_RETRYABLE: string[] = {};\n",
        ts_list(&dead_names)
    );
    let backoff = match own {
        Some(b) => format!(
            "{{ type: \"{}\", delay: {}, jitter: {} }}",
            if b.exponential {
                "exponential"
            } else {
                "fixed"
            },
            b.delay_ms,
            rows::num(b.jitter)
        ),
        None => "{ type: \"sheet\" }".to_owned(),
    };
    let f = sheet.failure.as_ref();
    let _ = writeln!(
        s,
        "export const queue = new Queue(QUEUE_NAME, {{\n  connection,\n  defaultJobOptions: {{\n    \
         attempts: {},\n    backoff: {backoff},\n    removeOnComplete: {},\n    removeOnFail: {},\n  }},\n}});\n",
        r.max_attempts,
        keep(f.map(|f| f.retention.done)),
        keep(f.map(|f| f.retention.dead)),
    );
    let _ = writeln!(s, "// {}", c("key"));
    s.push_str(
        "export async function enqueue(key: string, data: Record<string, unknown>): Promise<Job> {\n  \
         return queue.add(QUEUE_NAME, data, { jobId: key });\n}\n\n",
    );
    if own.is_none() {
        strategy(&mut s, r, lang);
    }
    let _ = writeln!(
        s,
        "export const worker = new Worker(\n  QUEUE_NAME,\n  async (job: Job) => {{\n    try {{\n      \
         return await work(job);\n    }} catch (err) {{\n      \
         if (err instanceof Error && NON_RETRYABLE.includes(err.name)) {{\n        \
         throw new UnrecoverableError(err.message);\n      }}\n      throw err;\n    }}\n  }},\n  {{\n    \
         connection,\n    // {}\n    lockDuration: {},{}{}\n  }},\n);\n",
        c("lease"),
        r.lease_ms,
        if own.is_none() {
            "\n    settings: { backoffStrategy: sheetBackoff },"
        } else {
            ""
        },
        worker_knobs(sheet, lang)
    );
    let _ = writeln!(s, "// {}", c("dead"));
    if let Some(f) = f {
        let _ = writeln!(s, "// {}", comment(&f.dead_letter));
        if !f.notify.trim().is_empty() {
            let _ = writeln!(s, "// {}", comment(&f.notify));
        }
    }
    s.push_str(
        "worker.on(\"failed\", (job: Job | undefined, err: Error) => {\n  \
         if (job && (err instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1))) {\n    \
         console.error(`${job.name} ${job.id} is dead: ${err.message}`);\n  }\n});\n\n",
    );
    let work = t!("target.bullmq.code.work", locale = l);
    let _ = writeln!(
        s,
        "async function work(job: Job): Promise<unknown> {{\n  // {}\n  throw new Error({});\n}}",
        comment(&work),
        text::dq(&work)
    );
    s
}

/// The custom `backoffStrategy`: the sheet's wait in ms (BullMQ passes `attemptsMade` = 1 at
/// the first retry).
fn strategy(s: &mut String, r: &RetrySpec, lang: Lang) {
    let b = &r.backoff;
    let _ = writeln!(
        s,
        "const BASE_MS = {};\nconst CAP_MS = {};\n",
        b.base_ms, b.cap_ms
    );
    let _ = writeln!(
        s,
        "// {}",
        comment(&t!("target.bullmq.code.strategy", locale = lang.code()))
    );
    s.push_str(
        "async function sheetBackoff(\n  attemptsMade: number,\n  _type?: string,\n  _err?: Error,\n  \
         job?: Job,\n): Promise<number> {\n  const n = attemptsMade - 1;\n",
    );
    let ceiling = match b.kind {
        BackoffKind::Fixed => "BASE_MS".to_owned(),
        BackoffKind::Exponential => "Math.min(CAP_MS, BASE_MS * 2 ** n)".to_owned(),
        BackoffKind::Polynomial(p) => format!(
            "Math.min(CAP_MS, BASE_MS + (n + {}) ** {} * 1000)",
            p.first_n, p.exponent
        ),
    };
    match b.jitter {
        Jitter::None => {
            let _ = writeln!(s, "  return Math.round({ceiling});");
        }
        Jitter::Full => {
            let _ = writeln!(s, "  return Math.round(Math.random() * {ceiling});");
        }
        Jitter::Equal => {
            let _ = writeln!(
                s,
                "  const t = {ceiling};\n  return Math.round(t / 2 + (Math.random() * t) / 2);"
            );
        }
        Jitter::Decorrelated => {
            s.push_str(
                "  const previous: number = job?.data?._previousWaitMs ?? BASE_MS;\n  \
                 const wait = Math.round(Math.min(CAP_MS, BASE_MS + Math.random() * (3 * previous - BASE_MS)));\n  \
                 await job?.updateData({ ...job.data, _previousWaitMs: wait });\n  return wait;\n",
            );
        }
    }
    s.push_str("}\n\n");
}

fn mapping(
    sheet: &JobSheet,
    r: &RetrySpec,
    own: Option<Builtin>,
    lang: Lang,
) -> Vec<super::MappingRow> {
    let l = lang.code();
    let s = SheetText::of(r, lang);
    let tr = |k: &str| t!(format!("target.bullmq.note.{k}"), locale = l).into_owned();
    let mut out = vec![
        row(
            FieldId::MaxAttempts,
            s.attempts,
            "attempts",
            r.max_attempts.to_string(),
            tr("max-attempts"),
        ),
        match own {
            Some(b) => row(
                FieldId::WaitStrategy,
                s.wait,
                "backoff",
                format!(
                    "{{type: {}, delay: {}, jitter: {}}}",
                    if b.exponential {
                        "exponential"
                    } else {
                        "fixed"
                    },
                    b.delay_ms,
                    rows::num(b.jitter)
                ),
                tr("wait-builtin"),
            ),
            None => row(
                FieldId::WaitStrategy,
                s.wait,
                "settings.backoffStrategy",
                "sheetBackoff".to_owned(),
                tr("wait-custom"),
            ),
        },
        row(
            FieldId::Timeout,
            s.timeout,
            "",
            String::new(),
            tr("timeout"),
        ),
        mapping::lease_row(s.lease, "lockDuration", r.lease_ms.to_string(), tr("lease")),
        row(
            FieldId::IdempotencyKey,
            r.idempotency_key.clone(),
            "jobId",
            String::new(),
            tr("key"),
        ),
        row(
            FieldId::RetryableErrors,
            s.retryable,
            "RETRYABLE",
            String::new(),
            tr("retryable"),
        ),
        row(
            FieldId::NonRetryableErrors,
            s.non_retryable,
            "UnrecoverableError",
            "NON_RETRYABLE".to_owned(),
            tr("non-retryable"),
        ),
    ];
    if let Some(f) = &sheet.failure {
        out.push(row(
            FieldId::DeadLetter,
            f.dead_letter.clone(),
            "failed set + worker.on(\"failed\")",
            String::new(),
            tr("dead-letter"),
        ));
        out.push(row(
            FieldId::Retention,
            format!(
                "{} / {}",
                rows::keep_text(f.retention.done, lang),
                rows::keep_text(f.retention.dead, lang)
            ),
            "removeOnComplete / removeOnFail",
            format!(
                "{} / {}",
                keep(Some(f.retention.done)),
                keep(Some(f.retention.dead))
            ),
            tr("retention"),
        ));
    }
    out.extend(mapping::layers_row(
        r,
        rows::layers_text,
        "attempts",
        rows::layers_note(lang),
    ));
    out.extend(load_rows(sheet, lang));
    out
}

/// BullMQ's `limiter` for a rate: `max` jobs per `duration` ms (global for the queue: every
/// worker of it shares the limit).
pub fn limiter(r: Rate) -> (u64, u64) {
    let ms = match r.per {
        Per::Second => 1_000,
        Per::Minute => 60_000,
        Per::Hour => 3_600_000,
    };
    (r.count, ms)
}

/// The Worker's options for the load section (each after a new line), empty without it.
fn worker_knobs(sheet: &JobSheet, lang: Lang) -> String {
    let Some(k) = Knobs::of(sheet) else {
        return String::new();
    };
    let l = lang.code();
    let mut s = String::new();
    if k.sized() {
        let _ = write!(
            s,
            "\n    // {}\n    concurrency: {},",
            comment(&t!(
                "target.load.bullmq.concurrency-code",
                locale = l,
                workers = k.workers(),
                each = k.per_worker()
            )),
            k.per_worker()
        );
    }
    if let Some(r) = k.our_limit {
        let (max, duration) = limiter(r);
        let _ = write!(
            s,
            "\n    // {}\n    limiter: {{ max: {max}, duration: {duration} }},",
            comment(&t!("target.load.bullmq.limiter-code", locale = l))
        );
    }
    s
}

/// The load section's rows: `concurrency` per Worker, `limiter` for the queue, the
/// downstream's limits.
fn load_rows(sheet: &JobSheet, lang: Lang) -> Vec<super::MappingRow> {
    let Some(k) = Knobs::of(sheet) else {
        return Vec::new();
    };
    let mut m = Vec::new();
    if k.sized() {
        m.push(knobs::knob_row(
            FieldId::Workers,
            &k,
            "Worker concurrency",
            k.per_worker().to_string(),
            ("bullmq", "workers"),
            lang,
        ));
    }
    if let Some(r) = k.our_limit {
        let (max, duration) = limiter(r);
        m.push(knobs::knob_row(
            FieldId::OurLimit,
            &k,
            "Worker limiter",
            format!("{{ max: {max}, duration: {duration} }}"),
            ("bullmq", "limiter"),
            lang,
        ));
    }
    m.extend(knobs::downstream_row(sheet, lang));
    m
}

fn gaps(r: &RetrySpec, own: Option<Builtin>, lang: Lang) -> Vec<super::Gap> {
    let l = lang.code();
    let tr = |k: &str| t!(format!("target.bullmq.gap.{k}"), locale = l).into_owned();
    let mut g = Vec::new();
    if own.is_none() {
        g.push(gap(
            FieldId::WaitStrategy,
            tr("wait"),
            Instead::Callback,
            // What the callback keeps between attempts matters only for decorrelated jitter.
            tr(
                if r.backoff.jitter == crate::domain::sheet::Jitter::Decorrelated {
                    "wait-detail"
                } else {
                    "wait-detail-plain"
                },
            ),
        ));
    }
    g.push(gap(
        FieldId::Timeout,
        tr("timeout"),
        Instead::Comment,
        String::new(),
    ));
    if r.non_retryable_errors
        .iter()
        .any(|e| !e.trim().is_empty() && !text::is_js_error_name(e.trim()))
    {
        g.push(gap(
            FieldId::NonRetryableErrors,
            tr("errors"),
            Instead::Comment,
            String::new(),
        ));
    }
    g.push(gap(
        FieldId::DeadLetter,
        tr("dead-letter"),
        Instead::Callback,
        tr("dead-letter-detail"),
    ));
    if r.queue_retention_ms.is_some() {
        g.push(gap(
            FieldId::QueueRetention,
            tr("queue-retention"),
            Instead::Nothing,
            String::new(),
        ));
    }
    g
}

/// BullMQ's defaults: `attempts` 1, so a failed job is not retried (window 0).
pub fn defaults(lang: Lang) -> DefaultPolicy {
    let retries = DEFAULT_ATTEMPTS.saturating_sub(1) as usize;
    DefaultPolicy {
        summary: t!(
            "target.bullmq.defaults",
            locale = lang.code(),
            attempts = DEFAULT_ATTEMPTS,
            lock = DEFAULT_LOCK_MS
        )
        .into_owned(),
        attempts: Some(DEFAULT_ATTEMPTS),
        schedule: Schedule::bounded(vec![Delay::fixed(0.0); retries]),
    }
}

/// One sampled run of the actual delays, in seconds: BullMQ's
/// `Math.floor(Math.random() * m * jitter + m * (1 - jitter))` for its own backoff, or the
/// exported `sheetBackoff` (`Math.round` of the sheet's formula, in ms).
///
/// # Errors
/// As [`build`].
pub fn sample(sheet: &JobSheet, u: &mut dyn FnMut() -> f64) -> Result<Vec<f64>, TargetError> {
    let r = rows::retry_of(sheet, TargetId::Bullmq)?;
    let b = &r.backoff;
    let mut out = Vec::new();
    let mut previous = b.base_ms as f64;
    for attempts_made in 1..r.max_attempts {
        let ms = match builtin(r) {
            Some(own) => {
                let m = builtin_ms(own, attempts_made);
                if own.jitter > 0.0 {
                    (u() * m * own.jitter + m * (1.0 - own.jitter)).floor()
                } else {
                    m
                }
            }
            None => {
                let t = ceiling_ms(b, attempts_made - 1) as f64;
                let base = b.base_ms as f64;
                match b.jitter {
                    Jitter::None => t.round(),
                    Jitter::Full => (u() * t).round(),
                    Jitter::Equal => (t / 2.0 + u() * t / 2.0).round(),
                    Jitter::Decorrelated => {
                        let w = (b.cap_ms as f64)
                            .min(base + u() * (3.0 * previous - base))
                            .round();
                        previous = w;
                        w
                    }
                }
            }
        };
        out.push(ms / 1000.0);
    }
    Ok(out)
}
