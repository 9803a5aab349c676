# SPDX-License-Identifier: GPL-2.0
#
# lab.mk - the Soft-RoCE lab tier; included by the top-level Makefile, which
# provides the target `all` (builds $(BUILD)/rocectl) and BUILD (default build).
#
#   make lab-deps    install the Debian packages the lab needs (idempotent)
#   make lab-fetch   download Debian's current kernel, build the initramfs (once)
#   make lab-check   lab-guest and lab-host:
#   make lab-guest   boot the lab once and run every tests/lab/*.bats in it
#   make lab-host    the harness's own tests (tests/lab/host/, on the host; each boots)
#   make lab-shell   interactive root shell in the lab; LAB_CMD='...' runs that instead
#
# LAB_TIMEOUT (seconds, default 600) bounds a whole boot; lab-guest, whose one boot
# runs every issue's lab tests, uses LAB_CHECK_TIMEOUT unless LAB_TIMEOUT is set.
# LAB_BATS_FLAGS are passed to bats (default: TAP, readable in CI logs, with each
# test's milliseconds and each file's seconds: scripts/bats-tap-times).
# See tests/lab/README.md.

LAB_MK_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
LAB := $(LAB_MK_DIR)/lab
LAB_BATS_FLAGS ?= --formatter $(abspath scripts/bats-tap-times) --timing
LAB_CHECK_TIMEOUT ?= 2700
export LAB_CACHE ?= $(abspath $(or $(BUILD),build))/lab

.PHONY: lab-deps lab-fetch lab-check lab-guest lab-host lab-shell

lab-deps:
	$(Q)$(LAB) deps

lab-fetch: lab-deps
	$(Q)$(LAB) fetch

# The guest tests in one boot, then the harness's own tests (host/), which boot it again
# (make check runs the two beside each other).
# 33-upgrade.bats installs the .deb: built here unless it is up to date (the top Makefile).
lab-check: lab-guest lab-host

lab-guest: lab-deps lab-fetch all $(DEB_FILE)
	$(Q)LAB_TIMEOUT=$${LAB_TIMEOUT:-$(LAB_CHECK_TIMEOUT)} $(LAB) run bats $(LAB_BATS_FLAGS) $(LAB_MK_DIR)/

lab-host: lab-deps lab-fetch
	$(Q)bats $(LAB_BATS_FLAGS) $(LAB_MK_DIR)/host/

lab-shell: lab-deps lab-fetch all
	$(Q)$(LAB) shell
