/* pb-compare: what a person reads (the summary, report.md, the markdown
 * table) and what a script reads (JSON, CSV), from a study read back; and
 * the analysis steps with the Makefile that redoes them. Numbers for a
 * person have 4 significant digits (lib/human); numbers for a script are
 * every digit (lib/num). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "human.h"
#include "num.h"
#include "pb-compare.h"

#ifndef PB_VERSION
#define PB_VERSION "0.0.0"
#endif

/* --- words ------------------------------------------------------------ */

static int ci_bounded(int have, double lo, double hi)
{
	return have && !isnan(lo) && !isnan(hi);
}

static int bounded(const struct cmp_result *c)
{
	return ci_bounded(c->have, c->lo, c->hi);
}

/* The verdict of an interval of a ratio A/X: above where it lies above 1
 * (X is the smaller), below where it lies below. */
static const char *ci_words(int have, double lo, double hi, const char *above,
                            const char *below)
{
	if (!have)
		return "no interval";
	if (!ci_bounded(have, lo, hi))
		return "unbounded";
	if (lo > 1)
		return above;
	if (hi < 1)
		return below;
	return "no difference resolved";
}

const char *cmp_words(const struct cmp_result *c)
{
	return ci_words(c->have, c->lo, c->hi, "faster", "slower");
}

/* CPU time or peak memory: the candidate uses "less" or "more". */
static const char *use_words(const struct ratio_ci *u)
{
	return ci_words(u->have, u->lo, u->hi, "less", "more");
}

int cmp_slower_than(const struct cmp_result *c, double ratio)
{
	return bounded(c) && c->hi < 1 / ratio;
}

static const char *interval_name(const struct study_result *s)
{
	return s->sequence ? "CS" : "CI";
}

/* "1.021 to 1.039", or "unbounded" */
static const char *ci_text(char *buf, size_t n, int have, double lo, double hi)
{
	char l[SIG_BUFSZ], h[SIG_BUFSZ];

	if (!ci_bounded(have, lo, hi))
		snprintf(buf, n, "unbounded");
	else
		snprintf(buf, n, "%s to %s", h4(l, lo), h4(h, hi));
	return buf;
}

static const char *interval_text(char *buf, size_t n, const struct cmp_result *c)
{
	return ci_text(buf, n, c->have, c->lo, c->hi);
}

static const char *ns_text(char buf[SIG_BUFSZ], double ns)
{
	return isnan(ns) ? strcpy(buf, "?") : h4ns(buf, ns);
}

/* "B takes 2.925% less time" from the ratio A/B */
static void change_words(char *buf, size_t n, const struct cmp_result *c)
{
	char p[SIG_BUFSZ];
	double rel = 1 / c->ratio;

	if (isnan(c->ratio))
		snprintf(buf, n, "no ratio");
	else if (rel <= 1)
		snprintf(buf, n, "%c takes %s%% less time", c->cand, h4(p, 100 * (1 - rel)));
	else
		snprintf(buf, n, "%c takes %s%% more time", c->cand, h4(p, 100 * (rel - 1)));
}

/* --- colour ----------------------------------------------------------- */

enum { C_BOLD = 1, C_DIM = 2, C_RED = 31, C_GREEN = 32, C_YELLOW = 33, C_CYAN = 36 };

static void paint(FILE *f, const struct style *st, int code, const char *fmt, ...)
{
	va_list ap;

	if (st->color)
		fprintf(f, "\033[%dm", code);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	if (st->color)
		fputs("\033[0m", f);
}

static int verdict_color(const struct cmp_result *c)
{
	const char *w = cmp_words(c);

	return strcmp(w, "faster") == 0 ? C_GREEN : strcmp(w, "slower") == 0 ? C_RED : C_YELLOW;
}

/* --- the summary ------------------------------------------------------ */

/* Text read from the study (a command, a warning, why it stopped): its
 * control bytes as \xNN, so that none reaches a terminal as an escape. */
static void put_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

static void paint_text(FILE *f, const struct style *st, int code, const char *s)
{
	if (st->color)
		fprintf(f, "\033[%dm", code);
	put_text(f, s);
	if (st->color)
		fputs("\033[0m", f);
}

/* A value of what else was measured, in its unit. */
static const char *use_text(char buf[SIG_BUFSZ], int k, double x)
{
	if (isnan(x))
		return strcpy(buf, "?");
	return k == USE_MEMORY ? sig4_kib(buf, x) : sig4_ns(buf, x);
}

