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
# public item documented: `#![deny(missing_docs)]`, every intra-doc link resolved).
lint: tools
	cargo fmt --all -- --check
	cargo clippy --all-targets --locked -- -D warnings
	cargo clippy --target wasm32-unknown-unknown --lib --bins --locked -- -D warnings
	RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --locked
	RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --locked --lib --target wasm32-unknown-unknown

# Every test: the habits above, native tests (domain, CLI, diagrams), then the release build in
# real Chromium, and the size budget.
test: lint
	cargo test --locked
	trunk build --release
	cd tests/e2e && node --test --test-concurrency=1

test-native:
	cargo test --locked

test-e2e: build
	cd tests/e2e && node --test --test-concurrency=1

clean:
	cargo clean
	rm -rf dist
