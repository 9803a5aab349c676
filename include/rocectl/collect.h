/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Collectors fill the host model from the live host. They only read. What a
 * collector cannot read becomes an entry in host->unread (errno + reason),
 * not an error; an error is returned only when nothing useful can be done.
 */
#ifndef ROCECTL_COLLECT_H
#define ROCECTL_COLLECT_H

#include "rocectl/err.h"
#include "rocectl/model.h"
#include "rocectl/nl.h"
#include "rocectl/sysfs.h"

enum rctl_collect_what {
	RCTL_COLLECT_INVENTORY = 1 << 0,	/* devices, ports, GIDs, netdevs */
	RCTL_COLLECT_COUNTERS = 1 << 1,		/* hw counters, ethtool stats */
	RCTL_COLLECT_QOS = 1 << 2,		/* DCB, pause, cc, rdma_cm, OFED qos, lldpad */
	RCTL_COLLECT_CONSUMERS = 1 << 3,	/* QPs, cm_ids, their owners' traffic class */
	RCTL_COLLECT_NVME = 1 << 4,		/* the kernel's NVMe-oF controllers */
};

int rctl_collect(struct rctl_host *h, unsigned int what, struct rctl_err *e);

/* The parts, in the order rctl_collect() runs them. */
int rctl_rdma_collect(struct rctl_nl *nl, struct rctl_host *h, struct rctl_err *e);
/* The kernel driver id (enum rdma_driver_id) of RDMA device "index" (lib/rdma_nl.c). */
int rctl_rdma_uverbs_driver(struct rctl_nl *nl, uint32_t index, uint32_t *id);
int rctl_verbs_collect(struct rctl_nl *nl, struct rctl_host *h, struct rctl_err *e);
int rctl_netdev_collect(struct rctl_host *h, struct rctl_err *e);
/*
 * The kernel's route to IP address dst ("ip route get"): the output netdev
 * into ifname, its preferred source address into src ("" none). 0 or -errno
 * (lib/netdev.c).
 */
int rctl_route_get(const char *dst, char *ifname, size_t len, char *src, size_t src_len,
		   struct rctl_err *e);

/*
 * The QoS parts (RCTL_COLLECT_QOS), on an inventoried host. Each fills the
 * st (ok/err/reason) of its parts; they fail only when out of memory.
 */
int rctl_collect_qos(struct rctl_host *h, struct rctl_err *e);	/* all below */
int rctl_dcb_collect(struct rctl_host *h, struct rctl_err *e);	/* dcbnl */
int rctl_pause_collect(struct rctl_host *h, struct rctl_err *e);	/* ethtool */
int rctl_cc_collect(struct rctl_host *h, struct rctl_err *e);	/* DCQCN/ECN */
/* Why a congestion-control read got EPERM/EACCES (kernel lockdown, root); NULL otherwise. */
const char *rctl_cc_denied_reason(int err, char *buf, size_t len);
/* Mark DCB parts a bnxt_en in host DCBX mode answered with zeroes (lib/dcb.c). */
void rctl_dcb_fw_managed(struct rctl_netdev *nd);
int rctl_cmcfg_collect(struct rctl_host *h, struct rctl_err *e);	/* rdma_cm */
/*
 * The rdma_cm configfs layout (drivers/infiniband/core/cma_configfs.c), for
 * the reader and for tune's writes alike: <configfs>/rdma_cm/<dev>, and
 * <configfs>/rdma_cm/<dev>/ports/<port>/<file>. 0 or -ENAMETOOLONG.
 */
#define RCTL_CM_MODE_FILE "default_roce_mode"
#define RCTL_CM_TOS_FILE "default_roce_tos"
int rctl_cm_dir(char *buf, size_t len, const char *dev);
int rctl_cm_file(char *buf, size_t len, const char *dev, uint32_t port, const char *file);
int rctl_qos_collect(struct rctl_host *h, struct rctl_err *e);	/* OFED qos, lldpad */
/* A driver's ethtool private flag by name; -ENOENT when it has none (lib/ethtool.c). */
int rctl_ethtool_priv_flag(const char *ifname, const char *flag, bool *on);
int rctl_netfilter_collect(struct rctl_host *h, struct rctl_err *e);	/* nft ruleset */
/*
 * The kernel's NVMe-oF host into h->nvme (lib/nvme_host.c): fabrics
 * controllers, subsystems, paths, nvme_core multipath. Fails only when out
 * of memory; an unreadable class marks the part.
 */
