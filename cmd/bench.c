// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rocectl bench: prove the fabric with real traffic.
 *   bench nvmf   a userspace NVMe-oF RDMA host (cmd/bench_nvmf.c)
 *   bench rdma   raw RDMA latency and bandwidth (cmd/bench_rdma.c)
 * and the latency printers both share.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "rocectl/hist.h"
#include "rocectl/out.h"

void cmd_latency_json(const char *key, const struct rctl_hist *h, const double *pcts, int n)
{
	char k[16];
	int i;

	out_obj_begin(key);
	out_u64(OUT_JSON, "min", NULL, rctl_hist_min(h));
	out_u64(OUT_JSON, "mean", NULL, (uint64_t)(rctl_hist_mean(h) + 0.5));
	out_u64(OUT_JSON, "stddev", NULL, (uint64_t)(rctl_hist_stddev(h) + 0.5));
	out_u64(OUT_JSON, "max", NULL, rctl_hist_max(h));
	out_obj_begin("percentiles");
	for (i = 0; i < n; i++) {
		snprintf(k, sizeof(k), "%g", pcts[i]);
		out_u64(OUT_JSON, k, NULL, rctl_hist_percentile(h, pcts[i]));
	}
	out_obj_end();
	out_obj_end();
}

/* Bars over groups of 16 buckets (4 per octave); JSON gets the exact buckets. */
void cmd_histogram(const struct rctl_hist *h)
{
	uint64_t lo, hi, glo = 0, n = 0, cum = 0, peak = 1, g[RCTL_HIST_BUCKETS / 16 + 1];
	unsigned int i;

	memset(g, 0, sizeof(g));
	for (i = 0; i < RCTL_HIST_BUCKETS; i++)
		g[i / 16] += h->bucket[i];
	for (i = 0; i <= RCTL_HIST_BUCKETS / 16; i++)
		peak = g[i] > peak ? g[i] : peak;
	out_arr_begin("histogram");
	for (i = 0; i < RCTL_HIST_BUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		rctl_hist_bucket_range(i, &lo, &hi);
		out_obj_begin(NULL);
		out_u64(OUT_JSON, "lo_ns", NULL, lo);
		out_u64(OUT_JSON, "hi_ns", NULL, hi);
		out_u64(OUT_JSON, "count", NULL, h->bucket[i]);
		out_obj_end();
	}
	out_arr_end();
	out_text("histogram (us):\n");
	for (i = 0; i < RCTL_HIST_BUCKETS; i++) {
		if (i % 16 == 0)
			rctl_hist_bucket_range(i, &glo, &hi);
		n += h->bucket[i];
		if (i % 16 != 15 || !n)
			continue;
		rctl_hist_bucket_range(i, &lo, &hi);
		cum += n;
		out_text("  %10.3f - %10.3f  %6.2f%%  %-40.*s %" PRIu64 "\n", glo / 1000.0,
			 (hi + 1) / 1000.0, 100.0 * (double)cum / (double)h->count,
			 (int)(40 * n / peak) ? (int)(40 * n / peak) : 1,
			 "########################################", n);
		n = 0;
	}
}

static const struct rctl_cmd *const bench_sub[] = {
	&cmd_bench_nvmf,
	&cmd_bench_rdma,
	NULL
};

const struct rctl_cmd cmd_bench = {
	.name = "bench",
	.summary = "prove the fabric with real traffic",
	.sub = bench_sub,
};
