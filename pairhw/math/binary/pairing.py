"""Pairings on the binary supersingular curves E_b : y² + y = x³ + x + b (embedding degree 4).

Notation: q = 2^m (m odd), N = #E = q + 1 + ν·2^((m+1)/2) with ν = ±1 (``order_sign``), n = (m-1)/2,
ψ(x, y) = (x + s², y + s·x + t) the distortion map (s² = s + 1, t² = t + s).

pairhw's reduced ηT is defined (docs/ARCHITECTURE.md) as

    e(P, Q) = t_r(P, ψ(Q))^(2^m),   t_r(P, R) = f_{r,P}(R)^((q⁴-1)/r),

with f_{r,P} from a plain Miller loop over r (:func:`tate_reference`).  Every fast algorithm here is
tested against it; the relation of each to e is stated in its docstring and asserted by the tests.

Final exponentiations use M = (q⁴-1)/N = (q²-1)(q + 1 - ν·2^((m+1)/2)).
"""

from __future__ import annotations

from pairhw.math.binary.curve import Curve2
from pairhw.math.binary.tower import Tower


def _tower(C: Curve2) -> Tower:
    T = getattr(C, "_tower", None)
    if T is None or T.F is not C.F:
        T = Tower(C.F)
        C._tower = T
    return T


