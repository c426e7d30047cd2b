/* stream: reading pb streams (pb(7)); out.h writes them.
 * A reader takes files in order like cat ("-" or none = stdin), checks
 * that their headers agree, and hands out rows split on single TABs.
 * Comments are kept in order and written ahead of the output header
 * (out_begin);
 * once a streaming tool has written its header they pass straight through
 * (stream_passthrough), and nothing of them is kept. The metadata of each
 * file's head (the comments before its header) is kept; a tool that needs
 * metadata met among the rows sees it through stream_on_meta and keeps
 * what it needs. Every error names file:line and exits 1. */
#ifndef PB_STREAM_H
#define PB_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <stdnoreturn.h>

#include "num.h"
#include "num_field.h"

#ifndef STREAM_LINE_MAX  /* the fuzz build sets a small one to reach it */
#define STREAM_LINE_MAX (16u << 20)  /* longer lines are refused (16 MiB) */
#endif

struct meta {            /* one "# key: value" comment, value as written */
	char *key, *value;
	int file;            /* index into the reader's file names */
	long line;
};

struct stream;
/* Called for each metadata comment as it is read, head or rows; m and its
 * strings live until the next read. */
typedef void stream_meta_fn(void *ctx, const struct stream *s, const struct meta *m);

struct stream {
	char **names;
	int nnames, cur, fd;
	const char *name;    /* current file, for messages */
	long lineno;
	char *buf;           /* read buffer: lines are split where they lie in it */
	size_t bpos, bend, bcap;
	size_t nul;          /* where the first NUL byte read lies in buf, or SIZE_MAX */
	int eof;
	char *line;          /* current line, in buf, NUL-terminated, fields split */
	size_t len;
	char *hline;         /* the first header line, as read */
	size_t hlen;
	char **field;
	size_t nfield, fcap;
	char **col;          /* first file's header */
	size_t ncol;
	char **pending;      /* comments not yet written */
	size_t npending, pcap;
	struct meta *meta;   /* metadata of the heads, in order */
	size_t nmeta, mcap;
	stream_meta_fn *on_meta;
	void *on_meta_ctx;
	long rows;           /* data rows read, all files */
	int rows_optional;   /* no data rows is no error (a reader that only looks) */
	int passthrough, header_read;
	char row_sep;        /* what a row's TABs become: NUL, or TAB (stream_keep_line) */
	int no_lf;           /* the current line ended without a line feed */
	long cut_line;       /* such a line of the current file, used: warned at its end */
};

void stream_open(struct stream *s, int nfiles, char **files);
void stream_header(struct stream *s);      /* reads up to the first header */
int stream_row(struct stream *s);          /* 1: row in s->field; 0: end */
void stream_close(struct stream *s);

size_t stream_col(const struct stream *s, const char *name);  /* or die */
long stream_col_find(const struct stream *s, const char *name); /* or -1 */
/* The length of field col of the row: to the next field, or to the end
 * of the line (all of it, when the fields were joined back). */
static inline size_t stream_field_len(const struct stream *s, size_t col)
{
	return col + 1 < s->nfield ? (size_t)(s->field[col + 1] - s->field[col]) - 1
	                           : (size_t)(s->line + s->len - s->field[col]);
}
/* Field col of the row as num_parse_i64 reads it (faster, in the read
 * buffer): 0 or -1. */
static inline int stream_i64(const struct stream *s, size_t col, int64_t *v)
{
	return num_parse_i64_field(s->field[col], stream_field_len(s, col), v);
}
/* The messages of stream_num and stream_int (file:line, the column, the
 * field), exit 1. */
noreturn void stream_num_die(const struct stream *s, size_t col);
noreturn void stream_int_die(const struct stream *s, size_t col);
/* Field col of the row as a number, or die. Inline: for the common field
 * a call costs as much as the reading (lib/num_field.h). */
static inline double stream_num(const struct stream *s, size_t col)
{
	double v;

	if (num_parse_field(s->field[col], stream_field_len(s, col), &v) < 0)
		stream_num_die(s, col);
	return v;
}
/* Field col of the row as an integer, or die. */
static inline int64_t stream_int(const struct stream *s, size_t col)
{
	int64_t v;

	if (stream_i64(s, col, &v) < 0)
		stream_int_die(s, col);
	return v;
}
/* Join the current row's fields back with TABs: the line as read. */
const char *stream_line(struct stream *s, size_t *len);
/* From the next row on, rows are not cut: the fields lie in the whole
 * line, each ending at its TAB, not at a NUL, so stream_line has nothing
 * to join (pb-logratio, which writes the line as read). For a tool that
 * reads fields only through stream_field_len, stream_num, stream_i64,
 * stream_int and stream_field_cut. */
void stream_keep_line(struct stream *s);
/* A column name: [a-z_][a-z0-9_]*. */
int stream_valid_name(const char *name);
/* "pb-tool: file:line: message", exit 1. */
noreturn void stream_die(const struct stream *s, const char *fmt, ...);
/* The same for line of file (an index into names), read earlier. */
noreturn void stream_die_at(const struct stream *s, int file, long line, const char *fmt, ...);
/* names[file] as messages give it: "-" is "stdin". */
const char *stream_file_name(const struct stream *s, int file);
/* From now on comments go to stdout as they are read. */
void stream_passthrough(struct stream *s);
/* The value of "# key: value" in the head of file (the comments before
 * its header; any file's when file < 0, the first file's first): the
 * first when the head has it twice. Metadata among the rows, where a
 * forged line could follow the head, is never an answer. The tools read
 * a head through lib/study's struct study_head, which keeps the same. */
const char *stream_head_meta(const struct stream *s, const char *key, int file);
/* fn(ctx, s, m) for every metadata comment from now on. */
void stream_on_meta(struct stream *s, stream_meta_fn *fn, void *ctx);
/* How many bytes of v to show in at most max: all of it, or fewer that
 * end before a UTF-8 character, not inside it (the caller says "..."). */
size_t msg_cut_len(const char *v, size_t max);
/* v as a message quotes it: whole up to MSG_CUT bytes, else cut there
 * with "..." to say so. Returns buf. */
enum { MSG_CUT = 40, MSG_CUT_BUF = MSG_CUT + 4 };
const char *msg_cut(char *buf, const char *v);
/* The same for the len bytes at v (not NUL-terminated). */
const char *msg_cutn(char *buf, const char *v, size_t len);
/* Field col of the row as msg_cut quotes it, cut or not. */
const char *stream_field_cut(char *buf, const struct stream *s, size_t col);
/* A metadata value as it was before pb wrote it (lib/out's escaper: \\,
 * \n, \r, \t), in memory of its own; any other backslash stays. */
char *meta_unescape(const char *v);

/* The comments read and not yet written, to stdout as they were read
 * (out_begin writes them ahead of the provenance line). */
void stream_put_comments(struct stream *s);

#endif
