// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check over many snapshots (lib/fleet.c): inputs, summaries, age, groups,
 * port ranges; and its HTML report (lib/fleet_html.c): escaping, the page.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "rocectl/err.h"
#include "rocectl/fleet.h"
#include "rocectl/fleet_html.h"
#include "rocectl/intent.h"
#include "rocectl/snapshot.h"

#define FIXTURES "tests/fixtures/hosts"

static void ranges(const char *const *v, uint32_t n, const char *want)
{
	char buf[256];

	rctl_fleet_port_ranges(v, n, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void test_port_ranges(void **state)
{
	static const char *const a[] = {
		"Ethernet1/3", "Ethernet1/1", "swp9", "Ethernet1/2", "Ethernet1/12", "Ethernet1/2",
	};
	static const char *const b[] = { "Ethernet2/1", "Ethernet1/1", "Ethernet1/2" };
	static const char *const c[] = { "0c:42:a1:00:00:07", "xe-0/0/1" };
	char small[16];

	(void)state;
	/* sorted by number, not text (1/12 after 1/3); a repeat folded into its run */
	ranges(a, 6, "Ethernet1/1-3, Ethernet1/12, swp9");
	/* a different prefix is a different run */
	ranges(b, 3, "Ethernet1/1-2, Ethernet2/1");
	ranges(c, 2, "0c:42:a1:00:00:07, xe-0/0/1");
	ranges(c, 0, "");
	rctl_fleet_port_ranges(a, 6, small, sizeof(small));
	assert_true(strlen(small) < sizeof(small));
	assert_non_null(strstr(small, "..."));
}

/* A temporary tree: d/a.json, d/sub/b.json, d/.hidden.json, d/notes.txt. */
static void make_tree(char *dir, size_t len)
{
	char p[512];
	FILE *f;

	snprintf(dir, len, "/tmp/rocectl-fleet-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/sub", dir);
	assert_int_equal(mkdir(p, 0700), 0);
	static const char *const files[] = { "a.json", "sub/b.json", ".hidden.json", "notes.txt",
						   "sub/c.json.node01" };
	for (unsigned int i = 0; i < 5; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, files[i]);
		f = fopen(p, "w");
		assert_non_null(f);
		fclose(f);
	}
}

static void rm_tree(const char *dir)
{
	static const char *const files[] = { "a.json", "sub/b.json", ".hidden.json", "notes.txt",
					     "sub/c.json.node01" };
	char p[512];

	for (unsigned int i = 0; i < 5; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, files[i]);
		unlink(p);
	}
	snprintf(p, sizeof(p), "%s/sub", dir);
	rmdir(p);
	rmdir(dir);
}

static void test_expand(void **state)
{
	struct rctl_err e = { 0 };
	char dir[64], pat[96], a[96], b[96];
	const char *specs[3];
	char **files;
	uint32_t n;

	(void)state;
	make_tree(dir, sizeof(dir));
	snprintf(a, sizeof(a), "%s/a.json", dir);
	snprintf(b, sizeof(b), "%s/sub/b.json", dir);
	/* a directory: its .json files and rpdcp's copies, below too, no dotfile, no other name */
	specs[0] = dir;
	assert_int_equal(rctl_fleet_expand(specs, 1, &files, &n, &e), 0);
	assert_int_equal(n, 3);
	assert_string_equal(files[0], a);
	assert_string_equal(files[1], b);
	assert_non_null(strstr(files[2], "/sub/c.json.node01"));
	rctl_fleet_files_free(files, n);
	assert_true(rctl_fleet_spec_many(dir));
	/* a pattern, a file named again and a missing file: sorted, once each, kept */
	snprintf(pat, sizeof(pat), "%s/*.json", dir);
	specs[0] = pat;
	specs[1] = a;
	specs[2] = "/nonexistent/x.json";
	assert_true(rctl_fleet_spec_many(pat));
	assert_false(rctl_fleet_spec_many(a));
	assert_int_equal(rctl_fleet_expand(specs, 3, &files, &n, &e), 0);
	assert_int_equal(n, 2);
	assert_string_equal(files[0], "/nonexistent/x.json");
	assert_string_equal(files[1], a);
	rctl_fleet_files_free(files, n);
	/* a pattern that matches nothing is an error that names it */
	snprintf(pat, sizeof(pat), "%s/*.nothing", dir);
	specs[0] = pat;
	assert_int_equal(rctl_fleet_expand(specs, 1, &files, &n, &e), -ENOENT);
	assert_non_null(strstr(e.msg, pat));
	/* so is a directory without snapshots */
	snprintf(pat, sizeof(pat), "%s/sub", dir);
	snprintf(b, sizeof(b), "%s/sub/b.json", dir);
	unlink(b);
	snprintf(b, sizeof(b), "%s/sub/c.json.node01", dir);
	unlink(b);
	specs[0] = pat;
	assert_int_equal(rctl_fleet_expand(specs, 1, &files, &n, &e), -ENOENT);
	assert_non_null(strstr(e.msg, "no snapshot (*.json) in the directory"));
	assert_non_null(strstr(e.msg, pat));
	rm_tree(dir);
}

