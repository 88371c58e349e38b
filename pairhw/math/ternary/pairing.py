"""The ηT pairing on E_b : y² = x³ − x + b over F_3^m (seed 004; Beuchat et al.).

Notation: q = 3^m, μ as in :mod:`pairhw.math.ternary.curve`, N = #E = q + 1 + μb·3^((m+1)/2), n = (m−1)/2,
ψ(x, y) = (ρ − x, yσ), and the final exponent

    M = (3^(3m) − 1)·(3^m + 1)·(3^m + 1 − μb·3^((m+1)/2)) = (3^(6m) − 1)/N.

pairhw's reduced ηT in characteristic three is seed 004's algorithm with its final exponentiation:
``etat(P, Q) = etat_miller(P, Q)^M``.  It is tested against the slow reference
t_r(P, ψ(Q)) = f_{r,P}(ψ(Q))^((3^(6m)−1)/r) of :func:`tate_reference`:

    etat(P, Q) = t_r(P, ψ(Q))^c   with   c = μb·3^(m+1) mod r   (:func:`etat_tate_exponent`),

the exponent found by discrete logarithm on eight small curves (m = 5, 7, 11, 13, both b: every class
of m mod 12) and checked, as a closed form, on every parameter set.

Miller loops
------------
``etat_miller_nocr`` is the loop without cube roots (Beuchat, Shirase, Takagi, Okamoto 2007;
Beuchat et al. IEEE TC 57(11), 2008, Alg. 4): with x_P ← x_P + b, y_P ← −μb·y_P, x_Q ← x_Q³,
y_Q ← y_Q³, t = x_P + x_Q, it starts from R = (y_P·t − y_Q·σ − y_P·ρ)·S and iterates n times
R ← R³, x_Q ← x_Q⁹ − b, y_Q ← −y_Q⁹, R ← R·S with S = −t² + y_P·y_Q·σ − t·ρ − ρ².

``etat_miller`` is seed 004's loop with cube roots (slide "Computing the non-reduced pairing"):
the same factors, each raised to 3^(−j).  Applying x ↦ x^(3^(−j)) to the j-th factor maps
ρ ↦ ρ − jb and σ ↦ (−1)^j σ; the shifts −jb in ρ and in x_Q⁹ − b cancel after completing the square, so
the j-th factor becomes S with t = x_P^(3^(−j)) + x_Q^(3^(j+1)) and u = y_P^(3^(−j))·y_Q^(3^(j+1)):
x_P and y_P take a cube root and x_Q, y_Q a cube per iteration, 2 products for t² and u and the
15-product sparse R·S: 17 products per iteration, (m+1)/2 iterations (i = 0 … (m−1)/2).  Hence exactly
``etat_miller_nocr = etat_miller^(3^n)`` (tested).  The initial factor y_P·t − y_Q·σ − y_P·ρ is the
papers' up to a sign λ ∈ F_3, which the final exponentiation removes.
"""

from __future__ import annotations

import functools

from pairhw.math.ternary.curve import Curve3
from pairhw.math.ternary.tower import Tower3


def tower(C: Curve3) -> Tower3:
    T = getattr(C, "_tower", None)
    if T is None or T.F is not C.F:
        T = Tower3(C.F, C.b)
        C._tower = T
    return T


