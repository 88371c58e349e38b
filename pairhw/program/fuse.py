"""Fuse chains of Frobenius powers (squarings and square roots in F_2^m, cubings and cube roots in
F_3^m: the field's ``powers``) into the k-fold powers a datapath's units compute.

A chain ``b = sqr a; c = sqr b; …`` whose inner values nobody else reads is one power x^(2^n); it is
rewritten as the fewest ops x^(2^k1), x^(2^k2), … with every k_i offered by a ``sqr`` unit (likewise
x^(2^-n) for ``sqrt``, and x^(3^±n) for ``cube`` / ``cbrt``).  Seed 000 §5 does this by hand for the Itoh–Tsujii chains, with two squarers
in series (x^(2^2) in one cycle); a k-fold unit is one XOR network derived from the model's linear
map (:class:`pairhw.rtl.binary.powers.Squarer`), so the same pass serves any k.

In F_{p^m}, x^(p^-n) = x^(p^(m-n)), so a square-root chain may run on the squarer instead.  Seed 000
Alg. 2 step 5 raises four coefficients to 2^-611 at the same time; with one squarer and one square
root unit, :func:`fuse_powers` (``balance=True``) moves chains that would otherwise wait for the
same unit to the other one, longest first, whenever that finishes the group sooner.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import lru_cache

from .datapath import Datapath, DatapathError
from .lower import Flow, LOp


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
        raise DatapathError(f"datapath.units: the program needs a power of {n} steps, which no sum of the "
                            f"power units' k ∈ {sorted(ks)} makes (a unit with k = 1 makes every one)")
    return sorted(parts, reverse=True)


def _asap(ops, dp: Datapath) -> dict:
    """Earliest issue cycle of each op's value by dependences alone (unit delays, unbounded units)."""
    ready: dict = {}
    issue: dict = {}
    for op in ops:
        t = max((ready.get(s, 0) for s, d in op.srcs if not d), default=0)
        issue[op.dst] = t
        ready[op.dst] = t + dp.unit_for(op.kind, op.k).fwd_delay if not dp.F.is_power(op.kind) else t + 1
    return issue


def _balance(chains, m: int, powers: dict, other: dict) -> None:
    """Re-assign concurrent chains between a power and its inverse (x^(p^-n) = x^(p^(m-n))), in place.

    ``chains`` are dicts with ``kind``, ``n``, ``start`` (ASAP cycle of the first op).  Chains whose
    spans overlap form a group; within it, longest first, each goes where the group's load on that
    unit stays smallest.
    """
    def cost(kind, n):
        try:
            return len(decompose(n, powers[kind])) if 0 < n else None  # x^(2^0): a copy, not a power
        except DatapathError:
            return None

    long_ = sorted((c for c in chains if c["n"] > 1), key=lambda c: c["start"])
    groups: list = []
    end = -1
    for c in long_:
        span = cost(c["kind"], c["n"]) or 1
        if not groups or c["start"] >= end:
            groups.append([])
        groups[-1].append(c)
        end = max(end, c["start"] + span)
    for g in groups:
        if len(g) < 2:
            continue
        load = dict.fromkeys(powers, 0)
        for c in sorted(g, key=lambda c: -c["n"]):
            own, alt = c["kind"], other[c["kind"]]
            c_own, c_alt = cost(own, c["n"]), cost(alt, m - c["n"]) if alt in powers else None
            if c_alt is not None and (c_own is None or load[alt] + c_alt < load[own] + c_own):
                c["kind"], c["n"] = alt, m - c["n"]
            load[c["kind"]] += cost(c["kind"], c["n"]) or 0


