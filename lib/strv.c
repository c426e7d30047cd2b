/* strv: vectors of strings. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "strv.h"

void strv_add(struct strv *s, const char *x)
{
	xgrow(&s->v, &s->cap, s->n + 2, sizeof *s->v);
	s->v[s->n++] = xstrdup(x);
	s->v[s->n] = NULL;
}

void strv_addf(struct strv *s, const char *fmt, ...)
{
	char small[256], *text;
	va_list ap;

	va_start(ap, fmt);
	text = vformat(small, sizeof small, fmt, ap);
	va_end(ap);
	if (!text)
		die("out of memory");
	strv_add(s, text);
	if (text != small)
		free(text);
}

void strv_words(struct strv *s, ...)
{
	va_list ap;
	const char *w;

	va_start(ap, s);
	while ((w = va_arg(ap, const char *)))
		strv_add(s, w);
	va_end(ap);
}

void strv_cat(struct strv *s, const struct strv *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		strv_add(s, t->v[i]);
}

void strv_free(struct strv *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof *s);
}
