//! AWS SQS with a Lambda event source mapping (`brief/QUEUES.md` §2): the queue, its
//! dead-letter queue (RedrivePolicy `maxReceiveCount` = max attempts), `VisibilityTimeout` =
//! the lease, `MessageRetentionPeriod`, the Lambda function (timeout = the attempt timeout) and
//! its event source mapping with `ReportBatchItemFailures`; as CloudFormation YAML (long-form
//! intrinsics `Fn::GetAtt` / `Ref`, so plain YAML parsers read it) or Terraform HCL.
//!
//! SQS has no backoff: a failed message is received again `VisibilityTimeout` seconds after the
//! last receive. The sheet's waits become a table (receive count → seconds) the consumer
//! applies with `ChangeMessageVisibility`; it is written as a comment in the export.

use super::knobs::{self, Knobs};
use super::mapping::{self, gap, row};
use super::rows::{self, ceil_s, SheetText};
use super::schedule::{of_sheet, Delay};
use super::{header, versions};
use super::{text, Built, DefaultPolicy, Format, Instead, Schedule, TargetError, TargetId};
use crate::domain::duration::exact;
use crate::domain::lang::Lang;
use crate::domain::number::group_thousands;
use crate::domain::sheet::{FieldId, JobSheet, Keep, RetrySpec};
use crate::text::t;
use std::fmt::Write;

/// The lease factor AWS advises for SQS + Lambda: visibility timeout ≥ 6 × function timeout.
pub const LEASE_FACTOR: Option<u32> = Some(6);

/// `VisibilityTimeout` and `ChangeMessageVisibility`'s upper bound, in seconds (12 h).
pub const VISIBILITY_MAX_S: u64 = 43_200;
/// `VisibilityTimeout` when not set, in seconds.
pub const VISIBILITY_DEFAULT_S: u64 = 30;
/// `MessageRetentionPeriod` range and default, in seconds (1 min, 14 d, 4 d).
pub const RETENTION_MIN_S: u64 = 60;
/// The longest `MessageRetentionPeriod`, in seconds (14 d).
pub const RETENTION_MAX_S: u64 = 1_209_600;
/// `MessageRetentionPeriod` when not set, in seconds (4 d).
pub const RETENTION_DEFAULT_S: u64 = 345_600;
/// The largest `maxReceiveCount`.
pub const MAX_RECEIVE_COUNT: u32 = 1_000;
/// The longest Lambda function timeout, in seconds (15 min).
pub const LAMBDA_TIMEOUT_MAX_S: u64 = 900;
/// `ScalingConfig.MaximumConcurrency` of an event source mapping: 2 to 1,000 (Lambda API
/// reference, `ScalingConfig`; `brief/CAPACITY.md`).
pub const MAXIMUM_CONCURRENCY: (u32, u32) = (2, 1_000);
/// Receives listed for the defaults' unlimited schedule.
const DEFAULT_LISTED: usize = 10;

/// The values the export writes, all in seconds.
struct Values {
    max_receive: u32,
    visibility_s: u64,
    function_timeout_s: u64,
    retention_s: u64,
    dlq_retention_s: u64,
    /// The consumer's table: the sheet's wait (min, max) before the retry after receive k
    /// (k from 1), capped at 12 h.
    table: Vec<(u32, f64, f64)>,
}

fn range(lo_ms: u64, hi_ms: u64, lang: Lang) -> String {
    match lang {
        Lang::En => format!("{} to {}", exact(lo_ms, lang), exact(hi_ms, lang)),
        Lang::Ja => format!("{}〜{}", exact(lo_ms, lang), exact(hi_ms, lang)),
    }
}

/// One value of a row that holds two, with its own label: "Lease / visibility timeout 1 d".
fn part(label: &str, ms: u64, lang: Lang) -> String {
    format!("{} {}", t!(label, locale = lang.code()), exact(ms, lang))
}

