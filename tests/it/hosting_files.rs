//! The hosting files (`deploy/`, `docs/ci/github-pages.yml`) against the repository: the
//! Pages workflow parses (serde-saphyr), publishes `dist/` and runs only make targets and
//! scripts that exist; nginx.conf and the Caddyfile send the pages' own `<meta>` policy word for
//! word. Serving with them is `tests/e2e/hosting-nginx.test.mjs`.

use serde_json::Value;
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The Makefile's targets (`name:` at the start of a line).
fn make_targets() -> Vec<String> {
    read("Makefile")
        .lines()
        .filter(|l| !l.starts_with(['\t', '#', '.', ' ']))
        .filter_map(|l| l.split_once(':').map(|(t, _)| t.trim().to_owned()))
        .filter(|t| !t.is_empty() && !t.contains('='))
        .collect()
}

/// The recipe lines of Makefile target `name`.
fn recipe(name: &str) -> Vec<String> {
    let text = read("Makefile");
    let mut lines = text
        .lines()
        .skip_while(|l| !l.starts_with(&format!("{name}:")));
    lines.next().expect(name);
    lines
        .take_while(|l| l.starts_with('\t'))
        .map(|l| l.trim().to_owned())
        .collect()
}

#[test]
fn the_pages_workflow_builds_with_the_projects_own_commands_and_publishes_dist() {
    let w: Value = serde_saphyr::from_str(&read("docs/ci/github-pages.yml")).expect("YAML");
    assert_eq!(w["on"]["push"]["branches"][0], "main");
    assert_eq!(w["permissions"]["pages"], "write");
    assert_eq!(w["permissions"]["id-token"], "write");
    let build = w["jobs"]["build"]["steps"].as_array().expect("build steps");
    let targets = make_targets();
    let mut ran = Vec::new();
    for run in build.iter().filter_map(|s| s["run"].as_str()) {
        for line in run.lines().map(str::trim).filter(|l| !l.is_empty()) {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words[..] {
                ["make", target] => {
                    assert!(
                        targets.iter().any(|t| t == target),
                        "no make target {target}: {targets:?}"
                    );
                }
                ["bash", script, ..] => assert!(Path::new(ROOT).join(script).is_file(), "{script}"),
                _ => panic!("a command the repository does not define: {line}"),
            }
            ran.push(line.to_owned());
        }
    }
    assert_eq!(ran, ["make build-dist"]);
    assert_eq!(
        recipe("build-dist"),
        [
            "@bash scripts/install-tools.sh --build-only",
            "trunk build --release"
        ]
    );
    assert!(read("scripts/install-tools.sh").contains("--build-only) build_only=true"));
    // The build writes dist/, embed page included (Trunk's post-build hook).
    let trunk = read("Trunk.toml");
    assert!(trunk.contains("dist = \"dist\"") && trunk.contains("\"scripts/build_embed.py\""));
    let upload = build
        .iter()
        .find(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with("actions/upload-pages-artifact@"))
        })
        .expect("an upload-pages-artifact step");
    assert_eq!(upload["with"]["path"], "dist");
    let deploy = &w["jobs"]["deploy"];
    assert_eq!(deploy["needs"], "build");
    assert_eq!(deploy["environment"]["name"], "github-pages");
    assert!(deploy["steps"][0]["uses"]
        .as_str()
        .is_some_and(|u| u.starts_with("actions/deploy-pages@")));
}

/// The `<meta>` Content-Security-Policy of a page.
fn meta_policy(page: &str) -> String {
    let text = read(page);
    let start = text
        .find(r#"http-equiv="Content-Security-Policy" content=""#)
        .unwrap_or_else(|| panic!("{page}: no <meta> policy"));
    let rest = &text[start..];
    let rest = &rest[rest.find("content=\"").expect("content") + 9..];
    rest[..rest.find('"').expect("closing quote")].to_owned()
}

#[test]
fn nginx_and_caddy_send_the_pages_own_policy_and_the_framing_rule() {
    let policy = meta_policy("index.html");
    assert_eq!(meta_policy("embed.html"), policy);
    let nginx = read("deploy/nginx.conf");
    assert!(nginx.contains(&format!(
        "add_header Content-Security-Policy \"{policy}; frame-ancestors $modality_advisor_frame_ancestors\" always;"
    )));
    assert!(nginx.contains("default        \"'self'\";"));
    assert!(nginx.contains("~/embed\\.html$    \"*\";"));
    let caddy = read("deploy/Caddyfile");
    assert!(caddy.contains(&format!(
        "header Content-Security-Policy \"{policy}; frame-ancestors 'self'\""
    )));
    assert!(caddy.contains(&format!(
        "header @embed Content-Security-Policy \"{policy}; frame-ancestors {{$MA_EMBED_FRAME_ANCESTORS:*}}\""
    )));
    for conf in [&nginx, &caddy] {
        assert!(
            !conf.contains("X-Frame-Options \""),
            "no X-Frame-Options: it blocks every wiki"
        );
    }
}
