// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of reach's pure judgements: which side's MTU makes a black hole,
 * the --targets file, the worst exit status, and the fleet matrix.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rocectl/hist.h"
#include "rocectl/reach.h"

static const struct rctl_mtu_view big = {
	.active_mtu = 4096, .netdev_mtu = 9000, .path_mtu = 4096, .netdev = "veth0",
};
static const struct rctl_mtu_view small = {
	.active_mtu = 1024, .netdev_mtu = 1500, .path_mtu = 1024, .netdev = "veth1",
};

static void test_mtu_peer_smaller(void **state)
{
	char msg[512];

	assert_int_equal(rctl_mtu_cause(&big, &small, "10.0.0.2", 1436, 1437, msg, sizeof(msg)),
			 RCTL_MTU_PEER);
	assert_non_null(strstr(msg, "messages up to 1436 bytes pass, 1437 bytes stall"));
	assert_non_null(strstr(msg, "path_mtu 4096 (veth0 mtu 9000, active_mtu 4096)"));
	assert_non_null(strstr(msg, "'10.0.0.2' takes at most veth1 mtu 1500, active_mtu 1024"));
	assert_non_null(strstr(msg, "the peer's smaller MTU"));
}

static void test_mtu_local_smaller(void **state)
{
	char msg[512];

	assert_int_equal(rctl_mtu_cause(&small, &big, "b", 1436, 1437, msg, sizeof(msg)),
			 RCTL_MTU_LOCAL);
	assert_non_null(strstr(msg, "this side's smaller MTU"));
	assert_non_null(strstr(msg, "veth0 mtu 9000"));
	assert_non_null(strstr(msg, "veth1 mtu 1500"));
}

static void test_mtu_path_and_unknown(void **state)
{
	struct rctl_mtu_view none = { 0 };
	char msg[512];

	assert_int_equal(rctl_mtu_cause(&big, &big, "b", 1436, 1437, msg, sizeof(msg)),
			 RCTL_MTU_PATH);
	assert_non_null(strstr(msg, "a link or switch between them"));
	assert_int_equal(rctl_mtu_cause(&big, &none, "b", 1436, 1437, msg, sizeof(msg)),
			 RCTL_MTU_UNKNOWN);
	assert_non_null(strstr(msg, "did not report its MTU"));
	/* a short buffer is never overrun */
	assert_int_equal(rctl_mtu_cause(&big, &small, "b", 1, 2, msg, 10), RCTL_MTU_UNKNOWN);
	assert_int_equal(strlen(msg), 9);
}

static void test_targets_file(void **state)
{
	char **l = NULL;
	unsigned int n = 0;
	struct rctl_err e = { 0 };

	assert_int_equal(rctl_reach_targets_parse("# rack 1\n10.0.0.2\n  10.0.0.3\t# B\n\n"
						  "node7\r\n", "hosts.txt", &l, &n, &e), 0);
	assert_int_equal(n, 3);
	assert_string_equal(l[0], "10.0.0.2");
	assert_string_equal(l[1], "10.0.0.3");
	assert_string_equal(l[2], "node7");
	/* /etc/hosts lines: the address is the target, the names are not */
	assert_int_equal(rctl_reach_targets_parse("10.0.0.4 node04 n4\n", "f", &l, &n, &e), 0);
	assert_int_equal(n, 4);
	assert_string_equal(l[3], "10.0.0.4");
	assert_int_equal(rctl_reach_targets_parse("a\nb:0\n", "f", &l, &n, &e), -EINVAL);
	assert_string_equal(e.msg, "'f' line 2: invalid target 'b:0' (HOST, HOST:PORT or [IPV6]:PORT)");
	rctl_reach_targets_free(l, n);
}

/* pdsh's host lists: ranges padded as their lower bound, several groups multiply. */
static void test_host_lists(void **state)
{
	char **l = NULL;
	unsigned int n = 0;
	struct rctl_err e = { 0 };

	assert_int_equal(rctl_reach_targets_add(&l, &n, "node[08-10,3]", &e), 0);
	assert_int_equal(n, 4);
	assert_string_equal(l[0], "node08");
	assert_string_equal(l[2], "node10");
	assert_string_equal(l[3], "node3");
	assert_int_equal(rctl_reach_targets_add(&l, &n, "r[1-2]n[1-2]:18521", &e), 0);
	assert_int_equal(n, 8);
	assert_string_equal(l[4], "r1n1:18521");
	assert_string_equal(l[7], "r2n2:18521");
	/* an IPv6 literal in brackets is no range */
	assert_int_equal(rctl_reach_targets_add(&l, &n, "[fe80::1]:18520", &e), 0);
	assert_string_equal(l[8], "[fe80::1]:18520");
	assert_int_equal(rctl_reach_targets_add(&l, &n, "n[3-1]", &e), -EINVAL);
	assert_string_equal(e.msg, "reach: invalid host list 'n[3-1]'");
	assert_int_equal(rctl_reach_targets_add(&l, &n, "n[1-99999]", &e), -E2BIG);
	rctl_reach_targets_free(l, n);
}

