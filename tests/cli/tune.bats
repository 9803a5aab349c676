#!/usr/bin/env bats
# rocectl tune on host snapshots: each fault fixture gives exactly its plan,
# healthy hosts give none; apply refuses without root and without a tty/--yes.
# Live writes, rollback and revert are tested in the lab (tests/lab/70-tune.bats).
load helpers

# The plan of a fixture as "op area target setting from -> to" lines.
plan_lines() {
	run -0 rocectl tune plan -j --input "$FIXTURES/$1.json" "${@:2}"
	echo "$output" | jq -r '.changes[] | "\(.area) \(.target) \(.setting): \(.from) -> \(.to)"'
}

@test "healthy hosts: nothing to change" {
	local f
	for f in mlx5-upstream-healthy mlx5-ofed-healthy mlx5-cx5-healthy bnxt-healthy \
		 bnxt-oot-healthy mlx5-lag-healthy; do
		run -0 rocectl tune plan -j --input "$FIXTURES/$f.json"
		echo "$output" | jq -e '.changes == [] and .to_apply == 0 and .profile == "lossless-dscp"' ||
			fail "$f: $output"
		run -0 rocectl tune plan --input "$FIXTURES/$f.json"
		assert_output "nothing to change: the host is at the intent (profile lossless-dscp)"
	done
	# ice counts no packets per priority, irdma no RoCE loss: driver limits, no host setting
	run -0 rocectl tune plan --input "$FIXTURES/ice-irdma-healthy.json"
	assert_output "nothing to change: the host is at the intent (profile lossless-dscp)"
	# an unknown that is no driver limit: not known to be at the intent
	jq '.host.netdevs[0].driver = "ice2"' "$FIXTURES/ice-irdma-healthy.json" >"$BATS_TEST_TMPDIR/x.json"
	run -0 rocectl tune plan --input "$BATS_TEST_TMPDIR/x.json"
	assert_output --partial "nothing tune can change, but the host is not known to be at the intent (profile lossless-dscp), "
}

@test "each misconfigured fixture gives exactly its plan" {
	local -A want=(
		[fault-pfc-off-prio3]="pfc ens1f0np0 prio-pfc: none -> 3"
		[fault-pfc-on-0-and-3]="pfc ens1f0np0 prio-pfc: 0,3 -> 3"
		[fault-global-pause-with-pfc]="pfc ens1f0np0 global pause: autoneg off rx on tx on -> autoneg off rx off tx off"
		[fault-dscp26-missing]="dscp ens1f0np0 dscp-prio 26: none -> 26:3"
		[fault-dscp26-two-prios]="dscp ens2f0np0 dscp-prio 26: 26:5 -> none"
		[fault-cnp-dscp-on-data-prio]="cnp ens1f0np0 np_cnp_dscp: 24 -> 48"
		[fault-ecn-np-disabled]="ecn ens1f0np0 roce_np enable prio 3: 0 -> 1"
		[fault-roce-mode-v1]="mode mlx5_0/1 default_roce_mode: IB/RoCE v1 -> RoCE v2"
		[fault-tos-0]="mode mlx5_0/1 default_roce_tos: 0 -> 106"
		[fault-trust-pcp-untagged]=$'dscp ens1f0np0 dscp-prio 26: none -> 26:3\ndscp ens1f0np0 dscp-prio 48: none -> 48:6'
		[fault-debugfs-unreadable]="ecn ens1f0np0 congestion control: unknown -> ECN on"
		[fault-lag-pfc-off-slave]="pfc ens1f1np1 prio-pfc: none -> 3"
		[fault-bnxt-oot-cnp-dscp]=$'dscp ens2f0np0 roce_dscp: 24 -> 26\ncnp ens2f0np0 np_cnp_dscp: 10 -> 48'
		[fault-ice-no-dscp]=$'dscp ens5f0np0 dscp-prio 26: none -> 26:3\ndscp ens5f0np0 dscp-prio 48: none -> 48:6\npfc ens5f0np0 tc-bw: tc 3: 0% -> tc 3: 25%\ndscp ens5f0np0 dscp mode: prio-tc: 3:1 -> 3:1\ndscp ens5f0np0 dscp mode: prio-pfc: 3 -> 3'
		[fault-ice-fw-lldp]="pfc ens5f0np0 prio-pfc: none -> 3"
		[fault-mlx5-fw-dcbx]="pfc ens1f0np0 prio-pfc: none -> 3"
		[fault-bnxt-oot-not-ect]="ecn ens2f0np0 ecn_marking: 0 -> 1"
	)
	local f
	for f in "${!want[@]}"; do
		assert_equal "$(plan_lines "$f")" "${want[$f]}"
	done
}

