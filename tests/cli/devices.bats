#!/usr/bin/env bats
# rocectl devices on host snapshots (the live host is tested in the lab).
load helpers

snap=$BATS_TEST_DIRNAME/data/rxe-lab.json

@test "text shows every device, port, netdev, MTUs and the GID table" {
	run -0 rocectl devices --input "$snap"
	assert_line --index 0 "rxe0: driver rxe  node_type ca  node_guid 8cb5:2aff:fe6c:7d21  fw 6.1.0-57-amd64"
	assert_line "        active_mtu 1024  max_mtu 4096  (limited by netdev mtu 1500; 4096 needs 4192)"
	assert_line "        active_mtu 4096  max_mtu 4096"
	assert_line --regexp '^ +1  ::ffff:10\.0\.0\.1 +10\.0\.0\.1 +RoCE v2  veth0$'
	assert_line --regexp '^ +INDEX  GID +IP +TYPE +NETDEV$'
}

@test "JSON carries the same values" {
	run -0 rocectl devices -j --input "$snap"
	echo "$output" | jq -e '
		.schema_version == 3 and
		([.devices[].name] == ["rxe0", "rxe1"]) and
		.devices[0].ports[0].active_mtu == 1024 and
		.devices[0].ports[0].netdev_mtu == 1500 and
		.devices[0].ports[0].mtu_limited_by_netdev == true and
		.devices[1].ports[0].mtu_limited_by_netdev == false and
		(.devices[0].ports[0].gids[] | select(.index == 1) | .ip == "10.0.0.1" and .type == "RoCE v2")'
}

@test "filter by device, device/port and netdev" {
	run -0 rocectl devices -j --input "$snap" rxe1
	echo "$output" | jq -e '[.devices[].name] == ["rxe1"]'
	run -0 rocectl devices -j --input "$snap" rxe0/1
	echo "$output" | jq -e '[.devices[].name] == ["rxe0"] and (.devices[0].ports | length == 1)'
	run -0 rocectl devices -j --input "$snap" veth1
	echo "$output" | jq -e '[.devices[].name] == ["rxe1"]'
}

@test "a filter that matches nothing exits 3 naming it" {
	run --separate-stderr rocectl devices --input "$snap" mlx5_9
	assert_failure 3
	assert_equal "$stderr" "rocectl: no RDMA device 'mlx5_9'"
	run --separate-stderr rocectl devices --input "$snap" rxe0/2
	assert_failure 3
}

@test "bad snapshots: one-line error, exit 3" {
	printf 'not json' > "$BATS_TEST_TMPDIR/a.json"
	run --separate-stderr rocectl devices --input "$BATS_TEST_TMPDIR/a.json"
	assert_failure 3
	assert_equal "$stderr" "rocectl: cannot read snapshot '$BATS_TEST_TMPDIR/a.json': not valid JSON"
	head -c 300 "$snap" > "$BATS_TEST_TMPDIR/t.json"
	run -3 rocectl devices --input "$BATS_TEST_TMPDIR/t.json"
	jq '.schema_version = 5' "$snap" > "$BATS_TEST_TMPDIR/v.json"
	run --separate-stderr rocectl devices --input "$BATS_TEST_TMPDIR/v.json"
	assert_failure 3
	[[ $stderr == *"schema_version 5, expected 1 to 4" ]]
	jq '.host.devices[0].ports[0].active_mtu = "big"' "$snap" > "$BATS_TEST_TMPDIR/w.json"
	run --separate-stderr rocectl devices --input "$BATS_TEST_TMPDIR/w.json"
	assert_failure 3
	assert_equal "$stderr" "rocectl: cannot read snapshot '$BATS_TEST_TMPDIR/w.json': host.devices[0].ports[0]: 'active_mtu' is not an integer in range"
	run --separate-stderr rocectl devices --input /nonexistent.json
	assert_failure 3
	assert_equal "$stderr" "rocectl: cannot open snapshot '/nonexistent.json': No such file or directory"
	[ "$(echo "$stderr" | wc -l)" -eq 1 ]
}

@test "devices and counters take the device as --dev too, as check does; two different ones are a usage error" {
	local f=$FIXTURES/mlx5-upstream-healthy.json
	run -0 rocectl devices -i "$f" --dev ens1f0np0
	assert_line --index 0 --regexp '^mlx5_0: driver mlx5 '
	run -0 rocectl counters -i "$f" -d mlx5_0/1
	assert_line --index 0 --regexp '^mlx5_0/1 +driver mlx5 '
	run -0 rocectl devices -i "$f" --ib-dev mlx5_0 mlx5_0
	run --separate-stderr -64 rocectl counters -i "$f" -d mlx5_0 mlx5_1
	assert_equal "$stderr" "rocectl: counters: 'mlx5_1' and '--dev mlx5_0' name two devices; give one"
	run --separate-stderr -3 rocectl devices -i "$f" -d mlx5_9
	assert_equal "$stderr" "rocectl: no RDMA device 'mlx5_9'"
}

@test "a device whose ports were not read is listed, not reported as a device named '(null)'" {
	jq '.host.devices[0].ports = []' "$snap" > "$BATS_TEST_TMPDIR/p.json"
	run -0 rocectl devices -j --input "$BATS_TEST_TMPDIR/p.json"
	echo "$output" | jq -e '[.devices[].name] == ["rxe0", "rxe1"] and (.devices[0].ports | length == 0)'
	run -0 rocectl devices -j --input "$BATS_TEST_TMPDIR/p.json" rxe0
	echo "$output" | jq -e '[.devices[].name] == ["rxe0"]'
	jq '.host.devices[].ports = []' "$snap" > "$BATS_TEST_TMPDIR/q.json"
	run -0 --separate-stderr rocectl devices --input "$BATS_TEST_TMPDIR/q.json"
	assert_line --index 0 --regexp '^rxe0: driver rxe '
	[[ $stderr != *"(null)"* ]]
}
