/* stream: reading and writing pb streams (pb(7)).
 * A reader takes files in order like cat ("-" or none = stdin), checks
 * that their headers agree, and hands out rows split on single TABs.
 * Comments are kept in order and written ahead of the output header;
 * once a streaming tool has written its header they pass straight through
 * (stream_passthrough). Every error names file:line and exits 1. */
#ifndef PB_STREAM_H
#define PB_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <stdnoreturn.h>

#ifndef STREAM_LINE_MAX  /* the fuzz build sets a small one to reach it */
#define STREAM_LINE_MAX (16u << 20)  /* longer lines are refused (16 MiB) */
#endif

struct meta {            /* one "# key: value" comment, value as written */
	char *key, *value;
	int file;            /* index into the reader's file names */
	long line;
};

struct stream {
	char **names;
	int nnames, cur, fd;
	const char *name;    /* current file, for messages */
	long lineno;
	char *buf;           /* read buffer */
	size_t bpos, bend;
	int eof;
	char *line;          /* current line, NUL-terminated, fields split */
	size_t len, lcap;
	char **field;
	size_t nfield, fcap;
	char **col;          /* first file's header */
	size_t ncol;
	char **pending;      /* comments not yet written */
	size_t npending, pcap;
	struct meta *meta;
	size_t nmeta, mcap;
	long rows;           /* data rows read, all files */
	int passthrough, header_read;
};

void stream_open(struct stream *s, int nfiles, char **files);
void stream_header(struct stream *s);      /* reads up to the first header */
int stream_row(struct stream *s);          /* 1: row in s->field; 0: end */
void stream_close(struct stream *s);

size_t stream_col(const struct stream *s, const char *name);  /* or die */
long stream_col_opt(const struct stream *s, const char *name); /* or -1 */
double stream_num(const struct stream *s, size_t col);   /* or die */
int64_t stream_int(const struct stream *s, size_t col);  /* or die */
/* Join the current row's fields back with TABs: the line as read. */
const char *stream_line(struct stream *s, size_t *len);
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
/* The last value of "# key: value" in file (or any file when file < 0). */
const char *stream_meta(const struct stream *s, const char *key, int file);

/* Output on stdout. Fields are separated automatically; out_end ends the
 * line (the first lines are flushed at once, so a broken pipeline shows). */
/* Comments read so far, then the provenance line "# pb-tool: VERSION ARGS"
 * (argv as the shell would need it); a command line too long for one line
 * of the stream is refused (exit 1) before anything is written. */
void out_begin(struct stream *s);
size_t out_provenance_len(void);    /* the provenance line's length */
void out_comments(struct stream *s);
void out_meta(const char *key, const char *fmt, ...);
void out_field(const char *str);
void out_fieldn(const char *str, size_t n);
void out_num(double x);
void out_i64(int64_t x);
void out_end(void);
/* Write a metadata value: backslash, newline, CR and TAB escaped. */
void out_escaped(const char *s);
/* Its length as out_escaped writes it. */
size_t out_escaped_len(const char *s);

#endif
