// The event log in real Chromium: a run of more than a million log lines shows its total,
// keeps fewer than 200 rows in the DOM, scrolls to its last line (numbered as the total) with
// no main-thread task over 200 ms, and switches to Japanese with the language switch.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, screenshot, openSimulate, runThenCancel } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const open = (lang = 'en') => openSimulate(browser, server.url, lang);

async function watchLongTasks(page) {
  await page.evaluate(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: false });
  });
}

/** The rows in the DOM: [{ line, n, text, pending }]. */
const rows = (page) => page.$$eval('.event-log li', (lis) => lis.map((li) => ({
  line: Number(li.dataset.line),
  n: li.querySelector('.ln').textContent,
  text: li.querySelector('.tx').textContent,
  pending: li.classList.contains('pending'),
})));

/** Scrolls the log box to `top` (px) and waits until the rows shown are filled in. */
async function scrollTo(page, top) {
  await page.$eval('.event-log', (el, t) => { el.scrollTop = t; el.dispatchEvent(new Event('scroll')); }, top);
  await page.waitForFunction((t) => {
    const el = document.querySelector('.event-log');
    const lis = [...el.querySelectorAll('li')];
    return Math.abs(el.scrollTop - Math.min(t, el.scrollHeight - el.clientHeight)) < 2
      && lis.length > 0 && lis.every((li) => !li.classList.contains('pending'));
  }, top, { timeout: 20_000 });
}

const thousands = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

