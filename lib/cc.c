// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Congestion control (DCQCN/ECN) parameters, from whichever home the driver
 * gives them (docs/roce-facts.md, "ECN and DCQCN"):
 *
 *   MLNX_OFED        /sys/class/net/<if>/ecn/roce_{rp,np}/{<file>,params/<file>,enable/<p>}
 *                    (MLNX_OFED en_sysfs.c)
 *   mlx5 inbox       /sys/kernel/debug/mlx5/<pci>/cc_params/<file>
 *                    (drivers/infiniband/hw/mlx5/cong.c: mode 0600, root, no lockdown)
 *   bnxt_re inbox    /sys/kernel/debug/bnxt_re/<pci>/cc_config/<file>
 *                    (drivers/infiniband/hw/bnxt_re/debugfs.c, Linux 6.15: mode 0400)
 *   bnxt_re (Broadcom out-of-tree)  <configfs>/bnxt_re/<dev>/ports/1/cc/<file>
 *   irdma (Intel out-of-tree)       <configfs>/irdma/<dev>/<file>
 *
 * and joined under the upstream mlx5 names. Reading a cc_params or
 * cc_config file makes the driver query the firmware. Broadcom's configfs
 * does not: its *_show print the driver's own copy in "%#x", which *_store
 * updates before cc/apply commits it (bnxt_re 233.2.77.9 configfs.c), so a
 * value stored and never applied reads as live; findings name it "driver
 * copy, not read back from firmware" (rctl_cc_evidence). Its files are
 * parsed as hex (the driver's own sscanf("%x")). Nothing here writes a
 * value. The configfs homes need their <dev> directory made first: made,
 * read, and removed again.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "rocectl/settings.h"
#include "rocectl/collect.h"
#include "rocectl/sysfs.h"

#define DEBUGFS_MAGIC 0x64626720

struct cc_name {
	const char *file;	/* in the source's spelling */
	const char *name;	/* normalized (upstream mlx5 debugfs) */
};

/* MLNX_OFED ecn/ files (en_sysfs.c) and their upstream names (cong.c). */
static const struct cc_name ofed_names[] = {
	{ "roce_rp/clamp_tgt_rate", "rp_clamp_tgt_rate" },
	{ "roce_rp/clamp_tgt_rate_after_time_inc", "rp_clamp_tgt_rate_ati" },
	{ "roce_rp/rpg_time_reset", "rp_time_reset" },
	{ "roce_rp/rpg_byte_reset", "rp_byte_reset" },
	{ "roce_rp/rpg_threshold", "rp_threshold" },
	{ "roce_rp/rpg_max_rate", "rp_max_rate" },
	{ "roce_rp/rpg_ai_rate", "rp_ai_rate" },
	{ "roce_rp/rpg_hai_rate", "rp_hai_rate" },
	{ "roce_rp/rpg_gd", "rp_gd" },
	{ "roce_rp/rpg_min_dec_fac", "rp_min_dec_fac" },
	{ "roce_rp/rpg_min_rate", "rp_min_rate" },
	{ "roce_rp/rate_to_set_on_first_cnp", "rp_rate_to_set_on_first_cnp" },
	{ "roce_rp/dce_tcp_g", "rp_dce_tcp_g" },
	{ "roce_rp/dce_tcp_rtt", "rp_dce_tcp_rtt" },
	{ "roce_rp/rate_reduce_monitor_period", "rp_rate_reduce_monitor_period" },
	{ "roce_rp/initial_alpha_value", "rp_initial_alpha_value" },
	{ "roce_np/min_time_between_cnps", "np_min_time_between_cnps" },
	{ "roce_np/cnp_dscp", "np_cnp_dscp" },
	{ "roce_np/cnp_802p_prio", "np_cnp_prio" },
	{ NULL, NULL }
};

/* Upstream debugfs cc_params/ (drivers/infiniband/hw/mlx5/cong.c). */
static const char *const debugfs_names[] = {
	"rp_clamp_tgt_rate", "rp_clamp_tgt_rate_ati", "rp_time_reset",
	"rp_byte_reset", "rp_threshold", "rp_ai_rate", "rp_max_rate",
	"rp_hai_rate", "rp_min_dec_fac", "rp_min_rate",
	"rp_rate_to_set_on_first_cnp", "rp_dce_tcp_g", "rp_dce_tcp_rtt",
	"rp_rate_reduce_monitor_period", "rp_initial_alpha_value", "rp_gd",
	"np_min_time_between_cnps", "np_cnp_dscp", "np_cnp_prio_mode",
	"np_cnp_prio", "rtt_resp_dscp_valid", "rtt_resp_dscp", NULL
};

/*
 * bnxt_re inbox debugfs cc_config/ (bnxt_re_cc_gen0_name[] of debugfs.c):
 * enable_cc is the CC/ECN switch, tos_ecn the ECN bits RoCE packets carry,
 * tos_dscp their DSCP, and the alt_* pair the CNP's priority and DSCP
 * (the firmware's alt_vlan_pcp/alt_tos_dscp). tx_queue is not listed: its
 * read answers EINVAL (map_cc_config_offset_gen0_ext0() has no case for it).
 */
static const struct cc_name bnxt_debugfs_names[] = {
	{ "enable_cc", "ecn_enable" }, { "tos_ecn", "tos_ecn" },
	{ "tos_dscp", "roce_dscp" }, { "alt_vlan_pcp", "np_cnp_prio" },
	{ "alt_vlan_dscp", "np_cnp_dscp" }, { "cc_mode", "cc_mode" },
	{ "run_avg_weight_g", "run_avg_weight_g" },
	{ "num_phase_per_state", "num_phase_per_state" }, { "init_cr", "init_cr" },
	{ "init_tr", "init_tr" }, { "rtt", "rtt" }, { "tcp_cp", "tcp_cp" },
	{ "inactivity_cp", "inactivity_cp" }, { NULL, NULL }
};

/* bnxt_re configfs cc/ (bnxt_setupcc.sh); CNP knobs map to upstream names. */
static const struct cc_name bnxt_names[] = {
	{ "ecn_enable", "ecn_enable" }, { "ecn_marking", "ecn_marking" },
	{ "cc_mode", "cc_mode" }, { "roce_prio", "roce_prio" },
	{ "roce_dscp", "roce_dscp" }, { "cnp_prio", "np_cnp_prio" },
	{ "cnp_dscp", "np_cnp_dscp" }, { NULL, NULL }
};

static const struct cc_name irdma_names[] = {
	{ "roce_dcqcn_enable", "roce_dcqcn_enable" },
	{ "roce_dctcp_enable", "roce_dctcp_enable" },
	{ "roce_timely_enable", "roce_timely_enable" },
	{ NULL, NULL }
};

/*
 * A number file in the base its driver prints: 0 (decimal, or 0x-hex) for
 * most, 16 for Broadcom's configfs ("%#x": "0x1a", and "0" for zero).
 * Trailing space ok.
 */
static int read_u64_base(const char *path, int base, uint64_t *v)
{
	char buf[64];
	int ret = rctl_read_file(path, buf, sizeof(buf));

	return ret ? ret : rctl_sysfs_u64(buf, base, v) ? -EINVAL : 0;
}

static int read_u64(const char *path, uint64_t *v)
{
	return read_u64_base(path, 0, v);
}

/* Add one parameter: 0, -ENOENT when the file is absent, or another -errno. */
static int cc_add(struct rctl_cc *cc, const char *dir, const char *file,
		  const char *name)
{
	struct rctl_cc_param *p;
	char path[512];
	uint64_t v;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	ret = read_u64_base(path, rctl_cc_base(cc) == 16 ? 16 : 0, &v);
	if (ret)
		return ret;
	p = rctl_arr_push(&cc->params, &cc->n_params, sizeof(*p));
	if (!p)
		return -ENOMEM;
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->src, sizeof(p->src), "%s", file);
	p->value = v;
	return 0;
}

