// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The NVMe/TCP host's receive state machine (lib/nvmf_tcp.c, through
 * rctl_nvmf_tcp_q_detached()): commands outstanding on a queue without a
 * socket, and the target's bytes arriving in any order, split at any byte,
 * while the host's sends drain at any pace. The harness keeps reissuing
 * commands into the slots that complete, as the bench does.
 *
 * Input: byte 0 the queue (bit 0 header digest, bit 1 data digest, bits 2-3
 * slots - 1, bit 4 in-capsule writes up to 4 KiB), byte 1 MAXH2CDATA
 * (4096 << (b & 3)), bytes 2-9 the commands (bit 7 write, bits 0-2 the
 * length in 512-byte blocks - 1), bytes 10-13 the seed of the cuts and the
 * sends; then the target's bytes.
 *
 * Invariants: a completion names a slot that has a command outstanding
 * (none completes twice) and the queue's count agrees; nothing is written in
 * a slot's buffer but a read's own data, within its length; the send buffer
 * stays within its bound; an error leaves the queue dead, with its message.
 */
#include "fuzz.h"
#include "rocectl/nvmf_transport.h"

#define SLOTS_MAX 4
#define BUF 4096
#define HDR 14
#define CANARY 0xa5

struct harness {
	struct rctl_nvmf_q *q;
	bool busy[SLOTS_MAX], write[SLOTS_MAX];
	uint32_t len[SLOTS_MAX];
	const uint8_t *cmds;
	unsigned int next_cmd, busy_n;
	uint32_t rng;
};

static uint32_t next_rand(struct harness *h)
{
	h->rng ^= h->rng << 13;
	h->rng ^= h->rng >> 17;
	h->rng ^= h->rng << 5;
	return h->rng;
}

static uint8_t pattern(int slot, uint32_t i)
{
	return (uint8_t)(slot * 31 + i * 7 + 1);
}

/* What a slot's byte i must hold: only an outstanding read may change [0, len). */
static bool byte_ok(const struct harness *h, int slot, uint32_t i, uint8_t v)
{
	if (!h->busy[slot] || i >= h->len[slot])
		return v == CANARY;
	return !h->write[slot] || v == pattern(slot, i);
}

static void check_bufs(const struct harness *h)
{
	int s, n = rctl_nvmf_q_limit(h->q);
	const uint8_t *b;
	uint32_t i;

	for (s = 0; s < n; s++) {
		b = rctl_nvmf_q_buf(h->q, s);
		for (i = 0; i < BUF; i++)
			if (!byte_ok(h, s, i, b[i]))
				abort();
	}
}

static void issue(struct harness *h)
{
	uint8_t c = h->cmds[h->next_cmd++ % 8];
	struct rctl_nvme_cmd cmd;
	struct rctl_err e = { 0 };
	int slot = rctl_nvmf_q_alloc(h->q);
	uint8_t *b;
	uint32_t i;

	if (slot < 0)
		return;
	if (slot >= SLOTS_MAX || h->busy[slot])
		abort();
	h->write[slot] = c & 0x80;
	h->len[slot] = ((c & 7) + 1) * 512;
	b = rctl_nvmf_q_buf(h->q, slot);
	for (i = 0; i < h->len[slot]; i++)
		b[i] = h->write[slot] ? pattern(slot, i) : 0;
	rctl_nvme_rw_cmd(&cmd, h->write[slot], 1, 0, h->len[slot] / 512);
	if (rctl_nvmf_q_queue(h->q, slot, &cmd, h->len[slot], &e))
		abort();	/* a fresh slot on a live queue is always taken */
	h->busy[slot] = true;
	h->busy_n++;
}

static void completed(struct harness *h, const struct rctl_nvmf_done *d, int n)
{
	uint8_t *b;
	int i;

	for (i = 0; i < n; i++) {
		if (d[i].slot < 0 || d[i].slot >= SLOTS_MAX || !h->busy[d[i].slot])
			abort();	/* completed twice, or never issued */
		h->busy[d[i].slot] = false;
		h->busy_n--;
		b = rctl_nvmf_q_buf(h->q, d[i].slot);
		memset(b, CANARY, BUF);
	}
	if (rctl_nvmf_q_outstanding(h->q) != h->busy_n)
		abort();
}

/* Feed the stream in cuts; drain the sends; reissue. */
static void run(struct harness *h, const uint8_t *p, size_t n)
{
	struct rctl_nvmf_done d[SLOTS_MAX + 1];
	struct rctl_err e = { 0 };
	size_t cut, taken, pending, bound;
	int got;

	while (n) {
		cut = next_rand(h) % 4 ? 1 + next_rand(h) % 48 : 1 + next_rand(h) % 9000;
		cut = cut < n ? cut : n;
		got = rctl_nvmf_tcp_rx(h->q, p, cut, &taken, 1, d, SLOTS_MAX + 1, &e);
		if (got > SLOTS_MAX)
			abort();
		if (got > 0)
			completed(h, d, got);
		check_bufs(h);
		pending = rctl_nvmf_tcp_tx_sent(h->q, next_rand(h) % 3 ? SIZE_MAX :
						next_rand(h) % 512, &bound);
		if (pending > bound)
			abort();
		if (got < 0) {
			if (!h->q->dead || !e.msg[0])
				abort();
			return;
		}
		if (!taken)
			return;	/* receive buffer full of a PDU that never ends */
		p += taken;
		n -= taken;
		while (h->busy_n < rctl_nvmf_q_limit(h->q))
			issue(h);	/* flushed by the next turn's rctl_nvmf_tcp_tx_sent() */
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct harness h = { 0 };
	struct rctl_err e = { 0 };
	struct rctl_nvmf_qparams p = { .qid = 1, .buf_size = BUF, .cntlid = 1 };
	int s;

	if (size < HDR)
		return 0;
	p.limit = (uint16_t)(((data[0] >> 2) & 3) + 1);
	p.depth = p.limit;
	p.inline_max = data[0] & 0x10 ? 4096 : 0;
	if (rctl_nvmf_tcp_q_detached(&p, data[0] & 1, data[0] & 2, 4096u << (data[1] & 3),
				     &h.q, &e))
		return 0;
	for (s = 0; s < p.limit; s++)
		memset(rctl_nvmf_q_buf(h.q, s), CANARY, BUF);
	h.cmds = data + 2;
	memcpy(&h.rng, data + 10, sizeof(h.rng));
	h.rng |= 1;
	while (h.busy_n < p.limit)
		issue(&h);
	rctl_nvmf_tcp_tx_sent(h.q, 0, &(size_t){ 0 });	/* the flush */
	run(&h, data + HDR, size - HDR);
	h.q->tr->q_free(h.q);
	return 0;
}
