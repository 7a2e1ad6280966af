//! The version of a queue system a project pins (issue 27 item 3): lock and requirement
//! files read for the packages the audit knows, so a job is audited for the release the
//! project runs ([`choose`]), not always the newest.
//!
//! | file | reader | packages |
//! |---|---|---|
//! | `Gemfile.lock` | [`lines::gemfile_lock`] | `sidekiq`, `activejob` (else `rails`) |
//! | `requirements*.txt`, `constraints*.txt` | [`lines::requirements`] | `celery` (`==` exact; `~=`, `>=` … a range) |
//! | `poetry.lock`, `uv.lock` | [`lines::toml_lock`] | `celery`, `temporalio` |
//! | `Pipfile.lock` | [`structured::pipfile_lock`] (serde_json) | `celery`, `temporalio` |
//! | `package.json` | [`structured::package_json`] (a range) | `bullmq`, `pg-boss`, `@temporalio/*` |
//! | `package-lock.json` | [`structured::package_lock`] (exact) | the same |
//! | `mix.lock` | [`lines::mix_lock`] | `oban` |
//! | `go.mod` | [`lines::go_mod`] | `github.com/riverqueue/river`, `go.temporal.io/sdk` |
//!
//! Limits as the configuration readers': [`MAX_FILE_BYTES`](super::found::MAX_FILE_BYTES) per file (refused before
//! reading), no NUL byte, JSON nesting within [`MAX_DEPTH`]. A line a reader does
//! not understand is skipped, never guessed; nothing here panics.
//!
//! The ranges each system's formulas follow are [`crate::domain::queues::versions`]'s; a
//! pinned release outside all of them is reported ([`Choice::outside`]).

pub mod lines;
pub mod structured;

use super::found::{ReadError, MAX_DEPTH};
use crate::domain::queues::versions::{nearest, of_release};
use crate::domain::queues::{TargetId, TargetVersion};
use serde::Serialize;

/// One pin: a queue system's package and the version a lock or requirement file gives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Pin {
    /// The system the package is.
    pub system: TargetId,
    /// The package as the file names it (`sidekiq`, `@temporalio/client`).
    pub package: String,
    /// The version or range as written (`6.5.12`, `>=5.2,<6`, `^6.7.0`), at most 80
    /// characters.
    pub version: String,
    /// Whether it is one release (a lock file) rather than a range (a requirement).
    pub exact: bool,
    /// The file, as named.
    pub file: String,
    /// Its 1-based line.
    pub line: u32,
}

