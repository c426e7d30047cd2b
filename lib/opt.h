/* opt: command-line handling shared by every tool. pb_getopt wraps
 * getopt_long: --help prints the usage and exits 0, --version prints the
 * version, and an unknown option or a missing value is a usage error
 * (one line, exit 2). Options come before operands (musl's getopt stops at
 * the first operand). The opt_* parsers turn a value or exit 2 naming it. */
#ifndef PB_OPT_H
#define PB_OPT_H

#include <getopt.h>
#include <stdint.h>

/* longopts must hold { "help", .., 'h' } and { "version", .., 'V' };
 * shortopts are the tool's own short options in getopt form ("o:"); a
 * leading '+' stops at the first operand with glibc too. */
int pb_getopt(int argc, char **argv, const char *shortopts,
              const struct option *longopts, const char *usage);
long opt_count(const char *name, const char *val, long max);   /* >= 1 */
long opt_nonneg(const char *name, const char *val, long max);  /* >= 0 */
int64_t opt_dur(const char *name, const char *val);
double opt_num(const char *name, const char *val);
double opt_level(const char *name, const char *val);           /* (0,1) */
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
