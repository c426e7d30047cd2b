/* studydir: a study directory read back with the stream reader, into
 * what the summary, the report and the exports say. No statistic is
 * computed here but the medians and quartiles of each arm's times
 * (lib/stats); the intervals are pb-tint's, the warnings pb-check's. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "files.h"
#include "human.h"
#include "keys.h"
#include "num.h"
#include "seq.h"
#include "studydir.h"
#include "stats.h"
#include "stream.h"
#include "study.h"


static void close_in(struct stream *s, char *path)
{
	stream_close(s);
	free(path);
}

static char *meta_dup(const struct study_head *h, const char *key)
{
	const char *v = study_head_str(h, key);

	return v ? xstrdup(v) : NULL;
}

static double field_num(const struct stream *s, long col)
{
	return col < 0 || !*s->field[col] ? NAN : stream_num(s, (size_t)col);
}

static struct arm_result *arm_of(struct study *r, char letter)
{
	int i;

	for (i = 0; i < r->narms; i++)
		if (r->arm[i].letter == letter)
			return &r->arm[i];
	return NULL;
}

static struct cmp_result *cmp_of(struct study *r, char cand)
{
	int i;

	for (i = 0; i < r->ncmp; i++)
		if (r->cmp[i].cand == cand)
			return &r->cmp[i];
	return NULL;
}

/* The arm letter of a row: its arm column (several comparisons), or the
 * one candidate. */
static char row_cand(const struct stream *s, long arm_col, const struct study *r)
{
	if (arm_col >= 0 && strlen(s->field[arm_col]) == 1)
		return s->field[arm_col][0];
	return r->ncmp ? r->cmp[0].cand : 'B';
}

/* --- raw.tsv: the design, the arms, how the study ended --------------- */

static void keep_last(char **slot, const char *v)
{
	free(*slot);
	*slot = xstrdup(v);
}

/* pb-run's floor of peak memory, given at the head and again at the end
 * (it grows a little): the largest; a whole number of KiB. */
static void keep_larger(const struct stream *s, double *slot, const char *v)
{
	int64_t x;

	if (num_parse_i64(v, &x) != 0 || x < 1)
		stream_die(s, "maxrss_floor_kib is a whole number of KiB above 0, not '%s': this "
		           "is not pb-run's", v);
	if (isnan(*slot) || (double)x > *slot)
		*slot = (double)x;
}

static void raw_meta(void *ctx, const struct stream *s, const struct meta *m)
{
	struct study *r = ctx;

	(void)s;
	if (strcmp(m->key, "sequential") == 0 && strncmp(m->value, "stop after", 10) == 0)
		keep_last(&r->stop, m->value);
	else if (strcmp(m->key, "max_time") == 0)
		keep_last(&r->stop, m->value);
	else if (strcmp(m->key, "interrupted") == 0)
		keep_last(&r->interrupted, m->value);
	else if (strcmp(m->key, "failed") == 0)
		keep_last(&r->failed, m->value);
	else if (strcmp(m->key, "maxrss_floor_kib") == 0)
		keep_larger(s, &r->maxrss_floor_kib, m->value);
}

/* What arm X is, for a person: its command, its SQL, or the worker's. */
static char *arm_words(const struct study_head *h, char letter, const char *worker)
{
	char key[8], *w, *name;
	const char *v;

	snprintf(key, sizeof key, "cmd_%c", letter - 'A' + 'a');
	if ((v = study_head_str(h, key)))
		return meta_unescape(v);
	snprintf(key, sizeof key, "sql_%c", letter - 'A' + 'a');
	if ((v = study_head_str(h, key)))
		return meta_unescape(v);
	if (!worker)
		return xstrdup("?");
	name = meta_unescape(worker);
	w = xmalloc(strlen(name) + 32);
	sprintf(w, "%s (arm %c)", name, letter);
	free(name);
	return w;
}

