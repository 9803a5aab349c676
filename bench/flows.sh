#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The flows/traffic path on a host with QPS QPs (issue 41, item 5; default
# 100000): a snapshot made from tests/fixtures/hosts/fault-nccl-no-tc.json
# whose NCCL process is copied into CONSUMERS processes (default 1000),
# each holding QPS/CONSUMERS RC QPs. The model keeps the first
# RCTL_RES_LIST_MAX (4096) QPs listed and the rest counted per (device,
# port, owner, type, state), up to RCTL_RES_COUNT_MAX (1024) groups
# (include/rocectl/model.h): the snapshot holds what the collector keeps
# of such a dump. 'flows -i' and 'check traffic -i' of it, their CPU time
# and its ratio to the same command on the fixture (17 QPs). Asserts
# nothing. Needs jq and bc. This reads the snapshot, not the netlink dump:
# the parse of RES_QP_GET (lib/rdma_nl.c) is not in the figure.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROCECTL=${ROCECTL:-$ROOT/build/rocectl}
QPS=${QPS:-100000}
CONSUMERS=${CONSUMERS:-1000}
FIX=$ROOT/tests/fixtures/hosts/fault-nccl-no-tc.json
DIR=$(mktemp -d /tmp/rocectl-bench-flows.XXXXXX)
trap 'rm -rf "$DIR"' EXIT

jq -c --argjson qps "$QPS" --argjson n "$CONSUMERS" '
	.host.rdma_resources as $r |
	($r.entries | map(select(.owner == "all_reduce_perf"))[0]) as $e |
	($r.consumers | map(select(.name == "all_reduce_perf"))[0]) as $c |
	($qps / $n | floor) as $per |
	.host.rdma_resources.consumers = ($r.consumers | map(select(.name != "all_reduce_perf"))) +
		[range($n) as $i | $c | .pid = (if $i == 0 then 4242 else 10000 + $i end) | .qps = $per] |
	.host.rdma_resources.entries = ($r.entries | map(select(.owner != "all_reduce_perf"))) +
		[range([$qps, 4096 - ($r.entries | length)] | min) as $q | $e |
		 .pid = (($q / $per | floor) as $k | if $k == 0 then 4242 else 10000 + $k end) |
		 .lqpn = 100 + $q] |
	.host.rdma_resources.unlisted = $qps - ([$qps, 4096 - ($r.entries | length)] | min) |
	.host.rdma_resources.counts = ($r.counts | map(select(.owner != "all_reduce_perf"))) +
		[range($n) as $i | ($r.counts | map(select(.owner == "all_reduce_perf"))[0]) |
		 .pid = (if $i == 0 then 4242 else 10000 + $i end) | .count = $per] |
	.host.rdma_resources.qps = $qps + 1
' "$FIX" >"$DIR/big.json" || exit 1

# cpu CMD FILE REPS: user + system seconds of one run, the mean of REPS.
cpu() {
	# shellcheck disable=SC2016
	/usr/bin/time -f '%U %S' -o "$DIR/t" bash -c \
		'for ((i = 0; i < $3; i++)); do "$0" $1 -i "$2" >/dev/null 2>>"$4" ||
		[ $? -le 2 ] || exit 3; done' "$ROCECTL" "$1" "$2" "$3" "$DIR/err" ||
		{ echo "rocectl $1: $(tail -1 "$DIR/err")" >&2; exit 1; }
	read -r u s <"$DIR/t"
	echo "scale=4; ($u + $s) / $3" | bc
}

printf '%-16s %10s %10s %8s\n' COMMAND FIXTURE_S "${QPS}QP_S" RATIO
for c in "flows" "check traffic" "doctor"; do
	a=$(cpu "$c" "$FIX" 50) b=$(cpu "$c" "$DIR/big.json" 3)
	printf '%-16s %10s %10s %8s\n' "$c" "$a" "$b" "$(echo "scale=1; $b / $a" | bc)"
done
