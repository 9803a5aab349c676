#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Wall time of 'rocectl compare' over a generated fleet: HOSTS snapshots
# (default 2000) of two RoCE ports each, made from the healthy upstream mlx5
# fixture (second device mlx5_1 on its own netdev, every 50th host on
# older firmware). Prints the wall time of the whole run, reading every
# snapshot included; asserts nothing (before lib/compare.c the outlier pass
# was cubic: 500 snapshots took 6.3 s). Needs python3, jq and bc.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROCECTL=${ROCECTL:-$ROOT/build/rocectl}
HOSTS=${HOSTS:-2000}
DIR=$(mktemp -d /tmp/rocectl-bench-compare.XXXXXX)
trap 'rm -rf "$DIR"' EXIT

python3 - "$ROOT/tests/fixtures/hosts/mlx5-upstream-healthy.json" "$DIR" "$HOSTS" <<'PY'
import copy, json, sys
src, out, hosts = sys.argv[1], sys.argv[2], int(sys.argv[3])
doc = json.load(open(src))
h = doc["host"]
dev2 = copy.deepcopy(h["devices"][0])
nd2 = copy.deepcopy(h["netdevs"][0])
dev2["name"], dev2["index"] = "mlx5_1", dev2["index"] + 1
nd2["name"] = "ens1f1np1"
for p in dev2["ports"]:
    p["netdev"] = nd2["name"]
    for g in p.get("gids", []):
        g["netdev"] = nd2["name"]
h["devices"].append(dev2)
h["netdevs"].append(nd2)
for i in range(hosts):
    h["hostname"] = "node%04d" % i
    for d in h["devices"]:
        d["fw"] = "22.36.1010" if i % 50 == 0 else "22.41.1000"
    with open("%s/node%04d.json" % (out, i), "w") as f:
        json.dump(doc, f)
PY

secs() {
	local t0 t1
	t0=$(date +%s.%N)
	"$@" >/dev/null 2>&1
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc -l
}

ports=$("$ROCECTL" compare -j "$DIR"/node000[01].json | jq '.port_count')
total=$(secs "$ROCECTL" compare -j "$DIR"/*.json)
printf 'compare: %d hosts x %d ports: %.3f s (%s)\n' "$HOSTS" $((ports / 2)) "$total" \
	"$("$ROCECTL" compare "$DIR"/*.json | tail -1)"
