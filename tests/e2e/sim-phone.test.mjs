// The charts fixes in real Chromium: at 390 px the chart and state-machine text renders at a
// readable size (the SVG scrolls sideways instead of shrinking), the event log scrolls
// sideways instead of cutting lines, and each sideways-scrolling box says so (the state machine
// stacks its states instead, all in view); duplicate-execution's one job draws no depth or latency chart;
// Compare puts the differences first and draws both columns on the same axes.
// Screenshots: {en,ja}-sim-phone, {en,ja}-sim-phone-compare, {en,ja}-sim-wide-compare.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, screenshot, openPage, openSimulate, runPreset } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

/** Smallest rendered height (px) of the texts matching `sel`. */
const minTextPx = (page, sel) => page.$$eval(sel, (els) => Math.min(...els
  .map((e) => e.getBoundingClientRect().height).filter((h) => h > 0)));

for (const lang of ['en', 'ja']) {
  test(`at 390 px charts, state machine and log lines are readable (${lang})`, async () => {
    const page = await openSimulate(browser, server.url, lang, 390);
    await runPreset(page, 'duplicate-execution', 'plain');
    const tick = await minTextPx(page, '.sim-result .sim-charts svg.plot .plot-tick');
    assert.ok(tick >= 9, `chart tick labels render at ${tick} px`);
    const sm = await minTextPx(page, '.state-machine svg text');
    assert.ok(sm >= 9, `state-machine labels render at ${sm} px`);
    // The boxes that scroll sideways say so; the state machine stacks its states instead of
    // scrolling (no hint), every state in view.
    const hints = await page.$$eval('.sim-result [data-scroll-hint]', (ps) =>
      Object.fromEntries(ps.map((p) => [p.dataset.scrollHint, p.offsetParent !== null ? p.textContent : ''])));
    assert.equal(hints['state-machine'], undefined, JSON.stringify(hints));
    assert.ok(hints.charts && hints.log, JSON.stringify(hints));
    const sm0 = await page.$eval('.state-machine', (box) => {
      const b = box.getBoundingClientRect();
      const rs = [...box.querySelectorAll('[data-state] rect')].map((r) => r.getBoundingClientRect());
      return { box: [b.left, b.right], states: rs.map((r) => [r.left, r.right]), scroll: box.scrollWidth - box.clientWidth };
    });
    assert.equal(sm0.states.length, 4);
    for (const [l, r] of sm0.states) assert.ok(l >= sm0.box[0] - 1 && r <= sm0.box[1] + 1, `state in view: ${JSON.stringify(sm0)}`);
    assert.ok(sm0.scroll <= 1, `the diagram does not scroll sideways: ${JSON.stringify(sm0)}`);
    // The page itself does not scroll sideways: the SVG boxes do.
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1));
    // Whole log lines: none is cut, and the box scrolls sideways when a line is wider.
    const log = await page.$eval('.event-log', (box) => {
      const lis = [...box.querySelectorAll('li')];
      return {
        cut: lis.filter((li) => li.scrollWidth > li.clientWidth + 1).length,
        widest: Math.max(...lis.map((li) => li.scrollWidth)),
        box: box.clientWidth,
        scroll: box.scrollWidth,
        heights: [...new Set(lis.map((li) => Math.round(li.getBoundingClientRect().height)))],
      };
    });
    assert.equal(log.cut, 0, 'no line is cut');
    assert.ok(log.widest > log.box, `some line is wider than the box (${log.widest} > ${log.box})`);
    assert.ok(log.scroll >= log.widest, 'the box scrolls to the end of the widest line');
    assert.deepEqual(log.heights, [20], 'rows keep their fixed height');
    // One job: no queue to drain and no percentiles — one line each; the worker timeline
    // shows the lesson instead (its box scrolls sideways, the page does not).
    for (const id of ['depth', 'latency']) {
      const f = await page.$eval(`.sim-result figure[data-chart="${id}"]`, (f) => ({ svgs: f.querySelectorAll('svg').length, empty: f.dataset.empty }));
      assert.deepEqual(f, { svgs: 0, empty: 'true' }, id);
    }
    const tlTick = await minTextPx(page, '.sim-result .sim-timeline svg.plot .plot-tick');
    assert.ok(tlTick >= 9, `timeline labels render at ${tlTick} px`);
    // No downstream in this preset: a line saying so, no drawing.
    const calls = await page.$eval('.sim-result figure[data-chart="calls"]', (f) => ({
      svgs: f.querySelectorAll('svg').length, note: f.querySelector('.chart-none-why')?.textContent,
    }));
    assert.equal(calls.svgs, 0);
    assert.match(calls.note, lang === 'en' ? /No downstream calls/ : /下流の呼び出しはありません/);
    await page.locator('.sim-result .sim-charts').scrollIntoViewIfNeeded();
    await screenshot(page, `${lang}-sim-phone`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  for (const width of [390, 1280]) {
    test(`compare at ${width} px: differences first, shared axes, the lesson called out (${lang})`, async () => {
      const page = await openSimulate(browser, server.url, lang, width);
      await page.click('.preset[data-scenario="claim-race"]');
      await page.check('#variant-two-statement');
      await page.click('#compare-run');
      await page.waitForSelector('.compare-result .compare-col[data-side="b"] figure[data-chart="depth"] svg');
      // The table comes before the charts.
      const order = await page.$eval('.compare-result', (r) => {
        const table = r.querySelector('table.compare-diff');
        const cols = r.querySelector('.compare-cols');
        return table.compareDocumentPosition(cols) & Node.DOCUMENT_POSITION_FOLLOWING;
      });
      assert.ok(order, 'Differences before the charts');
      const claims = await page.$$eval('tr[data-diff="claims"] td', (t) => t.map((e) => e.textContent));
      assert.deepEqual(claims.slice(0, 2), ['A: #1, B: #1', 'A: #1, B: #2']);
      const hidden = await page.$eval('.compare-result .table-wrap', (w) => w.scrollHeight - w.clientHeight);
      assert.ok(hidden <= 1, `the differences table shows every row (${hidden} px hidden)`);
      // Same ticks on both sides, chart by chart.
      for (const id of ['depth', 'attempts']) {
        const ticks = await page.$$eval(`.compare-col figure[data-chart="${id}"] svg`, (svgs) => svgs.map((s) =>
          [...s.querySelectorAll('.plot-y .plot-tick')].map((t) => t.textContent).join(',')));
        assert.equal(ticks.length, 2);
        assert.equal(ticks[0], ticks[1], `${id}: same y axis in A and B`);
      }
      // Scroll hints only where the boxes scroll sideways.
      const shown = await page.$$eval('[data-scroll-hint]', (ps) => ps.filter((p) => p.offsetParent !== null).length);
      if (width === 1280) assert.equal(shown, 0, 'no scroll hint on a wide screen');
      else assert.ok(shown > 0, 'scroll hints on a phone');
      if (width === 390) {
        const tick = await minTextPx(page, '.compare-col svg.plot .plot-tick');
        assert.ok(tick >= 9, `compare tick labels render at ${tick} px`);
      }
      await page.locator('.compare-result').scrollIntoViewIfNeeded();
      await screenshot(page, `${lang}-sim-${width === 390 ? 'phone' : 'wide'}-compare`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
}
