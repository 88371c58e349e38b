"""Reassociate sums so that the late terms are added last (tree-height reduction).

A traced program adds its terms in the model's order: ``((a + b) − c) + d``.  When ``d`` arrives
late (the product at the end of a loop-carried chain), every addition before it is already done,
but when ``a`` arrives late all three additions wait for it, and in a loop body that wait is part of
a recurrence: the initiation interval cannot fall below the longest cycle's delay.  A field's
addition is associative and commutative (exactly: the values are unchanged), so each sum may be
rebuilt in any order.  :func:`reassociate` rebuilds every sum of three or more terms as a Huffman
tree over the terms' arrival times: the two earliest terms first, their sum then a term like the
others (the order that finishes a tree of two-input additions earliest).  Arrival times are:

* in the loop body, how late a term comes on the recurrences through the sum's result: the longest
  path from the sum to the term over the body's dependences, each weighted delay − II·distance at the
  body's current recurrence bound (Rau's HeightR, read forwards) — the term that closes the longest
  cycle goes last; terms off every such cycle come first, earliest as soon as possible first;
* before and after the loop, as soon as possible (each op at its unit's delay after its sources).

A sum is a tree of ``add``, ``sub`` and ``neg`` ops whose inner values nobody else reads (not across
trips, not after the loop, not as an output).  The rebuilt tree has as many two-input ops as the old
(one fewer than its terms) and a ``neg`` only at the root when every term is subtracted (then the old
tree had one too), so the ops a unit runs do not grow.  Over characteristic two a sum is ``add``
alone.  Multiplications by ±1 only: a term read twice stays two terms (x + x is not folded into 2x).
"""

from __future__ import annotations

import heapq
from collections import Counter
from dataclasses import replace

from .datapath import Datapath
from .lower import LOp, Flow

LINEAR = ("add", "sub", "neg")


def reassociate(flow: Flow, dp: Datapath) -> Flow:
    """``flow`` with each sum of three or more terms rebuilt latest-term-last (module docstring);
    :meth:`Flow.run` gives the same values."""
    def readers_of(blocks):
        return Counter(s for ops in blocks for op in ops for s, _ in op.srcs)
    readers = readers_of((flow.pre, flow.body, flow.post))
    keep = set(flow.outputs) | set(flow.init.values()) | set(flow.final.values())
    keep |= {s for op in flow.body for s, d in op.srcs if d}
    unit = _unit_delays(dp)
    pre = _block(flow.pre, readers, keep, lambda ops: _asap_arrival(ops, unit))
    post = _block(flow.post, readers, keep, lambda ops: _asap_arrival(ops, unit))
    body = flow.body
    for _ in range(3):  # the arrivals move as other sums are rebuilt: a few passes settle them
        new = _block(body, readers_of((flow.pre, body, flow.post)), keep,
                     lambda ops: _recurrence_arrival(ops, dp, unit))
        if new == body:
            break
        body = new
    return replace(flow, pre=pre, body=body, post=post)


def _unit_delays(dp: Datapath):
    from .schedule import unit_of

    def delay(op) -> int:
        return unit_of(dp, op).delay if op.kind != "const" else 1
    return delay


def _trees(ops, readers, keep):
    """The sums of ``ops``: (root index, terms, inner indices) for each linear op that no other linear
    op of the block absorbs; its terms are ((name, distance), sign ±1), its inner ops those it absorbs."""
    prod = {op.dst: i for i, op in enumerate(ops)}

    def inner(src) -> int | None:
        name, dist = src
        j = prod.get(name)
        if dist or j is None or ops[j].kind not in LINEAR or readers[name] != 1 or name in keep:
            return None
        return j

    absorbed: set = set()
    for op in ops:
        if op.kind in LINEAR:
            absorbed |= {j for s in op.srcs if (j := inner(s)) is not None}
    out = []
    for i, op in enumerate(ops):
        if op.kind not in LINEAR or i in absorbed:
            continue
        terms: list = []
        inside: list = []

        def expand(j, sign):
            o = ops[j]
            signs = (-sign,) if o.kind == "neg" else (sign, sign if o.kind == "add" else -sign)
            for s, sg in zip(o.srcs, signs):
                k = inner(s)
                if k is None:
                    terms.append((s, sg))
                else:
                    inside.append(k)
                    expand(k, sg)
        expand(i, 1)
        out.append((i, terms, inside))
    return out


