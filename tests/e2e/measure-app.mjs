// Measures the app's start (not a test: it only prints; docs/PERFORMANCE.md quotes it).
//   cd tests/e2e && node measure-app.mjs        (after `trunk build --release`)
// At 10 Mbit/s with 40 ms latency (CDP Network.emulateNetworkConditions), cache disabled, each
// load in a fresh context, the files served brotli-compressed (quality 11) as a static host
// would; the median of 5 cold loads of:
// - first contentful paint (the product name and the loading line of index.html);
// - the wasm started (Trunk's `TrunkApplicationStarted` event);
// - the first question clickable: the first frame in which the wizard's first answer is on
//   screen and enabled (sampled before each paint with requestAnimationFrame).
import { launch, serveBrotli } from './harness.mjs';

const RUNS = 5;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function coldLoad(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(() => {
    addEventListener('TrunkApplicationStarted', () => { window.__started = performance.now(); });
    const sample = () => {
      const answer = document.querySelector('form.question input[type="radio"]');
      const label = answer?.labels?.[0];
      const onScreen = (el) => !!el && el.getClientRects().length > 0;
      if (answer && !answer.disabled && (onScreen(answer) || onScreen(label))) {
        window.__clickable = performance.now();
      } else {
        requestAnimationFrame(sample);
      }
    };
    requestAnimationFrame(sample);
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
  await page.waitForFunction(() => window.__clickable !== undefined, null, { timeout: 60_000 });
  const times = await page.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
    started: window.__started,
    clickable: window.__clickable,
  }));
  await context.close();
  return { ...times, bytes };
}

const server = await serveBrotli();
const browser = await launch();
try {
  const loads = [];
  for (let i = 0; i < RUNS; i++) loads.push(await coldLoad(browser, server.url));
  const row = (label, key) => {
    const xs = loads.map((l) => l[key]);
    console.log(`  ${label}: median ${Math.round(median(xs))} ms (${xs.map(Math.round).join(', ')})`);
  };
  console.log(`the app (index.html), 10 Mbit/s + 40 ms, ${RUNS} cold loads:`);
  row('first contentful paint', 'fcp');
  row('wasm started', 'started');
  row('first question clickable', 'clickable');
  console.log(`  bytes on the wire: ${(median(loads.map((l) => l.bytes)) / 1024).toFixed(1)} KB`);
} finally {
  await browser.close();
  server.stop();
}