/* The command of the delayed arm, and its busy-wait (pb-run --delay). */
static char *with_delay(char *what, double ns)
{
	char d[SIG_BUFSZ], *w = xmalloc(strlen(what) + SIG_BUFSZ + 16);

	sprintf(w, "%s + --delay %s", what, h4ns(d, ns));
	free(what);
	return w;
}

/* A count of the head, 0 when it has none. */
static long meta_long(const struct study_head *h, const char *key)
{
	int64_t v;

	return study_head_int(h, key, &v) == 1 && v >= LONG_MIN && v <= LONG_MAX ? (long)v : 0;
}

/* The arms and the comparisons, each candidate with the reference; a
 * head that names no such reference is refused (path: raw.tsv), as
 * pb-pair does: no study has a comparison with an arm it lacks. */
static void read_arms(struct study *r, const struct study_head *h, const char *path)
{
	const char *worker, *delay_arm;
	int k, ref, i, j;
	char rl;
	double delay = 0;

	study_head_arms(h, path, &k, &ref);
	rl = (char)('A' + ref);
	worker = study_head_str(h, "worker");
	r->narms = k;
	study_head_num(h, "delay_ns", &delay);
	delay_arm = study_head_str(h, "delay_arm");
	for (i = 0; i < k; i++) {
		r->arm[i].letter = (char)('A' + i);
		r->arm[i].what = arm_words(h, (char)('A' + i), worker);
		if (delay > 0 && delay_arm && delay_arm[0] == 'A' + i && !delay_arm[1])
			r->arm[i].what = with_delay(r->arm[i].what, delay);
		r->arm[i].median = r->arm[i].q1 = r->arm[i].q3 = NAN;
		r->arm[i].run_lo = r->arm[i].run_hi = NAN;
		for (j = 0; j < NUSE; j++)
			r->arm[i].use_median[j] = NAN;
	}
	r->ncmp = 0;
	for (i = 0; i < k; i++) {
		struct cmp_result *c;

		if ('A' + i == rl)
			continue;
		c = &r->cmp[r->ncmp++];
		memset(c, 0, sizeof *c);
		c->ref = rl;
		c->cand = (char)('A' + i);
		c->ratio = c->lo = c->hi = c->reduction = NAN;
		for (j = 0; j < NUSE; j++)
			c->use[j].ratio = c->use[j].lo = c->use[j].hi = NAN;
	}
}

static void read_raw(struct study *r, const char *dir)
{
	struct stream s;
	struct study_head h;
	char *path;
	long phase, run, last_run = -1, rows = 0;
	const char *v;

	if (!open_in_dir(&s, dir, "raw.tsv", &path))
		die("%s/raw.tsv: no such file: not a study directory of pb-compare", dir);
	stream_on_meta(&s, raw_meta, r);
	study_head_read(&h, &s, -1);
	read_arms(r, &h, path);
	v = study_head_str(&h, "mode");
	snprintf(r->mode, sizeof r->mode, "%s", v ? v : "?");
	r->pairs = meta_long(&h, "pairs");
	r->warmup = meta_long(&h, "warmup");
	r->runs_max = meta_long(&h, "runs");
	r->until = meta_dup(&h, "until");
	r->start = meta_dup(&h, "start");
	r->host = meta_dup(&h, "host");
	r->cpu = meta_dup(&h, "cpu");
	r->kernel = meta_dup(&h, "kernel");
	r->order = meta_dup(&h, "order");
	r->seed = meta_dup(&h, "seed");
	if ((v = study_head_str(&h, "maxrss_floor_kib")))
		keep_larger(&s, &r->maxrss_floor_kib, v);
	study_head_free(&h);
	phase = (long)stream_col(&s, "phase");
	run = (long)stream_col(&s, "run");
	while (stream_row(&s)) {
		if (strcmp(s.field[phase], "measure") != 0)
			continue;
		rows++;
		if (atol(s.field[run]) != last_run)
			r->runs++, last_run = atol(s.field[run]);
	}
	r->pairs_total = rows / r->narms;
	close_in(&s, path);
}


/* --- pairs.tsv and runs.tsv: each arm's times -------------------------- */

struct column {
	double *x;
	size_t n, cap;
};

