// Size budgets, brotli-compressed (quality 11), printed for docs/PERFORMANCE.md:
// - the first load (what index.html fetches before anyone simulates or exports: the page's
//   wasm, its JS glue, the boot script and the CSS) must stay under 350 KB: ≈ 327.6 KB on
//   2026-12-02 (347.4 KB before the texts became one table per build with a shared lookup,
//   src/text.rs, and the sheet's rules moved to sheet.css);
// - each module loaded on demand has its own budget, ~15 % above its measured size (docs/
//   PERFORMANCE.md), so growth is a decision rather than an accident: the simulation worker
//   (fetched on the first run) and the export worker (the exporters, the file readers and
//   the share renderers — links, cards, the share panel — fetched on the first copy,
//   download, import or share: 248 KB measured on 2026-12-02, budget 285 KB);
// - the embed page (embed.html, for wiki iframes) has its own budget of 155 KB (150 until the
//   sheet's schema 2 — polynomial backoff, retry layers, retention, their checks and texts —
//   brought it to 151.5 KB measured on 2026-12-02): everything it
//   loads (its wasm, JS glue, boot and fallback scripts, stylesheets). Files only the embed
//   page loads do not count towards the app's first load.
//
// (History, kept for the record: both are back under their limits since issue 28.)
// OVER THE PRODUCT'S LIMIT, said plainly: issue 25 (the sheet's Load and capacity section —
// 21 inputs with their texts in both languages, schema 3's reader and checks —, the capacity
// panel and its worker protocol, the load findings, the wizard's numbers in the sheet) took
// the first load from 341.1 KB to 375.1 KB and the embed page from 151.9 KB to 156.7 KB
// (measured 2026-12-03). The budgets below are raised to those figures plus a little room so
// the suite tells the next change apart, NOT because 380 KB is acceptable: the limit stays
// 350 KB (DEVELOPERS.md) and issue 28 ("the house after the new rooms": one worker for
// documents, texts per module, the page's import readers out of the first load) must bring
// both back under 350 KB and 155 KB and put these two constants back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { dist } from './harness.mjs';

