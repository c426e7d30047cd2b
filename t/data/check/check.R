p <- read.delim("pairs-small.tsv", comment.char = "#")
f <- function(x) sprintf("%.17g", x)
out <- function(name, ...) cat(name, ..., "\n")
k <- sum(p$first == "A"); n <- nrow(p)
out("order", f(k/n), f(binom.test(k, n, conf.level = 0.995)$conf.int))
runs <- unique(p$run); R <- length(runs)
best <- -1
for (r in runs) { q <- p[p$run == r,]; kk <- sum(q$first == "A"); ci <- binom.test(kk, nrow(q), conf.level = 1 - 0.01/(2*R))$conf.int; b <- max(ci[1]-0.5, 0.5-ci[2]); if (b > best) { best <- b; w <- c(r, kk/nrow(q), ci) } }
out("order_run", f(w))
tt <- function(x, L) { t <- t.test(x, conf.level = L); c(mean(x), t$conf.int) }
arm <- c(); pos <- c()
for (r in runs) { q <- p[p$run == r,]; m1 <- median(q$d[q$first == "A"]); m2 <- median(q$d[q$first == "B"]); arm <- c(arm, (m1+m2)/2); pos <- c(pos, (m2-m1)/2) }
out("effect", f(tt(arm, 0.99))); out("position", f(tt(pos, 0.99)))
ca <- c(); cb <- c()
for (r in runs) { q <- p[p$run == r,]; q <- q[order(q$pair),]; i <- 2:nrow(q); ok <- q$pair[i] == q$pair[i-1] + 1
  prevA <- q$first[i-1] == "A"; cur <- q[i,]
  s <- ok & cur$first == "A"; x1 <- cur$a[s & prevA]; x2 <- cur$a[s & !prevA]; if (length(x1) >= 3 && length(x2) >= 3) ca <- c(ca, median(x1) - median(x2))
  s <- ok & cur$first == "B"; x1 <- cur$b[s & prevA]; x2 <- cur$b[s & !prevA]; if (length(x1) >= 3 && length(x2) >= 3) cb <- c(cb, median(x1) - median(x2)) }
out("carry_a", length(ca), f(tt(ca, 0.995))); out("carry_b", length(cb), f(tt(cb, 0.995)))
md <- sapply(runs, function(r) median(p$d[p$run == r])); ma <- sapply(runs, function(r) median(p$a[p$run == r])); mb <- sapply(runs, function(r) median(p$b[p$run == r]))
sl <- function(y, L) { m <- lm(y ~ runs); c(coef(m)[2], confint(m, level = L)[2,]) }
out("drift_d", f(sl(md, 0.995))); out("drift_lr", f(sl(log(ma/mb), 0.995))); out("drift_level", f(sl((ma+mb)/2, 0.99))); out("r", f(cor(ma, mb)))
lv <- c(); dd <- c()
for (r in runs) { q <- p[p$run == r,]; q <- q[order(q$pair),]; k <- ceiling(0.1 * nrow(q)); lv <- c(lv, log(median(q$a[1:k]) / median(q$a[-(1:k)]))); dd <- c(dd, median(q$d[1:k]) - median(q$d[-(1:k)])) }
out("warmup", f(exp(tt(lv, 0.99)) - 1)); out("warmup_d", f(tt(dd, 0.99)))
q1 <- quantile(md, .25); q3 <- quantile(md, .75); out("outliers", f(max(q1 - md, md - q3) / (q3 - q1)))
sp <- sapply(runs, function(r) { q <- p[p$run == r,]; log(IQR(q$b) / IQR(q$a)) })
out("spread", f(exp(tt(sp, 0.99))))
