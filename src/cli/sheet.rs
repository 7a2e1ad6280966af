//! `modality-advisor sheet`: a job definition sheet file rendered as Markdown, TSV, CSV or
//! JSON, or (with `--target`) as a queue system's configuration ([`super::targets`]).
//!
//! ```text
//! modality-advisor sheet --input static/examples/reservation-mail.json --format tsv --lang ja
//! modality-advisor sheet --input static/examples/reservation-mail.json --target sidekiq > job.rb
//! modality-advisor sheet --input F --target sqs --format terraform --report
//! ```

use super::{lang_of, read_input, write_output, LangArg};
use crate::domain::export;
use crate::domain::queues;
use crate::domain::sheet::check::validate;
use crate::domain::sheet::import::import_json;
use crate::domain::sheet::JobSheet;
use crate::domain::Lang;
use clap::{Args, ValueEnum};

/// Output format of `sheet`: the sheet's own documents, or (with `--target`) the language
/// of a target's configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SheetFormat {
    /// The sheet as a Markdown document.
    Markdown,
    /// The sheet's rows, tab-separated.
    Tsv,
    /// The sheet's rows, CSV.
    Csv,
    /// The sheet file.
    Json,
    /// With --target sqs: a CloudFormation template (YAML).
    Cloudformation,
    /// With --target sqs: Terraform (HCL).
    Terraform,
    /// With --target: Python.
    Python,
    /// With --target: Ruby.
    Ruby,
    /// With --target: TypeScript.
    Typescript,
    /// With --target: JavaScript.
    Javascript,
    /// With --target: Elixir.
    Elixir,
    /// With --target: Go.
    Go,
    /// With --target: YAML.
    Yaml,
    /// With --target: SQL.
    Sql,
}

impl SheetFormat {
    /// The target format this names; `None` for the sheet's own formats.
    fn target_format(self) -> Option<queues::Format> {
        use queues::Format as F;
        Some(match self {
            SheetFormat::Markdown | SheetFormat::Tsv | SheetFormat::Csv | SheetFormat::Json => {
                return None
            }
            SheetFormat::Cloudformation => F::CloudFormation,
            SheetFormat::Terraform => F::Terraform,
            SheetFormat::Python => F::Python,
            SheetFormat::Ruby => F::Ruby,
            SheetFormat::Typescript => F::TypeScript,
            SheetFormat::Javascript => F::JavaScript,
            SheetFormat::Elixir => F::Elixir,
            SheetFormat::Go => F::Go,
            SheetFormat::Yaml => F::Yaml,
            SheetFormat::Sql => F::Sql,
        })
    }

    fn name(self) -> String {
        self.to_possible_value()
            .map(|v| v.get_name().to_owned())
            .unwrap_or_default()
    }
}

/// Arguments of `sheet`.
#[derive(Debug, Args)]
pub struct SheetArgs {
    /// The sheet file, JSON as the app exports it (example:
    /// static/examples/reservation-mail.json); - reads standard input.
    #[arg(long, value_name = "FILE.json")]
    input: String,
    /// Output format: markdown, tsv, csv or json; with --target, one of the target's formats
    /// (default: its first; `modality-advisor targets` lists them).
    #[arg(long, value_enum, required_unless_present = "target")]
    format: Option<SheetFormat>,
    /// Print the configuration for this queue system instead of the sheet: sqs, celery,
    /// sidekiq, bullmq, oban, river, pg-boss, active-job, temporal, cloud-tasks, kubernetes,
    /// sql-sqlite, sql-postgres.
    #[arg(long, value_name = "NAME")]
    target: Option<String>,
    /// With --target: print the whole report as JSON (the configuration text, the mapping,
    /// the gaps, the actual and the sheet's schedules, the defaults, the findings) instead of
    /// the configuration alone.
    #[arg(long, requires = "target")]
    report: bool,
    /// With --target sidekiq or active-job: the version whose formulas and syntax the export
    /// follows (sidekiq: 8, 6.2.2-7; active-job: 7.1, 6.1-7.0; default: the newest).
    #[arg(long, value_name = "VERSION", requires = "target")]
    target_version: Option<String>,
    /// Start the CSV with a UTF-8 byte order mark (for Excel); only with --format csv.
    #[arg(long)]
    bom: bool,
    /// Language of the labels (default: the file's `lang`, else en). Pre-filled defaults use
    /// the file's `lang` when it has one, else this.
    #[arg(long, value_enum)]
    lang: Option<LangArg>,
    /// Write here instead of standard output.
    #[arg(long, value_name = "FILE")]
    output: Option<std::path::PathBuf>,
}

/// `sheet`: read, import, render (or export to the target), write. Every error is a message
/// for stderr (exit 2).
pub fn run(args: &SheetArgs) -> Result<(), String> {
    if args.bom && args.format != Some(SheetFormat::Csv) {
        return Err("--bom is only allowed with --format csv".into());
    }
    if args.target.is_none() {
        if let Some(f) = args.format.filter(|f| f.target_format().is_some()) {
            return Err(format!(
                "--format {}: only with --target; without it: markdown, tsv, csv, json",
                f.name()
            ));
        }
    }
    let asked = args.lang.map(lang_of);
    let (text, source) = read_input(&args.input)?;
    let sheet = import_json(&text, asked.unwrap_or_default())
        .map_err(|e| format!("{source}: {}", e.message(asked.unwrap_or_default())))?;
    let lang = asked.or(sheet.lang).unwrap_or_default();
    if let Some(name) = &args.target {
        // A sheet format given with --target is refused naming the target's formats.
        let format = args
            .format
            .map(|f| f.target_format().ok_or_else(|| f.name()));
        let out = super::targets::export(
            &sheet,
            (name, args.target_version.as_deref()),
            format,
            args.report,
            lang,
            &source,
        )?;
        return write_output(args.output.as_deref(), &out);
    }
    // Markdown lists the sheet's findings in the document; the other formats carry only the
    // rows, so the findings go to stderr (the exit code stays 0: they are warnings to weigh).
    let format = args.format.unwrap_or(SheetFormat::Markdown);
    if format != SheetFormat::Markdown {
        let mut findings = validate(&sheet, lang);
        findings.extend(crate::domain::sheet::dst::dst_findings(
            &sheet,
            lang,
            super::targets::now_ms(),
        ));
        super::targets::print_findings(&findings, lang, &source);
    }
    let out = render(&sheet, format, args.bom, lang);
    write_output(args.output.as_deref(), &out)
}

fn render(sheet: &JobSheet, format: SheetFormat, bom: bool, lang: Lang) -> String {
    match format {
        SheetFormat::Tsv => export::to_tsv(sheet, lang),
        SheetFormat::Csv => export::to_csv(sheet, lang, bom),
        SheetFormat::Json => export::to_json(sheet),
        _ => export::markdown::to_markdown_at(sheet, lang, Some(super::targets::now_ms())),
    }
}