test('a log of more than a million lines: total, few rows, the last line, Japanese', async () => {
  const page = await open();
  await page.click('.preset[data-scenario="mmc-load"]');
  await page.fill('#jobs', '400000');
  await page.click('#sim-run');
  await page.waitForSelector('.sim-result[data-scenario="mmc-load"] .event-log', { timeout: 120_000 });

  const total = Number(await page.getAttribute('[data-log-total]', 'data-log-total'));
  assert.ok(total >= 1_000_000, `at least a million lines: ${total}`);
  assert.match(await page.textContent('.log-total'), new RegExp(`^${thousands(total)} lines`));

  // The top: line 1 is the first enqueue, from the lines sent with the result.
  let shown = await rows(page);
  assert.ok(shown.length > 0 && shown.length < 200, `${shown.length} rows in the DOM`);
  assert.deepEqual([shown[0].line, shown[0].n], [0, '1']);
  assert.match(shown[0].text, /^0\.\d+s job#1 work 0\/\d+: enqueued$/);

  // Scrolling through the whole range never blocks the main thread.
  await watchLongTasks(page);
  const height = await page.$eval('.event-log', (el) => el.scrollHeight - el.clientHeight);
  for (const f of [0.1, 0.25, 0.5, 0.5003, 0.75, 0.9]) {
    await scrollTo(page, Math.round(height * f));
    shown = await rows(page);
    assert.ok(shown.length < 200, `${shown.length} rows in the DOM`);
    // Consecutive lines, numbered from their index.
    shown.forEach((r, i) => {
      assert.equal(r.line, shown[0].line + i);
      assert.equal(r.n, thousands(r.line + 1));
      assert.match(r.text, /^\d+\.\d+s /);
    });
  }
  // A quick fling: many scroll events, then the rows catch up.
  await page.$eval('.event-log', async (el) => {
    for (let i = 0; i < 60; i += 1) {
      el.scrollTop = (el.scrollHeight * i) / 60;
      await new Promise((r) => requestAnimationFrame(r));
    }
  });
  await scrollTo(page, height);
  shown = await rows(page);
  const last = shown[shown.length - 1];
  assert.equal(last.line, total - 1);
  assert.equal(last.n, thousands(total));
  assert.match(last.text, /: (done|error .* → dead)$/);
  const longest = Math.max(0, ...(await page.evaluate(() => window.longTasks)));
  console.log(`log of ${total} lines: longest main-thread task while scrolling ${longest.toFixed(0)} ms`);
  assert.ok(longest < 200, `a main-thread task took ${longest} ms`);
  await screenshot(page, 'en-sim-log');

  // The language switch re-renders the lines in view in Japanese; the count stays.
  await page.click('.lang button[data-lang="ja"]');
  await page.waitForSelector('html[lang="ja"]');
  await page.waitForFunction(() => /完了|デッドレター/.test(document.querySelector('.event-log li:last-child .tx')?.textContent ?? ''));
  shown = await rows(page);
  assert.equal(shown[shown.length - 1].line, total - 1);
  assert.match(await page.textContent('.log-total'), new RegExp(`^全 ${thousands(total)} 行`));
  await scrollTo(page, 0);
  assert.match((await rows(page))[0].text, /job#1 work 0\/\d+: キューに投入（enqueued）$/);
  await screenshot(page, 'ja-sim-log');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a preset\'s short log is shown whole, in both languages', async () => {
  const page = await open();
  await page.click('.preset[data-scenario="duplicate-execution"]');
  await page.check('#variant-plain');
  await page.click('#sim-run');
  await page.waitForSelector('.sim-result[data-scenario="duplicate-execution"] .event-log');
  let shown = await rows(page);
  assert.equal(await page.getAttribute('[data-log-total]', 'data-log-total'), String(shown.length));
  assert.deepEqual(shown.map((r) => r.text), [
    '0.000s job#1 add_points 0/3: enqueued',
    '1000.000s A job#1 add_points 1/3: claimed (UPDATE … RETURNING)',
    '1000.000s A job#1 add_points 1/3: side effect applied: balance 0 → 100',
    '1000.000s A job#1 add_points 1/3: worker dies before complete()',
    '1031.000s B job#1 add_points 2/3: claimed (UPDATE … RETURNING)',
    '1031.000s B job#1 add_points 2/3: side effect applied: balance 100 → 200',
    '1031.000s B job#1 add_points 2/3: done',
  ]);
  await page.click('.lang button[data-lang="ja"]');
  await page.waitForSelector('html[lang="ja"]');
  shown = await rows(page);
  assert.equal(shown[2].text, '1000.000s A job#1 add_points 1/3: 副作用を適用：残高 0 → 100');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('after a cancel, the previous result keeps its first lines and says where the rest went', async () => {
  const page = await open();
  await page.click('.preset[data-scenario="mmc-load"]');
  await page.fill('#jobs', '20000');
  await page.click('#sim-run');
  await page.waitForSelector('.sim-result[data-scenario="mmc-load"] .event-log', { timeout: 60_000 });
  const total = Number(await page.getAttribute('[data-log-total]', 'data-log-total'));
  await scrollTo(page, 20_000);
  // A long run, cancelled: its worker (which held the log above) is stopped.
  await page.fill('#jobs', '1000000');
  await runThenCancel(page);
  await page.waitForSelector('[data-status="cancelled"]');
  assert.equal(await page.getAttribute('[data-log-total]', 'data-log-total'), String(total));
  await page.$eval('.event-log', (el) => { el.scrollTop = el.scrollHeight / 2; });
  await page.waitForSelector('[data-log-gone]');
  await scrollTo(page, 0);
  assert.match((await rows(page))[0].text, /job#1 work 0\/\d+: enqueued$/);
  // Only the lines sent with the result scroll now: at the end, every row is a real line
  // (no "…" waiting for a worker that is gone), the last one the 200th.
  const bottom = await page.$eval('.event-log', (el) => el.scrollHeight);
  await page.$eval('.event-log', (el, t) => { el.scrollTop = t; el.dispatchEvent(new Event('scroll')); }, bottom);
  await page.waitForFunction(() => {
    const el = document.querySelector('.event-log');
    const lis = [...el.querySelectorAll('li')];
    return Math.abs(el.scrollTop - (el.scrollHeight - el.clientHeight)) < 2
      && lis.length > 0 && lis.at(-1).dataset.line === '199';
  }, null, { timeout: 5_000 });
  const end = await rows(page);
  assert.ok(end.length > 0 && end.every((r) => !r.pending), JSON.stringify(end.filter((r) => r.pending).slice(0, 3)));
  assert.equal(end.at(-1).line, 199);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
