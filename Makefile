# The two commands a person needs: `make serve` and `make test`. Both install what is
# missing first (scripts/install-tools.sh skips what is already there).

.PHONY: serve test tools build test-native test-e2e clean

tools:
	@bash scripts/install-tools.sh

build: tools
	trunk build --release

# Builds and serves the app on http://127.0.0.1:8080 (rebuilds on change; reload the page
# yourself: Trunk's auto-reload script is inline, which the page's own CSP forbids).
serve: tools
	trunk serve --release --no-autoreload

# Every test: native (domain, CLI, diagrams), then the release build in real Chromium, and
# the size budget.
test: tools
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
