#!/usr/bin/env bats
# tune revert trusts nothing in its state file: every entry must name what tune itself writes,
# and the file must be root's (or the caller's) and writable by nobody else. Each crafted file
# below was written by the old revert, as root, wherever it pointed.
load helpers

setup() {
	[ "$(id -u)" -eq 0 ] || fail "these tests run as root (revert needs root)"
	T=$BATS_TEST_TMPDIR
	chmod 700 "$T"	# a state file's directory is root's alone (revert rewrites it there)
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
	# app-set too, and by what dcbnl carries: a u8 selector of 1-5 (261 went out as 5), a 6-bit DSCP
	# (a netdev this host does not have: an old revert that let them through sends nothing)
	local app='"target": "eth0", "setting": "dscp-prio 26", "via": "dcbnl", "ifname": "rctl-none0", "status": "applied"'
	state "$T/s.json" "{\"op\": \"app-set\", $app, \"app_selector\": 261, \"app_protocol\": 26, \"app_prio\": 3}"
	revert_refused "$T/s.json"
	assert_regex "$stderr" "change 1: APP entry out of range for op 'app-set'"
	state "$T/s.json" "{\"op\": \"app-set\", $app, \"app_selector\": 5, \"app_protocol\": 26, \"app_prio\": 3, \"old_val\": 8}"
	revert_refused "$T/s.json"
	assert_regex "$stderr" "APP entry out of range"
	state "$T/s.json" "{\"op\": \"app-del\", $app, \"app_selector\": 5, \"app_protocol\": 64, \"app_prio\": 3}"
	revert_refused "$T/s.json"
	assert_regex "$stderr" "APP entry out of range"
	# ETS: a priority's TC 0-7, a TSA of dcbnl's (0, 1, 2, 255), a bandwidth in percent
	local ets='"op": "ets", "target": "eth0", "setting": "ets", "via": "dcbnl", "ifname": "rctl-none0", "status": "applied"'
	state "$T/s.json" "{$ets, \"old_prio_tc\": [0,0,0,9,0,0,0,0]}"
	revert_refused "$T/s.json"
	assert_regex "$stderr" "change 1: prio_tc, tc_tsa, tc_tx_bw or ets_willing out of range for op 'ets'"
	state "$T/s.json" "{$ets, \"tc_tsa\": [2,2,3,2,2,2,2,2]}"
	revert_refused "$T/s.json"
	assert_regex "$stderr" "out of range for op 'ets'"
	state "$T/s.json" "{$ets, \"tc_tx_bw\": [101,0,0,0,0,0,0,0]}"
	revert_refused "$T/s.json"
	assert_regex "$stderr" "out of range for op 'ets'"
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
	mkdir -m 700 "$T/d.json"
	revert_refused "$T/d.json"
	assert_equal "$stderr" "rocectl: cannot read state file '$T/d.json': it is a directory"
	ln -s s.json "$T/l.json"
	revert_refused "$T/l.json"
	assert_equal "$stderr" "rocectl: refusing state file '$T/l.json': it is a symbolic link"
	assert_equal "$(cat "$TOS")" 106
}

@test "a FIFO or a device named like a state file is refused at once, not opened" {
	mkfifo -m 600 "$T/f.json"
	revert_refused "$T/f.json"
	assert_equal "$stderr" "rocectl: cannot read state file '$T/f.json': not a regular file"
	mknod -m 600 "$T/c.json" c 1 3	# /dev/null's numbers
	revert_refused "$T/c.json"
	assert_equal "$stderr" "rocectl: cannot read state file '$T/c.json': not a regular file"
	# In the state directory, the scan for the newest skips them.
	mkdir -m 700 "$T/sd"
	mkfifo -m 600 "$T/sd/tune-20990101T000000.000000000Z.json"
	run --separate-stderr timeout 10 "$ROCECTL" tune revert --state-dir "$T/sd"
	assert_success
	assert_equal "$stderr" ""
	assert_output "nothing to revert: no applied tune state file in '$T/sd'"
}

# A second revert (or one on a host never tuned) finds the host as it was:
# what was asked is done, said so, exit 0.
@test "tune revert with nothing applied left is success, and says so" {
	mkdir -m 700 "$T/empty"
	run --separate-stderr timeout 10 "$ROCECTL" tune revert --state-dir "$T/empty"
	assert_success
	assert_output "nothing to revert: no applied tune state file in '$T/empty'"
	run -0 --separate-stderr timeout 10 "$ROCECTL" tune revert -j --state-dir "$T/empty"
	jq -e '.reverted == 0 and .not_reverted == 0' <<<"$output"
}

@test "a state directory that is not root's alone is refused with the reason" {
	mkdir "$T/sd"
	state "$T/sd/s.json" "$(write_change "$TOS")"
	chmod 755 "$T/sd"
	revert_refused "$T/sd/s.json"
	assert_equal "$stderr" "rocectl: refusing state directory '$T/sd': mode 0755, not 0700 (chmod 700 '$T/sd')"
	chmod 700 "$T/sd"
	chown 65534 "$T/sd"
	revert_refused "$T/sd/s.json"
	assert_equal "$stderr" "rocectl: refusing state directory '$T/sd': owned by uid 65534, not root"
	chown 0 "$T/sd"
	ln -s sd "$T/link"
	run --separate-stderr timeout 10 "$ROCECTL" tune revert --state-dir "$T/link"
	assert_failure 3
	assert_equal "$stderr" "rocectl: refusing state directory '$T/link': it is a symbolic link"
	assert_equal "$(cat "$TOS")" 106
}

