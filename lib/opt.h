/* opt: command-line handling shared by every tool. Each tool has one
 * table of its options (struct pb_opt), from which pb_getopt makes
 * getopt_long's table and short options, --help its option lines and
 * --list-options its list (what the bash completion reads): --help prints
 * the usage and exits 0, --version prints the version, --list-options the
 * long options, and an unknown option or a missing value is a usage error
 * (one line, exit 2). Options come before operands (musl's getopt stops at
 * the first operand). The opt_* parsers turn a value or exit 2 naming it. */
#ifndef PB_OPT_H
#define PB_OPT_H

#include <getopt.h>
#include <stdint.h>

/* One option. In --help, an option with help NULL is named on the line of
 * the next one, before it ("--level L, --seq-g G  their help"). */
struct pb_opt {
	const char *name;      /* the long name, without "--"; NULL ends a table */
	int key;               /* what pb_getopt returns for it, long or short */
	char letter;           /* its short form (-r), or 0 */
	const char *arg;       /* its value as --help names it ("R", "FILE|inherit");
	                        * NULL: it takes none */
	const char *choices;   /* the values it takes, space-separated, when they are
	                        * a fixed set (for completion); or NULL */
	const char *help;      /* --help's text, '\n' between its lines */
	/* A usage error for a bad value, as the tool that owns the option
	 * gives it (pb-compare checks pb-run's so before anything runs); or
	 * NULL. */
	void (*check)(const char *name, const char *val);
	int flags;             /* PB_OPT_* */
};
enum {
	PB_OPT_NOHELP = 1,     /* not in --help (listed by --list-options) */
	PB_OPT_NOLIST = 2,     /* in neither: read only to be refused by name */
};

/* A tool's command line: --help is head, the option lines of opts (each
 * option's help from the column width on), a line for --help, --version
 * and --list-options, then tail. */
struct pb_cmd {
	const char *head;      /* the usage lines and what the tool does */
	const struct pb_opt *opts;
	int width;
	const char *tail;      /* after the options, or NULL */
	int in_order;          /* stop at the first operand, with glibc too */
};

/* The key of the next option (optarg its value), or -1 after the last.
 * -h and --help, --version and --list-options (spelled out in full: it
 * shortens no other option) are answered here, and exit 0. --list-options
 * prints a line for each long option but the PB_OPT_NOLIST ones, then
 * --help, --version and --list-options: "--NAME", "=KIND" when it takes a
 * value (KIND the capitals its arg starts with: FILE, DIR, CMD, N ...),
 * " -x" when it has a short form, then its choices, as in
 * "--order=O random alternate blocked". */
int pb_getopt(int argc, char **argv, const struct pb_cmd *cmd);
long opt_count(const char *name, const char *val, long max);   /* >= 1 */
long opt_nonneg(const char *name, const char *val, long max);  /* >= 0 */
int64_t opt_dur(const char *name, const char *val);
double opt_num(const char *name, const char *val);
double opt_level(const char *name, const char *val);           /* (0,1) */
/* A percentage: "2", "2%" or "0.5%", above 0 and below 100 (the number
 * of percent, 2 for 2 %). */
double opt_pct(const char *name, const char *val);
uint64_t opt_seed(const char *name, const char *val);
/* A quantile by name: p90, p99, or qQ with Q from 0 to 1 (q0.95), R's
 * type 7. 1 with *p set; 0 when val names no quantile; a q that is not
 * followed by such a number is a usage error. */
int opt_quantile(const char *name, const char *val, double *p);
/* A statistic: the index of val among the n names, or n for a quantile
 * (opt_quantile, *p set); otherwise a usage error listing them all. */
int opt_stat(const char *name, const char *val, const char *const *names, int n, double *p);
/* The index of val among the n names, or a usage error that lists them:
 * "--order is random, alternate or blocked, not 'x'". */
int opt_choice(const char *name, const char *val, const char *const *names, int n);

#endif
