// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fleet matrix: reach's JSON documents from N hosts (each probing the
 * same target list, through pdsh, clush or Ansible) read back into one
 * source × target grid, failing pairs first. Pure code over cJSON.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "rocectl/json.h"
#include "rocectl/reach.h"

static int label_index(char ***v, unsigned int *n, const char *s)
{
	unsigned int i;
	char **nv, *d;

	for (i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return (int)i;
	d = strdup(s);
	nv = d ? realloc(*v, (*n + 1) * sizeof(*nv)) : NULL;
	if (!nv) {
		free(d);
		return -ENOMEM;
	}
	nv[*n] = d;
	*v = nv;
	return (int)(*n)++;
}

static const char *jstr(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static uint64_t jnum(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) && v->valuedouble > 0 ? (uint64_t)v->valuedouble : 0;
}

static const cJSON *jobj(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsObject(v) ? v : NULL;
}

/* The row label: the address the probes left from, else the host name. */
static const char *source_of(const cJSON *doc, const cJSON *items, const char *name)
{
	const cJSON *it;
	const char *s;

	cJSON_ArrayForEach(it, items) {
		s = jstr(jobj(it, "path"), "src_ip");
		if (s && *s)
			return s;
	}
	s = jstr(doc, "hostname");
	return s ? s : name;
}

static void fill_pair(struct rctl_pair *p, const cJSON *it)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(it, "finding");
	const cJSON *rtt = jobj(jobj(jobj(it, "send"), "rtt_ns"), "percentiles");
	const char *v = jstr(it, "verdict"), *id = NULL, *msg = NULL;

	if (cJSON_IsObject(f)) {
		id = jstr(f, "id");
		msg = jstr(f, "message");
	} else if (cJSON_IsString(f)) {
		id = f->valuestring;
		msg = jstr(it, "message");
	}
	if (!msg)
		msg = jstr(it, "error");
	p->present = true;
	snprintf(p->verdict, sizeof(p->verdict), "%s",
		 v && (!strcmp(v, "ok") || !strcmp(v, "fail")) ? v : "unknown");
	snprintf(p->finding, sizeof(p->finding), "%s", id ? id : "");
	snprintf(p->message, sizeof(p->message), "%s", msg ? msg : "");
	p->path_mtu = jnum(jobj(it, "path"), "path_mtu");
	p->rtt_p50_ns = jnum(rtt, "50");
}

static int add_pair(struct rctl_matrix *m, int src, const cJSON *it)
{
	const char *t = jstr(it, "target");
	struct rctl_pair *np;
	int dst;

	if (!t)
		return -EINVAL;
	dst = label_index(&m->targets, &m->ntgt, t);
	if (dst < 0)
		return dst;
	np = realloc(m->pairs, (m->npairs + 1) * sizeof(*np));
	if (!np)
		return -ENOMEM;
	m->pairs = np;
	np = &m->pairs[m->npairs++];
	memset(np, 0, sizeof(*np));
	np->src = (unsigned int)src;
	np->dst = (unsigned int)dst;
	fill_pair(np, it);
	return 0;
}

/* A document that fails half-way leaves nothing behind: labels and pairs go. */
static void drop_since(struct rctl_matrix *m, unsigned int nsrc, unsigned int ntgt,
		       unsigned int npairs)
{
	while (m->nsrc > nsrc)
		free(m->sources[--m->nsrc]);
	while (m->ntgt > ntgt)
		free(m->targets[--m->ntgt]);
	m->npairs = npairs;
}

