#!/bin/sh
# pb-compare on a study whose runs span hosts: with 3 hosts or more of 2
# runs or more, hosts.tsv (pb-tint --unit host on runs.tsv, which then has
# each run's host), a summary line with the average host and a new host,
# the finding with -v, the JSON and report.md; the Makefile makes hosts.tsv
# again. Fewer hosts, or a host of one run: no hosts.tsv and no line. The
# data are t/1320-hosts.t's (t/data/hosts/README), so the numbers are
# metafor's there.
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
G=$D/../gen/synth
H=$D/hosts/hosts.awk

# study DIR PER [PLANTED] [RUNS]: a raw.tsv in DIR of RUNS runs (16), PER
# runs on each host, host PLANTED's effect 5 % larger
study() {
	mkdir -p "$1" &&
	"$G" --seed 7 --runs "${4:-16}" --pairs 20 --warmup 2 --effect -30000 |
		awk -v per="$2" -v planted="${3:-none}" -v factor=1.05 -f "$H" >"$1/raw.tsv"
}

# --- 4 hosts of 4 runs, h3's effect 5 % larger (runs-planted.tsv's data)
study p 4 h3 || exit 1
run pb-compare --no-pictures --analyse p
cp "$T/out" sum
is "$rc:$(cat "$T/err"):$(head -n 1 sum)" "0::B is faster than A" "--analyse on runs of 4 hosts: exit 0, stderr empty, the answer"
is "$(rows p/hosts.tsv | cut -f1,2,3 | tr '\t\n' ': ')" "host:h1:4 host:h2:4 host:h3:4 host:h4:4 hosts::4 " \
	"hosts.tsv: a row per host and the row of the hosts"
is "$(rows p/runs.tsv | cut -f "$(awk -F'\t' '!/^#/ { for (i = 1; i <= NF; i++) if ($i == "host") print i; exit }' p/runs.tsv)" | uniq | tr '\n' ' ')" \
	"h1 h2 h3 h4 " "runs.tsv has each run's host (pb-pair --by-run --host)"
# metafor (t/1320-hosts.t): mu_lo 0.015967377958590687, mu_hi 0.062824981402884977,
# pred_lo -0.074042945582536504, pred_hi 0.15283530494401215; in B's time
# against A's: 1 - exp(-mu_lo) = 1.584%, 1 - exp(-mu_hi) = 6.089%,
# 1 - exp(-pred_hi) = 14.17% less, exp(-pred_lo) - 1 = 7.685% more
like "$(sed -n 3p sum)" '^   with the 4 hosts as the unit: 1\.6% to 6\.1% less on the average host, from 14% less to 7\.7% more on a new host like these \(95% prediction\)$' \
	"the summary's third line: the average host and a new host, as metafor's"
like "$(cat sum)" 'warning: The hosts disagree beyond what their runs explain, and host h3 stands out most' \
	"pb-check's hosts warning names h3"
run pb-compare --from p -v
like "$(cat "$T/out")" "finding: Over 4 hosts \\(random effects, DerSimonian-Laird\\), the average host's A/B time ratio is 1\\.040, 95% CI 1\\.016 to 1\\.065" \
	"-v: pb-tint --unit host's finding"
run pb-compare --from p --export-json -
cp "$T/out" j.json
for k in hosts:4 ratio_lo:1.0160955377547174 ratio_hi:1.0648404560387517 \
	ratio_pred_lo:0.92863181235078321 ratio_pred_hi:1.1651330714836257 i2:0.97475838686757432; do
	# ratio_lo = exp(mu_lo), ratio_pred_lo = exp(pred_lo) of metafor's, by awk's exp
	near "$(jq -r ".hosts.${k%%:*}" j.json)" "${k#*:}" 1e-9 "JSON hosts.${k%%:*} as metafor's"
done
like "$(cat p/report.md)" "Over 4 hosts .* \\(hosts.tsv: the runs' hosts as a level\\)" "report.md has the hosts' finding"
cp p/hosts.tsv hosts.made
rm p/hosts.tsv
(cd p && make -s hosts.tsv >/dev/null 2>&1)
same_remade hosts.made p/hosts.tsv "the study's Makefile makes hosts.tsv again, the same bytes"

# the picture: pb-plot hosts, linked from report.md
mkdir pic && cp p/raw.tsv pic/ || exit 1
run pb-compare --analyse pic
is "$rc:$(grep -c '<svg' pic/hosts.svg):$(grep -c '>pooled<' pic/hosts.svg):$(grep -c '](hosts.svg)' pic/report.md)" "0:1:1:1" \
	"with pictures: hosts.svg (pb-plot hosts: the hosts and the pooled interval), in report.md"
