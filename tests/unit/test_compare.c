// SPDX-License-Identifier: GPL-2.0-or-later
/* The outlier logic of compare (lib/compare.c) on rows made by hand. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rocectl/compare.h"

/* Rows whose TOS column holds vals[i]; every other column the same. */
static void rows_of(struct rctl_cmp *c, const char *const *vals, uint32_t n)
{
	uint32_t i, k;

	c->rows = calloc(n, sizeof(*c->rows));
	assert_non_null(c->rows);
	c->n = c->cap = n;
	for (i = 0; i < n; i++) {
		snprintf(c->rows[i].host, sizeof(c->rows[i].host), "h%u", i);
		for (k = 0; k < RCTL_CMP_N; k++)
			snprintf(c->rows[i].v[k], RCTL_CMP_VAL_LEN, "same");
		snprintf(c->rows[i].v[RCTL_CMP_TOS], RCTL_CMP_VAL_LEN, "%s", vals[i]);
	}
}

static uint32_t outliers(const char *const *vals, uint32_t n, struct rctl_cmp_outlier **ol)
{
	struct rctl_cmp c = { 0 };
	uint32_t n_ol;

	rows_of(&c, vals, n);
	assert_int_equal(rctl_cmp_outliers(&c, ol, &n_ol), 0);
	rctl_cmp_free(&c);
	return n_ol;
}

static void test_majority(void **state)
{
	static const char *const v[] = { "106", "106", "0", "106", "106" };
	struct rctl_cmp_outlier *ol;

	assert_int_equal(outliers(v, 5, &ol), 1);
	assert_int_equal(ol[0].row, 2);
	assert_int_equal(ol[0].col, RCTL_CMP_TOS);
	assert_true(ol[0].common >= 0 && ol[0].common != 2);
	free(ol);
}

static void test_all_same(void **state)
{
	static const char *const v[] = { "106", "106", "106" };
	struct rctl_cmp_outlier *ol;

	assert_int_equal(outliers(v, 3, &ol), 0);
	assert_null(ol);
	assert_int_equal(outliers(v, 1, &ol), 0);
	assert_int_equal(outliers(v, 0, &ol), 0);
}

/* 1:1, and 2:1:1 (the most common held by half only): no majority to name. */
static void test_ties(void **state)
{
	static const char *const two[] = { "106", "0" };
	static const char *const four[] = { "106", "106", "0", "104" };
	struct rctl_cmp_outlier *ol;
	uint32_t i;

	assert_int_equal(outliers(two, 2, &ol), 2);
	assert_int_equal(ol[0].common, -1);
	assert_int_equal(ol[1].common, -1);
	free(ol);
	assert_int_equal(outliers(four, 4, &ol), 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(ol[i].common, -1);
	free(ol);
}

/* Many distinct values and many rows: each distinct one is counted right. */
static void test_many(void **state)
{
	enum { N = 5000 };
	static char buf[N][8];
	static const char *v[N];
	struct rctl_cmp_outlier *ol;
	uint32_t i;

	for (i = 0; i < N; i++) {
		snprintf(buf[i], sizeof(buf[i]), "%u", i % 7 == 0 ? i : 106);
		v[i] = buf[i];
	}
	assert_int_equal(outliers(v, N, &ol), (N + 6) / 7 - 0);
	for (i = 0; i < (N + 6) / 7; i++) {
		assert_int_equal(ol[i].row % 7, 0);
		assert_string_not_equal(buf[ol[i].row], "106");
	}
	free(ol);
}

/* Each group has its own majority; a value that does not apply counts nowhere. */
static void test_groups(void **state)
{
	static const char *const v[] = { "106", "106", "0", "", "96", "96", "" };
	static const char *const g[] = { "a", "a", "a", "a", "b", "b", "b" };
	struct rctl_cmp c = { 0 };
	struct rctl_cmp_outlier *ol;
	uint32_t n_ol, i;

	rows_of(&c, v, 7);
	for (i = 0; i < 7; i++)
		snprintf(c.rows[i].group, sizeof(c.rows[i].group), "%s", g[i]);
	assert_int_equal(rctl_cmp_outliers(&c, &ol, &n_ol), 0);
	assert_int_equal(n_ol, 1);
	assert_int_equal(ol[0].row, 2);
	assert_int_equal(ol[0].common, 0);
	free(ol);
	rctl_cmp_free(&c);
}

/* Firmware is compared within its major version only. */
static void test_fw_lines(void **state)
{
	static const char *const v[] = { "106", "106", "106", "106" };
	static const char *const fw[] = { "22.41.1000", "22.41.1000", "16.35.4030", "22.36.1010" };
	struct rctl_cmp c = { 0 };
	struct rctl_cmp_outlier *ol;
	uint32_t n_ol, i;

	rows_of(&c, v, 4);
	for (i = 0; i < 4; i++)
		snprintf(c.rows[i].v[RCTL_CMP_FW], RCTL_CMP_VAL_LEN, "%s", fw[i]);
	assert_int_equal(rctl_cmp_outliers(&c, &ol, &n_ol), 0);
	assert_int_equal(n_ol, 1);
	assert_int_equal(ol[0].row, 3);
	assert_int_equal(ol[0].col, RCTL_CMP_FW);
	free(ol);
	rctl_cmp_free(&c);
}

/* The priorities columns read back as the arrays JSON writes (docs/json.md). */
static void test_prios(void **state)
{
	uint8_t m = 0xff;

	(void)state;
	assert_int_equal(rctl_cmp_type(RCTL_CMP_PFC), RCTL_CMP_T_PRIOS);
	assert_int_equal(rctl_cmp_type(RCTL_CMP_DSCP), RCTL_CMP_T_PRIOS);
	assert_int_equal(rctl_cmp_type(RCTL_CMP_SW_PFC), RCTL_CMP_T_PRIOS);
	assert_int_equal(rctl_cmp_type(RCTL_CMP_MTU), RCTL_CMP_T_NUMBER);
	assert_int_equal(rctl_cmp_type(RCTL_CMP_TRUST), RCTL_CMP_T_STRING);
	assert_int_equal(rctl_cmp_prios("0,3", &m), 0);
	assert_int_equal(m, 0x09);
	assert_int_equal(rctl_cmp_prios("7", &m), 0);
	assert_int_equal(m, 0x80);
	assert_int_equal(rctl_cmp_prios("none", &m), 0);
	assert_int_equal(m, 0);
	assert_int_equal(rctl_cmp_prios("-", &m), 0);
	assert_int_equal(m, 0);
	assert_int_equal(rctl_cmp_prios("?", &m), -EINVAL);
	assert_int_equal(rctl_cmp_prios("8", &m), -EINVAL);
	assert_int_equal(rctl_cmp_prios("0,", &m), -EINVAL);
	assert_int_equal(rctl_cmp_prios("", &m), -EINVAL);
	assert_int_equal(rctl_cmp_prios("0;3", &m), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_majority),
		cmocka_unit_test(test_all_same),
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_many),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_fw_lines),
		cmocka_unit_test(test_prios),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
