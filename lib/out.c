#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "num.h"
#include "out.h"
#include "stream.h"

#ifndef PB_VERSION
#define PB_VERSION "0.0.0"
#endif

static void flush_rows(void);
static int rows_held;   /* rows wait in row[] (not a terminal) */

void out_init(void)
{
	static char outbuf[1 << 16];

	/* Large writes for pipes and files; a terminal stays line-buffered
	 * and sees each row as it ends. */
	if (!isatty(1)) {
		setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
		rows_held = 1;
	}
	pb_on_stdout_sync(flush_rows);
	atexit(flush_rows);   /* before exit's flush of stdio */
}

static int at_line_start = 1;
static int lines_out;

void out_escaped(const char *p)
{
	flush_rows();
	for (; *p; p++) {
		switch (*p) {
		case '\\': fputs("\\\\", stdout); break;
		case '\n': fputs("\\n", stdout); break;
		case '\r': fputs("\\r", stdout); break;
		case '\t': fputs("\\t", stdout); break;
		default: fputc(*p, stdout);
		}
	}
}

size_t out_escaped_len(const char *p)
{
	size_t n = 0;

	for (; *p; p++)
		n += *p == '\\' || *p == '\n' || *p == '\r' || *p == '\t' ? 2 : 1;
	return n;
}

size_t out_meta_len(const char *key, const char *value)
{
	return strlen("# ") + strlen(key) + strlen(": ") + out_escaped_len(value);
}

/* A word as the shell would need it to mean the same thing again. */
static void out_shell_word(const char *w)
{
	const char *p;

	if (shell_word_plain(w)) {
		out_escaped(w);
		return;
	}
	fputc('\'', stdout);
	for (p = w; *p; p++) {
		char c[2] = { *p, '\0' };
		if (*p == '\'')
			fputs("'\\''", stdout);
		else
			out_escaped(c);
	}
	fputc('\'', stdout);
}

/* Its length as out_shell_word writes it. */
static size_t shell_word_len(const char *w)
{
	size_t n = 2;

	if (shell_word_plain(w))
		return strlen(w);
	for (; *w; w++) {
		char c[2] = { *w, '\0' };
		n += *w == '\'' ? 4 : out_escaped_len(c);
	}
	return n;
}

static const char *provenance_word(char **argv, int i)
{
	return i == 0 ? pb_prog : argv[i];
}

size_t out_provenance_len(int argc, char **argv)
{
	size_t n = strlen("# : ") + strlen(pb_prog) + strlen(PB_VERSION);
	int i;

	for (i = 0; i < argc; i++)
		n += 1 + shell_word_len(provenance_word(argv, i));
	return n;
}

void out_begin(struct stream *s, int argc, char **argv)
{
	int i;

	/* a line no tool would read back: refused before anything is written */
	if (out_provenance_len(argc, argv) > STREAM_LINE_MAX)
		die("the command line is %zu bytes as the stream's first line (# %s: ...): "
		    "more than a line of the stream carries (%u bytes)",
		    out_provenance_len(argc, argv), pb_prog, STREAM_LINE_MAX);
	flush_rows();
	if (s)
		stream_put_comments(s);
	printf("# %s: %s", pb_prog, PB_VERSION);
	for (i = 0; i < argc; i++) {
		fputc(' ', stdout);
		out_shell_word(provenance_word(argv, i));
	}
	fputc('\n', stdout);
}

/* fmt with ap, escaped, as a whole comment "# key: ...\n" or, with key
 * NULL, as a part of one. Formatted first: nothing is written when
 * memory runs out. */
static void put_formatted(const char *key, const char *fmt, va_list ap)
{
	char small[256], *v = vformat(small, sizeof small, fmt, ap);

	if (!v)
		die("out of memory");
	if (key)
		out_meta_begin(key);
	out_escaped(v);
	if (key)
		out_meta_end();
	if (v != small)
		free(v);
}

void out_meta(const char *key, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	put_formatted(key, fmt, ap);
	va_end(ap);
}

