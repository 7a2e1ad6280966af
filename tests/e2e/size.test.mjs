// Size budget: the app's wasm + JS + CSS, brotli-compressed (quality 11), must stay under
// 350 KB. Prints the figures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { dist } from './harness.mjs';

const BUDGET = 350 * 1024;

test('wasm + js + css brotli size stays under 350 KB', () => {
  let total = 0;
  const rows = [];
  for (const f of readdirSync(dist)) {
    if (!/\.(wasm|js|css)$/.test(f)) continue;
    const raw = readFileSync(path.join(dist, f));
    const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    total += br;
    rows.push(`${f.replace(/-[0-9a-f]{16}/, '')}: ${(raw.length / 1024).toFixed(1)} KB raw, ${(br / 1024).toFixed(1)} KB brotli`);
  }
  assert.ok(rows.length >= 3, 'dist/ must hold the wasm, the JS glue and the CSS');
  console.log(`size: ${rows.join('; ')}; total ${(total / 1024).toFixed(1)} KB brotli (budget 350 KB)`);
  assert.ok(total < BUDGET, `total ${total} B brotli exceeds ${BUDGET} B`);
});
