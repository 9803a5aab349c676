// SPDX-License-Identifier: GPL-2.0-or-later
/* Option tables → getopt_long, value checks and generated help (opt.h). */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/opt.h"

#define OPT_MAX 160

int rctl_opt_count(const struct rctl_opt *opts)
{
	int n = 0;

	while (opts && opts[n].name)
		n++;
	return n;
}

/*
 * Decimal, as a person types it: "026" is 26, not octal 22 (strtol's base 0
 * would take it for octal); hexadecimal only with "0x".
 */
int rctl_parse_int(const char *s, long long min, long long max, int *v)
{
	const char *digits = s + (*s == '-' || *s == '+');
	int base = 10;
	long long x;
	char *end;

	if (!*s || isspace((unsigned char)*s))
		return -EINVAL;
	if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
		base = 16;
	errno = 0;
	x = strtoll(s, &end, base);
	if (errno || *end || x < INT_MIN || x > INT_MAX)
		return -EINVAL;
	if (max > min && (x < min || x > max))
		return -ERANGE;
	*v = x;
	return 0;
}

/* "4096", "4k", "1M": a positive byte count; 1024-based, like fio and dd. */
int rctl_parse_size(const char *s, uint64_t *v)
{
	unsigned long long x;
	unsigned int shift = 0;
	char *end;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	switch (tolower((unsigned char)*end)) {
	case 'k': shift = 10; end++; break;
	case 'm': shift = 20; end++; break;
	case 'g': shift = 30; end++; break;
	}
	if (*end == 'i' || *end == 'I')
		end++;
	if ((*end == 'b' || *end == 'B') && shift)
		end++;
	if (*end || (shift && x > (ULLONG_MAX >> shift)))
		return -EINVAL;
	*v = x << shift;
	return 0;
}

/* A finite decimal number, the whole of s; -EINVAL otherwise. */
static int parse_double(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return errno || end == s || *end || !isfinite(*v) ? -EINVAL : 0;
}

/* A plain decimal number ("1e-6", "0.5", "-3"): no "inf", "nan" or hexadecimal. */
static int range_number(const char *s, size_t len, double *v)
{
	char buf[48];

	if (!len || len >= sizeof(buf) || strspn(s, "0123456789.eE+-") < len)
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return parse_double(buf, v);
}

int rctl_range_parse(const char *s, struct rctl_range *r)
{
	struct rctl_range x = { .set = true, .has_lo = true, .has_hi = true };
	const char *colon;

	if (strlen(s) >= sizeof(x.text))
		return -EINVAL;
	snprintf(x.text, sizeof(x.text), "%s", s);
	if (*s == '@') {
		x.inside = true;
		s++;
	}
	colon = strchr(s, ':');
	if (!colon) {			/* "10": 0..10 */
		x.lo = 0;
		if (range_number(s, strlen(s), &x.hi))
			return -EINVAL;
	} else {
		if (strchr(colon + 1, ':'))
			return -EINVAL;
		if (colon - s == 1 && *s == '~')
			x.has_lo = false;
		else if (range_number(s, colon - s, &x.lo))
			return -EINVAL;
		if (!colon[1])
			x.has_hi = false;
		else if (range_number(colon + 1, strlen(colon + 1), &x.hi))
			return -EINVAL;
	}
	if ((!x.has_lo && !x.has_hi) || (x.has_lo && x.has_hi && x.lo > x.hi))
		return -EINVAL;
	*r = x;
	return 0;
}

bool rctl_range_alert(const struct rctl_range *r, double v)
{
	bool in;

	if (!r->set)
		return false;
	in = (!r->has_lo || v >= r->lo) && (!r->has_hi || v <= r->hi);
	return r->inside ? in : !in;
}

int rctl_parse_rate(const char *s, double *v)
{
	double x;

	if (parse_double(s, &x))
		return -EINVAL;
	if (x < 0 || x > 1)
		return -ERANGE;
	*v = x;
	return 0;
}

int rctl_parse_secs(const char *s, double *v)
{
	double x;

	if (parse_double(s, &x))
		return -EINVAL;
	if (x <= 0)
		return -ERANGE;
	*v = x;
	return 0;
}

