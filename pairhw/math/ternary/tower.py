"""The tower F_{3^6m} = F_{3^3m}[σ]/(σ² + 1), F_{3^3m} = F_3^m[ρ]/(ρ³ − ρ − b), b = ±1.

This is the tower of seed 004 and of Beuchat et al. (IEEE TC 57(11), 2008; TC 60(2), 2011).  An
element of F_{3^6m} is a 6-tuple of F_3^m elements (a0, ..., a5) in the basis

    1, σ, ρ, σρ, ρ², σρ²        (index 2i + j holds the coefficient of ρ^i σ^j),

so it is also V0 + V1·σ with V0 = (a0, a2, a4), V1 = (a1, a3, a5) in F_{3^3m}, and
A0 + A1·ρ + A2·ρ² with A_i = a_(2i) + a_(2i+1)·σ in F_{3^2m} = F_3^m[σ]/(σ² + 1).

All arithmetic goes through the base field object ``F`` (a :class:`~pairhw.math.ternary.field.GF3m` or a
counting wrapper), so operation counts come out of the same code.  Products in F_{3^6m}:

* ``mul6_schoolbook``: 4 schoolbook F_{3^3m} products, 36 F_3^m products;
* ``mul6_karatsuba``: Karatsuba over σ and over ρ, 3 × 6 = 18 products (the default ``mul6``);
* ``mul6_toom``: 15 products (Gorla, Puttmann, Shokrollahi, SAC 2007): F_{3^6m} as degree-2
  polynomials over F_{3^2m}, evaluated at 0, 1, −1, σ, ∞ (all in F_9 = F_3[σ], so evaluation and
  interpolation cost additions only), five F_{3^2m} products of 3 F_3^m products each;
* ``mul_sparse_beuchat``: R·S for the Miller-loop factor S = s0 + s1σ + s2ρ − ρ², 15 products and 29
  additions (Beuchat et al., ARITH 18, 2007; seed 004);
* ``mul_sparse_gorla``: the same R·S by Gorla et al.'s interpolation, 12 products (S(∞) = −1 makes
  the fifth product free).

The Frobenius maps x ↦ x³, x ↦ x^(3^m) and x ↦ x^(3^(3m)) are F_3-linear on the basis; their 6 × 6
matrices over F_3 are computed here from the tower's own products (ρ³ = ρ + b, σ³ = −σ), never typed.
"""

from __future__ import annotations

from pairhw.math.curve import square_and_multiply


def _mat_mul3(A, B):
    n = len(A)
    return [[sum(A[i][k] * B[k][j] for k in range(n)) % 3 for j in range(n)] for i in range(n)]


