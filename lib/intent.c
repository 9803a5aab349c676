// SPDX-License-Identifier: GPL-2.0-or-later
/* Intent: profiles as data, the config file and option overrides (intent.h). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rocectl/intent.h"
#include "rocectl/opt.h"

#define CONF_MAX (64 * 1024)

static void no_sources(struct rctl_intent *in);

static const struct rctl_profile profiles[] = {
	{ .name = "lossless-dscp",
	  .summary = "DSCP 26 -> prio 3 with PFC on prio 3 only and ECN/DCQCN",
	  .intent = { .profile = "lossless-dscp", .pfc = true, .ecn = true,
		      .prio = 3, .dscp = 26, .cnp_prio = 6, .cnp_dscp = 48,
		      .tos = 106, .mtu = 4096, .roce_version = 2,
		      .loss_budget = RCTL_LOSS_BUDGET } },
	{ .name = "lossy-ecn",
	  .summary = "no PFC; congestion handled by ECN/DCQCN alone",
	  .intent = { .profile = "lossy-ecn", .pfc = false, .ecn = true,
		      .prio = 3, .dscp = 26, .cnp_prio = 6, .cnp_dscp = 48,
		      .tos = 106, .mtu = 4096, .roce_version = 2,
		      .loss_budget = RCTL_LOSS_BUDGET } },
};

const char *const rctl_profile_names[] = { "lossless-dscp", "lossy-ecn", NULL };

const struct rctl_profile *rctl_profile_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

int rctl_intent_profile(struct rctl_intent *in, const char *name,
			struct rctl_err *e)
{
	const struct rctl_profile *p = rctl_profile_find(name);

	if (!p)
		return rctl_err_plain(e, EINVAL,
				    "unknown profile '%s': expected lossless-dscp or lossy-ecn",
				    name);
	*in = p->intent;
	no_sources(in);
	return 0;
}

static const char *const key_names[RCTL_IK_N] = {
#define X(id, s) [RCTL_IK_##id] = s,
	RCTL_INTENT_KEYS(X)
#undef X
};

const char *const rctl_roce_mode_names[] = { "v1", "v2", NULL };

const char *rctl_intent_key_name(enum rctl_intent_key k)
{
	return k < RCTL_IK_N ? key_names[k] : NULL;
}

static int parse_mtu(const char *s, uint32_t *v)
{
	int x;

	if (rctl_parse_int(s, 256, 4096, &x) || (x & (x - 1)))
		return -EINVAL;
	*v = x;
	return 0;
}

static int parse_mode(const char *s, int *v)
{
	if (!strcmp(s, "v2") || !strcmp(s, "2") || !strcmp(s, "RoCE v2"))
		*v = 2;
	else if (!strcmp(s, "v1") || !strcmp(s, "1") || !strcmp(s, "IB/RoCE v1"))
		*v = 1;
	else
		return -EINVAL;
	return 0;
}

static int key_of(const char *k)
{
	int i;

	for (i = 0; i < RCTL_IK_N; i++)
		if (!strcmp(key_names[i], k))
			return i;
	return -1;
}

/* One value into a layer; -EINVAL when out of range. */
static int parse_val(enum rctl_intent_key k, const char *v, struct rctl_intent_vals *x)
{
	switch (k) {
	case RCTL_IK_PRIO: return rctl_parse_int(v, 0, 7, &x->prio);
	case RCTL_IK_DSCP: return rctl_parse_int(v, 0, 63, &x->dscp);
	case RCTL_IK_CNP_PRIO: return rctl_parse_int(v, 0, 7, &x->cnp_prio);
	case RCTL_IK_CNP_DSCP: return rctl_parse_int(v, 0, 63, &x->cnp_dscp);
	case RCTL_IK_TOS: return rctl_parse_int(v, 0, 255, &x->tos);
	case RCTL_IK_MTU: return parse_mtu(v, &x->mtu);
	case RCTL_IK_ROCE_MODE: return parse_mode(v, &x->roce_version);
	default: return rctl_parse_rate(v, &x->loss_budget);
	}
}

