"""Optimal ate pairings on BN and BLS12 curves, and the slow reduced Tate reference.

A :class:`PairingCurve` is built from a parameter set: the family polynomials give p, r and the
trace from the curve parameter u (never typed twice), the tower is
F_p ⊂ F_{p^2} ⊂ F_{p^6} ⊂ F_{p^12} of :mod:`pairhw.math.prime.tower`, G1 = E(F_p)[r] and G2 is the
r-torsion of the sextic twist E' over F_{p^2} on which Frobenius acts as multiplication by p.

``optimal_ate(C, P, Q)`` (P ∈ G1, Q ∈ G2) is Vercauteren's optimal ate pairing

    BN:    (f_{6u+2,Q}(P) · ℓ_{[6u+2]Q, π(Q)}(P) · ℓ_{[6u+2]Q+π(Q), −π²(Q)}(P))^((p^12−1)/r)
    BLS12: f_{u,Q}(P)^((p^12−1)/r)                            (u < 0: f_{u,Q} = 1/f_{|u|,Q})

with the Miller loop over the NAF of 6u + 2 (BN) or of u (BLS12), the point T in homogeneous
projective coordinates on the twist and sparse lines (Costello–Lange–Naehrig 2010; Aranha et al.
2011, eqs. for doubling and mixed addition), and the final exponentiation split into the easy part
(p^6 − 1)(p^2 + 1) and the hard part (p^4 − p^2 + 1)/r by Scott et al. 2009's addition chain (BN)
or by the exact decomposition λ3·p³ + λ2·p² + λ1·p + λ0 with λ3 = (u − 1)²/3 (BLS12).  These give
exactly the same value as the textbook exponent (tests check it).

``tate_reference(C, P, Q)`` is the reduced Tate pairing t_r(P, Q) = f_{r,P}(Q)^((p^12−1)/r) with
Q untwisted into E(F_{p^12}), by a plain affine Miller loop over r with vertical lines and a plain
exponentiation; ``ate_reference`` computes the optimal ate value itself the same textbook way.
Neither shares the twist arithmetic, projective formulas, sparse lines, NAF, derived Frobenius
constants or fast final exponentiation of ``optimal_ate``.
"""

from __future__ import annotations

from functools import cached_property

from pairhw.math.curve import wnaf
from pairhw.math.prime.curve import CurveW
from pairhw.math.prime.field import Fp2, PrimeField
from pairhw.math.prime.tower import Tower12

FAMILIES = ("bn", "bls12")


def family_polys(family: str, u: int) -> tuple[int, int, int]:
    """(p, r, trace) of the BN or BLS12 curve with parameter u."""
    if family == "bn":
        p = 36 * u**4 + 36 * u**3 + 24 * u**2 + 6 * u + 1
        r = 36 * u**4 + 36 * u**3 + 18 * u**2 + 6 * u + 1
        return p, r, 6 * u**2 + 1
    if family == "bls12":
        r = u**4 - u**2 + 1
        num = (u - 1) ** 2 * r
        if num % 3:
            raise ValueError("BLS12 needs u ≡ 1 (mod 3)")
        return num // 3 + u, r, u + 1
    raise ValueError(f"unknown family {family!r}")


def naf(n: int) -> list[int]:
    """Non-adjacent form of n > 0, least significant digit first (digits −1, 0, 1): the width-2
    :func:`~pairhw.math.curve.wnaf`."""
    return wnaf(n, 2)


