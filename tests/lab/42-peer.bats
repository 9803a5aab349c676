#!/usr/bin/env bats
# rocectl check peer on the real Soft-RoCE hosts (rocectl-check(8), SWITCH
# PORT): an lldpd on B's veth plays the switch port, advertising the 802.1Qaz
# and 802.3 TLVs as custom TLVs (lldpd 1.0.16 sends them as given); rocectl on
# A reads them through a receive-only lldpd on A's veth, or, with that one
# stopped, from one frame it captures itself. Both run only in the guest.

bats_require_minimum_version 1.5.0

# The "switch": its control socket, so it is not the one rocectl asks.
SW_SOCK=/run/rocectl-lab-switch.socket
# PFC on 3; DSCP 26 -> 3 and 48 -> 6; prio 3 in TC 3 with 50 %; MFS 1522.
PFC_3=08,08
APP_INTENT=00,65,00,1a,c5,00,30
ETS_INTENT=08,00,03,00,60,32,00,00,32,00,00,00,00,02,02,02,02,02,02,00,02
MFS_1522=05,f2

setup() {
	load lab
	ROCECTL=${ROCECTL:-$PWD/build/rocectl}
	PIDS=()
}

teardown() {
	local p
	# An lldpd a test already stopped is not killed again; one that is
	# killed must be gone within 10 s, or the teardown fails.
	for p in "${PIDS[@]}"; do
		if kill "$p" 2>/dev/null; then
			timeout 10 tail --pid="$p" -f /dev/null
		fi
	done
	rm -f "$SW_SOCK" /run/lldpd.socket
	lab_reset
}

# lldpd_start LOG ARGS...: one lldpd in the foreground (-d), its pid kept for teardown.
lldpd_start() {
	local log=$1
	shift
	lldpd -d "$@" >"$BATS_TEST_TMPDIR/$log" 2>&1 &
	PIDS+=("$!")
}

# switch_port PFC APP ETS MFS: lldpd on B's veth as a switch port named
# leaf-07, sending every second the custom TLVs given ("-" leaves one out).
switch_port() {
	local pfc=$1 app=$2 ets=$3 mfs=$4 c="lldpcli -u $SW_SOCK"
	local tlv="configure ports $LAB_B_IF lldp custom-tlv add"
	lldpd_start switch.log -I "$LAB_B_IF" -u "$SW_SOCK"
	lab_wait 10 $c show configuration >/dev/null || fail "the switch's lldpd did not start"
	$c configure system hostname leaf-07 >/dev/null
	$c configure lldp portidsubtype ifname >/dev/null
	$c configure lldp tx-interval 1 >/dev/null
	[ "$pfc" = - ] || $c $tlv oui 00,80,c2 subtype 11 oui-info "$pfc" >/dev/null
	[ "$app" = - ] || $c $tlv oui 00,80,c2 subtype 12 oui-info "$app" >/dev/null
	[ "$ets" = - ] || $c $tlv oui 00,80,c2 subtype 9 oui-info "$ets" >/dev/null
	[ "$mfs" = - ] || $c $tlv oui 00,12,0f subtype 4 oui-info "$mfs" >/dev/null
}

# neighbor_has PATTERN: A's lldpd holds a neighbour on veth0 whose key=value dump matches.
neighbor_has() {
	lldpcli show neighbors ports "$LAB_A_IF" details -f keyvalue 2>/dev/null | grep -q -- "$1"
}

# host_lldpd PATTERN: a receive-only lldpd on A's veth, waited for until it
# holds the switch's neighbour with PATTERN in it.
host_lldpd() {
	lldpd_start host.log -r -I "$LAB_A_IF"
	lab_wait 20 neighbor_has "$1" || fail "A's lldpd has no neighbour matching '$1'"
}

# Non-pass findings of A's port as "id:status".
not_passed() {
	jq -r '.findings[] | select(.status != "pass") | "\(.id):\(.status)"'
}

@test "through lldpd: a switch port that matches the intent passes, and devices shows it" {
	switch_port "$PFC_3" "$APP_INTENT" "$ETS_INTENT" "$MFS_1522"
	host_lldpd "unknown-tlv"
	run -0 --separate-stderr timeout 30 "$ROCECTL" check peer -j --dev "$LAB_A_DEV" --mtu 1024
	echo "$output" | jq -e '[.findings[] | .id] | index("peer.neighbor") != null and
		index("peer.pfc_prio") != null and index("peer.app_dscp") != null and
		index("peer.ets") != null and index("peer.mfs") != null'
	run -0 timeout 30 "$ROCECTL" devices "$LAB_A_DEV"
	assert_line --regexp "^ +neighbor leaf-07 port $LAB_B_IF \(lldpd\)  mfs 1522  pfc 3$"
	run -0 --separate-stderr timeout 60 "$ROCECTL" collect
	echo "$output" | jq -e --arg i "$LAB_A_IF" '.host.netdevs[] | select(.name == $i) | .lldp |
		.ok and .source == "lldpd" and .system_name == "leaf-07" and .mfs == 1522 and
		.pfc_en[3] and ([.apps[] | select(.selector == 5)] | length == 2)'
}

