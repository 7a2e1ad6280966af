// Compare in real Chromium: a finished comparison's column headings, and why it could not
// run, follow a language switch.
// Screenshots: ja-sim-compare-relang.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openSimulate, screenshot } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

async function switchLang(page, lang) {
  await page.click(`.lang button[data-lang="${lang}"]`);
  await page.waitForSelector(`html[lang="${lang}"]`);
}

const heads = (page) => page.$$eval('.compare-col > h4', (hs) => hs.map((h) => h.textContent));

test('compare: the columns\' headings and a refusal are worded in the language of the moment', async () => {
  const page = await openSimulate(browser, server.url, 'en');
  await page.click('.preset[data-scenario="duplicate-execution"]');
  await page.check('#variant-plain');
  await page.fill('#seed', '5');
  await page.click('#compare-run');
  await page.waitForSelector('.compare-result');
  assert.deepEqual(await heads(page), ['A: Duplicate execution / No key', 'B: Duplicate execution / Idempotency key']);
  await switchLang(page, 'ja');
  assert.deepEqual(await heads(page), ['A：二重実行 / キーなし', 'B：二重実行 / 冪等キーあり']);
  await switchLang(page, 'en');
  assert.deepEqual(await heads(page), ['A: Duplicate execution / No key', 'B: Duplicate execution / Idempotency key']);

  // Your settings against a copy with one change: the change's label is reworded too.
  await page.click('.preset[data-scenario="custom"]');
  await page.click('#compare-run');
  await page.waitForFunction(() => /Your settings/.test(document.querySelector('.compare-col[data-side="a"] > h4')?.textContent ?? ''));
  const [a, b] = await heads(page);
  assert.match(b, /^B: Idempotency key: (on → off|off → on)$/);
  await switchLang(page, 'ja');
  const [aJa, bJa] = await heads(page);
  assert.notEqual(aJa, a);
  assert.doesNotMatch(aJa, /Your settings/);
  assert.match(bJa, /^B：冪等キー：(あり → なし|なし → あり)$/);
  await screenshot(page, 'ja-sim-compare-relang');

  // Why Compare could not run, said when it was pressed, follows the switch as well.
  await page.fill('#seed', '-1');
  await page.click('#compare-run');
  await page.waitForSelector('[data-compare-status="failed"]');
  assert.match(await page.textContent('[data-compare-status="failed"] li'), /シード/);
  await switchLang(page, 'en');
  assert.match(await page.textContent('[data-compare-status="failed"] li'), /[Ss]eed/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
