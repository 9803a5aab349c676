#!/usr/bin/env bats
# The fleet recipes the docs print, run as printed with the real engines
# (pdsh, rpdcp, clush, ansible, ansible-playbook), on a fleet of three hosts
# that are all this machine: ssh and scp are stand-ins that run the command
# here (tests/cli/lib/fleet), Ansible uses its local connection. Only the
# host names, the targets file and /var/tmp are put in the test's place.
# Without RDMA every reach document says "unknown"; that is what the matrix
# reads. The collect recipes need RDMA: tests/lab/32-fleet.bats runs them.
load helpers

setup() {
	source "$BATS_TEST_DIRNAME/lib/fleet/fleet.bash"
	fleet_setup "$BATS_TEST_TMPDIR" "$ROCECTL"
	printf '127.0.0.2  b\n127.0.0.3  c\n' >"$T/hosts.txt"
}

# The matrix of three hosts' runs: one source (every host is this one), each
# target probed, nothing left out.
matrix_ok() {
	[ "$status" -eq 2 ] || { echo "exit $status: $output"; return 1; }
	grep -qx '1 sources x 2 targets: 2 pairs probed, 2 failing, 0 not probed' <<<"$output" || {
		echo "$output"; return 1; }
	[[ $stderr != *"left out"* ]] || { echo "$stderr"; return 1; }
}

@test "rocectl-reach(8): pdsh, then --matrix of its output" {
	run --separate-stderr bash -c "$(recipe "$ROOT/man/rocectl-reach.8" "pdsh -w")"
	matrix_ok
	[ "$(grep -c '^ssh .* node0[1-3] ' "$FLEET_LOG")" -eq 3 ]
}

@test "rocectl-reach(8): clush, --rcopy, then --matrix of the copies" {
	run --separate-stderr bash -c "$(recipe "$ROOT/man/rocectl-reach.8" "clush -w")"
	matrix_ok
	ls "$T/out/reach.json.node01" "$T/out/reach.json.node03"
}

@test "rocectl-reach(8): Ansible ad hoc, then --matrix of what fetch brought" {
	run --separate-stderr bash -c "$(recipe "$ROOT/man/rocectl-reach.8" "ansible roce -m shell")"
	matrix_ok
	ls "$T/out/node02$T/var/reach.json"
}

@test "rocectl-reach(8): the playbook, then --matrix of its files" {
	recipe "$ROOT/man/rocectl-reach.8" "- hosts: roce" >reach.yml
	run --separate-stderr bash -c "$(recipe "$ROOT/man/rocectl-reach.8" "ansible-playbook reach.yml")"
	matrix_ok
	ls "$T/out/node01.json" "$T/out/node03.json"
}

@test "README: the fleet block runs as printed, pdsh and Ansible" {
	run --separate-stderr bash -c "$(recipe "$ROOT/README.md" "pdsh -w")"
	[ "$(grep -c '^1 sources x 2 targets: 2 pairs probed, 2 failing, 0 not probed$' <<<"$output")" -eq 2 ] || {
		echo "$output"; false; }
	[ -s "$T/reach-all.txt" ]
	[[ $(head -c 8 "$T/reach-all.txt") == node0?:* ]]
}

@test "rocectl-collect(8): the pdsh/rpdcp and Ansible blocks are the ones tests/lab/32-fleet.bats runs" {
	recipe "$ROOT/man/rocectl-collect.8" "rpdcp -w" | grep -q 'rocectl compare snap/rocectl.json\.\*'
	recipe "$ROOT/man/rocectl-collect.8" "ansible roce -m fetch" | grep -q 'rocectl compare snap/\*'
	grep -q 'rpdcp -w' "$ROOT/tests/lab/32-fleet.bats"
}

# The plugin set-up of rocectl-check(8): sudo allows one exact command line,
# so NRPE and Icinga 2 must run that same line, at the path the packages
# install (debian/rules PREFIX=/usr, the spec's %{_sbindir}; make install's
# /usr/local is named as the exception).
@test "rocectl-check(8): the sudoers line parses, and NRPE and Icinga 2 run exactly what it allows" {
	local allowed nrpe icinga
	recipe "$ROOT/man/rocectl-check.8" "sudoers.d" >"$T/sudoers"
	run visudo -c -f "$T/sudoers"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	allowed=$(sed -n 's/^nagios ALL=(root) NOPASSWD: //p' "$T/sudoers")
	[[ $allowed == /usr/sbin/rocectl\ * ]]
	nrpe=$(recipe "$ROOT/man/rocectl-check.8" "command[check_rocectl]" |
		sed -n 's|^command\[check_rocectl\]=/usr/bin/sudo -n ||p')
	assert_equal "$nrpe" "$allowed"
	# Icinga 2 runs the command array, then each argument in its order whose
	# macro has a value (the vars set beside it), as its key and the value
	icinga=$(recipe "$ROOT/man/rocectl-check.8" "CheckCommand" | python3 -c '
import re, sys
t = sys.stdin.read()
cmd = re.findall(r"\"([^\"]*)\"", re.search(r"command = \[([^]]*)\]", t).group(1))
vars = dict(re.findall(r"vars\.(\w+) = (\S+)", t))
args = re.findall(r"\"(-[^\"]+)\" = \{ value = \"\$(\w+)\$\"[^}]*order = (\d+)", t)
for key, var, _ in sorted(args, key=lambda a: int(a[2])):
    if var in vars:
        cmd += [key, vars[var].strip("\"")]
print(" ".join(cmd))')
	assert_equal "$icinga" "/usr/bin/sudo -n $allowed"
	grep -q 'PREFIX=/usr' "$ROOT/debian/rules"
	grep -q '^%{_sbindir}/rocectl$' "$ROOT/rocectl.spec.in"
	# the line itself runs: here on a snapshot, as the plugin would on the host
	run "$ROCECTL" ${allowed#/usr/sbin/rocectl } --input "$FIXTURES/mlx5-upstream-healthy.json"
	assert_success
	assert_line --index 0 --regexp '^ROCECTL OK - '
}
