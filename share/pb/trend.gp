# pb-plot trend: paired differences in the order they ran, coloured by
# which arm went first. data: seq value first(0=A,1=B,2=together, a
# duet's) run (A the reference, B the candidate of the panel).
# Variables: vmin, vmax (the view), nbeyond (how many values lie beyond
# it: drawn at its edge as triangles), ylabel, unit; duet (1) when the
# arms of every pair ran together.
# note: what was done with the values beyond the view, on its own line
set title title_text . (exists("note") ? "\n" . note : "")
set xlabel "pair, in the order measured (all runs)"
set ylabel ylabel
# room beyond the view for the triangles at its edges
edge = (vmax - vmin) / 40
set yrange [vmin - 2 * edge : vmax + 2 * edge]
set xrange [0:*]
up(v) = v > vmax ? vmax + edge : 1/0
down(v) = v < vmin ? vmin - edge : 1/0
# In a panel of one candidate, first0_title and first1_title name the arms.
if (ratio_on("y")) {
	set link y2 via exp(y) inverse log(y)
	rstep = nice((exp(vmax) - exp(vmin)) / 6)
	set y2tics ceil(exp(vmin) / rstep) * rstep, rstep, exp(vmax) nomirror textcolor rgb "#333333"
	set format y2 "%.4g"
	set y2label "a/b = exp(lr), the time ratio"
	set border 11
}
# In a duet (duet = 1) no arm went first: every pair is of class 2.
plot 0 with lines ls 9 notitle, \
     data using 1:($3 == 0 && $2 >= vmin && $2 <= vmax ? $2 : 1/0) with points ls 1 ps 0.5 title (exists("duet") ? "" : exists("first0_title") ? first0_title : "A went first"), \
     data using 1:($3 == 1 && $2 >= vmin && $2 <= vmax ? $2 : 1/0) with points ls 2 ps 0.5 title (exists("duet") ? "" : exists("first1_title") ? first1_title : "B went first"), \
     data using 1:($3 == 2 && $2 >= vmin && $2 <= vmax ? $2 : 1/0) with points ls 3 ps 0.5 title (exists("duet") ? "the arms ran together" : ""), \
     data using 1:(up($2)) with points pt 9 ps 1 lc rgb "#555555" title (nbeyond > 0 ? sprintf("beyond the view (%d)", nbeyond) : ""), \
     data using 1:(down($2)) with points pt 11 ps 1 lc rgb "#555555" notitle
