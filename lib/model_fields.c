// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The host model's field tables (include/rocectl/model.h): every model field
 * declared once more here, by its JSON key and type. The snapshot engine
 * (lib/schema.c) reads and writes the model through them, and they free it,
 * so a new field or array is declared in one place.
 */
#include <stddef.h>
#include <string.h>

#include "rocectl/model.h"
#include "rocectl/model_fields.h"

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

static const struct rctl_field lldp_fields[] = {
	FPART(struct rctl_lldp_peer),
	F(struct rctl_lldp_peer, "source", FT_STR, source),
	F(struct rctl_lldp_peer, "fw_agent", FT_STR, fw_agent),
	F(struct rctl_lldp_peer, "chassis_id_subtype", FT_U32, chassis_id_subtype),
	F(struct rctl_lldp_peer, "chassis_id", FT_STR, chassis_id),
	F(struct rctl_lldp_peer, "port_id_subtype", FT_U32, port_id_subtype),
	F(struct rctl_lldp_peer, "port_id", FT_STR, port_id),
	F(struct rctl_lldp_peer, "port_descr", FT_STR, port_descr),
	F(struct rctl_lldp_peer, "system_name", FT_STR, system_name),
	F(struct rctl_lldp_peer, "ttl", FT_U32, ttl),
	F(struct rctl_lldp_peer, "has_mfs", FT_BOOL, has_mfs),
	F(struct rctl_lldp_peer, "mfs", FT_U32, mfs),
	F(struct rctl_lldp_peer, "has_pfc", FT_BOOL, has_pfc),
	F(struct rctl_lldp_peer, "pfc_willing", FT_BOOL, pfc_willing),
	F(struct rctl_lldp_peer, "pfc_mbc", FT_BOOL, pfc_mbc),
	F(struct rctl_lldp_peer, "pfc_cap", FT_U32, pfc_cap),
	F(struct rctl_lldp_peer, "pfc_en", FT_BOOLV, pfc_en),
	F(struct rctl_lldp_peer, "has_ets", FT_BOOL, has_ets),
	F(struct rctl_lldp_peer, "ets_willing", FT_BOOL, ets_willing),
	F(struct rctl_lldp_peer, "ets_cbs", FT_BOOL, ets_cbs),
	F(struct rctl_lldp_peer, "ets_max_tcs", FT_U32, ets_max_tcs),
	F(struct rctl_lldp_peer, "ets_prio_tc", FT_U8V, ets_prio_tc),
	F(struct rctl_lldp_peer, "ets_tc_bw", FT_U8V, ets_tc_bw),
	F(struct rctl_lldp_peer, "ets_tc_tsa", FT_U8V, ets_tc_tsa),
	F(struct rctl_lldp_peer, "has_ets_reco", FT_BOOL, has_ets_reco),
	F(struct rctl_lldp_peer, "reco_prio_tc", FT_U8V, reco_prio_tc),
	F(struct rctl_lldp_peer, "reco_tc_bw", FT_U8V, reco_tc_bw),
	F(struct rctl_lldp_peer, "reco_tc_tsa", FT_U8V, reco_tc_tsa),
	F(struct rctl_lldp_peer, "has_app", FT_BOOL, has_app),
	FA(struct rctl_lldp_peer, "apps", apps, n_apps, app_schema),
	{ 0 }
};
static const struct rctl_schema lldp_schema = {
	"lldp neighbour", sizeof(struct rctl_lldp_peer), lldp_fields
};

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
	FO(struct rctl_netdev, "lldp", lldp, lldp_schema),
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

