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
            // Our own value parsers say why and what is allowed (in English: they run
            // before the language is known); the line names the argument in Japanese.
            let why = std::error::Error::source(e)
                .map(ToString::to_string)
                .unwrap_or_default();
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
