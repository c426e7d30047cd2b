/* pb-boot: bootstrap interval of a column's median (or mean), per group,
 * resampling rows or whole blocks (runs). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot.h"
#include "err.h"
#include "group.h"
#include "keys.h"
#include "num.h"
#include "opt.h"
#include "out.h"
#include "progress.h"
#include "rng.h"
#include "stats.h"
#include "stream.h"
#include "strmap.h"

static const char usage[] =
	"usage: pb-boot [options] [FILE...]\n"
	"Bootstrap interval (percentile, expanded or BCa) of a statistic of one column.\n";

static const char usage_tail[] =
	"Output: [group...] n est lo hi sign; sign + (lo > 0), - (hi < 0), 0.\n";

static const struct pb_opt options[] = {
	{ "column", 'c', 0, "COL", NULL, "the column (default d)", NULL, 0 },
	{ "stat", 's', 0, "S", "median mean p90 p99",
	  "median (default), mean, or a quantile: p90, p99 or qQ\n"
	  "(q0.95; R's type 7)", NULL, 0 },
	{ "group", 'g', 0, "COLS", NULL, "one interval per value of these columns", NULL, 0 },
	{ "block", 'b', 0, "COL", NULL, "resample whole blocks (e.g. run), not rows", NULL, 0 },
	{ "resamples", 'B', 0, "B", NULL, "resamples (default 2000)", NULL, 0 },
	{ "level", 'l', 0, "L", NULL, "confidence level (default 0.95)", NULL, 0 },
	{ "seed", 'S', 0, "N", NULL, "generator seed (default 1: the same answer twice)", NULL, 0 },
	{ "jobs", 'j', 0, "N", NULL,
	  "threads (default: the online CPUs); the answer is the\n"
	  "same at any N", NULL, 0 },
	{ "method", 'm', 0, "M", "percentile expanded bca expanded-bca",
	  "percentile (default without --block), expanded (default\n"
	  "with --block), bca or expanded-bca", NULL, 0 },
	{ "ties", 't', 0, "T", "half below",
	  "BCa: replicates equal to est count half below (half,\n"
	  "the default) or as above (below: only those below, as R)", NULL, 0 },
	{ "quartiles", 'q', 0, NULL, NULL,
	  "no bootstrap: [group...] n min q1 median q3 max\n"
	  "(quantiles of type 7, as R's default)", NULL, 0 },
	{ NULL, 0, 0, NULL, NULL, NULL, NULL, 0 },
};
static const struct pb_cmd cmd = { usage, options, 20, usage_tail, 0 };

struct opts {
	const char *column, *group, *block;
	int arm_added;       /* arm put in front of --group: a stream of comparisons */
	struct boot_stat stat;
	const char *stat_name;
	long resamples;
	double level;
	uint64_t seed;
	int jobs;
	int method;   /* -1 until chosen: then percentile or expanded by --block */
	int bca, expand, quartiles;
	enum boot_ties ties;
};

/* --stat's names (then a quantile), and --ties in enum boot_ties order. */
static const char *const stat_names[] = { "median", "mean" };
static const char *const ties_names[] = { "half", "below" };

/* --method: the interval, and whether its levels are expanded for the
 * number of units (blocks, or values without --block). In enum order. */
enum { PERCENTILE, EXPANDED, BCA, EXPANDED_BCA, NMETHODS };
static const char *const method_names[NMETHODS] = {
	"percentile", "expanded", "bca", "expanded-bca",
};
static const struct method {
	int bca, expand;
	const char *meta, *meta_end;   /* the metadata, "blocks" or "values" between */
} methods[NMETHODS] = {
	{ .meta = "percentile" },
	{ .expand = 1,
	  .meta = "expanded (percentile read at levels widened for k ",
	  .meta_end = ": z = sqrt(k/(k-1)) t(k-1), Hesterberg 2015)" },
	{ .bca = 1,
	  .meta = "bca (bias-corrected and accelerated, jackknife acceleration)" },
	{ .bca = 1, .expand = 1,
	  .meta = "expanded-bca (bias-corrected and accelerated, jackknife "
	  "acceleration, at levels widened for k ",
	  .meta_end = ": z = sqrt(k/(k-1)) t(k-1))" },
};

