# AlbumKit — build, test, demo. `make help` lists the targets.
SWIFT ?= swift
BIN := .build/debug/albumkit
# What users run: optimised, with the Swift runtime and Foundation linked in (a process starts
# in about 12 ms instead of 18: no dynamic symbol lookup through the Swift libraries), by lld,
# which packs the 150 000 relative relocations of such a binary (DT_RELR, glibc 2.36), and with
# no dynamic symbol table for the whole program (--static-swift-stdlib asks -export-dynamic;
# nothing looks our symbols up). A process then maps 8 MB less and starts 1 ms sooner.
# Packed relocations need glibc 2.36 or later where the binary runs; older systems (Ubuntu
# 22.04, RHEL 9) get them unpacked.
PACKED_RELOCS := $(shell getconf GNU_LIBC_VERSION 2>/dev/null | awk '{ split($$2, v, "."); if (v[1] > 2 || (v[1] == 2 && v[2] >= 36)) print "-Xlinker -z -Xlinker pack-relative-relocs" }')
STATIC_LINK := --static-swift-stdlib -Xswiftc -use-ld=lld -Xlinker --no-export-dynamic $(PACKED_RELOCS)
# The functions the commands run laid out together, first (scripts/symbol-order/make-order.py;
# `make symbol-order` writes the list again): each Swift function in a section of its own, placed
# by the list. A process maps its code a 64 KiB window around each page it runs, so scattered,
# the 1.3 MB an import runs kept 15 MB of the binary resident; laid out, 7 MB less (import of
# 100 000 albums), 5 MB less for `list` or `show`. A function the list does not know keeps its
# place after those it does: an outdated list costs memory, never correctness.
SYMBOL_ORDER := $(CURDIR)/scripts/symbol-order/albumkit.order
ORDERED_CODE := -Xswiftc -Xfrontend -Xswiftc -function-sections -Xlinker --symbol-ordering-file=$(SYMBOL_ORDER) -Xlinker --no-warn-symbol-ordering
RELEASE := -c release $(STATIC_LINK) $(ORDERED_CODE)

.PHONY: help setup build test swift-test demo bundles bench bench-tools bench-quick bench-scale postgres postgres-stop clean install uninstall browser-test soak bench-fleet fuzz fuzz-ci example sanitizers symbol-order

help:
	@echo "make setup      install the Debian packages the build needs (apt)"
	@echo "make demo       build, then init the default library from the starter, list, add, remove, undo, export"
	@echo "make test       build and run every test (the Swift tests, then browser-test); starts the throwaway PostgreSQL unless ALBUMKIT_TEST_POSTGRES_URL is set"
	@echo "make swift-test build and run the Swift tests"
	@echo "make browser-test  the serve tests: JSON API against the binary, the page in headless Chromium (Tests/Browser)"
	@echo "make soak       10 minutes of steady API load on a release serve of 100 000 albums in sqlite: RSS, leak check, p99 per method"
	@echo "make bench-fleet  three release serve hosts over 1 000 000 albums in PostgreSQL, wrk on all at once, changes across hosts"
	@echo "make bundles    regenerate Bundles/starter and Bundles/starter.tar.gz"
	@echo "make bench      release build, then every benchmark side by side with the standard tools: writes BENCHMARKS.md"
	@echo "make bench-tools  build the release albumkit, albumkit-bench and storage-bench the benchmarks run"
	@echo "make bench-quick  every benchmark at small sizes on the debug build (CI smoke test; writes nothing in the tree)"
	@echo "make bench-scale  make bench plus 100 000-album libraries (import, commands, export): writes BENCHMARKS.md"
	@echo "make symbol-order  profile the release albumkit's commands (valgrind) and write the order its code is laid out in"
	@echo "make postgres   start a throwaway PostgreSQL server on 127.0.0.1 for the backend tests"
	@echo "make example    build Examples/custom-albumkit (its own albumkit with its own adapters) and run it"
	@echo "make torture   kill -9 albumkit at random moments (json, sqlite, postgres) and on a full disk, then check the library"
	@echo "make torture-ci  a short torture: 12 kills on json and sqlite"
	@echo "make clean      remove build products"
	@echo "make install    build (CONFIG=release) and install albumkit, its man page and bash/zsh/fish completions under DESTDIR/PREFIX (/usr/local)"
	@echo "make uninstall  remove what make install installed"
	@echo "make fuzz       build the libFuzzer targets (Fuzz/) and run each for 1 000 000 executions"
	@echo "make fuzz-ci    the same, 20 seconds per target (CI)"
	@echo "make sanitizers the Swift tests under AddressSanitizer and ThreadSanitizer, the serve tests with leak checks (about an hour)"

