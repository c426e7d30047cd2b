#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"

void html_textn(FILE *f, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		case '\n': case '\t': fputc(c, f); break;
		default:
			if (c < 0x20 || c == 0x7f)
				fprintf(f, "\\x%02x", c);
			else
				fputc(c, f);
		}
	}
}

void html_text(FILE *f, const char *s)
{
	html_textn(f, s, strlen(s));
}

void html_put(FILE *f, const char *fmt, ...)
{
	const char *p;
	va_list ap;

	va_start(ap, fmt);
	for (p = fmt; *p; p++) {
		if (*p != '%') {
			fputc(*p, f);
			continue;
		}
		switch (*++p) {
		case 's': html_text(f, va_arg(ap, const char *)); break;
		case 'M': fputs(va_arg(ap, const char *), f); break;
		case 'd': fprintf(f, "%d", va_arg(ap, int)); break;
		case 'l':
			if (p[1] != 'd')
				abort();
			p++;
			fprintf(f, "%ld", va_arg(ap, long));
			break;
		case 'z':
			if (p[1] != 'u')
				abort();
			p++;
			fprintf(f, "%zu", va_arg(ap, size_t));
			break;
		case '%': fputc('%', f); break;
		default: abort();
		}
	}
	va_end(ap);
}