# pb-report: a section of the hosts after the runs, its finding, its
# picture, and both files in the list of files
run pb-report pic
is "$rc:$(grep -c '<section id="hosts">' pic/report.html):$(grep -c '<figcaption>Each host&#39;s interval' pic/report.html):$(grep -c '<td><a href="hosts.[ts][sv][vg]">' pic/report.html)" \
	"0:1:1:2" "pb-report: the hosts' section with hosts.svg; hosts.tsv and hosts.svg among the files"
like "$(cat pic/report.html)" '<p class="finding">Over 4 hosts \(random effects, DerSimonian-Laird\), the average host&#39;s A/B time ratio is 1\.040, 95% CI 1\.016 to 1\.065' \
	"  with pb-tint --unit host's finding, escaped"
cp -r pic badh && rm -f badh/report.html && printf 'junk\n' >badh/hosts.tsv || exit 1
fails 1 "^pb-report: badh/hosts.tsv: no column 'row' \\(columns: junk\\)$" \
	"  a hosts.tsv without its columns: one line, exit 1" pb-report badh
is "$rc:$(grep -c "^pb-report: badh/hosts.tsv: " "$T/err"):$(ls -A badh | grep -c -e '^report\.html$' -e '^\.report\.')" "1:1:0" \
	"  and no page, nor a part of one"

# --- fewer hosts, or a host of one run: no hosts as a level
study two 8 || exit 1
run pb-compare --no-pictures --analyse two
is "$rc:$([ -e two/hosts.tsv ] && echo hosts.tsv):$(grep -c 'hosts as the unit' "$T/out"):$(row_count two/tint.tsv)" "0::0:1" \
	"2 hosts: no hosts.tsv, no line (a prediction interval needs 3)"
study lone 4 none 13 || exit 1
run pb-compare --no-pictures --analyse lone
is "$rc:$([ -e lone/hosts.tsv ] && echo hosts.tsv):$(grep -c 'hosts as the unit' "$T/out"):$(row_count lone/tint.tsv)" "0::0:1" \
	"4 hosts, one of them with 1 run: no hosts.tsv, no line"
study one 16 || exit 1
run pb-compare --no-pictures --analyse one
is "$rc:$([ -e one/hosts.tsv ] && echo hosts.tsv):$(grep -c 'hosts as the unit' "$T/out"):$(row_count one/runs.tsv):$(rows one/runs.tsv | head -n 1 | awk -F'\t' '{ print NF }')" \
	"0::0:16:$(rows p/runs.tsv | head -n 1 | awk -F'\t' '{ print NF - 1 }')" \
	"one host: no hosts.tsv, no line, and runs.tsv without a host column"
run pb-report one
is "$rc:$(grep -c '<section id="runs">' one/report.html):$(grep -c 'id="hosts"\|hosts\.tsv\|hosts\.svg' one/report.html)" "0:1:0" \
	"  pb-report: no hosts' section, and no hosts files listed as missing"

# --- host names a shell or a page would take for its own; h2, the one
# planted, is named in pb-check's warning
study q 4 h2 || exit 1
sed "s/host=h2\$/host=it's <b>\&amp; \$(touch pwned)/" q/raw.tsv >q/raw.new && mv q/raw.new q/raw.tsv
run pb-compare --no-pictures --analyse q
is "$rc:$([ -e pwned ] || [ -e q/pwned ] && echo pwned):$(row_count q/hosts.tsv)" "0::5" "a host name with quotes, markup and \$(...): exit 0, nothing run"
is "$(rows q/hosts.tsv | cut -f2 | sed -n 2p)" "it's <b>&amp; \$(touch pwned)" "... and it is the host's name in hosts.tsv"
run pb-report q
like "$(cat q/report.html 2>/dev/null)" "host it&#39;s &lt;b&gt;&amp;amp;" "... and escaped on the page, in the warning that names it"
# a raw TAB in a host's name (pb-run writes \t): escaped in every field
# that holds it, so no stream breaks; a run whose line names no host: no
# hosts as a level (pb-pair --host would refuse the run)
study tab 4 h2 || exit 1
sed 's/host=h2$/host=a	b/' tab/raw.tsv >tab/raw.new && mv tab/raw.new tab/raw.tsv
run pb-compare --no-pictures --analyse tab
is "$rc:$(cat "$T/err"):$(rows tab/hosts.tsv | cut -f2 | sed -n 2p)" '0::a\tb' \
	"a raw TAB in a host's name: exit 0, stderr empty, hosts.tsv has it escaped"
like "$(cat "$T/out")" 'and host a\\tb stands out most' "... and so does pb-check's warning"
study empty 4 || exit 1
sed 's/ host=h2$/ host=/' empty/raw.tsv >empty/raw.new && mv empty/raw.new empty/raw.tsv
run pb-compare --no-pictures --analyse empty
is "$rc:$(cat "$T/err"):$([ -e empty/hosts.tsv ] && echo hosts.tsv):$(row_count empty/runs.tsv)" "0:::16" \
	"4 runs whose '# run:' names no host: no hosts.tsv, and the analysis stands"

done_testing
