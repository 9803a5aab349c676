// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare: every RoCE port of every host as one row of strings, and the
 * outliers of each column among the ports of the same group (compare.h).
 * The DSCP columns ask the rules' own reading of trust and the DSCP map
 * (rctl_dscp_prios), so compare and check never disagree. Outliers take two
 * hash tables per column (values, groups): linear in the ports (a fleet of
 * thousands compares in a blink; it was cubic).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "rocectl/compare.h"
#include "rocectl/intent.h"
#include "rocectl/json.h"
#include "rocectl/rules.h"
#include "rocectl/snapshot.h"

const char *const rctl_cmp_keys[RCTL_CMP_N] = {
	[RCTL_CMP_TRUST] = "trust", [RCTL_CMP_DSCP] = "dscp_prio",
	[RCTL_CMP_MAP] = "dscp_map", [RCTL_CMP_PFC] = "pfc_prios",
	[RCTL_CMP_CNP_DSCP] = "cnp_dscp", [RCTL_CMP_CNP_PRIO] = "cnp_prio",
	[RCTL_CMP_TOS] = "roce_tos", [RCTL_CMP_MODE] = "roce_mode",
	[RCTL_CMP_GID] = "v2_gid_index", [RCTL_CMP_MTU] = "active_mtu",
	[RCTL_CMP_DCQCN] = "dcqcn", [RCTL_CMP_FW] = "fw_version",
	[RCTL_CMP_DRIVER] = "driver_version", [RCTL_CMP_SW_PFC] = "switch_pfc_prios",
	[RCTL_CMP_CONSUMERS] = "rdma_consumers", [RCTL_CMP_CONSUMER_TC] = "consumer_tc",
};

const char *const rctl_cmp_by_names[RCTL_CMP_BY_N + 1] = {
	[RCTL_CMP_BY_DRIVER] = "driver", [RCTL_CMP_BY_NONE] = "none",
	[RCTL_CMP_BY_SWITCH] = "switch",
};

enum rctl_cmp_type rctl_cmp_type(enum rctl_cmp_col col)
{
	switch (col) {
	case RCTL_CMP_CNP_DSCP: case RCTL_CMP_CNP_PRIO: case RCTL_CMP_TOS:
	case RCTL_CMP_GID: case RCTL_CMP_MTU:
		return RCTL_CMP_T_NUMBER;
	case RCTL_CMP_DSCP: case RCTL_CMP_PFC: case RCTL_CMP_SW_PFC:
		return RCTL_CMP_T_PRIOS;
	default:
		return RCTL_CMP_T_STRING;
	}
}

/* rctl_prio_list()'s "0,3" or "none", or fill_dscp()'s "-". */
int rctl_cmp_prios(const char *v, uint8_t *mask)
{
	*mask = 0;
	if (!strcmp(v, "none") || !strcmp(v, "-"))
		return 0;
	for (;;) {
		if (*v < '0' || *v > '7')
			return -EINVAL;
		*mask |= (uint8_t)(1u << (*v++ - '0'));
		if (!*v)
			return 0;
		if (*v++ != ',')
			return -EINVAL;
	}
}

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
	/*
	 * Read, and without the parameter: the driver has no such setting
	 * (irdma on E810 sends no CNP of a DSCP of its own), not unknown.
	 */
	SET(r, RCTL_CMP_CNP_DSCP, "%s", "");
	SET(r, RCTL_CMP_CNP_PRIO, "%s", "");
	SET(r, RCTL_CMP_DCQCN, "%s", "");
	if (rctl_cc_get(&nd->cc, "np_cnp_dscp", &v))
		SET(r, RCTL_CMP_CNP_DSCP, "%" PRIu64, v);
	if (rctl_cc_get(&nd->cc, "np_cnp_prio", &v))
		SET(r, RCTL_CMP_CNP_PRIO, "%" PRIu64, v);
	if (!nd->cc.n_params)
		return;
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

