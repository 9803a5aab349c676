/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fleet report as one self-contained HTML page (check and doctor
 * -o html, lib/fleet_html.c): the summary, the hosts x areas grid, the
 * host <-> switch map drawn from LLDP as inline SVG, the groups of --by,
 * compare's outliers, the unreadable snapshots and each host's findings with
 * expected, got, evidence and fix. No script, no external resource: the
 * page's Content-Security-Policy allows its one style sheet (by its hash) and
 * nothing else. Every string that comes from a snapshot (host names, switch
 * names and ports, targets, evidence, file names) is escaped. The page holds
 * no time but the snapshots' own, so that the same snapshots give the same
 * page. Built in memory; cmd/ writes it.
 */
#ifndef ROCECTL_FLEET_HTML_H
#define ROCECTL_FLEET_HTML_H

#include <stddef.h>
#include <stdint.h>

#include "rocectl/fleet.h"
#include "rocectl/intent.h"

struct rctl_fleet_html {
	const struct rctl_fleet *fl;	/* sorted: rctl_fleet_sort() */
	const struct rctl_intent *in;
	const char *command;		/* "doctor", "check pfc ecn" */
	unsigned int areas;		/* the grid's columns: 1 << area */
	enum rctl_fleet_by by;		/* the groups section; NONE: none */
	int64_t now;			/* for staleness only, never printed */
	double max_age_s;		/* 0: one host, its age not judged */
	int status;			/* the run's exit status */
};

/*
 * The page, NUL-terminated, in *buf (malloc'ed) of *len bytes. 0 or
 * -ENOMEM.
 */
int rctl_fleet_html(const struct rctl_fleet_html *r, char **buf, size_t *len);

/*
 * s as HTML text or a quoted attribute value: & < > " ' as references,
 * control characters (but tab and newline) and bytes that are no UTF-8 as
 * U+FFFD. At most max_chars characters of s (0: all), then U+2026 when cut.
 * Written to dst as snprintf would (truncated to len, NUL-terminated);
 * returns the length of the whole escaped text.
 */
size_t rctl_html_escape(char *dst, size_t len, const char *s, size_t max_chars);

/* The page's style sheet and the CSP source that allows it ('sha256-...'). */
extern const char rctl_html_css[];
extern const char rctl_html_css_hash[];

#endif
