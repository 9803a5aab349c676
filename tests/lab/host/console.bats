#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Tests of the lab harness itself, run on the host (not in the guest): each boots
# the lab. 'make lab-check' runs them after the guest tests; alone:
#   LAB_CACHE=... bats tests/lab/host/

setup() {
	load '/usr/lib/bats/bats-support/load'
	load '/usr/lib/bats/bats-assert/load'
	LAB=$BATS_TEST_DIRNAME/../lab
}

# The console of a whole boot: setup, a command, report, power-off.
# The command leaves CPU-bound processes behind, as benchmarks can: they delay
# the kernel's power-off work, which made the old power-off path (exec of
# /usr/bin/sleep from the 9p root while it went away) fail with EIO and panic.
@test "a full boot's console has no panic, I/O error or BUG" {
	local log=$BATS_TEST_TMPDIR/console
	LAB_CONSOLE=$log run "$LAB" run 'for i in 1 2 3; do setsid bash -c "while :; do :; done" </dev/null >/dev/null 2>&1 & done; echo lab-console-test-ran; [ -t 1 ] && echo guest-stdout-tty || echo guest-stdout-pipe'
	assert_success
	# Ours is not a terminal here, so the command's is not either; and the
	# kernel's "reboot: Power down" does not end the output.
	assert_output --partial guest-stdout-pipe
	refute_output --partial 'Power down'
	run grep -c 'reboot: Power down' "$log"
	assert_output 1
	# The log is the real console: the command's output is in it.
	run grep -c lab-console-test-ran "$log"
	assert_output 1
	run grep -n -E 'panic|Input/output error|BUG' "$log"
	assert_equal "$status" 1
}

@test "on a terminal, the command's output goes to a terminal too" {
	run script -qec "$LAB run '[ -t 1 ] && echo guest-stdout-tty || echo guest-stdout-pipe'" /dev/null
	assert_success
	assert_output --partial guest-stdout-tty
	refute_output --partial 'Power down'
}

# A kernel that spins on the lab's vCPU would stop the tests' own timeouts too;
# with softlockup_panic it panics instead, and a panic ends the run at once with
# its cause on stderr. sysrq 'c' (drivers/tty/sysrq.c, sysrq_handle_crash())
# stands in for the lockup: both end in panic() (kernel/panic.c).
@test "the guest panics on a soft lockup; a panic ends the run and is named" {
	run "$LAB" run 'echo "softlockup_panic=$(cat /proc/sys/kernel/softlockup_panic)"; sleep 1; echo c >/proc/sysrq-trigger; sleep 60'
	assert_equal "$status" 95
	assert_line softlockup_panic=1
	assert_line --partial 'lab: lab crashed: the guest stopped without reporting a status'
	assert_line --regexp '^lab: guest: \[ *[0-9.]+\] Kernel panic - not syncing: sysrq triggered crash'
	# panic() prints its stack on the console even at the lab's log level 1.
	assert_line --regexp '^\[ *[0-9.]+\] Call Trace:'
}
