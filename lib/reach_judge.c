// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pure judgements of reach: which side's MTU makes a black hole, the
 * --targets file, and the worst exit status of many targets.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/collect.h"
#include "rocectl/reach.h"

const char *rctl_mtu_side_name(enum rctl_mtu_side s)
{
	static const char *const n[] = {
		[RCTL_MTU_UNKNOWN] = "unknown", [RCTL_MTU_PEER] = "peer",
		[RCTL_MTU_LOCAL] = "local", [RCTL_MTU_PATH] = "path",
	};
	return s <= RCTL_MTU_PATH ? n[s] : "unknown";
}

/* "veth0 mtu 9000, active_mtu 4096" with the unknown parts left out. */
static void view_str(const struct rctl_mtu_view *v, char *buf, size_t len)
{
	int n = 0;

	if (v->netdev_mtu)
		n = snprintf(buf, len, "%s mtu %u, ", v->netdev[0] ? v->netdev : "netdev",
			     v->netdev_mtu);
	snprintf(buf + n, len - (size_t)n, "active_mtu %u", v->active_mtu);
}

enum rctl_mtu_side rctl_mtu_cause(const struct rctl_mtu_view *local,
				  const struct rctl_mtu_view *peer,
				  const char *peer_name, uint32_t largest_ok,
				  uint32_t smallest_bad, char *msg, size_t len)
{
	char l[64], p[64];
	int n;

	view_str(local, l, sizeof(l));
	view_str(peer, p, sizeof(p));
	n = snprintf(msg, len, "messages up to %u bytes pass, %u bytes stall: ",
		     largest_ok, smallest_bad);
	if (n < 0 || (size_t)n >= len)
		return RCTL_MTU_UNKNOWN;
	msg += n;
	len -= (size_t)n;
	if (!peer->active_mtu) {
		snprintf(msg, len, "this side sends path_mtu %u (%s); '%s' did not report its MTU (serve older than handshake v2?)",
			 local->path_mtu, l, peer_name);
		return RCTL_MTU_UNKNOWN;
	}
	if (local->path_mtu > peer->active_mtu) {
		snprintf(msg, len, "this side sends path_mtu %u (%s) but '%s' takes at most %s: the peer's smaller MTU drops full-size RoCE packets; give both sides the same MTU",
			 local->path_mtu, l, peer_name, p);
		return RCTL_MTU_PEER;
	}
	if (local->active_mtu && peer->active_mtu > local->active_mtu) {
		snprintf(msg, len, "'%s' answers with up to %s but this side takes at most %s: this side's smaller MTU drops the peer's full-size packets; give both sides the same MTU",
			 peer_name, p, l);
		return RCTL_MTU_LOCAL;
	}
	snprintf(msg, len, "both hosts allow path_mtu %u (this side %s; '%s' %s): a link or switch between them has a smaller MTU",
		 local->path_mtu, l, peer_name, p);
	return RCTL_MTU_PATH;
}

/* ---- --targets FILE ----------------------------------------------------- */

static int push_target(char ***list, unsigned int *n, const char *s, size_t len)
{
	char **l, *t;

	if (*n >= RCTL_REACH_MAX_TARGETS)
		return -E2BIG;
	t = strndup(s, len);
	l = t ? realloc(*list, (*n + 1) * sizeof(*l)) : NULL;
	if (!l) {
		free(t);
		return -ENOMEM;
	}
	l[(*n)++] = t;
	*list = l;
	return 0;
}

int rctl_target_split(const char *target, char *host, size_t len, int *port)
{
	const char *colon = strrchr(target, ':'), *p = NULL;
	size_t hl = strlen(target);
	char *end;
	long v;

	*port = -1;
	if (target[0] == '[') {			/* [v6] or [v6]:port */
		const char *close = strchr(target, ']');

		if (!close || (close[1] && close[1] != ':'))
			return -EINVAL;
		p = close[1] ? close + 2 : NULL;
		target++;
		hl = (size_t)(close - target);
	} else if (colon && colon == strchr(target, ':')) {	/* one colon: host:port */
		p = colon + 1;
		hl = (size_t)(colon - target);
	}				/* more colons: an IPv6 address alone */
	if (!hl || hl >= len)
		return -EINVAL;
	if (p) {
		if (!isdigit((unsigned char)*p))	/* strtol would take " 1" and "+1" */
			return -EINVAL;
		errno = 0;
		v = strtol(p, &end, 10);
		if (errno || *end || v < 1 || v > 65535)
			return -EINVAL;
		*port = (int)v;
	}
	snprintf(host, len, "%.*s", (int)hl, target);
	return 0;
}

/* "[01-03,7]": true, with the list between the brackets; "[fe80::1]" is an address. */
static bool is_range(const char *open, const char **close)
{
	const char *c = open + 1;

	if (!isdigit((unsigned char)*c))
		return false;
	while (isdigit((unsigned char)*c) || *c == '-' || *c == ',')
		c++;
	*close = c;
	return *c == ']';
}

/*
 * pdsh's and clush's hostlists: "node[01-03,7]" is node01 node02 node03
 * node7, a number as wide as the lower bound it comes from ("01" pads to
 * two digits); several groups multiply ("r[1-2]n[1-2]").
 */
