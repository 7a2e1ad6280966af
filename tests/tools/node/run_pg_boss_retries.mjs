// Runs pg-boss's own retry code on our JavaScript exports (tests/it/target_libs.rs), on a
// PostgreSQL server the test started.
//
//   node run_pg_boss_retries.mjs SPEC.json > RESULTS.json
//
// SPEC.json: {"host": socket dir, "port", "user", "database", "cases": [{"name", "file":
// "x.mjs", "jobs"}]}. Each export is imported as it is (a folder whose node_modules is this
// one's, so `pg-boss` is the real package); one PgBoss on a TestClock (pg-boss's own: every
// statement reads the time from `job_now()`, which the driver moves) runs the export's
// `setup(boss)` (the dead-letter queue, the queue with the export's `queueOptions`), then for
// each mode inserts jobs and, until pg-boss stops retrying them, fetches them, fails them
// (`boss.fail`: pg-boss's SQL decides retry or failed and computes `start_after`), reads each
// job's `start_after` from pg-boss's own table and moves the clock to the latest one.
//
// The modes: `random()` as pg-boss's SQL calls it replaced (a function `stub.random()` ahead of
// pg_catalog on the database's search_path) by 0 ("min"), by just under 1 ("max"), or, for the
// mean, by the grid (i + 0.5) / n, i = 0 … n − 1, one value a job ("jobs" = n jobs failed
// together, each retry's waits computed by one statement): the mean of the waits is then the
// midpoint rule's integral of pg-boss's wait over U, off the exact mean by at most the wait's
// range / n (it is monotone in U). Skipped when "min" equals "max".
//
// Each result: {"name", "versions": {"pg-boss"}, "attempts": [fetches per job], "min": [s],
// "max": [s], "mean": [s], "states": [final states], "dead_letter": jobs in the dead-letter
// queue} or {"name", "error"}.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { PgBoss, TestClock } from "pg-boss";

const require = createRequire(import.meta.url);
const version = require("pg-boss/package.json").version;
const HIGH = 1 - 1e-12;
const START = Date.UTC(2026, 0, 1);

const spec = JSON.parse(readFileSync(process.argv[2], "utf8"));
const conn = { host: spec.host, port: spec.port, user: spec.user, database: spec.database };

/** The stub of random(): a one-row table the driver sets (u, or n for a grid of n values). */
async function installStub(client) {
  await client.query(`
    DROP SCHEMA IF EXISTS stub CASCADE;
    CREATE SCHEMA stub;
    CREATE TABLE stub.u (u double precision, n int);
    INSERT INTO stub.u VALUES (0, NULL);
    CREATE SEQUENCE stub.calls;
    CREATE OR REPLACE FUNCTION stub.random() RETURNS double precision LANGUAGE sql VOLATILE
      AS 'SELECT CASE WHEN n IS NULL THEN u
                      ELSE ((nextval(''stub.calls'') % n) + 0.5) / n END FROM stub.u';
    ALTER DATABASE ${spec.database} SET search_path = stub, pg_catalog, public;
  `);
}

/** Jobs through fetch / fail until pg-boss stops retrying them; their waits, in seconds. */
async function runJobs(boss, clock, client, queue, n) {
  const ids = await boss.insert(
    queue,
    // A key each, as the export's enqueue gives (its 'short' policy keeps one queued job per key).
    Array.from({ length: n }, (_, i) => ({ data: { n: i }, singletonKey: `job-${i}` })),
    { returnId: true },
  );
  const jobIds = Array.isArray(ids) && ids.length === n ? ids.map((x) => x.id ?? x) : null;
  const waits = new Map();
  const fetched = new Map();
  for (let round = 0; round < 100; round += 1) {
    const jobs = await boss.fetch(queue, { batchSize: n });
    if (!jobs || jobs.length === 0) break;
    for (const j of jobs) fetched.set(j.id, (fetched.get(j.id) ?? 0) + 1);
    await boss.fail(queue, jobs.map((j) => j.id), { message: "x" });
    const now = clock.now() / 1000;
    const { rows } = await client.query(
      `SELECT id, state::text, (extract(epoch FROM start_after) - $2::numeric)::float8 AS wait
         FROM pgboss.job WHERE name = $1 AND id = ANY($3::uuid[])`,
      [queue, now, jobs.map((j) => j.id)],
    );
    let latest = clock.now();
    for (const r of rows) {
      if (r.state !== "retry") continue;
      const list = waits.get(r.id) ?? [];
      list.push(r.wait);
      waits.set(r.id, list);
      latest = Math.max(latest, Math.ceil((now + r.wait) * 1000) + 1);
    }
    await clock.setTime(latest);
  }
  const all = jobIds ?? [...fetched.keys()];
  const { rows: states } = await client.query(
    "SELECT state::text AS state, count(*)::int AS n FROM pgboss.job WHERE name = $1 GROUP BY 1",
    [queue],
  );
  return {
    waits: all.map((id) => waits.get(id) ?? []),
    attempts: [...new Set(all.map((id) => fetched.get(id) ?? 0))],
    states: Object.fromEntries(states.map((s) => [s.state, s.n])),
  };
}

async function runCase(boss, clock, client, c) {
  const exp = await import(pathToFileURL(c.file).href);
  await exp.setup(boss);
  const out = { name: c.name, versions: { "pg-boss": version } };
  const modes = [
    ["min", 0, 1],
    ["max", HIGH, 1],
    ["grid", null, c.jobs],
  ];
  // The draws for the mean on a queue of the export's options with the 'standard' policy: the
  // 'short' policy's one-queued-job-per-key check makes fetching 1,500 jobs take a second, and the
  // policy plays no part in the retries.
  const draws = `${exp.QUEUE}-draws`;
  await boss.createQueue(draws, { ...exp.queueOptions, policy: "standard" });
  for (const [mode, u, n] of modes) {
    if (mode === "grid" && out.min.every((m, k) => m === out.max[k])) {
      out.grid = out.min;
      continue;
    }
    await client.query("UPDATE stub.u SET u = $1, n = $2", [u, u === null ? n : null]);
    const queue = mode === "grid" ? draws : exp.QUEUE;
    const r = await runJobs(boss, clock, client, queue, n);
    await client.query("DELETE FROM pgboss.job WHERE name = $1", [queue]);
    const retries = Math.max(...r.waits.map((w) => w.length));
    out[mode] = Array.from({ length: retries }, (_, k) => {
      const ws = r.waits.map((w) => w[k]).filter((w) => w !== undefined);
      return ws.reduce((a, b) => a + b, 0) / ws.length;
    });
    if (mode === "min") {
      out.attempts = r.attempts;
      out.states = r.states;
      const dead = await client.query("SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1", [
        exp.DEAD_LETTER,
      ]);
      out.dead_letter = dead.rows[0].n;
    }
  }
  out.mean = out.grid;
  delete out.grid;
  return out;
}

const client = new pg.Client(conn);
await client.connect();
await installStub(client);
await client.end();
// A new connection: the database's search_path applies from here on.
const reader = new pg.Client(conn);
await reader.connect();
const clock = new TestClock(START);
const boss = new PgBoss({ ...conn, clock, supervise: false, schedule: false });
boss.on("error", (e) => process.stderr.write(`pg-boss: ${e.message}\n`));
await boss.start();
const results = [];
for (const c of spec.cases) {
  try {
    results.push(await runCase(boss, clock, reader, c));
  } catch (e) {
    results.push({ name: c.name, error: `${e.name}: ${e.message}` });
  }
}
await boss.stop({ graceful: false, wait: true });
await reader.end();
process.stdout.write(JSON.stringify(results));
