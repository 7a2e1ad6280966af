// Size budgets, brotli-compressed (quality 11), printed for the README:
// - the first load (what index.html fetches before anyone runs a simulation: the page's wasm,
//   its JS glue, the boot script and the CSS) must stay under 350 KB;
// - the whole app, including the simulation worker's wasm and JS (fetched on the first run),
//   must stay under 450 KB ("a few hundred KB on the wire", PRODUCT.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { dist } from './harness.mjs';

const FIRST_LOAD_BUDGET = 350 * 1024;
const TOTAL_BUDGET = 450 * 1024;

test('first load < 350 KB and whole app < 450 KB, brotli', () => {
  let total = 0;
  let worker = 0;
  const rows = [];
  for (const f of readdirSync(dist)) {
    if (!/\.(wasm|js|css)$/.test(f)) continue;
    const raw = readFileSync(path.join(dist, f));
    const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    total += br;
    if (f.startsWith('sim-worker')) worker += br;
    rows.push(`${f.replace(/-[0-9a-f]{12,16}(?=[._])/, '')}: ${(raw.length / 1024).toFixed(1)} KB raw, ${(br / 1024).toFixed(1)} KB brotli`);
  }
  assert.ok(rows.length >= 4, 'dist/ must hold the page wasm, its JS glue, the worker and the CSS');
  assert.ok(worker > 0, 'dist/ must hold the simulation worker');
  // The first-load figure is honest only if index.html does not fetch the worker up front.
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  assert.ok(!/sim-worker/.test(html.replace(/<link[^>]*data-trunk[^>]*>/g, '')), 'index.html must not preload the worker');
  const first = total - worker;
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`size: ${rows.join('; ')}; first load ${kb(first)} (budget 350 KB), worker ${kb(worker)}, total ${kb(total)} brotli (budget 450 KB)`);
  assert.ok(first < FIRST_LOAD_BUDGET, `first load ${first} B brotli exceeds ${FIRST_LOAD_BUDGET} B`);
  assert.ok(total < TOTAL_BUDGET, `total ${total} B brotli exceeds ${TOTAL_BUDGET} B`);
});
