"""Seed 002's polynomial (t-adic) Montgomery multiplication for BN primes, bit-exact, with ranges.

A BN prime is p = p(t) = 36t⁴ + 36t³ + 24t² + 6t + 1.  An F_p element is held as a polynomial
a(t) = Σ_{i=0}^{4} a_i t^i with small, signed coefficients; the Montgomery factor is t⁵ (the five
reduction steps each divide by t; the paper's "t⁴" in Alg. 1–2's Require/Ensure lines does not
match its own loops, and the tests check t⁻⁵).

* :meth:`PolyMont.alg1` — Fan, Vercauteren, Verbauwhede (CHES 2009) = seed 002 Alg. 1: interleaved
  a(t)·b_i, exact division by t, then carries with exact div/mod t.
* :meth:`PolyMont.alg2` — seed 002 Alg. 2: the product by the five-term Karatsuba of Alg. 3
  (14 products), five Montgomery steps with the cheap split c = μ·2ⁿ + r, γ = r − μs (t = 2ⁿ + s,
  so c = μt + γ exactly), then the coefficient reduction.  Alg. 2 line 9 applies the split once per
  coefficient; one split leaves γ up to about |μs|, so :attr:`PolyMont.carry_rounds` repeats it
  (Fan et al. apply it "two times", seed 002 §II) until the representation is closed: outputs are
  valid inputs.  The number of rounds is derived by range analysis, not chosen by hand.
* :func:`mul64_dsp` — the 64 × 64-bit product from 12 DSP-sized pieces (seed 002 §IV, Fig. 2–3):
  operands split 24 + 24 + 16 and 17 + 17 + 17 + 13 bits, each piece product fits a 25 × 18 signed
  DSP48 with the top bit kept for the sign; the 12 products are packed into rows of non-overlapping
  bit ranges (concatenations) and the rows summed.  The packing is computed (first fit by offset,
  optimal for intervals): 6 rows, 5 additions, as the paper says.

Every algorithm runs on ints (values) or on :class:`Interval` (static ranges): the same code gives
the bit-exact model and the word widths the hardware needs.  ``trace`` callbacks receive
(name, value) for every named intermediate.

Alg. 3 as printed has c4 = p10 − p9 − p0 + p3 + p5 − p1 + p7; re-deriving it gives −p5 (a3b3 is in
p7 once): c4 = p10 − p9 − p0 + p3 − p5 − p1 + p7 is used and tested against the schoolbook product.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from pairhw.math.prime.field import is_probable_prime

P_COEFFS = (1, 6, 24, 36, 36)  # p(t) = Σ P_COEFFS[i]·t^i


def bn_p(t: int) -> int:
    return sum(c * t**i for i, c in enumerate(P_COEFFS))


def bn_r(t: int) -> int:
    return 36 * t**4 + 36 * t**3 + 18 * t**2 + 6 * t + 1


# ---------------------------------------------------------------------------------------------
# intervals: the same algorithms give static ranges


@dataclass(frozen=True)
class Interval:
    """A closed integer interval [lo, hi]; arithmetic gives sound (possibly loose) bounds."""

    lo: int
    hi: int

    @staticmethod
    def of(x) -> "Interval":
        return x if isinstance(x, Interval) else Interval(x, x)

    def __add__(self, o):
        o = Interval.of(o)
        return Interval(self.lo + o.lo, self.hi + o.hi)

    __radd__ = __add__

    def __neg__(self):
        return Interval(-self.hi, -self.lo)

    def __sub__(self, o):
        return self + (-Interval.of(o))

    def __rsub__(self, o):
        return Interval.of(o) - self

    def __mul__(self, o):
        o = Interval.of(o)
        ps = (self.lo * o.lo, self.lo * o.hi, self.hi * o.lo, self.hi * o.hi)
        return Interval(min(ps), max(ps))

    __rmul__ = __mul__

    def __rshift__(self, n: int):
        return Interval(self.lo >> n, self.hi >> n)

    def hull(self, o: "Interval") -> "Interval":
        return Interval(min(self.lo, o.lo), max(self.hi, o.hi))

    def meet(self, o: "Interval") -> "Interval":
        return Interval(max(self.lo, o.lo), min(self.hi, o.hi))

    def contains(self, x: int) -> bool:
        return self.lo <= x <= self.hi

    @property
    def bits(self) -> int:
        """Two's-complement width holding every value (a sign bit when lo < 0)."""
        if self.lo >= 0:
            return max(1, self.hi.bit_length())
        return max(self.hi.bit_length(), (-self.lo - 1).bit_length()) + 1

    @property
    def mag_bits(self) -> int:
        """Width of the magnitude (sign-magnitude form, the DSP's convention)."""
        return max(abs(self.lo), abs(self.hi)).bit_length()


