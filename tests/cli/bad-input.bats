#!/usr/bin/env bats
# Bad input of every kind, across commands: each gives exactly one line on stderr ("rocectl: ..."),
# the documented exit status (64 usage, including a bad config file; 3 runtime), and nothing from
# the sanitizers (this file runs in 'make asan' too). No RDMA is needed: the runtime errors come
# from snapshots, state files and config files made bad on purpose.
load helpers

setup_file() {
	local d=$BATS_FILE_TMPDIR ok=$FIXTURES/mlx5-upstream-healthy.json
	cp "$ok" "$d/ok.json"
	: >"$d/empty.json"
	head -c 500 "$ok" >"$d/trunc.json"
	printf '\x89PNG\r\n\x1a\n\0\0\0\rIHDR\xff\xfe' >"$d/bin.json"
	jq '.schema_version = 99' "$ok" >"$d/v99.json"
	echo '[1, 2]' >"$d/arr.json"
	jq '.host.netdevs[0].pfc.requests[0] = " -1"' "$ok" >"$d/neg-u64.json"
	jq '.host.netdevs[0].buffer.total_size = ""' "$ok" >"$d/empty-u64.json"
	jq '.host.sample_interval_s = -1' "$ok" >"$d/neg-interval.json"
	sed -E 's/"sample_interval_s": [0-9.]+/"sample_interval_s": 1e999/' "$ok" >"$d/inf-interval.json"
	sed -E 's/"total_size": [0-9]+/"total_size": 1e999/' "$ok" >"$d/inf-u64.json"
	jq '.host.hostname = ("x" * 300)' "$ok" >"$d/long-name.json"
	jq '.host.hostname = 7' "$ok" >"$d/num-name.json"
	jq '.host.devices = {}' "$ok" >"$d/obj-devices.json"
	jq '.host.netdevs[0].pfc.pfc_en = [true]' "$ok" >"$d/short-vec.json"
	printf 'nosuch = 1\n' >"$d/unknown-key.conf"
	printf 'dscp = 99\n' >"$d/bad-value.conf"
	printf 'dscp\n' >"$d/no-equals.conf"
	mkdir "$d/dir"
	echo '{"schema_version": 1, "kind": "rocectl-host-snapshot"}' >"$d/not-state.json"
	printf '{"schema_version": 1, "kind": "rocectl-tune-state", "status": "applied", "changes": [{"op": "write", "target": "x", "setting": "x", "via": "x", "path": "/etc/passwd", "old_text": "x", "new_text": "y", "status": "applied"}]}\n' >"$d/evil-state.json"
	cp "$d/not-state.json" "$d/ww-state.json"
	chmod 600 "$d/not-state.json" "$d/evil-state.json"
	chmod 666 "$d/ww-state.json"
}

# bad STATUS ARGS...: exactly one line on stderr, "rocectl: ...", exit STATUS.
bad() {
	local want=$1
	shift
	cd "$BATS_FILE_TMPDIR"
	run --separate-stderr timeout 20 "$ROCECTL" "$@"
	[ "$status" -eq "$want" ] || fail "rocectl $*: exit $status, expected $want; stderr: $stderr"
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] || fail "rocectl $*: not one line on stderr: $stderr"
	[[ $stderr == "rocectl: "* ]] || fail "rocectl $*: stderr is not a rocectl message: $stderr"
	[[ $stderr != *"runtime error"* && $stderr != *Sanitizer* ]] || fail "rocectl $*: $stderr"
}

@test "unknown commands, options and arguments: 64" {
	bad 64 nosuch
	bad 64 --nosuch
	bad 64 check nosuch
	bad 64 tune nosuch
	bad 64 help nosuch
	bad 64 devices extra extra2
	bad 64 devices --json=yes
	bad 64 check all -i
}

@test "option values out of range: 64" {
	bad 64 check all --loss-budget 2
	bad 64 check all --profile nosuch
	bad 64 doctor --interval 0
	bad 64 doctor --interval abc
	bad 64 counters --interval -1
	bad 64 counters -o nosuch
	bad 64 serve --port 0
	bad 64 reach --tos 300 192.0.2.1
	bad 64 tune apply --tos 999
	bad 64 compare --dscp 64 ok.json ok.json
}