/* The RDMA consumers (model.h, snapshot schema 4). */
static const struct rctl_field res_entry_fields[] = {
	F(struct rctl_res_entry, "kind", FT_STR, kind),
	F(struct rctl_res_entry, "device", FT_STR, dev),
	F(struct rctl_res_entry, "port", FT_U32, port),
	F(struct rctl_res_entry, "lqpn", FT_U32, lqpn),
	F(struct rctl_res_entry, "qp_type", FT_STR, qp_type),
	F(struct rctl_res_entry, "state", FT_STR, state),
	F(struct rctl_res_entry, "port_space", FT_STR, ps),
	F(struct rctl_res_entry, "src", FT_STR, src),
	F(struct rctl_res_entry, "dst", FT_STR, dst),
	F(struct rctl_res_entry, "pid", FT_U32, pid),
	F(struct rctl_res_entry, "owner", FT_STR, owner),
	F(struct rctl_res_entry, "via", FT_STR, via),
	F(struct rctl_res_entry, "id", FT_U32, id),
	F(struct rctl_res_entry, "made_before_tune", FT_BOOL, made_before_tune),
	{ 0 }
};
static const struct rctl_schema res_entry_schema = {
	"rdma resource", sizeof(struct rctl_res_entry), res_entry_fields
};

static const struct rctl_field res_count_fields[] = {
	F(struct rctl_res_count, "kind", FT_STR, kind),
	F(struct rctl_res_count, "device", FT_STR, dev),
	F(struct rctl_res_count, "port", FT_U32, port),
	F(struct rctl_res_count, "pid", FT_U32, pid),
	F(struct rctl_res_count, "owner", FT_STR, owner),
	F(struct rctl_res_count, "qp_type", FT_STR, qp_type),
	F(struct rctl_res_count, "state", FT_STR, state),
	F(struct rctl_res_count, "count", FT_U32, n),
	{ 0 }
};
static const struct rctl_schema res_count_schema = {
	"rdma resource count", sizeof(struct rctl_res_count), res_count_fields
};

static const struct rctl_field tc_setting_fields[] = {
	F(struct rctl_tc_setting, "source", FT_STR, source),
	F(struct rctl_tc_setting, "where", FT_STR, where),
	F(struct rctl_tc_setting, "name", FT_STR, name),
	F(struct rctl_tc_setting, "value", FT_STR, value),
	F(struct rctl_tc_setting, "device", FT_STR, dev),
	F(struct rctl_tc_setting, "port", FT_U32, port),
	{ 0 }
};
static const struct rctl_schema tc_setting_schema = {
	"traffic class setting", sizeof(struct rctl_tc_setting), tc_setting_fields
};

static const struct rctl_field consumer_fields[] = {
	F(struct rctl_consumer, "name", FT_STR, name),
	F(struct rctl_consumer, "pid", FT_U32, pid),
	F(struct rctl_consumer, "qps", FT_U32, n_qps),
	F(struct rctl_consumer, "cm_ids", FT_U32, n_cm_ids),
	F(struct rctl_consumer, "environ_ok", FT_BOOL, env.ok),
	F(struct rctl_consumer, "environ_errno", FT_S32, env.err),
	F(struct rctl_consumer, "environ_reason", FT_STR, env.reason),
	FA(struct rctl_consumer, "environ", vars, n_vars, tc_setting_schema),
	{ 0 }
};
static const struct rctl_schema consumer_schema = {
	"rdma consumer", sizeof(struct rctl_consumer), consumer_fields
};

static const struct rctl_field tos_change_fields[] = {
	F(struct rctl_tos_change, "device", FT_STR, dev),
	F(struct rctl_tos_change, "port", FT_U32, port),
	F(struct rctl_tos_change, "time", FT_U64, time),
	F(struct rctl_tos_change, "old_tos", FT_U32, old_tos),
	F(struct rctl_tos_change, "new_tos", FT_U32, new_tos),
	F(struct rctl_tos_change, "connections_before", FT_U32, n_before),
	F(struct rctl_tos_change, "still_live", FT_U32, n_live),
	F(struct rctl_tos_change, "state_file", FT_STR, state),
	{ 0 }
};
static const struct rctl_schema tos_change_schema = {
	"tune ToS change", sizeof(struct rctl_tos_change), tos_change_fields
};

