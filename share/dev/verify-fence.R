# verify-fence.R: pb-check's outlier fence checked by plain simulation,
# apart from share/dev/gen-fence's conditional Monte Carlo. For studies
# of N normal run effects, the share whose farthest value lies more than
# K IQRs beyond the type-7 quartiles (lib/check.c, section 6), and its
# binomial standard error, in percent:
#
#   Rscript share/dev/verify-fence.R N K SAMPLES SEED
#
# At K = the fence lib/check.c uses for N runs the share should be 1 %
# (level 0.99) within two standard errors. SAMPLES studies are drawn in
# chunks of at most 1e5, so memory stays bounded.
a <- commandArgs(trailingOnly = TRUE)
if (length(a) != 4) stop("usage: Rscript verify-fence.R N K SAMPLES SEED")
n <- as.integer(a[1]); k <- as.numeric(a[2]); m <- as.numeric(a[3])
set.seed(as.integer(a[4]))
crossed <- 0; left <- m
while (left > 0) {
	b <- min(left, 1e5)
	x <- matrix(rnorm(b * n), nrow = b)
	q <- apply(x, 1, quantile, probs = c(0.25, 0.75), type = 7)
	iqr <- q[2, ] - q[1, ]
	far <- pmax(q[1, ] - apply(x, 1, min), apply(x, 1, max) - q[2, ])
	crossed <- crossed + sum(far > k * iqr)
	left <- left - b
}
p <- crossed / m
cat(sprintf("n %d  k %.6g  share %.4f %%  se %.4f %%  samples %.0f\n", n, k, 100 * p,
            100 * sqrt(p * (1 - p) / m), m))
