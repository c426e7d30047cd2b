#!/bin/sh
# Hosts as a level: pb-tint --unit host (each host's mean and interval,
# the t interval over hosts, DerSimonian-Laird tau2 with its Q-profile
# interval, I2, Q, mu and the prediction interval for a new host) against
# R's metafor; pb-check's hosts check on a host planted 5 % apart, and on
# none; bad input. The data: t/data/hosts/README.
. "$(dirname "$0")/lib.sh"
cd "$D/hosts" || exit 1
G=$D/../gen/synth

# hostcol NAME FILE: column NAME of the row of the hosts
hostcol() {
	awk -F'\t' -v c="$1" '/^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == c) j = i
		h = 1; next } $1 == "hosts" { print j ? $j : "<col: no column " c ">" }' "$2"
}

# --- Against R ----------------------------------------------------------------
# metafor 3.8-1 (R 4.2, Debian's r-cran-metafor), for each FILE:
#   library(metafor); r <- read.delim(FILE, comment.char = "#")
#   y <- as.numeric(tapply(r$lr, r$host, mean))
#   v <- as.numeric(tapply(r$lr, r$host, var) / tapply(r$lr, r$host, length))
#   m <- rma(y, v, method = "DL")
#   ci <- confint(m, control = list(tol = 1e-14, maxiter = 10000))   # Q-profile
#   h <- qt(0.975, length(y) - 2) * sqrt(m$tau2 + m$se^2)   # Higgins et al. 2009
#   c(m$tau2, ci$random["tau^2", c("ci.lb", "ci.ub")], m$I2 / 100, m$QE, m$QEp,
#     m$b, m$se, m$ci.lb, m$ci.ub, m$b - h, m$b + h)
#   rstandard(rma(y, v, method = "FE"))$z
# and Welch's F test: o <- oneway.test(lr ~ host, data = r); o$statistic, o$parameter, o$p.value
# (predict(m)'s pi.lb and pi.ub are mu -+ z sqrt(tau2 + se^2); pb-tint's
# prediction interval takes t on k - 2 df, as Higgins et al. do.)
run pb-tint --unit host --finding runs-planted.tsv
cp "$T/out" "$T/p"
is "$rc:$(rows "$T/p" | cut -f 1,2,3 | tr '\t\n' ': ')" "0:host:h1:4 host:h2:4 host:h3:4 host:h4:4 hosts::4 " \
	"--unit host: a row per host (4 runs each), then the row of the hosts"
while read -r c want; do
	near "$(hostcol "$c" "$T/p")" "$want" 1e-9 "planted: $c as metafor"
done <<'R'
tau2 5.5221867473337328e-04
tau2_lo 1.9933289029884529e-04
tau2_hi 9.4751087542400466e-03
i2 9.7475838686757432e-01
q 1.1885135804360182e+02
q_p 1.3639759522418980e-25
mu 3.9396179680737831e-02
mu_se 1.1953689918258981e-02
mu_lo 1.5967377958590687e-02
mu_hi 6.2824981402884977e-02
pred_lo -7.4042945582536504e-02
pred_hi 1.5283530494401215e-01
f 3.2107847421692142e+01
f_df2 5.7010138465885207e+00
f_p 5.6362884281160343e-04
R
near "$(col z 3 "$T/p")" 10.78226890691771622 1e-9 "planted: h3's standardized residual as metafor's rstandard"
near "$(col z 2 "$T/p")" -5.91775538966780879 1e-9 "planted: h2's too"
near "$(hostcol ratio_pred_lo "$T/p")" "$(awk 'BEGIN { printf "%.17g", exp(-7.4042945582536504e-02) }')" 1e-9 \
	"ratio_pred_lo = exp(pred_lo)"