fn out_of_range(field: FieldId, value: String, allowed: String) -> TargetError {
    TargetError::OutOfRange {
        target: TargetId::Sqs,
        field,
        value,
        allowed,
    }
}

/// The values, checked against SQS's and Lambda's limits (values and ranges in `lang`).
fn values(sheet: &JobSheet, lang: Lang) -> Result<(Values, &RetrySpec), TargetError> {
    let r = rows::retry_of(sheet, TargetId::Sqs)?;
    if r.max_attempts > MAX_RECEIVE_COUNT {
        return Err(out_of_range(
            FieldId::MaxAttempts,
            r.max_attempts.to_string(),
            format!("1 – {MAX_RECEIVE_COUNT}"),
        ));
    }
    let visibility_s = ceil_s(r.lease_ms);
    if visibility_s > VISIBILITY_MAX_S {
        // The Timeout row holds two values: which one is said ("Timeout (1 d)" named the
        // row, not the lease).
        return Err(out_of_range(
            FieldId::Timeout,
            part("sheet.ui.lease", r.lease_ms, lang),
            range(0, VISIBILITY_MAX_S * 1000, lang),
        ));
    }
    let function_timeout_s = ceil_s(r.attempt_timeout_ms);
    if function_timeout_s > LAMBDA_TIMEOUT_MAX_S {
        return Err(out_of_range(
            FieldId::Timeout,
            part("sheet.ui.attempt-timeout", r.attempt_timeout_ms, lang),
            range(1000, LAMBDA_TIMEOUT_MAX_S * 1000, lang),
        ));
    }
    let retention_s = match r.queue_retention_ms {
        None => RETENTION_DEFAULT_S,
        Some(ms) => {
            let s = ceil_s(ms);
            if !(RETENTION_MIN_S..=RETENTION_MAX_S).contains(&s) {
                return Err(out_of_range(
                    FieldId::QueueRetention,
                    exact(ms, lang),
                    range(RETENTION_MIN_S * 1000, RETENTION_MAX_S * 1000, lang),
                ));
            }
            s
        }
    };
    // A standard queue's DLQ counts its retention from the message's first enqueue, so it
    // keeps a dead message `dead` days only when its retention covers the time spent in the
    // source queue too (AWS: make the DLQ's retention longer than the source's).
    let dead_s = match sheet.failure.as_ref().map(|f| f.retention.dead) {
        Some(Keep::Days(d)) => u64::from(d) * 86_400,
        _ => RETENTION_MAX_S,
    };
    let dlq_retention_s = retention_s.saturating_add(dead_s).min(RETENTION_MAX_S);
    let cap = VISIBILITY_MAX_S as f64;
    let table = of_sheet(sheet)
        .delays
        .iter()
        .zip(1u32..)
        .map(|(d, k)| (k, d.min_s.min(cap), d.max_s.min(cap)))
        .collect();
    Ok((
        Values {
            max_receive: r.max_attempts,
            visibility_s,
            function_timeout_s,
            retention_s,
            dlq_retention_s,
            table,
        },
        r,
    ))
}

/// Builds the export: CloudFormation YAML ([`Format::CloudFormation`]) or Terraform HCL
/// ([`Format::Terraform`]), with the mapping, the gaps and the actual schedule (the visibility
/// timeout before every retry).
///
/// # Errors
/// [`TargetError::NotApplicable`] for a sheet without a retry section;
/// [`TargetError::OutOfRange`] for attempts over 1 000, a lease over 12 h, an attempt timeout
/// over 15 min (Lambda) or a queue retention outside 1 min – 14 d;
/// [`TargetError::UnknownFormat`] for a format other than the two.
pub fn build(sheet: &JobSheet, format: Format, lang: Lang) -> Result<Built, TargetError> {
    let (v, r) = values(sheet, lang)?;
    let name = text::dns_label(&sheet.process.code_name);
    let mut out = header::write(
        "#",
        versions::header_line(TargetId::Sqs, None, lang),
        header::labelled(sheet, TargetId::Sqs, lang),
    );
    out.push_str(&table_comment(&v, lang));
    match format {
        Format::CloudFormation => cloudformation(&mut out, sheet, &v, &name, lang),
        Format::Terraform => terraform(&mut out, sheet, &v, &name, lang),
        other => {
            return Err(TargetError::UnknownFormat {
                target: TargetId::Sqs,
                format: other.name().to_owned(),
            })
        }
    }
    Ok(Built {
        text: out,
        mapping: mapping(sheet, r, &v, &name, lang),
        gaps: gaps(sheet, &v, lang),
        actual: actual(&v),
    })
}

