# examples/bench/seq-gen.awk: sequences of normal values and every prefix of each, for pb-tint
# --group seq,n: rows "seq n x" where group (seq, n) holds the first n
# values of sequence seq. The generator is Park and Miller's minimal
# standard (16807 * x mod 2^31 - 1, exact in a double), so every awk gives
# the same values; normals by Box-Muller.
# awk -v seed=1 -v seqs=200 -v nmin=3 -v nmax=20 -v mu=0 -f gen.awk
function unif() { state = (state * 16807) % 2147483647; return state / 2147483647 }
function normal(  u, v) {
	u = unif(); v = unif()
	return sqrt(-2 * log(u)) * cos(6.283185307179586 * v)
}
BEGIN {
	state = seed > 0 ? seed : 1
	for (i = 0; i < 10; i++) unif()   # the first draws of a small seed are small
	print "seq\tn\tx"
	for (s = 1; s <= seqs; s++) {
		for (i = 1; i <= nmax; i++)
			x[i] = mu + normal()
		for (n = nmin; n <= nmax; n++)
			for (i = 1; i <= n; i++)
				printf "%d\t%d\t%.17g\n", s, n, x[i]
	}
}
