// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Snapshots: the host model ↔ JSON through per-struct field tables. The same
 * tables free the model, so a new field or array is declared in one place.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rocectl/collect.h"
#include "rocectl/snapshot.h"

#define F(st, k, t, m) { .key = k, .type = t, .off = offsetof(st, m), \
			 .size = sizeof(((st *)0)->m) }
#define FA(st, k, m, cnt, s) { .key = k, .type = FT_ARR, .off = offsetof(st, m), \
			       .sub = &s, .count_off = offsetof(st, cnt) }
#define FO(st, k, m, s) { .key = k, .type = FT_OBJ, .off = offsetof(st, m), \
			  .size = sizeof(((st *)0)->m), .sub = &s }
/* The state of a part (model.h struct rctl_part), flat in its object. */
#define FPART(T) F(T, "ok", FT_BOOL, st.ok), F(T, "errno", FT_S32, st.err), \
		 F(T, "reason", FT_STR, st.reason)

static const struct rctl_field gid_fields[] = {
	F(struct rctl_gid, "index", FT_U32, index),
	F(struct rctl_gid, "gid", FT_STR, gid),
	F(struct rctl_gid, "ip", FT_STR, ip),
	F(struct rctl_gid, "type", FT_STR, type),
	F(struct rctl_gid, "netdev", FT_STR, netdev),
	{ 0 }
};
static const struct rctl_schema gid_schema = { "gid", sizeof(struct rctl_gid), gid_fields };

static const struct rctl_field counter_fields[] = {
	F(struct rctl_counter, "name", FT_STR, name),
	F(struct rctl_counter, "value", FT_U64, value),
	F(struct rctl_counter, "delta", FT_U64, delta),
	F(struct rctl_counter, "has_delta", FT_BOOL, has_delta),
	{ 0 }
};
static const struct rctl_schema counter_schema = {
	"counter", sizeof(struct rctl_counter), counter_fields
};

static const struct rctl_field counter_set_fields[] = {
	FPART(struct rctl_counter_set),
	FA(struct rctl_counter_set, "counters", c, n, counter_schema),
	{ 0 }
};
static const struct rctl_schema counter_set_schema = {
	"counter set", sizeof(struct rctl_counter_set), counter_set_fields
};

static const struct rctl_field counter_status_fields[] = {
	F(struct rctl_counter_status, "name", FT_STR, name),
	F(struct rctl_counter_status, "enabled", FT_BOOL, enabled),
	{ 0 }
};
static const struct rctl_schema counter_status_schema = {
	"counter status", sizeof(struct rctl_counter_status), counter_status_fields
};

static const struct rctl_field opt_counters_fields[] = {
	FPART(struct rctl_opt_counters),
	FA(struct rctl_opt_counters, "counters", c, n, counter_status_schema),
	{ 0 }
};
static const struct rctl_schema opt_counters_schema = {
	"optional counters", sizeof(struct rctl_opt_counters), opt_counters_fields
};

static const struct rctl_field cm_fields[] = {
	FPART(struct rctl_cm_cfg),
	F(struct rctl_cm_cfg, "default_roce_mode", FT_STR, roce_mode),
	F(struct rctl_cm_cfg, "default_roce_tos", FT_U32, roce_tos),
	{ 0 }
};
static const struct rctl_schema cm_schema = { "rdma_cm", sizeof(struct rctl_cm_cfg), cm_fields };

static const struct rctl_field pfc_fields[] = {
	FPART(struct rctl_pfc),
	F(struct rctl_pfc, "pfc_cap", FT_U32, pfc_cap),
	F(struct rctl_pfc, "pfc_en", FT_BOOLV, pfc_en),
	F(struct rctl_pfc, "mbc", FT_U32, mbc),
	F(struct rctl_pfc, "delay", FT_U32, delay),
	F(struct rctl_pfc, "requests", FT_U64V, requests),
	F(struct rctl_pfc, "indications", FT_U64V, indications),
	{ 0 }
};
static const struct rctl_schema pfc_schema = { "pfc", sizeof(struct rctl_pfc), pfc_fields };

