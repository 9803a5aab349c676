/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A tune plan as data (lib/tune_state.c): each change, what it writes and
 * how it is undone, and the state file document that keeps them. Saved
 * before the first write, the same data is what "revert" reads.
 */
#ifndef ROCECTL_TUNE_STATE_H
#define ROCECTL_TUNE_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "rocectl/err.h"
#include "rocectl/model.h"
#include "rocectl/rules.h"

#define RCTL_TUNE_PATH_LEN 256

/* What a change writes ("op" in the state file). */
#define RCTL_TUNE_OPS(X)						\
	X(PAUSE, "pause")	/* ETHTOOL_SPAUSEPARAM: val = autoneg|rx|tx bits */ \
	X(ETS, "ets")		/* dcbnl IEEE_SET ETS: prio_tc */	\
	X(PFC, "pfc")		/* dcbnl IEEE_SET PFC: val = pfc_en */	\
	X(APP_ADD, "app-add")	/* dcbnl IEEE_SET APP_TABLE, one entry */ \
	X(APP_DEL, "app-del")	/* dcbnl IEEE_DEL APP_TABLE, one entry */ \
	X(APP_SET, "app-set")	/* IEEE_SET of a driver that replaces the DSCP's \
				 * entry (mlx5); old_val = old prio or	\
				 * RCTL_APP_NONE; undo: SET old, or DEL */ \
	X(WRITE, "write")	/* text file: sysfs, debugfs, configfs */

enum rctl_tune_op {
	RCTL_TUNE_OP_NONE,	/* "": a skipped change nothing could be read for */
#define X(id, s) RCTL_TUNE_##id,
	RCTL_TUNE_OPS(X)
#undef X
	RCTL_TUNE_N_OPS
};

/* old_val of an app-set whose DSCP had no entry: its undo is a DEL. */
#define RCTL_APP_NONE 0xffffffffu

/* Global pause bits of a PAUSE change. */
enum { RCTL_PAUSE_AUTONEG = 1, RCTL_PAUSE_RX = 2, RCTL_PAUSE_TX = 4 };

/*
 * Status of a step, and of the whole state file ("status" there), with the
 * names the state file keeps. Apply records each step durably before its
 * write (in-progress: it may have been written) and after it, so a step still
 * pending never ran. Revert undoes what was or may have been written
 * (rctl_tune_change_written()) and records each undo; one that failed stays
 * revert-failed, for the next revert to retry.
 */
#define RCTL_TUNE_STATUSES(X)						\
	X(STATUS_NONE, "")	/* a plan: not applied */		\
	X(PENDING, "pending")	/* not started */			\
	X(IN_PROGRESS, "in-progress")	/* being written */		\
	X(APPLIED, "applied")						\
	X(SKIPPED, "skipped")						\
	X(FAILED, "failed")	/* the write failed: not applied */	\
	X(UNDONE, "rolled-back")					\
	X(UNDO_FAILED, "rollback-failed")				\
	X(REVERTED, "reverted")						\
	X(REVERT_FAILED, "revert-failed")

enum rctl_tune_status {
#define X(id, s) RCTL_TUNE_##id,
	RCTL_TUNE_STATUSES(X)
#undef X
	RCTL_TUNE_N_STATUS
};

/*
 * An rdma_cm connection this host had made (rctl_res_cm_active()) when a
 * change of its port's default ToS was planned: the cm_id as RDMA netlink
 * showed it. Its identity is the restrack id (RDMA_NLDEV_ATTR_RES_CM_IDN,
 * allocated cyclically: not soon reused) together with its owner (pid, or
 * the kernel module) and both addresses (with the ephemeral source port):
 * a cm_id that matches all of them later is the same connection.
 */
struct rctl_tune_cm {
	char dev[RCTL_NAME_LEN];
	uint32_t port;
	uint32_t id;
	uint32_t pid;
	char owner[RCTL_NAME_LEN];	/* the kernel module of a pid 0 one */
	char src[RCTL_ENDPOINT_LEN];
	char dst[RCTL_ENDPOINT_LEN];
};

struct rctl_tune_change {
	/* For people (plan output) */
	enum rctl_area area;		/* check area: pfc ecn cnp dscp mode */
	char target[RCTL_NAME_LEN];	/* netdev, or DEV/PORT */
	char setting[48];		/* "prio-pfc", "dscp-prio 26", "default_roce_tos" */
	char from[80];			/* current value as the usual tool prints it */
	char to[80];			/* wanted value */
	char via[RCTL_TUNE_PATH_LEN];	/* interface written */
	char command[640];		/* equivalent command of the usual tool */
	char warning[160];		/* "changing PFC flaps the link of an mlx5 port" */
	char skip[256];			/* non-empty: apply skips it, and why */
	bool held;			/* skipped by --only/--skip: not a manual step */
	bool needs_force;		/* lldpad or firmware DCBX owns DCB */

