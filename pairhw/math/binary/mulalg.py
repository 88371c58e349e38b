"""Multiplication algorithms for binary polynomials and F_2^m, bit-exact, with cost models.

Each algorithm is a pure function on ints (bit i = coefficient of x^i), equal to the field product
after reduction, and has a cost model (AND gates, XOR gates, depth in D_A + k·D_X) that the tests
check against seed 000's Table 1 closed forms for sizes that are powers of 2 or 3.

* :func:`schoolbook` — n² ANDs.
* :func:`karatsuba` — recursive two- and three-way splits (6 products for three-way) following a
  split ``schedule`` such as ``(3, 3, 3, 2)``, zero-padding each level to a multiple of the split.
* :func:`tmvp` — Toeplitz matrix–vector products with the two-way formula (1) and three-way
  formula (2) of seed 000 §3.1, diagonal extension and zero padding (§3.2).
* :func:`field_mul_tmvp` — seed 000 §3.1: A·B mod f = swap(T_A · B) with T_A = U·M_A Toeplitz.
* :func:`lsd`, :func:`msd` — digit-serial multipliers (seed 003 Alg. 1; seed 001 §5.1.2), digit D;
  D = 1 gives the bit-serial multipliers.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from pairhw.math.binary.field import GF2m, clmul, schoolbook_check


def _xor_all(values) -> int:
    out = 0
    for x in values:
        out ^= x
    return out


def _mask(n: int) -> int:
    return (1 << n) - 1


# ---------------------------------------------------------------------------------------------
# polynomial products


def schoolbook(a: int, b: int, n: int) -> int:
    """Product of two polynomials of < n bits by n² AND / XOR terms (bit by bit)."""
    return schoolbook_check(a & _mask(n), b)


def karatsuba(a: int, b: int, n: int, schedule=(), base: int = 1) -> int:
    """Recursive Karatsuba product of polynomials of < n bits.

    ``schedule`` lists the split at each level (2 or 3); when it runs out, the schoolbook method
    finishes.  Two-way: P0 = a0b0, P1 = (a0+a1)(b0+b1), P2 = a1b1, c = P0 + (P0+P1+P2)X + P2X².
    Three-way (six products): Pii = a_i b_i, Pij = (a_i + a_j)(b_i + b_j);
    c = P00 + (P01+P00+P11)X + (P02+P00+P22+P11)X² + (P12+P11+P22)X³ + P22X⁴.
    """
    if not schedule or n <= base:
        return schoolbook(a, b, n)
    k, rest = schedule[0], tuple(schedule[1:])
    h = -(-n // k)  # pad to k·h
    mk = _mask(h)
    A = [(a >> (i * h)) & mk for i in range(k)]
    B = [(b >> (i * h)) & mk for i in range(k)]

    def rec(x, y):
        return karatsuba(x, y, h, rest, base)

    if k == 2:
        p0, p2 = rec(A[0], B[0]), rec(A[1], B[1])
        p1 = rec(A[0] ^ A[1], B[0] ^ B[1])
        return p0 ^ ((p0 ^ p1 ^ p2) << h) ^ (p2 << (2 * h))
    if k == 3:
        p00, p11, p22 = (rec(A[i], B[i]) for i in range(3))
        p01 = rec(A[0] ^ A[1], B[0] ^ B[1])
        p02 = rec(A[0] ^ A[2], B[0] ^ B[2])
        p12 = rec(A[1] ^ A[2], B[1] ^ B[2])
        return (p00 ^ ((p01 ^ p00 ^ p11) << h) ^ ((p02 ^ p00 ^ p22 ^ p11) << (2 * h))
                ^ ((p12 ^ p11 ^ p22) << (3 * h)) ^ (p22 << (4 * h)))
    raise ValueError(f"split must be 2 or 3, not {k}")


# ---------------------------------------------------------------------------------------------
# Toeplitz matrix–vector products


def toeplitz_entry(t: int, n: int, i: int, j: int) -> int:
    """T[i][j] = t_(i - j + n - 1): a Toeplitz matrix of size n is its 2n - 1 diagonals ``t``."""
    return (t >> (i - j + n - 1)) & 1


def tmvp_schoolbook(t: int, v: int, n: int) -> int:
    """out_i = XOR_j T[i][j]·v_j, the quadratic method (n² AND, n(n-1) XOR)."""
    out = 0
    for i in range(n):
        row = (t >> i) & _mask(n)  # bits j' = n-1-j hold T[i][j]
        # T[i][j] = t_(i-j+n-1) = row bit (n-1-j): reverse v against the row
        acc = 0
        for j in range(n):
            if (v >> j) & 1:
                acc ^= (row >> (n - 1 - j)) & 1
        out |= acc << i
    return out


#: Seed 000 formulas (1) and (2) as data, for the model, the plans and the nets: per split k, the
#: products as (Toeplitz blocks XORed, vector blocks XORed), and each output block as the products
#: XORed into it (see :func:`tmvp`).
TMVP_SPLITS = {
    2: ([((0, 1), (1,)), ((1,), (0, 1)), ((1, 2), (0,))], [(0, 1), (2, 1)]),
    3: ([((0, 1, 2), (2,)), ((1, 2, 3), (1,)), ((2, 3, 4), (0,)), ((1,), (1, 2)), ((2,), (0, 2)),
         ((3,), (0, 1))], [(0, 3, 4), (1, 3, 5), (2, 4, 5)]),
}


def tmvp(t: int, v: int, n: int, schedule=()) -> int:
    """T·V for the Toeplitz matrix of diagonals ``t`` (2n-1 bits) and vector ``v`` (n bits).

    Seed 000 formulas (1) and (2).  Two-way, blocks [[T1, T0], [T2, T1]] of size h = n/2:
    P0 = (T0 + T1)V1, P1 = T1(V0 + V1), P2 = (T1 + T2)V0, T·V = [P0 + P1; P2 + P1].
    Three-way, blocks [[T2, T1, T0], [T3, T2, T1], [T4, T3, T2]] of size h = n/3:
    P0 = (T0+T1+T2)V2, P1 = (T1+T2+T3)V1, P2 = (T2+T3+T4)V0, P3 = T1(V1+V2), P4 = T2(V0+V2),
    P5 = T3(V0+V1); T·V = [P0+P3+P4; P1+P3+P5; P2+P4+P5].
    When k does not divide n, the matrix is extended along its diagonals and V padded with zeros
    (§3.2); block T_d holds diagonals d·h .. d·h + 2h - 2 of the (extended) matrix.
    """
    if not schedule:
        return tmvp_schoolbook(t, v, n)
    k, rest = schedule[0], tuple(schedule[1:])
    h = -(-n // k)
    pad = k * h - n
    if pad:
        # extended matrix: its top-left n×n block is T, so its diagonals are t shifted by pad
        t <<= pad
    mh = _mask(h)
    md = _mask(2 * h - 1)
    Tb = [(t >> (d * h)) & md for d in range(2 * k - 1)]
    V = [(v >> (i * h)) & mh for i in range(k)]

    if k not in TMVP_SPLITS:
        raise ValueError(f"split must be 2 or 3, not {k}")
    prods, blocks = TMVP_SPLITS[k]
    p = [tmvp(_xor_all(Tb[d] for d in ds), _xor_all(V[j] for j in vs), h, rest) for ds, vs in prods]
    out = 0
    for j, blk in enumerate(blocks):
        out |= _xor_all(p[i] for i in blk) << (j * h)
    return out & _mask(n)


# ---------------------------------------------------------------------------------------------
# field products


def field_toeplitz(F: GF2m, a: int) -> int:
    """Diagonals of T_A = U·M_A (seed 000 §3.1) for a trinomial x^m + x^k + 1.

    M_A = [A^(0) ... A^(m-1)] with A^(j) = x^j·A mod f; U moves the top k rows below the other m - k,
    so T_A[i][j] = coefficient of x^((i + k) mod m) in A^(j).  T_A is Toeplitz; its diagonals come from
    its first row and first column (the hardware CONVERTOR block of Fig. 1).
    """
    if len(F.middle) != 1:
        raise ValueError("the TMVP form of seed 000 §3.1 needs a trinomial")
    m, k = F.m, F.middle[0]
    first_row = 0
    col = a
    for j in range(m):  # T[0][j] = coeff x^k of x^j A mod f  -> diagonal m-1-j
        if (col >> k) & 1:
            first_row |= 1 << (m - 1 - j)
        col = F.reduce(col << 1)
    t = first_row
    for i in range(1, m):  # T[i][0] = a_((i+k) mod m)  -> diagonal m-1+i
        if (a >> ((i + k) % m)) & 1:
            t |= 1 << (m - 1 + i)
    return t


def field_mul_tmvp(F: GF2m, a: int, b: int, schedule=()) -> int:
    """A·B mod f as C' = T_A·B, then C = C' with its top m - k and low k coefficients swapped."""
    return tmvp_unswap(F, tmvp(field_toeplitz(F, a), b, F.m, schedule))


def tmvp_unswap(F: GF2m, cp: int) -> int:
    """C from C' = T_A·B: C'_i = C_((i+k) mod m), so rotate C' back by k (seed 000 §3.1)."""
    m, k = F.m, F.middle[0]
    cp &= F.mask
    return ((cp << k) | (cp >> (m - k))) & F.mask