static void test_target_split(void **state)
{
	char host[64];
	int port;

	assert_int_equal(rctl_target_split("node2:18521", host, sizeof(host), &port), 0);
	assert_string_equal(host, "node2");
	assert_int_equal(port, 18521);
	assert_int_equal(rctl_target_split("10.0.0.2", host, sizeof(host), &port), 0);
	assert_int_equal(port, -1);
	assert_int_equal(rctl_target_split("fe80::1", host, sizeof(host), &port), 0);
	assert_string_equal(host, "fe80::1");
	assert_int_equal(port, -1);
	assert_int_equal(rctl_target_split("[fe80::1%eth0]:7", host, sizeof(host), &port), 0);
	assert_string_equal(host, "fe80::1%eth0");
	assert_int_equal(port, 7);
	assert_int_equal(rctl_target_split("[::1]", host, sizeof(host), &port), 0);
	assert_int_equal(port, -1);
	assert_int_equal(rctl_target_split("h:65536", host, sizeof(host), &port), -EINVAL);
	assert_int_equal(rctl_target_split("h:+1", host, sizeof(host), &port), -EINVAL);
	assert_int_equal(rctl_target_split(":1", host, sizeof(host), &port), -EINVAL);
	assert_int_equal(rctl_target_split("[::1]x", host, sizeof(host), &port), -EINVAL);
}

/* rtt_ns: exact mean and sample standard deviation next to the histogram. */
static void test_lat_summary(void **state)
{
	static const uint64_t v[] = { 2000, 4000, 4000, 4000, 5000, 5000, 7000, 9000 };
	struct rctl_hist *h = malloc(sizeof(*h));
	struct rctl_stat st = { 0 };
	struct rctl_lat l;
	size_t i;

	assert_non_null(h);
	rctl_hist_init(h);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		rctl_stat_add(h, &st, v[i]);
	rctl_lat_of(&l, h, &st);
	assert_int_equal(l.count, 8);
	assert_int_equal(l.min, 2000);
	assert_int_equal(l.max, 9000);
	assert_int_equal(l.mean, 5000);
	assert_int_equal(l.stddev, 2138);	/* sqrt(32e6 / 7) */
	assert_in_range(l.p50, 3960, 5040);	/* within a bucket (< 1 %) */
	free(h);
}

static void test_worst(void **state)
{
	assert_int_equal(rctl_reach_worst(RCTL_EXIT_OK, RCTL_EXIT_FAIL), RCTL_EXIT_FAIL);
	assert_int_equal(rctl_reach_worst(RCTL_EXIT_UNKNOWN, RCTL_EXIT_FAIL), RCTL_EXIT_FAIL);
	assert_int_equal(rctl_reach_worst(RCTL_EXIT_UNKNOWN, RCTL_EXIT_OK), RCTL_EXIT_UNKNOWN);
	assert_int_equal(rctl_reach_worst(RCTL_EXIT_OK, RCTL_EXIT_OK), RCTL_EXIT_OK);
}

static const char doc_a[] =
	"{\"hostname\": \"a\", \"targets\": ["
	"{\"target\": \"10.0.0.2\", \"verdict\": \"ok\", \"finding\": null,"
	" \"path\": {\"src_ip\": \"10.0.0.1\", \"path_mtu\": 1024},"
	" \"send\": {\"rtt_ns\": {\"percentiles\": {\"50\": 5000}}}},"
	"{\"target\": \"10.0.0.3\", \"verdict\": \"fail\", \"finding\": {\"id\":"
	" \"reach.addr_unresolved\", \"message\": \"no ARP\"}, \"path\": {\"src_ip\": null}}]}";
/* One target: the document is the target's object (and an older string finding). */
static const char doc_b[] =
	"{\"target\": \"10.0.0.1\", \"verdict\": \"fail\", \"finding\": \"reach.rejected\","
	" \"message\": \"REJ\", \"path\": {\"src_ip\": \"10.0.0.2\", \"path_mtu\": 0}}";

