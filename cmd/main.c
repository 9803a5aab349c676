// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rocectl: global options, the command tree, help, version, the metadata dump
 * and completion helper, and the mapping of results to exit statuses.
 * help, version, __metadata and __complete never touch netlink or verbs.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd.h"
#include "rocectl/collect.h"
#include "rocectl/lldp.h"
#include "rocectl/out.h"
#include "rocectl/rules.h"
#include "rocectl/snapshot.h"
#include "rocectl/tune.h"

#ifndef ROCECTL_VERSION
#define ROCECTL_VERSION "0.1.0"
#endif

static struct {
	bool json, pretty, verbose, quiet, version, help;
} g;

static const struct rctl_opt global_opts[] = {
	{ .name = "json", .short_name = 'j', .type = OPT_FLAG, .dst = &g.json,
	  .help = "print one JSON document" },
	{ .name = "pretty", .short_name = 'p', .type = OPT_FLAG, .dst = &g.pretty,
	  .help = "print indented JSON (implies --json)" },
	{ .name = "verbose", .short_name = 'v', .type = OPT_FLAG, .dst = &g.verbose,
	  .help = "show more detail" },
	{ .name = "quiet", .short_name = 'q', .type = OPT_FLAG, .dst = &g.quiet,
	  .help = "print no warnings or progress" },
	{ .name = "version", .short_name = 'V', .type = OPT_FLAG, .dst = &g.version,
	  .help = "print the version and exit" },
	{ .name = "help", .short_name = 'h', .type = OPT_FLAG, .dst = &g.help,
	  .help = "print this help and exit" },
	{ 0 }
};

/*
 * -i/--input of every command whose entry has CMD_HOST_INPUT, declared here
 * once: cmd_opts() adds it to the command's own table.
 */
static const char *input;

static const struct rctl_opt input_opt = {
	.name = "input", .short_name = 'i', .type = OPT_STR, .arg = "FILE",
	.dst = &input, .kind = ARG_FILE,
	.help = "read a snapshot written by 'rocectl collect' instead of this host",
};

enum { CMD_OPTS_MAX = 64 };

/*
 * The options of command c: its table, plus --input when its entry has
 * CMD_HOST_INPUT, right after its --dev (the two choose what is read), else
 * last. buf holds CMD_OPTS_MAX entries; a table too long for it goes without.
 */
static const struct rctl_opt *cmd_opts(const struct rctl_cmd *c, struct rctl_opt *buf)
{
	int n = rctl_opt_count(c->opts), at = n, i;

	if (!(c->host & CMD_HOST_INPUT) || n + 2 > CMD_OPTS_MAX)
		return c->opts;
	for (i = 0; i < n; i++)
		if (!strcmp(c->opts[i].name, "dev"))
			at = i + 1;
	for (i = 0; i < n; i++)
		buf[i < at ? i : i + 1] = c->opts[i];
	buf[at] = input_opt;
	if (c->input_help)
		buf[at].help = c->input_help;
	buf[n + 1] = (struct rctl_opt){ 0 };
	return buf;
}

static int do_help(struct rctl_ctx *ctx, int argc, char **argv);
static int do_metadata(struct rctl_ctx *ctx, int argc, char **argv);
static int do_complete(struct rctl_ctx *ctx, int argc, char **argv);

static const struct rctl_cmd cmd_help = {
	.name = "help", .summary = "show help for a command",
	.args = "[COMMAND...]", .max_args = -1, .fn = do_help,
};

static const struct rctl_cmd cmd_metadata = {
	.name = "__metadata", .summary = "dump the command tree as JSON",
	.fn = do_metadata, .flags = CMD_HIDDEN,
};

static const struct rctl_cmd cmd_complete = {
	.name = "__complete", .summary = "complete a command line (bash)",
	.args = "WORD...", .max_args = -1, .fn = do_complete, .flags = CMD_HIDDEN,
};

static const struct rctl_cmd *const top_cmds[] = {
	&cmd_devices,
	&cmd_bench,
	&cmd_check, &cmd_doctor, &cmd_compare,
	&cmd_counters,
	&cmd_tune,
	&cmd_collect,
	&cmd_reach, &cmd_serve,
	&cmd_help,
	&cmd_metadata,
	&cmd_complete,
	NULL
};

static const struct rctl_cmd root = {
	.name = "rocectl",
	.summary = "rocectl checks, tunes and proves RoCE hosts",
	.sub = top_cmds,
};

/* ---- errors ---------------------------------------------------------- */

/* The last error, for the Nagios status line of a run that failed early. */
static char last_err[600];

