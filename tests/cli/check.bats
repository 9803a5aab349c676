#!/usr/bin/env bats
# rocectl check, doctor and compare on host snapshots: every fixture's findings
# exactly (ids and statuses of everything that is not a pass) and exit codes.
load helpers

# Non-pass findings of "check all" as "id:status" lines, in table order, of a
# fixture by name or of another snapshot by path (without .json); a driver
# limit is "id:limit", a consequence "id:status<root id".
verdict() {
	local f=$1
	[[ $f == */* ]] || f=$FIXTURES/$f
	rocectl check all -j --input "$f.json" "${@:2}" |
		jq -r '.findings[] | select(.status != "pass") |
			"\(.id):\(if .caused_by then "\(.status)<\(.caused_by.id)" elif .limit then "limit" else .status end)"'
}

# Exit status of "check all" on a fixture.
status_of() {
	local rc=0
	rocectl check all --input "$FIXTURES/$1.json" "${@:2}" >/dev/null || rc=$?
	echo "$rc"
}

expect() {	# fixture exit "id:status ..."
	run -0 verdict "$1"
	assert_output "$(printf '%s\n' $3)"
	[ "$(status_of "$1")" = "$2" ]
}

@test "healthy hosts: no warning, no failure, no unknown, exit 0" {
	for f in mlx5-upstream-healthy mlx5-ofed-healthy mlx5-cx5-healthy bnxt-healthy \
		 bnxt-oot-healthy mlx5-vlan-healthy mlx5-lag-healthy \
		 mlx5-vf-beside-pf-healthy mlx5-upstream-healthy-v1 mlx5-ipv6-healthy; do
		run -0 rocectl check all --input "$FIXTURES/$f.json"
		assert_line "Summary: $(rocectl check all -j -i "$FIXTURES/$f.json" | jq -r .summary.pass) passed, 0 warnings, 0 errors, 0 unknown (exit 0)"
		run -0 verdict "$f"
		assert_output ""
	done
	# the E810: healthy, as far as irdma and ice let anyone see (its loss and
	# where RoCE ran are unknown: two driver limits)
	run -0 rocectl check all --input "$FIXTURES/ice-irdma-healthy.json"
	assert_line --regexp "^Summary: [0-9]+ passed, 0 warnings, 0 errors, 0 unknown, 2 driver limits, 1 consequence \(exit 0\)$"
}

@test "healthy hosts: every area passed, with passes in JSON" {
	run -0 rocectl check all --input "$FIXTURES/mlx5-upstream-healthy.json"
	for a in pfc ecn dcqcn dscp cnp mtu gid mode counters firewall traffic; do
		assert_line --regexp "^$a +passed$"
	done
	rocectl check all -j -i "$FIXTURES/mlx5-upstream-healthy.json" | jq -e '
		.schema_version == 3 and .summary.exit_status == 0 and
		(.findings | map(select(.id == "gid.index")) | .[0].got == "index 3") and
		(.findings | all(has("id") and has("area") and has("target") and has("status") and
				 has("message") and has("expected") and has("got") and has("fix") and
				 has("device") and has("port") and has("netdev") and has("evidence")))'
}

@test "nvmf: two RDMA paths through two netdevs and two switches" {
	run -3 rocectl check nvmf -j -i "$FIXTURES/nvmf-two-paths.json"
	echo "$output" | jq -e '
		[.findings[] | select(.status != "pass") | .id] == ["nvmf.tos", "nvmf.tos"] and
		(.findings | map(select(.id == "nvmf.paths")) | .[0].status == "pass") and
		(.findings | map(select(.id == "nvmf.port_pfc" and .status == "pass")) | length == 2) and
		(.findings | map(select(.id == "nvmf.tos")) | .[0].evidence |
			test("default_roce_tos 106 of mlx5_0/1")) and
		(.findings | map(select(.id == "nvmf.tos")) | .[0].fix | endswith("--tos 106"))'
	# exit 0 once the ToS, which the kernel does not show, is left out
	run -0 rocectl check nvmf --skip nvmf.tos -i "$FIXTURES/nvmf-two-paths.json"
	# each controller joined to its rdma_cm IDs ([nvme_rdma], its traddr:trsvcid as destination,
	# not another service of the same address): port, netdev and count named
	jq '.host.rdma_resources = {"ok": true, "qps": 0, "cm_ids": 4, "entries": [
		{"kind": "cm_id", "device": "mlx5_0", "port": 1, "lqpn": 17, "state": "CONNECT",
		 "port_space": "TCP", "src": "10.10.1.11:40001", "dst": "10.10.1.100:4420", "pid": 0,
		 "owner": "[nvme_rdma]"},
		{"kind": "cm_id", "device": "mlx5_0", "port": 1, "lqpn": 18, "state": "CONNECT",
		 "port_space": "TCP", "src": "10.10.1.11:40002", "dst": "10.10.1.100:4420", "pid": 0,
		 "owner": "[nvme_rdma]"},
		{"kind": "cm_id", "device": "mlx5_0", "port": 1, "lqpn": 19, "state": "CONNECT",
		 "port_space": "TCP", "src": "10.10.1.11:40003", "dst": "10.10.1.100:4421", "pid": 0,
		 "owner": "[nvme_rdma]"},
		{"kind": "cm_id", "device": "mlx5_1", "port": 1, "lqpn": 20, "state": "CONNECT",
		 "port_space": "TCP", "src": "10.10.2.11:40004", "dst": "10.10.2.100:4420", "pid": 0,
		 "owner": "[nvme_rdma]"}]}' "$FIXTURES/nvmf-two-paths.json" >"$BATS_TEST_TMPDIR/cm.json"
	run -3 rocectl check nvmf -j -i "$BATS_TEST_TMPDIR/cm.json"
	echo "$output" | jq -e '[.findings[] | select(.id == "nvmf.tos") | .message] == [
		"the ToS of nvme0'"'"'s 2 rdma_cm connections on mlx5_0/1 (ens1f0np0) is unknown: connect with --tos 106 to be sure",
		"the ToS of nvme1'"'"'s 1 rdma_cm connection on mlx5_1/1 (ens1f1np1) is unknown: connect with --tos 106 to be sure"] and
		([.findings[] | select(.id == "nvmf.tos")][0].evidence ==
		 "2 rdma_cm connections of [nvme_rdma] to 10.10.1.100:4420 on mlx5_0/1 (ens1f0np0); without --tos its queues take default_roce_tos 106 of mlx5_0/1; the kernel reports no connection'"'"'s ToS")'
	# IPv6: the controller shows traddr as nvme connect was given it; the dump as inet_ntop writes it
	jq '(.host.nvme.controllers[1].traddr) = "fd00:0:0::2" |
		(.host.rdma_resources.entries[3].dst) = "[fd00::2]:4420"' "$BATS_TEST_TMPDIR/cm.json" \
		>"$BATS_TEST_TMPDIR/cm6.json"
	run -3 rocectl check nvmf -j -i "$BATS_TEST_TMPDIR/cm6.json"
	echo "$output" | jq -e '[.findings[] | select(.id == "nvmf.tos") | .message][1] ==
		"the ToS of nvme1'"'"'s 1 rdma_cm connection on mlx5_1/1 (ens1f1np1) is unknown: connect with --tos 106 to be sure"'
	# older snapshots have no NVMe-oF part: nothing to say, not unknown
	run -0 rocectl check nvmf -j -i "$FIXTURES/mlx5-upstream-healthy.json"
	echo "$output" | jq -e '.findings == []'
}
@test "nvmf: --dev selects the controllers on that device, port or netdev" {
	local f=$FIXTURES/fault-nvmf-loss-tmo-off.json
	run -1 rocectl check nvmf --skip nvmf.tos -j --dev mlx5_0 -i "$f"
	echo "$output" | jq -e '[.findings[] | select(.id != "nvmf.paths") | .target] | unique ==
		["nvme0 (rdma 10.10.1.100:4420)"]'
	for d in mlx5_1/1 ens1f1np1; do
		run -0 rocectl check nvmf --skip nvmf.tos -j --dev "$d" -i "$f"
		echo "$output" | jq -e '[.findings[] | select(.id != "nvmf.paths") | .target] | unique ==
			["nvme1 (rdma 10.10.2.100:4420)"]'
	done
}
@test "nvmf.port_pfc: an unreadable PFC is one unknown, said by the pfc area when it runs" {
	jq '.host.netdevs[0].pfc |= (.ok = false | .errno = 95 |
		.reason = "DCB not supported by the driver")' \
		"$FIXTURES/nvmf-two-paths.json" >"$BATS_TEST_TMPDIR/nopfc.json"
	run -0 verdict "$BATS_TEST_TMPDIR/nopfc" --skip nvmf.tos
	assert_output "pfc.prio_disabled:unknown"
	run -3 rocectl check nvmf --skip nvmf.tos -j -i "$BATS_TEST_TMPDIR/nopfc.json"
	echo "$output" | jq -e '[.findings[] | select(.status != "pass") | [.id, .status, .target]] ==
		[["nvmf.port_pfc", "unknown", "nvme0 (rdma 10.10.1.100:4420)"]]'
}
@test "fault: NVMe-oF subsystem with one path" {
	expect fault-nvmf-one-path 1 "nvmf.paths:warn nvmf.tos:unknown"
}
@test "fault: NVMe-oF paths through one switch" {
	expect fault-nvmf-one-tor 1 "nvmf.paths:warn nvmf.tos:unknown nvmf.tos:unknown"
}
@test "fault: NVMe-oF ctrl_loss_tmo and fast_io_fail_tmo off" {
	expect fault-nvmf-loss-tmo-off 1 "nvmf.timers:warn nvmf.tos:unknown nvmf.tos:unknown"
}
@test "fault: NVMe-oF controller reconnecting" {
	expect fault-nvmf-connecting 1 "nvmf.state:warn nvmf.tos:unknown nvmf.tos:unknown"
}
@test "fault: NVMe-oF controller on a port with PFC off" {
	expect fault-nvmf-pfc-off 2 "pfc.prio_disabled:fail nvmf.port_pfc:fail nvmf.tos:unknown nvmf.tos:unknown"
}
@test "fault: PFC off on prio 3" { expect fault-pfc-off-prio3 2 "pfc.prio_disabled:fail"; }
@test "fault: PFC on 0 and 3" { expect fault-pfc-on-0-and-3 1 "pfc.extra_prio:warn"; }
@test "fault: trust PCP on untagged L3" { expect fault-trust-pcp-untagged 2 "dscp.trust_pcp:fail"; }
@test "fault: DSCP 26 missing" { expect fault-dscp26-missing 2 "dscp.missing:fail"; }
@test "fault: DSCP 26 on two priorities" { expect fault-dscp26-two-prios 2 "dscp.ambiguous:fail"; }
@test "fault: CNP DSCP on the data priority" {
	expect fault-cnp-dscp-on-data-prio 2 "cnp.data_prio:fail cnp.mismatch:warn"
}
@test "fault: ECN NP disabled, and the PFC/ECN pair" {
	expect fault-ecn-np-disabled 2 "pfc.without_ecn:warn ecn.np_disabled:fail"
}
@test "fault: roce mode v1" { expect fault-roce-mode-v1 2 "mode.roce_v1:fail"; }
@test "fault: tos 0" { expect fault-tos-0 1 "mode.tos:warn"; }
@test "fault: MTU 1500 with intent 4096" { expect fault-mtu-1500-intent-4096 2 "mtu.active:fail"; }
@test "fault: no RoCE v2 GID for the IP" { expect fault-no-v2-gid-for-ip 2 "gid.no_v2:fail"; }
@test "fault: pause storm counters rising" { expect fault-pause-storm-rising 2 "counters.pause_storm:fail"; }
@test "fault: rx_discards_phy rising" { expect fault-rx-discards-phy-rising 1 "counters.rx_discards:warn"; }
@test "fault: out_of_sequence rising" {
	expect fault-out-of-sequence-rising 2 "counters.loss:warn counters.loss_budget:fail"
}
@test "fault: global pause with PFC" { expect fault-global-pause-with-pfc 2 "pfc.global_pause:fail"; }
@test "fault: lldpad running" { expect fault-lldpad-running 1 "pfc.lldpad:warn"; }

@test "fault: pause storm shown by pause duration on a ConnectX-5 without storm counters" {
	expect fault-pause-duration-cx5 2 "counters.pause_storm:fail"
	run -2 rocectl check counters -i "$FIXTURES/fault-pause-duration-cx5.json"
	assert_line "           expected no pause storm, got prio 3 sent pause for 94% of 10.0 s"
	# paused by the peer instead: a warning, the storm is upstream
	jq '(.host.netdevs[0].stats[] | select(.name == "tx_prio3_pause_duration") | .delta) = 0 |
	    (.host.netdevs[0].stats[] | select(.name == "rx_prio3_pause_duration") | .delta) = 7000000' \
		"$FIXTURES/fault-pause-duration-cx5.json" >"$BATS_TEST_TMPDIR/rx.json"
	run -0 verdict "$BATS_TEST_TMPDIR/rx"
	assert_output "counters.pause_storm:warn"
}

@test "bnxt host DCBX: zeroed PFC/ETS are firmware-managed unknowns; PFC frames prove PFC on" {
	expect bnxt-fw-dcb 3 "pfc.ets:unknown dscp.trust_pcp:unknown"
	run -3 rocectl check pfc -v -i "$FIXTURES/bnxt-fw-dcb.json"
	assert_line "           PFC is on for RoCE prio 3: the driver reads zero (firmware-managed), but 'ens2f0np0' sent PFC frames on it"
	refute_output --partial "PFC is off"
}

@test "bnxt host DCBX: an older snapshot's zeroed PFC is read as firmware-managed, not as PFC off" {
	jq '.host.netdevs[0].pfc |= (.ok = true | .errno = 0 | .reason = "") |
	    .host.netdevs[0].ets |= (.ok = true | .errno = 0 | .reason = "")' \
		"$FIXTURES/bnxt-fw-dcb.json" >"$BATS_TEST_TMPDIR/old.json"
	run -0 verdict "$BATS_TEST_TMPDIR/old"
	assert_output $'pfc.ets:unknown\ndscp.trust_pcp:unknown'
	refute_output --partial "pfc.prio_disabled"
}

@test "RoCE v2 over IPv6 only: the IPv6 address has its v2 GID, no 'no IPv4' warning" {
	run -0 rocectl check gid -j -i "$FIXTURES/mlx5-ipv6-healthy.json"
	jq -e '[.findings[] | "\(.id) \(.status) \(.message)"] ==
		["gid.no_v2 pass 2001:db8:10:1::15 on '"'ens1f0np0'"' has a RoCE v2 GID",
		 "gid.index pass RoCE v2 GID of 2001:db8:10:1::15 is index 3"]' <<<"$output"
	jq '.host.netdevs[0].addrs |= map(select(.ip | startswith("fe80")))' \
		"$FIXTURES/mlx5-ipv6-healthy.json" >"$BATS_TEST_TMPDIR/ll.json"
	run -0 verdict "$BATS_TEST_TMPDIR/ll"
	assert_output "gid.no_v2:warn"
	run -1 rocectl check gid -i "$BATS_TEST_TMPDIR/ll.json"
	assert_output --partial "no IPv4 or routable IPv6 address"
}

@test "bnxt with the firmware DCBX agent (LLD_MANAGED): the empty APP table is unknown, not trust PCP" {
	# The firmware agent is a legal owner, stated in a pass; its DSCP map cannot be seen.
	expect bnxt-fw-agent 3 "dscp.trust_pcp:unknown"
	run -0 rocectl check pfc -v -j -i "$FIXTURES/bnxt-fw-agent.json"
	jq -e '.findings[] | select(.id == "pfc.dcbx_owner") | .status == "pass" and
		(.message | test("firmware DCBX agent \\(host settings are refused\\)")) and
		(.evidence | test("bnxt_setupcc.sh, niccli or bnxtqos"))' <<<"$output"
	run -3 rocectl check dscp -j -i "$FIXTURES/bnxt-fw-agent.json"
	jq -e '.findings[0].message | test("without DCBX HOST refuses every APP entry")' <<<"$output"
	run -0 rocectl tune plan -j -i "$FIXTURES/bnxt-fw-agent.json"
	jq -e '[.changes[] | select(.skip == null)] == []' <<<"$output"
	# a snapshot of an older collector, the APP table read and empty: the loader marks it
	jq '.host.netdevs[0].app |= (.ok = true | .errno = 0 | .reason = "")' \
		"$FIXTURES/bnxt-fw-agent.json" >"$BATS_TEST_TMPDIR/old.json"
	run -0 verdict "$BATS_TEST_TMPDIR/old"
	assert_output "dscp.trust_pcp:unknown"
}

# A warning, not a failure: no host setting can turn it on (only Intel's driver).
@test "inbox irdma: DCQCN is off by the driver's code (known, a warning), and no CNP finding at all" {
	expect ice-irdma-inbox 0 "pfc.without_ecn:warn<dcqcn.params ecn.np_disabled:warn<dcqcn.params
		ecn.rp_disabled:warn<dcqcn.params dcqcn.params:limit counters.loss:unknown<counters.loss_budget
		counters.loss_budget:limit traffic.lossless_share:limit"
	run -0 rocectl check all -j -i "$FIXTURES/ice-irdma-inbox.json"
	jq -e '[.findings[] | select(.area == "cnp")] == []' <<<"$output"
	jq -e '[.findings[] | select(.id == "ecn.rp_disabled")][0] |
		(.evidence | test("irdma_roce_fill_and_set_qpctx_info")) and .setting_id == null and
		(.fix | test("out-of-tree irdma"))' <<<"$output"
	run -0 rocectl check all -i "$FIXTURES/ice-irdma-inbox.json" --skip ecn --skip dcqcn \
		--skip pfc.without_ecn --skip traffic.lossless_share
}

@test "E810 pause storm: XOFF refreshed through the interval with no XON (ice has no duration counter)" {
	expect fault-ice-xoff-storm 2 "counters.pause_storm:fail counters.loss:unknown<counters.loss_budget
		counters.loss_budget:limit traffic.lossless_share:limit"
	run -2 rocectl check counters -j -i "$FIXTURES/fault-ice-xoff-storm.json"
	jq -e '.findings[] | select(.status == "fail") | .message | test("prio 3 for the whole interval")' <<<"$output"
	# one XON in the interval: the pause ended, no storm
	jq '(.host.netdevs[0].stats[] | select(.name == "tx_priority_3_xon.nic") | .delta) = 1' \
		"$FIXTURES/fault-ice-xoff-storm.json" >"$BATS_TEST_TMPDIR/xon.json"
	run -0 verdict "$BATS_TEST_TMPDIR/xon"
	assert_output $'counters.loss:unknown<counters.loss_budget\ncounters.loss_budget:limit\ntraffic.lossless_share:limit'
	# a device that never sent XON: its silence says nothing
	jq '(.host.netdevs[0].stats[] | select(.name | test("_xon.nic")) | .value) = 0' \
		"$FIXTURES/fault-ice-xoff-storm.json" >"$BATS_TEST_TMPDIR/noxon.json"
	run -0 verdict "$BATS_TEST_TMPDIR/noxon"
	assert_output $'counters.loss:unknown<counters.loss_budget\ncounters.loss_budget:limit\ntraffic.lossless_share:limit'
}

@test "irdma before Linux 6.5 on a VLAN: the PCP is rt_tos2priority(ToS), the egress-qos-map unread" {
	run -2 rocectl check dscp -j -i "$FIXTURES/fault-irdma-vlan-pre65.json"
	jq -e '[.findings[] | "\(.id):\(.status)"] == ["dscp.trust_pcp:fail"]' <<<"$output"
	jq -e '.findings[0] | (.message | test("leaves with PCP 2")) and (.fix | test("^Linux 6.5 or later")) and
		.setting_id == null' <<<"$output"
	# the same host on 6.8: irdma_roce_get_vlan_prio applies the map, PCP 3
	jq '.host.kernel = "6.8.0-45-generic"' "$FIXTURES/fault-irdma-vlan-pre65.json" >"$BATS_TEST_TMPDIR/68.json"
	run -0 rocectl check dscp -i "$BATS_TEST_TMPDIR/68.json"
	# Intel's out-of-tree irdma (1.11.58 irdma_kcompat.c irdma_roce_get_vlan_prio) applies the
	# map on every kernel: the same 5.15 host on it is healthy
	jq '.host.devices[0].driver_version = "1.11.58"' "$FIXTURES/fault-irdma-vlan-pre65.json" >"$BATS_TEST_TMPDIR/oot.json"
	run -0 rocectl check dscp -i "$BATS_TEST_TMPDIR/oot.json"
}

@test "Broadcom out-of-tree bnxt_re: ecn_marking 0 sends Not-ECT, ECN is off whatever ecn_enable says" {
	expect fault-bnxt-oot-not-ect 2 "pfc.without_ecn:warn ecn.rp_disabled:fail"
	run -2 rocectl check ecn -j -i "$FIXTURES/fault-bnxt-oot-not-ect.json"
	jq -e '.findings[] | select(.id == "ecn.rp_disabled") | (.message | test("Not-ECT")) and
		.setting_id == "ecn-marking" and .fix == "echo 0x1 > /sys/kernel/config/bnxt_re/bnxt_re0/ports/1/cc/ecn_marking && echo 1 > /sys/kernel/config/bnxt_re/bnxt_re0/ports/1/cc/apply"' <<<"$output"
}

@test "RoCE LAG: the counter rules read every slave; --dev SLAVE judges that slave" {
	expect fault-lag-discards-slave 2 "counters.rx_discards:warn counters.loss:warn counters.loss_budget:fail"
	run -2 rocectl check counters -j -i "$FIXTURES/fault-lag-discards-slave.json"
	jq -e '[.findings[] | select(.id == "counters.rx_discards")] | length == 1 and
		(.[0] | .target == "mlx5_bond_0/1 (ens1f1np1 in bond0)" and .netdev == "ens1f1np1" and
		 (.message | test("port counters")))' <<<"$output"
	jq -e '.findings[] | select(.id == "counters.loss") |
		(.message | test("at least \\+18234 in port counters\\): the loss is at this host")) and
		(.evidence | test("port: .ens1f1np1. rx_discards_phy \\+18234"))' <<<"$output"
	run -2 rocectl check counters -j -i "$FIXTURES/fault-lag-discards-slave.json" --dev ens1f1np1
	jq -e '[.findings[] | select(.id == "counters.rx_discards") | .netdev] == ["ens1f1np1"]' <<<"$output"
	run -0 rocectl check pfc -i "$FIXTURES/fault-lag-discards-slave.json" --dev ens1f1np1
	run -0 rocectl check pfc -j -i "$FIXTURES/fault-lag-discards-slave.json" --dev ens1f1np1
	jq -e '[.findings[] | select(.netdev != null) | .netdev] | unique == ["ens1f1np1"]' <<<"$output"
}

@test "port and function discards are never added: each verdict says which it read" {
	jq '(.host.devices[0].ports[0].hw_counters[] | select(.name == "rx_roce_discards") | .delta) = 40 |
	    (.host.netdevs[0].stats[] | select(.name == "rx_discard_packets_cos0") | .delta) = 900' \
		"$FIXTURES/bnxt-healthy.json" >"$BATS_TEST_TMPDIR/both.json"
	run -1 rocectl check counters -j -i "$BATS_TEST_TMPDIR/both.json"
	jq -e '[.findings[] | select(.id == "counters.rx_discards") | .message | test("RDMA function|port counters")] ==
		[true, true]' <<<"$output"
	jq -e '[.findings[] | select(.id == "counters.rx_discards") | .evidence] ==
		["rx_roce_discards +40", "rx_discard_packets_cos0 +900"]' <<<"$output"
}

@test "fixtures are what the drivers produce: irdma has RoCE v2 GIDs only, ice in DSCP mode the identity prio-tc map" {
	local f
	for f in ice-irdma-healthy ice-irdma-inbox ice-peer-healthy; do
		jq -e '[.host.devices[0].ports[0].gids[].type] | unique == ["RoCE v2"]' "$FIXTURES/$f.json"
		jq -e '.host.netdevs[0] | ([.app.entries[].selector] | index(5)) == null or
			.ets.prio_tc == [0, 1, 2, 3, 4, 5, 6, 7]' "$FIXTURES/$f.json"
	done
}

@test "bnxt and irdma loss, discards and CNPs are read by their own names" {
	jq '(.host.devices[0].ports[0].hw_counters[] | select(.name == "oos_drop_count") | .delta) = 300 |
	    (.host.devices[0].ports[0].hw_counters[] | select(.name == "rx_roce_discards") | .delta) = 40' \
		"$FIXTURES/bnxt-healthy.json" >"$BATS_TEST_TMPDIR/bnxt.json"
	run -0 verdict "$BATS_TEST_TMPDIR/bnxt"
	assert_output $'counters.rx_discards:warn\ncounters.loss:warn\ncounters.loss_budget:fail'
	rocectl check counters -j -i "$BATS_TEST_TMPDIR/bnxt.json" |
		jq -e '.findings[] | select(.id == "counters.loss") |
			.evidence == "oos_drop_count +300; function: rx_roce_discards +40" and
			(.message | test("discarded packets \\(\\+40 in the RDMA function.s counters\\)"))'
	jq '(.host.devices[0].ports[0].hw_counters[] | select(.name == "out_of_sequence") | .delta) = 300' \
		"$FIXTURES/bnxt-oot-healthy.json" >"$BATS_TEST_TMPDIR/oot.json"
	run -0 verdict "$BATS_TEST_TMPDIR/oot"
	assert_output $'counters.loss:warn\ncounters.loss_budget:fail'
	jq '(.host.netdevs[0].stats[] | select(.name == "rx_dropped.nic") | .delta) = 12' \
		"$FIXTURES/ice-irdma-healthy.json" >"$BATS_TEST_TMPDIR/ice.json"
	run -0 verdict "$BATS_TEST_TMPDIR/ice"
	assert_output $'counters.rx_discards:warn\ncounters.loss:unknown<counters.loss_budget\ncounters.loss_budget:limit\ntraffic.lossless_share:limit'
}

@test "CNP fixes go where each bnxt_re driver keeps the CNP DSCP" {
	local f
	for f in bnxt-healthy bnxt-oot-healthy; do
		jq '(.host.netdevs[0].cc.params[] | select(.name == "np_cnp_dscp") | .value) = 40' \
			"$FIXTURES/$f.json" >"$BATS_TEST_TMPDIR/$f.json"
	done
	run -1 rocectl check cnp -i "$BATS_TEST_TMPDIR/bnxt-oot-healthy.json"
	assert_line "           fix: echo 0x30 > /sys/kernel/config/bnxt_re/bnxt_re0/ports/1/cc/cnp_dscp && echo 1 > /sys/kernel/config/bnxt_re/bnxt_re0/ports/1/cc/apply"
	run -1 rocectl check cnp -i "$BATS_TEST_TMPDIR/bnxt-healthy.json"
	assert_line "           fix: bnxt_setupcc.sh or niccli (Broadcom): np_cnp_dscp 48"
}

@test "global pause: with PFC a failure, instead of PFC a warning" {
	run -2 rocectl check pfc -i "$FIXTURES/fault-global-pause-with-pfc.json"
	assert_line "           global 802.3x pause is on together with PFC: they exclude each other"
	assert_line "           fix: ethtool -A ens1f0np0 autoneg off rx off tx off"
	jq '.host.netdevs[0].pfc.pfc_en = [false,false,false,false,false,false,false,false]' \
		"$FIXTURES/fault-global-pause-with-pfc.json" >"$BATS_TEST_TMPDIR/lfc.json"
	run -0 verdict "$BATS_TEST_TMPDIR/lfc" --profile lossy-ecn
	assert_output "pfc.global_pause:warn"
}

@test "fault: netfilter drops UDP 4791 on hardware RoCE: present, ineffective, a warning" {
	expect fault-nft-drop-roce 1 "firewall.roce_udp:warn"
	run -1 rocectl check firewall -i "$FIXTURES/fault-nft-drop-roce.json"
	assert_line "firewall   1 warnings, 0 errors"
	assert_line "           netfilter rule present: ineffective for hardware RoCE (it bypasses netfilter), but it blocks Soft-RoCE and OOB TCP"
	assert_line "           evidence: nft inet filter input handle 17: udp dport 4791 drop"
	assert_line "           fix: nft delete rule inet filter input handle 17"
	refute_output --partial "blocked"
}

@test "firewall: the same rule on Soft-RoCE (rxe) is a failure; on another netdev it passes" {
	jq '.host.devices[0].driver = "rxe"' "$FIXTURES/fault-nft-drop-roce.json" >"$BATS_TEST_TMPDIR/rxe.json"
	run -2 rocectl check firewall -j -i "$BATS_TEST_TMPDIR/rxe.json"
	echo "$output" | jq -e '[.findings[] | select(.status != "pass") | "\(.id):\(.status)"] == ["firewall.roce_udp:fail"]'
	echo "$output" | jq -e '.findings[0].message | test("blocks Soft-RoCE")'
	jq '.host.netfilter.blocking_rules[0].iifname = "eth9"' \
		"$BATS_TEST_TMPDIR/rxe.json" >"$BATS_TEST_TMPDIR/other.json"
	run -0 rocectl check firewall -i "$BATS_TEST_TMPDIR/other.json"
	jq '.host.netfilter.blocking_rules[0].iifname = "!ens1f0np0"' \
		"$BATS_TEST_TMPDIR/rxe.json" >"$BATS_TEST_TMPDIR/notme.json"
	run -0 rocectl check firewall -i "$BATS_TEST_TMPDIR/notme.json"
}

@test "firewall: out-of-band TCP drops warn; an unreadable ruleset is unknown with its reason" {
	jq '.host.netfilter.blocking_rules = [{"family": "ip", "table": "filter", "chain": "INPUT",
		"handle": 3, "proto": "tcp", "dport": 18515, "verdict": "reject", "iifname": "", "oifname": ""}]' \
		"$FIXTURES/mlx5-upstream-healthy.json" >"$BATS_TEST_TMPDIR/oob.json"
	run -0 verdict "$BATS_TEST_TMPDIR/oob"
	assert_output "firewall.oob_tcp:warn"
	run -1 rocectl check firewall -i "$BATS_TEST_TMPDIR/oob.json"
	assert_line "           a netfilter rule drops TCP 18515 (the perftest/pingpong out-of-band exchange)"
	jq '.host.netfilter = {"ok": false, "errno": 1, "reason": "not root: '"'nft list ruleset'"' needs CAP_NET_ADMIN"}' \
		"$FIXTURES/mlx5-upstream-healthy.json" >"$BATS_TEST_TMPDIR/nonroot.json"
	run -0 verdict "$BATS_TEST_TMPDIR/nonroot"
	assert_output "firewall.roce_udp:unknown"
	run -3 rocectl check firewall -i "$BATS_TEST_TMPDIR/nonroot.json"
	assert_line "           cannot read the netfilter ruleset: not root: 'nft list ruleset' needs CAP_NET_ADMIN"
	# A snapshot without the part (not collected) judges nothing there.
	jq 'del(.host.netfilter)' "$FIXTURES/mlx5-upstream-healthy.json" >"$BATS_TEST_TMPDIR/old.json"
	run -0 rocectl check firewall -j -i "$BATS_TEST_TMPDIR/old.json"
	echo "$output" | jq -e '.findings == []'
}

@test "SR-IOV VF without its PF in the run: the PF's settings are named, the VF's unreadable DCB and ECN are not unknown" {
	expect mlx5-sriov-vf 1 "ecn.sriov_vf:warn"
	run -1 rocectl check all -i "$FIXTURES/mlx5-sriov-vf.json"
	assert_line "  WARN    ecn.sriov_vf  mlx5_2/1 (ens1f0v0)"
	assert_line "           'ens1f0v0' is an SR-IOV VF: PFC, DSCP trust and ECN/DCQCN are set on its PF 'ens1f0np0' and must be checked there"
	assert_line "           fix: rocectl check all --dev ens1f0np0"
	# The same netdev as a PF: its unreadable parts are unknown again.
	jq '.host.netdevs[0].sriov_vf = false' "$FIXTURES/mlx5-sriov-vf.json" >"$BATS_TEST_TMPDIR/pf.json"
	run -0 verdict "$BATS_TEST_TMPDIR/pf"
	assert_output --partial "pfc.prio_disabled:unknown"
	assert_output --partial "dcqcn.params:unknown"
	refute_output --partial "ecn.sriov_vf"
}

@test "SR-IOV VF beside its PF: the VF's port judged on the PF's DCB and ECN" {
	run -0 rocectl check all --dev mlx5_2 -i "$FIXTURES/mlx5-vf-beside-pf-healthy.json"
	assert_line "ecn        passed"
	run -0 rocectl check all -v --dev ens1f0v0 -i "$FIXTURES/mlx5-vf-beside-pf-healthy.json"
	assert_line "           'ens1f0v0' is an SR-IOV VF: PFC, DSCP trust and ECN/DCQCN are judged on its PF 'ens1f0np0' (the findings on 'ens1f0v0 via PF ens1f0np0')"
	assert_line "  PASS    dcqcn.params  mlx5_2/1 (ens1f0v0 via PF ens1f0np0)"
	jq '.host.netdevs[0].app.entries = []' "$FIXTURES/mlx5-vf-beside-pf-healthy.json" >"$BATS_TEST_TMPDIR/pcp.json"
	run -2 rocectl check all -j --dev ens1f0v0 -i "$BATS_TEST_TMPDIR/pcp.json"
	echo "$output" | jq -e '[.findings[] | select(.status == "fail")] | length == 1 and
		.[0].id == "dscp.trust_pcp" and .[0].target == "mlx5_2/1 (ens1f0v0 via PF ens1f0np0)" and
		.[0].device == "mlx5_2" and .[0].netdev == "ens1f0np0"'
}

@test "RoCE over a VLAN: GID, PCP trust through egress-qos-map, MTU of the VLAN" {
	run -0 rocectl check dscp -v -i "$FIXTURES/mlx5-vlan-healthy.json"
	assert_line "           PCP trust with RoCE on VLAN 100: the VLAN tag carries prio 3"
	expect fault-vlan-no-egress-map 2 "dscp.trust_pcp:fail"
	run -2 rocectl check dscp -i "$FIXTURES/fault-vlan-no-egress-map.json"
	assert_line "           RoCE on VLAN 100 leaves with PCP 0: the port trusts PCP, so it lands on prio 0, not 3"
	assert_line "           fix: ip link set dev ens1f0np0.100 type vlan egress-qos-map 2:3"
	# rdma_cm's ToS picks the skb priority: ToS 184 (DSCP 46) is skb priority 4.
	jq '.host.netdevs[1].vlan_egress_qos = [0,0,0,0,3,0,0,0]' \
		"$FIXTURES/mlx5-vlan-healthy.json" >"$BATS_TEST_TMPDIR/map4.json"
	run -0 verdict "$BATS_TEST_TMPDIR/map4"
	assert_output "dscp.trust_pcp:fail"
	run -0 verdict "$BATS_TEST_TMPDIR/map4" --tos 184 --dscp 46
	assert_output "mode.tos:warn"
	jq '.host.netdevs[1].mtu = 1500' "$FIXTURES/mlx5-vlan-healthy.json" >"$BATS_TEST_TMPDIR/mtu.json"
	run -0 verdict "$BATS_TEST_TMPDIR/mtu"
	assert_output "mtu.active:fail"
	run -2 rocectl check mtu -i "$BATS_TEST_TMPDIR/mtu.json"
	assert_line "  FAIL    mtu.active  mlx5_0/1 (ens1f0np0.100)"
	assert_line "           fix: ip link set dev ens1f0np0.100 mtu 4192"
	# Without the VLAN's address the port has no IPv4 to use at all.
	jq '.host.netdevs[1].addrs = []' "$FIXTURES/mlx5-vlan-healthy.json" >"$BATS_TEST_TMPDIR/noip.json"
	run -0 verdict "$BATS_TEST_TMPDIR/noip"
	assert_output "gid.no_v2:warn"
}

@test "RoCE LAG: DCB judged on each slave, the slaves have RDMA, GIDs on the bond" {
	expect fault-lag-pfc-off-slave 2 "pfc.prio_disabled:fail"
	run -2 rocectl check pfc -i "$FIXTURES/fault-lag-pfc-off-slave.json"
	assert_line "  FAIL    pfc.prio_disabled  mlx5_bond_0/1 (ens1f1np1 in bond0)"
	assert_line "           fix: dcb pfc set dev ens1f1np1 prio-pfc 3:on"
	run -0 rocectl check gid -v -i "$FIXTURES/mlx5-lag-healthy.json"
	assert_line "           10.10.1.14 on 'bond0' has a RoCE v2 GID"
	# Without the bond in the model the second port is a NIC without RDMA.
	jq '.host.netdevs[1].master = ""' "$FIXTURES/mlx5-lag-healthy.json" >"$BATS_TEST_TMPDIR/nobond.json"
	run -0 verdict "$BATS_TEST_TMPDIR/nobond"
	assert_output "mode.roce_disabled:warn"
}

@test "a schema 1 snapshot is still read and judged" {
	run -0 rocectl doctor --input "$FIXTURES/mlx5-upstream-healthy-v1.json"
	jq -e '.schema_version == 1' "$FIXTURES/mlx5-upstream-healthy-v1.json"
	diff <(rocectl check all -j -i "$FIXTURES/mlx5-upstream-healthy-v1.json" | jq .findings) \
		<(rocectl check all -j -i "$FIXTURES/mlx5-upstream-healthy.json" | jq .findings)
}

@test "fault: debugfs unreadable is unknown, not failure" {
	# One unknown per unreadable part: dcqcn.params says it; cnp alone says it itself.
	expect fault-debugfs-unreadable 3 "dcqcn.params:unknown"
	run -3 rocectl check dcqcn -i "$FIXTURES/fault-debugfs-unreadable.json"
	assert_line "  UNKNOWN dcqcn.params  mlx5_0/1 (ens1f0np0)"
	assert_line --regexp "^ +cannot read congestion control \(DCQCN\) of 'ens1f0np0': debugfs not mounted"
	run -3 rocectl check cnp -i "$FIXTURES/fault-debugfs-unreadable.json"
	assert_line --regexp "^cnp +0 warnings, 0 errors, 1 unknown$"
}

@test "the loss budget finding states the measured rate" {
	run -2 rocectl check counters -j -i "$FIXTURES/fault-out-of-sequence-rising.json"
	echo "$output" | jq -e '.findings[] | select(.id == "counters.loss_budget") |
		.status == "fail" and (.got | test("^loss rate 0\\.00241 \\(5160 of 2145200 packets\\)$"))'
	run -1 rocectl check counters -v -i "$FIXTURES/fault-out-of-sequence-rising.json" --loss-budget 0.01
	assert_output --partial "is within the budget 0.01"
}

@test "a fix is the exact command" {
	run -2 rocectl check pfc -i "$FIXTURES/fault-pfc-off-prio3.json"
	assert_line "           fix: dcb pfc set dev ens1f0np0 prio-pfc 3:on"
	assert_line --regexp "^pfc +0 warnings, 1 errors$"
	run -2 rocectl check dscp -i "$FIXTURES/fault-dscp26-missing.json"
	assert_line "           fix: dcb app replace dev ens1f0np0 dscp-prio 26:3"
}

@test "one area only judges that area; counters without deltas is exit 3" {
	run -0 rocectl check mode -j -i "$FIXTURES/fault-pfc-off-prio3.json"
	echo "$output" | jq -e '[.findings[].area] | unique == ["mode"]'
	jq '.host.sample_interval_s = 0' "$FIXTURES/mlx5-upstream-healthy.json" >"$BATS_TEST_TMPDIR/one.json"
	run -3 rocectl check counters -i "$BATS_TEST_TMPDIR/one.json"
	assert_output "rocectl: no counter deltas to judge: use 'rocectl doctor' or a snapshot of two samples"
	run -0 rocectl check all -i "$BATS_TEST_TMPDIR/one.json"
	assert_line "counters   skipped: needs two counter samples (rocectl doctor)"
}

@test "lossy-ecn profile: PFC on is the finding, PFC off is not" {
	run -0 verdict fault-pfc-off-prio3 --profile lossy-ecn
	assert_output ""
	run -0 verdict mlx5-upstream-healthy --profile lossy-ecn
	assert_output "pfc.extra_prio:warn"
}

@test "intent options and the config file change the verdict" {
	run -0 verdict fault-tos-0 --tos 0
	assert_output ""
	printf '# site\nprofile = lossless-dscp\ntos = 0\n' >"$BATS_TEST_TMPDIR/c.conf"
	run -0 verdict fault-tos-0 --config "$BATS_TEST_TMPDIR/c.conf"
	assert_output ""
	ROCECTL_CONF=$BATS_TEST_TMPDIR/c.conf run -0 verdict fault-tos-0
	assert_output ""
	run -0 verdict mlx5-upstream-healthy --prio 4
	assert_output --partial "pfc.prio_disabled:fail"
}

@test "bad config and intent values: one-line usage error, exit 64" {
	printf 'prio = 9\n' >"$BATS_TEST_TMPDIR/bad.conf"
	run -64 rocectl check all -i "$FIXTURES/bnxt-healthy.json" --config "$BATS_TEST_TMPDIR/bad.conf"
	assert_output "rocectl: '$BATS_TEST_TMPDIR/bad.conf' line 1: invalid value '9' for 'prio'"
	run -64 rocectl check all -i "$FIXTURES/bnxt-healthy.json" --config /nonexistent/rocectl.conf
	assert_output "rocectl: cannot read config '/nonexistent/rocectl.conf': No such file or directory"
	run -64 rocectl check all -i "$FIXTURES/bnxt-healthy.json" --loss-budget 2
	assert_output "rocectl: invalid value '2' for '--loss-budget': expected a rate from 0 to 1"
	run -64 rocectl check all --mtu 1000
	assert_output "rocectl: invalid value '1000' for '--mtu': expected 256, 512, 1024, 2048 or 4096"
	run -64 rocectl check all --profile lossless
	assert_output --partial "expected one of lossless-dscp, lossy-ecn"
}

@test "bad snapshots: one-line error, exit 3, no crash" {
	printf 'not json' >"$BATS_TEST_TMPDIR/a.json"
	head -c 300 "$FIXTURES/mlx5-upstream-healthy.json" >"$BATS_TEST_TMPDIR/b.json"
	jq '.schema_version = 99' "$FIXTURES/mlx5-upstream-healthy.json" >"$BATS_TEST_TMPDIR/c.json"
	jq '.host.netdevs[0].mtu = "big"' "$FIXTURES/mlx5-upstream-healthy.json" >"$BATS_TEST_TMPDIR/d.json"
	for f in a b c d; do
		run -3 rocectl check all -i "$BATS_TEST_TMPDIR/$f.json"
		[ "${#lines[@]}" -eq 1 ]
		assert_output --regexp "^rocectl: .*$f\.json"
		run -3 --separate-stderr rocectl doctor -j -i "$BATS_TEST_TMPDIR/$f.json"
		echo "$output" | jq -e '.error.message | length > 0'
	done
	run -3 rocectl check all -i /nonexistent.json
}

@test "doctor on a snapshot: all areas, the snapshot's deltas" {
	run -2 rocectl doctor -i "$FIXTURES/fault-pause-storm-rising.json"
	assert_line --index 0 --partial "counters over 10.0 s"
	assert_line --regexp "^counters +0 warnings, 1 errors$"
	run -0 rocectl doctor -j -i "$FIXTURES/bnxt-healthy.json"
	echo "$output" | jq -e '(.areas | length) == 14 and .summary.fail == 0 and .summary.exit_status == 0'
}

@test "--dev filters targets" {
	run --separate-stderr -3 rocectl check all -i "$FIXTURES/fault-pfc-off-prio3.json" --dev mlx5_9
	assert_output ""
	assert_equal "$stderr" "rocectl: no RDMA device, port or netdev matches '--dev mlx5_9' on 'node11'"
	run --separate-stderr -3 rocectl check all -j -i "$FIXTURES/fault-pfc-off-prio3.json" --dev mlx5_9
	echo "$output" | jq -e '(.error.message | test("mlx5_9")) and (has("findings") | not)'
	run -3 rocectl doctor -i "$FIXTURES/fault-pfc-off-prio3.json" -d mlx5_0/2
	run -2 rocectl check pfc -i "$FIXTURES/fault-pfc-off-prio3.json" --ib-dev mlx5_0/1
	run -2 rocectl check pfc -j -i "$FIXTURES/fault-pfc-off-prio3.json" --dev ens1f0np0
}

@test "a positional device, as --dev: after the areas, the host's device, port or netdev" {
	local vf=$FIXTURES/mlx5-vf-beside-pf-healthy.json off=$FIXTURES/fault-pfc-off-prio3.json a
	run -0 rocectl check all mlx5_2 -j -i "$vf"
	jq -e '[.findings[].device | select(. != null)] | unique == ["mlx5_2"]' <<<"$output"
	a=$(jq -c 'del(.time)' <<<"$output")
	run -0 rocectl check all -j -i "$vf" --dev mlx5_2
	[ "$(jq -c 'del(.time)' <<<"$output")" = "$a" ]
	run -0 rocectl check all mlx5_2 -j -i "$vf" -d mlx5_2
	# areas and the device in any order; DEV/PORT and a netdev too
	run -2 rocectl check pfc mlx5_0/1 ecn -j -i "$off"
	jq -e '[.areas[].area] | index("pfc") != null and index("ecn") != null' <<<"$output"
	run -2 rocectl check pfc ens1f0np0 -i "$off"
	run -0 rocectl doctor mlx5_2 -j -i "$vf"
	jq -e '[.findings[].device | select(. != null)] | unique == ["mlx5_2"]' <<<"$output"
	# a name that is neither: a usage error naming both; two devices; a disagreeing --dev
	run --separate-stderr -64 rocectl check pfc mlx5_9 -i "$off"
	assert_equal "$stderr" "rocectl: check pfc: 'mlx5_9' is neither an area nor an RDMA device, DEV/PORT or netdev of 'node11' (see 'rocectl check --help')"
	run --separate-stderr -64 rocectl check pfc mlx5_0 mlx5_2 -i "$vf"
	assert_equal "$stderr" "rocectl: check pfc: 'mlx5_0' and 'mlx5_2' are no areas, and one device at most is judged (see 'rocectl check --help')"
	run --separate-stderr -64 rocectl check all mlx5_0 -d mlx5_2 -i "$vf"
	assert_equal "$stderr" "rocectl: check all: 'mlx5_0' and '--dev mlx5_2' name two devices; give one"
	run --separate-stderr -64 rocectl doctor mlx5_0 --dev mlx5_2 -i "$vf"
	run --separate-stderr -64 rocectl doctor mlx5_0 mlx5_2 -i "$vf"
	run --separate-stderr -3 rocectl doctor mlx5_9 -i "$vf"
	# a plugin's usage error is its UNKNOWN status line
	run -3 rocectl check pfc mlx5_9 -o nagios -i "$off"
	assert_output --partial "ROCECTL UNKNOWN - "
}

@test "usage errors exit 64" {
	run -64 rocectl check
	run -64 rocectl check nosuch
	run -64 rocectl doctor --interval 0
	run -64 rocectl compare "$FIXTURES/bnxt-healthy.json"
}

@test "compare: identical hosts have no outlier, exit 0" {
	run -0 rocectl compare "$FIXTURES/mlx5-upstream-healthy.json" "$FIXTURES/mlx5-upstream-healthy.json"
	assert_line "0 outliers among 2 RoCE ports"
}

@test "compare: outliers in PFC, tos, mode and MTU against the majority" {
	run -1 rocectl compare -j "$FIXTURES/mlx5-upstream-healthy.json" \
		"$FIXTURES/fault-pfc-on-0-and-3.json" "$FIXTURES/fault-tos-0.json" \
		"$FIXTURES/fault-roce-mode-v1.json" "$FIXTURES/fault-mtu-1500-intent-4096.json"
	echo "$output" | jq -e '
		([.outliers[] | "\(.field)=\(.[.field])/\(.most_common[.field])"] | sort) ==
		["active_mtu=1024/4096", "pfc_prios=[0,3]/[3]", "roce_mode=v1/v2", "roce_tos=0/106"] and
		.exit_status == 1 and (.ports | length) == 5'
}

@test "compare: two hosts that differ flag both sides, naming no 'most common' value" {
	run -1 rocectl compare "$FIXTURES/mlx5-upstream-healthy.json" "$FIXTURES/fault-cnp-dscp-on-data-prio.json"
	assert_line "  node11 mlx5_0/1 (ens1f0np0): cnp_dscp 48 (no value is held by most mlx5 inbox ports)"
	assert_line "  node11 mlx5_0/1 (ens1f0np0): cnp_dscp 24 (no value is held by most mlx5 inbox ports)"
	refute_output --partial "48 (most common 48)"
	run -1 rocectl compare -j "$FIXTURES/mlx5-upstream-healthy.json" "$FIXTURES/fault-cnp-dscp-on-data-prio.json"
	echo "$output" | jq -e '[.outliers[] | select(.field == "cnp_dscp") | .most_common] == [null, null]'
}

@test "compare -j: every key once; the rows under 'ports', their count under 'port_count'" {
	run -1 rocectl compare -j "$FIXTURES/mlx5-upstream-healthy.json" "$FIXTURES/fault-tos-0.json" \
		"$FIXTURES/mlx5-ofed-healthy.json"
	python3 -c 'import json, sys
def once(pairs):
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), keys
    return dict(pairs)
json.loads(sys.stdin.read(), object_pairs_hook=once)' <<<"$output"
	echo "$output" | jq -e '(.ports | length) == 3 and .port_count == 3'
}

@test "compare: a host whose RDMA consumers or their traffic class differ from its peers" {
	local s=$ROOT/tests/fixtures/snapshots/rxe-lab-flows-v4.json d=$BATS_TEST_TMPDIR
	jq '.hostname = "lab2"' "$s" >"$d/lab2.json"
	jq '.hostname = "lab3"' "$s" >"$d/lab3.json"
	# lab4: ib_write_bw on rxe1 runs with NCCL_IB_TC=0, and a ceph-osd holds a QP on rxe0
	jq '.hostname = "lab4" |
		(.host.rdma_resources.consumers[] | select(.name == "ib_write_bw" and .pid == 512) |
		 .environ[] | select(.name == "NCCL_IB_TC") | .value) = "0" |
		.host.rdma_resources.consumers += [{"name": "ceph-osd", "pid": 777, "qps": 1,
		 "cm_ids": 0, "environ_ok": true, "environ": []}] |
		.host.rdma_resources.counts += [{"kind": "qp", "device": "rxe0", "port": 1, "pid": 777,
		 "owner": "ceph-osd", "qp_type": "RC", "state": "RTS", "count": 1}]' "$s" >"$d/lab4.json"
	run -0 rocectl compare "$s" "$d/lab2.json" "$d/lab3.json"
	assert_line "0 outliers among 6 RoCE ports"
	run -1 rocectl compare "$s" "$d/lab2.json" "$d/lab3.json" "$d/lab4.json"
	assert_line "  lab4 rxe0/1 (veth0): rdma_consumers [nvme_rdma],[nvmet_rdma],ceph-osd,ib_write_bw,rping (most common [nvme_rdma],[nvmet_rdma],ib_write_bw,rping among rxe inbox ports)"
	assert_line "  lab4 rxe0/1 (veth0): consumer_tc [nvme_rdma] rdma_cm ? default; [nvmet_rdma] rdma_cm ? default; ceph-osd Ceph ? default; ib_write_bw NCCL 0 environ; rping rdma_cm ? default (most common [nvme_rdma] rdma_cm ? default; [nvmet_rdma] rdma_cm ? default; ib_write_bw NCCL 0 environ; ib_write_bw NCCL 106 environ; rping rdma_cm ? default among rxe inbox ports)"
	assert_line "2 outliers among 8 RoCE ports"
	# the host's consumers, on its first port; its other ports do not apply
	run -1 rocectl compare -j "$s" "$d/lab2.json" "$d/lab3.json" "$d/lab4.json"
	echo "$output" | jq -e '.ports[0].rdma_consumers == "[nvme_rdma],[nvmet_rdma],ib_write_bw,rping" and
		.ports[1].rdma_consumers == null and (.ports[1].not_applicable | index("consumer_tc") != null) and
		([.outliers[] | .field] == ["rdma_consumers", "consumer_tc"])'
	# snapshots without consumers (before schema 4): unknown alike, no outlier
	run -0 rocectl compare "$FIXTURES/mlx5-upstream-healthy.json" "$FIXTURES/mlx5-cx5-healthy.json"
	assert_line --regexp '^node11 .* n/a +\? +\?$'
}

@test "compare: one snapshot is a usage error that says two are needed" {
	run --separate-stderr rocectl compare "$FIXTURES/bnxt-healthy.json"
	assert_failure 64
	assert_equal "$stderr" "rocectl: compare: needs two or more snapshots, got only '$FIXTURES/bnxt-healthy.json' (see 'rocectl compare --help')"
}

@test "compare: six healthy hosts of three vendors and two driver lines have no outlier" {
	local f
	run -0 rocectl compare "$FIXTURES/mlx5-upstream-healthy.json" "$FIXTURES/mlx5-cx5-healthy.json" \
		"$FIXTURES/mlx5-ofed-healthy.json" "$FIXTURES/bnxt-healthy.json" \
		"$FIXTURES/bnxt-oot-healthy.json" "$FIXTURES/ice-irdma-healthy.json"
	assert_line "0 outliers among 6 RoCE ports"
	# each host's own doctor agrees
	for f in mlx5-upstream-healthy mlx5-cx5-healthy mlx5-ofed-healthy bnxt-healthy bnxt-oot-healthy \
		 ice-irdma-healthy; do
		run -0 rocectl doctor -q --input "$FIXTURES/$f.json"
	done
	# a fault among them is still found, against its own driver family
	run -1 rocectl compare -j "$FIXTURES/mlx5-upstream-healthy.json" "$FIXTURES/mlx5-cx5-healthy.json" \
		"$FIXTURES/fault-tos-0.json" "$FIXTURES/bnxt-healthy.json" "$FIXTURES/bnxt-oot-healthy.json" \
		"$FIXTURES/ice-irdma-healthy.json"
	echo "$output" | jq -e '[.outliers[] | "\(.field)=\(.[.field])/\(.most_common[.field])/\(.group)"] ==
		["roce_tos=0/106/mlx5 inbox"]'
	# --by none compares the whole fleet as one, vendor defaults and all
	run -1 rocectl compare --by none "$FIXTURES/mlx5-upstream-healthy.json" "$FIXTURES/mlx5-cx5-healthy.json" \
		"$FIXTURES/bnxt-healthy.json"
	assert_line "  node21 bnxt_re0/1 (ens2f0np0): dscp_map 4a41e924 (most common 0245fb65)"
}

@test "compare: a setting the driver does not have is n/a, never an outlier; JSON is typed" {
	run -0 rocectl compare "$FIXTURES/ice-irdma-healthy.json" "$FIXTURES/ice-irdma-healthy.json"
	assert_line --regexp '^node41 .* n/a +n/a +106 '
	run -1 rocectl compare -j --by none "$FIXTURES/mlx5-upstream-healthy.json" \
		"$FIXTURES/mlx5-upstream-healthy.json" "$FIXTURES/ice-irdma-healthy.json"
	echo "$output" | jq -e '([.outliers[].field] | index("cnp_dscp") | not) and
		.ports[2].cnp_dscp == null and .ports[2].not_applicable == ["cnp_dscp", "cnp_prio", "switch_pfc_prios"] and
		.ports[0].cnp_dscp == 48 and .ports[0].active_mtu == 4096 and .ports[0].trust == "dscp" and
		.ports[0].group == null'
	# priorities are arrays of numbers, as devices -j writes pfc_prios; a DSCP of no priority is []
	run -1 rocectl compare -j "$FIXTURES/mlx5-upstream-healthy.json" "$FIXTURES/mlx5-upstream-healthy.json" \
		"$FIXTURES/fault-pfc-on-0-and-3.json" "$FIXTURES/fault-dscp26-missing.json"
	echo "$output" | jq -e '.ports[0].pfc_prios == [3] and .ports[0].dscp_prio == [3] and
		.ports[2].pfc_prios == [0, 3] and .ports[3].dscp_prio == [] and
		(.outliers[] | select(.field == "pfc_prios") | .pfc_prios == [0, 3] and .most_common == {"pfc_prios": [3]})'
}

@test "compare: unreadable inputs are named and left out; the rest is compared; exit 3" {
	local d=$BATS_TEST_TMPDIR
	: >"$d/empty.json"
	echo '{"schema_version": 2, "hostname": "n3", "time": "2026-01-01T00:00:00Z", "error": {"message": "no RDMA", "errno": 19}}' >"$d/err.json"
	printf 'pdsh@admin: node4: ssh exited with exit code 255\n' >"$d/pdsh.json"
	run --separate-stderr -3 rocectl compare "$FIXTURES/mlx5-upstream-healthy.json" "$d/empty.json" \
		"$FIXTURES/fault-tos-0.json" "$d/err.json" "$FIXTURES/mlx5-cx5-healthy.json" "$d/pdsh.json"
	assert_line "  node11 mlx5_0/1 (ens1f0np0): roce_tos 0 (most common 106 among mlx5 inbox ports)"
	assert_line "1 outliers among 3 RoCE ports; inputs unreadable: 3"
	[ "$(grep -c "(left out)" <<<"$stderr")" -eq 3 ]
	[[ $stderr == *"$d/pdsh.json"* && $stderr == *"$d/empty.json"* && $stderr == *"$d/err.json"* ]]
	run --separate-stderr -3 rocectl compare -j "$FIXTURES/mlx5-upstream-healthy.json" "$d/pdsh.json" \
		"$FIXTURES/fault-tos-0.json"
	echo "$output" | jq -e --arg f "$d/pdsh.json" '.unreadable_count == 1 and .unreadable[0].file == $f and
		(.unreadable[0].message | length) > 0 and (.ports | length) == 2 and .exit_status == 3'
}

@test "compare: rows name their file when two inputs have the same host name" {
	run -1 rocectl compare "$FIXTURES/mlx5-upstream-healthy.json" "$FIXTURES/fault-tos-0.json"
	assert_line --index 0 --regexp '^HOST +FILE +PORT '
	assert_line --regexp "^node11 +$FIXTURES/fault-tos-0.json +mlx5_0/1"
	run -0 rocectl compare "$FIXTURES/mlx5-upstream-healthy.json" "$FIXTURES/bnxt-healthy.json"
	refute_line --regexp 'FILE'
}

@test "compare: firmware and driver version columns show a host on older firmware" {
	local old=$BATS_TEST_TMPDIR/old-fw.json
	jq '.host.devices[0].fw = "22.36.1010" | .host.hostname = "node12"' \
		"$FIXTURES/mlx5-upstream-healthy.json" >"$old"
	run -1 rocectl compare -j "$FIXTURES/mlx5-upstream-healthy.json" "$FIXTURES/mlx5-upstream-healthy.json" "$old"
	echo "$output" | jq -e '[.outliers[] | "\(.host) \(.field)=\(.[.field])/\(.most_common[.field])"] ==
		["node12 fw_version=22.36.1010/22.41.1000"] and .ports[0].driver_version == "mlx5 6.8.0-45-generic"'
}

@test "rocectl-check(8) lists every rule id of the table, and only those" {
	local ids documented
	ids=$(grep -oE '^	RD?\("[a-z_]+\.[a-z_0-9]+"' "$ROOT/lib/rules_table.c" | grep -oE '[a-z_]+\.[a-z_0-9]+' | sort)
	documented=$(man_section "$ROOT/man/rocectl-check.8" RULES | grep -oE '^ {7}[a-z_]+\.[a-z_0-9]+( |$)' | tr -d ' ' | sort)
	[ "$(wc -l <<<"$ids")" -ge 30 ]
	diff <(echo "$ids") <(echo "$documented")
}

@test "--dev naming a netdev without an RDMA port says so, exit 3" {
	jq '.host.netdevs += [.host.netdevs[0] | .name = "eno1" | .ifindex = 99]' \
		"$FIXTURES/mlx5-upstream-healthy.json" >"$BATS_TEST_TMPDIR/eno.json"
	run --separate-stderr -3 rocectl check all -i "$BATS_TEST_TMPDIR/eno.json" --dev eno1
	assert_equal "$stderr" "rocectl: netdev 'eno1' has no RDMA port on 'node11' (is its RDMA driver loaded?)"
	run --separate-stderr -3 rocectl tune plan -i "$BATS_TEST_TMPDIR/eno.json" --dev eno1
}

# A snapshot judged later is judged as of its own time: the verdict of an
# old snapshot must not look fresh.
@test "check -i and doctor -i keep the snapshot's own time: text, JSON and rocectl_check_timestamp_seconds" {
	local f=$FIXTURES/bnxt-healthy.json t when
	t=$(jq '.host.time' "$f")
	when=$(date -u -d "@$t" +%Y-%m-%dT%H:%M:%SZ)
	run -0 rocectl check mtu -i "$f"
	assert_line --index 0 --regexp "^node21 at $when: counters over "
	run -0 rocectl doctor -j -i "$f"
	jq -e --arg w "$when" '.time == $w and .hostname == "node21"' <<<"$output"
	run -0 rocectl check all -o prometheus -i "$f"
	assert_line "rocectl_check_timestamp_seconds{command=\"check all\"} $t"
	# the run's own success stays the time it ran
	run -0 rocectl doctor -o prometheus -i "$f"
	refute_line "rocectl_last_success_timestamp_seconds{command=\"doctor\"} $t"
}

# pdsh prints each host's line behind "host: ", as reach --matrix reads it (issue 39 item 10).
@test "compare reads a pdsh stream of snapshots: each host a row, a host pdsh lost left out" {
	command -v pdsh
	local d=$BATS_TEST_TMPDIR f
	for f in mlx5-upstream-healthy fault-tos-0 mlx5-cx5-healthy; do
		jq -c --arg h "$f" '.host.hostname = $h' "$FIXTURES/$f.json" >"$d/$f.json"
	done
	# real pdsh, its exec module on this machine: "pdsh -w h1,h2 rocectl collect -O -" as printed
	pdsh -R exec -w mlx5-upstream-healthy,fault-tos-0,mlx5-cx5-healthy cat "$d/%h.json" >"$d/fleet.txt"
	[ "$(grep -c '^[a-z0-9-]*: {' "$d/fleet.txt")" -eq 3 ]
	run --separate-stderr -1 rocectl compare -j "$d/fleet.txt"
	echo "$output" | jq -e '.port_count == 3 and .unreadable_count == 0 and
		[.outliers[] | "\(.host) \(.field)"] == ["fault-tos-0 roce_tos"]'
	# from standard input, beside pdsh's own line about a host that did not answer
	printf 'pdsh@admin: node4: ssh exited with exit code 255\n' >>"$d/fleet.txt"
	run --separate-stderr -3 rocectl compare - <"$d/fleet.txt"
	assert_line "  fault-tos-0 mlx5_0/1 (ens1f0np0): roce_tos 0 (most common 106 among mlx5 inbox ports)"
	assert_equal "$stderr" "rocectl: warning: '-': pdsh: node4: ssh exited with exit code 255 (left out)"
	# a stream and a file together; one plain snapshot alone is still a usage error
	grep "^mlx5-cx5-healthy: " "$d/fleet.txt" >"$d/one.txt"
	run -0 rocectl compare "$d/one.txt" "$FIXTURES/mlx5-upstream-healthy.json"
	run -64 rocectl compare "$FIXTURES/mlx5-upstream-healthy.json"
}

# A mixed fleet's rocectl.conf: sections per driver, device and netdev, the
# most specific winning for a port (rocectl.conf(5)).
mixed_conf() {
	cat >"$BATS_TEST_TMPDIR/mixed.conf" <<-'CONF'
	# every port: DSCP 26, the profile's
	cnp_dscp = 48
	[driver bnxt_en]
	tos = 104
	[netdev ens1f0np0]
	cnp_dscp = 46
	CONF
}

@test "check -v shows each intent value and where it came from, per port" {
	mixed_conf
	run -1 rocectl check cnp -v -i "$FIXTURES/mlx5-upstream-healthy.json" \
		--config "$BATS_TEST_TMPDIR/mixed.conf" --prio 3
	assert_line "intent values and where they come from:"
	assert_line --regexp "^  all +prio +3 +command line \(--prio\)$"
	assert_line --regexp "^  all +dscp +26 +default \(profile lossless-dscp\)$"
	assert_line --regexp "^  all +cnp_dscp +48 +$BATS_TEST_TMPDIR/mixed.conf:2$"
	assert_line --regexp "^  mlx5_0/1 \(ens1f0np0\) +cnp_dscp +46 +$BATS_TEST_TMPDIR/mixed.conf:6 \[netdev ens1f0np0\]$"
	# the port is judged against its own intent: CNPs at DSCP 48 are not 46
	assert_line --partial "expected CNP DSCP 46 prio 6, got CNP DSCP 48 prio 6"
	# JSON: every port's values, whole
	run -1 rocectl check cnp -j -i "$FIXTURES/mlx5-upstream-healthy.json" --config "$BATS_TEST_TMPDIR/mixed.conf"
	jq -e '[.intent_sources[] | select(.target == "mlx5_0/1 (ens1f0np0)")] | length == 8' <<<"$output"
	jq -e '.intent_sources[] | select(.target == "mlx5_0/1 (ens1f0np0)" and .key == "tos") |
		.value_text == "106" and .source == "default (profile lossless-dscp)"' <<<"$output"
	# without -v the text has no such table; the driver section holds for bnxt only
	run -0 rocectl check cnp -i "$FIXTURES/mlx5-upstream-healthy.json"
	refute_output --partial "where they come from"
	run -1 rocectl check mode -v -i "$FIXTURES/bnxt-healthy.json" --config "$BATS_TEST_TMPDIR/mixed.conf"
	assert_line --regexp "^  bnxt_re0/1 \(ens2f0np0\) +tos +104 +$BATS_TEST_TMPDIR/mixed.conf:4 \[driver bnxt_en\]$"
}

@test "--roce-mode: the RoCE mode intent, judged and tuned like --tos" {
	run -0 verdict mlx5-upstream-healthy
	run -0 verdict mlx5-upstream-healthy --roce-mode v1
	assert_output "mode.roce_v1:fail"
	run -2 rocectl check mode -v -i "$FIXTURES/mlx5-upstream-healthy.json" --roce-mode v1
	assert_line --regexp "^  all +roce_mode +v1 +command line \(--roce-mode\)$"
	run -0 rocectl tune plan -j -i "$FIXTURES/mlx5-upstream-healthy.json" --roce-mode v1
	jq -e '[.changes[] | [.setting, .from, .to, .setting_id]] == [["default_roce_mode", "RoCE v2", "IB/RoCE v1", "cm-mode"]]' <<<"$output"
	run -0 rocectl tune plan -j -i "$FIXTURES/fault-roce-mode-v1.json" --roce-mode v1
	jq -e '.changes == []' <<<"$output"
	run --separate-stderr -64 rocectl check mode -i "$FIXTURES/mlx5-upstream-healthy.json" --roce-mode v3
	assert_equal "$stderr" "rocectl: check mode: invalid value 'v3' for '--roce-mode': expected one of v1, v2 (see 'rocectl check mode --help')"
}