static void summary_arm(FILE *f, const struct arm_result *a, const struct style *st)
{
	char m[SIG_BUFSZ], q1[SIG_BUFSZ], q3[SIG_BUFSZ], lo[SIG_BUFSZ], hi[SIG_BUFSZ];

	paint(f, st, C_BOLD, "%c", a->letter);
	fprintf(f, "  ");
	paint_text(f, st, C_CYAN, a->what);
	fprintf(f, "\n");
	if (isnan(a->median)) {
		fprintf(f, "   no measured pair\n");
		return;
	}
	fprintf(f, "   median ");
	paint(f, st, C_BOLD, "%s", h4ns(m, a->median));
	fprintf(f, "  IQR %s to %s", h4ns(q1, a->q1), h4ns(q3, a->q3));
	if (!isnan(a->run_lo))
		fprintf(f, "  per-run %s to %s", h4ns(lo, a->run_lo), h4ns(hi, a->run_hi));
	fprintf(f, "\n");
	if (!isnan(a->use_median[USE_CPU]) || !isnan(a->use_median[USE_MEMORY]))
		fprintf(f, "   CPU time median %s  peak memory median %s\n",
		        h4ns(m, a->use_median[USE_CPU]), use_text(q1, USE_MEMORY,
		                                                  a->use_median[USE_MEMORY]));
}

static void summary_cmp(FILE *f, const struct study_result *s, const struct cmp_result *c,
                        const struct live *l, const struct style *st)
{
	char r[SIG_BUFSZ], lv[SIG_BUFSZ], iv[96], ch[96], t[NUM_BUFSZ];

	fprintf(f, "%c against %c: ", c->cand, c->ref);
	if (!c->have) {
		fprintf(f, "no interval (too few runs were measured)\n");
		return;
	}
	fprintf(f, "%c/%c time ratio ", c->ref, c->cand);
	paint(f, st, C_BOLD, "%s", h4(r, c->ratio));
	change_words(ch, sizeof ch, c);
	/* a direction only where the interval resolves one (pb-tint's rule) */
	fprintf(f, ", %s%% %s %s: ", level_percent(lv, s->level), interval_name(s),
	        interval_text(iv, sizeof iv, c));
	if (!bounded(c)) {
		paint(f, st, C_YELLOW, "too few runs for the sequence to bound it");
		fprintf(f, " (the estimate alone: %s)", ch);
	} else if (strcmp(cmp_words(c), "no difference resolved") == 0) {
		paint(f, st, C_YELLOW, "no difference resolved");
		fprintf(f, " (the interval includes 1; the estimate alone: %s)", ch);
	} else {
		fprintf(f, "%s: ", ch);
		paint(f, st, verdict_color(c), "%c is %s", c->cand, cmp_words(c));
	}
	fprintf(f, "\n");
	if (!isnan(s->threshold) && *c->verdict) {
		num_format(t, s->threshold);
		fprintf(f, "   threshold %s: ", t);
		put_text(f, c->verdict);
		fputc('\n', f);
	}
	if (!isnan(l->fail_if_slower)) {   /* the gate, passed or not, in words */
		num_format(t, l->fail_if_slower);
		fprintf(f, "   ");
		if (cmp_slower_than(c, l->fail_if_slower))
			paint(f, st, C_RED, "slower than --fail-if-slower %s with confidence", t);
		else
			paint(f, st, C_GREEN, "--fail-if-slower %s: passed, %c is not shown to take %s "
			      "times A's time or more", t, c->cand, t);
		fprintf(f, "\n");
	}
}

/* Whether an arm's peak memory is pb-run's own: a spawned process's
 * maxrss starts from pb-run's peak when it execs, which the last
 * maxrss_floor_kib of raw.tsv bounds; what the command itself used is
 * then not measured. */
static int at_floor(const struct study_result *s, const struct arm_result *a)
{
	double m = a->use_median[USE_MEMORY], f = s->maxrss_floor_kib;

	/* within 5 % below it: pb-run grows a little after a spawn; far below
	 * it, the spawn did not start from pb-run's peak (a static musl
	 * pb-run's children did not) and the figure is the arm's own */
	return !isnan(f) && m <= f && m >= 0.95 * f;
}

static const struct arm_result *arm_for(const struct study_result *s, char letter)
{
	int i;

	for (i = 0; i < s->narms; i++)
		if (s->arm[i].letter == letter)
			return &s->arm[i];
	return NULL;
}

/* "B uses 12.30% more" from the ratio A/B of a quantity */
static void use_change_words(char *buf, size_t n, char cand, double ratio)
{
	char p[SIG_BUFSZ];
	double rel = 1 / ratio;

	if (rel <= 1)
		snprintf(buf, n, "%c uses %s%% less", cand, h4(p, 100 * (1 - rel)));
	else
		snprintf(buf, n, "%c uses %s%% more", cand, h4(p, 100 * (rel - 1)));
}