static int expand(char ***list, unsigned int *n, const char *t)
{
	const char *open = t, *close = NULL, *item;
	char buf[512];
	int ret = 0;

	while ((open = strchr(open, '[')) && !is_range(open, &close))
		open++;
	if (!open)
		return push_target(list, n, t, strlen(t));
	for (item = open + 1; item < close && !ret; item += strcspn(item, ",]") + 1) {
		unsigned long lo, hi, v;
		char *end;
		int width = item[0] == '0' && isdigit((unsigned char)item[1]) ?
			    (int)strspn(item, "0123456789") : 1;

		lo = strtoul(item, &end, 10);
		hi = *end == '-' ? strtoul(end + 1, &end, 10) : lo;
		if ((*end != ',' && *end != ']') || hi < lo || end == item)
			return -EINVAL;
		for (v = lo; v <= hi && !ret; v++) {
			if (snprintf(buf, sizeof(buf), "%.*s%0*lu%s", (int)(open - t), t, width, v,
				     close + 1) >= (int)sizeof(buf))
				return -ENAMETOOLONG;
			ret = expand(list, n, buf);
		}
	}
	return ret;
}

/* One target as typed: a hostlist expanded, each name and :port checked. */
static int add_expanded(char ***list, unsigned int *n, const char *target,
			const char *where, struct rctl_err *e)
{
	unsigned int first = *n, i;
	char host[256];
	int ret, port;

	ret = expand(list, n, target);
	if (ret == -E2BIG)
		return rctl_err_plain(e, E2BIG, "%smore than %u targets", where,
				    RCTL_REACH_MAX_TARGETS);
	if (ret == -EINVAL || ret == -ENAMETOOLONG)
		return rctl_err_plain(e, EINVAL, "%sinvalid host list '%.64s'", where, target);
	if (ret)
		return rctl_err_strerror(e, -ret, "%scannot add target '%.64s'", where, target);
	for (i = first; i < *n; i++)
		if (rctl_target_split((*list)[i], host, sizeof(host), &port))
			return rctl_err_plain(e, EINVAL, "%sinvalid target '%.64s' (HOST, HOST:PORT or [IPV6]:PORT)",
					    where, (*list)[i]);
	return 0;
}

int rctl_reach_targets_add(char ***list, unsigned int *n, const char *target,
			   struct rctl_err *e)
{
	if (!*target || strlen(target) > 255)
		return rctl_err_plain(e, EINVAL, "reach: invalid target '%.64s'", target);
	return add_expanded(list, n, target, "reach: ", e);
}

/* A control character inside an address (\f, ESC) that a terminal would act on. */
static bool has_cntrl(const char *a, const char *b)
{
	for (; a < b; a++)
		if (iscntrl((unsigned char)*a))
			return true;
	return false;
}

/* The first word of a line, as /etc/hosts has it ("10.0.0.2 node02 n2"). */
int rctl_reach_targets_parse(const char *text, const char *file, char ***list,
			     unsigned int *n, struct rctl_err *e)
{
	const char *line = text, *end, *a, *b, *w;
	unsigned int lineno = 0;
	char where[300], word[256];
	int ret;

	for (; *line; line = *end ? end + 1 : end) {
		end = line + strcspn(line, "\n");
		lineno++;
		for (b = line; b < end && *b != '#'; b++)
			;
		for (a = line; a < b && isspace((unsigned char)*a); a++)
			;
		for (w = a; w < b && !isspace((unsigned char)*w); w++)
			;
		if (a == w)
			continue;
		snprintf(where, sizeof(where), "'%s' line %u: ", file, lineno);
		if (has_cntrl(a, w))
			return rctl_err_plain(e, EINVAL, "%sa control character in the address", where);
		if (w - a > 255)
			return rctl_err_plain(e, EINVAL, "%saddress too long", where);
		snprintf(word, sizeof(word), "%.*s", (int)(w - a), a);
		ret = add_expanded(list, n, word, where, e);
		if (ret)
			return ret;
	}
	return 0;
}

int rctl_reach_targets_load(const char *path, char ***list, unsigned int *n,
			    struct rctl_err *e)
{
	char *text;
	FILE *f;
	size_t got;
	int ret;

	f = strcmp(path, "-") ? fopen(path, "re") : stdin;
	if (!f)
		return rctl_err_strerror(e, errno, "cannot open '%s'", path);
	text = malloc(1 << 20);
	errno = 0;
	got = text ? fread(text, 1, (1 << 20) - 1, f) : 0;
	ret = !text ? -ENOMEM : ferror(f) ? -(errno ? errno : EIO) : !feof(f) ? -EFBIG : 0;
	if (f != stdin)
		fclose(f);
	if (ret) {
		free(text);
		return rctl_err_plain(e, -ret, "cannot read '%s': %s", path,
				    ret == -EFBIG ? "larger than 1 MiB" : strerror(-ret));
	}
	text[got] = '\0';
	if (strlen(text) != got) {
		free(text);
		return rctl_err_plain(e, EINVAL, "'%s' is not a text file", path);
	}
	ret = rctl_reach_targets_parse(text, path, list, n, e);
	free(text);
	return ret;
}

void rctl_reach_targets_free(char **list, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

static int rank(int status)
{
	return status == RCTL_EXIT_FAIL ? 3 : status == RCTL_EXIT_UNKNOWN ? 2 :
	       status == RCTL_EXIT_WARN ? 1 : 0;
}

int rctl_reach_worst(int a, int b)
{
	return rank(a) >= rank(b) ? a : b;
}
