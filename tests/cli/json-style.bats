#!/usr/bin/env bats
# One JSON style across commands (CONTRIBUTING.md, "JSON style"): every
# document of every command, on every fixture and for every usage error,
# checked by tests/cli/lib/json_style.py.
load helpers

style() { python3 "$BATS_TEST_DIRNAME/lib/json_style.py" "$@"; }

# Run a command line (the JSON document on stdout) and check it; any documented
# exit status (0-3, 64) is fine, a crash or another status is not.
doc_ok() {
	local out rc=0
	out=$("$ROCECTL" "$@" 2>/dev/null) || rc=$?
	case $rc in 0 | 1 | 2 | 3 | 64) ;; *) echo "rocectl $*: exit $rc"; return 1 ;; esac
	run style "rocectl $*" <<<"$out"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
}

@test "the checker catches each kind of violation (the test can fail)" {
	local stamp='"schema_version":3,"hostname":"h","time":"2026-01-01T00:00:00Z"'
	run style t <<<"{$stamp,\"a\":1,\"a\":2}"
	assert_failure; assert_output --partial "key 'a' twice"
	run style t <<<"{$stamp,\"x\":\"\"}"
	assert_failure; assert_output --partial '"" (null means unknown)'
	run style t <<<"{$stamp,\"rtt_us\":1}"
	assert_failure; assert_output --partial "unit other than"
	run style t <<<"{$stamp,\"secs\":1}"
	assert_failure; assert_output --partial "old style"
	run style t <<<'{"schema_version":3,"time":"2026-01-01T00:00:00Z"}'
	assert_failure; assert_output --partial "not schema_version, hostname, time"
	run style t <<<'{"schema_version":3,"hostname":"h","time":"yesterday"}'
	assert_failure; assert_output --partial "not RFC 3339"
	run style t <<<"{$stamp,\"latency_ns\":{\"percentiles\":{\"99.9\":5}}}"
	assert_success
	printf 'first\n{%s}\n' "$stamp" >"$BATS_TEST_TMPDIR/a"
	printf 'second\n{%s,"x":""}\n' "$stamp" >"$BATS_TEST_TMPDIR/b"
	run style --files "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
	assert_failure; assert_output "second: '.x' is \"\" (null means unknown)"
}

# doc_ok's run into a file for one 'style --files' of them all (one python3
# for hundreds of documents).
doc_save() {
	local out rc=0 file
	file=$BATS_TEST_TMPDIR/doc.$((++n_docs))
	out=$("$ROCECTL" "$@" 2>/dev/null) || rc=$?
	case $rc in 0 | 1 | 2 | 3 | 64) ;; *) echo "rocectl $*: exit $rc"; return 1 ;; esac
	printf 'rocectl %s\n%s\n' "$*" "$out" >"$file"
}