impl Pin {
    /// `file:line`, e.g. `Gemfile.lock:123`.
    pub fn place(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}

/// The file names this module reads (the last path component, any case for the extension):
/// the lock and requirement files of the table above.
pub fn is_pin_file(path: &str) -> bool {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let lower = name.to_ascii_lowercase();
    matches!(
        name,
        "Gemfile.lock"
            | "poetry.lock"
            | "uv.lock"
            | "Pipfile.lock"
            | "package.json"
            | "package-lock.json"
            | "mix.lock"
            | "go.mod"
    ) || ((lower.starts_with("requirements") || lower.starts_with("constraints"))
        && lower.ends_with(".txt"))
}

/// The pins of `text`, the file named `file` (its name picks the reader).
///
/// # Errors
/// [`ReadError::TooLarge`] past [`MAX_FILE_BYTES`](super::found::MAX_FILE_BYTES); [`ReadError::Binary`] for a NUL byte;
/// [`ReadError::Syntax`] for JSON that does not parse; [`ReadError::TooDeep`] past
/// [`MAX_DEPTH`]; [`ReadError::Unrecognised`] for a name [`is_pin_file`] refuses.
pub fn read(file: &str, text: &str) -> Result<Vec<Pin>, ReadError> {
    let text = super::found::readable_text(text)?;
    let name = file.rsplit(['/', '\\']).next().unwrap_or(file);
    let found = match name {
        "Gemfile.lock" => lines::gemfile_lock(text),
        "mix.lock" => lines::mix_lock(text),
        "go.mod" => lines::go_mod(text),
        "package.json" => structured::package_json(text)?,
        "package-lock.json" => structured::package_lock(text)?,
        "Pipfile.lock" => structured::pipfile_lock(text)?,
        "poetry.lock" | "uv.lock" => lines::toml_lock(text),
        _ if is_pin_file(name) => lines::requirements(text),
        _ => return Err(ReadError::Unrecognised),
    };
    Ok(found
        .into_iter()
        .map(|(system, package, version, exact, line)| Pin {
            system,
            package,
            version: version.chars().take(80).collect(),
            exact,
            file: file.to_owned(),
            line,
        })
        .collect())
}

/// What a reader finds: system, package, version as written, exact, line.
pub(crate) type Raw = (TargetId, String, String, bool, u32);

/// The system a package of an ecosystem is, by its name as the registry spells it.
pub(crate) fn system_of(ecosystem: Ecosystem, package: &str) -> Option<TargetId> {
    let p = package.trim().to_ascii_lowercase().replace('_', "-");
    Some(match (ecosystem, p.as_str()) {
        (Ecosystem::Ruby, "sidekiq") => TargetId::Sidekiq,
        (Ecosystem::Ruby, "activejob" | "rails") => TargetId::ActiveJob,
        (Ecosystem::Python, "celery") => TargetId::Celery,
        (Ecosystem::Python, "temporalio") => TargetId::Temporal,
        (Ecosystem::Npm, "bullmq") => TargetId::Bullmq,
        (Ecosystem::Npm, "pg-boss") => TargetId::PgBoss,
        (Ecosystem::Npm, n) if n.starts_with("@temporalio/") => TargetId::Temporal,
        (Ecosystem::Hex, "oban") => TargetId::Oban,
        (Ecosystem::Go, "github.com/riverqueue/river") => TargetId::River,
        (Ecosystem::Go, "go.temporal.io/sdk") => TargetId::Temporal,
        _ => return None,
    })
}

/// The package registries whose names [`system_of`] knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ecosystem {
    /// RubyGems.
    Ruby,
    /// PyPI.
    Python,
    /// npm.
    Npm,
    /// Hex.
    Hex,
    /// Go modules.
    Go,
}

/// The first release number in `version` (`6.5.12`, `v0.11.4`, `^6.7.0`, `>=5.2,<6` → 5.2):
/// up to three numeric parts, the missing ones 0; `None` without a digit.
pub fn release(version: &str) -> Option<[u64; 3]> {
    let start = version.find(|c: char| c.is_ascii_digit())?;
    let mut parts = [0u64; 3];
    for (i, p) in version[start..]
        .split(|c: char| !c.is_ascii_digit() && c != '.')
        .next()?
        .split('.')
        .take(3)
        .enumerate()
    {
        parts[i] = p.parse().ok()?;
    }
    Some(parts)
}

/// Where the release a job is audited for comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A pin in a lock or requirement file.
    Pin(Pin),
    /// `--target-version` (the CLI): it wins over a pin, which is kept to say so.
    Flag(Option<Pin>),
    /// Neither: the newest version followed.
    Assumed,
}

/// The release a job is audited for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The version whose formulas and syntax apply (`None`: a system with one range).
    pub version: Option<TargetVersion>,
    /// Where it comes from.
    pub from: Origin,
    /// The pin, when its release is outside every range the product follows for the
    /// system (its formulas may not be the ones that release runs).
    pub outside: Option<Pin>,
}

