#!/usr/bin/env bats
# check and doctor over a fleet's snapshots (rocectl-check(8) FLEET): -i
# repeated, a directory or a pattern; the hosts x areas table, unreadable and
# stale snapshots, --by, and every output format.
load helpers

@test "-i repeated, a directory and a pattern judge the same hosts; exit is the worst" {
	local d a b c
	d=$(fleet mlx5-upstream-healthy:n1:3600 fault-pfc-off-prio3:n2:3600 fault-tos-0:n3:3600)
	run -2 rocectl check all -i "$d"
	a=$output
	assert_line --regexp '^HOST +AGE +STATUS +pfc +ecn '
	assert_line --regexp '^n2 +60m +fail +FAIL .* pfc\.prio_disabled mlx5_0/1 \(ens1f0np0\)$'
	assert_line --regexp '^n3 +60m +warn .* mode\.tos mlx5_0/1 \(ens1f0np0\)$'
	assert_line --regexp '^n1 +60m +pass( +(ok|-))+ +-$'
	assert_line 'Summary: 3 hosts judged: 1 ok, 1 warnings, 1 failed, 0 unknown; 0 snapshots unreadable, 0 stale (exit 2)'
	run -2 rocectl check all -i "$d/n1.json" -i "$d/n2.json" -i "$d/n3.json"
	b=$output
	run -2 rocectl check all -i "$d/*.json"
	c=$output
	[ "$a" = "$b" ] && [ "$a" = "$c" ]
	# worst first: fail, warn, pass
	run -2 rocectl check all -j -i "$d"
	[ "$(jq -r '[.hosts[].host] | join(" ")' <<<"$output")" = "n2 n3 n1" ]
	run -1 rocectl doctor -i "$d/n1.json" -i "$d/n3.json"
}

