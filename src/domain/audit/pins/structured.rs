//! The pin files in JSON (`package.json`, `package-lock.json`, `Pipfile.lock`), read with
//! serde_json. An entry's line is the line of its key in the text.

use super::{system_of, too_deep, Ecosystem, Raw};
use crate::domain::audit::found::{Pos, ReadError};
use serde_json::Value;

/// The 1-based line of byte `at` in `text`.
fn line_at(text: &str, at: usize) -> u32 {
    let at = at.min(text.len());
    let n = text.as_bytes()[..at]
        .iter()
        .filter(|b| **b == b'\n')
        .count();
    u32::try_from(n + 1).unwrap_or(u32::MAX)
}

/// The line of the first `"key"` followed by `:` at or after byte `from`, and where it
/// ends; else the line of `from`.
fn key_line(text: &str, key: &str, from: usize) -> (u32, usize) {
    let needle = crate::domain::json::compact(key);
    let mut start = from.min(text.len());
    while let Some(i) = text.get(start..).and_then(|t| t.find(&needle)) {
        let end = start + i + needle.len();
        if text[end..].trim_start().starts_with(':') {
            return (line_at(text, start + i), end);
        }
        start = end;
    }
    (line_at(text, from), from)
}

/// The deepest bracket nesting of a JSON text (strings skipped), to refuse a file past
/// [`MAX_DEPTH`](crate::domain::audit::found::MAX_DEPTH) before serde_json recurses.
fn json_depth_ok(text: &str) -> Result<(), ReadError> {
    let (mut depth, mut in_str, mut escaped) = (0usize, false, false);
    for (i, b) in text.bytes().enumerate() {
        match (in_str, escaped, b) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') | (false, _, b'"') => in_str = !in_str,
            (false, _, b'{' | b'[') => {
                depth += 1;
                if too_deep(depth) {
                    let line = line_at(text, i);
                    return Err(ReadError::TooDeep {
                        at: Pos { line, column: 1 },
                    });
                }
            }
            (false, _, b'}' | b']') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// `text` read as strict JSON (no trailing comma, no comment: what AWS, Terraform and npm
/// read), its nesting bounded first.
///
/// # Errors
/// [`ReadError::TooDeep`] past the nesting bound; [`ReadError::Syntax`] with the line, the
/// column and the mistake in plain words where known (`json_reason`).
pub(crate) fn json(text: &str) -> Result<Value, ReadError> {
    json_depth_ok(text)?;
    serde_json::from_str(text).map_err(|e| {
        let message = e.to_string();
        ReadError::Syntax {
            at: Pos {
                line: u32::try_from(e.line()).unwrap_or(u32::MAX).max(1),
                column: u32::try_from(e.column()).unwrap_or(u32::MAX).max(1),
            },
            reason: crate::domain::sheet::import_error::json_reason(&message),
            message,
        }
    })
}

/// `package.json`: `dependencies`, `devDependencies`, `peerDependencies`,
/// `optionalDependencies`: each a range as written (`^6.7.0`).
///
/// # Errors
/// [`ReadError::Syntax`] for JSON that does not parse; [`ReadError::TooDeep`].
pub fn package_json(text: &str) -> Result<Vec<Raw>, ReadError> {
    let v = json(text)?;
    let mut out = Vec::new();
    for section in [
        "dependencies",
        "devDependencies",
        "peerDependencies",
        "optionalDependencies",
    ] {
        let Some(deps) = v.get(section).and_then(Value::as_object) else {
            continue;
        };
        let (_, from) = key_line(text, section, 0);
        for (name, range) in deps {
            let (Some(system), Some(range)) = (system_of(Ecosystem::Npm, name), range.as_str())
            else {
                continue;
            };
            let (line, _) = key_line(text, name, from);
            // `6.7.0` alone (no `^`, `~`, `>`) is one release, the rest a range.
            let exact = range.trim().chars().all(|c| c.is_ascii_digit() || c == '.')
                && !range.trim().is_empty();
            out.push((system, name.clone(), range.trim().to_owned(), exact, line));
        }
    }
    out.sort_by_key(|r| r.4);
    Ok(out)
}

/// `package-lock.json`: `packages["node_modules/NAME"].version` (lockfile v2 and v3), else
/// `dependencies.NAME.version` (v1): the release installed. Nested copies
/// (`node_modules/a/node_modules/bullmq`) are left out.
///
/// # Errors
/// As [`package_json`].
pub fn package_lock(text: &str) -> Result<Vec<Raw>, ReadError> {
    let v = json(text)?;
    let mut out = Vec::new();
    if let Some(packages) = v.get("packages").and_then(Value::as_object) {
        for (key, entry) in packages {
            let Some(name) = key.strip_prefix("node_modules/") else {
                continue;
            };
            if name.contains("/node_modules/") {
                continue;
            }
            let (Some(system), Some(version)) = (
                system_of(Ecosystem::Npm, name),
                entry.get("version").and_then(Value::as_str),
            ) else {
                continue;
            };
            let (line, _) = key_line(text, key, 0);
            out.push((system, name.to_owned(), version.to_owned(), true, line));
        }
        out.sort_by_key(|r| r.4);
        return Ok(out);
    }
    if let Some(deps) = v.get("dependencies").and_then(Value::as_object) {
        let (_, from) = key_line(text, "dependencies", 0);
        for (name, entry) in deps {
            let (Some(system), Some(version)) = (
                system_of(Ecosystem::Npm, name),
                entry.get("version").and_then(Value::as_str),
            ) else {
                continue;
            };
            let (line, _) = key_line(text, name, from);
            out.push((system, name.clone(), version.to_owned(), true, line));
        }
    }
    out.sort_by_key(|r| r.4);
    Ok(out)
}

/// `Pipfile.lock`: `default` and `develop`, each `NAME: {"version": "==5.3.6"}`.
///
/// # Errors
/// As [`package_json`].
pub fn pipfile_lock(text: &str) -> Result<Vec<Raw>, ReadError> {
    let v = json(text)?;
    let mut out = Vec::new();
    for section in ["default", "develop"] {
        let Some(deps) = v.get(section).and_then(Value::as_object) else {
            continue;
        };
        let (_, from) = key_line(text, section, 0);
        for (name, entry) in deps {
            let (Some(system), Some(version)) = (
                system_of(Ecosystem::Python, name),
                entry.get("version").and_then(Value::as_str),
            ) else {
                continue;
            };
            let (line, _) = key_line(text, name, from);
            let exact = version.starts_with("==") && !version.contains(',');
            out.push((system, name.clone(), version.to_owned(), exact, line));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::queues::TargetId;

    #[test]
    fn package_json_gives_ranges_at_their_lines() {
        let text = "{\r\n  \"name\": \"bullmq\",\r\n  \"dependencies\": {\r\n    \"bullmq\": \"^6.7.0\",\r\n    \"@temporalio/client\": \"1.11.1\"\r\n  },\r\n  \"devDependencies\": {\"pg-boss\": \">=12 <13\"}\r\n}\r\n";
        let pins = package_json(text).expect("reads");
        assert_eq!(
            pins,
            vec![
                (TargetId::Bullmq, "bullmq".into(), "^6.7.0".into(), false, 4),
                (
                    TargetId::Temporal,
                    "@temporalio/client".into(),
                    "1.11.1".into(),
                    true,
                    5
                ),
                (
                    TargetId::PgBoss,
                    "pg-boss".into(),
                    ">=12 <13".into(),
                    false,
                    7
                ),
            ]
        );
    }

    #[test]
    fn package_lock_gives_the_installed_release() {
        let v3 = r#"{
  "lockfileVersion": 3,
  "packages": {
    "": {"dependencies": {"bullmq": "^6.7.0"}},
    "node_modules/bullmq": {
      "version": "6.7.2"
    },
    "node_modules/x/node_modules/bullmq": {"version": "5.0.0"}
  }
}"#;
        assert_eq!(
            package_lock(v3).expect("reads"),
            vec![(TargetId::Bullmq, "bullmq".into(), "6.7.2".into(), true, 5)]
        );
        let v1 = r#"{"lockfileVersion": 1, "dependencies": {"pg-boss": {"version": "12.38.0"}}}"#;
        assert_eq!(package_lock(v1).expect("reads")[0].2, "12.38.0");
    }

    #[test]
    fn bad_json_is_an_error_at_its_line_and_deep_json_is_refused() {
        match package_json("{\n  \"dependencies\": {\n    \"bullmq\": ^6\n") {
            Err(ReadError::Syntax { at, .. }) => assert_eq!(at.line, 3),
            other => panic!("{other:?}"),
        }
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        assert!(matches!(
            package_lock(&deep),
            Err(ReadError::TooDeep { .. })
        ));
        // Brackets inside strings do not count.
        let strings = format!("{{\"a\": \"{}\"}}", "[".repeat(1000));
        assert_eq!(package_json(&strings).expect("reads"), vec![]);
        // Wrong shapes are skipped.
        let odd = r#"{"dependencies": ["bullmq"], "packages": 3}"#;
        assert_eq!(package_json(odd).expect("reads"), vec![]);
        assert_eq!(package_lock(odd).expect("reads"), vec![]);
    }

    #[test]
    fn pipfile_lock_gives_celery() {
        let text = "{\n \"_meta\": {},\n \"default\": {\n  \"celery\": {\n   \"hashes\": [],\n   \"version\": \"==5.3.6\"\n  }\n }\n}\n";
        assert_eq!(
            pipfile_lock(text).expect("reads"),
            vec![(TargetId::Celery, "celery".into(), "==5.3.6".into(), true, 4)]
        );
    }
}
