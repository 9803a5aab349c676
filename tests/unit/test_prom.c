// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the Prometheus text format, checked by a strict parser of the
 * exposition format 0.0.4 written here: HELP/TYPE once per family and before
 * its samples, every sample of the current family, names and escapes valid.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rocectl/prom.h"

/* Parse one label value after its opening quote; *out gets the unescaped text. */
static const char *parse_value(const char *s, char *out, size_t len)
{
	size_t o = 0;

	for (; *s && *s != '"'; s++) {
		char c = *s;

		if (c == '\n')
			return NULL;	/* a raw newline never appears */
		if (c == '\\') {
			s++;
			if (*s == 'n')
				c = '\n';
			else if (*s == '\\' || *s == '"')
				c = *s;
			else
				return NULL;
		}
		if (o + 1 >= len)
			return NULL;
		out[o++] = c;
	}
	out[o] = '\0';
	return *s == '"' ? s + 1 : NULL;
}

struct parsed {
	int families, samples;
	char last_value[256];	/* unescaped value of the last label seen */
};

static size_t name_len(const char *s, int label)
{
	size_t n = 0;
	char tmp[128];

	while (s[n] && strchr(label ? "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_" :
			      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:", s[n]))
		n++;
	if (!n || n >= sizeof(tmp))
		return 0;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	return rctl_prom_valid_name(tmp, label) ? n : 0;
}

static int parse_sample(const char *line, const char *family, struct parsed *p)
{
	size_t n = name_len(line, 0);
	const char *s = line + n;
	char *end;

	if (!n || strncmp(line, family, n) || family[n])
		return -1;
	if (*s == '{') {
		s++;
		while (*s != '}') {
			size_t ln = name_len(s, 1);

			if (!ln || s[ln] != '=' || s[ln + 1] != '"')
				return -1;
			s = parse_value(s + ln + 2, p->last_value, sizeof(p->last_value));
			if (!s)
				return -1;
			if (*s == ',')
				s++;
			else if (*s != '}')
				return -1;
		}
		s++;
	}
	if (*s++ != ' ')
		return -1;
	strtod(s, &end);
	if (end == s || *end)
		return -1;
	p->samples++;
	return 0;
}

/* 0 when "text" is valid exposition format; counts in *p. */
static int strict_parse(const char *text, struct parsed *p)
{
	char family[128] = "", seen[64][128], *copy = strdup(text), *line, *save;
	int nseen = 0, i, ret = 0, typed = 0;

	memset(p, 0, sizeof(*p));
	if (!copy || (text[0] && text[strlen(text) - 1] != '\n'))
		ret = -1;
	for (line = strtok_r(copy, "\n", &save); !ret && line; line = strtok_r(NULL, "\n", &save)) {
		char name[128], rest[1024];

		if (sscanf(line, "# HELP %127s %1023[^\n]", name, rest) >= 1) {
			for (i = 0; i < nseen; i++)
				if (!strcmp(seen[i], name))
					ret = -1;	/* a family appears once */
			snprintf(family, sizeof(family), "%s", name);
			snprintf(seen[nseen++], sizeof(seen[0]), "%s", name);
			typed = 0;
			p->families++;
		} else if (sscanf(line, "# TYPE %127s %1023s", name, rest) == 2) {
			if (strcmp(name, family) || typed ||
			    (strcmp(rest, "counter") && strcmp(rest, "gauge") && strcmp(rest, "untyped")))
				ret = -1;
			typed = 1;
		} else if (!typed || parse_sample(line, family, p)) {
			ret = -1;
		}
	}
	free(copy);
	return ret;
}

static void test_format(void **state)
{
	struct rctl_prom pr = { 0 };
	struct rctl_prom_label l[] = { { "device", "rxe0" }, { "port", "1" },
				       { "counter", "sent_pkts" } };
	struct parsed p;

	assert_int_equal(rctl_prom_family(&pr, "rocectl_hw_counter", "counter",
					  "RDMA port hw_counters"), 0);
	assert_int_equal(rctl_prom_u64(&pr, l, 3, UINT64_MAX), 0);
	assert_int_equal(rctl_prom_u64(&pr, NULL, 0, 7), 0);
	assert_int_equal(rctl_prom_family(&pr, "rocectl_rate", "gauge", "a rate"), 0);
	assert_int_equal(rctl_prom_dbl(&pr, l, 1, 2.5), 0);
	assert_int_equal(rctl_prom_dbl(&pr, l, 1, 1e-6), 0);	/* shortest exact form */
	assert_int_equal(rctl_prom_dbl(&pr, l, 1, 0.1 + 0.2), 0);
	assert_string_equal(pr.buf,
		"# HELP rocectl_hw_counter RDMA port hw_counters\n"
		"# TYPE rocectl_hw_counter counter\n"
		"rocectl_hw_counter{device=\"rxe0\",port=\"1\",counter=\"sent_pkts\"} 18446744073709551615\n"
		"rocectl_hw_counter 7\n"
		"# HELP rocectl_rate a rate\n"
		"# TYPE rocectl_rate gauge\n"
		"rocectl_rate{device=\"rxe0\"} 2.5\n"
		"rocectl_rate{device=\"rxe0\"} 1e-06\n"
		"rocectl_rate{device=\"rxe0\"} 0.30000000000000004\n");
	assert_int_equal(strict_parse(pr.buf, &p), 0);
	assert_int_equal(p.families, 2);
	assert_int_equal(p.samples, 5);
	rctl_prom_free(&pr);
}

/* Label values escape \ " newline; the parser gets the original back. */
static void test_escaping(void **state)
{
	const char *nasty = "a\\b\"c\nd}e,f=g";
	struct rctl_prom pr = { 0 };
	struct rctl_prom_label l[] = { { "netdev", nasty } };
	struct parsed p;
	char buf[64];

	assert_int_equal(rctl_prom_family(&pr, "m", "untyped", "help with \\ and\nnewline \"q\""), 0);
	assert_int_equal(rctl_prom_u64(&pr, l, 1, 1), 0);
	assert_non_null(strstr(pr.buf, "# HELP m help with \\\\ and\\nnewline \"q\"\n"));
	assert_non_null(strstr(pr.buf, "m{netdev=\"a\\\\b\\\"c\\nd}e,f=g\"} 1\n"));
	assert_int_equal(strict_parse(pr.buf, &p), 0);
	assert_string_equal(p.last_value, nasty);
	rctl_prom_free(&pr);
	assert_int_equal(rctl_prom_escape(buf, 4, "abcd", 0), -ENOSPC);
	assert_int_equal(rctl_prom_escape(buf, sizeof(buf), "", 0), 0);
	assert_string_equal(buf, "");
}

static void test_refusals(void **state)
{
	struct rctl_prom pr = { 0 };
	struct rctl_prom_label bad_label[] = { { "1x", "v" } };
	struct rctl_prom_label reserved[] = { { "__name__", "v" } };

	/* A sample before any family. */
	assert_int_equal(rctl_prom_u64(&pr, NULL, 0, 1), -EINVAL);
	rctl_prom_free(&pr);
	assert_int_equal(rctl_prom_family(&pr, "0bad", "gauge", "h"), -EINVAL);
	rctl_prom_free(&pr);
	assert_int_equal(rctl_prom_family(&pr, "ok", "histogramm", "h"), -EINVAL);
	rctl_prom_free(&pr);
	/* node_exporter rejects a family written twice: so do we. */
	assert_int_equal(rctl_prom_family(&pr, "twice", "gauge", "h"), 0);
	assert_int_equal(rctl_prom_family(&pr, "other", "gauge", "h"), 0);
	assert_int_equal(rctl_prom_family(&pr, "twice", "gauge", "h"), -EINVAL);
	/* The first error sticks. */
	assert_int_equal(rctl_prom_u64(&pr, NULL, 0, 1), -EINVAL);
	rctl_prom_free(&pr);
	assert_int_equal(rctl_prom_family(&pr, "m", "gauge", "h"), 0);
	assert_int_equal(rctl_prom_u64(&pr, bad_label, 1, 1), -EINVAL);
	rctl_prom_free(&pr);
	assert_int_equal(rctl_prom_family(&pr, "m", "gauge", "h"), 0);
	assert_int_equal(rctl_prom_u64(&pr, reserved, 1, 1), -EINVAL);
	rctl_prom_free(&pr);
	assert_true(rctl_prom_valid_name("rocectl:rate_5m", 0));
	assert_false(rctl_prom_valid_name("rocectl:rate", 1));
	assert_false(rctl_prom_valid_name("", 0));
	assert_false(rctl_prom_valid_name("a-b", 0));
}

/* The parser itself must reject what it is there to catch. */
static void test_parser_rejects(void **state)
{
	struct parsed p;

	assert_int_equal(strict_parse("m 1\n", &p), -1);
	assert_int_equal(strict_parse("# HELP m h\n# TYPE m gauge\nn 1\n", &p), -1);
	assert_int_equal(strict_parse("# HELP m h\n# TYPE m gauge\nm{a=\"x\\q\"} 1\n", &p), -1);
	assert_int_equal(strict_parse("# HELP m h\n# TYPE m gauge\nm{a=\"x} 1\n", &p), -1);
	assert_int_equal(strict_parse("# HELP m h\n# TYPE m gauge\nm one\n", &p), -1);
	assert_int_equal(strict_parse("# HELP m h\n# TYPE m gauge\n# HELP m h\n# TYPE m gauge\n", &p), -1);
	assert_int_equal(strict_parse("# HELP m h\n# TYPE m gauge\nm 1", &p), -1);
	assert_int_equal(strict_parse("# HELP m h\n# TYPE m gauge\nm{a=\"1\"} 1\n", &p), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_parser_rejects),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
