#!/usr/bin/env bats
# rocectl collect on stacked netdevs, live: a VLAN on the RoCE netdev (its id,
# real device and egress-qos-map, read over rtnetlink) and a bond above a
# RoCE port with all its slaves. Each test removes what it made.

bats_require_minimum_version 1.5.0

setup() {
	load lab
	ROCECTL=${ROCECTL:-$PWD/build/rocectl}
	SNAP=$BATS_TEST_TMPDIR/host.json
	VLAN=$LAB_A_IF.100
}

teardown() {
	rdma link delete rxe_lag 2>/dev/null || :
	ip link del "$VLAN" 2>/dev/null || :
	ip link del rlag0 2>/dev/null || :
	ip link del lagp0 2>/dev/null || :
	ip link del lagq0 2>/dev/null || :
	lab_reset
}

# Whether DEV has a RoCE v2 GID whose netdev is IF.
gid_on() {
	grep -qx "$2" /sys/class/infiniband/"$1"/ports/1/gid_attrs/ndevs/* 2>/dev/null
}

@test "collect: a VLAN on the RoCE netdev, with its id, real device and egress-qos-map" {
	modprobe 8021q
	ip link add link "$LAB_A_IF" name "$VLAN" type vlan id 100 egress-qos-map 2:3 5:1 9:7
	ip addr add 10.0.100.1/24 dev "$VLAN"
	ip link set "$VLAN" mtu 1400 up
	lab_wait 10 gid_on "$LAB_A_DEV" "$VLAN" || fail "no GID of $LAB_A_DEV on $VLAN"
	run -0 timeout 30 "$ROCECTL" collect -O "$SNAP"
	jq -e --arg v "$VLAN" --arg l "$LAB_A_IF" '.schema_version == 4 and
		(.host.netdevs[] | select(.name == $v) | .kind == "vlan" and .vlan_id == 100 and
		 .vlan_lower == $l and .vlan_egress_qos == [0,0,3,0,0,1,0,0] and .mtu == 1400 and
		 .master == null and ([.addrs[].ip] | index("10.0.100.1") != null)) and
		(.host.netdevs[] | select(.name == $l) | .vlan_id == 0 and .vlan_lower == null)' "$SNAP"
	# The VLAN's MTU bounds RoCE on its GIDs: 1400 carries RoCE MTU 1024 only.
	run -2 "$ROCECTL" check mtu --input "$SNAP" --mtu 2048
	assert_line "  FAIL    mtu.active  $LAB_A_DEV/1 ($VLAN)"
	assert_line "           the MTU 1400 of '$VLAN' bounds RoCE on its GIDs to 1024, below the intended 2048"
	assert_line "           fix: ip link set dev $VLAN mtu 2144"
}

@test "collect: the bond above a RoCE port and every slave of it" {
	modprobe bonding max_bonds=0
	ip link add rlag0 type bond mode active-backup
	ip link add lagp0 type veth peer name lagp1
	ip link add lagq0 type veth peer name lagq1
	ip link set lagp0 master rlag0
	ip link set lagq0 master rlag0
	ip link set rlag0 up
	rdma link add rxe_lag type rxe netdev lagp0
	run -0 timeout 30 "$ROCECTL" collect -O "$SNAP"
	jq -e '(.host.netdevs | map(.name) | index("rlag0") != null and index("lagq0") != null) and
		(.host.netdevs[] | select(.name == "rlag0") | .kind == "bond" and .master == null) and
		([.host.netdevs[] | select(.master == "rlag0") | .name] | sort == ["lagp0", "lagq0"]) and
		([.host.netdevs[].name] | index("lagp1") == null)' "$SNAP"
}