static const struct rctl_field rdma_res_fields[] = {
	FPART(struct rctl_rdma_res),
	F(struct rctl_rdma_res, "qps", FT_U32, n_qps),
	F(struct rctl_rdma_res, "cm_ids", FT_U32, n_cm_ids),
	F(struct rctl_rdma_res, "unlisted", FT_U32, n_unlisted),
	F(struct rctl_rdma_res, "uncounted", FT_U32, n_uncounted),
	FA(struct rctl_rdma_res, "entries", list, n_list, res_entry_schema),
	FA(struct rctl_rdma_res, "counts", counts, n_counts, res_count_schema),
	FA(struct rctl_rdma_res, "consumers", consumers, n_consumers, consumer_schema),
	FA(struct rctl_rdma_res, "settings", conf, n_conf, tc_setting_schema),
	FA(struct rctl_rdma_res, "tune_tos_changes", tos_changes, n_tos_changes, tos_change_schema),
	{ 0 }
};
static const struct rctl_schema rdma_res_schema = {
	"rdma resources", sizeof(struct rctl_rdma_res), rdma_res_fields
};
static const struct rctl_field nvme_ctrl_fields[] = {
	F(struct rctl_nvme_ctrl, "name", FT_STR, name),
	F(struct rctl_nvme_ctrl, "transport", FT_STR, transport),
	F(struct rctl_nvme_ctrl, "state", FT_STR, state),
	F(struct rctl_nvme_ctrl, "subsysnqn", FT_STR, subsysnqn),
	F(struct rctl_nvme_ctrl, "subsystem", FT_STR, subsys),
	F(struct rctl_nvme_ctrl, "cntlid", FT_U32, cntlid),
	F(struct rctl_nvme_ctrl, "traddr", FT_STR, traddr),
	F(struct rctl_nvme_ctrl, "trsvcid", FT_STR, trsvcid),
	F(struct rctl_nvme_ctrl, "host_traddr", FT_STR, host_traddr),
	F(struct rctl_nvme_ctrl, "host_iface", FT_STR, host_iface),
	F(struct rctl_nvme_ctrl, "queue_count", FT_U32, queue_count),
	F(struct rctl_nvme_ctrl, "sqsize", FT_U32, sqsize),
	F(struct rctl_nvme_ctrl, "kato", FT_S32, kato),
	F(struct rctl_nvme_ctrl, "ctrl_loss_tmo", FT_S32, ctrl_loss_tmo),
	F(struct rctl_nvme_ctrl, "reconnect_delay", FT_S32, reconnect_delay),
	F(struct rctl_nvme_ctrl, "fast_io_fail_tmo", FT_S32, fast_io_fail_tmo),
	F(struct rctl_nvme_ctrl, "netdev", FT_STR, netdev),
	F(struct rctl_nvme_ctrl, "netdev_by", FT_STR, netdev_by),
	F(struct rctl_nvme_ctrl, "src", FT_STR, src),
	F(struct rctl_nvme_ctrl, "netdev_reason", FT_STR, netdev_reason),
	{ 0 }
};
static const struct rctl_schema nvme_ctrl_schema = {
	"nvme controller", sizeof(struct rctl_nvme_ctrl), nvme_ctrl_fields
};

static const struct rctl_field nvme_path_fields[] = {
	F(struct rctl_nvme_path, "name", FT_STR, name),
	F(struct rctl_nvme_path, "controller", FT_STR, ctrl),
	F(struct rctl_nvme_path, "nsid", FT_U32, nsid),
	F(struct rctl_nvme_path, "ana_state", FT_STR, ana_state),
	{ 0 }
};
static const struct rctl_schema nvme_path_schema = {
	"nvme path", sizeof(struct rctl_nvme_path), nvme_path_fields
};

