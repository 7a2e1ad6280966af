// The simulator's charts in real Chromium: the SVG charts that carry meaning, with axes, units
// and legends, under each result (the others one line saying why), numbers that agree with the run's facts, both languages, and the 10⁶-job load
// preset still charted. Screenshots: en-sim-charts, ja-sim-charts, en-sim-charts-load.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, screenshot, openSimulate } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const open = (lang = 'en') => openSimulate(browser, server.url, lang);

async function runPreset(page, scenario, variant, { seed = '1', jobs } = {}) {
  await page.click(`.preset[data-scenario="${scenario}"]`);
  if (variant) await page.check(`#variant-${variant}`);
  if (jobs) await page.fill('#jobs', jobs);
  await page.fill('#seed', seed);
  await page.click('#sim-run');
  const sel = `.sim-result[data-scenario="${scenario}"]${variant ? `[data-variant="${variant}"]` : ''}`;
  await page.waitForSelector(sel, { timeout: 120_000 });
  await page.waitForSelector(`${sel} .sim-charts figure[data-chart="calls"]`);
}

/** What each chart shows: axis and tick texts, legend entries, bars. */
async function charts(page) {
  return page.$$eval('.sim-charts figure.sim-chart', (figs) => figs.map((f) => {
    const svg = f.querySelector('svg.plot');
    // A run without downstream calls: one line in place of the calls chart.
    if (!svg) return { id: f.dataset.chart, caption: f.querySelector('figcaption').textContent, empty: [f.querySelector('.chart-none-why').textContent] };
    const texts = (s) => [...svg.querySelectorAll(s)].map((e) => e.textContent);
    return {
      id: f.dataset.chart,
      caption: f.querySelector('figcaption').textContent,
      label: svg.getAttribute('aria-label'),
      role: svg.getAttribute('role'),
      title: svg.querySelector('title')?.textContent,
      units: texts('.plot-unit'),
      ticks: texts('.plot-tick'),
      axes: svg.querySelectorAll('.plot-axis').length,
      legend: [...svg.querySelectorAll('.plot-legend [data-series]')].map((g) => [g.dataset.series, g.textContent]),
      bars: [...svg.querySelectorAll('rect.plot-bar')].map((r) => [r.dataset.series, Number(r.dataset.slot), Number(r.dataset.value)]),
      tips: [...svg.querySelectorAll('rect.plot-bar')].map((r) => [r.dataset.series, r.querySelector('title').textContent]),
      lines: [...svg.querySelectorAll('path.plot-line')].map((p) => p.getAttribute('d').length),
      empty: texts('.plot-empty'),
      width: svg.getBoundingClientRect().width,
    };
  }));
}

const fact = (page, key) => page.textContent(`.sim-result [data-fact="${key}"] dd`);

