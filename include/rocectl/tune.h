/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rocectl tune: the changes that bring a host to the intent (a plan), their
 * application in a safe order with rollback, and their undo from a state file.
 *
 * A plan is an ordered list of changes. Each change is plain data: what it
 * changes (current -> wanted, as the usual tool shows it), the interface it
 * writes, the equivalent command of the usual tool, its warning, and the
 * machine values needed both to write it and to undo it. The same data,
 * saved before the first write, is the state file that "revert" reads.
 *
 * The plan is ordered so that the lossless class is ready before traffic is
 * steered into it, and traffic is steered before new connections mark it:
 *
 *	1. global pause off      (LFC and PFC cannot coexist on several NICs)
 *	2. ETS prio -> TC
 *	3. PFC enable set        (flaps an mlx5 link: once, early)
 *	4. ECN/DCQCN enables, CNP DSCP/priority (sysfs, debugfs, configfs)
 *	5. DSCP -> priority APP entries, as each driver keeps them: on mlx5 one
 *	   SET per DSCP, which replaces its old entry (en_dcbnl.c
 *	   mlx5e_dcbnl_ieee_setapp) and is undone by a SET of the old priority;
 *	   elsewhere (the dcbnl core's list: bnxt_en) the entries to add, then
 *	   those to delete, so the table never passes through "no DSCP entry";
 *	   ice refuses a DSCP already mapped, so there the deletes come first
 *	6. rdma_cm default_roce_mode, then default_roce_tos
 *
 * Each family has its order (rctl_family_phases(), rocectl/settings.h): on
 * ice the APP entries come before ETS and PFC, because its first DSCP entry
 * resets ETS (ice_dcb_nl.c ice_dcbnl_setapp).
 *
 * The undo order is rctl_tune_undo_order(): the reverse order, except where
 * rctl_setting_undo_rank() of the change's family says otherwise: on ice
 * the APP entries are undone before ETS and PFC are restored, since
 * deleting the last DSCP entry loads the defaults. lib/tune_apply.c's
 * rollback and revert walk this order.
 */
#ifndef ROCECTL_TUNE_H
#define ROCECTL_TUNE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "rocectl/err.h"
#include "rocectl/intent.h"
#include "rocectl/model.h"
#include "rocectl/settings.h"
#include "rocectl/rules.h"

#define RCTL_TUNE_PATH_LEN 256
#define RCTL_TUNE_STATE_DIR "/var/lib/rocectl"
/* Test aid: make step N (1-based, in plan order) of apply/revert fail with EIO. */
#define RCTL_TUNE_FAIL_ENV "ROCECTL_TUNE_FAIL_STEP"
/*
 * Test aid: apply raises SIGKILL right after the write of step N, before its
 * progress is recorded (the worst moment to die).
 */
#define RCTL_TUNE_KILL_ENV "ROCECTL_TUNE_KILL_STEP"

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
};

struct rctl_tune_plan {
	struct rctl_tune_change *ch;
	uint32_t n_ch;
};

void rctl_tune_plan_free(struct rctl_tune_plan *p);
/*
 * The dcbnl APP write of an app-* change, applied or undone: true for a SET,
 * false for a DEL, of the entry (app_selector, app_protocol, *prio).
 */
bool rctl_tune_app_op(const struct rctl_tune_change *c, bool undo, uint32_t *prio);
/*
 * The order to undo the changes of "p" in: indices into p->ch, into "order"
 * (p->n_ch of them). From the state file's own fields (op, area, driver),
 * so revert computes the same order as rollback.
 */
void rctl_tune_undo_order(const struct rctl_tune_plan *p, uint32_t *order);
/* The settings table's setting a change writes ("setting_id" in the plan). */
enum rctl_setting rctl_tune_setting_id(const struct rctl_tune_change *c);
/* The names of an op and a status, as the state file keeps them (lib/tune_state.c). */
const char *rctl_tune_op_name(enum rctl_tune_op op);
const char *rctl_tune_status_name(enum rctl_tune_status st);

/*
 * The changes that bring host "h" to intent "in", in the safe order above.
 * Settings the host cannot report (read answered EOPNOTSUPP) or the driver
 * has no knob for become changes with "skip" set; changes to DCB owned by
 * lldpad or the firmware carry needs_force. An empty plan: nothing to do.
 */
int rctl_tune_plan(const struct rctl_host *h, const struct rctl_intent *in,
		   struct rctl_tune_plan *p, struct rctl_err *e);

/* The same for the ports "filter" names (DEV, DEV/PORT or netdev, as check). */
int rctl_tune_plan_dev(const struct rctl_host *h, const struct rctl_intent *in,
		       const char *filter, struct rctl_tune_plan *p, struct rctl_err *e);

/*
 * What undoes a change without rocectl: every setting tune writes is runtime
 * state of the kernel or the NIC (dcbnl, ethtool, sysfs, debugfs, configfs).
 * Into buf: "reboot, mlx5_core reload" or "reboot, rdma_cm reload".
 */
const char *rctl_tune_lost_on(const struct rctl_tune_change *c, char *buf, size_t len);

