#!/usr/bin/env bats
# The switch port by LLDP (rocectl-check(8), SWITCH PORT) on host snapshots:
# mlx5, bnxt and E810 hosts with a neighbour (tests/fixtures/hosts, gen.py
# lldp_peer()), healthy and with one fault each, through check, doctor and
# devices; snapshots without a neighbour; the live path without RDMA.
load helpers

# Non-pass findings of "check all" as "id:status" lines. Where RoCE ran is
# not this file's question: the E810 hosts' traffic.lossless_share is unknown
# (ice counts no packets per priority; traffic.bats judges it).
verdict() {
	rocectl check all -j --input "$FIXTURES/$1.json" --skip traffic.lossless_share |
		jq -r '.findings[] | select(.status != "pass" and .limit == null) |
			"\(.id):\(if .caused_by then "\(.status)<\(.caused_by.id)" else .status end)"'
}

expect() {	# fixture exit "id:status ..."
	run -0 verdict "$1"
	assert_output "$(printf '%s\n' $3)"
	run -"$2" rocectl check all --input "$FIXTURES/$1.json" --skip traffic.lossless_share
}

@test "healthy hosts with a neighbour that matches the intent: every peer rule passes, exit 0" {
	for f in mlx5-peer-healthy bnxt-peer-healthy ice-peer-healthy; do
		expect "$f" 0 ""
		run -0 rocectl check peer -j --input "$FIXTURES/$f.json"
		echo "$output" | jq -e '[.findings[] | .id] | unique ==
			["peer.app_dscp", "peer.ets", "peer.mfs", "peer.neighbor", "peer.pfc_extra",
			 "peer.pfc_prio", "peer.willing"]'
	done
}

@test "peer: PFC on priority 4 on the switch fails, naming the switch side" {
	expect fault-peer-pfc-prio4 2 "peer.pfc_prio:fail peer.pfc_extra:warn"
	run -2 rocectl check peer --input "$FIXTURES/fault-peer-pfc-prio4.json"
	assert_line "peer       1 warnings, 1 errors"
	assert_line "           expected switch PFC on 3, got switch PFC on 4"
	assert_line "           fix: switch leaf-07 port Ethernet1/7: enable PFC (no-drop) on priority 3"
	assert_line "           fix: switch leaf-07 port Ethernet1/7: disable PFC on priority 4"
	assert_line "           evidence: LLDP PFC configuration TLV of leaf-07 port Ethernet1/7, read through lldpd"
}

@test "peer: the switch's APP table sends DSCP 26 elsewhere" {
	expect fault-peer-dscp26-prio4 2 "peer.app_dscp:fail"
	run -2 rocectl check peer -j --input "$FIXTURES/fault-peer-dscp26-prio4.json"
	echo "$output" | jq -e '[.findings[] | select(.status == "fail")][0] |
		.expected == "switch DSCP 26 -> prio 3" and .got == "switch DSCP 26 -> prio 4" and
		(.fix | startswith("switch leaf-07 port Ethernet1/12: ")) and .netdev == "ens2f0np0"'
}

@test "peer: both ends willing warns; a willing host and a switch off the intent fails (lldpad speaks DCBX)" {
	expect fault-peer-both-willing 1 "pfc.lldpad:warn peer.willing:warn"
	expect fault-peer-willing-host-ets 2 "pfc.lldpad:warn peer.ets:fail peer.willing:fail"
	run -2 rocectl check peer -j --input "$FIXTURES/fault-peer-willing-host-ets.json"
	echo "$output" | jq -e '[.findings[] | select(.id == "peer.willing")][0] |
		.got == "host willing, switch not willing" and
		(.message | test("no ETS share for tc 3")) and
		(.fix | test("or host: dcb ets set dev ens1f0np0 willing off"))'
}

@test "peer: willing bits with no DCBX agent on the host are not judged (issue 37 item 6)" {
	expect ice-peer-willing-no-agent 0 ""
	run -0 rocectl check peer -j --input "$FIXTURES/ice-peer-willing-no-agent.json"
	echo "$output" | jq -e '[.findings[] | select(.id == "peer.willing")] | length == 1 and
		.[0].status == "pass" and .[0].got == "no DCBX agent on the host"'
}

