# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# knobs.sh - fault knobs and helpers for tests running inside the rocectl lab.
#
# Source it from a lab test (bats or bash) running in the guest:
#	source "$LAB_DIR/knobs.sh"
# It only defines functions and default variables; it changes nothing by itself.
# Functions return nonzero (with a message on stderr) when they cannot do their job.
# Every wait is bounded by LAB_WAIT seconds (default 20).
#
# Topology (the baseline that guest-setup.sh builds and lab_reset restores):
#	host A: rxe0 on veth0, 10.0.0.1/24 (initiator side)	LAB_A_DEV LAB_A_IF LAB_A_IP
#	host B: rxe1 on veth1, 10.0.0.2/24 (target side)	LAB_B_DEV LAB_B_IF LAB_B_IP
#	nvmet-rdma target on B:4420, subsystem LAB_NQN, any host, nsid 1 = /dev/nullb0;
#	the same subsystem on nvmet-tcp, B TCP port 4420 (nvmet port 2)
#	MTU 1500 (rxe active_mtu 1024), no qdisc, no nftables table, rdma_cm defaults
#	"RoCE v2" / TOS 0.
#
# Fault knobs (each has its undo):
#	knob_drop_roce [IF]		drop incoming UDP dport 4791 (all of RoCE v2), or only
#					what arrives on IF; an nftables table "rocectl_lab"
#	knob_restore_roce		delete that table
#	knob_mtu IF MTU			set the MTU of one side (rxe follows: 1500 -> 1024,
#					9000 -> 4096); with traffic, never below the
#					other side's (see knob_hop_mtu)
#	knob_hop_mtu MTU		a hop between the hosts with this IP MTU, as a
#					switch port: longer IPv4 packets are dropped as
#					they arrive on either veth; nftables table
#					"rocectl_lab_hop"
#	knob_hop_mtu_clear		delete that table
#	knob_netem IF ARGS...		netem qdisc on IF, e.g. knob_netem veth0 loss 5%,
#					knob_netem veth1 "delay 10ms" (one string or words)
#	knob_netem_clear IF		remove the root qdisc of IF (no-op if none)
#	knob_link IF down|up		set IF down/up and wait until its rxe port is DOWN /
#					ACTIVE again; "up" restores the policy routes too
#	knob_nvmet_port_remove		unlink the subsystem from nvmet port 1 and remove
#					the port (the target stops listening)
#	knob_nvmet_port_add		(re)create port 1 on B:4420 and link the subsystem
#	knob_nvmet_tcp_port_remove	the same for the NVMe/TCP port 2 (its connections
#					are closed by the target)
#	knob_nvmet_tcp_port_add		(re)create port 2, tcp on B:4420, and link the
#					subsystem
#	knob_nvmet_tcp_unlink		unlink the subsystem from port 2 only: the target
#					deletes its TCP controllers and closes their
#					sockets, the port keeps listening
#	knob_roce_mode DEV 1|2		rdma_cm default_roce_mode of DEV port 1 via configfs
#					(rxe has no RoCE v1: "1" fails with EINVAL there)
#	knob_roce_tos DEV TOS		rdma_cm default_roce_tos of DEV port 1 via configfs
#	knob_roce_cm_reset DEV		back to "RoCE v2" / TOS 0; removes the configfs
#					directory only if a knob created it
#	lab_cm_dir DEV			print DEV's rdma_cm configfs port 1 directory,
#					creating it (then knob_roce_cm_reset removes it)
#	knob_cpu_hog [N [CPU]]		N CPU-bound processes (default: one per CPU) beside
#					the benchmark, as other work on a shared host; all
#					on CPU if given
#	knob_cpu_hog_stop		end them
#	knob_rx_cpu IF CPU|-		receive processing of IF on CPU, by RPS: rxe's work on
#					what arrives there and all it sets off (the target's
#					commands on B's side, completions on A's), as if the
#					two hosts had CPUs of their own; "-" gives it back to
#					the CPU that sent the packet
#	lab_reset			restore the whole baseline (all of the above, plus
#					disconnect kernel NVMe-oF controllers of LAB_NQN);
#					call it from teardown so later tests start clean
#
# Helpers:
#	lab_wait SECS CMD...		run CMD every 0.2 s until it succeeds; 1 on timeout
#	lab_gid_index DEV [IP]		print the index of DEV's RoCE v2 IPv4 GID (of IP if
#					given), looked up in sysfs, never assumed
#	lab_dev_of IF			print the rxe device on netdev IF
#	lab_port_state DEV		print DEV port 1 state: ACTIVE, DOWN, ...
#	lab_active_mtu DEV		print DEV port 1 active_mtu in bytes
#	lab_hw_counter DEV NAME		print an rxe hw_counter, e.g. sent_pkts
#	lab_if_stat IF NAME		print a netdev statistic, e.g. tx_packets
#	lab_cm_listening IP PORT	true if an rdma_cm listener is bound to IP:PORT
#	lab_rping [COUNT [SIZE [SECS]]]	rping server on B, client on A (same -S SIZE, default
#					5 pings of 64 bytes), each under a SECS timeout
#					(default 20); prints the client's "ping data" lines;
#					succeeds when all COUNT pings came back verified
#	lab_stop PID			kill and reap a background helper (status ignored)
#	lab_ping_crosses		ping B from A and check that the veth counters moved
#	lab_rx_cpus IF			print the RPS CPU mask of IF as a number (0: none)
#	lab_nvme_dev			print the kernel block device of LAB_NQN (/dev/nvmeXnY)
#	lab_nvmet_port_enabled		true if the target listens on B:4420
#	lab_tcp_listening ADDR PORT	true if a TCP socket listens on ADDR:PORT
#	lab_ready			the setup's readiness check: both ports ACTIVE with
#					their IPv4 GID, ping crosses the veth, target listening