static void column_add(struct column *c, double x)
{
	xgrow(&c->x, &c->cap, c->n + 1, sizeof *c->x);
	c->x[c->n++] = x;
}

static void arm_times(struct arm_result *a, struct column *c)
{
	if (c->n == 0)
		return;
	a->n = (long)c->n;
	a->q1 = stat_quantile(c->x, c->n, 0.25);
	a->q3 = stat_quantile(c->x, c->n, 0.75);
	a->median = stat_median(c->x, c->n);
}

/* The columns of pairs.tsv read per arm: the time, then CPU time and
 * peak memory where they are there (-1 when not). */
enum { PAIR_TIME, NPAIRCOL = 1 + NUSE };

static void pair_columns(const struct stream *s, long a[NPAIRCOL], long b[NPAIRCOL])
{
	int k;

	a[PAIR_TIME] = (long)stream_col(s, "a");
	b[PAIR_TIME] = (long)stream_col(s, "b");
	for (k = 0; k < NUSE; k++) {
		a[1 + k] = stream_col_find(s, use_kinds[k].a);
		b[1 + k] = stream_col_find(s, use_kinds[k].b);
		if (a[1 + k] < 0 || b[1 + k] < 0)
			a[1 + k] = b[1 + k] = -1;
	}
}

static void read_pairs(struct study *r, const char *dir)
{
	struct column col[ARMS_MAX][NPAIRCOL];
	struct stream s;
	char *path;
	long acol[NPAIRCOL], bcol[NPAIRCOL], armcol, ri;
	int i, k, first = -1;
	const struct arm_result *ref = r->ncmp ? arm_of(r, r->cmp[0].ref) : NULL;

	if (!ref || !open_in_dir(&s, dir, "pairs.tsv", &path))
		return;
	ri = ref - r->arm;
	memset(col, 0, sizeof col);
	pair_columns(&s, acol, bcol);
	armcol = stream_col_find(&s, "arm");
	while (stream_row(&s)) {
		struct arm_result *cand = arm_of(r, row_cand(&s, armcol, r));
		int ci;

		if (!cand)
			continue;
		ci = (int)(cand - r->arm);
		if (first < 0)
			first = ci;
		for (k = 0; k < NPAIRCOL; k++) {
			if (acol[k] < 0)
				continue;
			column_add(&col[ci][k], stream_num(&s, (size_t)bcol[k]));
			/* the reference's once: from the rows of one candidate */
			if (ci == first)
				column_add(&col[ri][k], stream_num(&s, (size_t)acol[k]));
		}
	}
	close_in(&s, path);
	for (i = 0; i < r->narms; i++) {
		arm_times(&r->arm[i], &col[i][PAIR_TIME]);
		for (k = 0; k < NUSE; k++)
			if (col[i][1 + k].n)
				r->arm[i].use_median[k] = stat_median(col[i][1 + k].x, col[i][1 + k].n);
		for (k = 0; k < NPAIRCOL; k++)
			free(col[i][k].x);
	}
}

static void widen(double *lo, double *hi, double x)
{
	if (isnan(*lo) || x < *lo)
		*lo = x;
	if (isnan(*hi) || x > *hi)
		*hi = x;
}

static void read_runs(struct study *r, const char *dir)
{
	struct stream s;
	struct study_head h;
	char *path;
	long acol, bcol, armcol;
	char first = 0;

	if (!open_in_dir(&s, dir, "runs.tsv", &path))
		return;
	/* the per-run statistic, as the by-run step reduced each run */
	study_head_read(&h, &s, -1);
	if (study_head_str(&h, KEY_PAIR_STAT)) {
		free(r->stat);
		r->stat = xstrdup(study_head_str(&h, KEY_PAIR_STAT));
	}
	study_head_free(&h);
	acol = (long)stream_col(&s, "a");
	bcol = (long)stream_col(&s, "b");
	armcol = stream_col_find(&s, "arm");
	while (stream_row(&s)) {
		char c = row_cand(&s, armcol, r);
		struct arm_result *cand = arm_of(r, c), *ref;

		if (!cand || !r->ncmp)
			continue;
		ref = arm_of(r, r->cmp[0].ref);
		widen(&cand->run_lo, &cand->run_hi, stream_num(&s, (size_t)bcol));
		if (!first)
			first = c;
		if (c == first && ref)
			widen(&ref->run_lo, &ref->run_hi, stream_num(&s, (size_t)acol));
	}
	close_in(&s, path);
}

