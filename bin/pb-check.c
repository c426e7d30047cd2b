/* pb-check: read the evidence of a pair stream before its interval is
 * trusted; one row per check (lib/check.c does them). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "err.h"
#include "group.h"
#include "keys.h"
#include "num.h"
#include "opt.h"
#include "out.h"
#include "stream.h"
#include "strmap.h"
#include "study.h"

static const char usage[] =
	"usage: pb-check [options] [FILE...]\n"
	"Check a pair stream (pb-pair's, not --by-run) before trusting its interval:\n"
	"the order of the arms, a position effect (in a duet: the CPUs), carry-over,\n"
	"drift across runs, the warm-up, outlier runs, partial runs, per-arm medians\n"
	"under a changing load, the spread of each arm, the shape of the runs' ratios,\n"
	"the machine (CPU pressure, the governor), and whether the hosts of a merged\n"
	"study disagree beyond their runs. One row per check: check status\n"
	"value lo hi unit note, status ok, warn or n/a. A study of more than two arms\n"
	"(an arm column) is checked per candidate, and each arm's places in the pairs\n"
	"are checked.\n";

static const struct pb_opt options[] = {
	{ "level", 'l', 0, "L", NULL, "intervals that decide a warning (default 0.99)", NULL, 0 },
	{ "position-share", 'p', 0, "F", NULL,
	  "position (a duet: duet_cpu) warns beyond F x the\neffect (default 0.25)", NULL, 0 },
	{ "warmup-share", 'w', 0, "F", NULL,
	  "the first part of each run checked (default 0.1)", NULL, 0 },
	{ "warmup-min", 'm', 0, "F", NULL,
	  "the least level change that warns (default 0.01)", NULL, 0 },
	{ "fence", 'f', 0, "K", NULL,
	  "outlier runs lie K IQRs beyond the quartiles (default:\n"
	  "the fence normal runs cross in 1 - level of studies)", NULL, 0 },
	{ "spread-ratio", 'r', 0, "R", NULL,
	  "spread warns at an IQR ratio of R or 1/R (default 1.25)", NULL, 0 },
	{ "resamples", 'B', 0, "B", NULL,
	  "bootstrap resamples of the bimodal check (default 400)", NULL, 0 },
	{ "seed", 'S', 0, "N", NULL, "their seed (default 1)", NULL, 0 },
	{ "stat", 'T', 0, "S", "median mean min lr-median p90 p99",
	  "each run's statistic for skew (default: the head's\n# seq_stat:, else median)", NULL, 0 },
	{ "pressure", 'P', 0, "PCT", NULL,
	  "env warns when the median run's CPU pressure is\nPCT % or more (default 10)", NULL, 0 },
	{ "strict", 's', 0, NULL, NULL, "exit 3 when a check warns", NULL, 0 },
	{ NULL, 0, 0, NULL, NULL, NULL, NULL, 0 },
};
static const struct pb_cmd cmd = { usage, options, 23, NULL, 0 };

enum { EXIT_WARNED = 3 };

static double opt_between(const char *name, const char *val, double lo, double hi,
                          const char *what)
{
	double v = opt_num(name, val);

	if (!(v > lo && v < hi))
		die_usage("--%s wants %s, not '%s'", name, what, val);
	return v;
}

static int parse_args(int argc, char **argv, struct check_opts *o)
{
	int c, strict = 0;

	check_defaults(o);
	while ((c = pb_getopt(argc, argv, &cmd)) != -1) {
		switch (c) {
		case 'l': o->level = opt_level("level", optarg); break;
		case 'p': o->position_share = opt_between("position-share", optarg, 0, 1e300,
			                                      "a number above 0 (0.25)"); break;
		case 'w': o->warmup_share = opt_between("warmup-share", optarg, 0, 0.5,
			                                    "a share above 0 and below 0.5 (0.1)"); break;
		case 'm': o->warmup_min = opt_between("warmup-min", optarg, -1e-300, 1e300,
			                                  "a share of 0 or more (0.01)"); break;
		case 'f': o->fence = opt_between("fence", optarg, 0, 1e300,
			                             "a number of IQRs above 0 (such as 3)"); break;
		case 'r': o->spread_ratio = opt_between("spread-ratio", optarg, 1, 1e300,
			                                    "a ratio above 1 (1.25)"); break;
		case 'B': o->resamples = opt_count("resamples", optarg, 1000000L);
			if (o->resamples < 2)
				die_usage("--resamples wants at least 2, not '%s'", optarg);
			break;
		case 'S': o->seed = opt_seed("seed", optarg); break;
		case 'T': run_stat_parse(&o->stat, "stat", optarg), o->stat_given = 1; break;
		case 'P': o->pressure = opt_between("pressure", optarg, 0, 1e300,
			                                "a percentage above 0 (10)"); break;
		case 's': strict = 1; break;
		}
	}
	return strict;
}

/* The pairs of one comparison (one value of the arm column), as read. */
struct pairs_read {
	struct pair_at {
		struct check_pair p;
		int64_t run;
		int file;
		long line;
	} *v;
	size_t n, cap;
};

