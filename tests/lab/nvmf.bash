# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Shared by the bench nvmf lab files (60-nvmf.bats over RDMA, 62-nvmf-tcp.bats
# over TCP) and the kernel initiator's (63-nvmf-host.bats): set-up and
# tear-down, a file-backed namespace 2 for writes that are read back, and the
# sanity of a result document.

load lab
R=$BATS_TEST_DIRNAME/../../build/rocectl
T=$LAB_B_IP

nvmf_teardown() {
	local ns=$LAB_NVMET/subsystems/$LAB_NQN/namespaces/2
	if [ -d "$ns" ]; then
		echo 0 >"$ns/enable"
		rmdir "$ns"
	fi
	rm -f /run/nvmf-verify.img
	# only the tests that change the baseline set RESET
	[ -z "${RESET:-}" ] || lab_reset
}

# A 64 MiB file-backed namespace 2 (tmpfs has no O_DIRECT: buffered).
file_ns() {
	local ns=$LAB_NVMET/subsystems/$LAB_NQN/namespaces/2
	truncate -s 64M /run/nvmf-verify.img
	mkdir "$ns"
	echo /run/nvmf-verify.img >"$ns/device_path"
	echo 1 >"$ns/buffered_io"
	echo 1 >"$ns/enable"
}

# Sane results: I/Os done, IOPS > 0, p50 <= p99 <= max, min <= p1.
assert_results() {
	echo "$1" | jq -e '.results as $r | $r.partial == false and $r.ios > 0 and $r.ios_per_s > 0 and
		$r.latency_ns.percentiles["50"] <= $r.latency_ns.percentiles["99"] and
		$r.latency_ns.percentiles["99"] <= $r.latency_ns.max and
		$r.latency_ns.min <= $r.latency_ns.percentiles["1"] and $r.latency_ns.min > 0 and
		($r.latency_ns.mean | floor) == $r.latency_ns.mean'
}

# assert_wrong_nqn RUNNER: a subsystem the target does not have is named with
# the target's NVM subsystems, over the transport RUNNER (bench or tcp) uses.
assert_wrong_nqn() {
	run --separate-stderr "$1" --nqn nqn.2014-08.org.rocectl:nope --time 1
	assert_failure 3
	assert_equal "$stderr" "rocectl: admin queue: connect to subsystem 'nqn.2014-08.org.rocectl:nope' on '10.0.0.2:4420' failed: connect invalid parameters (sct 0x1 sc 0x82 dnr; connect data byte 256: subnqn); the target's discovery log lists these NVM subsystems: '$LAB_NQN'"
}

# assert_mid_run TRANSPORT CMD...: a 40 s run over TRANSPORT, CMD 3 s into it:
# the run ends within 30 s with exit 3, its partial results kept.
assert_mid_run() {
	local tr=$1 start=$SECONDS rc=0 pid
	shift
	RESET=1
	timeout 60 "$R" -j bench nvmf --target "$T" --transport "$tr" --nqn "$LAB_NQN" --qd 4 \
		--time 40 >"$BATS_TEST_TMPDIR/out.json" 2>"$BATS_TEST_TMPDIR/err" &
	pid=$!
	sleep 3
	"$@"
	wait "$pid" || rc=$?
	cat "$BATS_TEST_TMPDIR/err"
	[ "$rc" -eq 3 ]
	[ $((SECONDS - start)) -lt 30 ]
	jq -e '.results.partial == true and .results.ios > 0 and .error.message != null' \
		"$BATS_TEST_TMPDIR/out.json"
}
