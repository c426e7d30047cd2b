/* hostrep: the rows and the finding of pb-tint --unit host (pb-tint(1)):
 * the runs of a by-run stream grouped by its host column, each host's
 * interval, and the hosts' random-effects summary (lib/hosts.h) as one
 * table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "hostrep.h"
#include "human.h"
#include "num.h"
#include "out.h"
#include "stream.h"

void host_stream_check(const struct stream *s)
{
	if (stream_col_find(s, "host") < 0)
		die("%s: --unit host needs a host column: make the runs with pb-pair --by-run --host "
		    "(each run's host is in its '# run:' line)", s->name);
	if (stream_col_find(s, "pair") >= 0 || stream_col_find(s, "run") < 0)
		die("%s: --unit host reads one row per run (pb-pair --by-run --host | pb-logratio), "
		    "not pairs", s->name);
}

void host_runs_read(struct host_runs *h, struct stream *s, size_t col)
{
	size_t hc, gi, klen;
	char b[MSG_CUT_BUF];

	host_stream_check(s);
	hc = stream_col(s, "host");
	while (stream_row(s)) {
		klen = stream_field_len(s, hc);
		if (klen == 0)
			die("%s:%ld: a run without a host: every run must name its machine", s->name,
			    s->line);
		if (s->field[hc][0] == '#')
			die("%s:%ld: host '%s' begins with '#', which would start a comment row",
			    s->name, s->line, msg_cut(b, s->field[hc]));
		gi = strmap_intern(&h->names, s->field[hc], klen);
		if (gi >= h->ncap) {
			size_t c1 = h->ncap, c2 = h->ncap, c3 = h->ncap;

			xgrow_zero(&h->x, &c1, gi + 1, sizeof *h->x);
			xgrow_zero(&h->n, &c2, gi + 1, sizeof *h->n);
			xgrow_zero(&h->cap, &c3, gi + 1, sizeof *h->cap);
			h->ncap = c1;
		}
		xgrow(&h->x[gi], &h->cap[gi], h->n[gi] + 1, sizeof **h->x);
		h->x[gi][h->n[gi]++] = stream_num(s, col);
	}
}

void host_runs_free(struct host_runs *h)
{
	size_t i;

	for (i = 0; i < h->names.n; i++)
		free(h->x[i]);
	free(h->x), free(h->n), free(h->cap);
	strmap_free(&h->names);
}

struct host_mean *host_means(const struct host_runs *h, double level, double *y,
                             double *v, double *n, const char *name)
{
	struct host_mean *m = xmalloc(h->names.n * sizeof *m);
	char b[MSG_CUT_BUF];
	size_t i;

	if (h->names.n < 2)
		die("%s: --unit host needs 2 hosts or more, and the runs name %zu", name,
		    h->names.n);
	for (i = 0; i < h->names.n; i++) {
		msg_cut(b, h->names.key[i]);
		if (h->n[i] < 2)
			die("%s: host %s has 1 run: a host needs 2 runs or more for its standard "
			    "error (leave it out, or run it again)", name, b);
		m[i] = host_mean_of(h->x[i], h->n[i], level);
		if (!(m[i].se > 0) || !isfinite(m[i].hi - m[i].lo))
			die("%s: host %s: its runs' values are all equal or too large for a double: "
			    "no standard error to weigh it by", name, b);
		y[i] = m[i].mean;
		v[i] = m[i].se * m[i].se;
		n[i] = m[i].n;
	}
	return m;
}

static void host_header(const struct interval_method *m)
{
	static const char *re[] = { "mu", "mu_se", "mu_lo", "mu_hi", "tau2", "tau2_lo",
	                            "tau2_hi", "i2", "q", "q_p", "f", "f_df2", "f_p",
	                            "pred_lo", "pred_hi" };
	size_t i;

	out_field("row");
	out_field("host");
	interval_header_fields(m);
	out_field("z");
	for (i = 0; i < LEN(re); i++)
		out_field(re[i]);
	if (m->log_ratio) {
		out_field("ratio_mu");
		out_field("ratio_pred_lo");
		out_field("ratio_pred_hi");
	}
	out_end();
}

static struct interval interval_of_host(const struct host_mean *h)
{
	struct interval r = { 0 };

	r.n = h->n, r.mean = r.estimate = h->mean, r.sd = h->sd, r.se = h->se;
	r.df = h->df, r.t = h->t, r.lo = h->lo, r.hi = h->hi;
	return r;
}

static void empty_fields(size_t n)
{
	while (n--)
		out_field("");
}

/* A row per host, its standardized residual beside it, then the row of
 * the hosts: the t interval over their means and the random effects. */
