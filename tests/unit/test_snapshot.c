// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Snapshots: every fixture loads, uses only model keys and round-trips;
 * bad snapshots fail with one line; the OFED qos and congestion-control
 * file parsers read the shapes of MLNX_OFED en_sysfs.c, mlx5 cong.c and
 * bnxt_re debugfs.c from a tree given through ROCECTL_SYSFS/ROCECTL_DEBUGFS,
 * and a refused read names kernel lockdown.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "rocectl/collect.h"
#include "rocectl/model_fields.h"
#include "rocectl/snapshot.h"

#define FIXTURES "tests/fixtures/hosts"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	long n;
	char *buf;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, n, f), n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Every key and value of "sub" is in "all": nothing was silently dropped. */
static bool json_subset(const cJSON *sub, const cJSON *all, char *where, size_t len)
{
	const cJSON *it, *o;
	int i = 0;

	if (cJSON_IsObject(sub)) {
		cJSON_ArrayForEach(it, sub) {
			o = cJSON_GetObjectItemCaseSensitive(all, it->string);
			if (!o || !json_subset(it, o, where, len)) {
				if (!o)
					snprintf(where, len, "key '%s' not in the model", it->string);
				return false;
			}
		}
		return true;
	}
	if (cJSON_IsArray(sub)) {
		if (!cJSON_IsArray(all) || cJSON_GetArraySize(sub) != cJSON_GetArraySize(all))
			return snprintf(where, len, "array length"), false;
		cJSON_ArrayForEach(it, sub)
			if (!json_subset(it, cJSON_GetArrayItem(all, i++), where, len))
				return false;
		return true;
	}
	if (!cJSON_Compare(sub, all, true)) {
		snprintf(where, len, "value of '%s'", sub->string ? sub->string : "?");
		return false;
	}
	return true;
}

/* "" anywhere becomes null: unknown, in the style of schema 3. */
static void empty_to_null(cJSON *j)
{
	cJSON *it;

	cJSON_ArrayForEach(it, j) {
		if (cJSON_IsString(it) && !it->valuestring[0])
			it->type = cJSON_NULL;
		else
			empty_to_null(it);
	}
}

/*
 * A fixture of schema 1 or 2 as schema 3 writes it: hostname and time
 * (RFC 3339) at the top, unknown as null. Written here from the man page,
 * not from lib/snapshot.c, so that the two can disagree.
 */
static void to_current_schema(cJSON *doc)
{
	cJSON *host = cJSON_GetObjectItemCaseSensitive(doc, "host");
	cJSON *name = cJSON_DetachItemFromObjectCaseSensitive(host, "hostname");
	cJSON *t = cJSON_DetachItemFromObjectCaseSensitive(host, "time");
	char buf[32];
	time_t tt;

	cJSON_ReplaceItemInObject(doc, "schema_version",
				  cJSON_CreateNumber(RCTL_SNAPSHOT_VERSION));
	if (name)
		cJSON_AddItemToObject(doc, "hostname", name);
	if (t) {
		tt = (time_t)t->valuedouble;
		strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", gmtime(&tt));
		cJSON_AddItemToObject(doc, "time", cJSON_CreateString(buf));
		cJSON_Delete(t);
	}
	empty_to_null(doc);
}

static int n_fixtures;

static void one_fixture(const char *path)
{
	struct rctl_err e = { 0 };
	struct rctl_host h, h2;
	char *text, *text2, *orig, where[256] = "";
	cJSON *jo, *jt;

	assert_int_equal(rctl_snapshot_load(path, &h, &e), 0);
	assert_true(h.n_devs > 0 && h.n_netdevs > 0);
	text = rctl_snapshot_text(&h, true);
	assert_non_null(text);
	assert_int_equal(rctl_snapshot_parse(text, path, &h2, &e), 0);
	text2 = rctl_snapshot_text(&h2, true);
	assert_string_equal(text, text2);

	orig = slurp(path);
	jo = cJSON_Parse(orig);
	jt = cJSON_Parse(text);
	/* An older fixture is written back as the current schema. */
	to_current_schema(jo);
	if (!json_subset(jo, jt, where, sizeof(where)))
		fail_msg("%s: %s", path, where);
	cJSON_Delete(jo);
	cJSON_Delete(jt);
	free(orig);
	cJSON_free(text);
	cJSON_free(text2);
	rctl_host_free(&h);
	rctl_host_free(&h2);
	n_fixtures++;
}

