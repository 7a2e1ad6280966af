// The SVG card holds its text whatever sans-serif font draws it: cards of hostile names (the
// widest glyphs of the common fonts — `W`, `m`, `@`, `%`, Latin digraphs, Cyrillic, `‱`, CJK,
// emoji — long words and mixed text, in every field the card prints) are written by the CLI
// (`share --format svg`, the same renderer as the page's download), drawn by Chromium in each
// font installed here (DejaVu Sans, Liberation Sans, Lato, Noto Sans CJK JP, the default), and
// every line of text must end inside the card (x + width ≤ 640 − 24 px padding). Needs the CLI
// (target/debug or target/release).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch, root } from './harness.mjs';

const FONTS = ['DejaVu Sans', 'Liberation Sans', 'Lato', 'Noto Sans CJK JP', null];
const NAMES = {
  capitals: 'W'.repeat(90),
  lower: 'm'.repeat(90),
  signs: '@%'.repeat(45),
  words: 'WWWWWWWW MMMMMMMM @@@@@@ %%%%%% mmmmmmmm '.repeat(4),
  digraphs: 'ǄǅǆǇǈǉǊǋǌ'.repeat(8),
  cyrillic: 'ШЩЖЮѼ'.repeat(16),
  permille: '‱'.repeat(50),
  mixed: 'W日本語m@'.repeat(16),
  emoji: '👩‍👩‍👧‍👦🏳️‍🌈W'.repeat(16),
};

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

function cli() {
  const debug = path.join(root, 'target', 'debug', 'modality-advisor');
  return existsSync(debug) ? debug : path.join(root, 'target', 'release', 'modality-advisor');
}

/** The example batch sheet with `text` as its name and in the fields the card prints. */
function card(text, lang) {
  const sheet = JSON.parse(readFileSync(path.join(root, 'examples', 'sheets', 'nightly-report.sheet.json'), 'utf8'));
  sheet.process.process_name = text;
  sheet.process.trigger = text;
  sheet.process.business_key = text;
  sheet.failure.notify = text;
  sheet.failure.dead_letter = text;
  sheet.batch.partial_failure = text;
  const dir = mkdtempSync(path.join(tmpdir(), 'svg-fit-'));
  const file = path.join(dir, 'sheet.json');
  writeFileSync(file, JSON.stringify(sheet));
  return execFileSync(cli(), ['share', '--input', file, '--format', 'svg', '--lang', lang], { stdio: ['ignore', 'pipe', 'ignore'] }).toString();
}

test('every line of the SVG card ends inside it in each common sans-serif font', async () => {
  const page = await browser.newPage();
  await page.setContent('<!doctype html><body style="margin:0"></body>');
  const over = [];
  let lines = 0;
  for (const lang of ['en', 'ja']) {
    for (const [name, text] of Object.entries(NAMES)) {
      const svg = card(text, lang);
      for (const font of FONTS) {
        const found = await page.evaluate(({ svg, font }) => {
          document.body.innerHTML = svg;
          const el = document.body.querySelector('svg');
          if (font) {
            const style = el.querySelector('style');
            style.textContent = style.textContent.replace(/text\{font-family:[^;]*;/, `text{font-family:"${font}";`);
          }
          const width = Number(el.getAttribute('width'));
          const out = [];
          const texts = [...el.querySelectorAll('text')];
          for (const t of texts) {
            const box = t.getBBox();
            if (box.x + box.width > width - 24 + 0.5) out.push(`${Math.round(box.x + box.width)} px: ${t.textContent.slice(0, 40)}`);
          }
          return { out, count: texts.length };
        }, { svg, font });
        lines += found.count;
        for (const o of found.out) over.push(`${lang} ${name} in ${font ?? 'the default font'}: ${o}`);
      }
    }
  }
  assert.ok(lines > 500, `${lines} lines drawn`);
  assert.deepEqual(over, [], 'lines past the card\'s edge');
  await page.close();
});
