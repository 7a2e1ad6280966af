// Hostile text through the user's path in real Chromium: every payload of the shared corpus
// (tests/vectors/hostile-text.json, also read by tests/it/sheet_hostile.rs) is typed as a process
// name in the catalog and into every text field of its sheet (and a number field), then carried
// to every screen and export: the sheet, its print view, a target's configuration panel, the
// sheet's Markdown / TSV / CSV / JSON downloads and copy, the JSON imported back, the catalog
// (its name too) and its exports, the share panel's links and copies, the embed page opened
// from the embed code, and the simulator's text input. Asserted throughout: no dialog, no
// console error, no uncaught error, no CSP violation, no element or attribute made from the
// text, the text shown back as text, and no sideways scrolling at 1280 and 390 px.
// Payloads go in batches, one page (and one catalog) per batch.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { serve, launch, answer, showCatalog, root } from './harness.mjs';

const corpus = JSON.parse(readFileSync(path.join(root, 'tests', 'vectors', 'hostile-text.json'), 'utf8'))
  .payloads.map((p) => ({
    ...p,
    text: p.text_utf16 ? String.fromCharCode(...p.text_utf16) : p.text.repeat(p.repeat ?? 1),
  }));
const BATCH = 9;

let server;
let browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.stop(); });

/** Runs in every page and frame before the app: records CSP violations and any element or
 * attribute that user text could have made (inline handlers, `javascript:` URLs, frames,
 * inline scripts, `<img src=x>`, `<base>`, `<meta>`, `<style>`, `<object>`, `<embed>`). */
function watch() {
  const seen = { csp: [], markup: [] };
  window.__hostile = seen;
  document.addEventListener('securitypolicyviolation', (e) => {
    seen.csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`);
  }, true);
  const bad = (el) => {
    const tag = el.tagName.toUpperCase();
    if (['IFRAME', 'BASE', 'META', 'STYLE', 'OBJECT', 'EMBED', 'MGLYPH', 'DETAILS'].includes(tag)) return tag;
    if (tag === 'SCRIPT' && !el.hasAttribute('src')) return 'inline script';
    if (tag === 'IMG' && /^x$|\/x$/.test(el.getAttribute('src') ?? '')) return 'img src=x';
    for (const a of el.attributes) {
      if (/^on/i.test(a.name)) return `${tag} ${a.name}`;
      if (/^\s*javascript:/i.test(a.value) && /^(href|src|action|formaction|xlink:href)$/i.test(a.name)) return `${tag} ${a.name}=${a.value}`;
    }
    return null;
  };
  const check = (node, deep) => {
    if (node.nodeType !== 1) return;
    for (const el of deep ? [node, ...node.querySelectorAll('*')] : [node]) {
      const why = bad(el);
      if (why) seen.markup.push(`${why}: ${el.outerHTML.slice(0, 120)}`);
    }
  };
  // From the end of parsing: the page's own markup is in; what comes later is the app's.
  document.addEventListener('DOMContentLoaded', () => {
    new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === 'attributes') check(r.target, false);
        for (const n of r.addedNodes) check(n, true);
      }
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
}

/** A context with the watch, clipboard access and download capture; `page.problems` collects
 * dialogs, console errors and uncaught errors of every page of the context. */
async function openContext(locale) {
  const context = await browser.newContext({ locale, viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await context.addInitScript(watch);
  const problems = [];
  const follow = (page) => {
    page.on('dialog', (d) => { problems.push(`dialog ${d.type()}: ${d.message()}`); d.dismiss().catch(() => {}); });
    page.on('console', (m) => {
      if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`uncaught: ${e}`));
  };
  context.on('page', follow);
  const page = await context.newPage();
  return { context, page, problems };
}

/** Notes in `found` what went wrong in `page` since the last look: a dialog, console error or
 * uncaught error in the context, a CSP violation, an element or attribute made from text. */
async function clean(page, problems, where) {
  const seen = await page.evaluate(() => {
    const s = { ...window.__hostile };
    const now = document.querySelectorAll('img[src="x"], iframe, script:not([src]), base, object, embed, [onerror], [onload]');
    s.markup = [...s.markup, ...[...now].map((e) => `present: ${e.outerHTML.slice(0, 120)}`)];
    window.__hostile.csp = [];
    window.__hostile.markup = [];
    return s;
  });
  for (const p of problems.splice(0)) found.push(`${where}: ${p}`);
  for (const c of seen.csp) found.push(`${where}: CSP violation ${c}`);
  for (const m of seen.markup) found.push(`${where}: element made from text: ${m}`);
}

/** What `clean` and `fits` found in this batch: a batch goes on to its end and then fails
 * naming all of it. */
let found = [];

/** Seconds spent per step, printed after each batch when HOSTILE_TIMES is set. */
const times = {};
let last = Date.now();
function lap(step) {
  const now = Date.now();
  times[step] = (times[step] ?? 0) + (now - last) / 1000;
  last = now;
}

/** Notes in `found` if the page scrolls sideways at 390 or 1280 px (it ends at 1280). */
async function fits(page, where) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    const m = await page.evaluate(() => {
      const client = document.documentElement.clientWidth;
      // The innermost element sticking out, to name in a failure.
      const out = [...document.body.querySelectorAll('*')].filter((e) => e.getBoundingClientRect().right > client + 1
        && ![...e.children].some((c) => c.getBoundingClientRect().right > client + 1));
      const name = (e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.className && typeof e.className === 'string' ? `.${e.className.trim().split(/\s+/).join('.')}` : ''}`;
      return { scroll: document.documentElement.scrollWidth, client, out: out.slice(0, 3).map((e) => `${name(e.parentElement)} > ${name(e)}`) };
    });
    if (m.scroll > m.client) found.push(`${where} at ${width} px: scrollWidth ${m.scroll} > clientWidth ${m.client}: ${m.out.join('; ')}`);
  }
}

