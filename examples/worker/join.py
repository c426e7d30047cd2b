#!/usr/bin/env python3
"""join.py: a pb-run worker in Python with share/pb/pb_worker.py, comparing
two ways to build a string of many pieces: += in a loop (A) and str.join
(B).

    pb-run --worker 'python3 examples/worker/join.py' --runs 10 --pairs 200 --warmup 20 > raw.tsv
    pb-pair --by-run raw.tsv | pb-logratio | pb-tint --finding

Each arm is a callable that does one unit of work; an exception fails the
observation (pb-run status -2, the exception in its message). One worker
process per run: what is set up at the top is part of the run, not of an
observation.
"""
import os
import sys

try:
    import pb_worker
except ImportError:  # not on PYTHONPATH: the source tree's, or the installed one
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:0] = [os.path.join(here, "..", "..", "share", "pb"), os.path.join(here, "..", "..")]
    import pb_worker

PIECES = ["word%d," % i for i in range(300)]
WANT = len("".join(PIECES))


def with_plus():
    s = ""
    for p in PIECES:
        s += p
    if len(s) != WANT:
        raise ValueError("built %d characters, not %d" % (len(s), WANT))


def with_join():
    s = "".join(PIECES)
    if len(s) != WANT:
        raise ValueError("built %d characters, not %d" % (len(s), WANT))


if __name__ == "__main__":
    sys.exit(pb_worker.serve(a=with_plus, b=with_join))
