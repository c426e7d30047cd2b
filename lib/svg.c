#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "html.h"
#include "svg.h"

/* The drawing elements of SVG 1.1 that gnuplot and other plotting
 * programs write. Not here, among others: script, style (a stylesheet can
 * import one), foreignObject (HTML inside), a, image, feImage, animate,
 * set (which can change an href), metadata. */
static const char *const allowed[] = {
	"svg", "g", "defs", "symbol", "use", "title", "desc",
	"path", "rect", "circle", "ellipse", "line", "polyline", "polygon",
	"text", "tspan", "textPath", "clipPath", "mask", "pattern", "marker",
	"linearGradient", "radialGradient", "stop", "filter", "feFlood", "feComposite",
	"feOffset", "feGaussianBlur", "feMerge", "feMergeNode", "feBlend", "feColorMatrix",
};

enum { DEPTH_MAX = 256 };

struct span {
	const char *p;
	size_t n;
};

struct parse {
	const char *start, *p, *end;
	FILE *out;
	const char *prefix, *label;
	char *why;
	struct span *stack;
	size_t depth, cap;
	size_t hidden;       /* the depth of a title or desc left out, or 0 */
	size_t text_only;    /* the depth of a title or desc: text inside only */
	int root_done;
};

static long line_at(const struct parse *ps, const char *at)
{
	const char *q;
	long line = 1;

	for (q = ps->start; q < at; q++)
		line += *q == '\n';
	return line;
}

