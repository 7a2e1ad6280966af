// The simulator is a module of its own (src/bin/sim-ui.rs), fetched when it is first needed,
// in real Chromium:
// (a) the first question's load fetches none of it; opening Simulate fetches it, the screen
//     works (its clicks never reach the page's own controls), follows the page's language switch and keeps its result across a visit to
//     another screen;
// (b) when its wasm cannot be fetched, the Simulate screen says so in the page's language,
//     and the rest of the app (the questions, the answers) goes on.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, runPreset } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

/** The page's requests for the simulator module's files, as they happen. */
function watchModule(page) {
  const seen = [];
  page.on('request', (r) => {
    const name = new URL(r.url()).pathname.split('/').pop();
    if (name.startsWith('sim-ui')) seen.push(name);
  });
  return seen;
}

test('(a) fetched on Simulate only; follows the language; keeps its result elsewhere', async () => {
  const context = await browser.newContext({ locale: 'ja-JP', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const fetched = watchModule(page);
  await page.goto(server.url);
  await page.waitForSelector('form.question');
  // An answer, so the questions have something to keep.
  await page.check('#q-time-triggered-no');
  await page.click('form.question button[type="submit"]');
  await page.waitForSelector('form.question[data-question="needs-result-now"]');
  assert.deepEqual(fetched, [], 'the first question must not fetch the simulator module');

  await page.click('.tabs button:nth-child(3)');
  await page.waitForSelector('section.simulate');
  assert.ok(fetched.includes('sim-ui.js') && fetched.includes('sim-ui_bg.wasm'), `fetched: ${fetched}`);
  assert.equal(await page.textContent('#sim-title'), 'ジョブキューを動かしてみる');

  // The module's clicks are the module's: two Yew apps on one document once shared their
  // event brands, and a click on a preset pressed the page's English button.
  for (const preset of await page.$$eval('.preset', (els) => els.map((e) => e.dataset.scenario))) {
    await page.click(`.preset[data-scenario="${preset}"]`);
    assert.equal(await page.getAttribute('.lang button[aria-pressed="true"]', 'data-lang'), 'ja', `after ${preset}`);
    assert.equal(await page.textContent('.tabs button[aria-current="page"]'), await page.textContent('.tabs button:nth-child(3)'));
  }
  const result = await runPreset(page, 'retry-dead-letter', 'seed');
  assert.equal(await page.getAttribute('.lang button[aria-pressed="true"]', 'data-lang'), 'ja');
  assert.equal(await page.textContent('#sim-title'), 'ジョブキューを動かしてみる');
  // The page's language switch reaches the module.
  await page.click('.lang button[data-lang="en"]');
  await page.waitForFunction(() => document.querySelector('#sim-title')?.textContent === 'Run the queue engine');
  // Another screen and back: the same result, not fetched again.
  const count = fetched.length;
  await page.click('.tabs button:nth-child(1)');
  await page.waitForSelector('form.question[data-question="needs-result-now"]');
  assert.equal(await page.isVisible('section.simulate'), false, 'the simulator hides on another screen');
  await page.click('.tabs button:nth-child(3)');
  await page.waitForSelector(`${result} .sim-charts figure[data-chart="calls"]`);
  assert.equal(fetched.length, count, 'the module is fetched once per page');
  assert.deepEqual(errors, []);
  await context.close();
});

test('(b) a module that cannot be fetched: said on the screen, the app goes on', async () => {
  const context = await browser.newContext({ locale: 'ja-JP', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.route('**/sim-ui_bg.wasm', (route) => route.abort());
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(server.url);
  await page.waitForSelector('form.question');
  await page.check('#q-time-triggered-no');
  await page.click('form.question button[type="submit"]');
  await page.click('.tabs button:nth-child(3)');
  const alert = await page.waitForSelector('#simulator-failed');
  const text = await alert.textContent();
  assert.match(text, /シミュレーターを読み込めませんでした/);
  assert.match(text, /再読み込み/);
  // The questions still answer, with the answer given before.
  await page.click('.tabs button:nth-child(1)');
  await page.waitForSelector('form.question[data-question="needs-result-now"]');
  await page.check('#q-needs-result-now-no');
  await page.click('form.question button[type="submit"]');
  await page.waitForSelector('form.question, article.result');
  assert.deepEqual(pageErrors, [], 'no error escapes the page');
  await context.close();
});
