// The worker timeline and the charts that carry meaning, in real Chromium: duplicate execution
// draws two lanes with the second side effect on B's lane, its cursor follows the stepper; a
// 1-job preset has no percentile chart (one line says why); the run's elapsed time is shown;
// the charts still render in both languages.
// Screenshots: {en,ja}-{1280,390}-sim-timeline.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openSimulate, runPreset, screenshot } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const TL = '.sim-result figure.sim-timeline svg.plot-lanes';

/** The cursor's x (viewBox units) from its group's transform. */
const cursorX = (page) => page.$eval(`${TL} g.plot-now`, (g) => Number(/translate\(([\d.]+)/.exec(g.getAttribute('transform'))[1]));

for (const lang of ['en', 'ja']) {
  for (const width of [1280, 390]) {
    test(`duplicate execution: two lanes, the second side effect, no percentiles, the elapsed time (${lang}, ${width} px)`, async () => {
      const page = await openSimulate(browser, server.url, lang, width);
      const sel = await runPreset(page, 'duplicate-execution', 'plain');
      await page.waitForSelector(TL);
      const tl = await page.$eval(TL, (svg) => ({
        lanes: [...svg.querySelectorAll('g.plot-lane')].map((g) => ({
          name: g.querySelector('.plot-tick').textContent,
          effects: g.querySelectorAll('.plot-symbol.s-effect').length,
          runs: g.querySelectorAll('rect.plot-bar').length,
          leases: g.querySelectorAll('rect.plot-window').length,
        })),
        strips: svg.querySelectorAll('g.plot-strip').length,
        title: svg.querySelector('title').textContent,
        desc: svg.querySelector('desc').textContent,
        label: svg.getAttribute('aria-label'),
        styled: svg.querySelectorAll('[style]').length,
      }));
      assert.deepEqual(tl.lanes, [
        { name: 'A', effects: 1, runs: 1, leases: 1 },
        { name: 'B', effects: 1, runs: 1, leases: 1 },
      ], 'lane B shows the second side effect');
      assert.equal(tl.strips, 1, "job#1's status under the lanes");
      assert.equal(tl.styled, 0, 'no inline style (CSP)');
      assert.equal(tl.title, lang === 'en' ? 'Worker timeline' : 'ワーカーのタイムライン');
      assert.equal(tl.label, tl.title);
      assert.match(tl.desc, lang === 'en' ? /B runs job#1 attempt 2 from 1,031 s/ : /B が job#1 の試行 2 を 1,031 秒から/);
      // One job: the percentiles would be four equal bars; one line says why instead.
      const latency = await page.$eval(`${sel} figure[data-chart="latency"]`, (f) => ({
        svgs: f.querySelectorAll('svg').length, empty: f.dataset.empty, why: f.querySelector('.chart-none-why')?.textContent,
      }));
      assert.equal(latency.svgs, 0);
      assert.equal(latency.empty, 'true');
      assert.match(latency.why, lang === 'en' ? /20 finished jobs.*this run finished 1\./ : /20 件以上.*完了したのは 1 件/);
      // The attempts chart still draws (in the reader's language).
      const att = await page.$eval(`${sel} figure[data-chart="attempts"] svg.plot`, (s) => s.querySelector('title').textContent);
      assert.equal(att, lang === 'en' ? 'Attempts per job' : 'ジョブごとの試行回数');
      // How long the run took: simulated time, and the computation's wall-clock time.
      const took = await page.textContent(`${sel} [data-fact="elapsed"] dd`);
      assert.match(took, lang === 'en'
        ? /^1,031\.0 s of simulated time \(computed in [\d,]+ ms of wall-clock time in your browser\)$/
        : /^シミュレーション上の時間で 1,031\.0 秒（ブラウザでの計算は実時間で [\d,]+ ミリ秒）$/);
      // The cursor follows the stepper: at the start it sits at the axis' left end.
      const end = await cursorX(page);
      await page.click('#step-start');
      await page.waitForFunction((e) => {
        const g = document.querySelector('.sim-result svg.plot-lanes g.plot-now');
        return Number(/translate\(([\d.]+)/.exec(g.getAttribute('transform'))[1]) < e;
      }, end);
      const x0 = await page.$eval(TL, (s) => Number(s.dataset.x0) / 10);
      assert.equal(await cursorX(page), x0);
      await page.click('#step-end');
      await page.waitForFunction((e) => {
        const g = document.querySelector('.sim-result svg.plot-lanes g.plot-now');
        return Number(/translate\(([\d.]+)/.exec(g.getAttribute('transform'))[1]) === e;
      }, end);
      if (width === 390) {
        // The page does not scroll sideways: the timeline's box does.
        assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1));
      }
      await page.locator(`${sel} figure.sim-timeline`).scrollIntoViewIfNeeded();
      await screenshot(page, `${lang}-${width}-sim-timeline`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
}

test('burst with direct calls: no queue, so no states to step through and no timeline', async () => {
  const page = await openSimulate(browser, server.url, 'en');
  const sel = await runPreset(page, 'burst-leveling', 'direct');
  assert.equal(await page.$(`${sel} .step-view`), null);
  assert.equal(await page.$(`${sel} figure.sim-timeline`), null);
  assert.equal(await page.$$eval(`${sel} figure[data-chart="calls"] svg.plot .plot-bar`, (b) => b.length > 0), true);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('compare of duplicate execution: the charts both runs drew the same are named once', async () => {
  const page = await openSimulate(browser, server.url, 'en');
  await page.click('.preset[data-scenario="duplicate-execution"]');
  await page.check('#variant-plain');
  await page.fill('#seed', '1');
  await page.click('#compare-run');
  await page.waitForSelector('.compare-result [data-same-charts]');
  assert.equal(await page.getAttribute('.compare-result [data-same-charts]', 'data-same-charts'), 'depth attempts latency calls');
  assert.match(await page.textContent('.compare-result [data-same-charts]'), /^Same in both runs \(not drawn twice\): Queue depth over time, /);
  assert.equal(await page.$$eval('.compare-col figure.sim-chart', (f) => f.length), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
