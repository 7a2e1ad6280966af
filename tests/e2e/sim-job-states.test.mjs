// The job-state diagram on a 390 px phone in real Chromium: it stacks its states (no sideways
// scroll) with "queued" in view, stepping keeps the lit transition, its label and its state in
// view, and the stepper's slider and Speed label read right.
// Screenshots: {en,ja}-390-sim-job-states-start, {en,ja}-390-sim-job-states-stepping.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openSimulate, runPreset, screenshot } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

for (const lang of ['en', 'ja']) {
  test(`at 390 px the state machine opens at its start, "queued" in view (${lang})`, async () => {
    const page = await openSimulate(browser, server.url, lang, 390);
    await runPreset(page, 'duplicate-execution', 'plain');
    const sm = await page.$eval('.state-machine', (box) => {
      const b = box.getBoundingClientRect();
      const q = box.querySelector('[data-state="queued"] rect').getBoundingClientRect();
      const entry = box.querySelector('circle.entry').getBoundingClientRect();
      return { box: [b.left, b.right], queued: [q.left, q.right], entry: entry.left, scrolled: box.scrollLeft, wider: box.scrollWidth > box.clientWidth };
    });
    assert.equal(sm.scrolled, 0, JSON.stringify(sm));
    assert.ok(!sm.wider, 'the stacked drawing fits the phone: no sideways scroll');
    assert.ok(sm.queued[0] >= sm.box[0] - 1 && sm.queued[1] <= sm.box[1] + 1, `queued in view: ${JSON.stringify(sm)}`);
    assert.ok(sm.entry >= sm.box[0] - 1, 'the entry arrow too');
    await page.locator('.state-machine').scrollIntoViewIfNeeded();
    await screenshot(page, `${lang}-390-sim-job-states-start`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

for (const lang of ['en', 'ja']) {
  test(`${lang} 390px: stepping keeps the lit transition and its state in the diagram's view`, async () => {
    const page = await openSimulate(browser, server.url, lang, 390);
    await runPreset(page, 'retry-dead-letter', 'seed');
    const inView = () => page.evaluate(() => {
      const box = document.querySelector('.state-machine').getBoundingClientRect();
      const lit = [...document.querySelectorAll('.state-machine .edge.active')];
      // Each lit arrow with the state box it leads to.
      return lit.map((g) => {
        const a = g.getBoundingClientRect();
        const n = document.querySelector(`.state-machine [data-state="${g.dataset.to}"]`).getBoundingClientRect();
        const r = { left: Math.min(a.left, n.left), right: Math.max(a.right, n.right) };
        return { t: g.dataset.transition, ok: r.left >= box.left - 1 && r.right <= box.right + 1, l: r.left, r: r.right, bl: box.left, br: box.right };
      });
    });
    // All lit arrows in view; when they are wider than the box together (claim and
    // complete in one step), the rightmost one whole and the others partly.
    const shown = (lit) => {
      if (lit.every((x) => x.ok)) return true;
      const last = lit.reduce((a, b) => (b.r > a.r ? b : a));
      return last.ok && lit.every((x) => x.r > x.bl && x.l < x.br) && Math.max(...lit.map((x) => x.r)) - Math.min(...lit.map((x) => x.l)) > x0(lit);
    };
    const x0 = (lit) => lit[0].br - lit[0].bl;
    // The finished run sits on its last step (dead-letter, at the right of the drawing) and
    // the diagram opens at its start (sim-phone.test.mjs); stepping moves it.
    let lit = await inView();
    assert.deepEqual(lit.map((x) => x.t), ['dead-letter']);
    assert.equal(await page.$eval('.state-machine', (b) => b.scrollLeft), 0);
    // Back to the start and step through: each lit transition is in view.
    await page.click('#step-start');
    const frames = Number(await page.getAttribute('.step-view', 'data-frames'));
    for (let i = 1; i < frames; i++) {
      await page.click('#step-forward');
      await page.waitForFunction((p) => document.querySelector('.step-view').dataset.pos === String(p), i);
      lit = await inView();
      assert.ok(shown(lit), `step ${i}: ${JSON.stringify(lit)}`);
    }
    assert.deepEqual(lit.map((x) => x.t), ['dead-letter']);
    await screenshot(page, `${lang}-390-sim-job-states-stepping`);
    // The slider and the forward button have different names; Speed stays beside its select.
    const slider = await page.getAttribute('#step-slider', 'aria-label');
    const forward = await page.getAttribute('#step-forward', 'aria-label') ?? await page.textContent('#step-forward');
    assert.notEqual(slider, forward);
    assert.equal(slider, lang === 'en' ? 'Step position' : 'ステップの位置');
    const speed = await page.$eval('#step-speed', (s) => {
      const l = (s.labels && s.labels[0]) || s.closest('label');
      const a = l.getBoundingClientRect();
      const b = s.getBoundingClientRect();
      return { lt: a.top, lb: a.bottom, st: s.getBoundingClientRect().top, sb: b.bottom, same: l.contains(s) };
    });
    assert.ok(speed.same || (speed.lt < speed.sb && speed.st < speed.lb), `Speed label and select on one line: ${JSON.stringify(speed)}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
