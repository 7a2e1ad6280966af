// Keeping the catalog in real Chromium: two tabs of one browser never overwrite each other's
// work silently (different fields of one process both kept, one field edited in both held and
// named in a notice that stays in view), and where storage throws (a cross-site frame, a private window) the app works
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
  // Registered before the app's own listener, so it can hold the app's back
  // ([holdStorageEvents]).
  await context.addInitScript(() => {
    addEventListener('storage', (e) => { if (window.__hold) e.stopImmediatePropagation(); });
  });
  const page = await secondTab(context, url);
  return { context, page };
}

/** Holds back (or lets through again) the `storage` events another tab's writes send
 * `page` (tabs of [openTab]): what a tab sees when both tabs type before either hears of the
 * other's write. */
async function holdStorageEvents(page, hold) {
  await page.evaluate((h) => { window.__hold = h; }, hold);
}

test('two tabs editing different fields of one process both keep their edits, with no notice', async () => {
  const { context, page: tab1 } = await openTab(server.url);
  await openSheet(tab1);
  const tab2 = await secondTab(context, server.url);
  await tab2.waitForSelector('section.sheet');
  await tab1.fill('#process-name', 'Name from tab 1');
  await tab1.press('#process-name', 'Tab');
  // Tab 2 changed nothing there: it takes tab 1's name in, on screen.
  await tab2.waitForFunction(() => document.querySelector('#process-name').value === 'Name from tab 1');
  await tab2.fill('#notify', 'oncall@example.com');
  await tab2.press('#notify', 'Tab');
  await tab1.waitForFunction(() => document.querySelector('#notify').value === 'oncall@example.com');
  // Both at once: tab 2 types before it hears of tab 1's write.
  await holdStorageEvents(tab2, true);
  await tab1.fill('#trigger', 'order placed');
  await tab1.press('#trigger', 'Tab');
  await tab1.waitForFunction(() => JSON.parse(localStorage.getItem('modality-advisor.catalog')).catalog.processes[0].sheet.process.trigger === 'order placed');
  await tab2.fill('#arguments', 'order id');
  await tab2.press('#arguments', 'Tab');
  await holdStorageEvents(tab2, false);
  await tab2.waitForTimeout(300);
  const p = (await stored(tab1)).catalog.processes[0];
  assert.equal(p.sheet.process.process_name, 'Name from tab 1');
  assert.equal(p.sheet.failure.notify, 'oncall@example.com');
  assert.equal(p.sheet.process.trigger, 'order placed', "tab 1's field is kept");
  assert.deepEqual(p.sheet.process.arguments, ['order id'], "tab 2's field of the same process is kept");
  assert.equal(await tab2.inputValue('#trigger'), 'order placed', 'tab 2 shows tab 1\'s field');
  assert.equal(await tab2.locator('.keep-notice[data-held]').count(), 0, 'nothing held');
  assert.equal(await tab1.locator('.keep-notice[data-held]').count(), 0);
  assert.deepEqual([...tab1.errors, ...tab2.errors], []);
  await context.close();
});

