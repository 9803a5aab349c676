#!/usr/bin/env bats
# tests/lab/lab.bash's shared set-up, outside the lab: its knobs replaced by a
# lab_reset that only logs, the lab bats files by small ones of the same shapes.
load helpers

setup() {
	D=$BATS_TEST_TMPDIR/lab
	mkdir -p "$D"
	cp "$ROOT/tests/lab/lab.bash" "$D/"
	printf 'lab_reset() { echo "reset $BATS_TEST_DESCRIPTION" >>"$RESET_LOG"; }\n' >"$D/knobs.sh"
}

# labfile NAME BODY: a bats file of the lab shape with one test, "NAME".
labfile() {
	printf '%s\n@test "%s" { [ -n "$ROCECTL" ]; }\n' "$2" "$1" >"$D/$1.bats"
}

@test "a lab file that loads lab.bash at its top gets \$ROCECTL and lab_reset after each test" {
	labfile top 'load lab'
	RESET_LOG=$D/log LAB=1 LAB_DIR=$D run -0 bats "$D/top.bats"
	run -0 cat "$D/log"
	assert_output "reset top"
}

@test "a lab file's own teardown stays, whether it loads lab.bash at its top or in its setup" {
	labfile below $'load lab\nteardown() { echo "own $BATS_TEST_DESCRIPTION" >>"$RESET_LOG"; }'
	labfile inside $'setup() { load lab; }\nteardown() { echo "own $BATS_TEST_DESCRIPTION" >>"$RESET_LOG"; }'
	RESET_LOG=$D/log LAB=1 LAB_DIR=$D run -0 bats "$D/below.bats" "$D/inside.bats"
	run -0 cat "$D/log"
	assert_output $'own below\nown inside'
}

@test "lab.bash refuses to run outside the lab" {
	labfile top 'load lab'
	run -1 bats "$D/top.bats"
	assert_output --partial "lab tests run only inside the lab"
}
