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

@test "installing starts no LLDP agent: lldpd is suggested, never a dependency, in both packages" {
	local f
	for f in Depends Pre-Depends Recommends; do
		run -0 dpkg-deb -f "$ROCECTL_DEB" "$f"
		refute_output --partial lldpd
	done
	run -0 dpkg-deb -f "$ROCECTL_DEB" Suggests
	assert_output --partial lldpd
	run -0 rpm -qp --requires --recommends "$ROCECTL_RPM"
	refute_output --regexp 'lldp'
	run -0 rpm -qp --suggests "$ROCECTL_RPM"
	assert_line lldpd
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
	# no enable on a new install
	local postinst
	postinst=$(dpkg-deb --ctrl-tarfile "$ROCECTL_DEB" | tar -xO ./postinst 2>/dev/null) || postinst=
	run grep -e 'new installations run enable' <<<"$postinst"
	assert_failure 1
}

# The .deb's maintainer scripts run as dpkg runs them, with deb-systemd-invoke,
# deb-systemd-helper and systemctl stubs on PATH that record their arguments.
# This machine runs no systemd (systemctl is-system-running: offline): this
# checks what the scripts ask of systemd, not systemd itself. The scripts act
# only where /run/systemd/system exists; that path is pointed at a scratch
# directory (the one change made to them).
maint() {
	local script=$1
	shift
	sed "s|/run/systemd/system|$CTRL/run-systemd-system|g" "$CTRL/$script" >"$CTRL/$script.t"
	PATH=$CTRL/stubs:$PATH DPKG_MAINTSCRIPT_PACKAGE=rocectl sh -e "$CTRL/$script.t" "$@"
}

setup_maint() {
	CTRL=$BATS_TEST_TMPDIR/ctrl
	dpkg-deb -e "$ROCECTL_DEB" "$CTRL"
	mkdir -p "$CTRL/stubs" "$CTRL/run-systemd-system"
	local s
	for s in deb-systemd-invoke deb-systemd-helper systemctl; do
		printf '#!/bin/sh
echo "%s $*" >>"%s/calls"
' "$s" "$CTRL" >"$CTRL/stubs/$s"
		chmod +x "$CTRL/stubs/$s"
	done
	: >"$CTRL/calls"
}

# What the scripts asked deb-systemd-invoke to do (the lifecycle), one line a call.
invoked() { grep '^deb-systemd-invoke ' "$CTRL/calls" || true; }

@test "maintainer scripts: a fresh install starts nothing" {
	setup_maint
	[ ! -e "$CTRL/preinst" ] || maint preinst install
	maint postinst configure
	run invoked
	assert_output ""
	run grep -c . "$CTRL/calls"
	[ "$output" -ge 1 ]	# the scripts did run (daemon-reload, deb-systemd-helper)
}

