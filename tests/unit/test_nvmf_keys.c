// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the remote keys of NVMe/RDMA (lib/nvmf_keys.c): each slot's
 * window is bound to its command's bytes only, with its direction's one
 * right, under an rkey no other slot has; it is free again once the target
 * invalidated it (or the host did), never rebound while valid; and a target
 * that invalidates another command's rkey is caught. What a remote access
 * may reach is checked against a model of the HCA's rule (rxe_lookup_mw()
 * and rxe_check_bind_mw() of drivers/infiniband/sw/rxe/rxe_mw.c: the rkey,
 * the window valid, the right granted, the bytes inside the binding).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "rocectl/nvmf_keys.h"
#include "rocectl/nvmf_wire.h"

#define SLOTS 8
#define BUF 8192u
#define BASE 0x7f0000000000ull

/* The HCA's check of a remote access by rkey, over every window of the queue. */
static bool reaches(const struct rctl_key_win *w, int n, uint32_t rkey, uint64_t addr,
		    uint32_t len, uint8_t right)
{
	int i;

	for (i = 0; i < n; i++)
		if (w[i].bound && w[i].rkey == rkey && (w[i].rights & right) == right &&
		    addr >= w[i].addr && addr + len <= w[i].addr + w[i].len)
			return true;
	return false;
}

/* Windows as the verbs give them: index in bits 31:8, a key byte. */
static void init_all(struct rctl_key_win *w)
{
	int i;

	for (i = 0; i < SLOTS; i++)
		rctl_key_init(&w[i], (uint32_t)(i + 1) << 8 | 0xfe);
}

static void test_rights_by_direction(void **state)
{
	(void)state;
	assert_int_equal(rctl_key_rights(RCTL_NVME_OPC_READ, 0), RCTL_KEY_REMOTE_WRITE);
	assert_int_equal(rctl_key_rights(RCTL_NVME_OPC_WRITE, 0), RCTL_KEY_REMOTE_READ);
	assert_int_equal(rctl_key_rights(RCTL_NVME_OPC_IDENTIFY, 0), RCTL_KEY_REMOTE_WRITE);
	assert_int_equal(rctl_key_rights(RCTL_NVME_OPC_GET_LOG_PAGE, 0), RCTL_KEY_REMOTE_WRITE);
	assert_int_equal(rctl_key_rights(RCTL_NVME_OPC_FABRICS, RCTL_NVMF_CONNECT),
			 RCTL_KEY_REMOTE_READ);
	assert_int_equal(rctl_key_rights(RCTL_NVME_OPC_FABRICS, RCTL_NVMF_PROP_GET), 0);
	assert_int_equal(rctl_key_rights(RCTL_NVME_OPC_KEEP_ALIVE, 0), 0);
	assert_int_equal(rctl_key_rights(0x03, 0),
			 RCTL_KEY_REMOTE_READ | RCTL_KEY_REMOTE_WRITE);	/* bidirectional */
}

/*
 * Every slot bound for a read of its first 4 KiB: each rkey reaches its own
 * bytes, for a write by the target only, and nothing of another slot's
 * buffer nor the rest of its own.
 */
static void test_rkey_reaches_only_its_command(void **state)
{
	struct rctl_key_win w[SLOTS];
	struct rctl_key_bind b[SLOTS];
	int i, j;

	(void)state;
	init_all(w);
	for (i = 0; i < SLOTS; i++) {
		assert_int_equal(rctl_key_bind(&w[i], BASE + i * BUF, 4096,
					       rctl_key_rights(RCTL_NVME_OPC_READ, 0), &b[i]), 0);
		assert_int_equal(b[i].old_rkey, (uint32_t)(i + 1) << 8 | 0xfe);
		assert_int_equal(b[i].rkey, (uint32_t)(i + 1) << 8 | 0xff);
		assert_int_equal(b[i].addr, BASE + i * BUF);
		assert_int_equal(b[i].len, 4096);
	}
	for (i = 0; i < SLOTS; i++) {
		assert_true(reaches(w, SLOTS, b[i].rkey, BASE + i * BUF, 4096, RCTL_KEY_REMOTE_WRITE));
		assert_false(reaches(w, SLOTS, b[i].rkey, BASE + i * BUF, 4096, RCTL_KEY_REMOTE_READ));
		assert_false(reaches(w, SLOTS, b[i].rkey, BASE + i * BUF + 4096, 1,
				     RCTL_KEY_REMOTE_WRITE));
		assert_false(reaches(w, SLOTS, b[i].rkey, BASE + i * BUF - 1, 2,
				     RCTL_KEY_REMOTE_WRITE));
		for (j = 0; j < SLOTS; j++) {
			if (j == i)
				continue;
			assert_int_not_equal(b[i].rkey, b[j].rkey);
			assert_false(reaches(w, SLOTS, b[i].rkey, BASE + j * BUF, 4096,
					     RCTL_KEY_REMOTE_WRITE));
		}
	}
}

