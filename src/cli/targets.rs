//! `modality-advisor sheet --target NAME` (a queue system's configuration for a sheet) and
//! `modality-advisor targets` (every target with its default policy and window), both from
//! [`crate::domain::queues`].
//!
//! ```text
//! modality-advisor sheet --input static/examples/reservation-mail.json --target celery > tasks.py
//! modality-advisor sheet --input F --target sqs --format terraform --report
//! modality-advisor sheet --input F --target sidekiq --target-version 6.2.2-7
//! modality-advisor targets --format json
//! modality-advisor targets --target-version sidekiq=6.2.2-7
//! ```
//!
//! Sidekiq and Active Job have versions whose formulas or syntax differ
//! ([`TargetVersion`]): `--target-version` chooses one (default: the newest); a name the
//! target does not have exits 2 naming the allowed ones.
//!
//! `sheet --target` prints only the configuration text, so it can be piped into a file; the
//! sheet's findings and the target's own (e.g. SQS's lease under 6 × the timeout) go to
//! stderr. `--report` prints the whole [`TargetReport`](crate::domain::queues::TargetReport)
//! as JSON instead. An unknown target or format, a sheet the target configures nothing for,
//! or a value it cannot hold exits 2 with the message naming the target, the field and the
//! allowed range.

use super::{lang_of, write_output, LangArg};
use crate::domain::queues::{self, TargetId, TargetVersion, WindowS};
use crate::domain::sheet::check::{validate, Finding, Severity};
use crate::domain::sheet::dst::dst_findings;
use crate::domain::sheet::JobSheet;
use crate::domain::Lang;
use clap::{Args, ValueEnum};
use serde::Serialize;
use std::fmt::Write;

/// Output format of `targets`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TargetsFormat {
    /// One block per target.
    Text,
    /// A JSON array, one object per target.
    Json,
}

/// Arguments of `targets`.
#[derive(Debug, Args)]
pub struct TargetsArgs {
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: TargetsFormat,
    /// Language of the default policies' summaries.
    #[arg(long, value_enum, default_value = "en")]
    lang: LangArg,
    /// Write here instead of standard output.
    #[arg(long, value_name = "FILE")]
    output: Option<std::path::PathBuf>,
    /// A target's version for its defaults, as TARGET=VERSION (sidekiq=8, sidekiq=6.2.2-7, sidekiq=7.2.1,
    /// active-job=7.1, active-job=6.1-7.0); repeatable; default: each target's newest.
    #[arg(long, value_name = "TARGET=VERSION", value_parser = parse_target_version)]
    target_version: Vec<TargetVersion>,
}

/// `TARGET=VERSION` as a [`TargetVersion`].
///
/// # Errors
/// The unknown target or version, naming the allowed ones.
pub(crate) fn parse_target_version(raw: &str) -> Result<TargetVersion, String> {
    let (name, version) = raw
        .split_once('=')
        .ok_or_else(|| format!("{raw:?} is not TARGET=VERSION (e.g. sidekiq=6.2.2-7)"))?;
    let target = TargetId::parse(name).map_err(|e| e.message(Lang::En))?;
    TargetVersion::parse(target, version).map_err(|e| e.message(Lang::En))
}

/// `sheet --target NAME [--target-version V]`: the configuration text (or with `report` the whole report as
/// pretty JSON), ending with a newline. `format`: the `--format` given, `Err(name)` for one
/// that is not a target format (e.g. `json`). Findings go to stderr, prefixed with `source`.
///
/// # Errors
/// The target's error message in `lang` (unknown target or format, not applicable, out of
/// range).
pub fn export(
    sheet: &JobSheet,
    (name, version): (&str, Option<&str>),
    format: Option<Result<queues::Format, String>>,
    report: bool,
    lang: Lang,
    source: &str,
) -> Result<String, String> {
    let id = TargetId::parse(name).map_err(|e| format!("--target: {}", e.message(lang)))?;
    let format = format
        .transpose()
        .map_err(|format| queues::TargetError::UnknownFormat { target: id, format })
        .map_err(|e| format!("--format: {}", e.message(lang)))?;
    let version = version
        .map(|v| TargetVersion::parse(id, v))
        .transpose()
        .map_err(|e| format!("--target-version: {}", e.message(lang)))?;
    let mut rep =
        queues::report_version(sheet, id, format, version, lang).map_err(|e| match e {
            queues::TargetError::UnknownFormat { .. } => format!("--format: {}", e.message(lang)),
            _ => format!("{source}: {}", e.message(lang)),
        })?;
    rep.findings.extend(dst_findings(sheet, lang, now_ms()));
    if report {
        let mut s = serde_json::to_string_pretty(&rep).map_err(|e| e.to_string())?;
        s.push('\n');
        return Ok(s);
    }
    print_findings(&validate(sheet, lang), lang, source);
    print_findings(&rep.findings, lang, source);
    let mut text = rep.built.text;
    if !text.ends_with('\n') {
        text.push('\n');
    }
    Ok(text)
}

