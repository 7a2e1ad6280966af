//! From the sheet to a real queue's configuration: one module per target system, each giving
//! the configuration text in the target's own language, the field-by-field mapping, what the
//! target cannot express (and what the export does instead), the schedule the target will
//! **actually** run for these values by its own formula, and its default policy with its
//! default window. Facts per system: `brief/QUEUES.md` (read from each project's source at the
//! commit it names; the module of each target cites its section).
//!
//! | name | module | formats |
//! |---|---|---|
//! | `sqs` | [`sqs`] | CloudFormation YAML, Terraform HCL |
//! | `celery` | [`celery`] | Python |
//! | `sidekiq` | [`sidekiq`] | Ruby |
//! | `bullmq` | [`bullmq`] | TypeScript |
//! | `oban` | [`oban`] | Elixir |
//! | `river` | [`river`] | Go |
//! | `pg-boss` | [`pg_boss`] | JavaScript |
//! | `active-job` | [`active_job`] | Ruby |
//! | `temporal` | [`temporal`] | Go, TypeScript |
//! | `cloud-tasks` | [`cloud_tasks`] | YAML (queue.yaml for gcloud) |
//! | `kubernetes` | [`kubernetes`] | YAML (Job / CronJob) |
//! | `sql-sqlite` | [`sql`] | SQL (SQLite) |
//! | `sql-postgres` | [`sql`] | SQL (PostgreSQL) |
//!
//! Every export is pure text built from the sheet; user text (names, errors, notes) is escaped
//! for the target's syntax by [`text`] (proven by the targets' own parsers in
//! `tests/it/target_tools.rs`). Windows are in **seconds** with zero processing time, as
//! `brief/QUEUES.md` §0 defines them.

pub mod active_job;
pub mod bullmq;
pub mod celery;
pub mod cloud_tasks;
pub mod findings;
mod header;
mod kit;
pub mod knobs;
pub mod kubernetes;
mod mapping;
pub mod oban;
pub mod pg_boss;
pub mod river;
pub mod rows;
pub mod schedule;
pub mod sidekiq;
pub mod sql;
pub mod sqs;
pub mod temporal;
pub mod text;
pub mod versions;

use crate::domain::bidi::{self, Shown};
use crate::domain::lang::Lang;
use crate::domain::sheet::check::Finding;
use crate::domain::sheet::{FieldId, JobSheet};
use serde::{Deserialize, Serialize};

pub use schedule::{Delay, Schedule, WindowS};
pub use versions::TargetVersion;

/// A target system.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TargetId {
    /// AWS SQS with a Lambda event source mapping.
    Sqs,
    /// Celery (Python).
    Celery,
    /// Sidekiq (Ruby).
    Sidekiq,
    /// BullMQ (TypeScript).
    Bullmq,
    /// Oban (Elixir).
    Oban,
    /// River (Go).
    River,
    /// pg-boss (JavaScript).
    PgBoss,
    /// Active Job `retry_on` with Solid Queue (Ruby).
    ActiveJob,
    /// Temporal activity RetryPolicy (Go, TypeScript).
    Temporal,
    /// Google Cloud Tasks queue.
    CloudTasks,
    /// Kubernetes Job / CronJob.
    Kubernetes,
    /// The source documents' table queue, SQLite dialect.
    SqlSqlite,
    /// The source documents' table queue, PostgreSQL dialect.
    SqlPostgres,
}

impl TargetId {
    /// Every target, in the order lists show them.
    pub const ALL: [TargetId; 13] = [
        TargetId::Sqs,
        TargetId::Celery,
        TargetId::Sidekiq,
        TargetId::Bullmq,
        TargetId::Oban,
        TargetId::River,
        TargetId::PgBoss,
        TargetId::ActiveJob,
        TargetId::Temporal,
        TargetId::CloudTasks,
        TargetId::Kubernetes,
        TargetId::SqlSqlite,
        TargetId::SqlPostgres,
    ];

