#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/rdma.sh - rocectl bench rdma against perftest, in one lab boot:
#	LAB_SMP=2 LAB_TIMEOUT=3000 tests/lab/lab run -- bench/rdma.sh
# For each case it alternates perftest and rocectl (ROUNDS times) at the same
# size and iteration count, between rxe0 (A) and rxe1 (B), and prints the
# ratios rocectl/perftest of the medians over the rounds (3 by default: an odd
# count, so one round disturbed by the host does not move the median). Goals: latency at
# most 1.05x perftest's, bandwidth at least 0.95x. Not a test: nothing is
# asserted, numbers under TCG move from run to run.
# Give the guest two vCPUs: with one, the two busy-polling sides of a
# ping-pong take turns on the CPU and both tools measure the scheduler
# (milliseconds), not RDMA. Both tools busy-poll and read the clock per
# iteration; the guest's clocksource is printed because on HPET a read costs
# microseconds (perftest reads the TSC).
# A second pass (HOG=0 skips it; IDLE=0 skips the first) runs the same cases with knob_cpu_hog: one
# CPU-bound process per vCPU beside both tools, as on a host whose CPUs do
# other work. The hogs start HOG_DELAY seconds after each client did, and stop
# when it ends: perftest calibrates its cycle counter against gettimeofday()
# when it starts and gives up under load (get_clock.c: a fit with r^2 < 0.9
# makes the frequency 0, and every figure "inf"), so the load must come after.
# Both tools get the same treatment, and more iterations (LAT_N_HOG, BW_N_HOG)
# so that most of each run has the hogs beside it. The figures of each pass
# come with the guest's load average.
# With two CPUs or more, A and B are laid out as two hosts: clients on CPU 1,
# servers on CPU 0, and each hog pinned to a CPU of its own. Left to the
# scheduler, the two busy pollers sometimes shared a CPU and took turns, which
# moved the median of a round by a tenth or more for either tool. rxe's
# receive work stays on the CPU that sent the packet: steering it to the
# receiver's CPU (knob_rx_cpu, as bench/nvmf.sh does for the target's work)
# costs an interprocessor interrupt per packet, 15 -> 42 us of latency under
# TCG for both tools, and a message here sets off no other work to place.
set -u
source "$(dirname "$0")/lab.bash"
ROUNDS=${ROUNDS:-3} LAT_N=${LAT_N:-1000} BW_N=${BW_N:-2000}
LAT_N_HOG=${LAT_N_HOG:-150000} BW_N_HOG=${BW_N_HOG:-4000} HOG_DELAY=${HOG_DELAY:-1}
HOGS=0	# the pass: 0, or the number of CPU-bound processes beside each client
GA=$(lab_gid_index rxe0 "$A") GB=$(lab_gid_index rxe1 "$B")
ON_A=() ON_B=()	# taskset prefixes of the two hosts' processes
if [ "$(nproc)" -ge 2 ]; then
	ON_A=(taskset -c 1) ON_B=(taskset -c 0)
fi

