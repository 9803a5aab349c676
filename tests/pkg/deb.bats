#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The package tier ('make pkg-check'): the .deb that 'make deb' built, unpacked
# into a scratch root with dpkg -x and run from there, then removed; and the
# version of both packages. ROCECTL_DEB names the .deb.
bats_require_minimum_version 1.5.0
load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)

setup_file() {
	[ -f "${ROCECTL_DEB:-}" ] || { echo "ROCECTL_DEB: no .deb; run 'make pkg-check'" >&2; return 1; }
	export SCRATCH=$BATS_FILE_TMPDIR/root
	dpkg -x "$ROCECTL_DEB" "$SCRATCH"
}

teardown_file() {
	rm -rf "$SCRATCH"
	[ ! -e "$SCRATCH" ]
}

setup() {
	BIN=$SCRATCH/usr/sbin/rocectl
	VERSION=$(sed -n 's/^VERSION := //p' "$ROOT/Makefile")
}

@test "the package carries the Makefile's version, and so does the binary in it" {
	run -0 dpkg-deb -f "$ROCECTL_DEB" Version
	assert_output "$VERSION"
	run -0 "$BIN" --version
	assert_output --partial "$VERSION"
}

@test "the RPM built from the generated spec carries the same version" {
	[ -f "${ROCECTL_RPM:-}" ] || fail "ROCECTL_RPM: no .rpm; run 'make pkg-check'"
	run -0 rpm -qp --qf '%{VERSION}' "$ROCECTL_RPM"
	assert_output "$VERSION"
}

@test "the installed binary runs from the scratch root: help" {
	run -0 "$BIN" help
	assert_line --regexp '^ +devices '
	assert_line --regexp '^ +doctor '
}

@test "every installed man page renders without a warning" {
	local page n=0
	for page in "$SCRATCH"/usr/share/man/man*/*; do
		run -0 --separate-stderr env MANWIDTH=80 man --warnings -l "$page"
		[ -z "$stderr" ] || fail "$page: $stderr"
		n=$((n + 1))
	done
	[ "$n" -ge 2 ]
	run -0 env MANWIDTH=80 man -l "$SCRATCH/usr/share/man/man8/rocectl.8.gz"
	assert_line --regexp '^NAME'
	assert_output --partial 'rocectl - check, tune and prove RoCE hosts'
}

@test "the installed bash completion completes from the installed binary" {
	run -0 bash -c '
		source "$1"
		PATH=$(dirname "$2"):$PATH
		COMP_WORDS=(rocectl dev); COMP_CWORD=1
		_rocectl
		printf "%s\n" "${COMPREPLY[@]}"' _ "$SCRATCH/usr/share/bash-completion/completions/rocectl" "$BIN"
	assert_output devices
}

@test "/etc/rocectl.conf is a conffile whose settings are the defaults" {
	dpkg-deb --ctrl-tarfile "$ROCECTL_DEB" | tar -xO ./conffiles | grep -qx /etc/rocectl.conf
	local conf=$SCRATCH/etc/rocectl.conf on=$BATS_TEST_TMPDIR/on.conf
	# Uncommented, its lines give the intent of no file at all.
	sed 's/^#\([a-z_]* =\)/\1/' "$conf" >"$on"
	[ "$(grep -c '^[a-z_]* =' "$on")" -ge 9 ]
	local fixture=$ROOT/tests/fixtures/hosts/bnxt-healthy.json
	run -0 "$BIN" doctor -j -i "$fixture"
	local none=$(jq -c '.intent | del(.config)' <<<"$output")
	ROCECTL_CONF=$on run -0 "$BIN" doctor -j -i "$fixture"
	assert_equal "$(jq -c '.intent | del(.config)' <<<"$output")" "$none"
}

@test "every unit in systemd/ is shipped, and none is enabled or started" {
	local u
	for u in "$ROOT"/systemd/*.service "$ROOT"/systemd/*.timer; do
		[ -e "$u" ] || continue
		cmp "$u" "$SCRATCH/lib/systemd/system/$(basename "$u")"
	done
	run -0 bash -c 'ls "$1"/lib/systemd/system 2>/dev/null | wc -l' _ "$SCRATCH"
	assert_equal "$output" "$(ls "$ROOT"/systemd/*.service "$ROOT"/systemd/*.timer 2>/dev/null | wc -l)"
	# dh_installsystemd --no-enable --no-start: no start, no enable on a new install.
	local postinst
	postinst=$(dpkg-deb --ctrl-tarfile "$ROCECTL_DEB" | tar -xO ./postinst 2>/dev/null) || postinst=
	run grep -e deb-systemd-invoke -e 'new installations run enable' <<<"$postinst"
	assert_failure 1
}

@test "the license: the .deb's copyright file, the .rpm's %license COPYING" {
	cmp "$SCRATCH/usr/share/doc/rocectl/copyright" "$ROOT/debian/copyright"
	[ -f "${ROCECTL_RPM:-}" ] || fail "ROCECTL_RPM: no .rpm; run 'make pkg-check'"
	run -0 rpm -qp --licensefiles "$ROCECTL_RPM"
	assert_output --regexp '/licenses/rocectl/COPYING$'
}

@test "the Prometheus rules ship beside the README, uncompressed, in both packages" {
	cmp "$SCRATCH/usr/share/doc/rocectl/rocectl.rules.yml" "$ROOT/prometheus/rocectl.rules.yml"
	promtool check rules "$SCRATCH/usr/share/doc/rocectl/rocectl.rules.yml"
	[ -f "${ROCECTL_RPM:-}" ] || fail "ROCECTL_RPM: no .rpm; run 'make pkg-check'"
	run -0 rpm -qpl "$ROCECTL_RPM"
	assert_line --regexp '^/usr/share/doc/rocectl/rocectl.rules.yml$'
	# make install puts it in the same place under its PREFIX
	make -C "$ROOT" -s install PREFIX=/usr DESTDIR="$BATS_TEST_TMPDIR/inst" \
		SYSCONFDIR="$BATS_TEST_TMPDIR/inst/etc" >/dev/null
	cmp "$BATS_TEST_TMPDIR/inst/usr/share/doc/rocectl/rocectl.rules.yml" "$ROOT/prometheus/rocectl.rules.yml"
}