static void test_matrix(void **state)
{
	struct rctl_matrix m = { 0 };
	struct rctl_err e = { 0 };
	const struct rctl_pair *p;

	assert_int_equal(rctl_matrix_add_doc(&m, doc_a, "a.json", &e), 0);
	assert_int_equal(rctl_matrix_add_doc(&m, doc_b, "b.json", &e), 0);
	assert_int_equal(rctl_matrix_finish(&m), 0);
	assert_int_equal(m.nsrc, 2);
	assert_int_equal(m.ntgt, 3);
	assert_string_equal(m.sources[0], "10.0.0.1");
	assert_string_equal(m.sources[1], "10.0.0.2");
	assert_int_equal(m.npresent, 3);
	assert_int_equal(m.nfailed, 2);
	/* failing pairs first */
	assert_string_equal(m.order[0]->verdict, "fail");
	assert_string_equal(m.order[1]->verdict, "fail");
	assert_string_equal(m.order[2]->verdict, "ok");
	p = rctl_matrix_at(&m, 0, 0);
	assert_int_equal(p->path_mtu, 1024);
	assert_int_equal(p->rtt_p50_ns, 5000);
	p = rctl_matrix_at(&m, 0, 1);
	assert_string_equal(p->finding, "reach.addr_unresolved");
	assert_string_equal(p->message, "no ARP");
	p = rctl_matrix_at(&m, 1, 2);
	assert_string_equal(p->finding, "reach.rejected");
	assert_null(rctl_matrix_at(&m, 1, 0));	/* not probed */
	/* the column with the most failures comes first; ties keep their order */
	assert_string_equal(m.targets[m.col_order[0]], "10.0.0.3");
	rctl_matrix_free(&m);
}

/* pdsh: "host: {...}" lines, one document each, in one file */
static void test_matrix_pdsh(void **state)
{
	struct rctl_matrix m = { 0 };
	struct rctl_err e = { 0 };

	assert_int_equal(rctl_matrix_add_doc(&m, "node1: {\"targets\": [{\"target\": \"n2\","
					     " \"verdict\": \"ok\"}]}\n"
					     "node2: {\"targets\": [{\"target\": \"n1\","
					     " \"verdict\": \"fail\"}]}\n", "all.txt", &e), 0);
	assert_int_equal(rctl_matrix_finish(&m), 0);
	assert_int_equal(m.nsrc, 2);
	assert_string_equal(m.sources[0], "node1");
	assert_string_equal(m.sources[1], "node2");
	assert_int_equal(m.nfailed, 1);
	rctl_matrix_free(&m);
}

/* What is not reach's own is noted and skipped; the rest still counts. */
static void test_matrix_bad_docs(void **state)
{
	struct rctl_matrix m = { 0 };
	struct rctl_err e = { 0 };

	assert_int_equal(rctl_matrix_add_doc(&m, "[1]", "x", &e), 0);
	assert_int_equal(rctl_matrix_add_doc(&m, "{\"devices\": []}", "y", &e), 0);
	assert_string_equal(m.bad[1].reason, "'y': document 1 is not a JSON document of rocectl reach");
	assert_int_equal(rctl_matrix_add_doc(&m, " \n", "v", &e), 0);
	assert_string_equal(m.bad[2].reason, "'v' holds no JSON document");
	assert_int_equal(rctl_matrix_add_doc(&m, "{\"targets\": [{\"verdict\": 1}]}", "z", &e), 0);
	assert_int_equal(rctl_matrix_add_doc(&m, "{", "w", &e), 0);
	assert_int_equal(m.nbad, 5);
	/* pdsh's line about a host, between two good documents */
	assert_int_equal(rctl_matrix_add_doc(&m, "n1: {\"targets\": [{\"target\": \"n2\", \"verdict\": \"ok\"}]}\n"
					     "pdsh@admin: n3: ssh exited with exit code 255\n"
					     "garbage {\n"
					     "n2: {\"targets\": [{\"target\": \"n1\", \"verdict\": \"ok\"}]}\n",
					     "all.txt", &e), 0);
	assert_int_equal(m.nbad, 6);
	assert_string_equal(m.bad[5].name, "n3");
	assert_string_equal(m.bad[5].reason, "'all.txt': pdsh: n3: ssh exited with exit code 255");
	assert_int_equal(rctl_matrix_finish(&m), 0);
	assert_int_equal(m.nsrc, 2);
	assert_int_equal(m.npresent, 2);
	rctl_matrix_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mtu_peer_smaller),
		cmocka_unit_test(test_mtu_local_smaller),
		cmocka_unit_test(test_mtu_path_and_unknown),
		cmocka_unit_test(test_targets_file),
		cmocka_unit_test(test_host_lists),
		cmocka_unit_test(test_target_split),
		cmocka_unit_test(test_lat_summary),
		cmocka_unit_test(test_worst),
		cmocka_unit_test(test_matrix),
		cmocka_unit_test(test_matrix_pdsh),
		cmocka_unit_test(test_matrix_bad_docs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
