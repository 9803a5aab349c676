// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a tune state file may ask revert to write: only what tune itself
 * writes. A state file is root's input to root's writes, so every change is
 * checked on read (op, netdev name, value ranges, and each file against the
 * trees tune writes: the rdma_cm configfs defaults, the MLNX_OFED ECN sysfs
 * and qos/trust, the mlx5 and bnxt_re debugfs CC files, the bnxt_re and
 * irdma configfs CC files) and each file again just before the write, by
 * its real path (no symlink out of the tree). Also the state file's
 * document; lib/tune_store.c keeps it on disk.
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
#include "rocectl/schema.h"
#include "rocectl/sysfs.h"
#include "rocectl/tune_state.h"

#define RCTL_TUNE_STATE_VERSION 1
#define STATE_KIND "rocectl-tune-state"

void rctl_tune_plan_free(struct rctl_tune_plan *p)
{
	uint32_t i;

	for (i = 0; p->ch && i < p->n_ch; i++)
		free(p->ch[i].cm);
	free(p->ch);
	p->ch = NULL;
	p->n_ch = 0;
}

/* The one table of op names, and of status names, as the state file keeps them. */
static const char *const op_names[RCTL_TUNE_N_OPS] = {
	[RCTL_TUNE_OP_NONE] = "",
#define X(id, s) [RCTL_TUNE_##id] = s,
	RCTL_TUNE_OPS(X)
#undef X
};

static const char *const status_names[RCTL_TUNE_N_STATUS] = {
#define X(id, s) [RCTL_TUNE_##id] = s,
	RCTL_TUNE_STATUSES(X)
#undef X
};

const char *rctl_tune_op_name(enum rctl_tune_op op)
{
	return op < RCTL_TUNE_N_OPS ? op_names[op] : NULL;
}

