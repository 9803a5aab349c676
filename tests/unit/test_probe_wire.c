// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the reach/serve handshake encoders and decoders. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "rocectl/probe_wire.h"

static void test_hello_round_trip(void **state)
{
	struct rctl_hello h = { .version = RCTL_PROBE_VERSION, .mode = RCTL_MODE_ECHO,
				.size = 16384, .depth = 4, .addr = 0x1122334455667788ull,
				.rkey = 0xdeadbeef }, d;
	uint8_t buf[RCTL_HELLO_LEN];

	assert_int_equal(rctl_hello_encode(&h, buf), RCTL_HELLO_LEN);
	assert_memory_equal(buf, "RCTL", 4);
	assert_int_equal(buf[8], 0);	/* big-endian size 0x4000 */
	assert_int_equal(buf[10], 0x40);
	assert_int_equal(rctl_hello_decode(buf, sizeof(buf), &d), RCTL_PROBE_OK);
	assert_int_equal(d.size, 16384);
	assert_int_equal(d.depth, 4);
	assert_true(d.addr == h.addr);
	assert_int_equal(d.rkey, 0xdeadbeef);
}

static void test_hello_rejects(void **state)
{
	struct rctl_hello h = { .version = RCTL_PROBE_VERSION, .mode = RCTL_MODE_SINK,
				.size = 64, .depth = 1 }, d;
	uint8_t buf[RCTL_HELLO_LEN];
	size_t n;

	n = rctl_hello_encode(&h, buf);
	assert_int_equal(rctl_hello_decode(NULL, 0, &d), RCTL_PROBE_BAD_REQUEST);
	assert_int_equal(rctl_hello_decode(buf, n - 1, &d), RCTL_PROBE_BAD_REQUEST);
	buf[4] = 9;		/* a future version */
	assert_int_equal(rctl_hello_decode(buf, n, &d), RCTL_PROBE_VERSION_MISMATCH);
	assert_int_equal(d.version, 9);
	buf[4] = 1;		/* version 1 clients are still served */
	assert_int_equal(rctl_hello_decode(buf, n, &d), RCTL_PROBE_OK);
	buf[5] = 7;		/* no such mode */
	assert_int_equal(rctl_hello_decode(buf, n, &d), RCTL_PROBE_BAD_REQUEST);
	h.size = RCTL_PROBE_MAX_SIZE + 1;
	rctl_hello_encode(&h, buf);
	assert_int_equal(rctl_hello_decode(buf, n, &d), RCTL_PROBE_BAD_REQUEST);
	h.size = 64;
	h.depth = 0;
	rctl_hello_encode(&h, buf);
	assert_int_equal(rctl_hello_decode(buf, n, &d), RCTL_PROBE_BAD_REQUEST);
	buf[0] = 'X';
	assert_int_equal(rctl_hello_decode(buf, n, &d), RCTL_PROBE_BAD_REQUEST);
}

static void test_welcome_v2(void **state)
{
	struct rctl_welcome w = { .version = 2, .addr = 42, .rkey = 7, .size = 64,
				  .lifetime_s = 300, .active_mtu = 1024,
				  .netdev_mtu = 1500, .netdev = "veth1" }, d;
	uint8_t buf[196] = { 0 };	/* a REP's private data arrives padded */

	assert_int_equal(rctl_welcome_encode(&w, buf), RCTL_WELCOME_LEN);
	assert_int_equal(rctl_welcome_decode(buf, sizeof(buf), &d), 0);
	assert_true(d.has_mtu);
	assert_int_equal(d.active_mtu, 1024);
	assert_int_equal(d.netdev_mtu, 1500);
	assert_string_equal(d.netdev, "veth1");
	assert_int_equal(d.lifetime_s, 300);
	/* a v2 welcome cut short is not read past its end */
	assert_int_equal(rctl_welcome_decode(buf, RCTL_WELCOME_LEN - 1, &d), -EBADMSG);
	/* an unterminated, unprintable name is cut and cleaned */
	memset(buf + 40, 0x01, 16);
	assert_int_equal(rctl_welcome_decode(buf, RCTL_WELCOME_LEN, &d), 0);
	assert_int_equal(strlen(d.netdev), 15);
	assert_int_equal(d.netdev[0], '?');
}

/* An old serve answers in version 1's layout: no MTU is made up from padding. */
static void test_welcome_v1_not_misread(void **state)
{
	struct rctl_welcome w = { .version = 1, .status = RCTL_PROBE_VERSION_MISMATCH }, d;
	uint8_t buf[148];

	memset(buf, 0xff, sizeof(buf));
	assert_int_equal(rctl_welcome_encode(&w, buf), RCTL_WELCOME_V1_LEN);
	assert_int_equal(rctl_welcome_decode(buf, sizeof(buf), &d), 0);
	assert_int_equal(d.version, 1);
	assert_int_equal(d.status, RCTL_PROBE_VERSION_MISMATCH);
	assert_false(d.has_mtu);
	assert_int_equal(d.active_mtu, 0);
	assert_int_equal(rctl_welcome_decode(buf, 31, &d), -EPROTO);
	assert_int_equal(rctl_welcome_decode("NOPE", 4, &d), -EPROTO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hello_round_trip),
		cmocka_unit_test(test_hello_rejects),
		cmocka_unit_test(test_welcome_v2),
		cmocka_unit_test(test_welcome_v1_not_misread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
