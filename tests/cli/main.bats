#!/usr/bin/env bats
# The command framework: dispatch, usage errors, help, version, JSON documents.
load helpers

@test "no command prints usage on stderr and exits 64" {
	run --separate-stderr rocectl
	assert_failure 64
	assert_output ""
	[[ $stderr == *"usage: rocectl"* ]]
}

@test "unknown command exits 64 with a one-line error" {
	run --separate-stderr rocectl frobnicate
	assert_failure 64
	assert_equal "$stderr" "rocectl: unknown command 'frobnicate' (see 'rocectl help')"
}

@test "after --, a word that starts with '-' is a command name, not an option" {
	run --separate-stderr rocectl check -- -j
	assert_failure 64
	assert_equal "$stderr" "rocectl: check: unknown command '-j' (see 'rocectl check --help')"
	assert_output ""
	run -0 rocectl check -- mtu -i "$FIXTURES/mlx5-upstream-healthy.json"
}

@test "commands match exactly, never by prefix" {
	run -64 rocectl dev
	run -64 rocectl device
	run -64 rocectl DEVICES
}

@test "unknown option exits 64, before and after the command" {
	run --separate-stderr rocectl --bogus devices
	assert_failure 64
	assert_equal "$stderr" "rocectl: unknown option '--bogus' (see 'rocectl --help')"
	run --separate-stderr rocectl devices --bogus
	assert_failure 64
	assert_equal "$stderr" "rocectl: devices: unknown option '--bogus' (see 'rocectl devices --help')"
}

@test "long options match exactly, never by a unique prefix" {
	run --separate-stderr -64 rocectl check pfc --inp "$FIXTURES/mlx5-upstream-healthy.json"
	assert_equal "$stderr" "rocectl: check pfc: unknown option '--inp' (did you mean '--input'?) (see 'rocectl check pfc --help')"
	run --separate-stderr -64 rocectl check pfc --inp="$FIXTURES/mlx5-upstream-healthy.json"
	[[ $stderr == *"unknown option '--inp' (did you mean '--input'?)"* ]]
	run --separate-stderr -64 rocectl --jso devices --input "$FIXTURES/mlx5-upstream-healthy.json"
	[[ $stderr == *"unknown option '--jso' (did you mean '--json'?)"* ]]
	run --separate-stderr -64 rocectl bench nvmf --write -a 10.0.0.2
	[[ $stderr == *"unknown option '--write' (did you mean '--write-ok'?)"* ]]
	# the whole name, with its value attached or apart, still parses
	run -0 rocectl check pfc -q --input="$FIXTURES/mlx5-upstream-healthy.json"
	run -0 rocectl check pfc -q --input "$FIXTURES/mlx5-upstream-healthy.json" --dscp 26
}

@test "numbers are decimal as typed, even with a leading zero; hexadecimal only with 0x" {
	run -0 rocectl check dscp -j --input "$FIXTURES/mlx5-upstream-healthy.json" --dscp 026 --tos 0150
	assert_equal "$(jq -c '[.intent.dscp, .intent.tos]' <<<"$output")" "[26,150]"
	run -0 rocectl check dscp -j --input "$FIXTURES/mlx5-upstream-healthy.json" --dscp 0x1a
	assert_equal "$(jq '.intent.dscp' <<<"$output")" "26"
	run --separate-stderr -64 rocectl check dscp --input "$FIXTURES/mlx5-upstream-healthy.json" --dscp 0x
	[[ $stderr == *"invalid value '0x' for '--dscp': not an integer"* ]]
	printf 'dscp = 026\ntos = 0150\n' > "$BATS_TEST_TMPDIR/r.conf"
	run -0 rocectl check dscp -j --config "$BATS_TEST_TMPDIR/r.conf" --input "$FIXTURES/mlx5-upstream-healthy.json"
	assert_equal "$(jq -c '[.intent.dscp, .intent.tos]' <<<"$output")" "[26,150]"
}

@test "too many arguments exits 64" {
	run -64 rocectl devices a b
}

@test "a usage error in JSON mode is also a JSON error object" {
	run --separate-stderr rocectl -j devices a b
	assert_failure 64
	echo "$output" | jq -e '.schema_version == 3 and (.error.message | test("too many arguments"))'
}

@test "help, --help and -h work and print to stdout" {
	run -0 rocectl help
	assert_line --index 0 "usage: rocectl [OPTIONS] COMMAND [ARGS]"
	run -0 rocectl --help
	assert_line --partial "devices"
	run -0 rocectl help devices
	assert_line --index 0 "usage: rocectl devices [OPTIONS] [DEV[/PORT] | NETDEV]"
	run -0 rocectl devices -h
	assert_line --index 0 "usage: rocectl devices [OPTIONS] [DEV[/PORT] | NETDEV]"
	run -64 rocectl help nosuch
}

@test "hidden commands are not in help" {
	run -0 rocectl help
	refute_output --partial "__metadata"
	refute_output --partial "__complete"
}