static void verr(struct rctl_ctx *ctx, const char *prefix, int errnum,
		 const char *fmt, va_list ap)
{
	char msg[600], *text;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	/* a file name or a snapshot's string may hold escapes: the terminal gets them escaped */
	text = out_escape(msg, false);
	if (!*prefix)
		snprintf(last_err, sizeof(last_err), "%s", text ? text : "");
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

/* ---- the tree -------------------------------------------------------- */

static const struct rctl_cmd *cmd_find(const struct rctl_cmd *parent,
				       const char *name)
{
	const struct rctl_cmd *const *c;

	for (c = parent->sub; c && *c; c++)
		if (!strcmp((*c)->name, name))
			return *c;
	return NULL;
}

/* "rocectl check pfc [OPTIONS] [ARGS]" */
static void usage_line(char *buf, size_t len, const char *path,
		       const struct rctl_cmd *c)
{
	if (!*path) {
		snprintf(buf, len, "rocectl [OPTIONS] COMMAND [ARGS]");
		return;
	}
	snprintf(buf, len, "rocectl%s%s%s [OPTIONS]%s%s", *path ? " " : "",
		 path, c->sub ? " COMMAND" : "", c->args ? " " : "",
		 c->args ? c->args : "");
}

static void print_help(FILE *f, const char *path, const struct rctl_cmd *c)
{
	struct rctl_opt buf[CMD_OPTS_MAX];
	const struct rctl_opt *opts = cmd_opts(c, buf);
	const struct rctl_cmd *const *s;
	char usage[256];

	usage_line(usage, sizeof(usage), path, c);
	fprintf(f, "usage: %s\n\n%c%s.\n", usage, toupper((unsigned char)c->summary[0]),
		c->summary + 1);
	if (c->sub) {
		fprintf(f, "\nCommands:\n");
		for (s = c->sub; *s; s++)
			if (!((*s)->flags & CMD_HIDDEN))
				fprintf(f, "  %-12s %s\n", (*s)->name, (*s)->summary);
	}
	if (opts && opts[0].name) {
		fprintf(f, "\nOptions:\n");
		rctl_opt_help(f, opts);
	}
	fprintf(f, "\nGlobal options:\n");
	rctl_opt_help(f, global_opts);
	fprintf(f, "\nExit status: 0 ok, 1 check warning, 2 check failure, "
		   "3 could not evaluate or error, 64 usage error.\n");
	if (c == &root)
		fprintf(f, "See 'rocectl help COMMAND' and rocectl(8).\n");
}

/* Walk argv words to a command; *path gets the words joined by spaces. */
static const struct rctl_cmd *walk(char **words, int n, int *used,
				   char *path, size_t len, const char **bad)
{
	const struct rctl_cmd *c = &root, *next;
	int i;

	path[0] = '\0';
	*bad = NULL;
	for (i = 0; i < n && c->sub && words[i][0] != '-'; i++) {
		next = cmd_find(c, words[i]);
		if (!next) {
			*bad = words[i];
			break;
		}
		c = next;
		if (path[0])
			strncat(path, " ", len - strlen(path) - 1);
		strncat(path, c->name, len - strlen(path) - 1);
	}
	*used = i;
	return c;
}

static int do_help(struct rctl_ctx *ctx, int argc, char **argv)
{
	const struct rctl_cmd *c;
	const char *bad;
	char path[128];
	int used;

	c = walk(argv, argc, &used, path, sizeof(path), &bad);
	if (bad || used < argc)
		return cmd_errorf(ctx, RCTL_EXIT_USAGE,
				  "unknown command '%s' (see 'rocectl help')",
				  bad ? bad : argv[used]);
	print_help(stdout, path, c);
	return RCTL_EXIT_OK;
}

/* ---- metadata dump --------------------------------------------------- */

static cJSON *meta_opts(const struct rctl_opt *opts)
{
	cJSON *arr = cJSON_CreateArray(), *o, *ch, *al;
	char s[2] = "", alias[32];
	int i, k;

	for (i = 0; opts && opts[i].name; i++) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "long", opts[i].name);
		al = cJSON_AddArrayToObject(o, "aliases");
		for (k = 0; rctl_opt_alias(&opts[i], k, alias, sizeof(alias)); k++)
			cJSON_AddItemToArray(al, cJSON_CreateString(alias));
		s[0] = opts[i].short_name;
		if (s[0])
			cJSON_AddStringToObject(o, "short", s);
		else
			cJSON_AddNullToObject(o, "short");
		if (opts[i].arg)
			cJSON_AddStringToObject(o, "arg", opts[i].arg);
		else
			cJSON_AddNullToObject(o, "arg");
		cJSON_AddStringToObject(o, "help", opts[i].help);
		if (opts[i].choices) {
			ch = cJSON_AddArrayToObject(o, "choices");
			for (k = 0; opts[i].choices[k]; k++)
				cJSON_AddItemToArray(ch, cJSON_CreateString(opts[i].choices[k]));
		}
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

static cJSON *meta_cmd(const struct rctl_cmd *c, const char *parent)
{
	cJSON *o = cJSON_CreateObject(), *subs;
	struct rctl_opt buf[CMD_OPTS_MAX];
	const struct rctl_cmd *const *s;
	char path[128], usage[256];

	snprintf(path, sizeof(path), "%s%s%s", parent, *parent ? " " : "", c->name);
	usage_line(usage, sizeof(usage), path, c);
	cJSON_AddStringToObject(o, "name", c->name);
	cJSON_AddStringToObject(o, "path", path);
	cJSON_AddStringToObject(o, "summary", c->summary);
	cJSON_AddStringToObject(o, "usage", usage);
	cJSON_AddBoolToObject(o, "check", c->flags & CMD_CHECK);
	cJSON_AddItemToObject(o, "options", meta_opts(cmd_opts(c, buf)));
	subs = cJSON_AddArrayToObject(o, "commands");
	for (s = c->sub; s && *s; s++)
		if (!((*s)->flags & CMD_HIDDEN))
			cJSON_AddItemToArray(subs, meta_cmd(*s, path));
	return o;
}

/* Always JSON: it is what completion and the sync tests read. */
static int do_metadata(struct rctl_ctx *ctx, int argc, char **argv)
{
	const struct rctl_cmd *const *s;
	cJSON *doc, *cmds;
	char *txt;

	(void)argc;
	(void)argv;
	out_init(NULL, false, false);	/* this document is the whole output */
	doc = cJSON_CreateObject();
	cJSON_AddNumberToObject(doc, "schema_version", RCTL_SCHEMA_VERSION);
	cJSON_AddStringToObject(doc, "program", "rocectl");
	cJSON_AddStringToObject(doc, "version", ROCECTL_VERSION);
	cJSON_AddItemToObject(doc, "global_options", meta_opts(global_opts));
	cmds = cJSON_AddArrayToObject(doc, "commands");
	for (s = root.sub; *s; s++)
		if (!((*s)->flags & CMD_HIDDEN))
			cJSON_AddItemToArray(cmds, meta_cmd(*s, ""));
	txt = ctx->pretty ? cJSON_Print(doc) : cJSON_PrintUnformatted(doc);
	if (txt)
		puts(txt);
	cJSON_free(txt);
	cJSON_Delete(doc);
	return RCTL_EXIT_OK;
}

/* ---- completion helper ----------------------------------------------- */

static void comp_word(const char *cur, const char *w)
{
	if (!strncmp(w, cur, strlen(cur)))
		puts(w);
}

static void comp_dir(const char *cur, const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			comp_word(cur, de->d_name);
	closedir(d);
}

/* The --state-dir on the line, or the default. */
static const char *comp_state_dir;

/* State files of tune apply (full paths); other files when none matches. */
static void comp_state(const char *cur)
{
	char path[4096];
	struct dirent *de;
	DIR *d = opendir(comp_state_dir);
	int n = 0;

	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, "tune-", 5) || !strstr(de->d_name, ".json"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", comp_state_dir, de->d_name);
		if (!strncmp(path, cur, strlen(cur))) {
			puts(path);
			n++;
		}
	}
	if (d)
		closedir(d);
	if (!n)
		puts("@file");
}

