//! What building an audited job's sheet records (the fields not stated and where the stated
//! ones are) and the findings' shape, shared by [`super::job`] and [`super::traps`].

use super::found::{Fact, Pos, Setting, Value};
use crate::domain::flowchart::{Answers, QuestionId};
use crate::domain::lang::Lang;
use crate::domain::queues::TargetId;
use crate::domain::sheet::check::Severity;
use crate::domain::sheet::prefill::prefill;
use crate::domain::sheet::{Decision, JobSheet, ProcessFacts};
use crate::text::t;
use serde::Serialize;

/// A sheet field the file does not state, and the default the system uses instead.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NotStated {
    /// The field's JSON path in the sheet (`retry.lease_ms`).
    pub path: &'static str,
    /// The system's default in words (`30 s (SQS's default)`), in the report's language.
    pub default: String,
}

/// A finding about a job, at the place of the setting it concerns.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AuditFinding {
    /// The finding's code (the rule id is `MA-` and this; [`crate::domain::rules::rule_of`]).
    pub code: &'static str,
    /// Its severity.
    pub severity: Severity,
    /// The message, in the report's language.
    pub message: String,
    /// The sheet field it is about (JSON path).
    pub field: String,
    /// Where: the setting's place, or the job's when the value is a default.
    pub line: u32,
    /// The column (characters, 1-based).
    pub column: u32,
    /// Whether the file states the value the finding is about (false: a default).
    pub stated: bool,
}

/// The stated facts of a job, with where each was stated.
pub struct Facts<'a> {
    /// The job's settings, in file order.
    pub settings: &'a [Setting],
}

impl<'a> Facts<'a> {
    /// The last stated fact `pick` accepts, with its place.
    pub fn get<T>(&self, pick: impl Fn(&Fact) -> Option<T>) -> Option<(T, Pos)> {
        self.settings.iter().rev().find_map(|s| match &s.value {
            Value::Stated(f) => pick(f).map(|v| (v, s.at)),
            Value::Unresolved { .. } => None,
        })
    }
}

/// What building the sheet gathers: the paths not stated and where stated ones are.
pub struct Build {
    /// Fields not stated.
    pub not_stated: Vec<NotStated>,
    /// JSON path → place of the setting it came from.
    pub at: Vec<(&'static str, Pos)>,
    /// The job's place.
    pub job_at: Pos,
    /// The report's language.
    pub lang: Lang,
    /// The job's name (the sheet's process name).
    pub name: String,
    /// Findings the assembly itself adds (a stated setting the sheet cannot hold).
    pub extra: Vec<AuditFinding>,
    /// Codes of the sheet's findings the system makes moot (e.g. "no jitter" where the
    /// system adds its own that the sheet cannot hold).
    pub moot: Vec<&'static str>,
    /// The release whose formulas the schedule follows (`None`: the newest, or a system
    /// with one range; [`super::pins::choose`]).
    pub version: Option<crate::domain::queues::TargetVersion>,
}

impl Build {
    /// A stated value's place, or the default recorded as not stated.
    pub fn note<T>(
        &mut self,
        path: &'static str,
        v: Option<(T, Pos)>,
        default: String,
    ) -> Option<T> {
        match v {
            Some((v, at)) => {
                self.at.push((path, at));
                Some(v)
            }
            None => {
                self.not_stated.push(NotStated { path, default });
                None
            }
        }
    }

    /// Where a finding about `path` points, and whether the file states it.
    pub fn place(&self, path: &str) -> (Pos, bool) {
        self.at
            .iter()
            .find(|(p, _)| path.starts_with(p) || p.starts_with(path))
            .map_or((self.job_at, false), |(_, at)| (*at, true))
    }

    /// `"{value} ({system}'s default)"` in the report's language.
    pub fn default_of(&self, system: TargetId, value: &str) -> String {
        t!(
            "audit.default-of",
            locale = self.lang.code(),
            value = value,
            system = system.label()
        )
        .into_owned()
    }

    /// A text of `locales/worker/audit.yml`.
    pub fn say(&self, key: &str) -> String {
        t!(format!("audit.default.{key}"), locale = self.lang.code()).into_owned()
    }
}

/// A sheet for the job `name`, prefilled for a queue job (or a batch).
pub fn sheet_for(name: &str, batch: bool, lang: Lang) -> JobSheet {
    let mut answers = Answers::new();
    if batch {
        answers.set(QuestionId::TimeTriggered, true);
    } else {
        answers.set(QuestionId::TimeTriggered, false);
        answers.set(QuestionId::NeedsResultNow, false);
    }
    let decision = Decision::from_answers(&answers).unwrap_or_else(|| Decision {
        answers: Vec::new(),
        outcome: if batch {
            crate::domain::Outcome::Batch
        } else {
            crate::domain::Outcome::AsyncEnqueue
        },
    });
    let code: String = name
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '_' })
        .take(80)
        .collect();
    let facts = ProcessFacts {
        process_name: name.chars().take(200).collect(),
        code_name: if code.is_empty() {
            "job".to_owned()
        } else {
            code
        },
        ..ProcessFacts::default()
    };
    prefill(facts, decision, lang)
}

/// A `setting-not-in-sheet` finding at `at`, the message `audit.finding.not-in-sheet.{kind}`.
pub fn not_in_sheet(b: &mut Build, path: &str, at: Pos, kind: &str, args: &[(&str, String)]) {
    let l = b.lang.code();
    let key = format!("audit.finding.not-in-sheet.{kind}");
    let mut message = t!(key.as_str(), locale = l).into_owned();
    for (name, value) in args {
        message = message.replace(&format!("%{{{name}}}"), value);
    }
    b.extra.push(AuditFinding {
        code: "setting-not-in-sheet",
        severity: Severity::Warning,
        message,
        field: path.to_owned(),
        line: at.line,
        column: at.column,
        stated: true,
    });
}
