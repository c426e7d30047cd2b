/* duet: pb-run --duet, a pair's two arms at the same moment, each on a
 * CPU of its own. Each arm's observation is timed by a process forked
 * from pb-run and pinned to the arm's CPU, which runs the executor's
 * duet_work there: in command mode it forks and reaps the command as
 * pb-run does, in worker mode it sends the request to the arm's worker
 * (pinned to the same CPU) and reads the answer. The two wait at one
 * barrier until both are ready, and are released together. pb-run
 * sleeps meanwhile and wakes once, when both are done: nothing of its
 * own runs on either CPU while an arm is timed. Linux only (CPU
 * affinity); elsewhere pb-run refuses --duet. */
#ifndef PB_DUET_H
#define PB_DUET_H

#include <stddef.h>
#include <stdint.h>

#include "runner.h"

/* The first two CPUs this process may use, into cpu[]: how many there
 * are (0 to 2; 0 where affinity is not known). */
int duet_cpus(int cpu[2]);

/* One pair: arm i on CPU cpu[i]; o[i] as the executor's work leaves it
 * (status, times, usage), delay[i] and spin[i] as runner_delay sets
 * them (the delay spun on the arm's CPU), start[i] the ns from the
 * release to o[i].t0. A timer that cannot start or pin fails its
 * observation; an interrupt is left in proc_interrupted. An arm whose
 * failure ends the study stops the other at once (without
 * --ignore-failure, or a failure that stops it even so): the arm to be
 * judged first is returned, the one that failed. */
int duet_observe(struct executor *ex, const struct config *c, long run, long pair,
                  const int cpu[2], struct obs o[2], int64_t delay[2], int64_t spin[2],
                  int64_t start[2]);

#endif