const char *rctl_opt_alias(const struct rctl_opt *o, int n, char *buf, size_t len)
{
	const char *s = o->aliases, *end;

	while (s && *s) {
		while (*s == ' ')
			s++;
		end = strchrnul(s, ' ');
		if (end > s && !n--) {
			snprintf(buf, len, "%.*s", (int)(end - s), s);
			return buf;
		}
		s = end;
	}
	return NULL;
}

/* The rest of a word after the option's name: "" (a flag, or its value next), or its value. */
static bool given_rest(const char *rest, const char *next, const char *val, char eq)
{
	if (!val)
		return !*rest;
	if (!*rest)
		return next && !strcmp(next, val);
	return (!eq || *rest++ == eq) && !strcmp(rest, val);
}

static bool given_long(const struct rctl_opt *o, const char *w, const char *next,
		       const char *val)
{
	char alias[32];
	size_t len = strcspn(w, "=");
	const char *name = o->name;
	int a = 0;

	do {
		if (strlen(name) == len && !strncmp(w, name, len) &&
		    given_rest(w + len, next, val, '='))
			return true;
	} while ((name = rctl_opt_alias(o, a++, alias, sizeof(alias))));
	return false;
}

bool rctl_opt_given(const struct rctl_opt *o, const char *val, int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *w = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;

		if (w[0] != '-')
			continue;
		if (w[1] == '-' ? given_long(o, w + 2, next, val) :
		    o->short_name && w[1] == o->short_name && given_rest(w + 2, next, val, 0))
			return true;
	}
	return false;
}

/* The value of a word that names o ("--output=V", "--output V", "-oV", "-o V"), else NULL. */
static const char *value_of(const struct rctl_opt *o, const char *w, const char *next)
{
	char alias[32];
	const char *name = o->name;
	size_t len;
	int a = 0;

	if (w[1] != '-')
		return o->short_name && w[1] == o->short_name ? (w[2] ? w + 2 : next) : NULL;
	w += 2;
	len = strcspn(w, "=");
	do {
		if (strlen(name) == len && !strncmp(w, name, len))
			return w[len] ? w + len + 1 : next;
	} while ((name = rctl_opt_alias(o, a++, alias, sizeof(alias))));
	return NULL;
}

const char *rctl_opt_value(const struct rctl_opt *o, int argc, char **argv)
{
	const char *v, *last = NULL;
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (argv[i][0] == '-' && argv[i][1] &&
		    (v = value_of(o, argv[i], i + 1 < argc ? argv[i + 1] : NULL)))
			last = v;
	return last;
}

static const struct rctl_opt *opt_find(const struct rctl_opt *opts,
				       const struct rctl_opt *globals, int idx)
{
	int n = rctl_opt_count(opts);

	return idx < n ? &opts[idx] : &globals[idx - n];
}

static int opt_bad(struct rctl_err *e, const struct rctl_opt *o,
		   const char *val, const char *why)
{
	return rctl_err_plain(e, EINVAL, "invalid value '%s' for '--%s': %s",
			    val, o->name, why);
}

static int opt_choice(const struct rctl_opt *o, const char *val,
		      struct rctl_err *e)
{
	char list[256] = "";
	int i;

	for (i = 0; o->choices[i]; i++) {
		if (!strcmp(o->choices[i], val)) {
			*(const char **)o->dst = o->choices[i];
			return 0;
		}
		if (i)
			strncat(list, ", ", sizeof(list) - strlen(list) - 1);
		strncat(list, o->choices[i], sizeof(list) - strlen(list) - 1);
	}
	return rctl_err_plain(e, EINVAL, "invalid value '%s' for '--%s': expected one of %s",
			    val, o->name, list);
}

static int opt_store(const struct rctl_opt *o, const char *val,
		     struct rctl_err *e)
{
	char why[96];
	int ret;

