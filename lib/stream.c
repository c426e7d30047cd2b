#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "err.h"
#include "strmap.h"
#include "num.h"
#include "stream.h"

/* The fuzz build (make fuzz) sets a tiny chunk so that lines straddle
 * reads even in short inputs. */
#ifndef STREAM_READ_CHUNK
#define STREAM_READ_CHUNK (1 << 16)
#endif
/* buf holds bcap bytes and BUF_PAD more, set (to 0) past the bytes read:
 * a last line's NUL, the 8 bytes after any byte of a line that
 * num_parse_field may load at once, and the 16 that split_line does. */
enum { READ_CHUNK = STREAM_READ_CHUNK, BUF_PAD = 1 + 16 };

const char *stream_file_name(const struct stream *s, int file)
{
	return strcmp(s->names[file], "-") == 0 ? "stdin" : s->names[file];
}

/* "name:line" (line 0: the name alone), in a buffer that grows: a long
 * file name is never cut. Static, so a die that returns (the fuzz
 * harness) leaves nothing behind. */
static const char *where(const char *name, long line)
{
	static char *buf;
	static size_t cap;
	size_t n = strlen(name) + 24;

	xgrow(&buf, &cap, n, 1);
	if (line > 0)
		snprintf(buf, cap, "%s:%ld", name, line);
	else
		snprintf(buf, cap, "%s", name);
	return buf;
}

/* "name:line: message", then exit 1; the callers' va_start is never
 * ended, as nothing returns to them. */
static noreturn void vdie_at(const char *name, long line, const char *fmt, va_list ap)
{
	pb_vmessage(where(name, line), fmt, ap);
	pb_exit_data();
}

void stream_die(const struct stream *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie_at(s->name, s->lineno, fmt, ap);
}

void stream_die_at(const struct stream *s, int file, long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie_at(stream_file_name(s, file), line, fmt, ap);
}

static void warn_at(const char *name, long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pb_vmessage(where(name, line), fmt, ap);
	va_end(ap);
}

size_t msg_cut_len(const char *v, size_t max)
{
	size_t n = strnlen(v, max + 1);

	if (n <= max)
		return n;
	n = max;
	while (n > 0 && ((unsigned char)v[n] & 0xc0) == 0x80)
		n--;   /* v[n] continues a character: cut before it */
	return n;
}

const char *msg_cut(char *buf, const char *v)
{
	return msg_cutn(buf, v, strnlen(v, MSG_CUT + 1));
}

const char *msg_cutn(char *buf, const char *v, size_t len)
{
	size_t n = len <= MSG_CUT ? len : msg_cut_len(v, MSG_CUT);

	memcpy(buf, v, n);
	strcpy(buf + n, n < len ? "..." : "");
	return buf;
}

const char *stream_field_cut(char *buf, const struct stream *s, size_t col)
{
	return msg_cutn(buf, s->field[col], stream_field_len(s, col));
}

static void open_next(struct stream *s)
{
	const char *n = s->names[s->cur];

	s->lineno = 0;
	s->bpos = s->bend = 0;
	s->nul = SIZE_MAX;
	s->eof = 0;
	s->name = stream_file_name(s, s->cur);
	if (strcmp(n, "-") == 0) {
		s->fd = 0;
		return;
	}
	s->fd = open(n, O_RDONLY);
	if (s->fd < 0)
		die("%s:", n);
}

void stream_open(struct stream *s, int nfiles, char **files)
{
	static char *std_in[] = { "-" };

	memset(s, 0, sizeof *s);
	s->names = nfiles > 0 ? files : std_in;
	s->nnames = nfiles > 0 ? nfiles : 1;
	s->bcap = 2 * READ_CHUNK;
	s->buf = xmalloc(s->bcap + BUF_PAD);
	memset(s->buf, 0, BUF_PAD);
	open_next(s);
}

/* Up to READ_CHUNK more bytes at the end of buf; 0 at end of file. The
 * first NUL byte among them is noted, for the line it falls in. */
