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
	grep -q '#include "rocectl/write.h"' "$ROOT/lib/tune_apply.c"
}

@test "the write primitives are called only from tune" {
	run outside_tune '(rctl_dcb_set|rctl_ethtool_set_pause|rctl_write_text)\('
	[ "$status" -eq 0 ]
	[ "$output" = "include/rocectl/write.h" ] || { echo "called outside tune: $output"; false; }
}