@test "peer: an MFS below the host's frames fails, with the numbers" {
	expect fault-peer-mfs-1522 2 "peer.mfs:fail"
	run -2 rocectl check peer --input "$FIXTURES/fault-peer-mfs-1522.json"
	assert_line "           expected switch MFS >= 4218 (MTU 4200 + 14 Ethernet header + 4 FCS), got switch MFS 1522"
	assert_line "           fix: switch leaf-07 port Ethernet1/7: raise the port's MTU to admit 4218-byte frames (or host: ip link set dev ens1f0np0 mtu 1504)"
}

@test "peer: a VLAN adds its tag to the frame the switch must admit" {
	jq '.host.netdevs[0].lldp = (input.host.netdevs[0].lldp | .mfs = 4218)' \
		"$FIXTURES/mlx5-vlan-healthy.json" "$FIXTURES/mlx5-peer-healthy.json" >"$BATS_TEST_TMPDIR/v.json"
	run -2 rocectl check peer -j --input "$BATS_TEST_TMPDIR/v.json"
	echo "$output" | jq -e '[.findings[] | select(.id == "peer.mfs")][0] | .status == "fail" and
		(.expected | test("\\+ 4 VLAN tag"))'
}

@test "peer: a neighbour without DCBX TLVs is a warning, not a failure" {
	expect fault-peer-no-dcbx 1 "peer.dcbx_absent:warn"
}

@test "peer: no neighbour read is unknown with the reason (the NIC's firmware LLDP agent)" {
	expect fault-peer-fw-lldp-agent 3 "peer.neighbor:unknown"
	run -3 rocectl check peer -j --input "$FIXTURES/fault-peer-fw-lldp-agent.json"
	echo "$output" | jq -e '.findings[0].message | test("firmware LLDP agent \\(ice fw-lldp-agent on\\)")'
	run -0 rocectl devices --input "$FIXTURES/fault-peer-fw-lldp-agent.json"
	assert_line "        neighbor unknown: no LLDP frame in 30 s: the NIC's firmware LLDP agent (ice fw-lldp-agent on) may take them"
}

@test "peer: a snapshot without the neighbour (older, or not looked for) gives no peer finding" {
	run -0 rocectl check peer -j --input "$FIXTURES/mlx5-upstream-healthy.json"
	echo "$output" | jq -e '(.findings | length) == 0 and .areas[0].area == "peer"'
	run -0 rocectl check all --input "$FIXTURES/mlx5-upstream-healthy-v1.json"
	assert_line "peer       nothing to check"
	run -0 rocectl devices -j --input "$FIXTURES/mlx5-upstream-healthy.json"
	echo "$output" | jq -e '.devices[0].ports[0].neighbor == null'
}

@test "devices shows the switch port in text and JSON" {
	run -0 rocectl devices --input "$FIXTURES/mlx5-peer-healthy.json"
	assert_line "        neighbor leaf-07 port Ethernet1/7 (lldpd)  mfs 9216  pfc 3"
	run -0 rocectl devices --input "$FIXTURES/fault-peer-no-dcbx.json"
	assert_line "        neighbor leaf-07 port Ethernet1/12 (lldpd)  mfs 9216  no DCBX TLVs"
	run -0 rocectl devices -j --input "$FIXTURES/ice-peer-healthy.json"
	echo "$output" | jq -e '.devices[0].ports[0].neighbor == {"known": true,
		"system_name": "leaf-08", "port_id": "Ethernet1/3", "source": "capture",
		"chassis_id": "0c:42:a1:00:00:08", "port_description": "to Ethernet1/3",
		"ttl_s": 120, "mfs_bytes": 9216, "dcbx": true, "pfc_prios": [3]}'
}

@test "--lldp-wait is checked like every duration; --input ignores it" {
	run -64 rocectl check peer --lldp-wait 0
	run -64 rocectl devices --lldp-wait 301
	run -64 rocectl collect --lldp-wait x
	run -0 rocectl devices --lldp-wait 5 --input "$FIXTURES/mlx5-peer-healthy.json"
}

