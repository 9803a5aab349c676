#!/usr/bin/env bats
# Strings from outside (snapshots of other hosts, NVMe-oF targets, file names)
# reach a terminal escaped (lib/out.c out_escape()); JSON keeps them exact.
load helpers

setup() {
	ESC=$BATS_TEST_TMPDIR/esc.json
	# a netdev name that clears the screen, a hostname that retitles the
	# terminal and carries an 8-bit CSI (U+009B)
	sed -e 's/ens1f0np0/ens1\\u001b[2Jx/g' \
		-e 's/"node11"/"node\\u001b]0;pwned\\u0007\\u009b"/' \
		"$FIXTURES/mlx5-upstream-healthy.json" >"$ESC"
}

no_raw_controls() { ! printf '%s' "$1" | LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]'; }

@test "text output escapes a snapshot's control characters as \\xNN: devices, check, compare" {
	run -0 rocectl devices -i "$ESC"
	assert_line '        netdev ens1\x1b[2Jx (up)  mtu 4200'
	no_raw_controls "$output"
	run -0 rocectl check mtu -i "$ESC"
	assert_line --index 0 --regexp '^node\\x1b\]0;pwned\\x07\\xc2\\x9b at [0-9TZ:-]+: counters over'
	no_raw_controls "$output"
	run -0 rocectl compare "$ESC" "$FIXTURES/mlx5-upstream-healthy.json"
	assert_line --regexp '^node\\x1b\]0;pwned\\x07\\xc2\\x9b +mlx5_0/1 \(ens1\\x1b\[2Jx\) '
	no_raw_controls "$output"
}

@test "-j keeps the same strings exact" {
	run -0 rocectl devices -j -i "$ESC"
	[ "$(jq -r .hostname <<<"$output")" = $'node\e]0;pwned\a\u009b' ]
	[ "$(jq -r '.devices[0].ports[0].netdev' <<<"$output")" = $'ens1\e[2Jx' ]
	# ... and escaped as JSON, U+009B too (cJSON escapes only C0): no raw CSI reaches a terminal
	printf '%s' "$output" | grep -qF '\u009b'
	! printf '%s' "$output" | LC_ALL=C grep -q $'\xc2[\x80-\x9f]'
	run -0 rocectl devices -p -i "$ESC"
	! printf '%s' "$output" | LC_ALL=C grep -q $'\xc2[\x80-\x9f]'
	run -0 rocectl compare -j "$ESC" "$FIXTURES/mlx5-upstream-healthy.json"
	jq -e --arg h $'node\e]0;pwned\a\u009b' '[.. | strings | select(. == $h)] | length > 0' <<<"$output"
}

@test "an error message naming an outside string escapes it on stderr" {
	run -3 --separate-stderr rocectl devices -i $'/nonexistent/\e[2J.json'
	assert_equal "$stderr" "rocectl: cannot open snapshot '/nonexistent/\\x1b[2J.json': No such file or directory"
}

# Text for a person fits the terminal it is shown on (issue 39, item 13):
# on a real pseudo-terminal (its window size, as an emulator sets it) a line
# wider than it is wrapped at spaces, and a table too wide becomes records;
# the words are the same words. Pipes and JSON keep every line whole.
on_tty() { env -u COLUMNS "$BATS_TEST_DIRNAME/lib/pty_run.py" "$@"; }

# Every line within COLS, but one word alone on its line (an NQN is not cut).
fits() {
	local cols=$1 text=$2
	! awk -v c="$cols" 'length($0) > c && $0 ~ /[^ ] +[^ ]/ { print "wider than " c ": " $0; bad = 1 }
		END { exit !bad }' <<<"$text"
}

# The same words in the same order: wrapping moved only whitespace.
same_words() { diff <(tr -s ' \n' '\n\n' <<<"$1") <(tr -s ' \n' '\n\n' <<<"$2"); }

