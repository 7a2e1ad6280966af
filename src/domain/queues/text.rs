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

/// The process's name with its name in code in brackets, as the export's comments name it:
/// "Send the mail (send_mail)", 「メール送信（send_mail）」; the name alone where the sheet
/// gives no name in code (no empty brackets). Not made comment-safe: see [`comment`].
pub fn named(process: &str, code: &str, ja: bool) -> String {
    match (code.trim().is_empty(), ja) {
        (true, _) => process.to_owned(),
        (false, false) => format!("{process} ({code})"),
        (false, true) => format!("{process}（{code}）"),
    }
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

/// The longest [`dns_label`], in characters (a Kubernetes CronJob's name limit).
pub const MAX_LABEL: usize = 52;

/// An identifier in `snake_case` from a code name: ASCII letters and digits kept (lower-
/// cased), anything else one `_`, at most [`MAX_IDENT`] characters; `job` when nothing
/// remains of a name with nothing but ASCII in it; `job_` in front when it would start with a
/// digit. A name with other characters in it (確認メールの送信, `送信mail`, an emoji) keeps what
/// ASCII it has (`process` when none) and gets `_` and [`name_tag`] appended, so two such
/// names of one catalog do not become the same identifier (`process_1c2d3e4f`); the name as
/// written stays in the export's header comment.
pub fn snake_ident(name: &str) -> String {
    ident(name, MAX_IDENT)
}

/// [`snake_ident`] without the tag: for the process's argument names, which only need to
/// differ from each other (`kit::arg_idents` numbers repeats).
pub fn word_ident(name: &str) -> String {
    let base = ascii_words(name.trim());
    let mut out = base.to_owned();
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

/// The ASCII letters and digits of `name`, lower-cased, every other run of characters one
/// `_`, no `_` at either end.
fn ascii_words(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_matches('_').to_owned()
}

/// A tag of eight lower-case hex digits for `name` (trimmed): its 32-bit FNV-1a hash, the
/// same on every platform and in every version, so an export's identifiers stay put.
pub fn name_tag(name: &str) -> String {
    let mut h: u32 = 0x811c_9dc5;
    for b in name.trim().bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    format!("{h:08x}")
}

/// [`snake_ident`] at most `max` characters (`max` ≥ 20), the tag kept whole.
fn ident(name: &str, max: usize) -> String {
    let name = name.trim();
    let base = ascii_words(name);
    let tagged = name.chars().any(|c| !c.is_ascii() && !c.is_whitespace())
        || (base.is_empty() && !name.is_empty() && name.chars().any(|c| !c.is_whitespace()));
    let suffix = if tagged {
        format!("_{}", name_tag(name))
    } else {
        String::new()
    };
    let prefix = if base.is_empty() {
        if tagged {
            "process"
        } else {
            return "job".to_owned();
        }
    } else if base.starts_with(|c: char| c.is_ascii_digit()) {
        "job_"
    } else {
        ""
    };
    let mut base = base;
    base.truncate(max.saturating_sub(prefix.len() + suffix.len()));
    format!("{prefix}{}{suffix}", base.trim_end_matches('_'))
}

/// An identifier in `CamelCase` from a code name (see [`snake_ident`]): `Process1c2d3e4f`
/// for a name with no ASCII letters.
pub fn camel_ident(name: &str) -> String {
    camel(&snake_ident(name))
}

/// A job class name for Sidekiq and Active Job: [`camel_ident`] ending in `Job` once, as
/// Rails' job generator names it (it drops a trailing `_job` before adding the suffix):
/// `send_mail` and `send_mail_job` give `SendMailJob`, an empty code name `Job` (not `JobJob`).
pub fn job_class(name: &str) -> String {
    let camel = camel_ident(name);
    if camel.ends_with("Job") {
        camel
    } else {
        camel + "Job"
    }
}

/// `snake` (ASCII letters, digits, `_`) in `CamelCase`.
pub fn camel(snake: &str) -> String {
    snake
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
/// `-`, at most [`MAX_LABEL`] characters, starting with a letter (the tag of
/// [`snake_ident`] kept whole).
pub fn dns_label(name: &str) -> String {
    ident(name, MAX_LABEL).replace('_', "-")
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

/// Whether `s` is a Ruby constant path, as `exception.class.name` gives it: `::`-separated
/// parts, each an upper-case ASCII letter then letters, digits, `_` (`Net::ReadTimeout`).
pub fn is_ruby_constant(s: &str) -> bool {
    s.split("::").all(|p| {
        let mut c = p.chars();
        c.next().is_some_and(|f| f.is_ascii_uppercase())
            && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
    })
}

/// Whether `s` is the `name` of a JavaScript error class (`ValidationError`, `AbortError`):
/// an upper-case ASCII letter, then letters, digits, `_`, `$`.
pub fn is_js_error_name(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|f| f.is_ascii_uppercase())
        && c.all(|x| x.is_ascii_alphanumeric() || x == '_' || x == '$')
}

/// Whether `s` names a Go error: a type or a sentinel value, optionally behind `*` and one
/// package (`*pgconn.PgError`, `sql.ErrNoRows`, `PgError`); the name itself exported
/// (upper-case first).
pub fn is_go_error_name(s: &str) -> bool {
    let ident = |p: &str| {
        let mut c = p.chars();
        c.next()
            .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
            && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
    };
    let s = s.strip_prefix('*').unwrap_or(s);
    let (pkg, name) = s.split_once('.').unwrap_or(("", s));
    (!s.contains('.') || ident(pkg))
        && ident(name)
        && name.starts_with(|c: char| c.is_ascii_uppercase())
}
