#!/bin/sh
# study.sh RAW DIR [SENSE]: a whole study directory made from the raw
# stream RAW with the real tools, the layout pb-compare writes (pb(7)):
# raw.tsv, pairs.tsv, runs.tsv, tint.tsv (with --check), check.tsv,
# plan.tsv, runs.svg, trend.svg, pairs.svg; with SENSE (pb-sense output)
# also sense.tsv and sense.svg. The pb tools must be on PATH.
set -eu
raw=$1 dir=$2
mkdir -p "$dir"
cd "$dir"
cp "$raw" raw.tsv
pb-pair raw.tsv | pb-logratio >pairs.tsv
pb-pair --by-run raw.tsv | pb-logratio >runs.tsv
pb-check pairs.tsv >check.tsv
pb-tint --finding --check check.tsv runs.tsv >tint.tsv
pb-plan pairs.tsv >plan.tsv
for k in runs trend pairs; do pb-plot $k -o $k.svg pairs.tsv; done
if [ $# -ge 3 ]; then
	cp "$3" sense.tsv
	pb-plot sense -o sense.svg sense.tsv
fi