@test "bench: missing target and bad values: 64" {
	bad 64 bench nvmf
	bad 64 bench nvmf -t 192.0.2.1 --ios 0
	bad 64 bench nvmf -t 192.0.2.1 --bs 1000
	bad 64 bench nvmf -t 192.0.2.1 --timeout 0
	bad 64 bench nvmf -t 192.0.2.1 --qd 0
	bad 64 bench nvmf -t 192.0.2.1 --rw nosuch
	bad 64 bench nvmf -t 192.0.2.1 --rw write
	bad 64 bench rdma
}

@test "snapshots that are not one: 3" {
	bad 3 check all --input /nonexistent.json
	bad 3 check all --input dir
	bad 3 check all -i empty.json
	bad 3 check all -i trunc.json
	bad 3 check all -i bin.json
	bad 3 check all -i v99.json
	bad 3 check all -i arr.json
	bad 3 doctor -i bin.json
	bad 3 devices -i dir
	bad 3 counters -i trunc.json
}

@test "the strict reader: trailing data, a key twice, \u0000, bad UTF-8, too deep, too large: 3, one line naming the file" {
	local ok=ok.json d=$BATS_FILE_TMPDIR
	{ cat "$d/$ok"; echo '{}'; } >"$d/trail.json"
	bad 3 check all -i trail.json
	assert_equal "$stderr" "rocectl: cannot read snapshot 'trail.json': data after the end of the document at byte $(stat -c %s "$d/$ok")"
	sed '0,/"active_mtu": 4096/s//"active_mtu": 4096, "active_mtu": 256/' "$d/$ok" >"$d/dup.json"
	bad 3 check all -i dup.json
	assert_equal "$stderr" "rocectl: cannot read snapshot 'dup.json': key \"active_mtu\" twice in host.devices[0].ports[0]"
	sed 's/"node11"/"node\\u000011"/' "$d/$ok" >"$d/nul.json"
	bad 3 devices -i nul.json
	assert_equal "$stderr" "rocectl: cannot read snapshot 'nul.json': \\u0000 in a string at byte $(grep -bo 'node\\u0000' "$d/nul.json" | cut -d: -f1 | awk '{print $1 + 4}')"
	sed 's/"node11"/"node\xc0\xaf11"/' "$d/$ok" >"$d/utf8.json"
	bad 3 devices -i utf8.json
	[[ $stderr == "rocectl: cannot read snapshot 'utf8.json': a string that is not UTF-8 at byte "* ]]
	{ cat "$d/$ok"; printf '\0'; } >"$d/nulbyte.json"
	bad 3 doctor -i nulbyte.json
	[[ $stderr == *": a NUL byte at byte "* ]]
	jq '.host.deep = ([range(40)] | reduce .[] as $i (0; [.]))' "$d/$ok" >"$d/deep.json"
	bad 3 check all -i deep.json
	[[ $stderr == "rocectl: cannot read snapshot 'deep.json': nesting deeper than 32 levels at byte "* ]]
	# 32 MiB is the bound (include/rocectl/json.h): one byte more is refused before parsing
	{ printf '{"pad": "'; head -c $((32 * 1024 * 1024 - 10)) /dev/zero | tr '\0' x; printf '"}'; } >"$d/big.json"
	[ "$(stat -c %s "$d/big.json")" -eq $((32 * 1024 * 1024 + 1)) ]
	bad 3 check all -i big.json
	assert_equal "$stderr" "rocectl: cannot read snapshot 'big.json': larger than 32 MiB"
	# and 4194304 values, whatever their size
	python3 -c 'import sys; sys.stdout.write("[" + "0," * 4194304 + "0]")' >"$d/values.json"
	bad 3 check all -i values.json
	[[ $stderr == "rocectl: cannot read snapshot 'values.json': more than 4194304 values at byte "* ]]
	# a state file goes through the same reader
	mkdir -p -m 700 "$d/sd"	# a state directory tune accepts: root's alone
	{ cat "$d/not-state.json"; echo x; } >"$d/sd/trail-state.json"
	chmod 600 "$d/sd/trail-state.json"
	bad 3 tune revert sd/trail-state.json
	[[ $stderr == "rocectl: cannot read state file '"*"trail-state.json': data after the end of the document at byte "* ]]
}

