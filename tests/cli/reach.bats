#!/usr/bin/env bats
# reach, serve and bench rdma without RDMA: bad input is a one-line usage
# error (64) or a runtime error (3), before or instead of any network wait.
load helpers

# One line on stderr, nothing on stdout, the given status.
one_line_error() {
	local want=$1
	shift
	run --separate-stderr timeout 20 "$ROCECTL" "$@"
	assert_equal "$status" "$want"
	assert_equal "$output" ""
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] || { echo "stderr: $stderr"; return 1; }
	[[ $stderr == rocectl:* ]]
}

@test "reach: ToS 300, size 0, count -1, timeout 0 are usage errors" {
	one_line_error 64 reach 10.0.0.2 --tos 300
	assert_equal "$stderr" "rocectl: reach: invalid value '300' for '--tos': expected 0 to 255 (see 'rocectl reach --help')"
	one_line_error 64 reach 10.0.0.2 --size 0
	assert_equal "$stderr" "rocectl: reach: invalid value '0' for '--size': expected 1 to 8388608 bytes (see 'rocectl reach --help')"
	one_line_error 64 reach 10.0.0.2 --count -1
	one_line_error 64 reach 10.0.0.2 --timeout 0
	one_line_error 64 reach 10.0.0.2 --port 0
	one_line_error 64 reach
	one_line_error 64 reach 10.0.0.2 --dev rxe0 --src 10.0.0.1
	one_line_error 64 reach 10.0.0.2 --src not-an-address
	one_line_error 64 reach 10.0.0.2 --gid-index 1
	one_line_error 64 reach 10.0.0.2 --parallel 0
	one_line_error 64 reach 10.0.0.2 --parallel 65
}

@test "reach: option letters follow perftest: -T is the ToS, --timeout has no letter, -d and --ib-dev" {
	one_line_error 64 reach 10.0.0.2 -T 256
	assert_equal "$stderr" "rocectl: reach: invalid value '256' for '--tos': expected 0 to 255 (see 'rocectl reach --help')"
	run "$ROCECTL" reach --help
	assert_output --partial '-T, --tos TOS'
	assert_output --partial '      --timeout SECS'
	assert_output --partial '-d, --dev DEV'
	assert_output --partial '      --ib-dev DEV'
	assert_output --partial '-x, --gid-index N'
	# --ib-dev is --dev: with --src it is the same conflict
	one_line_error 64 reach 10.0.0.2 --ib-dev rxe0 --src 10.0.0.1
	assert_equal "$stderr" "rocectl: reach: --dev and --src exclude each other"
}

@test "reach --targets: comments and blank lines skipped, bad lines are usage errors" {
	local f=$BATS_TEST_TMPDIR/hosts.txt
	one_line_error 3 reach --targets "$BATS_TEST_TMPDIR/none.txt"
	assert_equal "$stderr" "rocectl: cannot open '$BATS_TEST_TMPDIR/none.txt': No such file or directory"
	printf '# rack 1\n\n   # only a comment\n' >"$f"
	one_line_error 64 reach --targets "$f"
	assert_equal "$stderr" "rocectl: reach: no target (give TARGET or --targets FILE)"
	printf '10.0.0.2\n10.0.0.3:99999 node3\n' >"$f"
	one_line_error 64 reach --targets "$f"
	assert_equal "$stderr" "rocectl: '$f' line 2: invalid target '10.0.0.3:99999' (HOST, HOST:PORT or [IPV6]:PORT)"
	printf 'node[05-03]\n' >"$f"
	one_line_error 64 reach --targets "$f"
	assert_equal "$stderr" "rocectl: '$f' line 1: invalid host list 'node[05-03]'"
	printf '10.0.0.2\n10.0.\0330.3\n' >"$f"
	one_line_error 64 reach --targets "$f"
	assert_equal "$stderr" "rocectl: '$f' line 2: a control character in the address"
	printf '10.0.0.2\0\n' >"$f"
	one_line_error 64 reach --targets "$f"
	assert_equal "$stderr" "rocectl: '$f' is not a text file"
	one_line_error 3 reach --targets "$BATS_TEST_TMPDIR"
	assert_equal "$stderr" "rocectl: cannot read '$BATS_TEST_TMPDIR': Is a directory"
}

