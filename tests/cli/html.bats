#!/usr/bin/env bats
# check and doctor -o html (rocectl-check(8) HTML REPORT): one self-contained
# page of the fleet's verdicts. tests/cli/lib/html_report.py parses it as a
# browser tokenizes and fails on anything that is not locked down (no CSP,
# a style-src other than the sheet's hash, a script, an event handler, a
# style attribute, a link or source outside the page); then Debian's Chromium,
# headless, renders it: its DOM, its console (no CSP violation), its network
# log (no request from the page) and a screenshot, kept in the build
# directory's artefacts/.
load helpers

REPORT=$BATS_TEST_DIRNAME/lib/html_report.py

# The fixture fleet: hosts under two ToRs (LLDP), one without LLDP, a stale
# one, faults of several areas, and a snapshot that cannot be read.
fixture_fleet() {
	local d
	d=$(fleet mlx5-peer-healthy:n51:60 fault-peer-pfc-prio4:n54:60 bnxt-peer-healthy:n52:60 \
		fault-peer-no-dcbx:n55:60 ice-peer-healthy:n53:60 mlx5-upstream-healthy:n11:60 \
		fault-pfc-off-prio3:n2:200000 fault-tos-0:n3:60)
	echo '{"schema_version": 4, "host": ' >"$d/broken.json"
	echo "$d"
}

# Snapshots whose strings are markup: the host name, the switch's name and
# port (LLDP), and the file's own name.
hostile_fleet() {
	local d=$BATS_TEST_TMPDIR/hostile
	mkdir -p "$d"
	jq --argjson t "$(date +%s)" '.host.time = $t |
		.host.hostname = "<script>alert(1)</script>\"'"'"'&amp;" |
		.host.netdevs[0].lldp.system_name = "<img src=http://127.0.0.1:9/a onerror=alert(2)>" |
		.host.netdevs[0].lldp.port_id = "\"><svg onload=alert(3)>"' \
		"$FIXTURES/fault-peer-pfc-prio4.json" >"$d/<b>x.json"
	jq --argjson t "$(date +%s)" '.host.time = $t |
		.host.hostname = "ok</title><style>*{display:none}</style>"' \
		"$FIXTURES/mlx5-upstream-healthy.json" >"$d/ok.json"
	echo "$d"
}

