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
#include "gate.h"
#include "human.h"
#include "interval.h"
#include "num.h"
#include "summary.h"

#ifndef PB_VERSION
#define PB_VERSION "0.0.0"
#endif

/* --- words ------------------------------------------------------------ */

static int bounded(const struct cmp_result *c)
{
	return c->have && !isnan(c->lo) && !isnan(c->hi);
}

static int ci_bounded(int have, double lo, double hi)
{
	return have && !isnan(lo) && !isnan(hi);
}

static const char *interval_name(const struct study *s)
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

static void paint_text(FILE *f, const struct style *st, int code, const char *s)
{
	if (st->color)
		fprintf(f, "\033[%dm", code);
	put_safe_text(f, s);
	if (st->color)
		fputs("\033[0m", f);
}

/* A value of what else was measured, in its unit. */
static const char *use_text(char buf[SIG_BUFSZ], int k, double x)
{
	if (isnan(x))
		return strcpy(buf, "?");
	return k == USE_MEMORY || k == USE_TREE_MEMORY ? sig4_kib(buf, x) : sig4_ns(buf, x);
}

static void summary_arm(FILE *f, const struct study *s, const struct arm_result *a,
                        const struct style *st)
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
		fprintf(f, "   CPU time median %s  peak memory median %s%s\n",
		        h4ns(m, a->use_median[USE_CPU]), use_text(q1, USE_MEMORY,
		                                                  a->use_median[USE_MEMORY]),
		        study_arm_at_floor(s, a) ? " (at pb-run's floor: at most that)" : "");
	if (!isnan(a->use_median[USE_TREE_CPU]) || !isnan(a->use_median[USE_TREE_MEMORY]))
		fprintf(f, "   whole tree: CPU time median %s  peak memory median %s\n",
		        h4ns(m, a->use_median[USE_TREE_CPU]),
		        use_text(q1, USE_TREE_MEMORY, a->use_median[USE_TREE_MEMORY]));
}

static void summary_cmp(FILE *f, const struct study *s, const struct cmp_result *c,
                        const struct style *st)
{
	char r[SIG_BUFSZ], lv[SIG_BUFSZ], iv[96], ch[96];

	fprintf(f, "%c against %c: ", c->cand, c->ref);
	if (!c->have) {
		fprintf(f, "no interval (too few runs were measured)\n");
		return;
	}
	fprintf(f, "%c/%c %stime ratio ", c->ref, c->cand, s->median ? "median " : "");
	paint(f, st, C_BOLD, "%s", h4(r, c->ratio));
	change_words(ch, sizeof ch, c);
	/* a direction only where the interval resolves one (pb-tint's rule) */
	fprintf(f, ", %s%% %s %s: ", level_percent(lv, s->level), interval_name(s),
	        interval_text(iv, sizeof iv, c));
	if (!bounded(c)) {
		paint(f, st, C_YELLOW, "too few runs for the sequence to bound it");
		fprintf(f, " (so far %s)", ch);
	} else if (strcmp(cmp_words(c), "no difference resolved") == 0) {
		/* what it rules out is the answer's, said above */
		paint(f, st, C_YELLOW, "no difference resolved");
	} else {
		fprintf(f, "%s: ", ch);
		paint(f, st, verdict_color(c), "%c is %s", c->cand, cmp_words(c));
	}
	fprintf(f, "\n");
}

/* The threshold's verdict and the gate's, passed or not, in words. */
static void summary_gate(FILE *f, const struct study *s, const struct cmp_result *c,
                         const struct live *l, const struct style *st)
{
	char t[SIG_BUFSZ];   /* h4 for the threshold, num_format for the gate */

	if (!isnan(s->threshold) && *c->verdict && !(s->tolerance > 0)) {
		const char *v = c->verdict;

		h4(t, s->threshold);
		if (strcmp(v, "above") == 0)
			fprintf(f, "   threshold %s: %c is at least %sx as fast as %c\n", t, c->cand, t,
			        c->ref);
		else if (strcmp(v, "below") == 0)
			fprintf(f, "   threshold %s: %c is not %sx as fast as %c\n", t, c->cand, t, c->ref);
		else if (strcmp(v, "crosses") == 0)
			fprintf(f, "   threshold %s: not yet shown whether %c is %sx as fast as %c\n", t,
			        c->cand, t, c->ref);
		else {
			fprintf(f, "   threshold %s: ", t);
			put_safe_text(f, v);
			fputc('\n', f);
		}
	}
	if (!isnan(l->fail_if_slower) && !l->bisect) {   /* --bisect's is the last line */
		num_format(t, l->fail_if_slower);
		fprintf(f, "   ");
		if (cmp_slower_than(c, l->fail_if_slower))
			paint(f, st, C_RED, "--fail-if-slower %s: failed (exit 3), %c is slower than "
			      "that with confidence", t, c->cand);
		else if (!(s->tolerance > 0))
			paint(f, st, C_GREEN, "--fail-if-slower %s: passed, %c is not shown to take %s "
			      "times A's time or more", t, c->cand, t);
		else if (cmp_not_slower_beyond(c, s->tolerance))
			paint(f, st, C_GREEN, "--fail-if-slower %s: passed, %c is shown not slower than "
			      "%c by more than the tolerance", t, c->cand, c->ref);
		else
			paint(f, st, C_YELLOW, "--fail-if-slower %s: undecided (exit 4), %c is shown "
			      "neither slower than that nor within the tolerance", t, c->cand);
		fprintf(f, "\n");
	}
}

