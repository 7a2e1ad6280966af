//! Why a sheet (or a catalog holding sheets) could not be read: [`ImportError`], naming the
//! field by its JSON path and what is allowed, in English or Japanese. Re-exported by
//! [`import`](super::import), where the readers are.

use crate::domain::lang::Lang;
use crate::domain::sheet::{OLDEST_SCHEMA_VERSION, SCHEMA_VERSION};
use std::fmt;

/// Why a sheet could not be imported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportError {
    /// Not JSON at all.
    InvalidJson {
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// Not a sheet at all, so no field of it can be named. `found` says what the text is
    /// instead: `empty` (nothing but blanks), `catalog` (a catalog file, `catalog_version` /
    /// `processes`, given where one sheet is read), or the JSON kind it holds instead of an
    /// object: `array`, `string`, `number`, `boolean` or `null`. Not on the embed page, which
    /// reads no file (its budget).
    #[cfg(not(feature = "embed"))]
    NotASheet {
        /// What the text is: one of the words above.
        found: String,
    },
    /// `schema_version` missing or not one this build reads
    /// ([`OLDEST_SCHEMA_VERSION`] to [`SCHEMA_VERSION`]).
    SchemaVersion {
        /// What was found (`None`: missing or not a number).
        found: Option<String>,
    },
    /// A field is missing, unknown or of the wrong type.
    Field {
        /// JSON path of the field, e.g. `retry.max_attempts`.
        path: String,
        /// What is wrong, from the decoder.
        problem: String,
    },
    /// A number or size outside its allowed range.
    OutOfRange {
        /// JSON path of the field.
        path: String,
        /// The rejected value.
        value: String,
        /// What is allowed, e.g. `1 to 100`.
        allowed: String,
    },
    /// The decision does not hold together, or a section does not fit the outcome.
    Inconsistent {
        /// JSON path of the field.
        path: String,
        /// What is wrong and what is allowed.
        problem: String,
    },
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::InvalidJson {
                line,
                column,
                message,
            } => {
                let reason = json_reason_text(message, Lang::En).unwrap_or_default();
                write!(f, "not valid JSON (line {line}, column {column}): {reason}")
            }
            // Its words are the texts' (one copy of them), in English.
            #[cfg(not(feature = "embed"))]
            ImportError::NotASheet { .. } => f.write_str(&self.message(Lang::En)),
            ImportError::SchemaVersion { found: None } => {
                write!(f, "schema_version: missing; allowed: {}", versions())
            }
            ImportError::SchemaVersion { found: Some(v) } => {
                write!(
                    f,
                    "schema_version: {v} is not supported; allowed: {}",
                    versions()
                )
            }
            ImportError::Field { path, problem } => write!(f, "{path}: {problem}"),
            ImportError::OutOfRange {
                path,
                value,
                allowed,
            } => {
                write!(f, "{path}: {value} is out of range; allowed: {allowed}")
            }
            ImportError::Inconsistent { path, problem } => write!(f, "{path}: {problem}"),
        }
    }
}

impl std::error::Error for ImportError {}

/// The locale key that says serde_json's syntax message `message` (without its position,
/// e.g. `EOF while parsing a value`, `expected ident`) in plain words, `import.json-*` in
/// locales/page/sheet-import.yml; `None` for a message it does not know.
///
/// Source: the messages of serde_json 1's `ErrorCode` (its `Display`).
pub fn json_reason(message: &str) -> Option<&'static str> {
    const REASONS: [(&str, &str); 18] = [
        ("EOF while parsing", "import.json-eof"),
        ("expected value", "import.json-value"),
        ("expected ident", "import.json-value"),
        ("expected `:`", "import.json-colon"),
        ("expected `,` or `]`", "import.json-list"),
        ("expected `,` or `}`", "import.json-object"),
        ("expected `\"`", "import.json-key"),
        ("key must be a string", "import.json-key"),
        ("trailing comma", "import.json-trailing-comma"),
        ("trailing characters", "import.json-trailing"),
        ("control character", "import.json-control"),
        ("invalid escape", "import.json-escape"),
        ("invalid unicode code point", "import.json-escape"),
        ("lone leading surrogate", "import.json-escape"),
        ("unexpected end of hex escape", "import.json-escape"),
        ("invalid number", "import.json-number"),
        ("number out of range", "import.json-number"),
        ("recursion limit exceeded", "import.json-depth"),
    ];
    REASONS
        .iter()
        .find(|(m, _)| message.starts_with(m))
        .map(|(_, key)| *key)
}

/// Why the text is not JSON, in `lang`: the parser's `message` in plain words
/// ([`json_reason`]), else as it is in English and `None` in Japanese. The embed page keeps
/// the parser's message (its budget has no room for the words; a link the product made is
/// always JSON).
fn json_reason_text(message: &str, lang: Lang) -> Option<String> {
    #[cfg(not(feature = "embed"))]
    if let Some(key) = json_reason(message) {
        return Some(crate::text::t!(key, locale = lang.code()).into_owned());
    }
    (lang == Lang::En).then(|| message.to_owned())
}