static void comp_kind(const char *cur, enum rctl_arg_kind kind)
{
	int a;

	switch (kind) {
	case ARG_STATE:
		comp_state(cur);
		break;
	case ARG_AREA_DEV:
		for (a = 0; a < RCTL_AREA_N; a++)
			if (!strncmp(cur, rctl_area_name(a), strlen(cur)))
				puts(rctl_area_name(a));
		if (!strncmp(cur, "all", strlen(cur)))
			puts("all");
		/* fall through */
	case ARG_DEV:
		comp_dir(cur, "/sys/class/infiniband");
		comp_dir(cur, "/sys/class/net");
		break;
	case ARG_NETDEV:
		comp_dir(cur, "/sys/class/net");
		break;
	case ARG_FILE:
		puts("@file");	/* the bash side completes file names */
		break;
	default:
		break;
	}
}

/* Whether "--word" (up to '=' or its end, "len" chars) names option o. */
static bool comp_long_is(const struct rctl_opt *o, const char *w, size_t len)
{
	char alias[32];
	int a;

	if (strlen(o->name) == len && !strncmp(w, o->name, len))
		return true;
	for (a = 0; rctl_opt_alias(o, a, alias, sizeof(alias)); a++)
		if (strlen(alias) == len && !strncmp(w, alias, len))
			return true;
	return false;
}