/* --- the answer: what a person reads first ----------------------------- */

/* A share (0.0113) in percent with 2 significant digits, in fixed
 * notation ("1.1", "0.011", "23"): a person compares them at a glance;
 * the finding and the streams keep the digits. */
static const char *pct2(char buf[SIG_BUFSZ], double share)
{
	double x = 100 * fabs(share);
	int decimals = x >= 10 || x == 0 ? 0 : x >= 1 ? 1 : 1 - (int)floor(log10(x));

	if (!isfinite(x) || decimals > 12)
		return h4(buf, x);
	snprintf(buf, SIG_BUFSZ, "%.*f", decimals, x);
	return buf;
}

/* Whether a verdict of cmp_words resolves a direction. */
static int directed(const char *w)
{
	return strcmp(w, "faster") == 0 || strcmp(w, "slower") == 0;
}

/* The verdict against a tolerance of pct % (pb-tint's, in c->verdict):
 * 1 when said. */
static int tolerance_verdict(FILE *f, const struct cmp_result *c, double pct,
                             const struct style *st)
{
	char t[NUM_BUFSZ];
	const char *v = c->verdict, *w = cmp_words(c);

	if (!(pct > 0) || !*v || !bounded(c))
		return 0;
	num_format(t, pct);
	if (strcmp(v, "equivalent") == 0 && directed(w))
		paint(f, st, C_GREEN, "%c is %s than %c, by less than %s%%", c->cand, w, c->ref, t);
	else if (strcmp(v, "equivalent") == 0)
		paint(f, st, C_GREEN, "%c is equivalent to %c within %s%%", c->cand, c->ref, t);
	else if (directed(v))   /* pb-tint's: beyond the margin */
		paint(f, st, *v == 's' ? C_RED : C_GREEN, "%c is %s than %c by more than %s%%", c->cand,
		      v, c->ref, t);
	else if (directed(w))
		paint(f, st, verdict_color(c), "%c is %s than %c; whether by more than %s%% is not yet "
		      "shown", c->cand, w, c->ref, t);
	else if (strcmp(v, "not_slower") == 0 || strcmp(v, "not_faster") == 0)
		paint(f, st, v[4] == 's' ? C_GREEN : C_YELLOW, "%c is not %s than %c by more than %s%%",
		      c->cand, v + 4, c->ref, t);
	else
		paint(f, st, C_YELLOW, "Undecided: %c may or may not be within %s%% of %c", c->cand, t,
		      c->ref);
	fputc('\n', f);
	return 1;
}

/* "B is slower than A", "No difference resolved between A and B", ... */
static void answer_verdict(FILE *f, const struct study *s, const struct cmp_result *c,
                           const struct style *st)
{
	const char *w = cmp_words(c);

	if (tolerance_verdict(f, c, s->tolerance, st))
		return;
	if (!bounded(c))
		paint(f, st, C_YELLOW, "%c against %c: too few runs to bound the ratio", c->cand,
		      c->ref);
	else if (directed(w))
		paint(f, st, verdict_color(c), "%c is %s than %c", c->cand, w, c->ref);
	else
		paint(f, st, C_YELLOW, "No difference resolved between %c and %c", c->ref, c->cand);
	fputc('\n', f);
}

/* "4.1% to 6.3% less", "from 2% less to 7.7% more": B's time against
 * A's over the interval lo..hi of A/B. */
static const char *range_words(char *buf, size_t n, double lo, double hi)
{
	char a[SIG_BUFSZ], b[SIG_BUFSZ];

	if (lo > 1)
		snprintf(buf, n, "%s%% to %s%% less", pct2(a, 1 - 1 / lo), pct2(b, 1 - 1 / hi));
	else if (hi < 1)
		snprintf(buf, n, "%s%% to %s%% more", pct2(a, 1 / hi - 1), pct2(b, 1 / lo - 1));
	else
		snprintf(buf, n, "from %s%% less to %s%% more", pct2(a, 1 - 1 / hi),
		         pct2(b, 1 / lo - 1));
	return buf;
}

/* "B takes 1.1% more time than A (0.011% to 2.3% more, at 95%
 * confidence)"; for no difference, the bound the interval proves. The
 * shares are of A's time: B's is 1/ratio of it. */
