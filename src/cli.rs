//! The command-line interface (native only): the same engine as the web app.
//!
//! ```text
//! modality-advisor advise --time-triggered no --needs-result-now no
//! modality-advisor advise --time-triggered no --needs-result-now yes \
//!     --target-ms 2000 --p95-ms 8000 --format json --lang ja
//! modality-advisor sheet --input static/examples/reservation-mail.json --format tsv --lang ja
//! modality-advisor sheet --input - --format csv --bom --output sheet.csv < sheet.json
//! modality-advisor simulate --config - --format json < run.config.json
//! modality-advisor catalog --input static/examples/reservation-system.catalog.json --format markdown
//! modality-advisor share --input static/examples/reservation-mail.json --format svg
//! modality-advisor sheet --input static/examples/reservation-mail.json --target sqs --format terraform
//! modality-advisor targets --format json
//! modality-advisor check sheets/ --format sarif --fail-level none > check.sarif
//! ```
//!
//! Exit codes: 0 success; 2 bad usage (a bad value names the flag and the allowed values; a
//! missing answer names the flag of the question that must be answered; a bad sheet file
//! names the JSON field and what is allowed; an unreadable input or unwritable output names
//! the path).
//!
//! Usage errors are worded in the run's language (`usage`); `simulate`, `sheet`, `targets`,
//! `catalog`, `share`, `size`, `check` and the lease flags of `simulate --config` are in their
//! own files.

mod audit;
mod catalog;
mod check;
mod lease_flags;
mod share;
mod sheet;
mod simulate;
mod size;
mod targets;
mod usage;

pub use simulate::DEFAULT_LOG_LINES;

use crate::domain::number::group_thousands;
use crate::domain::{evaluate, Answers, Evaluation, Lang, QuestionId, Status, Timing};
use clap::{Args, Parser, Subcommand, ValueEnum};
use serde::Serialize;
use std::process::ExitCode;

/// Command-line arguments.
#[derive(Debug, Parser)]
#[command(
    name = "modality-advisor",
    version,
    about = "Decide per process: sync, async (queued job or ticket) or scheduled batch."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Walk the decision flowchart with the given answers and print the recommendation.
    Advise(AdviseArgs),
    /// Render a job definition sheet (JSON, as exported by the app) as Markdown, TSV, CSV or
    /// JSON. Sections the file leaves out are pre-filled for its outcome.
    ///
    /// With --target NAME, print that queue system's configuration for the sheet instead
    /// (only the configuration, for piping into a file; --report prints the whole report as
    /// JSON: mapping, gaps, actual and sheet schedules, defaults, findings).
    Sheet(sheet::SheetArgs),
    /// Run a named queue scenario, or a config file, in the discrete-event simulator.
    Simulate(simulate::SimulateArgs),
    /// Render a catalog of processes (a catalog file, or a directory of *.sheet.json files)
    /// as one Markdown document, CSV, TSV or the catalog JSON; or its system diagram
    /// (mermaid, SVG).
    Catalog(catalog::CatalogArgs),
    /// Share a sheet file's process, or a catalog (or one of its processes): print the
    /// permalink, the embed page's link, or a card for wikis without iframes (SVG image,
    /// decision record, Markdown for GitHub or Azure DevOps).
    Share(share::ShareArgs),
    /// List every queue system `sheet --target` exports to, with its formats, its default
    /// retry policy and that policy's window (seconds, zero processing time; null where
    /// unbounded).
    Targets(targets::TargetsArgs),
    /// How many workers, what lease, how long a burst takes to drain: the capacity answer for
    /// a sheet's "Load and capacity" numbers (--input) or for numbers given as flags (a flag
    /// overrides the sheet's). Analytic (Erlang C, Allen–Cunneen, square-root staffing, the
    /// fluid burst) and simulated by the real engine over worker counts × seeds, with 95 %
    /// confidence intervals; deterministic for a seed. JSON: {"recommendation": {"workers",
    /// "reason", "reason_id"}, "bottleneck", "points": [{"workers", "wait_ms": {"p50", "p95",
    /// "p99"}, "wait_p95_ci_ms", "drain_ms", "drain_ci_ms"}], "analytic": [{"workers",
    /// "wait_p95_ms": {"low", "high"}}], "lease_ms", "offered_load", "utilisation", …}.
    Size(size::SizeArgs),
    /// Check sheet and catalog files (or directories of them) for CI: every finding with its
    /// stable rule id (docs/FINDINGS.md), severity, file, line and column, as text, JSON,
    /// SARIF 2.1.0, GitHub annotations or JUnit XML.
    ///
    /// Exit codes: 0 no finding at or above --fail-level; 1 a finding at or above it; 2 an
    /// input that cannot be read (missing, too large, not JSON, not a sheet or catalog, or
    /// refused by the importer: the file, line and column are named) or bad usage.
    Check(check::CheckArgs),
    /// Read existing queue configurations — Terraform (*.tf, *.tf.json) and CloudFormation /
    /// SAM (YAML or JSON) for SQS + Lambda, Kubernetes Job / CronJob manifests, Cloud Tasks
    /// queues, and retry options written as literals in Celery, Sidekiq, Active Job, Oban,
    /// River, BullMQ, pg-boss and Temporal code — and
    /// report, per job found: the sheet (what the file states; the rest "not stated", with the
    /// system's default), the schedule the system really runs, the findings at the file's
    /// lines, and the settings not resolved (variables, references). Same formats as check.
    /// JSON: {"jobs": [{"file", "line", "system", "sheet", "not_stated", "schedule",
    /// "findings", "unresolved"}], "errors", "summary"}.
    ///
    /// Exit codes: 0 no finding at or above --fail-level; 1 a finding at or above it; 2 a
    /// file that cannot be read (missing, over 5 MiB, binary, a syntax error, a YAML bomb, not
    /// a configuration audit reads, or no queue or job in it: the file and line are named) or
    /// bad usage.
    Audit(audit::AuditArgs),
}

