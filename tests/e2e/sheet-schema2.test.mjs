// Schema 2 in the sheet form, in real Chromium, in English and Japanese: polynomial backoff
// (its two inputs appear only for it, with the simulator's approximation said), a layer that
// retries (an SDK inside the handler) and the total calls, the retry window row, and the
// queue's retention with its finding when the window is longer.
// Screenshots: {en,ja}-sheet-schema2.
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
    window: /^min .+ · expected .+ · max .+, plus up to 5 × 30 s of attempts$/,
    calls: 'this job 5 × AWS SDK 3 = 15 calls',
    alone: 'this job only: at most 5 calls',
  },
  ja: {
    window: /^最短 .+・期待値 .+・最長 .+（ほかに実行時間が最大 5 × 30秒）$/,
    calls: 'このジョブ 5 × AWS SDK 3 ＝ 呼び出し15回',
    alone: 'このジョブのみ：呼び出しは最大5回',
  },
};

for (const lang of ['en', 'ja']) {
  test(`polynomial backoff, an SDK layer, the total calls and the window (${lang})`, async () => {
    const page = await openPage(browser, server.url, { locale: lang });
    await openSheet(page);
    await page.click('#load-example');
    const w = WORDS[lang];
    // The window row is there from the start, and the job alone makes its attempts' calls.
    assert.match(await text(page, '[data-testid="retry-window"]'), w.window);
    assert.equal(await text(page, '[data-testid="total-calls"]'), w.alone);
    assert.equal(await page.$('#poly-exponent'), null, 'polynomial inputs only for polynomial');
    // Polynomial: 10 s + n³ from n = 0.
    await page.selectOption('#backoff-kind', 'polynomial');
    await page.waitForSelector('#poly-exponent');
    assert.ok(await page.$('[data-note="poly-sim"]'), 'the simulator approximation is said');
    const before = await text(page, '[data-testid="retry-window"]');
    await page.fill('#poly-exponent', '3');
    await page.waitForFunction((b) => document.querySelector('[data-testid="retry-window"]').textContent.trim() !== b, before);
    assert.match(await text(page, '[data-testid="retry-window"]'), w.window);
    assert.equal(await page.inputValue('#poly-first-n'), '0');
    // An SDK inside the handler, 3 tries per call: 5 × 3 = 15 calls.
    await page.click('#layer-add');
    await page.waitForSelector('#layer-0-attempts');
    assert.equal(await page.inputValue('#layer-0-kind'), 'sdk');
    await page.fill('#layer-0-attempts', '3');
    await page.fill('#layer-0-what', 'AWS SDK');
    await page.waitForFunction((want) => document.querySelector('[data-testid="total-calls"]').textContent.trim() === want, w.calls);
    // The queue keeps messages 1 min: shorter than the window, an error under the field.
    await page.check('#queue-retention-stated');
    await page.waitForSelector('#queue-retention');
    assert.equal(await page.$('[data-finding="window-over-retention"]'), null, '4 days hold the window');
    await page.fill('#queue-retention', '1');
    await page.selectOption('#queue-retention-unit', '2');
    await page.waitForSelector('[data-field="queue-retention-group"] [data-finding="window-over-retention"]');
    await page.locator('[data-field="retry-layers"]').scrollIntoViewIfNeeded();
    await screenshot(page, `${lang}-sheet-schema2`);
    // Removing the layer brings the calls back to the job's own attempts.
    await page.click('#layer-0-remove');
    await page.waitForFunction((want) => document.querySelector('[data-testid="total-calls"]').textContent.trim() === want, w.alone);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
