"""Fuse chains of squarings (square roots) into the k-fold powers a datapath's units compute.

A chain ``b = sqr a; c = sqr b; …`` whose inner values nobody else reads is one power x^(2^n); it is
rewritten as the fewest ops x^(2^k1), x^(2^k2), … with every k_i offered by a ``sqr`` unit (likewise
x^(2^-n) for ``sqrt``).  Seed 000 §5 does this by hand for the Itoh–Tsujii chains, with two squarers
in series (x^(2^2) in one cycle); a k-fold unit is one XOR network derived from the model's linear
map (:class:`pairhw.rtl.units.Squarer`), so the same pass serves any k.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from .datapath import Datapath, DatapathError
from .lower import Flow, LOp

POWERS = ("sqr", "sqrt")


def decompose(n: int, ks: tuple) -> list[int]:
    """The fewest parts, each in ``ks``, summing to ``n`` (largest parts first).

    >>> decompose(11, (1, 2, 4))
    [4, 4, 2, 1]
    """

    @lru_cache(maxsize=None)
    def best(r: int):
        if r == 0:
            return ()
        opts = [(k,) + rest for k in ks if k <= r and (rest := best(r - k)) is not None]
        return min(opts, key=len) if opts else None

    for r in range(n + 1):  # fill bottom-up: no deep recursion for long chains
        best(r)
    parts = best(n)
    if parts is None:
        raise DatapathError(f"a power 2^{n} cannot be made from the unit powers k ∈ {sorted(ks)}")
    return sorted(parts, reverse=True)


def fuse_powers(flow: Flow, dp: Datapath) -> Flow:
    """``flow`` with every sqr/sqrt chain re-cut into the powers ``dp``'s units offer.

    Values read by the loop across trips, before or after the loop, or as outputs end a chain; the
    interpreted result (:meth:`Flow.run`) is unchanged.
    """
    readers = Counter(s for _, ops in flow.blocks() for op in ops for s, _ in op.srcs)
    keep = set(flow.outputs) | set(flow.init.values()) | set(flow.final.values())
    keep |= {s for op in flow.body for s, d in op.srcs if d}
    powers = {kind: dp.powers(kind) for kind in POWERS}

    def block(ops):
        prod = {op.dst: i for i, op in enumerate(ops)}

        def link(op):
            """Index of the op whose value ``op`` alone consumes, in the same chain; else None."""
            if op.kind not in POWERS:
                return None
            (a, d), = op.srcs
            j = prod.get(a)
            if d or j is None or ops[j].kind != op.kind or readers[a] != 1 or a in keep:
                return None
            return j

        absorbed = {j for op in ops if (j := link(op)) is not None}
        out = []
        for i, op in enumerate(ops):
            if i in absorbed:
                continue
            if op.kind not in POWERS:
                out.append(op)
                continue
            n, src, j = op.k, op.srcs[0], link(op)
            while j is not None:
                n, src, j = n + ops[j].k, ops[j].srcs[0], link(ops[j])
            if not powers[op.kind]:
                raise DatapathError(f"the datapath has no unit for {op.kind}")
            parts = decompose(n, powers[op.kind])
            for idx, k in enumerate(parts):
                dst = op.dst if idx == len(parts) - 1 else f"{op.dst}~{idx}"
                out.append(LOp(dst, op.kind, (src,), k))
                src = (dst, 0)
        return out

    return Flow(flow.F, flow.inputs, block(flow.pre), block(flow.body), flow.trips, flow.init, flow.final,
                block(flow.post), flow.outputs)