@test "ECN off: each vendor's own write path, or a skipped change naming its tool" {
	jq '(.host.netdevs[0].cc.params[] | select(.name == "ecn_enable") | .value) = 0 |
	    .host.netdevs[0].cc.rp_enable[3] = false | .host.netdevs[0].cc.np_enable[3] = false' \
		"$FIXTURES/bnxt-oot-healthy.json" >"$BATS_TEST_TMPDIR/oot.json"
	run -0 rocectl tune plan -j --input "$BATS_TEST_TMPDIR/oot.json"
	echo "$output" | jq -e '.changes | length == 1 and
		.[0].command == "echo 0x1 > /sys/kernel/config/bnxt_re/bnxt_re0/ports/1/cc/ecn_enable && echo 1 > /sys/kernel/config/bnxt_re/bnxt_re0/ports/1/cc/apply" and
		.[0].skip == null'
	refute_output --partial "/sys/class/net/"
	jq '(.host.netdevs[0].cc.params[] | select(.name == "ecn_enable") | .value) = 0' \
		"$FIXTURES/bnxt-healthy.json" >"$BATS_TEST_TMPDIR/inbox.json"
	run -0 rocectl tune plan -j --input "$BATS_TEST_TMPDIR/inbox.json"
	echo "$output" | jq -e '.to_apply == 0 and (.changes | length == 1) and
		.changes[0].setting == "ecn_enable" and (.changes[0].skip | test("bnxt_setupcc.sh or niccli"))'
	run -2 rocectl check ecn -i "$BATS_TEST_TMPDIR/inbox.json"
	assert_output --partial "fix: bnxt_setupcc.sh or niccli (Broadcom) for ens2f0np0"
	refute_output --partial "/sys/class/net/"
}

@test "mlx5 DSCP remap: one SET that replaces the entry, undone by a SET of the old priority" {
	jq '(.host.netdevs[0].app.entries[] | select(.protocol == 26) | .priority) = 0' \
		"$FIXTURES/mlx5-upstream-healthy.json" >"$BATS_TEST_TMPDIR/remap.json"
	run -0 rocectl tune plan -j --input "$BATS_TEST_TMPDIR/remap.json"
	echo "$output" | jq -e '.changes | length == 1 and .[0].from == "26:0" and .[0].to == "26:3" and
		.[0].command == "dcb app replace dev ens1f0np0 dscp-prio 26:3"'
}

@test "Broadcom's configfs: hex values with apply in one step; firmware-owned DCB: skipped with the tool, no --force" {
	run -0 rocectl tune plan -j --input "$FIXTURES/fault-bnxt-oot-cnp-dscp.json"
	jq -e '[.changes[].command] == [
		"echo 0x1a > /sys/kernel/config/bnxt_re/bnxt_re0/ports/1/cc/roce_dscp && echo 1 > /sys/kernel/config/bnxt_re/bnxt_re0/ports/1/cc/apply",
		"echo 0x30 > /sys/kernel/config/bnxt_re/bnxt_re0/ports/1/cc/cnp_dscp && echo 1 > /sys/kernel/config/bnxt_re/bnxt_re0/ports/1/cc/apply"]' <<<"$output"
	run -0 rocectl tune plan -j --input "$FIXTURES/fault-ice-fw-lldp.json"
	jq -e '.to_apply == 0 and ([.changes[] | select(.needs_force)] == []) and
		(.changes[0].skip | test("^firmware DCBX agent owns DCB \\(mode 0x0a, host writes refused\\): ethtool --set-priv-flags ens5f0np0 fw-lldp-agent off"))' <<<"$output"
	run -0 rocectl tune plan --input "$FIXTURES/fault-ice-no-dscp.json"
	assert_line --partial "warning: ice: the first DSCP entry switches to DSCP mode and resets ETS (TC 0 100 %, identity prio->TC map)"
}

@test "faults tune cannot fix give an empty plan" {
	local f
	for f in fault-mtu-1500-intent-4096 fault-no-v2-gid-for-ip fault-lldpad-running \
		 fault-pause-storm-rising fault-rx-discards-phy-rising fault-out-of-sequence-rising; do
		assert_equal "$(plan_lines "$f")" ""
	done
}

