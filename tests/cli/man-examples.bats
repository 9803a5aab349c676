#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Every example and recipe of the man pages, as man renders it, run here by
# the engine that reads it (issue 39 item 8): the shell examples on the
# fixtures, sudoers by visudo, Nagios 4's object definitions by nagios4 -v,
# rocectl.conf by rocectl, a systemd drop-in by systemd-analyze verify. What
# runs elsewhere (Icinga 2, pdsh, clush, Ansible, cron: monitoring.bats and
# recipes.bats; RDMA: the lab) or cannot run is in tests/cli/data/man-examples,
# which the first test holds to the pages.
load helpers

setup() {
	LEDGER=$DATA/man-examples
	EX=$BATS_TEST_DIRNAME/lib/man_examples.py
	T=$BATS_TEST_TMPDIR
	# rocectl as the examples name it: the build's, on the snapshot
	# EXAMPLE_INPUT when the entry names one (a live command on a fixture;
	# a snapshot has its own sample interval, so --interval is left out then)
	mkdir -p "$T/bin"
	cat >"$T/bin/rocectl" <<-SHIM
		#!/bin/bash
		args=()
		while [ \$# -gt 0 ]; do
			if [ -n "\${EXAMPLE_INPUT:-}" ] && [ "\$1" = --interval ]; then shift 2; continue; fi
			args+=("\$1"); shift
		done
		exec "$ROCECTL" "\${args[@]}" \${EXAMPLE_INPUT:+-i "\$EXAMPLE_INPUT"}
	SHIM
	chmod +x "$T/bin/rocectl"
}

# The entries run by ENGINE: "PAGE<TAB>KEY<TAB>ARG" lines.
entries() {
	awk -F'\t' -v e="$1" '!/^#/ && NF == 3 && $3 ~ "^run " e "( |$)" {
		arg = $3; sub("^run " e " ?", "", arg); print $1 "\t" $2 "\t" arg }' "$LEDGER"
}

block() { python3 "$EX" show "$ROOT/man" "$1" "$2"; }

# A snapshot the ledger names: a host fixture, else one of tests/cli/data.
snapshot() { if [ -f "$FIXTURES/$1" ]; then echo "$FIXTURES/$1"; else echo "$DATA/$1"; fi; }

# The commands of a block: its "$ " lines, each continued by the next line
# after a trailing backslash (dropped) or pipe (kept), as the shell reads them.
commands() {
	awk '/^\$ / || cont { line = cont ? line " " $0 : substr($0, 3)
		cont = /[\\|] *$/; if (cont) { sub(/\\ *$/, "", line); next } print line; line = "" }' <<<"$1"
}

@test "every example block of every page is run by a test or listed with its reason" {
	run -0 python3 "$EX" check "$ROOT/man" "$LEDGER" "$ROOT"
	# the test can fail: a block in no entry, and an entry of no block
	cp -r "$ROOT/man" "$T/man"
	printf '.SH MORE\n.nf\nrocectl frobnicate \\-\\-now\n.fi\n' >>"$T/man/rocectl-tune.8"
	sed -i 's/^\$ rocectl tune plan \\-i fault\\-pfc\\-off\\-prio3.json$/$ rocectl tune plan \\-i other.json/' \
		"$T/man/rocectl-tune.8"
	run -1 python3 "$EX" check "$T/man" "$LEDGER" "$ROOT"
	assert_line "rocectl-tune.8: the block beginning 'rocectl frobnicate --now' is neither run nor listed with a reason"
	assert_line --partial "rocectl-tune.8 has no block beginning '\$ rocectl tune plan -i fault-pfc-off-prio3.json' (stale entry)"
	# and a test an entry names must exist
	sed 's/: the fleet example is real output$/: no such test/' "$LEDGER" >"$T/ledger"
	run -1 python3 "$EX" check "$ROOT/man" "$T/ledger" "$ROOT"
	assert_line --partial "tests/cli/fleet.bats has no test 'README and rocectl-check(8): no such test'"
}

# "$ rocectl ..." and what it prints: run in the fixtures as printed, the
# output line for line, the exit status the output states or a verdict's.
@test "the shell examples print what the page shows, on the fixtures" {
	local page key arg text cmd want n=0 rc want_rc
	while IFS=$'\t' read -r page key arg; do
		text=$(block "$page" "$key")
		cmd=$(commands "$text" | head -1)
		# the output: the lines after the command and its continuation lines
		want=$(awk 'NR == 1 || skip { skip = /[\\|] *$/; next } { print }' <<<"$text")
		rc=0
		got=$(cd "$FIXTURES" && PATH="$T/bin:$PATH" EXAMPLE_INPUT=${arg:+$(snapshot "$arg")} \
			bash -c "$cmd" 2>"$T/stderr") || rc=$?
		diff -u <(echo "$want") <(echo "$got") || fail "$page: \$ $cmd: not what the page shows"
		want_rc=$(grep -o '(exit [0-9])' <<<"$want" | tr -dc 0-9)
		if [ -n "$want_rc" ]; then
			[ "$rc" -eq "$want_rc" ] || fail "$page: \$ $cmd: exit $rc, the page says $want_rc"
		else
			[ "$rc" -le 3 ] || fail "$page: \$ $cmd: exit $rc: $(cat "$T/stderr")"
		fi
		n=$((n + 1))
	done < <(entries output)
	[ "$n" -ge 11 ]
}

