// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a tune state file may ask revert to write: only what tune itself
 * writes. A state file is root's input to root's writes, so every change is
 * checked on read (op, netdev name, value ranges, and each file against the
 * trees tune writes: the rdma_cm configfs defaults, the MLNX_OFED ECN sysfs
 * and qos/trust, the mlx5 and bnxt_re debugfs CC files, the bnxt_re and
 * irdma configfs CC files) and each file again just before the write, by
 * its real path (no symlink out of the tree).
 */
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/collect.h"
#include "rocectl/sysfs.h"
#include "rocectl/tune.h"

/* The one table of op names, as the state file and the plan write them. */
static const char *const op_names[] = {
#define X(id, s) [RCTL_TUNE_##id] = s,
	RCTL_TUNE_OPS(X)
#undef X
};

const char *rctl_tune_op_name(enum rctl_tune_op op)
{
	return op < RCTL_TUNE_N_OPS ? op_names[op] : NULL;
}

enum rctl_tune_op rctl_tune_op_of(const struct rctl_tune_change *c)
{
	int i;

	for (i = 0; i < RCTL_TUNE_N_OPS; i++)
		if (!strcmp(c->op, op_names[i]))
			return i;
	return RCTL_TUNE_N_OPS;
}

enum root { ROOT_SYSFS, ROOT_DEBUGFS, ROOT_CONFIGFS };

struct allowed {
	enum root root;
	const char *pattern;	/* fnmatch(FNM_PATHNAME) below the root */
};

/* Files a WRITE change may name ("path", and "commit" for bnxt_re). */
static const struct allowed files[] = {
	{ ROOT_CONFIGFS, "rdma_cm/*/ports/*/default_roce_mode" },
	{ ROOT_CONFIGFS, "rdma_cm/*/ports/*/default_roce_tos" },
	{ ROOT_SYSFS, "class/net/*/ecn/roce_[rn]p/enable/[0-7]" },
	{ ROOT_SYSFS, "class/net/*/ecn/roce_[rn]p/*" },
	{ ROOT_SYSFS, "class/net/*/ecn/roce_[rn]p/params/*" },
	{ ROOT_SYSFS, "class/net/*/qos/trust" },
	{ ROOT_DEBUGFS, "mlx5/*/cc_params/*" },
	{ ROOT_DEBUGFS, "bnxt_re/*/cc_config/*" },
	{ ROOT_DEBUGFS, "bnxt_re/*/cc_config/*/*" },
	{ ROOT_CONFIGFS, "bnxt_re/*/ports/*/cc/*" },
	{ ROOT_CONFIGFS, "irdma/*/*" },
	{ 0 }
};

/* Directories a WRITE change may create and remove ("mkdir"). */
static const struct allowed dirs[] = {
	{ ROOT_CONFIGFS, "rdma_cm/*" },
	{ ROOT_CONFIGFS, "bnxt_re/*" },
	{ ROOT_CONFIGFS, "irdma/*" },
	{ 0 }
};

static const char *root_path(enum root r)
{
	switch (r) {
	case ROOT_SYSFS: return rctl_sysfs();
	case ROOT_DEBUGFS: return rctl_debugfs();
	default: return rctl_configfs();
	}
}

/* Every component a plain name: no "", ".", "..", nothing but [A-Za-z0-9_.:-]. */
static bool plain_rel(const char *rel)
{
	const char *c = rel;
	size_t n;

	for (;;) {
		n = strspn(c, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			   "0123456789_.:-");
		if (!n || (n == 1 && c[0] == '.') || (n == 2 && !strncmp(c, "..", 2)))
			return false;
		if (c[n] == '\0')
			return true;
		if (c[n] != '/')
			return false;
		c += n + 1;
	}
}

/* The part of "path" below "root", or NULL when it is not below it. */
static const char *below(const char *path, const char *root)
{
	size_t n = strlen(root);

	while (n > 1 && root[n - 1] == '/')
		n--;
	if (strncmp(path, root, n) || path[n] != '/')
		return NULL;
	return path + n + 1;
}

static bool allowed_path(const char *path, const struct allowed *tab)
{
	const char *rel;
	size_t i;

	for (i = 0; tab[i].pattern; i++) {
		rel = below(path, root_path(tab[i].root));
		if (rel && plain_rel(rel) && !fnmatch(tab[i].pattern, rel, FNM_PATHNAME))
			return true;
	}
	return false;
}