// Issue 26 item 7 (the system picture) added 8.0 KB to the first load (375.1 → 383.1 KB,
// measured 2026-12-03) and issue 26 as merged took it to 394.0 KB, 44 KB over the limit.
// Back under it since the simulator screen and the sheet's capacity panel became a module of
// their own (`sim-ui`, src/bin/sim-ui.rs), fetched when Simulate or a sheet is first shown,
// with the simulator's texts (`locales/simulator/`): the budget is the limit again.
const FIRST_LOAD_BUDGET = 350 * 1024;
const FIRST_LOAD_LIMIT = 350 * 1024;
// Issue 26 (the batch's time zone: the list of the IANA database's ~600 names the checks read,
// about 3 KB brotli, and its texts) took the first load from 375.1 KB to 378.8 KB, the embed
// page (whose card counts the same findings) from 156.7 KB to 161.0 KB and the export worker
// from 280.7 KB to 285.3 KB (measured 2026-12-03); the zone database itself is in none of
// them. The embed's and the export worker's budgets move by what that measured, no more.
// Back to the limit (issue 28, measured 2026-12-03): 167.6 → 155.0 KB (158,672 B of 158,720)
// once the embed page links to the app with the fragment it was given instead of encoding
// the share again (no deflate, no serialisers for the model: −12.5 KB) and left out the
// page's messages about its workers (page/sheet-export.yml).
// 22 bytes over after issue 27's last items (158,742 B); back under on 2026-12-03 (158,581 B
// measured after that session's changes; likely Timing's own reader, which reads an object
// only where serde's derived one also read lists — not measured alone).
const EMBED_BUDGET = 155 * 1024;
/**
 * Everything dist/ serves (the first load, every module loaded on demand, the embed page's own
 * files), brotli. The goal (issue 28) is 800 KB; measured 2026-12-03 after one document
 * worker and the embed page's cut: 1,533.8 KB (≈ 1,719 KB before: the size test's 1,550.5 KB
 * plus the embed page's own files, 168.5 KB). NOT reached: the budget is the measured figure plus a little room so
 * growth is seen; what is left is in docs/PERFORMANCE.md ("What the whole is made of").
 * Issue 27's last items (the document worker +19 KB, see its budget) took it to 1,554.9 KB.
 * The audit's record kept with the process (2026-12-04: the page +2.3 KB, the document worker
 * +7.2 KB, the simulator module +0.8 KB; docs/PERFORMANCE.md) took it from 1,559.2 KB to
 * 1,569.7 KB measured on this machine: 0.3 KB of room left, so the next addition is a decision.
 * 2026-12-04, the sizing answer used in the sheet and the audit's notes named by rule titles
 * paid for by texts each module does not show (locales/modules.txt): 1,568.9 KB.
 * 2026-12-04, the simulation worker merged into the simulator module (the same wasm started in
 * a worker by sim-worker-start.js; its own copy of std, serde, the domain and texts gone):
 * 1,512.1 KB; then each time zone kept as its current rule (src/domain/sheet/zone_rules.rs)
 * instead of jiff's whole bundled database: 1,485.4 KB. The same evening, each model type's
 * JSON reader and writer compiled once per module (src/domain/json.rs: the document worker
 * read the model four ways and wrote it three): 1,442.6 KB; the document worker without the
 * texts of code it never links: 1,424.8 KB. That night, +5.3 KB for errors said in plain
 * words in both languages (JSON and YAML syntax in the page's imports and the audit), the
 * audit mark and labels: 1,430.1 KB — the budget moved by 3 KB for those texts, the goal not.
 * 2026-12-05: the capacity answer's fixes (the counts considered follow the load — it said no
 * count keeps up where 571 do —, the runs' refusals by the field's label, ρ instead of
 * "841 %", a count rounded up to whole processes said) paid in part by formatters and
 * texts written once (three number formatters, two rate texts):
 * 1,433.7 KB — the budget moved by 1 KB for those fixes, the goal not.
 * 2026-12-05, the document worker merged into the simulator module (the same wasm started in
 * a worker by doc-worker-start.js; its own copy of std, serde, the domain and the texts gone):
 * 1,333.3 KB. The same day the embed page read over the shared simulator choices it never
 * shows (their lenient reader, a JSON value written again and read as the choices: −7.2 KB)
 * and the duration reader left u128 arithmetic (its division: −1.3 KB from the first load),
 * beside the fixes they paid for (ρ from 1 on in the sheet's load row, tiny rates with their
 * digits, "Configuration for" kept across visits): 1,325.8 KB.
 * 2026-12-05 (later), eight fixes from the evening walk, in both languages (the simulator
 * module +2.6 KB, 1.5 KB of it their texts; the page +0.3 KB): "Size it" refuses while a
 * field shows a refused value, the bar says "Preparing…" while the document module loads, an
 * audited value a sheet cannot hold is brought into range and said instead of refusing the
 * file, the simulator's configuration named on import, a p95 under its median says why, a
 * rounded-up count said as such: 1,329.6 KB — the budget moved by 3 KB for them, the goal not.
 * 2026-12-05 (the next session): the sections no browser reads dropped, each module's texts
 * only where they are named (the simulator module −5.0 KB, the embed page −5.6 KB), the
 * audit's BullMQ queues, AWS limits and the simulator's configuration named (+3.4 KB):
 * 1,321.3 KB; the budgets follow down (the whole 1,331 → 1,323 KB, the simulator module
 * 824 → 822 KB), so the bytes saved are not spent without a decision. No build step reaches
 * the goal (docs/PERFORMANCE.md: one program of the page and the module weighs 965.6 KB by
 * itself).
 */
