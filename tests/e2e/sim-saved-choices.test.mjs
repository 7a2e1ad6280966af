// The Simulate screen's choices survive a reload in real Chromium: preset, variant, seed, jobs
// and edited knobs come back; stored parts that no longer check out are dropped quietly.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openSimulate } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

const open = (lang = 'en') => openSimulate(browser, server.url, lang);
const pressed = (page) => page.getAttribute('.preset[aria-pressed="true"]', 'data-scenario');

async function reload(page) {
  await page.reload();
  await page.waitForSelector('section.simulate:visible');
}

test('a reload keeps the preset, variant, seed, jobs and edited knobs; bad saved parts are dropped', async () => {
  const page = await open();
  await page.click('.preset[data-scenario="custom"]');
  await page.fill('#knob-workers', '9');
  await page.fill('#seed', '99');
  await reload(page);
  assert.equal(await pressed(page), 'custom');
  assert.equal(await page.inputValue('#knob-workers'), '9');
  assert.equal(await page.inputValue('#seed'), '99');
  // A preset's variant, and the load preset's job count.
  await page.click('.preset[data-scenario="pg-row-locks"]');
  await page.check('#variant-nowait');
  await reload(page);
  assert.equal(await pressed(page), 'pg-row-locks');
  assert.ok(await page.isChecked('#variant-nowait'));
  await page.click('.preset[data-scenario="mmc-load"]');
  await page.fill('#jobs', '5000');
  await reload(page);
  assert.equal(await page.inputValue('#jobs'), '5000');
  // Stored values that no longer check out are dropped quietly; the rest stays.
  await page.evaluate(() => {
    const key = 'modality-advisor.catalog';
    const stored = JSON.parse(localStorage.getItem(key));
    const s = stored.catalog.processes[0];
    s.sim.preset = 'no-such-preset';
    s.sim.seed = -5;
    s.sim.custom = { workers: 'nine' };
    localStorage.setItem(key, JSON.stringify(stored));
  });
  await reload(page);
  assert.equal(await pressed(page), 'retry-dead-letter');
  assert.equal(await page.inputValue('#seed'), '1');
  await page.click('.preset[data-scenario="mmc-load"]');
  assert.equal(await page.inputValue('#jobs'), '5000', 'the valid part stays');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
