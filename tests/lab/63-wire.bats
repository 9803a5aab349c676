#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# rocectl capture and check wire on real RoCE v2: rxe puts its packets on the
# veth with the connection's ToS in the IP header, so the captures see what
# reach, bench rdma and the kernel NVMe-oF initiator really send: ToS 0
# after a plain connect (fail), 106 after --tos 106 or the rdma_cm default
# set in configfs (pass), a DSCP rewritten on the path by nftables (caught),
# ToS 104 (Not-ECT: warned); a tcpdump file read back gives the same
# verdicts and tshark's counts; a capture that dropped packets claims no loss.

bats_require_minimum_version 1.5.0

ROCECTL=${ROCECTL:-$BATS_TEST_DIRNAME/../../build/rocectl}

setup() {
	load lab
	W=$BATS_TEST_TMPDIR
	KNOBS=
	NFT=
	timeout 150 "$ROCECTL" serve --bind "$LAB_B_IP" --lifetime 140 >/dev/null 2>&1 3>&- &
	SERVE_PID=$!
	lab_wait 10 lab_cm_listening "$LAB_B_IP" 18520 || fail "serve is not listening"
}

teardown() {
	lab_stop "$SERVE_PID"
	[ -z "$NFT" ] || nft delete table ip rocectl_wire
	if lab_nvme_dev >/dev/null 2>&1; then timeout 30 nvme disconnect -n "$LAB_NQN" >/dev/null; fi
	[ -z "$KNOBS" ] || knob_roce_cm_reset "$LAB_A_DEV"
}

# rocectl ARGS... in the background, its output in $W/out and status in $W/rc.
bg() {
	(
		rc=0
		timeout 90 "$ROCECTL" "$@" >"$W/out" 2>&1 || rc=$?
		echo "$rc" >"$W/rc"
	) 3>&- &
	BG=$!
	sleep 2.5
}

fg_wait() {
	wait "$BG" || :
	output=$(cat "$W/out")
	status=$(cat "$W/rc")
}

reach() {
	timeout 60 "$ROCECTL" reach "$LAB_B_IP" --dev "$LAB_A_DEV" -c 10 "$@" >/dev/null
}

nvme_io() {
	timeout 30 nvme connect -t rdma -a "$LAB_B_IP" -s "$LAB_PORT" -n "$LAB_NQN" "$@" >/dev/null
	lab_wait 20 lab_nvme_dev
	dd if="$(lab_nvme_dev)" of=/dev/null bs=4k count=50 iflag=direct 2>/dev/null
	timeout 30 nvme disconnect -n "$LAB_NQN" >/dev/null
}

@test "reach with the default ToS 0 fails the wire, with -T 106 it passes" {
	bg -j check wire --capture "$LAB_B_IF" --seconds 5
	reach
	fg_wait
	[ "$status" -eq 2 ]
	jq -e '([.findings[] | select(.id == "wire.cm_tos")][0] | .status == "fail" and
			.got == "traffic class 0 (DSCP 0)") and
		([.findings[] | select(.id == "wire.data_dscp" and .status == "fail")] | length) == 2' <<<"$output"
	bg -j check wire --capture "$LAB_B_IF" --seconds 5
	reach -T 106
	fg_wait
	[ "$status" -eq 0 ]
	jq -e '.summary.fail == 0 and .summary.warn == 0 and
		([.findings[] | select(.id == "wire.data_dscp" and .status == "pass")] | length) == 2' <<<"$output"
}

@test "kernel nvme connect: without --tos the REQ and the data fail, with --tos 106 they pass" {
	bg check wire --capture "$LAB_A_IF" --seconds 7
	nvme_io
	fg_wait
	[ "$status" -eq 2 ]
	grep -q "FAIL    wire.cm_tos  $LAB_A_IP > $LAB_B_IP REQ qp" <<<"$output"
	grep -q "fix: on $LAB_A_IP: nvme connect ... --tos 106" <<<"$output"
	bg -j check wire --capture "$LAB_A_IF" --seconds 7
	nvme_io --tos 106
	fg_wait
	[ "$status" -eq 0 ]
	jq -e '[.findings[] | select(.id == "wire.cm_tos")] | length >= 2 and all(.status == "pass")' <<<"$output"
}

@test "the rdma_cm default set in configfs, as tune apply does: the new connection passes" {
	KNOBS=1
	knob_roce_tos "$LAB_A_DEV" 106
	bg -j check wire --capture "$LAB_A_IF" --seconds 7
	nvme_io
	fg_wait
	[ "$status" -eq 0 ]
	jq -e '[.findings[] | select(.id == "wire.cm_tos")] | length >= 2 and all(.status == "pass")' <<<"$output"
}

