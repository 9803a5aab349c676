/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tune apply --persist (lib/tune_persist.c): the unit that re-applies the
 * intent at boot.
 */
#ifndef ROCECTL_TUNE_PERSIST_H
#define ROCECTL_TUNE_PERSIST_H

#include <stdbool.h>
#include <stddef.h>

#include "rocectl/err.h"
#include "rocectl/intent.h"

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

#endif
