"""Sequential plans: a large product as a fixed list of smaller products, derived from the formulas.

A hybrid sequential/parallel multiplier (seed 000 §3.2; Ghosh et al. CHES 2011; seed 003 §IV) applies
the first levels of a split formula *in time*: one parallel core computes the sub-products one after
another, and an accumulator adds each into place.  This module derives, from the same formulas as
:mod:`pairhw.math.binary.mulalg`, the exact list of sub-products: for each, which windows of the operands are
XORed into the core's inputs and where its output is added.  The hardware is generated from a plan and
:meth:`Plan.evaluate` runs the plan in Python, so a test can check the plan against the field product
before any RTL exists.

Operand terms are ``(offset, length)`` windows: bits ``offset .. offset+length-1`` of the operand,
zero-extended to the core size (bits outside ``0 .. width-1`` of the operand read as zero).  Toeplitz
matrix terms are diagonal windows of length ``2h - 1``: when a split
pads a matrix (§3.2, "extending the diagonal"), the extension may hold any value because it only meets
padded zeros of the vector or output rows that are dropped, so the window simply starts ``pad`` bits
lower in the parent's diagonals.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from pairhw.math.binary import mulalg
from pairhw.math.binary.field import GF2m


def _mask(n: int) -> int:
    return (1 << n) - 1


def _xor_terms(*lists):
    """XOR of term lists: a term present an even number of times cancels."""
    c = Counter(t for lst in lists for t in lst)
    return tuple(sorted(t for t, k in c.items() if k % 2))


def _clip(terms, start: int, length: int):
    """Sub-window ``start .. start+length-1`` of each window term (empty parts dropped)."""
    out = []
    for off, ln in terms:
        ln2 = min(length, ln - start)
        if ln2 > 0:
            out.append((off + start, ln2))
    return tuple(out)


def window(x: int, off: int, length: int) -> int:
    """Bits ``off .. off+length-1`` of ``x`` (bits below 0 read as zero)."""
    if off < 0:
        return (x << -off) & _mask(length)
    return (x >> off) & _mask(length)


@dataclass(frozen=True)
class SubProduct:
    """One core product: ``core(XOR of a_terms, XOR of b_terms)`` added at every output term.

    ``a_terms`` and ``b_terms`` are ``(offset, length)`` windows of the two operands: for a TMVP plan
    the first operand is the Toeplitz matrix's diagonals and each window has length 2h - 1.
    ``out_terms`` are ``(offset, length)``: the core result's low ``length`` bits are XORed into the
    accumulator at ``offset``.
    """

    a_terms: tuple
    b_terms: tuple
    out_terms: tuple


@dataclass(frozen=True)
class Plan:
    """A product of size ``n`` as ``len(products)`` core products of size ``h``.

    Attributes
    ----------
    kind : str
        ``"tmvp"`` (Toeplitz matrix-vector, seed 000 formulas (1), (2)) or ``"poly"`` (Karatsuba).
    n : int
        Operand size (bits of the vector / polynomial operands).
    splits : tuple of int
        The sequential splits, outermost first.
    h : int
        Core size.
    acc_width : int
        Accumulator width: n for TMVP (rows), the highest product bit + 1 for polynomials.
    """

    kind: str
    n: int
    splits: tuple
    h: int
    products: tuple
    acc_width: int

    @property
    def core_out_width(self) -> int:
        return self.h if self.kind == "tmvp" else 2 * self.h - 1

    @property
    def a_width(self) -> int:
        """Width of the first operand: 2n - 1 diagonals for TMVP, n bits for a polynomial."""
        return 2 * self.n - 1 if self.kind == "tmvp" else self.n

    @property
    def x_width(self) -> int:
        """Width of the core's first operand: 2h - 1 diagonals for TMVP, h bits for a polynomial."""
        return 2 * self.h - 1 if self.kind == "tmvp" else self.h

    @staticmethod
    def operand(x: int, width: int, terms) -> int:
        """XOR of the windows ``terms`` of the ``width``-bit operand ``x``."""
        out = 0
        for off, ln in terms:
            out ^= window(x & _mask(width), off, ln)
        return out

    def operand_cases(self, which: str, rows=None) -> list:
        """Which source bits make each bit of a core operand, product by product (Tnet/Vnet).

        Returns, for each bit b of the core operand ``which`` (``"a"``: the first, x_width bits;
        ``"b"``: the second, h bits), a dict mapping a source bit i to the frozenset of products in
        which bit b is the XOR of a set of source bits containing i.  ``rows[k]`` is the set of source
        bits whose XOR is bit k of the operand (default: bit k itself); for a TMVP plan's first
        operand, the Toeplitz diagonals' rows in terms of A (the CONVERTOR).
        """
        width = self.a_width if which == "a" else self.n
        n_out = self.x_width if which == "a" else self.h
        out = []
        for b in range(n_out):
            cases = {}
            for s, p in enumerate(self.products):
                bits = set()
                for off, ln in (p.a_terms if which == "a" else p.b_terms):
                    k = off + b
                    if b < ln and 0 <= k < width:
                        bits ^= set(rows[k]) if rows is not None else {k}
                for i in bits:
                    cases.setdefault(i, set()).add(s)
            out.append({i: frozenset(c) for i, c in sorted(cases.items())})
        return out

    def place(self, acc: int, p: SubProduct, r: int) -> int:
        for off, ln in p.out_terms:
            acc ^= (r & _mask(ln)) << off
        return acc & _mask(self.acc_width)

    def evaluate(self, a: int, b: int, core) -> int:
        """Run the plan: ``core(x, y)`` computes one sub-product of size ``h``."""
        acc = 0
        for p in self.products:
            r = core(self.operand(a, self.a_width, p.a_terms), self.operand(b, self.n, p.b_terms))
            acc = self.place(acc, p, r)
        return acc


