# rocectl — one multi-call binary. Targets:
#   all (default)  build build/rocectl
#   deps           install the Debian packages needed to build and test
#   check          deps, build, unit tests, CLI tests, lab tests, and the unit
#                  and CLI tests again on an ASan+UBSan build
#   demo           deps, build, then rocectl's main job in the Soft-RoCE lab
#   unit cli asan  the parts of check; lab-check lab-shell: see tests/lab
#   fuzz           each libFuzzer harness of tests/fuzz for FUZZ_SECS (60) seconds
#   fuzz-smoke     each harness for 3 seconds on its seeds (part of check)
#   install        PREFIX=/usr/local DESTDIR=
VERSION := 0.1.0
BUILD ?= build
PREFIX ?= /usr/local
DESTDIR ?=

PKGS := libibverbs librdmacm libmnl libnl-3.0 libnl-route-3.0 libcjson

# Debian 12 packages: build, unit and CLI tests (the lab adds its own).
DEB_BUILD := build-essential pkg-config libibverbs-dev librdmacm-dev \
	libmnl-dev libnl-3-dev libnl-route-3-dev libcjson-dev linux-libc-dev \
	libcmocka-dev bats bats-assert bats-support jq groff-base bash-completion \
	util-linux iproute2 strace python3 clang libclang-rt-14-dev

CC ?= cc
CFLAGS ?= -O2 -g
# snprintf truncation of names is deliberate (bounded model strings).
WARN := -Wall -Wextra -Wformat=2 -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wno-unused-parameter -Wno-format-truncation
ifneq ($(CI),)
WARN += -Werror
endif
ifneq ($(SAN),)
# float-cast-overflow: gcc leaves it out of "undefined" (clang does not).
CFLAGS += -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined,float-cast-overflow
LDFLAGS += -fsanitize=address,undefined,float-cast-overflow
endif

PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
ALL_CFLAGS = -std=gnu11 $(WARN) $(CFLAGS) -D_GNU_SOURCE -Iinclude -Icmd \
	-DROCECTL_VERSION='"$(VERSION)"' $(PKG_CFLAGS) -MMD -MP
LIBS = $(PKG_LIBS) -lm -lpthread

LIB_SRC := $(sort $(wildcard lib/*.c))
CMD_SRC := $(sort $(wildcard cmd/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
CMD_OBJ := $(CMD_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all deps check unit cli asan demo install clean check-deps fuzz fuzz-smoke
all: $(BUILD)/rocectl

$(BUILD)/%.o: %.c | check-deps
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/librocectl.a: $(LIB_OBJ)
	$(AR) rcs $@ $^

$(BUILD)/rocectl: $(CMD_OBJ) $(BUILD)/librocectl.a
	$(CC) $(LDFLAGS) -o $@ $(CMD_OBJ) $(BUILD)/librocectl.a $(LIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/librocectl.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/librocectl.a $(LIBS) -lcmocka

check-deps:
	@pkg-config --exists $(PKGS) || { echo "rocectl: build libraries missing; run 'make deps'" >&2; exit 1; }

# Idempotent: installs only what is missing; as non-root it prints the command.
deps:
	@missing=$$(for p in $(DEB_BUILD); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -z "$$missing" ]; then echo "deps: all build and test packages present"; exit 0; fi; \
	cmd="apt-get install -y --no-install-recommends $$(echo $$missing)"; \
	if [ "$$(id -u)" != 0 ]; then echo "deps: missing packages; run as root: $$cmd" >&2; exit 1; fi; \
	echo "deps: installing $$missing"; \
	{ [ -n "$$(find /var/lib/apt/lists -name '*Packages*' 2>/dev/null | head -1)" ] || apt-get update -qq; } && \
	DEBIAN_FRONTEND=noninteractive $$cmd >/dev/null || \
	{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$cmd >/dev/null; }

unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do echo "unit: $$t"; $$t; done

cli: $(BUILD)/rocectl
	ROCECTL=$(abspath $(BUILD)/rocectl) bats tests/cli

# The same unit and CLI tests on an ASan+UBSan build, in its own directory.
asan:
	$(MAKE) BUILD=$(BUILD)/asan SAN=1 unit cli

check: deps
	$(MAKE) all
	$(MAKE) unit
	$(MAKE) cli
	$(MAKE) fuzz-smoke
	$(MAKE) lab-check
	$(MAKE) asan

# libFuzzer harnesses (tests/fuzz/fuzz_*.c): the library again, built by clang
# with ASan+UBSan and the fuzzer's coverage; each harness is a binary. Seeds
# are committed in tests/fuzz/seeds/<name>/ (the snapshot harness also reads
# the host fixtures); the corpus a run grows stays in $(BUILD)/fuzz/corpus.
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
	$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -fsanitize=fuzzer-no-link -c -o $@ $<

$(BUILD)/fuzz/librocectl.a: $(FUZZ_LIB_OBJ)
	$(AR) rcs $@ $^

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(BUILD)/fuzz/librocectl.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(BUILD)/fuzz/librocectl.a $(LIBS)

# Each harness for FUZZ_SECS seconds; a crash stops make with its input saved
# as $(BUILD)/fuzz/crash-<harness>-*.
fuzz: $(FUZZ_BIN)
	@set -e; for b in $(FUZZ_BIN); do n=$${b##*/fuzz_}; \
		mkdir -p $(BUILD)/fuzz/corpus/$$n; \
		extra=; [ $$n = snapshot ] && extra=tests/fixtures/hosts; \
		echo "fuzz: $$n for $(FUZZ_SECS) s"; \
		$$b -max_total_time=$(FUZZ_SECS) -print_final_stats=1 -timeout=10 \
			-rss_limit_mb=2048 -artifact_prefix=$(BUILD)/fuzz/crash-$$n- \
			$(BUILD)/fuzz/corpus/$$n tests/fuzz/seeds/$$n $$extra 2>$(BUILD)/fuzz/$$n.log || \
			{ tail -40 $(BUILD)/fuzz/$$n.log; exit 1; }; \
		grep -E '^stat::number_of_executed_units|^stat::new_units_added' $(BUILD)/fuzz/$$n.log | tr '\n' ' '; echo; \
	done

fuzz-smoke:
	$(MAKE) fuzz FUZZ_SECS=3

demo: deps lab-deps all lab-fetch
	tests/lab/lab run -- tests/lab/demo.sh

install: all
	install -D -m 0755 $(BUILD)/rocectl $(DESTDIR)$(PREFIX)/sbin/rocectl
	install -d $(DESTDIR)$(PREFIX)/share/man/man8 $(DESTDIR)$(PREFIX)/share/man/man5
	install -m 0644 man/*.8 $(DESTDIR)$(PREFIX)/share/man/man8/
	-install -m 0644 man/*.5 $(DESTDIR)$(PREFIX)/share/man/man5/ 2>/dev/null
	install -D -m 0644 completions/rocectl \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/rocectl

clean:
	rm -rf $(BUILD)/cmd $(BUILD)/lib $(BUILD)/tests $(BUILD)/asan $(BUILD)/fuzz \
		$(BUILD)/rocectl $(BUILD)/librocectl.a

-include tests/lab/lab.mk
-include $(LIB_OBJ:.o=.d) $(CMD_OBJ:.o=.d) $(FUZZ_LIB_OBJ:.o=.d)
