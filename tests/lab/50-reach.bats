#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# rocectl serve / reach / bench rdma over real RC QPs between rxe0 (A) and
# rxe1 (B): a passing probe shows the real path, each broken thing (UDP 4791
# dropped, no serve, MTU mismatch, loss, old protocol) lands in its class.

ROCECTL=${ROCECTL:-$BATS_TEST_DIRNAME/../../build/rocectl}
SERVE_LOG=$BATS_FILE_TMPDIR/serve.log

setup() {
	load lab
	SERVE_PID=
	KNOBS=
}

# lab_reset is slow under TCG: only after a test that turned a knob.
teardown() {
	serve_stop
	[ -z "$KNOBS" ] || lab_reset
}

serve_start() {
	timeout 120 "$ROCECTL" serve --bind "$LAB_B_IP" --lifetime 60 "$@" >"$SERVE_LOG" 2>&1 &
	SERVE_PID=$!
	lab_wait 10 lab_cm_listening "$LAB_B_IP" 18520 || fail "serve is not listening"
}

serve_stop() {
	[ -n "$SERVE_PID" ] || return 0
	lab_stop "$SERVE_PID"
	SERVE_PID=
}

reach() {
	timeout 120 "$ROCECTL" reach "$LAB_B_IP" --dev "$LAB_A_DEV" "$@"
}

@test "reach A->B passes and shows the GID index, MTU and counters of the real path" {
	local gid mtu
	gid=$(lab_gid_index "$LAB_A_DEV" "$LAB_A_IP")
	mtu=$(lab_active_mtu "$LAB_A_DEV")
	serve_start
	run reach -c 20 -j
	assert_success
	jq -e --argjson gid "$gid" --argjson mtu "$mtu" '
		.verdict == "ok" and .finding == null and
		.path.device == "rxe0" and .path.gid_index == $gid and
		.path.roce_mode == "RoCE v2" and .path.netdev == "veth0" and
		.path.src_ip == "10.0.0.1" and .path.active_mtu == $mtu and
		.path.path_mtu == $mtu and
		.send.count == 20 and .write.count == 20 and
		.send.rtt_min_us > 0 and .send.rtt_p99_us >= .send.rtt_p50_us and
		([.counters[] | select(.name == "sent_pkts") | .delta][0] >= 80)' <<<"$output"
	run reach -c 2 --tos 104
	assert_success
	assert_output --regexp 'gid_index [0-9]+ ::ffff:10\.0\.0\.1 \(RoCE v2\)'
	assert_output --partial 'tos 104 (traffic_class 104)'
}

@test "UDP 4791 dropped: connect_timeout within the timeout, control probe says IP reachable" {
	local start dropped
	serve_start
	KNOBS=1
	knob_drop_roce "$LAB_B_IF"
	start=$SECONDS
	run reach -T 3 -j
	assert_equal "$status" 2
	[ $((SECONDS - start)) -lt 20 ] || fail "reach took $((SECONDS - start))s"
	jq -e '.finding == "reach.connect_timeout" and .verdict == "fail" and
		.control_probe.ip_reachable == true and
		.control_probe.result == "serve answered" and
		(.hint | test("netfilter rules affect only Soft-RoCE"))' <<<"$output"
	dropped=$(nft list table inet "$LAB_NFT_TABLE" | sed -n 's/.*counter packets \([0-9]*\).*/\1/p')
	[ "${dropped:-0}" -gt 0 ] || fail "the drop rule matched no packet"
}

@test "serve not running: rejected, REJ reason 8, IP still reachable" {
	run reach -T 3
	assert_equal "$status" 2
	assert_line --index 0 'reach 10.0.0.2 port 18520: fail reach.rejected'
	assert_output --partial 'REJ reason 8'
	assert_output --partial 'control probe tcp/18520: refused -> IP reachable'
}

@test "MTU 9000 on A, 1500 on B: the sweep reports the limit" {
	serve_start
	KNOBS=1
	knob_mtu "$LAB_A_IF" 9000
	knob_mtu "$LAB_B_IF" 1500
	run reach -c 2 --mtu-sweep -T 2 -j
	assert_equal "$status" 2
	# A sends 4096-byte packets, B's veth drops any frame over 1500 bytes.
	jq -e '.finding == "reach.mtu_black_hole" and .path.path_mtu == 4096 and
		.mtu_sweep.largest_ok_bytes >= 1024 and .mtu_sweep.largest_ok_bytes < 1500 and
		.mtu_sweep.smallest_failed_bytes == .mtu_sweep.largest_ok_bytes + 1' <<<"$output"
}