struct state {
	struct stream s;
	struct study_head head;  /* the design, read by every check */
	struct check_opts o;
	struct check_design d;
	struct check_events ev;
	struct strmap arms;
	struct pairs_read *by_arm;
	size_t arm_cap;
	size_t c_run, c_pair, c_first, c_a, c_b;
	long c_arm, c_pos_a, c_pos_b, c_cpu_a, c_cpu_b;
	const char *ref;         /* the reference's letter */
	char stat_word[32];      /* the head's # seq_stat:, its first word */
};

/* An event's text for a note: at most 200 bytes ("..." where cut), and no
 * byte that would end a field or a line. */
static char *event_text(const char *key, const char *value)
{
	size_t n = msg_cut_len(value, 200), k = strlen(key), i;
	char *t = xmalloc(k + n + 6);

	memcpy(t, key, k);
	memcpy(t + k, ": ", 2);
	memcpy(t + k + 2, value, n);
	strcpy(t + k + 2 + n, value[n] ? "..." : "");
	for (i = 0; t[i]; i++)
		if ((unsigned char)t[i] < 0x20)
			t[i] = ' ';
	return t;
}

/* "# run_end: R ... psi_run=Q": R and Q kept, when R is a run number and
 * Q a share of time, 0 to 100; which of them count is check_env's. */
static void take_psi(struct check_events *ev, const char *value)
{
	struct word w = study_word(value, RUN_END_PSI);
	char b[NUM_BUFSZ];
	size_t k = strcspn(value, " ");
	int64_t run;
	double v;

	if (!w.len || w.len >= sizeof b || !k || k >= sizeof b)
		return;
	memcpy(b, value, k);
	b[k] = '\0';
	if (num_parse_i64(b, &run) < 0 || run < 1)
		return;
	memcpy(b, w.p, w.len);
	b[w.len] = '\0';
	if (num_parse(b, &v) < 0 || !(v >= 0 && v <= 100))
		return;
	xgrow(&ev->psi, &ev->psi_cap, ev->npsi + 1, sizeof *ev->psi);
	ev->psi[ev->npsi++] = (struct check_psi){ run, v };
}

/* A "# run:" line's host, for the hosts check; a merged study's runs
 * name their machines there (pb(7)). */
static void take_host(struct check_events *ev, const char *value)
{
	struct run_comment rc;
	char *h;

	if (run_comment_parse(value, &rc) < 0 || !(h = run_comment_host(&rc)))
		return;
	xgrow(&ev->hosts, &ev->hosts_cap, ev->nhosts + 1, sizeof *ev->hosts);
	ev->hosts[ev->nhosts++] = (struct check_host){ rc.run, h };
}

/* Metadata met anywhere, head or rows: what stopped a run, what pb-pair
 * dropped, the CPU pressure and the host of each run. */
static void on_meta(void *ctx, const struct stream *s, const struct meta *m)
{
	struct check_events *ev = ctx;

	(void)s;
	if (strcmp(m->key, "failed") == 0 || strcmp(m->key, "run_ended") == 0 ||
	    strcmp(m->key, "interrupted") == 0) {
		if (ev->n < CHECK_EVENTS_KEPT)
			ev->text[ev->n++] = event_text(m->key, m->value);
		else
			ev->more++;
	} else if (strcmp(m->key, KEY_RUN_END) == 0) {
		take_psi(ev, m->value);
	} else if (strcmp(m->key, "run") == 0) {
		take_host(ev, m->value);
	} else if (strcmp(m->key, KEY_PAIR_FAILED) == 0) {
		int64_t v;
		long n = num_parse_i64(m->value, &v) < 0 || v < 0 ? 0 : v > LONG_MAX ? LONG_MAX
		         : (long)v;

		if (n > 0)
			ev->failed_pairs = n > LONG_MAX - ev->failed_pairs ? LONG_MAX
			                   : ev->failed_pairs + n;
	}
}