/* --- tint.tsv: the intervals, verdicts and findings --------------------- */

struct findings {
	char **v;
	size_t n, cap;
};

static void tint_meta(void *ctx, const struct stream *s, const struct meta *m)
{
	struct findings *f = ctx;

	(void)s;
	if (strcmp(m->key, "finding") != 0)
		return;
	xgrow(&f->v, &f->cap, f->n + 1, sizeof *f->v);
	f->v[f->n++] = xstrdup(m->value);
}

/* A ratio is positive, within its interval: pb-tint writes no other, and
 * the summary would tell a wrong story of any other. */
static void check_ratio(const struct stream *s, const char *what, double ratio, double lo,
                        double hi)
{
	if (!(ratio > 0 && isfinite(ratio) && isfinite(1 / ratio)))
		stream_die(s, "a %s ratio that is not a positive number: this is not pb-tint's "
		           "output", what);
	if (lo < 0 || hi < 0)
		stream_die(s, "a %s ratio below 0: this is not pb-tint's output", what);
	if (lo > ratio || ratio > hi || lo > hi)
		stream_die(s, "the %s ratio lies outside its interval: this is not pb-tint's output",
		           what);
}

/* pb-tint's margin, a percentage it would take, or its stream refused:
 * the gate's exit status rests on it. */
static void read_tolerance(const struct stream *s, const struct study_head *h, struct study *r)
{
	const char *v = study_head_str(h, KEY_TINT_TOLERANCE);
	char b[MSG_CUT_BUF];

	if (!v)
		return;
	if (num_parse(v, &r->tolerance) < 0 || !tol_pct_ok(r->tolerance))
		stream_die(s, "'# " KEY_TINT_TOLERANCE ": %s' is not a percentage above 0 and below "
		           "100: this is not pb-tint's output", msg_cut(b, v));
}

/* A verdict against the margin is what the interval gives (lib/seq's
 * tol_verdict, as pb-tint decides it): the answer's first line is the
 * verdict, the gate's exit status the interval. */
static void check_tolerance_verdict(const struct stream *s, const struct study *r,
                                    const struct cmp_result *c)
{
	char b[MSG_CUT_BUF];

	if (!(r->tolerance > 0) || isnan(c->lo) || isnan(c->hi))
		return;
	if (strcmp(c->verdict, tol_verdict_names[tol_verdict(c->lo, c->hi, r->tolerance)]) != 0)
		stream_die(s, "the verdict '%s' is not what the interval gives against the %g%% "
		           "tolerance: this is not pb-tint's output", msg_cut(b, c->verdict),
		           r->tolerance);
}

