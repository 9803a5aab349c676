#!/usr/bin/env bats
# rocectl counters on host snapshots (the live host is tested in the lab:
# tests/lab/20-counters.bats). counters-mlx5.json is an mlx5 port sampled
# twice 2 s apart, plus an rxe port on a netdev whose name needs escaping.
load helpers

snap=$DATA/counters-mlx5.json

@test "text: grouped table with meanings; error counters growing are marked" {
	run -0 rocectl counters --input "$snap" mlx5_0
	assert_line --index 0 "mlx5_0/1  driver mlx5  ACTIVE  netdev ens1f0np0  (hw_counters cached 10 ms)"
	assert_line "  counters/ (PMA): N/A (no PMA)"
	assert_line --regexp '^  ! +loss +hw +local_ack_timeout_err +3 +6\.0  ACK timeouts: '
	assert_line --regexp '^  \* +congestion +hw +np_cnp_sent +18446744073709551615 +100\.0  CNPs sent'
	assert_line --regexp '^  \* +other +hw +brand_new_counter +5 +0\.5 *$'
	# a zero error counter stays; a zero traffic counter is hidden
	assert_line --regexp '^ +buffer +ethtool +rx_discards_phy +0 +0\.0  '
	refute_line --partial 'tx_packets_phy'
	assert_line "  (4 zero counters hidden; --all shows them)"
	# groups in order: problems first, traffic, then unknown counters
	[ "$(echo "$output" | awk '$2 == "loss" || $1 == "loss" { print NR; exit }')" -lt \
	  "$(echo "$output" | grep -n 'traffic' | head -1 | cut -d: -f1)" ]
}

@test "--all shows zero traffic counters, --nonzero only what moved, --group one group" {
	run -0 rocectl counters --input "$snap" --all mlx5_0
	assert_line --regexp ' tx_packets_phy +0 '
	refute_line --partial 'hidden'
	run -0 rocectl counters --input "$snap" --nonzero mlx5_0
	refute_line --partial 'rx_discards_phy'
	refute_line --partial 'out_of_sequence'
	assert_line --partial 'local_ack_timeout_err'
	run -0 rocectl counters -j --input "$snap" --group pfc
	echo "$output" | jq -e '[.ports[].counters[].name] == ["rx_prio3_pause", "tx_prio3_pause"]'
}

@test "JSON: every counter with group, meaning, exact u64, delta, rate and problem" {
	run -0 rocectl counters -j --input "$snap"
	[[ $output == *'"value":18446744073709551615'* ]]
	echo "$output" | jq -e '
		.schema_version == 3 and .sample_interval_s == 2 and
		([.ports[] | "\(.device)/\(.port)"] == ["mlx5_0/1", "rxe0/1"]) and
		.ports[0].pma_counters_missing == "N/A (no PMA)" and
		.ports[0].hw_counters_missing == null and
		.ports[1].pma_counters_missing == "not exported by this driver" and
		.ports[1].ethtool_stats_missing == "not supported by this driver" and
		(.ports[0].counters | length) == 13 and
		(.ports[0].counters[] | select(.name == "local_ack_timeout_err") |
			.group == "loss" and .delta == 12 and .rate_per_s == 6 and
			.bad_if_growing and .problem) and
		(.ports[0].counters[] | select(.name == "out_of_sequence") |
			.problem == false and .delta == 0) and
		(.ports[0].counters[] | select(.name == "rx_crc_errors_phy") |
			.source == "ethtool" and .group == "link" and .problem == false) and
		(.ports[1].counters[] | select(.name == "sent_pkts") |
			.delta == null and .rate_per_s == null and .value == 10)'
}

