#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/nvmf.sh - rocectl bench nvmf against the kernel NVMe-oF initiator, in one lab boot:
#	LAB_SMP=2 tests/lab/lab run -- bench/nvmf.sh
# Alternates (ROUNDS times) rocectl bench nvmf (busy-poll, then --event) and
# nvme connect + fio (libaio and io_uring, direct) on the same nvmet-rdma
# target: 4k randread QD1 mean and p99 latency, QD32 IOPS, and CPU per I/O
# counted guest-wide: busy jiffies of /proc/stat (user, nice, system, irq,
# softirq, steal) over each run divided by its I/Os, since rxe and the target
# work in softirq outside any process's own accounting. Also rocectl with 2
# queues of QD32 (one thread each). Prints every round, the medians and the
# ratios against the goals of issue 12: QD32 IOPS >= 1.2x fio's, guest-wide
# CPU per I/O <= 0.8x, QD1 mean latency <= 0.9x (busy-poll). Not a test:
# nothing is asserted.
set -u
source "$(dirname "$0")/lab.bash"
ROUNDS=${ROUNDS:-3} SECS=${SECS:-3}
WHO="rocectl rocectl-event rocectl-2q libaio io_uring"

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Busy jiffies of the whole guest (all CPUs); USER_HZ is 100 on Linux.
busy_jiffies() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }

# guest_cpu J0 IOS: guest-wide CPU seconds per I/O since J0.
guest_cpu() { awk -v a="$1" -v b="$(busy_jiffies)" -v n="$2" 'BEGIN { print (n > 0 ? (b - a) / 100 / n : 0) }'; }

# rocectl QD [ARGS]: prints "mean_us p99_us iops guest_cpu_s_per_io"
rocectl_run() {
	local qd=$1 j0 out
	shift
	j0=$(busy_jiffies)
	out=$($T "$R" -j -q bench nvmf --target "$B" --nqn "$NQN" --qd "$qd" --time "$SECS" "$@" |
		jq -r '.results | "\(.latency_ns.mean / 1000) \(.latency_ns.percentiles["99"] / 1000) \(.ios_per_s) \(.ios)"')
	set -- $out
	echo "$1 $2 $3 $(guest_cpu "$j0" "${4:-0}")"
}

# fio ENGINE QD DEV: the same four figures.
fio_run() {
	local j0 out
	j0=$(busy_jiffies)
	out=$($T fio --name=b --filename="$3" --ioengine="$1" --direct=1 --rw=randread --bs=4k \
		--iodepth="$2" --time_based --runtime="$SECS" --output-format=json 2>/dev/null |
		jq -r '.jobs[0] | "\(.read.clat_ns.mean / 1000) \(.read.clat_ns.percentile["99.000000"] / 1000) \(.read.iops) \(.read.total_ios)"')
	set -- $out
	echo "$1 $2 $3 $(guest_cpu "$j0" "${4:-0}")"
}

kernel_connect() {
	$T nvme connect -t rdma -a "$B" -s 4420 -n "$NQN" >/dev/null || return 1
	lab_wait 20 lab_nvme_dev >/dev/null && lab_nvme_dev
}

col() { awk -v c="$1" '{ print $c }'; }

declare -A V
add() { V[$1]+="$2"$'\n'; }

dev=$(kernel_connect) || { echo "nvme connect failed" >&2; exit 1; }
echo "bench nvmf vs fio + kernel initiator: 4k randread, ${SECS}s runs, $ROUNDS rounds; $(nproc) vCPU," \
	"clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)," \
	"rocectl clock $($T "$R" -j -q bench nvmf --target "$B" --nqn "$NQN" --ios 10 | jq -r .clock_source)"
printf '%-6s %-14s %12s %12s %12s %18s\n' round who "QD1 mean us" "QD1 p99 us" "QD32 IOPS" "QD32 guest us/io"
for ((i = 1; i <= ROUNDS; i++)); do
	for who in $WHO; do
		case $who in
		rocectl) q1=$(rocectl_run 1); q32=$(rocectl_run 32) ;;
		rocectl-event) q1=$(rocectl_run 1 --event); q32=$(rocectl_run 32 --event) ;;
		rocectl-2q) q1="0 0 0 0"; q32=$(rocectl_run 32 --queues 2) ;;
		*) q1=$(fio_run "$who" 1 "$dev"); q32=$(fio_run "$who" 32 "$dev") ;;
		esac
		add "$who.mean" "$(col 1 <<<"$q1")"
		add "$who.p99" "$(col 2 <<<"$q1")"
		add "$who.iops32" "$(col 3 <<<"$q32")"
		add "$who.cpu32" "$(col 4 <<<"$q32")"
		printf '%-6s %-14s %12.1f %12.1f %12.1f %18.1f\n' "$i" "$who" "$(col 1 <<<"$q1")" \
			"$(col 2 <<<"$q1")" "$(col 3 <<<"$q32")" "$(awk -v c="$(col 4 <<<"$q32")" 'BEGIN { print c * 1e6 }')"
	done
	echo "round $i: load $(cut -d' ' -f1-3 /proc/loadavg)"
done
nvme disconnect -n "$NQN" >/dev/null 2>&1

med() { printf '%s' "${V[$1]}" | grep -v '^$' | median; }
echo "medians:"
for who in $WHO; do
	printf '%-6s %-14s %12.1f %12.1f %12.1f %18.1f\n' "" "$who" "$(med $who.mean)" "$(med $who.p99)" \
		"$(med $who.iops32)" "$(awk -v c="$(med $who.cpu32)" 'BEGIN { print c * 1e6 }')"
done
echo "ratios (goal):"
for r in rocectl rocectl-event; do
	for k in libaio io_uring; do
		awk -v r="$(med $r.iops32)" -v k="$(med $k.iops32)" -v a="$r" -v b="$k" \
			'BEGIN { x = k > 0 ? r / k : 0; printf "  QD32 IOPS %s/%s: %.2f (>= 1.2) %s\n", a, b, x, (x >= 1.2 ? "met" : "not met") }'
		awk -v r="$(med $r.cpu32)" -v k="$(med $k.cpu32)" -v a="$r" -v b="$k" \
			'BEGIN { x = k > 0 ? r / k : 0; printf "  QD32 guest CPU per I/O %s/%s: %.2f (<= 0.8) %s\n", a, b, x, (x <= 0.8 && x > 0 ? "met" : "not met") }'
	done
done
for k in libaio io_uring; do
	awk -v r="$(med rocectl.mean)" -v k="$(med $k.mean)" -v b="$k" \
		'BEGIN { x = k > 0 ? r / k : 0; printf "  QD1 mean latency rocectl/%s: %.2f (<= 0.9) %s\n", b, x, (x <= 0.9 && x > 0 ? "met" : "not met") }'
done
awk -v a="$(med rocectl-2q.iops32)" -v b="$(med rocectl.iops32)" \
	'BEGIN { printf "  QD32 IOPS 2 queues / 1 queue (rocectl): %.2f\n", (b > 0 ? a / b : 0) }'
exit 0
