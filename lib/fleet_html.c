// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fleet report as one HTML page (fleet_html.h). Every string of a
 * snapshot goes through esc(); put() takes only this file's own literals and
 * numbers. The page needs no script: the map's links are fragment links,
 * the details of a host a <details> element.
 */
#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rocectl/compare.h"
#include "rocectl/fleet_html.h"
#include "rocectl/json.h"
#include "rocectl/rules.h"

/*
 * The style sheet, and its SHA-256 in base64 for the CSP's style-src (CSP
 * Level 3, "hash-source"): change one, change the other. tests/cli/html.bats
 * computes the hash of the <style> element of a report and prints the one
 * to put here when they differ; Chromium refuses the sheet otherwise.
 * A status class (pass, warn, fail, unknown) colours a grid cell's
 * background and a map box's fill alike.
 */
const char rctl_html_css[] =
	"body{font:14px/1.4 sans-serif;margin:1.5em;color:#1b1b1b;background:#fff}"
	"h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}"
	"table{border-collapse:collapse;margin:.5em 0}"
	"th,td{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}"
	"th{background:#eee}"
	".pass{background:#c8e6c9;fill:#c8e6c9}.warn{background:#ffe082;fill:#ffe082}"
	".fail{background:#ef9a9a;fill:#ef9a9a}.unknown{background:#d1c4e9;fill:#d1c4e9}"
	".skip,.none{background:#f5f5f5;color:#777}"
	".stale{font-weight:bold;color:#b71c1c}"
	"code{white-space:pre-wrap;overflow-wrap:break-word}.grid td{white-space:nowrap}"
	"details{margin:.4em 0}summary{cursor:pointer}"
	".legend span{display:inline-block;padding:0 .6em;margin-right:.4em;border:1px solid #999}"
	"svg text{font:12px sans-serif;fill:#1b1b1b}"
	"svg .sw{fill:#e3f2fd;stroke:#1565c0}"
	"svg .nolldp{fill:#fafafa;stroke:#777;stroke-dasharray:4 3}"
	"svg line{stroke:#555}svg rect.host{stroke:#555}";
const char rctl_html_css_hash[] = "sha256-5jPZgMHXV3wyk/zsQFaEvyLoE75KNFnxqRPTC3kFjos=";

/* ---- the buffer -------------------------------------------------------- */

struct hbuf {
	char *p;
	size_t len, cap;
	int err;
};

