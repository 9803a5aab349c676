/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Intent: what the site wants its RoCE hosts to look like. The rules judge a
 * host model against it, and "tune" makes a host match it. It is resolved in
 * three layers, later ones winning:
 *
 *   1. a profile, as data (rctl_profiles[]): "lossless-dscp" (the default:
 *      DSCP 26 -> prio 3, PFC on prio 3 only, ECN/DCQCN on, CNP DSCP 48 ->
 *      prio 6, ToS 106, RoCE v2, MTU 4096) or "lossy-ecn" (no PFC, ECN only);
 *   2. the config file (--config FILE, else $ROCECTL_CONF, else
 *      /etc/rocectl.conf; see rocectl.conf(5)): "key = value" lines, then
 *      sections "[driver NAME]", "[device NAME]" and "[netdev NAME]" whose
 *      keys hold for the ports they name, the most specific winning;
 *   3. command-line options (RCTL_INTENT_OPTS below), over every section.
 *
 * The ToS follows the DSCP (DSCP << 2 | ECT(0)) unless set explicitly at
 * the same or a more specific layer. Each value remembers where it came
 * from (rctl_intent_source()), for 'check -v'.
 */
#ifndef ROCECTL_INTENT_H
#define ROCECTL_INTENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rocectl/err.h"
#include "rocectl/opt.h"

#define RCTL_CONF_PATH "/etc/rocectl.conf"
#define RCTL_LOSS_BUDGET 1e-6
#define RCTL_TOS_ECT0 0x2	/* ECN field of the ToS byte: ECT(0) */

/* The keys a layer may set, in the config file's spelling. */
#define RCTL_INTENT_KEYS(X)						\
	X(PRIO, "prio")							\
	X(DSCP, "dscp")							\
	X(CNP_PRIO, "cnp_prio")						\
	X(CNP_DSCP, "cnp_dscp")						\
	X(TOS, "tos")							\
	X(MTU, "mtu")							\
	X(ROCE_MODE, "roce_mode")					\
	X(LOSS_BUDGET, "loss_budget")

enum rctl_intent_key {
#define X(id, s) RCTL_IK_##id,
	RCTL_INTENT_KEYS(X)
#undef X
	RCTL_IK_N
};

const char *rctl_intent_key_name(enum rctl_intent_key k);

/* Where a value comes from, least specific first: a later layer wins. */
enum rctl_intent_level {
	RCTL_LVL_DEFAULT,	/* the profile */
	RCTL_LVL_FILE,		/* the config file, before any section */
	RCTL_LVL_DRIVER,	/* [driver NAME]: the RDMA or the netdev driver */
	RCTL_LVL_DEVICE,	/* [device NAME]: the RDMA device */
	RCTL_LVL_NETDEV,	/* [netdev NAME]: the port's netdev */
	RCTL_LVL_OPTION,	/* the command line */
};

struct rctl_intent_vals {
	int prio, dscp, cnp_prio, cnp_dscp, tos;
	uint32_t mtu;
	int roce_version;
	double loss_budget;
};

/* A layer over the profile: the file's global keys, a section or the options. */
#define RCTL_INTENT_NAME_LEN 32
struct rctl_intent_layer {
	enum rctl_intent_level level;
	char name[RCTL_INTENT_NAME_LEN];	/* a section's NAME */
	int line;				/* a section's header line */
	unsigned int set;			/* 1 << key of each key it sets */
	int line_of[RCTL_IK_N];			/* config line of each (0: an option) */
	struct rctl_intent_vals v;
};

struct rctl_intent_src {
	enum rctl_intent_level level;
	int line;		/* config line, 0 when none */
	int section;		/* index in sec[], -1 when none */
	bool follows;		/* the ToS, derived from the DSCP */
};

#define RCTL_INTENT_SECTIONS 32

struct rctl_intent {
	char profile[32];	/* "lossless-dscp", "lossy-ecn" */
	bool pfc;		/* PFC on the RoCE priority (lossless) */
	bool ecn;		/* ECN/DCQCN on the RoCE priority */
	int prio;		/* RoCE data priority, 0..7 */
	int dscp;		/* DSCP of RoCE data, 0..63 */
	int cnp_prio;		/* priority of CNPs, 0..7 */
	int cnp_dscp;		/* DSCP of CNPs, 0..63 */
	int tos;		/* rdma_cm default_roce_tos, 0..255 */
	uint32_t mtu;		/* intended active_mtu: 256..4096, power of 2 */
	int roce_version;	/* rdma_cm default_roce_mode: 1 or 2 */
	double loss_budget;	/* max RoCE loss rate over a sampling interval */
	char conf[256];		/* config file that was read, "" when none */
	struct rctl_intent_src src[RCTL_IK_N];	/* where each value came from */
	struct rctl_intent_layer file;		/* the config file's global keys */
	struct rctl_intent_layer sec[RCTL_INTENT_SECTIONS];
	uint32_t n_sec;
	struct rctl_intent_layer opt;		/* the options given */
	char port[RCTL_INTENT_NAME_LEN * 2];	/* "" global, else the port resolved for */
};

/* A profile is a named set of defaults. */
struct rctl_profile {
	const char *name;
	const char *summary;
	struct rctl_intent intent;
};

/* NULL-terminated names of the profiles, for OPT_CHOICE and completion. */
extern const char *const rctl_profile_names[];
const struct rctl_profile *rctl_profile_find(const char *name);

/* Fill "in" with the defaults of profile "name"; -EINVAL when unknown. */
int rctl_intent_profile(struct rctl_intent *in, const char *name,
			struct rctl_err *e);

