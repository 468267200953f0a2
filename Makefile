# AlbumKit — build, test, demo. `make help` lists the targets.
SWIFT ?= swift
BIN := .build/debug/albumkit

.PHONY: help setup build test demo bundles bench bench-quick postgres postgres-stop clean example

help:
	@echo "make setup      install the Debian packages the build needs (apt)"
	@echo "make demo       build, then init the default library from the starter, list, add, remove, undo, export"
	@echo "make test       build and run every test"
	@echo "make bundles    regenerate Bundles/starter and Bundles/starter.tar.gz"
	@echo "make bench      release build, then every benchmark side by side with the standard tools: writes BENCHMARKS.md"
	@echo "make bench-quick  every benchmark at small sizes on the debug build (CI smoke test; writes nothing in the tree)"
	@echo "make postgres   start a throwaway PostgreSQL server on 127.0.0.1 for the backend tests"
	@echo "make example    build Examples/custom-albumkit (its own albumkit with its own adapters) and run it"
	@echo "make clean      remove build products"

setup:
	scripts/install-deps.sh

build:
	$(SWIFT) build --product albumkit

test:
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# The main job on the embedded default library ($$XDG_DATA_HOME/albumkit or ~/.local/share/albumkit).
demo: build
	@if $(BIN) list >/dev/null 2>&1; then echo "(the default library exists; using it as it is)"; else $(BIN) init --starter; fi
	$(BIN) list
	$(BIN) add --title "Low" --artist "David Bowie" --genre "Art rock" --year 1977 --at 2
	$(BIN) list
	$(BIN) remove 2
	$(BIN) undo
	$(BIN) list
	$(BIN) export albumkit-demo-export.tar.gz
	@echo "demo finished: a backup bundle of the library is in albumkit-demo-export.tar.gz (albumkit restore brings it back)"

# Bundles/starter (covers drawn by the script) and Bundles/starter.tar.gz, byte-for-byte reproducible.
bundles:
	python3 Bundles/make-starter.py Bundles/starter
	tar --owner=0 --group=0 --numeric-owner --mtime='2026-11-22 00:00Z' -C Bundles/starter -cf - manifest.json albums.json $$(cd Bundles/starter && ls covers/* | sort) checksums.sha256 | gzip -n -9 > Bundles/starter.tar.gz

# Benchmarks/run.py: corpus and scratch in $${TMPDIR:-/tmp}/albumkit-bench; BENCH_SCRATCH picks the build folder.
BENCH_SCRATCH ?= .build
bench:
	$(SWIFT) build -c release --scratch-path $(BENCH_SCRATCH)
	python3 Benchmarks/run.py --bin $(BENCH_SCRATCH)/release

bench-quick:
	$(SWIFT) build --scratch-path $(BENCH_SCRATCH)
	python3 Benchmarks/run.py --quick --bin $(BENCH_SCRATCH)/debug

postgres:
	scripts/postgres-server.sh start

postgres-stop:
	scripts/postgres-server.sh stop

clean:
	rm -rf .build Examples/custom-albumkit/.build albumkit-demo-export.tar.gz

# An outside package's own albumkit (Examples/custom-albumkit, its build in its own .build there):
# an import through its source, its stage in `pipeline show` and the albums, its cover fetcher.
example:
	$(SWIFT) build --package-path Examples/custom-albumkit --product my-albumkit
	Examples/custom-albumkit/demo.sh