@test "an output block is what its command prints" {
	local page key cmd n=0
	while IFS=$'\t' read -r page key cmd; do
		diff -u <(block "$page" "$key") <(cd "$FIXTURES" && PATH="$T/bin:$PATH" bash -c "$cmd") ||
			fail "$page: the block is not what '$cmd' prints"
		n=$((n + 1))
	done < <(entries output-of)
	[ "$n" -ge 1 ]
}

# Pipelines into jq and the like: each stage exits 0, rocectl with a verdict,
# and something comes out.
@test "the shell pipelines run on a fixture: rocectl gives a verdict, every other stage succeeds" {
	local page key arg cmd status n=0
	while IFS=$'\t' read -r page key arg; do
		while IFS= read -r cmd; do
			printf '%s\n' "$cmd" 'echo "status ${PIPESTATUS[*]}"' >"$T/cmd.sh"
			run bash -c "cd '$T' && PATH='$T/bin:$PATH' EXAMPLE_INPUT='$(snapshot "$arg")' bash cmd.sh"
			status=$(sed -n 's/^status //p' <<<"$output")
			[[ $status =~ ^[0-3](\ 0)*$ ]] || fail "$page: \$ $cmd: statuses $status: $output"
			[ "$(grep -vc '^status ' <<<"$output")" -gt 0 ] || fail "$page: \$ $cmd: no output"
			n=$((n + 1))
		done < <(commands "$(block "$page" "$key")")
	done < <(entries shell)
	[ "$n" -ge 2 ]
}

@test "the sudoers blocks pass visudo -c, and name the binary where the packages install it" {
	local page key n=0
	command -v visudo
	while IFS=$'\t' read -r page key _; do
		block "$page" "$key" >"$T/sudoers.$n"
		run visudo -c -f "$T/sudoers.$n"
		[ "$status" -eq 0 ] || fail "$page: $key: $output"
		grep -q 'NOPASSWD: /usr/sbin/rocectl ' "$T/sudoers.$n"
		n=$((n + 1))
	done < <(entries visudo)
	[ "$n" -ge 2 ]
	grep -q 'PREFIX=/usr' "$ROOT/debian/rules"
	grep -q '^%{_sbindir}/rocectl$' "$ROOT/rocectl.spec.in"
	# the test can fail: a parenthesis roff ate is a syntax error for visudo
	printf 'nagios ALL=(root NOPASSWD: /usr/sbin/rocectl doctor\n' >"$T/bad"
	run visudo -c -f "$T/bad"
	assert_failure
}

