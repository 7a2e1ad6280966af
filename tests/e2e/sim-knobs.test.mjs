// "Your settings" and Compare in real Chromium: the knobs are pre-filled from the sheet,
// a custom run's downloaded config gives the same trace hash in the CLI, an out-of-range knob
// is refused with a message and the previous result stays, and Compare calls out the
// differences (duplicate-execution plain vs idempotency-key: balance 200 vs 100). A download
// (and a run) is refused, naming the knob, while a field shows a refused value; switching a
// duration's unit keeps the duration, or keeps the unit and says why.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serve, launch, openPage, openSimulate, screenshot, root } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const ENQUEUE = [['time-triggered', 'no'], ['needs-result-now', 'no']];

async function openSheet(page) {
  for (const [q, v] of ENQUEUE) {
    await page.waitForSelector(`form.question[data-question="${q}"]`);
    await page.check(`#q-${q}-${v}`);
    await page.click('form.question button[type="submit"]');
  }
  await page.click('#open-sheet');
  await page.waitForSelector('section.sheet');
}

async function toSimulate(page) {
  await page.click('.tabs button:nth-child(3)');
  await page.waitForSelector('section.simulate:visible');
}

function cli() {
  const debug = path.join(root, 'target', 'debug', 'modality-advisor');
  return existsSync(debug) ? debug : path.join(root, 'target', 'release', 'modality-advisor');
}

const hash = (page) => page.textContent('.sim-result [data-fact="trace-hash"] dd');

