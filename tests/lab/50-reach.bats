#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# rocectl serve / reach / bench rdma over real RC QPs between rxe0 (A) and
# rxe1 (B): a passing probe shows the real path, each broken thing (UDP 4791
# dropped, no serve, an MTU black hole, loss, old protocol) lands in its class.

ROCECTL=${ROCECTL:-$BATS_TEST_DIRNAME/../../build/rocectl}
SERVE_LOG=$BATS_FILE_TMPDIR/serve.log

setup() {
	load lab
	SERVE_PID=
	KNOBS=
	CM_DROP=
}

# lab_reset is slow under TCG: only after a test that turned a knob.
teardown() {
	serve_stop
	[ -z "$CM_DROP" ] || nft delete table inet rocectl_h13_cm
	[ -z "$KNOBS" ] || lab_reset
}

reach() {
	timeout 120 "$ROCECTL" reach "$LAB_B_IP" --dev "$LAB_A_DEV" "$@"
}

@test "reach A->B passes and shows the GID index, MTU, clock and counters of the real path" {
	local gid mtu
	gid=$(lab_gid_index "$LAB_A_DEV" "$LAB_A_IP")
	mtu=$(lab_active_mtu "$LAB_A_DEV")
	serve_start
	run reach -c 20 -j
	assert_success
	jq -e --argjson gid "$gid" --argjson mtu "$mtu" '
		.verdict == "ok" and .finding == null and .loss_delta == 0 and
		.path.device == "rxe0" and .path.gid_index == $gid and
		.path.roce_mode == "RoCE v2" and .path.netdev == "veth0" and
		.path.src_ip == "10.0.0.1" and .path.active_mtu == $mtu and
		.path.path_mtu == $mtu and .path.netdev_mtu == 1500 and
		.peer == {"version": 2, "netdev": "veth1", "netdev_mtu": 1500, "active_mtu": $mtu} and
		.send.count == 20 and .write.count == 20 and
		(.clock_source | test("^(tsc|clock_gettime \\(clocksource [a-z_0-9-]+\\))$")) and
		.send.rtt_ns.min > 0 and .send.rtt_ns.stddev >= 0 and
		.send.rtt_ns.percentiles["99"] >= .send.rtt_ns.percentiles["50"] and
		.write.rtt_ns.max >= .write.rtt_ns.mean and
		([.counters[] | select(.name == "sent_pkts") | .delta][0] >= 80)' <<<"$output"
	run reach -c 2 -T 104
	assert_success
	assert_output --regexp 'gid_index [0-9]+ ::ffff:10\.0\.0\.1 \(RoCE v2\)'
	assert_output --partial 'tos 104 (traffic_class 104)'
	assert_output --regexp '  clock (tsc|clock_gettime \(clocksource [a-z_0-9-]+\))'
}

@test "UDP 4791 dropped: connect_timeout within the timeout, control probe says IP reachable" {
	local start dropped
	serve_start
	KNOBS=1
	knob_drop_roce "$LAB_B_IF"
	start=$SECONDS
	run reach --timeout 3 -j
	assert_equal "$status" 2
	# the connect waits for one resend of the REQ by the kernel CM (13 s)
	[ $((SECONDS - start)) -lt 30 ] || fail "reach took $((SECONDS - start))s"
	jq -e '.finding.id == "reach.connect_timeout" and .verdict == "fail" and
		.finding.status == "fail" and .finding.area == "reach" and
		.finding.target == "10.0.0.2" and .finding.device == "rxe0" and
		.control_probe.ip_reachable == true and
		.control_probe.result == "serve answered" and
		(.finding.fix | test("netfilter rules affect only Soft-RoCE"))' <<<"$output"
	dropped=$(nft list table inet "$LAB_NFT_TABLE" | sed -n 's/.*counter packets \([0-9]*\).*/\1/p')
	[ "${dropped:-0}" -gt 0 ] || fail "the drop rule matched no packet"
}

@test "serve not running: rejected, REJ reason 8, IP still reachable" {
	run reach --timeout 3
	assert_equal "$status" 2
	assert_line --index 0 'reach 10.0.0.2 port 18520: fail reach.rejected'
	assert_output --partial 'REJ reason 8'
	assert_output --partial 'control probe tcp/18520: refused -> IP reachable'
}

