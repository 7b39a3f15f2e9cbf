# One entry point for what CI runs. `make test` is the README's test command: it sets up
# everything it needs (the Python test tools, clippy, GNU Go and cairo) and then runs
# every check. `.ci/run` calls exactly `make test`.
.PHONY: setup system-deps build test test-rust lint stubtest test-python bench bench-rust bench-python

PYTHON ?= python3
# Debian installs GNU Go, the engine the GTP tests and docs play against, in /usr/games.
export PATH := $(PATH):/usr/games

setup: system-deps
	$(PYTHON) -m pip install --quiet --upgrade pip "maturin>=1.7,<2"
	$(PYTHON) -m pip install --quiet --no-build-isolation -e ".[test]"
	rustup component add clippy rustfmt

# Debian packages: GNU Go (a real GTP peer) and the cairo library (PNG boards).
system-deps:
	@if command -v gnugo >/dev/null && ldconfig -p | grep -q libcairo.so.2; then :; \
	elif [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq gnugo libcairo2 >/dev/null; \
	elif sudo -n true 2>/dev/null; then sudo apt-get update -qq && sudo apt-get install -y -qq gnugo libcairo2 >/dev/null; \
	else echo "make: install gnugo and libcairo2 (Debian) as root; their tests are skipped without them" >&2; fi

build:
	$(PYTHON) -m pip install --no-deps --no-build-isolation -e .

test: setup test-rust lint stubtest test-python

# The criterion benches run once each in test mode, so a broken benchmark fails here.
# The status tests run once more with debug assertions (the `checked` profile), which
# check every static claim against the exhaustive search wherever it finishes.
test-rust:
	cargo test --workspace --release
	cargo test --workspace --release --benches
	cargo test -p ikeda-core --profile checked status

lint:
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings
	$(PYTHON) -m mypy

stubtest:
	$(PYTHON) -m mypy.stubtest ikeda._core

# tests/, the README's and docs' examples, docstring examples, and every Python benchmark
# once without timing (they assert their answers): see pyproject.toml's pytest settings.
test-python:
	$(PYTHON) -m pytest -q

bench: bench-rust bench-python

bench-rust:
	cargo bench -p ikeda-core

bench-python:
	$(PYTHON) -m pytest benches/python --benchmark-enable --benchmark-only --benchmark-columns=mean,ops,rounds -q
