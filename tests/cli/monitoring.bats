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
	assert_line --index 0 "ROCECTL CRITICAL - 1 failed, 0 unknown, 1 warnings, 26 passed: first counters.loss_budget mlx5_0/1 (ens1f0np0) | pass=26 warn=1 fail=1 unknown=0 loss_rate=0.002405370129;;0.000001;0; interval=10s"
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
	assert_output --partial "ROCECTL UNKNOWN - check all: '-o' and '--json' exclude each other"
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
	assert_line 'rocectl_check_status{id="counters.loss_budget",area="counters",device="mlx5_0",port="1",netdev="ens1f0np0"} 2'
	assert_line 'rocectl_check_status{id="mtu.active",area="mtu",device="mlx5_0",port="1",netdev="ens1f0np0"} 0'
	assert_line 'rocectl_check_loss_ratio{device="mlx5_0",port="1",netdev="ens1f0np0"} 0.0024053701286593323'
	assert_line 'rocectl_check_loss_budget_ratio 1e-06'
	assert_line 'rocectl_check_exit_status 2'
	run -3 rocectl check dcqcn -o prometheus -i "$FIXTURES/fault-debugfs-unreadable.json"
	assert_line 'rocectl_check_status{id="dcqcn.params",area="dcqcn",device="mlx5_0",port="1",netdev="ens1f0np0"} 3'
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

@test "the OpenMetrics parser accepts -o openmetrics of counters and check on every fixture" {
	local om=$BATS_TEST_DIRNAME/lib/openmetrics_check.py f
	for f in "$FIXTURES"/*.json; do
		rocectl counters -o openmetrics -i "$f" >"$BATS_TEST_TMPDIR/c.om" 2>/dev/null
		run "$om" "counters of $f" <"$BATS_TEST_TMPDIR/c.om"
		[ "$status" -eq 0 ] || { echo "$output"; return 1; }
		rocectl check all -o openmetrics -i "$f" >"$BATS_TEST_TMPDIR/k.om" 2>/dev/null ||
			[ $? -le 3 ]	# a check's verdict: 1 warn, 2 fail, 3 unknown
		run "$om" "check of $f" <"$BATS_TEST_TMPDIR/k.om"
		[ "$status" -eq 0 ] || { echo "$output"; return 1; }
		[ "$(tail -n 1 "$BATS_TEST_TMPDIR/k.om")" = "# EOF" ]
	done
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
	grep -q '^rocectl_check_exit_status 0$' "$out"
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
	# a FIFO stays a FIFO and its reader gets the metrics
	mkfifo "$d/fifo"
	cat "$d/fifo" >"$d/from-fifo" &
	run -0 rocectl counters -o prometheus -O "$d/fifo" -i "$f"
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
	grep -q '^rocectl_check_exit_status 0$' "$d/textfile/rocectl.prom"
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

@test "nagios without root: the rdma_cm defaults are UNKNOWN with the reason, never a failure" {
	jq '.host.devices[0].ports[0].rdma_cm = {"ok": false, "errno": 1,
		"reason": "needs root (mkdir in rdma_cm configfs)"}' \
		"$FIXTURES/mlx5-upstream-healthy.json" >"$BATS_TEST_TMPDIR/nonroot.json"
	run -3 rocectl check all -o nagios -i "$BATS_TEST_TMPDIR/nonroot.json"
	assert_line --index 0 --regexp "^ROCECTL UNKNOWN - 0 failed, 1 unknown, "
	assert_line --index 1 "UNKNOWN mode.roce_v1 mlx5_0/1 (ens1f0np0): cannot read rdma_cm defaults of 'ens1f0np0': needs root (mkdir in rdma_cm configfs)"
}