const WHOLE_BUDGET = 1323 * 1024;
const WHOLE_GOAL = 800 * 1024;
/** The simulator module's budget (see ON_DEMAND). */
const SIM_UI_BUDGET = 822 * 1024;
/** Modules loaded on demand: file name prefix → budget in bytes, brotli. */
const ON_DEMAND = {
  // The simulator screen and the sheet's capacity panel (src/bin/sim-ui.rs, with its start
  // script sim-ui-start.js), also started in Web Workers as the simulation worker
  // (sim-worker-start.js: the engine, the charts' and Compare's drawing, the capacity sweep)
  // and as the document worker (doc-worker-start.js: the exporters, the file readers, the
  // share renderers, the system picture, the thirteen queue targets with each time zone's
  // rule, the audit's readers): Yew, the screens' components and every text but the CLI's.
  // Fetched when Simulate or a sheet is first shown, or on the first export, import, share or
  // target. 253.4 KB on 2026-12-04 before it also became the simulation worker (373.2 KB,
  // where the separate worker was 176.8 KB); the document worker a module of its own until
  // 2026-12-05 (539.2 KB beside the simulator module's 373.2 KB, wasm alone; both carried the
  // standard library, serde code, the domain and the texts): one module of 813.8 KB (819.8 KB
  // with its scripts), −98.6 KB. Budget: that + room.
  'sim-ui': SIM_UI_BUDGET,
  // The share card's and the share panel's stylesheets, fetched when sharing is first shown.
  'share-card.css': 4 * 1024,
  'share.css': 2 * 1024,
  // The simulator's stylesheet, fetched when the Simulate screen is first shown (it left
  // style.css: −1.5 KB brotli from the first load); since issue 25 also when the sheet's
  // capacity panel sizes, with the capacity answer's rules: 3.1 KB measured on 2026-12-03.
  'sim.css': 4 * 1024,
  // The configuration panel's stylesheet, fetched when a target is first chosen.
  'target.css': 2 * 1024,
  // The sheet's stylesheet (its grid and findings column, the retry timeline, the print
  // view), fetched when the sheet is first shown (it left style.css on 2026-12-02).
  'sheet.css': 2 * 1024,
};

/** The .js / .css / .wasm files of dist/ that `page` names, and those its scripts name, in turn. */
function loadedBy(page) {
  const files = new Set(readdirSync(dist).filter((f) => /\.(wasm|js|css)$/.test(f)));
  const seen = new Set();
  const queue = [page];
  while (queue.length) {
    const text = readFileSync(path.join(dist, queue.pop()), 'utf8').replace(/<link[^>]*data-trunk[^>]*>/g, '');
    for (const f of files) {
      if (!seen.has(f) && text.includes(f)) {
        seen.add(f);
        if (f.endsWith('.js')) queue.push(f);
      }
    }
  }
  return seen;
}

test('first load < 350 KB and each worker within its budget, brotli', () => {
  const embedOnly = new Set([...loadedBy('embed.html')].filter((f) => !loadedBy('index.html').has(f)));
  const sizes = { first: 0 };
  for (const name of Object.keys(ON_DEMAND)) sizes[name] = 0;
  const rows = [];
  for (const f of readdirSync(dist)) {
    if (!/\.(wasm|js|css)$/.test(f) || embedOnly.has(f)) continue;
    const raw = readFileSync(path.join(dist, f));
    const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    // The longest prefix wins ('sim-ui' before 'sim'); the workers' start scripts belong to
    // the simulator module they start.
    const named = /^(sim|doc)-worker-start/.test(f) ? 'sim-ui' : f;
    const module = Object.keys(ON_DEMAND).sort((a, b) => b.length - a.length).find((name) => named.startsWith(name)) ?? 'first';
    sizes[module] += br;
    rows.push(`${f.replace(/-[0-9a-f]{12,16}(?=[._])/, '')}: ${(raw.length / 1024).toFixed(1)} KB raw, ${(br / 1024).toFixed(1)} KB brotli`);
  }
  assert.ok(rows.length >= 4, 'dist/ must hold the page wasm, its JS glue, the workers and the CSS');
  // The first-load figure is honest only if index.html does not fetch a worker up front.
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8').replace(/<link[^>]*data-trunk[^>]*>/g, '');
  for (const name of Object.keys(ON_DEMAND)) {
    assert.ok(sizes[name] > 0, `dist/ must hold the ${name}`);
    assert.ok(!html.includes(name), `index.html must not preload the ${name}`);
  }
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  const total = Object.values(sizes).reduce((a, b) => a + b, 0);
  const modules = Object.entries(ON_DEMAND).map(([name, budget]) => `${name} ${kb(sizes[name])} (budget ${kb(budget)})`);
  const over = sizes.first > FIRST_LOAD_LIMIT ? ` — OVER THE ${kb(FIRST_LOAD_LIMIT)} LIMIT by ${kb(sizes.first - FIRST_LOAD_LIMIT)} (issue 28)` : '';
  console.log(`size: ${rows.join('; ')}; first load ${kb(sizes.first)} = ${sizes.first} B (limit ${kb(FIRST_LOAD_LIMIT)}, test budget ${kb(FIRST_LOAD_BUDGET)})${over}, ${modules.join(', ')}, total ${kb(total)} brotli`);
  assert.ok(sizes.first < FIRST_LOAD_BUDGET, `first load ${sizes.first} B brotli exceeds ${FIRST_LOAD_BUDGET} B`);
  for (const [name, budget] of Object.entries(ON_DEMAND)) {
    assert.ok(sizes[name] < budget, `${name} ${sizes[name]} B brotli exceeds its budget ${budget} B`);
  }
});