const char *rctl_tune_status_name(enum rctl_tune_status st)
{
	return st < RCTL_TUNE_N_STATUS ? status_names[st] : NULL;
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

/* Whose change: a state file's, or a reviewed plan's (tune apply --plan). */
struct doc {
	const char *kind;	/* "state file", "plan" */
	const char *name;
};

static int bad(struct rctl_err *e, const struct doc *d, uint32_t i, const char *what,
	       const char *val)
{
	return rctl_err_plain(e, EINVAL, "cannot read %s '%s': change %u: %s '%.80s'",
			    d->kind, d->name, i + 1, what, val);
}

static int check_write(const struct rctl_tune_change *c, const struct doc *name,
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

/*
 * An APP entry as dcbnl carries it (struct dcb_app, include/uapi/linux/
 * dcbnl.h): a selector of IEEE 802.1Qaz (1 ethertype to 5 DSCP, a u8 on the
 * wire: 261 would go out as 5), a protocol that fits it (a DSCP is 6 bits),
 * a priority 0-7; app-set's old priority too, unless there was none.
 */
static bool app_ok(const struct rctl_tune_change *c, enum rctl_tune_op op)
{
	if (c->app_selector < 1 || c->app_selector > 5 || c->app_prio > 7 ||
	    c->app_protocol > (c->app_selector == 5 ? 63u : 0xffffu))
		return false;
	return op != RCTL_TUNE_APP_SET || c->old_val <= 7 || c->old_val == RCTL_APP_NONE;
}

/*
 * ETS as dcbnl's struct ieee_ets: each priority to one of 8 TCs, each TC's
 * TSA strict (0), CBS (1), ETS (2) or vendor (255), its bandwidth a percent.
 */
static bool ets_ok(const struct rctl_tune_change *c)
{
	unsigned int i;

	if (c->ets_willing > 1)
		return false;
	for (i = 0; i < 8; i++)
		if (c->old_prio_tc[i] > 7 || c->new_prio_tc[i] > 7 || c->tc_tx_bw[i] > 100 ||
		    (c->tc_tsa[i] > 2 && c->tc_tsa[i] != 255))
			return false;
	return true;
}

static int check_netdev_op(const struct rctl_tune_change *c, enum rctl_tune_op op,
			   const struct doc *name, uint32_t i, struct rctl_err *e)
{
	bool app = op == RCTL_TUNE_APP_ADD || op == RCTL_TUNE_APP_DEL || op == RCTL_TUNE_APP_SET;

	if (!valid_ifname(c->ifname))
		return bad(e, name, i, "not a netdev name: ifname", c->ifname);
	if ((op == RCTL_TUNE_PAUSE && (c->old_val > 7 || c->new_val > 7)) ||
	    (op == RCTL_TUNE_PFC && (c->old_val > 0xff || c->new_val > 0xff)))
		return bad(e, name, i, "value out of range for op", rctl_tune_op_name(op));
	if (app && !app_ok(c, op))
		return bad(e, name, i, "APP entry out of range for op", rctl_tune_op_name(op));
	if (op == RCTL_TUNE_ETS && !ets_ok(c))
		return bad(e, name, i, "prio_tc, tc_tsa, tc_tx_bw or ets_willing out of range for op",
			   rctl_tune_op_name(op));
	return 0;
}

bool rctl_tune_change_written(const struct rctl_tune_change *c)
{
	return c->status == RCTL_TUNE_APPLIED || c->status == RCTL_TUNE_IN_PROGRESS ||
	       c->status == RCTL_TUNE_UNDO_FAILED || c->status == RCTL_TUNE_REVERT_FAILED;
}

/* A change that will be written (or written back): it names only what tune writes. */
static int check_writes(const struct rctl_tune_change *c, const struct doc *d,
			uint32_t i, struct rctl_err *e)
{
	/* Apply never writes a skipped change, so revert has nothing to undo. */
	if (c->skip[0])
		return bad(e, d, i, "skipped change marked", rctl_tune_status_name(c->status));
	/* They name the change in every message: "cannot set  of '' ()". */
	if (!c->target[0] || !c->setting[0])
		return bad(e, d, i, "empty target or setting for op", rctl_tune_op_name(c->op));
	if (c->op == RCTL_TUNE_WRITE)
		return check_write(c, d, i, e);
	return check_netdev_op(c, c->op, d, i, e);
}

/* A skipped change may have no op (nothing could be read to plan it). */
static int check_op(const struct rctl_tune_change *c, const struct doc *d, uint32_t i,
		    struct rctl_err *e)
{
	if (c->op >= RCTL_TUNE_N_OPS || (c->op == RCTL_TUNE_OP_NONE && !c->skip[0]))
		return bad(e, d, i, "unknown op", rctl_tune_op_name(c->op) ?: "?");
	return 0;
}

int rctl_tune_change_check(const struct rctl_tune_change *c, const char *name,
			   uint32_t i, struct rctl_err *e)
{
	const struct doc d = { "state file", name };
	int ret = check_op(c, &d, i, e);

	if (ret || !rctl_tune_change_written(c))
		return ret;
	return check_writes(c, &d, i, e);
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
		return rctl_err_plain(e, EPERM, "refusing to write '%s': not a path tune writes", path);
	*slash = '\0';
	if (!realpath(parent, real))
		return rctl_err_strerror(e, errno, "cannot resolve '%s'", parent);
	for (i = 0; tab[i].pattern; i++) {
		char root[PATH_MAX];

		if (realpath(root_path(tab[i].root), root) && below(real, root))
			return 0;
	}
	return rctl_err_plain(e, EPERM, "refusing to write '%s': it resolves to '%s', "
			    "outside the trees tune writes", path, real);
}

/* ---- state file ------------------------------------------------------- */

#define F(k, t, m) { .key = k, .type = t, .size = sizeof(((struct rctl_tune_change *)0)->m), \
		     .off = offsetof(struct rctl_tune_change, m) }
#define FE(k, m, tab, n) { .key = k, .type = FT_ENUM, .names = tab, .n_names = n, \
			   .off = offsetof(struct rctl_tune_change, m) }