/* "   peak memory: A/B 0.6709, 95% CI 0.6706 to 0.6713: B uses 49.05% more",
 * with a direction only where the interval resolves one, as for the time. */
static void summary_use(FILE *f, const char *lead, const struct study_result *s,
                        const struct cmp_result *c, int k, const struct style *st)
{
	const struct ratio_ci *u = &c->use[k];
	const struct arm_result *ra = arm_for(s, c->ref), *ca = arm_for(s, c->cand);
	char r[SIG_BUFSZ], lv[SIG_BUFSZ], iv[96], ch[96], fl[SIG_BUFSZ];
	const char *w;

	fprintf(f, "%s%s: ", lead, use_kinds[k].name);
	if (!u->have) {
		fprintf(f, "no interval\n");
		return;
	}
	use_change_words(ch, sizeof ch, c->cand, u->ratio);
	fprintf(f, "%c/%c %s, %s%% %s %s: ", c->ref, c->cand, h4(r, u->ratio),
	        level_percent(lv, s->level), interval_name(s), ci_text(iv, sizeof iv, 1, u->lo, u->hi));
	w = use_words(u);
	if (strcmp(w, "unbounded") == 0)
		fprintf(f, "too few runs to bound it (the estimate alone: %s)", ch);
	else if (strcmp(w, "no difference resolved") == 0)
		paint(f, st, C_YELLOW, "no difference resolved");
	else
		fputs(ch, f);
	if (k == USE_MEMORY && ra && ca && (at_floor(s, ra) || at_floor(s, ca))) {
		const struct arm_result *low = at_floor(s, ra) ? ra : ca;

		sig4_kib(fl, low->use_median[USE_MEMORY]);
		if (at_floor(s, ra) && at_floor(s, ca))
			fprintf(f, " (both at pb-run's own peak: each uses at most that, and what is "
			        "below it is not measured)");
		else
			fprintf(f, " (%c's %s is pb-run's own peak: %c uses at most that, so the "
			        "ratio may understate the difference)", low->letter, fl, low->letter);
	}
	fputc('\n', f);
}

static void summary_design(FILE *f, const struct study_result *s, const struct live *l)
{
	char w[SIG_BUFSZ], b[SIG_BUFSZ];

	fprintf(f, "%ld run%s x %ld pairs (warm-up %ld)", s->runs, s->runs == 1 ? "" : "s",
	        s->pairs, s->warmup);
	if (!isnan(l->wall_ns))
		fprintf(f, " in %s", h4ns(w, l->wall_ns));
	if (!isnan(l->budget_ns))
		fprintf(f, " of a %s budget", h4ns(b, l->budget_ns));
	if (s->stop) {
		fprintf(f, "; ");
		put_text(f, s->stop);
	}
	fprintf(f, "\n");
}

static double median_of_reference(const struct study_result *s)
{
	int i;

	for (i = 0; i < s->narms; i++)
		if (s->ncmp && s->arm[i].letter == s->cmp[0].ref)
			return s->arm[i].median;
	return NAN;
}

static void summary_sense(FILE *f, const struct study_result *s)
{
	char d[SIG_BUFSZ], p[SIG_BUFSZ], m[SIG_BUFSZ];
	double med = median_of_reference(s);

	if (!s->have_sense)
		return;
	if (isnan(s->resolves_ns))
		fprintf(f, "calibration: this harness resolved none of the delays tried here "
		        "(up to %s)\n", ns_text(d, s->sense_max_ns));
	else
		fprintf(f, "calibration: this harness resolves %s%% here (%s of %s; sense.tsv)\n",
		        h4(p, 100 * s->resolves_ns / med), h4ns(d, s->resolves_ns),
		        ns_text(m, med));
}

void write_summary(FILE *f, const struct study_result *s, const struct live *l,
                   const struct style *st)
{
	int i;
	size_t j;

	if (l->value) {
		paint_text(f, st, C_BOLD, l->value);
		fputc('\n', f);
	}
	if (s->interrupted || s->failed) {
		paint(f, st, C_YELLOW, "partial: %s", s->interrupted ? "interrupted by " : "failed: ");
		put_text(f, s->interrupted ? s->interrupted : s->failed);
		fprintf(f, "; what was measured is analysed\n");
	}
	for (i = 0; i < s->narms; i++)
		summary_arm(f, &s->arm[i], st);
	fprintf(f, "\n");
	for (i = 0; i < s->ncmp; i++) {
		int k;

		summary_cmp(f, s, &s->cmp[i], l, st);
		for (k = 0; s->have_use && k < NUSE; k++)
			summary_use(f, "   ", s, &s->cmp[i], k, st);
	}
	fprintf(f, "\n");
	summary_design(f, s, l);
	summary_sense(f, s);
	for (j = 0; j < s->nwarn; j++) {
		paint(f, st, C_YELLOW, "warning:");
		fputc(' ', f);
		put_text(f, s->warnings[j]);
		fputc('\n', f);
	}
	for (i = 0; i < s->ncmp; i++)
		if (s->cmp[i].finding) {
			paint(f, st, C_DIM, "finding:");
			fputc(' ', f);
			put_text(f, s->cmp[i].finding);
			fputc('\n', f);
		}
}

