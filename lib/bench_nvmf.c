// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The I/O engine of 'rocectl bench nvmf': one thread drives every I/O queue,
 * busy-polling the CQs (or sleeping on their completion channels), keeps
 * each queue at its granted depth, times every command from ibv_post_send to
 * its CQE, and merges the per-queue statistics at the end.
 *
 * Each queue has "limit" workers; worker w of queue q owns the I/O units
 * (bs-sized blocks) u with u % (nq * limit) == q * limit + w, so in verify
 * mode no two commands in flight ever touch the same blocks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "rocectl/nvmf.h"

#define MAXQ 64

struct worker {
	uint64_t stripe;	/* first unit of this worker */
	uint64_t cursor;	/* sequential: next index in the stripe */
	uint64_t unit;		/* unit of the command in flight */
	bool write;
	bool readback;		/* verify: the read of a unit just written */
};

struct qctx {
	struct rctl_nvmf_q *q;
	struct worker *w;
	int *slot_worker;	/* slot -> worker */
	uint64_t rng;
	uint64_t last_progress;
	struct rctl_hist *lat, *rlat, *wlat;
	struct rctl_nvmf_qstat st;
	uint64_t reads, writes, verified;
};

struct run {
	struct rctl_nvmf_ctrl *c;
	const struct rctl_nvmf_bench_cfg *cfg;
	struct qctx qc[MAXQ];
	int nq;
	uint64_t units_per_worker, nworkers, seed;
	uint32_t nlb;
	uint64_t t_measure, t_end;	/* measurement window start, submit stop */
	uint64_t issued;		/* measured I/Os submitted */
	double cpu0;			/* CPU seconds at the window start */
	bool stop, measuring;
};

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

void rctl_nvmf_pattern_fill(void *buf, uint32_t len, uint64_t unit, uint64_t seed)
{
	uint64_t *p = buf, base = mix64(unit ^ seed);
	uint32_t i;

	for (i = 0; i < len / 8; i++)
		p[i] = base + i;
}

long rctl_nvmf_pattern_check(const void *buf, uint32_t len, uint64_t unit, uint64_t seed)
{
	const uint64_t *p = buf;
	uint64_t base = mix64(unit ^ seed);
	uint32_t i;

	for (i = 0; i < len / 8; i++)
		if (p[i] != base + i)
			return (long)i * 8;
	return -1;
}

static bool is_random(enum rctl_nvmf_rw rw)
{
	return rw == RCTL_RW_RANDREAD || rw == RCTL_RW_RANDWRITE || rw == RCTL_RW_RANDRW;
}

static bool pick_write(struct run *r, struct qctx *qc)
{
	switch (r->cfg->rw) {
	case RCTL_RW_RANDWRITE:
	case RCTL_RW_WRITE:
		return true;
	case RCTL_RW_RANDRW:
		return xorshift(&qc->rng) % 100 >= r->cfg->mix_read;
	default:
		return false;
	}
}

static uint64_t next_unit(struct run *r, struct qctx *qc, struct worker *w)
{
	uint64_t i;

	if (is_random(r->cfg->rw))
		i = xorshift(&qc->rng) % r->units_per_worker;
	else
		i = w->cursor++ % r->units_per_worker;
	return w->stripe + i * r->nworkers;
}

static int submit(struct run *r, struct qctx *qc, int wi, struct rctl_err *e)
{
	struct worker *w = &qc->w[wi];
	uint32_t bs = r->cfg->bs;
	struct rctl_nvme_cmd cmd;
	int slot = rctl_nvmf_q_alloc(qc->q);

	if (slot < 0)
		return 0;
	qc->slot_worker[slot] = wi;
	if (w->write && r->cfg->verify)
		rctl_nvmf_pattern_fill(rctl_nvmf_q_buf(qc->q, slot), bs, w->unit, r->seed);
	rctl_nvme_rw_cmd(&cmd, w->write, r->cfg->nsid, w->unit * r->nlb, r->nlb);
	if (rctl_nvmf_now_ns() >= r->t_measure && !w->readback)
		r->issued++;
	return rctl_nvmf_q_submit(qc->q, slot, &cmd, bs, e);
}

