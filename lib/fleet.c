// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check and doctor over many snapshots (fleet.h): expand the inputs, judge
 * one snapshot at a time and keep its summary, group the hosts.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rocectl/err.h"
#include "rocectl/fleet.h"
#include "rocectl/snapshot.h"

const char *const rctl_fleet_by_names[RCTL_FLEET_BY_N + 1] = {
	[RCTL_FLEET_BY_NONE] = "none", [RCTL_FLEET_BY_SWITCH] = "switch",
	[RCTL_FLEET_BY_DRIVER] = "driver", [RCTL_FLEET_BY_RULE] = "rule",
};

/* ---- the inputs ------------------------------------------------------ */

struct paths {
	char **v;
	uint32_t n, cap;
};

static int paths_add(struct paths *p, const char *path)
{
	char *s;

	if (p->n == p->cap) {
		uint32_t cap = p->cap ? p->cap * 2 : 64;
		char **v = realloc(p->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		p->v = v;
		p->cap = cap;
	}
	s = strdup(path);
	if (!s)
		return -ENOMEM;
	p->v[p->n++] = s;
	return 0;
}

static bool is_pattern(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

bool rctl_fleet_spec_many(const char *spec)
{
	return is_dir(spec) || (is_pattern(spec) && access(spec, F_OK));
}

/* "x.json", or rpdcp's copy of it named after its host: "x.json.node01". */
static bool json_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' &&
	       ((n > 5 && !strcmp(name + n - 5, ".json")) || strstr(name, ".json.") != NULL);
}

/* The "*.json" files under dir, down to "depth" levels; symbolic links are not followed. */
static int walk(struct paths *p, const char *dir, int depth, struct rctl_err *e)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[4096];
	struct stat st;
	int ret = 0;

	if (!d)
		return rctl_err_strerror(e, errno, "cannot read the directory '%s'", dir);
	while (!ret && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= sizeof(path))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		if (S_ISDIR(st.st_mode) && depth > 0)
			ret = walk(p, path, depth - 1, e);
		else if (S_ISREG(st.st_mode) && json_name(de->d_name))
			ret = paths_add(p, path) ? rctl_err_strerror(e, ENOMEM, "cannot list '%s'", dir) : 0;
	}
	closedir(d);
	return ret;
}

static int expand_one(struct paths *p, const char *spec, struct rctl_err *e)
{
	glob_t g;
	size_t i;
	int ret;

	if (is_dir(spec)) {
		uint32_t before = p->n;

		ret = walk(p, spec, 8, e);
		if (!ret && p->n == before)	/* the collection wrote nothing there */
			ret = rctl_err_plain(e, ENOENT, "no snapshot (*.json) in the directory '%s'",
					     spec);
		return ret;
	}
	if (!is_pattern(spec) || !access(spec, F_OK))
		return paths_add(p, spec) ? rctl_err_strerror(e, ENOMEM, "cannot list '%s'", spec) : 0;
	ret = glob(spec, GLOB_NOSORT, NULL, &g);
	if (ret == GLOB_NOMATCH)
		return rctl_err_plain(e, ENOENT, "no snapshot matches '%s'", spec);
	if (ret)
		return rctl_err_plain(e, ret == GLOB_NOSPACE ? ENOMEM : EIO,
				      "cannot expand '%s'", spec);
	for (i = 0, ret = 0; i < g.gl_pathc && !ret; i++)
		if (!is_dir(g.gl_pathv[i]))
			ret = paths_add(p, g.gl_pathv[i]);
	globfree(&g);
	return ret ? rctl_err_strerror(e, ENOMEM, "cannot list '%s'", spec) : 0;
}

static int path_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int rctl_fleet_expand(const char *const *specs, unsigned int n, char ***files,
		      uint32_t *n_files, struct rctl_err *e)
{
	struct paths p = { 0 };
	uint32_t i, k;
	int ret = 0;

	for (i = 0; i < n && !ret; i++)
		ret = expand_one(&p, specs[i], e);
	if (ret) {
		rctl_fleet_files_free(p.v, p.n);
		return ret;
	}
	if (p.n)
		qsort(p.v, p.n, sizeof(*p.v), path_cmp);
	for (i = 0, k = 0; i < p.n; i++) {
		if (k && !strcmp(p.v[k - 1], p.v[i]))
			free(p.v[i]);	/* named twice: judged once */
		else
			p.v[k++] = p.v[i];
	}
	*files = p.v;
	*n_files = k;
	return 0;
}