# Without rdma_cm every target is "unknown": the file was read, each line a row.
@test "reach --targets: one row per target, worst status, JSON one object each" {
	local f=$BATS_TEST_TMPDIR/hosts.txt
	printf '# lab\n10.0.0.2   # B\n\n10.0.0.3\n' >"$f"
	run --separate-stderr timeout 20 "$ROCECTL" reach --targets "$f" 10.0.0.9 --timeout 1
	assert_equal "$status" 3
	assert_line --index 0 --regexp '^TARGET +VERDICT +FINDING +PATH_MTU +RTT_P50_US +RTT_P99_US +LOSS$'
	assert_line --index 1 --regexp '^10\.0\.0\.9 +unknown'
	assert_line --index 2 --regexp '^10\.0\.0\.2 +unknown'
	assert_line --index 3 --regexp '^10\.0\.0\.3 +unknown'
	assert_line --index 4 "  10.0.0.9: cannot open rdma_cm (is rdma_ucm loaded?): No such device"
	run --separate-stderr timeout 20 "$ROCECTL" -j reach --targets - --timeout 1 <"$f"
	assert_equal "$status" 3
	jq -e '[.targets[].target] == ["10.0.0.2", "10.0.0.3"] and
		([.targets[] | select(.verdict == "unknown" and (.error | test("rdma_cm")))] | length == 2) and
		(.hostname | type == "string")' <<<"$output"
}

@test "reach: a name that does not resolve is a runtime error, quoted" {
	one_line_error 3 reach no-such-host.invalid
	[[ $stderr == "rocectl: cannot resolve 'no-such-host.invalid': "* ]]
}

# CI and build hosts have no RDMA (the live path is tested in the lab).
@test "reach: without rdma_cm it cannot evaluate (3), one line, JSON error too" {
	one_line_error 3 reach 127.0.0.1 --timeout 1
	assert_equal "$stderr" "rocectl: cannot open rdma_cm (is rdma_ucm loaded?): No such device"
	run --separate-stderr "$ROCECTL" -j reach 127.0.0.1
	assert_equal "$status" 3
	jq -e '.error.message | test("cannot open rdma_cm")' <<<"$output"
}

@test "serve: bad bind address and ranges are usage errors; no rdma_cm is 3" {
	one_line_error 64 serve --bind nowhere
	one_line_error 64 serve --max-clients 0
	one_line_error 64 serve --max-clients 257
	one_line_error 64 serve --max-per-peer 0
	one_line_error 64 serve --lifetime 0
	one_line_error 64 serve extra-arg
	one_line_error 3 serve --bind 127.0.0.1
}

@test "bench rdma: conflicting and bad options are usage errors" {
	one_line_error 64 bench rdma 10.0.0.2 --lat --bw
	one_line_error 64 bench rdma 10.0.0.2 --iters 10 --time 1
	one_line_error 64 bench rdma 10.0.0.2 --op atomic
	one_line_error 64 bench rdma 10.0.0.2 --size 0
	one_line_error 64 bench rdma 10.0.0.2 --qd 0
	one_line_error 64 bench rdma
	one_line_error 3 bench rdma no-such-host.invalid
}

@test "bench rdma chooses its source as reach does: --dev/--ib-dev with -x, or --src" {
	one_line_error 64 bench rdma 10.0.0.2 -x 3
	assert_equal "$stderr" "rocectl: bench rdma: --gid-index needs --dev"
	one_line_error 64 bench rdma 10.0.0.2 --ib-dev rxe0 --src 10.0.0.1
	assert_equal "$stderr" "rocectl: bench rdma: --dev and --src exclude each other"
	one_line_error 64 bench rdma 10.0.0.2 --src not-an-address
	one_line_error 64 bench rdma 10.0.0.2 --dev rxe0 -x 65536
	# Without RDMA here, the device cannot be looked up: could not evaluate.
	one_line_error 3 bench rdma 10.0.0.2 --dev rxe0
	run "$ROCECTL" bench rdma --help
	assert_output --partial '-d, --dev DEV'
	assert_output --partial '      --ib-dev DEV'
	assert_output --partial '-x, --gid-index N'
}

