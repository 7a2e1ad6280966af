// The embed page (embed.html#share-v1:…) in a wiki-like host: the app's files are served on
// http://127.0.0.1:P1 and the host page on http://localhost:P2 (a second origin), which frames
// the embed page (a) without a sandbox, (b) with sandbox="allow-scripts allow-same-origin",
// (c) with sandbox="allow-scripts" while the app's server sends Access-Control-Allow-Origin: *
// (origin `null`: storage throws there), and (d) with sandbox="" (no scripts: the fallback
// text shows). The fragments are fixtures made from the example catalog file by
// tests/it/share_embed.rs (`embed_fixtures_are_current`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdirSync } from 'node:fs';
import { deflateSync, inflateSync } from 'node:zlib';
import path from 'node:path';
import { launch, serveDist, serveHost, shots, root } from './harness.mjs';

const fixtures = JSON.parse(readFileSync(path.join(root, 'tests', 'e2e', 'links', 'embed-fragments.json'), 'utf8'));
const HEIGHT_TYPE = 'modality-advisor:height';

let browser;
let app; // no CORS headers
let cors; // the same files with Access-Control-Allow-Origin: *
let host; // the wiki page, on another origin

/** The listener docs/HOSTING.md gives host pages, taken from that page itself
 * (the ```js block after "A host page that sizes frames to their content"). */
const README_LISTENER = (() => {
  const readme = readFileSync(path.join(root, 'docs', 'HOSTING.md'), 'utf8');
  const m = /sizes frames to their content:\s*```js\n([\s\S]*?)```/.exec(readme);
  if (!m) throw new Error('docs/HOSTING.md: no listener block after "sizes frames to their content:"');
  return m[1];
})();

/** The host page: a listener that keeps the frame's messages (checking `event.source`), then
 * the frame (800 px wide, 600 px high, as a wiki's iframe macro gives); with `listener=readme`
 * the frame carries the snippet's class and docs/HOSTING.md's listener runs after it. */
function hostPage(url) {
  const readme = url.searchParams.get('listener') === 'readme'
    ? `<script>${README_LISTENER}</script>` : '';
  const src = url.searchParams.get('src') ?? '';
  const sandbox = url.searchParams.get('sandbox');
  const width = url.searchParams.get('width') ?? '800';
  const attr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<!doctype html><html><head><meta charset="utf-8"><title>wiki</title></head><body>
<h1>Wiki page</h1>
<script>
window.heights = []; window.others = [];
addEventListener('message', (e) => {
  const frame = document.getElementById('embed');
  (frame && e.source === frame.contentWindow ? window.heights : window.others).push(e.data);
});
</script>
<iframe id="embed" class="modality-advisor-embed" title="embed" src="${attr(src)}" width="${attr(width)}" height="600"${sandbox === null ? '' : ` sandbox="${attr(sandbox)}"`}></iframe>
${readme}
</body></html>`;
}

before(async () => {
  app = await serveDist();
  cors = await serveDist({ headers: { 'Access-Control-Allow-Origin': '*' } });
  host = await serveHost(hostPage);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  app?.stop();
  cors?.stop();
  host?.stop();
});

/** Opens the host page framing `src` with `sandbox` (null: no attribute); resolves
 * { page, frame } once the frame has loaded. Console errors of every frame land in
 * `page.errors`. */
async function openHost(src, sandbox, { locale = 'en-US', width = 1280, frameWidth = '800', listener = '' } = {}) {
  const context = await browser.newContext({ locale, viewport: { width, height: 900 } });
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') page.errors.push(msg.text()); });
  page.on('pageerror', (err) => page.errors.push(String(err)));
  const q = new URLSearchParams({ src, width: frameWidth });
  if (sandbox !== null) q.set('sandbox', sandbox);
  if (listener) q.set('listener', listener);
  await page.goto(`${host.url}?${q}`);
  const handle = await page.waitForSelector('iframe#embed');
  const frame = await handle.contentFrame();
  await frame.waitForLoadState('load');
  return { page, frame };
}

async function shot(page, name) {
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

/** What a rendered frame must show and send: the outcome, the app link with the same
 * fragment, one kind of message with a plausible height, no console error. */
async function assertRendered(page, frame, origin, fx) {
  await frame.waitForSelector('#embed[data-state="shown"]', { timeout: 20_000 });
  const text = await frame.innerText('#embed');
  for (const title of fx.outcome_titles) assert.ok(text.includes(title), `the frame shows "${title}": ${text.slice(0, 300)}`);
  // The embed carries only the texts its card shows (`[embed]` in locales/modules.txt): a text it lacks would
  // show as its bare key, e.g. "sheet.field.trigger.item".
  const keys = text.match(/\b[a-z][a-z0-9-]*(\.[a-z0-9-]+){2,}\b/g) ?? [];
  assert.deepEqual(keys.filter((k) => !/^[a-z0-9-]+\.(com|org|example|html|json)/.test(k)), [], 'no bare text keys');
  assert.equal(await frame.getAttribute('html', 'lang'), fx.lang);
  // Links that leave the page (not the catalog's jumps to a process on the card).
  const links = await frame.$$eval('#embed a[href]:not([href^="#"])', (as) => as.map((a) => ({ href: a.href, target: a.target, rel: a.rel })));
  const open = links.find((l) => l.href === `${origin}#${fx.fragment}`);
  assert.ok(open, `a link to the app with the same fragment among ${JSON.stringify(links).slice(0, 300)}`);
  for (const l of links) {
    assert.equal(l.target, '_blank');
    assert.equal(l.rel, 'noopener');
  }
  await page.waitForFunction(() => window.heights.length > 0, null, { timeout: 10_000 });
  const heights = await page.evaluate(() => window.heights);
  const others = await page.evaluate(() => window.others);
  assert.deepEqual(others, [], 'no message from elsewhere');
  for (const m of heights) {
    assert.deepEqual(Object.keys(m).sort(), ['height', 'type'], 'only the height crosses the frame');
    assert.equal(m.type, HEIGHT_TYPE);
    // A plausible height, not a runaway one: the example catalog's seven processes with their
    // Load and capacity rows (schema 3) measure about 21,200 px at the narrowest frame.
    assert.ok(Number.isInteger(m.height) && m.height >= 150 && m.height <= 30_000, `height ${m.height}`);
  }
  // The last height is the content's: the frame's own document is that tall.
  const last = heights.at(-1).height;
  const own = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  assert.equal(last, own);
  assert.deepEqual(page.errors, [], 'no console errors');
  return last;
}