static int fill(struct stream *s)
{
	size_t room = s->bcap - s->bend;
	ssize_t n;

	do
		n = read(s->fd, s->buf + s->bend, room < READ_CHUNK ? room : READ_CHUNK);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		die("%s:", s->name);
	if (n == 0) {
		s->eof = 1;
		return 0;
	}
	if (s->nul == SIZE_MAX) {
		char *z = memchr(s->buf + s->bend, '\0', (size_t)n);

		if (z)
			s->nul = (size_t)(z - s->buf);
	}
	s->bend += (size_t)n;
	memset(s->buf + s->bend, 0, BUF_PAD);
	return 1;
}

/* The part of a line read so far moves to the start of buf, which grows
 * when less than a read is left after it: a line can be as long as
 * STREAM_LINE_MAX (the caller refuses a longer one first). */
static void make_room(struct stream *s)
{
	size_t keep = s->bend - s->bpos;

	if (s->bpos) {
		memmove(s->buf, s->buf + s->bpos, keep);
		if (s->nul != SIZE_MAX)
			s->nul -= s->bpos;
		s->bpos = 0;
		s->bend = keep;
	}
	if (s->bcap - s->bend < READ_CHUNK) {
		s->bcap = 2 * s->bcap > s->bend + READ_CHUNK ? 2 * s->bcap : s->bend + READ_CHUNK;
		s->buf = xrealloc(s->buf, s->bcap + BUF_PAD);
	}
}

/* The line from bpos to end (its line feed, or bend: a last line
 * without one) is the current line, its line feed now its NUL. */
static inline void take_line(struct stream *s, size_t end)
{
	s->line = s->buf + s->bpos;
	s->len = end - s->bpos;
	s->bpos = end < s->bend ? end + 1 : end;
	s->lineno++;
	if (s->len > STREAM_LINE_MAX)
		stream_die(s, "line longer than %u bytes", STREAM_LINE_MAX);
	s->line[s->len] = '\0';
	if (s->nul < end)
		stream_die(s, "NUL byte in line (binary input?)");
	if (s->len && s->line[s->len - 1] == '\r')
		stream_die(s, "CR before end of line (DOS line ends; pb streams use LF only)");
}

/* A line not all in buf yet: read on to its line feed or the end of the
 * file. 0 at end of file. */
static int read_line_more(struct stream *s)
{
	for (;;) {
		size_t scan = s->bend - s->bpos;   /* searched already, from the line's start */
		char *nl;

		if (scan > STREAM_LINE_MAX) {
			s->lineno++;
			stream_die(s, "line longer than %u bytes", STREAM_LINE_MAX);
		}
		make_room(s);
		if (s->eof || !fill(s)) {
			if (s->bend == s->bpos)
				return 0;
			s->no_lf = 1;  /* the last line, without its line feed */
			take_line(s, s->bend);
			return 1;
		}
		nl = memchr(s->buf + scan, '\n', s->bend - scan);
		if (nl) {
			take_line(s, (size_t)(nl - s->buf));
			return 1;
		}
	}
}

/* Next line of the current file, where it lies in buf: s->line, s->len;
 * 0 at end of file. */
static inline int read_line(struct stream *s)
{
	char *nl = memchr(s->buf + s->bpos, '\n', s->bend - s->bpos);

	s->no_lf = 0;
	if (!nl)
		return read_line_more(s);
	take_line(s, (size_t)(nl - s->buf));
	return 1;
}

/* Sixteen bytes at a time with SSE2 (every x86-64 has it), else eight
 * where the byte order lets the lowest set bit name the first TAB (gcc
 * and clang say which it is); else one by one. Lines of numbers are
 * mostly TABs and short fields: this is most of what reading a row
 * costs. The last load of a line reads on past its end, into the next
 * line or buf's padding (BUF_PAD), and its bits there are cleared. */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SPLIT_WORDS 1
#else
#define SPLIT_WORDS 0
#endif
#if SPLIT_WORDS && defined(__SSE2__)
#define SPLIT_SSE2 1
#else
#define SPLIT_SSE2 0
#endif

