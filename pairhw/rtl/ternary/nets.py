"""Trit networks in the two-bit encoding, built from the golden model's own formulas.

A trit vector is a pair (H, L) of m-bit values.  Sums use :func:`pairhw.math.ternary.field.add_hl`
(six bitwise operations) applied to Amaranth values, so the hardware adder is the model's function;
every level of a sum is materialised in ``Signal``\\ s (an expression tree would re-emit the shared
operands of each addition at every level).
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Module, Signal

from pairhw.math.ternary.field import add_hl


def trit_add(m: Module, a, b, width: int, name: str):
    """(H, L) of a + b, trit-wise, as Signals."""
    h, l = Signal(width, name=f"{name}_h"), Signal(width, name=f"{name}_l")
    ch, cl = add_hl(a, b)
    m.d.comb += [h.eq(ch), l.eq(cl)]
    return h, l


def trit_scale(m: Module, v, t, name: str):
    """(H, L) Signals ``{name}_h``, ``{name}_l`` of t·v for a vector v = (H, L) and one trit t = (h, l)
    (two bits): v, −v (H and L swapped) or 0 — the trit products of the multipliers."""
    (vh, vl), (th, tl) = v, t
    n = len(vh)
    ph, pl = Signal(n, name=f"{name}_h"), Signal(n, name=f"{name}_l")
    m.d.comb += [pl.eq((vl & tl.replicate(n)) | (vh & th.replicate(n))),
                 ph.eq((vh & tl.replicate(n)) | (vl & th.replicate(n)))]
    return ph, pl


def trit_reg(m: Module, v, width: int, name: str):
    """(H, L) registers ``{name}_h``, ``{name}_l`` of the trit vector v: v a cycle later."""
    h, l = Signal(width, name=f"{name}_h"), Signal(width, name=f"{name}_l")
    m.d.sync += [h.eq(v[0]), l.eq(v[1])]
    return h, l


def trit_sum(m: Module, vecs, width: int, name: str, cuts=()):
    """(H, L) of the sum of trit vectors ``vecs`` (pairs), a balanced tree of :func:`trit_add`.

    ``cuts``: the levels after which the partial sums are registered (``{name}_r{level}_{i}``; level
    0 the terms themselves), each a cycle of latency; a sum whose tree ends first is registered at
    its end, so that every sum is ``len(cuts)`` cycles late (:func:`pairhw.rtl.select.stage_cuts`).
    """
    if not vecs:
        return (Const(0, width), Const(0, width))
    pending, level = sorted(cuts), 0
    while True:
        while pending and pending[0] <= level:
            vecs = [trit_reg(m, v, width, f"{name}_r{len(cuts) - len(pending)}_{i}") for i, v in enumerate(vecs)]
            pending.pop(0)
        if len(vecs) == 1 and not pending:
            return vecs[0]
        if len(vecs) > 1:
            nxt = []
            for i in range(0, len(vecs) - 1, 2):
                nxt.append(trit_add(m, vecs[i], vecs[i + 1], width, f"{name}_s{level}_{i // 2}"))
            if len(vecs) % 2:
                nxt.append(vecs[-1])
            vecs = nxt
        level += 1


def linear_rows(columns, n_out: int) -> list:
    """Rows of an F_3-linear map given by its columns (the trits of the image of each basis trit):
    row i lists (j, c) with c ∈ {1, 2} the coefficient of input trit j in output trit i."""
    rows = [[] for _ in range(n_out)]
    for j, col in enumerate(columns):
        for i, c in enumerate(col):
            if c:
                rows[i].append((j, c))
    return rows


def linear_net(m: Module, xh, xl, rows, name: str, cuts=()):
    """(H, L) Signals of y = M·x for the rows of :func:`linear_rows` (a product by 2 swaps H and L);
    ``cuts``: each row's sum registered after these levels (:func:`trit_sum`)."""
    outs_h, outs_l = [], []
    for i, row in enumerate(rows):
        terms = [(xh[j], xl[j]) if c == 1 else (xl[j], xh[j]) for j, c in row]
        h, l = trit_sum(m, terms, 1, f"{name}_{i}", cuts)
        outs_h.append(h)
        outs_l.append(l)
    yh, yl = Signal(len(rows), name=f"{name}_h"), Signal(len(rows), name=f"{name}_l")
    m.d.comb += [yh.eq(Cat(*outs_h)), yl.eq(Cat(*outs_l))]
    return yh, yl


def linear_add_count(rows) -> int:
    """Trit adders of :func:`linear_net` (no sharing between outputs)."""
    return sum(max(len(r) - 1, 0) for r in rows)


def basis_images(F, fn) -> list:
    """The trits of fn(x^j) for every basis element x^j (the columns of a linear map of the model)."""
    return [F.to_list(fn(F.from_list([int(i == j) for i in range(F.m)]))) for j in range(F.m)]