test('(a) framed without a sandbox, from another origin: the card, the app link, the height', async () => {
  const fx = fixtures.process_en;
  const { page, frame } = await openHost(`${app.url}embed.html#${fx.fragment}`, null);
  const h = await assertRendered(page, frame, app.url, fx);
  console.log(`embed height, process card (en) at 800 px: ${h} px (recommended ${fx.recommended_height})`);
  await shot(page, 'embed-host-none');
  await page.context().close();
});

test('the snippet\'s height holds every fixture in a 700 px frame without an inner scroll, and is not far taller', async () => {
  // 700 px: the narrowest content column of the usual wikis (Notion's default page), where
  // the card is tallest (domain::share::embed::recommended_height is calibrated there). The
  // share panel's snippet gave a process with a stated load section 3,980 px where it
  // measured 4,773.
  for (const [name, fx] of Object.entries(fixtures)) {
    if (!fx.fragment) continue;
    const { page, frame } = await openHost(`${app.url}embed.html#${fx.fragment}`, 'allow-scripts allow-same-origin', { frameWidth: '700' });
    await frame.waitForSelector('#embed[data-state="shown"]');
    const h = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    console.log(`embed height, ${name} at 700 px: ${h} px (recommended ${fx.recommended_height})`);
    assert.ok(h <= fx.recommended_height, `${name}: ${h} px of content in a ${fx.recommended_height} px frame`);
    // Not far taller than the English card (the height is one for both languages; the
    // Japanese runs 5–13 % shorter).
    if (fx.lang === 'en') assert.ok(fx.recommended_height <= h * 1.1 + 40, `${name}: ${fx.recommended_height} px recommended for ${h} px of content`);
    await page.context().close();
  }
});

test('(b) sandbox="allow-scripts allow-same-origin": renders, in Japanese from the link', async () => {
  const fx = fixtures.process_ja;
  const { page, frame } = await openHost(`${app.url}embed.html#${fx.fragment}`, 'allow-scripts allow-same-origin');
  const h = await assertRendered(page, frame, app.url, fx);
  console.log(`embed height, process card (ja) at 800 px: ${h} px (recommended ${fx.recommended_height})`);
  await page.context().close();
});

