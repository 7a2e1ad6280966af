// UI polish in real Chromium: a finished Compare (and its refusal) follows a language switch;
// the screens' tabs never break inside a word on a 390 px phone; the sheet's "Check results"
// panel lists fields that show a refused value, with the field's message, in either language.
// Screenshots: {en,ja}-tabs-390, en-sheet-refused-panel, ja-sim-compare-relang.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, openSimulate, screenshot } from './harness.mjs';

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

for (const lang of ['ja', 'en']) {
  test(`tabs at 390 px: each label on one line, every tab on screen and tappable (${lang})`, async () => {
    const page = await openPage(browser, server.url, { locale: lang, width: 390, height: 844 });
    const tabs = await page.$$eval('.tabs .tab', (els) => els.map((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      const box = el.getBoundingClientRect();
      return { text: el.textContent, lines: lines.size, left: box.left, right: box.right, height: box.height };
    }));
    assert.equal(tabs.length, 3);
    for (const t of tabs) {
      assert.equal(t.lines, 1, `"${t.text}" breaks over ${t.lines} lines`);
      assert.ok(t.left >= 0 && t.right <= 390, `"${t.text}" is on screen (${t.left}–${t.right})`);
      assert.ok(t.height >= 32, `"${t.text}" is ${t.height} px tall`);
    }
    await screenshot(page, `${lang}-tabs-390`);
    // Still usable: the Simulate tab opens its screen.
    await page.click('.tabs .tab:nth-child(3)');
    await page.waitForSelector('section.simulate');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
