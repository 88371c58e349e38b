"""Binary fields F_2^m in polynomial basis.

Elements are Python ints: bit i is the coefficient of x^i (docs/ARCHITECTURE.md convention).  The field is
F_2[x]/(f) with f = x^m + sum_j x^{k_j} + 1 a trinomial or pentanomial.

The hot operations are tuned for pure Python (the ηT over F_2^1223 must run in about a second):

* multiplication: a left-to-right comb with a 4-bit window over the bytes of one operand
  (two table lookups, one shift and two XORs per byte), then a shift-and-XOR reduction; from
  m = 128 on, the same comb compiled in C when a C compiler is at hand (:mod:`.native`, optional);
* squaring: bit spreading through ``bytes.translate`` tables;
* square root: the √x trick of seed 000 §2 generalised: √a = even(a) + √x · odd(a), where
  even/odd are the de-interleaved bit halves and √x = x^(2^(m-1)) is a fixed sparse element for
  trinomials with odd middle exponent (√x = x^((m+1)/2) + x^((k+1)/2)).

Inversion is Itoh–Tsujii driven by an explicit chain program (:class:`ChainProgram`): seed 000 §4.1's
chain for m = 1223 reproduced step for step, and a generic binary chain for any m.
"""

from __future__ import annotations

from pairhw.math.field import _NULL_PHASE, FieldError, parse_hex  # noqa: F401 - re-exported

import random as _random
from dataclasses import dataclass

# ---------------------------------------------------------------------------------------------
# byte tables for squaring (bit spreading) and square root (bit de-interleaving)


def _spread4(n: int) -> int:
    return sum(((n >> i) & 1) << (2 * i) for i in range(4))


_SPREAD_LO = bytes(_spread4(b & 15) for b in range(256))
_SPREAD_HI = bytes(_spread4(b >> 4) for b in range(256))
_EVEN_BITS = bytes(sum(((b >> (2 * i)) & 1) << i for i in range(4)) for b in range(256))
_ODD_BITS = bytes(sum(((b >> (2 * i + 1)) & 1) << i for i in range(4)) for b in range(256))


