/* clock: CLOCK_MONOTONIC in ns, the calibrated busy-wait, UTC stamps
 * written and read. */
#ifndef PB_CLOCK_H
#define PB_CLOCK_H

#include <stdint.h>

int64_t clock_ns(void);                  /* CLOCK_MONOTONIC */
/* Spin on the clock until it reads >= deadline; returns that reading.
 * The spin never sleeps, so the cost is paid like work: the overshoot is
 * one clock read (tens of ns). */
int64_t clock_spin_until(int64_t deadline);
/* "2026-11-30T05:21:07.123Z" (UTC, milliseconds) into buf[32]. */
void clock_utc_stamp(char buf[32]);
/* Such a stamp at the start of s (what follows it is not read) as ms
 * since 1970, or -1 when s does not begin with one. */
double clock_stamp_ms(const char *s);
/* Sleep for ns (not timed work: for polling waits). */
void clock_sleep_ns(int64_t ns);

#endif