: "${LAB_A_IP:=10.0.0.1}" "${LAB_B_IP:=10.0.0.2}"
: "${LAB_A_DEV:=rxe0}" "${LAB_B_DEV:=rxe1}"
: "${LAB_A_IF:=veth0}" "${LAB_B_IF:=veth1}"
: "${LAB_NQN:=nqn.2014-08.org.rocectl:lab}" "${LAB_PORT:=4420}"
: "${LAB_WAIT:=20}"

LAB_NVMET=/sys/kernel/config/nvmet
LAB_RDMA_CM=/sys/kernel/config/rdma_cm
LAB_NFT_TABLE=rocectl_lab
LAB_NFT_HOP=rocectl_lab_hop
# Knob state lives here (tmpfs in the guest, gone at power-off).
LAB_STATE=/run/lab

lab_err() {
	echo "lab: $*" >&2
}

lab_wait() {
	local secs=$1 end
	shift
	end=$((SECONDS + secs))
	until "$@"; do
		if [ "$SECONDS" -ge "$end" ]; then
			lab_err "timed out after ${secs}s waiting for: $*"
			return 1
		fi
		sleep 0.2
	done
}

lab_port_state() {
	local s
	read -r _ s <"/sys/class/infiniband/$1/ports/1/state" || return 1
	echo "$s"
}

# No command substitution: lab_wait calls it every 0.2 s and lab_reset twice per
# test, and under TCG a fork costs tens of milliseconds.
lab_port_is() {
	local s
	read -r _ s <"/sys/class/infiniband/$1/ports/1/state" && [ "$s" = "$2" ]
}

lab_active_mtu() {
	timeout 10 ibv_devinfo -d "$1" -i 1 -v | awk '$1 == "active_mtu:" { print $2 }'
}

lab_hw_counter() {
	cat "/sys/class/infiniband/$1/ports/1/hw_counters/$2"
}

lab_if_stat() {
	cat "/sys/class/net/$1/statistics/$2"
}

lab_dev_of() {
	timeout 10 rdma link show | awk -v ifc="$1" '
		{ for (i = 1; i < NF; i++) if ($i == "netdev" && $(i + 1) == ifc) { split($2, d, "/"); print d[1]; exit } }'
}

# The sysfs form of an IPv4-mapped GID ends in the address as two hex groups.
lab_ip_gid_suffix() {
	local IFS=.
	# shellcheck disable=SC2086
	set -- $1
	printf '%02x%02x:%02x%02x' "$1" "$2" "$3" "$4"
}

