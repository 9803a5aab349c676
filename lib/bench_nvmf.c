// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The I/O engine of 'rocectl bench nvmf': one thread per I/O queue (pinned
 * with cfg->cpus), waiting for its completions as cfg->wait says, keeps the
 * queue at its granted depth, times every command from ibv_post_send to its
 * CQE, and the statistics are merged at the end. The calling thread keeps
 * the admin queue alive and prints progress.
 *
 * By default (adaptive) a queue thread that finds its CQ empty waits on the
 * completion channel when the commands still in flight last several
 * wake-ups; otherwise it sleeps for part of what is left of the interval at
 * which it has been finding completions, then polls, or only polls where a
 * sleep cannot resolve that interval, as at QD1 (rocectl/hybrid_wait.h
 * decides). The channel costs no CPU however late the wake-up comes, and the
 * target works on the other commands meanwhile; under the lab's TCG a timed
 * sleep overshoots a QD32 interval (issue 30: 1.48 ms against 0.35 ms), so
 * without the channel the queue polled. The timed sleep is a
 * clock_nanosleep with the thread's timer slack at 1 ns: one system call,
 * where the channel is an arm, a poll(2) and an event to consume. --poll
 * busy-polls; --event always sleeps on the completion channel.
 *
 * Each queue has "limit" workers; worker w of queue q owns the I/O units
 * (bs-sized blocks) u with u % (nq * limit) == q * limit + w, so in verify
 * mode no two commands in flight ever touch the same blocks.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>

#include "rocectl/clock.h"
#include "rocectl/hybrid_wait.h"
#include "rocectl/nvmf.h"

#define MAXQ 64
#define TICK_NS 10000000ull		/* main thread: keep-alive, progress, stop checks */
#define IDLE_WAIT_MS 100		/* event mode: longest sleep before re-checking */
#define CLOCK_EVERY 64			/* busy polls between clock reads of the queue loop */
#define YIELD_NS 50000ull		/* busy poll: no CQE this long, yield at each clock read */
#define SLEEP_NS 10000ull		/* event: no CQE this long, sleep on the channel */
#define COST_SLEEPS 8			/* adaptive: sleeps that measure the first sleep cost */

struct worker {
	uint64_t stripe;	/* first unit of this worker */
	uint64_t cursor;	/* sequential: next index in the stripe */
	uint64_t unit;		/* unit of the command in flight */
	bool write;
	bool readback;		/* verify: the read of a unit just written */
};

struct run;

/* One I/O queue and the thread that drives it; only that thread writes here. */
struct qctx {
	struct run *r;
	struct rctl_nvmf_q *q;
	struct worker *w;
	int *slot_worker;	/* slot -> worker */
	int *waiting, nwaiting;	/* workers with no free slot yet */
	uint64_t rng;
	uint64_t last_progress;
	uint64_t t_reap;	/* when the last completions were seen (their t_done_ns) */
	uint64_t t_stop;	/* when this thread first saw the run stopping, 0 before */
	struct rctl_hwait hw;	/* adaptive mode */
	struct rctl_hist *lat, *rlat, *wlat;
	struct rctl_nvmf_qstat st;	/* st.ios read by the progress line (relaxed) */
	uint64_t reads, writes, verified;
	pthread_t thread;
	bool started;
	int ret;
	struct rctl_err err;
};

struct run {
	struct rctl_nvmf_ctrl *c;
	const struct rctl_nvmf_bench_cfg *cfg;
	struct qctx qc[MAXQ];
	int nq;
	uint64_t units_per_worker, nworkers, seed;
	uint32_t nlb;
	uint64_t t_measure, t_end;	/* measurement window start, submit stop (rctl_fast_ns) */
	uint64_t issued;		/* measured I/Os submitted, atomic (--ios) */
	int stop;			/* atomic: no new commands (time up, --ios, error) */
	int running;			/* atomic: queue threads still running */
	double usr0, sys0;		/* CPU seconds at the window start */
	bool measuring;
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

static bool stopping(struct run *r)
{
	return __atomic_load_n(&r->stop, __ATOMIC_RELAXED);
}

/* Queue the command of worker wi (posted by the next flush); no slot: it waits. */
static int submit(struct run *r, struct qctx *qc, int wi, struct rctl_err *e)
{
	struct worker *w = &qc->w[wi];
	uint32_t bs = r->cfg->bs;
	struct rctl_nvme_cmd cmd;
	int slot = rctl_nvmf_q_alloc(qc->q);

	if (slot < 0) {
		qc->waiting[qc->nwaiting++] = wi;
		return 0;
	}
	qc->slot_worker[slot] = wi;
	if (w->write && r->cfg->verify)
		rctl_nvmf_pattern_fill(rctl_nvmf_q_buf(qc->q, slot), bs, w->unit, r->seed);
	rctl_nvme_rw_cmd(&cmd, w->write, r->cfg->nsid, w->unit * r->nlb, r->nlb);
	return rctl_nvmf_q_queue(qc->q, slot, &cmd, bs, e);
}

/* With --ios: claim one of the measured I/Os (shared by every queue thread). */
static bool claim_io(struct run *r, uint64_t now)
{
	if (!r->cfg->ios)
		return true;
	if (now < r->t_measure)
		return true;
	return __atomic_fetch_add(&r->issued, 1, __ATOMIC_RELAXED) < r->cfg->ios;
}

/* Choose the next command of worker wi and queue it. */
static int start_next(struct run *r, struct qctx *qc, int wi, uint64_t now,
		      struct rctl_err *e)
{
	struct worker *w = &qc->w[wi];

	if (r->cfg->verify && w->write && !w->readback) {
		w->write = false;
		w->readback = true;		/* same unit, read it back */
		return submit(r, qc, wi, e);
	}
	if (stopping(r) || !claim_io(r, now)) {
		__atomic_store_n(&r->stop, 1, __ATOMIC_RELAXED);
		return 0;
	}
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
	return rctl_err_plain(e, EIO, "%s of lba %llu on namespace %u failed: %s",
			    w->write ? "write" : "read",
			    (unsigned long long)(w->unit * r->nlb), r->cfg->nsid, st);
}

static void count(struct qctx *qc, const struct worker *w, uint64_t lat, uint32_t bs)
{
	rctl_hist_add(qc->lat, lat);
	rctl_hist_add(w->write ? qc->wlat : qc->rlat, lat);
	__atomic_store_n(&qc->st.ios, qc->st.ios + 1, __ATOMIC_RELAXED);
	qc->st.bytes += bs;
	if (w->write)
		qc->writes++;
	else
		qc->reads++;
}

static int complete(struct run *r, struct qctx *qc, const struct rctl_nvmf_done *d,
		    struct rctl_err *e)
{
	int wi = qc->slot_worker[d->slot];
	struct worker *w = &qc->w[wi];
	long off;

	if (d->status)
		return io_failed(r, qc, w, d->status, e);
	if (w->readback) {
		off = rctl_nvmf_pattern_check(rctl_nvmf_q_buf(qc->q, d->slot), r->cfg->bs,
					      w->unit, r->seed);
		if (off >= 0)
			return rctl_err_plain(e, EIO, "verify: lba %llu of namespace %u read back "
					    "differs from what was written, at byte %ld",
					    (unsigned long long)(w->unit * r->nlb), r->cfg->nsid, off);
		qc->verified++;
	}
	if (d->t_submit_ns >= r->t_measure)
		count(qc, w, d->t_done_ns - d->t_submit_ns, r->cfg->bs);
	return 0;
}

/* Reap a batch, check it, queue the next commands, post them as one chain. */
static int poll_queue(struct run *r, struct qctx *qc, uint64_t now, struct rctl_err *e)
{
	struct rctl_nvmf_done d[32];
	int i, n, ret, wi[32], nw;

	n = rctl_nvmf_q_poll(qc->q, d, 32, e);
	if (n < 0)
		return n;
	if (n) {
		qc->last_progress = now;
		qc->t_reap = d[n - 1].t_done_ns;
	}
	/* Check every buffer of the batch before any slot is reused by a submit. */
	for (i = 0; i < n; i++) {
		wi[i] = qc->slot_worker[d[i].slot];
		ret = complete(r, qc, &d[i], e);
		if (ret)
			return ret;
	}
	/* workers that found no free slot go first: slots may have been freed */
	for (nw = qc->nwaiting, qc->nwaiting = 0, i = 0; i < nw; i++) {
		ret = submit(r, qc, qc->waiting[i], e);
		if (ret)
			return ret;
	}
	for (i = 0; i < n; i++) {
		ret = start_next(r, qc, wi[i], now, e);
		if (ret)
			return ret;
	}
	ret = rctl_nvmf_q_flush(qc->q, e);
	return ret ? ret : n;
}

/*
 * No completion for io_timeout_ms while commands are outstanding: the target
 * is gone. Once the run stops, what is outstanding has io_timeout_ms from
 * then, all of it together: a target that answers one command a little
 * before each timeout would otherwise hold the end for qd timeouts.
 */
static int check_stall(struct qctx *qc, uint64_t now, struct rctl_err *e)
{
	const struct rctl_nvmf_bench_cfg *cfg = qc->r->cfg;
	uint64_t tmo = (uint64_t)cfg->io_timeout_ms * 1000000;

	if (!rctl_nvmf_q_outstanding(qc->q))
		return 0;
	if (stopping(qc->r) && !qc->t_stop)
		qc->t_stop = now;
	if (qc->t_stop && now - qc->t_stop > tmo)
		return rctl_err_plain(e, ETIMEDOUT, "I/O queue %d: %u commands got no answer "
				    "within %d ms of the run's end", (int)(qc - qc->r->qc) + 1,
				    rctl_nvmf_q_outstanding(qc->q), cfg->io_timeout_ms);
	if (now - qc->last_progress > tmo)
		return rctl_err_plain(e, ETIMEDOUT, "I/O queue %d: %u commands got no answer "
				    "within %d ms: target gone?", (int)(qc - qc->r->qc) + 1,
				    rctl_nvmf_q_outstanding(qc->q), cfg->io_timeout_ms);
	return 0;
}

/* Event mode: arm, poll once more (a CQE before the arming raises no event), sleep. */
static int idle_wait(struct run *r, struct qctx *qc, struct rctl_err *e)
{
	int ret = rctl_nvmf_arm(&qc->q, 1, e);

	if (!ret)
		ret = poll_queue(r, qc, rctl_fast_ns(), e);
	if (ret)
		return ret < 0 ? ret : 0;
	return rctl_nvmf_wait(&qc->q, 1, IDLE_WAIT_MS, e);
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };

	clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
}

/* Adaptive mode: the first sleep cost, what a few of the shortest sleeps overshoot. */
static void hybrid_init(struct qctx *qc)
{
	uint64_t t0, took, sum = 0;
	int i;

	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);	/* sleeps end when asked, not 50 us later */
	for (i = 0; i < COST_SLEEPS; i++) {
		t0 = rctl_fast_ns();
		sleep_ns(RCTL_HWAIT_MIN_NS);
		took = rctl_fast_ns() - t0;
		sum += took > RCTL_HWAIT_MIN_NS ? took - RCTL_HWAIT_MIN_NS : 0;
	}
	rctl_hwait_init(&qc->hw, sum / COST_SLEEPS);
}

/*
 * Adaptive mode, after a poll that found n completions (0: idle): 1 when it
 * waited on the completion channel (the caller reads the clock), 0, or <0.
 */
static int hybrid_turn(struct run *r, struct qctx *qc, int n, struct rctl_err *e)
{
	unsigned int out = rctl_nvmf_q_outstanding(qc->q);
	uint64_t now, ns;
	int ret;

	if (n) {
		rctl_hwait_reaped(&qc->hw, qc->t_reap, (unsigned int)n);
		return 0;
	}
	if (!out || !qc->hw.interval_ns)
		return 0;
	if (rctl_hwait_event(&qc->hw, out)) {
		/* as idle_wait(), but what the poll after arming finds is a reap */
		ret = rctl_nvmf_arm(&qc->q, 1, e);
		if (!ret)
			ret = poll_queue(r, qc, rctl_fast_ns(), e);
		if (ret > 0)
			rctl_hwait_reaped(&qc->hw, qc->t_reap, (unsigned int)ret);
		else if (!ret)
			ret = rctl_nvmf_wait(&qc->q, 1, IDLE_WAIT_MS, e);
		return ret < 0 ? ret : 1;
	}
	/* decided already: poll without a clock read */
	if (qc->hw.idle_planned)
		return 0;
	now = rctl_fast_ns();
	ns = rctl_hwait_plan(&qc->hw, now);
	if (!ns)
		return 0;
	sleep_ns(ns);
	rctl_hwait_slept(&qc->hw, ns, rctl_fast_ns() - now);
	return 0;
}

/* Queue the first commands: every worker of the queue gets one. */
static int fill_queue(struct run *r, struct qctx *qc, uint64_t now, struct rctl_err *e)
{
	int w, ret;

	qc->last_progress = now;
	for (w = 0; w < rctl_nvmf_q_limit(qc->q); w++) {
		ret = start_next(r, qc, w, now, e);
		if (ret)
			return ret;
	}
	return rctl_nvmf_q_flush(qc->q, e);
}

static int queue_loop(struct qctx *qc)
{
	struct run *r = qc->r;
	struct rctl_err *e = &qc->err;
	enum rctl_nvmf_wait_mode mode = r->cfg->wait;
	uint64_t now = rctl_fast_ns();
	unsigned int polls = 0;
	int n, ret, waited = 0;

	if (mode == RCTL_WAIT_ADAPTIVE)
		hybrid_init(qc);
	ret = fill_queue(r, qc, now, e);
	while (!ret) {
		if (stopping(r) && !rctl_nvmf_q_outstanding(qc->q))
			return 0;
		n = poll_queue(r, qc, now, e);
		if (n < 0)
			return n;
		if (mode == RCTL_WAIT_ADAPTIVE) {
			waited = hybrid_turn(r, qc, n, e);
			if (waited < 0)
				return waited;
		}
		/* the clock only every CLOCK_EVERY polls: where it is HPET, a read is a syscall */
		if (++polls % CLOCK_EVERY && !(mode == RCTL_WAIT_EVENT && !n) && !waited)
			continue;
		now = rctl_fast_ns();
		if (now >= r->t_end)
			__atomic_store_n(&r->stop, 1, __ATOMIC_RELAXED);
		ret = check_stall(qc, now, e);
		/*
		 * The work our commands wait for (rxe's softirq, the target's
		 * kworkers) may be queued on this CPU, behind us for a whole
		 * time slice: measured in the lab, p99 at QD1 went from 8 ms
		 * to 1 ms. Nothing else runnable: the yield returns at once.
		 * Event mode spins a little before it sleeps, for completions
		 * that come in bursts; longer, it kept that same work waiting
		 * (lab, QD32, 3 rounds: 50 us 6221 IOPS, 10 us 6729, 0 6559).
		 */
		if (ret || n ||
		    now - qc->last_progress <= (mode == RCTL_WAIT_EVENT ? SLEEP_NS : YIELD_NS))
			continue;
		if (mode == RCTL_WAIT_EVENT)
			ret = idle_wait(r, qc, e);
		else
			sched_yield();
	}
	return ret;
}

static double thread_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *queue_thread(void *arg)
{
	struct qctx *qc = arg;
	double cpu0 = thread_cpu_s();

	qc->ret = queue_loop(qc);
	qc->st.cpu_s = thread_cpu_s() - cpu0;
	if (qc->ret)	/* the others stop too: the run ends with this error */
		__atomic_store_n(&qc->r->stop, 1, __ATOMIC_RELAXED);
	__atomic_fetch_sub(&qc->r->running, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* User and system CPU seconds of the whole process (every queue thread). */
static void cpu_now(double *usr, double *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	*usr = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
	*sys = (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static void progress(struct run *r, uint64_t now, uint64_t *last_t, uint64_t *last_ios)
{
	struct rctl_nvmf_progress p = { 0 };
	double dt = (double)(now - *last_t) / 1e9;
	int i;

	for (i = 0; i < r->nq; i++)
		p.ios += __atomic_load_n(&r->qc[i].st.ios, __ATOMIC_RELAXED);
	p.elapsed_s = ((double)now - (double)r->t_measure) / 1e9;
	p.iops = dt > 0 ? (double)(p.ios - *last_ios) / dt : 0;
	p.mibs = p.iops * r->cfg->bs / (1024.0 * 1024.0);
	*last_t = now;
	*last_ios = p.ios;
	r->cfg->progress(&p, r->cfg->arg);
}

/*
 * The calling thread, while the queue threads run: keep-alive on the admin
 * queue (only this thread touches it), the CPU clock at the window start,
 * the progress line each second. A keep-alive failure stops the run.
 */
static int supervise(struct run *r, struct rctl_err *e)
{
	struct timespec pause = { 0, (long)TICK_NS };
	uint64_t now = rctl_fast_ns(), next_prog = now + 1000000000ull;
	uint64_t last_t = now, last_ios = 0;
	int ret = 0;

	while (__atomic_load_n(&r->running, __ATOMIC_ACQUIRE)) {
		nanosleep(&pause, NULL);
		now = rctl_fast_ns();
		if (!r->measuring && now >= r->t_measure) {
			r->measuring = true;
			cpu_now(&r->usr0, &r->sys0);
		}
		if (!ret) {
			ret = rctl_nvmf_keep_alive(r->c, rctl_clock_ns(), e);
			if (ret)
				__atomic_store_n(&r->stop, 1, __ATOMIC_RELAXED);
		}
		if (r->cfg->progress && now >= next_prog) {
			next_prog = now + 1000000000ull;
			progress(r, now, &last_t, &last_ios);
		}
	}
	return ret;
}

/* Pin thread i to cpus[i % ncpus]; -errno with a message. */
static int pin(struct run *r, int i, struct rctl_err *e)
{
	const struct rctl_nvmf_bench_cfg *cfg = r->cfg;
	cpu_set_t set;
	int cpu, ret;

	if (!cfg->ncpus)
		return 0;
	cpu = cfg->cpus[i % cfg->ncpus];
	r->qc[i].st.cpu = cpu;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	ret = pthread_setaffinity_np(r->qc[i].thread, sizeof(set), &set);
	if (ret)
		return rctl_err_strerror(e, ret, "cannot pin I/O queue %d to CPU %d", i + 1, cpu);
	return 0;
}

static int start_threads(struct run *r, struct rctl_err *e)
{
	int i, ret;

	for (i = 0; i < r->nq; i++) {
		__atomic_fetch_add(&r->running, 1, __ATOMIC_RELAXED);
		ret = pthread_create(&r->qc[i].thread, NULL, queue_thread, &r->qc[i]);
		if (ret) {
			__atomic_fetch_sub(&r->running, 1, __ATOMIC_RELAXED);
			return rctl_err_strerror(e, ret, "cannot start the thread of I/O queue %d", i + 1);
		}
		r->qc[i].started = true;
		ret = pin(r, i, e);
		if (ret)
			return ret;
	}
	return 0;
}

/* Start one thread per queue, supervise, join; the first error wins. */
static int run_threads(struct run *r, struct rctl_err *e)
{
	int i, ret = start_threads(r, e), sret;

	if (ret)
		__atomic_store_n(&r->stop, 1, __ATOMIC_RELAXED);
	sret = supervise(r, ret ? &(struct rctl_err){ 0 } : e);
	ret = ret ? ret : sret;
	for (i = 0; i < r->nq; i++) {
		if (!r->qc[i].started)
			continue;
		pthread_join(r->qc[i].thread, NULL);
		if (!ret && r->qc[i].ret) {
			*e = r->qc[i].err;
			ret = r->qc[i].ret;
		}
	}
	return ret;
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
		return rctl_err_plain(e, EINVAL, "namespace %u has %llu blocks: too small for %llu "
				    "commands of %u bytes", r->cfg->nsid,
				    (unsigned long long)r->cfg->ns_blocks,
				    (unsigned long long)r->nworkers, r->cfg->bs);
	now = rctl_fast_ns();
	r->seed = mix64(now);
	for (i = 0; i < nq; i++) {
		struct qctx *qc = &r->qc[i];

		qc->r = r;
		qc->st.cpu = -1;
		qc->q = qs[i];
		lim = rctl_nvmf_q_limit(qs[i]);
		qc->w = calloc(lim, sizeof(*qc->w));
		qc->slot_worker = calloc(lim, sizeof(int));
		qc->waiting = calloc(lim, sizeof(int));
		qc->lat = malloc(sizeof(*qc->lat));
		qc->rlat = malloc(sizeof(*qc->rlat));
		qc->wlat = malloc(sizeof(*qc->wlat));
		if (!qc->w || !qc->slot_worker || !qc->waiting || !qc->lat || !qc->rlat ||
		    !qc->wlat)
			return rctl_err_strerror(e, ENOMEM, "cannot allocate queue statistics");
		rctl_hist_init(qc->lat);
		rctl_hist_init(qc->rlat);
		rctl_hist_init(qc->wlat);
		qc->rng = mix64(r->seed + (uint64_t)i + 1) | 1;
		for (w = 0; w < lim; w++)
			qc->w[w].stripe = (uint64_t)(i ? r->qc[i - 1].w[0].stripe +
						     rctl_nvmf_q_limit(qs[i - 1]) : 0) + w;
	}
	r->nq = nq;
	return 0;
}

const char *rctl_nvmf_wait_name(enum rctl_nvmf_wait_mode m)
{
	static const char *const names[] = {
		[RCTL_WAIT_ADAPTIVE] = "adaptive", [RCTL_WAIT_POLL] = "busy-poll",
		[RCTL_WAIT_EVENT] = "event",
	};

	return (unsigned int)m < sizeof(names) / sizeof(names[0]) ? names[m] : "unknown";
}

/* One queue's adaptive wait into the run's: counts summed, estimates averaged. */
static void add_wait(struct rctl_nvmf_wait_stat *w, const struct rctl_hwait *h, int nq)
{
	w->idles += h->idles;
	w->slept += h->slept_idles;
	w->sleeps += h->sleeps;
	w->event_idles += h->event_idles;
	w->events += h->events;
	w->slept_s += (double)h->slept_ns / 1e9;
	w->interval_ns += h->interval_ns / (uint64_t)nq;
	w->cost_ns += h->cost_ns / (uint64_t)nq;
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
		add_wait(&res->wait, &qc->hw, r->nq);
		free(qc->w);
		free(qc->slot_worker);
		free(qc->waiting);
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
		return rctl_err_strerror(e, ENOMEM, "cannot allocate the bench state");
	if (nq < 1 || nq > MAXQ) {
		free(r);
		return rctl_err_plain(e, EINVAL, "%d I/O queues: 1 to %d supported", nq, MAXQ);
	}
	r->c = c;
	r->cfg = cfg;
	res->clock_source = rctl_fast_clock_init();
	ret = setup(r, qs, nq, e);
	if (!ret) {
		r->t_measure = rctl_fast_ns() + (uint64_t)(cfg->ramp_s * 1e9);
		r->t_end = cfg->time_s > 0 ? r->t_measure + (uint64_t)(cfg->time_s * 1e9)
					   : UINT64_MAX;
		ret = run_threads(r, e);
		res->elapsed_s = ((double)rctl_fast_ns() - (double)r->t_measure) / 1e9;
		if (r->measuring) {
			cpu_now(&res->usr_s, &res->sys_s);
			res->usr_s -= r->usr0;
			res->sys_s -= r->sys0;
		}
		res->cpu_s = res->usr_s + res->sys_s;
	}
	r->nq = nq;
	merge(r, res);
	res->ka_sent = rctl_nvmf_ka_sent(c);
	res->partial = ret != 0;
	free(r);
	return ret;
}

static int cpu_num(const char **p, int *v)
{
	char *end;
	long x;

	if (**p < '0' || **p > '9')
		return -1;
	x = strtol(*p, &end, 10);
	if (x >= CPU_SETSIZE)
		return -1;
	*v = (int)x;
	*p = end;
	return 0;
}

int rctl_cpu_list_parse(const char *s, int *cpus, int max, int *n, struct rctl_err *e)
{
	const char *p = s;
	int lo, hi, c, i;

	*n = 0;
	do {
		if (cpu_num(&p, &lo))
			return rctl_err_plain(e, EINVAL, "bad CPU list '%s' at '%s'", s, p);
		hi = lo;
		if (*p == '-' && (p++, cpu_num(&p, &hi) || hi < lo))
			return rctl_err_plain(e, EINVAL, "bad CPU range in '%s' at '%s'", s, p);
		if (*p && *p != ',')
			return rctl_err_plain(e, EINVAL, "bad CPU list '%s' at '%s'", s, p);
		for (c = lo; c <= hi; c++) {
			for (i = 0; i < *n; i++)
				if (cpus[i] == c)
					return rctl_err_plain(e, EINVAL, "CPU %d twice in '%s'", c, s);
			if (*n == max)
				return rctl_err_plain(e, EINVAL, "more than %d CPUs in '%s'", max, s);
			cpus[(*n)++] = c;
		}
	} while (*p++ == ',');
	return 0;
}