def field_mul_karatsuba(F: GF2m, a: int, b: int, schedule=()) -> int:
    return F.reduce(karatsuba(a, b, F.m, schedule))


def field_mul_schoolbook(F: GF2m, a: int, b: int) -> int:
    return F.reduce(schoolbook(a, b, F.m))


def lsd(F: GF2m, a: int, b: int, digit: int, trace: list | None = None) -> int:
    """Least-significant-digit-first digit-serial product (seed 003 Alg. 1).

    Per cycle i: C ← C + A·B_i (B_i the i-th D-bit digit of B), A ← A·x^D mod f; ⌈m/D⌉ cycles,
    then C (m + D - 1 bits) is reduced mod f.  D = 1 is the LSB-first bit-serial multiplier.
    """
    c = 0
    for i in range(-(-F.m // digit)):
        bd = (b >> (i * digit)) & _mask(digit)
        c ^= clmul(a, bd)
        a = F.reduce(a << digit)
        if trace is not None:
            trace.append((a, c))
    return F.reduce(c)


def msd(F: GF2m, a: int, b: int, digit: int, trace: list | None = None) -> int:
    """Most-significant-digit-first digit-serial product (seed 001 §5.1.2, structure 1).

    A is zero-padded to n = D·⌈m/D⌉ bits; per cycle, the next D-bit digit (a_(n-D+i)) from the top:
    C ← C·x^D mod f + sum_(i<D) a_(n-D+i)·(x^i B mod f).  ⌈m/D⌉ cycles; D = 1 is MSB-first bit-serial.
    """
    cycles = -(-F.m // digit)
    c = 0
    xb = [b]
    for _ in range(digit - 1):  # the shared XOR array: x^i B mod f (seed 001 Fig. 3)
        xb.append(F.reduce(xb[-1] << 1))
    for i in reversed(range(cycles)):
        ad = (a >> (i * digit)) & _mask(digit)
        s = 0
        for j in range(digit):
            if (ad >> j) & 1:
                s ^= xb[j]
        c = F.reduce(c << digit) ^ s
        if trace is not None:
            trace.append(c)
    return c


# ---------------------------------------------------------------------------------------------
# cost models


@dataclass(frozen=True)
class Cost:
    """Gate counts and depth (depth = ``and_depth``·D_A + ``xor_depth``·D_X)."""

    and_gates: int
    xor_gates: Fraction
    and_depth: int
    xor_depth: int

    def as_dict(self) -> dict:
        return {"and": self.and_gates, "xor": float(self.xor_gates),
                "depth": f"{self.and_depth}DA + {self.xor_depth}DX"}


def _ceil_log2(n: int) -> int:
    return max(0, (n - 1).bit_length())


# Per-level recursions, one row of seed 000 Table 1 each:
# (products per split, XOR added per level as (c, d) meaning c·n + d, XOR depth added per level)
_LEVELS = {
    ("karatsuba", 2): (3, (Fraction(4), Fraction(-4)), 3),        # [18]: 6n^log2(3) - 8n + 2
    ("poly9", 2): (3, (Fraction(4), Fraction(-4)), 2),            # [9]:  same XOR, 2 log2 n depth
    ("tmvp", 2): (3, (Fraction(7, 2), Fraction(-3)), 2),          # [8]:  5.5n^log2(3) - 7n + 1.5
    ("karatsuba", 3): (6, (Fraction(22, 3), Fraction(-10)), 4),   # [18]: 5.33n^log3(6) - 7.33n + 2
    ("poly9", 3): (6, (Fraction(22, 3), Fraction(-10)), 3),       # [9]
    ("tmvp", 3): (6, (Fraction(5), Fraction(-1)), 3),             # [8]:  4.8n^log3(6) - 5n + 0.2
}


def cost(method: str, n: int, schedule=()) -> Cost:
    """Cost of a ``method`` ('karatsuba', 'poly9', 'tmvp', 'schoolbook') product of size n.

    Recursion following ``schedule`` (padding to a multiple of each split), ending in the
    schoolbook base: polynomial n² AND, (n-1)² XOR; TMVP n² AND, n(n-1) XOR; depth
    D_A + ⌈log2 n⌉·D_X.  For n = 2^i with schedule (2,)*i (or 3^i with (3,)*i) this equals Table 1.
    """
    if not schedule or method == "schoolbook":
        xor = n * (n - 1) if method == "tmvp" else (n - 1) ** 2
        return Cost(n * n, Fraction(xor), 1, _ceil_log2(n))
    k = schedule[0]
    h = -(-n // k)
    sub = cost(method, h, tuple(schedule[1:]))
    prods, (c, d), dx = _LEVELS[(method, k)]
    return Cost(prods * sub.and_gates, prods * sub.xor_gates + c * (k * h) + d,
                sub.and_depth, sub.xor_depth + dx)


def table1(method: str, k: int, n: int) -> tuple:
    """Seed 000 Table 1 closed forms (AND, XOR, XOR depth) for n a power of k."""
    import math
    e = math.log(3, 2) if k == 2 else math.log(6, 3)
    ne = n ** e
    forms = {
        ("karatsuba", 2): (6 * ne - 8 * n + 2, 3 * math.log2(n)),
        ("poly9", 2): (6 * ne - 8 * n + 2, 2 * math.log2(n)),
        ("tmvp", 2): (5.5 * ne - 7 * n + 1.5, 2 * math.log2(n)),
        ("karatsuba", 3): (16 / 3 * ne - 22 / 3 * n + 2, 4 * math.log(n, 3)),
        ("poly9", 3): (16 / 3 * ne - 22 / 3 * n + 2, 3 * math.log(n, 3)),
        ("tmvp", 3): (4.8 * ne - 5 * n + 0.2, 3 * math.log(n, 3)),
    }
    xor, depth = forms[(method, k)]
    return round(ne), xor, depth


def digit_serial_cost(F: GF2m, digit: int) -> dict:
    """Cycles ⌈m/D⌉ and a per-cycle gate estimate: D·m AND and D·m XOR for the partial products,
    plus D·w XOR for the reduction (w = number of middle terms + 1)."""
    w = len(F.middle) + 1
    return {"cycles": -(-F.m // digit), "and_per_cycle": digit * F.m,
            "xor_per_cycle": digit * F.m + digit * w}