static struct rctl_intent intent;

static const struct rctl_fleet_judge *judge(void)
{
	static struct rctl_fleet_judge j;
	struct rctl_intent_args ia = { 0 };
	struct rctl_err e = { 0 };

	unsetenv("ROCECTL_CONF");
	ia.config = "/dev/null";	/* an empty file: the profile alone */
	if (rctl_intent_resolve(&intent, &ia, &e))
		fail_msg("%s", e.msg);
	j = (struct rctl_fleet_judge){
		.in = &intent, .areas = (1u << RCTL_AREA_N) - 1, .rules = rctl_rules,
		.n_rules = rctl_n_rules,
	};
	return &j;
}

static void add(struct rctl_fleet *fl, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), FIXTURES "/%s.json", name);
	assert_int_equal(rctl_fleet_add_file(fl, path, judge()), 0);
}

static void test_summaries(void **state)
{
	struct rctl_fleet fl = { .cmp = { .dscp = 26 } };
	const struct rctl_fleet_host *h;

	(void)state;
	add(&fl, "mlx5-upstream-healthy");
	add(&fl, "fault-pfc-off-prio3");
	assert_int_equal(rctl_fleet_add_file(&fl, FIXTURES "/nonexistent.json", judge()), 0);
	assert_int_equal(fl.n, 2);
	assert_int_equal(fl.cmp.n_bad, 1);
	assert_non_null(strstr(fl.cmp.bad[0].file, "nonexistent.json"));
	rctl_fleet_sort(&fl);
	/* the failing host first, its pfc cell failed by the first failing rule */
	h = &fl.hosts[0];
	assert_int_equal(h->exit, RCTL_EXIT_FAIL);
	assert_true(h->area[RCTL_AREA_PFC].ran);
	assert_int_equal(h->area[RCTL_AREA_PFC].worst, RCTL_FAIL);
	assert_string_equal(h->area[RCTL_AREA_PFC].first, "pfc.prio_disabled");
	assert_int_equal(h->area[RCTL_AREA_MTU].worst, RCTL_PASS);
	/* only findings that are no pass are kept */
	assert_int_equal(h->n_f, h->count[RCTL_WARN] + h->count[RCTL_FAIL] + h->count[RCTL_UNKNOWN]);
	assert_true(h->n_f > 0);
	assert_int_equal(h->time, 1764480000);
	assert_true(h->n_series >= h->n_f);
	assert_int_equal(fl.hosts[1].exit, RCTL_EXIT_OK);
	assert_int_equal(fl.hosts[1].n_f, 0);
	/* compare's rows came along for the outliers */
	assert_int_equal(fl.cmp.n, 2);
	/* a fail beats the unreadable snapshot's unknown */
	assert_int_equal(rctl_fleet_exit(&fl, 1764480000, RCTL_FLEET_MAX_AGE_S), RCTL_EXIT_FAIL);
	rctl_fleet_free(&fl);
}

static void test_age_and_exit(void **state)
{
	struct rctl_fleet fl = { .cmp = { .dscp = 26 } };
	const int64_t t = 1764480000;

	(void)state;
	add(&fl, "mlx5-upstream-healthy");
	/* its own time decides, never the file's */
	assert_false(rctl_fleet_stale(&fl.hosts[0], t + 3600, 7200));
	assert_true(rctl_fleet_stale(&fl.hosts[0], t + 7201, 7200));
	assert_int_equal(rctl_fleet_exit(&fl, t + 60, RCTL_FLEET_MAX_AGE_S), RCTL_EXIT_OK);
	/* stale: a warning at least */
	assert_int_equal(rctl_fleet_exit(&fl, t + 7201, 7200), RCTL_EXIT_WARN);
	fl.hosts[0].time = 0;
	assert_true(rctl_fleet_stale(&fl.hosts[0], t, 7200));
	/* an unreadable snapshot: unknown, not ok */
	fl.hosts[0].time = t;
	assert_int_equal(rctl_cmp_add_bad(&fl.cmp, "x.json", "cannot parse"), 0);
	assert_int_equal(rctl_fleet_exit(&fl, t, 7200), RCTL_EXIT_UNKNOWN);
	rctl_fleet_free(&fl);
	/* nothing judged at all is no verdict */
	assert_int_equal(rctl_fleet_exit(&fl, t, 7200), RCTL_EXIT_UNKNOWN);
}

