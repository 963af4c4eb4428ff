# notif: `make run` sets up and starts notif; `make test` sets up and runs every test.
SHELL := /bin/bash
SWIFT ?= swift
PREFIX ?= $(if $(filter 0,$(shell id -u)),/usr/local,$(HOME)/.local)
BINDIR := $(PREFIX)/bin
MANDIR := $(PREFIX)/share/man/man1
# One static executable (no dynamic loading at start; see Performance in the README), and
# generic types' metadata through direct accessors instead of demangling names at run time.
RELEASE := -c release --static-swift-stdlib -Xswiftc -static-executable -Xcc -DNOTIF_STATIC_EXECUTABLE \
	-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
RELEASE_BIN := .build/release/notif

# Debian packages: to build and run notif, and what its tests drive for real.
RUN_PACKAGES := libncursesw5-dev libc6-dev libnotify-bin tzdata cron curl
TEST_PACKAGES := $(RUN_PACKAGES) tmux faketime dbus dbus-bin xvfb dunst libglib2.0-bin systemd dbus-user-session libc-bin passwd util-linux procps desktop-file-utils python3

SHOT_PACKAGES := xvfb xterm tmux imagemagick x11-utils fonts-dejavu-core
BENCH_PACKAGES := dialog hyperfine strace gcc python3 cron passwd util-linux

.PHONY: run test soak build release install uninstall deps-run deps-test clean screenshots bench

run: deps-run release
	@$(RELEASE_BIN) $(ARGS)

# Zero warnings is a rule: the test build fails on any.
STRICT := -Xswiftc -warnings-as-errors

# The release binary is built before the tests: the end-to-end tests of real schedulers run it.
test: deps-test
	$(SWIFT) build --build-tests $(STRICT)
	$(SWIFT) build $(RELEASE)
	$(SWIFT) test --skip-build; status=$$?; scripts/cleanup-test-users; exit $$status
	scripts/check-release-zones $(RELEASE_BIN)

# The long versions of the reliability suites (kills, fuzzing, concurrency): not part of `make test`.
soak: deps-test
	$(SWIFT) build --build-tests $(STRICT)
	NOTIF_SOAK=1 $(SWIFT) test --skip-build --filter 'Reliability|CrashSafety|Concurrency|TerminalReliability|PageFuzz|KeyFuzz'; status=$$?; \
	  scripts/cleanup-test-users; exit $$status

build:
	@scripts/require-swift
	$(SWIFT) build

release:
	@scripts/require-swift
	$(SWIFT) build $(RELEASE)

install: deps-run release
	install -d -m 755 $(BINDIR) $(MANDIR)
	install -m 755 $(RELEASE_BIN) $(BINDIR)/notif
	install -m 644 doc/notif.1 $(MANDIR)/notif.1
	@echo "Installed $(BINDIR)/notif. Run \`$(BINDIR)/notif apply\` so scheduled entries use it."

uninstall:
	rm -f $(BINDIR)/notif $(MANDIR)/notif.1

deps-run:
	@scripts/require-swift
	@scripts/install-packages $(RUN_PACKAGES)

deps-test:
	@scripts/require-swift
	@scripts/install-packages $(TEST_PACKAGES)

screenshots: release
	@scripts/install-packages $(SHOT_PACKAGES)
	scripts/screenshots

bench: deps-run release
	@scripts/install-packages $(BENCH_PACKAGES)
	mkdir -p .build/bench
	gcc -O2 -Wall -o .build/bench/ptydrive bench/ptydrive.c -lutil
	python3 bench/run.py

clean:
	rm -rf .build