static void answer_ratio(FILE *f, const struct study *s, const struct cmp_result *c)
{
	char e[SIG_BUFSZ], a[SIG_BUFSZ], b[SIG_BUFSZ], lv[SIG_BUFSZ], conf[64], range[96];
	double rel = 1 / c->ratio, less, more;
	const char *w = cmp_words(c);

	snprintf(conf, sizeof conf, "at %s%% confidence%s", level_percent(lv, s->level),
	         s->median ? ", of the median run" : "");
	if (!bounded(c))
		fprintf(f, "   so far %c takes %s%% %s time than %c\n", c->cand, pct2(e, rel - 1),
		        rel > 1 ? "more" : "less", c->ref);
	else if (strcmp(w, "slower") == 0 || strcmp(w, "faster") == 0)
		fprintf(f, "   %c takes %s%% %s time than %c (%s, %s)\n", c->cand,
		        pct2(e, fabs(rel - 1)), rel > 1 ? "more" : "less", c->ref,
		        range_words(range, sizeof range, c->lo, c->hi), conf);
	else if (interval_sides(c->lo, c->hi, &less, &more) == 0)
		fprintf(f, "   %c is within %s%% of %c: it takes from %s%% less time to %s%% more "
		        "(%s)\n", c->cand, pct2(e, fmax(less, more)), c->ref, pct2(a, less),
		        pct2(b, more), conf);
	else
		fprintf(f, "   the interval includes 1 (%s)\n", conf);
}

/* A budget a person gives: ns rounded up to 2 significant digits of
 * seconds ("9.3s", "40s", "120s"). */
static const char *budget_text(char buf[SIG_BUFSZ], double ns)
{
	double s = ns / 1e9, unit = pow(10, floor(log10(s)) - 1);

	snprintf(buf, SIG_BUFSZ, "%.*fs", s < 10 ? 1 : 0, ceil(s / unit) * unit);
	return buf;
}

/* "   to narrow it to +-0.61%: about 9.3 s, 77 runs x 13 pairs (-b
 * 9.3s)": what the study's own variance components price for an interval
 * half as wide as the bound (pb-plan --sequential --tighter,
 * tighter.tsv): its runs' cost, and what this study spent beside its own
 * runs (the probe, the pilot, the analysis); without the wall time
 * (--from), the runs' cost over the share of a budget a study leaves its
 * runs, about 85 %. Not for a target beyond +-1000 %: such a study
 * needs a look at its runs, not a price. */
static void answer_tighter(FILE *f, const struct study *s, const struct live *l)
{
	char p[SIG_BUFSZ], b[SIG_BUFSZ];
	double beside = l->wall_ns - s->tighter_current_ns;
	double budget_ns = beside > 0 ? s->tighter_total_ns + beside : s->tighter_total_ns / 0.85;

	/* narrowing an interval wider than +-1000 % is not worth a line */
	if (isnan(s->tighter_total_ns) || !(s->tighter_target <= log1p(10)) ||
	    !(budget_ns >= 1e8))
		return;
	budget_text(b, budget_ns);
	fprintf(f, "   to narrow it to \xc2\xb1%s%%: about %.*s s, %.0f runs x %.0f pairs (-b %s)\n",
	        pct2(p, expm1(s->tighter_target)), (int)strlen(b) - 1, b, s->tighter_runs,
	        s->tighter_pairs, budget_ns < 1e9 ? "1s" : b);
}

/* "13 runs x 3 pairs in 1.582 s; study: DIR"; "3 duet pairs" when A
 * and B of each ran at once (pb-run --duet). */

/* Runs on several hosts: the runs above are pooled as if independent;
 * hosts as the unit say what the average host and a new one show. */
static void answer_hosts(FILE *f, const struct study *s)
{
	const struct hosts_result *h = &s->hosts;
	char avg[96], next[96], lv[SIG_BUFSZ];

	if (!h->have || !(h->lo > 0) || !(h->pred_lo > 0))
		return;
	range_words(avg, sizeof avg, h->lo, h->hi);
	range_words(next, sizeof next, h->pred_lo, h->pred_hi);
	fprintf(f, "   with the %ld hosts as the unit: %s on the average host, %s on a new host "
	        "like these (%s%% prediction)\n", h->n, avg, next, level_percent(lv, s->level));
}

static void answer_basis(FILE *f, const struct study *s, const struct live *l,
                         const struct style *st)
{
	char w[SIG_BUFSZ];

	fprintf(f, "%ld run%s x %ld %spair%s", s->runs, s->runs == 1 ? "" : "s", s->pairs,
	        s->order && !strcmp(s->order, "duet") ? "duet " : "", s->pairs == 1 ? "" : "s");
	if (!isnan(l->wall_ns))
		fprintf(f, " in %s", h4ns(w, l->wall_ns));
	if (st->dir) {
		fputs("; study: ", f);
		put_safe_text(f, st->dir);
	}
	fputc('\n', f);
}

