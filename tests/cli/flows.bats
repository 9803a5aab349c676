#!/usr/bin/env bats
# rocectl flows and check's traffic area on host snapshots (the live host is
# tested in the lab, tests/lab/63-flows.bats).
load helpers

@test "flows: NCCL without NCCL_IB_TC sends DSCP 0 on prio 0 without PFC: fail, the fix in NCCL's terms" {
	run -0 rocectl flows --input "$FIXTURES/fault-nccl-no-tc.json"
	assert_line --index 0 "mlx5_0/1 (ens1f0np0): trust dscp, pfc 3, rdma_cm default tos 106"
	assert_line --regexp '^  all_reduce_perf +4242 +16 +0 +NCCL +0 +0 +fail +NCCL_IB_TC unset \(NCCL.s default 0\)$'
	assert_line "  all_reduce_perf: fix: NCCL_IB_TC=106 in the environment of 'all_reduce_perf'"
	assert_line "17 QPs and 0 rdma_cm ids on this host; 0 beyond the list (-v lists them)"
	# the kernel's own GSI QP is counted, not judged
	refute_output --partial "[ib_core]"
}

@test "flows -j: the consumer, its class and where it was read; -v lists the QPs" {
	run -0 rocectl flows -j --input "$FIXTURES/traffic-nccl-healthy.json"
	echo "$output" | jq -e '.ports == [{"device": "mlx5_0", "port": 1, "netdev": "ens1f0np0",
		"trust": "dscp", "pfc_prios": [3], "rdma_cm_tos": 106, "consumers": [{
		"owner": "all_reduce_perf", "pid": 4242, "qps": 16, "cm_ids": 0, "app": "NCCL",
		"tos": 106, "dscp": 26, "prio": 3, "status": "pass",
		"source": "NCCL_IB_TC=106 (/proc/4242/environ)", "reason": null, "fix": null,
		"before_tune": null}], "tune_tos_change": null}] and
		.qps == 17 and .cm_ids == 0 and .unlisted == 0 and (has("entries") | not)'
	run -0 rocectl flows -j -v --input "$FIXTURES/traffic-nccl-healthy.json"
	echo "$output" | jq -e '(.entries | length) == 17 and .entries[0] == {"kind": "qp",
		"device": "mlx5_0", "port": 1, "lqpn": 1, "qp_type": "GSI", "state": "RTS",
		"port_space": null, "src": null, "dst": null, "owner": "[ib_core]", "pid": null,
		"id": null, "made_before_tune": false}'
	python3 "$ROOT/tests/cli/lib/json_style.py" <<<"$output"
}

@test "check traffic: NCCL, UCX and Ceph consumers on a priority without PFC fail, each with its fix" {
	local f
	for f in fault-nccl-no-tc:NCCL_IB_TC=106 fault-ucx-tc-0:UCX_IB_TRAFFIC_CLASS=106 \
		 "fault-ceph-dscp-26:ms_async_rdma_dscp = 104"; do
		run -2 rocectl check traffic -j --skip traffic.lossless_share --input "$FIXTURES/${f%%:*}.json"
		echo "$output" | jq -e --arg fix "${f#*:}" '.findings == [.findings[0]] and
			.findings[0].id == "traffic.consumer_class" and .findings[0].status == "fail" and
			(.findings[0].fix | startswith($fix)) and .findings[0].device == "mlx5_0" and
			.findings[0].port == 1 and .findings[0].netdev == "ens1f0np0"'
	done
}

@test "check traffic: Ceph's ms_async_rdma_dscp is a ToS byte: 26 is DSCP 6, the trap spelled out" {
	run -2 rocectl check traffic --input "$FIXTURES/fault-ceph-dscp-26.json"
	assert_line "           ceph-osd (Ceph) sends DSCP 6, which lands on prio 0 without PFC: its RDMA runs lossy"
	assert_line "           evidence: ms_async_rdma_dscp = 26 (/etc/ceph/ceph.conf; a ToS byte)"
	assert_line "           fix: ms_async_rdma_dscp = 104 in /etc/ceph/ceph.conf (a ToS byte: DSCP 26 << 2)"
}