@test "-o html: the grid, the map and every finding of the fleet, as -j has them" {
	local d
	d=$(fixture_fleet)
	run -2 --separate-stderr rocectl doctor -o html -i "$d" --by switch
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/r.html"
	run -2 --separate-stderr rocectl doctor -j -i "$d" --by switch
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/r.json"
	run -0 --separate-stderr python3 "$REPORT" "$BATS_TEST_TMPDIR/r.html"
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/r.shown"
	# every host, in -j's order (worst first), with its status and each area's cell
	[ "$(jq -c '[.hosts[] | [.host, .status]]' "$BATS_TEST_TMPDIR/r.shown")" = \
	  "$(jq -c '[.hosts[] | [.host, .status]]' "$BATS_TEST_TMPDIR/r.json")" ]
	jq -e '.hosts | length == 8' "$BATS_TEST_TMPDIR/r.shown"
	jq -e '.hosts[] | select(.host == "n2") | .cells.pfc == "FAIL" and .cells.peer == "-"' \
		"$BATS_TEST_TMPDIR/r.shown"
	jq -e '.hosts[] | select(.host == "n3") | .cells.mode == "warn" and .status == "warn"' \
		"$BATS_TEST_TMPDIR/r.shown"
	# every finding that is no pass, with its fix, under its host's section
	[ "$(jq -c '[.findings[] | [.id, .target, .fix]] | sort' "$BATS_TEST_TMPDIR/r.shown")" = \
	  "$(jq -c '[.hosts[].findings[] | [.id, .target, .fix // ""]] | sort' "$BATS_TEST_TMPDIR/r.json")" ]
	jq -e '.findings[] | select(.id == "pfc.prio_disabled") | .expected == "PFC on prio 3" and
		(.fix | startswith("dcb pfc set dev ens1f0np0"))' "$BATS_TEST_TMPDIR/r.shown"
	# the map: each switch with its hosts and their switch ports, the hosts without LLDP apart
	# (rctl_fleet_groups()' order: as many failed and warnings, then by name)
	jq -e '[.switches[].key] == ["(no LLDP neighbour)", "leaf-07", "leaf-08"]' "$BATS_TEST_TMPDIR/r.shown"
	jq -e '.switches[1].members == [
		{"host": "n54", "where": "Ethernet1/7", "status": "fail"},
		{"host": "n55", "where": "Ethernet1/12", "status": "warn"},
		{"host": "n51", "where": "Ethernet1/7", "status": "pass"},
		{"host": "n52", "where": "Ethernet1/12", "status": "pass"}]' "$BATS_TEST_TMPDIR/r.shown"
	jq -e '[.switches[0].members[] | [.host, .where]] == [["n2", "ens1f0np0"], ["n3", "ens1f0np0"], ["n11", "ens1f0np0"]]' "$BATS_TEST_TMPDIR/r.shown"
	# the unreadable snapshot, the stale one, --by and compare's outliers
	run -0 cat "$BATS_TEST_TMPDIR/r.html"
	assert_output --partial "<h2 id=\"unreadable\">Unreadable snapshots (1), not judged</h2>"
	assert_output --partial "$d/broken.json"
	assert_output --regexp 'class="stale">[0-9T:Z-]+ \(stale\)'
	assert_output --partial '1 stale (older than 26 h) (exit 2)'
	assert_output --partial '<h2 id="groups">By switch</h2>'
	assert_output --partial '<td>switch_pfc_prios</td><td>4</td>'
}

@test "-o html: a snapshot's strings are text, never markup" {
	local d
	d=$(hostile_fleet)
	run -2 rocectl doctor -o html -i "$d"
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/r.html"
	# nothing of the snapshots became a tag or an attribute
	for s in '<script' '<img' '"><svg' '<b>x' '</title><style>' 'onload=alert(3)>'; do
		run ! grep -qF -- "$s" "$BATS_TEST_TMPDIR/r.html"
	done
	grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;amp;' "$BATS_TEST_TMPDIR/r.html"
	grep -qF "$d/&lt;b&gt;x.json" "$BATS_TEST_TMPDIR/r.html"
	run -0 --separate-stderr python3 "$REPORT" "$BATS_TEST_TMPDIR/r.html"
	# a parser reads the strings back as they were, as text
	jq -e '[.hosts[].host] == ["<script>alert(1)</script>\"'"'"'&amp;", "ok</title><style>*{display:none}</style>"]' <<<"$output"
	jq -e '.switches[0].key == "<img src=http://127.0.0.1:9/a onerror=alert(2)>" and
		.switches[0].members[0].where == "\"><svg onload=alert(3)>"' <<<"$output"
	jq -e '.title == "rocectl doctor: 2 hosts" and (.tags | index("script") == null and index("img") == null)' <<<"$output"
}