setup:
	scripts/install-deps.sh

build:
	$(SWIFT) build --product albumkit

# Against ALBUMKIT_TEST_POSTGRES_URL when it is set; else against the project's throwaway
# PostgreSQL server, started for the tests and stopped after, so that no suite is skipped.
test:
	scripts/postgres-server.sh run $(MAKE) swift-test browser-test

swift-test:
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# The serve tests (Tests/Browser, pytest + Playwright on Debian's chromium); artifacts in .build/test-artifacts.
browser-test:
	$(SWIFT) build --product albumkit
	python3 -m pytest -q Tests/Browser

soak:
	$(SWIFT) build $(RELEASE) --product albumkit --scratch-path $(BENCH_SCRATCH)
	python3 Benchmarks/serve_soak.py --bin $(BENCH_SCRATCH)/release --minutes 10 --albums 100000

bench-fleet:
	$(SWIFT) build $(RELEASE) --product albumkit --scratch-path $(BENCH_SCRATCH)
	python3 Benchmarks/serve_fleet.py --bin $(BENCH_SCRATCH)/release

# The main job on the embedded default library ($$XDG_DATA_HOME/albumkit or ~/.local/share/albumkit).
demo: build
	@if $(BIN) list >/dev/null 2>&1; then echo "(the default library exists; using it as it is)"; else $(BIN) init --starter; fi
	$(BIN) list
	@if $(BIN) show "title:Low" >/dev/null 2>&1; then echo "(Low is in the library from an earlier demo; not added again)"; else echo '$(BIN) add --title "Low" ...'; $(BIN) add --title "Low" --artist "David Bowie" --genre "Art rock" --year 1977 --at 2; fi
	$(BIN) list
	$(BIN) remove 2
	$(BIN) undo
	$(BIN) list
	$(BIN) export --force albumkit-demo-export.tar.gz
	@echo "demo finished: a backup bundle of the library is in albumkit-demo-export.tar.gz (albumkit restore brings it back; the next demo replaces it)"