static const struct rctl_field cm_fields[] = {
	{ .key = "device", .type = FT_STR, .size = RCTL_NAME_LEN,
	  .off = offsetof(struct rctl_tune_cm, dev) },
	{ .key = "port", .type = FT_U32, .off = offsetof(struct rctl_tune_cm, port) },
	{ .key = "id", .type = FT_U32, .off = offsetof(struct rctl_tune_cm, id) },
	{ .key = "pid", .type = FT_U32, .off = offsetof(struct rctl_tune_cm, pid) },
	{ .key = "owner", .type = FT_STR, .size = RCTL_NAME_LEN,
	  .off = offsetof(struct rctl_tune_cm, owner) },
	{ .key = "src", .type = FT_STR, .size = RCTL_ENDPOINT_LEN,
	  .off = offsetof(struct rctl_tune_cm, src) },
	{ .key = "dst", .type = FT_STR, .size = RCTL_ENDPOINT_LEN,
	  .off = offsetof(struct rctl_tune_cm, dst) },
	{ 0 }
};

static const struct rctl_schema cm_schema = {
	"rdma_cm connection", sizeof(struct rctl_tune_cm), cm_fields
};

/* Fields a state file of an older rocectl lacks read as zero: no time, no connection. */
static const struct rctl_field change_fields[] = {
	FE("area", area, rctl_area_names, RCTL_AREA_N),
	F("target", FT_STR, target),
	F("setting", FT_STR, setting),
	F("from", FT_STR, from),
	F("to", FT_STR, to),
	F("via", FT_STR, via),
	F("command", FT_STR, command),
	F("warning", FT_STR, warning),
	F("skip", FT_STR, skip),
	F("held", FT_BOOL, held),
	F("needs_force", FT_BOOL, needs_force),
	FE("op", op, op_names, RCTL_TUNE_N_OPS),
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
	FE("status", status, status_names, RCTL_TUNE_N_STATUS),
	F("result", FT_STR, result),
	F("applied_at", FT_U64, applied_at),
	{ .key = "rdma_cm_connections", .type = FT_ARR, .sub = &cm_schema,
	  .off = offsetof(struct rctl_tune_change, cm),
	  .count_off = offsetof(struct rctl_tune_change, n_cm) },
	{ 0 }
};
#undef F
#undef FE

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

char *rctl_tune_state_text(const struct rctl_tune_plan *p, enum rctl_tune_status status)
{
	cJSON *doc = cJSON_CreateObject(), *plan;
	char host[RCTL_NAME_LEN] = "";
	char *s;

	gethostname(host, sizeof(host) - 1);
	cJSON_AddNumberToObject(doc, "schema_version", RCTL_TUNE_STATE_VERSION);
	cJSON_AddStringToObject(doc, "kind", STATE_KIND);
	cJSON_AddStringToObject(doc, "status", rctl_tune_status_name(status));
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

static int status_of(const char *name, enum rctl_tune_status *st)
{
	int i;

	for (i = 0; i < RCTL_TUNE_N_STATUS; i++)
		if (!strcmp(status_names[i], name)) {
			*st = i;
			return 0;
		}
	return -EINVAL;
}

int rctl_tune_state_parse(const char *text, const char *name,
			  struct rctl_tune_plan *p, enum rctl_tune_status *status,
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
	    !cJSON_IsString(st) || status_of(st->valuestring, status)) {
		cJSON_Delete(doc);
		return rctl_err_plain(e, EINVAL, "cannot read state file '%s': not a rocectl tune state (version %d)",
				    name, RCTL_TUNE_STATE_VERSION);
	}
	ret = rctl_schema_from_json(&plan_schema, doc, p, name, e);
	cJSON_Delete(doc);
	for (i = 0; !ret && i < p->n_ch; i++)
		ret = rctl_tune_change_check(&p->ch[i], name, i, e);
	if (ret)
		rctl_tune_plan_free(p);
	return ret;
}

/* ---- what a state file says of the rdma_cm connections ---------------- */

static bool same_cm(const struct rctl_tune_cm *k, const struct rctl_res_entry *e)
{
	return k->id == e->id && k->port == e->port && k->pid == e->pid &&
	       !strcmp(k->dev, e->dev) && !strcmp(k->src, e->src) && !strcmp(k->dst, e->dst) &&
	       (k->pid || !strcmp(k->owner, e->owner));
}