/// The release `system` is audited for: `flag` (`--target-version`) when given (a flag
/// naming the range the pin is in counts as the pin), else the best pin of `pins` (the first
/// exact one, else the first range; a range counts by its lower bound; a release outside
/// every range followed is audited for the [`nearest`] one, and [`Choice::outside`] says
/// so), else the newest ([`Origin::Assumed`]).
pub fn choose(system: TargetId, flag: Option<TargetVersion>, pins: &[Pin]) -> Choice {
    let mine = || pins.iter().filter(|p| p.system == system);
    // Active Job: its own gem before `rails`, which pins it only through its version.
    let pin = mine()
        .filter(|p| p.exact)
        .min_by_key(|p| p.package == "rails")
        .or_else(|| mine().min_by_key(|p| p.package == "rails"))
        .cloned();
    let pinned = pin
        .as_ref()
        .and_then(|p| release(&p.version).map(|r| (p, of_release(system, r))));
    let outside = match &pinned {
        Some((p, Err(()))) => Some((*p).clone()),
        _ => None,
    };
    if let Some(v) = flag.filter(|v| v.target() == system) {
        // A flag that names the range the pin is in says what the pin says: the pin's note.
        let agrees = matches!(&pinned, Some((_, Ok(Some(p)))) if *p == v);
        return Choice {
            version: Some(v),
            from: match pin {
                Some(p) if agrees => Origin::Pin(p),
                pin => Origin::Flag(pin),
            },
            outside,
        };
    }
    match (pinned, pin.clone()) {
        (Some((_, Ok(v))), Some(p)) => Choice {
            version: system.version_or_newest(v),
            from: Origin::Pin(p),
            outside,
        },
        (Some((_, Err(()))), Some(p)) => Choice {
            version: release(&p.version).and_then(|r| nearest(system, r)),
            from: Origin::Pin(p),
            outside,
        },
        _ => Choice {
            version: system.version_or_newest(None),
            from: Origin::Assumed,
            outside: None,
        },
    }
}