@test "-o html: CSP of the sheet's hash, no script, nothing from outside; html_report.py fails otherwise" {
	local d
	d=$(fixture_fleet)
	rocectl check all -o html -i "$d" >"$BATS_TEST_TMPDIR/r.html" || [ $? = 2 ]
	run -0 --separate-stderr python3 "$REPORT" "$BATS_TEST_TMPDIR/r.html"
	grep -qE "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]{43}='; base-uri 'none'; form-action 'none'\">" \
		"$BATS_TEST_TMPDIR/r.html"
	[ "$(grep -c '<style>' "$BATS_TEST_TMPDIR/r.html")" = 1 ]
	run ! grep -qiE '<script|<link|<img|<iframe|<object|@import|url\(' "$BATS_TEST_TMPDIR/r.html"
	[ -z "$(grep -oE '(src|href)="[^"#][^"]*"' "$BATS_TEST_TMPDIR/r.html")" ]
	# the checker is no rubber stamp: a changed sheet, a link out, a handler
	sed 's/body{font/body{color:red;font/' "$BATS_TEST_TMPDIR/r.html" >"$BATS_TEST_TMPDIR/bad.html"
	run -1 --separate-stderr python3 "$REPORT" "$BATS_TEST_TMPDIR/bad.html"
	[[ $stderr == *"is not the sheet's hash"* ]]
	sed '0,/<h1>/s//<img src="https:\/\/example.com\/x.png"><h1>/' "$BATS_TEST_TMPDIR/r.html" >"$BATS_TEST_TMPDIR/bad.html"
	run -1 --separate-stderr python3 "$REPORT" "$BATS_TEST_TMPDIR/bad.html"
	[[ $stderr == *"not a fragment of the page"* ]]
	sed '0,/<h1>/s//<h1 onclick="x()">/' "$BATS_TEST_TMPDIR/r.html" >"$BATS_TEST_TMPDIR/bad.html"
	run -1 --separate-stderr python3 "$REPORT" "$BATS_TEST_TMPDIR/bad.html"
	[[ $stderr == *"event handler attribute onclick"* ]]
}

@test "-o html: the same snapshots give the same page; -O writes it; one host; usage errors" {
	local d a
	d=$(fixture_fleet)
	a=$(rocectl check all -o html -i "$d" 2>/dev/null) || [ $? = 2 ]
	run -2 --separate-stderr rocectl check all -o html -i "$d"
	[ "$output" = "$a" ]
	# no time but the snapshots': the run's own time is nowhere
	run ! grep -qF "$(date -u +%Y-%m-%dT%H:%M)" <<<"$(rocectl check all -o html -i "$d/n2.json" -i "$d/broken.json" 2>/dev/null)"
	run -2 --separate-stderr rocectl check all -o html -O "$BATS_TEST_TMPDIR/out.html" -i "$d"
	[ -z "$output" ]
	[ "$(cat "$BATS_TEST_TMPDIR/out.html")" = "$a" ]
	# one snapshot, or this host: a report of one, with its own exit status
	run -1 --separate-stderr rocectl doctor -o html -i "$FIXTURES/fault-tos-0.json"
	run -0 --separate-stderr python3 "$REPORT" - <<<"$(rocectl doctor -o html -i "$FIXTURES/fault-tos-0.json")"
	jq -e '(.hosts | length) == 1 and .hosts[0].status == "warn" and
		(.findings[] | select(.id == "mode.tos"))' <<<"$output"
	run -64 rocectl check all -o html -j -i "$d"
	assert_output --partial "'-o' and '--json' exclude each other"
	run -64 rocectl check all -O "$BATS_TEST_TMPDIR/x" -i "$d"
	assert_output --partial "'--output-file' needs '-o prometheus', '-o openmetrics' or '-o html'"
}

# Chromium's own traffic (its update and account services) has no page as
# its initiator; anything the report asked for would ("null": a file: page).
page_requests() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
kind = d["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
for e in d["events"]:
    p = e.get("params") or {}
    if e["type"] == kind and "url" in p and p.get("initiator") != "not an origin":
        print(p.get("initiator"), p["url"])
' "$1"
}

chromium_run() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$(mktemp -d "$BATS_TEST_TMPDIR/profile.XXXXXX")" \
		--enable-logging=stderr --v=0 "$@"
}

