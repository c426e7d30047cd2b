# sim-seq-g.R: how many runs pb's confidence sequence takes to an answer,
# as a function of its mixture parameter g, and a rule for g.
#
# Run: Rscript share/dev/sim-seq-g.R      (base R >= 4.2 only; about 1-2 min
# on one core; SEED=n in the environment changes the seed)
#
# What it measures.  lib/seq.c's sequence is Lai's t-mixture: at n values
# with mean m and sd s the 95 % interval is m +- tstar(n, g) * s / sqrt(n),
# unbounded while tstar does not exist.  pb-compare's "parity" rule stops at
# the first n >= 3 (the min runs) where the interval excludes 0, i.e. where
# |t_n| = |m| sqrt(n) / s > tstar(n, g).  t_n does not depend on sigma, so
# per-run values are drawn N(delta, 1), delta = mu / sigma the standardized
# effect.  Runs to an answer are capped (CAP); a path that hits the cap counts
# as CAP runs, and the count of such paths is printed ("cap").
#   A. mean runs over a grid of delta x g, as a ratio to the runs of the
#      fixed two-sided one-sample t design with 80 % power at alpha 0.05
#      (smallest n with power.t.test(...)$power >= 0.8);
#   B. the rule g = clamp(1.5 * delta^2, 0.01, 25) checked on fresh draws
#      at the planned delta, with multipliers 0.75..3 beside it;
#   C. the rule's cost when the true delta is 0.5x or 2x the planned one;
#   D. the A/A error (delta = 0): the share of paths whose interval
#      excludes 0 at any look n = 3..200, with the rule's g;
#   E. the audit's case: effect 2 %, per-run sd 0.0316.
# delta_planned = log(1 + effect) / sigma_run, sigma_run the sd of the
# per-run log ratios from a pilot separate from the study.

seed <- as.integer(Sys.getenv("SEED", "20261205"))
set.seed(seed)
ALPHA <- 0.05
REPS <- 4000     # paths per cell
REPS_AA <- 20000 # paths per A/A cell
CAP <- 10000     # runs at most

# lib/seq.c seq_tstar, same expm1 form; Inf where the interval is unbounded.
tstar <- function(n, g, alpha = ALPHA) {
  out <- rep(Inf, length(n))
  ok <- n >= 2
  nn <- n[ok]
  c <- 1 + nn * g
  km1 <- expm1(2 / nn * (0.5 * log(c) - log(alpha)))
  cmk <- nn * g - km1
  b <- cmk > 0
  v <- rep(Inf, length(nn))
  v[b] <- sqrt((nn[b] - 1) * km1[b] * c[b] / cmk[b])
  out[ok] <- v
  out
}

# The rule.
g_rule <- function(delta, mult = 1.5) pmin(pmax(mult * delta^2, 0.01), 25)

# Runs to an answer for each g in gs (rows) and each of R paths (columns);
# NA where the path reached cap unanswered.  The same paths serve every g.
sim_runs <- function(delta, gs, R, cap, min_runs = 3, chunk = 250) {
  S1 <- numeric(R); S2 <- numeric(R); n0 <- 0L
  stop <- matrix(NA_integer_, length(gs), R)
  while (n0 < cap && anyNA(stop)) {
    k <- min(chunk, cap - n0)
    x <- matrix(rnorm(k * R, mean = delta), k, R)
    c1 <- matrix(apply(x, 2, cumsum), k) + rep(S1, each = k)
    c2 <- matrix(apply(x * x, 2, cumsum), k) + rep(S2, each = k)
    n <- n0 + seq_len(k)
    ta <- abs(c1 / n) / sqrt((c2 - c1^2 / n) / (n - 1) / n)
    ta[n < min_runs, ] <- 0
    ta[is.na(ta)] <- 0
    for (j in seq_along(gs)) {
      if (!anyNA(stop[j, ])) next
      idx <- which(ta > tstar(n, gs[j]))   # column-major: rows ascend per column
      if (!length(idx)) next
      col <- (idx - 1L) %/% k + 1L
      keep <- !duplicated(col)
      fc <- col[keep]
      fr <- (idx[keep] - 1L) %% k + 1L
      new <- is.na(stop[j, fc])
      stop[j, fc[new]] <- n0 + fr[new]
    }
    S1 <- c1[k, ]; S2 <- c2[k, ]; n0 <- n0 + k
  }
  stop
}

summ <- function(r, cap) {
  capped <- sum(is.na(r))
  r[is.na(r)] <- cap
  c(mean = mean(r), se = sd(r) / sqrt(length(r)), med = median(r), cap = capped)
}

fixed_n <- function(delta, power = 0.8) {
  n <- 2
  while (power.t.test(n = n, delta = delta, sd = 1, sig.level = ALPHA,
                      type = "one.sample")$power < power) n <- n + 1
  n
}

f <- function(x, d = 2) formatC(x, format = "f", digits = d)
t_start <- proc.time()[["elapsed"]]
cat(sprintf("sim-seq-g: seed %d, %d paths a cell, alpha %.2f, min runs 3\n\n",
            seed, REPS, ALPHA))

