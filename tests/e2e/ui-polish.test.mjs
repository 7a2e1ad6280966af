// Review fixes in real Chromium: a blank job definition sheet names its missing fields instead
// of "No problems found"; a run without downstream calls says so in one line instead of an
// empty chart box; the event log's times have one precision per log (and the page's trace
// hash of that run equals the CLI's); at 390 px the state machine opens at its start.
// Screenshots: {en,ja}-polish-blank-sheet, {en,ja}-polish-no-calls, {en,ja}-polish-log-times,
// {en,ja}-polish-phone-state-machine.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { serve, launch, openPage, openSheet, openSimulate, runPreset, screenshot, root } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const BLANK = ['no-code-name', 'no-process-name', 'no-trigger'];

async function blankSheet(lang) {
  const page = await openPage(browser, server.url, { locale: lang });
  await openSheet(page);
  return page;
}

const findings = (page) => page.$$eval('.sheet-form [data-finding]', (els) => els.map((e) => e.dataset.finding).sort());

for (const lang of ['en', 'ja']) {
  test(`a blank sheet names its missing fields, not "no problems" (${lang})`, async () => {
    const page = await blankSheet(lang);
    assert.deepEqual(await findings(page), BLANK);
    assert.equal(await page.$('[data-findings="0"]'), null, 'no "No problems found"');
    // The summary links each finding to its input, named by that input (web-fixes), the
    // message below the link.
    const items = await page.$$eval('ul.findings li', (lis) => lis.map((li) => [li.querySelector('a').getAttribute('href'), li.textContent]));
    assert.deepEqual(items.map(([h]) => h), ['#process-name', '#code-name', '#trigger']);
    const words = lang === 'en'
      ? [/^Process name Warning: Process name is empty/, /^Name in code Warning: Name in code is empty/, /^Trigger Warning: Trigger is empty/]
      : [/^処理名（日本語名） 注意: 処理名（日本語名）が空です/, /^コード上の名前 注意: コード上の名前が空です/, /^起点 注意: 起点が空です/];
    items.forEach(([, text], i) => assert.match(text, words[i]));
    // Each finding sits under its own input.
    assert.ok(await page.$('[data-field="process-name"] [data-finding="no-process-name"]'));
    assert.ok(await page.$('[data-field="code-name"] [data-finding="no-code-name"]'));
    assert.ok(await page.$('[data-field="trigger"] [data-finding="no-trigger"]'));
    await page.locator('#sec-process').scrollIntoViewIfNeeded();
    await screenshot(page, `${lang}-polish-blank-sheet`);
    // Filled in, they go; blank space does not count.
    await page.fill('#process-name', 'nightly report');
    await page.fill('#code-name', '   ');
    await page.fill('#trigger', 'the clock');
    assert.deepEqual(await findings(page), ['no-code-name']);
    await page.fill('#code-name', 'nightly_report');
    assert.deepEqual(await findings(page), []);
    assert.ok(await page.$('[data-findings="0"]'));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

for (const lang of ['en', 'ja']) {
  test(`no downstream calls: one explanatory line, not an empty chart box (${lang})`, async () => {
    const page = await openSimulate(browser, server.url, lang);
    const sel = await runPreset(page, 'retry-dead-letter', 'seed');
    const calls = await page.$eval(`${sel} figure[data-chart="calls"]`, (f) => ({
      svg: f.querySelectorAll('svg').length,
      empty: f.dataset.empty,
      text: f.textContent,
      height: f.getBoundingClientRect().height,
    }));
    const latency = await page.$eval(`${sel} figure[data-chart="latency"]`, (f) => f.getBoundingClientRect().height);
    assert.equal(calls.svg, 0, 'no empty drawing');
    assert.equal(calls.empty, 'true');
    assert.match(calls.text, lang === 'en'
      ? /^Downstream calls per secondNo downstream calls in this run: its jobs call no external system/
      : /^下流への呼び出し（毎秒）この実行では下流の呼び出しはありません（ジョブが外部システムを呼びません）。/);
    assert.ok(calls.height < 140 && calls.height < latency / 2, `a short card (${calls.height} px beside ${latency} px)`);
    await page.locator(`${sel} .sim-charts`).scrollIntoViewIfNeeded();
    await screenshot(page, `${lang}-polish-no-calls`);
    // A run with calls still draws its chart.
    const burst = await runPreset(page, 'burst-leveling', 'direct');
    assert.equal(await page.$$eval(`${burst} figure[data-chart="calls"] svg.plot .plot-bar`, (b) => b.length > 0), true);
    assert.equal(await page.$(`${burst} figure[data-chart="calls"] .chart-none-why`), null);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

/** The number of decimals of every time in the log rows shown (the head's time and any `… 1.5s`). */
const logDecimals = (page) => page.$$eval('.event-log li .tx', (els) => {
  const out = new Set();
  for (const e of els) {
    for (const m of e.textContent.matchAll(/(?:^|[\s(（])\d+\.(\d+)s(?=[\s:)）]|$)/g)) out.add(m[1].length);
  }
  return [...out].sort();
});

function cli() {
  const debug = path.join(root, 'target', 'debug', 'modality-advisor');
  return existsSync(debug) ? debug : path.join(root, 'target', 'release', 'modality-advisor');
}

for (const lang of ['en', 'ja']) {
  test(`the event log's times have one precision per log (${lang})`, async () => {
    const page = await openSimulate(browser, server.url, lang);
    // Jittered waits have microseconds: every time gets six decimals, 0 s included.
    const sel = await runPreset(page, 'burst-leveling', 'two-tier-jitter');
    await page.waitForSelector('.event-log li .tx');
    assert.deepEqual(await logDecimals(page), [6]);
    assert.match(await page.textContent('.event-log li:first-child .tx'), /^0\.000000s /);
    // The page (wasm) and the CLI (native) agree on this run's trace.
    const hash = await page.textContent(`${sel} [data-fact="trace-hash"] dd`);
    const out = execFileSync(cli(), ['simulate', '--scenario', 'burst-leveling', '--variant', 'two-tier-jitter', '--seed', '1', '--format', 'json']).toString();
    assert.equal(JSON.parse(out).trace_hash, hash.trim());
    await page.locator('.event-log').scrollIntoViewIfNeeded();
    await screenshot(page, `${lang}-polish-log-times`);
    // The seed's runs are in whole milliseconds: three decimals, as the seed prints them.
    await runPreset(page, 'retry-dead-letter', 'seed');
    await page.waitForFunction(() => /^0\.000s /.test(document.querySelector('.event-log li:first-child .tx')?.textContent ?? ''));
    assert.deepEqual(await logDecimals(page), [3]);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

for (const lang of ['en', 'ja']) {
  test(`at 390 px the state machine opens at its start, "queued" in view (${lang})`, async () => {
    const page = await openSimulate(browser, server.url, lang, 390);
    await runPreset(page, 'duplicate-execution', 'plain');
    const sm = await page.$eval('.state-machine', (box) => {
      const b = box.getBoundingClientRect();
      const q = box.querySelector('[data-state="queued"] rect').getBoundingClientRect();
      const entry = box.querySelector('circle.entry').getBoundingClientRect();
      return { box: [b.left, b.right], queued: [q.left, q.right], entry: entry.left, scrolled: box.scrollLeft, wider: box.scrollWidth > box.clientWidth };
    });
    assert.equal(sm.scrolled, 0, JSON.stringify(sm));
    assert.ok(sm.wider, 'the drawing keeps its readable size and scrolls sideways');
    assert.ok(sm.queued[0] >= sm.box[0] - 1 && sm.queued[1] <= sm.box[1] + 1, `queued in view: ${JSON.stringify(sm)}`);
    assert.ok(sm.entry >= sm.box[0] - 1, 'the entry arrow too');
    await page.locator('.state-machine').scrollIntoViewIfNeeded();
    await screenshot(page, `${lang}-polish-phone-state-machine`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
