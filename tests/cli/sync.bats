#!/usr/bin/env bats
# Help, man pages and completion are generated from or checked against one
# source: the command and option tables, as dumped by 'rocectl __metadata'.
load helpers

setup_file() {
	"$ROCECTL" __metadata > "$BATS_FILE_TMPDIR/meta.json"
}

meta() { jq -r "$1" "$BATS_FILE_TMPDIR/meta.json"; }

# Every visible command path, one per line: "devices", "check pfc", ...
leaf_paths() { meta '.. | objects | select(has("path") and (.commands | length == 0)) | .path'; }
all_paths() { meta '.. | objects | select(has("path")) | .path'; }

@test "the metadata dump is JSON with schema_version and every command" {
	meta '.schema_version' | grep -qx 3
	meta '.commands[].name' | grep -qx devices
	meta '.global_options[].long' | grep -qx json
	"$ROCECTL" -p __metadata | jq -e '.commands | length > 0'
}

@test "every command has a man page whose SYNOPSIS holds its --help usage line" {
	local path page usage syn
	while read -r path; do
		page=$(man_page_for "$path")
		usage=$("$ROCECTL" $path --help | sed -n '1s/^usage: //p')
		syn=$(man_section "$page" SYNOPSIS | tr -s ' ' | sed 's/^ //')
		grep -qxF -- "$usage" <<<"$syn" || {
			echo "$page: SYNOPSIS lacks '$usage'"
			echo "$syn"
			return 1
		}
	done < <(leaf_paths)
}

@test "every option of a command is in its man page's OPTIONS, and only those" {
	local path page opts documented
	while read -r path; do
		page=$(man_page_for "$path")
		opts=$(jq -r --arg p "$path" '.global_options[].long,
			(.. | objects | select(.path? == $p) | .options[] | .long, .aliases[])' \
			"$BATS_FILE_TMPDIR/meta.json" | sort -u)
		documented=$(man_section "$page" OPTIONS | grep -oE -- '--[a-z][a-z0-9-]*' | sed 's/^--//' | sort -u)
		for o in $opts; do
			grep -qx -- "$o" <<<"$documented" || { echo "$page: --$o of '$path' undocumented"; return 1; }
		done
	done < <(leaf_paths)
	# and nothing documented that no command of that page has
	for page in "$ROOT"/man/rocectl*.8; do
		local top known
		top=$(basename "$page" .8); top=${top#rocectl}; top=${top#-}
		known=$(jq -r --arg t "$top" '.global_options[].long,
			(.commands[] | select(.name == $t or ($t == "" and .name == "help")) |
			 .. | objects | select(has("options")) | .options[] | .long, .aliases[])' \
			"$BATS_FILE_TMPDIR/meta.json" | sort -u)
		for o in $(man_section "$page" OPTIONS | grep -oE -- '--[a-z][a-z0-9-]*' | sed 's/^--//' | sort -u); do
			grep -qx -- "$o" <<<"$known" || { echo "$page documents --$o, which no command of it has"; return 1; }
		done
	done
}

@test "every man page is clean for groff -ww and has the required sections" {
	local page s
	for page in "$ROOT"/man/*.[58]; do
		run groff -man -ww -z "$page"
		assert_success
		assert_output ""
		case $page in *.5) continue ;; esac
		for s in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" "SEE ALSO"; do
			man_text "$page" | grep -qx "$s" || { echo "$page lacks $s"; return 1; }
		done
		man_section "$page" "EXIT STATUS" | grep -q 64 || { echo "$page: exit 64 undocumented"; return 1; }
	done
}

# Run the bash completion function for a command line ending in the word being completed.
complete_words() {
	bash -c '
		source "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_rocectl
		printf "%s\n" "${COMPREPLY[@]}"' _ "$ROOT/completions/rocectl" "$ROCECTL" "$@" | sort
}

@test "completion offers exactly the metadata's commands" {
	diff <(complete_words "") <(meta '.commands[].name' | sort)
	local group
	for group in $(meta '.commands[] | select(.commands | length > 0) | .name'); do
		diff <(complete_words "$group" "") \
		     <(meta ".commands[] | select(.name == \"$group\") | .commands[].name" | sort)
	done
}

@test "completion offers exactly each command's options plus the global ones" {
	local path want
	while read -r path; do
		want=$(jq -r --arg p "$path" '.global_options[].long,
			(.. | objects | select(.path? == $p) | .options[] | .long, .aliases[])' \
			"$BATS_FILE_TMPDIR/meta.json" | sed 's/^/--/' | sort -u)
		diff <(complete_words $path "--") <(echo "$want") || { echo "for '$path'"; return 1; }
	done < <(leaf_paths)
}

@test "completion of an option value offers its choices" {
	local path opt choices
	while IFS=$'\t' read -r path opt choices; do
		diff <(complete_words $path "--$opt" "") <(tr ' ' '\n' <<<"$choices" | sort)
	done < <(meta '.. | objects | select(has("path")) | .path as $p |
		.options[] | select(.choices) | [$p, .long, (.choices | join(" "))] | @tsv')
}

@test "--input is declared once, by cmd/tree.c: no command's option table declares it" {
	run grep -lE '\.name = "input"' "$ROOT"/cmd/*.c
	[ "$output" = "$ROOT/cmd/tree.c" ] || { echo "declares --input itself: $output"; false; }
	[ "$(grep -c '\.name = "input"' "$ROOT/cmd/tree.c")" -eq 1 ]
}

# The commands whose table entry has .host_input (cmd/*.c): they, and only
# they, get -i/--input FILE from the dispatch, once, in help and metadata.
@test "every command whose entry reads a snapshot shows -i/--input once in help and metadata" {
	local path want got
	want=$(printf '%s\n' devices flows counters doctor "tune plan" \
		$(meta '.commands[] | select(.name == "check") | .commands[].path' | tr ' ' '_') |
		tr '_' ' ' | sort)
	got=$(meta '.. | objects | select(has("path")) | select(any(.options[]; .long == "input")) | .path' | sort)
	diff <(echo "$want") <(echo "$got")
	while read -r path; do
		[ "$(jq --arg p "$path" '[.. | objects | select(.path? == $p) | .options[] |
			select(.long == "input" and .short == "i" and .arg == "FILE")] | length' \
			"$BATS_FILE_TMPDIR/meta.json")" -eq 1 ] || { echo "'$path': not one -i/--input FILE"; return 1; }
		[ "$("$ROCECTL" $path --help | grep -cE '^  -i, --input FILE +[a-z]')" -eq 1 ] ||
			{ echo "'$path --help' lacks -i, --input FILE"; return 1; }
	done <<<"$want"
}

# An option's choices and a finding's keys are named in each man page that
# documents them: check and doctor print the same document.
@test "check and doctor man pages name every -o choice and every key of a finding" {
	local cmd page v
	for cmd in doctor "check all"; do
		page=$ROOT/man/rocectl-${cmd%% *}.8
		for v in $(meta ".commands[] | .. | objects | select(.path? == \"$cmd\") | .options[] |
				select(.long == \"output\") | .choices[]"); do
			man_text "$page" | grep -qw -- "$v" || fail "$page: no -o $v"
		done
		for v in $(rocectl $cmd -j -i "$FIXTURES/bnxt-healthy.json" | jq -r '.findings[0] | keys[]'); do
			man_text "$page" | grep -q "\"$v\"" || fail "$page: no finding key \"$v\""
		done
	done
}
