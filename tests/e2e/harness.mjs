// Shared setup for the browser tests: serve the release build (dist/) on 127.0.0.1 with an
// ephemeral port, launch Debian's Chromium through playwright-core, collect console errors,
// and save screenshots under target/e2e-screenshots/ for people to look at.
import { spawn, execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdirSync, existsSync, readFileSync, statSync } from 'node:fs';
import { brotliCompressSync, constants } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '..', '..');
export const dist = path.join(root, 'dist');
export const shots = path.join(root, 'target', 'e2e-screenshots');

/** Starts `python3 -m http.server` on a free port; resolves { url, stop }. */
export async function serve() {
  if (!existsSync(path.join(dist, 'index.html'))) {
    throw new Error(`no release build in ${dist}: run \`trunk build --release\` first`);
  }
  const proc = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', dist], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('http.server did not start')), 15000);
    proc.stdout.on('data', (chunk) => {
      const m = /port (\d+)/.exec(String(chunk));
      if (m) { clearTimeout(timer); resolve(`http://127.0.0.1:${m[1]}/`); }
    });
    proc.on('exit', (code) => reject(new Error(`http.server exited with ${code}`)));
  });
  return { url, stop: () => proc.kill() };
}

/** Serves dist/ brotli-compressed (quality 11), as a static host would (a folder's
 * index.html for a path ending in `/`), for the measurements; resolves { url, stop }. */
export function serveBrotli() {
  const cache = new Map();
  const server = createServer((req, res) => {
    let file = path.join(dist, path.normalize(new URL(req.url, 'http://x').pathname));
    if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, 'index.html');
    if (!file.startsWith(dist + path.sep) || !existsSync(file)) { res.writeHead(404).end(); return; }
    if (!cache.has(file)) {
      cache.set(file, brotliCompressSync(readFileSync(file), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    }
    res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'Content-Encoding': 'br' });
    res.end(cache.get(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}/`, stop: () => server.close(),
  })));
}

function chromiumPath() {
  for (const name of ['chromium', 'chromium-browser']) {
    try { return execFileSync('sh', ['-c', `command -v ${name}`]).toString().trim(); } catch { /* next */ }
  }
  throw new Error('Chromium not found: run scripts/install-tools.sh');
}

/** Launches headless Chromium with the flags this machine needs. */
export async function launch() {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * Opens a fresh context (empty storage) and page; records console errors and page errors in
 * `page.errors`.
 */
export async function openPage(browser, url, { locale = 'en-US', width = 1280, height = 900 } = {}) {
  const context = await browser.newContext({ locale, viewport: { width, height } });
  const page = await context.newPage();
  page.errors = [];
  page.warnings = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') page.errors.push(msg.text());
    if (msg.type() === 'warning') page.warnings.push(msg.text());
  });
  page.on('pageerror', (err) => page.errors.push(String(err)));
  await page.goto(url);
  await page.waitForSelector('form.question, article.result');
  return page;
}

/** Saves a full-page screenshot as target/e2e-screenshots/NAME.png. */
export async function screenshot(page, name) {
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

/** Opens the app in `lang` at `width` px (a phone's height below 600 px) and goes to the
 * Simulate tab. */
export async function openSimulate(browser, url, lang = 'en', width = 1280) {
  const page = await openPage(browser, url, { locale: lang, width, height: width < 600 ? 844 : 900 });
  await page.click('.tabs button:nth-child(3)');
  await page.waitForSelector('section.simulate');
  return page;
}

/** Runs preset `scenario` / `variant` with seed 1 and waits for its charts; returns the
 * result's selector. */
export async function runPreset(page, scenario, variant) {
  await page.click(`.preset[data-scenario="${scenario}"]`);
  await page.check(`#variant-${variant}`);
  await page.fill('#seed', '1');
  await page.click('#sim-run');
  const sel = `.sim-result[data-scenario="${scenario}"][data-variant="${variant}"]`;
  await page.waitForSelector(`${sel} .sim-charts figure[data-chart="calls"]`, { timeout: 120_000 });
  return sel;
}

/** Answers the wizard's first two questions (not time-triggered, no result needed now) and
 * opens the job definition sheet. */
export async function openSheet(page) {
  for (const [q, v] of [['time-triggered', 'no'], ['needs-result-now', 'no']]) {
    await page.waitForSelector(`form.question[data-question="${q}"]`);
    await page.check(`#q-${q}-${v}`);
    await page.click('form.question button[type="submit"]');
  }
  await page.click('#open-sheet');
  await page.waitForSelector('section.sheet');
}

/**
 * Presses Run and then Cancel as soon as Cancel is enabled, inside the page, so the click
 * cannot lose a race against the end of a ~1 s run (Playwright's round trips can). Throws if
 * Cancel never became enabled.
 */
export async function runThenCancel(page) {
  await page.evaluate(async () => {
    document.querySelector('#sim-run').click();
    const cancel = () => document.querySelector('#sim-cancel');
    for (let i = 0; i < 200 && cancel().disabled; i++) await new Promise((r) => setTimeout(r, 0));
    if (cancel().disabled) throw new Error('Cancel never became enabled');
    cancel().click();
  });
}

/** Answers `question` with `value` ('yes' / 'no') on the wizard and submits. */
export async function answer(page, question, value) {
  await page.waitForSelector(`form.question[data-question="${question}"]`);
  await page.check(`#q-${question}-${value}`);
  await page.click('form.question button[type="submit"]');
}

/** Goes to the catalog through the bar above the tabs. */
export async function showCatalog(page) {
  await page.click('#bar-catalog');
  await page.waitForSelector('section.catalog');
}

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml',
};

/**
 * Serves dist/ from node on `host` (an ephemeral port), adding `headers` to every response
 * (e.g. `Access-Control-Allow-Origin: *`); `host` names the URL's host, so `localhost` and
 * `127.0.0.1` are two origins of one machine. Resolves { url, stop }.
 */
export async function serveDist({ host = '127.0.0.1', headers = {} } = {}) {
  const { createServer } = await import('node:http');
  const { readFile } = await import('node:fs/promises');
  const server = createServer(async (req, res) => {
    const file = decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/\/$/, '/index.html');
    const full = path.join(dist, path.normalize(file));
    if (!full.startsWith(dist + path.sep)) { res.writeHead(403).end(); return; }
    try {
      const body = await readFile(full);
      res.writeHead(200, { 'Content-Type': TYPES[path.extname(full)] ?? 'application/octet-stream', ...headers });
      res.end(body);
    } catch {
      res.writeHead(404, headers).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://${host}:${server.address().port}/`, stop: () => server.close() };
}

/**
 * Serves one page from node (an ephemeral port) whose HTML `page(url)` writes for each request
 * (`url` a URL object); `host` as in serveDist. Resolves { url, stop }.
 */
export async function serveHost(page, { host = 'localhost' } = {}) {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(page(new URL(req.url, 'http://x')));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://${host}:${server.address().port}/`, stop: () => server.close() };
}