/* Run fn on every fixture; returns how many. */
static int each_fixture(void (*fn)(const char *path))
{
	struct dirent *de;
	char path[PATH_MAX];
	DIR *d = opendir(FIXTURES);
	int files = 0;

	assert_non_null(d);
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n < 6 || strcmp(de->d_name + n - 5, ".json"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", FIXTURES, de->d_name);
		fn(path);
		files++;
	}
	closedir(d);
	return files;
}

static void test_fixtures_round_trip(void **state)
{
	each_fixture(one_fixture);
	assert_true(n_fixtures >= 20);
}

/* What the rules read is where the fixture README says it is. */
static void test_fixture_values(void **state)
{
	struct rctl_err e = { 0 };
	struct rctl_host h;
	struct rctl_netdev *nd;
	uint64_t v = 0;
	uint32_t i, dups = 0;

	assert_int_equal(rctl_snapshot_load(FIXTURES "/fault-dscp26-two-prios.json", &h, &e), 0);
	nd = &h.netdevs[0];
	assert_true(nd->app.st.ok && nd->pfc.st.ok && nd->pfc.pfc_en[3] && !nd->pfc.pfc_en[0]);
	for (i = 0; i < nd->app.n_apps; i++)
		dups += nd->app.apps[i].selector == RCTL_APP_SEL_DSCP &&
			nd->app.apps[i].protocol == 26;
	assert_int_equal(dups, 2);
	assert_true(rctl_cc_get(&nd->cc, "np_cnp_dscp", &v));
	assert_int_equal(v, 48);
	assert_string_equal(h.devs[0].ports[0].cm.roce_mode, "RoCE v2");
	assert_int_equal(h.devs[0].ports[0].cm.roce_tos, 106);
	rctl_host_free(&h);

	assert_int_equal(rctl_snapshot_load(FIXTURES "/fault-debugfs-unreadable.json", &h, &e), 0);
	nd = &h.netdevs[0];
	assert_false(nd->cc.st.ok);
	assert_int_equal(nd->cc.st.err, ENOENT);
	assert_false(rctl_cc_get(&nd->cc, "np_cnp_dscp", &v));
	assert_int_equal(h.n_unread, 1);
	rctl_host_free(&h);
}

/* Schema 1 reads as the same host without stacking; schema 2 keeps it. */
static void test_schema_versions(void **state)
{
	struct rctl_err e = { 0 };
	struct rctl_host h1, h2;
	char *t1, *t2;

	assert_int_equal(rctl_snapshot_load(FIXTURES "/mlx5-upstream-healthy-v1.json", &h1, &e), 0);
	assert_int_equal(rctl_snapshot_load(FIXTURES "/mlx5-upstream-healthy.json", &h2, &e), 0);
	t1 = rctl_snapshot_text(&h1, false);
	t2 = rctl_snapshot_text(&h2, false);
	assert_string_equal(t1, t2);
	assert_non_null(strstr(t1, "{\"schema_version\":4,\"hostname\":\"node11\",\"time\":\""));
	cJSON_free(t1);
	cJSON_free(t2);
	rctl_host_free(&h1);
	rctl_host_free(&h2);

	assert_int_equal(rctl_snapshot_load(FIXTURES "/mlx5-vlan-healthy.json", &h2, &e), 0);
	assert_int_equal(h2.n_netdevs, 2);
	assert_string_equal(h2.netdevs[1].kind, "vlan");
	assert_string_equal(h2.netdevs[1].vlan_lower, "ens1f0np0");
	assert_int_equal(h2.netdevs[1].vlan_id, 100);
	assert_int_equal(h2.netdevs[1].vlan_egress_qos[2], 3);
	rctl_host_free(&h2);
	assert_int_equal(rctl_snapshot_load(FIXTURES "/mlx5-lag-healthy.json", &h2, &e), 0);
	assert_string_equal(h2.netdevs[0].master, "bond0");
	assert_string_equal(h2.netdevs[1].master, "bond0");
	assert_ptr_equal(rctl_bond_of(&h2, &h2.netdevs[1]), &h2.netdevs[2]);
	rctl_host_free(&h2);
}