static void read_tint(struct study *r, const char *dir)
{
	struct findings f = { NULL, 0, 0 };
	struct stream s;
	struct study_head h;
	char *path;
	long armcol, ratio, lo, hi, red, verdict;
	const char *v;
	size_t i, row = 0;

	if (!open_in_dir(&s, dir, "tint.tsv", &path))
		return;
	stream_on_meta(&s, tint_meta, &f);
	study_head_read(&h, &s, -1);
	study_head_num(&h, KEY_TINT_LEVEL, &r->level);
	study_head_num(&h, KEY_TINT_THRESHOLD, &r->threshold);
	read_tolerance(&s, &h, r);
	v = study_head_str(&h, KEY_TINT_METHOD);
	/* an older pb-tint wrote its sentence there, "confidence sequence (...)":
	 * its first word, or a study directory of then would read as a CI */
	r->sequence = v && (strcmp(v, METHOD_SEQUENCE) == 0 || strncmp(v, "confidence ", 11) == 0);
	v = study_head_str(&h, "seq_kind");
	r->median = r->sequence && v && strcmp(v, "median") == 0;
	study_head_free(&h);
	armcol = stream_col_find(&s, "arm");
	ratio = stream_col_find(&s, "ratio");
	lo = stream_col_find(&s, "ratio_lo");
	hi = stream_col_find(&s, "ratio_hi");
	red = stream_col_find(&s, "reduction");
	verdict = stream_col_find(&s, "verdict");
	while (stream_row(&s)) {
		struct cmp_result *c = cmp_of(r, row_cand(&s, armcol, r));

		row++;
		if (!c)
			continue;
		c->have = 1;
		c->ratio = field_num(&s, ratio);
		c->lo = field_num(&s, lo);
		c->hi = field_num(&s, hi);
		c->reduction = field_num(&s, red);
		check_ratio(&s, "time", c->ratio, c->lo, c->hi);
		if (verdict >= 0)
			snprintf(c->verdict, sizeof c->verdict, "%s", s.field[verdict]);
		check_tolerance_verdict(&s, r, c);
	}
	close_in(&s, path);
	/* one finding per row, in the rows' order */
	for (i = 0; i < f.n; i++) {
		if (i < (size_t)r->ncmp && i < row && !r->cmp[i].finding)
			r->cmp[i].finding = f.v[i];
		else
			free(f.v[i]);
	}
	free(f.v);
}

/* hosts.tsv: pb-tint --unit host's row of the hosts and its finding */
void study_read_hosts(struct hosts_result *h, const char *dir)
{
	struct findings f = { NULL, 0, 0 };
	struct stream s;
	char *path;
	long row, n, ratio, lo, hi, plo, phi, i2;
	size_t i;

	memset(h, 0, sizeof *h);
	if (!open_in_dir(&s, dir, "hosts.tsv", &path))
		return;
	stream_on_meta(&s, tint_meta, &f);
	row = (long)stream_col(&s, "row");
	n = (long)stream_col(&s, "n");
	ratio = (long)stream_col(&s, "ratio_mu");
	lo = (long)stream_col(&s, "mu_lo");
	hi = (long)stream_col(&s, "mu_hi");
	plo = (long)stream_col(&s, "ratio_pred_lo");
	phi = (long)stream_col(&s, "ratio_pred_hi");
	i2 = (long)stream_col(&s, "i2");
	while (stream_row(&s)) {
		if (strcmp(s.field[row], "hosts") != 0 || h->have)
			continue;
		h->have = 1;
		h->n = (long)field_num(&s, n);
		h->ratio = field_num(&s, ratio);
		h->lo = exp(field_num(&s, lo));
		h->hi = exp(field_num(&s, hi));
		h->pred_lo = field_num(&s, plo);
		h->pred_hi = field_num(&s, phi);
		h->i2 = field_num(&s, i2);
		check_ratio(&s, "host-level", h->ratio, h->lo, h->hi);
		check_ratio(&s, "host-level", h->ratio, h->pred_lo, h->pred_hi);
	}
	close_in(&s, path);
	for (i = 0; i < f.n; i++) {
		if (!h->finding)
			h->finding = f.v[i];
		else
			free(f.v[i]);
	}
	free(f.v);
	path = path_in(dir, "hosts.svg");
	h->picture = h->have && is_regular_file(path);
	free(path);
}

/* tint-cpu.tsv or tint-memory.tsv: the ratios of what else was measured
 * (the level and the kind of interval are the time's: the same steps). */
