// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The transport-neutral NVMe-oF controller of the userspace host (see
 * include/rocectl/nvmf.h): Fabrics Connect on every queue, Property Get/Set,
 * enable and shutdown, Identify, the discovery log, Set Features, keep-alive
 * and the I/O queues' creation, over any transport of
 * include/rocectl/nvmf_transport.h (RDMA: lib/nvmf_rdma.c, TCP:
 * lib/nvmf_tcp.c). The rctl_nvmf_q_*() calls of the I/O engine go straight to
 * the queue's transport.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "rocectl/clock.h"
#include "rocectl/nvmf_transport.h"

#define ADMIN_LIMIT 2			/* one command plus one Keep Alive */
#define ADMIN_BUF (64 * 1024)		/* a page of the discovery log: 64 records */

#define qname rctl_nvmf_qname

/* ---- the queue calls, answered by the queue's transport --------------- */

int rctl_nvmf_q_alloc(struct rctl_nvmf_q *q)
{
	return q->tr->alloc(q);
}

void *rctl_nvmf_q_buf(struct rctl_nvmf_q *q, int slot)
{
	return q->tr->buf(q, slot);
}

uint16_t rctl_nvmf_q_limit(const struct rctl_nvmf_q *q)
{
	return q->limit;
}

uint16_t rctl_nvmf_q_outstanding(const struct rctl_nvmf_q *q)
{
	return q->outstanding;
}

uint32_t rctl_nvmf_q_inline_max(const struct rctl_nvmf_q *q)
{
	return q->inline_max;
}

int rctl_nvmf_q_queue(struct rctl_nvmf_q *q, int slot, struct rctl_nvme_cmd *cmd,
		      uint32_t len, struct rctl_err *e)
{
	char qn[32];

	if (q->dead)
		return rctl_err_plain(e, ENOTCONN, "%s: queue is down", qname(q, qn, sizeof(qn)));
	return q->tr->queue(q, slot, cmd, len, e);
}

int rctl_nvmf_q_flush(struct rctl_nvmf_q *q, struct rctl_err *e)
{
	return q->tr->flush(q, e);
}

int rctl_nvmf_q_submit(struct rctl_nvmf_q *q, int slot, struct rctl_nvme_cmd *cmd,
		       uint32_t len, struct rctl_err *e)
{
	int ret = rctl_nvmf_q_queue(q, slot, cmd, len, e);

	return ret ? ret : rctl_nvmf_q_flush(q, e);
}

int rctl_nvmf_q_poll(struct rctl_nvmf_q *q, struct rctl_nvmf_done *d, int max,
		     struct rctl_err *e)
{
	if (q->dead)
		return rctl_err_plain(e, ENOTCONN, "queue %u is down", q->qid);
	return q->tr->poll(q, d, max, e);
}

int rctl_nvmf_arm(struct rctl_nvmf_q **qs, int n, struct rctl_err *e)
{
	int i, ret;

	for (i = 0; i < n; i++) {
		ret = qs[i]->tr->arm ? qs[i]->tr->arm(qs[i], e) : 0;
		if (ret)
			return ret;
	}
	return 0;
}

int rctl_nvmf_wait(struct rctl_nvmf_q **qs, int n, int timeout_ms, struct rctl_err *e)
{
	struct pollfd pfd[64];
	int i, ret;

	for (i = 0; i < n && i < 64; i++)
		pfd[i].fd = qs[i]->tr->wait_fd(qs[i], &pfd[i].events);
	ret = poll(pfd, (nfds_t)i, timeout_ms);
	if (ret < 0)
		return errno == EINTR ? 0 : rctl_err_strerror(e, errno, "cannot wait for completions");
	for (i = 0; i < n && i < 64; i++)
		if ((pfd[i].revents & POLLIN) && qs[i]->tr->ack)
			qs[i]->tr->ack(qs[i]);
	return 0;
}

/* ---- synchronous commands --------------------------------------------- */

