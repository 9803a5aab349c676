/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Latency histogram in nanoseconds with log-linear buckets: exact below 128,
 * then 64 buckets per power of two. Memory is fixed (about 30 KiB), and any
 * percentile is reported as its bucket's midpoint, clamped to the exact
 * min/max, so the relative error is at most 1/128 (< 1 %).
 */
#ifndef ROCECTL_HIST_H
#define ROCECTL_HIST_H

#include <stdint.h>

#define RCTL_HIST_SUB_BITS 6			/* 64 buckets per octave */
#define RCTL_HIST_LINEAR (2u << RCTL_HIST_SUB_BITS)	/* 0..127 exact */
#define RCTL_HIST_BUCKETS \
	(RCTL_HIST_LINEAR + (63 - RCTL_HIST_SUB_BITS) * (1u << RCTL_HIST_SUB_BITS))

struct rctl_hist {
	uint64_t count;
	uint64_t min;		/* UINT64_MAX while empty */
	uint64_t max;
	uint64_t sum;		/* saturates; 2^64 ns is 584 years */
	uint64_t bucket[RCTL_HIST_BUCKETS];
};

/* The percentiles spdk_nvme_perf prints in its latency summary. */
#define RCTL_HIST_NCUTOFFS 12
extern const double rctl_hist_cutoffs[RCTL_HIST_NCUTOFFS];

void rctl_hist_init(struct rctl_hist *h);
void rctl_hist_add(struct rctl_hist *h, uint64_t ns);
void rctl_hist_add_n(struct rctl_hist *h, uint64_t ns, uint64_t n);
void rctl_hist_merge(struct rctl_hist *dst, const struct rctl_hist *src);

uint64_t rctl_hist_count(const struct rctl_hist *h);
uint64_t rctl_hist_min(const struct rctl_hist *h);	/* 0 when empty */
uint64_t rctl_hist_max(const struct rctl_hist *h);
double rctl_hist_mean(const struct rctl_hist *h);	/* 0 when empty */
double rctl_hist_stddev(const struct rctl_hist *h);	/* from the buckets */

/*
 * Value at or below which p percent of the samples lie (p in [0, 100]);
 * p <= 0 gives min, p >= 100 gives max, 0 when empty.
 */
uint64_t rctl_hist_percentile(const struct rctl_hist *h, double p);

/* Bucket geometry, for printing: index of a value, and [lo, hi] of an index. */
unsigned int rctl_hist_index(uint64_t ns);
void rctl_hist_bucket_range(unsigned int idx, uint64_t *lo, uint64_t *hi);

#endif
