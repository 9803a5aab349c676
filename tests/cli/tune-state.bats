#!/usr/bin/env bats
# tune revert trusts nothing in its state file: every entry must name what tune itself writes,
# and the file must be root's (or the caller's) and writable by nobody else. Each crafted file
# below was written by the old revert, as root, wherever it pointed.
load helpers

setup() {
	[ "$(id -u)" -eq 0 ] || fail "these tests run as root (revert needs root)"
	T=$BATS_TEST_TMPDIR
	export ROCECTL_CONFIGFS=$T/cfg ROCECTL_SYSFS=$T/sys ROCECTL_DEBUGFS=$T/dbg
	mkdir -p "$T/cfg/rdma_cm/mlx5_0/ports/1" "$T/sys/class/net/eth0/ecn/roce_np/enable" "$T/dbg"
	echo 106 >"$T/cfg/rdma_cm/mlx5_0/ports/1/default_roce_tos"
	echo keep >"$T/victim"
	TOS=$T/cfg/rdma_cm/mlx5_0/ports/1/default_roce_tos
}

# state FILE CHANGE-JSON...: a state file, status applied, mode 0600.
state() {
	local f=$1 c
	shift
	c=$(IFS=,; echo "$*")
	printf '{"schema_version": 1, "kind": "rocectl-tune-state", "status": "applied", "changes": [%s]}\n' "$c" >"$f"
	chmod 600 "$f"
}

# write_change PATH [EXTRA-JSON]: a rdma_cm ToS change as tune apply records it.
write_change() {
	printf '{"op": "write", "target": "mlx5_0/1", "setting": "default_roce_tos", "via": "%s", "path": "%s", "old_text": "0", "new_text": "106", "status": "applied"%s}' "$1" "$1" "${2:+, $2}"
}

revert_refused() {
	run --separate-stderr timeout 10 "$ROCECTL" tune revert "$1"
	assert_failure 3
	[ "$(wc -l <<<"$stderr")" -eq 1 ] || fail "more than one line: $stderr"
	assert_equal "$(cat "$T/victim")" keep
}

@test "a valid state file is reverted (the control for the refusals below)" {
	state "$T/ok.json" "$(write_change "$TOS")"
	run --separate-stderr timeout 10 "$ROCECTL" tune revert "$T/ok.json"
	assert_success
	# A kernel attribute takes the one write; a plain file keeps the rest of "106".
	assert_equal "$(head -1 "$TOS")" 0
}

@test "a file outside the trees tune writes is refused, nothing written" {
	state "$T/s.json" "$(write_change "$T/victim")"
	revert_refused "$T/s.json"
	assert_equal "$stderr" "rocectl: cannot read state file '$T/s.json': change 1: not a file tune writes: '$T/victim'"
}

@test "path traversal out of configfs is refused" {
	state "$T/s.json" "$(write_change "$T/cfg/rdma_cm/../../victim")"
	revert_refused "$T/s.json"
	assert_regex "$stderr" "change 1: not a file tune writes"
	state "$T/s.json" "$(write_change "$T/cfg/rdma_cm/mlx5_0/ports/1/../../../../../victim")"
	revert_refused "$T/s.json"
}

@test "a file of the right tree but not one tune writes is refused" {
	echo 1 >"$T/cfg/rdma_cm/mlx5_0/ports/1/other"
	state "$T/s.json" "$(write_change "$T/cfg/rdma_cm/mlx5_0/ports/1/other")"
	revert_refused "$T/s.json"
	assert_equal "$(cat "$T/cfg/rdma_cm/mlx5_0/ports/1/other")" 1
}

