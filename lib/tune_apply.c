// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rocectl tune: the write primitives (dcbnl SET/DEL through libmnl,
 * ETHTOOL_SPAUSEPARAM, text files with the rdma_cm mkdir/rmdir dance), the
 * state file written before the first write, apply with rollback, and revert.
 * Nothing else in rocectl writes to the host.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <linux/dcbnl.h>

#include "rocectl/nl.h"
#include "rocectl/snapshot.h"
#include "rocectl/tune.h"
#include "rocectl/write.h"

#define RCTL_TUNE_STATE_VERSION 1
#define STATE_KIND "rocectl-tune-state"

void rctl_tune_plan_free(struct rctl_tune_plan *p)
{
	free(p->ch);
	p->ch = NULL;
	p->n_ch = 0;
}

uint32_t rctl_tune_plan_active(const struct rctl_tune_plan *p)
{
	uint32_t i, n = 0;

	for (i = 0; i < p->n_ch; i++)
		n += !p->ch[i].skip[0];
	return n;
}

/* ---- dcbnl ------------------------------------------------------------ */

static int write_pfc(const struct rctl_tune_change *c, bool undo)
{
	struct ieee_pfc pfc = {
		.pfc_cap = c->pfc_cap,
		.pfc_en = undo ? c->old_val : c->new_val,
		.mbc = c->pfc_mbc,
		.delay = c->pfc_delay,
	};

	return rctl_dcb_set(c->ifname, DCB_CMD_IEEE_SET, DCB_ATTR_IEEE_PFC, &pfc,
			    sizeof(pfc));
}

static int write_ets(const struct rctl_tune_change *c, bool undo)
{
	struct ieee_ets ets = { .willing = c->ets_willing };

	memcpy(ets.tc_tx_bw, c->tc_tx_bw, 8);
	memcpy(ets.tc_rx_bw, c->tc_tx_bw, 8);
	memcpy(ets.tc_tsa, c->tc_tsa, 8);
	memcpy(ets.prio_tc, undo ? c->old_prio_tc : c->new_prio_tc, 8);
	return rctl_dcb_set(c->ifname, DCB_CMD_IEEE_SET, DCB_ATTR_IEEE_ETS, &ets,
			    sizeof(ets));
}

bool rctl_tune_app_op(const struct rctl_tune_change *c, bool undo, uint32_t *prio)
{
	enum rctl_tune_op op = rctl_tune_op_of(c);

	*prio = c->app_prio;
	if (op == RCTL_TUNE_APP_SET && undo && c->old_val != RCTL_APP_NONE) {
		*prio = c->old_val;	/* mlx5: SET the old priority back */
		return true;
	}
	if (op == RCTL_TUNE_APP_DEL)
		return undo;
	return !undo;
}

static int write_app(const struct rctl_tune_change *c, bool undo)
{
	uint32_t prio;
	bool set = rctl_tune_app_op(c, undo, &prio);
	struct dcb_app app = {
		.selector = c->app_selector,
		.priority = prio,
		.protocol = c->app_protocol,
	};

	return rctl_dcb_set(c->ifname, set ? DCB_CMD_IEEE_SET : DCB_CMD_IEEE_DEL,
			    DCB_ATTR_IEEE_APP_TABLE, &app, sizeof(app));
}

/* ---- ethtool ---------------------------------------------------------- */

static int write_pause(const struct rctl_tune_change *c, bool undo)
{
	uint32_t v = undo ? c->old_val : c->new_val;

	return rctl_ethtool_set_pause(c->ifname, v & RCTL_PAUSE_AUTONEG,
				      v & RCTL_PAUSE_RX, v & RCTL_PAUSE_TX);
}

/* ---- files ------------------------------------------------------------ */

/*
 * rdma_cm keeps its defaults in the device, not in the configfs directory:
 * make the directory if it is missing, write, and remove only what we made.
 */
static int write_file(const struct rctl_tune_change *c, bool undo,
		      struct rctl_err *e)
{
	const char *text = undo ? c->old_text : c->new_text;
	bool made = false;
	int ret;