def _mod2n(x, n: int):
    if isinstance(x, Interval):
        if (x.lo >> n) == (x.hi >> n):
            m = (1 << n) - 1
            return Interval(x.lo & m, x.hi & m)
        return Interval(0, (1 << n) - 1)
    return x & ((1 << n) - 1)


def _meet(a, b):
    return a.meet(b) if isinstance(a, Interval) else a


def _nop(name, value):
    pass


# ---------------------------------------------------------------------------------------------
# the 64 × 64-bit product from DSP pieces (seed 002 §IV)

A_PIECES = (24, 24, 16)  # first operand, least significant first (24-bit DSP port, sign kept)
B_PIECES = (17, 17, 17, 13)  # second operand (17-bit DSP port, sign kept)


def _offsets(widths):
    out, o = [], 0
    for w in widths:
        out.append(o)
        o += w
    return out


def pack_rows(items):
    """Items (offset, width, key) placed in rows of non-overlapping bit ranges: first fit in order
    of offset, which is minimal for intervals (the number of rows is the largest overlap)."""
    rows: list[list] = []
    ends: list[int] = []
    for q in sorted(items, key=lambda q: (q[0], q[2])):
        for k, end in enumerate(ends):
            if q[0] >= end:
                rows[k].append(q)
                ends[k] = q[0] + q[1]
                break
        else:
            rows.append([q])
            ends.append(q[0] + q[1])
    return rows


def dsp_plan():
    """The 12 piece products (i, j, offset, width) and their packing into rows of non-overlapping
    bit ranges (:func:`pack_rows`)."""
    ao, bo = _offsets(A_PIECES), _offsets(B_PIECES)
    prods = sorted(((i, j, ao[i] + bo[j], A_PIECES[i] + B_PIECES[j])
                    for i in range(len(A_PIECES)) for j in range(len(B_PIECES))),
                   key=lambda q: (q[2], q[0], q[1]))
    rows = [[(i, j, off, w) for off, w, (i, j) in row]
            for row in pack_rows([(off, w, (i, j)) for i, j, off, w in prods])]
    return prods, rows


def mul64_dsp(a: int, b: int, trace=_nop) -> int:
    """a·b for |a|, |b| < 2^64 as seed 002's multiplier: sign-magnitude operands, 12 unsigned
    piece products (each < 2^24 · 2^17), concatenated into 6 rows, 5 additions."""
    if abs(a) >> 64 or abs(b) >> 64:
        raise ValueError("operand magnitude exceeds 64 bits")
    sign = -1 if (a < 0) != (b < 0) else 1
    ma, mb = abs(a), abs(b)
    ao, bo = _offsets(A_PIECES), _offsets(B_PIECES)
    ap = [(ma >> o) & ((1 << w) - 1) for o, w in zip(ao, A_PIECES)]
    bp = [(mb >> o) & ((1 << w) - 1) for o, w in zip(bo, B_PIECES)]
    _, rows = dsp_plan()
    total = 0
    for k, row in enumerate(rows):
        word = 0
        for i, j, off, _w in row:
            pp = ap[i] * bp[j]
            trace(f"dsp.a{i}b{j}", pp)
            word |= pp << off  # ranges do not overlap: concatenation
        trace(f"dsp.row{k}", word)
        total += word
    return sign * total


# ---------------------------------------------------------------------------------------------


