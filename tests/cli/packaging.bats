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

@test "COPYING is the GPL-2 text; every SPDX identifier is one that debian/copyright and the spec name" {
	cmp "$ROOT/COPYING" /usr/share/common-licenses/GPL-2
	run -0 grep -x '%license COPYING' "$ROOT/rocectl.spec.in"
	local id spec_ids
	spec_ids=$(sed -n 's/^License: *//p' "$ROOT/rocectl.spec.in")
	for id in $(git -C "$ROOT" grep -h -o 'SPDX-License-Identifier: [A-Za-z0-9.+-]*' -- \
			':!tests/cli/packaging.bats' | awk '{print $2}' | sort -u); do
		case $id in
		GPL-2.0-or-later) grep -qx 'License: GPL-2+' "$ROOT/debian/copyright" ;;
		GPL-2.0 | GPL-2.0-only) id=GPL-2.0-only; grep -qx 'License: GPL-2' "$ROOT/debian/copyright" ;;
		*) fail "SPDX identifier '$id' is in neither debian/copyright nor the spec" ;;
		esac
		[[ " $spec_ids " == *" $id "* ]] || fail "the spec's License: does not name $id"
	done
	# the GPL-2.0-only files are the lab, as debian/copyright says
	run -0 git -C "$ROOT" grep -l 'SPDX-License-Identifier: GPL-2.0$'
	local f
	for f in "${lines[@]}"; do
		[[ $f == tests/lab/* ]] || fail "$f is GPL-2.0-only outside tests/lab/"
	done
}

# Debian 12 ships liblldpctl.so.4 in the lldpd package, whose postinst starts
# an LLDP agent on every interface: linked, the .deb would depend on lldpd.
@test "the binary does not link liblldpctl: it loads it at run time, where lldpd runs" {
	run -0 objdump -p "$ROCECTL"
	assert_line --regexp '^ +NEEDED +libibverbs\.so\.'
	refute_line --regexp '^ +NEEDED +liblldpctl'
	run -0 objdump -T "$ROCECTL"
	assert_line --regexp ' dlopen'
	refute_line --regexp ' lldpctl_'

}