test('(c) sandbox="allow-scripts" with CORS: origin null, storage throws, it still renders', async () => {
  const fx = fixtures.catalog_en;
  const { page, frame } = await openHost(`${cors.url}embed.html#${fx.fragment}`, 'allow-scripts');
  assert.equal(await frame.evaluate(() => {
    try { return window.localStorage ? 'storage' : 'none'; } catch { return 'throws'; }
  }), 'throws');
  assert.equal(await frame.evaluate(() => origin), 'null');
  const h = await assertRendered(page, frame, cors.url, fx);
  for (const name of fx.names) assert.ok((await frame.innerText('#embed')).includes(name), name);
  console.log(`embed height, catalog of ${fx.names.length} (en) at 800 px: ${h} px (recommended ${fx.recommended_height})`);
  await shot(page, 'embed-host-scripts-only');
  await page.context().close();
});

test('the hosting page\'s listener sizes the frame to its content; at 640 px the catalog breaks no word', async () => {
  for (const [fx, frameWidth] of [[fixtures.process_en, '800'], [fixtures.catalog_en, '800'], [fixtures.catalog_en, '640']]) {
    const { page, frame } = await openHost(`${app.url}embed.html#${fx.fragment}`, 'allow-scripts allow-same-origin', { frameWidth, listener: 'readme' });
    await assertRendered(page, frame, app.url, fx);
    const where = `${fx.fragment.slice(0, 12)}… at ${frameWidth} px`;
    // After the last message the frame is as tall as its content: nothing scrolls inside it.
    await page.waitForFunction(() => {
      const last = window.heights.at(-1)?.height;
      return last && document.getElementById('embed').height === String(last);
    }, null, { timeout: 10_000 });
    const [attrH, boxH] = await page.evaluate(() => {
      const f = document.getElementById('embed');
      return [Number(f.height), f.clientHeight]; // inside the frame's border
    });
    const [content, scrollH, innerH] = await frame.evaluate(() => [
      Math.ceil(document.documentElement.getBoundingClientRect().height),
      document.scrollingElement.scrollHeight, innerHeight]);
    assert.equal(attrH, content, `${where}: the frame's height is its content's`);
    assert.equal(boxH, content, `${where}: the frame shows ${boxH} px of ${content}`);
    assert.ok(scrollH <= innerH, `${where}: nothing scrolls inside the frame (${scrollH} > ${innerH})`);
    // The fixed height of the snippet is chosen for the content (measured at 700 px, where
    // it is tallest): at 800 px within a quarter of it.
    if (frameWidth === '800') assert.ok(Math.abs(fx.recommended_height - content) <= content / 4,
      `${where}: recommended ${fx.recommended_height} px for ${content} px of content`);
    if (fx === fixtures.catalog_en) {
      // No word of the summary table is split across lines (a word of up to 20 characters:
      // longer tokens may have to break; hyphens and slashes are places to break).
      const broken = await frame.evaluate(() => {
        const out = [];
        // Stacked (below 800 px), the header row is hidden for the eye; the labels show instead.
        const walker = document.createTreeWalker(document.querySelector(innerWidth < 800 ? '.sc-index tbody' : '.sc-index'), NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          // A line may end after a hyphen or a slash ("2026-03-", "send-"), not inside a word.
          const re = /[^\s\-\/]{2,20}/g;
          for (let m = re.exec(n.data); m; m = re.exec(n.data)) {
            const r = document.createRange();
            r.setStart(n, m.index);
            r.setEnd(n, m.index + m[0].length);
            const tops = new Set([...r.getClientRects()].filter((b) => b.width > 0).map((b) => Math.round(b.top)));
            if (tops.size > 1) out.push(m[0]);
          }
        }
        return out;
      });
      assert.deepEqual(broken, [], `${where}: words split across lines in the catalog's summary`);
    }
    await page.context().close();
  }
});

/** Once the README listener applied the last height message: the frame's height, its
 * content's, and whether anything scrolls inside it. */
async function fitted(page, frame) {
  await page.waitForFunction(() => {
    const last = window.heights.at(-1)?.height;
    return last && document.getElementById('embed').height === String(last);
  }, null, { timeout: 10_000 });
  const box = await page.evaluate(() => document.getElementById('embed').clientHeight);
  const [content, scrollH, innerH] = await frame.evaluate(() => [
    Math.ceil(document.documentElement.getBoundingClientRect().height),
    document.scrollingElement.scrollHeight, innerHeight]);
  return { box, content, scrolls: scrollH > innerH };
}