def spread(a: int) -> int:
    """Insert a zero between the bits of ``a`` (polynomial squaring without reduction)."""
    if a == 0:
        return 0
    data = a.to_bytes((a.bit_length() + 7) // 8, "little")
    out = bytearray(2 * len(data))
    out[0::2] = data.translate(_SPREAD_LO)
    out[1::2] = data.translate(_SPREAD_HI)
    return int.from_bytes(out, "little")


def deinterleave(a: int) -> tuple[int, int]:
    """Split ``a`` into (even bits, odd bits): a = even(x^2) + x·odd(x^2)."""
    if a == 0:
        return 0, 0
    data = a.to_bytes((a.bit_length() + 7) // 8, "little")
    ev = data.translate(_EVEN_BITS)
    od = data.translate(_ODD_BITS)
    even = int.from_bytes(ev[0::2], "little") | (int.from_bytes(ev[1::2], "little") << 4)
    odd = int.from_bytes(od[0::2], "little") | (int.from_bytes(od[1::2], "little") << 4)
    return even, odd


def clmul(a: int, b: int) -> int:
    """Carry-less product of two binary polynomials (no reduction).

    Left-to-right comb with a 4-bit window: a table of the 16 multiples of the longer operand,
    then one byte of the shorter operand per step.
    """
    if a.bit_length() < b.bit_length():
        a, b = b, a
    if b == 0:
        return 0
    a2 = a << 1
    a4 = a << 2
    a8 = a << 3
    a3 = a2 ^ a
    a5 = a4 ^ a
    a6 = a4 ^ a2
    a7 = a6 ^ a
    tbl = (0, a, a2, a3, a4, a5, a6, a7, a8, a8 ^ a, a8 ^ a2, a8 ^ a3, a8 ^ a4, a8 ^ a5,
           a8 ^ a6, a8 ^ a7)
    tbh = tuple(t << 4 for t in tbl)
    acc = 0
    for byte in b.to_bytes((b.bit_length() + 7) // 8, "big"):
        acc = (acc << 8) ^ tbh[byte >> 4] ^ tbl[byte & 15]
    return acc


#: from this m on, a field's products use the compiled comb when it loads (:mod:`pairhw.math.binary.native`,
#: the same products); below it the Python comb is as fast as the call into C
NATIVE_MIN_M = 128


def _product_for(m: int):
    """The carry-less product a field of degree ``m`` uses: :func:`clmul`, or its compiled twin."""
    if m >= NATIVE_MIN_M:
        from pairhw.math.binary import native

        if native.library() is not None:
            return native.clmul
    return clmul


def schoolbook_check(a: int, b: int) -> int:
    """Carry-less product bit by bit (slow; an independent check of :func:`clmul`)."""
    c = 0
    i = 0
    while a >> i:
        if (a >> i) & 1:
            c ^= b << i
        i += 1
    return c


def poly_degree(a: int) -> int:
    return a.bit_length() - 1


def poly_mod(a: int, f: int) -> int:
    """Remainder of binary polynomial ``a`` modulo ``f`` (slow, generic)."""
    df = f.bit_length() - 1
    while a.bit_length() - 1 >= df:
        a ^= f << (a.bit_length() - 1 - df)
    return a


def poly_gcd(a: int, b: int) -> int:
    while b:
        a, b = b, poly_mod(a, b)
    return a


def poly_mulmod(a: int, b: int, f: int) -> int:
    return poly_mod(clmul(a, b), f)


def is_irreducible(f: int) -> bool:
    """Rabin's test for a binary polynomial ``f`` of degree m >= 1."""
    m = f.bit_length() - 1
    if m < 1:
        return False

    def x_pow_2k(k: int) -> int:
        y = 2  # x
        for _ in range(k):
            y = poly_mod(clmul(y, y), f)
        return y

    if x_pow_2k(m) != poly_mod(2, f):
        return False
    primes = [p for p in range(2, m + 1) if m % p == 0 and all(p % q for q in range(2, p))]
    for p in primes:
        if poly_gcd(f, x_pow_2k(m // p) ^ 2) != 1:
            return False
    return True


# ---------------------------------------------------------------------------------------------
# Itoh–Tsujii chain programs


@dataclass(frozen=True)
class ChainProgram:
    """A straight-line program computing a^-1 in F_2^m by Itoh–Tsujii.

    Registers hold field values; ``a`` is the input.  Operations:

    ``("mov", dst, src)``       dst ← src
    ``("sqr", dst, k)``         dst ← dst^(2^k)   (k squarings)
    ``("mul", dst, x, y)``      dst ← x · y
    ``("ret", src)``            the result register

    The program is data so that the hardware sequencer can be generated from the same object that
    the model interprets.
    """

    name: str
    ops: tuple

    @property
    def multiplications(self) -> int:
        return sum(1 for op in self.ops if op[0] == "mul")

    @property
    def squarings(self) -> int:
        return sum(op[2] for op in self.ops if op[0] == "sqr")

    def run(self, field: "GF2m", a: int) -> int:
        """Interpret the program with ``field``'s operations (counting fields count here)."""
        regs = {"a": a}
        for op in self.ops:
            kind = op[0]
            if kind == "mov":
                regs[op[1]] = regs[op[2]]
            elif kind == "sqr":
                regs[op[1]] = field.sqr_k(regs[op[1]], op[2])
            elif kind == "mul":
                regs[op[1]] = field.mul(regs[op[2]], regs[op[3]])
            elif kind == "ret":
                return regs[op[1]]
            else:  # pragma: no cover - programs are built in this module
                raise ValueError(f"unknown chain op {op!r}")
        raise ValueError("chain program has no ret")

    def exponent(self, m: int) -> int:
        """The exponent of ``a`` that the program computes, modulo 2^m - 1 (for tests)."""
        mod = (1 << m) - 1
        regs = {"a": 1}
        for op in self.ops:
            if op[0] == "mov":
                regs[op[1]] = regs[op[2]]
            elif op[0] == "sqr":
                regs[op[1]] = (regs[op[1]] << op[2]) % mod
            elif op[0] == "mul":
                regs[op[1]] = (regs[op[2]] + regs[op[3]]) % mod
            elif op[0] == "ret":
                return regs[op[1]]
        raise ValueError("chain program has no ret")


def _sqr_mul_self(k: int) -> list:
    """s ← s^(2^k) · s, using scratch register t."""
    return [("mov", "t", "s"), ("sqr", "s", k), ("mul", "s", "s", "t")]


def adikari12_chain_1223() -> ChainProgram:
    """Seed 000 §4.1's addition chain for m = 1223, op for op (14 Mul + 1222 Squ).

    s←a, s←s²·s, r←s, s←s^(2²)·s, s←s^(2²), r←r·s, s←s^(2⁴)·s, s←s^(2⁸)·s, s←s^(2¹⁶)·s,
    s←s^(2³²)·s, s←s^(2⁴), r←r·s, s←s^(2⁶⁴)·s, s←s^(2⁶⁴), r←r·s, s←s^(2¹²⁸)·s, s←s^(2²⁵⁶)·s,
    s←s^(2⁵¹²)·s, s←s^(2¹²⁸), r←r·s, r←r².
    """
    ops: list = [("mov", "s", "a")]
    ops += _sqr_mul_self(1)
    ops += [("mov", "r", "s")]
    ops += _sqr_mul_self(2)
    ops += [("sqr", "s", 2), ("mul", "r", "r", "s")]
    for k in (4, 8, 16, 32):
        ops += _sqr_mul_self(k)
    ops += [("sqr", "s", 4), ("mul", "r", "r", "s")]
    ops += _sqr_mul_self(64)
    ops += [("sqr", "s", 64), ("mul", "r", "r", "s")]
    for k in (128, 256, 512):
        ops += _sqr_mul_self(k)
    ops += [("sqr", "s", 128), ("mul", "r", "r", "s"), ("sqr", "r", 1), ("ret", "r")]
    return ChainProgram("seed000-1223", tuple(ops))


def binary_chain(m: int) -> ChainProgram:
    """Generic Itoh–Tsujii chain from the binary expansion of m - 1.

    With β_k = a^(2^k - 1): β_2k = β_k^(2^k)·β_k and β_(2k+1) = β_2k²·a; a^-1 = β_(m-1)².
    Cost ⌊log2(m-1)⌋ + HW(m-1) - 1 multiplications (seed 001 eq. (7)) and m - 1 squarings.
    """
    if m < 2:
        raise ValueError("m must be at least 2")
    e = m - 1
    ops: list = [("mov", "s", "a")]
    k = 1
    for bit in bin(e)[3:]:
        ops += _sqr_mul_self(k)
        k *= 2
        if bit == "1":
            ops += [("sqr", "s", 1), ("mul", "s", "s", "a")]
            k += 1
    ops += [("sqr", "s", 1), ("ret", "s")]
    return ChainProgram(f"binary-{m}", tuple(ops))


# ---------------------------------------------------------------------------------------------
# the field


class GF2m:
    """The field F_2[x]/(x^m + sum x^k_j + 1).

    Parameters
    ----------
    m : int
        Extension degree.
    middle : sequence of int
        The middle exponents k_j (one for a trinomial, three for a pentanomial).
    chain : ChainProgram, optional
        The Itoh–Tsujii program; defaults to seed 000's chain for m = 1223 and the binary chain
        otherwise.
    """

    def __init__(self, m: int, middle, chain: ChainProgram | None = None):
        middle = tuple(sorted(set(int(k) for k in middle), reverse=True))
        if not middle or middle[0] >= m or middle[-1] <= 0:
            raise ValueError("middle exponents must lie strictly between 0 and m")
        self.m = m
        self.middle = middle
        self.poly = (1 << m) | 1 | sum(1 << k for k in middle)
        self.mask = (1 << m) - 1
        self.nbytes = (m + 7) // 8
        self.hex_digits = (m + 3) // 4
        if chain is None:
            chain = adikari12_chain_1223() if m == 1223 else binary_chain(m)
        if chain.exponent(m) != ((1 << m) - 2) % ((1 << m) - 1):
            raise ValueError(f"chain {chain.name} does not compute the inverse in F_2^{m}")
        self.chain = chain
        self._shifts = (0,) + middle
        self._clmul = _product_for(m)
        # √x = x^(2^(m-1)); sparse for trinomials with odd k
        s = 2
        for _ in range(m - 1):
            s = self.sqr(s)
        self.sqrt_x = s
        # a sparse √x (trinomials: two terms) is applied as shifts; a dense one as a product
        shifts = tuple(i for i in range(m) if (s >> i) & 1)
        self._sqrt_x_shifts = shifts if len(shifts) <= 8 else None
        self.trace_mask = self._trace_mask()

    # -- op counting hooks (no-ops here; see pairhw.math.opcount) -----------------------------
    def phase(self, name: str):
        """Context manager naming the phase that following operations belong to."""
        return _NULL_PHASE

    def mark(self, label: str) -> None:
        """Mark a loop-iteration boundary (no-op; :mod:`pairhw.program.trace` folds loops at marks)."""

    # -- representation -----------------------------------------------------------------------
    def __repr__(self) -> str:
        terms = " + ".join(f"x^{k}" for k in self.middle)
        return f"GF2m(x^{self.m} + {terms} + 1)"

    def poly_str(self) -> str:
        return " + ".join([f"x^{self.m}"] + [f"x^{k}" for k in self.middle] + ["1"])

    def to_hex(self, a: int) -> str:
        return format(a, f"0{self.hex_digits}x")

    def from_hex(self, text: str) -> int:
        v = parse_hex(text)
        if v >> self.m:
            raise FieldError(f"{text!r} has {v.bit_length()} bits; F_2^{self.m} elements have at most {self.m}")
        return v

    def random(self, rng: _random.Random) -> int:
        return rng.getrandbits(self.m)

    # -- arithmetic -----------------------------------------------------------------------------
    def reduce(self, c: int) -> int:
        """Reduce a polynomial of any degree modulo f using x^m = sum x^k_j + 1."""
        m = self.m
        mask = self.mask
        shifts = self._shifts
        while c >> m:
            h = c >> m
            c &= mask
            for k in shifts:
                c ^= h << k
        return c

    @staticmethod
    def add(a: int, b: int) -> int:
        return a ^ b

    def mul(self, a: int, b: int) -> int:
        return self.reduce(self._clmul(a, b))

    def sqr(self, a: int) -> int:
        return self.reduce(spread(a))

    def sqr_k(self, a: int, k: int) -> int:
        """a^(2^k) by k squarings."""
        for _ in range(k):
            a = self.reduce(spread(a))
        return a

    def sqrt(self, a: int) -> int:
        """√a = even(a) + √x · odd(a) (seed 000 §2)."""
        even, odd = deinterleave(a)
        if self._sqrt_x_shifts is None:
            return self.reduce(even ^ self._clmul(odd, self.sqrt_x))
        acc = even
        for k in self._sqrt_x_shifts:
            acc ^= odd << k
        return self.reduce(acc)

    def sqrt_k(self, a: int, k: int) -> int:
        """a^(2^-k) by k square roots."""
        for _ in range(k):
            a = self.sqrt(a)
        return a

    def inv(self, a: int) -> int:
        """Itoh–Tsujii inversion by ``self.chain``."""
        if a == 0:
            raise ZeroDivisionError("inverse of 0 in F_2^m")
        return self.chain.run(self, a)

    def inv_euclid(self, a: int) -> int:
        """Inversion by the extended Euclidean algorithm (an independent check of :meth:`inv`)."""
        if a == 0:
            raise ZeroDivisionError("inverse of 0 in F_2^m")
        u, v = a, self.poly
        g1, g2 = 1, 0
        while u != 1:
            j = u.bit_length() - v.bit_length()
            if j < 0:
                u, v = v, u
                g1, g2 = g2, g1
                j = -j
            u ^= v << j
            g1 ^= g2 << j
        return self.reduce(g1)

    def pow(self, a: int, e: int) -> int:
        r = 1
        for bit in bin(e)[2:]:
            r = self.sqr(r)
            if bit == "1":
                r = self.mul(r, a)
        return r

    # -- trace and quadratic equations ------------------------------------------------------
    def _trace_mask(self) -> int:
        """Bits i with Tr(x^i) = 1, from Newton's identities on f (power sums of its roots).

        p_i = sum_{j=1}^{i-1} c_{m-j} p_{i-j} + i·c_{m-i} over F_2, with c the coefficients of f.
        """
        m = self.m
        coeff = [0] * (m + 1)
        for k in self._shifts + (m,):
            coeff[k] = 1
        p = [m & 1] + [0] * (m - 1)
        nz = [j for j in range(1, m) if coeff[m - j]]
        for i in range(1, m):
            v = (i & 1) & coeff[m - i]
            for j in nz:
                if j >= i:
                    break
                v ^= p[i - j]
            p[i] = v
        return sum(1 << i for i in range(m) if p[i])

    def trace(self, a: int) -> int:
        """Absolute trace Tr(a) = sum a^(2^i), a linear form: the parity of a & trace_mask."""
        return (a & self.trace_mask).bit_count() & 1

    def trace_slow(self, a: int) -> int:
        t, y = 0, a
        for _ in range(self.m):
            t ^= y
            y = self.sqr(y)
        assert t in (0, 1)
        return t

    def half_trace(self, c: int) -> int:
        """H(c) = sum_{i=0}^{(m-1)/2} c^(2^(2i)) (m odd): H(c)^2 + H(c) = c + Tr(c)."""
        if self.m % 2 == 0:
            raise ValueError("half-trace needs odd m")
        h, y = c, c
        for _ in range((self.m - 1) // 2):
            y = self.sqr(self.sqr(y))
            h ^= y
        return h

    def solve_quadratic(self, c: int) -> int | None:
        """A root z of z^2 + z = c (the other is z + 1), or None when Tr(c) = 1."""
        if self.trace(c):
            return None
        return self.half_trace(c)

#: the old name of :func:`adikari12_chain_1223` (CHANGELOG.md)
seed000_chain_1223 = adikari12_chain_1223
