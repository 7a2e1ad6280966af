// The sheet's configuration for a real queue system: "Configuration for" in the export bar
// asks the target worker (fetched then, not before) for the target's panel (configuration, mapping, what the target
// cannot express, the schedule it actually runs beside the sheet's, its defaults), with a
// format chooser where the target has several, a version chooser where the target's versions
// differ (Sidekiq, Active Job), Copy and Download; a sheet a target cannot
// take gets a message naming the field and the range, and the sheet stays as it was. In
// English and Japanese, at 1280 and 390 px without the page scrolling sideways.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { serve, launch, openPage, openSheet, screenshot, answer, showCatalog } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

/** The example sheet in `lang` at `width` px. */
async function exampleSheet(lang, width) {
  const page = await openPage(browser, server.url, { locale: lang, width, height: width < 600 ? 844 : 900 });
  await openSheet(page);
  await page.click('#load-example');
  return page;
}

/** Chooses `target` (and waits for its panel, in `format` when given). */
async function choose(page, target, format) {
  await page.selectOption('#target-choose', target);
  const sel = format
    ? `#target-panel .target-body[data-target="${target}"][data-format="${format}"]`
    : `#target-panel .target-body[data-target="${target}"]`;
  await page.waitForSelector(sel, { timeout: 60_000 });
  return sel;
}