# hogs: one CPU-bound process per CPU, each pinned there when A and B are.
hogs() {
	local cpu
	if [ ${#ON_A[@]} -eq 0 ]; then
		knob_cpu_hog "$HOGS"
		return
	fi
	for ((cpu = 0; cpu < HOGS; cpu++)); do
		knob_cpu_hog 1 "$cpu"
	done
}

# client NAME CMD...: runs a benchmark client on A and prints its output; in
# the hog pass, the hogs run beside it from HOG_DELAY seconds after its start to
# its end. A client that fails says why on stderr (its round then has no figure).
client() {
	local name=$1 out err pid rc=0
	shift
	out=$(mktemp) err=$(mktemp)
	$T "${ON_A[@]}" "$@" >"$out" 2>"$err" &
	pid=$!
	if [ "$HOGS" -gt 0 ]; then
		sleep "$HOG_DELAY"
		hogs
	fi
	wait "$pid" || rc=$?
	knob_cpu_hog_stop
	[ "$rc" -eq 0 ] || echo "  ($name exited $rc: $(tail -n 1 "$err"))" >&2
	cat "$out"
	rm -f "$out" "$err"
}

# perftest [-R] TOOL ARGS...: server on B, client on A; prints its result
# line. -R connects through rdma_cm, otherwise by GID index.
perftest() {
	local cm=() sa=() ca=() tool spid
	if [ "$1" = -R ]; then
		cm=(-R)
		shift
	else
		sa=(-x "$GB") ca=(-x "$GA")
	fi
	tool=$1
	shift
	$T "${ON_B[@]}" "$tool" "${cm[@]}" -d rxe1 "${sa[@]}" "$@" >/dev/null 2>&1 &
	spid=$!
	sleep 2
	client "$tool" "$tool" "${cm[@]}" -d rxe0 "${ca[@]}" "$@" "$B" |
		awk '$1 ~ /^[0-9]+$/ && NF >= 5 { l = $0 } END { print l }'
	wait "$spid" 2>/dev/null
}

# Median of the numbers on stdin; a round that produced no number (a tool
# that failed to start under load) is left out, not counted as 0.
median() {
	grep -E '^[0-9]+([.][0-9]+)?$' | sort -g |
		awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; else print 0 }'
}

# case NAME KIND(lat|bw) "perftest cmd" "rocectl args"
run_case() {
	local name=$1 kind=$2 pcmd=$3 rargs=$4 i p r pv=() rv=()
	for ((i = 0; i < ROUNDS; i++)); do
		p=$($pcmd)
		r=$(client rocectl "$R" -j bench rdma "$B" --src "$A" $rargs)
		if [ "$kind" = lat ]; then
			# perftest: t_typical is column 5 (median); rocectl: the 50th percentile
			pv+=("$(awk '{ print $5 }' <<<"$p")")
			rv+=("$(jq -r '.latency_ns.percentiles["50"] / 1000' <<<"$r")")
		else
			# perftest: BW average[MB/sec] is column 4 (MB = 2^20 bytes)
			pv+=("$(awk '{ print $4 }' <<<"$p")")
			rv+=("$(jq -r '.bytes_per_s / 1048576' <<<"$r")")
		fi
	done
	p=$(printf '%s\n' "${pv[@]}" | median)
	r=$(printf '%s\n' "${rv[@]}" | median)
	awk -v n="$name" -v k="$kind" -v p="$p" -v r="$r" -v pa="${pv[*]}" -v ra="${rv[*]}" 'BEGIN {
		ratio = p > 0 ? r / p : 0
		goal = k == "lat" ? (ratio <= 1.05 ? "ok" : "above goal") : (ratio >= 0.95 ? "ok" : "below goal")
		if (p <= 0)
			goal = "no perftest figure (it printed none or inf)"
		else if (r <= 0)
			goal = "no rocectl figure"
		printf "%-28s %-3s perftest %10.2f  rocectl %10.2f  ratio %5.2f  %s\n", n, k, p, r, ratio, goal
		printf "%-28s     rounds perftest [%s] rocectl [%s]\n", "", pa, ra
	}'
}

timeout 3600 "${ON_B[@]}" "$R" serve --bind "$B" --lifetime 600 >/dev/null 2>&1 &
SPID=$!
lab_wait 10 lab_cm_listening "$B" 18520 || exit 1
echo "rocectl bench rdma vs perftest, rxe0 -> rxe1, $ROUNDS rounds each, median of rounds;" \
	"$(nproc) vCPU, clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)," \
	"rocectl clock $($T "$R" -j bench rdma "$B" --src "$A" --iters 10 | jq -r .clock_source)"
if [ ${#ON_A[@]} -gt 0 ]; then
	echo "two hosts: A's processes on CPU 1, B's on CPU 0, hogs one per CPU"
fi
echo "latency in us (perftest t_typical vs rocectl median; both half round trip for send/write), bw in MiB/s"
# cases LAT_ITERS BW_ITERS
cases() {
	local l=$1 b=$2
	run_case "send lat 64B" lat "perftest ib_send_lat -s 64 -n $l" "--op send --size 64 --iters $l"
	run_case "send lat 64B (-R)" lat "perftest -R ib_send_lat -s 64 -n $l" "--op send --size 64 --iters $l"
	run_case "write lat 64B" lat "perftest ib_write_lat -s 64 -n $l" "--op write --size 64 --iters $l"
	run_case "write lat 64B (-R)" lat "perftest -R ib_write_lat -s 64 -n $l" "--op write --size 64 --iters $l"
	run_case "write bw 64KiB qd128" bw "perftest ib_write_bw -s 65536 -n $b" \
		"--op write --bw --size 65536 --iters $b --qd 128"
	run_case "write bw 64KiB qd128 (-R)" bw "perftest -R ib_write_bw -s 65536 -n $b" \
		"--op write --bw --size 65536 --iters $b --qd 128"
}
if [ "${IDLE:-1}" = 1 ]; then
	echo "pass 1: idle guest (load $(cut -d' ' -f1-3 /proc/loadavg))"
	cases "$LAT_N" "$BW_N"
fi
if [ "${HOG:-1}" = 1 ]; then
	HOGS=$(nproc)
	echo "pass 2: $HOGS CPU-bound processes beside each client from ${HOG_DELAY}s after its start" \
		"(load $(cut -d' ' -f1-3 /proc/loadavg))"
	cases "$LAT_N_HOG" "$BW_N_HOG"
fi
lab_stop "$SPID" || true
