// Accessibility of every screen and state that matters, in real Chromium: axe-core (WCAG 2.0 /
// 2.1 A and AA, and axe's best practices; see a11y.mjs) and the contrast of SVG text (which axe
// does not check), with 0 problems allowed — in English and Japanese, at 1280 and 390 px.
// One page per language and width walks through the states: each wizard question and outcome,
// the sheet with findings, a target's configuration panel, the share panel, the catalog, each
// simulator preset's result and a Compare; the embed page is checked with share links.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { serve, launch, openPage, answer, showCatalog, root } from './harness.mjs';
import { a11yProblems, svgTextContrast } from './a11y.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

/** The simulator's presets as the page lists them (seven scenarios, your settings, the load). */
const PRESETS = ['retry-dead-letter', 'duplicate-execution', 'claim-race', 'pg-row-locks', 'burst-leveling',
  'jitter-contention', 'lease-shorter-than-handler', 'custom', 'mmc-load'];

/** Restarts the wizard from a result. */
async function restart(page) {
  await page.click('article.result .actions button:nth-child(2)');
  await page.waitForSelector('form.question[data-question="time-triggered"]');
}

/** Each wizard question and each outcome; ends on the queued job's result. */
async function walkDecide(page, check) {
  await check('question time-triggered');
  await answer(page, 'time-triggered', 'yes');
  await page.waitForSelector('article.result[data-outcome="batch"]');
  await check('outcome batch');
  await restart(page);
  await answer(page, 'time-triggered', 'no');
  await check('question needs-result-now');
  await answer(page, 'needs-result-now', 'yes');
  await check('question within-seconds');
  await answer(page, 'within-seconds', 'no');
  await page.waitForSelector('article.result[data-outcome="async-ticket"]');
  await check('outcome async-ticket');
  await restart(page);
  for (const [q, v] of [['time-triggered', 'no'], ['needs-result-now', 'yes'], ['within-seconds', 'yes']]) await answer(page, q, v);
  await check('question external-call');
  await answer(page, 'external-call', 'no');
  await page.waitForSelector('article.result[data-outcome="sync"]');
  await check('outcome sync');
  await restart(page);
  for (const [q, v] of [['time-triggered', 'no'], ['needs-result-now', 'yes'], ['within-seconds', 'yes'], ['external-call', 'yes']]) await answer(page, q, v);
  await check('question keep-accepting-when-down');
  await answer(page, 'keep-accepting-when-down', 'no');
  await page.waitForSelector('article.result[data-outcome="sync-timeout"]');
  await check('outcome sync-timeout');
  await restart(page);
  await answer(page, 'time-triggered', 'no');
  await answer(page, 'needs-result-now', 'no');
  await page.waitForSelector('article.result[data-outcome="async-enqueue"]');
  await check('outcome async-enqueue');
}

/** The blank sheet (its findings), a target's panel, the share panel, the catalog. */
async function walkSheet(page, check) {
  await page.click('#open-sheet');
  await page.waitForSelector('section.sheet .findings [data-finding]');
  await check('sheet with findings');
  await page.click('#load-example');
  await page.selectOption('#target-choose', 'sidekiq');
  await page.waitForSelector('#target-panel .target-body[data-target="sidekiq"]', { timeout: 60_000 });
  await check('configuration for sidekiq');
  await page.click('#share-open');
  await page.waitForSelector('#share-panel #share-link');
  await check('share panel');
  await showCatalog(page);
  await check('catalog');
}

/** Each preset's result (its first variant, seed 1), then a Compare. */
async function walkSimulate(page, check) {
  // The catalog screen shows no process steps: open the first process to reach them.
  if (!(await page.$('.tabs'))) await page.click('#catalog-table tbody tr:nth-child(1) .proc-name');
  await page.click('.tabs button:nth-child(3)');
  await page.waitForSelector('section.simulate');
  await check('simulator');
  for (const preset of PRESETS) {
    await page.click(`.preset[data-scenario="${preset}"]`);
    await page.fill('#seed', '1');
    await page.click('#sim-run');
    await page.waitForSelector(`.sim-result[data-scenario="${preset === 'custom' ? 'config' : preset}"]`, { timeout: 120_000 });
    await page.waitForSelector('#sim-run:enabled');
    await check(`result ${preset}`);
  }
  await page.click('.preset[data-scenario="duplicate-execution"]');
  await page.click('#compare-run');
  await page.waitForSelector('.compare-result .compare-diff', { timeout: 120_000 });
  await check('compare');
}

for (const lang of ['en', 'ja']) {
  for (const width of [1280, 390]) {
    test(`${lang} at ${width} px: every screen and state, 0 problems`, async () => {
      const page = await openPage(browser, server.url, { locale: lang, width, height: width < 600 ? 844 : 900 });
      const problems = [];
      let svgTexts = 0;
      const check = async (where) => {
        const found = await a11yProblems(page, `${lang} ${width} ${where}`);
        problems.push(...found.lines);
        svgTexts += found.svgTexts;
      };
      await walkDecide(page, check);
      await walkSheet(page, check);
      await walkSimulate(page, check);
      assert.deepEqual(problems, []);
      // The flowchart, the retry timeline and the charts are measured, not skipped.
      assert.ok(svgTexts > 500, `${svgTexts} SVG texts measured`);
      console.log(`${lang} ${width}: ${svgTexts} SVG texts measured`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
}

const fixtures = JSON.parse(readFileSync(path.join(root, 'tests', 'e2e', 'links', 'embed-fragments.json'), 'utf8'));

test('the embed page with a process and a catalog, in both languages, at 800 and 390 px: 0 problems', async () => {
  const problems = [];
  for (const name of ['process_en', 'process_ja', 'catalog_en', 'catalog_ja']) {
    for (const width of [800, 390]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${server.url}embed.html#${fixtures[name].fragment}`);
      await page.waitForSelector('#embed[data-state="shown"]');
      problems.push(...(await a11yProblems(page, `embed ${name} ${width}`)).lines);
      await context.close();
    }
  }
  assert.deepEqual(problems, []);
});

test('the SVG contrast check finds low contrast: light on light, dark on dark, faded by an ancestor', async () => {
  const page = await browser.newPage();
  await page.setContent(`<!doctype html><html lang="en"><head><title>t</title></head><body>
<div class="dark"><svg width="300" height="100" viewBox="0 0 150 50">
<rect width="150" height="50" fill="#eeeeee"/>
<text x="5" y="15" fill="#bbbbbb" font-size="8">light on light</text>
<text x="5" y="30" fill="#333333" font-size="8">dark on light</text>
<text x="5" y="45" fill="#858585" font-size="14">large, 3:1 is enough</text></svg>
<svg width="300" height="60"><text x="5" y="30" fill="#444444" font-size="12">dark on dark</text>
<g opacity="0.3"><text x="150" y="30" fill="#ffffff" font-size="12">faded</text></g></svg></div>
<style>.dark { background: #222222; }</style></body></html>`);
  const { fails, checked } = await svgTextContrast(page);
  assert.equal(checked, 5);
  assert.deepEqual(fails.map((f) => /"([^"]+)"/.exec(f)[1]), ['light on light', 'dark on dark', 'faded']);
  await page.close();
});
