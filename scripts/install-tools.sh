#!/usr/bin/env bash
# Installs what building, serving and testing need, skipping whatever is already present at
# the right version, so a warm machine stays fast and a fresh one gets everything:
#   Debian: chromium (browser tests), fonts-noto-cjk (legible Japanese in screenshots);
#           for the parser test of the queue exports (tests/it/target_tools.rs): ruby (ruby -c),
#           ruby-sidekiq and ruby-activejob (Sidekiq 6.4, Active Job 6.1: their own retry code
#           runs on the exports for those versions, tests/it/target_versions.rs),
#           golang-go (gofmt), elixir (Code.string_to_quoted!); postgresql (the server the SQL
#           export test starts in a temporary directory); nginx and caddy (the hosting test
#           serves dist/ with deploy/nginx.conf and validates deploy/Caddyfile)
#   PyPI:   PyYAML, python-hcl2, cfn-lint at pinned versions (the YAML, HCL and CloudFormation
#           checks of the same test), and Celery 5.7.0 (its own retry code runs on the Celery
#           exports, tests/it/target_libs.rs), into the machine's python3
#   rustup: the wasm32-unknown-unknown target, rustfmt and clippy
#   cargo:  trunk 0.21.14, wasm-bindgen-cli at exactly the version Cargo.lock pins
#   npm:    tests/e2e dev dependencies from the committed lockfile (playwright-core; axe-core for
#           the accessibility checks; typescript for the TypeScript exports' syntax check);
#           tests/tools/node from its own lockfile: bullmq 6.7.6 and pg-boss 12.38.0, whose own
#           retry code runs on the BullMQ and pg-boss exports (tests/it/target_libs.rs; pg-boss
#           on the PostgreSQL server above), and typescript to compile the BullMQ export
#   cargo fetch --locked (Trunk builds offline)
# With --build-only: only what `trunk build --release` needs (rustup, cargo, the fetch), no
# Debian, PyPI or npm packages: for a job that publishes dist/ (make build-dist,
# docs/ci/github-pages.yml).
set -euo pipefail
cd "$(dirname "$0")/.."

build_only=false
case "${1:-}" in
  "") ;;
  --build-only) build_only=true ;;
  *) printf 'usage: %s [--build-only]\n' "$0" >&2; exit 2 ;;
esac

say() { printf '[install-tools] %s\n' "$*"; }
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

# --- Debian packages -------------------------------------------------------------------
if ! $build_only; then
apt_missing=()
command -v chromium >/dev/null 2>&1 || apt_missing+=(chromium)
# Read the font list into a variable first: `fc-list | grep -q` under pipefail fails at random
# when grep exits early and fc-list gets SIGPIPE.
fonts=$(fc-list : family 2>/dev/null || true)
if ! grep -qi "Noto Sans CJK" <<<"$fonts"; then apt_missing+=(fonts-noto-cjk); fi
command -v ruby >/dev/null 2>&1 || apt_missing+=(ruby)
# The real retry code of older releases the exports can follow (tests/it/target_versions.rs):
# Sidekiq 6.4 and Active Job 6.1, as Debian 12 packages them.
ruby -e 'require "sidekiq"; exit(Sidekiq::VERSION.start_with?("6.") ? 0 : 1)' >/dev/null 2>&1 || apt_missing+=(ruby-sidekiq)
ruby -e 'require "active_job"; exit(ActiveJob.version.to_s.start_with?("6.1") ? 0 : 1)' >/dev/null 2>&1 || apt_missing+=(ruby-activejob)
command -v gofmt >/dev/null 2>&1 || apt_missing+=(golang-go)
command -v elixir >/dev/null 2>&1 || apt_missing+=(elixir)
# The server binaries (initdb, pg_ctl, postgres), not only the client a machine may have.
if ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then apt_missing+=(postgresql); fi
python3 -m pip --version >/dev/null 2>&1 || apt_missing+=(python3-pip)
# /usr/sbin is not on every user's PATH; deploy/nginx.conf needs `nginx -e` (1.19.5+) and
# deploy/Caddyfile Caddy 2.
nginx_version=$( (command -v nginx || echo /usr/sbin/nginx) | { read -r bin; "$bin" -v 2>&1 || true; })
grep -qE 'nginx/(1\.(19\.([5-9]|[1-9][0-9])|[2-9][0-9])|[2-9])' <<<"$nginx_version" || apt_missing+=(nginx)
caddy_version=$(caddy version 2>/dev/null || true)
grep -qE '^v?2\.' <<<"$caddy_version" || apt_missing+=(caddy)
if [ "${#apt_missing[@]}" -gt 0 ]; then
  say "apt-get install ${apt_missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${apt_missing[@]}" >/dev/null
