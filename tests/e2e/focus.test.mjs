// Keyboard focus and announcements in real Chromium: after a simulator run finishes, focus is
// on the result's heading; when the sheet opens, on the sheet's heading. The simulator's and
// Compare's live regions say when a run starts and when it finishes — each once, never the
// progress — in English and Japanese; a language switch says nothing again.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, openSimulate, answer } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

// Independent expectations: what the live regions say.
const SAID = {
  en: { start: 'Starting the simulation worker…', done: 'Run finished. The result follows.',
    compareStart: 'Running A…', compareDone: 'Comparison finished. The differences follow.' },
  ja: { start: 'シミュレーション用ワーカーを起動しています…', done: '実行が終わりました。結果を下に表示しています。',
    compareStart: 'A を実行中…', compareDone: '比較が終わりました。違いを下に表示しています。' },
};

/** Records every change of the live region `sel`: `window.said[sel]` gets its text after each
 * mutation record (so a flood of updates would show as many entries). */
async function watch(page, sel) {
  await page.evaluate((sel) => {
    window.said ??= {};
    window.said[sel] = [];
    const el = document.querySelector(sel);
    new MutationObserver((records) => {
      for (let i = 0; i < records.length; i++) window.said[sel].push(el.textContent);
    }).observe(el, { childList: true, characterData: true, subtree: true });
  }, sel);
}
const said = (page, sel) => page.evaluate((sel) => window.said[sel], sel);
const focused = (page) => page.evaluate(() => document.activeElement?.id ?? '');

/** Presses Run for `preset` with seed 1 and waits until the run is over. */
async function run(page, preset) {
  await page.click(`.preset[data-scenario="${preset}"]`);
  await page.fill('#seed', '1');
  await page.click('#sim-run');
  await page.waitForSelector(`.sim-result[data-scenario="${preset}"]`, { timeout: 120_000 });
  await page.waitForSelector('#sim-run:enabled');
  await page.waitForTimeout(100);
}

for (const lang of ['en', 'ja']) {
  test(`${lang}: after Run the result's heading has focus; start and finish are each said once`, async () => {
    const page = await openSimulate(browser, server.url, lang);
    assert.equal(await page.getAttribute('#sim-live', 'aria-live'), 'polite');
    assert.equal(await page.textContent('#sim-live'), '', 'nothing said before a run');
    await watch(page, '#sim-live');
    // The load preset with many jobs reports its progress many times while it runs.
    await page.click('.preset[data-scenario="mmc-load"]');
    await page.fill('#jobs', '100000');
    const progress = [];
    await page.exposeFunction('progressSeen', (t) => progress.push(t));
    await page.evaluate(() => {
      const slot = document.querySelector('#sim-live').nextElementSibling;
      new MutationObserver(() => {
        const p = slot.querySelector('[data-status="running"]');
        if (p) window.progressSeen(p.textContent);
      }).observe(slot, { childList: true, characterData: true, subtree: true });
    });
    await run(page, 'mmc-load');
    assert.ok(progress.length >= 3, `the progress line changed ${progress.length} times`);
    assert.equal(await focused(page), 'sim-result-title', 'focus on the result heading');
    assert.equal(await page.getAttribute('#sim-result-title', 'tabindex'), '-1');
    assert.deepEqual(await said(page, '#sim-live'), [SAID[lang].start, SAID[lang].done],
      `said once each (progress shown ${progress.length} times)`);

    // A second run: said again, once each; focus back on the (new) result's heading.
    await page.focus('#seed');
    await run(page, 'retry-dead-letter');
    assert.equal(await focused(page), 'sim-result-title');
    assert.deepEqual(await said(page, '#sim-live'), [SAID[lang].start, SAID[lang].done, SAID[lang].start, SAID[lang].done]);

    // A language switch rewords the screen but says nothing again.
    const other = lang === 'en' ? 'ja' : 'en';
    await page.click(`.lang button[data-lang="${other}"]`);
    await page.waitForSelector(`html[lang="${other}"]`);
    assert.equal((await said(page, '#sim-live')).length, 4, 'a language switch says nothing');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test(`${lang}: Compare says its start and finish once each`, async () => {
    const page = await openSimulate(browser, server.url, lang);
    await page.click('.preset[data-scenario="duplicate-execution"]');
    await watch(page, '#compare-live');
    await page.click('#compare-run');
    await page.waitForSelector('.compare-result');
    await page.waitForSelector('#compare-run:enabled');
    await page.waitForTimeout(100);
    assert.deepEqual(await said(page, '#compare-live'), [SAID[lang].compareStart, SAID[lang].compareDone]);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('the sheet\'s heading takes focus when the sheet opens, from the result and from the tab', async () => {
  const page = await openPage(browser, server.url);
  await answer(page, 'time-triggered', 'no');
  await answer(page, 'needs-result-now', 'no');
  await page.waitForSelector('article.result');
  assert.equal(await focused(page), 'result-title', 'the wizard\'s result heading has focus');
  await page.click('#open-sheet');
  await page.waitForSelector('section.sheet');
  assert.equal(await focused(page), 'sheet-title');
  assert.equal(await page.getAttribute('#sheet-title', 'tabindex'), '-1');
  // Back to the questions, then the Sheet tab.
  await page.click('.tabs button:nth-child(1)');
  await page.waitForSelector('article.result');
  await page.click('.tabs button:nth-child(2)');
  await page.waitForSelector('section.sheet');
  assert.equal(await focused(page), 'sheet-title');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
