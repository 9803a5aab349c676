// SPDX-License-Identifier: GPL-2.0-or-later
/* A benchmark result in fio's json+ shape (lib/fio_json.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "rocectl/fio_json.h"

static const cJSON *at(const cJSON *o, const char *path)
{
	char buf[128], *key, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (key = strtok_r(buf, "/", &save); key && o; key = strtok_r(NULL, "/", &save))
		o = cJSON_IsArray(o) ? cJSON_GetArrayItem(o, atoi(key)) :
				       cJSON_GetObjectItemCaseSensitive(o, key);
	assert_non_null(o);
	return o;
}

static double num(const cJSON *o, const char *path)
{
	const cJSON *v = at(o, path);

	assert_true(cJSON_IsNumber(v));
	return v->valuedouble;
}

/* 1000 reads of 10 us and 1000 of 30 us, none written, in 2 s of 4 KiB I/O. */
static void test_reads(void **state)
{
	static struct rctl_hist h;
	struct rctl_fio_job job = {
		.jobname = "j", .rw = "randread", .bs = 4096, .iodepth = 32, .numjobs = 2,
		.elapsed_s = 2, .usr_s = 1.5, .sys_s = 0.5, .timestamp = 1700000000,
	};
	struct rctl_fio_dir rd = { 2000, 2000 * 4096, &h }, wr = { 0, 0, NULL };
	const cJSON *bins;
	cJSON *doc;
	char *text;
	double n = 0;

	rctl_hist_init(&h);
	rctl_hist_add_n(&h, 10000, 1000);
	rctl_hist_add_n(&h, 30000, 1000);
	text = rctl_fio_json("rocectl-test", &job, &rd, &wr);
	assert_non_null(text);
	doc = cJSON_Parse(text);
	assert_non_null(doc);
	assert_string_equal(at(doc, "fio version")->valuestring, "rocectl-test");
	assert_true(num(doc, "jobs/0/read/iops") == 1000);
	assert_true(num(doc, "jobs/0/read/bw") == 4000);	/* KiB/s */
	assert_true(num(doc, "jobs/0/read/runtime") == 2000);	/* ms */
	assert_true(num(doc, "jobs/0/read/total_ios") == 2000);
	assert_true(num(doc, "jobs/0/read/clat_ns/N") == 2000);
	assert_true(num(doc, "jobs/0/read/lat_ns/mean") == 20000);
	/* fio's keys, "%f" of its default list; the histogram's error below 1 % */
	assert_true(num(doc, "jobs/0/read/clat_ns/percentile/50.000000") >= 9900 &&
		    num(doc, "jobs/0/read/clat_ns/percentile/50.000000") <= 10100);
	assert_true(num(doc, "jobs/0/read/clat_ns/percentile/99.990000") >= 29700);
	assert_true(num(doc, "jobs/0/read/slat_ns/N") == 0);
	for (bins = at(doc, "jobs/0/read/clat_ns/bins")->child; bins; bins = bins->next)
		n += bins->valuedouble;
	assert_true(n == 2000);
	assert_true(num(doc, "jobs/0/write/total_ios") == 0);
	assert_true(num(doc, "jobs/0/trim/iops") == 0);
	assert_true(num(doc, "jobs/0/usr_cpu") == 75);
	assert_true(num(doc, "jobs/0/sys_cpu") == 25);
	assert_string_equal(at(doc, "jobs/0/job options/iodepth")->valuestring, "32");
	cJSON_Delete(doc);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
