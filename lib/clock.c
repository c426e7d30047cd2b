#include <errno.h>
#include <time.h>

#include "clock.h"

int64_t clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t clock_spin_until(int64_t deadline)
{
	int64_t now;

	do
		now = clock_ns();
	while (now < deadline);
	return now;
}

void clock_utc_stamp(char buf[32])
{
	struct timespec ts;
	struct tm tm;
	size_t n;
	int ms;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	n = strftime(buf, 24, "%Y-%m-%dT%H:%M:%S", &tm);
	ms = (int)(ts.tv_nsec / 1000000) % 1000;
	buf[n++] = '.';
	buf[n++] = (char)('0' + ms / 100);
	buf[n++] = (char)('0' + ms / 10 % 10);
	buf[n++] = (char)('0' + ms % 10);
	buf[n++] = 'Z';
	buf[n] = '\0';
}

void clock_sleep_ns(int64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}
