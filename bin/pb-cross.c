/* pb-cross: what "run A, change, run B later" would have concluded. For
 * every ordered pair of different runs (i, j) the unpaired estimate
 * median_b(j) - median_a(i), its sign against the truth, and the paired
 * estimate inside each run for contrast. The R(R - 1) estimates are
 * counted and selected without being stored: O(R) memory, O(R log R)
 * time. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "group.h"
#include "opt.h"
#include "out.h"
#include "stats.h"
#include "stream.h"
#include "strmap.h"

static const char usage[] =
	"usage: pb-cross [--expect +|-|auto] [--each] [FILE...]\n"
	"Compare arms across different runs, as a person would who ran A at one\n"
	"time and B at another, and count how often the sign comes out right.\n";

static const char usage_tail[] =
	"Input: a pair stream (run a b [d] [delay]) or a by-run stream; with an arm\n"
	"column (a study of more than two arms) each candidate arm on its own.\n"
	"Output: [arm] runs combos right wrong ties est_min est_med est_max\n"
	"paired_right r\n";

static const struct pb_opt options[] = {
	{ "expect", 'e', 0, "S", "+ - auto",
	  "the true sign of b - a: + (B slower), - (B faster), or\n"
	  "auto (default): the sign of the delay column when it is\n"
	  "not zero, else of the pooled median paired difference", NULL, 0 },
	{ "each", 'E', 0, NULL, NULL,
	  "one row per ordered pair of runs: run_a run_b est", NULL, 0 },
	{ NULL, 0, 0, NULL, NULL, NULL, NULL, 0 },
};
static const struct pb_cmd cmd = { usage, options, 15, usage_tail, 0 };

static const char *const expect_names[] = { "+", "-", "auto" };

struct opts {
	const char *expect;   /* one of expect_names */
	int each;
};

static void parse_args(int argc, char **argv, struct opts *o)
{
	int c;

	o->expect = "auto";
	o->each = 0;
	while ((c = pb_getopt(argc, argv, &cmd)) != -1) {
		if (c == 'e') {
			(void)opt_choice("expect", optarg, expect_names, LEN(expect_names));
			o->expect = optarg;
		} else if (c == 'E') {
			o->each = 1;
		}
	}
}

struct vec {
	double *v;
	size_t n, cap;
};

struct run {
	struct vec a, b, d;
	double ma, mb, md;
};

static void push(struct vec *x, double v)
{
	if (x->n == x->cap)
		xgrow(&x->v, &x->cap, x->n + 1, sizeof *x->v);
	x->v[x->n++] = v;
}

static int sign_of(double x)
{
	return (x > 0) - (x < 0);
}

struct input {
	struct strmap ids;
	struct run *runs;
	size_t cap;
	struct vec all_d;
	double delay_min, delay_max;
	int has_delay;
};

/* The comparisons of the input: one, or one per candidate arm. */
struct inputs {
	struct strmap arms;   /* the arm column's values; "" without one */
	struct input *in;
	size_t cap;
	long carm;
};

/* each: the run is written as run_a, first in a row (after the arm), so
 * a run (or an arm) that begins with '#' is refused. */
static void read_input(struct stream *s, struct inputs *all, int each)
{
	size_t crun, ca, cb;
	long cd, cdelay;
	struct input *in;

	stream_header(s);
	all->carm = group_has_arms(s) ? stream_col_find(s, "arm") : -1;
	crun = stream_col(s, "run");
	ca = stream_col(s, "a");
	cb = stream_col(s, "b");
	cd = stream_col_find(s, "d");
	cdelay = stream_col_find(s, "delay");
	while (stream_row(s)) {
		const char *id = s->field[crun], *arm = all->carm >= 0 ? s->field[all->carm] : "";
		size_t before = all->arms.n, g = strmap_intern(&all->arms, arm, strlen(arm)), i;
		double a = stream_num(s, ca), b = stream_num(s, cb);
		double d = cd >= 0 ? stream_num(s, (size_t)cd) : b - a;
		struct run *r;

		if (all->arms.n > before) {
			xgrow_zero(&all->in, &all->cap, g + 1, sizeof *all->in);
			all->in[g].delay_min = INFINITY;
			all->in[g].delay_max = -INFINITY;
		}
		in = &all->in[g];
		in->has_delay = cdelay >= 0;
		i = strmap_intern(&in->ids, id, strlen(id));
		if (!isfinite(d))
			stream_die(s, "values too large: d = b - a overflows a double");
		if (all->carm >= 0)
			group_check_first(s, (size_t)all->carm, "rename the arm");
		else if (each)
			group_check_first(s, crun, "rename the run");
		xgrow_zero(&in->runs, &in->cap, i + 1, sizeof *in->runs);
		r = &in->runs[i];
		push(&r->a, a);
		push(&r->b, b);
		push(&r->d, d);
		push(&in->all_d, d);
		if (cdelay >= 0) {
			double dl = stream_num(s, (size_t)cdelay);
			in->delay_min = dl < in->delay_min ? dl : in->delay_min;
			in->delay_max = dl > in->delay_max ? dl : in->delay_max;
		}
	}
}

