//! Which versions of each queue system the exports follow (`brief/QUEUES.md`, the version
//! table at its top: each system's formulas and syntax were read from the source of the
//! release named there), and the versions a user chooses between where formulas or syntax
//! differ between releases still in wide use:
//!
//! - **Sidekiq** 8.x waits `c⁴ + 15 + rand(10·(c+1))`; 6.2.2 – 7.x `c⁴ + 15 + rand(10)·(c+1)`
//!   (QUEUES.md §4 "Formula history"), and before 7.0 a `:kill` returned from
//!   `sidekiq_retry_in` is no delay at all (`Symbol#to_i` fails, and the job is retried by the
//!   global handler, `lib/sidekiq/job_retry.rb` of 6.4.1).
//! - **Active Job** 7.1 and later name the `n⁴ + 2` wait `:polynomially_longer`; 6.1 – 7.0
//!   `:exponentially_longer` (QUEUES.md §9), and there a Float wait is not a delay
//!   (`determine_delay` takes a Duration or an Integer and truncates it with `to_i`).
//!
//! The newest version is the default. Texts: `locales/worker/targets.yml`.

use super::{TargetError, TargetId};
use crate::domain::lang::Lang;
use crate::text::t;
use serde::{Deserialize, Serialize};

/// A release range of a target whose formulas or syntax differ from its other ranges. JSON and
/// the CLI's `--target-version`: the names of [`TargetVersion::name`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TargetVersion {
    /// Sidekiq 8.x: jitter `rand(10·(c+1))`, `:kill` / `:discard` from `sidekiq_retry_in`.
    #[serde(rename = "8")]
    Sidekiq8,
    /// Sidekiq 6.2.2 – 7.x: jitter `rand(10)·(c+1)`; the export stops permanent errors
    /// without `:kill` (unknown before 7.0).
    #[serde(rename = "6.2.2-7")]
    Sidekiq6,
    /// Rails (Active Job) 7.1 and later: `:polynomially_longer`, Float waits.
    #[serde(rename = "7.1")]
    ActiveJob71,
    /// Rails (Active Job) 6.1 – 7.0: `:exponentially_longer`, Integer or Duration waits only.
    #[serde(rename = "6.1-7.0")]
    ActiveJob61,
}

impl TargetVersion {
    /// The stable name, e.g. `"6.2.2-7"` (the CLI's `--target-version`).
    pub fn name(self) -> &'static str {
        match self {
            TargetVersion::Sidekiq8 => "8",
            TargetVersion::Sidekiq6 => "6.2.2-7",
            TargetVersion::ActiveJob71 => "7.1",
            TargetVersion::ActiveJob61 => "6.1-7.0",
        }
    }

    /// The target this is a version of.
    pub fn target(self) -> TargetId {
        match self {
            TargetVersion::Sidekiq8 | TargetVersion::Sidekiq6 => TargetId::Sidekiq,
            TargetVersion::ActiveJob71 | TargetVersion::ActiveJob61 => TargetId::ActiveJob,
        }
    }

    /// The version of `target` named `name`: a range as [`TargetVersion::name`] writes it
    /// (`6.2.2-7`), or a release inside one of the target's ranges (`7`, `7.2.1`, `v8.0.1`,
    /// `7.0.8` — what a Gemfile.lock or `sidekiq -V` says), read as [`of_release`] reads a
    /// pin.
    ///
    /// # Errors
    /// [`TargetError::UnknownVersion`] naming the target's versions (none for a target
    /// without a choice), also for a release outside every range followed.
    pub fn parse(target: TargetId, name: &str) -> Result<TargetVersion, TargetError> {
        let name = name.trim();
        let by_name = target.versions().iter().copied().find(|v| v.name() == name);
        let by_release = || {
            let digits = name.strip_prefix(['v', 'V']).unwrap_or(name);
            let parts: Vec<&str> = digits.split('.').collect();
            let mut r = [0u64; 3];
            if parts.is_empty() || parts.len() > 3 {
                return None;
            }
            for (i, p) in parts.iter().enumerate() {
                if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                r[i] = p.parse().ok()?;
            }
            of_release(target, r).ok().flatten()
        };
        by_name
            .or_else(by_release)
            .ok_or_else(|| TargetError::UnknownVersion {
                target,
                version: name.to_owned(),
            })
    }
}