@test "check traffic: NCCL_IB_TC=106 lands on prio 3 with PFC: pass, check all exits 0" {
	run -0 rocectl check traffic -j --skip traffic.lossless_share --input "$FIXTURES/traffic-nccl-healthy.json"
	echo "$output" | jq -e '.findings[0].status == "pass" and
		.findings[0].evidence == "NCCL_IB_TC=106 (/proc/4242/environ)"'
	run -0 rocectl check all --input "$FIXTURES/traffic-nccl-healthy.json"
	assert_line "traffic    passed"
}

@test "a snapshot before schema 4 has no consumers: check says nothing of them, flows says why" {
	run -0 rocectl check traffic -j --skip traffic.lossless_share --input "$FIXTURES/mlx5-upstream-healthy.json"
	echo "$output" | jq -e '.findings == [] and .summary.exit_status == 0'
	run --separate-stderr rocectl flows --input "$FIXTURES/mlx5-upstream-healthy.json"
	assert_failure 3
	assert_equal "$stderr" "rocectl: cannot read the RDMA consumers: not in this snapshot"
}

@test "the MLNX_OFED global traffic class decides every consumer of its port" {
	jq '.host.rdma_resources.settings += [{"source": "ofed-sysfs",
		"where": "/sys/class/infiniband/mlx5_0/tc/1/traffic_class", "name": "traffic_class",
		"value": "0", "device": "mlx5_0", "port": 1}]' \
		"$FIXTURES/traffic-nccl-healthy.json" >"$BATS_TEST_TMPDIR/ofed.json"
	run -2 rocectl check traffic -j --skip traffic.lossless_share --input "$BATS_TEST_TMPDIR/ofed.json"
	echo "$output" | jq -e '.findings[0].status == "fail" and
		.findings[0].fix == "echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class" and
		(.findings[0].message | startswith("all_reduce_perf (MLNX_OFED) sends DSCP 0"))'
}

@test "MLNX_OFED per-destination tclass rules without a global class: the consumer's class is unknown" {
	# main_ext.c: a rule sets the class of the QPs to the peers it matches, the global one of all
	jq '.host.rdma_resources.settings += [{"source": "ofed-sysfs",
		"where": "/sys/class/infiniband/mlx5_0/tc/1/traffic_class", "name": "traffic_class_rules",
		"value": "2", "device": "mlx5_0", "port": 1}]' \
		"$FIXTURES/traffic-nccl-healthy.json" >"$BATS_TEST_TMPDIR/rules.json"
	run -3 rocectl check traffic -j --skip traffic.lossless_share --input "$BATS_TEST_TMPDIR/rules.json"
	echo "$output" | jq -e '.findings[0].status == "unknown" and
		.findings[0].message == "all_reduce_perf (MLNX_OFED): traffic class unknown: 2 per-destination tclass rules in /sys/class/infiniband/mlx5_0/tc/1/traffic_class set the class of the QPs to the peers they match: which apply is not known"'
}

@test "flows: a device the host does not have, and usage errors" {
	run --separate-stderr rocectl flows --input "$FIXTURES/traffic-nccl-healthy.json" mlx5_9
	assert_failure 3
	run -64 rocectl flows --input "$FIXTURES/traffic-nccl-healthy.json" --bogus
}

@test "the lab's real snapshot (rxe): kernel ULPs joined to their QPs, the environment's NCCL_IB_TC, unknown without DCB" {
	local snap=$ROOT/tests/fixtures/snapshots/rxe-lab-flows-v4.json
	run -0 rocectl flows -j --input "$snap"
	echo "$output" | jq -e '
		(.ports[] | select(.device == "rxe0") | .consumers | map(.owner)) == ["[nvme_rdma]", "rping", "ib_write_bw"] and
		(.ports[] | select(.device == "rxe1") | .consumers[] | select(.owner == "[nvmet_rdma]") | .qps == 2 and .cm_ids == 3) and
		(.ports[] | select(.device == "rxe1") | .consumers[] | select(.owner == "ib_write_bw") |
			.tos == 106 and .source == "NCCL_IB_TC=106 (/proc/512/environ)") and
		all(.ports[].consumers[]; .status == "unknown") and .qps == 10 and .cm_ids == 8'
	run -3 rocectl check traffic --input "$snap"
	assert_line "traffic    0 warnings, 0 errors, 6 unknown"
}