/// A yes/no answer on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum YesNo {
    Yes,
    No,
}

impl YesNo {
    fn value(self) -> bool {
        matches!(self, YesNo::Yes)
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum LangArg {
    En,
    Ja,
}

#[derive(Debug, Args)]
struct AdviseArgs {
    /// Is the trigger a point in time, and is bulk processing fine?
    #[arg(long, value_enum, value_name = "yes|no")]
    time_triggered: Option<YesNo>,
    /// Does the user need the result in the response?
    #[arg(long, value_enum, value_name = "yes|no")]
    needs_result_now: Option<YesNo>,
    /// Does it finish within a few seconds? (or give --target-ms and --p95-ms)
    #[arg(long, value_enum, value_name = "yes|no", conflicts_with_all = ["target_ms", "p95_ms"])]
    within_seconds: Option<YesNo>,
    /// The response-time target in milliseconds (with --p95-ms, in place of --within-seconds).
    #[arg(
        long,
        value_name = "MS",
        requires = "p95_ms",
        allow_negative_numbers = true,
        value_parser = parse_target_ms
    )]
    target_ms: Option<u64>,
    /// The expected duration at p95 in milliseconds (with --target-ms).
    #[arg(
        long,
        value_name = "MS",
        requires = "target_ms",
        allow_negative_numbers = true,
        value_parser = parse_ms
    )]
    p95_ms: Option<u64>,
    /// Does it include a call to an external system?
    #[arg(long, value_enum, value_name = "yes|no")]
    external_call: Option<YesNo>,
    /// Should requests still be accepted while the external system is down?
    #[arg(long, value_enum, value_name = "yes|no")]
    keep_accepting_when_down: Option<YesNo>,
    /// Language of the texts.
    #[arg(long, value_enum, default_value = "en")]
    lang: LangArg,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// The JSON printed by `advise --format json`.
#[derive(Debug, Serialize)]
struct AdviseJson {
    outcome: &'static str,
    path: Vec<PathJson>,
    reasons: Vec<String>,
    tradeoffs: Vec<String>,
}

#[derive(Debug, Serialize)]
struct PathJson {
    question: &'static str,
    answer: bool,
}

/// Parses a duration given on the command line in milliseconds: a whole number of ms (ASCII
/// or full-width digits, optionally grouped by threes) or a number with a unit (`2s`,
/// `1.5min`, `500ms`, `2h`, `1d`, `２秒`; see [`crate::domain::duration::parse`]); the error
/// gives why and the allowed range.
fn parse_ms(raw: &str) -> Result<u64, usage::ValueError> {
    parse_ms_from(raw, 0)
}

