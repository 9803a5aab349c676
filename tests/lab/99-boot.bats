#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Last in the boot: what every test before it must have left true.

setup() {
	load lab
}

# A frame the kernel refuses to rxe (a host MTU below its peer's, a link down)
# is counted in send_err (rxe_xmit_packet(), drivers/infiniband/sw/rxe/rxe_net.c;
# the name: rxe_hw_counters.c) and resent at once, for ever, in the poster's
# system call: a soft lockup on the lab's one vCPU whenever a tick lands at the
# wrong moment (knobs.sh, knob_hop_mtu). This catches a test that does it even
# when the race does not.
@test "no frame was refused to rxe in the whole boot" {
	local dev
	for dev in "$LAB_A_DEV" "$LAB_B_DEV"; do
		assert_equal "$dev send_err $(lab_hw_counter "$dev" send_err)" "$dev send_err 0"
	done
}