def tmvp_plan(n: int, splits) -> Plan:
    """Seed 000 §3.2: apply TMVP splits (2 → formula (1), 3 → formula (2), as
    :data:`pairhw.math.binary.mulalg.TMVP_SPLITS`) sequentially.

    Three-way: P0 = (T0+T1+T2)V2, P1 = (T1+T2+T3)V1, P2 = (T2+T3+T4)V0, P3 = T1(V1+V2), P4 = T2(V0+V2),
    P5 = T3(V0+V1); W = [P0+P3+P4; P1+P3+P5; P2+P4+P5].  Two-way: P0 = (T0+T1)V1, P1 = T1(V0+V1),
    P2 = (T1+T2)V0; W = [P0+P1; P2+P1].  Block T_d is the diagonal window at d·h.
    """
    splits = tuple(splits)
    prods = []

    def rec(size, rest, tw, vw, ow):
        if not rest:
            prods.append(SubProduct(tuple((o, 2 * size - 1) for o in tw), tuple(vw), tuple(ow)))
            return size
        k = rest[0]
        h = -(-size // k)
        pad = k * h - size
        base = [o - pad for o in tw]

        def T(*ds):
            return _xor_terms(*[[o + d * h for o in base] for d in ds])

        def V(*ids):
            return tuple(t for i in ids for t in _clip(vw, i * h, h))

        def O(*ids):
            return tuple(t for i in ids for t in _clip(ow, i * h, h))

        if k not in mulalg.TMVP_SPLITS:
            raise ValueError(f"split must be 2 or 3, not {k}")
        formulas, blocks = mulalg.TMVP_SPLITS[k]
        subs = [(T(*ds), V(*vs), O(*[j for j, blk in enumerate(blocks) if i in blk]))
                for i, (ds, vs) in enumerate(formulas)]
        hs = {rec(h, rest[1:], *s) for s in subs}
        return hs.pop()

    h = rec(n, splits, [0], [(0, n)], [(0, n)])
    return Plan("tmvp", n, splits, h, tuple(prods), n)


def poly_plan(n: int, splits) -> Plan:
    """Karatsuba splits applied sequentially (Ghosh et al.; seed 003 §IV-A), as in
    :func:`pairhw.math.binary.mulalg.karatsuba`: two-way P0 = a0b0 at X^0, X^h; P1 = (a0+a1)(b0+b1) at X^h;
    P2 = a1b1 at X^h, X^2h.  Three-way with six products.  ``n`` is the (padded) operand size.
    """
    splits = tuple(splits)
    prods = []

    def rec(size, rest, aw, bw, shifts):
        if not rest:
            prods.append(SubProduct(tuple(aw), tuple(bw), tuple((s, 2 * size - 1) for s in shifts)))
            return size
        k = rest[0]
        h = -(-size // k)

        def A(*ids):
            return tuple(t for i in ids for t in _clip(aw, i * h, h))

        def B(*ids):
            return tuple(t for i in ids for t in _clip(bw, i * h, h))

        def S(*ps):
            return _xor_terms(*[[s + p * h for s in shifts] for p in ps])

        if k == 2:
            subs = [(A(0), B(0), S(0, 1)), (A(0, 1), B(0, 1), S(1)), (A(1), B(1), S(1, 2))]
        elif k == 3:
            subs = [(A(0), B(0), S(0, 1, 2)), (A(1), B(1), S(1, 2, 3)), (A(2), B(2), S(2, 3, 4)),
                    (A(0, 1), B(0, 1), S(1)), (A(0, 2), B(0, 2), S(2)), (A(1, 2), B(1, 2), S(3))]
        else:
            raise ValueError(f"split must be 2 or 3, not {k}")
        hs = {rec(h, rest[1:], *s) for s in subs}
        return hs.pop()

    h = rec(n, splits, [(0, n)], [(0, n)], [0])
    width = max(off + ln for p in prods for off, ln in p.out_terms)
    return Plan("poly", n, splits, h, tuple(prods), width)


def tmvp_core(h: int, schedule):
    """The model's parallel core of a TMVP plan (for :meth:`Plan.evaluate`)."""
    return lambda t, v: mulalg.tmvp(t, v, h, schedule)


def poly_core(h: int, schedule):
    return lambda a, b: mulalg.karatsuba(a, b, h, schedule)


def field_mul_by_plan(F: GF2m, plan: Plan, a: int, b: int, core_schedule=()) -> int:
    """The field product computed through ``plan`` (TMVP: swap(T_A·B); poly: reduce(A·B))."""
    if plan.kind == "tmvp":
        t = mulalg.field_toeplitz(F, a)
        return mulalg.tmvp_unswap(F, plan.evaluate(t, b, tmvp_core(plan.h, core_schedule)))
    return F.reduce(plan.evaluate(a, b, poly_core(plan.h, core_schedule)))
