// One set of numbers, entered once (issue 25), in real Chromium: the response-time target and
// p95 typed in the wizard's "Derive it from numbers" pre-fill the sheet — the attempt timeout
// above the p95 and the lease above that, each with its reason naming the numbers; the call
// timeout and the acceptable wait from the target —, the checks compare the sheet with them,
// and numbers changed later in the wizard move what was pre-filled, never what was typed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, answer, screenshot } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const findings = (page) => page.$$eval('.sheet-form [data-finding]', (els) => els.map((e) => e.dataset.finding).sort());
/** A sheet opened from the flowchart has no process facts: these three findings come first (an
 * asynchronous one has no idempotency key either until the business key is typed). */
const blank = (...codes) => ['no-code-name', 'no-process-name', 'no-trigger', ...codes].sort();
/** A duration field as shown: [number, unit index] (units: 0 ms, 1 s, 2 min, 3 h, 4 d). */
const duration = async (page, id) => [await page.inputValue(`#${id}`), await page.inputValue(`#${id}-unit`)];

/** Answers `within-seconds` from `target` and `p95` (typed as a person would, with units). */
async function numbers(page, target, p95) {
  await page.waitForSelector('form.question[data-question="within-seconds"]');
  await page.check('#mode-numbers');
  await page.fill('#target-ms', target);
  await page.fill('#p95-ms', p95);
  await page.click('form.question button[type="submit"]');
}

/** Back on the Decide screen, changes the numbers of the answered `within-seconds`. */
async function renumber(page, target, p95) {
  await page.click('.tabs button:nth-child(1)');
  await page.click('li[data-answer="within-seconds"] button');
  await numbers(page, target, p95);
}

async function openSheet(page) {
  await page.click('#open-sheet');
  await page.waitForSelector('section.sheet');
}

test('p95 5 min: the timeout above it, the lease above that, and an error once the timeout is lowered below the p95', async () => {
  const page = await openPage(browser, server.url);
  await answer(page, 'time-triggered', 'no');
  await answer(page, 'needs-result-now', 'yes');
  await numbers(page, '1 s', '5 min');
  await page.waitForSelector('article.result[data-outcome="async-ticket"]');
  await openSheet(page);
  assert.equal(await page.getAttribute('section.sheet', 'data-outcome'), 'async-ticket');
  assert.deepEqual(await duration(page, 'attempt-timeout'), ['10', '2']);
  assert.deepEqual(await duration(page, 'lease'), ['20', '2']);
  const reason = await page.textContent('[data-field="timeout"] .reason');
  assert.match(reason, /10 min per attempt: at least twice the p95 from the questions \(5 min × 2 = 10 min\)/);
  assert.match(reason, /the lease is twice the timeout \(20 min\)/);
  // The target bounds the response with the ticket, not the wait for the result.
  assert.equal(await page.isChecked('#acceptable-wait-stated'), false);
  assert.deepEqual(await findings(page), blank('no-idempotency-key'));
  await screenshot(page, 'en-sheet-from-numbers');

  // The user lowers the timeout below the p95: an error naming both numbers.
  await page.fill('#attempt-timeout', '4');
  assert.deepEqual(await findings(page), blank('attempt-timeout-under-p95', 'no-idempotency-key'));
  assert.match(await page.getAttribute('[data-finding="attempt-timeout-under-p95"]', 'class'), /error-level/);
  assert.match(await page.textContent('[data-finding="attempt-timeout-under-p95"]'),
    /The attempt timeout \(4 min\) is shorter than the handler's p95 from the questions \(5 min\).*e\.g\. 10 min/);
  assert.match(await page.textContent('[data-field="timeout"] .reason'), /^ⓘ The default was 10 min/);
  await screenshot(page, 'en-sheet-timeout-under-p95');

  // The p95 changes to 2 min in the wizard: the typed 4 min stays (now above the p95, no
  // error); the lease nobody touched follows the new default (2 × 2 min → 5 min, lease 10 min).
  await renumber(page, '1 s', '2 min');
  await page.waitForSelector('article.result[data-outcome="async-ticket"]');
  await openSheet(page);
  assert.deepEqual(await duration(page, 'attempt-timeout'), ['4', '2']);
  assert.deepEqual(await duration(page, 'lease'), ['10', '2']);
  assert.deepEqual(await findings(page), blank('no-idempotency-key'));
  assert.match(await page.textContent('[data-field="timeout"] .reason'), /The default was 5 min .*\(2 min × 2 = 4 min\)/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the target becomes the acceptable wait and the call timeout, and follows a changed target (Japanese)', async () => {
  const page = await openPage(browser, server.url, { locale: 'ja' });
  await answer(page, 'time-triggered', 'no');
  await answer(page, 'needs-result-now', 'yes');
  await numbers(page, '1秒', '500');
  await answer(page, 'external-call', 'no');
  await page.waitForSelector('article.result[data-outcome="sync"]');
  await openSheet(page);
  assert.equal(await page.isChecked('#acceptable-wait-stated'), true);
  assert.deepEqual(await duration(page, 'acceptable-wait'), ['1', '1']);
  assert.deepEqual(await duration(page, 'call-timeout'), ['1', '1']);
  assert.equal(await page.textContent('[data-field="acceptable-wait"] .reason'),
    'ⓘ 質問で答えた応答時間の目標（1秒）です。利用者は応答の中で結果を待ちます。');
  assert.match(await page.textContent('[data-field="call-timeout"] .reason'), /質問で答えた応答時間の目標（1秒）.*p95（500ミリ秒）/);
  assert.deepEqual(await findings(page), blank());

  // A call timeout typed past the target: the wait (the target) says so.
  await page.fill('#call-timeout', '5');
  assert.deepEqual(await findings(page), blank('call-timeout-exceeds-wait'));
  assert.match(await page.textContent('[data-finding="call-timeout-exceeds-wait"]'), /5秒.*1秒/);

  // The target changes to 1,500 ms: the acceptable wait follows; the typed 5 s stays.
  // (The path does not change, so the external-call answer stays and the result shows.)
  await renumber(page, '1,500', '500');
  await page.waitForSelector('article.result[data-outcome="sync"]');
  await openSheet(page);
  assert.deepEqual(await duration(page, 'acceptable-wait'), ['1500', '0']);
  assert.deepEqual(await duration(page, 'call-timeout'), ['5', '1']);
  assert.match(await page.textContent('[data-field="acceptable-wait"] .reason'), /1,500ミリ秒/);
  assert.deepEqual(await findings(page), blank('call-timeout-exceeds-wait'));
  await screenshot(page, 'ja-sheet-from-target');

  // Unticked and ticked again, the wait starts from the target.
  await page.uncheck('#acceptable-wait-stated');
  assert.deepEqual(await findings(page), blank('call-timeout-exceeds-target'));
  await page.check('#acceptable-wait-stated');
  assert.deepEqual(await duration(page, 'acceptable-wait'), ['1500', '0']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