static int64_t head_int(const struct study_head *h, const char *key, int64_t absent)
{
	int64_t n;

	return study_head_int(h, key, &n) == 1 ? n : absent;
}

/* skew reads each run as pb-run --until did: by the head's statistic
 * (its first word: an older pb-run added words), unless --stat says. */
static void head_stat(struct state *st)
{
	const char *v = st->d.seq_stat;
	size_t len;
	char b[MSG_CUT_BUF];

	if (st->o.stat_given || !v)
		return;
	len = strcspn(v, " ");
	if (len >= sizeof st->stat_word)
		len = sizeof st->stat_word - 1;
	memcpy(st->stat_word, v, len);
	st->stat_word[len] = '\0';
	if (run_stat_read(&st->o.stat, st->stat_word) < 0)
		die("%s: '# %s: %s' is not a statistic pb-pair --by-run --stat takes", st->s.name,
		    KEY_RUN_SEQ_STAT, msg_cut(b, v));
}

static void read_design(struct state *st)
{
	const struct study_head *h = &st->head;
	const char *arm;
	int64_t k;

	study_head_read(&st->head, &st->s, -1);
	arm = study_head_str(h, "delay_arm");
	k = head_int(h, "arms", 2);
	st->d.pairs = head_int(h, "pairs", -1);
	st->d.warmup = head_int(h, "warmup", -1);
	st->d.order = study_head_str(h, "order");
	st->d.pairing = study_head_str(h, "pairing");
	st->d.governor = study_head_str(h, KEY_MACHINE_GOVERNOR);
	st->d.duet = study_head_duet(h);
	if (!st->d.duet || !study_head_duet_cpus(h, st->s.name, st->d.cpu))
		st->d.cpu[0] = st->d.cpu[1] = -1;
	/* a study stopped by a sequence (# until:) says which, as pb-tint reads it */
	st->d.seq_kind = study_head_str(h, "until") ? study_head_str(h, "seq_kind") : NULL;
	if (st->d.seq_kind && strcmp(st->d.seq_kind, "t") != 0 &&
	    strcmp(st->d.seq_kind, "median") != 0) {
		char b[MSG_CUT_BUF];

		die("%s: '# seq_kind: %s' is not t or median (as pb-run --sequence takes)", st->s.name,
		    msg_cut(b, st->d.seq_kind));
	}
	st->d.seq_stat = study_head_str(h, KEY_RUN_SEQ_STAT);
	st->d.delay_ns = head_int(h, "delay_ns", 0);
	st->d.delay_arm = arm && arm[0] >= 'A' && arm[0] <= 'Z' && !arm[1] ? arm[0] : 'B';
	st->d.arms = k >= 2 && k <= 26 ? (int)k : 2;
	st->ref = st->c_arm >= 0 ? group_reference(&st->s) : "A";
	st->d.ref = st->ref;
	st->d.cand = "B";
}

/* A place in the pair, 1 to the head's arms; 0 (together) in a duet. */
static int place(const struct state *st, long col)
{
	const struct stream *s = &st->s;
	int64_t v;
	char b[MSG_CUT_BUF];

	if (col < 0)
		return 0;
	if (st->d.duet && (num_parse_i64(s->field[col], &v) < 0 || v != 0))
		stream_die(s, "column '%s': 0 in a duet study (# order: duet), got '%s'", s->col[col],
		           msg_cut(b, s->field[col]));
	if (!st->d.duet && (num_parse_i64(s->field[col], &v) < 0 || v < 1 || v > st->d.arms))
		stream_die(s, "column '%s': a place in the pair, 1 to %d, got '%s'", s->col[col],
		           st->d.arms, msg_cut(b, s->field[col]));
	return (int)v;
}

