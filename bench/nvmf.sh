#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/nvmf.sh - rocectl bench nvmf against the kernel NVMe-oF initiator, in one lab boot:
#	LAB_SMP=2 tests/lab/lab run -- bench/nvmf.sh
# For each transport of TRANSPORTS (default "rdma tcp": nvmet-rdma and
# nvmet-tcp, the same subsystem), alternates (ROUNDS times) rocectl bench
# nvmf --transport T (its default adaptive wait, then --poll and --event) and
# nvme connect -t T + fio (libaio and io_uring, direct): 4k randread QD1 mean
# and p99 latency, QD32 IOPS, and CPU per I/O
# counted guest-wide: busy jiffies of /proc/stat (user, nice, system, irq,
# softirq, steal) over each run divided by its I/Os, since rxe and the target
# work in softirq outside any process's own accounting; and the interrupts per
# I/O by which RPS handed packets from one CPU to the other (two-hosts only).
#
# In two layouts (LAYOUTS, both by default), each with its medians and ratios:
#   two-hosts  each side's receive work on a CPU of its own, by RPS (knob_rx_cpu):
#              the target's side (B) on CPU 0, the initiator's (A) on CPU 1,
#              and rocectl and fio pinned to CPU 1, as on two machines; in one
#              guest, rxe otherwise runs the target's work on whichever CPU sent
#              the packet, the initiator's
#   shared     no steering, nothing pinned: initiator, target and rxe share both
#              CPUs; also rocectl with 2 queues of QD32 (one thread each)
# The ratios are against the goals: over RDMA those of issues 12 and 30 (QD32
# IOPS >= 1.2x fio's, guest-wide CPU per I/O <= 0.8x, QD1 mean latency <=
# 0.9x), over TCP those of issue 26 (1.0x, 1.0x, 1.0x). Each layout ends with
# the goal table of the default (adaptive) mode: the QD32 ratios against both
# engines in every round (rocectl's run over the engine's run of that round),
# their medians' ratio, the goal and whether it is met; the share of idle
# moments the adaptive wait slept through is the last column of its rows.
# BEFORE=PATH adds, over RDMA, the rows "rocectl-before" of an older rocectl
# binary (its default mode, busy-poll, without --transport, which it may not
# have), and the ratios of today's --poll rows to it: the same script in the
# same boot says whether a change made the RDMA path slower (issue 26: the
# split of the NVMe-oF host; build the older one in a worktree of its commit).
# BEFORE_ARGS adds options to those rows: "--poll" compares the busy pollers
# alone, as issue 38 item 14 did for the memory windows of NVMe/RDMA.
# Knobs: ROUNDS (3), SECS (3 per run), LAYOUTS, TRANSPORTS, BEFORE, BEFORE_ARGS, given
# inside the command line (the lab passes no environment to the guest):
#	LAB_SMP=2 LAB_TIMEOUT=3000 tests/lab/lab run -- env ROUNDS=3 TRANSPORTS=rdma bench/nvmf.sh
# At the end,
# rocectl's --compare-tcp table at QD1 and QD32 (shared layout). Not a test:
# nothing is asserted.
set -u
source "$(dirname "$0")/lab.bash"
ROUNDS=${ROUNDS:-3} SECS=${SECS:-3} LAYOUTS=${LAYOUTS:-two-hosts shared}
TRANSPORTS=${TRANSPORTS:-rdma tcp} BEFORE=${BEFORE:-} BEFORE_ARGS=${BEFORE_ARGS:-}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Busy jiffies of the whole guest (all CPUs); USER_HZ is 100 on Linux.
busy_jiffies() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }

# guest_cpu J0 IOS: guest-wide CPU seconds per I/O since J0.
guest_cpu() { awk -v a="$1" -v b="$(busy_jiffies)" -v n="$2" 'BEGIN { print (n > 0 ? (b - a) / 100 / n : 0) }'; }

