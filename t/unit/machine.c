/* Unit tests of lib/machine.c's parsers: /proc/loadavg, /proc/pressure/cpu
 * and the kernel command line's isolation options, on texts as Linux
 * writes them (and as it does not), and psi_run from two readings. */
#include <stdio.h>
#include <string.h>

#include "machine.h"
#include "tap.h"

static void test_loadavg(void)
{
	double l = -1;

	ok(machine_parse_loadavg("2.76 0.96 0.35 5/122 14767\n", &l) == 0 && l == 2.76,
	   "loadavg: the 1-minute load, 2.76");
	ok(machine_parse_loadavg("0.00 0.01 0.05 1/80 3", &l) == 0 && l == 0,
	   "loadavg: 0.00 is 0");
	ok(machine_parse_loadavg("", &l) < 0, "loadavg: empty text refused");
	ok(machine_parse_loadavg("x 1 2", &l) < 0, "loadavg: a word not a number refused");
	ok(machine_parse_loadavg("-1 0 0", &l) < 0, "loadavg: a negative load refused");
	ok(machine_parse_loadavg("nan 0 0", &l) < 0, "loadavg: nan refused");
}

static void test_psi(void)
{
	double a = -1, t = -1;

	ok(machine_parse_psi("some avg10=45.17 avg60=27.53 avg300=8.39 total=29126376\n"
	                     "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", &a, &t) == 0 &&
	   a == 45.17 && t == 29126376, "psi: the some line's avg10 45.17 and total 29126376");
	ok(machine_parse_psi("full avg10=1.00 avg60=0.00 avg300=0.00 total=5\n"
	                     "some avg10=3.50 avg60=0.00 avg300=0.00 total=77", &a, &t) == 0 &&
	   a == 3.5 && t == 77, "psi: some after full, no final line feed");
	ok(machine_parse_psi("full avg10=1.00 avg60=0.00 avg300=0.00 total=5\n", &a, &t) < 0,
	   "psi: no some line refused");
	ok(machine_parse_psi("some avg10=1.00 avg60=0.00 avg300=0.00\n", &a, &t) < 0,
	   "psi: no total= refused");
	ok(machine_parse_psi("some avg10=x avg60=0.00 total=5\n", &a, &t) < 0,
	   "psi: avg10 not a number refused");
	ok(machine_parse_psi("some avg10=1 total=-5\n", &a, &t) < 0, "psi: a negative total refused");
	ok(machine_parse_psi("", &a, &t) < 0, "psi: empty text refused");
	ok(machine_parse_psi("something avg10=1 total=5\n", &a, &t) < 0,
	   "psi: 'something' is not 'some'");
}

static void test_isolation(void)
{
	char b[64], tiny[12];

	machine_parse_isolation("console=ttyS0 quiet psi=1 -- --firecracker-init", b, sizeof b);
	ok(strcmp(b, "none") == 0, "isolation: no such option: none (got '%s')", b);
	machine_parse_isolation("ro isolcpus=2-3 nohz_full=2-3 quiet rcu_nocbs=2-3\n", b, sizeof b);
	ok(strcmp(b, "isolcpus=2-3 nohz_full=2-3 rcu_nocbs=2-3") == 0,
	   "isolation: isolcpus, nohz_full and rcu_nocbs kept in order (got '%s')", b);
	machine_parse_isolation("isolcpusx=1 nohz=off rcu_nocb_poll", b, sizeof b);
	ok(strcmp(b, "nohz=off rcu_nocb_poll") == 0,
	   "isolation: a longer name is not the option; a bare word kept (got '%s')", b);
	machine_parse_isolation("quiet -- isolcpus=1", b, sizeof b);
	ok(strcmp(b, "none") == 0, "isolation: what follows -- is init's (got '%s')", b);
	machine_parse_isolation("isolcpus=1 nohz_full=1,2,3,4,5", tiny, sizeof tiny);
	ok(strcmp(tiny, "isolcpus=1") == 0, "isolation: words that do not fit are left out (got '%s')",
	   tiny);
	machine_parse_isolation("", b, sizeof b);
	ok(strcmp(b, "none") == 0, "isolation: an empty command line: none");
}

static void test_psi_between(void)
{
	struct machine_now a, b;

	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	a.has_psi = b.has_psi = 1;
	a.psi_total_us = 1000000, b.psi_total_us = 1250000;
	a.t_ns = 0, b.t_ns = 1000000000;
	is_num(machine_psi_between(&a, &b), 25, 0, "psi_run: 0.25 s of waiting in 1 s is 25 %");
	b.psi_total_us = 1000001, b.t_ns = 3000000000LL;
	is_num(machine_psi_between(&a, &b), 0, 0, "psi_run: rounded to 0.01 % (1 us in 3 s: 0)");
	b.psi_total_us = 999999;
	is_num(machine_psi_between(&a, &b), -1, 0, "psi_run: a total that went back: unknown (-1)");
	b.psi_total_us = 2000000, b.t_ns = 0;
	is_num(machine_psi_between(&a, &b), -1, 0, "psi_run: no time between: unknown (-1)");
	b.t_ns = 1000000000, b.has_psi = 0;
	is_num(machine_psi_between(&a, &b), -1, 0, "psi_run: one reading without psi: unknown (-1)");
}

static void test_words(void)
{
	struct machine_now n;
	char b[96];

	memset(&n, 0, sizeof n);
	machine_now_words(&n, b, sizeof b);
	ok(strcmp(b, "") == 0, "words: nothing known, nothing written");
	n.has_load = 1, n.load = 0.5;
	n.has_psi = 1, n.psi = 12.25;
	machine_now_words(&n, b, sizeof b);
	ok(strcmp(b, " load=0.5 psi=12.25") == 0, "words: ' load=0.5 psi=12.25' (got '%s')", b);
}

int main(void)
{
	test_loadavg();
	test_psi();
	test_isolation();
	test_psi_between();
	test_words();
	return done_testing();
}
