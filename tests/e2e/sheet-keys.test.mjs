// The idempotency keys in real Chromium (issue 26, items 1 and 2): a key opened before the
// business key is typed is empty with a placeholder, follows the business key as it is typed,
// and no export or document holds the placeholder words; a synchronous payment call has its
// key, how the provider takes it and how an unknown outcome is settled, its default text never
// promises a safe retry, and the "no key" finding appears and goes with the key.
// Screenshots: en-sheet-key-follows, en-sheet-call-key, ja-sheet-call-key.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { serve, launch, openPage, openSheet, showCatalog, screenshot } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const findings = (page) => page.$$eval('.sheet-form [data-finding]', (els) => els.map((e) => e.dataset.finding).sort());

/** Each of the sheet's downloads (Markdown, TSV, CSV, JSON) as text, by format. */
async function downloads(page) {
  const out = {};
  for (const format of ['markdown', 'tsv', 'csv', 'json']) {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click(`[data-format="${format}"] [data-action="download"]`),
    ]);
    out[format] = readFileSync(await download.path(), 'utf8');
  }
  return out;
}

/** The embed page's text for the process on screen (through the share panel's link). */
async function embedText(page) {
  await page.click('#share-open');
  await page.waitForSelector('#share-panel #share-link');
  const link = await page.inputValue('#share-link');
  await page.click('#share-close');
  const embed = await page.context().newPage();
  await embed.goto(link.replace('#share-v1:', 'embed.html#share-v1:'));
  await embed.waitForSelector('#embed table');
  const text = await embed.textContent('#embed');
  await embed.close();
  return text;
}

/** Waits until `#id` shows `value` (the form re-renders after each keystroke). */
async function shows(page, id, value) {
  await page.waitForFunction(([i, v]) => document.getElementById(i)?.value === v, [id, value], { timeout: 5_000 }).catch(() => {});
  assert.equal(await page.inputValue(`#${id}`), value, `#${id}`);
}

/** Types `text` into `#id` key by key, as a person does. */
async function type(page, id, text) {
  await page.click(`#${id}`);
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
}

const PLACEHOLDER = /business key \+|業務キー＋|job name, business key/i;