fn actual(v: &Values) -> Schedule {
    let retries = v.max_receive.saturating_sub(1) as usize;
    Schedule::bounded(vec![Delay::fixed(v.visibility_s as f64); retries])
}

/// The consumer's backoff table as comment lines.
fn table_comment(v: &Values, lang: Lang) -> String {
    let l = lang.code();
    let mut s = String::from("#\n");
    for line in t!(
        "target.sqs.table-intro",
        locale = l,
        visibility = v.visibility_s
    )
    .lines()
    {
        let _ = writeln!(s, "# {}", line.trim());
    }
    let _ = writeln!(s, "#   {}", t!("target.sqs.table-head", locale = l));
    // One row for a run of equal waits ("1–99 | 30 | 30"), never one row per retry.
    let mut i = 0;
    while i < v.table.len() {
        let (k, min, max) = v.table[i];
        let mut j = i + 1;
        while j < v.table.len() && (v.table[j].1, v.table[j].2) == (min, max) {
            j += 1;
        }
        let last = v.table[j - 1].0;
        let counts = if last == k {
            k.to_string()
        } else {
            format!("{k}–{last}")
        };
        let _ = writeln!(s, "#   {counts} | {} | {}", rows::num(min), rows::num(max));
        i = j;
    }
    s.push_str("#\n");
    s
}

/// A description for the template and the function: the process name, at most 200
/// characters.
fn description(sheet: &JobSheet) -> String {
    sheet.process.process_name.chars().take(200).collect()
}

/// The event source mapping's `MaximumConcurrency` for `slots` Lambda invocations at once
/// (one batch each), clamped to [`MAXIMUM_CONCURRENCY`].
pub fn maximum_concurrency(slots: u32) -> u32 {
    slots.clamp(MAXIMUM_CONCURRENCY.0, MAXIMUM_CONCURRENCY.1)
}

/// The scaling lines of the event source mapping (`prefix` the comment marker, `indent` the
/// block's), when the sheet chose its workers: a comment when the value is clamped, then
/// `line` given the value.
fn scaling(sheet: &JobSheet, indent: &str, line: &dyn Fn(u32) -> String, lang: Lang) -> String {
    let Some(k) = Knobs::of(sheet).filter(Knobs::sized) else {
        return String::new();
    };
    let n = maximum_concurrency(k.slots());
    let mut s = String::new();
    if n != k.slots() {
        let _ = writeln!(
            s,
            "{indent}# {}",
            rows::comment(&t!(
                "target.load.sqs.clamped-code",
                locale = lang.code(),
                slots = group_thousands(u64::from(k.slots())),
                value = group_thousands(u64::from(n))
            ))
        );
    }
    s.push_str(&line(n));
    s
}