/* The option a word names: "-d", "--dev", "--ib-dev" or "--dev=..." */
static const struct rctl_opt *comp_opt(const struct rctl_cmd *c, const char *w)
{
	static struct rctl_opt buf[CMD_OPTS_MAX];	/* the option returned lives on */
	const struct rctl_opt *tabs[2] = { cmd_opts(c, buf), global_opts };
	size_t len = w[0] == '-' && w[1] == '-' ? strcspn(w + 2, "=") : 0;
	int t, i;

	for (t = 0; t < 2; t++)
		for (i = 0; tabs[t] && tabs[t][i].name; i++)
			if ((len && comp_long_is(&tabs[t][i], w + 2, len)) ||
			    (w[0] == '-' && w[1] && !w[2] && w[1] == tabs[t][i].short_name))
				return &tabs[t][i];
	return NULL;
}

static void comp_options(const char *cur, const struct rctl_cmd *c)
{
	struct rctl_opt ob[CMD_OPTS_MAX];
	const struct rctl_opt *tabs[2] = { c->sub ? NULL : cmd_opts(c, ob), global_opts };
	char buf[80], alias[32];
	int t, i, a;

	for (t = 0; t < 2; t++)
		for (i = 0; tabs[t] && tabs[t][i].name; i++) {
			snprintf(buf, sizeof(buf), "--%s", tabs[t][i].name);
			comp_word(cur, buf);
			for (a = 0; rctl_opt_alias(&tabs[t][i], a, alias, sizeof(alias)); a++) {
				snprintf(buf, sizeof(buf), "--%s", alias);
				comp_word(cur, buf);
			}
		}
}

static void comp_value(const char *cur, const struct rctl_opt *o)
{
	int i;

	for (i = 0; o->choices && o->choices[i]; i++)
		comp_word(cur, o->choices[i]);
	comp_kind(cur, o->kind);
}

static void comp_commands(const char *cur, const struct rctl_cmd *c)
{
	int i;

	for (i = 0; c->sub[i]; i++)
		if (!(c->sub[i]->flags & CMD_HIDDEN))
			comp_word(cur, c->sub[i]->name);
}

/*
 * Words are those after "rocectl"; the last one is being completed. bash
 * splits "--input=FILE" into "--input" "=" "FILE": the "=" keeps the option
 * waiting for its value. After "help", the words name a command again.
 */
static int do_complete(struct rctl_ctx *ctx, int argc, char **argv)
{
	const struct rctl_cmd *c = &root, *next;
	const struct rctl_opt *o, *pending = NULL;
	const char *cur = argc ? argv[argc - 1] : "";
	int i;

	(void)ctx;
	comp_state_dir = RCTL_TUNE_STATE_DIR;
	for (i = 0; i < argc - 1; i++) {
		if (pending && !strcmp(argv[i], "="))
			continue;
		if (pending) {
			if (!strcmp(pending->name, "state-dir"))
				comp_state_dir = argv[i];
			pending = NULL;
			continue;
		}
		o = comp_opt(c, argv[i]);
		if (o) {	/* "--dev=mlx5_0" as one word carries its value */
			pending = o->type == OPT_FLAG || strchr(argv[i], '=') ? NULL : o;
			continue;
		}
		next = c->sub && argv[i][0] != '-' ? cmd_find(c, argv[i]) : NULL;
		if (next == &cmd_help)
			next = &root;	/* "help check <TAB>" completes like "check <TAB>" */
		if (next && !(next->flags & CMD_HIDDEN))
			c = next;
	}
	if (pending)
		comp_value(cur, pending);
	else if (cur[0] == '-')
		comp_options(cur, c);
	else if (c->sub)
		comp_commands(cur, c);
	else
		comp_kind(cur, c->arg_kind);
	return RCTL_EXIT_OK;
}

/* ---- dispatch -------------------------------------------------------- */

/*
 * "-o nagios" anywhere on the line, found before parsing: a Nagios plugin
 * must exit 3 (UNKNOWN) with a status line even for a usage error.
 */
static bool wants_nagios(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-onagios") || !strcmp(argv[i], "--output=nagios") ||
		    ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) &&
		     i + 1 < argc && !strcmp(argv[i + 1], "nagios")))
			return true;
	}
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