/* The reason, at the line of at; returns -1 (the first reason stays). */
static int fail(struct parse *ps, const char *at, const char *fmt, ...)
{
	int n = snprintf(ps->why, SVG_WHY_MAX, "line %ld: ", line_at(ps, at));
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ps->why + n, SVG_WHY_MAX - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static int starts(const struct parse *ps, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(ps->end - ps->p) >= n && memcmp(ps->p, s, n) == 0;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int is_name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}

static int is_name_char(char c)
{
	return is_name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

static void skip_space(struct parse *ps)
{
	while (ps->p < ps->end && is_space(*ps->p))
		ps->p++;
}

static struct span read_name(struct parse *ps)
{
	struct span s = { ps->p, 0 };

	if (ps->p < ps->end && is_name_start(*ps->p))
		while (ps->p < ps->end && is_name_char(*ps->p))
			ps->p++;
	s.n = (size_t)(ps->p - s.p);
	return s;
}

static int span_is(struct span s, const char *w)
{
	return s.n == strlen(w) && memcmp(s.p, w, s.n) == 0;
}

/* A name as a reason quotes it: at most 40 bytes. */
static int shown(struct span s)
{
	return s.n > 40 ? 40 : (int)s.n;
}

static int element_allowed(struct span name)
{
	size_t i;

	for (i = 0; i < LEN(allowed); i++)
		if (span_is(name, allowed[i]))
			return 1;
	return 0;
}

static size_t put_utf8(char *o, unsigned long c)
{
	if (c < 0x80)
		return o[0] = (char)c, 1;
	if (c < 0x800)
		return o[0] = (char)(0xc0 | c >> 6), o[1] = (char)(0x80 | (c & 0x3f)), 2;
	if (c < 0x10000) {
		o[0] = (char)(0xe0 | c >> 12), o[1] = (char)(0x80 | (c >> 6 & 0x3f));
		return o[2] = (char)(0x80 | (c & 0x3f)), 3;
	}
	o[0] = (char)(0xf0 | c >> 18), o[1] = (char)(0x80 | (c >> 12 & 0x3f));
	o[2] = (char)(0x80 | (c >> 6 & 0x3f)), o[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

/* &#N; or &#xH; at r (after "&#"): the character into o; its length, or
 * 0 when it is no character XML allows a reference to. */
static size_t char_ref(const char *r, const char *semi, char *o)
{
	int hex = *r == 'x';
	unsigned long c = 0;
	const char *q;

	if (hex)
		r++;
	if (r == semi || semi - r > 8)
		return 0;
	for (q = r; q < semi; q++) {
		int d = *q >= '0' && *q <= '9' ? *q - '0'
		      : hex && *q >= 'a' && *q <= 'f' ? *q - 'a' + 10
		      : hex && *q >= 'A' && *q <= 'F' ? *q - 'A' + 10 : -1;
		if (d < 0)
			return 0;
		c = c * (hex ? 16 : 10) + (unsigned long)d;
	}
	if (c == 0 || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return put_utf8(o, c);
}

/* The text of [from, to) with its references resolved, into a buffer of
 * its own (a reference is never shorter than its character); NULL when
 * it holds a reference XML does not define by itself. */
static char *decode(struct parse *ps, const char *from, const char *to, size_t *len)
{
	static const char *const named[][2] = {
		{ "lt", "<" }, { "gt", ">" }, { "amp", "&" }, { "quot", "\"" }, { "apos", "'" },
	};
	char *buf = xmalloc((size_t)(to - from) + 1), *o = buf;
	const char *q, *semi;
	size_t i, n;

	for (q = from; q < to; q++) {
		if (*q != '&') {
			*o++ = *q;
			continue;
		}
		semi = memchr(q, ';', (size_t)(to - q));
		n = 0;
		if (semi && q[1] == '#') {
			n = char_ref(q + 2, semi, o);
		} else if (semi) {
			for (i = 0; i < LEN(named) && !n; i++)
				if ((size_t)(semi - q - 1) == strlen(named[i][0]) &&
				    memcmp(q + 1, named[i][0], strlen(named[i][0])) == 0)
					*o = named[i][1][0], n = 1;
		}
		if (n == 0) {
			free(buf);
			fail(ps, q, "an entity reference that is not one of XML's own (&lt; &gt; "
			     "&amp; &quot; &apos; &#N;)");
			return NULL;
		}
		o += n;
		q = semi;
	}
	*o = '\0';
	*len = (size_t)(o - buf);
	return buf;
}

static int is_hidden(const struct parse *ps)
{
	return ps->hidden != 0;
}

/* An attribute name as the HTML parser takes it: in any case (it lowers
 * the case of every attribute of an inline SVG but the camelCase ones). */
static int span_is_ci(struct span s, const char *w)
{
	size_t i;

	if (s.n != strlen(w))
		return 0;
	for (i = 0; i < s.n; i++)
		if ((s.p[i] >= 'A' && s.p[i] <= 'Z' ? s.p[i] | 0x20 : s.p[i]) != w[i])
			return 0;
	return 1;
}

static int name_has_prefix_ci(struct span name, const char *pre)
{
	size_t i, n = strlen(pre);

	if (name.n < n)
		return 0;
	for (i = 0; i < n; i++)
		if ((name.p[i] | 0x20) != pre[i])
			return 0;
	return 1;
}

/* A url( of v at i (case as it comes), as written back: to a #id of
 * this picture, with the prefix; 0, or -1 when it points elsewhere. */
static int put_urls(struct parse *ps, const char *at, const char *v, size_t n)
{
	size_t i = 0, j;

	while (i < n) {
		if (n - i >= 4 && (v[i] | 0x20) == 'u' && (v[i + 1] | 0x20) == 'r' &&
		    (v[i + 2] | 0x20) == 'l' && v[i + 3] == '(') {
			j = i + 4;
			while (j < n && (is_space(v[j]) || v[j] == '\'' || v[j] == '"'))
				j++;
			if (j >= n || v[j] != '#')
				return fail(ps, at, "a url() that points out of the picture");
			html_textn(ps->out, v + i, j + 1 - i);
			html_text(ps->out, ps->prefix);
			i = j + 1;
			continue;
		}
		html_textn(ps->out, v + i, 1);
		i++;
	}
	return 0;
}

/* The checks of one attribute; 0 when it may be written. */
static int attr_check(struct parse *ps, const char *at, struct span name, const char *v, size_t n)
{
	const char *colon = memchr(name.p, ':', name.n);

	if (name_has_prefix_ci(name, "on"))
		return fail(ps, at, "an event attribute (%.*s)", shown(name), name.p);
	if (span_is_ci(name, "xmlns"))
		return strcmp(v, "http://www.w3.org/2000/svg") == 0 ? 0 :
		       fail(ps, at, "a namespace other than SVG's");
	if (span_is_ci(name, "xmlns:xlink"))
		return strcmp(v, "http://www.w3.org/1999/xlink") == 0 ? 0 :
		       fail(ps, at, "an xlink namespace that is not XLink's");
	if (colon && !span_is_ci(name, "xlink:href") && !span_is_ci(name, "xml:space") &&
	    !span_is_ci(name, "xml:lang"))
		return fail(ps, at, "an attribute of another namespace (%.*s)", shown(name), name.p);
	if (memchr(v, '\\', n))
		return fail(ps, at, "a backslash in the value of %.*s (CSS escapes are not "
		            "embedded)", shown(name), name.p);
	if ((span_is_ci(name, "href") || span_is_ci(name, "xlink:href")) && (n == 0 || v[0] != '#'))
		return fail(ps, at, "a link out of the picture (%.*s)", shown(name), name.p);
	if (span_is_ci(name, "cursor"))
		return fail(ps, at, "a cursor attribute (it can load an image)");
	/* The root is a box of the page's layout: its own style could place
	 * it over the page (position:fixed), and a class takes the page's. */
	if (ps->depth == 0 && (span_is_ci(name, "style") || span_is_ci(name, "class")))
		return fail(ps, at, "a %.*s attribute on the svg element (it would style the "
		            "page's box, not the drawing)", shown(name), name.p);
	if (span_is_ci(name, "style") && strpbrk(v, "'\"@"))
		return fail(ps, at, "a style attribute with quotes or @ (only plain properties "
		            "are embedded)");
	return 0;
}

static int attr_out(struct parse *ps, const char *at, struct span name, const char *v, size_t n)
{
	if (attr_check(ps, at, name, v, n) < 0)
		return -1;
	if (is_hidden(ps))
		return 0;
	fprintf(ps->out, " %.*s=\"", (int)name.n, name.p);
	if (span_is_ci(name, "id")) {
		html_text(ps->out, ps->prefix);
		html_textn(ps->out, v, n);
	} else if (span_is_ci(name, "href") || span_is_ci(name, "xlink:href")) {
		fputc('#', ps->out);
		html_text(ps->out, ps->prefix);
		html_textn(ps->out, v + 1, n - 1);
	} else if (put_urls(ps, at, v, n) < 0) {
		return -1;
	}
	fputc('"', ps->out);
	return 0;
}

/* name="value" or name='value', the parse at the name. */
static int attribute(struct parse *ps)
{
	const char *at = ps->p, *close;
	struct span name = read_name(ps);
	char quote, *v;
	size_t n;
	int r;

	if (name.n == 0)
		return fail(ps, at, "a tag that is not well formed");
	skip_space(ps);
	if (ps->p >= ps->end || *ps->p != '=')
		return fail(ps, at, "an attribute without a value (%.*s)", shown(name), name.p);
	ps->p++;
	skip_space(ps);
	if (ps->p >= ps->end || (*ps->p != '"' && *ps->p != '\''))
		return fail(ps, at, "an attribute value without quotes");
	quote = *ps->p++;
	close = memchr(ps->p, quote, (size_t)(ps->end - ps->p));
	if (!close || memchr(ps->p, '<', (size_t)(close - ps->p)))
		return fail(ps, at, "an attribute value that does not end");
	v = decode(ps, ps->p, close, &n);
	if (!v)
		return -1;
	r = strlen(v) == n ? attr_out(ps, at, name, v, n)
	                   : fail(ps, at, "a NUL character in an attribute value");
	free(v);
	ps->p = close + 1;
	return r;
}

static int start_tag(struct parse *ps)
{
	const char *at = ps->p++;
	struct span name = read_name(ps);
	int empty = 0;

	if (name.n == 0)
		return fail(ps, at, "a '<' that begins no tag");
	if (ps->text_only)
		return fail(ps, at, "an element inside a title or desc");
	if (ps->depth == 0 && (ps->root_done || !span_is(name, "svg")))
		return fail(ps, at, "a picture that is not one svg element");
	if (!element_allowed(name))
		return fail(ps, at, "a%s %.*s element (pb-report embeds drawing elements only)",
		            strchr("aeiou", name.p[0]) ? "n" : "", shown(name), name.p);
	if (ps->depth >= DEPTH_MAX)
		return fail(ps, at, "elements nested more than %d deep", DEPTH_MAX);
	if (span_is(name, "title") || span_is(name, "desc")) {
		ps->text_only = ps->depth + 1;
		if (ps->depth == 1 && !ps->hidden)   /* the picture's own: the page has a caption */
			ps->hidden = ps->depth + 1;
	}
	if (!is_hidden(ps))
		fprintf(ps->out, "<%.*s", (int)name.n, name.p);
	for (;;) {
		const char *before = ps->p;

		skip_space(ps);
		if (starts(ps, "/>")) {
			ps->p += 2, empty = 1;
			break;
		}
		if (starts(ps, ">")) {
			ps->p++;
			break;
		}
		if (ps->p == before)
			return fail(ps, at, "a tag that is not well formed");
		if (attribute(ps) < 0)
			return -1;
	}
	if (ps->depth == 0) {
		fputs(" role=\"img\" aria-label=\"", ps->out);
		html_text(ps->out, ps->label);
		fputc('"', ps->out);
	}
	if (empty) {
		if (ps->hidden == ps->depth + 1)
			ps->hidden = 0;
		else if (!is_hidden(ps))
			fputs("/>", ps->out);
		if (ps->text_only == ps->depth + 1)
			ps->text_only = 0;
		if (ps->depth == 0)
			ps->root_done = 1;
		return 0;
	}
	if (!is_hidden(ps))
		fputc('>', ps->out);
	xgrow(&ps->stack, &ps->cap, ps->depth + 1, sizeof *ps->stack);
	ps->stack[ps->depth++] = name;
	return 0;
}

static int end_tag(struct parse *ps)
{
	const char *at = ps->p;
	struct span name;

	ps->p += 2;
	name = read_name(ps);
	skip_space(ps);
	if (ps->p >= ps->end || *ps->p != '>' || name.n == 0)
		return fail(ps, at, "an end tag that is not well formed");
	ps->p++;
	if (ps->depth == 0 || name.n != ps->stack[ps->depth - 1].n ||
	    memcmp(name.p, ps->stack[ps->depth - 1].p, name.n) != 0)
		return fail(ps, at, "an end tag </%.*s> that closes no open element",
		            shown(name), name.p);
	if (!is_hidden(ps))
		fprintf(ps->out, "</%.*s>", (int)name.n, name.p);
	if (ps->hidden == ps->depth)
		ps->hidden = 0;
	if (ps->text_only == ps->depth)
		ps->text_only = 0;
	if (--ps->depth == 0)
		ps->root_done = 1;
	return 0;
}

/* What the page needs none of: <?...?>, <!--...-->, <!DOCTYPE ...>
 * (without a subset of its own, which could declare entities). */
static int skip_markup(struct parse *ps, const char *open, const char *close)
{
	const char *at = ps->p, *q;
	size_t n = strlen(close);

	for (q = ps->p + strlen(open); q + n <= ps->end; q++)
		if (memcmp(q, close, n) == 0) {
			ps->p = q + n;
			return 0;
		}
	return fail(ps, at, "a %s that does not end", open);
}

static int doctype(struct parse *ps)
{
	const char *at = ps->p, *q;
	char quote = 0;

	if (ps->depth > 0 || ps->root_done)
		return fail(ps, at, "a DOCTYPE inside the picture");
	for (q = ps->p; q < ps->end; q++) {
		if (quote) {
			quote = *q == quote ? 0 : quote;
		} else if (*q == '"' || *q == '\'') {
			quote = *q;
		} else if (*q == '[') {
			return fail(ps, at, "a DOCTYPE that declares entities or elements of its own");
		} else if (*q == '>') {
			ps->p = q + 1;
			return 0;
		}
	}
	return fail(ps, at, "a DOCTYPE that does not end");
}

static int cdata(struct parse *ps)
{
	const char *at = ps->p, *q, *from = ps->p + 9;

	if (ps->depth == 0)
		return fail(ps, at, "text outside the svg element");
	for (q = from; q + 3 <= ps->end; q++)
		if (memcmp(q, "]]>", 3) == 0) {
			if (!is_hidden(ps))
				html_textn(ps->out, from, (size_t)(q - from));
			ps->p = q + 3;
			return 0;
		}
	return fail(ps, at, "a CDATA section that does not end");
}

static int text(struct parse *ps)
{
	const char *at = ps->p, *to = memchr(ps->p, '<', (size_t)(ps->end - ps->p));
	char *v;
	size_t n;

	if (!to)
		to = ps->end;
	if (ps->depth == 0) {
		for (; ps->p < to; ps->p++)
			if (!is_space(*ps->p))
				return fail(ps, ps->p, "text outside the svg element");
		return 0;
	}
	v = decode(ps, at, to, &n);
	if (!v)
		return -1;
	if (!is_hidden(ps))
		html_textn(ps->out, v, n);
	free(v);
	ps->p = to;
	return 0;
}

static int markup(struct parse *ps)
{
	if (starts(ps, "<?"))
		return skip_markup(ps, "<?", "?>");
	if (starts(ps, "<!--"))
		return skip_markup(ps, "<!--", "-->");
	if (starts(ps, "<![CDATA["))
		return cdata(ps);
	if (starts(ps, "<!DOCTYPE"))
		return doctype(ps);
	if (starts(ps, "<!"))
		return fail(ps, ps->p, "a declaration (<!...) inside the picture");
	if (starts(ps, "</"))
		return end_tag(ps);
	return start_tag(ps);
}

static int parse_all(struct parse *ps)
{
	if (memchr(ps->p, '\0', (size_t)(ps->end - ps->p)))
		return fail(ps, memchr(ps->p, '\0', (size_t)(ps->end - ps->p)), "a NUL byte");
	if (starts(ps, "\357\273\277"))   /* a byte order mark */
		ps->p += 3;
	while (ps->p < ps->end)
		if ((*ps->p == '<' ? markup(ps) : text(ps)) < 0)
			return -1;
	if (ps->depth > 0)
		return fail(ps, ps->end, "the picture ends inside <%.*s>",
		            shown(ps->stack[ps->depth - 1]), ps->stack[ps->depth - 1].p);
	if (!ps->root_done)
		return fail(ps, ps->end, "no svg element");
	return 0;
}

int svg_embed(const char *text, size_t len, const char *idprefix, const char *label,
              char **out, size_t *outlen, char why[SVG_WHY_MAX])
{
	struct parse ps;
	int r;

	memset(&ps, 0, sizeof ps);
	ps.start = ps.p = text;
	ps.end = text + len;
	ps.prefix = idprefix;
	ps.label = label;
	ps.why = why;
	why[0] = '\0';
	*out = NULL;
	ps.out = open_memstream(out, outlen);
	if (!ps.out)
		die("open_memstream:");
	r = parse_all(&ps);
	if (fclose(ps.out) != 0)
		die("open_memstream:");
	free(ps.stack);
	if (r < 0) {
		free(*out);
		*out = NULL;
		*outlen = 0;
	}
	return r;
}
