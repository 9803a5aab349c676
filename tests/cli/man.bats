#!/usr/bin/env bats
# Man pages render as written: no words run together by the font macros.
load helpers

@test "no man page runs words together or misplaces a quote in a font macro" {
	run python3 "$BATS_TEST_DIRNAME/lib/man_words.py" "$ROOT"/man/*.[58]
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "the man-page word check catches each kind of mistake (the test can fail)" {
	printf '%s\n' '.TH X 8' '.BR got . On error' '.B "error": {"a"}' '.BR \-\-x ), with' \
		'.IR i th' '.RI /x\- TIME' > "$BATS_TEST_TMPDIR/x.8"
	run python3 "$BATS_TEST_DIRNAME/lib/man_words.py" "$BATS_TEST_TMPDIR/x.8"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 3 ]
	[[ ${lines[0]} == *"x.8:2: .BR runs '.' and 'On' together" ]]
	[[ ${lines[1]} == *"x.8:3: misplaced quote in .B"* ]]
	[[ ${lines[2]} == *"x.8:4: .BR runs '),' and 'with' together" ]]
}