static int64_t whole_at_least(const struct stream *s, size_t col, int64_t min, const char *what)
{
	int64_t v;
	char b[MSG_CUT_BUF];

	if (num_parse_i64(s->field[col], &v) < 0 || v < min)
		stream_die(s, "column '%s': %s, got '%s'", s->col[col], what, msg_cut(b, s->field[col]));
	return v;
}

/* Of a duet's pair: 1 when the reference had the first CPU of the head's
 * # duet_cpus:, 0 the second; -1 when the input does not say. */
static int reference_cpu(const struct state *st)
{
	const struct stream *s = &st->s;
	const int64_t *cpu = st->d.cpu;
	int64_t a, b;

	if (!st->d.duet || st->c_cpu_a < 0 || st->c_cpu_b < 0 || cpu[0] < 0)
		return -1;
	a = whole_at_least(s, (size_t)st->c_cpu_a, 0, "a CPU number, a whole number >= 0");
	b = whole_at_least(s, (size_t)st->c_cpu_b, 0, "a CPU number, a whole number >= 0");
	if (!(a == cpu[0] && b == cpu[1]) && !(a == cpu[1] && b == cpu[0]))
		stream_die(s, "cpu_a %lld and cpu_b %lld: a duet pins its arms to the head's "
		           "# duet_cpus: %lld and %lld, one each", (long long)a, (long long)b,
		           (long long)cpu[0], (long long)cpu[1]);
	return a == cpu[0];
}

/* Which ran first: 1 the reference; 0 in a duet, where first is '='. */
static int reference_first(const struct state *st, const char *key)
{
	const struct stream *s = &st->s;
	const char *first = s->field[st->c_first];
	char b[MSG_CUT_BUF], b2[MSG_CUT_BUF];

	if (st->d.duet != (strcmp(first, "=") == 0))
		stream_die(s, "column 'first': %s, got '%s'", st->d.duet ? "'=' in a duet study "
		           "(# order: duet), whose arms ran together" : "'=' (together) belongs to a "
		           "duet study, and the head's order is not duet", msg_cut(b, first));
	if (st->d.duet)
		return 0;
	if (st->c_arm < 0 && ((first[0] != 'A' && first[0] != 'B') || first[1]))
		stream_die(s, "column 'first': A or B, got '%s'", msg_cut(b, first));
	if (st->c_arm >= 0 && strcmp(first, st->ref) != 0 && strcmp(first, key) != 0)
		stream_die(s, "column 'first': %s or %s (the reference or the arm), got '%s'",
		           st->ref, msg_cut(b2, key), msg_cut(b, first));
	return strcmp(first, st->ref) == 0;
}

static double positive(const struct stream *s, size_t col)
{
	double v = stream_num(s, col);

	if (!(v > 0))
		stream_die(s, "column '%s': time must be > 0, got '%s'", s->col[col], s->field[col]);
	return v;
}

static void take_row(struct state *st)
{
	const struct stream *s = &st->s;
	const char *key = "";
	struct pair_at *p;
	struct pairs_read *pr;
	size_t g, klen = 0;

	if (st->c_arm >= 0) {
		/* the arm is the first field of each output row */
		group_check_first(s, (size_t)st->c_arm, "rename the arm");
		key = s->field[st->c_arm], klen = strlen(key);
	}
	g = strmap_intern(&st->arms, key, klen);
	if (g >= st->arm_cap) {
		size_t old = st->arm_cap;
		xgrow(&st->by_arm, &st->arm_cap, g + 1, sizeof *st->by_arm);
		memset(st->by_arm + old, 0, (st->arm_cap - old) * sizeof *st->by_arm);
	}
	pr = &st->by_arm[g];
	xgrow(&pr->v, &pr->cap, pr->n + 1, sizeof *pr->v);
	p = &pr->v[pr->n++];
	p->run = whole_at_least(s, st->c_run, 0, "run must be a whole number >= 0");
	p->p.pair = whole_at_least(s, st->c_pair, 1, "pair must be a whole number >= 1");
	p->p.a_first = reference_first(st, key);
	p->p.a_cpu_first = reference_cpu(st);
	p->p.pos_a = place(st, st->c_pos_a);
	p->p.pos_b = place(st, st->c_pos_b);
	p->p.a = positive(s, st->c_a);
	p->p.b = positive(s, st->c_b);
	p->file = s->cur;
	p->line = s->lineno;
}

