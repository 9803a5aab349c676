/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The host model: everything the collectors read from a host, and everything
 * the rules and commands look at. It round-trips through the snapshot JSON
 * (snapshot.h), which is what makes --input and the fixtures run the same
 * code as a live host. Strings are fixed arrays so a model is plain data;
 * "" means "not reported". Things that could not be read carry an errno and
 * a reason instead of a value ("unknown", never "disabled").
 */
#ifndef ROCECTL_MODEL_H
#define ROCECTL_MODEL_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RCTL_NAME_LEN 64
#define RCTL_IFNAME_LEN 32
#define RCTL_ADDR_LEN 48
#define RCTL_REASON_LEN 160

/*
 * The state of one part of the model that a collector tried to read. When
 * "ok" is false the part's values mean nothing: "err" (positive errno; 0 when
 * the part was not collected at all) and "reason" say why, so "unknown:
 * debugfs not mounted" is data, never "disabled".
 */
struct rctl_part {
	bool ok;
	int err;
	char reason[RCTL_REASON_LEN];
};

/*
 * err of a part the driver answered without its real value: the setting
 * lives in the firmware (bnxt_en in host DCBX mode, see lib/dcb.c).
 */
#define RCTL_FW_MANAGED ENODATA

struct rctl_gid {
	uint32_t index;
	char gid[RCTL_ADDR_LEN];	/* canonical IPv6 text: "::ffff:10.0.0.1" */
	char ip[RCTL_ADDR_LEN];		/* IPv4 of a mapped GID, else the IPv6 */
	char type[16];			/* "RoCE v1", "RoCE v2", "IB" */
	char netdev[RCTL_IFNAME_LEN];
};

struct rctl_counter {
	char name[RCTL_NAME_LEN];
	uint64_t value;
	uint64_t delta;			/* since the previous sample, wrap-corrected */
	bool has_delta;			/* false: one sample only, or counter reset */
};

/*
 * A counter set read as one part: st.ok false with an errno when the kernel or
 * driver does not export it (ethtool netlink pause statistics).
 */
struct rctl_counter_set {
	struct rctl_part st;
	struct rctl_counter *c;
	uint32_t n;
};

/* An optional hw counter (RDMA_NLDEV_CMD_STAT_GET_STATUS) and whether it counts. */
struct rctl_counter_status {
	char name[RCTL_NAME_LEN];
	bool enabled;
};

/* The optional hw counters of a port; st.err EOPNOTSUPP/EINVAL: no such list. */
struct rctl_opt_counters {
	struct rctl_part st;
	struct rctl_counter_status *c;
	uint32_t n;
};

/* rdma_cm configfs defaults of one port (cma_configfs.c). */
struct rctl_cm_cfg {
	struct rctl_part st;
	char roce_mode[16];		/* "RoCE v2", "IB/RoCE v1" */
	uint32_t roce_tos;		/* default_roce_tos, 0..255 */
};

struct rctl_port {
	uint32_t port;
	char state[16];			/* ACTIVE, DOWN, INIT, ARMED */
	char phys_state[24];		/* LINK_UP, DISABLED, POLLING, ... */
	char link_layer[16];		/* Ethernet, InfiniBand */
	uint32_t max_mtu;		/* bytes, verbs */
	uint32_t active_mtu;		/* bytes, verbs */
	uint32_t speed_mbps;		/* per-lane speed × width, Mb/s */
	char width[8];			/* "1X", "4X" ... */
	char netdev[RCTL_IFNAME_LEN];
	uint32_t netdev_ifindex;
	struct rctl_gid *gids;
	uint32_t n_gids;
	struct rctl_counter *hw;	/* RDMA netlink hw counters */
	uint32_t n_hw;
	int hw_err;			/* errno when counters were unreadable */
	uint32_t hw_lifespan_ms;	/* hw_counters/lifespan, 0 unknown */
	struct rctl_counter *pma;	/* sysfs counters/ (IB PMA), if any */
	uint32_t n_pma;
	int pma_err;			/* errno: ENOENT none, EOPNOTSUPP "N/A (no PMA)" */
	struct rctl_cm_cfg cm;		/* rdma_cm configfs defaults */
	struct rctl_opt_counters opt_counters;	/* optional hw counters, on/off */
};

struct rctl_device {
	char name[RCTL_NAME_LEN];
	uint32_t index;
	char driver[32];		/* mlx5, bnxt_re, irdma, rxe, siw ... */
	char node_type[16];		/* ca, rnic, ... */
	char node_guid[24];		/* "5054:00ff:fe12:3456" */
	char sys_image_guid[24];
	char fw[64];
	char driver_version[64];	/* /sys/module/<drv>/version, else "" */
	struct rctl_port *ports;
	uint32_t n_ports;
};

