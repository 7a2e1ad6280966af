// The catalog of processes in real Chromium: three processes made through the page, their
// rows and outcomes; rename in place, duplicate, move, delete and undo (with where keyboard
// focus goes); the filter by outcome; the bar naming the open process; the catalog in Japanese
// on a 390 px phone without sideways scrolling.
// Screenshots: {en,ja}-catalog-1280, {en,ja}-catalog-390.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, screenshot, answer, showCatalog } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });


/** Adds a process named `name` from the catalog, answers `answers`, and opens its sheet when
 * `sheet` is set. */
async function addProcess(page, name, answers, sheet = false) {
  await showCatalog(page);
  await page.fill('#add-name', name);
  await page.click('#add-process');
  for (const [q, v] of answers) await answer(page, q, v);
  if (sheet) {
    await page.click('#open-sheet');
    await page.waitForSelector('section.sheet');
  }
  assert.equal((await page.textContent('#bar-process')).trim(), name, 'the bar names the open process');
}

const rowsOf = (page) => page.$$eval('#catalog-table tbody tr', (trs) => trs.map((tr) => ({
  name: tr.querySelector('.proc-name')?.textContent ?? '',
  outcome: tr.dataset.outcome,
  outcomeText: tr.querySelector('.outcome-tag').textContent,
  attempts: tr.querySelector('td[data-label]:nth-of-type(2)').textContent,
})));

const focused = (page) => page.evaluate(() => {
  const el = document.activeElement;
  return { tag: el?.tagName, text: el?.textContent ?? '', id: el?.id ?? '', label: el?.getAttribute('aria-label') ?? '' };
});

const noSidewaysScroll = (page) => page.evaluate(
  () => document.documentElement.scrollWidth <= window.innerWidth + 1,
);

async function threeProcesses(page) {
  await addProcess(page, 'Send the confirmation mail', [['time-triggered', 'no'], ['needs-result-now', 'no']], true);
  await addProcess(page, 'Nightly report', [['time-triggered', 'yes']], true);
  await addProcess(page, 'Check stock', [['time-triggered', 'no']]);
  await showCatalog(page);
}

