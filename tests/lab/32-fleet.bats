#!/usr/bin/env bats
# The collect recipes of rocectl-collect(8), run as printed with real pdsh,
# rpdcp and Ansible, on a fleet of three hosts that are all this guest
# (tests/cli/lib/fleet: ssh stand-ins, Ansible's local connection): real
# snapshots of the Soft-RoCE hosts come home and compare reads them.

bats_require_minimum_version 1.5.0

setup() {
	load lab
	ROCECTL=${ROCECTL:-$PWD/build/rocectl}
	source "$LAB_DIR/../cli/lib/fleet/fleet.bash"
	# Ansible is python, and python under emulation is slow: two hosts
	fleet_setup "$BATS_TEST_TMPDIR" "$ROCECTL" 2
}

# N copies of this host's snapshot, two RoCE ports each, none left out.
compared() {
	[ "$status" -le 1 ] || { echo "exit $status: $output $stderr"; return 1; }
	grep -qE "^[0-9]+ outliers among $1 RoCE ports\$" <<<"$output" || { echo "$output"; return 1; }
	[[ $stderr != *"left out"* ]] || { echo "$stderr"; return 1; }
}

@test "rocectl-collect(8): pdsh collects, rpdcp brings the snapshots home, compare reads them" {
	run --separate-stderr timeout 120 bash -c "$(recipe "$FLEET_ROOT/man/rocectl-collect.8" "rpdcp -w")"
	compared 6
	ls snap/rocectl.json.node01 snap/rocectl.json.node02 snap/rocectl.json.node03
	jq -e '.kind == "rocectl-host-snapshot" and (.host.devices | length) == 2' snap/rocectl.json.node02
}

@test "rocectl-collect(8): Ansible collects and fetches, compare reads them" {
	run --separate-stderr timeout 600 bash -c "$(recipe "$FLEET_ROOT/man/rocectl-collect.8" "ansible roce -m fetch")"
	compared 4
	ls "snap/node02$T/var/rocectl.json"
}

@test "rocectl-check(8) FLEET: pdsh collects, rpdcp brings the snapshots home, doctor judges the directory" {
	run --separate-stderr timeout 120 bash -c "$(recipe "$FLEET_ROOT/man/rocectl-check.8" "rocectl doctor -i snap/")"
	# the last line wrote the textfile (exit 0); the lab's hosts fail mtu.active or are unknown (veth has no DCB)
	[ "$status" -eq 0 ] || { echo "exit $status: $output $stderr"; false; }
	grep -qE '^Summary: 3 hosts judged: .*; 0 snapshots unreadable, 0 stale \(exit [23]\)$' <<<"$output" || {
		echo "$output"; false; }
	grep -q '^By switch:$' <<<"$output"
	grep -qx 'rocectl_check_snapshots{command="doctor",state="judged"} 3' snap/fleet.prom
	# three copies of this one guest: its series once, from the newest
	[ "$(grep -c '^rocectl_check_exit_status{command="doctor",host="' snap/fleet.prom)" -eq 1 ]
}