@test "Chromium renders the report: the DOM, no CSP violation, no request, a screenshot" {
	local d h t=$BATS_TEST_TMPDIR art
	command -v chromium
	d=$(fixture_fleet)
	h=$(hostile_fleet)
	cp "$h"/*.json "$d/"
	rocectl doctor -o html -O "$t/report.html" -i "$d" --by switch || [ $? = 2 ]
	python3 "$REPORT" "$t/report.html" >"$t/shown.json"
	# (a) the DOM Chromium builds is the page's: the same hosts, map and findings, no script
	chromium_run --log-net-log="$t/net.json" --dump-dom "file://$t/report.html" >"$t/dom.html" 2>"$t/dom.log"
	run -0 --separate-stderr python3 "$REPORT" "$t/dom.html"
	[ "$(jq -c '.hosts, .switches, .findings' <<<"$output")" = "$(jq -c '.hosts, .switches, .findings' "$t/shown.json")" ]
	jq -e '(.hosts | length) == 10 and (.findings | length) > 5 and (.switches | length) == 4 and
		(.tags | index("script") == null and index("img") == null)' <<<"$output"
	# (b) no CSP violation logged, and nothing fetched by the page
	run ! grep -i 'Content Security Policy' "$t/dom.log"
	[ -z "$(page_requests "$t/net.json")" ]
	# ... where both checks do see what they look for: a sheet the CSP refuses, an image
	sed 's/body{font/body{color:red;font/; 0,/<h1>/s//<img src="http:\/\/127.0.0.1:9\/x.png"><h1>/' \
		"$t/report.html" >"$t/bad.html"
	chromium_run --log-net-log="$t/bad-net.json" --dump-dom "file://$t/bad.html" >/dev/null 2>"$t/bad.log"
	grep -q "Applying inline style violates the following Content Security Policy" "$t/bad.log"
	sed 's/default-src [^"]*"/"/' "$t/bad.html" >"$t/open.html"
	chromium_run --log-net-log="$t/open-net.json" --dump-dom "file://$t/open.html" >/dev/null 2>&1
	[[ $(page_requests "$t/open-net.json") == *"http://127.0.0.1:9/x.png"* ]]
	# (c) a screenshot that shows the status colours of the grid and the map's switch boxes
	chromium_run --hide-scrollbars --window-size=1280,1600 --screenshot="$t/report.png" \
		"file://$t/report.html" >/dev/null 2>&1
	run -0 python3 "$BATS_TEST_DIRNAME/lib/png_colours.py" "$t/report.png" c8e6c9 ef9a9a ffe082 e3f2fd
	jq -e '.width == 1280 and .colours > 20 and .non_white > 0.1 and
		([.found[]] | all(. > 100))' <<<"$output"
	art=$(dirname "$ROCECTL")/artefacts
	mkdir -p "$art"
	cp "$t/report.html" "$art/fleet-report.html"
	cp "$t/report.png" "$art/fleet-report.png"
}

# The examples of README, rocectl-check(8) and rocectl-doctor(8), as printed.
@test "README and the man pages: the -o html example writes the report" {
	local d block cmd
	d=$(fleet fault-peer-pfc-prio4:node51:600 fault-peer-no-dcbx:node52:600 ice-peer-healthy:node53:600)
	mkdir "$BATS_TEST_TMPDIR/bin"
	ln -s "$ROCECTL" "$BATS_TEST_TMPDIR/bin/rocectl"
	export PATH="$BATS_TEST_TMPDIR/bin:$PATH"
	for block in "$ROOT/README.md:-O fleet.html" \
		     "$ROOT/man/rocectl-check.8:-O fleet.html" \
		     "$ROOT/man/rocectl-doctor.8:-O fleet.html"; do
		rm -rf "$BATS_TEST_TMPDIR/w" && mkdir "$BATS_TEST_TMPDIR/w" && cd "$BATS_TEST_TMPDIR/w"
		cp -r "$d" snap
		cmd=$(python3 "$BATS_TEST_DIRNAME/lib/man_block.py" "${block%%:*}" "${block#*:}" |
			grep -m1 '^\$ ' | sed 's/^\$ //')
		[ -n "$cmd" ]
		run -2 bash -c "$cmd"
		run -0 --separate-stderr python3 "$REPORT" fleet.html
		jq -e '([.hosts[].host] | sort) == ["node51", "node52", "node53"] and
			([.switches[].key] | index("leaf-07") != null)' <<<"$output"
	done
}
