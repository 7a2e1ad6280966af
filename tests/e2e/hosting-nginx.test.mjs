// deploy/nginx.conf, as shipped, in front of the release build (dist/): Debian's nginx
// (installed by scripts/install-tools.sh; this test installs nothing) started on a free port
// with the file rendered into a temporary directory (only `listen` and `root` changed; pid,
// logs and temp files there; stopped after), then in real Chromium:
// (a) the headers: the pages' <meta> policy word for word plus frame-ancestors ('self' for
//     the app, * for the embed page), a year's immutable cache for hashed names only,
//     revalidation (ETag, 304) for the names a release reuses, application/wasm, nosniff;
// (b) the app boots, the Simulate screen loads its module and runs its worker under that
//     header policy, with no policy violation;
// (c) a page of another origin frames the embed page (it renders) but not the app (refused by
//     frame-ancestors);
// (d) deploy/Caddyfile says the same (caddy validate, when Debian's caddy is installed, and
//     the same header values); deploy/Containerfile is built only where docker or podman
//     answers (not on the CI machine: no daemon).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch, openPage, runPreset, serveHost, root, dist } from './harness.mjs';

const CONF = readFileSync(path.join(root, 'deploy', 'nginx.conf'), 'utf8');
const HASHED = /-[0-9a-f]{12,16}(_bg)?\.(js|wasm|css|svg)$/;
const YEAR = 'public, max-age=31536000, immutable';

/** The <meta> policy of a page of dist/. */
function metaPolicy(file) {
  // The release build minifies the HTML: attributes in any order, quotes where needed.
  const tag = /<meta[^>]*http-equiv="?Content-Security-Policy[^>]*>/.exec(readFileSync(path.join(dist, file), 'utf8'));
  const m = tag && /content="([^"]+)"/.exec(tag[0]);
  assert.ok(m, `${file} has a <meta> policy`);
  return m[1];
}