test('the embed page loads within its 155 KB budget, brotli', () => {
  const files = [...loadedBy('embed.html')].sort();
  assert.ok(files.some((f) => f.endsWith('.wasm')), 'embed.html must load its wasm');
  assert.ok(files.some((f) => f.endsWith('.css')), 'embed.html must load its stylesheets');
  let total = 0;
  const rows = [];
  for (const f of files) {
    const raw = readFileSync(path.join(dist, f));
    const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    total += br;
    rows.push(`${f.replace(/-[0-9a-f]{12,16}(?=[._])/, '')}: ${(raw.length / 1024).toFixed(1)} KB raw, ${(br / 1024).toFixed(1)} KB brotli`);
  }
  const html = readFileSync(path.join(dist, 'embed.html'));
  const htmlBr = brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  total += htmlBr;
  rows.push(`embed.html: ${(html.length / 1024).toFixed(1)} KB raw, ${(htmlBr / 1024).toFixed(1)} KB brotli`);
  console.log(`embed size: ${rows.join('; ')}; total ${(total / 1024).toFixed(1)} KB brotli = ${total} B (limit 155 KB = 158,720 B)`);
  assert.ok(total < EMBED_BUDGET, `the embed page loads ${total} B brotli, over its budget ${EMBED_BUDGET} B`);
});

test('the whole app (everything dist/ serves) within its budget, brotli; the 800 KB goal said', () => {
  let total = 0;
  const rows = [];
  for (const f of readdirSync(dist, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name)) {
    const br = brotliCompressSync(readFileSync(path.join(dist, f)), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    total += br;
    rows.push([f.replace(/-[0-9a-f]{12,16}(?=[._])/, ''), br]);
  }
  assert.ok(rows.some(([f]) => f === 'app_bg.wasm') && rows.some(([f]) => f === 'embed_bg.wasm'), 'dist/ must hold the page and the embed page');
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  const biggest = rows.sort((x, y) => y[1] - x[1]).slice(0, 6).map(([f, n]) => `${f} ${kb(n)}`);
  const gap = total > WHOLE_GOAL ? `, ${kb(total - WHOLE_GOAL)} over the ${kb(WHOLE_GOAL)} goal (issue 28, docs/PERFORMANCE.md)` : '';
  console.log(`whole: ${rows.length} files, ${kb(total)} brotli (budget ${kb(WHOLE_BUDGET)})${gap}; biggest: ${biggest.join(', ')}`);
  assert.ok(total < WHOLE_BUDGET, `dist/ serves ${total} B brotli, over the whole budget ${WHOLE_BUDGET} B`);
});

/** The names of the custom sections of the wasm module `bytes`, in order. */
function customSections(bytes) {
  const names = [];
  let at = 8;
  const leb = () => {
    let value = 0;
    let shift = 0;
    for (;;) {
      const byte = bytes[at++];
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
      if (!(byte & 0x80)) return value;
    }
  };
  while (at < bytes.length) {
    const id = bytes[at++];
    const size = leb();
    const end = at + size;
    if (id === 0) {
      const len = leb();
      names.push(bytes.subarray(at, at + len).toString('latin1'));
    }
    at = end;
  }
  return names;
}

// scripts/externalize_loader.py drops the sections no browser reads (wasm-bindgen's names of
// its shims, the linker's producers): 1.6 KB brotli in all on 2026-12-05, 0.4 KB of it in the
// first load.
test('the wasm files dist/ serves carry no name or producers section', () => {
  const wasm = readdirSync(dist).filter((f) => f.endsWith('.wasm'));
  assert.ok(wasm.length >= 3, `dist/ must hold the page's, the simulator module's and the embed page's wasm: ${wasm}`);
  for (const f of wasm) {
    const bytes = readFileSync(path.join(dist, f));
    assert.equal(bytes.subarray(0, 4).toString('latin1'), '\0asm', `${f} is a wasm module`);
    const sections = customSections(bytes);
    for (const unread of ['name', 'producers']) {
      assert.ok(!sections.includes(unread), `${f} still carries its ${unread} section (${sections})`);
    }
  }
});

/** Every key of the YAML text files under `dir` (rust-i18n's v2 format: a key starts a line). */
function keysOf(dir) {
  const keys = [];
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('.yml')) continue;
    for (const line of readFileSync(path.join(dir, f), 'utf8').split('\n')) {
      const m = /^([a-z0-9][\w.-]*):/.exec(line);
      if (m && m[1] !== '_version') keys.push(m[1]);
    }
  }
  return keys;
}

