# Shared set-up for the CLI tests: no RDMA needed, the binary under test is $ROCECTL.
bats_require_minimum_version 1.5.0
# bats-support and bats-assert without a process per file (tests/lab/bats-libs.bash, the lab's)
# shellcheck source=SCRIPTDIR/../lab/bats-libs.bash
source "${BASH_SOURCE[0]%/*}/../lab/bats-libs.bash"
bats_libs_load bats-support bats-assert

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
ROCECTL=${ROCECTL:-$ROOT/build/rocectl}
DATA=$BATS_TEST_DIRNAME/data
FIXTURES=$ROOT/tests/fixtures/hosts

rocectl() { "$ROCECTL" "$@"; }

# Plain text of a man page, as a reader sees it. The tree's own pages are
# rendered once a run (sync.bats alone asked groff 150 times for 11 pages);
# the cache file is written aside and renamed, as tests run in parallel.
man_text() {
	local c t txt
	case $1 in
	"$ROOT"/man/*) c=$BATS_RUN_TMPDIR/man-text.${1##*/} t=$c.$BASHPID ;;
	*) groff -man -Tascii -P-cbou "$1" 2>/dev/null; return ;;
	esac
	if [ ! -f "$c" ]; then
		groff -man -Tascii -P-cbou "$1" 2>/dev/null >"$t" || return
		mv -f "$t" "$c" || return
	fi
	IFS= read -r -d '' txt <"$c" || :
	printf '%s' "$txt"
}

# One section of a rendered man page (between its heading and the next heading).
man_section() {
	man_text "$1" | awk -v s="$2" '/^[A-Z][A-Z ]+$/ { on = ($0 == s); next } on'
}

# The man page that documents a command path ("check pfc" → rocectl-check.8).
man_page_for() {
	local top=${1%% *}
	if [ -f "$ROOT/man/rocectl-$top.8" ]; then echo "$ROOT/man/rocectl-$top.8"; else echo "$ROOT/man/rocectl.8"; fi
}

# A fleet directory: fixture NAME copied as HOST.json with host name HOST,
# taken AGE seconds ago ("name:host:age" each).
fleet() {
	local d=$BATS_TEST_TMPDIR/fleet spec name host age now
	now=$(date +%s)
	mkdir -p "$d"
	for spec in "$@"; do
		IFS=: read -r name host age <<<"$spec"
		jq --arg h "$host" --argjson t $((now - age)) '.host.hostname = $h | .host.time = $t' \
			"$FIXTURES/$name.json" >"$d/$host.json"
	done
	echo "$d"
}
