#!/bin/sh
# make demo: the analysis pipeline on the example raw stream shipped in
# examples/data (simulated: 10 runs x 100 pairs, runs differing by ~15 %,
# B 3 % faster). Pairs pooled first, then runs as the unit.
set -eu
cd "$(dirname "$0")/.."
PATH="$(pwd)/bin:$PATH"
raw=examples/data/raw-ab.tsv

echo "== pairs pooled: pb-pair $raw | pb-logratio | pb-tint --threshold 1.25 --finding"
pb-pair "$raw" | pb-logratio | pb-tint --threshold 1.25 --finding | grep -v '^# [a-z]' || true
pb-pair "$raw" | pb-logratio | pb-tint --threshold 1.25 --finding | grep '^# finding'
echo
echo "== runs as the unit: pb-pair --by-run $raw | pb-logratio | pb-tint --threshold 1.25 --finding"
pb-pair --by-run "$raw" | pb-logratio | pb-tint --threshold 1.25 --finding | grep '^# finding'
