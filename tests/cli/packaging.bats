#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# One version, the Makefile's: the packages, the binary and the man pages carry it.
load helpers

version() { sed -n 's/^VERSION := //p' "$ROOT/Makefile"; }

@test "debian/changelog's top entry is the Makefile's VERSION" {
	local v
	v=$(version)
	[ -n "$v" ]
	run -0 dpkg-parsechangelog -l "$ROOT/debian/changelog" -S Version
	assert_output "$v"
}

@test "the RPM spec takes its version and units from the Makefile" {
	run -0 grep -E '^Version: +@VERSION@$' "$ROOT/rocectl.spec.in"
	run -0 grep -x '@UNITS_GLOBAL@' "$ROOT/rocectl.spec.in"
}

@test "rocectl --version and every man page's footer say the Makefile's VERSION" {
	local v page
	v=$(version)
	run -0 rocectl --version
	assert_output "rocectl $v"
	for page in "$ROOT"/man/*.[58]; do
		grep -q "^\.TH .* \"rocectl $v\"" "$page" || fail "$page: .TH does not say rocectl $v"
	done
}