	switch (o->type) {
	case OPT_FLAG:
		*(bool *)o->dst = true;
		break;
	case OPT_STR:
		*(const char **)o->dst = val;
		break;
	case OPT_CHOICE:
		return opt_choice(o, val, e);
	case OPT_LIST: {
		struct rctl_opt_list *l = o->dst;

		if (l->n >= RCTL_OPT_LIST_MAX)
			return opt_bad(e, o, val, "given too many times (at most 32)");
		l->v[l->n++] = val;
		break;
	}
	case OPT_INT:
		ret = rctl_parse_int(val, o->min, o->max, o->dst);
		if (ret == -ERANGE) {
			snprintf(why, sizeof(why), "expected %lld to %lld",
				 o->min, o->max);
			return opt_bad(e, o, val, why);
		}
		if (ret)
			return opt_bad(e, o, val, "not an integer");
		break;
	case OPT_SECS:
		ret = rctl_parse_secs(val, o->dst);
		if (ret == -ERANGE)
			return opt_bad(e, o, val, "must be greater than 0");
		if (ret)
			return opt_bad(e, o, val, "not a number of seconds");
		if (o->max > 0 && *(double *)o->dst > o->max) {
			snprintf(why, sizeof(why), "at most %lld", o->max);
			return opt_bad(e, o, val, why);
		}
		break;
	case OPT_SIZE:
		if (rctl_parse_size(val, o->dst))
			return opt_bad(e, o, val, "not a size (e.g. 4096, 4k, 1M)");
		if (*(uint64_t *)o->dst < (uint64_t)o->min ||
		    (o->max > 0 && *(uint64_t *)o->dst > (uint64_t)o->max)) {
			/* Without a maximum, only the minimum can be said. */
			if (o->max > 0)
				snprintf(why, sizeof(why), "expected %lld to %lld bytes",
					 o->min, o->max);
			else
				snprintf(why, sizeof(why), "expected at least %lld", o->min);
			return opt_bad(e, o, val, why);
		}
		break;
	case OPT_RANGE:
		if (rctl_range_parse(val, o->dst))
			return opt_bad(e, o, val, "not a threshold range (10, 10:, ~:10, 10:20, @10:20)");
		break;
	}
	if (o->given)
		*o->given = true;
	return 0;
}

/* getopt_long keeps pointers to the names: the aliases live here. */
static char alias_names[OPT_MAX][32];
static int n_alias;

/* Build the getopt_long tables; -1 when too many options. */
static int opt_build(const struct rctl_opt *opts, const struct rctl_opt *globals,
		     bool stop, struct option *lo, char *so, size_t solen)
{
	int n = rctl_opt_count(opts), g = rctl_opt_count(globals), i, a, k = 0, m = 0;

	if (stop)
		so[k++] = '+';
	so[k++] = ':';
	for (i = 0; i < n + g; i++) {
		const struct rctl_opt *o = opt_find(opts, globals, i);
		const char *s = o->aliases;

		/* The long name, then each alias: all parse to option i. */
		for (a = 0; a == 0 || (s && *s); a++) {
			const char *name = o->name;
			size_t l;

			if (a) {
				while (*s == ' ')
					s++;
				l = strcspn(s, " ");
				if (!l)
					break;
				if (l >= sizeof(alias_names[0]) || n_alias >= OPT_MAX)
					return -1;
				snprintf(alias_names[n_alias], sizeof(alias_names[0]), "%.*s",
					 (int)l, s);
				name = alias_names[n_alias++];
				s += l;
			}
			if (m + 1 >= OPT_MAX)
				return -1;
			lo[m++] = (struct option){
				.name = name,
				.has_arg = o->type == OPT_FLAG ? no_argument : required_argument,
				.val = 256 + i,
			};
		}
		if (o->short_name && (size_t)k + 3 < solen) {
			so[k++] = o->short_name;
			if (o->type != OPT_FLAG)
				so[k++] = ':';
		}
		if (o->retired_short && (size_t)k + 3 < solen) {
			so[k++] = o->retired_short;
			if (o->type != OPT_FLAG)
				so[k++] = ':';
		}
	}
	lo[m] = (struct option){ 0 };
	so[k] = '\0';
	return n + g;
}

static int opt_by_short(const struct rctl_opt *opts,
			const struct rctl_opt *globals, int c)
{
	int i, n = rctl_opt_count(opts) + rctl_opt_count(globals);

	for (i = 0; i < n; i++)
		if (opt_find(opts, globals, i)->short_name == c ||
		    opt_find(opts, globals, i)->retired_short == c)
			return i;
	return -1;
}

