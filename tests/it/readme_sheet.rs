//! The `sheet` commands of the CLI reference (`docs/CLI.md`, which the README links), run as written (with this build's binary in place of
//! `cargo run --release --`), and the example sheet they read.

use modality_advisor::domain::export::{to_csv, to_json, to_markdown};
use modality_advisor::domain::sheet::import::import_json;
use modality_advisor::domain::{Lang, Outcome};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const EXAMPLE: &str = "examples/sheets/nightly-report.sheet.json";

fn readme() -> String {
    std::fs::read_to_string(Path::new(ROOT).join("docs/CLI.md")).expect("docs/CLI.md")
}

/// The reference's `## sheet` section.
fn sheet_section(readme: &str) -> &str {
    let start = readme.find("## sheet\n").expect("a `## sheet` section");
    let rest = &readme[start..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    &rest[..end]
}

/// The lines of the first fenced block of `lang` in `text`.
fn fenced<'a>(text: &'a str, lang: &str) -> Vec<&'a str> {
    let open = format!("```{lang}\n");
    let start = text.find(&open).map(|i| i + open.len());
    let start = start.unwrap_or_else(|| panic!("a ```{lang} block"));
    let body = &text[start..];
    let end = body.find("\n```").expect("the block is closed");
    body[..end].lines().collect()
}

/// What one README command line does, taken apart: `[cat IN |] cargo run --release -- ARGS
/// [> OUT]`. `--output` and `>` files land in `out_dir`.
struct Cmd {
    line: String,
    stdin: Option<String>,
    args: Vec<String>,
    stdout_to: Option<PathBuf>,
}

fn parse(line: &str, out_dir: &Path) -> Cmd {
    let mut rest = line.trim();
    let mut stdin = None;
    if let Some(r) = rest.strip_prefix("cat ") {
        let (file, after) = r.split_once(" | ").expect("cat FILE | …");
        let text = std::fs::read_to_string(Path::new(ROOT).join(file.trim()))
            .unwrap_or_else(|e| panic!("{line}: cannot read {file}: {e}"));
        stdin = Some(text);
        rest = after;
    }
    let mut stdout_to = None;
    if let Some((cmd, out)) = rest.split_once(" > ") {
        stdout_to = Some(out_dir.join(out.trim()));
        rest = cmd;
    }
    let args = rest
        .strip_prefix("cargo run --release -- ")
        .unwrap_or_else(|| panic!("{line}: not `cargo run --release -- …`"));
    let mut args: Vec<String> = args.split_whitespace().map(str::to_owned).collect();
    if let Some(i) = args.iter().position(|a| a == "--output") {
        let file = out_dir.join(&args[i + 1]);
        args[i + 1] = file.to_string_lossy().into_owned();
    }
    Cmd {
        line: line.to_owned(),
        stdin,
        args,
        stdout_to,
    }
}

fn run(cmd: &Cmd) -> Vec<u8> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_modality-advisor"))
        .args(&cmd.args)
        .current_dir(ROOT)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the CLI binary runs");
    let input = cmd.stdin.clone().unwrap_or_default();
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("the CLI finishes");
    writer.join().expect("stdin written");
    assert!(
        out.status.success(),
        "{}: {}",
        cmd.line,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty(), "{}", cmd.line);
    out.stdout
}

/// The example file is a whole sheet exactly as the app's JSON export writes it (so it is
/// valid, and nothing in it is pre-filled behind the reader's back), for a scheduled batch.
#[test]
fn the_example_sheet_is_the_apps_own_export() {
    let text = std::fs::read_to_string(Path::new(ROOT).join(EXAMPLE)).expect("the example");
    let sheet = import_json(&text, Lang::En).unwrap_or_else(|e| panic!("{EXAMPLE}: {e}"));
    assert_eq!(
        to_json(&sheet),
        text,
        "{EXAMPLE} is the JSON export of itself"
    );
    assert_eq!(sheet.decision.outcome, Outcome::Batch);
    assert!(sheet.batch.is_some() && sheet.failure.is_some());
}

/// Every command of the README's `sheet` block runs as written (files it names exist; no
/// placeholder), and prints what the README says: the Markdown file begins with the README's
/// excerpt, the CSV is the library's CSV with a byte order mark.
#[test]
fn readme_sheet_commands_run_as_written() {
    let readme = readme();
    let section = sheet_section(&readme);
    let dir = std::env::temp_dir().join(format!("readme-sheet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let cmds: Vec<Cmd> = fenced(section, "sh")
        .into_iter()
        .map(|l| parse(l, &dir))
        .collect();
    assert_eq!(cmds.len(), 3, "the README's sheet commands");
    let example = std::fs::read_to_string(Path::new(ROOT).join(EXAMPLE)).expect("the example");
    let sheet = import_json(&example, Lang::En).expect("the example imports");
    for cmd in &cmds {
        let stdout = run(cmd);
        let written = if let Some(i) = cmd.args.iter().position(|a| a == "--output") {
            assert!(
                stdout.is_empty(),
                "{}: --output leaves stdout empty",
                cmd.line
            );
            std::fs::read(&cmd.args[i + 1]).expect("the --output file")
        } else if let Some(file) = &cmd.stdout_to {
            std::fs::write(file, &stdout).expect("the redirected file");
            stdout
        } else {
            stdout
        };
        let text = String::from_utf8(written).expect("UTF-8");
        assert!(!text.trim().is_empty(), "{}: prints nothing", cmd.line);
        if cmd.line.contains("--format markdown") {
            assert!(cmd.line.contains(EXAMPLE), "{}", cmd.line);
            let excerpt = fenced(section, "markdown").join("\n");
            assert!(
                text.starts_with(&excerpt),
                "{}: does not begin with the README's excerpt:\n{text}",
                cmd.line
            );
            assert_eq!(text, to_markdown(&sheet, Lang::En));
        }
        if cmd.line.contains("--format csv") {
            assert!(cmd.line.contains(EXAMPLE), "{}", cmd.line);
            assert!(text.starts_with("\u{feff}Item,What to write,This job's value\r\n"));
            assert_eq!(text, to_csv(&sheet, Lang::En, true));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
