#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/nvmf-profile.sh - where the time of 'rocectl bench nvmf' goes, in the lab:
#	LAB_SMP=2 tests/lab/lab run -- bench/nvmf-profile.sh [bench nvmf options]
# Three runs of 4k randread at QD32 (busy-poll unless the options say
# otherwise) against the lab's nvmet-rdma target:
#  1. the system calls per I/O (strace -c -f over the whole process);
#  2. the whole guest sampled with perf (cpu-clock, all CPUs): the share of
#     each thread and the hottest symbols, so that rxe's and the target's
#     softirq and kernel threads show beside rocectl's own time;
#  3. the same run without a tracer, for its IOPS.
# Not a test: nothing is asserted.
set -u
source "$(dirname "$0")/lab.bash"
SECS=${SECS:-4}
OUT=$(mktemp -d)

bench() {
	$T "$@" "$R" -j -q bench nvmf --target "$B" --nqn "$NQN" --qd 32 --time "$SECS" "${ARGS[@]}"
}
ARGS=("$@")

echo "bench nvmf profile: 4k randread QD32 ${ARGS[*]}; $(nproc) vCPU," \
	"clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
ios=$(bench | jq '.results.ios')
echo "untraced: $ios I/Os in ${SECS}s ($((ios / SECS)) IOPS)"

ios=$(bench strace -c -f -o "$OUT/strace" | jq '.results.ios')
echo "system calls per I/O under strace ($ios I/Os):"
awk -v n="$ios" '$1 ~ /^[0-9.]+$/ && NF >= 5 && $NF != "total" {
	printf "  %-24s %8.3f\n", $NF, $4 / (n > 0 ? n : 1) }' "$OUT/strace" | sort -k2 -gr | head -12

bench perf record -q -a -e cpu-clock -F 499 -o "$OUT/perf.data" -- >"$OUT/perf.json"
echo "perf, whole guest ($(jq '.results.ios' "$OUT/perf.json") I/Os): share of samples by thread"
perf report -i "$OUT/perf.data" --no-children --sort comm --stdio 2>/dev/null |
	awk '/%/ && $1 ~ /%$/ { print "  " $0 }' | head -10
echo "hottest symbols"
perf report -i "$OUT/perf.data" --no-children --sort comm,dso,sym --stdio 2>/dev/null |
	awk '/%/ && $1 ~ /%$/ { print "  " $0 }' | head -25
rm -rf "$OUT"
