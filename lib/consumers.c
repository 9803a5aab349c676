// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The traffic class the RDMA consumers asked for, where the host shows it
 * (docs/roce-facts.md, "The RDMA consumers' traffic class"): the owner
 * processes' names (/proc/PID/comm) and the
 * named variables of their environments (/proc/PID/environ, root only:
 * nothing else of an environment is kept, it may hold secrets), NCCL's
 * configuration files, Ceph's ceph.conf, and MLNX_OFED's global
 * /sys/class/infiniband/DEV/tc/PORT/traffic_class. Only reads.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rocectl/collect.h"
#include "rocectl/sysfs.h"

/*
 * The allow-list, the one place it is written (docs/roce-facts.md lists it):
 * NCCL (NVIDIA/nccl src/transport/net_ib.cc NCCL_PARAM IB_TC, IB_FIFO_TC,
 * IB_SL, IB_GID_INDEX, IB_HCA; src/misc/param.cc NCCL_CONF_FILE, which
 * names the file it reads), UCX (openucx/ucx src/uct/ib/base/ib_iface.c
 * TRAFFIC_CLASS, SL, GID_INDEX; NET_DEVICES).
 */
const char *const rctl_tc_env_names[] = {
	"NCCL_IB_TC", "NCCL_IB_FIFO_TC", "NCCL_IB_SL", "NCCL_IB_GID_INDEX",
	"NCCL_IB_HCA", "NCCL_CONF_FILE",
	"UCX_IB_TRAFFIC_CLASS", "UCX_IB_SL", "UCX_IB_GID_INDEX", "UCX_NET_DEVICES",
	NULL,
};

/* An environment bigger than this is read up to it (ARG_MAX is 2 MiB). */
#define ENVIRON_MAX (256 * 1024)
#define CONF_MAX (64 * 1024)

static const char *env_allowed(const char *kv, size_t len)
{
	size_t i, n;

	for (i = 0; rctl_tc_env_names[i]; i++) {
		n = strlen(rctl_tc_env_names[i]);
		if (n < len && kv[n] == '=' && !memcmp(kv, rctl_tc_env_names[i], n))
			return rctl_tc_env_names[i];
	}
	return NULL;
}

static int add_setting(struct rctl_tc_setting **arr, uint32_t *n, const char *source,
		       const char *where, const char *name, const char *val, size_t vlen)
{
	struct rctl_tc_setting *s = rctl_arr_push(arr, n, sizeof(*s));

	if (!s)
		return -ENOMEM;
	snprintf(s->source, sizeof(s->source), "%s", source);
	snprintf(s->where, sizeof(s->where), "%s", where);
	snprintf(s->name, sizeof(s->name), "%s", name);
	if (vlen >= sizeof(s->value))
		vlen = sizeof(s->value) - 1;
	memcpy(s->value, val, vlen);
	s->value[vlen] = '\0';
	return 0;
}

int rctl_environ_parse(const char *buf, size_t len, struct rctl_consumer *c,
		       const char *where)
{
	const char *p = buf, *end = buf + len, *z, *name;
	size_t n;

	for (; p < end; p = z + 1) {
		z = memchr(p, '\0', (size_t)(end - p));
		if (!z)
			z = end;	/* a last variable cut by the bound is kept only if named */
		n = (size_t)(z - p);
		name = env_allowed(p, n);
		if (name && add_setting(&c->vars, &c->n_vars, "environ", where, name,
					p + strlen(name) + 1, n - strlen(name) - 1))
			return -ENOMEM;
	}
	return 0;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* Ceph writes option names with spaces, underscores or dashes alike. */
static void key_norm(char *k)
{
	for (; *k; k++)
		if (*k == ' ' || *k == '-')
			*k = '_';
}

int rctl_conf_parse(const char *txt, const char *source, const char *where,
		    const char *const *keys, struct rctl_rdma_res *res)
{
	char line[512], *k, *v, *eq;
	const char *p = txt, *nl;
	size_t n, i;

	for (; *p; p = *nl ? nl + 1 : nl) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		n = (size_t)(nl - p);
		if (n >= sizeof(line))
			continue;	/* no key we look for is that long */
		memcpy(line, p, n);
		line[n] = '\0';
		k = trim(line);
		if (*k == '#' || *k == ';' || *k == '[' || !(eq = strchr(k, '=')))
			continue;
		*eq = '\0';
		v = trim(eq + 1);
		k = trim(k);
		key_norm(k);
		for (i = 0; keys[i]; i++)
			if (!strcmp(k, keys[i]) &&
			    add_setting(&res->conf, &res->n_conf, source, where, keys[i], v,
					strlen(v)))
				return -ENOMEM;
	}
	return 0;
}

