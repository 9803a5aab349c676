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
#ifndef ROCECTL_TUNE_PLAN_H
#define ROCECTL_TUNE_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "rocectl/err.h"
#include "rocectl/intent.h"
#include "rocectl/model.h"
#include "rocectl/settings.h"
#include "rocectl/tune_state.h"

/*
 * The order to undo the changes of "p" in: indices into p->ch, into "order"
 * (p->n_ch of them). From the state file's own fields (op, area, driver),
 * so revert computes the same order as rollback.
 */
void rctl_tune_undo_order(const struct rctl_tune_plan *p, uint32_t *order);
/* The settings table's setting a change writes ("setting_id" in the plan). */
enum rctl_setting rctl_tune_setting_id(const struct rctl_tune_change *c);

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
 * Whether an active change of p writes what finding f judges: f's setting,
 * on f's netdev, device or port. A warning or failure it does not cover is
 * a manual step: tune cannot bring the host to where check passes.
 */
struct rctl_finding;
bool rctl_tune_plan_covers(const struct rctl_tune_plan *p, const struct rctl_finding *f);

/*
 * What undoes a change without rocectl: every setting tune writes is runtime
 * state of the kernel or the NIC (dcbnl, ethtool, sysfs, debugfs, configfs).
 * Into buf: "reboot, mlx5_core reload" or "reboot, rdma_cm reload".
 */
const char *rctl_tune_lost_on(const struct rctl_tune_change *c, char *buf, size_t len);

/*
 * The digest of what a plan for "filter" (as rctl_tune_plan_dev()) reads
 * of h and in: the intent ("intent"), lldpad ("host"), each netdev whose DCB,
 * pause, congestion control, trust, bond or VLAN map it reads ("netdev
 * NAME") and each port's rdma_cm defaults and GIDs ("port DEV/PORT").
 * Counters and other values that move by themselves are left out, so an
 * unchanged host digests the same at plan and at apply.
 */
int rctl_tune_digest(const struct rctl_host *h, const struct rctl_intent *in,
		     const char *filter, struct rctl_tune_digest *d, struct rctl_err *e);
/*
 * The first part of "plan" that reads otherwise in "now" (or is not there
 * any more: *gone), NULL when none: the host is as the plan read it.
 */
const struct rctl_tune_digest_part *rctl_tune_digest_changed(const struct rctl_tune_digest *plan,
							      const struct rctl_tune_digest *now,
							      bool *gone);

/*
 * --only and --skip: each name an area (rctl_area_names) or a setting id
 * (rctl_setting_name()); a value may be a comma list. A change is kept when
 * it matches an --only name (if any is given) and no --skip name, by its
 * area or its setting id; the others become skipped and held, with the
 * reason ("--skip pfc", "not in --only pfc"). -EINVAL for an unknown name.
 */
int rctl_tune_select(struct rctl_tune_plan *p, const char *const *only, unsigned int n_only,
		     const char *const *skip, unsigned int n_skip, struct rctl_err *e);
/* Whether "name" is an area or a setting id --only and --skip take. */
bool rctl_tune_select_name(const char *name);

#endif