/* The kernel lockdown mode in brackets, or NULL when there is none. */
static const char *lockdown_mode(char *buf, size_t len)
{
	char path[PATH_MAX], line[128], *a, *b;

	snprintf(path, sizeof(path), "%s/kernel/security/lockdown", rctl_sysfs());
	if (rctl_read_file(path, line, sizeof(line)))
		return NULL;
	a = strchr(line, '[');
	b = a ? strchr(a, ']') : NULL;
	if (!b || !strncmp(a + 1, "none", 4))
		return NULL;
	snprintf(buf, len, "%.*s", (int)(b - a - 1), a + 1);
	return buf;
}

/*
 * Why a read was refused. Under lockdown debugfs refuses every file that
 * has a write bit (debugfs_locked_down() in fs/debugfs/file.c): mlx5's
 * 0600 cc_params, never bnxt_re's 0400 cc_config.
 */
const char *rctl_cc_denied_reason(int err, char *buf, size_t len)
{
	char mode[32];

	err = err < 0 ? -err : err;
	if (err != EPERM && err != EACCES)
		return NULL;
	if (lockdown_mode(mode, sizeof(mode))) {
		snprintf(buf, len, "blocked by kernel lockdown (%s, Secure Boot): mlx5 cc_params "
			 "files are 0600 and debugfs refuses them", mode);
		return buf;
	}
	return err == EACCES ? "needs root" : "not permitted (not root)";
}

