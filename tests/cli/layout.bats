#!/usr/bin/env bats
# The source tree's floors, as the include graph shows them.
load helpers

# The files of lib/ and cmd/ whose text matches $1, minus tune and the files
# that define the writes (the interface family files); prints the rest.
outside_tune() {
	grep -lE --include='*.[ch]' -r "$1" "$ROOT/lib" "$ROOT/cmd" "$ROOT/include" |
		sed "s|^$ROOT/||" |
		awk '!/^lib\/tune_[a-z_]+\.c$/ && !/^lib\/(dcb|ethtool|sysfs)\.c$/'
}

@test "only tune includes rocectl/write.h (and the files that define its writes)" {
	run outside_tune '#include "rocectl/write.h"'
	[ "$status" -eq 0 ]
	[ -z "$output" ] || { echo "write.h included outside tune: $output"; false; }
	# the check itself can fail: tune's apply is one of the includers
	grep -q '#include "rocectl/write.h"' "$ROOT/lib/tune_write.c"
}

@test "the write primitives are called only from tune" {
	run outside_tune '(rctl_dcb_set|rctl_ethtool_set_pause|rctl_write_text)\('
	[ "$status" -eq 0 ]
	[ "$output" = "include/rocectl/write.h" ] || { echo "called outside tune: $output"; false; }
}

# scripts/lib-loops reads the symbol tables of the objects this rocectl was
# linked from (build/lib or build/asan/lib).
@test "no two library files call each other in a loop" {
	local objs
	objs=$(dirname "$ROCECTL")
	[ -d "$objs/lib" ]
	run -0 "$ROOT/scripts/lib-loops" "$objs"
	assert_output ""
}

@test "the loop check can fail: a library that calls back is named" {
	local d=$BATS_TEST_TMPDIR/b
	mkdir -p "$d/lib"
	printf 'void b(void); void a(void) { b(); }\n' | cc -x c -c -o "$d/lib/a.o" -
	printf 'void a(void); void b(void) { a(); }\n' | cc -x c -c -o "$d/lib/b.o" -
	run "$ROOT/scripts/lib-loops" "$d"
	assert_failure
	assert_output "call loop: lib/a.c <-> lib/b.c"
}

# scripts/floors-check: the floors of scripts/floors against the includes of
# the tree and the symbol tables of the objects this rocectl was linked from.
@test "every file includes and calls only its own floor and the floors below (scripts/floors)" {
	run -0 "$ROOT/scripts/floors-check" "$(dirname "$ROCECTL")"
	assert_output ""
}

# A tree of two floors in the test's directory, $T: lib/hi.c above lib/lo.c,
# and an isolated floor of cmd/a.c and cmd/b.c above both. $1: lo()'s body,
# $2: a()'s, $3: a line of docs/architecture.md below its diagram.
floors_tree() {
	local d=$BATS_TEST_TMPDIR/t
	T=$d
	mkdir -p "$d/lib" "$d/cmd" "$d/docs" "$d/scripts" "$d/b/lib" "$d/b/cmd"
	printf 'floor cmds isolated\ncmd/*.c  commands\n\nfloor hi\nlib/hi.c  above\n\nfloor lo\nlib/lo.c  below\n' \
		>"$d/scripts/floors"
	printf 'void hi(void); void lo(void) { %s }\n' "$1" >"$d/lib/lo.c"
	printf 'void lo(void); void hi(void) { lo(); }\n' >"$d/lib/hi.c"
	printf 'void b(void); void a(void) { %s }\n' "$2" >"$d/cmd/a.c"
	printf 'void b(void) { }\n' >"$d/cmd/b.c"
	for f in lib/lo lib/hi cmd/a cmd/b; do cc -c -o "$d/b/$f.o" "$d/$f.c"; done
	{
		echo '<!-- floors: drawn by scripts/floors-check --doc from scripts/floors -->'
		echo '```'
		ROOT=$d "$ROOT/scripts/floors-check" --doc
		echo '```'
		echo '<!-- end of floors -->'
		echo "$3"
	} >"$d/docs/architecture.md"
}

# scripts/floors-check on the tree $T, expecting exit status $1.
floors_check() {
	ROOT=$T run "-$1" "$ROOT/scripts/floors-check" "$T/b"
}

@test "the floors check passes a tree that keeps its floors" {
	floors_tree "" "" 'Both: `hi()` (`lib/hi.c`) and `lib/lo.c:lo`.'
	floors_check 0
	assert_output ""
}

@test "the floors check fails when a lower floor calls a higher one, with the two names" {
	floors_tree "hi();" "" ""
	floors_check 1
	assert_output "floors: lib/lo.c (lo) calls lib/hi.c (hi): up"
}

@test "the floors check fails when a lower floor includes a higher one's header" {
	floors_tree "" "" ""
	mkdir -p "$T/include/rocectl"
	: >"$T/include/rocectl/hi.h"
	printf '#include "rocectl/hi.h"\n' >>"$T/lib/lo.c"
	floors_check 1
	assert_output "floors: lib/lo.c (lo) includes include/rocectl/hi.h (hi): up"
}

@test "the floors check fails when one command file calls another" {
	floors_tree "" "b();" ""
	floors_check 1
	assert_output "floors: cmd/a.c calls cmd/b.c: the files of cmds do not call one another"
}

@test "the floors check fails when docs/ name a function that no longer exists" {
	floors_tree "" "" 'See `gone()` in `lib/hi.c`.'
	floors_check 1
	assert_output "floors: docs/architecture.md:10 names lib/hi.c:gone, which does not exist"
}

@test "the floors check fails when the diagram of docs/architecture.md is not scripts/floors'" {
	floors_tree "" "" ""
	sed -i 's/above/higher/' "$T/scripts/floors"
	floors_check 1
	assert_output --partial "docs/architecture.md's diagram is not the one of scripts/floors"
}

@test "the floors check names a file that is on no floor" {
	floors_tree "" "" ""
	printf 'int new_one;\n' >"$T/lib/new.c"
	floors_check 1
	assert_output "floors: lib/new.c is on no floor (scripts/floors)"
}

@test "lib/ includes nothing of cmd/, and only cmd/ is built with -Icmd" {
	run grep -lE '#include "(\.\./)*(cmd/)?(cmd|tree)\.h"' "$ROOT"/lib/*.c "$ROOT"/include/rocectl/*.h
	assert_failure
	run -0 make -C "$ROOT" -n -B V=1 BUILD="$BATS_TEST_TMPDIR/b" "$BATS_TEST_TMPDIR/b/lib/err.o" \
		"$BATS_TEST_TMPDIR/b/cmd/bench.o"
	assert_line --regexp '-c -o .*/lib/err\.o lib/err\.c$'
	refute_line --regexp '-Icmd.*lib/err\.c$'
	assert_line --regexp '-Icmd.* -c -o .*/cmd/bench\.o cmd/bench\.c$'
}
