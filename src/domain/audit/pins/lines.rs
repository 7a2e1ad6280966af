//! The pin files written one entry a line: `Gemfile.lock`, `requirements.txt` (and
//! constraints), `mix.lock`, `go.mod`, and the `[[package]]` tables of `poetry.lock` and
//! `uv.lock` (TOML as those tools write it: one `key = "value"` a line; with the `toml` crate
//! this reading made the target worker 39 KB brotli larger, for two keys). Each reader looks at one line at a time (a
//! requirement's `\` continuation joined to its first line), skips what it does not
//! understand, and never indexes past a line's end.

use super::{system_of, Ecosystem, Raw};

/// The file's lines with their 1-based numbers, a trailing `\r` (CRLF files) removed.
fn numbered(text: &str) -> impl Iterator<Item = (u32, &str)> {
    text.lines().enumerate().map(|(i, l)| {
        (
            u32::try_from(i + 1).unwrap_or(u32::MAX),
            l.trim_end_matches('\r'),
        )
    })
}

/// `Gemfile.lock`: each resolved gem of a `specs:` list, written with four spaces
/// (`    sidekiq (6.5.12)`); the six-space lines under it are its dependencies' constraints and
/// the two-space `DEPENDENCIES` lines the Gemfile's, neither a release.
pub fn gemfile_lock(text: &str) -> Vec<Raw> {
    let mut out = Vec::new();
    for (n, line) in numbered(text) {
        let Some(rest) = line.strip_prefix("    ") else {
            continue;
        };
        if rest.starts_with(' ') {
            continue;
        }
        let Some((name, version)) = rest.split_once(" (") else {
            continue;
        };
        let Some(version) = version.strip_suffix(')') else {
            continue;
        };
        // A platform gem writes `1.15.4-x86_64-linux`; the release is before the dash.
        let version = version.split('-').next().unwrap_or(version).trim();
        if let Some(system) = system_of(Ecosystem::Ruby, name) {
            if !version.is_empty() && !version.contains(' ') {
                out.push((system, name.to_owned(), version.to_owned(), true, n));
            }
        }
    }
    out
}

/// The specifier of a requirement line: the name, then (after extras) the version clauses,
/// environment markers (`; python_version < "3.9"`) and a URL (`name @ https://…`) left out.
fn requirement(line: &str) -> Option<(&str, &str)> {
    let end = line
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')))
        .unwrap_or(line.len());
    let (name, rest) = line.split_at(end);
    if name.is_empty() {
        return None;
    }
    let rest = rest.trim_start();
    let rest = match rest.strip_prefix('[') {
        Some(r) => r.split_once(']').map_or("", |(_, after)| after),
        None => rest,
    };
    let spec = rest.split(';').next().unwrap_or("").trim();
    if spec.is_empty() || spec.starts_with('@') {
        return None;
    }
    Some((name, spec))
}

/// `requirements*.txt` and constraints: `celery==5.3.6` is one release; `~=`, `>=`, `<`, a
/// wildcard `==5.*` or several clauses are a range. Comments (`#` at the start or after a
/// space), options (`-r`, `-c`, `-e`, `--hash`) and continuation lines (`\`) are handled.
pub fn requirements(text: &str) -> Vec<Raw> {
    let mut out = Vec::new();
    let mut joined: Option<(u32, String)> = None;
    for (n, raw) in numbered(text) {
        let (first, mut line) = match joined.take() {
            Some((first, mut acc)) => {
                acc.push(' ');
                acc.push_str(raw);
                (first, acc)
            }
            None => (n, raw.to_owned()),
        };
        if let Some(stripped) = line.strip_suffix('\\') {
            // A line so long is not a requirement: stop joining rather than grow.
            if stripped.len() < 4096 {
                joined = Some((first, stripped.to_owned()));
                continue;
            }
            line = stripped.to_owned();
        }
        let code = match line.find(" #").or_else(|| line.find("\t#")) {
            Some(i) => &line[..i],
            None => &line,
        };
        let code = code.trim();
        if code.is_empty() || code.starts_with('#') || code.starts_with('-') {
            continue;
        }
        let Some((name, spec)) = requirement(code) else {
            continue;
        };
        let Some(system) = system_of(Ecosystem::Python, name) else {
            continue;
        };
        // `--hash=…` options after the specifier are not part of it.
        let spec = spec.split(" --").next().unwrap_or(spec).trim();
        let exact = (spec.starts_with("==") || spec.starts_with("==="))
            && !spec.contains(',')
            && !spec.contains('*');
        out.push((system, name.to_owned(), spec.to_owned(), exact, first));
    }
    out
}