struct rctl_addr {
	char ip[RCTL_ADDR_LEN];
	uint32_t prefix;
	char family[8];			/* "inet", "inet6" */
};

/* dcbnl IEEE PFC (struct ieee_pfc). */
struct rctl_pfc {
	struct rctl_part st;
	uint32_t pfc_cap;		/* how many prios may have PFC at once */
	bool pfc_en[8];			/* per priority */
	uint32_t mbc;
	uint32_t delay;			/* mlx5: cable length in metres */
	uint64_t requests[8];		/* PFC frames sent, per priority */
	uint64_t indications[8];	/* PFC frames received, per priority */
};

#define RCTL_TSA_STRICT 0
#define RCTL_TSA_CB_SHAPER 1
#define RCTL_TSA_ETS 2
#define RCTL_TSA_VENDOR 255

/* dcbnl IEEE ETS (struct ieee_ets). */
struct rctl_ets {
	struct rctl_part st;
	bool willing;
	uint32_t ets_cap;
	bool cbs;
	uint8_t prio_tc[8];		/* priority -> traffic class */
	uint8_t tc_tsa[8];		/* RCTL_TSA_* per traffic class */
	uint8_t tc_tx_bw[8];		/* percent per traffic class */
};

/* APP selectors (dcbnl.h); PCP is the non-standard DCB_APP_SEL_PCP of dcb(8). */
#define RCTL_APP_SEL_ETHERTYPE 1
#define RCTL_APP_SEL_STREAM 2
#define RCTL_APP_SEL_DGRAM 3
#define RCTL_APP_SEL_ANY 4
#define RCTL_APP_SEL_DSCP 5
#define RCTL_APP_SEL_PCP 255

struct rctl_app {
	uint32_t selector;		/* RCTL_APP_SEL_* */
	uint32_t protocol;		/* DSCP, PCP, UDP/TCP port, ethertype */
	uint32_t priority;
};

/* The APP table in kernel order; duplicates kept (DSCP 26 -> 3 and 26 -> 5). */
struct rctl_app_table {
	struct rctl_part st;
	struct rctl_app *apps;
	uint32_t n_apps;
};

/* dcbnl DCB_ATTR_DCB_BUFFER (struct dcbnl_buffer). */
struct rctl_dcb_buffer {
	struct rctl_part st;
	uint8_t prio2buffer[8];
	uint64_t buffer_size[8];	/* bytes */
	uint64_t total_size;		/* bytes */
};

#define RCTL_DCBX_HOST 0x01
#define RCTL_DCBX_LLD_MANAGED 0x02
#define RCTL_DCBX_VER_CEE 0x04
#define RCTL_DCBX_VER_IEEE 0x08
#define RCTL_DCBX_STATIC 0x10

/* DCB_CMD_GDCBX: DCB_CAP_DCBX_* bits (RCTL_DCBX_*). */
struct rctl_dcbx {
	struct rctl_part st;
	uint32_t mode;
};

/* dcbnl IEEE maxrate: per traffic class, as the driver reports it, 0 = none. */
struct rctl_maxrate {
	struct rctl_part st;
	uint64_t tc_maxrate[8];
};

/* 802.3x global pause (ETHTOOL_GPAUSEPARAM). */
struct rctl_pause {
	struct rctl_part st;
	bool autoneg;
	bool rx;
	bool tx;
};

/* One congestion-control parameter under its normalized name. */
struct rctl_cc_param {
	char name[RCTL_NAME_LEN];	/* normalized: the upstream debugfs name */
	char src[RCTL_NAME_LEN];	/* the file it came from, relative to path */
	uint64_t value;
};

/*
 * Congestion control (DCQCN/ECN) of the device under a netdev, from whichever
 * home it has: "mlx5-debugfs" (/sys/kernel/debug/mlx5/<pci>/cc_params),
 * "mlx5-sysfs" (MLNX_OFED /sys/class/net/<if>/ecn/roce_{rp,np}),
 * "bnxt_re-configfs", "irdma-configfs". Parameters carry the upstream mlx5
 * names (rp_*, np_*: np_cnp_dscp, np_cnp_prio ...) whatever their source;
 * vendor-only knobs keep their own names (bnxt ecn_enable, cc_mode,
 * roce_prio, roce_dscp; irdma roce_dcqcn_enable ...).
 */
