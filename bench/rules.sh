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
# Needs python3 and bc. SHAPES="PORTSxGIDS[x0] ..." chooses others (x0: no VLANs).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROCECTL=${ROCECTL:-$ROOT/build/rocectl}
SHAPES=${SHAPES:-512x256 2000x8x0}
DIR=$(mktemp -d /tmp/rocectl-bench-rules.XXXXXX)
trap 'rm -rf "$DIR"' EXIT

printf '%-10s %9s %8s  %-10s %7s %7s %8s\n' SHAPE BYTES GIDS COMMAND CPU_S WALL_S MAX_RSS
for shape in $SHAPES; do
	IFS=x read -r ports gids vlan <<<"$shape"
	f=$DIR/$shape.json
	python3 "$ROOT/bench/gen-large-snapshot.py" "$ROOT/tests/fixtures/hosts/mlx5-upstream-healthy.json" \
		"$ports" "$gids" "${vlan:-1}" >"$f" || exit 1
	for c in "devices" "check gid" "check mtu" "doctor"; do
		# shellcheck disable=SC2086
		/usr/bin/time -f '%U %S %e %M' -o "$DIR/t" "$ROCECTL" $c --input "$f" >/dev/null 2>"$DIR/err"
		rc=$?
		[ $rc -le 2 ] || { echo "rocectl $c: exit $rc: $(cat "$DIR/err")" >&2; exit 1; }
		read -r user sys wall rss < <(tail -1 "$DIR/t")
		printf '%-10s %9s %8s  %-10s %7.2f %7s %5s MB\n' "$shape" "$(stat -c %s "$f")" $((ports * gids)) \
			"$c" "$(echo "$user + $sys" | bc)" "$wall" $((rss / 1024))
	done
done