/** Bidi controls are shown or stripped in exports (issue 17); comparisons ignore them. */
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;
/** A control character no document holds raw: C0 but tab, LF and CR; DEL; C1. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
/** A bidi or other control as the exports show it (`<U+202E>`, `<U+0007>`, in Markdown
 * `&lt;U+202E&gt;`: src/domain/bidi.rs), so an export's text compares with what was typed, less
 * the control. */
const SHOWN_BIDI = /(?:<|&lt;)U\+(?:202[A-E]|206[6-9]|200[EF]|061C|00[01][0-9A-F]|007F|008[0-9A-F]|009[0-9A-F])(?:>|&gt;)/gi;
const plain = (s) => s.replace(BIDI, '').replace(CONTROL, '').replace(SHOWN_BIDI, '');
/** What of `text` a reader must find back in the page: its longest line, trimmed. */
const probe = (text) => plain(text).split(/[\r\n\u2028\u2029\u0085]+/).map((l) => l.trim())
  .reduce((a, b) => (b.length > a.length ? b : a), '');
/** The page's text, whitespace as typed (textContent, not layout). */
const textOf = (page, sel) => page.$$eval(sel, (els) => els.map((e) => e.textContent).join('\n'));

/** An RFC 4180 reader: rows of cells; `sep` ',' or '\t'; a BOM is dropped. */
function parseDelimited(text, sep) {
  const rows = [];
  let row = [];
  let cell = '';
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let quoted = false;
  for (; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i++; } else if (c === '"') quoted = false; else cell += c;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === sep) { row.push(cell); cell = ''; }
    else if (c === '\r' && text[i + 1] === '\n') { /* the \n ends the row */ }
    else if (c === '\n') { row.push(cell); rows.push(row); row = []; cell = ''; }
    else cell += c;
  }
  assert.equal(quoted, false, 'every quoted cell is closed');
  if (cell !== '' || row.length) { row.push(cell); rows.push(row); }
  return rows;
}

/** Scrolls `sel` to the middle of the window: at the top, the sticky bar would cover it and
 * a click would wait for it to come free. */
const centre = (page, sel) => page.$eval(sel, (e) => e.scrollIntoView({ block: 'center' }));

/** Downloads the sheet in `format`; resolves its text. */
async function download(page, sel) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(sel)]);
  return readFileSync(await d.path(), 'utf8');
}

/** The clipboard's text once it differs from `before` (copies are written asynchronously). */
async function clipboardAfter(page, before) {
  for (let i = 0; i < 100; i++) {
    const now = await page.evaluate(() => navigator.clipboard.readText());
    if (now !== before) return now;
    await page.waitForTimeout(30);
  }
  throw new Error('the clipboard did not change');
}

