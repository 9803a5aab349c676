#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# rocectl bench nvmf against the lab's real nvmet-rdma target on B:4420:
# discovery, reads at several depths and queue counts, writes with read-back
# verification, the documented errors, and the target vanishing mid-run.

bats_require_minimum_version 1.5.0

setup() {
	load nvmf
}

teardown() {
	nvmf_teardown
}

bench() {
	timeout 60 "$R" bench nvmf --target "$T" "$@"
}

@test "without --nqn the discovery log lists the lab subsystem, which is benchmarked" {
	run --separate-stderr bench -j --ios 50
	assert_success
	echo "$output" | jq -e --arg n "$LAB_NQN" '
		any(.discovery[]; .subnqn == $n and .subtype == "nvm" and .trtype == "rdma" and
		    .traddr == "10.0.0.2" and .trsvcid == "4420") and .subnqn == $n'
	assert_results "$output"
}

@test "a discovery log of more than 63 records is read whole, in pages" {
	local i s
	# 80 more subsystems on port 1: nvmet lists one record per subsystem of the
	# port (nvmet_execute_disc_get_log_page()); one 64 KiB read holds 63
	for i in $(seq 1 80); do
		s=$LAB_NVMET/subsystems/nqn.2014-08.org.rocectl:disc$i
		mkdir "$s"
		echo 1 >"$s/attr_allow_any_host"
		ln -s "$s" "$LAB_NVMET/ports/1/subsystems/"
	done
	run --separate-stderr bench -j --ios 10
	for i in $(seq 1 80); do
		rm "$LAB_NVMET/ports/1/subsystems/nqn.2014-08.org.rocectl:disc$i"
		rmdir "$LAB_NVMET/subsystems/nqn.2014-08.org.rocectl:disc$i"
	done
	[ "$status" -eq 3 ]
	[[ $stderr == *"lists 81 subsystems; choose one with --nqn"* ]]
	echo "$output" | jq -e --arg n "$LAB_NQN" '[.discovery[] | select(.subtype == "nvm")] |
		length == 81 and any(.[]; .subnqn == $n) and any(.[]; .subnqn == "nqn.2014-08.org.rocectl:disc80")'
}

@test "one thread per queue: --cpus pins them, per-queue results add up, the clock is named" {
	run --separate-stderr bench -j --nqn "$LAB_NQN" --qd 4 --queues 2 --cpus 0 --time 1
	assert_success
	assert_results "$output"
	echo "$output" | jq -e '.mode == "adaptive" and (.clock_source | test("^(tsc|clock_gettime)")) and
		(.results.per_queue | length == 2) and all(.results.per_queue[]; .cpu == 0 and .cpu_s > 0 and .ios > 0) and
		([.results.per_queue[].ios] | add) == .results.ios'
	run --separate-stderr bench --nqn "$LAB_NQN" --qd 2 --time 1 --event
	assert_success
	assert_line --partial "event mode: sleeps on completion events, for shared machines"
}

@test "the completion wait is named: adaptive by default with what it did, --poll and --event" {
	run --separate-stderr bench -j --nqn "$LAB_NQN" --qd 8 --time 1
	assert_success
	assert_results "$output"
	# every idle moment it decided was slept (timed or on the channel) or polled; its estimates are positive
	echo "$output" | jq -e '.mode == "adaptive" and (.results.adaptive | .idles > 0 and
		.slept + .polls == .idles and .event_idles <= .slept and .events >= .event_idles and
		.sleeps + .event_idles >= .slept and .sleep_share >= 0 and .sleep_share <= 1 and
		.interval_ns > 0 and .sleep_cost_ns >= 0 and .slept_s >= 0)'
	# one command in flight is never waited for on the channel: its wake-up would be its latency
	run --separate-stderr bench -j --nqn "$LAB_NQN" --qd 1 --time 1
	assert_success
	echo "$output" | jq -e '.results.adaptive | .events == 0 and .event_idles == 0'
	run --separate-stderr bench --nqn "$LAB_NQN" --qd 8 --time 1
	assert_success
	assert_line --regexp '^randread  bs 4096  qd 8  queues 1  adaptive  clock '
	assert_line --regexp '^adaptive: [0-9]+ idle waits, [0-9]+ slept in \([0-9.]+%, the rest polled; [0-9]+ on the completion channel\), [0-9]+ timed sleeps, [0-9]+ channel waits  asleep [0-9.]+ s  interval [0-9.]+ us  sleep cost [0-9.]+ us$'
	run --separate-stderr bench -j --nqn "$LAB_NQN" --qd 8 --time 1 --poll
	assert_success
	echo "$output" | jq -e '.mode == "busy-poll" and (.results | has("adaptive") | not) and .results.ios > 0'
	run --separate-stderr bench -j --nqn "$LAB_NQN" --qd 8 --time 1 --event
	assert_success
	echo "$output" | jq -e '.mode == "event" and (.results | has("adaptive") | not) and .results.ios > 0'
}