def karatsuba5(a, b, mul=None, trace=_nop):
    """Seed 002 Alg. 3: c(t) = a(t)·b(t) for 5-term operands with 14 coefficient products.

    ``mul`` multiplies two coefficients (default ``*``; :func:`mul64_dsp` for the DSP model).
    """
    mul = mul or (lambda x, y: x * y)
    a0, a1, a2, a3, a4 = a
    b0, b1, b2, b3, b4 = b
    operands = [
        ("p0", a0, b0), ("p1", a1, b1), ("p2", a0 + a1, b0 + b1), ("p3", a2, b2),
        ("p4", a0 + a2, b0 + b2), ("p5", a3, b3), ("p6", a2 + a3, b2 + b3),
        ("p7", a1 + a3, b1 + b3), ("p8", a0 + a1 + a2 + a3, b0 + b1 + b2 + b3), ("p9", a4, b4),
        ("p10", a0 + a4, b0 + b4), ("p11", a0 + a1 + a4, b0 + b1 + b4), ("p12", a2 + a4, b2 + b4),
        ("p13", a2 + a3 + a4, b2 + b3 + b4),
    ]
    p = []
    for name, x, y in operands:
        trace(f"{name}.a", x)
        trace(f"{name}.b", y)
        v = mul(x, y)
        trace(name, v)
        p.append(v)
    c1 = p[2] - p[1] - p[0]
    s1 = p[6] - p[5] - p[3]
    trace("S1", s1)
    c = [
        p[0],
        c1,
        p[4] + p[1] - p[0] - p[3],
        p[8] - p[7] - p[4] - c1 - s1,
        p[10] - p[9] - p[0] + p[3] - p[5] - p[1] + p[7],  # −p5: see the module docstring
        p[11] - p[1] - p[10] - c1 + s1,
        p[12] - p[9] + p[5] - p[3],
        p[13] - p[5] - p[12] - s1,
        p[9],
    ]
    if isinstance(a0, Interval):  # Karatsuba's differences lose the dependency: use Σ a_i b_j too
        for k in range(9):
            school = sum((a[i] * b[k - i] for i in range(5) if 0 <= k - i < 5), Interval(0, 0))
            c[k] = _meet(c[k], school)
    for k, v in enumerate(c):
        trace(f"c{k}", v)
    return c


