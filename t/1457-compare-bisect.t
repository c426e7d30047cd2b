#!/bin/sh
# pb-compare --bisect: git bisect run's answers, good (0), bad (1) and
# skip (125), with errors at 255, and the summary's last line that says
# which and why. The exact answers are of fixed studies read back
# (examples/compare: A/B 95% CS 0.3077 to 0.9598; t/data/arms/raw3.tsv:
# A/B 1.017 to 1.038, A/C 0.9662 to 0.9827), so that no check depends on
# the machine's speed or load. The live studies (pb-workload's worker)
# ask only what no load can change: A/A at level 0.99999 is never bad,
# and B with 50 % more busy-wait than A is bad at level 0.999 within a
# budget it needs a fraction of.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
W=$top/examples/workload/pb-workload
ex=$top/examples/compare
cd "$T" || exit 1
last() { tail -n 1 "$T/out"; }

# --- a study read back: one fixed interval, three gates
run pb-compare --from "$ex" --bisect --fail-if-slower 1.02
is "$rc:$(last)" "1:bisect: bad (B is slower than 1.02x A: A/B 95% CS [0.3077, 0.9598] lies below 1/1.02 = 0.9804)" \
	"upper end below 1/R: bad, exit 1, the last line says why"
run pb-compare --from "$ex" --bisect --fail-if-slower 2
is "$rc:$(last)" "125:bisect: skip (the study stopped before the interval cleared 1/2 = 0.5: A/B 95% CS [0.3077, 0.9598] includes it)" \
	"1/R inside the interval: skip, exit 125"
run pb-compare --from "$ex" --bisect --fail-if-slower 5
is "$rc:$(last)" "0:bisect: good (B is not slower than 5x A: A/B 95% CS [0.3077, 0.9598] lies above 1/5 = 0.2)" \
	"lower end above 1/R: good, exit 0"
run pb-compare --from "$ex" --bisect --fail-if-slower 2 --quiet
is "$rc:$(grep -c . "$T/out"):$(last | sed 's/ (.*//')" "125:4:bisect: skip" "--quiet: the answer, then the bisect line"
run pb-compare --from "$ex" --bisect --fail-if-slower 1.02 -v
is "$rc:$(last | sed 's/ (.*//'):$(grep -c -- '--fail-if-slower 1.02: failed (exit 3)' "$T/out")" "1:bisect: bad:0" \
	"-v: the bisect line last, no line of the gate's exit 3"
# the gate's own exits, unchanged without --bisect
run pb-compare --from "$ex" --fail-if-slower 1.02 --quiet
is "$rc:$(grep -c '^bisect:' "$T/out")" "3:0" "without --bisect: --fail-if-slower's exit 3, no bisect line"
run pb-compare --from "$ex" --bisect --fail-if-slower 2 --export-json -
is "$rc:$(jq -r '[.exit_status, .bisect, .fail_if_slower] | map(tostring) | join(" ")' "$T/out")" \
	"125:125 true 2" "--export-json: the exit status and bisect"

# --- three arms: bad when any candidate is, good only when all are
mkdir a3 && cp "$top/t/data/arms/raw3.tsv" a3/raw.tsv
run pb-compare --analyse a3 --no-pictures --bisect --fail-if-slower 1.01
is "$rc:$(last)" "1:bisect: bad (C is slower than 1.01x A: A/C 95% CI [0.9662, 0.9827] lies below 1/1.01 = 0.9901)" \
	"k arms: C slower than 1.01x, B faster: bad"
run pb-compare --from a3 --bisect --fail-if-slower 1.02
is "$rc:$(last)" "125:bisect: skip (the study stopped before the interval cleared 1/1.02 = 0.9804: A/C 95% CI [0.9662, 0.9827] includes it)" \
	"k arms: C undecided against 1.02x: skip"
run pb-compare --from a3 --bisect --fail-if-slower 1.05
is "$rc:$(last)" "0:bisect: good (all 2 candidates; the nearest: C is not slower than 1.05x A: A/C 95% CI [0.9662, 0.9827] lies above 1/1.05 = 0.9524)" \
	"k arms: both shown not slower than 1.05x: good"
