// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Port counters, orchestrated: hw_counters over RDMA netlink (lib/rdma_nl.c),
 * hw_counters/lifespan and the PMA counters/ from sysfs (lib/sysfs.c), the
 * ethtool stats of the netdevs (lib/ethtool.c), and the second sample that
 * turns two reads into wrap-corrected deltas.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "rocectl/catalog.h"
#include "rocectl/clock.h"
#include "rocectl/collect.h"
#include "rocectl/counters.h"
#include "rocectl/sysfs.h"

static void port_path(char *buf, size_t len, const struct rctl_device *d,
		      const struct rctl_port *p, const char *rest)
{
	snprintf(buf, len, "%s/class/infiniband/%s/ports/%u/%s", rctl_sysfs(),
		 d->name, p->port, rest);
}

static void port_lifespan(const struct rctl_device *d, struct rctl_port *p)
{
	char path[PATH_MAX], buf[32];

	port_path(path, sizeof(path), d, p, "hw_counters/lifespan");
	if (!rctl_read_file(path, buf, sizeof(buf)))
		p->hw_lifespan_ms = strtoul(buf, NULL, 10);
}

static void port_pma(const struct rctl_device *d, struct rctl_port *p)
{
	char dir[PATH_MAX];

	port_path(dir, sizeof(dir), d, p, "counters");
	p->pma_err = -rctl_sysfs_counter_dir(dir, 0, &p->pma, &p->n_pma);
}

static void counters_drop(struct rctl_counter **c, uint32_t *n)
{
	free(*c);
	*c = NULL;
	*n = 0;
}

int rctl_port_counters(struct rctl_nl *nl, const struct rctl_device *d,
		       struct rctl_port *p)
{
	int ret;

	counters_drop(&p->hw, &p->n_hw);
	counters_drop(&p->pma, &p->n_pma);
	p->pma_err = 0;
	ret = rctl_port_hw_counters(nl, d, p);
	/* A driver without hw stats answers EOPNOTSUPP: data, kept in hw_err. */
	p->hw_err = ret < 0 ? -ret : 0;
	if (ret)
		counters_drop(&p->hw, &p->n_hw);
	port_pma(d, p);
	return ret;
}

/* The netdevs under the ports, when no inventory listed them (light collection). */
static void counters_netdevs(struct rctl_host *h)
{
	struct rctl_netdev *nd;
	uint32_t i, j;

	for (i = 0; i < h->n_devs; i++)
		for (j = 0; j < h->devs[i].n_ports; j++) {
			const char *name = h->devs[i].ports[j].netdev;

			if (!name[0] || rctl_host_netdev(h, name))
				continue;
			nd = rctl_arr_push(&h->netdevs, &h->n_netdevs, sizeof(*nd));
			if (!nd)
				return;
			snprintf(nd->name, sizeof(nd->name), "%s", name);
			nd->ifindex = h->devs[i].ports[j].netdev_ifindex;
		}
}

/*
 * "settings" also reads what describes the counters rather than counts
 * (lifespan, which optional counters are on): once per run, not per sample.
 */
static int collect_counters(struct rctl_host *h, bool settings, struct rctl_err *e)
{
	struct rctl_nl nl;
	uint32_t i, j;
	int ret;

	ret = rctl_nl_open(&nl, NETLINK_RDMA, e);
	if (ret)
		return rctl_err_strerror(e, ret, "cannot open RDMA netlink (is ib_core loaded?)");
	for (i = 0; i < h->n_devs; i++)
		for (j = 0; j < h->devs[i].n_ports; j++) {
			struct rctl_port *p = &h->devs[i].ports[j];

			rctl_port_counters(&nl, &h->devs[i], p);
			if (!settings)
				continue;
			port_lifespan(&h->devs[i], p);
			rctl_port_opt_counters(&nl, &h->devs[i], p);
		}
	rctl_nl_close(&nl);
	counters_netdevs(h);
	for (i = 0; i < h->n_netdevs; i++)
		rctl_ethtool_stats(&h->netdevs[i]);
	rctl_pause_stats(h);
	return 0;
}

int rctl_collect_counters(struct rctl_host *h, struct rctl_err *e)
{
	return collect_counters(h, true, e);
}

/* ---- two samples ------------------------------------------------------ */

double rctl_counter_rate(uint64_t delta, double secs)
{
	return secs > 0 ? (double)delta / secs : 0;
}

struct rctl_counter *rctl_counter_find(struct rctl_counter *c, uint32_t n,
				       const char *name)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(c[i].name, name))
			return &c[i];
	return NULL;
}

