// Text alternatives and fit (issue 17, parts 3 and 4), in real Chromium:
// - after answering, the flowchart's accessible description (its <desc>, named by
//   aria-describedby) says the path and the outcome, in English and Japanese;
// - a chart's "Show data" opens a table with one row per bar the chart draws;
// - at 390 px and at 200 % zoom (640 CSS px at device scale 2), while a run plays, every state
//   box of the job-state diagram is inside the viewport horizontally, the page does not scroll
//   sideways, and every box that still scrolls is focusable and named.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, openSimulate, runPreset, answer, screenshot } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

/** The accessible name and description Chromium computes for the flowchart's SVG. */
async function flowchartAx(page) {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  const chart = nodes.filter((n) => /^(Decision flowchart|判断フローチャート)$/.test(n.name?.value ?? ''));
  await cdp.detach();
  return chart.map((n) => ({ name: n.name.value, description: n.description?.value ?? '' }));
}

for (const [lang, outcome, path] of [
  ['en', 'Asynchronous: enqueue a job', /^Path: Is the trigger .*\? No → Does the user need .*\? No → outcome: /],
  ['ja', '非同期：ジョブをキューに登録', /^経路：起点は時刻で.*？ いいえ → 利用者は.*？ いいえ → 判断：/],
]) {
  test(`the flowchart's description says the path and the outcome (${lang})`, async () => {
    const page = await openPage(browser, server.url, { locale: lang });
    // Before any answer: the next question, no outcome.
    let ax = await flowchartAx(page);
    assert.equal(ax.length, 1, JSON.stringify(ax));
    assert.ok(!ax[0].description.includes(outcome), ax[0].description);
    await answer(page, 'time-triggered', 'no');
    await answer(page, 'needs-result-now', 'no');
    await page.waitForSelector('article.result');
    ax = await flowchartAx(page);
    assert.equal(ax.length, 1, JSON.stringify(ax));
    assert.match(ax[0].description, path);
    assert.ok(ax[0].description.endsWith(outcome), ax[0].description);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('a chart\'s "Show data" opens a table with a row per attempts count', async () => {
  const page = await openSimulate(browser, server.url, 'en');
  const sel = await runPreset(page, 'retry-dead-letter', 'seed');
  const fig = `${sel} figure[data-chart="attempts"]`;
  const table = `${fig} details.chart-data table.chart-table`;
  assert.equal(await page.isVisible(table), false, 'closed at first');
  await page.click(`${fig} details.chart-data summary`);
  await page.waitForSelector(table, { state: 'visible' });
  const t = await page.$eval(fig, (f) => ({
    heads: [...f.querySelectorAll('table th')].map((h) => h.textContent),
    rows: [...f.querySelectorAll('table tbody tr')].map((r) => [...r.cells].map((c) => c.textContent)),
    slots: [...f.querySelectorAll('svg rect.plot-bar')].map((r) => Number(r.dataset.slot)),
    legend: [...f.querySelectorAll('svg .plot-legend [data-series]')].map((g) => g.textContent),
    summary: f.querySelector('summary').textContent,
  }));
  assert.equal(t.summary, 'Show data');
  assert.deepEqual(t.heads, ['Attempts', 'done (jobs)', 'dead (jobs)', 'queued / running (jobs)']);
  assert.ok(t.rows.length > 1, JSON.stringify(t.rows));
  // One row per attempts count, 1, 2, 3 …; the highest bar drawn is in the table.
  assert.deepEqual(t.rows.map((r) => r[0]), t.rows.map((_, i) => String(i + 1)));
  assert.ok(t.slots.length > 0 && Math.max(...t.slots) < t.rows.length, JSON.stringify(t.slots));
  // The columns add up to the legend's totals.
  const sum = (c) => t.rows.reduce((a, r) => a + Number(r[c].replace(/[ ,]/g, '')), 0);
  assert.deepEqual(t.legend.slice(0, 2), [`done (${sum(1)})`, `dead (${sum(2)})`]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

for (const lang of ['en', 'ja']) {
  for (const [name, opts] of [
    ['390 px', { width: 390, height: 844, scale: 1 }],
    ['200 % zoom', { width: 640, height: 450, scale: 2 }],
  ]) {
    test(`at ${name} every job state is in view while playing, no sideways page scroll (${lang})`, async () => {
      const context = await browser.newContext({
        locale: lang, viewport: { width: opts.width, height: opts.height }, deviceScaleFactor: opts.scale,
      });
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(server.url);
      await page.waitForSelector('form.question');
      await page.click('.tabs button:nth-child(3)');
      await page.waitForSelector('section.simulate');
      const sel = await runPreset(page, 'retry-dead-letter', 'seed');
      await page.waitForSelector(`${sel} .step-view`);
      await page.click('#step-play');
      await page.waitForFunction(() => Number(document.querySelector('.step-view').dataset.pos) >= 2);
      const fit = await page.evaluate(() => {
        const boxes = [...document.querySelectorAll('.state-machine [data-state] rect')].map((r) => {
          const b = r.getBoundingClientRect();
          return [r.parentElement.dataset.state, Math.round(b.left), Math.round(b.right)];
        });
        const el = document.documentElement;
        return {
          playing: document.querySelector('.step-view').dataset.playing,
          layout: document.querySelector('.state-machine').dataset.layout,
          boxes, width: window.innerWidth, scroll: el.scrollWidth, client: el.clientWidth,
        };
      });
      assert.equal(fit.playing, 'true');
      assert.equal(fit.layout, 'tall');
      assert.deepEqual(fit.boxes.map((b) => b[0]), ['queued', 'running', 'done', 'dead']);
      for (const [state, left, right] of fit.boxes) {
        assert.ok(left >= 0 && right <= fit.width, `${state} at ${left}…${right} of ${fit.width}`);
      }
      assert.ok(fit.scroll <= fit.client, `page scrolls sideways: ${fit.scroll} > ${fit.client}`);
      // Readable: the diagram's text is not shrunk below 9 px.
      const px = await page.$$eval('.state-machine svg text', (ts) => Math.min(...ts
        .map((t) => t.getBoundingClientRect().height).filter((h) => h > 0)));
      assert.ok(px >= 9, `state texts at ${px} px`);
      await page.click('#step-play');
      // Every box that scrolls (the charts, tables, the timeline, the log) can take focus and
      // has a name.
      const scrollers = await page.$$eval(`${sel} *`, (els) => els.filter((e) => {
        const s = getComputedStyle(e);
        const x = /auto|scroll/.test(s.overflowX) && e.scrollWidth > e.clientWidth + 1;
        const y = /auto|scroll/.test(s.overflowY) && e.scrollHeight > e.clientHeight + 1;
        return (x || y) && e.offsetParent !== null;
      }).map((e) => ({
        cls: e.className, tab: e.getAttribute('tabindex'), role: e.getAttribute('role'),
        label: e.getAttribute('aria-label') || (e.getAttribute('aria-labelledby') ? 'by' : ''),
      })));
      assert.ok(scrollers.length > 0, 'some box scrolls (the charts at this width)');
      for (const s of scrollers) {
        assert.equal(s.tab, '0', JSON.stringify(s));
        assert.ok(['region', 'log'].includes(s.role), JSON.stringify(s));
        assert.ok(s.label, JSON.stringify(s));
      }
      await screenshot(page, `${lang}-sim-fit-${opts.width}`);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
}
