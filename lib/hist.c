// SPDX-License-Identifier: GPL-2.0-or-later
/* Log-linear latency histogram (see include/rocectl/hist.h). */
#include <math.h>
#include <string.h>

#include "rocectl/hist.h"

#define SUB (1u << RCTL_HIST_SUB_BITS)

const double rctl_hist_cutoffs[RCTL_HIST_NCUTOFFS] = {
	1, 10, 25, 50, 75, 90, 95, 98, 99, 99.5, 99.9, 99.99,
};

void rctl_hist_init(struct rctl_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

unsigned int rctl_hist_index(uint64_t ns)
{
	unsigned int e, sub;

	if (ns < RCTL_HIST_LINEAR)
		return (unsigned int)ns;
	e = 63 - (unsigned int)__builtin_clzll(ns);	/* >= SUB_BITS + 1 */
	sub = (unsigned int)(ns >> (e - RCTL_HIST_SUB_BITS)) & (SUB - 1);
	return RCTL_HIST_LINEAR + (e - RCTL_HIST_SUB_BITS - 1) * SUB + sub;
}

void rctl_hist_bucket_range(unsigned int idx, uint64_t *lo, uint64_t *hi)
{
	unsigned int e, sub;
	uint64_t width;

	if (idx < RCTL_HIST_LINEAR) {
		*lo = *hi = idx;
		return;
	}
	e = (idx - RCTL_HIST_LINEAR) / SUB + RCTL_HIST_SUB_BITS + 1;
	sub = (idx - RCTL_HIST_LINEAR) % SUB;
	width = 1ull << (e - RCTL_HIST_SUB_BITS);
	*lo = (1ull << e) + sub * width;
	*hi = *lo + (width - 1);
}

void rctl_hist_add_n(struct rctl_hist *h, uint64_t ns, uint64_t n)
{
	uint64_t add;

	if (!n)
		return;
	h->bucket[rctl_hist_index(ns)] += n;
	h->count += n;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	if (__builtin_mul_overflow(ns, n, &add) ||
	    __builtin_add_overflow(h->sum, add, &h->sum))
		h->sum = UINT64_MAX;
}

void rctl_hist_add(struct rctl_hist *h, uint64_t ns)
{
	rctl_hist_add_n(h, ns, 1);
}

void rctl_hist_merge(struct rctl_hist *dst, const struct rctl_hist *src)
{
	unsigned int i;

	if (!src->count)
		return;
	for (i = 0; i < RCTL_HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	if (__builtin_add_overflow(dst->sum, src->sum, &dst->sum))
		dst->sum = UINT64_MAX;
}

uint64_t rctl_hist_count(const struct rctl_hist *h)
{
	return h->count;
}

uint64_t rctl_hist_min(const struct rctl_hist *h)
{
	return h->count ? h->min : 0;
}

uint64_t rctl_hist_max(const struct rctl_hist *h)
{
	return h->max;
}

double rctl_hist_mean(const struct rctl_hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

/*
 * Standard deviation around the exact mean, each sample taken at its
 * bucket's midpoint: the same < 1 % resolution as the percentiles.
 */
double rctl_hist_stddev(const struct rctl_hist *h)
{
	double mean = rctl_hist_mean(h), sq = 0, d;
	uint64_t lo, hi;
	unsigned int i;

	if (h->count < 2)
		return 0.0;
	for (i = 0; i < RCTL_HIST_BUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		rctl_hist_bucket_range(i, &lo, &hi);
		d = ((double)lo + (double)hi) / 2 - mean;
		sq += d * d * (double)h->bucket[i];
	}
	return sqrt(sq / (double)h->count);
}

/* Smallest rank r (1-based) with r >= p/100 * count, i.e. nearest-rank. */
static uint64_t hist_rank(uint64_t count, double p)
{
	double r = p / 100.0 * (double)count;
	uint64_t rank = (uint64_t)r;

	if ((double)rank < r)
		rank++;
	return rank ? rank : 1;
}

uint64_t rctl_hist_percentile(const struct rctl_hist *h, double p)
{
	uint64_t rank, seen = 0, lo, hi, mid;
	unsigned int i;

	if (!h->count)
		return 0;
	if (p <= 0)
		return h->min;
	if (p >= 100)
		return h->max;
	rank = hist_rank(h->count, p);
	for (i = 0; i < RCTL_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	if (i == RCTL_HIST_BUCKETS)
		return h->max;
	rctl_hist_bucket_range(i, &lo, &hi);
	mid = lo + (hi - lo) / 2;
	if (mid < h->min)
		mid = h->min;
	if (mid > h->max)
		mid = h->max;
	return mid;
}