@test "a DSCP rewritten on the path (nftables) is caught and placed on the path" {
	NFT=1
	nft add table ip rocectl_wire
	nft add chain ip rocectl_wire post '{ type filter hook postrouting priority -150; }'
	nft add rule ip rocectl_wire post udp dport 4791 ip dscp set cs1
	bg check wire --capture "$LAB_B_IF" --seconds 5
	reach -T 106
	fg_wait
	[ "$status" -eq 2 ]
	grep -q "packets are not DSCP 26 although the connection was set up with traffic class 106: the DSCP was rewritten on the path" <<<"$output"
	grep -q "expected DSCP 26, got DSCP 8 ECT(0)" <<<"$output"
}

@test "ToS 104 is Not-ECT: warned; a tcpdump file read back gives the same verdicts and tshark's counts" {
	timeout 30 tcpdump -i "$LAB_B_IF" -w "$W/t.pcap" udp port 4791 2>/dev/null &
	local td=$!
	bg -j check wire --capture "$LAB_B_IF" --seconds 5
	reach -T 104
	fg_wait
	kill -INT "$td"
	wait "$td" || :
	[ "$status" -eq 1 ]
	jq -e '([.findings[] | select(.id == "wire.data_ecn" and .status == "warn")] | length) == 2 and
		([.findings[] | select(.id == "wire.cm_tos")][0].status == "warn")' <<<"$output"
	local live file
	live=$(jq -c '[.findings[] | {id, status, target}]' <<<"$output")
	run -1 "$ROCECTL" -j check wire -r "$W/t.pcap"
	file=$(jq -c '[.findings[] | {id, status, target}]' <<<"$output")
	[ "$live" = "$file" ] || fail "live $live, file $file"
	# Packets per DSCP and ECN: tshark's dissector against rocectl's decoder.
	run "$ROCECTL" -j capture -r "$W/t.pcap"
	assert_success
	local ours theirs
	ours=$(jq -r '[.flows[].marks[] | {k: "\(.dscp) \(.ecn_codepoint)", p: .packets}] | group_by(.k) |
		map("\(.[0].k) \(map(.p) | add)") | .[]' <<<"$output" | sort)
	theirs=$(tshark -r "$W/t.pcap" -T fields -e ip.dsfield.dscp -e ip.dsfield.ecn 2>/dev/null |
		awk '{ n[$1 " " ($2 == 0 ? "not-ect" : $2 == 1 ? "ect1" : $2 == 2 ? "ect0" : "ce")]++ }
		     END { for (k in n) print k, n[k] }' | sort)
	[ -n "$ours" ] && [ "$ours" = "$theirs" ] || fail "rocectl '$ours', tshark '$theirs'"
}

@test "a capture that dropped packets does not claim loss" {
	bg capture "$LAB_B_IF" --seconds 12 --buffer-size 64
	local pid
	pid=$(pgrep -n -f "rocectl capture $LAB_B_IF")
	timeout 60 "$ROCECTL" bench rdma "$LAB_B_IP" --src "$LAB_A_IP" --iters 3000 >/dev/null &
	local bench=$!
	# The capture stopped while the traffic runs: its 64 KiB ring overflows.
	kill -STOP "$pid"
	sleep 4
	kill -CONT "$pid"
	wait "$bench"
	fg_wait
	[ "$status" -eq 0 ]
	[[ $output =~ capture\ drops\ [1-9][0-9]*\ \(interface ]] || fail "no drops: $output"
	grep -q "the capture dropped packets: counts are lower bounds; a PSN gap here is not loss" <<<"$output"
	# A PSN gap is a packet the capture missed: no flow says it went back.
	if grep -E '^10\.' <<<"$output" | awk 'NF == 9 && $7 != 0 { bad = 1 } END { exit !bad }'; then
		fail "a PSN regression claimed: $output"
	fi
}

@test "collect --capture puts the summary in the snapshot; check wire --input judges it again" {
	bg collect --capture "$LAB_B_IF" --seconds 5 -O "$W/snap.json"
	reach
	fg_wait
	[ "$status" -eq 0 ]
	jq -e '.schema_version == 4 and .host.wire.ok and .host.wire.source == "live" and
		(.host.wire.connections | length) >= 1' "$W/snap.json"
	run -2 "$ROCECTL" check wire --input "$W/snap.json"
	assert_output --partial "FAIL    wire.cm_tos  $LAB_A_IP > $LAB_B_IP REQ qp"
}
