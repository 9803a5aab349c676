#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Each fault knob of knobs.sh has its effect and its undo, and lab_reset brings
# the whole baseline back.

load lab

@test "knob_drop_roce: rping fails within its timeout; knob_restore_roce: it passes" {
	local start dropped
	knob_drop_roce
	run nft list table inet "$LAB_NFT_TABLE"
	assert_success
	assert_output --partial 'udp dport 4791'
	start=$SECONDS
	run lab_rping 1 64 5
	assert_failure
	[ $((SECONDS - start)) -lt 30 ] || fail "rping took $((SECONDS - start))s to fail"
	# It failed because RoCE packets were dropped, not for another reason.
	dropped=$(nft list table inet "$LAB_NFT_TABLE" | sed -n 's/.*counter packets \([0-9]*\).*/\1/p')
	[ "${dropped:-0}" -gt 0 ] || fail "the drop rule matched no packet"
	knob_restore_roce
	run nft list table inet "$LAB_NFT_TABLE"
	assert_failure
	run lab_rping 3 64 20
	assert_success
}

@test "knob_drop_roce IF only drops what arrives on IF" {
	knob_drop_roce "$LAB_B_IF"
	run nft list table inet "$LAB_NFT_TABLE"
	assert_output --regexp "iifname \"$LAB_B_IF\" udp dport 4791"
	run lab_rping 1 64 5
	assert_failure
	knob_restore_roce
}

@test "knob_mtu: 9000 gives active_mtu 4096, 1500 gives 1024" {
	knob_mtu "$LAB_A_IF" 9000
	run lab_active_mtu "$LAB_A_DEV"
	assert_output 4096
	knob_mtu "$LAB_A_IF" 1500
	run lab_active_mtu "$LAB_A_DEV"
	assert_output 1024
}

@test "knob_nvmet_port_remove: discover fails; knob_nvmet_port_add: it works again" {
	knob_nvmet_port_remove
	run lab_nvmet_port_enabled
	assert_failure
	run timeout 30 nvme discover -t rdma -a "$LAB_B_IP" -s "$LAB_PORT"
	assert_failure
	knob_nvmet_port_add
	run timeout 30 nvme discover -t rdma -a "$LAB_B_IP" -s "$LAB_PORT"
	assert_success
	assert_output --regexp "subnqn:[[:space:]]+$LAB_NQN"
}

@test "knob_netem: loss and delay show in tc; knob_netem_clear removes them" {
	knob_netem "$LAB_A_IF" loss 5%
	run tc qdisc show dev "$LAB_A_IF"
	assert_output --regexp 'qdisc netem .*loss 5%'
	knob_netem "$LAB_B_IF" "delay 10ms"
	run tc qdisc show dev "$LAB_B_IF"
	assert_output --regexp 'qdisc netem .*delay 10ms'
	knob_netem_clear "$LAB_A_IF"
	knob_netem_clear "$LAB_B_IF"
	run tc qdisc show
	refute_output --partial netem
	# Clearing twice is harmless.
	knob_netem_clear "$LAB_A_IF"
}

# ping's own sendmsg() would say if the kernel refused the packet to the sender:
# the hop loses it on the way instead, and counts it.
@test "knob_hop_mtu: a packet over the hop's MTU leaves the sender and is lost; clear lets it through" {
	knob_mtu "$LAB_A_IF" 9000
	knob_mtu "$LAB_B_IF" 9000
	knob_hop_mtu 1500
	# 1472 bytes of ICMP data make a 1500-byte IPv4 packet.
	run timeout 10 ping -c 1 -W 2 -M do -s 1472 -I "$LAB_A_IP" "$LAB_B_IP"
	assert_success
	run timeout 10 ping -c 1 -W 1 -M do -s 1473 -I "$LAB_A_IP" "$LAB_B_IP"
	assert_failure
	assert_output --partial '100% packet loss'
	refute_output --partial 'sendmsg'
	run nft list table inet "$LAB_NFT_HOP"
	assert_output --regexp 'ip length > 1500 counter packets 1 '
	knob_hop_mtu_clear
	run timeout 10 ping -c 1 -W 2 -M do -s 3000 -I "$LAB_A_IP" "$LAB_B_IP"
	assert_success
	# Clearing twice is harmless.
	knob_hop_mtu_clear
}

