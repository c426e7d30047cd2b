#!/usr/bin/env python3
# The reference table of test_qt_full in t/unit/stats.c: Student t
# quantiles from mpmath (1.3.0), independent of R and of pb.
#   python3 t/unit/qt_ref.py
# q > 0 with P(T > q) = 1 - p exactly for the double p, where
# P(T > q) = I_{df/(df+q^2)}(df/2, 1/2) / 2 (regularized incomplete beta),
# solved by Newton on log P(T > q) at 60 digits (more at large df, where
# betainc needs them). Cross-checked against quadrature of the density
# (mpmath quad) to 1e-28 relative at df 3 to 1e12.
import math
from mpmath import mp, mpf, betainc, loggamma, log, log1p, exp, pi, fabs

mp.dps = 60


def upper(q, df):
    with mp.workdps(60 + 2 * int(math.log10(float(df)))):
        return +betainc(df / 2, mpf(1) / 2, 0, df / (df + q * q), regularized=True) / 2


def density(q, df):
    return exp(loggamma((df + 1) / 2) - loggamma(df / 2) - log(df * pi) / 2
               - (df + 1) / 2 * log1p(q * q / df))


def qt_upper(tail, df, guess):
    tail, df, q = mpf(tail), mpf(df), mpf(guess)
    lt = log(tail)
    for _ in range(200):
        s = upper(q, df)
        q2 = q + (log(s) - lt) * s / density(q, df)
        if q2 <= 0:
            q2 = q / 2
        if fabs(q2 - q) < fabs(q) * mpf(10) ** -45:
            return q2
        q = q2
    raise ArithmeticError("no convergence at tail %s, df %s" % (tail, df))


for df in (1, 2, 3, 10, 100, 1e3, 1e4, 99999, 1e5, 1e6, 3e6, 1e9):
    for level in (0.8, 0.9, 0.95, 0.99, 0.999, 0.9999999):
        p = 1 - (1 - level) / 2
        q = qt_upper(1 - mpf(p), df, 2.0)
        print("\t{ %g, %.17g, %s }," % (df, p, mp.nstr(q, 17, strip_zeros=False)))