test('at 800, 984 and a phone\'s 374 px the height message fits the frame; the snippet\'s fixed height fits at 800 and 984 px', async () => {
  for (const fx of [fixtures.process_en, fixtures.card_only_en, fixtures.undecided_en]) {
    for (const frameWidth of ['800', '984', '374']) {
      const { page, frame } = await openHost(`${app.url}embed.html#${fx.fragment}`, 'allow-scripts allow-same-origin', { frameWidth, listener: 'readme' });
      await assertRendered(page, frame, app.url, fx);
      await frame.evaluate(() => document.fonts.ready);
      const f = await fitted(page, frame);
      const where = `${fx.fragment.slice(0, 12)}… at ${frameWidth} px`;
      assert.equal(f.box, f.content, `${where}: the frame shows ${f.box} px of ${f.content}`);
      assert.equal(f.scrolls, false, `${where}: nothing scrolls inside the frame`);
      // Without a listener the snippet's fixed height holds the content at a wiki's usual
      // widths, with little blank below (it is calibrated at 700 px, where the card is
      // tallest: at 984 px a fifth more is blank).
      if (frameWidth !== '374') {
        const blank = frameWidth === '984' ? 1.25 : 1.2;
        assert.ok(fx.recommended_height >= f.content && fx.recommended_height <= f.content * blank,
          `${where}: the snippet's ${fx.recommended_height} px fits ${f.content} px of content`);
      }
      await page.context().close();
    }
  }
});