/* The true sign: given, or from the injected delay, or from the pooled
 * paired median. why says which. */
static int expected_sign(const char *expect, struct input *in, const char **why)
{
	double m;

	if (strcmp(expect, "+") == 0 || strcmp(expect, "-") == 0) {
		*why = "given";
		return expect[0] == '+' ? 1 : -1;
	}
	if (in->has_delay && (in->delay_min != 0 || in->delay_max != 0)) {
		if (in->delay_min < 0 && in->delay_max > 0)
			die("the delay column has both signs; give --expect");
		*why = "the sign of the injected delay (delay = delay_b - delay_a)";
		return in->delay_max > 0 ? 1 : -1;
	}
	m = stat_median(in->all_d.v, in->all_d.n);
	if (m == 0)
		die("the pooled median paired difference is 0, so the expected sign "
		    "is unknown; give --expect + or --expect -");
	*why = "the sign of the pooled median paired difference";
	return sign_of(m);
}

/* arm: the comparison's candidate, a first column; head: write the header. */
static void print_each(const struct input *in, const char *arm, int head)
{
	size_t i, j;

	if (head) {
		if (arm)
			out_field("arm");
		out_field("run_a"), out_field("run_b"), out_field("est");
		out_end();
	}
	for (i = 0; i < in->ids.n; i++)
		for (j = 0; j < in->ids.n; j++) {
			if (i == j)
				continue;
			if (arm)
				out_field(arm);
			out_field(in->ids.key[i]);
			out_field(in->ids.key[j]);
			out_num(in->runs[j].mb - in->runs[i].ma);
			out_end();
		}
}

/* The estimates est(i, j) = mb[j] - ma[i] of the R(R - 1) ordered pairs of
 * different runs are never stored: with A = the ma sorted and B = the mb
 * sorted, B[j] - A[i] (rounded, as the estimates are) rises with j and
 * falls with i, so the full R x R matrix is sorted both ways. Counts below
 * a value come from two pointers over it, less the diagonal i = j (a run
 * against itself, not an estimate), which is counted directly. */
struct cross {
	size_t R;
	const double *ma, *mb;   /* the runs' medians, in input order */
	double *A, *B;           /* the same, sorted */
};

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* How many estimates are <= t: O(R). */
static size_t count_le(const struct cross *c, double t)
{
	size_t i, j = 0, n = 0;

	for (i = 0; i < c->R; i++) {
		while (j < c->R && c->B[j] - c->A[i] <= t)
			j++;
		n += j;
	}
	for (i = 0; i < c->R; i++)
		n -= c->mb[i] - c->ma[i] <= t;
	return n;
}

/* A double's bits as an unsigned integer in the order of the values
 * (-inf ... -0, +0 ... +inf), and back: a binary search on it can reach
 * every double, so it ends on an estimate exactly (a 0 may come back as
 * -0, which prints as 0 and leaves the median's mean of two unchanged). */
static uint64_t order_key(double x)
{
	uint64_t u;

	memcpy(&u, &x, sizeof u);
	return u >> 63 ? ~u : u | UINT64_C(1) << 63;
}

static double from_key(uint64_t k)
{
	uint64_t u = k >> 63 ? k & ~(UINT64_C(1) << 63) : ~k;
	double x;

	memcpy(&x, &u, sizeof x);
	return x;
}

/* The m-th smallest estimate (1-based): the least double t with
 * count_le(t) >= m, found in at most 64 counts. */
static double select_est(const struct cross *c, size_t m)
{
	uint64_t lo = order_key(-INFINITY), hi = order_key(INFINITY);

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (count_le(c, from_key(mid)) >= m)
			hi = mid;
		else
			lo = mid + 1;
	}
	return from_key(lo);
}

