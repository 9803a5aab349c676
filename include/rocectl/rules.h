/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Rules: one table (lib/rules_table.c) of checks that judge a host model
 * against an intent, one file per area (lib/rules_<area>.c). A rule reads
 * only the model and emits findings: a stable id ("pfc.prio_disabled"), the
 * target (port or netdev), a status, "expected X, got Y", the values read
 * and the exact command that fixes it. Data that could not be read gives
 * "unknown" with the reason, never "fail".
 */
#ifndef ROCECTL_RULES_H
#define ROCECTL_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rocectl/intent.h"
#include "rocectl/model.h"
#include "rocectl/settings.h"

/* Ordered by severity for aggregation (see rctl_report_exit()). */
enum rctl_status {
	RCTL_PASS,
	RCTL_WARN,
	RCTL_UNKNOWN,
	RCTL_FAIL,
	RCTL_STATUS_N,
};

enum rctl_area {
	RCTL_AREA_PFC,
	RCTL_AREA_ECN,
	RCTL_AREA_DCQCN,
	RCTL_AREA_DSCP,
	RCTL_AREA_CNP,
	RCTL_AREA_MTU,
	RCTL_AREA_GID,
	RCTL_AREA_MODE,
	RCTL_AREA_COUNTERS,
	RCTL_AREA_FIREWALL,
	RCTL_AREA_PEER,
	RCTL_AREA_TRAFFIC,
	RCTL_AREA_NVMF,
	RCTL_AREA_WIRE,
	RCTL_AREA_N,
};

#define RCTL_FIELD_LEN 160

struct rctl_cause;

struct rctl_finding {
	const char *id;			/* rule id, static */
	enum rctl_area area;
	enum rctl_status status;
	char target[RCTL_NAME_LEN * 2];	/* "mlx5_0/1 (eth2)" or "eth2" */
	/* The same target, structured: "" and 0 when not applicable (host-wide). */
	char device[RCTL_NAME_LEN];
	uint32_t port;
	char netdev[RCTL_IFNAME_LEN];
	double ratio;			/* a measured ratio (the loss rate), */
	bool has_ratio;			/* for Nagios perfdata and Prometheus */
	char message[RCTL_FIELD_LEN * 2];
	char expected[RCTL_FIELD_LEN];
	char observed[RCTL_FIELD_LEN];
	char evidence[RCTL_FIELD_LEN * 2];	/* values read, where from */
	char fix[RCTL_FIELD_LEN * 2];		/* exact command, "" when none */
	/*
	 * The settings table's setting the finding judges ("setting_id"), the
	 * key tune's change of it carries too; RCTL_SET_NONE when none.
	 */
	enum rctl_setting setting;
	/*
	 * One root cause, one finding (the runner's grouping, rules.c): a
	 * consequence names its root finding (root_id, root_target; caused_by
	 * its index in the report, -1 for none, which a copy of the finding
	 * does not keep); a root counts its consequences. "limit" is set on a
	 * root that is a documented driver limit, which no host setting
	 * changes, and on its consequences.
	 */
	const struct rctl_cause *cause;	/* the root cause that applied to its target */
	int32_t caused_by;
	const char *root_id;
	char root_target[RCTL_NAME_LEN * 2];
	uint32_t n_consequences;
	const char *limit;
};

/*
 * count[] and area_count[] hold the findings that stand on their own: a
 * consequence counts under its root only (n_caused), a driver limit and its
 * consequences not at all (n_limit roots): neither makes the exit status.
 */
struct rctl_report {
	struct rctl_finding *f;
	uint32_t n;
	uint32_t count[RCTL_STATUS_N];
	uint32_t area_count[RCTL_AREA_N][RCTL_STATUS_N];
	uint32_t n_limit, n_caused;
	uint32_t area_limit[RCTL_AREA_N], area_caused[RCTL_AREA_N];
	bool oom;			/* a finding was lost to allocation */
};

/* Whether a finding counts by its status: no consequence, no driver limit. */
bool rctl_finding_counted(const struct rctl_finding *f);

/* A port the rules look at: RDMA port, its netdev (NULL when none). */
struct rctl_target {
	const struct rctl_device *dev;
	const struct rctl_port *port;
	const struct rctl_netdev *nd;
	bool first; /* the port's first QoS target */
	char name[RCTL_NAME_LEN * 2];
};

