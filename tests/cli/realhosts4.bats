#!/usr/bin/env bats
# Issue 37 (real hosts, round 4): shapes of real hosts the rules judged
# confidently wrong, each from its driver's source (tests/fixtures/hosts/README.md).
load helpers

# Non-pass findings of "check all" as "id:status" lines.
verdict() {
	rocectl check all -j --input "$FIXTURES/$1.json" |
		jq -r '.findings[] | select(.status != "pass") | "\(.id):\(.status)"'
}

@test "issue 37.4: irdma's active_mtu 4096 over a netdev MTU of 4150 fails mtu.active" {
	run -2 rocectl check mtu -j -i "$FIXTURES/fault-irdma-mtu-4150.json"
	jq -e '.findings[] | select(.id == "mtu.active") | .status == "fail" and
		(.message | test("irdma reports active_mtu 4096, but the netdev MTU 4150 leaves room for RoCE MTU 2048")) and
		.fix == "ip link set dev ens5f0np0 mtu 4192"' <<<"$output"
	run -0 verdict fault-irdma-mtu-4150
	assert_output "mtu.active:fail"
	# mlx5 subtracts the headers itself: its active_mtu is the verdict there
	run -0 rocectl check mtu -i "$FIXTURES/ice-irdma-healthy.json"
}

@test "issue 37.10: without rdma_cm in configfs its defaults are known: ToS 0 warns, RoCE v2 passes" {
	run -1 rocectl check mode -j -i "$FIXTURES/fault-cm-no-configfs.json"
	jq -e '[.findings[] | select(.id == "mode.tos" or .id == "mode.roce_v1") | .status] == ["pass", "warn"] and
		(.findings[] | select(.id == "mode.tos") |
		 (.evidence | test("configfs not mounted")) and
		 (.fix | startswith("mount -t configfs none /sys/kernel/config && ")))' <<<"$output"
	run -0 verdict fault-cm-no-configfs
	assert_output "mode.tos:warn"
	# needs root is still unknown: the values may have been changed
	jq '.host.devices[0].ports[0].rdma_cm.errno = 13 | .host.devices[0].ports[0].rdma_cm.reason = "needs root"' \
		"$FIXTURES/fault-cm-no-configfs.json" >"$BATS_TEST_TMPDIR/x.json"
	run -3 rocectl check mode -i "$BATS_TEST_TMPDIR/x.json"
}

@test "issue 37.7: no switch DSCP map on a PCP design (VLAN egress map, PCP trust) passes" {
	run -0 verdict mlx5-vlan-peer-healthy
	assert_output ""
	run -0 rocectl check peer -j -i "$FIXTURES/mlx5-vlan-peer-healthy.json"
	jq -e '[.findings[] | select(.id == "peer.app_dscp") | .message] |
		length == 1 and (.[0] | test("not needed, RoCE runs on VLANs"))' <<<"$output"
	# the same switch in front of a DSCP design still warns
	jq '.host.netdevs[0].lldp.apps = []' "$FIXTURES/mlx5-peer-healthy.json" >"$BATS_TEST_TMPDIR/x.json"
	run -1 rocectl check peer -i "$BATS_TEST_TMPDIR/x.json"
}

@test "issue 37.3: ice's default DSCP map of DSCP mode is judged, by its TC count" {
	run -0 verdict ice-dscp-default-map
	assert_output ""
	run -0 rocectl check dscp -j -i "$FIXTURES/ice-dscp-default-map.json"
	jq -e '.findings[] | select(.id == "dscp.missing") | .got == "DSCP 26 -> prio 3"' <<<"$output"
	# 4 TCs: DSCP 12-19 -> 3, but nothing sets 26 (ice_dcbnl_setapp's loops)
	jq '.host.netdevs[0].ets.ets_cap = 4' "$FIXTURES/ice-dscp-default-map.json" >"$BATS_TEST_TMPDIR/x.json"
	run -2 rocectl check dscp -i "$BATS_TEST_TMPDIR/x.json"
	run -0 rocectl check dscp -i "$BATS_TEST_TMPDIR/x.json" --dscp 14
	# with the firmware's LLDP agent the map is the agent's: not assumed
	jq '.host.netdevs[0].dcbx.mode = 10' "$FIXTURES/ice-dscp-default-map.json" >"$BATS_TEST_TMPDIR/y.json"
	run -2 rocectl check dscp -i "$BATS_TEST_TMPDIR/y.json"
	# mlx5 lists every DSCP it maps: a missing one stays missing
	run -2 rocectl check dscp -i "$FIXTURES/fault-dscp26-missing.json"
}

@test "issue 37.8: the switch's ETS with the CNP priority in the RoCE traffic class warns" {
	run -0 verdict fault-peer-cnp-in-roce-tc
	assert_output "peer.ets:warn"
	run -1 rocectl check peer -j -i "$FIXTURES/fault-peer-cnp-in-roce-tc.json"
	jq -e '.findings[] | select(.id == "peer.ets") |
		(.message | test("puts CNP priority 6 in tc 3 with RoCE priority 3")) and
		(.fix | test("put priority 6 \\(CNPs\\) in a traffic class of its own"))' <<<"$output"
	run -0 rocectl check peer -i "$FIXTURES/mlx5-peer-healthy.json"
}

@test "issue 37.11: inbox bnxt_re tos_ecn 0 is ecn_marking 0: the reaction point is off, the notification point answers" {
	run -0 verdict fault-bnxt-tos-ecn-0
	assert_output "$(printf 'pfc.without_ecn:warn\necn.rp_disabled:fail')"
	run -2 rocectl check ecn -j -i "$FIXTURES/fault-bnxt-tos-ecn-0.json"
	jq -e '(.findings[] | select(.id == "ecn.np_disabled") | .status == "pass") and
		(.findings[] | select(.id == "ecn.rp_disabled") |
		 (.message | test("Not-ECT")) and (.evidence | test("tos_ecn 0")) and
		 .setting_id == "ecn-marking" and (.fix | test("tos_ecn 1")))' <<<"$output"
	# the out-of-tree driver's ecn_marking 0 is judged the same
	run -0 verdict fault-bnxt-oot-not-ect
	assert_output "$(printf 'pfc.without_ecn:warn\necn.rp_disabled:fail')"
}