	/* For the write and its undo */
	enum rctl_tune_op op;
	char ifname[RCTL_IFNAME_LEN];	/* netdev of pause, ets, pfc, app-* */
	char driver[32];		/* for "not supported by <driver>" */
	uint32_t old_val, new_val;	/* pfc_en, or pause bits */
	uint32_t pfc_cap, pfc_mbc, pfc_delay;	/* written back unchanged */
	uint8_t old_prio_tc[8], new_prio_tc[8];
	uint8_t tc_tsa[8], tc_tx_bw[8];	/* written back unchanged */
	uint32_t ets_willing;
	uint32_t app_selector, app_protocol, app_prio;
	char path[RCTL_TUNE_PATH_LEN];	/* WRITE: the file */
	char mkdir[RCTL_TUNE_PATH_LEN];	/* WRITE: directory to create if missing
					 * and remove again afterwards (rdma_cm) */
	char commit[RCTL_TUNE_PATH_LEN];	/* WRITE: file to write "1" to after
						 * the value (bnxt_re cc/apply) */
	char old_text[64], new_text[64];	/* WRITE: file contents */

	/* Outcome (apply, revert) */
	enum rctl_tune_status status;
	char result[512];		/* error or skip message */
	bool tried;			/* written (or undone) by this run: not in the state file */
	uint64_t applied_at;		/* when apply wrote it, seconds since the epoch; 0 never */

	/* default_roce_tos: the connections that keep the old ToS (up to RCTL_RES_LIST_MAX) */
	struct rctl_tune_cm *cm;
	uint32_t n_cm;
};

struct rctl_tune_plan {
	struct rctl_tune_change *ch;
	uint32_t n_ch;
};

void rctl_tune_plan_free(struct rctl_tune_plan *p);
/* The names of an op and a status, as the state file keeps them (lib/tune_state.c). */
const char *rctl_tune_op_name(enum rctl_tune_op op);
const char *rctl_tune_status_name(enum rctl_tune_status st);

/* State file document <-> plan (also used by the unit tests). */
/*
 * Change i of state file "name" names only what tune writes: a known op and,
 * when revert would write it back, a target and setting, a valid netdev name
 * and in-range values for dcbnl/ethtool ops, and for file writes a path,
 * commit file and mkdir directory of the trees tune writes (no "..", nothing
 * else) and printable non-empty texts. -EINVAL with a message.
 */
int rctl_tune_change_check(const struct rctl_tune_change *c, const char *name,
			   uint32_t i, struct rctl_err *e);
/* Whether revert writes this change back: applied, in-progress, or its undo failed. */
bool rctl_tune_change_written(const struct rctl_tune_change *c);
/* Before writing: the real path (of a dir: of its parent) stays in those trees. */
int rctl_tune_path_check(const char *path, bool dir, struct rctl_err *e);

char *rctl_tune_state_text(const struct rctl_tune_plan *p, enum rctl_tune_status status);
/*
 * State file "name" (plan p) into the model: for each default_roce_tos
 * change it applied (with its time: a state file of an older rocectl kept
 * none, nor any connection), one rctl_tos_change of h->res, and every
 * cm_id of the dump that is one of the connections it recorded is marked
 * made_before_tune. Pure; -ENOMEM.
 */
int rctl_tune_mark_cm(struct rctl_host *h, const struct rctl_tune_plan *p, const char *name);
int rctl_tune_state_parse(const char *text, const char *name,
			  struct rctl_tune_plan *p, enum rctl_tune_status *status,
			  struct rctl_err *e);

/* ---- a reviewed plan ('tune plan -j', read by 'tune apply --plan') ---- */

/*
 * What a plan read, as digests of the model parts it depends on, computed
 * the same way at plan and at apply (rctl_tune_digest(), lib/tune_plan.c):
 * "intent", "host", "netdev NAME" and "port DEV/PORT".
 */
struct rctl_tune_digest_part {
	char part[RCTL_NAME_LEN + 16];
	uint64_t hash;
};

struct rctl_tune_digest {
	struct rctl_tune_digest_part *parts;
	uint32_t n;
};

void rctl_tune_digest_free(struct rctl_tune_digest *d);
/* One digest of all the parts, in their order. */
uint64_t rctl_tune_digest_all(const struct rctl_tune_digest *d);

/* A reviewed plan as 'tune apply --plan' reads it. */
struct rctl_tune_reviewed {
	struct rctl_tune_plan plan;
	struct rctl_tune_digest digest;
	char hostname[RCTL_NAME_LEN];
	char profile[32];
};

void rctl_tune_reviewed_free(struct rctl_tune_reviewed *r);

/*
 * The JSON of one change and of a digest, as 'tune plan -j' writes them
 * (the change: every field of the state file; the digest: "all" and "parts").
 */
#define RCTL_TUNE_PLAN_VERSION 1
struct cJSON *rctl_tune_change_json(const struct rctl_tune_change *c);
struct cJSON *rctl_tune_digest_json(const struct rctl_tune_digest *d);

/*
 * Parse 'tune plan -j' output ("name" in messages). Refused with -EINVAL
 * and one line: not a plan of this version, its digest not matching its
 * parts, fewer or more changes than its to_apply and skipped say
 * (truncated or edited), a change with a status (a state file, not a
 * plan), and any change apply would write that names what tune does not
 * write (rctl_tune_change_check()'s allow-list).
 */
int rctl_tune_plan_parse(const char *text, size_t len, const char *name,
			 struct rctl_tune_reviewed *r, struct rctl_err *e);
/*
 * Read and parse plan file "path": a regular file (a FIFO or a device is
 * refused, never waited on) that others cannot write, of at most 4 MiB.
 */
int rctl_tune_plan_load(const char *path, struct rctl_tune_reviewed *r,
			struct rctl_err *e);

#endif
