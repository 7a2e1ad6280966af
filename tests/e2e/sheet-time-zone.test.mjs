// The batch schedule's time zone (issue 26, item 3) and notices after a language switch (item
// 9), through the user's path: a scheduled batch opens with UTC and says why; a zone that does
// not exist is a finding naming the field and how to fix it, in both languages, and nothing
// typed is lost; a real zone reaches the Kubernetes CronJob (whose panel names the
// daylight-saving days of the coming year) and the Markdown document (which names them too). A catalog notice worded in English reads in
// Japanese after switching, and no English notice stays.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { serve, launch, openPage, answer, showCatalog, screenshot } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

/** A scheduled batch's sheet in English. */
async function batchSheet() {
  const page = await openPage(browser, server.url);
  await answer(page, 'time-triggered', 'yes');
  await page.click('#open-sheet');
  await page.waitForSelector('section.sheet[data-outcome="batch"]');
  return page;
}

const finding = (page, code) => page.textContent(`.sheet-form [data-finding="${code}"]`);

test('a time zone that does not exist is a finding in both languages; nothing typed is lost', async () => {
  const page = await batchSheet();
  assert.equal(await page.inputValue('#time-zone'), 'UTC');
  assert.match(await page.textContent('[data-field="time-zone"] .reason'), /ⓘ UTC has no daylight saving/);
  assert.equal(await page.$('[data-finding="batch-time-zone-unknown"]'), null);

  await page.fill('#schedule', '30 2 * * *');
  await page.fill('#time-zone', 'Asia/Tokio');
  await page.waitForSelector('[data-finding="batch-time-zone-unknown"]');
  // Changed from the default: the reason says so once, without repeating the default.
  assert.match(await page.textContent('[data-field="time-zone"] .reason'), /ⓘ The default was UTC: UTC has no daylight saving/);
  const en = await finding(page, 'batch-time-zone-unknown');
  assert.match(en, /Time zone “Asia\/Tokio” is not an IANA time zone name/);
  assert.match(en, /Asia\/Tokyo/, 'says how to write one');
  // The typed value and the rest of the section stay.
  assert.equal(await page.inputValue('#time-zone'), 'Asia/Tokio');
  assert.equal(await page.inputValue('#schedule'), '30 2 * * *');

  await page.click('.lang button[data-lang="ja"]');
  await page.waitForSelector('html[lang="ja"]');
  assert.match(await finding(page, 'batch-time-zone-unknown'), /タイムゾーン「Asia\/Tokio」は IANA のタイムゾーン名ではありません/);
  assert.equal(await page.inputValue('#time-zone'), 'Asia/Tokio');

  // Only the case differs: the database's spelling is named.
  await page.fill('#time-zone', 'america/new_york');
  assert.match(await finding(page, 'batch-time-zone-unknown'), /「America\/New_York」と書いてください/);
  await page.fill('#time-zone', 'America/New_York');
  await page.waitForFunction(() => !document.querySelector('[data-finding="batch-time-zone-unknown"]'));
  await screenshot(page, 'ja-sheet-time-zone');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a real zone reaches the CronJob, with the daylight-saving days, and the Markdown', async () => {
  const page = await batchSheet();
  await page.fill('#schedule', '30 2 * * *');
  await page.fill('#time-zone', 'America/New_York');

  await page.selectOption('#target-choose', 'kubernetes');
  const sel = '#target-panel .target-body[data-target="kubernetes"]';
  await page.waitForSelector(sel, { timeout: 60_000 });
  const code = await page.textContent(`${sel} pre.target-text code`);
  assert.match(code, /^kind: CronJob$/m);
  assert.match(code, /^  schedule: "30 2 \* \* \*"$/m);
  assert.match(code, /^  timeZone: "America\/New_York"$/m);
  assert.deepEqual(
    await page.$$eval(`${sel} table.target-mapping tr[data-field="time-zone"] > *`, (c) => c.slice(1, 4).map((x) => x.textContent.trim())),
    ['America/New_York', 'spec.timeZone', 'America/New_York'],
  );
  // 02:30 does not exist on New York's spring-forward day: the panel names it (a date in
  // March of the coming year, counted from the page's clock).
  const dst = await page.textContent(`${sel} [data-finding="batch-dst-skipped"]`);
  assert.match(dst, /Daylight saving in America\/New_York: on \d{4}-03-\d{2} \(02:00–03:00\)/);
  assert.match(dst, /02:30/);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.click('[data-format="markdown"] [data-action="download"]'),
  ]);
  const md = readFileSync(await download.path(), 'utf8');
  assert.match(md, /^\| Time zone \| .* \| America\/New\\_York \|$/m);
  // The document names the same day as the panel, as the CLI's does (the page sends its clock).
  const day = dst.match(/on (\d{4}-03-\d{2})/)[1];
  assert.match(md, new RegExp(`Daylight saving in America/New\\\\?_York: on ${day} \\(02:00–03:00\\)`));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a notice shown in English reads in Japanese after switching; no English notice stays', async () => {
  const page = await openPage(browser, server.url);
  await showCatalog(page);
  await page.fill('#add-name', 'Nightly report');
  await page.click('#add-process');
  await answer(page, 'time-triggered', 'yes');
  await showCatalog(page);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.click('.catalog-io [data-format="markdown"] [data-action="download"]'),
  ]);
  await page.waitForSelector('#catalog-notice');
  assert.match(await page.textContent('#catalog-notice'), new RegExp(`^Downloaded ${download.suggestedFilename().replace(/\./g, '\\.')}\\.`));

  await page.click('.lang button[data-lang="ja"]');
  await page.waitForSelector('html[lang="ja"]');
  assert.match(await page.textContent('#catalog-notice'), /をダウンロードしました。/);
  const notices = await page.$$eval('.notice, [role="status"], [role="alert"]', (els) => els.map((e) => e.textContent));
  for (const n of notices) assert.doesNotMatch(n, /Downloaded|Copied/, `an English notice stayed: ${n}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
