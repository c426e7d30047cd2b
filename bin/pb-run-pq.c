/* See pb-run-pq.h. dlopen is POSIX; dlsym's object pointer is converted
 * to a function pointer through memcpy, which ISO C does not forbid. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "err.h"
#include "pb-run-pq.h"

struct pq_api pq;

/* By its soname, where the dynamic linker finds it (libpq's ABI has
 * been .5 since PostgreSQL 8.0). */
static void *open_libpq(char *why, size_t len)
{
	void *h = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
	const char *e;

	if (!h && (e = dlerror()))
		snprintf(why, len, "%s", e);
	return h;
}

static void pq_symbol(void *h, const char *name, void *slot, size_t size)
{
	void *f = dlsym(h, name);

	if (!f)
		die("--pg: libpq has no %s: it is older than pb-run needs", name);
	memcpy(slot, &f, size);
}

void pq_load(void)
{
	char why[256] = "not found";
	void *h;

	if (pq.PQfinish)
		return;
	if (!(h = open_libpq(why, sizeof why)))
		die("--pg: cannot load libpq (%s): install the package libpq5", why);
#define PQ_LOOKUP(name) pq_symbol(h, #name, &pq.name, sizeof pq.name);
	PQ_FUNCTIONS(PQ_LOOKUP)
#undef PQ_LOOKUP
}
