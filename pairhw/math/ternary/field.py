"""Ternary fields F_3^m = F_3[x]/(f) in polynomial basis, f = x^m + c_k·x^k + c_0 a trinomial.

Representation (Python model)
    An element is an int holding one trit per 16-bit slot: bits 16i..16i+15 hold a_i ∈ {0, 1, 2},
    the coefficient of x^i.  Slots leave room for carries, so a product is one big-integer product
    (Kronecker substitution: slot sums stay below 4m < 2^16) followed by a slot-wise reduction mod 3
    (256 ≡ 1 mod 3, so a slot's value is the sum of its two bytes mod 3: ``bytes.translate``) and a
    fold by x^m ≡ −c_k·x^k − c_0.  This is only the model's storage.

Hardware encoding (documented in :mod:`pairhw.params`)
    Each trit in two bits (h, l): 0 = 00, 1 = 01, 2 = 10 (11 unused); an element is two m-bit
    words H and L with bit i of L set iff a_i = 1 and bit i of H set iff a_i = 2.  Negation swaps the
    words; addition is six bitwise operations (:func:`add_hl`, Kawahara et al.'s formula, checked on
    all nine trit pairs by the tests).  :meth:`GF3m.to_hl` / :meth:`GF3m.from_hl` convert.

Text form (CLI)
    A string of m characters 0/1/2, coefficient of x^(m−1) first.

Cubing is linear: a(x)³ = Σ a_i x^(3i), reduced.  Cube root: write a = A0(x³) + x·A1(x³) + x²·A2(x³),
then ∛a = A0(x) + x^(1/3)·A1(x) + x^(2/3)·A2(x) with the fixed elements x^(1/3) = x^(3^(m−1)) and
x^(2/3) = (x^(1/3))²; for trinomials they are sparse (Barreto, "A note on efficient computation of
cube roots in characteristic 3", 2004; Ahmadi and Rodríguez-Henríquez 2009), :attr:`GF3m.cbrt_weights`
reports how sparse.  Inversion is Itoh–Tsujii: a^(−1) = (β_(m−1)³)²·a with β_k = a^((3^k−1)/2),
β_(j+k) = β_j^(3^k)·β_k, along the binary chain of m − 1.
"""

from __future__ import annotations

import random as _random

from pairhw.math.curve import square_and_multiply
from pairhw.math.field import _NULL_PHASE, FieldError

_MOD3 = bytes(v % 3 for v in range(256))
_TO_CHAR = bytes((48 + v) if v < 3 else 63 for v in range(256))  # 0/1/2 -> '0'/'1'/'2'
_FROM_CHAR = bytes((v - 48) if 48 <= v <= 50 else 255 for v in range(256))

W = 16  # bits per trit slot