	if (c->mkdir[0] && rctl_tune_path_check(c->mkdir, true, e))
		return -e->errnum;
	if (c->mkdir[0]) {
		if (!mkdir(c->mkdir, 0755))
			made = true;
		else if (errno != EEXIST)
			return rctl_err_set(e, errno, "cannot create '%s'", c->mkdir);
	}
	if (rctl_tune_path_check(c->path, false, e) ||
	    (c->commit[0] && rctl_tune_path_check(c->commit, false, e)))
		ret = -e->errnum;
	else if ((ret = rctl_write_text(c->path, text)))
		rctl_err_set(e, ret, "cannot write '%s' to '%s'", text, c->path);
	else if (c->commit[0] && (ret = rctl_write_text(c->commit, "1")))
		rctl_err_set(e, ret, "cannot write '1' to '%s'", c->commit);
	if (made && rmdir(c->mkdir) && !ret)
		ret = rctl_err_set(e, errno, "cannot remove '%s'", c->mkdir);
	return ret;
}

int rctl_tune_write(struct rctl_tune_change *c, bool undo, struct rctl_err *e)
{
	enum rctl_tune_op op = rctl_tune_op_of(c);
	int ret;

	switch (op) {
	case RCTL_TUNE_PAUSE: ret = write_pause(c, undo); break;
	case RCTL_TUNE_ETS: ret = write_ets(c, undo); break;
	case RCTL_TUNE_PFC: ret = write_pfc(c, undo); break;
	case RCTL_TUNE_APP_ADD:
	case RCTL_TUNE_APP_DEL:
	case RCTL_TUNE_APP_SET: ret = write_app(c, undo); break;
	case RCTL_TUNE_WRITE: return write_file(c, undo, e);
	default:
		return rctl_err_msg(e, EINVAL, "unknown tune operation '%s'", c->op);
	}
	if (ret)
		rctl_err_set(e, ret, "cannot set %s of '%s'%s%s%s", c->setting, c->target,
			     c->via[0] ? " (" : "", c->via, c->via[0] ? ")" : "");
	return ret;
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
	cJSON *doc = rctl_json_parse_exact(text);
	uint32_t i;
	int ret;

	memset(p, 0, sizeof(*p));
	if (!doc)
		return rctl_err_msg(e, EINVAL, "cannot read state file '%s': not valid JSON", name);
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
static int state_write(const char *path, const struct rctl_tune_plan *p,
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
static int state_create(const struct rctl_tune_plan *p, const char *dir,
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
	return state_write(path, p, "pending", e);
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

static int state_load(const char *path, struct rctl_tune_plan *p, char *status,
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

/* ---- apply, rollback, revert ------------------------------------------ */

static void set_status(struct rctl_tune_change *c, const char *status,
		       const char *result)
{
	snprintf(c->status, sizeof(c->status), "%s", status);
	snprintf(c->result, sizeof(c->result), "%.500s", result ? result : "");
}

static void unsupported(struct rctl_tune_change *c, const struct rctl_err *we)
{
	char msg[sizeof(c->result)];

	snprintf(msg, sizeof(msg), "not supported by %s (%.400s)",
		 c->driver[0] ? c->driver : "the driver", we->msg);
	set_status(c, RCTL_TUNE_SKIPPED, msg);
}

static int fail_step(void)
{
	const char *s = getenv(RCTL_TUNE_FAIL_ENV);

	return s && *s ? atoi(s) : 0;
}

/* Undo changes [0, upto) that were applied, last first; count what failed. */
static int rollback(struct rctl_tune_plan *p, uint32_t upto, struct rctl_err *first)
{
	struct rctl_err we = { 0 };
	int failed = 0;
	uint32_t i;

	for (i = upto; i-- > 0;) {
		struct rctl_tune_change *c = &p->ch[i];

		if (strcmp(c->status, RCTL_TUNE_APPLIED))
			continue;
		if (rctl_tune_write(c, true, &we)) {
			set_status(c, RCTL_TUNE_UNDO_FAILED, we.msg);
			if (!failed++)
				*first = we;
		} else {
			set_status(c, RCTL_TUNE_UNDONE, NULL);
		}
	}
	return failed;
}

static int apply_one(struct rctl_tune_change *c, int step, struct rctl_err *we)
{
	if (step == fail_step())
		return rctl_err_msg(we, EIO, "cannot set %s of '%s': injected failure (%s=%d)",
				    c->setting, c->target, RCTL_TUNE_FAIL_ENV, step);
	return rctl_tune_write(c, false, we);
}

static int apply_failed(struct rctl_tune_plan *p, uint32_t i, int step,
			const struct rctl_err *we, bool *rb_failed,
			struct rctl_err *e)
{
	struct rctl_err rb = { 0 };
	int undone = 0, failed;
	uint32_t j;

	set_status(&p->ch[i], RCTL_TUNE_FAILED, we->msg);
	for (j = 0; j < i; j++)
		undone += !strcmp(p->ch[j].status, RCTL_TUNE_APPLIED);
	failed = rollback(p, i, &rb);
	*rb_failed = failed;
	if (failed)
		return rctl_err_msg(e, we->errnum,
				    "step %d failed: %s; rollback FAILED for %d of %d changes, first: %s",
				    step, we->msg, failed, undone, rb.msg);
	return rctl_err_msg(e, we->errnum, "step %d failed: %s; rolled back %d change%s",
			    step, we->msg, undone, undone == 1 ? "" : "s");
}

int rctl_tune_apply(struct rctl_tune_plan *p, const char *state_dir,
		    char *state_path, size_t len, struct rctl_err *e)
{
	struct rctl_err we = { 0 };
	int ret = 0, step = 0, wret;
	bool rb_failed = false;
	uint32_t i;

	for (i = 0; i < p->n_ch; i++)
		if (p->ch[i].skip[0])
			set_status(&p->ch[i], RCTL_TUNE_SKIPPED, p->ch[i].skip);
		else
			set_status(&p->ch[i], RCTL_TUNE_PENDING, NULL);
	/* The previous values are on disk before anything changes. */
	ret = state_create(p, state_dir, state_path, len, e);
	if (ret)
		return ret;
	for (i = 0; i < p->n_ch && !ret; i++) {
		struct rctl_tune_change *c = &p->ch[i];

		if (c->skip[0])
			continue;
		wret = apply_one(c, ++step, &we);
		if (wret == -EOPNOTSUPP)
			unsupported(c, &we);
		else if (wret)
			ret = apply_failed(p, i, step, &we, &rb_failed, e);
		else
			set_status(c, RCTL_TUNE_APPLIED, NULL);
	}
	wret = state_write(state_path, p, !ret ? "applied" : rb_failed ?
			   "rollback-failed" : "rolled-back", ret ? &we : e);
	return ret ? ret : wret;
}

int rctl_tune_revert(const char *path, struct rctl_tune_plan *p,
		     struct rctl_err *e)
{
	struct rctl_err we = { 0 };
	char status[32];
	int ret, failed = 0;
	uint32_t i;

	ret = state_load(path, p, status, sizeof(status), e);
	if (ret)
		return ret;
	for (i = p->n_ch; i-- > 0;) {
		struct rctl_tune_change *c = &p->ch[i];

		if (!rctl_tune_change_written(c))
			continue;
		ret = rctl_tune_write(c, true, &we);
		if (ret == -EOPNOTSUPP) {
			unsupported(c, &we);
		} else if (ret) {
			set_status(c, RCTL_TUNE_FAILED, we.msg);
			if (!failed++)
				*e = we;
		} else {
			set_status(c, RCTL_TUNE_REVERTED, NULL);
		}
	}
	ret = state_write(path, p, failed ? status : "reverted", failed ? &we : e);
	if (failed)
		return -e->errnum;
	return ret;
}

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
			if (!state_load(path, &p, status, sizeof(status), &le)) {
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