/* --- markdown --------------------------------------------------------- */

/* A command as a code span in a table cell: backticks enough to hold
 * its own, '|' escaped (GitHub's tables split at any '|'). */
static void md_code(FILE *f, const char *s)
{
	size_t run = 0, most = 0, i;
	const char *p;

	for (p = s; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > most)
			most = run;
	}
	for (i = 0; i <= most; i++)
		fputc('`', f);
	fputs(*s == '`' ? " " : "", f);
	for (p = s; *p; p++) {
		if (*p == '|')
			fputs("\\|", f);
		else
			fputc((unsigned char)*p < 0x20 ? ' ' : *p, f);
	}
	fputs(p > s && p[-1] == '`' ? " " : "", f);
	for (i = 0; i <= most; i++)
		fputc('`', f);
}

/* Plain text in markdown: the characters that would start markup
 * escaped. */
static void md_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\`*_[]<>|#", *s))
			fputc('\\', f);
		fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
	}
}

static const struct cmp_result *cmp_for(const struct study_result *s, char arm)
{
	int i;

	for (i = 0; i < s->ncmp; i++)
		if (s->cmp[i].cand == arm)
			return &s->cmp[i];
	return NULL;
}

/* " 9.492 ms (A/B 0.4723, 0.3414 to 0.6534) |": each arm's median CPU
 * time and peak memory, a candidate's ratio to the reference beside. */
static void md_use(FILE *f, const struct study_result *s, const struct arm_result *a,
                   const struct cmp_result *c)
{
	char m[SIG_BUFSZ], r[SIG_BUFSZ], iv[96];
	int k;

	for (k = 0; k < NUSE; k++) {
		fprintf(f, " %s", use_text(m, k, a->use_median[k]));
		if (k == USE_MEMORY && at_floor(s, a))
			fputs(" (pb-run's own peak)", f);
		if (c && c->use[k].have)
			fprintf(f, " (%c/%c %s, %s)", c->ref, c->cand, h4(r, c->use[k].ratio),
			        ci_text(iv, sizeof iv, 1, c->use[k].lo, c->use[k].hi));
		fputs(" |", f);
	}
}

/* use: the table has the columns of CPU time and peak memory ("?" in
 * them for a study that did not measure them). */
static void md_row(FILE *f, const struct study_result *s, const struct arm_result *a,
                   const char *value, int use)
{
	const struct cmp_result *c = cmp_for(s, a->letter);
	char m[SIG_BUFSZ], q1[SIG_BUFSZ], q3[SIG_BUFSZ], r[SIG_BUFSZ], iv[96];

	fputs("| ", f);
	if (value) {
		md_code(f, value);
		fputs(" | ", f);
	}
	md_code(f, a->what);
	fprintf(f, " (%c) | %s | %s to %s | ", a->letter, ns_text(m, a->median), ns_text(q1, a->q1),
	        ns_text(q3, a->q3));
	if (!c)
		fputs("1 | | reference |", f);
	else if (!c->have)
		fputs("| | no interval |", f);
	else
		fprintf(f, "%s | %s | %s |", h4(r, c->ratio), interval_text(iv, sizeof iv, c),
		        cmp_words(c));
	if (use)
		md_use(f, s, a, c);
	fputc('\n', f);
}

static void md_head(FILE *f, const struct study_result *s, const char *param)
{
	char lv[SIG_BUFSZ];

	fputs("| ", f);
	if (param) {
		md_text(f, param);
		fputs(" | ", f);
	}
	fprintf(f, "Command | Median | IQR | %c/X time ratio | %s%% %s | Verdict |%s\n",
	        s->ncmp ? s->cmp[0].ref : 'A', level_percent(lv, s->level), interval_name(s),
	        s->have_use ? " CPU time | Peak memory |" : "");
	fprintf(f, "|%s:---|---:|---:|---:|:---|:---|%s\n", param ? ":---|" : "",
	        s->have_use ? "---:|---:|" : "");
}

void write_markdown_table(FILE *f, const struct study_result *const *s,
                          const struct live *const *l, size_t n, const char *param)
{
	size_t i;
	int k;

	if (n == 0)
		return;
	md_head(f, s[0], param);
	for (i = 0; i < n; i++)
		for (k = 0; k < s[i]->narms; k++)
			md_row(f, s[i], &s[i]->arm[k], param ? l[i]->value : NULL, s[0]->have_use);
}

static void report_design(FILE *f, const struct study_result *s)
{
	char lv[SIG_BUFSZ], a[SIG_BUFSZ], b[SIG_BUFSZ], c[SIG_BUFSZ];

	fprintf(f, "## How it was measured\n\n");
	fprintf(f, "- %ld run%s of %ld pairs each after %ld warm-up pair%s, the arms in %s order "
	        "in each pair (seed %s)", s->runs, s->runs == 1 ? "" : "s", s->pairs, s->warmup,
	        s->warmup == 1 ? "" : "s",
	        s->order ? s->order : "?", s->seed ? s->seed : "?");
	if (s->stop) {
		fputs("; ", f);
		md_text(f, s->stop);
	}
	if (s->interrupted) {
		fputs("; interrupted: ", f);
		md_text(f, s->interrupted);
	}
	fputs(".\n", f);
	fprintf(f, "- Each run is reduced to the %s of each arm; the interval is pb-tint's %s%% %s "
	        "over the runs%s.\n", s->stat, level_percent(lv, s->level),
	        s->sequence ? "confidence sequence" : "t interval",
	        s->sequence ? " (anytime-valid: it holds at whatever run the study stopped)" : "");
	if (s->have_pilot) {
		fprintf(f, "- A pilot of %ld runs x %ld pairs (pilot.tsv; reported, not pooled)",
		        s->pilot_runs, s->pilot_pairs);
		if (!isnan(s->pair_cost))
			fprintf(f, ": a pair took %s, a run %s besides its pairs; spread between runs "
			        "%s%%, within %s%% (sd of ln(a/b), pb-plan, plan.tsv)",
			        h4ns(a, s->pair_cost), ns_text(b, s->run_cost),
			        h4(lv, 100 * s->sd_between), h4(c, 100 * s->sd_within));
		if (s->kj_pairs)
			fprintf(f, "; Kalibera and Jones's best pairs per run: %ld", s->kj_pairs);
		fputs(".\n", f);
	}
	fputs("- Machine: ", f);
	md_text(f, s->host ? s->host : "?");
	fputs(" (", f);
	md_text(f, s->cpu ? s->cpu : "?");
	fputs("), ", f);
	md_text(f, s->kernel ? s->kernel : "?");
	fprintf(f, "; started %s.\n", s->start ? s->start : "?");
	if (s->have_sense) {
		fputs("- ", f);
		summary_sense(f, s);
	}
	fputs("\n", f);
}

/* The summary's lines of CPU time and peak memory, as a list. */
static void report_use(FILE *f, const struct study_result *s)
{
	const struct style plain = { 0 };
	int i, k;

	if (!s->have_use)
		return;
	fputs("## CPU time and peak memory\n\n", f);
	for (i = 0; i < s->ncmp; i++)
		for (k = 0; k < NUSE; k++) {
			char lead[32];

			snprintf(lead, sizeof lead, "- %c against %c, ", s->cmp[i].cand, s->cmp[i].ref);
			summary_use(f, lead, s, &s->cmp[i], k, &plain);
		}
	fputs("\nBoth are pb-run's, of each observation's process (`# rusage:` in raw.tsv "
	      "says what they count), analysed as the time is.\n\n", f);
}

