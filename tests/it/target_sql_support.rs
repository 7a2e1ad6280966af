//! The exported table-queue SQL run on real databases: SQLite (rusqlite, bundled) and a
//! PostgreSQL server this module starts in a temporary directory (initdb + pg_ctl on a Unix
//! socket, stopped and removed on drop), driven through `psql -v ON_ERROR_STOP=1`. The
//! exported statements are run as they are: SQLite with their named parameters, PostgreSQL
//! through `PREPARE … AS <statement>` and `EXECUTE …(values)`.

use modality_advisor::domain::queues::sql::statements;
use rusqlite::{named_params, Connection, OptionalExtension};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

/// One row of the final table: id, name, status, attempts, max_attempts, last_error.
pub type Row = (i64, String, String, i64, i64, Option<String>);

/// The claim's answer: id, attempts, max_attempts.
pub type Claimed = (i64, i64, i64);

/// The named statement of an export.
pub fn stmt(export: &str, name: &str) -> String {
    match statements(export).into_iter().find(|(n, _)| n == name) {
        Some((_, sql)) => sql,
        None => panic!("the export has no statement {name}:\n{export}"),
    }
}

/// The statements a test drives, from one export.
pub struct Sql {
    pub schema: String,
    pub claim: String,
    pub complete: String,
    pub release: String,
    pub fail: String,
}

impl Sql {
    pub fn of(export: &str) -> Sql {
        Sql {
            schema: stmt(export, "schema"),
            claim: stmt(export, "claim"),
            complete: stmt(export, "complete"),
            release: stmt(export, "release"),
            fail: stmt(export, "fail"),
        }
    }
}

/// What the runs need of a database.
pub trait Queue {
    /// Runs an export's `enqueue` (without a key) at `now` with `payload`.
    fn enqueue(&mut self, enqueue: &str, now: f64, payload: &str) -> i64;
    /// `claim` at `now`.
    fn claim(&mut self, now: f64) -> Option<Claimed>;
    /// `complete`; the returned status (`None`: no row, the owner check failed).
    fn complete(&mut self, now: f64, id: i64, attempt: i64) -> Option<String>;
    /// `release`; the returned status and `run_after` (seconds).
    fn release(&mut self, now: f64, id: i64, attempt: i64, error: &str) -> Option<(String, f64)>;
    /// `fail`; the returned status.
    fn fail(&mut self, now: f64, id: i64, attempt: i64, error: &str) -> Option<String>;
    /// The earliest `run_after` of a queued row, seconds.
    fn next_run_after(&mut self) -> Option<f64>;
    /// The table by id.
    fn rows(&mut self) -> Vec<Row>;
}

/// SQLite on a file (so a second connection sees it).
pub struct Lite {
    pub conn: Connection,
    sql: Sql,
    pub path: PathBuf,
}

static SEQ: AtomicU32 = AtomicU32::new(0);

fn temp_path(what: &str) -> PathBuf {
    std::env::temp_dir().join(format!(
        "modality-{what}-{}-{}",
        std::process::id(),
        SEQ.fetch_add(1, Ordering::SeqCst)
    ))
}

impl Lite {
    pub fn new(export: &str) -> Lite {
        let path = temp_path("sqlite").with_extension("db");
        let sql = Sql::of(export);
        let conn = Connection::open(&path).expect("open SQLite");
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .expect("busy timeout");
        conn.execute_batch(&sql.schema)
            .expect("schema runs on SQLite");
        Lite { conn, sql, path }
    }

    /// Another connection to the same database.
    pub fn second(&self) -> Lite {
        let conn = Connection::open(&self.path).expect("open SQLite");
        Lite {
            conn,
            sql: Sql {
                schema: String::new(),
                claim: self.sql.claim.clone(),
                complete: self.sql.complete.clone(),
                release: self.sql.release.clone(),
                fail: self.sql.fail.clone(),
            },
            path: self.path.clone(),
        }
    }
}

impl Drop for Lite {
    fn drop(&mut self) {
        if self.sql.schema.is_empty() {
            return;
        }
        let _ = std::fs::remove_file(&self.path);
    }
}

impl Queue for Lite {
    fn enqueue(&mut self, enqueue: &str, now: f64, payload: &str) -> i64 {
        let mut st = self.conn.prepare(enqueue).expect("enqueue prepares");
        let named = st.parameter_count();
        let id = if named == 3 {
            st.query_row(
                named_params! {":now": now, ":payload": payload, ":key": None::<String>},
                |r| r.get(0),
            )
        } else {
            st.query_row(named_params! {":now": now, ":payload": payload}, |r| {
                r.get(0)
            })
        };
        id.expect("enqueue")
    }

    fn claim(&mut self, now: f64) -> Option<Claimed> {
        self.conn.execute_batch("BEGIN IMMEDIATE").expect("begin");
        let row = self
            .conn
            .query_row(&self.sql.claim, named_params! {":now": now}, |r| {
                Ok((r.get(0)?, r.get(3)?, r.get(4)?))
            })
            .optional()
            .expect("claim");
        self.conn.execute_batch("COMMIT").expect("commit");
        row
    }