@test "reach --targets: /etc/hosts lines, pdsh host lists and HOST:PORT, in files and arguments" {
	local f=$BATS_TEST_TMPDIR/hosts.txt
	printf '10.0.0.2   node02 n2   # /etc/hosts style\nnode[08-10]\n[fe80::2%%lo]:18521\n' >"$f"
	run --separate-stderr timeout 20 "$ROCECTL" -j reach --targets "$f" 'r[1-2]:18600' --timeout 1
	assert_equal "$status" 3
	jq -e '[.targets[] | "\(.target) \(.port)"] == ["r1:18600 18600", "r2:18600 18600",
		"10.0.0.2 18520", "node08 18520", "node09 18520", "node10 18520",
		"[fe80::2%lo]:18521 18521"]' <<<"$output"
	one_line_error 64 reach 'n[1-99999]'
	assert_equal "$stderr" "rocectl: reach: more than 4096 targets"
}

@test "reach and serve are in the metadata with the documented defaults" {
	run "$ROCECTL" __metadata
	assert_success
	jq -e '[.commands[] | select(.name == "reach") | .check][0] == true' <<<"$output"
	jq -e '[.commands[] | select(.name == "bench") | .commands[].name] | index("rdma") != null' <<<"$output"
	run "$ROCECTL" serve --help
	assert_output --partial 'rdma_cm and TCP control port (default 18520)'
}

# tests/cli/data/reach/lab-{a,b}.json: "rocectl -j reach --targets hosts.txt --src
# A|B --timeout 3 -c 5" in the Soft-RoCE lab, serve on both hosts, hosts.txt
# = 10.0.0.1 (A), 10.0.0.2 (B), 10.0.0.77 (nobody); lab-a-b.json: one
# target, "rocectl -j reach 10.0.0.2 --dev rxe0 -c 5 --compare-tcp".
@test "reach --matrix: the lab's all-pairs run, failing pairs first, text and JSON" {
	run --separate-stderr "$ROCECTL" reach --matrix "$DATA/reach/lab-a.json" "$DATA/reach/lab-b.json"
	assert_equal "$status" 2
	assert_line --index 0 "2 sources x 3 targets: 6 pairs probed, 2 failing, 0 not probed"
	assert_line --index 1 "failing pairs:"
	assert_line --index 2 --regexp "^  10\.0\.0\.1 +-> 10\.0\.0\.77 +fail +reach\.addr_unresolved: address resolution of '10\.0\.0\.77' timed out"
	assert_line --index 3 --regexp "^  10\.0\.0\.2 +-> 10\.0\.0\.77 +fail +reach\.addr_unresolved"
	assert_line --index 4 --regexp '^SOURCE \\ TARGET +10\.0\.0\.77 +10\.0\.0\.1 +10\.0\.0\.2$'
	assert_line --index 5 --regexp '^10\.0\.0\.1 +addr_unresolved +ok +ok$'
	assert_line --index 6 --regexp '^10\.0\.0\.2 +addr_unresolved +ok +ok$'
	run --separate-stderr "$ROCECTL" -j reach --matrix "$DATA/reach/lab-b.json" "$DATA/reach/lab-a.json"
	assert_equal "$status" 2
	jq -e '.sources == ["10.0.0.2", "10.0.0.1"] and .targets[0] == "10.0.0.77" and
		.pairs_probed == 6 and .pairs_failing == 2 and .pairs_missing == 0 and
		[.pairs[:2][] | .verdict] == ["fail", "fail"] and
		all(.pairs[2:][]; .verdict == "ok" and .path_mtu == 1024 and .rtt_p50_ns > 0)' <<<"$output"
}

