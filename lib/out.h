/* out: writing a pb stream on stdout (pb(7)). Fields are separated
 * automatically; out_end ends the line (the first lines are flushed at
 * once, so a broken pipeline shows). Metadata values are escaped, so
 * that nothing a tool writes can begin a line of its own. */
#ifndef PB_OUT_H
#define PB_OUT_H

#include <stddef.h>
#include <stdint.h>

struct stream;

/* Before any output: stdout fully buffered unless it is a terminal. */
void out_init(void);
/* The comments of s read so far (s may be NULL), then the provenance line
 * "# pb-tool: VERSION ARGS" (argv as the shell would need it; argv[0] is
 * written as pb_prog); a command line too long for one line of the
 * stream is refused (exit 1) before anything is written. */
void out_begin(struct stream *s, int argc, char **argv);
size_t out_provenance_len(int argc, char **argv);   /* the provenance line's length */
void out_meta(const char *key, const char *fmt, ...);
/* The same in parts: "# key: ", then text (escaped as out_meta does) and
 * values as read, then the end of the line. */
void out_meta_begin(const char *key);
void out_meta_text(const char *fmt, ...);
/* A metadata value as a stream holds it, already escaped (pb(7)): as it
 * is, but for a raw TAB or CR, which no pb tool writes, escaped. */
void out_meta_as_read(const char *v);
void out_meta_end(void);
/* out_meta of a number: fmt holds one %s, where x goes as the shortest
 * decimal that reads back (num_format, as in the rows). */
void out_meta_num(const char *key, const char *fmt, double x);
void out_field(const char *str);
void out_fieldn(const char *str, size_t n);
void out_num(double x);
/* x, or an empty field when it is not finite (a value that is undefined). */
void out_num_or_empty(double x);
void out_i64(int64_t x);
void out_end(void);
/* Write a metadata value: backslash, newline, CR and TAB escaped. */
void out_escaped(const char *s);
/* Its length as out_escaped writes it. */
size_t out_escaped_len(const char *s);
/* The length of "# key: value" with value escaped (without the line
 * feed): a line longer than STREAM_LINE_MAX makes a stream no tool reads. */
size_t out_meta_len(const char *key, const char *value);

#endif
