// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a tune state file may ask revert to write: only what tune itself
 * writes. A state file is root's input to root's writes, so every change is
 * checked on read (op, netdev name, value ranges, and each file against the
 * trees tune writes: the rdma_cm configfs defaults, the MLNX_OFED ECN sysfs
 * and qos/trust, the mlx5 and bnxt_re debugfs CC files, the bnxt_re and
 * irdma configfs CC files) and each file again just before the write, by
 * its real path (no symlink out of the tree). Also the state file itself:
 * its document, written before the first write and loaded by revert, and the
 * scan of the state directory for the newest revertible one.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rocectl/collect.h"
#include "rocectl/json.h"
#include "rocectl/snapshot.h"
#include "rocectl/sysfs.h"
#include "rocectl/tune.h"

#define RCTL_TUNE_STATE_VERSION 1
#define STATE_KIND "rocectl-tune-state"

void rctl_tune_plan_free(struct rctl_tune_plan *p)
{
	free(p->ch);
	p->ch = NULL;
	p->n_ch = 0;
}

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

/* ---- state file ------------------------------------------------------- */

#define F(k, t, m) { .key = k, .type = t, .size = sizeof(((struct rctl_tune_change *)0)->m), \
		     .off = offsetof(struct rctl_tune_change, m) }

static const struct rctl_field change_fields[] = {
	F("area", FT_STR, area),
	F("target", FT_STR, target),
	F("setting", FT_STR, setting),
	F("from", FT_STR, from),
	F("to", FT_STR, to),
	F("via", FT_STR, via),
	F("command", FT_STR, command),
	F("warning", FT_STR, warning),
	F("skip", FT_STR, skip),
	F("needs_force", FT_BOOL, needs_force),
	F("op", FT_STR, op),
	F("ifname", FT_STR, ifname),
	F("driver", FT_STR, driver),
	F("old_val", FT_U32, old_val),
	F("new_val", FT_U32, new_val),
	F("pfc_cap", FT_U32, pfc_cap),
	F("pfc_mbc", FT_U32, pfc_mbc),
	F("pfc_delay", FT_U32, pfc_delay),
	F("old_prio_tc", FT_U8V, old_prio_tc),
	F("new_prio_tc", FT_U8V, new_prio_tc),
	F("tc_tsa", FT_U8V, tc_tsa),
	F("tc_tx_bw", FT_U8V, tc_tx_bw),
	F("ets_willing", FT_U32, ets_willing),
	F("app_selector", FT_U32, app_selector),
	F("app_protocol", FT_U32, app_protocol),
	F("app_prio", FT_U32, app_prio),
	F("path", FT_STR, path),
	F("mkdir", FT_STR, mkdir),
	F("commit", FT_STR, commit),
	F("old_text", FT_STR, old_text),
	F("new_text", FT_STR, new_text),
	F("status", FT_STR, status),
	F("result", FT_STR, result),
	{ 0 }
};
#undef F

static const struct rctl_schema change_schema = {
	"change", sizeof(struct rctl_tune_change), change_fields
};

static const struct rctl_field plan_fields[] = {
	{ .key = "changes", .type = FT_ARR, .sub = &change_schema,
	  .off = offsetof(struct rctl_tune_plan, ch),
	  .count_off = offsetof(struct rctl_tune_plan, n_ch) },
	{ 0 }
};

static const struct rctl_schema plan_schema = {
	"plan", sizeof(struct rctl_tune_plan), plan_fields
};