static void read_use(struct study *r, const char *dir, int k)
{
	struct stream s;
	char *path;
	long armcol, ratio, lo, hi;

	if (!open_in_dir(&s, dir, use_kinds[k].tint, &path))
		return;
	if (k < NUSE_PROCESS)
		r->have_use = 1;
	else
		r->have_tree = 1;
	armcol = stream_col_find(&s, "arm");
	ratio = stream_col_find(&s, "ratio");
	lo = stream_col_find(&s, "ratio_lo");
	hi = stream_col_find(&s, "ratio_hi");
	while (stream_row(&s)) {
		struct cmp_result *c = cmp_of(r, row_cand(&s, armcol, r));
		struct ratio_ci *u;

		if (!c)
			continue;
		u = &c->use[k];
		u->have = 1;
		u->ratio = field_num(&s, ratio);
		u->lo = field_num(&s, lo);
		u->hi = field_num(&s, hi);
		check_ratio(&s, use_kinds[k].name, u->ratio, u->lo, u->hi);
	}
	close_in(&s, path);
}

/* --- check.tsv: the warnings ------------------------------------------ */

static void read_check(struct study *r, const char *dir)
{
	struct study_checks c;
	char *path = path_in(dir, "check.tsv");
	size_t cap = 0, i;

	if (!is_regular_file(path)) {
		free(path);
		return;
	}
	study_checks_read(&c, path, path);
	for (i = 0; i < c.n; i++) {
		const struct study_check_row *row = &c.row[i];
		char *w;

		r->checks++;
		if (strcmp(row->status, "warn") != 0)
			continue;
		w = xmalloc(strlen(row->arm) + strlen(row->note) + 3);
		if (*row->arm)
			sprintf(w, "%s: %s", row->arm, row->note);
		else
			strcpy(w, row->note);
		xgrow(&r->warnings, &cap, r->nwarn + 1, sizeof *r->warnings);
		r->warnings[r->nwarn++] = w;
	}
	study_checks_free(&c);
	free(path);
}

/* --- pilot.tsv and plan.tsv: what the plan was made from --------------- */

static void read_plan(struct study *r, const char *dir)
{
	struct stream s;
	struct study_head h;
	struct study_plan p;
	char *path;

	if (!open_in_dir(&s, dir, "pilot.tsv", &path))
		return;
	r->have_pilot = 1;
	study_head_read(&h, &s, -1);
	r->pilot_runs = meta_long(&h, "runs");
	r->pilot_pairs = meta_long(&h, "pairs");
	r->pilot_warmup = meta_long(&h, "warmup");
	study_head_free(&h);
	close_in(&s, path);
	r->pair_cost = r->run_cost = r->sd_between = r->sd_within = NAN;
	path = path_in(dir, "plan.tsv");
	if (is_regular_file(path)) {
		study_plan_read(&p, path);
		r->pair_cost = p.pair_ns;
		r->run_cost = p.run_ns;
		r->sd_between = sqrt(p.sigma2_between);
		r->sd_within = sqrt(p.sigma2_within);
		if (p.runs > 0)   /* the current row's: the pilot's runs used */
			r->pilot_runs = p.runs;
		r->kj_pairs = p.kj_pairs;
	}
	free(path);
}

/* --- tighter.tsv: what a tighter answer would cost -------------------- */

static int whole_count(double x)
{
	return x >= 1 && x <= 1e9 && x == floor(x);
}

/* pb-plan's best design, as it writes one: whole runs and pairs, a cost
 * of a finite time, a target and a bound between 0 and 1. */
static void check_tighter(const struct stream *s, const struct study *r)
{
	if (!whole_count(r->tighter_runs) || !whole_count(r->tighter_pairs))
		stream_die(s, "runs and pairs are whole numbers from 1 to 1e9: this is not "
		           "pb-plan's output");
	if (!(r->tighter_total_ns > 0 && r->tighter_total_ns < 1e21))
		stream_die(s, "total_s is a time above 0 and below 1e12 s: this is not pb-plan's "
		           "output");
	/* a bound of 225 % is a share of 2.25; a target a log ratio, half
	 * the bound's: log1p(bound / 2), below 710 for any finite bound (a
	 * very noisy study of two runs can bound the difference by 1e6 %) */
	if (!(r->tighter_target > 0 && r->tighter_target < 710) ||
	    !(r->tighter_bound > 0 && isfinite(r->tighter_bound)))
		stream_die(s, "a best design needs '# " KEY_PLAN_TARGET ":' and '# "
		           KEY_PLAN_TIGHTER ":' above 0 (a log ratio, a share): this is not "
		           "pb-plan's output");
}

