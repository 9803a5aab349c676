#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/nvmf.sh - rocectl bench nvmf against the kernel NVMe-oF initiator, in one lab boot:
#	tests/lab/lab run -- bench/nvmf.sh
# Alternates (ROUNDS times) rocectl bench nvmf and nvme connect + fio (libaio and
# io_uring, direct) on the same nvmet-rdma target: 4k randread QD1 mean and p99
# latency, QD32 IOPS, and CPU seconds per I/O of each; also the raw RDMA send
# round trip of 'rocectl bench rdma'. Prints the medians and the ratios against
# the goals: latency <= 0.6x the kernel initiator, IOPS per CPU-second >= 1.5x,
# QD1 round trip <= 1.3x the raw send round trip. Not a test: nothing is asserted.
set -u
[ "${LAB:-}" = 1 ] || { echo "bench/nvmf.sh runs inside the lab: tests/lab/lab run -- bench/nvmf.sh" >&2; exit 2; }
REPO=$(cd "$(dirname "$0")/.." && pwd)
R=${ROCECTL:-$REPO/build/rocectl}
A=${LAB_A_IP:-10.0.0.1} B=${LAB_B_IP:-10.0.0.2}
NQN=${LAB_NQN:-nqn.2014-08.org.rocectl:lab}
ROUNDS=${ROUNDS:-3} SECS=${SECS:-3}
RARGS=${RARGS:-}	# e.g. RARGS=--event: sleep on completions instead of busy polling
T="timeout 120"
source "$LAB_DIR/knobs.sh"

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# rocectl QD: prints "mean_us p99_us iops cpu_s_per_io"
rocectl_run() {
	$T "$R" -j -q bench nvmf --target "$B" --nqn "$NQN" --qd "$1" --time "$SECS" $RARGS | jq -r '.results |
		"\(.latency_ns.mean / 1000) \(.latency_ns.percentiles["99"] / 1000) \(.ios_per_s) \(.cpu_s / .ios)"'
}

# fio ENGINE QD DEV: the same four figures; CPU = fio's usr+sys share of the run.
fio_run() {
	$T fio --name=b --filename="$3" --ioengine="$1" --direct=1 --rw=randread --bs=4k \
		--iodepth="$2" --time_based --runtime="$SECS" --output-format=json 2>/dev/null |
		jq -r '.jobs[0] | (.read.runtime / 1000) as $t |
		"\(.read.clat_ns.mean / 1000) \(.read.clat_ns.percentile["99.000000"] / 1000) \(.read.iops) \((.usr_cpu + .sys_cpu) / 100 * $t / .read.total_ios)"'
}

kernel_connect() {
	$T nvme connect -t rdma -a "$B" -s 4420 -n "$NQN" >/dev/null || return 1
	lab_wait 20 lab_nvme_dev >/dev/null && lab_nvme_dev
}

col() { awk -v c="$1" '{ print $c }'; }

declare -A V
add() { V[$1]+="$2"$'\n'; }

rt_raw=
if "$R" bench rdma --help >/dev/null 2>&1; then
	$T "$R" serve --bind "$B" >/dev/null 2>&1 &
	spid=$!
	sleep 1
	rt_raw=$($T "$R" -j bench rdma "$B" --src "$A" --lat --iters 2000 | jq -r '.latency_ns.percentiles["50"] * 2 / 1000')
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
fi

dev=$(kernel_connect) || { echo "nvme connect failed" >&2; exit 1; }
for ((i = 0; i < ROUNDS; i++)); do
	for who in rocectl libaio io_uring; do
		if [ $who = rocectl ]; then q1=$(rocectl_run 1); q32=$(rocectl_run 32)
		else q1=$(fio_run $who 1 "$dev"); q32=$(fio_run $who 32 "$dev"); fi
		add "$who.mean" "$(col 1 <<<"$q1")"
		add "$who.p99" "$(col 2 <<<"$q1")"
		add "$who.iops32" "$(col 3 <<<"$q32")"
		add "$who.cpu32" "$(col 4 <<<"$q32")"
	done
done
nvme disconnect -n "$NQN" >/dev/null 2>&1

med() { printf '%s' "${V[$1]}" | grep -v '^$' | median; }
printf '%-10s %12s %12s %12s %16s\n' "" "QD1 mean us" "QD1 p99 us" "QD32 IOPS" "QD32 cpu us/io"
for who in rocectl libaio io_uring; do
	printf '%-10s %12.1f %12.1f %12.1f %16.2f\n' "$who" "$(med $who.mean)" "$(med $who.p99)" \
		"$(med $who.iops32)" "$(awk -v c="$(med $who.cpu32)" 'BEGIN { print c * 1e6 }')"
done
[ -n "$rt_raw" ] && printf 'raw RDMA send round trip (rocectl bench rdma, 2 x median one-way): %.1f us\n' "$rt_raw"
echo "ratios (goal):"
for k in libaio io_uring; do
	awk -v r="$(med rocectl.mean)" -v k="$(med $k.mean)" -v n="$k" \
		'BEGIN { printf "  QD1 mean latency rocectl/%s: %.2f (<= 0.6)\n", n, r / k }'
	awk -v r="$(med rocectl.cpu32)" -v k="$(med $k.cpu32)" -v n="$k" \
		'BEGIN { printf "  QD32 IOPS per CPU-second rocectl/%s: %.2f (>= 1.5)\n", n, k / r }'
done
[ -n "$rt_raw" ] && awk -v r="$(med rocectl.mean)" -v s="$rt_raw" \
	'BEGIN { printf "  QD1 round trip / raw send round trip: %.2f (<= 1.3)\n", r / s }'
exit 0
