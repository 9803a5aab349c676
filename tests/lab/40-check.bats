#!/usr/bin/env bats
# rocectl doctor and check on the real Soft-RoCE hosts: what rxe cannot tell
# (DCB on a veth) is unknown, never a failure; rdma_cm knobs set through
# configfs are caught; and doctor changes nothing in configfs or sysfs.

bats_require_minimum_version 1.5.0

setup() {
	load lab
	ROCECTL=${ROCECTL:-$PWD/build/rocectl}
}

teardown() {
	# The lldpad stand-ins of the lldpad test, if it left them.
	local p
	if [ -s "$BATS_TEST_TMPDIR/pids" ]; then
		while read -r p; do
			if kill -0 "$p" 2>/dev/null; then kill "$p"; fi
		done <"$BATS_TEST_TMPDIR/pids"
	fi
	knob_roce_cm_reset "$LAB_A_DEV"
	knob_mtu "$LAB_A_IF" 1500
	lab_reset
}

# Non-pass findings of a JSON verdict as "id:status" for target DEV.
findings_of() {
	jq -r --arg d "$1/" '.findings[] | select(.status != "pass") |
		select(.target | startswith($d)) | "\(.id):\(.status)"'
}

@test "doctor on rxe: DCB is unknown (not supported by the driver), not failed; exit 3" {
	# ToS as intended, so that only what rxe cannot tell is left.
	knob_roce_tos "$LAB_A_DEV" 106
	knob_roce_tos "$LAB_B_DEV" 106
	run -3 --separate-stderr timeout 60 "$ROCECTL" doctor -j --interval 1 --mtu 1024
	echo "$output" | jq -e '.summary.exit_status == 3 and .summary.fail == 0 and .summary.unknown > 0'
	# PFC, the APP table and DCQCN of both veths are unknown with the kernel's reason.
	for id in pfc.prio_disabled dscp.trust_pcp dcqcn.params; do
		for nd in "$LAB_A_IF" "$LAB_B_IF"; do
			echo "$output" | jq -e --arg id "$id" --arg nd "$nd" '
				[.findings[] | select(.id == $id and (.target | endswith("(" + $nd + ")")))] |
				length == 1 and .[0].status == "unknown"'
		done
	done
	echo "$output" | jq -e '.findings[] | select(.id == "pfc.prio_disabled") |
		.message | test("not supported")'
	# What rxe can tell passes: ports ACTIVE, RoCE v2 GIDs, rdma_cm mode.
	echo "$output" | jq -e '[.findings[] | select(.id == "mode.roce_disabled" or
		.id == "gid.no_v2" or .id == "mode.roce_v1") | .status] | length >= 6 and all(. == "pass")'
	echo "$output" | jq -e '[.findings[] | select(.id == "counters.loss_budget")] | length == 2'
}

@test "roce mode v1 set through configfs: check mode fails" {
	local mode=$LAB_RDMA_CM/$LAB_A_DEV/ports/1/default_roce_mode
	if knob_roce_mode "$LAB_A_DEV" 1 2>/dev/null; then
		run -2 --separate-stderr timeout 30 "$ROCECTL" check mode -j --dev "$LAB_A_DEV"
	else
		# rxe has no RoCE v1 GIDs, so the kernel refuses "IB/RoCE v1" (EINVAL) and
		# keeps v2: judge the real configfs value against an intent of v1 instead.
		[ "$(cat "$mode")" = "RoCE v2" ]
		printf 'roce_mode = v1\n' >"$BATS_TEST_TMPDIR/v1.conf"
		run -2 --separate-stderr timeout 30 "$ROCECTL" check mode -j --dev "$LAB_A_DEV" \
			--config "$BATS_TEST_TMPDIR/v1.conf"
	fi
	run -0 findings_of "$LAB_A_DEV" <<<"$output"
	assert_line "mode.roce_v1:fail"
	run -2 timeout 30 "$ROCECTL" check mode --dev "$LAB_A_DEV" --config "$BATS_TEST_TMPDIR/v1.conf"
	assert_line --partial "fix: mkdir -p /sys/kernel/config/rdma_cm/$LAB_A_DEV && echo 'IB/RoCE v1' > /sys/kernel/config/rdma_cm/$LAB_A_DEV/ports/1/default_roce_mode"
}

@test "tos 0 is a warning; tos as intended passes" {
	knob_roce_tos "$LAB_A_DEV" 0
	run -1 --separate-stderr timeout 30 "$ROCECTL" check mode -j --dev "$LAB_A_DEV"
	run -0 findings_of "$LAB_A_DEV" <<<"$output"
	assert_output "mode.tos:warn"
	knob_roce_tos "$LAB_A_DEV" 106
	run -0 timeout 30 "$ROCECTL" check mode --dev "$LAB_A_DEV"
}