fn cloudformation(out: &mut String, sheet: &JobSheet, v: &Values, name: &str, lang: Lang) {
    let desc = text::dq(&description(sheet));
    let scaling = scaling(
        sheet,
        "      ",
        &|n| format!("      ScalingConfig:\n        MaximumConcurrency: {n}\n"),
        lang,
    );
    let _ = write!(
        out,
        r#"AWSTemplateFormatVersion: "2010-09-09"
Description: {desc}
Parameters:
  FunctionRoleArn:
    Type: String
    Description: "The worker's execution role (sqs:ReceiveMessage, sqs:DeleteMessage, sqs:GetQueueAttributes, sqs:ChangeMessageVisibility, sqs:SendMessage to the dead-letter queue)."
  CodeBucket:
    Type: String
    Description: "The S3 bucket holding the worker's code."
  CodeKey:
    Type: String
    Description: "The S3 key of the worker's zip file."
Resources:
  DeadLetterQueue:
    Type: AWS::SQS::Queue
    Properties:
      QueueName: "{name}-dlq"
      MessageRetentionPeriod: {dlq}
  Queue:
    Type: AWS::SQS::Queue
    Properties:
      QueueName: "{name}"
      VisibilityTimeout: {vis}
      MessageRetentionPeriod: {ret}
      RedrivePolicy:
        deadLetterTargetArn:
          Fn::GetAtt: [DeadLetterQueue, Arn]
        maxReceiveCount: {max}
  Function:
    Type: AWS::Lambda::Function
    Properties:
      Description: {desc}
      Runtime: python3.12
      Handler: app.handler
      Role:
        Ref: FunctionRoleArn
      Timeout: {timeout}
      Code:
        S3Bucket:
          Ref: CodeBucket
        S3Key:
          Ref: CodeKey
  EventSourceMapping:
    Type: AWS::Lambda::EventSourceMapping
    Properties:
      EventSourceArn:
        Fn::GetAtt: [Queue, Arn]
      FunctionName:
        Ref: Function
      BatchSize: 10
      FunctionResponseTypes:
        - ReportBatchItemFailures
{scaling}Outputs:
  QueueUrl:
    Value:
      Ref: Queue
  DeadLetterQueueUrl:
    Value:
      Ref: DeadLetterQueue
"#,
        dlq = v.dlq_retention_s,
        vis = v.visibility_s,
        ret = v.retention_s,
        max = v.max_receive,
        timeout = v.function_timeout_s,
    );
}

fn terraform(out: &mut String, sheet: &JobSheet, v: &Values, name: &str, lang: Lang) {
    let desc = text::hcl_dq(&description(sheet));
    let scaling = scaling(
        sheet,
        "  ",
        &|n| format!("  scaling_config {{\n    maximum_concurrency = {n}\n  }}\n"),
        lang,
    );
    let scaling = if scaling.is_empty() {
        scaling
    } else {
        format!("\n{scaling}")
    };
    let _ = write!(
        out,
        r#"terraform {{
  required_providers {{
    aws = {{
      source = "hashicorp/aws"
    }}
  }}
}}

variable "function_role_arn" {{
  type        = string
  description = "The worker's execution role (sqs:ReceiveMessage, sqs:DeleteMessage, sqs:GetQueueAttributes, sqs:ChangeMessageVisibility, sqs:SendMessage to the dead-letter queue)."
}}

variable "function_zip" {{
  type        = string
  description = "The worker's zip file."
}}

resource "aws_sqs_queue" "dead_letter" {{
  name                      = "{name}-dlq"
  message_retention_seconds = {dlq}
}}

resource "aws_sqs_queue" "jobs" {{
  name                       = "{name}"
  visibility_timeout_seconds = {vis}
  message_retention_seconds  = {ret}
  redrive_policy = jsonencode({{
    deadLetterTargetArn = aws_sqs_queue.dead_letter.arn
    maxReceiveCount     = {max}
  }})
}}

resource "aws_lambda_function" "worker" {{
  function_name = "{name}"
  description   = {desc}
  role          = var.function_role_arn
  filename      = var.function_zip
  handler       = "app.handler"
  runtime       = "python3.12"
  timeout       = {timeout}
}}

resource "aws_lambda_event_source_mapping" "jobs" {{
  event_source_arn        = aws_sqs_queue.jobs.arn
  function_name           = aws_lambda_function.worker.arn
  batch_size              = 10
  function_response_types = ["ReportBatchItemFailures"]
{scaling}}}
"#,
        dlq = v.dlq_retention_s,
        vis = v.visibility_s,
        ret = v.retention_s,
        max = v.max_receive,
        timeout = v.function_timeout_s,
    );
}