lab_gid_index() {
	local dev=$1 ip=${2:-} port=/sys/class/infiniband/$1/ports/1 i n gid type
	local want=0000:0000:0000:0000:0000:ffff:
	local -a all
	[ -z "$ip" ] || want=$want$(lab_ip_gid_suffix "$ip")
	[ -d "$port/gids" ] || { lab_err "no such RDMA device: $dev"; return 1; }
	all=("$port"/gids/*)
	n=${#all[@]}
	# In index order: the first matching entry is the one a tool would pick.
	for ((i = 0; i < n; i++)); do
		read -r gid <"$port/gids/$i" || continue
		[[ $gid == "$want"* ]] || continue
		# Unused entries fail to read with EINVAL; the type tells v1 from v2.
		read -r type <"$port/gid_attrs/types/$i" 2>/dev/null || continue
		[ "$type" = "RoCE v2" ] || continue
		echo "$i"
		return 0
	done
	lab_err "$dev has no RoCE v2 IPv4 GID${ip:+ for $ip}"
	return 1
}

# lab_stop PID: end a background helper we started and reap it, whatever its state.
lab_stop() {
	# Both may fail when the helper has ended already; that is fine.
	kill "$1" 2>/dev/null || :
	wait "$1" 2>/dev/null || :
}

# lab_cm_listening IP PORT: an rdma_cm ID listens on IP:PORT. One line of
# 'rdma res show cm_id' (rdma-core's rdma/res-cmid.c: "... state LISTEN ...
# src-addr IP:PORT ..."), matched by bash, not by a grep process.
lab_cm_listening() {
	local out nl=$'\n'
	out=$(timeout 10 rdma res show cm_id 2>/dev/null) || return 1
	[[ $out =~ state\ LISTEN\ [^$nl]*\ src-addr\ ${1//./\\.}:$2\  ]]
}

# Policy routing so that A<->B traffic leaves through one veth and arrives on the
# other instead of being short-cut over lo (both addresses are local). Idempotent.
lab_routes() {
	local rules
	# The two routes and the listing of the rules in one ip process (ip -batch
	# stops at the first command that fails, with status 1), then add only what
	# is missing: under TCG a process costs 30 ms and more, lab_reset runs this
	# after every test.
	rules=$'\n'$(printf '%s\n' \
		"route replace $LAB_B_IP/32 dev $LAB_A_IF src $LAB_A_IP table 100" \
		"route replace $LAB_A_IP/32 dev $LAB_B_IF src $LAB_B_IP table 101" \
		"rule show" | ip -batch -) || return 1
	[[ $rules == *$'\n100:'* ]] ||
		ip rule add pref 100 iif lo to "$LAB_B_IP" lookup 100 || return 1
	[[ $rules == *$'\n101:'* ]] ||
		ip rule add pref 101 iif lo to "$LAB_A_IP" lookup 101 || return 1
	[[ $rules == *$'\n200:'* ]] || ip rule add pref 200 lookup local || return 1
	# Only now that local has moved to pref 200 may the pref 0 rule go.
	if [[ $rules == *$'\n0:'* ]]; then
		ip rule del pref 0 || return 1
	fi
}

lab_ping_crosses() {
	local a0 b0 a1 b1
	a0=$(lab_if_stat "$LAB_A_IF" tx_packets) b0=$(lab_if_stat "$LAB_B_IF" tx_packets)
	timeout 15 ping -q -c 3 -i 0.2 -W 2 -I "$LAB_A_IP" "$LAB_B_IP" >/dev/null ||
		{ lab_err "ping $LAB_A_IP -> $LAB_B_IP failed"; return 1; }
	a1=$(lab_if_stat "$LAB_A_IF" tx_packets) b1=$(lab_if_stat "$LAB_B_IF" tx_packets)
	# Requests leave A's veth, replies leave B's: both must have sent at least 3.
	if [ $((a1 - a0)) -lt 3 ] || [ $((b1 - b0)) -lt 3 ]; then
		lab_err "ping did not cross the veth ($LAB_A_IF tx +$((a1 - a0)), $LAB_B_IF tx +$((b1 - b0)))"
		return 1
	fi
}

# Success is every ping coming back verified (-V), as the client prints them (-v):
# rping's exit status is not enough, its CM thread may exit(-1) on "Bad file
# descriptor" when the channel is torn down after a run that went well.
lab_rping() {
	local count=${1:-5} size=${2:-64} secs=${3:-20} port=7174 spid out rc=0 got
	timeout "$secs" rping -s -a "$LAB_B_IP" -p "$port" -C "$count" -S "$size" >/dev/null 2>&1 &
	spid=$!
	if ! lab_wait 10 lab_cm_listening "$LAB_B_IP" "$port"; then
		lab_stop "$spid"
		return 1
	fi
	out=$(timeout "$secs" rping -c -v -V -a "$LAB_B_IP" -I "$LAB_A_IP" -p "$port" \
		-C "$count" -S "$size" 2>&1) || rc=$?
	printf '%s\n' "$out"
	# The server is done once the client is, or stuck if the client failed.
	lab_stop "$spid"
	got=$(grep -c '^ping data: rdma-ping-' <<<"$out" || :)
	if [ "$rc" -eq 124 ] || [ "$got" -ne "$count" ]; then
		lab_err "rping: $got of $count pings came back (client status $rc)"
		return 1
	fi
}

knob_drop_roce() {
	local match=""
	[ -z "${1:-}" ] || match="iifname \"$1\""
	knob_restore_roce || return 1
	# Dropped on arrival, after crossing the wire, like a lossy switch ACL would.
	nft -f - <<-EOF
	table inet $LAB_NFT_TABLE {
		chain input {
			type filter hook input priority filter; policy accept;
			$match udp dport 4791 counter drop
		}
	}
	EOF
}

knob_restore_roce() {
	if nft list table inet "$LAB_NFT_TABLE" >/dev/null 2>&1; then
		nft delete table inet "$LAB_NFT_TABLE"
	fi
}

knob_mtu() {
	ip link set dev "$1" mtu "$2"
}

# A smaller MTU on the way, without refusing anything to rxe. rxe (Linux 6.1)
# resends a frame the kernel refuses to it at once and for ever, in the
# poster's system call (rxe_requester() on -EAGAIN from rxe_xmit_packet():
# drivers/infiniband/sw/rxe/rxe_req.c, rxe_net.c), a soft lockup the moment a
# timer tick lands in the wrong place. A host MTU below its peer's makes such
# refusals: veth refuses a frame over the peer's MTU (veth_xmit(),
# drivers/net/veth.c), and the smaller host's IP layer a packet over its own
# MTU (ip_fragment(), net/ipv4/ip_output.c: EMSGSIZE under DF), since rdma_cm
# gives the passive side the active side's path MTU. Here the packets leave
# both hosts and are lost in between, as at a switch.
knob_hop_mtu() {
	nft -f - <<-EOF
	table inet $LAB_NFT_HOP {
		chain prerouting {
			type filter hook prerouting priority raw; policy accept;
			iifname { "$LAB_A_IF", "$LAB_B_IF" } ip length > $1 counter drop
		}
	}
	EOF
}

knob_hop_mtu_clear() {
	if nft list table inet "$LAB_NFT_HOP" >/dev/null 2>&1; then
		nft delete table inet "$LAB_NFT_HOP"
	fi
}

knob_netem() {
	local ifc=$1
	shift
	# Split on purpose: knob_netem IF "loss 5%" and knob_netem IF loss 5% both work.
	# shellcheck disable=SC2048,SC2086
	tc qdisc replace dev "$ifc" root netem $*
}

knob_netem_clear() {
	lab_qdiscs_clear "$1"
}

# lab_qdiscs_clear IF...: the root qdisc of each IF deleted unless it is the
# veth's own "noqueue", from one listing of every qdisc (tc_qdisc.c of
# iproute2 prints "qdisc KIND HANDLE: dev IF root ..." for a root qdisc).
lab_qdiscs_clear() {
	local q ifc nl=$'\n' rc=0
	q=$nl$(tc qdisc show)$nl || return 1
	for ifc; do
		[[ $q =~ ${nl}qdisc\ ([^ ]+)\ [^$nl]*\ dev\ $ifc\ root\  ]] || continue
		[ "${BASH_REMATCH[1]}" = noqueue ] || tc qdisc del dev "$ifc" root || rc=1
	done
	return "$rc"
}

# Both lab tables gone, from one listing.
lab_nft_clear() {
	local t tables
	tables=$'\n'$(nft list tables)$'\n' || return 1
	for t in "$LAB_NFT_TABLE" "$LAB_NFT_HOP"; do
		[[ $tables != *$'\n'"table inet $t"$'\n'* ]] || nft delete table inet "$t" || return 1
	done
}

knob_link() {
	local ifc=$1 how=$2 dev want
	case $how in
	up) want=ACTIVE ;;
	down) want=DOWN ;;
	*) lab_err "knob_link: $how: want up or down"; return 1 ;;
	esac
	dev=$(lab_dev_of "$ifc")
	[ -n "$dev" ] || { lab_err "no rxe device on $ifc"; return 1; }
	ip link set dev "$ifc" "$how" || return 1
	lab_wait "$LAB_WAIT" lab_port_is "$dev" "$want" || return 1
	[ "$how" = up ] || return 0
	# A link that went down took its routes (the policy ones too) with it.
	lab_routes && lab_wait "$LAB_WAIT" lab_has_gid "$dev"
}

lab_has_gid() {
	lab_gid_index "$1" >/dev/null 2>&1
}

lab_nvmet_port_enabled() {
	[ -L "$LAB_NVMET/ports/1/subsystems/$LAB_NQN" ] &&
		lab_cm_listening "$LAB_B_IP" "$LAB_PORT"
}

knob_nvmet_port_remove() {
	local p=$LAB_NVMET/ports/1
	[ -d "$p" ] || return 0
	if [ -L "$p/subsystems/$LAB_NQN" ]; then
		rm "$p/subsystems/$LAB_NQN" || return 1
	fi
	rmdir "$p"
}

lab_tcp_listening() {
	[ -n "$(ss -Hltn "src $1 and sport = :$2" 2>/dev/null)" ]
}

knob_nvmet_tcp_unlink() {
	local l=$LAB_NVMET/ports/2/subsystems/$LAB_NQN
	[ ! -L "$l" ] || rm "$l"
}

knob_nvmet_tcp_port_remove() {
	local p=$LAB_NVMET/ports/2
	[ -d "$p" ] || return 0
	knob_nvmet_tcp_unlink && rmdir "$p"
}

knob_nvmet_tcp_port_add() {
	nvmet_port_make 2 tcp && lab_wait "$LAB_WAIT" lab_tcp_listening "$LAB_B_IP" "$LAB_PORT"
}

# nvmet_port_make N TRTYPE: nvmet port N of TRTYPE on B:LAB_PORT, the subsystem linked.
nvmet_port_make() {
	local p=$LAB_NVMET/ports/$1
	if [ ! -d "$p" ]; then
		mkdir "$p" &&
		echo "$2" >"$p/addr_trtype" &&
		echo ipv4 >"$p/addr_adrfam" &&
		echo "$LAB_B_IP" >"$p/addr_traddr" &&
		echo "$LAB_PORT" >"$p/addr_trsvcid" || return 1
	fi
	if [ ! -L "$p/subsystems/$LAB_NQN" ]; then
		ln -s "$LAB_NVMET/subsystems/$LAB_NQN" "$p/subsystems/$LAB_NQN" || return 1
	fi
}

knob_nvmet_port_add() {
	nvmet_port_make 1 rdma && lab_wait "$LAB_WAIT" lab_cm_listening "$LAB_B_IP" "$LAB_PORT"
}

# The per-device rdma_cm directory; created on demand, remembered so that only
# a directory we made is removed again.
lab_cm_dir() {
	local d=$LAB_RDMA_CM/$1
	if [ ! -d "$d" ]; then
		mkdir -p "$LAB_STATE" && mkdir "$d" && : >"$LAB_STATE/cm-created-$1" || return 1
	fi
	echo "$d/ports/1"
}

knob_roce_mode() {
	local d mode
	case $2 in
	1) mode="IB/RoCE v1" ;;
	2) mode="RoCE v2" ;;
	*) lab_err "knob_roce_mode: $2: want 1 or 2"; return 1 ;;
	esac
	d=$(lab_cm_dir "$1") && echo "$mode" >"$d/default_roce_mode"
}

knob_roce_tos() {
	local d
	d=$(lab_cm_dir "$1") && echo "$2" >"$d/default_roce_tos"
}

knob_roce_cm_reset() {
	local d=$LAB_RDMA_CM/$1
	[ -d "$d" ] || return 0
	# The values outlive the directory: write the defaults back before removing it.
	echo "RoCE v2" >"$d/ports/1/default_roce_mode" &&
	echo 0 >"$d/ports/1/default_roce_tos" || return 1
	if [ -e "$LAB_STATE/cm-created-$1" ]; then
		rmdir "$d" && rm -f "$LAB_STATE/cm-created-$1"
	fi
}

# The readiness check of the baseline; names what is missing.
lab_ready() {
	local d
	for d in "$LAB_A_DEV:$LAB_A_IP" "$LAB_B_DEV:$LAB_B_IP"; do
		lab_wait "$LAB_WAIT" lab_port_is "${d%%:*}" ACTIVE ||
			{ lab_err "${d%%:*} port 1 is $(lab_port_state "${d%%:*}"), not ACTIVE"; return 1; }
		lab_gid_index "${d%%:*}" "${d#*:}" >/dev/null || return 1
	done
	lab_ping_crosses || return 1
	lab_nvmet_port_enabled ||
		{ lab_err "nvmet port 1 is not listening on $LAB_B_IP:$LAB_PORT"; return 1; }
}

lab_nvme_dev() {
	local s n nqn
	for s in /sys/class/nvme-subsystem/*; do
		[ -e "$s/subsysnqn" ] || continue
		read -r nqn <"$s/subsysnqn"
		[ "$nqn" = "$LAB_NQN" ] || continue
		for n in "$s"/nvme*n*; do
			[ -e "$n" ] || continue
			echo "/dev/${n##*/}"
			return 0
		done
	done
	return 1
}

