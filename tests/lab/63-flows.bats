#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# rocectl flows and check traffic on real kernel pieces: the kernel NVMe-oF
# initiator connected to the lab's nvmet-rdma target (without and with
# --tos), an rdma_cm pair (rping) and a perftest pair started with NCCL_IB_TC
# in its environment. Each is listed with its owner, port and the source of
# its traffic class, counted as `rdma res show qp` and `rdma res show cm_id`
# count them (Debian 12's `rdma -j res show cm_id` prints nothing: the text
# is the peer). rxe has no DCB: every verdict is unknown, with the reason.

bats_require_minimum_version 1.5.0

setup() {
	load lab
	PIDS=()
}

teardown() {
	local p
	for p in "${PIDS[@]}"; do
		lab_stop "$p"
	done
	lab_reset
}

# flows_consumer DEV OWNER: the consumer OWNER on DEV/1 in `rocectl flows -j`.
flows_consumer() {
	"$ROCECTL" -j flows | jq -c --arg d "$1" --arg o "$2" \
		'.ports[] | select(.device == $d and .port == 1) | .consumers[] | select(.owner == $o)'
}

# res_lines KIND DEV COMM: how many of `rdma res show KIND` are DEV/1's and COMM's.
res_lines() {
	timeout 10 rdma res show "$1" | grep -c "^link $2/1 .*comm $3 " || :
}

has_qp() {
	timeout 10 rdma res show qp | grep -q "^link $1/1 .*comm $2 "
}

nvme_flows() {
	local c
	lab_wait 20 lab_nvme_dev
	c=$(flows_consumer "$LAB_A_DEV" "[nvme_rdma]")
	echo "$c"
	# nvme_rdma's cm_ids, and the QPs that name rdma_cm, all its own: joined by QP number
	[ "$(jq .cm_ids <<<"$c")" -eq "$(res_lines cm_id "$LAB_A_DEV" '\[nvme_rdma\]')" ]
	[ "$(jq .qps <<<"$c")" -eq "$(res_lines qp "$LAB_A_DEV" '\[rdma_cm\]')" ]
	[ "$(jq .qps <<<"$c")" -ge 2 ]
	jq -e '.pid == null and .app == "rdma_cm" and .status == "unknown" and
		(.reason | test("does not report a connection.s ToS: the rdma_cm default 0 ")) and
		.fix == "nvme connect -t rdma ... --tos 106"' <<<"$c"
	c=$(flows_consumer "$LAB_B_DEV" "[nvmet_rdma]")
	echo "$c"
	[ "$(jq .cm_ids <<<"$c")" -eq "$(res_lines cm_id "$LAB_B_DEV" '\[nvmet_rdma\]')" ]
	[ "$(jq .qps <<<"$c")" -eq "$(res_lines qp "$LAB_B_DEV" '\[rdma_cm\]')" ]
	# no QP is left to rdma_cm itself
	"$ROCECTL" -j flows | jq -e '[.ports[].consumers[].owner] | index("[rdma_cm]") == null'
}

@test "nvme connect without and with --tos: [nvme_rdma] on rxe0/1, [nvmet_rdma] on rxe1/1, QPs joined to their cm_ids" {
	run timeout 30 nvme connect -t rdma -a "$LAB_B_IP" -s "$LAB_PORT" -n "$LAB_NQN"
	assert_success
	nvme_flows
	run timeout 30 nvme disconnect -n "$LAB_NQN"
	assert_success
	run timeout 30 nvme connect -t rdma -a "$LAB_B_IP" -s "$LAB_PORT" -n "$LAB_NQN" --tos 106
	assert_success
	nvme_flows
	# check judges the same consumers: unknown, never pass or fail, on rxe
	run -3 "$ROCECTL" -j check traffic
	echo "$output" | jq -e '[.findings[] | select(.id == "traffic.consumer_class")] as $f |
		($f | length) >= 2 and all($f[]; .status == "unknown") and
		any($f[]; .device == "rxe0" and (.message | startswith("[nvme_rdma] (rdma_cm)")))'
}