/* The target's Send with Invalidate frees the window: its rkey reaches nothing after. */
static void test_invalidated_with_the_response(void **state)
{
	struct rctl_key_win w[SLOTS];
	struct rctl_key_bind b, b2;

	(void)state;
	init_all(w);
	assert_int_equal(rctl_key_bind(&w[3], BASE + 3 * BUF, BUF, RCTL_KEY_REMOTE_READ, &b), 0);
	/* never rebound while valid */
	assert_int_equal(rctl_key_bind(&w[3], BASE + 3 * BUF, BUF, RCTL_KEY_REMOTE_READ, &b2), -EBUSY);
	assert_int_equal(rctl_key_done(&w[3], true, b.rkey), RCTL_KEY_FREED);
	assert_false(w[3].bound);
	assert_false(reaches(w, SLOTS, b.rkey, BASE + 3 * BUF, 1, RCTL_KEY_REMOTE_READ));
	/* the next command of the slot gets a new rkey; the old one still reaches nothing */
	assert_int_equal(rctl_key_bind(&w[3], BASE + 3 * BUF, 512, RCTL_KEY_REMOTE_WRITE, &b2), 0);
	assert_int_equal(b2.old_rkey, b.rkey);
	assert_int_not_equal(b2.rkey, b.rkey);
	assert_int_equal(b2.rkey & ~0xffu, b.rkey & ~0xffu);	/* the same window */
	assert_false(reaches(w, SLOTS, b.rkey, BASE + 3 * BUF, 1, RCTL_KEY_REMOTE_WRITE));
	assert_true(reaches(w, SLOTS, b2.rkey, BASE + 3 * BUF, 512, RCTL_KEY_REMOTE_WRITE));
	assert_false(reaches(w, SLOTS, b2.rkey, BASE + 3 * BUF + 512, 1, RCTL_KEY_REMOTE_WRITE));
}

/* A response that did not invalidate: the host must, then the window is free. */
static void test_host_invalidates_what_the_target_left(void **state)
{
	struct rctl_key_win w[SLOTS];
	struct rctl_key_bind b;

	(void)state;
	init_all(w);
	assert_int_equal(rctl_key_bind(&w[0], BASE, 4096, RCTL_KEY_REMOTE_WRITE, &b), 0);
	assert_int_equal(rctl_key_done(&w[0], false, 0), RCTL_KEY_LOCAL_INV);
	assert_true(w[0].bound);	/* until the host's invalidate is posted */
	rctl_key_invalidated(&w[0]);
	assert_false(reaches(w, SLOTS, b.rkey, BASE, 1, RCTL_KEY_REMOTE_WRITE));
	assert_int_equal(rctl_key_bind(&w[0], BASE, 4096, RCTL_KEY_REMOTE_WRITE, &b), 0);
	/* a command without data: nothing bound, nothing to invalidate */
	assert_int_equal(rctl_key_done(&w[1], false, 0), RCTL_KEY_FREED);
	assert_int_equal(rctl_key_bind(&w[1], BASE + BUF, 0, RCTL_KEY_REMOTE_WRITE, &b), -EINVAL);
	assert_int_equal(rctl_key_bind(&w[1], BASE + BUF, 4096, 0, &b), -EINVAL);
}

/* The target invalidates an rkey its command did not carry (another slot's): caught. */
static void test_wrong_rkey_invalidated(void **state)
{
	struct rctl_key_win w[SLOTS];
	struct rctl_key_bind b0, b1;

	(void)state;
	init_all(w);
	assert_int_equal(rctl_key_bind(&w[0], BASE, 4096, RCTL_KEY_REMOTE_WRITE, &b0), 0);
	assert_int_equal(rctl_key_bind(&w[1], BASE + BUF, 4096, RCTL_KEY_REMOTE_WRITE, &b1), 0);
	assert_int_equal(rctl_key_done(&w[0], true, b1.rkey), RCTL_KEY_WRONG);
	assert_int_equal(rctl_key_done(&w[2], true, 0x1234), RCTL_KEY_WRONG);	/* never bound */
	/* 256 bindings of one window come back to its first rkey, never before */
	rctl_key_invalidated(&w[0]);
	for (int i = 1; i < 256; i++) {
		struct rctl_key_bind b;

		assert_int_equal(rctl_key_bind(&w[0], BASE, 4096, RCTL_KEY_REMOTE_WRITE, &b), 0);
		assert_int_not_equal(b.rkey, b0.rkey);
		assert_int_equal(rctl_key_done(&w[0], true, b.rkey), RCTL_KEY_FREED);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rights_by_direction),
		cmocka_unit_test(test_rkey_reaches_only_its_command),
		cmocka_unit_test(test_invalidated_with_the_response),
		cmocka_unit_test(test_host_invalidates_what_the_target_left),
		cmocka_unit_test(test_wrong_rkey_invalidated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