LAB_HOG_PIDS=/run/rocectl-lab-hog.pids

# knob_cpu_hog [N [CPU]]: N busy loops at normal priority, on CPU only if given;
# their fds closed so bats does not wait for them.
knob_cpu_hog() {
	local n=${1:-$(nproc)} pin=() i
	[ -z "${2:-}" ] || pin=(taskset -c "$2")
	for ((i = 0; i < n; i++)); do
		"${pin[@]}" bash -c 'while :; do :; done' </dev/null >/dev/null 2>&1 3>&- &
		echo "$!" >>"$LAB_HOG_PIDS"
	done
}

knob_cpu_hog_stop() {
	local pid
	[ -f "$LAB_HOG_PIDS" ] || return 0
	while read -r pid; do
		lab_stop "$pid"
	done <"$LAB_HOG_PIDS"
	rm -f "$LAB_HOG_PIDS"
}

# knob_rx_cpu IF CPU|-: veth has one receive queue. rps_cpus is a hex CPU
# bitmap, 32-bit groups joined by commas (net/core/net-sysfs.c, store_rps_map()
# parses it with bitmap_parse, show_rps_map() prints it with %*pb; 6.1).
knob_rx_cpu() {
	local f=/sys/class/net/$1/queues/rx-0/rps_cpus mask=0
	[ -w "$f" ] || { lab_err "no RPS on '$1' ($f)"; return 1; }
	if [ "$2" != - ]; then
		[[ $2 =~ ^[0-9]+$ ]] && [ "$2" -lt "$(nproc)" ] ||
			{ lab_err "no CPU '$2' (the guest has $(nproc))"; return 1; }
		mask=$(printf '%x' $((1 << $2)))
	fi
	echo "$mask" >"$f" || { lab_err "cannot steer '$1' to CPU $2"; return 1; }
}

