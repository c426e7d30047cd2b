# pb-plot hosts: one interval per host (data: index mean lo hi label),
# then the pooled random-effects estimate with its interval, a zero line,
# and the prediction interval for a new host as a band. Variables: data,
# title_text, ylabel, nhosts, mu, mu_lo, mu_hi, has_pred, pred_lo, pred_hi.
stats data using 3 name "LO" nooutput
stats data using 4 name "HI" nooutput
lo_all = mu_lo < LO_min ? mu_lo : LO_min
hi_all = mu_hi > HI_max ? mu_hi : HI_max
if (has_pred) { lo_all = pred_lo < lo_all ? pred_lo : lo_all; hi_all = pred_hi > hi_all ? pred_hi : hi_all }
lo_all = lo_all > 0 ? 0 : lo_all
hi_all = hi_all < 0 ? 0 : hi_all
span = hi_all - lo_all
set yrange [lo_all - 0.08 * span : hi_all + 0.08 * span]
if (has_pred) {
	title_text = title_text . sprintf("\npooled %s [%s, %s]; a new host: %s to %s", fmt(mu), fmt(mu_lo), fmt(mu_hi), fmt(pred_lo), fmt(pred_hi))
} else {
	title_text = title_text . sprintf("\npooled %s [%s, %s]; no prediction with 2 hosts", fmt(mu), fmt(mu_lo), fmt(mu_hi))
}
set title title_text
set xlabel "host"
set ylabel ylabel
set xrange [0.4:nhosts + 1.6]
set xtics 1
if (has_pred && !(exists("dumb") && dumb)) {
	set object 1 rect from graph 0, first pred_lo to graph 1, first pred_hi \
		fc rgb "#fdd0a2" fs solid 0.5 noborder behind
}
if (ratio_on("y")) {
	set link y2 via exp(y) inverse log(y)
	set y2tics nice((exp(hi_all) - exp(lo_all)) / 6) nomirror textcolor rgb "#333333"
	set format y2 "%.4g"
	set y2label "a/b = exp(lr), the time ratio"
	set border 11
}
set label 1 "pooled" at nhosts + 1, graph 0 offset 0, -1 center
plot 0 with lines ls 9 title "0", \
     (has_pred ? pred_lo : 1/0) with lines lc rgb "#e6550d" lw 1 dt 2 title "prediction interval, a new host", \
     (has_pred ? pred_hi : 1/0) with lines lc rgb "#e6550d" lw 1 dt 2 notitle, \
     data using 1:2:3:4:xtic(5) with yerrorbars ls 1 title "host: mean of its runs, t interval", \
     '+' using (nhosts + 1):(mu):(mu_lo):(mu_hi) every ::0::0 with yerrorbars ls 2 title "pooled (random effects)"