/* Key k of a layer's values into the intent. */
static void put_val(struct rctl_intent *in, enum rctl_intent_key k,
		    const struct rctl_intent_vals *x)
{
	switch (k) {
	case RCTL_IK_PRIO: in->prio = x->prio; break;
	case RCTL_IK_DSCP: in->dscp = x->dscp; break;
	case RCTL_IK_CNP_PRIO: in->cnp_prio = x->cnp_prio; break;
	case RCTL_IK_CNP_DSCP: in->cnp_dscp = x->cnp_dscp; break;
	case RCTL_IK_TOS: in->tos = x->tos; break;
	case RCTL_IK_MTU: in->mtu = x->mtu; break;
	case RCTL_IK_ROCE_MODE: in->roce_version = x->roce_version; break;
	default: in->loss_budget = x->loss_budget; break;
	}
}

/* A layer over "in": its keys win; "section" its index in in->sec[], else -1. */
static void apply_layer(struct rctl_intent *in, const struct rctl_intent_layer *l, int section)
{
	int k;

	for (k = 0; k < RCTL_IK_N; k++) {
		if (!(l->set & 1u << k))
			continue;
		put_val(in, k, &l->v);
		in->src[k] = (struct rctl_intent_src){ .level = l->level, .line = l->line_of[k],
						       .section = section };
	}
}

/*
 * The ToS follows the DSCP (DSCP << 2 | ECT(0)) unless it was set at the
 * layer that set the DSCP or a more specific one.
 */
static void tos_follows(struct rctl_intent *in)
{
	const struct rctl_intent_src *d = &in->src[RCTL_IK_DSCP];
	struct rctl_intent_src *t = &in->src[RCTL_IK_TOS];

	if (d->level == RCTL_LVL_DEFAULT || (!t->follows && t->level >= d->level &&
					     !(t->level == d->level && t->section != d->section)))
		return;
	in->tos = rctl_tos_for(in->dscp);
	*t = *d;
	t->follows = true;
}

static void no_sources(struct rctl_intent *in)
{
	int k;

	for (k = 0; k < RCTL_IK_N; k++)
		in->src[k] = (struct rctl_intent_src){ .level = RCTL_LVL_DEFAULT, .section = -1 };
}

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* Split "line" into key and value: 1, 0 when blank or a comment, 2 a section header. */
static int conf_split(char *line, char **k, char **v)
{
	char *hash = strchr(line, '#'), *eq;

	if (hash)
		*hash = '\0';
	line = trim(line);
	if (!*line)
		return 0;
	if (*line == '[') {
		*k = line;
		return 2;
	}
	eq = strchr(line, '=');
	if (!eq)
		return -EINVAL;
	*eq = '\0';
	*k = trim(line);
	*v = trim(eq + 1);
	return **k && **v ? 1 : -EINVAL;
}

/* The walk of the file: where it is, and the layer its keys go to. */
struct walk {
	struct rctl_intent *in;
	const char *name;
	int n;				/* line number */
	struct rctl_intent_layer *l;	/* in->file, or the section being read */
	struct rctl_err *e;
};

static const char *const level_kinds[] = {
	[RCTL_LVL_DRIVER] = "driver", [RCTL_LVL_DEVICE] = "device", [RCTL_LVL_NETDEV] = "netdev",
};

/* "[kind NAME]": a new section, checked. */
static int section(struct walk *w, char *hdr)
{
	size_t len = strlen(hdr), kl;
	char *body, *name;
	uint32_t i;
	int lvl;

	if (hdr[len - 1] != ']')
		return rctl_err_plain(w->e, EINVAL, "'%s' line %d: expected '[driver|device|netdev NAME]'",
				      w->name, w->n);
	hdr[len - 1] = '\0';
	body = trim(hdr + 1);
	kl = strcspn(body, " \t");
	name = trim(body + kl);
	body[kl] = '\0';
	for (lvl = RCTL_LVL_DRIVER; lvl <= RCTL_LVL_NETDEV && strcmp(body, level_kinds[lvl]); lvl++)
		;
	if (lvl > RCTL_LVL_NETDEV)
		return rctl_err_plain(w->e, EINVAL, "'%s' line %d: unknown section '[%.32s]': expected "
				      "[driver NAME], [device NAME] or [netdev NAME]", w->name, w->n, body);
	if (!*name || strcspn(name, " \t") != strlen(name) || strlen(name) >= RCTL_INTENT_NAME_LEN)
		return rctl_err_plain(w->e, EINVAL, "'%s' line %d: expected '[%s NAME]' with one name "
				      "of at most %d characters", w->name, w->n, body,
				      RCTL_INTENT_NAME_LEN - 1);
	for (i = 0; i < w->in->n_sec; i++)
		if (w->in->sec[i].level == (enum rctl_intent_level)lvl && !strcmp(w->in->sec[i].name, name))
			return rctl_err_plain(w->e, EINVAL, "'%s' line %d: section '[%s %s]' given again "
					      "(first on line %d)", w->name, w->n, body, name,
					      w->in->sec[i].line);
	if (w->in->n_sec == RCTL_INTENT_SECTIONS)
		return rctl_err_plain(w->e, EINVAL, "'%s' line %d: more than %d sections", w->name, w->n,
				      RCTL_INTENT_SECTIONS);
	w->l = &w->in->sec[w->in->n_sec++];
	*w->l = (struct rctl_intent_layer){ .level = lvl, .line = w->n };
	snprintf(w->l->name, sizeof(w->l->name), "%s", name);
	return 0;
}