fn mapping(
    sheet: &JobSheet,
    r: &RetrySpec,
    v: &Values,
    name: &str,
    lang: Lang,
) -> Vec<super::MappingRow> {
    let l = lang.code();
    let s = SheetText::of(r, lang);
    let tr = |k: &str| t!(format!("target.sqs.note.{k}"), locale = l).into_owned();
    let mut m = vec![
        row(
            FieldId::MaxAttempts,
            s.attempts,
            "RedrivePolicy.maxReceiveCount",
            v.max_receive.to_string(),
            tr("max-attempts"),
        ),
        row(
            FieldId::WaitStrategy,
            s.wait,
            "VisibilityTimeout + ChangeMessageVisibility",
            format!("{} s", v.visibility_s),
            t!(
                "target.sqs.note.wait",
                locale = l,
                visibility = v.visibility_s
            )
            .into_owned(),
        ),
        row(
            FieldId::Timeout,
            s.timeout,
            "AWS::Lambda::Function.Timeout",
            v.function_timeout_s.to_string(),
            tr("timeout"),
        ),
        mapping::lease_row(
            s.lease,
            "VisibilityTimeout",
            v.visibility_s.to_string(),
            t!(
                "target.sqs.note.lease",
                locale = l,
                want = v.function_timeout_s * 6
            )
            .into_owned(),
        ),
        row(
            FieldId::IdempotencyKey,
            r.idempotency_key.clone(),
            "",
            String::new(),
            tr("key"),
        ),
        row(
            FieldId::RetryableErrors,
            s.retryable,
            "batchItemFailures",
            String::new(),
            tr("retryable"),
        ),
        row(
            FieldId::NonRetryableErrors,
            s.non_retryable,
            "",
            String::new(),
            tr("non-retryable"),
        ),
    ];
    if let Some(f) = &sheet.failure {
        m.push(row(
            FieldId::DeadLetter,
            f.dead_letter.clone(),
            "RedrivePolicy.deadLetterTargetArn",
            format!("{name}-dlq"),
            tr("dead-letter"),
        ));
        m.push(row(
            FieldId::Retention,
            rows::keep_text(f.retention.dead, lang),
            "MessageRetentionPeriod (DLQ)",
            v.dlq_retention_s.to_string(),
            tr("dlq-retention"),
        ));
    }
    m.push(row(
        FieldId::QueueRetention,
        r.queue_retention_ms
            .map(|ms| exact(ms, lang))
            .unwrap_or_else(|| "—".to_owned()),
        "MessageRetentionPeriod",
        v.retention_s.to_string(),
        tr("queue-retention"),
    ));
    m.extend(mapping::layers_row(
        r,
        rows::layers_text,
        "RedrivePolicy.maxReceiveCount",
        rows::layers_note(lang),
    ));
    m.extend(load_rows(sheet, lang));
    m
}

/// The load section's rows: the workers as `MaximumConcurrency`, our limit (no key: SQS and
/// Lambda have no rate limit), the downstream's limits.
fn load_rows(sheet: &JobSheet, lang: Lang) -> Vec<super::MappingRow> {
    let Some(k) = Knobs::of(sheet) else {
        return Vec::new();
    };
    let mut m = Vec::new();
    if k.sized() {
        m.push(knobs::knob_row(
            FieldId::Workers,
            &k,
            "ScalingConfig.MaximumConcurrency",
            maximum_concurrency(k.slots()).to_string(),
            ("sqs", "workers"),
            lang,
        ));
    }
    m.extend(knobs::downstream_row(sheet, lang));
    m
}