/// A response-time target: as [`parse_ms`] but from 1 ms (a target of 0 cannot be met).
fn parse_target_ms(raw: &str) -> Result<u64, usage::ValueError> {
    parse_ms_from(raw, 1)
}

fn parse_ms_from(raw: &str, min: u64) -> Result<u64, usage::ValueError> {
    ms_in_range(raw, min, Timing::MAX_MS)
}

/// A duration flag's value in milliseconds inside `min ..= max` (see [`parse_ms`]); the
/// error reads `expected a whole number of milliseconds from 0 to 604,800,000 (or a number
/// with a unit: 2s, 1.5min)`, after the reason when the text is not a duration (in Japanese
/// for a `--lang ja` run).
pub(crate) fn ms_in_range(raw: &str, min: u64, max: u64) -> Result<u64, usage::ValueError> {
    match crate::domain::duration::parse(raw, 1) {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        Ok(_) => Err(usage::ValueError::Millis {
            min,
            max,
            why: None,
        }),
        Err(e) => Err(usage::ValueError::Millis {
            min,
            max,
            why: Some(e),
        }),
    }
}

/// A seed: any `u64` (ASCII or full-width digits, optionally grouped by threes); the error
/// gives the range.
fn parse_seed(raw: &str) -> Result<u64, usage::ValueError> {
    crate::domain::number::parse_whole(raw).ok_or(usage::ValueError::Whole {
        min: 0,
        max: u64::MAX,
    })
}

/// The mmc-load scenario's job count: 1 to [`MAX_LOAD_JOBS`]; the error gives the range.
fn parse_jobs(raw: &str) -> Result<u64, usage::ValueError> {
    use crate::domain::sim::runner::MAX_LOAD_JOBS;
    crate::domain::number::parse_whole(raw)
        .filter(|n| (1..=MAX_LOAD_JOBS).contains(n))
        .ok_or(usage::ValueError::Whole {
            min: 1,
            max: MAX_LOAD_JOBS,
        })
}

/// The flag that answers `q`, e.g. `--needs-result-now`.
pub fn flag(q: QuestionId) -> String {
    format!("--{}", q.id())
}

/// Runs the CLI with the process's arguments; returns the exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap names the flag and the allowed values, in the run's language; usage
            // errors exit 2.
            match usage::message(&e, usage::lang_of_args(std::env::args_os().skip(1))) {
                Some(text) => eprint!("{text}"),
                None => {
                    let _ = e.print();
                }
            }
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match cli.command {
        Command::Advise(args) => match advise(&args) {
            Ok(out) => {
                print!("{out}");
                ExitCode::SUCCESS
            }
            Err(msg) => {
                eprintln!("error: {msg}");
                ExitCode::from(2)
            }
        },
        Command::Simulate(args) => match simulate::run(&args) {
            Ok(out) => {
                print!("{out}");
                ExitCode::SUCCESS
            }
            Err(errs) => {
                for e in errs {
                    eprintln!("error: {e}");
                }
                ExitCode::from(2)
            }
        },
        Command::Catalog(args) => exit_code(catalog::run(&args)),
        Command::Share(args) => exit_code(share::run(&args)),
        Command::Sheet(args) => exit_code(sheet::run(&args)),
        Command::Targets(args) => exit_code(targets::list(&args)),
        Command::Size(args) => exit_code(size::run(&args)),
        Command::Check(args) => check::run(&args),
        Command::Audit(args) => audit::run(&args),
    }
}

/// 0 for a command that wrote its output; 2 with the message on stderr otherwise.
fn exit_code(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}

fn lang_of(arg: LangArg) -> Lang {
    match arg {
        LangArg::En => Lang::En,
        LangArg::Ja => Lang::Ja,
    }
}

/// Reads an input file named on the command line; `-` reads standard input to its end.
/// Returns the text and the name errors about it use: the path as given, or `standard input`
/// (the name `sheet` has always used).
///
/// # Errors
/// "cannot read NAME: <the system's reason>" (a missing file, a directory, text that is not
/// UTF-8).
fn read_input(arg: &str) -> Result<(String, String), String> {
    use std::io::Read;
    if arg == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        Ok((s, "standard input".into()))
    } else {
        let s = std::fs::read_to_string(arg).map_err(|e| format!("cannot read {arg}: {e}"))?;
        Ok((s, arg.to_owned()))
    }
}

