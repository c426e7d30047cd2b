#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "err.h"
#include "sysinfo.h"

void sysinfo_host(char *buf, size_t n)
{
	struct utsname u;

	snprintf(buf, n, "%s", uname(&u) == 0 ? u.nodename : "unknown");
}

void sysinfo_kernel(char *buf, size_t n)
{
	struct utsname u;

	if (uname(&u) == 0)
		snprintf(buf, n, "%s %s %s", u.sysname, u.release, u.version);
	else
		snprintf(buf, n, "unknown");
}

/* Linux names the CPU model in /proc/cpuinfo ("model name" on x86,
 * "Model" or "CPU part" elsewhere); other systems get uname's machine. */
void sysinfo_cpu(char *buf, size_t n)
{
	struct utsname u;
#ifdef __linux__
	static const char *keys[] = { "model name", "Model", "cpu model", "Hardware" };
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "r");
	size_t k;

	while (f && fgets(line, sizeof line, f))
		for (k = 0; k < LEN(keys); k++) {
			size_t kl = strlen(keys[k]);
			char *colon = strchr(line, ':');

			if (strncmp(line, keys[k], kl) == 0 && colon &&
			    strspn(line + kl, " \t") == (size_t)(colon - line) - kl) {
				colon += 1 + strspn(colon + 1, " \t");
				colon[strcspn(colon, "\n")] = '\0';
				snprintf(buf, n, "%s", colon);
				fclose(f);
				return;
			}
		}
	if (f)
		fclose(f);
#endif
	snprintf(buf, n, "%s", uname(&u) == 0 ? u.machine : "unknown");
}