# h3's mean and interval: R's t.test(r$lr[r$host == "h3"])
near "$(col mean 3 "$T/p")" 0.0779953953773567 1e-12 "h3: the mean of its runs"
near "$(col se 3 "$T/p")" 0.004522554014891994 1e-12 "h3: its standard error s/sqrt(n)"
# the t interval over the 4 host means, df 3: R's t.test(y)
is "$(hostcol df "$T/p")" 3 "hosts: the t interval over the host means has df = hosts - 1"
near "$(hostcol lo "$T/p")" -0.0021512911541903892 1e-12 "hosts: its lo, as t.test(y)"
like "$(grep '^# finding' "$T/p")" \
	"^# finding: Over 4 hosts .*I2 = 97\.48%.* On another machine like these, expect B to take anything from 14\.17% less time to 7\.685% more than A \(95% prediction interval, A/B 0\.9286 to 1\.165\)\.\$" \
	"the finding states the prediction for another machine"
like "$(meta pb-tint.unit "$T/p")" '^host$' "# pb-tint.unit: host"

run pb-tint --unit host --finding runs-even.tsv
cp "$T/out" "$T/e"
while read -r c want; do
	near "$(hostcol "$c" "$T/e")" "$want" 1e-9 "even: $c as metafor"
done <<'R'
q 2.81314869896925223713
q_p 0.42133997861721617095
tau2_hi 0.00030551044239488922
mu 0.02718069421577737690
mu_se 0.00132602755636283863
pred_lo 0.02147525813066980191
pred_hi 0.03288613030088495537
f 0.75997582834357325
f_df2 5.70101720244896093
f_p 0.55796924095323153
R
is "$(hostcol tau2 "$T/e"):$(hostcol tau2_lo "$T/e"):$(hostcol i2 "$T/e")" "0:0:0" \
	"even: Q below its df: tau2, its lower bound and I2 are 0"
like "$(grep '^# finding' "$T/e")" 'expect B to take 2\.1[0-9]*% to 3\.2[0-9]*% less time than A' \
	"even: a prediction wholly on one side"

# --- pb-check hosts --------------------------------------------------------------
study() { "$G" --seed "$1" --runs 16 --pairs 20 --warmup 2 --effect -30000 |
	awk -v per=4 -v planted="$2" -v factor=1.05 -f hosts.awk | pb-pair 2>/dev/null; }
study 7 h3 >"$T/pp"
run pb-check "$T/pp"
is "$rc:$(awk -F'\t' '$1 == "hosts" { print $2 }' "$T/out")" "0:warn" "pb-check: a host planted 5 % apart warns"
like "$(grep '^hosts' "$T/out")" "Welch's F = 32\\.11, p = 0\\.0005636; I2 = 97\\.48%\\), and host h3 stands out most" \
	"... naming it, with Welch's F test as pb-tint --unit host gives it"
like "$(grep '^# pb-check.warning:' "$T/out")" 'hosts disagree beyond what their runs explain' \
	"... in a warning line"
like "$(grep '^# pb-check.hosts:' "$T/out")" "Cochran's Q" "# pb-check.hosts: how it is computed"
for seed in 7 8 9; do
	study "$seed" none >"$T/pe"
	run pb-check "$T/pe"
	is "$rc:$(awk -F'\t' '$1 == "hosts" { print $2 }' "$T/out")" "0:ok" "pb-check: no host planted (seed $seed): no warning"
done
study 8 h1 >"$T/pp"
run pb-check "$T/pp"
like "$(grep '^hosts' "$T/out")" '^hosts	warn	.*host h1 stands out most' "planted on h1 (seed 8): h1 named"

"$G" --seed 7 --runs 6 --pairs 20 | pb-pair 2>/dev/null >"$T/onehost.tsv"
run pb-check "$T/onehost.tsv"
is "$rc:$(row_count "$T/out"):$(grep -c '^hosts' "$T/out")" "0:17:0" \
	"pb-check, one host: its 17 rows, no hosts row (nothing to compare)"
"$G" --seed 7 --runs 4 --pairs 20 | awk -v per=3 -f hosts.awk | pb-pair 2>/dev/null >"$T/short.tsv"
run pb-check "$T/short.tsv"
is "$rc:$(awk -F'\t' '$1 == "hosts" { print $2 }' "$T/out")" "0:n/a" \
	"pb-check, 2 hosts but one of 1 run: hosts n/a"