struct rctl_cc {
	struct rctl_part st;
	char source[24];
	char path[160];
	bool enable_known;		/* per-priority enables were read */
	bool rp_enable[8];		/* reaction point (sender), per priority */
	bool np_enable[8];		/* notification point (receiver), per priority */
	struct rctl_cc_param *params;
	uint32_t n_params;
};

/* MLNX_OFED /sys/class/net/<if>/{qos,settings}; absent on upstream mlx5. */
struct rctl_ofed_qos {
	struct rctl_part st;
	char trust[8];			/* "pcp", "dscp"; "" when the file is absent */
	bool has_dscp2prio;
	uint8_t dscp2prio[64];
	bool has_prio2buffer;
	uint8_t prio2buffer[8];
	bool has_buffer_size;
	uint64_t buffer_size[8];	/* bytes */
	char pfc_stall_prevention[16];	/* settings/: "default", "auto", "" absent */
};

/*
 * The LLDP neighbour of a netdev: the switch port at the other end of the
 * link, as its LLDPDU says (IEEE 802.1AB; the DCBX TLVs of IEEE 802.1Q-2018
 * Annex D, the MFS of IEEE 802.3 clause 79), decoded by lib/lldp.c from
 * lldpd or from a captured frame (lib/lldp_collect.c). st.ok: a neighbour
 * was read; st.err 0: it was not looked for (a snapshot older than it).
 */
#define RCTL_LLDP_ID_LEN 64

struct rctl_lldp_peer {
	struct rctl_part st;
	char source[16];		/* "lldpd", "capture" */
	char fw_agent[RCTL_NAME_LEN];	/* a firmware LLDP agent on the NIC, "" none known */
	uint32_t chassis_id_subtype;	/* 802.1AB 8.5.2.2: 4 MAC, 7 local ... */
	char chassis_id[RCTL_LLDP_ID_LEN];	/* MAC "aa:bb:..", text, else hex */
	uint32_t port_id_subtype;	/* 802.1AB 8.5.3.2: 3 MAC, 5 ifname, 7 local */
	char port_id[RCTL_LLDP_ID_LEN];
	char port_descr[RCTL_LLDP_ID_LEN];
	char system_name[RCTL_LLDP_ID_LEN];
	uint32_t ttl;			/* seconds */
	bool has_mfs;			/* 802.3 maximum frame size TLV */
	uint32_t mfs;			/* bytes: header + payload + FCS */
	bool has_pfc;			/* 802.1Qaz PFC configuration TLV */
	bool pfc_willing;
	bool pfc_mbc;
	uint32_t pfc_cap;
	bool pfc_en[8];
	bool has_ets;			/* ETS configuration TLV */
	bool ets_willing;
	bool ets_cbs;
	uint32_t ets_max_tcs;		/* as sent: 0 means 8 */
	uint8_t ets_prio_tc[8];
	uint8_t ets_tc_bw[8];		/* percent */
	uint8_t ets_tc_tsa[8];		/* RCTL_TSA_* */
	bool has_ets_reco;		/* ETS recommendation TLV */
	uint8_t reco_prio_tc[8];
	uint8_t reco_tc_bw[8];
	uint8_t reco_tc_tsa[8];
	bool has_app;			/* application priority TLV */
	struct rctl_app *apps;		/* RCTL_APP_SEL_*, DSCP of 802.1Qcd is 5 */
	uint32_t n_apps;
};

struct rctl_netdev {
	char name[RCTL_IFNAME_LEN];
	uint32_t ifindex;
	char operstate[16];		/* up, down, lowerlayerdown, ... */
	uint32_t mtu;
	uint32_t min_mtu;
	uint32_t max_mtu;
	char kind[16];			/* veth, vlan, bond ... "" for hardware */
	char driver[32];		/* ethtool driver name when known */
	struct rctl_addr *addrs;
	uint32_t n_addrs;
	struct rctl_counter *stats;	/* ethtool -S (driver statistics) */
	uint32_t n_stats;
	int stats_err;			/* errno when the stats were unreadable */
	char pci[16];			/* PCI address of the device, "" if none */
	char driver_version[64];	/* ETHTOOL_GDRVINFO */
	struct rctl_pfc pfc;
	struct rctl_ets ets;
	struct rctl_app_table app;
	struct rctl_dcb_buffer buffer;
	struct rctl_dcbx dcbx;
	struct rctl_maxrate maxrate;
	struct rctl_pause pause;
	struct rctl_cc cc;
	struct rctl_ofed_qos qos;
	struct rctl_counter_set pause_stats;	/* ethtool netlink PAUSE_GET stats */
	bool sriov_vf;			/* an SR-IOV VF (device/physfn exists) */
	char sriov_pf[RCTL_IFNAME_LEN];	/* netdev of its PF, "" when it has none */
	char sriov_pf_pci[16];		/* PCI address of its PF */
	/*
	 * Stacking (rtnetlink, snapshot schema 2). A VLAN (kind "vlan") names
	 * the netdev under it, its id, and the 802.1p PCP its egress-qos-map
	 * gives each skb priority 0..7: rdma_cm's iboe_tos_to_sl() takes the
	 * RoCE VLAN PCP from there (docs/roce-vlan-lag-vf.md). A bond slave
	 * names its master (IFLA_MASTER); the bond itself has kind "bond".
	 */
	char vlan_lower[RCTL_IFNAME_LEN];	/* IFLA_LINK of a VLAN, "" none */
	uint32_t vlan_id;			/* 1..4094, 0 when not a VLAN */
	uint8_t vlan_egress_qos[8];		/* skb priority -> PCP */
	char master[RCTL_IFNAME_LEN];		/* bond (or bridge) above, "" none */
	struct rctl_lldp_peer lldp;		/* the switch port, by LLDP */
};

