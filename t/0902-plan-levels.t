#!/bin/sh
# pb-plan --levels host,run: the nested variance components against R's
# aov (two balanced studies, one unbalanced), the run cost measured
# within hosts, the cheapest hosts x runs x pairs on a hand-worked
# example, how the costs move it, and the refusals.
. "$(dirname "$0")/lib.sh"
cd "$D/plan3" || exit 1

# --- Variance components against R ---------------------------------------
# balanced.tsv (4 hosts x 5 runs x 20 pairs), balanced2.tsv (6 x 3 x 8)
# and unbalanced.tsv (hosts of 3, 5, 2 and 4 runs of 4 to 15 pairs) are
# raw streams, host= in each '# run:' comment, made by t/data/plan3/gen.py
# (seeded; sigma_host, sigma_run, sigma_pair 0.02, 0.01, 0.03; 0.005,
# 0.02, 0.05; 0.02, 0.01, 0.03). References: R 4.2.2, on each file's pair
# stream with its hosts, pb-pair --host F | pb-logratio >F.pairs:
#   vc3 <- function(f) {
#     x <- read.delim(f, comment.char = "#")
#     x$host <- factor(x$host); x$run <- factor(x$run)
#     ms <- summary(aov(lr ~ host / run, x))[[1]][["Mean Sq"]]
#     hr <- unique(x[c("host", "run")]); nij <- as.vector(table(x$run)[as.character(hr$run)])
#     ni <- tapply(nij, hr$host, sum); N <- sum(nij); a <- nlevels(x$host); k <- nrow(hr)
#     A <- sum(tapply(nij^2, hr$host, sum) / ni)
#     k1 <- (N - A) / (k - a); k2 <- (A - sum(nij^2) / N) / (a - 1)
#     k3 <- (N - sum(ni^2) / N) / (a - 1)
#     s2r <- (ms[2] - ms[3]) / k1; s2h <- (ms[1] - ms[3] - k2 * s2r) / k3
#     hw <- qt(0.975, a - 1) * sqrt(s2h / a + s2r / k + ms[3] / N)
#     sprintf("%.17g", c(s2h, s2r, ms[3], k1, k2, k3, hw)) }
# The tolerance 1e-9 (relative) leaves room for summation order only (they
# agreed to 1e-14). For the balanced ones also lme4 (r-cran-lme4 1.1-31),
# whose REML estimates equal the ANOVA ones on balanced data when these
# are above 0; its optimizer stops about 1e-7 (relative) from the optimum
# (bobyqa at rhoend 1e-14; the default nloptwrap is 5e-6 off on
# balanced2), so those are checked to 1e-6:
#   m <- lmer(lr ~ 1 + (1 | host / run), x, REML = TRUE, control = lmerControl(
#     optimizer = "bobyqa", optCtrl = list(rhobeg = 0.2, rhoend = 1e-14, maxfun = 1e6)))
#   print(as.data.frame(VarCorr(m))[, c("grp", "vcov")], digits = 17)
plan3() { _f=$1; shift; pb-pair "$_f" | pb-logratio | pb-plan --levels host,run "$@"; }
run plan3 balanced.tsv --host-cost 10s
ran_ok "balanced: exit 0, rows"
near "$(col sigma2_host 1 "$T/out")" 0.00026326540891547954 1e-9 "balanced: sigma2_host = R's aov (MS_host - MS_run) / (b n)"
near "$(col sigma2_run 1 "$T/out")" 0.00010134865188938068 1e-9 "balanced: sigma2_run = R's aov (MS_run - MS_pair) / n"
near "$(col sigma2_pair 1 "$T/out")" 0.000943370709455518 1e-9 "balanced: sigma2_pair = R's aov MS_pair"
near "$(col sigma2_host 1 "$T/out")" 0.00026326544528853949 1e-6 "balanced: sigma2_host = lme4's REML (to 1e-6: its optimizer)"
near "$(col sigma2_run 1 "$T/out")" 0.00010134865431241991 1e-6 "balanced: sigma2_run = lme4's REML"
is "$(col hosts 1 "$T/out") $(col runs 1 "$T/out") $(col pairs 1 "$T/out")" "4 5 20" \
	"balanced: the current row is 4 hosts x 5 runs x 20 pairs"
