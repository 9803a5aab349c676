#!/usr/bin/env bats
# One truth for check's fix and tune's change: on every host fixture, a
# warning or failure with a fix has a planned or skipped change of the same
# setting on the same target, and every planned change has a finding. Both
# JSON documents carry the settings table's "setting_id" (rocectl/settings.h).
load helpers

# Settings tune leaves to the operator (no write path in lib/settings.c):
# their findings name the command, tune plans nothing for them.
LEFT='["mtu", "vlan-egress-map", "dcb-buffer", "app-pcp", "ets-tc-bw"]'

mismatches() {
	local c t
	c=$(rocectl check all -j --input "$1") || [ $? -le 3 ] || return 1
	t=$(rocectl tune plan -j --input "$1") || return 1
	jq -nr --argjson c "$c" --argjson t "$t" --argjson left "$LEFT" --arg f "${1##*/}" '
	  [$t.changes[] | {s: .setting_id, t: .target, skip}] as $ch |
	  [$c.findings[] | select((.status == "warn" or .status == "fail") and .fix != null and
	                          .setting_id != null and (.setting_id as $s | $left | index($s) | not))
	   | {s: .setting_id, id, nd: .netdev,
	      port: (if .device then "\(.device)/\(.port)" else null end), fix}] as $fi |
	  def match(a; b): a.s == b.s and (a.t == b.nd or a.t == b.port);
	  ($fi[] | . as $x | select([$ch[] | select(match(.; $x))] == [])
	   | "\($f): \(.id) (\(.s) on \(.nd)) has no planned or skipped change; its fix: \(.fix)"),
	  ($ch[] | select(.skip == null) | . as $x | select([$fi[] | select(match($x; .))] == [])
	   | "\($f): the change of \(.s) on \(.t) has no finding")'
}

@test "every fixture: each fixed finding has its change, each planned change its finding" {
	local f out=""
	for f in "$FIXTURES"/*.json; do
		out+=$(mismatches "$f")
	done
	[ -z "$out" ] || fail "$out"
}

@test "findings and changes carry the same setting_id; a change has one exactly when tune knows it" {
	run -0 rocectl tune plan -j --input "$FIXTURES/fault-bnxt-oot-cnp-dscp.json"
	jq -e '[.changes[].setting_id] == ["roce-dscp", "cnp-dscp"]' <<<"$output"
	run -1 rocectl check dscp -j --input "$FIXTURES/fault-bnxt-oot-cnp-dscp.json"
	jq -e '[.findings[] | select(.status == "warn") | .setting_id] == ["roce-dscp"]' <<<"$output"
	jq -e '[.findings[] | select(.status == "warn") | .fix][0] ==
		"echo 0x1a > /sys/kernel/config/bnxt_re/bnxt_re0/ports/1/cc/roce_dscp && echo 1 > /sys/kernel/config/bnxt_re/bnxt_re0/ports/1/cc/apply"' <<<"$output"
	jq -e '[.findings[] | select(.status == "warn") | .evidence][0] |
		test("driver copy, not read back from firmware")' <<<"$output"
}

@test "the fix of a check is the command of tune's change, byte for byte" {
	local f
	for f in fault-pfc-off-prio3 fault-dscp26-missing fault-tos-0 fault-bnxt-oot-cnp-dscp \
		 fault-global-pause-with-pfc fault-bnxt-oot-not-ect; do
		run rocectl check all -j --input "$FIXTURES/$f.json"
		local fixes=$output
		run -0 rocectl tune plan -j --input "$FIXTURES/$f.json"
		jq -en --argjson c "$fixes" --argjson t "$output" '
			[$t.changes[] | select(.skip == null) | .command] as $cmd |
			[$c.findings[] | select(.fix != null and .setting_id != null) | .fix] |
			map(. as $x | $cmd | index($x) != null) | any' || fail "$f"
	done
}

@test "ETS: a 0 % class and a CNP priority in the RoCE class get tune's prio-tc move, not tc-bw" {
	jq '.host.netdevs[0].ets.prio_tc = [0, 0, 2, 3, 4, 5, 6, 7] |
	    .host.netdevs[0].ets.tc_tsa = [2, 2, 2, 2, 2, 2, 2, 2] |
	    .host.netdevs[0].ets.tc_tx_bw = [50, 50, 0, 0, 0, 0, 0, 0]' \
		"$FIXTURES/mlx5-upstream-healthy.json" >"$BATS_TEST_TMPDIR/zero.json"
	run -1 rocectl check pfc -j --input "$BATS_TEST_TMPDIR/zero.json"
	refute_output --partial "tc-bw"
	local fix
	fix=$(jq -r '.findings[] | select(.id == "pfc.ets" and .status == "warn") | .fix' <<<"$output")
	run -0 rocectl tune plan -j --input "$BATS_TEST_TMPDIR/zero.json"
	[ "$fix" = "dcb ets set dev ens1f0np0 prio-tc 3:1" ]
	jq -e --arg fix "$fix" '[.changes[] | select(.setting_id == "ets-prio-tc") | .command] == [$fix]' <<<"$output"
	jq '.host.netdevs[0].ets.prio_tc[6] = .host.netdevs[0].ets.prio_tc[3]' \
		"$FIXTURES/mlx5-upstream-healthy.json" >"$BATS_TEST_TMPDIR/cnp.json"
	run -1 rocectl check pfc -j --input "$BATS_TEST_TMPDIR/cnp.json"
	jq -e '[.findings[] | select(.id == "pfc.ets" and .status == "warn") | .message][0] |
		test("CNP prio 6 shares tc")' <<<"$output"
	run -0 rocectl tune plan -j --input "$BATS_TEST_TMPDIR/cnp.json"
	jq -e '[.changes[] | .setting_id] == ["ets-prio-tc"]' <<<"$output"
}

@test "firmware-owned DCB: check's fix and tune's skip name the same vendor tool; --force is no way around it" {
	run -2 rocectl check pfc -j --input "$FIXTURES/fault-ice-fw-lldp.json"
	jq -e '[.findings[] | select(.status != "pass") | .fix] | unique ==
		["ethtool --set-priv-flags ens5f0np0 fw-lldp-agent off (hands DCB to the host)"]' <<<"$output"
	run -0 rocectl tune plan -j --input "$FIXTURES/fault-ice-fw-lldp.json"
	jq -e '.to_apply == 0 and .changes[0].needs_force == false and
		(.changes[0].skip | test("fw-lldp-agent off"))' <<<"$output"
	run -2 rocectl check pfc -j --input "$FIXTURES/fault-mlx5-fw-dcbx.json"
	jq -e '[.findings[] | select(.id == "pfc.dcbx_owner")][0] |
		.status == "pass" and (.got | test("0x0c")) and
		(.evidence | endswith("dcb dcbx set dev ens1f0np0 host ieee (hands DCB to the host), or mlnx_qos / mlxconfig"))' <<<"$output"
	jq -e '[.findings[] | select(.id == "pfc.prio_disabled")][0].fix ==
		"dcb dcbx set dev ens1f0np0 host ieee (hands DCB to the host), or mlnx_qos / mlxconfig"' <<<"$output"
}