/// The version of `system` a release `r` (major, minor, patch) falls in: `Ok(Some(v))` one of
/// the versions the user chooses between, `Ok(None)` inside the system's one range (or a
/// system whose releases are not ranged: Temporal's SDKs, SQS …), `Err(())` outside every
/// range followed (Sidekiq 6.2.2 – 8.x, Rails ≥ 6.1, Celery 5.x, BullMQ 6.x, Oban 2.x,
/// River 0.x, pg-boss 12.x: `brief/QUEUES.md`'s version table).
#[allow(clippy::result_unit_err)]
pub fn of_release(system: TargetId, r: [u64; 3]) -> Result<Option<TargetVersion>, ()> {
    let at_least = |v: [u64; 3]| r >= v;
    let major = r[0];
    match system {
        TargetId::Sidekiq if major == 8 => Ok(Some(TargetVersion::Sidekiq8)),
        TargetId::Sidekiq if at_least([6, 2, 2]) && major < 8 => Ok(Some(TargetVersion::Sidekiq6)),
        TargetId::ActiveJob if at_least([7, 1, 0]) => Ok(Some(TargetVersion::ActiveJob71)),
        TargetId::ActiveJob if at_least([6, 1, 0]) => Ok(Some(TargetVersion::ActiveJob61)),
        TargetId::Sidekiq | TargetId::ActiveJob => Err(()),
        TargetId::Celery if major == 5 => Ok(None),
        TargetId::Bullmq if major == 6 => Ok(None),
        TargetId::Oban if major == 2 => Ok(None),
        TargetId::River if major == 0 => Ok(None),
        TargetId::PgBoss if major == 12 => Ok(None),
        TargetId::Celery
        | TargetId::Bullmq
        | TargetId::Oban
        | TargetId::River
        | TargetId::PgBoss => Err(()),
        _ => Ok(None),
    }
}

/// The followed version nearest a release outside every range ([`of_release`] gives
/// `Err`): the oldest range for a release below them all (Sidekiq 5.2.9 → `6.2.2-7`, Rails
/// 6.0 → `6.1-7.0`), the newest for one above (Sidekiq 9 → `8`); `None` for a system with one
/// range.
pub fn nearest(system: TargetId, r: [u64; 3]) -> Option<TargetVersion> {
    let versions = system.versions();
    let below = match system {
        TargetId::Sidekiq => r < [6, 2, 2],
        TargetId::ActiveJob => r < [6, 1, 0],
        _ => false,
    };
    if below {
        versions.last().copied()
    } else {
        versions.first().copied()
    }
}

impl TargetId {
    /// The versions the user chooses between, the newest (the default) first; empty when one
    /// range of releases shares the formulas and syntax the export follows.
    pub fn versions(self) -> &'static [TargetVersion] {
        match self {
            TargetId::Sidekiq => &[TargetVersion::Sidekiq8, TargetVersion::Sidekiq6],
            TargetId::ActiveJob => &[TargetVersion::ActiveJob71, TargetVersion::ActiveJob61],
            _ => &[],
        }
    }

    /// `version` when it is one of this target's, else the newest; `None` for a target
    /// without versions.
    pub fn version_or_newest(self, version: Option<TargetVersion>) -> Option<TargetVersion> {
        version
            .filter(|v| v.target() == self)
            .or_else(|| self.versions().first().copied())
    }
}

