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
	return 0;
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

/* One "key = value" of the config file (profile handled by the caller). */
static int conf_key(struct rctl_intent *in, const char *k, const char *v,
		    bool *tos_set)
{
	if (!strcmp(k, "prio"))
		return rctl_parse_int(v, 0, 7, &in->prio);
	if (!strcmp(k, "dscp"))
		return rctl_parse_int(v, 0, 63, &in->dscp);
	if (!strcmp(k, "cnp_prio"))
		return rctl_parse_int(v, 0, 7, &in->cnp_prio);
	if (!strcmp(k, "cnp_dscp"))
		return rctl_parse_int(v, 0, 63, &in->cnp_dscp);
	if (!strcmp(k, "tos")) {
		*tos_set = true;
		return rctl_parse_int(v, 0, 255, &in->tos);
	}
	if (!strcmp(k, "mtu"))
		return parse_mtu(v, &in->mtu);
	if (!strcmp(k, "roce_mode"))
		return parse_mode(v, &in->roce_version);
	if (!strcmp(k, "loss_budget"))
		return rctl_parse_rate(v, &in->loss_budget);
	if (!strcmp(k, "profile"))
		return 0;
	return -ENOENT;
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

/* Split "line" into key and value; false when it is blank or a comment. */
static int conf_split(char *line, char **k, char **v)
{
	char *hash = strchr(line, '#'), *eq;

	if (hash)
		*hash = '\0';
	line = trim(line);
	if (!*line)
		return 0;
	eq = strchr(line, '=');
	if (!eq)
		return -EINVAL;
	*eq = '\0';
	*k = trim(line);
	*v = trim(eq + 1);
	return **k && **v ? 1 : -EINVAL;
}

/* The keys met so far, with their lines: a key set twice is a mistake. */
struct seen {
	char key[16][16];
	int line[16];
	unsigned int n;
};

/* The line "k" was first set on, else 0 (and k noted as set on "line"). */
static int seen_line(struct seen *s, const char *k, int line)
{
	unsigned int i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->key[i], k))
			return s->line[i];
	if (s->n < 16 && strlen(k) < sizeof(s->key[0])) {
		strcpy(s->key[s->n], k);
		s->line[s->n++] = line;
	}
	return 0;
}

/* Walk the lines; with "profile" set, only pick up the profile key into it. */
static int conf_walk(struct rctl_intent *in, const char *text, const char *name,
		     char *profile, size_t plen, struct rctl_err *e)
{
	char *copy = strdup(text), *line, *next, *k, *v;
	bool tos_set = false, dscp_set = false;
	int ret = 0, n = 0, r, dup;
	struct seen seen = { 0 };

	if (!copy)
		return rctl_err_strerror(e, ENOMEM, "cannot read '%s'", name);
	/* Not strtok(): it would skip empty lines and miscount line numbers. */
	for (line = copy; line && !ret; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		n++;
		r = conf_split(line, &k, &v);
		if (r < 0)
			ret = rctl_err_plain(e, EINVAL, "'%s' line %d: expected 'key = value'",
					   name, n);
		if (r <= 0)
			continue;
		dup = seen_line(&seen, k, n);
		if (dup) {
			ret = rctl_err_plain(e, EINVAL, "'%s' line %d: '%s' given again (first on line %d)",
					   name, n, k, dup);
			continue;
		}
		if (profile) {
			if (!strcmp(k, "profile"))
				snprintf(profile, plen, "%s", v);
			continue;
		}
		dscp_set |= !strcmp(k, "dscp");
		r = conf_key(in, k, v, &tos_set);
		if (r == -ENOENT)
			ret = rctl_err_plain(e, EINVAL, "'%s' line %d: unknown key '%s'",
					   name, n, k);
		else if (r)
			ret = rctl_err_plain(e, EINVAL, "'%s' line %d: invalid value '%s' for '%s'",
					   name, n, v, k);
	}
	if (!ret && !profile && dscp_set && !tos_set)
		in->tos = rctl_tos_for(in->dscp);
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
	return conf_walk(in, text, name, NULL, 0, e);
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

int rctl_intent_resolve(struct rctl_intent *in, const struct rctl_intent_args *a,
			struct rctl_err *e)
{
	int ret = apply_file(in, a, e);

	if (ret)
		return ret;
	if (a->prio_set)
		in->prio = a->prio;
	if (a->dscp_set) {
		in->dscp = a->dscp;
		in->tos = rctl_tos_for(in->dscp);
	}
	if (a->cnp_prio_set)
		in->cnp_prio = a->cnp_prio;
	if (a->cnp_dscp_set)
		in->cnp_dscp = a->cnp_dscp;
	if (a->tos_set)
		in->tos = a->tos;
	if (a->mtu_set) {
		if (a->mtu & (a->mtu - 1))
			return rctl_err_plain(e, EINVAL,
					    "invalid value '%d' for '--mtu': expected 256, 512, 1024, 2048 or 4096",
					    a->mtu);
		in->mtu = a->mtu;
	}
	if (a->loss_budget && rctl_parse_rate(a->loss_budget, &in->loss_budget))
		return rctl_err_plain(e, EINVAL,
				    "invalid value '%s' for '--loss-budget': expected a rate from 0 to 1",
				    a->loss_budget);
	return 0;
}
