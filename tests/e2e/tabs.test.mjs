// The screens' tabs in real Chromium: on a 390 px phone no label breaks inside a word and
// every tab is on screen and tappable.
// Screenshots: {en,ja}-tabs-390.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, screenshot } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

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