uint32_t rctl_counters_lifespan_ms(const struct rctl_host *h)
{
	uint32_t i, j, ms = 0;

	for (i = 0; i < h->n_devs; i++)
		for (j = 0; j < h->devs[i].n_ports; j++)
			if (h->devs[i].ports[j].hw_lifespan_ms > ms)
				ms = h->devs[i].ports[j].hw_lifespan_ms;
	return ms;
}

/* Every counter set of the host, in a fixed order, with what keys its catalogue. */
struct cset {
	struct rctl_counter **c;
	uint32_t *n;
	const char *driver;
	enum rctl_csrc src;
};

static uint32_t host_sets(struct rctl_host *h, struct cset *s, uint32_t max)
{
	uint32_t i, j, n = 0;

	for (i = 0; i < h->n_devs; i++)
		for (j = 0; j < h->devs[i].n_ports; j++) {
			struct rctl_port *p = &h->devs[i].ports[j];

			if (n + 2 > max)
				return n;
			s[n++] = (struct cset){ &p->hw, &p->n_hw, h->devs[i].driver, RCTL_SRC_HW };
			s[n++] = (struct cset){ &p->pma, &p->n_pma, "*", RCTL_SRC_PMA };
		}
	for (i = 0; i < h->n_netdevs && n + 2 <= max; i++) {
		struct rctl_netdev *nd = &h->netdevs[i];

		s[n++] = (struct cset){ &nd->stats, &nd->n_stats, nd->driver, RCTL_SRC_ETHTOOL };
		s[n++] = (struct cset){ &nd->pause_stats.c, &nd->pause_stats.n, nd->driver,
					RCTL_SRC_PAUSE };
	}
	return n;
}

static void set_deltas(const struct cset *s, struct rctl_counter *prev, uint32_t n_prev)
{
	uint32_t i;

	for (i = 0; i < *s->n; i++) {
		struct rctl_counter *c = &(*s->c)[i];
		struct rctl_counter *o = rctl_counter_find(prev, n_prev, c->name);
		const struct rctl_centry *ce = rctl_catalog_lookup(s->driver, s->src, c->name);

		c->has_delta = o && rctl_counter_delta(o->value, c->value, ce->bits, &c->delta);
	}
}

static double mono_now(void)
{
	return (double)rctl_clock_ns() / 1e9;
}

/* Sleep the whole interval; a signal that does not kill us does not cut it short. */
static void sleep_secs(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s };

	ts.tv_nsec = (long)((s - ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* The live reading of a resample: the counters only, not what describes them. */
static int read_live(struct rctl_host *h, void *arg, struct rctl_err *e)
{
	(void)arg;
	return collect_counters(h, false, e);
}

int rctl_counters_next(struct rctl_host *h, double elapsed_s, rctl_counters_read_fn read,
		       void *arg, struct rctl_err *e)
{
	enum { MAX_SETS = 1024 };
	struct cset *sets;
	struct { struct rctl_counter *c; uint32_t n; } *prev;
	uint32_t i, n;
	int ret;

	sets = calloc(MAX_SETS, sizeof(*sets));
	prev = calloc(MAX_SETS, sizeof(*prev));
	if (!sets || !prev) {
		free(sets);
		free(prev);
		return rctl_err_strerror(e, ENOMEM, "cannot sample counters");
	}
	n = host_sets(h, sets, MAX_SETS);
	for (i = 0; i < n; i++) {
		prev[i].c = *sets[i].c;
		prev[i].n = *sets[i].n;
		*sets[i].c = NULL;
		*sets[i].n = 0;
	}
	ret = read(h, arg, e);
	for (i = 0; i < n; i++) {
		if (ret) {	/* keep the first sample rather than nothing */
			free(*sets[i].c);
			*sets[i].c = prev[i].c;
			*sets[i].n = prev[i].n;
			continue;
		}
		set_deltas(&sets[i], prev[i].c, prev[i].n);
		free(prev[i].c);
	}
	free(sets);
	free(prev);
	h->sample_interval_s = ret ? 0 : elapsed_s;
	return ret;
}

int rctl_counters_resample(struct rctl_host *h, double elapsed_s, struct rctl_err *e)
{
	return rctl_counters_next(h, elapsed_s, read_live, NULL, e);
}

int rctl_sample_deltas(struct rctl_host *h, double interval_s, struct rctl_err *e)
{
	uint32_t ms = rctl_counters_lifespan_ms(h);
	double t0;

	if (!(interval_s > 0) || interval_s * 1000 < ms)
		return rctl_err_plain(e, EINVAL,
				    "interval %gs is shorter than the hw_counters lifespan "
				    "(%" PRIu32 " ms): the kernel would answer from its cache",
				    interval_s, ms);
	t0 = mono_now();
	sleep_secs(interval_s);
	return rctl_counters_resample(h, mono_now() - t0, e);
}
