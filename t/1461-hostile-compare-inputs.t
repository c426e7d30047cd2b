#!/bin/sh
# pb-compare against crafted inputs: a study directory whose head names an
# arm it lacks, values that would reach the study's Makefile, text that
# would reach report.md, a terminal or a CSV file unescaped, a scan value
# that fails, and the words of its refusals.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$T" || exit 1

# --- a '# reference:' or '# arms:' that is not pb-run's (item 4) ---------
# Each shape, in a directory with its analysis made (read back as it is)
# and in one with raw.tsv alone (the recipe makes the rest first): one
# line naming the file and the value, exit 1, no summary, no crash.
for line in '# reference: Z' '# reference: C' '# reference: AB' '# reference: a' \
	'# arms: 1' '# arms: 27'; do
	n_shape=$((n_shape + 1))
	rm -rf whole bare && cp -r "$top/examples/compare" whole && mkdir bare
	awk -v l="$line" 'NR == 2 { print l } 1' "$top/examples/compare/raw.tsv" >whole/raw.tsv
	cp whole/raw.tsv bare/raw.tsv
	case $line in *reference*) want="is not one of the arms \\(A to B\\)" ;;
		*) want="is not a number of arms \\(2 to 26\\)" ;; esac
	v=$(printf '%s' "$line" | sed 's/[][().*]/\\&/g')
	for d in whole bare; do
		run pb-compare --from $d
		refused 1 "^pb-compare: $d/raw\\.tsv: '$v' $want\$" \
			"--from, '$line', $d directory: one line, exit 1" "$rc" 1
	done
done
# the study's Makefile: report.md is made by pb-compare --from .
rm -rf mk && cp -r "$top/examples/compare" mk
awk 'NR == 2 { print "# reference: Z" } 1' "$top/examples/compare/raw.tsv" >mk/raw.tsv
touch -r mk/raw.tsv mk/*.tsv mk/report.md
for f in mk/*.tsv; do [ "$f" = mk/raw.tsv ] || touch -d '+1 hour' "$f"; done
rm -f mk/report.md
(cd mk && make report.md) >"$T/out" 2>"$T/err"
rc=$?
like "$rc:$(grep -c '^pb-compare:' "$T/err"):$(grep '^pb-compare:' "$T/err")" \
	"^2:1:pb-compare: \\./raw\\.tsv: '# reference: Z' is not one of the arms \\(A to B\\)\$" \
	"the Makefile's report.md rule (--from .): pb-compare's one line, make fails"

done_testing
