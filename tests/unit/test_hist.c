// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the latency histogram: geometry, statistics, error bound. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "rocectl/hist.h"

static struct rctl_hist *hist_new(void)
{
	struct rctl_hist *h = malloc(sizeof(*h));

	assert_non_null(h);
	rctl_hist_init(h);
	return h;
}

static void test_empty(void **state)
{
	struct rctl_hist *h = hist_new();

	assert_int_equal(rctl_hist_count(h), 0);
	assert_int_equal(rctl_hist_min(h), 0);
	assert_int_equal(rctl_hist_max(h), 0);
	assert_true(rctl_hist_mean(h) == 0.0);
	assert_int_equal(rctl_hist_percentile(h, 50), 0);
	free(h);
}

/* Buckets tile [0, 2^64) without gaps or overlaps, and index() inverts range(). */
static void test_geometry(void **state)
{
	uint64_t lo, hi, next = 0;
	unsigned int i;

	for (i = 0; i < RCTL_HIST_BUCKETS; i++) {
		rctl_hist_bucket_range(i, &lo, &hi);
		assert_int_equal(lo, next);
		assert_true(hi >= lo);
		assert_int_equal(rctl_hist_index(lo), i);
		assert_int_equal(rctl_hist_index(hi), i);
		next = hi + 1;
	}
	assert_int_equal(next, 0);	/* the last bucket ends at UINT64_MAX */
	assert_int_equal(rctl_hist_index(UINT64_MAX), RCTL_HIST_BUCKETS - 1);
	assert_true(sizeof(struct rctl_hist) < 32 * 1024);
}

static void test_exact_small(void **state)
{
	struct rctl_hist *h = hist_new();
	uint64_t v;

	for (v = 1; v <= 100; v++)
		rctl_hist_add(h, v);
	assert_int_equal(rctl_hist_count(h), 100);
	assert_int_equal(rctl_hist_min(h), 1);
	assert_int_equal(rctl_hist_max(h), 100);
	assert_true(fabs(rctl_hist_mean(h) - 50.5) < 1e-9);
	assert_int_equal(rctl_hist_percentile(h, 50), 50);
	assert_int_equal(rctl_hist_percentile(h, 99), 99);
	assert_int_equal(rctl_hist_percentile(h, 99.5), 100);
	assert_int_equal(rctl_hist_percentile(h, 1), 1);
	assert_int_equal(rctl_hist_percentile(h, 0), 1);
	assert_int_equal(rctl_hist_percentile(h, 100), 100);
	free(h);
}

/* A single sample: every percentile is that sample, exactly (clamped). */
static void test_single(void **state)
{
	struct rctl_hist *h = hist_new();
	unsigned int i;

	rctl_hist_add(h, 12345);
	for (i = 0; i < RCTL_HIST_NCUTOFFS; i++)
		assert_int_equal(rctl_hist_percentile(h, rctl_hist_cutoffs[i]),
				 12345);
	free(h);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t xorshift(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Against the exact nearest-rank percentile of a sorted copy: every cutoff
 * and a sweep of p within 1 % relative error, over values spanning 1 ns..~1 s.
 */
static void test_error_bound(void **state)
{
	enum { N = 100000 };
	struct rctl_hist *h = hist_new();
	uint64_t *v = malloc(N * sizeof(*v));
	double p, worst = 0;
	unsigned int i;

	assert_non_null(v);
	for (i = 0; i < N; i++) {
		v[i] = 1 + (xorshift() >> (34 + xorshift() % 30));
		rctl_hist_add(h, v[i]);
	}
	qsort(v, N, sizeof(*v), cmp_u64);
	for (p = 0.01; p < 100; p += 0.37) {
		size_t rank = (size_t)ceil(p / 100 * N);
		double exact = (double)v[rank ? rank - 1 : 0];
		double got = (double)rctl_hist_percentile(h, p);
		double err = fabs(got - exact) / exact;

		if (err > worst)
			worst = err;
	}
	for (i = 0; i < RCTL_HIST_NCUTOFFS; i++) {
		size_t rank = (size_t)ceil(rctl_hist_cutoffs[i] / 100 * N);
		double exact = (double)v[rank - 1];
		double got = (double)rctl_hist_percentile(h, rctl_hist_cutoffs[i]);

		assert_true(fabs(got - exact) / exact <= 0.01);
	}
	assert_true(worst <= 1.0 / 128 + 1e-12);
	assert_int_equal(rctl_hist_min(h), v[0]);
	assert_int_equal(rctl_hist_max(h), v[N - 1]);
	free(v);
	free(h);
}

/* Merging two halves equals adding everything to one histogram. */
/* stddev from the buckets: exact where buckets are exact, within 1 % above. */
static void test_stddev(void **state)
{
	struct rctl_hist h;

	rctl_hist_init(&h);
	assert_true(rctl_hist_stddev(&h) == 0);
	rctl_hist_add(&h, 10);
	rctl_hist_add(&h, 20);
	rctl_hist_add(&h, 30);
	rctl_hist_add(&h, 40);
	/* population stddev of 10, 20, 30, 40 */
	assert_true(fabs(rctl_hist_stddev(&h) - 11.180339887) < 0.01);
	rctl_hist_init(&h);
	rctl_hist_add_n(&h, 1000000, 50);
	rctl_hist_add_n(&h, 3000000, 50);
	assert_true(fabs(rctl_hist_stddev(&h) - 1000000) < 10000);
}

static void test_merge(void **state)
{
	struct rctl_hist *a = hist_new(), *b = hist_new(), *all = hist_new();
	unsigned int i;
	uint64_t x;

	for (i = 0; i < 5000; i++) {
		x = 1000 + xorshift() % 1000000;
		rctl_hist_add(i & 1 ? a : b, x);
		rctl_hist_add(all, x);
	}
	rctl_hist_merge(a, b);
	assert_int_equal(rctl_hist_count(a), rctl_hist_count(all));
	assert_int_equal(rctl_hist_min(a), rctl_hist_min(all));
	assert_int_equal(rctl_hist_max(a), rctl_hist_max(all));
	assert_true(rctl_hist_mean(a) == rctl_hist_mean(all));
	for (i = 0; i < RCTL_HIST_NCUTOFFS; i++)
		assert_int_equal(rctl_hist_percentile(a, rctl_hist_cutoffs[i]),
				 rctl_hist_percentile(all, rctl_hist_cutoffs[i]));
	rctl_hist_init(b);
	rctl_hist_merge(a, b);	/* merging an empty one changes nothing */
	assert_int_equal(rctl_hist_min(a), rctl_hist_min(all));
	free(a);
	free(b);
	free(all);
}

static void test_add_n_and_saturation(void **state)
{
	struct rctl_hist *h = hist_new();

	rctl_hist_add_n(h, 1000, 3);
	rctl_hist_add_n(h, 5, 0);
	assert_int_equal(rctl_hist_count(h), 3);
	assert_int_equal(rctl_hist_min(h), 1000);
	assert_true(rctl_hist_mean(h) == 1000.0);
	rctl_hist_add(h, UINT64_MAX);
	assert_int_equal(h->sum, UINT64_MAX);
	assert_int_equal(rctl_hist_max(h), UINT64_MAX);
	assert_int_equal(rctl_hist_percentile(h, 100), UINT64_MAX);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_stddev),
		cmocka_unit_test(test_geometry),
		cmocka_unit_test(test_exact_small),
		cmocka_unit_test(test_single),
		cmocka_unit_test(test_error_bound),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_add_n_and_saturation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
