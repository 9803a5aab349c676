// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare: every RoCE port of every host as one row of strings, and the
 * outliers of each column. The DSCP columns ask the rules' own reading of
 * trust and the DSCP map (rctl_dscp_prios), so compare and check never
 * disagree. Outliers take one hash table per column: linear in the ports
 * (a fleet of thousands compares in a blink; it was cubic).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/compare.h"
#include "rocectl/rules.h"

const char *const rctl_cmp_keys[RCTL_CMP_N] = {
	[RCTL_CMP_TRUST] = "trust", [RCTL_CMP_DSCP] = "dscp_prio",
	[RCTL_CMP_MAP] = "dscp_map", [RCTL_CMP_PFC] = "pfc_prios",
	[RCTL_CMP_CNP_DSCP] = "cnp_dscp", [RCTL_CMP_CNP_PRIO] = "cnp_prio",
	[RCTL_CMP_TOS] = "roce_tos", [RCTL_CMP_MODE] = "roce_mode",
	[RCTL_CMP_GID] = "v2_gid_index", [RCTL_CMP_MTU] = "active_mtu",
	[RCTL_CMP_DCQCN] = "dcqcn", [RCTL_CMP_FW] = "fw_version",
	[RCTL_CMP_DRIVER] = "driver_version", [RCTL_CMP_SW_PFC] = "switch_pfc_prios",
};

#define SET(r, c, ...) snprintf((r)->v[c], RCTL_CMP_VAL_LEN, __VA_ARGS__)

static uint32_t fnv(const char *s, uint32_t hsh)
{
	for (; *s; s++)
		hsh = (hsh ^ (unsigned char)*s) * 16777619u;
	return hsh;
}

static int first_prio(const bool prios[8])
{
	int i;

	for (i = 0; i < 7 && !prios[i]; i++)
		;
	return i;
}

/* Trust, the priority of the chosen DSCP and a digest of all 64, as check reads them. */
static void fill_dscp(struct rctl_cmp_row *r, const struct rctl_netdev *nd, int dscp)
{
	bool prios[8], trust = false, known;
	char map[65], buf[24];
	int d, n;

	known = nd->app.st.ok || (nd->qos.st.ok && nd->qos.trust[0]);
	for (d = 0; d < 64; d++) {
		n = rctl_dscp_prios(nd, d, prios, &trust);
		map[d] = !n ? '-' : n > 1 ? '*' : (char)('0' + first_prio(prios));
		if (d == dscp)
			SET(r, RCTL_CMP_DSCP, "%s", !known ? "?" : !n ? "-" :
			    rctl_prio_list(prios, buf, sizeof(buf)));
	}
	map[64] = '\0';
	if (!known)
		return;
	SET(r, RCTL_CMP_TRUST, "%s", trust ? "dscp" : "pcp");
	SET(r, RCTL_CMP_MAP, "%08x", fnv(map, 2166136261u));
}

static void fill_cc(struct rctl_cmp_row *r, const struct rctl_netdev *nd)
{
	uint32_t i, hsh = 2166136261u;
	char kv[96];
	uint64_t v;

	if (!nd->cc.st.ok)
		return;
	if (rctl_cc_get(&nd->cc, "np_cnp_dscp", &v))
		SET(r, RCTL_CMP_CNP_DSCP, "%" PRIu64, v);
	if (rctl_cc_get(&nd->cc, "np_cnp_prio", &v))
		SET(r, RCTL_CMP_CNP_PRIO, "%" PRIu64, v);
	/* Parameters in the order of the collector: the same for one driver. */
	for (i = 0; i < nd->cc.n_params; i++) {
		snprintf(kv, sizeof(kv), "%s=%" PRIu64 ";", nd->cc.params[i].name,
			 nd->cc.params[i].value);
		hsh = fnv(kv, hsh);
	}
	SET(r, RCTL_CMP_DCQCN, "%08x", hsh);
}

/*
 * Firmware, and the driver with its version: the module's own version
 * (MLNX_OFED, out-of-tree) or else what ETHTOOL_GDRVINFO reports (the
 * kernel release for an inbox driver).
 */
static void fill_versions(struct rctl_cmp_row *r, const struct rctl_target *t)
{
	const char *ver = t->dev->driver_version;

	if (t->dev->fw[0])
		SET(r, RCTL_CMP_FW, "%s", t->dev->fw);
	if (!ver[0] && t->nd)
		ver = t->nd->driver_version;
	if (ver[0])
		SET(r, RCTL_CMP_DRIVER, "%s %s", t->dev->driver, ver);
}