#define SNAPSHOTS "tests/fixtures/snapshots"

/*
 * load → write gives the file back byte for byte (collect writes text and
 * "\n"), but for the schema_version, which is today's: a host without a
 * capture has no "wire" (schema 4), as in the older documents.
 */
static void same_document(const char *path, struct rctl_host *h)
{
	struct rctl_err e = { 0 };
	char *orig = slurp(path), *text, *v;

	if (rctl_snapshot_load(path, h, &e))
		fail_msg("%s: %s", path, e.msg);
	v = strstr(orig, "\"schema_version\":");
	assert_non_null(v);
	v += strspn(v + 17, " \t") + 17;
	*v = '0' + RCTL_SNAPSHOT_VERSION;
	text = rctl_snapshot_text(h, true);
	assert_non_null(text);
	assert_int_equal(strlen(orig), strlen(text) + 1);
	assert_memory_equal(orig, text, strlen(text));
	cJSON_free(text);
	free(orig);
}

/*
 * Schema 3: what 'rocectl collect' wrote in the lab (rxe) loads and is
 * written back unchanged; the schema 2 fixture and its schema 3 form are one
 * host; a null hostname and time are unknown both ways.
 */
static void test_schema3(void **state)
{
	struct rctl_err e = { 0 };
	struct rctl_host h, h2;
	char *t1, *t2;

	same_document(SNAPSHOTS "/rxe-lab-v3.json", &h);
	assert_string_equal(h.hostname, "lab");
	assert_string_equal(h.devs[0].driver, "rxe");
	assert_string_equal(h.devs[0].fw, "");
	rctl_host_free(&h);

	same_document(SNAPSHOTS "/mlx5-upstream-healthy-v3.json", &h);
	assert_int_equal(h.time, 1764480000);
	assert_int_equal(rctl_snapshot_load(FIXTURES "/mlx5-upstream-healthy.json", &h2, &e), 0);
	t1 = rctl_snapshot_text(&h, false);
	t2 = rctl_snapshot_text(&h2, false);
	assert_string_equal(t1, t2);
	cJSON_free(t1);
	cJSON_free(t2);
	rctl_host_free(&h);
	rctl_host_free(&h2);

	assert_int_equal(rctl_snapshot_parse("{\"schema_version\":3,\"hostname\":null,"
		"\"time\":null,\"kind\":\"rocectl-host-snapshot\",\"host\":{}}", "n", &h, &e), 0);
	assert_string_equal(h.hostname, "");
	assert_int_equal(h.time, 0);
	t1 = rctl_snapshot_text(&h, false);
	assert_non_null(strstr(t1, "{\"schema_version\":4,\"hostname\":null,\"time\":null,"
				    "\"kind\":\"rocectl-host-snapshot\",\"host\":{\"kernel\":null,"));
	cJSON_free(t1);
	rctl_host_free(&h);
}

static void expect_bad(const char *text, const char *needle)
{
	struct rctl_err e = { 0 };
	struct rctl_host h;

	assert_int_equal(rctl_snapshot_parse(text, "bad.json", &h, &e), -EINVAL);
	assert_int_equal(e.errnum, EINVAL);
	assert_null(strchr(e.msg, '\n'));
	assert_true(!strncmp(e.msg, "cannot read snapshot 'bad.json': ", 33));
	if (!strstr(e.msg, needle))
		fail_msg("'%s' lacks '%s'", e.msg, needle);
	assert_int_equal(h.n_devs, 0);
	assert_null(h.devs);
}

#define DOC(host) "{\"schema_version\":1,\"kind\":\"rocectl-host-snapshot\",\"host\":" host "}"
#define DOC3(name, time, host) "{\"schema_version\":3,\"hostname\":" name ",\"time\":" time \
	",\"kind\":\"rocectl-host-snapshot\",\"host\":" host "}"