@test "snapshots with bad values: 3" {
	bad 3 check all -i neg-u64.json
	bad 3 check all -i empty-u64.json
	bad 3 check all -i neg-interval.json
	bad 3 check all -i inf-interval.json
	bad 3 check all -i inf-u64.json
	bad 3 check all -i long-name.json
	bad 3 check all -i num-name.json
	bad 3 check all -i obj-devices.json
	bad 3 check all -i short-vec.json
}

@test "config files: 64, naming the file" {
	bad 64 check all -i ok.json --config /nonexistent.conf
	bad 64 check all -i ok.json --config dir
	bad 64 check all -i ok.json --config unknown-key.conf
	bad 64 check all -i ok.json --config bad-value.conf
	bad 64 check all -i ok.json --config no-equals.conf
	assert_equal "$stderr" "rocectl: 'no-equals.conf' line 1: expected 'key = value'"
	# a FIFO is refused at once, not waited on (through ROCECTL_CONF too)
	mkfifo fifo.conf
	bad 64 check all -i ok.json --config fifo.conf
	assert_equal "$stderr" "rocectl: cannot read config 'fifo.conf': it is not a regular file"
	ROCECTL_CONF=fifo.conf bad 64 check all -i ok.json
	# a NUL byte would hide the rest of its line: refused
	printf 'dscp = 26\0\nprio = 5\n' >nul.conf
	bad 64 check all -i ok.json --config nul.conf
	assert_equal "$stderr" "rocectl: cannot read config 'nul.conf': it holds a NUL byte"
	# a key set twice: which one wins is nobody's guess
	printf 'dscp = 26\n\ndscp = 24\n' >dup.conf
	bad 64 check all -i ok.json --config dup.conf
	assert_equal "$stderr" "rocectl: 'dup.conf' line 3: 'dscp' given again (first on line 1)"
	printf 'profile = lossless-dscp\nprofile = lossless-dscp\n' >dup.conf
	bad 64 check all -i ok.json --config dup.conf
	assert_equal "$stderr" "rocectl: 'dup.conf' line 2: 'profile' given again (first on line 1)"
}

@test "compare and tune with bad files: 64 or 3" {
	bad 64 compare ok.json
	bad 3 compare ok.json /nonexistent.json
	bad 3 compare ok.json bin.json
	bad 3 tune plan --input /nonexistent.json
	bad 3 tune plan --input dir
	bad 3 tune plan --input trunc.json
}

@test "tune revert with bad state files: 3, nothing written" {
	[ "$(id -u)" -eq 0 ] || fail "revert needs root"
	bad 3 tune revert not-state.json
	bad 3 tune revert ww-state.json
	bad 3 tune revert dir
	bad 3 tune revert evil-state.json
	bad 3 tune revert /nonexistent.json
	bad 3 tune revert --state-dir "$BATS_FILE_TMPDIR/none"
}

@test "a snapshot of 60,000 netdevs of one name is judged in linear time (a look-up was quadratic: minutes)" {
	local big=$BATS_TEST_TMPDIR/60k.json
	jq '.host.netdevs |= (. + [range(60000) as $i | (.[0] | {name, mtu, kind})])' \
		"$FIXTURES/mlx5-upstream-healthy.json" >"$big"
	# seconds under ASan; the quadratic look-up took 7 minutes on 2 cores
	run -0 timeout 30 "$ROCECTL" check all -i "$big"
	run -0 timeout 30 "$ROCECTL" check all -i "$FIXTURES/mlx5-upstream-healthy.json"
	assert_equal "$(timeout 30 "$ROCECTL" check all -i "$big")" "$output"
}
