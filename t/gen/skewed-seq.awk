# skewed-seq.awk: seqs sequences of nmax lognormal values (sigma 1) less c
# (c = 1: median 0; c = exp(0.5): mean 0), every prefix from nmin as the
# group "seq n" (t/0411-tint-median.t).
BEGIN { srand(seed); OFS = "\t"; print "seq", "n", "x"
	for (s = 1; s <= seqs; s++) {
		for (i = 1; i <= nmax; i++) {
			u = rand(); v = rand(); if (u < 1e-300) u = 1e-300
			x[i] = exp(sqrt(-2 * log(u)) * cos(6.283185307179586 * v)) - c
		}
		for (n = nmin; n <= nmax; n++) for (i = 1; i <= n; i++) print s, n, x[i]
	}
}
