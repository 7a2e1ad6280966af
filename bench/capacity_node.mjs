// Times the capacity sweep (8 worker counts × SEEDS runs × JOBS jobs, `bench_input()` in
// src/domain/capacity/sweep.rs) compiled to wasm, as the browser's simulation worker runs it,
// under node; best of 3. Build first:
//
//   cargo build --profile bench --target wasm32-unknown-unknown --example mmc_wasm
//   node bench/capacity_node.mjs [SEEDS] [JOBS]
//
// (The page's worker is built with the release profile, opt-level "z": expect it slower.)
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const seeds = Number(process.argv[2] ?? 20);
const jobs = Number(process.argv[3] ?? 10_000);
const wasmPath = process.env.WASM ?? join(root, "target/wasm32-unknown-unknown/release/examples/mmc_wasm.wasm");
const module = new WebAssembly.Module(readFileSync(wasmPath));
const imports = {};
for (const imp of WebAssembly.Module.imports(module)) {
  (imports[imp.module] ??= {})[imp.name] = () => {
    throw new Error(`wasm called ${imp.module}.${imp.name}`);
  };
}
const instance = await WebAssembly.instantiate(module, imports);
let best = Infinity;
let workers = 0;
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  workers = instance.exports.size_sweep(seeds, jobs);
  best = Math.min(best, (performance.now() - t) / 1000);
}
console.log(`capacity sweep: 8 counts × ${seeds} seeds × ${jobs} jobs: best ${best.toFixed(2)} s (wasm, ${wasmPath.includes("release") ? "bench profile" : wasmPath}); recommends ${workers} workers`);
