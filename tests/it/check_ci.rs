//! The CI examples (`docs/ci/github-actions.yml`, `docs/ci/gitlab-ci.yml`) and the pre-commit
//! hook (`.pre-commit-hooks.yaml`): each parses as YAML (serde-saphyr), has the shape its
//! system reads, and every `modality-advisor check` command line in it runs as written — the
//! flags exist (clap exits 2 on an unknown one) and the paths are there (exit 0 or 1).

use serde_json::Value;
use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn yaml(rel: &str) -> Value {
    let text = std::fs::read_to_string(Path::new(ROOT).join(rel)).expect(rel);
    serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Runs `line` (a shell command line starting with `modality-advisor check`, `$NAME`
/// expanded from `vars`, a trailing `> file` or `|| true` dropped) in the repository's root;
/// returns the exit code.
fn run_line(line: &str, vars: &[(&str, &str)]) -> i32 {
    let mut line = line.split(" > ").next().unwrap_or(line).to_owned();
    line = line.trim_end_matches("|| true").trim().to_owned();
    for (k, v) in vars {
        line = line.replace(&format!("${k}"), v);
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(&words[..2], ["modality-advisor", "check"], "{line}");
    let out = Command::new(env!("CARGO_BIN_EXE_modality-advisor"))
        .args(&words[1..])
        .current_dir(ROOT)
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .expect("the CLI runs");
    let code = out.status.code().unwrap_or(-1);
    assert!(
        code == 0 || code == 1,
        "{line}: exit {code}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    code
}

/// Every command line of `runs` that calls the checker.
fn check_lines(runs: impl Iterator<Item = String>) -> Vec<String> {
    runs.flat_map(|r| r.lines().map(str::to_owned).collect::<Vec<_>>())
        .filter(|l| l.trim_start().starts_with("modality-advisor check"))
        .collect()
}

#[test]
fn the_github_workflow_uploads_sarif_and_gates() {
    let w = yaml("docs/ci/github-actions.yml");
    assert!(w["on"]["pull_request"].is_null() && w.get("on").is_some());
    assert_eq!(w["permissions"]["security-events"], "write");
    let sheets = w["env"]["SHEETS"].as_str().expect("SHEETS");
    let steps = w["jobs"]["check"]["steps"].as_array().expect("steps");
    let upload = steps
        .iter()
        .find(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with("github/codeql-action/upload-sarif@"))
        })
        .expect("an upload-sarif step");
    let sarif_file = upload["with"]["sarif_file"].as_str().expect("sarif_file");
    let lines = check_lines(
        steps
            .iter()
            .filter_map(|s| s["run"].as_str().map(str::to_owned)),
    );
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].contains("--format sarif") && lines[0].ends_with(&format!("> {sarif_file}")));
    assert!(lines[1].contains("--format github"));
    for l in &lines {
        run_line(l, &[("SHEETS", sheets)]);
    }
}

#[test]
fn the_gitlab_job_reports_junit() {
    let g = yaml("docs/ci/gitlab-ci.yml");
    let job = &g["sheets"];
    let sheets = job["variables"]["SHEETS"].as_str().expect("SHEETS");
    let report = job["artifacts"]["reports"]["junit"]
        .as_str()
        .expect("junit");
    assert_eq!(job["artifacts"]["when"], "always");
    let script = job["script"].as_array().expect("script");
    let lines = check_lines(script.iter().filter_map(|s| s.as_str().map(str::to_owned)));
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].contains("--format junit") && lines[0].contains(&format!("> {report}")));
    for l in &lines {
        run_line(l, &[("SHEETS", sheets)]);
    }
}

#[test]
fn the_pre_commit_hook_runs_on_staged_sheets() {
    let hooks = yaml(".pre-commit-hooks.yaml");
    let hook = &hooks[0];
    assert_eq!(hook["id"], "modality-advisor-check");
    assert_eq!(hook["language"], "rust");
    let files = hook["files"].as_str().expect("files");
    assert_eq!(files, r"\.(sheet|catalog)\.json$");
    let entry = hook["entry"].as_str().expect("entry");
    let args: Vec<&str> = hook["args"]
        .as_array()
        .expect("args")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    // pre-commit runs `entry args… FILES`.
    let line = format!(
        "{entry} {} examples/sheets/nightly-report.sheet.json static/examples/reservation-system.catalog.json",
        args.join(" ")
    );
    run_line(&line, &[]);
}
