// "Check an existing configuration" in real Chromium (issue 27 item 2): a Terraform file
// pasted on the catalog screen is read in the target worker; its queue becomes a new process
// (nothing replaced) whose notes name the trap (a visibility timeout under 6 × the function's
// timeout) and the value left unresolved (`var.…`), each with its line; a broken file gives a
// message naming the file and the line, in the page's language, and the catalog stays as it
// was. Two files at once (issue 27 item 3): a Sidekiq job dropped with its Gemfile.lock is
// checked for the release the lock pins, and says so; without the lock the newest is assumed
// and the note says to add it. Screenshots: {en,ja}-check-config-1280, en-check-config-390,
// en-check-config-lock-1280, {en,ja}-catalog-audit-mark-1280, ja-catalog-audit-mark-390 (the catalog row's
// mark), {en,ja}-audit-origin-1280 (the audit's word kept on the added process's
// sheet).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, screenshot, showCatalog } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const TERRAFORM = `# Orders: the queue, its dead-letter queue and the function that drains it.
resource "aws_sqs_queue" "orders_dlq" {
  name = "orders-dlq"
}

resource "aws_sqs_queue" "orders" {
  name                       = "orders"
  visibility_timeout_seconds = 60
  message_retention_seconds  = var.retention_seconds
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.orders_dlq.arn
    maxReceiveCount     = 5
  })
}

resource "aws_lambda_function" "ship_order" {
  function_name = "ship-order"
  timeout       = 30
}

resource "aws_lambda_event_source_mapping" "orders" {
  event_source_arn = aws_sqs_queue.orders.arn
  function_name    = aws_lambda_function.ship_order.arn
  batch_size       = 10
}
`;

const rowNames = (page) => page.$$eval('#catalog-table tbody tr .proc-name', (c) => c.map((e) => e.textContent));

async function check(page, name, text) {
  await page.fill('#check-config-name', name);
  await page.fill('#check-config-text', text);
  await page.click('#check-config-run');
  await page.waitForSelector('#check-config-result, #check-config-error', { timeout: 30_000 });
}

test('a pasted Terraform file becomes a new process with its findings; a broken one changes nothing', async () => {
  const page = await openPage(browser, server.url);
  await showCatalog(page);
  const before = await rowNames(page);
  assert.deepEqual(before, ['Process 1']);

  await check(page, 'main.tf', TERRAFORM);
  const found = await page.textContent('#check-config-found');
  assert.match(found, /main\.tf/);
  const jobs = await page.$$eval('#check-config-result .audit-job', (li) => li.map((e) => ({
    system: e.dataset.system, text: e.textContent,
  })));
  assert.equal(jobs.length, 1, JSON.stringify(jobs));
  assert.equal(jobs[0].system, 'sqs');
  // The trap: 60 s is under 6 × the function's 30 s timeout; said at the visibility's line (8).
  assert.match(jobs[0].text, /6 ×/, jobs[0].text);
  assert.match(jobs[0].text, /\b8\b/, 'the finding names the line of visibility_timeout_seconds');
  // The retention comes from a variable: not resolved, never guessed.
  assert.match(jobs[0].text, /var\.retention_seconds/, jobs[0].text);
  await screenshot(page, 'en-check-config-1280');
  // Nothing changed yet.
  assert.deepEqual(await rowNames(page), before);

  await page.click('#check-config-add');
  await page.waitForFunction(() => document.querySelectorAll('#catalog-table tbody tr').length === 2);
  const after = await rowNames(page);
  assert.equal(after[0], 'Process 1', 'the process already there is kept');
  assert.match(after[1], /orders/, after[1]);
  assert.equal(await page.$('#check-config-result'), null);

  // A broken file: a message naming the file and the line; the catalog as it was.
  await check(page, 'broken.tf', 'resource "aws_sqs_queue" "q" {\n  visibility_timeout_seconds = \n');
  const error = await page.textContent('#check-config-error');
  assert.match(error, /broken\.tf/);
  assert.match(error, /\b[23]\b/, `the message names the line: ${error}`);
  assert.deepEqual(await rowNames(page), after);

  // In Japanese the message is reworded, the result of a new check too.
  await page.click('.lang button[data-lang="ja"]');
  await page.waitForFunction(() => /[ぁ-んァ-ン一-龯]/.test(document.querySelector('#check-config-error')?.textContent ?? ''));
  await check(page, 'main.tf', TERRAFORM);
  assert.match(await page.textContent('#check-config-found'), /ジョブが 1 件/);
  await screenshot(page, 'ja-check-config-1280');
  // A YAML mistake is said in Japanese words, not the parser's English.
  await check(page, 'job.yaml', 'apiVersion: batch/v1\nkind: Job\nmetadata:\n\tname: j\n');
  await page.waitForFunction(() => /字下げにタブがあります/.test(document.querySelector('#check-config-error')?.textContent ?? ''));
  assert.doesNotMatch(await page.textContent('#check-config-error'), /[Tt]ab|while/);
  // Pasted with no file name ("told from the text"): the same syntax error and its line,
  // not "not a configuration the audit can read".
  await check(page, '', 'apiVersion: batch/v1\nkind: Job\nmetadata:\n\tname: j\n');
  await page.waitForFunction(() => /^貼り付けたテキスト.*4 行目.*字下げにタブがあります/.test(document.querySelector('#check-config-error')?.textContent ?? ''));
  assert.doesNotMatch(await page.textContent('#check-config-error'), /確認できる設定ではありません/);
  // Read without a name, the jobs found are named by the paste, not by an empty name (": …").
  await check(page, '', TERRAFORM);
  await page.waitForSelector('#check-config-found');
  assert.match(await page.textContent('#check-config-found'), /^貼り付けたテキスト：ジョブが 1 件/);
  await page.close();
});

const SIDEKIQ_JOB = `class ReceiptJob
  include Sidekiq::Job
  sidekiq_options queue: "mailers", retry: 5
