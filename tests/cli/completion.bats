#!/usr/bin/env bats
# bash completion beyond the tables (sync.bats): help, files, --opt=VALUE, state files.
load helpers

# Complete a command line in a directory; compopt calls are logged to $BATS_TEST_TMPDIR/compopt.
complete_in() {
	local dir=$1; shift
	(cd "$dir" && bash -c '
		source "$1"; shift
		compopt() { echo "$@" >>"$LOG"; }
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_rocectl
		printf "%s\n" "${COMPREPLY[@]}"' _ "$ROOT/completions/rocectl" "$ROCECTL" "$@") | sort
}

setup() {
	export LOG=$BATS_TEST_TMPDIR/compopt
	mkdir -p "$BATS_TEST_TMPDIR/cwd/snapdir" "$BATS_TEST_TMPDIR/state"
	touch "$BATS_TEST_TMPDIR/cwd/host.json" "$BATS_TEST_TMPDIR/cwd/other.txt"
}

@test "help <TAB> offers the commands, help bench <TAB> their verbs" {
	diff <(complete_in . help "") <("$ROCECTL" __metadata | jq -r '.commands[].name' | sort)
	diff <(complete_in . help bench "") <(printf '%s\n' nvmf rdma)
}

@test "a directory completes with a slash and no space after it" {
	run -0 complete_in "$BATS_TEST_TMPDIR/cwd" check all --input snap
	assert_output "snapdir/"
	grep -qx -- "-o nospace" "$LOG"
	rm -f "$LOG"
	run -0 complete_in "$BATS_TEST_TMPDIR/cwd" check all --input h
	assert_output "host.json"
	run grep -x -- "-o nospace" "$LOG"
	assert_failure
}

@test "--opt=<TAB> completes the option's value, not a listing of the directory" {
	run -0 complete_in "$BATS_TEST_TMPDIR/cwd" check all --input = ""
	assert_output "$(printf '%s\n' host.json other.txt snapdir/)"
	run -0 complete_in "$BATS_TEST_TMPDIR/cwd" check all --input = ho
	assert_output "host.json"
	run -0 complete_in . counters --output = ""
	assert_output "$(printf '%s\n' json openmetrics prometheus text)"
	run -0 complete_in . counters --group = lo
	assert_output "loss"
	# an alias takes its option's values too
	run -0 complete_in . bench nvmf --numjobs = ""
	assert_output ""
}

@test "tune revert <TAB> offers the state files of the state directory" {
	local s=$BATS_TEST_TMPDIR/state
	touch "$s/tune-20261130T101502.1Z.json" "$s/tune-20261130T111502.1Z.json" "$s/notes.txt"
	run -0 complete_in "$BATS_TEST_TMPDIR/cwd" tune revert --state-dir "$s" ""
	assert_output "$(printf '%s\n' "$s/tune-20261130T101502.1Z.json" "$s/tune-20261130T111502.1Z.json")"
	run -0 complete_in "$BATS_TEST_TMPDIR/cwd" tune revert --state-dir "$s" "$s/tune-20261130T11"
	assert_output "$s/tune-20261130T111502.1Z.json"
	# no state file there: a path typed by hand completes as a file
	run -0 complete_in "$BATS_TEST_TMPDIR/cwd" tune revert --state-dir /nonexistent ho
	assert_output "host.json"
}

@test "a positional device completes where one is taken: check's areas and devices, doctor, tune plan" {
	local netdevs
	netdevs=$(ls /sys/class/net /sys/class/infiniband 2>/dev/null | grep -v ':$' | grep . | sort)
	run -0 complete_in . check pfc e
	assert_output "$( (echo ecn; grep '^e' <<<"$netdevs") | sort)"
	run -0 complete_in . check all ""
	assert_line all
	assert_line peer
	assert_line lo
	for cmd in doctor "tune plan" "tune apply" devices counters; do
		diff <(complete_in . $cmd "") <(echo "$netdevs")
	done
}

# --skip takes a rule id or an area: both come from the rule table at run
# time, so rules and areas added later complete without a completion change.
@test "--skip <TAB> offers the areas and rule ids of the rule table" {
	run -0 complete_in . check all --skip m
	assert_line mtu
	assert_line mode
	assert_line mtu.active
	assert_line mode.tos
	refute_line --regexp '^[^m]'
	run -0 complete_in . doctor --skip pfc.
	assert_line pfc.prio_disabled
	assert_line pfc.lldpad
	refute_line --regexp '^[^p]'
	# every id the man page lists under RULES completes
	local id
	for id in $(sed -n '/^\.SH RULES/,/^\.SH /{/^\.B [a-z]*\.[a-z_]*$/s/^\.B //p}' "$ROOT/man/rocectl-check.8"); do
		run -0 complete_in . check all --skip "$id"
		assert_line "$id"
	done
}

@test "tune's --only and --skip offer areas and setting ids; --roce-mode its values; --plan files" {
	run -0 complete_in . tune plan --only e
	assert_line ecn
	assert_line ets-prio-tc
	assert_line ecn-marking
	refute_line --regexp '^[^e]'
	run -0 complete_in . tune apply --skip pf
	assert_output pfc		# the area and the setting id are one word
	run -0 complete_in . tune apply --skip cm-
	assert_line cm-tos
	assert_line cm-mode
	run -0 complete_in . check all --roce-mode ""
	assert_output $'v1\nv2'
	run -0 complete_in "$BATS_TEST_TMPDIR/cwd" tune apply --plan ""
	grep -q filenames "$LOG" || fail "--plan does not complete file names: $(cat "$LOG")"
}

# With -i FILE the devices judged are the snapshot's: they complete, not
# this machine's.
@test "-i FILE --dev <TAB> offers the snapshot's devices, ports and netdevs" {
	local f=$FIXTURES/bnxt-healthy.json
	run -0 complete_in . check all -i "$f" --dev ""
	assert_output "$(printf '%s\n' bnxt_re0 bnxt_re0/1 ens2f0np0)"
	run -0 complete_in . doctor --input "$f" ""
	assert_output "$(printf '%s\n' bnxt_re0 bnxt_re0/1 ens2f0np0)"
	run -0 complete_in . check all -i "$f" --dev ens
	assert_output ens2f0np0
	# without a snapshot that reads, this machine's
	run -0 complete_in . check all --dev lo
	assert_line lo
	run -0 complete_in . check all -i /nonexistent.json --dev lo
	assert_line lo
}

@test "counters -<TAB> offers --watch and no --warning; check all -<TAB> --warning" {
	run -0 complete_in . counters -
	refute_line -- "--warning"
	assert_line -- "--watch"
	run -0 complete_in . check all -
	assert_line -- "--warning"
	refute_line -- "--watch"
}
