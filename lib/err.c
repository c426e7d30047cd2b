#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

#ifndef PB_VERSION
#define PB_VERSION "0.0.0"
#endif

const char *pb_prog = "pb";
void (*pb_die_hook)(void);

void pb_init(const char *prog)
{
	pb_prog = prog;
}

size_t utf8_len(const unsigned char *p)
{
	size_t n, i;
	unsigned cp;

	if (p[0] < 0x80)
		return 1;
	n = p[0] >= 0xf0 && p[0] < 0xf5 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 && p[0] < 0xe0 ? 2 : 0;
	if (n == 0 || (n == 3 && p[0] >= 0xf0))
		return 0;
	cp = p[0] & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000))) || (n == 4 && (cp < 0x10000 ||
	    cp > 0x10ffff)))
		return 0;
	return n;
}

int text_unsafe(const unsigned char *p, size_t n)
{
	return n == 0 || (n == 1 && (p[0] < 0x20 || p[0] == 0x7f)) ||
	       (n == 2 && p[0] == 0xc2 && p[1] < 0xa0);
}

/* Text from the input (a field quoted in a message, a hook's or a
 * worker's words) must not reach the terminal as an escape: what
 * text_unsafe says is written as \\xNN. No allocation: die() uses it. */
void put_safe_text(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = utf8_len(p), i, k = n ? n : 1;

		for (i = 0; i < k; i++) {
			if (text_unsafe(p, n))
				fprintf(f, "\\x%02x", p[i]);
			else
				fputc(p[i], f);
		}
		p += k;
	}
}

size_t safe_text_width(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t w = 0;

	while (*p) {
		size_t n = utf8_len(p), k = n ? n : 1;

		w += text_unsafe(p, n) ? 4 * k : 1;   /* "\xNN" a byte, or one character */
		p += k;
	}
	return w;
}

char *vformat(char *buf, size_t n, const char *fmt, va_list ap)
{
	va_list copy;
	char *own;
	int len;

	va_copy(copy, ap);
	len = vsnprintf(buf, n, fmt, ap);
	if (len < 0 || (size_t)len < n) {
		va_end(copy);
		return buf;
	}
	own = malloc((size_t)len + 1);
	if (own)
		vsnprintf(own, (size_t)len + 1, fmt, copy);
	va_end(copy);
	return own;
}

static char last_message[512];

const char *pb_last_message(void)
{
	return last_message;
}

void pb_vmessage(const char *where, const char *fmt, va_list ap)
{
	int saved = errno;
	size_t n = strlen(fmt);
	char small[512], *msg = vformat(small, sizeof small, fmt, ap);

	if (!msg)
		msg = small;   /* cut rather than lost */
	pb_stdout_sync();
	fflush(stdout);
	fprintf(stderr, "%s: ", pb_prog);
	if (where) {
		put_safe_text(stderr, where);
		fputs(": ", stderr);
	}
	put_safe_text(stderr, msg);
	if (n > 0 && fmt[n - 1] == ':')
		fprintf(stderr, " %s", strerror(saved));
	fputc('\n', stderr);
	snprintf(last_message, sizeof last_message, "%.100s%s%.300s%s%.80s", where ? where : "",
	         where ? ": " : "", msg, n > 0 && fmt[n - 1] == ':' ? " " : "",
	         n > 0 && fmt[n - 1] == ':' ? strerror(saved) : "");
	if (msg != small)
		free(msg);
}

void pb_exit_data(void)
{
	if (pb_die_hook)
		pb_die_hook();
	exit(EXIT_DATA);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pb_vmessage(NULL, fmt, ap);
	va_end(ap);
	pb_exit_data();
}

/* A value quoted in a usage error is the user's: a newline in it would
 * make the one line of the error several, so its control bytes are
 * escaped as the other messages' are. */
void die_usage(const char *fmt, ...)
{
	va_list ap;
	char small[512], *msg;

	va_start(ap, fmt);
	msg = vformat(small, sizeof small, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: ", pb_prog);
	put_safe_text(stderr, msg ? msg : small);
	fprintf(stderr, " (see %s --help)\n", pb_prog);
	if (msg != small)
		free(msg);
	exit(EXIT_USAGE);
}

void warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pb_vmessage(NULL, fmt, ap);
	va_end(ap);
}

void pb_version(void)
{
	printf("%s (pb) %s\n", pb_prog, PB_VERSION);
	flush_stdout_or_die();
	exit(0);
}

static void (*stdout_sync)(void);

void pb_on_stdout_sync(void (*fn)(void))
{
	stdout_sync = fn;
}

void pb_stdout_sync(void)
{
	if (stdout_sync)
		stdout_sync();
}

void flush_stdout_or_die(void)
{
	pb_stdout_sync();
	if (fflush(stdout) == EOF || ferror(stdout)) {
		int saved = errno;
		fprintf(stderr, "%s: write error on standard output: %s\n",
		        pb_prog, strerror(saved ? saved : EIO));
		_Exit(EXIT_DATA);
	}
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		die("out of memory (%zu bytes)", n);
	return q;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

void xgrow(void *pp, size_t *cap, size_t need, size_t size)
{
	void **p = pp;
	size_t c = *cap ? *cap : 8;

	if (need <= *cap)
		return;
	while (c < need) {
		if (c > SIZE_MAX / 2 / size)
			die("out of memory");
		c *= 2;
	}
	*p = xrealloc(*p, c * size);
	*cap = c;
}

void xgrow_zero(void *pp, size_t *cap, size_t need, size_t size)
{
	size_t old = *cap;

	xgrow(pp, cap, need, size);
	memset((char *)*(void **)pp + old * size, 0, (*cap - old) * size);
}

int shell_word_plain(const char *w)
{
	const char *p;

	for (p = w; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		            "0123456789_./:=,+-@%", *p))
			return 0;
	return *w != '\0';
}
