// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's NVMe-oF host, from sysfs: every fabrics controller of
 * /sys/class/nvme, the subsystems of /sys/class/nvme-subsystem with their
 * paths and ANA states, and nvme_core's native multipath switch. The text of
 * each attribute is what drivers/nvme/host/core.c, fabrics.c and
 * multipath.c show (Linux 6.1; docs/nvme-host.md lists them).
 *
 * Only the attributes named below are ever opened. A controller directory
 * also holds its DH-HMAC-CHAP secrets (dhchap_secret, dhchap_ctrl_secret,
 * Linux 6.0) and, since 6.7, its TLS key (tls_key, tls_configured_key,
 * tls_keyring): they are never read, not even to see whether they are set
 * (tests/unit/test_nvme_host.c proves it with files that hang when opened).
 */
#include <dirent.h>
#include <errno.h>
#include <ifaddrs.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include "rocectl/collect.h"

/* The controller attributes read, each once; nothing else is opened. */
#define A_TRANSPORT "transport"
#define A_STATE "state"
#define A_SUBSYSNQN "subsysnqn"
#define A_CNTLID "cntlid"
#define A_ADDRESS "address"
#define A_QUEUE_COUNT "queue_count"
#define A_SQSIZE "sqsize"
#define A_KATO "kato"
#define A_CTRL_LOSS_TMO "ctrl_loss_tmo"
#define A_RECONNECT_DELAY "reconnect_delay"
#define A_FAST_IO_FAIL_TMO "fast_io_fail_tmo"