/*
 * The driver family: an out-of-tree or vendor driver (MLNX_OFED, Broadcom's,
 * Intel's) names its module version; an inbox one does not.
 */
static void fill_group(struct rctl_cmp_row *r, const struct rctl_target *t,
		       enum rctl_cmp_by by)
{
	if (by == RCTL_CMP_BY_DRIVER || by == RCTL_CMP_BY_SWITCH)
		snprintf(r->group, sizeof(r->group), "%s %s", t->dev->driver,
			 t->dev->driver_version[0] ? "out-of-tree" : "inbox");
}

/*
 * The RDMA consumers of the host (rocectl flows): who, and the traffic
 * class each sends at with where it comes from, each a sorted list without
 * repeats. Names, not pids: the same program on two hosts is the same
 * consumer. They are the host's, over all its RoCE ports: a host whose two
 * ports carry different programs (an initiator on one, a target on the
 * other) is not two outliers. "-" none; a list longer than a value can hold,
 * its digest.
 */
struct cons {
	char name[RCTL_NAME_LEN];
	char tc[RCTL_CMP_VAL_LEN];
};

static int cons_cmp(const void *a, const void *b)
{
	const struct cons *x = a, *y = b;
	int d = strcmp(x->name, y->name);

	return d ? d : strcmp(x->tc, y->tc);
}

/* The distinct strings of one field of v (sorted by it) joined by sep into out. */
static void join(const struct cons *v, uint32_t n, bool tc, const char *sep, char *out)
{
	const char *s, *prev = NULL;
	char buf[4096];
	size_t len = 0;
	uint32_t i;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		s = tc ? v[i].tc : v[i].name;
		if (prev && !strcmp(prev, s))
			continue;
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", prev ? sep : "", s);
		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
		prev = s;
	}
	if (!n)
		snprintf(out, RCTL_CMP_VAL_LEN, "-");
	else if (len < RCTL_CMP_VAL_LEN)
		snprintf(out, RCTL_CMP_VAL_LEN, "%s", buf);
	else
		snprintf(out, RCTL_CMP_VAL_LEN, "#%08x", fnv(buf, 2166136261u));
}

/* Each consumer of port t with its class, appended to v. */
static uint32_t port_consumers(const struct rctl_host *h, const struct rctl_target *t,
			       const struct rctl_intent *in, struct cons *v)
{
	const struct rctl_rdma_res *res = &h->res;
	struct rctl_flow_class fc;
	uint32_t i, n = 0;

	for (i = 0; i < res->n_consumers; i++) {
		const struct rctl_consumer *k = &res->consumers[i];

		if (!rctl_consumer_judged(k) || !rctl_consumer_on(res, k, t->dev->name, t->port->port))
			continue;
		rctl_consumer_class(h, in, k, t->dev, t->port, &fc);
		snprintf(v[n].name, sizeof(v[n].name), "%s", k->name);
		if (fc.tos >= 0)
			snprintf(v[n].tc, sizeof(v[n].tc), "%.24s %s %d %s", k->name, fc.app, fc.tos,
				 fc.from);
		else
			snprintf(v[n].tc, sizeof(v[n].tc), "%.24s %s ? %s", k->name, fc.app, fc.from);
		n++;
	}
	return n;
}

/*
 * The host's consumers into its first row (rows first..c->n-1 are its
 * ports); its other rows do not apply (""). Not collected (a snapshot
 * before schema 4) or unreadable: unknown.
 */
