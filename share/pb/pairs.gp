# pb-plot pairs: the distribution of one column, binned.
# data: value; variables bw (bin width), med (median), ylabel.
set title title_text
set xlabel ylabel
set ylabel "pairs"
set style fill solid 0.6 noborder
set xrange [vmin:vmax]
bin(x) = bw * floor(x / bw) + bw / 2
set boxwidth bw absolute
set arrow 1 from first 0, graph 0 to first 0, graph 1 nohead front ls 9
set arrow 2 from first med, graph 0 to first med, graph 1 nohead front lc rgb "#d62728" lw 2
plot data using (bin($1)):(1) smooth frequency with boxes lc rgb "#1f77b4" title sprintf("bins of %s; red: median %s", fmt(bw), fmt(med))