/* A free slot for a synchronous command (bring-up runs one at a time). */
static int sync_slot(struct rctl_nvmf_q *q, struct rctl_err *e)
{
	int slot = rctl_nvmf_q_alloc(q);
	char qn[32];

	if (slot < 0)
		return rctl_err_plain(e, EBUSY, "%s: no free slot", qname(q, qn, sizeof(qn)));
	return slot;
}

/* Submit cmd on slot and wait for it; a failed status is the caller's to judge. */
static int exec(struct rctl_nvmf_q *q, int slot, struct rctl_nvme_cmd *cmd,
		uint32_t len, struct rctl_nvmf_done *out, struct rctl_err *e)
{
	uint64_t deadline = rctl_clock_ns() + (uint64_t)q->ctrl->o.timeout_ms * 1000000;
	struct rctl_nvmf_done d[4];
	int i, n, ret;
	char qn[32];

	ret = rctl_nvmf_q_submit(q, slot, cmd, len, e);
	if (ret)
		return ret;
	while (rctl_clock_ns() < deadline) {
		n = rctl_nvmf_q_poll(q, d, 4, e);
		if (n < 0)
			return n;
		for (i = 0; i < n; i++)
			if (d[i].slot == slot) {
				*out = d[i];
				return 0;
			}
	}
	q->dead = true;
	return rctl_err_plain(e, ETIMEDOUT, "%s: command %#x got no answer within %d ms",
			    qname(q, qn, sizeof(qn)), cmd->opc, q->ctrl->o.timeout_ms);
}

/* exec() on a fresh slot, a failed status turned into "STEP: <status phrase>". */
static int exec_ok(struct rctl_nvmf_q *q, int slot, struct rctl_nvme_cmd *cmd,
		   uint32_t len, const char *step, struct rctl_nvmf_done *d,
		   struct rctl_err *e)
{
	char st[160];
	int ret;

	if (slot < 0)
		slot = sync_slot(q, e);
	if (slot < 0)
		return slot;
	ret = exec(q, slot, cmd, len, d, e);
	if (ret)
		return ret;
	if (!d->status)
		return 0;
	rctl_nvme_status_str(st, sizeof(st), d->status, d->dw0,
			     cmd->opc == RCTL_NVME_OPC_FABRICS && cmd->fctype == RCTL_NVMF_CONNECT);
	return rctl_err_plain(e, EIO, "%s: %s", step, st);
}

/*
 * Connect Invalid Parameters pointing at SUBNQN (connect data byte 256): what
 * nvmet answers for a subsystem it does not have (nvmet_alloc_ctrl()).
 */
static bool unknown_subsystem(const struct rctl_nvmf_done *d)
{
	bool in_data;
	uint16_t ipo;

	if (RCTL_NVME_SCT(d->status) != 1 || RCTL_NVME_SC(d->status) != 0x82)
		return false;
	rctl_nvmf_connect_ipo(d->dw0, &in_data, &ipo);
	return in_data && ipo == 256;
}

/* Fabrics Connect on q; its 1024-byte data by keyed SGL on RDMA (nvmet's admin RECVs are 64 B), in the capsule on TCP. */
static int fabrics_connect(struct rctl_nvmf_q *q, uint16_t cntlid, uint32_t kato,
			   uint16_t *cntlid_out, struct rctl_err *e)
{
	struct rctl_nvmf_ctrl *c = q->ctrl;
	struct rctl_nvmf_done d;
	struct rctl_nvme_cmd cmd;
	int slot = sync_slot(q, e), ret;
	char step[400], qn[32];

	if (slot < 0)
		return slot;
	rctl_nvmf_connect_data(rctl_nvmf_q_buf(q, slot), c->hostid, cntlid, c->subnqn,
			       c->info.hostnqn);
	rctl_nvmf_connect_cmd(&cmd, q->qid, q->depth - 1, kato);
	qname(q, qn, sizeof(qn));
	if (!q->qid && !strcmp(c->subnqn, RCTL_NVMF_DISC_NQN))
		snprintf(step, sizeof(step), "%s: connect to the discovery subsystem on '%s:%u' failed",
			 qn, c->o.traddr, c->o.port);
	else
		snprintf(step, sizeof(step), "%s: connect to subsystem '%s' on '%s:%u' failed",
			 qn, c->subnqn, c->o.traddr, c->o.port);
	ret = exec_ok(q, slot, &cmd, RCTL_NVMF_CONNECT_DATA_SIZE, step, &d, e);
	if (ret == -EIO && unknown_subsystem(&d)) {
		e->errnum = ENOENT;	/* the session lists what the target has */
		ret = -ENOENT;
	}
	if (ret)
		return ret;
	*cntlid_out = (uint16_t)d.dw0;
	return 0;
}

