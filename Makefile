# rocectl — one multi-call binary. Targets:
#   all (default)  build build/rocectl
#   deps           install the Debian packages needed to build and test
#   check          deps, build, hdr-check, unit tests, package tests, lab tests, and the
#                  unit and CLI tests on an ASan+UBSan build (hardening.bats on both builds)
#   demo           deps, build, then rocectl's main job in the Soft-RoCE lab
#   unit cli asan  the parts of check; lab-check lab-shell: see tests/lab
#   hdr-check      every header compiles on its own (part of check)
#   fuzz           each libFuzzer harness of tests/fuzz for FUZZ_SECS (60) seconds
#   fuzz-smoke     each harness for 3 seconds on its seeds (part of check)
#   check-fast     build, unit, CLI, each harness over its corpus: before every commit
#   install        PREFIX=/usr/local DESTDIR= (DOCDIR: the Prometheus rules)
#   deb rpm        the Debian package and the RPM (in $(BUILD)/pkg); pkg-check tests the .deb
# V=1 shows the commands (compiler lines, apt's output); by default one line a step.
VERSION := 0.1.0
BUILD ?= build
PREFIX ?= /usr/local
DESTDIR ?=
# rocectl reads /etc/rocectl.conf whatever the PREFIX.
SYSCONFDIR ?= /etc
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
# prometheus/rocectl.rules.yml and the Grafana dashboard (grafana/rocectl.json) go beside
# the README, as the packages put them.
DOCDIR ?= $(PREFIX)/share/doc/rocectl

# lldpctl gives its header only: lib/lldp_collect.c loads liblldpctl at run
# time, where lldpd runs (Debian ships the library in the lldpd package).
PKGS_LINKED := libibverbs librdmacm libmnl libnl-3.0 libnl-route-3.0 libcjson libpcap
PKGS := $(PKGS_LINKED) lldpctl

# Debian 12 packages: build, unit and CLI tests (the lab adds its own).
# prometheus ships promtool, which checks every metric rocectl writes and
# tests the rules of prometheus/; node_exporter's textfile collector and
# Icinga 2's config check run in tests/cli/monitoring.bats, Nagios 4's in
# tests/cli/man-examples.bats (installed, never started: scripts/install-packages
# refuses daemons a start); curl scrapes.
# devscripts brings Debian's hardening-check (tests/cli/hardening.bats).
# chromium renders the -o html report headless (tests/cli/html.bats).
DEB_BUILD := build-essential pkg-config libibverbs-dev librdmacm-dev \
	libmnl-dev libnl-3-dev libnl-route-3-dev libcjson-dev liblldpctl-dev libpcap0.8-dev linux-libc-dev \
	libcmocka-dev bats bats-assert bats-support jq groff-base bash-completion \
	util-linux iproute2 strace python3 prometheus python3-prometheus-client \
	prometheus-node-exporter icinga2-bin nagios4-core curl systemd \
	clang libclang-rt-14-dev pdsh clustershell ansible-core sudo devscripts parallel \
	chromium

# Quiet by default, kernel style: "  CC      lib/foo.o"; V=1 prints the commands.
# V is exported for scripts/install-packages and tests/lab/lab (apt's output).
V ?= 0
export V
ifeq ($(V),1)
Q :=
msg =
else
Q := @
msg = @printf '  %-7s %s\n' '$(1)' '$(patsubst $(BUILD)/%,%,$(2))'
MAKEFLAGS += --no-print-directory
endif

CC ?= cc
CFLAGS ?= -O2 -g
# snprintf truncation of names is deliberate (bounded model strings).
WARN := -Wall -Wextra -Wformat=2 -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wno-unused-parameter -Wno-format-truncation
# The project's own warnings are errors in every build, not only in CI: a
# warning left in the tree is a bug nobody reads. WERROR= turns that off for a
# compiler newer than Debian 12's gcc 12 that warns where it did not.
WERROR ?= -Werror
WARN += $(WERROR)
# Hardened like Debian's and Fedora's package builds (dpkg-buildflags
# hardening=+all), also for 'make' and 'make install' from source, whatever
# CFLAGS says: the binary holds the network-facing serve. _FORTIFY_SOURCE needs
# optimisation (CFLAGS' default -O2) and is left out under ASan, whose
# interceptors the fortified wrappers would bypass. tests/cli/hardening.bats
# reads the result from the ELF file.
HARDEN_CFLAGS := -fstack-protector-strong -fstack-clash-protection -fPIE
# Control-flow protection (Intel CET: indirect branch tracking and shadow
# stack), as Fedora's builds have: every object of ours carries the property;
# the linked binary does only where the C library's start files do too
# (Debian 12's Scrt1.o, crti.o and crtn.o do not).
ifneq ($(filter x86_64-% i386-% i486-% i586-% i686-%,$(shell $(CC) -dumpmachine)),)
HARDEN_CFLAGS += -fcf-protection
endif
HARDEN_LDFLAGS := -pie -Wl,-z,relro -Wl,-z,now
ifeq ($(SAN),)
HARDEN_CPPFLAGS := -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=2
endif
ifneq ($(SAN),)
# float-cast-overflow: gcc leaves it out of "undefined" (clang does not).
CFLAGS += -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined,float-cast-overflow
LDFLAGS += -fsanitize=address,undefined,float-cast-overflow
endif

PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(PKGS_LINKED) 2>/dev/null)
ALL_CFLAGS = -std=gnu11 $(WARN) $(HARDEN_CPPFLAGS) $(CPPFLAGS) $(HARDEN_CFLAGS) $(CFLAGS) \
	-D_GNU_SOURCE -Iinclude \
	-DROCECTL_VERSION='"$(VERSION)"' $(PKG_CFLAGS) -MMD -MP
LIBS = $(PKG_LIBS) -lm -lpthread

LIB_SRC := $(sort $(wildcard lib/*.c))
CMD_SRC := $(sort $(wildcard cmd/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
CMD_OBJ := $(CMD_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

# cmd.h and the tree's header are cmd/'s own: lib/ cannot include them
# (tests/cli/layout.bats).
$(CMD_OBJ): ALL_CFLAGS += -Icmd

.PHONY: all deps check check-tiers unit cli cli-plain asan demo install clean check-deps fuzz fuzz-smoke hdr-check
all: $(BUILD)/rocectl

$(BUILD)/%.o: %.c | check-deps
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/librocectl.a: $(LIB_OBJ)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(BUILD)/rocectl: $(CMD_OBJ) $(BUILD)/librocectl.a
	$(call msg,LD,$@)
	$(Q)$(CC) $(HARDEN_LDFLAGS) $(LDFLAGS) -o $@ $(CMD_OBJ) $(BUILD)/librocectl.a $(LIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/librocectl.a
	@mkdir -p $(dir $@)
	$(call msg,CCLD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(HARDEN_LDFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/librocectl.a $(LIBS) -lcmocka

check-deps:
	@pkg-config --exists $(PKGS) || { echo "rocectl: build libraries missing; run 'make deps'" >&2; exit 1; }

# Idempotent: installs only what is missing, one line a step (apt's output on
# failure or with V=1); as non-root it prints the command.
deps:
	$(Q)scripts/install-packages deps $(DEB_BUILD)

unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do echo "unit: $$t"; $$t; done

# The CLI tests CLI_JOBS at a time (bats --jobs, GNU parallel): each has its
# own temporary directory and none binds a fixed port. Default: two a CPU, as
# many tests wait on a daemon or a clock (Prometheus' scrapes, Chromium,
# Ansible, timeouts) with the CPU idle: the plain run took 166 s at one a CPU
# and 99 s at two, on 2 cores at load 1-3, with the same CPU time (152 s).
# The ASan tier keeps one a CPU (ASAN_CLI_JOBS): its 555 s were measured so.
NPROC := $(shell nproc 2>/dev/null || echo 1)
CLI_JOBS ?= $(shell echo $$((2 * $(NPROC))))
ASAN_CLI_JOBS ?= $(NPROC)
cli: $(BUILD)/rocectl
	$(Q)ROCECTL=$(abspath $(BUILD)/rocectl) bats $(if $(filter-out 1,$(CLI_JOBS)),--jobs $(CLI_JOBS)) tests/cli

# Every header compiles on its own (as git's hdr-check): what it uses it
# includes. cmd/'s headers with -Icmd, as cmd/ is built.
HDRS := $(sort $(wildcard include/rocectl/*.h)) $(sort $(wildcard cmd/*.h))
hdr-check: | check-deps
	$(Q)set -e; for h in $(HDRS); do \
		$(if $(Q),printf '  %-7s %s\n' HDR $$h;) \
		case $$h in cmd/*) i=$${h#cmd/}; x=-Icmd;; *) i=$${h#include/}; x=;; esac; \
		printf '#include "%s"\n' $$i | $(CC) $(filter-out -MMD -MP,$(ALL_CFLAGS)) $$x -x c -fsyntax-only - || \
			{ echo "hdr-check: $$h does not compile on its own" >&2; exit 1; }; \
	done

# The same unit and CLI tests on an ASan+UBSan build, in its own directory.
asan:
	$(Q)$(MAKE) BUILD=$(BUILD)/asan SAN=1 CLI_JOBS=$(ASAN_CLI_JOBS) unit cli

# make check runs the CLI tests once, in the asan tier: that build is -O2 as
# the plain one and checks more of each run. What it cannot check is read from
# the plain binary itself: its hardening (_FORTIFY_SOURCE is left out under
# ASan), so make check runs these files on the plain build too. A CLI test that
# skips under ASan belongs in one of them.
CLI_PLAIN := tests/cli/hardening.bats
cli-plain: $(BUILD)/rocectl
	$(Q)ROCECTL=$(abspath $(BUILD)/rocectl) bats $(CLI_PLAIN)

# Each tier says how long it took (scripts/timed), and at the end the tiers
# again, slowest first, and the whole run.
#
# Every package is installed and everything is built first; then two lanes run
# side by side, as two make jobs: the lab (the .deb for 33-upgrade, then the
# guest tests: qemu's one vCPU keeps one core busy, and the lab is the longest
# tier) and the host's tiers, niced so that the lab keeps its core and they
# take the rest. The harness's own tests (lab-host) go to the lane that is
# done first, which depends on the machine and its load.
# Each tier's output comes whole when the tier ends (make -O), so the lanes do
# not mix lines. CHECK_JOBS=1 runs the same tiers one after the other.
TIMED = scripts/timed
CHECK_TIMES = $(abspath $(BUILD))/check-times
# claim TIER: true in the first lane that asks (mkdir is atomic), false after.
CHECK_CLAIMS = $(abspath $(BUILD))/check-claims
claim = mkdir -p $(CHECK_CLAIMS) && mkdir $(CHECK_CLAIMS)/$(1) 2>/dev/null
CHECK_LANES := check-lab-lane check-host-lane
CHECK_JOBS ?= 2
HOST_LANE := nice -n 10
.PHONY: $(CHECK_LANES) check-deb check-lab check-hdr check-unit check-cli-plain check-fuzz \
	check-pkg check-asan
check:
	$(Q)mkdir -p $(BUILD) && rm -rf $(CHECK_TIMES) $(CHECK_CLAIMS)
	$(Q)CHECK_TIMES=$(CHECK_TIMES) $(TIMED) all $(MAKE) check-tiers; rc=$$?; \
		echo "check: the tiers, slowest first (the two lanes overlap):"; \
		sort -k2,2nr $(CHECK_TIMES) 2>/dev/null | \
		awk '$$1 != "all" { printf "check:   %5d s  %s\n", $$2, $$1 }'; exit $$rc

# The inner loop, before every commit (CONTRIBUTING.md): build, unit, CLI and
# each fuzz harness over its corpus; no packages, no lab, nothing installed.
# Its tiers' times at the end, as check prints them.

.PHONY: check-fast check-fast-tiers fuzz-corpus
check-fast:
	$(Q)mkdir -p $(BUILD) && rm -f $(CHECK_TIMES)
	$(Q)CHECK_TIMES=$(CHECK_TIMES) $(TIMED) all $(MAKE) check-fast-tiers; rc=$$?; \
		echo "check-fast: the tiers, slowest first:"; \
		sort -k2,2nr $(CHECK_TIMES) 2>/dev/null | \
		awk '$$1 != "all" { printf "check-fast:   %5d s  %s\n", $$2, $$1 }'; exit $$rc

check-fast-tiers:
	$(Q)$(TIMED) build $(MAKE) -j2 all $(UNIT_BIN) $(FUZZ_BIN)
	$(Q)$(TIMED) unit $(MAKE) unit
	$(Q)$(TIMED) cli $(MAKE) cli
	$(Q)$(TIMED) fuzz-corpus $(MAKE) fuzz-corpus

check-tiers:
	$(Q)$(TIMED) deps $(MAKE) deps pkg-deps lab-deps lab-fetch
	$(Q)$(TIMED) build $(MAKE) -j2 all
	$(Q)$(MAKE) -j$(CHECK_JOBS) --output-sync=recurse $(CHECK_LANES)

# The lanes: each tier a target, in order within its lane (prerequisites);
# pkg-check waits for the lab lane's .deb, which it tests as well. At its end
# each lane runs lab-host unless the other lane has claimed it.
check-lab-lane: check-lab
	$(Q)if $(call claim,lab-host); then $(HOST_LANE) $(TIMED) lab-host $(MAKE) lab-host; fi
check-host-lane: check-asan
	$(Q)if $(call claim,lab-host); then $(HOST_LANE) $(TIMED) lab-host $(MAKE) lab-host; fi
check-deb:
	$(Q)$(TIMED) deb $(MAKE) deb
check-lab: check-deb
	$(Q)$(TIMED) lab-check $(MAKE) lab-guest
check-hdr:
	$(Q)$(HOST_LANE) $(TIMED) hdr-check $(MAKE) hdr-check
check-unit: check-hdr
	$(Q)$(HOST_LANE) $(TIMED) unit $(MAKE) unit
check-cli-plain: check-unit
	$(Q)$(HOST_LANE) $(TIMED) cli-plain $(MAKE) cli-plain
check-fuzz: check-cli-plain
	$(Q)$(HOST_LANE) $(TIMED) fuzz-smoke $(MAKE) fuzz-smoke
check-pkg: check-fuzz check-deb
	$(Q)$(HOST_LANE) $(TIMED) pkg-check $(MAKE) pkg-check
check-asan: check-pkg
	$(Q)$(HOST_LANE) $(TIMED) asan $(MAKE) asan

# libFuzzer harnesses (tests/fuzz/fuzz_*.c): the library again, built by clang
# with ASan+UBSan and the fuzzer's coverage; each harness is a binary. Seeds
# are committed in tests/fuzz/seeds/<name>/ (the snapshot harness also reads
# the host fixtures); the corpus a run grows stays in $(BUILD)/fuzz/corpus.
# The JSON harnesses take inputs up to 1 MiB: the strict reader's value and
# depth bounds and the rules' cost show only on large documents.
FUZZ_CC ?= clang
FUZZ_SECS ?= 60
FUZZ_CFLAGS := -std=gnu11 -g -O1 -fno-omit-frame-pointer -D_GNU_SOURCE -Iinclude \
	-DROCECTL_VERSION='"$(VERSION)"' $(PKG_CFLAGS) -Wall -Wno-unused-parameter \
	-Wno-gnu-variable-sized-type-not-at-end -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%)
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/fuzz/%.o)

$(BUILD)/fuzz/lib/%.o: lib/%.c | check-deps
	@mkdir -p $(dir $@)
	$(call msg,CLANG,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -fsanitize=fuzzer-no-link -c -o $@ $<

$(BUILD)/fuzz/librocectl.a: $(FUZZ_LIB_OBJ)
	$(call msg,AR,$@)
	$(Q)$(AR) rcs $@ $^

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(BUILD)/fuzz/librocectl.a
	$(call msg,CLANG,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(BUILD)/fuzz/librocectl.a $(LIBS)

# Each harness for FUZZ_SECS seconds; a crash stops make with its input saved
# as $(BUILD)/fuzz/crash-<harness>-*.
fuzz: $(FUZZ_BIN)
	@set -e; for b in $(FUZZ_BIN); do n=$${b##*/fuzz_}; \
		mkdir -p $(BUILD)/fuzz/corpus/$$n; \
		extra=; [ $$n = snapshot ] && extra=tests/fixtures/hosts; \
		len=; case $$n in snapshot|json|compare) len=-max_len=1048576;; esac; \
		echo "fuzz: $$n for $(FUZZ_SECS) s"; \
		$$b -max_total_time=$(FUZZ_SECS) -print_final_stats=1 -timeout=10 $$len \
			-rss_limit_mb=2048 -artifact_prefix=$(BUILD)/fuzz/crash-$$n- \
			$(BUILD)/fuzz/corpus/$$n tests/fuzz/seeds/$$n $$extra 2>$(BUILD)/fuzz/$$n.log || \
			{ tail -40 $(BUILD)/fuzz/$$n.log; exit 1; }; \
		grep -E '^stat::number_of_executed_units|^stat::new_units_added' $(BUILD)/fuzz/$$n.log | tr '\n' ' '; echo; \
	done

