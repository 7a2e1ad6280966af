//! Usage errors in the run's language. clap parses the arguments and says what is wrong; a run
//! with `--lang ja` (the only way the CLI picks its language: it does not read `LANG` or
//! `LC_ALL`) gets that error in Japanese, built from the error's kind and context (the
//! argument, the value given, the values allowed, the closest flag) rather than from clap's
//! English text. English runs print clap's own message. Both exit 2; `--help` and
//! `--version` print as clap writes them and exit 0.

use crate::domain::Lang;
use crate::text::t;
use clap::error::{ContextKind, ContextValue, ErrorKind};

/// The language a run asked for with `--lang ja` / `--lang=ja` among `args` (the process's
/// arguments after the program's name); English otherwise. Read from the raw arguments because
/// the error being reported may be that they do not parse.
pub fn lang_of_args<I, S>(args: I) -> Lang
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let mut lang = Lang::En;
    let mut after_flag = false;
    for arg in args {
        let arg = arg.as_ref().to_string_lossy();
        if arg == "--" {
            break;
        }
        let value = if after_flag {
            Some(arg.as_ref())
        } else {
            arg.strip_prefix("--lang=")
        };
        if let Some(v) = value {
            lang = if v.trim().eq_ignore_ascii_case("ja") {
                Lang::Ja
            } else {
                Lang::En
            };
        }
        after_flag = arg == "--lang";
    }
    lang
}

/// A context value as text: one string, or a list joined by `, `.
fn context(e: &clap::Error, kind: ContextKind) -> Option<String> {
    match e.get(kind)? {
        ContextValue::String(s) => Some(s.clone()),
        ContextValue::Strings(v) if !v.is_empty() => Some(v.join(", ")),
        ContextValue::StyledStr(s) => Some(s.to_string()),
        ContextValue::StyledStrs(v) if !v.is_empty() => Some(
            v.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", "),
        ),
        ContextValue::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// `e` worded in `lang`: one line naming the argument and what is allowed, and a second line
/// pointing at `--help`. `None` for English and for the outputs that are not errors (`--help`,
/// `--version`): clap prints those itself.
pub fn message(e: &clap::Error, lang: Lang) -> Option<String> {
    if !e.use_stderr() || lang == Lang::En {
        return None;
    }
    let l = lang.code();
    let arg = context(e, ContextKind::InvalidArg).unwrap_or_default();
    let value = context(e, ContextKind::InvalidValue).unwrap_or_default();
    let first = match e.kind() {
        ErrorKind::UnknownArgument => {
            let hint = context(e, ContextKind::SuggestedArg)
                .map(|s| t!("cli.usage.did-you-mean", locale = l, arg = s).into_owned())
                .unwrap_or_default();
            t!("cli.usage.unknown", locale = l, arg = arg, hint = hint)
        }
        ErrorKind::InvalidSubcommand => {
            let allowed = context(e, ContextKind::ValidSubcommand).unwrap_or_default();
            t!(
                "cli.usage.subcommand",
                locale = l,
                arg = arg,
                allowed = allowed
            )
        }
        ErrorKind::InvalidValue => match context(e, ContextKind::ValidValue) {
            Some(allowed) => t!(
                "cli.usage.value-one-of",
                locale = l,
                arg = arg,
                value = value,
                allowed = allowed
            ),
            None => t!("cli.usage.value-missing", locale = l, arg = arg),
        },
        ErrorKind::ValueValidation => {
            // Our own value parsers say what is allowed as a [`ValueError`], worded here.
            let source = std::error::Error::source(e);
            let why = match source.and_then(|s| s.downcast_ref::<ValueError>()) {
                Some(v) => v.message(lang),
                None => source.map(ToString::to_string).unwrap_or_default(),
            };
            t!(
                "cli.usage.value-invalid",
                locale = l,
                arg = arg,
                value = value,
                why = why
            )
        }
        ErrorKind::MissingRequiredArgument => {
            t!("cli.usage.missing", locale = l, arg = arg)
        }
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            t!("cli.usage.missing-subcommand", locale = l)
        }
        ErrorKind::ArgumentConflict => {
            let prior = context(e, ContextKind::PriorArg).unwrap_or_default();
            t!("cli.usage.conflict", locale = l, arg = arg, prior = prior)
        }
        ErrorKind::NoEquals => t!("cli.usage.no-equals", locale = l, arg = arg),
        ErrorKind::TooManyValues | ErrorKind::WrongNumberOfValues | ErrorKind::TooFewValues => {
            t!("cli.usage.values-count", locale = l, arg = arg)
        }
        _ => t!("cli.usage.other", locale = l),
    };
    Some(format!("{}\n{}\n", first, t!("cli.usage.help", locale = l)))
}

/// Why a flag's value was refused by one of the CLI's own value parsers: what is allowed,
/// kept as data so the usage error can word it in the run's language ([`ValueError::message`];
/// `Display` is the English).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValueError {
    /// A whole number from `min` to `max`.
    Whole {
        /// The smallest allowed.
        min: u64,
        /// The largest allowed.
        max: u64,
    },
    /// `all`, or a whole number from 0 to `max`.
    WholeOrAll {
        /// The largest number allowed.
        max: u64,
    },
    /// A duration from `min` to `max` milliseconds (or with a unit); `why` when the text is
    /// not a duration at all.
    Millis {
        /// The shortest allowed, ms.
        min: u64,
        /// The longest allowed, ms.
        max: u64,
        /// Why the text is not a duration.
        why: Option<crate::domain::duration::DurationParseError>,
    },
    /// A rate per second, at most 1,000,000: from 0 (`from_zero`) or above 0.
    Rate {
        /// Whether 0 is allowed.
        from_zero: bool,
    },
    /// A probability from 0 to 0.99.
    Probability,
}

impl ValueError {
    /// What is allowed, in `lang`, with the numbers grouped by threes.
    pub fn message(&self, lang: Lang) -> String {
        use crate::domain::number::group_thousands as g;
        let l = lang.code();
        match self {
            Self::Whole { min, max } => {
                t!("cli.value.whole", locale = l, min = g(*min), max = g(*max))
            }
            Self::WholeOrAll { max } => t!("cli.value.whole-or-all", locale = l, max = g(*max)),
            Self::Millis { min, max, why } => {
                let expected = t!("cli.value.ms", locale = l, min = g(*min), max = g(*max));
                match why {
                    Some(why) => t!(
                        "cli.value.ms-why",
                        locale = l,
                        why = why.message(lang),
                        expected = expected
                    ),
                    None => expected,
                }
            }
            Self::Rate { from_zero: true } => t!("cli.value.rate0", locale = l),
            Self::Rate { from_zero: false } => t!("cli.value.rate", locale = l),
            Self::Probability => t!("cli.value.probability", locale = l),
        }
        .into_owned()
    }
}

impl std::fmt::Display for ValueError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for ValueError {}