/*
 * "-o json", nvme-cli's spelling, wherever -o FORMAT is: it is --json, and
 * the command sees its default format, text, beside it.
 */
static void output_json_is_json(const struct rctl_opt *opts)
{
	const char **v;

	for (; opts && opts->name; opts++) {
		if (opts->type != OPT_CHOICE || strcmp(opts->name, "output"))
			continue;
		v = opts->dst;
		if (*v && !strcmp(*v, "json")) {
			*v = "text";
			g.json = true;
		}
	}
}

static int run_leaf(struct rctl_ctx *ctx, const struct rctl_cmd *c,
		    char *path, int argc, char **argv)
{
	struct rctl_opt buf[CMD_OPTS_MAX];
	const struct rctl_opt *opts = cmd_opts(c, buf);
	struct rctl_err e = { 0 };
	int pos, n;

	argv[0] = path;
	ctx->nagios = (c->flags & CMD_CHECK) && wants_nagios(argc, argv);
	if (rctl_opt_parse(opts, global_opts, argc, argv, 0, &pos, &e))
		return cmd_errorf(ctx, usage_status(ctx), "%s: %s (see 'rocectl %s --help')",
				  path, e.msg, path);
	output_json_is_json(opts);
	ctx->json = g.json || g.pretty;
	ctx->pretty = g.pretty;
	ctx->verbose = g.verbose;
	ctx->quiet = g.quiet;
	ctx->input = input;
	if (ctx->nagios && ctx->json) {
		/* One output format: the status line, never a JSON document beside it. */
		ctx->json = false;
		return cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "%s: '-o nagios' and '--json' exclude "
				  "each other: one output format (see 'rocectl %s --help')", path, path);
	}
	out_init(NULL, ctx->json, ctx->pretty);
	if (g.help) {
		print_help(stdout, path, c);
		return RCTL_EXIT_OK;
	}
	if (g.version) {
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
	int i;

	/* "check -j": the options after the group were not parsed yet. */
	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-p") || !strcmp(argv[i], "--pretty"))
			ctx->pretty = true;
		if (ctx->pretty || !strcmp(argv[i], "-j") || !strcmp(argv[i], "--json"))
			ctx->json = true;
	}
	ctx->nagios = wants_nagios(argc + 1, argv - 1);
	if (ctx->nagios)
		ctx->json = false;	/* the status line is the whole output */
	if (ctx->json)
		out_init(NULL, true, ctx->pretty);
	if (!ctx->json && !ctx->nagios) {
		print_help(stderr, path, c);
		return RCTL_EXIT_USAGE;
	}
	for (s = c->sub; *s; s++)
		if (!((*s)->flags & CMD_HIDDEN))
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 list[0] ? ", " : "", (*s)->name);
	if (c == &root)
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

	if (rctl_opt_parse(NULL, global_opts, argc, argv, RCTL_OPT_STOP, &pos, &e))
		return cmd_errorf(ctx, RCTL_EXIT_USAGE, "%s (see 'rocectl --help')", e.msg);
	ctx->json = g.json || g.pretty;
	ctx->pretty = g.pretty;
	out_init(NULL, ctx->json, ctx->pretty);
	if (g.version) {
		out_str(OUT_ANY, "version", "rocectl %s\n", ROCECTL_VERSION);
		return RCTL_EXIT_OK;
	}
	c = walk(argv + pos, argc - pos, &used, path, sizeof(path), &bad);
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
	if (c == &root || (c->sub && !c->fn)) {
		if (g.help || (pos + used < argc && !strcmp(argv[pos + used], "--help"))) {
			print_help(stdout, path, c);
			return RCTL_EXIT_OK;
		}
		return missing_command(ctx, path, c, argc - pos - used, argv + pos + used);
	}
	ctx->cmd = c;
	ctx->path = path;
	return run_leaf(ctx, c, path, argc - pos - used + 1, argv + pos + used - 1);
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

int main(int argc, char **argv)
{
	struct rctl_ctx ctx = { 0 };
	int status, ret;

	status = run(&ctx, argc, argv);
	if (ctx.nagios && !ctx.status_line) {
		/* Failed before a verdict: a plugin still says UNKNOWN on stdout. */
		printf("ROCECTL UNKNOWN - %s\n", last_err[0] ? last_err : "no verdict");
		status = RCTL_EXIT_UNKNOWN;
	}
	ret = out_finish();
	if (ret < 0) {
		fprintf(stderr, "rocectl: cannot write output: %s\n", strerror(-ret));
		return RCTL_EXIT_UNKNOWN;
	}
	return status;
}