void write_report(FILE *f, const struct study_result *s)
{
	const struct study_result *one[1] = { s };
	const struct live none = { NULL, NAN, NAN, NAN, 0, NULL, NULL };
	const struct live *l[1] = { &none };
	size_t j;
	int i;

	fprintf(f, "# pb-compare:");
	for (i = 0; i < s->ncmp; i++)
		fprintf(f, "%s %c against %c", i ? "," : "", s->cmp[i].cand, s->cmp[i].ref);
	fputs("\n\n", f);
	if (s->interrupted || s->failed) {
		fputs("**Partial:** ", f);
		md_text(f, s->interrupted ? s->interrupted : s->failed);
		fputs("; what was measured is analysed.\n\n", f);
	}
	for (i = 0; i < s->ncmp; i++)
		if (s->cmp[i].finding) {
			md_text(f, s->cmp[i].finding);
			fputs("\n\n", f);
		}
	write_markdown_table(f, one, l, 1, NULL);
	fputs("\n", f);
	if (s->pictures)
		fputs("![per-run intervals](runs.svg)\n![the paired differences in the order measured]"
		      "(trend.svg)\n![the distribution of the paired differences](pairs.svg)\n\n", f);
	report_use(f, s);
	report_design(f, s);
	fputs("## What pb-check says\n\n", f);
	if (!s->checks)
		fputs("pb-check gave no rows (check.tsv is missing).\n", f);
	else if (!s->nwarn)
		fprintf(f, "No warning from the %ld checks of check.tsv.\n", s->checks);
	for (j = 0; j < s->nwarn; j++) {
		fputs("- ", f);
		md_text(f, s->warnings[j]);
		fputs("\n", f);
	}
	fputs("\n## Files\n\nraw.tsv (pb-run), pairs.tsv (pb-pair), runs.tsv (pb-pair --by-run | "
	      "pb-logratio), tint.tsv (pb-tint), check.tsv (pb-check), pilot.tsv and plan.tsv "
	      "(the pilot and pb-plan)", f);
	fputs(s->have_sense ? ", sense.tsv (pb-sense)" : "", f);
	fputs(s->have_use ? ", runs-cpu.tsv and tint-cpu.tsv, runs-memory.tsv and tint-memory.tsv "
	      "(CPU time and peak memory: the steps of runs.tsv and tint.tsv with pb-logratio --a "
	      "a_cpu --b b_cpu --name lr_cpu and --a a_maxrss --b b_maxrss --name lr_memory)" : "",
	      f);
	fputs(". `make` in this directory redoes the analysis from raw.tsv.\n", f);
}