/*
 * A netfilter rule that drops or rejects a RoCE port: UDP 4791 (RoCE v2) or
 * an out-of-band TCP port (4420 NVMe/TCP, 18515 perftest). One entry per
 * port a rule matches.
 */
struct rctl_nf_rule {
	char family[8];			/* ip, ip6, inet, bridge, netdev */
	char table[RCTL_NAME_LEN];
	char chain[RCTL_NAME_LEN];
	uint64_t handle;
	char proto[8];			/* "udp", "tcp" */
	uint32_t dport;
	char verdict[8];		/* "drop", "reject" */
	char iifname[RCTL_IFNAME_LEN];	/* "" any input interface */
	char oifname[RCTL_IFNAME_LEN];	/* "" any output interface */
};

/* The nftables ruleset ("nft -j list ruleset"), reduced to what blocks RoCE. */
struct rctl_netfilter {
	struct rctl_part st;
	uint32_t n_rules_read;		/* rules in the whole ruleset */
	struct rctl_nf_rule *rules;
	uint32_t n_rules;
};

/*
 * ---- The RDMA consumers of the host (rocectl flows, check's traffic area) ----
 * Who holds QPs and rdma_cm ids, on which port, read from the nldev resource
 * dumps (RDMA_NLDEV_CMD_RES_QP_GET, RES_CM_ID_GET; drivers/infiniband/core/
 * nldev.c fill_res_qp_entry(), fill_res_cm_id_entry(), fill_res_name_pid()),
 * and the traffic class each asked for where the host shows it: the named
 * variables of the owner's environment, NCCL's and Ceph's configuration
 * files, MLNX_OFED's global traffic_class (docs/roce-facts.md, "The RDMA
 * consumers' traffic class"). Bounded: counts
 * per (device, port, kind, owner, QP type, state) always, the entries only
 * up to RCTL_RES_LIST_MAX.
 */
#define RCTL_RES_LIST_MAX 4096
#define RCTL_RES_COUNT_MAX 1024
#define RCTL_ENDPOINT_LEN 56		/* "[ffff:...]:65535" */

/* One QP or rdma_cm id as the dump lists it. */
struct rctl_res_entry {
	char kind[8];			/* "qp", "cm_id" */
	char dev[RCTL_NAME_LEN];
	uint32_t port;			/* 0: not bound to a port yet */
	uint32_t lqpn;			/* 0: none (a cm_id without a QP) */
	char qp_type[12];		/* "RC", "UD", "GSI" ... */
	char state[16];			/* QP: "RTS" ...; cm_id: "CONNECT", "LISTEN" ... */
	char ps[8];			/* rdma_cm port space: "TCP", "UDP", "IPOIB", "IB" */
	char src[RCTL_ENDPOINT_LEN];	/* "10.0.0.1:4420", "" none */
	char dst[RCTL_ENDPOINT_LEN];
	uint32_t pid;			/* 0: a kernel resource */
	char owner[RCTL_NAME_LEN];	/* comm, or "[nvme_rdma]" for the kernel */
	char via[RCTL_NAME_LEN];	/* a kernel QP's own name when its cm_id named the owner */
	/*
	 * A cm_id's RDMA_NLDEV_ATTR_RES_CM_IDN: its restrack id, which
	 * rdma_restrack_add() allocates cyclically per device and type
	 * (xa_alloc_cyclic, from 0), so not soon given to another cm_id.
	 */
	uint32_t id;
	/* Live already when tune changed the port's default ToS (rctl_tos_change). */
	bool made_before_tune;
};

