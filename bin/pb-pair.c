/* pb-pair: join the A and B halves of each measured pair of a raw stream
 * (with k arms: each candidate arm with the reference, in each block of k
 * observations); or reduce each run to one row (per candidate); merge
 * shards after checking they belong to one study. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "keys.h"
#include "out.h"
#include "strmap.h"
#include "num.h"
#include "opt.h"
#include "pairs.h"
#include "pending.h"
#include "raw.h"
#include "runstat.h"
#include "stats.h"
#include "stream.h"
#include "study.h"

static const char usage[] =
	"usage: pb-pair [--by-run [--stat S]] [--exclude RUNS --why TEXT] [--host] [FILE...]\n"
	"Join arm A and arm B of each measured pair of a raw pb-run stream into\n"
	"one row: run pair first a b d delay, with d = b - a (ns). A study of\n"
	"more arms gives one row per pair and candidate: run pair arm first a b d\n"
	"delay ... pos_a pos_b, a the reference's time, b the candidate's.\n"
	"pb-run's user_ns sys_ns maxrss_kib (command mode) end each row as\n"
	"a_user b_user a_sys b_sys a_maxrss b_maxrss a_cpu b_cpu (cpu = user + sys).\n"
	"A duet (pb-run --duet: A and B at once) has first '=' and, last, cpu_a\n"
	"cpu_b: the CPU each arm ran on (a CPU's number, not CPU time).\n";

static const char usage_tail[] =
	"Several FILEs are shards of one study: merged when their commands and\n"
	"design agree and their run numbers do not collide.\n";

static const struct pb_opt options[] = {
	{ "by-run", 'r', 0, NULL, NULL,
	  "one row per run: run n a b d delay, a and b the\n"
	  "statistic of each arm in that run, d = b - a", NULL, 0 },
	{ "stat", 's', 0, "S", "median mean min lr-median p90 p99",
	  "with --by-run: median (default), mean, min, a quantile\n"
	  "(p90, p99 or qQ such as q0.95; R's type 7), or lr-median:\n"
	  "medians, and lr = the median of the paired ln(a/b)", NULL, 0 },
	{ "host", 'H', 0, NULL, NULL,
	  "add a host column, from each run's '# run: ... host=H'\n"
	  "comment (shards from several machines)", NULL, 0 },
	{ "exclude", 'x', 0, "RUNS", NULL, "drop these runs (\"3,5,7-9\"); needs --why", NULL, 0 },
	{ "why", 'w', 0, "TEXT", NULL, "the reason, recorded in the metadata", NULL, 0 },
	{ NULL, 0, 0, NULL, NULL, NULL, NULL, 0 },
};
static const struct pb_cmd cmd = { usage, options, 18, usage_tail, 0 };

/* The by-run statistic. lr-median takes each arm's median and adds lr,
 * the median of the pairs' ln(a/b): robust to a load that comes and goes
 * within a run, which moves both halves of a pair together but can make a
 * per-arm median jump between the two levels. */

struct range {
	int64_t lo, hi;
	int seen;
};

struct opts {
	int by_run, host;
	struct run_stat stat;     /* --stat (lib/runstat, shared with pb-run --until) */
	struct range *excl;
	size_t nexcl;
	const char *excl_text, *why;
};

/* pb-run's rusage columns (lib/raw.h), paired as a_NAME b_NAME at the
 * end of each row: the reference's and the candidate's. */
static const char *const use_names[NUSE] = {
	"user", "sys", "maxrss", "cpu", "minflt", "majflt", "nvcsw", "nivcsw",
	"tree_maxrss", "tree_cpu", "tree_read", "tree_write",
};

struct run {
	int64_t run;
	int file;
	char *host;            /* --host: from its "# run:" comment */
	int64_t done_upto;     /* pairs 1 .. done_upto are joined */
	size_t done_ahead;     /* pairs joined above done_upto + 1 (JOINED) */
	long joined;           /* measured pairs joined, failed ones too */
	char *ended;           /* its "# run_ended:" comment, cut */
	struct series *ser;    /* --by-run only: one per candidate */
	size_t used;           /* pairs kept, all candidates */
	char *extra;
};