/*
 * What a rule judges; the runner (rctl_judge_rules()) iterates it, applies
 * --dev, and calls the rule once per target:
 *   HOST    once, t NULL: lldpad, firewalls, RoCE presence (a rule that also
 *           looks at ports walks them itself with rctl_target_next());
 *   PORT    each RoCE port, t->nd NULL when it has no netdev;
 *   NETDEV  each RoCE port with its netdev: GIDs, the netdev being a VF;
 *   QOS     each netdev that carries a port's traffic and holds its DCB and
 *           pause: the port's own, then every RoCE LAG slave (t->nd the slave,
 *           t->name "DEV/PORT (SLAVE in BOND)"); --dev SLAVE selects one;
 *   PF      each RoCE port with the netdev that holds its congestion control
 *           (ECN/DCQCN, CNP, bnxt_re's RoCE marking).
 * With needs_deltas, PORT targets come only with read hw_counters and QOS
 * targets only with read ethtool statistics, and none from a one-sample host.
 * The VF through its PF: a VF's DCB, pause and congestion control are its
 * PF's, so a QOS or PF target of a VF's port is its PF's netdev (t->nd the
 * PF, t->name "DEV/PORT (VF via PF PFNAME)"), and none when the PF is not in
 * the model (ecn.sriov_vf then points at it).
 */
enum rctl_scope {
	RCTL_SCOPE_HOST,
	RCTL_SCOPE_PORT,
	RCTL_SCOPE_NETDEV,
	RCTL_SCOPE_QOS,
	RCTL_SCOPE_PF,
};

/*
 * The model parts a rule judges (rctl_rule.parts): the runner calls it only
 * where all of them were read. Where one was not, the first rule of the run
 * that reports it (rctl_rule.says) gives the one unknown with the reason,
 * once per part and netdev; DCB buffer, ETS and DCBX the driver does not
 * implement at all (EOPNOTSUPP) are not judged and not reported.
 */
enum rctl_need {
	RCTL_NEED_PFC = 1u << 0,
	RCTL_NEED_ETS = 1u << 1,
	RCTL_NEED_APP = 1u << 2,
	RCTL_NEED_BUFFER = 1u << 3,
	RCTL_NEED_DCBX = 1u << 4,
	RCTL_NEED_PAUSE = 1u << 5,
	RCTL_NEED_CC = 1u << 6,
	RCTL_NEED_CM = 1u << 7,
};

/* What a rule function gets. */
struct rctl_judge {
	const struct rctl_host *h;
	const struct rctl_intent *in;
	const char *filter;		/* --dev: DEV, DEV/PORT or netdev; NULL all */
	struct rctl_report *r;
	const struct rctl_rule *rule;	/* the rule running */
	const struct rctl_part **said;	/* the unreadable parts reported */
	uint32_t n_said;
	uint32_t last_dev, last_port;	/* the port the last finding was on: */
	bool has_last;			/* findings come port by port */
	bool unique_known, unique;	/* a target names one port at most */
};

/*
 * The intent of port p of device d (rctl_intent_for()): the sections of the
 * config file that name its drivers, its device or its netdev, over "in".
 */
void rctl_intent_of_port(const struct rctl_intent *in, const struct rctl_host *h,
			 const struct rctl_device *d, const struct rctl_port *p,
			 struct rctl_intent *out);

/*
 * A root cause several findings follow from. A rule that may be one of them
 * names it (rctl_rule.cause); where it applies to the target, the runner
 * groups the non-pass findings of those rules on that port under the one of
 * the root rule (the first of them when the root rule did not run or said
 * nothing there). The runner also groups, without a table, the findings of
 * an SR-IOV VF's port judged on its PF under the PF's own finding.
 */
struct rctl_cause {
	const char *root;		/* the rule whose finding states the fact */
	bool (*applies)(const struct rctl_target *t);
	/* A documented driver limit no host setting changes: what it is; NULL for a fault. */
	const char *limit;
};

struct rctl_rule {
	const char *id;
	enum rctl_area area;
	const char *ref;		/* its section of docs/roce-facts.md */
	const char *meaning;		/* one line, for the man page and --list */
	void (*fn)(struct rctl_judge *j, const struct rctl_target *t);
	enum rctl_scope scope; /* what fn judges, once per target */
	bool needs_deltas;		/* judges counter deltas (doctor, collect -s) */
	unsigned int parts;		/* RCTL_NEED_*: fn runs where all were read */
	unsigned int says;		/* of those, the ones it reports unreadable */
	/*
	 * Where a part is unreadable, before the runner's unknown: true when
	 * the rule said what there is to say (or that nothing applies).
	 */
	bool (*unreadable)(struct rctl_judge *j, const struct rctl_target *t);
	const struct rctl_cause *cause;	/* the root cause its findings may follow from */
};

