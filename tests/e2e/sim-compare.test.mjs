// Compare in real Chromium: a finished comparison's column headings, and why it could not
// run, follow a language switch.
// Screenshots: ja-sim-compare-relang.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openSimulate, screenshot } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

async function switchLang(page, lang) {
  await page.click(`.lang button[data-lang="${lang}"]`);
  await page.waitForSelector(`html[lang="${lang}"]`);
}

const heads = (page) => page.$$eval('.compare-col > h4', (hs) => hs.map((h) => h.textContent));

test('compare: the columns\' headings and a refusal are worded in the language of the moment', async () => {
  const page = await openSimulate(browser, server.url, 'en');
  await page.click('.preset[data-scenario="duplicate-execution"]');
  await page.check('#variant-plain');
  await page.fill('#seed', '5');
  await page.click('#compare-run');
  await page.waitForSelector('.compare-result');
  assert.deepEqual(await heads(page), ['A: Duplicate execution / No key', 'B: Duplicate execution / Idempotency key']);
  await switchLang(page, 'ja');
  assert.deepEqual(await heads(page), ['A：二重実行 / キーなし', 'B：二重実行 / 冪等キーあり']);
  await switchLang(page, 'en');
  assert.deepEqual(await heads(page), ['A: Duplicate execution / No key', 'B: Duplicate execution / Idempotency key']);

  // Your settings against a copy with one change: the change's label is reworded too.
  await page.click('.preset[data-scenario="custom"]');
  await page.click('#compare-run');
  await page.waitForFunction(() => /Your settings/.test(document.querySelector('.compare-col[data-side="a"] > h4')?.textContent ?? ''));
  const [a, b] = await heads(page);
  assert.match(b, /^B: Idempotency key: (on → off|off → on)$/);
  await switchLang(page, 'ja');
  const [aJa, bJa] = await heads(page);
  assert.notEqual(aJa, a);
  assert.doesNotMatch(aJa, /Your settings/);
  assert.match(bJa, /^B：冪等キー：(あり → なし|なし → あり)$/);
  await screenshot(page, 'ja-sim-compare-relang');

  // Why Compare could not run, said when it was pressed, follows the switch as well.
  await page.fill('#seed', '-1');
  await page.click('#compare-run');
  await page.waitForSelector('[data-compare-status="failed"]');
  assert.match(await page.textContent('[data-compare-status="failed"] li'), /シード/);
  await switchLang(page, 'en');
  assert.match(await page.textContent('[data-compare-status="failed"] li'), /[Ss]eed/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('compare: both event logs side by side, the first line where they part highlighted, in both languages', async () => {
  const page = await openSimulate(browser, server.url, 'en');
  await page.click('.preset[data-scenario="duplicate-execution"]');
  await page.check('#variant-plain');
  await page.fill('#seed', '1');
  await page.click('#compare-run');
  await page.waitForSelector('.compare-logs');
  // The summary names both lines: A applies the effect a second time, B's key stops it.
  const [a, b] = await page.$$eval('.log-first-diff code', (cs) => cs.map((c) => c.textContent));
  assert.match(a, /side effect applied: balance 100 → 200/);
  assert.match(b, /idempotency key .* already recorded/);
  // Exactly one row is marked, it is the same pair, and the rows above it are equal.
  const marked = await page.$$eval('table.compare-log tr.first-diff', (rs) => rs.map((r) => [...r.cells].map((c) => c.textContent)));
  assert.equal(marked.length, 1);
  assert.deepEqual(marked[0], [a, b]);
  const above = await page.$$eval('table.compare-log tbody tr', (rs) => {
    const i = rs.findIndex((r) => r.classList.contains('first-diff'));
    return rs.slice(0, i).map((r) => [r.cells[0].textContent, r.cells[1].textContent]);
  });
  assert.ok(above.length > 0);
  for (const [x, y] of above) assert.equal(x, y);
  // The scrolling table can be reached by keyboard and is named.
  assert.equal(await page.getAttribute('.log-pair', 'tabindex'), '0');
  await switchLang(page, 'ja');
  assert.match(await page.textContent('.log-first-diff'), /最初に違う行/);
  assert.match(await page.textContent('table.compare-log tr.first-diff'), /副作用|冪等キー/);
  await screenshot(page, 'ja-sim-compare-logs');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('compare: the workers change goes 3 → 4 (any count), and the whole event logs are compared', async () => {
  const page = await openSimulate(browser, server.url, 'en');
  // Issue 25's user: 500 updates to a partner allowing 10 calls a second, on 3 workers.
  await page.click('.preset[data-scenario="custom"]');
  await page.selectOption('#knob-downstream', 'on');
  await page.fill('#knob-jobs', '500');
  await page.fill('#knob-workers', '3');
  await page.fill('#knob-capacity', '0');
  await page.fill('#knob-rate-limit', '10');
  const workers = await page.$eval('#compare-with option[data-change="workers"]', (o) => o.value);
  await page.selectOption('#compare-with', workers);
  const label = () => page.$eval('#compare-with', (s) => s.selectedOptions[0].textContent);
  assert.equal(await label(), 'Workers: 3 → 4', 'one more worker, not twice as many');
  assert.equal(await page.inputValue('#compare-workers'), '4');
  // Any count, typed; out of range is refused naming the field and the range.
  await page.fill('#compare-workers', '0');
  assert.match(await page.textContent('[data-finding="compare-workers"]'), /Workers: 0 workers is out of range; allowed 1 workers to 1,000 workers/);
  await page.click('#compare-run');
  await page.waitForSelector('[data-compare-status="failed"]');
  assert.match(await page.textContent('[data-compare-status="failed"] li'), /Workers: 0 workers is out of range/);
  await page.fill('#compare-workers', '6');
  assert.equal(await label(), 'Workers: 3 → 6');
  await page.fill('#compare-workers', '4');
  assert.equal(await label(), 'Workers: 3 → 4');
  await page.click('#compare-run');
  await page.waitForSelector('.compare-result .compare-logs');
  assert.deepEqual(await heads(page), ['A: Your settings', 'B: Workers: 3 → 4']);
  // The runs end at different times, and the logs are never called the same: the first line
  // that differs lies past the burst's 500 enqueues (the old comparison looked at 200 lines).
  assert.equal(await page.$eval('tr[data-diff="end"]', (tr) => tr.classList.contains('differs')), true);
  const before = Number(await page.getAttribute('.log-first-diff', 'data-same-before'));
  assert.ok(before >= 500, `${before} lines the same before the runs part`);
  assert.doesNotMatch(await page.textContent('.compare-logs'), /line for line/);
  assert.match(await page.textContent('.log-first-diff p'), /^The runs part here — the first [\d,]+ lines are the same in both/);
  assert.equal(await page.$$eval('table.compare-log tr.first-diff', (rs) => rs.length), 1);
  assert.match(await page.textContent('[data-log-window]'), /^Rows [\d,]+–[\d,]+ of [\d,]+ are shown/);
  await page.click('.lang button[data-lang="ja"]');
  await page.waitForSelector('html[lang="ja"]');
  assert.match(await page.textContent('.log-first-diff p'), /^2つの実行はここで分かれます。先頭の [\d,]+ 行は両方で同じで、最初に違う行/);
  assert.deepEqual(await heads(page), ['A：あなたの設定', 'B：ワーカー数：3 → 4']);
  await screenshot(page, 'ja-sim-compare-workers');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
