// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of bench's pure helpers: --cpus lists, the invariant-TSC test, the clock. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <errno.h>
#include <cmocka.h>

#include "rocectl/clock.h"
#include "rocectl/nvmf.h"

static void test_cpu_list_ok(void **state)
{
	struct rctl_err e = { 0 };
	int cpus[8], n;

	assert_int_equal(rctl_cpu_list_parse("3", cpus, 8, &n, &e), 0);
	assert_int_equal(n, 1);
	assert_int_equal(cpus[0], 3);
	assert_int_equal(rctl_cpu_list_parse("0-2,6,4-5", cpus, 8, &n, &e), 0);
	assert_int_equal(n, 6);
	assert_int_equal(cpus[0], 0);
	assert_int_equal(cpus[2], 2);
	assert_int_equal(cpus[3], 6);	/* the order given is the order of the queues */
	assert_int_equal(cpus[5], 5);
	assert_int_equal(rctl_cpu_list_parse("7-7", cpus, 8, &n, &e), 0);
	assert_int_equal(n, 1);
	assert_int_equal(cpus[0], 7);
}

static void test_cpu_list_bad(void **state)
{
	static const char *const bad[] = {
		"", ",", "1,", ",1", "a", "1-", "-1", "3-1", "1,1", "0-1,1", "1 2", "1;2",
		"0-8", "99999", "1.5",
	};
	struct rctl_err e = { 0 };
	int cpus[8], n;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		e.msg[0] = 0;
		assert_int_equal(rctl_cpu_list_parse(bad[i], cpus, 8, &n, &e), -EINVAL);
		assert_non_null(strstr(e.msg, "CPU"));
	}
}

static void test_tsc_flags(void **state)
{
	assert_true(rctl_tsc_flags_invariant(
		"flags\t\t: fpu vme tsc msr constant_tsc rep_good nopl nonstop_tsc cpuid\n"));
	assert_false(rctl_tsc_flags_invariant("flags\t\t: fpu tsc constant_tsc rep_good\n"));
	assert_false(rctl_tsc_flags_invariant("flags\t\t: fpu tsc nonstop_tsc\n"));
	/* a longer flag that contains the name is not the flag */
	assert_false(rctl_tsc_flags_invariant("flags : xconstant_tsc nonstop_tsc_x\n"));
	assert_true(rctl_tsc_flags_invariant("flags : nonstop_tsc constant_tsc"));
	assert_false(rctl_tsc_flags_invariant(NULL));
}

/* Whatever the source, the fast clock is nanoseconds on CLOCK_MONOTONIC's scale. */
static void test_fast_clock(void **state)
{
	const char *src = rctl_fast_clock_init();
	uint64_t a = rctl_clock_ns(), f = rctl_fast_ns(), b;
	struct timespec ts = { 0, 20000000 };

	assert_true(!strcmp(src, "tsc") || !strncmp(src, "clock_gettime", 13));
	assert_string_equal(rctl_fast_clock_source(), src);
	nanosleep(&ts, NULL);
	b = rctl_fast_ns() - f;
	assert_true(b >= 19000000 && b < 2000000000);	/* 20 ms slept, not seconds */
	assert_true(f + 50000000 > a && a + 50000000 > f);	/* same origin, within 50 ms */
}

/* Silence and lost connections are retried with a doubling, capped pause; answers stand. */
static void test_connect_retry(void **state)
{
	uint32_t d = 0;

	assert_true(rctl_nvmf_retry(ETIMEDOUT, 1, &d));
	assert_int_equal(d, 250);
	assert_true(rctl_nvmf_retry(EHOSTUNREACH, 2, &d));
	assert_int_equal(d, 500);
	assert_true(rctl_nvmf_retry(ECONNRESET, 3, &d));
	assert_int_equal(d, 1000);
	assert_true(rctl_nvmf_retry(ENOTCONN, 4, &d));
	assert_int_equal(d, 2000);
	assert_false(rctl_nvmf_retry(ETIMEDOUT, RCTL_NVMF_CONNECT_TRIES, &d));
	assert_false(rctl_nvmf_retry(ECONNREFUSED, 1, &d));	/* rejected: nothing listens */
	assert_false(rctl_nvmf_retry(EIO, 1, &d));		/* an NVMe status */
	assert_false(rctl_nvmf_retry(EINVAL, 1, &d));
	assert_false(rctl_nvmf_retry(ENOTSUP, 1, &d));
}

/* Keep-alive only for an NVM subsystem; every wait bounded by the named defaults. */
static void test_opts_default(void **state)
{
	struct rctl_nvmf_opts d = rctl_nvmf_opts_default("10.0.0.2", 4420, RCTL_NVMF_DISC_NQN);
	struct rctl_nvmf_opts n = rctl_nvmf_opts_default("10.0.0.2", 4420, "nqn.2014-08.org.x:y");

	assert_int_equal(d.kato_ms, 0);
	assert_int_equal(n.kato_ms, RCTL_NVMF_KATO_MS);
	assert_int_equal(n.timeout_ms, RCTL_NVMF_CM_TIMEOUT_MS);
	assert_int_equal(n.wait_ms, RCTL_NVMF_WAIT_MS);
	assert_int_equal(n.tos, -1);
	assert_null(n.hostnqn);
	assert_int_equal(n.port, 4420);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_list_ok),
		cmocka_unit_test(test_cpu_list_bad),
		cmocka_unit_test(test_tsc_flags),
		cmocka_unit_test(test_fast_clock),
		cmocka_unit_test(test_connect_retry),
		cmocka_unit_test(test_opts_default),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