def final_exponent(C: Curve3) -> int:
    m = C.F.m
    return (3 ** (3 * m) - 1) * (3 ** m + 1) * (3 ** m + 1 - C.mu * C.b * 3 ** ((m + 1) // 2))


def etat_tate_exponent(C: Curve3) -> int:
    """c with etat(P, Q) = t_r(P, ψ(Q))^c: μb·3^(m+1) mod r (module docstring)."""
    return C.mu * C.b * pow(3, C.F.m + 1, C.r) % C.r


def psi(C: Curve3, Q):
    """ψ(Q) = (ρ − x, y·σ) as two F_{3^6m} elements."""
    F = C.F
    x, y = Q
    z = F.ZERO
    return (F.neg(x), z, F.ONE, z, z, z), (z, y, z, z, z, z)


# ---------------------------------------------------------------------------------------------
# the slow reference


def miller_reference(C: Curve3, P, Q):
    """f_{r,P}(ψ(Q)) by a plain double-and-add Miller loop over the bits of r, affine points.

    The line through T with slope λ, at ψ(Q) = (ρ − x_Q, y_Qσ), is
    y_Qσ − y_T − λ(ρ − x_Q − x_T) = (λ(x_Q + x_T) − y_T) + y_Q·σ − λ·ρ.  Vertical lines are omitted:
    at ψ(Q) they are ρ − x_Q − x_T ∈ F_{3^3m}, sent to 1 by the final exponentiation
    ((3^(3m) − 1) divides (3^(6m) − 1)/r since r | 3^(3m) + 1).
    """
    F, T = C.F, tower(C)
    if P is None or Q is None:
        return T.ONE6
    xq, yq = Q
    z = F.ZERO

    def line(lam, R):
        xt, yt = R
        return (F.sub(F.mul(lam, F.add(xq, xt)), yt), yq, F.neg(lam), z, z, z)

    f = T.ONE6
    R = P
    for bit in bin(C.r)[3:]:
        f = T.sqr6(f)
        lam = F.inv(R[1])                   # tangent slope 1/y (ec3.Curve3.double)
        f = T.mul6(f, line(lam, R))
        R = C.double(R)
        if bit == "1":
            if R[0] == P[0]:                # R = −P: vertical line, dropped
                R = C.add(R, P)
                continue
            lam = F.mul(F.sub(P[1], R[1]), F.inv(F.sub(P[0], R[0])))
            f = T.mul6(f, line(lam, R))
            R = C.add(R, P)
    return f


def tate_reference(C: Curve3, P, Q):
    """t_r(P, ψ(Q)) = f_{r,P}(ψ(Q))^((3^(6m) − 1)/r), plain exponentiation (slow)."""
    T = tower(C)
    return T.pow6(miller_reference(C, P, Q), (3 ** (6 * C.F.m) - 1) // C.r)


# ---------------------------------------------------------------------------------------------
# ηT Miller loops


def _start(C: Curve3, P, Q):
    """x_P + b, −μb·y_P, x_Q³, y_Q³."""
    F = C.F
    xp = F.add(P[0], C.bF)
    yp = P[1] if -C.mu * C.b == 1 else F.neg(P[1])
    return xp, yp, F.cube(Q[0]), F.cube(Q[1])


def _first(C: Curve3, xp, yp, yq, t):
    """The initial factor y_P·t − y_Q·σ − y_P·ρ (1 product)."""
    F = C.F
    z = F.ZERO
    return (F.mul(yp, t), F.neg(yq), F.neg(yp), z, z, z)


def etat_miller(C: Curve3, P, Q, sparse: str = "beuchat"):
    """Seed 004's Miller loop with cube roots (module docstring); ``sparse`` picks the R·S
    product: ``beuchat`` (15 products, 29 additions) or ``gorla`` (12 products)."""
    F, T = C.F, tower(C)
    if P is None or Q is None:
        return T.ONE6
    mul_s = T.mul_sparse_beuchat if sparse == "beuchat" else T.mul_sparse_gorla
    with F.phase("miller/setup"):
        xp, yp, xq, yq = _start(C, P, Q)
        t = F.add(xp, xq)
        R = _first(C, xp, yp, yq, t)
    for i in range((C.F.m - 1) // 2 + 1):
        with F.phase("miller/loop"):
            if i:
                F.mark("iteration")  # the first iteration, without point updates, is not the loop's
                with F.phase("points"):
                    xp, yp = F.cbrt(xp), F.cbrt(yp)
                    xq, yq = F.cube(xq), F.cube(yq)
                with F.phase("line"):
                    t = F.add(xp, xq)
            with F.phase("line"):
                u = F.mul(yp, yq)
                t2 = F.mul(t, t)
            with F.phase("product"):
                R = mul_s(R, F.neg(t2), u, F.neg(t))
    return R


def etat_miller_nocr(C: Curve3, P, Q):
    """The loop without cube roots (Beuchat et al. 2008 Alg. 4; module docstring)."""
    F, T = C.F, tower(C)
    if P is None or Q is None:
        return T.ONE6
    with F.phase("miller/setup"):
        xp, yp, xq, yq = _start(C, P, Q)
        t = F.add(xp, xq)
        R = _first(C, xp, yp, yq, t)
        R = T.mul_sparse_beuchat(R, F.neg(F.mul(t, t)), F.mul(yp, yq), F.neg(t))
    for _ in range((C.F.m - 1) // 2):
        with F.phase("miller/loop"):
            F.mark("iteration")
            with F.phase("points"):
                R = T.cube6(R)
                xq = F.sub(F.cube_k(xq, 2), C.bF)
                yq = F.neg(F.cube_k(yq, 2))
            with F.phase("line"):
                t = F.add(xp, xq)
                u = F.mul(yp, yq)
                t2 = F.mul(t, t)
            with F.phase("product"):
                R = T.mul_sparse_beuchat(R, F.neg(t2), u, F.neg(t))
    return R


# ---------------------------------------------------------------------------------------------
# final exponentiation


def final_exp_plain(C: Curve3, f):
    """f^M by plain square and multiply (the check)."""
    return tower(C).pow6(f, final_exponent(C))


def final_exp(C: Curve3, f):
    """f^M as Beuchat et al. (2008, Alg. 8) compute it:
    U = f^(3^(3m)−1) (:meth:`Tower3.conj_ratio`), V = U^(3^m+1) with the nine products of Alg. 7
    (:meth:`Tower3.torus_frob_mul`, U being unitary), then
    V^(3^m + 1 − μb·3^((m+1)/2)) = V^(3^m+1) · (V^(3^((m+1)/2)))^(−μb), the power of 3 by (m+1)/2
    cubings and the inverse (if −μb = −1) by conjugation, V being unitary."""
    F, T = C.F, tower(C)
    m = F.m
    with F.phase("final_exp/conj_ratio"):
        u = T.conj_ratio(f)
    with F.phase("final_exp/torus"):
        v = T.torus_frob_mul(u)
    with F.phase("final_exp/cubings"):
        w = T.cube6_k(v, (m + 1) // 2)  # V^(3^((m+1)/2)): six coefficient powers, one basis map
        if -C.mu * C.b == -1:
            w = T.conj(w)
    with F.phase("final_exp/torus"):
        v = T.torus_frob_mul(v)
    with F.phase("final_exp/last"):
        return T.mul6(v, w)


def etat(C: Curve3, P, Q, sparse: str = "beuchat"):
    """pairhw's reduced ηT over F_3^m: seed 004's loop and final exponentiation."""
    return final_exp(C, etat_miller(C, P, Q, sparse))


def etat_nocr(C: Curve3, P, Q):
    """The loop without cube roots, reduced: equals etat(P, Q)^(3^((m−1)/2))."""
    return final_exp(C, etat_miller_nocr(C, P, Q))


#: The pairings by name (the CLI's ``--algorithm`` and the designs' ``algorithm``).
ALGORITHMS = {
    "etat": etat,
    "etat-gorla": functools.partial(etat, sparse="gorla"),
    "etat-nocr": etat_nocr,
    "tate-reference": tate_reference,
}
