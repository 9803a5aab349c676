/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rocectl's own health beside its metrics, for node_exporter's textfile
 * collector: did this run reach a result (rocectl_up), when did it last
 * (rocectl_last_success_timestamp_seconds), which build wrote the file
 * (rocectl_build_info), and why it did not (rocectl_error_info). Every series carries command="doctor" (the command
 * path): two textfiles of one host (doctor, counters) never give node_exporter
 * the same series twice. rocectl-check(8) PROMETHEUS documents the families.
 */
#ifndef ROCECTL_PROM_RUN_H
#define ROCECTL_PROM_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "rocectl/prom.h"

struct rctl_prom_run {
	const char *command;	/* "doctor", "check all", "counters" */
	bool up;		/* the run reached its result */
	uint64_t now;		/* seconds since the epoch */
	bool have_last;		/* last_success is known */
	uint64_t last_success;	/* seconds since the epoch */
	const char *error;	/* why it did not, when known: rocectl_error_info */
};

/*
 * The families of r (the last success: now when up, else the one read back,
 * if any; when not up and the error is known, rocectl_error_info with it).
 */
void rctl_prom_run_families(struct rctl_prom *p, const struct rctl_prom_run *r);

/*
 * The last success of "command" that an earlier textfile at "path" recorded,
 * into r->last_success (r->have_last set); a file that is missing, unreadable
 * or without it leaves r as it was: the family then has no sample.
 */
void rctl_prom_run_read_last(struct rctl_prom_run *r, const char *path);

/* One line of such a file: 0 and *ts when it is command's last success, else -ENOENT. */
int rctl_prom_run_parse_line(const char *line, const char *command, uint64_t *ts);

#endif