/* Choose the next command of worker wi and send it. */
static int start_next(struct run *r, struct qctx *qc, int wi, struct rctl_err *e)
{
	struct worker *w = &qc->w[wi];

	if (r->cfg->verify && w->write && !w->readback) {
		w->write = false;
		w->readback = true;		/* same unit, read it back */
		return submit(r, qc, wi, e);
	}
	if (r->stop)
		return 0;
	if (r->cfg->ios && r->issued >= r->cfg->ios)
		return 0;
	w->readback = false;
	w->unit = next_unit(r, qc, w);
	w->write = r->cfg->verify ? true : pick_write(r, qc);
	return submit(r, qc, wi, e);
}

static int io_failed(struct run *r, struct qctx *qc, const struct worker *w,
		     uint16_t status, struct rctl_err *e)
{
	char st[160];

	rctl_nvme_status_str(st, sizeof(st), status, 0, false);
	return rctl_err_msg(e, EIO, "%s of lba %llu on namespace %u failed: %s",
			    w->write ? "write" : "read",
			    (unsigned long long)(w->unit * r->nlb), r->cfg->nsid, st);
}

static int complete(struct run *r, struct qctx *qc, const struct rctl_nvmf_done *d,
		    struct rctl_err *e)
{
	int wi = qc->slot_worker[d->slot];
	struct worker *w = &qc->w[wi];
	uint64_t lat = d->t_done_ns - d->t_submit_ns;
	long off;

	if (d->status)
		return io_failed(r, qc, w, d->status, e);
	if (w->readback) {
		off = rctl_nvmf_pattern_check(rctl_nvmf_q_buf(qc->q, d->slot), r->cfg->bs,
					      w->unit, r->seed);
		if (off >= 0)
			return rctl_err_msg(e, EIO, "verify: lba %llu of namespace %u read back "
					    "differs from what was written, at byte %ld",
					    (unsigned long long)(w->unit * r->nlb), r->cfg->nsid, off);
		qc->verified++;
	}
	if (d->t_submit_ns >= r->t_measure) {
		rctl_hist_add(qc->lat, lat);
		rctl_hist_add(w->write ? qc->wlat : qc->rlat, lat);
		qc->st.ios++;
		qc->st.bytes += r->cfg->bs;
		if (w->write)
			qc->writes++;
		else
			qc->reads++;
	}
	return 0;
}

static int poll_queue(struct run *r, struct qctx *qc, uint64_t now, struct rctl_err *e)
{
	struct rctl_nvmf_done d[32];
	int i, n, ret, wi[32];

	n = rctl_nvmf_q_poll(qc->q, d, 32, e);
	if (n < 0)
		return n;
	if (n)
		qc->last_progress = now;
	/* Check every buffer of the batch before any slot is reused by a submit. */
	for (i = 0; i < n; i++) {
		wi[i] = qc->slot_worker[d[i].slot];
		ret = complete(r, qc, &d[i], e);
		if (ret)
			return ret;
	}
	for (i = 0; i < n; i++) {
		ret = start_next(r, qc, wi[i], e);
		if (ret)
			return ret;
	}
	return n;
}

/* No completion for io_timeout_ms while commands are outstanding: the target is gone. */
static int check_stall(struct run *r, uint64_t now, struct rctl_err *e)
{
	uint64_t limit = (uint64_t)r->cfg->io_timeout_ms * 1000000;
	int i;

	for (i = 0; i < r->nq; i++) {
		struct qctx *qc = &r->qc[i];

		if (rctl_nvmf_q_outstanding(qc->q) && now - qc->last_progress > limit)
			return rctl_err_msg(e, ETIMEDOUT, "I/O queue %d: %u commands got no "
					    "answer within %d ms: target gone?", i + 1,
					    rctl_nvmf_q_outstanding(qc->q), r->cfg->io_timeout_ms);
	}
	return 0;
}

static int idle_wait(struct run *r, struct rctl_err *e)
{
	struct rctl_nvmf_q *qs[MAXQ];
	uint64_t now = rctl_nvmf_now_ns();
	int i, n = 0, ret;

	for (i = 0; i < r->nq; i++)
		qs[i] = r->qc[i].q;
	ret = rctl_nvmf_arm(qs, r->nq, e);
	for (i = 0; !ret && i < r->nq; i++) {
		ret = poll_queue(r, &r->qc[i], now, e);
		n += ret > 0 ? ret : 0;
		ret = ret < 0 ? ret : 0;
	}
	if (ret || n)
		return ret;
	return rctl_nvmf_wait(qs, r->nq, 100, e);
}

static double cpu_now(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static uint32_t total_outstanding(const struct run *r)
{
	uint32_t n = 0;
	int i;

	for (i = 0; i < r->nq; i++)
		n += rctl_nvmf_q_outstanding(r->qc[i].q);
	return n;
}

static void progress(struct run *r, uint64_t now, uint64_t *last_t, uint64_t *last_ios)
{
	struct rctl_nvmf_progress p = { 0 };
	double dt = (double)(now - *last_t) / 1e9;
	int i;

	for (i = 0; i < r->nq; i++)
		p.ios += r->qc[i].st.ios;
	p.elapsed_s = ((double)now - (double)r->t_measure) / 1e9;
	p.iops = dt > 0 ? (double)(p.ios - *last_ios) / dt : 0;
	p.mibs = p.iops * r->cfg->bs / (1024.0 * 1024.0);
	*last_t = now;
	*last_ios = p.ios;
	r->cfg->progress(&p, r->cfg->arg);
}

/* Housekeeping every 10 ms: keep-alive, stall detection, progress each second. */
static int tick(struct run *r, uint64_t now, uint64_t *next_prog, uint64_t *last_t,
		uint64_t *last_ios, struct rctl_err *e)
{
	int ret = rctl_nvmf_keep_alive(r->c, now, e);

	if (!ret)
		ret = check_stall(r, now, e);
	if (!ret && r->cfg->progress && now >= *next_prog) {
		*next_prog = now + 1000000000ull;
		progress(r, now, last_t, last_ios);
	}
	return ret;
}

static int loop(struct run *r, struct rctl_err *e)
{
	uint64_t now = rctl_nvmf_now_ns(), next_tick = 0;
	uint64_t next_prog = now + 1000000000ull, last_t = now, last_ios = 0;
	int i, n, ret;

	for (i = 0; i < r->nq; i++)
		for (n = 0; n < rctl_nvmf_q_limit(r->qc[i].q); n++) {
			ret = start_next(r, &r->qc[i], n, e);
			if (ret)
				return ret;
		}
	for (;;) {
		now = rctl_nvmf_now_ns();
		if (!r->measuring && now >= r->t_measure) {
			r->measuring = true;
			r->cpu0 = cpu_now();
		}
		if (now >= r->t_end || (r->cfg->ios && r->issued >= r->cfg->ios))
			r->stop = true;
		if (r->stop && !total_outstanding(r))
			return 0;
		for (i = 0, n = 0; i < r->nq; i++) {
			ret = poll_queue(r, &r->qc[i], now, e);
			if (ret < 0)
				return ret;
			n += ret;
		}
		if (now >= next_tick) {
			next_tick = now + 10000000ull;
			ret = tick(r, now, &next_prog, &last_t, &last_ios, e);
			if (ret)
				return ret;
		}
		if (!n && r->cfg->event) {
			ret = idle_wait(r, e);
			if (ret)
				return ret;
		}
	}
}

static int setup(struct run *r, struct rctl_nvmf_q **qs, int nq, struct rctl_err *e)
{
	uint64_t units, now;
	uint16_t w, lim;
	int i;

	r->nlb = r->cfg->bs >> r->cfg->lbads;
	units = r->cfg->ns_blocks / r->nlb;
	for (i = 0; i < nq; i++)
		r->nworkers += rctl_nvmf_q_limit(qs[i]);
	r->units_per_worker = r->nworkers ? units / r->nworkers : 0;
	if (!r->units_per_worker)
		return rctl_err_msg(e, EINVAL, "namespace %u has %llu blocks: too small for %llu "
				    "commands of %u bytes", r->cfg->nsid,
				    (unsigned long long)r->cfg->ns_blocks,
				    (unsigned long long)r->nworkers, r->cfg->bs);
	now = rctl_nvmf_now_ns();
	r->seed = mix64(now);
	for (i = 0; i < nq; i++) {
		struct qctx *qc = &r->qc[i];

		qc->q = qs[i];
		lim = rctl_nvmf_q_limit(qs[i]);
		qc->w = calloc(lim, sizeof(*qc->w));
		qc->slot_worker = calloc(lim, sizeof(int));
		qc->lat = malloc(sizeof(*qc->lat));
		qc->rlat = malloc(sizeof(*qc->rlat));
		qc->wlat = malloc(sizeof(*qc->wlat));
		if (!qc->w || !qc->slot_worker || !qc->lat || !qc->rlat || !qc->wlat)
			return rctl_err_set(e, ENOMEM, "cannot allocate queue statistics");
		rctl_hist_init(qc->lat);
		rctl_hist_init(qc->rlat);
		rctl_hist_init(qc->wlat);
		qc->rng = mix64(r->seed + (uint64_t)i + 1) | 1;
		qc->last_progress = now;
		for (w = 0; w < lim; w++)
			qc->w[w].stripe = (uint64_t)(i ? r->qc[i - 1].w[0].stripe +
						     rctl_nvmf_q_limit(qs[i - 1]) : 0) + w;
	}
	r->nq = nq;
	return 0;
}

static void merge(struct run *r, struct rctl_nvmf_bench_res *res)
{
	int i;

	for (i = 0; i < r->nq; i++) {
		struct qctx *qc = &r->qc[i];

		if (qc->lat) {
			rctl_hist_merge(&res->lat, qc->lat);
			rctl_hist_merge(&res->rlat, qc->rlat);
			rctl_hist_merge(&res->wlat, qc->wlat);
		}
		res->q[i] = qc->st;
		res->ios += qc->st.ios;
		res->bytes += qc->st.bytes;
		res->reads += qc->reads;
		res->writes += qc->writes;
		res->verified += qc->verified;
		free(qc->w);
		free(qc->slot_worker);
		free(qc->lat);
		free(qc->rlat);
		free(qc->wlat);
	}
	res->nq = (uint32_t)r->nq;
}

int rctl_nvmf_bench_run(struct rctl_nvmf_ctrl *c, struct rctl_nvmf_q **qs, int nq,
			const struct rctl_nvmf_bench_cfg *cfg,
			struct rctl_nvmf_bench_res *res, struct rctl_err *e)
{
	struct run *r = calloc(1, sizeof(*r));
	int ret;

	memset(res, 0, offsetof(struct rctl_nvmf_bench_res, lat));
	rctl_hist_init(&res->lat);
	rctl_hist_init(&res->rlat);
	rctl_hist_init(&res->wlat);
	memset(&res->ios, 0, sizeof(*res) - offsetof(struct rctl_nvmf_bench_res, ios));
	if (!r)
		return rctl_err_set(e, ENOMEM, "cannot allocate the bench state");
	if (nq < 1 || nq > MAXQ) {
		free(r);
		return rctl_err_msg(e, EINVAL, "%d I/O queues: 1 to %d supported", nq, MAXQ);
	}
	r->c = c;
	r->cfg = cfg;
	ret = setup(r, qs, nq, e);
	if (!ret) {
		r->t_measure = rctl_nvmf_now_ns() + (uint64_t)(cfg->ramp_s * 1e9);
		r->t_end = cfg->time_s > 0 ? r->t_measure + (uint64_t)(cfg->time_s * 1e9)
					   : UINT64_MAX;
		ret = loop(r, e);
		res->elapsed_s = ((double)rctl_nvmf_now_ns() - (double)r->t_measure) / 1e9;
		res->cpu_s = r->measuring ? cpu_now() - r->cpu0 : 0;
	}
	r->nq = nq;
	merge(r, res);
	res->ka_sent = rctl_nvmf_ka_sent(c);
	res->partial = ret != 0;
	free(r);
	return ret;
}
