#!/usr/bin/env python3
"""stats_ref: reference numbers for test_stats.c, computed independently of the C code and of GSL.

Plain Python only: exact fractions for the ANOVA, the Student t CDF by Simpson
integration of its density (math.lgamma), quantiles by bisection.  The
formulas are written out here from the textbook definitions (one-way random
effects ANOVA: Searle, Casella & McCulloch, "Variance Components", ch. 3;
Satterthwaite 1946; Welch 1947; Fieller 1954).  Run: python3 tests/unit/stats_ref.py (about 20 s: the integration is naive on purpose).
"""
import math
from fractions import Fraction as F


def t_pdf(x, df):
    c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    return math.exp(c - (df + 1) / 2 * math.log1p(x * x / df))


def t_cdf(x, df, steps=20000):
    if x < 0:
        return 1 - t_cdf(-x, df, steps)
    h = x / steps
    s = t_pdf(0, df) + t_pdf(x, df)
    for i in range(1, steps):
        s += (4 if i % 2 else 2) * t_pdf(i * h, df)
    return 0.5 + s * h / 3


def t_quantile(p, df):
    lo, hi = 0.0, 200.0
    for _ in range(80):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def f_pdf(x, d1, d2):
    c = math.lgamma((d1 + d2) / 2) - math.lgamma(d1 / 2) - math.lgamma(d2 / 2) + d1 / 2 * math.log(d1 / d2)
    return math.exp(c + (d1 / 2 - 1) * math.log(x) - (d1 + d2) / 2 * math.log1p(d1 * x / d2))


def f_cdf(x, d1, d2, steps=200000):
    # Simpson on [0, x] in u = x^(1/2), so the density's 1/sqrt at 0 (d1 = 1) stays finite: dx = 2u du
    h = math.sqrt(x) / steps
    g = lambda u: 2 * u * f_pdf(u * u, d1, d2) if u > 0 else (2 * math.sqrt(d1 / d2 / math.pi) if d1 == 1 else 0)
    s = g(0) + g(steps * h)
    for i in range(1, steps):
        s += (4 if i % 2 else 2) * g(i * h)
    return s * h / 3