/* "nvme" and digits: a controller (nvme0), not a namespace (nvme0n1). */
static bool ctrl_name(const char *s)
{
	if (strncmp(s, "nvme", 4) || !s[4])
		return false;
	for (s += 4; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* Skips the digits at *p; false when there are none. */
static bool digits(const char **p)
{
	const char *s = *p;

	while (**p >= '0' && **p <= '9')
		(*p)++;
	return *p != s;
}

/* "nvme0c1n2" (a path of native multipath) or "nvme0n2" (without it). */
static bool ns_name(const char *s)
{
	if (strncmp(s, "nvme", 4))
		return false;
	s += 4;
	if (!digits(&s))
		return false;
	if (*s == 'c' && (s++, !digits(&s)))
		return false;
	return *s++ == 'n' && digits(&s) && !*s;
}

/* Names of one kind ("nvme", "nvme-subsys") in their kernel order: 2 before 10. */
static int num_cmp(const char *x, const char *y)
{
	size_t a = strlen(x), b = strlen(y);

	return a != b ? (a < b ? -1 : 1) : strcmp(x, y);
}

static int ctrl_cmp(const void *a, const void *b)
{
	return num_cmp(((const struct rctl_nvme_ctrl *)a)->name,
		       ((const struct rctl_nvme_ctrl *)b)->name);
}

static int subsys_cmp(const void *a, const void *b)
{
	return num_cmp(((const struct rctl_nvme_subsys *)a)->name,
		       ((const struct rctl_nvme_subsys *)b)->name);
}

static int path_cmp(const void *a, const void *b)
{
	return num_cmp(((const struct rctl_nvme_path *)a)->name,
		       ((const struct rctl_nvme_path *)b)->name);
}

static int put(char *dst, size_t len, const char *src, size_t n)
{
	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return 0;
}

/*
 * nvmf_get_address() (fabrics.c): "traddr=%s", ",trsvcid=%s",
 * ",host_traddr=%s" and, since Linux 5.14, ",host_iface=%s", each only when
 * given at connect; a key rocectl does not know is passed over.
 */
int rctl_nvme_parse_address(const char *txt, struct rctl_nvme_ctrl *c)
{
	static const struct {
		const char *key;
		size_t off, len;
	} keys[] = {
		{ "traddr", offsetof(struct rctl_nvme_ctrl, traddr), sizeof(c->traddr) },
		{ "trsvcid", offsetof(struct rctl_nvme_ctrl, trsvcid), sizeof(c->trsvcid) },
		{ "host_traddr", offsetof(struct rctl_nvme_ctrl, host_traddr),
		  sizeof(c->host_traddr) },
		{ "host_iface", offsetof(struct rctl_nvme_ctrl, host_iface),
		  sizeof(c->host_iface) },
	};
	const char *p = txt, *eq, *end;
	size_t i, n;
	int ret;

	while (*p) {
		end = p + strcspn(p, ",\n");
		eq = memchr(p, '=', end - p);
		if (!eq || eq == p)
			return -EINVAL;
		n = eq - p;
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			if (strlen(keys[i].key) != n || strncmp(keys[i].key, p, n))
				continue;
			ret = put((char *)c + keys[i].off, keys[i].len, eq + 1, end - eq - 1);
			if (ret)
				return ret;
		}
		p = *end ? end + 1 : end;
	}
	return 0;
}

/*
 * A timer of core.c: "off" (ctrl_loss_tmo when max_reconnects is -1,
 * reconnect_delay and fast_io_fail_tmo when -1), else "%d" seconds.
 */
int rctl_nvme_parse_tmo(const char *txt, int32_t *v)
{
	uint64_t u;
	int ret;

	if (!strcmp(txt, "off")) {
		*v = RCTL_NVME_TMO_OFF;
		return 0;
	}
	ret = rctl_sysfs_u64(txt, 10, &u);
	if (ret)
		return ret;
	if (u > INT32_MAX)
		return -ERANGE;
	*v = (int32_t)u;
	return 0;
}

static int attr(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	return rctl_read_file(path, buf, len);
}

static void attr_str(const char *dir, const char *name, char *dst, size_t len)
{
	char buf[256];

	if (!attr(dir, name, buf, sizeof(buf)))
		snprintf(dst, len, "%s", buf);
}

static void attr_u32(const char *dir, const char *name, uint32_t *v)
{
	char buf[32];
	uint64_t u;

	if (!attr(dir, name, buf, sizeof(buf)) && !rctl_sysfs_u64(buf, 10, &u) && u <= UINT32_MAX)
		*v = (uint32_t)u;
}

/* A timer; RCTL_NVME_TMO_NONE when absent (kato before Linux 5.13). */
static void attr_tmo(const char *dir, const char *name, int32_t *v)
{
	char buf[32];

	*v = RCTL_NVME_TMO_NONE;
	if (!attr(dir, name, buf, sizeof(buf)))
		rctl_nvme_parse_tmo(buf, v);
}

/* The interface holding address "ip" (host_traddr), into name. */
static bool iface_of_addr(const char *ip, char *name, size_t len)
{
	unsigned char want[16], have[16];
	struct ifaddrs *ifa, *i;
	int fam = strchr(ip, ':') ? AF_INET6 : AF_INET;
	bool found = false;

	if (inet_pton(fam, ip, want) != 1 || getifaddrs(&ifa))
		return false;
	for (i = ifa; i && !found; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != fam)
			continue;
		if (fam == AF_INET)
			memcpy(have, &((struct sockaddr_in *)i->ifa_addr)->sin_addr, 4);
		else
			memcpy(have, &((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr, 16);
		if (!memcmp(want, have, fam == AF_INET ? 4 : 16)) {
			snprintf(name, len, "%s", i->ifa_name);
			found = true;
		}
	}
	freeifaddrs(ifa);
	return found;
}

/*
 * The netdev a controller's traffic leaves by: host_iface when given (TCP
 * binds to it), else the netdev of host_traddr (the source address rdma_cm
 * and TCP bind to), else the kernel's route to traddr (what rdma_cm's
 * address resolution and a TCP connect look up).
 */
static void ctrl_netdev(struct rctl_nvme_ctrl *c)
{
	struct rctl_err e = { 0 };

	if (c->host_iface[0]) {
		snprintf(c->netdev, sizeof(c->netdev), "%s", c->host_iface);
		snprintf(c->netdev_by, sizeof(c->netdev_by), "host_iface");
		snprintf(c->src, sizeof(c->src), "%s", c->host_traddr);
		return;
	}
	if (c->host_traddr[0]) {
		snprintf(c->src, sizeof(c->src), "%s", c->host_traddr);
		if (iface_of_addr(c->host_traddr, c->netdev, sizeof(c->netdev))) {
			snprintf(c->netdev_by, sizeof(c->netdev_by), "host_traddr");
			return;
		}
		snprintf(c->netdev_reason, sizeof(c->netdev_reason),
			 "no netdev holds host_traddr %s", c->host_traddr);
		return;
	}
	if (strcmp(c->transport, "rdma") && strcmp(c->transport, "tcp")) {
		snprintf(c->netdev_reason, sizeof(c->netdev_reason),
			 "transport '%s' does not run over IP", c->transport);
		return;
	}
	if (rctl_route_get(c->traddr, c->netdev, sizeof(c->netdev), c->src, sizeof(c->src), &e))
		snprintf(c->netdev_reason, sizeof(c->netdev_reason), "%s", e.msg);
	else
		snprintf(c->netdev_by, sizeof(c->netdev_by), "route");
}

static void ctrl_read(const char *dir, struct rctl_nvme_ctrl *c)
{
	char addr[512];

	attr_str(dir, A_STATE, c->state, sizeof(c->state));
	attr_str(dir, A_SUBSYSNQN, c->subsysnqn, sizeof(c->subsysnqn));
	attr_u32(dir, A_CNTLID, &c->cntlid);
	if (!attr(dir, A_ADDRESS, addr, sizeof(addr)))
		rctl_nvme_parse_address(addr, c);
	attr_u32(dir, A_QUEUE_COUNT, &c->queue_count);
	attr_u32(dir, A_SQSIZE, &c->sqsize);
	attr_tmo(dir, A_KATO, &c->kato);
	attr_tmo(dir, A_CTRL_LOSS_TMO, &c->ctrl_loss_tmo);
	attr_tmo(dir, A_RECONNECT_DELAY, &c->reconnect_delay);
	attr_tmo(dir, A_FAST_IO_FAIL_TMO, &c->fast_io_fail_tmo);
	ctrl_netdev(c);
}

static int ctrls_read(struct rctl_nvme *nv)
{
	char base[PATH_MAX], dir[PATH_MAX], tr[16];
	struct rctl_nvme_ctrl *c;
	struct dirent *de;
	DIR *d;

	snprintf(base, sizeof(base), "%s/class/nvme", rctl_sysfs());
	d = opendir(base);
	if (!d)
		return errno == ENOENT ? 0 : -errno;	/* no nvme_core: none */
	while ((de = readdir(d))) {
		if (!ctrl_name(de->d_name) ||
		    snprintf(dir, sizeof(dir), "%s/%s", base, de->d_name) >= (int)sizeof(dir) ||
		    attr(dir, A_TRANSPORT, tr, sizeof(tr)) || !strcmp(tr, "pcie"))
			continue;
		c = rctl_arr_push(&nv->ctrls, &nv->n_ctrls, sizeof(*c));
		if (!c) {
			closedir(d);
			return -ENOMEM;
		}
		snprintf(c->name, sizeof(c->name), "%s", de->d_name);
		snprintf(c->transport, sizeof(c->transport), "%s", tr);
		ctrl_read(dir, c);
	}
	closedir(d);
	qsort(nv->ctrls, nv->n_ctrls, sizeof(*nv->ctrls), ctrl_cmp);
	return 0;
}

static struct rctl_nvme_ctrl *ctrl_find(struct rctl_nvme *nv, const char *name)
{
	uint32_t i;

	for (i = 0; i < nv->n_ctrls; i++)
		if (!strcmp(nv->ctrls[i].name, name))
			return &nv->ctrls[i];
	return NULL;
}

/* The namespace paths under one fabrics controller of subsystem s. */
static int paths_read(const struct rctl_nvme_ctrl *c, struct rctl_nvme_subsys *s)
{
	char dir[PATH_MAX], ns[PATH_MAX];
	struct rctl_nvme_path *p;
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/class/nvme/%s", rctl_sysfs(), c->name);
	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (!ns_name(de->d_name) ||
		    snprintf(ns, sizeof(ns), "%s/%s", dir, de->d_name) >= (int)sizeof(ns))
			continue;
		p = rctl_arr_push(&s->paths, &s->n_paths, sizeof(*p));
		if (!p) {
			closedir(d);
			return -ENOMEM;
		}
		snprintf(p->name, sizeof(p->name), "%s", de->d_name);
		snprintf(p->ctrl, sizeof(p->ctrl), "%s", c->name);
		attr_u32(ns, "nsid", &p->nsid);
		attr_str(ns, "ana_state", p->ana_state, sizeof(p->ana_state));
	}
	closedir(d);
	return 0;
}

/* One nvme-subsysN: its NQN, iopolicy, and the paths of its fabrics controllers. */
static int subsys_read(struct rctl_nvme *nv, const char *base, const char *name)
{
	char dir[PATH_MAX];
	struct rctl_nvme_subsys *s = NULL;
	struct rctl_nvme_ctrl *c;
	struct dirent *de;
	DIR *d;
	int ret = 0;

	if (snprintf(dir, sizeof(dir), "%s/%s", base, name) >= (int)sizeof(dir))
		return 0;
	d = opendir(dir);
	if (!d)
		return 0;
	while (!ret && (de = readdir(d))) {
		if (!ctrl_name(de->d_name) || !(c = ctrl_find(nv, de->d_name)))
			continue;	/* not a fabrics controller of ours */
		if (!s) {
			s = rctl_arr_push(&nv->subsys, &nv->n_subsys, sizeof(*s));
			if (!s) {
				ret = -ENOMEM;
				break;
			}
			snprintf(s->name, sizeof(s->name), "%s", name);
			attr_str(dir, "subsysnqn", s->nqn, sizeof(s->nqn));
			attr_str(dir, "iopolicy", s->iopolicy, sizeof(s->iopolicy));
		}
		snprintf(c->subsys, sizeof(c->subsys), "%s", name);
		ret = paths_read(c, s);
	}
	closedir(d);
	if (s && s->n_paths)
		qsort(s->paths, s->n_paths, sizeof(*s->paths), path_cmp);
	return ret;
}

static int subsystems_read(struct rctl_nvme *nv)
{
	char base[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int ret = 0;

	snprintf(base, sizeof(base), "%s/class/nvme-subsystem", rctl_sysfs());
	d = opendir(base);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while (!ret && (de = readdir(d)))
		if (!strncmp(de->d_name, "nvme-subsys", 11))
			ret = subsys_read(nv, base, de->d_name);
	closedir(d);
	if (!ret)
		qsort(nv->subsys, nv->n_subsys, sizeof(*nv->subsys), subsys_cmp);
	return ret;
}

/* nvme_core's "multipath" (multipath.c, bool: "Y"/"N"); -1 without the parameter. */
static int32_t multipath_param(void)
{
	char path[PATH_MAX], buf[8];

	snprintf(path, sizeof(path), "%s/module/nvme_core/parameters/multipath", rctl_sysfs());
	if (rctl_read_file(path, buf, sizeof(buf)))
		return -1;
	return buf[0] == 'Y' || buf[0] == '1';
}

int rctl_nvme_collect(struct rctl_host *h, struct rctl_err *e)
{
	struct rctl_nvme *nv = &h->nvme;
	char path[PATH_MAX];
	int ret;

	snprintf(path, sizeof(path), "%s/class/nvme-fabrics/ctl", rctl_sysfs());
	nv->fabrics = !access(path, F_OK);
	nv->multipath = multipath_param();
	ret = ctrls_read(nv);
	if (!ret)
		ret = subsystems_read(nv);
	if (ret == -ENOMEM)
		return rctl_err_strerror(e, ENOMEM, "cannot read the NVMe controllers");
	if (ret) {
		rctl_part_fail(&nv->st, -ret, NULL);
		rctl_host_unread(h, -ret, nv->st.reason, "NVMe controllers (/sys/class/nvme)");
		return 0;
	}
	nv->st.ok = true;
	return 0;
}