void rctl_fleet_files_free(char **files, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		free(files[i]);
	free(files);
}

/* ---- one host's summary ---------------------------------------------- */

static bool same_series(const struct rctl_fleet_series *s, const struct rctl_finding *f)
{
	return !strcmp(s->id, f->id) && !strcmp(s->device, f->device) &&
	       s->port == f->port && !strcmp(s->netdev, f->netdev);
}

/*
 * One series per (id, device, port, netdev), the worst status of its
 * findings; findings come port by port, so the one to merge with is near
 * the end, but a host-wide one may recur later: the scan is over the host's
 * own series only (tens).
 */
static int add_series(struct rctl_fleet_host *fh, const struct rctl_report *r)
{
	struct rctl_fleet_series *s;
	uint32_t i, k;

	fh->series = calloc(r->n ? r->n : 1, sizeof(*fh->series));
	if (!fh->series)
		return -ENOMEM;
	for (i = 0; i < r->n; i++) {
		const struct rctl_finding *f = &r->f[i];

		if (!rctl_finding_counted(f))	/* a consequence, a driver limit: no series */
			continue;
		for (k = fh->n_series; k > 0 && !same_series(&fh->series[k - 1], f); k--)
			;
		s = k ? &fh->series[k - 1] : &fh->series[fh->n_series++];
		if (!k) {
			*s = (struct rctl_fleet_series){
				.id = f->id, .area = f->area, .status = f->status, .port = f->port,
			};
			snprintf(s->device, sizeof(s->device), "%s", f->device);
			snprintf(s->netdev, sizeof(s->netdev), "%s", f->netdev);
		} else if (f->status > s->status) {
			s->status = f->status;
		}
		if (f->has_ratio && (!s->has_ratio || f->ratio > s->ratio)) {
			s->has_ratio = true;
			s->ratio = f->ratio;
		}
	}
	return 0;
}

static int add_findings(struct rctl_fleet_host *fh, const struct rctl_report *r)
{
	uint32_t i, n = r->n - r->count[RCTL_PASS];

	if (!n)
		return 0;
	fh->f = malloc(n * sizeof(*fh->f));
	if (!fh->f)
		return -ENOMEM;
	for (i = 0; i < r->n; i++)
		if (r->f[i].status != RCTL_PASS)
			fh->f[fh->n_f++] = r->f[i];
	return 0;
}

static void fill_cells(struct rctl_fleet_host *fh, const struct rctl_report *r,
		       unsigned int areas, bool deltas)
{
	uint32_t i;
	int a;

	for (a = 0; a < RCTL_AREA_N; a++)
		fh->area[a].ran = (areas & (1u << a)) && (deltas || a != RCTL_AREA_COUNTERS);
	for (i = 0; i < r->n; i++) {
		struct rctl_fleet_cell *c = &fh->area[r->f[i].area];
		/* a consequence or a driver limit judges its area as a pass (rules.h) */
		enum rctl_status st = rctl_finding_counted(&r->f[i]) ? r->f[i].status : RCTL_PASS;

		if (!c->n++ || st > c->worst) {
			c->worst = st;
			c->first = r->f[i].id;
		}
	}
}

