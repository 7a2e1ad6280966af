// The Simulate screen in either language, in real Chromium: messages follow the language
// switch ("Not run" without a previous result); result titles, variants, facts, columns and
// the jobs table's last_error are in Japanese on the Japanese page.
// Screenshots: {en,ja}-sim-result-preset, {en,ja}-sim-result-custom, ja-1280-sim-last-error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openSimulate, runPreset, screenshot } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const open = (lang = 'en') => openSimulate(browser, server.url, lang);
const title = (page) => page.textContent('#sim-result-title');

async function run(page, scenario) {
  await page.click('#sim-run');
  await page.waitForSelector(`.sim-result[data-scenario="${scenario}"]`, { timeout: 60_000 });
}

test('messages follow the language switch; "Not run" without a previous result', async () => {
  const page = await open();
  await page.fill('#seed', 'abc');
  await page.click('#sim-run');
  const failed = () => page.textContent('[data-status="failed"]');
  assert.match(await failed(), /^Not run:Seed: enter a whole number from 0 to 18,446,744,073,709,551,615/);
  assert.doesNotMatch(await failed(), /previous result/);
  await page.click('[data-lang="ja"]');
  await page.waitForFunction(() => /シード/.test(document.querySelector('[data-status="failed"]')?.textContent ?? ''));
  assert.doesNotMatch(await failed(), /Seed|Not run/);
  // The seed limit is one rule: the largest u64 runs "Your settings" too.
  await page.click('[data-lang="en"]');
  await page.fill('#seed', '18446744073709551615');
  assert.equal(await page.$('[data-field="seed"] .error'), null);
  await page.click('.preset[data-scenario="custom"]');
  await run(page, 'config');
  assert.match(await title(page), /^Result: Your settings \(seed 18446744073709551615\)$/);
  // With a result on show, a refusal says the result stays.
  await page.fill('#seed', '18446744073709551616');
  assert.ok(await page.$('[data-field="seed"] .error'), 'checked as you type');
  await page.click('#sim-run');
  assert.match(await failed(), /^Not run — the previous result stays/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Japanese: result titles, variants, facts and columns are translated', async () => {
  const page = await open('ja');
  await page.click('.preset[data-scenario="duplicate-execution"]');
  assert.match(await page.textContent('label[for="variant-plain"]'), /^キーなし plain$/);
  assert.equal(await page.textContent('label[for="variant-plain"] code'), 'plain');
  await page.check('#variant-plain');
  await run(page, 'duplicate-execution');
  assert.equal(await title(page), '結果：二重実行 / キーなし（シード 1）');
  assert.match(await page.textContent('[data-fact="rows"] dt'), /完了 done/);
  const heads = await page.$$eval('table.jobs th', (els) => els.map((e) => e.textContent));
  assert.deepEqual(heads, ['id（番号）', 'name（種類）', 'status（状態）', 'attempts（試行回数）', 'last_error（最後のエラー）']);
  await screenshot(page, 'ja-sim-result-preset');
  await page.click('.preset[data-scenario="custom"]');
  await run(page, 'config');
  assert.equal(await title(page), '結果：あなたの設定（シード 1）');
  await screenshot(page, 'ja-sim-result-custom');
  await page.click('[data-lang="en"]');
  assert.equal(await title(page), 'Result: Your settings (seed 1)');
  await screenshot(page, 'en-sim-result-custom');
  await page.click('.preset[data-scenario="duplicate-execution"]');
  await run(page, 'duplicate-execution');
  assert.equal(await title(page), 'Result: Duplicate execution / No key (seed 1)');
  await screenshot(page, 'en-sim-result-preset');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('ja: the jobs table shows last_error in Japanese, as the event log does', async () => {
  const page = await openSimulate(browser, server.url, 'ja', 1280);
  const sel = await runPreset(page, 'burst-leveling', 'queue-redelivery');
  const errors = await page.$$eval(`${sel} table.jobs td:nth-child(5)`, (tds) => tds.map((t) => t.textContent).filter(Boolean));
  assert.ok(errors.length > 0, 'some job has a last_error');
  for (const e of errors) assert.doesNotMatch(e, /downstream is|too many requests|worker lost/, e);
  assert.ok(errors.some((e) => e.startsWith('busy：')), errors.join(' | '));
  await screenshot(page, 'ja-1280-sim-last-error');
  // Switching to English shows the English text again.
  await page.click('[data-lang="en"]');
  const en = await page.$$eval(`${sel} table.jobs td:nth-child(5)`, (tds) => tds.map((t) => t.textContent).filter(Boolean));
  assert.ok(en.some((e) => e === 'busy: downstream is locked by another write'), en.join(' | '));
  await page.context().close();
});