/// The machine's clock, Unix milliseconds: the daylight-saving findings count the coming year
/// from it.
pub fn now_ms() -> i64 {
    jiff::Timestamp::now().as_millisecond()
}

/// Each finding as a line on stderr: `SOURCE: warning [code]: message`.
pub fn print_findings(findings: &[Finding], lang: Lang, source: &str) {
    for f in findings {
        let key = match f.severity {
            Severity::Error => "cli.finding-error",
            Severity::Warning => "cli.finding-warning",
        };
        let severity = crate::text::t!(key, locale = lang.code());
        eprintln!("{source}: {severity} [{}]: {}", f.code, f.message);
    }
}

/// One line of `targets --format json`.
#[derive(Debug, Serialize)]
struct TargetJson {
    name: &'static str,
    label: &'static str,
    formats: Vec<&'static str>,
    /// The releases the formulas and syntax follow, in words.
    versions: String,
    /// The version shown (`--target-version`, else the newest); `None` without versions.
    version: Option<TargetVersion>,
    /// The names `--target-version` takes for this target.
    target_versions: Vec<&'static str>,
    default_policy: String,
    default_attempts: Option<u32>,
    window_s: WindowS,
}

/// `targets`: every target, its formats, default policy and default window.
///
/// # Errors
/// "cannot write …" when the output cannot be written.
pub fn list(args: &TargetsArgs) -> Result<(), String> {
    let lang = lang_of(args.lang);
    let rows: Vec<TargetJson> = TargetId::ALL
        .into_iter()
        .map(|t| {
            let asked = args.target_version.iter().rev().find(|v| v.target() == t);
            let version = t.version_or_newest(asked.copied());
            let d = queues::defaults_version(t, version, lang);
            TargetJson {
                name: t.name(),
                label: t.label(),
                formats: t.formats().iter().map(|f| f.name()).collect(),
                versions: queues::versions::followed(t, version, lang),
                version,
                target_versions: t.versions().iter().map(|v| v.name()).collect(),
                default_policy: d.summary,
                default_attempts: d.attempts,
                window_s: d.schedule.window_s,
            }
        })
        .collect();
    let out = match args.format {
        TargetsFormat::Json => {
            let mut s = serde_json::to_string_pretty(&rows).map_err(|e| e.to_string())?;
            s.push('\n');
            s
        }
        TargetsFormat::Text => text(&rows, lang),
    };
    write_output(args.output.as_deref(), &out)
}

fn text(rows: &[TargetJson], lang: Lang) -> String {
    let ja = lang == Lang::Ja;
    let mut s = String::new();
    for r in rows {
        let _ = writeln!(s, "{} — {} ({})", r.name, r.label, r.formats.join(", "));
        let (follows, choose) = if ja {
            ("対象のバージョン", "--target-version で選べるもの")
        } else {
            ("versions followed", "--target-version takes")
        };
        let _ = writeln!(s, "  {follows}: {}", r.versions);
        if !r.target_versions.is_empty() {
            let _ = writeln!(s, "  {choose}: {}", r.target_versions.join(", "));
        }
        if !r.default_policy.is_empty() {
            let _ = writeln!(s, "  {}", r.default_policy);
        }
        let attempts = match (r.default_attempts, ja) {
            (Some(n), _) => n.to_string(),
            (None, false) => "unlimited".to_owned(),
            (None, true) => "無制限".to_owned(),
        };
        let window = match (r.window_s.min, r.window_s.expected, r.window_s.max) {
            (Some(min), Some(exp), Some(max)) => [min, exp, max]
                .iter()
                .map(|s| {
                    let approx = crate::domain::duration::approx(s * 1000.0, lang);
                    format!("{} s ({approx})", queues::rows::num(*s))
                })
                .collect::<Vec<_>>()
                .join(" / "),
            _ if ja => "上限なし".to_owned(),
            _ => "unbounded".to_owned(),
        };
        let (a, w) = if ja {
            ("既定の試行回数", "既定のウィンドウ（最小 / 期待値 / 最大）")
        } else {
            ("default attempts", "default window (min / expected / max)")
        };
        let _ = writeln!(s, "  {a}: {attempts} · {w}: {window}\n");
    }
    s
}
