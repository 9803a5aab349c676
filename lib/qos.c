// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * MLNX_OFED's extra netdev sysfs (/sys/class/net/<if>/qos/{trust,dscp2prio,
 * prio2buffer,buffer_size}, settings/pfc_stall_prevention), whether lldpad
 * runs (it can override host DCB settings, as mlnx_qos warns), and the
 * driver versions of the RDMA devices. Upstream mlx5 has no qos/ directory:
 * that is "not present", recorded as ENOENT with its reason.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rocectl/collect.h"
#include "rocectl/sysfs.h"

#define QOS_TEXT 4096

/* "dscp", "Priority trust state: dscp": the last word. */
static void qos_trust(struct rctl_ofed_qos *q, const char *txt)
{
	const char *w = strrchr(txt, ' ');

	w = w ? w + 1 : txt;
	if (!strcmp(w, "dscp") || !strcmp(w, "pcp"))
		snprintf(q->trust, sizeof(q->trust), "%.4s", w);
}

/*
 * A decimal number of at most "max"; *v is set only when it fits. Returns the
 * end of the digits, or NULL when there are none. A long run of zeros is
 * still a number (and small): only its value is bounded, never its length.
 */
static const char *qos_num(const char *s, unsigned long max, unsigned long *v,
			   bool *fits)
{
	unsigned long acc = 0;
	const char *p = s;

	*fits = true;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned long d = (unsigned long)(*p - '0');

		if (!*fits || d > max || acc > (max - d) / 10)
			*fits = false;
		else
			acc = acc * 10 + d;
	}
	if (p == s)
		return NULL;
	if (*fits)
		*v = acc;
	return p;
}

static const char *qos_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* "prio:3 dscp:31,30,29,28,27,26,25,24," (one line, as mlnx_qos prints it). */
static bool qos_prio_line(const char *s, uint8_t map[64])
{
	unsigned long prio, dscp;
	bool fits, any = false;

	s = qos_num(s + strlen("prio:"), 7, &prio, &fits);
	if (!s || !fits)
		return false;
	s = qos_blank(s);
	if (strncmp(s, "dscp:", 5))
		return false;
	for (s += 5; (s = qos_num(qos_blank(s), 63, &dscp, &fits)); ) {
		if (fits) {
			map[dscp] = prio;
			any = true;
		}
		s = qos_blank(s);
		if (*s != ',')
			break;
		s++;
	}
	return any;
}

/* "26 3": one DSCP and its priority (older MLNX_OFED, see below). */
static bool qos_pair_line(const char *s, uint8_t map[64])
{
	unsigned long dscp, prio;
	bool fits_d, fits_p;

	s = qos_num(s, 63, &dscp, &fits_d);
	if (!s || (*s != ' ' && *s != '\t'))
		return false;
	s = qos_num(qos_blank(s), 7, &prio, &fits_p);
	if (!s || !fits_d || !fits_p)
		return false;
	s = qos_blank(s);
	if (*s && *s != '\n' && *s != '\r')
		return false;
	map[dscp] = prio;
	return true;
}

/*
 * qos/dscp2prio of MLNX_OFED, in either of its two shapes:
 *  - a header line, then one "<dscp> <prio>" row per DSCP: the file of older
 *    MLNX_OFED (mlnx-tools python/mlnx_qos, print_dscp2prio_sysfs(), synced
 *    with MLNX_OFED 4.6, skips the first line and splits each row into DSCP
 *    and priority);
 *  - "dscp2prio mapping:" then "\tprio:<p> dscp:<d>,<d>,...," lines, the shape
 *    mlnx_qos prints from it and later builds write.
 * Lines of neither shape (headers) are skipped. Values out of range are
 * ignored, never used as an index. Returns whether any entry was read.
 */
