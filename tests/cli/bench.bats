#!/usr/bin/env bats
# rocectl bench nvmf without RDMA: usage errors and refusals that come before
# any network traffic (live runs are in tests/lab/60-nvmf.bats and 62-nvmf-tcp.bats).
load helpers

@test "bench nvmf needs --target" {
	run --separate-stderr rocectl bench nvmf --time 1
	assert_failure 64
	assert_equal "$stderr" "rocectl: bench nvmf: --target is required (see 'rocectl bench nvmf --help')"
}

@test "write patterns are refused without --write-ok, saying the data is destroyed" {
	local rw
	for rw in write randwrite randrw; do
		run --separate-stderr rocectl bench nvmf --target 192.0.2.1 --rw "$rw"
		assert_failure 64
		assert_equal "$stderr" "rocectl: bench nvmf: --rw $rw writes to namespace 1 and destroys its data; add --write-ok if that is what you want"
	done
	run --separate-stderr rocectl bench nvmf --target 192.0.2.1 --verify --nsid 2
	assert_failure 64
	[[ $stderr == *"--verify writes to namespace 2 and destroys its data"* ]]
}

@test "the refusal is also in the JSON document" {
	run --separate-stderr rocectl -j bench nvmf --target 192.0.2.1 --rw write
	assert_failure 64
	echo "$output" | jq -e '.error.message | test("destroys its data")'
}

@test "--time and --ios exclude each other; bad values are usage errors" {
	run --separate-stderr rocectl bench nvmf --target 192.0.2.1 --time 1 --ios 10
	assert_failure 64
	assert_equal "$stderr" "rocectl: bench nvmf: --time and --ios exclude each other"
	run rocectl bench nvmf --target 192.0.2.1 --rw randfoo
	assert_failure 64
	run rocectl bench nvmf --target 192.0.2.1 --qd 0
	assert_failure 64
	run rocectl bench nvmf --target 192.0.2.1 --queues 65
	assert_failure 64
	run rocectl bench nvmf --target 192.0.2.1 --mix 101
	assert_failure 64
	run --separate-stderr rocectl bench nvmf --target 192.0.2.1 --bs 1000
	assert_failure 64
	assert_equal "$stderr" "rocectl: bench nvmf: --bs 1000 is not a multiple of 512"
}

@test "--transport takes rdma or tcp; --digest is TCP's; --compare-tcp runs both itself" {
	run rocectl bench nvmf --target 192.0.2.1 --transport fc
	assert_failure 64
	run --separate-stderr rocectl bench nvmf --target 192.0.2.1 --digest
	assert_failure 64
	assert_equal "$stderr" "rocectl: bench nvmf: --digest is for --transport tcp (NVMe/TCP digests)"
	run --separate-stderr rocectl bench nvmf --target 192.0.2.1 --compare-tcp --trtype tcp
	assert_failure 64
	assert_equal "$stderr" "rocectl: bench nvmf: --compare-tcp runs both transports and prints its own table; drop --transport and -o fio"
	run --separate-stderr rocectl bench nvmf --target 192.0.2.1 --compare-tcp -o fio
	assert_failure 64
}

@test "--poll and --event force one wait and exclude each other; the default adapts" {
	run --separate-stderr rocectl bench nvmf --target 192.0.2.1 --poll --event
	assert_failure 64
	assert_equal "$stderr" "rocectl: bench nvmf: --poll and --event exclude each other"
	run --separate-stderr rocectl -j bench nvmf --target 192.0.2.1 --event --poll
	assert_failure 64
	echo "$output" | jq -e '.error.message == "bench nvmf: --poll and --event exclude each other"'
	# each alone passes the usage checks: it fails later, at the address
	run --separate-stderr timeout 20 "$ROCECTL" bench nvmf --target 192.0.2.1 --nqn nqn.x:y --time 1 --poll
	assert_failure 3
	run --separate-stderr rocectl bench nvmf --help
	assert_success
	[[ $output == *"--poll"*"default: adaptive"* ]]
}

