// UI polish in real Chromium: a finished Compare (and its refusal) follows a language switch;
// the screens' tabs never break inside a word on a 390 px phone; the sheet's "Check results"
// panel lists fields that show a refused value, with the field's message, in either language.
// Screenshots: {en,ja}-tabs-390, en-sheet-refused-panel, ja-sim-compare-relang.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, openSheet, openSimulate, screenshot } from './harness.mjs';

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

const refusedItems = (page) => page.$$eval('.sheet-side [data-refused]', (lis) => lis.map((li) => ({
  id: li.dataset.refused,
  name: li.querySelector('a').textContent,
  href: li.querySelector('a').getAttribute('href'),
  message: li.querySelector('.finding').textContent,
})));
const fieldError = (page, id) => page.textContent(`[data-field="${id}"] > .slot .error`);

test('check panel: lists each field showing a refused value with its message, in page order, in either language', async () => {
  const page = await openPage(browser, server.url, { locale: 'en' });
  await openSheet(page);
  assert.deepEqual(await refusedItems(page), []);
  await page.fill('#lease', 'abc');
  await page.fill('#max-attempts', '0');
  await page.fill('#process-name', 'x'.repeat(10_001));
  await page.waitForFunction(() => document.querySelectorAll('.sheet-side [data-refused]').length === 3);
  let items = await refusedItems(page);
  assert.deepEqual(items.map((i) => i.id), ['process-name', 'max-attempts', 'lease'], 'page order');
  assert.deepEqual(items.map((i) => i.href), ['#process-name', '#max-attempts', '#lease']);
  assert.deepEqual(items.map((i) => i.name), ['Process name', 'Max attempts', 'Lease / visibility timeout']);
  for (const i of items) {
    assert.ok(i.message.startsWith('Error: '), i.message);
    assert.equal(i.message.slice('Error: '.length), await fieldError(page, i.id), `${i.id}: the field's own message`);
  }
  assert.match(await page.textContent('[data-refused-note]'), /copy, download, print/);
  // The panel agrees with what copying says.
  await page.click('.export[data-format="markdown"] button[data-action="copy"]');
  await page.waitForSelector('[data-notice="error"]');
  await screenshot(page, 'en-sheet-refused-panel');

  await switchLang(page, 'ja');
  items = await refusedItems(page);
  assert.deepEqual(items.map((i) => i.id), ['process-name', 'max-attempts', 'lease']);
  assert.deepEqual(items.map((i) => i.name), ['処理名（日本語名）', '最大試行回数', 'リース／可視性タイムアウト']);
  for (const i of items) {
    assert.ok(i.message.startsWith('エラー: '), i.message);
    assert.equal(i.message.slice('エラー: '.length), await fieldError(page, i.id), `${i.id}: the field's own message in Japanese`);
  }
  // Each message is reworded too (a too-long text's included).
  assert.match(items[0].message, /10 000 文字までです/);
  assert.match(items[1].message, /最大試行回数：1〜100/);
  assert.match(await page.textContent('[data-refused-note]'), /コピー/);

  // Fixed fields leave the panel; with none left, it says so and the note goes.
  await page.fill('#max-attempts', '5');
  await page.fill('#lease', '1');
  await page.fill('#process-name', 'nightly report');
  await page.waitForFunction(() => document.querySelectorAll('.sheet-side [data-refused]').length === 0);
  assert.equal(await page.$('[data-refused-note]'), null);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
