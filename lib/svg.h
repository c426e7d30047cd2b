/* svg: an SVG picture (pb-plot's, gnuplot's svg terminal) checked and
 * written again as an element of an HTML page, or refused. What passes:
 * one svg element of drawing elements only (no script, style,
 * foreignObject, a, image, animation or anything unknown), no event
 * attribute (on...), no reference out of the picture (href and url() to
 * #ids only, no backslash that could hide a url( from this check), no
 * entity but XML's five and character references, no DTD subset. The
 * picture is parsed and written back, each attribute value and text
 * escaped, so the page's HTML parser reads what this checker read;
 * comments, processing instructions, the DOCTYPE and the picture's own
 * title and desc are left out. Every id, and every reference to one,
 * gets the prefix, so that several pictures share one page. */
#ifndef PB_SVG_H
#define PB_SVG_H

#include <stddef.h>

enum { SVG_WHY_MAX = 200 };

/* The svg element (malloc'd: *out, *outlen) with role="img" and the
 * label as its aria-label; 0. Or -1, *out NULL and why holding the
 * reason, one sentence with the line ("line 12: a script element"). */
int svg_embed(const char *text, size_t len, const char *idprefix, const char *label,
              char **out, size_t *outlen, char why[SVG_WHY_MAX]);

#endif
