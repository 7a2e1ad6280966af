// The page never blank, never dead, in real Chromium:
// (a) on a slow network (10 Mbit/s, 40 ms) the product name and the loading line show, styled,
//     before the wasm starts, and the app replaces them: no frame shows both, none neither;
// (b) when the wasm cannot start (its file fails to load, no WebAssembly, the glue script
//     fails to load) a message says so in English and Japanese;
// (c) a panic (provoked by the test-only session storage key `modality-advisor:test-panic`)
//     shows the panic page: Copy diagnostics puts JSON with the panic and the state on the
//     clipboard and in the <pre>, "Reload keeping my work" brings back the answers and the
//     sheet with the change that panicked, and "Reload without the stored work" starts empty
//     with the work kept under a `.before-crash.` key. No CSP violation anywhere.
// Screenshots: boot-loading, boot-failed, {en,ja}-panic.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, openSheet, screenshot } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

/** Records CSP violations (event and console) in `page.csp`, across reloads. */
async function watchCsp(context, page) {
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
  page.csp = [];
  page.on('console', (msg) => {
    if (/CSP violation|Content Security Policy/i.test(msg.text())) page.csp.push(msg.text());
  });
}

async function freshPage(width = 1280) {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width, height: 900 } });
  const page = await context.newPage();
  await watchCsp(context, page);
  return { context, page };
}