/*
 * Open queue qid on the controller's transport, then its Fabrics Connect;
 * on failure nothing is left.
 */
static int q_open(struct rctl_nvmf_ctrl *c, const struct rctl_nvmf_qparams *p,
		  uint32_t kato, uint16_t *cntlid_out, struct rctl_nvmf_q **out,
		  struct rctl_err *e)
{
	struct rctl_nvmf_q *q;
	int ret;

	*out = NULL;
	ret = c->tr->q_open(c, p, &q, e);
	if (ret)
		return ret;
	ret = fabrics_connect(q, p->cntlid, kato, cntlid_out, e);
	if (ret) {
		c->tr->q_free(q);
		return ret;
	}
	if (c->tr->q_ready)
		c->tr->q_ready(q);
	*out = q;
	return 0;
}

/* ---- controller ------------------------------------------------------ */

static int prop_get(struct rctl_nvmf_ctrl *c, uint32_t reg, bool eight,
		    uint64_t *v, struct rctl_err *e)
{
	static const char *const names[] = { [0x00] = "cap", [0x08] = "vs",
					     [0x14] = "cc", [0x1c] = "csts" };
	struct rctl_nvme_cmd cmd;
	struct rctl_nvmf_done d;
	char step[64];
	int ret;

	rctl_nvmf_prop_get_cmd(&cmd, reg, eight);
	snprintf(step, sizeof(step), "property get %s failed", names[reg]);
	ret = exec_ok(c->admin, -1, &cmd, 0, step, &d, e);
	if (!ret)
		*v = d.dw0 | (eight ? (uint64_t)d.dw1 << 32 : 0);
	return ret;
}

static int prop_set_cc(struct rctl_nvmf_ctrl *c, uint32_t v, struct rctl_err *e)
{
	struct rctl_nvme_cmd cmd;
	struct rctl_nvmf_done d;
	char step[64];

	rctl_nvmf_prop_set_cmd(&cmd, RCTL_NVME_REG_CC, v);
	snprintf(step, sizeof(step), "property set cc %#x failed", v);
	return exec_ok(c->admin, -1, &cmd, 0, step, &d, e);
}

/*
 * Poll CSTS until (csts & mask) == want, within (CAP.TO + 1) x 500 ms but no
 * longer than wait_ms: CAP.TO is the target's word, up to 128 s.
 */
static int csts_wait(struct rctl_nvmf_ctrl *c, uint32_t mask, uint32_t want,
		     const char *what, struct rctl_err *e)
{
	uint64_t ms = rctl_nvme_ready_ms(c->info.cap, (uint64_t)c->o.wait_ms), v = 0;
	uint64_t deadline = rctl_clock_ns() + ms * 1000000;
	struct timespec pause = { 0, 1000000 };
	int ret;

	do {
		ret = prop_get(c, RCTL_NVME_REG_CSTS, false, &v, e);
		if (ret)
			return ret;
		if ((v & mask) == want)
			return 0;
		if (v & RCTL_NVME_CSTS_CFS)
			return rctl_err_plain(e, EIO, "controller fatal status (csts %#x) while %s",
					    (uint32_t)v, what);
		nanosleep(&pause, NULL);
	} while (rctl_clock_ns() < deadline);
	return rctl_err_plain(e, ETIMEDOUT, "controller not %s within %llu ms (csts %#x)",
			    what, (unsigned long long)ms, (uint32_t)v);
}