/* How many of one kind, on one port, of one owner, type and state. */
struct rctl_res_count {
	char kind[8];
	char dev[RCTL_NAME_LEN];
	uint32_t port;
	uint32_t pid;
	char owner[RCTL_NAME_LEN];
	char qp_type[12];
	char state[16];
	uint32_t n;
};

/* A named setting: an environment variable, a configuration key, a sysfs file. */
struct rctl_tc_setting {
	char source[16];		/* "environ", "nccl.conf", "ceph.conf", "ofed-sysfs" */
	char where[160];		/* the file, or "/proc/PID/environ" */
	char name[48];			/* NCCL_IB_TC, ms_async_rdma_dscp, traffic_class */
	char value[64];
	char dev[RCTL_NAME_LEN];	/* ofed-sysfs: the device and port */
	uint32_t port;
};

/* One owner of RDMA resources: a process, or a kernel module. */
struct rctl_consumer {
	char name[RCTL_NAME_LEN];	/* comm, or "[nvme_rdma]" */
	uint32_t pid;			/* 0: the kernel */
	uint32_t n_qps;
	uint32_t n_cm_ids;
	/* The environment, reduced to the named variables (pid > 0 only). */
	struct rctl_part env;
	struct rctl_tc_setting *vars;
	uint32_t n_vars;
};

/*
 * A change of a port's rdma_cm default ToS that tune applied (the newest
 * applied state file, read only) and how many of the rdma_cm connections
 * this host had made then (rctl_res_cm_active()) are live still: each
 * keeps the ToS it was made with, the old default, until it reconnects.
 */
struct rctl_tos_change {
	char dev[RCTL_NAME_LEN];
	uint32_t port;
	uint64_t time;			/* when it was written, seconds since the epoch */
	uint32_t old_tos, new_tos;
	uint32_t n_before;		/* connections live then (the plan's list) */
	uint32_t n_live;		/* of them, live now: entries made_before_tune */
	char state[64];			/* the state file's name */
};

struct rctl_rdma_res {
	struct rctl_part st;		/* the dumps; err 0 and !ok: not collected */
	uint32_t n_qps;			/* every one the dumps held */
	uint32_t n_cm_ids;
	uint32_t n_unlisted;		/* entries beyond RCTL_RES_LIST_MAX */
	uint32_t n_uncounted;		/* entries beyond RCTL_RES_COUNT_MAX groups */
	struct rctl_res_entry *list;
	uint32_t n_list;
	struct rctl_res_count *counts;
	uint32_t n_counts;
	struct rctl_consumer *consumers;
	uint32_t n_consumers;
	struct rctl_tc_setting *conf;	/* configuration files, OFED sysfs */
	uint32_t n_conf;
	struct rctl_tos_change *tos_changes;
	uint32_t n_tos_changes;
};

/*
 * Whether entry e of r is an rdma_cm connection this host made: a connected
 * cm_id (CONNECT) that no listening cm_id of its device accepted (none
 * listens on its source port). The active side takes its port's default
 * ToS when it resolves its route (cma.c cma_resolve_iboe_route()); an
 * accepted one takes the class of the peer's request.
 */
bool rctl_res_cm_active(const struct rctl_rdma_res *r, const struct rctl_res_entry *e);
/* The change of DEV/PORT's default ToS tune applied, or NULL. */
const struct rctl_tos_change *rctl_res_tos_change(const struct rctl_rdma_res *r, const char *dev,
						  uint32_t port);
/* "2026-12-05 05:04:33 UTC" of t, into buf. */
const char *rctl_utc_time(uint64_t t, char *buf, size_t len);

/*
 * The kernel's NVMe-oF host (snapshot schema 4): its fabrics controllers
 * (/sys/class/nvme/nvmeN), the subsystems they belong to
 * (/sys/class/nvme-subsystem/nvme-subsysN) and nvme_core's native multipath
 * switch (/sys/module/nvme_core/parameters/multipath). Every attribute is
 * the text drivers/nvme/host/core.c and multipath.c show (Linux 6.1,
 * docs/nvme-host.md); PCIe controllers are left out. The secrets beside
 * them (dhchap_secret, dhchap_ctrl_secret, tls_key ...) are never opened.
 * st.ok false with st.err 0: not collected (a snapshot older than schema 4).
 */
#define RCTL_NQN_LEN 224		/* NVMF_NQN_SIZE (223) + NUL */
/* A timer attribute: seconds, or one of these. */
#define RCTL_NVME_TMO_OFF (-1)		/* the kernel shows "off" */
#define RCTL_NVME_TMO_NONE (-2)		/* no such attribute (older kernel) */