# an end close to 1/R is written with the digits that tell them apart
# (0.9662 both, in 4)
run pb-compare --from a3 --bisect --fail-if-slower 1.03497
is "$rc:$(last)" "125:bisect: skip (the study stopped before the interval cleared 1/1.03497 = 0.966212: A/C 95% CI [0.966206, 0.982709] includes it)" \
	"  an end near 1/R: the digits that tell them apart"

# --- errors: 255, which stops git bisect run, never 1 (bad)
fails 255 "^pb-compare: nowhere: " "--from a missing directory: 255" \
	pb-compare --from nowhere --bisect --fail-if-slower 1.02
fails 1 "^pb-compare: nowhere: " "  without --bisect: 1" pb-compare --from nowhere --fail-if-slower 1.02
mkdir bad && printf 'run\tpair\n1\tx\n' >bad/raw.tsv
run pb-compare --analyse bad --no-pictures --bisect --fail-if-slower 1.02
is "$rc:$(tail -n 1 "$T/err")" "255:pb-compare: bad/raw.tsv: no column 'phase' (columns: run pair)" \
	"--analyse of a raw.tsv that is not one: 255"
pb-compare --bisect --fail-if-slower 1.02 --from "$ex" 2>"$T/err" >&-
is "$?:$(cat "$T/err")" "255:pb-compare: standard output is closed: the summary has nowhere to go (redirect it: >/dev/null, or > FILE)" \
	"stdout closed: refused, 255"
refuses 2 "^pb-compare: --bisect needs the gate's ratio: --fail-if-slower R .*, or --tolerance PCT \(see" \
	"--bisect alone: usage" pb-compare --bisect -- true true
refuses 2 "^pb-compare: --bisect needs the gate's ratio: --fail-if-slower R \(1\.02: 2 % slower is bad\) \(see" \
	"--bisect --from without --fail-if-slower: usage" pb-compare --from "$ex" --bisect
refuses 2 "^pb-compare: --bisect answers one study, not a scan" "--bisect with a scan: usage" \
	pb-compare --bisect --fail-if-slower 1.02 -P n 1,2 -- 'true {n}' 'true {n}'

# --- live. A/A at level 0.99999: a false "bad" has probability 1e-5 or
# less (the sequence is anytime-valid), so 0 or 125 only, whatever the load.
# Each study ends by its runs (-r 16: good in 2 of 3 here, else skip), not
# by its budget: a budget of 2 s was refused (255) under ASan at a load
# of 4, whose pb-run alone took more than a third of it.
i=0 aa=
while [ $i -lt 3 ]; do
	i=$((i + 1))
	run pb-compare -b 600s -r 16 -p 30 --level 0.99999 --dir "aa$i" --no-pictures --bisect \
		--fail-if-slower 1.02 --worker "$W --worker --us 1000"
	aa="$aa $rc:$(last | sed -n 's/^bisect: \(good\|skip\) (.*)$/\1/p')"
done
like "$aa" '^( (0:good|125:skip)){3}$' "A/A, 3 studies of 16 runs: good or skip, never bad"
# B with 50 % more work: bad at level 0.999 (the ratio near 0.67, far
# below 1/1.02; the sequence needs a few of the 40 runs). A worker's
# round trip is its work: a command's start-up, 20 ms on a loaded
# machine, would hide the difference of 1 ms.
run pb-compare -b 600s -r 40 -p 30 --level 0.999 --dir slow --no-pictures --bisect \
	--fail-if-slower 1.02 --worker "$W --worker --us 2000 --b-us 3000"
like "$rc:$(last)" '^1:bisect: bad \(B is slower than 1\.02x A: A/B 99\.9% CS \[0\.[0-9]+, 0\.[0-9]+\] lies below 1/1\.02 = 0\.9804\)$' \
	"B 50 % slower: bad, exit 1"
is "$(tail -n 1 slow/summary.txt | sed 's/ (.*//'):$(jq -r .exit_status slow/compare.json)" "bisect: bad:1" \
	"  summary.txt and compare.json say the same"
done_testing