@test "version in text and JSON, before or after the command" {
	run -0 rocectl --version
	assert_output --regexp '^rocectl [0-9]+\.[0-9]+\.[0-9]+$'
	run -0 rocectl -V -j
	echo "$output" | jq -e '.schema_version == 3 and (.version | test("^[0-9]"))'
	run -0 rocectl devices -V
	assert_output --regexp '^rocectl [0-9]'
}

@test "help, version and the metadata dump never open a socket or RDMA device" {
	for args in "help" "help devices" "--help" "devices --help" "-V" "__metadata"; do
		# LeakSanitizer cannot run under ptrace; the ASan build still runs this test
		ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=socket,openat \
			-o "$BATS_TEST_TMPDIR/trace" "$ROCECTL" $args >/dev/null
		run grep -E 'socket\(|infiniband|uverbs' "$BATS_TEST_TMPDIR/trace"
		assert_failure
	done
}

@test "without RDMA on this host, devices says so and exits 3" {
	[ -d /sys/class/infiniband ] && skip "this host has RDMA devices"
	run --separate-stderr rocectl devices
	assert_failure 3
	[[ $stderr == "rocectl: "* ]]
	run --separate-stderr rocectl devices -j
	assert_failure 3
	echo "$output" | jq -e '.devices == [] and (.error.message | length > 0)'
}

@test "-p implies -j and indents" {
	run -0 rocectl -p devices --input "$DATA/rxe-lab.json"
	echo "$output" | jq -e '.devices | length == 2'
	assert_line --index 1 --regexp '^[[:space:]]+"schema_version"'
}

@test "a failed write to stdout exits 3 with a message" {
	run --separate-stderr bash -c "'$ROCECTL' devices -j --input '$DATA/rxe-lab.json' > /dev/full"
	assert_failure 3
	assert_equal "$stderr" "rocectl: cannot write output: No space left on device"
	run --separate-stderr bash -c "'$ROCECTL' devices --input '$DATA/rxe-lab.json' > /dev/full"
	assert_failure 3
}

@test "a flag given a value is a clear usage error, not 'unknown option'" {
	run --separate-stderr -64 rocectl devices --json=yes
	assert_equal "$stderr" "rocectl: devices: option '--json' takes no value (got '--json=yes') (see 'rocectl devices --help')"
	run --separate-stderr -64 rocectl check all --ib-dev=x --verbose=1
	[[ $stderr == *"option '--verbose' takes no value (got '--verbose=1')"* ]]
}

@test "a group without its command: help on stderr, or one line and a JSON error with -j" {
	run --separate-stderr -64 rocectl check -j
	assert_equal "$stderr" "rocectl: check: missing command: one of pfc, ecn, dcqcn, dscp, cnp, mtu, gid, mode, counters, firewall, peer, traffic, nvmf, wire, all (see 'rocectl check --help')"
	echo "$output" | jq -e '.error.message | startswith("check: missing command")'
	run --separate-stderr -64 rocectl -j tune
	echo "$output" | jq -e '.error.errno == null and (.error.message | test("one of plan, apply, revert"))'
	run --separate-stderr -64 rocectl check
	assert_output ""
	[[ $stderr == "usage: rocectl check COMMAND"* ]]
}

@test "aliases parse to their option, and help and the metadata list them" {
	run -0 rocectl bench nvmf --help
	assert_line --regexp '^  -a, --target, --traddr ADDR'
	assert_line --regexp '^      --qd, --iodepth N'
	"$ROCECTL" __metadata | jq -e '.commands[] | select(.name == "check") | .commands[0].options[] |
		select(.long == "dev") | .aliases == ["ib-dev"] and .short == "d"'
	run --separate-stderr -64 rocectl bench nvmf --traddr 192.0.2.1 --iodepth 0
	assert_equal "$stderr" "rocectl: bench nvmf: invalid value '0' for '--qd': expected 1 to 4095 (see 'rocectl bench nvmf --help')"
}

@test "no short letter means two things across commands" {
	"$ROCECTL" __metadata | jq -r '[.. | objects | select(has("options")) | .options[] |
		select(.short) | "\(.short) \(.long)"] | unique[]' >"$BATS_TEST_TMPDIR/letters"
	# The one exception of CONTRIBUTING.md: a plugin's -c in check and doctor, as every
	# Nagios plugin spells it, beside reach's ping-like --count. -w is --warning only.
	run -0 bash -c "grep -vx -e 'c critical' '$BATS_TEST_TMPDIR/letters' |
		awk '{ n[\$1]++ } END { for (l in n) if (n[l] > 1) print l }'"
	assert_output ""
	run -0 grep -c -e '^c ' "$BATS_TEST_TMPDIR/letters"
	assert_output 2
	run -0 grep -e '^w ' "$BATS_TEST_TMPDIR/letters"
	assert_output 'w warning'
	# and the conventions' letters
	grep -qx 'T tos' "$BATS_TEST_TMPDIR/letters"
	grep -qx 'd dev' "$BATS_TEST_TMPDIR/letters"
	run grep -E '^. timeout$' "$BATS_TEST_TMPDIR/letters"
	assert_failure
}