static int by_run_pair(const void *x, const void *y)
{
	const struct pair_at *a = x, *b = y;

	if (a->run != b->run)
		return a->run < b->run ? -1 : 1;
	return (a->p.pair > b->p.pair) - (a->p.pair < b->p.pair);
}

/* The runs of one comparison, in run order, each run's pairs in pair
 * order; a pair given twice is refused. pr's pairs are reordered. */
static struct check_run *runs_of(struct state *st, struct pairs_read *pr, size_t *nruns,
                                 struct check_pair **store)
{
	struct check_run *runs;
	size_t i, k = 0;

	qsort(pr->v, pr->n, sizeof *pr->v, by_run_pair);
	for (i = 1; i < pr->n; i++)
		if (pr->v[i].run == pr->v[i - 1].run && pr->v[i].p.pair == pr->v[i - 1].p.pair)
			stream_die_at(&st->s, pr->v[i].file, pr->v[i].line, "run %lld pair %lld: the "
			              "pair appears twice (also %s:%ld)", (long long)pr->v[i].run,
			              (long long)pr->v[i].p.pair,
			              stream_file_name(&st->s, pr->v[i - 1].file), pr->v[i - 1].line);
	runs = xmalloc((pr->n + 1) * sizeof *runs);
	*store = xmalloc((pr->n + 1) * sizeof **store);
	for (i = 0; i < pr->n; i++) {
		if (!i || pr->v[i].run != pr->v[i - 1].run) {
			runs[k].run = pr->v[i].run;
			runs[k].p = *store + i;
			runs[k++].n = 0;
		}
		(*store)[i] = pr->v[i].p;
		runs[k - 1].n++;
	}
	*nruns = k;
	return runs;
}

/* The places of the reference (ref, from pos_a: each pair is in every
 * candidate's rows, those of the first are taken) or of the candidate
 * (pos_b) in each run: the positions check. */
static void places(const struct state *st, const struct check_run *runs, size_t nruns,
                   struct check_report *rep, int ref)
{
	int k = st->d.arms;
	long *counts = xcalloc(nruns * (size_t)k + 1, sizeof *counts);
	int64_t *run = xmalloc((nruns + 1) * sizeof *run);
	size_t i, j;

	for (i = 0; i < nruns; i++) {
		run[i] = runs[i].run;
		for (j = 0; j < runs[i].n; j++)
			counts[i * (size_t)k + (size_t)(ref ? runs[i].p[j].pos_a : runs[i].p[j].pos_b) - 1]++;
	}
	check_positions(ref ? st->ref : st->d.cand, run, counts, nruns, k, &st->o, rep);
	free(counts);
	free(run);
}

/* "# pb-check.warning: [arm X: ]NOTE" for each warning; 1 when there is one. */
static int warn_lines(const struct check_report *rep, const char *arm)
{
	size_t i;
	int warned = 0;

	for (i = 0; i < rep->n; i++)
		if (rep->row[i].status == CHECK_WARN) {
			warned = 1;
			out_meta_begin("pb-check.warning");
			if (arm)
				out_meta_text("arm %s: ", arm);
			out_escaped(rep->row[i].note);
			out_meta_end();
		}
	return warned;
}

/* No row may carry inf or nan: times so large (or so small) that a
 * statistic overflows a double, or a level whose share for one check
 * rounds to 1, are refused, before any output. */
static void refuse_overflow(const struct check_report *rep, const char *arm)
{
	size_t i;

	for (i = 0; i < rep->n; i++) {
		const struct check_row *r = &rep->row[i];

		if ((r->has_value && !isfinite(r->value)) ||
		    (r->has_interval && !(isfinite(r->lo) && isfinite(r->hi))))
			die("%s%s%scheck '%s': a statistic or its interval is not finite (a --level "
			    "too near 1, or times too large for a double: are a and b in ns?)",
			    arm ? "arm " : "", arm ? arm : "", arm ? ": " : "", r->check);
	}
}

static void put_row(const struct check_row *r, const char *arm)
{
	if (arm)
		out_field(arm);
	out_field(r->check);
	out_field(check_status_name(r->status));
	if (r->has_value)
		out_num(r->value);
	else
		out_field("");
	if (r->has_interval) {
		out_num(r->lo);
		out_num(r->hi);
	} else {
		out_field("");
		out_field("");
	}
	out_field(r->unit);
	out_field(r->note);
	out_end();
}

