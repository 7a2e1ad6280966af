// The capacity answer through the user's path: the wizard, the sheet, a sheet file with a
// load section imported through the app's own import, "Size it" on the sheet's capacity
// panel — progress, the recommendation, both charts with their data tables, "Use in the
// sheet" (the count into the sheet and the catalog), cancel, a stale answer after an edit — a ρ ≥ 1 sheet saying the queue grows without end, the same panel as
// Simulate's "Capacity" view, in English and Japanese, axe on the panel, and screenshots at
// 1280 and 390 px (target/e2e-screenshots/capacity-*.png).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { serve, launch, openPage, openSheet, showCatalog, screenshot, root } from './harness.mjs';
import { a11yProblems } from './a11y.mjs';

let server;
let browser;
before(async () => {
  server = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.stop();
});

/** The worked example as a schema-3 sheet file with `load` as its load section. */
function sheetWith(load) {
  const sheet = JSON.parse(readFileSync(path.join(root, 'static/examples/reservation-mail.en.json'), 'utf8'));
  sheet.schema_version = 3;
  sheet.load = load;
  return JSON.stringify(sheet, null, 2);
}

// 2 reservations a second, a handler of 80 ms (p95 300 ms), a partner's 500 updates at once to
// be drained within 2 minutes, paced by our own limiter at 10 calls a second.
const PARTNER = {
  arrival: { count: 2, per: 'second' },
  burst: { 'at-once': { count: 500 } },
  handler: { lognormal: { p50_ms: 80, p95_ms: 300 } },
  our_limit: { count: 10, per: 'second' },
  target_wait_p95_ms: 5000,
  drain_within_ms: 120000,
};
// 40 a second against a partner that takes 10: no worker count keeps up.
const OVERLOAD = {
  arrival: { count: 40, per: 'second' },
  handler: { lognormal: { p50_ms: 80, p95_ms: 300 } },
  downstream: { rate: { count: 10, per: 'second' } },
  target_wait_p95_ms: 5000,
};

/** Imports `load` over the open sheet through the sheet's "Import JSON". */
async function importLoad(page, load) {
  await page.setInputFiles('#import-json', { name: 'load.json', mimeType: 'application/json', buffer: Buffer.from(sheetWith(load)) });
  await page.waitForSelector('[data-notice="info"]');
}

/** Presses "Size it" in the panel `id` (the sheet's `capacity`, Simulate's `sim-capacity`)
 * and waits for a new answer; returns the statuses shown on the way. */