# lab_rx_cpus IF: the RPS mask of IF as a number (0: none).
lab_rx_cpus() {
	local m
	read -r m <"/sys/class/net/$1/queues/rx-0/rps_cpus" && echo $((16#${m//,/}))
}

lab_reset() {
	local rc=0 ifc dev mtu flags
	knob_cpu_hog_stop || rc=1
	if lab_nvme_dev >/dev/null; then
		timeout 30 nvme disconnect -n "$LAB_NQN" >/dev/null || rc=1
	fi
	lab_nft_clear || rc=1
	lab_qdiscs_clear "$LAB_A_IF" "$LAB_B_IF" || rc=1
	for ifc in "$LAB_A_IF" "$LAB_B_IF"; do
		knob_rx_cpu "$ifc" - || rc=1
		read -r mtu <"/sys/class/net/$ifc/mtu"
		[ "$mtu" = 1500 ] || knob_mtu "$ifc" 1500 || rc=1
		# Bit 0 of the flags is IFF_UP.
		read -r flags <"/sys/class/net/$ifc/flags"
		((flags & 1)) || ip link set dev "$ifc" up || rc=1
	done
	for dev in "$LAB_A_DEV" "$LAB_B_DEV"; do
		knob_roce_cm_reset "$dev" || rc=1
		lab_wait "$LAB_WAIT" lab_port_is "$dev" ACTIVE || rc=1
	done
	lab_routes || rc=1
	knob_nvmet_port_add || rc=1
	knob_nvmet_tcp_port_add || rc=1
	[ "$rc" -eq 0 ] || lab_err "lab_reset could not restore the whole baseline"
	return "$rc"
}
