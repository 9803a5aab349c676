#!/usr/bin/env bats
# The default build is hardened (Makefile HARDEN_*): read from the ELF file
# under test, as Debian's hardening-check does.
load helpers

asan_build() { nm -D "$ROCECTL" | grep -q ' __asan_init'; }

@test "the binary is a PIE with full RELRO: GNU_RELRO and BIND_NOW" {
	run -0 readelf -hW "$ROCECTL"
	assert_line --regexp '^ *Type: +DYN '
	run -0 readelf -lW "$ROCECTL"
	assert_line --regexp '^ *GNU_RELRO '
	run -0 readelf -dW "$ROCECTL"
	assert_line --regexp '\(FLAGS\) +BIND_NOW'
	assert_line --regexp '\(FLAGS_1\) +Flags: NOW PIE'
}

@test "the binary has the stack protector and, outside ASan, _FORTIFY_SOURCE's checked calls" {
	run -0 nm -D "$ROCECTL"
	assert_line --regexp ' U __stack_chk_fail@'
	asan_build && skip "ASan build: _FORTIFY_SOURCE is left out (Makefile)"
	assert_line --regexp ' U __snprintf_chk@'
	assert_line --regexp ' U __vsnprintf_chk@'
}

# make deps installs devscripts: a missing hardening-check fails, never skips.
# Its control-flow check is left out: a binary has the IBT/SHSTK property only
# when every object linked has it, and Debian 12's C start files (Scrt1.o,
# crti.o, crtn.o of libc6-dev 2.36) do not; our objects are built with
# -fcf-protection (Makefile).
@test "hardening-check (devscripts) passes the binary" {
	command -v hardening-check >/dev/null || fail "hardening-check is not installed (make deps installs devscripts)"
	asan_build && skip "ASan build: _FORTIFY_SOURCE is left out"
	run -0 hardening-check --nocfprotection "$ROCECTL"
}

@test "warnings are errors in the default build, not only in CI" {
	run -0 env -u CI make -s -C "$ROOT" -pn all
	assert_line --regexp '^WARN :?= .*-Werror'
}

# make check runs the CLI tests on the ASan+UBSan build only, and CLI_PLAIN
# (Makefile) on the plain build too: a test that skips under ASan must be in a
# file of CLI_PLAIN, or no tier of make check would run it.
@test "every CLI file that skips under ASan runs on the plain build in make check" {
	local plain f
	run -0 make -s -C "$ROOT" -pn cli-plain
	plain=$(sed -n 's/^CLI_PLAIN :\?= //p' <<<"$output")
	[ -n "$plain" ]
	# a line that skips and names ASan or a sanitizer
	for f in $(grep -l -i -E '(asan|sanitiz).*\<skip\>|\<skip\>.*(asan|sanitiz)' "$ROOT"/tests/cli/*.bats); do
		[[ " $plain " == *" tests/cli/${f##*/} "* ]] || fail "${f##*/} skips under ASan and is not in CLI_PLAIN"
	done
}
