# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# fleet.bash - a fleet of hosts that are all this machine, for running the
# recipes the docs print with the real engines: ssh and scp stand-ins (this
# directory) that run the command here, for pdsh, rpdcp and clush; an Ansible
# inventory on the local connection. Used by tests/cli/recipes.bats and
# tests/lab/32-fleet.bats.

FLEET_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FLEET_ROOT=$(cd "$FLEET_DIR/../../../.." && pwd)

# fleet_setup DIR ROCECTL [N]: the fleet's tools on PATH, N Ansible hosts
# node01.. (default 3; pdsh and clush take the host lists of the recipes), cwd DIR.
fleet_setup() {
	local n=${3:-3}
	T=$1
	mkdir -p "$T/bin" "$T/var"
	ln -sf "$2" "$T/bin/rocectl"
	cp "$FLEET_DIR/ssh" "$FLEET_DIR/scp" "$T/bin/"
	export PATH="$T/bin:$PATH" FLEET_LOG="$T/fleet.log" PDSH_RCMD_TYPE=ssh
	printf '[roce]\nnode0[1:%s] ansible_connection=local ansible_python_interpreter=/usr/bin/python3\n' \
		"$n" >"$T/inventory"
	export ANSIBLE_INVENTORY="$T/inventory" ANSIBLE_HOME="$T/ansible" ANSIBLE_NOCOLOR=1 \
		ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_DEPRECATION_WARNINGS=0
	cd "$T" || return 1
}

# recipe FILE NEEDLE: the example block of FILE that holds NEEDLE, as printed,
# without the "$ " prompt, with only the host names, the targets file and /var/tmp put in the test's place.
recipe() {
	python3 "$FLEET_ROOT/tests/cli/lib/man_block.py" "$@" | sed -e "s/^\$ //" -e 's/node\[01-[0-9]*\]/node[01-03]/g' \
		-e 's/@rack1/node[01-03]/g' -e "s|/etc/rocectl/hosts.txt|$T/hosts.txt|g" \
		-e "s|/var/tmp/|$T/var/|g"
}