static int fill_consumers(struct rctl_cmp *c, uint32_t first, const struct rctl_host *h)
{
	struct rctl_intent in = { .dscp = c->dscp, .tos = c->dscp << 2 };
	struct rctl_judge j = { .h = h };
	uint32_t di = 0, pi = 0, i, n = 0;
	struct rctl_target t;
	struct cons *v;

	for (i = first + 1; i < c->n; i++)
		c->rows[i].v[RCTL_CMP_CONSUMERS][0] = c->rows[i].v[RCTL_CMP_CONSUMER_TC][0] = '\0';
	if (first == c->n || !h->res.st.ok)
		return 0;
	v = calloc((size_t)(h->res.n_consumers ? h->res.n_consumers : 1) * (c->n - first),
		   sizeof(*v));
	if (!v)
		return -ENOMEM;
	while (rctl_target_next(&j, &t, &di, &pi))
		n += port_consumers(h, &t, &in, v + n);
	qsort(v, n, sizeof(*v), cons_cmp);
	join(v, n, false, ",", c->rows[first].v[RCTL_CMP_CONSUMERS]);
	join(v, n, true, "; ", c->rows[first].v[RCTL_CMP_CONSUMER_TC]);
	free(v);
	return 0;
}

static void fill_row(struct rctl_cmp_row *r, const struct rctl_host *h,
		     const struct rctl_target *t, const struct rctl_cmp *c)
{
	const struct rctl_cm_cfg *cm = &t->port->cm;
	uint32_t i;
	char buf[24];

	snprintf(r->host, sizeof(r->host), "%s", h->hostname);
	snprintf(r->target, sizeof(r->target), "%s", t->name);
	fill_group(r, t, c->by);
	for (i = 0; i < RCTL_CMP_N; i++)
		SET(r, i, RCTL_CMP_UNKNOWN);
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
	/* No neighbour, or one without a PFC TLV: check peer judges that, not compare. */
	SET(r, RCTL_CMP_SW_PFC, "%s", "");
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
	fill_dscp(r, t->nd, c->dscp);
	fill_cc(r, t->nd);
}

int rctl_cmp_add_host(struct rctl_cmp *c, const struct rctl_host *h, const char *file)
{
	struct rctl_judge j = { .h = h };
	uint32_t di = 0, pi = 0, first = c->n;
	struct rctl_target t;
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
		snprintf(r->file, sizeof(r->file), "%s", file ? file : "");
		fill_row(r, h, &t, c);
	}
	return fill_consumers(c, first, h);
}

int rctl_cmp_add_bad(struct rctl_cmp *c, const char *file, const char *reason)
{
	struct rctl_cmp_bad *b = realloc(c->bad, (c->n_bad + 1) * sizeof(*b));

	if (!b)
		return -ENOMEM;
	c->bad = b;
	b = &c->bad[c->n_bad++];
	snprintf(b->file, sizeof(b->file), "%s", file);
	snprintf(b->reason, sizeof(b->reason), "%s", reason);
	return 0;
}

/* Host names are few beside ports: a sorted copy tells in n log n. */
static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

bool rctl_cmp_hosts_repeat(const struct rctl_cmp *c)
{
	const char **names = malloc((c->n ? c->n : 1) * sizeof(*names));
	uint32_t i, k = 0;
	bool rep = false;

	if (!names)
		return true;	/* naming the files is the safe side */
	for (i = 0; i < c->n; i++)
		if (!i || strcmp(c->rows[i].file, c->rows[i - 1].file))
			names[k++] = c->rows[i].host;	/* one per input file */
	qsort(names, k, sizeof(*names), str_cmp);
	for (i = 1; i < k && !rep; i++)
		rep = !strcmp(names[i], names[i - 1]);
	free(names);
	return rep;
}

int rctl_cmp_exit(const struct rctl_cmp *c, uint32_t n_outliers)
{
	return c->n_bad ? 3 : n_outliers ? 1 : 0;
}

void rctl_cmp_free(struct rctl_cmp *c)
{
	free(c->rows);
	free(c->bad);
	c->rows = NULL;
	c->bad = NULL;
	c->n = c->cap = c->n_bad = 0;
}

/* ---- outliers --------------------------------------------------------- */

/*
 * Two open-addressing tables per column, keyed by strings built from a row:
 * the values (group, firmware line, value) with how many rows hold each,
 * and the groups with their size and the largest value count in them.
 */
