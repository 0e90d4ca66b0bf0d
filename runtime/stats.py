"""Confidence intervals for simulation figures: pure functions, no numpy, no scipy.

Every interval is two-sided at 95%.  The functions come in two kinds:

* plain ones on lists or counts, for anyone who holds the raw values —
  :func:`mean_interval`, :func:`wilson`, :func:`paired_mean_difference`,
  :func:`paired_proportion_difference`;
* ones on *moment sums*, which is what the simulation keeps.  A run is split into
  chunks played in separate processes; each chunk returns sums of its units'
  values and of their pairwise products (:class:`Moments`), which add up exactly
  (they are integers) in any order.  From those sums come the interval of a ratio
  ``sum(y) / sum(n)`` over units — the mean points per hand over games of several
  hands, say — with the variance of a ratio estimator (the linearisation used for
  cluster samples), and the paired difference of two such ratios measured on the
  same units (the same games played under two variants).

When each unit has ``n = 1`` these reduce to the textbook mean and paired-mean
intervals, so one code path serves hand-level and game-level runs.  Units that
never touched a figure (``n = 0``: a hand thrown in, for points per contract) do not
count towards its degrees of freedom.

The difference of two proportions measured on the same units is not the paired
ratio's Wald interval, which misbehaves for the rare events simulations are full of
(a contract bid twice on one side and once on the other); it is Newcombe's hybrid
score interval (method 10 of Newcombe 1998, "MOVER"), built from each side's Wilson
interval and the correlation of the two sides over the units: it stays inside
[−1, 1] and keeps close to its 95% coverage down to a handful of trials.

The quadratic sums are computed with exact fractions from the integer moment sums,
so a difference that is the same in every unit (two identical variants) has an
interval of width exactly 0 rather than rounding noise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Sequence

# The 97.5% point of the unit normal distribution (mean 0, variance 1).
Z95 = 1.959963984540054

# Student t 97.5% points for small degrees of freedom, where the expansion below is
# not accurate enough (the usual printed tables).
_T975 = {1: 12.706204736, 2: 4.302652730, 3: 3.182446305, 4: 2.776445105, 5: 2.570581836,
         6: 2.446911851, 7: 2.364624252, 8: 2.306004135, 9: 2.262157163, 10: 2.228138852}


@dataclass(frozen=True)
class Interval:
    """An estimate with its 95% interval; ``n`` is how many observations it rests on.

    ``value`` is None when there is nothing to estimate (no observations); ``low`` and
    ``high`` are None when the interval is undefined (a single unit).
    """

    value: float | None
    low: float | None
    high: float | None
    n: int

    @property
    def half_width(self) -> float | None:
        """Half the interval's width (the ``±`` of a report), or None."""
        if self.low is None or self.high is None:
            return None
        return (self.high - self.low) / 2

    @property
    def significant(self) -> bool:
        """True when the interval excludes zero (see :func:`significant`)."""
        return significant(self)

    def as_json(self) -> dict:
        """``{"value", "low", "high", "n"}`` for programs."""
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n}


def significant(interval: Interval) -> bool:
    """Whether a difference is significant at 5%: its 95% interval excludes zero."""
    if interval.low is None or interval.high is None:
        return False
    return interval.low > 0 or interval.high < 0