def fuse_powers(flow: Flow, dp: Datapath, balance: bool = True) -> Flow:
    """``flow`` with every sqr/sqrt chain re-cut into the powers ``dp``'s units offer.

    Values read by the loop across trips, before or after the loop, or as outputs end a chain; the
    interpreted result (:meth:`Flow.run`) is unchanged.  With ``balance``, concurrent chains of the
    straight-line blocks are shared between the squarer and the square root (see :func:`_balance`).
    """
    readers = Counter(s for _, ops in flow.blocks() for op in ops for s, _ in op.srcs)
    keep = set(flow.outputs) | set(flow.init.values()) | set(flow.final.values())
    keep |= {s for op in flow.body for s, d in op.srcs if d}
    fi = dp.F
    powers = {kind: dp.powers(kind) for kind in fi.powers}

    def block(ops, balance):
        prod = {op.dst: i for i, op in enumerate(ops)}

        def link(op):
            """Index of the op whose value ``op`` alone consumes, in the same chain; else None."""
            if op.kind not in powers:
                return None
            (a, d), = op.srcs
            j = prod.get(a)
            if d or j is None or ops[j].kind != op.kind or readers[a] != 1 or a in keep:
                return None
            return j

        absorbed = {j for op in ops if (j := link(op)) is not None}
        chains = {}  # index of a chain's last op -> the chain
        for i, op in enumerate(ops):
            if op.kind in powers and i not in absorbed:
                n, src, j, first = op.k, op.srcs[0], link(op), op
                while j is not None:
                    n, src, j, first = n + ops[j].k, ops[j].srcs[0], link(ops[j]), ops[j]
                chains[i] = {"kind": op.kind, "n": n, "src": src, "first": first.dst}
        if balance and chains and all(powers.values()):
            asap = _asap(ops, dp)
            for c in chains.values():
                c["start"] = asap[c["first"]]
            _balance(list(chains.values()), fi.m, powers, fi.powers)
        out = []
        for i, op in enumerate(ops):
            if i in absorbed:
                continue
            if op.kind not in powers:
                out.append(op)
                continue
            c = chains[i]
            if not powers[c["kind"]]:
                raise DatapathError(f"datapath.units: no unit computes {c['kind']}, which the pairing's "
                                    "program needs")
            src = c["src"]
            parts = decompose(c["n"], powers[c["kind"]])
            for idx, k in enumerate(parts):
                dst = op.dst if idx == len(parts) - 1 else f"{op.dst}~{idx}"
                out.append(LOp(dst, c["kind"], (src,), k))
                src = (dst, 0)
        return out

    return Flow(flow.F, flow.inputs, block(flow.pre, balance), block(flow.body, False), flow.trips, flow.init,
                flow.final, block(flow.post, balance), flow.outputs, flow.period)


def _ternary(outer, inner, first: bool):
    """The three-operand op for ``outer`` = (``inner``) ± z (``first``: inner is outer's first
    operand) or z ± (``inner``), inner and outer each ``add`` or ``sub``: (kind, srcs), the first
    operand always added; the kinds are an ``add3`` unit's x + y + z, x + y − z and x − y − z
    (:attr:`pairhw.fields.prime.PrimeFieldInterface.TERNARY`)."""
    x, y = inner.srcs
    if first:
        z = outer.srcs[1]
        neg_y, neg_z = inner.kind == "sub", outer.kind == "sub"
        terms = [x, y, z]
    else:  # z ± (x ± y)
        z = outer.srcs[0]
        sign = outer.kind == "sub"
        neg_y, neg_z = sign, sign != (inner.kind == "sub")
        terms = [z, x, y]
    first_t, a, b = terms[0], (terms[1], neg_y), (terms[2], neg_z)
    if a[1] and not b[1]:  # x − a + b = x + b − a
        a, b = b, a
    kind = "add3" if not a[1] and not b[1] else "addsub" if not a[1] else "sub2"
    return kind, (first_t, a[0], b[0])


def folds_additions(dp: Datapath) -> bool:
    """Whether ``dp`` has a unit of three-operand additions (:func:`fuse_additions` folds for it)."""
    return any("add3" in u.ops for u in dp.units)


def fuse_additions(flow: Flow, dp: Datapath, steps: list | None = None) -> Flow:
    """``flow`` with each addition or subtraction whose result one other addition or subtraction
    alone reads folded into that reader: x ± y ± z in one op of an ``add3`` unit, when ``dp`` has one
    (else ``flow`` as it is).

    A value read by the loop across trips, before or after the loop, or as an output stays an op of
    its own; so does one computed in another step than its reader's (``steps``: each ``flow.pre``
    op's step, a core with calls), so that a step's ops stay its own.  Each reader folds in one
    operand (its first that qualifies): three operands at most.  The interpreted result
    (:meth:`Flow.run`) is unchanged."""
    if not folds_additions(dp):
        return flow
    readers = Counter(s for _, ops in flow.blocks() for op in ops for s, _ in op.srcs)
    keep = set(flow.outputs) | set(flow.init.values()) | set(flow.final.values())
    keep |= {s for op in flow.body for s, d in op.srcs if d}

    def block(ops, step):
        prod = {op.dst: i for i, op in enumerate(ops)}
        absorbed: dict = {}  # index of a folded op -> its reader's index
        out: list = []
        for i, op in enumerate(ops):
            if op.kind in ("add", "sub") and all(not d for _, d in op.srcs):
                for n, (s, _) in enumerate(op.srcs):
                    j = prod.get(s)
                    if j is None or j in absorbed or readers[s] != 1 or s in keep \
                            or out[j].kind not in ("add", "sub") or any(d for _, d in out[j].srcs) \
                            or (step is not None and step[j] != step[i]):
                        continue
                    absorbed[j] = i
                    kind, srcs = _ternary(op, out[j], n == 0)
                    op = replace(op, kind=kind, srcs=srcs)
                    break
            out.append(op)
        return [op for i, op in enumerate(out) if i not in absorbed]

    return replace(flow, pre=block(flow.pre, steps), body=block(flow.body, None),
                   post=block(flow.post, None))