/* Mark the cm_ids of h that change c recorded; how many. */
static uint32_t mark_live(struct rctl_host *h, const struct rctl_tune_change *c)
{
	struct rctl_rdma_res *r = &h->res;
	uint32_t i, k, n = 0;

	for (i = 0; i < r->n_list; i++) {
		struct rctl_res_entry *e = &r->list[i];

		if (strcmp(e->kind, "cm_id"))
			continue;
		for (k = 0; k < c->n_cm && !e->made_before_tune; k++)
			if (same_cm(&c->cm[k], e)) {
				e->made_before_tune = true;
				n++;
			}
	}
	return n;
}

/* "rxe0/1" into dev and port; false when it is not that. */
static bool dev_port(const char *target, char *dev, size_t len, uint32_t *port)
{
	const char *slash = strrchr(target, '/');
	char *end;

	if (!slash || slash == target || (size_t)(slash - target) >= len)
		return false;
	snprintf(dev, len, "%.*s", (int)(slash - target), target);
	*port = (uint32_t)strtoul(slash + 1, &end, 10);
	return !*end && *port;
}

int rctl_tune_mark_cm(struct rctl_host *h, const struct rctl_tune_plan *p, const char *name)
{
	struct rctl_tos_change *t;
	uint32_t i;

	for (i = 0; i < p->n_ch; i++) {
		const struct rctl_tune_change *c = &p->ch[i];
		char dev[RCTL_NAME_LEN];
		uint32_t port;

		/* a state file of an older rocectl kept no connection and no time: nothing known */
		if (c->status != RCTL_TUNE_APPLIED || strcmp(c->setting, RCTL_CM_TOS_FILE) ||
		    !c->applied_at || !dev_port(c->target, dev, sizeof(dev), &port))
			continue;
		t = rctl_arr_push(&h->res.tos_changes, &h->res.n_tos_changes, sizeof(*t));
		if (!t)
			return -ENOMEM;
		snprintf(t->dev, sizeof(t->dev), "%s", dev);
		t->port = port;
		t->time = c->applied_at;
		t->old_tos = (uint32_t)strtoul(c->old_text, NULL, 0);
		t->new_tos = (uint32_t)strtoul(c->new_text, NULL, 0);
		t->n_before = c->n_cm;
		t->n_live = mark_live(h, c);
		snprintf(t->state, sizeof(t->state), "%s", name);
	}
	return 0;
}

/* ---- a reviewed plan -------------------------------------------------- */

#define PLAN_MAX (4u << 20)
#define DIGEST_PARTS_MAX 4096u

void rctl_tune_digest_free(struct rctl_tune_digest *d)
{
	free(d->parts);
	d->parts = NULL;
	d->n = 0;
}

/* FNV-1a, 64 bits: a change detector over canonical text, not a MAC. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--)
		h = (h ^ *b++) * 0x100000001b3ull;
	return h;
}

uint64_t rctl_tune_digest_all(const struct rctl_tune_digest *d)
{
	uint64_t h = 0xcbf29ce484222325ull;
	char line[sizeof(d->parts[0].part) + 24];
	uint32_t i;
	int n;

	for (i = 0; i < d->n; i++) {
		n = snprintf(line, sizeof(line), "%s=%016llx\n", d->parts[i].part,
			     (unsigned long long)d->parts[i].hash);
		h = fnv(h, line, (size_t)n);
	}
	return h;
}

void rctl_tune_reviewed_free(struct rctl_tune_reviewed *r)
{
	rctl_tune_plan_free(&r->plan);
	rctl_tune_digest_free(&r->digest);
}

cJSON *rctl_tune_change_json(const struct rctl_tune_change *c)
{
	return rctl_schema_to_json(&change_schema, c);
}

static cJSON *hex64(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%016llx", (unsigned long long)v);
	return cJSON_CreateString(buf);
}

cJSON *rctl_tune_digest_json(const struct rctl_tune_digest *d)
{
	cJSON *o = cJSON_CreateObject(), *a = cJSON_CreateArray(), *p;
	uint32_t i;

	cJSON_AddItemToObject(o, "all", hex64(rctl_tune_digest_all(d)));
	for (i = 0; i < d->n; i++) {
		p = cJSON_CreateObject();
		cJSON_AddStringToObject(p, "part", d->parts[i].part);
		cJSON_AddItemToObject(p, "hash", hex64(d->parts[i].hash));
		cJSON_AddItemToArray(a, p);
	}
	cJSON_AddItemToObject(o, "parts", a);
	return o;
}

/* 16 lowercase hex digits, as hex64() writes them. */
static bool hex64_parse(const cJSON *j, uint64_t *v)
{
	const char *s = cJSON_GetStringValue(j);

	if (!s || strlen(s) != 16 || strspn(s, "0123456789abcdef") != 16)
		return false;
	*v = strtoull(s, NULL, 16);
	return true;
}

