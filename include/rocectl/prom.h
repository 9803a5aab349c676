/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Prometheus text exposition format (0.0.4), as node_exporter's textfile
 * collector reads it: "# HELP" and "# TYPE" once per family, the family's
 * samples together right after, label values escaped (\\, \", \n).
 * Built in memory; the caller writes prom->buf through its output path.
 *
 * With .openmetrics set, the same calls write OpenMetrics 1.0 text instead
 * (what Prometheus asks for first when it scrapes): a counter's family is
 * named without its "_total" (the samples keep it), "untyped" is "unknown",
 * HELP escapes '"' too, and rctl_prom_end() closes the text with "# EOF".
 * The two formats cannot be one text: promtool wants "_total" on a
 * counter's TYPE line, the OpenMetrics parser refuses it there.
 */
#ifndef ROCECTL_PROM_H
#define ROCECTL_PROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rocectl/err.h"

struct rctl_prom {
	char *buf;		/* NUL-terminated text */
	size_t len, cap;
	int err;		/* first error (-errno); later calls do nothing */
	char family[128];	/* the family being written */
	char **done;		/* families already closed, to refuse repeats */
	size_t n_done;
	bool openmetrics;	/* OpenMetrics 1.0 instead of text 0.0.4 */
};

/* A label: name=value. A sample takes an array of n of them. */
struct rctl_prom_label {
	const char *name;
	const char *value;
};

/*
 * Start family "name" (type: counter, gauge, untyped, or info: a name ending in
 * "_info", samples of 1; a gauge in the text format). -EINVAL if repeated or malformed.
 */
int rctl_prom_family(struct rctl_prom *p, const char *name, const char *type,
		     const char *help);
/* One sample of the current family. */
int rctl_prom_u64(struct rctl_prom *p, const struct rctl_prom_label *l, size_t n,
		  uint64_t v);
int rctl_prom_dbl(struct rctl_prom *p, const struct rctl_prom_label *l, size_t n,
		  double v);
/* The end of the exposition: "# EOF" in OpenMetrics, nothing in text 0.0.4. */
int rctl_prom_end(struct rctl_prom *p);
/* 0, or the first error with a message. */
int rctl_prom_status(const struct rctl_prom *p, struct rctl_err *e);
void rctl_prom_free(struct rctl_prom *p);

/* Helpers, exported for tests: escape a label value or a HELP text. */
int rctl_prom_escape(char *dst, size_t len, const char *s, int help);
int rctl_prom_valid_name(const char *s, int label);

#endif
