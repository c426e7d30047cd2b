/* runhead: the head of pb-run's raw stream (pb(7), Raw stream; the keys
 * of lib/study.h): the provenance line, what is run and how (the study's
 * struct config, and the executor's own lines), on which machine, with
 * which clock and rusage, when; then the header of the rows. */
#ifndef PB_RUNHEAD_H
#define PB_RUNHEAD_H

#include "runner.h"

/* The head, flushed. cpu_list is --cpu's list (or NULL), cpu_affinity
 * the CPUs pinned to. */
void runhead_out(int argc, char **argv, const struct config *c, struct executor *ex,
                 const char *cpu_list, const char *cpu_affinity);

#endif