static void test_newest(void **state)
{
	struct rctl_fleet fl = { .cmp = { .dscp = 26 } };
	bool keep[3];

	(void)state;
	add(&fl, "mlx5-upstream-healthy");	/* node11 */
	add(&fl, "fault-tos-0");		/* node11 */
	add(&fl, "mlx5-ofed-healthy");		/* node12 */
	fl.hosts[1].time += 60;
	assert_int_equal(rctl_fleet_newest(&fl, keep), 0);
	assert_false(keep[0]);
	assert_true(keep[1]);
	assert_true(keep[2]);
	rctl_fleet_free(&fl);
}

static const struct rctl_fleet_group *group(const struct rctl_fleet_group *g, uint32_t n,
					    const char *key)
{
	for (uint32_t i = 0; i < n; i++)
		if (!strcmp(g[i].key, key))
			return &g[i];
	fail_msg("no group '%s'", key);
	return NULL;
}

static void test_groups(void **state)
{
	struct rctl_fleet fl = { .cmp = { .dscp = 26 } };
	const struct rctl_fleet_group *l7;
	struct rctl_fleet_group *g;
	uint32_t n;

	(void)state;
	add(&fl, "mlx5-peer-healthy");		/* node51 leaf-07 Ethernet1/7 */
	add(&fl, "fault-peer-pfc-prio4");	/* node51 leaf-07, fails */
	add(&fl, "bnxt-peer-healthy");		/* node52 leaf-07 Ethernet1/12 */
	add(&fl, "ice-peer-healthy");		/* node53 leaf-08 */
	add(&fl, "mlx5-upstream-healthy");	/* no LLDP neighbour */
	rctl_fleet_sort(&fl);
	assert_int_equal(rctl_fleet_groups(&fl, RCTL_FLEET_BY_SWITCH, &g, &n), 0);
	assert_int_equal(n, 3);
	/* the group with a failing host comes first */
	assert_string_equal(g[0].key, "leaf-07");
	l7 = group(g, n, "leaf-07");
	assert_int_equal(l7->n, 3);
	assert_int_equal(l7->count[RCTL_FAIL], 1);
	assert_int_equal(l7->count[RCTL_PASS], 2);
	assert_int_equal(l7->m[0].status, RCTL_FAIL);
	assert_string_equal(l7->m[0].where, "Ethernet1/7");
	assert_string_equal(l7->ports, "Ethernet1/7");
	assert_int_equal(group(g, n, "leaf-08")->n, 1);
	assert_int_equal(group(g, n, RCTL_FLEET_NO_SWITCH)->n, 1);
	rctl_fleet_groups_free(g, n);

	assert_int_equal(rctl_fleet_groups(&fl, RCTL_FLEET_BY_RULE, &g, &n), 0);
	l7 = group(g, n, "peer.pfc_prio");
	assert_int_equal(l7->n, 1);
	assert_int_equal(l7->m[0].status, RCTL_FAIL);
	rctl_fleet_groups_free(g, n);

	assert_int_equal(rctl_fleet_groups(&fl, RCTL_FLEET_BY_DRIVER, &g, &n), 0);
	assert_int_equal(group(g, n, "mlx5 inbox")->n, 3);
	assert_int_equal(group(g, n, "bnxt_re inbox")->n, 1);
	rctl_fleet_groups_free(g, n);

	assert_int_equal(rctl_fleet_groups(&fl, RCTL_FLEET_BY_NONE, &g, &n), 0);
	assert_int_equal(n, 0);
	rctl_fleet_free(&fl);
}

static void escaped(const char *s, size_t max, const char *want)
{
	char buf[256];

	assert_int_equal(rctl_html_escape(buf, sizeof(buf), s, max), strlen(want));
	assert_string_equal(buf, want);
}