@test "knob_link: down takes the rxe port DOWN, up brings it ACTIVE and traffic back" {
	knob_link "$LAB_A_IF" down
	assert_equal "$(lab_port_state "$LAB_A_DEV")" DOWN
	run timeout 20 ibv_devinfo -d "$LAB_A_DEV"
	assert_output --regexp 'state:[[:space:]]+PORT_DOWN'
	knob_link "$LAB_A_IF" up
	assert_equal "$(lab_port_state "$LAB_A_DEV")" ACTIVE
	lab_ping_crosses
	run lab_rping 3 64 20
	assert_success
}

@test "knob_roce_mode / knob_roce_tos write rdma_cm configfs and read back" {
	local d=$LAB_RDMA_CM/$LAB_A_DEV/ports/1
	knob_roce_mode "$LAB_A_DEV" 2
	assert_equal "$(cat "$d/default_roce_mode")" "RoCE v2"
	knob_roce_tos "$LAB_A_DEV" 106
	assert_equal "$(cat "$d/default_roce_tos")" 106
	# rxe implements RoCE v2 only: the kernel refuses v1 and keeps v2.
	run knob_roce_mode "$LAB_A_DEV" 1
	assert_failure
	assert_equal "$(cat "$d/default_roce_mode")" "RoCE v2"
	knob_roce_cm_reset "$LAB_A_DEV"
	[ ! -e "$LAB_RDMA_CM/$LAB_A_DEV" ] || fail "the knob's configfs directory was left behind"
}

@test "knob_roce_cm_reset keeps a configfs directory it did not create" {
	local d=$LAB_RDMA_CM/$LAB_B_DEV
	mkdir "$d"
	knob_roce_tos "$LAB_B_DEV" 32
	knob_roce_cm_reset "$LAB_B_DEV"
	[ -d "$d" ] || fail "removed a directory the knobs did not create"
	assert_equal "$(cat "$d/ports/1/default_roce_tos")" 0
	rmdir "$d"
}

@test "knob_rx_cpu: steers a side's receive work to a CPU; '-' gives it back" {
	knob_rx_cpu "$LAB_B_IF" 0
	assert_equal "$(lab_rx_cpus "$LAB_B_IF")" 1
	run lab_rping 3 64 20
	assert_success
	run knob_rx_cpu "$LAB_B_IF" "$(nproc)"
	assert_failure
	assert_output --partial "no CPU '$(nproc)'"
	assert_equal "$(lab_rx_cpus "$LAB_B_IF")" 1
	knob_rx_cpu "$LAB_B_IF" -
	assert_equal "$(lab_rx_cpus "$LAB_B_IF")" 0
}

@test "knob_cpu_hog N CPU: N busy loops pinned to CPU; knob_cpu_hog_stop ends them" {
	local pid pids
	knob_cpu_hog 2 0
	mapfile -t pids <"$LAB_HOG_PIDS"
	assert_equal "${#pids[@]}" 2
	for pid in "${pids[@]}"; do
		run taskset -pc "$pid"
		assert_output --regexp "affinity list: 0$"
	done
	knob_cpu_hog_stop
	for pid in "${pids[@]}"; do
		! kill -0 "$pid" 2>/dev/null || fail "hog $pid still runs"
	done
}

@test "lab_reset restores the baseline after every knob at once" {
	knob_drop_roce
	knob_rx_cpu "$LAB_A_IF" 0
	knob_mtu "$LAB_B_IF" 9000
	knob_netem "$LAB_A_IF" loss 1%
	knob_hop_mtu 1200
	knob_nvmet_port_remove
	knob_roce_tos "$LAB_A_DEV" 64
	knob_link "$LAB_B_IF" down
	lab_reset
	lab_ready
	run nft list table inet "$LAB_NFT_TABLE"
	assert_failure
	run nft list table inet "$LAB_NFT_HOP"
	assert_failure
	run tc qdisc show
	refute_output --partial netem
	assert_equal "$(lab_active_mtu "$LAB_B_DEV")" 1024
	assert_equal "$(lab_rx_cpus "$LAB_A_IF")" 0
	[ ! -e "$LAB_RDMA_CM/$LAB_A_DEV" ] || fail "rdma_cm configfs directory left behind"
	run lab_rping 3 64 20
	assert_success
}
