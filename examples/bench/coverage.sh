#!/bin/sh
# Bench section (issue 12): how often pb-boot's intervals over runs hold
# the truth. Synthetic studies (examples/bench/coverage-gen.c: no
# processes, a fixed seed) of 5, 10 and 20 runs of 101 paired differences,
# d = run effect + N(0, 1), the run effect none, normal or t3 (sd 0.5);
# the true median and mean are 0. Each row: COV_STUDIES studies (1000),
# nominal 95 %, coverage in % +- its binomial SE, for every method of
# `pb-boot --block run`, the naive pooled interval (no --block) and the
# studentized interval over runs (an experiment, not in pb-boot).
# Usage: sh examples/bench/coverage.sh OUTDIR  (Markdown on stdout)
set -eu
out=${1:?usage: coverage.sh OUTDIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
PATH="$top/bin:$PATH"
S=${COV_STUDIES:-1000}
mkdir -p "$out"
cc -O2 -std=c11 -o "$out/coverage-gen" "$top/examples/bench/coverage-gen.c" -lm
cc -O2 -std=c11 -D_XOPEN_SOURCE=700 -I"$top/lib" -o "$out/coverage-studentized" \
	"$top/examples/bench/coverage-studentized.c" "$top/lib/libpb.a" -lm

# cover FILE STAT ARGS...: "coverage ± SE" of 0 over the studies of FILE,
# and the mean width after a tab
cover() {
	f=$1 st=$2
	shift 2
	pb-boot --group study --stat "$st" "$@" "$f" 2>/dev/null | awk -F'\t' '
		!/^#/ && $1 != "study" { n++; c += ($4 <= 0 && $5 >= 0); w += $5 - $4 }
		END { p = c / n; printf "%.1f ± %.1f\t%.4g\n", 100 * p, 100 * sqrt(p * (1 - p) / n), w / n }'
}

echo "## Coverage of the intervals over runs (issue 12)"
echo
echo "$S synthetic studies per row (\`examples/bench/coverage-gen.c\`, seeded): 101 paired"
echo "differences per run, d = run effect + N(0, 1), the run effect none, normal or"
echo "Student t with 3 df (heavy-tailed), sd 0.5; the true median and mean are 0."
echo "Nominal 95 %, 2000 resamples; coverage in % ± its binomial SE. Columns:"
echo "\`pb-boot --block run --method M\`; *pooled* is pb-boot without \`--block\`"
echo "(pairs as if independent), shown for contrast; *studentized* is the"
echo "bootstrap-t over runs (\`coverage-studentized.c\`), measured for the choice"
echo "and not offered by pb-boot."
echo
echo "| runs | run effect | stat | percentile (old default) | expanded (default) | bca | expanded-bca | pooled (naive) | studentized |"
echo "|---|---|---|---|---|---|---|---|---|"
: >"$out/coverage-width.txt"
for k in 5 10 20; do
	for e in none normal t3; do
		f=$out/coverage-$k-$e.tsv
		"$out/coverage-gen" "$S" "$k" 101 "$e" 0.5 "$k$e" >"$f"
		"$out/coverage-studentized" <"$f" >"$out/coverage-st.txt"
		for st in median mean; do
			line="| $k | $e | $st"
			for m in percentile expanded bca expanded-bca; do
				c=$(cover "$f" "$st" --block run --method "$m")
				line="$line | ${c%	*}"
				[ "$m" = expanded ] && wx=${c#*	}
			done
			c=$(cover "$f" "$st")
			line="$line | ${c%	*}"
			set -- $(grep "^$st " "$out/coverage-st.txt")
			echo "$line | $2 ± $3 |"
			echo "$k $e $st $wx $4" >>"$out/coverage-width.txt"
		done
		rm -f "$f"
	done
done
echo
echo "Mean width of the interval, expanded against studentized:"
echo
echo "| runs | run effect | stat | expanded | studentized | ratio |"
echo "|---|---|---|---|---|---|"
awk '{ printf "| %s | %s | %s | %.3f | %.3f | %.2f |\n", $1, $2, $3, $4, $5, $5 / $4 }' \
	"$out/coverage-width.txt"
echo
echo "Target: the default within 2 SE of 95 % at 10 and 20 runs."
echo