async function sizeIt(page, id = 'capacity') {
  const statuses = await page.evaluate(async (id) => {
    const seen = [];
    const panel = document.getElementById(id);
    const old = panel.querySelector('.capacity-answer');
    const watch = new MutationObserver(() => {
      const s = panel.querySelector('[data-capacity-status]');
      if (s && seen[seen.length - 1] !== s.textContent) seen.push(s.textContent);
    });
    watch.observe(panel, { subtree: true, childList: true, characterData: true });
    panel.querySelector(`#${id}-size`).click();
    const answer = () => panel.querySelector('.capacity-answer');
    for (let i = 0; i < 1200 && (!answer() || answer() === old); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    watch.disconnect();
    if (!answer() || answer() === old) throw new Error(`no new answer: ${seen.join(' | ')}`);
    return seen;
  }, id);
  return statuses;
}

/** Checks both charts are drawn with their data tables; returns the wait table's row count. */
async function chartsWithTables(page, id = 'capacity') {
  for (const chart of ['wait', 'backlog']) {
    const fig = `#${id} figure[data-chart="${chart}"]`;
    assert.equal(await page.locator(`${fig} svg.plot`).count(), 1, `${chart} drawn`);
    await page.click(`${fig} details.chart-data summary`);
    const rows = await page.locator(`${fig} table.chart-table tbody tr`).count();
    assert.ok(rows > 0, `${chart} has data rows`);
  }
  return page.locator(`#${id} figure[data-chart="wait"] table.chart-table tbody tr`).count();
}

/** The ids more than one element of the document carries. */
function duplicateIds(page) {
  return page.evaluate(() => {
    const seen = new Map();
    for (const el of document.querySelectorAll('[id]')) seen.set(el.id, (seen.get(el.id) ?? 0) + 1);
    return [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  });
}

/** Legend labels of the charts on the page that run past their chart's right edge (in the
 * chart's own units: the SVG scales as a whole), as "chart: label (right edge > width)". */
async function legendOverflow(page) {
  return page.$$eval('svg.plot', (svgs) => svgs.flatMap((svg) => {
    const width = svg.viewBox.baseVal.width;
    return [...svg.querySelectorAll('.plot-legend text')]
      .map((t) => ({ name: t.textContent, right: t.getBBox().x + t.getBBox().width }))
      .filter((l) => l.right > width)
      .map((l) => `${svg.getAttribute('aria-label')}: ${l.name} (${l.right.toFixed(1)} > ${width})`);
  }));
}

test('the sheet sizes its load section: progress, the recommendation, both charts, cancel, stale, ρ ≥ 1 (en)', async () => {
  const page = await openPage(browser, server.url);
  await openSheet(page);
  // Nothing in the load section yet: not sized, the numbers named.
  assert.match(await page.textContent('#capacity [data-capacity="not-sized"]'), /Not sized yet: needs the arrival rate .* and the handler time/);
  assert.equal(await page.locator('#capacity-size').count(), 0);

  await importLoad(page, PARTNER);
  const statuses = await sizeIt(page);
  assert.ok(statuses.some((s) => /Simulating: \d+ of 80 runs done/.test(s)), `progress shown: ${statuses}`);
  const answer = page.locator('#capacity .capacity-answer');
  const recommended = await answer.getAttribute('data-recommended');
  assert.match(recommended, /^\d+$/, 'a worker count is recommended');
  assert.match(await page.textContent('#capacity [data-cap="reason"]'), new RegExp(`^${recommended} at once: p95 wait .* ≤ 5 s ✓; done within .* at p95; burst drained in .* ≤ 2 min ✓`));
  assert.match(await page.textContent('#capacity [data-cap="lease"]'), /Lease \/ visibility timeout: /);
  assert.equal(await page.locator(`#capacity table.cap-points tr[data-recommended="true"][data-workers="${recommended}"]`).count(), 1);
  // The panel's heading is not a second "Capacity" under the load section's analytic row.
  assert.equal((await page.textContent('#capacity h3')).trim(), 'Sizing by simulation');
  // The simulated drain says it is simulated (the catalog's column is the analytic one).
  assert.match(await page.textContent('#capacity table.cap-points thead'), /Burst drain, simulated \(95\s% CI\)/);
  // The eight columns fit the sheet at 1280 px (the drain and the bottleneck needed a sideways
  // scroll): a simulated figure's interval sits under it, read aloud as "205 ms (198 ms–212 ms)".
  assert.ok(await page.$eval('#capacity table.cap-points', (t) => t.parentElement.scrollWidth <= t.parentElement.clientWidth + 1), 'the points table fits without a sideways scroll');
  assert.match(await page.textContent(`#capacity table.cap-points tr[data-workers="${recommended}"] td:nth-of-type(3)`), /^\S+ m?s \(\S+ m?s–\S+ m?s\)$/);
  assert.equal(await page.$eval(`#capacity table.cap-points tr[data-workers="${recommended}"] td:nth-of-type(3) .ci`, (e) => getComputedStyle(e).display), 'block');
  assert.equal(await chartsWithTables(page), 8, 'eight worker counts simulated');
  assert.equal(await page.isVisible('#capacity .capacity-answer [data-scroll-hint="charts"]'), false, 'no scroll hint at 1280 px');
  assert.equal(await page.locator('#capacity figure[data-chart="wait"] .plot-rule[data-rule="y"][data-at="5"]').count(), 1, 'the target as a line');
  assert.equal(await page.locator('#capacity figure[data-chart="backlog"] .plot-rule[data-rule="x"][data-at="120"]').count(), 1, 'the deadline marked');
  assert.ok(await page.locator('#capacity figure[data-chart="wait"] .plot-band').count() >= 1, 'the analytic band');
  assert.equal(await page.locator('#capacity figure[data-chart="wait"] .plot-point').count(), 8, 'a simulated point per count');
  await screenshot(page, 'capacity-sheet-en-1280');
  const { lines } = await a11yProblems(page, 'capacity panel (en)');
  assert.deepEqual(lines, []);

  // "Use in the sheet": the recommended count becomes the sheet's Worker processes (the page
  // applies it as an edit of the open sheet), the section's own line and the catalog's row
  // follow it, and the answer, no longer about the sheet's count, says so.
  assert.equal((await page.textContent('#capacity-use')).trim(), `Set Worker processes to ${recommended} in the sheet`);
  await page.click('#capacity-use');
  await page.waitForFunction((n) => document.querySelector('#workers')?.value === n, recommended);
  await page.waitForSelector('#capacity [data-capacity="stale"]');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'capacity-size', 'focus on the next step');
  assert.equal(await page.locator('#capacity-use').count(), 0, 'a stale answer offers nothing to use');
  await showCatalog(page);
  assert.equal((await page.textContent('#catalog-table tbody tr td[data-col="workers"]')).trim(), recommended);
  await page.click('#catalog-table tbody tr .proc-name');
  await page.waitForSelector('#capacity [data-capacity="stale"]');
  // Sized again with the same numbers, the answer is drawn the same (no new element to wait
  // for): it is current again, and the sheet holds its count.
  await page.click('#capacity-size');
  await page.waitForSelector('#capacity [data-capacity="in-sheet"]', { timeout: 120_000 });
  assert.equal(await page.locator('#capacity [data-capacity="stale"]').count(), 0);
  assert.match(await page.textContent('#capacity [data-capacity="in-sheet"]'), new RegExp(`^The sheet already uses this count: Worker processes ${recommended} \\(${recommended} at once\\)\\.$`));

  // An edit makes the answer stale; editing never waited for it.
  await page.fill('#max-attempts', '3');
  await page.locator('#max-attempts').blur();
  await page.waitForSelector('#capacity [data-capacity="stale"]');

  // Cancel stops the sizing; the page says so.
  await page.evaluate(async () => {
    document.querySelector('#capacity-size').click();
    const cancel = () => document.querySelector('#capacity-cancel');
    for (let i = 0; i < 200 && cancel().disabled; i++) await new Promise((r) => setTimeout(r, 0));
    if (cancel().disabled) throw new Error('Cancel never became enabled');
    cancel().click();
  });
  assert.match(await page.textContent('#capacity [data-capacity-status="cancelled"]'), /Cancelled: nothing was sized/);

  // Runs per count out of their range: named by the field's label (it said the request's
  // "seeds: out of range"), the field marked invalid, nothing sent to the worker.
  await page.fill('#capacity-seeds', '0');
  await page.click('#capacity-size');
  await page.waitForSelector('#capacity [data-capacity-status="failed"]');
  assert.match(await page.textContent('#capacity [data-capacity-status="failed"]'), /^Could not size it:\s*Runs per worker count \(seeds\): a whole number from 1 to 50\.$/);
  assert.equal(await page.getAttribute('#capacity-seeds', 'aria-invalid'), 'true');
  await page.fill('#capacity-seeds', '10');

  // A load field showing a value it refused: the sheet holds the last accepted rate, so
  // "Size it" refuses and names the field, as Copy does (it sized the old 2/s, 80 runs).
  await page.fill('#arrival', 'abc');
  await page.locator('#arrival').blur();
  await page.waitForSelector('#arrival[aria-invalid="true"]');
  await page.click('#capacity-size');
  await page.waitForSelector('#capacity [data-capacity-status="failed"]');
  assert.match(await page.textContent('#capacity [data-capacity-status="failed"]'), /^Could not size it:\s*Mean arrival rate: the field shows a value it refused, .* Correct it first\.$/);
  assert.equal(await page.locator('#capacity [data-capacity-status="running"]').count(), 0, 'nothing sent to the worker');
  await page.fill('#arrival', '2');
  await page.locator('#arrival').blur();
  await page.waitForSelector('#arrival[aria-invalid="false"]');

  // Processes of several jobs each: a recommended count that is not a multiple of them is
  // offered rounded up to whole processes, and the button says so (it said "× 2 at once
  // each = 2 at once" for a recommended 1, not the count recommended).
  const per = Number(recommended) + 1;
  await importLoad(page, { ...PARTNER, concurrency: per });
  await page.waitForSelector('#capacity [data-capacity="stale"]');
  // The same arrivals give the same answer (drawn the same: no new element), now current.
  await page.click('#capacity-size');
  await page.waitForSelector('#capacity-use', { timeout: 120_000 });
  const wanted = await answer.getAttribute('data-recommended');
  assert.match(wanted, /^\d+$/);
  assert.notEqual(Number(wanted) % per, 0, `${wanted} at once is not a multiple of ${per} a process`);
  const processes = Math.ceil(Number(wanted) / per);
  assert.equal((await page.textContent('#capacity-use')).trim(),
    `Set Worker processes to ${processes} in the sheet (× ${per} at once each = ${processes * per} at once: the recommended ${wanted} rounded up to whole processes)`);
  // Used and sized again: the sheet holds more at once than recommended, and the line says
  // it is the recommended count rounded up (it said "already uses this count: … (N at
  // once)" above a smaller recommended count).
  await page.click('#capacity-use');
  await page.waitForSelector('#capacity [data-capacity="stale"]');
  await page.click('#capacity-size');
  await page.waitForSelector('#capacity [data-capacity="in-sheet"]', { timeout: 120_000 });
  assert.equal((await page.textContent('#capacity [data-capacity="in-sheet"]')).trim(),
    `The sheet already holds the recommended ${wanted} at once, rounded up to whole processes: Worker processes ${processes} (× ${per} at once each = ${processes * per} at once).`);

  // ρ ≥ 1: an answer, not an error — said, and the backlog shown growing.
  await importLoad(page, OVERLOAD);
  await sizeIt(page);
  assert.equal(await answer.getAttribute('data-grows'), 'true');
  assert.equal(await answer.getAttribute('data-recommended'), 'none');
  assert.match(await page.textContent('#capacity [data-cap="grows"]'), /ρ ≥ 1 at every count simulated .* the queue grows without end/);
  assert.match(await page.textContent('#capacity figure[data-chart="backlog"] figcaption strong'), /Backlog growing at \d+ at once \(ρ ≥ 1\)/);
  // Each row says its simulated figures are a finite run's, on lines of its own under the
  // count: the count's column stays narrow (the note on one line made it 360 px wide).
  const growing = page.locator('#capacity table.cap-points tbody tr[data-grows="true"] th');
  assert.equal(await growing.count(), await page.locator('#capacity table.cap-points tbody tr').count());
  assert.match(await growing.first().textContent(), /ρ ≥ 1: grows without end; the figures are a finite run's/);
  assert.ok((await growing.first().boundingBox()).width <= 200, 'the note wraps under the count');
  await chartsWithTables(page);
  await screenshot(page, 'capacity-grows-en-1280');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Japanese, on a phone, and as Simulate\'s Capacity view', async () => {
  const page = await openPage(browser, server.url, { locale: 'ja', width: 390, height: 844 });
  await openSheet(page);
  assert.match(await page.textContent('#capacity [data-capacity="not-sized"]'), /未算定：到着率/);
  await importLoad(page, PARTNER);
  const statuses = await sizeIt(page);
  assert.ok(statuses.some((s) => /シミュレーション中：80回中\d+回が終わりました/.test(s)), `progress shown: ${statuses}`);
  assert.match(await page.textContent('#capacity [data-cap="reason"]'), /^同時\d+件：待ち時間p95/);
  assert.equal((await page.textContent('#capacity h3')).trim(), 'シミュレーションによる算定');
  // The runs-per-count field in Japanese words (it said 「（seeds）」).
  assert.equal((await page.textContent('label[for="capacity-seeds"]')).trim(), 'ワーカー数ごとの実行回数（シード数）');
  // The table scrolls sideways on a phone; its Japanese headings are wide enough to read
  // (4.5em wide, the burst's heading stood 210 px tall, one or two characters a line).
  const headRow = await page.$eval('#capacity table.cap-points thead tr', (r) => r.getBoundingClientRect().height);
  assert.ok(headRow <= 140, `the heading row is ${headRow} px tall`);
  await chartsWithTables(page);
  // On a phone each chart keeps its width and scrolls sideways: the charts say so, as the
  // simulator's do (the sizing charts had no hint).
  assert.match(await page.textContent('#capacity .capacity-answer [data-scroll-hint="charts"]'), /横にスクロール/);
  assert.ok(await page.isVisible('#capacity .capacity-answer [data-scroll-hint="charts"]'), 'the hint shows at 390 px');
  // Every legend label lies inside its chart (the Japanese names are wider than the English;
  // on a phone the chart keeps 640 units and scrolls sideways in its box).
  assert.deepEqual(await legendOverflow(page), [], 'legend labels inside their charts');
  await screenshot(page, 'capacity-sheet-ja-390');
  const { lines } = await a11yProblems(page, 'capacity panel (ja, 390 px)');
  assert.deepEqual(lines, []);

  // Simulate → Capacity: the same panel for the open process's sheet, with ids of its own.
  await page.click('.tabs button:nth-child(3)');
  await page.click('.preset[data-scenario="capacity"]');
  await page.waitForSelector('section.simulate #sim-capacity #sim-capacity-size');
  await sizeIt(page, 'sim-capacity');
  assert.match(await page.textContent('#sim-capacity [data-cap="reason"]'), /^同時\d+件/);
  await screenshot(page, 'capacity-simulate-ja-390');

  // ρ ≥ 1 in Japanese: said and charted. Back on the sheet, Simulate's view (kept, hidden)
  // shares no id with the sheet's panel.
  await page.click('.tabs button:nth-child(2)');
  await page.waitForSelector('section.sheet #capacity');
  assert.deepEqual(await duplicateIds(page), [], 'no id twice in the document');
  await importLoad(page, OVERLOAD);
  await sizeIt(page);
  assert.match(await page.textContent('#capacity [data-cap="grows"]'), /キューは際限なく伸びます/);
  assert.match(await page.textContent('#capacity figure[data-chart="backlog"] figcaption strong'), /伸び続けるバックログ/);
  await screenshot(page, 'capacity-grows-ja-390');

  // The largest burst the section allows with the default 10 runs is over the sweep's budget:
  // said with the field's label, the range first (it read 「seeds：範囲外です。指定できるのは
  // この数値では1〜8」), the field marked invalid.
  await importLoad(page, { ...PARTNER, burst: { 'at-once': { count: 100000 } } });
  await page.click('#capacity-size');
  await page.waitForSelector('#capacity [data-capacity-status="failed"]');
  assert.match(await page.textContent('#capacity [data-capacity-status="failed"]'), /ワーカー数ごとの実行回数（シード数）：1〜\d+（この数値の場合。シミュレーションの上限は20,000,000件のジョブ/);
  assert.equal(await page.getAttribute('#capacity-seeds', 'aria-invalid'), 'true');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Simulate\'s Capacity view at 1280 px (en): its count used in the sheet; without a sheet it says why by the decision (undecided, a call, a queued job)', async () => {
  const page = await openPage(browser, server.url);
  await openSheet(page);
  await importLoad(page, PARTNER);
  await page.click('.tabs button:nth-child(3)');
  await page.click('.preset[data-scenario="capacity"]');
  await sizeIt(page, 'sim-capacity');
  assert.match(await page.textContent('#sim-capacity [data-cap="reason"]'), /^\d+ at once/);
  await chartsWithTables(page, 'sim-capacity');
  await screenshot(page, 'capacity-simulate-en-1280');
  const { lines } = await a11yProblems(page, 'capacity view (en)');
  assert.deepEqual(lines, []);

  // "Set Worker processes" from Simulate reaches the page's sheet as the sheet's panel does.
  const recommended = await page.locator('#sim-capacity .capacity-answer').getAttribute('data-recommended');
  assert.match(recommended, /^\d+$/);
  await page.click('#sim-capacity-use');
  await page.waitForSelector('#sim-capacity [data-capacity="stale"]');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'sim-capacity-size', 'focus on the next step');
  await page.click('.tabs button:nth-child(2)');
  await page.waitForFunction((n) => document.querySelector('#workers')?.value === n, recommended);
  assert.deepEqual(await duplicateIds(page), [], 'no id twice in the document');

  // A process without a sheet: the view words it by the process's decision (the page tells
  // the simulator module the outcome). Not decided yet: decide it first.
  const decide = async (answers) => {
    await page.click('.tabs button:nth-child(1)');
    for (const [q, a] of answers) {
      await page.waitForSelector(`form.question[data-question="${q}"]`);
      await page.check(`#q-${q}-${a}`);
      await page.click('form.question button[type="submit"]');
    }
    await page.waitForSelector('#open-sheet');
  };
  const add = async (name) => {
    await page.click('#bar-catalog');
    await page.waitForSelector('section.catalog');
    await page.fill('#add-name', name);
    await page.click('#add-process');
    await page.waitForSelector('form.question[data-question="time-triggered"]');
  };
  await add('Search rooms');
  await page.click('.tabs button:nth-child(3)');
  await page.click('.preset[data-scenario="capacity"]');
  await page.waitForSelector('[data-capacity="undecided"]');
  assert.match(await page.textContent('[data-capacity="undecided"]'), /not decided yet: answer its questions \(“1\. Decide”\)/);
  // A call answered at once, its sheet never opened: no queue to size (not "open its sheet").
  await decide([['time-triggered', 'no'], ['needs-result-now', 'yes'], ['within-seconds', 'yes'], ['external-call', 'no']]);
  await page.click('.tabs button:nth-child(3)');
  await page.waitForSelector('[data-capacity="no-queue"]');
  assert.match(await page.textContent('[data-capacity="no-queue"]'), /no queue to size .* choose a preset above/);
  // A queued job whose sheet was never opened: the view says where to open it.
  await add('Send receipts');
  await decide([['time-triggered', 'no'], ['needs-result-now', 'no']]);
  await page.click('.tabs button:nth-child(3)');
  await page.click('.preset[data-scenario="capacity"]');
  await page.waitForSelector('[data-capacity="no-sheet"]');
  assert.match(await page.textContent('[data-capacity="no-sheet"]'), /no sheet yet: open it \(“2\. Job sheet”\)/);
  // The call again, its sheet opened: still nothing to size.
  await page.click('#bar-catalog');
  await page.waitForSelector('section.catalog');
  await page.click('#catalog-table .proc-name:text-is("Search rooms")');
  await page.click('.tabs button:nth-child(2)');
  await page.waitForSelector('section.sheet[data-outcome="sync"]');
  await page.click('.tabs button:nth-child(3)');
  await page.waitForSelector('[data-capacity="no-queue"]');
  assert.match(await page.textContent('[data-capacity="no-queue"]'), /no queue to size .* choose a preset above/);
  assert.equal(await page.locator('#sim-capacity').count(), 0, 'no panel asking for an arrival rate');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('an answer stays with its own process: another process\'s sheet shows none, and the first keeps it', async () => {
  const page = await openPage(browser, server.url);
  await openSheet(page);
  await importLoad(page, PARTNER);
  await sizeIt(page);
  const first = (await page.textContent('#bar-process')).trim();
  const reason = await page.textContent('#capacity [data-cap="reason"]');
  // A second process, its sheet: nothing sized there (the panel once showed the first one's answer).
  await page.click('#bar-catalog');
  await page.waitForSelector('section.catalog');
  await page.fill('#add-name', 'Mail');
  await page.click('#add-process');
  for (const q of ['time-triggered', 'needs-result-now']) {
    await page.waitForSelector(`form.question[data-question="${q}"]`);
    await page.check(`#q-${q}-no`);
    await page.click('form.question button[type="submit"]');
  }
  await page.click('#open-sheet');
  await page.waitForSelector('#capacity [data-capacity="not-sized"]');
  assert.equal(await page.locator('#capacity .capacity-answer').count(), 0, 'no other process\'s answer');
  assert.equal(await page.locator('#capacity').count(), 1, 'one panel');
  // Back to the first process: its answer is still there.
  await page.click('#bar-catalog');
  await page.waitForSelector('section.catalog');
  await page.click(`#catalog-table .proc-name:text-is("${first}")`);
  if (await page.locator('section.sheet').count() === 0) await page.click('.tabs button:nth-child(2)');
  await page.waitForSelector('#capacity .capacity-answer');
  assert.equal(await page.textContent('#capacity [data-cap="reason"]'), reason);
  await page.context().close();
});