test('the business key typed after the sheet opens: the key follows, no document holds placeholder words', async () => {
  const page = await openPage(browser, server.url);
  await openSheet(page);
  // Opened without a business key: the key is empty, with a placeholder, and a warning.
  assert.equal(await page.inputValue('#idempotency-key'), '');
  await type(page, 'code-name', 'sync_partner_inventory');
  assert.equal(await page.getAttribute('#idempotency-key', 'placeholder'), 'business key + sync-partner-inventory');
  assert.equal(await page.inputValue('#idempotency-key'), '');
  assert.ok((await findings(page)).includes('no-idempotency-key'));
  assert.match(await page.textContent('[data-finding="no-idempotency-key"]'), /“Idempotency key” is empty until the business key is typed/);

  await type(page, 'business-key', 'hotel_id + room_type_id');
  const key = 'hotel_id + room_type_id + sync-partner-inventory';
  await shows(page, 'idempotency-key', key);
  assert.match(await page.inputValue('#notify'), /job name, hotel_id \+ room_type_id, last error/);
  const now = await findings(page);
  assert.ok(!now.includes('no-idempotency-key') && !now.includes('key-placeholder'), now.join());
  // The hint explains the default; it says "the default was" only for a changed value.
  const reason = await page.textContent('[data-field="idempotency-key"] .reason');
  assert.match(reason, /business key \+ purpose is the same/);
  assert.doesNotMatch(reason, /default was/);
  await page.locator('#idempotency-key').scrollIntoViewIfNeeded();
  await screenshot(page, 'en-sheet-key-follows');

  // Every document carries the real key and no placeholder words.
  const files = await downloads(page);
  for (const [format, text] of Object.entries(files)) {
    assert.doesNotMatch(text, PLACEHOLDER, format);
  }
  assert.match(files.markdown, /\| Idempotency key \| what it is composed of \| hotel\\_id \+ room\\_type\\_id \+ sync-partner-inventory \|/);
  assert.match(files.tsv, /Idempotency key\twhat it is composed of\thotel_id \+ room_type_id \+ sync-partner-inventory/);
  assert.equal(JSON.parse(files.json).retry.idempotency_key, key);
  const print = await page.textContent('section.print-only');
  assert.ok(print.includes(key), 'the print view');
  assert.doesNotMatch(print, PLACEHOLDER);
  const embed = await embedText(page);
  assert.ok(embed.includes(key), 'the embed');
  assert.doesNotMatch(embed, PLACEHOLDER);
  await showCatalog(page);
  assert.equal(await page.textContent('section.catalog code.key'), key);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a key the user typed is never overwritten by a business key typed later', async () => {
  const page = await openPage(browser, server.url);
  await openSheet(page);
  await type(page, 'code-name', 'sync_partner_inventory');
  await type(page, 'idempotency-key', 'hotel_id + season');
  // No business key yet: no default to name.
  assert.doesNotMatch(await page.textContent('[data-field="idempotency-key"] .reason'), /default was/);
  await type(page, 'business-key', 'hotel_id');
  await page.waitForTimeout(300);
  await shows(page, 'idempotency-key', 'hotel_id + season');
  assert.match(await page.textContent('[data-field="idempotency-key"] .reason'), /^ⓘ The default was hotel_id \+ sync-partner-inventory/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

const CHARGE = [['time-triggered', 'no'], ['needs-result-now', 'yes'], ['within-seconds', 'yes'], ['external-call', 'yes'], ['keep-accepting-when-down', 'no']];

async function decide(page, answers) {
  for (const [q, v] of answers) {
    await page.waitForSelector(`form.question[data-question="${q}"]`);
    await page.check(`#q-${q}-${v}`);
    await page.click('form.question button[type="submit"]');
  }
  await page.click('#open-sheet');
  await page.waitForSelector('section.sheet');
}

test('a synchronous payment call: its key, how the provider takes it, the unknown outcome; the finding comes and goes', async () => {
  const page = await openPage(browser, server.url);
  await decide(page, CHARGE);
  assert.equal(await page.getAttribute('section.sheet', 'data-outcome'), 'sync-timeout');
  // The default texts never promise a safe retry.
  assert.doesNotMatch(await page.inputValue('#on-timeout'), /safe to try again|try again later/);
  assert.match(await page.inputValue('#on-timeout'), /not known yet/);
  assert.equal(await page.inputValue('#call-effect'), 'changes');
  assert.equal(await page.inputValue('#call-key-via'), 'header');
  assert.equal(await page.inputValue('#call-key-name'), 'Idempotency-Key');
  assert.equal(await page.inputValue('#call-resolve'), 'retry-same-key');
  // No business key yet: no key, and an error that says how to get one.
  assert.equal(await page.inputValue('#call-key'), '');
  assert.ok((await findings(page)).includes('call-without-key'));
  assert.match(await page.getAttribute('[data-finding="call-without-key"]', 'class'), /error-level/);

  await type(page, 'code-name', 'charge_card');
  await type(page, 'business-key', 'reservation id');
  await shows(page, 'call-key', 'reservation id + charge-card');
  assert.ok(!(await findings(page)).includes('call-without-key'));
  await page.locator('#sec-sync').scrollIntoViewIfNeeded();
  await screenshot(page, 'en-sheet-call-key');
  const md = (await downloads(page)).markdown;
  assert.match(md, /\| Call's idempotency key \| what it is made of; how the provider takes it \| reservation id \+ charge-card \(header Idempotency-Key\) \|/);
  assert.match(md, /\| Unknown outcome \| [^|]+ \| retry with the same key \(the provider returns the first result\)/);
  assert.doesNotMatch(md, /safe to try again/);

  // The key cleared: the error is back; a provider without keys with "retry": another error;
  // querying the status instead: none.
  await type(page, 'call-key', ' ');
  assert.ok((await findings(page)).includes('call-without-key'));
  await page.selectOption('#call-key-via', 'not-supported');
  assert.equal(await page.$('#call-key-name'), null);
  let now = await findings(page);
  assert.ok(!now.includes('call-without-key') && now.includes('call-retry-without-key'), now.join());
  await page.selectOption('#call-resolve', 'query-status');
  now = await findings(page);
  assert.ok(!now.includes('call-retry-without-key') && !now.includes('call-without-key'), now.join());
  // A call that only reads needs no key.
  await page.selectOption('#call-key-via', 'header');
  assert.equal(await page.inputValue('#call-key-name'), 'Idempotency-Key');
  assert.ok((await findings(page)).includes('call-without-key'));
  await page.selectOption('#call-effect', 'reads-only');
  assert.ok(!(await findings(page)).includes('call-without-key'));
  await page.selectOption('#call-effect', 'changes');

  // A header name with a space is refused, naming the field and what is allowed; the sheet
  // keeps the last good name.
  await type(page, 'call-key-name', 'Idempotency Key');
  assert.match(await page.textContent('[data-notice="error"]'), /sync\.call\.key_name: character U\+0020 is out of range; allowed: 1 to 100 characters/);
  assert.match((await downloads(page)).markdown, /\(header Idempotency\)/);
  await type(page, 'call-key-name', 'PayPal-Request-Id');
  assert.match((await downloads(page)).markdown, /\(header PayPal-Request-Id\)/);

  // In Japanese: the finding and the labels.
  await page.click('.lang button[data-lang="ja"]');
  await page.waitForSelector('html[lang="ja"]');
  assert.match(await page.textContent('[data-finding="call-without-key"]'), /何かを変える呼び出しに冪等キーがありません/);
  assert.equal(await page.textContent('label[for="call-key"]'), '呼び出しの冪等キー');
  await page.locator('#sec-sync').scrollIntoViewIfNeeded();
  await screenshot(page, 'ja-sheet-call-key');
  await type(page, 'call-key', '予約ID＋charge-card');
  assert.ok(!(await findings(page)).includes('call-without-key'));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