static void fill_row(struct rctl_cmp_row *r, const struct rctl_host *h,
		     const struct rctl_target *t, int dscp)
{
	const struct rctl_cm_cfg *cm = &t->port->cm;
	uint32_t i;
	char buf[24];

	snprintf(r->host, sizeof(r->host), "%s", h->hostname);
	snprintf(r->target, sizeof(r->target), "%s", t->name);
	for (i = 0; i < RCTL_CMP_N; i++)
		SET(r, i, "?");
	SET(r, RCTL_CMP_MTU, "%u", t->port->active_mtu);
	for (i = 0; i < t->port->n_gids; i++)
		if (!strcmp(t->port->gids[i].type, "RoCE v2") &&
		    strchr(t->port->gids[i].ip, '.')) {
			SET(r, RCTL_CMP_GID, "%u", t->port->gids[i].index);
			break;
		}
	if (cm->st.ok) {
		SET(r, RCTL_CMP_TOS, "%u", cm->roce_tos);
		SET(r, RCTL_CMP_MODE, "%s", strcmp(cm->roce_mode, "RoCE v2") ? "v1" : "v2");
	}
	fill_versions(r, t);
	snprintf(r->sw, sizeof(r->sw), "?");
	snprintf(r->sw_port, sizeof(r->sw_port), "?");
	if (!t->nd)
		return;
	if (t->nd->lldp.st.ok) {
		snprintf(r->sw, sizeof(r->sw), "%s", t->nd->lldp.system_name[0] ?
			 t->nd->lldp.system_name : t->nd->lldp.chassis_id);
		snprintf(r->sw_port, sizeof(r->sw_port), "%s", t->nd->lldp.port_id);
		if (t->nd->lldp.has_pfc)
			SET(r, RCTL_CMP_SW_PFC, "%s", rctl_prio_list(t->nd->lldp.pfc_en, buf,
								     sizeof(buf)));
	}
	if (t->nd->pfc.st.ok)
		SET(r, RCTL_CMP_PFC, "%s", rctl_prio_list(t->nd->pfc.pfc_en, buf, sizeof(buf)));
	fill_dscp(r, t->nd, dscp);
	fill_cc(r, t->nd);
}

int rctl_cmp_add_host(struct rctl_cmp *c, const struct rctl_host *h)
{
	struct rctl_judge j = { .h = h };
	struct rctl_target t;
	uint32_t di = 0, pi = 0;
	struct rctl_cmp_row *r;

	while (rctl_target_next(&j, &t, &di, &pi)) {
		if (c->n == c->cap) {
			/* Doubling: thousands of hosts must not cost a realloc each. */
			uint32_t cap = c->cap ? c->cap * 2 : 64;

			r = realloc(c->rows, (size_t)cap * sizeof(*r));
			if (!r)
				return -ENOMEM;
			c->rows = r;
			c->cap = cap;
		}
		r = &c->rows[c->n++];
		memset(r, 0, sizeof(*r));
		fill_row(r, h, &t, c->dscp);
	}
	return 0;
}

void rctl_cmp_free(struct rctl_cmp *c)
{
	free(c->rows);
	c->rows = NULL;
	c->n = c->cap = 0;
}

/* ---- outliers --------------------------------------------------------- */

/* One distinct value of a column: its first row and how many rows hold it. */
struct slot {
	uint32_t first;		/* row index + 1; 0: empty */
	uint32_t count;
};

struct column {
	struct slot *tab;
	uint32_t mask;
	uint32_t *slot_of;	/* row -> its value's slot */
	uint32_t top, best;	/* the largest count and a row holding it */
};

/* Count the values of column c, open addressing on an FNV hash. */
static void count_column(const struct rctl_cmp *c, enum rctl_cmp_col col,
			 struct column *k)
{
	uint32_t i, s;

	k->top = 0;
	k->best = 0;
	for (i = 0; i < c->n; i++) {
		const char *v = c->rows[i].v[col];

		for (s = fnv(v, 2166136261u) & k->mask; k->tab[s].first;
		     s = (s + 1) & k->mask)
			if (!strcmp(c->rows[k->tab[s].first - 1].v[col], v))
				break;
		if (!k->tab[s].first)
			k->tab[s].first = i + 1;
		k->slot_of[i] = s;
		if (++k->tab[s].count > k->top) {
			k->top = k->tab[s].count;
			k->best = k->tab[s].first - 1;
		}
	}
}

static bool is_outlier(const struct column *k, uint32_t row, uint32_t n)
{
	return k->top < n && (k->tab[k->slot_of[row]].count < k->top || k->top * 2 <= n);
}

static void put_outlier(struct rctl_cmp_outlier *o, uint32_t row,
			enum rctl_cmp_col col, const struct column *k, uint32_t n)
{
	o->row = row;
	o->col = col;
	/* With no value held by most rows there is no "most common" to name. */
	o->common = k->top * 2 > n ? (int32_t)k->best : -1;
}

int rctl_cmp_outliers(const struct rctl_cmp *c, struct rctl_cmp_outlier **out,
		      uint32_t *n_out)
{
	struct column cols[RCTL_CMP_N] = { 0 };
	uint32_t size = 16, i, n = 0;
	int col, ret = 0;

	*out = NULL;
	*n_out = 0;
	while (size < c->n * 2 && size < (1u << 30))
		size *= 2;
	for (col = 0; col < RCTL_CMP_N && !ret; col++) {
		cols[col].mask = size - 1;
		cols[col].tab = calloc(size, sizeof(struct slot));
		cols[col].slot_of = calloc(c->n ? c->n : 1, sizeof(uint32_t));
		if (!cols[col].tab || !cols[col].slot_of)
			ret = -ENOMEM;
		else
			count_column(c, col, &cols[col]);
	}
	for (i = 0; i < c->n && !ret; i++)
		for (col = 0; col < RCTL_CMP_N; col++)
			n += is_outlier(&cols[col], i, c->n);
	if (!ret && n && !(*out = calloc(n, sizeof(**out))))
		ret = -ENOMEM;
	for (i = 0; i < c->n && !ret; i++)
		for (col = 0; col < RCTL_CMP_N; col++)
			if (is_outlier(&cols[col], i, c->n))
				put_outlier(&(*out)[(*n_out)++], i, col, &cols[col], c->n);
	for (col = 0; col < RCTL_CMP_N; col++) {
		free(cols[col].tab);
		free(cols[col].slot_of);
	}
	return ret;
}
