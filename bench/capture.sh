#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 'rocectl capture -r' against 'tshark -T fields' on the same file: PACKETS
# (default 1000000) RoCE v2 frames of 64 flows (RC SEND ONLY at DSCP 26
# ECT(0), every 100th a CNP) written by tests/cli/lib/roce_pcap.py. Prints
# each tool's wall time and the ratio tshark/rocectl; asserts nothing, but
# fails when the two do not count the same packets per DSCP and ECN.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROCECTL=${ROCECTL:-$ROOT/build/rocectl}
PACKETS=${PACKETS:-1000000}
DIR=$(mktemp -d /tmp/rocectl-bench-capture.XXXXXX)
trap 'rm -rf "$DIR"' EXIT

per=$((PACKETS / 64))
specs=()
for i in $(seq 0 63); do
	specs+=("data:1:2:$((0x100 + i)):106:$((per - per / 100))" "cnp:2:1:$((0x100 + i)):193:$((per / 100))")
done
python3 "$ROOT/tests/cli/lib/roce_pcap.py" "$DIR/b.pcap" "${specs[@]}"
n=$(( (per - per / 100 + per / 100) * 64 ))

now() { date +%s.%N; }
t0=$(now)
"$ROCECTL" -j capture -r "$DIR/b.pcap" >"$DIR/ours.json"
t1=$(now)
tshark -r "$DIR/b.pcap" -T fields -e ip.dsfield.dscp -e ip.dsfield.ecn -e infiniband.bth.destqp \
	2>/dev/null >"$DIR/theirs.txt"
t2=$(now)

ours=$(jq -r '[.flows[] | (.marks + .cnp_marks)[] | "\(.dscp) \(.ecn)"] | group_by(.) | .[] | .[0]' \
	"$DIR/ours.json" | sort)
[ "$(jq '.capture.roce_packets' "$DIR/ours.json")" -eq "$n" ] ||
	{ echo "bench/capture.sh: rocectl decoded $(jq '.capture.roce_packets' "$DIR/ours.json") of $n" >&2; exit 1; }
[ "$(wc -l <"$DIR/theirs.txt")" -eq "$n" ] || { echo "bench/capture.sh: tshark read $(wc -l <"$DIR/theirs.txt") of $n" >&2; exit 1; }
[ -n "$ours" ] || exit 1
printf 'packets %d (64 flows)\nrocectl capture -r  %.2f s\ntshark -T fields    %.2f s\nratio tshark/rocectl %.1f\n' \
	"$n" "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)" "$(echo "($t2 - $t1) / ($t1 - $t0)" | bc -l)"
