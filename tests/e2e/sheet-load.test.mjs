// The sheet's "Load and capacity" section, in real Chromium, typed as a user types, in English
// and Japanese: the acceptable wait offered as the wait target, a p95 below the p50 refused
// with a message naming the field and the range while the typed text stays (and copying is
// refused meanwhile), then the numbers and the analytic capacity line in the section, in the
// Markdown copy and in the print view.
// Screenshots: {en,ja}-sheet-load.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, openSheet, screenshot } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const text = (page, sel) => page.$eval(sel, (e) => e.textContent.trim());

const WORDS = {
  en: {
    wait: '10 min',
    p95Error: 'Handler p95: 100 ms is below the median (p50) 200 ms; enter a p95 of at least the median.',
    notSized: "not sized yet: needs the handler's time",
    refused: /^Not copied — Handler p95: /,
    handlerRow: '| Handler time | how long one run takes: median and 95th percentile, or fixed | p50 200 ms, p95 800 ms (lognormal) |',
    capacity: 'offered load 3.00 Erlangs (10.0/s × 1.05 attempts × mean 285 ms); at 4 at once: the workers\' utilisation 75 %, throughput ceiling 13.3/s, bottleneck: the workers; a burst of 500 drains in ≈ 2.5 min (analytic)',
    workers: '2 processes × 2 at once each = 4 jobs at once',
  },
  ja: {
    wait: '10分',
    p95Error: '処理時間のp95：100ミリ秒は中央値（p50）200ミリ秒より小さくなっています。p95には中央値以上の値を入力してください。',
    notSized: '未見積もり：処理時間が必要です',
    refused: /^コピーしませんでした。処理時間のp95：/,
    handlerRow: '| 処理時間 | 1回の実行にかかる時間。中央値と95パーセンタイル、または固定 | p50 200ミリ秒、p95 800ミリ秒（対数正規） |',
    capacity: '提供負荷 3.00 アーラン（10.0件/秒 × 試行1.05回 × 平均285ミリ秒）。同時4件でワーカーの稼働率75%、スループット上限 13.3件/秒、ボトルネック：ワーカー数。500件のバーストは約2.5分で処理し終えます（解析）',
    workers: '2プロセス × 各2件 = 同時4件',
  },
};

/** Types `value` into the input `id` key by key, as a person does. */
async function type(page, id, value) {
  await page.click(`#${id}`, { clickCount: 3 });
  await page.keyboard.press('Backspace');
  await page.type(`#${id}`, value);
}

for (const lang of ['en', 'ja']) {
  test(`the load section: a refused p95 keeps its text; the numbers reach the copy and the print (${lang})`, async () => {
    const page = await openPage(browser, server.url, { locale: lang });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await openSheet(page);
    await page.click('#load-example');
    const w = WORDS[lang];
    await page.waitForSelector('#sec-load');
    // The wait target offers the acceptable wait (10 min), with its reason.
    assert.equal(await page.getAttribute('#target-wait', 'placeholder'), w.wait);
    assert.equal(await page.inputValue('#target-wait'), '');
    await type(page, 'arrival', '10');
    await type(page, 'handler-p50', '200');
    await type(page, 'handler-p95', '100');
    // p95 below p50: refused, naming the field and the range; the typed text stays.
    await page.waitForSelector('[data-field="handler-p95"] .error');
    assert.equal(await text(page, '[data-field="handler-p95"] .error'), w.p95Error);
    assert.equal(await page.inputValue('#handler-p95'), '100');
    assert.equal(await page.getAttribute('#handler-p95', 'aria-invalid'), 'true');
    assert.equal(await text(page, '[data-testid="capacity"]'), w.notSized);
    // Another field taken meanwhile leaves the refused text as typed.
    await type(page, 'workers', '2');
    await page.waitForFunction(() => document.querySelector('[data-testid="capacity"]').textContent.length > 0);
    assert.equal(await page.inputValue('#handler-p95'), '100');
    assert.equal(await text(page, '[data-field="handler-p95"] .error'), w.p95Error);
    // Copying now would hold the last accepted value: refused, naming the field.
    await page.click('[data-format="markdown"] [data-action="copy"]');
    await page.waitForSelector('[data-notice="error"]');
    assert.match(await text(page, '[data-notice="error"]'), w.refused);
    await screenshot(page, `${lang}-sheet-load-refused`);
    // Fixed, and the rest of the numbers typed.
    await type(page, 'handler-p95', '800');
    await page.waitForSelector('[data-field="handler-p95"] .error', { state: 'detached' });
    await type(page, 'failure-rate', '5');
    await type(page, 'concurrency', '2');
    await page.selectOption('#burst-kind', 'at-once');
    await page.waitForSelector('#burst-count');
    await type(page, 'burst-count', '500');
    await page.waitForFunction((want) => document.querySelector('[data-testid="capacity"]').textContent.trim() === want, w.capacity);
    await page.locator('#sec-load').scrollIntoViewIfNeeded();
    await screenshot(page, `${lang}-sheet-load`);
    // The Markdown copy carries the rows.
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await page.click('[data-format="markdown"] [data-action="copy"]');
    await page.waitForSelector('[data-notice="info"]');
    const md = await page.evaluate(() => navigator.clipboard.readText());
    assert.ok(md.includes(w.handlerRow), md);
    assert.ok(md.includes(w.capacity), md);
    // So does the print view.
    await page.emulateMedia({ media: 'print' });
    const printed = await text(page, '.print-only');
    assert.ok(printed.includes(w.workers), printed);
    assert.ok(printed.includes(w.capacity), printed);
    await page.emulateMedia({ media: 'screen' });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

/** The batch sheet: a point in time, bulk work. */
async function openBatchSheet(page) {
  await page.waitForSelector('form.question[data-question="time-triggered"]');
  await page.check('#q-time-triggered-yes');
  await page.click('form.question button[type="submit"]');
  await page.click('#open-sheet');
  await page.waitForSelector('section.sheet');
}

test('at 1280 px no select of the sheet cuts its longest option, in either language', async () => {
  // "Handler time given as" showed "median and p95 (lognorma" in its third of the row, and
  // the batch sheet's "Overlapping runs" "forbid: skip the new run while one is runnin".
  for (const [locale, open] of [['en-US', openSheet], ['ja-JP', openSheet], ['en-US', openBatchSheet], ['ja-JP', openBatchSheet]]) {
    const page = await openPage(browser, server.url, { locale, width: 1280 });
    await open(page);
    const cut = await page.$$eval('section.sheet select', (selects) => selects.flatMap((s) => {
      // The width the browser gives the same select sized by its content: its longest
      // option and the arrow. Narrower than that, the longest option is cut.
      const free = s.cloneNode(true);
      free.style.cssText = 'width:auto;max-width:none;position:absolute;visibility:hidden';
      s.parentElement.append(free);
      const needs = free.offsetWidth;
      free.remove();
      const longest = [...s.options].map((o) => o.text).sort((a, b) => b.length - a.length)[0];
      return s.offsetWidth + 1 < needs ? [`#${s.id}: "${longest}" needs ${needs} px, has ${s.offsetWidth} px`] : [];
    }));
    assert.deepEqual(cut, [], `${locale}: options wider than their select`);
    await page.context().close();
  }
});