static void test_bad_snapshots(void **state)
{
	char *orig = slurp(FIXTURES "/mlx5-upstream-healthy.json");

	expect_bad("", "not valid JSON");
	expect_bad("hello", "not valid JSON");
	expect_bad("[1,2]", "not a rocectl host snapshot");
	expect_bad("{\"schema_version\":5,\"kind\":\"rocectl-host-snapshot\",\"host\":{}}",
		   "schema_version 5, expected 1 to 4");
	expect_bad("{\"schema_version\":2.5,\"kind\":\"rocectl-host-snapshot\",\"host\":{}}",
		   "schema_version 2.5, expected 1 to 4");
	expect_bad("{\"schema_version\":1,\"kind\":\"other\",\"host\":{}}",
		   "not a rocectl host snapshot");
	orig[strlen(orig) / 2] = '\0';	/* truncated */
	expect_bad(orig, "the document ends ");
	free(orig);
	expect_bad(DOC("{\"hostname\":7}"), "'hostname' is not a string");
	expect_bad(DOC("{\"time\":\"noon\"}"), "'time' is not an integer");
	expect_bad(DOC3("7", "null", "{}"), "'hostname' is not a string");
	expect_bad(DOC3("null", "1796000000", "{}"), "'time' is not an RFC 3339 UTC time");
	expect_bad(DOC3("null", "\"2026-02-30T00:00:00Z\"", "{}"), "'time' is not an RFC 3339");
	expect_bad(DOC3("null", "\"2026-01-01T00:00:00+01:00\"", "{}"), "'time' is not an RFC");
	expect_bad(DOC3("null", "\"-001-01-01T00:00:00Z\"", "{}"), "'time' is not an RFC");
	expect_bad(DOC3("null", "\"2026-01-01T 0:00:00Z\"", "{}"), "'time' is not an RFC");
	expect_bad(DOC("{\"netdevs\":[{\"mtu\":-1}]}"), "host.netdevs[0]: 'mtu'");
	expect_bad(DOC("{\"netdevs\":[{\"pfc\":{\"ok\":1}}]}"), "'ok' is not a boolean");
	expect_bad(DOC("{\"netdevs\":[{\"pfc\":{\"pfc_en\":[true]}}]}"),
		   "'pfc_en' is not an array of the right length");
	expect_bad(DOC("{\"netdevs\":[{\"ets\":{\"prio_tc\":[0,0,0,300,0,0,0,0]}}]}"),
		   "'prio_tc' holds a bad number");
	expect_bad(DOC("{\"netdevs\":[{\"app\":{\"entries\":{}}}]}"), "'entries' is not an array");
	expect_bad(DOC("{\"netdevs\":[{\"cc\":[]}]}"), "expected an object");
}

/* u64 counters survive exactly, beyond what a double holds. */
static void test_u64_exact(void **state)
{
	struct rctl_err e = { 0 };
	struct rctl_host h;
	char *text;

	assert_int_equal(rctl_snapshot_parse(DOC("{\"netdevs\":[{\"name\":\"x\",\"pfc\":{"
		"\"requests\":[18446744073709551615,9007199254740993,0,0,0,0,0,0]}}]}"),
		"u64", &h, &e), 0);
	assert_true(h.netdevs[0].pfc.requests[0] == UINT64_MAX);
	assert_true(h.netdevs[0].pfc.requests[1] == 9007199254740993ull);
	text = rctl_snapshot_text(&h, false);
	assert_non_null(strstr(text, "[18446744073709551615,9007199254740993,0,"));
	cJSON_free(text);
	rctl_host_free(&h);
}

/*
 * Numbers the old reader got wrong: the 16 digits after a decimal point were
 * quoted ("not valid JSON" for a snapshot rocectl wrote itself), " -1" read
 * as 2^64 - 1, "" as 0, 1e999 and a negative interval were accepted.
 */
