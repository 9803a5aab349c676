/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whole-file writes that readers never see half done. */
#ifndef ROCECTL_FILEIO_H
#define ROCECTL_FILEIO_H

#include <stddef.h>

#include "rocectl/err.h"

/*
 * Write buf to "path", by what "path" is:
 * - absent or a regular file: atomically, a temporary file in the same
 *   directory ("path.XXXXXX", which node_exporter's textfile collector
 *   ignores: it reads only *.prom), fsync, then renameat(2) over "path" in its
 *   directory held open; the file replaced keeps its permission bits, a new
 *   one gets 0644;
 * - a symbolic link: followed only if the user running owns it or no other
 *   user (root aside) can write its directory, each link of a chain judged so
 *   (else refused: another user's link never redirects the write); to a
 *   regular file, its target is replaced as above and the link stays;
 * - a character device (/dev/null, /dev/stdout on a terminal) or a FIFO:
 *   written in place, never created, truncated or replaced; a FIFO without a
 *   reader fails (ENXIO) instead of waiting;
 * - a directory, block device, socket or dangling link: refused.
 * 0 or -errno.
 */
int rctl_write_atomic(const char *path, const char *buf, size_t len,
		      struct rctl_err *e);

/* All of buf to fd, across short writes and EINTR: 0 or the real -errno. */
int rctl_write_all(int fd, const char *buf, size_t len);

#endif
