#!/usr/bin/env bats
# Issue 37 (real hosts, round 4): shapes of real hosts the rules judged
# confidently wrong, each from its driver's source (tests/fixtures/hosts/README.md).
load helpers

# Non-pass findings of "check all" as "id:status" lines.
verdict() {
	rocectl check all -j --input "$FIXTURES/$1.json" |
		jq -r '.findings[] | select(.status != "pass" and .limit == null) |
			"\(.id):\(if .caused_by then "\(.status)<\(.caused_by.id)" else .status end)"'
}

@test "issue 37.4: irdma's active_mtu 4096 over a netdev MTU of 4150 fails mtu.active" {
	run -2 rocectl check mtu -j -i "$FIXTURES/fault-irdma-mtu-4150.json"
	jq -e '.findings[] | select(.id == "mtu.active") | .status == "fail" and
		(.message | test("irdma reports active_mtu 4096, but the netdev MTU 4150 leaves room for RoCE MTU 2048")) and
		.fix == "ip link set dev ens5f0np0 mtu 4192"' <<<"$output"
	run -0 verdict fault-irdma-mtu-4150
	assert_output 'mtu.active:fail'
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
	assert_output ""	# ice counts no packets per priority: a driver limit, left out
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

@test "issue 37.5: irdma counts no RoCE loss: the loss rate is unknown naming why, never 0 over N packets" {
	run -0 rocectl check counters -j -i "$FIXTURES/ice-irdma-healthy.json"
	jq -e '[.findings[] | select(.id == "counters.loss_budget")][0] |
		.status == "unknown" and
		(.message | test("irdma counts no RoCE sequence error, out-of-sequence packet, duplicate request or retransmission")) and
		(.evidence | test("irdma_hw_stat_descs")) and (.got | test("packets") | not) and
		(.limit | test("irdma_hw_stat_descs"))' <<<"$output"
	jq -e '[.findings[] | select(.id == "counters.loss")][0] |
		.status == "unknown" and .caused_by.id == "counters.loss_budget"' <<<"$output"
	# no Nagios perfdata loss_rate of a rate that was never measured
	run -0 rocectl check counters -o nagios -i "$FIXTURES/ice-irdma-healthy.json"
	refute_output --partial "loss_rate="
	# mlx5 counts its loss: measured
	run -0 rocectl check counters -j -i "$FIXTURES/mlx5-upstream-healthy.json"
	jq -e '.findings[] | select(.id == "counters.loss_budget") | .status == "pass" and
		(.got | test("loss rate 0 \\(0 of [0-9]+ packets\\)"))' <<<"$output"
}

@test "issue 37.9: a PCP design whose untagged netdev has an address warns about those GIDs only" {
	run -0 verdict fault-vlan-base-addr
	assert_output "dscp.trust_pcp:warn"
	run -1 rocectl check dscp -j -i "$FIXTURES/fault-vlan-base-addr.json"
	jq -e '[.findings[] | select(.id == "dscp.trust_pcp")] | length == 2 and
		.[0].status == "pass" and (.[0].message | test("VLAN 100: the VLAN tag carries prio 3")) and
		.[1].status == "warn" and .[1].setting_id == null and
		(.[1].message | test("RoCE through GID 6 \\(RoCE v1 10.10.1.13 on .ens1f0np0.\\), GID 7 \\(RoCE v2 10.10.1.13 on .ens1f0np0.\\) leaves untagged and lands on prio 0"))' <<<"$output"
	# all RoCE untagged is still the port's failure
	run -2 rocectl check dscp -i "$FIXTURES/fault-trust-pcp-untagged.json"
	assert_output --partial "all RoCE lands on prio 0"
}

@test "issue 37.13: inbox irdma's missing DCQCN is one driver limit with its consequences, counted once" {
	run -0 rocectl check all -i "$FIXTURES/ice-irdma-inbox.json"
	assert_line "  LIMIT   dcqcn.params  rocep152s0f0/1 (ens5f0np0)"
	assert_line "           consequences (3):"
	assert_line --regexp "^             WARN ecn.np_disabled  rocep152s0f0/1 \(ens5f0np0\): "
	refute_line --regexp "^  WARN "
	assert_line --regexp "^Summary: [0-9]+ passed, 0 warnings, 0 errors, 0 unknown, 3 driver limits, 4 consequences \(exit 0\)$"
	run -0 rocectl check all -j -i "$FIXTURES/ice-irdma-inbox.json"
	jq -e '([.findings[] | select(.caused_by.id == "dcqcn.params") | .id] ==
		 ["pfc.without_ecn", "ecn.np_disabled", "ecn.rp_disabled"]) and
		(.findings[] | select(.id == "dcqcn.params") | .status == "warn" and .consequences == 3 and
		 (.limit | test("irdma_roce_fill_and_set_qpctx_info"))) and
		.summary.warn == 0 and .summary.limit_count == 3 and .summary.consequences == 4 and
		(.areas[] | select(.area == "ecn") | .warn == 0 and .consequences == 2)' <<<"$output"
	# monitoring: OK, the limit said once, no warning series
	run -0 rocectl check all -o nagios -i "$FIXTURES/ice-irdma-inbox.json"
	assert_line --regexp "^ROCECTL OK - 0 failed, 0 unknown, 0 warnings, [0-9]+ passed \| .* limit=3 "
	assert_line --regexp "^LIMIT dcqcn.params rocep152s0f0/1 \(ens5f0np0\): .* \(\+3 consequences\)$"
	run -0 rocectl check all -o prometheus -i "$FIXTURES/ice-irdma-inbox.json"
	assert_line 'rocectl_check_limit{command="check all",id="dcqcn.params",area="dcqcn",device="rocep152s0f0",port="1",netdev="ens5f0np0"} 1'
	refute_line --regexp '^rocectl_check_status\{.*\} [123]$'
	# without the root's area the first consequence stands for it
	run -0 rocectl check ecn -j -i "$FIXTURES/ice-irdma-inbox.json"
	jq -e '[.findings[] | select(.status != "pass") | [.id, .caused_by.id, .limit != null]] ==
		[["ecn.np_disabled", null, true], ["ecn.rp_disabled", "ecn.np_disabled", true]]' <<<"$output"
}