@test "MTU 1500 on both: the sweep passes up to its maximum" {
	serve_start
	run reach -c 2 --mtu-sweep --size 8192 -j
	assert_success
	jq -e '.mtu_sweep.largest_ok_bytes == 8192 and .mtu_sweep.smallest_failed_bytes == null' <<<"$output"
}

@test "5% loss on A: reach completes and shows retransmission counters rising" {
	serve_start
	KNOBS=1
	knob_netem "$LAB_A_IF" loss 5%
	run reach -c 100 -T 10 -j
	assert_success
	jq -e '[.counters[] | select(.loss and .delta > 0)] | length > 0' <<<"$output"
}

@test "bench rdma: send, write and read give latency and bandwidth" {
	local op
	serve_start
	for op in send write read; do
		run timeout 120 "$ROCECTL" bench rdma "$LAB_B_IP" --src "$LAB_A_IP" --op "$op" --iters 200 -j
		assert_success
		jq -e --arg op "$op" '.op == $op and .mode == "lat" and .iters == 200 and
			.latency_ns.min > 0 and .latency_ns.percentiles["50"] >= .latency_ns.min and
			.latency_ns.percentiles["99.9"] <= .latency_ns.max and
			(.latency_ns.min | type) == "number" and .latency_ns.stddev >= 0 and
			.half_round_trip == ($op != "read")' <<<"$output"
		run timeout 120 "$ROCECTL" bench rdma "$LAB_B_IP" --src "$LAB_A_IP" --op "$op" --bw --iters 300 --size 16k -j
		assert_success
		jq -e '.mode == "bw" and .iters == 300 and .bytes_per_s > 0 and .messages_per_s > 0' <<<"$output"
	done
	# SEND latency is echoed, WRITE latency watched in memory (perftest's write_lat)
	grep -q 'connected .* echo 64 B' "$SERVE_LOG" || fail "no echo client: $(cat "$SERVE_LOG")"
	grep -q 'connected .* poll 64 B' "$SERVE_LOG" || fail "no poll client: $(cat "$SERVE_LOG")"
	# 200 answers each to the SEND and the WRITE latency clients
	[ "$(grep -c 'disconnected .* after 200 messages' "$SERVE_LOG")" = 2 ] ||
		fail "serve did not answer 200 SENDs and 200 WRITEs: $(cat "$SERVE_LOG")"
}

@test "two clients at once against one serve both succeed" {
	local p1 p2 r1=0 r2=0
	serve_start
	timeout 60 "$ROCECTL" bench rdma "$LAB_B_IP" --src "$LAB_A_IP" --time 3 >"$BATS_TEST_TMPDIR/1" &
	p1=$!
	timeout 60 "$ROCECTL" bench rdma "$LAB_B_IP" --src "$LAB_A_IP" --op write --bw --time 3 >"$BATS_TEST_TMPDIR/2" &
	p2=$!
	wait "$p1" || r1=$?
	wait "$p2" || r2=$?
	assert_equal "$r1 $r2" "0 0"
	grep -q 'latency_us' "$BATS_TEST_TMPDIR/1"
	grep -q 'MiB/s' "$BATS_TEST_TMPDIR/2"
	grep -q '\[2 connected\]' "$SERVE_LOG" || fail "the two clients never overlapped: $(cat "$SERVE_LOG")"
}

@test "a client of another protocol version is rejected with version_mismatch" {
	serve_start
	run env ROCECTL_PROBE_VERSION=9 timeout 60 "$ROCECTL" reach "$LAB_B_IP" --dev "$LAB_A_DEV" -T 3
	assert_equal "$status" 2
	assert_output --partial 'fail reach.version_mismatch'
	assert_output --partial 'serve at '\''10.0.0.2'\'' speaks v1'
	grep -q 'rejected 10.0.0.1:[0-9]* (handshake version mismatch)' "$SERVE_LOG"
}

@test "serve stops cleanly on SIGTERM with a client connected" {
	local bp rc=0
	serve_start
	timeout 60 "$ROCECTL" bench rdma "$LAB_B_IP" --src "$LAB_A_IP" --time 20 >/dev/null 2>&1 &
	bp=$!
	lab_wait 10 grep -q '^connected' "$SERVE_LOG"
	kill -TERM "$SERVE_PID"
	wait "$SERVE_PID" || rc=$?
	SERVE_PID=
	assert_equal "$rc" 0
	grep -q 'disconnected .*(serve stopping)' "$SERVE_LOG"
	lab_stop "$bp"
}
