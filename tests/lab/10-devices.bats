#!/usr/bin/env bats
# rocectl devices against the real Soft-RoCE ports: state, GIDs and MTUs read
# through RDMA netlink, verbs and rtnetlink must equal what sysfs says.

bats_require_minimum_version 1.5.0

load lab

@test "devices shows rxe0 and rxe1 ACTIVE on their veths" {
	run -0 timeout 20 "$ROCECTL" devices
	assert_line --regexp "^$LAB_A_DEV: driver rxe "
	assert_line --regexp "^$LAB_B_DEV: driver rxe "
	assert_line --regexp "^    port 1: ACTIVE LINK_UP  Ethernet"
	assert_line --regexp "^        netdev $LAB_A_IF \(up\)  mtu 1500$"
	assert_line --regexp "^        netdev $LAB_B_IF \(up\)  mtu 1500$"
}

@test "the RoCE v2 IPv4 GID is at the index sysfs reports" {
	local dev ip idx
	for dev in "$LAB_A_DEV:$LAB_A_IP" "$LAB_B_DEV:$LAB_B_IP"; do
		ip=${dev#*:} dev=${dev%%:*}
		idx=$(lab_gid_index "$dev" "$ip")
		run -0 timeout 20 "$ROCECTL" devices -j "$dev/1"
		echo "$output" | jq -e --argjson i "$idx" --arg ip "$ip" \
			'.devices[0].ports[0].gids[] | select(.index == $i) |
			 .ip == $ip and .type == "RoCE v2" and .gid == "::ffff:" + $ip'
	done
}

# The GIDs: one jq for all of a device's and one python for their 128-bit
# values, sysfs read by the shell (under TCG every process costs 30 ms and more).
@test "JSON values equal sysfs: state, GIDs, their types and netdevs" {
	local dev sys json i type ndev g s k
	local -a idx gid ex
	for dev in "$LAB_A_DEV" "$LAB_B_DEV"; do
		sys=/sys/class/infiniband/$dev/ports/1
		json=$(timeout 20 "$ROCECTL" devices -j "$dev")
		[ "$(jq -r '.devices[0].ports[0].state' <<<"$json")" = "$(cut -d' ' -f2 "$sys/state")" ]
		# sysfs says "5: LinkUp" where RDMA netlink says 5, which rdma(8) names LINK_UP
		[ "$(cut -d: -f1 "$sys/phys_state")" = 5 ]
		[ "$(jq -r '.devices[0].ports[0].physical_state' <<<"$json")" = LINK_UP ]
		[ "$(jq -r '.devices[0].ports[0].netdev' <<<"$json")" = "$(cat "$sys/gid_attrs/ndevs/0")" ]
		idx=() gid=()
		while IFS=$'\t' read -r i type ndev g; do
			IFS= read -r s <"$sys/gid_attrs/types/$i" || s=
			[ "$type" = "$s" ] || fail "$dev GID $i: type $type, sysfs '$s'"
			IFS= read -r s <"$sys/gid_attrs/ndevs/$i" || s=
			[ "$ndev" = "$s" ] || fail "$dev GID $i: netdev $ndev, sysfs '$s'"
			idx+=("$i") gid+=("$g")
		done < <(jq -r '.devices[0].ports[0].gids[] | [.index, .type, .netdev, .gid] | @tsv' <<<"$json")
		# sysfs prints the GID as eight colon groups; compare the 128-bit values
		mapfile -t ex < <(python3 -c 'import ipaddress,sys
for a in sys.argv[1:]: print(ipaddress.ip_address(a).exploded)' "${gid[@]}")
		for k in "${!idx[@]}"; do
			IFS= read -r s <"$sys/gids/${idx[k]}" || s=
			[ "${ex[k]:-}" = "$s" ] || fail "$dev GID ${idx[k]}: ${gid[k]} is not sysfs's $s"
		done
		# the same number of non-zero GIDs as sysfs has
		[ "$(jq '.devices[0].ports[0].gids | length' <<<"$json")" = \
		  "$(grep -vc '^0000:0000:0000:0000:0000:0000:0000:0000$' "$sys"/gids/* | awk -F: '{s += $2} END {print s}')" ]
	done
}

@test "active_mtu follows the netdev MTU: 1024 at 1500, 4096 at 9000, as ibv_devinfo says" {
	run -0 timeout 20 "$ROCECTL" devices -j "$LAB_A_DEV"
	echo "$output" | jq -e '.devices[0].ports[0] | .active_mtu == 1024 and .netdev_mtu == 1500 and
		.max_mtu == 4096 and .mtu_limited_by_netdev == true'
	knob_mtu "$LAB_A_IF" 9000
	run -0 timeout 20 "$ROCECTL" devices -j "$LAB_A_DEV"
	echo "$output" | jq -e '.devices[0].ports[0] | .active_mtu == 4096 and .netdev_mtu == 9000 and
		.mtu_limited_by_netdev == false'
	run -0 timeout 20 ibv_devinfo -d "$LAB_A_DEV"
	assert_output --regexp 'active_mtu:[[:space:]]+4096'
	run -0 timeout 20 "$ROCECTL" devices "$LAB_A_DEV"
	refute_output --partial "limited by netdev mtu"
}

@test "a filter that matches nothing exits 3" {
	run -3 timeout 20 "$ROCECTL" devices mlx5_0
	run -3 timeout 20 "$ROCECTL" devices "$LAB_A_DEV/2"
}

@test "netdev filter and -j agree with the device filter" {
	local by_if by_dev
	by_if=$(timeout 20 "$ROCECTL" devices -j "$LAB_B_IF" | jq -c '.devices')
	by_dev=$(timeout 20 "$ROCECTL" devices -j "$LAB_B_DEV" | jq -c '.devices')
	[ "$(jq -r '.[0].name' <<<"$by_dev")" = "$LAB_B_DEV" ]
	[ "$by_if" = "$by_dev" ]
}