@test "a perftest pair with NCCL_IB_TC: the server holds no QP until its client connects; each side's class from its environment, no other variable kept" {
	local c
	NCCL_IB_TC=106 ROCECTL_LAB_SECRET=s3cr3t timeout 90 ib_write_bw -d "$LAB_B_DEV" -x 1 -D 30 \
		>/dev/null 2>&1 &
	PIDS+=($!)
	lab_wait 20 sh -c 'ss -ltn | grep -q ":18515 "'
	run -0 "$ROCECTL" -j flows
	echo "$output" | jq -e '[.ports[].consumers[].owner] | index("ib_write_bw") == null'
	NCCL_IB_TC=0 ROCECTL_LAB_SECRET=s3cr3t timeout 90 ib_write_bw -d "$LAB_A_DEV" -x 1 -D 30 \
		"$LAB_B_IP" >/dev/null 2>&1 &
	PIDS+=($!)
	lab_wait 30 has_qp "$LAB_A_DEV" ib_write_bw
	lab_wait 30 has_qp "$LAB_B_DEV" ib_write_bw
	c=$(flows_consumer "$LAB_B_DEV" ib_write_bw)
	echo "$c"
	jq -e '.app == "NCCL" and .tos == 106 and .dscp == 26 and .qps >= 1 and
		(.source | test("^NCCL_IB_TC=106 \\(/proc/[0-9]+/environ\\)$")) and
		.status == "unknown" and .reason == "the PFC of '\''veth1'\'' is unknown"' <<<"$c"
	[ "$(jq .qps <<<"$c")" -eq "$(res_lines qp "$LAB_B_DEV" ib_write_bw)" ]
	c=$(flows_consumer "$LAB_A_DEV" ib_write_bw)
	echo "$c"
	jq -e '.tos == 0 and (.source | startswith("NCCL_IB_TC=0 ")) and
		.fix == "NCCL_IB_TC=106 in the environment of '\''ib_write_bw'\''"' <<<"$c"
	# the snapshot keeps the named variables of the owners' environments, nothing else
	"$ROCECTL" collect >"$BATS_TEST_TMPDIR/snap.json"
	jq -c '.host.rdma_resources.consumers[] | [.name, .pid, .environ_reason, [.environ[].name]]' \
		"$BATS_TEST_TMPDIR/snap.json"
	jq -e '[.host.rdma_resources.consumers[] | select(.name == "ib_write_bw") | .environ[] |
		select(.name == "NCCL_IB_TC") | .value] | sort == ["0", "106"]' "$BATS_TEST_TMPDIR/snap.json"
	# nothing outside the allow-list (lib/consumers.c rctl_tc_env_names[])
	jq -e '[.host.rdma_resources.consumers[].environ[].name] | all(test(
		"^(NCCL_IB_(TC|FIFO_TC|SL|GID_INDEX|HCA)|NCCL_CONF_FILE|UCX_IB_(TRAFFIC_CLASS|SL|GID_INDEX)|UCX_NET_DEVICES)$"))' \
		"$BATS_TEST_TMPDIR/snap.json"
	run grep -c -e s3cr3t -e ROCECTL_LAB_SECRET "$BATS_TEST_TMPDIR/snap.json"
	assert_output 0
}

@test "an rping pair: rdma_cm on both ports, its class the rdma_cm default, listed as rdma res show lists it" {
	local c
	timeout 90 rping -s -a "$LAB_B_IP" -p 7175 -C 1000000 -S 64 >/dev/null 2>&1 &
	PIDS+=($!)
	lab_wait 10 lab_cm_listening "$LAB_B_IP" 7175
	timeout 90 rping -c -a "$LAB_B_IP" -I "$LAB_A_IP" -p 7175 -C 1000000 -S 64 >/dev/null 2>&1 &
	PIDS+=($!)
	lab_wait 30 has_qp "$LAB_A_DEV" rping
	lab_wait 30 has_qp "$LAB_B_DEV" rping
	c=$(flows_consumer "$LAB_B_DEV" rping)
	echo "$c"
	# the listener and the connection on B
	[ "$(jq .cm_ids <<<"$c")" -eq "$(res_lines cm_id "$LAB_B_DEV" rping)" ]
	[ "$(jq .cm_ids <<<"$c")" -eq 2 ]
	jq -e '.app == "rdma_cm" and .status == "unknown" and (.pid | type == "number") and
		(.reason | endswith("unless the program sets RDMA_OPTION_ID_TOS"))' <<<"$c"
	c=$(flows_consumer "$LAB_A_DEV" rping)
	[ "$(jq .cm_ids <<<"$c")" -eq 1 ]
	[ "$(jq .qps <<<"$c")" -eq "$(res_lines qp "$LAB_A_DEV" rping)" ]
	# -v lists the connection with its addresses, as the cm_id dump has them
	run -0 "$ROCECTL" flows -v "$LAB_A_DEV"
	assert_line --regexp "^cm_id +1 +[0-9]+ +RC +CONNECT +TCP +$LAB_A_IP:[0-9]+ +$LAB_B_IP:7175 +rping\$"
}