/* A warning's line is cut here: the rest is -v's. */
enum { HEADLINE_MAX = 160 };

/* At most max bytes of w, not cutting a UTF-8 character; 1 when cut. */
static int copy_cut(char *h, size_t *k, const char *w, size_t n, size_t max)
{
	size_t m = n < max ? n : max;

	while (m < n && m > 0 && ((unsigned char)w[m] & 0xC0) == 0x80)
		m--;   /* w[m] continues a character: end before it */
	memcpy(h, w, m);
	*k = m;
	return m < n;
}

/* pb-check's warning in a line: its first clause, without what it says
 * in parentheses ("Run 5 has an effect beyond 4.5 IQRs of the quartiles
 * of the runs' effects"); the whole of it is -v's. A warning of a study
 * of several arms starts "B: ". A note with no such clause is cut. */
static void put_headline(FILE *f, const char *w, int arms)
{
	size_t n, i, k = 0;
	char *h;
	int depth = 0, cut = 0;

	if (arms > 2 && w[0] >= 'A' && w[0] <= 'Z' && w[1] == ':' && w[2] == ' ') {
		fprintf(f, "arm %c: ", w[0]);
		w += 3;
	}
	n = strlen(w);
	h = xmalloc(HEADLINE_MAX + 4);
	for (i = 0; i < n && k < HEADLINE_MAX; i++) {
		char c = w[i];

		if (c == '(' || (c == ')' && depth) || depth) {
			depth += c == '(' ? 1 : c == ')' ? -1 : 0;
			continue;
		}
		if (c == ':' || c == ';' || (c == '.' && (w[i + 1] == ' ' || !w[i + 1])))
			break;
		if (c == ',' && k && h[k - 1] == ' ')   /* where a parenthesis was */
			k--;
		if (!(c == ' ' && (!k || h[k - 1] == ' ')))
			h[k++] = c;
	}
	cut = i < n && k >= HEADLINE_MAX;
	if (cut && ((unsigned char)w[i] & 0xC0) == 0x80) {   /* not mid-character */
		while (k && ((unsigned char)h[k - 1] & 0xC0) == 0x80)
			k--;
		k -= k > 0;   /* its first byte */
	}
	while (k && (h[k - 1] == ' ' || h[k - 1] == '.'))
		k--;
	if (!k) {   /* all of it in parentheses, or no clause: as it is, cut */
		const char *t = w + strspn(w, " ");

		cut = copy_cut(h, &k, t, strlen(t), HEADLINE_MAX);
		while (k && h[k - 1] == ' ')
			k--;
	}
	if (cut)
		memcpy(h + k, "...", 3), k += 3;
	h[k] = '\0';
	if (h[0] >= 'a' && h[0] <= 'z')   /* a sentence of its own now */
		h[0] = (char)(h[0] - 'a' + 'A');
	put_safe_text(f, *h ? h : "pb-check gave a warning without words");
	free(h);
}

/* A word as the shell reads it back: as it is, or in single quotes. */
static void put_shell_word(FILE *f, const char *w)
{
	char *copy, *p, *q;

	if (shell_word_plain(w)) {
		put_safe_text(f, w);
		return;
	}
	p = copy = xstrdup(w);
	fputc('\'', f);
	while ((q = strchr(p, '\'')) != NULL) {
		*q = '\0';
		put_safe_text(f, p);
		fputs("'\\''", f);
		p = q + 1;
	}
	put_safe_text(f, p);
	fputc('\'', f);
	free(copy);
}

/* Whether w, as put_safe_text shows it, is w: a control byte or one
 * that is not UTF-8 is shown as \xNN, which a shell reads as itself. */
static int pasteable(const char *w)
{
	char *shown = safe_text(w);
	int same = strcmp(shown, w) == 0;

	free(shown);
	return same;
}

/* "warning: HEADLINE (more: pb-compare --from DIR -v)" */
static void answer_warning(FILE *f, const struct study *s, const char *w,
                           const struct style *st)
{
	paint(f, st, C_YELLOW, "warning:");
	fputc(' ', f);
	put_headline(f, w, s->narms);
	if (s->dir && pasteable(s->dir)) {
		fputs(" (more: pb-compare --from ", f);
		put_shell_word(f, s->dir);
		fputs(" -v)", f);
	} else if (s->dir)   /* a byte shown as \xNN: pasted, it would name another */
		fputs(" (more: pb-compare -v --from the study's directory)", f);
	fputc('\n', f);
}

/* The answer, each candidate's and what it rests on; the warnings a
 * line each unless quiet. */
