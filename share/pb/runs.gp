# pb-plot runs: per-run intervals (data: index est lo hi label), a zero
# line, and the pooled interval as a band (pooled_lo, pooled_hi, pooled_est
# when known). Variables: data, ylabel, title_text, nruns, has_pooled.
load dir . "/common.gp"
set title title_text
set xlabel "run"
set ylabel ylabel
set xrange [0.4:nruns + 0.6]
set xtics 1
if (nruns > 30) { set xtics 5 }
set key outside below horizontal
if (has_pooled && !(exists("dumb") && dumb)) {
	set object 1 rect from graph 0, first pooled_lo to graph 1, first pooled_hi \
		fc rgb "#c6dbef" fs solid 0.6 noborder behind
}
if (has_pooled) {
	plot 0 with lines ls 9 title "0", \
	     pooled_est with lines lc rgb "#6baed6" lw 2 title sprintf("pooled (run blocks) %s [%s, %s]", fmt(pooled_est), fmt(pooled_lo), fmt(pooled_hi)), \
	     pooled_lo with lines lc rgb "#9ecae1" lw 1 notitle, \
	     pooled_hi with lines lc rgb "#9ecae1" lw 1 notitle, \
	     data using 1:2:3:4:xtic(5) with yerrorbars ls 1 title "run: median and interval"
} else {
	plot 0 with lines ls 9 title "0", \
	     data using 1:2:3:4:xtic(5) with yerrorbars ls 1 title "run: estimate and interval"
}