static int add_one(struct rctl_matrix *m, cJSON *doc, const char *name)
{
	unsigned int nsrc = m->nsrc, ntgt = m->ntgt, npairs = m->npairs;
	cJSON *one = NULL;
	const cJSON *items, *it;
	int src, ret = 0;

	if (!cJSON_IsObject(doc))
		return -EINVAL;
	items = cJSON_GetObjectItemCaseSensitive(doc, "targets");
	if (!cJSON_IsArray(items)) {	/* one target: the document is its object */
		one = cJSON_CreateArray();
		if (!one || !jstr(doc, "target") ||
		    !cJSON_AddItemReferenceToArray(one, doc))
			ret = -EINVAL;
		items = one;
	}
	src = ret ? ret : label_index(&m->sources, &m->nsrc, source_of(doc, items, name));
	if (src < 0)
		ret = src;
	for (it = ret ? NULL : items->child; it && !ret; it = it->next)
		ret = add_pair(m, src, it);
	cJSON_Delete(one);
	if (ret)
		drop_since(m, nsrc, ntgt, npairs);
	return ret;
}

int rctl_matrix_add_bad(struct rctl_matrix *m, const char *name, const char *reason)
{
	struct rctl_matrix_bad *b = realloc(m->bad, (m->nbad + 1) * sizeof(*b));

	if (!b)
		return -ENOMEM;
	m->bad = b;
	b = &m->bad[m->nbad++];
	snprintf(b->name, sizeof(b->name), "%s", name);
	snprintf(b->reason, sizeof(b->reason), "%s", reason);
	return 0;
}

/* "strict": the strict reader's word on a document that cJSON took, else NULL. */
static int add_unreadable(struct rctl_matrix *m, const char *p, const char *name,
			  const char *host, unsigned int k, const char *strict)
{
	const char *h, *why;
	char who[300], reason[300];
	size_t hl;

	if (rctl_pdsh_line(p, &h, &hl, &why)) {
		snprintf(who, sizeof(who), "%.*s", (int)hl, h);
		snprintf(reason, sizeof(reason), "'%s': pdsh: %s: %.*s", name, who,
			 (int)strcspn(why, "\n"), why);
	} else if (strict) {
		snprintf(who, sizeof(who), "%s", host);
		snprintf(reason, sizeof(reason), "%s", strict);
	} else {
		snprintf(who, sizeof(who), "%s", host);
		snprintf(reason, sizeof(reason), "'%s': document %u is not a JSON document of rocectl reach",
			 name, k);
	}
	return rctl_matrix_add_bad(m, who, reason);
}

int rctl_matrix_add_doc(struct rctl_matrix *m, const char *text,
			const char *name, struct rctl_err *e)
{
	const char *p = text, *end = NULL, *start;
	unsigned int k = 0, bad = m->nbad;
	struct rctl_err je = { 0 };
	char host[256];
	cJSON *doc;
	int ret;

	for (;;) {
		p += strspn(p, " \t\r\n");
		if (!*p)
			break;
		start = p;
		snprintf(host, sizeof(host), "%s", name);
		p = rctl_pdsh_prefix(p, host, sizeof(host));
		k++;
		je.msg[0] = '\0';
		doc = strncmp(start, "pdsh@", 5) ? cJSON_ParseWithOpts(p, &end, 0) : NULL;
		if (doc) {	/* where this document ends; then the document strictly */
			cJSON_Delete(doc);
			if (rctl_json_read(p, (size_t)(end - p), "reach results", name, &doc, &je))
				doc = NULL;
		}
		ret = doc ? add_one(m, doc, host) : -EINVAL;
		cJSON_Delete(doc);
		if (ret == -EINVAL)
			ret = add_unreadable(m, start, name, host, k, je.msg[0] ? je.msg : NULL);
		if (ret)
			return rctl_err_strerror(e, -ret, "cannot read '%s'", name);
		p = m->nbad > bad ? rctl_pdsh_next_doc(start) : end;
		bad = m->nbad;
	}
	if (!k) {
		char reason[300];

		snprintf(reason, sizeof(reason), "'%s' holds no JSON document", name);
		if (rctl_matrix_add_bad(m, name, reason))
			return rctl_err_strerror(e, ENOMEM, "cannot read '%s'", name);
	}
	return 0;
}

static int rank(const struct rctl_pair *p)
{
	return !p->present ? 3 : !strcmp(p->verdict, "fail") ? 0 :
	       !strcmp(p->verdict, "ok") ? 2 : 1;
}