/* A whole small file, bounded; -errno. */
static int read_bounded(const char *path, char *buf, size_t cap, size_t *len)
{
	ssize_t r;
	size_t n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while (n < cap && (r = read(fd, buf + n, cap - n)) > 0)
		n += (size_t)r;
	if (r < 0 && n == 0) {
		r = -errno;
		close(fd);
		return (int)r;
	}
	close(fd);
	*len = n;
	return 0;
}

static void consumer_env(struct rctl_consumer *c, char *buf)
{
	char path[64];
	size_t n = 0;
	int ret;

	snprintf(path, sizeof(path), "/proc/%u/environ", c->pid);
	ret = read_bounded(path, buf, ENVIRON_MAX, &n);
	if (ret) {
		rctl_part_fail(&c->env, ret, ret == -EPERM || ret == -EACCES ?
			       "another user's environment: readable by root only" :
			       ret == -ENOENT ? "the process has exited" : NULL);
		return;
	}
	if (rctl_environ_parse(buf, n, c, path)) {
		rctl_part_fail(&c->env, ENOMEM, NULL);
		return;
	}
	c->env.ok = true;
}

static void consumer_comm(struct rctl_consumer *c)
{
	char path[64], comm[RCTL_NAME_LEN];

	snprintf(path, sizeof(path), "/proc/%u/comm", c->pid);
	if (rctl_read_file(path, comm, sizeof(comm)))
		snprintf(c->name, sizeof(c->name), "pid %u", c->pid);
	else
		snprintf(c->name, sizeof(c->name), "%s", comm);
}

/* The owner's name into every entry and count of its pid. */
static void name_pid(struct rctl_rdma_res *r, const struct rctl_consumer *c)
{
	uint32_t i;

	for (i = 0; i < r->n_list; i++)
		if (r->list[i].pid == c->pid)
			snprintf(r->list[i].owner, sizeof(r->list[i].owner), "%s", c->name);
	for (i = 0; i < r->n_counts; i++)
		if (r->counts[i].pid == c->pid)
			snprintf(r->counts[i].owner, sizeof(r->counts[i].owner), "%s", c->name);
}

static const char *const nccl_keys[] = { "NCCL_IB_TC", "NCCL_IB_SL", "NCCL_IB_GID_INDEX",
					 "NCCL_IB_HCA", NULL };
static const char *const ceph_keys[] = { "ms_type", "ms_cluster_type", "ms_public_type",
					 "ms_async_rdma_dscp", "ms_async_rdma_sl",
					 "ms_async_rdma_device_name", "ms_async_rdma_cm", NULL };

static int conf_file(struct rctl_rdma_res *r, const char *path, const char *source,
		     const char *const *keys, char *buf)
{
	size_t n = 0;
	uint32_t i;

	for (i = 0; i < r->n_conf; i++)
		if (!strcmp(r->conf[i].where, path))
			return 0;	/* read once, whoever names it */
	if (read_bounded(path, buf, CONF_MAX - 1, &n))
		return 0;		/* absent: nothing set there */
	buf[n] = '\0';
	return rctl_conf_parse(buf, source, path, keys, r);
}

static const char *var_of(const struct rctl_consumer *c, const char *name)
{
	uint32_t i;

	for (i = 0; i < c->n_vars; i++)
		if (!strcmp(c->vars[i].name, name))
			return c->vars[i].value;
	return NULL;
}

/* The home directory of the process's real user, as NCCL's userHomeDir() finds it. */
static bool proc_home(uint32_t pid, char *home, size_t len)
{
	char path[64], line[256], pwbuf[1024];
	struct passwd pw, *res = NULL;
	unsigned long uid;
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/status", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "Uid: %lu", &uid) == 1;
	fclose(f);
	if (!found || getpwuid_r((uid_t)uid, &pw, pwbuf, sizeof(pwbuf), &res) || !res)
		return false;
	snprintf(home, len, "%s", pw.pw_dir);
	return true;
}

/*
 * NCCL's files (src/misc/param.cc initEnvFunc()): NCCL_CONF_FILE, else
 * ~/.nccl.conf of the process's user (getpwuid(getuid())), then /etc/nccl.conf.
 */
static int nccl_files(struct rctl_rdma_res *r, const struct rctl_consumer *c, char *buf)
{
	const char *f = var_of(c, "NCCL_CONF_FILE");
	char home[PATH_MAX / 2], path[PATH_MAX];

	if (f && *f)
		return conf_file(r, f, "nccl.conf", nccl_keys, buf);
	if (proc_home(c->pid, home, sizeof(home))) {
		snprintf(path, sizeof(path), "%s/.nccl.conf", home);
		return conf_file(r, path, "nccl.conf", nccl_keys, buf);
	}
	return 0;
}

