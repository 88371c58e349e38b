"""The tower F_2^m ⊂ F_{2^2m} ⊂ F_{2^4m} of seed 000 §3.3 and seed 001 §5.

F_{2^2m} = F_2^m[s]/(s² + s + 1) and F_{2^4m} = F_{2^2m}[t]/(t² + t + s) (seed 000 writes u, v).
An element of F_{2^2m} is a pair (a0, a1) = a0 + a1·s; an element of F_{2^4m} is a 4-tuple
(c0, c1, c2, c3) = c0 + c1·s + c2·t + c3·s·t (docs/ARCHITECTURE.md).

Every operation goes through the base field object's ``add``/``mul``/``sqr``/``sqrt`` so that a
counting field (:mod:`pairhw.math.opcount`) sees each F_2^m operation.

The Frobenius maps are not typed in: the action of x ↦ x^(2^k) on s, t, st is computed by running this
same tower over F_2 (where it is F_16) and read off as a 4×4 bit matrix.
"""

from __future__ import annotations



class _GF2:
    """F_2 with the field interface, so that the tower over it is F_16 = F_2(s, t)."""

    m = 1

    @staticmethod
    def add(a, b):
        return a ^ b

    @staticmethod
    def mul(a, b):
        return a & b

    @staticmethod
    def sqr(a):
        return a

    @staticmethod
    def sqr_k(a, k):
        return a

    @staticmethod
    def sqrt(a):
        return a

    @staticmethod
    def sqrt_k(a, k):
        return a

    @staticmethod
    def phase(name):
        from pairhw.math.field import _NULL_PHASE
        return _NULL_PHASE


