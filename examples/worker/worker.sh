#!/bin/sh
# A pb-run worker in POSIX sh: a template to copy.
# pb-run writes "ARM<TAB>RUN<TAB>PAIR" per observation; answer one line,
# "ok" or "error TEXT". Replace work_a and work_b with the two versions.
#   pb-run --worker 'sh examples/worker/worker.sh' --runs 5 --pairs 50
# A shell worker times the shell's own work too; for small units of work
# prefer the C template (worker.c).
work_a() { : $(( x = 0 )); i=0; while [ $i -lt 200 ]; do i=$((i + 1)); done; }
work_b() { i=0; while [ $i -lt 180 ]; do i=$((i + 1)); done; }

while IFS='	' read -r arm run pair; do
	case $arm in
	A) if work_a; then echo ok; else echo "error work_a failed in run $run pair $pair"; fi ;;
	B) if work_b; then echo ok; else echo "error work_b failed in run $run pair $pair"; fi ;;
	*) echo "error unknown arm '$arm'" ;;
	esac
done
