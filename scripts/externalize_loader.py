#!/usr/bin/env python3
"""Trunk post_build hook: (1) move the inline module script Trunk injects into index.html to a
file of its own (boot-<hash>.js), so the page runs under a strict Content-Security-Policy
(`script-src 'self' 'wasm-unsafe-eval'`, no 'unsafe-inline') — wikis often impose one.

Reads and rewrites $TRUNK_STAGING_DIR/index.html (or the page named by the first argument, e.g.
`embed.html` for the embed page's build). Fails loudly if the script is not found,
so a Trunk upgrade that changes the output cannot slip through silently. (2) Drop the `integrity`
attribute Chromium ignores (and warns about) on the wasm's fetch preload. (3) Give any
worker loader shim Trunk writes (`*_loader.js`, for a `data-loader-shim` module; none since
the workers are the simulator module started by static/sim-worker-start.js and
static/doc-worker-start.js) the non-deprecated wasm-bindgen init call. (4) Drop the custom
sections no browser reads (`name`, `producers`) from this build's own wasm files.
"""
import hashlib
import os
import re
import sys

staging = os.environ.get("TRUNK_STAGING_DIR")
if not staging:
    sys.exit("externalize_loader.py: TRUNK_STAGING_DIR is not set (run it as a Trunk hook)")
page = sys.argv[1] if len(sys.argv) > 1 else "index.html"
index = os.path.join(staging, page)
with open(index, encoding="utf-8") as f:
    html = f.read()

# Trunk's minifier (`minify = "on_release"`) writes the attribute unquoted.
pattern = re.compile(r'<script type="?module"?>(.*?)</script>', re.S)
found = pattern.findall(html)
if len(found) != 1:
    sys.exit(f"externalize_loader.py: expected one inline module script, found {len(found)}")
code = found[0].strip() + "\n"
digest = hashlib.sha256(code.encode()).hexdigest()[:16]
name = f"boot-{digest}.js"
with open(os.path.join(staging, name), "w", encoding="utf-8") as f:
    f.write(code)
html = pattern.sub(f'<script type="module" src="./{name}"></script>', html, count=1)
# Chromium ignores `integrity` on a fetch preload (the wasm) and warns about it on every load;
# the wasm is fetched by the loader without integrity anyway. Module preloads keep theirs.
html = re.sub(
    r'(<link (?=[^>]*\brel="?preload\b)(?=[^>]*\bas="?fetch\b)[^>]*>)',
    lambda m: re.sub(r'\s+integrity=("[^"]*"|[^\s>]*)', "", m.group(1)),
    html,
)
with open(index, "w", encoding="utf-8") as f:
    f.write(html)

# The worker loader shims Trunk writes call `wasm_bindgen("<path>")`, which wasm-bindgen
# 0.2.130 reports as deprecated on the console ("using deprecated parameters for the
# initialization function"); pass the object form instead.
for name in sorted(os.listdir(staging)):
    if not name.endswith("_loader.js"):
        continue
    shim = os.path.join(staging, name)
    with open(shim, encoding="utf-8") as f:
        text = f.read()
    fixed = re.sub(r'wasm_bindgen\("([^"]+)"\)', r'wasm_bindgen({ module_or_path: "\1" })', text)
    if "module_or_path" not in fixed:
        sys.exit(f"externalize_loader.py: {name} has no wasm_bindgen init call this script knows")
    with open(shim, "w", encoding="utf-8") as f:
        f.write(fixed)

# (4) Drop the wasm files' `name` and `producers` custom sections. wasm-bindgen writes a name
# section for the shims it generates (`strip = true` already removed Rust's own names) and the
# linker a producers section; no browser reads either, and they cost 0.4 KB brotli in the first
# load and 1.6 KB in the whole (docs/PERFORMANCE.md). Only this build's own wasm files are
# touched (the `data-bin` modules of the page Trunk built): the embed page's build copies its
# files into the same folder while this hook runs.
def _leb128(data, at):
    value = shift = 0
    while True:
        if at >= len(data):
            sys.exit("externalize_loader.py: a wasm section's length runs past the file")
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, at


def without_unread_sections(data):
    """The wasm module `data` without its `name` and `producers` custom sections."""
    if data[:8] != b"\0asm\x01\0\0\0":
        sys.exit("externalize_loader.py: not a version-1 wasm module")
    kept, at = bytearray(data[:8]), 8
    while at < len(data):
        start = at
        section_id = data[at]
        size, body = _leb128(data, at + 1)
        end = body + size
        if end > len(data):
            sys.exit("externalize_loader.py: a wasm section runs past the file")
        if section_id == 0:
            name_len, name_at = _leb128(data, body)
            if data[name_at : name_at + name_len] in (b"name", b"producers"):
                at = end
                continue
        kept += data[start:end]
        at = end
    return bytes(kept)


source = os.environ.get("TRUNK_HTML_FILE", os.path.join(os.getcwd(), page))
with open(source, encoding="utf-8") as f:
    bins = re.findall(r'data-bin="([^"]+)"', f.read())
if not bins:
    sys.exit(f"externalize_loader.py: {source} names no data-bin module")
stripped = 0
for name in sorted(os.listdir(staging)):
    if not name.endswith("_bg.wasm"):
        continue
    if not any(re.fullmatch(re.escape(b) + r"(-[0-9a-f]+)?_bg\.wasm", name) for b in bins):
        continue
    path = os.path.join(staging, name)
    with open(path, "rb") as f:
        data = f.read()
    with open(path, "wb") as f:
        f.write(without_unread_sections(data))
    stripped += 1
if stripped != len(bins):
    sys.exit(f"externalize_loader.py: found {stripped} wasm files for the modules {bins}")
