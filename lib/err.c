// SPDX-License-Identifier: GPL-2.0-or-later
/* Error records for lib/ (see include/rocectl/err.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rocectl/err.h"

static int err_vset(struct rctl_err *e, int errnum, int suffix,
		    const char *fmt, va_list ap)
{
	int n;

	if (errnum < 0)
		errnum = -errnum;
	if (!e)
		return -errnum;
	e->errnum = errnum;
	n = vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	if (suffix && errnum && n >= 0 && (size_t)n < sizeof(e->msg))
		snprintf(e->msg + n, sizeof(e->msg) - n, ": %s",
			 strerror(errnum));
	return -errnum;
}

int rctl_err_set(struct rctl_err *e, int errnum, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = err_vset(e, errnum, 1, fmt, ap);
	va_end(ap);
	return ret;
}

int rctl_err_msg(struct rctl_err *e, int errnum, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = err_vset(e, errnum, 0, fmt, ap);
	va_end(ap);
	return ret;
}

void rctl_err_clear(struct rctl_err *e)
{
	e->errnum = 0;
	e->msg[0] = '\0';
}