@test "MTU 1500 against intent 4096 is a finding; 9000 passes" {
	run -2 --separate-stderr timeout 30 "$ROCECTL" check mtu -j --dev "$LAB_A_DEV"
	echo "$output" | jq -e '.findings[] | select(.id == "mtu.active") |
		.status == "fail" and (.got | startswith("active_mtu 1024, netdev mtu 1500"))'
	knob_mtu "$LAB_A_IF" 9000
	lab_wait "$LAB_WAIT" mtu_is "$LAB_A_DEV" 4096
	run -0 timeout 30 "$ROCECTL" check mtu --dev "$LAB_A_DEV"
}

mtu_is() {
	[ "$(lab_active_mtu "$1")" = "$2" ]
}

# Everything configfs and sysfs show about RDMA, rdma_cm and the veths.
state_listing() {
	{
		find /sys/kernel/config | sort
		for f in /sys/kernel/config/rdma_cm/*/ports/*/default_roce_*; do
			[ -e "$f" ] && echo "$f=$(cat "$f")"
		done
		for d in /sys/class/infiniband/*/ports/*; do
			ls "$d" "$d/gids"
		done
		for i in "$LAB_A_IF" "$LAB_B_IF"; do
			cat "/sys/class/net/$i/mtu" "/sys/class/net/$i/operstate" "/sys/class/net/$i/flags"
			ls "/sys/class/net/$i"
		done
		ls /sys/kernel/debug 2>/dev/null
	} 2>&1
}

@test "doctor leaves configfs and sysfs unchanged" {
	knob_roce_tos "$LAB_B_DEV" 106	# one rdma_cm directory exists, the other does not
	state_listing >"$BATS_TEST_TMPDIR/before"
	grep -qx "/sys/kernel/config/rdma_cm/$LAB_B_DEV/ports/1/default_roce_tos=106" "$BATS_TEST_TMPDIR/before"
	# A's ToS 0 warns: the warning decides the exit, not the unknowns beside it
	run -1 timeout 60 "$ROCECTL" doctor --interval 1 --mtu 1024
	state_listing >"$BATS_TEST_TMPDIR/after"
	diff "$BATS_TEST_TMPDIR/before" "$BATS_TEST_TMPDIR/after"
	[ ! -d "/sys/kernel/config/rdma_cm/$LAB_A_DEV" ]
}

@test "collect loads the verbs provider of rxe only, and has every verbs fact" {
	strace -f -qq -e trace=openat -o "$BATS_TEST_TMPDIR/open" \
		"$ROCECTL" collect >"$BATS_TEST_TMPDIR/snap.json"
	# libibverbs alone loads every provider installed (rdma-core load_drivers()).
	run -0 grep -o 'libibverbs/lib[^"/]*-rdmav[0-9]*\.so' "$BATS_TEST_TMPDIR/open"
	assert_output --regexp '^libibverbs/librxe-rdmav[0-9]+\.so$'
	jq -e '[.host.devices[].ports[] | .link_layer == "Ethernet" and .active_mtu == 1024 and
		.max_mtu == 4096 and any(.gids[]; .type == "RoCE v2" and .ip != null)] |
		length == 2 and all' "$BATS_TEST_TMPDIR/snap.json"
}

@test "lldpad: the process list is read only when lldpad's control socket exists, and then it is found" {
	strace -f -qq -e trace=openat -o "$BATS_TEST_TMPDIR/open" \
		"$ROCECTL" collect >"$BATS_TEST_TMPDIR/snap.json"
	run -1 grep -c '"/proc/[0-9]*/comm"' "$BATS_TEST_TMPDIR/open"
	assert_output 0
	jq -e '.host.procs.ok and .host.lldpad_running == false' "$BATS_TEST_TMPDIR/snap.json"
	# Its socket (openlldp include/clif_sock.h: abstract "/com/intel/lldpad") and a process named lldpad.
	python3 -c 'import socket, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind("\0/com/intel/lldpad")
time.sleep(120)' &
	echo $! >>"$BATS_TEST_TMPDIR/pids"
	cp /bin/sleep "$BATS_TEST_TMPDIR/lldpad"
	"$BATS_TEST_TMPDIR/lldpad" 120 &
	local pid=$!
	echo $pid >>"$BATS_TEST_TMPDIR/pids"
	lab_wait 60 grep -q ' @/com/intel/lldpad$' /proc/net/unix
	"$ROCECTL" collect >"$BATS_TEST_TMPDIR/snap.json"
	jq -e --argjson pid "$pid" '.host.procs.ok and .host.lldpad_running and .host.lldpad_pid == $pid' \
		"$BATS_TEST_TMPDIR/snap.json"
}