struct rctl_nvme_ctrl {
	char name[16];			/* "nvme0" */
	char transport[16];		/* "rdma", "tcp", "fc", "loop" */
	char state[24];			/* live, connecting, resetting, deleting, dead ... */
	char subsysnqn[RCTL_NQN_LEN];
	char subsys[32];		/* "nvme-subsys0", "" when not found */
	uint32_t cntlid;
	char traddr[RCTL_ADDR_LEN];	/* from "address": traddr=...,trsvcid=... */
	char trsvcid[16];
	char host_traddr[RCTL_ADDR_LEN];
	char host_iface[RCTL_IFNAME_LEN];	/* Linux 5.14+ */
	uint32_t queue_count;		/* I/O queues + the admin queue */
	uint32_t sqsize;		/* 0's based, as the kernel shows it */
	int32_t kato;			/* keep-alive, s; 0 off */
	int32_t ctrl_loss_tmo;		/* s, or RCTL_NVME_TMO_* */
	int32_t reconnect_delay;
	int32_t fast_io_fail_tmo;
	/*
	 * The netdev its traffic leaves by, and how it was found: "host_iface",
	 * "host_traddr" (the netdev holding that address) or "route" (the
	 * kernel's route to traddr, RTM_GETROUTE); "" with netdev_reason when
	 * none. src is the source address (host_traddr, or the route's).
	 */
	char netdev[RCTL_IFNAME_LEN];
	char netdev_by[16];
	char src[RCTL_ADDR_LEN];
	char netdev_reason[RCTL_REASON_LEN];
};

/* One path of a namespace: nvmeXcYnZ under the controller that serves it. */
struct rctl_nvme_path {
	char name[32];			/* "nvme0c0n1" */
	char ctrl[16];			/* "nvme0" */
	uint32_t nsid;
	char ana_state[24];		/* optimized, non-optimized, inaccessible ...; "" no ANA */
};

struct rctl_nvme_subsys {
	char name[32];			/* "nvme-subsys0" */
	char nqn[RCTL_NQN_LEN];
	char iopolicy[24];		/* numa, round-robin, queue-depth; "" without multipath */
	struct rctl_nvme_path *paths;
	uint32_t n_paths;
};

struct rctl_nvme {
	struct rctl_part st;		/* the nvme classes were read */
	bool fabrics;			/* nvme-fabrics is loaded (/sys/class/nvme-fabrics/ctl) */
	int32_t multipath;		/* nvme_core multipath: 1 Y, 0 N, -1 no such parameter */
	struct rctl_nvme_ctrl *ctrls;
	uint32_t n_ctrls;
	struct rctl_nvme_subsys *subsys;
	uint32_t n_subsys;
};

/*
 * The wire (lib/roce_wire.c, lib/capture.c): what RoCE v2 packets a capture
 * saw, per flow and per rdma_cm connection, for the rules of the "wire" area.
 * st.err 0: no capture was taken (a snapshot of a host without one).
 */
#define RCTL_WIRE_MAX_FLOWS 1024	/* flows kept; the packets of more are counted */
#define RCTL_WIRE_MAX_CONNS 256		/* CM REQs kept */

/* ECN codepoints of the IP header's two low ToS bits (RFC 3168 5). */
#define RCTL_ECN_NOT_ECT 0
#define RCTL_ECN_ECT1 1
#define RCTL_ECN_ECT0 2
#define RCTL_ECN_CE 3

/* How many packets carried one DSCP and ECN codepoint. */
struct rctl_wire_mark {
	uint32_t dscp;
	uint32_t ecn;			/* RCTL_ECN_* */
	uint64_t packets;
};

/*
 * One flow: the packets from src to dst for one destination QP (BTH DestQP),
 * in one VLAN. CNPs travel the reverse way of the data they answer, to the
 * sender's QP, so they count in their own flow.
 */
