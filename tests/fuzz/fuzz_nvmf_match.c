// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NVMe-oF completion matching and the discovery log (lib/nvmf_wire.c).
 * The first bytes choose a queue size and a slot's history of commands: a
 * CID for the slot's current generation matches it, one of any of its last
 * 2^(16 - bits) - 1 commands never does; a short SEND is never decoded.
 * The rest is a discovery log read in pages, its genctr bumped by the input's
 * schedule: what is accepted holds numrec records of strings that end.
 */
#include <errno.h>

#include "fuzz.h"
#include "rocectl/err.h"
#include "rocectl/nvmf_wire.h"

static void cids(const uint8_t *d)
{
	uint32_t slots = 1 + (d[0] | d[1] << 8) % 4096;
	unsigned int bits = rctl_nvme_cid_bits(slots);
	uint16_t slot = (uint16_t)((d[2] | d[3] << 8) % slots), gen = d[4] | d[5] << 8, g, cid;
	uint32_t back = (d[6] | d[7] << 8) % (1u << (16 - bits)), i;
	struct rctl_nvme_cqe c;

	gen &= (1u << (16 - bits)) - 1;
	cid = rctl_nvme_cid(slot, gen, bits);
	if (rctl_nvme_cid_slot(cid, bits) != slot || rctl_nvme_cid_gen(cid, bits) != gen)
		abort();
	/* "back" commands ago this slot had generation g: its CID is not the current one */
	for (g = gen, i = 0; i < back; i++)
		g = (uint16_t)((g + (1u << (16 - bits)) - 1) & ((1u << (16 - bits)) - 1));
	if (back && rctl_nvme_cid(slot, g, bits) == cid)
		abort();
	if (rctl_nvme_cqe_recv(d, d[8] % RCTL_NVME_CQE_SIZE, &c) != -EPROTO || c.cid)
		abort();
}

struct log {
	const uint8_t *p;
	size_t n;
	uint8_t page[4096], hdr[1024];
	unsigned int reads, bump_mask;
};

static int log_read(void *ctx, uint64_t off, uint32_t len, const uint8_t **page,
		    struct rctl_err *e)
{
	struct log *l = ctx;
	uint32_t i;

	if (len > sizeof(l->page))
		abort();
	for (i = 0; i < len; i++)
		l->page[i] = off + i < l->n ? l->p[off + i] : 0;
	if (!off && (l->bump_mask >> (l->reads++ % 8) & 1))
		l->page[0]++;	/* the target's genctr moved */
	*page = l->page;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rctl_nvmf_disc_entry *d;
	struct rctl_err e = { 0 };
	struct log l = { 0 };
	uint32_t n, i;

	if (size < 16)
		return 0;
	cids(data);
	l.bump_mask = data[9];
	l.p = data + 16;
	l.n = size - 16;
	if (l.n >= 16) {	/* thousands of empty records cost time and find nothing new */
		uint64_t numrec = 0;

		for (i = 0; i < 8; i++)
			numrec |= (uint64_t)l.p[8 + i] << (8 * i);
		if (numrec > 256 && numrec <= RCTL_NVMF_DISC_MAX)
			return 0;
	}
	/* pages of 4 records keep the paging busy on small inputs */
	if (rctl_nvmf_disc_read(log_read, &l, 4096, &d, &n, &e))
		return 0;
	if (n > RCTL_NVMF_DISC_MAX)
		abort();
	for (i = 0; i < n; i++)
		if (strnlen(d[i].subnqn, sizeof(d[i].subnqn)) == sizeof(d[i].subnqn) ||
		    strnlen(d[i].traddr, sizeof(d[i].traddr)) == sizeof(d[i].traddr) ||
		    strnlen(d[i].trsvcid, sizeof(d[i].trsvcid)) == sizeof(d[i].trsvcid))
			abort();
	free(d);
	return 0;
}
