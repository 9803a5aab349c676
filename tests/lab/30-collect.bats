#!/usr/bin/env bats
# rocectl collect on the real Soft-RoCE hosts: what rxe cannot give (DCB,
# pause, congestion control) is unknown with its errno, never "disabled";
# rdma_cm defaults are read through configfs; the host is left as it was.

bats_require_minimum_version 1.5.0

setup() {
	load lab
	ROCECTL=${ROCECTL:-$PWD/build/rocectl}
	SNAP=$BATS_TEST_TMPDIR/host.json
	CM=/sys/kernel/config/rdma_cm
}

teardown() {
	lab_reset
}

# What a read-only command must not change: configfs tree and rdma_cm values,
# netdev and RDMA port state, qdiscs, nftables.
host_state() {
	find /sys/kernel/config | sort
	for f in "$CM"/*/ports/*/default_roce_*; do
		[ -e "$f" ] && echo "$f=$(cat "$f")"
	done
	for i in "$LAB_A_IF" "$LAB_B_IF"; do
		cat /sys/class/net/"$i"/{mtu,operstate,flags,tx_queue_len}
	done
	cat /sys/class/infiniband/*/ports/1/{state,phys_state}
	tc qdisc show
	nft list ruleset
}

@test "DCB, pause and congestion control of the veths are unknown with EOPNOTSUPP, not disabled" {
	run -0 timeout 30 "$ROCECTL" collect -O "$SNAP"
	assert_output --regexp "^wrote $SNAP: 2 RDMA devices, 2 netdevs, [0-9]+ parts unreadable"
	assert_line --regexp "dcb of '$LAB_A_IF' +EOPNOTSUPP +DCB not supported by the driver"
	local i
	for i in "$LAB_A_IF" "$LAB_B_IF"; do
		jq -e --arg i "$i" '.host.netdevs[] | select(.name == $i) |
			([.pfc, .ets, .app, .buffer, .dcbx, .maxrate] | all(.ok == false and .errno == 95
				and .reason == "DCB not supported by the driver")) and
			.pfc.pfc_en == [false,false,false,false,false,false,false,false] and
			.pause.ok == false and .pause.errno == 95 and
			.cc.ok == false and .cc.errno == 95 and
			.ofed_qos.ok == false and .ofed_qos.errno == 2 and
			.driver == "veth"' "$SNAP"
		jq -e --arg w "dcb of '$i'" '[.host.unreadable[] | select(.what == $w and .errno == 95)] | length == 1' "$SNAP"
	done
	jq -e '.schema_version == 4 and (keys_unsorted[:4] == ["schema_version", "hostname", "time", "kind"]) and
		.kind == "rocectl-host-snapshot" and (.hostname | length > 0) and
		(.time | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$")) and
		(.host | has("hostname") or has("time") | not) and ([.. | select(. == "")] == []) and
		.host.procs.ok == true and .host.lldpad_running == false and (.host.kernel | length > 0)' "$SNAP"
}

@test "rdma_cm defaults are read, and a configfs directory made for it is removed" {
	[ ! -e "$CM/$LAB_A_DEV" ] && [ ! -e "$CM/$LAB_B_DEV" ]
	run -0 timeout 30 "$ROCECTL" collect -O "$SNAP"
	jq -e '[.host.devices[].ports[0].rdma_cm] | length == 2 and
		all(.ok == true and .default_roce_mode == "RoCE v2" and .default_roce_tos == 0)' "$SNAP"
	[ ! -e "$CM/$LAB_A_DEV" ] && [ ! -e "$CM/$LAB_B_DEV" ]
}

@test "a directory that was there is read and left alone" {
	knob_roce_tos "$LAB_A_DEV" 106
	[ -d "$CM/$LAB_A_DEV" ]
	run -0 timeout 30 "$ROCECTL" collect -O "$SNAP"
	jq -e --arg d "$LAB_A_DEV" '.host.devices[] | select(.name == $d) |
		.ports[0].rdma_cm.default_roce_tos == 106' "$SNAP"
	jq -e --arg d "$LAB_B_DEV" '.host.devices[] | select(.name == $d) |
		.ports[0].rdma_cm.default_roce_tos == 0' "$SNAP"
	[ -d "$CM/$LAB_A_DEV" ] && [ ! -e "$CM/$LAB_B_DEV" ]
	[ "$(cat "$CM/$LAB_A_DEV/ports/1/default_roce_tos")" = 106 ]
}

@test "collect leaves configfs and sysfs as they were" {
	local before after
	before=$(host_state)
	run -0 timeout 30 "$ROCECTL" collect -O "$SNAP"
	run -0 timeout 30 "$ROCECTL" collect -I 0.5
	after=$(host_state)
	[ "$before" = "$after" ]
}

@test "the snapshot feeds --input: devices shows the same as on the live host" {
	run -0 timeout 30 "$ROCECTL" collect -O "$SNAP"
	local live snap
	# the same document but for when it was made
	live=$(timeout 20 "$ROCECTL" devices -j | jq -S 'del(.time)')
	snap=$(timeout 20 "$ROCECTL" devices -j --input "$SNAP" | jq -S 'del(.time)')
	[ "$live" = "$snap" ]
	[ "$(jq '.devices | length' <<<"$live")" -eq 2 ]
}

@test "to stdout by default; --interval stores counter deltas" {
	run -0 --separate-stderr timeout 30 "$ROCECTL" collect -I 0.5
	jq -e '.host.sample_interval_s >= 0.5 and
		([.host.devices[].ports[0].hw_counters[] | .has_delta] | length > 0 and all)' <<<"$output"
	assert_equal "$stderr" "rocectl: warning: $(jq '.host.unreadable | length' <<<"$output") parts of the host were unreadable (see \"unreadable\")"
}