/* A "# failed:" or "# interrupted:" comment: the study stopped there. */
struct stop {
	int file, used;
	int64_t run;           /* the run it names, or -1 */
	const char *key;
	char *text;            /* cut */
};

/* The joining of one input: its options, stream and columns, the halves
 * waiting for their other arm, the runs met, what the comments said. */
struct pairing {
	struct opts o;
	struct stream s;
	struct raw_cols c;
	int arms, ref;            /* k and the reference, from the head */
	int multi;                /* an arm column: k > 2, or a reference other than A */
	struct pending pending;   /* halves waiting for their other arm */
	struct strmap run_index;
	struct run *runs;
	size_t last_run;           /* the index of the run of the row before */
	size_t runcap;
	long warmup_rows, failed_pairs, pairs_out;
	struct strmap run_ids;     /* "# run:" identities: (study, run), or start pid host */
	struct run_id { int file; long line; } *run_id;
	size_t run_id_cap;
	struct stop *stops;        /* at most one per file */
	size_t nstops, stopcap;
	int file_checked;
	struct study_head head;    /* the first file's; every shard's agrees on the design */
};

static const char *host_of_run(const struct run *r);

static int64_t parse_run_number(const char **p)
{
	int64_t v = 0;

	if (**p < '0' || **p > '9')
		die_usage("--exclude wants run numbers such as 3,5,7-9, not '%s'", *p);
	while (**p >= '0' && **p <= '9') {
		if (v > INT64_MAX / 10 - 9)
			die_usage("--exclude: run number too large");
		v = v * 10 + (*(*p)++ - '0');
	}
	return v;
}

static void parse_exclude(struct opts *o, const char *list)
{
	const char *p = list;
	size_t cap = 0;

	o->excl_text = list;
	while (*p) {
		struct range r = { 0, 0, 0 };

		r.lo = r.hi = parse_run_number(&p);
		if (*p == '-') {
			p++;
			r.hi = parse_run_number(&p);
			if (r.hi < r.lo)
				die_usage("--exclude: empty range %lld-%lld",
				          (long long)r.lo, (long long)r.hi);
		}
		xgrow(&o->excl, &cap, o->nexcl + 1, sizeof *o->excl);
		o->excl[o->nexcl++] = r;
		if (*p == ',')
			p++;
		else if (*p)
			die_usage("--exclude wants run numbers such as 3,5,7-9, not '%s'", list);
	}
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	int c, stat_given = 0;

	memset(o, 0, sizeof *o);
	run_stat_parse(&o->stat, "stat", "median");
	while ((c = pb_getopt(argc, argv, &cmd)) != -1) {
		switch (c) {
		case 'r': o->by_run = 1; break;
		case 'H': o->host = 1; break;
		case 's':
			run_stat_parse(&o->stat, "stat", optarg);
			stat_given = 1;
			break;
		case 'x': parse_exclude(o, optarg); break;
		case 'w': o->why = optarg; break;
		}
	}
	if (stat_given && !o->by_run)
		die_usage("--stat goes with --by-run");
	if (o->nexcl && (!o->why || !*o->why))
		die_usage("--exclude needs --why TEXT: the reason is kept with the data");
	if (o->why && !o->nexcl)
		die_usage("--why goes with --exclude");
}

/* Whether --exclude names run; mark: and note that it was met. */
static int excluded(struct opts *o, int64_t run, int mark)
{
	size_t i;

	for (i = 0; i < o->nexcl; i++)
		if (run >= o->excl[i].lo && run <= o->excl[i].hi) {
			o->excl[i].seen |= mark;
			return 1;
		}
	return 0;
}

/* The arms and the reference, from the head (pb-run writes them when
 * there are more than two arms, or the reference is not A; shards agree
 * on both, check_shard sees to it). */
static void read_arms(struct pairing *pr)
{
	study_head_arms(&pr->head, pr->s.name, &pr->arms, &pr->ref);
	pr->multi = pr->arms > 2 || pr->ref != 0;
}

static struct run *run_of(struct pairing *pr, int64_t number)
{
	char key[NUM_BUFSZ];
	size_t len, before = pr->run_index.n, i;
	struct run *r;