/* getopt_long's '?': an unknown option, or "--flag=value" (optopt is its val). */
static int opt_unknown(struct rctl_err *e, const struct rctl_opt *opts,
		       const struct rctl_opt *globals, char **argv, int c)
{
	const char *arg = argv[optind - 1];

	if (c >= 256)
		return rctl_err_plain(e, EINVAL, "option '--%s' takes no value (got '%s')",
				    opt_find(opts, globals, c - 256)->name, arg);
	if (c && c != '?')
		return rctl_err_plain(e, EINVAL, "unknown option '-%c'", c);
	return rctl_err_plain(e, EINVAL, "unknown option '%s'", arg);
}

/*
 * The word of the long option getopt_long just took: the last element it
 * consumed, or the one before when that was the option's separate value.
 */
static const char *opt_word(char **argv)
{
	const char *w = argv[optind - 1];

	if (optarg && optarg == w && optind >= 2 && strncmp(w, "--", 2))
		w = argv[optind - 2];
	return w;
}

/* getopt_long takes any unique prefix ("--inp" for "--input"); we take only the name. */
static bool opt_exact(char **argv, const char *name)
{
	const char *w = opt_word(argv);
	size_t l = strcspn(w + 2, "=");

	return !strncmp(w, "--", 2) && l == strlen(name) && !strncmp(w + 2, name, l);
}

static int opt_prefix(struct rctl_err *e, char **argv, const char *name)
{
	const char *w = opt_word(argv);

	return rctl_err_plain(e, EINVAL, "unknown option '%.*s' (did you mean '--%s'?)",
			    (int)strcspn(w, "="), w, name);
}

int rctl_opt_parse(const struct rctl_opt *opts, const struct rctl_opt *globals,
		   int argc, char **argv, unsigned int flags, int *first_pos,
		   struct rctl_err *e)
{
	struct option lo[OPT_MAX];
	char so[2 * OPT_MAX + 2];
	int n, c, idx, ret, li = 0;

	n_alias = 0;
	n = opt_build(opts, globals, flags & RCTL_OPT_STOP, lo, so, sizeof(so));
	if (n < 0)
		return rctl_err_plain(e, E2BIG, "too many options");
	opterr = 0;
	optind = 0;	/* full re-initialisation of GNU getopt */
	while ((c = getopt_long(argc, argv, so, lo, &li)) != -1) {
		if (c >= 256 && !opt_exact(argv, lo[li].name))
			return opt_prefix(e, argv, lo[li].name);
		if (c == '?')
			return opt_unknown(e, opts, globals, argv, optopt);
		if (c == ':') {
			idx = optopt >= 256 ? optopt - 256 : opt_by_short(opts, globals, optopt);
			if (idx < 0)
				return rctl_err_plain(e, EINVAL, "option requires a value");
			return rctl_err_plain(e, EINVAL, "missing value for '--%s'",
					    opt_find(opts, globals, idx)->name);
		}
		idx = c >= 256 ? c - 256 : opt_by_short(opts, globals, c);
		if (idx < 0 || idx >= n)
			return rctl_err_plain(e, EINVAL, "unknown option '-%c'", c);
		ret = opt_store(opt_find(opts, globals, idx), optarg, e);
		if (ret)
			return ret;
	}
	*first_pos = optind;
	return 0;
}

static void opt_help_one(FILE *f, const struct rctl_opt *o)
{
	char lhs[96];
	int k;

	char alias[32];
	int a;

	if (o->short_name)
		k = snprintf(lhs, sizeof(lhs), "-%c, --%s", o->short_name, o->name);
	else
		k = snprintf(lhs, sizeof(lhs), "    --%s", o->name);
	for (a = 0; rctl_opt_alias(o, a, alias, sizeof(alias)) && k > 0 &&
		    (size_t)k < sizeof(lhs); a++)
		k += snprintf(lhs + k, sizeof(lhs) - k, ", --%s", alias);
	if (o->arg && k > 0 && (size_t)k < sizeof(lhs))
		snprintf(lhs + k, sizeof(lhs) - k, " %s", o->arg);
	if (strlen(lhs) > 26)
		fprintf(f, "  %s\n  %-26s %s\n", lhs, "", o->help);
	else
		fprintf(f, "  %-26s %s\n", lhs, o->help);
}

void rctl_opt_help(FILE *f, const struct rctl_opt *opts)
{
	int i;

	for (i = 0; opts && opts[i].name; i++)
		opt_help_one(f, &opts[i]);
}