static int identify(struct rctl_nvmf_ctrl *c, uint8_t cns, uint32_t nsid,
		    const uint8_t **page, struct rctl_err *e)
{
	struct rctl_nvme_cmd cmd;
	struct rctl_nvmf_done d;
	char step[64];
	int slot = sync_slot(c->admin, e), ret;

	if (slot < 0)
		return slot;
	rctl_nvme_identify_cmd(&cmd, cns, nsid);
	snprintf(step, sizeof(step), "identify (cns %u, nsid %u) failed", cns, nsid);
	ret = exec_ok(c->admin, slot, &cmd, RCTL_NVME_IDENTIFY_SIZE, step, &d, e);
	*page = rctl_nvmf_q_buf(c->admin, slot);
	return ret;
}

static int enable(struct rctl_nvmf_ctrl *c, struct rctl_err *e)
{
	const uint8_t *page;
	uint64_t vs;
	int ret;

	ret = prop_get(c, RCTL_NVME_REG_CAP, true, &c->info.cap, e);
	if (!ret)
		ret = prop_get(c, RCTL_NVME_REG_VS, false, &vs, e);
	if (ret)
		return ret;
	c->info.vs = (uint32_t)vs;
	c->cc = rctl_nvme_cc(true, 0, 0);
	ret = prop_set_cc(c, c->cc, e);
	if (!ret)
		ret = csts_wait(c, RCTL_NVME_CSTS_RDY, RCTL_NVME_CSTS_RDY, "ready", e);
	if (ret)
		return ret;
	c->enabled = true;
	ret = identify(c, 0x01, 0, &page, e);
	if (ret)
		return ret;
	rctl_nvme_id_ctrl_decode(page, &c->info.id);
	if (c->tr->keyed_sgl && !(c->info.id.sgls & RCTL_NVME_SGLS_KEYED))
		return rctl_err_plain(e, ENOTSUP, "subsystem '%s' does not support keyed SGLs",
				    c->subnqn);
	return 0;
}