static int not_plan(struct rctl_err *e, const char *name, const char *why)
{
	return rctl_err_plain(e, EINVAL, "cannot read plan '%s': %s", name, why);
}

static int digest_from_json(const cJSON *j, struct rctl_tune_digest *d, const char *name,
			    struct rctl_err *e)
{
	const cJSON *parts = cJSON_GetObjectItemCaseSensitive(j, "parts"), *it, *k;
	struct rctl_tune_digest_part *p;
	uint64_t all;

	if (!cJSON_IsObject(j) || !cJSON_IsArray(parts) ||
	    !hex64_parse(cJSON_GetObjectItemCaseSensitive(j, "all"), &all))
		return not_plan(e, name, "no digest of what it read ('digest': 'all' and 'parts')");
	if ((unsigned int)cJSON_GetArraySize(parts) > DIGEST_PARTS_MAX)
		return not_plan(e, name, "more digest parts than a host has");
	cJSON_ArrayForEach(it, parts) {
		k = cJSON_GetObjectItemCaseSensitive(it, "part");
		p = rctl_arr_push(&d->parts, &d->n, sizeof(*p));
		if (!p)
			return rctl_err_strerror(e, ENOMEM, "cannot read plan '%s'", name);
		if (!cJSON_IsString(k) || !k->valuestring[0] ||
		    strlen(k->valuestring) >= sizeof(p->part) ||
		    !hex64_parse(cJSON_GetObjectItemCaseSensitive(it, "hash"), &p->hash))
			return not_plan(e, name, "a digest part is not {\"part\", \"hash\"}");
		strcpy(p->part, k->valuestring);
	}
	if (rctl_tune_digest_all(d) != all)
		return not_plan(e, name, "its digest does not match its parts (edited or truncated)");
	return 0;
}

/* "to_apply" and "skipped" as the plan wrote them: a cut or edited list is refused. */
static int plan_counts(const cJSON *doc, const struct rctl_tune_plan *p, const char *name,
		       struct rctl_err *e)
{
	const cJSON *ta = cJSON_GetObjectItemCaseSensitive(doc, "to_apply");
	const cJSON *sk = cJSON_GetObjectItemCaseSensitive(doc, "skipped");
	uint32_t active = 0, i;
	char why[160];

	for (i = 0; i < p->n_ch; i++)
		active += !p->ch[i].skip[0];
	if (!cJSON_IsNumber(ta) || !cJSON_IsNumber(sk))
		return not_plan(e, name, "no 'to_apply' and 'skipped' counts");
	if (ta->valuedouble != active || sk->valuedouble != p->n_ch - active) {
		snprintf(why, sizeof(why), "it lists %u changes to apply and %u skipped, "
			 "but says %.0f and %.0f (truncated or edited)", active, p->n_ch - active,
			 ta->valuedouble, sk->valuedouble);
		return not_plan(e, name, why);
	}
	return 0;
}

/* A plan's change: no outcome yet, and what apply would write is tune's own. */
static int plan_change_check(const struct rctl_tune_change *c, const char *name, uint32_t i,
			     struct rctl_err *e)
{
	const struct doc d = { "plan", name };
	int ret = check_op(c, &d, i, e);

