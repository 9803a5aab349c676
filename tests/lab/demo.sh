#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The main job of rocectl, shown on the lab's two Soft-RoCE hosts (run by
# 'make demo' inside the lab; every command below is rocectl's real output).
set -u
ROCECTL=${ROCECTL:-$PWD/build/rocectl}
status=0
shown=()   # commands shown, in order, once each
results=() # "<command> <exit status>" for each run

has() { "$ROCECTL" __metadata | jq -e --arg c "$1" 'any(.. | objects; .path? == $c)' >/dev/null; }

# show ARGS...: run rocectl ARGS (the command's words come first, options after).
show() {
	local name=$1
	[ "$1" = bench ] && name="$1 $2"
	if [ -t 1 ]; then
		printf '\n\033[1m$ rocectl %s\033[0m\n' "$*"
	else
		printf '\n$ rocectl %s\n' "$*"
	fi
	timeout 120 "$ROCECTL" "$@"
	local rc=$?
	printf '(exit status %d)\n' "$rc"
	[[ " ${shown[*]/%/,} " == *" $name, "* ]] || shown+=("$name")
	# devices rxe0, counters rxe0: the object too, when the command names one
	[[ $name != *" "* && ${2:-} != -* ]] && [ -n "${2:-}" ] && name="$name $2"
	results+=("$name: $rc")
	# check verdicts (1, 2) are results; 3 and above mean the demo broke
	[ "$rc" -ge 3 ] && status=1
	return 0
}

echo "rocectl demo: host A = $LAB_A_DEV on $LAB_A_IF $LAB_A_IP, host B = $LAB_B_DEV on $LAB_B_IF $LAB_B_IP"
show devices "$LAB_A_DEV"
show devices "$LAB_B_DEV"
has counters && show counters "$LAB_A_DEV"
has doctor && show doctor --interval 2
if has reach && has serve; then
	timeout 60 "$ROCECTL" serve --bind "$LAB_B_IP" >/dev/null 2>&1 &
	serve_pid=$!
	sleep 1
	show reach "$LAB_B_IP" --count 20
	kill "$serve_pid" 2>/dev/null
	wait "$serve_pid" 2>/dev/null
fi
has "bench nvmf" && show bench nvmf --target "$LAB_B_IP" --nqn "$LAB_NQN" --rw randread --qd 16 --time 5

# The end, in three lines: what ran, how it ended, where to go next.
list() { local IFS=,; echo "${*}" | sed 's/,/, /g; s/\(.*\), /\1 and /'; }
echo
echo "demo: rocectl $(list "${shown[@]}") ran on two Soft-RoCE hosts in the lab ($LAB_A_DEV and $LAB_B_DEV)"
echo "demo: exit statuses: $(list "${results[@]}") (0 ok, 1 warnings, 2 failures found, 3 error)"
echo "next: the tour in README.md, 'man rocectl' (in a checkout: man -l man/rocectl.8), and 'make check' to run every test"
exit $status
