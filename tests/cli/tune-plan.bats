#!/usr/bin/env bats
# tune apply --plan: a reviewed plan ('tune plan -j') is applied exactly as
# written, and only while the host reads as it did when the plan was made;
# --only and --skip schedule a change (a PFC link flap) apart. apply reads
# its host from a fixture here (ROCECTL_TUNE_TEST_HOST, a test aid) and
# writes the rdma_cm ToS into a redirected configfs, as tune-state.bats does.
load helpers

setup() {
	[ "$(id -u)" -eq 0 ] || fail "these tests run as root (apply needs root)"
	T=$BATS_TEST_TMPDIR
	chmod 700 "$T"
	export ROCECTL_CONFIGFS=$T/cfg ROCECTL_SYSFS=$T/sys ROCECTL_DEBUGFS=$T/dbg
	mkdir -p "$T/cfg/rdma_cm/mlx5_0/ports/1" "$T/sys" "$T/dbg" "$T/state"
	chmod 700 "$T/state"
	TOS=$T/cfg/rdma_cm/mlx5_0/ports/1/default_roce_tos
	echo 0 >"$TOS"
	echo keep >"$T/victim"
	# PFC off on the RoCE priority and ToS 0: a PFC change and a ToS change.
	jq '.host.devices[0].ports[0].rdma_cm.default_roce_tos = 0' "$FIXTURES/fault-pfc-off-prio3.json" >"$T/host.json"
	# The host after the ToS change alone.
	jq '.host.devices[0].ports[0].rdma_cm.default_roce_tos = 106' "$T/host.json" >"$T/after.json"
	export ROCECTL_TUNE_TEST_HOST=$T/host.json ROCECTL_TUNE_TEST_HOST_AFTER=$T/after.json
}

# plan FILE [OPTION...]: the reviewed plan of the test host, mode 0600.
plan() {
	local f=$1
	shift
	rocectl tune plan -j -i "$T/host.json" "$@" >"$f"
	chmod 600 "$f"
}

apply() {
	run --separate-stderr timeout 30 "$ROCECTL" tune apply --state-dir "$T/state" --yes "$@"
}

# apply_refused PLAN [OPTION...]: exit 3, one line on stderr, nothing written.
apply_refused() {
	apply --plan "$@"
	assert_failure 3
	[ "$(wc -l <<<"$stderr")" -eq 1 ] || fail "more than one line: $stderr"
	assert_equal "$(cat "$TOS")" 0
	assert_equal "$(cat "$T/victim")" keep
	[ -z "$(compgen -G "$T/state/tune-*.json")" ] || fail "a state file was written: $(ls "$T/state")"
}

@test "the plan's JSON carries its digest and every field apply writes" {
	plan "$T/p.json"
	jq -e '.plan_version == 1 and .hostname == "node11" and .to_apply == 2 and
		([.digest.parts[].part] == ["intent", "host", "port mlx5_0/1", "netdev ens1f0np0"]) and
		(.digest.all | test("^[0-9a-f]{16}$")) and
		(.changes | map(.op) == ["pfc", "write"]) and
		.changes[1].path == "'"$TOS"'" and .changes[1].old_text == "0" and .changes[1].new_text == "106"' "$T/p.json"
	# The same host and intent digest the same; another intent does not.
	rocectl tune plan -j -i "$T/host.json" >"$T/q.json"
	assert_equal "$(jq -c .digest "$T/p.json")" "$(jq -c .digest "$T/q.json")"
	rocectl tune plan -j -i "$T/host.json" --tos 104 >"$T/q.json"
	[ "$(jq -r .digest.all "$T/p.json")" != "$(jq -r .digest.all "$T/q.json")" ]
}

