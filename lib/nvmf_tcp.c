// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The NVMe/TCP transport of the userspace NVMe-oF host (include/rocectl/
 * nvmf_transport.h; PDUs in lib/nvmf_tcp_wire.c). One non-blocking TCP
 * socket per NVMe queue, opened with ICReq/ICResp. A command goes out as a
 * CapsuleCmd, with its data in the capsule when it is a write that fits the
 * queue's in-capsule size (8 KiB on the admin queue as the Linux host uses,
 * IOCCSZ on I/O queues); a longer write waits for the target's R2T and goes
 * as H2CData PDUs of at most MAXH2CDATA; read data comes as C2HData. A
 * command is done at its CapsuleResp, or at a last C2HData with SUCCESS.
 * The target is believed only where it keeps to what the host asked: one
 * R2T at a time per command (ICReq's MAXR2T 0), each byte asked once, a
 * success only for data that moved; the send buffer is bounded (tx_bound()).
 *
 * The bytes to send are copied into one buffer and written by the flush (one
 * send() per batch, as one doorbell per batch on RDMA) and by every poll
 * while the socket was full; what arrives is read in large pieces into a
 * receive buffer and parsed from there, data copied into the command's slot.
 * No call blocks: the set-up waits in poll() with a deadline, the I/O path
 * reports what it found and the caller bounds the wait.
 *
 * Per 4k read at QD1 (lab, perf and the veth counters): one send() and one
 * recv() with data, as many empty recv()s as the caller polls; one segment
 * each way plus the initiator's pure ACK of the 4 KiB, as for the kernel
 * initiator. SQ flow control stays on (Connect CATTR 0): with it off,
 * nvmet-tcp ends a read with a SUCCESS C2HData and no CapsuleResp, but pushes
 * the last data page without MSG_EOR (nvmet_try_send_data() in
 * drivers/nvme/target/tcp.c), and QD1 reads were slower in the lab.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "rocectl/clock.h"
#include "rocectl/nvmf_le.h"
#include "rocectl/nvmf_tcp_wire.h"
#include "rocectl/nvmf_transport.h"

#define RX_BUF (256 * 1024)
#define TX_BUF (64 * 1024)
#define HBUF 264			/* a header we send: PDO <= 255, then padding */

enum { R_HDR, R_DATA, R_DDGST };

struct tslot {
	bool busy;
	bool write;			/* host-to-controller data */
	uint16_t gen;
	uint16_t status;
	uint32_t dw0, dw1;
	uint32_t len, c2h_done;		/* data length, C2HData bytes so far */
	uint32_t h2c_done;		/* write data queued: in the capsule or asked by R2Ts */
	uint64_t r2t_sent_at;		/* tx_total when its R2T's data is all sent */
	uint64_t t_submit, t_done;
};

struct tq {
	struct rctl_nvmf_q b;		/* first: the controller's view */
	int fd;
	unsigned int cid_bits;
	bool hdgst, ddgst;
	uint8_t cpda;
	uint32_t maxh2c;
	uint8_t *data;			/* limit x buf_size */
	struct tslot *slots;
	uint16_t *free, nfree;
	uint16_t *stamp, nstamp;	/* queued since the last flush: t_submit */
	uint8_t *tx;
	size_t txcap, txhead, txtail;
	size_t txmax;			/* the most ever buffered: every slot's data once */
	uint64_t tx_sent;		/* bytes ever sent */
	uint8_t *rx;
	size_t rxhead, rxtail;
	int rstate;			/* receive state of the PDU being parsed */
	struct rctl_tcp_hdr h;
	struct rctl_tcp_data dh;	/* of the C2HData being received */
	uint32_t left;			/* its data still to come */
	uint32_t crc;			/* its running data digest */
	int rslot;
};

static inline struct tq *tq_of(struct rctl_nvmf_q *q)
{
	return (struct tq *)q;
}

static const char *qname(const struct tq *q, char *buf, size_t len)
{
	return rctl_nvmf_qname(&q->b, buf, len);
}

static int q_fail(struct tq *q, struct rctl_err *e, int errnum, const char *what)
{
	char qn[32];

	q->b.dead = true;
	return rctl_err_plain(e, errnum, "%s: %s", qname(q, qn, sizeof(qn)), what);
}

/* ---- sending ------------------------------------------------------------ */

/* Room for n more bytes at txtail. */
static uint8_t *tx_reserve(struct tq *q, size_t n)
{
	size_t used = q->txtail - q->txhead, cap;
	uint8_t *nb;

	if (q->txtail + n <= q->txcap)
		return q->tx + q->txtail;
	if (q->txhead) {
		memmove(q->tx, q->tx + q->txhead, used);
		q->txhead = 0;
		q->txtail = used;
	}
	if (used + n <= q->txcap)
		return q->tx + q->txtail;
	if (q->txmax && used + n > q->txmax) {
		errno = ENOBUFS;
		return NULL;
	}
	for (cap = q->txcap ? q->txcap : TX_BUF; cap < used + n; cap *= 2)
		;
	nb = realloc(q->tx, cap);
	if (!nb) {
		errno = ENOMEM;
		return NULL;
	}
	q->tx = nb;
	q->txcap = cap;
	return q->tx + q->txtail;
}

/* tx_reserve() failed: out of memory, or a target that does not read. */
static int tx_fail(struct tq *q, struct rctl_err *e, const char *what)
{
	char qn[32];
	int err = errno;

	q->b.dead = true;
	if (err == ENOBUFS)
		return rctl_err_plain(e, ENOBUFS, "%s: cannot queue %s: %zu bytes wait for a "
				    "target that does not read them", qname(q, qn, sizeof(qn)),
				    what, q->txtail - q->txhead);
	return rctl_err_strerror(e, ENOMEM, "%s: cannot queue %s", qname(q, qn, sizeof(qn)),
				 what);
}

/* Write what is buffered, as far as the socket takes it now. */
static int tx_push(struct tq *q, struct rctl_err *e)
{
	ssize_t n;
	char msg[96];

	while (q->txhead < q->txtail) {
		n = send(q->fd, q->tx + q->txhead, q->txtail - q->txhead,
			 MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (n < 0) {
			snprintf(msg, sizeof(msg), "cannot send to the target: %s", strerror(errno));
			return q_fail(q, e, errno == EPIPE ? ECONNRESET : errno, msg);
		}
		q->txhead += (size_t)n;
		q->tx_sent += (uint64_t)n;
	}
	q->txhead = q->txtail = 0;
	return 0;
}

/* Append len bytes of data with its digest when data digests are on. */
static int tx_data(struct tq *q, const uint8_t *data, uint32_t len)
{
	uint8_t *p = tx_reserve(q, len + RCTL_TCP_DIGEST);

	if (!p)
		return -ENOMEM;
	memcpy(p, data, len);
	q->txtail += len;
	if (q->ddgst) {
		rctl_le_put32(p + len, rctl_crc32c(data, len));
		q->txtail += RCTL_TCP_DIGEST;
	}
	return 0;
}

static void *tcp_buf(struct rctl_nvmf_q *bq, int slot)
{
	return tq_of(bq)->data + (size_t)slot * bq->buf_size;
}

static int tcp_alloc(struct rctl_nvmf_q *bq)
{
	struct tq *q = tq_of(bq);

	if (!q->nfree)
		return -EBUSY;
	return q->free[--q->nfree];
}

/* Fabrics commands count as writes (nvme_is_write(): opcode bit 0). */
static bool host_to_ctrl(const struct rctl_nvme_cmd *cmd)
{
	return cmd->opc & 1;
}

static int tcp_queue(struct rctl_nvmf_q *bq, int slot, struct rctl_nvme_cmd *cmd,
		     uint32_t len, struct rctl_err *e)
{
	struct tq *q = tq_of(bq);
	struct tslot *s = &q->slots[slot];
	bool in_capsule = len && host_to_ctrl(cmd) && len <= q->b.inline_max;
	uint32_t pdo;
	uint8_t *p = tx_reserve(q, HBUF);

	if (!p)
		return tx_fail(q, e, "a command");
	s->gen = rctl_nvme_gen_next(s->gen, q->cid_bits);
	cmd->cid = rctl_nvme_cid((uint16_t)slot, s->gen, q->cid_bits);
	memset(&cmd->sgl, 0, sizeof(cmd->sgl));
	cmd->sgl.kind = in_capsule ? RCTL_SGL_OFFSET : RCTL_SGL_TRANSPORT;
	cmd->sgl.len = len;
	rctl_nvme_sqe_encode(p + RCTL_TCP_HDR_SIZE, cmd);
	pdo = rctl_tcp_cmd_encode(p, q->hdgst, q->ddgst, q->cpda, in_capsule ? len : 0);
	q->txtail += pdo;
	if (in_capsule && tx_data(q, tcp_buf(bq, slot), len))
		return tx_fail(q, e, "a command");
	*s = (struct tslot){ .busy = true, .write = host_to_ctrl(cmd), .gen = s->gen,
			     .len = len, .h2c_done = in_capsule ? len : 0 };
	q->stamp[q->nstamp++] = (uint16_t)slot;
	q->b.outstanding++;
	return 0;
}

/* The commands queued since the last flush leave now: their submit time. */
static void stamp(struct tq *q)
{
	uint64_t now;
	uint16_t i;

	if (q->nstamp) {
		now = rctl_fast_ns();
		for (i = 0; i < q->nstamp; i++)
			q->slots[q->stamp[i]].t_submit = now;
		q->nstamp = 0;
	}
}

static int tcp_flush(struct rctl_nvmf_q *bq, struct rctl_err *e)
{
	struct tq *q = tq_of(bq);

	stamp(q);
	return tx_push(q, e);
}

/* ---- receiving ----------------------------------------------------------- */

__attribute__((format(printf, 3, 4)))
static int proto_err(struct tq *q, struct rctl_err *e, const char *fmt, ...)
{
	va_list ap;
	char what[160];

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return q_fail(q, e, EPROTO, what);
}

/* The busy slot of a CID, or -1. */
static int slot_of(struct tq *q, uint16_t cid)
{
	uint16_t n = rctl_nvme_cid_slot(cid, q->cid_bits);

	if (n >= q->b.limit || !q->slots[n].busy ||
	    q->slots[n].gen != rctl_nvme_cid_gen(cid, q->cid_bits))
		return -1;
	return n;
}

static void complete(struct tq *q, int slot, uint64_t now, struct rctl_nvmf_done *d)
{
	struct tslot *s = &q->slots[slot];

	*d = (struct rctl_nvmf_done){ .slot = slot, .status = s->status, .dw0 = s->dw0,
				      .dw1 = s->dw1, .t_submit_ns = s->t_submit,
				      .t_done_ns = now };
	s->busy = false;
	q->free[q->nfree++] = (uint16_t)slot;
	q->b.outstanding--;
}

/*
 * A command may succeed only once its data moved: a read's C2HData covered
 * its length, a write's data went in the capsule or was asked for by R2Ts.
 * (A failed one may end anywhere: the status says why.)
 */
static bool rsp_covers(const struct tslot *s)
{
	return (s->write ? s->h2c_done : s->c2h_done) == s->len;
}

static int on_rsp(struct tq *q, const uint8_t *b, uint64_t now, struct rctl_nvmf_done *d,
		  struct rctl_err *e)
{
	struct rctl_nvme_cqe cqe;
	int slot;

	rctl_nvme_cqe_decode(b + RCTL_TCP_HDR_SIZE, &cqe);
	slot = slot_of(q, cqe.cid);
	if (slot < 0)
		return proto_err(q, e, "completion with unknown CID %#x", cqe.cid);
	if (!cqe.status && !rsp_covers(&q->slots[slot]))
		return proto_err(q, e, "success for CID %#x after %u of its %u bytes of %s",
				 cqe.cid, q->slots[slot].write ? q->slots[slot].h2c_done :
				 q->slots[slot].c2h_done, q->slots[slot].len,
				 q->slots[slot].write ? "write data asked" : "read data");
	q->slots[slot].status = cqe.status;
	q->slots[slot].dw0 = cqe.dw0;
	q->slots[slot].dw1 = cqe.dw1;
	complete(q, slot, now, d);
	return 1;
}

/* R2T: send the asked range as H2CData PDUs of at most MAXH2CDATA. */
static int on_r2t(struct tq *q, const uint8_t *b, struct rctl_err *e)
{
	struct rctl_tcp_data r, h;
	struct tslot *s;
	uint32_t off, pdo;
	uint8_t *p;
	int slot;

	rctl_tcp_data_decode(b, &r);
	slot = slot_of(q, r.cccid);
	if (slot < 0 || !q->slots[slot].write)
		return proto_err(q, e, "R2T for CID %#x, no write outstanding", r.cccid);
	s = &q->slots[slot];
	/* ICReq's MAXR2T 0: one R2T at a time, its data all sent before the next */
	if (q->tx_sent < s->r2t_sent_at)
		return proto_err(q, e, "R2T for CID %#x while its last R2T is outstanding "
				 "(MAXR2T 1)", r.cccid);
	/* each byte asked once, in order (nvme_tcp_handle_r2t() of the Linux host) */
	if (!r.length || r.offset != s->h2c_done || r.offset > s->len ||
	    r.length > s->len - r.offset)
		return proto_err(q, e, "R2T for bytes %u-%u of CID %#x: %u of its %u bytes "
				 "were asked before", r.offset, r.offset + r.length, r.cccid,
				 s->h2c_done, s->len);
	for (off = 0; off < r.length; off += h.length) {
		h = (struct rctl_tcp_data){ .cccid = r.cccid, .ttag = r.ttag,
					    .offset = r.offset + off };
		h.length = r.length - off < q->maxh2c ? r.length - off : q->maxh2c;
		p = tx_reserve(q, HBUF);
		if (!p)
			return tx_fail(q, e, "write data");
		pdo = rctl_tcp_h2c_encode(p, q->hdgst, q->ddgst, q->cpda, &h,
					  off + h.length == r.length);
		q->txtail += pdo;
		if (tx_data(q, (uint8_t *)tcp_buf(&q->b, slot) + h.offset, h.length))
			return tx_fail(q, e, "write data");
	}
	s->h2c_done += r.length;
	s->r2t_sent_at = q->tx_sent + (q->txtail - q->txhead);
	return 0;
}

static int on_c2h(struct tq *q, const uint8_t *b, uint32_t data_len, struct rctl_err *e)
{
	struct tslot *s;
	int slot;

	rctl_tcp_data_decode(b, &q->dh);
	slot = slot_of(q, q->dh.cccid);
	if (slot < 0 || q->slots[slot].write)
		return proto_err(q, e, "C2HData for CID %#x, no read outstanding", q->dh.cccid);
	s = &q->slots[slot];
	if (q->dh.length != data_len || q->dh.offset != s->c2h_done ||
	    q->dh.length > s->len - s->c2h_done)
		return proto_err(q, e, "C2HData out of order or beyond the command's %u bytes",
				 s->len);
	q->rslot = slot;
	q->left = data_len;
	q->crc = 0xffffffffu;
	q->rstate = R_DATA;
	return 0;
}

static int on_term(struct tq *q, const uint8_t *b, struct rctl_err *e)
{
	char what[128];
	uint16_t fes = rctl_tcp_term_fes(b);

	snprintf(what, sizeof(what), "the target terminated the connection: %s (fes %#x)",
		 rctl_tcp_fes_name(fes), fes);
	return q_fail(q, e, ECONNRESET, what);
}

/* A whole header (hdr_len bytes at b): check its digest, act on it. */
static int on_header(struct tq *q, const uint8_t *b, uint32_t data_len, uint64_t now,
		     struct rctl_nvmf_done *d, struct rctl_err *e)
{
	if ((q->h.flags & RCTL_TCP_F_HDGST) && !rctl_tcp_hdgst_ok(b, q->h.hlen))
		return proto_err(q, e, "header digest error on a PDU of type %#x", q->h.type);
	switch (q->h.type) {
	case RCTL_TCP_RSP:
		return on_rsp(q, b, now, d, e);
	case RCTL_TCP_R2T:
		return on_r2t(q, b, e);
	case RCTL_TCP_C2H_DATA:
		return on_c2h(q, b, data_len, e);
	case RCTL_TCP_C2H_TERM:
		return on_term(q, b, e);
	}
	return proto_err(q, e, "unexpected PDU type %#x", q->h.type);
}

/* All data of a C2HData is in: a last one with SUCCESS completes its command. */
static int c2h_end(struct tq *q, uint64_t now, struct rctl_nvmf_done *d,
		   struct rctl_err *e)
{
	struct tslot *s = &q->slots[q->rslot];

	q->rstate = R_HDR;
	s->c2h_done += q->dh.length;
	if (!(q->h.flags & RCTL_TCP_F_DATA_SUCCESS))
		return 2;
	if (s->c2h_done != s->len)
		return proto_err(q, e, "C2HData SUCCESS before all %u bytes", s->len);
	s->status = 0;
	s->dw0 = s->dw1 = 0;
	complete(q, q->rslot, now, d);
	return 1;
}

/* The data of the C2HData being received, as far as it is here. */
static int rx_data(struct tq *q, uint64_t now, struct rctl_nvmf_done *d,
		   struct rctl_err *e)
{
	size_t have = q->rxtail - q->rxhead;
	uint32_t n = have < q->left ? (uint32_t)have : q->left;
	uint8_t *dst = (uint8_t *)tcp_buf(&q->b, q->rslot) + q->dh.offset +
		       (q->dh.length - q->left);

	memcpy(dst, q->rx + q->rxhead, n);
	if (q->ddgst)
		q->crc = rctl_crc32c_update(q->crc, dst, n);
	q->rxhead += n;
	q->left -= n;
	if (q->left)
		return 2;
	if (q->ddgst) {
		q->rstate = R_DDGST;
		return 2;
	}
	return c2h_end(q, now, d, e);
}

static int rx_ddgst(struct tq *q, uint64_t now, struct rctl_nvmf_done *d,
		    struct rctl_err *e)
{
	const uint8_t *b = q->rx + q->rxhead;
	uint32_t got;

	if (q->rxtail - q->rxhead < RCTL_TCP_DIGEST)
		return 0;
	got = rctl_le_get32(b);
	q->rxhead += RCTL_TCP_DIGEST;
	if (got != ~q->crc)
		return proto_err(q, e, "data digest error on CID %#x", q->dh.cccid);
	return c2h_end(q, now, d, e);
}

/*
 * Parse what is buffered, at most one completion: 0 when more bytes are
 * needed; 1: a report in *d; 2: progress without one; <0: error.
 */
static int rx_step(struct tq *q, uint64_t now, struct rctl_nvmf_done *d,
		   struct rctl_err *e)
{
	size_t have = q->rxtail - q->rxhead;
	uint32_t hdr_len, data_len;
	const char *why;
	char what[160];
	int ret;

	if (!have)
		return 0;
	if (q->rstate == R_DATA)
		return rx_data(q, now, d, e);
	if (q->rstate == R_DDGST)
		return rx_ddgst(q, now, d, e);
	if (have < RCTL_TCP_HDR_SIZE)
		return 0;
	rctl_tcp_hdr_decode(q->rx + q->rxhead, &q->h);
	why = rctl_tcp_hdr_check(&q->h, q->hdgst, q->ddgst, &hdr_len, &data_len);
	if (why) {
		snprintf(what, sizeof(what), "bad %s PDU from the target: %s",
			 rctl_tcp_pdu_name(q->h.type), why);
		return q_fail(q, e, EPROTO, what);
	}
	if (have < hdr_len)
		return 0;
	q->rxhead += hdr_len;
	ret = on_header(q, q->rx + q->rxhead - hdr_len, data_len, now, d, e);
	return ret < 0 ? ret : ret ? 1 : 2;
}

/*
 * Parse what is buffered, up to max completions into d: their number, or
 * <0 on a protocol error (the queue is then dead). The receive state
 * machine, on the buffer only: rctl_nvmf_tcp_rx() feeds it without a socket.
 */
static int rx_parse(struct tq *q, uint64_t now, struct rctl_nvmf_done *d, int max,
		    struct rctl_err *e)
{
	int done = 0, ret;

	while (done < max) {
		ret = rx_step(q, now, &d[done], e);
		if (ret < 0)
			return ret;
		if (!ret)
			break;
		if (ret == 1)
			done++;
	}
	return done;
}

/* Room at the end of the receive buffer, moving what is left to its start. */
static size_t rx_room(struct tq *q)
{
	if (q->rxhead == q->rxtail) {
		q->rxhead = q->rxtail = 0;
	} else if (q->rxhead && q->rxtail > RX_BUF / 2) {
		memmove(q->rx, q->rx + q->rxhead, q->rxtail - q->rxhead);
		q->rxtail -= q->rxhead;
		q->rxhead = 0;
	}
	return RX_BUF - q->rxtail;
}

/* Read what the socket has into the receive buffer. 0 or -errno (closed: -ECONNRESET). */
static int rx_fill(struct tq *q, struct rctl_err *e)
{
	size_t room = rx_room(q);
	ssize_t n;
	char what[96];

	if (!room)
		return 0;	/* full of a PDU being parsed: room comes as it is */
	n = recv(q->fd, q->rx + q->rxtail, room, MSG_DONTWAIT);
	if (n > 0) {
		q->rxtail += (size_t)n;
		return 0;
	}
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return 0;
	if (!n)
		return q_fail(q, e, ECONNRESET, "the target closed the connection");
	snprintf(what, sizeof(what), "cannot receive from the target: %s", strerror(errno));
	return q_fail(q, e, errno, what);
}

static int tcp_poll(struct rctl_nvmf_q *bq, struct rctl_nvmf_done *d, int max,
		    struct rctl_err *e)
{
	struct tq *q = tq_of(bq);
	int done = 0, ret, reads;

	if (q->txtail > q->txhead && tx_push(q, e))
		return -e->errnum;
	/* what is buffered, then one read from the socket and what it brought */
	for (reads = 0; done < max; reads++) {
		ret = rx_parse(q, q->rxtail > q->rxhead ? rctl_fast_ns() : 0, d + done,
			       max - done, e);
		if (ret < 0)
			return ret;
		done += ret;
		if (done == max || reads)
			break;
		if (rx_fill(q, e))
			return -e->errnum;
	}
	if (q->txtail > q->txhead && tx_push(q, e))	/* H2CData for R2Ts just read */
		return -e->errnum;
	return done;
}

static int tcp_wait_fd(struct rctl_nvmf_q *bq, short *events)
{
	struct tq *q = tq_of(bq);

	*events = POLLIN | (q->txtail > q->txhead ? POLLOUT : 0);
	return q->fd;
}

/* ---- connection set-up ----------------------------------------------------- */

/* Wait for events on the socket until deadline (rctl_clock_ns()). */
static int wait_sock(struct tq *q, short events, uint64_t deadline)
{
	struct pollfd p = { .fd = q->fd, .events = events };
	uint64_t now = rctl_clock_ns();
	int ret;

	if (now >= deadline)
		return -ETIMEDOUT;
	ret = poll(&p, 1, (int)((deadline - now + 999999) / 1000000));
	if (ret < 0)
		return errno == EINTR ? 0 : -errno;
	return ret ? 0 : -ETIMEDOUT;
}

static int sock_connect(struct tq *q, const struct addrinfo *ai, uint64_t deadline)
{
	int one = 1, err = 0, ret;
	socklen_t len = sizeof(err);

	q->fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
		       ai->ai_protocol);
	if (q->fd < 0)
		return -errno;
	setsockopt(q->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (q->b.ctrl->o.tos >= 0 && ai->ai_family == AF_INET &&
	    setsockopt(q->fd, IPPROTO_IP, IP_TOS, &q->b.ctrl->o.tos, sizeof(int)))
		return -errno;
	if (q->b.ctrl->o.tos >= 0 && ai->ai_family == AF_INET6 &&
	    setsockopt(q->fd, IPPROTO_IPV6, IPV6_TCLASS, &q->b.ctrl->o.tos, sizeof(int)))
		return -errno;
	if (!connect(q->fd, ai->ai_addr, ai->ai_addrlen))
		return 0;
	if (errno != EINPROGRESS)
		return -errno;
	ret = wait_sock(q, POLLOUT, deadline);
	if (ret)
		return ret;
	if (getsockopt(q->fd, SOL_SOCKET, SO_ERROR, &err, &len))
		return -errno;
	return -err;
}

static int tcp_connect(struct tq *q, uint64_t deadline, struct rctl_err *e)
{
	const struct rctl_nvmf_opts *o = &q->b.ctrl->o;
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res;
	char port[8], qn[32];
	int ret;

	qname(q, qn, sizeof(qn));
	snprintf(port, sizeof(port), "%u", o->port);
	if (getaddrinfo(o->traddr, port, &hints, &res))
		return rctl_err_plain(e, EINVAL, "cannot resolve target address '%s'", o->traddr);
	ret = sock_connect(q, res, deadline);
	freeaddrinfo(res);
	if (ret == -ETIMEDOUT)
		return rctl_err_plain(e, ETIMEDOUT, "%s: connect to '%s:%u': no answer within %d ms",
				    qn, o->traddr, o->port, o->timeout_ms);
	if (ret == -ECONNREFUSED)
		return rctl_err_plain(e, ECONNREFUSED, "%s: connect to '%s:%u' refused: nothing "
				    "listening on that TCP port", qn, o->traddr, o->port);
	if (ret)
		return rctl_err_strerror(e, -ret, "%s: cannot connect to '%s:%u'", qn, o->traddr,
				    o->port);
	return 0;
}

/* Exactly len bytes before deadline. */
static int recv_all(struct tq *q, uint8_t *b, size_t len, uint64_t deadline)
{
	size_t got = 0;
	ssize_t n;
	int ret;

	while (got < len) {
		n = recv(q->fd, b + got, len - got, MSG_DONTWAIT);
		if (n > 0) {
			got += (size_t)n;
			continue;
		}
		if (!n)
			return -ECONNRESET;
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
			return -errno;
		ret = wait_sock(q, POLLIN, deadline);
		if (ret)
			return ret;
	}
	return 0;
}

static int ic_fail(struct tq *q, struct rctl_err *e, int errnum, const char *why)
{
	const struct rctl_nvmf_opts *o = &q->b.ctrl->o;
	char qn[32];

	return rctl_err_plain(e, errnum, "%s: connection set-up (ICReq) with '%s:%u' failed: %s",
			    qname(q, qn, sizeof(qn)), o->traddr, o->port, why);
}

/* ICReq, ICResp: the digests and data alignment of the connection. */
static int tcp_icreq(struct tq *q, uint64_t deadline, struct rctl_err *e)
{
	const struct rctl_nvmf_opts *o = &q->b.ctrl->o;
	uint8_t b[RCTL_TCP_IC_SIZE], *p = tx_reserve(q, RCTL_TCP_IC_SIZE);
	struct rctl_tcp_icresp r;
	int ret;

	if (!p)
		return rctl_err_strerror(e, ENOMEM, "cannot allocate a send buffer");
	rctl_tcp_icreq_encode(p, o->hdgst, o->ddgst);
	q->txtail += RCTL_TCP_IC_SIZE;
	while (q->txtail > q->txhead) {
		if (tx_push(q, e))
			return -e->errnum;
		ret = q->txtail > q->txhead ? wait_sock(q, POLLOUT, deadline) : 0;
		if (ret)
			return ic_fail(q, e, -ret, "cannot send");
	}
	ret = recv_all(q, b, sizeof(b), deadline);
	if (ret == -ETIMEDOUT)
		return ic_fail(q, e, ETIMEDOUT, "no ICResp in time (is this an NVMe/TCP port?)");
	if (ret == -ECONNRESET)
		return ic_fail(q, e, ECONNRESET, "the target closed the connection");
	if (ret)
		return ic_fail(q, e, -ret, strerror(-ret));
	if (rctl_tcp_icresp_decode(b, &r))
		return ic_fail(q, e, EPROTO, "the answer is no valid ICResp");
	if (r.hdgst != o->hdgst || r.ddgst != o->ddgst)
		return ic_fail(q, e, ENOTSUP, "the target did not agree to the digests asked");
	q->hdgst = r.hdgst;
	q->ddgst = r.ddgst;
	q->cpda = r.cpda;
	q->maxh2c = r.maxh2cdata;
	if (!q->b.qid) {
		q->b.ctrl->info.hdgst = r.hdgst;
		q->b.ctrl->info.ddgst = r.ddgst;
		q->b.ctrl->info.maxh2cdata = r.maxh2cdata;
	}
	return 0;
}

static void tcp_q_free(struct rctl_nvmf_q *bq)
{
	struct tq *q = tq_of(bq);

	if (!q)
		return;
	if (q->fd >= 0)
		close(q->fd);
	free(q->data);
	free(q->slots);
	free(q->free);
	free(q->stamp);
	free(q->tx);
	free(q->rx);
	free(q);
}

/*
 * What the send buffer may ever hold: each slot's command and its data once
 * (each byte of a write is asked for once), cut in H2CData PDUs of at least
 * MAXH2CDATA's floor, each with its header and digests. More is a target
 * that asks again what it had, or does not read: an error, not memory.
 */
static size_t tx_bound(uint16_t limit, uint32_t buf_size)
{
	size_t pdu = HBUF + 2 * RCTL_TCP_DIGEST;

	return TX_BUF + (size_t)limit * (pdu + buf_size +
					 (buf_size / RCTL_TCP_MAXH2C_MIN + 1) * pdu);
}

static int q_alloc(struct rctl_nvmf_ctrl *c, const struct rctl_nvmf_qparams *p,
		   struct tq **out, struct rctl_err *e)
{
	struct tq *q = calloc(1, sizeof(*q));
	uint16_t i;

	*out = q;
	if (!q)
		return rctl_err_strerror(e, ENOMEM, "cannot allocate queue %u", p->qid);
	q->fd = -1;
	q->b = (struct rctl_nvmf_q){ .tr = &rctl_nvmf_tcp, .ctrl = c, .qid = p->qid,
				     .depth = p->depth, .limit = p->limit,
				     .buf_size = p->buf_size, .inline_max = p->inline_max };
	q->cid_bits = rctl_nvme_cid_bits(p->limit);
	q->txmax = tx_bound(p->limit, p->buf_size);
	q->data = calloc(p->limit, p->buf_size);
	q->slots = calloc(p->limit, sizeof(*q->slots));
	q->free = calloc(p->limit, sizeof(*q->free));
	q->stamp = calloc(p->limit, sizeof(*q->stamp));
	q->rx = malloc(RX_BUF);
	if (!q->data || !q->slots || !q->free || !q->stamp || !q->rx ||
	    !tx_reserve(q, TX_BUF))
		return rctl_err_strerror(e, ENOMEM, "cannot allocate queue %u", p->qid);
	for (i = 0; i < p->limit; i++)
		q->free[q->nfree++] = p->limit - 1 - i;
	return 0;
}

static int tcp_q_open(struct rctl_nvmf_ctrl *c, const struct rctl_nvmf_qparams *p,
		      struct rctl_nvmf_q **out, struct rctl_err *e)
{
	uint64_t deadline = rctl_clock_ns() + (uint64_t)c->o.timeout_ms * 1000000;
	struct tq *q;
	int ret;

	*out = NULL;
	ret = q_alloc(c, p, &q, e);
	if (!ret)
		ret = tcp_connect(q, deadline, e);
	if (!ret)
		ret = tcp_icreq(q, deadline, e);
	if (ret) {
		tcp_q_free(q ? &q->b : NULL);
		return ret;
	}
	*out = &q->b;
	return 0;
}

/*
 * In-capsule data: 8 KiB on the admin queue (NVME_TCP_ADMIN_CCSZ, what the
 * Linux host uses before it knows IOCCSZ), IOCCSZ on I/O queues when ICDOFF
 * is 0.
 */
static uint32_t tcp_inline_max(const struct rctl_nvmf_ctrl *c, uint16_t qid)
{
	if (!qid)
		return RCTL_TCP_ADMIN_CCSZ;
	if (c->info.id.icdoff)
		return 0;
	return rctl_nvme_inline_max(c->info.id.ioccsz);
}

/* ---- without a socket: the receive state machine for tests and fuzzing ---- */

int rctl_nvmf_tcp_q_detached(const struct rctl_nvmf_qparams *p, bool hdgst, bool ddgst,
			     uint32_t maxh2c, struct rctl_nvmf_q **out, struct rctl_err *e)
{
	struct tq *q;
	int ret = q_alloc(NULL, p, &q, e);

	*out = NULL;
	if (ret) {
		tcp_q_free(q ? &q->b : NULL);
		return ret;
	}
	q->hdgst = hdgst;
	q->ddgst = ddgst;
	q->maxh2c = maxh2c < RCTL_TCP_MAXH2C_MIN ? RCTL_TCP_MAXH2C_MIN : maxh2c;
	*out = &q->b;
	return 0;
}

int rctl_nvmf_tcp_rx(struct rctl_nvmf_q *bq, const uint8_t *b, size_t len, size_t *taken,
		     uint64_t now, struct rctl_nvmf_done *d, int max, struct rctl_err *e)
{
	struct tq *q = tq_of(bq);
	size_t room = rx_room(q);

	*taken = len < room ? len : room;
	memcpy(q->rx + q->rxtail, b, *taken);
	q->rxtail += *taken;
	return rx_parse(q, now, d, max, e);
}

size_t rctl_nvmf_tcp_tx_sent(struct rctl_nvmf_q *bq, size_t n, size_t *bound)
{
	struct tq *q = tq_of(bq);
	size_t pending = q->txtail - q->txhead;

	stamp(q);
	n = n < pending ? n : pending;
	q->txhead += n;
	q->tx_sent += n;
	if (q->txhead == q->txtail)
		q->txhead = q->txtail = 0;
	*bound = q->txmax;
	return q->txtail - q->txhead;
}

const struct rctl_nvmf_transport rctl_nvmf_tcp = {
	.name = "tcp",
	.inline_max = tcp_inline_max,
	.q_open = tcp_q_open,
	.q_free = tcp_q_free,
	.alloc = tcp_alloc,
	.buf = tcp_buf,
	.queue = tcp_queue,
	.flush = tcp_flush,
	.poll = tcp_poll,
	.wait_fd = tcp_wait_fd,
};
