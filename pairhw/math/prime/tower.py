"""The tower F_{p^2} ⊂ F_{p^6} ⊂ F_{p^12} of BN and BLS12 pairings.

    F_{p^2}  = F_p[u]/(u² − β)            (β a non-residue, −1 for every set here)
    F_{p^6}  = F_{p^2}[v]/(v³ − ξ)          (ξ ∈ F_{p^2} neither a square nor a cube)
    F_{p^12} = F_{p^6}[w]/(w² − v)          (so w⁶ = ξ)

An F_{p^6} element is a triple (g0, g1, g2) = g0 + g1·v + g2·v² of F_{p^2} pairs; an F_{p^12}
element a pair (g, h) = g + h·w.  The 12 F_p coefficients, in the order :meth:`Tower12.flatten`
gives and ``pairhw pair --json`` prints, are those of the basis
1, u, v, uv, v², uv², w, uw, vw, uvw, v²w, uv²w.

With β = −1 and ξ = 9 + u (BN254) or ξ = 1 + u (BLS12-381) this w is the generator py_ecc uses
(w¹² − 2·Re(ξ)·w⁶ + |ξ|² = 0), so values convert one to one.

The Frobenius constants γ_{k,j} = ξ^(j(p^k − 1)/6) are computed here from ξ, not typed in:
writing a = Σ a_j w^j (j = 0..5, a_j ∈ F_{p^2}), a^(p^k) = Σ π^k(a_j)·γ_{k,j}·w^j.
"""

from __future__ import annotations

from pairhw.math.curve import signed_window_pow, square_and_multiply
from pairhw.math.field import stepped
from pairhw.math.prime.field import Fp2


