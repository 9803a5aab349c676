// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The RoCE v2 decoder and flow table (lib/roce_wire.c): the input, in an
 * allocation of exactly its size (ASan sees a read past the captured
 * length), as a frame of each link type; its first byte picks how many
 * frames the rest is cut into for the table. Invariants: the decode returns
 * 0, RCTL_RW_NOT_ROCE or -EBADMSG; a decoded packet's QP and PSN fit 24
 * bits and its class is its opcode's; a CM message is a CM MAD; the table
 * keeps at most its cap of flows, and every RoCE packet is in a flow or in
 * the overflow, its marks summing to its packets.
 */
#include <assert.h>
#include <errno.h>

#include "fuzz.h"
#include "rocectl/roce_wire.h"

static void check_pkt(int ret, const struct rctl_rw_pkt *k)
{
	assert(ret == 0 || ret == RCTL_RW_NOT_ROCE || ret == -EBADMSG);
	if (ret)
		return;
	assert(k->dqpn < 1u << 24 && k->psn < 1u << 24 && k->vlan < 4096);
	assert(k->cls == rctl_rw_class_of(k->opcode, k->dqpn));
	assert(!k->has_cm || (k->has_mad && k->mgmt_class == RCTL_MGMT_CLASS_CM));
}

static uint64_t marks_sum(const struct rctl_wire_mark *m, uint32_t n)
{
	uint64_t s = 0;
	uint32_t i;

	for (i = 0; i < n; i++) {
		assert(m[i].dscp < 64 && m[i].ecn < 4 && m[i].packets);
		s += m[i].packets;
	}
	return s;
}

static void check_table(const uint8_t *data, size_t size)
{
	struct rctl_rw_table *t = rctl_rw_table_new(4);
	struct rctl_wire w = { 0 };
	size_t parts = size ? data[0] % 8 + 1 : 1, step, off;
	struct rctl_rw_pkt k;
	uint64_t in_flows = 0;
	uint32_t i;
	int ret;

	if (!t || !size)
		goto out;
	step = (size - 1) / parts + 1;
	for (off = 1; off < size; off += step) {
		size_t n = size - off < step ? size - off : step;
		uint8_t *frame = malloc(n);

		if (!frame)
			goto out;
		memcpy(frame, data + off, n);
		ret = rctl_rw_decode(frame, n, RCTL_RW_LINK_ETH, &k);
		if (ret)
			rctl_rw_table_skip(t, ret);
		else if (rctl_rw_table_add(t, &k))
			ret = -ENOMEM;
		free(frame);
	}
	if (rctl_rw_table_summary(t, &w))
		goto out;
	assert(w.n_flows <= 4 && w.n_conns <= RCTL_WIRE_MAX_CONNS);
	for (i = 0; i < w.n_flows; i++) {
		const struct rctl_wire_flow *f = &w.flows[i];

		in_flows += f->packets;
		assert(marks_sum(f->cnp_marks, f->n_cnp_marks) == f->cnps);
		assert(marks_sum(f->marks, f->n_marks) == f->packets - f->cnps);
	}
	assert(in_flows + w.flow_overflow == w.roce_packets);
	assert(w.roce_packets + w.malformed <= w.frames);
	rctl_wire_clear(&w);
out:
	rctl_rw_table_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum rctl_rw_link links[] = {
		RCTL_RW_LINK_ETH, RCTL_RW_LINK_SLL, RCTL_RW_LINK_SLL2, RCTL_RW_LINK_RAW,
	};
	uint8_t *frame = malloc(size ? size : 1);
	struct rctl_rw_pkt k;
	size_t i;

	if (!frame)
		return 0;
	memcpy(frame, data, size);
	for (i = 0; i < sizeof(links) / sizeof(links[0]); i++)
		check_pkt(rctl_rw_decode(frame, size, links[i], &k), &k);
	free(frame);
	check_table(data, size);
	return 0;
}
