#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "human.h"
#include "num.h"

/* x with 4 significant digits, trailing zeros kept ("1.000", "0.9971",
 * "114.6", "1.146e7"), so every number of a finding reads alike. The
 * digits are printf's correctly rounded "%.3e". */
const char *sig4(char buf[SIG_BUFSZ], double x)
{
	char e[SIG_BUFSZ], dig[5], *p = buf;
	int ex, i;

	if (!isfinite(x))   /* every caller's input is checked; never print "i.f" */
		die("a number of the finding is not finite (%g): the input's values are out "
		    "of range", x);
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

/* x with 4 significant digits in the first of n units (each step times
 * larger than the one before) that keeps them below step (after rounding:
 * 999.97 ns is 1.000 µs), up to the last. */
static const char *sig4_in(char buf[SIG_BUFSZ], double x, const char *const *unit, size_t n,
                           double step)
{
	double scale = 1;
	size_t u;

	for (u = 0; u + 1 < n; u++, scale *= step) {
		sig4(buf, x / scale);
		if (fabs(strtod(buf, NULL)) < step)
			break;
	}
	sig4(buf, x / scale);
	strcat(buf, " ");
	strcat(buf, unit[u]);
	return buf;
}

const char *sig4_ns(char buf[SIG_BUFSZ], double ns)
{
	static const char *const unit[] = { "ns", "\302\265s", "ms", "s" };

	return sig4_in(buf, ns, unit, 4, 1000);
}

/* KiB below 1024 of each (999.9 KiB stays so: 4 digits, not 0.9765 MiB). */
const char *sig4_kib(char buf[SIG_BUFSZ], double kib)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB" };

	return sig4_in(buf, kib, unit, 4, 1024);
}

/* The level in percent as given: 0.95 is "95", 0.999 "99.9" (the level's
 * own shortest digits, the point moved, so 0.9999999 is not "100"). */
const char *level_percent(char buf[SIG_BUFSZ], double level)
{
	char d[NUM_BUFSZ], *frac;
	size_t n;

	num_format(d, level);
	if (strncmp(d, "0.", 2) != 0) {   /* below 1e-5: scientific */
		num_format(buf, 100 * level);
		return buf;
	}
	frac = d + 2;
	n = strlen(frac);
	snprintf(buf, SIG_BUFSZ, "%d%s%s", (frac[0] - '0') * 10 + (n > 1 ? frac[1] - '0' : 0),
	         n > 2 ? "." : "", n > 2 ? frac + 2 : "");
	return buf;
}

char *safe_text(const char *s)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		die("out of memory");
	put_safe_text(f, s);
	if (fclose(f) != 0 || !out)
		die("out of memory");
	return out;
}
