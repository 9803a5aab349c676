// SPDX-License-Identifier: GPL-2.0-or-later
/* Prometheus text exposition format in memory (prom.h). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/prom.h"

static int prom_put(struct rctl_prom *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int prom_put(struct rctl_prom *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (p->err)
		return p->err;
	for (;;) {
		size_t room = p->cap - p->len;

		va_start(ap, fmt);
		n = vsnprintf(p->buf ? p->buf + p->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0)
			return p->err = -EINVAL;
		if ((size_t)n < room)
			break;
		room = p->cap ? p->cap * 2 : 4096;
		while (room < p->len + n + 1)
			room *= 2;
		char *b = realloc(p->buf, room);

		if (!b)
			return p->err = -ENOMEM;
		p->buf = b;
		p->cap = room;
	}
	p->len += n;
	return 0;
}

/* Metric names [a-zA-Z_:][a-zA-Z0-9_:]*; label names the same without ':'. */
int rctl_prom_valid_name(const char *s, int label)
{
	const char *c;

	if (!*s || isdigit((unsigned char)*s))
		return 0;
	for (c = s; *c; c++)
		if (!(isalnum((unsigned char)*c) || *c == '_' || (!label && *c == ':')) ||
		    !isascii((unsigned char)*c))
			return 0;
	return !label || strncmp(s, "__", 2);	/* "__" is reserved */
}

/* Label values escape \ " and newline; HELP text escapes \ and newline only. */
int rctl_prom_escape(char *dst, size_t len, const char *s, int help)
{
	size_t o = 0;

	for (; *s; s++) {
		const char *rep = NULL;

		if (*s == '\\')
			rep = "\\\\";
		else if (*s == '\n')
			rep = "\\n";
		else if (*s == '"' && !help)
			rep = "\\\"";
		if (o + (rep ? 2 : 1) >= len)
			return -ENOSPC;
		if (rep) {
			dst[o++] = rep[0];
			dst[o++] = rep[1];
		} else {
			dst[o++] = *s;
		}
	}
	dst[o] = '\0';
	return 0;
}

static int family_seen(const struct rctl_prom *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->n_done; i++)
		if (!strcmp(p->done[i], name))
			return 1;
	return 0;
}

static int om_family(struct rctl_prom *p, const char *name, const char *type,
		     const char *help);

int rctl_prom_family(struct rctl_prom *p, const char *name, const char *type,
		     const char *help)
{
	char esc[1024];
	char **d;

	if (p->err)
		return p->err;
	if (!rctl_prom_valid_name(name, 0) || strlen(name) >= sizeof(p->family) ||
	    family_seen(p, name) || rctl_prom_escape(esc, sizeof(esc), help, 1) ||
	    (strcmp(type, "counter") && strcmp(type, "gauge") && strcmp(type, "untyped") &&
	     strcmp(type, "info")))
		return p->err = -EINVAL;
	d = realloc(p->done, sizeof(*d) * (p->n_done + 1));
	if (!d || !(d[p->n_done] = strdup(name))) {
		p->done = d ? d : p->done;
		return p->err = -ENOMEM;
	}
	p->done = d;
	p->n_done++;
	snprintf(p->family, sizeof(p->family), "%s", name);
	if (p->openmetrics)
		return om_family(p, name, type, help);
	prom_put(p, "# HELP %s %s\n", name, esc);
	/* The text format has no info type: a gauge of 1, by convention. */
	return prom_put(p, "# TYPE %s %s\n", name, strcmp(type, "info") ? type : "gauge");
}

/*
 * OpenMetrics 1.0: a counter family is its samples' name without "_total",
 * an info family without "_info", an untyped one is "unknown", and HELP
 * escapes '"' like a label value.
 */
static int om_family(struct rctl_prom *p, const char *name, const char *type,
		     const char *help)
{
	const char *suffix = !strcmp(type, "counter") ? "_total" :
			     !strcmp(type, "info") ? "_info" : NULL;
	size_t n = strlen(name);
	char esc[1024];

	if (suffix) {
		if (n <= strlen(suffix) || strcmp(name + n - strlen(suffix), suffix))
			return p->err = -EINVAL;
		n -= strlen(suffix);
	}
	if (rctl_prom_escape(esc, sizeof(esc), help, 0))
		return p->err = -EINVAL;
	prom_put(p, "# HELP %.*s %s\n", (int)n, name, esc);
	return prom_put(p, "# TYPE %.*s %s\n", (int)n, name,
			strcmp(type, "untyped") ? type : "unknown");
}

static int prom_labels(struct rctl_prom *p, const struct rctl_prom_label *l, size_t n)
{
	char esc[1024];
	size_t i;

	if (!p->family[0])
		return p->err = -EINVAL;
	prom_put(p, "%s", p->family);
	for (i = 0; i < n; i++) {
		if (!rctl_prom_valid_name(l[i].name, 1) ||
		    rctl_prom_escape(esc, sizeof(esc), l[i].value ? l[i].value : "", 0))
			return p->err = -EINVAL;
		prom_put(p, "%s%s=\"%s\"", i ? "," : "{", l[i].name, esc);
	}
	return prom_put(p, "%s", n ? "} " : " ");
}

int rctl_prom_u64(struct rctl_prom *p, const struct rctl_prom_label *l, size_t n,
		  uint64_t v)
{
	if (prom_labels(p, l, n))
		return p->err;
	return prom_put(p, "%" PRIu64 "\n", v);
}

/* The shortest "%.Ng" that reads back as exactly v (15 to 17 digits). */
static const char *shortest(double v, char *buf, size_t len)
{
	int digits;

	for (digits = 15; digits < 17; digits++) {
		snprintf(buf, len, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, len, "%.17g", v);
	return buf;
}

int rctl_prom_dbl(struct rctl_prom *p, const struct rctl_prom_label *l, size_t n,
		  double v)
{
	char buf[32];

	if (prom_labels(p, l, n))
		return p->err;
	if (isnan(v))
		return prom_put(p, "NaN\n");
	if (isinf(v))
		return prom_put(p, "%sInf\n", v < 0 ? "-" : "+");
	return prom_put(p, "%s\n", shortest(v, buf, sizeof(buf)));
}

int rctl_prom_end(struct rctl_prom *p)
{
	return p->openmetrics ? prom_put(p, "# EOF\n") : p->err;
}

int rctl_prom_status(const struct rctl_prom *p, struct rctl_err *e)
{
	if (!p->err)
		return 0;
	return rctl_err_strerror(e, -p->err, "cannot format Prometheus metrics%s%s",
			    p->family[0] ? " of " : "", p->family);
}

void rctl_prom_free(struct rctl_prom *p)
{
	size_t i;

	for (i = 0; i < p->n_done; i++)
		free(p->done[i]);
	free(p->done);
	free(p->buf);
	memset(p, 0, sizeof(*p));
}