/** Markup a payload could carry, found in an export that is not HTML. */
const TAGS = /<\/?(img|svg|iframe|script|style|math|mglyph|base|meta|details|summary|textarea|title|b)\b/i;

/** The sheet's free-text controls: not the number boxes (`inputmode`), nor the duration boxes
 * beside their unit select (`.with-unit`: they take text such as "2 s", but only durations). */
const TEXT_FIELDS = 'section.sheet input[type="text"]:not([inputmode]):not([readonly]):not(.with-unit > input), section.sheet textarea';

/** What a field keeps of `value`: a list (a textarea) keeps its lines trimmed, blank lines
 * dropped; a text box all of it. */
const kept = (value, list) => (list ? value.split('\n').map((l) => l.trim()).filter(Boolean).join('\n') : value);

/** Types `text` into every text field of the open sheet (and a number field); returns the
 * values the fields hold (as the browser keeps them: one-line boxes drop line breaks). */
async function fillSheet(page, text) {
  const fields = await page.$$eval(TEXT_FIELDS, (els) => els.map((e) => [e.id, e.tagName === 'TEXTAREA']));
  assert.ok(fields.length >= 8, `the sheet's text fields: ${fields}`);
  const values = {};
  for (const [id, list] of fields) {
    await page.fill(`#${id}`, text);
    values[id] = kept(await page.inputValue(`#${id}`), list);
  }
  // A number field refuses the text with a message, and keeps its value.
  await page.fill('#max-attempts', text.slice(0, 200));
  await page.waitForSelector('[data-field="max-attempts"] .error');
  await page.fill('#max-attempts', '5');
  return values;
}

/** One payload through its sheet: every field, the print view, a target's panel, the four
 * downloads, the Markdown copy and the JSON imported back. */
async function throughSheet(page, problems, p, index) {
  const where = `${p.name} (${p.category})`;
  const values = await fillSheet(page, p.text);
  // Every field still holds what was typed after the app re-rendered.
  const now = async (id) => kept(await page.inputValue(`#${id}`), await page.$eval(`#${id}`, (e) => e.tagName === 'TEXTAREA'));
  for (const [id, v] of Object.entries(values)) {
    assert.equal(await now(id), v, `${where}: #${id} keeps the text`);
  }
  await clean(page, problems, `${where}: sheet`);
  lap('fill');
  await fits(page, `${where}: sheet`);
  lap('fits');

  // Print view: the text as text.
  await page.emulateMedia({ media: 'print' });
  const printed = plain(await textOf(page, '.print-only'));
  const want = probe(values['trigger'] ?? p.text);
  if (want) assert.ok(printed.includes(want), `${where}: the print view shows the text`);
  await fits(page, `${where}: print`);
  await page.emulateMedia({ media: 'screen' });
  lap('print');

  // A target's configuration panel (a different target for each payload).
  const targets = await page.$$eval('#target-choose option', (os) => os.map((o) => o.value).filter(Boolean));
  const target = targets[index % targets.length];
  await page.selectOption('#target-choose', target);
  await page.waitForSelector(`#target-panel .target-body[data-target="${target}"]`, { timeout: 60_000 });
  await clean(page, problems, `${where}: ${target} panel`);
  await fits(page, `${where}: ${target} panel`);
  lap('target');

  // Downloads.
  const files = {};
  for (const f of ['markdown', 'tsv', 'csv', 'json']) {
    files[f] = await download(page, `[data-format="${f}"] [data-action="download"]`);
  }
  lap('downloads');
  // Every downloaded document shows a bidi control visibly instead of holding it raw.
  for (const [f, text] of Object.entries(files)) {
    assert.doesNotMatch(text, new RegExp(BIDI.source), `${where}: the ${f} download holds no raw bidi control`);
    assert.doesNotMatch(text, new RegExp(CONTROL.source), `${where}: the ${f} download holds no raw control character`);
  }
  const md = files.markdown;
  assert.doesNotMatch(md, TAGS, `${where}: no markup in the Markdown`);
  const table = md.split('\n').filter((l) => l.startsWith('| '));
  const cells = (l) => l.replace(/\\\\/g, '').replace(/\\\|/g, '').split('|').length;
  assert.ok(table.length > 5 && table.every((l) => cells(l) === cells(table[0])), `${where}: every Markdown row keeps its columns`);
  const guard = (s) => (/^[=+\-@]/.test(s) ? `'${s}` : s);
  for (const [f, sep] of [['csv', ','], ['tsv', '\t']]) {
    const rows = parseDelimited(files[f], sep);
    assert.ok(rows.every((r) => r.length === 3), `${where}: every ${f} row has three cells`);
    // Exports write each text trimmed (src/domain/sheet/fields.rs), a formula starter after a '.
    const all = rows.flat().map(plain);
    for (const id of ['trigger', 'idempotency-key']) {
      const v = plain(values[id] ?? '').trim();
      if (v) assert.ok(all.includes(guard(v)), `${where}: ${f} holds #${id} whole: ${JSON.stringify(v.slice(0, 80))}`);
    }
    for (const [id, value] of Object.entries(values)) {
      for (const line of plain(value).split('\n').map((l) => l.trim()).filter(Boolean)) {
        assert.ok(all.some((c) => c.includes(line)), `${where}: ${f} holds #${id}: ${JSON.stringify(line.slice(0, 80))}`);
      }
    }
  }
  const json = JSON.parse(files.json);
  assert.equal(plain(json.process.code_name), plain(values['code-name']), `${where}: the JSON holds the code name`);
  // Copy Markdown: the same text as the file.
  const before = await page.evaluate(() => navigator.clipboard.readText().catch(() => ''));
  await page.click('[data-format="markdown"] [data-action="copy"]');
  assert.equal(await clipboardAfter(page, before === md ? `${before}-` : before), md, `${where}: the Markdown copy is the file`);
  // The JSON imports back: every field as it was, and the same file again.
  await page.setInputFiles('#import-json', { name: 'back.json', mimeType: 'application/json', buffer: Buffer.from(files.json) });
  await page.waitForSelector('[data-notice="info"]');
  await page.click('[data-notice] button');
  for (const [id, v] of Object.entries(values)) {
    assert.equal(plain(await now(id)), plain(v), `${where}: #${id} after the import`);
  }
  assert.equal(await download(page, '[data-format="json"] [data-action="download"]'), files.json, `${where}: the JSON re-imports equal`);
  await clean(page, problems, `${where}: exports`);
  lap('import');
}

