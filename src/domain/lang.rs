//! The two languages every text of the product exists in.

use crate::domain::error::ParseError;
use serde::{Deserialize, Serialize};

/// A user-facing language. Every text the product shows exists in both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// English (the default when nothing else is known).
    #[default]
    En,
    /// Japanese.
    Ja,
}

impl Lang {
    /// Both languages, English first.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Ja];

    /// The BCP 47 code: `"en"` or `"ja"`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ja => "ja",
        }
    }

    /// Parses exactly `"en"` or `"ja"`.
    ///
    /// # Errors
    /// [`ParseError::Invalid`] naming the allowed values for anything else.
    pub fn parse(s: &str) -> Result<Lang, ParseError> {
        match s {
            "en" => Ok(Lang::En),
            "ja" => Ok(Lang::Ja),
            other => Err(ParseError::Invalid {
                what: "language",
                value: other.to_owned(),
                allowed: "en, ja",
            }),
        }
    }

    /// Picks the language from a browser's preference list (e.g. `navigator.languages`):
    /// the first tag whose primary subtag is `ja` or `en` wins; English when none matches.
    pub fn from_browser_tags<'a>(tags: impl IntoIterator<Item = &'a str>) -> Lang {
        for tag in tags {
            let primary = tag
                .split(['-', '_'])
                .next()
                .unwrap_or("")
                .to_ascii_lowercase();
            match primary.as_str() {
                "ja" => return Lang::Ja,
                "en" => return Lang::En,
                _ => {}
            }
        }
        Lang::En
    }
}