static void test_numbers(void **state)
{
	struct rctl_err e = { 0 };
	struct rctl_host h;
	char *text;

	assert_int_equal(rctl_snapshot_parse(DOC("{\"sample_interval_s\":2.0001234567891233}"),
					     "f", &h, &e), 0);
	assert_true(h.sample_interval_s == 2.0001234567891233);
	rctl_host_free(&h);
	assert_int_equal(rctl_snapshot_parse(DOC("{\"sample_interval_s\":0.30000000000000004}"),
					     "f", &h, &e), 0);
	assert_true(h.sample_interval_s == 0.1 + 0.2);
	text = rctl_snapshot_text(&h, false);
	assert_non_null(strstr(text, "\"sample_interval_s\":0.30000000000000004"));
	cJSON_free(text);
	rctl_host_free(&h);
	assert_int_equal(rctl_snapshot_parse(DOC("{\"sample_interval_s\":1.5e-17,"
		"\"time\":1234567890123456}"), "f", &h, &e), 0);
	assert_true(h.sample_interval_s == 1.5e-17);
	rctl_host_free(&h);

	expect_bad(DOC("{\"netdevs\":[{\"pfc\":{\"requests\":[\" -1\",0,0,0,0,0,0,0]}}]}"),
		   "'requests' holds a bad number");
	expect_bad(DOC("{\"netdevs\":[{\"buffer\":{\"total_size\":\"\"}}]}"),
		   "'total_size' is not an integer in range");
	expect_bad(DOC("{\"netdevs\":[{\"buffer\":{\"total_size\":\" 7\"}}]}"),
		   "'total_size' is not an integer in range");
	expect_bad(DOC("{\"netdevs\":[{\"buffer\":{\"total_size\":1e999}}]}"),
		   "'total_size' is not an integer in range");
	expect_bad(DOC("{\"netdevs\":[{\"buffer\":{\"total_size\":18446744073709551616}}]}"),
		   "'total_size' is not an integer in range");
	expect_bad(DOC("{\"time\":\"1e3\"}"), "'time' is not an integer");
	expect_bad(DOC("{\"sample_interval_s\":-1}"),
		   "'sample_interval_s' is not a finite number >= 0");
	expect_bad(DOC("{\"sample_interval_s\":1e999}"),
		   "'sample_interval_s' is not a finite number >= 0");
}

/* xorshift64*: the property test's numbers, reproducible. */
static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return rnd_state * 2685821657736338717ull;
}

/* Any u64 (often near 2^53 and 2^64), any finite double >= 0 of any exponent. */
static uint64_t rnd_u64(void)
{
	static const uint64_t edges[] = { 0, 1, (1ull << 53) - 1, (1ull << 53) + 1,
					  UINT64_MAX, UINT64_MAX - 1, 999999999999999ull };
	uint64_t r = rnd();

	return r % 4 ? rnd() >> (r % 64) : edges[r % (sizeof(edges) / sizeof(edges[0]))];
}

static double rnd_dbl(void)
{
	double d;
	uint64_t bits;

	do {
		bits = rnd() & ~(1ull << 63);
		memcpy(&d, &bits, sizeof(d));
	} while (!isfinite(d));
	return rnd() % 3 ? d : (double)(rnd() % 1000) / 10.0 + 0.1 + 0.2;
}

/* Every u64 and double of p, through its schema, to random values. */
static void perturb(const struct rctl_schema *s, char *p)
{
	const struct rctl_field *f;
	uint32_t i, n;

	for (f = s->fields; f->key; f++) {
		char *v = p + f->off;

		switch (f->type) {
		case FT_U64: *(uint64_t *)v = rnd_u64(); break;
		case FT_DBL: *(double *)v = rnd_dbl(); break;
		case FT_U64V:
			for (i = 0; i < f->size / 8; i++)
				((uint64_t *)v)[i] = rnd_u64();
			break;
		case FT_OBJ: perturb(f->sub, v); break;
		case FT_ARR:
			n = *(uint32_t *)(p + f->count_off);
			for (i = 0; i < n; i++)
				perturb(f->sub, *(char **)v + (size_t)i * f->sub->size);
			break;
		default: break;
		}
	}
}