void out_meta_begin(const char *key)
{
	flush_rows();
	printf("# %s: ", key);
}

void out_meta_text(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	put_formatted(NULL, fmt, ap);
	va_end(ap);
}

void out_meta_as_read(const char *v)
{
	flush_rows();
	for (; *v; v++)
		if (*v == '\t')
			fputs("\\t", stdout);
		else if (*v == '\r')
			fputs("\\r", stdout);
		else
			putchar(*v);
}

void out_meta_end(void)
{
	flush_rows();
	fputc('\n', stdout);
}

void out_meta_num(const char *key, const char *fmt, double x)
{
	char num[NUM_BUFSZ];

	num_format(num, x);
	out_meta(key, fmt, num);
}

/* The rows being written: out_field, out_num and out_i64 collect a row
 * here, out_end ends it, and the ended rows go out in one write when the
 * buffer is full (or at once on a terminal: put_rows). An fwrite a row
 * cost more than printing the row's number (callgrind, pb-logratio).
 * Whatever else writes to stdout calls flush_rows first (out's
 * comments here, the stream's through pb_stdout_sync), so the order of
 * the output is the order of the calls. */
static char row[1 << 16];
static size_t row_len;   /* bytes in row[] */
static size_t rows_end;  /* of them, the ended rows */

/* n bytes of rows out. Held rows (not a terminal) go to the file by
 * write(2) itself, after what stdio holds: through stdio they were copied
 * into its buffer first (an eighth of pb-logratio's instructions, in
 * fwrite). What write cannot take goes through stdio after all, which
 * fails the same way and keeps the error for flush_stdout_or_die. */
static void put_rows(const char *p, size_t n)
{
	if (rows_held && fflush(stdout) == 0)
		while (n > 0) {
			ssize_t w = write(1, p, n);

			if (w <= 0 && !(w < 0 && errno == EINTR))
				break;
			if (w > 0)
				p += w, n -= (size_t)w;
		}
	if (n > 0)
		fwrite(p, 1, n, stdout);
}

static void flush_rows(void)
{
	if (!rows_end)
		return;
	put_rows(row, rows_end);
	memmove(row, row + rows_end, row_len - rows_end);
	row_len -= rows_end;
	rows_end = 0;
}

/* Room for n more bytes; a row longer than the buffer goes out in
 * pieces. */
static void row_room(size_t n)
{
	if (sizeof row - row_len < n) {
		put_rows(row, row_len);
		row_len = rows_end = 0;
	}
}

/* A field's start: room for its TAB and n bytes, and the TAB unless the
 * field is the row's first (written always, counted only then: no branch
 * on where in the row a field lies). */
static inline void field_start(size_t n)
{
	row_room(n + 1);
	row[row_len] = '\t';
	row_len += !at_line_start;
	at_line_start = 0;
}

void out_fieldn(const char *str, size_t n)
{
	if (n >= sizeof row) {   /* longer than the buffer: what it holds, then str */
		field_start(0);
		row_room(sizeof row);
		fwrite(str, 1, n, stdout);
		return;
	}
	field_start(n);
	memcpy(row + row_len, str, n);
	row_len += n;
}

void out_field(const char *str)
{
	out_fieldn(str, strlen(str));
}

void out_num(double x)
{
	field_start(NUM_BUFSZ);
	row_len += num_format(row + row_len, x);
}

void out_num_or_empty(double x)
{
	if (isfinite(x))
		out_num(x);
	else
		out_field("");
}

void out_i64(int64_t x)
{
	field_start(NUM_BUFSZ);
	if ((uint64_t)x < 10) {   /* a delay, a status, a run: one digit, no call */
		row[row_len++] = (char)('0' + x);
		return;
	}
	row_len += num_format_i64(row + row_len, x);
}

void out_end(void)
{
	row_room(1);
	row[row_len++] = '\n';
	rows_end = row_len;
	if (!rows_held || lines_out < 2)
		flush_rows();
	at_line_start = 1;
	if (lines_out < 2) {
		lines_out++;
		fflush(stdout);
	}
}