static const struct rctl_field ets_fields[] = {
	FPART(struct rctl_ets),
	F(struct rctl_ets, "willing", FT_BOOL, willing),
	F(struct rctl_ets, "ets_cap", FT_U32, ets_cap),
	F(struct rctl_ets, "cbs", FT_BOOL, cbs),
	F(struct rctl_ets, "prio_tc", FT_U8V, prio_tc),
	F(struct rctl_ets, "tc_tsa", FT_U8V, tc_tsa),
	F(struct rctl_ets, "tc_tx_bw", FT_U8V, tc_tx_bw),
	{ 0 }
};
static const struct rctl_schema ets_schema = { "ets", sizeof(struct rctl_ets), ets_fields };

static const struct rctl_field app_fields[] = {
	F(struct rctl_app, "selector", FT_U32, selector),
	F(struct rctl_app, "protocol", FT_U32, protocol),
	F(struct rctl_app, "priority", FT_U32, priority),
	{ 0 }
};
static const struct rctl_schema app_schema = { "app", sizeof(struct rctl_app), app_fields };

static const struct rctl_field app_table_fields[] = {
	FPART(struct rctl_app_table),
	FA(struct rctl_app_table, "entries", apps, n_apps, app_schema),
	{ 0 }
};
static const struct rctl_schema app_table_schema = {
	"app table", sizeof(struct rctl_app_table), app_table_fields
};

static const struct rctl_field buffer_fields[] = {
	FPART(struct rctl_dcb_buffer),
	F(struct rctl_dcb_buffer, "prio2buffer", FT_U8V, prio2buffer),
	F(struct rctl_dcb_buffer, "buffer_size", FT_U64V, buffer_size),
	F(struct rctl_dcb_buffer, "total_size", FT_U64, total_size),
	{ 0 }
};
static const struct rctl_schema buffer_schema = {
	"buffer", sizeof(struct rctl_dcb_buffer), buffer_fields
};

static const struct rctl_field dcbx_fields[] = {
	FPART(struct rctl_dcbx),
	F(struct rctl_dcbx, "mode", FT_U32, mode),
	{ 0 }
};
static const struct rctl_schema dcbx_schema = { "dcbx", sizeof(struct rctl_dcbx), dcbx_fields };

static const struct rctl_field maxrate_fields[] = {
	FPART(struct rctl_maxrate),
	F(struct rctl_maxrate, "tc_maxrate", FT_U64V, tc_maxrate),
	{ 0 }
};
static const struct rctl_schema maxrate_schema = {
	"maxrate", sizeof(struct rctl_maxrate), maxrate_fields
};

static const struct rctl_field pause_fields[] = {
	FPART(struct rctl_pause),
	F(struct rctl_pause, "autoneg", FT_BOOL, autoneg),
	F(struct rctl_pause, "rx", FT_BOOL, rx),
	F(struct rctl_pause, "tx", FT_BOOL, tx),
	{ 0 }
};
static const struct rctl_schema pause_schema = { "pause", sizeof(struct rctl_pause), pause_fields };

static const struct rctl_field cc_param_fields[] = {
	F(struct rctl_cc_param, "name", FT_STR, name),
	F(struct rctl_cc_param, "src", FT_STR, src),
	F(struct rctl_cc_param, "value", FT_U64, value),
	{ 0 }
};
static const struct rctl_schema cc_param_schema = {
	"cc param", sizeof(struct rctl_cc_param), cc_param_fields
};

static const struct rctl_field cc_fields[] = {
	FPART(struct rctl_cc),
	F(struct rctl_cc, "source", FT_STR, source),
	F(struct rctl_cc, "path", FT_STR, path),
	F(struct rctl_cc, "enable_known", FT_BOOL, enable_known),
	F(struct rctl_cc, "rp_enable", FT_BOOLV, rp_enable),
	F(struct rctl_cc, "np_enable", FT_BOOLV, np_enable),
	FA(struct rctl_cc, "params", params, n_params, cc_param_schema),
	{ 0 }
};
static const struct rctl_schema cc_schema = { "cc", sizeof(struct rctl_cc), cc_fields };

