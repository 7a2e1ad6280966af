// Stepping a small run (issue 5): the job state machine's counts and highlighted transition
// follow the stepper; play / pause, speed and the keyboard work; the load preset shows the
// final counts only. Screenshots in en and ja.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, screenshot, openSimulate } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const open = (lang = 'en') => openSimulate(browser, server.url, lang);

async function runPreset(page, scenario, variant) {
  await page.click(`.preset[data-scenario="${scenario}"]`);
  await page.check(`#variant-${variant}`);
  await page.fill('#seed', '1');
  await page.click('#sim-run');
  await page.waitForSelector(`.sim-result[data-scenario="${scenario}"][data-variant="${variant}"] .step-view`);
}

/** Rows per state shown by the diagram, e.g. { queued: 1, running: 1, done: 0, dead: 0 }. */
async function counts(page) {
  return page.$$eval('.state-machine [data-state]', (gs) =>
    Object.fromEntries(gs.map((g) => [g.dataset.state, Number(g.dataset.count)])));
}

/** The highlighted transitions and their times, e.g. { claim: 1 }. */
async function active(page) {
  return page.$$eval('.state-machine .edge.active', (gs) =>
    Object.fromEntries(gs.map((g) => [g.dataset.transition, Number(g.dataset.times)])));
}

const pos = async (page) => Number(await page.getAttribute('.step-view', 'data-pos'));