test('your settings come from the sheet, run, download for the CLI, and refuse bad values', async () => {
  const page = await openPage(browser, server.url);
  await openSheet(page);
  // An edit on the sheet reaches the simulator; the business key gives the idempotency key
  // (without it the sheet has none, and the simulator runs without one).
  await page.fill('#max-attempts', '7');
  await page.fill('#business-key', 'order id');
  await toSimulate(page);
  await page.click('.preset[data-scenario="custom"]');
  await page.waitForSelector('.sim-knobs[data-from-sheet="true"]');
  assert.equal(await page.inputValue('#knob-max-attempts'), '7');
  assert.equal(await page.inputValue('#knob-growth'), 'exponential');
  assert.equal(await page.inputValue('#knob-base-wait'), '10');
  assert.equal(await page.inputValue('#knob-base-wait-unit'), '1'); // seconds
  assert.equal(await page.inputValue('#knob-cap-wait'), '10');
  assert.equal(await page.inputValue('#knob-cap-wait-unit'), '2'); // minutes
  assert.equal(await page.inputValue('#knob-jitter'), 'full');
  assert.equal(await page.inputValue('#knob-lease'), '1');
  assert.equal(await page.inputValue('#knob-lease-unit'), '2'); // 1 min
  assert.equal(await page.inputValue('#knob-idempotency-key'), 'on');
  assert.equal(await page.inputValue('#knob-classify-errors'), 'on');
  assert.ok(await page.$('[data-knob="max-attempts"] [data-from-sheet="true"]'), 'marked as from the sheet');
  assert.ok(await page.$('[data-knob="workers"] .hint'), 'each knob says what it does');
  assert.equal(await page.$('[data-knobs-note]'), null, 'no "no sheet" note');

  // Run it; the result is the config run, with every job in the table.
  await page.fill('#seed', '5');
  await page.click('#sim-run');
  await page.waitForSelector('.sim-result[data-scenario="config"]');
  const first = await hash(page);
  const rows = (await page.textContent('.sim-result [data-fact="rows"] dd')).split(' / ').map(Number);
  assert.equal(rows.reduce((a, b) => a + b, 0), 20);
  assert.match(await page.textContent('.sim-result table.jobs'), /\/7/, 'max attempts 7 from the sheet');

  // The downloaded config gives the same trace hash in the CLI.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#knobs-download')]);
  const file = await download.path();
  const out = JSON.parse(execFileSync(cli(), ['simulate', '--config', file, '--format', 'json']).toString());
  assert.equal(out.trace_hash, first);
  assert.equal(out.seed, 5);

  // A changed sheet knob says so.
  await page.fill('#knob-max-attempts', '4');
  assert.match(await page.textContent('[data-knob="max-attempts"] .from-sheet'), /changed \(sheet: 7 attempts\)/);

  // Out of range: a message naming the knob and range; the run is refused; the result stays.
  await page.fill('#knob-workers', '5000');
  assert.match(await page.textContent('[data-field="knob-workers"] .error'), /Workers: enter a whole number from 1 to 1,000/);
  await page.click('#sim-run');
  await page.waitForSelector('[data-status="failed"]');
  assert.equal(await hash(page), first, 'the previous result is still shown');
  // A cross-field finding: the longest wait below the first wait.
  await page.fill('#knob-workers', '2');
  await page.fill('#knob-cap-wait', '5');
  await page.selectOption('#knob-cap-wait-unit', '1');
  assert.match(await page.textContent('[data-finding="cap-wait"]'), /Longest wait: 5 s is below First wait; allowed 10 s to 7 d/);
  await page.click('#sim-run');
  await page.waitForSelector('[data-status="failed"]');
  assert.match(await page.textContent('[data-status="failed"]'), /Longest wait/);
  assert.equal(await hash(page), first);
  await screenshot(page, 'en-sim-knobs');

  // Reset to the sheet: the sheet's values again, and the same run gives the same hash.
  await page.click('#knobs-reset');
  assert.equal(await page.inputValue('#knob-max-attempts'), '7');
  assert.equal(await page.inputValue('#knob-workers'), '2');
  assert.equal(await page.inputValue('#knob-cap-wait'), '10');
  const sel = '.sim-result [data-fact="trace-hash"] dd';
  await page.fill('#seed', '6');
  await page.click('#sim-run');
  await page.waitForFunction(([s, h]) => document.querySelector(s)?.textContent !== h, [sel, first]);
  await page.fill('#seed', '5');
  await page.click('#sim-run');
  await page.waitForFunction(([s, h]) => document.querySelector(s)?.textContent === h, [sel, first]);
  assert.equal(await hash(page), first, 'same seed and settings, same trace');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('without a sheet the defaults are used and the screen says so (ja)', async () => {
  const page = await openPage(browser, server.url, { locale: 'ja' });
  await toSimulate(page);
  await page.click('.preset[data-scenario="custom"]');
  assert.match(await page.textContent('[data-knobs-note]'), /定義書がまだない/);
  assert.equal(await page.inputValue('#knob-max-attempts'), '5');
  await page.fill('#knob-crash-percent', '300');
  assert.match(await page.textContent('[data-field="knob-crash-percent"] .error'), /完了通知前のクラッシュ/);
  // Neither Run nor Compare uses the last good value behind a refused one.
  await page.click('#compare-run');
  await page.waitForSelector('[data-compare-status="failed"]');
  assert.match(await page.textContent('[data-compare-status="failed"]'), /完了通知前のクラッシュ：受け付けられない値/);
  // Worded when shown: the refusal follows a language switch.
  await page.click('.lang button[data-lang="en"]');
  await page.waitForSelector('html[lang="en"]');
  assert.match(await page.textContent('[data-compare-status="failed"]'), /Crash before acknowledging: the field shows a value it refused/);
  await page.click('.lang button[data-lang="ja"]');
  await page.waitForSelector('html[lang="ja"]');
  // A bad seed is named together with the refused knob, not instead of it.
  await page.fill('#seed', '-1');
  await page.click('#sim-run');
  await page.waitForSelector('[data-status="failed"]');
  const failed = await page.textContent('[data-status="failed"]');
  assert.match(failed, /シード/);
  assert.match(failed, /完了通知前のクラッシュ/);
  assert.ok(await page.getAttribute('#knobs-download', 'title'), 'the disabled download says why');
  await page.fill('#seed', '1');
  await screenshot(page, 'ja-sim-knobs');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('"Not downloaded" names every knob that shows a refused value (en, ja)', async () => {
  const page = await openPage(browser, server.url);
  await toSimulate(page);
  await page.click('.preset[data-scenario="custom"]');
  await page.fill('#knob-max-attempts', '-1');
  await page.fill('#knob-workers', '5000');
  await page.fill('#knob-crash-percent', '300');
  await page.click('#knobs-download');
  const msg = await page.textContent('[data-download-refused]');
  for (const name of [/Max attempts/, /Workers/, /crash/i]) assert.match(msg, name);
  assert.match(msg, /^Not downloaded/);
  // Run names each of them too.
  await page.click('#sim-run');
  await page.waitForSelector('[data-status="failed"]');
  const failed = await page.textContent('[data-status="failed"]');
  for (const name of [/Max attempts/, /Workers/]) assert.match(failed, name);
  await page.click('[data-lang="ja"]');
  await page.waitForFunction(() => /ダウンロードしませんでした/.test(document.querySelector('[data-download-refused]')?.textContent ?? ''));
  assert.match(await page.textContent('[data-download-refused]'), /、/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

async function compare(page) {
  await page.click('#compare-run');
  await page.waitForSelector('.compare-result');
  return async (id) => ({
    differs: await page.$eval(`tr[data-diff="${id}"]`, (tr) => tr.classList.contains('differs')),
    a: await page.textContent(`tr[data-diff="${id}"] td:nth-of-type(1)`),
    b: await page.textContent(`tr[data-diff="${id}"] td:nth-of-type(2)`),
  });
}

for (const lang of ['en', 'ja']) {
  test(`compare: duplicate-execution plain vs idempotency-key calls out balance 200 vs 100 (${lang})`, async () => {
    const page = await openPage(browser, server.url, { locale: lang });
    await toSimulate(page);
    await page.click('.preset[data-scenario="duplicate-execution"]');
    await page.check('#variant-plain');
    // B defaults to the teaching variant.
    const chosen = () => page.$eval('#compare-with', (s) => [s.selectedOptions[0].dataset.variant, s.selectedOptions[0].textContent]);
    assert.deepEqual(await chosen(), ['idempotency-key', lang === 'en' ? 'Duplicate execution / Idempotency key' : '二重実行 / 冪等キーあり']);
    // Labels are the translated titles the result uses, never raw ids.
    const aLabel = await page.textContent('.compare-a');
    assert.match(aLabel, lang === 'en' ? /Duplicate execution \/ No key$/ : /二重実行 \/ キーなし$/);
    assert.doesNotMatch(aLabel, /duplicate-execution|plain/);
    const options = await page.$$eval('#compare-with option', (os) => os.map((o) => o.textContent).join('|'));
    assert.doesNotMatch(options, /duplicate-execution|idempotency-key/);
    const line = await compare(page);
    const heads = await page.$$eval('.compare-col > h4', (hs) => hs.map((h) => h.textContent));
    assert.deepEqual(heads, lang === 'en'
      ? ['A: Duplicate execution / No key', 'B: Duplicate execution / Idempotency key']
      : ['A：二重実行 / キーなし', 'B：二重実行 / 冪等キーあり']);
    assert.deepEqual(await line('balance'), { differs: true, a: '200', b: '100' });
    assert.deepEqual(await line('duplicates'), { differs: true, a: '1', b: '0' });
    assert.equal((await line('done')).differs, false);
    // Both columns have their trace hash (same seed, different configs) and a charts slot.
    const [ha, hb] = [await page.textContent('[data-hash="a"]'), await page.textContent('[data-hash="b"]')];
    assert.match(ha, /^[0-9a-f]{16}$/);
    assert.notEqual(ha, hb);
    assert.equal(await page.$$eval('.compare-col .charts-slot', (s) => s.length), 2);

    // Your settings: crashes before the acknowledgement, with and without the idempotency key.
    await page.click('.preset[data-scenario="custom"]');
    await page.fill('#knob-crash-percent', '50');
    await page.fill('#knob-failure-percent', '0');
    const label = await page.$eval('#compare-with', (s) => s.selectedOptions[0].textContent);
    assert.match(label, lang === 'en' ? /Idempotency key: on → off/ : /冪等キー：あり → なし/);
    const mine = await compare(page);
    const dup = await mine('duplicates');
    assert.equal(dup.a, '0', 'the key stops duplicate effects');
    assert.ok(Number(dup.b) > 0, `without the key they happen (${dup.b})`);
    assert.equal((await mine('balance')).a, '2,000');
    await screenshot(page, `${lang}-sim-compare`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('compare: when the change makes no difference, the page says why (and both hashes agree)', async () => {
  const page = await openPage(browser, server.url);
  await toSimulate(page);
  await page.click('.preset[data-scenario="custom"]');
  await page.fill('#knob-crash-percent', '0');
  const label = await page.$eval('#compare-with', (s) => s.selectedOptions[0].textContent);
  assert.match(label, /Idempotency key: on → off/);
  await compare(page);
  const note = await page.textContent('[data-no-difference]');
  assert.match(note, /^The key numbers are the same\. An idempotency key only matters when a job runs twice/);
  assert.equal(await page.textContent('[data-hash="a"]'), await page.textContent('[data-hash="b"]'));
  await page.click('.lang button[data-lang="ja"]');
  await page.waitForSelector('html[lang="ja"]');
  assert.match(await page.textContent('[data-no-difference]'), /冪等キーが効くのは同じジョブが2回実行されたときだけ/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('compare: jitter none vs full, and burst-leveling queue-redelivery vs two-tier-jitter', async () => {
  const page = await openPage(browser, server.url);
  await toSimulate(page);
  await page.click('.preset[data-scenario="burst-leveling"]');
  await page.check('#variant-queue-redelivery');
  let line = await compare(page);
  assert.deepEqual(await line('done'), { differs: true, a: '5', b: '10' });
  assert.deepEqual(await line('dead'), { differs: true, a: '5', b: '0' });
  await page.click('.preset[data-scenario="jitter-contention"]');
  await page.check('#variant-none');
  assert.deepEqual(await page.$eval('#compare-with', (s) => [s.selectedOptions[0].dataset.variant, s.selectedOptions[0].textContent]),
    ['full', 'Jitter study (AWS) / Full jitter']);
  line = await compare(page);
  const calls = await line('mean-calls');
  assert.ok(calls.differs);
  const num = (x) => Number(x.replace(/[\s,]/g, ''));
  assert.ok(num(calls.b) < num(calls.a), `full jitter needs fewer calls (${calls.a} → ${calls.b})`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('"Simulate these settings" on the result and on the sheet opens your settings from the sheet', async () => {
  const page = await openPage(browser, server.url);
  for (const [q, v] of ENQUEUE) {
    await page.waitForSelector(`form.question[data-question="${q}"]`);
    await page.check(`#q-${q}-${v}`);
    await page.click('form.question button[type="submit"]');
  }
  // From the result card: the sheet is made from the decision on the way.
  await page.click('#simulate-sheet');
  await page.waitForSelector('section.simulate:visible');
  assert.equal(await page.getAttribute('.preset[data-scenario="custom"]', 'aria-pressed'), 'true');
  await page.waitForSelector('.sim-knobs[data-from-sheet="true"]');
  assert.equal(await page.inputValue('#knob-max-attempts'), '5');
  // Elsewhere, then from the sheet after an edit there.
  await page.click('.preset[data-scenario="claim-race"]');
  await page.click('.tabs button:nth-child(2)');
  await page.waitForSelector('section.sheet');
  await page.fill('#max-attempts', '3');
  await page.press('#max-attempts', 'Tab');
  await page.click('section.sheet #simulate-sheet');
  await page.waitForSelector('section.simulate:visible');
  assert.equal(await page.getAttribute('.preset[data-scenario="custom"]', 'aria-pressed'), 'true');
  assert.equal(await page.inputValue('#knob-max-attempts'), '3');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** The Simulate screen, straight from the tabs (no sheet). */
const open = (lang = 'en') => openSimulate(browser, server.url, lang);

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

test('switching a unit keeps the duration, or keeps the unit and says why', async () => {
  const page = await open();
  await page.click('.preset[data-scenario="custom"]');
  assert.equal(await page.inputValue('#knob-base-wait'), '10');
  assert.equal(await page.inputValue('#knob-base-wait-unit'), '1'); // s
  await page.selectOption('#knob-base-wait-unit', '0');
  assert.equal(await page.inputValue('#knob-base-wait'), '10000', '10 s = 10,000 ms');
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
  assert.match(await page.textContent('[data-field="knob-base-wait"] [data-unit-kept]'), /1,500 ms is not a whole number of s/);
  // A number just typed takes the unit chosen next (type 90, choose min: 90 min), and the
  // field says what it now means; after that the unit keeps the duration again.
  await page.fill('#knob-cap-wait', '90');
  await page.selectOption('#knob-cap-wait-unit', '1');
  assert.match(await page.textContent('[data-field="knob-cap-wait"] [data-unit-applied]'), /chose: 90 s\.$/, 'the words are not repeated: not \"90 s (90 s)\"');
  await page.selectOption('#knob-cap-wait-unit', '0');
  assert.equal(await page.inputValue('#knob-cap-wait'), '90000', '90 s = 90,000 ms');
  assert.equal(await page.$('[data-field="knob-cap-wait"] [data-unit-applied]'), null);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** Issue 25's user in "Your settings": a burst of 500 updates to a partner allowing 10 calls a
 * second, on 3 workers. */
async function partner(page) {
  await page.click('.preset[data-scenario="custom"]');
  await page.selectOption('#knob-downstream', 'on');
  await page.fill('#knob-jobs', '500');
  await page.fill('#knob-workers', '3');
  await page.fill('#knob-capacity', '0');
  await page.fill('#knob-rate-limit', '10');
}

test('the handler time is shown and editable beside the call, and the calls chart explains the rate limit\'s burst (en, ja)', async () => {
  const page = await open();
  await partner(page);
  // Never silent: what a run takes is said beside the call, in the settings' numbers.
  const runTime = () => page.textContent('[data-knob="call-ms"] [data-derived="run-time"]');
  assert.equal(await runTime(), 'Each run: the handler time (lognormal, p50 200 ms, p95 1 s, set under Load), then the call (300 ms).');
  assert.equal(await page.inputValue('#knob-duration'), 'lognormal');
  assert.match(await page.textContent('[data-knob="duration"] .hint'), /comes before the call, so a run takes this plus the call duration/);
  // The burst is a setting of its own, shown once there is a rate limit.
  assert.equal(await page.inputValue('#knob-rate-burst'), '10');
  assert.match(await page.textContent('[data-knob="rate-burst"] [data-derived="rate-limit"]'), /after an idle spell up to 20 calls can pass within one second/);
  await page.fill('#knob-rate-burst', '0');
  assert.match(await page.textContent('[data-field="knob-rate-burst"] .error'), /Rate limit burst: enter a whole number from 1 to 1,000,000/);
  await page.fill('#knob-rate-burst', '1');
  assert.match(await page.textContent('[data-knob="rate-burst"] [data-derived="rate-limit"]'), /up to 11 calls/);
  // No handler time: the run is the call alone, and its figures are hidden.
  await page.selectOption('#knob-duration', 'none');
  assert.equal(await runTime(), 'Each run: the handler time (none (0 ms), set under Load), then the call (300 ms).');
  assert.ok(await page.isHidden('[data-knob="duration-ms"]'));
  await page.click('#sim-run');
  await page.waitForSelector('.sim-result[data-scenario="config"] [data-chart="calls"] svg');
  // The chart draws the limit and says what the bucket lets through.
  assert.equal(await page.getAttribute('.sim-result [data-chart="calls"] line[data-rule="rate-limit"]', 'data-value'), '10');
  assert.notEqual(await page.$eval('.sim-result [data-chart="calls"] line[data-rule="rate-limit"]', (l) => getComputedStyle(l).stroke), 'none', 'the limit line is drawn');
  const note = '.sim-result [data-chart="calls"] .chart-note';
  assert.equal(await page.getAttribute(note, 'data-most'), '11');
  assert.match(await page.textContent(note), /Its token bucket holds 1 calls: after an idle spell up to 11 calls can pass within one second/);
  // Both reach the config file the CLI runs.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#knobs-download')]);
  const file = JSON.parse(readFileSync(await download.path(), 'utf8'));
  assert.deepEqual(file.kinds[0].duration, { type: 'fixed', ms: 0 });
  assert.deepEqual(file.downstream.rate_limit, { rate_per_s: 10, burst: 1 });
  await page.click('.lang button[data-lang="ja"]');
  await page.waitForSelector('html[lang="ja"]');
  assert.equal(await runTime(), '1回の実行：ハンドラーの処理時間（なし（0ミリ秒）、「負荷」で設定）の後に呼び出し（300ミリ秒）。');
  assert.match(await page.textContent(note), /破線は下流のレート制限（毎秒10件）です。.*最大11件/);
  assert.match(await page.textContent('[data-knob="rate-burst"] [data-derived="rate-limit"]'), /最大11件/);
  await screenshot(page, 'ja-sim-knobs-rate-limit');
  // Kept across a reload with the other knobs.
  await page.reload();
  await page.waitForSelector('section.simulate:visible');
  assert.equal(await page.inputValue('#knob-duration'), 'none');
  assert.equal(await page.inputValue('#knob-rate-burst'), '1');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
