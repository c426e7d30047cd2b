/* Unit tests of lib/stream.c, and of lib/study.c's readers, on small
 * files written to a temporary directory. Errors exit the process, so
 * they are tested by the shell tests (t/0100-stream.t), not here. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "err.h"
#include "out.h"
#include "stream.h"
#include "study.h"
#include "tap.h"

static char dir[200];
static char paths[12][256];
static int npaths;

static char *write_file(const char *name, const char *text, size_t len)
{
	char *p = paths[npaths++];
	FILE *f;

	snprintf(p, sizeof paths[0], "%s/%s", dir, name);
	f = fopen(p, "w");
	if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
		perror(p);
		exit(99);
	}
	return p;
}

static int str_is(const char *got, const char *want)
{
	return got && strcmp(got, want) == 0;
}

/* stdout to a file between capture_begin and capture_end, which returns
 * what was written (the caller frees it). */
static int saved_fd = -1;
static char capture_path[256];

static int captured_fd;

static void capture_begin_fd(int which)
{
	int fd;

	snprintf(capture_path, sizeof capture_path, "%s/stdout", dir);
	fflush(stdout);
	fflush(stderr);
	captured_fd = which;
	saved_fd = dup(which);
	fd = open(capture_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (saved_fd < 0 || fd < 0 || dup2(fd, which) < 0) {
		perror("capture");
		exit(99);
	}
	close(fd);
}

static void capture_begin(void)
{
	capture_begin_fd(1);
}

static char *capture_end(void)
{
	FILE *f;
	char *buf = calloc(1, 1 << 16);

	fflush(stdout);
	fflush(stderr);
	dup2(saved_fd, captured_fd);
	close(saved_fd);
	f = fopen(capture_path, "r");
	if (!f || !buf) {
		perror(capture_path);
		exit(99);
	}
	if (fread(buf, 1, (1 << 16) - 1, f) == 0)
		buf[0] = '\0';
	fclose(f);
	return buf;
}

static const char file1[] =
	"# tool: x\n"
	"# key: one\n"
	"# not meta\n"
	"#key:nospace\n"
	"# Key: upper\n"
	"# empty:\n"
	"# cmd: a b  c\n"
	"# pb-run: 0.1.0 pb-run --runs 3\n"
	"a\tb\tc\n"
	"1\t2.5\t\n"
	"# key: one-b\n"
	"3\t-4e0\tz\n";
static const char file2[] =      /* no newline at the end */
	"# key: two\n"
	"# key: two-b\n"
	"a\tb\tc\n"
	"5\t6\tw";

/* What on_meta saw, one "file:line key=value;" each. */
static char seen[512];

static void note_meta(void *ctx, const struct stream *s, const struct meta *m)
{
	size_t n = strlen(seen);

	(void)s;
	++*(int *)ctx;
	snprintf(seen + n, sizeof seen - n, "%d:%ld %s=%s;", m->file, m->line, m->key, m->value);
}

/* Length of file1's comment lines, before its header. */
static size_t head1(void)
{
	return (size_t)(strstr(file1, "a\tb\tc\n") - file1);
}

/* lib/study's reader of the heads read by s (file1 and file2). */
static void test_study_head(const struct stream *s)
{
	struct study_head h, h1;
	int64_t i = 7;
	double x = 7;

	study_head_read(&h, s, -1);
	study_head_read(&h1, s, 1);
	ok(h.n == 7 && h1.n == 2, "study_head_read: the 7 lines of both heads, the 2 of file 1");
	ok(str_is(study_head_str(&h, "key"), "one") && str_is(study_head_str(&h1, "key"), "two"),
	   "study_head_str: the first value (any file: file 0's one; file 1's head: two, not two-b)");
	ok(study_head_str(&h, "nope") == NULL && study_head_str(&h, "Key") == NULL,
	   "study_head_str of a missing key (or of \"# Key:\", not metadata) is NULL");
	ok(str_is(study_head_str(&h, "empty"), "") && str_is(study_head_str(&h, "cmd"), "a b  c") &&
	   str_is(study_head_str(&h, "pb-run"), "0.1.0 pb-run --runs 3"),
	   "study_head_str: an empty value, inner spaces, a provenance line");
	ok(study_head_int(&h, "nope", &i) == 0 && i == 7 && study_head_num(&h, "nope", &x) == 0 &&
	   x == 7, "study_head_int, _num of a missing key: 0, the value untouched");
	ok(study_head_int(&h, "key", &i) == -1 && i == 7 && study_head_num(&h, "cmd", &x) == -1 &&
	   x == 7, "study_head_int, _num of a value that is not a number: -1, untouched");
	study_head_free(&h);
	study_head_free(&h1);
	{
		static const char twice[] = "# pairs: 10\n# pairs: 20\n# level: 0.9\n"
		                            "# level: 0.5\nx\n1\n# pairs: 30\n";
		char *files[1];
		struct stream t;

		files[0] = write_file("twice", twice, sizeof twice - 1);
		stream_open(&t, 1, files);
		stream_header(&t);
		while (stream_row(&t))
			;
		study_head_read(&h, &t, -1);
		ok(study_head_int(&h, "pairs", &i) == 1 && i == 10 &&
		   study_head_num(&h, "level", &x) == 1 && x == 0.9,
		   "a key given twice: its first value counts (10, 0.9), and not the rows' 30");
		study_head_free(&h);
		stream_close(&t);
	}
}

/* lib/study's readers of pb-plan's and pb-check's output. */
static void test_study_files(void)
{
	static const char plan[] =
		"# pb-plan.pair_cost: 2500\n# pb-plan.pair_cost: 9\n# pb-plan.run_cost: 0\n"
		"plan\tsigma2_between\tsigma2_within\truns\tpairs\thalfwidth\ttotal_s\n"
		"current\t0.0004\t0.01\t10\t100\t0.02\t3\n"
		"best\t0.0004\t0.01\t5\t7\t0.05\t1\n"
		"kalibera_jones\t0.0004\t0.01\t6\t5\t0.05\t1\n"
		"current\t1\t1\t99\t99\t1\t1\n";
	static const char noplan[] =
		"plan\tsigma2_between\tsigma2_within\truns\tpairs\thalfwidth\ttotal_s\n"
		"best\t\t\t5\t7\t0.05\t1\n";
	static const char check[] =
		"# study: 0123456789abcdef\narm\tcheck\tstatus\tvalue\tlo\thi\tunit\tnote\n"
		"B\torder\tok\t\t\t\t\tfine\nC\tdrift\twarn\t1\t0\t2\tns\tit drifts\n";
	struct study_plan p;
	struct study_checks c;

	study_plan_read(&p, write_file("plan", plan, sizeof plan - 1));
	ok(p.pair_ns == 2500 && p.run_ns == 0, "study_plan_read: the costs, the first of each");
	ok(p.sigma2_between == 0.0004 && p.sigma2_within == 0.01 && p.runs == 10 && p.kj_pairs == 5,
	   "study_plan_read: the first current row's variances and runs, kalibera_jones's pairs");
	study_plan_read(&p, write_file("noplan", noplan, sizeof noplan - 1));
	ok(isnan(p.pair_ns) && isnan(p.run_ns) && isnan(p.sigma2_between) && p.runs == 0 &&
	   p.kj_pairs == 0, "study_plan_read without costs, current or kalibera_jones: NAN and 0");
	study_checks_read(&c, write_file("check", check, sizeof check - 1), "check");
	ok(c.n == 2 && str_is(c.study, "0123456789abcdef") && str_is(c.row[1].arm, "C") &&
	   str_is(c.row[1].check, "drift") && str_is(c.row[1].status, "warn") &&
	   str_is(c.row[1].note, "it drifts") && str_is(c.row[0].status, "ok"),
	   "study_checks_read: the study and every row, arm, check, status and note");
	study_checks_free(&c);
}

static void test_two_files(void)
{
	char *files[2];
	struct stream s;
	const char *line;
	size_t len;
	char *out, *err;
	int calls = 0;

	files[0] = write_file("one", file1, sizeof file1 - 1);
	files[1] = write_file("two", file2, sizeof file2 - 1);
	stream_open(&s, 2, files);
	stream_on_meta(&s, note_meta, &calls);
	stream_header(&s);
	ok(s.ncol == 3 && str_is(s.col[0], "a") && str_is(s.col[1], "b") &&
	   str_is(s.col[2], "c"), "stream_header: columns a b c");
	ok(stream_col(&s, "b") == 1 && stream_col(&s, "c") == 2, "stream_col finds b and c");
	ok(stream_col_find(&s, "nope") == -1, "stream_col_find of a missing column is -1");
	ok(s.npending == 8 && str_is(s.pending[0], "# tool: x") &&
	   str_is(s.pending[6], "# cmd: a b  c"), "comments before the header kept in order");
	ok(str_is(stream_head_meta(&s, "key", -1), "one"), "stream_head_meta after the header: one");

	ok(stream_row(&s) == 1 && s.nfield == 3, "row 1 read, 3 fields");
	ok(stream_num(&s, 1) == 2.5 && stream_int(&s, 0) == 1, "row 1: stream_num 2.5, stream_int 1");
	ok(str_is(s.field[2], ""), "row 1: empty last field kept");
	line = stream_line(&s, &len);
	ok(len == 6 && memcmp(line, "1\t2.5\t", 7) == 0, "stream_line rejoins row 1");
	ok(s.lineno == 10 && str_is(s.name, files[0]), "row 1 is line 10 of file one");

	ok(stream_row(&s) == 1 && stream_num(&s, 1) == -4 && str_is(s.field[2], "z"),
	   "row 2 across a comment: -4e0 and z");
	line = stream_line(&s, &len);
	ok(len == 8 && str_is(line, "3\t-4e0\tz"), "stream_line rejoins row 2");

	ok(stream_row(&s) == 1 && s.cur == 1 && str_is(s.field[0], "5") &&
	   str_is(s.field[2], "w"), "row 3 from the second file, no final newline");
	ok(s.lineno == 4 && str_is(s.name, files[1]), "row 3 is line 4 of file two");
	capture_begin_fd(2);
	ok(stream_row(&s) == 0 && s.rows == 3, "end after 3 rows");
	err = capture_end();
	ok(strstr(err, "/two:4: the last line has no line feed (a cut stream?)\n") &&
	   strchr(err, '\n') == err + strlen(err) - 1,
	   "one warning, at the end: file two's line 4 has no line feed");
	free(err);

	ok(strncmp(seen, "0:1 tool=x;0:2 key=one;0:6 empty=;0:7 cmd=a b  c;"
	           "0:8 pb-run=0.1.0 pb-run --runs 3;0:11 key=one-b;1:1 key=two;1:2 key=two-b;",
	           sizeof seen) == 0 && calls == 8,
	   "on_meta: every metadata line, head and rows, with file and line");
	ok(s.nmeta == 7, "only the heads' metadata is kept (7 lines, not one-b among the rows)");
	ok(str_is(stream_head_meta(&s, "key", 1), "two") &&
	   str_is(stream_head_meta(&s, "key", -1), "one") &&
	   str_is(stream_head_meta(&s, "key", 0), "one"),
	   "stream_head_meta: the first in the head (file 1: two; any: file 0's one)");
	ok(stream_head_meta(&s, "key", 2) == NULL && stream_head_meta(&s, "nope", -1) == NULL,
	   "stream_head_meta of a missing key or file is NULL");
	test_study_head(&s);

	capture_begin();
	stream_put_comments(&s);
	out = capture_end();
	ok(s.npending == 0 && strncmp(out, file1, head1()) == 0 &&
	   strcmp(out + head1(), "# key: one-b\n# key: two\n# key: two-b\n") == 0,
	   "stream_put_comments writes the 11 comments in order");
	free(out);
	stream_close(&s);
}

static void test_passthrough(void)
{
	char *files[1];
	struct stream s;
	char *out;

	files[0] = paths[0];   /* file1 */
	stream_open(&s, 1, files);
	capture_begin();
	stream_header(&s);
	stream_passthrough(&s);
	while (stream_row(&s))
		;
	out = capture_end();
	ok(strncmp(out, file1, head1()) == 0 && strcmp(out + head1(), "# key: one-b\n") == 0,
	   "stream_passthrough: comments go out as they are read");
	free(out);
	stream_close(&s);
}

static void test_one_column(void)
{
	static const char text[] = "x\n1\n\n2\n";
	char *files[1];
	struct stream s;
	int n = 0, good = 1;

	files[0] = write_file("onecol", text, sizeof text - 1);
	stream_open(&s, 1, files);
	while (stream_row(&s)) {
		good &= s.nfield == 1;
		good &= str_is(s.field[0], n == 0 ? "1" : n == 1 ? "" : "2");
		n++;
	}
	ok(n == 3 && good, "one column: an empty line is an empty field");
	stream_close(&s);
}

static void test_long_line(void)
{
	enum { LONG = 200000 };   /* over three read chunks */
	char *text = malloc(LONG + 16), *files[1];
	struct stream s;
	size_t len;

	memcpy(text, "a\tb\n", 4);
	memset(text + 4, 'x', LONG);
	memcpy(text + 4 + LONG, "\t1\n", 3);
	files[0] = write_file("long", text, LONG + 7);
	stream_open(&s, 1, files);
	ok(stream_row(&s) == 1 && strlen(s.field[0]) == LONG && stream_num(&s, 1) == 1,
	   "a %d-byte field across read chunks", LONG);
	ok(stream_line(&s, &len) && len == LONG + 2, "stream_line of the long row");
	stream_close(&s);
	free(text);
}

/* stream_keep_line: the fields lie in the line as read, each ending at
 * its TAB; numbers of every form are read in them, a line is what was
 * read, and a message quotes a field, not the rest of the line. */
static void test_keep_line(void)
{
	static const char text[] = "a\tb\tc\n1.5e3\t-12\tz\n";
	char *files[1], buf[MSG_CUT_BUF], *big = malloc(300);
	struct stream s;
	size_t len;
	int64_t i;
	const char *line;

	files[0] = write_file("keep", text, sizeof text - 1);
	stream_open(&s, 1, files);
	stream_header(&s);
	stream_keep_line(&s);
	ok(stream_row(&s) == 1 && s.field[0][5] == '\t' && stream_field_len(&s, 0) == 5 &&
	   stream_field_len(&s, 2) == 1, "keep_line: fields not cut, lengths to the TAB");
	ok(stream_num(&s, 0) == 1500 && stream_num(&s, 1) == -12 &&
	   stream_i64(&s, 1, &i) == 0 && i == -12,
	   "keep_line: 1.5e3 and -12 read in a line not cut (the general paths)");
	ok(str_is(stream_field_cut(buf, &s, 1), "-12"), "keep_line: stream_field_cut quotes the field");
	line = stream_line(&s, &len);
	ok(len == 11 && memcmp(line, "1.5e3\t-12\tz", 11) == 0, "keep_line: the line as read");
	stream_close(&s);
	/* a number of 200 digits, read in memory of its own */
	memset(big, '0', 300);
	memcpy(big, "x\ty\n1", 5);
	memcpy(big + 205, "\t1\n", 3);
	files[0] = write_file("keepbig", big, 208);
	stream_open(&s, 1, files);
	stream_header(&s);
	stream_keep_line(&s);
	ok(stream_row(&s) == 1 && stream_num(&s, 0) == 1e200 && stream_num(&s, 1) == 1,
	   "keep_line: 1e200 written out in 201 digits, before a TAB");
	stream_close(&s);
	free(big);
}

static void test_output(void)
{
	static char *argv[] = { "t/unit/stream", "--x=1", "it's", "", NULL };
	char *out;

	capture_begin();
	out_meta("key", "%s %d", "a\tb\\c\nd\re", 7);
	out_field("x");
	out_num(0.1);
	out_i64(-7);
	out_fieldn("yz", 1);
	out_num(1e21);
	out_end();
	out_field("");
	out_field("");
	out_end();
	out_meta_num("n", "level %s.", 0.95);
	out_meta_begin("f");
	out_meta_text("[%s] ", "a\nb\\");
	out_meta_as_read("x\\ny\tz\r");
	out_meta_text(".");
	out_meta_end();
	out_num_or_empty(NAN);
	out_num_or_empty(2.5);
	out_num_or_empty(-INFINITY);
	out_end();
	out_begin(NULL, 4, argv);
	out = capture_end();
	if (!ok(str_is(out, "# key: a\\tb\\\\c\\nd\\re 7\n"
	               "x\t0.1\t-7\ty\t1e21\n"
	               "\t\n"
	               "# n: level 0.95.\n"
	               "# f: [a\\nb\\\\] x\\ny\\tz\\r.\n"
	               "\t2.5\t\n"
	               "# pb-unit: " PB_VERSION " pb-unit --x=1 'it'\\''s' ''\n"),
	        "out_meta escapes; out_* separate fields; out_meta_num; out_meta_text escapes, "
	        "out_meta_as_read only TAB and CR; out_num_or_empty leaves "
	        "NaN and inf empty; out_begin quotes argv"))
		fprintf(stderr, "# got: %s", out);
	free(out);
}

static int word_is(const struct word *w, const char *want)
{
	return w->len == strlen(want) && memcmp(w->p, want, w->len) == 0;
}

/* pb-run's other comments among the rows: named words, and the run of a
 * failure or a stop. */
static void test_event_comments(void)
{
	static const char seq[] = "run 4 n=4 ratio=1.03 lo=0.98 hi=1.09";
	struct word r = study_word(seq, "ratio"), lo = study_word(seq, "lo");
	struct word hi = study_word(seq, "hi"), none = study_word(seq, "l");
	struct word open = study_word("run 2 n=2 ratio=1.1 unbounded", "lo");
	struct word twice = study_word("run 2 ratio=1 ratio=2", "ratio");

	ok(word_is(&r, "1.03") && word_is(&lo, "0.98") && word_is(&hi, "1.09") &&
	   none.len == 0 && !none.p, "study_word: ratio=, lo=, hi= of a sequential line; no 'l='");
	ok(open.len == 0 && word_is(&twice, "1"),
	   "study_word: an unbounded line has no lo=; of a name twice, the first");
	ok(study_event_run("run 3 pair 2 (measure) arm B: exit status 1") == 3 &&
	   study_event_run("run 12 (setup): the hook failed") == 12 &&
	   study_event_run("SIGINT in run 7 pair 1 (warmup) arm A; 6 pairs written") == 7 &&
	   study_event_run("SIGTERM in run 5 (cleanup); 0 pairs written") == 5,
	   "study_event_run: # failed:, # run_ended: and # interrupted: name their run");
	ok(study_event_run("the run 3 failed") == -1 && study_event_run("run x") == -1 &&
	   study_event_run("SIGINT at run 3") == -1 && study_event_run("run 3x pair") == -1 &&
	   study_event_run("run 99999999999999999999999") == -1,
	   "study_event_run: -1 for a value not so (a run word elsewhere, no number, too large)");
}

static void test_run_comment(void)
{
	struct run_comment rc;

	ok(run_comment_parse("3 start=2026-11-30T05:00:01.000Z pid=4242 study=0123456789abcdef "
	                     "host=vm one", &rc) == 0 && rc.run == 3 && word_is(&rc.number, "3") &&
	   word_is(&rc.start, "2026-11-30T05:00:01.000Z") && word_is(&rc.pid, "4242") &&
	   word_is(&rc.study, "0123456789abcdef") && word_is(&rc.host, "vm one"),
	   "run_comment_parse: run, start, pid, study; host is the rest");
	ok(run_comment_parse("12 start=S pid=7 host=h", &rc) == 0 && rc.run == 12 &&
	   rc.study.len == 0 && word_is(&rc.host, "h"), "an older comment: no study");
	ok(run_comment_parse("1 start=S pid=100", &rc) == 0 && rc.host.len == 0 &&
	   word_is(&rc.pid, "100"), "the oldest: no host");
	ok(run_comment_parse("5 x=1 pid=2 pid=3 new=y  start=T host=study=h", &rc) == 0 &&
	   word_is(&rc.pid, "2") && word_is(&rc.start, "T") && rc.study.len == 0 &&
	   word_is(&rc.host, "study=h"), "unknown words skipped, the first pid counts, "
	   "nothing after host= is read as a word");
	ok(run_comment_parse("7", &rc) == 0 && rc.run == 7 && rc.start.len == 0,
	   "a run number alone");
	ok(run_comment_parse("", &rc) < 0 && run_comment_parse("x start=S", &rc) < 0 &&
	   run_comment_parse("-1 start=S", &rc) < 0 && run_comment_parse("3x start=S", &rc) < 0 &&
	   run_comment_parse("99999999999999999999 pid=1", &rc) < 0 &&
	   run_comment_parse(" 3 pid=1", &rc) < 0, "no run number: -1");
}

/* The comment as pb-run writes it, read back; the stamps it carries. The
 * ms values: date -u -d 2026-11-30T05:21:07Z +%s (1796016067), and
 * likewise 2000-02-29T23:59:59Z (951868799), 1969-12-31T23:59:59Z (-1). */
static void test_run_comment_out(void)
{
	struct run_comment rc;
	char *out, stamp[32];
	const char *const *k;
	size_t nkeys = 0;
	char akey[8];

	clock_utc_stamp(stamp);
	capture_begin();
	run_comment_out(12, stamp, 4242, UINT64_C(0xabc), "", "vm one\ttab");
	out = capture_end();
	ok(strncmp(out, "# run: 12 start=", 16) == 0 && strlen(out) > 40 &&
	   strcmp(out + 40, " pid=4242 study=0000000000000abc host=vm one\\ttab\n") == 0,
	   "run_comment_out: run, start, pid, study (16 hex digits), host escaped");
	out[strlen(out) - 1] = '\0';
	ok(run_comment_parse(out + 7, &rc) == 0 && rc.run == 12 && word_is(&rc.start, stamp) &&
	   word_is(&rc.pid, "4242") && word_is(&rc.study, "0000000000000abc") &&
	   word_is(&rc.host, "vm one\\ttab"), "run_comment_parse reads it back");
	free(out);
	ok(clock_stamp_ms(stamp) > 1.7e12, "clock_stamp_ms reads clock_utc_stamp's stamp");
	ok(clock_stamp_ms("2026-11-30T05:21:07.123Z") == 1796016067123.0 &&
	   clock_stamp_ms("2000-02-29T23:59:59.999Z pid=1") == 951868799999.0 &&
	   clock_stamp_ms("1969-12-31T23:59:59.000Z") == -1000.0 &&
	   clock_stamp_ms("1970-01-01T00:00:00.000Z") == 0,
	   "clock_stamp_ms: ms since 1970 (a leap day, before 1970, words after it)");
	ok(clock_stamp_ms("2026-11-30T05:21:07Z") == -1 && clock_stamp_ms("") == -1 &&
	   clock_stamp_ms("2026-11-30 05:21:07.123Z") == -1 &&
	   clock_stamp_ms("2026-11-30T05:21:07.12Z") == -1, "clock_stamp_ms: -1 for no stamp");
	for (k = study_design_keys; *k; k++)
		nkeys++;
	ok(nkeys == 30 && strcmp(study_design_keys[0], "mode") == 0 &&
	   strcmp(study_design_keys[23], "clock") == 0 &&
	   strcmp(study_design_keys[28], "seq_stat") == 0 &&
	   strcmp(study_design_keys[29], "seq_kind") == 0,
	   "study_design_keys: 30 keys (the sequential rule's last), NULL ends them");
	study_arm_key(akey, "cmd_", 2);
	ok(strcmp(akey, "cmd_c") == 0, "study_arm_key: arm 2's command is cmd_c");
	study_arm_key(akey, "sql_", 25);
	ok(strcmp(akey, "sql_z") == 0, "study_arm_key: arm 25's script is sql_z");
}

/* xgrow_zero: old elements kept, every new one 0, over several growths. */
static void test_xgrow_zero(void)
{
	long *v = NULL;
	size_t cap = 0, i, n = 0;
	int good = 1;

	for (i = 0; i < 1000; i++) {
		xgrow_zero(&v, &cap, i + 1, sizeof *v);
		good &= cap > i && v[i] == 0;
		v[i] = (long)i + 1;
		for (; n < cap; n++)
			good &= n <= i ? v[n] == (long)n + 1 : v[n] == 0;
		n = i + 1;
	}
	ok(good && cap == 1024, "xgrow_zero: new elements 0, old kept (to 1024)");
	free(v);
}

static void test_msg_cut(void)
{
	char buf[MSG_CUT_BUF], v[100];

	ok(str_is(msg_cut(buf, "short"), "short"), "msg_cut: a short value whole");
	memset(v, 'x', 40);
	v[40] = '\0';
	ok(str_is(msg_cut(buf, v), v), "msg_cut: 40 bytes whole");
	v[40] = '7';
	v[41] = '\0';
	ok(strlen(msg_cut(buf, v)) == 43 && strcmp(buf + 40, "...") == 0 && buf[39] == 'x',
	   "msg_cut: 41 bytes cut at 40, with ...");
	memcpy(v + 39, "\xc2\xb5s", 4);   /* a 2-byte character at bytes 39-40 */
	ok(str_is(msg_cut(buf, v), "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."),
	   "msg_cut: not inside a UTF-8 character");
	ok(str_is(msg_cutn(buf, "12345\t678", 5), "12345"), "msg_cutn: the len bytes, not to the NUL");
	memset(v, 'y', 60);
	ok(strlen(msg_cutn(buf, v, 41)) == 43 && strcmp(buf + 40, "...") == 0,
	   "msg_cutn: 41 bytes cut at 40, with ...");
	ok(str_is(msg_cutn(buf, v, 40), "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"),
	   "msg_cutn: 40 bytes whole");
}

static void cleanup(void)
{
	int i;
	for (i = 0; i < npaths; i++)
		unlink(paths[i]);
	unlink(capture_path);
	rmdir(dir);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");

	pb_init("pb-unit");
	snprintf(dir, sizeof dir, "%s/pb-unit-stream.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror(dir);
		return 99;
	}
	test_two_files();
	test_study_files();
	test_passthrough();
	test_one_column();
	test_long_line();
	test_keep_line();
	test_output();
	test_run_comment();
	test_event_comments();
	test_run_comment_out();
	test_msg_cut();
	test_xgrow_zero();
	cleanup();
	return done_testing();
}