static const struct rctl_field nvme_subsys_fields[] = {
	F(struct rctl_nvme_subsys, "name", FT_STR, name),
	F(struct rctl_nvme_subsys, "nqn", FT_STR, nqn),
	F(struct rctl_nvme_subsys, "iopolicy", FT_STR, iopolicy),
	FA(struct rctl_nvme_subsys, "paths", paths, n_paths, nvme_path_schema),
	{ 0 }
};
static const struct rctl_schema nvme_subsys_schema = {
	"nvme subsystem", sizeof(struct rctl_nvme_subsys), nvme_subsys_fields
};

static const struct rctl_field nvme_fields[] = {
	FPART(struct rctl_nvme),
	F(struct rctl_nvme, "fabrics", FT_BOOL, fabrics),
	F(struct rctl_nvme, "multipath", FT_S32, multipath),
	FA(struct rctl_nvme, "controllers", ctrls, n_ctrls, nvme_ctrl_schema),
	FA(struct rctl_nvme, "subsystems", subsys, n_subsys, nvme_subsys_schema),
	{ 0 }
};
static const struct rctl_schema nvme_schema = { "nvme", sizeof(struct rctl_nvme), nvme_fields };

static const struct rctl_field wire_mark_fields[] = {
	F(struct rctl_wire_mark, "dscp", FT_U32, dscp),
	F(struct rctl_wire_mark, "ecn", FT_U32, ecn),
	F(struct rctl_wire_mark, "packets", FT_U64, packets),
	{ 0 }
};
static const struct rctl_schema wire_mark_schema = {
	"wire mark", sizeof(struct rctl_wire_mark), wire_mark_fields
};

static const struct rctl_field wire_flow_fields[] = {
	F(struct rctl_wire_flow, "src", FT_STR, src),
	F(struct rctl_wire_flow, "dst", FT_STR, dst),
	F(struct rctl_wire_flow, "dst_qp", FT_U32, dst_qp),
	F(struct rctl_wire_flow, "vlan", FT_U32, vlan),
	F(struct rctl_wire_flow, "ifindex", FT_U32, ifindex),
	F(struct rctl_wire_flow, "outgoing", FT_BOOL, outgoing),
	F(struct rctl_wire_flow, "owner", FT_STR, owner),
	F(struct rctl_wire_flow, "packets", FT_U64, packets),
	F(struct rctl_wire_flow, "ip_bytes", FT_U64, bytes),
	F(struct rctl_wire_flow, "requests", FT_U64, requests),
	F(struct rctl_wire_flow, "responses", FT_U64, responses),
	F(struct rctl_wire_flow, "acks", FT_U64, acks),
	F(struct rctl_wire_flow, "cnps", FT_U64, cnps),
	F(struct rctl_wire_flow, "mads", FT_U64, mads),
	F(struct rctl_wire_flow, "other", FT_U64, other),
	FA(struct rctl_wire_flow, "marks", marks, n_marks, wire_mark_schema),
	FA(struct rctl_wire_flow, "cnp_marks", cnp_marks, n_cnp_marks, wire_mark_schema),
	F(struct rctl_wire_flow, "nak_psn_seq", FT_U64, nak_psn_seq),
	F(struct rctl_wire_flow, "nak_rnr", FT_U64, nak_rnr),
	F(struct rctl_wire_flow, "nak_invalid_req", FT_U64, nak_invalid_req),
	F(struct rctl_wire_flow, "nak_remote_access", FT_U64, nak_remote_access),
	F(struct rctl_wire_flow, "nak_remote_op", FT_U64, nak_remote_op),
	F(struct rctl_wire_flow, "psn_regressions", FT_U64, psn_regressions),
	{ 0 }
};
static const struct rctl_schema wire_flow_schema = {
	"wire flow", sizeof(struct rctl_wire_flow), wire_flow_fields
};