@test "apply --plan applies exactly the plan, not a plan made again" {
	# Reviewed with PFC held back: apply writes the ToS and never touches PFC.
	plan "$T/p.json" --skip pfc
	apply --plan "$T/p.json" -j
	assert_success
	assert_equal "$(head -1 "$TOS")" 106
	jq -e '(.result.changes | map([.setting, .status])) == [["prio-pfc", "skipped"], ["default_roce_tos", "applied"]] and
		.result.changes[0].skip == "--skip pfc" and .left_to_apply == 0' <<<"$output"
	# The state file holds what was applied, for revert.
	jq -e '[.changes[] | select(.status == "applied") | .setting] == ["default_roce_tos"]' "$T"/state/tune-*.json
	run -0 rocectl tune revert --state-dir "$T/state"
	assert_equal "$(head -1 "$TOS")" 0
}

@test "apply --plan shows the plan's skipped changes with their reason" {
	plan "$T/p.json" --skip pfc
	apply --plan "$T/p.json"
	assert_success
	assert_line "skipped: pfc ens1f0np0 prio-pfc: --skip pfc"
	assert_line --regexp '^ +1  mode  mlx5_0/1 +default_roce_tos  0 +106 +applied$'
}

@test "a host changed since the plan is refused, nothing written" {
	plan "$T/p.json"
	jq '.host.netdevs[0].pfc.pfc_en[0] = true' "$T/host.json" >"$T/changed.json"
	ROCECTL_TUNE_TEST_HOST=$T/changed.json apply_refused "$T/p.json"
	assert_equal "$stderr" "rocectl: not applying '$T/p.json': the host changed since the plan: netdev ens1f0np0 reads otherwise now: make a new plan"
	jq '.host.devices[0].ports[0].rdma_cm.default_roce_tos = 96' "$T/host.json" >"$T/changed.json"
	ROCECTL_TUNE_TEST_HOST=$T/changed.json apply_refused "$T/p.json"
	assert_equal "$stderr" "rocectl: not applying '$T/p.json': the host changed since the plan: port mlx5_0/1 reads otherwise now: make a new plan"
	apply_refused "$T/p.json" --tos 104
	assert_equal "$stderr" "rocectl: not applying '$T/p.json': the intent differs from the plan's (profile, config file or intent options): make a new plan"
	jq '.hostname = "node12"' "$T/p.json" >"$T/other.json"
	apply_refused "$T/other.json"
	assert_equal "$stderr" "rocectl: not applying '$T/other.json': it was made for host 'node12', this is 'node11'"
	# moving counters are not a change
	jq '.host.netdevs[0].pfc.requests[3] += 5000' "$T/host.json" >"$T/moved.json"
	ROCECTL_TUNE_TEST_HOST=$T/moved.json apply --plan "$T/p.json" --skip pfc
	assert_success
}

@test "a plan file that is not one, is cut short, or names a path tune does not write is refused" {
	plan "$T/p.json"
	head -c 700 "$T/p.json" >"$T/cut.json"
	apply_refused "$T/cut.json"
	assert_regex "$stderr" "^rocectl: cannot read plan '$T/cut.json': "
	jq 'del(.changes[1])' "$T/p.json" >"$T/short.json"
	apply_refused "$T/short.json"
	assert_equal "$stderr" "rocectl: cannot read plan '$T/short.json': it lists 1 changes to apply and 0 skipped, but says 2 and 0 (truncated or edited)"
	jq --arg v "$T/victim" '.changes[1].path = $v' "$T/p.json" >"$T/evil.json"
	apply_refused "$T/evil.json"
	assert_equal "$stderr" "rocectl: cannot read plan '$T/evil.json': change 2: not a file tune writes: '$T/victim'"
	jq '.changes[1].path = "'"$T"'/cfg/rdma_cm/../../victim"' "$T/p.json" >"$T/evil.json"
	apply_refused "$T/evil.json"
	assert_regex "$stderr" "change 2: not a file tune writes"
	jq '.digest.parts[3].hash = "0000000000000000"' "$T/p.json" >"$T/edited.json"
	apply_refused "$T/edited.json"
	assert_equal "$stderr" "rocectl: cannot read plan '$T/edited.json': its digest does not match its parts (edited or truncated)"
	rocectl collect -i "$T/host.json" -O "$T/snap.json" 2>/dev/null || cp "$T/host.json" "$T/snap.json"
	apply_refused "$T/snap.json"
	assert_equal "$stderr" "rocectl: cannot read plan '$T/snap.json': not the output of 'rocectl tune plan -j' (plan_version 1)"
	cp "$T/p.json" "$T/open.json"
	chmod 666 "$T/open.json"
	apply_refused "$T/open.json"
	assert_equal "$stderr" "rocectl: cannot read plan '$T/open.json': others may write it (chmod o-w)"
	mkfifo "$T/fifo"
	apply_refused "$T/fifo"
	assert_equal "$stderr" "rocectl: cannot read plan '$T/fifo': not a regular file"
	apply_refused "$T/none.json"
	assert_equal "$stderr" "rocectl: cannot open plan '$T/none.json': No such file or directory"
}