/// The load section's gaps: a clamped `MaximumConcurrency`, no rate limit.
fn load_gaps(sheet: &JobSheet, lang: Lang) -> Vec<super::Gap> {
    let Some(k) = Knobs::of(sheet) else {
        return Vec::new();
    };
    let mut g = Vec::new();
    if k.sized() && maximum_concurrency(k.slots()) != k.slots() {
        let key = if k.slots() < MAXIMUM_CONCURRENCY.0 {
            "below"
        } else {
            "above"
        };
        g.push(knobs::knob_gap(
            FieldId::Workers,
            &k,
            ("sqs", key),
            Instead::Comment,
            lang,
        ));
    }
    g.extend(knobs::rate_gap("sqs", &k, lang));
    g
}

fn gaps(sheet: &JobSheet, v: &Values, lang: Lang) -> Vec<super::Gap> {
    let l = lang.code();
    let tr = |k: &str| t!(format!("target.sqs.gap.{k}"), locale = l).into_owned();
    let mut g = vec![
        gap(
            FieldId::WaitStrategy,
            tr("wait"),
            Instead::Comment,
            tr("wait-detail"),
        ),
        gap(
            FieldId::NonRetryableErrors,
            tr("non-retryable"),
            Instead::Comment,
            tr("non-retryable-detail"),
        ),
        gap(
            FieldId::IdempotencyKey,
            tr("key"),
            Instead::Comment,
            tr("key-detail"),
        ),
    ];
    if of_sheet(sheet)
        .delays
        .iter()
        .any(|d| d.max_s > VISIBILITY_MAX_S as f64)
    {
        g.push(gap(
            FieldId::WaitStrategy,
            tr("cap"),
            Instead::Nothing,
            String::new(),
        ));
    }
    if let Some(f) = &sheet.failure {
        if !f.notify.trim().is_empty() {
            g.push(gap(
                FieldId::Notify,
                tr("notify"),
                Instead::Nothing,
                tr("notify-detail"),
            ));
        }
        if let Keep::Days(_) = f.retention.done {
            g.push(gap(
                FieldId::Retention,
                tr("done"),
                Instead::Nothing,
                String::new(),
            ));
        }
        let dead_s = match f.retention.dead {
            Keep::Days(d) => u64::from(d) * 86_400,
            Keep::UntilHandled => u64::MAX,
        };
        if v.retention_s.saturating_add(dead_s) > RETENTION_MAX_S {
            g.push(gap(
                FieldId::Retention,
                t!(
                    "target.sqs.gap.dead",
                    locale = l,
                    keep = rows::keep_text(f.retention.dead, lang)
                )
                .into_owned(),
                Instead::Nothing,
                tr("dead-detail"),
            ));
        }
    }
    g.extend(load_gaps(sheet, lang));
    g
}

/// SQS's defaults: no RedrivePolicy, so a failing message is received again every
/// `VisibilityTimeout` (30 s) until `MessageRetentionPeriod` (4 d) deletes it: unlimited
/// attempts as far as the count goes (the window null), the first delays 30 s each.
pub fn defaults(lang: Lang) -> DefaultPolicy {
    DefaultPolicy {
        summary: t!(
            "target.sqs.defaults",
            locale = lang.code(),
            visibility = VISIBILITY_DEFAULT_S,
            retention = exact(RETENTION_DEFAULT_S * 1000, lang)
        )
        .into_owned(),
        attempts: None,
        schedule: Schedule::unlimited(vec![
            Delay::fixed(VISIBILITY_DEFAULT_S as f64);
            DEFAULT_LISTED
        ]),
    }
}

/// One sampled run of the actual delays, in seconds: SQS draws nothing; every retry comes
/// `VisibilityTimeout` after the last receive (`u` is not called).
///
/// # Errors
/// As [`build`].
pub fn sample(sheet: &JobSheet, _u: &mut dyn FnMut() -> f64) -> Result<Vec<f64>, TargetError> {
    let (v, _) = values(sheet, Lang::En)?;
    let mut out = Vec::new();
    for _receive in 1..v.max_receive {
        out.push(v.visibility_s as f64);
    }
    Ok(out)
}
