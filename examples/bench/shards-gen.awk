# shards-gen.awk: a study of SHARDS x RUNS runs of PAIRS pairs, written
# twice: as DIR/shard-1.tsv .. DIR/shard-SHARDS.tsv (RUNS runs each, as
# pb-run --first-run writes them) and as DIR/one.tsv (every run in one
# file). The same rows in both, so that pb-pair over the shards and over
# one.tsv must give the same pairs; the times are drawn from srand(SEED).
#   awk -v shards=1000 -v runs=10 -v pairs=20 -v dir=D -f shards-gen.awk
function head(f, nruns, first) {
	print "# pb-run: 0.1.0 pb-run --runs " nruns " --first-run " first \
		" --pairs " pairs " --warmup 0 --seed 7 -- a b" >f
	print "# mode: command" >f
	print "# cmd_a: a" >f
	print "# cmd_b: b" >f
	print "# runs: " nruns >f
	print "# first_run: " first >f
	print "# pairs: " pairs >f
	print "# warmup: 0" >f
	print "# order: random" >f
	print "# seed: 7" >f
	print "# host: h" >f
	print "run\tpair\tphase\tarm\tpos\tdelay_ns\tns\tstatus\tspin_ns" >f
}
# a run's start stamp: run r starts r ms after midnight, so no two
# runs share one (pb-pair would take them for the same shard twice)
function stamp(r) {
	return sprintf("2026-01-01T%02d:%02d:%02d.%03dZ", int(r / 3600000),
		int(r / 60000) % 60, int(r / 1000) % 60, r % 1000)
}
BEGIN {
	OFS = "\t"
	if (seed == "") seed = 1
	srand(seed)
	one = dir "/one.tsv"
	head(one, shards * runs, 1)
	r = 0
	for (s = 1; s <= shards; s++) {
		f = dir "/shard-" s ".tsv"
		head(f, runs, r + 1)
		for (k = 1; k <= runs; k++) {
			r++
			line = "# run: " r " start=" stamp(r) " pid=" (1000 + s) " study=0123456789abcdef host=h" (s % 4)
			print line >f
			print line >one
			for (p = 1; p <= pairs; p++) {
				a = 1000000 + int(rand() * 50000)
				b = 1000000 + int(rand() * 50000)
				if (rand() < .5) {
					x = r OFS p OFS "measure" OFS "A" OFS 1 OFS 0 OFS a OFS 0 OFS 0
					y = r OFS p OFS "measure" OFS "B" OFS 2 OFS 0 OFS b OFS 0 OFS 0
				} else {
					x = r OFS p OFS "measure" OFS "B" OFS 1 OFS 0 OFS b OFS 0 OFS 0
					y = r OFS p OFS "measure" OFS "A" OFS 2 OFS 0 OFS a OFS 0 OFS 0
				}
				print x >f; print y >f
				print x >one; print y >one
			}
		}
		close(f)
	}
	close(one)
}