/** Adds a process named `text` from the catalog, decides it (a queued job) and opens its
 * sheet; returns the name as the field held it. */
async function addProcess(page, text) {
  await showCatalog(page);
  await page.fill('#add-name', text);
  const name = await page.inputValue('#add-name');
  await page.click('#add-process');
  await answer(page, 'time-triggered', 'no');
  await answer(page, 'needs-result-now', 'no');
  await page.click('#open-sheet');
  await page.waitForSelector('section.sheet');
  lap('add');
  return name;
}

/** The share panel of what is open (the process, or the catalog on its screen): every copy,
 * the cards' texts free of markup, the SVG card inert, and the embed page opened from the embed
 * code's address showing `names` as text. */
async function throughShare(context, page, problems, where, names) {
  // The share panel: every copy, the cards' texts free of markup. HTML and SVG are parsed in
  // a blank page: parsing in the app's page would count against its CSP.
  const scratch = await context.newPage();
  // The app's page stays in front: a page behind another gets no animation frames, and each
  // click would wait for one.
  await page.bringToFront();
  await page.click('#share-open');
  await page.waitForSelector('#share-panel #share-link');
  await clean(page, problems, `${where}: share panel`);
  await fits(page, `${where}: share panel`);
  let clip = await page.evaluate(() => navigator.clipboard.readText().catch(() => ''));
  const copies = await page.$$eval('#share-panel [data-share-copy]', (bs) => bs.map((b) => b.dataset.shareCopy));
  let embed = '';
  for (const key of copies) {
    await page.evaluate(() => navigator.clipboard.writeText('-'));
    await centre(page, `#share-panel [data-share-copy="${key}"]`);
    await page.click(`#share-panel [data-share-copy="${key}"]`);
    clip = await clipboardAfter(page, '-');
    assert.doesNotMatch(clip, new RegExp(CONTROL.source), `${where}: the ${key} copy holds no raw control character`);
    if (key === 'embed') embed = clip;
    else if (key === 'rich') {
      const html = await page.evaluate(async () => {
        const [item] = await navigator.clipboard.read();
        return item.types.includes('text/html') ? (await item.getType('text/html')).text() : '';
      });
      assert.doesNotMatch(html, new RegExp(CONTROL.source), `${where}: the rich copy holds no raw control character`);
      const made = await scratch.evaluate((h) => {
        const doc = new DOMParser().parseFromString(h, 'text/html');
        return [...doc.querySelectorAll('*')].filter((e) => ['IMG', 'IFRAME', 'SCRIPT', 'SVG', 'STYLE', 'MATH', 'BASE', 'META'].includes(e.tagName.toUpperCase())
          || [...e.attributes].some((a) => /^on/i.test(a.name) || /^\s*javascript:/i.test(a.value))).map((e) => e.outerHTML.slice(0, 80));
      }, html);
      assert.deepEqual(made, [], `${where}: the rich copy makes no element from text`);
    } else if (key !== 'link' && key !== 'short') {
      assert.doesNotMatch(clip, TAGS, `${where}: no markup in the ${key} copy`);
    }
  }
  assert.match(embed, /^<iframe [^>]*src="([^"]*)"/, `${where}: the embed code`);
  const src = /src="([^"]*)"/.exec(embed)[1].replace(/&amp;/g, '&');
  const svgButton = await page.$('#share-panel [data-share-download="svg"]');
  if (svgButton) {
    await centre(page, '#share-panel [data-share-download="svg"]');
    const svg = await download(page, '#share-panel [data-share-download="svg"]');
    assert.doesNotMatch(svg, new RegExp(CONTROL.source), `${where}: the SVG card holds no raw control character`);
    const bad = await scratch.evaluate((s) => {
      const doc = new DOMParser().parseFromString(s, 'image/svg+xml');
      if (doc.querySelector('parsererror')) return ['not well-formed'];
      return [...doc.querySelectorAll('*')].filter((e) => /^(script|foreignObject|iframe|img)$/i.test(e.localName)
        || [...e.attributes].some((a) => /^on/i.test(a.name) || /^\s*javascript:/i.test(a.value))).map((e) => e.localName);
    }, svg);
    assert.deepEqual(bad, [], `${where}: the SVG card is inert`);
  }
  await scratch.close();
  await page.click('#share-close');
  await clean(page, problems, `${where}: share copies`);

  lap('share');
  // The embed page, opened from the embed code's address.
  const view = await context.newPage();
  await view.goto(new URL(src, server.url).href);
  await view.waitForSelector('#embed[data-state="shown"]', { timeout: 30_000 });
  // The card shows a control character as `<U+0007>` (src/domain/plot.rs `escape`), which
  // `plain` takes out of both sides.
  const seenText = plain(await view.evaluate(() => document.body.textContent));
  for (const n of names) {
    const p = probe(n).slice(0, 40);
    if (p) assert.ok(seenText.includes(p), `${where}: the embed page shows ${JSON.stringify(p)} as text`);
  }
  await clean(view, problems, `${where}: embed page`);
  await fits(view, `${where}: embed page`);
  await view.close();
  await page.bringToFront();

  lap('embed');
}