/// `mix.lock`: `  "oban": {:hex, :oban, "2.17.3", "…", …},` — the key and the third element.
pub fn mix_lock(text: &str) -> Vec<Raw> {
    let mut out = Vec::new();
    for (n, line) in numbered(text) {
        let line = line.trim();
        let Some(rest) = line.strip_prefix('"') else {
            continue;
        };
        let Some((name, rest)) = rest.split_once("\":") else {
            continue;
        };
        let Some(system) = system_of(Ecosystem::Hex, name) else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix("{:hex,") else {
            continue;
        };
        // `:oban, "2.17.3", …`: the release is the first string.
        let version = rest
            .split_once('"')
            .and_then(|(_, after)| after.split_once('"'))
            .map(|(v, _)| v.trim());
        if let Some(v) = version.filter(|v| !v.is_empty()) {
            out.push((system, name.to_owned(), v.to_owned(), true, n));
        }
    }
    out
}

/// `go.mod`: `require MODULE VERSION` lines and `require ( … )` blocks (`// indirect`
/// comments left out). Go's minimal version selection makes the required version the one
/// built, unless a `replace` points elsewhere (a replaced module is not reported).
pub fn go_mod(text: &str) -> Vec<Raw> {
    let mut out = Vec::new();
    let mut replaced: Vec<&str> = Vec::new();
    let mut block: Option<&str> = None;
    for (_, line) in numbered(text) {
        let code = line.split("//").next().unwrap_or("").trim();
        let words: Vec<&str> = code.split_whitespace().collect();
        match (block, words.as_slice()) {
            (Some(_), [")"]) => block = None,
            (Some("replace"), [module, ..]) | (None, ["replace", module, ..]) => {
                replaced.push(module)
            }
            (None, [kw, "("]) => block = Some(kw),
            _ => {}
        }
    }
    block = None;
    for (n, line) in numbered(text) {
        let code = line.split("//").next().unwrap_or("").trim();
        let words: Vec<&str> = code.split_whitespace().collect();
        let (module, version) = match (block, words.as_slice()) {
            (Some(_), [")"]) => {
                block = None;
                continue;
            }
            (None, [kw, "("]) => {
                block = Some(*kw);
                continue;
            }
            (Some("require"), [module, version, ..]) | (None, ["require", module, version, ..]) => {
                (*module, *version)
            }
            _ => continue,
        };
        if replaced.contains(&module) {
            continue;
        }
        if let Some(system) = system_of(Ecosystem::Go, module) {
            out.push((system, module.to_owned(), version.to_owned(), true, n));
        }
    }
    out
}

