// Keeping the catalog in real Chromium: two tabs of one browser never overwrite each other's
// work silently, and where storage throws (a cross-site frame, a private window) the app works
// in memory and says so, with the catalog file to download.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { serve, launch, openSheet, screenshot, root, answer, showCatalog } from './harness.mjs';
import path from 'node:path';

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


async function addProcess(page, name, answers) {
  await showCatalog(page);
  await page.fill('#add-name', name);
  await page.click('#add-process');
  for (const [q, v] of answers) await answer(page, q, v);
}

const rowNames = (page) => page.$$eval('#catalog-table tbody .proc-name', (els) => els.map((e) => e.textContent.trim()));

async function openRow(page, name) {
  await showCatalog(page);
  await page.click(`#catalog-table .proc-name:text-is("${name}")`);
}

test('three processes made on the page are all there after a reload; the catalog is home', async () => {
  const { context, page } = await openTab(server.url);
  await addProcess(page, 'Place the order', [['time-triggered', 'no'], ['needs-result-now', 'yes']]);
  await addProcess(page, 'Confirmation mail', [['time-triggered', 'no'], ['needs-result-now', 'no']]);
  await addProcess(page, 'Nightly report', [['time-triggered', 'yes']]);
  await page.goto(server.url); // a fresh visit, no fragment
  await page.waitForSelector('section.catalog');
  assert.deepEqual(await rowNames(page), ['Place the order', 'Confirmation mail', 'Nightly report']);
  const outcomes = await page.$$eval('#catalog-table tbody tr', (trs) => trs.map((tr) => tr.dataset.outcome));
  assert.deepEqual(outcomes, ['undecided', 'async-enqueue', 'batch']);
  // Each process kept its own answers.
  await openRow(page, 'Nightly report');
  await page.waitForSelector('article.result[data-outcome="batch"], section.sheet');
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('two tabs editing different processes: both edits are kept', async () => {
  const { context, page: tab1 } = await openTab(server.url);
  await addProcess(tab1, 'Order', []);
  await addProcess(tab1, 'Mail', []);
  const tab2 = await secondTab(context, server.url);
  await tab2.waitForSelector('section.catalog');
  await openRow(tab1, 'Order');
  await openRow(tab2, 'Mail');
  await answer(tab1, 'time-triggered', 'yes');
  await answer(tab2, 'time-triggered', 'no');
  await answer(tab2, 'needs-result-now', 'no');
  await tab2.waitForTimeout(300);
  const s = await stored(tab1);
  const byName = Object.fromEntries(s.catalog.processes.map((p) => [p.name, p.outcome]));
  assert.deepEqual(byName, { Order: 'batch', Mail: 'async-enqueue' });
  assert.equal(await tab1.locator('.keep-notice[data-held]').count(), 0, 'no conflict to report');
  assert.equal(await tab2.locator('.keep-notice[data-held]').count(), 0, 'no conflict to report');
  // Each tab shows the other's work in the catalog.
  await showCatalog(tab1);
  const outcomes = await tab1.$$eval('#catalog-table tbody tr', (trs) => trs.map((tr) => tr.dataset.outcome));
  assert.deepEqual(outcomes, ['batch', 'async-enqueue']);
  assert.deepEqual([...tab1.errors, ...tab2.errors], []);
  await context.close();
});

test('import: a preview first, then merge; undo puts the catalog back; a bad file changes nothing', async () => {
  const { context, page } = await openTab(server.url);
  await addProcess(page, 'My own process', [['time-triggered', 'yes']]);
  await showCatalog(page);
  const example = path.join(root, 'static', 'examples', 'reservation-system.catalog.json');
  await page.setInputFiles('#catalog-import', example);
  await page.waitForSelector('.import-preview');
  assert.match(await page.textContent('.import-list[data-list="added"] h4'), /Added \(7\)/);
  assert.match(await page.textContent('.import-list[data-list="dropped"]'), /My own process/);
  await page.click('#import-merge');
  await page.waitForSelector('.import-preview', { state: 'detached' });
  assert.equal((await rowNames(page)).length, 8);
  assert.match(await page.textContent('#catalog-notice'), /7 added, 0 replaced/);
  await page.click('#catalog-undo');
  assert.deepEqual(await rowNames(page), ['My own process']);
  // A bad file: the message names the field; the catalog is unchanged.
  const bad = JSON.parse(readFileSync(example, 'utf8'));
  bad.processes[1].id = bad.processes[0].id;
  await page.setInputFiles('#catalog-import', { name: 'bad.catalog.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bad)) });
  await page.waitForSelector('#catalog-notice.error-notice');
  assert.match(await page.textContent('#catalog-notice'), /processes\[1\]\.id/);
  assert.deepEqual(await rowNames(page), ['My own process']);
  assert.equal(await page.locator('.import-preview').count(), 0);
  // A single sheet file adds one process (merge only).
  const sheet = path.join(root, 'static', 'examples', 'reservation-mail.en.json');
  await page.setInputFiles('#catalog-import', sheet);
  await page.waitForSelector('.import-preview');
  assert.equal(await page.locator('#import-replace').count(), 0);
  await page.click('#import-merge');
  assert.equal((await rowNames(page)).length, 2);
  await screenshot(page, 'catalog-import-en-1280');
  assert.deepEqual(page.errors, []);
  await context.close();
});