# Both hosts at MTU 9000 (active_mtu 4096) and a 1500-byte hop between them:
# the black hole a switch port makes. A host MTU below its peer's is the other
# kind (rctl_mtu_cause(), tests/unit/test_reach.c); the lab does not run it with
# traffic, since the kernel then refuses frames to rxe (knobs.sh, knob_hop_mtu).
@test "a 1500-byte hop between hosts at MTU 9000: the sweep starts small and names the path as the black hole" {
	local dev
	serve_start
	KNOBS=1
	knob_mtu "$LAB_A_IF" 9000
	knob_mtu "$LAB_B_IF" 9000
	knob_hop_mtu 1500
	# --size 16384: the round trips run at 64 bytes first, the sweep grows from there
	run reach -c 2 --mtu-sweep --size 16384 --timeout 2 -j
	assert_equal "$status" 2
	# A SEND's IPv4 packet is its payload and 44 bytes (IP, UDP, BTH, ICRC).
	jq -e '. as $r | .finding.id == "reach.mtu_black_hole" and .path.path_mtu == 4096 and
		.send.count == 2 and .send.size_bytes == 64 and
		.mtu_sweep.cause == "path" and .mtu_sweep.max_bytes == 16384 and
		.mtu_sweep.largest_ok_bytes == 1456 and .mtu_sweep.smallest_failed_bytes == 1457 and
		.path.netdev_mtu == 9000 and .path.active_mtu == 4096 and
		.peer.netdev_mtu == 9000 and .peer.active_mtu == 4096 and
		(.finding.message | test("messages up to 1456 bytes pass, 1457 bytes stall")) and
		(.finding.message | test("both hosts allow path_mtu 4096")) and
		(.finding.message | test("a link or switch between them has a smaller MTU"))' <<<"$output"
	# Lost on the way, none refused to rxe (knobs.sh).
	for dev in "$LAB_A_DEV" "$LAB_B_DEV"; do
		assert_equal "$dev send_err $(lab_hw_counter "$dev" send_err)" "$dev send_err 0"
	done
}

@test "MTU 1500 on both: the sweep passes up to its maximum" {
	serve_start
	run reach -c 2 --mtu-sweep --size 8192 -j
	assert_success
	jq -e '.mtu_sweep.largest_ok_bytes == 8192 and .mtu_sweep.smallest_failed_bytes == null' <<<"$output"
}

# Loss on A's egress loses SENDs and ACKs (retransmitted by the QP) but also
# CM packets: a lost REQ is resent by the kernel CM after 4.6 s or more, a lost
# RTU leaves serve unestablished while the client already sends. Both used to
# end the run with exit 2 (connect timed out at 5 s; no answer within 5 s).
@test "3% loss on A: reach --count 400 passes with the loss counters marked, twice" {
	local i
	serve_start
	KNOBS=1
	knob_netem "$LAB_A_IF" loss 3%
	for i in 1 2; do
		run reach -c 400 -j
		assert_success
		jq -e '.verdict == "ok" and .send.count == 400 and .write.count == 400 and
			.loss_delta > 0 and
			([.counters[] | select(.loss and .delta > 0)] | length > 0)' <<<"$output"
	done
}

# cm_drop N: drop the N-th CM packet (BTH destination QP 1) A sends to B:
# 1 is the REQ, 2 the RTU. A quota of 400 bytes lets one CM MAD (308 bytes
# of IP) match a rule once.
cm_drop() {
	local i rules=
	for ((i = 1; i < $1; i++)); do
		rules+="iifname \"$LAB_B_IF\" udp dport 4791 @th,104,24 1 quota until 400 bytes accept;"
	done
	rules+="iifname \"$LAB_B_IF\" udp dport 4791 @th,104,24 1 quota until 400 bytes counter drop;"
	nft -f - <<-EOF
	table inet rocectl_h13_cm {
		chain input { type filter hook input priority -10; policy accept; $rules }
	}
	EOF
	CM_DROP=1
}

cm_dropped() {
	nft list table inet rocectl_h13_cm | sed -n 's/.*counter packets \([0-9]*\).*/\1/p'
}

@test "a lost REQ is resent by the CM: connect passes after the resend, no connect_timeout" {
	serve_start
	cm_drop 1
	run reach -c 2 --timeout 3 -j
	assert_success
	assert_equal "$(cm_dropped)" 1
	# the kernel CM resends after 4.6 s or more: longer than --timeout 3
	jq -e '.verdict == "ok" and .steps_ns.connect > 3000000000' <<<"$output"
}

@test "a lost RTU: serve answers the client's first SEND before ESTABLISHED" {
	serve_start
	cm_drop 2
	run reach -c 2 --timeout 3 -j
	assert_success
	assert_equal "$(cm_dropped)" 1
	jq -e '.verdict == "ok" and .send.count == 2' <<<"$output"
}

