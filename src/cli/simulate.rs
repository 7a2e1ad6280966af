//! `simulate`: a named scenario or a config file through the one run path, printed as text
//! (in `--lang`, numbers grouped as on the page) or as the JSON documented in docs/CLI.md and
//! described by `docs/schemas/simulate.schema.json` (every counter written, 0 when nothing
//! happened; a value that does not exist, null).

mod report;

use super::{lang_of, lease_flags, parse_jobs, parse_seed, read_input, Format, LangArg};
use crate::domain::sim::runner::LOAD_SCENARIO;
use clap::{ArgGroup, Args};

#[derive(Debug, Args)]
#[command(group(ArgGroup::new("source").required(true).args(["scenario", "config"])))]
pub struct SimulateArgs {
    /// Scenario: retry-dead-letter, duplicate-execution, claim-race, pg-row-locks,
    /// burst-leveling, jitter-contention, lease-shorter-than-handler; or mmc-load (the
    /// browser's Load preset, with --jobs).
    #[arg(long, value_name = "NAME")]
    scenario: Option<String>,
    /// Variant of the scenario (default: its first variant).
    #[arg(
        long,
        value_name = "V",
        requires = "scenario",
        conflicts_with = "config"
    )]
    variant: Option<String>,
    /// Jobs of the mmc-load scenario (1 to 1 000 000; default 10 000), as the browser's Load
    /// preset runs them.
    #[arg(
        long,
        value_name = "N",
        requires = "scenario",
        conflicts_with = "config",
        value_parser = parse_jobs,
        allow_negative_numbers = true
    )]
    jobs: Option<u64>,
    /// A JSON config file: fields in docs/CLI.md, "simulate"; examples in
    /// static/examples/*.config.json; the browser's "Download config JSON" writes one.
    /// - reads standard input.
    #[arg(long, value_name = "FILE.json")]
    config: Option<String>,
    /// RNG seed (overrides the config file's): a whole number from 0 to
    /// 18 446 744 073 709 551 615.
    #[arg(long, value_name = "N", value_parser = parse_seed, allow_negative_numbers = true)]
    seed: Option<u64>,
    /// Event-log lines to print (text and JSON): a whole number, or all. A longer log is cut
    /// after that many lines and says how many were left out; the trace hash still covers
    /// every line.
    #[arg(
        long,
        value_name = "N|all",
        default_value = "10000",
        value_parser = parse_log_lines,
        allow_negative_numbers = true
    )]
    log_lines: LogLines,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Language of the text report and of a refused config's messages (JSON ids and the
    /// event log's JSON lines stay as they are).
    #[arg(long, value_enum, default_value = "en")]
    lang: LangArg,
    #[command(flatten)]
    lease: lease_flags::LeaseFlags,
}

/// How much of the event log `simulate` prints: the first N lines, or all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LogLines {
    First(u64),
    All,
}

/// Event-log lines `simulate` prints by default (`--log-lines`): about 0.7 MB of text.
pub const DEFAULT_LOG_LINES: u64 = 10_000;

/// `--log-lines`: `all`, or a whole number (ASCII or full-width digits, optionally grouped by
/// threes); the error gives what is allowed.
fn parse_log_lines(raw: &str) -> Result<LogLines, super::usage::ValueError> {
    if raw.trim().eq_ignore_ascii_case("all") {
        return Ok(LogLines::All);
    }
    crate::domain::number::parse_whole(raw)
        .map(LogLines::First)
        .ok_or(super::usage::ValueError::WholeOrAll { max: u64::MAX })
}