@test "--cpus: a bad CPU list is a usage error naming the bad part, before any connect" {
	run --separate-stderr rocectl bench nvmf --target 192.0.2.1 --cpus 0-x
	assert_failure 64
	assert_equal "$stderr" "rocectl: bench nvmf: --cpus: bad CPU range in '0-x' at 'x'"
	run --separate-stderr rocectl bench nvmf --target 192.0.2.1 --cpus 1,1
	assert_failure 64
	assert_equal "$stderr" "rocectl: bench nvmf: --cpus: CPU 1 twice in '1,1'"
	run --separate-stderr rocectl -j bench nvmf --target 192.0.2.1 --cpus ''
	assert_failure 64
	echo "$output" | jq -e '.error.message == "bench nvmf: --cpus: bad CPU list '"''"' at '"''"'" and .error.errno == null'
}

@test "--ios 0 names the minimum only; --timeout takes 0 < SECS <= 3600" {
	run --separate-stderr rocectl bench nvmf --target 192.0.2.1 --ios 0
	assert_failure 64
	assert_equal "$stderr" "rocectl: bench nvmf: invalid value '0' for '--ios': expected at least 1 (see 'rocectl bench nvmf --help')"
	run --separate-stderr rocectl bench nvmf --target 192.0.2.1 --timeout 0
	assert_failure 64
	assert_equal "$stderr" "rocectl: bench nvmf: invalid value '0' for '--timeout': must be greater than 0 (see 'rocectl bench nvmf --help')"
	run --separate-stderr rocectl bench nvmf --target 192.0.2.1 --timeout 3601
	assert_failure 64
}

@test "bench without a verb prints its help to stderr and exits 64" {
	run --separate-stderr rocectl bench
	assert_failure 64
	[[ $stderr == *"nvmf"* ]]
}

@test "an address that does not resolve over RDMA exits 3 naming the step" {
	# No RDMA device here (or an unroutable TEST-NET address): it fails at address resolution.
	run --separate-stderr timeout 20 "$ROCECTL" bench nvmf --target 192.0.2.1 --nqn nqn.x:y --time 1
	assert_failure 3
	[[ $stderr == "rocectl: "*"'192.0.2.1'"* ]]
}

@test "bench rdma without a target names what is missing" {
	run --separate-stderr -64 rocectl bench rdma
	assert_equal "$stderr" "rocectl: bench rdma: missing TARGET (see 'rocectl bench rdma --help')"
	run --separate-stderr -64 rocectl bench rdma -j
	echo "$output" | jq -e '.error.message | test("missing TARGET")'
}

@test "perftest's -T is the ToS in bench rdma; the timeout is --timeout only" {
	run --separate-stderr -64 rocectl bench rdma 192.0.2.1 -T 300
	assert_equal "$stderr" "rocectl: bench rdma: invalid value '300' for '--tos': expected 0 to 255 (see 'rocectl bench rdma --help')"
	run --separate-stderr -64 rocectl bench nvmf -a 192.0.2.1 -T 256
	[[ $stderr == *"for '--tos'"* ]]
	run --separate-stderr -64 rocectl bench rdma 192.0.2.1 -t 5
	assert_equal "$stderr" "rocectl: bench rdma: unknown option '-t' (see 'rocectl bench rdma --help')"
}

@test "bench nvmf -o fio: one output format at a time, fio's or ours" {
	run --separate-stderr "$ROCECTL" bench nvmf -a 10.0.0.2 -o fio -j
	assert_failure 64
	assert_equal "$stderr" "rocectl: bench nvmf: -o fio and --json are two output formats; choose one"
	run --separate-stderr "$ROCECTL" bench nvmf -a 10.0.0.2 -o csv
	assert_failure 64
	[[ $stderr == *"invalid value 'csv' for '--output': expected one of text, json, fio"* ]]
}