# Interrupts by which RPS woke a CPU for packets queued to it, all CPUs
# (softnet_stat column 10, received_rps, counted in rps_trigger_softirq of
# net/core/dev.c); 0 without steering.
rps_ipis() {
	local f s=0
	while read -r -a f; do
		s=$((s + 16#${f[9]}))
	done </proc/net/softnet_stat
	echo "$s"
}

# ipis I0 IOS: RPS interrupts per I/O since I0.
ipis() { awk -v a="$1" -v b="$(rps_ipis)" -v n="$2" 'BEGIN { print (n > 0 ? (b - a) / n : 0) }'; }

# rocectl QD [ARGS]: prints "mean_us p99_us iops guest_cpu_s_per_io rps_ipis_per_io
# sleep_share" (the last "-" outside the adaptive mode); BIN=PATH runs another
# rocectl, without --transport (RDMA, its only transport before NVMe/TCP).
rocectl_run() {
	local qd=$1 j0 i0 out tr=(--transport "$TR")
	shift
	[ -z "${BIN:-}" ] || tr=()
	i0=$(rps_ipis) j0=$(busy_jiffies)
	out=$($T "${BIN:-$R}" -j -q bench nvmf --target "$B" "${tr[@]}" --nqn "$NQN" --qd "$qd" \
		--time "$SECS" $PIN "$@" |
		jq -r '.results | "\(.latency_ns.mean / 1000) \(.latency_ns.percentiles["99"] / 1000) \(.ios_per_s) \(.ios) \(if .adaptive then "\(.adaptive.sleep_share * 100 | floor)%" else "-" end)"')
	set -- $out
	echo "$1 $2 $3 $(guest_cpu "$j0" "${4:-0}") $(ipis "$i0" "${4:-0}") ${5:--}"
}

# fio ENGINE QD DEV: the same five figures.
fio_run() {
	local j0 i0 out
	i0=$(rps_ipis) j0=$(busy_jiffies)
	out=$($T $TASKSET fio --name=b --filename="$3" --ioengine="$1" --direct=1 --rw=randread --bs=4k \
		--iodepth="$2" --time_based --runtime="$SECS" --output-format=json 2>/dev/null |
		jq -r '.jobs[0] | "\(.read.clat_ns.mean / 1000) \(.read.clat_ns.percentile["99.000000"] / 1000) \(.read.iops) \(.read.total_ios)"')
	set -- $out
	echo "$1 $2 $3 $(guest_cpu "$j0" "${4:-0}") $(ipis "$i0" "${4:-0}") -"
}

kernel_connect() {
	$T nvme connect -t "$TR" -a "$B" -s 4420 -n "$NQN" >/dev/null || return 1
	lab_wait 20 lab_nvme_dev >/dev/null && lab_nvme_dev
}

col() { awk -v c="$1" '{ print $c }'; }

declare -A V
add() { V[$1]+="$2"$'\n'; }

# layout NAME: steer and pin for it; sets WHO, PIN and TASKSET. 1 if it cannot.
layout() {
	knob_rx_cpu "$LAB_A_IF" - && knob_rx_cpu "$LAB_B_IF" - || return 1
	case $1 in
	two-hosts)
		[ "$(nproc)" -ge 2 ] || { echo "layout two-hosts: needs 2 CPUs (LAB_SMP=2)" >&2; return 1; }
		knob_rx_cpu "$LAB_B_IF" 0 && knob_rx_cpu "$LAB_A_IF" 1 || return 1
		WHO="rocectl rocectl-poll rocectl-event libaio io_uring" PIN="--cpus 1" TASKSET="taskset -c 1" ;;
	shared) WHO="rocectl rocectl-poll rocectl-event rocectl-2q libaio io_uring" PIN= TASKSET= ;;
	*) echo "no layout '$1' (two-hosts, shared)" >&2; return 1 ;;
	esac
	[ -z "$BEFORE" ] || [ "$TR" != rdma ] || WHO+=" rocectl-before"
	return 0
}

med() { printf '%s' "${V[$1]}" | grep -v '^$' | median; }

# nth NAME I: the figure NAME of round I.
nth() { printf '%s' "${V[$1]}" | grep -v '^$' | sed -n "$2p"; }