/** The batch's catalog: its name, the rows as text, its exports, the share panel with every
 * copy, the embed page from the embed code, and the simulator's seed. */
async function throughCatalog(context, page, problems, batch, names) {
  const where = `catalog of ${batch.map((p) => p.name).join(', ')}`;
  await showCatalog(page);
  await page.fill('#catalog-name', batch[0].text);
  await page.press('#catalog-name', 'Enter');
  const shown = (await page.$$eval('#catalog-table tbody .proc-name', (els) => els.map((e) => e.textContent))).map(plain);
  for (const n of names) {
    const p = probe(n);
    if (p) assert.ok(shown.some((s) => s.includes(p)), `${where}: the row shows ${JSON.stringify(p.slice(0, 60))} as text`);
  }
  // Rename in place: the first row takes the batch's second text.
  const renamed = batch[1 % batch.length].text;
  await page.click('#catalog-table tbody tr:nth-child(1) [data-action="rename"]');
  await page.fill('.rename-input', renamed);
  const kept = await page.inputValue('.rename-input');
  await page.keyboard.press('Enter');
  await page.waitForSelector('.rename-input', { state: 'detached' });
  const first = plain(await page.textContent('#catalog-table tbody tr:nth-child(1) .proc-name'));
  if (probe(kept)) assert.ok(first.includes(probe(kept)), `${where}: the renamed row shows the text`);
  names[0] = kept;
  await clean(page, problems, `${where}: catalog`);
  await fits(page, `${where}: catalog`);
  lap('catalog');
  // The catalog's own exports.
  const formats = await page.$$eval('.catalog-io [data-format], section.catalog [data-format]', (els) => [...new Set(els.map((e) => e.dataset.format))]);
  for (const f of formats) {
    const text = await download(page, `section.catalog [data-format="${f}"] [data-action="download"]`);
    if (f === 'json') JSON.parse(text);
    if (f === 'csv' || f === 'tsv') {
      const all = parseDelimited(text, f === 'csv' ? ',' : '\t').flat().map(plain);
      // Names are written trimmed, a formula starter after a '.
      for (const n of names.map((n) => plain(n).trim()).filter((n) => n && !/[\r\n]/.test(n))) {
        assert.ok(all.some((c) => c === n || c === `'${n}` || c.includes(n)), `${where}: ${f} holds ${JSON.stringify(n.slice(0, 60))} whole`);
      }
    }
    if (f === 'markdown') assert.doesNotMatch(text, TAGS, `${where}: no markup in the catalog's Markdown`);
  }
  lap('catalog exports');
  await throughShare(context, page, problems, where, names);

  // The simulator's text input (the seed) refuses the text without harm. The catalog screen
  // shows no process steps: open the first process to reach them.
  await page.click('#catalog-table tbody tr:nth-child(1) .proc-name');
  await page.click('.tabs button:nth-child(3)');
  await page.waitForSelector('section.simulate');
  await page.fill('#seed', batch[batch.length - 1].text.slice(0, 200));
  await clean(page, problems, `${where}: simulator`);
  await fits(page, `${where}: simulator`);
  lap('simulator');
}

