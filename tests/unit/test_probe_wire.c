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

/* The token rides after the 32 bytes of version 2, flagged; never without the flag. */
static void test_hello_token(void **state)
{
	struct rctl_hello h = { .version = RCTL_PROBE_VERSION, .mode = RCTL_MODE_ECHO,
				.flags = RCTL_HELLO_F_TOKEN | RCTL_HELLO_F_LATE_MR,
				.size = 64, .depth = 4 }, d;
	uint8_t buf[56], pad[56] = { 0 };

	memcpy(h.token, "0123456789abcdefXYZ", 19);
	assert_int_equal(rctl_hello_encode(&h, buf), RCTL_HELLO_TOKEN_LEN);
	assert_int_equal(RCTL_HELLO_TOKEN_LEN, 56);	/* all a REQ of RDMA_PS_TCP holds */
	assert_int_equal(buf[6], RCTL_HELLO_F_TOKEN | RCTL_HELLO_F_LATE_MR);
	assert_memory_equal(buf + 32, "0123456789abcdefXYZ\0\0\0\0\0", 24);
	assert_int_equal(rctl_hello_decode(buf, sizeof(buf), &d), RCTL_PROBE_OK);
	assert_int_equal(d.flags, h.flags);
	assert_memory_equal(d.token, h.token, RCTL_TOKEN_LEN);
	/* cut before the token, or a flag with an empty token: refused */
	assert_int_equal(rctl_hello_decode(buf, RCTL_HELLO_LEN, &d), RCTL_PROBE_BAD_REQUEST);
	memset(buf + 32, 0, 24);
	assert_int_equal(rctl_hello_decode(buf, sizeof(buf), &d), RCTL_PROBE_BAD_REQUEST);
	/* without the flag, no token is read, whatever follows */
	h.flags = 0;
	assert_int_equal(rctl_hello_encode(&h, pad), RCTL_HELLO_LEN);
	memset(pad + 32, 'x', 24);
	assert_int_equal(rctl_hello_decode(pad, sizeof(pad), &d), RCTL_PROBE_OK);
	assert_int_equal(d.flags, 0);
	assert_int_equal(d.token[0], 0);
}

/* An older client's hello (flags 0, padded by the kernel) and unknown flags still pass. */
static void test_hello_flags_compatible(void **state)
{
	struct rctl_hello h = { .version = 1, .mode = RCTL_MODE_POLL, .size = 64, .depth = 2 }, d;
	uint8_t buf[56] = { 0 };

	rctl_hello_encode(&h, buf);
	assert_int_equal(rctl_hello_decode(buf, sizeof(buf), &d), RCTL_PROBE_OK);
	assert_int_equal(d.flags & RCTL_HELLO_F_LATE_MR, 0);
	buf[6] = 0x80;
	assert_int_equal(rctl_hello_decode(buf, sizeof(buf), &d), RCTL_PROBE_OK);
	assert_int_equal(d.flags, 0x80);
}

static void test_welcome_late_mr(void **state)
{
	struct rctl_welcome w = { .version = 2, .flags = RCTL_WELCOME_F_LATE_MR, .size = 64 }, d;
	uint8_t buf[RCTL_WELCOME_LEN];

	rctl_welcome_encode(&w, buf);
	assert_int_equal(buf[6], RCTL_WELCOME_F_LATE_MR);
	assert_int_equal(rctl_welcome_decode(buf, sizeof(buf), &d), 0);
	assert_int_equal(d.flags, RCTL_WELCOME_F_LATE_MR);
	/* a v1 welcome carries the byte too: an old serve sends 0 there */
	w.version = 1;
	w.flags = 0;
	rctl_welcome_encode(&w, buf);
	assert_int_equal(rctl_welcome_decode(buf, RCTL_WELCOME_V1_LEN, &d), 0);
	assert_int_equal(d.flags, 0);
}

static void test_ready(void **state)
{
	struct rctl_ready r = { .addr = 0x7f0011223344ull, .rkey = 0x1234, .size = 8u << 20 }, d;
	uint8_t buf[64];

	assert_int_equal(rctl_ready_encode(&r, buf), RCTL_READY_LEN);
	assert_memory_equal(buf, "RCTL\x01", 5);
	assert_int_equal(rctl_ready_decode(buf, RCTL_READY_LEN, &d), 0);
	assert_true(d.addr == r.addr);
	assert_int_equal(d.rkey, 0x1234);
	assert_int_equal(d.size, 8u << 20);
	assert_int_equal(rctl_ready_decode(buf, RCTL_READY_LEN - 1, &d), -EPROTO);
	assert_int_equal(rctl_ready_decode(NULL, 0, &d), -EPROTO);
	r.size = RCTL_PROBE_MAX_SIZE + 1;
	rctl_ready_encode(&r, buf);
	assert_int_equal(rctl_ready_decode(buf, sizeof(buf), &d), -EBADMSG);
	r.size = 0;
	rctl_ready_encode(&r, buf);
	assert_int_equal(rctl_ready_decode(buf, sizeof(buf), &d), -EBADMSG);
	/* a welcome is not a ready message */
	buf[4] = 2;
	assert_int_equal(rctl_ready_decode(buf, sizeof(buf), &d), -EPROTO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hello_round_trip),
		cmocka_unit_test(test_hello_rejects),
		cmocka_unit_test(test_welcome_v2),
		cmocka_unit_test(test_welcome_v1_not_misread),
		cmocka_unit_test(test_hello_token),
		cmocka_unit_test(test_hello_flags_compatible),
		cmocka_unit_test(test_welcome_late_mr),
		cmocka_unit_test(test_ready),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
