# pb-plot trend: paired differences in the order they ran, coloured by
# which arm went first. data: seq value first(0=A,1=B) run (A the
# reference, B the candidate of the panel)
set title title_text
set xlabel "pair, in the order measured (all runs)"
set ylabel ylabel
set key top right
set yrange [vmin:vmax]
# In a panel of one candidate, first0_title and first1_title name the arms.
plot 0 with lines ls 9 notitle, \
     data using 1:($3 == 0 ? $2 : 1/0) with points ls 1 ps 0.5 title (exists("first0_title") ? first0_title : "A went first"), \
     data using 1:($3 == 1 ? $2 : 1/0) with points ls 2 ps 0.5 title (exists("first1_title") ? first1_title : "B went first")