static void cc_done(struct rctl_host *h, struct rctl_netdev *nd, int ret)
{
	struct rctl_cc *cc = &nd->cc;
	char why[RCTL_REASON_LEN];

	if (!ret && !cc->n_params && !cc->enable_known)
		ret = -ENOENT;
	if (!ret) {
		cc->st.ok = true;
		return;
	}
	rctl_part_fail(&cc->st, ret, rctl_cc_denied_reason(ret, why, sizeof(why)));
	rctl_host_unread(h, ret, cc->st.reason, "congestion control of '%s'", nd->name);
}

/* ---- MLNX_OFED sysfs ------------------------------------------------- */

/* enable/<p> of roce_rp or roce_np; true when all eight were read. */
static int ofed_enables(const char *ecn, const char *side, bool en[8])
{
	char path[512];
	uint64_t v;
	int p, ret;

	for (p = 0; p < 8; p++) {
		snprintf(path, sizeof(path), "%s/%s/enable/%d", ecn, side, p);
		ret = read_u64(path, &v);
		if (ret)
			return ret;
		en[p] = v != 0;
	}
	return 0;
}

static int ofed_params(struct rctl_cc *cc, const char *ecn)
{
	const struct cc_name *n;
	char file[128];
	int ret;

	for (n = ofed_names; n->file; n++) {
		ret = cc_add(cc, ecn, n->file, n->name);
		if (ret == -ENOENT) {
			/* Newer OFED docs: under roce_xx/params/. */
			snprintf(file, sizeof(file), "%.7s/params/%s", n->file, n->file + 8);
			ret = cc_add(cc, ecn, file, n->name);
		}
		if (ret && ret != -ENOENT)
			return ret;
	}
	return 0;
}

static int cc_ofed(struct rctl_netdev *nd, const char *ecn)
{
	struct rctl_cc *cc = &nd->cc;
	int ret;

	snprintf(cc->source, sizeof(cc->source), "mlx5-sysfs");
	snprintf(cc->path, sizeof(cc->path), "%.*s", (int)sizeof(cc->path) - 1, ecn);
	ret = ofed_enables(ecn, "roce_rp", cc->rp_enable);
	if (!ret)
		ret = ofed_enables(ecn, "roce_np", cc->np_enable);
	cc->enable_known = !ret;
	if (ret && ret != -ENOENT)
		return ret;
	return ofed_params(cc, ecn);
}

/* ---- upstream mlx5 debugfs ------------------------------------------- */