/* A netdev name as the kernel accepts it (dev_valid_name()). */
static bool valid_ifname(const char *s)
{
	size_t n = strlen(s), i;

	if (!n || n >= 16 || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (i = 0; i < n; i++)
		if (s[i] == '/' || s[i] == ':' || s[i] <= ' ' || s[i] == 0x7f)
			return false;
	return true;
}

/* File contents: one line of printable ASCII, not empty. */
static bool valid_text(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < ' ' || *s > '~')
			return false;
	return true;
}

static int bad(struct rctl_err *e, const char *name, uint32_t i, const char *what,
	       const char *val)
{
	return rctl_err_msg(e, EINVAL, "cannot read state file '%s': change %u: %s '%.80s'",
			    name, i + 1, what, val);
}

static int check_write(const struct rctl_tune_change *c, const char *name,
		       uint32_t i, struct rctl_err *e)
{
	if (!allowed_path(c->path, files))
		return bad(e, name, i, "not a file tune writes:", c->path);
	if (c->commit[0] && !allowed_path(c->commit, files))
		return bad(e, name, i, "not a file tune writes:", c->commit);
	if (c->mkdir[0] && (!allowed_path(c->mkdir, dirs) ||
			    strncmp(c->path, c->mkdir, strlen(c->mkdir)) ||
			    c->path[strlen(c->mkdir)] != '/'))
		return bad(e, name, i, "not a directory tune creates:", c->mkdir);
	if (!valid_text(c->old_text))
		return bad(e, name, i, "empty or unprintable old_text", c->old_text);
	if (!valid_text(c->new_text))
		return bad(e, name, i, "empty or unprintable new_text", c->new_text);
	return 0;
}

static int check_netdev_op(const struct rctl_tune_change *c, enum rctl_tune_op op,
			   const char *name, uint32_t i, struct rctl_err *e)
{
	if (!valid_ifname(c->ifname))
		return bad(e, name, i, "not a netdev name: ifname", c->ifname);
	if ((op == RCTL_TUNE_PAUSE && (c->old_val > 7 || c->new_val > 7)) ||
	    (op == RCTL_TUNE_PFC && (c->old_val > 0xff || c->new_val > 0xff)))
		return bad(e, name, i, "value out of range for op", c->op);
	if ((op == RCTL_TUNE_APP_ADD || op == RCTL_TUNE_APP_DEL) &&
	    (c->app_selector > 255 || c->app_protocol > 0xffff || c->app_prio > 7))
		return bad(e, name, i, "APP entry out of range for op", c->op);
	return 0;
}

bool rctl_tune_change_written(const struct rctl_tune_change *c)
{
	return !strcmp(c->status, RCTL_TUNE_APPLIED) ||
	       !strcmp(c->status, RCTL_TUNE_PENDING) ||
	       !strcmp(c->status, RCTL_TUNE_UNDO_FAILED);
}

int rctl_tune_change_check(const struct rctl_tune_change *c, const char *name,
			   uint32_t i, struct rctl_err *e)
{
	enum rctl_tune_op op = rctl_tune_op_of(c);

	/* A skipped change may have no op (nothing could be read to plan it). */
	if (op == RCTL_TUNE_N_OPS && (c->op[0] || !c->skip[0]))
		return bad(e, name, i, "unknown op", c->op);
	if (!rctl_tune_change_written(c))
		return 0;
	/* Apply never writes a skipped change, so revert has nothing to undo. */
	if (c->skip[0])
		return bad(e, name, i, "skipped change marked", c->status);
	/* They name the change in every message: "cannot set  of '' ()". */
	if (!c->target[0] || !c->setting[0])
		return bad(e, name, i, "empty target or setting for op", c->op);
	if (op == RCTL_TUNE_WRITE)
		return check_write(c, name, i, e);
	return check_netdev_op(c, op, name, i, e);
}

/*
 * Just before a write: the real path of "path" (or of its directory when
 * the file is to be created) is still inside the tree it was allowed in.
 */
int rctl_tune_path_check(const char *path, bool dir, struct rctl_err *e)
{
	char real[PATH_MAX], parent[PATH_MAX], *slash;
	const struct allowed *tab = dir ? dirs : files;
	size_t i;

	snprintf(parent, sizeof(parent), "%s", path);
	slash = strrchr(parent, '/');
	if (!slash)
		return rctl_err_msg(e, EPERM, "refusing to write '%s': not a path tune writes", path);
	*slash = '\0';
	if (!realpath(parent, real))
		return rctl_err_set(e, errno, "cannot resolve '%s'", parent);
	for (i = 0; tab[i].pattern; i++) {
		char root[PATH_MAX];

		if (realpath(root_path(tab[i].root), root) && below(real, root))
			return 0;
	}
	return rctl_err_msg(e, EPERM, "refusing to write '%s': it resolves to '%s', "
			    "outside the trees tune writes", path, real);
}