@test "trust PCP with RoCE on VLANs: no DSCP entries that would switch mlx5 to DSCP trust" {
	run -0 rocectl tune plan -j --input "$FIXTURES/mlx5-vlan-healthy.json"
	jq -e '.to_apply == 0 and ([.changes[] | select(.skip == null)] == []) and
		(.changes | length == 1) and (.changes[0].from == "trust pcp") and
		(.changes[0].skip | test("egress-qos-map sets the priority"))' <<<"$output"
	run -0 rocectl tune plan --input "$FIXTURES/fault-vlan-no-egress-map.json"
	assert_line "skipped: dscp ens1f0np0 dscp-prio: trust pcp with RoCE on VLANs, but 'ens1f0np0.100' sends it at PCP 0: ip link set dev ens1f0np0.100 type vlan egress-qos-map 2:3 (tune does not write VLANs)"
	refute_output --partial "dcb app"
}

@test "each change carries the interface, the usual tool's command and its warning" {
	run -0 rocectl tune plan -j --input "$FIXTURES/fault-pfc-off-prio3.json"
	echo "$output" | jq -e '.changes[0] |
		.step == 1 and .via == "dcbnl RTM_SETDCB IEEE_SET PFC" and
		.command == "dcb pfc set dev ens1f0np0 prio-pfc 3:on" and
		(.warning | test("flaps the link")) and .needs_force == false and .skip == null'
	run -0 rocectl tune plan -j --input "$FIXTURES/fault-tos-0.json"
	echo "$output" | jq -e '.changes[0].command ==
		"mkdir -p /sys/kernel/config/rdma_cm/mlx5_0 && echo 106 > /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos"'
}

@test "an unreadable part is a skipped change with its reason" {
	run -0 rocectl tune plan -j --input "$FIXTURES/fault-debugfs-unreadable.json"
	echo "$output" | jq -e '.to_apply == 0 and .skipped == 1 and .changes[0].step == null and
		(.changes[0].skip | startswith("current value unknown: debugfs not mounted"))'
	run -0 rocectl tune plan --input "$FIXTURES/fault-debugfs-unreadable.json"
	assert_line --index 0 "nothing tune can change, but the host is not known to be at the intent (profile lossless-dscp), 1 skipped, 1 unknown (see 'rocectl check all')"
}

# "At the intent" only where check passes: what tune does not write (MTU,
# a firewall rule, lldpad, irdma before 6.5) is a manual step with its fix.
@test "tune plan lists what check fails and tune does not fix as manual steps, with their fix" {
	local f
	run -0 rocectl tune plan --input "$FIXTURES/fault-mtu-1500-intent-4096.json"
	assert_line --index 0 "nothing tune can change, but the host is not at the intent (profile lossless-dscp), 1 manual step (below)"
	assert_line "manual steps (tune does not change these; 'rocectl check' reports them):"
	assert_line "           fix: ip link set dev ens1f0np0 mtu 4192"
	run -0 rocectl tune plan -j --input "$FIXTURES/fault-nft-drop-roce.json"
	jq -e '.at_intent == false and .manual_steps == 1 and .manual[0].id == "firewall.roce_udp"' <<<"$output"
	run -0 rocectl tune plan -j --input "$FIXTURES/fault-lldpad-running.json"
	jq -e '.manual[0].id == "pfc.lldpad" and .manual[0].fix == "systemctl disable --now lldpad"' <<<"$output"
	run -0 rocectl tune plan -j --input "$FIXTURES/fault-irdma-vlan-pre65.json"
	jq -e '.at_intent == false and ([.manual[].id] | index("dscp.trust_pcp") != null)' <<<"$output"
	# what tune changes is no manual step; a healthy host is at the intent
	run -0 rocectl tune plan -j --input "$FIXTURES/fault-pfc-off-prio3.json"
	jq -e '.to_apply == 1 and .manual_steps == 0 and .manual == [] and .at_intent == false' <<<"$output"
	for f in mlx5-upstream-healthy bnxt-healthy; do
		run -0 rocectl tune plan -j --input "$FIXTURES/$f.json"
		jq -e '.at_intent == true and .manual == [] and .unknown == 0' <<<"$output"
	done
	run -0 rocectl tune plan -j --input "$FIXTURES/ice-irdma-healthy.json"
	jq -e '.at_intent == true and .manual == [] and .unknown == 0' <<<"$output"
}