like "$(meta pb-plan.model "$T/out")" 'ANOVA, method of moments, balanced: E\[MS_run\] = sigma2_pair \+ 20 sigma2_run, E\[MS_host\] = sigma2_pair \+ 20 sigma2_run \+ 100 sigma2_host;' \
	"balanced: the model says balanced, with k1 = n, k2 = n, k3 = b n"
# the current half-width: qt(0.975, 3) * sqrt(s2h/4 + s2r/20 + s2p/400)
near "$(col halfwidth 1 "$T/out")" 0.027235904940561596 1e-9 "balanced: current half-width = R's, t on hosts - 1 df"

run plan3 balanced2.tsv --host-cost 10s
near "$(col sigma2_host 1 "$T/out")" 6.4775172202335672e-05 1e-9 "balanced2: sigma2_host = R's aov"
near "$(col sigma2_run 1 "$T/out")" 0.00030639873245092103 1e-9 "balanced2: sigma2_run = R's aov"
near "$(col sigma2_pair 1 "$T/out")" 0.0025460889421237975 1e-9 "balanced2: sigma2_pair = R's aov"
near "$(col sigma2_host 1 "$T/out")" 6.4775188342513192e-05 1e-6 "balanced2: sigma2_host = lme4's REML"
near "$(col sigma2_run 1 "$T/out")" 0.00030639872156040224 1e-6 "balanced2: sigma2_run = lme4's REML"

run plan3 unbalanced.tsv --host-cost 10s
near "$(col sigma2_host 1 "$T/out")" 0.00027377946989155046 1e-9 "unbalanced: sigma2_host = R's unbalanced moment formula"
near "$(col sigma2_run 1 "$T/out")" 7.0129003075856931e-05 1e-9 "unbalanced: sigma2_run = R's (MS_run - MS_pair) / k1"
near "$(col sigma2_pair 1 "$T/out")" 0.00085829519998445968 1e-9 "unbalanced: sigma2_pair = R's MS_pair"
like "$(meta pb-plan.model "$T/out")" 'unbalanced .*sigma2_pair \+ 8\.20980554835364[0-9]* sigma2_run, .* \+ 10\.3521386870596[0-9]* sigma2_run \+ 30\.0867208672086[0-9]* sigma2_host' \
	"unbalanced: the model says so, with R's k1, k2, k3"
is "$(col hosts 1 "$T/out") $(col runs 1 "$T/out") $(col pairs 1 "$T/out")" "4 3.5 8.785714285714286" \
	"unbalanced: current is 4 hosts x 3.5 runs x 123/14 pairs (the means)"

# negative.tsv: the two runs of each host have the same mean (.02 on x,
# .07 on y), their pairs differ: MS_run = 0, MS_pair = (4 x .0004 + 4 x
# .0001) / 4 = .0005, MS_host = 4 x 2 x .025^2 = .005. The run estimate
# (0 - .0005) / 2 = -.00025 is set to 0 with a note; the host estimate
# is solved with it as it was: (.005 - .0005 + 2 x .00025) / 4 = .00125.
run pb-plan --levels host,run --host-cost 1s negative.tsv
is "$(col sigma2_run 1 "$T/out")" 0 "negative: sigma2_run below 0 is set to 0"
is "$(meta pb-plan.sigma2_run.note "$T/out")" "the moment estimate -0.00025 is below 0: taken as 0" \
	"negative: and a note gives the estimate"
near "$(col sigma2_host 1 "$T/out")" 0.00125 1e-12 "negative: sigma2_host from the run estimate before truncation"
is "$(row_count "$T/out"):$(meta pb-plan.sigma2_host.note "$T/out")" "1:" \
	"negative: without --target only the current row; no note of a host estimate above 0"
run pb-plan --levels host,run --host-cost 1s --pair-cost 1ms --target 0.001 --max-runs 3 negative.tsv
is "$rc:$(row_count "$T/out"):$(cat "$T/err")" \
	"0:1:pb-plan: no design with at most 3 hosts of 3 runs reaches a half-width of 0.001" \
	"no design within --max-runs: a warning, the current row, exit 0"

