// The job sheet's findings in real Chromium: a blank sheet names its missing fields instead of
// "No problems found"; the summary's links are named by their field and land below the sticky
// header; the job-name pair's warnings line up; the "Check results" panel lists the fields that
// show a refused value, with the field's own message, in either language.
// Screenshots: {en,ja}-sheet-findings-blank, {en,ja}-{1280,390}-sheet-findings-links,
// {en,ja}-{1280,390}-sheet-findings-jumped, {en,ja}-1280-sheet-findings-name-pair,
// en-sheet-refused-panel.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, openSheet, screenshot } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

async function switchLang(page, lang) {
  await page.click(`.lang button[data-lang="${lang}"]`);
  await page.waitForSelector(`html[lang="${lang}"]`);
}

const BLANK = ['no-code-name', 'no-process-name', 'no-trigger'];

async function blankSheet(lang) {
  const page = await openPage(browser, server.url, { locale: lang });
  await openSheet(page);
  return page;
}

const findings = (page) => page.$$eval('.sheet-form [data-finding]', (els) => els.map((e) => e.dataset.finding).sort());

const open = (lang, width) => openPage(browser, server.url, { locale: lang, width, height: width < 600 ? 844 : 900 });

/** Rect of `sel` in viewport coordinates. */
const rect = (page, sel) => page.$eval(sel, (e) => {
  const r = e.getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
});

/** Asserts the element `sel` (and the label of an input) lies below the sticky top bar and
 * inside the viewport. */
async function assertVisible(page, sel, what) {
  const bar = await rect(page, '.topbar');
  const vh = await page.evaluate(() => innerHeight);
  const own = await rect(page, sel);
  const label = await page.$eval(sel, (e) => {
    const l = e.id && document.querySelector(`label[for="${e.id}"]`);
    if (!l) return null;
    const r = l.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom };
  });
  for (const [name, r] of [['field', own], ['label', label]]) {
    if (!r) continue;
    assert.ok(r.top >= bar.bottom - 0.5, `${what}: ${name} top ${r.top} is under the header (bottom ${bar.bottom})`);
    assert.ok(r.bottom <= vh + 0.5, `${what}: ${name} bottom ${r.bottom} below the viewport ${vh}`);
  }
}