/* How many estimates are above 0 and below 0 (the rest are ties): for
 * each A[i], the B[j] above it and below it, by two pointers. */
static void count_signs(const struct cross *c, size_t *above, size_t *below)
{
	size_t i, gt = 0, lt = 0, up = 0, down = 0;

	for (i = 0; i < c->R; i++) {
		while (down < c->R && c->B[down] < c->A[i])
			down++;
		while (up < c->R && c->B[up] <= c->A[i])
			up++;
		lt += down;
		gt += c->R - up;
	}
	for (i = 0; i < c->R; i++) {
		gt -= c->mb[i] > c->ma[i];
		lt -= c->mb[i] < c->ma[i];
	}
	*above = gt;
	*below = lt;
}

static void cross_init(struct cross *c, const struct input *in, double *ma, double *mb)
{
	size_t i;

	c->R = in->ids.n;
	c->ma = ma;
	c->mb = mb;
	c->A = xmalloc(c->R * sizeof *c->A);
	c->B = xmalloc(c->R * sizeof *c->B);
	for (i = 0; i < c->R; i++) {
		ma[i] = c->A[i] = in->runs[i].ma;
		mb[i] = c->B[i] = in->runs[i].mb;
	}
	qsort(c->A, c->R, sizeof *c->A, cmp_double);
	qsort(c->B, c->R, sizeof *c->B, cmp_double);
}

/* What the summary row says, found before anything is written so that a
 * refusal leaves no output. */
struct summary {
	size_t above, below, paired;
	double emin, emed, emax, r;
};

static int all_equal(const double *x, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (x[i] != x[0])
			return 0;
	return 1;
}

/* est_min and est_max, refused when an estimate overflows a double. */
static void est_range(const struct cross *c, double *emin, double *emax)
{
	*emin = select_est(c, 1);
	*emax = select_est(c, c->R * (c->R - 1));
	if (!isfinite(*emin) || !isfinite(*emax))
		die("values too large: a cross-run estimate (median b - median a) "
		    "overflows a double");
}

static void summarize(const struct cross *c, const struct input *in, int expect,
                      struct summary *sm)
{
	size_t k = c->R * (c->R - 1), i;
	double lo;

	est_range(c, &sm->emin, &sm->emax);
	sm->paired = 0;
	for (i = 0; i < c->R; i++)
		sm->paired += sign_of(in->runs[i].md) == expect;
	count_signs(c, &sm->above, &sm->below);
	/* k = R(R - 1) is even: the mean of the two middles, as stat_median */
	lo = select_est(c, k / 2);
	sm->emed = lo + (select_est(c, k / 2 + 1) - lo) / 2;
	sm->r = stat_cor(c->ma, c->mb, c->R);
	if (!isfinite(sm->r) && !all_equal(c->ma, c->R) && !all_equal(c->mb, c->R))
		die("values too large: the correlation r of the runs' medians "
		    "overflows a double");
}

static void print_summary(const struct summary *sm, size_t R, int expect, const char *arm,
                          int head)
{
	size_t k = R * (R - 1);

	if (head) {
		if (arm)
			out_field("arm");
		out_field("runs"), out_field("combos"), out_field("right"), out_field("wrong");
		out_field("ties"), out_field("est_min"), out_field("est_med"), out_field("est_max");
		out_field("paired_right"), out_field("r");
		out_end();
	}
	if (arm)
		out_field(arm);
	out_i64((int64_t)R);
	out_i64((int64_t)k);
	out_i64((int64_t)(expect > 0 ? sm->above : sm->below));
	out_i64((int64_t)(expect > 0 ? sm->below : sm->above));
	out_i64((int64_t)(k - sm->above - sm->below));
	out_num(sm->emin);
	out_num(sm->emed);
	out_num(sm->emax);
	out_i64((int64_t)sm->paired);
	out_num_or_empty(sm->r);   /* undefined: one arm's run medians do not vary */
	out_end();
	if (!isfinite(sm->r) && arm)
		warn("arm %s: r is undefined (the per-run medians of one arm do not vary); "
		     "its field is left empty", arm);
	else if (!isfinite(sm->r))
		warn("r is undefined (the per-run medians of one arm do not vary); "
		     "its field is left empty");
}

/* The runs' medians; a median that overflows (values of both signs near
 * the largest double) is refused. */
