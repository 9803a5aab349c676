// SPDX-License-Identifier: GPL-2.0-or-later
/* Option tables: parsing, range checks, mixed positionals, help text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rocectl/opt.h"

static struct {
	bool all, json;
	int qd;
	double secs;
	uint64_t size;
	const char *group, *target;
	bool qd_given;
} v;

static const char *const groups[] = { "loss", "pfc", NULL };

static const struct rctl_opt opts[] = {
	{ .name = "all", .short_name = 'a', .type = OPT_FLAG, .dst = &v.all, .help = "show all" },
	{ .name = "qd", .aliases = "iodepth  tx-depth", .type = OPT_INT, .arg = "N", .dst = &v.qd,
	  .min = 1, .max = 1024,
	  .help = "queue depth", .given = &v.qd_given },
	{ .name = "interval", .type = OPT_SECS, .arg = "SECS", .dst = &v.secs, .max = 3600,
	  .help = "sampling interval" },
	{ .name = "bs", .type = OPT_SIZE, .arg = "SIZE", .dst = &v.size, .min = 1, .help = "block size" },
	{ .name = "group", .type = OPT_CHOICE, .arg = "G", .dst = &v.group, .choices = groups,
	  .help = "counter group" },
	{ .name = "target", .short_name = 't', .type = OPT_STR, .arg = "ADDR", .dst = &v.target,
	  .help = "target address" },
	{ 0 }
};

static const struct rctl_opt globals[] = {
	{ .name = "json", .short_name = 'j', .type = OPT_FLAG, .dst = &v.json, .help = "json" },
	{ 0 }
};

/* Parse a NULL-terminated list of words; argv[0] is the command. */
static int parse(struct rctl_err *e, int *pos, char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	memset(&v, 0, sizeof(v));
	rctl_err_clear(e);
	return rctl_opt_parse(opts, globals, argc, argv, 0, pos, e);
}

static void test_good(void **state)
{
	char *argv[] = { "x", "rxe0", "--qd", "16", "-a", "--interval=0.5", "--bs", "4k",
			 "--group", "pfc", "-j", "-t", "10.0.0.2", "extra", NULL };
	struct rctl_err e;
	int pos;

	assert_int_equal(parse(&e, &pos, argv), 0);
	assert_true(v.all && v.json && v.qd_given);
	assert_int_equal(v.qd, 16);
	assert_true(v.secs == 0.5);
	assert_int_equal(v.size, 4096);
	assert_string_equal(v.group, "pfc");
	assert_string_equal(v.target, "10.0.0.2");
	/* positionals are permuted to the end, in order */
	assert_int_equal(pos, 12);
	assert_string_equal(argv[pos], "rxe0");
	assert_string_equal(argv[pos + 1], "extra");
}

static void expect_err(char **argv, const char *msg)
{
	struct rctl_err e;
	int pos;

	assert_int_equal(parse(&e, &pos, argv), -EINVAL);
	assert_string_equal(e.msg, msg);
}

static void test_bad(void **state)
{
	char *a1[] = { "x", "--bogus", NULL };
	char *a2[] = { "x", "--qd", "0", NULL };
	char *a3[] = { "x", "--qd", "abc", NULL };
	char *a4[] = { "x", "--interval", "0", NULL };
	char *a5[] = { "x", "--interval", "-1", NULL };
	char *a6[] = { "x", "--group", "nope", NULL };
	char *a7[] = { "x", "--qd", NULL };
	char *a8[] = { "x", "-z", NULL };
	char *a9[] = { "x", "--bs", "4q", NULL };

	expect_err(a1, "unknown option '--bogus'");
	expect_err(a2, "invalid value '0' for '--qd': expected 1 to 1024");
	expect_err(a3, "invalid value 'abc' for '--qd': not an integer");
	expect_err(a4, "invalid value '0' for '--interval': must be greater than 0");
	expect_err(a5, "invalid value '-1' for '--interval': must be greater than 0");
	expect_err(a6, "invalid value 'nope' for '--group': expected one of loss, pfc");
	expect_err(a7, "missing value for '--qd'");
	expect_err(a8, "unknown option '-z'");
	expect_err(a9, "invalid value '4q' for '--bs': not a size (e.g. 4096, 4k, 1M)");
}

