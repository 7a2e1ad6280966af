// Measures the embed page (not a test: it only prints; docs/PERFORMANCE.md quotes it).
//   cd tests/e2e && node measure-embed.mjs        (after `trunk build --release`)
// 1. Time to first contentful paint and to the card rendered (`#embed[data-state="shown"]`)
//    at 10 Mbit/s with 40 ms latency (CDP Network.emulateNetworkConditions), cache disabled,
//    each load in a fresh context; the median of 5 cold loads. The files are served
//    brotli-compressed (quality 11), as a static host would.
// 2. The content's height at a frame width of 800 px for each fixture (the numbers that
//    calibrate `domain::share::embed::recommended_height`).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { launch, root, serveBrotli } from './harness.mjs';

const fixtures = JSON.parse(readFileSync(path.join(root, 'tests', 'e2e', 'links', 'embed-fragments.json'), 'utf8'));
const RUNS = 5;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function coldLoad(browser, url) {
  const context = await browser.newContext({ viewport: { width: 800, height: 900 } });
  await context.addInitScript(() => {
    new MutationObserver((_, obs) => {
      const main = document.getElementById('embed');
      if (main && main.dataset.state === 'shown') {
        window.__shown = performance.now();
        obs.disconnect();
      }
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false, latency: 40, downloadThroughput: (10e6 / 8), uploadThroughput: (10e6 / 8),
  });
  let bytes = 0;
  cdp.on('Network.loadingFinished', (e) => { bytes += e.encodedDataLength; });
  await page.goto(url);
  await page.waitForFunction(() => window.__shown !== undefined, null, { timeout: 60_000 });
  const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime);
  const shown = await page.evaluate(() => window.__shown);
  await context.close();
  return { fcp, shown, bytes };
}

async function heightAt800(browser, base, fx) {
  const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
  const page = await context.newPage();
  await page.goto(`${base}embed.html#${fx.fragment}`);
  await page.waitForSelector('#embed[data-state="shown"]');
  await page.evaluate(() => document.fonts.ready);
  const h = await page.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  await context.close();
  return h;
}

const server = await serveBrotli();
const browser = await launch();
try {
  const loads = [];
  for (let i = 0; i < RUNS; i++) loads.push(await coldLoad(browser, `${server.url}embed.html#${fixtures.process_en.fragment}`));
  const ms = (x) => `${Math.round(x)} ms`;
  console.log(`embed page, process card, 10 Mbit/s + 40 ms, ${RUNS} cold loads:`);
  console.log(`  first contentful paint: median ${ms(median(loads.map((l) => l.fcp)))} (${loads.map((l) => Math.round(l.fcp)).join(', ')})`);
  console.log(`  card rendered: median ${ms(median(loads.map((l) => l.shown)))} (${loads.map((l) => Math.round(l.shown)).join(', ')})`);
  console.log(`  bytes on the wire: ${(median(loads.map((l) => l.bytes)) / 1024).toFixed(1)} KB`);
  console.log('content height at 800 px (CSS px):');
  for (const [name, fx] of Object.entries(fixtures)) {
    if (typeof fx !== 'object') continue;
    console.log(`  ${name} (${fx.names.length} process${fx.names.length > 1 ? 'es' : ''}): ${await heightAt800(browser, server.url, fx)} px, recommended ${fx.recommended_height} px`);
  }
} finally {
  await browser.close();
  server.stop();
}
