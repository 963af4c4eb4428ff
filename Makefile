# notif: `make run` sets up and starts notif; `make test` sets up and runs every test.
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
# One static executable (no dynamic loading at start; see Performance in the README), and
# generic types' metadata through direct accessors instead of demangling names at run time.
RELEASE := -c release --static-swift-stdlib -Xswiftc -static-executable -Xcc -DNOTIF_STATIC_EXECUTABLE \
	-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
RELEASE_BIN := .build/release/notif

# Debian packages: to build and run notif, and what its tests drive for real.
RUN_PACKAGES := libncursesw5-dev libc6-dev libnotify-bin tzdata cron curl
TEST_PACKAGES := $(RUN_PACKAGES) tmux faketime dbus dbus-bin xvfb dunst libglib2.0-bin systemd dbus-user-session libc-bin passwd util-linux procps desktop-file-utils python3 \
	python3-dbus python3-gi librsvg2-common lintian bash-completion zsh fish groff-base \
	xdotool x11-utils imagemagick xterm notification-daemon xfce4-notifyd xfconf mate-notification-daemon dconf-gsettings-backend
# `make desktops`: every desktop's notification server (GNOME Shell and Plasma are big: only here).
DESKTOP_PACKAGES := $(TEST_PACKAGES) lxqt-notificationd lxqt-qtplugin plasma-workspace plasma-desktop gnome-shell gjs \
	mako-notifier sway grim sway-notification-center wayvnc
# `make deb`: dpkg-deb (dpkg) builds it, lintian checks it.
DEB_PACKAGES := dpkg binutils lintian

SHOT_PACKAGES := xvfb xterm tmux imagemagick x11-utils fonts-dejavu-core
BENCH_PACKAGES := dialog hyperfine strace gcc python3 cron passwd util-linux dbus xvfb dunst libnotify-bin libglib2.0-bin

.PHONY: run test soak desktops build release install install-files uninstall deb man deps-run deps-test clean screenshots bench

run: deps-run release
	@$(RELEASE_BIN) $(ARGS)

# Zero warnings is a rule: the test build fails on any.
STRICT := -Xswiftc -warnings-as-errors

# The release build comes first: end-to-end tests of real schedulers, the package and the
# daemon's zone shift run the static binary, which libfaketime cannot reach.
test: deps-test
	$(SWIFT) build --build-tests $(STRICT)
	$(SWIFT) build $(RELEASE)
	@# Built from these sources just now, even when nothing needed relinking (the end-to-end
	@# tests refuse a release binary older than the debug build, which a reverted edit can relink).
	touch $(RELEASE_BIN)
	$(SWIFT) test --skip-build; status=$$?; scripts/cleanup-test-users; exit $$status
	scripts/check-release-zones $(RELEASE_BIN)

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
install-files:
	install -d -m 755 $(BINDIR) $(MANDIR) $(APPDIR) $(ICONDIR) $(BASHCOMPDIR) $(ZSHCOMPDIR) $(FISHCOMPDIR)
	install -m 755 $(RELEASE_BIN) $(BINDIR)/notif
	$(RELEASE_BIN) completion bash > $(BASHCOMPDIR)/notif.tmp && mv $(BASHCOMPDIR)/notif.tmp $(BASHCOMPDIR)/notif
	$(RELEASE_BIN) completion zsh > $(ZSHCOMPDIR)/_notif.tmp && mv $(ZSHCOMPDIR)/_notif.tmp $(ZSHCOMPDIR)/_notif
	$(RELEASE_BIN) completion fish > $(FISHCOMPDIR)/notif.fish.tmp && mv $(FISHCOMPDIR)/notif.fish.tmp $(FISHCOMPDIR)/notif.fish
	chmod 644 $(BASHCOMPDIR)/notif $(ZSHCOMPDIR)/_notif $(FISHCOMPDIR)/notif.fish
	install -m 644 doc/notif.1 $(MANDIR)/notif.1
	sed -e 's|^Exec=notif$$|Exec=$(BINDIR)/notif|' -e 's|^TryExec=notif$$|TryExec=$(BINDIR)/notif|' data/notif.desktop > $(APPDIR)/notif.desktop
	chmod 644 $(APPDIR)/notif.desktop
	install -m 644 data/notif.svg $(ICONDIR)/notif.svg

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

# dist/notif_VERSION_ARCH.deb with the static release binary, checked by lintian (errors fail).
deb: deps-run release
	@scripts/install-packages $(DEB_PACKAGES)
	scripts/build-deb $(RELEASE_BIN) dist
	lintian --fail-on error dist/notif_*_$$(dpkg --print-architecture).deb

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