@test "--only pfc: the plan lists every other change as skipped, with the reason" {
	run -0 rocectl tune plan -j -i "$T/host.json" --only pfc
	jq -e '.to_apply == 1 and .skipped == 1 and .held_count == 1 and .manual_steps == 0 and .at_intent == false and
		(.changes | map([.setting, .skip]) == [["prio-pfc", null], ["default_roce_tos", "not in --only pfc"]])' <<<"$output"
	run -0 rocectl tune plan -i "$T/host.json" --only pfc
	assert_line --index 0 "1 change to reach the intent (profile lossless-dscp), 1 skipped"
	assert_line "skipped: mode mlx5_0/1 default_roce_tos: not in --only pfc"
	run -0 rocectl tune plan -i "$T/host.json" --only mode --skip cm-tos
	assert_line --index 0 "nothing to change of what --only and --skip select, but the host is not at the intent (profile lossless-dscp), 2 skipped"
	run -0 rocectl tune plan -j -i "$T/host.json" --skip pfc,mode
	jq -e '.to_apply == 0 and ([.changes[].skip] == ["--skip pfc", "--skip mode"])' <<<"$output"
}

@test "apply --plan --only pfc writes the PFC change alone" {
	plan "$T/p.json"
	# Step 1 is made to fail: the PFC write is the only one apply tries.
	ROCECTL_TUNE_FAIL_STEP=1 apply --plan "$T/p.json" --only pfc -j
	assert_failure 3
	assert_equal "$stderr" "rocectl: warning: skipped default_roce_tos of 'mlx5_0/1': not in --only pfc
rocectl: step 1 failed: cannot set prio-pfc of 'ens1f0np0': injected failure (ROCECTL_TUNE_FAIL_STEP=1); rolled back 0 changes"
	jq -e '(.result.changes | map([.setting, .status, .skip])) ==
		[["prio-pfc", "failed", null], ["default_roce_tos", "skipped", "not in --only pfc"]]' <<<"$output"
	assert_equal "$(cat "$TOS")" 0
	# --skip pfc at apply: the rest of the same plan, later
	apply --plan "$T/p.json" --skip pfc
	assert_success
	assert_equal "$(head -1 "$TOS")" 106
}

@test "--only and --skip take areas and setting ids only; --plan takes no device" {
	run --separate-stderr -64 rocectl tune plan -i "$T/host.json" --only pfcc
	assert_equal "$stderr" "rocectl: invalid value 'pfcc' for '--only': expected an area or a setting id (rocectl-tune(8))"
	run --separate-stderr -64 rocectl tune plan -i "$T/host.json" --skip prio-pfc
	assert_equal "$stderr" "rocectl: invalid value 'prio-pfc' for '--skip': expected an area or a setting id (rocectl-tune(8))"
	plan "$T/p.json"
	run --separate-stderr -64 "$ROCECTL" tune apply --plan "$T/p.json" mlx5_0 --yes
	assert_equal "$stderr" "rocectl: --plan applies the ports of its plan: no device with it ('tune plan DEV -j' makes a plan of one)"
}