/* Aliases parse to their option; its name is the one errors give. */
static void test_aliases(void **state)
{
	char *a1[] = { "x", "--iodepth", "8", NULL };
	char *a2[] = { "x", "--tx-depth=9", NULL };
	char *a3[] = { "x", "--iodepth", "0", NULL };
	char *a4[] = { "x", "--json=yes", NULL };
	char buf[32];
	struct rctl_err e;
	int pos;

	assert_int_equal(parse(&e, &pos, a1), 0);
	assert_int_equal(v.qd, 8);
	assert_true(v.qd_given);
	assert_int_equal(parse(&e, &pos, a2), 0);
	assert_int_equal(v.qd, 9);
	expect_err(a3, "invalid value '0' for '--qd': expected 1 to 1024");
	expect_err(a4, "option '--json' takes no value (got '--json=yes')");
	assert_string_equal(rctl_opt_alias(&opts[1], 0, buf, sizeof(buf)), "iodepth");
	assert_string_equal(rctl_opt_alias(&opts[1], 1, buf, sizeof(buf)), "tx-depth");
	assert_null(rctl_opt_alias(&opts[1], 2, buf, sizeof(buf)));
	assert_null(rctl_opt_alias(&opts[0], 0, buf, sizeof(buf)));
}

static void test_stop_at_command(void **state)
{
	char *argv[] = { "rocectl", "-j", "devices", "--all", NULL };
	struct rctl_err e;
	int pos;

	memset(&v, 0, sizeof(v));
	assert_int_equal(rctl_opt_parse(NULL, globals, 4, argv, RCTL_OPT_STOP, &pos, &e), 0);
	assert_true(v.json);
	assert_int_equal(pos, 2);
}

static void test_sizes(void **state)
{
	uint64_t s;

	assert_int_equal(rctl_parse_size("1M", &s), 0);
	assert_int_equal(s, 1 << 20);
	assert_int_equal(rctl_parse_size("2KiB", &s), 0);
	assert_int_equal(s, 2048);
	assert_int_not_equal(rctl_parse_size("-1", &s), 0);
	assert_int_not_equal(rctl_parse_size("", &s), 0);
	assert_int_not_equal(rctl_parse_size("99999999999999999999", &s), 0);
}

/* A leading zero is a person's decimal, never octal; 0x is hexadecimal. */
static void test_int_bases(void **state)
{
	int n = -1;

	assert_int_equal(rctl_parse_int("026", 0, 63, &n), 0);
	assert_int_equal(n, 26);
	assert_int_equal(rctl_parse_int("08", 0, 63, &n), 0);
	assert_int_equal(n, 8);
	assert_int_equal(rctl_parse_int("0x1a", 0, 63, &n), 0);
	assert_int_equal(n, 26);
	assert_int_equal(rctl_parse_int("-0x10", -100, 100, &n), 0);
	assert_int_equal(n, -16);
	assert_int_equal(rctl_parse_int("0x", 0, 63, &n), -EINVAL);
	assert_int_equal(rctl_parse_int(" 1", 0, 63, &n), -EINVAL);
	assert_int_equal(rctl_parse_int("0x40", 0, 63, &n), -ERANGE);
}

/* "--inp" is not "--input": getopt_long's unique prefixes are refused. */
static void test_exact_names(void **state)
{
	char *a1[] = { "x", "--inter", "3", NULL };
	char *a2[] = { "x", "--iodep=3", NULL };
	char *ok[] = { "x", "--interval=3", "--iodepth", "2", NULL };
	struct rctl_err e;
	int pos;

	expect_err(a1, "unknown option '--inter' (did you mean '--interval'?)");
	expect_err(a2, "unknown option '--iodep' (did you mean '--iodepth'?)");
	assert_int_equal(parse(&e, &pos, ok), 0);
	assert_int_equal(v.qd, 2);
}