/* One "key = value" into the layer being read. */
static int key_line(struct walk *w, const char *k, const char *v)
{
	int key = key_of(k);

	if (!strcmp(k, "profile"))
		return w->l == &w->in->file ? 0 :
		       rctl_err_plain(w->e, EINVAL, "'%s' line %d: 'profile' is the whole file's: set it "
				      "before the first section", w->name, w->n);
	if (key < 0)
		return rctl_err_plain(w->e, EINVAL, "'%s' line %d: unknown key '%s'", w->name, w->n, k);
	if (w->l->set & 1u << key)
		return rctl_err_plain(w->e, EINVAL, "'%s' line %d: '%s' given again (first on line %d)",
				      w->name, w->n, k, w->l->line_of[key]);
	if (parse_val(key, v, &w->l->v))
		return rctl_err_plain(w->e, EINVAL, "'%s' line %d: invalid value '%s' for '%s'",
				      w->name, w->n, v, k);
	w->l->set |= 1u << key;
	w->l->line_of[key] = w->n;
	return 0;
}

/*
 * Walk the lines into in->file and in->sec[]; with "profile" set, only pick
 * up the file's profile key into it (and a profile given twice).
 */
static int conf_walk(struct rctl_intent *in, const char *text, const char *name,
		     char *profile, size_t plen, struct rctl_err *e)
{
	char *copy = strdup(text), *line, *next, *k = NULL, *v = NULL;
	struct walk w = { .in = in, .name = name, .l = &in->file, .e = e };
	int ret = 0, r, prof_line = 0;

	if (!copy)
		return rctl_err_strerror(e, ENOMEM, "cannot read '%s'", name);
	in->file = (struct rctl_intent_layer){ .level = RCTL_LVL_FILE };
	in->n_sec = 0;
	/* Not strtok(): it would skip empty lines and miscount line numbers. */
	for (line = copy; line && !ret; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		w.n++;
		r = conf_split(line, &k, &v);
		if (r < 0)
			ret = rctl_err_plain(e, EINVAL, "'%s' line %d: expected 'key = value'", name, w.n);
		else if (r == 2)
			ret = section(&w, k);
		else if (r == 1 && profile && w.l == &in->file && !strcmp(k, "profile")) {
			if (prof_line)
				ret = rctl_err_plain(e, EINVAL, "'%s' line %d: 'profile' given again "
						     "(first on line %d)", name, w.n, prof_line);
			prof_line = w.n;
			snprintf(profile, plen, "%s", v);
		} else if (r == 1 && !profile)
			ret = key_line(&w, k, v);
	}
	free(copy);
	return ret;
}

int rctl_intent_parse_conf(struct rctl_intent *in, const char *text,
			   const char *name, const char *profile,
			   struct rctl_err *e)
{
	char conf_profile[64] = "lossless-dscp";
	int ret;

	ret = conf_walk(in, text, name, conf_profile, sizeof(conf_profile), e);
	if (ret)
		return ret;
	ret = rctl_intent_profile(in, profile ? profile : conf_profile, e);
	if (ret) {
		rctl_err_plain(e, EINVAL, "'%s': unknown profile '%s'", name, conf_profile);
		return ret;
	}
	ret = conf_walk(in, text, name, NULL, 0, e);
	if (ret)
		return ret;
	apply_layer(in, &in->file, -1);
	tos_follows(in);
	return 0;
}

