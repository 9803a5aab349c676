// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rocectl: dispatch of a command line to its command (cmd/tree.c holds the
 * tree) and the mapping of results to exit statuses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cmd.h"
#include "rocectl/out.h"
#include "tree.h"

#ifndef ROCECTL_VERSION
#define ROCECTL_VERSION "0.1.0"
#endif

/* ---- dispatch -------------------------------------------------------- */

/*
 * The -o/--output of the check commands (cmd/check.c), as the dispatch looks
 * for it before parsing, when the command may not be known yet.
 */
static const struct rctl_opt output_opt = { .name = "output", .short_name = 'o' };

/*
 * "-o nagios" anywhere on the line, found before parsing: a Nagios plugin
 * must exit 3 (UNKNOWN) with a status line even for a usage error.
 */
static bool wants_nagios(int argc, char **argv)
{
	return rctl_opt_given(&output_opt, "nagios", argc, argv);
}

/* A global flag on a line not parsed yet. */
static bool global_given(const char *name, int argc, char **argv)
{
	const struct rctl_opt *o;

	for (o = cmd_global_opts; o->name; o++)
		if (!strcmp(o->name, name))
			return rctl_opt_given(o, NULL, argc, argv);
	return false;
}

/* "missing TARGET": the positional arguments' names, from the synopsis. */
static const char *missing_what(const struct rctl_cmd *c)
{
	static char buf[160];

	snprintf(buf, sizeof(buf), "missing %s", c->args ? c->args : "argument");
	return buf;
}

/* Usage errors exit 64, or 3 in Nagios mode. */
static int usage_status(const struct rctl_ctx *ctx)
{
	return ctx->nagios ? RCTL_EXIT_UNKNOWN : RCTL_EXIT_USAGE;
}

/* The value of the command's -o FORMAT, NULL when it has none. */
static const char **output_format(const struct rctl_opt *opts)
{
	for (; opts && opts->name; opts++)
		if (opts->type == OPT_CHOICE && !strcmp(opts->name, "output"))
			return opts->dst;
	return NULL;
}

/*
 * "-o json", nvme-cli's spelling, wherever -o FORMAT is: it is --json, and
 * the command sees its default format, text, beside it.
 */
static void output_json_is_json(const struct rctl_opt *opts)
{
	const char **v = output_format(opts);

	if (v && *v && !strcmp(*v, "json")) {
		*v = "text";
		cmd_global.json = true;
	}
}

/*
 * A line that does not parse, of a command that writes a textfile (-o
 * prometheus -O FILE): FILE still says the run failed, and why.
 */
static int usage_failed(struct rctl_ctx *ctx, const struct rctl_opt *opts, int argc, char **argv,
			int status)
{
	const struct rctl_opt *fmt = NULL, *file = NULL;

	for (; opts && opts->name; opts++)
		if (!strcmp(opts->name, "output"))
			fmt = opts;
		else if (!strcmp(opts->name, "output-file"))
			file = opts;
	if (!fmt || !file || !rctl_opt_value(fmt, argc, argv) || !rctl_opt_value(file, argc, argv))
		return status;
	return cmd_prom_failed(ctx, rctl_opt_value(fmt, argc, argv),
			       rctl_opt_value(file, argc, argv), status);
}

/* Whether the command writes text for people: no -o, or -o text. */
static bool output_is_text(const struct rctl_opt *opts)
{
	const char **v = output_format(opts);

	return !v || !*v || !strcmp(*v, "text");
}

/*
 * The columns of the terminal stdout is, 0 when it is none: text for a
 * person fits the screen there, and a pipe or a file gets whole lines.
 * COLUMNS first (what the shell says, and what a test sets), then the tty's.
 */
static int terminal_width(void)
{
	const char *cols = getenv("COLUMNS");
	struct winsize ws;
	int n;

	if (!isatty(STDOUT_FILENO))
		return 0;
	if (cols && !rctl_parse_int(cols, 20, 100000, &n))
		return n;
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
}

static int run_leaf(struct rctl_ctx *ctx, const struct rctl_cmd *c,
		    char *path, int argc, char **argv)
{
	const struct rctl_opt *opts = cmd_opts(c);
	struct rctl_err e = { 0 };
	int pos, n;

	argv[0] = path;
	ctx->nagios = (c->flags & CMD_CHECK) && wants_nagios(argc, argv);
	if (rctl_opt_parse(opts, cmd_global_opts, argc, argv, 0, &pos, &e))
		return usage_failed(ctx, opts, argc, argv,
				    cmd_errorf(ctx, usage_status(ctx), "%s: %s (see 'rocectl %s --help')",
					       path, e.msg, path));
	output_json_is_json(opts);
	ctx->json = cmd_global.json || cmd_global.pretty;
	ctx->pretty = cmd_global.pretty;
	ctx->verbose = cmd_global.verbose;
	ctx->quiet = cmd_global.quiet;
	ctx->input = cmd_inputs.n ? cmd_inputs.v[0] : cmd_input;
	ctx->inputs = &cmd_inputs;
	if (ctx->nagios && ctx->json) {
		/* One output format: the status line, never a JSON document beside it. */
		ctx->json = false;
		return cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "%s: '-o nagios' and '--json' exclude "
				  "each other: one output format (see 'rocectl %s --help')", path, path);
	}
	out_init(NULL, ctx->json, ctx->pretty);
	if (!ctx->json && !ctx->nagios && output_is_text(opts))
		out_set_width(terminal_width());
	if (cmd_global.help) {
		cmd_print_help(stdout, path, c);
		return RCTL_EXIT_OK;
	}
	if (cmd_global.version) {
		out_str(OUT_ANY, "version", "rocectl %s\n", ROCECTL_VERSION);
		return RCTL_EXIT_OK;
	}
	n = argc - pos;
	if (n < c->min_args || (c->max_args >= 0 && n > c->max_args))
		return cmd_errorf(ctx, usage_status(ctx), "%s: %s (see 'rocectl %s --help')",
				  path, n < c->min_args ? missing_what(c) :
				  "too many arguments", path);
	if ((c->flags & CMD_ROOT) && geteuid() != 0)
		return cmd_errorf(ctx, RCTL_EXIT_UNKNOWN,
				  "'rocectl %s' needs root", path);
	return c->fn(ctx, n, argv + pos);
}