@test "the rewrite never goes through a planted temporary file" {
	state "$T/s.json" "$(write_change "$TOS")"
	# The old rewrite opened "<state>.tmp" with O_CREAT|O_TRUNC, following symlinks.
	ln -s "$T/victim" "$T/s.json.tmp"
	run --separate-stderr timeout 10 "$ROCECTL" tune revert "$T/s.json"
	assert_success
	assert_equal "$(cat "$T/victim")" keep
	jq -e '.status == "reverted"' "$T/s.json"
	[ "$(stat -c %a "$T/s.json")" = 600 ] || fail "state file mode $(stat -c %a "$T/s.json")"
	[ -z "$(find "$T" -maxdepth 1 -name '.s.json.*.tmp')" ] || fail "a temporary file was left"
}

@test "one apply or revert at a time: a held lock is named, nothing written" {
	state "$T/s.json" "$(write_change "$TOS")"
	flock -o "$T/tune.lock" sleep 20 &	# -o: only flock holds it, killing it releases it
	local holder=$!
	for _ in $(seq 50); do [ -e "$T/tune.lock" ] && break; sleep 0.1; done
	sleep 0.2
	run --separate-stderr timeout 10 "$ROCECTL" tune revert "$T/s.json"
	kill "$holder"
	wait "$holder" || [ $? -eq 143 ]	# ended by the TERM above, not before
	assert_failure 3
	assert_equal "$stderr" "rocectl: cannot lock state directory '$T': another tune apply or revert holds '$T/tune.lock'"
	assert_equal "$(cat "$TOS")" 106
	jq -e '.status == "applied"' "$T/s.json"
	# Released: revert runs.
	run --separate-stderr timeout 10 "$ROCECTL" tune revert "$T/s.json"
	assert_success
}

@test "a short write of the state file reports its errno, not EINVAL" {
	# Changes enough for a state file over 1 KiB, the file size limit below (EFBIG).
	local c i=0
	c=$(write_change "$TOS")
	for i in 1 2 3; do c="$c,$(write_change "$TOS")"; done
	state "$T/s.json" "$c"
	run --separate-stderr timeout 10 bash -c 'trap "" XFSZ; ulimit -f 1; exec "$0" tune revert "$1"' \
		"$ROCECTL" "$T/s.json"
	assert_failure 3
	assert_regex "$stderr" "cannot write state file '$T/s.json': File too large$"
	# The file was not replaced by a truncated one, and no temporary file stays.
	jq -e '.status == "applied"' "$T/s.json"
	[ -z "$(find "$T" -maxdepth 1 -name '.s.json.*.tmp')" ] || fail "a temporary file was left"
}

@test "an undo that fails is retried by the next revert; reverted only when all are undone" {
	local units=$T/units
	mkdir -p "$units/rocectl-tune.service.d" "$units/multi-user.target.wants"
	echo '[Service]' >"$units/rocectl-tune.service"
	echo '[Service]' >"$units/rocectl-tune.service.d/persist.conf"
	ln -s "$units/rocectl-tune.service" "$units/multi-user.target.wants/rocectl-tune.service"
	export ROCECTL_SYSTEMD_DIR=$units
	state "$T/tune-1.json" "$(write_change "$TOS")"
	# The undo cannot write: the file became a directory.
	rm "$TOS" && mkdir "$TOS"
	run --separate-stderr timeout 10 "$ROCECTL" tune revert "$T/tune-1.json"
	assert_failure 3
	assert_line "reverted 0 changes, 1 not undone: 'tune revert' again retries them"
	assert_regex "$stderr" "warning: not undone: default_roce_tos of 'mlx5_0/1': cannot write '0' to '$TOS': Is a directory"
	assert_regex "$stderr" "rocectl: 1 of 1 change not undone, first: default_roce_tos of 'mlx5_0/1': cannot write '0' to '$TOS'"
	refute_output --regexp "^reverted 1"
	jq -e '.status == "revert-failed" and .changes[0].status == "revert-failed"' "$T/tune-1.json"
	[ -e "$units/rocectl-tune.service.d/persist.conf" ] || fail "the boot re-apply was removed"
	# Picked again as the newest to revert, and retried.
	rmdir "$TOS" && echo 106 >"$TOS"
	run --separate-stderr timeout 10 "$ROCECTL" tune revert -j --state-dir "$T"
	assert_success
	echo "$output" | jq -e '.reverted == 1 and .not_reverted == 0 and .persist_removed == true'
	assert_equal "$(head -1 "$TOS")" 0
	jq -e '.status == "reverted" and .changes[0].status == "reverted"' "$T/tune-1.json"
	[ ! -e "$units/rocectl-tune.service.d/persist.conf" ] || fail "the boot re-apply stayed"
}

@test "a retry reports only what it undid, not what an earlier revert did" {
	local mode=$T/cfg/rdma_cm/mlx5_0/ports/1/default_roce_mode
	echo "RoCE v2" >"$mode"
	state "$T/s.json" \
		"$(write_change "$mode" | sed 's/default_roce_tos/default_roce_mode/; s/"status": "applied"/"status": "reverted"/')" \
		"$(write_change "$TOS" | sed 's/"status": "applied"/"status": "revert-failed"/')"
	run --separate-stderr timeout 10 "$ROCECTL" tune revert -j "$T/s.json"
	assert_success
	echo "$output" | jq -e '.reverted == 1 and .not_reverted == 0 and
		([.changes[] | "\(.setting) \(.status)"] == ["default_roce_tos reverted"])'
	run --separate-stderr timeout 10 "$ROCECTL" tune revert "$T/s.json"
	assert_success
	assert_line "nothing to revert: no change of this state file is applied"
	assert_equal "$(cat "$mode")" "RoCE v2"
	assert_equal "$(head -1 "$TOS")" 0
}
