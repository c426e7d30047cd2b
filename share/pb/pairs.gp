# pb-plot pairs: the distribution of one column, binned, every pair
# drawn: those beyond the view in an end bin on their side.
# data: value (in the view). Variables: vmin, vmax (the view), bw (bin
# width), med (median), xlabel, unit; nbelow and nabove, the counts
# beyond the view, with below_to and above_to, their farthest values.
# A text plot has no dotted lines at the view's ends: a column of dots
# there runs into the title.
text = exists("dumb") && dumb
# note: what was done with the values beyond the view, on its own line
set title title_text . (exists("note") ? "\n" . note : "")
set xlabel xlabel
set ylabel "pairs"
set style fill solid 0.6 noborder
# An end bin a fourteenth of the view wide, half that apart from it.
ew = (vmax - vmin) / 14
xb = vmin - 1.5 * ew / 2 - ew / 2
xa = vmax + 1.5 * ew / 2 + ew / 2
set xrange [(nbelow > 0 ? xb - ew : vmin) : (nabove > 0 ? xa + ew : vmax)]
# Tick labels only inside the view: the axis means nothing in the gaps.
step = nice((vmax - vmin) / 6)
set xtics ceil(vmin / step) * step, step, vmax
set yrange [0:*]
# headroom for the end bins' labels
set offsets 0, 0, graph 0.15, 0
bin(x) = bw * floor(x / bw) + bw / 2
set boxwidth bw absolute
if (vmin <= 0 && vmax >= 0) {
	set arrow 1 from first 0, graph 0 to first 0, graph 1 nohead front ls 9
}
set arrow 2 from first med, graph 0 to first med, graph 1 nohead front lc rgb "#d62728" lw 2
if (nbelow > 0) {
	if (!text) {
		set arrow 3 from first vmin, graph 0 to first vmin, graph 1 nohead back lc rgb "#aaaaaa" dt 3
	}
	set label 3 sprintf("%d below\n", nbelow) . below_to at first xb - ew / 2, first nbelow left offset 0, 2 front
}
if (nabove > 0) {
	if (!text) {
		set arrow 4 from first vmax, graph 0 to first vmax, graph 1 nohead back lc rgb "#aaaaaa" dt 3
	}
	set label 4 sprintf("%d above\n", nabove) . above_to at first xa + ew / 2, first nabove right offset 0, 2 front
}
if (ratio_on("x")) {
	set link x2 via exp(x) inverse log(x)
	rstep = nice((exp(vmax) - exp(vmin)) / 6)
	set x2tics ceil(exp(vmin) / rstep) * rstep, rstep, exp(vmax) nomirror textcolor rgb "#333333"
	set format x2 "%.4g"
	set x2label "a/b = exp(lr), the time ratio"
	set border 7
}
plot data using (bin($1)):(1) smooth frequency with boxes lc rgb "#1f77b4" \
	title sprintf("pairs in bins of %s; red: median %s", with_unit(bw), with_unit(med)), \
     '+' using (xb):(nbelow > 0 ? nbelow : 1/0):(ew) every ::0::0 with boxes lc rgb "#888888" \
	title (nbelow + nabove > 0 ? "beyond the view" : ""), \
     '+' using (xa):(nabove > 0 ? nabove : 1/0):(ew) every ::0::0 with boxes lc rgb "#888888" notitle
