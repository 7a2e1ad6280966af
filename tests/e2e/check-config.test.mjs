// "Check an existing configuration" in real Chromium (issue 27 item 2): a Terraform file
// pasted on the catalog screen is read in the target worker; its queue becomes a new process
// (nothing replaced) whose notes name the trap (a visibility timeout under 6 × the function's
// timeout) and the value left unresolved (`var.…`), each with its line; a broken file gives a
// message naming the file and the line, in the page's language, and the catalog stays as it
// was. Screenshots: {en,ja}-check-config-1280, en-check-config-390.
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