static void read_tighter(struct study *r, const char *dir)
{
	struct stream s;
	struct study_head h;
	char *path;
	size_t plan, runs, pairs, total;

	r->tighter_bound = r->tighter_target = r->tighter_runs = NAN;
	r->tighter_pairs = r->tighter_total_ns = r->tighter_current_ns = NAN;
	if (!open_in_dir(&s, dir, "tighter.tsv", &path))
		return;
	study_head_read(&h, &s, -1);
	study_head_num(&h, KEY_PLAN_TIGHTER, &r->tighter_bound);   /* "none": NAN stays */
	study_head_num(&h, KEY_PLAN_TARGET, &r->tighter_target);
	study_head_free(&h);
	plan = stream_col(&s, "plan");
	runs = stream_col(&s, "runs");
	pairs = stream_col(&s, "pairs");
	total = stream_col(&s, "total_s");
	while (stream_row(&s)) {
		if (strcmp(s.field[plan], "current") == 0) {   /* the study's own runs */
			double t = field_num(&s, (long)total) * 1e9;

			r->tighter_current_ns = t > 0 && t < 1e21 ? t : NAN;
		}
		if (strcmp(s.field[plan], "best") != 0 || !isnan(r->tighter_runs))
			continue;
		r->tighter_runs = field_num(&s, (long)runs);
		r->tighter_pairs = field_num(&s, (long)pairs);
		r->tighter_total_ns = field_num(&s, (long)total) * 1e9;
		check_tighter(&s, r);
	}
	close_in(&s, path);
	if (isnan(r->tighter_runs))   /* no design: no target either */
		r->tighter_target = NAN;
}

/* --- sense.tsv: what --calibrate found -------------------------------- */

/* The smallest delay from which on every larger one tried was resolved:
 * by pb-sense's t analysis when it has one (the per-run analysis this
 * summary reads), else every run saw it and the pooled interval is
 * above 0. */
static void read_sense(struct study *r, const char *dir)
{
	struct stream s;
	char *path;
	long delay, runs, seen, lo, t_res;
	double *d = NULL;
	int *ok = NULL;
	size_t n = 0, cap = 0, cap2 = 0, i, j;

	r->resolves_ns = r->sense_max_ns = NAN;
	if (!open_in_dir(&s, dir, "sense.tsv", &path))
		return;
	r->have_sense = 1;
	delay = (long)stream_col(&s, "delay_ns");
	runs = (long)stream_col(&s, "runs");
	seen = (long)stream_col(&s, "seen");
	lo = (long)stream_col(&s, "lo");
	t_res = stream_col_find(&s, "t_resolved");
	while (stream_row(&s)) {
		xgrow(&d, &cap, n + 1, sizeof *d);
		xgrow(&ok, &cap2, n + 1, sizeof *ok);
		d[n] = stream_num(&s, (size_t)delay);
		ok[n] = t_res >= 0 ? strcmp(s.field[t_res], "1") == 0
		      : strcmp(s.field[seen], s.field[runs]) == 0 && field_num(&s, lo) > 0;
		n++;
	}
	close_in(&s, path);
	for (i = 0; i < n; i++) {   /* by delay */
		for (j = i; j > 0 && d[j - 1] > d[j]; j--) {
			double t = d[j];
			int o = ok[j];

			d[j] = d[j - 1], ok[j] = ok[j - 1];
			d[j - 1] = t, ok[j - 1] = o;
		}
	}
	for (i = n; i > 0 && d[i - 1] > 0 && ok[i - 1]; i--)
		r->resolves_ns = d[i - 1];
	if (n && d[n - 1] > 0)
		r->sense_max_ns = d[n - 1];
	free(d);
	free(ok);
}