static void default_hostnqn(struct rctl_nvmf_ctrl *c)
{
	const uint8_t *u = c->hostid;

	snprintf(c->info.hostnqn, sizeof(c->info.hostnqn),
		 "nqn.2014-08.org.nvmexpress:uuid:%02x%02x%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3], u[4], u[5],
		 u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

/* A random (version 4) UUID per run: the probe is its own host. */
static int make_hostid(struct rctl_nvmf_ctrl *c, struct rctl_err *e)
{
	if (getrandom(c->hostid, sizeof(c->hostid), 0) != sizeof(c->hostid))
		return rctl_err_strerror(e, errno, "cannot make a host id");
	c->hostid[6] = (c->hostid[6] & 0x0f) | 0x40;
	c->hostid[8] = (c->hostid[8] & 0x3f) | 0x80;
	return 0;
}

static int ctrl_init(struct rctl_nvmf_ctrl *c, const struct rctl_nvmf_opts *o,
		     struct rctl_err *e)
{
	c->o = *o;
	c->tr = o->trtype == RCTL_NVMF_TR_TCP ? &rctl_nvmf_tcp : &rctl_nvmf_rdma;
	c->info.transport = c->tr->name;
	c->ka_slot = -1;
	if (strlen(o->subnqn) > RCTL_NVMF_NQN_MAX || !o->subnqn[0])
		return rctl_err_plain(e, EINVAL, "subsystem NQN '%s' is empty or longer than %d bytes",
				    o->subnqn, RCTL_NVMF_NQN_MAX);
	if (o->hostnqn && (strlen(o->hostnqn) > RCTL_NVMF_NQN_MAX || !o->hostnqn[0]))
		return rctl_err_plain(e, EINVAL, "host NQN '%s' is empty or longer than %d bytes",
				    o->hostnqn, RCTL_NVMF_NQN_MAX);
	snprintf(c->subnqn, sizeof(c->subnqn), "%s", o->subnqn);
	if (make_hostid(c, e))
		return -e->errnum;
	if (o->hostnqn)
		snprintf(c->info.hostnqn, sizeof(c->info.hostnqn), "%s", o->hostnqn);
	else
		default_hostnqn(c);
	return 0;
}

struct rctl_nvmf_opts rctl_nvmf_opts_default(const char *traddr, uint16_t port,
					     const char *subnqn)
{
	return (struct rctl_nvmf_opts){
		.traddr = traddr, .port = port, .subnqn = subnqn, .tos = -1,
		.timeout_ms = RCTL_NVMF_CM_TIMEOUT_MS, .wait_ms = RCTL_NVMF_WAIT_MS,
		.kato_ms = strcmp(subnqn, RCTL_NVMF_DISC_NQN) ? RCTL_NVMF_KATO_MS : 0,
	};
}

/*
 * Whether a failed connect is tried again, and after how long. The kernel
 * host (drivers/nvme/host/rdma.c) waits for each rdma_cm step with no timer
 * of its own (nvme_rdma_wait_for_cm(): the CM retransmits a lost REQ itself)
 * and, once a controller was live, reconnects every reconnect_delay (10 s)
 * until ctrl_loss_tmo (600 s) unless the target answered with DNR set
 * (nvme_rdma_reconnect_or_remove(), nvmf_should_reconnect() in fabrics.c).
 * A benchmark has less patience: RCTL_NVMF_CONNECT_TRIES attempts, each
 * bounded by timeout_ms per step, backing off from RETRY_DELAY_MS, doubling
 * up to RETRY_DELAY_MAX_MS. Only silence and lost connections are retried:
 * a rejection, a refusal or an NVMe status is an answer and stands.
 */
#define RETRY_DELAY_MS 250
#define RETRY_DELAY_MAX_MS 2000

bool rctl_nvmf_retry(int errnum, unsigned int attempt, uint32_t *delay_ms)
{
	uint32_t d = RETRY_DELAY_MS;
	unsigned int i;

	if (attempt >= RCTL_NVMF_CONNECT_TRIES)
		return false;
	if (errnum != ETIMEDOUT && errnum != EHOSTUNREACH && errnum != ECONNRESET &&
	    errnum != ENOTCONN)
		return false;
	for (i = 1; i < attempt && d < RETRY_DELAY_MAX_MS; i++)
		d *= 2;
	*delay_ms = d < RETRY_DELAY_MAX_MS ? d : RETRY_DELAY_MAX_MS;
	return true;
}

static void sleep_ms(uint32_t ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* After the last attempt: say how many there were, keeping the first message. */
static int tries_note(struct rctl_err *e, unsigned int tries, uint64_t t0)
{
	char msg[sizeof(e->msg)];

	if (tries > 1) {
		snprintf(msg, sizeof(msg), "%s (%u attempts in %.1f s)", e->msg, tries,
			 (double)(rctl_clock_ns() - t0) / 1e9);
		snprintf(e->msg, sizeof(e->msg), "%s", msg);
	}
	return -e->errnum;
}

/* One attempt: admin queue, Fabrics Connect, enable, Identify. */
static int connect_once(struct rctl_nvmf_ctrl *c, struct rctl_err *e)
{
	uint16_t cntlid = 0;
	int ret;

	struct rctl_nvmf_qparams p = {
		.qid = 0, .depth = RCTL_NVME_AQ_DEPTH, .limit = ADMIN_LIMIT,
		.buf_size = ADMIN_BUF, .cntlid = 0xffff,
		.inline_max = c->tr->inline_max(c, 0),
	};

	ret = q_open(c, &p, c->o.kato_ms, &cntlid, &c->admin, e);
	c->info.cntlid = cntlid;
	if (!ret)
		ret = enable(c, e);
	if (ret) {
		c->enabled = false;	/* a half-enabled controller goes with its queue */
		if (c->admin)
			c->tr->q_free(c->admin);
		c->admin = NULL;
	}
	return ret;
}

int rctl_nvmf_connect(const struct rctl_nvmf_opts *o, struct rctl_nvmf_ctrl **out,
		      struct rctl_err *e)
{
	struct rctl_nvmf_ctrl *c = calloc(1, sizeof(*c));
	uint64_t t0 = rctl_clock_ns();
	unsigned int tries = 0;
	uint32_t delay;
	int ret;

	*out = NULL;
	if (!c)
		return rctl_err_strerror(e, ENOMEM, "cannot allocate a controller");
	ret = ctrl_init(c, o, e);
	while (!ret) {
		ret = connect_once(c, e);
		if (!ret || !rctl_nvmf_retry(e->errnum, ++tries, &delay))
			break;
		sleep_ms(delay);
		ret = 0;
	}
	c->tries = tries;
	if (ret) {
		tries_note(e, tries, t0);
		rctl_nvmf_close(c);
		return ret;
	}
	c->ka_last = rctl_clock_ns();
	*out = c;
	return 0;
}

const struct rctl_nvmf_info *rctl_nvmf_info(const struct rctl_nvmf_ctrl *c)
{
	return &c->info;
}

/* CC.SHN = normal, wait for SHST complete; skipped when the admin queue is down. */
static void shutdown_ctrl(struct rctl_nvmf_ctrl *c)
{
	struct rctl_err e = { 0 };

	if (!c->enabled || !c->admin || c->admin->dead ||
	    c->admin->outstanding >= c->admin->limit)
		return;
	if (c->o.timeout_ms > 2000)
		c->o.timeout_ms = 2000;
	if (prop_set_cc(c, rctl_nvme_cc(true, 0, 1), &e))
		return;
	csts_wait(c, 0x3u << 2, 0x2u << 2, "shut down", &e);
}

void rctl_nvmf_close(struct rctl_nvmf_ctrl *c)
{
	if (!c)
		return;
	shutdown_ctrl(c);
	if (c->admin)
		c->tr->q_free(c->admin);
	if (c->tr && c->tr->ctrl_free)
		c->tr->ctrl_free(c);
	free(c);
}

/* ---- admin commands for the bench ----------------------------------- */

/* One page of the discovery log (rctl_nvmf_log_read). */
static int get_log(void *ctx, uint64_t off, uint32_t len, const uint8_t **page,
		   struct rctl_err *e)
{
	struct rctl_nvmf_ctrl *c = ctx;
	struct rctl_nvme_cmd cmd;
	struct rctl_nvmf_done d;
	int slot = sync_slot(c->admin, e), ret;

	if (slot < 0)
		return slot;
	rctl_nvme_get_log_cmd(&cmd, RCTL_NVME_LOG_DISC, len, off);
	ret = exec_ok(c->admin, slot, &cmd, len, "get log page discovery failed", &d, e);
	*page = rctl_nvmf_q_buf(c->admin, slot);
	return ret;
}

int rctl_nvmf_discover(struct rctl_nvmf_ctrl *c, struct rctl_nvmf_disc_entry **ents,
		       uint32_t *n, struct rctl_err *e)
{
	return rctl_nvmf_disc_read(get_log, c, ADMIN_BUF, ents, n, e);
}

int rctl_nvmf_set_queues(struct rctl_nvmf_ctrl *c, uint16_t want, uint16_t *got,
			 struct rctl_err *e)
{
	struct rctl_nvme_cmd cmd;
	struct rctl_nvmf_done d;
	int ret;

	rctl_nvme_set_nq_cmd(&cmd, want, want);
	ret = exec_ok(c->admin, -1, &cmd, 0, "set features number of queues failed", &d, e);
	if (ret)
		return ret;
	*got = rctl_nvme_nq_granted(d.dw0, want);
	return 0;
}

int rctl_nvmf_active_ns(struct rctl_nvmf_ctrl *c, uint32_t *ids, uint32_t max,
			uint32_t *n, struct rctl_err *e)
{
	const uint8_t *page;
	int ret = identify(c, 0x02, 0, &page, e);

	*n = ret ? 0 : rctl_nvme_ns_list_decode(page, ids, max);
	return ret;
}

int rctl_nvmf_identify_ns(struct rctl_nvmf_ctrl *c, uint32_t nsid,
			  struct rctl_nvme_id_ns *ns, struct rctl_err *e)
{
	const uint8_t *page;
	int ret = identify(c, 0x00, nsid, &page, e);

	if (ret)
		return ret;
	rctl_nvme_id_ns_decode(page, ns);
	if (!ns->nsze)
		return rctl_err_plain(e, ENOENT, "namespace %u of '%s' is not active", nsid,
				    c->subnqn);
	return 0;
}

int rctl_nvmf_keep_alive(struct rctl_nvmf_ctrl *c, uint64_t now, struct rctl_err *e)
{
	struct rctl_nvmf_done d[2];
	struct rctl_nvme_cmd cmd;
	uint64_t kato = (uint64_t)c->o.kato_ms * 1000000;
	int i, n;

	if (!kato)
		return 0;
	n = rctl_nvmf_q_poll(c->admin, d, 2, e);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		if (d[i].slot != c->ka_slot)
			continue;
		c->ka_slot = -1;
		if (d[i].status)
			return rctl_err_plain(e, EIO, "keep-alive failed: %s",
					    rctl_nvme_status_name(d[i].status) ?: "unknown status");
	}
	if (c->ka_slot >= 0 && now - c->ka_last > kato)
		return rctl_err_plain(e, ETIMEDOUT, "keep-alive: no answer within kato %u ms",
				    c->o.kato_ms);
	if (c->ka_slot >= 0 || now - c->ka_last < kato / 2)
		return 0;
	c->ka_slot = sync_slot(c->admin, e);
	if (c->ka_slot < 0)
		return c->ka_slot;
	rctl_nvme_keep_alive_cmd(&cmd);
	c->ka_last = now;
	c->ka_sent++;
	return rctl_nvmf_q_submit(c->admin, c->ka_slot, &cmd, 0, e);
}

uint64_t rctl_nvmf_ka_sent(const struct rctl_nvmf_ctrl *c)
{
	return c->ka_sent;
}

/* ---- I/O queues ------------------------------------------------------ */

static int ioq_create_once(struct rctl_nvmf_ctrl *c, uint16_t qid, uint16_t qd,
			   uint32_t buf_size, bool event, struct rctl_nvmf_q **out,
			   struct rctl_err *e)
{
	/* SQSIZE = qd (0's based): qd + 1 entries, so qd commands fit (one stays empty). */
	struct rctl_nvmf_qparams p = {
		.qid = qid, .depth = (uint16_t)(qd + 1), .limit = qd, .event = event,
		.buf_size = buf_size < RCTL_NVMF_CONNECT_DATA_SIZE ?
			    RCTL_NVMF_CONNECT_DATA_SIZE : buf_size,
		.cntlid = c->info.cntlid, .inline_max = c->tr->inline_max(c, qid),
	};
	uint16_t cntlid;

	return q_open(c, &p, 0, &cntlid, out, e);
}

void rctl_nvmf_ioq_destroy(struct rctl_nvmf_q *q)
{
	if (q)
		q->tr->q_free(q);
}

/* An I/O queue's connect is retried as the admin queue's (rctl_nvmf_retry()). */
int rctl_nvmf_ioq_create(struct rctl_nvmf_ctrl *c, uint16_t qid, uint16_t qd,
			 uint32_t buf_size, bool event, struct rctl_nvmf_q **out,
			 struct rctl_err *e)
{
	uint64_t t0 = rctl_clock_ns();
	unsigned int tries = 0;
	uint32_t delay;
	int ret;

	for (;;) {
		ret = ioq_create_once(c, qid, qd, buf_size, event, out, e);
		if (!ret || !rctl_nvmf_retry(e->errnum, ++tries, &delay))
			break;
		sleep_ms(delay);
	}
	return ret ? tries_note(e, tries, t0) : 0;
}

unsigned int rctl_nvmf_connect_tries(const struct rctl_nvmf_ctrl *c)
{
	return c->tries;
}
