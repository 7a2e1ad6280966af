//! Runs the real tools over the written files, one process per tool (`ruby -c` and
//! `node --check` take one file each), and collects what they said per file. Which tools read
//! a file follows from its name's suffix ([`checkers`]). The helper scripts in `tests/tools/`
//! print one tab-separated line per finding (`OK`, `ERR`, `WARN`, `LIT`, `MISSING`, texts as
//! UTF-8 hex).

use std::collections::HashMap;
use std::ffi::OsString;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::process::Command;

/// How to get a missing tool, in every message that names one.
pub const INSTALL: &str = "run scripts/install-tools.sh";

/// One tool that reads files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Checker {
    /// `tests/tools/check_python.py`: Python, YAML, HCL.
    Python,
    /// The same script for the templates cfn-lint reads (its own process: it is the slowest).
    CfnLint,
    /// `ruby -c`, one file at a time.
    RubyC,
    /// `tests/tools/check_ruby.rb`: Ruby's parser (syntax errors and string literals).
    RubyLiterals,
    /// `tests/tools/check_node.mjs`: TypeScript's parser; V8's module parser for `.mjs`.
    Node,
    /// `node --check`, one file at a time.
    NodeCheck,
    /// `gofmt -e -l`.
    Gofmt,
    /// `tests/tools/check_go.go` (`go run`): Go's parser for the string literals.
    GoLiterals,
    /// `tests/tools/check_elixir.exs`.
    Elixir,
    /// SQLite (compiled into the test) prepares the file's statements in memory.
    Sqlite,
}

/// The tools that read a file, by its name's suffix: `.py`, `.yaml`, `.cfn.yaml`,
/// `.cfnlint.yaml`, `.tf` (Python side), `.rb`, `.check.rb` (also `ruby -c`), `.ts`, `.mjs`,
/// `.check.mjs` (also `node --check`), `.go`, `.exs`, `.sqlite.sql`; `.pg.sql` none (the SQL
/// test runs it on PostgreSQL).
pub fn checkers(name: &str) -> Vec<Checker> {
    let ext = |s: &str| name.ends_with(s);
    if ext(".cfnlint.yaml") {
        vec![Checker::CfnLint]
    } else if ext(".py") || ext(".yaml") || ext(".tf") {
        vec![Checker::Python]
    } else if ext(".check.rb") {
        vec![Checker::RubyC, Checker::RubyLiterals]
    } else if ext(".rb") {
        vec![Checker::RubyLiterals]
    } else if ext(".check.mjs") {
        vec![Checker::Node, Checker::NodeCheck]
    } else if ext(".ts") || ext(".mjs") {
        vec![Checker::Node]
    } else if ext(".go") {
        vec![Checker::Gofmt, Checker::GoLiterals]
    } else if ext(".exs") {
        vec![Checker::Elixir]
    } else if ext(".sqlite.sql") {
        vec![Checker::Sqlite]
    } else {
        Vec::new()
    }
}

/// What the tools said.
#[derive(Debug, Default)]
pub struct Said {
    /// How many tools read each file without an error.
    pub ok: HashMap<PathBuf, usize>,
    /// Errors per file (a syntax error, a cfn-lint `E` rule).
    pub errors: Vec<(PathBuf, String)>,
    /// Warnings per file (cfn-lint's other rules).
    pub warnings: Vec<(PathBuf, String)>,
    /// String literals that hold the marker, as the file's parser read them.
    pub literals: Vec<(PathBuf, String)>,
    /// Tools that are missing or did not run, in words.
    pub broken: Vec<String>,
}

impl Said {
    fn merge(&mut self, other: Said) {
        for (p, n) in other.ok {
            *self.ok.entry(p).or_default() += n;
        }
        self.errors.extend(other.errors);
        self.warnings.extend(other.warnings);
        self.literals.extend(other.literals);
        self.broken.extend(other.broken);
    }
}

