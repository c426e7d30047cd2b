#!/usr/bin/awk -f
# Writes a simulated raw pb stream: RUNS runs of WARMUP + PAIRS pairs in
# random order. Each run has its own speed (log-normal, sd RUNSD), each
# observation its own noise (log-normal, sd NOISE); arm B takes EFFECT
# times arm A's time. This is what pb-run records on a machine whose runs
# differ by ~15 %, with B 3 % faster.
#   awk -v RUNS=10 -v PAIRS=100 -f simulate.awk > raw-ab.tsv
function gauss() { return sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand()) }
BEGIN {
	OFS = "\t"
	if (!RUNS) RUNS = 10; if (!PAIRS) PAIRS = 100; if (WARMUP == "") WARMUP = 10
	if (!BASE) BASE = 1000000; if (RUNSD == "") RUNSD = 0.15
	if (NOISE == "") NOISE = 0.02; if (!EFFECT) EFFECT = 0.97; if (!SEED) SEED = 42
	srand(SEED)
	print "# simulated: examples/data/simulate.awk RUNS=" RUNS " PAIRS=" PAIRS " WARMUP=" WARMUP " RUNSD=" RUNSD " NOISE=" NOISE " EFFECT=" EFFECT " SEED=" SEED
	print "# mode: command"
	print "# cmd_a: ./old"
	print "# cmd_b: ./new"
	print "# order: random"
	print "# runs: " RUNS
	print "# pairs: " PAIRS
	print "# warmup: " WARMUP
	print "# delay_ns: 0"
	print "run", "pair", "phase", "arm", "pos", "delay_ns", "ns", "status"
	for (r = 1; r <= RUNS; r++) {
		printf "# run: %d start=2026-11-30T05:%02d:00.000Z pid=%d\n", r, r, 1000 + r
		speed = exp(RUNSD * gauss())
		for (p = 1; p <= WARMUP + PAIRS; p++) {
			phase = p <= WARMUP ? "warmup" : "measure"
			n = p <= WARMUP ? p : p - WARMUP
			first = rand() < 0.5 ? "A" : "B"
			for (k = 1; k <= 2; k++) {
				arm = (k == 1) == (first == "A") ? "A" : "B"
				t = BASE * speed * exp(NOISE * gauss()) * (arm == "B" ? EFFECT : 1)
				print r, n, phase, arm, k, 0, int(t + 0.5), 0
			}
		}
	}
}