# --- A host column, as pb-pair --host writes it, gives the same ----------
pb-pair balanced.tsv | pb-logratio | pb-plan --levels host,run --host-cost 10s | rows >"$T/comments"
pb-pair --host balanced.tsv | pb-logratio | pb-plan --levels host,run --host-cost 10s | rows >"$T/column"
same_file "$T/column" "$T/comments" "the host column (pb-pair --host) and the '# run:' comments give the same rows"

# --- Costs measured within a host ----------------------------------------
# The four hosts' runs start at the same times (shards run at once). The
# run cost is the median, over the 16 gaps between consecutive runs of one
# host, of the gap less the earlier run's a + b (Python over the file:
# 54371148 ns); across hosts the gaps would be negative.
run plan3 balanced.tsv --host-cost 10s
is "$(meta pb-plan.run_cost "$T/out")" 54371148 "the run cost: median gap between starts of a host, less the pairs"
like "$(meta pb-plan.run_cost.note "$T/out")" 'of a host' "  and its note says so"
is "$(meta pb-plan.host_cost "$T/out"):$(meta pb-plan.host_cost.note "$T/out")" "10000000000:given" \
	"--host-cost 10s: 10000000000 ns, given"

# --- The plan on a hand-worked example -----------------------------------
# hand.tsv: hosts x (runs 0, 0.02) and y (runs 0.04, 0.06), 2 equal pairs
# each. Run means 0, .02, .04, .06; hosts .01, .05; grand .03.
#   MS_pair = 0; MS_run = 2 (4 x .01^2) / 2 = .0004; MS_host = 4 (2 x .02^2) / 1 = .0032
#   sigma2_run = .0004 / 2 = .0002; sigma2_host = (.0032 - .0004) / 4 = .0007
# Costs: host 1 s, run 99 ms, pair 1 ms; target .03. sigma2_pair = 0, so
# one pair a run (more cost more and tighten nothing). With r runs on h
# hosts the target needs t(h-1)^2 (7 + 2/r) <= 9 h:
#   h = 5: t(4)^2 = 7.709, 7 + 2/r <= 5.84: no r
#   h = 6: t(5)^2 = 6.608, 7 + 2/r <= 8.17: r >= 2, cost 6 (1 + 2 x .1) = 7.2 s
#   h = 7: t(6)^2 = 5.987, r >= 1, cost 7 (1 + .1) = 7.7 s; more hosts cost more
# So 6 hosts x 2 runs x 1 pair, 7.2 s, half-width
#   t(5) sqrt((.0007 + .0002/2) / 6) = 2.5706 x .011547 = .029683.
run pb-plan --levels host,run --host-cost 1s --run-cost 99ms --pair-cost 1ms --target 0.03 hand.tsv
near "$(col sigma2_host 1 "$T/out")" 0.0007 1e-12 "hand: sigma2_host = .0007"
near "$(col sigma2_run 1 "$T/out")" 0.0002 1e-12 "hand: sigma2_run = .0002"
is "$(col plan 2 "$T/out") $(col hosts 2 "$T/out") $(col runs 2 "$T/out") $(col pairs 2 "$T/out") $(col total_s 2 "$T/out")" \
	"best 6 2 1 7.2" "hand: best is 6 hosts x 2 runs x 1 pair, 7.2 s"
near "$(col halfwidth 2 "$T/out")" 0.029682522295571768 1e-12 "hand: its half-width t(5) sqrt(.0008/6) = .029683"

# --- Costs move the plan the right way -----------------------------------
# best_of ARGS: hosts runs pairs of the best row of balanced.tsv's plan
best_of() { plan3 balanced.tsv --target 0.01 "$@" | awk -F'\t' '$1 == "best" { print $5, $6, $7 }'; }
cheap=$(best_of --host-cost 1s)
dear=$(best_of --host-cost 100s)
holds "a dear host: fewer hosts, more runs each ($cheap, then $dear)" 'h2 < h1 && r2 > r1' \
	h1="${cheap%% *}" h2="${dear%% *}" r1="$(echo "$cheap" | cut -d' ' -f2)" r2="$(echo "$dear" | cut -d' ' -f2)"