class PolyMont:
    """t-adic Montgomery arithmetic mod p(t) for t = 2ⁿ + s (seed 002 §II–III)."""

    def __init__(self, t: int, n: int | None = None):
        self.t = t
        if n is None:  # the power of two nearest t
            n = min((t.bit_length() - 1, t.bit_length()), key=lambda k: abs(t - (1 << k)))
        self.n = n
        self.s = t - (1 << self.n)
        self.p = bn_p(t)
        self.R = pow(t, 5, self.p)
        self.Rinv = pow(self.R, -1, self.p)

    @cached_property
    def _closure(self):
        return self._close()

    @property
    def carry_rounds(self) -> int:
        """Carry passes Alg. 2 needs for a closed representation (derived by :meth:`_close`)."""
        return self._closure[0]

    @property
    def domain(self) -> list[Interval]:
        """The closed coefficient domain: canonical digits and every Alg. 2 output lie in it."""
        return self._closure[1]

    def __repr__(self) -> str:
        return f"PolyMont(t = 2^{self.n} {'+' if self.s >= 0 else '−'} {abs(self.s)})"

    # -- representation ------------------------------------------------------------------------
    def to_poly(self, a: int) -> list[int]:
        """Canonical digits of a in base t (0 ≤ a_i < t for i < 4; a_4 ≤ 36)."""
        a %= self.p
        out = []
        for _ in range(4):
            a, d = divmod(a, self.t)
            out.append(d)
        return out + [a]

    def value(self, c) -> int:
        return sum(ci * self.t**i for i, ci in enumerate(c)) % self.p

    def to_mont(self, a: int) -> list[int]:
        return self.to_poly(a * self.R % self.p)

    def from_mont(self, c) -> int:
        return self.value(c) * self.Rinv % self.p

    # -- the cheap split c = μ·2ⁿ + r, γ = r − μs  (c = μt + γ) ------------------------------
    def split(self, c):
        mu = c >> self.n
        return mu, _mod2n(c, self.n) - mu * self.s

    # -- algorithms -----------------------------------------------------------------------------
    def alg1(self, a, b, trace=_nop):
        """Fan et al. = seed 002 Alg. 1: returns c(t) with value ≡ a·b·t⁻⁵ (mod p)."""
        t = self.t
        c = [0] * 5
        for i in range(5):
            c = [c[k] + a[k] * b[i] for k in range(5)]
            mu, gamma = divmod(c[0], t)
            trace(f"step{i}.mu", mu)
            trace(f"step{i}.gamma", gamma)
            c = [c[k + 1] - gamma * P_COEFFS[k + 1] for k in range(4)] + [0]
            c[0] += mu
            for k in range(5):
                trace(f"step{i}.c{k}", c[k])
        for i in range(4):
            q, c[i] = divmod(c[i], t)
            c[i + 1] += q
        for k in range(5):
            trace(f"out.c{k}", c[k])
        return c

    def alg2(self, a, b, mul=None, trace=_nop, carry_rounds=None):
        """Seed 002 Alg. 2: Karatsuba product (Alg. 3), five Montgomery steps, coefficient
        reduction (``carry_rounds`` passes, default :attr:`carry_rounds`)."""
        rounds = self.carry_rounds if carry_rounds is None else carry_rounds
        c = karatsuba5(a, b, mul=mul, trace=trace)
        for i in range(5):
            mu, gamma = self.split(c[0])
            trace(f"red{i}.mu", mu)
            trace(f"red{i}.gamma", gamma)
            c = [c[k + 1] - gamma * P_COEFFS[k + 1] if k < 4 else c[k + 1]
                 for k in range(len(c) - 1)]
            c[0] = c[0] + mu
            for k, v in enumerate(c):
                trace(f"red{i}.c{k}", v)
        c = c + [0]
        for r in range(rounds):
            for i in range(4):
                mu, gamma = self.split(c[i])
                c[i + 1] = c[i + 1] + mu
                c[i] = gamma
                trace(f"carry{r}.mu{i}", mu)
            for k in range(5):
                trace(f"carry{r}.c{k}", c[k])
        return c

    # -- ranges ---------------------------------------------------------------------------------
    def canonical_domain(self) -> list[Interval]:
        return [Interval(0, self.t - 1)] * 4 + [Interval(0, self.p // self.t**4)]

    def _close(self, max_rounds: int = 4):
        """The fewest carry rounds whose output ranges, joined with the canonical digits, form a
        domain D closed under alg2 (D × D → D): then any chain of products stays in D."""
        for rounds in range(1, max_rounds + 1):
            D = self.canonical_domain()
            for _ in range(8):
                out = self.alg2(D, D, carry_rounds=rounds)
                new = [d.hull(o) for d, o in zip(D, out)]
                if new == D:
                    return rounds, D
                D = new
        raise ValueError(f"no closed coefficient domain within {max_rounds} carry rounds")

    def ranges(self, domain=None) -> dict[str, Interval]:
        """Static range of every named intermediate of :meth:`alg2` for operands in ``domain``
        (default the closed :attr:`domain`)."""
        D = self.domain if domain is None else domain
        out: dict[str, Interval] = {}

        def rec(name, v):
            out[name] = out[name].hull(v) if name in out else v

        self.alg2(D, D, trace=rec)
        return out

    # -- addition in the coefficient form (for a core whose adders keep this form) ----------------
    #: c4 = 2^FOLD_SHIFT·k + r is folded by subtracting k·p(t): 36 = 2^5 + 4 leaves c4 = r − 4k
    FOLD_SHIFT = 5

    def fold_top(self, c):
        """c − k·p(t) with k = ⌊c4/32⌋: the same value mod p, c4 shrunk to r − 4k (r = c4 mod 32),
        so that sums do not grow the top coefficient; written with the split so that intervals stay
        tight."""
        n = self.FOLD_SHIFT
        k, r = c[4] >> n, _mod2n(c[4], n)
        return [c[i] - k * P_COEFFS[i] for i in range(4)] + [r - k * (P_COEFFS[4] - (1 << n))]

    def add_norm(self, a, b, sign: int = 1, rounds: int = 2, trace=_nop):
        """a + b (sign 1) or a − b (sign −1) coefficient by coefficient, one :meth:`fold_top`, then
        ``rounds`` carry rounds of Alg. 2 (c_i = μ·2ⁿ + r, c_i ← r − μs, c_(i+1) += μ): the adder of
        a core that keeps seed 002's form; :attr:`arith_domain` is closed under it.  ``trace`` sees
        the named intermediates (``sum.c0``…, ``fold.k``, ``fold.c0``…, ``carry0_1.c2``…)."""
        c = [x + y if sign > 0 else x - y for x, y in zip(a, b)]
        for k, v in enumerate(c):
            trace(f"sum.c{k}", v)
        trace("fold.k", c[4] >> self.FOLD_SHIFT)
        c = self.fold_top(c)
        for k, v in enumerate(c):
            trace(f"fold.c{k}", v)
        for r in range(rounds):
            for i in range(4):
                mu, gamma = self.split(c[i])
                c[i + 1] = c[i + 1] + mu
                c[i] = gamma
                for k, v in enumerate(c):
                    trace(f"carry{r}_{i}.c{k}", v)
        return c

    def add_ranges(self, domain=None) -> dict[str, Interval]:
        """Static range of every named intermediate of :meth:`add_norm` over a sum, a difference and
        a negation (0 − a) of operands in ``domain`` (default :attr:`arith_domain`)."""
        D = self.arith_domain if domain is None else domain
        out: dict[str, Interval] = {}

        def rec(name, v):
            out[name] = out[name].hull(v) if name in out else v

        for a, b, sign in ((D, D, 1), (D, D, -1), ([Interval(0, 0)] * 5, D, -1)):
            self.add_norm(a, b, sign, trace=rec)
        return out

    @cached_property
    def arith_domain(self) -> list[Interval]:
        """The coefficient domain closed under :meth:`alg2` and :meth:`add_norm` (both signs): the
        product's domain with the top coefficient's upper end raised (a core's words)."""
        D = self.domain
        for _ in range(16):
            outs = [self.alg2(D, D)] + [self.add_norm(D, D, s) for s in (1, -1)]
            new = list(D)
            for o in outs:
                new = [d.hull(x) for d, x in zip(new, o)]
            if new == D:
                return D
            D = new
        raise ValueError(f"{self}: no coefficient domain closed under products and sums")

    @property
    def word_bits(self) -> list[int]:
        """Two's-complement bits of each coefficient of a core's word (:attr:`arith_domain`)."""
        return [d.bits for d in self.arith_domain]

    def extremes(self) -> list[list[int]]:
        """Extreme representatives: every coefficient at the low or high end of the domain (all
        lows, all highs, and each single coefficient high with the rest low)."""
        D = self.domain
        vecs = [[d.lo for d in D], [d.hi for d in D]]
        for k in range(5):
            v = [d.lo for d in D]
            v[k] = D[k].hi
            vecs.append(v)
        return vecs


# ---------------------------------------------------------------------------------------------
# how the seed-form BN parameter is found


def signed_low_weight(n: int, weight: int):
    """Every s = Σ ±2^e_k with ``weight`` distinct exponents e_k < n − 4, in order of |s|."""
    from itertools import combinations, product

    out = set()
    for exps in combinations(range(n - 4), weight):
        for signs in product((1, -1), repeat=weight):
            out.add(sum(sg << e for sg, e in zip(signs, exps)))
    return sorted(out, key=lambda s: (abs(s), s))


def find_seed_t(n: int, max_weight: int = 3):
    """The first t = 2ⁿ + s (s of the lowest Hamming weight, then the smallest |s|, positive s
    first) with t odd (so p ≡ 3 mod 4 and F_p² = F_p[u]/(u² + 1)) and p(t), r(t) both prime."""
    for w in range(1, max_weight + 1):
        for s in signed_low_weight(n, w):
            t = (1 << n) + s
            if t % 2 and is_probable_prime(bn_p(t)) and is_probable_prime(bn_r(t)):
                return t
    return None
