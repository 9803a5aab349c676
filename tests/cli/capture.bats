#!/usr/bin/env bats
# rocectl capture and the wire area of check, on pcap files written by
# tests/cli/lib/roce_pcap.py from the layouts (no RDMA, no capture rights
# needed); live captures of real traffic, and the snapshot that carries a
# capture (collect needs RDMA netlink), are in tests/lab/63-wire.bats.
load helpers

pcap() { python3 "$ROOT/tests/cli/lib/roce_pcap.py" "$@"; }

setup() {
	P=$BATS_TEST_TMPDIR
	# An 'nvme connect' without --tos: REQ with traffic class 0, data at DSCP 0.
	pcap "$P/tos0.pcap" req:1:2:0x11:0 rep:2:1:0x22 data:1:2:0x22:0:50 data:2:1:0x11:0:20
	# The same with --tos 106: DSCP 26 with ECT(0) both ways, CNPs at DSCP 48.
	pcap "$P/tos106.pcap" req:1:2:0x11:106 rep:2:1:0x22 data:1:2:0x22:106:50 \
		data:2:1:0x11:106:20 cnp:2:1:0x11:0xc0:3
}

@test "capture -r: flows with their DSCP/ECN, CNPs and the connection's traffic class" {
	run rocectl capture -r "$P/tos106.pcap"
	assert_success
	assert_line --index 0 "capture of $P/tos106.pcap (EN10MB) 0.1 s: 75 frames, 75 RoCE v2, 0 malformed"
	assert_output --regexp '10\.0\.0\.1 +10\.0\.0\.2 +34 +50 +0 +0 +0 +26/ect0:50 +-'
	assert_output --regexp '10\.0\.0\.2 +10\.0\.0\.1 +17 +23 +3 +0 +0 +26/ect0:20 +48/not-ect:3'
	assert_output --regexp '10\.0\.0\.1 +10\.0\.0\.2 +17 +106 +26 +1 +rep +34'
	run rocectl -j capture -r "$P/tos106.pcap"
	assert_success
	jq -e '.capture.source == "file" and .capture.drops == null and .capture.roce_packets == 75 and
		(.flows | length) == 4 and
		([.flows[] | select(.dst_qp == 34)][0] | .requests == 50 and
			.marks == [{"dscp": 26, "ecn_codepoint": "ect0", "packets": 50}]) and
		([.flows[] | select(.dst_qp == 17)][0] | .cnps == 3 and .cnp_marks[0].dscp == 48) and
		.connections == [{"src": "10.0.0.1", "dst": "10.0.0.2", "qpn": 17, "traffic_class": 106,
			"dscp": 26, "local_gid": "10.0.0.1", "remote_gid": "10.0.0.2", "ip_tos": 0,
			"reqs": 1, "reply": "rep", "rej_reason": null, "rep_qpn": 34}]' <<<"$output"
}

@test "check wire: a connection set up with traffic class 0 fails, with both fixes; 106 passes" {
	run rocectl check wire -r "$P/tos0.pcap" -i "$FIXTURES/mlx5-upstream-healthy.json"
	assert_failure 2
	assert_line "wire       2 warnings, 3 errors"
	assert_line "  FAIL    wire.data_dscp  10.0.0.1 > 10.0.0.2 qp 34"
	assert_line "  FAIL    wire.cm_tos  10.0.0.1 > 10.0.0.2 REQ qp 17"
	assert_output --partial "expected traffic class 106 (DSCP 26), got traffic class 0 (DSCP 0)"
	assert_output --partial "fix: on 10.0.0.1: nvme connect ... --tos 106"
	assert_output --partial "echo 106 > /sys/kernel/config/rdma_cm/DEV/ports/1/default_roce_tos"
	assert_line "  WARN    wire.data_ecn  10.0.0.2 > 10.0.0.1 qp 17"
	run rocectl -j check wire -r "$P/tos106.pcap" -i "$FIXTURES/mlx5-upstream-healthy.json"
	assert_success
	jq -e '.summary.fail == 0 and .summary.warn == 0 and
		([.findings[] | select(.id == "wire.cnp_dscp")][0].status == "pass") and
		([.findings[] | select(.id == "wire.cm_tos")][0].status == "pass") and
		([.findings[].area] | unique) == ["wire"]' <<<"$output"
}

@test "check wire: CNPs at another DSCP fail; Not-ECT data warns; ECT passes" {
	pcap "$P/cnp.pcap" data:1:2:0x22:104:10 cnp:2:1:0x11:0:2 req:1:2:0x11:104
	run rocectl check wire -r "$P/cnp.pcap" -i "$FIXTURES/mlx5-upstream-healthy.json"
	assert_failure 2
	assert_line "  FAIL    wire.cnp_dscp  10.0.0.2 > 10.0.0.1 qp 17"
	assert_output --partial "2 of 2 CNPs are not DSCP 48"
	assert_line "  WARN    wire.data_ecn  10.0.0.1 > 10.0.0.2 qp 34"
	assert_output --partial "10 of 10 packets are Not-ECT"
	# ToS 104: the intended DSCP without ECT, a warning, not a wrong priority.
	assert_line "  WARN    wire.cm_tos  10.0.0.1 > 10.0.0.2 REQ qp 17"
	assert_output --partial "DSCP 26 as intended, but ECN Not-ECT, not ECT(0)"
}