/*
 * MLNX_OFED's /sys/class/infiniband/DEV/tc/PORT/traffic_class, as
 * traffic_class_show() writes it (mlnx-ofa_kernel drivers/infiniband/hw/
 * mlx5/main_ext.c, MLNX_OFED 5.x to 24.x; read at knneth/mlnx-ofa_kernel
 * 1b1d8b6): "Global tclass=N\n" when the global class is set (tcd->val,
 * -1 when not), then one line per per-destination rule as its parse_tree
 * printers write them, each field optional but the class:
 * "src_ip=A,dst_ip=B/M,tclass=T\n" or "src_ip6=A,dst_ip6=B,tclass=T\n".
 * Empty when nothing is set (the upstream kernel has no such file).
 */
int rctl_ofed_tclass_parse(const char *txt, int *global, uint32_t *n_rules)
{
	const char *p = txt, *nl, *t;
	char *end;
	long v;

	*global = -1;
	*n_rules = 0;
	for (; *p; p = *nl ? nl + 1 : nl) {
		nl = p + strcspn(p, "\n");
		if (!strncmp(p, "Global tclass=", 14)) {
			v = strtol(p + 14, &end, 10);
			if (end == p + 14 || end != nl || v < 0 || v > 255)
				return -EINVAL;
			*global = (int)v;
			continue;
		}
		t = strstr(p, "tclass=");
		if (t && t < nl)
			++*n_rules;
		else if (nl > p)
			return -EINVAL;
	}
	return 0;
}

/*
 * The global class replaces the class of every RTS QP of the port but GSI
 * and DCT (tclass_update_qps()); a rule that of the QPs to its destination,
 * and only while no global class is set (tclass_get_tclass_locked()).
 */
static int ofed_port(struct rctl_host *h, const struct rctl_device *d, uint32_t port)
{
	char path[PATH_MAX], txt[4096], val[16];
	uint32_t n_rules;
	int global;

	snprintf(path, sizeof(path), "%s/class/infiniband/%s/tc/%u/traffic_class", rctl_sysfs(),
		 d->name, port);
	if (rctl_read_file(path, txt, sizeof(txt)) ||
	    rctl_ofed_tclass_parse(txt, &global, &n_rules))
		return 0;
	if (global >= 0) {
		snprintf(val, sizeof(val), "%d", global);
		if (add_setting(&h->res.conf, &h->res.n_conf, "ofed-sysfs", path, "traffic_class",
				val, strlen(val)))
			return -ENOMEM;
		snprintf(h->res.conf[h->res.n_conf - 1].dev, RCTL_NAME_LEN, "%s", d->name);
		h->res.conf[h->res.n_conf - 1].port = port;
	}
	if (n_rules) {
		snprintf(val, sizeof(val), "%u", n_rules);
		if (add_setting(&h->res.conf, &h->res.n_conf, "ofed-sysfs", path,
				"traffic_class_rules", val, strlen(val)))
			return -ENOMEM;
		snprintf(h->res.conf[h->res.n_conf - 1].dev, RCTL_NAME_LEN, "%s", d->name);
		h->res.conf[h->res.n_conf - 1].port = port;
	}
	return 0;
}

static int ofed_tclass(struct rctl_host *h)
{
	uint32_t i, k;
	int ret = 0;

	for (i = 0; !ret && i < h->n_devs; i++)
		for (k = 0; !ret && k < h->devs[i].n_ports; k++)
			ret = ofed_port(h, &h->devs[i], h->devs[i].ports[k].port);
	return ret;
}

int rctl_consumers_collect(struct rctl_host *h, struct rctl_err *e)
{
	struct rctl_rdma_res *r = &h->res;
	char *buf = malloc(ENVIRON_MAX);
	int ret = 0;
	uint32_t i;

	if (!buf)
		return rctl_err_strerror(e, ENOMEM, "cannot read the RDMA consumers");
	for (i = 0; i < r->n_consumers; i++) {
		struct rctl_consumer *c = &r->consumers[i];

		if (!c->pid)
			continue;
		consumer_comm(c);
		name_pid(r, c);
		consumer_env(c, buf);
		if (!ret)
			ret = nccl_files(r, c, buf);
	}
	if (!ret)
		ret = conf_file(r, "/etc/nccl.conf", "nccl.conf", nccl_keys, buf);
	if (!ret)
		ret = conf_file(r, "/etc/ceph/ceph.conf", "ceph.conf", ceph_keys, buf);
	if (!ret)
		ret = ofed_tclass(h);
	free(buf);
	if (ret)
		return rctl_err_strerror(e, -ret, "cannot read the RDMA consumers");
	return 0;
}