	/* a run's rows come together: the run of the row before, unhashed */
	if (pr->last_run < before && pr->runs[pr->last_run].run == number &&
	    pr->runs[pr->last_run].file == pr->s.cur)
		return &pr->runs[pr->last_run];
	len = num_format_i64(key, number);
	i = strmap_intern(&pr->run_index, key, len);
	if (pr->run_index.n > before) {
		xgrow_zero(&pr->runs, &pr->runcap, i + 1, sizeof *pr->runs);
		r = &pr->runs[i];
		r->run = number;
		r->file = pr->s.cur;
		pr->last_run = i;
		return r;
	}
	r = &pr->runs[i];
	if (r->file != pr->s.cur)
		stream_die(&pr->s, "run %lld is also in %s; give each shard its own "
		           "--first-run", (long long)number, pr->s.names[r->file]);
	pr->last_run = i;
	return r;
}

/* The candidate's place among the series of a run: the arms but the
 * reference, in letter order. */
static int candidate_index(const struct pairing *pr, int arm)
{
	return arm < pr->ref ? arm : arm - 1;
}

/* One row: the reference a against the candidate b of one pair. */
static void emit_pair(struct pairing *pr, struct run *r, const struct raw_obs *a,
                      const struct raw_obs *b)
{
	const char *host;

	if (a->status || b->status) {
		pr->failed_pairs++;
		return;
	}
	if (pr->o.by_run) {
		if (!r->ser)
			r->ser = xcalloc((size_t)pr->arms - 1, sizeof *r->ser);
		series_add(&r->ser[candidate_index(pr, b->arm)], &pr->c, a, b);
		r->used++;
		if (!r->extra && a->extra)
			r->extra = xstrdup(a->extra);
		return;
	}
	host = pr->o.host ? host_of_run(r) : NULL;   /* may fail: before any field */
	pairs_row_out(&pr->c, r->run, a, b, pr->multi, host);
	pr->pairs_out++;
}

/* A pair with all its arms: one row per candidate, in letter order. */
static void emit_block(struct pairing *pr, struct run *r, struct block *b)
{
	const struct raw_obs *by_arm[26];
	int arm, i;

	for (i = 0; i < b->seen; i++)
		by_arm[b->h[i].arm] = &b->h[i];
	for (arm = 0; arm < pr->arms; arm++)
		if (arm != pr->ref)
			emit_pair(pr, r, by_arm[pr->ref], by_arm[arm]);
	pending_release(&pr->pending, b, pr->arms);
}

static void take_row(struct pairing *pr)
{
	struct raw_obs h;
	struct block *b;
	struct run *r;
	size_t at;

	raw_obs_read(&h, &pr->s, &pr->c, pr->arms);
	if (!raw_measured(&pr->s, &pr->c)) {
		pr->warmup_rows++;
		return;
	}
	r = run_of(pr, h.run);
	if (excluded(&pr->o, h.run, 1))
		return;
	b = pending_take(&pr->pending, &pr->s, &pr->c, &h, r->done_upto, pr->arms, pr->ref, &at);
	if (!b)
		return;
	emit_block(pr, r, b);   /* the table is as it was: b is still at at */
	r->joined++;
	pending_done(&pr->pending, at, &r->done_upto, &r->done_ahead);
}

static size_t word_len(const char *s)
{
	return s ? strcspn(s, " ") : 0;
}

/* A word of a comment for a message, as msg_cut. */
static const char *word_cut(char *buf, const struct word *w)
{
	size_t n = w->len <= MSG_CUT ? w->len : msg_cut_len(w->p, MSG_CUT);

	memcpy(buf, w->p, n);
	strcpy(buf + n, n < w->len ? "..." : "");
	return buf;
}

/* v for a message about how it differs from w: whole when short, else
 * the part around the first byte that differs, "..." where cut. */
static const char *around_difference(char *buf, size_t cap, const char *v, const char *w)
{
	enum { BEFORE = 24, WIDTH = 64 };
	size_t at = 0, from, n;

	if (!v)
		return "absent";
	if (strlen(v) <= WIDTH)
		return v;
	while (w && v[at] && v[at] == w[at])
		at++;
	from = at > BEFORE ? at - BEFORE : 0;
	while (from > 0 && ((unsigned char)v[from] & 0xc0) == 0x80)
		from--;   /* not inside a UTF-8 character */
	n = msg_cut_len(v + from, WIDTH);
	snprintf(buf, cap, "%s%.*s%s", from ? "..." : "", (int)n, v + from, v[from + n] ? "..." : "");
	return buf;
}