static int add_links(struct rctl_fleet_host *fh, const struct rctl_host *h, const char *filter)
{
	struct rctl_judge j = { .h = h, .filter = filter };
	uint32_t di = 0, pi = 0, n = 0;
	struct rctl_fleet_link *l;
	struct rctl_target t;

	while (rctl_target_next(&j, &t, &di, &pi))
		n++;
	if (!n)
		return 0;
	fh->links = calloc(n, sizeof(*fh->links));
	if (!fh->links)
		return -ENOMEM;
	di = pi = 0;
	while (fh->n_links < n && rctl_target_next(&j, &t, &di, &pi)) {
		l = &fh->links[fh->n_links++];
		snprintf(l->device, sizeof(l->device), "%s", t.dev->name);
		l->port = t.port->port;
		snprintf(l->family, sizeof(l->family), "%s %s", t.dev->driver,
			 t.dev->driver_version[0] ? "out-of-tree" : "inbox");
		if (!t.nd)
			continue;
		snprintf(l->netdev, sizeof(l->netdev), "%s", t.nd->name);
		if (!t.nd->lldp.st.ok)
			continue;
		l->has_peer = true;
		snprintf(l->sw, sizeof(l->sw), "%s", t.nd->lldp.system_name[0] ?
			 t.nd->lldp.system_name : t.nd->lldp.chassis_id);
		snprintf(l->sw_port, sizeof(l->sw_port), "%s", t.nd->lldp.port_id);
		snprintf(l->chassis_id, sizeof(l->chassis_id), "%s", t.nd->lldp.chassis_id);
		snprintf(l->source, sizeof(l->source), "%s", t.nd->lldp.source);
	}
	return 0;
}

static void host_free(struct rctl_fleet_host *fh)
{
	free(fh->f);
	free(fh->series);
	free(fh->links);
}

static struct rctl_fleet_host *new_host(struct rctl_fleet *fl)
{
	if (fl->n == fl->cap) {
		uint32_t cap = fl->cap ? fl->cap * 2 : 64;
		struct rctl_fleet_host *v = realloc(fl->hosts, cap * sizeof(*v));

		if (!v)
			return NULL;
		fl->hosts = v;
		fl->cap = cap;
	}
	return memset(&fl->hosts[fl->n], 0, sizeof(fl->hosts[0]));
}

int rctl_fleet_add_host(struct rctl_fleet *fl, const char *file, const struct rctl_host *h,
			const struct rctl_fleet_judge *j)
{
	struct rctl_fleet_host *fh = new_host(fl);
	struct rctl_report r;
	int ret;

	if (!fh)
		return -ENOMEM;
	rctl_judge_rules(h, j->in, j->areas, j->filter, j->rules, j->n_rules, &r);
	if (j->warn && j->crit)
		rctl_report_ratio_ranges(&r, j->warn, j->crit);
	snprintf(fh->file, sizeof(fh->file), "%s", file);
	snprintf(fh->hostname, sizeof(fh->hostname), "%s", h->hostname);
	fh->time = h->time;
	fh->sample_interval_s = h->sample_interval_s;
	fh->exit = rctl_report_exit(&r);
	memcpy(fh->count, r.count, sizeof(fh->count));
	fill_cells(fh, &r, j->areas, rctl_host_has_deltas(h));
	ret = r.oom ? -ENOMEM : 0;
	ret = ret ?: add_findings(fh, &r) ?: add_series(fh, &r) ?: add_links(fh, h, j->filter) ?:
	      rctl_cmp_add_host(&fl->cmp, h, file);
	rctl_report_free(&r);
	if (ret) {
		host_free(fh);
		return ret;
	}
	fl->n++;
	return 0;
}

int rctl_fleet_add_file(struct rctl_fleet *fl, const char *file, const struct rctl_fleet_judge *j)
{
	struct rctl_err e = { 0 };
	struct rctl_host h;
	int ret;

	if (rctl_snapshot_load(file, &h, &e))
		return rctl_cmp_add_bad(&fl->cmp, file, e.msg);
	ret = rctl_fleet_add_host(fl, file, &h, j);
	rctl_host_free(&h);
	return ret;
}

void rctl_fleet_free(struct rctl_fleet *fl)
{
	uint32_t i;

	for (i = 0; i < fl->n; i++)
		host_free(&fl->hosts[i]);
	free(fl->hosts);
	rctl_cmp_free(&fl->cmp);
	memset(fl, 0, sizeof(*fl));
}

/* ---- age and the fleet's status -------------------------------------- */