void study_read(struct study *r, const char *dir)
{
	char *p;
	int i;

	memset(r, 0, sizeof *r);
	r->dir = xstrdup(dir);
	r->threshold = NAN;
	r->tolerance = NAN;
	r->level = 0.95;
	r->stat = xstrdup("median");
	r->maxrss_floor_kib = NAN;
	read_raw(r, dir);
	read_pairs(r, dir);
	read_runs(r, dir);
	read_tint(r, dir);
	study_read_hosts(&r->hosts, dir);
	for (i = 0; i < NUSE; i++)
		read_use(r, dir, i);
	read_check(r, dir);
	read_plan(r, dir);
	read_tighter(r, dir);
	read_sense(r, dir);
	r->pictures = 1;
	for (i = 0; i < 3; i++) {
		p = path_in(dir, i == 0 ? "runs.svg" : i == 1 ? "trend.svg" : "pairs.svg");
		r->pictures &= is_regular_file(p);
		free(p);
	}
	p = path_in(dir, "sense.svg");
	r->sense_picture = is_regular_file(p);
	free(p);
}

void study_free(struct study *r)
{
	int i;
	size_t j;

	for (i = 0; i < r->narms; i++)
		free(r->arm[i].what);
	for (i = 0; i < r->ncmp; i++)
		free(r->cmp[i].finding);
	for (j = 0; j < r->nwarn; j++)
		free(r->warnings[j]);
	free(r->warnings);
	free(r->dir), free(r->stop), free(r->interrupted), free(r->failed), free(r->until);
	free(r->stat), free(r->start), free(r->host), free(r->cpu), free(r->kernel);
	free(r->order), free(r->seed), free(r->hosts.finding);
	memset(r, 0, sizeof *r);
}

/* --- a study's arms and comparisons ------------------------------------ */

/* Whether an arm's peak memory is pb-run's floor, not its own: a
 * forked process's maxrss starts from what it holds before its exec,
 * which the last maxrss_floor_kib of raw.tsv measures; what the command
 * itself used is then not measured. */
int study_arm_at_floor(const struct study *s, const struct arm_result *a)
{
	double m = a->use_median[USE_MEMORY], f = s->maxrss_floor_kib;

	/* a child forked in the loop holds more than the probe's: the libc
	 * code it runs on to its exec is mapped in (64 KiB at each fault),
	 * and Linux reads a peak from per-CPU counters that lag by up to a
	 * few hundred KiB (a static no-op: wait4 548 KiB where its own VmHWM
	 * said 696); a static no-op's median was 1.09 to 1.32 times the last
	 * probe's in eight studies here. A little below it, the probe was
	 * taken later than the spawn, when pb-run had grown. */
	return !isnan(f) && m <= 1.5 * f && m >= 0.95 * f;
}

const struct arm_result *study_arm(const struct study *s, char letter)
{
	int i;

	for (i = 0; i < s->narms; i++)
		if (s->arm[i].letter == letter)
			return &s->arm[i];
	return NULL;
}

double study_reference_median(const struct study *s)
{
	int i;

	for (i = 0; i < s->narms; i++)
		if (s->ncmp && s->arm[i].letter == s->cmp[0].ref)
			return s->arm[i].median;
	return NAN;
}

const struct cmp_result *study_cmp(const struct study *s, char arm)
{
	int i;

	for (i = 0; i < s->ncmp; i++)
		if (s->cmp[i].cand == arm)
			return &s->cmp[i];
	return NULL;
}

/* --- the verdict in words ------------------------------------------- */

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
const char *use_words(const struct ratio_ci *u)
{
	return ci_words(u->have, u->lo, u->hi, "less", "more");
}

int cmp_slower_than(const struct cmp_result *c, double ratio)
{
	return bounded(c) && c->hi < 1 / ratio;
}

int cmp_not_slower_beyond(const struct cmp_result *c, double pct)
{
	enum tol_verdict v;

	if (!bounded(c))
		return 0;
	v = tol_verdict(c->lo, c->hi, pct);
	return v == TOL_EQUIVALENT || v == TOL_FASTER || v == TOL_NOT_SLOWER;
}

int study_has_use(const struct study *s, int k)
{
	return k < NUSE_PROCESS ? s->have_use : s->have_tree;
}