/* --- CSV -------------------------------------------------------------- */

static void csv_field(FILE *f, const char *s, int last)
{
	if (strpbrk(s, ",\"\r\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else
		fputs(s, f);
	fputc(last ? '\n' : ',', f);
}

/* x as the shortest number that reads back, or none when it is not
 * finite: what the CSV (an empty field) and JSON (null) exports share. */
static void put_num(FILE *f, double x, const char *none, const char *after)
{
	char b[NUM_BUFSZ];

	if (isfinite(x)) {
		num_format(b, x);
		fputs(b, f);
	} else
		fputs(none, f);
	fputs(after, f);
}

static void csv_num(FILE *f, double x)
{
	put_num(f, x, "", ",");
}

/* The medians of CPU time and peak memory, then each ratio and its
 * interval (empty where not measured; the reference's ratio is 1). */
static void csv_use(FILE *f, const struct study_result *s, const struct arm_result *a,
                    const struct cmp_result *c)
{
	int k;

	for (k = 0; k < NUSE; k++)
		csv_num(f, a->use_median[k]);
	for (k = 0; k < NUSE; k++) {
		const struct ratio_ci *u = c ? &c->use[k] : NULL;
		int have = u ? u->have : !isnan(a->use_median[k]);

		csv_num(f, !have ? NAN : u ? u->ratio : 1);
		csv_num(f, u && have ? u->lo : NAN);
		csv_num(f, u && have ? u->hi : NAN);
	}
	/* 1: the arm's peak memory is pb-run's own, what it uses not measured */
	csv_field(f, isnan(a->use_median[USE_MEMORY]) ? "" : at_floor(s, a) ? "1" : "0", 1);
}

void write_csv(FILE *f, const struct study_result *const *s, const struct live *const *l,
               size_t n, const char *param)
{
	size_t i;
	int k;

	if (param) {
		fputs("parameter_", f);
		csv_field(f, param, 0);
	}
	fputs("arm,command,median_ns,q1_ns,q3_ns,ratio,ratio_lo,ratio_hi,reduction,verdict,"
	      "cpu_median_ns,memory_median_kib,cpu_ratio,cpu_ratio_lo,cpu_ratio_hi,"
	      "memory_ratio,memory_ratio_lo,memory_ratio_hi,memory_at_floor\n", f);
	for (i = 0; i < n; i++)
		for (k = 0; k < s[i]->narms; k++) {
			const struct arm_result *a = &s[i]->arm[k];
			const struct cmp_result *c = cmp_for(s[i], a->letter);
			char arm[2] = { a->letter, '\0' };

			if (param)
				csv_field(f, l[i]->value, 0);
			csv_field(f, arm, 0);
			csv_field(f, a->what, 0);
			csv_num(f, a->median);
			csv_num(f, a->q1);
			csv_num(f, a->q3);
			csv_num(f, c ? c->ratio : 1);
			csv_num(f, c ? c->lo : NAN);
			csv_num(f, c ? c->hi : NAN);
			csv_num(f, c ? c->reduction : NAN);
			csv_field(f, c ? cmp_words(c) : "reference", 0);
			csv_use(f, s[i], a, c);
		}
}

/* --- JSON ------------------------------------------------------------- */

/* The length of the UTF-8 sequence at p, or 0 when it is not one. */
static size_t utf8_len(const unsigned char *p)
{
	size_t n, i;
	unsigned cp;

	if (p[0] < 0x80)
		return 1;
	n = p[0] >= 0xf0 && p[0] < 0xf5 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 && p[0] < 0xe0 ? 2 : 0;
	if (n == 0 || (n == 3 && p[0] >= 0xf0))
		return 0;
	cp = p[0] & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000))) || (n == 4 && (cp < 0x10000 ||
	    cp > 0x10ffff)))
		return 0;
	return n;
}