/// Runs every checker over its files (found by [`checkers`]) in parallel threads. Every
/// checker must have files (the test's own good and broken samples), or a missing tool would
/// go unnoticed.
pub fn run_all(files: &[PathBuf], mark: &str) -> Said {
    let all = [
        Checker::Python,
        Checker::CfnLint,
        Checker::RubyC,
        Checker::RubyLiterals,
        Checker::Node,
        Checker::NodeCheck,
        Checker::Gofmt,
        Checker::GoLiterals,
        Checker::Elixir,
        Checker::Sqlite,
    ];
    let mut said = Said::default();
    std::thread::scope(|s| {
        let jobs: Vec<_> = all
            .into_iter()
            .map(|c| {
                let mine: Vec<PathBuf> = files
                    .iter()
                    .filter(|f| checkers(&f.to_string_lossy()).contains(&c))
                    .cloned()
                    .collect();
                s.spawn(move || {
                    let start = std::time::Instant::now();
                    let said = run_one(c, &mine, mark);
                    let took = start.elapsed().as_secs_f64();
                    eprintln!("{c:?}: {} files in {took:.1} s", mine.len());
                    said
                })
            })
            .collect();
        for j in jobs {
            said.merge(j.join().expect("a checker thread"));
        }
    });
    said
}

fn run_one(c: Checker, files: &[PathBuf], mark: &str) -> Said {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let script = |name: &str| -> OsString { root.join("tests/tools").join(name).into() };
    match c {
        Checker::Python | Checker::CfnLint => {
            protocol("python3", &[script("check_python.py"), mark.into()], files)
        }
        Checker::RubyC => per_file("ruby", &["-c"], files),
        Checker::RubyLiterals => protocol("ruby", &[script("check_ruby.rb"), mark.into()], files),
        Checker::Node => protocol(
            "node",
            &[
                "--experimental-vm-modules".into(),
                "--no-warnings".into(),
                script("check_node.mjs"),
                mark.into(),
                root.join("tests/e2e").into(),
            ],
            files,
        ),
        Checker::NodeCheck => per_file("node", &["--check"], files),
        Checker::Gofmt => gofmt(files),
        Checker::GoLiterals => protocol(
            "go",
            &["run".into(), script("check_go.go"), mark.into()],
            files,
        ),
        Checker::Elixir => protocol("elixir", &[script("check_elixir.exs"), mark.into()], files),
        Checker::Sqlite => sqlite(files),
    }
}

/// Output of `program args`, or why it did not run (naming the install script when the
/// program is missing).
fn output(program: &str, args: &[OsString]) -> Result<std::process::Output, String> {
    Command::new(program)
        .args(args)
        .env("LANG", "C.UTF-8")
        .env("LC_ALL", "C.UTF-8")
        // One Erlang scheduler: the default one per core spins and slows everything else.
        .env("ELIXIR_ERL_OPTIONS", "+S 1")
        // `go run`'s build cache, wherever HOME is.
        .env(
            "GOCACHE",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("go-build"),
        )
        .output()
        .map_err(|e| match e.kind() {
            ErrorKind::NotFound => format!("{program} is not installed: {INSTALL}"),
            _ => format!("{program} did not start: {e}"),
        })
}