static const struct rctl_field ofed_qos_fields[] = {
	FPART(struct rctl_ofed_qos),
	F(struct rctl_ofed_qos, "trust", FT_STR, trust),
	F(struct rctl_ofed_qos, "has_dscp2prio", FT_BOOL, has_dscp2prio),
	F(struct rctl_ofed_qos, "dscp2prio", FT_U8V, dscp2prio),
	F(struct rctl_ofed_qos, "has_prio2buffer", FT_BOOL, has_prio2buffer),
	F(struct rctl_ofed_qos, "prio2buffer", FT_U8V, prio2buffer),
	F(struct rctl_ofed_qos, "has_buffer_size", FT_BOOL, has_buffer_size),
	F(struct rctl_ofed_qos, "buffer_size", FT_U64V, buffer_size),
	F(struct rctl_ofed_qos, "pfc_stall_prevention", FT_STR, pfc_stall_prevention),
	{ 0 }
};
static const struct rctl_schema ofed_qos_schema = {
	"ofed qos", sizeof(struct rctl_ofed_qos), ofed_qos_fields
};

static const struct rctl_field port_fields[] = {
	F(struct rctl_port, "port", FT_U32, port),
	F(struct rctl_port, "state", FT_STR, state),
	F(struct rctl_port, "physical_state", FT_STR, phys_state),
	F(struct rctl_port, "link_layer", FT_STR, link_layer),
	F(struct rctl_port, "max_mtu", FT_U32, max_mtu),
	F(struct rctl_port, "active_mtu", FT_U32, active_mtu),
	F(struct rctl_port, "speed_mbps", FT_U32, speed_mbps),
	F(struct rctl_port, "width", FT_STR, width),
	F(struct rctl_port, "netdev", FT_STR, netdev),
	F(struct rctl_port, "netdev_ifindex", FT_U32, netdev_ifindex),
	FA(struct rctl_port, "gids", gids, n_gids, gid_schema),
	FA(struct rctl_port, "hw_counters", hw, n_hw, counter_schema),
	F(struct rctl_port, "hw_counters_errno", FT_S32, hw_err),
	F(struct rctl_port, "hw_counters_lifespan_ms", FT_U32, hw_lifespan_ms),
	FA(struct rctl_port, "pma_counters", pma, n_pma, counter_schema),
	F(struct rctl_port, "pma_counters_errno", FT_S32, pma_err),
	FO(struct rctl_port, "rdma_cm", cm, cm_schema),
	FO(struct rctl_port, "optional_counters", opt_counters, opt_counters_schema),
	{ 0 }
};
static const struct rctl_schema port_schema = { "port", sizeof(struct rctl_port), port_fields };

static const struct rctl_field dev_fields[] = {
	F(struct rctl_device, "name", FT_STR, name),
	F(struct rctl_device, "index", FT_U32, index),
	F(struct rctl_device, "driver", FT_STR, driver),
	F(struct rctl_device, "node_type", FT_STR, node_type),
	F(struct rctl_device, "node_guid", FT_STR, node_guid),
	F(struct rctl_device, "sys_image_guid", FT_STR, sys_image_guid),
	F(struct rctl_device, "fw", FT_STR, fw),
	F(struct rctl_device, "driver_version", FT_STR, driver_version),
	FA(struct rctl_device, "ports", ports, n_ports, port_schema),
	{ 0 }
};
static const struct rctl_schema dev_schema = { "device", sizeof(struct rctl_device), dev_fields };

static const struct rctl_field addr_fields[] = {
	F(struct rctl_addr, "ip", FT_STR, ip),
	F(struct rctl_addr, "prefix", FT_U32, prefix),
	F(struct rctl_addr, "family", FT_STR, family),
	{ 0 }
};
static const struct rctl_schema addr_schema = { "addr", sizeof(struct rctl_addr), addr_fields };