static void test_html_escape(void **state)
{
	char small[8];

	(void)state;
	escaped("<script>alert(1)</script>", 0, "&lt;script&gt;alert(1)&lt;/script&gt;");
	escaped("a\"b'c&d", 0, "a&quot;b&#39;c&amp;d");
	escaped("&amp;", 0, "&amp;amp;");
	/* tab and newline stay; other controls, DEL and C1 become U+FFFD */
	escaped("a\tb\nc\x01" "d\x7f\xc2\x85", 0, "a\tb\nc\xef\xbf\xbd" "d\xef\xbf\xbd\xef\xbf\xbd");
	/* UTF-8 kept; no UTF-8 (a lone continuation, overlong, surrogate, cut) replaced */
	escaped("leaf-07 \xc3\xa9t\xc3\xa9 \xe2\x86\x94", 0, "leaf-07 \xc3\xa9t\xc3\xa9 \xe2\x86\x94");
	escaped("\x80x", 0, "\xef\xbf\xbd" "x");
	escaped("\xc0\xbc", 0, "\xef\xbf\xbd\xef\xbf\xbd");
	escaped("\xed\xa0\x80", 0, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	escaped("\xe2\x86", 0, "\xef\xbf\xbd\xef\xbf\xbd");
	/* cut after max characters (a reference counts as one), with an ellipsis */
	escaped("Ethernet1/12", 8, "Ethernet\xe2\x80\xa6");
	escaped("<<<<", 2, "&lt;&lt;\xe2\x80\xa6");
	escaped("\xc3\xa9\xc3\xa9\xc3\xa9", 2, "\xc3\xa9\xc3\xa9\xe2\x80\xa6");
	escaped("abc", 3, "abc");
	escaped(NULL, 0, "");
	/* snprintf's contract: truncated, terminated, the whole length returned */
	assert_int_equal(rctl_html_escape(small, sizeof(small), "<<<<", 0), 16);
	assert_string_equal(small, "&lt;&lt");
}

/* A snapshot's strings, hostile, through the whole page. */
static void test_html_page(void **state)
{
	static const char *const evil[] = { "<script>", "\"><svg onload=x>", "<img src=x>", "</td><b onclick=x>" };
	struct rctl_fleet fl = { .cmp = { .dscp = 26 } };
	struct rctl_intent in;
	struct rctl_fleet_host *h;
	struct rctl_err e = { 0 };
	char *page, *p;
	size_t len;
	unsigned int i;

	(void)state;
	assert_int_equal(rctl_intent_profile(&in, "lossless-dscp", &e), 0);
	add(&fl, "fault-peer-pfc-prio4");
	add(&fl, "mlx5-upstream-healthy");
	rctl_fleet_sort(&fl);
	h = &fl.hosts[0];
	assert_true(h->n_f > 0 && h->n_links > 0 && h->links[0].has_peer);
	snprintf(h->hostname, sizeof(h->hostname), "%s", evil[0]);
	snprintf(h->f[0].evidence, sizeof(h->f[0].evidence), "%s", evil[1]);
	snprintf(h->links[0].sw, sizeof(h->links[0].sw), "%s", evil[2]);
	snprintf(h->links[0].sw_port, sizeof(h->links[0].sw_port), "%s", evil[3]);
	snprintf(fl.hosts[1].file, sizeof(fl.hosts[1].file), "%s", evil[1]);
	assert_int_equal(rctl_fleet_html(&(struct rctl_fleet_html){
		.fl = &fl, .in = &in, .command = "doctor", .areas = (1u << RCTL_AREA_N) - 1,
		.by = RCTL_FLEET_BY_SWITCH, .now = 1764480000, .max_age_s = 3600,
		.status = 2 }, &page, &len), 0);
	assert_int_equal(strlen(page), len);
	for (i = 0; i < sizeof(evil) / sizeof(evil[0]); i++)
		assert_null(strstr(page, evil[i]));
	assert_non_null(strstr(page, "&lt;script&gt;"));
	assert_non_null(strstr(page, "&quot;&gt;&lt;svg onload=x&gt;"));
	assert_non_null(strstr(page, "&lt;img src=x&gt;"));
	/* the one sheet, allowed by its hash, and no script anywhere */
	assert_non_null(strstr(page, rctl_html_css));
	assert_non_null(strstr(page, rctl_html_css_hash));
	assert_null(strstr(page, "<script"));
	p = strstr(page, "</style>");
	assert_non_null(p);
	assert_null(strstr(p + 1, "</style>"));
	/* the map: a box per switch, the host linked to its findings */
	assert_non_null(strstr(page, "<svg id=\"tor-map\""));
	assert_non_null(strstr(page, "data-switch=\"&lt;img src=x&gt;\""));
	assert_non_null(strstr(page, "data-switch=\"" RCTL_FLEET_NO_SWITCH "\""));
	assert_non_null(strstr(page, "<a href=\"#f-0\"><rect class=\"host fail\""));
	free(page);
	rctl_fleet_free(&fl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_port_ranges),
		cmocka_unit_test(test_expand),
		cmocka_unit_test(test_summaries),
		cmocka_unit_test(test_age_and_exit),
		cmocka_unit_test(test_newest),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_html_escape),
		cmocka_unit_test(test_html_page),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