test('burst leveling: the charts that carry meaning, with axes, units and legends; the numbers match the run', async () => {
  const page = await open('en');
  await runPreset(page, 'burst-leveling', 'direct');
  let all = await charts(page);
  assert.deepEqual(all.map((c) => c.id), ['depth', 'attempts', 'latency', 'calls']);
  // No queue in the direct variant: depth, attempts and latency are one line each saying why.
  assert.deepEqual(all.filter((c) => !c.role).map((c) => c.id), ['depth', 'attempts', 'latency']);
  assert.match(all[0].empty[0], /^Not drawn: no queue drained in this run .* Most jobs waiting at once: 0; still queued at the end: 0\.$/);
  assert.deepEqual(all[1].empty, ['Not drawn: no job rows in this run (nothing was enqueued).']);
  assert.match(all[2].empty[0], /this run finished 0\.$/);
  const calls = all.find((c) => c.id === 'calls');
  assert.deepEqual(calls.units, ['Calls (calls/s)', 'Time (s)']);
  assert.deepEqual(calls.legend, [['ok', 'ok (1)'], ['busy', 'busy (9)'], ['failed', 'failed (0)']]);
  assert.deepEqual(calls.bars, [['ok', 0, 1], ['busy', 0, 9]]);
  // The facts say the same: accepted / failed back / downstream ok / busy.
  assert.equal(await fact(page, 'intake'), '1 / 9 / 1 / 9');

  await runPreset(page, 'burst-leveling', 'two-tier-jitter');
  all = await charts(page);
  const byId = Object.fromEntries(all.map((c) => [c.id, c]));
  for (const c of all.filter((x) => x.role)) {
    assert.equal(c.role, 'img', c.id);
    assert.ok(c.label && c.label === c.title, `${c.id}: aria-label and <title>`);
    assert.ok(c.axes >= 1 && c.ticks.length >= 3, `${c.id}: axes and tick labels`);
    assert.ok(c.units.length === 2, `${c.id}: x and y titles ${c.units}`);
    assert.ok(c.caption.length > 20, `${c.id}: caption`);
    assert.ok(c.width > 200, `${c.id}: drawn at ${c.width}px`);
  }
  assert.deepEqual(all.filter((c) => c.role).map((c) => c.id), ['depth', 'attempts', 'calls']);
  // The preset's own caption under its calls chart.
  assert.match(byId.calls.caption, /One ok per instant: the downstream serves one call at a time/);
  const okTotal = byId.calls.bars.filter(([s]) => s === 'ok').reduce((a, [, , v]) => a + v, 0);
  assert.equal(okTotal, 10);
  assert.equal(byId.calls.legend[0][1], 'ok (10)');
  assert.match(await fact(page, 'intake'), /^10 \/ 0 \/ 10 \/ \d+$/);
  const busy = Number((await fact(page, 'intake')).split(' / ')[3]);
  assert.equal(byId.calls.legend[1][1], `busy (${busy})`);
  assert.equal(byId.attempts.legend[0][1], 'done (10)');
  assert.equal(await fact(page, 'rows'), '10 / 0 / 0 / 0');
  // Ten jobs: too few for percentiles (from 20 up).
  assert.match(byId.latency.empty[0], /20 finished jobs or more .* this run finished 10\.$/);
  assert.equal(byId.depth.lines.length, 1);
  // Colours come from the stylesheet (CSP: no inline style anywhere in the charts).
  assert.equal(await page.$$eval('.sim-charts [style]', (e) => e.length), 0);
  const fill = await page.$eval('.sim-charts rect.plot-bar.s-ok', (r) => getComputedStyle(r).fill);
  assert.equal(fill, 'rgb(22, 163, 74)');
  await page.locator('.sim-charts').scrollIntoViewIfNeeded();
  await screenshot(page, 'en-sim-charts');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the charts speak Japanese', async () => {
  const page = await open('ja');
  await runPreset(page, 'burst-leveling', 'queue-redelivery');
  const all = await charts(page);
  const byId = Object.fromEntries(all.map((c) => [c.id, c]));
  assert.equal(byId.depth.title, 'キューの長さの推移');
  assert.deepEqual(byId.calls.units, ['呼び出し (件/秒)', '時間 (秒)']);
  // Status names stay as the table writes them, with their Japanese meaning (as in the state machine).
  assert.deepEqual(byId.attempts.legend.map(([, t]) => t), ['done（完了） (5)', 'dead（退避） (5)', 'queued / running（待ち・実行中） (0)']);
  assert.deepEqual(byId.calls.legend.map(([s]) => s), ['ok', 'busy', 'failed']);
  assert.match(byId.calls.legend[1][1], /^busy（使用中） \(\d+\)$/);
  // Five delivery rounds 30 s apart: one ok per round (the tooltip names the seconds).
  const okStarts = byId.calls.tips.filter(([s]) => s === 'ok').map(([, tip]) => Number(/: (\d+) – /.exec(tip)?.[1]));
  assert.deepEqual(okStarts, [0, 30, 60, 90, 120]);
  assert.equal(await page.textContent('.sim-charts h4'), 'グラフ');
  await screenshot(page, 'ja-sim-charts');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the 10⁶-job load preset still renders its charts', async () => {
  const page = await open('en');
  await runPreset(page, 'mmc-load', null, { jobs: '1 000 000' });
  const all = await charts(page);
  const byId = Object.fromEntries(all.map((c) => [c.id, c]));
  assert.deepEqual(all.map((c) => c.id), ['depth', 'attempts', 'latency', 'calls']);
  assert.equal(byId.depth.lines.length, 1);
  const rows = (await fact(page, 'rows')).split(' / ').map((x) => Number(x.replace(/,/g, '')));
  const legendTotal = (c, i) => Number(c.legend[i][1].replace(/.*\(([\d,]+)\)$/, '$1').replace(/,/g, ''));
  assert.equal(legendTotal(byId.attempts, 0), rows[0], 'done in the legend = done rows');
  assert.equal(legendTotal(byId.attempts, 1), rows[1], 'dead in the legend = dead rows');
  assert.ok(byId.attempts.bars.length >= 2);
  assert.equal(byId.latency.bars.length, 8);
  assert.match(byId.calls.empty[0], /^No downstream calls in this run: /, 'the load model has no downstream');
  // The x axis reaches the end of the run (10⁶ jobs at 20/s: about 50,000 s).
  assert.ok(byId.depth.ticks.some((t) => /^[1-9]\d?,000$/.test(t)), byId.depth.ticks.join(' | '));
  await page.locator('.sim-charts').scrollIntoViewIfNeeded();
  await screenshot(page, 'en-sim-charts-load');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