@test "through lldpd: PFC on priority 4 fails on the switch side" {
	switch_port 08,10 "$APP_INTENT" "$ETS_INTENT" "$MFS_1522"
	host_lldpd "unknown-tlv"
	run -2 --separate-stderr timeout 30 "$ROCECTL" check peer -j --dev "$LAB_A_DEV" --mtu 1024
	run -0 not_passed <<<"$output"
	assert_output "$(printf '%s\n' peer.pfc_prio:fail peer.pfc_extra:warn)"
	run -2 timeout 30 "$ROCECTL" check peer --dev "$LAB_A_DEV" --mtu 1024
	assert_line --regexp "^ +fix: switch leaf-07 port $LAB_B_IF: enable PFC \(no-drop\) on priority 3$"
	assert_line --regexp "^ +expected switch PFC on 3, got switch PFC on 4$"
}

@test "through lldpd: a DSCP map that sends DSCP 26 to priority 4 fails" {
	switch_port "$PFC_3" 00,85,00,1a,c5,00,30 "$ETS_INTENT" "$MFS_1522"
	host_lldpd "unknown-tlv"
	run -2 --separate-stderr timeout 30 "$ROCECTL" check peer -j --dev "$LAB_A_DEV" --mtu 1024
	run -0 not_passed <<<"$output"
	assert_output "peer.app_dscp:fail"
}

@test "through lldpd: a willing switch is read; an MFS below the host's frames fails" {
	switch_port 88,08 "$APP_INTENT" "$ETS_INTENT" 05,00
	host_lldpd "unknown-tlv"
	run -2 --separate-stderr timeout 30 "$ROCECTL" check peer -j --dev "$LAB_A_DEV" --mtu 1024
	run -0 not_passed <<<"$output"
	assert_output "peer.mfs:fail"
	run -2 timeout 30 "$ROCECTL" check peer --dev "$LAB_A_DEV" --mtu 1024
	assert_line --regexp "^ +expected switch MFS >= 1518 \(MTU 1500 \+ 14 Ethernet header \+ 4 FCS\), got switch MFS 1280$"
	# veth has no dcbnl: the host's willing bit is unknown, so peer.willing
	# does not judge (the fixtures do); the switch's bit is in the snapshot.
	run -0 --separate-stderr timeout 60 "$ROCECTL" collect
	echo "$output" | jq -e --arg i "$LAB_A_IF" '.host.netdevs[] | select(.name == $i) | .lldp |
		.pfc_willing == true and .mfs == 1280'
}

@test "capture: without lldpd on A, --lldp-wait reads one frame of the switch" {
	switch_port 08,10 "$APP_INTENT" "$ETS_INTENT" "$MFS_1522"
	run -3 --separate-stderr timeout 30 "$ROCECTL" check peer -j --dev "$LAB_A_DEV" --mtu 1024
	echo "$output" | jq -e '[.findings[] | select(.id == "peer.neighbor")][0] |
		.status == "unknown" and (.message | test("lldpd does not run .*no --lldp-wait was given"))'
	run -2 --separate-stderr timeout 30 "$ROCECTL" check peer -j --dev "$LAB_A_DEV" --mtu 1024 --lldp-wait 10
	run -0 not_passed <<<"$output"
	assert_output "$(printf '%s\n' peer.pfc_prio:fail peer.pfc_extra:warn)"
	run -0 timeout 30 "$ROCECTL" devices "$LAB_A_DEV" --lldp-wait 10
	assert_line --regexp "^ +neighbor leaf-07 port $LAB_B_IF \(capture\)  mfs 1522  pfc 4$"
}

@test "capture: doctor listens during its interval" {
	switch_port "$PFC_3" "$APP_INTENT" "$ETS_INTENT" "$MFS_1522"
	# veth's warnings decide the exit, the unknowns beside them do not hide them
	run -1 --separate-stderr timeout 60 "$ROCECTL" doctor -j --interval 3 --dev "$LAB_A_DEV" --mtu 1024
	echo "$output" | jq -e '[.findings[] | select(.area == "peer")] |
		(map(.status) | unique) == ["pass"] and (map(.id) | index("peer.pfc_prio")) != null'
}

@test "capture: nothing sent times out cleanly, unknown with the reason" {
	local t0=$SECONDS
	run -3 --separate-stderr timeout 30 "$ROCECTL" check peer -j --dev "$LAB_A_DEV" --lldp-wait 2
	[ $((SECONDS - t0)) -lt 10 ]
	echo "$output" | jq -e '[.findings[] | select(.area == "peer")] | length == 1 and
		.[0].id == "peer.neighbor" and .[0].status == "unknown" and
		(.[0].message | test("no LLDP frame came in 2(\\.[0-9])? s"))'
}

@test "capture: without CAP_NET_RAW the neighbour is unknown, and the reason says so" {
	switch_port "$PFC_3" "$APP_INTENT" "$ETS_INTENT" "$MFS_1522"
	run -3 --separate-stderr timeout 30 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$ROCECTL" check peer -j --dev "$LAB_A_DEV" --lldp-wait 2
	echo "$output" | jq -e '[.findings[] | select(.area == "peer")] | length == 1 and
		(.[0].message | test("capturing LLDP needs CAP_NET_RAW"))'
}
