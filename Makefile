# notif: `make run` sets up and starts notif; `make test` sets up and runs every test;
# `make check` runs the unit tests alone.
SHELL := /bin/bash
SWIFT ?= swift
PREFIX ?= $(if $(filter 0,$(shell id -u)),/usr/local,$(HOME)/.local)
BINDIR := $(PREFIX)/bin
MANDIR := $(PREFIX)/share/man/man1
APPDIR := $(PREFIX)/share/applications
ICONDIR := $(PREFIX)/share/icons/hicolor/scalable/apps
# Shell completions, where bash-completion, zsh and fish look for them (Debian's places).
BASHCOMPDIR := $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR := $(PREFIX)/share/zsh/vendor-completions
FISHCOMPDIR := $(PREFIX)/share/fish/vendor_completions.d
# The Swift runtime linked in (Debian has no package of it); glibc, ncurses and every other
# C library Debian ships are linked dynamically, so their security updates reach notif. Generic
# types' metadata through direct accessors instead of demangling names at run time.
# Debian's default hardening (read-only relocations; fortified, stack-protected C) and a build
# id, which the package's debug symbols are found by; no $ORIGIN search path (every library is
# the system's, and each lookup there cost a failed open per library at start).
RELEASE := -c release --static-swift-stdlib --disable-local-rpath \
	-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
	-Xlinker --build-id=sha1 -Xlinker -z -Xlinker relro \
	-Xcc -D_FORTIFY_SOURCE=2 -Xcc -fstack-protector-strong
RELEASE_BIN := .build/release/notif

# Debian packages: to build and run notif, and what its tests drive for real.
RUN_PACKAGES := libncursesw5-dev libc6-dev tzdata cron curl
# `make deb`: dpkg-buildpackage builds it with debhelper, lintian checks it.
DEB_PACKAGES := dpkg-dev debhelper libncurses-dev lintian binutils
TEST_PACKAGES := $(RUN_PACKAGES) tmux faketime dbus dbus-bin xvfb dunst libglib2.0-bin systemd dbus-user-session libc-bin passwd util-linux procps desktop-file-utils python3 \
	python3-dbus python3-gi librsvg2-common bash-completion zsh fish groff-base libnss-extrausers git nano vim jq \
	xdotool x11-utils imagemagick xterm notification-daemon xfce4-notifyd xfconf mate-notification-daemon dconf-gsettings-backend \
	$(DEB_PACKAGES)
# `make desktops`: every desktop's notification server (GNOME Shell and Plasma are big: only here).
DESKTOP_PACKAGES := $(TEST_PACKAGES) lxqt-notificationd lxqt-qtplugin plasma-workspace plasma-desktop gnome-shell gjs \
	mako-notifier sway grim sway-notification-center wayvnc

SHOT_PACKAGES := xvfb xterm tmux imagemagick x11-utils fonts-dejavu-core
BENCH_PACKAGES := dialog hyperfine strace gcc python3 cron passwd util-linux dbus xvfb dunst libnotify-bin libglib2.0-bin

.PHONY: run test check soak desktops build release install install-files uninstall deb deb-build man deps-run deps-test clean screenshots bench

run: deps-run release
	@$(RELEASE_BIN) $(ARGS)

# Zero warnings is a rule: the test build fails on any.
STRICT := -Xswiftc -warnings-as-errors

# The release build and its package come first: end-to-end tests of real schedulers and the
# daemon's zone shift run the release binary, the package tests install dist/'s package.
test: deps-test
	$(SWIFT) build --build-tests $(STRICT)
	$(SWIFT) build $(RELEASE)
	@# Built from these sources just now, even when nothing needed relinking (the end-to-end
	@# tests refuse a release binary older than the debug build, which a reverted edit can relink).
	touch $(RELEASE_BIN)
	$(MAKE) deb-build DEB_BUILD_FLAGS=-nc
	$(SWIFT) test --skip-build; status=$$?; scripts/cleanup-test-users; exit $$status
	scripts/check-release-zones $(RELEASE_BIN)

# The unit tests alone: the pure modules' suites, which start no servers, tmux or throwaway
# users and need no root (a minute or less on 2 cores after a build). `make test` runs them too.
UNIT_SUITES := SharedLogicTests|StorageTests|SettingsUITests|CommandLineInterfaceTests|CursesTerminalTests
check: deps-run
	$(SWIFT) build --build-tests $(STRICT)
	$(SWIFT) test --skip-build --filter '^($(UNIT_SUITES))\.'

# The long versions of the reliability suites (kills, fuzzing, concurrency): not part of `make test`.
soak: deps-test
	$(SWIFT) build --build-tests $(STRICT)
	NOTIF_SOAK=1 $(SWIFT) test --skip-build --filter 'Reliability|CrashSafety|Concurrency|TerminalReliability|PageFuzz|KeyFuzz'; status=$$?; \
	  scripts/cleanup-test-users; exit $$status

