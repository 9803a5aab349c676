#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Wall time of 'rocectl doctor --no-sample' against the peer commands it
# replaces (rdma link, rdma statistic, ethtool -S, dcb pfc/app/ets show per
# netdev), N rounds each, on the host it runs on (the lab: run it with
# 'tests/lab/lab run bench/doctor.sh'). Prints the ratio; asserts nothing.
set -u
ROCECTL=${ROCECTL:-$(cd "$(dirname "$0")/.." && pwd)/build/rocectl}
N=${N:-20}

netdevs() {
	rdma -j link show | jq -r '.[] | .netdev // empty' | sort -u
}

peers() {
	local nd
	rdma link show
	rdma statistic show
	for nd in $NETDEVS; do
		ethtool -S "$nd"
		dcb pfc show dev "$nd"
		dcb app show dev "$nd"
		dcb ets show dev "$nd"
	done
}

# Seconds (float) that N runs of "$@" take, output discarded.
wall() {
	local t0 t1 i
	t0=$(date +%s.%N)
	for ((i = 0; i < N; i++)); do
		"$@" >/dev/null 2>&1
	done
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc -l
}

NETDEVS=$(netdevs)
[ -n "$NETDEVS" ] || { echo "bench/doctor.sh: no RDMA netdev on this host" >&2; exit 3; }
for tool in rdma ethtool dcb jq bc; do
	command -v "$tool" >/dev/null || { echo "bench/doctor.sh: $tool missing" >&2; exit 3; }
done
ours=$(wall timeout 30 "$ROCECTL" doctor --no-sample)
theirs=$(wall timeout 30 bash -c "$(declare -f peers); NETDEVS='$NETDEVS' peers")
printf 'netdevs: %s\n' "$(echo $NETDEVS)"
printf 'rocectl doctor --no-sample: %.1f ms per run (%d runs)\n' "$(echo "$ours * 1000 / $N" | bc -l)" "$N"
printf 'peer commands (%d per run): %.1f ms per run\n' "$((2 + 4 * $(wc -w <<<"$NETDEVS")))" \
	"$(echo "$theirs * 1000 / $N" | bc -l)"
printf 'ratio peer/rocectl: %.2f\n' "$(echo "$theirs / $ours" | bc -l)"
