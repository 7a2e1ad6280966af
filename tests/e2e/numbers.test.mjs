// Numbers as each language writes them, in real Chromium: durations typed with a unit
// ("2 s", "１.５分" with full-width digits from a Japanese input method) are taken by the
// wizard's "Derive it from numbers" and by a sheet's duration field, and thousands are grouped
// with commas in Japanese as in English.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, openSheet, answer, screenshot } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

/** Clears the field `sel` and types `text` key by key, as a person does. */
async function typeInto(page, sel, text) {
  await page.click(sel, { clickCount: 3 });
  await page.keyboard.press('Backspace');
  await page.keyboard.type(text);
}

async function toNumbers(page) {
  await answer(page, 'time-triggered', 'no');
  await answer(page, 'needs-result-now', 'yes');
  await page.waitForSelector('form.question[data-question="within-seconds"]');
  await page.check('#mode-numbers');
}

test('the wizard takes durations typed with a unit, and groups thousands with commas in both languages', async () => {
  const page = await openPage(browser, server.url);
  await toNumbers(page);
  await typeInto(page, '#target-ms', '2 s');
  await typeInto(page, '#p95-ms', '１.５分');
  assert.equal(await page.getAttribute('#target-ms', 'aria-invalid'), 'false');
  assert.equal(await page.getAttribute('#p95-ms', 'aria-invalid'), 'false');
  assert.equal((await page.textContent('.comparison')).trim(), 'p95 90,000 ms > target 2,000 ms → no');
  // Other ways of writing the same durations.
  await typeInto(page, '#target-ms', '2s');
  await typeInto(page, '#p95-ms', '1500ms');
  assert.equal((await page.textContent('.comparison')).trim(), 'p95 1,500 ms ≤ target 2,000 ms → yes');
  // What is not a duration is refused, saying why, naming the field and the range.
  await typeInto(page, '#p95-ms', '5 weeks');
  await page.click('form.question button[type="submit"]');
  const err = await page.textContent('.field:has(#p95-ms) .error');
  assert.match(err, /p95/);
  assert.match(err, /unknown unit “weeks”: use ms, s, min, h or d; allowed 0 to 604,800,000 ms\./);
  assert.ok(await page.$('form.question[data-question="within-seconds"]'), 'the question stays');
  // The Japanese UI: the same numbers, grouped with commas; the reasons in Japanese.
  await typeInto(page, '#p95-ms', '１．５分');
  await page.click('.lang button[data-lang="ja"]');
  await page.waitForSelector('html[lang="ja"]');
  assert.equal((await page.textContent('.comparison')).trim(), 'p95 90,000 ms > 目標 2,000 ms → いいえ');
  await typeInto(page, '#p95-ms', '－１秒');
  assert.match(await page.textContent('.field:has(#p95-ms) .error'), /負の時間は入力できません（0〜604,800,000ミリ秒）。/);
  await typeInto(page, '#p95-ms', '２秒');
  assert.equal((await page.textContent('.comparison')).trim(), 'p95 2,000 ms ≤ 目標 2,000 ms → はい');
  await screenshot(page, 'ja-numbers-units');
  await page.click('form.question button[type="submit"]');
  await page.waitForSelector('form.question[data-question="external-call"]');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a sheet duration field takes a typed unit over its unit select; a bare number uses the select', async () => {
  const page = await openPage(browser, server.url);
  await openSheet(page);
  const summary = () => page.textContent('[data-testid="retry-summary"]');
  // The queue defaults: 10 s doubling, capped at 10 min (the select shows minutes).
  assert.equal(await page.inputValue('#cap-unit'), '2');
  assert.match(await summary(), /max 2\.5 min/);
  // "20 s" in a field whose select says minutes: the typed unit wins (10 + 20 + 20 + 20 s).
  await typeInto(page, '#cap', '20 s');
  assert.equal(await page.getAttribute('#cap', 'aria-invalid'), 'false');
  assert.match(await summary(), /max 1\.2 min/);
  // Full-width digits and a Japanese unit: the first wait 1.5 min (90 + 180 + 360 + 600 s).
  await typeInto(page, '#cap', '10');
  await typeInto(page, '#base', '１.５分');
  assert.equal(await page.getAttribute('#base', 'aria-invalid'), 'false');
  assert.match(await summary(), /max 20\.5 min/);
  // A bare number is in the select's unit (seconds here): 30 s doubling under 10 min.
  await typeInto(page, '#base', '30');
  assert.equal(await page.inputValue('#base-unit'), '1');
  assert.match(await summary(), /max 7\.5 min/);
  await page.keyboard.press('Tab');
  // Refused text keeps the value from before this edit (30 s) and says why.
  await typeInto(page, '#base', '1e3 s');
  assert.equal(await page.getAttribute('#base', 'aria-invalid'), 'true');
  assert.match(await page.textContent('[data-field="base"] .error'), /“1e3 s” is not a number with an optional unit \(e\.g\. 1\.5 min\); allowed 1 ms – 10 min\. .*: 30 s\.$/);
  assert.match(await summary(), /max 7\.5 min/);
  // Text with its own unit, then another unit chosen: the duration is converted (the text
  // is not read again as a number of the new unit, and no note says it is).
  await typeInto(page, '#base', '2 s');
  await page.keyboard.press('Tab');
  await page.selectOption('#base-unit', '0');
  assert.equal(await page.inputValue('#base'), '2000');
  assert.equal(await page.$('[data-field="base"] [data-unit-applied]'), null);
  assert.match(await summary(), /max 30 s/);
  // A unit it is not whole in: the unit stays, and the note names the duration as it is.
  await typeInto(page, '#base', '1.5 min');
  await page.keyboard.press('Tab');
  await page.selectOption('#base-unit', '3');
  assert.equal(await page.inputValue('#base-unit'), '0');
  assert.equal(await page.inputValue('#base'), '1.5 min');
  assert.match(await page.textContent('[data-field="base"] [data-unit-kept]'), /^90,000 ms is not a whole number of h/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
