#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own NVMe-oF initiator (nvme-cli's nvme connect, nvme_rdma and
# nvme_tcp) connected to the lab's nvmet target on B:4420: rocectl collect
# and check nvmf read the controller, its timers, its path and ANA state, and
# tie it to the netdev its traffic leaves by (veth0) and, over RDMA, to the
# port rxe0/1.

bats_require_minimum_version 1.5.0

setup() {
	load nvmf
}

# Disconnect whatever this file connected; bounded, and a failure fails the test.
teardown() {
	if [ -n "$(ls /sys/class/nvme-subsystem/*/subsysnqn 2>/dev/null)" ] &&
		grep -qx "$LAB_NQN" /sys/class/nvme-subsystem/*/subsysnqn; then
		timeout 30 nvme disconnect -n "$LAB_NQN" >/dev/null
	fi
	nvmf_teardown
}

# nvme connect -t TRANSPORT [OPTION...]: waits up to 20 s for a live controller.
kconnect() {
	local t=$1 i
	shift
	timeout 30 nvme connect -t "$t" -a "$LAB_B_IP" -s 4420 -n "$LAB_NQN" "$@" >/dev/null
	for i in $(seq 1 100); do
		grep -qx live /sys/class/nvme/nvme*/state 2>/dev/null && return 0
		sleep 0.2
	done
	return 1
}

@test "nvme connect -t rdma: the controller, its timers, its path and netdev veth0 on rxe0/1" {
	kconnect rdma
	run --separate-stderr "$R" collect -j
	assert_success
	echo "$output" | jq -e --arg n "$LAB_NQN" '
		.host.nvme.ok and .host.nvme.fabrics and
		(.host.nvme.controllers | length == 1) and
		(.host.nvme.controllers[0] | .transport == "rdma" and .traddr == "10.0.0.2" and
		 .trsvcid == "4420" and .state == "live" and .subsysnqn == $n and
		 .queue_count >= 2 and .sqsize > 0 and .kato == 5 and .ctrl_loss_tmo == 600 and
		 .reconnect_delay == 10 and .fast_io_fail_tmo == -1 and
		 .netdev == "veth0" and .netdev_by == "route" and .src == "10.0.0.1") and
		(.host.nvme.subsystems[0] | .nqn == $n and
		 (.paths[0] | .controller == "nvme0" and .nsid == 1 and .ana_state == "optimized"))'
	# the same as nvme-cli 2.3 says where they overlap
	nvme list-subsys -o json >"$BATS_TEST_TMPDIR/ls.json"
	jq -e --arg n "$LAB_NQN" '
		[.. | objects | select(.NQN? == $n)][0].Paths[0] |
		.Transport == "rdma" and (.Address | startswith("traddr=10.0.0.2,trsvcid=4420")) and
		.State == "live"' "$BATS_TEST_TMPDIR/ls.json"
	run --separate-stderr "$R" check nvmf -j
	echo "$output" | jq -e '
		(.findings | map(select(.id == "nvmf.state")) | .[0].status == "pass") and
		(.findings | map(select(.id == "nvmf.paths")) | .[0].status == "warn") and
		(.findings | map(select(.id == "nvmf.timers")) | .[0].status == "pass") and
		(.findings | map(select(.id == "nvmf.tos")) | .[0] |
			.status == "unknown" and (.evidence | test("of rxe0/1")))'
}

@test "collect -O shows the controllers and paths it wrote, in text and JSON" {
	kconnect rdma
	run --separate-stderr "$R" collect -O "$BATS_TEST_TMPDIR/s.json"
	assert_success
	assert_line --regexp '^  CTRL +TRANSPORT +STATE +TRADDR +TRSVCID +NETDEV +QUEUES +SQSIZE +KATO +CTRL_LOSS_TMO +RECONNECT_DELAY +FAST_IO_FAIL_TMO +SUBSYSTEM$'
	assert_line --regexp '^  nvme[0-9]+ +rdma +live +10\.0\.0\.2 +4420 +veth0 +[0-9]+ +[0-9]+ +5 +600 +10 +off +nvme-subsys[0-9]+$'
	assert_line --regexp '^  nvme-subsys[0-9]+ +nvme[0-9]+c[0-9]+n1 +nvme[0-9]+ '
	run --separate-stderr "$R" collect -j -O "$BATS_TEST_TMPDIR/t.json"
	assert_success
	echo "$output" | jq -e '
		(.nvme_controllers | length == 1) and
		(.nvme_controllers[0] | .transport == "rdma" and .netdev == "veth0" and
		 .kato_s == 5 and .kato_off == false and .ctrl_loss_tmo_s == 600 and
		 .fast_io_fail_tmo_s == null and .fast_io_fail_tmo_off == true) and
		(.nvme_paths | length >= 1)'
}

@test "nvme connect -t rdma --ctrl-loss-tmo -1: nvmf.timers warns, its fix names the sysfs file" {
	kconnect rdma --ctrl-loss-tmo=-1 --tos 106
	run --separate-stderr "$R" check nvmf -j
	echo "$output" | jq -e '
		(.findings | map(select(.id == "nvmf.timers")) | .[0] |
		 .status == "warn" and (.fix | test("/sys/class/nvme/nvme[0-9]+/fast_io_fail_tmo")))'
	run --separate-stderr "$R" collect -j
	echo "$output" | jq -e '.host.nvme.controllers[0].ctrl_loss_tmo == -1'
}

@test "nvme connect -t tcp: the controller is tied to veth0" {
	kconnect tcp
	run --separate-stderr "$R" collect -j
	assert_success
	echo "$output" | jq -e '
		.host.nvme.controllers[0] | .transport == "tcp" and .state == "live" and
		.traddr == "10.0.0.2" and .netdev == "veth0" and .netdev_by == "route"'
}