## A. grid ---------------------------------------------------------------
deltas <- c(0.2, 0.3, 0.5, 0.63, 1, 1.5, 2, 3)
gs <- signif(10^seq(log10(0.05), log10(25), length.out = 19), 3)
nfix <- sapply(deltas, fixed_n)
ratio <- matrix(NA, length(gs), length(deltas))
capA <- 0
for (i in seq_along(deltas)) {
  st <- sim_runs(deltas[i], gs, REPS, CAP)
  capA <- capA + sum(is.na(st))
  for (j in seq_along(gs)) ratio[j, i] <- summ(st[j, ], CAP)[["mean"]] / nfix[i]
}
cat("A. mean runs to an answer / fixed-design n (80 % power), by g and delta\n")
cat(sprintf("   (paths hitting the cap of %d: %d; SE of a ratio about 1 %%)\n", CAP, capA))
cat(sprintf("%8s", "g \\ d"), sprintf("%6s", deltas), "\n")
cat(sprintf("%8s", "fixed n"), sprintf("%6d", nfix), "\n")
for (j in seq_along(gs)) {
  best <- sapply(seq_along(deltas), function(i) ratio[j, i] == min(ratio[, i]))
  cat(sprintf("%8s", gs[j]), sprintf("%5s%s", f(ratio[j, ]), ifelse(best, "*", " ")), "\n")
}
cat(sprintf("%8s", "best g"), sprintf("%6s", gs[apply(ratio, 2, which.min)]), "\n")
cat(sprintf("%8s", "g/d^2"), sprintf("%6s", f(gs[apply(ratio, 2, which.min)] / deltas^2, 1)), "\n\n")

## B. the rule at the planned effect, fresh draws --------------------------
dB <- c(0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.63, 0.8, 1, 1.25, 1.5, 2, 2.5, 3)
mults <- c(0.75, 1, 1.5, 2, 3)
cat("B. rule g = clamp(1.5 d^2, 0.01, 25) at the planned d (fresh draws);\n")
cat("   right: ratio with g = m d^2 for other multipliers m, same paths\n")
cat(sprintf("%5s %7s %6s %8s %6s %5s %4s %6s |%s\n", "d", "g", "fixedn", "mean",
            "SE", "med", "cap", "ratio", paste(sprintf("%6s", paste0("m=", mults)), collapse = "")))
resB <- NULL
for (d in dB) {
  gg <- g_rule(d, mults)
  st <- sim_runs(d, gg, REPS, CAP)
  nf <- fixed_n(d)
  s <- summ(st[mults == 1.5, ], CAP)
  rr <- apply(st, 1, function(r) summ(r, CAP)[["mean"]]) / nf
  resB <- rbind(resB, c(d = d, s, nf = nf))
  cat(sprintf("%5.2f %7.4f %6d %8.2f %6.2f %5.0f %4d %6.3f |%s\n", d, g_rule(d), nf,
              s[["mean"]], s[["se"]], s[["med"]], s[["cap"]], s[["mean"]] / nf,
              paste(sprintf("%6.3f", rr), collapse = "")))
}
cat("\n")

## C. misspecified effect ---------------------------------------------------
dC <- c(0.2, 0.3, 0.5, 0.63, 1, 1.5, 2, 3)
cat("C. rule's g from the planned d, true effect 0.5x or 2x the planned;\n")
cat("   ratio = mean runs / fixed n for the TRUE d; g=25 beside, same paths\n")
cat(sprintf("%5s %5s %7s %6s %8s %6s %4s %6s | %8s %6s\n", "plan", "true", "g", "fixedn",
            "mean", "SE", "cap", "ratio", "mean g25", "ratio"))
for (d in dC) for (k in c(0.5, 2)) {
  dt <- d * k
  st <- sim_runs(dt, c(g_rule(d), 25), REPS, CAP)
  nf <- fixed_n(dt)
  s <- summ(st[1, ], CAP); s25 <- summ(st[2, ], CAP)
  cat(sprintf("%5.2f %5.2f %7.4f %6d %8.2f %6.2f %4d %6.3f | %8.2f %6.3f\n", d, dt,
              g_rule(d), nf, s[["mean"]], s[["se"]], s[["cap"]], s[["mean"]] / nf,
              s25[["mean"]], s25[["mean"]] / nf))
}
cat("\n")

## D. A/A error over looks 3..200 -------------------------------------------
dD <- c(0.1, 0.2, 0.5, 0.63, 1, 2, 3)
gD <- c(g_rule(dD), 25)
st <- sim_runs(0, gD, REPS_AA, 200)
p <- rowMeans(!is.na(st))
cat(sprintf("D. A/A error (d = 0): any look n = 3..200 excludes 0; %d paths, same paths for each g\n", REPS_AA))
cat(sprintf("%8s %8s %8s %8s\n", "plan d", "g", "error", "SE"))
cat(sprintf("%8s %8.4f %8.4f %8.4f\n", c(dD, "(g=25)"), gD, p, sqrt(p * (1 - p) / REPS_AA)), sep = "")
cat("\n")

## E. the audit's case -------------------------------------------------------
dE <- log(1.02) / 0.0316
st <- sim_runs(dE, c(25, g_rule(dE)), 5 * REPS, CAP)
nf <- fixed_n(dE)
s25 <- summ(st[1, ], CAP); sr <- summ(st[2, ], CAP)
cat(sprintf("E. audit: effect 2 %%, sigma_run 0.0316 -> d = %.4f; fixed n %d; %d paths\n",
            dE, nf, 5 * REPS))
cat(sprintf("   g = 25     : mean %.2f (SE %.2f), median %.0f, ratio %.3f\n",
            s25[["mean"]], s25[["se"]], s25[["med"]], s25[["mean"]] / nf))
cat(sprintf("   g = %.4f : mean %.2f (SE %.2f), median %.0f, ratio %.3f\n", g_rule(dE),
            sr[["mean"]], sr[["se"]], sr[["med"]], sr[["mean"]] / nf))
cat(sprintf("\n%.0f s\n", proc.time()[["elapsed"]] - t_start))