/* Shards: every file's head must agree with the first file's on the
 * design keys and on the pb version that wrote it ("# pb-run: VERSION
 * argv..."). Only the head counts: a line among the rows could be forged
 * by what a worker printed. */
static void check_shard_key(struct pairing *pr, const struct study_head *h, const char *key)
{
	const char *v0 = study_head_str(&pr->head, key);
	const char *v = study_head_str(h, key);
	char b0[128], b[128];

	if ((v0 || v) && (!v0 || !v || strcmp(v0, v) != 0))
		die("%s and %s disagree on '%s' (%s vs %s): shards of one "
		    "study must share it", pr->s.names[0], pr->s.name, key,
		    around_difference(b0, sizeof b0, v0, v),
		    around_difference(b, sizeof b, v, v0));
}

static void check_shard(struct pairing *pr)
{
	struct study_head h;
	const char *v0, *v;
	const char *const *k;
	char b0[128], b[128], key[8];
	int arm;

	study_head_read(&h, &pr->s, pr->s.cur);
	v0 = study_head_str(&pr->head, "pb-run");
	v = study_head_str(&h, "pb-run");

	if (v0 && v && (word_len(v0) != word_len(v) || strncmp(v0, v, word_len(v)))) {
		struct word w0 = { v0, word_len(v0) }, w = { v, word_len(v) };

		die("%s and %s come from different pb versions (%s vs %s): "
		    "shards of one study must share it", pr->s.names[0], pr->s.name,
		    word_cut(b0, &w0), word_cut(b, &w));
	}
	for (k = study_design_keys; *k; k++)
		check_shard_key(pr, &h, *k);
	for (arm = 2; arm < 26; arm++) {   /* those of A and B are design keys */
		study_arm_key(key, "cmd_", arm);
		check_shard_key(pr, &h, key);
		study_arm_key(key, "sql_", arm);
		check_shard_key(pr, &h, key);
	}
	study_head_free(&h);
}

/* Whether an identity of a run was met before: its index, or -1 when it
 * is new (then noted with this file and line). key is freed. */
static long id_seen(struct pairing *pr, char *key, int len, long line)
{
	size_t before = pr->run_ids.n, i = strmap_intern(&pr->run_ids, key, (size_t)len);

	free(key);
	if (pr->run_ids.n == before)
		return (long)i;
	xgrow(&pr->run_id, &pr->run_id_cap, i + 1, sizeof *pr->run_id);
	pr->run_id[i].file = pr->s.cur;
	pr->run_id[i].line = line;
	return -1;
}

/* key = the words printed with fmt, in memory of its own. */
static char *id_key(int *len, const char *fmt, ...)
{
	va_list ap;
	char *key;

	va_start(ap, fmt);
	*len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	key = xmalloc((size_t)*len + 1);
	va_start(ap, fmt);
	vsnprintf(key, (size_t)*len + 1, fmt, ap);
	va_end(ap);
	return key;
}

/* The same run twice: the same study and run number, in any file. A run
 * copied under another number: the same study (or none, in older
 * streams), start stamp, pid and host in two files; not within one, where
 * two runs of one pb-run in command mode share its pid and may share a
 * millisecond. */
static void check_run_identity(struct pairing *pr, const struct run_comment *rc, long line)
{
	const struct word *id = &rc->study, *t = &rc->start;
	char b[MSG_CUT_BUF], *key;
	int len;
	long i;

	if (id->len) {
		key = id_key(&len, "S%.*s\t%lld", (int)id->len, id->p, (long long)rc->run);
		if ((i = id_seen(pr, key, len, line)) >= 0 && pr->run_id[i].file == pr->s.cur)
			stream_die(&pr->s, "run %lld of study %s again (also line %ld): the same run "
			           "twice?", (long long)rc->run, word_cut(b, id), pr->run_id[i].line);
		if (i >= 0)
			die("%s and %s both hold run %lld of study %s: the same run twice?",
			    pr->s.names[pr->run_id[i].file], pr->s.name, (long long)rc->run,
			    word_cut(b, id));
	}
	if (!t->len)
		return;
	key = id_key(&len, "T%.*s\t%.*s\t%.*s\t%.*s", (int)id->len, id->p, (int)t->len, t->p,
	             (int)rc->pid.len, rc->pid.p, (int)rc->host.len, rc->host.p);
	if ((i = id_seen(pr, key, len, line)) >= 0 && pr->run_id[i].file != pr->s.cur)
		die("%s and %s both hold a run with start=%s: the same run twice?",
		    pr->s.names[pr->run_id[i].file], pr->s.name, word_cut(b, t));
}