/// The release range and the release whose source was read (`brief/QUEUES.md`'s version
/// table; Debian's packages for the older Sidekiq and Rails), language-neutral; `None` for
/// the targets whose words need a language (SQS, Cloud Tasks, Kubernetes, SQL).
fn range_read(
    target: TargetId,
    version: Option<TargetVersion>,
) -> Option<(&'static str, &'static str)> {
    Some(match (target, version) {
        (TargetId::Celery, _) => ("Celery 5.x", "5.6.2"),
        (TargetId::Sidekiq, Some(TargetVersion::Sidekiq6)) => ("Sidekiq 6.2.2 – 7.x", "6.4.1"),
        (TargetId::Sidekiq, _) => ("Sidekiq 8.x", "8.1.7"),
        (TargetId::Bullmq, _) => ("BullMQ 6.x", "6.2.0"),
        (TargetId::Oban, _) => ("Oban 2.x", "2.23.0"),
        (TargetId::River, _) => ("River 0.x", "0.43.0"),
        (TargetId::PgBoss, _) => ("pg-boss 12.x", "12.27.0"),
        (TargetId::ActiveJob, Some(TargetVersion::ActiveJob61)) => {
            ("Rails (Active Job) 6.1 – 7.0", "6.1.7")
        }
        (TargetId::ActiveJob, _) => (
            "Rails (Active Job) ≥ 7.1, Solid Queue 1.x",
            "Rails 8.2.0.alpha, Solid Queue 1.5.0",
        ),
        (TargetId::Temporal, _) => (
            "Temporal server 1.x, API 1.x",
            "server 1.29, API 1.63, Go SDK main",
        ),
        _ => return None,
    })
}

/// The releases an export for `target` (at `version`, the newest when `None`) follows, in
/// `lang`, e.g. "Celery 5.x (source read: 5.6.2)".
pub fn followed(target: TargetId, version: Option<TargetVersion>, lang: Lang) -> String {
    let l = lang.code();
    match range_read(target, target.version_or_newest(version)) {
        Some((range, read)) => t!(
            "target.versions.read",
            locale = l,
            range = range,
            read = read
        )
        .into_owned(),
        None => t!(format!("target.versions.{}", target.name()), locale = l).into_owned(),
    }
}

/// The header comment's line saying which releases the export follows.
pub(crate) fn header_line(target: TargetId, version: Option<TargetVersion>, lang: Lang) -> String {
    t!(
        "target.versions.header",
        locale = lang.code(),
        versions = followed(target, version, lang)
    )
    .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_version_is_named_by_its_range_or_by_a_release_inside_it() {
        let parse = |t, v| TargetVersion::parse(t, v).ok();
        use TargetVersion::*;
        assert_eq!(parse(TargetId::Sidekiq, "6.2.2-7"), Some(Sidekiq6));
        assert_eq!(parse(TargetId::Sidekiq, "7"), Some(Sidekiq6));
        assert_eq!(parse(TargetId::Sidekiq, "7.2.1"), Some(Sidekiq6));
        assert_eq!(parse(TargetId::Sidekiq, " v8.0.1 "), Some(Sidekiq8));
        assert_eq!(parse(TargetId::ActiveJob, "7.0"), Some(ActiveJob61));
        assert_eq!(parse(TargetId::ActiveJob, "7.0.8"), Some(ActiveJob61));
        assert_eq!(parse(TargetId::ActiveJob, "8"), Some(ActiveJob71));
        // Outside every range, or not a release: refused, naming the ranges.
        for bad in [
            "6", "6.2.1", "9", "7.x", "7..1", "1.2.3.4", "", "seven", "7-8",
        ] {
            assert_eq!(parse(TargetId::Sidekiq, bad), None, "{bad:?}");
        }
        let e = TargetVersion::parse(TargetId::Sidekiq, "5.2.9").unwrap_err();
        assert!(e.message(Lang::En).contains("8, 6.2.2-7"), "{e:?}");
        // A target without a choice takes no version at all.
        assert_eq!(parse(TargetId::Celery, "5.3.6"), None);
    }
}