@test "intent options change the plan; lldpad marks DCB changes as needing --force" {
	run -0 rocectl tune plan -j --input "$FIXTURES/fault-lldpad-running.json" --prio 4
	echo "$output" | jq -e '[.changes[] | select(.setting == "prio-pfc")][0] |
		.from == "3" and .to == "4" and .needs_force == true and (.warning | test("lldpad"))'
	run -0 rocectl tune plan -j --input "$FIXTURES/mlx5-upstream-healthy.json" --tos 104
	echo "$output" | jq -e '[.changes[] | .to] == ["104"]'
	run -0 rocectl tune plan -j --input "$FIXTURES/mlx5-upstream-healthy.json" --profile lossy-ecn
	echo "$output" | jq -e '.profile == "lossy-ecn" and
		([.changes[] | "\(.setting) \(.from) \(.to)"] | index("prio-pfc 3 none") != null)'
}

@test "plan: usage errors exit 64, a missing snapshot exits 3" {
	run -64 rocectl tune plan --prio 9 --input "$FIXTURES/bnxt-healthy.json"
	run -64 rocectl tune plan extra more
	run -3 rocectl tune plan --input /nonexistent.json
}

@test "apply without root is refused before anything is read" {
	run --separate-stderr timeout 10 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$ROCECTL" tune apply --yes
	assert_failure 3
	assert_equal "$stderr" "rocectl: 'rocectl tune apply' needs root"
	run --separate-stderr timeout 10 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$ROCECTL" tune revert
	assert_failure 3
	assert_equal "$stderr" "rocectl: 'rocectl tune revert' needs root"
}

@test "apply without a tty and without --yes is refused before the host is read" {
	[ "$(id -u)" -eq 0 ] || fail "this test runs as root (the refusal comes after the root check)"
	# A state dir that must stay absent: nothing may be written.
	local sd=$BATS_TEST_TMPDIR/state
	run --separate-stderr timeout 30 "$ROCECTL" tune apply --state-dir "$sd" --tos 104 </dev/null
	assert_failure 64
	assert_equal "$stderr" "rocectl: not applying: stdin is not a terminal and --yes was not given"
	[ ! -e "$sd" ] || fail "apply wrote $sd"
}

@test "revert: a state file that is not one is rejected, nothing written" {
	local f=$BATS_TEST_TMPDIR/tune-x.json
	chmod 700 "$BATS_TEST_TMPDIR"
	echo '{"schema_version": 1, "kind": "rocectl-host-snapshot"}' >"$f"
	run --separate-stderr timeout 10 "$ROCECTL" tune revert "$f"
	assert_failure 3
	assert_equal "$stderr" "rocectl: cannot read state file '$f': not a rocectl tune state (version 1)"
	run --separate-stderr timeout 10 "$ROCECTL" tune revert --state-dir "$BATS_TEST_TMPDIR/none"
	assert_failure 3
	assert_equal "$stderr" "rocectl: cannot open state directory '$BATS_TEST_TMPDIR/none': No such file or directory"
}

@test "plan --dev: only the ports named, like check; a filter that matches nothing exits 3" {
	local f=$FIXTURES/mlx5-vf-beside-pf-healthy.json
	run -0 rocectl tune plan -j --tos 104 --dev mlx5_0 -i "$f"
	echo "$output" | jq -e '[.changes[].target] == ["mlx5_0/1"]'
	run -0 rocectl tune plan -j --tos 104 -d ens1f0v0 -i "$f"
	echo "$output" | jq -e '[.changes[].target] | length > 0 and all(. == "ens1f0v0" or . == "mlx5_2/1")'
	run -0 rocectl tune plan -j --tos 104 --ib-dev mlx5_2/1 -i "$f"
	echo "$output" | jq -e '[.changes[].target] | index("mlx5_0/1") == null'
	run --separate-stderr -3 rocectl tune plan --dev mlx5_9 -i "$f"
	assert_equal "$stderr" "rocectl: no RDMA device, port or netdev matches '--dev mlx5_9' on 'node11'"
}

@test "the plan says that its changes do not survive a reboot or a driver reload" {
	run -0 rocectl tune plan -i "$FIXTURES/fault-pfc-off-prio3.json"
	assert_line "these settings do not survive a reboot or a driver reload: 'tune apply --persist' re-applies the intent at boot"
	assert_line "        lost at: reboot, mlx5_core driver reload"
	# one name, the kernel module's, also where the RDMA device's driver ("mlx5") owns the setting
	local f
	for f in fault-ecn-np-disabled fault-cnp-dscp-on-data-prio; do
		run rocectl tune plan -i "$FIXTURES/$f.json"
		assert_line "        lost at: reboot, mlx5_core driver reload"
		refute_line --partial "mlx5 driver reload"
	done
	run -0 rocectl tune plan -j -i "$FIXTURES/fault-tos-0.json"
	echo "$output" | jq -e '.persistent == false and .changes[0].lost_on == "reboot, rdma_cm module reload"'
	run -0 rocectl tune plan -i "$FIXTURES/mlx5-upstream-healthy.json"
	refute_output --partial "do not survive"
}

