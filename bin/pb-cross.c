/* pb-cross: what "run A, change, run B later" would have concluded. For
 * every ordered pair of different runs (i, j) the unpaired estimate
 * median_b(j) - median_a(i), its sign against the truth, and the paired
 * estimate inside each run for contrast. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "group.h"
#include "opt.h"
#include "stats.h"
#include "stream.h"

static const char usage[] =
	"usage: pb-cross [--expect +|-|auto] [--each] [FILE...]\n"
	"Compare arms across different runs, as a person would who ran A at one\n"
	"time and B at another, and count how often the sign comes out right.\n"
	"  --expect S   the true sign of b - a: + (B slower), - (B faster), or\n"
	"               auto (default): the sign of the delay column when it is\n"
	"               not zero, else of the pooled median paired difference\n"
	"  --each       one row per ordered pair of runs: run_a run_b est\n"
	"  --help, --version\n"
	"Input: a pair stream (run a b [d] [delay]) or a by-run stream.\n"
	"Output: runs combos right wrong ties est_min est_med est_max\n"
	"paired_right r\n";

static const struct option longopts[] = {
	{ "expect", required_argument, NULL, 'e' },
	{ "each", no_argument, NULL, 'E' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

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
	struct groups ids;
	struct run *runs;
	size_t cap;
	struct vec all_d;
	double delay_min, delay_max;
	int has_delay;
};

static void read_input(struct stream *s, struct input *in)
{
	size_t crun, ca, cb;
	long cd, cdelay;

	stream_header(s);
	crun = stream_col(s, "run");
	ca = stream_col(s, "a");
	cb = stream_col(s, "b");
	cd = stream_col_opt(s, "d");
	cdelay = stream_col_opt(s, "delay");
	in->has_delay = cdelay >= 0;
	in->delay_min = INFINITY;
	in->delay_max = -INFINITY;
	while (stream_row(s)) {
		const char *id = s->field[crun];
		size_t before = in->ids.n, i = groups_index(&in->ids, id, strlen(id));
		double a = stream_num(s, ca), b = stream_num(s, cb);
		double d = cd >= 0 ? stream_num(s, (size_t)cd) : b - a;
		struct run *r;

		if (in->ids.n > before) {
			xgrow(&in->runs, &in->cap, i + 1, sizeof *in->runs);
			memset(&in->runs[i], 0, sizeof in->runs[i]);
		}
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

static void print_each(const struct input *in)
{
	size_t i, j;

	out_field("run_a"), out_field("run_b"), out_field("est");
	out_end();
	for (i = 0; i < in->ids.n; i++)
		for (j = 0; j < in->ids.n; j++) {
			if (i == j)
				continue;
			out_field(in->ids.key[i]);
			out_field(in->ids.key[j]);
			out_num(in->runs[j].mb - in->runs[i].ma);
			out_end();
		}
}

static void print_summary(const struct input *in, int expect)
{
	size_t R = in->ids.n, i, j, k = 0, right = 0, wrong = 0, ties = 0, paired = 0;
	double *est = xmalloc(R * (R - 1) * sizeof *est), *ma = xmalloc(R * sizeof *ma);
	double *mb = xmalloc(R * sizeof *mb), r, emin = INFINITY, emax = -INFINITY, emed;

	for (i = 0; i < R; i++) {
		ma[i] = in->runs[i].ma;
		mb[i] = in->runs[i].mb;
		paired += sign_of(in->runs[i].md) == expect;
		for (j = 0; j < R; j++)
			if (i != j) {
				double e = in->runs[j].mb - in->runs[i].ma;
				right += sign_of(e) == expect;
				wrong += sign_of(e) == -expect;
				ties += e == 0;
				emin = e < emin ? e : emin;
				emax = e > emax ? e : emax;
				est[k++] = e;
			}
	}
	emed = stat_median(est, k);
	r = stat_cor(ma, mb, R);
	out_field("runs"), out_field("combos"), out_field("right"), out_field("wrong");
	out_field("ties"), out_field("est_min"), out_field("est_med"), out_field("est_max");
	out_field("paired_right"), out_field("r");
	out_end();
	out_i64((int64_t)R);
	out_i64((int64_t)k);
	out_i64((int64_t)right);
	out_i64((int64_t)wrong);
	out_i64((int64_t)ties);
	out_num(emin);
	out_num(emed);
	out_num(emax);
	out_i64((int64_t)paired);
	if (isfinite(r))
		out_num(r);
	else
		out_field("");   /* undefined: one arm's run medians do not vary */
	out_end();
	if (!isfinite(r))
		warn("r is undefined (the per-run medians of one arm do not vary); "
		     "its field is left empty");
	free(est);
	free(ma);
	free(mb);
}

int main(int argc, char **argv)
{
	const char *expect = "auto", *why = "";
	int each = 0, c, sign = 0;
	struct stream s;
	struct input in;
	size_t i;

	pb_init(argc, argv, "pb-cross");
	while ((c = pb_getopt(argc, argv, "", longopts, usage)) != -1) {
		if (c == 'e') {
			if (strcmp(optarg, "+") && strcmp(optarg, "-") && strcmp(optarg, "auto"))
				die_usage("--expect is +, - or auto, not '%s'", optarg);
			expect = optarg;
		} else if (c == 'E') {
			each = 1;
		}
	}
	memset(&in, 0, sizeof in);
	stream_open(&s, argc - optind, argv + optind);
	read_input(&s, &in);
	if (in.ids.n < 2)
		die("%s: only 1 run; comparing across runs needs at least 2",
		    argc - optind > 1 ? "the input" : s.name);
	for (i = 0; i < in.ids.n; i++) {
		struct run *r = &in.runs[i];
		r->ma = stat_median(r->a.v, r->a.n);
		r->mb = stat_median(r->b.v, r->b.n);
		r->md = stat_median(r->d.v, r->d.n);
	}
	if (!each)   /* --each needs no sign */
		sign = expected_sign(expect, &in, &why);
	out_begin(&s);
	if (!each)
		out_meta("pb-cross.expect", "%c (%s): + means B took longer",
		         sign > 0 ? '+' : '-', why);
	out_meta("pb-cross.est", "median b of run_b - median a of run_a, for every ordered "
	         "pair of different runs: what one run of A, a change, then one run of B "
	         "would have said");
	if (!each)
		out_meta("pb-cross.paired_right", "runs whose own median paired difference "
		         "d has the expected sign; r = correlation of the runs' medians of a and b");
	if (each)
		print_each(&in);
	else
		print_summary(&in, sign);
	for (i = 0; i < in.ids.n; i++) {
		free(in.runs[i].a.v);
		free(in.runs[i].b.v);
		free(in.runs[i].d.v);
	}
	free(in.runs);
	free(in.all_d.v);
	groups_free(&in.ids);
	stream_close(&s);
	return pb_finish();
}