@test "reach --matrix: pdsh output in one file, a single-target document, a missing pair" {
	local all=$BATS_TEST_TMPDIR/pdsh.out
	{ printf 'lab-a: '; cat "$DATA/reach/lab-a.json"; } >"$all"
	run --separate-stderr "$ROCECTL" -j reach --matrix "$all" "$DATA/reach/lab-a-b.json"
	assert_equal "$status" 2
	# both documents came from A (10.0.0.1): one row
	jq -e '.sources == ["10.0.0.1"] and .pairs_probed == 3' <<<"$output"
	run --separate-stderr "$ROCECTL" reach --matrix "$DATA/reach/lab-a-b.json"
	assert_success
	assert_line --index 0 "1 sources x 1 targets: 1 pairs probed, 0 failing, 0 not probed"
	jq -c '.targets |= .[:1]' "$DATA/reach/lab-b.json" >"$BATS_TEST_TMPDIR/b1.json"
	run --separate-stderr "$ROCECTL" reach --matrix "$DATA/reach/lab-a-b.json" "$BATS_TEST_TMPDIR/b1.json"
	assert_success
	assert_line --index 0 "2 sources x 2 targets: 2 pairs probed, 0 failing, 2 not probed"
	assert_line --index 3 --regexp '^10\.0\.0\.2 +- +ok$'
}

@test "reach --matrix: bad files are one line and exit 3; usage errors 64" {
	one_line_error 64 reach --matrix
	one_line_error 64 reach --matrix --targets x.txt a.json
	one_line_error 3 reach --matrix "$BATS_TEST_TMPDIR/none.json"
	printf '{"devices": []}\n' >"$BATS_TEST_TMPDIR/other.json"
	one_line_error 3 reach --matrix "$BATS_TEST_TMPDIR/other.json"
	assert_equal "$stderr" "rocectl: '$BATS_TEST_TMPDIR/other.json': document 1 is not a JSON document of rocectl reach"
	printf '{"targets": [' >"$BATS_TEST_TMPDIR/cut.json"
	one_line_error 3 reach --matrix "$BATS_TEST_TMPDIR/cut.json"
	one_line_error 3 reach --matrix "$BATS_TEST_TMPDIR/cut.json" "$BATS_TEST_TMPDIR/other.json"
	assert_equal "$stderr" "rocectl: none of the 2 inputs holds a reach document"
}

@test "reach --matrix: what could not be read is named and left out; the rest is the matrix" {
	local d=$BATS_TEST_TMPDIR
	printf '{"targets": [' >"$d/cut.json"
	: >"$d/empty.json"
	{ printf 'lab-b: '; cat "$DATA/reach/lab-b.json"
	  printf 'pdsh@admin: node4: ssh exited with exit code 255\n'; } >"$d/pdsh.out"
	run --separate-stderr "$ROCECTL" reach --matrix "$DATA/reach/lab-a.json" "$d/cut.json" "$d/pdsh.out" \
		"$d/empty.json"
	assert_equal "$status" 2
	assert_line --index 0 "2 sources x 3 targets: 6 pairs probed, 2 failing, 0 not probed; inputs unreadable: 3"
	[[ $stderr == *"'$d/pdsh.out': pdsh: node4: ssh exited with exit code 255 (left out)"* ]]
	[[ $stderr == *"'$d/cut.json': document 1 is not a JSON document of rocectl reach (left out)"* ]]
	[[ $stderr == *"'$d/empty.json' holds no JSON document (left out)"* ]]
	# without a failing pair, the exit says some inputs were unreadable
	jq -c '.targets |= .[:2]' "$DATA/reach/lab-b.json" >"$d/b-ok.json"
	run --separate-stderr "$ROCECTL" -j reach --matrix "$d/b-ok.json" "$d/pdsh.out"
	assert_equal "$status" 2
	run --separate-stderr "$ROCECTL" -j reach --matrix "$d/b-ok.json" "$d/empty.json"
	assert_equal "$status" 3
	jq -e --arg f "$d/empty.json" '.unreadable_count == 1 and .unreadable[0].name == $f and
		.pairs_probed == 2 and .pairs_failing == 0' <<<"$output"
}

