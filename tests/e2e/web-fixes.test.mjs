// Defects found by a fresh-user review of the web app: findings links that land under the
// sticky header, the findings summary's labels and layout, the job-name pair's warnings
// aligned, the latency chart's axis title clear of the bar values, last_error in the page's
// language, the state-machine box following the lit transition on a phone, and the stepper's
// speed label and slider name. Screenshots in en and ja at 1280 and 390 px.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, openSimulate, runPreset, openSheet, screenshot } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const open = (lang, width) => openPage(browser, server.url, { locale: lang, width, height: width < 600 ? 844 : 900 });

/** Rect of `sel` in viewport coordinates. */
const rect = (page, sel) => page.$eval(sel, (e) => {
  const r = e.getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
});

/** Asserts the element `sel` (and the label of an input) lies below the sticky top bar and
 * inside the viewport. */
async function assertVisible(page, sel, what) {
  const bar = await rect(page, '.topbar');
  const vh = await page.evaluate(() => innerHeight);
  const own = await rect(page, sel);
  const label = await page.$eval(sel, (e) => {
    const l = e.id && document.querySelector(`label[for="${e.id}"]`);
    if (!l) return null;
    const r = l.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom };
  });
  for (const [name, r] of [['field', own], ['label', label]]) {
    if (!r) continue;
    assert.ok(r.top >= bar.bottom - 0.5, `${what}: ${name} top ${r.top} is under the header (bottom ${bar.bottom})`);
    assert.ok(r.bottom <= vh + 0.5, `${what}: ${name} bottom ${r.bottom} below the viewport ${vh}`);
  }
}

for (const [lang, width] of [['en', 1280], ['en', 390], ['ja', 1280], ['ja', 390]]) {
  test(`${lang} ${width}px: findings links land below the header, labelled by their field`, async () => {
    const page = await open(lang, width);
    await openSheet(page);
    const links = await page.$$eval('.sheet-side .findings li > a', (as) => as.map((a) => [a.getAttribute('href'), a.textContent]));
    const label = (id) => page.textContent(`label[for="${id}"]`);
    // Each link is named by its own field, as the field's label says.
    assert.deepEqual(links.slice(0, 3).map(([h]) => h), ['#process-name', '#code-name', '#trigger']);
    assert.equal(links[0][1], await label('process-name'));
    assert.equal(links[1][1], await label('code-name'));
    assert.notEqual(links[0][1], links[1][1]);
    // Link, then its message below it: no dangling dash.
    const items = await page.$$eval('.sheet-side .findings li', (lis) => lis.map((li) => {
      const a = li.querySelector('a').getBoundingClientRect();
      const p = li.querySelector('.finding').getBoundingClientRect();
      return { text: li.textContent, gap: p.top - a.bottom };
    }));
    for (const it of items) {
      assert.doesNotMatch(it.text, /—/, `dangling dash in ${it.text}`);
      assert.ok(it.gap >= -0.5, `message starts below its link: ${it.text}`);
    }
    await screenshot(page, `${lang}-${width}-web-fixes-findings`);
    // Scroll away, then follow each link: the field is focused and shown with its label.
    for (const id of ['process-name', 'code-name', 'trigger']) {
      await page.evaluate(() => scrollTo(0, document.body.scrollHeight));
      await page.click(`.sheet-side .findings a[href="#${id}"]`);
      await page.waitForFunction((i) => document.activeElement?.id === i || location.hash === `#${i}`, id);
      await assertVisible(page, `#${id}`, `${lang} ${width} #${id}`);
    }
    await screenshot(page, `${lang}-${width}-web-fixes-jumped`);
    // A section scrolled to as an anchor's target (the app keeps the URL's fragment for its
    // screens, so scrollIntoView, which honours the same scroll margins).
    await page.evaluate(() => { scrollTo(0, document.body.scrollHeight); document.querySelector('#sec-process').scrollIntoView(); });
    await assertVisible(page, '#sec-process legend', `${lang} ${width} #sec-process`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

for (const lang of ['en', 'ja']) {
  test(`${lang} 1280px: the job-name pair's warnings start at the same height`, async () => {
    const page = await open(lang, 1280);
    await openSheet(page);
    const a = await rect(page, '.sheet-form [data-finding="no-process-name"]');
    const b = await rect(page, '.sheet-form [data-finding="no-code-name"]');
    assert.ok(Math.abs(a.top - b.top) < 1, `process name's warning at ${a.top}, name in code's at ${b.top}`);
    // The pair's hint is still shown, once.
    const hint = lang === 'en' ? 'name in code and human name' : 'コード上の名前と日本語名';
    const hints = await page.$$eval('#sec-process .hint', (ps) => ps.map((p) => p.textContent));
    assert.equal(hints.filter((h) => h === hint).length, 1);
    await screenshot(page, `${lang}-1280-web-fixes-name-pair`);
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

for (const [scenario, variant] of [['retry-dead-letter', 'seed'], ['burst-leveling', 'queue-redelivery'], ['burst-leveling', 'direct']]) {
  for (const lang of ['en', 'ja']) {
    test(`${lang} 1280px ${scenario}/${variant}: axis titles never overlap value or tick labels`, async () => {
      const page = await openSimulate(browser, server.url, lang, 1280);
      const sel = await runPreset(page, scenario, variant);
      const charts = await chartTexts(page, sel);
      assert.ok(charts.length >= 3);
      for (const c of charts) {
        for (const u of c.units) {
          for (const v of c.values) {
            assert.ok(!overlaps(u, v), `${c.id}: axis title "${u.s}" overlaps "${v.s}"`);
          }
        }
      }
      if (scenario === 'retry-dead-letter') await screenshot(page, `${lang}-1280-web-fixes-latency`);
      await page.context().close();
    });
  }
}

test('ja: the jobs table shows last_error in Japanese, as the event log does', async () => {
  const page = await openSimulate(browser, server.url, 'ja', 1280);
  const sel = await runPreset(page, 'burst-leveling', 'queue-redelivery');
  const errors = await page.$$eval(`${sel} table.jobs td:nth-child(5)`, (tds) => tds.map((t) => t.textContent).filter(Boolean));
  assert.ok(errors.length > 0, 'some job has a last_error');
  for (const e of errors) assert.doesNotMatch(e, /downstream is|too many requests|worker lost/, e);
  assert.ok(errors.some((e) => e.startsWith('busy：')), errors.join(' | '));
  await screenshot(page, 'ja-1280-web-fixes-last-error');
  // Switching to English shows the English text again.
  await page.click('[data-lang="en"]');
  const en = await page.$$eval(`${sel} table.jobs td:nth-child(5)`, (tds) => tds.map((t) => t.textContent).filter(Boolean));
  assert.ok(en.some((e) => e === 'busy: downstream is locked by another write'), en.join(' | '));
  await page.context().close();
});

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
    await screenshot(page, `${lang}-390-web-fixes-diagram`);
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
