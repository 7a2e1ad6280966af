//! Which release of its system a job is audited for, and where that came from (issue 27
//! item 3): a pin in a lock or requirement file ([`super::pins`]), `--target-version`, or
//! the newest followed, assumed. The note says which, and, where the system's releases
//! differ and nothing chose one, how to choose (`--target-version` or the lock file). A pin
//! outside every range followed is a `version-not-followed` finding. Texts:
//! `locales/worker/audit-notes.yml` (`audit-note.version.*`).

use super::found::{Fact, Found, Value};
use super::pins::{Choice, Origin, Pin};
use super::record::AuditFinding;
use crate::domain::lang::Lang;
use crate::domain::queues::versions::followed;
use crate::domain::queues::{TargetId, TargetVersion};
use crate::domain::sheet::check::Severity;
use crate::text::t;
use serde::Serialize;

/// Where the caller is: the CLI names `--target-version`, the app the lock file to add.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asker {
    /// `modality-advisor audit`.
    Cli,
    /// The app's "Check an existing configuration".
    App,
}

/// The release a job was audited for (JSON `version`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JobVersion {
    /// The `--target-version` name audited for where the system's releases differ (`8`,
    /// `6.2.2-7`, `7.1`, `6.1-7.0`); `null` for a system with one range followed.
    pub release: Option<&'static str>,
    /// The releases followed, in words (e.g. "Sidekiq 6.2.2 – 7.x (source read: 6.4.1)").
    pub followed: String,
    /// Where it comes from: the pin's `file:line`, `--target-version`, or `assumed`.
    pub from: String,
    /// The version or range the pin writes, when a file pins one (also when
    /// `--target-version` overrode it).
    pub pinned: Option<String>,
    /// Whether the pin is a range (requirements, package.json) rather than one release.
    pub range: bool,
    /// What to tell the reader, in the report's language; empty when there is nothing to
    /// say (a system with one range and no pin).
    pub note: String,
}

/// The job's [`JobVersion`] for `choice`, texts in `lang`.
pub fn job_version(system: TargetId, choice: &Choice, asker: Asker, lang: Lang) -> JobVersion {
    let l = lang.code();
    let followed = followed(system, choice.version, lang);
    let choices = !system.versions().is_empty();
    let pin_args = |p: &Pin| (p.place(), p.package.clone(), p.version.clone());
    let (from, pin, note) = match &choice.from {
        Origin::Pin(p) => {
            let (place, package, version) = pin_args(p);
            let key = if p.exact {
                "audit-note.version.pinned"
            } else {
                "audit-note.version.range"
            };
            let note = t!(
                key,
                locale = l,
                followed = followed.as_str(),
                place = place.as_str(),
                package = package,
                version = version
            );
            (place, Some(p), note.into_owned())
        }
        Origin::Flag(pin) => {
            let note = match pin {
                Some(p) => {
                    let (place, package, version) = pin_args(p);
                    t!(
                        "audit-note.version.flag-over-pin",
                        locale = l,
                        followed = followed.as_str(),
                        place = place,
                        package = package,
                        version = version
                    )
                }
                None => t!(
                    "audit-note.version.flag",
                    locale = l,
                    followed = followed.as_str()
                ),
            };
            (
                "--target-version".to_owned(),
                pin.as_ref(),
                note.into_owned(),
            )
        }
        Origin::Assumed if choices => {
            let names: Vec<&str> = system.versions().iter().map(|v| v.name()).collect();
            let key = match asker {
                Asker::Cli => "audit-note.version.assumed",
                Asker::App => "audit-note.version.assumed-app",
            };
            let note = t!(
                key,
                locale = l,
                followed = followed.as_str(),
                system = system.label(),
                target = system.name(),
                versions = names.join(", "),
                lock = lock_file(system)
            );
            ("assumed".to_owned(), None, note.into_owned())
        }
        Origin::Assumed => ("assumed".to_owned(), None, String::new()),
    };
    JobVersion {
        release: choice.version.map(|v| v.name()),
        followed,
        from,
        pinned: pin.map(|p| p.version.clone()),
        range: pin.is_some_and(|p| !p.exact),
        note,
    }
}

/// The lock file that pins `system`'s release.
fn lock_file(system: TargetId) -> &'static str {
    match system {
        TargetId::Sidekiq | TargetId::ActiveJob => "Gemfile.lock",
        TargetId::Celery => "requirements.txt / poetry.lock",
        TargetId::Bullmq | TargetId::PgBoss => "package-lock.json",
        TargetId::Oban => "mix.lock",
        TargetId::River => "go.mod",
        _ => "",
    }
}

/// The `version-not-followed` finding when the pin is outside every range followed, at
/// the job's line (`line`, `column`).
pub fn outside_finding(
    system: TargetId,
    choice: &Choice,
    (line, column): (u32, u32),
    lang: Lang,
) -> Option<AuditFinding> {
    let p = choice.outside.as_ref()?;
    let ranges: Vec<String> = if system.versions().is_empty() {
        vec![followed(system, None, lang)]
    } else {
        system
            .versions()
            .iter()
            .map(|v| followed(system, Some(*v), lang))
            .collect()
    };
    let key = if p.exact {
        "audit-note.version.outside"
    } else {
        "audit-note.version.outside-range"
    };
    let message = t!(
        key,
        locale = lang.code(),
        place = p.place(),
        package = p.package.as_str(),
        version = p.version.as_str(),
        ranges = ranges.join(if lang == Lang::Ja { "、" } else { "; " }),
        followed = followed(system, choice.version, lang)
    )
    .into_owned();
    Some(AuditFinding {
        code: "version-not-followed",
        severity: Severity::Warning,
        message,
        field: "retry".to_owned(),
        line,
        column,
        stated: true,
    })
}

/// The `wait-unknown-to-release` finding: `wait: :polynomially_longer` in a job audited for
/// Rails 6.1 – 7.0, which does not know the name (`determine_delay` raises "Couldn't
/// determine a delay" and the job is not retried at all; brief/QUEUES.md §9), at the
/// setting's line.
pub fn wait_finding(found: &Found, choice: &Choice, lang: Lang) -> Option<AuditFinding> {
    if found.system != TargetId::ActiveJob || choice.version != Some(TargetVersion::ActiveJob61) {
        return None;
    }
    let s = found.settings.iter().find(
        |s| matches!(&s.value, Value::Stated(Fact::WaitName(n)) if n == "polynomially_longer"),
    )?;
    let from = match &choice.from {
        Origin::Pin(p) => p.place(),
        Origin::Flag(_) => "--target-version".to_owned(),
        Origin::Assumed => "assumed".to_owned(),
    };
    let message = t!(
        "audit-note.version.wait-unknown",
        locale = lang.code(),
        followed = followed(found.system, choice.version, lang),
        from = from
    )
    .into_owned();
    Some(AuditFinding {
        code: "wait-unknown-to-release",
        severity: Severity::Error,
        message,
        field: "retry.backoff".to_owned(),
        line: s.at.line,
        column: s.at.column,
        stated: true,
    })
}
