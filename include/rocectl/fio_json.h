/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A benchmark's result as fio writes it with --output-format=json+ (fio 3.x:
 * stat.c show_thread_status_json, add_ddir_status_json), so that the tools
 * and dashboards built on fio's output read rocectl's runs unchanged:
 * jobs[].read|write|trim with io_bytes, bw (KiB/s), iops, runtime (ms),
 * total_ios, slat_ns/clat_ns/lat_ns {min, max, mean, stddev, N}, clat_ns and
 * lat_ns "percentile" keyed "%f" as fio keys them, and json+'s "bins" (the
 * histogram's buckets by their midpoint in ns, as fio keys its own), plus
 * usr_cpu and sys_cpu in percent.
 *
 * rocectl times each I/O from the command's post to its completion, with no
 * system call between: that is fio's lat, and with a submission latency of
 * 0 its clat too, so both carry the same distribution and slat_ns is zero.
 */
#ifndef ROCECTL_FIO_JSON_H
#define ROCECTL_FIO_JSON_H

#include <stdint.h>
#include <time.h>

#include "rocectl/hist.h"

struct rctl_fio_job {
	const char *jobname;
	const char *rw;			/* fio's names: randread read randwrite write randrw */
	unsigned int rwmixread;		/* percent, randrw only */
	uint64_t bs;
	unsigned int iodepth, numjobs;
	double elapsed_s;		/* the measured window */
	double usr_s, sys_s;		/* CPU seconds in it */
	time_t timestamp;
};

/* One direction: what moved and how long each I/O took (NULL: none). */
struct rctl_fio_dir {
	uint64_t ios, bytes;
	const struct rctl_hist *lat;
};

/* The document, malloc'ed text; NULL on allocation failure. */
char *rctl_fio_json(const char *version, const struct rctl_fio_job *job,
		    const struct rctl_fio_dir *rd, const struct rctl_fio_dir *wr);

#endif