/*
 * A group without its command: the help on stderr for people; one line (and
 * the JSON error object) with -j; a Nagios status line with -o nagios.
 */
static int missing_command(struct rctl_ctx *ctx, const char *path,
			   const struct rctl_cmd *c, int argc, char **argv)
{
	const struct rctl_cmd *const *s;
	char list[256] = "";

	/* "check -j": the options after the group were not parsed yet. */
	if (global_given("pretty", argc + 1, argv - 1))
		ctx->pretty = true;
	if (ctx->pretty || global_given("json", argc + 1, argv - 1))
		ctx->json = true;
	ctx->nagios = wants_nagios(argc + 1, argv - 1);
	if (ctx->nagios)
		ctx->json = false;	/* the status line is the whole output */
	if (ctx->json)
		out_init(NULL, true, ctx->pretty);
	if (!ctx->json && !ctx->nagios) {
		cmd_print_help(stderr, path, c);
		return RCTL_EXIT_USAGE;
	}
	for (s = c->sub; *s; s++)
		if (!((*s)->flags & CMD_HIDDEN))
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 list[0] ? ", " : "", (*s)->name);
	if (c == &cmd_root)
		return cmd_errorf(ctx, usage_status(ctx), "missing command: one of %s "
				  "(see 'rocectl help')", list);
	return cmd_errorf(ctx, usage_status(ctx), "%s: missing command: one of %s "
			  "(see 'rocectl %s --help')", path, list, path);
}

static int run(struct rctl_ctx *ctx, int argc, char **argv)
{
	struct rctl_err e = { 0 };
	const struct rctl_cmd *c;
	const char *bad;
	static char path[128];
	int pos, used;

	if (rctl_opt_parse(NULL, cmd_global_opts, argc, argv, RCTL_OPT_STOP, &pos, &e))
		return cmd_errorf(ctx, RCTL_EXIT_USAGE, "%s (see 'rocectl --help')", e.msg);
	ctx->json = cmd_global.json || cmd_global.pretty;
	ctx->pretty = cmd_global.pretty;
	out_init(NULL, ctx->json, ctx->pretty);
	if (cmd_global.version) {
		out_str(OUT_ANY, "version", "rocectl %s\n", ROCECTL_VERSION);
		return RCTL_EXIT_OK;
	}
	c = cmd_walk(argv + pos, argc - pos, &used, path, sizeof(path), &bad);
	if (bad) {
		/* "check nosuch -o nagios": a plugin's status line, exit 3. */
		ctx->nagios = wants_nagios(argc, argv);
		if (ctx->nagios)
			out_init(NULL, ctx->json = false, false);
		if (*path)
			return cmd_errorf(ctx, usage_status(ctx), "%s: unknown command '%s' "
					  "(see 'rocectl %s --help')", path, bad, path);
		return cmd_errorf(ctx, usage_status(ctx),
				  "unknown command '%s' (see 'rocectl help')", bad);
	}
	if (c == &cmd_root || (c->sub && !c->fn)) {
		if (cmd_global.help || (pos + used < argc && !strcmp(argv[pos + used], "--help"))) {
			cmd_print_help(stdout, path, c);
			return RCTL_EXIT_OK;
		}
		return missing_command(ctx, path, c, argc - pos - used, argv + pos + used);
	}
	ctx->cmd = c;
	ctx->path = path;
	return run_leaf(ctx, c, path, argc - pos - used + 1, argv + pos + used - 1);
}

int main(int argc, char **argv)
{
	struct rctl_ctx ctx = { 0 };
	int status, ret;

	status = run(&ctx, argc, argv);
	if (ctx.nagios && !ctx.status_line) {
		/* Failed before a verdict: a plugin still says UNKNOWN on stdout. */
		printf("ROCECTL UNKNOWN - %s\n", cmd_last_err[0] ? cmd_last_err : "no verdict");
		status = RCTL_EXIT_UNKNOWN;
	}
	ret = out_finish();
	if (ret < 0) {
		fprintf(stderr, "rocectl: cannot write output: %s\n", strerror(-ret));
		return RCTL_EXIT_UNKNOWN;
	}
	return status;
}