/* The one table (lib/rules_table.c). */
extern const struct rctl_rule rctl_rules[];
extern const unsigned int rctl_n_rules;

const char *rctl_status_name(enum rctl_status s);
const char *rctl_area_name(enum rctl_area a);
/* Area by name; -1 when none. */
int rctl_area_parse(const char *name);
/* NULL-terminated area names, then "all", for choices. */
extern const char *const rctl_area_names[];

/* Run the rules of "areas" (bit mask of 1 << area) into "r". */
void rctl_judge_host(const struct rctl_host *h, const struct rctl_intent *in,
		     unsigned int areas, const char *filter, struct rctl_report *r);
/* The same with the table given (lib/rules.c): what rctl_judge_host() runs. */
void rctl_judge_rules(const struct rctl_host *h, const struct rctl_intent *in,
		      unsigned int areas, const char *filter, const struct rctl_rule *rules,
		      unsigned int n, struct rctl_report *r);
void rctl_report_free(struct rctl_report *r);

/*
 * Any fail -> 2, else any warn -> 1, else any unknown -> 3, else 0: an
 * unknown never hides a warning or a failure that was read.
 */
int rctl_report_exit(const struct rctl_report *r);
/*
 * The same, with what unknowns alone give (0, 1 or 3: --unknown-as); a
 * report that ran out of memory, and so may miss a failure, is 3 unless it
 * holds one.
 */
int rctl_report_exit_as(const struct rctl_report *r, int unknown_exit);

/*
 * --skip NAME...: each NAME is an area (its bit leaves *areas) or a rule id
 * (the rule leaves the table). out gets the rules that remain (room for
 * rctl_n_rules), *n_out their number. 0, or -EINVAL naming what is neither.
 */
struct rctl_err;
int rctl_rules_skip(const char *const *names, unsigned int n, unsigned int *areas,
		    struct rctl_rule *out, unsigned int *n_out, struct rctl_err *e);

/*
 * The plugin's -w/-c thresholds on every measured ratio (the loss rate):
 * outside crit (when set) fails, else outside warn warns, else passes; the
 * loss budget no longer decides these findings once crit is set. Rewrites
 * their message and expectation, and the counts.
 */
struct rctl_range;
void rctl_report_ratio_ranges(struct rctl_report *r, const struct rctl_range *warn,
			      const struct rctl_range *crit);

/* One finding of the running rule, by field; NULLs are "". */
struct rctl_say {
	enum rctl_status status;
	const char *target; /* t->name; NULL: the host */
	const char *expected;
	const char *observed;
	const char *evidence; /* values read, where from */
	const char *fix; /* exact command */
};

