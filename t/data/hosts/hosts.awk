# hosts.awk: the runs of a raw stream (t/gen/synth's) spread over hosts
# h1, h2, ...: `per` runs each, run r on host h((r-1)/per+1), its
# '# run:' line's host= rewritten; B's times on host `planted` divided
# by `factor` (that host's effect that much larger).
#   awk -v per=4 -v planted=h3 -v factor=1.05 -f hosts.awk raw.tsv
BEGIN { FS = OFS = "\t" }
/^# run: / { r = $0; sub(/^# run: /, "", r); sub(/ .*/, "", r)
	h = "h" (int((r - 1) / per) + 1); sub(/host=.*$/, "host=" h); print; next }
/^#/ || !hdr++ { print; next }
$4 == "B" && h == planted { $7 = sprintf("%d", $7 / factor) }
{ print }