#if SPLIT_WORDS
/* The TABs of the bytes at p, one bit each in t (bit i << shift for
 * byte i), made sep (a NUL, or a TAB again for stream_keep_line: a store
 * either way, no branch): the fields after them kept in field while
 * there is room (keep), every one counted. Returns the count. */
static inline size_t cut_tabs(char *p, uint64_t t, unsigned shift, char **field, size_t n,
                              size_t keep, char sep)
{
	if (n + 16 <= keep) {   /* room for every TAB there can be: no test each */
		for (; t; t &= t - 1) {
			char *tab = p + (__builtin_ctzll(t) >> shift);

			*tab = sep;
			field[n++] = tab + 1;
		}
		return n;
	}
	for (; t; t &= t - 1) {
		char *tab = p + (__builtin_ctzll(t) >> shift);

		*tab = sep;
		if (n < keep)
			field[n] = tab + 1;
		n++;
	}
	return n;
}
#endif

/* The line cut at its TABs, each sep now (a NUL, or a TAB: not cut);
 * the first keep fields kept in s->field (which has room for them), the
 * others only counted, for the message. Locals only in the loop: a char
 * store may alias anything, so nothing of *s is read there. */
static void split_line(struct stream *s, size_t keep, char sep)
{
	char *p = s->line, *end = s->line + s->len, **field = s->field;
	size_t n = 1;

	field[0] = p;
#if SPLIT_SSE2
	{
		const __m128i tab = _mm_set1_epi8('\t');

		for (; p < end; p += 16) {
			__m128i v = _mm_loadu_si128((const void *)p);
			uint64_t t = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, tab));

			if (end - p < 16)
				t &= (UINT64_C(1) << (end - p)) - 1;
			n = cut_tabs(p, t, 0, field, n, keep, sep);
		}
	}
#elif SPLIT_WORDS
	for (; p < end; p += 8) {
		const uint64_t low7 = UINT64_C(0x7f7f7f7f7f7f7f7f);
		uint64_t w, t;

		memcpy(&w, p, 8);
		w ^= UINT64_C(0x0909090909090909);   /* a TAB is a zero byte now */
		t = ~(((w & low7) + low7) | w | low7);   /* 0x80 where, exactly */
		if (end - p < 8)
			t &= (UINT64_C(1) << ((end - p) * 8)) - 1;
		n = cut_tabs(p, t, 3, field, n, keep, sep);
	}
#else
	for (; p < end; p++)
		if (*p == '\t') {
			*p = sep;
			if (n < keep)
				field[n] = p + 1;
			n++;
		}
#endif
	s->nfield = n;
}

/* Room in s->field past the header's columns: a row's split keeps that
 * many more, so that up to its last expected field every block of 16
 * bytes takes its TABs without a test each (cut_tabs); a row longer than
 * that is only counted, for its message. */
enum { FIELD_SLACK = 16 };

/* A header line: every field kept. */
static void split(struct stream *s)
{
	const char *p = s->line, *end = s->line + s->len;
	size_t n = 1;

	while ((p = memchr(p, '\t', (size_t)(end - p))))
		p++, n++;
	xgrow(&s->field, &s->fcap, n + FIELD_SLACK, sizeof *s->field);
	split_line(s, n, '\0');
}

/* A row equal to the header (a second stream glued on by cat), cut or
 * not: where the line has row_sep the header may have a TAB. */
static int row_is_header(const struct stream *s)
{
	size_t i;

	if (s->len != s->hlen)
		return 0;
	for (i = 0; i < s->len; i++)
		if (s->line[i] != s->hline[i] && !(s->line[i] == s->row_sep && s->hline[i] == '\t'))
			return 0;
	return 1;
}

#if SPLIT_SSE2
/* The TABs cut in [from, to) by a scan that found no line feed put back:
 * the line is read again, the usual way. A NUL there is such a TAB: a
 * NUL the input held (s->nul) is an error of that line either way. */