fuzz-smoke:
	$(MAKE) fuzz FUZZ_SECS=3

# Each harness once over its seeds and grown corpus (-runs=0: no mutation):
# every committed input still passes, in seconds (check-fast's fuzz tier).
fuzz-corpus: $(FUZZ_BIN)
	@set -e; for b in $(FUZZ_BIN); do n=$${b##*/fuzz_}; \
		mkdir -p $(BUILD)/fuzz/corpus/$$n; \
		extra=; [ $$n = snapshot ] && extra=tests/fixtures/hosts; \
		len=; case $$n in snapshot|json|compare) len=-max_len=1048576;; esac; \
		$$b -runs=0 -timeout=10 $$len -rss_limit_mb=2048 \
			-artifact_prefix=$(BUILD)/fuzz/crash-$$n- \
			$(BUILD)/fuzz/corpus/$$n tests/fuzz/seeds/$$n $$extra 2>$(BUILD)/fuzz/$$n.log || \
			{ tail -40 $(BUILD)/fuzz/$$n.log; exit 1; }; \
		echo "fuzz-corpus: $$n $$(grep -Eo 'INITED .*' $(BUILD)/fuzz/$$n.log | head -1)"; \
	done

demo: deps lab-deps all lab-fetch
	@echo "demo: booting the Soft-RoCE lab under qemu (about 10 s)…"
	$(Q)tests/lab/lab run -- tests/lab/demo.sh