def order_sign(C: Curve2) -> int:
    m = C.F.m
    nu = (C.order - (1 << m) - 1) >> ((m + 1) // 2)
    if nu not in (1, -1):
        raise ValueError("curve order is not 2^m + 1 ± 2^((m+1)/2)")
    return nu


def psi(C: Curve2, Q):
    """ψ(Q) = (x + s², y + s·x + t) as two F_{2^4m} elements (s² = s + 1)."""
    x, y = Q
    return (x ^ 1, 1, 0, 0), (y, x, 1, 0)


# ---------------------------------------------------------------------------------------------
# the slow reference


def miller_reference(C: Curve2, P, Q):
    """f_{r,P}(ψ(Q)) by a plain double-and-add Miller loop over the bits of r, affine points.

    Each step multiplies by the tangent or chord line through the current point, evaluated at ψ(Q),
    with full F_{2^4m} products.  Vertical lines are omitted: at ψ(Q) they take values x_Q + s² + x_R
    in F_{2^2m}, which the final exponentiation ((q²-1) divides (q⁴-1)/r) sends to 1.
    """
    F = C.F
    T = _tower(C)
    X, Y = psi(C, Q)
    f = T.ONE
    R = P
    xp, yp = P
    for bit in bin(C.r)[3:]:
        xr, yr = R
        lam = F.sqr(xr) ^ 1  # tangent slope x² + 1
        line = T.add4(Y, (yr, 0, 0, 0))
        line = T.add4(line, T.mul4((lam, 0, 0, 0), T.add4(X, (xr, 0, 0, 0))))
        f = T.mul4(T.mul4(f, f), line)
        R = C.double(R)
        if bit == "1":
            xr, yr = R
            if xr == xp:  # R = -P: vertical chord, dropped (last step only)
                R = C.add(R, P)
                continue
            lam = F.mul(yr ^ yp, F.inv_euclid(xr ^ xp))
            line = T.add4(Y, (yr, 0, 0, 0))
            line = T.add4(line, T.mul4((lam, 0, 0, 0), T.add4(X, (xr, 0, 0, 0))))
            f = T.mul4(f, line)
            R = C.add(R, P)
    if R is not None:
        raise ValueError("P is not of order r")
    return f


def tate_reference(C: Curve2, P, Q):
    """The reduced Tate pairing t_r(P, ψ(Q)) = f_{r,P}(ψ(Q))^((q⁴-1)/r), by plain exponentiation."""
    T = _tower(C)
    if P is None or Q is None:
        return T.ONE
    m = C.F.m
    return T.pow4(miller_reference(C, P, Q), ((1 << (4 * m)) - 1) // C.r)


def etat_reference(C: Curve2, P, Q):
    """pairhw's reduced ηT by definition: e(P, Q) = t_r(P, ψ(Q))^(2^m)."""
    T = _tower(C)
    return T.frob_q(tate_reference(C, P, Q))


# ---------------------------------------------------------------------------------------------
# final exponentiations


def final_exp_adikari12(C: Curve2, f):
    """Seed 000 Alg. 2, step by step: f^((q²-1)(q - ν·2^((m+1)/2) + 1)).

    S ← f^(q²); T ← f⁻¹ (Alg. 3); S ← S·T; T ← S^(q²) (= S⁻¹, S is unitary); T ← T^(2^((m+1)/2))
    by four chains of (m-1)/2 square roots; R ← S^q; R ← R·T·S.  For ν = -1 (not seed 000's curve)
    step 4 is skipped so that T = S^(+2^((m+1)/2)).
    """
    F = C.F
    T4 = _tower(C)
    m = F.m
    nu = order_sign(C)
    with F.phase("step1"):
        S = T4.conj_q2(f)
    with F.phase("step2"):
        Tv = T4.inv4(f)
    with F.phase("step3"):
        S = T4.mul4(S, Tv)
    with F.phase("step4"):
        Tv = T4.conj_q2(S) if nu == 1 else S
    with F.phase("step5"):
        Tv = T4.frobenius_by_sqrt(Tv, (m + 1) // 2)
    with F.phase("step6"):
        R = T4.frob_q(S)
    with F.phase("step7"):
        R = T4.mul4(T4.mul4(R, Tv), S)
    return R


def final_exp_plain(C: Curve2, f):
    """f^((q⁴-1)/N) by square-and-multiply (check of :func:`final_exp_adikari12`)."""
    m = C.F.m
    return _tower(C).pow4(f, ((1 << (4 * m)) - 1) // C.order)


# ---------------------------------------------------------------------------------------------
# ηT: seed 000 Alg. 1 and the general closed form


def adikari12_applies(C: Curve2) -> None:
    """Raise ``ValueError`` unless Adikari et al.'s Alg. 1 (as printed) runs on ``C``."""
    if C.F.m % 8 != 7 or C.b != 0:
        raise ValueError(f"Adikari et al.'s Alg. 1 is written for m ≡ 7 (mod 8) and b = 0; this curve has "
                         f"m = {C.F.m} ≡ {C.F.m % 8} (mod 8) and b = {C.b}")


def etat_adikari12(C: Curve2, P, Q):
    """Seed 000 Alg. 1 (the ηT loop with square roots of P and squares of Q) and Alg. 2.

    Written for y² + y = x³ + x over F_2^1223 (m ≡ 7 mod 8, b = 0); it is valid on every set of that
    class (f2-79 in the tests), and equals e(P, Q) exactly.

        T ← x1 + 1;  f ← T·(x1 + x2 + 1) + y1 + y2 + (T + x2)s + t
        for i = 1 .. (m+1)/2:
            T ← x1;  x1 ← √x1;  y1 ← √y1
            g ← T·(x1 + x2) + y1 + y2 + x1 + 1 + (T + x2)s + t;   f ← f·g
            x2 ← x2²;  y2 ← y2²
        return f^((q²-1)(q - 2^((m+1)/2) + 1))
    """
    adikari12_applies(C)
    T4 = _tower(C)
    if P is None or Q is None:
        return T4.ONE
    F = C.F
    add, mul = F.add, F.mul
    x1, y1 = P
    x2, y2 = Q
    with F.phase("miller"):
        t = add(x1, 1)
        f = (add(add(mul(t, add(add(x1, x2), 1)), y1), y2), add(t, x2), 1, 0)
        for _ in range((F.m + 1) // 2):
            F.mark("iteration")
            t = x1
            x1 = F.sqrt(x1)
            y1 = F.sqrt(y1)
            g0 = add(add(add(add(mul(t, add(x1, x2)), y1), y2), x1), 1)
            f = T4.sparse_mul(f, g0, add(t, x2))
            x2 = F.sqr(x2)
            y2 = F.sqr(y2)
    with F.phase("final_exp"):
        return final_exp_adikari12(C, f)


def _run(C: Curve2, P, Q, miller, final_exp):
    """∞ pairs to 1; otherwise ``final_exp(C, miller(C, P, Q))``, each in its counted phase."""
    T4 = _tower(C)
    if P is None or Q is None:
        return T4.ONE
    F = C.F
    with F.phase("miller"):
        f = miller(C, P, Q)
    with F.phase("final_exp"):
        return final_exp(C, f)


def _eps(i: int) -> int:
    """ε_i of seed 001 §3: φ^i(x, y) = (x + i, y + i·x + ε_i), ε_i = 1 iff i ≡ 2, 3 (mod 4)."""
    return 1 if i % 4 in (2, 3) else 0


def etat_miller(C: Curve2, P, Q):
    """The unreduced ηT value ℓ(ψQ)·∏_{i=0}^{n} g_{2^i P}(ψQ)^(2^(n-i)) in closed form, any odd m, b.

    Derivation (re-done for pairhw; the Barreto et al. / Beuchat et al. formulation):
    g_R(X, Y) = (x_R² + 1)X + Y + y_R² + b is the tangent at R, and 2^i P = φ^i(α^(4^i), β^(4^i)).
    Raising the i-th factor to 2^(n-i) and writing j = n - i gives, with α_j = α^(2^-j),
    β_j = β^(2^-j) (square roots of P), x_j = x^(2^j), y_j = y^(2^j) (squares of Q), c = (n-j) mod 2:

        h_j = G0 + G1·s^(2^j) + t^(2^j),
        G0 = (α_j + c + 1)(x_j + 1) + y_j + β_j + c·α_j + ε_(n-j) + b,   G1 = α_j + c + 1 + x_j,

    with s^(2^j) = s + (j mod 2) and t^(2^j) = t, t + s, t + 1, t + s + 1 for j ≡ 0, 1, 2, 3 (mod 4).
    ℓ is the chord through 2^((m+1)/2)P = φ^(n+1)(α², β²) and (α, β + σ), σ = b + ε_(n+1): its slope
    is α + 1 + ((n+1) mod 2), found by matching coefficients with the curve equation.
    """
    F = C.F
    T4 = _tower(C)
    add, mul = F.add, F.mul
    m, b = F.m, C.b
    n = (m - 1) // 2
    alpha, beta = P
    x, y = Q
    c1 = (n + 1) & 1
    sigma = b ^ _eps(n + 1)
    lam = alpha ^ 1 ^ c1
    # ℓ(ψQ) = Y + β + σ + λ(X + α), X = x + 1 + s, Y = y + s·x + t
    f = (add(add(add(y, beta), sigma), mul(lam, add(add(x, 1), alpha))), add(x, lam), 1, 0)
    for j in range(n + 1):
        F.mark("iteration")
        if j:
            alpha, beta = F.sqrt(alpha), F.sqrt(beta)
            x, y = F.sqr(x), F.sqr(y)
        c = (n - j) & 1
        a1 = alpha ^ c ^ 1
        g0 = add(add(add(mul(a1, add(x, 1)), y), beta), _eps(n - j) ^ b)
        if c:
            g0 = add(g0, alpha)
        g1 = add(a1, x)
        if j & 1:
            g0 = add(g0, g1)
        jm = j & 3
        if jm == 1:
            g1 ^= 1
        elif jm == 2:
            g0 ^= 1
        elif jm == 3:
            g0 ^= 1
            g1 ^= 1
        f = T4.sparse_mul(f, g0, g1)
    return f


def etat(C: Curve2, P, Q):
    """pairhw's reduced ηT e(P, Q), fast: :func:`etat_miller` then :func:`final_exp_adikari12`.

    The closed-form loop followed by f^((q⁴-1)/N) gives e(P, Q)^(-ν): for ν = +1 (f2-1223's class)
    it is e itself; for ν = -1 the natural output is the inverse, which is conjugated
    (x ↦ x^(q²), free in hardware; docs/ARCHITECTURE.md).
    """
    def final(C, f):
        e = final_exp_adikari12(C, f)
        return _tower(C).conj_q2(e) if order_sign(C) == -1 else e

    return _run(C, P, Q, etat_miller, final)


# ---------------------------------------------------------------------------------------------
# seed 001: Tate pairing, Alg. 1 (m iterations, no square roots) and Alg. 2 (halved loop)


def _alg1_start(C: Curve2, P, Q):
    """Alg. 1 lines 1–3: the loop's start state (α⁴, β⁴, u, v)."""
    F = C.F
    alpha, beta = P
    x, y = Q
    alpha = F.sqr(F.sqr(alpha))  # (in this order: a core's schedule follows the traced order)
    beta = F.sqr(F.sqr(beta))
    x2 = F.sqr(x)
    u = F.add(F.add(x2, F.sqr(y)), C.b ^ (((F.m - 1) // 2) & 1))
    return alpha, beta, u, F.add(x2, 1)


def tate_alg1_miller(C: Curve2, P, Q):
    """Seed 001 Alg. 1 lines 1–8: C = ∏ A_i^(2^(m-1-i)) with squares only (α, β raised to 4)."""
    F = C.F
    T4 = _tower(C)
    add, mul, sqr = F.add, F.mul, F.sqr
    m = F.m
    Cacc = T4.ONE
    alpha, beta, u, v = _alg1_start(C, P, Q)
    theta = mul(alpha, v)
    for _ in range(m):
        F.mark("iteration")
        a0 = add(add(beta, theta), u)
        a1 = add(alpha, v)
        Cacc = T4.sparse_mul(T4.sqr4(Cacc), a0, a1)
        alpha = sqr(sqr(alpha))
        beta = sqr(sqr(beta))
        u = add(u, v)
        v = add(v, 1)
        theta = mul(alpha, v)
    return Cacc


def _alg1_state(F, u0, v0, alpha, beta, i: int):
    """Alg. 1's loop state (α, β, u, v) at iteration i from its start: α, β raised to 4^i, and
    v_i = v_0 + (i mod 2), u_i = u_0 + Σ_{j<i} v_j = u_0 + (i mod 2)·v_0 + ⌊i/2⌋ mod 2."""
    alpha, beta = F.sqr_k(alpha, (2 * i) % F.m), F.sqr_k(beta, (2 * i) % F.m)
    v = F.add(v0, i & 1)
    u = F.add(F.add(u0, v0) if i & 1 else u0, (i >> 1) & 1)
    return alpha, beta, u, v


def _chain_lengths(total: int, k: int) -> list:
    """Iterations per chain: ``total`` split into k contiguous ranges, the longer ones first."""
    return [total // k + (1 if j < total % k else 0) for j in range(k)]


def _run_chains(F, T4, states, lengths, step):
    """Step every chain once per marked iteration (a longer chain's extra step after them), then
    join: acc = (…(C_0^(2^(len_1))·C_1)^(2^(len_2))·…)·C_(k−1).  Returns (acc, the final states)."""
    for j in range(max(lengths)):
        if j < min(lengths):
            F.mark("iteration")
        states = [step(st, j == n - 1) if j < n else st for st, n in zip(states, lengths)]
    acc = states[0][4]
    for j in range(1, len(states)):
        acc = T4.mul4(T4.frobenius(acc, lengths[j]), states[j][4])
    return acc, states


def _chained(miller, final_exp, alg: str, k: int):
    """The pairing ``tate_<alg>`` with its Miller product as ``k`` interleaved chains."""
    def pairing(C: Curve2, P, Q):
        return _run(C, P, Q, lambda C, P, Q: miller(C, P, Q, k), final_exp)

    pairing.__name__ = f"tate_{alg}_{k}chain"
    pairing.__doc__ = (f":func:`tate_{alg}` with the Miller product as {k} interleaved chains "
                       f"(:func:`{miller.__name__}`); the same value.")
    return pairing


def tate_alg1_miller_chains(C: Curve2, P, Q, k: int = 2):
    """Alg. 1's Miller product C = ∏_{i<m} A_i^(2^(m−1−i)) as ``k`` independent chains that a core
    interleaves on the same multipliers.  Chain j covers the iterations [s_j, e_j) (contiguous, the
    longer ones first) and computes C_j = ∏ A_i^(2^(e_j−1−i)) from its own start state
    (:func:`_alg1_state`); then C = (…(C_0^(2^(e_1−e_0))·C_1)^(2^(e_2−e_1))·…)·C_(k−1): k − 1
    Frobenius maps and F_2^4m products more.  Each chain's recurrence C ← C²·A waits on a product;
    k of them keep the multipliers busy."""
    F = C.F
    T4 = _tower(C)
    add, mul, sqr = F.add, F.mul, F.sqr
    m = F.m
    alpha, beta, u, v = _alg1_start(C, P, Q)
    lengths = _chain_lengths(m, k)
    starts = [sum(lengths[:j]) for j in range(k)]
    states = []
    for s0 in starts:
        a, b_, uu, vv = (alpha, beta, u, v) if s0 == 0 else _alg1_state(F, u, v, alpha, beta, s0)
        states.append([a, b_, uu, vv, T4.ONE, mul(a, vv)])  # θ = α·v

    def step(st, last):
        alpha, beta, u, v, acc, theta = st
        a0 = add(add(beta, theta), u)
        a1 = add(alpha, v)
        acc = T4.sparse_mul(T4.sqr4(acc), a0, a1)
        if last:
            return [None, None, None, None, acc, None]
        alpha, beta = sqr(sqr(alpha)), sqr(sqr(beta))
        u, v = add(u, v), add(v, 1)
        return [alpha, beta, u, v, acc, mul(alpha, v)]

    return _run_chains(F, T4, states, lengths, step)[0]


def tate_alg1_chains(k: int):
    """:func:`tate_alg1` with the Miller product as ``k`` interleaved chains
    (:func:`tate_alg1_miller_chains`); the same value."""
    return _chained(tate_alg1_miller_chains, final_exp_shu06_alg1, "alg1", k)


def final_exp_shu06_alg1(C: Curve2, c):
    """c^(q²-1) by seed 001 §5.2: with c = C1 + C2 t and C1² + C1C2 + C2²s = c0 + c1 s,
    c^(q²-1) = (c0 + c1(s+1))·(C1² + C2²(1+s) + C2² t) / (c0² + c0c1 + c1²)."""
    F = C.F
    T4 = _tower(C)
    C1, C2 = (c[0], c[1]), (c[2], c[3])
    sq1, sq2 = T4.sqr2(C1), T4.sqr2(C2)
    n = T4.add2(T4.add2(sq1, T4.mul2(C1, C2)), T4.mul_s(sq2))
    c0, c1 = n
    den = F.inv(F.add(F.add(F.sqr(c0), F.mul(c0, c1)), F.sqr(c1)))
    k = (F.mul(F.add(c0, c1), den), F.mul(c1, den))  # (c0 + c1 + c1 s)/den
    w = T4.add2(sq1, sq2)
    w = T4.add2(w, T4.mul_s(sq2))  # C1² + C2² + C2² s
    lo = T4.mul2(k, w)
    hi = T4.mul2(k, sq2)
    return (lo[0], lo[1], hi[0], hi[1])


def tate_alg1(C: Curve2, P, Q):
    """Seed 001 Alg. 1 with its final exponentiation c^(q²-1) (§5.2).

    The output is the reduced Tate pairing t_r(P, ψ(Q)) itself, i.e. e(P, Q)^(2^(3m)) = e^(-2^m)
    (on μ_r, x^(q²) = x⁻¹); the tests assert this on every parameter set.
    """
    return _run(C, P, Q, tate_alg1_miller, final_exp_shu06_alg1)


def _alg2_start(C: Curve2, P, Q):
    """Alg. 2 lines 1–3: the loop's start state (α, β, u, v)."""
    F = C.F
    alpha, beta = P
    x, y = Q
    return F.add(F.sqr(alpha), 1), F.add(F.sqr(beta), 1), F.add(y, C.b ^ 1), F.add(x, 1)


def tate_alg2_miller(C: Curve2, P, Q):
    """Seed 001 Alg. 2 lines 1–12: (m+1)/2 iterations, then the ℓ(ψQ) factor via eq. (3)."""
    F = C.F
    T4 = _tower(C)
    add, mul, sqr = F.add, F.mul, F.sqr
    n = (F.m - 1) // 2
    Cacc = T4.ONE
    alpha, beta, u, v = _alg2_start(C, P, Q)
    theta = mul(alpha, v)
    for i in range(n + 1):
        F.mark("iteration")
        a0 = add(add(beta, theta), u)
        a1 = add(add(alpha, v), 1)
        Cacc = T4.sparse_mul(T4.sqr4(Cacc), a0, a1)
        if i < n:
            alpha = sqr(sqr(alpha))
            beta = sqr(sqr(beta))
            u = add(add(u, v), 1)
            v = add(v, 1)
            theta = mul(alpha, v)
    # line 11: A ← A + (α² + v + 1) + s
    a0 = add(a0, add(add(sqr(alpha), v), 1))
    a1 = add(a1, 1)
    return T4.sparse_mul(Cacc, a0, a1)


def tate_alg2_miller_chains(C: Curve2, P, Q, k: int = 2):
    """Alg. 2's Miller product as ``k`` interleaved chains (as :func:`tate_alg1_miller_chains`): the
    n + 1 factors A_i^(2^(n−i)) split into contiguous ranges, each chain from its own start state
    (α, β raised to 4^s = 2^(2s − m): square roots; v_s = v_0 + (s mod 2); u_s = u_0 + Σ_{i<s}(v_i + 1)), joined by Frobenius
    maps and F_2^4m products; then line 11's factor from the last iteration's A."""
    F = C.F
    T4 = _tower(C)
    add, mul, sqr = F.add, F.mul, F.sqr
    m = F.m
    alpha, beta, u, v = _alg2_start(C, P, Q)
    total = (m - 1) // 2 + 1
    lengths = _chain_lengths(total, k)
    starts = [sum(lengths[:j]) for j in range(k)]
    states = []
    for s0 in starts:
        if s0 == 0:
            a, b_, uu, vv = alpha, beta, u, v
        else:
            # α^(4^s) as m − 2s square roots: squarings would be chain 0's own, which a core then
            # reads from before the loop instead of computing them in it (the loop would not fold)
            a, b_ = F.sqrt_k(alpha, (m - 2 * s0) % m), F.sqrt_k(beta, (m - 2 * s0) % m)
            vv = add(v, s0 & 1)
            uu = add(add(u, v) if s0 & 1 else u, ((s0 >> 1) & 1) ^ (s0 & 1))
        states.append([a, b_, uu, vv, T4.ONE, mul(a, vv), None, None])  # θ = α·v; the last A

    def step(st, last):
        alpha, beta, u, v, acc, theta, _, _ = st
        a0 = add(add(beta, theta), u)
        a1 = add(add(alpha, v), 1)
        acc = T4.sparse_mul(T4.sqr4(acc), a0, a1)
        if last:
            return [alpha, beta, u, v, acc, None, a0, a1]
        alpha, beta = sqr(sqr(alpha)), sqr(sqr(beta))
        u, v = add(add(u, v), 1), add(v, 1)
        return [alpha, beta, u, v, acc, mul(alpha, v), None, None]

    acc, states = _run_chains(F, T4, states, lengths, step)
    alpha, _, _, v, _, _, a0, a1 = states[-1]
    # line 11: A ← A + (α² + v + 1) + s
    a0 = add(a0, add(add(sqr(alpha), v), 1))
    a1 = add(a1, 1)
    return T4.sparse_mul(acc, a0, a1)


def tate_alg2_chains(k: int):
    """:func:`tate_alg2` with the Miller product as ``k`` interleaved chains
    (:func:`tate_alg2_miller_chains`); the same value."""
    return _chained(tate_alg2_miller_chains, final_exp_shu06_alg2, "alg2", k)


def final_exp_shu06_alg2(C: Curve2, c):
    """c^(M·T') with M = (q²-1)(q + 1 - ν·2^((m+1)/2)) and T' = 2^((m+1)/2) + ν (seed 001 §5.2).

    Eq. (8): after the M part, z = c^M has order dividing q + 1 + ν·2^((m+1)/2), so
    z^(2^((m+1)/2) + ν) = z^(ν·q): one Frobenius (and a conjugation when ν = +1).
    """
    T4 = _tower(C)
    z = final_exp_adikari12(C, c)  # the M part is exactly seed 000 Alg. 2
    z = T4.frob_q(z)
    return T4.conj_q2(z) if order_sign(C) == 1 else z


def tate_alg2(C: Curve2, P, Q):
    """Seed 001 Alg. 2 with its final exponentiation C^(MT) (eq. (8)); equals t_r(P, ψ(Q))."""
    return _run(C, P, Q, tate_alg2_miller, final_exp_shu06_alg2)


#: the algorithms that run on some parameter sets only: each raises ``ValueError`` on another
APPLIES = {"etat-adikari12": adikari12_applies}

ALGORITHMS = {
    "etat": etat,
    "tate-alg1-2chain": tate_alg1_chains(2),
    "tate-alg1-3chain": tate_alg1_chains(3),
    "tate-alg2-2chain": tate_alg2_chains(2),
    "etat-adikari12": etat_adikari12,
    "tate-alg1": tate_alg1,
    "tate-alg2": tate_alg2,
    "tate-reference": tate_reference,
}

#: the old names of these functions (CHANGELOG.md), kept so code that uses them still runs
etat_seed000, final_exp_seed000, seed000_applies = etat_adikari12, final_exp_adikari12, adikari12_applies
final_exp_seed001_alg1, final_exp_seed001_alg2 = final_exp_shu06_alg1, final_exp_shu06_alg2