# goal_row LABEL FIG K GOAL OP: rocectl (the default mode) over engine K for
# figure FIG in every round, then the medians' ratio against the goal.
goal_row() {
	local i rounds=
	for ((i = 1; i <= ROUNDS; i++)); do
		rounds+=$(awk -v a="$(nth rocectl.$2 "$i")" -v b="$(nth "$3.$2" "$i")" \
			'BEGIN { printf " %6.2f", (b > 0 ? a / b : 0) }')
	done
	awk -v l="$1 vs $3" -v r="$rounds" -v a="$(med rocectl.$2)" -v b="$(med "$3.$2")" \
		-v g="$4" -v op="$5" 'BEGIN { x = b > 0 ? a / b : 0;
		ok = op == ">=" ? x >= g : (x <= g && x > 0);
		printf "  %-32s%s  %7.2f  %s %s  %s\n", l, r, x, op, g, (ok ? "met" : "not met") }'
}

# The goal table of issues 30 and 41 for this layout: the default mode, every
# round; its QD1 mean latency against --poll's (issue 41: at most 5 % more).
goal_table() {
	local i k head=
	for ((i = 1; i <= ROUNDS; i++)); do
		head+=$(printf ' %6s' "r$i")
	done
	echo "goal table, $TR, layout $LAYOUT, default mode (adaptive): QD32 4k randread, ratio per round and of the medians"
	printf '  %-32s%s  %7s  %s\n' "measure" "$head" medians "goal"
	for k in libaio io_uring; do
		goal_row "IOPS" iops32 "$k" "$(goal iops)" ">="
	done
	for k in libaio io_uring; do
		goal_row "guest CPU per I/O" cpu32 "$k" "$(goal cpu)" "<="
	done
	goal_row "QD1 mean latency" mean rocectl-poll 1.05 "<="
	printf '  %-32s' "adaptive: share of idle slept"
	for ((i = 1; i <= ROUNDS; i++)); do
		printf ' %6s' "$(nth rocectl.sleep32 "$i")"
	done
	echo
}

ratio() { # NAME A B GOAL OP: one line of "NAME A/B: x (OP GOAL) met|not met"
	awk -v r="$2" -v k="$3" -v n="$1" -v g="$4" -v op="$5" 'BEGIN { x = k > 0 ? r / k : 0;
		ok = op == ">=" ? x >= g : (x <= g && x > 0);
		printf "  %s: %.2f (%s %s) %s\n", n, x, op, g, (ok ? "met" : "not met") }'
}

# goal NAME: this transport's goal for QD32 IOPS, CPU per I/O, QD1 mean latency.
goal() {
	case $TR:$1 in
	rdma:iops) echo 1.2 ;; rdma:cpu) echo 0.8 ;; rdma:lat) echo 0.9 ;;
	*) echo 1.0 ;;
	esac
}

# Today's busy poller against the older binary's (BEFORE): no worse is >= 1.0
# for IOPS and <= 1.0 for CPU per I/O and QD1 latency.
before_ratios() {
	ratio "QD32 IOPS rocectl-poll/rocectl-before" "$(med rocectl-poll.iops32)" \
		"$(med rocectl-before.iops32)" 1.0 ">="
	ratio "QD32 guest CPU per I/O rocectl-poll/rocectl-before" "$(med rocectl-poll.cpu32)" \
		"$(med rocectl-before.cpu32)" 1.0 "<="
	ratio "QD1 mean latency rocectl-poll/rocectl-before" "$(med rocectl-poll.mean)" \
		"$(med rocectl-before.mean)" 1.0 "<="
}

report() {
	local r k
	echo "medians:"
	for who in $WHO; do
		printf '%-6s %-14s %12.1f %12.1f %12.1f %18.1f %10.2f\n' "" "$who" "$(med $who.mean)" \
			"$(med $who.p99)" "$(med $who.iops32)" \
			"$(awk -v c="$(med $who.cpu32)" 'BEGIN { print c * 1e6 }')" "$(med $who.ipi32)"
	done
	echo "ratios (goal):"
	for r in rocectl rocectl-poll rocectl-event; do
		for k in libaio io_uring; do
			ratio "QD32 IOPS $r/$k" "$(med $r.iops32)" "$(med $k.iops32)" "$(goal iops)" ">="
			ratio "QD32 guest CPU per I/O $r/$k" "$(med $r.cpu32)" "$(med $k.cpu32)" \
				"$(goal cpu)" "<="
		done
	done
	for k in libaio io_uring; do
		ratio "QD1 mean latency rocectl/$k" "$(med rocectl.mean)" "$(med $k.mean)" \
			"$(goal lat)" "<="
	done
	[[ " $WHO " == *" rocectl-before "* ]] && before_ratios
	[[ " $WHO " == *" rocectl-2q "* ]] &&
		awk -v a="$(med rocectl-2q.iops32)" -v b="$(med rocectl.iops32)" \
			'BEGIN { printf "  QD32 IOPS 2 queues / 1 queue (rocectl): %.2f\n", (b > 0 ? a / b : 0) }'
	goal_table
	return 0
}