struct rctl_wire_flow {
	char src[RCTL_ADDR_LEN];
	char dst[RCTL_ADDR_LEN];
	uint32_t dst_qp;
	uint32_t vlan;			/* 802.1Q id, 0 untagged */
	/*
	 * A cooked capture (tcpdump -i any) sees a packet between two local
	 * netdevs twice: each copy is its own flow, by interface and way.
	 */
	uint32_t ifindex;		/* Linux SLL2's interface, else 0 */
	bool outgoing;			/* Linux SLL/SLL2 packet type OUTGOING */
	char owner[RCTL_NAME_LEN];	/* the process that owns the QP, "" unknown */
	uint64_t packets;
	uint64_t bytes;			/* IP length, as the header says */
	uint64_t requests;		/* RC/UC/XRC requests: SEND, WRITE, READ req, atomics */
	uint64_t responses;		/* READ responses, atomic ACKs */
	uint64_t acks;			/* ACKs and NAKs (opcode ACKNOWLEDGE) */
	uint64_t cnps;			/* congestion notification packets */
	uint64_t mads;			/* UD to QP1: CM MADs */
	uint64_t other;			/* UD data and opcodes not above */
	struct rctl_wire_mark *marks;	/* every packet but CNPs */
	uint32_t n_marks;
	struct rctl_wire_mark *cnp_marks;
	uint32_t n_cnp_marks;
	/* NAKs by AETH syndrome (IBTA 9.7.5.2.8, Table 44) */
	uint64_t nak_psn_seq;		/* PSN sequence error: the responder saw a gap */
	uint64_t nak_rnr;		/* receiver not ready: no receive WQE */
	uint64_t nak_invalid_req;
	uint64_t nak_remote_access;
	uint64_t nak_remote_op;
	uint64_t psn_regressions;	/* a request PSN below the last: a retransmission */
};

/* An rdma_cm connection request (CM REQ, IBTA 12.6.5) and its answer. */
struct rctl_wire_conn {
	char src[RCTL_ADDR_LEN];	/* the active side (IP source of the REQ) */
	char dst[RCTL_ADDR_LEN];
	char local_gid[RCTL_ADDR_LEN];	/* the REQ's primary path */
	char remote_gid[RCTL_ADDR_LEN];
	uint32_t comm_id;		/* REQ local communication id */
	uint32_t qpn;			/* REQ local QPN: the active side's QP */
	uint32_t traffic_class;		/* REQ primary traffic class: the connection's ToS */
	uint32_t ip_tos;		/* ToS of the IP packet that carried the REQ */
	uint64_t reqs;			/* REQs seen, retries included */
	char reply[8];			/* "rep", "rej", "" none seen */
	uint32_t rej_reason;
	uint32_t rep_qpn;		/* REP local QPN: the passive side's QP */
};

struct rctl_wire {
	struct rctl_part st;
	char source[8];			/* "live", "file" */
	char iface[RCTL_IFNAME_LEN];	/* live: the netdev */
	char file[160];			/* file: its path */
	char link_type[24];		/* libpcap's DLT name: "EN10MB", "LINUX_SLL2" */
	double seconds;			/* live: how long; file: first to last packet */
	uint64_t frames;		/* frames the capture handed over */
	uint64_t roce_packets;		/* RoCE v2 (UDP 4791) packets decoded */
	uint64_t malformed;		/* UDP 4791 cut short or not RoCE */
	bool drops_known;
	uint64_t drops;			/* pcap_stats ps_drop: the capture's own losses */
	uint64_t if_drops;		/* ps_ifdrop: the interface's */
	/*
	 * The driver family of the netdev when its RoCE bypasses the kernel
	 * (mlx5, bnxt_re, irdma): a live capture there sees no RoCE. "" none.
	 */
	char bypass[16];
	char bypass_dev[RCTL_NAME_LEN];	/* its RDMA device */
	uint32_t flow_cap;
	uint64_t flow_overflow;		/* packets of flows beyond the cap */
	uint64_t conn_overflow;		/* REQs beyond RCTL_WIRE_MAX_CONNS */
	struct rctl_wire_flow *flows;
	uint32_t n_flows;
	struct rctl_wire_conn *conns;
	uint32_t n_conns;
};

/* Something that could not be read, and why. */
struct rctl_unread {
	char what[RCTL_NAME_LEN * 2];	/* "dcb pfc of 'eth2'" */
	int errnum;
	char reason[RCTL_REASON_LEN];
};

