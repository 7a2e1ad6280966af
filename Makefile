# The two commands a person needs: `make serve` and `make test`. Both install what is
# missing first (scripts/install-tools.sh skips what is already there).

.PHONY: serve test tools build build-dist lint test-native test-e2e clean

tools:
	@bash scripts/install-tools.sh

build: tools
	trunk build --release

# The same dist/, installing only what the build needs (no browser, no test tools): for a job
# that publishes the app (docs/ci/github-pages.yml).
build-dist:
	@bash scripts/install-tools.sh --build-only
	trunk build --release

# Builds and serves the app on http://127.0.0.1:8080 (rebuilds on change; reload the page
# yourself: Trunk's auto-reload script is inline, which the page's own CSP forbids).
serve: tools
	trunk serve --release --no-autoreload

# The code's habits, enforced: formatting, clippy with warnings as errors (natively, and for
# wasm32 where the page, the worker and src/ui build), and the docs without a warning (every
# public item documented: `#![deny(missing_docs)]`, every intra-doc link resolved). The
# commands are in scripts/test.sh, which `make test` runs too.
lint: tools
	@bash scripts/test.sh lint

# Every test: the habits above (the same commands as `lint`), native tests (domain, CLI,
# diagrams), the release build in real Chromium, and the size budget — in two lanes that keep
# both cores busy (scripts/test.sh says why; MODALITY_ADVISOR_SERIAL=1 runs them one after the
# other). Each step's time is printed at the end.
test: tools
	@bash scripts/test.sh

test-native:
	cargo test --locked

test-e2e: build
	cd tests/e2e && node --test --test-concurrency=1

clean:
	cargo clean
	rm -rf dist
