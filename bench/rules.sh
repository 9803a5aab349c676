#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Time of the rules on the largest real shapes (issue 25, item 10):
# generated snapshots (bench/gen-large-snapshot.py) of 512 ports with a
# full 256-entry GID table each (half of them on a VLAN above each port's
# netdev), and of 2000 ports with 8 GIDs each and no VLANs (SR-IOV VFs: the
# 32 MiB bound of include/rocectl/json.h holds no more netdevs), judged
# by 'check gid', 'check mtu' and 'doctor --input' (the load of the snapshot
# included; 'devices --input' alone shows what reading and printing cost).
# CPU_S is user + system time: on a shared machine the wall time is mostly
# waiting for a core. Asserts nothing. Before the netdev index
# (lib/model.c), the one pass over the GIDs (lib/rules_mtu.c) and the
# finding's port looked up from the last one (lib/rules.c), on a 2-core
# machine: 2000x8x0 'check gid' 40.6 s CPU and 'doctor' 49.6 s, 512x256
# 'check gid' 3.6 s and 'doctor' 4.6 s; after, 1.2, 3.2, 0.9 and 1.4 s, of
# which reading the snapshot is ~0.9 s.
# Issue 41, item 3: 'check all' too, and a snapshot of 60,000 netdevs of one
# name (NETDEVS shape, as tests/cli/bad-input.bats builds it); each row's
# RATIO is its CPU time over the same command's on the 20-port snapshot
# (20x8x0), so that linear rules show a ratio that tracks the size (2000
# ports: about 100). Before the fixes of issue 41 (the LAG walks over every
# netdev per port, the finding's port looked for from the first port, the
# catalogue's driver compared per counter), on the same loaded 2-core
# machine: 2000x8x0 'check all' 13.9 s CPU (ratio 433); after, 1.3 s (ratio 92).
# Needs python3, jq and bc. SHAPES="PORTSxGIDS[x0] ..." chooses others (x0: no VLANs).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROCECTL=${ROCECTL:-$ROOT/build/rocectl}
SHAPES=${SHAPES:-20x8x0 512x256 2000x8x0 60000netdevs}
COMMANDS=${COMMANDS:-devices|check gid|check mtu|check all|doctor}
DIR=$(mktemp -d /tmp/rocectl-bench-rules.XXXXXX)
trap 'rm -rf "$DIR"' EXIT
FIX=$ROOT/tests/fixtures/hosts/mlx5-upstream-healthy.json
declare -A base

# cpu_of CMD FILE REPS: user + system seconds of one run (the mean of REPS
# runs: time(1) counts in 10 ms, a 20-port run takes about that) into CPU,
# and WALL and RSS.
cpu_of() {
	# shellcheck disable=SC2016
	/usr/bin/time -f '%U %S %e %M' -o "$DIR/t" bash -c \
		'for ((i = 0; i < $3; i++)); do "$0" $1 --input "$2" >/dev/null 2>"$4" ||
		[ $? -le 2 ] || exit 3; done' "$ROCECTL" "$1" "$2" "$3" "$DIR/err"
	[ $? -eq 0 ] || { echo "rocectl $1: $(cat "$DIR/err")" >&2; exit 1; }
	read -r user sys WALL RSS < <(tail -1 "$DIR/t")
	CPU=$(echo "scale=3; ($user + $sys) / $3" | bc)
	WALL=$(echo "scale=2; $WALL / $3" | bc)
}

printf '%-12s %9s %8s  %-10s %7s %7s %8s %7s\n' SHAPE BYTES GIDS COMMAND CPU_S WALL_S MAX_RSS RATIO
for shape in $SHAPES; do
	f=$DIR/$shape.json
	if [ "$shape" = 60000netdevs ]; then
		jq -c '.host.netdevs |= (. + [range(60000) as $i | (.[0] | {name, mtu, kind})])' \
			"$FIX" >"$f" || exit 1
		ports=1 gids=$(jq '[.host.devices[].ports[].gids | length] | add' "$f")
	else
		IFS=x read -r ports gids vlan <<<"$shape"
		python3 "$ROOT/bench/gen-large-snapshot.py" "$FIX" "$ports" "$gids" "${vlan:-1}" >"$f" || exit 1
		gids=$((ports * gids))
	fi
	IFS='|' read -ra cmds <<<"$COMMANDS"
	for c in "${cmds[@]}"; do
		reps=1
		[ -n "${base[$c]:-}" ] || reps=50
		cpu_of "$c" "$f" $reps
		[ -n "${base[$c]:-}" ] || base[$c]=$CPU
		ratio=$(echo "scale=1; $CPU / ${base[$c]}" | bc 2>/dev/null)
		printf '%-12s %9s %8s  %-10s %7.3f %7s %5s MB %7s\n' "$shape" "$(stat -c %s "$f")" "$gids" \
			"$c" "$CPU" "$WALL" $((RSS / 1024)) "$ratio"
	done
done
