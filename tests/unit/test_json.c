// SPDX-License-Identifier: GPL-2.0-or-later
/* The strict JSON reader (lib/json.c): what it refuses, in which words, and what it keeps. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rocectl/json.h"

static const char *refused(const char *text, size_t len)
{
	static struct rctl_err e;
	cJSON *doc = (cJSON *)1;

	assert_int_not_equal(rctl_json_read(text, len, "test", "t.json", &doc, &e), 0);
	assert_null(doc);
	return e.msg;
}

#define REFUSED(lit) refused(lit, sizeof(lit) - 1)

static void test_refused(void **state)
{
	assert_string_equal(REFUSED("{} {}"),
			    "cannot read test 't.json': data after the end of the document at byte 3");
	assert_string_equal(REFUSED("{\"a\": 1}\n]"),
			    "cannot read test 't.json': data after the end of the document at byte 9");
	assert_string_equal(REFUSED("{\"a\": 1} x"), "cannot read test 't.json': data after the end of the document at byte 9");
	assert_string_equal(REFUSED("{\"a\": 1, \"b\": {\"c\": 1, \"c\": 2}}"),
			    "cannot read test 't.json': key \"c\" twice in b");
	assert_string_equal(REFUSED("[{}, {\"x\": [{\"k\": 0, \"k\": 0}]}]"),
			    "cannot read test 't.json': key \"k\" twice in [1].x[0]");
	assert_string_equal(REFUSED("{\"a\": 1, \"a\": 1}"), "cannot read test 't.json': key \"a\" twice in the top object");
	assert_string_equal(REFUSED("{\"a\": \"x\\u0000y\"}"), "cannot read test 't.json': \\u0000 in a string at byte 8");
	assert_string_equal(REFUSED("{\"a\\u0000\": 1}"), "cannot read test 't.json': \\u0000 in a string at byte 3");
	assert_string_equal(REFUSED("{\"a\": \"\xff\"}"), "cannot read test 't.json': a string that is not UTF-8 at byte 7");
	assert_string_equal(REFUSED("{\"a\": \"\xed\xa0\x80\"}"), "cannot read test 't.json': a string that is not UTF-8 at byte 7");
	assert_string_equal(REFUSED("{\"a\": \"\xe2\x82\"}"), "cannot read test 't.json': a string that is not UTF-8 at byte 7");
	assert_string_equal(REFUSED("{\"a\": \"\t\"}"), "cannot read test 't.json': a control character in a string at byte 7");
	assert_string_equal(REFUSED("{\"a\": 1}\0{}"), "cannot read test 't.json': a NUL byte at byte 8");
	assert_string_equal(REFUSED("{\"a\": \"x"), "cannot read test 't.json': the document ends inside a string at byte 8");
	assert_string_equal(REFUSED("{\"a\": [1"), "cannot read test 't.json': the document ends before it is closed at byte 8");
	assert_string_equal(REFUSED("{\"a\": tru}"), "cannot read test 't.json': not valid JSON");
	assert_string_equal(REFUSED("1 2"), "cannot read test 't.json': data after the end of the document at byte 2");
	assert_string_equal(REFUSED(""), "cannot read test 't.json': not valid JSON");
}

static void test_bounds(void **state)
{
	char deep[80];
	struct rctl_err e;
	cJSON *doc;

	memset(deep, '[', 33);
	memset(deep + 33, ']', 33);
	assert_string_equal(refused(deep, 66), "cannot read test 't.json': nesting deeper than 32 levels at byte 32");
	assert_int_equal(rctl_json_read(deep + 1, 64, "test", "t.json", &doc, &e), 0);
	cJSON_Delete(doc);
	assert_int_equal(rctl_json_read("{}", RCTL_JSON_MAX_BYTES + 1, "test", "t.json", &doc, &e), -EFBIG);
	assert_string_equal(e.msg, "cannot read test 't.json': larger than 32 MiB");
	assert_int_equal(rctl_json_read("{}", 2, "nft output", NULL, &doc, &e), 0);
	cJSON_Delete(doc);
}

static void test_kept(void **state)
{
	const char *text = "{\"big\": 18446744073709551615, \"f\": 0.30000000000000004, \"e\": 1e300,"
			   " \"s\": \"caf\xc3\xa9 \\u00e9 \\ud83d\\ude00 \\\" \\\\\", \"n\": -12, \"k\": [true, false, null]}\n";
	struct rctl_err e;
	cJSON *doc;

	assert_int_equal(rctl_json_read(text, strlen(text), "test", "t.json", &doc, &e), 0);
	assert_string_equal(cJSON_GetObjectItem(doc, "big")->valuestring, "18446744073709551615");
	assert_true(cJSON_GetObjectItem(doc, "f")->valuedouble > 0.3);
	assert_true(cJSON_GetObjectItem(doc, "e")->valuedouble == 1e300);
	assert_string_equal(cJSON_GetObjectItem(doc, "s")->valuestring,
			    "caf\xc3\xa9 \xc3\xa9 \xf0\x9f\x98\x80 \" \\");
	assert_int_equal(cJSON_GetObjectItem(doc, "n")->valueint, -12);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "k")), 3);
	cJSON_Delete(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
