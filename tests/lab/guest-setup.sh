#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-setup.sh - build the lab topology inside the guest, then check it is ready.
# Run by guest-main as root with the LAB_* variables exported; exits nonzero (the
# host then reports a setup failure) if anything is missing. See knobs.sh for the
# topology it builds.
set -euo pipefail

# shellcheck source=knobs.sh source-path=SCRIPTDIR
source "$LAB_DIR/knobs.sh"

step() {
	echo "lab-setup: $*"
}

fail() {
	echo "lab-setup: FAILED: $*" >&2
	exit 1
}

load_modules() {
	step "loading modules"
	modprobe -a configfs veth rdma_rxe ib_uverbs rdma_ucm sch_netem nf_tables
	# One 4 GiB memory-less disk: queue_mode=2 is blk-mq, irqmode=0 completes inline.
	modprobe null_blk nr_devices=1 gb=4 bs=512 queue_mode=2 irqmode=0
	modprobe -a nvmet nvmet_rdma nvme_rdma nvmet_tcp nvme_tcp
}

# Both veth ends stay in the initial network namespace: on 6.1, rxe only works there.
build_network() {
	step "veth pair $LAB_A_IF ($LAB_A_IP) <-> $LAB_B_IF ($LAB_B_IP)"
	local c
	ip link add "$LAB_A_IF" type veth peer name "$LAB_B_IF"
	ip addr add "$LAB_A_IP/24" dev "$LAB_A_IF"
	ip addr add "$LAB_B_IP/24" dev "$LAB_B_IF"
	# Packets from a local address arrive on the other veth: accept them.
	for c in all "$LAB_A_IF" "$LAB_B_IF"; do
		sysctl -q -w "net.ipv4.conf.$c.rp_filter=0" "net.ipv4.conf.$c.accept_local=1"
	done
	ip link set "$LAB_A_IF" up
	ip link set "$LAB_B_IF" up
	lab_routes
}

build_rxe() {
	step "soft-RoCE $LAB_A_DEV on $LAB_A_IF, $LAB_B_DEV on $LAB_B_IF"
	rdma link add "$LAB_A_DEV" type rxe netdev "$LAB_A_IF"
	rdma link add "$LAB_B_DEV" type rxe netdev "$LAB_B_IF"
}

build_target() {
	local s=$LAB_NVMET/subsystems/$LAB_NQN
	step "nvmet target $LAB_NQN on $LAB_B_IP:$LAB_PORT, rdma and tcp"
	mkdir "$s"
	echo 1 >"$s/attr_allow_any_host"
	mkdir "$s/namespaces/1"
	echo /dev/nullb0 >"$s/namespaces/1/device_path"
	echo 1 >"$s/namespaces/1/enable"
	knob_nvmet_port_add
	knob_nvmet_tcp_port_add
}

check_ready() {
	step "readiness check"
	lab_ready || fail "the lab is not ready (see above)"
	step "ready: $LAB_A_DEV GID $(lab_gid_index "$LAB_A_DEV") on $LAB_A_IF," \
		"$LAB_B_DEV GID $(lab_gid_index "$LAB_B_DEV") on $LAB_B_IF, target $LAB_NQN"
}

load_modules
build_network
build_rxe
build_target
check_ready