rounds() {
	local i who q1 q32
	printf '%-6s %-14s %12s %12s %12s %18s %10s %8s\n' round who "QD1 mean us" "QD1 p99 us" "QD32 IOPS" \
		"QD32 guest us/io" "IPIs/io" "slept"
	for ((i = 1; i <= ROUNDS; i++)); do
		for who in $WHO; do
			case $who in
			rocectl) q1=$(rocectl_run 1); q32=$(rocectl_run 32) ;;
			rocectl-poll) q1=$(rocectl_run 1 --poll); q32=$(rocectl_run 32 --poll) ;;
			rocectl-event) q1=$(rocectl_run 1 --event); q32=$(rocectl_run 32 --event) ;;
			rocectl-2q) q1="0 0 0 0 0"; q32=$(rocectl_run 32 --queues 2) ;;
			rocectl-before) q1=$(BIN=$BEFORE rocectl_run 1 $BEFORE_ARGS)
				q32=$(BIN=$BEFORE rocectl_run 32 $BEFORE_ARGS) ;;
			*) q1=$(fio_run "$who" 1 "$dev"); q32=$(fio_run "$who" 32 "$dev") ;;
			esac
			add "$who.mean" "$(col 1 <<<"$q1")"
			add "$who.p99" "$(col 2 <<<"$q1")"
			add "$who.iops32" "$(col 3 <<<"$q32")"
			add "$who.cpu32" "$(col 4 <<<"$q32")"
			add "$who.ipi32" "$(col 5 <<<"$q32")"
			add "$who.sleep32" "$(col 6 <<<"$q32")"
			printf '%-6s %-14s %12.1f %12.1f %12.1f %18.1f %10.2f %8s\n' "$i" "$who" "$(col 1 <<<"$q1")" \
				"$(col 2 <<<"$q1")" "$(col 3 <<<"$q32")" \
				"$(awk -v c="$(col 4 <<<"$q32")" 'BEGIN { print c * 1e6 }')" "$(col 5 <<<"$q32")" \
				"$(col 6 <<<"$q32")"
		done
		echo "round $i: load $(cut -d' ' -f1-3 /proc/loadavg)"
	done
}

# One transport: the kernel initiator connected over it, every layout, disconnected.
transport() {
	local lay
	dev=$(kernel_connect) || { echo "nvme connect -t $TR failed" >&2; return 1; }
	echo "== $TR: bench nvmf vs fio + kernel initiator: 4k randread, ${SECS}s runs, $ROUNDS rounds;" \
		"$(nproc) vCPU, clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)," \
		"rocectl clock $($T "$R" -j -q bench nvmf --target "$B" --transport "$TR" --nqn "$NQN" \
		--ios 10 | jq -r .clock_source)"
	for lay in $LAYOUTS; do
		layout "$lay" || continue
		LAYOUT=$lay
		echo "layout $lay: RPS CPU mask $LAB_B_IF (target) $(lab_rx_cpus "$LAB_B_IF"), $LAB_A_IF" \
			"(initiator) $(lab_rx_cpus "$LAB_A_IF"); initiators pinned: ${TASKSET:-no}"
		V=()
		rounds
		report
	done
	knob_rx_cpu "$LAB_A_IF" -
	knob_rx_cpu "$LAB_B_IF" -
	nvme disconnect -n "$NQN" >/dev/null 2>&1
	lab_wait 20 no_kernel_dev
	return 0
}

no_kernel_dev() { ! lab_nvme_dev >/dev/null; }

for TR in $TRANSPORTS; do
	transport
done
for qd in 1 32; do
	echo "== rocectl bench nvmf --compare-tcp, QD$qd, shared layout"
	$T "$R" -q bench nvmf --target "$B" --nqn "$NQN" --compare-tcp --qd "$qd" --time "$SECS" |
		sed -n '/^RDMA vs TCP/,$p'
done
exit 0
