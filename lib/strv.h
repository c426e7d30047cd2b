/* strv: a growing vector of strings, NULL-terminated so that it is an
 * argv as it stands. */
#ifndef PB_STRV_H
#define PB_STRV_H

#include <stddef.h>

struct strv {
	char **v;            /* NULL-terminated; NULL while empty */
	size_t n, cap;
};
void strv_add(struct strv *s, const char *x);
void strv_addf(struct strv *s, const char *fmt, ...);
/* The words up to a NULL. */
void strv_words(struct strv *s, ...);
void strv_cat(struct strv *s, const struct strv *t);
void strv_free(struct strv *s);

#endif
