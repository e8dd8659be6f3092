# gnuplot of a --sample CSV (docs/EXPORTS.md):
#   gpustep teaching -w gather_random --run --sample 500 --csv g.csv \
#       --sample-stats 'sim.ipc,sm0.l1.mshr.occupancy,l2.bank0.mshr.occupancy,dram.read_queue'
#   gnuplot -e 'csv="g.csv"; out="docs/exports_sample.png"' docs/exports_sample.gp
set terminal pngcairo size 720,360 font "sans,10"
set output out
set datafile separator ","
set key autotitle columnhead top right noenhanced
set xlabel "cycle"
set xtics 10000
set grid
set ylabel "mean level over the interval"
set y2label "IPC (interval)"
set y2tics
set yrange [0:18]
plot for [c=3:5] csv using 1:c with lines lw 2, csv using 1:2 axes x1y2 with lines lw 2 dt 2
