#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# rocectl bench nvmf --transport tcp against the lab's real nvmet-tcp target
# (the same subsystem as 60-nvmf.bats, nvmet port 2, TCP B:4420): discovery
# and reads, writes in the capsule and by R2T/H2CData read back, header and
# data digests, the target closing the connection and the port removed
# mid-run, the wrong-NQN message, and --compare-tcp with and without a TCP
# listener.

bats_require_minimum_version 1.5.0

setup() {
	load nvmf
}

teardown() {
	nvmf_teardown
}

tcp() {
	timeout 60 "$R" bench nvmf --target "$T" --transport tcp "$@"
}

@test "over TCP without --nqn: the discovery log lists the tcp port, reads are benchmarked" {
	run --separate-stderr tcp -j --ios 200
	assert_success
	echo "$output" | jq -e --arg n "$LAB_NQN" '
		any(.discovery[]; .subnqn == $n and .subtype == "nvm" and .trtype == "tcp" and
		    .traddr == "10.0.0.2" and .trsvcid == "4420") and .subnqn == $n and
		.transport == "tcp" and .rdma_device == null and .rdma_keys == null and
		.rdma_max_mr == null and .header_digest == false and
		.maxh2cdata >= 4096 and .inline_write_max_bytes > 0'
	assert_results "$output"
	run --separate-stderr tcp --nqn "$LAB_NQN" --qd 16 --queues 2 --time 1
	assert_success
	assert_line --regexp 'controller [0-9]+  over tcp$'
	assert_line --regexp '^ios [0-9]+ in [0-9.]+ s  IOPS [0-9.]+'
}

@test "writes in the capsule (4 KiB) and by R2T and H2CData (128 KiB) are read back equal" {
	file_ns
	run --separate-stderr tcp -j --nqn "$LAB_NQN" --nsid 2 --rw randwrite --write-ok --verify \
		--qd 8 --ios 200
	assert_success
	echo "$output" | jq -e '.results.verified == 200 and .results.partial == false and
		.inline_write_max_bytes >= 4096'
	# above IOCCSZ: R2T, then one H2CData; 128 KiB reads fill the 256 KiB receive buffer
	run --separate-stderr tcp -j --nqn "$LAB_NQN" --nsid 2 --rw write --write-ok --verify \
		--bs 128K --qd 4 --ios 100
	assert_success
	echo "$output" | jq -e '.results.verified == 100 and .inline_write_max_bytes < 131072'
	# nvmet's MAXH2CDATA (4 MiB) is also the most it takes in one command ("data sgl
	# length invalid" above it), so an R2T answered in several H2CData PDUs is not seen here
	[ "$(tr -d '\0' </run/nvmf-verify.img | head -c 4096 | wc -c)" -gt 0 ]
}

@test "--digest: header and data digests agreed and checked on reads and verified writes" {
	file_ns
	run --separate-stderr tcp -j --nqn "$LAB_NQN" --nsid 2 --digest --rw randrw --write-ok \
		--verify --bs 64K --qd 4 --ios 100
	assert_success
	echo "$output" | jq -e '.header_digest == true and .data_digest == true and
		.results.verified == 100'
	run --separate-stderr tcp --nqn "$LAB_NQN" --digest --time 1
	assert_success
	assert_line --regexp 'over tcp  header digest  data digest$'
	run --separate-stderr timeout 60 "$R" bench nvmf --target "$T" --digest --time 1
	assert_failure 64
	[[ $stderr == *"--digest is for --transport tcp"* ]]
}

@test "a wrong NQN over TCP names the target's NVM subsystems; nothing listening is refused" {
	assert_wrong_nqn tcp
	run --separate-stderr tcp --nqn "$LAB_NQN" --port 4421 --time 1
	assert_failure 3
	assert_equal "$stderr" "rocectl: admin queue: connect to '10.0.0.2:4421' refused: nothing listening on that TCP port"
}

@test "the target closes the connection mid-run (its controller deleted): partial results, exit 3" {
	assert_mid_run tcp knob_nvmet_tcp_unlink
	grep -Eq "closed the connection|terminated the connection|cannot (send|receive)|no completion" \
		"$BATS_TEST_TMPDIR/err"
}

@test "the nvmet-tcp port removed mid-run: partial results, exit 3" {
	assert_mid_run tcp knob_nvmet_tcp_port_remove
}

@test "--compare-tcp: the same workload over RDMA then TCP, side by side with ratios" {
	run --separate-stderr timeout 120 "$R" -j bench nvmf --target "$T" --compare-tcp --qd 4 --time 1
	assert_success
	echo "$output" | jq -e --arg n "$LAB_NQN" '.rdma.transport == "rdma" and .tcp.transport == "tcp" and
		.rdma.subnqn == $n and .tcp.subnqn == $n and .rdma.results.ios > 0 and .tcp.results.ios > 0 and
		(.compare | length == 4) and all(.compare[]; .rdma > 0 and .tcp > 0 and .tcp_over_rdma > 0)'
	run --separate-stderr timeout 120 "$R" bench nvmf --target "$T" --nqn "$LAB_NQN" --compare-tcp \
		--qd 1 --time 1
	assert_success
	assert_line "== NVMe/RDMA =="
	assert_line "== NVMe/TCP =="
	assert_line --regexp '^  METRIC +RDMA +TCP +TCP/RDMA$'
	assert_line --regexp '^  p99 latency us +[0-9.]+ +[0-9.]+ +[0-9.]+$'
}

@test "--compare-tcp against a target without a TCP listener says so, after the RDMA run" {
	RESET=1
	knob_nvmet_tcp_port_remove
	run --separate-stderr timeout 120 "$R" -j bench nvmf --target "$T" --nqn "$LAB_NQN" \
		--compare-tcp --time 1
	assert_failure 3
	[[ $stderr == *"'10.0.0.2:4420' did not take NVMe/TCP (the target must listen on both transports)"* ]]
	echo "$output" | jq -e '.rdma.results.ios > 0'
}