int rctl_nvme_collect(struct rctl_host *h, struct rctl_err *e);
/* A controller's "address" attribute into traddr, trsvcid, host_traddr, host_iface. */
int rctl_nvme_parse_address(const char *txt, struct rctl_nvme_ctrl *c);
/* A timer attribute: "off" is RCTL_NVME_TMO_OFF, else seconds; -EINVAL/-ERANGE. */
int rctl_nvme_parse_tmo(const char *txt, int32_t *v);

/* The rules of "nft -j list ruleset" that drop RoCE's ports, into nf. */
int rctl_nft_parse(const char *json, struct rctl_netfilter *nf, struct rctl_err *e);
/* Whether a line of modules.builtin names nf_tables (built into the kernel). */
bool rctl_nft_builtin(const char *line);

/*
 * The netlink reply parsers, on one message (nlmsg_len within the buffer):
 * a DCB_CMD_IEEE_GET reply into nd; an nldev GET into a new device of h; an
 * nldev PORT_GET into a new port of d. -ENOMEM is the only failure: what the
 * reply lacks or does not validate is left unset.
 */
int rctl_dcb_parse(const struct nlmsghdr *nlh, struct rctl_netdev *nd);
/*
 * The driver's answer in dcbnl's reply to a SET or DEL: 0 (also for the
 * positive statuses ice returns on success), or -errno.
 */
int rctl_dcb_set_status(const struct nlmsghdr *nlh);
int rctl_rdma_parse_dev(const struct nlmsghdr *nlh, struct rctl_host *h);

/*
 * The nldev resource dumps (lib/rdma_nl.c): the state one pass over them
 * keeps. Dump every device's cm_ids first, then rctl_res_join_ready(), then
 * its QPs: a kernel QP that names "rdma_cm" as its owner takes the owner of
 * the cm_id with its QP number on its device (the ULP: nvme_rdma ...).
 */
struct rctl_res_kcm;
struct rctl_res_ctx {
	struct rctl_rdma_res *res;
	struct rctl_res_kcm *kcm;	/* kernel cm_ids with a QP, for the join */
	uint32_t n_kcm;
	bool oom;
};
/* One RES_QP_GET or RES_CM_ID_GET reply message; -ENOMEM the only failure. */
int rctl_res_parse(const struct nlmsghdr *nlh, struct rctl_res_ctx *c);
void rctl_res_join_ready(struct rctl_res_ctx *c);
void rctl_res_ctx_free(struct rctl_res_ctx *c);
/* Both dumps of every device of h into h->res (lib/rdma_nl.c). */
int rctl_res_collect(struct rctl_nl *nl, struct rctl_host *h);
/*
 * The consumers' traffic-class sources (lib/consumers.c): comm and the named
 * variables of each owner's environment, NCCL's and Ceph's configuration
 * files, MLNX_OFED's tc/PORT/traffic_class.
 */
int rctl_consumers_collect(struct rctl_host *h, struct rctl_err *e);
/*
 * An environment block (NUL-separated NAME=VALUE, as /proc/PID/environ) of
 * "len" bytes: only the variables rctl_tc_env_names[] names are kept, into
 * c->vars; every other one is skipped unread. -ENOMEM the only failure.
 */
int rctl_environ_parse(const char *buf, size_t len, struct rctl_consumer *c,
		       const char *where);
/* The allow-list: the only environment variables rocectl keeps. NULL-ended. */
extern const char *const rctl_tc_env_names[];
/*
 * A configuration file's text: "KEY=VALUE" lines (nccl.conf) or an INI file
 * with "key = value" (ceph.conf, whose key names may use spaces or
 * underscores); only the keys of "keys" (NULL-ended) are kept, into res->conf.
 */
int rctl_conf_parse(const char *txt, const char *source, const char *where,
		    const char *const *keys, struct rctl_rdma_res *res);
/*
 * MLNX_OFED's tc/PORT/traffic_class text: *global the "Global tclass=N"
 * (-1 when unset), *n_rules the per-destination rule lines. -EINVAL when a
 * line is neither or the class is not a byte.
 */
int rctl_ofed_tclass_parse(const char *txt, int *global, uint32_t *n_rules);
int rctl_rdma_parse_port(const struct nlmsghdr *nlh, struct rctl_device *d);

/* MLNX_OFED qos/dscp2prio text (both shapes) into map; false: no entry. */
bool rctl_qos_parse_dscp2prio(const char *txt, uint8_t map[64]);

/* MLNX_OFED qos/prio2buffer or buffer_size rows into u8[8] or u64[8]. */
bool rctl_qos_parse_rows(const char *txt, uint8_t *u8, uint64_t *u64);
/* Whether a line of /proc/net/unix is lldpad's control socket (lib/qos.c). */
bool rctl_unix_line_lldpad(const char *line);

#endif
