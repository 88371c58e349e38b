"""The prime field F_p and its quadratic extension F_{p^2} = F_p[u]/(u² − β).

Elements of F_p are Python ints in [0, p) (canonical form); F_{p^2} elements are pairs (a0, a1) =
a0 + a1·u.  Both fields have the same method names (``add``, ``sub``, ``neg``, ``mul``, ``sqr``,
``inv``, ``mul_int``...) so curve code runs over either, and every tower operation goes through the
base field object so that a counting field (:mod:`pairhw.math.opcount_p`) sees each F_p operation.

:class:`Montgomery` is plain word-level Montgomery multiplication (R = 2^k): the reference the
polynomial (t-adic) Montgomery multipliers of seed 002 (:mod:`pairhw.math.prime.polymont`) are checked
against.
"""

from __future__ import annotations

import random

from pairhw.math.curve import square_and_multiply
from pairhw.math.field import _NULL_PHASE, FieldError, parse_hex


def is_probable_prime(n: int, rounds: int = 32) -> bool:
    """Miller–Rabin with fixed bases from a seeded generator (deterministic answer)."""
    if n < 2:
        return False
    for q in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47):
        if n % q == 0:
            return n == q
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    rng = random.Random(n & 0xFFFFFFFF)
    for _ in range(rounds):
        x = pow(rng.randrange(2, n - 1), d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


class PrimeField:
    """F_p for an odd prime ``p``; elements are ints in [0, p)."""

    m = 1  # extension degree over the prime field (F_2^m and F_3^m give theirs)

    def __init__(self, p: int):
        if p < 3 or p % 2 == 0:
            raise ValueError("p must be an odd prime")
        self.p = p
        self.bits = p.bit_length()
        self.hex_digits = (self.bits + 3) // 4
        self.zero, self.one = 0, 1

    def __repr__(self) -> str:
        return f"PrimeField({self.bits}-bit p)"

    def phase(self, name):  # counting fields override this
        return _NULL_PHASE

    def step(self, name):
        """A step of the algorithm the model repeats (a Miller-loop iteration, a squaring of an
        exponentiation): the tracer cuts its program there (:attr:`pairhw.program.trace.Program.cuts`),
        other fields ignore it."""
        return _NULL_PHASE

    def poly_str(self) -> str:
        """The modulus as text (where F_2^m and F_3^m give their polynomial)."""
        return f"p = 0x{self.p:x}"

    # -- arithmetic ------------------------------------------------------------------------------
    def add(self, a, b):
        return (a + b) % self.p

    def sub(self, a, b):
        return (a - b) % self.p

    def neg(self, a):
        return -a % self.p

    def mul(self, a, b):
        return a * b % self.p

    def sqr(self, a):
        return a * a % self.p

    def mul_int(self, a, k: int):
        """a·k for a small integer constant k (shifts and adds in hardware, counted apart)."""
        return a * k % self.p

    def inv(self, a):
        if a % self.p == 0:
            raise ZeroDivisionError("inverse of 0 in F_p")
        return pow(a, -1, self.p)

    def pow(self, a, e: int):
        return pow(a, e, self.p)

    def eq(self, a, b) -> bool:
        return (a - b) % self.p == 0

    def is_zero(self, a) -> bool:
        return a % self.p == 0

    def is_square(self, a) -> bool:
        return a % self.p == 0 or pow(a, (self.p - 1) // 2, self.p) == 1

    def sqrt(self, a):
        """A square root of ``a`` (the even one of ±root), or None if a is not a square."""
        p = self.p
        a %= p
        if a == 0:
            return 0
        if not self.is_square(a):
            return None
        if p % 4 == 3:
            x = pow(a, (p + 1) // 4, p)
        else:  # Tonelli–Shanks
            q, s = p - 1, 0
            while q % 2 == 0:
                q //= 2
                s += 1
            z = 2
            while self.is_square(z):
                z += 1
            m, c, t, x = s, pow(z, q, p), pow(a, q, p), pow(a, (q + 1) // 2, p)
            while t != 1:
                i, t2 = 0, t
                while t2 != 1:
                    t2 = t2 * t2 % p
                    i += 1
                b = pow(c, 1 << (m - i - 1), p)
                m, c, t, x = i, b * b % p, t * b * b % p, x * b % p
        return x if x % 2 == 0 else p - x

    # -- encoding (docs/ARCHITECTURE.md: big-endian hex of the canonical integer) ---------------------------
    def from_hex(self, text: str) -> int:
        v = parse_hex(text)
        if v >= self.p:
            raise FieldError(f"{text!r} is not below p (F_p elements are canonical, in [0, p))")
        return v

    def to_hex(self, a: int) -> str:
        return format(a, f"0{self.hex_digits}x")


class Fp2:
    """F_{p^2} = F_p[u]/(u² − β) for a quadratic non-residue ``beta`` (a small int, often −1).

    Products use Karatsuba (3 F_p products), squarings the complex method (2 products).
    """

    def __init__(self, F: PrimeField, beta: int):
        if F.is_square(beta % F.p):
            raise ValueError(f"β = {beta} is a square mod p: u² − β is reducible")
        self.F = F
        self.p = F.p
        self.beta = beta
        self.zero, self.one = (0, 0), (1, 0)

    def __repr__(self) -> str:
        return f"Fp2(u² = {self.beta})"

    def phase(self, name):
        return self.F.phase(name)

    def step(self, name):
        return self.F.step(name)

    def _mul_beta(self, a):
        b = self.beta
        F = self.F
        if b == -1:
            return F.neg(a)
        return F.mul_int(a, b % self.p)

    def add(self, a, b):
        F = self.F
        return (F.add(a[0], b[0]), F.add(a[1], b[1]))

    def sub(self, a, b):
        F = self.F
        return (F.sub(a[0], b[0]), F.sub(a[1], b[1]))

    def neg(self, a):
        F = self.F
        return (F.neg(a[0]), F.neg(a[1]))

    def mul(self, a, b):
        """(a0 + a1u)(b0 + b1u) = (v0 + β v1) + ((a0 + a1)(b0 + b1) − v0 − v1)u."""
        F = self.F
        v0 = F.mul(a[0], b[0])
        v1 = F.mul(a[1], b[1])
        s = F.mul(F.add(a[0], a[1]), F.add(b[0], b[1]))
        return (F.add(v0, self._mul_beta(v1)), F.sub(F.sub(s, v0), v1))

    def sqr(self, a):
        """Complex squaring: c1 = 2a0a1, c0 = (a0 + a1)(a0 + βa1) − (1 + β)a0a1; for β = −1,
        c0 = (a0 + a1)(a0 − a1) and c1 = (2a0)·a1, no addition after the two products (a core's
        chains of squarings wait for the product, not for its additions)."""
        F = self.F
        if self.beta == -1:
            return (F.mul(F.add(a[0], a[1]), F.sub(a[0], a[1])), F.mul(F.add(a[0], a[0]), a[1]))
        v = F.mul(a[0], a[1])
        t = F.mul(F.add(a[0], a[1]), F.add(a[0], self._mul_beta(a[1])))
        c0 = F.sub(t, F.add(v, self._mul_beta(v)))
        return (c0, F.add(v, v))

    def mul_fp(self, a, k):
        """a·k for k in F_p."""
        F = self.F
        return (F.mul(a[0], k), F.mul(a[1], k))

    def mul_int(self, a, k: int):
        F = self.F
        return (F.mul_int(a[0], k), F.mul_int(a[1], k))

    def conj(self, a):
        """a^p = a0 − a1u (u^p = −u as β is a non-residue)."""
        return (a[0], self.F.neg(a[1]))

    def norm(self, a):
        F = self.F
        return F.sub(F.sqr(a[0]), self._mul_beta(F.sqr(a[1])))

    def inv(self, a):
        F = self.F
        n = F.inv(self.norm(a))
        return (F.mul(a[0], n), F.neg(F.mul(a[1], n)))

    def pow(self, a, e: int):
        return square_and_multiply(a, e, self.one, self.sqr, self.mul)

    def eq(self, a, b) -> bool:
        return self.F.eq(a[0], b[0]) and self.F.eq(a[1], b[1])

    def is_zero(self, a) -> bool:
        return self.F.is_zero(a[0]) and self.F.is_zero(a[1])

    def is_square(self, a) -> bool:
        return self.F.is_square(self.norm(a))

    def sqrt(self, a):
        """A square root in F_{p^2} via the norm (a0 + a1u = (x + yu)²), or None."""
        F = self.F
        p = self.p
        a0, a1 = a[0] % p, a[1] % p
        if a1 == 0:
            r = F.sqrt(a0)
            if r is not None:
                return (r, 0)
            r = F.sqrt(a0 * pow(self.beta, -1, p) % p)  # a0 = β·y²
            return (0, r)
        n = F.sqrt(self.norm(a))
        if n is None:
            return None
        inv2 = pow(2, -1, p)
        for nn in (n, p - n):
            x2 = (a0 + nn) * inv2 % p
            x = F.sqrt(x2)
            if x is not None and x != 0:
                y = a1 * pow(2 * x, -1, p) % p
                if self.eq(self.sqr((x, y)), (a0, a1)):
                    return (x, y)
        return None

    def from_ints(self, a0: int, a1: int):
        return (a0 % self.p, a1 % self.p)


class Montgomery:
    """Word-level Montgomery multiplication mod p with R = 2^k, k = 64·⌈bits(p)/64⌉.

    ``mul(aR, bR) = abR mod p``: the plain reference seed 002's polynomial form is checked against.
    """

    def __init__(self, p: int, word: int = 64):
        self.p = p
        self.k = word * -(-p.bit_length() // word)
        self.R = 1 << self.k
        self.pinv = -pow(p, -1, self.R) % self.R

    def to_mont(self, a: int) -> int:
        return a * self.R % self.p

    def from_mont(self, a: int) -> int:
        return self.redc(a)

    def redc(self, T: int) -> int:
        m = (T % self.R) * self.pinv % self.R
        t = (T + m * self.p) >> self.k
        return t - self.p if t >= self.p else t

    def mul(self, a: int, b: int) -> int:
        return self.redc(a * b)
