/* html: writing an HTML page in which nothing read from outside can be
 * anything but text. html_text escapes & < > " ' as character references
 * (safe in element content and in quoted attribute values alike) and
 * shows a control byte as \xNN, as messages do; html_put takes a format
 * whose own text is markup and whose %s arguments are text. */
#ifndef PB_HTML_H
#define PB_HTML_H

#include <stddef.h>
#include <stdio.h>

void html_text(FILE *f, const char *s);
void html_textn(FILE *f, const char *s, size_t n);
/* fmt is the caller's markup, written as it is. Conversions: %s text
 * (escaped: html_text), %M markup from the caller (a const char *, not
 * escaped: never a value read from outside), %d int, %ld long, %zu
 * size_t, %% a percent sign. Any other conversion is a bug: abort. */
void html_put(FILE *f, const char *fmt, ...);

#endif