static void run_medians(struct input *in)
{
	size_t i;

	for (i = 0; i < in->ids.n; i++) {
		struct run *r = &in->runs[i];
		r->ma = stat_median(r->a.v, r->a.n);
		r->mb = stat_median(r->b.v, r->b.n);
		r->md = stat_median(r->d.v, r->d.n);
		if (!isfinite(r->ma) || !isfinite(r->mb) || !isfinite(r->md))
			die("run %s: values too large: a median overflows a double",
			    in->ids.key[i]);
	}
}

/* One comparison's rows, or its refusal, before anything is written. */
struct result {
	struct cross cr;
	struct summary sm;
	double *ma, *mb;
	int sign;
	const char *why;
};

static void compare(struct input *in, const struct opts *o, const char *arm, int several,
                    const struct stream *s, int nfiles, struct result *res)
{
	if (in->ids.n < 2) {
		if (several)
			die("arm %s: only 1 run; comparing across runs needs at least 2", arm);
		die("%s: only 1 run; comparing across runs needs at least 2",
		    nfiles > 1 ? "the input" : s->name);
	}
	run_medians(in);
	res->ma = xmalloc(in->ids.n * sizeof *res->ma);
	res->mb = xmalloc(in->ids.n * sizeof *res->mb);
	cross_init(&res->cr, in, res->ma, res->mb);
	res->why = "";
	res->sign = 0;
	if (o->each) {   /* --each needs no sign */
		est_range(&res->cr, &res->sm.emin, &res->sm.emax);
	} else {
		res->sign = expected_sign(o->expect, in, &res->why);
		summarize(&res->cr, in, res->sign, &res->sm);
	}
}

static void free_input(struct input *in, struct result *res)
{
	size_t i;

	for (i = 0; i < in->ids.n; i++) {
		free(in->runs[i].a.v);
		free(in->runs[i].b.v);
		free(in->runs[i].d.v);
	}
	free(res->cr.A);
	free(res->cr.B);
	free(res->ma);
	free(res->mb);
	free(in->runs);
	free(in->all_d.v);
	strmap_free(&in->ids);
}

/* "# pb-cross.expect:" of each comparison: the sign and why. */
static void expect_meta(const struct inputs *all, const struct result *res)
{
	size_t g;

	if (all->carm < 0) {
		out_meta("pb-cross.expect", "%c (%s): + means B took longer",
		         res[0].sign > 0 ? '+' : '-', res[0].why);
		return;
	}
	out_meta_begin("pb-cross.expect");
	for (g = 0; g < all->arms.n; g++) {
		out_meta_text("%s%s: %c (", g ? "; " : "", all->arms.key[g], res[g].sign > 0 ? '+' : '-');
		out_meta_text("%s)", res[g].why);
	}
	out_meta_text("; + means the candidate took longer than the reference");
	out_meta_end();
}

int main(int argc, char **argv)
{
	struct opts o;
	struct stream s;
	struct inputs all;
	struct result *res;
	size_t g;

	pb_init("pb-cross");
	out_init();
	parse_args(argc, argv, &o);
	memset(&all, 0, sizeof all);
	stream_open(&s, argc - optind, argv + optind);
	read_input(&s, &all, o.each);
	res = xcalloc(all.arms.n + 1, sizeof *res);
	for (g = 0; g < all.arms.n; g++)
		compare(&all.in[g], &o, all.arms.key[g], all.carm >= 0, &s, argc - optind, &res[g]);
	out_begin(&s, argc, argv);
	if (all.carm >= 0)
		out_meta("pb-cross.arm", "one comparison per candidate arm against the "
		         "reference, each across its own runs");
	if (!o.each)
		expect_meta(&all, res);
	out_meta("pb-cross.est", "median b of run_b - median a of run_a, for every ordered "
	         "pair of different runs: what one run of A, a change, then one run of B "
	         "would have said");
	if (!o.each)
		out_meta("pb-cross.paired_right", "runs whose own median paired difference "
		         "d has the expected sign; r = correlation of the runs' medians of a and b");
	for (g = 0; g < all.arms.n; g++) {
		const char *arm = all.carm >= 0 ? all.arms.key[g] : NULL;

		if (o.each)
			print_each(&all.in[g], arm, g == 0);
		else
			print_summary(&res[g].sm, all.in[g].ids.n, res[g].sign, arm, g == 0);
	}
	for (g = 0; g < all.arms.n; g++)
		free_input(&all.in[g], &res[g]);
	free(res);
	free(all.in);
	strmap_free(&all.arms);
	stream_close(&s);
	flush_stdout_or_die();
	return 0;
}
