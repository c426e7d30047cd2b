/* pb-worker.h: pb-run's worker protocol in one call, for C (and C++).
 *
 *   #include <pb-worker.h>
 *   static int old_way(void *ctx) { ...; return 0; }
 *   static int new_way(void *ctx) { ...; return 0; }
 *   int main(void) { return pb_worker_serve(old_way, new_way, NULL); }
 *
 *   cc -O2 -o bench bench.c && pb-run --worker ./bench > raw.tsv
 *
 * pb-run starts one worker per run and writes one request per observation
 * on its standard input, "ARM<TAB>RUN<TAB>PAIR\n" (ARM a letter, A for the
 * baseline); the worker does one unit of that arm's work and answers one
 * line, "ok" or "error TEXT"; pb-run times the round trip. End of input
 * ends the run.
 *
 * pb_worker_serve(a, b, ctx) calls a(ctx) for each request of arm A and
 * b(ctx) for arm B, and answers "ok" when the call returns 0, else
 * "error arm A returned 3". A request for an arm it has no function for
 * (NULL, or a letter beyond B) is answered "error no arm C: ...", and the
 * run goes on. pb_worker_serve_arms(k, arms, ctx) is the same for k arms,
 * arms[0] for A up to arms[25] for Z.
 *
 * Both return 0 at the end of the input, and non-zero after one line on
 * the standard error for a request that is not ARM<TAB>RUN<TAB>PAIR, input
 * that ends inside a request, or a read or write that fails. Fields after
 * PAIR, TAB-separated, are ignored (room for the protocol to grow).
 *
 * While they serve, the standard output (descriptor 1) is the standard
 * error: whatever the arms print goes where pb-run sends the worker's
 * standard error (--output), and cannot be taken for an answer. The
 * answers go to the original standard output, which comes back on return.
 *
 * Each request is one read(2) and each answer one write(2), with no stdio
 * buffer in between: nothing to flush, nothing left waiting in a buffer.
 * Header-only: static inline functions, C99 or later and POSIX.1-2008
 * (read, write, fcntl's F_DUPFD_CLOEXEC, dup2); build with
 * -D_POSIX_C_SOURCE=200809L, or -D_XOPEN_SOURCE=700, when your compiler
 * is in a strict -std mode. */
#ifndef PB_WORKER_H
#define PB_WORKER_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum {
	PB_WORKER_ARMS_MAX = 26,    /* A to Z */
	PB_WORKER_LINE_MAX = 4096   /* a request or an answer, newline included */
};

