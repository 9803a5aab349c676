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