/// Whether `depth` (brackets open) is past [`MAX_DEPTH`].
pub(crate) fn too_deep(depth: usize) -> bool {
    depth > MAX_DEPTH
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pin(system: TargetId, package: &str, version: &str, exact: bool) -> Pin {
        Pin {
            system,
            package: package.to_owned(),
            version: version.to_owned(),
            exact,
            file: "Gemfile.lock".to_owned(),
            line: 3,
        }
    }

    #[test]
    fn releases_are_read_from_what_the_files_write() {
        assert_eq!(release("6.5.12"), Some([6, 5, 12]));
        assert_eq!(release("v0.11.4"), Some([0, 11, 4]));
        assert_eq!(release("^6.7.0"), Some([6, 7, 0]));
        assert_eq!(release(">=5.2,<6"), Some([5, 2, 0]));
        assert_eq!(release("8.0.0.beta1"), Some([8, 0, 0]));
        assert_eq!(release("latest"), None);
        assert_eq!(release("99999999999999999999999"), None);
    }

    #[test]
    fn a_release_falls_in_the_version_whose_formulas_it_runs() {
        use TargetVersion::*;
        assert_eq!(
            of_release(TargetId::Sidekiq, [6, 5, 12]),
            Ok(Some(Sidekiq6))
        );
        assert_eq!(of_release(TargetId::Sidekiq, [6, 2, 2]), Ok(Some(Sidekiq6)));
        assert_eq!(of_release(TargetId::Sidekiq, [6, 2, 1]), Err(()));
        assert_eq!(of_release(TargetId::Sidekiq, [8, 0, 1]), Ok(Some(Sidekiq8)));
        assert_eq!(of_release(TargetId::Sidekiq, [9, 0, 0]), Err(()));
        assert_eq!(
            of_release(TargetId::ActiveJob, [7, 0, 8]),
            Ok(Some(ActiveJob61))
        );
        assert_eq!(
            of_release(TargetId::ActiveJob, [7, 1, 0]),
            Ok(Some(ActiveJob71))
        );
        assert_eq!(of_release(TargetId::ActiveJob, [6, 0, 6]), Err(()));
        assert_eq!(of_release(TargetId::Celery, [4, 4, 7]), Err(()));
        assert_eq!(of_release(TargetId::Celery, [5, 3, 6]), Ok(None));
        assert_eq!(of_release(TargetId::Temporal, [1, 11, 0]), Ok(None));
    }

    #[test]
    fn the_flag_wins_over_a_pin_and_says_which_pin_it_overrode() {
        let p = pin(TargetId::Sidekiq, "sidekiq", "6.5.12", true);
        let c = choose(TargetId::Sidekiq, None, std::slice::from_ref(&p));
        assert_eq!(c.version, Some(TargetVersion::Sidekiq6));
        assert_eq!(c.from, Origin::Pin(p.clone()));
        let c = choose(
            TargetId::Sidekiq,
            Some(TargetVersion::Sidekiq8),
            std::slice::from_ref(&p),
        );
        assert_eq!(c.version, Some(TargetVersion::Sidekiq8));
        assert_eq!(c.from, Origin::Flag(Some(p)));
        let c = choose(TargetId::Sidekiq, None, &[]);
        assert_eq!(
            (c.version, c.from),
            (Some(TargetVersion::Sidekiq8), Origin::Assumed)
        );
    }

    #[test]
    fn activejob_wins_over_rails_and_an_old_release_is_outside() {
        let rails = pin(TargetId::ActiveJob, "rails", "7.1.3", true);
        let aj = pin(TargetId::ActiveJob, "activejob", "6.0.6", true);
        let c = choose(TargetId::ActiveJob, None, &[rails, aj.clone()]);
        assert_eq!(c.from, Origin::Pin(aj.clone()));
        assert_eq!(c.outside, Some(aj));
        // Rails 6.0 is below every range followed: audited for the nearest, 6.1 – 7.0
        // (`:exponentially_longer`), not the newest.
        assert_eq!(c.version, Some(TargetVersion::ActiveJob61));
    }

    #[test]
    fn a_release_outside_the_ranges_is_audited_for_the_nearest() {
        let old = pin(TargetId::Sidekiq, "sidekiq", "5.2.9", true);
        let c = choose(TargetId::Sidekiq, None, std::slice::from_ref(&old));
        assert_eq!(
            (c.version, c.outside),
            (Some(TargetVersion::Sidekiq6), Some(old))
        );
        let new = pin(TargetId::Sidekiq, "sidekiq", "9.0.0", true);
        let c = choose(TargetId::Sidekiq, None, std::slice::from_ref(&new));
        assert_eq!(c.version, Some(TargetVersion::Sidekiq8));
    }

    #[test]
    fn a_flag_naming_the_pins_own_range_is_the_pin() {
        let p = pin(TargetId::Sidekiq, "sidekiq", "7.2.1", true);
        let c = choose(
            TargetId::Sidekiq,
            Some(TargetVersion::Sidekiq6),
            std::slice::from_ref(&p),
        );
        assert_eq!(
            (c.version, c.from),
            (Some(TargetVersion::Sidekiq6), Origin::Pin(p))
        );
    }

    #[test]
    fn pin_files_are_known_by_name() {
        for f in [
            "Gemfile.lock",
            "app/requirements.txt",
            "requirements-dev.txt",
            "constraints.txt",
            "package.json",
            "package-lock.json",
            "mix.lock",
            "go.mod",
            "poetry.lock",
            "uv.lock",
            "Pipfile.lock",
        ] {
            assert!(is_pin_file(f), "{f}");
        }
        for f in [
            "Gemfile",
            "tasks.py",
            "main.tf",
            "requirements.in",
            "go.sum",
        ] {
            assert!(!is_pin_file(f), "{f}");
        }
    }

    #[test]
    fn huge_and_binary_files_are_refused_before_reading() {
        let big = "a".repeat(super::super::found::MAX_FILE_BYTES as usize + 1);
        assert!(matches!(
            read("Gemfile.lock", &big),
            Err(ReadError::TooLarge { .. })
        ));
        assert_eq!(read("go.mod", "mod\0ule"), Err(ReadError::Binary));
        assert_eq!(read("main.tf", "x"), Err(ReadError::Unrecognised));
    }
}
