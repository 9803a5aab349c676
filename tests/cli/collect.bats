#!/usr/bin/env bats
# rocectl collect without RDMA: usage errors, and the snapshots it writes as
# every reader sees them (the fixtures). The live collect runs in the lab
# (tests/lab/30-collect.bats).
load helpers

@test "usage errors exit 64 with one line" {
	local args
	for args in "--interval 0" "--interval -1" "--interval 3601" "--interval soon" \
		    "extra" "--output" "--nope"; do
		# shellcheck disable=SC2086
		run --separate-stderr rocectl collect $args
		assert_failure 64
		assert_equal "${#lines[@]}" 0
		[ "$(wc -l <<<"$stderr")" -eq 1 ]
		assert_regex "$stderr" "^rocectl: collect: .*\(see 'rocectl collect --help'\)$"
	done
}

@test "--help prints the usage line and both options" {
	run -0 rocectl collect --help
	assert_line --index 0 "usage: rocectl collect [OPTIONS]"
	assert_line --regexp '^  -O, --output-file FILE '
	assert_line --regexp '^  -I, --interval SECS '
}

@test "collect -O writes a snapshot that loads, or fails in one line with status 3 and writes nothing" {
	local dir=$BATS_TEST_TMPDIR/o out=$BATS_TEST_TMPDIR/o/out.json
	mkdir "$dir"
	run --separate-stderr rocectl collect -O "$out"
	if [ "$status" -eq 0 ]; then	# a host with RDMA
		assert_regex "${lines[0]}" "^wrote $out: [0-9]+ RDMA devices, "
		run -0 rocectl devices -j --input "$out"
	else				# this CI machine: no RDMA in its kernel
		assert_failure 3
		assert_regex "$stderr" "^rocectl: cannot open RDMA netlink \(is ib_core loaded\?\): .+$"
		[ -z "$(ls -A "$dir")" ]
	fi
}

@test "every fixture reads back through devices --input" {
	local f n=0
	for f in "$FIXTURES"/*.json; do
		run -0 rocectl devices -j --input "$f"
		echo "$output" | jq -e '.devices | length >= 1'
		n=$((n + 1))
	done
	[ "$n" -ge 20 ]
}

@test "a bad snapshot is one line, status 3" {
	local bad=$BATS_TEST_TMPDIR/bad.json
	printf '{"schema_version": 5, "kind": "rocectl-host-snapshot", "host": {}}' >"$bad"
	run --separate-stderr rocectl devices --input "$bad"
	assert_failure 3
	assert_equal "$stderr" "rocectl: cannot read snapshot '$bad': schema_version 5, expected 1 to 4"
	head -c 900 "$FIXTURES/mlx5-upstream-healthy.json" >"$bad"
	run --separate-stderr rocectl devices --input "$bad"
	assert_failure 3
	assert_equal "$stderr" "rocectl: cannot read snapshot '$bad': the document ends inside a string at byte 900"
	jq '.host.netdevs[0].pfc.pfc_en = [true]' "$FIXTURES/mlx5-upstream-healthy.json" >"$bad"
	run --separate-stderr rocectl devices --input "$bad"
	assert_failure 3
	assert_equal "$stderr" "rocectl: cannot read snapshot '$bad': host.netdevs[0].pfc: 'pfc_en' is not an array of the right length"
}

@test "a schema 3 snapshot (hostname and time on top, null for unknown) reads as its schema 2 form" {
	local new=$BATS_TEST_TMPDIR/new.json
	run -0 rocectl devices -j --input "$FIXTURES/mlx5-upstream-healthy.json"
	local old=$output
	run -0 rocectl devices -j --input "$FIXTURES/../snapshots/mlx5-upstream-healthy-v3.json"
	jq -e --argjson old "$old" '.hostname == "node11" and del(.time) == ($old | del(.time))' <<<"$output"
	# the top-level stamp is what is read: the time as a real date, the hostname as the host's
	jq '.hostname = "other" | .time = "2026-02-29T00:00:00Z"' \
		"$FIXTURES/../snapshots/mlx5-upstream-healthy-v3.json" >"$new"
	run --separate-stderr rocectl devices --input "$new"
	assert_failure 3
	assert_equal "$stderr" "rocectl: cannot read snapshot '$new': 'time' is not an RFC 3339 UTC time (YYYY-MM-DDTHH:MM:SSZ)"
	jq '.hostname = "other"' "$FIXTURES/../snapshots/mlx5-upstream-healthy-v3.json" >"$new"
	run -0 rocectl check mtu -j --input "$new"
	jq -e '.hostname == "other"' <<<"$output"
}
