//! Escaping user text for each target's syntax, and names safe in code and file names. Every
//! function here returns text the target's own parser reads back as the same characters (or,
//! for comments and identifiers, as harmless text): proven in `tests/it/target_tools.rs` with
//! the hostile corpus (quotes, newlines, `#{}`, `${}`, backticks, `*/`).

/// A double-quoted string literal valid in JSON, JavaScript, TypeScript, Go, YAML (double-
/// quoted scalar) and Python: `"` `\` escaped, and as `\uXXXX` every C0 and C1 control
/// character (YAML folds U+0085 into a space and PyYAML refuses U+0080–U+009F), U+2028 /
/// U+2029 (line ends in JavaScript), U+FEFF (Go refuses a byte order mark anywhere), and the
/// bidirectional controls (U+200E/F, U+202A–U+202E, U+2066–U+2069: they would reorder the
/// code around them on screen — the "Trojan Source" attack — and stay visible as escapes).
pub fn dq(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if needs_escape(c) => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Whether [`dq`] writes `c` as a `\uXXXX` escape.
fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{200e}' | '\u{200f}'
                | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// A Ruby string literal that reads back as `s`: single-quoted (no interpolation: `#{}`
/// stays text; only `\` and `'` escaped) unless `s` holds control characters, which go into a
/// double-quoted literal as `\uXXXX` with `#` escaped.
pub fn ruby_sq(s: &str) -> String {
    if s.chars().any(needs_escape) {
        // Ruby reads a CR LF inside a single-quoted literal as LF: escape such text in a
        // double-quoted literal instead, `#` escaped so nothing is interpolated.
        return dq(s).replace('#', "\\#");
    }
    format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// An Elixir double-quoted string: as [`dq`] plus `#` escaped (`\#`), so `#{}` is not
/// interpolated.
pub fn elixir_dq(s: &str) -> String {
    dq(s).replace('#', "\\#")
}

/// An HCL (Terraform) quoted string: as [`dq`] plus template sequences escaped (`${` →
/// `$${`, `%{` → `%%{`).
pub fn hcl_dq(s: &str) -> String {
    dq(s).replace("${", "$${").replace("%{", "%%{")
}

/// A SQL string literal: `'` doubled. Control characters are kept (SQL string literals may
/// span lines in SQLite and PostgreSQL).
pub fn sql_sq(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// Text safe inside a one-line comment of any target (`#`, `//`, `--`): line breaks and other
/// control characters become spaces, and `*/` becomes `* /` (so it cannot end a block
/// comment either). Bidirectional controls are dropped.
pub fn comment(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}'))
        .map(|c| {
            if c.is_control() || c == '\u{2028}' || c == '\u{2029}' {
                ' '
            } else {
                c
            }
        })
        .collect::<String>()
        .replace("*/", "* /")
}

/// The longest identifier [`snake_ident`] gives, in characters (Elixir refuses atoms over
/// 255; names this long are unreadable anyway).
pub const MAX_IDENT: usize = 64;

/// An identifier in `snake_case` from a code name: ASCII letters and digits kept (lower-
/// cased), anything else one `_`, at most [`MAX_IDENT`] characters; `job` when nothing
/// remains; `job_` in front when it would start with a digit.
pub fn snake_ident(name: &str) -> String {
    let mut out = String::new();
    for c in name.trim().chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let mut out = out.trim_matches('_').to_owned();
    out.truncate(MAX_IDENT);
    let out = out.trim_end_matches('_').to_owned();
    if out.is_empty() {
        "job".to_owned()
    } else if out.starts_with(|c: char| c.is_ascii_digit()) {
        format!("job_{out}")
    } else {
        out
    }
}

/// An identifier in `CamelCase` from a code name (see [`snake_ident`]).
pub fn camel_ident(name: &str) -> String {
    snake_ident(name)
        .split('_')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut c = p.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// A name for Kubernetes objects, queues and SQL tables: lower-case ASCII letters, digits and
/// `-`, at most 52 characters (a CronJob's name limit), starting with a letter.
pub fn dns_label(name: &str) -> String {
    let mut s: String = snake_ident(name).replace('_', "-");
    s.truncate(52);
    s.trim_end_matches('-').to_owned()
}

/// The stem of the export's file name (see [`crate::domain::export::file_stem`]); `job` when
/// the code name leaves nothing.
pub fn file_stem(name: &str) -> String {
    let s = crate::domain::export::file_stem(name);
    if s.is_empty() {
        "job".to_owned()
    } else {
        s
    }
}

/// Whether `s` can be used as a class / exception name in the targets' languages (ASCII
/// letter first, then letters, digits, `_`, and `.` / `::` separated parts): e.g.
/// `TimeoutError`, `Net::ReadTimeout`, `botocore.exceptions.ClientError`.
pub fn is_class_path(s: &str) -> bool {
    let s = s.trim();
    !s.is_empty()
        && s.replace("::", ".").split('.').all(|p| {
            let mut c = p.chars();
            c.next()
                .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
                && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
        })
}