	if (ret)
		return ret;
	if (c->status != RCTL_TUNE_STATUS_NONE || c->result[0])
		return bad(e, &d, i, "has an outcome, as a state file's change:",
			   rctl_tune_status_name(c->status));
	return c->skip[0] ? 0 : check_writes(c, &d, i, e);
}

static int plan_doc(const cJSON *doc, const char *name, struct rctl_tune_reviewed *r,
		    struct rctl_err *e)
{
	const cJSON *ver = cJSON_GetObjectItemCaseSensitive(doc, "plan_version");
	const cJSON *host = cJSON_GetObjectItemCaseSensitive(doc, "hostname");
	const cJSON *prof = cJSON_GetObjectItemCaseSensitive(doc, "profile");
	const cJSON *ch = cJSON_GetObjectItemCaseSensitive(doc, "changes");
	uint32_t i;
	int ret;

	if (!cJSON_IsNumber(ver) || ver->valuedouble != RCTL_TUNE_PLAN_VERSION ||
	    !cJSON_IsArray(ch))
		return not_plan(e, name, "not the output of 'rocectl tune plan -j' (plan_version 1)");
	if (!cJSON_IsString(host) || !host->valuestring[0] ||
	    strlen(host->valuestring) >= sizeof(r->hostname) ||
	    !cJSON_IsString(prof) || strlen(prof->valuestring) >= sizeof(r->profile))
		return not_plan(e, name, "no 'hostname' or 'profile'");
	strcpy(r->hostname, host->valuestring);
	strcpy(r->profile, prof->valuestring);
	ret = digest_from_json(cJSON_GetObjectItemCaseSensitive(doc, "digest"), &r->digest,
			       name, e);
	if (!ret)
		ret = rctl_schema_from_json(&plan_schema, doc, &r->plan, name, e);
	if (!ret)
		ret = plan_counts(doc, &r->plan, name, e);
	for (i = 0; !ret && i < r->plan.n_ch; i++)
		ret = plan_change_check(&r->plan.ch[i], name, i, e);
	return ret;
}

int rctl_tune_plan_parse(const char *text, size_t len, const char *name,
			 struct rctl_tune_reviewed *r, struct rctl_err *e)
{
	cJSON *doc;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = rctl_json_read(text, len, "plan", name, &doc, e);
	if (ret)
		return ret;
	ret = cJSON_IsObject(doc) ? plan_doc(doc, name, r, e) :
	      not_plan(e, name, "not a JSON object");
	cJSON_Delete(doc);
	if (ret)
		rctl_tune_reviewed_free(r);
	return ret;
}

int rctl_tune_plan_load(const char *path, struct rctl_tune_reviewed *r, struct rctl_err *e)
{
	const char *why;
	size_t n = 0;
	struct stat st;
	ssize_t got = 1;
	char *buf;
	int fd, ret;

	memset(r, 0, sizeof(*r));
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return rctl_err_strerror(e, errno, "cannot open plan '%s'", path);
	if (fstat(fd, &st)) {
		ret = errno;
		close(fd);
		return rctl_err_strerror(e, ret, "cannot read plan '%s'", path);
	}
	why = !S_ISREG(st.st_mode) ? "not a regular file" :
	      (st.st_mode & S_IWOTH) ? "others may write it (chmod o-w)" :
	      st.st_size > PLAN_MAX ? "larger than 4 MiB" : NULL;
	if (why) {
		close(fd);
		return not_plan(e, path, why);
	}
	buf = malloc(PLAN_MAX + 1);
	while (buf && got > 0 && n <= PLAN_MAX) {
		got = read(fd, buf + n, PLAN_MAX + 1 - n);
		if (got < 0 && errno == EINTR)
			got = 1;
		else if (got > 0)
			n += (size_t)got;
	}
	ret = got < 0 ? errno : !buf ? ENOMEM : 0;
	close(fd);
	if (!ret && n > PLAN_MAX)
		ret = EFBIG;
	if (ret) {
		free(buf);
		return rctl_err_strerror(e, ret, "cannot read plan '%s'", path);
	}
	ret = rctl_tune_plan_parse(buf, n, path, r, e);
	free(buf);
	return ret;
}
