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

/* What every tool answers: -h, --help and --version in getopt_long's
 * table, --list-options outside it (spelled out in full only, so that it
 * makes no abbreviation of another option ambiguous). */
static const struct pb_opt standard[] = {
	{ "help", 'h', 0, NULL, NULL, NULL, NULL, 0 },
	{ "version", 'V', 0, NULL, NULL, NULL, NULL, 0 },
	{ "list-options", 0, 0, NULL, NULL, "", NULL, 0 },
	{ NULL, 0, 0, NULL, NULL, NULL, NULL, 0 },
};
enum { NSTANDARD_GETOPT = 2, LONG_VAL = 256 };
#define HELP_COLUMNS 80

/* getopt_long's table and short options for cmd, made once (kept to
 * exit): the long option of index i returns LONG_VAL + i, cmd's options
 * first, then help and version. */
static const struct pb_cmd *made_for;
static struct option *longopts;
static char *shortopts;
static size_t nopts;

static const struct pb_opt *entry(const struct pb_cmd *cmd, size_t i)
{
	return i < nopts ? &cmd->opts[i] : &standard[i - nopts];
}

static void make_getopt(const struct pb_cmd *cmd)
{
	size_t i, k = 0, cap = 0, scap = 0;
	const struct pb_opt *o;

	for (nopts = 0; cmd->opts[nopts].name; nopts++)
		;
	xgrow(&longopts, &cap, nopts + NSTANDARD_GETOPT + 1, sizeof *longopts);
	xgrow(&shortopts, &scap, 2 * nopts + 4, 1);
	if (cmd->in_order)
		shortopts[k++] = '+';   /* before getopt's ':' */
	shortopts[k++] = ':';
	shortopts[k++] = 'h';
	for (i = 0; i < nopts + NSTANDARD_GETOPT; i++) {
		o = entry(cmd, i);
		longopts[i].name = o->name;
		longopts[i].has_arg = o->arg ? required_argument : no_argument;
		longopts[i].flag = NULL;
		longopts[i].val = LONG_VAL + (int)i;
		if (o->letter) {
			shortopts[k++] = o->letter;
			if (o->arg)
				shortopts[k++] = ':';
		}
	}
	memset(&longopts[i], 0, sizeof longopts[i]);
	shortopts[k] = '\0';
	made_for = cmd;
}

/* --help's names of o: "-r, --runs R". */
static int put_names(const struct pb_opt *o)
{
	int n = 0;

	if (o->letter)
		n += printf("-%c, ", o->letter);
	n += printf("--%s", o->name);
	if (o->arg)
		n += printf(" %s", o->arg);
	return n;
}

static int names_len(const struct pb_opt *o)
{
	return (o->letter ? 4 : 0) + 2 + (int)strlen(o->name) + (o->arg ? 1 + (int)strlen(o->arg) : 0);
}

/* One line (or more) of --help: the names of the options from o up to the
 * one with help, comma-separated, then that help from the column width
 * (two spaces after the names when they reach it, or on the next line
 * when its first line would not fit there). Returns that last option. */
static const struct pb_opt *put_option(const struct pb_opt *o, int width)
{
	int col = 2;
	size_t first;
	const char *h;

	fputs("  ", stdout);
	for (;; o++) {
		if (o->flags & (PB_OPT_NOHELP | PB_OPT_NOLIST))
			continue;
		if (!o->name)   /* a table that ends in a name without help */
			die("--help: the option table ends without help for --%s", o[-1].name);
		if (col > 2 && col + 2 + names_len(o) > HELP_COLUMNS - 1) {
			fputs(",\n  ", stdout);
			col = 2;
		} else if (col > 2) {
			fputs(", ", stdout);
			col += 2;
		}
		col += put_names(o);
		if (o->help)
			break;
	}
	h = o->help;
	first = strcspn(h, "\n");
	if (*h && col < width)
		printf("%*s", width - col, "");
	else if (*h && col + 2 + (int)first <= HELP_COLUMNS)
		fputs("  ", stdout);
	else if (*h)
		printf("\n%*s", width, "");
	for (; *h; h += first + (h[first] == '\n'), first = strcspn(h, "\n")) {
		if (h != o->help)
			printf("\n%*s", width, "");
		fwrite(h, 1, first, stdout);
	}
	putchar('\n');
	return o;
}

static noreturn void put_help(const struct pb_cmd *cmd)
{
	const struct pb_opt *o;

	fputs(cmd->head, stdout);
	for (o = cmd->opts; o->name; o++)
		if (!(o->flags & (PB_OPT_NOHELP | PB_OPT_NOLIST)))
			o = put_option(o, cmd->width);
	put_option(standard, cmd->width);
	if (cmd->tail)
		fputs(cmd->tail, stdout);
	flush_stdout_or_die();
	exit(0);
}

static void put_list_line(const struct pb_opt *o)
{
	printf("--%s", o->name);
	if (o->arg) {
		size_t n = strspn(o->arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");

		printf("=%.*s", n ? (int)n : 5, n ? o->arg : "VALUE");
	}
	if (o->letter)
		printf(" -%c", o->letter);
	if (o->choices)
		printf(" %s", o->choices);
	putchar('\n');
}

static noreturn void put_list(const struct pb_cmd *cmd)
{
	const struct pb_opt *o;

	for (o = cmd->opts; o->name; o++)
		if (!(o->flags & PB_OPT_NOLIST))
			put_list_line(o);
	for (o = standard; o->name; o++)
		put_list_line(o);
	flush_stdout_or_die();
	exit(0);
}

int pb_getopt(int argc, char **argv, const struct pb_cmd *cmd)
{
	const struct pb_opt *o = NULL;
	int c;

	if (made_for != cmd)
		make_getopt(cmd);
	opterr = 0;
	c = getopt_long(argc, argv, shortopts, longopts, NULL);
	if (c >= LONG_VAL)
		o = entry(cmd, (size_t)(c - LONG_VAL));
	else if (c == 'h')
		o = &standard[0];
	else if (c != -1 && c != ':' && c != '?')
		for (o = cmd->opts; o->name && o->letter != c; o++)
			;
	if (o == &standard[0])
		put_help(cmd);
	if (o == &standard[1])
		pb_version();
	if (c == ':')
		die_usage("option '%s' needs a value", argv[optind - 1]);
	if (c == '?' && strcmp(argv[optind - 1], "--list-options") == 0)
		put_list(cmd);
	if (c == '?')
		bad_option(argv[optind - 1], longopts);
	return o && o->name ? o->key : c;
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

/* The '%' is optional so that "2%" and "2" both read as people write
 * them; the number before it is read as any other (pb(7), NUMBERS). */
double opt_pct(const char *name, const char *val)
{
	size_t n = strlen(val) - (*val && val[strlen(val) - 1] == '%');
	char *num = xmalloc(n + 1);
	double v;
	int bad;

	memcpy(num, val, n);
	num[n] = '\0';
	/* a share 1 + v/100 must differ from 1, or no interval can be inside */
	bad = num_parse(num, &v) < 0 || !(v > 0 && v < 100) || 1 + v / 100 == 1;
	free(num);
	if (bad)
		die_usage("--%s is a percentage above 0 and below 100, such as 2 for 2 %%, "
		          "not '%s'", name, val);
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