struct slot {
	uint32_t first;		/* row index + 1; 0: empty */
	uint32_t count;		/* rows with this key */
	uint32_t top, best;	/* groups: the largest value count, a row with it */
};

struct table {
	struct slot *tab;
	uint32_t mask;
	uint32_t *slot_of;	/* row -> its slot */
};

struct column {
	struct table values, groups;
};

/* Firmware is compared within its major version: "22" of "22.41.1000". */
static size_t fw_line(const char *fw)
{
	return strcspn(fw, ".");
}

/* The key of row i in column col: its group, and with "value" the value too. */
static void key_of(const struct rctl_cmp *c, uint32_t i, enum rctl_cmp_col col, bool value,
		   char *buf, size_t len)
{
	const struct rctl_cmp_row *r = &c->rows[i];
	const char *fw = r->v[RCTL_CMP_FW];
	int n = col == RCTL_CMP_FW ? (int)fw_line(fw) : 0;

	snprintf(buf, len, "%s\x1f%.*s\x1f%s", r->group, n, fw, value ? r->v[col] : "");
}

static bool applies(const struct rctl_cmp *c, uint32_t i, enum rctl_cmp_col col)
{
	return c->rows[i].v[col][0];
}

/* Count row i under its key; the slot is remembered in slot_of[i]. */
static struct slot *tally(const struct rctl_cmp *c, struct table *t, uint32_t i,
			  enum rctl_cmp_col col, bool value)
{
	char key[3 * RCTL_CMP_VAL_LEN + 4], other[sizeof(key)];
	uint32_t s;

	key_of(c, i, col, value, key, sizeof(key));
	for (s = fnv(key, 2166136261u) & t->mask; t->tab[s].first; s = (s + 1) & t->mask) {
		key_of(c, t->tab[s].first - 1, col, value, other, sizeof(other));
		if (!strcmp(key, other))
			break;
	}
	if (!t->tab[s].first)
		t->tab[s].first = i + 1;
	t->slot_of[i] = s;
	t->tab[s].count++;
	return &t->tab[s];
}

static void count_column(const struct rctl_cmp *c, enum rctl_cmp_col col, struct column *k)
{
	uint32_t i;

	for (i = 0; i < c->n; i++)
		if (applies(c, i, col)) {
			tally(c, &k->values, i, col, true);
			tally(c, &k->groups, i, col, false);
		}
	for (i = 0; i < c->n; i++) {
		struct slot *g = &k->groups.tab[k->groups.slot_of[i]];
		uint32_t n = k->values.tab[k->values.slot_of[i]].count;

		if (applies(c, i, col) && n > g->top) {
			g->top = n;
			g->best = k->values.tab[k->values.slot_of[i]].first - 1;
		}
	}
}

static bool is_outlier(const struct rctl_cmp *c, const struct column *k, uint32_t row,
		       enum rctl_cmp_col col)
{
	const struct slot *g = &k->groups.tab[k->groups.slot_of[row]];

	return applies(c, row, col) && g->top < g->count &&
	       (k->values.tab[k->values.slot_of[row]].count < g->top || g->top * 2 <= g->count);
}

static void put_outlier(struct rctl_cmp_outlier *o, uint32_t row,
			enum rctl_cmp_col col, const struct column *k)
{
	const struct slot *g = &k->groups.tab[k->groups.slot_of[row]];

	o->row = row;
	o->col = col;
	/* With no value held by most rows there is no "most common" to name. */
	o->common = g->top * 2 > g->count ? (int32_t)g->best : -1;
}

static int table_init(struct table *t, uint32_t size, uint32_t n)
{
	t->mask = size - 1;
	t->tab = calloc(size, sizeof(struct slot));
	t->slot_of = calloc(n ? n : 1, sizeof(uint32_t));
	return t->tab && t->slot_of ? 0 : -ENOMEM;
}