fn hex_text(hex: &str) -> String {
    let bytes: Vec<u8> = (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap_or(b'?'))
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Runs a helper script that reads all `files` and answers in the line protocol. Runs it
/// even with no files, so a missing tool or module is reported either way.
fn protocol(program: &str, args: &[OsString], files: &[PathBuf]) -> Said {
    let mut said = Said::default();
    let mut all: Vec<OsString> = args.to_vec();
    all.extend(files.iter().map(|f| f.clone().into_os_string()));
    let out = match output(program, &all) {
        Ok(out) => out,
        Err(e) => {
            said.broken.push(e);
            return said;
        }
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    for line in stdout.lines() {
        let mut cols = line.splitn(3, '\t');
        let (tag, name, text) = (
            cols.next().unwrap_or(""),
            cols.next().unwrap_or(""),
            hex_text(cols.next().unwrap_or("")),
        );
        let path = PathBuf::from(name);
        match tag {
            "OK" => *said.ok.entry(path).or_default() += 1,
            "ERR" => said.errors.push((path, text)),
            "WARN" => said.warnings.push((path, text)),
            "LIT" => said.literals.push((path, text)),
            "MISSING" => said.broken.push(format!("{text}: {INSTALL}")),
            _ => said
                .broken
                .push(format!("{program}: unexpected output {line:?}")),
        }
    }
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        said.broken.push(format!(
            "{program} {:?} failed ({}): {stderr}",
            args.first(),
            out.status
        ));
    }
    said
}

/// Runs `program flags FILE` for each file (tools that take one file).
fn per_file(program: &str, flags: &[&str], files: &[PathBuf]) -> Said {
    let mut said = Said::default();
    for f in files {
        let mut args: Vec<OsString> = flags.iter().map(OsString::from).collect();
        args.push(f.clone().into());
        match output(program, &args) {
            Ok(out) if out.status.success() => *said.ok.entry(f.clone()).or_default() += 1,
            Ok(out) => {
                let stderr = String::from_utf8_lossy(&out.stderr);
                said.errors.push((
                    f.clone(),
                    format!("{program} {}: {stderr}", flags.join(" ")),
                ));
            }
            Err(e) => {
                said.broken.push(e);
                return said;
            }
        }
    }
    said
}

/// `gofmt -e -l` over all files: its error lines start with the file's path.
fn gofmt(files: &[PathBuf]) -> Said {
    let mut said = Said::default();
    let mut args: Vec<OsString> = vec!["-e".into(), "-l".into()];
    args.extend(files.iter().map(|f| f.clone().into_os_string()));
    let out = match output("gofmt", &args) {
        Ok(out) => out,
        Err(e) => {
            said.broken.push(e);
            return said;
        }
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut unmatched = Vec::new();
    for line in stderr.lines() {
        match files
            .iter()
            .find(|f| line.starts_with(&*f.to_string_lossy()))
        {
            Some(f) => said.errors.push((f.clone(), format!("gofmt: {line}"))),
            None => unmatched.push(line),
        }
    }
    if !unmatched.is_empty() || (!out.status.success() && said.errors.is_empty()) {
        said.broken.push(format!(
            "gofmt failed ({}): {}",
            out.status,
            unmatched.join("\n")
        ));
    }
    for f in files {
        if !said.errors.iter().any(|(p, _)| p == f) {
            *said.ok.entry(f.clone()).or_default() += 1;
        }
    }
    said
}

/// SQLite prepares each file's statements in order on a fresh in-memory database, running
/// those without parameters (the schema): syntax and every table and column name are checked.
/// Running the statements with values is the SQL target's own test.
fn sqlite(files: &[PathBuf]) -> Said {
    let mut said = Said::default();
    for f in files {
        let result = std::fs::read_to_string(f)
            .map_err(|e| e.to_string())
            .and_then(|sql| prepare_all(&sql).map_err(|e| e.to_string()));
        match result {
            Ok(()) => *said.ok.entry(f.clone()).or_default() += 1,
            Err(e) => said.errors.push((f.clone(), format!("sqlite: {e}"))),
        }
    }
    said
}

fn prepare_all(sql: &str) -> rusqlite::Result<()> {
    use rusqlite::fallible_iterator::FallibleIterator;
    let db = rusqlite::Connection::open_in_memory()?;
    let mut batch = rusqlite::Batch::new(&db, sql);
    while let Some(mut stmt) = batch.next()? {
        if stmt.parameter_count() == 0 {
            let mut rows = stmt.query([])?;
            while rows.next()?.is_some() {}
        }
    }
    Ok(())
}