@test "devices, counters, check, doctor and tune plan on every fixture" {
	local f n_docs=0
	for f in "$FIXTURES"/*.json "$DATA"/*.json; do
		doc_save devices -j -i "$f"
		doc_save counters -j -i "$f"
		doc_save check all -j -i "$f"
		doc_save doctor -p -i "$f"
		doc_save tune plan -j -i "$f"
	done
	run style --files "$BATS_TEST_TMPDIR"/doc.*
	assert_success
	[ "$n_docs" -gt 300 ]
}

@test "check and doctor over the fixtures as one fleet" {
	doc_ok check all -j -i "$FIXTURES" --by switch
	doc_ok doctor -j -i "$FIXTURES" -i "$DATA" --by rule
}

@test "compare of fixtures" {
	doc_ok compare -j "$FIXTURES/mlx5-upstream-healthy.json" "$FIXTURES/fault-pfc-on-0-and-3.json" \
		"$FIXTURES/fault-tos-0.json"
}

@test "the error document of every command" {
	local path
	while read -r path; do
		doc_ok -j $path --no-such-option
	done < <("$ROCECTL" __metadata | jq -r '.. | objects | select(has("path") and (.commands | length == 0)) | .path')
	doc_ok -j check
	doc_ok check -j
	doc_ok -j nosuchcommand
}

@test "hostname is the host described: a snapshot's own" {
	run -0 rocectl devices -j -i "$DATA/rxe-lab.json"
	echo "$output" | jq -e --arg h "$(jq -r .host.hostname "$DATA/rxe-lab.json")" '.hostname == $h'
	run -0 rocectl check all -j -i "$FIXTURES/bnxt-healthy.json"
	echo "$output" | jq -e --arg h "$(jq -r .host.hostname "$FIXTURES/bnxt-healthy.json")" '.hostname == $h'
}

# reach needs RDMA: its documents were recorded in the lab by the current
# writer (tests/cli/data/reach/, see reach.bats; schema version 3 changed no
# key of reach's, so the recordings carry 3 as that writer would); --matrix
# runs here.
@test "reach: the lab's recorded documents and the matrix" {
	local f
	for f in "$DATA"/reach/*.json; do
		run style "$f" <"$f"
		[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	done
	doc_ok reach -j --matrix "$DATA/reach/lab-a.json" "$DATA/reach/lab-b.json"
}

@test "-o json (nvme-cli's spelling) is --json wherever -o FORMAT is" {
	local in=$FIXTURES/fault-pfc-off-prio3.json a rc cmd
	for cmd in "check pfc" "check all" "doctor" "counters"; do
		run --separate-stderr "$ROCECTL" $cmd -j --input "$in"
		a=$(jq -c 'del(.time)' <<<"$output") rc=$status
		run --separate-stderr "$ROCECTL" $cmd -o json --input "$in"
		[ "$status" -eq "$rc" ] && [ -n "$a" ] &&
			[ "$(jq -c 'del(.time)' <<<"$output")" = "$a" ] || { echo "$cmd: $output"; return 1; }
	done
	# bench nvmf: a usage error is the JSON error document, as with -j
	run -64 --separate-stderr "$ROCECTL" bench nvmf -o json
	jq -e '.error.message | startswith("bench nvmf: --target is required")' <<<"$output"
	run -64 --separate-stderr "$ROCECTL" check pfc -o yaml --input "$in"
	[ -z "$output" ]
}

@test "capture and check wire of a pcap file" {
	local p=$BATS_TEST_TMPDIR/w.pcap
	python3 "$ROOT/tests/cli/lib/roce_pcap.py" "$p" req:1:2:0x11:0 rep:2:1:0x22 \
		data:1:2:0x22:0:5 nak:2:1:0x11:106:0x60 cnp:2:1:0x11:0xc0:1
	doc_ok -j capture -r "$p"
	doc_ok -j check wire -r "$p" -i "$FIXTURES/mlx5-upstream-healthy.json"
}

# One key, one type (docs/json.md): the same name never holds a string in one
# document and a number or an array in another, nor arrays of two element
# types. null (unknown) and an empty array's elements fit any type.
one_type_per_key() {
	local out
	out=$(jq -c '.. | objects | to_entries[] | select(.value != null) |
		[.key, (.value | type), (if (.value | type) == "array" then [.value[] | type] | unique else [] end)]' "$@" |
	jq -s -r 'group_by(.[0]) | map({k: .[0][0], t: (map(.[1]) | unique), e: (map(.[2][]) | unique)} |
		select((.t | length) > 1 or (.e | length) > 1) | "\(.k): \((.t + (.e | map("array of " + .))) | join(", "))") | .[]') || return
	[ -z "$out" ] || { echo "$out"; return 1; }
}

# judged CMD...: CMD's exit is a verdict (0 pass, 1 warn, 2 fail, 3 unknown);
# a usage error (64) or a signal fails the test.
judged() {
	local rc=0
	"$@" || rc=$?
	[ "$rc" -le 3 ] || { echo "exit $rc: $*" >&2; return 1; }
}

@test "one JSON type per key across every command's documents on the fixtures (docs/json.md)" {
	local d=$BATS_TEST_TMPDIR/docs f b p=$BATS_TEST_TMPDIR/w.pcap
	mkdir "$d"
	for f in "$FIXTURES"/*.json; do
		b=$(basename "$f" .json)
		for c in devices counters "check all" doctor "tune plan" flows; do
			judged "$ROCECTL" $c -j -i "$f" >"$d/$b.${c// /_}.json"
		done
	done
	judged "$ROCECTL" compare -j "$FIXTURES"/*.json >"$d/compare.json"
	judged "$ROCECTL" compare -j --by switch "$FIXTURES"/*.json >"$d/compare-switch.json"
	judged "$ROCECTL" check all -j -i "$FIXTURES" --by switch >"$d/fleet-check.json"
	judged "$ROCECTL" doctor -j -i "$FIXTURES" --by rule >"$d/fleet-doctor.json"
	judged "$ROCECTL" reach -j --matrix "$DATA/reach/lab-a.json" "$DATA/reach/lab-b.json" >"$d/matrix.json"
	python3 "$ROOT/tests/cli/lib/roce_pcap.py" "$p" req:1:2:0x11:0 rep:2:1:0x22 \
		data:1:2:0x22:0:5 nak:2:1:0x11:106:0x60 cnp:2:1:0x11:0xc0:1
	judged "$ROCECTL" capture -j -r "$p" >"$d/capture.json"
	judged "$ROCECTL" check wire -j -r "$p" -i "$FIXTURES/mlx5-upstream-healthy.json" >"$d/wire.json"
	# every command wrote one document: one jq reads them all, in order, and
	# names each file once per document with a schema_version
	local files=("$d"/*.json) seen
	seen=$(jq -n -r 'inputs | select(type == "object" and has("schema_version")) | input_filename' "${files[@]}")
	[ "$seen" = "$(printf '%s\n' "${files[@]}")" ] ||
		{ diff <(printf '%s\n' "${files[@]}") - <<<"$seen"; return 1; }
	run one_type_per_key "$d"/*.json
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	# the walk can fail: compare's priorities as the strings they were
	jq '.ports[0].pfc_prios = "0,3"' "$d/compare.json" >"$d/compare-strings.json"
	run one_type_per_key "$d"/*.json
	assert_failure
	assert_output "pfc_prios: array, string, array of number"
}