class Tower3:
    """F_{3^3m} and F_{3^6m} over ``F`` for ρ³ = ρ + b."""

    def __init__(self, F, b: int):
        if b not in (1, -1):
            raise ValueError("b must be 1 or -1")
        self.F = F
        self.b = b
        z, o = F.ZERO, F.ONE
        self.ZERO6 = (z,) * 6
        self.ONE6 = (o,) + (z,) * 5
        self.ONE3 = (o, z, z)
        base = getattr(F, "_F", None)
        if base is not None:  # a counting field: take the maps from the plain tower, uncounted
            plain = Tower3(base, b)
            self.CUBE, self.FROB_M, self.FROB_3M = plain.CUBE, plain.FROB_M, plain.FROB_3M
            return
        cube = self._linear_map_of(self._cube_basis)
        self.CUBE = cube
        mp = [[int(i == j) for j in range(6)] for i in range(6)]
        for _ in range(F.m):
            mp = _mat_mul3(cube, mp)
        self.FROB_M = mp                                   # x ↦ x^(3^m)
        self.FROB_3M = _mat_mul3(mp, _mat_mul3(mp, mp))    # x ↦ x^(3^(3m))

    # -- helpers on F -------------------------------------------------------------------------------
    def _mulc(self, c: int, a):
        """c·a for c ∈ {0, 1, 2} (a sign, free in hardware: counted as ``neg``)."""
        c %= 3
        if c == 0:
            return self.F.ZERO
        return a if c == 1 else self.F.neg(a)

    def _addc(self, a, c: int, b):
        """a + c·b for a constant c ∈ F_3: one addition or subtraction."""
        c %= 3
        if c == 0:
            return a
        return self.F.add(a, b) if c == 1 else self.F.sub(a, b)

    def _lin(self, terms):
        """Σ c_i·x_i over (c_i ∈ F_3, x_i) pairs, one addition per extra term."""
        acc = None
        for c, x in terms:
            c %= 3
            if c == 0:
                continue
            if acc is None:
                acc = x if c == 1 else self.F.neg(x)
            else:
                acc = self._addc(acc, c, x)
        return self.F.ZERO if acc is None else acc

    # -- F_{3^2m} = F[σ]/(σ² + 1), pairs ---------------------------------------------------------------
    def add2(self, x, y):
        F = self.F
        return (F.add(x[0], y[0]), F.add(x[1], y[1]))

    def sub2(self, x, y):
        F = self.F
        return (F.sub(x[0], y[0]), F.sub(x[1], y[1]))

    def neg2(self, x):
        return (self.F.neg(x[0]), self.F.neg(x[1]))

    def mul2(self, x, y, ysum=None):
        """Karatsuba: 3 products, 4 additions (+1 for y0 + y1 unless given as ``ysum``)."""
        F = self.F
        p, q = F.mul(x[0], y[0]), F.mul(x[1], y[1])
        if ysum is None:
            ysum = F.add(y[0], y[1])
        w = F.mul(F.add(x[0], x[1]), ysum)
        return (F.sub(p, q), F.sub(F.sub(w, p), q))

    def mul2_f(self, x, c):
        """x·c for c in F_3^m: 2 products."""
        return (self.F.mul(x[0], c), self.F.mul(x[1], c))

    def mul_sigma(self, x):
        """x·σ = −x1 + x0·σ (free: a wire swap and a sign)."""
        return (self.F.neg(x[1]), x[0])

    # -- F_{3^3m}, triples (c0, c1, c2) = c0 + c1ρ + c2ρ² ------------------------------------------------
    def add3(self, x, y):
        F = self.F
        return tuple(F.add(a, c) for a, c in zip(x, y))

    def sub3(self, x, y):
        F = self.F
        return tuple(F.sub(a, c) for a, c in zip(x, y))

    def neg3(self, x):
        return tuple(self.F.neg(a) for a in x)

    def _reduce3(self, d):
        """d0 + d1ρ + d2ρ² + d3ρ³ + d4ρ⁴ with ρ³ = ρ + b, ρ⁴ = ρ² + bρ."""
        b = self.b
        d0, d1, d2, d3, d4 = d
        return (self._addc(d0, b, d3), self._addc(self.F.add(d1, d3), b, d4), self.F.add(d2, d4))

    def mul3_schoolbook(self, x, y):
        """9 products."""
        F = self.F
        d = [None] * 5
        for i in range(3):
            for j in range(3):
                p = F.mul(x[i], y[j])
                d[i + j] = p if d[i + j] is None else F.add(d[i + j], p)
        return self._reduce3(d)

    def mul3(self, x, y):
        """Three-term Karatsuba: 6 products."""
        F = self.F
        p0, p1, p2 = F.mul(x[0], y[0]), F.mul(x[1], y[1]), F.mul(x[2], y[2])
        p01 = F.mul(F.add(x[0], x[1]), F.add(y[0], y[1]))
        p02 = F.mul(F.add(x[0], x[2]), F.add(y[0], y[2]))
        p12 = F.mul(F.add(x[1], x[2]), F.add(y[1], y[2]))
        d1 = F.sub(F.sub(p01, p0), p1)
        d2 = F.add(F.sub(F.sub(p02, p0), p2), p1)
        d3 = F.sub(F.sub(p12, p1), p2)
        return self._reduce3((p0, d1, d2, d3, p2))

    def mul_rho3(self, x):
        """x·ρ = b·x2 + (x0 + x2)ρ + x1ρ² (additions only)."""
        return (self._mulc(self.b, x[2]), self.F.add(x[0], x[2]), x[1])

    def inv3(self, x):
        """x^(−1) by Cramer's rule on the matrix of y ↦ x·y (columns x, xρ, xρ², from
        :meth:`mul_rho3`): 12 products and one F_3^m inversion."""
        F = self.F
        c0 = x
        c1 = self.mul_rho3(c0)
        c2 = self.mul_rho3(c1)
        A = [[c0[i], c1[i], c2[i]] for i in range(3)]

        def minor(r0, r1, k0, k1):
            return F.sub(F.mul(A[r0][k0], A[r1][k1]), F.mul(A[r0][k1], A[r1][k0]))

        cof0 = minor(1, 2, 1, 2)
        cof1 = F.neg(minor(1, 2, 0, 2))
        cof2 = minor(1, 2, 0, 1)
        det = F.add(F.add(F.mul(A[0][0], cof0), F.mul(A[0][1], cof1)), F.mul(A[0][2], cof2))
        di = F.inv(det)
        return (F.mul(cof0, di), F.mul(cof1, di), F.mul(cof2, di))

    # -- F_{3^6m}, 6-tuples -------------------------------------------------------------------------
    @staticmethod
    def split(a):
        """(V0, V1) with a = V0 + V1·σ."""
        return (a[0], a[2], a[4]), (a[1], a[3], a[5])

    @staticmethod
    def join(v0, v1):
        return (v0[0], v1[0], v0[1], v1[1], v0[2], v1[2])

    @staticmethod
    def pairs(a):
        """(A0, A1, A2) with a = A0 + A1ρ + A2ρ², A_i ∈ F_{3^2m}."""
        return (a[0], a[1]), (a[2], a[3]), (a[4], a[5])

    @staticmethod
    def unpairs(c0, c1, c2):
        return (c0[0], c0[1], c1[0], c1[1], c2[0], c2[1])

    def add6(self, x, y):
        F = self.F
        return tuple(F.add(a, c) for a, c in zip(x, y))

    def sub6(self, x, y):
        F = self.F
        return tuple(F.sub(a, c) for a, c in zip(x, y))

    def neg6(self, x):
        return tuple(self.F.neg(a) for a in x)

    def _mul6_sigma(self, x, y, mul3):
        """Karatsuba over σ: (x0 + x1σ)(y0 + y1σ) = x0y0 − x1y1 + ((x0+x1)(y0+y1) − x0y0 − x1y1)σ."""
        x0, x1 = self.split(x)
        y0, y1 = self.split(y)
        p, q = mul3(x0, y0), mul3(x1, y1)
        w = mul3(self.add3(x0, x1), self.add3(y0, y1))
        return self.join(self.sub3(p, q), self.sub3(self.sub3(w, p), q))

    def mul6_schoolbook(self, x, y):
        """Four schoolbook F_{3^3m} products: 36 products."""
        x0, x1 = self.split(x)
        y0, y1 = self.split(y)
        m3 = self.mul3_schoolbook
        re = self.sub3(m3(x0, y0), m3(x1, y1))
        im = self.add3(m3(x0, y1), m3(x1, y0))
        return self.join(re, im)

    def mul6_karatsuba(self, x, y):
        """18 products."""
        return self._mul6_sigma(x, y, self.mul3)

    mul6 = mul6_karatsuba

    def sqr6(self, x):
        return self.mul6(x, x)

    # Evaluation at 0, 1, −1, σ, ∞ and interpolation (Gorla et al.), derived here:
    #   P1 = c0+c1+c2+c3+c4,  P−1 = c0−c1+c2−c3+c4,  Pσ = c0+σc1−c2−σc3+c4  (σ² = −1)
    #   ⇒ c2 = −(P1 + P−1) − c0 − c4           (2 = −1 = 1/2 in F_3)
    #     c1 + c3 = −(P1 − P−1),   c1 − c3 = −σ·(Pσ − c0 + c2 − c4)   (1/σ = −σ)
    #     c1 = −((c1 + c3) + (c1 − c3)),  c3 = −((c1 + c3) − (c1 − c3)).
    def _interp(self, p0, p1, pm1, ps, pinf):
        c0, c4 = p0, pinf
        c2 = self.sub2(self.neg2(self.add2(p1, pm1)), self.add2(c0, c4))
        spl = self.neg2(self.sub2(p1, pm1))
        smi = self.neg2(self.mul_sigma(self.add2(self.sub2(ps, self.add2(c0, c4)), c2)))
        c1 = self.neg2(self.add2(spl, smi))
        c3 = self.neg2(self.sub2(spl, smi))
        return c0, c1, c2, c3, c4

    def _reduce_pairs(self, c):
        """c0 + c1ρ + c2ρ² + c3ρ³ + c4ρ⁴ over F_{3^2m}, reduced by ρ³ = ρ + b."""
        c0, c1, c2, c3, c4 = c
        sb = self.neg2 if self.b == -1 else (lambda v: v)
        return self.unpairs(self.add2(c0, sb(c3)), self.add2(self.add2(c1, c3), sb(c4)),
                            self.add2(c2, c4))

    @staticmethod
    def _evals(A0, A1, A2, add2, sub2, mul_sigma):
        s02 = add2(A0, A2)
        return (A0, add2(s02, A1), sub2(s02, A1), add2(sub2(A0, A2), mul_sigma(A1)))

    def mul6_toom(self, x, y):
        """15 products: five F_{3^2m} Karatsuba products at 0, 1, −1, σ, ∞."""
        A = self.pairs(x)
        B = self.pairs(y)
        ea = self._evals(*A, self.add2, self.sub2, self.mul_sigma)
        eb = self._evals(*B, self.add2, self.sub2, self.mul_sigma)
        P = [self.mul2(u, v) for u, v in zip(ea, eb)]
        pinf = self.mul2(A[2], B[2])
        return self._reduce_pairs(self._interp(*P, pinf))

    # -- the sparse Miller-loop product --------------------------------------------------------------
    def mul_sparse_beuchat(self, R, s0, s1, s2):
        """R·S, S = s0 + s1σ + s2ρ − ρ²: 15 products, 29 additions (seed 004; Beuchat et al. 2007).

        With R = R0 + R1ρ + R2ρ² (R_i ∈ F_{3^2m}), S0 = s0 + s1σ:
        R·S = R·(S0 + s2ρ) − R·ρ² = e0 + e1ρ + e2ρ² + e3ρ³ − (bR1 + (R1 + bR2)ρ + (R0 + R2)ρ²) with
        e0 = R0S0, e1 = R0s2 + R1S0, e2 = R1s2 + R2S0, e3 = R2s2; so with d = e3 − R1:
        c0 = e0 + b·d,  c1 = e1 + d − b·R2,  c2 = e2 − R0 − R2.
        Three Karatsuba products R_i·S0 (3 products, 4 additions each, s0 + s1 shared) and six
        products by s2: 15 products; 13 + 4 + 2 + 2 + 4 + 4 = 29 additions.

        The sums are associated so that every term of R itself (−b·R2 in c1, −R0 − R2 in c2) is
        added to a product by s2 before the Karatsuba products join: c1 = ((R0s2 − bR2) + R1S0) + d,
        c2 = ((R1s2 − R0) − R2) + R2S0.  Same additions; in hardware, the old R is then read early
        in an iteration, so a loop that keeps each coefficient in one register can overwrite it
        with the new R sooner (the pipelined multiplier's 17 cycles per iteration need it)."""
        F, b = self.F, self.b
        R0, R1, R2 = self.pairs(R)
        S0 = (s0, s1)
        ss = F.add(s0, s1)
        r0s2 = self.mul2_f(R0, s2)
        r1s2 = self.mul2_f(R1, s2)
        g1 = (self._addc(r0s2[0], -b, R2[0]), self._addc(r0s2[1], -b, R2[1]))  # R0s2 − bR2
        g2 = self.sub2(self.sub2(r1s2, R0), R2)                                 # R1s2 − R0 − R2
        e0 = self.mul2(R0, S0, ss)
        e3 = self.mul2_f(R2, s2)
        d = self.sub2(e3, R1)
        c0 = (self._addc(e0[0], b, d[0]), self._addc(e0[1], b, d[1]))
        c1 = self.add2(self.add2(g1, self.mul2(R1, S0, ss)), d)
        c2 = self.add2(g2, self.mul2(R2, S0, ss))
        return self.unpairs(c0, c1, c2)

    def mul_sparse_gorla(self, R, s0, s1, s2):
        """The same R·S by evaluation at 0, 1, −1, σ, ∞ (Gorla et al.): S(∞) = −1, so the product
        at ∞ is −R2 for free and 4 × 3 = 12 products remain."""
        F = self.F
        A = self.pairs(R)
        S0 = (s0, s1)
        one = F.ONE
        sp = (F.sub(F.add(s0, s2), one), s1)         # S(1)  = S0 + s2 − 1
        sm = (F.sub(F.sub(s0, s2), one), s1)         # S(−1) = S0 − s2 − 1
        ss = (F.add(s0, one), F.add(s1, s2))         # S(σ)  = S0 + s2σ + 1
        ea = self._evals(*A, self.add2, self.sub2, self.mul_sigma)
        P = [self.mul2(u, v) for u, v in zip(ea, (S0, sp, sm, ss))]
        return self._reduce_pairs(self._interp(*P, self.neg2(A[2])))

    # -- Frobenius maps ------------------------------------------------------------------------------
    def _cube_basis(self, e):
        """e³ for a basis element with F_3 coefficients (coefficients are fixed by cubing)."""
        return self.mul6_karatsuba(self.mul6_karatsuba(e, e), e)

    def _linear_map_of(self, fn):
        """The 6 × 6 F_3 matrix M (M[j][i] = coefficient j of fn(e_i)) of an F_3-linear map."""
        F = self.F
        cols = []
        for i in range(6):
            e = tuple(F.ONE if j == i else F.ZERO for j in range(6))
            img = fn(e)
            cols.append([F.to_list(c)[0] if c else 0 for c in img])
        return [[cols[i][j] for i in range(6)] for j in range(6)]

    def _apply(self, M, a):
        return tuple(self._lin(zip(M[j], a)) for j in range(6))

    def cube6(self, a):
        """a³: six F_3^m cubings and the cubing matrix of the basis."""
        F = self.F
        return self._apply(self.CUBE, tuple(F.cube(c) for c in a))

    def cube6_k(self, a, n: int):
        """a^(3^n): each coefficient to 3^n (one k-fold power each, x^(3^n) of the field) and the
        basis by CUBE^n (ρ^(3^n) = ρ + n·b, σ^(3^n) = (−1)^n·σ): equal to n × :meth:`cube6`, with
        six powers instead of 6n cubings and one linear map instead of n."""
        F = self.F
        M = [[int(i == j) for j in range(6)] for i in range(6)]
        for _ in range(n % 6):  # CUBE has order dividing 6 (it fixes 1, negates σ, shifts ρ by b)
            M = _mat_mul3(self.CUBE, M)
        return self._apply(M, tuple(F.cube_k(c, n) for c in a))

    def frob_m(self, a):
        """a^(3^m): coefficients are fixed; additions only."""
        return self._apply(self.FROB_M, a)

    def conj(self, a):
        """a^(3^(3m)) = V0 − V1σ (negations only)."""
        return (a[0], self.F.neg(a[1]), a[2], self.F.neg(a[3]), a[4], self.F.neg(a[5]))

    def norm3(self, a):
        """a·conj(a) = V0² + V1² ∈ F_{3^3m}."""
        v0, v1 = self.split(a)
        return self.add3(self.mul3(v0, v0), self.mul3(v1, v1))

    def conj_ratio(self, a):
        """a^(3^(3m) − 1) = conj(a)/a = (V0² − V1² + V0V1·σ)/(V0² + V1²)  (−2 = 1 in F_3): three
        F_{3^3m} products, one F_{3^3m} inversion, two products.  The result is unitary (norm 1
        over F_{3^3m}): its inverse is its conjugate."""
        v0, v1 = self.split(a)
        p, q, c = self.mul3(v0, v0), self.mul3(v1, v1), self.mul3(v0, v1)
        ni = self.inv3(self.add3(p, q))
        return self.join(self.mul3(self.sub3(p, q), ni), self.mul3(c, ni))

    def inv6(self, a):
        """a^(−1) = conj(a)/(V0² + V1²)."""
        v0, v1 = self.split(a)
        ni = self.inv3(self.norm3(a))
        return self.join(self.mul3(v0, ni), self.neg3(self.mul3(v1, ni)))

    def pow6(self, a, e: int):
        """a^e by plain square and multiply (the check for every shortcut)."""
        if e < 0:
            return self.pow6(self.inv6(a), -e)
        return square_and_multiply(a, e, self.ONE6, self.sqr6, self.mul6)