/// The sheet versions this build reads, as errors name them: `1 to 2`.
pub fn versions() -> String {
    format!("{OLDEST_SCHEMA_VERSION} to {SCHEMA_VERSION}")
}

/// Puts the decoder's and the limits' usual English phrases into Japanese; names, values and
/// ids (the file's own words) are left as they are.
fn ja_detail(text: &str) -> String {
    let mut t = text.to_owned();
    // Not on the embed page: a hand-edited link's "invalid value" stays English there (its
    // 155 KB budget has no bytes to spare), and it reads no audit record.
    #[cfg(not(feature = "embed"))]
    for (en, ja) in [
        ("invalid value: ", "値が違います："),
        (
            "a queue system's name (see `targets`)",
            "キューシステムの名前（`targets` を参照）",
        ),
    ] {
        t = t.replace(en, ja);
    }
    for (en, ja) in [
        ("invalid type: ", "型が違います："),
        ("unknown field ", "不明な項目 "),
        ("unknown variant ", "不明な値 "),
        (", expected one of ", "（使えるのは "),
        (", expected a whole number from ", "（使えるのは整数 "),
        (", expected a number", "（数値が必要です"),
        (", expected ", "（期待される型："),
        ("at most ", "最大 "),
        (" characters", " 文字"),
        (" items", " 項目"),
        (" to ", " 〜 "),
        ("string ", "文字列 "),
        ("integer ", "整数 "),
    ] {
        t = t.replace(en, ja);
    }
    if t.contains('（') && !t.ends_with('）') {
        t.push('）');
    }
    t
}

impl ImportError {
    /// The same error with its field path rewritten by `f` (an error without a path is
    /// returned as it is): for readers that nest one document in another, e.g. a sheet at
    /// `processes[2].sheet` of a catalog, or a catalog at `content.catalog` of a share link.
    pub fn map_path(self, f: impl FnOnce(String) -> String) -> ImportError {
        match self {
            ImportError::Field { path, problem } => ImportError::Field {
                path: f(path),
                problem,
            },
            ImportError::OutOfRange {
                path,
                value,
                allowed,
            } => ImportError::OutOfRange {
                path: f(path),
                value,
                allowed,
            },
            ImportError::Inconsistent { path, problem } => ImportError::Inconsistent {
                path: f(path),
                problem,
            },
            other => other,
        }
    }

    /// The message in `lang`. The English text is the [`Display`](std::fmt::Display) form; in
    /// Japanese the field path and values stay as they are (they are the file's own words),
    /// and a decoder's own detail is quoted in parentheses.
    pub fn message(&self, lang: Lang) -> String {
        let l = lang.code();
        // Said in both languages from the texts, which also name where a catalog is imported.
        #[cfg(not(feature = "embed"))]
        if let ImportError::NotASheet { found } = self {
            return match found.as_str() {
                "empty" => crate::text::t!("import.not-sheet-empty", locale = l),
                "catalog" => crate::text::t!("import.not-sheet-catalog", locale = l),
                _ => crate::text::t!("import.not-sheet-kind", locale = l),
            }
            .into_owned();
        }
        if lang == Lang::En {
            return self.to_string();
        }
        match self {
            ImportError::InvalidJson {
                line,
                column,
                message,
            } => {
                let place = crate::text::t!(
                    "import.invalid-json",
                    locale = l,
                    line = line,
                    column = column
                );
                match json_reason_text(message, lang) {
                    Some(reason) => crate::text::t!(
                        "import.json-reason",
                        locale = l,
                        place = place,
                        reason = reason
                    )
                    .into_owned(),
                    None => place.into_owned(),
                }
            }
            ImportError::SchemaVersion { found: None } => crate::text::t!(
                "import.schema-missing",
                locale = l,
                allowed = ja_detail(&versions())
            )
            .into_owned(),
            ImportError::SchemaVersion { found: Some(v) } => crate::text::t!(
                "import.schema-unsupported",
                locale = l,
                found = v,
                allowed = ja_detail(&versions())
            )
            .into_owned(),
            ImportError::Field { path, problem } if problem.starts_with("missing") => {
                crate::text::t!("import.missing", locale = l, path = path).into_owned()
            }
            ImportError::Field { path, problem } => crate::text::t!(
                "import.field",
                locale = l,
                path = path,
                problem = ja_detail(problem)
            )
            .into_owned(),
            ImportError::OutOfRange {
                path,
                value,
                allowed,
            } => crate::text::t!(
                "import.range",
                locale = l,
                path = path,
                value = ja_detail(value),
                allowed = ja_detail(allowed)
            )
            .into_owned(),
            ImportError::Inconsistent { path, problem } => crate::text::t!(
                "import.inconsistent",
                locale = l,
                path = path,
                problem = problem
            )
            .into_owned(),
            // Said above, from the texts (never reached).
            #[cfg(not(feature = "embed"))]
            ImportError::NotASheet { found } => found.clone(),
        }
    }
}