static void test_help(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	rctl_opt_help(f, globals);
	rctl_opt_help(f, opts);
	fclose(f);
	assert_memory_equal(buf, "  -j, --json                 json\n", 34);
	/* aliases after the long name; a long left side wraps the help */
	assert_non_null(strstr(buf, "\n      --qd, --iodepth, --tx-depth N\n"
				    "                             queue depth\n"));
	free(buf);
}

/* The Monitoring Plugins guidelines' ranges: which values alert. */
static void test_ranges(void **state)
{
	static const struct {
		const char *range;
		double v;
		bool alert;
	} cases[] = {
		{ "10", -1, true }, { "10", 0, false }, { "10", 10, false }, { "10", 10.5, true },
		{ "10:", 9.9, true }, { "10:", 10, false }, { "10:", 1e300, false },
		{ "~:10", -1e300, false }, { "~:10", 10, false }, { "~:10", 11, true },
		{ "10:20", 9, true }, { "10:20", 15, false }, { "10:20", 20, false }, { "10:20", 21, true },
		{ "@10:20", 9, false }, { "@10:20", 10, true }, { "@10:20", 20, true }, { "@10:20", 21, false },
		{ "1e-6", 2e-6, true }, { "1e-6", 1e-6, false }, { "-5:-1", -3, false }, { "-5:-1", 0, true },
		{ "@0", 0, true }, { "@0", 0.1, false },
	};
	static const char *const bad[] = {
		"", " 10", "10 ", "20:10", "1:2:3", "abc", "@", "~", "~:", ":", "1e", "0x10",
		"inf", "nan", "1,5", "@~:", "10::", "~10", "10:~", "--1", "1e-6e",
	};
	struct rctl_range r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(rctl_range_parse(cases[i].range, &r), 0);
		assert_true(r.set);
		assert_string_equal(r.text, cases[i].range);
		if (rctl_range_alert(&r, cases[i].v) != cases[i].alert)
			fail_msg("range '%s', value %g: alert should be %d", cases[i].range,
				 cases[i].v, cases[i].alert);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (rctl_range_parse(bad[i], &r) != -EINVAL)
			fail_msg("range '%s' should be refused", bad[i]);
	r.set = false;
	assert_false(rctl_range_alert(&r, 1e300));
}

/* A repeatable option keeps every value, in order, up to its bound. */
static void test_list(void **state)
{
	static struct rctl_opt_list l;
	const struct rctl_opt list_opts[] = {
		{ .name = "skip", .type = OPT_LIST, .arg = "ID", .dst = &l, .help = "x" },
		{ 0 },
	};
	char *argv[] = { "t", "--skip", "a", "--skip=b", "--skip", "c", NULL };
	struct rctl_err e = { 0 };
	int pos;

	(void)state;
	assert_int_equal(rctl_opt_parse(list_opts, NULL, 6, argv, 0, &pos, &e), 0);
	assert_int_equal(l.n, 3);
	assert_string_equal(l.v[0], "a");
	assert_string_equal(l.v[1], "b");
	assert_string_equal(l.v[2], "c");
}

/* The value of an option on a line that does not parse: each spelling, the last one given. */
static void test_value_unparsed(void **state)
{
	char *line[] = { "x", "--bogus", "-tA", "--group", "pfc", "--qd=9", "--", "-t", "B", NULL };
	char *more[] = { "x", "--target", "C", "--iodepth", "4", "-t", NULL };

	(void)state;
	assert_string_equal(rctl_opt_value(&opts[5], 9, line), "A");	/* "--" ends options */
	assert_string_equal(rctl_opt_value(&opts[4], 9, line), "pfc");
	assert_string_equal(rctl_opt_value(&opts[1], 9, line), "9");
	assert_null(rctl_opt_value(&opts[2], 9, line));
	assert_string_equal(rctl_opt_value(&opts[1], 6, more), "4");	/* an alias */
	assert_string_equal(rctl_opt_value(&opts[5], 6, more), "C");	/* the last -t has none */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_stop_at_command),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_int_bases),
		cmocka_unit_test(test_exact_names),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_value_unparsed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
