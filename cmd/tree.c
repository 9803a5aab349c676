// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command tree and everything that walks it: the global options, the
 * options of a command (its table plus --input), help, the metadata dump and
 * the completion helper. They never touch netlink or verbs.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd.h"
#include "rocectl/out.h"
#include "rocectl/rules.h"
#include "rocectl/settings.h"
#include "rocectl/snapshot.h"
#include "rocectl/tune_store.h"
#include "tree.h"

#ifndef ROCECTL_VERSION
#define ROCECTL_VERSION "0.1.0"
#endif

struct cmd_global cmd_global;

const struct rctl_opt cmd_global_opts[] = {
	{ .name = "json", .short_name = 'j', .type = OPT_FLAG, .dst = &cmd_global.json,
	  .help = "print one JSON document" },
	{ .name = "pretty", .short_name = 'p', .type = OPT_FLAG, .dst = &cmd_global.pretty,
	  .help = "print indented JSON (implies --json)" },
	{ .name = "verbose", .short_name = 'v', .type = OPT_FLAG, .dst = &cmd_global.verbose,
	  .help = "show more detail" },
	{ .name = "quiet", .short_name = 'q', .type = OPT_FLAG, .dst = &cmd_global.quiet,
	  .help = "print no warnings or progress" },
	{ .name = "version", .short_name = 'V', .type = OPT_FLAG, .dst = &cmd_global.version,
	  .help = "print the version and exit" },
	{ .name = "help", .short_name = 'h', .type = OPT_FLAG, .dst = &cmd_global.help,
	  .help = "print this help and exit" },
	{ 0 }
};

/*
 * -i/--input of every command whose entry has .host_input, declared here
 * once: cmd_opts() adds it to the command's own table.
 */
const char *cmd_input;
struct rctl_opt_list cmd_inputs;

static const struct rctl_opt input_opt = {
	.name = "input", .short_name = 'i', .type = OPT_STR, .arg = "FILE",
	.dst = &cmd_input, .kind = ARG_FILE,
	.help = "read a snapshot written by 'rocectl collect' instead of this host",
};

/* The tables cmd_opts() built, one a .host_input command, kept until exit. */
static struct built_opts {
	const struct rctl_cmd *cmd;
	struct built_opts *next;
	struct rctl_opt opts[];
} *built;

/*
 * The options of command c: its table, plus --input when its entry has
 * .host_input, right after its --dev (the two choose what is read), else
 * last. Built once a command, whatever the table's length.
 */
const struct rctl_opt *cmd_opts(const struct rctl_cmd *c)
{
	int n = rctl_opt_count(c->opts), at = n, i;
	struct built_opts *b;

	if (!c->host_input)
		return c->opts;
	for (b = built; b; b = b->next)
		if (b->cmd == c)
			return b->opts;
	b = calloc(1, sizeof(*b) + (n + 2) * sizeof(b->opts[0]));
	if (!b) {
		fprintf(stderr, "rocectl: cannot build the options of '%s': %s\n", c->name,
			strerror(ENOMEM));
		exit(RCTL_EXIT_UNKNOWN);
	}
	for (i = 0; i < n; i++)
		if (!strcmp(c->opts[i].name, "dev"))
			at = i + 1;
	for (i = 0; i < n; i++)
		b->opts[i < at ? i : i + 1] = c->opts[i];
	b->opts[at] = input_opt;
	if (c->host_inputs) {	/* repeatable: each a file, a directory or a pattern */
		b->opts[at].type = OPT_LIST;
		b->opts[at].dst = &cmd_inputs;
	}
	if (c->input_help)
		b->opts[at].help = c->input_help;
	b->cmd = c;
	b->next = built;
	built = b;
	return b->opts;
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
	&cmd_flows,
	&cmd_bench,
	&cmd_check, &cmd_doctor, &cmd_compare,
	&cmd_counters,
	&cmd_tune,
	&cmd_collect,
	&cmd_capture,
	&cmd_reach, &cmd_serve,
	&cmd_help,
	&cmd_metadata,
	&cmd_complete,
	NULL
};

const struct rctl_cmd cmd_root = {
	.name = "rocectl",
	.summary = "rocectl checks, tunes and proves RoCE hosts",
	.sub = top_cmds,
};

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

void cmd_print_help(FILE *f, const char *path, const struct rctl_cmd *c)
{
	const struct rctl_opt *opts = cmd_opts(c);
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
	rctl_opt_help(f, cmd_global_opts);
	fprintf(f, "\nExit status: 0 ok, 1 check warning, 2 check failure, "
		   "3 could not evaluate or error, 64 usage error.\n");
	if (c == &cmd_root)
		fprintf(f, "See 'rocectl help COMMAND' and rocectl(8).\n");
}

