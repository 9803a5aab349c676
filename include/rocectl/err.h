/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Errors carried out of lib/: lib/ never prints and never exits, it returns
 * -errno and leaves a one-line message (what failed first, subject quoted)
 * in a struct rctl_err for cmd/ to show.
 */
#ifndef ROCECTL_ERR_H
#define ROCECTL_ERR_H

#include <errno.h>
#include <stdbool.h>

struct rctl_err {
	int errnum;		/* positive errno, 0 when no error */
	char msg[512];		/* "cannot read PFC of 'eth2': Operation not supported" */
};

/* Exit statuses shared by every command (documented in every man page). */
enum rctl_exit {
	RCTL_EXIT_OK = 0,
	RCTL_EXIT_WARN = 1,	/* a check found a warning */
	RCTL_EXIT_FAIL = 2,	/* a check found a failure */
	RCTL_EXIT_UNKNOWN = 3,	/* could not evaluate, or runtime error */
	RCTL_EXIT_USAGE = 64,	/* EX_USAGE: bad option or unknown command */
};

/*
 * Record an error and return -errnum; with "suffix" and a non-zero errnum the
 * message gets ": <strerror>" appended.
 */
int rctl_err_fmt(struct rctl_err *e, int errnum, bool suffix, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Appends ": <strerror(errnum)>": callers write only what failed and its subject. */
#define rctl_err_strerror(e, errnum, ...) rctl_err_fmt(e, errnum, true, __VA_ARGS__)
/* Appends nothing, for messages that explain themselves (errnum still recorded). */
#define rctl_err_plain(e, errnum, ...) rctl_err_fmt(e, errnum, false, __VA_ARGS__)

void rctl_err_clear(struct rctl_err *e);

#endif