test('a bad link\'s message sizes the frame to itself through the height message', async () => {
  const { page, frame } = await openHost(`${app.url}embed.html#share-v1:broken`, 'allow-scripts allow-same-origin', { frameWidth: '984', listener: 'readme' });
  await frame.waitForSelector('.embed-error', { timeout: 20_000 });
  const f = await fitted(page, frame);
  assert.equal(f.box, f.content, `the frame shows ${f.box} px of ${f.content}`);
  assert.ok(f.content < 400, `the frame is as tall as the message (${f.content} px), no blank below`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('(d) sandbox="" (no scripts): the fallback text and the app link, not a blank box', async () => {
  const fx = fixtures.process_en;
  const { page, frame } = await openHost(`${app.url}embed.html#${fx.fragment}`, '');
  const text = await frame.innerText('body');
  assert.match(text, /shared from the advisor/);
  assert.match(text, /アプリで開いてください/);
  const box = await (await frame.$('.embed-fallback')).boundingBox();
  assert.ok(box && box.height > 60, 'the fallback takes room');
  assert.equal(await frame.getAttribute('#embed-open', 'target'), '_blank');
  // Styled by the stylesheet (a border), though no script ran.
  assert.notEqual(await frame.$eval('.embed-fallback', (e) => getComputedStyle(e).borderTopStyle), 'none');
  assert.equal(await frame.getAttribute('#embed', 'data-state'), null);
  await shot(page, 'embed-host-no-scripts');
  await page.context().close();
});

test('sandbox="allow-scripts" without CORS: the fallback says the host blocks the page and links to the app', async () => {
  const fx = fixtures.process_en;
  const { page, frame } = await openHost(`${app.url}embed.html#${fx.fragment}`, 'allow-scripts');
  await frame.waitForSelector('#embed-status:not([hidden])', { timeout: 15_000 });
  assert.match(await frame.innerText('#embed-status'), /Could not start here/);
  // The classic fallback script ran: the link carries the fragment.
  assert.equal(await frame.$eval('#embed-open', (a) => a.href), `${app.url}#${fx.fragment}`);
  await page.context().close();
});

test('a tampered or missing fragment shows the message and a link to the app', async () => {
  const fx = fixtures.process_en;
  const mid = Math.floor(fx.fragment.length / 2);
  const flipped = fx.fragment[mid] === 'A' ? 'B' : 'A';
  const tampered = fx.fragment.slice(0, mid) + flipped + fx.fragment.slice(mid + 1);
  for (const [locale, hash, pattern] of [
    ['en-US', tampered, /cut or changed/],
    ['ja-JP', tampered, /書き換えられています/],
    ['en-US', '', /does not hold a shared process/],
  ]) {
    const { page, frame } = await openHost(`${app.url}embed.html${hash ? `#${hash}` : ''}`, 'allow-scripts allow-same-origin', { locale });
    await frame.waitForSelector('.embed-error', { timeout: 20_000 });
    assert.match(await frame.innerText('.embed-error'), pattern);
    assert.equal(await frame.getAttribute('html', 'lang'), locale.slice(0, 2));
    assert.equal(await frame.$eval('.embed-error a', (a) => a.href), app.url);
    await page.waitForFunction(() => window.heights.length > 0, null, { timeout: 10_000 });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

/** `fragment` (a share link's) with its JSON changed by `edit`, packed as the app packs it
 * (`share-v1:` + base64url(zlib(JSON))). */
function repacked(fragment, edit) {
  const prefix = 'share-v1:';
  assert.ok(fragment.startsWith(prefix), 'a v1 fragment');
  const json = JSON.parse(inflateSync(Buffer.from(fragment.slice(prefix.length), 'base64url')).toString('utf8'));
  edit(json);
  return prefix + deflateSync(Buffer.from(JSON.stringify(json)), { level: 9 }).toString('base64url');
}

test('a link whose sheet does not check out says why in words, in both languages, never a key', async () => {
  // The reason comes from the sheet's checks (`import.range`); the embed page carried none
  // of their texts and showed the bare key.
  for (const [fx, locale, words] of [
    [fixtures.process_en, 'en-US', /out of range; allowed/],
    [fixtures.process_ja, 'ja-JP', /範囲外です/],
  ]) {
    const broken = repacked(fx.fragment, (share) => {
      const sheet = share.content?.process?.sheet;
      assert.ok(sheet?.retry, `the fixture has a sheet with retries: ${Object.keys(share)}`);
      sheet.retry.max_attempts = 0;
    });
    const { page, frame } = await openHost(`${app.url}embed.html#${broken}`, 'allow-scripts allow-same-origin', { locale });
    await frame.waitForSelector('.embed-error', { timeout: 20_000 });
    const said = await frame.innerText('.embed-error');
    assert.match(said, words);
    assert.doesNotMatch(said, /\bimport\.[a-z-]+/, 'no bare key');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('alone: no request to another origin, no storage, and a new fragment renders again', async () => {
  const context = await browser.newContext({ locale: 'en-US' });
  // Count every touch of web storage in every frame.
  await context.addInitScript(() => {
    window.__storage = 0;
    for (const name of ['localStorage', 'sessionStorage']) {
      const d = Object.getOwnPropertyDescriptor(window, name);
      Object.defineProperty(window, name, { configurable: true, get() { window.__storage++; return d.get.call(window); } });
    }
  });
  const page = await context.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  await page.goto(`${app.url}embed.html#${fixtures.process_en.fragment}`);
  await page.waitForSelector('#embed[data-state="shown"]');
  await page.evaluate((f) => { location.hash = f; }, fixtures.catalog_ja.fragment);
  await page.waitForFunction(() => document.documentElement.lang === 'ja');
  const text = await page.innerText('#embed');
  for (const name of fixtures.catalog_ja.names) assert.ok(text.includes(name), name);
  assert.equal(await page.evaluate(() => window.__storage), 0, 'the embed page never touches storage');
  assert.equal(await page.$$eval('form', (f) => f.length), 0, 'no forms');
  const foreign = requests.filter((u) => !u.startsWith(app.url) && !u.startsWith('data:'));
  assert.deepEqual(foreign, [], 'no request to another origin');
  assert.deepEqual(errors, []);
  await context.close();
});

test('screenshots: the embed in a frame at 1280 and 390 px, English and Japanese', async () => {
  for (const [width, frameWidth] of [[1280, '800'], [390, '100%']]) {
    for (const fx of [fixtures.process_en, fixtures.process_ja, fixtures.catalog_ja]) {
      const { page, frame } = await openHost(`${app.url}embed.html#${fx.fragment}`, 'allow-scripts allow-same-origin', { width, frameWidth });
      await frame.waitForSelector('#embed[data-state="shown"]');
      // Size the frame from the message, as an auto-sizing host would.
      await page.waitForFunction(() => window.heights.length > 0);
      await page.evaluate(() => { document.getElementById('embed').height = String(window.heights.at(-1).height); });
      // A viewport as tall as the page, so the frame is painted to its end.
      const tall = await page.evaluate(() => Math.ceil(document.documentElement.scrollHeight));
      await page.setViewportSize({ width, height: Math.min(tall, 16_000) });
      await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const kind = fx.names.length > 1 ? 'catalog' : 'process';
      await shot(page, `embed-${kind}-${fx.lang}-${width}`);
      await page.context().close();
    }
  }
});
