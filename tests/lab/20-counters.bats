#!/usr/bin/env bats
# rocectl counters against real Soft-RoCE ports: values must equal what the
# kernel's own tools read (rdma statistic, sysfs, ethtool), move with real
# rping traffic, and show loss made by netem as growing error counters.
# Thresholds are loose on purpose: TCG runs are slow and irregular.

bats_require_minimum_version 1.5.0

setup() {
	load lab
	ROCECTL=${ROCECTL:-$PWD/build/rocectl}
}

teardown() {
	traffic_stop
	lab_reset
}

# rping from A to B in the background for at most SECS seconds.
traffic_start() {
	local secs=$1 port=7175
	timeout "$secs" rping -s -a "$LAB_B_IP" -p "$port" -C 1000000 -S 512 >/dev/null 2>&1 &
	TRAFFIC_SRV=$!
	lab_wait 10 lab_cm_listening "$LAB_B_IP" "$port" || return 1
	timeout "$secs" rping -c -a "$LAB_B_IP" -I "$LAB_A_IP" -p "$port" -C 1000000 -S 512 \
		>/dev/null 2>&1 &
	TRAFFIC_CLI=$!
	# Running once rxe A has sent something.
	local start
	start=$(lab_hw_counter "$LAB_A_DEV" sent_pkts)
	lab_wait 20 eval '[ "$(lab_hw_counter "$LAB_A_DEV" sent_pkts)" -gt "$start" ]'
}

traffic_stop() {
	[ -z "${TRAFFIC_CLI:-}" ] || lab_stop "$TRAFFIC_CLI"
	[ -z "${TRAFFIC_SRV:-}" ] || lab_stop "$TRAFFIC_SRV"
	TRAFFIC_CLI= TRAFFIC_SRV=
}

# hw counter NAME of DEV from a rocectl counters -j document on stdin.
jq_hw() {
	jq -r --arg d "$1" --arg n "$2" \
		'.ports[] | select(.device == $d) | .counters[] | select(.source == "hw" and .name == $n) | .value'
}

@test "rping traffic makes sent_pkts of A and rcvd_pkts of B rise" {
	local before after
	before=$(timeout 20 "$ROCECTL" counters -j)
	lab_rping 20 >/dev/null
	after=$(timeout 20 "$ROCECTL" counters -j)
	[ "$(jq_hw "$LAB_A_DEV" sent_pkts <<<"$after")" -ge $(($(jq_hw "$LAB_A_DEV" sent_pkts <<<"$before") + 20)) ]
	[ "$(jq_hw "$LAB_B_DEV" rcvd_pkts <<<"$after")" -ge $(($(jq_hw "$LAB_B_DEV" rcvd_pkts <<<"$before") + 20)) ]
}

