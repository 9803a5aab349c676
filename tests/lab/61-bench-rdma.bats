#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# rocectl bench rdma between rxe0 (A) and rxe1 (B): the polling mode and the
# clock are reported; --event says it is for shared machines; with CPU-bound
# processes beside it (knob_cpu_hog) the busy poller still completes.

bats_require_minimum_version 1.5.0

ROCECTL=${ROCECTL:-$BATS_TEST_DIRNAME/../../build/rocectl}

setup() {
	load lab
	timeout 120 "$ROCECTL" serve --bind "$LAB_B_IP" --lifetime 60 >/dev/null 2>&1 3>&- &
	SERVE_PID=$!
	lab_wait 10 lab_cm_listening "$LAB_B_IP" 18520 || fail "serve is not listening"
}

teardown() {
	lab_stop "$SERVE_PID"
	knob_cpu_hog_stop
}

# The clock source the CPU flags and the kernel's clocksource call for.
expected_clock() {
	if grep -m1 '^flags' /proc/cpuinfo | grep -qw constant_tsc &&
		grep -m1 '^flags' /proc/cpuinfo | grep -qw nonstop_tsc; then
		echo tsc
	else
		echo "clock_gettime (clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource))"
	fi
}

@test "bench rdma busy-polls by default and names its clock; --event says what it is for" {
	run timeout 60 "$ROCECTL" -j bench rdma "$LAB_B_IP" --src "$LAB_A_IP" --iters 200
	assert_success
	jq -e --arg c "$(expected_clock)" '.polling == "busy-poll" and .clock_source == $c and
		.iters == 200 and .latency_ns.min > 0' <<<"$output"
	run timeout 60 "$ROCECTL" bench rdma "$LAB_B_IP" --src "$LAB_A_IP" --iters 200 --event
	assert_success
	assert_line --partial "event mode: sleeps on completion events, for shared machines"
	assert_line --regexp "^  event, clock (tsc|clock_gettime)"
	run timeout 60 "$ROCECTL" -j bench rdma "$LAB_B_IP" --src "$LAB_A_IP" --op write --iters 200 --event
	assert_success
	jq -e '.polling == "event" and .iters == 200' <<<"$output"
}

@test "bench rdma --dev and -x send from the device's RoCE v2 address, as perftest's -d and -x" {
	local idx
	idx=$(lab_gid_index "$LAB_A_DEV" "$LAB_A_IP")
	run timeout 60 "$ROCECTL" -j bench rdma "$LAB_B_IP" --dev "$LAB_A_DEV" -x "$idx" --iters 100
	assert_success
	jq -e --arg d "$LAB_A_DEV" '.device == $d and .iters == 100' <<<"$output"
	run timeout 60 "$ROCECTL" -j bench rdma "$LAB_B_IP" --ib-dev "$LAB_A_DEV" --iters 100
	assert_success
	jq -e --arg d "$LAB_A_DEV" '.device == $d' <<<"$output"
	run --separate-stderr timeout 60 "$ROCECTL" bench rdma "$LAB_B_IP" --dev "$LAB_A_DEV" -x 99
	assert_equal "$status" 3
	assert_equal "$stderr" "rocectl: no GID index 99 on '$LAB_A_DEV' port 1"
	run --separate-stderr timeout 60 "$ROCECTL" bench rdma "$LAB_B_IP" --dev no_such_dev
	assert_equal "$status" 3
	assert_equal "$stderr" "rocectl: no RDMA device 'no_such_dev'"
}

@test "bench rdma --histogram draws bars; the JSON buckets hold every sample" {
	run timeout 60 "$ROCECTL" bench rdma "$LAB_B_IP" --src "$LAB_A_IP" --iters 300 --histogram
	assert_success
	assert_line "histogram (us):"
	assert_line --regexp '^ +[0-9.]+ - +[0-9.]+ +[0-9.]+%  #+ +[0-9]+$'
	run timeout 60 "$ROCECTL" -j bench rdma "$LAB_B_IP" --src "$LAB_A_IP" --iters 300 --histogram
	assert_success
	jq -e '([.histogram[].count] | add) == 300 and all(.histogram[]; .lo_ns <= .hi_ns)' <<<"$output"
}

@test "with a CPU-bound process per CPU beside it, send and write latency still complete" {
	knob_cpu_hog
	[ "$(wc -l <"$LAB_HOG_PIDS")" = "$(nproc)" ]
	run timeout 120 "$ROCECTL" -j bench rdma "$LAB_B_IP" --src "$LAB_A_IP" --iters 300
	assert_success
	jq -e '.iters == 300 and .polling == "busy-poll"' <<<"$output"
	run timeout 120 "$ROCECTL" -j bench rdma "$LAB_B_IP" --src "$LAB_A_IP" --op write --iters 300
	assert_success
	jq -e '.iters == 300' <<<"$output"
	knob_cpu_hog_stop
	[ ! -e "$LAB_HOG_PIDS" ]
	# the hogs are gone: no busy bash loop is left
	! pgrep -f 'while :; do :; done' >/dev/null
}