test('(a) at 10 Mbit/s + 40 ms: the name and the loading line, styled, until the app replaces them', async () => {
  const { context, page } = await freshPage();
  // Before each paint: what is on show. `boot` is the loading text, `app` the first question.
  await context.addInitScript(() => {
    window.__frames = [];
    const seen = (sel) => {
      const el = document.querySelector(sel);
      return !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    const sample = () => {
      window.__frames.push({ t: performance.now(), boot: seen('#boot-loading'), app: seen('form.question') });
      requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false, latency: 40, downloadThroughput: 10e6 / 8, uploadThroughput: 10e6 / 8,
  });
  await page.goto(server.url, { waitUntil: 'commit' });
  await page.waitForSelector('#boot-loading', { state: 'visible' });
  assert.equal(await page.$('form.question'), null, 'the app has not started yet');
  assert.match(await page.innerText('#boot h1'), /Sync \/ Async \/ Batch Advisor · 同期・非同期・バッチ 判断ツール/);
  assert.match(await page.innerText('#boot-loading'), /Loading the app… · アプリを読み込んでいます…/);
  // Styled by style.css (no inline style): the bar's background and border, the muted line.
  const look = await page.evaluate(() => ({
    bar: getComputedStyle(document.querySelector('#boot .topbar')).borderBottomStyle,
    logo: getComputedStyle(document.querySelector('#boot .logo')).backgroundColor,
    line: getComputedStyle(document.querySelector('#boot-loading')).color,
  }));
  assert.deepEqual(look, { bar: 'solid', logo: 'rgb(29, 78, 216)', line: 'rgb(71, 85, 105)' });
  assert.equal(await page.isVisible('#boot-failed'), false);
  await screenshot(page, 'boot-loading');
  await page.waitForSelector('form.question', { timeout: 60_000 });
  assert.equal(await page.$('#boot'), null, 'the loading text is gone');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const frames = await page.evaluate(() => window.__frames);
  const first = frames.findIndex((f) => f.boot);
  assert.ok(first >= 0, 'a frame showed the loading text');
  const after = frames.slice(first);
  assert.deepEqual(after.filter((f) => f.boot && f.app), [], 'no frame shows both');
  assert.deepEqual(after.filter((f) => !f.boot && !f.app), [], 'no frame shows neither');
  assert.ok(after.filter((f) => f.boot).length >= 3, `the loading text stayed several frames (${after.length} sampled)`);
  assert.deepEqual(page.csp, []);
  await context.close();
});

for (const [name, setup] of [
  ['the wasm fails to load', (page) => page.route(/app-[0-9a-f]+_bg\.wasm$/, (r) => r.abort())],
  ['the glue script fails to load', (page) => page.route(/app-[0-9a-f]+\.js$/, (r) => r.abort())],
  ['no WebAssembly', (page) => page.addInitScript(() => { delete window.WebAssembly; })],
]) {
  test(`(b) ${name}: the page says the app could not start, in English and Japanese`, async () => {
    const { context, page } = await freshPage();
    await setup(page);
    await page.goto(server.url);
    await page.waitForSelector('#boot-failed', { state: 'visible', timeout: 15_000 });
    assert.match(await page.innerText('#boot-failed'), /The app could not start\./);
    assert.match(await page.innerText('#boot-failed'), /アプリを起動できませんでした。/);
    assert.equal(await page.isVisible('#boot-loading'), false, 'the loading line gives way');
    assert.ok(await page.isVisible('#boot h1'), 'the name stays');
    assert.equal(await page.$('form.question'), null);
    if (name === 'the wasm fails to load') await screenshot(page, 'boot-failed');
    assert.deepEqual(page.csp, []);
    await context.close();
  });
}

/** The panic page's JSON diagnostics from the clipboard, checked against the <pre>. */
async function copyDiagnostics(page, copied) {
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await page.click('#panic-copy');
  await page.waitForFunction((t) => document.getElementById('panic-status')?.textContent === t, copied);
  const text = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(text, await page.textContent('#panic-diagnostics'), 'the <pre> holds the same text');
  return JSON.parse(text);
}

test('(c) a panic: the page says so, Copy diagnostics, Reload keeping my work (English)', async () => {
  const page = await openPage(browser, server.url);
  const context = page.context();
  await watchCsp(context, page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await openSheet(page);
  await page.fill('#code-name', 'charge_points');
  // The next change panics, after it is taken in: the hook must store it.
  await page.evaluate(() => sessionStorage.setItem('modality-advisor:test-panic', 'action'));
  await page.fill('#max-attempts', '7');
  await page.waitForSelector('#panic');
  assert.equal(await page.$('section.sheet'), null, 'the app is replaced');
  assert.equal(await page.textContent('#panic h1'), 'Something went wrong');
  assert.match(await page.textContent('#panic-saved'), /Your work is stored in this browser/);
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  await screenshot(page, 'en-panic');
  const diag = await copyDiagnostics(page, 'Copied.');
  assert.match(diag.panic, /test panic \(modality-advisor:test-panic = action\)/);
  assert.equal(diag.lang, 'en');
  const sheet = diag.catalog.processes.find((p) => p.id === diag.open)?.sheet;
  assert.ok(sheet, 'the open process and its sheet are in the diagnostics');
  assert.match(JSON.stringify(sheet), /"charge_points"/);
  // Nothing was sent anywhere: the app makes no request of its own after the panic.
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await Promise.all([page.waitForEvent('load'), page.click('#panic-reload')]);
  assert.ok(requests.every((u) => u.startsWith(server.url)), 'only the page itself is fetched');
  // Back on the sheet the work was on.
  await page.waitForSelector('section.sheet');
  assert.equal(await page.$('#panic'), null);
  assert.equal(await page.inputValue('#code-name'), 'charge_points');
  assert.equal(await page.inputValue('#max-attempts'), '7', 'the change that panicked was stored too');
  await page.click('.tabs .tab:nth-child(1)');
  await page.waitForSelector('article.result[data-outcome="async-enqueue"]');
  assert.deepEqual(page.errors.filter((e) => !/test panic|unreachable/.test(e)), [], 'no error but the panic');
  assert.deepEqual(page.csp, []);
  await context.close();
});

test('(c) a panic as the app starts (Japanese): Reload without the stored work starts empty and keeps it aside', async () => {
  const page = await openPage(browser, server.url, { locale: 'ja' });
  const context = page.context();
  await watchCsp(context, page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await page.waitForSelector('form.question[data-question="time-triggered"]');
  await page.check('#q-time-triggered-yes');
  await page.click('form.question button[type="submit"]');
  await page.waitForSelector('article.result[data-outcome="batch"]');
  await page.evaluate(() => sessionStorage.setItem('modality-advisor:test-panic', 'start'));
  await page.reload();
  await page.waitForSelector('#panic');
  assert.equal(await page.getAttribute('html', 'lang'), 'ja');
  assert.equal(await page.textContent('#panic h1'), '問題が発生しました');
  assert.match(await page.textContent('#panic-fresh'), /保存された作業なしで再読み込み/);
  assert.match(await page.textContent('#panic .help'), /modality-advisor\.catalog\.before-crash/);
  await screenshot(page, 'ja-panic');
  const diag = await copyDiagnostics(page, 'コピーしました。');
  assert.match(diag.panic, /test panic \(modality-advisor:test-panic = start\)/);
  assert.equal(diag.lang, 'ja');
  await Promise.all([page.waitForEvent('load'), page.click('#panic-fresh')]);
  await page.waitForSelector('form.question[data-question="time-triggered"]');
  assert.equal(await page.$('.answers li'), null, 'no stored answers');
  const kept = await page.evaluate(() => Object.keys(localStorage)
    .filter((k) => k.startsWith('modality-advisor.catalog.before-crash.'))
    .map((k) => localStorage.getItem(k)));
  assert.equal(kept.length, 1, 'the stored work is kept aside');
  assert.match(kept[0], /"time-triggered"/);
  assert.deepEqual(page.errors.filter((e) => !/test panic|unreachable/.test(e)), [], 'no error but the panic');
  assert.deepEqual(page.csp, []);
  await context.close();
});