/** Whether the page scrolls sideways. */
const overflows = (page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

test('Sidekiq for the worked example: retry: 4, the actual schedule, the defaults; Copy and Download', async () => {
  const page = await exampleSheet('en', 1280);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const urls = [];
  page.context().on('request', (r) => urls.push(r.url()));
  // One document worker since issue 28 (the simulator module in a worker since 2026-12-05):
  // the targets, exports and the audit.
  assert.ok(!urls.some((u) => /doc-worker-start/.test(u)), 'the document worker is not started before a target is chosen');
  const sel = await choose(page, 'sidekiq');
  assert.ok(urls.some((u) => /target\.css$/.test(u)), 'the panel stylesheet is fetched on demand');
  assert.ok(urls.some((u) => /doc-worker-start\.js$/.test(u)), `the document worker is started on demand: ${urls}`);
  assert.ok(!urls.some((u) => /target-worker/.test(u)), 'no second worker for the targets');
  const code = await page.textContent(`${sel} pre.target-text code`);
  assert.match(code, /sidekiq_options retry: 4\b/);
  assert.match(code, /^class SendReservationMailJob$/m);
  // The mapping: max attempts 5 → retry 4, with the reason.
  const row = `${sel} table.target-mapping tr[data-field="max-attempts"]`;
  assert.deepEqual(await page.$$eval(`${row} > *`, (cells) => cells.slice(1, 4).map((c) => c.textContent.trim())),
    ['5', 'sidekiq_options retry:', '4']);
  assert.match(await page.textContent(row), /Sidekiq counts retries/);
  // What Sidekiq cannot express, with what the export does instead.
  assert.ok(await page.$(`${sel} .target-gaps li[data-instead="callback"]`));
  assert.ok(await page.$(`${sel} .target-gaps li[data-instead="nothing"]`));
  // The schedule Sidekiq runs beside the sheet's: 5 attempts each, its own jitter on top.
  const cells = (r) => page.$$eval(`${sel} table.target-schedule tr[data-row="${r}"] td`, (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(await cells('attempts'), ['5', '5']);
  // Retry 1: [rand·10 .round, 1].max averages 5.05 s (a draw under 0.5 s counts 1 s), plus
  // rand(10)'s 4.5 s: 9.55 s, shown 9.6.
  assert.deepEqual(await cells('delay-1'), ['0 s – 10 s (expected 5 s)', '1 s – 19 s (expected 9.6 s)']);
  assert.deepEqual(await cells('window'), ['0 s – 2.5 min (expected 1.3 min)', '4 s – 4.1 min (expected 2.1 min)']);
  // The defaults: 25 retries, 26 attempts, about 20 days.
  assert.equal(await page.textContent(`${sel} [data-default="attempts"]`), '26');
  assert.equal(await page.textContent(`${sel} [data-default="window"]`), 'about 20.4 d');
  assert.match(await page.textContent(`${sel} .target-defaults p`), /25 retries/);

  await page.click('#target-copy');
  await page.waitForFunction(() => document.querySelector('#target-panel .share-status')?.textContent === 'Copied.');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), code);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#target-download')]);
  assert.equal(download.suggestedFilename(), 'send_reservation_mail.sidekiq.rb');
  assert.equal(readFileSync(await download.path(), 'utf8'), code);

  assert.equal(await overflows(page), false, 'no sideways scroll at 1280 px');
  await page.$eval(sel, (e) => e.scrollIntoView());
  await screenshot(page, 'en-1280-sheet-target-sidekiq');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('SQS: CloudFormation by default, Terraform on the format chooser, and back', async () => {
  const page = await exampleSheet('en', 1280);
  let sel = await choose(page, 'sqs', 'cloudformation');
  assert.match(await page.textContent(`${sel} pre.target-text`), /AWS::SQS::Queue/);
  assert.match(await page.textContent(`${sel} .target-file`), /\.sqs\.yaml/);
  assert.equal(await page.getAttribute('[data-share-action="format:cloudformation"]', 'aria-pressed'), 'true');
  await page.click('[data-share-action="format:terraform"]');
  sel = `#target-panel .target-body[data-target="sqs"][data-format="terraform"]`;
  await page.waitForSelector(sel);
  assert.match(await page.textContent(`${sel} pre.target-text`), /resource "aws_sqs_queue"/);
  assert.match(await page.textContent(`${sel} .target-file`), /\.sqs\.tf/);
  assert.equal(await page.getAttribute('[data-share-action="format:terraform"]', 'aria-pressed'), 'true');
  await page.click('[data-share-action="format:cloudformation"]');
  await page.waitForSelector(`#target-panel .target-body[data-target="sqs"][data-format="cloudformation"]`);
  // A target with one format has no format chooser.
  await choose(page, 'celery');
  assert.equal(await page.$('#target-panel [data-share-action^="format:"]'), null);
  // The choice outlives a visit elsewhere (the catalog, the questions): back on the sheet, the
  // bar still shows SQS in Terraform, its panel drawn.
  await choose(page, 'sqs');
  await page.click('[data-share-action="format:terraform"]');
  await page.waitForSelector(`#target-panel .target-body[data-target="sqs"][data-format="terraform"]`);
  await showCatalog(page);
  await page.click('#catalog-table tbody tr .proc-name');
  await page.waitForSelector('#target-panel .target-body[data-target="sqs"][data-format="terraform"]', { timeout: 60_000 });
  assert.equal(await page.inputValue('#target-choose'), 'sqs');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a lease SQS cannot hold: the field, the target and the range; the sheet stays as it was', async () => {
  for (const lang of ['en', 'ja']) {
    const page = await exampleSheet(lang, 1280);
    await page.fill('#lease', '13');
    await page.selectOption('#lease-unit', '3');
    const sel = await choose(page, 'sqs');
    const alert = `${sel} [data-target-error="out-of-range"]`;
    await page.waitForSelector(alert);
    const text = await page.textContent(alert);
    assert.match(text, /AWS SQS \+ Lambda/);
    assert.match(text, lang === 'en' ? /13 h.*12 h/s : /13時間.*12時間/s, text);
    if (lang === 'en') assert.match(text, /Timeout.*unchanged/s, text);
    else assert.match(text, /タイムアウト.*変更していません/s, text);
    assert.equal(await page.$(`${sel} pre.target-text`), null, 'nothing to copy');
    assert.equal(await page.inputValue('#lease'), '13');
    assert.equal(await page.$eval('#lease-unit', (s) => s.value), '3');
    // Another target takes the same sheet.
    await choose(page, 'sidekiq');
    assert.equal(await page.inputValue('#lease'), '13');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('Japanese at 390 px: the panel in Japanese, no sideways scroll', async () => {
  const page = await exampleSheet('ja', 390);
  const sel = await choose(page, 'sidekiq');
  const text = await page.textContent(sel);
  for (const word of ['項目ごとの対応', 'で表せないこと', '実際に動かすスケジュール', '既定値', '試行回数']) {
    assert.ok(text.includes(word), `${word} in the panel`);
  }
  assert.match(await page.textContent(`${sel} table.target-schedule tr[data-row="delay-1"]`), /期待値/);
  assert.equal(await overflows(page), false, 'no sideways scroll at 390 px');
  await page.$eval(sel, (e) => e.scrollIntoView());
  await screenshot(page, 'ja-390-sheet-target-sidekiq');
  await choose(page, 'sqs', 'cloudformation');
  assert.equal(await overflows(page), false, 'no sideways scroll at 390 px (SQS)');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('every target in English and Japanese at 390 px: a panel or a reason, never a sideways scroll', async () => {
  for (const lang of ['en', 'ja']) {
    const page = await exampleSheet(lang, 390);
    const targets = await page.$$eval('#target-choose option', (os) => os.map((o) => o.value).filter(Boolean));
    assert.equal(targets.length, 13);
    for (const target of targets) {
      const sel = await choose(page, target);
      assert.ok(await page.$(`${sel} pre.target-text, ${sel} [data-target-error]`), target);
      assert.equal(await overflows(page), false, `${lang} ${target}: no sideways scroll`);
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('Sidekiq 8 by default; the version chooser switches the export and the schedule to 6.2.2 – 7.x', async () => {
  const page = await exampleSheet('en', 1280);
  let sel = await choose(page, 'sidekiq');
  assert.equal(await page.getAttribute(sel, 'data-version'), '8');
  const versions = `${sel} .target-versions button`;
  assert.deepEqual(await page.$$eval(versions, (bs) => bs.map((b) => [b.dataset.shareAction, b.getAttribute('aria-pressed')])),
    [['version:8', 'true'], ['version:6.2.2-7', 'false']]);
  assert.match(await page.textContent(`${sel} .target-versions-followed`), /Versions followed: Sidekiq 8\.x \(source read: 8\.1\.7\)/);
  const cells = (s, r) => page.$$eval(`${s} table.target-schedule tr[data-row="${r}"] td`, (tds) => tds.map((td) => td.textContent));
  // Retry 2 (c = 1): the sheet's 0 – 20 s, whole seconds ≥ 1, plus rand(10·2) up to 19 s.
  assert.equal((await cells(sel, 'delay-2'))[1], '1 s – 39 s (expected 19.5 s)');
  assert.match(await page.textContent(`${sel} pre.target-text code`), /next :kill/);

  await page.click(`${versions}[data-share-action="version:6.2.2-7"]`);
  sel = '#target-panel .target-body[data-target="sidekiq"][data-version="6.2.2-7"]';
  await page.waitForSelector(sel, { timeout: 60_000 });
  const code = await page.textContent(`${sel} pre.target-text code`);
  assert.match(code, /^# Follows Sidekiq 6\.2\.2 – 7\.x \(source read: 6\.4\.1\): its formulas and syntax\.$/m);
  assert.doesNotMatch(code, /next :kill/);
  assert.match(code, /Sidekiq::DeadSet\.new\.kill/);
  // rand(10)·(c+1): at most 9·2 = 18 s on top at retry 2.
  assert.equal((await cells(sel, 'delay-2'))[1], '1 s – 38 s (expected 19 s)');
  assert.equal(await page.getAttribute(`${versions}[data-share-action="version:6.2.2-7"]`, 'aria-pressed'), 'true');

  // A target whose versions share one export has no chooser; Active Job has one.
  sel = await choose(page, 'celery');
  assert.equal(await page.$(`${sel} .target-versions`), null);
  assert.match(await page.textContent(`${sel} .target-versions-followed`), /Celery 5\.x/);
  sel = await choose(page, 'active-job');
  assert.equal(await page.getAttribute(sel, 'data-version'), '7.1');
  await page.click(`${sel} .target-versions button[data-share-action="version:6.1-7.0"]`);
  sel = '#target-panel .target-body[data-target="active-job"][data-version="6.1-7.0"]';
  await page.waitForSelector(sel, { timeout: 60_000 });
  assert.match(await page.textContent(`${sel} pre.target-text code`), /^# Follows Rails \(Active Job\) 6\.1 – 7\.0/m);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the version chooser in Japanese', async () => {
  const page = await exampleSheet('ja', 390);
  await choose(page, 'sidekiq');
  const group = '#target-panel .target-versions';
  assert.equal(await page.getAttribute(group, 'aria-label'), 'バージョン');
  await page.click(`${group} button[data-share-action="version:6.2.2-7"]`);
  const sel = '#target-panel .target-body[data-target="sidekiq"][data-version="6.2.2-7"]';
  await page.waitForSelector(sel, { timeout: 60_000 });
  assert.match(await page.textContent(`${sel} .target-versions-followed`), /対象のバージョン：Sidekiq 6\.2\.2 – 7\.x（読んだソース：6\.4\.1）/);
  assert.equal(await overflows(page), false, 'no sideways scroll at 390 px');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('"Configuration for" offers only the systems that configure the decision: Kubernetes for a batch, none for a call', async () => {
  const page = await openPage(browser, server.url);
  await answer(page, 'time-triggered', 'yes');
  await page.click('#open-sheet');
  await page.waitForSelector('section.sheet[data-outcome="batch"]');
  const offered = () => page.$$eval('#target-choose option', (o) => o.map((x) => x.value).filter(Boolean));
  assert.deepEqual(await offered(), ['kubernetes']);
  await choose(page, 'kubernetes');
  assert.match(await page.textContent('#target-panel pre.target-text code'), /kind: CronJob/);
  // A synchronous call's sheet has no queue: no chooser, no panel.
  const call = await openPage(browser, server.url);
  for (const [q, v] of [['time-triggered', 'no'], ['needs-result-now', 'yes'], ['within-seconds', 'yes'], ['external-call', 'no']]) await answer(call, q, v);
  await call.click('#open-sheet');
  await call.waitForSelector('section.sheet[data-outcome="sync"]');
  await call.waitForSelector('.export-bar [data-format]');
  assert.equal(await call.$('#target-choose'), null, 'no "Configuration for" on a call\'s sheet');
  assert.equal(await call.$('#target-panel'), null);
  await call.close();
  await page.close();
});

test('"Configuration for" is kept across a reload and the next visit; choosing none is kept too', async () => {
  const page = await exampleSheet('en', 1280);
  await choose(page, 'celery');
  await page.reload();
  await page.waitForSelector('section.sheet');
  assert.equal(await page.inputValue('#target-choose'), 'celery', 'a reload keeps the system chosen');
  await page.waitForSelector('#target-panel .target-body[data-target="celery"]', { timeout: 60_000 });
  // A new tab of the same browser (the next visit) starts from it as well.
  const next = await page.context().newPage();
  await next.goto(server.url);
  await next.waitForSelector('section.sheet, section.catalog, form.question, article.result');
  await next.goto(`${server.url}${new URL(page.url()).hash}`);
  await next.waitForSelector('section.sheet');
  assert.equal(await next.inputValue('#target-choose'), 'celery');
  await next.close();
  // None chosen: no panel after a reload either.
  await page.selectOption('#target-choose', '');
  await page.reload();
  await page.waitForSelector('section.sheet');
  assert.equal(await page.inputValue('#target-choose'), '');
  assert.equal(await page.$('#target-panel'), null);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
