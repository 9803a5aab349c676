#!/usr/bin/env bats
# rocectl check traffic: traffic.lossless_share, RoCE on its lossless priority
# from counter deltas (lib/rules_traffic_counters.c), on host snapshots.
load helpers

# The traffic.lossless_share findings of "check traffic" as "status|message".
share() {
	local out rc=0

	out=$(rocectl check traffic -j "$@") || rc=$?
	jq -r '.findings[] | select(.id == "traffic.lossless_share") | "\(.status)|\(.message)"' \
		<<<"$out"
	return "$rc"
}

# A fixture rewritten by a jq filter, as $BATS_TEST_TMPDIR/x.json.
edited() {
	jq "$2" "$FIXTURES/$1.json" >"$BATS_TEST_TMPDIR/x.json"
}

@test "traffic: RoCE on prio 3 passes, with the numbers of both directions (mlx5, bnxt)" {
	run -0 share -i "$FIXTURES/mlx5-upstream-healthy.json"
	assert_output "pass|RoCE traffic is on priority 3"
	rocectl check traffic -j -i "$FIXTURES/mlx5-upstream-healthy.json" | jq -e '
		.findings[0].evidence == "over 10.0 s, CNPs (prio 6) left out: received: 1073213 RoCE (ethtool -S), 1075200 on prio 3, 2304 on prio 6; sent: 1067790 RoCE (ethtool -S), 1067790 on prio 3, 2210 on prio 6" and
		.findings[0].target == "mlx5_0/1 (ens1f0np0)"'
	run -0 share -i "$FIXTURES/bnxt-healthy.json"
	assert_output "pass|RoCE traffic is on priority 3"
	rocectl check traffic -j -i "$FIXTURES/bnxt-healthy.json" |
		jq -e '.findings[0].evidence | test("received: 901608 RoCE \\(hw_counters\\), 901608 on prio 3")'
}

@test "traffic: every healthy host passes it, once per port" {
	for f in mlx5-upstream-healthy mlx5-ofed-healthy mlx5-cx5-healthy bnxt-healthy \
		 bnxt-oot-healthy mlx5-vlan-healthy mlx5-lag-healthy \
		 mlx5-upstream-healthy-v1 mlx5-ipv6-healthy mlx5-peer-healthy bnxt-peer-healthy; do
		run -0 share -i "$FIXTURES/$f.json"
		[ "${#lines[@]}" -eq 1 ]
		assert_line --regexp '^pass\|'
	done
	run -0 share -i "$FIXTURES/mlx5-vf-beside-pf-healthy.json"
	[ "${#lines[@]}" -eq 2 ]
}

@test "traffic: RoCE on prio 0 fails, naming where it went (mlx5 prio counters)" {
	run -2 share -i "$FIXTURES/fault-mlx5-roce-prio0.json"
	assert_output "fail|RoCE traffic is not on priority 3: 1073213 RoCE packets received, 0 on priority 3, 1075601 on priority 0"
	run -2 rocectl check all -j -i "$FIXTURES/fault-mlx5-roce-prio0.json"
	jq -e '[.findings[] | select(.status != "pass") | .id] == ["traffic.lossless_share"]' <<<"$output"
}

@test "traffic: RoCE in bnxt_en's CoS queue of prio 0 fails" {
	run -2 share -i "$FIXTURES/fault-bnxt-roce-prio0.json"
	assert_output "fail|RoCE traffic is not on priority 3: 901608 RoCE packets received, 0 on priority 3, 901698 on priority 0"
	run -2 rocectl check all -j -i "$FIXTURES/fault-bnxt-roce-prio0.json"
	jq -e '[.findings[] | select(.status != "pass") | .id] == ["traffic.lossless_share"]' <<<"$output"
}

@test "traffic: the priority is the intent's; the lossy profile does not judge it" {
	run -0 share -i "$FIXTURES/fault-mlx5-roce-prio0.json" --prio 0 --cnp-prio 6
	assert_output "pass|RoCE traffic is on priority 0"
	run -0 share -i "$FIXTURES/fault-mlx5-roce-prio0.json" --profile lossy-ecn
	assert_output ""
}