cheap=$(best_of --host-cost 10s --run-cost 1ms)
dear=$(best_of --host-cost 10s --run-cost 10s)
holds "a dear run: fewer runs a host, more pairs each ($cheap, then $dear)" 'r2 < r1 && p2 > p1' \
	r1="$(echo "$cheap" | cut -d' ' -f2)" r2="$(echo "$dear" | cut -d' ' -f2)" \
	p1="$(echo "$cheap" | cut -d' ' -f3)" p2="$(echo "$dear" | cut -d' ' -f3)"

# --- Two levels stay as they were ----------------------------------------
pb-pair balanced.tsv | pb-logratio | pb-plan --target 0.01 | rows >"$T/two"
pb-pair balanced.tsv | pb-logratio | pb-plan --levels run --target 0.01 | rows >"$T/run"
same_file "$T/run" "$T/two" "--levels run is the default, two levels"

# --- Refusals --------------------------------------------------------------
refuses 2 '^pb-plan: --levels host,run needs --host-cost DUR' "--levels host,run without --host-cost: usage" \
	pb-plan --levels host,run hand.tsv
refuses 2 "^pb-plan: --host-cost wants a duration" "--host-cost 5 parsecs: usage" \
	pb-plan --levels host,run --host-cost 5pc hand.tsv
refuses 2 "^pb-plan: --host-cost wants a duration" "--host-cost -1s: usage" \
	pb-plan --levels host,run --host-cost -1s hand.tsv
refuses 2 '^pb-plan: --host-cost prices a host: give --levels host,run too' "--host-cost alone: usage" \
	pb-plan --host-cost 1s hand.tsv
refuses 2 "^pb-plan: --levels is run or host,run, not 'host'" "--levels host: usage" \
	pb-plan --levels host --host-cost 1s hand.tsv
refuses 2 '^pb-plan: --levels host,run plans a fixed design: not with --sequential' "--levels host,run --sequential: usage" \
	pb-plan --levels host,run --host-cost 1s --sequential hand.tsv
sed 's/ host=h[0-9]*$/ host=h1/' balanced.tsv >"$T/onehost.tsv"
pb-pair "$T/onehost.tsv" | pb-logratio >"$T/onehost.pairs"
refuses 1 '^pb-plan: only 1 host \(h1\); the variance between hosts needs at least 2$' "one host: exit 1, one line" \
	pb-plan --levels host,run --host-cost 1s "$T/onehost.pairs"
refuses 1 '^pb-plan: host y has only 1 run; the variance between runs of a host needs at least 2 on every host$' \
	"a host of 1 run: exit 1, one line" pb-plan --levels host,run --host-cost 1s onerun.tsv
sed '/^# run: 7 /s/ host=h2$//' balanced.tsv | pb-pair | pb-logratio >"$T/nolabel.pairs"
refuses 1 "^pb-plan: .*nolabel.pairs: run 7 has no host label: --levels host,run reads host= from each run's '# run:' comment, or a host column \(pb-pair --host\)$" \
	"a run without host=: exit 1, one line" pb-plan --levels host,run --host-cost 1s "$T/nolabel.pairs"
refuses 1 "^pb-plan: stdin: run 1 has no host label" "no '# run:' comments and no host column: exit 1" \
	sh -c 'grep -v "^# run:" "$1" | pb-plan --levels host,run --host-cost 1s' sh "$T/nolabel.pairs"
refuses 1 '^pb-plan: emptyhost.tsv:7: run 3 has an empty host field' "an empty host field: exit 1, file:line" \
	pb-plan --levels host,run --host-cost 1s emptyhost.tsv
refuses 1 '^pb-plan: twohosts.tsv:3: run 1 is on two hosts, x and y$' "a run on two hosts: exit 1, file:line" \
	pb-plan --levels host,run --host-cost 1s twohosts.tsv
refuses 1 '^pb-plan: --levels host,run plans one comparison' "an arm column: exit 1" \
	pb-plan --levels host,run --host-cost 1s "$D/arms/lr3.tsv"
pb-pair --by-run --host balanced.tsv | pb-logratio >"$T/byrun.tsv"
refuses 1 '^pb-plan: one row per run; the variance within runs needs runs of 2 or more rows' \
	"a by-run stream: exit 1" pb-plan --levels host,run --host-cost 1s "$T/byrun.tsv"

done_testing
