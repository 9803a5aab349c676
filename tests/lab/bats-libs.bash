# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# bats-libs.bash - bats_libs_load NAME...: source /usr/lib/bats/NAME/load.bash
# (Debian's bats-support and bats-assert) as bats' load would, less its
# processes. Each line of those files sources one file of the library's src/
# at "$(dirname "${BASH_SOURCE[0]}")/src/...": one dirname process each, 15 for
# the two libraries, and bats sources a test file (and so this) again for every
# test. Under the lab's TCG a process costs 30 ms and more: 10 empty lab tests
# took 69.0 s with bats_load_library, 31.9 s this way and 29.7 s loading
# nothing (one loaded host, make check beside); on the host, 20 empty CLI tests
# 1.10 s with load and 0.48 s loading nothing. So the directory is put in by hand.
# Used by tests/lab/lab.bash and tests/cli/helpers.bash.

bats_libs_load() {
	local name dir src
	for name; do
		dir=/usr/lib/bats/$name
		IFS= read -r -d '' src <"$dir/load.bash" || [ -n "$src" ] || return 1
		eval "${src//'$(dirname "${BASH_SOURCE[0]}")'/$dir}" || return 1
	done
}
