// Runs the M/M/c-with-retries benchmark model (the same as benches/sim.rs) as wasm under
// node, and natively, and prints the ratio of wall times.
//
//   cargo build --profile bench --target wasm32-unknown-unknown --example mmc_wasm
//   cargo build --profile bench --example mmc_native
//   node bench/wasm_node.mjs [JOBS]
//
// The wasm module is a bare cdylib export (no wasm-bindgen): `run_mmc(jobs, seed) -> events`.
import { readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const jobs = Number(process.argv[2] ?? 1_000_000);
const reps = 3;
const wasmPath = join(root, "target/wasm32-unknown-unknown/release/examples/mmc_wasm.wasm");
// The crate's wasm build links wasm-bindgen (the app's UI), so the module declares a few
// `__wbindgen_*` imports although `run_mmc` and `trace_digest` never call them: each is
// stubbed with a function that throws if it were ever called.
const module = new WebAssembly.Module(readFileSync(wasmPath));
const imports = {};
for (const imp of WebAssembly.Module.imports(module)) {
  if (imp.kind !== "function") throw new Error(`unexpected import ${imp.module}.${imp.name}`);
  (imports[imp.module] ??= {})[imp.name] = () => {
    throw new Error(`wasm called ${imp.module}.${imp.name}`);
  };
}
const instance = await WebAssembly.instantiate(module, imports);
let best = Infinity;
let events = 0;
for (let i = 0; i < reps; i++) {
  const t = performance.now();
  events = instance.exports.run_mmc(jobs, 1);
  best = Math.min(best, (performance.now() - t) / 1000);
}
console.log(`wasm   jobs=${jobs} events=${events} best_s=${best.toFixed(3)} events_per_s=${Math.round(events / best)}`);
const out = execFileSync(join(root, "target/release/examples/mmc_native"), [String(jobs), String(reps), "digest"]).toString();
console.log(out.trim());
const m = /events=(\d+) best_s=([0-9.]+)/.exec(out);
if (Number(m[1]) !== events) console.log(`WARNING: event counts differ (native ${m[1]}, wasm ${events}): traces diverge`);
console.log(`ratio  wasm/native = ${(best / Number(m[2])).toFixed(2)} (wall time, same model and seed)`);
const wasmDigest = (BigInt.asUintN(64, BigInt(instance.exports.trace_digest(1)))).toString(16).padStart(16, "0");
const nativeDigest = /trace_digest\(1\)=([0-9a-f]+)/.exec(out)[1];
console.log(`trace  digest of every scenario's report + an M/M/c run, seed 1: wasm ${wasmDigest}, native ${nativeDigest} → ${wasmDigest === nativeDigest ? "identical" : "DIFFERENT"}`);