/* "# run: R start=... pid=... study=... host=H": run R is seen (its host
 * kept for --host), and must not be one seen before. */
static void note_run(struct pairing *pr, const struct meta *m)
{
	struct run_comment rc;
	struct run *r;

	if (run_comment_parse(m->value, &rc) < 0)
		return;
	check_run_identity(pr, &rc, m->line);
	r = run_of(pr, rc.run);
	if (pr->o.host && !r->host)
		r->host = run_comment_host(&rc);
}

/* A copy of a comment's value for a warning: at most 200 bytes, "..." where cut. */
static char *cut_copy(const char *v)
{
	size_t n = msg_cut_len(v, 200);
	char *c = xmalloc(n + 4);

	memcpy(c, v, n);
	strcpy(c + n, v[n] ? "..." : "");
	return c;
}

static struct run *find_run(struct pairing *pr, int64_t number)
{
	char key[NUM_BUFSZ];
	long i = strmap_find(&pr->run_index, key, num_format_i64(key, number));

	return i < 0 || pr->runs[i].file != pr->s.cur ? NULL : &pr->runs[i];
}

/* "# failed:" and "# interrupted:": the first of each file is kept. */
static void note_stop(struct pairing *pr, const struct meta *m)
{
	struct stop *t;

	if (pr->nstops && pr->stops[pr->nstops - 1].file == pr->s.cur)
		return;
	xgrow(&pr->stops, &pr->stopcap, pr->nstops + 1, sizeof *pr->stops);
	t = &pr->stops[pr->nstops++];
	t->file = pr->s.cur;
	t->used = 0;
	t->run = study_event_run(m->value);
	t->key = strcmp(m->key, "failed") == 0 ? "failed" : "interrupted";
	t->text = cut_copy(m->value);
}

/* Metadata among the rows that pb-pair needs: kept as it passes. */
static void on_meta(void *ctx, const struct stream *s, const struct meta *m)
{
	struct pairing *pr = ctx;
	struct run *r;

	(void)s;
	if (strcmp(m->key, "run") == 0)
		note_run(pr, m);
	else if (strcmp(m->key, "failed") == 0 || strcmp(m->key, "interrupted") == 0)
		note_stop(pr, m);
	else if (strcmp(m->key, "run_ended") == 0 && study_event_run(m->value) >= 0 &&
	         (r = find_run(pr, study_event_run(m->value))) && !r->ended)
		r->ended = cut_copy(m->value);
}

/* The host of run r (--host), or an error when its comment named none. */
static const char *host_of_run(const struct run *r)
{
	if (!r->host)
		die("--host: run %lld has no '# run: %lld ... host=H' comment", (long long)r->run,
		    (long long)r->run);
	return r->host;
}

/* --by-run holds every run to the end: a run without its host is refused
 * before anything is written, not in the middle of its row. */
static void check_hosts(const struct pairing *pr)
{
	size_t i;

	for (i = 0; pr->o.host && i < pr->run_index.n; i++)
		if (pr->runs[i].used > 0)
			(void)host_of_run(&pr->runs[i]);
}

/* The by-run row of one candidate (arm) in run r. */
static void emit_series(struct pairing *pr, struct run *r, struct series *x, int arm)
{
	pairs_run_out(x, &pr->c, &pr->o.stat, r->run, pr->multi ? arm : -1,
	              pr->o.host ? host_of_run(r) : NULL, r->extra);
	pr->pairs_out++;
}

static void emit_runs(struct pairing *pr)
{
	size_t i;
	int arm;

	for (i = 0; i < pr->run_index.n; i++)
		for (arm = 0; pr->runs[i].used && arm < pr->arms; arm++)
			if (arm != pr->ref && pr->runs[i].ser[candidate_index(pr, arm)].n)
				emit_series(pr, &pr->runs[i], &pr->runs[i].ser[candidate_index(pr, arm)],
				            arm);
}