/* Write all of p, through interrupted and short writes: 0 or -1. */
static inline int pb_worker_write_all_(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t r = write(fd, p, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

/* Up to 60 bytes of s, as a C string with the bytes that are not
 * printable ASCII escaped, for a message. */
static inline void pb_worker_quote_(char *dst, size_t cap, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, o = 0;

	for (i = 0; i < n && i < 60 && o + 5 < cap; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\t' || c == '\n' || c == '\r' || c == '\\') {
			dst[o++] = '\\';
			dst[o++] = c == '\t' ? 't' : c == '\n' ? 'n' : c == '\r' ? 'r' : '\\';
		} else if (c < 0x20 || c > 0x7e) {
			dst[o++] = '\\', dst[o++] = 'x';
			dst[o++] = hex[c >> 4], dst[o++] = hex[c & 15];
		} else
			dst[o++] = (char)c;
	}
	if (i < n && o + 4 < cap)
		dst[o++] = '.', dst[o++] = '.', dst[o++] = '.';
	dst[o] = '\0';
}

/* One line on the standard error, "pb-worker: WHAT", in one write;
 * returns 1, the status of a protocol error. */
static inline int pb_worker_fail_(const char *what)
{
	char line[512];
	int n = snprintf(line, sizeof line, "pb-worker: %s\n", what);

	if (n > (int)sizeof line - 1)
		n = (int)sizeof line - 1, line[n - 1] = '\n';
	if (n > 0)
		(void)pb_worker_write_all_(2, line, (size_t)n);
	return 1;
}

/* p .. end starts with one or more digits: the first byte after them,
 * or NULL. */
static inline const char *pb_worker_digits_(const char *p, const char *end)
{
	const char *start = p;

	while (p < end && *p >= '0' && *p <= '9')
		p++;
	return p > start ? p : NULL;
}

/* The arm of a request "ARM<TAB>RUN<TAB>PAIR" (n bytes, no newline):
 * 0 for A to 25 for Z, or -1 when the line is not a request. */
static inline int pb_worker_arm_of_(const char *line, size_t n)
{
	const char *end = line + n, *p;

	if (n < 5 || line[0] < 'A' || line[0] > 'Z' || line[1] != '\t')
		return -1;
	p = pb_worker_digits_(line + 2, end);
	if (!p || p == end || *p != '\t')
		return -1;
	p = pb_worker_digits_(p + 1, end);
	if (!p || (p != end && *p != '\t'))
		return -1;
	return line[0] - 'A';
}

/* The answer to one well-formed request, written to fd out: 0, or -1
 * when it cannot be written. */
static inline int pb_worker_answer_(int out, int arm, int narms,
                                    int (*const arms[])(void *), void *ctx)
{
	char text[128];
	int rc, n;

	if (arm >= narms || !arms[arm]) {
		if (arm >= narms && narms == 1)
			n = snprintf(text, sizeof text, "error no arm %c: this worker serves arm A only\n",
			             'A' + arm);
		else if (arm >= narms)
			n = snprintf(text, sizeof text, "error no arm %c: this worker serves arms A to %c\n",
			             'A' + arm, 'A' + narms - 1);
		else
			n = snprintf(text, sizeof text, "error no arm %c: this worker has no function for it\n",
			             'A' + arm);
		return pb_worker_write_all_(out, text, (size_t)n);
	}
	rc = arms[arm](ctx);
	if (rc == 0)
		return pb_worker_write_all_(out, "ok\n", 3);
	n = snprintf(text, sizeof text, "error arm %c returned %d\n", 'A' + arm, rc);
	return pb_worker_write_all_(out, text, (size_t)n);
}

/* The standard output, for the answers, as a descriptor of its own; fd 1
 * becomes the standard error. When that cannot be done, answers go to 1.
 * Close-on-exec: what an arm starts must not inherit the answers' pipe
 * (an "ok" it printed there would be taken for the answer). */
static inline int pb_worker_claim_stdout_(void)
{
	int out;

	fflush(stdout);
	out = fcntl(1, F_DUPFD_CLOEXEC, 3);
	if (out < 0)
		return 1;
	if (dup2(2, 1) < 0) {
		close(out);
		return 1;
	}
	return out;
}

static inline void pb_worker_release_stdout_(int out)
{
	if (out == 1)
		return;
	fflush(stdout);   /* what the arms printed, to the standard error */
	(void)dup2(out, 1);
	close(out);
}

/* The loop: read requests into buf, answer each; the status to return. */
static inline int pb_worker_loop_(int out, int narms, int (*const arms[])(void *), void *ctx)
{
	char buf[PB_WORKER_LINE_MAX], what[400], q[256];
	size_t len = 0, start = 0;
	long nreq = 0;

	for (;;) {
		char *line = buf + start, *nl = (char *)memchr(line, '\n', len - start);
		ssize_t r;
		int arm;

		if (nl) {
			size_t n = (size_t)(nl - line);

			start += n + 1;
			nreq++;
			arm = pb_worker_arm_of_(line, n);
			if (arm < 0) {
				pb_worker_quote_(q, sizeof q, line, n);
				snprintf(what, sizeof what, "request %ld is not ARM<TAB>RUN<TAB>PAIR: '%s'",
				         nreq, q);
				return pb_worker_fail_(what);
			}
			if (pb_worker_answer_(out, arm, narms, arms, ctx) < 0) {
				snprintf(what, sizeof what, "cannot write the answer to request %ld: %s",
				         nreq, strerror(errno));
				return pb_worker_fail_(what);
			}
			continue;
		}
		if (start) {   /* a partial request to the front, to read the rest */
			memmove(buf, line, len - start);
			len -= start;
			start = 0;
		}
		if (len == sizeof buf) {
			snprintf(what, sizeof what, "request %ld is longer than %d bytes",
			         nreq + 1, PB_WORKER_LINE_MAX - 1);
			return pb_worker_fail_(what);
		}
		r = read(0, buf + len, sizeof buf - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(what, sizeof what, "cannot read the standard input: %s", strerror(errno));
			return pb_worker_fail_(what);
		}
		if (r == 0 && len == 0)
			return 0;   /* end of the run */
		if (r == 0) {
			pb_worker_quote_(q, sizeof q, buf, len);
			snprintf(what, sizeof what, "the input ended inside request %ld: '%s'", nreq + 1, q);
			return pb_worker_fail_(what);
		}
		len += (size_t)r;
	}
}

/* Serve arms[0] (A) to arms[narms - 1] until the end of the input. */
static inline int pb_worker_serve_arms(int narms, int (*const arms[])(void *), void *ctx)
{
	int out, rc;

	if (narms < 1 || narms > PB_WORKER_ARMS_MAX || !arms) {
		char what[120];

		snprintf(what, sizeof what, "pb_worker_serve_arms: %d arms: give from 1 to %d, A to Z",
		         narms, PB_WORKER_ARMS_MAX);
		return pb_worker_fail_(what);
	}
	out = pb_worker_claim_stdout_();
	rc = pb_worker_loop_(out, narms, arms, ctx);
	pb_worker_release_stdout_(out);
	return rc;
}

/* Serve a for arm A and b for arm B until the end of the input. */
static inline int pb_worker_serve(int (*a)(void *), int (*b)(void *), void *ctx)
{
	int (*const arms[2])(void *) = { a, b };

	return pb_worker_serve_arms(2, arms, ctx);
}

#endif