@test "maintainer scripts: an upgrade stops nothing and try-restarts serve and the Prometheus timer, never tune" {
	setup_maint
	# the new preinst and postinst of an upgrade from the version before
	[ ! -e "$CTRL/preinst" ] || maint preinst upgrade 0.0.9
	run invoked
	assert_output ""
	maint postinst configure 0.0.9
	run invoked
	assert_output 'deb-systemd-invoke try-restart rocectl-prometheus.service rocectl-prometheus.timer rocectl-serve.service'
	# every unit of systemd/ but tune
	local u want=
	for u in "$ROOT"/systemd/*.service "$ROOT"/systemd/*.timer; do
		[ "$(basename "$u")" = rocectl-tune.service ] || want="$want $(basename "$u")"
	done
	[ "$(echo $want | tr ' ' '\n' | sort | tr '\n' ' ')" = "$(echo "${output#*try-restart }" | tr ' ' '\n' | sort | tr '\n' ' ')" ]
	# the prerm of the package being replaced, as dpkg runs it on an upgrade: no stop
	: >"$CTRL/calls"
	maint prerm upgrade "$VERSION"
	run invoked
	assert_output ""
}

@test "maintainer scripts: removal stops every unit; purge forgets them" {
	setup_maint
	maint prerm remove
	run invoked
	assert_output --regexp '^deb-systemd-invoke stop '
	local u
	for u in "$ROOT"/systemd/*.service "$ROOT"/systemd/*.timer; do
		assert_output --partial " $(basename "$u")"
	done
	: >"$CTRL/calls"
	maint postrm purge
	run grep '^deb-systemd-helper purge ' "$CTRL/calls"
	assert_success
}

@test "maintainer scripts: without systemd running they ask nothing of it" {
	setup_maint
	rmdir "$CTRL/run-systemd-system"
	maint postinst configure 0.0.9
	maint prerm remove
	run invoked
	assert_output ""
}

@test "the RPM: stopped on removal, try-restarted after an upgrade (not tune), nothing started at install" {
	[ -f "${ROCECTL_RPM:-}" ] || fail "ROCECTL_RPM: no .rpm; run 'make pkg-check'"
	run -0 rpm -qp --scripts "$ROCECTL_RPM"
	local post=${output#*postinstall scriptlet}
	post=${post%%preuninstall scriptlet*}
	assert_output --partial 'remove-system-units'
	assert_output --regexp 'mark-restart-system-units rocectl-prometheus.service rocectl-prometheus.timer rocectl-serve.service'
	refute_output --regexp 'mark-restart-system-units[^\n]*rocectl-tune.service'
	[[ $post != *" start "* && $post != *"restart"* ]]
}

@test "the license: the .deb's copyright file, the .rpm's %license COPYING" {
	cmp "$SCRATCH/usr/share/doc/rocectl/copyright" "$ROOT/debian/copyright"
	[ -f "${ROCECTL_RPM:-}" ] || fail "ROCECTL_RPM: no .rpm; run 'make pkg-check'"
	run -0 rpm -qp --licensefiles "$ROCECTL_RPM"
	assert_output --regexp '/licenses/rocectl(-[0-9.]+)?/COPYING$'
}

@test "the Prometheus rules ship beside the README, uncompressed, in both packages" {
	cmp "$SCRATCH/usr/share/doc/rocectl/rocectl.rules.yml" "$ROOT/prometheus/rocectl.rules.yml"
	promtool check rules "$SCRATCH/usr/share/doc/rocectl/rocectl.rules.yml"
	[ -f "${ROCECTL_RPM:-}" ] || fail "ROCECTL_RPM: no .rpm; run 'make pkg-check'"
	run -0 rpm -qpl "$ROCECTL_RPM"
	# /usr/share/doc/rocectl on RHEL; Debian's rpm names the directory rocectl-VERSION
	assert_line --regexp '^/usr/share/doc/rocectl(-[0-9.]+)?/rocectl.rules.yml$'
	# make install puts it in the same place under its PREFIX
	make -C "$ROOT" -s install PREFIX=/usr DESTDIR="$BATS_TEST_TMPDIR/inst" \
		SYSCONFDIR="$BATS_TEST_TMPDIR/inst/etc" >/dev/null
	cmp "$BATS_TEST_TMPDIR/inst/usr/share/doc/rocectl/rocectl.rules.yml" "$ROOT/prometheus/rocectl.rules.yml"
}

@test "the Grafana dashboard ships beside the rules, uncompressed, in both packages" {
	cmp "$SCRATCH/usr/share/doc/rocectl/grafana/rocectl.json" "$ROOT/prometheus/grafana/rocectl.json"
	[ -f "${ROCECTL_RPM:-}" ] || fail "ROCECTL_RPM: no .rpm; run 'make pkg-check'"
	run -0 rpm -qpl "$ROCECTL_RPM"
	assert_line --regexp '^/usr/share/doc/rocectl(-[0-9.]+)?/grafana/rocectl.json$'
	make -C "$ROOT" -s install PREFIX=/usr DESTDIR="$BATS_TEST_TMPDIR/inst" \
		SYSCONFDIR="$BATS_TEST_TMPDIR/inst/etc" >/dev/null
	cmp "$BATS_TEST_TMPDIR/inst/usr/share/doc/rocectl/grafana/rocectl.json" "$ROOT/prometheus/grafana/rocectl.json"
}
