// Runs BullMQ's own retry code on our TypeScript exports (tests/it/target_libs.rs).
//
//   node run_bullmq_retries.mjs CASES.json > RESULTS.json
//
// CASES.json: [{"name", "file": "x.ts", "draws"}]. Each export is compiled by TypeScript (to
// CommonJS) and run with the real `bullmq` package of this folder, except that `Queue` and
// `Worker` only keep what they are given (no Redis): the Queue's `defaultJobOptions`, the
// Worker's processor, options (`settings.backoffStrategy`) and `failed` listener. A real
// `Job` is made with those options and the Worker as its queue, as the Worker makes it; then,
// like the Worker when its processor throws, the processor runs, `job.moveToFailed(err)`
// decides (BullMQ's `shouldRetryJob`, `Backoffs.calculate`, the built-in or custom strategy)
// and the backend it calls (the Redis scripts, replaced here) records the delay or the end,
// and the `failed` listener is told, until the job is not retried any more.
//
// Each result: {"name", "versions": {"bullmq"}, "attempts": [runs], "min": [ms], "max": [ms],
// "mean": [ms], "dead": [what the failed listener logged], "permanent": {"runs", "delays",
// "dead"} (work throwing the first NON_RETRYABLE name)} or {"name", "error"}. Work throws an
// Error named as the first RETRYABLE entry. "min" / "max":
// Math.random stubbed to 0 and to just under 1; "mean" over "draws" runs with a seeded
// generator (none when "min" equals "max").
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as bullmq from "bullmq";
import ts from "typescript";

const require = createRequire(import.meta.url);
const version = require("bullmq/package.json").version;
const HIGH = 1 - 1e-12;
// Stack traces play no part in the retries, and capturing them is most of the runs' time.
Error.stackTraceLimit = 1;

// Math.random, stubbed: "min", "max" or a seeded generator (mulberry32).
let mode = "real";
let seed = 20261203;
function seeded() {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
Math.random = () => (mode === "min" ? 0 : mode === "max" ? HIGH : seeded());

/** Loads one export: what its Queue and Worker were given. */
function load(file) {
  const source = readFileSync(file, "utf8");
  const js = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const seen = { queues: [], workers: [], logged: [] };
  class Queue {
    constructor(name, opts) {
      seen.queues.push({ name, opts });
    }
  }
  class Worker {
    constructor(name, processor, opts) {
      this.name = name;
      this.opts = opts;
      this.processor = processor;
      this.listeners = {};
      this.qualifiedName = `bull:${name}`;
      this.backend = null;
      seen.workers.push(this);
    }
    on(event, fn) {
      this.listeners[event] = fn;
      return this;
    }
    toKey(type) {
      return `${this.qualifiedName}:${type}`;
    }
    async trace(_kind, _operation, _destination, callback) {
      return callback();
    }
  }
  const shim = { ...bullmq, Queue, Worker };
  const module = { exports: {} };
  const console = { ...globalThis.console, error: (...a) => seen.logged.push(a.join(" ")) };
  // work() is left to the user (it throws); the driver replaces it to throw a named error.
  const withHook = `${js}\nexports.__setWork = (f) => { work = f; };\n`;
  const run = new Function("require", "module", "exports", "console", withHook);
  run((m) => (m === "bullmq" ? shim : require(m)), module, module.exports, console);
  if (seen.queues.length !== 1 || seen.workers.length !== 1) {
    throw new Error(`the export made ${seen.queues.length} queues and ${seen.workers.length} workers`);
  }
  return { queue: seen.queues[0], worker: seen.workers[0], logged: seen.logged, exports: module.exports };
}

/** One job through the Worker's failure path until BullMQ stops retrying it; `work` throws
 * an Error named `errorName`. */
async function oneJob(loaded, errorName) {
  const { queue, worker } = loaded;
  const delays = [];
  let ended = false;
  worker.backend = {
    moveToDelayed: async (_id, _now, delay) => delays.push(delay),
    retryJob: async () => delays.push(0),
    moveToFailed: async () => {
      ended = true;
      return { result: undefined, finishedOn: Date.now() };
    },
    updateData: async () => undefined,
  };
  loaded.exports.__setWork(async () => {
    const e = new Error("x");
    e.name = errorName;
    throw e;
  });
  const job = new bullmq.Job(worker, queue.name, { n: 1 }, { ...queue.opts.defaultJobOptions }, "job-1");
  loaded.logged.length = 0;
  let runs = 0;
  while (!ended && runs < 1000) {
    runs += 1;
    job.attemptsStarted += 1;
    let err;
    try {
      await worker.processor(job);
      throw new Error("the processor returned; work() should throw");
    } catch (e) {
      err = e;
    }
    await job.moveToFailed(err, "token");
    worker.listeners.failed?.(job, err, "active");
  }
  return { runs, delays, dead: [...loaded.logged] };
}

async function runCase(c) {
  const loaded = load(c.file);
  const retryable = loaded.exports.RETRYABLE?.[0] ?? "Error";
  mode = "min";
  const low = await oneJob(loaded, retryable);
  mode = "max";
  const high = await oneJob(loaded, retryable);
  mode = "real";
  const sums = [];
  // Without jitter every run is the same: no draws.
  const draws = low.delays.some((d, k) => d !== high.delays[k]) ? c.draws : 0;
  for (let i = 0; i < draws; i += 1) {
    (await oneJob(loaded, retryable)).delays.forEach((d, k) => {
      sums[k] = (sums[k] ?? 0) + d;
    });
  }
  const out = {
    name: c.name,
    versions: { bullmq: version },
    attempts: low.runs,
    min: low.delays,
    max: high.delays,
    mean: draws > 0 ? sums.map((s) => s / draws) : low.delays,
    dead: low.dead,
  };
  const permanent = loaded.exports.NON_RETRYABLE?.[0];
  if (permanent) {
    const p = await oneJob(loaded, permanent);
    out.permanent = { runs: p.runs, delays: p.delays, dead: p.dead };
  }
  return out;
}

const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
const results = [];
for (const c of cases) {
  try {
    results.push(await runCase(c));
  } catch (e) {
    results.push({ name: c.name, error: `${e.name}: ${e.message}` });
  }
}
process.stdout.write(JSON.stringify(results));
