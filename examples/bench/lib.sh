# lib.sh: helpers the bench scripts share. Source it.

# median: the median of the numbers on stdin, one a line.
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
# column COL FILE: every value of a pb stream's column COL.
column() { awk -F'\t' -v c="$1" '/^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == c) k = i; h = 1; next } { print $k }' "$2"; }
# field COL FILE: the first value of a pb stream's column COL.
field() { column "$@" | head -n 1; }