static const char *debugfs_absent(const char *dir)
{
	struct statfs sf;
	char mlx5[PATH_MAX];

	if (statfs(rctl_debugfs(), &sf) || sf.f_type != DEBUGFS_MAGIC)
		return "debugfs not mounted at /sys/kernel/debug";
	snprintf(mlx5, sizeof(mlx5), "%s/mlx5", rctl_debugfs());
	if (access(mlx5, X_OK))
		return errno == EACCES ? "needs root (debugfs)" : "no mlx5 in debugfs";
	(void)dir;
	return "no cc_params (VF, or congestion control not allowed by firmware)";
}

static int cc_debugfs(struct rctl_host *h, struct rctl_netdev *nd)
{
	struct rctl_cc *cc = &nd->cc;
	struct stat st;
	int i, ret;

	snprintf(cc->source, sizeof(cc->source), "mlx5-debugfs");
	snprintf(cc->path, sizeof(cc->path), "%s/mlx5/%s/cc_params", rctl_debugfs(), nd->pci);
	if (stat(cc->path, &st)) {
		int err = errno;

		rctl_part_fail(&cc->st, err, err == EACCES ? "needs root (debugfs)" :
			       debugfs_absent(cc->path));
		rctl_host_unread(h, err, cc->st.reason, "congestion control of '%s'",
				 nd->name);
		return 1;
	}
	for (i = 0; debugfs_names[i]; i++) {
		ret = cc_add(cc, cc->path, debugfs_names[i], debugfs_names[i]);
		if (ret && ret != -ENOENT)
			return ret;
	}
	return 0;
}

/* ---- configfs homes: bnxt_re, irdma ---------------------------------- */

static int cc_configfs(struct rctl_cc *cc, const char *top, const char *dev,
		       const char *sub, const struct cc_name *names)
{
	char base[384];
	bool made = false;
	int ret = 0;

	snprintf(base, sizeof(base), "%s/%s", top, dev);
	snprintf(cc->path, sizeof(cc->path), "%.100s%.50s", base, sub);
	if (mkdir(base, 0755) == 0)
		made = true;
	else if (errno != EEXIST)
		return -errno;
	for (; names->file && (!ret || ret == -ENOENT); names++)
		ret = cc_add(cc, cc->path, names->file, names->name);
	if (ret == -ENOENT)
		ret = 0;
	if (made && rmdir(base))
		return -errno;
	return ret;
}

static const struct rctl_device *dev_of_netdev(const struct rctl_host *h,
					       const char *ifname, uint32_t *port)
{
	uint32_t i, j;

	for (i = 0; i < h->n_devs; i++)
		for (j = 0; j < h->devs[i].n_ports; j++)
			if (!strcmp(h->devs[i].ports[j].netdev, ifname)) {
				*port = h->devs[i].ports[j].port;
				return &h->devs[i];
			}
	return NULL;
}

static bool cc_param(const struct rctl_cc *cc, const char *name, uint64_t *v)
{
	uint32_t i;

	for (i = 0; i < cc->n_params; i++)
		if (!strcmp(cc->params[i].name, name)) {
			*v = cc->params[i].value;
			return true;
		}
	return false;
}

/* bnxt: ecn_enable applies to roce_prio; derive the per-priority enables. */
static void bnxt_enables(struct rctl_cc *cc)
{
	uint64_t en, prio;

	if (!cc_param(cc, "ecn_enable", &en) || !cc_param(cc, "roce_prio", &prio) ||
	    prio > 7)
		return;
	cc->enable_known = true;
	cc->rp_enable[prio] = en != 0;
	cc->np_enable[prio] = en != 0;
}