static bool named(const char *a, const char *b)
{
	return a && b && *b && !strcmp(a, b);
}

void rctl_intent_for(const struct rctl_intent *in, const char *drv, const char *nd_drv,
		     const char *dev, const char *netdev, const char *port,
		     struct rctl_intent *out)
{
	enum rctl_intent_level lvl;
	uint32_t i;
	bool hit;

	*out = *in;
	snprintf(out->port, sizeof(out->port), "%s", port ? port : "");
	for (lvl = RCTL_LVL_DRIVER; lvl <= RCTL_LVL_NETDEV; lvl++)
		for (i = 0; i < in->n_sec; i++) {
			const struct rctl_intent_layer *l = &in->sec[i];

			if (l->level != lvl)
				continue;
			hit = lvl == RCTL_LVL_DRIVER ? named(drv, l->name) || named(nd_drv, l->name) :
			      lvl == RCTL_LVL_DEVICE ? named(dev, l->name) : named(netdev, l->name);
			if (hit)
				apply_layer(out, l, (int)i);
		}
	apply_layer(out, &in->opt, -1);
	tos_follows(out);
}

const char *rctl_intent_value(const struct rctl_intent *in, enum rctl_intent_key k,
			      char *buf, size_t len)
{
	switch (k) {
	case RCTL_IK_PRIO: snprintf(buf, len, "%d", in->prio); break;
	case RCTL_IK_DSCP: snprintf(buf, len, "%d", in->dscp); break;
	case RCTL_IK_CNP_PRIO: snprintf(buf, len, "%d", in->cnp_prio); break;
	case RCTL_IK_CNP_DSCP: snprintf(buf, len, "%d", in->cnp_dscp); break;
	case RCTL_IK_TOS: snprintf(buf, len, "%d", in->tos); break;
	case RCTL_IK_MTU: snprintf(buf, len, "%u", in->mtu); break;
	case RCTL_IK_ROCE_MODE: snprintf(buf, len, "v%d", in->roce_version); break;
	default: snprintf(buf, len, "%g", in->loss_budget); break;
	}
	return buf;
}

/* One source, without "follows". */
static void source_of(const struct rctl_intent *in, const struct rctl_intent_src *s,
		      enum rctl_intent_key k, char *buf, size_t len)
{
	const struct rctl_intent_layer *l = s->section >= 0 && (uint32_t)s->section < in->n_sec ?
					    &in->sec[s->section] : NULL;
	char opt[24];
	size_t i;

	switch (s->level) {
	case RCTL_LVL_DEFAULT:
		snprintf(buf, len, "default (profile %s)", in->profile);
		break;
	case RCTL_LVL_OPTION:
		snprintf(opt, sizeof(opt), "%s", key_names[k]);
		for (i = 0; opt[i]; i++)
			opt[i] = opt[i] == '_' ? '-' : opt[i];
		snprintf(buf, len, "command line (--%s)", opt);
		break;
	default:
		if (l)
			snprintf(buf, len, "%s:%d [%s %s]", in->conf, s->line, level_kinds[l->level],
				 l->name);
		else
			snprintf(buf, len, "%s:%d", in->conf, s->line);
		break;
	}
}

const char *rctl_intent_source(const struct rctl_intent *in, enum rctl_intent_key k,
			       char *buf, size_t len)
{
	const struct rctl_intent_src *s = &in->src[k];
	char from[320];

	if (k >= RCTL_IK_N) {
		snprintf(buf, len, "?");
		return buf;
	}
	if (!s->follows) {
		source_of(in, s, k, buf, len);
		return buf;
	}
	source_of(in, s, RCTL_IK_DSCP, from, sizeof(from));
	snprintf(buf, len, "follows dscp, %s", from);
	return buf;
}

/*
 * Read a whole small config file: NULL with -errno in *err, *why set when
 * the file itself is wrong. O_NONBLOCK, then a regular file or a character
 * device (/dev/null: no config) only: a FIFO named as the config would hang
 * the open or the read, and a device that has nothing fails, never waits.
 */