@test "randread at QD1, QD16 and over 3 queues reports IOPS and ordered percentiles" {
	run --separate-stderr bench -j --nqn "$LAB_NQN" --qd 1 --time 1
	assert_success
	assert_results "$output"
	run --separate-stderr bench -j --nqn "$LAB_NQN" --qd 16 --time 1
	assert_success
	assert_results "$output"
	echo "$output" | jq -e '.qd == 16 and .mqes == 127 and .inline_write_max_bytes == 4096'
	run --separate-stderr bench -j --nqn "$LAB_NQN" --qd 4 --queues 3 --time 1 --event
	assert_success
	assert_results "$output"
	echo "$output" | jq -e '.queues == 3 and (.results.per_queue | length == 3) and
		all(.results.per_queue[]; .ios > 0) and
		([.results.per_queue[].ios] | add) == .results.ios'
}

@test "text output has IOPS, latency and the spdk percentiles; --histogram adds bars" {
	run --separate-stderr bench --nqn "$LAB_NQN" --ios 200 --histogram
	assert_success
	assert_line --regexp '^ios 200 in [0-9.]+ s  IOPS [0-9.]+  MiB/s [0-9.]+'
	assert_line --regexp '^ +99\.99000% : +[0-9.]+ us$'
	assert_line "histogram (us):"
	assert_line --regexp '^ +[0-9.]+ - +[0-9.]+ +[0-9.]+%  #+ +[0-9]+$'
}

@test "-o fio: fio's json+ document, which fio's own fio_jsonplus_clat2csv reads" {
	run --separate-stderr bench --nqn "$LAB_NQN" --ios 300 --qd 4 -o fio
	assert_success
	echo "$output" >"$BATS_TEST_TMPDIR/run.json"
	jq -e '.jobs[0] as $j | $j.read.total_ios == 300 and $j.read.iops > 0 and
		$j.read.clat_ns.N == 300 and $j.read.lat_ns.percentile["50.000000"] > 0 and
		$j.read.lat_ns.percentile["50.000000"] <= $j.read.lat_ns.percentile["99.000000"] and
		([$j.read.clat_ns.bins[]] | add) == 300 and $j.write.total_ios == 0 and
		$j["job options"].iodepth == "4" and $j.usr_cpu + $j.sys_cpu > 0' "$BATS_TEST_TMPDIR/run.json"
	run timeout 60 fio_jsonplus_clat2csv "$BATS_TEST_TMPDIR/run.json" "$BATS_TEST_TMPDIR/out"
	assert_success
	# a row per latency bin: the last one has every read I/O, cumulative fraction 1.0
	run awk -F', ' 'END { print $6, $7 }' "$BATS_TEST_TMPDIR/out_job0"
	assert_output "300 1.0"
}

@test "randwrite without --write-ok is refused before any traffic" {
	run --separate-stderr bench --nqn "$LAB_NQN" --rw randwrite
	assert_failure 64
	[[ $stderr == *"destroys its data"* ]]
}

@test "--write-ok --verify writes a pattern and reads it back from a file-backed namespace" {
	file_ns
	run --separate-stderr bench -j --nqn "$LAB_NQN" --nsid 2 --rw randwrite --write-ok --verify --qd 8 --ios 300
	assert_success
	echo "$output" | jq -e '.results.verified == 300 and .results.writes == 300 and
		.results.reads == 300 and .results.partial == false'
	# the pattern really is on the namespace: not all zero any more
	[ "$(tr -d '\0' </run/nvmf-verify.img | head -c 4096 | wc -c)" -gt 0 ]
}

