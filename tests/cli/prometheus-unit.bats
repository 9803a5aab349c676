#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# rocectl-prometheus.service and the units beside it, read by systemd's own engines: systemd-analyze
# verify (in a scratch root that holds the host's units and the rocectl under
# test) and systemd-analyze security --offline. This machine runs no systemd:
# these check the unit files, not a started service.
load helpers

setup() {
	command -v systemd-analyze
	UNITS=$ROOT/systemd
}

# A root where systemd-analyze finds the units they depend on and rocectl.
scratch_root() {
	local r=$BATS_TEST_TMPDIR/root
	mkdir -p "$r/usr/sbin" "$r/lib/systemd" "$r/etc/systemd/system"
	cp -a /lib/systemd/system "$r/lib/systemd/"
	install -m 0755 "$ROCECTL" "$r/usr/sbin/rocectl"
	cp "$UNITS"/*.service "$UNITS"/*.timer "$r/lib/systemd/system/"
	echo "$r"
}

@test "systemd-analyze verify accepts every unit of systemd/" {
	local r u names=()
	r=$(scratch_root)
	for u in "$UNITS"/*.service "$UNITS"/*.timer; do names+=("$(basename "$u")"); done
	run -0 --separate-stderr systemd-analyze verify --man=no --root="$r" "${names[@]}"
	assert_equal "$stderr" ""
	# the test can fail: a key systemd does not know is reported
	sed 's/^TimeoutStartSec=/TimeoutStartSecs=/' "$UNITS/rocectl-prometheus.service" \
		>"$r/lib/systemd/system/rocectl-prometheus.service"
	run --separate-stderr systemd-analyze verify --man=no --root="$r" rocectl-prometheus.service
	[[ $stderr == *"Unknown key 'TimeoutStartSecs'"* ]]
}

@test "rocectl-prometheus.service: sandboxed (systemd-analyze security below 3: 2.6 with the LLDP capture, was 8.9)" {
	local u=$UNITS/rocectl-prometheus.service
	run -0 systemd-analyze security --offline=yes --threshold=30 "$u"
	assert_output --regexp 'Overall exposure level for rocectl-prometheus.service: [0-2]\.[0-9] OK'
	# the unit's own comment gives the score it has, not an older one
	local score
	score=$(sed -n 's/.*Overall exposure level for rocectl-prometheus.service: \([0-9.]*\) .*/\1/p' <<<"$output")
	grep -q "^# security --offline: 8.9 unrestricted, $score with this" "$u" || fail "the comment does not say $score"
	# without the sandbox lines the bound fails (the test can fail)
	sed -n '1,/^Nice=/p' "$u" >"$BATS_TEST_TMPDIR/rocectl-prometheus.service"
	run systemd-analyze security --offline=yes --threshold=25 "$BATS_TEST_TMPDIR/rocectl-prometheus.service"
	assert_failure
	assert_output --regexp 'Overall exposure level for rocectl-prometheus.service: [5-9]\.[0-9]'
}

@test "rocectl-prometheus.service: a failure of rocectl fails the unit, a verdict never does; bounded in time" {
	local u=$UNITS/rocectl-prometheus.service exec
	# no exit status but 0 is success: exit 3 (could not run) fails the unit
	run grep -E '^SuccessExitStatus=' "$u"
	assert_failure 1
	# a start is bounded, and shorter than the timer's period
	run -0 sed -n 's/^TimeoutStartSec=\([0-9]*\)s$/\1/p' "$u"
	[ -n "$output" ] && [ "$output" -lt 60 ]
	grep -qx 'OnUnitActiveSec=1min' "$UNITS/rocectl-prometheus.timer"
	# its ExecStart as written, on snapshots: an unknown verdict exits 0, a corrupt snapshot 3
	exec=$(sed -n 's/^ExecStart=rocectl //p' "$u")
	[[ $exec == *" -O /var/lib/prometheus/node-exporter/rocectl.prom" ]]
	exec=${exec/\/var\/lib\/prometheus\/node-exporter/$BATS_TEST_TMPDIR}
	# shellcheck disable=SC2086 # the unit's words
	run -0 rocectl $exec -i "$FIXTURES/fault-debugfs-unreadable.json"
	grep -qx 'rocectl_check_exit_status{command="doctor"} 3' "$BATS_TEST_TMPDIR/rocectl.prom"
	printf '{"schema_version": 2, "host": ' >"$BATS_TEST_TMPDIR/corrupt.json"
	# shellcheck disable=SC2086
	run -3 rocectl $exec -i "$BATS_TEST_TMPDIR/corrupt.json"
	grep -qx 'rocectl_up{command="doctor"} 0' "$BATS_TEST_TMPDIR/rocectl.prom"
}

@test "rocectl-prometheus.service also writes the counters series RocePFCStorm reads (issue 39 item 6)" {
	local u=$UNITS/rocectl-prometheus.service exec
	run -0 sed -n 's/^ExecStartPre=-rocectl //p' "$u"
	exec=$output
	[[ $exec == "counters "*" -o prometheus -O /var/lib/prometheus/node-exporter/rocectl-counters.prom" ]]
	exec=${exec/\/var\/lib\/prometheus\/node-exporter/$BATS_TEST_TMPDIR}
	# shellcheck disable=SC2086 # the unit's words
	run -0 rocectl $exec -i "$FIXTURES/fault-pause-storm-rising.json"
	grep -q '^rocectl_pfc_pause_duration_seconds_total{netdev="ens1f0np0",direction="tx",priority="3"} ' \
		"$BATS_TEST_TMPDIR/rocectl-counters.prom"
	grep -qx 'rocectl_up{command="counters"} 1' "$BATS_TEST_TMPDIR/rocectl-counters.prom"
	# the series the alert's rule reads is one of them
	grep -q 'rate(rocectl_pfc_pause_duration_seconds_total\[5m\])' "$ROOT/prometheus/rocectl.rules.yml"
	# ice has no such series (tests/cli/monitoring.bats): the rules and the man page say so
	grep -q "It cannot fire on ice (E810)" "$ROOT/prometheus/rocectl.rules.yml"
	man_text "$ROOT/man/rocectl-counters.8" | grep -q "RocePFCStorm cannot fire on ice"
	# doctor's file is another: the two never overwrite each other
	run -0 sed -n 's/^ExecStart=rocectl .* -O //p' "$u"
	assert_output /var/lib/prometheus/node-exporter/rocectl.prom
}
