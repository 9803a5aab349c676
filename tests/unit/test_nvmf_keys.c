// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The NVMe/RDMA data keys (lib/nvmf_keys.c): for every slot and command, the
 * key in the keyed SGL is that of an MR spanning exactly the command's slot
 * and letting the target move data only the way the command needs, as
 * nvmet-rdma decides it (Linux include/linux/nvme.h nvme_is_write(): opcode
 * bit 0, the FCTYPE's for Fabrics commands); no data, no key. The MRs are
 * modelled from rctl_nvmf_keys_mr(), as lib/nvmf_rdma.c registers them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "rocectl/nvmf_keys.h"

#define BASE 0x7f0000100000ull
#define BS 4096u
#define SLOTS 32u

/* The rkey of MR i: any value that names i (rxe hands out index << 8 | key). */
static uint32_t rkey_of(uint32_t i)
{
	return 0x1000u + i * 0x100u + 0x5a;
}

struct cmd_case {
	const char *what;
	uint8_t opc, fctype;
	uint32_t len;
	enum rctl_nvmf_dir dir;
};

static const struct cmd_case cases[] = {
	{ "read", RCTL_NVME_OPC_READ, 0, BS, RCTL_NVMF_DIR_TO_HOST },
	{ "write", RCTL_NVME_OPC_WRITE, 0, BS, RCTL_NVMF_DIR_TO_CTRL },
	{ "short read", RCTL_NVME_OPC_READ, 0, 512, RCTL_NVMF_DIR_TO_HOST },
	{ "identify", RCTL_NVME_OPC_IDENTIFY, 0, 4096, RCTL_NVMF_DIR_TO_HOST },
	{ "get log page", RCTL_NVME_OPC_GET_LOG_PAGE, 0, 1024, RCTL_NVMF_DIR_TO_HOST },
	{ "set features", RCTL_NVME_OPC_SET_FEATURES, 0, 0, RCTL_NVMF_DIR_NONE },
	{ "keep alive", RCTL_NVME_OPC_KEEP_ALIVE, 0, 0, RCTL_NVMF_DIR_NONE },
	{ "connect", RCTL_NVME_OPC_FABRICS, RCTL_NVMF_CONNECT, 1024, RCTL_NVMF_DIR_TO_CTRL },
	{ "property get", RCTL_NVME_OPC_FABRICS, RCTL_NVMF_PROP_GET, 0, RCTL_NVMF_DIR_NONE },
	{ "property set", RCTL_NVME_OPC_FABRICS, RCTL_NVMF_PROP_SET, 0, RCTL_NVMF_DIR_NONE },
	/* a Fabrics command is judged by FCTYPE, not by opcode 0x7f's bit 0 */
	{ "fabrics 0x04 with data", RCTL_NVME_OPC_FABRICS, RCTL_NVMF_PROP_GET, 8,
	  RCTL_NVMF_DIR_TO_HOST },
};

static void test_dir(void **state)
{
	struct rctl_nvme_cmd c;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&c, 0, sizeof(c));
		c.opc = cases[i].opc;
		c.fctype = cases[i].fctype;
		if (rctl_nvme_data_dir(&c, cases[i].len) != cases[i].dir)
			fail_msg("%s: direction %d", cases[i].what,
				 rctl_nvme_data_dir(&c, cases[i].len));
	}
}