static void free_run(struct pairing *pr, struct run *r)
{
	int ci;

	for (ci = 0; r->ser && ci < pr->arms - 1; ci++)
		series_free(&r->ser[ci]);
	free(r->ser);
	free(r->host);
	free(r->ended);
	free(r->extra);
}

static void check_leftovers(struct pairing *pr)
{
	size_t i;

	pending_check_done(&pr->pending, &pr->s, pr->arms);
	for (i = 0; i < pr->o.nexcl; i++)
		if (!pr->o.excl[i].seen)
			die("--exclude: no run %lld%s in the input", (long long)pr->o.excl[i].lo,
			    pr->o.excl[i].hi > pr->o.excl[i].lo ? " (or later in its range)" : "");
}

/* What a by-run row holds: the statistic of a and b, and --stat (which
 * pb-tint(1) names in its finding), each one word for the tools that
 * read them, then the sentence for people. lr-median declares its lr as
 * pb-logratio(1) would, so that a person reads it as a log ratio. */
static void by_run_meta(const struct opts *o, int multi, int ref)
{
	char p[NUM_BUFSZ];

	out_meta(KEY_PAIR_BY_RUN, "%s", o->stat.kind == RUN_LR_MEDIAN ? "median" : o->stat.name);
	out_meta(KEY_PAIR_STAT, "%s", o->stat.name);
	if (o->stat.kind == RUN_QUANTILE) {
		num_format(p, o->stat.p);
		out_meta(KEY_PAIR_BY_RUN KEY_NOTE, "%s of each arm per run (quantile %s, R's type 7); "
		         "n = pairs; d = b - a", o->stat.name, p);
	} else if (o->stat.kind == RUN_LR_MEDIAN) {
		out_meta(KEY_PAIR_BY_RUN KEY_NOTE, "lr-median: lr = the median of the pairs' ln(a/b) "
		         "per run; a, b = the median of each arm; n = pairs; d = b - a");
		if (multi)
			out_meta("log_ratio", "lr = median over the run's pairs of ln(a/b); the "
			         "reference %c is the baseline, the arm column's the candidate; lr > 0 "
			         "means the candidate took less time", 'A' + ref);
		else
			out_meta("log_ratio", "lr = median over the run's pairs of ln(a/b); A is the "
			         "baseline, B the candidate; lr > 0 means B took less time");
	} else {
		out_meta(KEY_PAIR_BY_RUN KEY_NOTE, "%s of each arm per run; n = pairs; d = b - a",
		         o->stat.name);
	}
}

/* "# pb-pair.rusage:" what the paired rusage columns at the end hold. */
static void use_meta(const struct pairing *pr)
{
	char list[384];
	size_t n = 0, i;

	list[0] = '\0';
	for (i = 0; i < NUSE; i++)
		if (pr->c.use[i] >= 0)
			n += (size_t)snprintf(list + n, sizeof list - n, "%sa_%s b_%s", n ? " " : "",
			                      use_names[i], use_names[i]);
	out_meta("pb-pair.rusage", "%s: pb-run's user_ns, sys_ns (ns) and maxrss_kib (KiB)%s%s "
	         "of %s (a_) and of %s (b_)%s%s", list,
	         pr->c.use[USE_MINFLT] >= 0 ? ", minflt, majflt (page faults) and nvcsw, nivcsw "
	                                      "(context switches)" : "",
	         pr->c.use[USE_TREE_MAXRSS] >= 0 ? ", and the whole tree's tree_maxrss_kib (KiB), "
	                                           "tree_cpu_ns (ns), tree_read_bytes and "
	                                           "tree_write_bytes (bytes: --resources tree)"
	                                         : "",
	         pr->multi ? "the reference" : "arm A", pr->multi ? "the candidate" : "arm B",
	         pr->o.by_run ? ", each reduced per run by the same statistic as a and b" : "",
	         pr->c.use[USE_CPU] >= 0 ? pr->o.by_run
	         ? "; cpu = user + sys of each observation, the CPU time whole (exact, where "
	           "its split is sampled at clock ticks), reduced as the others: the statistic "
	           "of the sums, not always a_user + a_sys"
	         : "; cpu = user + sys, the CPU time whole (exact, where its split is sampled "
	           "at clock ticks)" : "");
}

