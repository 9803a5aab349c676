#!/usr/bin/env bats
# rocectl tune on the real Soft-RoCE hosts: rdma_cm mode and ToS through
# configfs are written and read back; DCB and pause, which veth answers with
# EOPNOTSUPP, are reported and skipped; a step made to fail rolls back to the
# exact previous values; revert restores; a second apply is a no-op.

bats_require_minimum_version 1.5.0

setup() {
	load lab
	ROCECTL=${ROCECTL:-$PWD/build/rocectl}
	SD=$BATS_TEST_TMPDIR/state
}

teardown() {
	# rdma_cm values outlive their configfs directory, which tune removes when
	# it made it: write the baseline back through the knobs, which lab_reset undoes.
	knob_roce_tos "$LAB_A_DEV" 0
	knob_roce_tos "$LAB_B_DEV" 0
	lab_reset
}

# The rdma_cm default ToS of DEV port 1, read the way the knobs write it.
cm_tos() {
	local d
	d=$(lab_cm_dir "$1") && cat "$d/default_roce_tos"
}

tune() {
	timeout 60 "$ROCECTL" tune "$@"
}

@test "plan: the ToS of both ports to change; DCB and pause not supported by veth, skipped" {
	run -0 tune plan -j
	echo "$output" | jq -e --arg a "$LAB_A_DEV/1" --arg b "$LAB_B_DEV/1" '
		[.changes[] | select(.skip == null) | "\(.target) \(.setting) \(.from) \(.to)"] ==
			["\($a) default_roce_tos 0 106", "\($b) default_roce_tos 0 106"] and
		([.changes[] | select(.skip != null and .area == "pfc") | .skip] |
			length >= 2 and all(startswith("not supported by veth")))'
}

@test "apply writes configfs, skips what veth cannot do, and the checks pass; apply again is a no-op" {
	run --separate-stderr tune apply -j --yes --state-dir "$SD"
	assert_success
	echo "$output" | jq -e '.left_to_apply == 0 and
		([.result.changes[] | select(.status == "applied") | .setting] ==
			["default_roce_tos", "default_roce_tos"]) and
		([.findings[] | select(.id == "mode.tos") | .status] | length == 2 and all(. == "pass"))'
	assert_regex "$stderr" "warning: skipped prio-pfc of '$LAB_A_IF': not supported by veth"
	[ "$(cm_tos "$LAB_A_DEV")" = 106 ] && [ "$(cm_tos "$LAB_B_DEV")" = 106 ]
	# The state file holds the previous values and says applied.
	jq -e '.status == "applied" and
		([.changes[] | select(.status == "applied") | .old_text] == ["0", "0"])' "$SD"/tune-*.json
	run -0 tune apply --yes --state-dir "$SD"
	# veth has no DCB: PFC and the rest stay unknown, so the host is not known to be at the intent
	assert_line --index 0 --regexp "^nothing tune can change, but the host is not (known to be )?at the intent \(profile lossless-dscp\), [0-9]+ skipped.*, [0-9]+ unknown \(see 'rocectl check all'\)$"
	[ "$(ls "$SD"/tune-*.json | wc -l)" -eq 1 ] || fail "the no-op apply wrote a state file"
}

@test "a step made to fail rolls back to the exact previous values" {
	knob_roce_tos "$LAB_A_DEV" 42
	knob_roce_tos "$LAB_B_DEV" 17
	ROCECTL_TUNE_FAIL_STEP=2 run --separate-stderr tune apply --yes --state-dir "$SD"
	assert_failure 3
	assert_regex "$stderr" "step 2 failed: cannot set default_roce_tos of '$LAB_B_DEV/1': injected failure.*; rolled back 1 change$"
	[ "$(cm_tos "$LAB_A_DEV")" = 42 ] || fail "rxe0 ToS is $(cm_tos "$LAB_A_DEV"), not 42"
	[ "$(cm_tos "$LAB_B_DEV")" = 17 ] || fail "rxe1 ToS is $(cm_tos "$LAB_B_DEV"), not 17"
	jq -e '.status == "rolled-back" and
		([.changes[] | select(.skip == null) | .status] == ["rolled-back", "failed"])' "$SD"/tune-*.json
	# Nothing left to revert: success, said so.
	run -0 tune revert --state-dir "$SD"
}