static const struct rctl_matrix *sort_m;

static int pair_cmp(const void *a, const void *b)
{
	const struct rctl_pair *x = *(struct rctl_pair *const *)a;
	const struct rctl_pair *y = *(struct rctl_pair *const *)b;
	int rx = rank(x), ry = rank(y);

	if (rx != ry)
		return rx - ry;
	if (x->src != y->src)
		return (int)sort_m->row_rank[x->src] - (int)sort_m->row_rank[y->src];
	return (int)sort_m->col_rank[x->dst] - (int)sort_m->col_rank[y->dst];
}

/* Indexes sorted by failures, most first; ties keep the order of appearance. */
static void order_by(unsigned int *order, unsigned int *rank_of,
		     const unsigned int *fails, unsigned int n)
{
	unsigned int i, j, t;

	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = 1; i < n; i++)	/* insertion sort: stable */
		for (j = i; j > 0 && fails[order[j - 1]] < fails[order[j]]; j--) {
			t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (i = 0; i < n; i++)
		rank_of[order[i]] = i;
}

int rctl_matrix_finish(struct rctl_matrix *m)
{
	unsigned int *rf = calloc(m->nsrc + 1, sizeof(*rf));
	unsigned int *cf = calloc(m->ntgt + 1, sizeof(*cf));
	unsigned int i;
	int ret = -ENOMEM;

	m->grid = calloc((size_t)m->nsrc * m->ntgt + 1, sizeof(*m->grid));
	m->order = calloc(m->npairs + 1, sizeof(*m->order));
	m->row_order = calloc(m->nsrc + 1, sizeof(unsigned int));
	m->row_rank = calloc(m->nsrc + 1, sizeof(unsigned int));
	m->col_order = calloc(m->ntgt + 1, sizeof(unsigned int));
	m->col_rank = calloc(m->ntgt + 1, sizeof(unsigned int));
	if (!rf || !cf || !m->grid || !m->order || !m->row_order || !m->row_rank ||
	    !m->col_order || !m->col_rank)
		goto out;
	m->nfailed = 0;
	for (i = 0; i < m->npairs; i++)	/* a later document wins */
		m->grid[(size_t)m->pairs[i].src * m->ntgt + m->pairs[i].dst] = &m->pairs[i];
	for (i = 0; i < m->npairs; i++) {
		const struct rctl_pair *p = &m->pairs[i];

		if (m->grid[(size_t)p->src * m->ntgt + p->dst] != p || rank(p) >= 2)
			continue;
		rf[p->src]++;
		cf[p->dst]++;
	}
	order_by(m->row_order, m->row_rank, rf, m->nsrc);
	order_by(m->col_order, m->col_rank, cf, m->ntgt);
	m->npresent = 0;
	for (i = 0; i < (size_t)m->nsrc * m->ntgt; i++)
		if (m->grid[i]) {
			m->order[m->npresent++] = m->grid[i];
			m->nfailed += strcmp(m->grid[i]->verdict, "ok") != 0;
		}
	sort_m = m;
	qsort(m->order, m->npresent, sizeof(*m->order), pair_cmp);
	ret = 0;
out:
	free(rf);
	free(cf);
	return ret;
}

const struct rctl_pair *rctl_matrix_at(const struct rctl_matrix *m,
				       unsigned int src, unsigned int dst)
{
	return src < m->nsrc && dst < m->ntgt ? m->grid[(size_t)src * m->ntgt + dst] : NULL;
}

void rctl_matrix_free(struct rctl_matrix *m)
{
	unsigned int i;

	for (i = 0; i < m->nsrc; i++)
		free(m->sources[i]);
	for (i = 0; i < m->ntgt; i++)
		free(m->targets[i]);
	free(m->sources);
	free(m->targets);
	free(m->pairs);
	free(m->grid);
	free(m->order);
	free(m->row_order);
	free(m->row_rank);
	free(m->col_order);
	free(m->col_rank);
	free(m->bad);
	memset(m, 0, sizeof(*m));
}
