// The catalog screen belongs to no process, and a phone never scrolls sideways. In Chromium:
// on the catalog screen the bar names the catalog alone (not the process open before) and the
// process steps (1 Decide / 2 Sheet / 3 Simulate) are not shown; from a process the bar's first
// item leads back to the catalog ("← Catalog"). At 390 px the questions, the sheet (with its
// "Configuration for" select), the catalog of the example's seven processes and the simulator
// with a run's charts keep document.scrollingElement.scrollWidth ≤ innerWidth, and the catalog
// is a compact list (at most ~250 px a process).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve, launch, openPage, answer, showCatalog, screenshot, root } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const sideways = (page) => page.evaluate(() => document.scrollingElement.scrollWidth - innerWidth);

/** Decides a queued job and opens its sheet. */
async function toSheet(page) {
  await answer(page, 'time-triggered', 'no');
  await answer(page, 'needs-result-now', 'no');
  await page.click('#open-sheet');
  await page.waitForSelector('section.sheet');
}

test('the catalog screen names no process and shows no process steps; the way back is "← Catalog"', async () => {
  const page = await openPage(browser, server.url);
  await toSheet(page);
  await page.fill('#process-name', 'Send the confirmation mail');
  await page.waitForSelector('#bar-process');
  assert.equal(await page.isVisible('.tabs'), true, 'a process shows its steps');
  assert.match(await page.textContent('#bar-catalog'), /^← /, 'the way back to the catalog reads as one');
  await showCatalog(page);
  assert.equal(await page.locator('#bar-process').count(), 0, 'the bar names no process on the catalog screen');
  assert.equal(await page.locator('.tabs').count(), 0, 'no process steps on the catalog screen');
  assert.equal(await page.getAttribute('#bar-catalog', 'aria-current'), 'page');
  assert.doesNotMatch(await page.textContent('#bar-catalog'), /←/);
  // Opening the process again brings its name and steps back.
  await page.click('#catalog-table tbody tr:nth-child(1) .proc-name');
  await page.waitForSelector('.tabs');
  assert.match(await page.textContent('#bar-process'), /confirmation mail/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('390 px: the questions, the sheet, the catalog and the simulator never scroll sideways', async () => {
  const page = await openPage(browser, server.url, { width: 390, height: 844 });
  const where = [];
  const check = async (name) => {
    const over = await sideways(page);
    if (over > 0) where.push(`${name}: ${over} px too wide`);
  };
  await check('decide');
  await toSheet(page);
  await check('sheet');
  const targets = await page.$$eval('#target-choose option', (os) => os.map((o) => o.value).filter(Boolean));
  await page.selectOption('#target-choose', targets[0]);
  await page.waitForSelector('#target-panel .target-body');
  await check('sheet with a configuration');
  await showCatalog(page);
  await page.setInputFiles('#catalog-import', path.join(root, 'static', 'examples', 'reservation-system.catalog.json'));
  await page.waitForSelector('.import-preview');
  await page.click('#import-merge');
  await page.waitForSelector('.import-preview', { state: 'detached' });
  await check('catalog');
  const rows = await page.$$eval('#catalog-table tbody tr', (trs) => trs.map((tr) => tr.getBoundingClientRect().height));
  assert.ok(rows.length >= 8, `${rows.length} rows`);
  const tallest = Math.max(...rows);
  assert.ok(tallest <= 250, `a compact list: the tallest process takes ${tallest} px`);
  await screenshot(page, 'catalog-en-390');
  await page.click('#catalog-table tbody tr:nth-child(1) .proc-name');
  await page.waitForSelector('.tabs');
  await page.click('.tabs button:nth-child(3)');
  await page.waitForSelector('section.simulate');
  await check('simulate');
  await page.click('#sim-run');
  await page.waitForSelector('.sim-result .sim-charts figure', { timeout: 120_000 });
  await check('simulate with charts');
  assert.deepEqual(where, [], 'pages wider than the phone');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

for (const [locale, name] of [['ja', 'ホテル予約システム'], ['en-US', 'Hotel reservation system']]) {
  test(`390 px (${locale}): the catalog screen's bar shows the catalog's whole name (it was cut to 「カタログ：ホ…」 / "Catalog: Hotel reserv…")`, async () => {
    const page = await openPage(browser, server.url, { locale, width: 390, height: 844 });
    await showCatalog(page);
    await page.fill('#catalog-name', name);
    await page.press('#catalog-name', 'Enter');
    await page.waitForFunction((n) => (document.querySelector('#bar-catalog')?.textContent ?? '').includes(n), name);
    const cut = await page.$eval('#bar-catalog', (b) => b.scrollWidth - b.clientWidth);
    assert.ok(cut <= 0, `the name is cut by ${cut} px`);
    assert.ok(await sideways(page) <= 0, 'no sideways scroll');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