/* A JSON string: quotes, backslashes and control characters escaped,
 * bytes that are not UTF-8 as U+FFFD. */
static void json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	while (*p) {
		size_t n = utf8_len(p);

		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\u%04x", *p);
		else if (n == 0)
			fputs("\\ufffd", f);
		else
			fwrite(p, 1, n, f);
		p += n ? n : 1;
	}
	fputc('"', f);
}

static void json_num(FILE *f, double x)
{
	put_num(f, x, "null", "");
}

/* "key": value pairs, with the commas and indentation of one object */
struct json {
	FILE *f;
	int depth, first;
};

static void json_key(struct json *j, const char *key)
{
	fprintf(j->f, "%s\n%*s", j->first ? "" : ",", 2 * j->depth, "");
	j->first = 0;
	if (key)
		fprintf(j->f, "\"%s\": ", key);
}

static void json_open(struct json *j, const char *key, int brace)
{
	json_key(j, key);
	fputc(brace, j->f);
	j->depth++;
	j->first = 1;
}

static void json_close(struct json *j, int brace)
{
	j->depth--;
	if (!j->first)
		fprintf(j->f, "\n%*s", 2 * j->depth, "");
	fputc(brace, j->f);
	j->first = 0;
}

static void jnum(struct json *j, const char *key, double x)
{
	json_key(j, key);
	json_num(j->f, x);
}

static void jstr(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_str(j->f, s);
}

static void jbool(struct json *j, const char *key, int b)
{
	json_key(j, key);
	fputs(b ? "true" : "false", j->f);
}

static void json_arms(struct json *j, const struct study_result *s)
{
	int k;

	json_open(j, "arms", '[');
	for (k = 0; k < s->narms; k++) {
		const struct arm_result *a = &s->arm[k];
		char arm[2] = { a->letter, '\0' };

		json_open(j, NULL, '{');
		jstr(j, "arm", arm);
		jstr(j, "command", a->what);
		jnum(j, "median_ns", a->median);
		jnum(j, "q1_ns", a->q1);
		jnum(j, "q3_ns", a->q3);
		jnum(j, "run_min_ns", a->run_lo);
		jnum(j, "run_max_ns", a->run_hi);
		jnum(j, "pairs", (double)a->n);
		jnum(j, "cpu_median_ns", a->use_median[USE_CPU]);
		jnum(j, "memory_median_kib", a->use_median[USE_MEMORY]);
		if (isnan(a->use_median[USE_MEMORY])) {
			json_key(j, "memory_at_floor");
			fputs("null", j->f);
		} else
			jbool(j, "memory_at_floor", at_floor(s, a));
		json_close(j, '}');
	}
	json_close(j, ']');
}

/* "cpu": {...}, "memory": {...}, or null where not measured. */
static void json_use(struct json *j, const struct cmp_result *c)
{
	int k;

	for (k = 0; k < NUSE; k++) {
		const struct ratio_ci *u = &c->use[k];

		if (!u->have) {
			json_key(j, use_kinds[k].key);
			fputs("null", j->f);
			continue;
		}
		json_open(j, use_kinds[k].key, '{');
		jnum(j, "ratio", u->ratio);
		jnum(j, "ratio_lo", u->lo);
		jnum(j, "ratio_hi", u->hi);
		jstr(j, "verdict", use_words(u));
		json_close(j, '}');
	}
}

