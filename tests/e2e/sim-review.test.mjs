// Fixes from a review of the Simulate screen, in real Chromium: the choices survive a reload
// (bad saved parts are dropped quietly), a download never differs from the screen, messages
// follow the language switch, titles / variants / columns are translated, a unit change keeps
// the duration, and the small texts (plural, "Not run", facts that do not apply, the log
// after Cancel).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openSimulate, screenshot, runThenCancel } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const open = (lang = 'en') => openSimulate(browser, server.url, lang);
const pressed = (page) => page.getAttribute('.preset[aria-pressed="true"]', 'data-scenario');
const title = (page) => page.textContent('#sim-result-title');

async function run(page, scenario) {
  await page.click('#sim-run');
  await page.waitForSelector(`.sim-result[data-scenario="${scenario}"]`, { timeout: 60_000 });
}

async function reload(page) {
  await page.reload();
  await page.waitForSelector('section.simulate:visible');
}

test('a reload keeps the preset, variant, seed, jobs and edited knobs; bad saved parts are dropped', async () => {
  const page = await open();
  await page.click('.preset[data-scenario="custom"]');
  await page.fill('#knob-workers', '9');
  await page.fill('#seed', '99');
  await reload(page);
  assert.equal(await pressed(page), 'custom');
  assert.equal(await page.inputValue('#knob-workers'), '9');
  assert.equal(await page.inputValue('#seed'), '99');
  // A preset's variant, and the load preset's job count.
  await page.click('.preset[data-scenario="pg-row-locks"]');
  await page.check('#variant-nowait');
  await reload(page);
  assert.equal(await pressed(page), 'pg-row-locks');
  assert.ok(await page.isChecked('#variant-nowait'));
  await page.click('.preset[data-scenario="mmc-load"]');
  await page.fill('#jobs', '5000');
  await reload(page);
  assert.equal(await page.inputValue('#jobs'), '5000');
  // Stored values that no longer check out are dropped quietly; the rest stays.
  await page.evaluate(() => {
    const key = 'modality-advisor.session';
    const s = JSON.parse(localStorage.getItem(key));
    s.sim.preset = 'no-such-preset';
    s.sim.seed = -5;
    s.sim.custom = { workers: 'nine' };
    localStorage.setItem(key, JSON.stringify(s));
  });
  await reload(page);
  assert.equal(await pressed(page), 'retry-dead-letter');
  assert.equal(await page.inputValue('#seed'), '1');
  await page.click('.preset[data-scenario="mmc-load"]');
  assert.equal(await page.inputValue('#jobs'), '5000', 'the valid part stays');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('download is refused, naming the knob, while a field shows a refused value', async () => {
  const page = await open();
  await page.click('.preset[data-scenario="custom"]');
  let downloads = 0;
  page.on('download', () => { downloads += 1; });
  await page.fill('#knob-max-attempts', '-1');
  assert.ok(await page.textContent('[data-field="knob-max-attempts"] .error'));
  await page.click('#knobs-download');
  assert.match(await page.textContent('[data-download-refused]'), /Max attempts: the field shows a value it refused/);
  // Run refuses it the same way, naming the knob.
  await page.click('#sim-run');
  assert.match(await page.textContent('[data-status="failed"]'), /Max attempts: the field shows a value it refused/);
  // Fixed: the download goes through.
  await page.fill('#knob-max-attempts', '4');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#knobs-download')]);
  assert.ok(download);
  assert.equal(await page.$('[data-download-refused]'), null);
  assert.equal(downloads, 1, 'only the valid download happened');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('messages follow the language switch; "Not run" without a previous result', async () => {
  const page = await open();
  await page.fill('#seed', 'abc');
  await page.click('#sim-run');
  const failed = () => page.textContent('[data-status="failed"]');
  assert.match(await failed(), /^Not run:Seed: enter a whole number from 0 to 18 446 744 073 709 551 615/);
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
  await screenshot(page, 'ja-sim-review-preset');
  await page.click('.preset[data-scenario="custom"]');
  await run(page, 'config');
  assert.equal(await title(page), '結果：あなたの設定（シード 1）');
  await screenshot(page, 'ja-sim-review-custom');
  await page.click('[data-lang="en"]');
  assert.equal(await title(page), 'Result: Your settings (seed 1)');
  await screenshot(page, 'en-sim-review-custom');
  await page.click('.preset[data-scenario="duplicate-execution"]');
  await run(page, 'duplicate-execution');
  assert.equal(await title(page), 'Result: Duplicate execution / No key (seed 1)');
  await screenshot(page, 'en-sim-review-preset');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('switching a unit keeps the duration, or keeps the unit and says why', async () => {
  const page = await open();
  await page.click('.preset[data-scenario="custom"]');
  assert.equal(await page.inputValue('#knob-base-wait'), '10');
  assert.equal(await page.inputValue('#knob-base-wait-unit'), '1'); // s
  await page.selectOption('#knob-base-wait-unit', '0');
  assert.equal(await page.inputValue('#knob-base-wait'), '10000', '10 s = 10 000 ms');
  await page.selectOption('#knob-base-wait-unit', '1');
  assert.equal(await page.inputValue('#knob-base-wait'), '10');
  // 10 s is not a whole number of minutes: the unit stays, with a note.
  await page.selectOption('#knob-base-wait-unit', '2');
  assert.equal(await page.inputValue('#knob-base-wait-unit'), '1');
  assert.equal(await page.inputValue('#knob-base-wait'), '10');
  assert.match(await page.textContent('[data-field="knob-base-wait"] [data-unit-kept]'), /10 s is not a whole number of min, so the unit stays s/);
  // A value shown in ms (not just typed): 1500 ms → s is refused, never 1500 s.
  await page.selectOption('#knob-base-wait-unit', '0');
  await page.fill('#knob-base-wait', '1500');
  await page.click('#knob-workers'); // elsewhere
  await page.selectOption('#knob-base-wait-unit', '0'); // the typed number's unit: ms (unchanged)
  assert.equal(await page.$('[data-field="knob-base-wait"] [data-unit-applied]'), null);
  await page.selectOption('#knob-base-wait-unit', '1');
  assert.equal(await page.inputValue('#knob-base-wait'), '1500');
  assert.equal(await page.inputValue('#knob-base-wait-unit'), '0');
  assert.match(await page.textContent('[data-field="knob-base-wait"] [data-unit-kept]'), /1 500 ms is not a whole number of s/);
  // A number just typed takes the unit chosen next (type 90, choose min: 90 min), and the
  // field says what it now means; after that the unit keeps the duration again.
  await page.fill('#knob-cap-wait', '90');
  await page.selectOption('#knob-cap-wait-unit', '1');
  assert.match(await page.textContent('[data-field="knob-cap-wait"] [data-unit-applied]'), /chose: 90 s\.$/, 'the words are not repeated: not \"90 s (90 s)\"');
  await page.selectOption('#knob-cap-wait-unit', '0');
  assert.equal(await page.inputValue('#knob-cap-wait'), '90000', '90 s = 90 000 ms');
  assert.equal(await page.$('[data-field="knob-cap-wait"] [data-unit-applied]'), null);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('small texts: 1 event/s, no engine events for the jitter study, the log after Cancel', async () => {
  const page = await open();
  await page.click('.preset[data-scenario="duplicate-execution"]');
  await run(page, 'duplicate-execution');
  assert.equal(await page.textContent('#step-speed option[value="1"]'), '1 event/s');
  assert.equal(await page.textContent('#step-speed option[value="4"]'), '4 events/s');
  await page.click('.preset[data-scenario="jitter-contention"]');
  await run(page, 'jitter-contention');
  assert.equal(await page.$('.sim-result [data-fact="events"]'), null);
  // A result whose log lives in the worker, then a run cancelled: only the head can be read.
  await page.click('.preset[data-scenario="mmc-load"]');
  await page.fill('#jobs', '2000');
  await run(page, 'mmc-load');
  const total = Number(await page.getAttribute('.log-total', 'data-log-total'));
  assert.ok(total > 200, `${total} lines`);
  assert.equal(await page.getAttribute('.log-total', 'data-log-readable'), null);
  await page.fill('#jobs', '1000000');
  await runThenCancel(page);
  await page.waitForSelector('[data-status="cancelled"]');
  assert.equal(await page.getAttribute('.log-total', 'data-log-readable'), '200');
  assert.match(await page.textContent('.log-total'), /lines; only the first 200 can be read here/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