# ---------------------------------------------------------------------------------------------
# U^(3^m + 1) on the unitary group with 9 products (Beuchat et al. 2008, Alg. 7), derived

# The nine products of Alg. 7, as pairs of F_3-linear forms in u0..u5 (coefficient vectors).
_ALG7_FORMS = (
    ((1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 1, 0)),    # u0·u4
    ((0, 1, 0, 0, 0, 0), (0, 0, 0, 0, 0, 1)),    # u1·u5
    ((0, 0, 1, 0, 0, 0), (0, 0, 0, 0, 1, 0)),    # u2·u4
    ((0, 0, 0, 1, 0, 0), (0, 0, 0, 0, 0, 1)),    # u3·u5
    ((1, 1, 0, 0, 0, 0), (0, 0, 0, 0, 1, 2)),    # (u0 + u1)(u4 − u5)
    ((0, 1, 0, 0, 0, 0), (0, 0, 1, 0, 0, 0)),    # u1·u2
    ((1, 0, 0, 0, 0, 0), (0, 0, 0, 1, 0, 0)),    # u0·u3
    ((1, 1, 0, 0, 0, 0), (0, 0, 1, 1, 0, 0)),    # (u0 + u1)(u2 + u3)
    ((0, 0, 1, 1, 0, 0), (0, 0, 0, 0, 1, 2)),    # (u2 + u3)(u4 − u5)
)