bool rctl_qos_parse_dscp2prio(const char *txt, uint8_t map[64])
{
	const char *line = txt, *s;
	bool any = false;

	while (line && *line) {
		s = qos_blank(line);
		if (!strncmp(s, "prio:", 5))
			any |= qos_prio_line(s, map);
		else if (*s >= '0' && *s <= '9')
			any |= qos_pair_line(s, map);
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return any;
}

/* Rows of two or more numbers after a header: "3\t\t1" or "0 130944 ...". */
bool rctl_qos_parse_rows(const char *txt, uint8_t *u8, uint64_t *u64)
{
	const char *line = txt, *p;
	unsigned long idx, val;
	bool fits_i, fits_v, any = false;

	while (line && *line) {
		p = qos_num(qos_blank(line), 7, &idx, &fits_i);
		if (p && (*p == ' ' || *p == '\t')) {
			p = qos_num(qos_blank(p), u8 ? 255 : ULONG_MAX, &val, &fits_v);
			if (p && fits_i && fits_v) {
				if (u8)
					u8[idx] = val;
				if (u64)
					u64[idx] = val;
				any = true;
			}
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return any;
}

static int qos_read(const char *dir, const char *name, char *buf)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	return rctl_read_file(path, buf, QOS_TEXT);
}

/*
 * An SR-IOV VF has device/physfn, a link to its PF's PCI device; the PF's
 * netdev is the entry under physfn/net/. On a VF, trust, the DSCP map, PFC
 * and ECN/DCQCN belong to the PF (docs/roce-facts.md, "SR-IOV VFs").
 */
static void sriov_vf(struct rctl_netdev *nd)
{
	char path[PATH_MAX], link[PATH_MAX];
	struct dirent *de;
	ssize_t n;
	DIR *d;

	snprintf(path, sizeof(path), "%s/class/net/%s/device/physfn", rctl_sysfs(), nd->name);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return;
	link[n] = '\0';
	nd->sriov_vf = true;
	snprintf(nd->sriov_pf_pci, sizeof(nd->sriov_pf_pci), "%.15s", basename(link));
	snprintf(path, sizeof(path), "%s/class/net/%s/device/physfn/net", rctl_sysfs(), nd->name);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(nd->sriov_pf, sizeof(nd->sriov_pf), "%.31s", de->d_name);
			break;
		}
	closedir(d);
}

static void qos_one(struct rctl_host *h, struct rctl_netdev *nd)
{
	struct rctl_ofed_qos *q = &nd->qos;
	char dir[PATH_MAX], buf[QOS_TEXT];

	snprintf(dir, sizeof(dir), "%s/class/net/%s/settings", rctl_sysfs(), nd->name);
	if (!qos_read(dir, "pfc_stall_prevention", buf))
		snprintf(q->pfc_stall_prevention, sizeof(q->pfc_stall_prevention), "%.15s", buf);
	snprintf(dir, sizeof(dir), "%s/class/net/%s/qos", rctl_sysfs(), nd->name);
	if (access(dir, F_OK)) {
		rctl_part_fail(&q->st, errno, errno == ENOENT ?
			       "no MLNX_OFED qos sysfs (upstream driver or not mlx5)" : NULL);
		return;
	}
	if (!qos_read(dir, "trust", buf))
		qos_trust(q, buf);
	if (!qos_read(dir, "dscp2prio", buf))
		q->has_dscp2prio = rctl_qos_parse_dscp2prio(buf, q->dscp2prio);
	if (!qos_read(dir, "prio2buffer", buf))
		q->has_prio2buffer = rctl_qos_parse_rows(buf, q->prio2buffer, NULL);
	if (!qos_read(dir, "buffer_size", buf))
		q->has_buffer_size = rctl_qos_parse_rows(buf, NULL, q->buffer_size);
	q->st.ok = true;
	(void)h;
}

/*
 * A line of /proc/net/unix whose path is lldpad's control socket, the
 * abstract "@/com/intel/lldpad" (openlldp include/clif_sock.h; the kernel
 * prints an abstract name with '@', net/unix/af_unix.c unix_seq_show()).
 * Its clients bind "@/com/intel/lldpad/<pid>": not the same path.
 */
bool rctl_unix_line_lldpad(const char *line)
{
	return rctl_line_ends_with(line, " @/com/intel/lldpad");
}

/*
 * 0 when no lldpad can run in this network namespace, the only one whose
 * netdevs it would manage: lldpad binds its control socket before it
 * serves and exits when it cannot (openlldp lldpad.c, ctrl_iface_init()),
 * and systemd's lldpad.socket holds the same name. 1 when the socket is
 * there, -errno when /proc/net/unix cannot be read. One file instead of
 * one per process.
 */
static int lldpad_socket(void)
{
	return rctl_file_any_line("/proc/net/unix", rctl_unix_line_lldpad);
}

/* lldpad as a process name in /proc/<pid>/comm, when its socket says it may run. */
static void scan_lldpad(struct rctl_host *h)
{
	struct dirent *de;
	char path[300], comm[32];
	DIR *d;

	if (lldpad_socket() == 0) {
		h->procs.ok = true;
		return;
	}
	d = opendir("/proc");
	if (!d) {
		rctl_part_fail(&h->procs, errno, NULL);
		rctl_host_unread(h, errno, h->procs.reason, "process list (/proc)");
		return;
	}
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		if (!rctl_read_file(path, comm, sizeof(comm)) && !strcmp(comm, "lldpad")) {
			h->lldpad_running = true;
			h->lldpad_pid = strtoul(de->d_name, NULL, 10);
			break;
		}
	}
	closedir(d);
	h->procs.ok = true;
}

/* /sys/module/<module of the parent device's driver>/version (OFED, OOT). */
static void dev_version(struct rctl_device *d)
{
	char path[PATH_MAX], link[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/class/infiniband/%s/device/driver/module",
		 rctl_sysfs(), d->name);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return;
	link[n] = '\0';
	snprintf(path, sizeof(path), "%s/module/%s/version", rctl_sysfs(), basename(link));
	if (rctl_read_file(path, link, sizeof(d->driver_version)))
		return;
	snprintf(d->driver_version, sizeof(d->driver_version), "%.*s",
		 (int)sizeof(d->driver_version) - 1, link);
}

int rctl_qos_collect(struct rctl_host *h, struct rctl_err *e)
{
	uint32_t i;

	for (i = 0; i < h->n_netdevs; i++) {
		qos_one(h, &h->netdevs[i]);
		sriov_vf(&h->netdevs[i]);
	}
	for (i = 0; i < h->n_devs; i++)
		dev_version(&h->devs[i]);
	scan_lldpad(h);
	(void)e;
	return 0;
}

/* The QoS parts in order: pause (driver, PCI address) before cc needs them. */
int rctl_collect_qos(struct rctl_host *h, struct rctl_err *e)
{
	int (*const parts[])(struct rctl_host *, struct rctl_err *) = {
		rctl_dcb_collect, rctl_pause_collect, rctl_cc_collect,
		rctl_cmcfg_collect, rctl_qos_collect, rctl_netfilter_collect,
	};
	size_t i;
	int ret;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		ret = parts[i](h, e);
		if (ret)
			return ret;
	}
	return 0;
}