    fn complete(&mut self, now: f64, id: i64, attempt: i64) -> Option<String> {
        self.conn
            .query_row(
                &self.sql.complete,
                named_params! {":now": now, ":id": id, ":attempt": attempt},
                |r| r.get(1),
            )
            .optional()
            .expect("complete")
    }

    fn release(&mut self, now: f64, id: i64, attempt: i64, error: &str) -> Option<(String, f64)> {
        self.conn
            .query_row(
                &self.sql.release,
                named_params! {":now": now, ":id": id, ":attempt": attempt, ":error": error},
                |r| Ok((r.get(1)?, r.get(3)?)),
            )
            .optional()
            .expect("release")
    }

    fn fail(&mut self, now: f64, id: i64, attempt: i64, error: &str) -> Option<String> {
        self.conn
            .query_row(
                &self.sql.fail,
                named_params! {":now": now, ":id": id, ":attempt": attempt, ":error": error},
                |r| r.get(1),
            )
            .optional()
            .expect("fail")
    }

    fn next_run_after(&mut self) -> Option<f64> {
        self.conn
            .query_row(
                "SELECT min(run_after) FROM jobs WHERE status = 'queued'",
                [],
                |r| r.get(0),
            )
            .expect("next")
    }

    fn rows(&mut self) -> Vec<Row> {
        let mut st = self
            .conn
            .prepare(
                "SELECT id, name, status, attempts, max_attempts, last_error FROM jobs ORDER BY id",
            )
            .expect("select");
        st.query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            ))
        })
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("rows")
    }
}