static char *slurp(const char *path, int *err, const char **why)
{
	struct stat st;
	size_t n = 0;
	ssize_t r = 1;
	char *buf;
	int fd;

	*why = NULL;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		*err = -errno;
		return NULL;
	}
	*err = fstat(fd, &st) ? -errno : 0;
	if (!*err && !S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode)) {
		*err = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		*why = S_ISDIR(st.st_mode) ? NULL : "it is not a regular file";
	}
	buf = *err ? NULL : malloc(CONF_MAX + 1);
	if (!*err && !buf)
		*err = -ENOMEM;
	while (!*err && r > 0 && n <= CONF_MAX) {
		r = read(fd, buf + n, CONF_MAX + 1 - n);
		if (r < 0 && errno != EINTR)
			*err = -errno;
		n += r > 0 ? (size_t)r : 0;
		r = r < 0 ? 1 : r;
	}
	close(fd);
	if (!*err && n > CONF_MAX)
		*err = -EFBIG;
	if (!*err && memchr(buf, '\0', n)) {
		*err = -EINVAL;
		*why = "it holds a NUL byte";
	}
	if (*err) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

static int apply_file(struct rctl_intent *in, const struct rctl_intent_args *a,
		      struct rctl_err *e)
{
	const char *path = a->config ? a->config : getenv("ROCECTL_CONF");
	bool must = path && *path;
	const char *why;
	char *text;
	int err, ret;

	if (!must)
		path = RCTL_CONF_PATH;
	text = slurp(path, &err, &why);
	if (!text && err == -ENOENT && !must)
		return rctl_intent_profile(in, a->profile ? a->profile : "lossless-dscp", e);
	if (!text && why)
		return rctl_err_plain(e, -err, "cannot read config '%s': %s", path, why);
	if (!text)
		return rctl_err_strerror(e, err, "cannot read config '%s'", path);
	ret = rctl_intent_parse_conf(in, text, path, a->profile, e);
	free(text);
	if (!ret)
		snprintf(in->conf, sizeof(in->conf), "%s", path);
	return ret;
}

/* The options given, as the layer that wins over every section. */
static int option_layer(struct rctl_intent_layer *l, const struct rctl_intent_args *a,
			struct rctl_err *e)
{
	*l = (struct rctl_intent_layer){ .level = RCTL_LVL_OPTION };
	l->v = (struct rctl_intent_vals){ .prio = a->prio, .dscp = a->dscp, .cnp_prio = a->cnp_prio,
					  .cnp_dscp = a->cnp_dscp, .tos = a->tos, .mtu = a->mtu };
	l->set = (a->prio_set ? 1u << RCTL_IK_PRIO : 0) | (a->dscp_set ? 1u << RCTL_IK_DSCP : 0) |
		 (a->cnp_prio_set ? 1u << RCTL_IK_CNP_PRIO : 0) |
		 (a->cnp_dscp_set ? 1u << RCTL_IK_CNP_DSCP : 0) | (a->tos_set ? 1u << RCTL_IK_TOS : 0) |
		 (a->mtu_set ? 1u << RCTL_IK_MTU : 0);
	if (a->mtu_set && (a->mtu & (a->mtu - 1)))
		return rctl_err_plain(e, EINVAL,
				    "invalid value '%d' for '--mtu': expected 256, 512, 1024, 2048 or 4096",
				    a->mtu);
	if (a->loss_budget && rctl_parse_rate(a->loss_budget, &l->v.loss_budget))
		return rctl_err_plain(e, EINVAL,
				    "invalid value '%s' for '--loss-budget': expected a rate from 0 to 1",
				    a->loss_budget);
	l->set |= a->loss_budget ? 1u << RCTL_IK_LOSS_BUDGET : 0;
	if (a->roce_mode && parse_mode(a->roce_mode, &l->v.roce_version))
		return rctl_err_plain(e, EINVAL, "invalid value '%s' for '--roce-mode': expected v1 or v2",
				      a->roce_mode);
	l->set |= a->roce_mode ? 1u << RCTL_IK_ROCE_MODE : 0;
	return 0;
}

int rctl_intent_resolve(struct rctl_intent *in, const struct rctl_intent_args *a,
			struct rctl_err *e)
{
	int ret = apply_file(in, a, e);

	if (ret)
		return ret;
	ret = option_layer(&in->opt, a, e);
	if (ret)
		return ret;
	apply_layer(in, &in->opt, -1);
	tos_follows(in);
	return 0;
}
