/* Shared between pb-run.c and its executors (command, worker, pg). */
#ifndef PB_RUN_H
#define PB_RUN_H

#include <stddef.h>

#include "runner.h"   /* struct config, struct executor, struct obs */

/* --cpu LIST (bin/pb-run-cpu.c): pin pb-run and its children to the
 * CPUs of LIST; the set the kernel holds then, as a list, into desc.
 * Not on Linux: a usage error. */
void run_pin_cpus(const char *list, char *desc, size_t n);

void exec_command_init(struct executor *, const struct config *);
void exec_worker_init(struct executor *, const struct config *);
void exec_pg_init(struct executor *, const struct config *);

#endif