test('stepping retry-dead-letter shows the counts and the transition taken', async () => {
  const page = await open();
  await runPreset(page, 'retry-dead-letter', 'seed');
  // A finished run sits at the end with the final counts: 1 done, 1 dead.
  assert.equal(await page.getAttribute('.step-view', 'data-frames'), '18');
  assert.equal(await pos(page), 17);
  assert.deepEqual(await counts(page), { queued: 0, running: 0, done: 1, dead: 1 });
  assert.deepEqual(await active(page), { 'dead-letter': 1 });
  assert.match(await page.textContent('#step-frame'), /17 \/ 17/);
  assert.match(await page.getAttribute('.state-machine svg', 'aria-label'), /done 1, dead 1/);
  assert.equal(await page.getAttribute('.state-machine svg', 'role'), 'img');
  // Until the stepper is moved, the event log marks no line.
  assert.equal(await page.$('.event-log li.current'), null);

  await page.click('#step-start');
  assert.equal(await pos(page), 0);
  assert.deepEqual(await counts(page), { queued: 0, running: 0, done: 0, dead: 0 });
  assert.deepEqual(await active(page), {});
  assert.ok(await page.isDisabled('#step-back'));

  await page.click('#step-forward');
  assert.deepEqual(await counts(page), { queued: 1, running: 0, done: 0, dead: 0 });
  assert.deepEqual(await active(page), { enqueue: 1 });
  assert.match(await page.textContent('.step-log'), /job#1 send_mail 0\/5: enqueued/);

  for (let i = 0; i < 3; i++) await page.click('#step-forward');
  // Step 4: send_mail's first attempt failed and went back to queued (retry with run_after),
  // and the worker claimed resize_image.
  assert.equal(await pos(page), 4);
  assert.deepEqual(await counts(page), { queued: 1, running: 1, done: 0, dead: 0 });
  assert.deepEqual(await active(page), { claim: 1, retry: 1 });
  assert.equal(await page.getAttribute('.step-log', 'data-lines'), '2');
  assert.match(await page.textContent('.step-log li:first-child'), /send_mail 1\/5: error TimeoutError.*→ queued until 0\.200s/);
  assert.match(await page.textContent('#step-time'), /^Virtual time 0\.0 s$/);
  // The event log marks the last line written so far (0-based line 4 = line 5).
  await page.waitForSelector('.event-log li.current[data-line="4"]');

  // An idle poll: time moves, nothing else.
  await page.click('#step-forward');
  await page.click('#step-forward');
  assert.match(await page.textContent('#step-time'), /^Virtual time 0\.1 s$/);
  assert.deepEqual(await active(page), {});
  assert.equal(await page.getAttribute('.step-view .hint[data-lines]', 'data-lines'), '0');

  await page.click('#step-back');
  assert.equal(await pos(page), 5);

  // The slider jumps anywhere.
  await page.fill('#step-slider', '16');
  assert.deepEqual(await active(page), { claim: 1, complete: 1 });
  assert.deepEqual(await counts(page), { queued: 0, running: 1, done: 1, dead: 0 });
  await screenshot(page, 'en-sim-step');

  // Play, then pause: the frame has moved on.
  await page.click('#step-start');
  await page.click('#step-play');
  assert.equal(await page.getAttribute('#step-play', 'aria-pressed'), 'true');
  await page.waitForFunction(() => Number(document.querySelector('.step-view').dataset.pos) >= 1);
  await page.click('#step-play');
  assert.equal(await page.getAttribute('.step-view', 'data-playing'), 'false');
  assert.ok((await pos(page)) >= 1);

  // Speed: at 64 events/s playback reaches the end and stops there by itself.
  await page.selectOption('#step-speed', '64');
  await page.click('#step-start');
  await page.click('#step-play');
  await page.waitForFunction(() => document.querySelector('.step-view').dataset.playing === 'false', null, { timeout: 10000 });
  assert.equal(await pos(page), 17);
  assert.deepEqual(await counts(page), { queued: 0, running: 0, done: 1, dead: 1 });
  assert.equal(await page.inputValue('#step-speed'), '64');

  // Keyboard on the diagram: ← → Home End, Space plays and pauses.
  await page.focus('.sm-focus');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await pos(page), 16);
  await page.keyboard.press('Home');
  assert.equal(await pos(page), 0);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal(await pos(page), 2);
  assert.deepEqual(await counts(page), { queued: 2, running: 0, done: 0, dead: 0 });
  await page.keyboard.press('End');
  assert.equal(await pos(page), 17);
  await page.keyboard.press('Home');
  await page.keyboard.press(' ');
  assert.equal(await page.getAttribute('.step-view', 'data-playing'), 'true');
  await page.keyboard.press(' ');
  assert.equal(await page.getAttribute('.step-view', 'data-playing'), 'false');
  // The buttons themselves are reachable with Tab and work with Enter.
  await page.focus('#step-end');
  await page.keyboard.press('Enter');
  assert.equal(await pos(page), 17);
  // A new result (another seed) puts the stepper back at its end.
  await page.click('#step-start');
  await page.fill('#seed', '2');
  await page.click('#sim-run');
  await page.waitForSelector('.sim-result h3:has-text("seed 2")');
  await page.waitForFunction(() => document.querySelector('.step-view')?.dataset.pos === '17');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('each lesson highlights its own move', async () => {
  const page = await open();
  await runPreset(page, 'duplicate-execution', 'plain');
  // Find the step where B takes the job again after A's lease expired.
  const last = Number(await page.getAttribute('.step-view', 'data-frames')) - 1;
  await page.click('#step-start');
  let found = false;
  for (let i = 0; i < last && !found; i++) {
    await page.click('#step-forward');
    found = 'reclaim' in await active(page);
  }
  assert.ok(found, 'a reclaim after the lease');
  assert.deepEqual(await counts(page), { queued: 0, running: 1, done: 0, dead: 0 });
  assert.match(await page.textContent('.step-log'), /B job#1 add_points 2\/3: claimed/);

  await runPreset(page, 'claim-race', 'two-statement');
  assert.ok(await page.$('.state-machine [data-transition="double-claim"]'), 'drawn when taken');
  await runPreset(page, 'claim-race', 'atomic');
  assert.equal(await page.$('.state-machine [data-transition="double-claim"]'), null);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the load preset shows the final counts without a stepper; Japanese labels', async () => {
  const page = await open('ja');
  await page.click('.preset[data-scenario="mmc-load"]');
  await page.fill('#jobs', '2000');
  await page.click('#sim-run');
  await page.waitForSelector('.sim-result[data-scenario="mmc-load"] .step-view[data-frames="0"]');
  const c = await counts(page);
  assert.equal(c.done + c.dead, 2000);
  assert.equal(await page.$('#step-play'), null);

  await runPreset(page, 'retry-dead-letter', 'seed');
  await page.click('#step-start');
  for (let i = 0; i < 4; i++) await page.click('#step-forward');
  assert.match(await page.textContent('.state-machine [data-transition="retry"]'), /再試行/);
  assert.match(await page.getAttribute('#step-forward', 'aria-label'), /1つ進む/);
  assert.match(await page.textContent('#step-frame'), /ステップ 4 \/ 17/);
  await screenshot(page, 'ja-sim-step');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