test('the page names none of the texts it does not carry (the simulator\'s, the workers\')', () => {
  // The page is built with `locales/page/` only: a key of the simulator module or of a worker
  // that the page's code names would show as the bare key. Keys are string literals in the
  // wasm; a key built at run time (`knobs.{id}.label`) is not seen here (tests/it/locale_keys.rs).
  const page = readdirSync(dist).find((f) => /^app-[0-9a-f]+_bg\.wasm$/.test(f));
  assert.ok(page, 'dist/ must hold the page wasm');
  const wasm = readFileSync(path.join(dist, page));
  const root = path.join(dist, '..', 'locales');
  const pageKeys = new Set(keysOf(path.join(root, 'page')));
  const others = [...keysOf(path.join(root, 'simulator')), ...keysOf(path.join(root, 'worker'))]
    .filter((k) => !pageKeys.has(k));
  assert.ok(others.length > 300, `the simulator's and workers' keys must be read (${others.length})`);
  // String literals sit back to back in the wasm: a match that is the start of a longer key
  // (`sim.ui.run` inside `sim.ui.running`) is that key's, not this one's.
  const all = [...pageKeys, ...others];
  const named = others.filter((k) => {
    const longer = all.filter((l) => l.length > k.length && l.startsWith(k));
    for (let at = wasm.indexOf(k); at >= 0; at = wasm.indexOf(k, at + 1)) {
      if (!longer.some((l) => wasm.toString('latin1', at, at + l.length) === l)) return true;
    }
    return false;
  });
  assert.deepEqual(named, [], 'the page names texts only the simulator module or a worker carries');
});

/** The files `locales/modules.txt` lists for `feature` (a folder: its files), relative to locales/. */
function moduleFiles(root, feature) {
  const files = [];
  let inside = false;
  for (const raw of readFileSync(path.join(root, 'modules.txt'), 'utf8').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    if (line.startsWith('[')) { inside = line === `[${feature}]`; continue; }
    if (!inside) continue;
    if (line.endsWith('/')) files.push(...readdirSync(path.join(root, line)).filter((f) => f.endsWith('.yml')).map((f) => line + f));
    else files.push(line);
  }
  return files;
}

/** The keys of one locale file. */
function keysOfFile(file) {
  return readFileSync(file, 'utf8').split('\n')
    .map((line) => /^([a-z0-9][\w.-]*):/.exec(line)?.[1])
    .filter((k) => k && k !== '_version');
}