class Tower12:
    """Arithmetic in F_{p^6} and F_{p^12} over ``K`` = F_{p^2} (an :class:`Fp2`) with ``xi``."""

    def __init__(self, K: Fp2, xi):
        self.K = K
        self.F = K.F
        self.p = K.p
        self.xi = K.from_ints(*xi)
        p = self.p
        if (p - 1) % 6:
            raise ValueError("p ≢ 1 (mod 6): no sextic twist tower")
        if K.is_square(self.xi) or self._is_cube(self.xi):
            raise ValueError(f"ξ = {xi} is a square or a cube in F_p^2: the tower is reducible")
        self.ONE6 = (K.one, K.zero, K.zero)
        self.ZERO6 = (K.zero, K.zero, K.zero)
        self.ONE = (self.ONE6, self.ZERO6)
        # γ_{k,j} for k = 1, 2, 3 (higher powers compose)
        self.gamma = {k: [K.pow(self.xi, j * (p ** k - 1) // 6) for j in range(6)] for k in (1, 2, 3)}

    def _is_cube(self, a) -> bool:
        K = self.K
        return K.eq(K.pow(a, (self.p ** 2 - 1) // 3), K.one)

    # -- multiplication by ξ (a few additions: ξ = c + u) -------------------------------------
    def mul_xi(self, a):
        """a·ξ with ξ = x0 + x1·u: small-constant products, no general F_p product."""
        K, F = self.K, self.F
        x0, x1 = self.xi
        if x1 == 1:  # ξ = x0 + u: (a0 + a1u)(x0 + u) = (x0·a0 + β a1) + (a0 + x0·a1)u
            ta0 = F.mul_int(a[0], x0) if x0 != 1 else a[0]
            ta1 = F.mul_int(a[1], x0) if x0 != 1 else a[1]
            return (F.add(ta0, K._mul_beta(a[1])), F.add(a[0], ta1))
        return K.mul(a, self.xi)

    # -- F_{p^6} -----------------------------------------------------------------------------
    def add6(self, a, b):
        add = self.K.add
        return (add(a[0], b[0]), add(a[1], b[1]), add(a[2], b[2]))

    def sub6(self, a, b):
        sub = self.K.sub
        return (sub(a[0], b[0]), sub(a[1], b[1]), sub(a[2], b[2]))

    def neg6(self, a):
        neg = self.K.neg
        return (neg(a[0]), neg(a[1]), neg(a[2]))

    def mul6(self, a, b):
        """Karatsuba over three terms: 6 F_{p^2} products (Devegili et al. 2006, §4)."""
        K = self.K
        v0 = K.mul(a[0], b[0])
        v1 = K.mul(a[1], b[1])
        v2 = K.mul(a[2], b[2])
        t12 = K.sub(K.sub(K.mul(K.add(a[1], a[2]), K.add(b[1], b[2])), v1), v2)
        t01 = K.sub(K.sub(K.mul(K.add(a[0], a[1]), K.add(b[0], b[1])), v0), v1)
        t02 = K.sub(K.sub(K.mul(K.add(a[0], a[2]), K.add(b[0], b[2])), v0), v2)
        c0 = K.add(v0, self.mul_xi(t12))
        c1 = K.add(t01, self.mul_xi(v2))
        c2 = K.add(t02, v1)
        return (c0, c1, c2)

    def sqr6(self, a):
        """Chung–Hasan SQR2: 2 products + 3 squarings in F_{p^2}."""
        K = self.K
        s0 = K.sqr(a[0])
        ab = K.mul(a[0], a[1])
        s1 = K.add(ab, ab)
        s2 = K.sqr(K.add(K.sub(a[0], a[1]), a[2]))
        bc = K.mul(a[1], a[2])
        s3 = K.add(bc, bc)
        s4 = K.sqr(a[2])
        c0 = K.add(s0, self.mul_xi(s3))
        c1 = K.add(s1, self.mul_xi(s4))
        c2 = K.sub(K.sub(K.add(K.add(s1, s2), s3), s0), s4)
        return (c0, c1, c2)

    def mul6_v(self, a):
        """a·v = ξ·a2 + a0·v + a1·v²."""
        return (self.mul_xi(a[2]), a[0], a[1])

    def adj6(self, a):
        """(adj, t) with a·adj = t ∈ F_{p^2} (the norm of a to F_{p^2}): a⁻¹ = adj/t."""
        K = self.K
        c0 = K.sub(K.sqr(a[0]), self.mul_xi(K.mul(a[1], a[2])))
        c1 = K.sub(self.mul_xi(K.sqr(a[2])), K.mul(a[0], a[1]))
        c2 = K.sub(K.sqr(a[1]), K.mul(a[0], a[2]))
        t = K.add(K.mul(a[0], c0), self.mul_xi(K.add(K.mul(a[2], c1), K.mul(a[1], c2))))
        return (c0, c1, c2), t

    def inv6(self, a):
        K = self.K
        (c0, c1, c2), t = self.adj6(a)
        ti = K.inv(t)
        return (K.mul(c0, ti), K.mul(c1, ti), K.mul(c2, ti))

    def scale12(self, a, c):
        """a·c for c in F_{p^6} (a triple: two F_{p^6} products) or in F_{p^2} (a pair: six F_{p^2}
        products)."""
        if len(c) == 3:
            return (self.mul6(a[0], c), self.mul6(a[1], c))
        K = self.K
        return tuple(tuple(K.mul(x, c) for x in six) for six in a)

    def scale12_fp(self, a, k):
        """a·k for k in F_p: 12 F_p products."""
        K = self.K
        return tuple(tuple(K.mul_fp(x, k) for x in six) for six in a)

    # -- F_{p^12} ----------------------------------------------------------------------------
    def add12(self, a, b):
        return (self.add6(a[0], b[0]), self.add6(a[1], b[1]))

    def mul12(self, a, b):
        """Karatsuba: 3 F_{p^6} products (18 F_{p^2} products)."""
        return self._karatsuba12(a, b, self.mul6, self.add6)

    def _karatsuba12(self, a, b, mul6, add6):
        """(g + h·w)(g' + h'·w) = gg' + hh'·v + ((g + h)(g' + h') − gg' − hh')·w, with the F_{p^6}
        product and sum of the second operand's halves given (full, or sparse for lines)."""
        v0 = mul6(a[0], b[0])
        v1 = mul6(a[1], b[1])
        t = mul6(self.add6(a[0], a[1]), add6(b[0], b[1]))
        return (self.add6(v0, self.mul6_v(v1)), self.sub6(self.sub6(t, v0), v1))

    def sqr12(self, a):
        """Complex squaring: 2 F_{p^6} products."""
        g, h = a
        v = self.mul6(g, h)
        t = self.mul6(self.add6(g, h), self.add6(g, self.mul6_v(h)))
        c0 = self.sub6(self.sub6(t, v), self.mul6_v(v))
        return (c0, self.add6(v, v))

    def _fp4_sqr(self, a, b):
        """(a + b·y)² in F_p⁴ = F_p²[y]/(y² − ξ): 3 F_p² squarings; 2ab = (a + b)² − (a² + b²)."""
        K = self.K
        t0, t1 = K.sqr(a), K.sqr(b)
        return K.add(self.mul_xi(t1), t0), K.sub(K.sqr(K.add(a, b)), K.add(t0, t1))

    def cyclotomic_sqr12(self, a, k=None):
        """a² for a in the cyclotomic subgroup (a^(p⁴ − p² + 1) = 1: after the easy part of the final
        exponentiation): Granger–Scott (PKC 2010, §3.1), three F_p⁴ squarings, 9 F_p² squarings
        (18 F_p products) against :meth:`sqr12`'s 12 F_p² products.  With a = Σ a_j w^j, the pairs
        (a_0, a_3), (a_1, a_4), (a_2, a_5) are F_p⁴ elements in y = w³ (y² = v³ = ξ).

        With ``k`` ∈ F_p: a = k·g for g in the cyclotomic subgroup, and the result is k²·g².  Each
        output is 3t ± 2z with t quadratic in a's coefficients z, so the linear terms take the factor
        once more: 3t ± 2k·z (12 F_p products more, beside the squarings, not after them)."""
        K = self.K
        (z0, z4, z3), (z2, z1, z5) = a

        def lin(z):  # the linear term's 2z (2k·z for a scaled element)
            z = z if k is None else K.mul_fp(z, k)
            return K.add(z, z)

        # 3t ± 2z as 2t + (t ± 2z): two additions after t (2z does not wait for t)
        def three_minus_two(t, z):
            return K.add(K.add(t, t), K.sub(t, lin(z)))

        def three_plus_two(t, z):
            return K.add(K.add(t, t), K.add(t, lin(z)))

        t0, t1 = self._fp4_sqr(z0, z1)
        n0, n1 = three_minus_two(t0, z0), three_plus_two(t1, z1)
        t0, t1 = self._fp4_sqr(z2, z3)
        t2, t3 = self._fp4_sqr(z4, z5)
        n4, n5 = three_minus_two(t0, z4), three_plus_two(t1, z5)
        n2, n3 = three_plus_two(self.mul_xi(t3), z2), three_minus_two(t2, z3)
        return ((n0, n4, n3), (n2, n1, n5))

    def pow12_cyclotomic(self, a, e: int):
        """a^e for a in the cyclotomic subgroup, with :meth:`cyclotomic_sqr12` over the signed
        window form of |e| whose odd-power table and digits need the fewest products (inverses are
        conjugates, free); e of either sign (a negative e conjugates)."""
        if e == 0:
            return self.ONE
        step = self.K.step  # each squaring and product a step (Program.cuts)
        mul = stepped(step, "mul", self.mul12)
        # a tracer for a core with table copies (Tracer.copies; the model's own field has none)
        copied = self._copier("copies")
        if copied is not None:
            product = mul

            def mul(r, t):
                # the table entry copied in a step of its own: every product step then reads the
                # same registers, whichever odd power it multiplies by, and is stored once
                return product(r, copied(t))
        r = signed_window_pow(a, abs(e), stepped(step, "sqr", self.cyclotomic_sqr12), mul, self.conj12)
        return self.conj12(r) if e < 0 else r

    def kept12(self, a):
        """``a`` for a read long after it was made (a power the BLS12 hard part keeps for its last
        products): on a tracer with ``kept_copies`` (a datapath's) a copy of each coefficient, in a
        step of its own, so the long-lived value is read by the copies alone and the LUT RAM copies
        of the ports that read it late stay shallow; else ``a`` itself (the model: no op)."""
        copied = self._copier("kept_copies")
        return a if copied is None else copied(a)

    def _copier(self, flag: str):
        """On a tracer with ``flag`` set (``copies``, ``kept_copies``): a function copying an element
        coefficient by coefficient (``F.copy``) in a step of its own; None on any other field."""
        copy = getattr(self.F, "copy", None) if getattr(self.F, flag, False) else None
        if copy is None:
            return None

        def copied(a):
            with self.K.step("load"):
                return tuple(tuple((copy(x[0]), copy(x[1])) for x in six) for six in a)
        return copied

    def conj12(self, a):
        """a^(p^6) = g − h·w: the inverse of a unitary (cyclotomic) element."""
        return (a[0], self.neg6(a[1]))

    def inv12(self, a):
        g, h = a
        t = self.sub6(self.sqr6(g), self.mul6_v(self.sqr6(h)))
        ti = self.inv6(t)
        return (self.mul6(g, ti), self.neg6(self.mul6(h, ti)))

    def frob12(self, a, k: int = 1):
        """a^(p^k) (k = 1, 2, 3), with the derived constants γ_{k,j}."""
        K = self.K
        g, h = a
        coeffs = [g[0], h[0], g[1], h[1], g[2], h[2]]  # a_j of w^j, j = 0..5
        gam = self.gamma[k]
        out = []
        for j, c in enumerate(coeffs):
            cj = c if k % 2 == 0 else K.conj(c)
            out.append(cj if j == 0 else K.mul(cj, gam[j]))
        return ((out[0], out[2], out[4]), (out[1], out[3], out[5]))

    def pow12(self, a, e: int):
        """a^e by left-to-right square and multiply (e ≥ 0)."""
        return square_and_multiply(a, e, self.ONE, self.sqr12, self.mul12)

    def pow12_unitary(self, a, e: int):
        """a^e for a unitary a (a^(p^6+1) = 1), e of either sign (negative: conjugate)."""
        r = self.pow12(a, abs(e))
        return self.conj12(r) if e < 0 else r

    # -- sparse products (lines have three of six F_{p^2} coefficients) -------------------------
    def mul6_sparse(self, a, b):
        """a·b for b = (b0, b1, b2) with ``None`` for a known zero: the shapes lines give cost
        3 (b0 or b1 alone) or 5 (b0, b1) F_{p^2} products instead of 6 (Aranha et al. 2011, §4)."""
        K = self.K
        nz = tuple(x is not None for x in b)
        if nz == (True, False, False):  # a·b0
            return tuple(K.mul(x, b[0]) for x in a)
        if nz == (False, True, False):  # a·b1·v
            return self.mul6_v(tuple(K.mul(x, b[1]) for x in a))
        if nz == (True, True, False):  # Karatsuba on a0, a1; a2·b0 and a2·b1 directly
            v0, v1 = K.mul(a[0], b[0]), K.mul(a[1], b[1])
            t01 = K.sub(K.sub(K.mul(K.add(a[0], a[1]), K.add(b[0], b[1])), v0), v1)
            return (K.add(v0, self.mul_xi(K.mul(a[2], b[1]))), t01, K.add(K.mul(a[2], b[0]), v1))
        return self.mul6(a, tuple(K.zero if x is None else x for x in b))

    def _add_sparse(self, a, b):
        K = self.K
        return tuple(y if x is None else x if y is None else K.add(x, y) for x, y in zip(a, b))

    def mul12_sparse(self, a, line):
        """a · ℓ for a line ℓ given as {j: c_j}, the F_{p^2} coefficients of w^j (three of six):
        Karatsuba over w with sparse F_{p^6} factors, 13 F_{p^2} products instead of 18 (the
        D-type line c0 + c1·w + c3·w³ and the M-type c0 + c2·w² + c3·w³ alike)."""
        c = [line.get(j) for j in range(6)]
        return self._karatsuba12(a, ((c[0], c[2], c[4]), (c[1], c[3], c[5])), self.mul6_sparse, self._add_sparse)

    def from_w(self, coeffs: dict):
        """The element Σ c_j w^j from F_{p^2} coefficients of w^0..w^5."""
        K = self.K
        c = [coeffs.get(j, K.zero) for j in range(6)]
        return ((c[0], c[2], c[4]), (c[1], c[3], c[5]))

    def eq12(self, a, b) -> bool:
        return self.flatten(a) == self.flatten(b)

    def is_one(self, a) -> bool:
        return self.eq12(a, self.ONE)

    def flatten(self, a) -> list[int]:
        """The 12 F_p coefficients of basis 1, u, v, uv, v², uv², w, uw, vw, uvw, v²w, uv²w."""
        p = self.p
        return [c % p for six in a for two in six for c in two]

    def unflatten(self, cs) -> tuple:
        c = [x % self.p for x in cs]
        two = [(c[i], c[i + 1]) for i in range(0, 12, 2)]
        return ((two[0], two[1], two[2]), (two[3], two[4], two[5]))

    def w_poly(self, a) -> list[int]:
        """Coefficients of a as a polynomial of degree < 12 in w over F_p (u = w⁶ − Re ξ, β = −1
        needs ξ = x0 + u): the representation of py_ecc's FQ12."""
        p = self.p
        x0, x1 = self.xi
        if self.K.beta != -1 or x1 != 1:
            raise ValueError("w_poly needs β = −1 and ξ = x0 + u")
        g, h = a
        coeffs = [g[0], h[0], g[1], h[1], g[2], h[2]]
        out = [0] * 12
        for j, (c0, c1) in enumerate(coeffs):
            # c0 + c1·u = c0 + c1·(w⁶ − x0)
            out[j] = (out[j] + c0 - c1 * x0) % p
            out[j + 6] = (out[j + 6] + c1) % p
        return out