# The digest of a live host: the same when nothing changed (counters, the
# veth link and rdma_cm's live ids move by themselves and are left out).
@test "apply --plan: the reviewed plan of the live host, refused once the host changed since" {
	local p=$BATS_TEST_TMPDIR/plan.json
	knob_roce_tos "$LAB_A_DEV" 42
	knob_roce_tos "$LAB_B_DEV" 17
	tune plan -j --only mode >"$p"
	chmod 600 "$p"
	# B's ToS changed after the review: refused, nothing written
	knob_roce_tos "$LAB_B_DEV" 18
	run --separate-stderr tune apply --plan "$p" --yes --state-dir "$SD"
	assert_failure 3
	assert_equal "$stderr" "rocectl: not applying '$p': the host changed since the plan: port $LAB_B_DEV/1 reads otherwise now: make a new plan"
	[ "$(cm_tos "$LAB_A_DEV")" = 42 ] && [ "$(cm_tos "$LAB_B_DEV")" = 18 ]
	# back as it was reviewed: applied, exactly the plan's two changes
	knob_roce_tos "$LAB_B_DEV" 17
	run --separate-stderr tune apply -j --plan "$p" --yes --state-dir "$SD"
	assert_success
	jq -e '.left_to_apply == 0 and
		([.result.changes[] | select(.status == "applied") | "\(.setting) \(.from)"] ==
			["default_roce_tos 42", "default_roce_tos 17"])' <<<"$output"
	[ "$(cm_tos "$LAB_A_DEV")" = 106 ] && [ "$(cm_tos "$LAB_B_DEV")" = 106 ]
	# the same plan again: the host is no longer the one it read
	run --separate-stderr tune apply --plan "$p" --yes --state-dir "$SD"
	assert_failure 3
	assert_regex "$stderr" "the host changed since the plan: port $LAB_A_DEV/1 reads otherwise now"
	run -0 tune revert --state-dir "$SD"
	[ "$(cm_tos "$LAB_A_DEV")" = 42 ] && [ "$(cm_tos "$LAB_B_DEV")" = 17 ]
}

@test "revert puts the saved values back, and only once" {
	knob_roce_tos "$LAB_A_DEV" 42
	knob_roce_tos "$LAB_B_DEV" 17
	run -0 tune apply --yes --state-dir "$SD"
	[ "$(cm_tos "$LAB_A_DEV")" = 106 ] && [ "$(cm_tos "$LAB_B_DEV")" = 106 ]
	run -0 tune revert --state-dir "$SD"
	[ "$(cm_tos "$LAB_A_DEV")" = 42 ] || fail "rxe0 ToS is $(cm_tos "$LAB_A_DEV"), not 42"
	[ "$(cm_tos "$LAB_B_DEV")" = 17 ] || fail "rxe1 ToS is $(cm_tos "$LAB_B_DEV"), not 17"
	run --separate-stderr tune revert --state-dir "$SD"
	assert_success
	assert_output "nothing to revert: no applied tune state file in '$SD'"
}

@test "an undo of default_roce_tos that fails is retried by the next revert, and only it" {
	knob_roce_tos "$LAB_A_DEV" 42
	knob_roce_tos "$LAB_B_DEV" 17
	run -0 tune apply --yes --state-dir "$SD"
	# Step 2, host B's ToS, is the first undone: its undo fails, host A's is done.
	ROCECTL_TUNE_FAIL_STEP=2 run --separate-stderr tune revert --state-dir "$SD"
	assert_failure 3
	assert_line "reverted 1 change, 1 not undone: 'tune revert' again retries them"
	assert_regex "$stderr" "warning: not undone: default_roce_tos of '$LAB_B_DEV/1': injected failure"
	[ "$(cm_tos "$LAB_A_DEV")" = 42 ] || fail "rxe0 ToS is $(cm_tos "$LAB_A_DEV"), not 42"
	[ "$(cm_tos "$LAB_B_DEV")" = 106 ] || fail "rxe1 ToS is $(cm_tos "$LAB_B_DEV"), not 106"
	jq -e '.status == "revert-failed" and
		([.changes[] | select(.skip == null) | .status] == ["reverted", "revert-failed"])' "$SD"/tune-*.json
	# Host A changed by hand since: the retry writes host B only.
	knob_roce_tos "$LAB_A_DEV" 8
	run -0 tune revert --state-dir "$SD"
	assert_line "reverted 1 change"
	[ "$(cm_tos "$LAB_A_DEV")" = 8 ] || fail "rxe0 ToS is $(cm_tos "$LAB_A_DEV"), not 8"
	[ "$(cm_tos "$LAB_B_DEV")" = 17 ] || fail "rxe1 ToS is $(cm_tos "$LAB_B_DEV"), not 17"
	jq -e '.status == "reverted"' "$SD"/tune-*.json
	run -0 tune revert --state-dir "$SD"
}

@test "rdma_cm: apply removes only the configfs directory it created" {
	knob_roce_cm_reset "$LAB_A_DEV"
	[ ! -d "$LAB_RDMA_CM/$LAB_A_DEV" ] || fail "the baseline left $LAB_RDMA_CM/$LAB_A_DEV"
	run -0 tune apply --yes --state-dir "$SD" --tos 104
	[ ! -d "$LAB_RDMA_CM/$LAB_A_DEV" ] || fail "apply left $LAB_RDMA_CM/$LAB_A_DEV behind"
	[ "$(cm_tos "$LAB_A_DEV")" = 104 ]
}