class Tower:
    """Arithmetic in F_{2^2m} and F_{2^4m} over a base field ``F`` (a :class:`~pairhw.math.binary.field.GF2m`)."""

    ONE = (1, 0, 0, 0)

    def __init__(self, F):
        self.F = F
        self.m = F.m
        self._frob_cache: dict[int, tuple] = {}

    # -- F_{2^2m} ----------------------------------------------------------------------------
    def add2(self, a, b):
        add = self.F.add
        return (add(a[0], b[0]), add(a[1], b[1]))

    def mul2(self, a, b):
        """Karatsuba in F_{2^2m}: P0 = a0b0, P1 = (a0+a1)(b0+b1), P2 = a1b1;
        c = (P0 + P2) + (P1 + P0)s  (seed 000 §3.3): 3 Mul + 4 Add."""
        F = self.F
        p0 = F.mul(a[0], b[0])
        p2 = F.mul(a[1], b[1])
        p1 = F.mul(F.add(a[0], a[1]), F.add(b[0], b[1]))
        return (F.add(p0, p2), F.add(p1, p0))

    def sqr2(self, a):
        """(a0 + a1 s)² = (a0² + a1²) + a1² s: 2 Squ + 1 Add."""
        F = self.F
        s1 = F.sqr(a[1])
        return (F.add(F.sqr(a[0]), s1), s1)

    def mul_s(self, a):
        """s·(a0 + a1 s) = a1 + (a0 + a1)s: 1 Add."""
        return (a[1], self.F.add(a[0], a[1]))

    def conj2(self, a):
        """a^(2^m) in F_{2^2m} (s ↦ s + 1): (a0 + a1) + a1 s, 1 Add."""
        return (self.F.add(a[0], a[1]), a[1])

    def inv2(self, a):
        """Norm-based inversion in F_{2^2m}: a^-1 = ā / (a·ā), a·ā = a0² + a0a1 + a1² ∈ F_2^m."""
        F = self.F
        c = self.conj2(a)
        n = F.add(F.mul(a[0], c[0]), F.sqr(a[1]))
        ni = F.inv(n)
        return (F.mul(c[0], ni), F.mul(c[1], ni))

    # -- F_{2^4m} ----------------------------------------------------------------------------
    def add4(self, a, b):
        add = self.F.add
        return (add(a[0], b[0]), add(a[1], b[1]), add(a[2], b[2]), add(a[3], b[3]))

    def mul4(self, a, b):
        """Karatsuba over F_{2^2m} (seed 000 §3.3): 9 Mul + 21 Add.

        With A = A0 + A1 t, B = B0 + B1 t: P = A0B0, Q = (A0+A1)(B0+B1), R = A1B1,
        A·B = (P + s·R) + (Q + P)t, using t² = t + s.
        """
        A0, A1 = (a[0], a[1]), (a[2], a[3])
        B0, B1 = (b[0], b[1]), (b[2], b[3])
        P = self.mul2(A0, B0)
        R = self.mul2(A1, B1)
        Q = self.mul2(self.add2(A0, A1), self.add2(B0, B1))
        lo = self.add2(P, self.mul_s(R))
        hi = self.add2(Q, P)
        return (lo[0], lo[1], hi[0], hi[1])

    def mul4_schoolbook(self, a, b):
        """Independent check of :meth:`mul4`: 16 products, reduce s² = s+1, t² = t+s."""
        F = self.F
        # basis products e_i e_j in F_16 over (1, s, t, st), from the defining relations
        acc = [0, 0, 0, 0]
        for i in range(4):
            for j in range(4):
                p = F.mul(a[i], b[j])
                for k, bit in enumerate(_F16_BASIS_PRODUCTS[i][j]):
                    if bit:
                        acc[k] = F.add(acc[k], p)
        return tuple(acc)

    def sparse_mul(self, f, g0, g1):
        """f · (g0 + g1 s + t), the Miller-loop product of seed 000 §3.3: 6 Mul + 15 Add.

        (F0 + F1 t)(G + t) = (F0·G + s·F1) + (F1·G + F0 + F1)t with t² = t + s.
        (The extracted text of seed 000 prints the added terms differently; this form is derived
        from the tower and checked against :meth:`mul4` in the tests.)
        """
        F = self.F
        G = (g0, g1)
        lo = self.mul2((f[0], f[1]), G)
        hi = self.mul2((f[2], f[3]), G)
        f23 = F.add(f[2], f[3])
        lo = (F.add(lo[0], f[3]), F.add(lo[1], f23))
        hi = (F.add(hi[0], F.add(f[0], f[2])), F.add(hi[1], F.add(f[1], f[3])))
        return (lo[0], lo[1], hi[0], hi[1])

    def sqr4(self, a):
        """(c0 + c1 s + c2 t + c3 st)² = (c0²+c1²+c3²) + (c1²+c2²)s + (c2²+c3²)t + c3² st:
        4 Squ + 4 Add."""
        F = self.F
        q0, q1, q2, q3 = F.sqr(a[0]), F.sqr(a[1]), F.sqr(a[2]), F.sqr(a[3])
        return (F.add(F.add(q0, q1), q3), F.add(q1, q2), F.add(q2, q3), q3)

    def pow4(self, a, e: int):
        """Plain left-to-right square-and-multiply (the slow, obviously correct check)."""
        if e < 0:
            return self.pow4(self.inv4(a), -e)
        r = self.ONE
        for bit in bin(e)[2:]:
            r = self.sqr4(r)
            if bit == "1":
                r = self.mul4(r, a)
        return r

    # -- Frobenius ---------------------------------------------------------------------------
    def basis_frobenius(self, k: int):
        """4×4 bit matrix M with (e_i)^(2^k) = sum_j M[i][j] e_j for e = (1, s, t, st).

        Computed by squaring in F_16 (this tower over F_2); depends on k mod 4 only.
        """
        k %= 4
        if k not in self._frob_cache:
            t16 = Tower(_GF2())
            rows = []
            for i in range(4):
                e = tuple(1 if j == i else 0 for j in range(4))
                for _ in range(k):
                    e = t16.sqr4(e)
                rows.append(e)
            self._frob_cache[k] = tuple(rows)
        return self._frob_cache[k]

    def _apply_basis(self, coeffs, k):
        """sum_i coeffs[i]·(e_i)^(2^k), with coeffs already in F_2^m: Add count = matrix weight - 4."""
        F = self.F
        M = self.basis_frobenius(k)
        out = [None, None, None, None]
        for i in range(4):
            for j in range(4):
                if M[i][j]:
                    out[j] = coeffs[i] if out[j] is None else F.add(out[j], coeffs[i])
        return tuple(0 if o is None else o for o in out)

    def frobenius(self, a, k: int):
        """a^(2^k) by squaring each coefficient k times (k mod m) and fixing the basis."""
        kk = k % self.m
        F = self.F
        c = tuple(F.sqr_k(x, kk) for x in a) if kk else a
        return self._apply_basis(c, k)

    def frobenius_by_sqrt(self, a, k: int):
        """a^(2^k) with coefficient chains of m - k square roots, since c^(2^k) = c^(2^(k-m)) on
        F_2^m (seed 000 §4.2: the 2^612 power as four chains of 611 square roots)."""
        F = self.F
        n = (self.m - k) % self.m
        c = tuple(F.sqrt_k(x, n) for x in a) if n else a
        return self._apply_basis(c, k)

    def conj_q2(self, a):
        """a^(2^2m) (seed 000 Lemma 1(iii)): (c0 + c2) + (c1 + c3)s + c2 t + c3 st, 2 Add."""
        return self.frobenius(a, 2 * self.m)

    def frob_q(self, a):
        """a^(2^m) (seed 000 Lemma 1(ii) for m ≡ 3 mod 4)."""
        return self.frobenius(a, self.m)

    # -- inversion (seed 000 Alg. 3) ---------------------------------------------------------
    def inv4(self, a):
        """Norm-based inversion in F_{2^4m}, seed 000 Alg. 3: 14 Add + 3 Squ + 10 Mul + 1 Inv.

        R = A^(q²) (the conjugate over F_{2^2m}); S = A·R = A_lo·R_lo + s·A_hi² ∈ F_{2^2m};
        T = S^q; U = S·T ∈ F_2^m; V = U^-1; W = T·V; Z = R·W.
        """
        F = self.F
        # the zero check only applies to concrete values (a traced program has no branches)
        if all(isinstance(c, int) for c in a) and not any(a):
            raise ZeroDivisionError("inverse of 0 in F_{2^4m}")
        with F.phase("step1"):
            R = self.conj_q2(a)
        with F.phase("step2"):
            # s·(R2 + s R3)² = R3² + R2² s
            lo = self.mul2((a[0], a[1]), (R[0], R[1]))
            S = (F.add(lo[0], F.sqr(R[3])), F.add(lo[1], F.sqr(R[2])))
        with F.phase("step3"):
            T = self.conj2(S)
        with F.phase("step4"):
            U = F.add(F.mul(S[0], T[0]), F.sqr(S[1]))  # S1·T1 = S1²
        with F.phase("step5"):
            V = F.inv(U)
        with F.phase("step6"):
            W = (F.mul(T[0], V), F.mul(T[1], V))
        with F.phase("step7"):
            Z0 = self.mul2((R[0], R[1]), W)
            Z1 = self.mul2((R[2], R[3]), W)
        return (Z0[0], Z0[1], Z1[0], Z1[1])


def _basis_products():
    """e_i·e_j over (1, s, t, st) in F_16, by expanding monomials s^a t^b and rewriting
    t² → t + s and s² → s + 1 until every exponent is below 2 (independent of :meth:`Tower.mul4`)."""

    def reduce(monos):
        # monos: dict (a, b) -> bit, the polynomial sum s^a t^b over F_2
        while True:
            high = [k for k, v in monos.items() if v and (k[0] > 1 or k[1] > 1)]
            if not high:
                return monos
            a, b = high[0]
            monos[(a, b)] ^= 1
            if b > 1:  # t² = t + s
                repl = [(a, b - 1), (a + 1, b - 2)]
            else:  # s² = s + 1
                repl = [(a - 1, b), (a - 2, b)]
            for k in repl:
                monos[k] = monos.get(k, 0) ^ 1

    basis = [(0, 0), (1, 0), (0, 1), (1, 1)]  # 1, s, t, st
    table = []
    for ai, bi in basis:
        row = []
        for aj, bj in basis:
            r = reduce({(ai + aj, bi + bj): 1})
            row.append(tuple(r.get(k, 0) for k in basis))
        table.append(row)
    return table


_F16_BASIS_PRODUCTS = _basis_products()