fi

# --- Python modules for the export parser test ------------------------------------------
# Exact pins, checked by installed version; only the missing or different ones are installed.
PY_PINS=(PyYAML==6.0.3 python-hcl2==8.1.4 cfn-lint==1.51.0 celery==5.7.0)
py_missing=$(python3 - "${PY_PINS[@]}" <<'PY'
import sys
from importlib.metadata import PackageNotFoundError, version
for pin in sys.argv[1:]:
    name, want = pin.split("==")
    try:
        ok = version(name) == want
    except PackageNotFoundError:
        ok = False
    if not ok:
        print(pin)
PY
)
if [ -n "$py_missing" ]; then
  say "pip install" $py_missing
  pip_flags=(--quiet --disable-pip-version-check --root-user-action=ignore)
  # Debian's own python3 refuses pip installs (PEP 668) unless told; a test machine's root
  # installs these for the tests only.
  if python3 -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")))'; then
    pip_flags+=(--break-system-packages)
  fi
  # shellcheck disable=SC2086 # one pin per word
  python3 -m pip install "${pip_flags[@]}" $py_missing
fi
python3 -c 'import yaml, hcl2, cfnlint.api, celery' \
  || { say "python3 cannot import yaml, hcl2, cfnlint and celery after installing ${PY_PINS[*]}"; exit 1; }
fi # not --build-only

# --- Rust target and tools ------------------------------------------------------------
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# rustfmt and clippy for `make lint` (part of `make test`).
for component in rustfmt clippy; do
  if ! rustup component list --installed | grep -q "^$component"; then
    say "rustup component add $component"
    rustup component add "$component"
  fi
done

TRUNK_VERSION=0.21.14
if ! trunk --version 2>/dev/null | grep -qF "$TRUNK_VERSION"; then
  say "cargo install trunk $TRUNK_VERSION (takes several minutes once)"
  cargo install trunk --locked --version "$TRUNK_VERSION"
fi

# wasm-bindgen-cli must equal the wasm-bindgen crate in Cargo.lock, and Trunk.toml must pin
# the same version (Trunk runs offline and never downloads it).
WB_VERSION=$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ -z "$WB_VERSION" ]; then say "cannot read the wasm-bindgen version from Cargo.lock"; exit 1; fi
if ! grep -qF "wasm_bindgen = \"$WB_VERSION\"" Trunk.toml; then
  say "Trunk.toml must pin wasm_bindgen = \"$WB_VERSION\" (the version in Cargo.lock)"; exit 1
fi
if ! wasm-bindgen --version 2>/dev/null | grep -qF "$WB_VERSION"; then
  # Not --locked: its lockfile pins a webpki-roots release the registry no longer serves.
  say "cargo install wasm-bindgen-cli $WB_VERSION"
  cargo install wasm-bindgen-cli --version "$WB_VERSION"
fi

# --- npm dev dependencies for the browser tests -------------------------------------------
if ! $build_only && { [ ! -f tests/e2e/node_modules/.package-lock.json ] \
   || [ tests/e2e/package-lock.json -nt tests/e2e/node_modules/.package-lock.json ]; }; then
  say "npm ci in tests/e2e"
  (cd tests/e2e && npm ci --no-audit --no-fund --loglevel=error)
fi
# The queue libraries (tests/it/target_libs.rs): their own folder and lockfile, apart from the
# browser tests'. pg-boss 12 states Node 22.12+ in its engines; the test runs it on Node 20 too.
if ! $build_only && { [ ! -f tests/tools/node/node_modules/.package-lock.json ] \
   || [ tests/tools/node/package-lock.json -nt tests/tools/node/node_modules/.package-lock.json ]; }; then
  say "npm ci in tests/tools/node"
  (cd tests/tools/node && npm ci --no-audit --no-fund --loglevel=error --engine-strict=false)
fi

cargo fetch --locked --quiet
