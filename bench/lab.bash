# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/lab.bash - sourced by the bench scripts that run inside the lab: it
# refuses to run outside it and sets what they share: R (the rocectl binary,
# ROCECTL overrides), A and B (the two lab hosts' addresses), NQN (the lab's
# subsystem), T (a bound on every command) and the lab's knobs.
[ "${LAB:-}" = 1 ] || {
	echo "bench/${0##*/} runs inside the lab: tests/lab/lab run -- bench/${0##*/}" >&2
	exit 2
}
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
R=${ROCECTL:-$REPO/build/rocectl}
A=${LAB_A_IP:-10.0.0.1} B=${LAB_B_IP:-10.0.0.2}
NQN=${LAB_NQN:-nqn.2014-08.org.rocectl:lab}
T="timeout 120"
# shellcheck source=tests/lab/knobs.sh
source "$LAB_DIR/knobs.sh"
