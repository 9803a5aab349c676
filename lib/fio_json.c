// SPDX-License-Identifier: GPL-2.0-or-later
/* A benchmark result in fio's json+ shape (rocectl/fio_json.h). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "rocectl/fio_json.h"

/* fio's default percentile list (options.c, "percentile_list"). */
static const double fio_pcts[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
};

/* An exact integer: cJSON keeps numbers as doubles, which hold 2^53. */
static void add_u64(cJSON *o, const char *key, uint64_t v)
{
	cJSON_AddNumberToObject(o, key, (double)v);
}

static cJSON *lat_obj(const struct rctl_hist *h, bool pcts)
{
	cJSON *o = cJSON_CreateObject(), *p, *bins;
	uint64_t n = h ? rctl_hist_count(h) : 0, lo, hi;
	char key[32];
	unsigned int i;

	if (!o)
		return NULL;
	add_u64(o, "min", n ? rctl_hist_min(h) : 0);
	add_u64(o, "max", n ? rctl_hist_max(h) : 0);
	cJSON_AddNumberToObject(o, "mean", n ? rctl_hist_mean(h) : 0);
	cJSON_AddNumberToObject(o, "stddev", n ? rctl_hist_stddev(h) : 0);
	add_u64(o, "N", n);
	if (!pcts || !n)
		return o;
	p = cJSON_AddObjectToObject(o, "percentile");
	for (i = 0; p && i < sizeof(fio_pcts) / sizeof(fio_pcts[0]); i++) {
		snprintf(key, sizeof(key), "%f", fio_pcts[i]);
		add_u64(p, key, rctl_hist_percentile(h, fio_pcts[i]));
	}
	bins = cJSON_AddObjectToObject(o, "bins");
	for (i = 0; bins && i < RCTL_HIST_BUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		rctl_hist_bucket_range(i, &lo, &hi);
		snprintf(key, sizeof(key), "%" PRIu64, lo + (hi - lo) / 2);
		add_u64(bins, key, h->bucket[i]);
	}
	return o;
}

static cJSON *ddir_obj(const struct rctl_fio_dir *d, double secs)
{
	cJSON *o = cJSON_CreateObject();
	uint64_t ios = d ? d->ios : 0, bytes = d ? d->bytes : 0;
	double bps = secs > 0 ? (double)bytes / secs : 0;

	if (!o)
		return NULL;
	add_u64(o, "io_bytes", bytes);
	add_u64(o, "io_kbytes", bytes >> 10);
	add_u64(o, "bw_bytes", (uint64_t)bps);
	add_u64(o, "bw", (uint64_t)(bps / 1024));
	cJSON_AddNumberToObject(o, "iops", secs > 0 ? (double)ios / secs : 0);
	add_u64(o, "runtime", ios ? (uint64_t)(secs * 1000 + 0.5) : 0);
	add_u64(o, "total_ios", ios);
	add_u64(o, "short_ios", 0);
	add_u64(o, "drop_ios", 0);
	cJSON_AddItemToObject(o, "slat_ns", lat_obj(NULL, false));
	cJSON_AddItemToObject(o, "clat_ns", lat_obj(ios ? d->lat : NULL, true));
	cJSON_AddItemToObject(o, "lat_ns", lat_obj(ios ? d->lat : NULL, true));
	return o;
}

static cJSON *options_obj(const struct rctl_fio_job *j)
{
	cJSON *o = cJSON_CreateObject();
	char buf[32];

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "rw", j->rw);
	snprintf(buf, sizeof(buf), "%" PRIu64, j->bs);
	cJSON_AddStringToObject(o, "bs", buf);
	snprintf(buf, sizeof(buf), "%u", j->iodepth);
	cJSON_AddStringToObject(o, "iodepth", buf);
	snprintf(buf, sizeof(buf), "%u", j->numjobs);
	cJSON_AddStringToObject(o, "numjobs", buf);
	if (!strcmp(j->rw, "randrw")) {
		snprintf(buf, sizeof(buf), "%u", j->rwmixread);
		cJSON_AddStringToObject(o, "rwmixread", buf);
	}
	return o;
}

static cJSON *job_obj(const struct rctl_fio_job *j, const struct rctl_fio_dir *rd,
		      const struct rctl_fio_dir *wr)
{
	cJSON *o = cJSON_CreateObject();
	double secs = j->elapsed_s > 0 ? j->elapsed_s : 0;

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "jobname", j->jobname);
	add_u64(o, "groupid", 0);
	add_u64(o, "error", 0);
	cJSON_AddItemToObject(o, "job options", options_obj(j));
	cJSON_AddItemToObject(o, "read", ddir_obj(rd, secs));
	cJSON_AddItemToObject(o, "write", ddir_obj(wr, secs));
	cJSON_AddItemToObject(o, "trim", ddir_obj(NULL, secs));
	add_u64(o, "job_runtime", (uint64_t)(secs * 1000 + 0.5));
	cJSON_AddNumberToObject(o, "usr_cpu", secs > 0 ? 100 * j->usr_s / secs : 0);
	cJSON_AddNumberToObject(o, "sys_cpu", secs > 0 ? 100 * j->sys_s / secs : 0);
	return o;
}

char *rctl_fio_json(const char *version, const struct rctl_fio_job *job,
		    const struct rctl_fio_dir *rd, const struct rctl_fio_dir *wr)
{
	cJSON *doc = cJSON_CreateObject(), *jobs;
	char *text = NULL;

	if (!doc)
		return NULL;
	cJSON_AddStringToObject(doc, "fio version", version);
	add_u64(doc, "timestamp", (uint64_t)job->timestamp);
	add_u64(doc, "timestamp_ms", (uint64_t)job->timestamp * 1000);
	jobs = cJSON_AddArrayToObject(doc, "jobs");
	if (jobs)
		cJSON_AddItemToArray(jobs, job_obj(job, rd, wr));
	text = cJSON_Print(doc);
	cJSON_Delete(doc);
	return text;
}
