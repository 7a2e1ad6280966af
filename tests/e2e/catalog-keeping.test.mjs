// Keeping the catalog in real Chromium: two tabs of one browser never overwrite each other's
// work silently, and where storage throws (a cross-site frame, a private window) the app works
// in memory and says so, with the catalog file to download.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { serve, launch, openSheet, screenshot } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const stored = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('modality-advisor.catalog')));

/** A second tab of the same browser (same storage) on the app. */
async function secondTab(context, url) {
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (err) => page.errors.push(String(err)));
  await page.goto(url);
  await page.waitForSelector('form.question, article.result, section.sheet, section.catalog');
  return page;
}

async function openTab(url) {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
  const page = await secondTab(context, url);
  return { context, page };
}

test('two tabs editing the same process: no silent loss, the notice appears and resolves', async () => {
  const { context, page: tab1 } = await openTab(server.url);
  await openSheet(tab1);
  const tab2 = await secondTab(context, server.url);
  await tab2.waitForSelector('section.sheet');
  // Tab 1 names the process; tab 2 (open on the same process) is told, not overwritten.
  await tab1.fill('#process-name', 'Name from tab 1');
  await tab1.press('#process-name', 'Tab');
  await tab2.waitForSelector('.keep-notice[data-held]');
  assert.match(await tab2.textContent('.keep-notice[data-held]'), /changed in another tab/);
  // Tab 2's edit stays on its screen but is not written over tab 1's work.
  await tab2.fill('#notify', 'oncall@example.com');
  await tab2.press('#notify', 'Tab');
  await tab2.waitForTimeout(300);
  let s = await stored(tab1);
  assert.equal(s.catalog.processes[0].sheet.process.process_name, 'Name from tab 1');
  assert.notEqual(s.catalog.processes[0].sheet.failure.notify, 'oncall@example.com');
  assert.equal(await tab2.inputValue('#notify'), 'oncall@example.com', 'tab 2 keeps its work on screen');
  await screenshot(tab2, 'catalog-keeping-conflict-en-1280');
  // "Load the other tab's version": tab 2 shows tab 1's work, the notice goes.
  await tab2.click('.keep-notice[data-held] .keep-reload');
  await tab2.waitForSelector('.keep-notice[data-held]', { state: 'detached' });
  assert.equal(await tab2.inputValue('#process-name'), 'Name from tab 1');
  // Now tab 2 edits on top of tab 1's work; "keep mine" is not needed, nothing conflicts.
  await tab2.fill('#notify', 'oncall@example.com');
  await tab2.press('#notify', 'Tab');
  await tab2.waitForTimeout(300);
  s = await stored(tab1);
  assert.equal(s.catalog.processes[0].sheet.process.process_name, 'Name from tab 1');
  assert.equal(s.catalog.processes[0].sheet.failure.notify, 'oncall@example.com');
  assert.deepEqual([...tab1.errors, ...tab2.errors], []);
  await context.close();
});

test('"keep mine" writes this tab\'s version over the other tab\'s', async () => {
  const { context, page: tab1 } = await openTab(server.url);
  await openSheet(tab1);
  const tab2 = await secondTab(context, server.url);
  await tab2.waitForSelector('section.sheet');
  await tab1.fill('#process-name', 'From tab 1');
  await tab1.press('#process-name', 'Tab');
  await tab2.waitForSelector('.keep-notice[data-held]');
  await tab2.fill('#process-name', 'From tab 2');
  await tab2.press('#process-name', 'Tab');
  await tab2.click('.keep-notice[data-held] .keep-mine');
  await tab2.waitForSelector('.keep-notice[data-held]', { state: 'detached' });
  await tab2.waitForTimeout(300);
  const s = await stored(tab1);
  assert.equal(s.catalog.processes[0].sheet.process.process_name, 'From tab 2');
  await context.close();
});

test('storage that throws: the app works in memory, says so once, and offers the catalog file', async () => {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  // What a cross-site iframe with third-party storage blocked sees.
  await context.addInitScript(() => {
    Object.defineProperty(window, 'localStorage', {
      configurable: true,
      get() { throw new DOMException("Failed to read the 'localStorage' property from 'Window': Access is denied for this document.", 'SecurityError'); },
    });
  });
  const page = await secondTab(context, server.url);
  await page.waitForSelector('#memory-only');
  assert.match(await page.textContent('#memory-only'), /Nothing will be kept after this page closes/);
  assert.match(await page.textContent('#memory-only'), /Access is denied/);
  // The app still works: decide and open the sheet.
  await openSheet(page);
  await page.fill('#process-name', 'Kept in memory');
  await page.press('#process-name', 'Tab');
  assert.equal(await page.locator('#memory-only').count(), 1, 'said once, not once per change');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.click('#memory-only .keep-download'),
  ]);
  const file = JSON.parse(readFileSync(await download.path(), 'utf8'));
  assert.equal(file.catalog_version, 1);
  assert.equal(file.processes[0].sheet.process.process_name, 'Kept in memory');
  assert.equal(file.processes[0].outcome, 'async-enqueue');
  await screenshot(page, 'catalog-memory-only-en-1280');
  assert.deepEqual(page.errors, []);
  await context.close();
});