static void uncut(struct stream *s, char *from, char *to)
{
	if (s->row_sep != '\0' || s->nul < (size_t)(to - s->buf))
		return;
	for (; from < to; from++)
		if (*from == '\0')
			*from = '\t';
}

/* The next data row found and cut in one pass over its bytes: its line
 * feed and its TABs in the same loads of sixteen. 0, with nothing
 * changed, when the usual way must read it: a comment, an empty line,
 * a line not all in buf. */
static int fast_row(struct stream *s)
{
	char *start = s->buf + s->bpos, *p = start, *end = s->buf + s->bend, **field = s->field;
	const __m128i tab = _mm_set1_epi8('\t'), lf = _mm_set1_epi8('\n');
	size_t n = 1, keep = s->ncol + FIELD_SLACK;
	char sep = s->row_sep;

	if (p >= end || *p == '#' || *p == '\n')
		return 0;
	field[0] = p;
	for (; p < end; p += 16) {
		__m128i v = _mm_loadu_si128((const void *)p);
		uint64_t t = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, tab));
		uint64_t l = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, lf));

		if (end - p < 16) {
			t &= (UINT64_C(1) << (end - p)) - 1;
			l &= (UINT64_C(1) << (end - p)) - 1;
		}
		if (l) {
			unsigned at = (unsigned)__builtin_ctzll(l);

			n = cut_tabs(p, t & ((UINT64_C(1) << at) - 1), 0, field, n, keep, sep);
			s->no_lf = 0;
			take_line(s, (size_t)(p + at - s->buf));
			s->nfield = n;
			return 1;
		}
		n = cut_tabs(p, t, 0, field, n, keep, sep);
	}
	uncut(s, start, end);
	return 0;
}
#else
static int fast_row(struct stream *s)
{
	(void)s;
	return 0;
}
#endif

void stream_keep_line(struct stream *s)
{
	s->row_sep = '\t';
}

const char *stream_line(struct stream *s, size_t *len)
{
	size_t i, n = s->header_read && s->nfield > s->ncol ? s->ncol : s->nfield;

	if (s->row_sep == '\t')
		n = 0;   /* never cut: the line as read */
	for (i = 1; i < n; i++)
		s->field[i][-1] = '\t';
	s->nfield = 0;
	*len = s->len;
	return s->line;
}

static int is_key_char(char c, int first)
{
	return (c >= 'a' && c <= 'z') || c == '_' ||
	       (!first && ((c >= '0' && c <= '9') || c == '-' || c == '.'));
}

/* A metadata comment: kept when in a head, and given to on_meta. The
 * line was written or copied before: the key is cut from it in place. */
static void take_meta(struct stream *s, int head)
{
	char *p = s->line + 1, *k;
	struct meta m;

	while (*p == ' ')
		p++;
	k = p;
	if (!is_key_char(*p, 1))
		return;
	while (is_key_char(*p, 0))
		p++;
	if (*p != ':' || (p[1] != ' ' && p[1] != '\0'))
		return;
	m.value = p[1] ? p + 2 : p + 1;
	*p = '\0';
	m.key = k;
	m.file = s->cur;
	m.line = s->lineno;
	if (head) {
		struct meta *kept;

		xgrow(&s->meta, &s->mcap, s->nmeta + 1, sizeof *s->meta);
		kept = &s->meta[s->nmeta++];
		*kept = m;
		kept->key = xstrdup(m.key);
		kept->value = xstrdup(m.value);
	}
	if (s->on_meta)
		s->on_meta(s->on_meta_ctx, s, &m);
}

/* A comment goes out now (passthrough) or waits for stream_put_comments. */
static void comment(struct stream *s, int head)
{
	if (s->passthrough) {
		stream_put_comments(s);
		pb_stdout_sync();
		fwrite(s->line, 1, s->len, stdout);
		fputc('\n', stdout);
	} else {
		xgrow(&s->pending, &s->pcap, s->npending + 1, sizeof *s->pending);
		s->pending[s->npending++] = xstrdup(s->line);
	}
	take_meta(s, head);
}