/*
 * Boot-time re-apply (tune apply --persist): a drop-in of the unit
 * rocectl-tune.service that carries the intent's options, and the unit's
 * enable link in multi-user.target.wants. The directory is
 * $ROCECTL_SYSTEMD_DIR, else /etc/systemd/system.
 */
#define RCTL_SYSTEMD_DIR "/etc/systemd/system"
#define RCTL_SYSTEMD_DIR_ENV "ROCECTL_SYSTEMD_DIR"
#define RCTL_TUNE_UNIT "rocectl-tune.service"
/*
 * The drop-in carries the intent as options and the config file (made
 * absolute from the working directory; it must be a regular file and its
 * path printable) in ROCECTL_CONF, quoted for systemd; a --dev that is not
 * a plain device name is refused (-EINVAL) before anything is written.
 */
int rctl_tune_persist(const struct rctl_intent *in, const char *dev, bool force,
		      char *dropin, size_t len, struct rctl_err *e);
/* The drop-in's text, for the tests. */
int rctl_tune_dropin_text(const struct rctl_intent *in, const char *dev, bool force,
			  char *text, size_t len, struct rctl_err *e);
/* Where rocectl-tune.service is installed; ENOENT with a message when nowhere. */
int rctl_tune_unit_path(char *path, size_t len, struct rctl_err *e);
/* Remove both; *removed tells whether there was anything. */
int rctl_tune_unpersist(bool *removed, struct rctl_err *e);

/* Number of changes apply would write (not skipped). */
uint32_t rctl_tune_plan_active(const struct rctl_tune_plan *p);

/*
 * The state directory (lib/tune_store.c), open for one apply or revert:
 * owned by root (or the user running rocectl) and mode 0700, else refused
 * with the reason; created 0700 when missing and "create" is set; locked
 * with flock(LOCK_EX | LOCK_NB) on RCTL_TUNE_LOCK in it, -EBUSY naming the
 * lock when another apply or revert holds it. Every state file is a name in
 * it.
 */
#define RCTL_TUNE_LOCK "tune.lock"
/* The state file of the boot-time apply (--boot), replaced at each boot. */
#define RCTL_TUNE_BOOT_STATE "tune-boot.json"

struct rctl_tune_dir {
	int fd, lock_fd;
	char path[PATH_MAX];
};

int rctl_tune_dir_open(struct rctl_tune_dir *d, const char *path, bool create,
		       struct rctl_err *e);
void rctl_tune_dir_close(struct rctl_tune_dir *d);

/*
 * Apply a plan: write the state file "name" of "d" (a new time-stamped name
 * into "name" when it is "") with every previous value, then each change in
 * order, each recorded there before and after its write. A change answered
 * EOPNOTSUPP is skipped ("not supported by <driver>"); any other failure,
 * also of a record, undoes every change already written, in reverse order.
 * Returns 0 when all were applied or skipped, else -errno with "e" naming
 * the failed step (and whether the rollback restored everything).
 */
int rctl_tune_apply(struct rctl_tune_plan *p, const struct rctl_tune_dir *d,
		    char *name, size_t len, struct rctl_err *e);

/*
 * Revert: load state file "name" of "d" into "p" and write the previous
 * values back, in reverse order, of every change that was or may have been
 * written (also those whose undo failed before). Each undo is recorded; a
 * failing one does not stop the others and stays revert-failed. The file is
 * marked "reverted" only when every change is undone. Returns 0 then; else
 * -errno with "e" saying how many remain (each one's "result" says why).
 */
int rctl_tune_revert(const struct rctl_tune_dir *d, const char *name,
		     struct rctl_tune_plan *p, struct rctl_err *e);

/* The state file of "d" written last that holds something to revert. */
int rctl_tune_newest_state(const struct rctl_tune_dir *d, char *name, size_t len,
			   struct rctl_err *e);

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
 * The state file as apply and revert keep it (lib/tune_store.c): create
 * "name" of "d" (a new name when "" ; never an existing one but the boot
 * state) with status "pending"; rewrite it durably with a status; load it
 * (a regular file owned by root or us, not group- or world-writable, looked
 * at before it is opened, never through a symlink).
 */
int rctl_tune_state_create(const struct rctl_tune_plan *p, const struct rctl_tune_dir *d,
			   char *name, size_t len, struct rctl_err *e);
int rctl_tune_state_write(const struct rctl_tune_dir *d, const char *name,
			  const struct rctl_tune_plan *p, enum rctl_tune_status status,
			  struct rctl_err *e);
int rctl_tune_state_load(const struct rctl_tune_dir *d, const char *name,
			 struct rctl_tune_plan *p, enum rctl_tune_status *status,
			 struct rctl_err *e);
int rctl_tune_state_parse(const char *text, const char *name,
			  struct rctl_tune_plan *p, enum rctl_tune_status *status,
			  struct rctl_err *e);

/* The write primitives, one per op; "undo" writes the old value back. */
int rctl_tune_write(struct rctl_tune_change *c, bool undo, struct rctl_err *e);

#endif