char *rctl_tune_state_text(const struct rctl_tune_plan *p, const char *status)
{
	cJSON *doc = cJSON_CreateObject(), *plan;
	char host[RCTL_NAME_LEN] = "";
	char *s;

	gethostname(host, sizeof(host) - 1);
	cJSON_AddNumberToObject(doc, "schema_version", RCTL_TUNE_STATE_VERSION);
	cJSON_AddStringToObject(doc, "kind", STATE_KIND);
	cJSON_AddStringToObject(doc, "status", status);
	cJSON_AddStringToObject(doc, "hostname", host);
	cJSON_AddNumberToObject(doc, "time", (double)time(NULL));
	plan = rctl_schema_to_json(&plan_schema, p);
	cJSON_AddItemReferenceToObject(doc, "changes",
				       cJSON_GetObjectItemCaseSensitive(plan, "changes"));
	s = cJSON_Print(doc);
	cJSON_Delete(doc);
	cJSON_Delete(plan);
	return s;
}

int rctl_tune_state_parse(const char *text, const char *name,
			  struct rctl_tune_plan *p, char *status, size_t len,
			  struct rctl_err *e)
{
	const cJSON *ver, *kind, *st;
	cJSON *doc;
	uint32_t i;
	int ret;

	memset(p, 0, sizeof(*p));
	if ((ret = rctl_json_read(text, strlen(text), "state file", name, &doc, e)))
		return ret;
	ver = cJSON_GetObjectItemCaseSensitive(doc, "schema_version");
	kind = cJSON_GetObjectItemCaseSensitive(doc, "kind");
	st = cJSON_GetObjectItemCaseSensitive(doc, "status");
	if (!cJSON_IsNumber(ver) || ver->valuedouble != RCTL_TUNE_STATE_VERSION ||
	    !cJSON_IsString(kind) || strcmp(kind->valuestring, STATE_KIND) ||
	    !cJSON_IsString(st)) {
		cJSON_Delete(doc);
		return rctl_err_msg(e, EINVAL, "cannot read state file '%s': not a rocectl tune state (version %d)",
				    name, RCTL_TUNE_STATE_VERSION);
	}
	snprintf(status, len, "%s", st->valuestring);
	ret = rctl_schema_from_json(&plan_schema, doc, p, name, e);
	cJSON_Delete(doc);
	for (i = 0; !ret && i < p->n_ch; i++)
		ret = rctl_tune_change_check(&p->ch[i], name, i, e);
	if (ret)
		rctl_tune_plan_free(p);
	return ret;
}

static int mkdir_p(const char *dir, struct rctl_err *e)
{
	char buf[PATH_MAX], *s;

	if (snprintf(buf, sizeof(buf), "%s", dir) >= (int)sizeof(buf))
		return rctl_err_set(e, ENAMETOOLONG, "cannot create '%s'", dir);
	for (s = buf + 1; ; s++) {
		if (*s && *s != '/')
			continue;
		char c = *s;

		*s = '\0';
		if (mkdir(buf, 0700) && errno != EEXIST)
			return rctl_err_set(e, errno, "cannot create state directory '%s'", buf);
		if (!c)
			return 0;
		*s = c;
	}
}

/* Write "path" atomically: a temporary file, fsync, rename. */
int rctl_tune_state_write(const char *path, const struct rctl_tune_plan *p,
			  const char *status, struct rctl_err *e)
{
	char tmp[PATH_MAX], *text = rctl_tune_state_text(p, status);
	size_t len = text ? strlen(text) : 0;
	int fd, ret = 0;

	if (!text)
		return rctl_err_set(e, ENOMEM, "cannot write state file '%s'", path);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = -errno;
	} else {
		if (write(fd, text, len) != (ssize_t)len || write(fd, "\n", 1) != 1 ||
		    fsync(fd))
			ret = errno ? -errno : -EIO;
		if (close(fd) && !ret)
			ret = -errno;
		if (!ret && rename(tmp, path))
			ret = -errno;
		if (ret)
			unlink(tmp);
	}
	free(text);
	if (ret)
		rctl_err_set(e, ret, "cannot write state file '%s'", path);
	return ret;
}

