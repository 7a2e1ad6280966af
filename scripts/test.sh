#!/usr/bin/env bash
# `make test`: every check and every test, in two lanes so both cores stay busy.
#
# Why two lanes: the release build of the wasm modules (`trunk build --release`) spends most of
# its time in fat-LTO links with one codegen unit — one core each, one module after another —
# and the browser suite mostly waits on one Chromium page. Run one after the other with the
# lint and the native tests (as `make test` did until 2026-12-03) they left a core idle for
# about 20 of 34 minutes. The lanes touch different parts of cargo's target directory (the
# release build locks target/release and target/wasm32-unknown-unknown/release; the lint and
# the native tests target/debug and target/wasm32-unknown-unknown/debug), so neither waits for
# the other's lock.
#
#   lane "checks": fmt, the CLI's debug build (the browser tests run it), the lint (clippy
#                  native and wasm32, both cargo doc: `scripts/test.sh lint` is `make lint`), the
#                  native tests (`make test-native`).
#   lane "browser": trunk build --release, then (once the CLI is built) the browser suite.
#
# Each lane's output goes to target/test-logs/LANE.log; the browser lane's log is printed
# when it ends, so CI shows both. The run fails (exit 1) when any step of either lane fails;
# every step's time is printed at the end (README's measured figures come from here).
# MODALITY_ADVISOR_SERIAL=1 runs the two lanes one after the other (for a machine with one core,
# or to time each lane alone).
set -uo pipefail
cd "$(dirname "$0")/.."

logs=target/test-logs
mkdir -p "$logs"
rm -f "$logs"/*.log "$logs"/*.times "$logs/cli-built" "$logs/checks-failed"

# step LANE NAME COMMAND…: runs the command, appends "NAME<TAB>seconds<TAB>rc" to LANE.times.
step() {
  local lane=$1 name=$2
  shift 2
  local start=$SECONDS
  printf '\n[%s] == %s: %s\n' "$lane" "$name" "$*"
  "$@"
  local rc=$?
  printf '%s\t%s\t%s\n' "$name" "$((SECONDS - start))" "$rc" >>"$logs/$lane.times"
  if [ "$rc" -ne 0 ]; then printf '[%s] FAILED: %s (exit %s)\n' "$lane" "$name" "$rc"; fi
  return "$rc"
}

# The code's habits (`make lint`): clippy with warnings as errors natively and for wasm32 (where
# the page, the workers and src/ui build), and the docs without a warning (every public item
# documented, every intra-doc link resolved). Formatting is checked first, by the caller.
lint_steps() {
  local lane=$1 ok=0
  step "$lane" clippy-native cargo clippy --all-targets --locked -- -D warnings || ok=1
  step "$lane" clippy-wasm32 cargo clippy --target wasm32-unknown-unknown --lib --bins --locked -- -D warnings || ok=1
  step "$lane" doc-native env RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --locked || ok=1
  step "$lane" doc-wasm32 env RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --locked --lib --target wasm32-unknown-unknown || ok=1
  return "$ok"
}

checks_lane() {
  local ok=0
  step checks fmt cargo fmt --all -- --check || ok=1
  step checks cli-build cargo build --locked --bin modality-advisor || ok=1
  # The browser lane waits for this file before its tests that run the CLI; written even when
  # the build failed, so that lane never waits forever (its CLI tests then fail and say so).
  : >"$logs/cli-built"
  lint_steps checks || ok=1
  step checks native-tests cargo test --locked || ok=1
  if [ "$ok" -ne 0 ]; then : >"$logs/checks-failed"; fi
  return "$ok"
}

browser_lane() {
  local ok=0
  step browser trunk-build trunk build --release || ok=1
  # Release binary of the CLI is not needed: the browser tests use target/debug's.
  while [ ! -e "$logs/cli-built" ]; do sleep 2; done
  if [ "$ok" -eq 0 ]; then
    step browser browser-tests bash -c 'cd tests/e2e && node --test --test-concurrency=1' || ok=1
  else
    printf '[browser] the release build failed: the browser tests need dist/, not run\n'
  fi
  return "$ok"
}

if [ "${1:-}" = lint ]; then
  lint_ok=0
  step lint fmt cargo fmt --all -- --check || lint_ok=1
  lint_steps lint || lint_ok=1
  exit "$lint_ok"
elif [ -n "${1:-}" ]; then
  printf 'usage: %s [lint]\n' "$0" >&2
  exit 2
fi

if [ "${MODALITY_ADVISOR_SERIAL:-0}" = 1 ]; then
  checks_lane 2>&1 | tee "$logs/checks.log"
  checks_rc=${PIPESTATUS[0]}
  browser_lane 2>&1 | tee "$logs/browser.log"
  browser_rc=${PIPESTATUS[0]}
else
  printf '[test] two lanes: the checks here; the release build and the browser suite in %s/browser.log (printed when done)\n' "$logs"
  browser_lane >"$logs/browser.log" 2>&1 &
  browser_pid=$!
  # If this script is interrupted, stop the browser lane too.
  trap 'pkill -TERM -P "$browser_pid" 2>/dev/null; kill "$browser_pid" 2>/dev/null; exit 130' INT TERM
  checks_lane 2>&1 | tee "$logs/checks.log"
  checks_rc=${PIPESTATUS[0]}
  wait "$browser_pid"
  browser_rc=$?
  printf '\n[test] ===== the browser lane (%s/browser.log) =====\n' "$logs"
  cat "$logs/browser.log"
fi

printf '\n[test] step times (seconds; the two lanes ran %s):\n' \
  "$([ "${MODALITY_ADVISOR_SERIAL:-0}" = 1 ] && echo 'one after the other' || echo 'side by side')"
for lane in checks browser; do
  [ -f "$logs/$lane.times" ] || continue
  while IFS=$'\t' read -r name secs rc; do
    printf '  %-8s %-15s %5s s%s\n' "$lane" "$name" "$secs" "$([ "$rc" = 0 ] || echo "  FAILED (exit $rc)")"
  done <"$logs/$lane.times"
done
printf '  total                    %5s s\n' "$SECONDS"

if [ "$checks_rc" -ne 0 ] || [ "$browser_rc" -ne 0 ]; then
  printf '[test] FAILED: checks exit %s, browser lane exit %s\n' "$checks_rc" "$browser_rc"
  exit 1
fi
printf '[test] all passed\n'
