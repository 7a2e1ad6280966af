// Our own limiter from the sheet to the simulator, as a user goes: the sheet's "Load and
// capacity" typed with a partner that allows 10 calls/s and our workers pacing themselves at
// 10/s; Simulate → "Your settings" shows "Our limiter (pacing)" pre-filled with 10 and why;
// the run is never refused by the partner and no second of the calls chart passes more than
// 10 successful calls, with the limiter's line drawn. Then the knob emptied (no limiter) and
// a value out of range refused naming the field and the range, the settings kept.
// Screenshot: en-sim-our-limit.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, openSheet, screenshot } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

/** Types `value` into the input `id` key by key, as a person does. */
async function type(page, id, value) {
  await page.click(`#${id}`, { clickCount: 3 });
  await page.keyboard.press('Backspace');
  if (value) await page.type(`#${id}`, value);
}

/** The calls chart of the result on show: its bars, legend and reference lines. */
const callsChart = (page) => page.$eval('.sim-result figure[data-chart="calls"]', (f) => ({
  bars: [...f.querySelectorAll('rect.plot-bar')].map((r) => [r.dataset.series, Number(r.dataset.slot), Number(r.dataset.value)]),
  legend: [...f.querySelectorAll('.plot-legend [data-series]')].map((g) => [g.dataset.series, g.textContent]),
  rules: [...f.querySelectorAll('.plot-rule')].map((l) => [l.dataset.rule, Number(l.dataset.value)]),
  // What the stylesheet draws each line with (a line without a stroke is not seen).
  strokes: [...f.querySelectorAll('.plot-rule')].map((l) => getComputedStyle(l).stroke),
  note: f.querySelector('[data-our-limit]')?.textContent ?? null,
}));

test('our limiter of 10/s reaches Your settings with its reason; the run is never refused and never passes 10 calls in a second', async () => {
  const page = await openPage(browser, server.url);
  await openSheet(page);
  await page.waitForSelector('#sec-load');
  // A handler of 80 ms (p95 300 ms), 2 processes × 3 jobs at once, a burst of 100 updates,
  // a partner allowing 10 calls/s and our workers pacing themselves at 10/s.
  await type(page, 'handler-p50', '80');
  await type(page, 'handler-p95', '300');
  await type(page, 'workers', '2');
  await type(page, 'concurrency', '3');
  await page.selectOption('#burst-kind', 'at-once');
  await page.waitForSelector('#burst-count');
  await type(page, 'burst-count', '100');
  await type(page, 'downstream-rate', '10');
  await type(page, 'our-limit', '10');
  assert.equal(await page.inputValue('#our-limit'), '10');

  await page.click('.tabs button:nth-child(3)');
  await page.waitForSelector('section.simulate');
  await page.click('.preset[data-scenario="custom"]');
  await page.waitForSelector('#knob-our-limit');
  assert.equal(await page.inputValue('#knob-our-limit'), '10');
  assert.equal(await page.inputValue('#knob-rate-limit'), '10');
  assert.equal(await page.inputValue('#knob-workers'), '6');
  assert.equal(
    (await page.textContent('[data-knob="our-limit"] [data-reason="our-limit"]')).trim(),
    'From the sheet’s Load and capacity: the workers pace themselves at 10/s (all together).',
  );
  assert.match(await page.textContent('[data-knob="our-limit"] label'), /^Our limiter \(pacing\)/);
  assert.match(await page.textContent('[data-knob="our-limit"] .hint'), /evenly spaced with no burst/);

  await page.fill('#seed', '1');
  await page.click('#sim-run');
  await page.waitForSelector('.sim-result .sim-charts figure[data-chart="calls"] svg.plot', { timeout: 60_000 });
  const paced = await callsChart(page);
  // The partner refused nothing: no busy and no failed calls, in the legend or as a bar.
  assert.deepEqual(paced.legend, [['ok', 'ok (100)'], ['busy', 'busy (0)'], ['failed', 'failed (0)']]);
  assert.deepEqual(paced.bars.filter(([s, , v]) => s !== 'ok' && v > 0), []);
  const okBars = paced.bars.filter(([s]) => s === 'ok');
  assert.ok(okBars.length >= 10, `${okBars.length} seconds with calls`);
  const most = Math.max(...okBars.map(([, , v]) => v));
  assert.ok(most <= 10, `a second with ${most} successful calls`);
  // The limiter's line is drawn, and the note under the chart says what it does.
  assert.deepEqual(paced.rules, [['our-limit', 10]]);
  assert.ok(paced.strokes.every((c) => c !== 'none' && c !== ''), `the line is stroked: ${paced.strokes}`);
  assert.match(paced.note, /^The dashed line is our limiter: it paces the workers’ calls to at most 10 calls\/s across all workers, evenly spaced with no burst/);
  // The downstream's burst note no longer calls the line its own.
  assert.match(await page.textContent('.sim-result figure[data-chart="calls"] [data-rate-limit]'), /^The downstream’s rate limit is 10 calls\/s .* but our limiter never sends them that fast\.$/);
  await page.locator('.sim-result figure[data-chart="calls"]').scrollIntoViewIfNeeded();
  await screenshot(page, 'en-sim-our-limit');

  // Emptied: no limiter, the sheet's value named; the same run is now refused and retried.
  await type(page, 'knob-our-limit', '');
  await page.waitForSelector('[data-knob="our-limit"] [data-from-sheet="false"]');
  assert.equal(await page.textContent('[data-knob="our-limit"] [data-from-sheet="false"]'), 'changed (sheet: 10 /s)');
  assert.equal(await page.$('[data-field="knob-our-limit"] .error'), null);
  await page.click('#sim-run');
  await page.waitForFunction(() => {
    const f = document.querySelector('.sim-result figure[data-chart="calls"]');
    return f && !f.querySelector('[data-our-limit]') && f.querySelector('svg.plot');
  }, null, { timeout: 60_000 });
  const unpaced = await callsChart(page);
  assert.notDeepEqual(unpaced.legend[2], ['failed', 'failed (0)'], 'without our limiter the partner refuses');
  assert.deepEqual(unpaced.rules.map(([k]) => k), ['rate-limit']);

  // Out of range: refused naming the field and the range; the settings keep their last
  // good value (none), and the text typed stays.
  await type(page, 'knob-our-limit', '200000');
  await page.waitForSelector('[data-field="knob-our-limit"] .error');
  assert.equal(
    await page.textContent('[data-field="knob-our-limit"] .error'),
    'Our limiter (pacing): enter a whole number from 1 to 100,000 /s. Or leave it empty for none. Until this is fixed, the last accepted value is used: none (empty).',
  );
  assert.equal(await page.inputValue('#knob-our-limit'), '200000');
  await type(page, 'knob-our-limit', '10');
  await page.waitForSelector('[data-field="knob-our-limit"] .error', { state: 'detached' });
  await page.waitForSelector('[data-knob="our-limit"] [data-reason="our-limit"]');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