    /// Whether the target configures anything for a sheet whose decision is `outcome`: every
    /// target a queued job or a ticket (an asynchronous outcome), Kubernetes alone a scheduled
    /// batch (a CronJob), none a synchronous call. The builders refuse the others with
    /// [`TargetError::NotApplicable`]; the sheet's "Configuration for" offers only these.
    pub fn configures(self, outcome: crate::domain::flowchart::Outcome) -> bool {
        use crate::domain::flowchart::Outcome;
        match outcome {
            Outcome::AsyncEnqueue | Outcome::AsyncTicket => true,
            Outcome::Batch => self == TargetId::Kubernetes,
            Outcome::Sync | Outcome::SyncTimeout => false,
        }
    }

    /// The stable name, e.g. `"pg-boss"` (the CLI's `--target`).
    pub fn name(self) -> &'static str {
        match self {
            TargetId::Sqs => "sqs",
            TargetId::Celery => "celery",
            TargetId::Sidekiq => "sidekiq",
            TargetId::Bullmq => "bullmq",
            TargetId::Oban => "oban",
            TargetId::River => "river",
            TargetId::PgBoss => "pg-boss",
            TargetId::ActiveJob => "active-job",
            TargetId::Temporal => "temporal",
            TargetId::CloudTasks => "cloud-tasks",
            TargetId::Kubernetes => "kubernetes",
            TargetId::SqlSqlite => "sql-sqlite",
            TargetId::SqlPostgres => "sql-postgres",
        }
    }

    /// The product's name as people write it, e.g. `"AWS SQS + Lambda"`.
    pub fn label(self) -> &'static str {
        match self {
            TargetId::Sqs => "AWS SQS + Lambda",
            TargetId::Celery => "Celery",
            TargetId::Sidekiq => "Sidekiq",
            TargetId::Bullmq => "BullMQ",
            TargetId::Oban => "Oban",
            TargetId::River => "River",
            TargetId::PgBoss => "pg-boss",
            TargetId::ActiveJob => "Active Job / Solid Queue",
            TargetId::Temporal => "Temporal",
            TargetId::CloudTasks => "Google Cloud Tasks",
            TargetId::Kubernetes => "Kubernetes Job / CronJob",
            TargetId::SqlSqlite => "SQL table queue (SQLite)",
            TargetId::SqlPostgres => "SQL table queue (PostgreSQL)",
        }
    }

    /// [`TargetId::label`] as a reader of `lang` sees it: the product names stay as their
    /// makers write them; our own SQL table queues are described in Japanese.
    pub fn label_in(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (TargetId::SqlSqlite, Lang::Ja) => "SQLテーブルのキュー（SQLite）",
            (TargetId::SqlPostgres, Lang::Ja) => "SQLテーブルのキュー（PostgreSQL）",
            _ => self.label(),
        }
    }

    /// The target named `name` (as [`TargetId::name`] writes it).
    ///
    /// # Errors
    /// [`TargetError::UnknownTarget`] naming the allowed names.
    pub fn parse(name: &str) -> Result<TargetId, TargetError> {
        TargetId::ALL
            .into_iter()
            .find(|t| t.name() == name.trim())
            .ok_or_else(|| TargetError::UnknownTarget(name.to_owned()))
    }

    /// The formats this target exports, the first being the default.
    pub fn formats(self) -> &'static [Format] {
        match self {
            TargetId::Sqs => &[Format::CloudFormation, Format::Terraform],
            TargetId::Celery => &[Format::Python],
            TargetId::Sidekiq | TargetId::ActiveJob => &[Format::Ruby],
            TargetId::Bullmq => &[Format::TypeScript],
            TargetId::Oban => &[Format::Elixir],
            TargetId::River => &[Format::Go],
            TargetId::PgBoss => &[Format::JavaScript],
            TargetId::Temporal => &[Format::Go, Format::TypeScript],
            TargetId::CloudTasks | TargetId::Kubernetes => &[Format::Yaml],
            TargetId::SqlSqlite | TargetId::SqlPostgres => &[Format::Sql],
        }
    }

    /// How long this target keeps a queued message when the sheet states no retention, in
    /// ms: SQS `MessageRetentionPeriod` 4 days by default; Cloud Tasks keeps a task at most 31
    /// days; pg-boss deletes a job still queued after `retentionSeconds`, 14 days by default
    /// (`brief/QUEUES.md` §2, §11, §8). `None`: jobs stay in a table until deleted.
    pub fn default_queue_retention_ms(self) -> Option<u64> {
        match self {
            TargetId::Sqs => Some(4 * 86_400_000),
            TargetId::CloudTasks => Some(31 * 86_400_000),
            TargetId::PgBoss => Some(14 * 86_400_000),
            _ => None,
        }
    }

    /// The lease / visibility timeout this target wants per attempt timeout: a warning when
    /// `lease < k × timeout` (SQS + Lambda: 6, AWS's advice). `None`: no such rule.
    pub fn lease_factor(self) -> Option<u32> {
        match self {
            TargetId::Sqs => sqs::LEASE_FACTOR,
            _ => None,
        }
    }
}

