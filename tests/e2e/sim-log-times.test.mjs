// The event log's time column in real Chromium: one precision per log (six decimals for
// jittered waits, three for the source documents' runs), and the page's trace hash of that run
// equals the CLI's.
// Screenshots: {en,ja}-sim-log-times.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { serve, launch, openSimulate, runPreset, screenshot, root } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

/** The number of decimals of every time in the log rows shown (the head's time and any `… 1.5s`). */
const logDecimals = (page) => page.$$eval('.event-log li .tx', (els) => {
  const out = new Set();
  for (const e of els) {
    for (const m of e.textContent.matchAll(/(?:^|[\s(（])\d+\.(\d+)s(?=[\s:)）]|$)/g)) out.add(m[1].length);
  }
  return [...out].sort();
});

function cli() {
  const debug = path.join(root, 'target', 'debug', 'modality-advisor');
  return existsSync(debug) ? debug : path.join(root, 'target', 'release', 'modality-advisor');
}

for (const lang of ['en', 'ja']) {
  test(`the event log's times have one precision per log (${lang})`, async () => {
    const page = await openSimulate(browser, server.url, lang);
    // Jittered waits have microseconds: every time gets six decimals, 0 s included.
    const sel = await runPreset(page, 'burst-leveling', 'two-tier-jitter');
    await page.waitForSelector('.event-log li .tx');
    assert.deepEqual(await logDecimals(page), [6]);
    assert.match(await page.textContent('.event-log li:first-child .tx'), /^0\.000000s /);
    // The page (wasm) and the CLI (native) agree on this run's trace.
    const hash = await page.textContent(`${sel} [data-fact="trace-hash"] dd`);
    const out = execFileSync(cli(), ['simulate', '--scenario', 'burst-leveling', '--variant', 'two-tier-jitter', '--seed', '1', '--format', 'json']).toString();
    assert.equal(JSON.parse(out).trace_hash, hash.trim());
    await page.locator('.event-log').scrollIntoViewIfNeeded();
    await screenshot(page, `${lang}-sim-log-times`);
    // The source documents' runs are in whole milliseconds: three decimals, as the seed prints them.
    await runPreset(page, 'retry-dead-letter', 'seed');
    await page.waitForFunction(() => /^0\.000s /.test(document.querySelector('.event-log li:first-child .tx')?.textContent ?? ''));
    assert.deepEqual(await logDecimals(page), [3]);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