void host_rows(const struct host_runs *h, const struct host_mean *hm,
                      const double *z, const struct interval *all,
                      const struct hosts_re *re, const struct interval_method *m)
{
	size_t i;
	struct interval r;

	host_header(m);
	for (i = 0; i < h->names.n; i++) {
		out_field("host");
		out_fieldn(h->names.key[i], h->names.keylen[i]);
		r = interval_of_host(&hm[i]);
		interval_fields_out(&r, m);
		out_num(z[i]);
		empty_fields(15 + 3 * (m->log_ratio != 0));
		out_end();
	}
	out_field("hosts");
	out_field("");
	interval_fields_out(all, m);
	out_field("");
	out_num(re->mu), out_num(re->mu_se), out_num(re->mu_lo), out_num(re->mu_hi);
	out_num(re->tau2), out_num(re->tau2_lo), out_num(re->tau2_hi), out_num(re->i2);
	out_num(re->q), out_num(re->q_p);
	out_num(re->f), out_num(re->f_df2), out_num(re->f_p);
	out_num_or_empty(re->pred_lo), out_num_or_empty(re->pred_hi);
	if (m->log_ratio) {
		out_num(exp(re->mu));
		out_num_or_empty(exp(re->pred_lo)), out_num_or_empty(exp(re->pred_hi));
	}
	out_end();
}

/* "B to take 0.8% to 3.9% less time", of a ratio interval lo..hi A/B:
 * B's time is 1/ratio of A's. */
static void expect_words(char *buf, size_t n, double lo, double hi, const char *noun)
{
	char a[SIG_BUFSZ], b[SIG_BUFSZ];

	if (lo >= 1)
		snprintf(buf, n, "B to take %s%% to %s%% less %s than A", sig4(a, 100 * (1 - 1 / lo)),
		         sig4(b, 100 * (1 - 1 / hi)), noun);
	else if (hi <= 1)
		snprintf(buf, n, "B to take %s%% to %s%% more %s than A", sig4(a, 100 * (1 / hi - 1)),
		         sig4(b, 100 * (1 / lo - 1)), noun);
	else
		snprintf(buf, n, "B to take anything from %s%% less %s to %s%% more than A",
		         sig4(a, 100 * (1 - 1 / hi)), noun, sig4(b, 100 * (1 / lo - 1)));
}

/* The finding of hosts: the average host, how much hosts differ, and
 * what a new host like these would show, the question a merged study
 * asks. */
void host_finding(const struct hosts_re *re, const struct interval_method *m,
                         const char *noun)
{
	char lv[SIG_BUFSZ], r0[SIG_BUFSZ], r1[SIG_BUFSZ], r2[SIG_BUFSZ], t[SIG_BUFSZ];
	char i2[SIG_BUFSZ], qp[SIG_BUFSZ], e[200];

	level_percent(lv, m->level);
	out_meta_begin("finding");
	out_meta_text("Over %.0f hosts (random effects, DerSimonian-Laird), the average host's A/B "
	              "%s ratio is %s, %s%% CI %s to %s; ", re->k, noun, sig4(r0, exp(re->mu)), lv,
	              sig4(r1, exp(re->mu_lo)), sig4(r2, exp(re->mu_hi)));
	out_meta_text("the hosts differ by tau = %s in log ratio (I2 = %s%%, Cochran's Q p = %s). ",
	              sig4(t, sqrt(re->tau2)), sig4(i2, 100 * re->i2), sig4(qp, re->q_p));
	if (isnan(re->pred_lo)) {
		out_meta_text("With 2 hosts there is no prediction for another one: it needs 3 or "
		              "more (t on hosts - 2 df).");
	} else {
		expect_words(e, sizeof e, exp(re->pred_lo), exp(re->pred_hi), noun);
		out_meta_text("On another machine like these, expect %s (%s%% prediction interval, "
		              "A/B %s to %s).", e, lv, sig4(r1, exp(re->pred_lo)),
		              sig4(r2, exp(re->pred_hi)));
	}
	out_meta_end();
}

void host_meta(const char *column, double level)
{
	out_meta("pb-tint.column", "%s", column);
	out_meta_num("pb-tint.level", "%s", level);
	out_meta("pb-tint.method", "t");
	out_meta("pb-tint.unit", "host");
	out_meta("pb-tint.unit.note", "rows 'host': each host's mean over its runs, t interval on "
	         "its runs - 1 df, z its standardized residual (common effect); row 'hosts': the "
	         "t interval over the host means (df = hosts - 1), the DerSimonian-Laird "
	         "random-effects estimate mu (z interval), tau2 with its Q-profile interval, I2 "
	         "(a share), Cochran's Q and p, Welch's F test (f on hosts - 1 and f_df2 df, f_p), and the prediction interval for a new host, mu "
	         "+- t(hosts - 2) sqrt(tau2 + mu_se^2)");
}
