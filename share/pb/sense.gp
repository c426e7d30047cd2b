# pb-plot sense: what the harness saw at each injected delay.
# data: delay_us seen_fraction est_us lo_us hi_us
set multiplot layout 1,2 title title_text
set title "runs that saw the delay"
set xlabel "injected delay (us)"
set ylabel "fraction of runs"
# Headroom above 1 keeps the key off the data.
set yrange [0:1.3]
set ytics 0, 0.2, 1
set logscale x
set xrange [*:*]
set key inside top left
if (exists("aa_frac")) {
	plot data using ($1 > 0 ? $1 : 1/0):2 with linespoints ls 1 title "seen / runs", \
	     aa_frac with lines ls 9 title aa_label
} else {
	plot data using ($1 > 0 ? $1 : 1/0):2 with linespoints ls 1 title "seen / runs"
}
set key inside top left
set ytics autofreq
unset logscale x
set title "estimate against the truth"
set xlabel "injected delay (us)"
set ylabel "median paired difference (us)"
set autoscale y
stats data using 1 nooutput
set xrange [-0.05 * STATS_max : 1.05 * STATS_max]
plot x with lines ls 9 title "truth (y = x)", \
     data using 1:3:4:5 with yerrorbars ls 2 title "run-block interval"
unset multiplot
