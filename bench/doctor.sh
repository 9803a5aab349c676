#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/doctor.sh - wall time of 'rocectl doctor --no-sample' against the peer
# commands that read what it reports, on the host it runs on (the lab: run it
# with 'tests/lab/lab run bench/doctor.sh'). Prints figures; asserts nothing.
#
# The peer list covers what doctor reports, one command per fact family:
#	devices, ports, netdev of each port	rdma link show
#	RDMA hw counters			rdma statistic show
#	MTUs, link layer, speed, GID table	ibv_devinfo -v
#	netdevs: kind, VLAN, bond, addresses	ip -d link show, ip addr show
#	per netdev: NIC counters		ethtool -S NETDEV
#	per netdev: driver, firmware		ethtool -i NETDEV
#	per netdev: global pause		ethtool -a NETDEV
#	per netdev: DCB PFC, APP (DSCP), ETS	dcb pfc|app|ets show dev NETDEV
#	firewall: the nftables ruleset		nft list ruleset
#	lldpad					pgrep -x lldpad
#	the switch port (lldpd), when it runs	lldpcli show neighbors
# Not counted, having no peer command installed: rdma_cm configfs defaults,
# MLNX_OFED qos sysfs, congestion-control sysfs/debugfs (so the peers' side is,
# if anything, short). PEERS=core keeps the list of the first version of this
# script plus nft (rdma link and statistic; ethtool -S and dcb per netdev).
#
# ROUNDS rounds (default 5) of N runs each (default 10), ours and the peers'
# alternating so that drift (a TCG guest's JIT warm-up, host load) hits both;
# every round is printed, then the median ratio rocectl/peers.
set -u
ROCECTL=${ROCECTL:-$(cd "$(dirname "$0")/.." && pwd)/build/rocectl}
N=${N:-10}
ROUNDS=${ROUNDS:-5}
PEERS=${PEERS:-full}

for tool in rdma ethtool dcb nft jq bc; do
	command -v "$tool" >/dev/null || { echo "bench/doctor.sh: $tool missing" >&2; exit 3; }
done
NETDEVS=$(rdma -j link show | jq -r '.[] | .netdev // empty' | sort -u)
[ -n "$NETDEVS" ] || { echo "bench/doctor.sh: no RDMA netdev on this host" >&2; exit 3; }
if [ "$PEERS" = full ]; then
	for tool in ibv_devinfo ip pgrep; do
		command -v "$tool" >/dev/null || { echo "bench/doctor.sh: $tool missing" >&2; exit 3; }
	done
fi
LLDPD=0
if [ "$PEERS" = full ] && command -v lldpcli >/dev/null && [ -S /run/lldpd.socket ]; then
	LLDPD=1
fi

peers() {
	local nd
	rdma link show
	rdma statistic show
	nft list ruleset
	for nd in $NETDEVS; do
		ethtool -S "$nd"
		dcb pfc show dev "$nd"
		dcb app show dev "$nd"
		dcb ets show dev "$nd"
	done
	[ "$PEERS" = full ] || return 0
	ibv_devinfo -v
	ip -d link show
	ip addr show
	pgrep -x lldpad
	[ "$LLDPD" = 0 ] || lldpcli show neighbors
	for nd in $NETDEVS; do
		ethtool -i "$nd"
		ethtool -a "$nd"
	done
}

# Milliseconds per run of N runs of "$@", output discarded.
ms_per_run() {
	local t0 t1 i
	t0=$(date +%s.%N)
	for ((i = 0; i < N; i++)); do
		"$@" >/dev/null 2>&1
	done
	t1=$(date +%s.%N)
	echo "($t1 - $t0) * 1000 / $N" | bc -l
}

n_peers=$((3 + 4 * $(wc -w <<<"$NETDEVS")))
[ "$PEERS" = core ] || n_peers=$((n_peers + 4 + LLDPD + 2 * $(wc -w <<<"$NETDEVS")))
printf 'netdevs: %s; peer list %s: %d commands per run; %d rounds of %d runs\n' \
	"${NETDEVS//$'\n'/ }" "$PEERS" "$n_peers" "$ROUNDS" "$N"
export -f peers
export NETDEVS PEERS LLDPD
timeout 30 "$ROCECTL" doctor --no-sample >/dev/null 2>&1	# warm caches
peers >/dev/null 2>&1
ratios=()
for ((r = 1; r <= ROUNDS; r++)); do
	ours=$(ms_per_run timeout 30 "$ROCECTL" doctor --no-sample)
	theirs=$(ms_per_run timeout 30 bash -c peers)
	ratio=$(echo "$ours / $theirs" | bc -l)
	ratios+=("$ratio")
	printf 'round %d: rocectl doctor --no-sample %.1f ms, peers %.1f ms per run, ratio %.3f\n' \
		"$r" "$ours" "$theirs" "$ratio"
done
median=$(printf '%s\n' "${ratios[@]}" | sort -g | awk '{ v[NR] = $1 }
	END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
printf 'median ratio rocectl/peers: %.3f (%d rounds)\n' "$median" "$ROUNDS"