def describe(xs):
    n = len(xs)
    m = F(sum(F(x) for x in xs), n)
    ss = sum((F(x) - m) ** 2 for x in xs)
    s = sorted(xs)
    med = s[n // 2] if n % 2 else (F(s[n // 2 - 1]) + F(s[n // 2])) / 2
    return n, m, ss / (n - 1) if n > 1 else None, med


def nested(groups):
    """Returns (mean, var_between, var_within, var_mean, df)."""
    xs = [x for g in groups for x in g]
    N, k = len(xs), len(groups)
    grand = F(sum(F(x) for x in xs), N)
    means = [F(sum(F(x) for x in g), len(g)) for g in groups]
    ssb = sum(len(g) * (mi - grand) ** 2 for g, mi in zip(groups, means))
    ssw = sum((F(x) - mi) ** 2 for g, mi in zip(groups, means) for x in g)
    msb, msw = ssb / (k - 1), ssw / (N - k)
    sn2 = sum(len(g) ** 2 for g in groups)
    n0 = (N - F(sn2, N)) / (k - 1)
    vb = (msb - msw) / n0
    # Var of the mean of all samples: each session mean has variance vb + vw/n_i,
    # weights n_i/N, so Var = vb * sum(n_i^2)/N^2 + vw/N.
    if vb > 0:
        a = F(sn2, N * N)
        terms = [(a / n0, msb, k - 1), (F(1, N) - a / n0, msw, N - k)]
    else:
        vb = F(0)
        terms = [(F(1, N), msw, N - k)]
    var = sum(c * ms for c, ms, _ in terms)
    df = float(var) ** 2 / sum(float(c * ms) ** 2 / d for c, ms, d in terms)
    return grand, vb, msw, var, df


def fieller(mb, vb, dfb, mo, vo, dfo, alpha=0.05, df=None):
    mb, vb, mo, vo = map(float, (mb, vb, mo, vo))
    if df is None:
        df = (vb + vo) ** 2 / (vb ** 2 / dfb + vo ** 2 / dfo)
    t = t_quantile(1 - alpha / 2, df)
    # (mo - r mb)^2 = t^2 (vo + r^2 vb), solved for r with the quadratic formula
    A = mb * mb - t * t * vb
    B = -2 * mo * mb
    C = mo * mo - t * t * vo
    d = math.sqrt(B * B - 4 * A * C)
    lo, hi = (-B - d) / (2 * A), (-B + d) / (2 * A)
    ts = (mo - mb) / math.sqrt(vb + vo)
    p = 2 * (1 - t_cdf(abs(ts), df))
    return df, 100 * (lo - 1), 100 * (hi - 1), p


def show(name, *vals):
    print(name, " ".join("%.10g" % float(v) for v in vals))


if __name__ == "__main__":
    show("t.975(3) t.975(4) t.975(11)", t_quantile(0.975, 3), t_quantile(0.975, 4), t_quantile(0.975, 11))
    # single session, 5 samples
    one = [100, 102, 98, 101, 99]
    n, m, v, med = describe(one)
    h = t_quantile(0.975, 4) * math.sqrt(v / n)
    show("one: mean sd median ci", m, math.sqrt(v), med, float(m) - h, float(m) + h)
    # unbalanced, between > within
    unb = [[10, 12, 14], [20, 22], [17], [15, 16, 18, 19]]
    g, vb, vw, var, df = nested(unb)
    h = t_quantile(0.975, df) * math.sqrt(var)
    show("unb: mean vb vw var_mean df ci", g, vb, vw, var, df, float(g) - h, float(g) + h)
    n, m, v, med = describe([x for s in unb for x in s])
    show("unb pooled: sd median var_mean", math.sqrt(v), med, v / n)
    # unbalanced, sessions alike: var_between clamps to 0
    cl = [[1, 5, 9], [4, 6, 8], [2, 6, 7, 3]]
    g, vb, vw, var, df = nested(cl)
    show("clamp: mean vb vw var_mean df", g, vb, vw, var, df)
    # balanced 4 x 3
    bal_b = [[100, 101, 102], [95, 96, 96], [104, 103, 105], [99, 100, 98]]
    bal_o = [[97, 98, 98], [93, 92, 94], [101, 100, 99], [96, 95, 97]]
    gb, vbb, vwb, varb, dfb = nested(bal_b)
    go, vbo, vwo, varo, dfo = nested(bal_o)
    show("bal base: mean vb vw var_mean df", gb, vbb, vwb, varb, dfb)
    show("bal other: mean vb vw var_mean df", go, vbo, vwo, varo, dfo)
    show("bal nested change: pct df lo hi p", 100 * (go / gb - 1), *fieller(gb, varb, dfb, go, varo, dfo))
    # the spreads of the session means agree (two-sided F test p > 0.2): the shared spread's df, 3 + 3
    lb = [F(sum(s), len(s)) for s in bal_b]
    lo_ = [F(sum(s), len(s)) for s in bal_o]
    fr = float(describe(lb)[2] / describe(lo_)[2])
    pf = 2 * min(f_cdf(fr, 3, 3), 1 - f_cdf(fr, 3, 3))
    show("bal shared spread: F p; change at df 6: df lo hi p", fr, pf, *fieller(gb, varb, dfb, go, varo, dfo, df=6))
    nb, mb_, vb_, _ = describe([x for s in bal_b for x in s])
    no, mo_, vo_, _ = describe([x for s in bal_o for x in s])
    show("bal pooled change: df lo hi p", *fieller(mb_, vb_ / nb, nb - 1, mo_, vo_ / no, no - 1))
    tb, to = t_quantile(0.975, nb - 1), t_quantile(0.975, no - 1)
    show("bal pooled CIs base lo hi other lo hi",
         float(mb_) - tb * math.sqrt(vb_ / nb), float(mb_) + tb * math.sqrt(vb_ / nb),
         float(mo_) - to * math.sqrt(vo_ / no), float(mo_) + to * math.sqrt(vo_ / no))
    # R's sleep data (datasets::sleep), group 2 as base, group 1 as other, one session each
    g1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
    g2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]
    n1, m1, v1, _ = describe(g1)
    n2, m2, v2, _ = describe(g2)
    show("sleep: pct df lo hi p", 100 * (m1 / m2 - 1), *fieller(m2, v2 / n2, n2 - 1, m1, v1 / n1, n1 - 1))
    # hand-made cells: base mean 100, other 103, var_mean 1 each, df 11 and 5
    show("cells 100/103 v1 df11/5: df lo hi p", *fieller(100, 1, 11, 103, 1, 5))
