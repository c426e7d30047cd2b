/* err: the one place messages and exit codes come from.
 * Every message is one line, "pb-tool: what went wrong"; a format ending
 * in ':' gets the system error appended (sbase's eprintf idiom). */
#ifndef PB_ERR_H
#define PB_ERR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdnoreturn.h>

enum { EXIT_DATA = 1, EXIT_USAGE = 2 };

/* The number of elements of an array (not of a pointer). */
#define LEN(a) (sizeof (a) / sizeof *(a))

extern const char *pb_prog;   /* "pb-tint" */

void pb_init(const char *prog);                 /* sets pb_prog */
/* Called by die() and stream_die() just before exit(1). The fuzz
 * harness (t/fuzz/) sets it, to longjmp back and read the next input in
 * the same process; lib/tools, so that a failure after SIGINT, SIGTERM
 * or SIGHUP exits 128 + N; pb-compare's scan, to record a study that
 * could not be made and go on with the next; the filters leave it NULL.
 * It must not return. */
extern void (*pb_die_hook)(void);
/* The text of the last message written (without "pb-tool: "), cut to a
 * few hundred bytes: what pb_die_hook's caller records. */
const char *pb_last_message(void);
/* The length of the UTF-8 sequence at p (1 to 4), or 0 when the bytes
 * there are not one: a stray continuation byte, an overlong form, a
 * surrogate, beyond U+10FFFF, cut short. */
size_t utf8_len(const unsigned char *p);
/* Whether the n bytes at p (utf8_len's; 0 for a byte that is no UTF-8)
 * are shown as \xNN wherever text read from input meets a person: a C0
 * control, DEL, no UTF-8, or a C1 control (U+0080 to U+009F, which a
 * terminal may take as an escape: U+009B is CSI). */
int text_unsafe(const unsigned char *p, size_t n);
/* s with what text_unsafe says as \\xNN (lib/human's safe_text, the same
 * as a string). */
void put_safe_text(FILE *f, const char *s);
/* The columns put_safe_text(s) takes on a terminal: 4 a byte it escapes,
 * 1 a character it writes (wide characters counted as one). */
size_t safe_text_width(const char *s);
/* Whether the shell reads w as it is, needing no quotes (not empty). */
int shell_word_plain(const char *w);
noreturn void die(const char *fmt, ...);        /* exit 1 */
noreturn void die_usage(const char *fmt, ...);  /* exit 2, points at --help */
void warn(const char *fmt, ...);
/* fmt with ap in buf (n bytes) when it fits, else in memory of its own
 * (the caller frees what is not buf); NULL when that memory cannot be
 * had (buf holds the text cut). */
char *vformat(char *buf, size_t n, const char *fmt, va_list ap);
/* "pb-tool: WHERE: message" (WHERE may be NULL); control bytes escaped. */
void pb_vmessage(const char *where, const char *fmt, va_list ap);
/* The end of die and stream_die: pb_die_hook, then exit 1. */
noreturn void pb_exit_data(void);
noreturn void pb_version(void);                 /* --version: exit 0 */
/* Flush stdout; a write error is one line on stderr and exit 1. */
void flush_stdout_or_die(void);
/* Output held before stdio (out's rows) goes to stdio: fn is called by
 * pb_stdout_sync, which every direct writer of stdout calls first, and
 * before stdout is flushed for a message or at the end. */
void pb_on_stdout_sync(void (*fn)(void));
void pb_stdout_sync(void);
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
void *xcalloc(size_t n, size_t size);
char *xstrdup(const char *s);
/* Grow *p (holding *cap elements of size) to hold at least need. */
void xgrow(void *pp, size_t *cap, size_t need, size_t size);
/* The same, the new elements zeroed: a table indexed by a strmap's
 * indices, each element zero when its key is first met. */
void xgrow_zero(void *pp, size_t *cap, size_t need, size_t size);

#endif
