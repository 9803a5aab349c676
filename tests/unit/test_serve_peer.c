// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of serve's peer keys, --allow networks and reject-line rate limit. */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <netinet/in.h>
#include <cmocka.h>

#include <infiniband/ib.h>

#include "rocectl/serve_peer.h"

static struct rctl_peer_key key4(const char *ip)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(1234) };
	struct rctl_peer_key k;

	assert_int_equal(inet_pton(AF_INET, ip, &sin.sin_addr), 1);
	assert_int_equal(rctl_peer_key_of((struct sockaddr *)&sin, &k), 0);
	return k;
}

static struct rctl_peer_key key6(const char *ip, uint16_t port)
{
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6, .sin6_port = htons(port) };
	struct rctl_peer_key k;

	assert_int_equal(inet_pton(AF_INET6, ip, &sin6.sin6_addr), 1);
	assert_int_equal(rctl_peer_key_of((struct sockaddr *)&sin6, &k), 0);
	return k;
}

/* One host is one key: the mapped form, another port, the same address. */
static void test_peer_key_canonical(void **state)
{
	struct rctl_peer_key a = key4("10.0.0.1"), b = key6("::ffff:10.0.0.1", 999),
			     c = key6("fd00::1", 1), d = key6("fd00:0:0::1", 2),
			     v6 = key6("::a00:1", 3);	/* IPv4-compatible, not mapped */
	struct sockaddr_ib sib = { .sib_family = AF_IB };
	struct sockaddr sun = { .sa_family = AF_UNIX };
	struct rctl_peer_key ib, x;

	assert_true(rctl_peer_key_eq(&a, &b));
	assert_int_equal(b.family, AF_INET);
	assert_true(rctl_peer_key_eq(&c, &d));
	assert_false(rctl_peer_key_eq(&a, &c));
	assert_false(rctl_peer_key_eq(&a, &v6));
	/* an AF_IB GID that spells ::ffff:10.0.0.1 is not that IPv4 host */
	memcpy(&sib.sib_addr, "\0\0\0\0\0\0\0\0\0\0\xff\xff\x0a\0\0\x01", 16);
	assert_int_equal(rctl_peer_key_of((struct sockaddr *)&sib, &ib), 0);
	assert_int_equal(ib.family, AF_IB);
	assert_false(rctl_peer_key_eq(&ib, &a));
	assert_int_equal(rctl_peer_key_of(&sun, &x), -EAFNOSUPPORT);
	assert_int_equal(rctl_peer_key_of(NULL, &x), -EAFNOSUPPORT);
}

static void test_cidr_parse(void **state)
{
	struct rctl_err e = { 0 };
	struct rctl_cidr c;

	assert_int_equal(rctl_cidr_parse("10.0.0.0/24", &c, &e), 0);
	assert_int_equal(c.net.family, AF_INET);
	assert_int_equal(c.bits, 24);
	assert_int_equal(rctl_cidr_parse("10.0.0.7", &c, &e), 0);
	assert_int_equal(c.bits, 32);
	assert_int_equal(rctl_cidr_parse("fd00::/8", &c, &e), 0);
	assert_int_equal(c.net.family, AF_INET6);
	assert_int_equal(c.bits, 8);
	/* the mapped form of a network is that IPv4 network */
	assert_int_equal(rctl_cidr_parse("::ffff:10.0.0.0/120", &c, &e), 0);
	assert_int_equal(c.net.family, AF_INET);
	assert_int_equal(c.bits, 24);
	assert_int_equal(rctl_cidr_parse("0.0.0.0/0", &c, &e), 0);
	assert_int_equal(rctl_cidr_parse("10.0.0.1/24", &c, &e), -EINVAL);
	assert_string_equal(e.msg, "invalid network '10.0.0.1/24' for '--allow': bits are set past the prefix length");
	assert_int_equal(rctl_cidr_parse("10.0.0.0/33", &c, &e), -EINVAL);
	assert_int_equal(rctl_cidr_parse("10.0.0.0/", &c, &e), -EINVAL);
	assert_int_equal(rctl_cidr_parse("10.0.0.0/-1", &c, &e), -EINVAL);
	assert_int_equal(rctl_cidr_parse("10.0.0.0/2x", &c, &e), -EINVAL);
	assert_int_equal(rctl_cidr_parse("fd00::/129", &c, &e), -EINVAL);
	assert_int_equal(rctl_cidr_parse("::ffff:10.0.0.0/64", &c, &e), -EINVAL);
	assert_int_equal(rctl_cidr_parse("host.example", &c, &e), -EINVAL);
	assert_string_equal(e.msg, "invalid network 'host.example' for '--allow': not a numeric IPv4 or IPv6 address");
	assert_int_equal(rctl_cidr_parse("", &c, &e), -EINVAL);
	assert_int_equal(rctl_cidr_parse("/8", &c, &e), -EINVAL);
}