def _block(ops, readers, keep, arrivals):
    trees = [t for t in _trees(ops, readers, keep) if len(t[1]) >= 3]
    if not trees:
        return ops
    arrive = arrivals(ops)
    drop = {j for _, _, inside in trees for j in inside}
    rebuilt = {i: _rebuild(ops[i].dst, terms, arrive) for i, terms, _ in trees}
    out = []
    for i, op in enumerate(ops):
        if i in drop:
            continue
        out.extend(rebuilt.get(i, [op]))
    return out


def _rebuild(root: str, terms, arrive) -> list:
    """The ops of ``root`` = Σ sign·term, a Huffman tree over ``arrive(root, term)`` (two-input
    ``add``/``sub``, the inner values named ``root~sN``; a ``neg`` at the root only when every sign
    is −)."""
    heap = [(arrive(root, t), n, (t, sign)) for n, (t, sign) in enumerate(terms)]
    heapq.heapify(heap)
    ops: list = []
    n = len(terms)
    while len(heap) > 1:
        t1, _, (a, sa) = heapq.heappop(heap)
        t2, _, (b, sb) = heapq.heappop(heap)
        last = len(heap) == 0
        if sa == sb:
            kind, srcs, sign = "add", (a, b), sa
        else:
            kind, srcs, sign = "sub", (a, b) if sa > 0 else (b, a), 1
        dst = root if last and sign > 0 else f"{root}~s{len(ops)}"
        ops.append(LOp(dst, kind, srcs))
        heapq.heappush(heap, (max(t1, t2) + 1, n, ((dst, 0), sign)))
        n += 1
    if heap[0][2][1] < 0:
        ops.append(LOp(root, "neg", (heap[0][2][0],)))
    return ops


def _asap_arrival(ops, delay):
    """Arrival of a term: its op's as-soon-as-possible finish in the block (0 for a value from
    outside it)."""
    done: dict = {}
    for op in ops:
        start = max((done.get(s, 0) for s, _ in op.srcs), default=0)
        done[op.dst] = start + delay(op)
    return lambda root, term: done.get(term[0], 0)


def _recurrence_arrival(ops, dp: Datapath, delay):
    """Arrival of a term of a loop body's sum: the longest path from the sum's root to the term's op
    over the body's dependences weighted delay − II·distance at the body's recurrence bound, plus
    the term's delay; a term off every cycle through the root arrives before all that are on one,
    by its as-soon-as-possible finish."""
    from .schedule import assign_units, body_edges

    units = assign_units(ops, dp)
    idx = {op.dst: i for i, op in enumerate(ops)}
    edges = body_edges(ops, units, anti=False)
    ii = _rec_mii(len(ops), edges)
    asap = _asap_arrival(ops, delay)
    off = -10 ** 6  # below any path on a cycle
    memo: dict = {}

    def longest_from(r):
        if r not in memo:
            n = len(ops)
            h: list[int | None] = [None] * n
            h[r] = 0
            for _ in range(n + 1):
                changed = False
                for s, d, dl, ds in edges:
                    if h[s] is not None and (h[d] is None or h[s] + dl - ds * ii > h[d]):
                        h[d], changed = h[s] + dl - ds * ii, True
                if not changed:
                    break
            memo[r] = h
        return memo[r]

    def arrive(root, term):
        name, dist = term
        if name not in idx:
            return off
        h = longest_from(idx[root])[idx[name]]
        if h is None:  # a previous trip's value is there when the trip starts
            return off + (0 if dist else asap(root, term))
        return h + units[idx[name]].delay - dist * ii
    return arrive


def _rec_mii(n: int, edges) -> int:
    """The smallest II at which ``edges`` (delay, distance) have no cycle of positive weight: Rau's
    HeightR exists there (:func:`~pairhw.program.schedule.height_r`, which leaves an op's edge to
    itself to the placement) and no op's recurrence on itself is longer."""
    from .schedule import height_r

    def fits(ii):
        return height_r(n, edges, ii) is not None and all(dl <= ds * ii for s, d, dl, ds in edges if s == d)

    lo, hi = 1, max([1] + [e[2] for e in edges]) * max(1, n)
    while lo < hi:
        mid = (lo + hi) // 2
        if fits(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo
