// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One reach run per target: resolve, connect with the handshake, SEND and
 * WRITE round trips, the MTU sweep (starting small), the TCP comparison, the
 * control probe on failure and the port's counters around it all; and many
 * targets at once, at most --parallel in flight. Every wait inside is bounded
 * by the timeout (see probe.h), so no target can hold the run.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rocectl/clock.h"
#include "rocectl/hist.h"
#include "rocectl/reach.h"

void rctl_lat_of(struct rctl_lat *l, const struct rctl_hist *h,
		 const struct rctl_stat *st)
{
	double var = st->n > 1 ? st->m2 / (double)(st->n - 1) : 0;
	double sd = 0;

	/* sqrt by Newton: no libm dependency for one number */
	if (var > 0)
		for (sd = var > 1 ? var : 1; sd * sd - var > var * 1e-12;)
			sd = (sd + var / sd) / 2;
	*l = (struct rctl_lat){
		.count = rctl_hist_count(h), .min = rctl_hist_min(h),
		.max = rctl_hist_max(h), .mean = (uint64_t)(st->mean + 0.5),
		.stddev = (uint64_t)(sd + 0.5),
		.p50 = rctl_hist_percentile(h, 50), .p99 = rctl_hist_percentile(h, 99),
		.p999 = rctl_hist_percentile(h, 99.9),
	};
}

static struct rctl_conn_opts conn_opts(const struct rctl_reach_opts *o,
				       const struct sockaddr *dst)
{
	return (struct rctl_conn_opts){
		.dst = dst, .src = o->src, .tos = o->tos, .timeout_s = o->timeout_s,
		.mode = RCTL_MODE_ECHO,
		.size = o->sweep && o->sweep_max > o->size ? o->sweep_max : o->size,
		.depth = 4, .retry_cnt = 7,
		.ack_timeout = 14,	/* 67 ms: retries run out in about half a second */
		.version = o->version, .token = o->token, .half_open_s = o->half_open_s,
		.write_short = o->write_short,
	};
}

static void gap(double secs)
{
	struct timespec ts = { .tv_sec = (time_t)secs,
			       .tv_nsec = (long)((secs - (time_t)secs) * 1e9) };

	nanosleep(&ts, NULL);
}

/* SEND then WRITE round trips; with --mtu-sweep at the smallest size first. */
static int pingpongs(const struct rctl_reach_opts *o, struct rctl_reach_result *r,
		     struct rctl_hist *h)
{
	enum rctl_xfer_op ops[2] = { RCTL_OP_SEND, RCTL_OP_WRITE };
	uint32_t len = o->sweep && o->size > 64 ? 64 : o->size;
	uint64_t t0 = rctl_clock_ns(), rtt;
	struct rctl_stat st;
	unsigned int k, i;
	int ret = 0;

	for (k = 0; k < 2 && !ret; k++) {
		rctl_hist_init(h);
		st = (struct rctl_stat){ 0 };
		for (i = 0; i < o->count && !ret; i++) {
			ret = rctl_conn_pingpong(&r->c, ops[k], len, o->timeout_s,
						 false, &rtt, &r->why);
			if (!ret)
				rctl_stat_add(h, &st, rtt);
			if (o->gap_s > 0)
				gap(o->gap_s);
		}
		rctl_lat_of(&r->rtt[k], h, &st);
	}
	r->traffic_ms = (rctl_clock_ns() - t0) / 1e6;
	if (ret)
		r->cls = RCTL_REACH_STALLED;
	return ret;
}

static void mtu_views(struct rctl_reach_result *r)
{
	const struct rctl_welcome *w = &r->c.peer;

	r->local = (struct rctl_mtu_view){
		.active_mtu = r->c.path.active_mtu, .netdev_mtu = r->c.path.netdev_mtu,
		.path_mtu = r->c.path.path_mtu,
	};
	snprintf(r->local.netdev, sizeof(r->local.netdev), "%s", r->c.path.netdev);
	if (!w->has_mtu)
		return;
	r->peer = (struct rctl_mtu_view){
		.active_mtu = w->active_mtu, .netdev_mtu = w->netdev_mtu,
	};
	snprintf(r->peer.netdev, sizeof(r->peer.netdev), "%s", w->netdev);
}

static void sweep(const struct rctl_reach_opts *o, struct rctl_reach_result *r,
		  const struct rctl_conn_opts *co)
{
	if (rctl_mtu_sweep(&r->c, co, o->sweep_max, &r->sweep, &r->why)) {
		r->cls = r->c.cls ? r->c.cls : RCTL_REACH_STALLED;
		return;
	}
	r->swept = true;
	if (!r->sweep.smallest_bad)
		return;
	r->cls = RCTL_REACH_MTU;
	r->mtu_side = rctl_mtu_cause(&r->local, &r->peer, r->c.path.dst_ip,
				     r->sweep.largest_ok, r->sweep.smallest_bad,
				     r->why.msg, sizeof(r->why.msg));
}

static void compare_tcp(const struct rctl_reach_opts *o, struct rctl_reach_result *r,
			const struct sockaddr *dst, struct rctl_hist *h)
{
	struct rctl_stat st = { 0 };

	rctl_hist_init(h);
	r->tcp_done = !rctl_tcp_pingpong(dst, o->src, o->size, o->count,
					 o->timeout_s, o->token, h, &st, &r->tcp_err);
	rctl_lat_of(&r->tcp, h, &st);
}

static void counters(struct rctl_reach_result *r, bool after)
{
	uint64_t b, d;
	uint32_t i;

	if (!r->cdev[0])
		return;
	if (!after) {
		rctl_port_hw_read(r->cdev, r->cport, &r->before, &r->n_before);
		return;
	}
	rctl_port_hw_read(r->cdev, r->cport, &r->after, &r->n_after);
	for (i = 0; i < r->n_after; i++)
		if (rctl_counter_is_loss(r->after[i].name) &&
		    rctl_reach_counter_delta(r, i, &b, &d))
			r->loss_delta += d;
}

/* Connected and probed; r->cls set. */
static void probe(const struct rctl_reach_opts *o, struct rctl_reach_result *r,
		  const struct rctl_conn_opts *co, struct rctl_hist *h)
{
	if (pingpongs(o, r, h))
		return;
	if (o->sweep)
		sweep(o, r, co);
	if (o->compare_tcp && r->c.ep.connected)
		compare_tcp(o, r, co->dst, h);
}

static void run(const struct rctl_reach_opts *o, struct rctl_reach_result *r,
		const struct sockaddr *dst, struct rctl_hist *h)
{
	struct rctl_conn_opts co = conn_opts(o, dst);
	int err, ver;

	if (rctl_conn_resolve(&r->c, &co, &r->why) && !r->c.cls) {
		r->err = r->why;
		rctl_conn_close(&r->c);
		return;
	}
	if (!r->c.cls) {
		snprintf(r->cdev, sizeof(r->cdev), "%s", r->c.path.dev);
		r->cport = r->c.path.port;
		counters(r, false);
		if (rctl_conn_connect(&r->c, &co, &r->why) && !r->c.cls) {
			r->err = r->why;
			rctl_conn_close(&r->c);
			return;
		}
	}
	r->cls = r->c.cls;
	mtu_views(r);
	if (!r->cls)
		probe(o, r, &co, h);
	rctl_conn_close(&r->c);
	counters(r, true);
	r->evaluated = true;
	if (r->cls) {
		r->ctl = rctl_ctl_probe(dst, o->src, o->timeout_s < 3 ? o->timeout_s : 3,
					&ver, &err);
		r->ctl_done = true;
	}
}

void rctl_reach_run(const struct rctl_reach_opts *o, const char *target,
		    struct rctl_reach_result *r)
{
	struct sockaddr_storage dst;
	struct rctl_hist *h;
	char host[256];
	int port;

	memset(r, 0, sizeof(*r));
	snprintf(r->target, sizeof(r->target), "%s", target);
	r->clock_source = rctl_fast_clock_init();
	r->c.path.gid_index = -1;
	r->c.path.tos = o->tos;
	r->c.path.traffic_class = -1;
	if (rctl_target_split(target, host, sizeof(host), &port)) {
		rctl_err_plain(&r->err, EINVAL, "invalid target '%s'", target);
		return;
	}
	r->port = port < 0 ? o->port : (uint16_t)port;
	if (rctl_sockaddr_parse(host, r->port, false, &dst, &r->err))
		return;
	h = malloc(sizeof(*h));
	if (!h) {
		rctl_err_strerror(&r->err, ENOMEM, "cannot probe '%s'", target);
		return;
	}
	run(o, r, (const struct sockaddr *)&dst, h);
	free(h);
}

bool rctl_reach_counter_delta(const struct rctl_reach_result *r, uint32_t i,
			      uint64_t *before, uint64_t *delta)
{
	const struct rctl_counter *a = &r->after[i];
	uint32_t k;

	for (k = 0; k < r->n_before; k++)
		if (!strcmp(r->before[k].name, a->name)) {
			*before = r->before[k].value;
			/* a reset reads as 0 */
			*delta = a->value >= *before ? a->value - *before : 0;
			return true;
		}
	return false;
}

void rctl_reach_result_free(struct rctl_reach_result *r)
{
	free(r->before);
	free(r->after);
	r->before = r->after = NULL;
	r->n_before = r->n_after = 0;
}

/* ---- many targets ------------------------------------------------------ */

struct many {
	const struct rctl_reach_opts *o;
	char *const *targets;
	struct rctl_reach_result *r;
	unsigned int n, next;
	pthread_mutex_t lock;
};

static void *many_worker(void *arg)
{
	struct many *m = arg;
	unsigned int i;

	for (;;) {
		pthread_mutex_lock(&m->lock);
		i = m->next++;
		pthread_mutex_unlock(&m->lock);
		if (i >= m->n)
			return NULL;
		rctl_reach_run(m->o, m->targets[i], &m->r[i]);
	}
}

int rctl_reach_many(const struct rctl_reach_opts *o, char *const *targets,
		    unsigned int n, unsigned int parallel,
		    struct rctl_reach_result *r, struct rctl_err *e)
{
	struct many m = { .o = o, .targets = targets, .r = r, .n = n,
			  .lock = PTHREAD_MUTEX_INITIALIZER };
	pthread_t thr[RCTL_REACH_MAX_PARALLEL];
	unsigned int i, started = 0;
	int ret = 0;

	if (parallel > RCTL_REACH_MAX_PARALLEL)
		parallel = RCTL_REACH_MAX_PARALLEL;
	if (parallel > n)
		parallel = n;
	rctl_fast_clock_init();	/* calibrated once, before the threads read it */
	if (parallel <= 1) {
		many_worker(&m);
		return 0;
	}
	for (i = 0; i < parallel; i++) {
		ret = pthread_create(&thr[i], NULL, many_worker, &m);
		if (ret)
			break;
		started++;
	}
	if (!started)
		return rctl_err_strerror(e, ret, "cannot start probe threads");
	for (i = 0; i < started; i++)
		pthread_join(thr[i], NULL);
	return 0;
}

/*
 * The MTU sweep: SENDs from 64 bytes up, doubling, then a bisection between
 * the last size that passed and the first that stalled. It reconnects after
 * each stall, so it lives above both the connection set-up and the data path.
 */

static int sweep_try(struct rctl_conn *c, const struct rctl_conn_opts *o,
		     uint32_t len, struct rctl_sweep *r, bool *ok,
		     struct rctl_err *e)
{
	struct rctl_err why = { 0 };
	uint64_t rtt;
	int ret;

	r->probes++;
	*ok = !rctl_conn_pingpong(c, RCTL_OP_SEND, len, o->timeout_s, false, &rtt, &why);
	if (*ok)
		return 0;
	snprintf(r->why, sizeof(r->why), "%.*s", (int)sizeof(r->why) - 1, why.msg);
	/* The QP is in error (or the peer's is): start over. */
	rctl_conn_close(c);
	ret = rctl_conn_resolve(c, o, e);
	return ret ? ret : rctl_conn_connect(c, o, e);
}

int rctl_mtu_sweep(struct rctl_conn *c, const struct rctl_conn_opts *o,
		   uint32_t max, struct rctl_sweep *r, struct rctl_err *e)
{
	uint32_t len, lo = 0, hi = 0, mid;
	bool ok;
	int ret;

	memset(r, 0, sizeof(*r));
	r->max = max;
	for (len = 64 < max ? 64 : max;; len = len > max / 2 ? max : len * 2) {
		ret = sweep_try(c, o, len, r, &ok, e);
		if (ret)
			return ret;
		if (!ok) {
			hi = len;
			break;
		}
		lo = len;
		if (len == max)
			break;
	}
	/* Bisect (lo, hi): at most log2(max) more probes. */
	while (hi && hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		ret = sweep_try(c, o, mid, r, &ok, e);
		if (ret)
			return ret;
		if (ok)
			lo = mid;
		else
			hi = mid;
	}
	r->largest_ok = lo;
	r->smallest_bad = hi;
	return 0;
}