@test "issue 37.13: a PF's fault judged on its VF's port is one finding, the VF's a consequence" {
	run -2 rocectl check pfc -j -i "$FIXTURES/fault-vf-pf-pfc-off.json"
	jq -e '[.findings[] | select(.id == "pfc.prio_disabled")] | length == 2 and
		.[0].target == "mlx5_0/1 (ens1f0np0)" and .[0].consequences == 1 and .[0].caused_by == null and
		.[1].target == "mlx5_2/1 (ens1f0v0 via PF ens1f0np0)" and
		.[1].caused_by == {"id": "pfc.prio_disabled", "target": "mlx5_0/1 (ens1f0np0)"} and
		.[1].limit == null' <<<"$output"
	jq -e '.summary.fail == 1 and .summary.consequences == 1' <<<"$output"
	run -2 rocectl check pfc -o nagios -i "$FIXTURES/fault-vf-pf-pfc-off.json"
	assert_line --regexp "^ROCECTL CRITICAL - 1 failed, "
	assert_line --regexp "^FAIL pfc.prio_disabled mlx5_0/1 \(ens1f0np0\): .* \(\+1 consequence\)$"
}

@test "issue 37.1: ice in DSCP mode ignores prio-tc: a RoCE TC at 0 % is fixed with a share, in check and tune" {
	run -0 verdict fault-ice-dscp-tc-0
	assert_output "pfc.ets:warn"
	run -1 rocectl check pfc -j -i "$FIXTURES/fault-ice-dscp-tc-0.json"
	jq -e '.findings[] | select(.id == "pfc.ets") | .setting_id == "ets-tc-bw" and
		.fix == "dcb ets set dev ens5f0np0 tc-bw 0:50 3:50 (ice in DSCP mode ignores prio-tc: tc 3 needs a share)"' <<<"$output"
	run -0 rocectl tune plan -j -i "$FIXTURES/fault-ice-dscp-tc-0.json"
	jq -e '[.changes[] | select(.target == "ens5f0np0")] | length == 1 and
		(.[0] | .setting == "tc-bw" and .setting_id == "ets-tc-bw" and
		 .command == "dcb ets set dev ens5f0np0 tc-bw 0:50 3:50" and
		 (.skip | test("ice in DSCP mode ignores prio-tc")))' <<<"$output"
	jq -e '[.changes[] | .command // "" | select(test("prio-tc"))] == []' <<<"$output"
	# in VLAN mode ice moves the priority as every driver does
	jq '.host.netdevs[0].app.entries = [] | .host.netdevs[0].ets.prio_tc = [0,0,0,1,0,0,0,0] |
		.host.netdevs[0].ets.tc_tx_bw = [100,0,0,0,0,0,0,0]' \
		"$FIXTURES/fault-ice-dscp-tc-0.json" >"$BATS_TEST_TMPDIR/vlan.json"
	run -1 rocectl check pfc -j -i "$BATS_TEST_TMPDIR/vlan.json"
	jq -e '.findings[] | select(.id == "pfc.ets") | .setting_id == "ets-prio-tc"' <<<"$output"
}

@test "issue 37.2: tune plan on ice in VLAN mode is computed for the state after the switch to DSCP mode, and says so" {
	run -0 rocectl tune plan -j -i "$FIXTURES/fault-ice-no-dscp.json"
	# VLAN mode: prio 3 on TC 1 (50 %); after the first DSCP entry: identity map, prio 3 on TC 3
	jq -e '[.changes[] | select(.setting == "tc-bw")] | length == 1 and
		(.[0] | .from == "tc 3: 0%" and .command == "dcb ets set dev ens5f0np0 tc-bw 0:25 3:25" and
		 (.warning | test("switches .ens5f0np0. to DSCP mode and resets ETS \\(TC 0 100 %, identity prio->TC map\\): computed for that state")))' <<<"$output"
	jq -e '[.changes[] | select(.setting == "dscp mode: prio-tc")][0] |
		.command == "dcb ets set dev ens5f0np0 prio-tc 3:1" and
		(.warning | test("switches to DSCP mode and resets ETS"))' <<<"$output"
	# already in DSCP mode with a share: nothing to change
	run -0 rocectl tune plan -j -i "$FIXTURES/ice-irdma-healthy.json"
	jq -e '.changes == []' <<<"$output"
}