# --- Few hosts, bad input ----------------------------------------------------------
awk -F'\t' '/^#/ || $NF == "" || $0 !~ /\th[34]\t/' runs-planted.tsv >"$T/two.tsv"
run pb-tint --unit host --finding "$T/two.tsv"
is "$rc:$(hostcol n "$T/out"):$(hostcol pred_lo "$T/out"):$(hostcol ratio_pred_hi "$T/out")" "0:2::" \
	"2 hosts: no prediction interval (its t has hosts - 2 df), empty fields"
like "$(grep '^# finding' "$T/out")" 'With 2 hosts there is no prediction for another one: it needs 3' \
	"... and the finding says why"
awk -F'\t' '/^#/ || $0 !~ /\th[234]\t/' runs-planted.tsv >"$T/one.tsv"
fails 1 '^pb-tint: .*one.tsv: --unit host needs 2 hosts or more, and the runs name 1$' \
	"one host: one line, exit 1" pb-tint --unit host "$T/one.tsv"
awk -F'\t' '/^#/ || !($0 ~ /\th4\t/ && n++)' runs-planted.tsv >"$T/lone.tsv"
fails 1 '^pb-tint: .*: host h4 has 1 run: a host needs 2 runs or more' \
	"a host of one run: one line naming it, exit 1" pb-tint --unit host "$T/lone.tsv"
awk -F'\t' -v OFS='\t' '!/^#/ && $1 == 6 { $NF = "nan" } 1' runs-planted.tsv >"$T/nan.tsv"
fails 1 '^pb-tint: .*nan.tsv:[0-9]+: ' "nan: one line, exit 1" pb-tint --unit host "$T/nan.tsv"
pb-pair --by-run "$D/raw-small.tsv" | pb-logratio >"$T/nohost.tsv"
fails 1 'needs a host column: make the runs with pb-pair --by-run --host' \
	"no host column: one line pointing at pb-pair --host, exit 1" pb-tint --unit host "$T/nohost.tsv"
"$G" --seed 7 --runs 4 --pairs 5 | awk -v per=2 -f hosts.awk | pb-pair --host 2>/dev/null |
	pb-logratio >"$T/hpairs.tsv"
fails 1 'reads one row per run' "pairs, not runs: one line, exit 1" pb-tint --unit host "$T/hpairs.tsv"
fails 2 'does not go with it' "--unit host --group: a usage error" pb-tint --unit host --group host runs-planted.tsv
fails 2 "unit" "--unit bogus: a usage error" pb-tint --unit bogus runs-planted.tsv
# --- pb-plot hosts ----------------------------------------------------------------
if command -v gnuplot >/dev/null 2>&1; then
	run pb-plot hosts -o "$T/h.png" runs-planted.tsv
	is "$rc:$(head -c 8 "$T/h.png" | od -An -c | tr -d ' ')" '0:211PNG\r\n032\n' "pb-plot hosts: a PNG"
	pb-tint --unit host runs-planted.tsv | pb-plot hosts -o "$T/h.svg" >"$T/out" 2>"$T/err"
	is "$?:$(grep -c '>h3<' "$T/h.svg"):$(grep -c '>pooled<' "$T/h.svg")" "0:1:1" \
		"pb-plot hosts from pb-tint --unit host: an SVG naming each host and the pooled interval"
	run pb-plot hosts runs-planted.tsv
	like "$(cat "$T/out")" 'a new host: -0\.07404 to 0\.1528' "pb-plot hosts: the text plot states the prediction band"
	fails 1 "no column 'host'" "pb-plot hosts without hosts: one line, exit 1" pb-plot hosts "$D/raw-small.tsv"
	fails 1 'host h4 has 1 run' "pb-plot hosts: pb-tint's refusal, naming the file" pb-plot hosts "$T/lone.tsv"
else
	for i in 1 2 3 4 5; do skip "gnuplot not installed"; done
fi
done_testing