# Without the probe, a client whose DREQ was lost held its slot until its
# lifetime (300 s): with --max-per-peer, every later run from that host was
# rejected.
@test "a lost DREQ: serve's idle probe frees the slot within seconds" {
	serve_start --max-per-peer 1
	cm_drop 3
	run reach -c 2 --timeout 3
	assert_success
	lab_wait 20 grep -q 'disconnected 10.0.0.1:[0-9]* after 4 messages .*(client gone: idle probe not acknowledged) \[0 connected\]' "$SERVE_LOG" ||
		fail "the slot was not freed: $(cat "$SERVE_LOG")"
	assert_equal "$(cm_dropped)" 1
	run reach -c 2 --timeout 3
	assert_success
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
	# a depth below the doorbell chain and a count no chain divides: every WR is counted once
	run timeout 120 "$ROCECTL" bench rdma "$LAB_B_IP" --src "$LAB_A_IP" --op write --bw --iters 101 --qd 7 -j
	assert_success
	jq -e '.iters == 101 and .bytes_per_s > 0' <<<"$output"
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
	assert_output --partial 'serve at '\''10.0.0.2'\'' speaks v2'
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

@test "many targets: B, an address without serve and a dead lab address, in one bounded run" {
	local f=$BATS_TEST_TMPDIR/hosts.txt start
	serve_start
	# 10.0.0.1 is A itself, where nothing listens; 10.0.0.77 is in the lab's
	# subnet but nobody has it (no ARP answer)
	printf '# the lab\n%s\n%s   # A: no serve\n10.0.0.77\n' "$LAB_B_IP" "$LAB_A_IP" >"$f"
	start=$SECONDS
	run timeout 120 "$ROCECTL" -j reach --targets "$f" --src "$LAB_A_IP" --timeout 3 --parallel 3 -c 5
	assert_equal "$status" 2
	[ $((SECONDS - start)) -lt 40 ] || fail "took $((SECONDS - start))s"
	jq -e '[.targets[].target] == ["10.0.0.2", "10.0.0.1", "10.0.0.77"] and
		.targets[0].verdict == "ok" and .targets[0].send.count == 5 and
		.targets[0].send.rtt_ns.percentiles["99"] > 0 and .targets[0].path.path_mtu == 1024 and
		.targets[1].finding.id == "reach.rejected" and
		.targets[2].finding.id == "reach.addr_unresolved"' <<<"$output"
	run timeout 120 "$ROCECTL" reach --targets "$f" --src "$LAB_A_IP" --timeout 3 -c 5
	assert_equal "$status" 2
	assert_line --index 0 --regexp '^TARGET +VERDICT +FINDING +PATH_MTU +RTT_P50_US +RTT_P99_US +LOSS$'
	assert_line --index 3 --regexp '^10\.0\.0\.2 +ok +- +1024 +[0-9.]+ +[0-9.]+ +0$'
	assert_output --regexp '10\.0\.0\.1 +fail +reach\.rejected'
	assert_output --regexp '10\.0\.0\.77 +fail +reach\.addr_unresolved'
	assert_output --partial "  10.0.0.77: address resolution of '10.0.0.77' timed out"
}

@test "--compare-tcp: TCP and RDMA round trips on the same path, with the ratio" {
	serve_start
	run reach -c 50 --compare-tcp -j
	assert_success
	jq -e '.compare_tcp.tcp.count == 50 and .compare_tcp.tcp.size_bytes == 64 and
		.compare_tcp.tcp.rtt_ns.percentiles["50"] > 0 and
		.compare_tcp.tcp_to_send_ratio > 0 and .compare_tcp.tcp_to_write_ratio > 0 and
		(.compare_tcp.tcp_to_send_ratio - .compare_tcp.tcp.rtt_ns.percentiles["50"] /
		 .send.rtt_ns.percentiles["50"] | fabs < 1e-9)' <<<"$output"
	run timeout 120 "$ROCECTL" bench rdma "$LAB_B_IP" --src "$LAB_A_IP" --iters 100 --compare-tcp -j
	assert_success
	jq -e '.compare_tcp.tcp.count == 100 and .compare_tcp.tcp_to_rdma_ratio > 0' <<<"$output"
}

# a_clients N: serve's log shows N connections from A
a_clients() {
	[ "$(grep -c '^connected 10.0.0.1' "$SERVE_LOG")" = "$1" ]
}

@test "serve: one peer cannot hold every slot, another address still connects" {
	local i p
	serve_start --max-clients 4 --max-per-peer 2
	for i in 1 2; do
		timeout 60 "$ROCECTL" bench rdma "$LAB_B_IP" --src "$LAB_A_IP" --time 15 >/dev/null 2>&1 &
		p+=" $!"
	done
	lab_wait 20 a_clients 2 || fail "two clients of A did not connect: $(cat "$SERVE_LOG")"
	run reach --timeout 3
	assert_equal "$status" 2
	assert_output --partial "rejected (serve is at its limit of connections from this address)"
	grep -q 'rejected 10.0.0.1:[0-9]* (per-peer limit reached) \[2 connected\]' "$SERVE_LOG"
	# B's own address is another peer: a slot is still free for it
	run timeout 60 "$ROCECTL" reach "$LAB_B_IP" --src "$LAB_B_IP" -c 2
	assert_success
	grep -q 'connected 10.0.0.2:[0-9]* on rxe1 echo 64 B \[3 connected\]' "$SERVE_LOG" ||
		fail "B's client was not the third: $(cat "$SERVE_LOG")"
	for i in $p; do lab_stop "$i"; done
}
