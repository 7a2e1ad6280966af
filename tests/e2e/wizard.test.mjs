// The decision wizard end to end in real Chromium, against the release build.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, screenshot } from './harness.mjs';

// Independent expectations (written here, not computed by the app): for each outcome, the
// answers that lead to it, the nodes and edges of its path, and its title in both languages.
const WALKS = {
  batch: {
    answers: [['time-triggered', 'yes']],
    title: { en: 'Scheduled batch', ja: '定期バッチ' },
  },
  'async-enqueue': {
    answers: [['time-triggered', 'no'], ['needs-result-now', 'no']],
    title: { en: 'Asynchronous: enqueue a job', ja: '非同期：ジョブをキューに登録' },
  },
  'async-ticket': {
    answers: [['time-triggered', 'no'], ['needs-result-now', 'yes'], ['within-seconds', 'no']],
    title: { en: 'Asynchronous with a ticket', ja: '非同期：受付番号を返す' },
  },
  sync: {
    answers: [['time-triggered', 'no'], ['needs-result-now', 'yes'], ['within-seconds', 'yes'], ['external-call', 'no']],
    title: { en: 'Stay synchronous', ja: '同期のまま' },
  },
  'sync-timeout': {
    answers: [['time-triggered', 'no'], ['needs-result-now', 'yes'], ['within-seconds', 'yes'],
      ['external-call', 'yes'], ['keep-accepting-when-down', 'no']],
    title: { en: 'Synchronous, with a timeout on the call', ja: '同期：呼び出しにタイムアウトを設定' },
  },
};

function expectedPath(outcome) {
  const nodes = ['start', ...WALKS[outcome].answers.map(([q]) => q), outcome];
  const edges = nodes.slice(1).map((n, i) => `${nodes[i]}--${n}`);
  return { nodes: nodes.sort(), edges: edges.sort() };
}

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

async function setLang(page, lang) {
  await page.click(`.lang button[data-lang="${lang}"]`);
  await page.waitForSelector(`html[lang="${lang}"]`);
}

async function answer(page, question, value) {
  await page.waitForSelector(`form.question[data-question="${question}"]`);
  await page.check(`#q-${question}-${value}`);
  await page.click('form.question button[type="submit"]');
}

async function highlighted(page) {
  return page.evaluate(() => {
    const ids = (sel, attr) => [...document.querySelectorAll(sel)].map((e) => e.getAttribute(attr)).sort();
    return {
      nodes: ids('svg.flowchart .fc-node.on-path', 'data-node'),
      edges: ids('svg.flowchart .fc-edge.on-path', 'data-edge'),
      arrows: ids('svg.flowchart .fc-arrow.on-path', 'data-edge'),
      labels: ids('svg.flowchart .fc-label.on-path', 'data-edge'),
    };
  });
}

