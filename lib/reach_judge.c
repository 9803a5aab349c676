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

int rctl_reach_targets_add(char ***list, unsigned int *n, const char *target,
			   struct rctl_err *e)
{
	size_t len = strlen(target);
	int ret;

	if (!len || len > 255)
		return rctl_err_msg(e, EINVAL, "reach: invalid target '%.64s'", target);
	ret = push_target(list, n, target, len);
	if (ret == -E2BIG)
		return rctl_err_msg(e, E2BIG, "reach: more than %u targets",
				    RCTL_REACH_MAX_TARGETS);
	return ret ? rctl_err_set(e, -ret, "cannot add target '%s'", target) : 0;
}

/* 0 for one word, 1 for whitespace inside, 2 for a control character (\f, ESC). */
static int word_check(const char *a, const char *b)
{
	for (; a < b; a++) {
		if (isspace((unsigned char)*a))
			return 1;
		if (iscntrl((unsigned char)*a))
			return 2;
	}
	return 0;
}

int rctl_reach_targets_parse(const char *text, const char *file, char ***list,
			     unsigned int *n, struct rctl_err *e)
{
	const char *line = text, *end, *a, *b;
	unsigned int lineno = 0;
	int ret;

	for (; *line; line = *end ? end + 1 : end) {
		end = line + strcspn(line, "\n");
		lineno++;
		for (b = line; b < end && *b != '#'; b++)
			;
		for (a = line; a < b && isspace((unsigned char)*a); a++)
			;
		while (b > a && isspace((unsigned char)b[-1]))
			b--;
		if (a == b)
			continue;
		ret = word_check(a, b);
		if (ret)
			return rctl_err_msg(e, EINVAL, "'%s' line %u: %s", file, lineno,
					    ret == 1 ? "one address per line" :
					    "a control character in the address");
		if (b - a > 255)
			return rctl_err_msg(e, EINVAL, "'%s' line %u: address too long",
					    file, lineno);
		ret = push_target(list, n, a, (size_t)(b - a));
		if (ret == -E2BIG)
			return rctl_err_msg(e, E2BIG, "'%s': more than %u targets",
					    file, RCTL_REACH_MAX_TARGETS);
		if (ret)
			return rctl_err_set(e, -ret, "cannot read '%s'", file);
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
		return rctl_err_set(e, errno, "cannot open '%s'", path);
	text = malloc(1 << 20);
	errno = 0;
	got = text ? fread(text, 1, (1 << 20) - 1, f) : 0;
	ret = !text ? -ENOMEM : ferror(f) ? -(errno ? errno : EIO) : !feof(f) ? -EFBIG : 0;
	if (f != stdin)
		fclose(f);
	if (ret) {
		free(text);
		return rctl_err_msg(e, -ret, "cannot read '%s': %s", path,
				    ret == -EFBIG ? "larger than 1 MiB" : strerror(-ret));
	}
	text[got] = '\0';
	if (strlen(text) != got) {
		free(text);
		return rctl_err_msg(e, EINVAL, "'%s' is not a text file", path);
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
