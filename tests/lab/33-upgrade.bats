#!/usr/bin/env bats
# The .deb's upgrade and removal under a real systemd (issue 28, item 5):
# systemd boots as PID 1 of a container (systemd-nspawn) whose root is this
# guest's root under a tmpfs overlay, so nothing of it outlives the file.
# The package is the one 'make deb' built (or UPGRADE_DEB); the "new" one is the same package
# with a higher version, so dpkg runs the upgrade path of every maintainer
# script (preinst upgrade, postinst configure OLD, prerm/postrm) as apt would.
#
# The container boots only sysinit.target (rocectl-upgrade.target below): the
# host's enabled services (lldpd, prometheus, icinga2, ...) stay off. The
# host's refusing policy-rc.d (scripts/install-packages) is removed inside the
# container only, as on a real host, where deb-systemd-invoke may act.

bats_require_minimum_version 1.5.0

CT=/run/rocectl-upgrade
CGROUP=/sys/fs/cgroup/rocectl-upgrade
SERVE=rocectl-serve.service
TIMER=rocectl-prometheus.timer
TUNE=rocectl-tune.service

# ct CMD...: run CMD in the container (all its namespaces), bounded: dpkg's
# maintainer scripts (perl, systemctl) take a minute under emulation.
ct() {
	timeout 300 nsenter -t "$(cat "$CT/pid")" -a "$@"
}

# ct_dpkg ARGS...: dpkg in the container; man-db's trigger (mandb over every
# page, minutes under emulation) is left pending: it is not what is tested.
ct_dpkg() {
	ct dpkg --no-triggers "$@"
}

# unit_state UNIT: "ActiveState InvocationID" of UNIT in the container.
unit_state() {
	ct systemctl show -P ActiveState "$1" | tr '\n' ' '
	ct systemctl show -P InvocationID "$1"
}

# The container's PID 1: the systemd whose PID namespace is not ours.
container_init() {
	local p
	for p in $(pgrep -x systemd); do
		[ "$(readlink /proc/$p/ns/pid)" != "$(readlink /proc/self/ns/pid)" ] && echo "$p" && return 0
	done
	return 1
}

# The container's dpkg knows only the package's dependencies: dpkg reads the
# file list of every package it knows at each run, and thousands of them over
# the lab's 9p root take minutes under emulation. Only the container's copy
# of the status file changes (the overlay).
slim_dpkg_status() {
	local deps
	deps=$(dpkg-deb -f "$1" Depends | tr ',' '\n' | sed 's/^ *\([^ (]*\).*/\1/' | grep .)
	# shellcheck disable=SC2086 # one package name per word
	dpkg-query -s $deps >"$CT/status"
	cp "$CT/status" "$CT/root/var/lib/dpkg/status"
}

boot_container() {
	local deb=$1 i
	mkdir -p "$CT"/{upper,work,root,debs}
	mount -t tmpfs -o size=256m rocectl-upgrade "$CT/upper"
	mkdir -p "$CT"/upper/{u,w}
	mount -t overlay -o lowerdir=/,upperdir="$CT/upper/u",workdir="$CT/upper/w" overlay "$CT/root"
	# nspawn needs the unified cgroup tree, which the lab's PID 1 does not mount
	mountpoint -q /sys/fs/cgroup || mount -t cgroup2 cgroup2 /sys/fs/cgroup
	# the package, and the same one version up; repacked uncompressed
	# (-Znone), since xz is slow under emulation
	dpkg-deb -R "$deb" "$CT/pkg"
	dpkg-deb -Znone --build "$CT/pkg" "$CT/debs/old.deb" >/dev/null
	sed -i 's/^Version: \(.*\)/Version: \1+upgrade1/' "$CT/pkg/DEBIAN/control"
	dpkg-deb -Znone --build "$CT/pkg" "$CT/debs/new.deb" >/dev/null
	slim_dpkg_status "$deb"
	cat >"$CT/root/etc/systemd/system/rocectl-upgrade.target" <<-EOF
		[Unit]
		Description=rocectl upgrade test: sysinit only
		Requires=sysinit.target
		After=sysinit.target
		AllowIsolate=yes
	EOF
	# nspawn in a cgroup of its own (it makes "payload" below it for the
	# container), removed with it: no host manager allocates one here
	mkdir "$CGROUP"
	(
		echo "$BASHPID" >"$CGROUP/cgroup.procs"
		exec systemd-nspawn -q -D "$CT/root" --register=no --keep-unit --link-journal=no \
			--bind=/dev/infiniband --bind-ro="$CT/debs:/debs" -b systemd.unit=rocectl-upgrade.target
	) >"$CT/console" 2>&1 &
	echo $! >"$CT/nspawn"
	for i in $(seq 60); do
		container_init >"$CT/pid" && break
		sleep 1
	done
	[ -s "$CT/pid" ] || { cat "$CT/console"; return 1; }
	for i in $(seq 90); do
		case $(ct systemctl is-system-running 2>/dev/null) in
		running | degraded) return 0 ;;
		esac
		sleep 1
	done
	cat "$CT/console"
	return 1
}

