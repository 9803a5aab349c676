#!/usr/bin/env bats
# What monitoring systems read: the Nagios/Icinga plugin mode of check and
# doctor, and Prometheus metrics checked by the real promtool.
load helpers

@test "nagios: one status line with perfdata, then the findings; exit 0/1/2/3 as the verdict" {
	local f want
	for f in mlx5-upstream-healthy:0:OK fault-tos-0:1:WARNING \
		 fault-out-of-sequence-rising:2:CRITICAL fault-debugfs-unreadable:3:UNKNOWN; do
		want=${f#*:}
		run --separate-stderr -"${want%%:*}" rocectl check all -o nagios -i "$FIXTURES/${f%%:*}.json"
		assert_line --index 0 --regexp "^ROCECTL ${want#*:} - [0-9]+ failed, [0-9]+ unknown, [0-9]+ warnings, [0-9]+ passed.* \| pass=[0-9]+ warn=[0-9]+ fail=[0-9]+ unknown=[0-9]+"
		assert_equal "$stderr" ""
	done
	run -2 rocectl doctor -o nagios -i "$FIXTURES/fault-out-of-sequence-rising.json"
	assert_line --index 0 "ROCECTL CRITICAL - 1 failed, 0 unknown, 1 warnings, 27 passed: first counters.loss_budget mlx5_0/1 (ens1f0np0) | pass=27 warn=1 fail=1 unknown=0 loss_rate=0.002405370129;;0.000001;0; interval=10s"
	assert_line --index 1 --partial "FAIL counters.loss_budget mlx5_0/1 (ens1f0np0): RoCE loss rate 0.00241"
}

@test "nagios: perfdata follows the plugin guidelines (label=value[UOM];warn;crit;min;max, no exponent)" {
	run -2 rocectl check all -o nagios -i "$FIXTURES/fault-out-of-sequence-rising.json"
	local perf=${lines[0]#*| } item
	for item in $perf; do
		[[ $item =~ ^[a-z_]+=[0-9.]+(s|%|B)?(;[0-9.]*){0,4}$ ]] || { echo "bad perfdata '$item'"; return 1; }
	done
}

@test "nagios: usage and runtime errors are UNKNOWN, exit 3, with a status line" {
	run --separate-stderr -3 rocectl check all -o nagios --bogus
	assert_output --regexp "^ROCECTL UNKNOWN - check all: unknown option '--bogus'"
	run --separate-stderr -3 rocectl check -o nagios
	assert_output --regexp "^ROCECTL UNKNOWN - check: missing command: one of pfc, "
	run --separate-stderr -3 rocectl doctor --output nagios --interval 0
	assert_output --partial "ROCECTL UNKNOWN - doctor: invalid value '0' for '--interval'"
	run --separate-stderr -3 rocectl check all -o nagios -j
	assert_output "ROCECTL UNKNOWN - check all: '-o nagios' and '--json' exclude each other: one output format (see 'rocectl check all --help')"
	run --separate-stderr -3 rocectl check all -o nagios -i /nonexistent.json
	assert_output "ROCECTL UNKNOWN - cannot open snapshot '/nonexistent.json': No such file or directory"
	run --separate-stderr -3 rocectl check all -o nagios -i "$FIXTURES/bnxt-healthy.json" --dev mlx5_9
	assert_output --partial "ROCECTL UNKNOWN - no RDMA device, port or netdev matches '--dev mlx5_9'"
	# without -o nagios, a usage error stays 64
	run -64 rocectl check all --bogus
}

@test "prometheus: check results as one gauge per finding, the worst status per series" {
	run -2 rocectl check all -o prometheus -i "$FIXTURES/fault-out-of-sequence-rising.json"
	assert_line '# TYPE rocectl_check_status gauge'
	assert_line 'rocectl_check_status{command="check all",id="counters.loss_budget",area="counters",device="mlx5_0",port="1",netdev="ens1f0np0"} 2'
	assert_line 'rocectl_check_status{command="check all",id="mtu.active",area="mtu",device="mlx5_0",port="1",netdev="ens1f0np0"} 0'
	assert_line 'rocectl_check_loss_ratio{command="check all",device="mlx5_0",port="1",netdev="ens1f0np0"} 0.0024053701286593323'
	assert_line 'rocectl_check_loss_budget_ratio{command="check all"} 1e-06'
	assert_line 'rocectl_check_exit_status{command="check all"} 2'
	run -3 rocectl check dcqcn -o prometheus -i "$FIXTURES/fault-debugfs-unreadable.json"
	assert_line 'rocectl_check_status{command="check dcqcn",id="dcqcn.params",area="dcqcn",device="mlx5_0",port="1",netdev="ens1f0np0"} 3'
	# no two samples with the same labels
	run -0 bash -c "'$ROCECTL' check all -o prometheus -i '$FIXTURES/mlx5-upstream-healthy.json' | grep -v '^#' | sed 's/ [^ ]*$//' | sort | uniq -d"
	assert_output ""
}

@test "promtool check metrics accepts counters and check output of every fixture" {
	command -v promtool
	local f
	for f in "$FIXTURES"/*.json "$DATA"/*.json; do
		rocectl counters -o prometheus -i "$f" >"$BATS_TEST_TMPDIR/c.prom" 2>/dev/null ||
			[ $? -eq 3 ]	# a snapshot without RDMA ports
		run promtool check metrics <"$BATS_TEST_TMPDIR/c.prom"
		[ "$status" -eq 0 ] && [ -z "$output" ] || { echo "counters of $f: $output"; return 1; }
		rocectl check all -o prometheus -i "$f" >"$BATS_TEST_TMPDIR/k.prom" 2>/dev/null ||
			[ $? -le 3 ]	# a check's verdict: 1 warn, 2 fail, 3 unknown
		grep -q '^rocectl_check_status' "$BATS_TEST_TMPDIR/k.prom"
		run promtool check metrics <"$BATS_TEST_TMPDIR/k.prom"
		[ "$status" -eq 0 ] && [ -z "$output" ] || { echo "check of $f: $output"; return 1; }
	done
}

# The documents into files named by fixture, then one parser for them all.
@test "the OpenMetrics parser accepts -o openmetrics of counters and check on every fixture" {
	local d=$BATS_TEST_TMPDIR/om f b n=0
	mkdir "$d"
	for f in "$FIXTURES"/*.json; do
		b=${f##*/}
		rocectl counters -o openmetrics -i "$f" >"$d/counters-of-$b.om" 2>/dev/null
		rocectl check all -o openmetrics -i "$f" >"$d/check-of-$b.om" 2>/dev/null ||
			[ $? -le 3 ]	# a check's verdict: 1 warn, 2 fail, 3 unknown
		[ "$(tail -n 1 "$d/check-of-$b.om")" = "# EOF" ]
		n=$((n + 2))
	done
	run "$BATS_TEST_DIRNAME/lib/openmetrics_check.py" --files "$d"/*.om
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[ "${#lines[@]}" -eq "$n" ] && [ "$n" -gt 100 ]
}

@test "the OpenMetrics parser refuses the text format's counters (the two outputs differ for a reason)" {
	local f=$FIXTURES/mlx5-upstream-healthy.json
	{ rocectl counters -o prometheus -i "$f"; echo '# EOF'; } >"$BATS_TEST_TMPDIR/c.prom"
	run "$BATS_TEST_DIRNAME/lib/openmetrics_check.py" <"$BATS_TEST_TMPDIR/c.prom"
	assert_failure
	assert_output --partial "Clashing name"
}

@test "promtool would catch what the names used to be (the test can fail)" {
	printf '# HELP rocectl_hw_counter x\n# TYPE rocectl_hw_counter counter\nrocectl_hw_counter 1\n' |
		{ run promtool check metrics; [ "$status" -ne 0 ] || [ -n "$output" ]; }
}

@test "prometheus: PMA data words are bytes in their own family; bytes never share a family" {
	run -0 rocectl counters -o prometheus -i "$FIXTURES/mlx5-upstream-healthy.json"
	local words
	words=$(jq '.host.devices[0].ports[0].pma_counters[] | select(.name == "port_rcv_data") | .value' \
		"$FIXTURES/mlx5-upstream-healthy.json")
	assert_line "rocectl_rdma_pma_data_bytes_total{device=\"mlx5_0\",port=\"1\",counter=\"port_rcv_data\"} $((words * 4))"
	refute_line --partial 'rocectl_rdma_pma_events_total{device="mlx5_0",port="1",counter="port_rcv_data"'
	refute_line --regexp '^rocectl_ethtool_stat\{.*bytes'
	assert_line --regexp '^rocectl_ethtool_stat_bytes\{netdev="ens1f0np0",stat="rx_bytes_phy"'
}

@test "-O writes the textfile atomically; it needs -o prometheus" {
	local out=$BATS_TEST_TMPDIR/rocectl.prom
	run -0 rocectl check all -o prometheus -O "$out" -i "$FIXTURES/mlx5-upstream-healthy.json"
	assert_output ""
	grep -q '^rocectl_check_exit_status{command="check all"} 0$' "$out"
	[ "$(stat -c %a "$out")" = 644 ]
	run -0 ls "$BATS_TEST_TMPDIR"
	assert_output "rocectl.prom"
	run -0 rocectl counters -o prometheus --output-file "$out" -i "$FIXTURES/mlx5-upstream-healthy.json"
	grep -q '^rocectl_port_info' "$out"
	run -64 rocectl check all -O "$out" -i "$FIXTURES/mlx5-upstream-healthy.json"
	run -3 rocectl check all -o prometheus -O /nonexistent/dir/x.prom -i "$FIXTURES/mlx5-upstream-healthy.json"
	# the strace shows the write goes to a temporary name, then rename(2)
	ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=rename,renameat,renameat2 -o "$BATS_TEST_TMPDIR/trace" \
		"$ROCECTL" check all -o prometheus -O "$out" -i "$FIXTURES/mlx5-upstream-healthy.json"
	grep -Eq "rocectl.prom.[A-Za-z0-9]{6}\", .*rocectl.prom\"" "$BATS_TEST_TMPDIR/trace"
}

@test "-O never replaces what is not a regular file: a device or FIFO is written in place, a link's target replaced" {
	local d=$BATS_TEST_TMPDIR f=$FIXTURES/mlx5-upstream-healthy.json
	[ "$(id -u)" = 0 ] || skip "mknod needs root"
	# a character device (a private /dev/null) stays the device
	mknod "$d/null" c 1 3
	run -0 rocectl check all -o prometheus -O "$d/null" -i "$f"
	[ -c "$d/null" ]
	[ "$(stat -c %t:%T "$d/null")" = 1:3 ]
	# a FIFO stays a FIFO and its reader gets the metrics. The test holds it
	# open read-write (fd 8; bats owns 3) until rocectl is done, so a reader exists whenever
	# a loaded host starts cat; closing fd 8 then gives cat its end of file.
	mkfifo "$d/fifo"
	exec 8<>"$d/fifo"
	cat "$d/fifo" >"$d/from-fifo" 8>&- &
	run -0 rocectl counters -o prometheus -O "$d/fifo" -i "$f"
	exec 8>&-
	wait
	[ -p "$d/fifo" ]
	grep -q '^rocectl_port_info' "$d/from-fifo"
	# a FIFO nobody reads is refused at once, not waited on
	mkfifo "$d/lonely"
	run -3 --separate-stderr timeout 10 "$ROCECTL" check all -o prometheus -O "$d/lonely" -i "$f"
	assert_equal "$stderr" "rocectl: cannot write '$d/lonely': no process reads the FIFO"
	# a symbolic link keeps pointing at its target, which is replaced atomically
	mkdir "$d/textfile"
	echo old >"$d/textfile/rocectl.prom"
	ln -s "$d/textfile/rocectl.prom" "$d/link.prom"
	run -0 rocectl check all -o prometheus -O "$d/link.prom" -i "$f"
	[ -L "$d/link.prom" ]
	grep -q '^rocectl_check_exit_status{command="check all"} 0$' "$d/textfile/rocectl.prom"
	run -0 ls "$d/textfile"
	assert_output rocectl.prom
	# a directory, a block device and a dangling link are refused in one line
	run -3 --separate-stderr rocectl check all -o prometheus -O "$d/textfile" -i "$f"
	assert_equal "$stderr" "rocectl: cannot write '$d/textfile': it is a directory"
	mknod "$d/blk" b 7 200
	run -3 --separate-stderr rocectl check all -o prometheus -O "$d/blk" -i "$f"
	assert_equal "$stderr" "rocectl: cannot write '$d/blk': it is a block device"
	[ -b "$d/blk" ]
	ln -s "$d/nowhere" "$d/dangling"
	run -3 --separate-stderr rocectl counters -o prometheus -i "$f" -O "$d/dangling"
	assert_equal "$stderr" "rocectl: cannot write '$d/dangling': it is a dangling symbolic link"
}

@test "-O never follows another user's link in a directory others can write; a replaced file keeps its mode" {
	local f="$FIXTURES/mlx5-upstream-healthy.json" d="$BATS_TEST_TMPDIR"
	# a textfile directory that prometheus (here nobody) owns and writes
	mkdir "$d/textfile"
	chown nobody "$d/textfile"
	echo secret >"$d/secret"
	chmod 0600 "$d/secret"
	ln -s "$d/secret" "$d/textfile/rocectl.prom"
	chown -h nobody "$d/textfile/rocectl.prom"
	run -3 --separate-stderr rocectl check all -o prometheus -O "$d/textfile/rocectl.prom" -i "$f"
	assert_equal "$stderr" "rocectl: cannot write '$d/textfile/rocectl.prom': it is a symbolic link of uid 65534 in a directory other users can write"
	assert_equal "$(cat "$d/secret")" secret
	assert_equal "$(stat -c %a "$d/secret")" 600
	[ -L "$d/textfile/rocectl.prom" ]
	# the same through a link of ours that leads into that directory
	ln -s "$d/textfile/rocectl.prom" "$d/mine.prom"
	run -3 --separate-stderr rocectl check all -o prometheus -O "$d/mine.prom" -i "$f"
	assert_equal "$stderr" "rocectl: cannot write '$d/mine.prom': it is a symbolic link of uid 65534 in a directory other users can write"
	assert_equal "$(cat "$d/secret")" secret
	# a group- or world-writable directory is one too, whoever owns it
	mkdir "$d/shared"
	chmod 0777 "$d/shared"
	ln -s "$d/secret" "$d/shared/x.prom"
	chown -h nobody "$d/shared/x.prom"
	run -3 rocectl counters -o prometheus -i "$f" -O "$d/shared/x.prom"
	assert_equal "$(cat "$d/secret")" secret
	# a link that we own is followed there; a file is replaced in that directory
	ln -sf "$d/secret" "$d/shared/ours.prom"
	run -0 rocectl check all -o prometheus -O "$d/shared/ours.prom" -i "$f"
	grep -q '^rocectl_check_exit_status{command="check all"} 0$' "$d/secret"
	assert_equal "$(stat -c %a "$d/secret")" 600
	rm "$d/textfile/rocectl.prom"
	run -0 rocectl check all -o prometheus -O "$d/textfile/rocectl.prom" -i "$f"
	[ -f "$d/textfile/rocectl.prom" ] && [ ! -L "$d/textfile/rocectl.prom" ]
	assert_equal "$(stat -c %a "$d/textfile/rocectl.prom")" 644
	chmod 0640 "$d/textfile/rocectl.prom"
	run -0 rocectl check all -o prometheus -O "$d/textfile/rocectl.prom" -i "$f"
	assert_equal "$(stat -c %a "$d/textfile/rocectl.prom")" 640
	run -0 ls "$d/textfile"
	assert_output rocectl.prom
}

@test "nagios without root: the rdma_cm defaults are UNKNOWN with the reason, never a failure" {
	jq '.host.devices[0].ports[0].rdma_cm = {"ok": false, "errno": 1,
		"reason": "needs root (mkdir in rdma_cm configfs)"}' \
		"$FIXTURES/mlx5-upstream-healthy.json" >"$BATS_TEST_TMPDIR/nonroot.json"
	run -3 rocectl check all -o nagios -i "$BATS_TEST_TMPDIR/nonroot.json"
	assert_line --index 0 --regexp "^ROCECTL UNKNOWN - 0 failed, 1 unknown, "
	assert_line --index 1 "UNKNOWN mode.roce_v1 mlx5_0/1 (ens1f0np0): cannot read rdma_cm defaults of 'ens1f0np0': needs root (mkdir in rdma_cm configfs)"
}

@test "-O: the exit says the check ran and the file is written, the verdict is in the file" {
	local out=$BATS_TEST_TMPDIR/rocectl.prom f want
	for f in mlx5-upstream-healthy:0 fault-tos-0:1 fault-out-of-sequence-rising:2 fault-debugfs-unreadable:3; do
		want=${f#*:}
		run -0 rocectl doctor -o prometheus -O "$out" -i "$FIXTURES/${f%%:*}.json"
		grep -qx "rocectl_check_exit_status{command=\"doctor\"} $want" "$out"
		grep -qx 'rocectl_up{command="doctor"} 1' "$out"
		# without -O the exit is the verdict, as before
		run -"$want" rocectl doctor -o prometheus -i "$FIXTURES/${f%%:*}.json"
		assert_line 'rocectl_up{command="doctor"} 1'
	done
	run -0 rocectl check all -o openmetrics -O "$out" -i "$FIXTURES/fault-tos-0.json"
	grep -qx 'rocectl_up{command="check all"} 1' "$out"
}

@test "-O: a run that cannot run writes rocectl_up 0, keeps the last success and exits 3" {
	local out=$BATS_TEST_TMPDIR/rocectl.prom bad=$BATS_TEST_TMPDIR/corrupt.json last
	printf '{"schema_version": 2, "host": {"hostname": ' >"$bad"
	# no earlier file: no last success to tell
	run -3 --separate-stderr rocectl doctor -o prometheus -O "$out" -i "$bad"
	[[ $stderr == "rocectl: cannot read snapshot '$bad': "* ]]
	grep -qx 'rocectl_up{command="doctor"} 0' "$out"
	run grep '^rocectl_last_success_timestamp_seconds{' "$out"
	assert_failure 1
	run -0 promtool check metrics <"$out"
	assert_output ""
	# a good run, then a bad one: the last success is read back from the file it replaces
	rocectl doctor -o prometheus -O "$out" -i "$FIXTURES/bnxt-healthy.json"
	last=$(sed -n 's/^rocectl_last_success_timestamp_seconds{command="doctor"} //p' "$out")
	[ "$last" -ge "$(($(date +%s) - 5))" ]
	sleep 1.1
	run -3 rocectl doctor -o prometheus -O "$out" -i "$bad"
	grep -qx 'rocectl_up{command="doctor"} 0' "$out"
	grep -qx "rocectl_last_success_timestamp_seconds{command=\"doctor\"} $last" "$out"
	grep -qx 'rocectl_build_info{version="'"$(rocectl --version | cut -d' ' -f2)"'",command="doctor"} 1' "$out"
	run grep '^rocectl_check_status' "$out"
	assert_failure 1
	run -0 promtool check metrics <"$out"
	# a --dev that matches nothing, counters without a snapshot that parses: the same
	run -3 rocectl check all -o prometheus -O "$out" -i "$FIXTURES/bnxt-healthy.json" --dev nosuch0
	grep -qx 'rocectl_up{command="check all"} 0' "$out"
	run -3 rocectl counters -o prometheus -O "$out" -i "$bad"
	grep -qx 'rocectl_up{command="counters"} 0' "$out"
}

# A timer that runs a broken line must not leave the last good verdicts in
# place for ten minutes: every failure says rocectl_up 0, and why.
@test "-O: a usage error (config, option, positional) writes rocectl_up 0 with the reason, exit 64" {
	local out=$BATS_TEST_TMPDIR/rocectl.prom f=$FIXTURES/bnxt-healthy.json
	printf 'dscp = 64\n' >"$BATS_TEST_TMPDIR/bad.conf"
	good() { rocectl doctor -o prometheus -O "$out" -i "$f"; grep -qx 'rocectl_up{command="doctor"} 1' "$out"; }
	good
	ROCECTL_CONF=$BATS_TEST_TMPDIR/bad.conf run -64 rocectl doctor -o prometheus -O "$out" -i "$f"
	grep -qx 'rocectl_up{command="doctor"} 0' "$out"
	grep -qx "rocectl_error_info{command=\"doctor\",error=\"'$BATS_TEST_TMPDIR/bad.conf' line 1: invalid value '64' for 'dscp'\"} 1" "$out"
	grep -q '^rocectl_last_success_timestamp_seconds{command="doctor"} [0-9]' "$out"
	run grep '^rocectl_check_status' "$out"
	assert_failure 1
	run -0 promtool check metrics <"$out"
	good
	run -64 rocectl doctor -o prometheus -O "$out" --interval 0
	grep -qx 'rocectl_up{command="doctor"} 0' "$out"
	grep -q "^rocectl_error_info{command=\"doctor\",error=\"doctor: invalid value '0' for '--interval'" "$out"
	# a positional typo as --dev's: both say rocectl_up 0
	run -64 rocectl check all -o prometheus -O "$out" -i "$f" bnxt_re9
	grep -qx 'rocectl_up{command="check all"} 0' "$out"
	run -3 rocectl check all -o prometheus -O "$out" -i "$f" --dev bnxt_re9
	grep -qx 'rocectl_up{command="check all"} 0' "$out"
	run -64 rocectl counters -o prometheus --output-file="$out" --bogus
	grep -qx 'rocectl_up{command="counters"} 0' "$out"
	grep -q '^rocectl_error_info{command="counters",error="counters: unknown option' "$out"
	# a run that succeeds says no error
	good
	run grep '^rocectl_error_info' "$out"
	assert_failure 1
}

# node_exporter's textfile collector on loopback, started by the test (never by the package).
start_node_exporter() {
	local port dir=$1 i
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	prometheus-node-exporter --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
		--collector.textfile --collector.textfile.directory="$dir" >"$BATS_TEST_TMPDIR/ne.log" 2>&1 &
	echo $! >"$BATS_TEST_TMPDIR/ne.pid"
	for i in $(seq 100); do
		curl -sf "http://127.0.0.1:$port/metrics" >/dev/null && { echo "$port"; return 0; }
		sleep 0.1
	done
	cat "$BATS_TEST_TMPDIR/ne.log" >&2
	return 1
}

# node_exporter was started in a command substitution, so it is no child of
# this shell to wait for: its end is awaited by pid, bounded.
teardown() {
	local pid

	[ -f "$BATS_TEST_TMPDIR/ne.pid" ] || return 0
	read -r pid <"$BATS_TEST_TMPDIR/ne.pid"
	if kill "$pid" 2>/dev/null; then
		timeout 10 tail --pid="$pid" -f /dev/null
	fi
}

@test "node_exporter's textfile collector serves rocectl_up 1 after a good run and 0 after a failed one" {
	command -v prometheus-node-exporter
	local dir=$BATS_TEST_TMPDIR/textfile port scrape=$BATS_TEST_TMPDIR/scrape
	mkdir "$dir"
	port=$(start_node_exporter "$dir")
	# an unknown verdict (debugfs unreadable) is a good run
	run -0 rocectl doctor -o prometheus -O "$dir/rocectl.prom" -i "$FIXTURES/fault-debugfs-unreadable.json"
	curl -sf "http://127.0.0.1:$port/metrics" >"$scrape"
	grep -qx 'rocectl_up{command="doctor"} 1' "$scrape"
	grep -qx 'rocectl_check_exit_status{command="doctor"} 3' "$scrape"
	grep -qx 'node_textfile_scrape_error 0' "$scrape"
	grep -q "^node_textfile_mtime_seconds{file=\"$dir/rocectl.prom\"} " "$scrape"
	local last
	last=$(sed -n 's/^rocectl_last_success_timestamp_seconds{command="doctor"} //p' "$scrape")
	[ -n "$last" ]
	# a corrupt snapshot: rocectl cannot run
	printf 'not json' >"$BATS_TEST_TMPDIR/corrupt.json"
	run -3 rocectl doctor -o prometheus -O "$dir/rocectl.prom" -i "$BATS_TEST_TMPDIR/corrupt.json"
	curl -sf "http://127.0.0.1:$port/metrics" >"$scrape"
	grep -qx 'rocectl_up{command="doctor"} 0' "$scrape"
	grep -qx "rocectl_last_success_timestamp_seconds{command=\"doctor\"} $last" "$scrape"
	grep -qx 'node_textfile_scrape_error 0' "$scrape"
	run grep '^rocectl_check_status' "$scrape"
	assert_failure 1
	# counters beside doctor in the same directory: no series twice
	run -0 rocectl counters -o prometheus -O "$dir/counters.prom" -i "$FIXTURES/mlx5-upstream-healthy.json"
	curl -sf "http://127.0.0.1:$port/metrics" >"$scrape"
	grep -qx 'node_textfile_scrape_error 0' "$scrape"
	grep -qx 'rocectl_up{command="counters"} 1' "$scrape"
	grep -qx 'rocectl_up{command="doctor"} 0' "$scrape"
}

@test "node_exporter: doctor, check pfc, check pfc ecn and a fleet's textfiles in one directory collide nowhere" {
	command -v prometheus-node-exporter
	local dir=$BATS_TEST_TMPDIR/textfile port scrape=$BATS_TEST_TMPDIR/scrape
	local f=$FIXTURES/fault-pfc-off-prio3.json
	mkdir "$dir"
	rocectl doctor -o prometheus -O "$dir/doctor.prom" -i "$f"
	rocectl check pfc -o prometheus -O "$dir/pfc.prom" -i "$FIXTURES/mlx5-upstream-healthy.json"
	rocectl check pfc ecn -o prometheus -O "$dir/pfc-ecn.prom" -i "$f"
	rocectl check all -o prometheus -O "$dir/fleet.prom" -i "$FIXTURES/mlx5-upstream-healthy.json" \
		-i "$FIXTURES/mlx5-peer-healthy.json"
	port=$(start_node_exporter "$dir")
	curl -sf "http://127.0.0.1:$port/metrics" >"$scrape"
	# each file's own exit status is served, none lost to another's
	grep -qx 'rocectl_check_exit_status{command="doctor"} 2' "$scrape"
	grep -qx 'rocectl_check_exit_status{command="check pfc"} 0' "$scrape"
	grep -qx 'rocectl_check_exit_status{command="check pfc ecn"} 2' "$scrape"
	grep -qx 'rocectl_check_fleet_exit_status{command="check all"} 1' "$scrape"
	grep -qx 'rocectl_check_area_status{area="pfc",command="check pfc"} 0' "$scrape"	# node_exporter sorts labels
	grep -qx 'rocectl_check_area_status{area="pfc",command="doctor"} 2' "$scrape"
	grep -qx 'node_textfile_scrape_error 0' "$scrape"
	run grep -c 'collected before with the same name and label values' "$BATS_TEST_TMPDIR/ne.log"
	assert_output 0
}

@test "nagios: -w/-c ranges decide the loss budget finding, and are the perfdata's warn and crit" {
	local f=$FIXTURES/fault-out-of-sequence-rising.json	# loss rate 0.0024
	run -2 rocectl doctor -o nagios -i "$f"
	assert_line --index 0 --partial 'loss_rate=0.002405370129;;0.000001;0;'
	run -1 rocectl doctor -o nagios -i "$f" -w 0.001 -c 0.01
	assert_line --index 0 --partial 'loss_rate=0.002405370129;0.001;0.01;0;'
	assert_line "WARN counters.loss_budget mlx5_0/1 (ens1f0np0): RoCE loss rate 0.00241 alerts against the warning range -w '0.001'"
	run -1 rocectl doctor -o nagios -i "$f" -c 0.01	# counters.loss still warns
	refute_line --partial 'counters.loss_budget'
	run -2 rocectl doctor -o nagios -i "$f" -c @0.001:0.01
	assert_line "FAIL counters.loss_budget mlx5_0/1 (ens1f0np0): RoCE loss rate 0.00241 alerts against the critical range -c '@0.001:0.01'"
	run -2 rocectl doctor -o nagios -i "$f" -c '~:1e-3'
	run -2 rocectl doctor -o nagios -i "$f" -c 0.003:	# below 0.003 fails
	run -1 rocectl doctor -o nagios -i "$f" -c 0.002: -w 0.003:
	# the same verdict in JSON: the expectation names the thresholds
	run -1 rocectl doctor -j -i "$f" --warning 1e-3 --critical 1e-2
	jq -e '.findings[] | select(.id == "counters.loss_budget") |
		.status == "warn" and .expected == "loss rate within -w 1e-3 -c 1e-2"' <<<"$output"
	# strict: what the guidelines do not allow is a usage error, UNKNOWN in nagios mode
	local bad
	for bad in '' ' 1' '1 ' 2:1 '1:2:3' abc '@' '~' '~:' ':' 1e 0x10 inf nan '1,5' '@~:' '10::'; do
		run --separate-stderr -3 rocectl doctor -o nagios -i "$f" -w "$bad"
		assert_output --partial "ROCECTL UNKNOWN - doctor: invalid value '$bad' for '--warning': not a threshold range"
	done
	run -64 rocectl doctor -i "$f" -c 2:1
}

@test "nagios: --skip leaves out a rule or an area; a name that is neither is UNKNOWN" {
	local f=$FIXTURES/fault-out-of-sequence-rising.json
	run -1 rocectl doctor -o nagios -i "$f" --skip counters.loss_budget
	refute_line --partial 'counters.loss_budget'
	run -0 rocectl doctor -o nagios -i "$f" --skip counters.loss_budget --skip counters.loss
	assert_line --index 0 --regexp '^ROCECTL OK - 0 failed, 0 unknown, 0 warnings, [0-9]+ passed \| '
	run -0 rocectl doctor -o nagios -i "$f" --skip counters
	run -0 rocectl doctor -j -i "$f" --skip counters
	jq -e '[.areas[].area] | index("counters") == null' <<<"$output"
	jq -e '[.findings[].area] | index("counters") == null' <<<"$output"
	run --separate-stderr -3 rocectl doctor -o nagios -i "$f" --skip counters.nosuch
	assert_output "ROCECTL UNKNOWN - cannot skip 'counters.nosuch': no such rule or area (the rule ids are in rocectl-check(8) RULES)"
	run -64 rocectl check all -i "$f" --skip pfcc
	# every rule id of rocectl-check(8) RULES can be skipped
	local id
	for id in $(man_section "$ROOT/man/rocectl-check.8" RULES | grep -oE '^ {7}[a-z]+\.[a-z_0-9]+' | sort -u); do
		rocectl check all -o nagios -i "$f" --skip "$id" >/dev/null || [ $? -le 2 ] ||
			fail "--skip $id"
	done
}

@test "nagios: several areas in one call; an unknown area or command is UNKNOWN with a status line" {
	local f=$FIXTURES/fault-tos-0.json
	run -1 rocectl check mtu mode -o nagios -i "$f"
	assert_line --index 0 --partial 'first mode.tos'
	run -0 rocectl check pfc ecn -j -i "$f"
	jq -e '[.areas[].area] == ["pfc", "ecn"]' <<<"$output"
	run -0 rocectl check mtu -o nagios -i "$f"
	run --separate-stderr -3 rocectl check nosuch -o nagios
	assert_output "ROCECTL UNKNOWN - check: unknown command 'nosuch' (see 'rocectl check --help')"
	run --separate-stderr -3 rocectl check pfc nosuch -o nagios -i "$f"
	assert_output "ROCECTL UNKNOWN - check pfc: 'nosuch' is neither an area nor an RDMA device, DEV/PORT or netdev of 'node11' (see 'rocectl check --help')"
	run -64 rocectl check nosuch
	run -64 rocectl check pfc nosuch -i "$f"
	# one output format: the status line alone on stdout, no JSON document beside it
	run --separate-stderr -3 rocectl check all -j -o nagios -i "$f"
	assert_output "ROCECTL UNKNOWN - check all: '-o nagios' and '--json' exclude each other: one output format (see 'rocectl check all --help')"
	run --separate-stderr -3 rocectl check -p -o nagios
	assert_output --regexp '^ROCECTL UNKNOWN - check: missing command: one of pfc, [^{]*$'
}

@test "nagios: -t gives up with 'ROCECTL UNKNOWN - timeout after N s' and exit 3 (a read that hangs)" {
	mkfifo "$BATS_TEST_TMPDIR/hang.json"	# open(2) of a FIFO nobody writes never returns
	SECONDS=0
	run --separate-stderr -3 timeout 20 "$ROCECTL" doctor -o nagios -t 1 -i "$BATS_TEST_TMPDIR/hang.json"
	assert_output "ROCECTL UNKNOWN - timeout after 1 s"
	[ "$SECONDS" -lt 5 ]
	run --separate-stderr -3 timeout 20 "$ROCECTL" check all --timeout 1 -i "$BATS_TEST_TMPDIR/hang.json"
	assert_output ""
	assert_equal "$stderr" "rocectl: timeout after 1 s"
	run -3 rocectl doctor -o nagios -t 0
	assert_output --partial "invalid value '0' for '--time-limit': expected 1 to 3600"
	# a run that answers in time is not touched
	run -0 rocectl doctor -o nagios -t 10 -i "$FIXTURES/mlx5-upstream-healthy.json"
}

@test "Icinga 2 validates the CheckCommand of rocectl-check(8) (icinga2 daemon -C)" {
	command -v icinga2
	local dir conf
	dir=$(mktemp -d)	# icinga2 reads it as its own user
	chmod 0755 "$dir"
	conf=$dir/rocectl.conf
	{
		# the block as printed: from the CheckCommand to the end of the apply rule
		man_text "$ROOT/man/rocectl-check.8" |
			sed -n '/^ *object CheckCommand "rocectl"/,/^ *assign where/p;/^ *assign where/{n;p;q}'
		# a master and an agent host: the agent's Endpoint is what command_endpoint = host.name names
		printf 'object Endpoint "master" { }\nobject Zone "master" { endpoints = [ "master" ] }\n'
		printf 'object Endpoint "node11" { }\n'
		printf 'object Zone "node11" { endpoints = [ "node11" ]; parent = "master" }\n'
		# the host block as printed (hostalive: the ITL and plugins every setup includes),
		# put in the master's zone as zones.d/master would
		printf 'const PluginDir = "/usr/lib/nagios/plugins"\ninclude <itl>\ninclude <plugins>\n'
		man_text "$ROOT/man/rocectl-check.8" |
			sed -n '/^ *object Host "node11"/,/^ *}/p' | sed '1a\  zone = "master"'
	} >"$conf"
	grep -q 'vars.rocectl_warning = "1e-7"' "$conf"
	chmod 0644 "$conf"
	grep -q 'arguments = {' "$conf"
	run icinga2 daemon -C -c "$conf"
	rm -rf "$dir"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	assert_output --partial 'Finished validating the configuration file(s).'
	assert_output --regexp '1 Service'
}

@test "the sudoers lines of rocectl-check(8) run as a plugin (the same words, on a snapshot)" {
	local line words
	while IFS= read -r line; do
		words=${line#*NOPASSWD: /usr/sbin/rocectl }
		# shellcheck disable=SC2086 # the sudoers line's words
		run rocectl $words -i "$FIXTURES/mlx5-upstream-healthy.json"
		[ "$status" -le 3 ] || fail "$words: exit $status"
		assert_line --index 0 --regexp '^ROCECTL (OK|WARNING|CRITICAL|UNKNOWN) - '
	done < <(man_text "$ROOT/man/rocectl-check.8" | grep -o 'nagios ALL=(root) NOPASSWD: .*')
}

@test "prometheus: PFC frames and pause seconds by priority under one name for mlx5, bnxt and ice" {
	local want
	# each driver's own names (lib/catalog.c cites the driver files), the same family
	run -0 rocectl counters -o prometheus -i "$FIXTURES/mlx5-upstream-healthy.json"
	want=$(jq '.host.netdevs[] | select(.name == "ens1f0np0") | .stats[] | select(.name == "rx_prio3_pause") | .value' \
		"$FIXTURES/mlx5-upstream-healthy.json")
	assert_line "rocectl_pfc_frames_total{netdev=\"ens1f0np0\",direction=\"rx\",priority=\"3\"} $want"
	want=$(jq '.host.netdevs[] | select(.name == "ens1f0np0") | .stats[] | select(.name == "tx_prio3_pause_duration") | .value' \
		"$FIXTURES/mlx5-upstream-healthy.json")
	assert_line "rocectl_pfc_pause_duration_seconds_total{netdev=\"ens1f0np0\",direction=\"tx\",priority=\"3\"} $(python3 -c "print(repr($want / 1e6))")"
	run -0 rocectl counters -o prometheus -i "$FIXTURES/bnxt-healthy.json"
	want=$(jq '.host.netdevs[] | select(.name == "ens2f0np0") | .stats[] | select(.name == "rx_pfc_ena_frames_pri3") | .value' \
		"$FIXTURES/bnxt-healthy.json")
	assert_line "rocectl_pfc_frames_total{netdev=\"ens2f0np0\",direction=\"rx\",priority=\"3\"} $want"
	assert_line --regexp '^rocectl_pfc_pause_duration_seconds_total\{netdev="ens2f0np0",direction="rx",priority="3"\} 0\.00'
	run -0 rocectl counters -o prometheus -i "$FIXTURES/ice-irdma-healthy.json"
	want=$(jq '.host.netdevs[] | select(.name == "ens5f0np0") | .stats[] | select(.name == "tx_priority_3_xoff.nic") | .value' \
		"$FIXTURES/ice-irdma-healthy.json")
	assert_line "rocectl_pfc_frames_total{netdev=\"ens5f0np0\",direction=\"tx\",priority=\"3\"} $want"
	# ice counts no pause time: the family has no sample, never a made-up 0
	refute_line --regexp '^rocectl_pfc_pause_duration_seconds_total\{'
}

@test "prometheus: one unit per family; active_mtu is a gauge, not a label; rocectl_build_info" {
	local f
	for f in "$FIXTURES"/*.json; do
		run -0 rocectl counters -o prometheus -i "$f"
		# the microsecond durations are no longer mixed with packet counts
		refute_line --regexp '^rocectl_ethtool_stat\{[^}]*stat="[^"]*(duration|_us")'
		refute_line --regexp 'active_mtu="'
		assert_line --regexp '^rocectl_port_active_mtu_bytes\{device="[^"]+",port="[0-9]+"\} [0-9]+$'
		assert_line --regexp '^rocectl_build_info\{version="[0-9.]+",command="counters"\} 1$'
	done
	run -0 rocectl counters -o prometheus -i "$FIXTURES/mlx5-upstream-healthy.json"
	assert_line 'rocectl_port_active_mtu_bytes{device="mlx5_0",port="1"} 4096'
	assert_line 'rocectl_ethtool_stat_seconds{netdev="ens1f0np0",stat="rx_prio3_pause_duration",group="pfc"} 0.41862'
	run -0 rocectl check all -o prometheus -i "$FIXTURES/mlx5-upstream-healthy.json"
	assert_line --regexp '^rocectl_build_info\{version="[0-9.]+",command="check all"\} 1$'
}

# One promtool test group: input series made by prom_series.py from rocectl's
# output ($1 the AFTER file, $2 the BEFORE file or "", $3 the interval, $4 the
# run's time), then the promql_expr_test lines on stdin.
rules_group() {
	local labels='instance="node11:9100",job="node"'
	printf '  - interval: 1m\n    input_series:\n'
	"$BATS_TEST_DIRNAME/lib/prom_series.py" ${2:+--before "$2"} --interval "$3" --t0 "$4" \
		--labels "$labels" "$1"
	printf '    promql_expr_test:\n'
	cat
}

# The snapshot one sample earlier: every value less its delta.
before_snapshot() {
	jq 'walk(if type == "object" and has("delta") and has("value")
		then .value -= .delta | .delta = 0 | .has_delta = false else . end)' "$1"
}

@test "prometheus/rocectl.rules.yml: promtool test rules on series made from the fixtures' output" {
	local d=$BATS_TEST_TMPDIR/rules t0 storm=$FIXTURES/fault-pause-storm-rising.json
	mkdir "$d"
	cp "$ROOT/prometheus/rocectl.rules.yml" "$d/"
	run -0 promtool check rules "$d/rocectl.rules.yml"
	# the storm: two samples 10 s apart, as the fixture's deltas say; a healthy mlx5 beside it
	before_snapshot "$storm" >"$d/storm0.json"
	rocectl counters -o prometheus -i "$d/storm0.json" >"$d/storm0.prom"
	rocectl counters -o prometheus -i "$storm" >"$d/storm1.prom"
	before_snapshot "$FIXTURES/fault-ice-xoff-storm.json" >"$d/ice0.json"
	rocectl counters -o prometheus -i "$d/ice0.json" >"$d/ice0.prom"
	rocectl counters -o prometheus -i "$FIXTURES/fault-ice-xoff-storm.json" >"$d/ice1.prom"
	before_snapshot "$FIXTURES/mlx5-upstream-healthy.json" >"$d/ok0.json"
	rocectl counters -o prometheus -i "$d/ok0.json" >"$d/ok0.prom"
	rocectl counters -o prometheus -i "$FIXTURES/mlx5-upstream-healthy.json" >"$d/ok1.prom"
	# verdicts: a loss budget exceeded, a failed check, a run that could not run, a good run
	rocectl doctor -o prometheus -i "$FIXTURES/fault-out-of-sequence-rising.json" >"$d/loss.prom" || [ $? -eq 2 ]
	rocectl check all -o prometheus -i "$FIXTURES/fault-mtu-1500-intent-4096.json" >"$d/mtu.prom" || [ $? -eq 2 ]
	printf 'not json' >"$d/corrupt.json"
	rocectl doctor -o prometheus -O "$d/down.prom" -i "$d/corrupt.json" 2>/dev/null || [ $? -eq 3 ]
	t0=$(date +%s)
	rocectl doctor -o prometheus -O "$d/good.prom" -i "$FIXTURES/mlx5-upstream-healthy.json"
	{
		printf 'rule_files: [rocectl.rules.yml]\nevaluation_interval: 1m\ntests:\n'
		rules_group "$d/storm1.prom" "$d/storm0.prom" 10 0 <<-'EOF'
		      - expr: ALERTS{alertname="RocePFCStorm",alertstate="firing"}
		        eval_time: 12m
		        exp_samples:
		          - labels: 'ALERTS{alertname="RocePFCStorm",alertstate="firing",severity="critical",netdev="ens1f0np0",direction="tx",priority="3",instance="node11:9100",job="node"}'
		            value: 1
		      - expr: round(100 * rocectl:pfc_paused:ratio_rate5m{direction="tx"})
		        eval_time: 10m
		        exp_samples:
		          - labels: '{netdev="ens1f0np0",direction="tx",priority="3",instance="node11:9100",job="node"}'
		            value: 89
		      - expr: round(rocectl:pfc_frames:rate5m{direction="tx"})
		        eval_time: 10m
		        exp_samples:
		          - labels: '{netdev="ens1f0np0",direction="tx",priority="3",instance="node11:9100",job="node"}'
		            value: 410000
		EOF
		rules_group "$d/ok1.prom" "$d/ok0.prom" 10 0 <<-'EOF'
		      - expr: ALERTS
		        eval_time: 12m
		        exp_samples: []
		EOF
		# ice counts XOFF frames, not pause time: the frames are seen, the storm alert cannot fire
		rules_group "$d/ice1.prom" "$d/ice0.prom" 10 0 <<-'EOF'
		      - expr: count(rocectl:pfc_frames:rate5m{direction="tx",priority="3"} > 1000)
		        eval_time: 10m
		        exp_samples:
		          - value: 1
		      - expr: count(rocectl_pfc_pause_duration_seconds_total) or vector(0)
		        eval_time: 10m
		        exp_samples:
		          - value: 0
		      - expr: ALERTS{alertname="RocePFCStorm"}
		        eval_time: 12m
		        exp_samples: []
		EOF
		rules_group "$d/loss.prom" "" 10 0 <<-'EOF'
		      - expr: ALERTS{alertstate="firing"}
		        eval_time: 6m
		        exp_samples:
		          - labels: 'ALERTS{alertname="RoceLossBudgetExceeded",alertstate="firing",severity="critical",command="doctor",device="mlx5_0",port="1",netdev="ens1f0np0",instance="node11:9100",job="node"}'
		            value: 1
		EOF
		rules_group "$d/mtu.prom" "" 10 0 <<-'EOF'
		      - expr: count by (alertname, id) (ALERTS{alertstate="firing"})
		        eval_time: 6m
		        exp_samples:
		          - labels: '{alertname="RoceCheckFailed",id="mtu.active"}'
		            value: 1
		EOF
		rules_group "$d/down.prom" "" 10 "$t0" <<-'EOF'
		      - expr: ALERTS{alertstate="firing"}
		        eval_time: 6m
		        exp_samples:
		          - labels: 'ALERTS{alertname="RocectlDown",alertstate="firing",severity="warning",command="doctor",instance="node11:9100",job="node"}'
		            value: 1
		EOF
		# a good run whose file is no longer rewritten: stale after 10 minutes, not before
		rules_group "$d/good.prom" "" 10 "$t0" <<-'EOF'
		      - expr: ALERTS{alertstate="firing"}
		        eval_time: 9m
		        exp_samples: []
		      - expr: count by (alertname, command) (ALERTS{alertstate="firing"})
		        eval_time: 11m
		        exp_samples:
		          - labels: '{alertname="RocectlStale",command="doctor"}'
		            value: 1
		EOF
	} >"$d/test.yml"
	cd "$d"
	run promtool test rules test.yml
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	assert_output --partial SUCCESS
}

@test "the rules test can fail: a rule that never fires is caught" {
	local d=$BATS_TEST_TMPDIR/rules
	mkdir "$d"
	sed 's/rocectl:pfc_paused:ratio_rate5m > 0.5/rocectl:pfc_paused:ratio_rate5m > 1.5/' \
		"$ROOT/prometheus/rocectl.rules.yml" >"$d/rocectl.rules.yml"
	before_snapshot "$FIXTURES/fault-pause-storm-rising.json" >"$d/s0.json"
	rocectl counters -o prometheus -i "$d/s0.json" >"$d/s0.prom"
	rocectl counters -o prometheus -i "$FIXTURES/fault-pause-storm-rising.json" >"$d/s1.prom"
	{
		printf 'rule_files: [rocectl.rules.yml]\nevaluation_interval: 1m\ntests:\n'
		rules_group "$d/s1.prom" "$d/s0.prom" 10 0 <<-'EOF'
		      - expr: count(ALERTS{alertname="RocePFCStorm",alertstate="firing"})
		        eval_time: 12m
		        exp_samples:
		          - value: 1
		EOF
	} >"$d/test.yml"
	cd "$d"
	run promtool test rules test.yml
	assert_failure
	assert_output --partial FAILED
}

# A peer without LLDP (no lldpd, nothing captured) is unknown: it must not
# turn a real warning into UNKNOWN, and the operator chooses what it alone gives.
@test "nagios: an unknown never hides a warning; the line names both; --unknown-as decides unknowns alone" {
	local nolldp='.host.netdevs[0].lldp = {"ok": false, "errno": 2,
		"reason": "lldpd does not run (no '\''/run/lldpd.socket'\''), and no --lldp-wait was given"}'
	jq "$nolldp" "$FIXTURES/fault-tos-0.json" >"$BATS_TEST_TMPDIR/warn.json"
	jq "$nolldp" "$FIXTURES/mlx5-upstream-healthy.json" >"$BATS_TEST_TMPDIR/unknown.json"
	local as
	for as in "" "--unknown-as ok" "--unknown-as warning" "--unknown-as unknown"; do
		# shellcheck disable=SC2086
		run -1 rocectl check all -o nagios -i "$BATS_TEST_TMPDIR/warn.json" $as
		assert_line --index 0 --partial "ROCECTL WARNING - 0 failed, 1 unknown, 1 warnings, 28 passed: first mode.tos mlx5_0/1 (ens1f0np0); first unknown peer.neighbor mlx5_0/1 (ens1f0np0) | "
		assert_line --index 1 --partial "WARN mode.tos mlx5_0/1 (ens1f0np0): "
		assert_line --index 2 --partial "UNKNOWN peer.neighbor mlx5_0/1 (ens1f0np0): no LLDP neighbour"
	done
	run -3 rocectl check all -o nagios -i "$BATS_TEST_TMPDIR/unknown.json"
	assert_line --index 0 --partial "ROCECTL UNKNOWN - 0 failed, 1 unknown, 0 warnings, 29 passed: first peer.neighbor mlx5_0/1 (ens1f0np0) | "
	run -1 rocectl doctor -o nagios -i "$BATS_TEST_TMPDIR/unknown.json" --unknown-as warning
	assert_line --index 0 --partial "ROCECTL WARNING - 0 failed, 1 unknown, 0 warnings, 29 passed: first unknown peer.neighbor mlx5_0/1 (ens1f0np0) | "
	run -0 rocectl check all -o nagios -i "$BATS_TEST_TMPDIR/unknown.json" --unknown-as ok
	assert_line --index 0 --partial "ROCECTL OK - 0 failed, 1 unknown, 0 warnings, 29 passed: first unknown peer.neighbor"
	# the same verdict outside the plugin mode, and a failure still wins
	run -1 rocectl check all -i "$BATS_TEST_TMPDIR/warn.json"
	run -2 rocectl doctor -i "$FIXTURES/fault-out-of-sequence-rising.json" --unknown-as ok
	run --separate-stderr -3 rocectl check all -o nagios -i "$BATS_TEST_TMPDIR/warn.json" --unknown-as green
	assert_output --partial "ROCECTL UNKNOWN - check all: invalid value 'green' for '--unknown-as'"
}

# A plugin that never answers (a FIFO given as --input, a wedged read) hangs
# the monitoring side: -o nagios has a time limit even without -t.
@test "nagios: without -t a time limit of 30 s is armed; -t sets it; other outputs have none" {
	local f=$FIXTURES/bnxt-healthy.json
	# LeakSanitizer refuses to run under ptrace (exit 1): leaks are the ASan tier's other tests'
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	run -0 --separate-stderr strace -e trace=alarm "$ROCECTL" check all -o nagios -i "$f"
	[[ $stderr == *"alarm(30)"* ]] || fail "$stderr"
	run -0 --separate-stderr strace -e trace=alarm "$ROCECTL" doctor -o nagios -t 7 -i "$f"
	[[ $stderr == *"alarm(7)"* ]] || fail "$stderr"
	run -0 --separate-stderr strace -e trace=alarm "$ROCECTL" check all -i "$f"
	[[ $stderr != *"alarm("* ]] || fail "$stderr"
}

# cron runs a line with PATH=/usr/bin:/bin: a bare 'rocectl' (in /usr/sbin)
# is never found. The line of rocectl-counters(8), run as cron would.
@test "rocectl-counters(8): the cron line runs with cron's PATH and writes its textfile" {
	local line cmd out=$BATS_TEST_TMPDIR/rocectl-counters.prom
	line=$(man_text "$ROOT/man/rocectl-counters.8" | grep -E '^ *\* \* \* \* \* root ')
	cmd=$(sed -E 's/^ *(\S+ +){5}root +//' <<<"$line")
	[[ $cmd == /usr/sbin/rocectl\ * ]] || fail "not the packages' absolute path: $cmd"
	# the packages' path is this build here; the textfile directory the test's
	cmd=${cmd/#\/usr\/sbin\/rocectl/$ROCECTL}
	cmd=${cmd/\/var\/lib\/prometheus\/node-exporter\/rocectl-counters.prom/$out}
	run env -i PATH=/usr/bin:/bin sh -c "$cmd -i $FIXTURES/bnxt-healthy.json"
	assert_success
	grep -qx 'rocectl_up{command="counters"} 1' "$out"
	# a bare name is what cron's PATH does not find
	run -127 env -i PATH=/usr/bin:/bin sh -c 'rocectl --version'
}