@test "Nagios 4 verifies the NRPE command of rocectl-check(8) (nagios4 -v)" {
	local page key d
	command -v nagios4
	d=$(mktemp -d)	# nagios4 reads it, and checks its result path, as its own user
	chmod 0777 "$d"
	IFS=$'\t' read -r page key _ < <(entries nagios4)
	block "$page" "$key" >"$d/rocectl.cfg"
	cp "$DATA/nagios4/objects.cfg" "$d/"
	echo "\$USER1\$=/usr/lib/nagios/plugins" >"$d/resource.cfg"
	cat >"$d/nagios.cfg" <<-CFG
		cfg_file=$d/rocectl.cfg
		cfg_file=$d/objects.cfg
		resource_file=$d/resource.cfg
		check_result_path=$d
		lock_file=$d/nagios.lock
		illegal_macro_output_chars=\`~\$&|'"<>
	CFG
	run nagios4 -v "$d/nagios.cfg"
	[ "$status" -eq 0 ] || fail "$output"
	assert_line --regexp 'Total Errors: +0'
	assert_line --regexp 'Total Warnings: +0'
	# the test can fail: the service names a command the block must define
	sed -i 's/check_nrpe_rocectl$/check_nrpe_other/' "$d/rocectl.cfg"
	run nagios4 -v "$d/nagios.cfg"
	rm -rf "$d"
	assert_failure
	assert_line --partial "check command 'check_nrpe_rocectl' specified in service 'RoCE' for host 'node11' not defined"
}

# rocectl.conf(5)'s files as rocectl reads them: no usage error, nothing on
# stderr, a verdict on a snapshot.
@test "the rocectl.conf examples are read without a complaint" {
	local page key n=0
	while IFS=$'\t' read -r page key _; do
		block "$page" "$key" >"$T/rocectl.conf"
		run --separate-stderr rocectl check all --config "$T/rocectl.conf" -v \
			-i "$FIXTURES/mlx5-upstream-healthy.json"
		[ "$status" -le 3 ] || fail "$page: $key: exit $status: $stderr"
		assert_equal "$stderr" ""
		# its keys are read: the DSCP of line 3 is the intent's
		assert_line --regexp "^  all +dscp +2[46] +$T/rocectl.conf:3\$"
		n=$((n + 1))
	done < <(entries conf)
	[ "$n" -ge 2 ]
}

# rocectl.conf(5)'s "check mode -v" with the mixed fleet's file as
# /etc/rocectl.conf: each line it shows ("..." elides) is one rocectl prints.
@test "rocectl.conf(5): check mode -v shows the lines the page shows" {
	local page key arg line
	IFS=$'\t' read -r page key arg < <(entries conf-v)
	block rocectl.conf.5 "# /etc/rocectl.conf - mixed fleet" >"$T/rocectl.conf"
	run rocectl check mode -v --config "$T/rocectl.conf" -i "$(snapshot "$arg")"
	[ "$status" -le 3 ]
	output=${output//$T\/rocectl.conf//etc/rocectl.conf}
	while IFS= read -r line; do
		case $line in '$ '* | '...') continue ;; esac
		grep -qxF -- "$line" <<<"$output" || fail "rocectl prints no line '$line':
$output"
	done < <(block "$page" "$key")
}

# rocectl-serve(8): the token is made as printed (in a scratch /etc).
@test "rocectl-serve(8): the token recipe makes a 24-character secret only root reads" {
	local page key
	IFS=$'\t' read -r page key _ < <(entries token)
	block "$page" "$key" | sed "s|/etc/|$T/etc/|g" >"$T/token.sh"
	mkdir "$T/etc"
	run -0 sh -e "$T/token.sh"
	[ "$(tr -d '\n' <"$T/etc/rocectl/serve.token" | wc -c)" -eq 24 ]
	[ "$(stat -c %a "$T/etc/rocectl")" = 700 ]
	[ "$(stat -c %a "$T/etc/rocectl/serve.token")" = 600 ]
	# the serve of the drop-in takes that file
	run -64 rocectl serve --token-file "$T/etc/rocectl/serve.token" --bogus
}

# rocectl-serve(8): the options go where the unit reads them, and serve takes them.
@test "rocectl-serve(8): /etc/default/rocectl-serve is the unit's, and its options parse" {
	local page key unit=$ROOT/systemd/rocectl-serve.service opts
	IFS=$'\t' read -r page key _ < <(entries serve-default)
	block "$page" "$key" >"$T/recipe"
	grep -qx 'systemctl enable --now rocectl-serve' "$T/recipe"
	[ -f "$unit" ]
	grep -qx 'EnvironmentFile=-/etc/default/rocectl-serve' "$unit"
	grep -q '^ExecStart=.*\$ROCECTL_SERVE_OPTS' "$unit"
	# the echo line as printed, into a scratch /etc/default, read as systemd reads it
	mkdir -p "$T/etc/default"
	sed -n "s|> /etc/default/|> $T/etc/default/|p" "$T/recipe" | sh -e
	opts=$(sed -n 's/^ROCECTL_SERVE_OPTS="\(.*\)"$/\1/p' "$T/etc/default/rocectl-serve")
	[ -n "$opts" ]
	# shellcheck disable=SC2086 # the options as systemd splits $ROCECTL_SERVE_OPTS
	run -0 rocectl serve $opts --help
}

# rocectl-serve(8): the drop-in "systemctl edit" makes, verified with the
# unit by systemd-analyze (a scratch root with the host's units and rocectl).
@test "rocectl-serve(8): the systemctl edit drop-in passes systemd-analyze verify" {
	local page key r=$T/root
	command -v systemd-analyze
	IFS=$'\t' read -r page key _ < <(entries systemd-dropin)
	mkdir -p "$r/usr/sbin" "$r/lib/systemd" "$r/etc/systemd/system/rocectl-serve.service.d"
	cp -a /lib/systemd/system "$r/lib/systemd/"
	install -m 0755 "$ROCECTL" "$r/usr/sbin/rocectl"
	cp "$ROOT/systemd/rocectl-serve.service" "$r/lib/systemd/system/"
	block "$page" "$key" >"$r/etc/systemd/system/rocectl-serve.service.d/override.conf"
	grep -qx 'ExecStart=' "$r/etc/systemd/system/rocectl-serve.service.d/override.conf"
	run -0 --separate-stderr systemd-analyze verify --man=no --root="$r" rocectl-serve.service
	assert_equal "$stderr" ""
	# the test can fail: a second ExecStart without the empty one is refused
	sed -i '/^ExecStart=$/d' "$r/etc/systemd/system/rocectl-serve.service.d/override.conf"
	run --separate-stderr systemd-analyze verify --man=no --root="$r" rocectl-serve.service
	[[ $stderr == *ExecStart* ]] || fail "$stderr"
}