# The reminder and `notif test` on each desktop's notification server; writes doc/desktops.md.
desktops:
	@scripts/require-swift
	@scripts/install-packages $(DESKTOP_PACKAGES)
	$(SWIFT) build --build-tests $(STRICT)
	$(SWIFT) build $(RELEASE)
	touch $(RELEASE_BIN)
	scripts/desktops; status=$$?; scripts/cleanup-test-users; exit $$status

build:
	@scripts/require-swift
	$(SWIFT) build

release:
	@scripts/require-swift
	$(SWIFT) build $(RELEASE)

install: deps-run release install-files
	@echo "Installed $(BINDIR)/notif. Run \`$(BINDIR)/notif apply\` so scheduled entries use it."

# What `make install` copies, without building: the program, its man page, the desktop entry
# (run by absolute path), the icon and the shell completions (printed by the program itself).
# DESTDIR stages them elsewhere (debian/rules puts them in the package with PREFIX=/usr).
install-files:
	install -d -m 755 $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(APPDIR) $(DESTDIR)$(ICONDIR) \
	  $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	install -m 755 $(RELEASE_BIN) $(DESTDIR)$(BINDIR)/notif
	$(RELEASE_BIN) completion bash > $(DESTDIR)$(BASHCOMPDIR)/notif.tmp && mv $(DESTDIR)$(BASHCOMPDIR)/notif.tmp $(DESTDIR)$(BASHCOMPDIR)/notif
	$(RELEASE_BIN) completion zsh > $(DESTDIR)$(ZSHCOMPDIR)/_notif.tmp && mv $(DESTDIR)$(ZSHCOMPDIR)/_notif.tmp $(DESTDIR)$(ZSHCOMPDIR)/_notif
	$(RELEASE_BIN) completion fish > $(DESTDIR)$(FISHCOMPDIR)/notif.fish.tmp && mv $(DESTDIR)$(FISHCOMPDIR)/notif.fish.tmp $(DESTDIR)$(FISHCOMPDIR)/notif.fish
	chmod 644 $(DESTDIR)$(BASHCOMPDIR)/notif $(DESTDIR)$(ZSHCOMPDIR)/_notif $(DESTDIR)$(FISHCOMPDIR)/notif.fish
	install -m 644 doc/notif.1 $(DESTDIR)$(MANDIR)/notif.1
	sed -e 's|^Exec=notif$$|Exec=$(BINDIR)/notif|' -e 's|^TryExec=notif$$|TryExec=$(BINDIR)/notif|' data/notif.desktop > $(DESTDIR)$(APPDIR)/notif.desktop
	chmod 644 $(DESTDIR)$(APPDIR)/notif.desktop
	install -m 644 data/notif.svg $(DESTDIR)$(ICONDIR)/notif.svg

# Run `notif reset --entries` first (as each user of notif), so no scheduled entry is left behind.
uninstall:
	rm -f $(BINDIR)/notif $(MANDIR)/notif.1 $(APPDIR)/notif.desktop $(ICONDIR)/notif.svg \
	  $(BASHCOMPDIR)/notif $(ZSHCOMPDIR)/_notif $(FISHCOMPDIR)/notif.fish

# doc/notif.1 from the command-line declaration (CommandLineInterface); a test fails when the
# checked-in page differs, so run this after changing a command, option or setting.
man:
	@scripts/require-swift
	$(SWIFT) build --product notif-manual
	$(SWIFT) run --skip-build notif-manual > doc/notif.1.tmp && mv doc/notif.1.tmp doc/notif.1

# dist/notif_VERSION_ARCH.deb (and notif-dbgsym) from the source package in debian/, checked
# by lintian: any error or warning fails. DEB_BUILD_FLAGS=-nc skips the clean first, so an
# existing release build is packaged as it is (`make test` does that).
VERSION = $(shell sed -n '1s/^notif (\(.*\)).*/\1/p' debian/changelog)
ARCH = $(shell dpkg --print-architecture)
DEB_FILES = notif_$(VERSION)_$(ARCH).deb notif-dbgsym_$(VERSION)_$(ARCH).deb notif_$(VERSION)_$(ARCH).buildinfo notif_$(VERSION)_$(ARCH).changes
deb: deb-build
	lintian --fail-on error,warning dist/notif_$(VERSION)_$(ARCH).changes

deb-build: deps-run
	@scripts/install-packages $(DEB_PACKAGES)
	dpkg-buildpackage -us -uc -b $(DEB_BUILD_FLAGS)
	mkdir -p dist
	cd .. && mv $(DEB_FILES) $(CURDIR)/dist/

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
	rm -rf .build dist