# Every unit in systemd/ (none is fine); installed, never enabled. The
# packages try-restart all but the tune unit after an upgrade (re-running it
# would apply the host settings again): debian/rules and the spec.
UNITS := $(sort $(wildcard systemd/*.service systemd/*.timer))
RESTART_UNITS := $(filter-out rocectl-tune.service,$(notdir $(UNITS)))

install: all
	$(Q)install -D -m 0755 $(BUILD)/rocectl $(DESTDIR)$(PREFIX)/sbin/rocectl
	$(Q)install -d $(DESTDIR)$(PREFIX)/share/man/man8 $(DESTDIR)$(PREFIX)/share/man/man5
	$(Q)install -m 0644 man/*.8 $(DESTDIR)$(PREFIX)/share/man/man8/
	$(Q)install -m 0644 man/*.5 $(DESTDIR)$(PREFIX)/share/man/man5/
	$(Q)install -D -m 0644 completions/rocectl \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/rocectl
	$(if $(UNITS),$(Q)install -d $(DESTDIR)$(SYSTEMDUNITDIR) && \
		install -m 0644 $(UNITS) $(DESTDIR)$(SYSTEMDUNITDIR)/)
	$(Q)install -D -m 0644 prometheus/rocectl.rules.yml $(DESTDIR)$(DOCDIR)/rocectl.rules.yml
	$(Q)install -D -m 0644 prometheus/grafana/rocectl.json $(DESTDIR)$(DOCDIR)/grafana/rocectl.json
	@# The example (all defaults, commented out); never over an existing file.
	$(Q)[ -e $(DESTDIR)$(SYSCONFDIR)/rocectl.conf ] || \
		install -D -m 0644 etc/rocectl.conf $(DESTDIR)$(SYSCONFDIR)/rocectl.conf

clean:
	$(Q)rm -rf $(BUILD)/cmd $(BUILD)/lib $(BUILD)/tests $(BUILD)/asan $(BUILD)/pkg $(BUILD)/fuzz \
		$(BUILD)/rocectl $(BUILD)/librocectl.a

# ---- Packages: make deb, make rpm, make pkg-check (see README.md "Install") ----
# VERSION above is the one version: debian/changelog carries it too and the spec is
# generated with it (tests/cli/packaging.bats checks). Each package builds from its
# own copy of the working tree under $(PKG_DIR), so a developer's build/ is left alone.
PKG_DIR := $(BUILD)/pkg
DEB_DIR := $(PKG_DIR)/deb
DEB_FILE := $(DEB_DIR)/rocectl_$(VERSION)_$(shell dpkg --print-architecture 2>/dev/null).deb
RPM_TOP := $(abspath $(PKG_DIR)/rpm)
RPM_SRC := $(RPM_TOP)/src/rocectl-$(VERSION)
# Debian 12 packages that build and check the packages (rpm and rpmlint for the spec).
DEB_PACKAGING := dpkg-dev debhelper fakeroot lintian man-db rpm rpmlint
# rpm's systemd macros come with RHEL's systemd-rpm-macros; Debian's rpm lacks them.
RPM_MACROS = $(if $(shell rpm --eval '%{?_unitdir}' 2>/dev/null),,--load tests/pkg/debian-rpm.macros)

# pkg_tree DIR: the working tree as git sees it (tracked and new files, not
# ignored ones) copied into DIR, which is emptied first.
pkg_tree = rm -rf $(1) && mkdir -p $(1) && \
	git ls-files -z --cached --others --exclude-standard | \
	xargs -0 -r sh -c 'for f; do [ -e "$$f" ] && printf "%s\0" "$$f"; done' sh | \
	tar -c --null -T - -f - | tar -x -C $(1) -f -

.PHONY: pkg-deps deb rpm pkg-check
pkg-deps:
	$(Q)scripts/install-packages pkg-deps $(DEB_BUILD) $(DEB_PACKAGING)

# The .deb is a file made from the tree's files: built again only when one of
# them changed, so that pkg-check and the lab's 33-upgrade.bats (make check
# runs them side by side) test the one package built once.
# dpkg-buildpackage's and lintian's output only on failure or with V=1; a .deb
# lintian refuses is removed. -J: the build's make -j as many as the CPUs.
PKG_FILES := $(wildcard $(shell git ls-files --cached --others --exclude-standard 2>/dev/null))
deb: $(DEB_FILE)
$(DEB_FILE): $(PKG_FILES) | pkg-deps
	@echo "deb: building $(notdir $(DEB_FILE))…"
	$(Q)$(call pkg_tree,$(DEB_DIR)/rocectl-$(VERSION))
	$(Q)cd $(DEB_DIR)/rocectl-$(VERSION) && scripts/quiet dpkg-buildpackage -us -uc -b -J
	@echo "deb: lintian…"
	$(Q)scripts/quiet lintian --fail-on error,warning $(DEB_DIR)/rocectl_$(VERSION)_*.changes || \
		{ rm -f $@; exit 1; }
	@echo "deb: $(DEB_FILE)"

# rocectl.spec generated from rocectl.spec.in (VERSION, the date, the units in
# systemd/) into the source tarball, so 'rpmbuild -ta' of the tarball works too.
# --nodeps: the BuildRequires are RHEL 9 names, unknown to Debian's rpm database;
# on Debian this checks the spec and its file list.
rpm: pkg-deps
	@echo "rpm: building rocectl-$(VERSION) with rpmbuild…"
	$(Q)$(call pkg_tree,$(RPM_SRC))
	$(Q)sed -e 's/@VERSION@/$(VERSION)/g' -e "s/@DATE@/$$(LC_ALL=C date -u '+%a %b %d %Y')/" \
		-e 's/@UNITS_GLOBAL@/$(if $(UNITS),%global units $(notdir $(UNITS)))/' \
		-e 's/@RESTART_UNITS_GLOBAL@/$(if $(RESTART_UNITS),%global restart_units $(RESTART_UNITS))/' \
		rocectl.spec.in >$(RPM_SRC)/rocectl.spec
	$(Q)rm -rf $(RPM_TOP)/RPMS && mkdir -p $(RPM_TOP)/SOURCES && \
		tar -C $(dir $(RPM_SRC)) -czf $(RPM_TOP)/SOURCES/rocectl-$(VERSION).tar.gz rocectl-$(VERSION)
	$(Q)scripts/quiet rpmbuild $(RPM_MACROS) --define "_topdir $(RPM_TOP)" --nodeps \
		-bb $(RPM_SRC)/rocectl.spec
	@echo "rpm: rpmlint…"
	$(Q)scripts/quiet rpmlint -r rocectl.rpmlintrc $(RPM_SRC)/rocectl.spec $(RPM_TOP)/RPMS/*/*.rpm
	@echo "rpm: $$(ls $(RPM_TOP)/RPMS/*/rocectl-$(VERSION)-*.rpm)"

# The .deb unpacked into a scratch root and run from there, the .rpm's version (tests/pkg).
pkg-check: $(DEB_FILE) rpm
	$(Q)ROCECTL_DEB=$(abspath $(DEB_FILE)) \
		ROCECTL_RPM=$$(ls $(RPM_TOP)/RPMS/*/rocectl-$(VERSION)-*.rpm) bats tests/pkg

-include tests/lab/lab.mk
-include $(LIB_OBJ:.o=.d) $(CMD_OBJ:.o=.d) $(FUZZ_LIB_OBJ:.o=.d)
