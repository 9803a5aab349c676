#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 'rocectl doctor -i DIR' over a generated fleet (issue 40: 1,000 snapshots
# judged in under 5 s on one core): HOSTS snapshots (default 1000) made from
# the fixtures, one in ten with a fault (PFC off, ToS 0, a switch port with
# PFC on priority 4), every host named apart and under one of 20 leaf
# switches, taken an hour ago. Runs pinned to one CPU (taskset) for each
# output format and prints the wall and CPU time and the cost per snapshot;
# asserts nothing (a benchmark, not a test). Needs python3, taskset and bc.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROCECTL=${ROCECTL:-$ROOT/build/rocectl}
HOSTS=${HOSTS:-1000}
DIR=$(mktemp -d /tmp/rocectl-bench-fleet.XXXXXX)
trap 'rm -rf "$DIR"' EXIT

python3 - "$ROOT/tests/fixtures/hosts" "$DIR" "$HOSTS" <<'PY'
import json, sys, time
src, out, hosts = sys.argv[1], sys.argv[2], int(sys.argv[3])
kinds = ["mlx5-peer-healthy"] * 7 + ["fault-pfc-off-prio3", "fault-tos-0", "fault-peer-pfc-prio4"]
docs = {k: json.load(open("%s/%s.json" % (src, k))) for k in set(kinds)}
now = int(time.time())
for i in range(hosts):
    doc = docs[kinds[i % len(kinds)]]
    h = doc["host"]
    h["hostname"], h["time"] = "node%04d" % i, now - 3600
    for nd in h["netdevs"]:
        if nd.get("lldp", {}).get("system_name"):
            nd["lldp"]["system_name"] = "leaf-%02d" % (i // 50)
            nd["lldp"]["port_id"] = "Ethernet1/%d" % (i % 50 + 1)
    with open("%s/node%04d.json" % (out, i), "w") as f:
        json.dump(doc, f)
PY

# wall and CPU seconds of one run, pinned to CPU 0
run() {
	local t0 t1 c
	t0=$(date +%s.%N)
	c=$( { TIMEFORMAT='%U %S'; time taskset -c 0 "$ROCECTL" "$@" >/dev/null 2>&1; } 2>&1)
	t1=$(date +%s.%N)
	printf '%s %s\n' "$(echo "$t1 - $t0" | bc -l)" "$(echo "${c% *} + ${c#* }" | bc -l)"
}

printf 'doctor -i DIR over %d snapshots (%s), one CPU:\n' "$HOSTS" "$(du -sh "$DIR" | cut -f1)"
for args in "" "-j" "-o prometheus" "-o nagios" "--by switch"; do
	read -r wall cpu < <(run doctor -i "$DIR" $args)
	printf '  %-14s wall %6.3f s  cpu %6.3f s  %7.3f ms per snapshot\n' "${args:-text}" \
		"$wall" "$cpu" "$(echo "$cpu * 1000 / $HOSTS" | bc -l)"
done
"$ROCECTL" doctor -i "$DIR" | tail -1
