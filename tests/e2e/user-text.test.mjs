// User text as a user types it: a right-to-left override (U+202E) and 9,000 letters without a
// break in "Name in code" and in a note. The page does not scroll sideways at 1280 and 390 px,
// the printed value sits in an isolated element, the sheet names the field holding the
// control, the download's file name is cut and keeps its extension, and the print view shows
// the decision (outcome, reasons, path).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openSheet } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const LONG = `ab\u202Ecd${'x'.repeat(9_000)}`;

/** Fails unless the page fits its width at 1280 and at 390 px. */
async function fits(page, where) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    const m = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    assert.ok(m.scroll <= m.client, `${where} at ${width} px: scrollWidth ${m.scroll} > clientWidth ${m.client}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('a long name with a right-to-left override stays in its place', async () => {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const p = await context.newPage();
  const errors = [];
  p.on('pageerror', (e) => errors.push(String(e)));
  p.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await p.goto(server.url);
  await p.waitForSelector('form.question, article.result');
  await openSheet(p);

  await p.fill('#code-name', LONG);
  await p.fill('#rerun', LONG);
  assert.equal(await p.inputValue('#code-name'), LONG, 'the field takes 9,004 characters');

  // The sheet names each field that holds the control.
  await p.waitForSelector('[data-finding="bidi-control-code-name"]');
  await p.waitForSelector('[data-finding="bidi-control-rerun"]');
  assert.match(await p.textContent('[data-finding="bidi-control-code-name"]'), /“Name in code”.*U\+202E/);
  await fits(p, 'sheet');

  // The download's file name: cut, the extension kept.
  const [d] = await Promise.all([p.waitForEvent('download'), p.click('[data-format="markdown"] [data-action="download"]')]);
  const name = d.suggestedFilename();
  assert.ok(name.endsWith('.md'), name);
  assert.ok(name.length <= 80, `${name.length} characters: ${name}`);
  assert.ok(!/[\u202A-\u202E\u2066-\u2069]/.test(name), name);
  assert.ok(name.startsWith('ab-cd'), name);

  // Print: the decision, and the value isolated and wrapped.
  await p.emulateMedia({ media: 'print' });
  const print = await p.textContent('.print-only');
  for (const want of ['Asynchronous: enqueue a job', 'Nobody needs the result on the spot',
    'Does the user need the result right there, in the response?']) {
    assert.ok(print.includes(want), `the print view shows “${want}”`);
  }
  const cell = await p.evaluateHandle(() => [...document.querySelectorAll('.print-only td')]
    .find((td) => td.textContent.includes('cd' + 'x'.repeat(50))));
  const style = await cell.evaluate((e) => {
    const s = getComputedStyle(e);
    return { bidi: s.unicodeBidi, wrap: s.overflowWrap, tag: e.tagName };
  });
  assert.ok(style.bidi === 'isolate' || style.tag === 'BDI', JSON.stringify(style));
  assert.equal(style.wrap, 'anywhere');
  await fits(p, 'print');
  await p.emulateMedia({ media: 'screen' });

  assert.deepEqual(errors, []);
  await context.close();
});