@test "apply --persist without rocectl-tune.service installed is refused before the host is read" {
	run --separate-stderr -3 env ROCECTL_SYSTEMD_DIR="$BATS_TEST_TMPDIR/units" \
		"$ROCECTL" tune apply --yes --persist --state-dir "$BATS_TEST_TMPDIR/state"
	assert_equal "$stderr" "rocectl: cannot persist: unit 'rocectl-tune.service' is not installed in $BATS_TEST_TMPDIR/units or the systemd unit directories ('make install' installs it)"
	[ ! -e "$BATS_TEST_TMPDIR/state" ] && [ ! -e "$BATS_TEST_TMPDIR/units" ]
}

@test "plan and apply take the device as their positional argument too, as --dev" {
	local f=$FIXTURES/mlx5-vf-beside-pf-healthy.json
	run -0 rocectl tune plan mlx5_0 -j --tos 104 -i "$f"
	echo "$output" | jq -e '[.changes[].target] == ["mlx5_0/1"]'
	run -0 rocectl tune plan mlx5_0 -j --tos 104 -d mlx5_0 -i "$f"
	run --separate-stderr -64 rocectl tune plan mlx5_0 -d mlx5_2 -i "$f"
	assert_equal "$stderr" "rocectl: tune plan: 'mlx5_0' and '--dev mlx5_2' name two devices; give one"
	run --separate-stderr -64 rocectl tune plan mlx5_0 mlx5_2 -i "$f"
	assert_equal "$stderr" "rocectl: tune plan: too many arguments (see 'rocectl tune plan --help')"
	run --separate-stderr -3 rocectl tune plan mlx5_9 -i "$f"
	# apply: the same parsing, refused before anything is read or written
	run --separate-stderr -64 rocectl tune apply mlx5_0 --dev mlx5_2 --yes
	assert_equal "$stderr" "rocectl: tune apply: 'mlx5_0' and '--dev mlx5_2' name two devices; give one"
	run --separate-stderr -64 rocectl tune apply mlx5_0 mlx5_2 --yes
	assert_equal "$stderr" "rocectl: tune apply: too many arguments (see 'rocectl tune apply --help')"
}

# mlx5's np_cnp_prio_mode 1: the CNP takes each packet's priority and
# np_cnp_prio is unused (drivers/infiniband/hw/mlx5/cong.c), so an
# np_cnp_prio at the intent is not the CNP's priority.
@test "np_cnp_prio_mode 1: check cnp warns with np_cnp_prio's fix, tune plan sets the mode to 0 first" {
	local f=$BATS_TEST_TMPDIR/mode1.json
	jq '(.host.netdevs[0].cc.params[] | select(.name == "np_cnp_prio_mode") | .value) = 1' \
		"$FIXTURES/mlx5-upstream-healthy.json" >"$f"
	run -1 rocectl check cnp -j -i "$f"
	jq -e '[.findings[] | select(.status != "pass")] | length == 1 and .[0].id == "cnp.mismatch" and
		.[0].got == "CNP DSCP 48 prio of each packet (np_cnp_prio_mode 1)" and
		.[0].setting_id == "cnp-prio" and
		.[0].fix == "echo 6 > /sys/kernel/debug/mlx5/0000:3b:00.0/cc_params/np_cnp_prio"' <<<"$output"
	run -0 rocectl tune plan -j -i "$f"
	jq -e '.to_apply == 1 and .manual == [] and .changes[0].setting == "np_cnp_prio_mode" and
		.changes[0].from == "1" and .changes[0].to == "0" and .changes[0].setting_id == "cnp-prio"' <<<"$output"
	# mode 0 with np_cnp_prio at the intent: nothing to change
	run -0 rocectl check cnp -i "$FIXTURES/mlx5-upstream-healthy.json"
	run -0 rocectl tune plan -j -i "$FIXTURES/mlx5-upstream-healthy.json"
	jq -e '.to_apply == 0 and .at_intent' <<<"$output"
}
