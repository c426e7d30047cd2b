/* pb-run built without libpq (make PG=0): --pg is refused, exit 2. */
#include "err.h"
#include "pb-run.h"

void exec_pg_init(struct executor *ex, const struct config *c)
{
	(void)ex, (void)c;
	die_usage("--pg: this pb-run was built without PostgreSQL support (make PG=0)");
}