@test "a symlink out of the tree is refused at the write" {
	mkdir -p "$T/cfg/rdma_cm/evil/ports" "$T/outside"
	echo keep >"$T/outside/default_roce_tos"
	ln -s "$T/outside" "$T/cfg/rdma_cm/evil/ports/1"
	state "$T/s.json" "$(write_change "$T/cfg/rdma_cm/evil/ports/1/default_roce_tos")"
	run --separate-stderr timeout 10 "$ROCECTL" tune revert "$T/s.json"
	assert_failure 3
	assert_regex "$stderr" "refusing to write .*outside the trees tune writes"
	assert_equal "$(cat "$T/outside/default_roce_tos")" keep
	# The final component a symlink: refused by the open (O_NOFOLLOW).
	ln -s "$T/victim" "$T/cfg/rdma_cm/mlx5_0/ports/1/default_roce_mode"
	state "$T/s.json" "$(write_change "$T/cfg/rdma_cm/mlx5_0/ports/1/default_roce_mode")"
	run --separate-stderr timeout 10 "$ROCECTL" tune revert "$T/s.json"
	assert_failure 3
	assert_equal "$(cat "$T/victim")" keep
}

@test "mkdir and commit must be tune's own directories and files" {
	state "$T/s.json" "$(write_change "$TOS" "\"mkdir\": \"$T/newdir\"")"
	revert_refused "$T/s.json"
	assert_regex "$stderr" "change 1: not a directory tune creates: '$T/newdir'"
	[ ! -e "$T/newdir" ] || fail "revert created $T/newdir"
	state "$T/s.json" "$(write_change "$TOS" "\"mkdir\": \"$T/cfg/rdma_cm/mlx5_9\"")"
	revert_refused "$T/s.json"
	state "$T/s.json" "$(write_change "$TOS" "\"commit\": \"$T/victim\"")"
	revert_refused "$T/s.json"
}

@test "netdev ops need a netdev name and values in range" {
	local pfc='{"op": "pfc", "target": "eth0", "setting": "prio-pfc", "via": "dcbnl", "status": "applied"'
	state "$T/s.json" "$pfc, \"ifname\": \"../eth0\"}"
	revert_refused "$T/s.json"
	assert_regex "$stderr" "change 1: not a netdev name: ifname '../eth0'"
	state "$T/s.json" "$pfc, \"ifname\": \"\"}"
	revert_refused "$T/s.json"
	state "$T/s.json" "$pfc, \"ifname\": \"eth0\", \"old_val\": 4096}"
	revert_refused "$T/s.json"
	state "$T/s.json" '{"op": "app-add", "target": "eth0", "setting": "dscp-prio 26", "via": "dcbnl", "ifname": "eth0", "app_prio": 9, "status": "applied"}'
	revert_refused "$T/s.json"
	state "$T/s.json" '{"op": "rm-rf", "target": "eth0", "setting": "x", "via": "x", "status": "applied"}'
	revert_refused "$T/s.json"
	assert_regex "$stderr" "unknown op 'rm-rf'"
	# A skipped change is never written: marked applied, it is refused.
	state "$T/s.json" "$(write_change "$T/victim" '"skip": "no knob"')"
	revert_refused "$T/s.json"
	assert_regex "$stderr" "skipped change marked 'applied'"
}

@test "empty fields are named, not 'cannot set  of '' ()'" {
	state "$T/s.json" '{"op": "pfc", "ifname": "eth0", "status": "applied"}'
	revert_refused "$T/s.json"
	assert_equal "$stderr" "rocectl: cannot read state file '$T/s.json': change 1: empty target or setting for op 'pfc'"
	state "$T/s.json" "$(write_change "$TOS" | sed 's/"old_text": "0"/"old_text": ""/')"
	revert_refused "$T/s.json"
	assert_regex "$stderr" "empty or unprintable old_text"
}

@test "a state file writable by others, owned by another user, or a directory is refused" {
	state "$T/s.json" "$(write_change "$TOS")"
	chmod 0666 "$T/s.json"
	revert_refused "$T/s.json"
	assert_equal "$stderr" "rocectl: refusing state file '$T/s.json': writable by group or others (mode 0666)"
	chmod 0600 "$T/s.json"
	chown 65534 "$T/s.json"
	revert_refused "$T/s.json"
	assert_equal "$stderr" "rocectl: refusing state file '$T/s.json': owned by uid 65534, not root"
	revert_refused "$T"
	assert_equal "$stderr" "rocectl: cannot read state file '$T': it is a directory"
	assert_equal "$(cat "$TOS")" 106
}