/// The language (and dialect) of an export. JSON: the same names as [`Format::name`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// AWS CloudFormation template, YAML.
    CloudFormation,
    /// Terraform, HCL.
    Terraform,
    /// Python.
    Python,
    /// Ruby.
    Ruby,
    /// TypeScript.
    TypeScript,
    /// JavaScript (ES module).
    JavaScript,
    /// Elixir.
    Elixir,
    /// Go.
    Go,
    /// YAML.
    Yaml,
    /// SQL (the target names the dialect).
    Sql,
}

impl Format {
    /// The stable name, e.g. `"cloudformation"` (the CLI's `--format`).
    pub fn name(self) -> &'static str {
        match self {
            Format::CloudFormation => "cloudformation",
            Format::Terraform => "terraform",
            Format::Python => "python",
            Format::Ruby => "ruby",
            Format::TypeScript => "typescript",
            Format::JavaScript => "javascript",
            Format::Elixir => "elixir",
            Format::Go => "go",
            Format::Yaml => "yaml",
            Format::Sql => "sql",
        }
    }

    /// The format's name as people write it, e.g. `"Terraform (HCL)"` (the page's format
    /// chooser, the export panel's title).
    pub fn label(self) -> &'static str {
        match self {
            Format::CloudFormation => "CloudFormation (YAML)",
            Format::Terraform => "Terraform (HCL)",
            Format::Python => "Python",
            Format::Ruby => "Ruby",
            Format::TypeScript => "TypeScript",
            Format::JavaScript => "JavaScript",
            Format::Elixir => "Elixir",
            Format::Go => "Go",
            Format::Yaml => "YAML",
            Format::Sql => "SQL",
        }
    }

    /// The file extension, without the dot, e.g. `"tf"`.
    pub fn extension(self) -> &'static str {
        match self {
            Format::CloudFormation | Format::Yaml => "yaml",
            Format::Terraform => "tf",
            Format::Python => "py",
            Format::Ruby => "rb",
            Format::TypeScript => "ts",
            Format::JavaScript => "mjs",
            Format::Elixir => "exs",
            Format::Go => "go",
            Format::Sql => "sql",
        }
    }
}

/// One line of the field-by-field mapping, e.g. `max attempts 5` → `retry: 4` with the note
/// "Sidekiq counts retries".
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MappingRow {
    /// The sheet's field.
    pub field: FieldId,
    /// The sheet's value as text, e.g. `"5"`.
    pub sheet: String,
    /// The target's key, e.g. `"retry"`.
    pub key: String,
    /// The value written for it, e.g. `"4"`; empty when nothing is written.
    pub value: String,
    /// Why the value differs, or how it is meant (may be empty).
    pub note: String,
    /// Whether the row is the timeout field's lease (the visibility timeout: how long a claim
    /// holds before the job is given to another worker) rather than its attempt timeout;
    /// both rows are the sheet's `timeout` field, told apart on screen by their names.
    pub lease: bool,
}

/// What the export does about something the target cannot express.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Instead {
    /// Code written into the export (a callback, a custom backoff function).
    Callback,
    /// Only a comment in the export says it.
    Comment,
    /// Nothing: the behaviour differs from the sheet.
    Nothing,
}

