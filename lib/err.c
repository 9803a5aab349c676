// SPDX-License-Identifier: GPL-2.0-or-later
/* Error records for lib/ (see include/rocectl/err.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rocectl/err.h"

int rctl_err_fmt(struct rctl_err *e, int errnum, bool suffix, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (errnum < 0)
		errnum = -errnum;
	if (!e)
		return -errnum;
	e->errnum = errnum;
	va_start(ap, fmt);
	n = vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	if (suffix && errnum && n >= 0 && (size_t)n < sizeof(e->msg))
		snprintf(e->msg + n, sizeof(e->msg) - n, ": %s",
			 strerror(errnum));
	return -errnum;
}

void rctl_err_clear(struct rctl_err *e)
{
	e->errnum = 0;
	e->msg[0] = '\0';
}
