// The sheet's exports go through the document worker (the simulator module started in a
// worker by doc-worker-start.js), which the page starts only on the first export press (it is
// not part of the first load), keeps for the next presses, and whose failure to load shows a
// notice instead of doing nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { serve, launch, openPage, openSheet, screenshot } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const FORMATS = ['markdown', 'tsv', 'csv', 'json'];
const workerFiles = (urls) => urls.filter((u) => /doc-worker-start/.test(u)).map((u) => u.replace(/^.*\//, ''));

test('no export before the first press; then every format goes through one kept worker', async () => {
  const page = await openPage(browser, server.url);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const urls = [];
  page.context().on('request', (r) => urls.push(r.url()));
  await openSheet(page);
  await page.click('#load-example');
  await page.waitForTimeout(300);
  assert.deepEqual(workerFiles(urls), [], 'the document worker is not started before an export');

  const copied = {};
  for (const format of FORMATS) {
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await page.click(`[data-format="${format}"] [data-action="copy"]`);
    const label = { markdown: 'Markdown', tsv: 'TSV', csv: 'CSV', json: 'JSON' }[format];
    await page.waitForFunction((l) => document.querySelector('[data-notice="info"]')?.textContent.includes(`Copied ${l} `), label);
    copied[format] = await page.evaluate(() => navigator.clipboard.readText());
    // The buttons are pressable again once the text is back.
    await page.waitForSelector(`[data-format="${format}"] [data-action="copy"]:not([disabled])`);
  }
  const fetched = workerFiles(urls);
  assert.deepEqual(fetched, ['doc-worker-start.js'], `one worker started for the four formats: ${fetched}`);
  assert.match(copied.markdown, /^# send\\_reservation\\_mail/m);
  assert.match(copied.markdown, /```mermaid\nflowchart TD/);
  assert.deepEqual(copied.tsv.split('\n')[0].split('\t'), ['Item', 'What to write', "This job's value"]);
  assert.notEqual(copied.csv.charCodeAt(0), 0xfeff, 'the copied CSV has no BOM');
  assert.match(copied.csv, /^Item,What to write,This job's value\r\n/);
  assert.equal(JSON.parse(copied.json).process.code_name, 'send_reservation_mail');

  for (const format of FORMATS) {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click(`[data-format="${format}"] [data-action="download"]`),
    ]);
    const text = readFileSync(await download.path(), 'utf8');
    if (format === 'csv') {
      assert.equal(text.charCodeAt(0), 0xfeff, 'the CSV download starts with a BOM');
      assert.equal(text.slice(1), copied.csv, 'the CSV download is the copied CSV after the BOM');
    } else {
      assert.equal(text, copied[format], `${format}: the file is the copied text`);
    }
  }
  assert.deepEqual(workerFiles(urls), ['doc-worker-start.js'], 'the worker is kept');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a document worker that cannot load: a notice in the page language, and the next press tries again', async () => {
  const page = await openPage(browser, server.url, { locale: 'ja' });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await page.route(/doc-worker-start/, (route) => route.abort());
  await openSheet(page);
  await page.click('#load-example');
  await page.click('[data-format="markdown"] [data-action="copy"]');
  await page.waitForSelector('[data-notice="error"]');
  assert.match(await page.textContent('[data-notice="error"]'), /書き出しモジュールを読み込めませんでした/);
  await screenshot(page, 'ja-sheet-export-worker-blocked');
  await page.unroute(/doc-worker-start/);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.click('[data-format="json"] [data-action="download"]'),
  ]);
  assert.equal(download.suggestedFilename(), 'send_reservation_mail.sheet.json');
  assert.equal(JSON.parse(readFileSync(await download.path(), 'utf8')).process.code_name, 'send_reservation_mail');
  await page.context().close();
});

test('a module that cannot be fetched in the worker is said at once, not after the 30 s load limit', async () => {
  // The start script loads, the wasm does not: its rejected promise was silent to the page,
  // which said nothing and showed "Preparing…" for 30 s.
  const page = await openPage(browser, server.url);
  await page.route(/sim-ui_bg\.wasm/, (route) => route.abort());
  await openSheet(page);
  await page.click('#load-example');
  const started = Date.now();
  await page.click('[data-format="markdown"] [data-action="copy"]');
  await page.waitForSelector('[data-notice="error"]', { timeout: 10_000 });
  assert.ok(Date.now() - started < 10_000, 'said within seconds');
  assert.match(await page.textContent('[data-notice="error"]'), /export module did not load/);
  assert.equal(await page.locator('.export-bar .export-busy').count(), 0, 'no longer preparing');
  await page.context().close();
});

test('a copy the browser refuses says why in the page language and that a second press copies', async () => {
  for (const [locale, words] of [['ja', /^コピーできませんでした：ブラウザーがクリップボードへの書き込みを拒否しました。.*もう一度「コピー」を押してください/],
    ['en-US', /^Not copied: the browser refused the clipboard\. .*press Copy again \(it is ready now\)\.$/]]) {
    const context = await browser.newContext({ locale, viewport: { width: 1280, height: 900 } });
    // The browser refuses the write, as it does when the press no longer counts as the
    // user's (the text took a few seconds to prepare on a slow network).
    await context.addInitScript(() => {
      navigator.clipboard.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
    });
    const page = await context.newPage();
    await page.goto(server.url);
    await page.waitForSelector('form.question');
    await openSheet(page);
    await page.click('#load-example');
    await page.click('[data-format="markdown"] [data-action="copy"]');
    await page.waitForSelector('[data-notice="error"]');
    assert.match((await page.textContent('[data-notice="error"] p')).trim(), words);
    await context.close();
  }
});

test('on a slow network the bar says it is preparing until the text or the configuration is back', async () => {
  // The document module took 14 s at 1.6 Mbit/s and nothing near Copy or "Configuration
  // for" said so (the buttons only went grey). Its start script is held back 2 s here.
  for (const [locale, words] of [['en-US', /^Preparing… \(the first time takes longer\)$/],
    ['ja', /^準備中…（初回は時間がかかります）$/]]) {
    const page = await openPage(browser, server.url, { locale });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const slow = async (route) => { await new Promise((r) => setTimeout(r, 2_000)); await route.continue(); };
    await page.route(/doc-worker-start/, slow);
    await openSheet(page);
    await page.click('#load-example');
    const busy = page.locator('.export-bar .export-busy[role="status"]');
    await page.click('[data-format="markdown"] [data-action="copy"]');
    await busy.waitFor({ state: 'visible', timeout: 1_500 });
    assert.match((await busy.textContent()).trim(), words);
    if (locale === 'ja') await screenshot(page, 'ja-sheet-export-preparing');
    await page.waitForFunction(() => /Markdown/.test(document.querySelector('[data-notice="info"]')?.textContent ?? ''));
    assert.equal(await busy.count(), 0, 'gone once copied');
    await page.context().close();

    // "Configuration for" first: the same words until the panel is there.
    const next = await openPage(browser, server.url, { locale });
    await next.route(/doc-worker-start/, slow);
    await openSheet(next);
    await next.click('#load-example');
    await next.selectOption('#target-choose', 'sidekiq');
    const waiting = next.locator('.export-bar .export-busy[role="status"]');
    await waiting.waitFor({ state: 'visible', timeout: 1_500 });
    assert.match((await waiting.textContent()).trim(), words);
    await next.waitForSelector('#target-panel');
    assert.equal(await waiting.count(), 0, 'gone once the panel is shown');
    assert.deepEqual(next.errors, []);
    await next.context().close();
  }
});
