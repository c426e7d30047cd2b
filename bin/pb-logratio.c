/* pb-logratio: add lr = ln(a/b) to each row, streaming. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "group.h"
#include "keys.h"
#include "opt.h"
#include "out.h"
#include "quantity.h"
#include "stats.h"
#include "stream.h"
#include "study.h"

static const char usage[] =
	"usage: pb-logratio [--a COL] [--b COL] [--name COL] [FILE...]\n"
	"Add the column lr = ln(a/b) to a pb stream: A is the baseline, B the\n"
	"candidate, lr > 0 means B took less time.\n";

static const struct pb_opt options[] = {
	{ "a", 'a', 0, "COL", NULL,
	  "baseline column (default a; a_user, a_sys, a_maxrss:\n"
	  "pb-pair's CPU time and peak memory)", NULL, 0 },
	{ "b", 'b', 0, "COL", NULL, "candidate column (default b)", NULL, 0 },
	{ "name", 'n', 0, "COL", NULL, "name of the added column (default lr)", NULL, 0 },
	{ NULL, 0, 0, NULL, NULL, NULL, NULL, 0 },
};
static const struct pb_cmd cmd = { usage, options, 15, NULL, 0 };

static const struct quantity *q;   /* what --a and --b measure */

static double positive_value(const struct stream *s, size_t col)
{
	double v = stream_num(s, col);
	char b[MSG_CUT_BUF];

	if (!(v > 0))
		stream_die(s, "column '%s': %s must be > 0, got '%s'%s", s->col[col], q->noun,
		           stream_field_cut(b, s, col), q->wall || strcmp(q->unit, "ns") ? "" : " (pb-run's "
		           "split of CPU time into user and system is sampled at clock ticks: "
		           "a short one can be 0)");
	return v;
}

/* "took less time", "used less peak memory; a_maxrss, b_maxrss in KiB". */
static const char *less_words(char *buf, size_t n, const char *acol, const char *bcol)
{
	if (q->wall)
		return "took less time";
	snprintf(buf, n, "used less %s; %s, %s in %s", q->noun, acol, bcol, q->unit);
	return buf;
}

/* The stream's lr is pb-pair's own when it reduced each run to the median
 * of the paired log ratios: computing ln(a/b) of the medians again would
 * throw that away, so the message says to leave pb-logratio out. */
static void refuse_existing(const struct stream *s, const char *name)
{
	struct study_head h;
	const char *stat;

	study_head_read(&h, s, -1);
	stat = study_head_str(&h, KEY_PAIR_STAT);
	if (strcmp(name, "lr") == 0 && stat && strcmp(stat, "lr-median") == 0)
		die("%s: column 'lr' exists already: pb-pair --by-run --stat lr-median wrote "
		    "it, the median of each run's paired ln(a/b); give the stream to pb-tint "
		    "without pb-logratio", s->name);
	die("%s: column '%s' exists already (choose another with --name)", s->name, name);
}

int main(int argc, char **argv)
{
	const char *acol = "a", *bcol = "b", *name = "lr";
	struct stream s;
	size_t ca, cb, i, len;
	char words[160];
	int c;

	pb_init("pb-logratio");
	out_init();
	while ((c = pb_getopt(argc, argv, &cmd)) != -1) {
		switch (c) {
		case 'a': acol = optarg; break;
		case 'b': bcol = optarg; break;
		case 'n': name = optarg; break;
		}
	}
	if (!stream_valid_name(name))
		die_usage("--name '%s' is not a column name ([a-z_][a-z0-9_]*)", name);
	stream_open(&s, argc - optind, argv + optind);
	stream_header(&s);
	ca = stream_col(&s, acol);
	cb = stream_col(&s, bcol);
	q = quantity_of_column(acol);
	if (stream_col_find(&s, name) >= 0)
		refuse_existing(&s, name);
	out_begin(&s, argc, argv);
	out_meta(KEY_LOGRATIO_COLUMN, "%s %s %s", name, acol, bcol);   /* what pb-tint reads */
	if (group_has_arms(&s))   /* several comparisons: the arm column's */
		out_meta("log_ratio", "%s = ln(%s/%s); the reference %s is the baseline, the arm "
		         "column's the candidate; %s > 0 means the candidate %s", name, acol, bcol,
		         group_reference(&s), name, less_words(words, sizeof words, acol, bcol));
	else
		out_meta("log_ratio", "%s = ln(%s/%s); A is the baseline, B the candidate; "
		         "%s > 0 means B %s", name, acol, bcol, name,
		         less_words(words, sizeof words, acol, bcol));
	for (i = 0; i < s.ncol; i++)
		out_field(s.col[i]);
	out_field(name);
	out_end();
	stream_passthrough(&s);
	stream_keep_line(&s);   /* the line goes out as read: not cut, not joined */
	while (stream_row(&s)) {
		double a = positive_value(&s, ca), b = positive_value(&s, cb);
		const char *line = stream_line(&s, &len);

		out_fieldn(line, len);
		out_num(stat_log_ratio(a, b));
		out_end();
	}
	stream_close(&s);
	flush_stdout_or_die();
	return 0;
}