@test "the target's keys reach one slot one way: two per slot, none on the buffers" {
	local i mrs=$BATS_TEST_TMPDIR/mrs.json
	# 8 KiB writes exceed the lab's in-capsule 4 KiB (nvmet-rdma's inline_data_size
	# default, one page), so writes move by keyed SGL (the target's RDMA READ) too
	bench -j --nqn "$LAB_NQN" --rw randrw --write-ok --bs 8192 --qd 4 --queues 1 --time 3 \
		>"$BATS_TEST_TMPDIR/out.json" &
	for i in $(seq 1 40); do
		# a dump racing a deregistration may fail: the next poll retries, and
		# the assertions below read the last dump whatever the loop saw
		rdma -j res show mr >"$mrs" 2>/dev/null || :
		jq -e 'any(.[]; .comm == "rocectl" and .mrlen == 32768)' "$mrs" >/dev/null && break
		sleep 0.25
	done
	wait $!
	# rxe gives an MR an rkey only with a remote right (rxe_mr_init(),
	# drivers/infiniband/sw/rxe/rxe_mr.c): the keyed ones are exactly 2 per
	# slot of the slot's size (I/O: 4 x 8 KiB, admin: 2 x 64 KiB), distinct;
	# the buffers (4 x 8 KiB, 2 x 64 KiB) have none
	jq -e '[.[] | select(.comm == "rocectl")] as $m |
		($m | map(select(.rkey != "0"))) as $k |
		($k | map(.mrlen) | sort) == ([range(8)] | map(8192)) + ([range(4)] | map(65536)) and
		($k | map(.rkey) | unique | length) == 12 and
		($m | map(select(.mrlen == 32768 or .mrlen == 131072)) | length) == 2 and
		all($m[] | select(.mrlen == 32768 or .mrlen == 131072); .rkey == "0")' "$mrs"
	jq -e '.rdma_keys == "slot" and .rdma_max_mr > 0 and .results.reads > 0 and
		.results.writes > 0 and .results.partial == false' "$BATS_TEST_TMPDIR/out.json"
}

@test "a wrong NQN, a wrong port, nsid 7 and qd 1024 give the documented errors" {
	assert_wrong_nqn bench
	run --separate-stderr bench --nqn "$LAB_NQN" --port 4421 --time 1
	assert_failure 3
	assert_equal "$stderr" "rocectl: admin queue: connect to '10.0.0.2:4421' rejected (cm status 8: nothing listening on that port)"
	run --separate-stderr bench --nqn "$LAB_NQN" --nsid 7 --time 1
	assert_failure 3
	assert_equal "$stderr" "rocectl: namespace 7 not found in '$LAB_NQN' (active: 1)"
	run --separate-stderr bench --nqn "$LAB_NQN" --qd 1024 --strict --time 1
	assert_failure 3
	assert_equal "$stderr" "rocectl: --qd 1024 exceeds the target's limit of 127 (refused with --strict)"
	run --separate-stderr bench -j --nqn "$LAB_NQN" --qd 1024 --ios 100
	assert_success
	assert_equal "$stderr" "rocectl: warning: --qd 1024 exceeds the target's limit of 127: clamped to 127"
	echo "$output" | jq -e '.qd == 127 and .results.ios == 100'
}

@test "the nvmet port removed mid-run: the run ends within the timeout with partial results" {
	assert_mid_run rdma knob_nvmet_port_remove
}

@test "5% loss on the initiator's link: the connects retry and the run completes or ends classified with partial results" {
	local rc=0
	RESET=1
	knob_netem "$LAB_A_IF" loss 5%
	timeout 120 "$R" -j bench nvmf --target "$T" --nqn "$LAB_NQN" --qd 8 --queues 2 --time 2 \
		--timeout 10 >"$BATS_TEST_TMPDIR/out.json" 2>"$BATS_TEST_TMPDIR/err" || rc=$?
	cat "$BATS_TEST_TMPDIR/err"
	# the admin and both I/O queues connected despite the loss
	jq -e '.cntlid > 0 and .queues == 2 and .results.ios > 0' "$BATS_TEST_TMPDIR/out.json"
	if [ "$rc" -eq 0 ]; then
		jq -e '.results.partial == false and .error == null' "$BATS_TEST_TMPDIR/out.json"
	else
		[ "$rc" -eq 3 ]
		jq -e '.results.partial == true and (.error.message | test("no answer|failed"))' \
			"$BATS_TEST_TMPDIR/out.json"
	fi
}

@test "a clean run leaves no nvmet error in the target's kernel log" {
	local mark
	mark=$(dmesg | wc -l)
	run --separate-stderr bench --nqn "$LAB_NQN" --qd 8 --queues 2 --ios 500 --rw randrw --write-ok
	assert_success
	run bash -c "dmesg | tail -n +$((mark + 1)) | grep -E 'nvmet' | grep -iE 'error|fail|fatal|invalid|expired' || true"
	assert_output ""
	run bash -c "dmesg | tail -n +$((mark + 1)) | grep -c 'creating nvm controller'"
	assert_output "1"
}