# One jq per device pairs each hw counter of rocectl with rdma statistic's, and
# sysfs is read by the shell: under TCG a process costs 30 ms and more, and
# three per counter made this test take a minute on a loaded host.
@test "with traffic stopped every hw counter equals rdma statistic and sysfs" {
	local dev doc rdma name v r s n=0
	lab_rping 5 >/dev/null
	for dev in "$LAB_A_DEV" "$LAB_B_DEV"; do
		doc=$(timeout 20 "$ROCECTL" counters -j "$dev")
		rdma=$(timeout 20 rdma statistic show link "$dev/1" -j)
		while IFS=$'\t' read -r name v r; do
			[ "$v" = "$r" ] || fail "$dev $name: rocectl $v, rdma statistic $r"
			read -r s <"/sys/class/infiniband/$dev/ports/1/hw_counters/$name" || s=
			[ "$v" = "$s" ] || fail "$dev $name: rocectl $v, sysfs differs"
			n=$((n + 1))
		done < <(jq -r --arg d "$dev" --argjson r "$rdma" '.ports[] | select(.device == $d) |
			.counters[] | select(.source == "hw") | [.name, (.value | tostring), ($r[0][.name] | tostring)] | @tsv' \
			<<<"$doc")
		# and nothing rdma statistic shows is missing
		[ "$(jq '.[0] | del(.ifname, .port) | length' <<<"$rdma")" -eq \
		  "$(jq '[.ports[0].counters[] | select(.source == "hw")] | length' <<<"$doc")" ]
		jq -e --arg l "$(cat "/sys/class/infiniband/$dev/ports/1/hw_counters/lifespan")" \
			'.ports[0].hw_counters_lifespan_s * 1000 == ($l | tonumber)' <<<"$doc"
	done
	[ "$n" -ge 30 ]
}

@test "--interval: rates are positive during traffic and zero after" {
	traffic_start 60
	run -0 timeout 30 "$ROCECTL" counters -j --interval 2 "$LAB_A_DEV"
	jq -e '.sample_interval_s >= 1.9 and
		(.ports[0].counters[] | select(.name == "sent_pkts") | .rate_per_s > 0 and .delta > 0)' <<<"$output"
	traffic_stop
	sleep 1
	run -0 timeout 30 "$ROCECTL" counters -j --interval 1 "$LAB_A_DEV"
	jq -e '(.ports[0].counters[] | select(.name == "sent_pkts") | .rate_per_s < 5)' <<<"$output"
	run -0 timeout 30 "$ROCECTL" counters --interval 1 "$LAB_A_DEV"
	assert_line --regexp '^ +GROUP +SOURCE +COUNTER +VALUE +RATE/S +MEANING$'
}

@test "the veth's ethtool stats appear and equal ethtool -S" {
	local dev=$LAB_A_DEV ifc=$LAB_A_IF peer
	run -0 timeout 20 "$ROCECTL" counters -j --all "$ifc"
	jq -e --arg i "$ifc" '.ports[0].netdev == $i and .ports[0].netdev_driver == "veth" and
		.ports[0].ethtool_stats_missing == null and
		.ports[0].pma_counters_missing == "not exported by this driver"' <<<"$output"
	jq -e '.ports[0].counters[] | select(.source == "ethtool" and .name == "rx_queue_0_drops") |
		.group == "loss" and .bad_if_growing' <<<"$output"
	peer=$(ethtool -S "$ifc" | awk '$1 == "peer_ifindex:" { print $2 }')
	jq -e --argjson p "$peer" '.ports[0].counters[] | select(.name == "peer_ifindex") | .value == $p' \
		<<<"$output"
	[ "$(jq '[.ports[0].counters[] | select(.source == "ethtool")] | length' <<<"$output")" -eq \
	  "$(ethtool -S "$ifc" | grep -c ':' | awk '{ print $1 - 1 }')" ]
	[ "$dev" = "$(jq -r '.ports[0].device' <<<"$output")" ]
}

@test "netem loss makes rxe retransmit and sequence counters grow, marked as problems" {
	# Connect first, then lose packets: a lost CM REQ is resent only after
	# about 4 s, which could leave the sampled interval without RDMA traffic.
	traffic_start 90
	knob_netem "$LAB_A_IF" loss 10%
	knob_netem "$LAB_B_IF" loss 10%
	run -0 timeout 60 "$ROCECTL" counters -j --interval 5 --group loss
	jq -e '[.ports[].counters[] | select(.source == "hw" and .delta > 0)] |
		length > 0 and all(.problem and .bad_if_growing and .group == "loss")' <<<"$output" ||
		fail "no loss counter grew: $output"
	run -0 timeout 60 "$ROCECTL" counters --interval 3 --group loss
	assert_line --regexp '^  ! +loss +hw +[a-z_]+ +[0-9]+ +[0-9.]+  '
}

@test "--watch -j prints one JSON document per sample and stops cleanly on SIGINT" {
	run -0 timeout --preserve-status -s INT 5 "$ROCECTL" counters -j --watch 1.5 "$LAB_A_DEV"
	[ "${#lines[@]}" -ge 3 ] || fail "only ${#lines[@]} documents"
	jq -se 'length >= 3 and .[0].sample_interval_s == 0 and (.[1:] | all(.sample_interval_s > 1)) and
		(map(.time) | unique | length) >= 2 and
		all(.ports[0].device == "'"$LAB_A_DEV"'")' <<<"$output"
}

# Run "counters --watch 1 DEV" on a pty; type KEY once two frames are drawn.
# Prints the exit status, whether the tty modes came back, and the screen.
watch_on_pty() {
	timeout 60 python3 - "$ROCECTL" "$LAB_A_DEV" "$1" <<-'EOF'
	import os, pty, select, sys, termios, time
	rocectl, dev, key = sys.argv[1], sys.argv[2], sys.argv[3].encode().decode("unicode_escape")
	pid, fd = pty.fork()
	if pid == 0:
	    os.execv(rocectl, [rocectl, "counters", "--watch", "1", dev])
	before = termios.tcgetattr(fd)
	out, sent, end = b"", False, time.time() + 40
	while time.time() < end:
	    if not sent and out.count(b"rocectl counters every") >= 2:
	        os.write(fd, key.encode())
	        sent = True
	    r, _, _ = select.select([fd], [], [], 0.2)
	    if r:
	        try:
	            chunk = os.read(fd, 65536)
	        except OSError:
	            break
	        if not chunk:
	            break
	        out += chunk
	    done, status = os.waitpid(pid, os.WNOHANG)
	    if done:
	        break
	else:
	    os.kill(pid, 9)
	    done, status = os.waitpid(pid, 0)
	after = termios.tcgetattr(fd)
	print("status=%d" % os.waitstatus_to_exitcode(status))
	print("modes_restored=%s" % (before == after))
	print("redraws=%d" % out.count(b"\x1b[H\x1b[J"))
	EOF
}

@test "--watch on a terminal redraws in place; q and Ctrl-C quit and restore the terminal" {
	local key
	for key in q '\x03'; do
		run -0 watch_on_pty "$key"
		assert_line "status=0"
		assert_line "modes_restored=True"
		assert_line --regexp '^redraws=([2-9]|[1-9][0-9]+)$'
	done
}

@test "an interval shorter than the hw_counters lifespan is refused with the reason" {
	run --separate-stderr timeout 20 "$ROCECTL" counters --interval 0.005
	assert_failure 64
	[[ $stderr == *"shorter than the hw_counters lifespan ("*" ms): the kernel would answer from its cache" ]]
}

@test "optional counters: rxe has none, as 'rdma statistic mode supported' says" {
	local dev
	for dev in "$LAB_A_DEV" "$LAB_B_DEV"; do
		# the kernel's own tool lists no optional counter for rxe
		run -0 timeout 10 rdma statistic mode supported link "$dev/1"
		refute_output --regexp '[a-z]'
		run -0 timeout 20 "$ROCECTL" counters -j "$dev"
		jq -e '.ports[0].optional_counters == [] and .ports[0].optional_counters_missing == null' \
			<<<"$output"
		run -0 timeout 20 "$ROCECTL" counters "$dev"
		assert_line "  optional hw counters: none"
	done
}

@test "pause statistics of a veth are reported as not exported, not as an error" {
	# the premise: veth has no pause operations, ethtool itself says so
	run timeout 10 ethtool -I -a "$LAB_A_IF"
	assert_failure
	assert_output --partial "Operation not supported"
	run -0 timeout 20 "$ROCECTL" counters -j "$LAB_A_IF"
	jq -e '.ports[0].pause_stats_missing == "not exported by this driver" and
		([.ports[0].counters[] | select(.source == "pause")] == [])' <<<"$output"
	run -0 timeout 20 "$ROCECTL" counters "$LAB_A_IF"
	assert_line "  pause statistics of $LAB_A_IF: not exported by this driver"
}

@test "the light collection keeps what the inventory adds: prometheus has the port's active_mtu" {
	run -0 timeout 20 "$ROCECTL" counters -o prometheus "$LAB_A_DEV"
	assert_line "rocectl_port_info{device=\"$LAB_A_DEV\",port=\"1\",driver=\"rxe\",netdev=\"$LAB_A_IF\",state=\"ACTIVE\"} 1"
	assert_line "rocectl_port_active_mtu_bytes{device=\"$LAB_A_DEV\",port=\"1\"} $(lab_active_mtu "$LAB_A_DEV")"
}
