/* libFuzzer target: the stream reader (lib/stream.c) driven the way the
 * tools drive it, output to /dev/null. The input is one pb stream, or two
 * when it holds the bytes FF FE: the part before them is the first file,
 * the part after the second (so header agreement and comments across
 * files are reached). An input of odd length is read in pass-through mode
 * (pb-logratio, pb-pair), an even one keeps comments pending (pb-tint).
 *
 * die() and stream_die() return here through pb_die_hook; each input is
 * then closed with stream_close, so LeakSanitizer sees every leak. Every
 * error must be exactly one stderr line "pb-fuzz: ..."; before it, or
 * when the reader ends without an error, stderr may hold only warnings
 * of a last line without its line feed, one per file. Every metadata
 * line goes through run_comment_parse, as pb-pair's and pb-plan's do.
 * Linux only (memfd_create). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "err.h"
#include "num.h"
#include "out.h"
#include "stream.h"
#include "study.h"

static jmp_buf back;
static int memfd[2];
static char fdname[2][32];

static void die_returns(void)
{
	longjmp(back, 1);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int i;

	(void)argc, (void)argv;
	pb_init("pb-fuzz");
	pb_die_hook = die_returns;
	if (!freopen("/dev/null", "w", stdout))
		abort();
	for (i = 0; i < 2; i++) {
		memfd[i] = memfd_create("pb-fuzz", 0);
		if (memfd[i] < 0)
			abort();
		snprintf(fdname[i], sizeof fdname[i], "/dev/fd/%d", memfd[i]);
	}
	return 0;
}

static void load(int i, const uint8_t *data, size_t size)
{
	if (ftruncate(memfd[i], 0) < 0 ||
	    (size && pwrite(memfd[i], data, size, 0) != (ssize_t)size))
		abort();
}

/* Split at the first FF FE into the memfds; returns the number of files. */
static int load_files(const uint8_t *data, size_t size)
{
	size_t i;

	for (i = 0; i + 1 < size; i++)
		if (data[i] == 0xff && data[i + 1] == 0xfe) {
			load(0, data, i);
			load(1, data + i + 2, size - i - 2);
			return 2;
		}
	load(0, data, size);
	return 1;
}

/* What the tools do with a row: numbers in the columns they know, an
 * integer run number, the line joined back and written (to /dev/null)
 * with the numbers appended. */
static void use_row(struct stream *s, const long *c, size_t nc, long run)
{
	size_t i, len;
	const char *line;
	double v, sum = 0;
	int64_t r = 0;

	if (s->nfield != s->ncol)
		abort();
	for (i = 0; i < s->nfield; i++)
		(void)num_parse(s->field[i], &v);
	if (run >= 0)
		r = stream_int(s, (size_t)run);
	for (i = 0; i < nc; i++)
		if (c[i] >= 0)
			sum += stream_num(s, (size_t)c[i]);
	line = stream_line(s, &len);
	if (strlen(line) != len || memchr(line, '\n', len) ||
	    (len && line[len - 1] == '\r'))
		abort();
	out_fieldn(line, len);
	out_i64(r);
	out_num(sum);
	out_end();
}

/* What pb-pair does with a "# run:" comment: its words, checked to lie
 * inside the value. */
static void on_meta(void *ctx, const struct stream *s, const struct meta *m)
{
	const struct word *w[5];
	struct run_comment rc;
	size_t i, n = strlen(m->value);

	(void)ctx;
	if (m->file != s->cur || m->line != s->lineno)
		abort();
	if (run_comment_parse(m->value, &rc) < 0)
		return;
	w[0] = &rc.number, w[1] = &rc.start, w[2] = &rc.pid, w[3] = &rc.study, w[4] = &rc.host;
	for (i = 0; i < 5; i++)
		if (w[i]->len && (w[i]->p < m->value || w[i]->p + w[i]->len > m->value + n))
			abort();
	if (rc.run < 0)
		abort();
}

/* Provenance as a tool writes it, quoting a metadata value as if it had
 * been an argument, and that value escaped as metadata. */
static void out_head(struct stream *s)
{
	static char *argv[2] = { "pb-fuzz", NULL };
	const char *v = stream_head_meta(s, "pb-run", -1);

	argv[1] = (char *)(v ? v : "");
	out_begin(s, 2, argv);
	if (v)
		out_meta("echo", "%s", v);
}

static void read_stream(struct stream *s, int nfiles, int passthrough)
{
	static char *names[2] = { fdname[0], fdname[1] };
	static const char *cols[] = { "a", "b", "lr", "d", "ns" };
	long c[LEN(cols)], run;
	size_t i;
	struct study_head h;
	int64_t x;
	double y;

	stream_open(s, nfiles, names);
	stream_on_meta(s, on_meta, NULL);
	stream_header(s);
	for (i = 0; i < LEN(cols); i++)
		c[i] = stream_col_find(s, cols[i]);
	run = stream_col_find(s, "run");
	if (passthrough) {
		out_head(s);
		stream_passthrough(s);
	}
	while (stream_row(s))
		use_row(s, c, LEN(c), run);
	study_head_read(&h, s, 0);
	(void)study_head_str(&h, "host");
	(void)study_head_int(&h, "pairs", &x);
	(void)study_head_num(&h, "seq_level", &y);
	study_head_free(&h);
	(void)stream_head_meta(s, "pairs", 1);
	if (!passthrough)
		out_head(s);
	if (stream_col(s, "a") != (size_t)c[0])  /* no 'a': dies, lists columns */
		abort();
}

/* Lines "pb-fuzz: ...\n": at most two warnings of a cut last line (one
 * per file), then, after an error, that one line. */
static void check_stderr(const char *msg, size_t len, int died)
{
	static const char cut[] = ": the last line has no line feed (a cut stream?)\n";
	const char *end = msg + len, *p = msg, *nl;
	int warnings = 0;

	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl || nl - p < 10 || strncmp(p, "pb-fuzz: ", 9) != 0)
			abort();
		if (died && nl + 1 == end)
			return;   /* the error */
		if ((size_t)(nl + 1 - p) < sizeof cut ||
		    memcmp(nl + 1 - (sizeof cut - 1), cut, sizeof cut - 1) != 0 || ++warnings > 2)
			abort();
	}
	if (died)
		abort();   /* no error line */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct stream s;
	static char *msg;
	static size_t msglen;
	static FILE *saved, *err;
	static int died;

	memset(&s, 0, sizeof s);
	saved = stderr;
	err = open_memstream(&msg, &msglen);
	if (!err)
		abort();
	stderr = err;
	died = 0;
	if (setjmp(back) == 0)
		read_stream(&s, load_files(data, size), size % 2);
	else
		died = 1;
	stream_close(&s);
	stderr = saved;
	fclose(err);
	check_stderr(msg, msglen, died);
	free(msg);
	return 0;
}