@test "DCB and pause undos answered EOPNOTSUPP by the kernel are not undone, and say so" {
	mkdir -m 700 "$SD"
	# A state file as apply would write it for an mlx5 port, here on veth.
	cat >"$SD/tune-20000101T000000.000000000Z.json" <<-EOF
	{"schema_version": 1, "kind": "rocectl-tune-state", "status": "applied", "changes": [
	 {"area": "pfc", "target": "$LAB_A_IF", "setting": "global pause", "op": "pause",
	  "ifname": "$LAB_A_IF", "driver": "veth", "old_val": 6, "new_val": 0, "status": "applied"},
	 {"area": "pfc", "target": "$LAB_A_IF", "setting": "prio-pfc", "op": "pfc",
	  "ifname": "$LAB_A_IF", "driver": "veth", "old_val": 0, "new_val": 8, "pfc_cap": 8,
	  "via": "dcbnl RTM_SETDCB IEEE_SET PFC", "status": "applied"},
	 {"area": "dscp", "target": "$LAB_A_IF", "setting": "dscp-prio 26", "op": "app-add",
	  "ifname": "$LAB_A_IF", "driver": "veth", "app_selector": 5, "app_protocol": 26,
	  "app_prio": 3, "via": "dcbnl RTM_SETDCB IEEE_SET APP", "status": "applied"}]}
	EOF
	# The values apply wrote may still be there: never "reverted", never "skipped".
	run --separate-stderr tune revert -j --state-dir "$SD"
	assert_failure 3
	echo "$output"	# shown when the test fails
	echo "$output" | jq -e '[.changes[] | .status] == ["revert-failed", "revert-failed", "revert-failed"] and
		(.changes[1].result | test("^not supported by veth .*cannot set prio-pfc .*Operation not supported")) and
		.reverted == 0 and .not_reverted == 3'
	assert_regex "$stderr" "warning: not undone: dscp-prio 26 of '$LAB_A_IF': not supported by veth"
	jq -e '.status == "revert-failed"' "$SD"/tune-*.json
}

@test "apply and revert as a non-root user are refused" {
	run --separate-stderr timeout 10 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$ROCECTL" tune apply --yes --state-dir "$SD"
	assert_failure 3
	assert_equal "$stderr" "rocectl: 'rocectl tune apply' needs root"
	[ ! -e "$SD" ]
}

@test "--persist enables rocectl-tune.service with the intent in a drop-in; revert removes both" {
	local units=$BATS_TEST_TMPDIR/units
	mkdir -p "$units"
	cp "$PWD/systemd/rocectl-tune.service" "$units/"
	run --separate-stderr env ROCECTL_SYSTEMD_DIR="$units" timeout 60 "$ROCECTL" \
		tune apply --yes --persist --dev "$LAB_A_DEV" --tos 104 --state-dir "$SD"
	assert_success
	assert_line "re-applied at boot by rocectl-tune.service (enabled; intent in $units/rocectl-tune.service.d/persist.conf)"
	[ "$(readlink "$units/multi-user.target.wants/rocectl-tune.service")" = "$units/rocectl-tune.service" ]
	grep -qx 'Environment="ROCECTL_TUNE_ARGS=--profile lossless-dscp --prio 3 --dscp 26 --cnp-prio 6 --cnp-dscp 48 --tos 104 --mtu 4096 --dev '"$LAB_A_DEV"'"' \
		"$units/rocectl-tune.service.d/persist.conf"
	# --dev kept host B untouched
	[ "$(cm_tos "$LAB_A_DEV")" = 104 ] && [ "$(cm_tos "$LAB_B_DEV")" = 0 ]
	# the unit's command line, with the drop-in's options, reaches the same state: a no-op now
	run -0 timeout 60 "$ROCECTL" tune apply --yes --state-dir "$SD" --profile lossless-dscp \
		--prio 3 --dscp 26 --cnp-prio 6 --cnp-dscp 48 --tos 104 --mtu 4096 --dev "$LAB_A_DEV"
	assert_line --index 0 --regexp "^nothing tune can change"
	run -0 env ROCECTL_SYSTEMD_DIR="$units" timeout 60 "$ROCECTL" tune revert --state-dir "$SD"
	assert_line "disabled the boot-time re-apply (rocectl-tune.service)"
	[ ! -e "$units/multi-user.target.wants/rocectl-tune.service" ]
	[ ! -e "$units/rocectl-tune.service.d" ]
	[ -f "$units/rocectl-tune.service" ]
	[ "$(cm_tos "$LAB_A_DEV")" = 0 ]
}

@test "--persist without the unit installed fails in one line and enables nothing" {
	local units=$BATS_TEST_TMPDIR/empty
	mkdir -p "$units"
	# the lab's root is this machine's userland, where rocectl is not installed
	run --separate-stderr env ROCECTL_SYSTEMD_DIR="$units" timeout 60 "$ROCECTL" \
		tune apply --yes --persist --state-dir "$SD"
	assert_failure 3
	assert_regex "$stderr" "^rocectl: cannot persist: unit 'rocectl-tune.service' is not installed"
	# refused before anything was written
	[ ! -e "$units/multi-user.target.wants" ] && [ ! -e "$SD" ]
	[ "$(cm_tos "$LAB_A_DEV")" = 0 ]
}