class PairingCurve:
    """A BN or BLS12 curve with its tower, G1, G2 and pairing constants."""

    def __init__(self, name: str, family: str, u: int, b: int, beta: int, xi, twist: str):
        if family not in FAMILIES:
            raise ValueError(f"unknown family {family!r}")
        if twist not in ("D", "M"):
            raise ValueError("twist must be 'D' (b' = b/ξ) or 'M' (b' = b·ξ)")
        self.name, self.family, self.u, self.twist = name, family, u, twist
        self.p, self.r, self.trace = family_polys(family, u)
        self.F = PrimeField(self.p)
        self.K = Fp2(self.F, beta)
        self.T = Tower12(self.K, xi)
        self.b = b % self.p
        K = self.K
        bb = (self.b, 0)
        self.b2 = K.mul(bb, K.inv(self.T.xi)) if twist == "D" else K.mul(bb, self.T.xi)
        self.b2x3 = K.mul_int(self.b2, 3)  # 3b', a constant of the doubling step
        self.E1 = CurveW(self.F, self.b, self.p + 1 - self.trace, self.r, name=f"{name} G1")
        self.E2 = CurveW(K, self.b2, self.twist_order(), self.r, name=f"{name} G2")
        self.ate_loop = 6 * u + 2 if family == "bn" else u
        # twisted Frobenius ψ = untwist⁻¹ ∘ π ∘ untwist on E'(F_p²): (x, y) ↦ (cx·x̄, cy·ȳ) for
        # π, and with γ_{2,j} (no conjugation) for π²; M-type twists use the inverses.
        g1, g2 = self.T.gamma[1], self.T.gamma[2]
        if twist == "D":
            self._psi1 = (g1[2], g1[3])
            self._psi2 = (g2[2], g2[3])
        else:
            self._psi1 = (K.inv(g1[2]), K.inv(g1[3]))
            self._psi2 = (K.inv(g2[2]), K.inv(g2[3]))
        # the endomorphisms' eigenvalues for the fast subgroup checks (in_g1, in_g2)
        self.g2_eigen = (u if family == "bls12" else 6 * u * u) % self.r
        self.g1_beta = None
        if family == "bls12":
            self.g1_beta = self._g1_beta()
        if self.E1.mul(self.E1.order, self.E1.raw_point(b"order-check")[0]) is not None:
            raise ValueError(f"y² = x³ + {b} over F_p does not have order p + 1 − t")
        Qt = self.E2.hash_to_point(b"twist-check")
        if not self.E2.eq(self.psi(Qt, 1), self.E2.mul(self.p, Qt)):
            raise ValueError("the twist's r-torsion is not the p-eigenspace of Frobenius "
                             "(wrong twist type or ξ)")

    def __repr__(self) -> str:
        return f"PairingCurve({self.name})"

    def _g1_beta(self) -> int:
        """The cube root of unity β ∈ F_p for which φ(x, y) = (βx, y) acts on G1 as [−u²] (of the two,
        the one that does so on a point of G1)."""
        F, E = self.F, self.E1
        g = 2
        while True:
            beta = pow(g, (self.p - 1) // 3, self.p)
            if beta != 1:
                break
            g += 1
        P = E.hash_to_point(b"g1-beta")
        lam = E.mul(-self.u * self.u, P)
        for b in (beta, F.mul(beta, beta)):
            if E.eq((F.mul(P[0], b), P[1]), lam):
                return b
        raise ValueError("no cube root of unity acts on G1 as -u^2")  # pragma: no cover

    def over_field(self, F):
        """A copy whose F_p², F_p¹² arithmetic (and so the pairing) runs over ``F`` (e.g. a
        counting field); constants stay as computed."""
        import copy

        C = copy.copy(self)
        C.F = F
        C.K = copy.copy(self.K)
        C.K.F = F
        C.T = copy.copy(self.T)
        C.T.K, C.T.F = C.K, F
        C.E1 = copy.copy(self.E1)  # the curves' own negation and Frobenius run over F too
        C.E1.K = F
        C.E2 = copy.copy(self.E2)
        C.E2.K = C.K
        return C

    def twist_order(self) -> int:
        """#E'(F_{p^2}) for E' : y² = x³ + b': of the six sextic-twist orders p² + 1 − τ,
        τ ∈ {±t2, ±(t2 ± 3f)/2} (t2 = t² − 2p, t2² − 4p² = −3f²), the one divisible by r that
        kills a point of E' (checked on two hashed points)."""
        from math import isqrt

        p, t = self.p, self.trace
        t2 = t * t - 2 * p
        f = isqrt((4 * p * p - t2 * t2) // 3)
        if 3 * f * f != 4 * p * p - t2 * t2:
            raise ValueError("4p² − t2² is not 3·f²")
        taus = [t2, -t2, (t2 + 3 * f) // 2, -(t2 + 3 * f) // 2, (t2 - 3 * f) // 2, -(t2 - 3 * f) // 2]
        cands = sorted({p * p + 1 - tau for tau in taus if (p * p + 1 - tau) % self.r == 0})
        probe = CurveW(self.K, self.b2, self.r, self.r)  # order unknown yet: only for hashing
        pts = [probe.raw_point(b"twist-order/%d" % i)[0] for i in range(2)]
        good = [n for n in cands if all(probe.mul(n, P) is None for P in pts)]
        if len(good) != 1:
            raise ValueError(f"the twist y² = x³ + b' has {len(good)} candidate orders divisible by r "
                             f"(wrong twist type or ξ?)")
        return good[0]

    # -- maps ----------------------------------------------------------------------------------
    def psi(self, Q, k: int = 1):
        """The twisted Frobenius ψ^k(Q) (k = 1, 2) on E'(F_p²); equals [p^k]Q on G2."""
        if Q is None:
            return None
        K = self.K
        x, y = Q
        if k == 1:
            cx, cy = self._psi1
            return (K.mul(K.conj(x), cx), K.mul(K.conj(y), cy))
        cx, cy = self._psi2
        return (K.mul(x, cx), K.mul(y, cy))

    def untwist(self, Q):
        """Q ∈ E'(F_p²) as a point of E(F_p¹²): (x·w², y·w³) (D) or (x·w⁻², y·w⁻³) (M)."""
        T, K = self.T, self.K
        x, y = Q
        if self.twist == "D":
            return (T.from_w({2: x}), T.from_w({3: y}))
        xi_inv = K.inv(T.xi)  # w⁻² = w⁴/ξ, w⁻³ = w³/ξ
        return (T.from_w({4: K.mul(x, xi_inv)}), T.from_w({3: K.mul(y, xi_inv)}))

    def embed(self, a: int):
        """a ∈ F_p as an element of F_p¹²."""
        return self.T.from_w({0: (a % self.p, 0)})

    @cached_property
    def hard_exponent(self) -> int:
        p = self.p
        return (p**4 - p**2 + 1) // self.r

    @cached_property
    def final_exponent(self) -> int:
        return (self.p**12 - 1) // self.r


# ---------------------------------------------------------------------------------------------
# Miller loop with projective points on the twist and sparse lines


def _line_slots(C: PairingCurve):
    """Powers of w carrying the (y_P, x_P, constant) parts of a line: D-type ℓ = a·y_P + b·x_P·w
    + c·w³; M-type ℓ·w³ = c + b·x_P·w² + a·y_P·w³ (the w³ factor lies in F_p⁴ and dies in the
    final exponentiation)."""
    return (0, 1, 3) if C.twist == "D" else (3, 2, 0)


def dbl_step(C: PairingCurve, T, P):
    """T ← 2T and the tangent line at T evaluated at P (homogeneous projective, Costello–Lange–
    Naehrig 2010, with the point scaled by 4 so that no value is halved):
    A = XY, B = Y², C = Z², E = 3b'C, F = 3E, G = B + F, H = (Y+Z)² − (B+C), J = X²,
    X3 = 2A(B − F), Y3 = G² − 12E², Z3 = 4BH (4× CLN's X3 = A(B − F)/2, Y3 = (G/2)² − 3E², Z3 = BH:
    the same projective point);  ℓ = −H·y_P, 3J·x_P, E − B."""
    K = C.K
    X, Y, Z = T
    xP, yP = P
    A = K.mul(X, Y)
    B = K.sqr(Y)
    Cc = K.sqr(Z)
    E = K.mul(Cc, C.b2x3)
    Ff = K.mul_int(E, 3)
    G = K.add(B, Ff)
    H = K.sub(K.sqr(K.add(Y, Z)), K.add(B, Cc))
    J = K.sqr(X)
    E2 = K.sqr(E)
    X3 = K.mul(A, K.sub(B, Ff))
    Z3 = K.mul(B, H)
    T3 = (K.add(X3, X3), K.sub(K.sqr(G), K.mul_int(E2, 12)), K.mul_int(Z3, 4))
    sy, sx, s1 = _line_slots(C)
    line = {sy: K.mul_fp(K.neg(H), yP), sx: K.mul_fp(K.mul_int(J, 3), xP), s1: K.sub(E, B)}
    return T3, line


def add_step(C: PairingCurve, T, Q, P):
    """T ← T + Q (Q affine) and the line through T and Q at P (Aranha et al. 2011):
    θ = Y − y_Q Z, λ = X − x_Q Z, C = θ², D = λ², E = λD, F = ZC, G = XD, H = E + F − 2G,
    X3 = λH, Y3 = θ(G − H) − YE, Z3 = ZE;  ℓ = λ·y_P, −θ·x_P, θx_Q − λy_Q."""
    K = C.K
    X, Y, Z = T
    xQ, yQ = Q
    xP, yP = P
    th = K.sub(Y, K.mul(yQ, Z))
    la = K.sub(X, K.mul(xQ, Z))
    Cc = K.sqr(th)
    D = K.sqr(la)
    E = K.mul(la, D)
    Ff = K.mul(Z, Cc)
    G = K.mul(X, D)
    H = K.sub(K.add(E, Ff), K.add(G, G))
    T3 = (K.mul(la, H), K.sub(K.mul(th, K.sub(G, H)), K.mul(Y, E)), K.mul(Z, E))
    sy, sx, s1 = _line_slots(C)
    line = {sy: K.mul_fp(la, yP), sx: K.mul_fp(K.neg(th), xP),
            s1: K.sub(K.mul(th, xQ), K.mul(la, yQ))}
    return T3, line


def _affine(C: PairingCurve, T):
    K = C.K
    zi = K.inv(T[2])
    return (K.mul(T[0], zi), K.mul(T[1], zi))


def miller_loop(C: PairingCurve, P, Q):
    """f of the optimal ate pairing before the final exponentiation (see the module docstring)."""
    T12, K = C.T, C.K
    with C.F.phase("miller"):
        L = C.ate_loop
        digits = naf(abs(L))
        negQ = C.E2.neg(Q)
        T = (Q[0], Q[1], K.one)
        f = None  # 1: the first iteration's square and product are skipped
        for d in reversed(digits[:-1]):
            with C.F.step("dbl"):  # the steps a core with calls stores once (Program.cuts)
                T, line = dbl_step(C, T, P)
                f = T12.from_w(line) if f is None else T12.mul12_sparse(T12.sqr12(f), line)
            if d:
                with C.F.step("add"):
                    T, line = add_step(C, T, Q if d == 1 else negQ, P)
                    f = T12.mul12_sparse(f, line)
        if L < 0:
            f = T12.conj12(f)
            T = (T[0], K.neg(T[1]), T[2])
        if C.family == "bn":
            Q1 = C.psi(Q, 1)
            Q2 = C.E2.neg(C.psi(Q, 2))
            T, line = add_step(C, T, Q1, P)
            f = T12.mul12_sparse(f, line)
            _, line = add_step(C, T, Q2, P)
            f = T12.mul12_sparse(f, line)
    return f


def final_exp_easy(C: PairingCurve, f):
    """f^((p^6 − 1)(p^2 + 1)): afterwards f is unitary (inverse = conjugate).

    f^(p^6 − 1) = f̄/f = f̄²/n with n = f·f̄ ∈ F_{p^6}, n⁻¹ = adj(n)/t, t ∈ F_{p^2}, t⁻¹ = t̄/ν,
    ν = t·t̄ ∈ F_p: f̄²·adj(n)·t̄ does not wait for the F_p inversion of ν, which a core overlaps
    with it, and only 12 F_p products follow the inversion."""
    T = C.T
    y, nu = easy_quotient(C, f)
    f = T.scale12_fp(y, C.F.inv(nu))
    return T.mul12(T.frob12(f, 2), f)


def easy_quotient(C: PairingCurve, f):
    """(y, ν) with f^(p^6 − 1) = y/ν, y = f̄²·adj(n)·t̄ and ν ∈ F_p (:func:`final_exp_easy`)."""
    T, K = C.T, C.K
    g, h = f
    n = T.sub6(T.sqr6(g), T.mul6_v(T.sqr6(h)))
    adj, t = T.adj6(n)
    nu = K.norm(t)
    return T.scale12(T.scale12(T.sqr12(T.conj12(f)), adj), K.conj(t)), nu


def final_exp_hard_bn(C: PairingCurve, f):
    """f^((p⁴ − p² + 1)/r) for BN (Scott, Benger, Charlemagne, Dominguez Perez, Kachisa 2009,
    §5): three powers by u, then the vectorial addition chain (f is cyclotomic here, so every squaring
    is Granger–Scott's, :meth:`Tower12.cyclotomic_sqr12`)
    y0^1 y1^2 y2^6 y3^12 y4^18 y5^30 y6^36 over
    y0 = f^(p+p²+p³), y1 = 1/f, y2 = f^(u²p²), y3 = 1/f^(up), y4 = 1/(f^u·f^(u²p)),
    y5 = 1/f^(u²), y6 = 1/(f^(u³)·f^(u³p))."""
    T = C.T
    u = C.u
    fu = T.pow12_cyclotomic(f, u)
    fu2 = T.pow12_cyclotomic(fu, u)
    fu3 = T.pow12_cyclotomic(fu2, u)
    y0 = T.mul12(T.mul12(T.frob12(f, 1), T.frob12(f, 2)), T.frob12(f, 3))
    y1 = T.conj12(f)
    y2 = T.frob12(fu2, 2)
    y3 = T.conj12(T.frob12(fu, 1))
    y4 = T.conj12(T.mul12(fu, T.frob12(fu2, 1)))
    y5 = T.conj12(fu2)
    y6 = T.conj12(T.mul12(fu3, T.frob12(fu3, 1)))
    t0 = T.mul12(T.mul12(T.cyclotomic_sqr12(y6), y4), y5)
    t1 = T.mul12(T.mul12(y3, y5), t0)
    t0 = T.mul12(t0, y2)
    t1 = T.mul12(T.cyclotomic_sqr12(t1), t0)
    t1 = T.cyclotomic_sqr12(t1)
    t0 = T.mul12(t1, y1)
    t1 = T.mul12(t1, y0)
    return T.mul12(T.cyclotomic_sqr12(t0), t1)


def final_exp_hard_bls12(C: PairingCurve, f):
    """f^((p⁴ − p² + 1)/r) for BLS12, exactly: with λ3 = (u − 1)²/3, λ2 = λ3·u, λ1 = λ2·u − λ3,
    λ0 = λ1·u + 1 the exponent is λ3p³ + λ2p² + λ1p + λ0 (the usual 3·hard formula of
    Hayashida–Hayasaka–Teruya 2020 divided by 3; u ≡ 1 mod 3 makes f^λ3 = (f^(u−1))^((u−1)/3));
    the powers square by Granger–Scott (f is cyclotomic here)."""
    return hard_bls12_after(C, C.T.pow12_cyclotomic(f, C.u - 1), f)


def hard_bls12_after(C: PairingCurve, a, f):
    """:func:`final_exp_hard_bls12` from its first power a = f^(u − 1) on.  A, B, C and f are read
    again one to four exponentiations after they are made: there each is read through
    :meth:`~Tower12.kept12` (a copy on a core that asks for one, itself in the model)."""
    T = C.T
    u = C.u
    K = T.kept12
    A = T.pow12_cyclotomic(a, (u - 1) // 3)
    B = T.pow12_cyclotomic(A, u)
    Cc = T.mul12(T.pow12_cyclotomic(B, u), T.conj12(K(A)))
    D = T.mul12(T.pow12_cyclotomic(Cc, u), K(f))
    return T.mul12(T.mul12(T.frob12(K(A), 3), T.frob12(K(B), 2)), T.mul12(T.frob12(K(Cc), 1), D))


def longest_inverse_window(C: PairingCurve) -> int:
    """The most squarings :func:`final_exp_overlapped_bls12` takes: the hard part's first power, by
    |u − 1|, has one more."""
    return abs(C.u - 1).bit_length() - 2


def final_exp_overlapped_bls12(C: PairingCurve, f, window: int):
    """:func:`final_exp` for BLS12 with the F_p inversion of the easy part overlapped by the hard
    part's first ``window`` squarings, which a core with one multiplier otherwise leaves idle while
    the inverter runs (hundreds of cycles at 381 bits).

    f^(p^6 − 1) = y/ν with ν ∈ F_p (:func:`easy_quotient`), so the easy part is g = Y/ν² with
    Y = y^(p^2 + 1) (ν^(p^2) = ν), computed without the inverse.  The hard part's first power g^e,
    e = |u − 1|, starts on Y while the inverse runs: Z_j = Y^(2^j) = c_j·g^(2^j) with
    c_j = ν^(2^(j + 1)), each a Granger–Scott squaring of c·g with its linear terms scaled by c
    (:meth:`~Tower12.cyclotomic_sqr12` with ``k``).  Then g^(2^w) = Z_w·s_(w + 1) with
    s_j = (ν⁻¹)^(2^j), and the bits of e below w are the Z_j of its set bits scaled the same way.
    The rest of g^e is the usual cyclotomic power of g^(2^w) by e >> w; g itself (for the last
    product) is Y·s_1."""
    T, F = C.T, C.F
    u = C.u
    e = abs(u - 1)
    if not 0 < window <= longest_inverse_window(C):
        raise ValueError(f"the overlapped window must be between 1 and {longest_inverse_window(C)} squarings, "
                         f"not {window}")
    with F.phase("final_exp"):
        with F.phase("easy"):
            y, nu = easy_quotient(C, f)
            inv = F.inv(nu)  # everything up to the scalings below overlaps it
            Y = T.mul12(T.frob12(y, 2), y)
        with F.phase("hard"):
            Z = [Y]
            c = F.mul(nu, nu)  # Z[j] = c·g^(2^j), c = ν^(2^(j + 1))
            for _ in range(window):
                with F.step("sqr"):
                    Z.append(T.cyclotomic_sqr12(Z[-1], c))
                    c = F.mul(c, c)
            s = [inv]  # s_j = inv^(2^j)
            for _ in range(window + 1):
                s.append(F.mul(s[-1], s[-1]))
            low = [j for j in range(window) if e >> j & 1]
            gw = T.scale12_fp(Z[window], s[window + 1])
            g = T.scale12_fp(Y, s[1])
            r = T.pow12_cyclotomic(gw, e >> window)
            if low:
                z = Z[low[0]]
                k = s[low[0] + 1]
                for j in low[1:]:
                    z, k = T.mul12(z, Z[j]), F.mul(k, s[j + 1])
                r = T.mul12(r, T.scale12_fp(z, k))
            return hard_bls12_after(C, T.conj12(r) if u - 1 < 0 else r, g)


def final_exp(C: PairingCurve, f):
    window = getattr(C.F, "inverse_window", 0)  # a tracer for a core that overlaps the inverse (Tracer)
    if window and C.family == "bls12":
        return final_exp_overlapped_bls12(C, f, window)
    with C.F.phase("final_exp"):
        with C.F.phase("easy"):
            f = final_exp_easy(C, f)
        with C.F.phase("hard"):
            return final_exp_hard_bn(C, f) if C.family == "bn" else final_exp_hard_bls12(C, f)


def optimal_ate(C: PairingCurve, P, Q):
    """The optimal ate pairing e(P, Q), P ∈ G1 (affine over F_p), Q ∈ G2 (affine over F_p²)."""
    if P is None or Q is None:
        return C.T.ONE
    return final_exp(C, miller_loop(C, P, Q))


# ---------------------------------------------------------------------------------------------
# products of pairings, subgroup membership and the pairing check


def multi_miller_loop(C: PairingCurve, pairs):
    """f of the product Π e(P_i, Q_i) before the final exponentiation: one Miller loop over the NAF
    of the ate loop length whose accumulator takes every pair's lines (one F_p¹² squaring per
    iteration, shared), each pair with its own point T_i (pairs with a point at infinity contribute
    1 and are left out).  With one pair it is :func:`miller_loop` exactly."""
    T12, K = C.T, C.K
    pairs = [(P, Q) for P, Q in pairs if P is not None and Q is not None]
    if not pairs:
        return T12.ONE
    with C.F.phase("miller"):
        L = C.ate_loop
        digits = naf(abs(L))
        Ts = [(Q[0], Q[1], K.one) for _, Q in pairs]
        negQs = [C.E2.neg(Q) for _, Q in pairs]
        f = None
        for d in reversed(digits[:-1]):
            if f is not None:
                f = T12.sqr12(f)
            for i, (P, Q) in enumerate(pairs):
                Ts[i], line = dbl_step(C, Ts[i], P)
                f = T12.from_w(line) if f is None else T12.mul12_sparse(f, line)
            if d:
                for i, (P, Q) in enumerate(pairs):
                    Ts[i], line = add_step(C, Ts[i], Q if d == 1 else negQs[i], P)
                    f = T12.mul12_sparse(f, line)
        if L < 0:
            f = T12.conj12(f)
            Ts = [(T[0], K.neg(T[1]), T[2]) for T in Ts]
        if C.family == "bn":
            for i, (P, Q) in enumerate(pairs):
                T, line = add_step(C, Ts[i], C.psi(Q, 1), P)
                f = T12.mul12_sparse(f, line)
                _, line = add_step(C, T, C.E2.neg(C.psi(Q, 2)), P)
                f = T12.mul12_sparse(f, line)
    return f


def multi_pairing(C: PairingCurve, pairs):
    """Π e(P_i, Q_i) by one shared Miller loop (:func:`multi_miller_loop`) and one final
    exponentiation."""
    return final_exp(C, multi_miller_loop(C, pairs))


def in_g1(C: PairingCurve, P) -> bool:
    """P ∈ G1 = E(F_p)[r] (infinity included).  BN: #E(F_p) = r, so a point on the curve is in G1.
    BLS12: Scott's test (ePrint 2021/1130, §3), φ(P) = [−u²]P for the endomorphism φ(x, y) = (βx, y),
    β the cube root of unity for which φ acts on G1 as −u² (a root of λ² + λ + 1 mod r, since
    r = u⁴ − u² + 1); a 2·log2(u)-bit scalar instead of log2(r)."""
    E = C.E1
    if not E.is_on_curve(P):
        return False
    if P is None or E.cofactor == 1:
        return True
    x, y = P
    return E.eq((C.F.mul(x, C.g1_beta), y), E.mul(-C.u * C.u, P))


def in_g2(C: PairingCurve, Q) -> bool:
    """Q ∈ G2 (the r-torsion of the twist E'(F_p²) on which ψ acts as [p]; infinity included), by
    ψ(Q) = [p mod r]Q: p ≡ u (mod r) for BLS12 (Scott, ePrint 2021/1130, §4) and p ≡ 6u² (mod r)
    for BN (p − r = 6u²), a scalar of log2(u) or 2·log2(u) bits instead of log2(r).  The points of
    the twist's other subgroups fail it; the tests check that against [r]Q = ∞ on every prime set."""
    E = C.E2
    if not E.is_on_curve(Q):
        return False
    if Q is None:
        return True
    return E.eq(C.psi(Q, 1), E.mul(C.g2_eigen, Q))


def pairing_check(C: PairingCurve, pairs) -> bool:
    """Whether every P_i is in G1, every Q_i in G2 and Π e(P_i, Q_i) = 1 (EIP-197's and EIP-2537's
    pairing check; a BLS signature σ on H(m) under pk = [sk]g2 verifies as
    pairing_check([(σ, −g2), (H(m), pk)])).  An invalid point makes it false, never a value."""
    pairs = list(pairs)
    if not all(in_g1(C, P) and in_g2(C, Q) for P, Q in pairs):
        return False
    return C.T.eq12(multi_pairing(C, pairs), C.T.ONE)


# ---------------------------------------------------------------------------------------------
# the slow references: textbook affine Miller loops in E(F_p^12)


class _E12:
    """Affine arithmetic on E(F_p¹²) with Miller-loop lines, for the references only."""

    def __init__(self, C: PairingCurve):
        self.C, self.T = C, C.T
        self.three, self.two, self.zero = C.embed(3), C.embed(2), C.embed(0)

    def sub(self, a, b):
        T = self.T
        return T.add12(a, (T.neg6(b[0]), T.neg6(b[1])))

    def step(self, R, S, at):
        """(R + S, ℓ_{R,S}(at) / v_{R+S}(at)); a vertical line alone when R + S = O."""
        T, sub = self.T, self.sub
        (x1, y1), (x2, y2) = R, S
        xA, yA = at
        if T.eq12(x1, x2):
            if not T.eq12(y1, y2) or T.eq12(y1, self.zero):
                return None, sub(xA, x1)
            lam = T.mul12(T.mul12(self.three, T.sqr12(x1)), T.inv12(T.mul12(self.two, y1)))
        else:
            lam = T.mul12(sub(y2, y1), T.inv12(sub(x2, x1)))
        x3 = sub(sub(T.sqr12(lam), x1), x2)
        y3 = sub(T.mul12(lam, sub(x1, x3)), y1)
        line = sub(sub(yA, y1), T.mul12(lam, sub(xA, x1)))
        return (x3, y3), T.mul12(line, T.inv12(sub(xA, x3)))

    def miller(self, n: int, R0, at):
        """(f_{n,R0}(at), [n]R0) by binary double-and-add; f_{−n} = 1/(f_n·v_{[n]R0})."""
        T = self.T
        R, f = R0, T.ONE
        for bit in bin(abs(n))[3:]:
            R, g = self.step(R, R, at)
            f = T.mul12(T.sqr12(f), g)
            if bit == "1":
                R, g = self.step(R, R0, at)
                f = T.mul12(f, g)
        if n < 0:
            f = T.inv12(T.mul12(f, self.sub(at[0], R[0])))
            R = (R[0], self.sub(self.zero, R[1]))
        return f, R

    def frob(self, R):
        T, p = self.T, self.C.p
        return (T.pow12(R[0], p), T.pow12(R[1], p))


def tate_reference(C: PairingCurve, P, Q):
    """The reduced Tate pairing t_r(P, Q) = f_{r,P}(Q')^((p¹² − 1)/r), Q' = Q untwisted into
    E(F_p¹²): plain affine Miller loop over r with vertical lines, plain exponentiation.
    (With the arguments swapped, t_r(Q, P) is trivial on G2 × G1 for BN curves: P ∈ rE(F_p¹²).)"""
    if P is None or Q is None:
        return C.T.ONE
    E = _E12(C)
    f, _ = E.miller(C.r, (C.embed(P[0]), C.embed(P[1])), C.untwist(Q))
    return C.T.pow12(f, C.final_exponent)


def ate_reference(C: PairingCurve, P, Q):
    """The optimal ate pairing by the textbook: affine Miller loop over the binary expansion of
    6u + 2 (BN) or u (BLS12) in E(F_p¹²) with verticals, π(R) = (x^p, y^p) by exponentiation, the
    two extra lines (BN) and the exponent (p¹² − 1)/r.  Shares nothing with :func:`optimal_ate`
    but the tower's multiplication."""
    if P is None or Q is None:
        return C.T.ONE
    T, E = C.T, _E12(C)
    at = (C.embed(P[0]), C.embed(P[1]))
    Q12 = C.untwist(Q)
    f, R = E.miller(C.ate_loop, Q12, at)
    if C.family == "bn":
        Q1 = E.frob(Q12)
        Q2 = E.frob(Q1)
        Q2 = (Q2[0], E.sub(E.zero, Q2[1]))
        R, g = E.step(R, Q1, at)
        f = T.mul12(f, g)
        R, g = E.step(R, Q2, at)
        f = T.mul12(f, g)
    return T.pow12(f, C.final_exponent)


# ---------------------------------------------------------------------------------------------
# the literature's per-step costs, for comparison (``pairhw opcount``)

#: F_p products of each step in the literature, with m̃ = 3 (Karatsuba) and s̃ = 2 (complex squaring)
LITERATURE_STEPS = {
    "dbl": (25, "doubling step and its line, 3m̃ + 6s̃ + 4m (Costello–Lange–Naehrig 2010; Aranha et al. 2011)"),
    "add": (41, "mixed addition step and its line, 11m̃ + 2s̃ + 4m (Aranha et al. 2011)"),
    "line": (39, "sparse product by a line, 13m̃ (Aranha et al. 2011)"),
    "sqr12": (36, "F_p¹² squaring, 12m̃ (complex method over F_p⁶)"),
    "mul12": (54, "F_p¹² product, 18m̃ (Karatsuba)"),
    "csqr": (18, "cyclotomic squaring, 9s̃ (Granger–Scott 2010)"),
    "frob": (15, "Frobenius p^k of F_p¹², 5m̃"),
    "psi": (6, "twisted Frobenius of a G2 point, 2m̃"),
}


def literature_products(C: PairingCurve) -> dict:
    """F_p products per phase by the literature's per-step costs (:data:`LITERATURE_STEPS`) for this
    curve's loop and exponent: the Miller loop over the NAF of 6u + 2 or u (first iteration without
    squaring or line product, BN's two Frobenius additions), and the hard part as Scott et al. 2009
    (BN: 3 exponentiations by u, 13 products, 4 cyclotomic squarings, 7 Frobenius) or as
    :func:`final_exp_hard_bls12` (BLS12: exponentiations by u − 1, (u − 1)/3, u, u, u, 5 products,
    3 Frobenius), each exponentiation by square and multiply over the NAF (the textbook choice)."""
    c = {k: v[0] for k, v in LITERATURE_STEPS.items()}
    digits = naf(abs(C.ate_loop))
    n_dbl, n_add = len(digits) - 1, sum(1 for d in digits[:-1] if d)
    miller = n_dbl * c["dbl"] + (n_dbl - 1) * (c["sqr12"] + c["line"]) + n_add * (c["add"] + c["line"])
    if C.family == "bn":
        miller += 2 * (c["add"] + c["line"]) + 2 * c["psi"]

    def exp(e):
        e = abs(e)
        return (e.bit_length() - 1) * c["csqr"] + (sum(1 for d in naf(e) if d) - 1) * c["mul12"]

    u = C.u
    if C.family == "bn":
        hard = 3 * exp(u) + 13 * c["mul12"] + 4 * c["csqr"] + 7 * c["frob"]
    else:
        hard = exp(u - 1) + exp((u - 1) // 3) + 3 * exp(u) + 5 * c["mul12"] + 3 * c["frob"]
    return {"miller": miller, "final_exp/hard": hard}


def gt_to_hex(C: PairingCurve, e) -> list[str]:
    return [C.F.to_hex(c) for c in C.T.flatten(e)]


#: The pairings by name (the CLI's ``--algorithm`` and the designs' ``algorithm``; the first is the default).
ALGORITHMS = {
    "optimal-ate": optimal_ate,
    "ate-reference": ate_reference,
    "tate-reference": tate_reference,
}