/* 20 rounds of one fixture with perturbed numbers: write → read → write is identical. */
static void perturbed_round_trips(const char *path)
{
	struct rctl_err e = { 0 };
	struct rctl_host h, h2;
	char *t1, *t2;
	int round;

	for (round = 0; round < 20; round++) {
		assert_int_equal(rctl_snapshot_load(path, &h, &e), 0);
		perturb(&rctl_host_schema, (char *)&h);
		t1 = rctl_snapshot_text(&h, round % 2);
		if (rctl_snapshot_parse(t1, path, &h2, &e))
			fail_msg("%s round %d: %s", path, round, e.msg);
		t2 = rctl_snapshot_text(&h2, round % 2);
		assert_string_equal(t1, t2);
		assert_memory_equal(&h.sample_interval_s, &h2.sample_interval_s, sizeof(double));
		cJSON_free(t1);
		cJSON_free(t2);
		rctl_host_free(&h);
		rctl_host_free(&h2);
	}
}

/* Property: every fixture, its u64s and doubles perturbed, round-trips exactly. */
static void test_numbers_round_trip(void **state)
{
	assert_true(each_fixture(perturbed_round_trips) >= 20);
}

/* A directory as --input: said so, not "read error or too large". */
static void test_load_directory(void **state)
{
	struct rctl_err e = { 0 };
	struct rctl_host h;

	assert_int_equal(rctl_snapshot_load(FIXTURES, &h, &e), -EISDIR);
	assert_string_equal(e.msg, "cannot read snapshot '" FIXTURES "': it is a directory");
}

/* ---- file parsers on a tree shaped like an OFED / upstream host ------ */

