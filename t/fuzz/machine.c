/* libFuzzer target: lib/machine.c's parsers of what Linux writes in
 * /proc/loadavg, /proc/pressure/cpu and /proc/cmdline, on the input as a
 * string (up to its first NUL). Every violation calls abort(), so
 * libFuzzer keeps it as a crash:
 *   machine_parse_loadavg  0 only with a finite load >= 0;
 *   machine_parse_psi      0 only with a finite avg10 and total >= 0, and
 *                          only when a line begins "some ";
 *   machine_parse_isolation  a string that fits the buffer (of every size
 *                          from 1 to 80), "none" or words of the input
 *                          each found in it, separated by one space. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"

static void check_isolation(const char *in, size_t size)
{
	char *b = malloc(size), *w, *copy;

	if (!b)
		abort();
	memset(b, 'x', size);
	machine_parse_isolation(in, b, size);
	if (memchr(b, '\0', size) == NULL)
		abort();
	if (strcmp(b, "none") != 0 && size > 4) {
		copy = strdup(b);
		if (!copy)
			abort();
		if (b[0] == ' ' || strstr(b, "  ") || (b[0] && b[strlen(b) - 1] == ' '))
			abort();
		for (w = strtok(copy, " "); w; w = strtok(NULL, " "))
			if (!strstr(in, w))
				abort();
		free(copy);
	}
	free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	char *s = malloc(n + 1);
	double a, t;
	size_t size;

	if (!s)
		return 0;
	memcpy(s, data, n);
	s[n] = '\0';
	if (machine_parse_loadavg(s, &a) == 0 && !(isfinite(a) && a >= 0))
		abort();
	if (machine_parse_psi(s, &a, &t) == 0) {
		if (!(isfinite(a) && a >= 0 && isfinite(t) && t >= 0))
			abort();
		if (strncmp(s, "some ", 5) != 0 && !strstr(s, "\nsome "))
			abort();
	}
	for (size = 1; size <= 80; size += size < 16 ? 1 : 16)
		check_isolation(s, size);
	free(s);
	return 0;
}
