# One entry point for what CI runs. `make test` is the README's test command.
.PHONY: build test test-rust lint stubtest test-python bench bench-rust bench-python

build:
	pip install --no-deps --no-build-isolation -e .

test: test-rust lint build stubtest test-python

test-rust:
	cargo test --workspace --release

lint:
	cargo clippy --workspace --all-targets -- -D warnings
	python -m mypy

stubtest:
	python -m mypy.stubtest ikeda._core

test-python:
	python -m pytest -q

bench: bench-rust bench-python

bench-rust:
	cargo bench -p ikeda-core

bench-python:
	python -m pytest benches/python --benchmark-only --benchmark-columns=mean,ops,rounds -q