/// Something of the sheet the target cannot express by configuration.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Gap {
    /// The sheet's field.
    pub field: FieldId,
    /// What cannot be expressed, in words.
    pub what: String,
    /// What the export does instead.
    pub instead: Instead,
    /// How, in words (may be empty).
    pub detail: String,
    /// Whether the gap is about the timeout field's lease (the visibility timeout) rather than
    /// its attempt timeout, as [`MappingRow::lease`]: shown under the lease's name.
    pub lease: bool,
}

/// A target's default policy: what it does when nothing is configured.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DefaultPolicy {
    /// In words, e.g. "25 retries (26 attempts), c⁴ + 15 + rand(10·(c+1)) s".
    pub summary: String,
    /// The runs including the first; `None` when unlimited.
    pub attempts: Option<u32>,
    /// The schedule those defaults run, computed from the target's formula.
    pub schedule: Schedule,
}

/// What one target's module builds from a sheet.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Built {
    /// The configuration text, in the format's language.
    pub text: String,
    /// The mapping, field by field.
    pub mapping: Vec<MappingRow>,
    /// What the target cannot express.
    pub gaps: Vec<Gap>,
    /// The schedule the target will actually run for the exported values.
    pub actual: Schedule,
}

/// Everything shown beside an export.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TargetReport {
    /// The target.
    pub target: TargetId,
    /// The format of `text`.
    pub format: Format,
    /// A file name for the text, e.g. `send_reservation_mail.sidekiq.rb`.
    pub file_name: String,
    /// The target's own module's output.
    #[serde(flatten)]
    pub built: Built,
    /// The sheet's own schedule (its formula), for comparison with `built.actual`.
    pub sheet_schedule: Schedule,
    /// The target's defaults.
    pub defaults: DefaultPolicy,
    /// The version chosen (the newest when none was asked for); `None` for a target without
    /// versions ([`TargetId::versions`]).
    pub version: Option<TargetVersion>,
    /// The releases whose formulas and syntax the export follows, in words
    /// ([`versions::followed`]).
    pub versions: String,
    /// Findings that hold for this target only (e.g. the lease under 6 × the timeout for SQS).
    pub findings: Vec<Finding>,
}

/// Why a sheet cannot be exported to a target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TargetError {
    /// No target has this name.
    UnknownTarget(String),
    /// The target has no such format.
    UnknownFormat {
        /// The target.
        target: TargetId,
        /// The name given.
        format: String,
    },
    /// The sheet's outcome has nothing this target configures (e.g. a synchronous call, or a
    /// batch for a job queue).
    NotApplicable {
        /// The target.
        target: TargetId,
        /// The sheet's outcome id, e.g. `"sync"`.
        outcome: &'static str,
    },
    /// A value the target cannot represent at all.
    OutOfRange {
        /// The target.
        target: TargetId,
        /// The sheet's field.
        field: FieldId,
        /// The value given, as text with its unit.
        value: String,
        /// The allowed range, as text with its unit.
        allowed: String,
    },
    /// The target has no such version ([`TargetId::versions`]).
    UnknownVersion {
        /// The target.
        target: TargetId,
        /// The name given.
        version: String,
    },
}