int stream_valid_name(const char *n)
{
	if (!is_key_char(*n, 1))
		return 0;
	for (n++; *n; n++)
		if (!((*n >= 'a' && *n <= 'z') || (*n >= '0' && *n <= '9') || *n == '_'))
			return 0;
	return 1;
}

static void take_header(struct stream *s)
{
	struct strmap names = { 0 };
	char v[MSG_CUT_BUF];
	size_t i;

	s->hline = xmalloc(s->len + 1);
	memcpy(s->hline, s->line, s->len + 1);
	s->hlen = s->len;
	split(s);
	for (i = 0; i < s->nfield; i++) {
		if (!stream_valid_name(s->field[i])) {
			strmap_free(&names);   /* the fuzz harness lives on after a die */
			stream_die(s, "bad column name '%s' in header "
			           "(names are [a-z_][a-z0-9_]*)", msg_cut(v, s->field[i]));
		}
		/* a hash, not all pairs: a header may hold 100 000 names */
		strmap_intern(&names, s->field[i], strlen(s->field[i]));
		if (names.n != i + 1) {
			strmap_free(&names);
			stream_die(s, "column '%s' twice in header", msg_cut(v, s->field[i]));
		}
	}
	strmap_free(&names);
	s->ncol = s->nfield;
	s->col = xmalloc(s->ncol * sizeof *s->col);
	for (i = 0; i < s->ncol; i++)
		s->col[i] = xstrdup(s->field[i]);
}

static void check_header(struct stream *s)
{
	char v[MSG_CUT_BUF], v0[MSG_CUT_BUF];
	size_t i;

	split(s);
	for (i = 0; i < s->nfield && i < s->ncol; i++)
		if (strcmp(s->field[i], s->col[i]) != 0)
			break;
	if (i < s->nfield || i < s->ncol)
		stream_die(s, "header differs from %s's (column %zu: '%s' vs '%s')",
		           stream_file_name(s, 0), i + 1,
		           msg_cut(v, i < s->nfield ? s->field[i] : ""),
		           msg_cut(v0, i < s->ncol ? s->col[i] : ""));
}

/* Lines up to and including the header of the current file. */
static void read_file_header(struct stream *s)
{
	while (read_line(s)) {
		if (s->line[0] == '#') {
			comment(s, 1);
			continue;
		}
		if (s->header_read)
			check_header(s);
		else
			take_header(s);
		s->header_read = 1;
		return;
	}
	s->lineno = 0;
	stream_die(s, "empty input: no header line");
}

void stream_header(struct stream *s)
{
	if (!s->header_read)
		read_file_header(s);
}

static void close_input(struct stream *s)
{
	if (s->fd > 0)
		close(s->fd);
	s->fd = -1;
}

/* pb tools end every line: a used line without its line feed is most
 * likely where a stream was cut. It was read as it is; say so once. */
static void end_file(struct stream *s)
{
	if (s->cut_line)
		warn_at(s->name, s->cut_line, "the last line has no line feed (a cut stream?)");
	s->cut_line = 0;
	close_input(s);
}

static int next_file(struct stream *s)
{
	if (s->cur + 1 >= s->nnames)
		return 0;
	end_file(s);
	s->cur++;
	open_next(s);
	read_file_header(s);
	return 1;
}

/* The next line the usual way, split if a row: 1 a row, 0 the end of
 * the input, -1 a comment (passed on; the next line may take fast_row). */
static int read_row(struct stream *s)
{
	while (!read_line(s)) {
		if (next_file(s))
			continue;
		if (s->rows == 0 && !s->rows_optional)
			stream_die(s, "no data rows after the header");
		end_file(s);
		return 0;
	}
	if (s->no_lf)
		s->cut_line = s->lineno;
	if (s->line[0] == '#') {
		comment(s, 0);
		return -1;
	}
	if (s->len == 0 && s->ncol > 1)
		stream_die(s, "empty line");
	split_line(s, s->ncol + FIELD_SLACK, s->row_sep);
	return 1;
}