for (const lang of ['en', 'ja']) {
  test(`a blank sheet names its missing fields, not "no problems" (${lang})`, async () => {
    const page = await blankSheet(lang);
    // An asynchronous sheet also has no idempotency key until the business key is typed.
    assert.deepEqual(await findings(page), [...BLANK, 'no-idempotency-key'].sort());
    assert.equal(await page.$('[data-findings="0"]'), null, 'no "No problems found"');
    // The summary links each finding to its input, named by that input (the next test), the
    // message below the link.
    const items = await page.$$eval('ul.findings li', (lis) => lis.map((li) => [li.querySelector('a').getAttribute('href'), li.textContent]));
    assert.deepEqual(items.map(([h]) => h), ['#process-name', '#code-name', '#trigger', '#idempotency-key']);
    const words = lang === 'en'
      ? [/^Process name Warning: Process name is empty/, /^Name in code Warning: Name in code is empty/, /^Trigger Warning: Trigger is empty/,
        /^Idempotency key Warning: “Idempotency key” is empty until the business key is typed/]
      : [/^プロセス名（日本語名） 注意: プロセス名（日本語名）が空です/, /^コード上の名前 注意: コード上の名前が空です/, /^起点 注意: 起点が空です/,
        /^冪等キー 注意: 業務キーを記入するまで「冪等キー」は空です/];
    items.forEach(([, text], i) => assert.match(text, words[i]));
    // Each finding sits under its own input.
    assert.ok(await page.$('[data-field="process-name"] [data-finding="no-process-name"]'));
    assert.ok(await page.$('[data-field="code-name"] [data-finding="no-code-name"]'));
    assert.ok(await page.$('[data-field="trigger"] [data-finding="no-trigger"]'));
    await page.locator('#sec-process').scrollIntoViewIfNeeded();
    await screenshot(page, `${lang}-sheet-findings-blank`);
    // Filled in, they go; blank space does not count.
    await page.fill('#process-name', 'nightly report');
    await page.fill('#code-name', '   ');
    await page.fill('#trigger', 'the clock');
    assert.deepEqual(await findings(page), ['no-code-name', 'no-idempotency-key']);
    await page.fill('#code-name', 'nightly_report');
    assert.deepEqual(await findings(page), ['no-idempotency-key']);
    // The key is built from the business key once it is typed.
    await page.fill('#business-key', 'report date');
    assert.deepEqual(await findings(page), []);
    assert.ok(await page.$('[data-findings="0"]'));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

for (const [lang, width] of [['en', 1280], ['en', 390], ['ja', 1280], ['ja', 390]]) {
  test(`${lang} ${width}px: findings links land below the header, labelled by their field`, async () => {
    const page = await open(lang, width);
    await openSheet(page);
    const links = await page.$$eval('.sheet-side .findings li > a', (as) => as.map((a) => [a.getAttribute('href'), a.textContent]));
    const label = (id) => page.textContent(`label[for="${id}"]`);
    // Each link is named by its own field, as the field's label says.
    assert.deepEqual(links.slice(0, 3).map(([h]) => h), ['#process-name', '#code-name', '#trigger']);
    assert.equal(links[0][1], await label('process-name'));
    assert.equal(links[1][1], await label('code-name'));
    assert.notEqual(links[0][1], links[1][1]);
    // Link, then its message below it: no dangling dash.
    const items = await page.$$eval('.sheet-side .findings li', (lis) => lis.map((li) => {
      const a = li.querySelector('a').getBoundingClientRect();
      const p = li.querySelector('.finding').getBoundingClientRect();
      return { text: li.textContent, gap: p.top - a.bottom };
    }));
    for (const it of items) {
      assert.doesNotMatch(it.text, /—/, `dangling dash in ${it.text}`);
      assert.ok(it.gap >= -0.5, `message starts below its link: ${it.text}`);
    }
    await screenshot(page, `${lang}-${width}-sheet-findings-links`);
    // Scroll away, then follow each link: the field is focused and shown with its label.
    for (const id of ['process-name', 'code-name', 'trigger']) {
      await page.evaluate(() => scrollTo(0, document.body.scrollHeight));
      await page.click(`.sheet-side .findings a[href="#${id}"]`);
      await page.waitForFunction((i) => document.activeElement?.id === i || location.hash === `#${i}`, id);
      await assertVisible(page, `#${id}`, `${lang} ${width} #${id}`);
    }
    await screenshot(page, `${lang}-${width}-sheet-findings-jumped`);
    // A section scrolled to as an anchor's target (the app keeps the URL's fragment for its
    // screens, so scrollIntoView, which honours the same scroll margins).
    await page.evaluate(() => { scrollTo(0, document.body.scrollHeight); document.querySelector('#sec-process').scrollIntoView(); });
    await assertVisible(page, '#sec-process legend', `${lang} ${width} #sec-process`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

for (const lang of ['en', 'ja']) {
  test(`${lang} 1280px: the job-name pair's warnings start at the same height`, async () => {
    const page = await open(lang, 1280);
    await openSheet(page);
    const a = await rect(page, '.sheet-form [data-finding="no-process-name"]');
    const b = await rect(page, '.sheet-form [data-finding="no-code-name"]');
    assert.ok(Math.abs(a.top - b.top) < 1, `process name's warning at ${a.top}, name in code's at ${b.top}`);
    // The pair's hint is still shown, once.
    const hint = lang === 'en' ? 'name in code and human name' : 'コード上の名前と日本語名';
    const hints = await page.$$eval('#sec-process .hint', (ps) => ps.map((p) => p.textContent));
    assert.equal(hints.filter((h) => h === hint).length, 1);
    await screenshot(page, `${lang}-1280-sheet-findings-name-pair`);
    await page.context().close();
  });
}

const refusedItems = (page) => page.$$eval('.sheet-side [data-refused]', (lis) => lis.map((li) => ({
  id: li.dataset.refused,
  name: li.querySelector('a').textContent,
  href: li.querySelector('a').getAttribute('href'),
  message: li.querySelector('.finding').textContent,
})));
const fieldError = (page, id) => page.textContent(`[data-field="${id}"] > .slot .error`);

test('check panel: lists each field showing a refused value with its message, in page order, in either language', async () => {
  const page = await openPage(browser, server.url, { locale: 'en' });
  await openSheet(page);
  assert.deepEqual(await refusedItems(page), []);
  await page.fill('#lease', 'abc');
  await page.fill('#max-attempts', '0');
  await page.fill('#process-name', 'x'.repeat(10_001));
  await page.waitForFunction(() => document.querySelectorAll('.sheet-side [data-refused]').length === 3);
  let items = await refusedItems(page);
  assert.deepEqual(items.map((i) => i.id), ['process-name', 'max-attempts', 'lease'], 'page order');
  assert.deepEqual(items.map((i) => i.href), ['#process-name', '#max-attempts', '#lease']);
  assert.deepEqual(items.map((i) => i.name), ['Process name', 'Max attempts', 'Lease / visibility timeout']);
  for (const i of items) {
    assert.ok(i.message.startsWith('Error: '), i.message);
    assert.equal(i.message.slice('Error: '.length), await fieldError(page, i.id), `${i.id}: the field's own message`);
  }
  assert.match(await page.textContent('[data-refused-note]'), /copy, download, print/);
  // The panel agrees with what copying says.
  await page.click('.export[data-format="markdown"] button[data-action="copy"]');
  await page.waitForSelector('[data-notice="error"]');
  await screenshot(page, 'en-sheet-refused-panel');

  await switchLang(page, 'ja');
  items = await refusedItems(page);
  assert.deepEqual(items.map((i) => i.id), ['process-name', 'max-attempts', 'lease']);
  assert.deepEqual(items.map((i) => i.name), ['プロセス名（日本語名）', '最大試行回数', 'リース／可視性タイムアウト']);
  for (const i of items) {
    assert.ok(i.message.startsWith('エラー: '), i.message);
    assert.equal(i.message.slice('エラー: '.length), await fieldError(page, i.id), `${i.id}: the field's own message in Japanese`);
  }
  // Each message is reworded too (a too-long text's included).
  assert.match(items[0].message, /10,000 文字までです/);
  assert.match(items[1].message, /最大試行回数：1〜100/);
  assert.match(await page.textContent('[data-refused-note]'), /コピー/);

  // Fixed fields leave the panel; with none left, it says so and the note goes.
  await page.fill('#max-attempts', '5');
  await page.fill('#lease', '1');
  await page.fill('#process-name', 'nightly report');
  await page.waitForFunction(() => document.querySelectorAll('.sheet-side [data-refused]').length === 0);
  assert.equal(await page.$('[data-refused-note]'), null);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