/// PostgreSQL's binaries: `pg_config --bindir`, else the newest `/usr/lib/postgresql/*/bin`
/// holding `initdb`.
fn pg_bindir() -> Option<PathBuf> {
    if let Ok(out) = Command::new("pg_config").arg("--bindir").output() {
        let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        if out.status.success() && dir.join("initdb").exists() {
            return Some(dir);
        }
    }
    let mut dirs: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .filter_map(|e| {
            let v: u32 = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").exists().then_some((v, bin))
        })
        .collect();
    dirs.sort();
    dirs.pop().map(|(_, d)| d)
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// A PostgreSQL server of its own, in a temporary directory, on a Unix socket there.
pub struct Pg {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    root: bool,
    /// The export's statements (PREPAREd in every psql session).
    sql: Sql,
}

/// `cmd` as the server's owner (`runuser -u postgres --` when running as root).
fn as_owner(root: bool, program: &Path) -> Command {
    if root {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    }
}

fn run(mut c: Command, what: &str) {
    let out = c.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

impl Pg {
    /// Starts a server and runs the export's schema.
    ///
    /// # Panics
    /// When PostgreSQL is not installed (run `scripts/install-tools.sh`) or does not start.
    pub fn start(export: &str) -> Pg {
        let mut pg = Pg::server();
        pg.sql = Sql::of(export);
        pg.psql(&pg.sql.schema);
        pg
    }

    /// Starts a server with an empty `postgres` database (for a library that installs its own
    /// schema: pg-boss in `target_libs`).
    ///
    /// # Panics
    /// As [`Pg::start`].
    pub fn server() -> Pg {
        let bin = pg_bindir().unwrap_or_else(|| {
            panic!(
                "PostgreSQL's initdb / pg_ctl were not found (pg_config --bindir, \
                 /usr/lib/postgresql/*/bin): run scripts/install-tools.sh"
            )
        });
        let root = is_root();
        let dir = temp_path("pg");
        std::fs::create_dir_all(&dir).expect("temp dir");
        if root {
            let mut c = Command::new("chown");
            c.args(["postgres:", dir.to_str().expect("utf-8 path")]);
            run(c, "chown the temp dir to postgres");
        }
        let data = dir.join("data");
        let mut c = as_owner(root, &bin.join("initdb"));
        c.args([
            "-A",
            "trust",
            "-U",
            "postgres",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
            "-D",
        ])
        .arg(&data);
        run(c, "initdb");
        let port = free_port();
        let opts = format!(
            "-k {} -p {port} -c listen_addresses='' -c fsync=off",
            dir.display()
        );
        let mut c = as_owner(root, &bin.join("pg_ctl"));
        c.args(["-w", "-D"])
            .arg(&data)
            .args(["-l"])
            .arg(dir.join("log"))
            .args(["-o", &opts, "start"]);
        run(c, "pg_ctl start");
        Pg {
            bin,
            dir,
            port,
            root,
            sql: Sql {
                schema: String::new(),
                claim: String::new(),
                complete: String::new(),
                release: String::new(),
                fail: String::new(),
            },
        }
    }

    fn psql_command(&self) -> Command {
        let mut c = Command::new(self.bin.join("psql"));
        c.args([
            "-X",
            "-q",
            "-A",
            "-t",
            "-F",
            "|",
            "-v",
            "ON_ERROR_STOP=1",
            "-h",
        ])
        .arg(&self.dir)
        .args([
            "-p",
            &self.port.to_string(),
            "-U",
            "postgres",
            "-d",
            "postgres",
        ]);
        c
    }

    /// Runs `script`; its output lines (rows as `a|b|c`).
    ///
    /// # Panics
    /// When psql fails (an SQL error stops it: ON_ERROR_STOP).
    pub fn psql(&self, script: &str) -> Vec<String> {
        let mut c = self.psql_command();
        c.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = c.spawn().expect("psql starts");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(script.as_bytes())
            .expect("script to psql");
        let out = child.wait_with_output().expect("psql ends");
        assert!(
            out.status.success(),
            "psql failed on:\n{script}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .collect()
    }

    /// A psql session left open (for a transaction held across another session's work).
    pub fn session(&self) -> Child {
        let mut c = self.psql_command();
        c.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        c.spawn().expect("psql starts")
    }

    /// `PREPARE s AS <statement>; EXECUTE s(args);` as script text.
    pub fn exec(statement: &str, args: &[String]) -> String {
        let body = statement.trim_end().trim_end_matches(';');
        format!(
            "PREPARE s AS\n{body};\nEXECUTE s({});\nDEALLOCATE s;\n",
            args.join(", ")
        )
    }

    /// A one-row answer split on `|`.
    fn one(&self, statement: &str, args: &[String]) -> Option<Vec<String>> {
        let lines = self.psql(&Pg::exec(statement, args));
        assert!(lines.len() <= 1, "one row at most: {lines:?}");
        lines
            .first()
            .map(|l| l.split('|').map(str::to_owned).collect())
    }

    /// The directory holding the server (its data, log and socket).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The server's port (its socket is `.s.PGSQL.<port>` in [`Pg::dir`]).
    pub fn port(&self) -> u16 {
        self.port
    }
}

/// `seconds` as a PostgreSQL timestamptz expression.
pub fn ts(seconds: f64) -> String {
    format!("to_timestamp({seconds})")
}

/// A text literal.
pub fn lit(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

fn epoch(s: &str) -> f64 {
    s.parse()
        .unwrap_or_else(|e| panic!("{s:?} is not seconds: {e}"))
}

impl Drop for Pg {
    fn drop(&mut self) {
        let mut c = as_owner(self.root, &self.bin.join("pg_ctl"));
        c.args(["-w", "-m", "immediate", "-D"])
            .arg(self.dir.join("data"))
            .arg("stop")
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let _ = c.status();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Queue for Pg {
    fn enqueue(&mut self, enqueue: &str, now: f64, payload: &str) -> i64 {
        let mut args = vec![ts(now), lit(payload)];
        if enqueue.contains("$3") {
            args.push("NULL".to_owned());
        }
        let row = self.one(enqueue, &args).expect("enqueue returns the id");
        row[0].parse().expect("id")
    }

    fn claim(&mut self, now: f64) -> Option<Claimed> {
        let claim = self.sql.claim.clone();
        self.one(&claim, &[ts(now)]).map(|r| {
            (
                r[0].parse().expect("id"),
                r[3].parse().expect("attempts"),
                r[4].parse().expect("max_attempts"),
            )
        })
    }

    fn complete(&mut self, now: f64, id: i64, attempt: i64) -> Option<String> {
        let sql = self.sql.complete.clone();
        self.one(&sql, &[ts(now), id.to_string(), attempt.to_string()])
            .map(|r| r[1].clone())
    }

    fn release(&mut self, now: f64, id: i64, attempt: i64, error: &str) -> Option<(String, f64)> {
        let release = self.sql.release.clone();
        let args = [ts(now), id.to_string(), attempt.to_string(), lit(error)];
        let row = self.one(&release, &args)?;
        // run_after comes back as timestamptz text: read it again as seconds.
        let run_after = self
            .psql(&format!(
                "SELECT extract(epoch FROM run_after) FROM jobs WHERE id = {id};"
            ))
            .first()
            .map(|s| epoch(s))
            .expect("run_after");
        Some((row[1].clone(), run_after))
    }

    fn fail(&mut self, now: f64, id: i64, attempt: i64, error: &str) -> Option<String> {
        let sql = self.sql.fail.clone();
        self.one(
            &sql,
            &[ts(now), id.to_string(), attempt.to_string(), lit(error)],
        )
        .map(|r| r[1].clone())
    }

    fn next_run_after(&mut self) -> Option<f64> {
        self.psql("SELECT extract(epoch FROM min(run_after)) FROM jobs WHERE status = 'queued';")
            .first()
            .map(|s| epoch(s))
    }

    fn rows(&mut self) -> Vec<Row> {
        // last_error may hold '|' or newlines: read it as JSON, one row per line.
        self.psql(
            "SELECT json_build_array(id, name, status, attempts, max_attempts, last_error) \
             FROM jobs ORDER BY id;",
        )
        .iter()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("a JSON row");
            (
                v[0].as_i64().expect("id"),
                v[1].as_str().expect("name").to_owned(),
                v[2].as_str().expect("status").to_owned(),
                v[3].as_i64().expect("attempts"),
                v[4].as_i64().expect("max"),
                v[5].as_str().map(str::to_owned),
            )
        })
        .collect()
    }
}
