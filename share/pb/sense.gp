# pb-plot sense: what the harness saw at each injected delay.
# data: delay seen_fraction est lo hi, times in the unit of the axes
# (unit: pb-plot scales them into it, one unit for both panels).
# Keys below each panel, clear of the data. A text plot has no room for
# a y label (the dumb terminal writes it across the panel to its left):
# there it goes into the panel's title.
text = exists("dumb") && dumb
set multiplot layout 1,2 title title_text
if (text) {
	set title "share of runs that saw it"
	unset ylabel
} else {
	set title "runs that saw the delay"
	set ylabel "fraction of runs"
}
set xlabel sprintf("injected delay (%s)", unit)
set yrange [0:1.05]
set ytics 0, 0.2, 1
set logscale x
set xrange [*:*]
if (exists("aa_frac")) {
	plot data using ($1 > 0 ? $1 : 1/0):2 with linespoints ls 1 title "seen / runs", \
	     aa_frac with lines ls 9 title aa_label
} else {
	plot data using ($1 > 0 ? $1 : 1/0):2 with linespoints ls 1 title "seen / runs"
}
set ytics autofreq
unset logscale x
if (text) {
	set title sprintf("estimate (%s) vs truth", unit)
} else {
	set title "estimate against the truth"
	set ylabel sprintf("median paired difference (%s)", unit)
}
set xlabel sprintf("injected delay (%s)", unit)
set autoscale y
stats data using 1 nooutput
set xrange [-0.05 * STATS_max : 1.05 * STATS_max]
plot x with lines ls 9 title "truth (y = x)", \
     data using 1:3:4:5 with yerrorbars ls 2 title "run-block interval"
unset multiplot