static const struct rctl_field netdev_fields[] = {
	F(struct rctl_netdev, "name", FT_STR, name),
	F(struct rctl_netdev, "ifindex", FT_U32, ifindex),
	F(struct rctl_netdev, "operstate", FT_STR, operstate),
	F(struct rctl_netdev, "mtu", FT_U32, mtu),
	F(struct rctl_netdev, "min_mtu", FT_U32, min_mtu),
	F(struct rctl_netdev, "max_mtu", FT_U32, max_mtu),
	F(struct rctl_netdev, "kind", FT_STR, kind),
	F(struct rctl_netdev, "driver", FT_STR, driver),
	FA(struct rctl_netdev, "addrs", addrs, n_addrs, addr_schema),
	FA(struct rctl_netdev, "stats", stats, n_stats, counter_schema),
	F(struct rctl_netdev, "stats_errno", FT_S32, stats_err),
	F(struct rctl_netdev, "pci", FT_STR, pci),
	F(struct rctl_netdev, "driver_version", FT_STR, driver_version),
	FO(struct rctl_netdev, "pfc", pfc, pfc_schema),
	FO(struct rctl_netdev, "ets", ets, ets_schema),
	FO(struct rctl_netdev, "app", app, app_table_schema),
	FO(struct rctl_netdev, "buffer", buffer, buffer_schema),
	FO(struct rctl_netdev, "dcbx", dcbx, dcbx_schema),
	FO(struct rctl_netdev, "maxrate", maxrate, maxrate_schema),
	FO(struct rctl_netdev, "pause", pause, pause_schema),
	FO(struct rctl_netdev, "cc", cc, cc_schema),
	FO(struct rctl_netdev, "ofed_qos", qos, ofed_qos_schema),
	FO(struct rctl_netdev, "pause_stats", pause_stats, counter_set_schema),
	F(struct rctl_netdev, "sriov_vf", FT_BOOL, sriov_vf),
	F(struct rctl_netdev, "sriov_pf", FT_STR, sriov_pf),
	F(struct rctl_netdev, "sriov_pf_pci", FT_STR, sriov_pf_pci),
	F(struct rctl_netdev, "vlan_lower", FT_STR, vlan_lower),
	F(struct rctl_netdev, "vlan_id", FT_U32, vlan_id),
	F(struct rctl_netdev, "vlan_egress_qos", FT_U8V, vlan_egress_qos),
	F(struct rctl_netdev, "master", FT_STR, master),
	{ 0 }
};
static const struct rctl_schema netdev_schema = {
	"netdev", sizeof(struct rctl_netdev), netdev_fields
};

static const struct rctl_field unread_fields[] = {
	F(struct rctl_unread, "what", FT_STR, what),
	F(struct rctl_unread, "errno", FT_S32, errnum),
	F(struct rctl_unread, "reason", FT_STR, reason),
	{ 0 }
};
static const struct rctl_schema unread_schema = {
	"unread", sizeof(struct rctl_unread), unread_fields
};

static const struct rctl_field procs_fields[] = {
	F(struct rctl_part, "ok", FT_BOOL, ok),
	F(struct rctl_part, "errno", FT_S32, err),
	F(struct rctl_part, "reason", FT_STR, reason),
	{ 0 }
};
static const struct rctl_schema procs_schema = { "procs", sizeof(struct rctl_part), procs_fields };

static const struct rctl_field nf_rule_fields[] = {
	F(struct rctl_nf_rule, "family", FT_STR, family),
	F(struct rctl_nf_rule, "table", FT_STR, table),
	F(struct rctl_nf_rule, "chain", FT_STR, chain),
	F(struct rctl_nf_rule, "handle", FT_U64, handle),
	F(struct rctl_nf_rule, "proto", FT_STR, proto),
	F(struct rctl_nf_rule, "dport", FT_U32, dport),
	F(struct rctl_nf_rule, "verdict", FT_STR, verdict),
	F(struct rctl_nf_rule, "iifname", FT_STR, iifname),
	F(struct rctl_nf_rule, "oifname", FT_STR, oifname),
	{ 0 }
};
static const struct rctl_schema nf_rule_schema = {
	"netfilter rule", sizeof(struct rctl_nf_rule), nf_rule_fields
};

static const struct rctl_field netfilter_fields[] = {
	FPART(struct rctl_netfilter),
	F(struct rctl_netfilter, "rules_read", FT_U32, n_rules_read),
	FA(struct rctl_netfilter, "blocking_rules", rules, n_rules, nf_rule_schema),
	{ 0 }
};
static const struct rctl_schema netfilter_schema = {
	"netfilter", sizeof(struct rctl_netfilter), netfilter_fields
};

static const struct rctl_field host_fields[] = {
	F(struct rctl_host, "hostname", FT_STR, hostname),
	F(struct rctl_host, "kernel", FT_STR, kernel),
	F(struct rctl_host, "time", FT_S64, time),
	F(struct rctl_host, "sample_interval_s", FT_DBL, sample_interval_s),
	FA(struct rctl_host, "devices", devs, n_devs, dev_schema),
	FA(struct rctl_host, "netdevs", netdevs, n_netdevs, netdev_schema),
	FA(struct rctl_host, "unreadable", unread, n_unread, unread_schema),
	FO(struct rctl_host, "procs", procs, procs_schema),
	F(struct rctl_host, "lldpad_running", FT_BOOL, lldpad_running),
	F(struct rctl_host, "lldpad_pid", FT_U32, lldpad_pid),
	FO(struct rctl_host, "netfilter", netfilter, netfilter_schema),
	{ 0 }
};
const struct rctl_schema rctl_host_schema = { "host", sizeof(struct rctl_host), host_fields };