@test "check wire: a PSN going back and sequence NAKs are retransmissions over the budget; none passes" {
	pcap "$P/retx.pcap" data:1:2:0x22:106:20 retx:1:2:0x22:106:5 nak:2:1:0x11:106:0x60 \
		nak:2:1:0x11:106:0x21
	run rocectl -j check wire -r "$P/retx.pcap" -i "$FIXTURES/mlx5-upstream-healthy.json"
	assert_failure 2
	jq -e '([.findings[] | select(.id == "wire.loss")][0] |
			.status == "fail" and (.got | startswith("1 retransmissions in 21 requests"))) and
		([.findings[] | select(.id == "wire.naks")][0] | .status == "warn" and
			(.got | startswith("RNR 1,")))' <<<"$output"
	run rocectl -j check wire -r "$P/tos106.pcap" -i "$FIXTURES/mlx5-upstream-healthy.json"
	jq -e '[.findings[] | select(.id == "wire.loss")][0] | .status == "pass" and
		.evidence == "PSN regressions 0, sequence-error NAKs 0; capture drops unknown"' <<<"$output"
}

@test "check wire without a capture: nothing to check, and how to give it one" {
	run rocectl check wire -i "$FIXTURES/mlx5-upstream-healthy.json"
	assert_success
	assert_line "wire       nothing to check: no capture (--capture IFACE, or -r FILE)"
	run rocectl -j doctor -i "$FIXTURES/mlx5-upstream-healthy.json"
	jq -e '[.areas[] | select(.area == "wire")][0] | .pass == 0 and .fail == 0' <<<"$output"
}

@test "a capture with no RoCE in it is unknown, not healthy" {
	python3 - "$P/empty.pcap" <<'PY'
import struct, sys
with open(sys.argv[1], "wb") as f:
    f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
PY
	run rocectl check wire -r "$P/empty.pcap" -i "$FIXTURES/mlx5-upstream-healthy.json"
	assert_failure 3
	assert_output --partial "UNKNOWN wire.capture"
	assert_output --partial "no RoCE v2 packet (UDP 4791) in the capture: nothing to judge"
}

@test "flows beyond the cap are counted, not kept: memory is bounded" {
	pcap "$P/many.pcap" flows:1:2:106:1100
	run rocectl -j capture -r "$P/many.pcap"
	assert_success
	jq -e '(.flows | length) == 1024 and .capture.flow_overflow == 76 and
		.capture.roce_packets == 1100' <<<"$output"
}

@test "usage errors: no source, two sources, --seconds without --capture; a bad file is one line, 3" {
	run rocectl capture
	assert_failure 64
	run rocectl capture lo -r "$P/tos0.pcap"
	assert_failure 64
	run --separate-stderr rocectl check wire --seconds 2 -r "$P/tos0.pcap" -i "$FIXTURES/mlx5-upstream-healthy.json"
	assert_failure 64
	assert_equal "$stderr" "rocectl: check wire: '--seconds' is the time of a live capture: it needs '--capture IFACE'"
	run --separate-stderr rocectl capture -r "$FIXTURES/mlx5-upstream-healthy.json"
	assert_failure 3
	[[ $stderr == "rocectl: cannot read capture '$FIXTURES/mlx5-upstream-healthy.json': "* ]]
	[ "$(wc -l <<<"$stderr")" -eq 1 ]
}

@test "a live capture without CAP_NET_RAW: one line, exit 3" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to drop the capability"
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$ROCECTL" capture lo --seconds 1
	assert_failure 3
	assert_equal "$stderr" "rocectl: cannot capture on 'lo': permission denied (a capture needs CAP_NET_RAW: run as root)"
}

# The capture knows a flow by its addresses and destination QP; the host's
# RDMA consumers (rocectl flows) know who holds that QP on the device with the
# destination address: the finding names the owner. The snapshot is the lab's
# real one (rping holds QP 25 on rxe1, 10.0.0.2) with a capture's flow added.
@test "check wire names a flow's owner from the host's RDMA consumers" {
	local snap="$BATS_TEST_DIRNAME/../fixtures/snapshots/rxe-lab-flows-v4.json"
	local flow='{"src": "10.0.0.1", "dst": "10.0.0.2", "dst_qp": 25, "packets": 2000,
		"requests": 2000, "marks": [{"dscp": 0, "ecn": 2, "packets": 2000}]}'
	jq ".host.wire = {\"ok\": true, \"errno\": 0, \"reason\": \"\", \"source\": \"file\",
		\"file\": \"x.pcap\", \"flows\": [$flow]}" "$snap" >"$BATS_TEST_TMPDIR/w.json"
	run -2 rocectl check wire -i "$BATS_TEST_TMPDIR/w.json"
	assert_line --partial "they miss the RoCE priority (and its PFC), owner rping"
	# a QP number no consumer holds there: no owner is guessed
	jq '.host.wire.flows[0].dst_qp = 4242' "$BATS_TEST_TMPDIR/w.json" >"$BATS_TEST_TMPDIR/n.json"
	run -2 rocectl check wire -i "$BATS_TEST_TMPDIR/n.json"
	assert_line --partial "they miss the RoCE priority (and its PFC)"
	refute_line --partial "owner"
}