/* Every slot x every command: the key's MR, found by its rkey, is the slot's, one way. */
static void check_keys(const struct rctl_nvmf_keys *k)
{
	uint32_t n = rctl_nvmf_keys_count(k), rkeys[2 * SLOTS], i, m;
	enum rctl_nvmf_dir dir;
	struct rctl_nvme_cmd c;
	uint64_t addr;
	uint16_t slot;
	size_t j, len;

	for (i = 0; i < n; i++)
		rkeys[i] = rkey_of(i);
	for (slot = 0; slot < SLOTS; slot++) {
		for (j = 0; j < sizeof(cases) / sizeof(cases[0]); j++) {
			memset(&c, 0xa5, sizeof(c));
			c.opc = cases[j].opc;
			c.fctype = cases[j].fctype;
			rctl_nvmf_keys_sgl(k, rkeys, slot, &c, cases[j].len);
			assert_int_equal(c.sgl.kind, RCTL_SGL_KEYED);
			if (cases[j].dir == RCTL_NVMF_DIR_NONE) {
				/* the null SGL: no address, no length, no key */
				assert_true(!c.sgl.addr && !c.sgl.len && !c.sgl.key);
				continue;
			}
			assert_int_equal(c.sgl.addr, BASE + (uint64_t)slot * BS);
			assert_int_equal(c.sgl.len, cases[j].len);
			for (m = 0; m < n && rkeys[m] != c.sgl.key; m++)
				;
			assert_true(m < n);
			rctl_nvmf_keys_mr(k, m, &addr, &len, &dir);
			assert_int_equal(dir, cases[j].dir);
			assert_true(addr <= c.sgl.addr && c.sgl.addr + c.sgl.len <= addr + len);
			if (k->per_slot) {
				/* exactly the slot: neither neighbour's byte */
				assert_int_equal(addr, BASE + (uint64_t)slot * BS);
				assert_int_equal(len, BS);
			}
		}
	}
}

static void test_per_slot(void **state)
{
	const struct rctl_nvmf_keys k = { .base = BASE, .buf_size = BS, .nslots = SLOTS,
					  .per_slot = true };
	uint32_t i, j;
	enum rctl_nvmf_dir di, dj;
	uint64_t ai, aj;
	size_t li, lj;

	(void)state;
	assert_int_equal(rctl_nvmf_keys_count(&k), 2 * SLOTS);
	check_keys(&k);
	/* no two MRs share a slot and a direction; each slot has both */
	for (i = 0; i < 2 * SLOTS; i++) {
		rctl_nvmf_keys_mr(&k, i, &ai, &li, &di);
		assert_int_not_equal(di, RCTL_NVMF_DIR_NONE);
		for (j = i + 1; j < 2 * SLOTS; j++) {
			rctl_nvmf_keys_mr(&k, j, &aj, &lj, &dj);
			assert_false(ai == aj && di == dj);
		}
	}
}

/* max_mr too small: one MR per direction over the buffer, still never both ways. */
static void test_shared(void **state)
{
	const struct rctl_nvmf_keys k = { .base = BASE, .buf_size = BS, .nslots = SLOTS };
	enum rctl_nvmf_dir d0, d1;
	uint64_t a;
	size_t l;

	(void)state;
	assert_int_equal(rctl_nvmf_keys_count(&k), 2);
	rctl_nvmf_keys_mr(&k, 0, &a, &l, &d0);
	assert_int_equal(a, BASE);
	assert_int_equal(l, (size_t)SLOTS * BS);
	rctl_nvmf_keys_mr(&k, 1, &a, &l, &d1);
	assert_int_not_equal(d0, d1);
	check_keys(&k);
}

static void test_fit(void **state)
{
	(void)state;
	assert_true(rctl_nvmf_keys_fit(524287, 0, 1024));	/* rxe's max_mr */
	assert_true(rctl_nvmf_keys_fit(70, 6, 32));		/* exactly: 6 + 64 = 70 */
	assert_false(rctl_nvmf_keys_fit(69, 6, 32));
	assert_false(rctl_nvmf_keys_fit(0, 0, 1));		/* unknown: no room */
	assert_false(rctl_nvmf_keys_fit(10, 20, 1));		/* more used than max: no wrap */
	assert_true(rctl_nvmf_keys_fit(UINT32_MAX, UINT32_MAX - 131070, 65535));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dir),
		cmocka_unit_test(test_per_slot),
		cmocka_unit_test(test_shared),
		cmocka_unit_test(test_fit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
