#!/usr/bin/env python3
"""Trunk post_build hook of the app (Trunk.toml): builds the embed page (embed.html, its own
small Trunk entry, Trunk.embed.toml) and copies its output into the app's staging folder, so
one dist/ holds index.html and embed.html — in `make build`, `make serve` and `make test`.

- Output: a folder under cargo's target directory ($CARGO_TARGET_DIR, else ./target), which
  Trunk's watcher ignores, so `trunk serve` does not rebuild in a loop.
- Quick when nothing changed: a fingerprint of the inputs (names, sizes and modification times
  of src/, locales/, diagrams/, static/, build.rs, Cargo.toml, Cargo.lock, embed.html,
  Trunk.embed.toml and the hook scripts) is kept beside the output; if it matches, only the copy
  runs.
- No recursion: the inner build runs with MODALITY_ADVISOR_EMBED_BUILD=1 and without the
  outer build's TRUNK_* variables; this hook does nothing when that variable is set (and
  Trunk.embed.toml does not run this hook anyway).
- No collisions: file names are content-hashed; a file of the same name and different content
  in the app's output stops the build.
"""
import filecmp
import hashlib
import os
import shutil
import subprocess
import sys

GUARD = "MODALITY_ADVISOR_EMBED_BUILD"
INPUT_DIRS = ["src", "locales", "diagrams", "static"]
INPUT_FILES = ["build.rs", "Cargo.toml", "Cargo.lock", "embed.html", "Trunk.embed.toml",
               "scripts/build_embed.py", "scripts/externalize_loader.py"]


def fail(message):
    sys.exit(f"build_embed.py: {message}")


def fingerprint(root, profile):
    h = hashlib.sha256(profile.encode())
    paths = [os.path.join(root, f) for f in INPUT_FILES]
    for d in INPUT_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, d)):
            dirnames.sort()
            paths.extend(os.path.join(dirpath, f) for f in sorted(filenames))
    for p in paths:
        try:
            st = os.stat(p)
        except FileNotFoundError:
            continue
        h.update(f"{os.path.relpath(p, root)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def build(root, out, profile):
    env = {k: v for k, v in os.environ.items() if not k.startswith("TRUNK_")}
    env[GUARD] = "1"
    cmd = ["trunk", "--config", os.path.join(root, "Trunk.embed.toml"), "build", "--dist", out]
    if profile == "release":
        cmd.append("--release")
    print(f"build_embed.py: {' '.join(cmd)}", flush=True)
    if subprocess.run(cmd, cwd=root, env=env).returncode != 0:
        fail("the embed page's build failed (see above)")


def copy_into(out, staging):
    for dirpath, dirnames, filenames in os.walk(out):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for name in filenames:
            if name.startswith("."):
                continue
            src = os.path.join(dirpath, name)
            dest = os.path.join(staging, os.path.relpath(src, out))
            if os.path.exists(dest):
                if filecmp.cmp(src, dest, shallow=False):
                    continue
                fail(f"{os.path.relpath(dest, staging)} exists in the app's output with other content")
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copy2(src, dest)


def main():
    if os.environ.get(GUARD):
        return
    staging = os.environ.get("TRUNK_STAGING_DIR")
    if not staging:
        fail("TRUNK_STAGING_DIR is not set (run it as a Trunk hook)")
    profile = os.environ.get("TRUNK_PROFILE", "debug")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    target = os.path.join(root, os.environ.get("CARGO_TARGET_DIR", "target"))
    out = os.path.join(target, "embed-dist", profile)
    stamp = os.path.join(target, "embed-dist", f"{profile}.inputs")
    digest = fingerprint(root, profile)
    try:
        with open(stamp, encoding="utf-8") as f:
            current = f.read().strip() == digest
    except FileNotFoundError:
        current = False
    if not (current and os.path.exists(os.path.join(out, "embed.html"))):
        build(root, out, profile)
        with open(stamp, "w", encoding="utf-8") as f:
            f.write(digest + "\n")
    else:
        print("build_embed.py: the embed page is up to date", flush=True)
    copy_into(out, staging)


if __name__ == "__main__":
    main()
