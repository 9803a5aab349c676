#!/usr/bin/env bats
# bench nvmf over TCP against a target that lies (tests/cli/lib/nvmf_liar.py,
# on 127.0.0.1 only): whatever it answers, the host neither crashes, grows nor
# hangs, and says in one line what the target did.
load helpers

NQN=nqn.2026-12.test.rocectl:liar

# Start the liar in MODE; its port in $PORT once it listens (at most 10 s).
liar() {
	local i
	python3 "$BATS_TEST_DIRNAME/lib/nvmf_liar.py" --mode "$1" --lifetime 60 \
		--port-file "$BATS_TEST_TMPDIR/port" "${@:2}" 3>&- &
	echo $! >"$BATS_TEST_TMPDIR/liar.pid"
	for i in $(seq 100); do
		[ -s "$BATS_TEST_TMPDIR/port" ] && break
		sleep 0.1
	done
	read -r PORT <"$BATS_TEST_TMPDIR/port"
}

teardown() {
	local pid

	[ -f "$BATS_TEST_TMPDIR/liar.pid" ] || return 0
	read -r pid <"$BATS_TEST_TMPDIR/liar.pid"
	if kill "$pid" 2>/dev/null; then
		timeout 10 tail --pid="$pid" -f /dev/null
	fi
}

# A host that does not bound itself is killed after ${TMO:-30} s (exit 124).
bench() {
	timeout "${TMO:-30}" "$ROCECTL" bench nvmf --transport tcp -a 127.0.0.1 --port "$PORT" -n "$NQN" "$@"
}

@test "the liar in its honest mode: reads and writes (by R2T) complete, exit 0" {
	liar honest
	run -0 --separate-stderr bench --time 0.5 --qd 4 -j
	jq -e '.results.ios > 0 and .error == null' <<<"$output"
	run -0 --separate-stderr bench --time 0.5 --qd 4 --rw randwrite --write-ok --bs 16k -j
	jq -e '.results.ios > 0 and .error == null' <<<"$output"
}

@test "Set Features (Number of Queues) answered 0xffffffff: the queues asked, no wrap to 0" {
	liar nq-wrap
	run -0 --separate-stderr bench --time 0.5 --queues 2 -j
	jq -e '.queues == 2 and (.results.per_queue | length) == 2 and .results.ios > 0' <<<"$output"
	assert_equal "$stderr" ""
}

@test "a read given half its data, then success: an error, not a good read" {
	liar short-read
	run -3 --separate-stderr bench --time 1 --qd 8
	assert_equal "$stderr" "rocectl: I/O queue 1: success for CID 0x10 after 2048 of its 4096 bytes of read data"
}

@test "an R2T flood for one write: one error at the second R2T, memory and time bounded" {
	liar r2t-flood
	SECONDS=0
	# (a host that queues the data again for every R2T grows by 300 MB a second)
	TMO=10 run -3 --separate-stderr bench --time 1 --qd 8 --rw randwrite --write-ok --bs 16k
	# which rule the flood breaks first depends on when its R2Ts arrive (slower under ASan)
	[[ $stderr == "rocectl: I/O queue 1: R2T for CID 0x10 while its last R2T is outstanding (MAXR2T 1)" ||
	   $stderr == "rocectl: I/O queue 1: R2T for bytes 0-16384 of CID 0x10: 16384 of its 16384 bytes were asked before" ]] ||
		fail "$stderr"
	[ "$SECONDS" -lt 5 ]
}

@test "a target that answers one command a little before each timeout: the run ends by --time + --timeout" {
	liar slow --delay 0.8
	SECONDS=0
	run -3 --separate-stderr bench --time 1 --qd 8 --timeout 1
	assert_equal "$stderr" "rocectl: I/O queue 1: 7 commands got no answer within 1000 ms of the run's end"
	# --time 1 + --timeout 1 + the set-up, where qd x timeout took 7 s and more
	[ "$SECONDS" -le 4 ]
}