end
`;
const GEMFILE_LOCK = `GEM
  remote: https://rubygems.org/
  specs:
    connection_pool (2.4.1)
    sidekiq (6.5.12)
      connection_pool (>= 2.2.5, < 3)
`;

const notes = (page) => page.$$eval('#check-config-result .audit-job li', (li) => li.map((e) => e.textContent));

test('a job dropped with its lock file is checked for the release the lock pins', async () => {
  const page = await openPage(browser, server.url);
  await showCatalog(page);
  // Both files dropped on the box at once, as a file manager drops them.
  await page.evaluate(([job, lock]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([job], 'receipt_job.rb', { type: 'text/plain' }));
    dt.items.add(new File([lock], 'Gemfile.lock', { type: 'text/plain' }));
    document.querySelector('#check-config-text')
      .dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, [SIDEKIQ_JOB, GEMFILE_LOCK]);
  await page.waitForSelector('#check-config-result, #check-config-error', { timeout: 30_000 });
  assert.equal(await page.inputValue('#check-config-name'), 'receipt_job.rb');
  assert.equal(await page.inputValue('#check-config-text'), SIDEKIQ_JOB, 'the job, not the lock, is the configuration');
  assert.match(await page.textContent('#check-config-locks'), /Gemfile\.lock/);
  let said = (await notes(page)).join('\n');
  assert.match(said, /Audited for Sidekiq 6\.2\.2 – 7\.x .*Gemfile\.lock:5 pins sidekiq 6\.5\.12/, said);
  await screenshot(page, 'en-check-config-lock-1280');

  // The lock removed and the job checked again: the newest is assumed, and the note says
  // which file to add.
  await page.click('#check-config-locks button');
  assert.equal(await page.$('#check-config-locks'), null);
  await page.click('#check-config-run');
  await page.waitForFunction(() => /assumed/.test(document.querySelector('#check-config-result')?.textContent ?? ''));
  said = (await notes(page)).join('\n');
  assert.match(said, /Sidekiq 8\.x .*assumed.*add the project's Gemfile\.lock/, said);

  // Chosen together in the file dialog: the same.
  await page.setInputFiles('#check-config-file', [
    { name: 'Gemfile.lock', mimeType: 'text/plain', buffer: Buffer.from(GEMFILE_LOCK) },
    { name: 'booking_confirmation_receipt_job.rb', mimeType: 'text/plain', buffer: Buffer.from(SIDEKIQ_JOB) },
  ]);
  await page.waitForFunction(() => /pins sidekiq/.test(document.querySelector('#check-config-result')?.textContent ?? ''));
  // Added, the catalog gets the job's process and nothing else.
  await page.click('#check-config-add');
  await page.waitForFunction(() => document.querySelectorAll('#catalog-table tbody tr').length === 2);
  assert.match((await rowNames(page))[1], /ReceiptJob/);

  // Another project's job with its own lock file: its lock replaces the Gemfile.lock kept
  // from before (lock files of unrelated drops do not pile up).
  await page.setInputFiles('#check-config-file', [
    { name: 'tasks.py', mimeType: 'text/plain', buffer: Buffer.from("from celery import Celery\napp = Celery('shop')\n\n@app.task(autoretry_for=(IOError,), max_retries=4)\ndef ship(order_id):\n    pass\n") },
    { name: 'requirements.txt', mimeType: 'text/plain', buffer: Buffer.from('celery==5.3.6\n') },
  ]);
  await page.waitForFunction(() => /requirements\.txt/.test(document.querySelector('#check-config-locks')?.textContent ?? ''));
  const kept = await page.textContent('#check-config-locks');
  assert.doesNotMatch(kept, /Gemfile\.lock/, kept);

  // After "Add" the audit's word stays with the process: the row says there is one to
  // review, the sheet shows every note (the release the lock pins, the facts not stated,
  // whose values are the system's defaults), and "Configuration for" Sidekiq starts at the
  // pinned release, not the newest. Kept in storage; gone for good once marked as reviewed.
  await page.reload();
  await showCatalog(page);
  const mark = '#catalog-table tbody tr:nth-child(2) .audit-mark';
  // The file had no error or warning (the Findings column beside it counts the sheet's own
  // check, defaults included): the mark says so and counts the notes the sheet lists.
  const markText = await page.textContent(mark);
  const m = /^From booking_confirmation_receipt_job\.rb:1: no error or warning in the file; (\d+) notes to review$/.exec(markText);
  assert.ok(m, markText);
  await screenshot(page, 'en-catalog-audit-mark-1280');
  // The same in Japanese, and on a phone.
  await page.click('.lang button[data-lang="ja"]');
  await page.waitForFunction((sel) => /から作成/.test(document.querySelector(sel)?.textContent ?? ''), mark);
  assert.equal(await page.textContent(mark), `booking_confirmation_receipt_job.rb:1 から作成。ファイルにエラー・警告なし。確認待ちの注記 ${m[1]} 件`);
  await screenshot(page, 'ja-catalog-audit-mark-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  // On a phone each cell is its label then its value: the mark sits under the findings, in
  // the value's column, not under the label.
  const [markLeft, countLeft] = await page.$eval(mark, (m) => {
    const range = document.createRange();
    range.selectNodeContents(m.parentElement.firstChild);
    return [m.getBoundingClientRect().left, range.getBoundingClientRect().left];
  });
  assert.ok(Math.abs(markLeft - countLeft) <= 1, `the mark at ${markLeft} px, the findings at ${countLeft} px`);
  await screenshot(page, 'ja-catalog-audit-mark-390');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.click('.lang button[data-lang="en"]');
  await page.waitForFunction((sel) => /^From /.test(document.querySelector(sel)?.textContent ?? ''), mark);
  // The mark wraps within its cell, a long file name too: the table still fits at 1280 px,
  // its actions in view.
  assert.ok(await page.$eval('.catalog-table-wrap', (w) => w.scrollWidth <= w.clientWidth + 1), 'no sideways scroll');
  await page.click('#catalog-table tbody tr:nth-child(2) .proc-name');
  await page.waitForSelector('#audit-origin');
  const origin = await page.textContent('#audit-origin');
  assert.equal(await page.locator('#audit-origin li').count(), Number(m[1]), 'the mark counts the notes shown');
  assert.match(origin, /Made from booking_confirmation_receipt_job\.rb, line 1 \(Sidekiq\)/, origin);
  assert.match(origin, /Gemfile\.lock:5 pins sidekiq 6\.5\.12/, origin);
  assert.match(origin, /not stated/i, origin);
  // The sheet's "without jitter" warning is explained: Sidekiq adds its own jitter.
  assert.match(origin, /The sheet's check “[^”]+” \(MA-exponential-without-jitter\) does not apply to this job as Sidekiq runs it/, origin);
  await page.selectOption('#target-choose', 'sidekiq');
  await page.waitForSelector('#target-panel .target-body[data-target="sidekiq"][data-version="6.2.2-7"]', { timeout: 60_000 });
  await screenshot(page, 'en-audit-origin-1280');
  // In Japanese the notice and its notes follow the language switch.
  await page.click('.lang button[data-lang="ja"]');
  await page.waitForFunction(() => /から作成/.test(document.querySelector('#audit-origin')?.textContent ?? ''));
  assert.match(await page.textContent('#audit-origin'), /Gemfile\.lock:5/);
  await screenshot(page, 'ja-audit-origin-1280');
  await page.click('.lang button[data-lang="en"]');
  await page.waitForFunction(() => /Made from/.test(document.querySelector('#audit-origin')?.textContent ?? ''));
  await page.click('#audit-reviewed');
  assert.equal(await page.$('#audit-origin'), null);
  await page.reload();
  await showCatalog(page);
  assert.equal(await page.$(mark), null, 'the review is kept');
  await page.click('#catalog-table tbody tr:nth-child(2) .proc-name');
  await page.waitForSelector('#sheet-title');
  assert.equal(await page.$('#audit-origin'), null);
  await page.close();
});

test('the check fits a 390 px phone', async () => {
  const page = await openPage(browser, server.url, { width: 390, height: 844 });
  await showCatalog(page);
  await check(page, 'main.tf', TERRAFORM);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
  assert.ok(wide, 'no sideways scrolling');
  await screenshot(page, 'en-check-config-390');
  await page.close();
});

test('a file over the 5 MiB limit is refused by its size, before reading: the box and the catalog stay as they were', async () => {
  const page = await openPage(browser, server.url);
  await showCatalog(page);
  await page.fill('#check-config-name', 'main.tf');
  await page.fill('#check-config-text', TERRAFORM);
  const before = await rowNames(page);
  // A 6 MiB file chosen in the dialog (what a log or a data dump mistaken for a
  // configuration weighs).
  await page.setInputFiles('#check-config-file', [
    { name: 'dump.yaml', mimeType: 'text/plain', buffer: Buffer.alloc(6 * 1024 * 1024, 'a') },
  ]);
  await page.waitForSelector('#check-config-error');
  const error = await page.textContent('#check-config-error');
  assert.match(error, /dump\.yaml has 6\.0 MiB \(6,291,456 bytes\).*at most 5\.0 MiB \(5,242,880 bytes\)/, error);
  assert.equal(await page.inputValue('#check-config-text'), TERRAFORM, 'the text box keeps what was there');
  assert.equal(await page.inputValue('#check-config-name'), 'main.tf');
  assert.deepEqual(await rowNames(page), before);
  // Japanese: the same refusal in Japanese, numbers grouped.
  await page.click('.lang button[data-lang="ja"]');
  await page.setInputFiles('#check-config-file', [
    { name: 'dump.yaml', mimeType: 'text/plain', buffer: Buffer.alloc(6 * 1024 * 1024, 'a') },
  ]);
  await page.waitForFunction(() => /6\.0 MiB（6,291,456 バイト）/.test(document.querySelector('#check-config-error')?.textContent ?? ''));
  await page.close();
});