@test "tune plan: a new rdma_cm default ToS warns that the live connections keep theirs" {
	local snap=$ROOT/tests/fixtures/snapshots/rxe-lab-flows-v4.json
	run -0 rocectl tune plan --input "$snap"
	assert_line "        warning: 3 live rdma_cm connections on rxe0/1 keep the ToS they were made with (the default was 0) until they reconnect"
	run -0 rocectl tune plan -j --input "$snap"
	# rxe1's three were accepted (nvmet_rdma and rping -s listen on their source ports): they
	# take the class of the peer's request, not this host's default
	echo "$output" | jq -e '[.changes[] | select(.setting == "default_roce_tos") | .warning] ==
		["3 live rdma_cm connections on rxe0/1 keep the ToS they were made with (the default was 0) until they reconnect",
		 null]'
	# a snapshot without consumers knows of no connection: no warning
	run -0 rocectl tune plan -j --input "$FIXTURES/fault-tos-0.json"
	echo "$output" | jq -e '[.changes[] | select(.setting == "default_roce_tos") | .warning] == [null]'
}

# The lab's snapshot as a host where tune changed rxe0's default ToS while the
# kernel initiator's two connections were up (rctl_tune_mark_cm() marks them).
tuned_snapshot() {
	jq '.host.rdma_resources.tune_tos_changes = [{"device": "rxe0", "port": 1,
		"time": 1764911073, "old_tos": 0, "new_tos": 106, "connections_before": 3,
		"still_live": 2, "state_file": "tune-20251205-050433.json"}] |
		(.host.rdma_resources.entries[] | select(.kind == "cm_id" and .owner == "[nvme_rdma]") |
		 .made_before_tune) = true |
		(.host.devices[] | select(.name == "rxe0") | .ports[0].rdma_cm.default_roce_tos) = 106' \
		"$ROOT/tests/fixtures/snapshots/rxe-lab-flows-v4.json" >"$BATS_TEST_TMPDIR/tuned.json"
}

@test "flows and check traffic: connections made before tune changed the default ToS keep the old one" {
	tuned_snapshot
	run -0 rocectl flows --input "$BATS_TEST_TMPDIR/tuned.json" rxe0
	assert_line "  2 rdma_cm connections were made before tune changed the default ToS at 2025-12-05 05:04:33 UTC; they keep ToS 0 until they reconnect"
	run -0 rocectl flows -j --input "$BATS_TEST_TMPDIR/tuned.json"
	echo "$output" | jq -e '(.ports[] | select(.device == "rxe0") | .tune_tos_change ==
		{"time": 1764911073, "old_tos": 0, "new_tos": 106, "connections_before": 3,
		 "still_live": 2, "state_file": "tune-20251205-050433.json"}) and
		(.ports[] | select(.device == "rxe0") | .consumers[] | select(.owner == "[nvme_rdma]") |
		 .before_tune == "2 rdma_cm connections were made before tune changed the default ToS at 2025-12-05 05:04:33 UTC; they keep ToS 0 until they reconnect") and
		(.ports[] | select(.device == "rxe0") | .consumers[] | select(.owner == "rping") |
		 .before_tune == null) and
		(.ports[] | select(.device == "rxe1") | .tune_tos_change == null)'
	run -3 rocectl check traffic -j --input "$BATS_TEST_TMPDIR/tuned.json"
	echo "$output" | jq -e '[.findings[] | select(.id == "traffic.consumer_class" and
		(.message | startswith("[nvme_rdma]")) and .device == "rxe0") | .evidence] ==
		["the kernel does not report a connection'"'"'s ToS: the rdma_cm default 106 (DSCP 26) unless it was connected with its own (nvme connect --tos); 2 rdma_cm connections were made before tune changed the default ToS at 2025-12-05 05:04:33 UTC; they keep ToS 0 until they reconnect"]'
	# nothing recorded: nothing said
	run -0 rocectl flows --input "$ROOT/tests/fixtures/snapshots/rxe-lab-flows-v4.json" rxe0
	refute_output --partial "made before tune"
}
