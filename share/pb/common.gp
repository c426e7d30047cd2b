# Shared look for pb-plot's pictures. pb-plot writes one script: the terminal,
# the output, data and the variables (values from the input only as
# single-quoted strings), then this file, then the picture's own.
set datafile separator "\t"
set border 3 lc rgb "#444444"
set tics nomirror textcolor rgb "#333333"
set grid ytics lc rgb "#dddddd" lt 1
# Keys sit outside the plot, below it, where they cover no data and
# gnuplot makes room for them (rows as many as they need).
set key outside below center horizontal noopaque nobox samplen 2
# Tick labels as plain numbers: pb-plot scales times into a unit that
# keeps them below 1000, so none reads "3.5x10^8" (gnuplot's "% h").
set format x "%.7g"
set format y "%.7g"
set style line 1 lc rgb "#1f77b4" lw 2 pt 7 ps 0.8
set style line 2 lc rgb "#d62728" lw 2 pt 5 ps 0.8
set style line 3 lc rgb "#2ca02c" lw 2 pt 9 ps 0.8
set style line 9 lc rgb "#888888" lw 1 dt 2
# Text plots: no grid or fills, which a character cell cannot show.
if (exists("dumb") && dumb) { unset grid; unset border; set border 3; set key width 1 }
fmt(x) = abs(x) >= 1000 ? sprintf("%.0f", x) : sprintf("%.4g", x)
# with_unit(x): x and the unit of the axis, when it has one
with_unit(x) = fmt(x) . (exists("unit") && unit ne "" ? " " . unit : "")
# A log ratio lr = ln(a/b) gets the ratio a/b itself on the opposite
# axis (ratio_axis names the axis of the values: "x" or "y").
# Not in a text plot, which has no room for a second label.
ratio_on(ax) = !(exists("dumb") && dumb) && exists("ratio_axis") && ratio_axis eq ax
# nice(x): a step of 1, 2 or 5 times a power of ten near x, for ticks
# (gnuplot's own miss those of a linked axis over a small range)
nice(x) = (nice_e = 10.0 ** floor(log10(x)), nice_m = x / nice_e, \
	nice_e * (nice_m < 1.5 ? 1 : nice_m < 3.5 ? 2 : nice_m < 7.5 ? 5 : 10))
