#include <stdlib.h>
#include <string.h>

#include "conninfo.h"
#include "err.h"

/* The output grows behind the input (only removals): with dst == src the
 * bytes written never reach those still to be read. */
struct out {
	char *d;
	size_t n;
};

static void put(struct out *o, const char *s, size_t n)
{
	memmove(o->d + o->n, s, n);
	o->n += n;
}

/* isspace in the C locale, as libpq's parser uses it */
static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static int names_password(const char *s, size_t n)
{
	static const char pw[] = "password";
	size_t i, j;

	for (i = 0; i + 8 <= n; i++) {
		for (j = 0; j < 8; j++) {
			char c = s[i + j];
			if ((c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c) != pw[j])
				break;
		}
		if (j == 8)
			return 1;
	}
	return 0;
}

/* A keyword is a secret when it names a password, or when it cannot be a
 * libpq keyword at all (they are [a-z0-9_]): libpq refuses those and
 * quotes them in its message, and they may hold one, such as a URI with
 * an upper-case scheme read as a keyword. */
static int secret_keyword(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return 1;
	return names_password(s, n);
}

/* The end of a value that starts at s[i] (after the '='), as libpq reads
 * it: blanks skipped, then a bare word or a '...' string, \ escaping the
 * next byte in both. An unterminated string runs to the end. */
static size_t value_end(const char *s, size_t i)
{
	while (is_blank(s[i]))
		i++;
	if (s[i] == '\'') {
		for (i++; s[i]; i++) {
			if (s[i] == '\\' && s[i + 1])
				i++;
			else if (s[i] == '\'')
				return i + 1;
		}
		return i;
	}
	for (; s[i] && !is_blank(s[i]); i++)
		if (s[i] == '\\' && s[i + 1])
			i++;
	return i;
}

static int redact_keywords(struct out *o, const char *s)
{
	size_t i = 0;
	int removed = 0;

	while (s[i]) {
		size_t start = i, key, key_end;
		int secret;

		while (is_blank(s[i]))
			i++;
		key = i;
		while (s[i] && s[i] != '=' && !is_blank(s[i]))
			i++;
		key_end = i;
		while (is_blank(s[i]))
			i++;
		secret = secret_keyword(s + key, key_end - key);
		if (s[i] != '=') {
			if (key == key_end) {           /* blanks at the end */
				put(o, s + start, i - start);
				break;
			}
			if (secret) {   /* a word without "=": libpq refuses the rest */
				removed = 1;
				break;
			}
			put(o, s + start, i - start);
			continue;
		}
		i = value_end(s, i + 1);
		if (secret)
			removed = 1;
		else if (removed && o->n == 0)   /* no blanks before the first pair */
			put(o, s + key, i - key);
		else
			put(o, s + start, i - start);
	}
	return removed;
}

static int hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A URI query keyword, percent-decoded as libpq does it; one that does not
 * decode (bad %XY, %00) is taken for a secret. */
static int secret_param(const char *s, size_t n)
{
	char *k = xmalloc(n + 1);
	size_t i, m = 0;
	int secret = 0;

	for (i = 0; i < n && !secret; i++) {
		if (s[i] != '%') {
			k[m++] = s[i];
			continue;
		}
		if (i + 2 >= n || hex(s[i + 1]) < 0 || hex(s[i + 2]) < 0 ||
		    (s[i + 1] == '0' && s[i + 2] == '0'))
			secret = 1;
		else
			k[m++] = (char)(hex(s[i + 1]) * 16 + hex(s[i + 2])), i += 2;
	}
	if (!secret)
		secret = secret_keyword(k, m);
	free(k);
	return secret;
}

/* The query of a URI, s[i] == '?': parameters split at '&', the keyword
 * up to the first '='. */
static int redact_params(struct out *o, const char *s, size_t i)
{
	size_t p = i + 1;
	int kept = 0, removed = 0;

	if (!s[p]) {
		put(o, s + i, 1);
		return 0;
	}
	for (;;) {
		size_t start = p, key_end = 0;

		for (; s[p] && s[p] != '&'; p++)
			if (s[p] == '=' && !key_end)
				key_end = p;
		if (secret_param(s + start, (key_end ? key_end : p) - start)) {
			removed = 1;
		} else {
			/* the separator as written while nothing was removed */
			put(o, removed ? (kept ? "&" : "?") : s + start - 1, 1);
			put(o, s + start, p - start);
			kept = 1;
		}
		if (!s[p])
			break;
		p++;
	}
	return removed;
}

/* scheme://[user[:password]@][host[:port][,...]][/dbname][?params], read as
 * libpq reads it (conninfo_uri_parse_options). */
static int redact_uri(struct out *o, const char *s, size_t pre)
{
	size_t i = pre, q, c, host;
	int removed = 0;

	put(o, s, pre);
	for (q = i; s[q] && s[q] != '@' && s[q] != '/'; q++)
		;
	if (s[q] == '@') {   /* user info; the password is after its first ':' */
		for (c = i; s[c] != ':' && s[c] != '@'; c++)
			;
		put(o, s + i, c - i);
		put(o, "@", 1);
		removed = s[c] == ':';
		i = q + 1;
	}
	for (host = i;;) {
		if (s[i] == '[') {    /* an IPv6 address */
			while (s[i] && s[i] != ']')
				i++;
			if (!s[i] || (s[i + 1] && !strchr(":/?,", s[i + 1])))
				goto refused;
			i++;
		} else {
			while (s[i] && !strchr(":/?,", s[i]))
				i++;
		}
		if (s[i] == ':')
			while (s[i] && !strchr("/?,", s[i]))
				i++;
		if (s[i] != ',')
			break;
		i++;
	}
	if (s[i] == '/')
		while (s[i] && s[i] != '?')
			i++;
	put(o, s + host, i - host);
	if (s[i] == '?')
		removed |= redact_params(o, s, i);
	return removed;
refused:   /* libpq refuses it, quoting the whole URI: keep the scheme */
	o->n = pre;
	return 1;
}

static size_t uri_prefix(const char *s)
{
	if (strncmp(s, "postgresql://", 13) == 0)
		return 13;
	if (strncmp(s, "postgres://", 11) == 0)
		return 11;
	return 0;
}

int conninfo_redact(char *dst, const char *conninfo)
{
	struct out o = { dst, 0 };
	size_t pre = uri_prefix(conninfo);
	int removed = pre ? redact_uri(&o, conninfo, pre) : redact_keywords(&o, conninfo);

	dst[o.n] = '\0';
	return removed;
}

void conninfo_scrub(char *conninfo)
{
	size_t n = strlen(conninfo), m;

	conninfo_redact(conninfo, conninfo);
	m = strlen(conninfo);
	memset(conninfo + m, 0, n - m);
}
