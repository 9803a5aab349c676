/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * All of tune, for cmd/tune.c and the tests: the plan's data and its state
 * file (tune_state.h), the plan (tune_plan.h), the transaction (tune_apply.h),
 * the state directory (tune_store.h), each change's write (tune_write.h) and
 * the boot-time re-apply (tune_persist.h). lib/tune_*.c include their own.
 */
#ifndef ROCECTL_TUNE_H
#define ROCECTL_TUNE_H

#include "rocectl/tune_apply.h"
#include "rocectl/tune_persist.h"
#include "rocectl/tune_plan.h"
#include "rocectl/tune_state.h"
#include "rocectl/tune_store.h"
#include "rocectl/tune_write.h"

#endif