for (const lang of ['en', 'ja']) {
  for (const outcome of Object.keys(WALKS)) {
    test(`${lang}: walk to ${outcome}; exactly its path is highlighted`, async () => {
      const page = await openPage(browser, server.url);
      await setLang(page, lang);
      for (const [q, v] of WALKS[outcome].answers) await answer(page, q, v);
      const card = await page.waitForSelector(`article.result[data-outcome="${outcome}"]`);
      assert.equal((await card.$eval('.outcome', (e) => e.textContent)).trim(), WALKS[outcome].title[lang]);
      const reasons = await card.$$eval('.reasons li', (lis) => lis.length);
      assert.equal(reasons, WALKS[outcome].answers.length, 'one reason per answer');
      assert.ok((await card.$$eval('.tradeoffs li', (lis) => lis.length)) >= 2, 'trade-offs shown');
      const want = expectedPath(outcome);
      const got = await highlighted(page);
      assert.deepEqual(got.nodes, want.nodes);
      assert.deepEqual(got.edges, want.edges);
      assert.deepEqual(got.arrows, want.edges);
      // The start edge has no label; every other edge on the path does.
      assert.deepEqual(got.labels, want.edges.filter((e) => !e.startsWith('start--')));
      await screenshot(page, `${lang}-${outcome}`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
}

test('changing an earlier answer drops the answers that no longer apply, visibly', async () => {
  const page = await openPage(browser, server.url);
  for (const [q, v] of WALKS.sync.answers) await answer(page, q, v);
  await page.waitForSelector('article.result[data-outcome="sync"]');
  await page.click('li[data-answer="needs-result-now"] button');
  // The earlier answer is pre-selected when going back to it.
  assert.equal(await page.isChecked('#q-needs-result-now-yes'), true);
  await answer(page, 'needs-result-now', 'no');
  await page.waitForSelector('article.result[data-outcome="async-enqueue"]');
  const dropped = await page.$$eval('[data-dropped]', (els) => els.map((e) => e.dataset.dropped));
  assert.deepEqual(dropped, ['within-seconds', 'external-call']);
  const kept = await page.$$eval('li[data-answer]', (els) => els.map((e) => e.dataset.answer));
  assert.deepEqual(kept, ['time-triggered', 'needs-result-now']);
  assert.deepEqual((await highlighted(page)).nodes, expectedPath('async-enqueue').nodes);
  await screenshot(page, 'en-change-answer');
  // Back from the result goes to the last question; the answer is kept and shown.
  await page.click('article.result button.secondary');
  await page.waitForSelector('form.question[data-question="needs-result-now"]');
  assert.equal(await page.isChecked('#q-needs-result-now-no'), true);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a change that keeps the path keeps the later answers', async () => {
  const page = await openPage(browser, server.url);
  for (const [q, v] of WALKS.sync.answers) await answer(page, q, v);
  await page.click('li[data-answer="time-triggered"] button');
  await answer(page, 'time-triggered', 'no');
  await page.waitForSelector('article.result[data-outcome="sync"]');
  assert.equal(await page.$$eval('[data-dropped]', (els) => els.length), 0);
  await page.context().close();
});

test('keyboard only: walk to async-enqueue with Tab, arrows and Enter', async () => {
  const page = await openPage(browser, server.url);
  const press = async (key, n = 1) => { for (let i = 0; i < n; i += 1) await page.keyboard.press(key); };
  const active = () => page.evaluate(() => {
    const a = document.activeElement;
    return a ? (a.id || a.getAttribute('type') || a.tagName.toLowerCase()) : '';
  });
  // Tab until a radio of the first question has focus (bounded).
  const tabTo = async (pred) => {
    for (let i = 0; i < 15; i += 1) {
      await press('Tab');
      if (pred(await active())) return;
    }
    assert.fail(`focus never reached the wanted element; last: ${await active()}`);
  };
  await tabTo((id) => id.startsWith('q-time-triggered-'));
  await press('ArrowRight'); // moves to and selects "no"
  assert.equal(await page.isChecked('#q-time-triggered-no'), true);
  await tabTo((id) => id === 'submit');
  await press('Enter');
  await page.waitForSelector('form.question[data-question="needs-result-now"]');
  // Focus moved to the new question's heading.
  assert.equal(await active(), 'q-needs-result-now-title');
  await tabTo((id) => id.startsWith('q-needs-result-now-'));
  await press('ArrowRight');
  assert.equal(await page.isChecked('#q-needs-result-now-no'), true);
  await tabTo((id) => id === 'submit');
  await press('Enter');
  await page.waitForSelector('article.result[data-outcome="async-enqueue"]');
  assert.equal(await active(), 'result-title');
  // The focus ring is visible on a focused control.
  await tabTo((id) => id === 'button');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.notEqual(outline, 'none');
  await screenshot(page, 'en-keyboard-result');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('within-seconds from numbers: the comparison is shown and decides the answer', async () => {
  const page = await openPage(browser, server.url);
  await answer(page, 'time-triggered', 'no');
  await answer(page, 'needs-result-now', 'yes');
  await page.waitForSelector('form.question[data-question="within-seconds"]');
  await page.check('#mode-numbers');
  await page.fill('#target-ms', '2000');
  await page.fill('#p95-ms', 'abc');
  await page.click('form.question button[type="submit"]');
  // Bad input: an error names the field and the range; the question stays.
  const err = await page.textContent('.field:has(#p95-ms) .error');
  assert.match(err, /p95/);
  assert.match(err, /604,800,000/);
  assert.ok(await page.$('form.question[data-question="within-seconds"]'));
  await page.fill('#p95-ms', '8000');
  assert.equal((await page.textContent('.comparison')).trim(), 'p95 8,000 ms > target 2,000 ms → no');
  await screenshot(page, 'en-numbers');
  await page.click('form.question button[type="submit"]');
  await page.waitForSelector('article.result[data-outcome="async-ticket"]');
  const first = await page.textContent('.reasons li:nth-child(3)');
  assert.match(first, /^p95 8,000 ms > target 2,000 ms → no/);
  // At the target counts as within.
  await page.click('li[data-answer="within-seconds"] button');
  await page.fill('#p95-ms', '2000');
  assert.equal((await page.textContent('.comparison')).trim(), 'p95 2,000 ms ≤ target 2,000 ms → yes');
  await page.click('form.question button[type="submit"]');
  await page.waitForSelector('form.question[data-question="external-call"]');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('within-seconds from numbers: full-width digits are read as the sheet reads them (Japanese input methods)', async () => {
  const page = await openPage(browser, server.url);
  await answer(page, 'time-triggered', 'no');
  await answer(page, 'needs-result-now', 'yes');
  await page.waitForSelector('form.question[data-question="within-seconds"]');
  await page.check('#mode-numbers');
  await page.fill('#target-ms', '２０００');
  await page.fill('#p95-ms', '８，０００');
  assert.equal(await page.getAttribute('#target-ms', 'aria-invalid'), 'false');
  assert.equal(await page.getAttribute('#p95-ms', 'aria-invalid'), 'false');
  assert.equal((await page.textContent('.comparison')).trim(), 'p95 8,000 ms > target 2,000 ms → no');
  // A number grouped wrongly is refused, as in the sheet's fields.
  await page.fill('#p95-ms', '8,00');
  assert.equal(await page.getAttribute('#p95-ms', 'aria-invalid'), 'true');
  assert.equal(await page.$('.comparison'), null);
  await page.fill('#p95-ms', '８０００');
  await page.click('form.question button[type="submit"]');
  await page.waitForSelector('article.result[data-outcome="async-ticket"]');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('language: defaults from the browser, switches, and is remembered across reloads', async () => {
  const page = await openPage(browser, server.url, { locale: 'ja-JP' });
  assert.equal(await page.getAttribute('html', 'lang'), 'ja');
  assert.equal((await page.textContent('h1')).trim(), '同期・非同期・バッチ 判断ツール');
  await setLang(page, 'en');
  await page.reload();
  await page.waitForSelector('form.question');
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  assert.equal((await page.textContent('h1')).trim(), 'Sync / Async / Batch Advisor');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('phone width (390 px): no horizontal scrolling, chart below the wizard', async () => {
  for (const lang of ['en', 'ja']) {
    const page = await openPage(browser, server.url, { width: 390, height: 844, locale: lang });
    await answer(page, 'time-triggered', 'no');
    const { scrollW, clientW, chartTop, mainBottom } = await page.evaluate(() => ({
      scrollW: document.documentElement.scrollWidth,
      clientW: document.documentElement.clientWidth,
      chartTop: document.querySelector('.chart').getBoundingClientRect().top,
      mainBottom: document.querySelector('form.question').getBoundingClientRect().bottom,
    }));
    assert.ok(scrollW <= clientW, `page scrolls sideways: ${scrollW} > ${clientW}`);
    assert.ok(chartTop > mainBottom, 'the chart folds below the question');
    await screenshot(page, `${lang}-phone`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('runs under a strict Content-Security-Policy: no inline script, no violations', async () => {
  const page = await openPage(browser, server.url);
  const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval';/);
  assert.doesNotMatch(csp, /unsafe-inline/);
  const inline = await page.$$eval('script:not([src])', (els) => els.length);
  assert.equal(inline, 0, 'no inline scripts');
  await page.evaluate(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(e.violatedDirective));
  });
  for (const [q, v] of WALKS['sync-timeout'].answers) await answer(page, q, v);
  await page.waitForSelector('article.result[data-outcome="sync-timeout"]');
  assert.deepEqual(await page.evaluate(() => window.cspViolations), []);
  assert.deepEqual(page.errors, []);
  // Nothing for the console to complain about either (e.g. an ignored `integrity` on the
  // wasm preload, a deprecated init call).
  assert.deepEqual(page.warnings, []);
  await page.context().close();
});

test('typing numbers one key at a time keeps focus and every digit, errors included', async () => {
  const page = await openPage(browser, server.url);
  await answer(page, 'time-triggered', 'no');
  await answer(page, 'needs-result-now', 'yes');
  await page.waitForSelector('form.question[data-question="within-seconds"]');
  await page.check('#mode-numbers');
  await page.click('#target-ms');
  await page.keyboard.type('2000');
  await page.click('#p95-ms');
  await page.keyboard.type('-5');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'p95-ms', 'focus stays while an error appears');
  assert.equal(await page.inputValue('#p95-ms'), '-5');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('8000');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'p95-ms');
  assert.equal(await page.inputValue('#target-ms'), '2000');
  assert.equal(await page.inputValue('#p95-ms'), '8000');
  assert.equal((await page.textContent('.comparison')).trim(), 'p95 8,000 ms > target 2,000 ms → no');
  await page.keyboard.press('Enter');
  await page.waitForSelector('article.result[data-outcome="async-ticket"]');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Enter with nothing chosen: the hint appears and focus stays on the same choice', async () => {
  const page = await openPage(browser, server.url);
  for (let i = 0; i < 15; i += 1) {
    await page.keyboard.press('Tab');
    if ((await page.evaluate(() => document.activeElement.id)).startsWith('q-time-triggered-')) break;
  }
  const before = await page.evaluate(() => document.activeElement.id);
  await page.keyboard.press('Enter');
  await page.waitForSelector('fieldset.choices .error');
  assert.equal(await page.evaluate(() => document.activeElement.id), before);
  await page.keyboard.press('Space');
  assert.equal(await page.isChecked(`#${before}`), true);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Back and Forward move between questions and screens; a URL with a place opens there', async () => {
  const page = await openPage(browser, server.url);
  const question = () => page.getAttribute('form.question', 'data-question');
  await answer(page, 'time-triggered', 'no');
  await answer(page, 'needs-result-now', 'no');
  await page.waitForSelector('article.result');
  assert.match(page.url(), /#result\/[a-z0-9-]+$/, 'the entry names the process');
  await page.goBack();
  await page.waitForSelector('form.question[data-question="needs-result-now"]');
  assert.match(page.url(), /#q\/needs-result-now\/[a-z0-9-]+$/);
  await page.goBack();
  await page.waitForSelector('form.question[data-question="time-triggered"]');
  await page.goForward();
  assert.equal(await question(), 'needs-result-now');
  await page.goForward();
  await page.waitForSelector('article.result');
  await page.click('#open-sheet');
  await page.waitForSelector('section.sheet');
  await page.click('.tabs button:nth-child(3)');
  await page.waitForSelector('section.simulate:visible');
  assert.match(page.url(), /#simulate\/[a-z0-9-]+$/);
  await page.goBack();
  await page.waitForSelector('section.sheet');
  await page.goBack();
  await page.waitForSelector('article.result');
  // The answers were kept all along; a reload on a place opens it again.
  await page.goto(server.url.replace(/\/$/, '') + '/#sheet');
  await page.waitForSelector('section.sheet');
  await page.goto(server.url.replace(/\/$/, '') + '/#simulate');
  await page.waitForSelector('section.simulate:visible');
  // A fragment naming nothing is put right in place.
  await page.goto(server.url.replace(/\/$/, '') + '/#bogus');
  await page.waitForFunction(() => /^#simulate\/[a-z0-9-]+$/.test(location.hash));
  assert.deepEqual(page.errors, []);
  await page.context().close();
  // A fresh browser asked for the sheet before any decision shows the first question, and
  // the address says so.
  const fresh = await openPage(browser, server.url.replace(/\/$/, '') + '/#sheet');
  await fresh.waitForSelector('form.question[data-question="time-triggered"]');
  await fresh.waitForFunction(() => /^#q\/time-triggered\/[a-z0-9-]+$/.test(location.hash));
  // about:blank and this page: the correction added no entry.
  assert.equal(await fresh.evaluate(() => history.length), 2, 'corrected in place, no extra entry');
  await fresh.goto(server.url.replace(/\/$/, '') + '/#sheet');
  await fresh.waitForFunction(() => /^#q\/time-triggered\/[a-z0-9-]+$/.test(location.hash));
  assert.deepEqual(fresh.errors, []);
  await fresh.context().close();
});
