/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The write primitives of the kernel interfaces, each defined beside the
 * reads of its family. Only tune (lib/tune_*.c) includes this header: that
 * "only tune writes" stays visible in the include graph is checked by
 * tests/cli/layout.bats. Each returns 0 or -errno; none prints.
 */
#ifndef ROCECTL_WRITE_H
#define ROCECTL_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * dcbnl (lib/dcb.c): one DCB_CMD_IEEE_SET or _DEL of "ifname" carrying one
 * DCB_ATTR_IEEE_* attribute (DCB_ATTR_IEEE_APP_TABLE: one struct dcb_app).
 * The driver's own return value, which dcbnl sends apart from its ack, is
 * the result.
 */
int rctl_dcb_set(const char *ifname, uint8_t cmd, uint16_t attr,
		 const void *data, size_t len);

/* ethtool (lib/ethtool.c): ETHTOOL_SPAUSEPARAM, 802.3x global pause. */
int rctl_ethtool_set_pause(const char *ifname, bool autoneg, bool rx, bool tx);

/*
 * sysfs, debugfs, configfs (lib/sysfs.c): "text" and a newline, as echo
 * writes it, into an existing file (O_NOFOLLOW).
 */
int rctl_write_text(const char *path, const char *text);

#endif