test('one field edited in two tabs: held, named, in view at the field; reload asks; then resolved', async () => {
  const { context, page: tab1 } = await openTab(server.url);
  await openSheet(tab1);
  const tab2 = await secondTab(context, server.url);
  await tab2.waitForSelector('section.sheet');
  await holdStorageEvents(tab2, true);
  await tab1.fill('#notify', 'tab1@example.com');
  await tab1.press('#notify', 'Tab');
  await tab1.waitForFunction(() => JSON.parse(localStorage.getItem('modality-advisor.catalog')).catalog.processes[0].sheet.failure.notify === 'tab1@example.com');
  // Tab 2, scrolled down to "Notify", types there too.
  await tab2.locator('#notify').scrollIntoViewIfNeeded();
  await tab2.click('#notify');
  await tab2.fill('#notify', 'tab2@example.com');
  await tab2.press('#notify', 'Tab');
  await holdStorageEvents(tab2, false);
  const notice = tab2.locator('.keep-notice[data-held]');
  await notice.waitFor();
  assert.match(await notice.textContent(), /changed in another tab too: “Notify”/);
  // The notice is on screen while the field is (the field ~2,000 px down the sheet).
  const inView = await tab2.evaluate(() => {
    const n = document.querySelector('.keep-notice[data-held]').getBoundingClientRect();
    const f = document.querySelector('#notify').getBoundingClientRect();
    return { notice: n.top >= 0 && n.bottom <= innerHeight, field: f.top >= 0 && f.bottom <= innerHeight, scrolled: scrollY };
  });
  assert.ok(inView.scrolled > 500, `scrolled down (${inView.scrolled} px)`);
  assert.ok(inView.field && inView.notice, `the notice and the field both in view: ${JSON.stringify(inView)}`);
  await screenshot(tab2, 'catalog-keeping-conflict-en-1280');
  // Storage keeps tab 1's value, tab 2 keeps its own on screen.
  assert.equal((await stored(tab1)).catalog.processes[0].sheet.failure.notify, 'tab1@example.com');
  assert.equal(await tab2.inputValue('#notify'), 'tab2@example.com');
  // Reloading asks first (and staying keeps the edit).
  const dialog = tab2.waitForEvent('dialog');
  await tab2.evaluate(() => setTimeout(() => location.reload(), 0));
  const d = await dialog;
  assert.equal(d.type(), 'beforeunload');
  await d.dismiss();
  assert.equal(await tab2.inputValue('#notify'), 'tab2@example.com', 'still there after staying');
  // "Keep mine" writes it; then nothing is held and a reload does not ask.
  await tab2.click('.keep-notice[data-held] .keep-mine');
  await notice.waitFor({ state: 'detached' });
  await tab2.waitForTimeout(300);
  assert.equal((await stored(tab1)).catalog.processes[0].sheet.failure.notify, 'tab2@example.com');
  let asked = false;
  tab2.on('dialog', (x) => { asked = true; x.accept(); });
  await tab2.reload();
  await tab2.waitForSelector('section.sheet');
  assert.equal(asked, false, 'nothing held: no question on leaving');
  assert.equal(await tab2.inputValue('#notify'), 'tab2@example.com');
  // "Load the other tab's version" takes storage's value.
  await holdStorageEvents(tab2, true);
  await tab1.fill('#notify', 'again1@example.com');
  await tab1.press('#notify', 'Tab');
  await tab1.waitForFunction(() => JSON.parse(localStorage.getItem('modality-advisor.catalog')).catalog.processes[0].sheet.failure.notify === 'again1@example.com');
  await tab2.fill('#notify', 'again2@example.com');
  await tab2.press('#notify', 'Tab');
  await holdStorageEvents(tab2, false);
  await notice.waitFor();
  await tab2.click('.keep-notice[data-held] .keep-reload');
  await notice.waitFor({ state: 'detached' });
  assert.equal(await tab2.inputValue('#notify'), 'again1@example.com');
  assert.deepEqual([...tab1.errors, ...tab2.errors], []);
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
  assert.match(await page.textContent('#catalog-notice'), /Added to the catalog: 7\. Nothing was replaced\./);
  await page.click('#catalog-undo');
  assert.deepEqual(await rowNames(page), ['My own process']);
  // A bad file: the message names the field; the catalog is unchanged.
  const bad = JSON.parse(readFileSync(example, 'utf8'));
  bad.processes[1].id = bad.processes[0].id;
  // Chosen from the import button at the bottom of a short window: the message at the top of
  // the screen is brought into view.
  const size = page.viewportSize();
  await page.setViewportSize({ width: size.width, height: 420 });
  await page.evaluate(() => document.querySelector('label[for="catalog-import"]').scrollIntoView());
  assert.ok(await page.$eval('#catalog-title', (h) => h.getBoundingClientRect().bottom < 0), 'scrolled past the top');
  await page.setInputFiles('#catalog-import', { name: 'bad.catalog.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bad)) });
  await page.waitForSelector('#catalog-notice.error-notice');
  await page.waitForFunction(() => {
    const r = document.querySelector('#catalog-notice').getBoundingClientRect();
    return r.bottom > 0 && r.top < innerHeight;
  });
  await page.setViewportSize(size);
  // The reader's message follows a colon (it may start with a field's path, never capitalised).
  assert.match(await page.textContent('#catalog-notice'), /bad\.catalog\.json was not imported \(nothing changed\): .*processes\[1\]\.id/);
  assert.deepEqual(await rowNames(page), ['My own process']);
  assert.equal(await page.locator('.import-preview').count(), 0);
  // The command-line simulator's configuration (static/examples/ holds both kinds): named for
  // what it is and where it runs (it said "catalog_version: missing").
  await page.setInputFiles('#catalog-import', path.join(root, 'static', 'examples', 'queue-retry.config.json'));
  await page.waitForFunction(() => /queue-retry\.config\.json/.test(document.querySelector('#catalog-notice.error-notice')?.textContent ?? ''));
  assert.match(await page.textContent('#catalog-notice'), /queue-retry\.config\.json was not imported \(nothing changed\): This is a configuration of the command-line simulator .*modality-advisor simulate --config FILE/);
  assert.deepEqual(await rowNames(page), ['My own process']);
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