int stream_row(struct stream *s)
{
	int r;

	stream_header(s);
	while ((r = fast_row(s) ? 1 : read_row(s)) < 0)
		;
	if (r == 0)
		return 0;
	if (s->nfield != s->ncol)
		stream_die(s, "%zu fields, header has %zu", s->nfield, s->ncol);
	if (row_is_header(s))   /* a second stream glued on by cat */
		stream_die(s, "a second header: concatenate streams by giving %s the "
		           "files, not cat", pb_prog);
	s->rows++;
	return 1;
}

void stream_close(struct stream *s)
{
	size_t i;

	close_input(s);
	for (i = 0; i < s->ncol; i++)
		free(s->col[i]);
	for (i = 0; i < s->npending; i++)
		free(s->pending[i]);
	for (i = 0; i < s->nmeta; i++) {
		free(s->meta[i].key);
		free(s->meta[i].value);
	}
	free(s->col);
	free(s->pending);
	free(s->meta);
	free(s->field);
	free(s->hline);
	free(s->buf);
	memset(s, 0, sizeof *s);
}

long stream_col_find(const struct stream *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->ncol; i++)
		if (strcmp(s->col[i], name) == 0)
			return (long)i;
	return -1;
}

size_t stream_col(const struct stream *s, const char *name)
{
	long c = stream_col_find(s, name);
	size_t i, n = 0;
	static char *list;  /* static: still reachable if a die hook returns */

	if (c >= 0)
		return (size_t)c;
	for (i = 0; i < s->ncol; i++)
		n += strlen(s->col[i]) + 1;
	free(list);
	list = xmalloc(n + 1);
	for (i = 0, n = 0; i < s->ncol; i++) {   /* appended, not strcat: O(n) */
		size_t l = strlen(s->col[i]);
		if (i)
			list[n++] = ' ';
		memcpy(list + n, s->col[i], l);
		n += l;
	}
	list[n] = '\0';
	die("%s: no column '%s' (columns: %s)", s->name, name, list);
}

void stream_num_die(const struct stream *s, size_t col)
{
	char buf[MSG_CUT_BUF];

	stream_die(s, "column '%s': not a finite number: '%s'",
	           s->col[col], stream_field_cut(buf, s, col));
}

void stream_int_die(const struct stream *s, size_t col)
{
	char buf[MSG_CUT_BUF];

	stream_die(s, "column '%s': not an integer: '%s'",
	           s->col[col], stream_field_cut(buf, s, col));
}

void stream_passthrough(struct stream *s)
{
	stream_put_comments(s);
	s->passthrough = 1;
}

const char *stream_head_meta(const struct stream *s, const char *key, int file)
{
	size_t i;

	for (i = 0; i < s->nmeta; i++)
		if ((file < 0 || s->meta[i].file == file) &&
		    strcmp(s->meta[i].key, key) == 0)
			return s->meta[i].value;
	return NULL;
}

void stream_on_meta(struct stream *s, stream_meta_fn *fn, void *ctx)
{
	s->on_meta = fn;
	s->on_meta_ctx = ctx;
}

void stream_put_comments(struct stream *s)
{
	size_t i;

	if (s->npending)
		pb_stdout_sync();
	for (i = 0; i < s->npending; i++) {
		fputs(s->pending[i], stdout);
		fputc('\n', stdout);
		free(s->pending[i]);
	}
	s->npending = 0;
}

char *meta_unescape(const char *v)
{
	char *w = xmalloc(strlen(v) + 1), *q = w;

	for (; *v; v++) {
		char c = *v == '\\' ? v[1] : 0;

		if (c == '\\' || c == 'n' || c == 'r' || c == 't') {
			*q++ = c == 'n' ? '\n' : c == 'r' ? '\r' : c == 't' ? '\t' : '\\';
			v++;
		} else
			*q++ = *v;
	}
	*q = '\0';
	return w;
}