def t975(df: int) -> float:
    """The 97.5% point of Student's t with ``df`` degrees of freedom (``df >= 1``).

    A table for ``df <= 10``; above that the Cornish-Fisher expansion around the
    normal point (Abramowitz & Stegun 26.7.5), accurate to about 1e-5 there.
    """
    if df < 1:
        raise ValueError("t975 needs at least one degree of freedom")
    if df in _T975:
        return _T975[df]
    z = Z95
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    g4 = (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4


# --------------------------------------------------------------------------- plain
def mean_interval(values: Sequence[float]) -> Interval:
    """The mean of ``values`` with its t interval (normal for large samples)."""
    n = len(values)
    return mean_interval_from_sums(n, sum(values), sum(v * v for v in values))


def mean_interval_from_sums(n: int, total: float, total_sq: float) -> Interval:
    """The mean and t interval from the count, the sum and the sum of squares."""
    if n == 0:
        return Interval(None, None, None, 0)
    mean = total / n
    if n == 1:
        return Interval(mean, None, None, 1)
    variance = max(0.0, (total_sq - n * mean * mean) / (n - 1))
    half = t975(n - 1) * math.sqrt(variance / n)
    return Interval(mean, mean - half, mean + half, n)


def wilson(successes: int, n: int) -> Interval:
    """A proportion ``successes / n`` with its Wilson score interval."""
    if n == 0:
        return Interval(None, None, None, 0)
    return _wilson(successes / n, n, n)


def _wilson(p: float, n_eff: float, n: int) -> Interval:
    # Wilson rather than the normal approximation: it stays inside [0, 1] and is
    # sensible for proportions near 0 or 1 (contracts rarely bid, a bid never made).
    z2 = Z95 * Z95
    denom = 1 + z2 / n_eff
    centre = (p + z2 / (2 * n_eff)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n_eff + z2 / (4 * n_eff * n_eff)) / denom
    # At p = 0 (or 1) the bound is exactly 0 (or 1); rounding would leave a speck.
    low = 0.0 if p == 0 else max(0.0, centre - half)
    high = 1.0 if p == 1 else min(1.0, centre + half)
    return Interval(p, low, high, n)


def paired_mean_difference(xs: Sequence[float], ys: Sequence[float]) -> Interval:
    """The mean of ``x - y`` over pairs with its t interval (paired design)."""
    if len(xs) != len(ys):
        raise ValueError("paired samples must have the same length")
    return mean_interval([x - y for x, y in zip(xs, ys)])


def paired_proportion_difference(xs: Sequence[int], ys: Sequence[int]) -> Interval:
    """The difference of two proportions measured on the same units (0/1 indicators).

    The Wald interval for paired proportions: with ``b`` units where only x holds
    and ``c`` where only y holds, ``(b - c) / n`` ± z·sqrt(b + c − (b − c)²/n) / n.
    """
    if len(xs) != len(ys):
        raise ValueError("paired samples must have the same length")
    if any(v not in (0, 1) for v in (*xs, *ys)):
        raise ValueError("paired proportions take 0/1 indicators")
    n = len(xs)
    if n == 0:
        return Interval(None, None, None, 0)
    b = sum(1 for x, y in zip(xs, ys) if x and not y)
    c = sum(1 for x, y in zip(xs, ys) if y and not x)
    d = (b - c) / n
    half = Z95 * math.sqrt(max(0.0, b + c - (b - c) ** 2 / n)) / n
    return Interval(d, d - half, d + half, n)


# --------------------------------------------------------------------------- moment sums
class Moments:
    """Sums of ``k``-vectors and of their pairwise products, over units; mergeable.

    ``sums`` holds the ``k`` sums, then the products ``v[i] * v[j]`` for ``i <= j`` in
    row order.  Integers in, integers out: merged in any order the sums are equal.
    """

    __slots__ = ("k", "sums")

    def __init__(self, k: int, sums: list | None = None):
        self.k = k
        self.sums = list(sums) if sums is not None else [0] * (k + k * (k + 1) // 2)

    def add(self, vector: Sequence[int]) -> None:
        """Count one unit's vector."""
        sums = self.sums
        k = self.k
        if k == 2:  # the common case, written out: it runs for every figure of every unit
            y, n = vector
            sums[0] += y
            sums[1] += n
            sums[2] += y * y
            sums[3] += y * n
            sums[4] += n * n
            return
        for i, v in enumerate(vector):
            sums[i] += v
        pos = k
        for i in range(k):
            vi = vector[i]
            for j in range(i, k):
                sums[pos] += vi * vector[j]
                pos += 1

    def add_times(self, vector: Sequence[int], times: int) -> None:
        """Count ``times`` units with the same vector (as many :meth:`add` calls would)."""
        k = self.k
        sums = self.sums
        if k == 2:  # the common case, written out (as in add): every figure of every distinct outcome
            y, n = vector
            sums[0] += y * times
            sums[1] += n * times
            sums[2] += y * y * times
            sums[3] += y * n * times
            sums[4] += n * n * times
            return
        for i, v in enumerate(vector):
            sums[i] += v * times
        pos = k
        for i in range(k):
            vi = vector[i]
            for j in range(i, k):
                sums[pos] += vi * vector[j] * times
                pos += 1

    def merge(self, other: "Moments") -> None:
        """Add another accumulator's sums to these."""
        self.sums = [a + b for a, b in zip(self.sums, other.sums)]

    def total(self, i: int):
        """The sum of component ``i``."""
        return self.sums[i]

    def product(self, i: int, j: int):
        """The sum of ``v[i] * v[j]``."""
        if i > j:
            i, j = j, i
        k = self.k
        return self.sums[k + i * k - i * (i - 1) // 2 + (j - i)]

    def __getstate__(self):
        return (self.k, self.sums)

    def __setstate__(self, state):
        self.k, self.sums = state

    def __eq__(self, other):
        return isinstance(other, Moments) and (self.k, self.sums) == (other.k, other.sums)

    def __repr__(self):
        return f"Moments({self.k}, {self.sums})"


def moments_of(vectors: Iterable[Sequence[int]], k: int) -> Moments:
    """The moment sums of some vectors (a convenience for tests and small data)."""
    m = Moments(k)
    for v in vectors:
        m.add(v)
    return m


def _ratio_residual_ss(m: Moments, y: int, n: int, r: Fraction) -> Fraction:
    # sum over units of (y_u - r * n_u)^2, from the moment sums; exact (r is a fraction).
    return m.product(y, y) - 2 * r * m.product(y, n) + r * r * m.product(n, n)


def _cross_ss(m: Moments, ya: int, na: int, ra: Fraction, yb: int, nb: int, rb: Fraction) -> Fraction:
    # sum over units of (ya_u - ra na_u)(yb_u - rb nb_u), exact.
    return (m.product(ya, yb) - rb * m.product(ya, nb) - ra * m.product(na, yb)
            + ra * rb * m.product(na, nb))


def _same_in_every_unit(m: Moments, ya: int, na: int, yb: int, nb: int) -> bool:
    # Σ(ya − yb)² = 0 and Σ(na − nb)² = 0, in integers.
    return all(m.product(i, i) - 2 * m.product(i, j) + m.product(j, j) == 0 for i, j in ((ya, yb), (na, nb)))


def _units_touched(m: Moments, units: int, *ns: int) -> int:
    """How many of ``units`` units have some ``n`` component above 0.

    Where every unit's ``n`` is 0 or 1 (hand by hand: a contract or none) that count
    follows from the sums (``Σn = Σn²``, and for two components inclusion-exclusion
    with ``Σ na·nb``).  Otherwise ``n`` counts trials within clusters (hands within
    games), where a unit without any is rare, and every unit is counted.
    """
    if not all(m.total(n) == m.product(n, n) for n in ns):
        return units
    if len(ns) == 1:
        return m.total(ns[0])
    a, b = ns
    return m.total(a) + m.total(b) - m.product(a, b)


def ratio_interval(units: int, m: Moments, y: int = 0, n: int = 1) -> Interval:
    """``sum(y) / sum(n)`` over ``units`` units, with the interval of a ratio estimator.

    ``m`` holds the moment sums of vectors whose components ``y`` and ``n`` are the
    numerator and denominator of each unit (units that did not touch the figure
    count as zeros).  The variance is the cluster-sample linearisation
    ``G/(G−1) · Σ(y − R n)² / (Σn)²`` with ``G`` the units that touched the figure
    (see :func:`_units_touched`), and the interval uses t with ``G − 1`` degrees of
    freedom; with fewer than two there is no interval.  With ``n`` 0 or 1 for every
    unit it is the t interval of a mean of the units with ``n = 1``.
    """
    total_n = m.total(n)
    if total_n == 0:
        return Interval(None, None, None, 0)
    exact = Fraction(m.total(y), total_n)
    r = float(exact)
    g = _units_touched(m, units, n)
    if g < 2:
        return Interval(r, None, None, total_n)
    var = Fraction(g, g - 1) * _ratio_residual_ss(m, y, n, exact) / (total_n * total_n)
    half = t975(g - 1) * math.sqrt(var)
    return Interval(r, r - half, r + half, total_n)


def ratio_proportion_interval(m: Moments, y: int = 0, n: int = 1) -> Interval:
    """A proportion ``sum(y) / sum(n)`` (counts of events among trials) with a Wilson interval.

    Where the trials come in clusters (hands within games) the Wilson interval is
    taken with the effective sample size ``Σn / deff``, ``deff`` being the design
    effect ``Σ(y − p n)² / (Σn · p(1 − p))``: the ratio estimator's variance (without
    the small-sample factor ``G/(G−1)`` of :func:`ratio_interval`) over the binomial
    one, never counted below 1 (clustering is not allowed to narrow the interval).
    Trials that are their own units give ``deff = 1`` exactly, the plain Wilson
    interval.  A single unit cannot show its clustering: its trials are then taken
    as independent.
    """
    total_n = m.total(n)
    if total_n == 0:
        return Interval(None, None, None, 0)
    exact = Fraction(m.total(y), total_n)
    p = float(exact)
    deff = 1.0
    if 0 < p < 1:
        deff = max(1.0, float(_ratio_residual_ss(m, y, n, exact) / (total_n * exact * (1 - exact))))
    return _wilson(p, total_n / deff, total_n)


def paired_ratio_difference(units: int, m: Moments, ya: int = 0, na: int = 1,
                            yb: int = 2, nb: int = 3) -> Interval:
    """``R_b − R_a`` for two ratios measured on the same units, with its interval.

    ``m`` holds the moment sums of per-unit vectors with the numerators and
    denominators of both ratios (``ya, na`` and ``yb, nb`` give their components).
    Each unit's linearised contribution is ``(y_b − R_b n_b)/Σn_b − (y_a − R_a n_a)/Σn_a``;
    their variance, with ``G/(G−1)`` and t with ``G − 1`` degrees of freedom (``G``
    the units that touched the figure on either side), gives the interval.  With
    ``n = 1`` everywhere it is :func:`paired_mean_difference`.  The reported ``n`` is
    the number of paired units.  For proportions see :func:`paired_proportion_ratio_difference`.
    """
    total_a, total_b = m.total(na), m.total(nb)
    if total_a == 0 or total_b == 0:
        return Interval(None, None, None, units)
    ra, rb = Fraction(m.total(ya), total_a), Fraction(m.total(yb), total_b)
    d = float(rb - ra)
    g = _units_touched(m, units, na, nb)
    if g < 2:
        return Interval(d, None, None, units)
    var = Fraction(g, g - 1) * _linearised_ss(m, ya, na, ra, total_a, yb, nb, rb, total_b)[2]
    half = t975(g - 1) * math.sqrt(var)
    return Interval(d, d - half, d + half, units)


def _linearised_ss(m: Moments, ya: int, na: int, ra: Fraction, total_a: int,
                   yb: int, nb: int, rb: Fraction, total_b: int) -> tuple[Fraction, Fraction, Fraction]:
    """Sums over units of the squared linearised contributions of R_a, of R_b, and of R_b − R_a (exact)."""
    ss_a = _ratio_residual_ss(m, ya, na, ra) / (total_a * total_a)
    ss_b = _ratio_residual_ss(m, yb, nb, rb) / (total_b * total_b)
    cross = _cross_ss(m, ya, na, ra, yb, nb, rb) / (total_a * total_b)
    return ss_a, ss_b, max(Fraction(0), ss_a + ss_b - 2 * cross)


def paired_proportion_ratio_difference(units: int, m: Moments, ya: int = 0, na: int = 1,
                                       yb: int = 2, nb: int = 3) -> Interval:
    """``P_b − P_a`` for two proportions (events ``y`` among trials ``n``) on the same units.

    Newcombe's hybrid score interval for paired proportions (MOVER): with each side's
    Wilson interval ``[l, u]`` around ``p`` (:func:`ratio_proportion_interval`, which
    widens it for clustered trials) and ``r`` the correlation of the two sides'
    linearised contributions over the units (0 where a side does not vary),

        low  = d − √((p_b − l_b)² − 2r(p_b − l_b)(u_a − p_a) + (u_a − p_a)²)
        high = d + √((u_b − p_b)² − 2r(u_b − p_b)(p_a − l_a) + (p_a − l_a)²)

    for ``d = p_b − p_a``.  It stays inside [−1, 1] and, unlike a Wald interval, does
    not shrink to nothing when a side's proportion is 0 or 1 from a few trials.  With
    one trial per unit it is Newcombe's method 10 (``r`` is then the phi coefficient).
    """
    total_a, total_b = m.total(na), m.total(nb)
    if total_a == 0 or total_b == 0:
        return Interval(None, None, None, units)
    a = ratio_proportion_interval(m, ya, na)
    b = ratio_proportion_interval(m, yb, nb)
    d = b.value - a.value
    ra, rb = Fraction(m.total(ya), total_a), Fraction(m.total(yb), total_b)
    ss_a, ss_b, ss_d = _linearised_ss(m, ya, na, ra, total_a, yb, nb, rb, total_b)
    if _same_in_every_unit(m, ya, na, yb, nb):
        # Both sides saw exactly the same events in every unit (identical variants, or a
        # rule that never came into play): the paired difference is 0 with no spread,
        # as a paired t interval of identical samples is.
        return Interval(0.0, 0.0, 0.0, units)
    r = 0.0
    if ss_a > 0 and ss_b > 0:
        r = max(-1.0, min(1.0, float((ss_a + ss_b - ss_d) / 2) / math.sqrt(ss_a * ss_b)))
    below_b, above_b = b.value - b.low, b.high - b.value
    below_a, above_a = a.value - a.low, a.high - a.value
    low = d - math.sqrt(max(0.0, below_b ** 2 - 2 * r * below_b * above_a + above_a ** 2))
    high = d + math.sqrt(max(0.0, above_b ** 2 - 2 * r * above_b * below_a + below_a ** 2))
    return Interval(d, max(-1.0, low), min(1.0, high), units)