/* The "# pair:" note's words on first, and on the CPUs a duet gives. */
static const char *first_says(const struct pairing *pr)
{
	if (pr->c.duet)
		return "first = '=': the arms ran together (# order: duet), each pinned to a CPU "
		       "of its own, so neither ran first";
	return pr->multi ? "first = which of the two ran first in the pair"
	                 : "first = the arm that ran first";
}

static const char *cpu_says(const struct pairing *pr)
{
	return pr->c.cpu >= 0 && !pr->o.by_run ? "; cpu_a, cpu_b (last) = the CPU that a and b "
	       "were pinned to" : "";
}

static void print_head(struct pairing *pr, int argc, char **argv)
{
	size_t i;
	char places[32];

	snprintf(places, sizeof places, pr->c.duet ? "0: together" : "1 to %d", pr->arms);
	out_begin(&pr->s, argc, argv);
	if (pr->multi)
		out_meta("pair", "one row per pair and candidate arm (arm): a is the time of arm "
		         "%c, the reference, b that of the candidate, in ns; d = b - a; delay = "
		         "delay_b - delay_a; %s%s; pos_a, pos_b = their places in the pair (%s)%s",
		         'A' + pr->ref, first_says(pr),
		         pr->c.spin >= 0 ? "; spin = spin_b - spin_a, the realized delay" : "",
		         places, cpu_says(pr));
	else
		out_meta("pair", "d = b - a in ns (b is arm B, the candidate); delay = "
		         "delay_b - delay_a; %s%s%s", first_says(pr),
		         pr->c.spin >= 0 ? "; spin = spin_b - spin_a, the realized delay" : "",
		         cpu_says(pr));
	if (pr->o.by_run)
		by_run_meta(&pr->o, pr->multi, pr->ref);
	if (pr->c.nuse)
		use_meta(pr);
	if (pr->o.nexcl)
		out_meta("pb-pair.excluded", "runs %s; why: %s", pr->o.excl_text, pr->o.why);
	if (pr->o.by_run) {
		out_field("run");
		if (pr->multi)
			out_field("arm");
		out_field("n"), out_field("a"), out_field("b");
		out_field("d"), out_field("delay");
		if (pr->c.spin >= 0)
			out_field("spin");
		if (pr->o.stat.kind == RUN_LR_MEDIAN)
			out_field("lr");
	} else {
		out_field("run"), out_field("pair");
		if (pr->multi)
			out_field("arm");
		out_field("first"), out_field("a");
		out_field("b"), out_field("d"), out_field("delay");
		if (pr->c.spin >= 0)
			out_field("spin");
		if (pr->multi)
			out_field("pos_a"), out_field("pos_b");
	}
	if (pr->o.host)
		out_field("host");
	for (i = 0; i < pr->c.nextra; i++)
		out_field(pr->s.col[pr->c.extra[i]]);
	for (i = 0; i < NUSE; i++)
		if (pr->c.use[i] >= 0) {
			char name[16];

			snprintf(name, sizeof name, "a_%s", use_names[i]);
			out_field(name);
			name[0] = 'b';
			out_field(name);
		}
	if (pr->c.cpu >= 0 && !pr->o.by_run)
		out_field("cpu_a"), out_field("cpu_b");
	out_end();
}

/* One sentence a reader of the results must see: on stderr, and as
 * "# pb-pair.warning:" after the rows, where pb-tint finds it. */
static void warning(const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	msg = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(msg, (size_t)n + 1, fmt, ap);
	va_end(ap);
	out_meta("pb-pair.warning", "%s", msg);
	warn("%s", msg);
	free(msg);
}

static const char *stop_says(const struct stop *t)
{
	return strcmp(t->key, "failed") == 0 ? "the study stopped on a failure"
	                                     : "the study was interrupted";
}

static struct stop *stop_in(struct pairing *pr, const struct run *r)
{
	size_t i;

	for (i = 0; i < pr->nstops; i++)
		if (pr->stops[i].file == r->file && pr->stops[i].run == r->run)
			return &pr->stops[i];
	return NULL;
}