@test "reach --matrix: too many targets for a grid give a row per source" {
	python3 - "$DATA/reach/lab-a.json" "$BATS_TEST_TMPDIR/wide.json" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
t = [x for x in doc["targets"] if x["verdict"] == "ok"][0]
doc["targets"] = [dict(t, target="10.1.0.%d" % i) for i in range(1, 31)]
doc["targets"][4]["verdict"] = "fail"
json.dump(doc, open(sys.argv[2], "w"))
EOF
	run --separate-stderr "$ROCECTL" reach --matrix "$BATS_TEST_TMPDIR/wide.json"
	assert_equal "$status" 2
	assert_line --regexp '^SOURCE +OK +FAILING +NOT_PROBED +FAILING TARGETS$'
	assert_line --regexp '^10\.0\.0\.1 +29 +1 +0  10\.1\.0\.5$'
	assert_line "(no grid: 30 targets are too many columns; -j has every pair)"
	refute_line --regexp '^SOURCE \\ TARGET'
}

@test "serve --allow: a network that does not parse, or has host bits set, is a usage error" {
	one_line_error 64 serve --allow 10.0.0.1/24
	assert_equal "$stderr" "rocectl: invalid network '10.0.0.1/24' for '--allow': bits are set past the prefix length"
	one_line_error 64 serve --allow 10.0.0.0/24 --allow fd00::/129
	assert_equal "$stderr" "rocectl: invalid network 'fd00::/129' for '--allow': prefix length must be 0 to 128"
	one_line_error 64 serve --allow somehost
	# 32 networks at most
	run --separate-stderr "$ROCECTL" serve $(for i in $(seq 33); do printf -- '--allow 10.0.%d.0/24 ' "$i"; done)
	assert_equal "$status" 64
	assert_equal "$stderr" "rocectl: serve: invalid value '10.0.33.0/24' for '--allow': given too many times (at most 32) (see 'rocectl serve --help')"
	# valid networks pass on to listening (no rdma_cm here: 3)
	one_line_error 3 serve --bind 127.0.0.1 --allow 10.0.0.0/24 --allow ::ffff:10.1.0.0/112
}

@test "--token-file: readable by others, malformed or missing is a usage error, for serve, reach and bench rdma" {
	local t=$BATS_TEST_TMPDIR/token
	printf 'abcdefghijklmnopqrstuv\n' >"$t"
	chmod 0644 "$t"
	one_line_error 64 serve --token-file "$t"
	assert_equal "$stderr" "rocectl: token file '$t' must be a regular file that other users cannot read or write (chmod o-rw)"
	one_line_error 64 reach 10.0.0.2 --token-file "$t"
	one_line_error 64 bench rdma 10.0.0.2 --token-file "$t"
	chmod 0600 "$t"
	printf 'short\n' >"$t"
	one_line_error 64 serve --token-file "$t"
	assert_equal "$stderr" "rocectl: token in '$t' must be one line of 16 to 24 printable characters without spaces"
	printf 'abcdefghij klmnopqrstuv\n' >"$t"
	one_line_error 64 reach 10.0.0.2 --token-file "$t"
	printf 'abcdefghijklmnopqrstuvwxyz\n' >"$t"	# 26: too long
	one_line_error 64 serve --token-file "$t"
	one_line_error 64 serve --token-file "$BATS_TEST_TMPDIR/none"
	[[ $stderr == "rocectl: cannot open token file '$BATS_TEST_TMPDIR/none': No such file or directory" ]]
	one_line_error 64 serve --token-file /dev/null
	# a good one passes on to listening (no rdma_cm here: 3)
	printf 'abcdefghijklmnopqrstuv\n' >"$t"
	one_line_error 3 serve --bind 127.0.0.1 --token-file "$t"
}

# A file that cannot be read is a runtime error wherever it is named: a
# missing --targets file exits 3, as a missing --input does.
@test "reach --targets: a file that cannot be read exits 3, as a missing --input does" {
	run -3 --separate-stderr "$ROCECTL" reach --targets /nonexistent.txt
	assert_equal "$stderr" "rocectl: cannot open '/nonexistent.txt': No such file or directory"
	run -3 --separate-stderr "$ROCECTL" reach --targets "$BATS_TEST_TMPDIR"
	run -3 --separate-stderr "$ROCECTL" check all -i /nonexistent.json
}