def add_hl(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    """Trit-wise sum of two elements in the two-word encoding (H, L): six bitwise operations.

    With t = (a_l | b_h) ^ (a_h | b_l): c_l = (a_h | b_h) ^ t and c_h = (a_l | b_l) ^ t
    (Kawahara, Aoki, Takagi, "Faster implementation of ηT pairing over GF(3^m) using minimum number of
    logical instructions for GF(3)-addition", Pairing 2008)."""
    ah, al = a
    bh, bl = b
    t = (al | bh) ^ (ah | bl)
    return ((al | bl) ^ t, (ah | bh) ^ t)


def _slots_mask(n: int) -> int:
    return int.from_bytes(b"\xff\x00" * n, "little")


def _poly3_mod(a: list[int], f: list[int]) -> list[int]:
    a = a[:]
    df = len(f) - 1
    inv_lead = f[-1]  # 1 or 2 is its own inverse mod 3
    for i in range(len(a) - 1, df - 1, -1):
        c = a[i] * inv_lead % 3
        if c:
            for j in range(df + 1):
                a[i - df + j] = (a[i - df + j] - c * f[j]) % 3
    a = a[:df] if df else []
    while a and a[-1] == 0:
        a.pop()
    return a


def _poly3_gcd(a: list[int], b: list[int]) -> list[int]:
    while b:
        a, b = b, _poly3_mod(a, b)
    return a


def _prime_factors(n: int) -> list[int]:
    out, d = [], 2
    while d * d <= n:
        if n % d == 0:
            out.append(d)
            while n % d == 0:
                n //= d
        d += 1
    if n > 1:
        out.append(n)
    return out


class GF3m:
    """F_3[x]/(x^m + ck·x^k + c0), ck, c0 ∈ {1, 2}, 0 < k < m.

    Parameters
    ----------
    m, k : int
        Degree and middle exponent of the trinomial.
    ck, c0 : int
        Its middle and constant coefficients (x^97 + x^12 + 2 is ``GF3m(97, 12, 1, 2)``).
    """

    def __init__(self, m: int, k: int, ck: int = 1, c0: int = 2, check: bool = True):
        if not (2 <= m <= 4000 and 0 < k < m and ck in (1, 2) and c0 in (1, 2)):
            raise ValueError("need 2 <= m <= 4000, 0 < k < m, coefficients 1 or 2")
        self.m, self.k, self.ck, self.c0 = m, k, ck, c0
        self.nbytes = 2 * m
        self.mask = (1 << (W * m)) - 1
        self._lomasks: dict[int, int] = {}
        self._negk, self._neg0 = (-ck) % 3, (-c0) % 3
        self.ONE, self.ZERO = 1, 0
        self.X = 1 << W
        if check and not self.is_irreducible():
            raise ValueError(f"{self.poly_str()} is not irreducible over F_3")
        x13 = self.X
        for _ in range(m - 1):
            x13 = self.cube(x13)
        self.x13 = x13                     # x^(1/3) = x^(3^(m-1))
        self.x23 = self.mul(x13, x13)      # x^(2/3)
        self.cbrt_weights = (self.weight(self.x13), self.weight(self.x23))

    # -- op counting hooks (no-ops here; see pairhw.math.opcount) ---------------------------------
    def phase(self, name: str):
        """Context manager naming the phase that following operations belong to."""
        return _NULL_PHASE

    def mark(self, label: str) -> None:
        """Mark a loop-iteration boundary (no-op; :mod:`pairhw.program.trace` folds loops at marks)."""

    # -- description -------------------------------------------------------------------------------
    def poly_str(self) -> str:
        mid = f"x^{self.k}" if self.ck == 1 else f"2x^{self.k}"
        return f"x^{self.m} + {mid} + {self.c0}"

    def __repr__(self) -> str:
        return f"GF3m({self.poly_str()})"

    def is_irreducible(self) -> bool:
        """Rabin's test: x^(3^m) ≡ x (mod f) and gcd(x^(3^(m/p)) − x, f) = 1 for primes p | m."""
        def x_pow_3k(k):
            a = self.X
            for _ in range(k):
                a = self.cube(a)
            return a

        if x_pow_3k(self.m) != self.X:
            return False
        f = [0] * (self.m + 1)
        f[0], f[self.k], f[self.m] = self.c0, self.ck, 1
        for p in _prime_factors(self.m):
            g = self.to_list(self.sub(x_pow_3k(self.m // p), self.X))
            while g and g[-1] == 0:
                g.pop()
            if len(_poly3_gcd(f, g)) > 1:
                return False
        return True

    # -- conversions --------------------------------------------------------------------------------
    def to_list(self, a: int) -> list[int]:
        """Trits a_0 .. a_(m−1)."""
        return list(a.to_bytes(self.nbytes, "little")[0::2])

    def from_list(self, trits) -> int:
        out = bytearray(self.nbytes)
        out[0::2] = bytes(t % 3 for t in trits)
        return int.from_bytes(out, "little")

    def to_trits(self, a: int) -> str:
        """m characters 0/1/2, coefficient of x^(m−1) first."""
        return a.to_bytes(self.nbytes, "little")[0::2][::-1].translate(_TO_CHAR).decode()

    def from_trits(self, text: str) -> int:
        s = text.strip()
        if len(s) != self.m:
            raise FieldError(f"expected {self.m} trits (0/1/2), got {len(s)} character{'' if len(s) == 1 else 's'}")
        raw = s.encode("ascii", "replace").translate(_FROM_CHAR)
        if 255 in raw:
            bad = next(c for c in s if c not in "012")
            raise FieldError(f"not a trit string: {bad!r} is not 0, 1 or 2")
        out = bytearray(self.nbytes)
        out[0::2] = raw[::-1]
        return int.from_bytes(out, "little")

    def to_hl(self, a: int) -> tuple[int, int]:
        """The hardware encoding (H, L): bit i of L iff a_i = 1, bit i of H iff a_i = 2."""
        h = l = 0
        for i, t in enumerate(self.to_list(a)):
            if t == 1:
                l |= 1 << i
            elif t == 2:
                h |= 1 << i
        return h, l

    def from_hl(self, hl: tuple[int, int]) -> int:
        h, l = hl
        if h & l:
            raise FieldError("invalid trit encoding 11")
        if (h | l) >> self.m:
            raise FieldError(f"encoding wider than m = {self.m}")
        return self.from_list([2 if (h >> i) & 1 else (l >> i) & 1 for i in range(self.m)])

    def from_int(self, v: int) -> int:
        """The element whose trits are the base-3 digits of v (a_0 least significant)."""
        trits = []
        for _ in range(self.m):
            v, t = divmod(v, 3)
            trits.append(t)
        return self.from_list(trits)

    def const(self, c: int) -> int:
        return c % 3

    def weight(self, a: int) -> int:
        return sum(1 for t in self.to_list(a) if t)

    def random(self, rng: _random.Random) -> int:
        return self.from_list([rng.randrange(3) for _ in range(self.m)])

    # -- slot arithmetic ----------------------------------------------------------------------------
    def _norm(self, c: int) -> int:
        """Slot values (non-negative, < 2^16) reduced mod 3: a slot's value is the sum of its two
        bytes mod 3 (256 ≡ 1), so two byte translations and one add."""
        n = 2 * ((c.bit_length() + W - 1) // W)
        lo = self._lomasks.get(n)
        if lo is None:
            lo = self._lomasks[n] = _slots_mask(n // 2)
        t = int.from_bytes(c.to_bytes(n, "little").translate(_MOD3), "little")
        s = (t & lo) + ((t >> 8) & lo)
        return int.from_bytes(s.to_bytes(n, "little").translate(_MOD3), "little")

    def _small(self, c: int) -> int:
        """Reduce slots holding at most 255 mod 3 (sums of a few canonical elements)."""
        return int.from_bytes(c.to_bytes(self.nbytes, "little").translate(_MOD3), "little")

    def reduce(self, c: int) -> int:
        """A polynomial with reduced trits, folded modulo f by x^m ≡ −c_k·x^k − c_0.  A fold at most
        multiplies the slot bound by 5, so slots are renormalised every third fold."""
        Wm, Wk = W * self.m, W * self.k
        folds = 0
        while c >> Wm:
            h = c >> Wm
            c = (c & self.mask) + self._negk * (h << Wk) + self._neg0 * h
            folds += 1
            if folds % 3 == 0:
                c = self._norm(c)
        return self._small(c) if folds % 3 else c

    # -- field operations ---------------------------------------------------------------------------
    def add(self, a: int, b: int) -> int:
        return self._small(a + b)

    def sub(self, a: int, b: int) -> int:
        return self._small(a + 2 * b)

    def neg(self, a: int) -> int:
        return self._small(2 * a)

    def mul(self, a: int, b: int) -> int:
        return self.reduce(self._norm(a * b))

    def sqr(self, a: int) -> int:
        return self.mul(a, a)

    def cube(self, a: int) -> int:
        """a³ = Σ a_i x^(3i) mod f (a linear map)."""
        src = a.to_bytes(self.nbytes, "little")
        out = bytearray(3 * self.nbytes)
        out[0::6] = src[0::2]
        return self.reduce(int.from_bytes(out, "little"))

    def cube_k(self, a: int, k: int) -> int:
        for _ in range(k):
            a = self.cube(a)
        return a

    def _thirds(self, a: int) -> tuple[int, int, int]:
        src = a.to_bytes(self.nbytes, "little")
        parts = []
        for j in range(3):
            sel = src[2 * j::6]
            out = bytearray(2 * len(sel))
            out[0::2] = sel
            parts.append(int.from_bytes(out, "little"))
        return parts[0], parts[1], parts[2]

    def cbrt(self, a: int) -> int:
        """∛a = A0 + x^(1/3)·A1 + x^(2/3)·A2 (module docstring)."""
        a0, a1, a2 = self._thirds(a)
        return self._small(a0 + self.mul(self.x13, a1) + self.mul(self.x23, a2))

    def cbrt_k(self, a: int, k: int) -> int:
        for _ in range(k):
            a = self.cbrt(a)
        return a

    def pow(self, a: int, e: int) -> int:
        if e < 0:
            return self.pow(self.inv(a), -e)
        return square_and_multiply(a, e, 1, self.sqr, self.mul)

    def inv(self, a: int) -> int:
        """Itoh–Tsujii (module docstring); raises ZeroDivisionError on 0."""
        if a == 0:
            raise ZeroDivisionError("inverse of 0 in F_3^m")
        return itoh_tsujii3(self, a)

    def sqrt(self, a: int) -> int | None:
        """A square root (a^((3^m+1)/4), 3^m ≡ 3 mod 4 for odd m), or None if a is a non-square."""
        if self.m % 2 == 0:
            raise NotImplementedError("square roots implemented for odd m")
        y = self.pow(a, (3 ** self.m + 1) // 4)
        return y if self.mul(y, y) == a else None


def itoh_tsujii3(F, a):
    """a^(−1) in F_3^m with m − 2 + 2 cubings and about log2(m) + 2 products, run through F's own
    (possibly counting) ``mul`` and ``cube_k``: β_k = a^((3^k − 1)/2), β_(2j) = β_j^(3^j)·β_j,
    β_(j+1) = β_j³·a, and a^(−1) = (β_(m−1)³)²·a."""
    n = F.m - 1
    beta, k = a, 1
    for bit in bin(n)[3:]:
        beta = F.mul(F.cube_k(beta, k), beta)
        k *= 2
        if bit == "1":
            beta = F.mul(F.cube(beta), a)
            k += 1
    c = F.cube(beta)
    return F.mul(F.mul(c, c), a)