/* The measured pairs a run should have: the head's "pairs" (every
 * shard's, check_shard sees to it), or -1. */
static int64_t planned_pairs(const struct pairing *pr)
{
	int64_t n;

	return study_head_int(&pr->head, "pairs", &n) == 1 && n > 0 ? n : -1;
}

/* Runs with fewer measured pairs than planned, and why when a comment
 * says; a study that stopped. The first few runs are named, the rest
 * counted: a worker that dies in every run must not flood the output. */
static void warn_incomplete(struct pairing *pr)
{
	enum { NAMED = 3 };
	size_t i, nshort = 0;
	int64_t want, short_want = 0;

	for (i = 0; i < pr->run_index.n; i++) {
		struct run *r = &pr->runs[i];
		struct stop *t = stop_in(pr, r);
		long long run = (long long)r->run;

		want = planned_pairs(pr);
		if (r->joined >= want || excluded(&pr->o, r->run, 0))
			continue;
		short_want = want;
		if (++nshort > NAMED)
			continue;
		if (t)
			t->used = 1;   /* said here, with the run */
		if (r->ended)
			warning("run %lld has %ld of %lld measured pairs: the run ended early "
			        "(# run_ended: %s)", run, r->joined, (long long)want, r->ended);
		else if (t)
			warning("run %lld has %ld of %lld measured pairs: %s (# %s: %s)", run,
			        r->joined, (long long)want, stop_says(t), t->key, t->text);
		else
			warning("run %lld has %ld of %lld measured pairs, and no comment says "
			        "why (a cut stream?)", run, r->joined, (long long)want);
	}
	if (nshort > NAMED)
		warning("%zu more runs have fewer than %lld measured pairs", nshort - NAMED,
		        (long long)short_want);
	for (i = 0; i < pr->nstops; i++)
		if (!pr->stops[i].used)
			warning("%s (# %s: %s)", stop_says(&pr->stops[i]), pr->stops[i].key,
			        pr->stops[i].text);
}

static void print_tail(struct pairing *pr)
{
	if (pr->warmup_rows)
		out_meta("pb-pair.warmup_rows", "%ld dropped", pr->warmup_rows);
	if (pr->failed_pairs) {
		out_meta(KEY_PAIR_FAILED, "%ld", pr->failed_pairs);
		warning("dropped %ld pair%s with a failed observation (status != 0)",
		        pr->failed_pairs, pr->failed_pairs == 1 ? "" : "s");
	}
	if (pr->pairs_out == 0)
		die("%s: no measured pairs left%s", pr->s.name,
		    pr->o.nexcl ? " after --exclude" : "");
	warn_incomplete(pr);
}

int main(int argc, char **argv)
{
	static struct pairing pr;
	size_t i;

	pb_init("pb-pair");
	out_init();
	parse_args(argc, argv, &pr.o);
	stream_open(&pr.s, argc - optind, argv + optind);
	stream_on_meta(&pr.s, on_meta, &pr);
	stream_header(&pr.s);
	study_head_read(&pr.head, &pr.s, 0);
	read_arms(&pr);
	raw_cols_find(&pr.c, &pr.s);
	pr.c.duet = study_head_duet(&pr.head);
	if (!pr.o.by_run) {
		print_head(&pr, argc, argv);
		stream_passthrough(&pr.s);
	}
	while (stream_row(&pr.s)) {
		if (pr.s.cur != pr.file_checked) {
			check_shard(&pr);
			pr.file_checked = pr.s.cur;
		}
		take_row(&pr);
	}
	check_leftovers(&pr);
	if (pr.o.by_run) {
		check_hosts(&pr);
		print_head(&pr, argc, argv);
		emit_runs(&pr);
	}
	print_tail(&pr);
	for (i = 0; i < pr.run_index.n; i++)
		free_run(&pr, &pr.runs[i]);
	for (i = 0; i < pr.nstops; i++)
		free(pr.stops[i].text);
	free(pr.stops);
	free(pr.run_id);
	strmap_free(&pr.run_ids);
	free(pr.runs);
	pending_free(&pr.pending);
	free(pr.c.extra);
	free(pr.o.excl);
	strmap_free(&pr.run_index);
	study_head_free(&pr.head);
	stream_close(&pr.s);
	flush_stdout_or_die();
	return 0;
}