/* tune-20261130T101502.123456789Z.json: names sort in time order. */
int rctl_tune_state_create(const struct rctl_tune_plan *p, const char *dir,
			   char *path, size_t len, struct rctl_err *e)
{
	struct timespec ts;
	struct tm tm;
	char stamp[32];
	int ret;

	ret = mkdir_p(dir, e);
	if (ret)
		return ret;
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", &tm);
	if (snprintf(path, len, "%s/tune-%s.%09ldZ.json", dir, stamp, ts.tv_nsec) >= (int)len)
		return rctl_err_set(e, ENAMETOOLONG, "cannot write state file in '%s'", dir);
	if (!access(path, F_OK))
		return rctl_err_set(e, EEXIST, "cannot write state file '%s'", path);
	return rctl_tune_state_write(path, p, "pending", e);
}

/*
 * Revert writes as root what the state file says: it must be a regular file
 * of root (or of the user running rocectl) that nobody else can write.
 */
static int state_trusted(FILE *f, const char *path, struct rctl_err *e)
{
	struct stat st;

	if (fstat(fileno(f), &st))
		return rctl_err_set(e, errno, "cannot read state file '%s'", path);
	if (S_ISDIR(st.st_mode))
		return rctl_err_msg(e, EISDIR, "cannot read state file '%s': it is a directory", path);
	if (!S_ISREG(st.st_mode))
		return rctl_err_msg(e, EINVAL, "cannot read state file '%s': not a regular file", path);
	if (st.st_uid != 0 && st.st_uid != geteuid())
		return rctl_err_msg(e, EPERM, "refusing state file '%s': owned by uid %u, "
				    "not root", path, (unsigned int)st.st_uid);
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return rctl_err_msg(e, EPERM, "refusing state file '%s': writable by group "
				    "or others (mode %04o)", path, (unsigned int)(st.st_mode & 07777));
	return 0;
}

int rctl_tune_state_load(const char *path, struct rctl_tune_plan *p, char *status,
			 size_t slen, struct rctl_err *e)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;
	int ret;

	memset(p, 0, sizeof(*p));
	if (!f)
		return rctl_err_set(e, errno, "cannot open state file '%s'", path);
	ret = state_trusted(f, path, e);
	if (ret) {
		fclose(f);
		return ret;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	if (n < 0 || n > (8L << 20)) {
		fclose(f);
		return rctl_err_msg(e, EFBIG, "cannot read state file '%s': too large", path);
	}
	buf = malloc(n + 1);
	if (!buf || fread(buf, 1, n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		return rctl_err_msg(e, EIO, "cannot read state file '%s'", path);
	}
	fclose(f);
	buf[n] = '\0';
	ret = rctl_tune_state_parse(buf, path, p, status, slen, e);
	free(buf);
	return ret;
}

/* ---- the state directory ---------------------------------------------- */

static int cmp_desc(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*b)->d_name, (*a)->d_name);
}

static int is_state(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return !strncmp(d->d_name, "tune-", 5) && n > 10 &&
	       !strcmp(d->d_name + n - 5, ".json");
}

/* Applied, partly applied or not fully rolled back: something to put back. */
static bool revertible(const char *status)
{
	return !strcmp(status, "applied") || !strcmp(status, "pending") ||
	       !strcmp(status, "rollback-failed");
}

int rctl_tune_newest_state(const char *dir, char *path, size_t len,
			   struct rctl_err *e)
{
	struct rctl_tune_plan p;
	struct rctl_err le = { 0 };
	struct dirent **names;
	char status[32];
	int n, i, found = 0;

	n = scandir(dir, &names, is_state, cmp_desc);
	if (n < 0)
		return rctl_err_set(e, errno, "cannot read state directory '%s'", dir);
	for (i = 0; i < n; i++) {
		if (!found) {
			snprintf(path, len, "%s/%s", dir, names[i]->d_name);
			if (!rctl_tune_state_load(path, &p, status, sizeof(status), &le)) {
				found = revertible(status);
				rctl_tune_plan_free(&p);
			}
		}
		free(names[i]);
	}
	free(names);
	if (!found)
		return rctl_err_msg(e, ENOENT, "no applied tune state file in '%s'", dir);
	return 0;
}