static void test_cidr_match(void **state)
{
	struct rctl_err e = { 0 };
	struct rctl_cidr c[3];
	struct rctl_peer_key in = key4("10.0.0.200"), mapped = key6("::ffff:10.0.0.9", 1),
			     out = key4("10.0.1.1"), v6in = key6("fd00:1::5", 1),
			     v6out = key6("fe80::1", 1);

	assert_int_equal(rctl_cidr_parse("10.0.0.0/24", &c[0], &e), 0);
	assert_int_equal(rctl_cidr_parse("fd00::/20", &c[1], &e), 0);
	assert_int_equal(rctl_cidr_parse("192.168.7.3", &c[2], &e), 0);
	assert_true(rctl_cidr_match(c, 3, &in));
	assert_true(rctl_cidr_match(c, 3, &mapped));
	assert_false(rctl_cidr_match(c, 3, &out));
	assert_true(rctl_cidr_match(c, 3, &v6in));
	assert_false(rctl_cidr_match(c, 3, &v6out));
	assert_false(rctl_cidr_match(c, 1, &v6in));	/* families never mix */
	assert_true(rctl_cidr_match(c, 0, &out));	/* no list: every peer */
	/* a prefix that ends inside a byte: 10.0.0.0/25 holds .127, not .128 */
	assert_int_equal(rctl_cidr_parse("10.0.0.0/25", &c[0], &e), 0);
	in = key4("10.0.0.127");
	out = key4("10.0.0.128");
	assert_true(rctl_cidr_match(c, 1, &in));
	assert_false(rctl_cidr_match(c, 1, &out));
}

/*
 * Once per peer and reason a minute, with the count; a flood of addresses
 * costs no memory, and at most RCTL_REJECT_LOG_BURST lines a minute whatever
 * the addresses, the rest said in the next line.
 */
static void test_reject_log(void **state)
{
	static struct rctl_reject_log l;
	struct rctl_peer_key a = key4("10.0.0.1"), b = key4("10.0.0.2");
	uint64_t n = 0, o = 0, t = 1000, t1 = t + RCTL_REJECT_LOG_NS;
	unsigned int i, lines = 0;

	assert_true(rctl_reject_log_note(&l, &a, 7, t, &n, &o));
	assert_int_equal(n, 1);
	assert_int_equal(o, 0);
	for (i = 0; i < 100; i++)
		assert_false(rctl_reject_log_note(&l, &a, 7, t + i, &n, &o));
	/* another reason or another peer is its own line */
	assert_true(rctl_reject_log_note(&l, &a, 6, t, &n, &o));
	assert_true(rctl_reject_log_note(&l, &b, 7, t, &n, &o));
	assert_true(rctl_reject_log_note(&l, &a, 7, t1, &n, &o));
	assert_int_equal(n, 101);
	/* 1000 addresses in a minute: the budget's lines, then silence */
	for (i = 0; i < 1000; i++) {
		struct rctl_peer_key k = key4("10.9.0.0");

		k.addr[2] = (uint8_t)(i >> 8);
		k.addr[3] = (uint8_t)i;
		lines += rctl_reject_log_note(&l, &k, 7, t1 + 10 + i, &n, &o);
	}
	assert_int_equal(lines, RCTL_REJECT_LOG_BURST - 1);
	/* the next minute's first line says how many went unsaid */
	assert_true(rctl_reject_log_note(&l, &b, 7, t1 + RCTL_REJECT_LOG_NS + 10, &n, &o));
	assert_int_equal(n, 1);
	assert_int_equal(o, 1000 - (RCTL_REJECT_LOG_BURST - 1));
	assert_true(rctl_reject_log_note(&l, &a, 6, t1 + RCTL_REJECT_LOG_NS + 11, &n, &o));
	assert_int_equal(o, 0);
}

static void test_const_eq(void **state)
{
	assert_true(rctl_const_eq("abcdef", "abcdef", 6));
	assert_false(rctl_const_eq("abcdef", "abcdeg", 6));
	assert_false(rctl_const_eq("xbcdef", "abcdef", 6));
	assert_true(rctl_const_eq("", "", 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_peer_key_canonical),
		cmocka_unit_test(test_cidr_parse),
		cmocka_unit_test(test_cidr_match),
		cmocka_unit_test(test_reject_log),
		cmocka_unit_test(test_const_eq),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