/* bnxt_re inbox: debugfs bnxt_re/<pci>/cc_config/ (root; readable under lockdown). */
static int cc_bnxt_debugfs(struct rctl_host *h, struct rctl_netdev *nd)
{
	struct rctl_cc *cc = &nd->cc;
	const struct cc_name *n;
	int ret;

	snprintf(cc->source, sizeof(cc->source), "bnxt_re-debugfs");
	snprintf(cc->path, sizeof(cc->path), "%.80s/bnxt_re/%.40s/cc_config", rctl_debugfs(),
		 nd->pci);
	if (access(cc->path, X_OK)) {
		int err = errno;

		rctl_part_fail(&cc->st, err, err == EACCES ? "needs root (debugfs)" :
			       "no bnxt_re configfs (Broadcom's driver) and no debugfs cc_config "
			       "(inbox bnxt_re before Linux 6.15, or debugfs not mounted)");
		rctl_host_unread(h, err, cc->st.reason, "congestion control of '%s'", nd->name);
		return 1;
	}
	for (n = bnxt_debugfs_names; n->file; n++) {
		ret = cc_add(cc, cc->path, n->file, n->name);
		if (ret && ret != -ENOENT)
			return ret;
	}
	return 0;
}

static int cc_vendor(struct rctl_host *h, struct rctl_netdev *nd,
		     const struct rctl_device *d, uint32_t port)
{
	struct rctl_cc *cc = &nd->cc;
	char top[320], sub[64];
	int ret;

	if (rctl_family_of_driver(d->driver) == RCTL_FAM_BNXT) {
		snprintf(cc->source, sizeof(cc->source), "bnxt_re-configfs");
		snprintf(top, sizeof(top), "%s/bnxt_re", rctl_configfs());
		snprintf(sub, sizeof(sub), "/ports/%u/cc", port);
		if (access(top, F_OK) && nd->pci[0])	/* inbox driver: no configfs */
			return cc_bnxt_debugfs(h, nd);
		ret = access(top, F_OK) ? -ENOENT : cc_configfs(cc, top, d->name, sub, bnxt_names);
		bnxt_enables(cc);
	} else {
		snprintf(cc->source, sizeof(cc->source), "irdma-configfs");
		snprintf(top, sizeof(top), "%s/irdma", rctl_configfs());
		ret = access(top, F_OK) ? -ENOENT : cc_configfs(cc, top, d->name, "", irdma_names);
	}
	if (ret == -ENOENT && !cc->n_params) {
		snprintf(cc->path, sizeof(cc->path), "%.*s", (int)sizeof(cc->path) - 1, top);
		rctl_part_fail(&cc->st, ENOENT, "no congestion-control configfs for the driver");
		rctl_host_unread(h, ENOENT, cc->st.reason, "congestion control of '%s'", nd->name);
		return 1;
	}
	return ret;
}

static int cc_one(struct rctl_host *h, struct rctl_netdev *nd)
{
	const struct rctl_device *d;
	char ecn[PATH_MAX];
	uint32_t port = 1;
	int ret;

	snprintf(ecn, sizeof(ecn), "%s/class/net/%s/ecn", rctl_sysfs(), nd->name);
	d = dev_of_netdev(h, nd->name, &port);
	if (!access(ecn, F_OK))
		ret = cc_ofed(nd, ecn);
	else if (d && rctl_family_of_driver(d->driver) == RCTL_FAM_MLX5 && nd->pci[0])
		ret = cc_debugfs(h, nd);
	else if (d && (rctl_family_of_driver(d->driver) == RCTL_FAM_BNXT ||
		       rctl_family_of_driver(d->driver) == RCTL_FAM_ICE))
		ret = cc_vendor(h, nd, d, port);
	else {
		rctl_part_fail(&nd->cc.st, EOPNOTSUPP, d ?
			       "no congestion-control interface for the driver" :
			       "no RDMA device on the netdev");
		rctl_host_unread(h, EOPNOTSUPP, nd->cc.st.reason,
				 "congestion control of '%s'", nd->name);
		return 0;
	}
	if (ret == -ENOMEM)
		return ret;
	if (ret <= 0)
		cc_done(h, nd, ret);
	return 0;
}

int rctl_cc_collect(struct rctl_host *h, struct rctl_err *e)
{
	uint32_t i;

	for (i = 0; i < h->n_netdevs; i++)
		if (cc_one(h, &h->netdevs[i]))
			return rctl_err_strerror(e, ENOMEM, "cannot read congestion control of '%s'",
					    h->netdevs[i].name);
	return 0;
}