/// `simulate`: runs a scenario or a config file through the one run path
/// ([`execute`](crate::domain::sim::runner::execute)). Errors name the field (or flag) and the
/// allowed values; the text report is in `--lang`.
pub fn run(args: &SimulateArgs) -> Result<String, Vec<String>> {
    use crate::domain::sim::runner::{execute, Purpose};
    let (spec, source) = run_spec(args)?;
    let lang = lang_of(args.lang);
    let finished = execute(&spec, Purpose::Report, |_| {}).map_err(|errs| {
        errs.iter()
            .map(|e| match &source {
                Some(source) => format!("{source}: {}", e.message(lang)),
                None => e.message(lang),
            })
            .collect::<Vec<_>>()
    })?;
    // The run's fingerprint: the browser's simulator shows the same for the same run.
    let (report, hash) = finished.report();
    let shown = match args.log_lines {
        LogLines::First(n) => usize::try_from(n).unwrap_or(usize::MAX),
        LogLines::All => usize::MAX,
    };
    Ok(match args.format {
        Format::Json => report::json(report, &hash, finished.call_rates(), shown),
        Format::Text => {
            // The event log in the run's language (English is the report's own lines).
            let events = match lang {
                crate::domain::Lang::En => None,
                lang => Some(finished.event_lines(lang, shown)),
            };
            report::text(&report, events, &hash, shown, lang)
        }
    })
}

/// What `simulate`'s flags ask to run, and the config file's name (its errors are prefixed
/// with it). Flag errors name the flag: `--scenario`, `--variant`, `--jobs`, `--config`.
fn run_spec(
    args: &SimulateArgs,
) -> Result<(crate::domain::sim::runner::RunSpec, Option<String>), Vec<String>> {
    use crate::domain::sim::runner::{Preset, RunSpec};
    use crate::domain::sim::setup::limits::DEFAULT_LOAD_JOBS;
    use crate::domain::sim::{parse_file, Scenario};
    if let Some(path) = &args.config {
        let (text, source) = read_input(path).map_err(|e| vec![format!("--config: {e}")])?;
        let lang = lang_of(args.lang);
        let mut file = parse_file(&text).map_err(|errs| {
            errs.iter()
                .map(|e| format!("{source}: {}", e.message(lang)))
                .collect::<Vec<_>>()
        })?;
        args.lease.apply(&mut file);
        let spec = RunSpec {
            preset: Preset::File(Box::new(file)),
            seed: args.seed,
        };
        return Ok((spec, Some(source)));
    }
    let name = args.scenario.as_deref().unwrap_or_default();
    let preset = if name == LOAD_SCENARIO {
        if let Some(v) = args.variant.as_deref().filter(|v| *v != "bench") {
            return Err(vec![format!(
                "--variant: {LOAD_SCENARIO} has one variant, bench (got \"{v}\")"
            )]);
        }
        Preset::Load {
            jobs: args.jobs.unwrap_or(DEFAULT_LOAD_JOBS),
        }
    } else {
        if args.jobs.is_some() {
            return Err(vec![format!(
                "--jobs: only for --scenario {LOAD_SCENARIO} (the other scenarios have fixed \
                 job counts)"
            )]);
        }
        // Checked here so the error names the flag.
        let flag_error = |e: crate::domain::sim::ConfigError| {
            let flag = if e.field() == "variant" {
                "--variant"
            } else {
                "--scenario"
            };
            // The error already starts with its field name; put the flag in its place.
            let text = e.to_string();
            let mut detail = text
                .strip_prefix(&format!("{}: ", e.field()))
                .unwrap_or(&text)
                .to_owned();
            if flag == "--scenario" {
                // The CLI also runs the browser's Load preset.
                detail.push_str(&format!(", {LOAD_SCENARIO} (with --jobs N)"));
            }
            vec![format!("{flag}: {detail}")]
        };
        let sc = Scenario::parse(name).map_err(flag_error)?;
        sc.variant(args.variant.as_deref()).map_err(flag_error)?;
        Preset::Scenario {
            name: name.to_owned(),
            variant: args.variant.clone(),
        }
    };
    let spec = RunSpec {
        preset,
        seed: Some(args.seed.unwrap_or(1)),
    };
    Ok((spec, None))
}
