/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Option tables: each option is declared once, with its help, and the same
 * table drives getopt_long parsing, range checks, --help, the metadata dump
 * (man page and completion sync) and completion of option values.
 */
#ifndef ROCECTL_OPT_H
#define ROCECTL_OPT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "rocectl/err.h"

enum rctl_opt_type {
	OPT_FLAG,	/* bool *dst */
	OPT_STR,	/* const char **dst */
	OPT_INT,	/* int *dst, checked against [min, max] when max > min */
	OPT_SECS,	/* double *dst, seconds, > 0, and <= max when max > 0 */
	OPT_SIZE,	/* uint64_t *dst, bytes, K/M/G suffix (1024-based) */
	OPT_RANGE,	/* struct rctl_range *dst: a monitoring-plugins threshold range */
	OPT_CHOICE,	/* const char **dst, one of choices[] */
	OPT_LIST,	/* struct rctl_opt_list *dst: repeatable, each value appended */
};

#define RCTL_OPT_LIST_MAX 32

struct rctl_opt_list {
	const char *v[RCTL_OPT_LIST_MAX];
	unsigned int n;
};

/* What a value (of an option or a positional argument) names, for completion. */
enum rctl_arg_kind {
	ARG_NONE,
	ARG_DEV,	/* RDMA device, DEV/PORT or netdev */
	ARG_NETDEV,
	ARG_FILE,
	ARG_HOST,
	ARG_STATE,	/* a state file of tune apply */
	ARG_AREA_DEV,	/* check's positionals: an area of the rules, or ARG_DEV */
	ARG_RULE,	/* --skip: a rule id or an area, from the rule table at run time */
	ARG_SETTING,	/* tune's --only/--skip: an area or a setting id of the settings table */
};

struct rctl_opt {
	const char *name;		/* long name, kebab-case, no dashes */
	const char *aliases;		/* other long names of the same option,
					 * space-separated: the peers' names
					 * ("iodepth", "ib-dev"), or NULL */
	char short_name;		/* 0 when none */
	char retired_short;		/* a letter the option gave up to another
					 * meaning, still taken where this command
					 * has no other use for it (old scripts);
					 * never listed: help, metadata and
					 * completion show only short_name */
	enum rctl_opt_type type;
	const char *arg;		/* value name in help: "SECS" */
	const char *help;
	void *dst;
	long long min, max;
	const char *const *choices;	/* OPT_CHOICE, NULL terminated */
	enum rctl_arg_kind kind;
	bool *given;			/* set when the option was on the line */
};

/*
 * The n-th alias of "o" (0-based) into buf; NULL when there is none. Help,
 * the metadata dump and completion list aliases from here.
 */
const char *rctl_opt_alias(const struct rctl_opt *o, int n, char *buf, size_t len);

/* Number of entries of a table terminated by an entry with name NULL. */
int rctl_opt_count(const struct rctl_opt *opts);

enum { RCTL_OPT_STOP = 1 << 0 };	/* stop at the first positional argument */

/*
 * Parse argv[1..] against "opts" and "globals" (either may be NULL). Options
 * and positional arguments may be mixed unless RCTL_OPT_STOP; on return the
 * positional arguments are argv[*first_pos .. argc). Returns 0, or -EINVAL
 * with a message.
 */
int rctl_opt_parse(const struct rctl_opt *opts, const struct rctl_opt *globals,
		   int argc, char **argv, unsigned int flags, int *first_pos,
		   struct rctl_err *e);

/*
 * Whether option o is on the line argv[1..] before "--", without parsing it:
 * a flag (val NULL) as a word of its own ("-j", "--json"), else with the value
 * val ("-oVAL", "-o VAL", "--output=VAL", "--output VAL"; aliases too). For
 * what must be known of a line that may be a usage error: a Nagios plugin's
 * "-o nagios", the -j of a group given without its command.
 */
bool rctl_opt_given(const struct rctl_opt *o, const char *val, int argc, char **argv);

/*
 * The last value given to option o on such a line, without parsing it (NULL
 * when none): the -o and -O of a line that does not parse, so that its
 * textfile still says the run failed.
 */
const char *rctl_opt_value(const struct rctl_opt *o, int argc, char **argv);

/* "  -j, --json               print JSON" lines for --help. */
void rctl_opt_help(FILE *f, const struct rctl_opt *opts);

/* Parse helpers shared with positional arguments. */
int rctl_parse_int(const char *s, long long min, long long max, int *v);
int rctl_parse_size(const char *s, uint64_t *v);
int rctl_parse_secs(const char *s, double *v);
/* A rate such as a loss budget: "1e-6", "0.000001"; must be in [0, 1]. */
int rctl_parse_rate(const char *s, double *v);

/*
 * A threshold range of the Monitoring Plugins Development Guidelines
 * ("Threshold and ranges"): "10" is 0..10, "10:" 10..inf, "~:10" -inf..10,
 * "10:20" 10..20; a value outside alerts, or inside with a leading "@".
 */
struct rctl_range {
	bool set;
	bool inside;		/* "@": alert inside the range */
	bool has_lo, has_hi;	/* no bound: -inf ("~") or +inf */
	double lo, hi;
	char text[48];		/* as given, for perfdata and messages */
};

/* Parse s strictly (plain decimal numbers, lo <= hi): 0, or -EINVAL. */
int rctl_range_parse(const char *s, struct rctl_range *r);
/* Whether v alerts against r (false when r is not set). */
bool rctl_range_alert(const struct rctl_range *r, double v);

#endif