static void json_cmps(struct json *j, const struct study_result *s, const struct live *l)
{
	int k;

	json_open(j, "comparisons", '[');
	for (k = 0; k < s->ncmp; k++) {
		const struct cmp_result *c = &s->cmp[k];
		char ref[2] = { c->ref, '\0' }, cand[2] = { c->cand, '\0' };

		json_open(j, NULL, '{');
		jstr(j, "reference", ref);
		jstr(j, "candidate", cand);
		jnum(j, "ratio", c->ratio);
		jnum(j, "ratio_lo", c->lo);
		jnum(j, "ratio_hi", c->hi);
		jnum(j, "reduction", c->reduction);
		jnum(j, "level", s->level);
		jstr(j, "interval", s->sequence ? "confidence sequence" : "t interval");
		jstr(j, "verdict", cmp_words(c));
		jnum(j, "threshold", s->threshold);
		jstr(j, "threshold_verdict", *c->verdict ? c->verdict : NULL);
		jbool(j, "slower_than_fail", !isnan(l->fail_if_slower) &&
		                             cmp_slower_than(c, l->fail_if_slower));
		jstr(j, "finding", c->finding);
		json_use(j, c);
		json_close(j, '}');
	}
	json_close(j, ']');
}

static void json_design(struct json *j, const struct study_result *s)
{
	json_open(j, "design", '{');
	jstr(j, "mode", s->mode);
	jnum(j, "runs", (double)s->runs);
	jnum(j, "runs_max", (double)s->runs_max);
	jnum(j, "pairs", (double)s->pairs);
	jnum(j, "warmup", (double)s->warmup);
	jnum(j, "pairs_measured", (double)s->pairs_total);
	jstr(j, "order", s->order);
	jstr(j, "seed", s->seed);
	jstr(j, "until", s->until);
	jstr(j, "statistic", s->stat);
	jstr(j, "stop", s->stop);
	jnum(j, "maxrss_floor_kib", s->maxrss_floor_kib);
	json_close(j, '}');
	if (!s->have_pilot) {
		json_key(j, "pilot");
		fputs("null", j->f);
	} else {
		json_open(j, "pilot", '{');
		jnum(j, "runs", (double)s->pilot_runs);
		jnum(j, "pairs", (double)s->pilot_pairs);
		jnum(j, "warmup", (double)s->pilot_warmup);
		jnum(j, "pair_cost_ns", s->pair_cost);
		jnum(j, "run_cost_ns", s->run_cost);
		jnum(j, "sd_between", s->sd_between);
		jnum(j, "sd_within", s->sd_within);
		jnum(j, "kalibera_jones_pairs", s->kj_pairs ? (double)s->kj_pairs : NAN);
		json_close(j, '}');
	}
}

static void json_study(struct json *j, const struct study_result *s, const struct live *l)
{
	size_t w;
	double med = median_of_reference(s);

	if (l->value)
		jstr(j, "value", l->value);
	jstr(j, "dir", s->dir);
	jbool(j, "partial", s->interrupted || s->failed);
	jstr(j, "interrupted", s->interrupted);
	jstr(j, "failed", s->failed);
	jnum(j, "budget_ns", l->budget_ns);
	jnum(j, "wall_ns", l->wall_ns);
	jstr(j, "plan", l->plan);
	json_design(j, s);
	json_arms(j, s);
	json_cmps(j, s, l);
	json_open(j, "warnings", '[');
	for (w = 0; w < s->nwarn; w++)
		jstr(j, NULL, s->warnings[w]);
	json_close(j, ']');
	if (!s->have_sense) {
		json_key(j, "calibration");
		fputs("null", j->f);
	} else {
		json_open(j, "calibration", '{');
		jnum(j, "resolves_ns", s->resolves_ns);
		jnum(j, "resolves_share", s->resolves_ns / med);
		jnum(j, "largest_delay_ns", s->sense_max_ns);
		json_close(j, '}');
	}
	jstr(j, "host", s->host);
	jstr(j, "cpu", s->cpu);
	jstr(j, "kernel", s->kernel);
	jstr(j, "start", s->start);
}

void write_json(FILE *f, const struct study_result *const *s, const struct live *const *l,
                size_t n, const char *param)
{
	struct json j = { f, 0, 1 };
	size_t i;
	int status = 0;

	for (i = 0; i < n; i++)
		if (l[i]->exit_status > status)
			status = l[i]->exit_status;
	json_open(&j, NULL, '{');
	jnum(&j, "schema", 1);
	jstr(&j, "version", PB_VERSION);
	jnum(&j, "exit_status", status);
	jnum(&j, "fail_if_slower", n ? l[0]->fail_if_slower : NAN);
	if (!param && n == 1)
		json_study(&j, s[0], l[0]);
	else {
		jstr(&j, "parameter", param);
		json_open(&j, "studies", '[');
		for (i = 0; i < n; i++) {
			json_open(&j, NULL, '{');
			json_study(&j, s[i], l[i]);
			json_close(&j, '}');
		}
		json_close(&j, ']');
	}
	json_close(&j, '}');
	fputc('\n', f);
}
