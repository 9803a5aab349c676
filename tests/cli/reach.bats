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

@test "reach and serve are in the metadata with the documented defaults" {
	run "$ROCECTL" __metadata
	assert_success
	jq -e '[.commands[] | select(.name == "reach") | .check][0] == true' <<<"$output"
	jq -e '[.commands[] | select(.name == "bench") | .commands[].name] | index("rdma") != null' <<<"$output"
	run "$ROCECTL" serve --help
	assert_output --partial 'rdma_cm and TCP control port (default 18520)'
}
