#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# tune apply changing rdma_cm's default ToS while the kernel NVMe-oF
# initiator is connected to the lab's nvmet-rdma target: apply warns that
# the live connections keep the ToS they were made with, its state file
# keeps them (each cm_id as RDMA netlink shows it: restrack id, owner,
# addresses) and when the write was made, and flows, check traffic and check
# nvmf, reading that state later, say those connections were made before and
# keep the old ToS; once the initiator reconnects, nothing is said. tune
# keeps its state in the default directory here (/var/lib/rocectl, in the
# guest's tmpfs), the one flows and check read.

bats_require_minimum_version 1.5.0

setup() {
	load lab
	SD=/var/lib/rocectl
}

teardown() {
	timeout 60 "$ROCECTL" tune revert >/dev/null 2>&1 || :
	rm -rf "$SD"
	knob_roce_tos "$LAB_A_DEV" 0
	knob_roce_tos "$LAB_B_DEV" 0
	lab_reset
}

# nvme_cm_ids: the kernel initiator's rdma_cm IDs on A, as `rdma res show cm_id` lists them.
nvme_cm_ids() {
	timeout 10 rdma res show cm_id | grep -c "^link $LAB_A_DEV/1 .*comm \[nvme_rdma\] " || :
}

connect() {
	run timeout 30 nvme connect -t rdma -a "$LAB_B_IP" -s "$LAB_PORT" -n "$LAB_NQN"
	assert_success
	lab_wait 20 lab_nvme_dev
}

@test "tune apply of a new default ToS warns about the live rdma_cm connections; flows and check say they keep the old ToS until they reconnect" {
	local n line
	connect
	n=$(nvme_cm_ids)
	[ "$n" -ge 2 ]	# the admin queue and at least one I/O queue
	run --separate-stderr timeout 60 "$ROCECTL" tune apply --yes
	assert_success
	echo "$stderr"
	[[ $stderr == *"warning: $LAB_A_DEV/1: $n live rdma_cm connections on $LAB_A_DEV/1 keep the ToS they were made with (the default was 0) until they reconnect"* ]]
	# rxe1's connections were accepted by nvmet_rdma: the initiator's class, not this default
	[[ $stderr != *"on $LAB_B_DEV/1 keep"* ]]
	# the state file keeps each connection and the time of the write
	jq -e --arg t "$LAB_A_DEV/1" --argjson n "$n" '.changes[] |
		select(.target == $t and .setting == "default_roce_tos") |
		.status == "applied" and (.applied_at | type == "number" and . > 1700000000) and
		(.rdma_cm_connections | length == $n and
		 all(.[]; .owner == "[nvme_rdma]" and .pid == 0 and (.dst | endswith(":4420"))))' \
		"$SD"/tune-*.json

	run -0 "$ROCECTL" flows "$LAB_A_DEV"
	line="  $n rdma_cm connections were made before tune changed the default ToS at [0-9-]+ [0-9:]+ UTC; they keep ToS 0 until they reconnect"
	assert_line --regexp "^$line\$"
	run -0 "$ROCECTL" -j flows
	echo "$output" | jq -e --arg a "$LAB_A_DEV" --argjson n "$n" '
		(.ports[] | select(.device == $a) | .tune_tos_change |
		 .old_tos == 0 and .new_tos == 106 and .connections_before == $n and .still_live == $n) and
		(.ports[] | select(.device == $a) | .consumers[] | select(.owner == "[nvme_rdma]") |
		 .before_tune | test("^[0-9]+ rdma_cm connections were made before tune"))'
	run -3 "$ROCECTL" -j check traffic
	echo "$output" | jq -e --arg a "$LAB_A_DEV" '[.findings[] |
		select(.id == "traffic.consumer_class" and .device == $a and
		       (.message | startswith("[nvme_rdma]"))) | .evidence] |
		length == 1 and (.[0] | test("were made before tune changed the default ToS at .*; they keep ToS 0 until they reconnect$"))'
	# nvmf.tos joins the controller to those cm_ids: their port, netdev and count
	run --separate-stderr "$ROCECTL" -j check nvmf
	echo "$output" | jq -e --arg a "$LAB_A_DEV" --arg i "$LAB_A_IF" --argjson n "$n" '
		[.findings[] | select(.id == "nvmf.tos")][0] |
		(.message | contains("\($n) rdma_cm connections on \($a)/1 (\($i)) is unknown")) and
		(.evidence | contains("\($n) of them were made before tune changed the default ToS"))'

	# reconnected: the new connections take the new default; nothing is left to say
	run timeout 30 nvme disconnect -n "$LAB_NQN"
	assert_success
	connect
	run -0 "$ROCECTL" flows "$LAB_A_DEV"
	refute_output --partial "made before tune"
	run -0 "$ROCECTL" -j flows
	echo "$output" | jq -e --arg a "$LAB_A_DEV" '.ports[] | select(.device == $a) |
		.tune_tos_change.still_live == 0 and
		all(.consumers[]; .before_tune == null)'
}
