// "Your settings" through the one run path in real Chromium: a run of 2,000 jobs has its
// run id, so its event log reads at the middle and at the end (real lines, not the first rows
// again, and no note that the worker was stopped), also after a Compare run; and a config the
// worker refuses is shown in the page's language (Japanese here).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openSimulate, screenshot } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const thousands = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** The rows in the DOM: [{ line, n, text, pending }]. */
const rows = (page) => page.$$eval('.sim-result .event-log li', (lis) => lis.map((li) => ({
  line: Number(li.dataset.line),
  n: li.querySelector('.ln').textContent,
  text: li.querySelector('.tx').textContent,
  pending: li.classList.contains('pending'),
})));

/** Scrolls the log box to fraction `f` of its height; waits (at most 5 s) until the rows
 * shown are filled in; returns them. */
async function scrollTo(page, f) {
  const top = await page.$eval('.sim-result .event-log', (el, frac) => {
    const t = Math.round((el.scrollHeight - el.clientHeight) * frac);
    el.scrollTop = t;
    el.dispatchEvent(new Event('scroll'));
    return t;
  }, f);
  await page.waitForFunction((t) => {
    const el = document.querySelector('.sim-result .event-log');
    const lis = [...el.querySelectorAll('li')];
    return Math.abs(el.scrollTop - Math.min(t, el.scrollHeight - el.clientHeight)) < 2
      && lis.length > 0 && lis.every((li) => !li.classList.contains('pending'));
  }, top, { timeout: 5_000 });
  return rows(page);
}

/** The log reads as itself at the middle and at the end: consecutive lines numbered from
 * their index, past the head sent with the result, none of them the head's texts again. */
async function assertReadable(page, total, head) {
  const headTexts = new Set(head.map((r) => r.text));
  for (const f of [0.5, 0.6, 1]) {
    const shown = await scrollTo(page, f);
    assert.ok(shown[0].line > 200, `at ${f}: line ${shown[0].line} is past the head`);
    shown.forEach((r, i) => {
      assert.equal(r.line, shown[0].line + i);
      assert.equal(r.n, thousands(r.line + 1));
      assert.match(r.text, /^\d+\.\d+s /);
    });
    const repeated = shown.filter((r) => headTexts.has(r.text)).length;
    assert.ok(repeated < shown.length / 2, `at ${f}: ${repeated} of ${shown.length} rows repeat the head`);
    if (f === 1) assert.equal(shown[shown.length - 1].line, total - 1, 'the last line');
  }
  assert.equal(await page.$('[data-log-gone]'), null, 'no note that the worker was stopped');
  assert.equal(await page.getAttribute('[data-log-total]', 'data-log-readable'), null);
}

test('Your settings with 2,000 jobs: the log reads at the middle and the end, also after Compare', async () => {
  const page = await openSimulate(browser, server.url, 'en');
  await page.click('.preset[data-scenario="custom"]');
  await page.fill('#knob-jobs', '2000');
  // Two runs, so the run id is not the first one a fresh worker would give.
  const hashSel = '.sim-result [data-fact="trace-hash"] dd';
  await page.fill('#seed', '2');
  await page.click('#sim-run');
  await page.waitForSelector(hashSel, { timeout: 60_000 });
  const first = await page.textContent(hashSel);
  await page.fill('#seed', '1');
  await page.click('#sim-run');
  await page.waitForFunction(([s, h]) => document.querySelector(s)?.textContent !== h, [hashSel, first], { timeout: 60_000 });
  await page.waitForSelector('.sim-result [data-log-total]');
  const total = Number(await page.getAttribute('[data-log-total]', 'data-log-total'));
  assert.ok(total > 2_000, `a long log: ${total} lines`);
  const head = await rows(page);
  assert.deepEqual([head[0].line, head[0].n], [0, '1']);
  await assertReadable(page, total, head);
  await screenshot(page, 'en-sim-your-settings-log');

  // Compare (A: these settings, B: one change) in its own worker; both come back, and the
  // page's own log is still readable afterwards.
  await page.click('#compare-run');
  await page.waitForSelector('.compare-result [data-hash="b"]', { timeout: 60_000 });
  assert.match(await page.textContent('.compare-result [data-hash="a"]'), /^[0-9a-f]{16}$/);
  assert.equal(await page.$('[data-compare-status="failed"]'), null);
  await scrollTo(page, 0);
  await assertReadable(page, total, head);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a config the worker refuses reads in Japanese, and in English after the switch', async () => {
  // The page's own knob checks refuse every out-of-range knob before a request is sent (the
  // knobs, the sheet and the config file share one set of limits), so no user path reaches
  // the worker with a bad config. The nearest real path: the page's request is altered on its
  // way into the real worker (max attempts 0), which refuses it with a typed ConfigError that
  // the page words in its own language.
  const context = await browser.newContext({ locale: 'ja', viewport: { width: 1280, height: 900 } });
  await context.addInitScript(() => {
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (data, ...rest) {
      if (typeof data === 'string' && data.includes('"custom"')) {
        const req = JSON.parse(data);
        req.custom.max_attempts = 0;
        data = JSON.stringify(req);
      }
      return post.call(this, data, ...rest);
    };
  });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (err) => page.errors.push(String(err)));
  await page.goto(server.url);
  await page.click('.tabs button:nth-child(3)');
  await page.waitForSelector('section.simulate');
  await page.click('.preset[data-scenario="custom"]');
  await page.click('#sim-run');
  await page.waitForSelector('[data-status="failed"]', { timeout: 60_000 });
  const ja = await page.textContent('[data-status="failed"]');
  assert.match(ja, /kinds\[0\]\.max_attempts が 0 です。1〜1000 の範囲で指定してください/);
  assert.doesNotMatch(ja, /allowed/);
  await screenshot(page, 'ja-sim-config-refused');
  await page.click('.lang button[data-lang="en"]');
  await page.waitForSelector('html[lang="en"]');
  assert.match(await page.textContent('[data-status="failed"]'), /kinds\[0\]\.max_attempts is 0; allowed: 1 to 1000/);
  assert.deepEqual(page.errors, []);
  await context.close();
});