@test "Prometheus and OpenMetrics: one info series per neighbour, and none without" {
	run -0 rocectl check all -o prometheus -i "$FIXTURES/mlx5-peer-healthy.json"
	assert_line "# TYPE rocectl_lldp_neighbor_info gauge"
	assert_line 'rocectl_lldp_neighbor_info{command="check all",device="mlx5_0",port="1",netdev="ens1f0np0",switch="leaf-07",switch_port="Ethernet1/7",chassis_id="0c:42:a1:00:00:07",source="lldpd"} 1'
	run -0 promtool check metrics <<<"$output"
	run -0 rocectl check all -o openmetrics -i "$FIXTURES/ice-peer-healthy.json" \
		--skip traffic.lossless_share
	assert_line "# TYPE rocectl_lldp_neighbor info"
	assert_line --partial 'rocectl_lldp_neighbor_info{command="check all",device="rocep152s0f0",port="1",netdev="ens5f0np0",switch="leaf-08",'
	run -3 rocectl check all -o prometheus -i "$FIXTURES/fault-peer-fw-lldp-agent.json"
	refute_line --partial rocectl_lldp_neighbor_info
}

@test "compare: the switch and port of each host, and the switch's PFC as a column" {
	cd "$FIXTURES"
	run -1 rocectl compare -j mlx5-peer-healthy.json mlx5-peer-healthy.json fault-peer-pfc-prio4.json
	echo "$output" | jq -e '[.ports[] | .switch] == ["leaf-07", "leaf-07", "leaf-07"] and
		[.ports[] | .switch_port] == ["Ethernet1/7", "Ethernet1/7", "Ethernet1/7"] and
		[.outliers[] | [.field, .[.field], .most_common[.field]]] == [["switch_pfc_prios", [4], [3]]] and
		.outliers[0].switch == "leaf-07"'
	run -0 rocectl compare mlx5-peer-healthy.json bnxt-peer-healthy.json mlx5-peer-healthy.json
	assert_line --regexp '^HOST +FILE +PORT +SWITCH +SW_PORT +TRUST '
	assert_line --regexp '^node52 +bnxt-peer-healthy.json +bnxt_re0/1 \(ens2f0np0\) +leaf-07 +Ethernet1/12 '
}

@test "compare --by switch: outliers grouped under their ToR" {
	cd "$FIXTURES"
	run -1 rocectl compare --by switch mlx5-peer-healthy.json fault-peer-pfc-prio4.json \
		mlx5-peer-healthy.json ice-peer-healthy.json mlx5-upstream-healthy.json fault-tos-0.json
	assert_line "Outliers by switch:"
	assert_line "  (switch unknown): 1 outlier on 1 host"
	assert_line "    node11 mlx5_0/1 (ens1f0np0): roce_tos 0 (most common 106 among mlx5 inbox ports)"
	assert_line "  leaf-07: 1 outlier on 1 host"
	assert_line "    node51 mlx5_0/1 (ens1f0np0): switch_pfc_prios 4 (most common 3 among mlx5 inbox ports)"
	# a port without a switch's PFC is no outlier of that column
	refute_line --partial "switch_pfc_prios n/a"
	# Grouped: every outlier of a switch follows its head line.
	run -1 rocectl compare -j --by switch mlx5-peer-healthy.json ice-peer-healthy.json \
		mlx5-peer-healthy.json fault-peer-pfc-prio4.json
	echo "$output" | jq -e '[.outliers[] | .switch] | . == sort'
	run -64 rocectl compare --by rack mlx5-peer-healthy.json ice-peer-healthy.json
}

@test "devices: no source at all (no lldpd, no --lldp-wait) says why only with -v; JSON always" {
	jq '.host.netdevs[0].lldp = {"ok": false, "errno": 2,
		"reason": "lldpd does not run (no '\''/run/lldpd.socket'\''), and no --lldp-wait was given"}' \
		"$FIXTURES/mlx5-upstream-healthy.json" >"$BATS_TEST_TMPDIR/none.json"
	run -0 rocectl devices --input "$BATS_TEST_TMPDIR/none.json"
	refute_line --partial "neighbor"
	run -0 rocectl devices -v --input "$BATS_TEST_TMPDIR/none.json"
	assert_line "        neighbor unknown: lldpd does not run (no '/run/lldpd.socket'), and no --lldp-wait was given"
	run -0 rocectl devices -j --input "$BATS_TEST_TMPDIR/none.json"
	echo "$output" | jq -e '.devices[0].ports[0].neighbor.known == false and
		(.devices[0].ports[0].neighbor.reason | startswith("lldpd does not run"))'
	run -3 rocectl check peer --input "$BATS_TEST_TMPDIR/none.json"
	assert_line --partial "no LLDP neighbour of 'ens1f0np0': lldpd does not run"
}
