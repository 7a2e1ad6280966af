// Accessibility checks for the browser tests: axe-core (a dev dependency, node_modules/axe-core)
// run inside the page, and a contrast check of SVG text, which axe's color-contrast rule skips.
//
// axe is put into the page with `page.evaluate(source)`: Playwright evaluates through the
// DevTools protocol, which the page's Content-Security-Policy (no inline script) does not
// govern, so the page under test keeps its real CSP (no `bypassCSP`).
//
// Rules: WCAG 2.0 / 2.1 levels A and AA (`wcag2a`, `wcag2aa`, `wcag21a`, `wcag21aa`) and all of
// axe's `best-practice` rules (landmarks, `region`, `heading-order`, `empty-table-header`,
// `page-has-heading-one`, …) — none is switched off.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const AXE = readFileSync(path.join(here, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/** The rule sets every check runs. */
export const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** Puts axe into `page` (or frame) once per document. */
async function inject(page) {
  if (await page.evaluate(() => typeof window.axe === 'object')) return;
  await page.evaluate(AXE);
}

/**
 * Runs axe on `page`'s document; resolves the violations as short lines
 * ("rule (impact): target — summary"), empty when there are none.
 */
export async function axeViolations(page) {
  await inject(page);
  const violations = await page.evaluate(async (tags) => {
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id, impact: v.impact,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary })),
    }));
  }, TAGS);
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target} — ${(n.summary ?? '').replace(/\s+/g, ' ').slice(0, 240)}`));
}

/**
 * The SVG texts on the page whose contrast with what is drawn behind them is too low: under
 * 4.5:1, or under 3:1 for large text (24 px, or 18.66 px bold, as rendered). The text's colour
 * is its computed `fill` with its `fill-opacity` and the `opacity` of it and its ancestors; the
 * background is the first painted thing under the text's centre (an SVG shape's fill, else an
 * HTML element's background colour, blended over what lies below it; the page's white at the
 * bottom). Texts hidden, without size or fully transparent are skipped. Resolves
 * { fails, checked }: lines ("ratio < need: text — fill on background (selector)") and how
 * many texts were measured.
 */
export async function svgTextContrast(page) {
  return page.evaluate(() => {
    const parse = (c) => {
      const m = /rgba?\(([^)]+)\)/.exec(c ?? '');
      if (!m) return null;
      const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
      return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
    };
    const over = (top, below) => ({
      r: top.r * top.a + below.r * (1 - top.a),
      g: top.g * top.a + below.g * (1 - top.a),
      b: top.b * top.a + below.b * (1 - top.a),
      a: 1,
    });
    const lum = (c) => {
      const ch = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * ch(c.r) + 0.7152 * ch(c.g) + 0.0722 * ch(c.b);
    };
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    const opacityUp = (el) => {
      let o = 1;
      for (let e = el; e && e !== document.documentElement; e = e.parentElement) o *= Number(getComputedStyle(e).opacity);
      return o;
    };
    // What is painted at (x, y) beneath `text`: colours from the top down, until one is opaque.
    const backgroundAt = (text, x, y) => {
      const layers = [];
      for (const el of document.elementsFromPoint(x, y)) {
        if (el === text || text.contains(el) || el.closest('text')) continue;
        const cs = getComputedStyle(el);
        let c;
        if (el instanceof SVGElement) {
          if (el.tagName === 'svg' || el.tagName === 'g') continue;
          c = parse(cs.fill);
          if (c) c.a *= Number(cs.fillOpacity) * opacityUp(el);
        } else {
          c = parse(cs.backgroundColor);
          if (c) c.a *= opacityUp(el);
        }
        if (!c || c.a === 0) continue;
        layers.push(c);
        if (c.a >= 0.999) break;
      }
      return layers.reduceRight((below, top) => over(top, below), { r: 255, g: 255, b: 255, a: 1 });
    };
    const name = (el) => {
      const parts = [];
      for (let e = el; e && parts.length < 4; e = e.parentElement) {
        parts.unshift(e.tagName.toLowerCase() + (e.id ? `#${e.id}` : '') + (e.classList.length ? `.${[...e.classList].join('.')}` : ''));
        if (e.tagName === 'figure' || e.tagName === 'section') break;
      }
      return parts.join(' > ');
    };
    const fails = [];
    let checked = 0;
    for (const text of document.querySelectorAll('svg text')) {
      if (!text.textContent.trim() || !text.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      text.scrollIntoView({ block: 'center', inline: 'center' });
      const box = text.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const cs = getComputedStyle(text);
      const fill = parse(cs.fill);
      if (!fill) continue;
      fill.a *= Number(cs.fillOpacity) * opacityUp(text);
      if (fill.a === 0) continue;
      const bg = backgroundAt(text, box.left + box.width / 2, box.top + box.height / 2);
      const colour = over(fill, bg);
      const scale = text.getScreenCTM()?.a ?? 1;
      const px = parseFloat(cs.fontSize) * scale;
      const large = px >= 24 || (px >= 18.66 && Number(cs.fontWeight) >= 700);
      const need = large ? 3 : 4.5;
      const got = ratio(colour, bg);
      checked += 1;
      if (got < need) {
        const rgb = (c) => `rgb(${Math.round(c.r)},${Math.round(c.g)},${Math.round(c.b)})`;
        fails.push(`${got.toFixed(2)} < ${need}: "${text.textContent.trim().slice(0, 40)}" — ${rgb(colour)} on ${rgb(bg)} (${name(text)})`);
      }
    }
    window.scrollTo(0, 0);
    return { fails, checked };
  });
}

/**
 * Known findings another change of the same issue removes, each with why; a finding is
 * dropped only when its line contains every part of one entry. Delete an entry once its
 * change has landed.
 */
/**
 * Both checks on `page`: resolves { lines, svgTexts } — each finding prefixed with `where`
 * (none is filtered out), and how many SVG texts the contrast check measured.
 */
export async function a11yProblems(page, where) {
  const svg = await svgTextContrast(page);
  const lines = [...await axeViolations(page), ...svg.fails];
  return { lines: lines.map((l) => `${where}: ${l}`), svgTexts: svg.checked };
}