setup_file() {
	local deb=${UPGRADE_DEB:-}
	[ -n "$deb" ] ||
		deb=$(ls "$PWD"/build/pkg/deb/rocectl_*_"$(dpkg --print-architecture)".deb 2>/dev/null | head -1)
	[ -n "$deb" ] || { echo "no .deb in build/pkg/deb: run 'make deb' first" >&3; return 1; }
	boot_container "$deb"
	echo "# container up after ${SECONDS}s" >&3
}

teardown_file() {
	if [ -s "$CT/nspawn" ]; then
		kill "$(cat "$CT/nspawn")"
		timeout 60 tail --pid="$(cat "$CT/nspawn")" -f /dev/null ||
			kill -KILL "$(cat "$CT/nspawn")"
	fi
	umount -l "$CT/root" "$CT/upper"
	rm -rf "$CT"
	find "$CGROUP" -depth -type d -exec rmdir {} +
}

setup() {
	load lab
}

teardown() {
	lab_reset
}

@test "dpkg -i of a newer package restarts serve and the Prometheus timer, never tune" {
	rm -f "$CT/root/usr/sbin/policy-rc.d"
	echo "# test starts at $(date +%s)" >&3
	ct_dpkg -i /debs/old.deb
	echo "# old installed at $(date +%s)" >&3
	# tune's boot re-apply as --persist leaves it, doing nothing here
	mkdir -p "$CT/root/etc/systemd/system/$TUNE.d"
	printf '[Service]\nExecStart=\nExecStart=/bin/true\n' >"$CT/root/etc/systemd/system/$TUNE.d/persist.conf"
	ct systemctl daemon-reload
	ct systemctl start $SERVE $TIMER $TUNE
	lab_wait 30 ct systemctl is-active -q $SERVE $TIMER $TUNE || {
		ct systemctl status --no-pager $SERVE $TIMER $TUNE
		return 1
	}
	local serve tmr tune
	serve=$(unit_state $SERVE) tmr=$(unit_state $TIMER) tune=$(unit_state $TUNE)

	ct_dpkg -i /debs/new.deb
	echo "# new installed at $(date +%s)" >&3
	ct dpkg-query -W -f '${Version}\n' rocectl | grep -q '+upgrade1$'
	lab_wait 30 ct systemctl is-active -q $SERVE $TIMER
	# active again, under a new invocation: restarted, not left stopped
	[[ $(unit_state $SERVE) == active* && $(unit_state $SERVE) != "$serve" ]] ||
		{ echo "serve: $serve -> $(unit_state $SERVE)"; return 1; }
	[[ $(unit_state $TIMER) == active* && $(unit_state $TIMER) != "$tmr" ]] ||
		{ echo "timer: $tmr -> $(unit_state $TIMER)"; return 1; }
	# tune untouched: the same invocation (re-applying settings mid-upgrade is wrong)
	[ "$(unit_state $TUNE)" = "$tune" ] || { echo "tune: $tune -> $(unit_state $TUNE)"; return 1; }
}

@test "dpkg -r stops every unit" {
	echo "# upgrade done after ${SECONDS}s" >&3
	ct systemctl is-active -q $SERVE $TIMER $TUNE
	ct_dpkg -r rocectl
	for u in $SERVE $TIMER $TUNE; do
		run ct systemctl is-active $u
		[[ $output == inactive || $output == unknown ]] || { echo "$u: $output"; return 1; }
	done
}
