#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "human.h"

/* The digits are printf's correctly rounded "%.3e", so every number of a
 * finding reads alike. */
const char *sig4(char buf[SIG_BUFSZ], double x)
{
	char e[SIG_BUFSZ], dig[5], *p = buf;
	int ex, i;

	snprintf(e, sizeof e, "%.3e", fabs(x));
	dig[0] = e[0], dig[1] = e[2], dig[2] = e[3], dig[3] = e[4], dig[4] = '\0';
	ex = atoi(e + 6);
	if (x < 0 && strcmp(dig, "0000") != 0)
		*p++ = '-';
	if (ex < -4 || ex > 5) {
		snprintf(p, SIG_BUFSZ - 1, "%c.%se%d", dig[0], dig + 1, ex);
	} else if (ex < 0) {
		p += sprintf(p, "0.");
		for (i = -1; i > ex; i--)
			*p++ = '0';
		sprintf(p, "%s", dig);
	} else if (ex < 3) {
		sprintf(p, "%.*s.%s", ex + 1, dig, dig + ex + 1);
	} else {
		p += sprintf(p, "%s", dig);
		for (i = 3; i < ex; i++)
			*p++ = '0';
		*p = '\0';
	}
	return buf;
}

/* The unit is chosen after rounding: 999.97 ns is 1.000 µs; s is the
 * largest. */
const char *sig4_ns(char buf[SIG_BUFSZ], double ns)
{
	static const char *unit[] = { "ns", "\302\265s", "ms", "s" };
	double scale = 1;
	size_t u;

	for (u = 0; u < 3; u++, scale *= 1000) {
		sig4(buf, ns / scale);
		if (fabs(strtod(buf, NULL)) < 1000)
			break;
	}
	sig4(buf, ns / scale);
	strcat(buf, " ");
	strcat(buf, unit[u]);
	return buf;
}
