#include <stdarg.h>
#include <stdio.h>

#include "clock.h"
#include "progress.h"

void progress_init(struct progress *p, int on, int width)
{
	p->on = on;
	p->width = width;
	p->start = p->last = clock_ns();
}

int progress_due(struct progress *p, int64_t *now)
{
	if (!p->on)
		return 0;
	*now = clock_ns();
	if (*now - p->last < 200000000)
		return 0;
	p->last = *now;
	return 1;
}

void progress_show(const struct progress *p, const char *fmt, ...)
{
	char line[256];
	va_list ap;

	(void)p;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\r%s", line);
}

void progress_end(const struct progress *p)
{
	if (p->on)
		fprintf(stderr, "\r%*s\r", p->width, "");
}