for (let start = 0; start < corpus.length; start += BATCH) {
  const batch = corpus.slice(start, start + BATCH);
  const lang = (start / BATCH) % 2 ? 'ja' : 'en';
  test(`hostile text ${start + 1}–${start + batch.length} of ${corpus.length} (${lang}): ${batch.map((p) => p.name).join(', ')}`, async () => {
    found = [];
    const { context, page, problems } = await openContext(lang);
    await page.goto(server.url);
    await page.waitForSelector('form.question, article.result');
    const names = [];
    lap('open');
    try {
      for (const [i, p] of batch.entries()) {
        names.push(await addProcess(page, p.text));
        const bar = plain(await page.textContent('#bar-process'));
        const want = probe(names[names.length - 1]);
        if (want) assert.ok(bar.includes(want.slice(0, 60)), `${p.name}: the bar names the process as text`);
        await throughSheet(page, problems, p, start + i);
      }
      await throughShare(context, page, problems, `${batch.at(-1).name}: process share`, names.slice(-1));
      await throughCatalog(context, page, problems, batch, names);
      await clean(page, problems, 'the end');
    } catch (e) {
      // A step that failed outright: say what else was found before it.
      if (found.length) e.message += `\nfound before: ${found.join('\n')}`;
      throw e;
    } finally {
      await context.close();
    }
    if (process.env.HOSTILE_TIMES) console.log(Object.entries(times).map(([k, v]) => `${k} ${v.toFixed(1)} s`).join(', '));
    assert.deepEqual(found, [], 'no dialog, console error, uncaught error, CSP violation, element made from text or sideways scrolling');
  });
}

test('the corpus has at least 50 payloads, each named and of a kind', () => {
  assert.ok(corpus.length >= 50, `${corpus.length} payloads`);
  const names = new Set(corpus.map((p) => p.name));
  assert.equal(names.size, corpus.length, 'names are unique');
  for (const p of corpus) assert.ok(p.name && p.category && p.text.length > 0, JSON.stringify(p).slice(0, 80));
  for (const kind of ['html', 'markdown', 'csv', 'bidi', 'unicode', 'long', 'control', 'sql', 'config']) {
    assert.ok(corpus.some((p) => p.category === kind), kind);
  }
});