struct rctl_host {
	char hostname[RCTL_NAME_LEN];
	char kernel[RCTL_NAME_LEN];
	int64_t time;			/* seconds since the epoch */
	double sample_interval_s;	/* measured time between counter samples, 0 none */
	struct rctl_device *devs;
	uint32_t n_devs;
	struct rctl_netdev *netdevs;
	uint32_t n_netdevs;
	struct rctl_unread *unread;
	uint32_t n_unread;
	struct rctl_part procs;		/* the /proc scan for lldpad */
	bool lldpad_running;		/* lldpad may override host DCB settings */
	uint32_t lldpad_pid;
	struct rctl_netfilter netfilter;
	struct rctl_rdma_res res;	/* the RDMA consumers (snapshot schema 4) */
	struct rctl_nvme nvme;		/* the kernel's NVMe-oF controllers */
	struct rctl_wire wire;		/* a capture's summary (snapshot schema 4) */
	/*
	 * Not in the snapshot: netdevs sorted by name and VLANs by their lower
	 * netdev (indices into netdevs), for lookups in O(log n) instead of a
	 * scan; built by rctl_host_index() for the netdevs array it saw
	 * (idx_base, idx_n), and ignored once that array changed.
	 */
	uint32_t *idx_name, *idx_vlan;
	uint32_t n_idx_vlan;
	const struct rctl_netdev *idx_base;
	uint32_t idx_n;
};

void rctl_host_free(struct rctl_host *h);
/*
 * Index the netdevs (above) once they are all in: rctl_collect() and the
 * snapshot loader do. Without memory the lookups scan, as without an index.
 */
void rctl_host_index(struct rctl_host *h);
void rctl_host_index_free(struct rctl_host *h);
/* qsort() order of uint32_t, ascending. */
int rctl_u32_cmp(const void *a, const void *b);

/* Lookups used by commands and rules. */
struct rctl_netdev *rctl_host_netdev(const struct rctl_host *h, const char *name);
struct rctl_device *rctl_host_dev(const struct rctl_host *h, const char *name);

/*
 * Whether "filter" names this port: the device ("mlx5_0"), the port
 * ("mlx5_0/1") or the netdev under it ("ens1f0np0"); NULL matches all.
 */
bool rctl_port_match(const char *filter, const struct rctl_device *d,
		     const struct rctl_port *p);
/* Whether "filter" (as rctl_port_match) names any RDMA port of the host. */
bool rctl_host_matches(const struct rctl_host *h, const char *filter);
/*
 * Whether "name" is a RoCE LAG slave of port p: a netdev in the bond above
 * p's netdev that no RDMA port names (it carries p's traffic, --dev takes it).
 */
bool rctl_port_lag_slave(const struct rctl_host *h, const struct rctl_port *p, const char *name);
/*
 * The bond above p's netdev (or that netdev, a bond), NULL when none: without
 * one no netdev is a LAG slave of p, and a loop over every netdev asking
 * rctl_port_lag_slave() is not needed (rules run once per port: that loop made
 * them quadratic in the ports).
 */
const struct rctl_netdev *rctl_port_bond(const struct rctl_host *h, const struct rctl_port *p);

/* Append a zeroed element to a dynamic array; NULL when out of memory. */
void *rctl_arr_push(void *arr_p, uint32_t *n, size_t elem);

/* Note something that could not be read (ignored when out of memory). */
void rctl_host_unread(struct rctl_host *h, int errnum, const char *reason,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Normalized congestion-control parameter by name; false when not read. */
bool rctl_cc_get(const struct rctl_cc *cc, const char *name, uint64_t *v);

/* Mark a part unreadable: ok false, errno and reason (strerror when NULL). */
void rctl_part_fail(struct rctl_part *p, int errnum, const char *reason);

/* Whether the netdev MTU is what limits active_mtu (RoCE needs MTU - 96). */
uint32_t rctl_roce_mtu_for(uint32_t netdev_mtu);

/* rt_tos2priority(): the skb priority the kernel gives an IPv4 ToS (TC_PRIO_*). */
uint32_t rctl_tos2priority(uint32_t tos);

/*
 * RoCE over stacked netdevs. A port's RoCE netdevs are its netdev, the bond
 * above it (RoCE LAG) and VLANs on either: the netdevs its GIDs may sit on.
 */
/* The bond a netdev is, or is a slave of; NULL when none. */
const struct rctl_netdev *rctl_bond_of(const struct rctl_host *h,
				       const struct rctl_netdev *nd);
/* Whether netdev "name" carries RoCE of the port whose netdev is "port_nd". */
bool rctl_roce_netdev(const struct rctl_host *h, const struct rctl_netdev *port_nd,
		      const char *name);
/*
 * The netdevs rctl_roce_netdev() says yes to, as indices into h->netdevs in
 * their order: malloc'd, *n of them; NULL with *n 0 when none or no memory
 * (-ENOMEM in *err). O(k log n) with the index, a scan without.
 */
uint32_t *rctl_roce_netdevs(const struct rctl_host *h, const struct rctl_netdev *port_nd,
			    uint32_t *n, int *err);
/* Whether some RDMA port of the host has this netdev as its netdev. */
bool rctl_port_netdev(const struct rctl_host *h, const char *name);

#endif
