#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/counters.sh - what reading every counter costs, against the peer tools.
# Not a test: it prints figures. Run inside the lab (needs rxe ports), e.g.
#	tests/lab/lab run bench/counters.sh
#
#   1. N runs of `rocectl counters -j` versus N runs of `rdma statistic show -j`
#      plus `ethtool -S` of each port's netdev (what it replaces): wall and CPU
#      time per run, and the ratios rocectl / peers. The runs alternate in ROUNDS
#      rounds, so that drift of a TCG guest (JIT warm-up, host load) hits both alike;
#      every round's wall ratio is printed, and their median.
#   2. `rocectl counters --watch 1 -j` for WATCH_SECS: CPU seconds used and CPU %.
#
# Environment: ROCECTL (default build/rocectl), N (default 50), ROUNDS (default 5),
# WATCH_SECS (default 60).
set -euo pipefail

ROCECTL=${ROCECTL:-build/rocectl}
N=${N:-50}
ROUNDS=${ROUNDS:-5}
WATCH_SECS=${WATCH_SECS:-60}

netdevs=$(rdma -j link show | jq -r '.[] | select(.netdev) | .netdev')
[ -n "$netdevs" ] || { echo "bench/counters.sh: no RDMA port with a netdev" >&2; exit 3; }

peers() {
	rdma statistic show -j >/dev/null
	for nd in $netdevs; do ethtool -S "$nd" >/dev/null; done
}

ours() {
	"$ROCECTL" counters -j >/dev/null
}

# "wall user+sys" in seconds of COUNT runs of a shell function (children's times).
measure() {
	local fn=$1 count=$2 me=$BASHPID t0 t1 c0 c1 i
	read -r c0 < <(awk '{ print $16 + $17 }' /proc/$me/stat)
	t0=$(date +%s.%N)
	for ((i = 0; i < count; i++)); do "$fn"; done
	t1=$(date +%s.%N)
	read -r c1 < <(awk '{ print $16 + $17 }' /proc/$me/stat)
	echo "$(echo "$t1 - $t0" | bc -l) $(echo "($c1 - $c0) / $(getconf CLK_TCK)" | bc -l)"
}

ours >/dev/null; peers	# warm caches
ow=0 oc=0 pw=0 pc=0
per=$(((N + ROUNDS - 1) / ROUNDS))
N=$((per * ROUNDS))
ratios=()
for ((r = 1; r <= ROUNDS; r++)); do
	read -r w c < <(measure ours "$per")
	ow=$(echo "$ow + $w" | bc -l) oc=$(echo "$oc + $c" | bc -l)
	read -r w2 c2 < <(measure peers "$per")
	pw=$(echo "$pw + $w2" | bc -l) pc=$(echo "$pc + $c2" | bc -l)
	ratios+=("$(echo "$w / $w2" | bc -l)")
	printf '  round %d: rocectl wall %7.2f ms, peers wall %7.2f ms per run, ratio %.3f\n' "$r" \
		"$(echo "$w * 1000 / $per" | bc -l)" "$(echo "$w2 * 1000 / $per" | bc -l)" "${ratios[-1]}"
done
median=$(printf '%s\n' "${ratios[@]}" | sort -g | awk '{ v[NR] = $1 }
	END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
printf 'one read of every counter of %s, %d runs each\n' "${netdevs//$'\n'/,}" "$N"
printf '  %-44s wall %7.2f ms  cpu %7.2f ms\n' "rocectl counters -j" \
	"$(echo "$ow * 1000 / $N" | bc -l)" "$(echo "$oc * 1000 / $N" | bc -l)"
printf '  %-44s wall %7.2f ms  cpu %7.2f ms\n' "rdma statistic show -j + ethtool -S (each)" \
	"$(echo "$pw * 1000 / $N" | bc -l)" "$(echo "$pc * 1000 / $N" | bc -l)"
printf '  ratio rocectl/peers: wall %.2f  cpu %.2f (all rounds); median wall ratio of the rounds %.3f\n' \
	"$(echo "$ow / $pw" | bc -l)" "$(echo "if ($pc > 0) $oc / $pc else 0" | bc -l)" "$median"

# --watch 1: CPU of the process itself over WATCH_SECS (utime + stime of its /proc stat).
"$ROCECTL" counters -j --watch 1 >/dev/null &
wpid=$!
sleep "$WATCH_SECS"
read -r wc < <(awk '{ print $14 + $15 }' /proc/$wpid/stat)
kill -INT "$wpid"
wait "$wpid" || true
printf 'rocectl counters --watch 1 -j for %ss: cpu %.3f s (%.2f%% of one CPU)\n' "$WATCH_SECS" \
	"$(echo "$wc / $(getconf CLK_TCK)" | bc -l)" \
	"$(echo "$wc / $(getconf CLK_TCK) * 100 / $WATCH_SECS" | bc -l)"