static char tree[] = "/tmp/rocectl-unit-XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX], *s;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tree, rel);
	for (s = path + strlen(tree) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void host_one(struct rctl_host *h, const char *ifname, const char *driver,
		     const char *pci)
{
	struct rctl_device *d;
	struct rctl_netdev *nd;

	memset(h, 0, sizeof(*h));
	d = rctl_arr_push(&h->devs, &h->n_devs, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "mlx5_0");
	snprintf(d->driver, sizeof(d->driver), "%s", driver);
	rctl_arr_push(&d->ports, &d->n_ports, sizeof(*d->ports));
	d->ports[0].port = 1;
	snprintf(d->ports[0].netdev, sizeof(d->ports[0].netdev), "%s", ifname);
	nd = rctl_arr_push(&h->netdevs, &h->n_netdevs, sizeof(*nd));
	snprintf(nd->name, sizeof(nd->name), "%s", ifname);
	snprintf(nd->pci, sizeof(nd->pci), "%s", pci);
}

static void test_ofed_sysfs(void **state)
{
	struct rctl_err e = { 0 };
	struct rctl_host h;
	struct rctl_netdev *nd;
	char rel[128];
	uint64_t v;
	int p;

	assert_non_null(mkdtemp(tree));
	setenv("ROCECTL_SYSFS", tree, 1);
	for (p = 0; p < 8; p++) {
		snprintf(rel, sizeof(rel), "class/net/eth9/ecn/roce_rp/enable/%d", p);
		put(rel, p == 3 ? "1\n" : "0\n");
		snprintf(rel, sizeof(rel), "class/net/eth9/ecn/roce_np/enable/%d", p);
		put(rel, p == 3 || p == 5 ? "1\n" : "0\n");
	}
	put("class/net/eth9/ecn/roce_np/cnp_dscp", "48\n");		/* flat */
	put("class/net/eth9/ecn/roce_np/params/cnp_802p_prio", "6\n");	/* params/ */
	put("class/net/eth9/ecn/roce_rp/rpg_gd", "11\n");
	put("class/net/eth9/qos/trust", "dscp\n");
	put("class/net/eth9/qos/dscp2prio", "dscp2prio mapping:\n"
	    "\tprio:0 dscp:07,06,05,04,03,02,01,00,\n"
	    "\tprio:3 dscp:31,30,29,28,27,26,25,24,\n"
	    "\tprio:6 dscp:55,54,53,52,51,50,49,48,\n");
	put("class/net/eth9/qos/prio2buffer", "Priority\tBuffer\n0\t\t0\n3\t\t1\n6\t\t0\n");
	put("class/net/eth9/qos/buffer_size", "Port buffer size = 262016\n"
	    "Spare buffer size = 0\nBuffer\tSize\txoff_threshold\txon_threshold\n"
	    "0\t130944\t0\t0\n1\t130944\t93312\t77056\n");
	put("class/net/eth9/settings/pfc_stall_prevention", "default\n");

	host_one(&h, "eth9", "mlx5", "0000:3b:00.0");
	nd = &h.netdevs[0];
	assert_int_equal(rctl_cc_collect(&h, &e), 0);
	assert_true(nd->cc.st.ok);
	assert_string_equal(nd->cc.source, "mlx5-sysfs");
	assert_true(nd->cc.enable_known && nd->cc.rp_enable[3] && !nd->cc.rp_enable[5]);
	assert_true(nd->cc.np_enable[3] && nd->cc.np_enable[5] && !nd->cc.np_enable[0]);
	assert_true(rctl_cc_get(&nd->cc, "np_cnp_dscp", &v) && v == 48);
	assert_true(rctl_cc_get(&nd->cc, "np_cnp_prio", &v) && v == 6);
	assert_true(rctl_cc_get(&nd->cc, "rp_gd", &v) && v == 11);
	assert_false(rctl_cc_get(&nd->cc, "rp_ai_rate", &v));	/* absent: not zero */

	assert_int_equal(rctl_qos_collect(&h, &e), 0);
	assert_true(nd->qos.st.ok);
	assert_string_equal(nd->qos.trust, "dscp");
	assert_true(nd->qos.has_dscp2prio);
	assert_int_equal(nd->qos.dscp2prio[26], 3);
	assert_int_equal(nd->qos.dscp2prio[48], 6);
	assert_int_equal(nd->qos.dscp2prio[7], 0);
	assert_true(nd->qos.has_prio2buffer && nd->qos.prio2buffer[3] == 1);
	assert_true(nd->qos.has_buffer_size && nd->qos.buffer_size[1] == 130944);
	assert_string_equal(nd->qos.pfc_stall_prevention, "default");
	assert_true(h.procs.ok);
	rctl_host_free(&h);
}

/* Upstream: debugfs cc_params readable; then unmounted -> unknown, with why. */
static void test_debugfs(void **state)
{
	struct rctl_err e = { 0 };
	struct rctl_host h;
	struct rctl_netdev *nd;
	char dbg[PATH_MAX];
	uint64_t v;

	snprintf(dbg, sizeof(dbg), "%s/debug", tree);
	setenv("ROCECTL_DEBUGFS", dbg, 1);
	put("debug/mlx5/0000:3b:00.0/cc_params/np_cnp_dscp", "48\n");
	put("debug/mlx5/0000:3b:00.0/cc_params/rp_max_rate", "0\n");

	host_one(&h, "eth7", "mlx5", "0000:3b:00.0");
	nd = &h.netdevs[0];
	assert_int_equal(rctl_cc_collect(&h, &e), 0);
	assert_true(nd->cc.st.ok);
	assert_string_equal(nd->cc.source, "mlx5-debugfs");
	assert_false(nd->cc.enable_known);
	assert_true(rctl_cc_get(&nd->cc, "np_cnp_dscp", &v) && v == 48);
	assert_true(rctl_cc_get(&nd->cc, "rp_max_rate", &v) && v == 0);
	rctl_host_free(&h);

	host_one(&h, "eth7", "mlx5", "0000:af:00.1");	/* no such cc_params */
	nd = &h.netdevs[0];
	assert_int_equal(rctl_cc_collect(&h, &e), 0);
	assert_false(nd->cc.st.ok);
	assert_int_equal(nd->cc.st.err, ENOENT);
	/* A temp dir is not debugfs: the reason says so, it is not "disabled". */
	assert_string_equal(nd->cc.st.reason, "debugfs not mounted at /sys/kernel/debug");
	assert_int_equal(h.n_unread, 1);
	assert_false(nd->qos.st.ok);
	rctl_host_free(&h);

	host_one(&h, "eth7", "rxe", "");
	assert_int_equal(rctl_cc_collect(&h, &e), 0);
	assert_int_equal(h.netdevs[0].cc.st.err, EOPNOTSUPP);
	rctl_host_free(&h);
}

/* Inbox bnxt_re: cc_config read, normalized to the names the rules use. */
static void test_bnxt_inbox_debugfs(void **state)
{
	static const char *const files[][2] = {
		{ "enable_cc", "1\n" }, { "tos_ecn", "1\n" }, { "tos_dscp", "26\n" },
		{ "alt_vlan_pcp", "6\n" }, { "alt_vlan_dscp", "48\n" }, { "cc_mode", "1\n" },
		{ "rtt", "40\n" },
	};
	struct rctl_err e = { 0 };
	struct rctl_host h;
	struct rctl_cc *cc;
	char rel[PATH_MAX];
	uint64_t v;
	size_t i;

	snprintf(rel, sizeof(rel), "%s/debug", tree);
	setenv("ROCECTL_DEBUGFS", rel, 1);
	snprintf(rel, sizeof(rel), "%s/config", tree);	/* no bnxt_re/ in it: inbox */
	setenv("ROCECTL_CONFIGFS", rel, 1);
	mkdir(rel, 0755);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(rel, sizeof(rel), "debug/bnxt_re/0000:41:00.0/cc_config/%s", files[i][0]);
		put(rel, files[i][1]);
	}
	host_one(&h, "ens2f0np0", "bnxt_re", "0000:41:00.0");
	cc = &h.netdevs[0].cc;
	assert_int_equal(rctl_cc_collect(&h, &e), 0);
	assert_true(cc->st.ok);
	assert_string_equal(cc->source, "bnxt_re-debugfs");
	assert_non_null(strstr(cc->path, "/bnxt_re/0000:41:00.0/cc_config"));
	assert_true(rctl_cc_get(cc, "ecn_enable", &v) && v == 1);
	assert_true(rctl_cc_get(cc, "roce_dscp", &v) && v == 26);
	assert_true(rctl_cc_get(cc, "np_cnp_prio", &v) && v == 6);
	assert_true(rctl_cc_get(cc, "np_cnp_dscp", &v) && v == 48);
	assert_false(cc->enable_known);		/* no per-priority enables on bnxt */
	rctl_host_free(&h);

	/* another function without cc_config: unknown, and why */
	host_one(&h, "ens2f0np0", "bnxt_re", "0000:41:00.1");
	cc = &h.netdevs[0].cc;
	assert_int_equal(rctl_cc_collect(&h, &e), 0);
	assert_false(cc->st.ok);
	assert_int_equal(cc->st.err, ENOENT);
	assert_non_null(strstr(cc->st.reason, "before Linux 6.15"));
	rctl_host_free(&h);
}