/* All rows, one copy: value, group and block (block index is global
 * across groups until each group renumbers its own). */
struct rows {
	double *x;
	uint32_t *group, *block;
	size_t n, cap;
};

struct sample {
	double *x;
	uint32_t *block;
	size_t n, nblocks;
};

/* --jobs: at most this many threads; by default one per online CPU. */
enum { JOBS_MAX = 256 };

static int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > JOBS_MAX ? JOBS_MAX : (int)n;
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	int c, ties_given = 0, method_given = 0;

	memset(o, 0, sizeof *o);
	o->column = "d";
	o->stat = BOOT_MEDIAN;
	o->stat_name = "median";
	o->resamples = 2000;
	o->level = 0.95;
	o->seed = 1;
	o->jobs = online_cpus();
	o->method = -1;
	while ((c = pb_getopt(argc, argv, &cmd)) != -1) {
		switch (c) {
		case 'c': o->column = optarg; break;
		case 's':
			o->stat_name = optarg;
			switch (opt_stat("stat", optarg, stat_names, LEN(stat_names), &o->stat.p)) {
			case 0: o->stat = BOOT_MEDIAN; break;
			case 1: o->stat = BOOT_MEAN; break;
			default: o->stat.kind = BOOT_KIND_QUANTILE; break;
			}
			break;
		case 'g': o->group = optarg; break;
		case 'b': o->block = optarg; break;
		case 'B': o->resamples = opt_count("resamples", optarg, 100000000L); break;
		case 'l': o->level = opt_level("level", optarg); break;
		case 'S': o->seed = opt_seed("seed", optarg); break;
		case 'j': o->jobs = (int)opt_count("jobs", optarg, JOBS_MAX); break;
		case 'm':
			o->method = opt_choice("method", optarg, method_names, NMETHODS);
			method_given = 1;
			break;
		case 't':
			o->ties = (enum boot_ties)opt_choice("ties", optarg, ties_names, LEN(ties_names));
			ties_given = 1;
			break;
		case 'q': o->quartiles = 1; break;
		}
	}
	/* Over blocks the plain percentile covers too little at the run
	 * counts studies have (pb-boot(1), BLOCKS): expanded is the default. */
	if (o->method < 0)
		o->method = o->block ? EXPANDED : PERCENTILE;
	o->bca = methods[o->method].bca;
	o->expand = methods[o->method].expand;
	if (o->quartiles && o->block)
		die_usage("--quartiles describes the rows as they are: it takes no --block");
	if (o->quartiles && method_given)
		die_usage("--quartiles describes the rows as they are: it takes no --method");
	if (ties_given && !o->bca)
		die_usage("--ties is how BCa counts replicates equal to the estimate: it goes with "
		          "--method bca or expanded-bca");
}

static void add_row(struct rows *r, double x, size_t g, size_t b)
{
	if (r->n == r->cap) {
		size_t c1 = r->cap, c2 = r->cap;
		xgrow(&r->x, &r->cap, r->n + 1, sizeof *r->x);
		xgrow(&r->group, &c1, r->n + 1, sizeof *r->group);
		xgrow(&r->block, &c2, r->n + 1, sizeof *r->block);
	}
	r->x[r->n] = x;
	r->group[r->n] = (uint32_t)g;
	r->block[r->n++] = (uint32_t)b;
}

