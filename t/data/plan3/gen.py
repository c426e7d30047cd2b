# The three raw streams of t/0902-plan-levels.t, from the top of the tree:
# python3 t/data/plan3/gen.py (the seeds fix them; Python 3.11).
import random, math, datetime, sys
def gen(path, seed, runs, pairs, sh, sr, sp):
    rnd = random.Random(seed)
    out = open(path, 'w')
    out.write("# pb-run: 0.1.0 pb-run --runs 5 --pairs 20 -- ./old ./new\n# mode: command\n# order: alternate\n# warmup: 0\n# delay_ns: 0\n")
    hdr = False; run = 0
    t0 = datetime.datetime(2026, 12, 1, 0, 0, 0)
    for h, nr in enumerate(runs):
        he = rnd.gauss(0, sh); ms = 0
        for j in range(nr):
            run += 1; re_ = rnd.gauss(0, sr)
            np_ = pairs[h][j] if isinstance(pairs, list) else pairs
            st = (t0 + datetime.timedelta(milliseconds=ms)).strftime('%Y-%m-%dT%H:%M:%S.%f')[:-3] + 'Z'
            out.write(f"# run: {run} start={st} pid={100 + run} host=h{h + 1}\n")
            if not hdr:
                out.write("run\tpair\tphase\tarm\tpos\tdelay_ns\tns\tstatus\n"); hdr = True
            tot = 0
            for p in range(1, np_ + 1):
                b = 1000000 + rnd.randint(-50000, 50000)
                a = round(b * math.exp(0.03 + he + re_ + rnd.gauss(0, sp)))
                out.write(f"{run}\t{p}\tmeasure\tA\t1\t0\t{a}\t0\n{run}\t{p}\tmeasure\tB\t2\t0\t{b}\t0\n")
                tot += a + b
            ms += round(tot / 1e6) + 50 + rnd.randint(0, 9)
    out.close()
d = 't/data/plan3/'
gen(d + 'balanced.tsv', 33, [5] * 4, 20, 0.02, 0.01, 0.03)
gen(d + 'balanced2.tsv', 7, [3] * 6, 8, 0.005, 0.02, 0.05)
gen(d + 'unbalanced.tsv', 11, [3, 5, 2, 4], [[10, 12, 7], [5, 9, 9, 11, 6], [15, 4], [8, 8, 13, 6]], 0.02, 0.01, 0.03)
