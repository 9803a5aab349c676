#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The systemd units of systemd/: valid for systemd (systemd-analyze verify), and the boot-time
# re-apply of tune sandboxed as far as its writes allow (systemd-analyze security).
load helpers

setup() {
	command -v systemd-analyze >/dev/null || skip "systemd-analyze is not installed (Debian: systemd)"
	U=$BATS_TEST_TMPDIR/units
	mkdir -p "$U"
}

# unit NAME: a copy of systemd/NAME in $U whose commands name the binary under test (verify
# wants the command to exist; the installed unit finds rocectl in the standard directories).
unit() {
	sed "s|^\(Exec[A-Za-z]*=-\{0,1\}\)rocectl |\1$ROCECTL |" "$ROOT/systemd/$1" >"$U/$1"
}

@test "every unit of systemd/ passes systemd-analyze verify without a word" {
	local f n
	for f in "$ROOT"/systemd/*.service "$ROOT"/systemd/*.timer; do
		n=${f##*/}
		unit "$n"
	done
	for f in "$U"/*; do
		run --separate-stderr systemd-analyze verify --man=no "$f"
		assert_success
		assert_equal "$stderr" ""
	done
}

@test "rocectl-serve.service: what systemd-analyze security lists that serve does not need is off" {
	unit rocectl-serve.service
	run -0 systemd-analyze security --offline=yes --threshold=25 "$U/rocectl-serve.service"
	assert_output --regexp "Overall exposure level for rocectl-serve.service: [0-1]\.[0-9] OK"
	refute_line --regexp "^✗ (SystemCallFilter=~@privileged|PrivateMounts=) "
}

@test "rocectl-tune.service: sandboxed (systemd-analyze security below 2.5), bounded, ordered after the RDMA hardware" {
	unit rocectl-tune.service
	run -0 systemd-analyze security --offline=yes --threshold=25 "$U/rocectl-tune.service"
	assert_output --regexp "Overall exposure level for rocectl-tune.service: [0-2]\.[0-9] OK"
	local f=$ROOT/systemd/rocectl-tune.service
	grep -qx 'CapabilityBoundingSet=CAP_NET_ADMIN' "$f"
	grep -qx 'ProtectSystem=strict' "$f"
	grep -qx 'StateDirectory=rocectl' "$f" && grep -qx 'StateDirectoryMode=0700' "$f"
	grep -qE '^TimeoutStartSec=[0-9]+$' "$f"
	grep -qE '^After=.*rdma-hw\.target.*sys-kernel-config\.mount' "$f"
	grep -qE '^Wants=.*rdma-hw\.target' "$f"
	# One boot state file, replaced at each boot, not one more per boot.
	grep -qE '^ExecStart=rocectl tune apply --yes --boot \$ROCECTL_TUNE_ARGS$' "$f"
	# /proc whole: the lldpad check must see lldpad (ProtectProc= would hide it).
	! grep -q '^ProtectProc=' "$f"
}

@test "the verify above can fail: a drop-in with an unquoted config path is reported" {
	unit rocectl-tune.service
	mkdir -p "$U/rocectl-tune.service.d"
	printf '[Service]\nEnvironment="ROCECTL_CONF=/a b/%%q"x"\n' >"$U/rocectl-tune.service.d/persist.conf"
	run --separate-stderr systemd-analyze verify --man=no "$U/rocectl-tune.service"
	assert_regex "$stderr" "persist.conf:2: Invalid syntax, ignoring"
}
