#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "num.h"
#include "opt.h"

/* The long options that "--WORD" (up to any '=') can stand for: the one it
 * spells out, else every name it is a prefix of. */
static size_t long_matches(const char *word, const struct option *longopts,
                           const struct option **hit)
{
	size_t n = strcspn(word, "="), count = 0;
	const struct option *o;

	for (o = longopts; o->name; o++)
		if (strlen(o->name) == n && strncmp(o->name, word, n) == 0) {
			*hit = o;
			return 1;
		}
	for (o = longopts; o->name; o++)
		if (strncmp(o->name, word, n) == 0 && count++ == 0)
			*hit = o;
	return count;
}

/* "option '--de' is ambiguous (--delays, --delay, --delay-arm)", as
 * share/pb/opt.sh says it. */
static noreturn void ambiguous(const char *word, const struct option *longopts)
{
	size_t n = strcspn(word, "="), len = 0, cap = 0;
	const struct option *o;
	static char *list;   /* static: still reachable at exit */

	for (o = longopts; o->name; o++) {
		size_t l = strlen(o->name);

		if (strncmp(o->name, word, n) != 0)
			continue;
		xgrow(&list, &cap, len + l + 5, 1);
		len += (size_t)sprintf(list + len, "%s--%s", len ? ", " : "", o->name);
	}
	die_usage("option '--%.*s' is ambiguous (%s)", (int)n, word, list);
}

/* getopt_long's '?' covers an unknown option, an ambiguous prefix and
 * "--name=value" for an option that takes no value (optopt then holds
 * the option's code): name the word as typed. */
static noreturn void bad_option(const char *word, const struct option *longopts)
{
	if (word[0] == '-' && word[1] == '-' && word[2]) {
		const struct option *o = NULL;
		size_t count = long_matches(word + 2, longopts, &o);

		if (count > 1)
			ambiguous(word + 2, longopts);
		if (count == 1 && strchr(word, '=') && o->has_arg == no_argument)
			die_usage("option '--%s' takes no value", o->name);
	}
	if (word[0] == '-' && word[1] != '-' && word[1])
		die_usage("unknown option '-%c'", optopt ? optopt : word[1]);
	die_usage("unknown option '%s'", word);
}

int pb_getopt(int argc, char **argv, const char *shortopts,
              const struct option *longopts, const char *usage)
{
	char spec[32];
	int c;

	/* A leading '+' (stop at the first operand, as musl always does)
	 * must come before getopt's ':'. */
	if (shortopts[0] == '+')
		snprintf(spec, sizeof spec, "+:h%s", shortopts + 1);
	else
		snprintf(spec, sizeof spec, ":h%s", shortopts);
	opterr = 0;
	c = getopt_long(argc, argv, spec, longopts, NULL);
	switch (c) {
	case 'h':
		fputs(usage, stdout);
		flush_stdout_or_die();
		exit(0);
	case 'V':
		pb_version();
	case ':':
		die_usage("option '%s' needs a value", argv[optind - 1]);
	case '?':
		bad_option(argv[optind - 1], longopts);
	}
	return c;
}

long opt_count(const char *name, const char *val, long max)
{
	long n;

	if (num_parse_count(val, max, &n) < 0)
		die_usage("--%s wants a whole number from 1 to %ld, not '%s'",
		          name, max, val);
	return n;
}

long opt_nonneg(const char *name, const char *val, long max)
{
	int64_t n;

	if (num_parse_i64(val, &n) < 0 || n < 0 || n > max)
		die_usage("--%s wants a whole number from 0 to %ld, not '%s'",
		          name, max, val);
	return (long)n;
}

int64_t opt_dur(const char *name, const char *val)
{
	int64_t ns;

	if (num_parse_dur(val, &ns) < 0)
		die_usage("--%s wants a duration such as 250us, 1.5ms, 2s or a "
		          "number of ns, not '%s'", name, val);
	return ns;
}

double opt_num(const char *name, const char *val)
{
	double v;

	if (num_parse(val, &v) < 0)
		die_usage("--%s wants a number, not '%s'", name, val);
	return v;
}

/* A level L is used as the quantile 1 - (1 - L)/2 (or (1 - L)/2): it
 * must not round to 1, where the quantile is infinite, nor to 1/2, where
 * the level is lost. Written as a decimal below 1, a level can still read
 * back as 1. */
double opt_level(const char *name, const char *val)
{
	double v = opt_num(name, val), p;

	if (v == 1 && val[strspn(val, "+")] != '1')
		die_usage("--%s %s rounds to 1 as a double: the interval would be "
		          "infinite; the largest level is 0.9999999999999998", name, val);
	if (!(v > 0 && v < 1))
		die_usage("--%s wants a level between 0 and 1 (such as 0.95), "
		          "not '%s'", name, val);
	p = 1 - (1 - v) / 2;
	if (p == 1)
		die_usage("--%s %s is too close to 1: the interval would be infinite; the "
		          "largest level is 0.9999999999999998", name, val);
	if (p == 0.5)
		die_usage("--%s %s is too close to 0: the level is lost in rounding; "
		          "the smallest level is 1.7e-16", name, val);
	return v;
}

/* "a, b or c" of the n names, then tail ("" or ", p90, ..."); kept to exit. */
static const char *name_list(const char *const *names, int n, const char *last)
{
	static char *list;   /* static: still reachable at exit */
	size_t len = 0, cap = 0;
	int i;

	for (i = 0; i < n; i++) {
		xgrow(&list, &cap, len + strlen(names[i]) + strlen(last) + 5, 1);
		len += (size_t)sprintf(list + len, "%s%s", i == 0 ? "" : i < n - 1 || *last ? ", " :
		                       " or ", names[i]);
	}
	strcpy(list + len, last);
	return list;
}

static int find_name(const char *val, const char *const *names, int n)
{
	int i;

	for (i = 0; i < n && strcmp(val, names[i]) != 0; i++)
		;
	return i < n ? i : -1;
}

int opt_choice(const char *name, const char *val, const char *const *names, int n)
{
	int i = find_name(val, names, n);

	if (i < 0)
		die_usage("--%s is %s, not '%s'", name, name_list(names, n, ""), val);
	return i;
}

int opt_stat(const char *name, const char *val, const char *const *names, int n, double *p)
{
	int i = find_name(val, names, n);

	if (i >= 0)
		return i;
	if (opt_quantile(name, val, p))
		return n;
	die_usage("--%s is %s, not '%s'", name,
	          name_list(names, n, ", p90, p99 or qQ (a quantile such as q0.95)"), val);
}

uint64_t opt_seed(const char *name, const char *val)
{
	int64_t v;

	/* Seeds stay below 2^53 so every tool reads them back exactly. */
	if (num_parse_i64(val, &v) < 0 || v < 0 || v > (INT64_C(1) << 53))
		die_usage("--%s wants a whole number from 0 to 2^53, not '%s'",
		          name, val);
	return (uint64_t)v;
}

int opt_quantile(const char *name, const char *val, double *p)
{
	if (strcmp(val, "p90") == 0 || strcmp(val, "p99") == 0) {
		*p = val[2] == '0' ? 0.9 : 0.99;
		return 1;
	}
	if (val[0] != 'q')
		return 0;
	if (num_parse(val + 1, p) < 0 || !(*p >= 0 && *p <= 1) || val[1] == '-' || val[1] == '+')
		die_usage("--%s %s: a quantile is q and a number from 0 to 1, such as q0.95", name,
		          val);
	return 1;
}
