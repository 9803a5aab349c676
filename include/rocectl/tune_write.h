/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Each change as its write or undo (lib/tune_write.c): the only writer,
 * through the interface families' primitives (write.h).
 */
#ifndef ROCECTL_TUNE_WRITE_H
#define ROCECTL_TUNE_WRITE_H

#include <stdbool.h>
#include <stdint.h>

#include "rocectl/err.h"
#include "rocectl/tune_state.h"

/*
 * The dcbnl APP write of an app-* change, applied or undone: true for a SET,
 * false for a DEL, of the entry (app_selector, app_protocol, *prio).
 */
bool rctl_tune_app_op(const struct rctl_tune_change *c, bool undo, uint32_t *prio);

/* The write primitives, one per op; "undo" writes the old value back. */
int rctl_tune_write(struct rctl_tune_change *c, bool undo, struct rctl_err *e);

#endif