@test "check's fix and evidence lines wrap to an 80-column terminal, the same words, the same exit" {
	local f piped rc
	for f in fault-nvmf-one-path fault-mlx5-roce-prio0 fault-cm-no-configfs; do
		rc=0
		piped=$("$ROCECTL" check all -i "$FIXTURES/$f.json") || rc=$?
		run -"$rc" on_tty 80 "$ROCECTL" check all -i "$FIXTURES/$f.json"
		fits 80 "$output"
		same_words "$piped" "$output"
		# piped, the long line stays whole
		[ "$(awk '{ print length }' <<<"$piped" | sort -n | tail -1)" -gt 80 ]
	done
	# a continuation is indented under its line: "fix: ..." goes on two further in
	run -1 on_tty 80 "$ROCECTL" check nvmf -i "$FIXTURES/fault-nvmf-one-path.json"
	assert_line '           fix: connect a second path through another netdev and switch: nvme'
	assert_line '             connect -t rdma -a <target'"'"'s other address> -n'
	# a word wider than the room is not cut: the NQN stays whole on its own line
	assert_line '             nqn.2014-08.org.nvmexpress:uuid:3c1d2f7e-9a41-4b1e-8c55-0f6d2b1a7e90'
}

@test "counters and compare fit a terminal: the last column wraps or goes below, a wide table becomes records" {
	local piped
	run -0 on_tty 200 "$ROCECTL" counters -i "$FIXTURES/mlx5-upstream-healthy.json"
	assert_output "$("$ROCECTL" counters -i "$FIXTURES/mlx5-upstream-healthy.json")"
	run -0 on_tty 120 "$ROCECTL" counters -i "$FIXTURES/mlx5-upstream-healthy.json"
	fits 120 "$output"
	# the meaning wraps under its own column
	assert_line --regexp '^ +[a-z]+ +hw +out_of_buffer +[0-9]+ +[0-9.]+  packets dropped for lack of a'
	run -0 on_tty 80 "$ROCECTL" counters -i "$FIXTURES/mlx5-upstream-healthy.json"
	fits 80 "$output"
	assert_line '  COUNTER  out_of_buffer'
	assert_line '  MEANING  packets dropped for lack of a receive WQE: the application, not the'
	cd "$FIXTURES"
	run --separate-stderr -1 "$ROCECTL" compare mlx5-upstream-healthy.json fault-pfc-on-0-and-3.json fault-tos-0.json
	piped=$output
	run -1 on_tty 80 "$ROCECTL" compare mlx5-upstream-healthy.json fault-pfc-on-0-and-3.json fault-tos-0.json
	fits 80 "$output"
	assert_line 'FILE         fault-pfc-on-0-and-3.json'
	assert_line 'DRIVER       mlx5 6.8.0-45-generic'
	assert_line 'PFC          0,3'
	# the outliers below the table: the same words, wrapped
	grep -q '^Outliers:$' <<<"$output"
	same_words "$(sed -n '/^Outliers/,$p' <<<"$piped")" "$(sed -n '/^Outliers/,$p' <<<"$output")"
}

@test "COLUMNS wins over the window; JSON, Prometheus and Nagios lines stay whole on a terminal" {
	run -1 env COLUMNS=100 "$BATS_TEST_DIRNAME/lib/pty_run.py" 60 "$ROCECTL" check all \
		-i "$FIXTURES/fault-nvmf-one-path.json"
	fits 100 "$output"
	[ "$(awk '{ print length }' <<<"$output" | sort -n | tail -1)" -gt 60 ]
	run -1 on_tty 60 "$ROCECTL" check all -j -i "$FIXTURES/fault-nvmf-one-path.json"
	assert_equal "$(jq -c 'del(.time)' <<<"$output")" \
		"$("$ROCECTL" check all -j -i "$FIXTURES/fault-nvmf-one-path.json" | jq -c 'del(.time)')"
	run -0 on_tty 60 "$ROCECTL" counters -o prometheus -i "$FIXTURES/mlx5-upstream-healthy.json"
	assert_output "$("$ROCECTL" counters -o prometheus -i "$FIXTURES/mlx5-upstream-healthy.json")"
	run -2 on_tty 60 "$ROCECTL" check all -o nagios -i "$FIXTURES/fault-out-of-sequence-rising.json"
	assert_output "$("$ROCECTL" check all -o nagios -i "$FIXTURES/fault-out-of-sequence-rising.json")"
}
