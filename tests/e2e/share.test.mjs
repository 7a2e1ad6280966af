// Sharing in real Chromium, through the user's path: a process decided and its sheet opened,
// "Share this process…" gives a link (its length shown) and the cards; the link opened in a
// fresh browser shows the shared process read-only and "Save to my catalog" adds it; a tampered
// link says why and the app works on; the SVG card renders as an image; the catalog's share.
// Screenshots: {en,ja}-share-panel-{1280,390}, en-shared-view-1280, en-link-failed-1280.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { serve, launch, openPage, screenshot, answer, showCatalog } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

/** A fresh context on `url` (which may hold a share link), without waiting for the wizard. */
async function openRaw(url, { locale = 'en-US', width = 1280 } = {}) {
  const context = await browser.newContext({ locale, viewport: { width, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') page.errors.push(msg.text()); });
  page.on('pageerror', (err) => page.errors.push(String(err)));
  await page.goto(url);
  return page;
}

/** Decides "send the confirmation mail" (asynchronous, queued job) and opens its sheet. */
async function decidedProcess(page, name) {
  await showCatalog(page);
  await page.fill('#add-name', name);
  await page.click('#add-process');
  await answer(page, 'time-triggered', 'no');
  await answer(page, 'needs-result-now', 'no');
  await page.click('#open-sheet');
  await page.waitForSelector('section.sheet');
}

/** Opens the share panel and waits for its links. */
async function openPanel(page) {
  await page.click('#share-open');
  await page.waitForSelector('#share-panel #share-link');
}

test('share a process: the link, its length, the cards; opened elsewhere it saves into that catalog', async () => {
  const page = await openPage(browser, server.url);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await decidedProcess(page, 'Send the confirmation mail <b>now</b>');
  await openPanel(page);
  assert.match(await page.textContent('#share-open'), /Share this process/);
  const link = await page.inputValue('#share-link');
  assert.ok(link.startsWith(`${server.url}#share-v1:`), link);
  const length = await page.textContent('[data-share-length="link"]');
  assert.equal(length.replace(/\D/g, ''), String(link.length), 'the length shown is the link\'s');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'share-title', 'focus moves to the panel');
  // Copy the link: the clipboard holds exactly it, and the status says so.
  await page.click('[data-share-copy="link"]');
  await page.waitForFunction(() => document.querySelector('.share-status').textContent.includes('Copied'));
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
  // Copy for rich-text editors: text/html with a table, and a plain-text twin.
  await page.click('[data-share-copy="rich"]');
  await page.waitForFunction(() => document.querySelector('.share-status').textContent.includes('Copied'));
  // The status already said "Copied" for the link: wait for the clipboard itself to hold
  // the rich copy (it is written asynchronously).
  for (let i = 0; i < 100; i++) {
    const types = await page.evaluate(async () => (await navigator.clipboard.read())[0]?.types ?? []);
    if (types.includes('text/html')) break;
    await page.waitForTimeout(50);
  }
  const rich = await page.evaluate(async () => {
    const [item] = await navigator.clipboard.read();
    const html = await (await item.getType('text/html')).text();
    const plain = await (await item.getType('text/plain')).text();
    return { html, plain, types: item.types };
  });
  assert.ok(rich.types.includes('text/html'), rich.types.join());
  assert.match(rich.html, /<table/);
  assert.ok(!rich.html.includes('<b>now</b>'), 'user text is escaped in the HTML');
  assert.ok(rich.plain.length > 0);
  // The embed code: an iframe on embed.html with the same fragment.
  await page.click('[data-share-copy="embed"]');
  await page.waitForFunction(() => document.querySelector('.share-status').textContent.includes('Copied'));
  // (The status said "Copied" already: wait for the clipboard to hold the embed code.)
  let embed = '';
  for (let i = 0; i < 100 && !embed.startsWith('<iframe'); i++) {
    embed = await page.evaluate(() => navigator.clipboard.readText());
    if (!embed.startsWith('<iframe')) await page.waitForTimeout(50);
  }
  assert.match(embed, /^<iframe [^>]*src="[^"]*embed\.html#share-v1:/);
  // The SVG card downloads and renders as an <img>.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-share-download="svg"]')]);
  assert.match(download.suggestedFilename(), /\.svg$/);
  const svg = readFileSync(await download.path(), 'utf8');
  assert.ok(svg.startsWith('<svg') || svg.startsWith('<?xml'), svg.slice(0, 40));
  assert.ok(!/<script/i.test(svg));
  const size = await page.evaluate(async (text) => {
    const img = new Image();
    // A data: URL (the page's CSP allows images from data:, not blob:).
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
    await img.decode();
    return { w: img.naturalWidth, h: img.naturalHeight };
  }, svg);
  assert.ok(size.w > 100 && size.h > 100, JSON.stringify(size));
  await screenshot(page, 'en-share-panel-1280');
  assert.deepEqual(page.errors, []);

  // Someone else opens the link: the shared process, read-only, and Save.
  const other = await openRaw(link);
  await other.waitForSelector('.shared-view .shared-card h2, .shared-view .shared-card h3');
  const text = await other.textContent('.shared-view');
  assert.match(text, /Send the confirmation mail <b>now<\/b>/, 'the name shows as text');
  assert.match(text, /Asynchronous/i);
  assert.equal(await other.$('.tabs'), null, 'the shared view stands alone');
  const keys = text.match(/\b[a-z][a-z0-9-]*(\.[a-z0-9-]+){2,}\b/g) ?? [];
  assert.deepEqual(keys, [], 'no bare text keys in the shared view');
  assert.ok((await other.evaluate(() => location.hash)).startsWith('#share-v1:'), 'the link stays while shown');
  await screenshot(other, 'en-shared-view-1280');
  await other.click('#shared-save');
  await other.waitForSelector('section.catalog');
  const names = await other.$$eval('#catalog-table tbody .proc-name', (els) => els.map((e) => e.textContent));
  assert.deepEqual(names, ['Send the confirmation mail <b>now</b>']);
  assert.match(await other.textContent('.catalog-notice'), /1 added/);
  // Kept: a reload (the fragment is now the catalog's place) shows it again.
  assert.equal(await other.evaluate(() => location.hash), '#catalog');
  await other.reload();
  await other.waitForSelector('section.catalog');
  assert.deepEqual(await other.$$eval('#catalog-table tbody .proc-name', (els) => els.map((e) => e.textContent)), names);
  assert.deepEqual(other.errors, []);
  await other.context().close();
  await page.context().close();
});

test('a tampered link says why, loses nothing, and the app works on', async () => {
  // The receiver already has work of their own.
  const page = await openPage(browser, server.url);
  await answer(page, 'time-triggered', 'yes');
  const good = `${server.url}#share-v1:${'A'.repeat(10)}`;
  await page.goto(good);
  await page.reload();
  await page.waitForSelector('#link-failed');
  assert.match(await page.textContent('#link-failed'), /cut or changed/);
  assert.match(await page.textContent('#link-failed'), /Your own work is unchanged/);
  await screenshot(page, 'en-link-failed-1280');
  // The user's answer is still there, and the wizard goes on.
  await showCatalog(page);
  const outcome = await page.$eval('#catalog-table tbody tr', (tr) => tr.dataset.outcome);
  assert.equal(outcome, 'batch');
  await page.click('#link-failed button');
  assert.equal(await page.$('#link-failed'), null);
  // A link of a newer version names it, in Japanese too.
  const ja = await openRaw(`${server.url}#share-v9:abc`, { locale: 'ja-JP' });
  await ja.waitForSelector('#link-failed');
  assert.match(await ja.textContent('#link-failed'), /新しい版/);
  await ja.waitForSelector('form.question');
  assert.deepEqual(ja.errors, []);
  await ja.context().close();
  await page.context().close();
});

test('the catalog shared whole; the panel in Japanese on a phone', async () => {
  for (const [lang, width] of [['en', 1280], ['ja', 390], ['en', 390], ['ja', 1280]]) {
    const page = await openPage(browser, server.url, { locale: lang, width, height: 844 });
    await decidedProcess(page, lang === 'ja' ? '予約確認メールの送信' : 'Send the confirmation mail');
    await openPanel(page);
    await screenshot(page, `${lang}-share-panel-${width}`);
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    assert.equal(sideways, false, `${lang} ${width}: no sideways scrolling`);
    await page.click('#share-close');
    await showCatalog(page);
    await openPanel(page);
    assert.match(await page.textContent('#share-title'), lang === 'ja' ? /カタログ/ : /catalog/);
    const link = await page.inputValue('#share-link');
    const shared = await openRaw(link, { locale: lang });
    await shared.waitForSelector('#shared-save');
    assert.match(await shared.textContent('.shared-bar'), lang === 'ja' ? /1 件/ : /processes: 1/);
    await shared.context().close();
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
