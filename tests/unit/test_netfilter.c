// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The netfilter collector (docs/roce-facts.md, "Firewall"): which rules of a real "nft -j list ruleset"
 * (nftables 1.0.6 output, with the lab's knob_drop_roce rule among others)
 * drop RoCE's ports, and how running nft fails: missing, failing, hanging.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "rocectl/collect.h"

/* Printed by nft 1.0.6 for the ruleset in the comment of each rule below. */
static const char ruleset[] =
	"{\"nftables\":[{\"metainfo\":{\"version\":\"1.0.6\",\"json_schema_version\":1}},"
	"{\"table\":{\"family\":\"inet\",\"name\":\"rocectl_lab\",\"handle\":1}},"
	"{\"chain\":{\"family\":\"inet\",\"table\":\"rocectl_lab\",\"name\":\"input\",\"handle\":1,"
	"\"type\":\"filter\",\"hook\":\"input\",\"prio\":0,\"policy\":\"accept\"}},"
	/* iifname "veth1" udp dport 4791 counter drop */
	"{\"rule\":{\"family\":\"inet\",\"table\":\"rocectl_lab\",\"chain\":\"input\",\"handle\":2,"
	"\"expr\":[{\"match\":{\"op\":\"==\",\"left\":{\"meta\":{\"key\":\"iifname\"}},\"right\":\"veth1\"}},"
	"{\"match\":{\"op\":\"==\",\"left\":{\"payload\":{\"protocol\":\"udp\",\"field\":\"dport\"}},\"right\":4791}},"
	"{\"counter\":{\"packets\":0,\"bytes\":0}},{\"drop\":null}]}},"
	/* tcp dport { 4420, 18515 } reject */
	"{\"rule\":{\"family\":\"inet\",\"table\":\"rocectl_lab\",\"chain\":\"input\",\"handle\":4,"
	"\"expr\":[{\"match\":{\"op\":\"==\",\"left\":{\"payload\":{\"protocol\":\"tcp\",\"field\":\"dport\"}},"
	"\"right\":{\"set\":[4420,18515]}}},{\"reject\":{\"type\":\"icmpx\",\"expr\":\"port-unreachable\"}}]}},"
	/* udp dport 4791 accept */
	"{\"rule\":{\"family\":\"inet\",\"table\":\"rocectl_lab\",\"chain\":\"input\",\"handle\":5,"
	"\"expr\":[{\"match\":{\"op\":\"==\",\"left\":{\"payload\":{\"protocol\":\"udp\",\"field\":\"dport\"}},"
	"\"right\":4791}},{\"accept\":null}]}},"
	/* ip filt fw: udp dport 4000-5000 drop */
	"{\"rule\":{\"family\":\"ip\",\"table\":\"filt\",\"chain\":\"fw\",\"handle\":4,"
	"\"expr\":[{\"match\":{\"op\":\"==\",\"left\":{\"payload\":{\"protocol\":\"udp\",\"field\":\"dport\"}},"
	"\"right\":{\"range\":[4000,5000]}}},{\"drop\":null}]}},"
	/* udp dport != 4791 drop: not RoCE */
	"{\"rule\":{\"family\":\"ip\",\"table\":\"filt\",\"chain\":\"fw\",\"handle\":5,"
	"\"expr\":[{\"match\":{\"op\":\"!=\",\"left\":{\"payload\":{\"protocol\":\"udp\",\"field\":\"dport\"}},"
	"\"right\":4791}},{\"drop\":null}]}},"
	/* tcp dport 18515 jump foo: not a verdict of its own */
	"{\"rule\":{\"family\":\"ip\",\"table\":\"filt\",\"chain\":\"fw\",\"handle\":6,"
	"\"expr\":[{\"match\":{\"op\":\"==\",\"left\":{\"payload\":{\"protocol\":\"tcp\",\"field\":\"dport\"}},"
	"\"right\":18515}},{\"jump\":{\"target\":\"foo\"}}]}},"
	/* meta l4proto tcp th dport 4791 drop: TCP, not RoCE */
	"{\"rule\":{\"family\":\"ip\",\"table\":\"filt\",\"chain\":\"fw\",\"handle\":8,"
	"\"expr\":[{\"match\":{\"op\":\"==\",\"left\":{\"meta\":{\"key\":\"l4proto\"}},\"right\":\"tcp\"}},"
	"{\"match\":{\"op\":\"==\",\"left\":{\"payload\":{\"protocol\":\"th\",\"field\":\"dport\"}},"
	"\"right\":4791}},{\"drop\":null}]}},"
	/* iifname != "lo" meta l4proto udp th dport 4791 reject */
	"{\"rule\":{\"family\":\"netdev\",\"table\":\"t\",\"chain\":\"ingress\",\"handle\":9,"
	"\"expr\":[{\"match\":{\"op\":\"!=\",\"left\":{\"meta\":{\"key\":\"iifname\"}},\"right\":\"lo\"}},"
	"{\"match\":{\"op\":\"==\",\"left\":{\"meta\":{\"key\":\"l4proto\"}},\"right\":\"udp\"}},"
	"{\"match\":{\"op\":\"==\",\"left\":{\"payload\":{\"protocol\":\"th\",\"field\":\"dport\"}},"
	"\"right\":4791}},{\"reject\":null}]}},"
	/* drop: names no port, not evaluated */
	"{\"rule\":{\"family\":\"ip\",\"table\":\"filt\",\"chain\":\"foo\",\"handle\":7,"
	"\"expr\":[{\"drop\":null}]}}]}";

static void test_parse(void **state)
{
	struct rctl_netfilter nf = { 0 };
	struct rctl_err e = { 0 };
	const struct rctl_nf_rule *r;
	char got[8][96];
	uint32_t i;

	(void)state;
	assert_int_equal(rctl_nft_parse(ruleset, &nf, &e), 0);
	assert_true(nf.st.ok);
	assert_int_equal(nf.n_rules_read, 9);
	assert_int_equal(nf.n_rules, 5);
	for (i = 0; i < nf.n_rules && i < 8; i++) {
		r = &nf.rules[i];
		snprintf(got[i], sizeof(got[i]), "%s %s %s %llu %s %u %s [%s] [%s]", r->family,
			 r->table, r->chain, (unsigned long long)r->handle, r->proto, r->dport,
			 r->verdict, r->iifname, r->oifname);
	}
	assert_string_equal(got[0], "inet rocectl_lab input 2 udp 4791 drop [veth1] []");
	assert_string_equal(got[1], "inet rocectl_lab input 4 tcp 4420 reject [] []");
	assert_string_equal(got[2], "inet rocectl_lab input 4 tcp 18515 reject [] []");
	assert_string_equal(got[3], "ip filt fw 4 udp 4791 drop [] []");
	assert_string_equal(got[4], "netdev t ingress 9 udp 4791 reject [!lo] []");
	free(nf.rules);
}

static void test_parse_bad(void **state)
{
	struct rctl_netfilter nf = { 0 };
	struct rctl_err e = { 0 };

	(void)state;
	assert_int_equal(rctl_nft_parse("{\"nftables\": 3}", &nf, &e), -EINVAL);
	assert_string_equal(e.msg, "cannot read the nftables ruleset: not nft JSON");
	assert_false(nf.st.ok);
	assert_int_equal(rctl_nft_parse("not json", &nf, &e), -EINVAL);
	/* An empty ruleset: readable, nothing blocks. */
	assert_int_equal(rctl_nft_parse("{\"nftables\":[{\"metainfo\":{}}]}", &nf, &e), 0);
	assert_true(nf.st.ok);
	assert_int_equal(nf.n_rules + nf.n_rules_read, 0);
}

/* A handle beyond u64 (fuzzing found 1.2e44): unknown (0), not an undefined conversion. */
static void test_parse_huge_handle(void **state)
{
	struct rctl_netfilter nf = { 0 };
	struct rctl_err e = { 0 };

	(void)state;
	assert_int_equal(rctl_nft_parse("{\"nftables\":[{\"rule\":{\"family\":\"inet\","
		"\"table\":\"t\",\"chain\":\"c\",\"handle\":1.2e44,\"expr\":["
		"{\"match\":{\"op\":\"==\",\"left\":{\"payload\":{\"protocol\":\"udp\","
		"\"field\":\"dport\"}},\"right\":4791}},{\"drop\":null}]}}]}", &nf, &e), 0);
	assert_int_equal(nf.n_rules, 1);
	assert_true(nf.rules[0].handle == 0);
	free(nf.rules);
}

/* modules.builtin lines (Linux scripts/Makefile.modbuiltin): the path of each built-in module. */
static void test_builtin_line(void **state)
{
	(void)state;
	assert_true(rctl_nft_builtin("kernel/net/netfilter/nf_tables.ko\n"));
	assert_true(rctl_nft_builtin("kernel/net/netfilter/nf_tables.ko"));
	assert_false(rctl_nft_builtin("kernel/net/netfilter/nf_tables_set.ko\n"));
	assert_false(rctl_nft_builtin("kernel/net/netfilter/nft_nf_tables.ko.xz\n"));
	assert_false(rctl_nft_builtin("kernel/net/netfilter/nfnetlink.ko\n"));
	assert_false(rctl_nft_builtin("nf_tables.ko"));
	assert_false(rctl_nft_builtin(""));
}

static char dir[64];

/* An executable "nft" stand-in that runs a shell body; returns its path. */
static const char *script(const char *name, const char *body)
{
	static char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
	return path;
}

static void collect_with(const char *nft, struct rctl_host *h)
{
	struct rctl_err e = { 0 };

	memset(h, 0, sizeof(*h));
	setenv("ROCECTL_NFT", nft, 1);
	assert_int_equal(rctl_netfilter_collect(h, &e), 0);
	unsetenv("ROCECTL_NFT");
}

static void test_collect_runs_nft(void **state)
{
	struct rctl_host h;
	char body[sizeof(ruleset) + 64];

	(void)state;
	/* nft's own arguments arrive, one each: no shell in between. */
	snprintf(body, sizeof(body),
		 "[ \"$*\" = '-j list ruleset' ] || exit 9\ncat <<'EOF'\n%s\nEOF", ruleset);
	collect_with(script("nft-ok", body), &h);
	assert_true(h.netfilter.st.ok);
	assert_int_equal(h.netfilter.n_rules, 5);
	assert_int_equal(h.n_unread, 0);
	rctl_host_free(&h);
}

static void test_collect_failures(void **state)
{
	struct rctl_host h;
	struct timespec t0, t1;

	(void)state;
	collect_with(script("nft-err", "echo 'Error: no such thing' >&2\nexit 1"), &h);
	assert_false(h.netfilter.st.ok);
	if (geteuid())
		assert_string_equal(h.netfilter.st.reason,
				    "not root: 'nft list ruleset' needs CAP_NET_ADMIN");
	else
		assert_string_equal(h.netfilter.st.reason, "Error: no such thing");
	assert_int_equal(h.n_unread, 1);
	assert_string_equal(h.unread[0].what, "netfilter ruleset (nft)");
	rctl_host_free(&h);

	collect_with(script("nft-junk", "echo '<html>'"), &h);
	assert_false(h.netfilter.st.ok);
	assert_string_equal(h.netfilter.st.reason, "cannot read the nftables ruleset: not valid JSON");
	rctl_host_free(&h);

	collect_with("/nonexistent/nft", &h);
	assert_false(h.netfilter.st.ok);
	assert_int_equal(h.netfilter.st.err, ENOENT);
	rctl_host_free(&h);

	/* A hung nft is killed at the timeout (5 s), and so is its child holding the pipe. */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	collect_with(script("nft-hang", "sleep 30 & sleep 30"), &h);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_false(h.netfilter.st.ok);
	assert_int_equal(h.netfilter.st.err, ETIMEDOUT);
	assert_string_equal(h.netfilter.st.reason, "'nft list ruleset' did not answer within 5 s");
	assert_true(t1.tv_sec - t0.tv_sec >= 4 && t1.tv_sec - t0.tv_sec <= 20);
	rctl_host_free(&h);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/rocectl-nft.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	static const char *const names[] = { "nft-ok", "nft-err", "nft-junk", "nft-hang" };
	char path[128];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_parse_huge_handle),
		cmocka_unit_test(test_builtin_line),
		cmocka_unit_test(test_collect_runs_nft),
		cmocka_unit_test(test_collect_failures),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
