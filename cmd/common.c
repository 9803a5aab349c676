// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What several commands share (cmd.h): error reporting, the device argument,
 * loading the host, and the printers more than one command uses.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "rocectl/collect.h"
#include "rocectl/lldp.h"
#include "rocectl/out.h"
#include "rocectl/snapshot.h"

/* ---- errors ---------------------------------------------------------- */

/* The last error, for the Nagios status line of a run that failed early. */
char cmd_last_err[600];

static void verr(struct rctl_ctx *ctx, const char *prefix, int errnum,
		 const char *fmt, va_list ap)
{
	char msg[600], *text;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	/* a file name or a snapshot's string may hold escapes: the terminal gets them escaped */
	text = out_escape(msg, false);
	if (!*prefix)
		snprintf(cmd_last_err, sizeof(cmd_last_err), "%s", text ? text : "");
	fprintf(stderr, "rocectl: %s%s\n", prefix, text ? text : "");
	free(text);
	if (ctx && ctx->json && !*prefix)
		out_error(errnum, msg);
}

int cmd_errorf(struct rctl_ctx *ctx, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(ctx, "", 0, fmt, ap);
	va_end(ap);
	return status;
}

static int errf_num(struct rctl_ctx *ctx, int status, int errnum,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int errf_num(struct rctl_ctx *ctx, int status, int errnum,
		    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(ctx, "", errnum, fmt, ap);
	va_end(ap);
	return status;
}

int cmd_error(struct rctl_ctx *ctx, int status, const struct rctl_err *e)
{
	return errf_num(ctx, status, e->errnum, "%s",
			e->msg[0] ? e->msg : "unknown error");
}

void cmd_warn(struct rctl_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (ctx && ctx->quiet)
		return;
	va_start(ap, fmt);
	verr(ctx, "warning: ", 0, fmt, ap);
	va_end(ap);
}

int cmd_dev_arg(struct rctl_ctx *ctx, const char *opt, int argc, char **argv,
		const char **dev)
{
	*dev = opt;
	if (!argc)
		return 0;
	if (opt && strcmp(opt, argv[0]))
		return cmd_errorf(ctx, RCTL_EXIT_USAGE, "%s: '%s' and '--dev %s' name two devices; "
				  "give one", ctx->path, argv[0], opt);
	*dev = argv[0];
	return 0;
}

int cmd_load_host(struct rctl_ctx *ctx, unsigned int more, struct rctl_host *h,
		  struct rctl_err *e)
{
	unsigned int need = ctx->cmd->host;
	int ret;

	if (ctx->input && (need & CMD_HOST_INPUT))
		ret = rctl_snapshot_load(ctx->input, h, e);
	else
		ret = rctl_collect(h, (need & ~CMD_HOST_INPUT) | more, e);
	if (!ret)
		out_set_stamp(h->hostname, NULL);	/* the host described */
	return ret;
}

int cmd_load_lldp(struct rctl_ctx *ctx, struct rctl_host *h, double wait_s)
{
	struct rctl_err e = { 0 };

	if (ctx->input || !rctl_lldp_collect(h, wait_s, &e))
		return 0;
	rctl_host_free(h);
	return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
}