/* mlx5 cc_params refused: lockdown is named when it is on, root otherwise. */
static void test_lockdown_reason(void **state)
{
	char buf[160];

	put("kernel/security/lockdown", "none [integrity] confidentiality\n");
	assert_non_null(rctl_cc_denied_reason(-EPERM, buf, sizeof(buf)));
	assert_non_null(strstr(buf, "kernel lockdown (integrity"));
	assert_non_null(strstr(buf, "0600"));
	put("kernel/security/lockdown", "[none] integrity confidentiality\n");
	assert_string_equal(rctl_cc_denied_reason(-EACCES, buf, sizeof(buf)), "needs root");
	assert_string_equal(rctl_cc_denied_reason(EPERM, buf, sizeof(buf)),
			    "not permitted (not root)");
	assert_null(rctl_cc_denied_reason(-ENOENT, buf, sizeof(buf)));
}

static int cleanup(void **state)
{
	char cmd[PATH_MAX + 16];

	if (strchr(tree, 'X'))
		return 0;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree);
	return system(cmd) ? -1 : 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures_round_trip),
		cmocka_unit_test(test_fixture_values),
		cmocka_unit_test(test_schema_versions),
		cmocka_unit_test(test_schema3),
		cmocka_unit_test(test_bad_snapshots),
		cmocka_unit_test(test_u64_exact),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_numbers_round_trip),
		cmocka_unit_test(test_load_directory),
		cmocka_unit_test(test_ofed_sysfs),
		cmocka_unit_test(test_debugfs),
		cmocka_unit_test(test_bnxt_inbox_debugfs),
		cmocka_unit_test(test_lockdown_reason),
	};

	return cmocka_run_group_tests(tests, NULL, cleanup);
}
