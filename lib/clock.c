#include <errno.h>
#include <stdio.h>
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

/* Days from the civil date by Hinnant's algorithm: POSIX has no timegm. */
double clock_stamp_ms(const char *s)
{
	int Y, M, D, h, m, sec, ms, n = 0;
	long y, era, yoe, doy, doe;

	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d.%3dZ%n", &Y, &M, &D, &h, &m, &sec, &ms, &n) != 7 ||
	    n != 24)
		return -1;
	y = Y - (M <= 2);
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (M + (M > 2 ? -3 : 9)) + 2) / 5 + D - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return (((double)(era * 146097 + doe - 719468) * 24 + h) * 60 + m) * 60000.0 +
	       sec * 1000.0 + ms;
}

void clock_sleep_ns(int64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}
