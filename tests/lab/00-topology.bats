#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# The lab's baseline, proven with rdma-core's, nvme-cli's and fio's own tools:
# two active Soft-RoCE ports whose traffic crosses the veth pair, and a working
# NVMe-oF RDMA target on B.

load lab

@test "ibv_devinfo shows both rxe ports PORT_ACTIVE on Ethernet" {
	local dev
	for dev in "$LAB_A_DEV" "$LAB_B_DEV"; do
		run timeout 20 ibv_devinfo -d "$dev"
		assert_success
		assert_output --regexp "hca_id:[[:space:]]+$dev"
		assert_output --regexp 'state:[[:space:]]+PORT_ACTIVE'
		assert_output --regexp 'link_layer:[[:space:]]+Ethernet'
	done
}

@test "the RoCE v2 IPv4 GID of each side is looked up, and ibv_devinfo agrees" {
	local dev ip idx
	for dev in "$LAB_A_DEV:$LAB_A_IP" "$LAB_B_DEV:$LAB_B_IP"; do
		ip=${dev#*:} dev=${dev%%:*}
		run lab_gid_index "$dev" "$ip"
		assert_success
		assert_output --regexp '^[0-9]+$'
		idx=$output
		run timeout 20 ibv_devinfo -d "$dev" -v
		assert_success
		assert_output --regexp "GID\[ *$idx\]:[[:space:]]+::ffff:$ip, RoCE v2"
	done
}

@test "lab_gid_index fails for an address the device does not have" {
	run lab_gid_index "$LAB_A_DEV" "$LAB_B_IP"
	assert_failure
}

@test "ibv_rc_pingpong over the looked-up GID index crosses the wire" {
	local ga gb spid before iters=200
	ga=$(lab_gid_index "$LAB_A_DEV" "$LAB_A_IP")
	gb=$(lab_gid_index "$LAB_B_DEV" "$LAB_B_IP")
	counters_snapshot before
	timeout 60 ibv_rc_pingpong -d "$LAB_B_DEV" -g "$gb" -p 18515 -n "$iters" -s 1024 \
		>"$BATS_TEST_TMPDIR/server.log" 2>&1 &
	spid=$!
	lab_wait 10 eval 'ss -Htln "sport = :18515" | grep -q .'
	run timeout 60 ibv_rc_pingpong -d "$LAB_A_DEV" -g "$ga" -p 18515 -n "$iters" -s 1024 "$LAB_B_IP"
	assert_success
	assert_output --partial "$iters iters in"
	wait "$spid" || fail "server: $(cat "$BATS_TEST_TMPDIR/server.log")"
	assert_crossed before "$iters"
}

@test "rping (same -S on both sides) crosses the wire" {
	local before
	counters_snapshot before
	run lab_rping 10 256 30
	assert_success
	[ "$(grep -c 'ping data: rdma-ping-' <<<"$output")" -eq 10 ] ||
		fail "want 10 pings, got: $output"
	assert_crossed before 10
}

@test "nvme discover lists the lab subsystem on B:4420" {
	run timeout 30 nvme discover -t rdma -a "$LAB_B_IP" -s "$LAB_PORT"
	assert_success
	assert_output --regexp "subnqn:[[:space:]]+$LAB_NQN"
	assert_output --regexp "traddr:[[:space:]]+$LAB_B_IP"
	assert_output --regexp 'trtype:[[:space:]]+rdma'
}

@test "kernel nvme connect, a short fio read over RDMA, disconnect" {
	# shellcheck disable=SC2034 # set and read through namerefs
	local dev before ios errs rcvd0
	counters_snapshot before
	rcvd0=$(lab_hw_counter "$LAB_A_DEV" rcvd_pkts)
	run timeout 30 nvme connect -t rdma -a "$LAB_B_IP" -s "$LAB_PORT" -n "$LAB_NQN"
	assert_success
	lab_wait 20 lab_nvme_dev
	dev=$(lab_nvme_dev)
	run timeout 30 fio --name=lab-read --filename="$dev" --rw=randread --bs=4k --iodepth=8 \
		--ioengine=libaio --direct=1 --runtime=2 --time_based \
		--output-format=json --output="$BATS_TEST_TMPDIR/fio.json"
	assert_success
	ios=$(jq '.jobs[0].read.total_ios' "$BATS_TEST_TMPDIR/fio.json")
	errs=$(jq '.jobs[0].error' "$BATS_TEST_TMPDIR/fio.json")
	[ "$errs" -eq 0 ] || fail "fio error $errs"
	[ "$ios" -gt 0 ] || fail "fio read nothing"
	# Each read is a command capsule A -> B and its 4 KiB of data back B -> A.
	assert_crossed before "$ios"
	[ $(($(lab_hw_counter "$LAB_A_DEV" rcvd_pkts) - rcvd0)) -ge "$ios" ] ||
		fail "$LAB_A_DEV received fewer packets than fio did reads ($ios)"
	run timeout 30 nvme disconnect -n "$LAB_NQN"
	assert_success
	assert_output --partial "disconnected 1 controller"
	run lab_nvme_dev
	assert_failure
}