@test "the table's columns are the areas asked, in the rule table's order" {
	local d want
	d=$(fleet mlx5-upstream-healthy:n1:60 fault-pfc-off-prio3:n2:60)
	want=$(rocectl __metadata | jq -r '.commands[] | select(.name == "check") |
		[.commands[].name | select(. != "all")] | join(" ")')
	run -2 rocectl check all -i "$d"
	[ "$(sed -n 's/^HOST *AGE *STATUS *//; s/ *FIRST$//p' <<<"$output" | tr -s ' ')" = "$want" ]
	run -2 rocectl check pfc mtu -i "$d"
	assert_line --regexp '^HOST +AGE +STATUS +pfc +mtu +FIRST$'
	run -0 rocectl check mtu -i "$d"
}

@test "an unreadable snapshot is named, counted and makes the fleet unknown" {
	local d
	d=$(fleet mlx5-upstream-healthy:n1:60)
	echo '{"schema_version": 2, "host": ' >"$d/broken.json"
	run -3 --separate-stderr rocectl check all -i "$d"
	assert_line --partial 'Unreadable snapshots (1), not judged:'
	assert_line --regexp "^  $d/broken\.json: "
	assert_line --partial '0 stale (exit 3)'
	assert_line --partial '1 snapshots unreadable'
	[[ $stderr == *"broken.json"*"(not judged)"* ]]
	run -3 rocectl check all -j -i "$d"
	[ "$(jq '.unreadable | length' <<<"$output")" = 1 ]
	[ "$(jq '.summary.unreadable_count' <<<"$output")" = 1 ]
	# a missing file named on the command line is unreadable, not dropped
	run -3 rocectl check all -i "$d/n1.json" -i "$d/nosuch.json"
	assert_line --partial 'nosuch.json'
	# a pattern that matches nothing is an error
	run -3 rocectl check all -i "$d/*.nothing"
	assert_output --partial "no snapshot matches '$d/*.nothing'"
}

@test "age: the snapshot's own time, never the file's; --max-age makes it stale" {
	local d now
	d=$(fleet mlx5-upstream-healthy:n1:7300 mlx5-ofed-healthy:n2:600)
	touch -d '2001-01-01' "$d/n1.json" "$d/n2.json"
	now=$(date +%s)
	run -0 rocectl check all -j -i "$d"
	jq -e --argjson now "$now" '.hosts[] | select(.host == "n1") |
		(.age_s - 7300 | fabs) < 60 and .stale == false and
		(.time | fromdateiso8601) == ($now - 7300)' <<<"$output" ||
		jq -e --argjson now "$((now - 1))" '.hosts[] | select(.host == "n1") |
			(.time | fromdateiso8601) == ($now - 7300)' <<<"$output"
	run -0 rocectl check all -i "$d"
	assert_line --regexp '^n1 +2h +pass'
	assert_line --regexp '^n2 +10m +pass'
	run -1 rocectl check all -i "$d" --max-age 3600
	assert_line 'Stale snapshots (older than 1 h, or of no known time):'
	assert_line --regexp "^  n1  $d/n1\.json  taken [0-9T:-]+Z \(2h ago\)$"
	refute_line --partial "n2  $d/n2.json  taken"
	assert_line --partial '1 stale (exit 1)'
	run -1 rocectl check all -o nagios -i "$d" --max-age 3600
	assert_line "STALE n1: snapshot '$d/n1.json' is older than 1 h"
	# one snapshot alone is not a fleet: --by and --max-age need several
	run -64 rocectl check all -i "$d/n1.json" --max-age 60
	assert_output --partial "'--max-age' needs several snapshots"
	run -64 rocectl doctor -i "$d/n1.json" --by switch
}

@test "--by switch: the hosts under each switch with their ports; --by rule and driver" {
	local d
	d=$(fleet mlx5-peer-healthy:n51:60 fault-peer-pfc-prio4:n54:60 bnxt-peer-healthy:n52:60 \
		fault-peer-no-dcbx:n55:60 ice-peer-healthy:n53:60 mlx5-upstream-healthy:n11:60)
	run -2 rocectl check all -i "$d" --by switch
	assert_line 'By switch:'
	assert_line '  leaf-07: 1 failed, 0 unknown, 1 warnings, 2 ok of 4 hosts; not ok on ports Ethernet1/7, Ethernet1/12'
	assert_line '    fail    n54 (Ethernet1/7)'
	assert_line '    warn    n55 (Ethernet1/12)'
	# ice counts no packets per priority: a driver limit, not an unknown of the host
	assert_line '  leaf-08: 0 failed, 0 unknown, 0 warnings, 1 ok of 1 hosts'
	assert_line '  (no LLDP neighbour): 0 failed, 0 unknown, 0 warnings, 1 ok of 1 hosts'
	run -2 rocectl check all -i "$d" --by rule
	assert_line '  peer.pfc_prio: 1 failed, 0 unknown, 0 warnings, 0 ok of 1 hosts'
	assert_line '    fail    n54 (mlx5_0/1 (ens1f0np0))'
	run -2 rocectl check all -j -i "$d" --by driver
	jq -e '.group_by == "driver" and
		(.groups[] | select(.key == "mlx5 inbox") | .host_count == 3 and .fail == 1)' <<<"$output"
	# compare's outliers come in the same report: n54's switch PFC differs from its peers'
	run -2 rocectl check all -i "$d"
	assert_line --regexp '^  n54 mlx5_0/1 \(ens1f0np0\): switch_pfc_prios 4 '
}

@test "-j: one document, a section per host with its findings that are no pass" {
	local d
	d=$(fleet mlx5-upstream-healthy:n1:60 fault-pfc-off-prio3:n2:60)
	run -2 rocectl check all -j -i "$d"
	jq -e '.hosts | length == 2' <<<"$output"
	jq -e '.hosts[0] | .host == "n2" and .status == "fail" and .exit_status == 2 and
		(.areas[] | select(.area == "pfc") | .status == "fail" and .first == "pfc.prio_disabled") and
		(.findings | length > 0 and all(.status != "pass")) and
		(.findings[] | select(.id == "pfc.prio_disabled") | .fix != null and .expected != null) and
		.ports[0].device == "mlx5_0"' <<<"$output"
	jq -e '.hosts[1] | .findings == [] and .status == "pass"' <<<"$output"
	jq -e '.summary | .host_count == 2 and .fail == 1 and .pass == 1 and .exit_status == 2' <<<"$output"
	run python3 "$BATS_TEST_DIRNAME/lib/json_style.py" fleet <<<"$(rocectl check all -j -i "$d" --by switch)"
	assert_success
}

@test "-o nagios: one status line for the fleet, a line per host that is not ok" {
	local d
	d=$(fleet mlx5-upstream-healthy:n1:60 fault-pfc-off-prio3:n2:60 fault-tos-0:n3:60)
	run -2 rocectl check all -o nagios -i "$d"
	assert_line --index 0 --regexp '^ROCECTL CRITICAL - 3 hosts: 1 failed, 0 unknown, 1 warnings, 1 ok; 0 unreadable, 0 stale: first fail n2 pfc\.prio_disabled mlx5_0/1 \(ens1f0np0\) \| hosts=3 ok=1 warn=1 fail=1 unknown=0 unreadable=0 stale=0$'
	assert_line --regexp '^FAIL n2 pfc\.prio_disabled '
	assert_line --regexp '^WARN n3 mode\.tos '
	[ "${#lines[@]}" -eq 3 ]
}

@test "-o prometheus: host and command on every series, a host once, promtool clean" {
	local d
	command -v promtool
	d=$(fleet mlx5-upstream-healthy:n1:60 fault-pfc-off-prio3:n2:60 mlx5-peer-healthy:n51:60)
	# n1 twice: an older snapshot of the same host
	jq '.host.time -= 86400' "$d/n2.json" | jq '.host.hostname = "n1"' >"$d/n1-old.json"
	run -0 rocectl doctor -o prometheus -O "$BATS_TEST_TMPDIR/f.prom" -i "$d"
	run -0 promtool check metrics <"$BATS_TEST_TMPDIR/f.prom"
	run -0 cat "$BATS_TEST_TMPDIR/f.prom"
	assert_line 'rocectl_check_status{command="doctor",host="n2",id="pfc.prio_disabled",area="pfc",device="mlx5_0",port="1",netdev="ens1f0np0"} 2'
	assert_line 'rocectl_check_area_status{command="doctor",host="n2",area="pfc"} 2'
	assert_line 'rocectl_check_area_status{command="doctor",host="n1",area="pfc"} 0'
	assert_line 'rocectl_check_exit_status{command="doctor",host="n1"} 0'
	assert_line 'rocectl_check_fleet_exit_status{command="doctor"} 2'
	assert_line 'rocectl_check_snapshots{command="doctor",state="judged"} 4'
	assert_line --regexp '^rocectl_lldp_neighbor_info\{command="doctor",host="n51",device="mlx5_0",port="1",netdev="ens1f0np0",switch="leaf-07",switch_port="Ethernet1/7",'
	assert_line --regexp '^rocectl_check_snapshot_timestamp_seconds\{command="doctor",host="n1"\} [0-9]+$'
	assert_line 'rocectl_up{command="doctor"} 1'
	# n1 is written from its newest snapshot only: no series twice
	[ -z "$(grep -v '^#' "$BATS_TEST_TMPDIR/f.prom" | sed 's/ [^ ]*$//' | sort | uniq -d)" ]
	refute_line 'rocectl_check_exit_status{command="doctor",host="n1"} 2'
	# every series but rocectl's own carries host
	[ -z "$(grep -v '^#' "$BATS_TEST_TMPDIR/f.prom" | grep -v 'host="' |
		grep -vE '^rocectl_(up|last_success_timestamp_seconds|build_info|check_snapshots|check_loss_budget_ratio|check_fleet_exit_status|check_timestamp_seconds)\{')" ]
	run -2 rocectl check all -o openmetrics -i "$d"
	assert_line '# EOF'
}

# The example of README and rocectl-check(8) FLEET, line for line ("..." elides).
@test "README and rocectl-check(8): the fleet example is real output" {
	local d block line
	mkdir "$BATS_TEST_TMPDIR/snap"
	d=$(fleet fault-peer-pfc-prio4:node51:33000 fault-peer-no-dcbx:node52:33000 ice-peer-healthy:node53:33000)
	mv "$d"/*.json "$BATS_TEST_TMPDIR/snap/"
	mkdir "$BATS_TEST_TMPDIR/bin"
	ln -s "$ROCECTL" "$BATS_TEST_TMPDIR/bin/rocectl"
	export PATH="$BATS_TEST_TMPDIR/bin:$PATH"
	cd "$BATS_TEST_TMPDIR"
	for block in "$ROOT/README.md:rocectl doctor -i snap/ --by switch" \
		     "$ROOT/man/rocectl-check.8:rocectl check all -i snap/ --by switch"; do
		run -2 bash -c "$(python3 "$BATS_TEST_DIRNAME/lib/man_block.py" "${block%%:*}" "${block#*:}" |
			grep -m1 '^\$ ' | sed 's/^\$ //')"
		while IFS= read -r line; do
			case $line in '' | '$ '* | '...' | 'fleet: '*) continue ;; esac
			assert_line "$line"
		done < <(python3 "$BATS_TEST_DIRNAME/lib/man_block.py" "${block%%:*}" "${block#*:}")
	done
}