test('three processes, rename, duplicate, move, delete and undo, the filter (en)', async () => {
  const page = await openPage(browser, server.url);
  // A first visit starts on one untouched process; the first one added takes its place.
  await showCatalog(page);
  assert.deepEqual((await rowsOf(page)).map((r) => r.name), ['Process 1']);
  // Deleting it leaves the empty catalog, which explains itself and offers the form.
  await page.click('#catalog-table tbody tr button.danger');
  await page.waitForSelector('.catalog-empty');
  assert.equal(await page.$('#catalog-table'), null);

  await threeProcesses(page);
  let rows = await rowsOf(page);
  assert.deepEqual(rows.map((r) => [r.name, r.outcome, r.outcomeText]), [
    ['Send the confirmation mail', 'async-enqueue', 'Asynchronous: enqueue a job'],
    ['Nightly report', 'batch', 'Scheduled batch'],
    ['Check stock', 'undecided', 'undecided'],
  ]);
  assert.match(rows[0].attempts, /^\d+$/, 'a queued job with a sheet shows its attempts');
  assert.equal(rows[2].attempts, '—');
  // Name, outcome, attempts, wait, timeout, key, rate, workers, bottleneck, drain, findings,
  // edited, actions.
  assert.equal(await page.$$eval('#catalog-table thead th[scope="col"]', (t) => t.length), 13);
  // The load columns computed by the formulas say so (the sheet's capacity panel simulates).
  const heads = await page.$$eval('#catalog-table thead th[scope="col"]', (t) => t.map((x) => x.textContent.trim()));
  assert.ok(heads.includes('Bottleneck (analytic)') && heads.includes('Burst drain (analytic)'), `${heads}`);
  assert.equal(await page.$$eval('#catalog-table tbody th[scope="row"]', (t) => t.length), 3);
  await screenshot(page, 'en-catalog-1280');

  // Rename in place: Enter saves and focus returns to the name; Escape cancels.
  await page.click('tr:nth-child(2) [data-action="rename"]');
  assert.equal((await focused(page)).tag, 'INPUT');
  await page.fill('.rename-input', 'Nightly sales report');
  await page.keyboard.press('Enter');
  await page.waitForSelector('tr:nth-child(2) .proc-name:text("Nightly sales report")');
  assert.equal((await focused(page)).text, 'Nightly sales report');
  await page.click('tr:nth-child(3) [data-action="rename"]');
  await page.fill('.rename-input', 'Not this');
  await page.keyboard.press('Escape');
  await page.waitForSelector('tr:nth-child(3) .proc-name');
  assert.equal((await rowsOf(page))[2].name, 'Check stock');

  // Duplicate: the copy comes right after its original, with focus on it.
  await page.click('tr:nth-child(1) [data-action="duplicate"]');
  await page.waitForSelector('#catalog-table tbody tr:nth-child(4)');
  rows = await rowsOf(page);
  assert.deepEqual(rows.map((r) => r.name), [
    'Send the confirmation mail', 'Send the confirmation mail (copy)', 'Nightly sales report', 'Check stock',
  ]);
  assert.equal(rows[1].outcome, 'async-enqueue');
  assert.equal((await focused(page)).text, 'Send the confirmation mail (copy)');

  // Move: the ends are disabled; a move keeps focus on the button pressed.
  assert.ok(await page.isDisabled('tr:nth-child(1) [data-move="up"]'));
  assert.ok(await page.isDisabled('tr:nth-child(4) [data-move="down"]'));
  assert.equal(await page.getAttribute('tr:nth-child(2) [data-move="down"]', 'aria-label'),
    'Move Send the confirmation mail (copy) down');
  await page.click('tr:nth-child(2) [data-move="down"]');
  await page.waitForFunction(() => document.querySelector('tr:nth-child(3) .proc-name')?.textContent.endsWith('(copy)'));
  assert.equal((await focused(page)).label, 'Move Send the confirmation mail (copy) down');
  await page.keyboard.press('Enter'); // to the end: its "down" is disabled, focus goes to "up"
  await page.waitForFunction(() => document.querySelector('tr:nth-child(4) .proc-name')?.textContent.endsWith('(copy)'));
  assert.equal((await focused(page)).label, 'Move Send the confirmation mail (copy) up');

  // Delete, then undo: focus goes to Undo, then back to the row.
  await page.click('tr:nth-child(4) [data-action="delete"]');
  await page.waitForSelector('#catalog-undo');
  assert.equal(await page.$$eval('#catalog-table tbody tr', (t) => t.length), 3);
  assert.match(await page.textContent('#catalog-notice'), /Deleted “\u2068Send the confirmation mail \(copy\)\u2069”/);
  assert.equal((await focused(page)).id, 'catalog-undo');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#catalog-table tbody tr:nth-child(4)');
  assert.equal(await page.$('#catalog-notice'), null);
  assert.equal((await rowsOf(page))[3].name, 'Send the confirmation mail (copy)');
  assert.equal((await focused(page)).text, 'Send the confirmation mail (copy)');

  // The filter: one outcome, an outcome no process has, back to all.
  await page.selectOption('#catalog-filter', 'batch');
  assert.deepEqual((await rowsOf(page)).map((r) => r.name), ['Nightly sales report']);
  assert.match(await page.textContent('#catalog-count'), /1 of 4 shown/);
  await page.selectOption('#catalog-filter', 'undecided');
  assert.deepEqual((await rowsOf(page)).map((r) => r.name), ['Check stock']);
  await page.selectOption('#catalog-filter', 'sync');
  await page.waitForSelector('.catalog-filtered-out');
  assert.equal(await page.$('#catalog-table'), null);
  await page.click('.catalog-filtered-out button');
  assert.equal((await rowsOf(page)).length, 4);
  assert.equal(await page.inputValue('#catalog-filter'), 'all', 'the select shows "all" again');

  // The system's name names the bar; opening a process names it there too.
  await page.fill('#catalog-name', 'Reservation system');
  await page.press('#catalog-name', 'Enter');
  // The name sits between U+2068 and U+2069 (isolated from the sentence around it).
  await page.waitForFunction(() =>
    document.querySelector('#bar-catalog')?.textContent.trim() === 'Catalog: \u2068Reservation system\u2069');
  await page.click('tr:nth-child(3) .proc-name');
  await page.waitForSelector('article.result, form.question');
  assert.equal((await page.textContent('#bar-process')).trim(), 'Check stock');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

for (const [lang, width] of [['ja', 390], ['en', 390], ['ja', 1280], ['en', 1280]]) {
  test(`the catalog at ${width} px (${lang}): every row readable, no sideways scrolling`, async () => {
    const page = await openPage(browser, server.url, { locale: lang, width, height: width < 600 ? 844 : 900 });
    await threeProcesses(page);
    const rows = await rowsOf(page);
    assert.equal(rows.length, 3);
    if (lang === 'ja') {
      assert.deepEqual(rows.map((r) => r.outcomeText), ['非同期：ジョブをキューに登録', '定期バッチ', '未決定']);
      assert.equal((await page.textContent('#catalog-title')).trim(), 'システムのプロセス一覧');
    }
    assert.ok(await noSidewaysScroll(page), 'the page does not scroll sideways');
    // Every row action is on screen.
    const off = await page.$$eval('#catalog-table button', (bs) => bs.filter((b) => {
      const r = b.getBoundingClientRect();
      return r.left < 0 || r.right > window.innerWidth;
    }).length);
    assert.equal(off, 0);
    // On a desktop the table shows every column without scrolling inside its frame either.
    if (width >= 1280) {
      const [scroll, client] = await page.$eval('.catalog-table-wrap', (w) => [w.scrollWidth, w.clientWidth]);
      assert.ok(scroll <= client + 1, `the table scrolls sideways: ${scroll} > ${client}`);
    }
    await screenshot(page, `${lang}-catalog-${width}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
