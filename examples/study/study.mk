# The design: changing anything here measures again.
W = ../../examples/workload/pb-workload
CMD_A = $(W) --us 1000
CMD_B = $(W) --us 970
RUN_OPTS = --no-shell
RUNS = 10
PAIRS = 200
WARMUP = 20
SEED = 20261130
DELAYS = 0,10us,30us,100us

include analysis.mk
