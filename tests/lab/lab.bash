# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# lab.bash - common start of every lab bats file: `load lab` from tests/lab/NN-*.bats.
# Refuses to run outside the lab (the knobs would change this machine's network),
# loads bats-support, bats-assert and the knobs, and gives the file the lab's
# usual set-up and tear-down when it has none of its own.
#
# A file that needs nothing more says `load lab` once, at its top: each test
# then runs $ROCECTL (build/rocectl unless set) and ends with lab_reset, the
# lab as it was booted. A file with more to do defines setup() or teardown()
# after that line (calling lab_reset itself), or says `load lab` inside its
# own setup(), where this file defines neither.

if [ "${LAB:-}" != 1 ] || [ -z "${LAB_DIR:-}" ]; then
	echo "lab tests run only inside the lab: make lab-check (or tests/lab/lab run bats tests/lab/)" >&2
	return 1
fi
# bats-support and bats-assert without a process per file (bats-libs.bash).
# shellcheck source=SCRIPTDIR/bats-libs.bash
source "$LAB_DIR/bats-libs.bash"
bats_libs_load bats-support bats-assert
# shellcheck source=knobs.sh source-path=SCRIPTDIR
source "$LAB_DIR/knobs.sh"

ROCECTL=${ROCECTL:-$PWD/build/rocectl}
# Loaded at a file's top, not from its setup(): the usual set-up and tear-down
# (bats' own defaults do nothing), which the file may still define below.
if [[ " ${FUNCNAME[*]} " != *" setup "* ]]; then
	setup() { :; }
	teardown() { lab_reset; }
fi

# counters_snapshot NAME: remember the A->B wire counters under NAME.
counters_snapshot() {
	local -n snap=$1
	# shellcheck disable=SC2034 # a nameref: the caller reads it
	snap=(
		"$(lab_hw_counter "$LAB_A_DEV" sent_pkts)" "$(lab_hw_counter "$LAB_B_DEV" rcvd_pkts)"
		"$(lab_if_stat "$LAB_A_IF" tx_packets)" "$(lab_if_stat "$LAB_B_IF" rx_packets)"
	)
}

# assert_crossed NAME MIN: at least MIN packets went from rxe A out of veth A into
# veth B and rxe B since the snapshot NAME (and not over lo).
assert_crossed() {
	local -n before=$1
	local min=$2 i now
	local names=("$LAB_A_DEV sent_pkts" "$LAB_B_DEV rcvd_pkts" "$LAB_A_IF tx_packets" "$LAB_B_IF rx_packets")
	counters_snapshot now
	for i in 0 1 2 3; do
		if [ $((now[i] - before[i])) -lt "$min" ]; then
			fail "${names[i]} grew by $((now[i] - before[i])), want >= $min"
		fi
	done
}

# serve_start [ARGS...]: rocectl serve on B in the background ($SERVE, else
# $ROCECTL), its output in $SERVE_LOG, the pid of the timeout around it in
# SERVE_PID; fails unless it listens within 10 s. serve_stop ends it.
serve_start() {
	timeout 120 "${SERVE:-$ROCECTL}" serve --bind "$LAB_B_IP" "$@" >"$SERVE_LOG" 2>&1 &
	SERVE_PID=$!
	lab_wait 10 lab_cm_listening "$LAB_B_IP" 18520 || fail "serve is not listening"
}

serve_stop() {
	[ -n "${SERVE_PID:-}" ] || return 0
	lab_stop "$SERVE_PID"
	SERVE_PID=
}