static const struct rctl_field wire_conn_fields[] = {
	F(struct rctl_wire_conn, "src", FT_STR, src),
	F(struct rctl_wire_conn, "dst", FT_STR, dst),
	F(struct rctl_wire_conn, "local_gid", FT_STR, local_gid),
	F(struct rctl_wire_conn, "remote_gid", FT_STR, remote_gid),
	F(struct rctl_wire_conn, "comm_id", FT_U32, comm_id),
	F(struct rctl_wire_conn, "qpn", FT_U32, qpn),
	F(struct rctl_wire_conn, "traffic_class", FT_U32, traffic_class),
	F(struct rctl_wire_conn, "ip_tos", FT_U32, ip_tos),
	F(struct rctl_wire_conn, "reqs", FT_U64, reqs),
	F(struct rctl_wire_conn, "reply", FT_STR, reply),
	F(struct rctl_wire_conn, "rej_reason", FT_U32, rej_reason),
	F(struct rctl_wire_conn, "rep_qpn", FT_U32, rep_qpn),
	{ 0 }
};
static const struct rctl_schema wire_conn_schema = {
	"wire connection", sizeof(struct rctl_wire_conn), wire_conn_fields
};

static const struct rctl_field wire_fields[] = {
	FPART(struct rctl_wire),
	F(struct rctl_wire, "source", FT_STR, source),
	F(struct rctl_wire, "iface", FT_STR, iface),
	F(struct rctl_wire, "file", FT_STR, file),
	F(struct rctl_wire, "link_type", FT_STR, link_type),
	F(struct rctl_wire, "duration_s", FT_DBL, seconds),
	F(struct rctl_wire, "frames", FT_U64, frames),
	F(struct rctl_wire, "roce_packets", FT_U64, roce_packets),
	F(struct rctl_wire, "malformed", FT_U64, malformed),
	F(struct rctl_wire, "drops_known", FT_BOOL, drops_known),
	F(struct rctl_wire, "drops", FT_U64, drops),
	F(struct rctl_wire, "if_drops", FT_U64, if_drops),
	F(struct rctl_wire, "bypass", FT_STR, bypass),
	F(struct rctl_wire, "bypass_dev", FT_STR, bypass_dev),
	F(struct rctl_wire, "flow_cap", FT_U32, flow_cap),
	F(struct rctl_wire, "flow_overflow", FT_U64, flow_overflow),
	F(struct rctl_wire, "conn_overflow", FT_U64, conn_overflow),
	FA(struct rctl_wire, "flows", flows, n_flows, wire_flow_schema),
	FA(struct rctl_wire, "connections", conns, n_conns, wire_conn_schema),
	{ 0 }
};
static const struct rctl_schema wire_schema = { "wire", sizeof(struct rctl_wire), wire_fields };

/* hostname and time are the document's stamp, outside "host" (lib/snapshot.c). */
static const struct rctl_field host_fields[] = {
	F(struct rctl_host, "kernel", FT_STR, kernel),
	F(struct rctl_host, "sample_interval_s", FT_DBL, sample_interval_s),
	FA(struct rctl_host, "devices", devs, n_devs, dev_schema),
	FA(struct rctl_host, "netdevs", netdevs, n_netdevs, netdev_schema),
	FA(struct rctl_host, "unreadable", unread, n_unread, unread_schema),
	FO(struct rctl_host, "procs", procs, procs_schema),
	F(struct rctl_host, "lldpad_running", FT_BOOL, lldpad_running),
	F(struct rctl_host, "lldpad_pid", FT_U32, lldpad_pid),
	FO(struct rctl_host, "netfilter", netfilter, netfilter_schema),
	FO(struct rctl_host, "rdma_resources", res, rdma_res_schema),
	FO(struct rctl_host, "nvme", nvme, nvme_schema),
	FO(struct rctl_host, "wire", wire, wire_schema),
	{ 0 }
};
const struct rctl_schema rctl_host_schema = { "host", sizeof(struct rctl_host), host_fields };

void rctl_host_free(struct rctl_host *h)
{
	rctl_host_index_free(h);
	rctl_schema_free(&rctl_host_schema, h);
	memset(h, 0, sizeof(*h));
}
