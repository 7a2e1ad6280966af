// The lease lessons in real Chromium: the "Lease shorter than the handler" preset's facts name
// what the engine let happen (overlapping runs, stale results, a claim past max_attempts), its
// timeline draws three workers on one job, the owner-check variant marks the refused results;
// "Your settings" offers the owner check, heartbeats and the acknowledgement, and refuses a
// heartbeat that cannot beat the lease, naming the range.
// Screenshots: {en,ja}-sim-leases.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openSimulate, runPreset, screenshot } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const facts = (page, sel) => page.$$eval(`${sel} .fact`, (fs) => Object.fromEntries(fs.map((f) => [f.dataset.fact, f.querySelector('dd').textContent])));

test('naive: three runs of a job allowed two, each counted and said (en)', async () => {
  const page = await openSimulate(browser, server.url, 'en');
  const sel = await runPreset(page, 'lease-shorter-than-handler', 'naive');
  const f = await facts(page, sel);
  assert.equal(f['overlapping-runs'], '2');
  assert.equal(f['stale-results'], '3');
  assert.equal(f['claims-over-max'], '1');
  assert.equal(f['lost-jobs'], undefined, 'a count that is zero is not said');
  assert.match(await page.textContent(`${sel} [data-fact="claims-over-max"] dt`), /past max_attempts/);
  const lanes = await page.$$eval(`${sel} figure.sim-timeline g.plot-lane`, (gs) => gs.map((g) => [g.querySelector('.plot-tick').textContent, g.querySelectorAll('rect.plot-bar').length]));
  assert.deepEqual(lanes, [['A', 1], ['B', 1], ['C', 1]]);
  assert.match(await page.textContent(`${sel} figure.sim-timeline figcaption`), /3\/2/);
  // The legend names the colours the bars have: failed and retried, failed for good.
  const legend = await page.$$eval(`${sel} figure.sim-timeline g.plot-legend g[data-series]`, (gs) => gs.map((g) => g.dataset.series));
  assert.ok(legend.includes('run-retry') && legend.includes('run-dead'), legend.join());
  assert.ok(!legend.includes('run-done'), 'no run ended done: no swatch for it');
  // No lease ran out under the claim that held the row: no "lease expired" stretch.
  assert.equal(await page.$$eval(`${sel} figure.sim-timeline g.plot-strip [data-series="expired-row"]`, (r) => r.length), 0);
  // The log says it, line by line.
  const log = await page.textContent(`${sel} .event-log`);
  assert.match(log, /another run of this job is still going/);
  assert.match(log, /stale release\(\): this worker no longer holds the job → applied/);
  assert.match(log, /3\/2: attempt past max_attempts/);
  await screenshot(page, 'en-sim-leases');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('owner check: the late results are refused and marked, worded in Japanese (ja)', async () => {
  const page = await openSimulate(browser, server.url, 'ja');
  const sel = await runPreset(page, 'lease-shorter-than-handler', 'owner-check');
  const f = await facts(page, sel);
  assert.equal(f['stale-results'], '2');
  assert.equal(f['claims-over-max'], undefined);
  assert.match(await page.textContent(`${sel} [data-fact="stale-results"] dt`), /遅れた結果/);
  assert.equal(await page.$$eval(`${sel} figure.sim-timeline g.plot-lane .plot-symbol.s-refused`, (s) => s.length), 2);
  assert.match(await page.textContent(`${sel} figure.sim-timeline figcaption`), /所有者の確認で拒否/);
  await screenshot(page, 'ja-sim-leases');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('your settings: the lease knobs are there and a heartbeat as long as the lease is refused with its range', async () => {
  const page = await openSimulate(browser, server.url, 'en');
  await page.click('.preset[data-scenario="custom"]');
  for (const id of ['owner-check', 'heartbeat-ms', 'ack', 'crash-point', 'duplicate-after-ms', 'key-from']) {
    assert.equal(await page.locator(`[data-knob="${id}"]`).count(), 1, id);
  }
  assert.equal(await page.locator('[data-knob="crash-point"]').isHidden(), true, 'no crashes: no crash point');
  await page.fill('#knob-heartbeat-ms', '60');
  await page.selectOption('#knob-heartbeat-ms-unit', '1');
  const err = await page.textContent('[data-field="knob-heartbeat-ms"] .error');
  assert.match(err, /Heartbeat/);
  assert.match(err, /59\.999 s|59,999 ms|59 999 ms/);
  await page.fill('#knob-heartbeat-ms', '20');
  await page.waitForFunction(() => !document.querySelector('[data-field="knob-heartbeat-ms"] .error'));
  await page.click('.lang button[data-lang="ja"]');
  await page.waitForSelector('html[lang="ja"]');
  assert.match(await page.textContent('[data-knob="ack"]'), /完了通知のタイミング/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
