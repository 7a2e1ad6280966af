// Back / Forward and start-up in real Chromium, through the user's path: every history entry
// names the process it shows, so Back reopens that process and never makes or changes stored
// work; the app framed with sandbox="allow-scripts" (origin null) says it could not start
// instead of loading forever; and no screen logs a console warning.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, serveDist, serveHost, launch, openPage, answer, showCatalog, screenshot, runPreset } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const stored = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('modality-advisor.catalog')));
/** The stored JSON of the process named `name`, as text (byte-for-byte comparisons). */
const storedText = async (page, name) => JSON.stringify((await stored(page)).catalog.processes.find((p) => p.name === name));

async function addProcess(page, name, answers) {
  await showCatalog(page);
  await page.fill('#add-name', name);
  await page.click('#add-process');
  for (const [q, v] of answers) await answer(page, q, v);
}

async function openRow(page, name) {
  await showCatalog(page);
  await page.click(`#catalog-table .proc-name:text-is("${name}")`);
}

test('Back returns to the process it left, and moving through history changes nothing stored', async () => {
  const page = await openPage(browser, server.url);
  await addProcess(page, 'Alpha', [['time-triggered', 'no'], ['needs-result-now', 'no']]);
  await page.click('#open-sheet');
  await page.waitForSelector('section.sheet');
  await addProcess(page, 'Beta', [['time-triggered', 'yes']]);
  await page.waitForSelector('article.result[data-outcome="batch"]');
  await openRow(page, 'Alpha');
  await page.waitForSelector('section.sheet');
  const alphaId = (await stored(page)).catalog.processes.find((p) => p.name === 'Alpha').id;
  assert.match(page.url(), new RegExp(`#sheet/${alphaId}$`), 'the entry names the process');
  await openRow(page, 'Beta');
  await page.waitForSelector('article.result[data-outcome="batch"]');
  await page.waitForTimeout(300);
  const beta = await storedText(page, 'Beta');
  assert.equal(JSON.parse(beta).sheet, null, 'Beta has no sheet');
  await page.goBack();
  await page.waitForSelector('section.catalog');
  await page.goBack();
  await page.waitForSelector('section.sheet');
  assert.equal(await page.inputValue('#process-name'), 'Alpha', "Alpha's sheet, not Beta's");
  assert.match(page.url(), new RegExp(`#sheet/${alphaId}$`));
  await page.waitForTimeout(300);
  assert.equal(await storedText(page, 'Beta'), beta, "Beta's stored work is byte-for-byte the same");
  // Forward twice: Beta's result again, still no sheet made for it.
  await page.goForward();
  await page.waitForSelector('section.catalog');
  await page.goForward();
  await page.waitForSelector('article.result[data-outcome="batch"]');
  await page.waitForTimeout(300);
  assert.equal(await storedText(page, 'Beta'), beta);
  // A reload on an entry opens its process.
  await page.goto(`${server.url}#sheet/${alphaId}`);
  await page.waitForSelector('section.sheet');
  assert.equal(await page.inputValue('#process-name'), 'Alpha');
  assert.equal(await storedText(page, 'Beta'), beta);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('index.html framed by another origin with sandbox="allow-scripts": the "could not start" message, not loading forever', async () => {
  const app = await serveDist();
  const host = await serveHost(() => `<!doctype html><html><body>
<iframe id="app" src="${app.url}index.html" width="900" height="700" sandbox="allow-scripts"></iframe>
</body></html>`);
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  try {
    await page.goto(host.url);
    const frame = await (await page.waitForSelector('#app')).contentFrame();
    const started = Date.now();
    await frame.waitForSelector('#boot-failed:not([hidden])', { timeout: 10_000 });
    assert.ok(Date.now() - started < 10_000, 'within a few seconds');
    assert.equal(await frame.isHidden('#boot-loading'), true, 'the loading line goes');
    assert.match(await frame.innerText('#boot-failed'), /could not start/);
    assert.equal(await frame.getAttribute('#boot-open', 'target'), '_blank');
    await screenshot(page, 'boot-sandboxed-frame');
  } finally {
    await context.close();
    host.stop();
    app.stop();
  }
});

test('no console warning on any screen: questions, result, sheet, targets, export, share, simulator, catalog', async () => {
  const page = await openPage(browser, server.url);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await answer(page, 'time-triggered', 'no');
  await answer(page, 'needs-result-now', 'no');
  await page.waitForSelector('article.result');
  await page.click('#open-sheet');
  await page.waitForSelector('section.sheet');
  await page.click('#load-example');
  await page.selectOption('#target-choose', 'sidekiq');
  await page.waitForSelector('#target-panel .target-body[data-target="sidekiq"]', { timeout: 60_000 });
  await page.click('[data-format="markdown"] [data-action="copy"]');
  await page.waitForFunction(() => document.querySelector('[data-notice="info"]')?.textContent.includes('Copied'));
  await page.click('#share-open');
  await page.waitForSelector('#share-panel #share-link');
  await page.click('[data-share-copy="embed"]');
  await page.click('#share-close');
  await page.click('.tabs button:nth-child(3)');
  await page.waitForSelector('section.simulate:visible');
  await runPreset(page, 'retry-dead-letter', 'seed');
  await showCatalog(page);
  await page.waitForTimeout(500);
  assert.deepEqual(page.warnings, [], 'no console warning');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