static int cmp_pair(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

/* Row indices bucketed by group (a counting sort), so each group is
 * gathered in time proportional to its own rows. */
struct buckets {
	size_t *start;   /* group g's rows are idx[start[g] .. start[g+1]) */
	size_t *idx;
};

static struct buckets bucket_rows(const struct rows *r, size_t ngroups)
{
	struct buckets b = { xcalloc(ngroups + 1, sizeof *b.start), xmalloc(r->n * sizeof *b.idx) };
	size_t *fill = xcalloc(ngroups, sizeof *fill), i, g;

	for (i = 0; i < r->n; i++)
		b.start[r->group[i] + 1]++;
	for (g = 0; g < ngroups; g++)
		b.start[g + 1] += b.start[g];
	for (i = 0; i < r->n; i++)
		b.idx[b.start[r->group[i]] + fill[r->group[i]]++] = i;
	free(fill);
	return b;
}

/* Gather group g's rows, renumber its blocks 0.., sort by value. remap
 * holds UINT32_MAX for every block index and is left that way. */
static void gather(const struct rows *r, const struct buckets *bk, uint32_t g,
                   uint32_t *remap, struct sample *s)
{
	struct { double x; uint32_t b; } *tmp;
	size_t i, from = bk->start[g];

	s->n = bk->start[g + 1] - from;
	tmp = xmalloc(s->n * sizeof *tmp);
	s->nblocks = 0;
	for (i = 0; i < s->n; i++) {
		size_t row = bk->idx[from + i];
		uint32_t b = r->block[row];

		if (remap[b] == UINT32_MAX)
			remap[b] = (uint32_t)s->nblocks++;
		tmp[i].x = r->x[row];
		tmp[i].b = remap[b];
	}
	for (i = 0; i < s->n; i++)
		remap[r->block[bk->idx[from + i]]] = UINT32_MAX;
	qsort(tmp, s->n, sizeof *tmp, cmp_pair);
	s->x = xmalloc(s->n * sizeof *s->x);
	s->block = xmalloc(s->n * sizeof *s->block);
	for (i = 0; i < s->n; i++) {
		s->x[i] = tmp[i].x;
		s->block[i] = tmp[i].b;
	}
	free(tmp);
}

static void show_progress(struct progress *p, size_t g, size_t ng, size_t b, size_t nb)
{
	int64_t now;

	if (progress_due(p, &now))
		progress_show(p, "pb-boot: group %zu/%zu  resample %zu/%zu  ", g + 1, ng, b, nb);
}

/* The resamples of one group, shared out in chunks among --jobs threads
 * (the caller's among them). Each replicate depends on (seed, index)
 * alone (boot_replicates), so the answer is the same at any --jobs. */
struct share {
	const struct sample *s;
	const struct opts *o;
	uint64_t seed;
	double *rep;
	size_t next, done;        /* resamples handed out, and computed */
	pthread_mutex_t lock;
};

enum { CHUNK = 64 };

/* The next chunk to compute: its first resample and its size (0: none). */
static size_t take_chunk(struct share *sh, size_t *first)
{
	size_t total = (size_t)sh->o->resamples, k;

	pthread_mutex_lock(&sh->lock);
	*first = sh->next;
	k = total - sh->next < CHUNK ? total - sh->next : CHUNK;
	sh->next += k;
	pthread_mutex_unlock(&sh->lock);
	return k;
}

static void compute_chunk(struct share *sh, size_t first, size_t k)
{
	const struct sample *s = sh->s;
	const struct opts *o = sh->o;

	if (o->block)
		boot_block_replicates(s->x, s->block, s->n, s->nblocks, o->stat, sh->seed, first, k,
		                      sh->rep + first);
	else
		boot_replicates(s->x, s->n, o->stat, sh->seed, first, k, sh->rep + first);
	pthread_mutex_lock(&sh->lock);
	sh->done += k;
	pthread_mutex_unlock(&sh->lock);
}

static void *helper(void *arg)
{
	struct share *sh = arg;
	size_t first, k;

	while ((k = take_chunk(sh, &first)) > 0)
		compute_chunk(sh, first, k);
	return NULL;
}

/* Threads pay off above about a million draws; below, the caller alone.
 * A quantile replicate over rows costs two variates, about 64 draws. */
static int jobs_for(const struct sample *s, const struct opts *o)
{
	double each = o->block ? (double)s->nblocks
	              : o->stat.kind == BOOT_KIND_QUANTILE ? 64 : (double)s->n;
	double draws = each * (double)o->resamples;

	return draws < 1e6 ? 1 : o->jobs;
}

static void replicates(const struct sample *s, const struct opts *o, uint64_t seed,
                       double *rep, struct progress *p, size_t g, size_t ng)
{
	struct share sh = { s, o, seed, rep, 0, 0, PTHREAD_MUTEX_INITIALIZER };
	pthread_t tid[JOBS_MAX];
	size_t first, k, done;
	int i, started = 0, jobs = jobs_for(s, o);

	/* a thread that cannot start leaves its share to the others */
	for (i = 1; i < jobs; i++)
		if (pthread_create(&tid[started], NULL, helper, &sh) == 0)
			started++;
	while ((k = take_chunk(&sh, &first)) > 0) {
		compute_chunk(&sh, first, k);
		pthread_mutex_lock(&sh.lock);
		done = sh.done;
		pthread_mutex_unlock(&sh.lock);
		show_progress(p, g, ng, done, (size_t)o->resamples);
	}
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	pthread_mutex_destroy(&sh.lock);
}

static void interval(const struct sample *s, const struct opts *o, double est, double *rep,
                     const char *name, double *lo, double *hi)
{
	double *jack, zlo, zhi;
	size_t nj = o->block ? s->nblocks : s->n, b = (size_t)o->resamples;
	int rc;

	if (!o->bca && !o->expand) {
		boot_percentile(rep, b, o->level, lo, hi);
		return;
	}
	boot_z(o->level, o->expand ? nj : 0, &zlo, &zhi);
	if (!o->bca) {
		boot_percentile_z(rep, b, zlo, zhi, lo, hi);
		return;
	}
	jack = xmalloc(nj * sizeof *jack);
	if (o->block)
		boot_block_jackknife(s->x, s->block, s->n, s->nblocks, o->stat, jack);
	else
		boot_jackknife(s->x, s->n, o->stat, jack);
	rc = boot_bca(rep, b, est, jack, nj, zlo, zhi, o->ties, lo, hi);
	if (rc == BOOT_BCA_Z0_INFINITE) {
		warn("%s: every replicate lies on one side of the estimate%s, so BCa is "
		     "undefined; %spercentile interval given", name,
		     o->ties == BOOT_TIES_BELOW ? " (or on it, with --ties below)" : "",
		     o->expand ? "expanded " : "");
		if (o->expand)
			boot_percentile_z(rep, b, zlo, zhi, lo, hi);
		else
			boot_percentile(rep, b, o->level, lo, hi);
	} else if (rc == BOOT_BCA_ACC_UNDEFINED) {
		warn("%s: every jackknife value is the same, so BCa's acceleration is 0/0; "
		     "acceleration 0 used", name);
	}
	free(jack);
}

static const char *group_name(const struct strmap *g, size_t i, const char *column)
{
	static char buf[256];

	if (!*g->key[i])
		snprintf(buf, sizeof buf, "column '%s'", column);
	else
		snprintf(buf, sizeof buf, "group '%.200s'", g->key[i]);
	return buf;
}

static void check_sizes(const struct strmap *g, const struct buckets *bk,
                        const struct opts *o, const size_t *blocks_of)
{
	size_t i;

	for (i = 0; i < g->n; i++) {
		if (bk->start[i + 1] - bk->start[i] < 2)
			die("%s: only 1 value; a bootstrap interval needs at least 2",
			    group_name(g, i, o->column));
		if (o->block && blocks_of[i] < 2)
			die("%s: only 1 block of '%s'; resampling blocks needs at least 2",
			    group_name(g, i, o->column), o->block);
	}
}

/* The mean's sums must not overflow: a sum holds at most n values, or
 * over blocks as many blocks as there are, each as large as the largest. */
static void check_sums(const struct rows *r, const struct strmap *g, const struct buckets *bk,
                       const struct opts *o, const size_t *blocks_of, size_t nblocks)
{
	uint64_t *bsize;
	size_t i, j;

	if (o->stat.kind != BOOT_KIND_MEAN)
		return;
	bsize = xcalloc(nblocks + 1, sizeof *bsize);
	for (i = 0; i < r->n; i++)
		bsize[r->block[i]]++;
	for (i = 0; i < g->n; i++) {
		double big = 0;
		uint64_t most = bk->start[i + 1] - bk->start[i], largest = 0;

		for (j = bk->start[i]; j < bk->start[i + 1]; j++) {
			size_t row = bk->idx[j];

			big = fmax(big, fabs(r->x[row]));
			if (bsize[r->block[row]] > largest)
				largest = bsize[r->block[row]];
		}
		if (o->block)
			most = (uint64_t)blocks_of[i] * largest;
		if (boot_mean_overflows(big, most)) {
			char nb[NUM_BUFSZ];

			free(bsize);
			num_format(nb, big);
			die("%s: values as large as %s overflow the sums of the mean of %llu values; "
			    "rescale the column (e.g. to other units)", group_name(g, i, o->column), nb,
			    (unsigned long long)most);
		}
	}
	free(bsize);
}

static const char *num_str(double x)
{
	static char buf[NUM_BUFSZ];

	num_format(buf, x);
	return buf;
}

static void print_head(struct stream *s, const struct group_cols *gc, const struct opts *o)
{
	size_t i;

	group_arm_meta("pb-boot", o->group, o->arm_added);
	out_meta(KEY_BOOT_COLUMN, "%s", o->column);
	if (o->stat.kind == BOOT_KIND_QUANTILE && strcmp(o->stat_name, "median") != 0)
		out_meta("pb-boot.stat", "%s (quantile %s, R's type 7)", o->stat_name,
		         num_str(o->stat.p));
	else
		out_meta("pb-boot.stat", "%s", o->stat_name);
	if (methods[o->method].meta_end)
		out_meta("pb-boot.method", "%s%s%s", methods[o->method].meta,
		         o->block ? "blocks" : "values", methods[o->method].meta_end);
	else
		out_meta("pb-boot.method", "%s", methods[o->method].meta);
	if (o->bca)
		out_meta("pb-boot.ties", "%s", o->ties == BOOT_TIES_BELOW ?
		         "below (only replicates below est count below; as boot.ci)" :
		         "half (replicates equal to est count half below)");
	out_meta("pb-boot.resamples", "%ld", o->resamples);
	out_meta_num(KEY_BOOT_LEVEL, "%s", o->level);
	out_meta("pb-boot.seed", "%llu", (unsigned long long)o->seed);
	if (o->block)
		out_meta("pb-boot.block", "%s (whole blocks resampled with replacement; "
		         "the statistic of their pooled rows)", o->block);
	for (i = 0; i < gc->n; i++)
		out_field(s->col[gc->col[i]]);
	out_field("n"), out_field("est"), out_field("lo"), out_field("hi");
	out_field("sign");
	out_end();
}

/* --quartiles: each group's sample described, nothing resampled (pb-plot's
 * view and pb-sense's median come from here, so that pb has one quantile). */
static void print_quartiles(struct stream *s, int argc, char **argv,
                            const struct group_cols *gc, const struct opts *o,
                          const struct rows *rows, const struct buckets *bk,
                          const struct strmap *g, uint32_t *remap)
{
	size_t i;

	out_begin(s, argc, argv);
	group_arm_meta("pb-boot", o->group, o->arm_added);
	out_meta(KEY_BOOT_COLUMN, "%s", o->column);
	out_meta("pb-boot.quartiles", "%s", "n min q1 median q3 max, quartiles of R's type 7");
	for (i = 0; i < gc->n; i++)
		out_field(s->col[gc->col[i]]);
	out_field("n"), out_field("min"), out_field("q1"), out_field("median");
	out_field("q3"), out_field("max");
	out_end();
	for (i = 0; i < g->n; i++) {
		struct sample smp;
		double min, max, q1, med, q3;

		gather(rows, bk, (uint32_t)i, remap, &smp);
		min = smp.x[0], max = smp.x[smp.n - 1];   /* sorted; the quantiles reorder */
		q1 = stat_quantile(smp.x, smp.n, 0.25);
		med = stat_median(smp.x, smp.n);
		q3 = stat_quantile(smp.x, smp.n, 0.75);
		if (!isfinite(q1) || !isfinite(med) || !isfinite(q3))
			die("%s: the values span more than a double holds (near +-1.8e308): "
			    "no quartiles", group_name(g, i, o->column));
		group_cols_put(gc, g->key[i], g->keylen[i]);
		out_i64((int64_t)smp.n);
		out_num(min);
		out_num(q1);
		out_num(med);
		out_num(q3);
		out_num(max);
		out_end();
		free(smp.x);
		free(smp.block);
	}
}

int main(int argc, char **argv)
{
	struct opts o;
	struct stream s;
	struct group_cols gc;
	struct strmap g = { 0 }, blocks = { 0 };
	struct rows rows = { 0 };
	struct progress prog;
	size_t col, bcol = 0, i, klen, *blocks_of = NULL, bo_cap = 0;
	char *bkey = NULL;
	size_t bkcap = 0;
	double *rep;
	struct buckets bk;
	uint32_t *remap;

	pb_init("pb-boot");
	out_init();
	parse_args(argc, argv, &o);
	stream_open(&s, argc - optind, argv + optind);
	stream_header(&s);
	col = stream_col(&s, o.column);
	if (o.block)
		bcol = stream_col(&s, o.block);
	o.group = group_with_arm(&s, o.group, &o.arm_added);
	group_cols_parse(&gc, &s, o.group);
	while (stream_row(&s)) {
		const char *key = "";
		size_t gi, bi = 0;

		klen = 0;
		if (gc.n)
			key = group_cols_key(&gc, &s, &klen);
		gi = strmap_intern(&g, key, klen);
		xgrow_zero(&blocks_of, &bo_cap, gi + 1, sizeof *blocks_of);
		if (o.block) {
			size_t len = group_subkey(&bkey, &bkcap, key, klen, s.field[bcol]);
			size_t before = blocks.n;

			bi = strmap_intern(&blocks, bkey, len);
			if (blocks.n > before)
				blocks_of[gi]++;
		}
		add_row(&rows, stream_num(&s, col), gi, bi);
	}
	bk = bucket_rows(&rows, g.n);
	remap = xmalloc((blocks.n + 1) * sizeof *remap);
	memset(remap, 0xff, (blocks.n + 1) * sizeof *remap);
	if (o.quartiles) {
		print_quartiles(&s, argc, argv, &gc, &o, &rows, &bk, &g, remap);
	} else {
		check_sizes(&g, &bk, &o, blocks_of);
		check_sums(&rows, &g, &bk, &o, blocks_of, blocks.n);
		out_begin(&s, argc, argv);
		print_head(&s, &gc, &o);
	}
	progress_init(&prog, isatty(2) && !o.quartiles, 60);
	rep = xmalloc((size_t)o.resamples * sizeof *rep);
	for (i = 0; i < g.n && !o.quartiles; i++) {
		struct sample smp;
		double est, lo, hi;

		gather(&rows, &bk, (uint32_t)i, remap, &smp);
		est = boot_stat_sorted(smp.x, smp.n, o.stat);
		/* group i's seed as pb-run derives run i's */
		replicates(&smp, &o, rng_derive(o.seed, (uint64_t)i), rep, &prog, i, g.n);
		interval(&smp, &o, est, rep, group_name(&g, i, o.column), &lo, &hi);
		group_cols_put(&gc, g.key[i], g.keylen[i]);
		out_i64((int64_t)smp.n);
		out_num(est);
		out_num(lo);
		out_num(hi);
		out_field(lo > 0 ? "+" : hi < 0 ? "-" : "0");
		out_end();
		free(smp.x);
		free(smp.block);
	}
	progress_end(&prog);
	free(rep);
	free(remap);
	free(bk.start);
	free(bk.idx);
	free(rows.x);
	free(rows.group);
	free(rows.block);
	free(blocks_of);
	free(bkey);
	strmap_free(&g);
	strmap_free(&blocks);
	group_cols_free(&gc);
	stream_close(&s);
	flush_stdout_or_die();
	return 0;
}