/// Writes `out` to `path`, or to standard output when `None`.
///
/// # Errors
/// "cannot write PATH: <the system's reason>".
fn write_output(path: Option<&std::path::Path>, out: &str) -> Result<(), String> {
    use std::io::Write;
    match path {
        Some(path) => {
            std::fs::write(path, out).map_err(|e| format!("cannot write {}: {e}", path.display()))
        }
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(out.as_bytes())
                .and_then(|()| stdout.flush())
                .map_err(|e| format!("cannot write standard output: {e}"))
        }
    }
}

fn advise(args: &AdviseArgs) -> Result<String, String> {
    let lang = lang_of(args.lang);
    let mut answers = Answers::new();
    let given = [
        (QuestionId::TimeTriggered, args.time_triggered),
        (QuestionId::NeedsResultNow, args.needs_result_now),
        (QuestionId::WithinSeconds, args.within_seconds),
        (QuestionId::ExternalCall, args.external_call),
        (
            QuestionId::KeepAcceptingWhenDown,
            args.keep_accepting_when_down,
        ),
    ];
    for (q, v) in given {
        if let Some(v) = v {
            answers.set(q, v.value());
        }
    }
    if let (Some(target), Some(p95)) = (args.target_ms, args.p95_ms) {
        let timing = Timing::new(target, p95).map_err(|e| {
            let crate::domain::TimingError::OutOfRange {
                field, min, max, ..
            } = e;
            let flag = format!("--{}", field.replace('_', "-"));
            crate::text::t!(
                "cli.range",
                locale = lang.code(),
                flag = flag,
                min = group_thousands(min),
                max = group_thousands(max)
            )
            .into_owned()
        })?;
        answers.set_timing(timing);
    }
    let eval = evaluate(&answers);
    if let Status::Ask(q) = eval.status {
        let hint = if q == QuestionId::WithinSeconds {
            " (--target-ms N --p95-ms N)"
        } else {
            ""
        };
        return Err(crate::text::t!(
            "cli.missing",
            locale = lang.code(),
            flag = flag(q),
            hint = hint,
            question = q.text(lang)
        )
        .into_owned());
    }
    for q in &eval.ignored {
        eprintln!(
            "{}",
            crate::text::t!("cli.ignored", locale = lang.code(), flag = flag(*q))
        );
    }
    Ok(match args.format {
        Format::Json => render_json(&eval, lang),
        Format::Text => render_text(&eval, lang),
    })
}

fn render_json(eval: &Evaluation, lang: Lang) -> String {
    let json = AdviseJson {
        outcome: eval.outcome().map(|o| o.id()).unwrap_or_default(),
        path: eval
            .path
            .iter()
            .map(|s| PathJson {
                question: s.question.id(),
                answer: s.yes(),
            })
            .collect(),
        reasons: eval.reasons(lang),
        tradeoffs: eval.tradeoffs(lang),
    };
    // Serialising plain strings and bools cannot fail.
    let mut s = serde_json::to_string_pretty(&json).unwrap_or_default();
    s.push('\n');
    s
}

fn render_text(eval: &Evaluation, lang: Lang) -> String {
    use std::fmt::Write;
    let Some(outcome) = eval.outcome() else {
        return String::new();
    };
    let h = |en: &'static str, ja: &'static str| if lang == Lang::Ja { ja } else { en };
    let mut s = String::new();
    let _ = writeln!(s, "{} [{}]", outcome.title(lang), outcome.id());
    let _ = writeln!(s, "{}", outcome.summary(lang));
    let _ = writeln!(s, "\n{}", h("Path:", "経路："));
    for (i, step) in eval.path.iter().enumerate() {
        let yn = crate::text::t!(
            if step.yes() {
                "answer.yes"
            } else {
                "answer.no"
            },
            locale = lang.code()
        );
        let _ = writeln!(s, "  {}. {} → {yn}", i + 1, step.question.text(lang));
    }
    for (title, items) in [
        (h("Reasons:", "理由："), eval.reasons(lang)),
        (h("Trade-offs:", "トレードオフ："), eval.tradeoffs(lang)),
        (h("Next:", "次にすること："), outcome.next_steps(lang)),
    ] {
        let _ = writeln!(s, "\n{title}");
        for item in items {
            let _ = writeln!(s, "  - {item}");
        }
    }
    s
}