# Bundles/starter (covers drawn by the script) and Bundles/starter.tar.gz, byte-for-byte reproducible.
bundles:
	python3 Bundles/make-starter.py Bundles/starter
	tar --owner=0 --group=0 --numeric-owner --mtime='2026-11-22 00:00Z' -C Bundles/starter -cf - manifest.json albums.json $$(cd Bundles/starter && ls covers/* | sort) checksums.sha256 | gzip -n -9 > Bundles/starter.tar.gz

# Benchmarks/run.py: corpus and scratch in $${TMPDIR:-/tmp}/albumkit-bench; BENCH_SCRATCH picks the build folder.
# The release tools the benchmarks run, built one product at a time: linked as RELEASE links,
# a dependency's dynamic library product (libGRDB-dynamic.so) finds no static Foundation.
BENCH_SCRATCH ?= .build
BENCH_TOOLS := albumkit albumkit-bench storage-bench
bench-tools:
	for product in $(BENCH_TOOLS); do $(SWIFT) build $(RELEASE) --scratch-path $(BENCH_SCRATCH) --product $$product || exit 1; done

bench: bench-tools
	python3 Benchmarks/run.py --bin $(BENCH_SCRATCH)/release

# The release albumkit's functions in the order its commands first run them, written again
# from the code as it is now, then the binary linked with it.
symbol-order:
	$(SWIFT) build $(RELEASE) --scratch-path $(BENCH_SCRATCH) --product albumkit
	python3 scripts/symbol-order/make-order.py $(BENCH_SCRATCH)/release/albumkit $(SYMBOL_ORDER)
	rm -f $(BENCH_SCRATCH)/release/albumkit
	$(SWIFT) build $(RELEASE) --scratch-path $(BENCH_SCRATCH) --product albumkit

bench-quick:
	$(SWIFT) build --scratch-path $(BENCH_SCRATCH)
	python3 Benchmarks/run.py --quick --bin $(BENCH_SCRATCH)/debug

bench-scale: bench-tools
	python3 Benchmarks/run.py --scale --bin $(BENCH_SCRATCH)/release

postgres:
	scripts/postgres-server.sh start

postgres-stop:
	scripts/postgres-server.sh stop

clean:
	rm -rf .build Fuzz/.build Examples/custom-albumkit/.build albumkit-demo-export.tar.gz

# The binary, a man page generated from the commands (swift-argument-parser's generate-manual
# plugin; the page does not depend on CONFIG, so it comes from the everyday debug build) and
# the completion scripts the binary writes itself.
PREFIX ?= /usr/local
DESTDIR ?=
CONFIG ?= release
MAN_PAGE := .build/plugins/GenerateManual/outputs/albumkit/albumkit.1
INSTALLED := $(DESTDIR)$(PREFIX)
install:
	$(SWIFT) build -c $(CONFIG) $(STATIC_LINK) $(ORDERED_CODE) --product albumkit
	$(SWIFT) package plugin generate-manual --configuration debug
	install -d $(INSTALLED)/bin $(INSTALLED)/share/man/man1 $(INSTALLED)/share/bash-completion/completions \
		$(INSTALLED)/share/zsh/site-functions $(INSTALLED)/share/fish/vendor_completions.d
	install -m 755 .build/$(CONFIG)/albumkit $(INSTALLED)/bin/albumkit
	install -m 644 $(MAN_PAGE) $(INSTALLED)/share/man/man1/albumkit.1
	.build/$(CONFIG)/albumkit --generate-completion-script bash > $(INSTALLED)/share/bash-completion/completions/albumkit
	.build/$(CONFIG)/albumkit --generate-completion-script zsh > $(INSTALLED)/share/zsh/site-functions/_albumkit
	.build/$(CONFIG)/albumkit --generate-completion-script fish > $(INSTALLED)/share/fish/vendor_completions.d/albumkit.fish

uninstall:
	rm -f $(INSTALLED)/bin/albumkit $(INSTALLED)/share/man/man1/albumkit.1 $(INSTALLED)/share/bash-completion/completions/albumkit \
		$(INSTALLED)/share/zsh/site-functions/_albumkit $(INSTALLED)/share/fish/vendor_completions.d/albumkit.fish

# libFuzzer targets over every input reader (Fuzz/README.md); findings land in Fuzz/.build/artifacts.
fuzz:
	Fuzz/run.sh --runs 1000000

fuzz-ci:
	Fuzz/run.sh --seconds 20

# The Swift tests under AddressSanitizer, then under ThreadSanitizer, each in a build folder of
# its own, and the serve tests against the address-sanitized albumkit with leak checks on; the
# albumkit runs the Swift tests start get the same options. Reports land in .build/sanitizers;
# scripts/sanitizers says why what is suppressed is, and RELIABILITY.md has the last results.
# Skipped: the audio memory bound (64 MB), which the sanitizers' shadow memory alone passes, the
# allocator thresholds (the sanitizers' allocators ignore mallopt, and their runtime must be
# loaded before a preloaded one), and under ThreadSanitizer the
# failed-save test, whose `ulimit -f 1` makes the runtime fault (SIGBUS).
SANITIZER_REPORTS := $(CURDIR)/.build/sanitizers
sanitizers:
	mkdir -p $(SANITIZER_REPORTS)
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	ASAN_OPTIONS=detect_leaks=0:log_path=$(SANITIZER_REPORTS)/asan $(SWIFT) test --skip-build --sanitize=address \
		--scratch-path .build-asan --skip 'fiveThousandTracksMakeOneAlbumInBoundedMemory|glibcTakesTheThresholds|theBinarySetsTheThresholdsWhenItStarts'
	ALBUMKIT_BIN=$(CURDIR)/.build-asan/debug/albumkit python3 -m pytest -q Tests/Browser
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	TSAN_OPTIONS=log_path=$(SANITIZER_REPORTS)/tsan:suppressions=$(CURDIR)/scripts/sanitizers/tsan.supp \
		$(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan \
		--skip 'fiveThousandTracksMakeOneAlbumInBoundedMemory|aSaveThatCannotWriteTheLibraryLeavesNoStepBehind|glibcTakesTheThresholds|theBinarySetsTheThresholdsWhenItStarts'

# An outside package's own albumkit (Examples/custom-albumkit, its build in its own .build there):
# an import through its source, its stage in `pipeline show` and the albums, its cover fetcher.
example:
	$(SWIFT) build --package-path Examples/custom-albumkit --product my-albumkit
	Examples/custom-albumkit/demo.sh

# Fault injection (scripts/torture): kill -9 at random moments across import, export, restore,
# migrate, covers fetch and add on json, sqlite (and postgres when ALBUMKIT_TEST_POSTGRES_URL
# is set), then the full-disk cases on a small tmpfs (root only). TORTURE_ARGS adds options
# (--seed S to replay a run). torture-ci: 12 kills on json and sqlite, no full disk.
TORTURE_ARGS ?=
.PHONY: torture torture-ci
torture: build
	python3 scripts/torture/torture.py --bin $(BIN) $(TORTURE_ARGS)

torture-ci: build
	python3 scripts/torture/torture.py --bin $(BIN) --runs 12 --backends json,sqlite --albums 60 --no-full-disk $(TORTURE_ARGS)