static bool reserve(struct hbuf *b, size_t more)
{
	size_t cap;
	char *p;

	if (b->err)
		return false;
	if (b->len + more + 1 <= b->cap)
		return true;
	for (cap = b->cap ? b->cap : 16384; cap < b->len + more + 1; cap *= 2)
		;
	p = realloc(b->p, cap);
	if (!p) {
		b->err = -ENOMEM;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

static void add(struct hbuf *b, const char *s, size_t n)
{
	if (!reserve(b, n))
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

/* This file's markup, with numbers: never a string of a snapshot. */
__attribute__((format(printf, 2, 3))) static void put(struct hbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* ---- escaping ---------------------------------------------------------- */

#define REPLACEMENT "\xef\xbf\xbd"	/* U+FFFD */
#define ELLIPSIS "\xe2\x80\xa6"		/* U+2026 */

/*
 * One character at s: its length (0: no UTF-8), and whether it is a control
 * character (C0 but tab and newline, DEL, C1), which a page has no use for.
 */
static size_t char_len(const unsigned char *s, size_t left, bool *ctrl)
{
	size_t n = *s < 0x80 ? 1 : rctl_utf8_len(s, left);

	*ctrl = (*s < 0x20 && *s != '\t' && *s != '\n') || *s == 0x7f ||
		(n == 2 && s[0] == 0xc2 && s[1] < 0xa0);
	return n;
}

static void esc_n(struct hbuf *b, const char *str, size_t max_chars)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	const unsigned char *end = s + strlen((const char *)s);
	size_t chars = 0, n;
	bool ctrl;

	for (; *s; s += n ? n : 1) {
		if (max_chars && chars++ == max_chars) {
			add(b, ELLIPSIS, 3);
			return;
		}
		n = char_len(s, (size_t)(end - s), &ctrl);
		if (!n || ctrl)
			add(b, REPLACEMENT, 3);
		else if (*s == '&')
			add(b, "&amp;", 5);
		else if (*s == '<')
			add(b, "&lt;", 4);
		else if (*s == '>')
			add(b, "&gt;", 4);
		else if (*s == '"')
			add(b, "&quot;", 6);
		else if (*s == '\'')
			add(b, "&#39;", 5);
		else
			add(b, (const char *)s, n);
	}
}

static void esc(struct hbuf *b, const char *s)
{
	esc_n(b, s, 0);
}

size_t rctl_html_escape(char *dst, size_t len, const char *s, size_t max_chars)
{
	struct hbuf b = { 0 };
	size_t n;

	esc_n(&b, s, max_chars);
	n = b.len;
	if (len)
		snprintf(dst, len, "%s", b.p ? b.p : "");
	free(b.p);
	return b.err ? 0 : n;
}

/* ---- pieces ------------------------------------------------------------ */

static enum rctl_status host_status(const struct rctl_fleet_host *h)
{
	return rctl_fleet_exit_status(h->exit);
}

static bool stale(const struct rctl_fleet_html *r, const struct rctl_fleet_host *h)
{
	return r->max_age_s > 0 && rctl_fleet_stale(h, r->now, r->max_age_s);
}

/* <td class="C">text</td> */
static void td(struct hbuf *b, const char *cls, const char *text)
{
	if (cls)
		put(b, "<td class=\"%s\">", cls);
	else
		put(b, "<td>");
	esc(b, text);
	put(b, "</td>");
}

static void head(struct hbuf *b, const struct rctl_fleet_html *r)
{
	put(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	    "style-src '%s'; base-uri 'none'; form-action 'none'\">\n"
	    "<meta name=\"referrer\" content=\"no-referrer\">\n"
	    "<meta name=\"generator\" content=\"rocectl %s\">\n<title>rocectl ",
	    rctl_html_css_hash, ROCECTL_VERSION);
	esc(b, r->command);
	put(b, ": %u hosts</title>\n<style>%s</style>\n</head>\n<body>\n<h1>rocectl ",
	    r->fl->n, rctl_html_css);
	esc(b, r->command);
	put(b, ": %u hosts</h1>\n", r->fl->n);
}

static void intent(struct hbuf *b, const struct rctl_intent *in)
{
	put(b, "<p id=\"intent\">Intent <b>");
	esc(b, in->profile);
	put(b, "</b>: RoCE v%d on priority %d (DSCP %d), PFC %s, ECN %s, CNP DSCP %d on "
	    "priority %d, ToS %d, MTU %u, loss budget %g", in->roce_version, in->prio,
	    in->dscp, in->pfc ? "on" : "off", in->ecn ? "on" : "off", in->cnp_dscp,
	    in->cnp_prio, in->tos, in->mtu, in->loss_budget);
	if (in->conf[0]) {
		put(b, " (");
		esc(b, in->conf);
		put(b, ")");
	}
	put(b, ".</p>\n");
}

static void summary(struct hbuf *b, const struct rctl_fleet_html *r)
{
	uint32_t c[RCTL_STATUS_N] = { 0 }, n_stale = 0, i;

	for (i = 0; i < r->fl->n; i++) {
		c[host_status(&r->fl->hosts[i])]++;
		n_stale += stale(r, &r->fl->hosts[i]);
	}
	put(b, "<p id=\"summary\">%u hosts judged: <span class=\"pass\">%u ok</span>, "
	    "<span class=\"warn\">%u warnings</span>, <span class=\"fail\">%u failed</span>, "
	    "<span class=\"unknown\">%u unknown</span>; %u snapshots unreadable",
	    r->fl->n, c[RCTL_PASS], c[RCTL_WARN], c[RCTL_FAIL], c[RCTL_UNKNOWN],
	    r->fl->cmp.n_bad);
	if (r->max_age_s > 0)
		put(b, ", %u stale (older than %g h)", n_stale, r->max_age_s / 3600);
	put(b, " (exit %d).</p>\n", r->status);
	put(b, "<p class=\"legend\"><span class=\"pass\">ok</span><span class=\"warn\">warn"
	    "</span><span class=\"fail\">FAIL</span><span class=\"unknown\">unknown</span>"
	    "<span class=\"skip\">skip: not judged</span><span class=\"none\">-: nothing to "
	    "judge</span></p>\n");
}

/* ---- the hosts x areas grid ------------------------------------------- */

static void grid_row(struct hbuf *b, const struct rctl_fleet_html *r, uint32_t i, bool files)
{
	const struct rctl_fleet_host *h = &r->fl->hosts[i];
	const struct rctl_finding *first = rctl_fleet_first(h);
	char when[32];
	int a;

	put(b, "<tr id=\"h-%u\"><td><a href=\"#f-%u\">", i, i);
	esc(b, h->hostname);
	put(b, "</a></td>");
	if (files)
		td(b, NULL, h->file);
	put(b, "<td%s>", stale(r, h) ? " class=\"stale\"" : "");
	esc(b, rctl_fleet_time(h->time, when, sizeof(when)) ?: "unknown");
	put(b, "%s</td>", stale(r, h) ? " (stale)" : "");
	td(b, rctl_status_name(host_status(h)), rctl_status_name(host_status(h)));
	for (a = 0; a < RCTL_AREA_N; a++) {
		const struct rctl_fleet_cell *c = &h->area[a];

		if (!(r->areas & (1u << a)))
			continue;
		put(b, "<td class=\"%s\"", !c->ran ? "skip" : !c->n ? "none" :
		    rctl_status_name(c->worst));
		if (c->ran && c->n && c->worst != RCTL_PASS) {
			put(b, " title=\"");
			esc(b, c->first);
			put(b, "\"");
		}
		put(b, ">%s</td>", rctl_fleet_cell_word(c));
	}
	put(b, "<td>");
	if (first) {
		esc(b, first->id);
		put(b, " ");
		esc(b, first->target);
	} else {
		put(b, "-");
	}
	put(b, "</td></tr>\n");
}

static void grid(struct hbuf *b, const struct rctl_fleet_html *r)
{
	bool files = rctl_cmp_hosts_repeat(&r->fl->cmp);
	uint32_t i;
	int a;

	put(b, "<h2 id=\"grid\">Hosts \xc3\x97 areas</h2>\n<table class=\"grid\">\n<thead><tr>"
	    "<th>host</th>%s<th>snapshot taken</th><th>status</th>", files ? "<th>file</th>" : "");
	for (a = 0; a < RCTL_AREA_N; a++)
		if (r->areas & (1u << a))
			put(b, "<th>%s</th>", rctl_area_name(a));
	put(b, "<th>first finding of the worst status</th></tr></thead>\n<tbody>\n");
	for (i = 0; i < r->fl->n; i++)
		grid_row(b, r, i, files);
	put(b, "</tbody>\n</table>\n");
}

/* ---- the host <-> switch map ------------------------------------------ */

/*
 * One band per switch (the LLDP neighbour's system name, else its chassis
 * id; the hosts without one in a dashed band of their own): the switch box
 * on the left, one row per host on the right, coloured by its status, the
 * line between them labelled with the switch ports (or, without LLDP, the
 * host's netdevs). The groups are rctl_fleet_groups()'s by switch, in its
 * order: most failing first.
 */
#define MAP_W 720
#define MAP_ROW 24
#define MAP_GAP 14
#define MAP_SW_X 10
#define MAP_SW_W 250
#define MAP_HOST_X 450
#define MAP_HOST_W 260
#define MAP_BAND(n) ((n) * MAP_ROW > 44 ? (n) * MAP_ROW + 8 : 52)

static void map_member(struct hbuf *b, const struct rctl_fleet_html *r,
		       const struct rctl_fleet_member *m, unsigned int y)
{
	const struct rctl_fleet_host *h = &r->fl->hosts[m->host];
	const char *st = rctl_status_name(m->status);

	put(b, "<g class=\"member\" data-host=\"");
	esc(b, h->hostname);
	put(b, "\"><title>");
	esc(b, h->hostname);
	put(b, ": %s", st);
	if (m->where[0]) {
		put(b, " (");
		esc(b, m->where);
		put(b, ")");
	}
	put(b, "</title><line x1=\"%d\" y1=\"%u\" x2=\"%d\" y2=\"%u\"/>"
	    "<text x=\"%d\" y=\"%u\">", MAP_SW_X + MAP_SW_W, y, MAP_HOST_X, y,
	    MAP_SW_X + MAP_SW_W + 8, y - 4);
	esc_n(b, m->where, 28);
	put(b, "</text><a href=\"#f-%u\"><rect class=\"host %s\" x=\"%d\" y=\"%u\" width=\"%d\" "
	    "height=\"18\" rx=\"3\"/><text x=\"%d\" y=\"%u\">", m->host, st, MAP_HOST_X,
	    y - 9, MAP_HOST_W, MAP_HOST_X + 6, y + 4);
	esc_n(b, h->hostname, 30);
	put(b, " \xc2\xb7 %s</text></a></g>\n", st);
}

static void map_group(struct hbuf *b, const struct rctl_fleet_html *r,
		      const struct rctl_fleet_group *g, unsigned int y)
{
	bool none = !strcmp(g->key, RCTL_FLEET_NO_SWITCH) || !strcmp(g->key, RCTL_FLEET_NO_PORT);
	uint32_t k;

	put(b, "<g class=\"switch\" data-switch=\"");
	esc(b, g->key);
	put(b, "\"><title>");
	esc(b, g->key);
	put(b, ": %u failed, %u unknown, %u warnings, %u ok</title>"
	    "<rect class=\"%s\" x=\"%d\" y=\"%u\" width=\"%d\" height=\"%u\" rx=\"4\"/>"
	    "<text x=\"%d\" y=\"%u\">", g->count[RCTL_FAIL], g->count[RCTL_UNKNOWN],
	    g->count[RCTL_WARN], g->count[RCTL_PASS], none ? "nolldp" : "sw", MAP_SW_X, y,
	    MAP_SW_W, MAP_BAND(g->n), MAP_SW_X + 8, y + 18);
	esc_n(b, g->key, 34);
	put(b, "</text><text x=\"%d\" y=\"%u\">%u hosts: %u failed, %u warnings</text>\n",
	    MAP_SW_X + 8, y + 36, g->n, g->count[RCTL_FAIL], g->count[RCTL_WARN]);
	for (k = 0; k < g->n; k++)
		map_member(b, r, &g->m[k], y + 4 + k * MAP_ROW + MAP_ROW / 2);
	put(b, "</g>\n");
}

static int map(struct hbuf *b, const struct rctl_fleet_html *r)
{
	struct rctl_fleet_group *g;
	uint32_t n, i;
	unsigned int y, height = MAP_GAP;

	if (rctl_fleet_groups(r->fl, RCTL_FLEET_BY_SWITCH, &g, &n))
		return -ENOMEM;
	for (i = 0; i < n; i++)
		height += MAP_BAND(g[i].n) + MAP_GAP;
	put(b, "<h2 id=\"map\">Hosts and their switch ports (LLDP)</h2>\n"
	    "<p>Each switch is the LLDP neighbour a snapshot names (its system name, else its "
	    "chassis id), beside the switch ports each host's RoCE netdevs are cabled to; the "
	    "dashed box holds the hosts whose snapshot has no LLDP neighbour (their netdevs "
	    "named).</p>\n<svg id=\"tor-map\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%u\" viewBox=\"0 0 %d %u\" role=\"img\" aria-label=\"hosts and their "
	    "switch ports\">\n", MAP_W, height, MAP_W, height);
	for (i = 0, y = MAP_GAP; i < n; i++) {
		map_group(b, r, &g[i], y);
		y += MAP_BAND(g[i].n) + MAP_GAP;
	}
	put(b, "</svg>\n");
	rctl_fleet_groups_free(g, n);
	return 0;
}

/* ---- --by, outliers, unreadable snapshots ----------------------------- */

static int groups(struct hbuf *b, const struct rctl_fleet_html *r)
{
	struct rctl_fleet_group *g;
	uint32_t n, i, k;

	if (r->by == RCTL_FLEET_BY_NONE)
		return 0;
	if (rctl_fleet_groups(r->fl, r->by, &g, &n))
		return -ENOMEM;
	put(b, "<h2 id=\"groups\">By %s</h2>\n<table class=\"groups\">\n<thead><tr><th>%s</th>"
	    "<th>failed</th><th>unknown</th><th>warnings</th><th>ok</th><th>hosts not ok</th>"
	    "</tr></thead>\n<tbody>\n", rctl_fleet_by_names[r->by], rctl_fleet_by_names[r->by]);
	for (i = 0; i < n; i++) {
		put(b, "<tr><td>");
		esc(b, g[i].key);
		if (g[i].ports[0]) {
			put(b, "<br>not ok on ports ");
			esc(b, g[i].ports);
		}
		put(b, "</td><td>%u</td><td>%u</td><td>%u</td><td>%u</td><td>", g[i].count[RCTL_FAIL],
		    g[i].count[RCTL_UNKNOWN], g[i].count[RCTL_WARN], g[i].count[RCTL_PASS]);
		for (k = 0; k < g[i].n; k++) {
			if (g[i].m[k].status == RCTL_PASS)
				continue;
			put(b, "<a class=\"%s\" href=\"#f-%u\">", rctl_status_name(g[i].m[k].status),
			    g[i].m[k].host);
			esc(b, r->fl->hosts[g[i].m[k].host].hostname);
			put(b, "</a> ");
			if (g[i].m[k].where[0]) {
				put(b, "(");
				esc(b, g[i].m[k].where);
				put(b, ") ");
			}
		}
		put(b, "</td></tr>\n");
	}
	put(b, "</tbody>\n</table>\n");
	rctl_fleet_groups_free(g, n);
	return 0;
}

static int outliers(struct hbuf *b, const struct rctl_fleet *fl)
{
	struct rctl_cmp_outlier *ol = NULL;
	uint32_t i, n = 0;

	if (rctl_cmp_outliers(&fl->cmp, &ol, &n))
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const struct rctl_cmp_row *row = &fl->cmp.rows[ol[i].row];
		const char *v = row->v[ol[i].col];

		if (!i)
			put(b, "<h2 id=\"outliers\">Outliers among their driver family's ports "
			    "(as rocectl compare)</h2>\n<table class=\"outliers\">\n<thead><tr>"
			    "<th>host</th><th>port</th><th>setting</th><th>value</th>"
			    "<th>most common</th><th>among</th></tr></thead>\n<tbody>\n");
		put(b, "<tr>");
		td(b, NULL, row->host);
		td(b, NULL, row->target);
		td(b, NULL, rctl_cmp_keys[ol[i].col]);
		td(b, NULL, v[0] ? v : "n/a");
		td(b, NULL, ol[i].common >= 0 ? fl->cmp.rows[ol[i].common].v[ol[i].col] :
		   "(no value is held by most)");
		td(b, NULL, row->group);
		put(b, "</tr>\n");
	}
	if (n)
		put(b, "</tbody>\n</table>\n");
	free(ol);
	return 0;
}

static void unreadable(struct hbuf *b, const struct rctl_fleet *fl)
{
	uint32_t i;

	if (!fl->cmp.n_bad)
		return;
	put(b, "<h2 id=\"unreadable\">Unreadable snapshots (%u), not judged</h2>\n<ul>\n",
	    fl->cmp.n_bad);
	for (i = 0; i < fl->cmp.n_bad; i++) {
		put(b, "<li class=\"unknown\"><code>");
		esc(b, fl->cmp.bad[i].file);
		put(b, "</code>: ");
		esc(b, fl->cmp.bad[i].reason);
		put(b, "</li>\n");
	}
	put(b, "</ul>\n");
}

/* ---- each host's findings --------------------------------------------- */

static void host_ports(struct hbuf *b, const struct rctl_fleet_host *h)
{
	uint32_t k;

	if (!h->n_links) {
		put(b, "<p>No RoCE port.</p>\n");
		return;
	}
	put(b, "<table class=\"ports\">\n<thead><tr><th>port</th><th>netdev</th>"
	    "<th>driver</th><th>switch</th><th>switch port</th></tr></thead>\n<tbody>\n");
	for (k = 0; k < h->n_links; k++) {
		const struct rctl_fleet_link *l = &h->links[k];

		put(b, "<tr><td>");
		esc(b, l->device);
		put(b, "/%u</td>", l->port);
		td(b, NULL, l->netdev[0] ? l->netdev : "-");
		td(b, NULL, l->family);
		td(b, l->has_peer ? NULL : "none", l->has_peer ? l->sw : "no LLDP neighbour");
		td(b, l->has_peer ? NULL : "none", l->has_peer ? l->sw_port : "-");
		put(b, "</tr>\n");
	}
	put(b, "</tbody>\n</table>\n");
}

static void finding(struct hbuf *b, const struct rctl_finding *f)
{
	put(b, "<tr class=\"finding\">");
	td(b, rctl_status_name(f->status), rctl_status_name(f->status));
	put(b, "<td><code>");
	esc(b, f->id);
	put(b, "</code></td>");
	td(b, NULL, f->target);
	td(b, NULL, f->message);
	td(b, NULL, f->expected);
	td(b, NULL, f->observed);
	td(b, NULL, f->evidence);
	put(b, "<td>");
	if (f->fix[0]) {
		put(b, "<code>");
		esc(b, f->fix);
		put(b, "</code>");
	}
	put(b, "</td></tr>\n");
}

static void host_section(struct hbuf *b, const struct rctl_fleet_html *r, uint32_t i)
{
	const struct rctl_fleet_host *h = &r->fl->hosts[i];
	enum rctl_status st = host_status(h);
	char when[32];
	uint32_t k;

	put(b, "<section class=\"host\" id=\"f-%u\">\n<details%s><summary><b>", i,
	    st != RCTL_PASS ? " open" : "");
	esc(b, h->hostname);
	put(b, "</b> <span class=\"%s\">%s</span>, %u findings that are no pass</summary>\n",
	    rctl_status_name(st), rctl_status_name(st), h->n_f);
	if (h->file[0]) {	/* no file: this host, read live */
		put(b, "<p>Snapshot <code>");
		esc(b, h->file);
		put(b, "</code>, taken ");
	} else {
		put(b, "<p>Read from the host itself, ");
	}
	esc(b, rctl_fleet_time(h->time, when, sizeof(when)) ?: "at an unknown time");
	put(b, "%s; %u passed, %u warnings, %u failed, %u unknown.</p>\n",
	    stale(r, h) ? " <span class=\"stale\">(stale)</span>" : "", h->count[RCTL_PASS],
	    h->count[RCTL_WARN], h->count[RCTL_FAIL], h->count[RCTL_UNKNOWN]);
	host_ports(b, h);
	if (h->n_f) {
		put(b, "<table class=\"findings\">\n<thead><tr><th>status</th><th>rule</th>"
		    "<th>target</th><th>finding</th><th>expected</th><th>got</th>"
		    "<th>evidence</th><th>fix</th></tr></thead>\n<tbody>\n");
		for (k = 0; k < h->n_f; k++)
			finding(b, &h->f[k]);
		put(b, "</tbody>\n</table>\n");
	}
	put(b, "</details>\n</section>\n");
}

int rctl_fleet_html(const struct rctl_fleet_html *r, char **buf, size_t *len)
{
	struct hbuf b = { 0 };
	uint32_t i;
	int ret;

	head(&b, r);
	intent(&b, r->in);
	summary(&b, r);
	grid(&b, r);
	ret = map(&b, r) ?: groups(&b, r) ?: outliers(&b, r->fl);
	unreadable(&b, r->fl);
	put(&b, "<h2 id=\"findings\">Findings by host</h2>\n");
	for (i = 0; i < r->fl->n; i++)
		host_section(&b, r, i);
	put(&b, "</body>\n</html>\n");
	ret = ret ?: b.err;
	if (ret) {
		free(b.p);
		return ret;
	}
	*buf = b.p;
	*len = b.len;
	return 0;
}