int main(int argc, char **argv)
{
	static struct state st;
	struct check_report *rep, methods = { 0 };
	struct check_report ref_rep = { 0 };
	size_t g, i;
	int strict, warned = 0;

	pb_init("pb-check");
	strict = parse_args(argc, argv, &st.o);
	stream_open(&st.s, argc - optind, argv + optind);
	stream_on_meta(&st.s, on_meta, &st.ev);
	stream_header(&st.s);
	st.c_run = stream_col(&st.s, "run");
	st.c_pair = stream_col(&st.s, "pair");
	st.c_first = stream_col(&st.s, "first");
	st.c_a = stream_col(&st.s, "a");
	st.c_b = stream_col(&st.s, "b");
	st.c_arm = stream_col_find(&st.s, "arm");
	st.c_pos_a = stream_col_find(&st.s, "pos_a");
	st.c_pos_b = stream_col_find(&st.s, "pos_b");
	st.c_cpu_a = stream_col_find(&st.s, "cpu_a");
	st.c_cpu_b = stream_col_find(&st.s, "cpu_b");
	read_design(&st);
	head_stat(&st);
	while (stream_row(&st.s))
		take_row(&st);

	rep = xcalloc(st.arms.n + 1, sizeof *rep);
	for (g = 0; g < st.arms.n; g++) {
		struct check_pair *store;
		size_t nruns;
		struct check_run *runs = runs_of(&st, &st.by_arm[g], &nruns, &store);

		if (st.c_arm >= 0)
			st.d.cand = st.arms.key[g];
		/* a duet's places are all 0: no arm ran before another */
		if (g == 0 && st.d.arms > 2 && st.c_pos_a >= 0 && !st.d.duet)
			places(&st, runs, nruns, &ref_rep, 1);
		if (st.d.arms > 2 && st.c_pos_b >= 0 && !st.d.duet)
			places(&st, runs, nruns, &rep[g], 0);
		check_study(runs, nruns, &st.d, &st.ev, &st.o, &rep[g]);
		free(runs);
		free(store);
	}
	check_methods(&st.o, st.d.arms, st.d.duet, &methods);
	refuse_overflow(&ref_rep, st.c_arm >= 0 ? st.ref : NULL);
	for (g = 0; g < st.arms.n; g++)
		refuse_overflow(&rep[g], st.c_arm >= 0 ? st.arms.key[g] : NULL);
	out_begin(&st.s, argc, argv);
	for (i = 0; i < methods.nmethod; i++) {
		char key[64];

		snprintf(key, sizeof key, "pb-check.%s", methods.method[i].check);
		out_meta(key, "%s", methods.method[i].text);
	}
	warned = warn_lines(&ref_rep, st.c_arm >= 0 ? st.ref : NULL);
	for (g = 0; g < st.arms.n; g++)
		warned |= warn_lines(&rep[g], st.c_arm >= 0 ? st.arms.key[g] : NULL);
	if (st.c_arm >= 0)
		out_field("arm");
	out_field("check"), out_field("status"), out_field("value"), out_field("lo");
	out_field("hi"), out_field("unit"), out_field("note");
	out_end();
	for (i = 0; i < ref_rep.n; i++)
		put_row(&ref_rep.row[i], st.ref);
	for (g = 0; g < st.arms.n; g++)
		for (i = 0; i < rep[g].n; i++)
			put_row(&rep[g].row[i], st.c_arm >= 0 ? st.arms.key[g] : NULL);
	check_report_free(&ref_rep);

	for (g = 0; g < st.arms.n; g++) {
		check_report_free(&rep[g]);
		free(st.by_arm[g].v);
	}
	free(rep);
	free(st.by_arm);
	check_report_free(&methods);
	for (i = 0; i < st.ev.n; i++)
		free(st.ev.text[i]);
	free(st.ev.psi);
	for (i = 0; i < st.ev.nhosts; i++)
		free(st.ev.hosts[i].host);
	free(st.ev.hosts);
	strmap_free(&st.arms);
	study_head_free(&st.head);
	stream_close(&st.s);
	flush_stdout_or_die();
	return strict && warned ? EXIT_WARNED : 0;
}
