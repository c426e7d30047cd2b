/* See pb-run-pq.h. dlopen is POSIX; dlsym's object pointer is converted
 * to a function pointer through memcpy, which ISO C does not forbid. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "err.h"
#include "pb-run-pq.h"

struct pq_api pq;

/* The soname first (the library the dynamic linker would find); then
 * the directory pg_config named at build time, for a libpq outside the
 * linker's path. */
static void *open_libpq(char *why, size_t len)
{
	static const char *const names[] = {
		"libpq.so.5",
#ifdef PB_LIBPQ_DIR
		PB_LIBPQ_DIR "/libpq.so.5",
#endif
	};
	const char *e;
	size_t i;
	void *h;

	for (i = 0; i < sizeof names / sizeof *names; i++) {
		if ((h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL)))
			return h;
		if (i == 0 && (e = dlerror()))
			snprintf(why, len, "%s", e);
	}
	return NULL;
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