/* Emit a finding for the running rule: its fields, and its message. */
void rctl_say(struct rctl_judge *j, const struct rctl_say *s, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A passing finding on t (NULL: the host), what was expected and what was read. */
void rctl_pass(struct rctl_judge *j, const struct rctl_target *t, const char *expected,
	       const char *observed, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The same, with the evidence: the values read and where from. */
void rctl_pass_ev(struct rctl_judge *j, const struct rctl_target *t, const char *expected,
		  const char *observed, const char *evidence, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/*
 * Whether unreadable part p was reported unknown earlier in this run (by the
 * runner for another rule); marks it reported when not. A rule that reads a
 * part of another area (nvmf.port_pfc, a port's PFC) says it once this way.
 */
bool rctl_part_said(struct rctl_judge *j, const struct rctl_part *p);

/*
 * Whether a host part (the nft ruleset, the NVMe classes) was read. When it
 * was not and "report" is set, the one unknown: "cannot read WHAT: reason"
 * (a part never collected, errno 0, says nothing).
 */
bool rctl_host_part_read(struct rctl_judge *j, const struct rctl_part *st, bool report,
			 const char *what);

/* The setting of the finding just emitted, where the rule's default is not it. */
void rctl_emit_setting(struct rctl_judge *j, enum rctl_setting s);
/* The setting a rule's findings judge by default (lib/rules.c). */
enum rctl_setting rctl_rule_setting(const char *rule_id);
/* Attach a measured ratio (the loss rate) to the finding just emitted. */
void rctl_emit_ratio(struct rctl_judge *j, double ratio);

/* Iterate over the RoCE (Ethernet) ports that match the filter. */
bool rctl_target_next(struct rctl_judge *j, struct rctl_target *t,
		      uint32_t *di, uint32_t *pi);

/*
 * Iterate over the netdevs that hold the DCB, pause and congestion control
 * of each RoCE port (dcbnl lives on the physical function): the port's
 * netdev, then, under RoCE LAG, every other slave of its bond that no RDMA
 * port names; t->nd is that slave and t->name says "DEV/PORT (SLAVE in BOND)".
 * cur[] starts zeroed. The runner's RCTL_SCOPE_QOS.
 */
bool rctl_qos_target_next(struct rctl_judge *j, struct rctl_target *t, uint32_t cur[3]);

/*
 * The netdev of GID "i" of port "p" when that is a RoCE v2 GID on another
 * netdev than the port's (a VLAN, the bond of RoCE LAG) and the first GID
 * there; NULL otherwise. "routable" skips link-local (fe80::) GIDs.
 */
const struct rctl_netdev *rctl_gid_upper(const struct rctl_host *h,
					 const struct rctl_port *p, uint32_t i,
					 bool routable);
/*
 * Every "i" for which rctl_gid_upper() finds an upper (the netdev aside),
 * ascending: one sort, O(g log g) where calling it for each GID is O(g^2).
 * malloc'd, *n of them; NULL with *n 0 when none or out of memory (*err).
 */
uint32_t *rctl_gid_uppers(const struct rctl_port *p, bool routable, uint32_t *n, int *err);

/*
 * RoCE loss rate = (sequence errors + out-of-sequence + retransmissions) ÷
 * packets, from counter deltas. Returns false when no packets moved.
 */
bool rctl_loss_rate(uint64_t lost, uint64_t packets, double *rate);

/* Helpers for the rule files (lib/rules.c). */

/* Priorities set in en[8] as "0,3", or "none". */
/*
 * Priorities "dscp" maps to on nd: the APP table, else the MLNX_OFED
 * dscp2prio file when qos/trust is dscp. Returns how many distinct ones;
 * *trust_dscp: whether the port classifies by DSCP at all (lib/rules_dscp.c).
 */
int rctl_dscp_prios(const struct rctl_netdev *nd, int dscp, bool prios[8],
		    bool *trust_dscp);
const char *rctl_prio_list(const bool en[8], char *buf, size_t len);
/*
 * Whether RoCE leaves port p untagged: no routable RoCE v2 GID on a VLAN;
 * false on a PCP design, RoCE on VLANs whose egress-qos-map carries the
 * priority in the PCP, also when the untagged netdev has an address too
 * (lib/rules_dscp.c).
 */
bool rctl_roce_untagged(const struct rctl_host *h, const struct rctl_port *p);
/* Whether the host's counters carry deltas of two samples. */
bool rctl_host_has_deltas(const struct rctl_host *h);

/* Delta of a named counter, 0 when absent or without delta. */
uint64_t rctl_delta_of(const struct rctl_counter *c, uint32_t n, const char *name);
/* Sum of the deltas of every counter matching "pat" ('#' = digits). */
uint64_t rctl_delta_match(const struct rctl_counter *c, uint32_t n, const char *pat);

/*
 * ECN/DCQCN on priority "prio" of target t's netdev, notification point
 * ("np") or reaction point: 1 on, 0 off, -1 not knowable from the host
 * (upstream mlx5 keeps the per-priority enable in firmware NVCONFIG), -2
 * unreadable. Upstream irdma is 0 without reading anything: it writes
 * dcqcn_en false into every RoCE QP (rctl_dcqcn_hardwired_off()). The
 * reaction point is 0 too where RoCE packets leave Not-ECT (Broadcom's
 * configfs ecn_marking 0): no switch marks them, no CNP comes back.
 */
int rctl_ecn_on(const struct rctl_target *t, int prio, bool np);
/*
 * Whether DCQCN is off by the driver's code, not by a setting: upstream
 * irdma (drivers/infiniband/hw/irdma/verbs.c irdma_roce_fill_and_set_
 * qpctx_info), told from Intel's out-of-tree irdma by its module version
 * and its configfs.
 */
bool rctl_dcqcn_hardwired_off(const struct rctl_target *t);
/*
 * Whether none of port t's hw counters means RoCE loss (irdma: its
 * irdma_hw_stat_descs has none), so its loss rate is unknown
 * (lib/rules_counters.c).
 */
bool rctl_loss_unmeasurable(const struct rctl_target *t);
/*
 * Whether the driver of t's netdev counts no packets per priority, only PFC
 * frames (ice), so traffic.lossless_share cannot be measured there
 * (lib/rules_traffic_counters.c).
 */
bool rctl_prio_share_unmeasurable(const struct rctl_target *t);
/* The setting an ECN finding of t judges: per side (MLNX_OFED), one switch, or none. */
enum rctl_setting rctl_ecn_setting(const struct rctl_target *t, bool np);
/* The command that turns it on, into buf ("" when there is none). */
void rctl_ecn_fix(const struct rctl_target *t, int prio, bool np, char *buf, size_t len);
/* Where an ECN verdict of t was read. */
const char *rctl_ecn_evidence(const struct rctl_target *t, bool np);

/*
 * One direction of the port's traffic over the interval
 * (lib/rules_traffic_counters.c): RoCE packets, CNPs on another priority
 * left out, and the packets of each priority of the port.
 */
struct rctl_prio_share {
	uint64_t roce;
	uint64_t prio[8];
	bool has_prio;		/* the driver showed per-priority packet counters */
};

/* Verdicts, ordered by what a finding reports first (the largest). */
enum rctl_share_verdict {
	RCTL_SHARE_NO_COUNTER,	/* no per-priority counter: not measurable */
	RCTL_SHARE_FEW,		/* fewer RoCE packets than RCTL_SHARE_MIN_PKTS */
	RCTL_SHARE_ON,		/* the priority carried at least half of them */
	RCTL_SHARE_UNPLACED,	/* neither it nor the others did: unknown */
	RCTL_SHARE_OFF,		/* the other priorities carried them: RoCE is elsewhere */
};

/* Fewer RoCE packets in a direction than this are not judged (docs/roce-facts.md). */
#define RCTL_SHARE_MIN_PKTS 1000u

/*
 * Where RoCE went, for priority "prio"; *top gets the other priority that
 * carried most (-1 when not judged).
 */
enum rctl_share_verdict rctl_share_judge(const struct rctl_prio_share *s, int prio, int *top);

/*
 * The traffic class an RDMA consumer sends at on a port, and where the host
 * shows it (lib/rules_traffic.c): tos -1 when it cannot tell, "why" says
 * why; "fix" in the consumer's own terms (NCCL_IB_TC=106, nvme connect
 * --tos, ms_async_rdma_dscp), "" when there is none to give.
 */
struct rctl_flow_class {
	const char *app;		/* "NCCL", "UCX", "Ceph", "rdma_cm", "MLNX_OFED", "verbs" */
	/* Where the class comes from: "environ", "nccl.conf", "ceph.conf", "sysfs", "default", "-" */
	const char *from;
	int tos;			/* the IP ToS byte, -1 unknown */
	char source[RCTL_FIELD_LEN];	/* the setting and where it was read */
	char why[RCTL_FIELD_LEN];	/* tos -1: why the host cannot tell */
	char fix[RCTL_FIELD_LEN];
	/*
	 * rdma_cm: "N rdma_cm connections were made before tune changed the
	 * default ToS at TIME; they keep ToS OLD until they reconnect", or "".
	 */
	char before[RCTL_FIELD_LEN];
};
void rctl_consumer_class(const struct rctl_host *h, const struct rctl_intent *in,
			 const struct rctl_consumer *c, const struct rctl_device *d,
			 const struct rctl_port *p, struct rctl_flow_class *fc);
/* The priority "tos" lands on at nd (port p's netdev); -1 and why when unknowable. */
int rctl_tos_prio(const struct rctl_host *h, const struct rctl_port *p,
		  const struct rctl_netdev *nd, int tos, char *why, size_t len);
/*
 * The verdict on consumer c at port p (netdev nd): pass when its class lands
 * on a priority with PFC, fail when on one without, unknown (fc->why) when
 * the host cannot tell; *prio the priority, -1 unknown.
 */
enum rctl_status rctl_consumer_verdict(const struct rctl_host *h, const struct rctl_intent *in,
				       const struct rctl_consumer *c, const struct rctl_device *d,
				       const struct rctl_port *p, const struct rctl_netdev *nd,
				       struct rctl_flow_class *fc, int *prio);
/* Whether consumer c holds QPs or cm_ids on DEV/PORT. */
bool rctl_consumer_on(const struct rctl_rdma_res *r, const struct rctl_consumer *c,
		      const char *dev, uint32_t port);
/* Whether a traffic rule judges c: a process, or a kernel module with rdma_cm ids. */
bool rctl_consumer_judged(const struct rctl_consumer *c);

/* Rule functions, one file per area. */
#define RULE_FN(name) void name(struct rctl_judge *j, const struct rctl_target *t)
RULE_FN(rule_pfc_prio_disabled);
bool rule_pfc_prio_unreadable(struct rctl_judge *j, const struct rctl_target *t);
bool rule_pfc_buffer_unreadable(struct rctl_judge *j, const struct rctl_target *t);
bool rule_dcqcn_params_unreadable(struct rctl_judge *j, const struct rctl_target *t);
bool rule_cnp_data_prio_unreadable(struct rctl_judge *j, const struct rctl_target *t);
RULE_FN(rule_pfc_extra_prio);
RULE_FN(rule_pfc_cnp_prio);
RULE_FN(rule_pfc_without_ecn);
RULE_FN(rule_pfc_global_pause);
RULE_FN(rule_pfc_buffer);
RULE_FN(rule_pfc_ets);
RULE_FN(rule_pfc_dcbx_owner);
RULE_FN(rule_dscp_roce_marking);
RULE_FN(rule_pfc_lldpad);
RULE_FN(rule_ecn_np_disabled);
RULE_FN(rule_ecn_rp_disabled);
RULE_FN(rule_ecn_without_pfc);
RULE_FN(rule_dcqcn_params);
RULE_FN(rule_dscp_trust_pcp);
RULE_FN(rule_dscp_missing);
RULE_FN(rule_dscp_ambiguous);
RULE_FN(rule_cnp_data_prio);
RULE_FN(rule_cnp_mismatch);
RULE_FN(rule_mtu_active);
RULE_FN(rule_mtu_oversize);
RULE_FN(rule_gid_no_v2);
RULE_FN(rule_gid_index);
RULE_FN(rule_mode_roce_version);
RULE_FN(rule_mode_tos);
/* rdma_cm's defaults where configfs holds no rdma_cm (lib/rules_mode.c): known, judged. */
bool rule_mode_cm_version_unreadable(struct rctl_judge *j, const struct rctl_target *t);
bool rule_mode_cm_tos_unreadable(struct rctl_judge *j, const struct rctl_target *t);
RULE_FN(rule_mode_roce_disabled);
RULE_FN(rule_counters_unreadable);
RULE_FN(rule_counters_pause_storm);
RULE_FN(rule_counters_rx_discards);
RULE_FN(rule_counters_no_wqe);
RULE_FN(rule_counters_loss);
RULE_FN(rule_counters_loss_budget);
RULE_FN(rule_counters_optional_cc);
RULE_FN(rule_ecn_sriov_vf);
RULE_FN(rule_firewall_roce_udp);
RULE_FN(rule_firewall_oob_tcp);
RULE_FN(rule_peer_neighbor);
RULE_FN(rule_peer_dcbx_absent);
RULE_FN(rule_peer_pfc_prio);
RULE_FN(rule_peer_pfc_extra);
RULE_FN(rule_peer_app_dscp);
RULE_FN(rule_peer_ets);
RULE_FN(rule_peer_willing);
RULE_FN(rule_peer_mfs);
RULE_FN(rule_traffic_lossless_share);
RULE_FN(rule_traffic_consumer_class);
RULE_FN(rule_nvmf_state);
RULE_FN(rule_nvmf_paths);
RULE_FN(rule_nvmf_timers);
RULE_FN(rule_nvmf_port_pfc);
RULE_FN(rule_nvmf_tos);
RULE_FN(rule_wire_capture);
RULE_FN(rule_wire_data_dscp);
RULE_FN(rule_wire_data_ecn);
RULE_FN(rule_wire_cnp_dscp);
RULE_FN(rule_wire_cm_tos);
RULE_FN(rule_wire_naks);
RULE_FN(rule_wire_loss);

#endif