static void table_free(struct table *t)
{
	free(t->tab);
	free(t->slot_of);
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
		ret = table_init(&cols[col].values, size, c->n) ?:
		      table_init(&cols[col].groups, size, c->n);
		if (!ret)
			count_column(c, col, &cols[col]);
	}
	for (i = 0; i < c->n && !ret; i++)
		for (col = 0; col < RCTL_CMP_N; col++)
			n += is_outlier(c, &cols[col], i, col);
	if (!ret && n && !(*out = calloc(n, sizeof(**out))))
		ret = -ENOMEM;
	for (i = 0; i < c->n && !ret; i++)
		for (col = 0; col < RCTL_CMP_N; col++)
			if (is_outlier(c, &cols[col], i, col))
				put_outlier(&(*out)[(*n_out)++], i, col, &cols[col]);
	for (col = 0; col < RCTL_CMP_N; col++) {
		table_free(&cols[col].values);
		table_free(&cols[col].groups);
	}
	return ret;
}

/* Where the document at p ends (cJSON's lenient pass), NULL if none does. */
static const char *doc_end(const char *p)
{
	const char *end = NULL;
	cJSON *doc = cJSON_ParseWithOpts(p, &end, 0);

	cJSON_Delete(doc);
	return doc ? end : NULL;
}

bool rctl_cmp_is_stream(const char *text)
{
	const char *p = text + strspn(text, " \t\r\n"), *end;
	char host[256];

	if (!strncmp(p, "pdsh@", 5) || (*p != '{' && *rctl_pdsh_prefix(p, host, sizeof(host)) == '{'))
		return true;
	end = *p == '{' ? doc_end(p) : NULL;
	return end && end[strspn(end, " \t\r\n")] == '{';
}

/* One document of the stream, [p, end), named by pdsh's host when it had one. */
static int add_one_doc(struct rctl_cmp *c, const char *p, const char *end, const char *file,
		       const char *host)
{
	char *one = strndup(p, (size_t)(end - p)), name[RCTL_CMP_FILE_LEN + 260];
	struct rctl_err e = { 0 };
	struct rctl_host h;
	int ret;

	if (!one)
		return -ENOMEM;
	snprintf(name, sizeof(name), host[0] ? "%s (%s)" : "%s", file, host);
	ret = rctl_snapshot_parse(one, name, &h, &e);
	free(one);
	if (ret)
		return rctl_cmp_add_bad(c, file, e.msg);
	ret = rctl_cmp_add_host(c, &h, file);
	rctl_host_free(&h);
	return ret;
}

int rctl_cmp_add_stream(struct rctl_cmp *c, const char *text, const char *file)
{
	const char *p = text, *start, *end, *who, *why;
	char host[256], reason[sizeof(c->bad->reason)];
	size_t wl;
	int ret = 0;

	while (!ret && *(p += strspn(p, " \t\r\n"))) {
		start = p;
		host[0] = '\0';
		if (rctl_pdsh_line(p, &who, &wl, &why)) {	/* a host that did not answer */
			snprintf(reason, sizeof(reason), "'%s': pdsh: %.*s: %.*s", file, (int)wl, who,
				 (int)strcspn(why, "\n"), why);
			ret = rctl_cmp_add_bad(c, file, reason);
			p = rctl_pdsh_next_doc(start);
			continue;
		}
		p = rctl_pdsh_prefix(p, host, sizeof(host));
		end = doc_end(p);
		if (end) {
			ret = add_one_doc(c, p, end, file, host);
			p = end;
			continue;
		}
		snprintf(reason, sizeof(reason), "cannot read snapshot '%s'%s%s%s: not a JSON document: '%.*s'", file,
			 host[0] ? " (" : "", host, host[0] ? ")" : "",
			 (int)(strcspn(p, "\n") < 40 ? strcspn(p, "\n") : 40), p);
		ret = rctl_cmp_add_bad(c, file, reason);
		p = rctl_pdsh_next_doc(start);
	}
	return ret;
}