static void write_answer(FILE *f, const struct study *s, const struct live *l,
                         const struct style *st)
{
	int i;
	size_t j;

	for (i = 0; i < s->ncmp; i++) {
		const struct cmp_result *c = &s->cmp[i];

		if (!c->have) {
			fprintf(f, "%c against %c: no interval (too few runs were measured)\n", c->cand,
			        c->ref);
			continue;
		}
		answer_verdict(f, s, c, st);
		answer_ratio(f, s, c);
		if (s->ncmp == 1)
			answer_hosts(f, s);
		if (st->say != SAY_QUIET && s->ncmp == 1 && strcmp(c->verdict, "equivalent") != 0 &&
		    strcmp(cmp_words(c), "no difference resolved") == 0)
			answer_tighter(f, s, l);
		summary_gate(f, s, c, l, st);
	}
	answer_basis(f, s, l, st);
	for (j = 0; st->say == SAY_ANSWER && j < s->nwarn; j++)
		answer_warning(f, s, s->warnings[j], st);
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
static void summary_use(FILE *f, const char *lead, const struct study *s,
                        const struct cmp_result *c, int k, const struct style *st)
{
	const struct ratio_ci *u = &c->use[k];
	const struct arm_result *ra = study_arm(s, c->ref), *ca = study_arm(s, c->cand);
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
		fprintf(f, "too few runs to bound it (so far %s)", ch);
	else if (strcmp(w, "no difference resolved") == 0)
		paint(f, st, C_YELLOW, "no difference resolved");
	else
		fputs(ch, f);
	if (k == USE_MEMORY && ra && ca && (study_arm_at_floor(s, ra) || study_arm_at_floor(s, ca))) {
		const struct arm_result *low = study_arm_at_floor(s, ra) ? ra : ca;

		sig4_kib(fl, low->use_median[USE_MEMORY]);
		if (study_arm_at_floor(s, ra) && study_arm_at_floor(s, ca))
			fprintf(f, " (both at pb-run's floor: each uses at most that, and what is "
			        "below it is not measured)");
		else
			fprintf(f, " (%c's %s is at pb-run's floor: %c uses at most that, so the "
			        "ratio may understate the difference)", low->letter, fl, low->letter);
	}
	fputc('\n', f);
}

void write_use_line(FILE *f, const char *lead, const struct study *s,
                    const struct cmp_result *c, int k)
{
	const struct style plain = { 0 };

	summary_use(f, lead, s, c, k, &plain);
}

/* Take " Warning: TEXT" (and the full stop pb-tint adds) out of finding
 * wherever it stands whole. */
static void drop_clause(char *finding, const char *text)
{
	size_t tl = strlen(text);
	char *p = finding;

	while ((p = strstr(p, " Warning: ")) != NULL) {
		char *e = p + 10 + tl;

		if (strncmp(p + 10, text, tl) == 0) {
			if (*e == '.' && tl && text[tl - 1] != '.')
				e++;
			if (*e == '\0' || *e == ' ') {
				memmove(p, e, strlen(e) + 1);
				continue;
			}
		}
		p += 10;
	}
}

/* pb-check's warning w as the finding quotes it: as it is, and for a
 * study of several arms (w is "B: note") as "arm B: note". */
static void drop_warning(char *finding, const char *w)
{
	char *armed = xmalloc(strlen(w) + 5);

	drop_clause(finding, w);
	sprintf(armed, "arm %s", w);
	drop_clause(finding, armed);
	free(armed);
}

static void summary_design(FILE *f, const struct study *s, const struct live *l)
{
	char w[SIG_BUFSZ], b[SIG_BUFSZ];

	fprintf(f, "%ld run%s x %ld pair%s (warm-up %ld)", s->runs, s->runs == 1 ? "" : "s",
	        s->pairs, s->pairs == 1 ? "" : "s", s->warmup);
	if (!isnan(l->wall_ns))
		fprintf(f, " in %s", h4ns(w, l->wall_ns));
	if (!isnan(l->budget_ns))
		fprintf(f, " of a %s budget", h4ns(b, l->budget_ns));
	if (s->stop) {
		fprintf(f, "; ");
		put_safe_text(f, s->stop);
	}
	fprintf(f, "\n");
}

static void summary_sense(FILE *f, const struct study *s)
{
	char d[SIG_BUFSZ], p[SIG_BUFSZ], m[SIG_BUFSZ];
	double med = study_reference_median(s);

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

/* Whether the memory line says something: not when both arms sit at
 * pb-run's floor, below which nothing is measured. */
static int use_informs(const struct study *s, const struct cmp_result *c, int k)
{
	const struct arm_result *ra = study_arm(s, c->ref), *ca = study_arm(s, c->cand);

	return k != USE_MEMORY || !ra || !ca || !study_arm_at_floor(s, ra) ||
	       !study_arm_at_floor(s, ca);
}

/* What SAY_ALL adds after the answer: the plan, the arms, each
 * comparison with its CPU time and memory, the design, the warnings
 * whole and pb-tint's findings. */
static void write_details(FILE *f, const struct study *s, const struct live *l,
                          const struct style *st)
{
	int i, k;
	size_t j;

	fprintf(f, "\n");
	if (l->plan && !st->plan_said)
		fprintf(f, "%s\n", l->plan);
	for (i = 0; i < s->narms; i++)
		summary_arm(f, s, &s->arm[i], st);
	fprintf(f, "\n");
	for (i = 0; i < s->ncmp; i++) {
		summary_cmp(f, s, &s->cmp[i], st);
		for (k = 0; k < NUSE; k++)
			if (study_has_use(s, k) && use_informs(s, &s->cmp[i], k))
				summary_use(f, "   ", s, &s->cmp[i], k, st);
	}
	fprintf(f, "\n");
	summary_design(f, s, l);
	for (j = 0; j < s->nwarn; j++) {
		paint(f, st, C_YELLOW, "warning:");
		fputc(' ', f);
		put_safe_text(f, s->warnings[j]);
		fputc('\n', f);
	}
	for (i = 0; i < s->ncmp; i++)
		if (s->cmp[i].finding) {
			/* each warning said once: on its line above, not again as the
			 * finding's clause; a clause of no line above stays */
			char *core = xstrdup(s->cmp[i].finding);

			for (j = 0; j < s->nwarn; j++)
				drop_warning(core, s->warnings[j]);
			paint(f, st, C_DIM, "finding:");
			fputc(' ', f);
			put_safe_text(f, core);
			fputc('\n', f);
			free(core);
		}
	if (s->hosts.finding) {
		paint(f, st, C_DIM, "finding:");
		fputc(' ', f);
		put_safe_text(f, s->hosts.finding);
		fputc('\n', f);
	}
}

/* The last line under --bisect: which of git bisect's answers, and why. */
static void summary_bisect(FILE *f, const struct study *s, const struct live *l,
                           const struct style *st)
{
	char line[600];
	int status = l->exit_status;

	if (status == EXIT_BISECT_GOOD || status == EXIT_BISECT_BAD || status == EXIT_BISECT_SKIP)
		gate_bisect_line(line, sizeof line, s, l);
	else
		snprintf(line, sizeof line, "bisect: abort (exit %d: the study %s, and git bisect run "
		         "stops at a status above 127)", status, status == EXIT_BISECT_ERROR ?
		         "failed" : "was interrupted");
	paint(f, st, status == EXIT_BISECT_GOOD ? C_GREEN : status == EXIT_BISECT_BAD ? C_RED :
	      C_YELLOW, "%s", line);
	fputc('\n', f);
}

void write_summary(FILE *f, const struct study *s, const struct live *l,
                   const struct style *st)
{
	if (l->value) {
		paint_text(f, st, C_BOLD, l->value);
		fputc('\n', f);
	}
	if (!s->narms && s->failed) {   /* a study of a scan that could not be made */
		paint(f, st, C_RED, "failed:");
		fputc(' ', f);
		put_safe_text(f, s->failed);
		fputs("; nothing was measured\n", f);
		return;
	}
	if (s->interrupted || s->failed) {
		paint(f, st, C_YELLOW, "partial: %s", s->interrupted ? "interrupted by " : "failed: ");
		put_safe_text(f, s->interrupted ? s->interrupted : s->failed);
		fprintf(f, "; what was measured is analysed\n");
	}
	write_answer(f, s, l, st);
	if (st->say != SAY_QUIET)
		summary_sense(f, s);
	if (st->say == SAY_ALL)
		write_details(f, s, l, st);
	if (l->bisect)
		summary_bisect(f, s, l, st);
}

/* --- markdown --------------------------------------------------------- */

/* A command as a code span in a table cell: backticks enough to hold
 * its own, '|' escaped (GitHub's tables split at any '|'); its text
 * safe_text's (no control byte, valid UTF-8). */
static void md_code(FILE *f, const char *text)
{
	size_t run = 0, most = 0, i;
	char *s = safe_text(text);
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
			fputc('\\', f);
		fputc(*p, f);
	}
	fputs(p > s && p[-1] == '`' ? " " : "", f);
	for (i = 0; i <= most; i++)
		fputc('`', f);
	free(s);
}

/* Text read from a study in markdown, for a page pasted into an issue
 * tracker: every character that could start markup, an HTML tag or
 * entity, or a link or image escaped (CommonMark: any ASCII punctuation
 * may be), and safe_text's (no control byte, valid UTF-8). */
static void md_text(FILE *f, const char *text)
{
	char *s = safe_text(text), *p;

	for (p = s; *p; p++) {
		if (strchr("\\`*_[]<>()|#&!~", *p))
			fputc('\\', f);
		fputc(*p, f);
	}
	free(s);
}

/* " 9.492 ms (A/B 0.4723, 0.3414 to 0.6534) |": each arm's median CPU
 * time and peak memory, a candidate's ratio to the reference beside. */
static void md_use(FILE *f, const struct study *s, const struct arm_result *a,
                   const struct cmp_result *c)
{
	char m[SIG_BUFSZ], r[SIG_BUFSZ], iv[96];
	int k;

	for (k = 0; k < NUSE_PROCESS; k++) {   /* the table's two columns: wait4's */
		fprintf(f, " %s", use_text(m, k, a->use_median[k]));
		if (k == USE_MEMORY && study_arm_at_floor(s, a))
			fputs(" (at pb-run's floor)", f);
		if (c && c->use[k].have)
			fprintf(f, " (%c/%c %s, %s)", c->ref, c->cand, h4(r, c->use[k].ratio),
			        ci_text(iv, sizeof iv, 1, c->use[k].lo, c->use[k].hi));
		fputs(" |", f);
	}
}

/* use: the table has the columns of CPU time and peak memory ("?" in
 * them for a study that did not measure them). */
static void md_row(FILE *f, const struct study *s, const struct arm_result *a,
                   const char *value, int use)
{
	const struct cmp_result *c = study_cmp(s, a->letter);
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

static void md_head(FILE *f, const struct study *s, const char *param)
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

void write_markdown_table(FILE *f, const struct study *const *s,
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

/* One cell of the scan table: the text as the terminal shows it, padded
 * to width w. */
static void scan_cell(FILE *f, const char *text, int w)
{
	int shown = (int)safe_text_width(text);

	put_safe_text(f, text);
	fprintf(f, "%*s", shown < w ? w - shown + 2 : 2, "");
}

/* A change of time in percent, signed: "+1.1%", "-3.0%". */
static const char *signed_pct(char buf[SIG_BUFSZ], double share)
{
	char p[SIG_BUFSZ];

	snprintf(buf, SIG_BUFSZ, "%c%s%%", share < 0 ? '-' : '+', pct2(p, share));
	return buf;
}

/* "+0.011% to +2.3%": the candidate's time against the reference's, the
 * ends of the interval of ref/cand turned over, as the answer says it. */
static const char *change_interval(char *buf, size_t n, const struct cmp_result *c)
{
	char a[SIG_BUFSZ], b[SIG_BUFSZ];

	if (!bounded(c))
		snprintf(buf, n, "unbounded");
	else
		snprintf(buf, n, "%s to %s", signed_pct(a, 1 / c->hi - 1), signed_pct(b, 1 / c->lo - 1));
	return buf;
}

void write_scan_table(FILE *f, const struct study *const *s, const struct live *const *l,
                      size_t n, const char *param, const struct style *st)
{
	int wv = (int)safe_text_width(param), wr, wi = 8, k;
	const struct study *one;
	char lv[SIG_BUFSZ], head[64], r[SIG_BUFSZ], iv[96];
	size_t i;

	if (n == 0)
		return;
	/* the widths: the longest value and interval */
	for (i = 0; i < n; i++) {
		const char *v = strchr(l[i]->value, '=') ? strchr(l[i]->value, '=') + 1 : l[i]->value;

		wv = (int)safe_text_width(v) > wv ? (int)safe_text_width(v) : wv;
		for (k = 0; k < s[i]->ncmp; k++)
			if (s[i]->cmp[k].have) {
				int w = (int)strlen(change_interval(iv, sizeof iv, &s[i]->cmp[k]));

				wi = w > wi ? w : wi;
			}
	}
	/* the header from a study that answered (the first may have failed) */
	for (i = 0; i + 1 < n && !s[i]->ncmp; i++)
		;
	one = s[i];
	snprintf(head, sizeof head, "%s%% interval", level_percent(lv, one->level));
	wi = (int)strlen(head) > wi ? (int)strlen(head) : wi;
	snprintf(r, sizeof r, "%c's time", one->ncmp > 1 ? 'X' : one->ncmp ? one->cmp[0].cand : 'B');
	wr = (int)strlen(r) > 7 ? (int)strlen(r) : 7;
	scan_cell(f, param, wv);
	scan_cell(f, r, wr);
	scan_cell(f, head, wi);
	fputs("verdict\n", f);
	for (i = 0; i < n; i++) {
		const char *v = strchr(l[i]->value, '=') ? strchr(l[i]->value, '=') + 1 : l[i]->value;

		if (!s[i]->narms || !s[i]->ncmp) {
			scan_cell(f, v, wv);
			fputs("failed: nothing was measured\n", f);
			continue;
		}
		for (k = 0; k < s[i]->ncmp; k++) {
			const struct cmp_result *c = &s[i]->cmp[k];
			const char *w;

			scan_cell(f, v, wv);
			if (!c->have) {
				scan_cell(f, "", wr);
				scan_cell(f, "", wi);
				fputs("no interval\n", f);
				continue;
			}
			scan_cell(f, signed_pct(r, 1 / c->ratio - 1), wr);
			scan_cell(f, change_interval(iv, sizeof iv, c), wi);
			if (s[i]->ncmp > 1)
				fprintf(f, "%c: ", c->cand);
			w = cmp_words(c);
			if (directed(w))
				paint(f, st, verdict_color(c), "%c is %s", c->cand, w);
			else
				paint(f, st, verdict_color(c), "%s", w);
			fputc('\n', f);
		}
	}
}

void write_markdown_failed(FILE *f, const struct study *const *s,
                           const struct live *const *l, size_t n)
{
	size_t i;
	int any = 0;

	for (i = 0; i < n; i++)
		if (!s[i]->narms && s[i]->failed) {
			fputs("\n- ", f);
			any = 1;
			md_code(f, l[i]->value ? l[i]->value : s[i]->dir);
			fputs(": failed, nothing was measured: ", f);
			md_text(f, s[i]->failed);
		}
	fputs(any ? "\n" : "", f);
}

static void report_design(FILE *f, const struct study *s)
{
	char lv[SIG_BUFSZ], a[SIG_BUFSZ], b[SIG_BUFSZ], c[SIG_BUFSZ];

	fprintf(f, "## How it was measured\n\n");
	fprintf(f, "- %ld run%s of %ld pairs each after %ld warm-up pair%s, the arms in ", s->runs,
	        s->runs == 1 ? "" : "s", s->pairs, s->warmup, s->warmup == 1 ? "" : "s");
	md_text(f, s->order ? s->order : "?");   /* raw.tsv's words: text, never markup */
	fputs(" order in each pair (seed ", f);
	md_text(f, s->seed ? s->seed : "?");
	fputs(")", f);
	if (s->stop) {
		fputs("; ", f);
		md_text(f, s->stop);
	}
	if (s->interrupted) {
		fputs("; interrupted: ", f);
		md_text(f, s->interrupted);
	}
	fputs(".\n", f);
	fputs("- Each run is reduced to the ", f);
	md_text(f, s->stat);
	fprintf(f, " of each arm; the interval is pb-tint's %s%% %s "
	        "over the runs%s.\n", level_percent(lv, s->level),
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
	fputs("; started ", f);
	md_text(f, s->start ? s->start : "?");
	fputs(".\n", f);
	if (s->have_sense) {
		fputs("- ", f);
		summary_sense(f, s);
	}
	fputs("\n", f);
}

/* The summary's lines of CPU time and peak memory, as a list. */
static void report_use(FILE *f, const struct study *s)
{
	const struct style plain = { 0 };
	int i, k;

	if (!s->have_use)
		return;
	fputs("## CPU time and peak memory\n\n", f);
	for (i = 0; i < s->ncmp; i++)
		for (k = 0; k < NUSE; k++) {
			char lead[32];

			if (!study_has_use(s, k))
				continue;
			snprintf(lead, sizeof lead, "- %c against %c, ", s->cmp[i].cand, s->cmp[i].ref);
			summary_use(f, lead, s, &s->cmp[i], k, &plain);
		}
	fputs("\nBoth are pb-run's, of each observation's process (`# rusage:` in raw.tsv "
	      "says what they count), analysed as the time is.\n\n", f);
	if (s->have_tree)
		fputs("The whole tree's are those of every process the command started, from "
		      "cgroups of each observation's own (pb-run --resources tree; `# resources:` "
		      "in raw.tsv says where each comes from).\n\n", f);
}

void write_report(FILE *f, const struct study *s)
{
	const struct study *one[1] = { s };
	const struct live none = { NULL, 0, NAN, NAN, NAN, 0, NULL, NULL, 0 };
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
	if (s->hosts.finding) {
		md_text(f, s->hosts.finding);
		fputs(" (hosts.tsv: the runs' hosts as a level)\n\n", f);
		if (s->hosts.picture)
			fputs("![each host's interval, the average host's and a new host's]"
			      "(hosts.svg)\n\n", f);
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
	fputs(s->hosts.have ? ", hosts.tsv (pb-tint --unit host on runs.tsv, which has each run's "
	      "host: pb-pair --by-run --host)" : "", f);
	fputs(s->have_use ? ", runs-cpu.tsv and tint-cpu.tsv, runs-memory.tsv and tint-memory.tsv "
	      "(CPU time and peak memory: the steps of runs.tsv and tint.tsv with pb-logratio --a "
	      "a_cpu --b b_cpu --name lr_cpu and --a a_maxrss --b b_maxrss --name lr_memory)" : "",
	      f);
	fputs(s->have_tree ? ", runs-tree-cpu.tsv and tint-tree-cpu.tsv, runs-tree-memory.tsv and "
	      "tint-tree-memory.tsv (the whole tree's, likewise with a_tree_cpu b_tree_cpu and "
	      "a_tree_maxrss b_tree_maxrss)" : "", f);
	fputs(". `make` in this directory redoes the analysis from raw.tsv.\n", f);
}