/// `poetry.lock` and `uv.lock`: each `[[package]]` table's `name = "…"` and
/// `version = "…"` (basic strings, as both tools write them); the table ends at the next
/// header. A table without both, or with another kind of value, is skipped.
pub fn toml_lock(text: &str) -> Vec<Raw> {
    let mut out = Vec::new();
    // The current package: its name and line, its version; and whether its keys are open.
    let mut current: (Option<(String, u32)>, Option<String>) = (None, None);
    let mut open = false;
    let flush = |c: &mut (Option<(String, u32)>, Option<String>), out: &mut Vec<Raw>| {
        if let (Some((name, line)), Some(version)) = (c.0.take(), c.1.take()) {
            if let Some(system) = system_of(Ecosystem::Python, &name) {
                out.push((system, name, version, true, line));
            }
        }
    };
    for (n, line) in numbered(text) {
        let line = line.trim();
        if line.starts_with('[') {
            if line == "[[package]]" {
                flush(&mut current, &mut out);
                open = true;
            } else {
                open = false;
            }
            continue;
        }
        if !open {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let value = value.trim();
        let Some(value) = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .filter(|v| !v.contains(['"', '\\']))
        else {
            continue;
        };
        match key.trim() {
            "name" => current.0 = Some((value.to_owned(), n)),
            "version" => current.1 = Some(value.to_owned()),
            _ => {}
        }
    }
    flush(&mut current, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::queues::TargetId;

    #[test]
    fn a_gemfile_lock_gives_the_resolved_gems_not_the_constraints() {
        let text = "GEM\r\n  remote: https://rubygems.org/\r\n  specs:\r\n    activejob (7.0.8)\r\n      activesupport (= 7.0.8)\r\n    sidekiq (6.5.12)\r\n      connection_pool (>= 2.2.5, < 3)\r\n    nokogiri (1.15.4-x86_64-linux)\r\n\r\nDEPENDENCIES\r\n  sidekiq (~> 6.5)\r\n  rails (~> 7.0)\r\n";
        let pins = gemfile_lock(text);
        assert_eq!(
            pins,
            vec![
                (
                    TargetId::ActiveJob,
                    "activejob".into(),
                    "7.0.8".into(),
                    true,
                    4
                ),
                (
                    TargetId::Sidekiq,
                    "sidekiq".into(),
                    "6.5.12".into(),
                    true,
                    6
                ),
            ]
        );
    }

    #[test]
    fn hostile_gemfile_lines_are_skipped() {
        for text in [
            "    sidekiq (",
            "    sidekiq (6.5",
            "    sidekiq ()",
            "    sidekiq (6 5)",
            "    sidekiq",
            "     sidekiq (6.5.0)",
            "\u{202e}    sidekiq (6.5.0)",
            "    ()",
        ] {
            assert!(gemfile_lock(text).is_empty(), "{text:?}");
        }
    }

    #[test]
    fn requirements_say_whether_a_pin_is_one_release_or_a_range() {
        let text =
            "# the workers\ncelery[redis]==5.3.6 ; python_version >= \"3.8\"  # pinned\nredis>=4\n";
        assert_eq!(
            requirements(text),
            vec![(TargetId::Celery, "celery".into(), "==5.3.6".into(), true, 2)]
        );
        for (line, spec, exact) in [
            ("celery~=5.3", "~=5.3", false),
            ("Celery >= 5.2, <6", ">= 5.2, <6", false),
            ("celery==5.*", "==5.*", false),
            ("celery===5.3.1", "===5.3.1", true),
            ("celery==5.3.6 --hash=sha256:abc", "==5.3.6", true),
        ] {
            let got = requirements(line);
            assert_eq!(got.len(), 1, "{line}");
            assert_eq!((got[0].2.as_str(), got[0].3), (spec, exact), "{line}");
        }
        for line in [
            "celery",
            "-r base.txt",
            "#celery==5.3.6",
            "celery @ https://example.com/celery.whl",
            "celerybeat==1.0",
            "[celery]==5",
            "celery[redis",
        ] {
            assert!(requirements(line).is_empty(), "{line}");
        }
    }

    #[test]
    fn a_continued_requirement_counts_from_its_first_line() {
        let text = "redis==5.0\r\ncelery==5.4.0 \\\r\n    --hash=sha256:abc\r\n";
        let got = requirements(text);
        assert_eq!(got.len(), 1);
        assert_eq!((got[0].2.as_str(), got[0].4), ("==5.4.0", 2));
        // A continuation at the end of the file, and a very long one, end without a panic.
        assert!(requirements("celery==5 \\").is_empty());
        let long = format!("celery==5.1 {}\\\n\\\n", "x".repeat(5000));
        assert_eq!(requirements(&long).len(), 1);
    }

    #[test]
    fn mix_lock_gives_oban() {
        let text = "%{\n  \"jason\": {:hex, :jason, \"1.4.1\", \"af1504e3\", [:mix], [], \"hexpm\", \"fbb01ecd\"},\n  \"oban\": {:hex, :oban, \"2.17.3\", \"d7a8b6\", [:mix], [{:ecto_sql, \"~> 3.10\", [hex: :ecto_sql, repo: \"hexpm\", optional: false]}], \"hexpm\", \"4f\"},\n}\n";
        assert_eq!(
            mix_lock(text),
            vec![(TargetId::Oban, "oban".into(), "2.17.3".into(), true, 3)]
        );
        for line in [
            "\"oban\": {:git, \"https://x\", \"abc\"}",
            "\"oban\": {:hex, :oban, \"",
            "\"oban",
            "\"",
        ] {
            assert!(mix_lock(line).is_empty(), "{line}");
        }
    }

    #[test]
    fn go_mod_gives_river_and_temporal_unless_replaced() {
        let text = "module example.com/app\n\ngo 1.22\n\nrequire (\n\tgithub.com/jackc/pgx/v5 v5.5.5\n\tgithub.com/riverqueue/river v0.11.4 // indirect\n)\n\nrequire go.temporal.io/sdk v1.26.0\n";
        assert_eq!(
            go_mod(text),
            vec![
                (
                    TargetId::River,
                    "github.com/riverqueue/river".into(),
                    "v0.11.4".into(),
                    true,
                    7
                ),
                (
                    TargetId::Temporal,
                    "go.temporal.io/sdk".into(),
                    "v1.26.0".into(),
                    true,
                    10
                ),
            ]
        );
        let replaced = format!("{text}replace go.temporal.io/sdk => ../sdk\n");
        assert_eq!(go_mod(&replaced).len(), 1);
        for line in [
            "require",
            "require (",
            ")",
            "require github.com/riverqueue/river",
        ] {
            assert!(go_mod(line).is_empty(), "{line}");
        }
    }

    #[test]
    fn poetry_and_uv_locks_give_the_resolved_release() {
        let text = "[[package]]\r\nname = \"amqp\"\r\nversion = \"5.2.0\"\r\n\r\n[[package]]\r\nname = \"celery\"\r\nversion = \"5.4.0\"\r\nsource = { registry = \"https://pypi.org/simple\" }\r\ndependencies = [\r\n    { name = \"kombu\" },\r\n]\r\n\r\n[package.extras]\r\nname = \"celery-extra\"\r\nversion = \"9\"\r\n";
        assert_eq!(
            toml_lock(text),
            vec![(TargetId::Celery, "celery".into(), "5.4.0".into(), true, 6)]
        );
        for text in [
            "[[package]]\nname = \"celery\"\n",
            "[[package]]\nversion = \"5.4.0\"\n",
            "[[package]]\nname = \"celery\nversion = \"5\"\n",
            "[[package]]\nname = 'celery'\nversion = \"5\"\n",
            "name = \"celery\"\nversion = \"5\"\n",
            "[[package]]\nname = \"cel\\\"ery\"\nversion = \"5\"\n",
            "[[package]",
            "=",
        ] {
            assert!(toml_lock(text).is_empty(), "{text:?}");
        }
    }
}
