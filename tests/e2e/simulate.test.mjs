// The simulator screen in real Chromium: presets run in the Web Worker and show the source documents'
// results; the trace hash equals the CLI's; bad seeds are refused and the result stays; the
// small texts (1 event/s, no engine events for the jitter study, the log after Cancel).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { serve, launch, screenshot, root, openSimulate, runThenCancel } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const open = (lang = 'en') => openSimulate(browser, server.url, lang);

async function runPreset(page, scenario, variant, seed = '1') {
  await page.click(`.preset[data-scenario="${scenario}"]`);
  await page.check(`#variant-${variant}`);
  await page.fill('#seed', seed);
  await page.click('#sim-run');
  await page.waitForSelector(`.sim-result[data-scenario="${scenario}"][data-variant="${variant}"]`);
  return (key) => page.textContent(`.sim-result [data-fact="${key}"] dd`);
}

test('each preset shows the seed\'s results, computed in the worker', async () => {
  const page = await open();
  let fact = await runPreset(page, 'retry-dead-letter', 'seed');
  assert.equal(await fact('rows'), '1 / 1 / 0 / 0');
  assert.equal(await page.getAttribute('tr[data-job="1"]', 'data-status'), 'done');
  assert.match(await page.textContent('tr[data-job="1"]'), /3\/5/);
  assert.match(await page.textContent('tr[data-job="2"]'), /dead3\/3/);
  fact = await runPreset(page, 'duplicate-execution', 'plain');
  assert.equal(await fact('balance'), '200');
  fact = await runPreset(page, 'duplicate-execution', 'idempotency-key');
  assert.equal(await fact('balance'), '100');
  fact = await runPreset(page, 'claim-race', 'two-statement');
  assert.match(await fact('claims'), /→ job#1, .* → job#1$/);
  fact = await runPreset(page, 'claim-race', 'atomic');
  assert.match(await fact('claims'), /→ job#1, .* → job#2$/);
  fact = await runPreset(page, 'pg-row-locks', 'skip-locked');
  assert.match(await fact('claims'), /job#2/);
  fact = await runPreset(page, 'pg-row-locks', 'nowait');
  assert.match(await fact('errors'), /could not obtain lock on row/);
  fact = await runPreset(page, 'burst-leveling', 'direct');
  assert.match(await fact('intake'), /^1 \/ 9 \//);
  fact = await runPreset(page, 'burst-leveling', 'queue-redelivery');
  assert.equal(await fact('rows'), '5 / 5 / 0 / 0');
  fact = await runPreset(page, 'burst-leveling', 'two-tier-jitter');
  assert.equal(await fact('rows'), '10 / 0 / 0 / 0');
  await screenshot(page, 'en-simulate');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the trace hash equals the CLI\'s for the same scenario, variant and seed', async () => {
  const cli = path.join(root, 'target', 'debug', 'modality-advisor');
  const bin = existsSync(cli) ? cli : path.join(root, 'target', 'release', 'modality-advisor');
  const page = await open('ja');
  const fact = await runPreset(page, 'duplicate-execution', 'idempotency-key', '7');
  const json = JSON.parse(execFileSync(bin, ['simulate', '--scenario', 'duplicate-execution', '--variant', 'idempotency-key', '--seed', '7', '--format', 'json']).toString());
  assert.equal(await fact('trace-hash'), json.trace_hash);
  await screenshot(page, 'ja-simulate');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a bad seed is refused with a message and the previous result stays', async () => {
  const page = await open();
  await runPreset(page, 'claim-race', 'atomic');
  // Visiting another screen keeps the result.
  await page.click('.tabs button:first-child');
  await page.waitForSelector('form.question');
  await page.click('.tabs button:nth-child(3)');
  await page.waitForSelector('.sim-result[data-scenario="claim-race"]');
  await page.fill('#seed', '-3');
  assert.match(await page.textContent('[data-field="seed"] .error'), /Seed: enter a whole number from 0 to/);
  await page.click('#sim-run');
  await page.waitForSelector('[data-status="failed"]');
  assert.ok(await page.$('.sim-result[data-scenario="claim-race"]'), 'the previous result is still shown');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

async function watchLongTasks(page) {
  await page.evaluate(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: false });
  });
}

test('a million jobs run in the worker with progress; the page stays responsive', async () => {
  const page = await open();
  await page.click('.preset[data-scenario="mmc-load"]');
  await page.fill('#jobs', '1 000 000');
  await watchLongTasks(page);
  // The observer itself works: a deliberate 250 ms task on the main thread is seen.
  await page.evaluate(() => setTimeout(() => { const t = performance.now(); while (performance.now() - t < 250) { /* busy */ } }, 0));
  await page.waitForFunction(() => window.longTasks.some((d) => d >= 200));
  await page.evaluate(() => { window.longTasks = []; });
  const started = Date.now();
  await page.click('#sim-run');
  await page.waitForFunction(() => /[1-9][0-9, ]* events so far/.test(document.querySelector('[data-status="running"]')?.textContent ?? ''));
  await page.waitForSelector('.sim-result[data-scenario="mmc-load"]', { timeout: 120_000 });
  const seconds = (Date.now() - started) / 1000;
  const rows = await page.textContent('.sim-result [data-fact="rows"] dd');
  const [done, dead, queued, running] = rows.split(' / ').map((x) => Number(x.replace(/,/g, '')));
  assert.equal(done + dead, 1_000_000);
  assert.equal(queued + running, 0);
  assert.match(await page.textContent('[data-rows-cut]'), /first 200 of 1,000,000 rows/);
  const longest = Math.max(0, ...(await page.evaluate(() => window.longTasks)));
  console.log(`1e6 jobs in the browser: ${seconds.toFixed(2)} s end to end; longest main-thread task ${longest.toFixed(0)} ms`);
  assert.ok(longest < 200, `a main-thread task took ${longest} ms`);
  await screenshot(page, 'en-simulate-load');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('cancel stops a long run; the previous result stays and the next run works', async () => {
  const page = await open();
  await runPreset(page, 'claim-race', 'atomic');
  await page.click('.preset[data-scenario="mmc-load"]');
  await page.fill('#jobs', '1000000');
  await runThenCancel(page);
  await page.waitForSelector('[data-status="cancelled"]');
  assert.ok(await page.$('.sim-result[data-scenario="claim-race"]'), 'the previous result is still shown');
  const fact = await runPreset(page, 'duplicate-execution', 'plain');
  assert.equal(await fact('balance'), '200');
  // A bad job count is refused before anything runs.
  await page.click('.preset[data-scenario="mmc-load"]');
  await page.fill('#jobs', '2000000');
  assert.match(await page.textContent('[data-field="jobs"] .error'), /1 to 1,000,000/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a run goes on while another screen is shown, and the choices stay', async () => {
  const page = await open();
  await page.click('.preset[data-scenario="mmc-load"]');
  await page.fill('#jobs', '300000');
  await page.fill('#seed', '42');
  await page.click('#sim-run');
  await page.click('.tabs button:first-child');
  await page.waitForSelector('form.question');
  await page.click('.tabs button:nth-child(3)');
  await page.waitForSelector('.sim-result[data-scenario="mmc-load"]', { timeout: 60_000 });
  assert.equal(await page.getAttribute('.preset[data-scenario="mmc-load"]', 'aria-pressed'), 'true');
  assert.equal(await page.inputValue('#seed'), '42');
  assert.equal(await page.inputValue('#jobs'), '300000');
  // A reload comes back to the simulator.
  await page.reload();
  await page.waitForSelector('section.simulate:visible');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a result kept from another choice says so until the next run', async () => {
  const page = await open();
  await runPreset(page, 'retry-dead-letter', 'seed');
  assert.equal(await page.$('[data-other-result]'), null);
  await page.click('.preset[data-scenario="mmc-load"]');
  assert.match(await page.textContent('[data-other-result]'), /result of the last run/);
  await page.click('.preset[data-scenario="retry-dead-letter"]');
  await page.check('#variant-classified');
  assert.ok(await page.$('[data-other-result]'), 'another variant is another choice');
  await page.check('#variant-seed');
  assert.equal(await page.$('[data-other-result]'), null);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

async function run(page, scenario) {
  await page.click('#sim-run');
  await page.waitForSelector(`.sim-result[data-scenario="${scenario}"]`, { timeout: 60_000 });
}

test('small texts: 1 event/s, no engine events for the jitter study, the log after Cancel', async () => {
  const page = await open();
  await page.click('.preset[data-scenario="duplicate-execution"]');
  await run(page, 'duplicate-execution');
  assert.equal(await page.textContent('#step-speed option[value="1"]'), '1 event/s');
  assert.equal(await page.textContent('#step-speed option[value="4"]'), '4 events/s');
  await page.click('.preset[data-scenario="jitter-contention"]');
  await run(page, 'jitter-contention');
  assert.equal(await page.$('.sim-result [data-fact="events"]'), null);
  // A result whose log lives in the worker, then a run cancelled: only the head can be read.
  await page.click('.preset[data-scenario="mmc-load"]');
  await page.fill('#jobs', '2000');
  await run(page, 'mmc-load');
  const total = Number(await page.getAttribute('.log-total', 'data-log-total'));
  assert.ok(total > 200, `${total} lines`);
  assert.equal(await page.getAttribute('.log-total', 'data-log-readable'), null);
  await page.fill('#jobs', '1000000');
  await runThenCancel(page);
  await page.waitForSelector('[data-status="cancelled"]');
  assert.equal(await page.getAttribute('.log-total', 'data-log-readable'), '200');
  assert.match(await page.textContent('.log-total'), /lines; only the first 200 can be read here/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
