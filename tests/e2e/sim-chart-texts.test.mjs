// The charts' texts in real Chromium: a run without downstream calls says so in one line
// instead of an empty chart box, and axis titles never overlap value or tick labels.
// Screenshots: {en,ja}-sim-charts-no-calls, {en,ja}-1280-sim-charts-latency.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openSimulate, runPreset, screenshot } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

for (const lang of ['en', 'ja']) {
  test(`no downstream calls: one explanatory line, not an empty chart box (${lang})`, async () => {
    const page = await openSimulate(browser, server.url, lang);
    const sel = await runPreset(page, 'retry-dead-letter', 'seed');
    const calls = await page.$eval(`${sel} figure[data-chart="calls"]`, (f) => ({
      svg: f.querySelectorAll('svg').length,
      empty: f.dataset.empty,
      text: f.textContent,
      height: f.getBoundingClientRect().height,
    }));
    // Beside a drawn chart (two jobs: the latency percentiles are one line too).
    const attempts = await page.$eval(`${sel} figure[data-chart="attempts"]`, (f) => f.getBoundingClientRect().height);
    assert.equal(calls.svg, 0, 'no empty drawing');
    assert.equal(calls.empty, 'true');
    assert.match(calls.text, lang === 'en'
      ? /^Downstream calls per secondNo downstream calls in this run: its jobs call no external system/
      : /^下流への呼び出し（毎秒）この実行では下流の呼び出しはありません（ジョブが外部システムを呼びません）。/);
    assert.ok(calls.height < 140 && calls.height < attempts / 2, `a short card (${calls.height} px beside ${attempts} px)`);
    await page.locator(`${sel} .sim-charts`).scrollIntoViewIfNeeded();
    await screenshot(page, `${lang}-sim-charts-no-calls`);
    // A run with calls still draws its chart.
    const burst = await runPreset(page, 'burst-leveling', 'direct');
    assert.equal(await page.$$eval(`${burst} figure[data-chart="calls"] svg.plot .plot-bar`, (b) => b.length > 0), true);
    assert.equal(await page.$(`${burst} figure[data-chart="calls"] .chart-none-why`), null);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

/** Boxes of each chart's texts: axis titles (plot-unit) and bar values (plot-value). */
async function chartTexts(page, sel) {
  return page.$$eval(`${sel} .sim-charts figure[data-chart] svg.plot`, (svgs) => svgs.map((svg) => {
    const box = (e) => { const r = e.getBoundingClientRect(); return { l: r.left, r: r.right, t: r.top, b: r.bottom, s: e.textContent }; };
    return {
      id: svg.closest('figure').dataset.chart,
      units: [...svg.querySelectorAll('.plot-unit')].map(box),
      values: [...svg.querySelectorAll('.plot-value, .plot-tick')].map(box),
    };
  }));
}

const overlaps = (a, b) => a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b;

// Charts drawn: those that carry meaning (depth and attempts; plus calls with a downstream;
// only calls when nothing was queued).
for (const [scenario, variant, drawn] of [['retry-dead-letter', 'seed', 2], ['burst-leveling', 'queue-redelivery', 3], ['burst-leveling', 'direct', 1]]) {
  for (const lang of ['en', 'ja']) {
    test(`${lang} 1280px ${scenario}/${variant}: axis titles never overlap value or tick labels`, async () => {
      const page = await openSimulate(browser, server.url, lang, 1280);
      const sel = await runPreset(page, scenario, variant);
      const charts = await chartTexts(page, sel);
      assert.equal(charts.length, drawn);
      for (const c of charts) {
        for (const u of c.units) {
          for (const v of c.values) {
            assert.ok(!overlaps(u, v), `${c.id}: axis title "${u.s}" overlaps "${v.s}"`);
          }
        }
      }
      if (scenario === 'retry-dead-letter') await screenshot(page, `${lang}-1280-sim-charts-latency`);
      await page.context().close();
    });
  }
}