/* Walk argv words to a command; *path gets the words joined by spaces. */
const struct rctl_cmd *cmd_walk(char **words, int n, int *used,
				   char *path, size_t len, const char **bad)
{
	const struct rctl_cmd *c = &cmd_root, *next;
	bool operands = false;
	int i;

	path[0] = '\0';
	*bad = NULL;
	for (i = 0; i < n && c->sub; i++) {
		/* After "--" a word is a command name, even one that starts with '-'. */
		if (!operands && !strcmp(words[i], "--")) {
			operands = true;
			continue;
		}
		if (!operands && words[i][0] == '-')
			break;
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

	c = cmd_walk(argv, argc, &used, path, sizeof(path), &bad);
	if (bad || used < argc)
		return cmd_errorf(ctx, RCTL_EXIT_USAGE,
				  "unknown command '%s' (see 'rocectl help')",
				  bad ? bad : argv[used]);
	cmd_print_help(stdout, path, c);
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
	const struct rctl_cmd *const *s;
	char path[128], usage[256];

	snprintf(path, sizeof(path), "%s%s%s", parent, *parent ? " " : "", c->name);
	usage_line(usage, sizeof(usage), path, c);
	cJSON_AddStringToObject(o, "name", c->name);
	cJSON_AddStringToObject(o, "path", path);
	cJSON_AddStringToObject(o, "summary", c->summary);
	cJSON_AddStringToObject(o, "usage", usage);
	cJSON_AddBoolToObject(o, "check", c->flags & CMD_CHECK);
	cJSON_AddItemToObject(o, "options", meta_opts(cmd_opts(c)));
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
	cJSON_AddItemToObject(doc, "global_options", meta_opts(cmd_global_opts));
	cmds = cJSON_AddArrayToObject(doc, "commands");
	for (s = cmd_root.sub; *s; s++)
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

/* The --input on the line: its devices and netdevs, not this machine's, complete. */
static const char *comp_input;

/* 0 when the snapshot of --input was read and its names offered. */
static int comp_snapshot(const char *cur, bool devs)
{
	struct rctl_err e = { 0 };
	struct rctl_host h;
	char port[RCTL_NAME_LEN + 16];
	uint32_t i, k;

	if (!comp_input || !strcmp(comp_input, "-") || rctl_snapshot_load(comp_input, &h, &e))
		return -1;
	for (i = 0; devs && i < h.n_devs; i++) {
		comp_word(cur, h.devs[i].name);
		for (k = 0; k < h.devs[i].n_ports; k++) {
			snprintf(port, sizeof(port), "%s/%u", h.devs[i].name, h.devs[i].ports[k].port);
			comp_word(cur, port);
		}
	}
	for (i = 0; i < h.n_netdevs; i++)
		comp_word(cur, h.netdevs[i].name);
	rctl_host_free(&h);
	return 0;
}

static void comp_kind(const char *cur, enum rctl_arg_kind kind)
{
	int a;

	switch (kind) {
	case ARG_STATE:
		comp_state(cur);
		break;
	case ARG_RULE:
		/* The table itself: a rule or area added later completes by itself. */
		for (a = 0; a < RCTL_AREA_N; a++)
			comp_word(cur, rctl_area_name(a));
		for (a = 0; a < (int)rctl_n_rules; a++)
			comp_word(cur, rctl_rules[a].id);
		break;
	case ARG_SETTING:
		for (a = 0; a < RCTL_AREA_N; a++)
			comp_word(cur, rctl_area_name(a));
		for (a = 1; a < RCTL_SET_N; a++)	/* "pfc" is both: once */
			if (rctl_area_parse(rctl_setting_name(a)) < 0)
				comp_word(cur, rctl_setting_name(a));
		break;
	case ARG_AREA_DEV:
		for (a = 0; a < RCTL_AREA_N; a++)
			if (!strncmp(cur, rctl_area_name(a), strlen(cur)))
				puts(rctl_area_name(a));
		if (!strncmp(cur, "all", strlen(cur)))
			puts("all");
		/* fall through */
	case ARG_DEV:
		if (!comp_snapshot(cur, true))
			break;
		comp_dir(cur, "/sys/class/infiniband");
		comp_dir(cur, "/sys/class/net");
		break;
	case ARG_NETDEV:
		if (!comp_snapshot(cur, false))
			break;
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
	const struct rctl_opt *tabs[2] = { cmd_opts(c), cmd_global_opts };
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
	const struct rctl_opt *tabs[2] = { c->sub ? NULL : cmd_opts(c), cmd_global_opts };
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
	const struct rctl_cmd *c = &cmd_root, *next;
	const struct rctl_opt *o, *pending = NULL;
	const char *cur = argc ? argv[argc - 1] : "";
	int i;

	(void)ctx;
	comp_state_dir = RCTL_TUNE_STATE_DIR;
	comp_input = NULL;
	for (i = 0; i < argc - 1; i++) {
		if (pending && !strcmp(argv[i], "="))
			continue;
		if (pending) {
			if (!strcmp(pending->name, "state-dir"))
				comp_state_dir = argv[i];
			else if (!strcmp(pending->name, "input"))
				comp_input = argv[i];
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
			next = &cmd_root;	/* "help check <TAB>" completes like "check <TAB>" */
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