/* ---- model → JSON ---------------------------------------------------- */

static cJSON *raw_num(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static cJSON *raw_num(const char *fmt, ...)
{
	char buf[32];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return cJSON_CreateRaw(buf);
}

/*
 * The shortest of %.15g, %.16g, %.17g that reads back as the same double
 * (cJSON's own printer compares with a tolerance and drops the last digits).
 */
static cJSON *dbl_to_json(double d)
{
	char buf[40];
	int prec;

	if (!isfinite(d))
		return cJSON_CreateNull();
	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	snprintf(buf, sizeof(buf), "%.*g", prec, d);
	return cJSON_CreateRaw(buf);
}

static cJSON *vec_to_json(const struct rctl_field *f, const char *p)
{
	cJSON *a = cJSON_CreateArray();
	size_t i, n = f->type == FT_U64V ? f->size / 8 : f->size;

	for (i = 0; i < n; i++) {
		if (f->type == FT_U8V)
			cJSON_AddItemToArray(a, raw_num("%u", ((const uint8_t *)p)[i]));
		else if (f->type == FT_BOOLV)
			cJSON_AddItemToArray(a, cJSON_CreateBool(((const bool *)p)[i]));
		else
			cJSON_AddItemToArray(a, raw_num("%" PRIu64, ((const uint64_t *)p)[i]));
	}
	return a;
}

static cJSON *field_to_json(const struct rctl_field *f, const char *base)
{
	const char *p = base + f->off;
	cJSON *a;
	uint32_t i, n;

	switch (f->type) {
	case FT_STR: return cJSON_CreateString(p);
	case FT_U32: return raw_num("%" PRIu32, *(const uint32_t *)p);
	case FT_U64: return raw_num("%" PRIu64, *(const uint64_t *)p);
	case FT_S32: return raw_num("%" PRId32, *(const int32_t *)p);
	case FT_S64: return raw_num("%" PRId64, *(const int64_t *)p);
	case FT_BOOL: return cJSON_CreateBool(*(const bool *)p);
	case FT_DBL: return dbl_to_json(*(const double *)p);
	case FT_OBJ: return rctl_schema_to_json(f->sub, p);
	case FT_U8V: case FT_BOOLV: case FT_U64V: return vec_to_json(f, p);
	case FT_ARR:
		a = cJSON_CreateArray();
		n = *(const uint32_t *)(base + f->count_off);
		for (i = 0; i < n; i++)
			cJSON_AddItemToArray(a, rctl_schema_to_json(f->sub,
				*(char *const *)p + (size_t)i * f->sub->size));
		return a;
	}
	return cJSON_CreateNull();
}

cJSON *rctl_schema_to_json(const struct rctl_schema *s, const void *p)
{
	cJSON *o = cJSON_CreateObject();
	const struct rctl_field *f;

	for (f = s->fields; f->key; f++)
		cJSON_AddItemToObject(o, f->key, field_to_json(f, p));
	return o;
}

/* ---- JSON → model ---------------------------------------------------- */

static int bad(struct rctl_err *e, const char *where, const char *key,
	       const char *what)
{
	return rctl_err_msg(e, EINVAL, "%s: '%s' %s", where, key, what);
}

/* "-"? digits, nothing else: what rctl_json_parse_exact() keeps as a string. */
static bool int_digits(const char *s, bool neg_ok)
{
	if (neg_ok && *s == '-')
		s++;
	return *s && strspn(s, "0123456789") == strlen(s);
}

/* A number, or the exact digits rctl_json_parse_exact() kept as a string. */
static int get_int(const cJSON *j, long double min, long double max, long double *v)
{
	if (cJSON_IsNumber(j)) {
		*v = j->valuedouble;
	} else if (cJSON_IsString(j) && int_digits(j->valuestring, true)) {
		errno = 0;
		*v = strtold(j->valuestring, NULL);
		if (errno)
			return -ERANGE;
	} else {
		return -EINVAL;
	}
	if (!isfinite(*v) || *v != floorl(*v) || *v < min || *v > max)
		return -ERANGE;
	return 0;
}

static int int_from_json(const struct rctl_field *f, const cJSON *j, char *p)
{
	long double v;
	int ret;

	/* Exact: " -1", "" and "1e3" are not u64 digits (strtoull took them). */
	if (f->type == FT_U64 && cJSON_IsString(j)) {
		if (!int_digits(j->valuestring, false))
			return -EINVAL;
		errno = 0;
		*(uint64_t *)p = strtoull(j->valuestring, NULL, 10);
		return errno ? -ERANGE : 0;
	}
	switch (f->type) {
	case FT_U32: ret = get_int(j, 0, UINT32_MAX, &v); if (!ret) *(uint32_t *)p = v; break;
	case FT_U64: ret = get_int(j, 0, 18446744073709551615.0L, &v); if (!ret) *(uint64_t *)p = v; break;
	case FT_S32: ret = get_int(j, INT32_MIN, INT32_MAX, &v); if (!ret) *(int32_t *)p = v; break;
	default: ret = get_int(j, INT64_MIN, INT64_MAX, &v); if (!ret) *(int64_t *)p = v; break;
	}
	return ret;
}

static int vec_from_json(const struct rctl_field *f, const cJSON *j, char *p,
			 const char *where, struct rctl_err *e)
{
	size_t i, n = f->type == FT_U64V ? f->size / 8 : f->size;
	struct rctl_field one = { .key = f->key, .type = FT_U64 };
	const cJSON *it;
	uint64_t v;

	if (!cJSON_IsArray(j) || (size_t)cJSON_GetArraySize(j) != n)
		return bad(e, where, f->key, "is not an array of the right length");
	i = 0;
	cJSON_ArrayForEach(it, j) {
		if (f->type == FT_BOOLV) {
			if (!cJSON_IsBool(it))
				return bad(e, where, f->key, "holds a non-boolean");
			((bool *)p)[i++] = cJSON_IsTrue(it);
			continue;
		}
		if (int_from_json(&one, it, (char *)&v) ||
		    (f->type == FT_U8V && v > 255))
			return bad(e, where, f->key, "holds a bad number");
		if (f->type == FT_U8V)
			((uint8_t *)p)[i++] = v;
		else
			((uint64_t *)p)[i++] = v;
	}
	return 0;
}

static int arr_from_json(const struct rctl_field *f, const cJSON *j, char *base,
			 const char *where, struct rctl_err *e)
{
	uint32_t *cnt = (uint32_t *)(base + f->count_off);
	char **arr = (char **)(base + f->off);
	char sub[256];
	const cJSON *it;
	int ret, n;

	if (!cJSON_IsArray(j))
		return bad(e, where, f->key, "is not an array");
	n = cJSON_GetArraySize(j);
	*arr = n ? calloc(n, f->sub->size) : NULL;
	if (n && !*arr)
		return rctl_err_msg(e, ENOMEM, "%s: out of memory", where);
	*cnt = 0;
	cJSON_ArrayForEach(it, j) {
		snprintf(sub, sizeof(sub), "%s.%s[%u]", where, f->key, *cnt);
		ret = rctl_schema_from_json(f->sub, it, *arr + (size_t)*cnt * f->sub->size,
					    sub, e);
		(*cnt)++;
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Every double of the model is a duration: finite, not negative. A whole
 * number of 16+ digits (1e16 printed by %.17g) arrives quoted.
 */
static int dbl_from_json(const struct rctl_field *f, const cJSON *j, double *d,
			 const char *where, struct rctl_err *e)
{
	double v;

	if (cJSON_IsNull(j))
		return 0;
	if (cJSON_IsNumber(j))
		v = j->valuedouble;
	else if (cJSON_IsString(j) && int_digits(j->valuestring, true))
		v = strtod(j->valuestring, NULL);
	else
		return bad(e, where, f->key, "is not a number");
	if (!isfinite(v) || v < 0)
		return bad(e, where, f->key, "is not a finite number >= 0");
	*d = v;
	return 0;
}

static int field_from_json(const struct rctl_field *f, const cJSON *j, char *base,
			   const char *where, struct rctl_err *e)
{
	char *p = base + f->off, sub[256];

	switch (f->type) {
	case FT_STR:
		if (cJSON_IsNull(j))
			return 0;
		if (!cJSON_IsString(j))
			return bad(e, where, f->key, "is not a string");
		if (strlen(j->valuestring) >= f->size)
			return bad(e, where, f->key, "is too long");
		strcpy(p, j->valuestring);
		return 0;
	case FT_BOOL:
		if (!cJSON_IsBool(j))
			return bad(e, where, f->key, "is not a boolean");
		*(bool *)p = cJSON_IsTrue(j);
		return 0;
	case FT_DBL:
		return dbl_from_json(f, j, (double *)p, where, e);
	case FT_OBJ:
		snprintf(sub, sizeof(sub), "%s.%s", where, f->key);
		return rctl_schema_from_json(f->sub, j, p, sub, e);
	case FT_ARR:
		return arr_from_json(f, j, base, where, e);
	case FT_U8V: case FT_BOOLV: case FT_U64V:
		return vec_from_json(f, j, p, where, e);
	default:
		if (int_from_json(f, j, p))
			return bad(e, where, f->key, "is not an integer in range");
		return 0;
	}
}

/* Missing keys keep their zero value; present keys must have the right type. */
int rctl_schema_from_json(const struct rctl_schema *s, const cJSON *j, void *p,
			  const char *where, struct rctl_err *e)
{
	const struct rctl_field *f;
	const cJSON *it;
	int ret;

	if (!cJSON_IsObject(j))
		return rctl_err_msg(e, EINVAL, "%s: expected an object (%s)", where, s->name);
	for (f = s->fields; f->key; f++) {
		it = cJSON_GetObjectItemCaseSensitive(j, f->key);
		if (!it)
			continue;
		ret = field_from_json(f, it, p, where, e);
		if (ret)
			return ret;
	}
	return 0;
}

void rctl_schema_free(const struct rctl_schema *s, void *p)
{
	const struct rctl_field *f;
	uint32_t i, n;
	char *arr;

	for (f = s->fields; f->key; f++) {
		if (f->type == FT_OBJ)
			rctl_schema_free(f->sub, (char *)p + f->off);
		if (f->type != FT_ARR)
			continue;
		arr = *(char **)((char *)p + f->off);
		n = *(uint32_t *)((char *)p + f->count_off);
		for (i = 0; arr && i < n; i++)
			rctl_schema_free(f->sub, arr + (size_t)i * f->sub->size);
		free(arr);
	}
}

void rctl_host_free(struct rctl_host *h)
{
	rctl_schema_free(&rctl_host_schema, h);
	memset(h, 0, sizeof(*h));
}

/* ---- documents ------------------------------------------------------- */

char *rctl_snapshot_text(const struct rctl_host *h, bool pretty)
{
	cJSON *doc = cJSON_CreateObject();
	char *s;

	cJSON_AddItemToObject(doc, "schema_version", raw_num("%d", RCTL_SNAPSHOT_VERSION));
	cJSON_AddStringToObject(doc, "kind", "rocectl-host-snapshot");
	cJSON_AddItemToObject(doc, "host", rctl_schema_to_json(&rctl_host_schema, h));
	s = pretty ? cJSON_Print(doc) : cJSON_PrintUnformatted(doc);
	cJSON_Delete(doc);
	return s;
}

/* The end of the JSON number token at s: -? digits (. digits)? ([eE] [+-]? digits)? */
static size_t num_token(const char *s, size_t len, size_t i, bool *integer)
{
	size_t d;

	i += s[i] == '-';
	d = strspn(s + i, "0123456789");
	i += d;
	*integer = true;
	if (i < len && s[i] == '.') {
		*integer = false;
		i++;
		i += strspn(s + i, "0123456789");
	}
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		*integer = false;
		i++;
		i += s[i] == '+' || s[i] == '-';
		i += strspn(s + i, "0123456789");
	}
	return i;
}

/*
 * cJSON keeps numbers as doubles, which lose integers above 2^53 (counters).
 * Quote integer tokens of 16 digits or more before parsing; the readers
 * accept digit strings for integer fields. A fraction or an exponent is part
 * of its number, never an integer of its own ("0.30000000000000004").
 */
cJSON *rctl_json_parse_exact(const char *text)
{
	size_t len = strlen(text), i = 0, k = 0, end;
	bool in_str = false, integer;
	char *buf = malloc(len * 2 + 1);
	cJSON *j;

	if (!buf)
		return NULL;
	while (i < len) {
		char c = text[i];

		if (in_str) {
			buf[k++] = text[i++];
			if (c == '\\' && i < len)
				buf[k++] = text[i++];
			else if (c == '"')
				in_str = false;
			continue;
		}
		if (c == '"')
			in_str = true;
		if (c == '-' || (c >= '0' && c <= '9')) {
			end = num_token(text, len, i, &integer);
			if (integer && end - i >= 16)
				buf[k++] = '"';
			memcpy(buf + k, text + i, end - i);
			k += end - i;
			if (integer && end - i >= 16)
				buf[k++] = '"';
			i = end;
			continue;
		}
		buf[k++] = text[i++];
	}
	buf[k] = '\0';
	j = cJSON_Parse(buf);
	free(buf);
	return j;
}

int rctl_snapshot_parse(const char *text, const char *name, struct rctl_host *h,
			struct rctl_err *e)
{
	const cJSON *ver, *kind, *host;
	cJSON *doc;
	uint32_t i;
	int ret;

	memset(h, 0, sizeof(*h));
	doc = rctl_json_parse_exact(text);
	if (!doc)
		return rctl_err_msg(e, EINVAL, "cannot read snapshot '%s': not valid JSON", name);
	ver = cJSON_GetObjectItemCaseSensitive(doc, "schema_version");
	kind = cJSON_GetObjectItemCaseSensitive(doc, "kind");
	host = cJSON_GetObjectItemCaseSensitive(doc, "host");
	if (!cJSON_IsObject(doc) || !cJSON_IsNumber(ver) || !cJSON_IsString(kind) ||
	    strcmp(kind->valuestring, "rocectl-host-snapshot") || !host)
		ret = rctl_err_msg(e, EINVAL, "cannot read snapshot '%s': not a rocectl host snapshot", name);
	else if (ver->valuedouble != RCTL_SNAPSHOT_VERSION &&
		 ver->valuedouble != RCTL_SNAPSHOT_VERSION_MIN)
		ret = rctl_err_msg(e, EINVAL, "cannot read snapshot '%s': schema_version %g, expected %d to %d",
				   name, ver->valuedouble, RCTL_SNAPSHOT_VERSION_MIN,
				   RCTL_SNAPSHOT_VERSION);
	else
		ret = rctl_schema_from_json(&rctl_host_schema, host, h, "host", e);
	if (ret && e->errnum && strncmp(e->msg, "cannot", 6)) {
		char msg[sizeof(e->msg)];

		snprintf(msg, sizeof(msg), "%s", e->msg);
		rctl_err_msg(e, EINVAL, "cannot read snapshot '%s': %.400s", name, msg);
	}
	cJSON_Delete(doc);
	if (ret) {
		rctl_host_free(h);
		return ret;
	}
	/* Snapshots of an older rocectl took bnxt_en's host-DCBX zeroes for values. */
	for (i = 0; i < h->n_netdevs; i++)
		rctl_dcb_fw_managed(&h->netdevs[i]);
	return 0;
}

#define SNAPSHOT_MAX (64u << 20)

int rctl_snapshot_load(const char *path, struct rctl_host *h, struct rctl_err *e)
{
	FILE *f = fopen(path, "r");
	size_t n = 0, cap = 65536;
	char *buf, *more;
	struct stat st;
	int ret;

	memset(h, 0, sizeof(*h));
	if (!f)
		return rctl_err_set(e, errno, "cannot open snapshot '%s'", path);
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		fclose(f);
		return rctl_err_msg(e, EISDIR, "cannot read snapshot '%s': it is a directory", path);
	}
	buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n - 1, f);
		if (n < cap - 1 || cap >= SNAPSHOT_MAX)
			break;
		cap *= 2;
		more = realloc(buf, cap);
		if (!more)
			free(buf);
		buf = more;
	}
	if (!buf) {
		fclose(f);
		return rctl_err_set(e, ENOMEM, "cannot read snapshot '%s'", path);
	}
	if (ferror(f) || n >= SNAPSHOT_MAX - 1) {
		ret = ferror(f) ? errno : EFBIG;
		fclose(f);
		free(buf);
		return rctl_err_set(e, ret ? ret : EIO, "cannot read snapshot '%s'", path);
	}
	fclose(f);
	buf[n] = '\0';
	ret = rctl_snapshot_parse(buf, path, h, e);
	free(buf);
	return ret;
}