/*
 * Apply config text to "in" ("name" is used in messages): first the profile
 * ("profile" if not NULL, else the text's "profile" key, else lossless-dscp),
 * then the text's other keys. Unknown keys, bad values and malformed lines
 * are errors that quote the file and line.
 */
int rctl_intent_parse_conf(struct rctl_intent *in, const char *text,
			   const char *name, const char *profile,
			   struct rctl_err *e);

/*
 * The intent of one port: the global one (the file's keys and the options,
 * rctl_intent_resolve()) with the sections that name the port's drivers
 * (RDMA driver "drv", netdev driver "nd_drv"), its RDMA device or its
 * netdev applied over it, least specific first, the options last. Any name
 * may be NULL or "". "port" names it in out->port ("mlx5_0/1").
 */
void rctl_intent_for(const struct rctl_intent *in, const char *drv, const char *nd_drv,
		     const char *dev, const char *netdev, const char *port,
		     struct rctl_intent *out);
/* Whether any section of the file names a port (else every port has the global intent). */
static inline bool rctl_intent_has_sections(const struct rctl_intent *in)
{
	return in->n_sec > 0;
}
/* Key k's value as the config file writes it: "3", "v2", "1e-06". */
const char *rctl_intent_value(const struct rctl_intent *in, enum rctl_intent_key k,
			      char *buf, size_t len);
/*
 * Where key k's value came from: "default (profile lossless-dscp)",
 * "/etc/rocectl.conf:7", "/etc/rocectl.conf:12 [netdev ens1f0np0]",
 * "command line (--dscp)", the ToS "follows dscp (...)".
 */
const char *rctl_intent_source(const struct rctl_intent *in, enum rctl_intent_key k,
			       char *buf, size_t len);

/* ToS of a DSCP with ECT(0) set: 26 -> 106. */
static inline int rctl_tos_for(int dscp)
{
	return dscp << 2 | RCTL_TOS_ECT0;
}

/* Command-line side: commands embed these fields and RCTL_INTENT_OPTS(a). */
struct rctl_intent_args {
	const char *config;
	const char *profile;
	int prio, dscp, cnp_prio, cnp_dscp, tos, mtu;
	const char *loss_budget;
	const char *roce_mode;
	bool prio_set, dscp_set, cnp_prio_set, cnp_dscp_set, tos_set, mtu_set;
};

/* NULL-terminated values of --roce-mode. */
extern const char *const rctl_roce_mode_names[];

/*
 * Option table entries for the intent, to put inside a command's
 * struct rctl_opt[] (before its terminating { 0 }).
 */
#define RCTL_INTENT_OPTS(a)						\
	{ .name = "config", .type = OPT_STR, .arg = "FILE",		\
	  .dst = &(a).config, .kind = ARG_FILE,				\
	  .help = "read intent from FILE (default $ROCECTL_CONF, else " RCTL_CONF_PATH ")" }, \
	{ .name = "profile", .type = OPT_CHOICE, .arg = "NAME",		\
	  .dst = &(a).profile, .choices = rctl_profile_names,		\
	  .help = "intent profile: lossless-dscp (default) or lossy-ecn" }, \
	{ .name = "prio", .type = OPT_INT, .arg = "PRIO", .dst = &(a).prio, \
	  .min = 0, .max = 7, .given = &(a).prio_set,			\
	  .help = "priority of RoCE traffic (default 3)" },		\
	{ .name = "dscp", .type = OPT_INT, .arg = "DSCP", .dst = &(a).dscp, \
	  .min = 0, .max = 63, .given = &(a).dscp_set,			\
	  .help = "DSCP of RoCE traffic (default 26)" },		\
	{ .name = "cnp-dscp", .type = OPT_INT, .arg = "DSCP",		\
	  .dst = &(a).cnp_dscp, .min = 0, .max = 63,			\
	  .given = &(a).cnp_dscp_set,					\
	  .help = "DSCP of congestion notification packets (default 48)" }, \
	{ .name = "cnp-prio", .type = OPT_INT, .arg = "PRIO",		\
	  .dst = &(a).cnp_prio, .min = 0, .max = 7,			\
	  .given = &(a).cnp_prio_set,					\
	  .help = "priority of congestion notification packets (default 6)" }, \
	{ .name = "tos", .type = OPT_INT, .arg = "TOS", .dst = &(a).tos, \
	  .min = 0, .max = 255, .given = &(a).tos_set,			\
	  .help = "rdma_cm default ToS (default DSCP << 2 | ECT(0), 106)" }, \
	{ .name = "mtu", .type = OPT_INT, .arg = "BYTES", .dst = &(a).mtu, \
	  .min = 256, .max = 4096, .given = &(a).mtu_set,		\
	  .help = "intended RoCE active_mtu (default 4096)" },		\
	{ .name = "loss-budget", .type = OPT_STR, .arg = "RATE",	\
	  .dst = &(a).loss_budget,					\
	  .help = "largest acceptable RoCE loss rate (default 1e-6)" }, \
	{ .name = "roce-mode", .type = OPT_CHOICE, .arg = "MODE",	\
	  .dst = &(a).roce_mode, .choices = rctl_roce_mode_names,	\
	  .help = "rdma_cm default RoCE mode: v1 or v2 (default v2)" }

/*
 * Resolve the intent: profile (--profile, else the config's, else
 * lossless-dscp), then the config file, then the options given. A config
 * named by --config or $ROCECTL_CONF must exist; the default one may not.
 */
int rctl_intent_resolve(struct rctl_intent *in, const struct rctl_intent_args *a,
			struct rctl_err *e);

#endif