const char *rctl_fleet_time(int64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (t <= 0 || !gmtime_r(&tt, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		return NULL;
	return buf;
}

bool rctl_fleet_stale(const struct rctl_fleet_host *h, int64_t now, double max_age_s)
{
	return h->time <= 0 || (double)(now - h->time) > max_age_s;
}

enum rctl_status rctl_fleet_exit_status(int exit)
{
	static const enum rctl_status of[] = {
		[RCTL_EXIT_OK] = RCTL_PASS, [RCTL_EXIT_WARN] = RCTL_WARN,
		[RCTL_EXIT_FAIL] = RCTL_FAIL, [RCTL_EXIT_UNKNOWN] = RCTL_UNKNOWN,
	};

	return exit >= 0 && exit <= RCTL_EXIT_UNKNOWN ? of[exit] : RCTL_UNKNOWN;
}

const struct rctl_finding *rctl_fleet_first(const struct rctl_fleet_host *h)
{
	enum rctl_status worst = rctl_fleet_exit_status(h->exit);
	uint32_t i;

	for (i = 0; worst != RCTL_PASS && i < h->n_f; i++)
		if (h->f[i].status == worst && rctl_finding_counted(&h->f[i]))
			return &h->f[i];
	return NULL;
}

const char *rctl_fleet_cell_word(const struct rctl_fleet_cell *c)
{
	static const char *const word[] = {
		[RCTL_PASS] = "ok", [RCTL_WARN] = "warn", [RCTL_UNKNOWN] = "unknown",
		[RCTL_FAIL] = "FAIL",
	};

	return !c->ran ? "skip" : !c->n ? "-" : word[c->worst];
}

int rctl_fleet_exit(const struct rctl_fleet *fl, int64_t now, double max_age_s)
{
	static const int exit_of[] = {
		[RCTL_PASS] = RCTL_EXIT_OK, [RCTL_WARN] = RCTL_EXIT_WARN,
		[RCTL_UNKNOWN] = RCTL_EXIT_UNKNOWN, [RCTL_FAIL] = RCTL_EXIT_FAIL,
	};
	enum rctl_status worst = fl->cmp.n_bad || !fl->n ? RCTL_UNKNOWN : RCTL_PASS;
	uint32_t i;

	for (i = 0; i < fl->n; i++) {
		enum rctl_status s = rctl_fleet_exit_status(fl->hosts[i].exit);

		if (s < RCTL_WARN && rctl_fleet_stale(&fl->hosts[i], now, max_age_s))
			s = RCTL_WARN;
		if (s > worst)
			worst = s;
	}
	return exit_of[worst];
}

static int host_cmp(const void *a, const void *b)
{
	const struct rctl_fleet_host *x = a, *y = b;
	enum rctl_status sx = rctl_fleet_exit_status(x->exit), sy = rctl_fleet_exit_status(y->exit);
	int c;

	if (sx != sy)
		return sx > sy ? -1 : 1;
	c = strcmp(x->hostname, y->hostname);
	return c ? c : strcmp(x->file, y->file);
}

void rctl_fleet_sort(struct rctl_fleet *fl)
{
	if (fl->n)
		qsort(fl->hosts, fl->n, sizeof(*fl->hosts), host_cmp);
}

static const struct rctl_fleet *newest_fleet;	/* newest_cmp's hosts */

/* By host name, then newest first. */
static int newest_cmp(const void *a, const void *b)
{
	const struct rctl_fleet_host *x = &newest_fleet->hosts[*(const uint32_t *)a];
	const struct rctl_fleet_host *y = &newest_fleet->hosts[*(const uint32_t *)b];
	int c = strcmp(x->hostname, y->hostname);

	if (c)
		return c;
	if (x->time != y->time)
		return x->time > y->time ? -1 : 1;
	return -strcmp(x->file, y->file);
}

int rctl_fleet_newest(const struct rctl_fleet *fl, bool *keep)
{
	uint32_t *ix = malloc((fl->n ? fl->n : 1) * sizeof(*ix));
	uint32_t i;

	if (!ix)
		return -ENOMEM;
	for (i = 0; i < fl->n; i++)
		ix[i] = i;
	newest_fleet = fl;
	if (fl->n)
		qsort(ix, fl->n, sizeof(*ix), newest_cmp);
	for (i = 0; i < fl->n; i++)
		keep[ix[i]] = !i || strcmp(fl->hosts[ix[i]].hostname, fl->hosts[ix[i - 1]].hostname);
	free(ix);
	return 0;
}

/* ---- grouping -------------------------------------------------------- */

struct ent {
	const char *key;
	uint32_t host;
	enum rctl_status st;
	const char *where;
};

struct ents {
	struct ent *v;
	uint32_t n, cap;
};

static int ent_add(struct ents *es, const char *key, uint32_t host, enum rctl_status st,
		   const char *where)
{
	if (es->n == es->cap) {
		uint32_t cap = es->cap ? es->cap * 2 : 256;
		struct ent *v = realloc(es->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		es->v = v;
		es->cap = cap;
	}
	es->v[es->n++] = (struct ent){ .key = key, .host = host, .st = st, .where = where };
	return 0;
}

static int ent_cmp(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	if (x->host != y->host)
		return x->host < y->host ? -1 : 1;
	return strcmp(x->where, y->where);
}

static int host_ents(struct ents *es, const struct rctl_fleet *fl, uint32_t i,
		     enum rctl_fleet_by by)
{
	const struct rctl_fleet_host *h = &fl->hosts[i];
	enum rctl_status st = rctl_fleet_exit_status(h->exit);
	uint32_t k;
	int ret = 0;

	if (by == RCTL_FLEET_BY_RULE) {
		for (k = 0; k < h->n_f && !ret; k++)	/* roots only: consequences and limits count apart */
			if (rctl_finding_counted(&h->f[k]))
				ret = ent_add(es, h->f[k].id, i, h->f[k].status, h->f[k].target);
		return ret;
	}
	if (!h->n_links)
		return ent_add(es, RCTL_FLEET_NO_PORT, i, st, "");
	for (k = 0; k < h->n_links && !ret; k++) {
		const struct rctl_fleet_link *l = &h->links[k];

		if (by == RCTL_FLEET_BY_DRIVER)
			ret = ent_add(es, l->family, i, st, l->device);
		else if (l->has_peer)
			ret = ent_add(es, l->sw, i, st, l->sw_port);
		else
			ret = ent_add(es, RCTL_FLEET_NO_SWITCH, i, st, l->netdev[0] ? l->netdev :
				      l->device);
	}
	return ret;
}

static void append(char *buf, size_t len, const char *s)
{
	size_t n = strlen(buf);

	if (n + 1 < len)
		snprintf(buf + n, len - n, "%s%s", n ? ", " : "", s);
}

/* One group out of es->v[from..to), the entries of one key, sorted by host. */
static int make_group(struct rctl_fleet_group *g, const struct ent *v, uint32_t from,
		      uint32_t to, enum rctl_fleet_by by)
{
	const char **ports = malloc((to - from) * sizeof(*ports));
	struct rctl_fleet_member *m = NULL;
	uint32_t i, np = 0;

	g->m = calloc(to - from, sizeof(*g->m));
	if (!g->m || !ports) {
		free(ports);
		return -ENOMEM;
	}
	snprintf(g->key, sizeof(g->key), "%s", v[from].key);
	for (i = from; i < to; i++) {
		if (i == from || v[i].host != v[i - 1].host) {
			m = &g->m[g->n++];
			m->host = v[i].host;
			m->status = v[i].st;
		} else if (v[i].st > m->status) {
			m->status = v[i].st;
		}
		if (v[i].where[0])
			append(m->where, sizeof(m->where), v[i].where);
		if (by == RCTL_FLEET_BY_SWITCH && v[i].st != RCTL_PASS && v[i].where[0])
			ports[np++] = v[i].where;
	}
	for (i = 0; i < g->n; i++)
		g->count[g->m[i].status]++;
	if (np)
		rctl_fleet_port_ranges(ports, np, g->ports, sizeof(g->ports));
	free(ports);
	return 0;
}

static const struct rctl_fleet *sort_fleet;	/* member_cmp's host names */

static int member_cmp(const void *a, const void *b)
{
	const struct rctl_fleet_member *x = a, *y = b;

	if (x->status != y->status)
		return x->status > y->status ? -1 : 1;
	return strcmp(sort_fleet->hosts[x->host].hostname, sort_fleet->hosts[y->host].hostname);
}

static int group_cmp(const void *a, const void *b)
{
	static const enum rctl_status order[] = { RCTL_FAIL, RCTL_UNKNOWN, RCTL_WARN };
	const struct rctl_fleet_group *x = a, *y = b;
	unsigned int i;

	for (i = 0; i < 3; i++)
		if (x->count[order[i]] != y->count[order[i]])
			return x->count[order[i]] > y->count[order[i]] ? -1 : 1;
	return strcmp(x->key, y->key);
}

int rctl_fleet_groups(const struct rctl_fleet *fl, enum rctl_fleet_by by,
		      struct rctl_fleet_group **out, uint32_t *n_out)
{
	struct rctl_fleet_group *g = NULL;
	struct ents es = { 0 };
	uint32_t i, from, n = 0;
	int ret = 0;

	*out = NULL;
	*n_out = 0;
	if (by == RCTL_FLEET_BY_NONE)
		return 0;
	for (i = 0; i < fl->n && !ret; i++)
		ret = host_ents(&es, fl, i, by);
	if (!ret && es.n) {
		qsort(es.v, es.n, sizeof(*es.v), ent_cmp);
		g = calloc(es.n, sizeof(*g));
		ret = g ? 0 : -ENOMEM;
	}
	for (i = 0, from = 0; !ret && i < es.n; i++)
		if (i + 1 == es.n || strcmp(es.v[i + 1].key, es.v[from].key)) {
			ret = make_group(&g[n++], es.v, from, i + 1, by);
			from = i + 1;
		}
	free(es.v);
	if (ret) {
		rctl_fleet_groups_free(g, n);
		return ret;
	}
	/* qsort has no context argument; the library is not threaded. */
	sort_fleet = fl;
	for (i = 0; i < n; i++)
		qsort(g[i].m, g[i].n, sizeof(*g[i].m), member_cmp);
	if (n)
		qsort(g, n, sizeof(*g), group_cmp);
	*out = g;
	*n_out = n;
	return 0;
}

void rctl_fleet_groups_free(struct rctl_fleet_group *g, uint32_t n)
{
	uint32_t i;

	for (i = 0; g && i < n; i++)
		free(g[i].m);
	free(g);
}

/* ---- switch port ranges ---------------------------------------------- */

/* "Ethernet1/12": prefix length 10, number 12; no trailing digits: -1. */
static long split_num(const char *s, size_t *plen)
{
	size_t n = strlen(s), k = n;

	while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
		k--;
	*plen = k;
	/* at most 9 digits: a number, not an identifier that happens to be digits */
	return k == n || n - k > 9 ? -1 : strtol(s + k, NULL, 10);
}

static int port_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t px, py;
	long nx = split_num(x, &px), ny = split_num(y, &py);
	int c;

	if (nx < 0 || ny < 0 || px != py || strncmp(x, y, px)) {
		c = strncmp(x, y, px < py ? px : py);
		return c ? c : px != py ? (px < py ? -1 : 1) : strcmp(x, y);
	}
	return nx < ny ? -1 : nx > ny;
}

void rctl_fleet_port_ranges(const char *const *names, uint32_t n, char *buf, size_t len)
{
	const char **v = malloc((n ? n : 1) * sizeof(*v));
	uint32_t i, k;
	size_t p, q;
	char item[2 * RCTL_LLDP_ID_LEN];

	buf[0] = '\0';
	if (!v || !len)
		goto out;
	memcpy(v, names, n * sizeof(*v));
	qsort(v, n, sizeof(*v), port_cmp);
	for (i = 0; i < n; i = k) {
		long a = split_num(v[i], &p), b = a;

		/* the run of consecutive numbers with the same prefix (repeats folded) */
		for (k = i + 1; k < n; k++) {
			long c = split_num(v[k], &q);

			if (a < 0 || c < 0 || q != p || strncmp(v[k], v[i], p) || c > b + 1)
				break;
			b = c;
		}
		if (b > a)
			snprintf(item, sizeof(item), "%s-%ld", v[i], b);
		else
			snprintf(item, sizeof(item), "%s", v[i]);
		/* room kept for ", ..." */
		if (strlen(buf) + strlen(item) + 2 + 5 >= len) {
			append(buf, len, "...");
			break;
		}
		append(buf, len, item);
	}
out:
	free(v);
}