@test "traffic: a driver without per-priority packet counters is unknown, named, never a pass" {
	# ice counts PFC frames per priority, no packets (ice_ethtool.c ice_gstrings_pf_stats):
	# unknown, and a driver limit (rocectl-check(8) ROOT CAUSES), so it counts apart
	for f in ice-irdma-healthy ice-peer-healthy; do
		run -0 share -i "$FIXTURES/$f.json"
		assert_output "unknown|which priority RoCE used cannot be measured: ice counts no packets per priority (only PFC frames: rx_priority_#_xoff.nic)"
		run -0 rocectl check traffic -j -i "$FIXTURES/$f.json"
		jq -e '.findings[0].limit | test("ice_gstrings_pf_stats")' <<<"$output"
		jq -e '.summary.unknown == 0 and .summary.limit_count == 1' <<<"$output"
	done
	# a driver the catalogue does not know is no limit: unknown, exit 3
	edited ice-irdma-healthy '.host.netdevs[0].driver = "ice2"'
	run -3 share -i "$BATS_TEST_TMPDIR/x.json"
	assert_output "unknown|which priority RoCE used cannot be measured: ice2 counts no packets per priority"
	# bnxt_en shows rx/tx_packets_pri# only with a valid pri2cos map (a PF's port_stats_ext)
	edited bnxt-healthy '.host.netdevs[0].stats |= map(select(.name | test("_pri[0-9]$") | not))'
	run -3 share -i "$BATS_TEST_TMPDIR/x.json"
	assert_output "unknown|which priority RoCE used cannot be measured: 'ens2f0np0' (bnxt_en) shows no rx_packets_pri# in ethtool -S"
	# per-priority counters without any RoCE packet counter: unknown too, not "too little"
	edited fault-mlx5-roce-prio0 '.host.netdevs[0].stats |= map(select(.name | test("vport_rdma") | not)) |
		.host.devices[0].ports[0].hw_counters = [] | .host.devices[0].ports[0].pma_counters = []'
	run -3 share -i "$BATS_TEST_TMPDIR/x.json"
	assert_output --regexp "^unknown\|which priority RoCE used cannot be measured: .* has no RoCE packet counter"
}

@test "traffic: fewer than 1000 RoCE packets each way are not judged" {
	edited fault-mlx5-roce-prio0 '(.host.netdevs[0].stats[] |
		select(.name | test("vport_rdma_unicast_packets")) | .delta) = 999'
	run -0 share -i "$BATS_TEST_TMPDIR/x.json"
	assert_output "pass|fewer than 1000 RoCE packets each way over 10.0 s: not judged"
}

@test "traffic: RoCE that no priority of the port carried is unknown (loopback)" {
	edited fault-mlx5-roce-prio0 '(.host.netdevs[0].stats[] |
		select(.name | test("^[rt]x_prio[0-9]_packets$")) | .delta) = 0'
	run -3 share -i "$BATS_TEST_TMPDIR/x.json"
	assert_output --regexp '^unknown\|cannot place RoCE traffic: 1073213 RoCE packets received, but no priority'
}

@test "traffic: one sample judges nothing; a RoCE LAG is judged over all its slaves" {
	edited fault-mlx5-roce-prio0 '.host.sample_interval_s = 0 |
		(.. | objects | select(has("has_delta")) | .has_delta) = false'
	run -0 share -i "$BATS_TEST_TMPDIR/x.json"
	assert_output ""
	# every prio 3 packet through the first slave: the sums over the bond match
	edited mlx5-lag-healthy '
		(.host.netdevs[0].stats[] | select(.name | test("^[rt]x_prio3_packets$")) |
		 .delta) *= 2 |
		(.host.netdevs[1].stats[] | select(.name | test("^[rt]x_prio3_packets$")) |
		 .delta) = 0'
	run -0 share -i "$BATS_TEST_TMPDIR/x.json"
	assert_output "pass|RoCE traffic is on priority 3"
}