@test "prometheus: HELP/TYPE once per family, escaped labels, exact values" {
	run -0 rocectl counters --input "$snap" -o prometheus
	assert_line 'rocectl_rdma_hw_events_total{device="mlx5_0",port="1",counter="np_cnp_sent",group="congestion"} 18446744073709551615'
	assert_line 'rocectl_port_info{device="rxe0",port="1",driver="rxe",netdev="we\"ird\\",state="DOWN"} 1'
	assert_line 'rocectl_port_active_mtu_bytes{device="rxe0",port="1"} 0'
	assert_line 'rocectl_ethtool_stat{netdev="ens1f0np0",stat="rx_prio3_pause",group="pfc"} 100'
	assert_line '# TYPE rocectl_rdma_hw_events_total counter'
	# every family once, TYPE right after HELP, samples of that family only
	echo "$output" | awk '
		/^# HELP / { if (seen[$3]++) exit 1; fam = $3; next }
		/^# TYPE / { if ($3 != fam) exit 1; typed = 1; next }
		{ n = $0; sub(/[{ ].*/, "", n); if (!typed || n != fam) exit 1 }'
}

@test "bad input: one line, usage errors exit 64, unknown port exits 3" {
	local args
	for args in "--interval 0" "--interval -1" "--interval x" "--group nope" "--watch 0" \
		"-o csv" "--all --nonzero" "-j -o prometheus" "--interval 1 --watch 1" \
		"--input $snap --interval 1"; do
		# shellcheck disable=SC2086
		run --separate-stderr rocectl counters $args
		assert_failure 64
		[ "$(echo "$stderr" | wc -l)" -eq 1 ] || fail "more than one line for '$args': $stderr"
		[[ $stderr == "rocectl: "* ]]
	done
	run --separate-stderr rocectl counters --input "$snap" mlx5_9
	assert_failure 3
	assert_equal "$stderr" "rocectl: no RDMA port 'mlx5_9'"
	run --separate-stderr rocectl counters --input "$snap" mlx5_0/2
	assert_failure 3
	run --separate-stderr rocectl counters -j --input "$snap" nope
	assert_failure 3
	echo "$output" | jq -e '.error.message == "no RDMA port '"'nope'"'"'
}

@test "filter by device/port and by netdev" {
	run -0 rocectl counters -j --input "$snap" mlx5_0/1
	echo "$output" | jq -e '[.ports[].device] == ["mlx5_0"]'
	run -0 rocectl counters -j --input "$snap" ens1f0np0
	echo "$output" | jq -e '[.ports[].device] == ["mlx5_0"]'
}

# The fixture plus what a newer collector reads: optional counters and pause
# statistics (python keeps the fixture's u64 exact; jq would round them).
snap_newer() {
	python3 - "$snap" "$BATS_TEST_TMPDIR/newer.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
h = doc["host"]
def part(ok, err, reason, counters):
    return {"ok": ok, "errno": err, "reason": reason, "counters": counters}
h["devices"][0]["ports"][0]["optional_counters"] = part(True, 0, "", [
    {"name": "cc_rx_ce_pkts", "enabled": False}, {"name": "cc_rx_cnp_pkts", "enabled": True}])
h["devices"][1]["ports"][0]["optional_counters"] = part(
    False, 22, "not exported by this kernel/driver", [])
h["netdevs"][0]["pause_stats"] = part(True, 0, "", [
    {"name": "tx_pause_frames", "value": 7, "delta": 0, "has_delta": False},
    {"name": "rx_pause_frames", "value": 0, "delta": 0, "has_delta": False}])
h["netdevs"][1]["pause_stats"] = part(False, 95, "not exported by this driver", [])
json.dump(doc, open(sys.argv[2], "w"))
PY
}

@test "optional counters and pause statistics: text line, JSON, prometheus; missing is data" {
	snap_newer
	[ "$(jq -r '.host.netdevs[0].name' "$snap")" = ens1f0np0 ]
	run -0 rocectl counters --input "$BATS_TEST_TMPDIR/newer.json"
	assert_line "  optional hw counters: cc_rx_ce_pkts off, cc_rx_cnp_pkts on"
	assert_line "  optional hw counters: not exported by this kernel/driver"
	assert_line --regexp '^ +pfc +pause +tx_pause_frames +7 +- +802\.3x pause frames sent'
	assert_line --partial 'pause statistics of we"ird\: not exported by this driver'
	run -0 rocectl counters -j --input "$BATS_TEST_TMPDIR/newer.json"
	echo "$output" | jq -e '
		.ports[0].optional_counters == [{name: "cc_rx_ce_pkts", enabled: false},
						{name: "cc_rx_cnp_pkts", enabled: true}] and
		.ports[0].optional_counters_missing == null and
		.ports[0].pause_stats_missing == null and
		([.ports[0].counters[] | select(.source == "pause") | .name] ==
			["tx_pause_frames", "rx_pause_frames"]) and
		.ports[1].optional_counters == null and
		.ports[1].optional_counters_missing == "not exported by this kernel/driver" and
		.ports[1].pause_stats_missing == "not exported by this driver"'
	run -0 rocectl counters --input "$BATS_TEST_TMPDIR/newer.json" -o prometheus
	assert_line '# TYPE rocectl_pause_frames_total counter'
	assert_line 'rocectl_pause_frames_total{netdev="ens1f0np0",stat="tx_pause_frames",group="pfc"} 7'
}

@test "a snapshot without optional counters or pause statistics says 'not collected'" {
	run -0 rocectl counters --input "$snap" mlx5_0
	refute_line --partial 'optional hw counters'
	refute_line --partial 'pause statistics'
	run -0 rocectl counters -j --input "$snap"
	echo "$output" | jq -e '.ports[0].optional_counters == null and
		.ports[0].optional_counters_missing == "not collected" and
		.ports[0].pause_stats_missing == "not collected"'
}

# -w is the plugins' --warning (check, doctor) and nothing else; counters'
# --watch gave it up, but an old script's '-w SECS' still watches here.
@test "-w: not listed for counters, still taken there as --watch" {
	run -0 rocectl counters --help
	refute_line --regexp '^ +-w, '
	assert_line --regexp '^ +--watch SECS '
	"$ROCECTL" __metadata | jq -e '.commands[] | select(.name == "counters") | .options[] |
		select(.long == "watch") | .short == null'
	# the old letter reaches --watch: its value is checked as --watch's
	run --separate-stderr -64 rocectl counters -w 0
	assert_equal "$stderr" "rocectl: counters: invalid value '0' for '--watch': must be greater than 0 (see 'rocectl counters --help')"
	run --separate-stderr -64 rocectl counters -w 1 --interval 1
	[[ $stderr == *"--watch"* ]] || fail "$stderr"
	# check and doctor: the warning range
	run -0 rocectl check --help
	run -0 rocectl check all --help
	assert_line --regexp '^ +-w, --warning RANGE '
}
