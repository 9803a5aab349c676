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
