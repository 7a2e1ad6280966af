//! The README a newcomer reads (issue 26 item 10): short, the two set-up commands first, every
//! command of its "Command line" block runs as written, and every link in it and in `docs/`
//! leads to a file (and a heading) that exists.

use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The lines of the first ```sh block after `heading` in `text`.
fn sh_block_after<'a>(text: &'a str, heading: &str) -> Vec<&'a str> {
    let at = text
        .find(heading)
        .unwrap_or_else(|| panic!("a `{heading}` heading"));
    let rest = &text[at..];
    let open = rest.find("```sh\n").expect("a ```sh block") + "```sh\n".len();
    let body = &rest[open..];
    let end = body.find("\n```").expect("the block is closed");
    body[..end].lines().collect()
}

#[test]
fn the_readme_is_short_and_opens_with_what_it_is_and_the_two_commands() {
    let text = read("README.md");
    let lines = text.lines().count();
    assert!(lines <= 250, "README.md has {lines} lines (at most 250)");
    let shot = text.find("![").expect("a screenshot");
    let setup = text.find("## Set up").expect("a `## Set up` section");
    assert!(shot < setup, "the screenshot comes before the set-up");
    let cmds: Vec<String> = sh_block_after(&text, "## Set up")
        .iter()
        .map(|l| l.split('#').next().unwrap_or("").trim().to_owned())
        .collect();
    assert_eq!(
        cmds,
        ["make serve", "make test"],
        "exactly the two commands"
    );
    let walk = text
        .find("## Five minutes")
        .expect("a five-minute walkthrough");
    assert!(setup < walk);
}

#[test]
fn every_command_line_of_the_readme_runs_as_written() {
    let text = read("README.md");
    let block = sh_block_after(&text, "## Command line");
    assert!(block.len() >= 6, "one line per main subcommand: {block:?}");
    let mut seen = Vec::new();
    for line in block {
        let args = line
            .strip_prefix("cargo run --release -- ")
            .unwrap_or_else(|| panic!("{line}: not `cargo run --release -- …`"));
        let args: Vec<&str> = args.split_whitespace().collect();
        seen.push(args[0].to_owned());
        let out = Command::new(env!("CARGO_BIN_EXE_modality-advisor"))
            .args(&args)
            .current_dir(ROOT)
            .output()
            .expect("the CLI runs");
        assert!(
            out.status.success(),
            "{line}: exit {:?}\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.stdout.is_empty(), "{line}: printed nothing");
    }
    for sub in [
        "advise", "sheet", "catalog", "share", "simulate", "size", "audit",
    ] {
        assert!(seen.iter().any(|s| s == sub), "no `{sub}` line: {seen:?}");
    }
}

/// GitHub's anchor for a heading: lower case, spaces to `-`, punctuation dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            out.push(slug(line.trim_start_matches('#')));
        }
    }
    out
}

/// Every `](target)` of a Markdown file that is not a web address: (target, anchor).
fn local_links(text: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        let Some(end) = rest.find(')') else { break };
        let target = &rest[..end];
        if target.contains("://") || target.starts_with("mailto:") || target.contains(' ') {
            continue;
        }
        let (file, anchor) = match target.split_once('#') {
            Some((f, a)) => (f.to_owned(), Some(a.to_owned())),
            None => (target.to_owned(), None),
        };
        out.push((file, anchor));
    }
    out
}

#[test]
fn every_link_of_the_readme_and_the_docs_leads_somewhere() {
    let mut files: Vec<PathBuf> = vec![Path::new(ROOT).join("README.md")];
    for e in std::fs::read_dir(Path::new(ROOT).join("docs")).expect("docs/") {
        let p = e.expect("a docs/ entry").path();
        if p.extension().is_some_and(|x| x == "md") {
            files.push(p);
        }
    }
    let mut broken = Vec::new();
    let mut checked = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).expect("a doc");
        let dir = f.parent().expect("a folder");
        for (file, anchor) in local_links(&text) {
            let target = if file.is_empty() {
                f.clone()
            } else {
                dir.join(&file)
            };
            checked += 1;
            if !target.exists() {
                broken.push(format!("{}: {file}", f.display()));
                continue;
            }
            if let (Some(a), Some("md")) = (anchor, target.extension().and_then(|x| x.to_str())) {
                let text = std::fs::read_to_string(&target).expect("a linked doc");
                if !anchors(&text).contains(&a) {
                    broken.push(format!("{}: {file}#{a} (no such heading)", f.display()));
                }
            }
        }
    }
    assert!(checked >= 10, "only {checked} links checked");
    assert!(broken.is_empty(), "links that lead nowhere: {broken:#?}");
}