/**
 * The keys of other locale files that the built module `wasm` (built with `[feature]` of
 * locales/modules.txt) names: a key of a file it leaves out would show as the bare key. Named
 * whole: the key as a string literal. Built at run time (`format!("charts.{}", …)`): the start
 * of the key up to a dot, as rustc stores a format string's literal piece (its length in the
 * byte before it) — unless a key the module carries starts the same way (what it builds may be
 * that key). `runtime` is a piece the module is known to build keys from: the check finds what
 * it looks for.
 */
function namedButNotCarried(wasm, feature, runtime) {
  const root = path.join(dist, '..', 'locales');
  const carriedFiles = new Set(moduleFiles(root, feature));
  const allFiles = ['page', 'simulator', 'worker'].flatMap((d) => readdirSync(path.join(root, d)).filter((f) => f.endsWith('.yml')).map((f) => `${d}/${f}`));
  const carried = new Set([...carriedFiles].flatMap((f) => keysOfFile(path.join(root, f))));
  const others = allFiles.filter((f) => !carriedFiles.has(f))
    .flatMap((f) => keysOfFile(path.join(root, f)).map((k) => ({ k, f })))
    .filter(({ k }) => !carried.has(k));
  assert.ok(others.length > 150, `the keys [${feature}] leaves out must be read (${others.length})`);
  const all = [...carried, ...others.map(({ k }) => k)];
  const piece = (p) => wasm.includes(Buffer.concat([Buffer.from([p.length]), Buffer.from(p)]));
  const prefixes = (k) => [...k.matchAll(/\./g)].map((m) => k.slice(0, m.index + 1));
  assert.ok(piece(runtime), `the module's own run-time keys are seen (\`${runtime}\`): rustc's layout of format strings changed?`);
  const startsCarried = (p) => [...carried].some((c) => c.startsWith(p));
  // The module's own table of keys (build.rs: sorted, joined by NUL) is no naming: a key of
  // another file may be the end of a carried one (`ui.back` of `sheet.ui.back`).
  const table = Buffer.from([...carried].sort().join('\0'));
  const tableAt = wasm.indexOf(table);
  assert.ok(tableAt >= 0, `the module's table of the [${feature}] keys is found`);
  const inTable = (at) => at >= tableAt && at < tableAt + table.length;
  return {
    files: carriedFiles.size,
    named: others.filter(({ k }) => {
      const longer = all.filter((l) => l.length > k.length && l.startsWith(k));
      for (let at = wasm.indexOf(k); at >= 0; at = wasm.indexOf(k, at + 1)) {
        if (!inTable(at) && !longer.some((l) => wasm.toString('latin1', at, at + l.length) === l)) return true;
      }
      return prefixes(k).some((p) => piece(p) && !startsCarried(p));
    }).map(({ k, f }) => `${k} (${f})`),
  };
}

test('the simulator module names none of the texts it does not carry', () => {
  // The module (the simulator screen, the capacity panel, the simulation worker and the
  // document worker) is built with `[simui]`; the check form's, the page's own screens', the
  // rule catalogue's, the CLI's words and its audit's reasons are left out. A key it builds at
  // run time: `rule.{code}.title`, the audit's notes.
  const { files, named } = namedButNotCarried(readFileSync(path.join(dist, 'sim-ui_bg.wasm')), 'simui', 'rule.');
  assert.ok(files > 50, `[simui] must be read (${files} files)`);
  assert.deepEqual(named, [], 'the simulator module names texts it does not carry');
});

test('the embed page names none of the texts it does not carry', () => {
  // Built with `[embed]`: only the texts its card shows (its budget). A key it builds at run
  // time: `sheet.field.{id}.item`, the card's rows.
  const file = readdirSync(dist).find((f) => /^embed-[0-9a-f]+_bg\.wasm$/.test(f));
  assert.ok(file, 'dist/ must hold the embed page\'s wasm');
  const { files, named } = namedButNotCarried(readFileSync(path.join(dist, file)), 'embed', 'sheet.field.');
  assert.ok(files >= 5, `[embed] must be read (${files} files)`);
  assert.deepEqual(named, [], 'the embed page names texts it does not carry');
});