def _solve_mod3(rows, rhs):
    """One solution x of rows·x = rhs over F_3, or None."""
    n = len(rows[0])
    A = [list(r) + [v] for r, v in zip(rows, rhs)]
    piv_cols, r = [], 0
    for c in range(n):
        p = next((i for i in range(r, len(A)) if A[i][c] % 3), None)
        if p is None:
            continue
        A[r], A[p] = A[p], A[r]
        inv = A[r][c] % 3  # 1 and 2 are their own inverses
        A[r] = [(v * inv) % 3 for v in A[r]]
        for i in range(len(A)):
            if i != r and A[i][c] % 3:
                f = A[i][c]
                A[i] = [(a - f * b) % 3 for a, b in zip(A[i], A[r])]
        piv_cols.append(c)
        r += 1
    if any(row[-1] % 3 for row in A[r:]):
        return None
    x = [0] * n
    for i, c in enumerate(piv_cols):
        x[c] = A[i][-1]
    return x


def torus_plan(T: "Tower3"):
    """For each output coefficient j of U^(3^m+1), coefficients (const_j, β_j) with
    U^(3^m+1)_j = const_j + Σ_i β_ji·P_i on every U with U·conj(U) = 1, P_i the nine products of
    :data:`_ALG7_FORMS`.  Found by linear algebra over F_3: the quadratic form of coefficient j of
    U·frob_m(U) minus Σ_k α_jk·(norm_k(U) − δ_k0) must lie in the span of the P_i (norm_k: the ρ^k
    coefficient of U·conj(U)).  Structure constants come from the tower's own product."""
    base = T
    F = getattr(T.F, "_F", T.F)
    if F is not T.F:
        base = Tower3(F, T.b)
    E = [tuple(F.ONE if j == i else F.ZERO for j in range(6)) for i in range(6)]
    def val(c):
        return F.to_list(c)[0] if c else 0
    struct = [[[val(c) for c in base.mul6_karatsuba(E[a], E[bb])] for bb in range(6)]
              for a in range(6)]
    mons = [(a, bb) for a in range(6) for bb in range(a, 6)]

    def quad(L1, L2):
        """Coefficients over ``mons`` of Σ_j-free product (Σ L1_a u_a)(Σ L2_b u_b)."""
        q = dict.fromkeys(mons, 0)
        for a in range(6):
            for bb in range(6):
                if L1[a] and L2[bb]:
                    key = (min(a, bb), max(a, bb))
                    q[key] = (q[key] + L1[a] * L2[bb]) % 3
        return [q[k] for k in mons]

    def product_form(M, j):
        """Coefficient j of U·(M applied to U) as a quadratic form."""
        q = dict.fromkeys(mons, 0)
        for a in range(6):
            for bb in range(6):
                for k in range(6):
                    c = struct[a][bb][j] * M[bb][k] % 3
                    if c:
                        key = (min(a, k), max(a, k))
                        q[key] = (q[key] + c) % 3
        return [q[k] for k in mons]

    norms = [product_form(base.FROB_3M, j) for j in (0, 2, 4)]
    prods = [quad(L1, L2) for L1, L2 in _ALG7_FORMS]
    cols = norms + prods
    rows = [[col[i] for col in cols] for i in range(len(mons))]
    plan = []
    for j in range(6):
        x = _solve_mod3(rows, product_form(base.FROB_M, j))
        if x is None:
            raise ValueError("Alg. 7's nine products do not span U^(3^m+1) for this tower")
        plan.append((x[0], x[3:]))   # on the unitary group norm_0 = 1, norm_1 = norm_2 = 0
    return plan


def _torus_frob_mul(self, u):
    """U^(3^m+1) for unitary U with the nine products of Alg. 7 and the derived combination
    (:func:`torus_plan`)."""
    F = self.F
    if getattr(self, "_torus_plan", None) is None:
        self._torus_plan = torus_plan(self)
    cache = {}

    def form(L):
        key = tuple(L)
        if key not in cache:
            cache[key] = self._lin(zip(L, u))
        return cache[key]

    P = [F.mul(form(L1), form(L2)) for L1, L2 in _ALG7_FORMS]
    out = []
    for const, beta in self._torus_plan:
        v = self._lin(zip(beta, P))
        if const:
            v = self._addc(v, const, F.ONE)
        out.append(v)
    return tuple(out)


Tower3.torus_frob_mul = _torus_frob_mul
