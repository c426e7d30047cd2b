#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "num.h"
#include "opt.h"

/* getopt_long's '?' covers "--name=value" for an option that takes no
 * value, where optopt holds the option's code: name the word as typed. */
static noreturn void bad_option(const char *word, const struct option *longopts)
{
	const char *eq = strchr(word, '=');
	size_t n = eq ? (size_t)(eq - word) : 0;

	if (word[0] == '-' && word[1] == '-' && eq) {
		const struct option *o;

		for (o = longopts; o->name; o++)
			if (strncmp(o->name, word + 2, n - 2) == 0 && o->has_arg == no_argument)
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
		exit(pb_finish());
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

double opt_level(const char *name, const char *val)
{
	double v = opt_num(name, val);

	if (!(v > 0 && v < 1))
		die_usage("--%s wants a level between 0 and 1 (such as 0.95), "
		          "not '%s'", name, val);
	return v;
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
