# pb-plot runs: per-run intervals (data: index est lo hi label), a zero
# line, and the pooled interval as a band (pooled_lo, pooled_hi, pooled_est
# when known). Variables: data, ylabel, title_text, nruns, has_pooled,
# unit (times scaled into it by pb-plot).
# When every interval is far from 0 (more than twice their spread), a zero
# line would squash them into a line: leave it out and say so.
stats data using 3 name "LO" nooutput
stats data using 4 name "HI" nooutput
lo_all = has_pooled && pooled_lo < LO_min ? pooled_lo : LO_min
hi_all = has_pooled && pooled_hi > HI_max ? pooled_hi : HI_max
span = hi_all - lo_all
far = (lo_all > 0 && lo_all > 2 * span) || (hi_all < 0 && -hi_all > 2 * span)
if (far) {
	set yrange [lo_all - 0.15 * span : hi_all + 0.15 * span]
	title_text = title_text . sprintf("\n(every interval is %s 0, which is off the scale)", lo_all > 0 ? "above" : "below")
}
# The pooled interval's numbers on a line of the title: the key's
# entries stay short enough for one row below the plot.
if (has_pooled) {
	title_text = title_text . sprintf("\npooled median %s [%s, %s]", with_unit(pooled_est), fmt(pooled_lo), fmt(pooled_hi))
}
set title title_text
set xlabel "run"
set ylabel ylabel
set xrange [0.4:nruns + 0.6]
set xtics 1
if (nruns > 30) { set xtics 5 }
if (has_pooled && !(exists("dumb") && dumb)) {
	set object 1 rect from graph 0, first pooled_lo to graph 1, first pooled_hi \
		fc rgb "#c6dbef" fs solid 0.6 noborder behind
}
if (ratio_on("y")) {
	set link y2 via exp(y) inverse log(y)
	set y2tics nice((exp(far ? hi_all : (hi_all > 0 ? hi_all : 0)) - exp(far ? lo_all : (lo_all < 0 ? lo_all : 0))) / 6) nomirror textcolor rgb "#333333"
	set format y2 "%.4g"
	set y2label "a/b = exp(lr), the time ratio"
	set border 11
}
if (has_pooled) {
	plot (far ? 1/0 : 0) with lines ls 9 title (far ? "" : "0"), \
	     pooled_est with lines lc rgb "#6baed6" lw 2 title "pooled median, run blocks", \
	     pooled_lo with lines lc rgb "#9ecae1" lw 1 notitle, \
	     pooled_hi with lines lc rgb "#9ecae1" lw 1 notitle, \
	     data using 1:2:3:4:xtic(5) with yerrorbars ls 1 title "run: median, interval"
} else {
	plot (far ? 1/0 : 0) with lines ls 9 title (far ? "" : "0"), \
	     data using 1:2:3:4:xtic(5) with yerrorbars ls 1 title "run: estimate, interval"
}