function which(name) {
  for (const dir of ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin']) {
    if (existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  return null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer().once('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

/** Replaces `from` (which must occur exactly once) in `text`. */
function once(text, from, to) {
  assert.equal(text.split(from).length, 2, `deploy/nginx.conf has "${from}" once`);
  return text.replace(from, () => to);
}

let nginx; // { url, stop }
let host; // the wiki page, another origin
let browser;

async function startNginx() {
  const bin = which('nginx');
  assert.ok(bin, 'nginx not found: run scripts/install-tools.sh (it installs Debian\'s nginx)');
  const dir = mkdtempSync(path.join(tmpdir(), 'ma-nginx-'));
  const port = await freePort();
  let site = once(CONF, 'listen 8080;', `listen 127.0.0.1:${port};`);
  site = once(site, 'root /srv/modality-advisor;', `root ${dist};`);
  writeFileSync(path.join(dir, 'site.conf'), site);
  const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((t) => `${t}_temp_path ${dir}/${t};`).join('\n  ');
  writeFileSync(path.join(dir, 'nginx.conf'), `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log ${dir}/access.log;
  ${temps}
  include ${dir}/site.conf;
}
`);
  const test = spawnSync(bin, ['-t', '-p', dir, '-c', `${dir}/nginx.conf`, '-e', `${dir}/error.log`], { encoding: 'utf8' });
  assert.equal(test.status, 0, `nginx -t: ${test.stderr}`);
  const proc = spawn(bin, ['-p', dir, '-c', `${dir}/nginx.conf`, '-e', `${dir}/error.log`, '-g', 'daemon off;'], { stdio: 'ignore' });
  const exited = new Promise((resolve) => proc.on('exit', resolve));
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; ; i++) {
    try { await fetch(url); break; } catch (e) {
      if (i > 100 || proc.exitCode !== null) throw new Error(`nginx did not answer: ${readFileSync(`${dir}/error.log`, 'utf8')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url,
    stop: async () => { proc.kill('SIGTERM'); await exited; rmSync(dir, { recursive: true, force: true }); },
  };
}

before(async () => {
  assert.ok(existsSync(path.join(dist, 'index.html')), 'no release build: run `trunk build --release` first');
  nginx = await startNginx();
  browser = await launch();
});
after(async () => { await browser?.close(); await host?.stop(); await nginx?.stop(); });

async function head(file, headers = {}) {
  const r = await fetch(nginx.url + file, { headers });
  await r.arrayBuffer();
  return r;
}

test('(a) headers: the policy, framing, caching and types', async () => {
  const policy = metaPolicy('index.html');
  assert.equal(metaPolicy('embed.html'), policy, 'the two pages carry one policy');
  const files = readdirSync(dist);
  const hashedWasm = files.find((f) => f.startsWith('app-') && f.endsWith('_bg.wasm'));
  assert.ok(hashedWasm && HASHED.test(hashedWasm), `a hashed page wasm in dist/: ${hashedWasm}`);

  for (const [file, ancestors] of [['', "'self'"], ['index.html', "'self'"], ['embed.html', '*'], [hashedWasm, "'self'"]]) {
    const r = await head(file);
    assert.equal(r.status, 200, file);
    assert.equal(r.headers.get('content-security-policy'), `${policy}; frame-ancestors ${ancestors}`, file);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff', file);
    assert.equal(r.headers.get('referrer-policy'), 'no-referrer', file);
    assert.equal(r.headers.get('x-frame-options'), null, `${file}: no X-Frame-Options`);
  }
  assert.match((await head('')).headers.get('content-type'), /^text\/html; charset=utf-8$/);
  assert.match((await head('embed.html')).headers.get('content-type'), /^text\/html/);

  // Every file: a year for hashed names, revalidation for the rest; .wasm is application/wasm.
  const reused = [];
  for (const f of files) {
    const r = await head(f);
    assert.equal(r.status, 200, f);
    const hashed = HASHED.test(f);
    assert.equal(r.headers.get('cache-control'), hashed ? YEAR : 'no-cache', f);
    if (f.endsWith('.wasm')) assert.equal(r.headers.get('content-type'), 'application/wasm', f);
    if (!hashed) {
      reused.push(f);
      const etag = r.headers.get('etag');
      assert.ok(etag, `${f}: an ETag to revalidate with`);
      assert.equal((await head(f, { 'If-None-Match': etag })).status, 304, `${f}: revalidated`);
    }
  }
  for (const f of ['index.html', 'embed.html', 'sim-ui.js', 'sim-ui_bg.wasm', 'sim-ui-start.js', 'sim-worker-start.js',
    'doc-worker-start.js', 'sim.css']) {
    assert.ok(reused.includes(f), `${f} is revalidated (no-cache), not cached for a year`);
  }
  // Compressed on the fly for a browser that asks.
  const gz = await head(hashedWasm, { 'Accept-Encoding': 'gzip' });
  assert.equal(gz.headers.get('content-encoding'), 'gzip');
  assert.equal((await head('no-such-file.js')).status, 404);
});

test('(b) the app boots and Simulate runs under the header policy, with no violation', async () => {
  const page = await openPage(browser, nginx.url);
  const violations = [];
  page.on('console', (m) => { if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text()); });
  await page.evaluate(() => document.addEventListener('securitypolicyviolation', (e) => { window.violations = [...(window.violations ?? []), e.violatedDirective]; }));
  const fetched = [];
  page.on('response', (r) => fetched.push([new URL(r.url()).pathname.split('/').pop(), r.headers()['content-security-policy']]));
  await page.click('.tabs button:nth-child(3)');
  await page.waitForSelector('section.simulate #sim-title');
  assert.ok(fetched.some(([f]) => f === 'sim-ui_bg.wasm'), `the simulator module came from nginx: ${fetched.map(([f]) => f)}`);
  await runPreset(page, 'retry-dead-letter', 'seed');
  // The simulation worker is the simulator module started again in a worker: its start script
  // under the header policy, then the same sim-ui.js.
  const worker = fetched.find(([f]) => f === 'sim-worker-start.js');
  assert.ok(worker, 'the simulation worker was fetched');
  assert.match(worker[1] ?? '', /script-src 'self' 'wasm-unsafe-eval'/, 'the worker runs under the header policy');
  assert.deepEqual(violations, []);
  assert.equal(await page.evaluate(() => window.violations ?? []).then((v) => v.length), 0);
  assert.deepEqual(page.errors, [], 'no console errors');
  await page.context().close();
});

test('(c) another origin frames the embed page, but not the app', async () => {
  const fx = JSON.parse(readFileSync(path.join(root, 'tests', 'e2e', 'links', 'embed-fragments.json'), 'utf8')).process_en;
  host = await serveHost((u) => `<!doctype html><html><head><meta charset="utf-8"><title>wiki</title></head><body>
<iframe id="embed" title="embed" src="${nginx.url}embed.html#${fx.fragment}" width="800" height="600"></iframe>
<iframe id="app" title="app" src="${nginx.url}" width="800" height="600"></iframe></body></html>`, { host: 'localhost' });
  assert.notEqual(new URL(host.url).origin, new URL(nginx.url).origin);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const messages = [];
  page.on('console', (m) => messages.push(m.text()));
  const appBody = page.waitForResponse((r) => r.url() === nginx.url);
  await page.goto(host.url);
  const embed = await (await page.waitForSelector('iframe#embed')).contentFrame();
  await embed.waitForSelector('#embed[data-state="shown"]', { timeout: 20_000 });
  assert.ok((await embed.innerText('#embed')).includes(fx.outcome_titles[0]));
  assert.equal((await appBody).status(), 200, 'nginx served the app; the browser refuses to show it');
  for (let i = 0; i < 100 && !messages.some((m) => /frame-ancestors/.test(m)); i++) await page.waitForTimeout(50);
  const refused = messages.filter((m) => /frame-ancestors/.test(m));
  assert.equal(refused.length, 1, `one frame refused: ${messages}`);
  assert.ok(refused[0].includes(`'${nginx.url}'`) && refused[0].includes(`"frame-ancestors 'self'"`), refused[0]);
  const app = await (await page.$('iframe#app')).contentFrame();
  assert.equal(await app.$('form.question, #app'), null, 'nothing of the app shows in the frame');
  await context.close();
});

/** `header` lines of the Caddyfile: [matcher or '', name, value]. */
function caddyHeaders(text) {
  return [...text.matchAll(/^\s*header\s+(@\w+\s+)?([\w-]+)\s+"([^"]*)"/gm)].map((m) => [(m[1] ?? '').trim(), m[2], m[3]]);
}

test('(d) the Caddyfile: valid, and the same headers as nginx.conf', async () => {
  const file = path.join(root, 'deploy', 'Caddyfile');
  const text = readFileSync(file, 'utf8');
  const caddy = which('caddy');
  if (caddy) {
    const v = spawnSync(caddy, ['validate', '--adapter', 'caddyfile', '--config', file], { encoding: 'utf8', env: { ...process.env, HOME: tmpdir() } });
    assert.equal(v.status, 0, `caddy validate: ${v.stderr}`);
  } else {
    console.log('caddy not installed: the Caddyfile is compared with nginx.conf only');
  }
  const policy = metaPolicy('index.html');
  const h = caddyHeaders(text);
  const get = (matcher, name) => h.filter(([m, n]) => m === matcher && n === name).map(([, , v]) => v);
  assert.deepEqual(get('', 'Content-Security-Policy'), [`${policy}; frame-ancestors 'self'`]);
  assert.deepEqual(get('@embed', 'Content-Security-Policy'), [`${policy}; frame-ancestors {$MA_EMBED_FRAME_ANCESTORS:*}`]);
  assert.deepEqual(get('', 'Cache-Control'), ['no-cache']);
  assert.deepEqual(get('@hashed', 'Cache-Control'), [YEAR]);
  assert.deepEqual(get('', 'X-Content-Type-Options'), ['nosniff']);
  assert.deepEqual(get('', 'Referrer-Policy'), ['no-referrer']);
  assert.match(text, /@embed path \*\/embed\.html\b/);
  assert.ok(text.includes(`@hashed path_regexp ${HASHED.source}`), 'hashed names: the same pattern as nginx.conf');
  assert.ok(CONF.includes(`~${HASHED.source}`), 'nginx.conf: the hashed-name pattern this test uses');
});

test('(e) the container recipe builds where an engine answers', async (t) => {
  const engine = ['podman', 'docker'].find((e) => which(e) && spawnSync(e, ['info'], { stdio: 'ignore', timeout: 10_000 }).status === 0);
  const recipe = readFileSync(path.join(root, 'deploy', 'Containerfile'), 'utf8');
  assert.match(recipe, /^COPY deploy\/nginx\.conf \/etc\/nginx\/conf\.d\/default\.conf$/m);
  assert.match(recipe, /^COPY dist\/ \/srv\/modality-advisor\/$/m);
  if (!engine) { t.skip('no docker or podman daemon here: the image is not built'); return; }
  const b = spawnSync(engine, ['build', '-f', 'deploy/Containerfile', '-t', 'modality-advisor-test', '.'], { cwd: root, encoding: 'utf8', timeout: 600_000 });
  assert.equal(b.status, 0, b.stderr);
});
