// SPDX-License-Identifier: GPL-2.0-or-later
/* rocectl_up, rocectl_last_success_timestamp_seconds, rocectl_build_info (prom_run.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/prom_run.h"

#ifndef ROCECTL_VERSION
#define ROCECTL_VERSION "0.1.0"
#endif

static const char last_family[] = "rocectl_last_success_timestamp_seconds";

void rctl_prom_run_families(struct rctl_prom *p, const struct rctl_prom_run *r)
{
	const struct rctl_prom_label cmd = { "command", r->command };
	char error[256];

	rctl_prom_family(p, "rocectl_up", "gauge",
			 "1 when rocectl ran to a result, 0 when it could not run (rocectl_error_info says why)");
	rctl_prom_u64(p, &cmd, 1, r->up);
	rctl_prom_family(p, last_family, "gauge",
			 "When rocectl last ran to a result, in seconds since the epoch");
	if (r->up)
		rctl_prom_u64(p, &cmd, 1, r->now);
	else if (r->have_last)
		rctl_prom_u64(p, &cmd, 1, r->last_success);
	if (!r->up && r->error && r->error[0]) {
		/* Bounded, so that its escaped form always fits a label. */
		snprintf(error, sizeof(error), "%s", r->error);
		rctl_prom_family(p, "rocectl_error_info", "info",
				 "Why rocectl could not run to a result: its error message; only when rocectl_up is 0");
		rctl_prom_u64(p, (struct rctl_prom_label[]){ cmd, { "error", error } }, 2, 1);
	}
	rctl_prom_family(p, "rocectl_build_info", "gauge",
			 "The version of rocectl that wrote these metrics; always 1");
	rctl_prom_u64(p, (struct rctl_prom_label[]){
		{ "version", ROCECTL_VERSION }, cmd,
	}, 2, 1);
}

/* 'rocectl_last_success_timestamp_seconds{command="doctor"} 1764626400' */
int rctl_prom_run_parse_line(const char *line, const char *command, uint64_t *ts)
{
	size_t fl = strlen(last_family), cl = strlen(command);
	unsigned long long v;
	char *end;

	if (strncmp(line, last_family, fl) || strncmp(line + fl, "{command=\"", 10))
		return -ENOENT;
	line += fl + 10;
	if (strncmp(line, command, cl) || strncmp(line + cl, "\"} ", 3))
		return -ENOENT;
	line += cl + 3;
	if (!isdigit((unsigned char)*line))
		return -ENOENT;
	errno = 0;
	v = strtoull(line, &end, 10);
	if (errno || (*end && strcmp(end, "\n")))
		return -ENOENT;
	*ts = v;
	return 0;
}

void rctl_prom_run_read_last(struct rctl_prom_run *r, const char *path)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	uint64_t ts;

	if (!f)
		return;
	while (getline(&line, &cap, f) > 0)
		if (!rctl_prom_run_parse_line(line, r->command, &ts)) {
			r->last_success = ts;
			r->have_last = true;
		}
	free(line);
	fclose(f);
}