impl TargetError {
    /// The message in `lang`, naming the field, the target and the allowed range.
    pub fn message(&self, lang: Lang) -> String {
        let names = || {
            TargetId::ALL
                .iter()
                .map(|t| t.name())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match (self, lang) {
            (TargetError::UnknownTarget(n), Lang::En) => {
                format!("unknown target {n:?}; allowed: {}", names())
            }
            (TargetError::UnknownTarget(n), Lang::Ja) => {
                format!("ターゲット {n:?} はありません。使えるもの: {}", names())
            }
            (TargetError::UnknownFormat { target, format }, l) => {
                let allowed = target
                    .formats()
                    .iter()
                    .map(|f| f.name())
                    .collect::<Vec<_>>()
                    .join(", ");
                match l {
                    Lang::En => format!(
                        "{} has no format {format:?}; allowed: {allowed}",
                        target.name()
                    ),
                    Lang::Ja => format!(
                        "{} に形式 {format:?} はありません。使えるもの: {allowed}",
                        target.name()
                    ),
                }
            }
            (TargetError::UnknownVersion { target, version }, l) => {
                let allowed = target
                    .versions()
                    .iter()
                    .map(|v| v.name())
                    .collect::<Vec<_>>()
                    .join(", ");
                crate::text::t!(
                    "target.unknown-version",
                    locale = l.code(),
                    target = target.name(),
                    version = format!("{version:?}"),
                    allowed = if allowed.is_empty() {
                        "—".to_owned()
                    } else {
                        allowed
                    }
                )
                .into_owned()
            }
            (TargetError::NotApplicable { target, outcome }, Lang::En) => format!(
                "{} configures nothing for a sheet whose outcome is {outcome}",
                target.label()
            ),
            (TargetError::NotApplicable { target, outcome }, Lang::Ja) => format!(
                "{} には、結論が {outcome} の定義書で設定するものがありません",
                target.label_in(Lang::Ja)
            ),
            (
                TargetError::OutOfRange {
                    target,
                    field,
                    value,
                    allowed,
                },
                Lang::En,
            ) => format!(
                "{}: {} is {value}; {} allows {allowed}",
                field.id(),
                field.id(),
                target.label()
            ),
            (
                TargetError::OutOfRange {
                    target,
                    field,
                    value,
                    allowed,
                },
                Lang::Ja,
            ) => format!(
                "{}: 値は {value} です。{} で使えるのは {allowed} です",
                field.id(),
                target.label_in(Lang::Ja)
            ),
        }
    }
}

/// Exports `sheet` to `target` in `format` (its first format when `None`), with the mapping,
/// the gaps, the actual and the sheet's schedules, the defaults and the target's findings,
/// texts in `lang`.
///
/// # Errors
/// [`TargetError::UnknownFormat`] when the target has no such format;
/// [`TargetError::NotApplicable`] when the sheet's outcome has nothing the target configures;
/// [`TargetError::OutOfRange`] when a value cannot be represented (naming the field and the
/// allowed range).
pub fn report(
    sheet: &JobSheet,
    target: TargetId,
    format: Option<Format>,
    lang: Lang,
) -> Result<TargetReport, TargetError> {
    report_version(sheet, target, format, None, lang)
}

/// [`report`] for `version` of the target (`None`: its newest, [`TargetId::versions`]): the
/// export, its schedule and the defaults follow that version's formulas and syntax.
///
/// # Errors
/// As [`report`]; [`TargetError::UnknownVersion`] for a version of another target.
pub fn report_version(
    sheet: &JobSheet,
    target: TargetId,
    format: Option<Format>,
    version: Option<TargetVersion>,
    lang: Lang,
) -> Result<TargetReport, TargetError> {
    if let Some(v) = version.filter(|v| v.target() != target) {
        return Err(TargetError::UnknownVersion {
            target,
            version: v.name().to_owned(),
        });
    }
    let version = target.version_or_newest(version);
    let format = match format {
        None => target.formats()[0],
        Some(f) if target.formats().contains(&f) => f,
        Some(f) => {
            return Err(TargetError::UnknownFormat {
                target,
                format: f.name().to_owned(),
            })
        }
    };
    let built = match target {
        TargetId::Sqs => sqs::build(sheet, format, lang),
        TargetId::Celery => celery::build(sheet, format, lang),
        TargetId::Sidekiq => sidekiq::build(sheet, format, version, lang),
        TargetId::Bullmq => bullmq::build(sheet, format, lang),
        TargetId::Oban => oban::build(sheet, format, lang),
        TargetId::River => river::build(sheet, format, lang),
        TargetId::PgBoss => pg_boss::build(sheet, format, lang),
        TargetId::ActiveJob => active_job::build(sheet, format, version, lang),
        TargetId::Temporal => temporal::build(sheet, format, lang),
        TargetId::CloudTasks => cloud_tasks::build(sheet, format, lang),
        TargetId::Kubernetes => kubernetes::build(sheet, format, lang),
        TargetId::SqlSqlite => sql::build(sheet, sql::Dialect::Sqlite, lang),
        TargetId::SqlPostgres => sql::build(sheet, sql::Dialect::Postgres, lang),
    }?;
    let mut built = built;
    // The configuration leaves the app: a bidi control in user text is shown, not kept.
    built.text = bidi::show(&built.text, Shown::Text).into_owned();
    let stem = text::file_stem(&sheet.process.code_name);
    Ok(TargetReport {
        target,
        format,
        file_name: format!("{stem}.{}.{}", target.name(), format.extension()),
        sheet_schedule: schedule::of_sheet(sheet),
        defaults: defaults_version(target, version, lang),
        version,
        versions: versions::followed(target, version, lang),
        findings: findings::target_findings(sheet, target, lang)
            .into_iter()
            .chain(findings::retention(sheet, target, &built.actual, lang))
            .collect(),
        built,
    })
}

/// The target's default policy in `lang`, its window computed from its own formula.
pub fn defaults(target: TargetId, lang: Lang) -> DefaultPolicy {
    defaults_version(target, None, lang)
}

/// [`defaults`] of `version` of the target (`None`: its newest).
pub fn defaults_version(
    target: TargetId,
    version: Option<TargetVersion>,
    lang: Lang,
) -> DefaultPolicy {
    let version = target.version_or_newest(version);
    match target {
        TargetId::Sqs => sqs::defaults(lang),
        TargetId::Celery => celery::defaults(lang),
        TargetId::Sidekiq => sidekiq::defaults(version, lang),
        TargetId::Bullmq => bullmq::defaults(lang),
        TargetId::Oban => oban::defaults(lang),
        TargetId::River => river::defaults(lang),
        TargetId::PgBoss => pg_boss::defaults(lang),
        TargetId::ActiveJob => active_job::defaults(lang),
        TargetId::Temporal => temporal::defaults(lang),
        TargetId::CloudTasks => cloud_tasks::defaults(lang),
        TargetId::Kubernetes => kubernetes::defaults(lang),
        TargetId::SqlSqlite => sql::defaults(sql::Dialect::Sqlite, lang),
        TargetId::SqlPostgres => sql::defaults(sql::Dialect::Postgres, lang),
    }
}

/// One sampled run of the delays `target` actually waits for `sheet` (seconds, one per
/// retry), drawing uniform numbers in `[0, 1)` from `u` where the target's own code draws
/// randomness. Written from the target's source independently of the ranges in
/// [`TargetReport`], so tests can check every sample lies within the reported window.
///
/// # Errors
/// As [`report`].
pub fn sample(
    sheet: &JobSheet,
    target: TargetId,
    u: &mut dyn FnMut() -> f64,
) -> Result<Vec<f64>, TargetError> {
    sample_version(sheet, target, None, u)
}

/// [`sample`] for `version` of the target (`None`: its newest).
///
/// # Errors
/// As [`report`].
pub fn sample_version(
    sheet: &JobSheet,
    target: TargetId,
    version: Option<TargetVersion>,
    u: &mut dyn FnMut() -> f64,
) -> Result<Vec<f64>, TargetError> {
    let version = target.version_or_newest(version);
    match target {
        TargetId::Sqs => sqs::sample(sheet, u),
        TargetId::Celery => celery::sample(sheet, u),
        TargetId::Sidekiq => sidekiq::sample(sheet, version, u),
        TargetId::Bullmq => bullmq::sample(sheet, u),
        TargetId::Oban => oban::sample(sheet, u),
        TargetId::River => river::sample(sheet, u),
        TargetId::PgBoss => pg_boss::sample(sheet, u),
        TargetId::ActiveJob => active_job::sample(sheet, version, u),
        TargetId::Temporal => temporal::sample(sheet, u),
        TargetId::CloudTasks => cloud_tasks::sample(sheet, u),
        TargetId::Kubernetes => kubernetes::sample(sheet, u),
        TargetId::SqlSqlite => sql::sample(sheet, sql::Dialect::Sqlite, u),
        TargetId::SqlPostgres => sql::sample(sheet, sql::Dialect::Postgres, u),
    }
}
