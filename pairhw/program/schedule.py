"""Scheduling a :class:`~pairhw.program.lower.Flow` onto a :class:`~pairhw.program.datapath.Datapath`.

Straight-line blocks are list-scheduled (critical-path priority).  The loop body is modulo-scheduled
(Rau's iterative modulo scheduling without backtracking): one trip starts every ``ii`` cycles, so the
products of consecutive trips overlap.  Every value of the body lives in one register across trips,
which the scheduler guarantees with register anti-dependences: a read of trip i's value must happen
before trip i + 1 overwrites it.  A dependence edge ``(src, dst, delay, distance)`` means
``t[dst] ≥ t[src] + delay − distance·ii``.

The timing model is the core's: an op issued in cycle t on a unit of hardware latency L has its
result on the unit's output in cycle t + L, written to its register at the end of that cycle, and
readable by an op issued in cycle t + L + 1.  A datapath that forwards results (``forward``: a unit
that reads through operand registers can take a result from a unit's output in the cycle it is
written) lets an op of the same block, or of the same loop trip, issue in cycle t + L on such a unit
(:attr:`UnitSpec.delay_to`); a value read across blocks or trips comes from its register.

Besides the units, two kinds of port are resources: a RAM bank's write ports (a result takes one in
the cycle it is written) and a bank's shared read ports (``read_ports``: an op takes the ports its
unit's inputs are bound to in its issue cycle, :meth:`Datapath.read_port`).
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .datapath import Datapath, UnitSpec


class ScheduleError(ValueError):
    """No schedule exists under the datapath's constraints."""


def unit_of(dp: Datapath, op) -> UnitSpec:
    return dp.unit_for(op.kind, op.k)


class ScheduledOp(NamedTuple):
    """One op's place in a schedule."""

    op: int  #: its index in the block or loop body
    start: int  #: its issue cycle (in a loop, relative to the trip's start)
    unit: UnitSpec  #: the unit that computes it
    slot: int  #: the lane it takes: instance · lanes + lane (:attr:`UnitSpec.slots`)

    @property
    def instance(self) -> int:
        """The unit instance (lanes of one instance start together)."""
        return self.slot // self.unit.lanes

    @property
    def ready(self) -> int:
        """The first cycle an op may read its result from a register: issue + the unit's delay."""
        return self.start + self.unit.delay

    @property
    def written(self) -> int:
        """The cycle its result is written at the end of: issue + the unit's latency."""
        return self.start + self.unit.latency

    def ready_for(self, consumer: UnitSpec) -> int:
        """The first cycle an op of the same block or trip on ``consumer`` may issue on its result."""
        return self.start + self.unit.delay_to(consumer)


def forwarded(ops, records, body: bool = False) -> list[dict]:
    """Per op of a block (or, ``body``, of a loop body) scheduled as ``records``: {input port: the
    producer's :class:`ScheduledOp`} of the operands it takes from a unit's output rather than a
    register, those written in its issue cycle by an op of the same block (or trip) on a forwarding
    unit, or (:attr:`UnitSpec.early`) in the next cycle (:attr:`UnitSpec.fwd_delay`)."""
    by_dst = {ops[r.op].dst: r for r in records}
    out = []
    for r in records:
        f = {}
        for port, (s, dist) in enumerate(ops[r.op].srcs):
            pr = by_dst.get(s)
            if pr is not None and pr.unit.forward and r.unit.fwd_in and not (body and dist) \
                    and (pr.written == r.start or (pr.unit.early and pr.written == r.start + 1)):
                f[port] = pr
        out.append(f)
    return out


def _records(sch) -> list[ScheduledOp]:
    return [ScheduledOp(i, t, u, s) for i, (t, u, s) in enumerate(zip(sch.start, sch.units, sch.inst))]


@dataclass
class BlockSchedule:
    """Issue cycle, unit and unit slot (lane index, :attr:`UnitSpec.slots`) of each op of a
    straight-line block; ``length`` cycles long."""

    start: list
    inst: list
    length: int
    units: list = field(default_factory=list)

    def records(self) -> list[ScheduledOp]:
        """One :class:`ScheduledOp` per op, in op order."""
        return _records(self)


@dataclass
class LoopSchedule:
    """Issue cycle (relative to the trip's start) and instance of each body op; a trip starts every
    ``ii`` cycles and spans ``stages`` windows of ``ii`` cycles."""

    start: list
    inst: list
    ii: int
    stages: int
    mii: int
    edges: list = field(default_factory=list)
    units: list = field(default_factory=list)

    def records(self) -> list[ScheduledOp]:
        """One :class:`ScheduledOp` per body op, in op order."""
        return _records(self)

    @classmethod
    def placed(cls, start, inst, ii: int, mii: int, edges, units) -> LoopSchedule:
        """The schedule of ops issued at ``start`` on ``inst``: as many stages as its last result needs."""
        last = max((t + u.latency for t, u in zip(start, units)), default=0)
        return cls(start, inst, ii, last // ii + 1, mii, edges, units)


@dataclass
class Timeline:
    """Where the phases sit in the run: the loop's code from ``loop_start`` to ``loop_end``, the
    epilogue from there to ``end`` (the unload)."""

    loop_start: int
    loop_end: int
    end: int

    @property
    def post_start(self) -> int:
        """The epilogue starts where the loop's code ends."""
        return self.loop_end


@dataclass
class Schedule:
    """A whole program's schedule: the straight-line blocks before and after the loop, the modulo
    schedule of its body, and the timeline that places them (what the allocator and the assembler
    read)."""

    pre: BlockSchedule
    loop: LoopSchedule
    post: BlockSchedule
    timeline: Timeline

    @classmethod
    def of(cls, pre: BlockSchedule, loop: LoopSchedule, post: BlockSchedule, trips: int) -> Schedule:
        """The blocks placed one after the other, the loop running ``trips`` trips."""
        ls = pre.length
        le = ls + (trips + loop.stages - 1) * loop.ii
        return cls(pre, loop, post, Timeline(ls, le, le + post.length))


def _write_ports(ops, units, dp: Datapath, shared) -> list:
    """Per op, the (bank, ports) its result takes: a ``writes_each`` unit's results named in ``shared``
    go to its shared RAM bank (:meth:`Datapath.shared_write_port`), the others to its own RAM."""
    return [_wport(dp, op, u, shared) for op, u in zip(ops, units)]


def _wport(dp: Datapath, op, u: UnitSpec, shared):
    return dp.shared_write_port(u) if op.dst in shared and u.writes_each else dp.write_port(u)


def _rports(dp: Datapath, op, u: UnitSpec) -> tuple:
    """The shared read ports (bank, index) op ``op`` on unit ``u`` takes in its issue cycle."""
    return tuple(rp for port in range(len(op.srcs)) if (rp := dp.read_port(u, port)))


def _b_operand(op):
    """The operand a unit's lanes share (port b)."""
    return op.srcs[1] if len(op.srcs) > 1 else None


@dataclass
class Busy:
    """What a block scheduled after others finds busy, in cycles relative to its start (a step of a
    core with calls whose ops fill the previous steps' free cycles,
    :func:`pairhw.program.calls.step_schedule`): when values from outside become readable, the bank
    write ports and shared read ports taken, the cycles each unit instance is busy, and the ops'
    priorities when they are not the block's own critical paths."""

    ready: dict = field(default_factory=dict)  # value name -> first cycle it can be read
    writes: dict = field(default_factory=dict)  # (bank, cycle) -> writes through its ports
    reads: set = field(default_factory=set)  # (bank, port, cycle)
    taken: dict = field(default_factory=dict)  # (unit name, instance) -> the cycles it is busy
    height: list | None = None  # per op, its priority (the path after it, beyond the block)


def list_schedule(ops, dp: Datapath, shared=frozenset(), busy: Busy | None = None) -> BlockSchedule:
    """Critical-path list scheduling of a straight-line block; values from outside are ready at 0
    (or when ``busy`` says, which also holds the unit cycles and ports taken by earlier blocks).
    ``shared``: the values a ``writes_each`` unit must write to its shared bank (:func:`_write_ports`).

    An op that several units execute (multipliers of different kinds or digit sizes) goes to the
    one that finishes it first, waiting for a faster unit rather than starting on a slower one.  The
    lanes of a unit (:attr:`UnitSpec.lanes`) start together on the same operand b: an op joins a
    lane of an instance started in the same cycle on its b, else starts a free instance on lane 0."""
    producer = {op.dst: i for i, op in enumerate(ops)}
    cands = [dp.units_for(op.kind, op.k) for op in ops]
    preds = [[producer[s] for s, _ in op.srcs if s in producer] for op in ops]
    succs: list[list] = [[] for _ in ops]
    for i, ps in enumerate(preds):
        for p in ps:
            succs[p].append(i)
    height = [0] * len(ops)
    for i in reversed(range(len(ops))):
        height[i] = min(u.fwd_delay for u in cands[i]) + max((height[s] for s in succs[i]), default=0)
    if busy is not None and busy.height is not None:
        height = list(busy.height)
    ready_at = [0] * len(ops)  # the first cycle an op can issue on a unit that takes forwarded operands
    if busy is not None and busy.ready:
        ready_at = [max([0] + [busy.ready.get(s, 0) for s, _ in op.srcs]) for op in ops]
    ready_reg = list(ready_at)  # ... on a unit that reads them from their registers
    waiting = [len(ps) for ps in preds]
    free: dict = {}  # (unit name, instance) -> first cycle it accepts a new op
    opened: dict = {}  # (unit name, instance) -> [start cycle, operand b, lanes used]
    writes: dict = dict(busy.writes) if busy else {}  # (bank, cycle) -> results through its write ports
    reads: set = set(busy.reads) if busy else set()  # (bank, port, cycle) of the shared read ports taken
    taken: dict = busy.taken if busy else {}  # (unit name, instance) -> cycles earlier blocks hold it

    def avail(u, n, c):
        """The first cycle from c that instance n of unit u can start an op (its II cycles free)."""
        c = max(c, free.get((u.name, n), 0))
        held = taken.get((u.name, n))
        while held:
            hit = [x for x in range(c, c + u.ii) if x in held]
            if not hit:
                break
            c = hit[-1] + 1  # past the last busy cycle in the way
        return c

    start, inst, units = [0] * len(ops), [0] * len(ops), [None] * len(ops)
    ready = [(-height[i], i) for i in range(len(ops)) if waiting[i] == 0]
    heapq.heapify(ready)
    deferred, cycle, done, length = [], 0, 0, 0
    # each op's write and read ports on each candidate unit (fixed: computed once, not each cycle)
    wps = [[_wport(dp, op, u, shared) for u in c] for op, c in zip(ops, cands)]
    rps = [[_rports(dp, op, u) for u in c] for op, c in zip(ops, cands)]

    def option(i, u):
        """(issue cycle, instance, lane or None for a new start) of op i on unit u from ``cycle``."""
        if u.lanes > 1:
            b = _b_operand(ops[i])
            for k in range(u.count):
                o = opened.get((u.name, k))
                if o and o[0] == cycle and o[1] == b and o[2] < u.lanes:
                    return cycle, k, o[2]
        g = min(range(u.count), key=lambda n: (avail(u, n, cycle), n))
        return avail(u, g, cycle), g, None

    def earliest(i):
        """The first cycle op i could issue at: its operands ready and an instance of one of its
        units free (ports only delay it further)."""
        return max(ready_at[i], min(avail(u, g, cycle) for u in cands[i] for g in range(u.count)))

    while done < len(ops):
        queued: dict = {}  # unit -> ops of higher priority left waiting for it this cycle
        issued = False
        while ready:
            h, i = heapq.heappop(ready)
            if ready_at[i] > cycle:
                deferred.append((h, i))
                continue
            best = None
            for rank, u in enumerate(cands[i]):
                t, g, lane = option(i, u)
                if not u.fwd_in:
                    t = max(t, ready_reg[i])
                if t > cycle or queued.get(u.name):  # behind the ops already waiting for it
                    t = max(t, cycle + 1) + queued.get(u.name, 0) * u.ii // u.slots
                wp = wps[i][rank]
                if t == cycle and wp and writes.get((wp[0], cycle + u.latency), 0) >= wp[1]:
                    t += 1  # its write port is taken: not this cycle
                rp = rps[i][rank]
                if t == cycle and any((*r, cycle) in reads for r in rp):
                    t += 1  # a read port it needs is taken: not this cycle
                key = (t + u.fwd_delay, t, rank)
                if best is None or key < best[0]:
                    best = (key, u, g, lane, wp, rp)
            assert best is not None  # every op has a candidate unit
            (_, t, _), u, g, lane, wp, rp = best
            if t > cycle:
                if len(cands[i]) > 1:
                    queued[u.name] = queued.get(u.name, 0) + 1
                deferred.append((h, i))
                continue
            if wp:
                wkey = (wp[0], cycle + u.latency)
                writes[wkey] = writes.get(wkey, 0) + 1
            reads.update((*r, cycle) for r in rp)
            if lane is None:
                free[(u.name, g)] = cycle + u.ii
                opened[(u.name, g)] = [cycle, _b_operand(ops[i]), 1]
                lane = 0
            else:
                opened[(u.name, g)][2] += 1
            start[i], inst[i], units[i] = cycle, g * u.lanes + lane, u
            done += 1
            issued = True
            length = max(length, cycle + max(u.delay, u.ii))
            for s in succs[i]:
                ready_at[s] = max(ready_at[s], cycle + u.fwd_delay)
                ready_reg[s] = max(ready_reg[s], cycle + u.delay)
                waiting[s] -= 1
                if waiting[s] == 0:
                    deferred.append((-height[s], s))
        for item in deferred:
            heapq.heappush(ready, item)
        deferred = []
        if issued or not ready:
            cycle += 1
        else:  # nothing issued, so nothing changed: jump to the first cycle where an op could issue
            cycle = max(cycle + 1, min(earliest(i) for _, i in ready))
    return BlockSchedule(start, inst, length, units)


def assign_units(body, dp: Datapath) -> list:
    """A unit for each op of a loop body (the modulo scheduler places ops on fixed units).  Every op
    starts on its fastest unit; then, while the busiest unit's load per lane can drop, its op of least
    dependence height moves to another unit that ends below that load, provided the slower unit does
    not lengthen the body's critical path (a product of a recurrence stays on a fast multiplier)."""
    cands = [dp.units_for(op.kind, op.k) for op in body]
    if all(len(c) == 1 for c in cands):
        return [c[0] for c in cands]
    n = len(body)
    # a product whose operand b no other product shares would hold a group of lanes alone
    bcount: dict = {}
    for op, c in zip(body, cands):
        if len(c) > 1:
            bcount[_b_operand(op)] = bcount.get(_b_operand(op), 0) + 1
    out = [min(c, key=lambda u: (u.delay, (u.lanes > 1) != (bcount.get(_b_operand(op), 0) > 1), -u.slots))
           for op, c in zip(body, cands)]

    def heights(units):
        return _heights(body_edges(body, units), units)

    h, dep = heights(out)
    crit = max((a + b for a, b in zip(h, dep)), default=0)
    by_name = {u.name: u for u in dp.units}

    def load(name):
        """Cycles per instance: a unit with lanes starts once per ``lanes`` products on one b."""
        u = by_name[name]
        on = [i for i in range(n) if out[i].name == name]
        if u.lanes == 1:
            return len(on) * u.ii / u.slots
        groups: dict = {}
        for i in on:
            groups[_b_operand(body[i])] = groups.get(_b_operand(body[i]), 0) + 1
        return sum(-(-k // u.lanes) for k in groups.values()) * u.ii / u.count

    names = sorted({u.name for c in cands if len(c) > 1 for u in c})
    for _ in range(n):
        loads = {nm: load(nm) for nm in names}
        worst = max(loads, key=lambda nm: loads[nm])
        top = loads[worst]
        # what moves together: the products on one b of a unit with lanes, else one product
        moves: dict = {}
        for i in range(n):
            if out[i].name == worst and len(cands[i]) > 1:
                moves.setdefault(_b_operand(body[i]) if out[i].lanes > 1 else i, []).append(i)
        best = None
        for grp in sorted(moves.values(), key=lambda g: (max(h[i] + dep[i] for i in g), g)):
            for v in sorted(cands[grp[0]], key=lambda v: v.delay):
                if v.name == worst or any(dep[i] + h[i] - out[i].delay + v.delay > crit for i in grp):
                    continue
                old = [out[i] for i in grp]
                for i in grp:
                    out[i] = v
                ok = load(v.name) < top and load(worst) < top
                for i, u in zip(grp, old):
                    out[i] = u
                if ok:
                    best = (grp, v)
                    break
            if best:
                break
        if best is None:
            break
        for i in best[0]:
            out[i] = best[1]
        h, dep = heights(out)
    return out


def _heights(edges, units) -> tuple:
    """Per op of a loop body, over its distance-0 edges of positive delay: the longest path to the end
    of the trip (at least the op's own delay: its priority) and the longest path from the trip's
    start to its issue."""
    n = len(units)
    h, d = [0] * n, [0] * n
    edges = [e for e in edges if e[3] == 0 and e[2] > 0]
    for _ in range(n):
        changed = False
        for s, t, delay, _ in edges:
            if h[s] < delay + h[t]:
                h[s], changed = delay + h[t], True
            if d[t] < d[s] + delay:
                d[t], changed = d[s] + delay, True
        if not changed:
            break
    return [max(x, u.delay) for x, u in zip(h, units)], d


def body_edges(body, units, anti: bool = True) -> list:
    """Dependence edges ``(src, dst, delay, distance)`` of a loop body whose ops run on ``units`` (a
    unit per op; or a :class:`Datapath`, each op on its first unit): true dependences and (``anti``)
    the register anti-dependences that let each value keep one register across trips."""
    if isinstance(units, Datapath):
        units = [unit_of(units, op) for op in body]
    idx = {op.dst: i for i, op in enumerate(body)}
    edges = []
    for u, op in enumerate(body):
        for name, dist in op.srcs:
            if name not in idx:
                continue  # loop-invariant
            j = idx[name]
            d = units[j].delay
            # read after the value is written (forwarded within a trip to a unit that takes it)
            edges.append((j, u, units[j].delay_to(units[u]) if dist == 0 else d, dist))
            if anti:
                edges.append((u, j, 1 - d, 1 - dist))  # ... and before the next trip overwrites it
    return edges


def _res_mii(body, dp: Datapath, shared=frozenset(), units=None) -> int:
    load: dict = {}
    wload: dict = {}
    units = units or [unit_of(dp, op) for op in body]
    rload: dict = {}
    for op, u, wp in zip(body, units, _write_ports(body, units, dp, shared)):
        load[u.name] = load.get(u.name, 0) + u.ii
        if wp:
            wload[wp] = wload.get(wp, 0) + 1
        for r in _rports(dp, op, u):
            rload[r] = rload.get(r, 0) + 1
    return max([1] + [-(-v // next(u.slots for u in dp.units if u.name == n)) for n, v in load.items()]
               + [-(-v // ports) for (_, ports), v in wload.items()] + list(rload.values()))


def _topo(n, edges, prio):
    """Topological order over the distance-0 edges, highest priority first among the ready ops."""
    succ: list[list] = [[] for _ in range(n)]
    indeg = [0] * n
    for s, d, _, dist in edges:
        if dist == 0 and s != d:
            succ[s].append(d)
            indeg[d] += 1
    heap = [(-prio[i], i) for i in range(n) if indeg[i] == 0]
    heapq.heapify(heap)
    order = []
    while heap:
        _, i = heapq.heappop(heap)
        order.append(i)
        for s in succ[i]:
            indeg[s] -= 1
            if indeg[s] == 0:
                heapq.heappush(heap, (-prio[s], s))
    if len(order) != n:
        raise ScheduleError("the loop body reads a value both before and after the trip redefines it; "
                            "one register per value cannot hold both (a move would be needed)")
    return order


def modulo_schedule(body, dp: Datapath, max_ii: int | None = None, trips: int | None = None,
                    shared=frozenset()) -> LoopSchedule:
    """The greedy placement's loop schedule (:func:`_greedy_modulo`), or with the datapath's
    ``modulo_exact`` one of fewer loop cycles from a solver (:func:`_exact`) where it finds one."""
    lanes = [u.name for u in assign_units(body, dp) if u.lanes > 1] if dp.modulo_exact and body else []
    if lanes:
        raise ScheduleError(f"datapath.modulo_exact: the loop runs on a unit with lanes, which the exact model "
                            f"does not cover ({lanes[0]})")
    best = _greedy_modulo(body, dp, max_ii, trips, shared)
    if dp.modulo_exact and body:
        best = _exact(body, dp, best, trips, shared)
    return best


def _greedy_modulo(body, dp: Datapath, max_ii: int | None = None, trips: int | None = None,
                   shared=frozenset()) -> LoopSchedule:
    """Modulo-schedule a loop body at the smallest initiation interval the greedy placement finds,
    starting from the resource bound (MII).  With ``trips``, a larger II is taken when its fewer
    stages make the whole loop, (trips + stages − 1)·II cycles, shorter (a loop of few trips).
    At each II the placement tries the ops in topological order by height, then in Rau's HeightR
    order, then (the datapath's ``modulo_orders`` − 1 more) in HeightR orders with near ties broken
    by fixed seeds; the first that places every op wins."""
    n = len(body)
    units = assign_units(body, dp)
    edges = body_edges(body, units)
    height = _heights(edges, units)[0]
    order = _topo(n, edges, height)
    into: list[list] = [[] for _ in range(n)]
    out: list[list] = [[] for _ in range(n)]
    for e in edges:
        out[e[0]].append(e)
        into[e[1]].append(e)
    mii = _res_mii(body, dp, shared, units)
    fewest = dp.modulo_evict == "fewest"
    limit = max_ii or (sum(u.delay + u.ii for u in units) + 1)
    wport = _write_ports(body, units, dp, shared)
    rport = [_rports(dp, op, u) for op, u in zip(body, units)]
    best = None
    for ii in range(mii, limit + 1):
        if best and (trips is None or trips * ii >= (trips + best.stages - 1) * best.ii):
            return best
        # first with multi-cycle units issuing only at multiples of their II, which packs the
        # reservation table without gaps a later op could not use (a tight multiplier needs it)
        bops = [_b_operand(op) for op in body]
        placed = (_place(order, units, into, out, ii, True, wport, bops=bops, rport=rport, fewest=fewest)
                  or _place(order, units, into, out, ii, False, wport, bops=bops, rport=rport, fewest=fewest))
        if not placed:  # Rau's own order: the highest HeightR first, evicted ops by priority too;
            # then, with the datapath's modulo_orders, the same with its near ties broken otherwise:
            # HeightR plus up to ORDER_NOISE cycles drawn from the seeds 1, 2, … (the greedy
            # placement's outcome turns on which of the ops of near-equal height goes first)
            hr = height_r(n, edges, ii)
            for seed in range(dp.modulo_orders if hr is not None else 0):
                rng = random.Random(seed)
                prio = [h + ORDER_NOISE * rng.random() for h in hr] if seed else hr
                rau = sorted(range(n), key=lambda i: (-prio[i], i))
                placed = (_place(rau, units, into, out, ii, True, wport, prio, bops, rport, fewest)
                          or _place(rau, units, into, out, ii, False, wport, prio, bops, rport, fewest))
                if placed:
                    break
        if placed:
            start, inst = placed
            sch = LoopSchedule.placed(start, inst, ii, mii, edges, units)
            if best is None or (trips is not None and (trips + sch.stages - 1) * ii < (trips + best.stages - 1) * best.ii):
                best = sch
    if best:
        return best
    raise ScheduleError(f"no modulo schedule with an initiation interval up to {limit}")


def _exact(body, dp: Datapath, best: LoopSchedule, trips, shared) -> LoopSchedule:
    """``best`` (the greedy placement's) or a schedule of fewer loop cycles that CP-SAT finds
    (:mod:`pairhw.program.exact`, the datapath's ``modulo_exact`` budget), from the larger of the
    resource bound and the recurrences' up."""
    from . import exact

    units, edges = best.units, best.edges
    n = len(body)
    lower = best.mii
    while lower < best.ii and height_r(n, edges, lower) is None:
        lower += 1  # below the recurrences' bound nothing places
    wport = _write_ports(body, units, dp, shared)
    rport = [_rports(dp, op, u) for op, u in zip(body, units)]

    def make(start, inst, ii):
        return LoopSchedule.placed(start, inst, ii, best.mii, edges, units)

    return exact.search(units, edges, wport, rport, lower, best, trips, dp.modulo_exact, make)


#: the most cycles :func:`modulo_schedule` adds to an op's HeightR in an order of its own (``modulo_orders``)
ORDER_NOISE = 3.0


def height_r(n, edges, ii):
    """Rau's HeightR at ``ii``: the longest path from each op to the end of the trip over every
    edge, weighted delay − distance·ii (None when a recurrence needs more than ``ii``)."""
    h = [0] * n
    for _ in range(n + 1):
        changed = False
        for s, d, delay, dist in edges:
            if s != d and h[s] < h[d] + delay - dist * ii:
                h[s], changed = h[d] + delay - dist * ii, True
        if not changed:
            return h
    return None


class _Todo:
    """The ops still to place: in ``order`` (evicted ops at the end), or by ``prio`` (highest first)."""

    def __init__(self, order, prio):
        from collections import deque

        self.prio = prio
        self.q: Any  # a FIFO of ops, or a heap of (−priority, op)
        if prio is None:
            self.q = deque(order)
        else:
            heap = [(-prio[i], i) for i in order]
            heapq.heapify(heap)
            self.q = heap

    def __bool__(self):
        return bool(self.q)

    def pop(self):
        return self.q.popleft() if self.prio is None else heapq.heappop(self.q)[1]

    def push(self, i):
        if self.prio is None:
            self.q.append(i)
        else:
            heapq.heappush(self.q, (-self.prio[i], i))


def _place(order, units, into, out, ii, align, wport, prio=None, bops=None, rport=None, fewest=False):
    """Place the ops in ``order`` at ``ii``; on a conflict, evict the ops in the way and place them
    again later (iterative modulo scheduling, Rau 1994), within a budget of evictions.  ``wport[i]``
    is the (bank, ports) whose write ports op i's result takes, at its issue + latency, or None.
    With ``prio`` (Rau's HeightR), the next op placed is always the unplaced one of highest priority.
    ``bops[i]`` is op i's operand b: on a unit with lanes, ops issued in the same cycle of the trip
    on the same b share one start of an instance (one lane each).  ``rport[i]`` lists the shared read
    ports op i takes in its issue cycle.  With ``fewest``, an op placed by force takes the instance
    and write port where it evicts the fewest ops (else instance 0 and port 0)."""
    start: dict = {}
    grp: dict = {}  # op -> its start (unit name, instance, issue cycle)
    starts: dict = {}  # start -> the ops sharing it, lane order
    mrt: dict = {}  # (unit name, instance, cycle mod ii) -> start
    if any(s == i and delay > dist * ii for i in order for s, _, delay, dist in into[i]):
        return None  # an op's recurrence on itself is longer than ii
    budget = 30 * len(order)
    todo = _Todo(order, prio)
    last_try: dict = {}
    bops = bops or [None] * len(units)
    rport = rport or [()] * len(units)

    def rkeys(i, t):
        return [("read", *r, t % ii) for r in rport[i]]

    def wkey(i, t, k):
        return ("write", wport[i][0], k, (t + units[i].latency) % ii)

    def wbit(i, t):
        """The bit of op i's result cycle (issue at t) in a write port's mask."""
        return 1 << ((t + units[i].latency) % ii)

    def reads_free(i, t):
        """The shared read ports op i takes are free at t."""
        return not (rport[i] and any(r in mrt for r in rkeys(i, t)))

    wused: dict = {}
    # occ[(unit, instance)]: the cycles mod ii its starts hold, as bits (the unit entries of mrt):
    # a free window is one AND, where the search looked up each of the unit's II cycles
    occ: dict = {}
    by_unit: dict = {}  # unit name -> the keys of its starts (a lane joins one at its very cycle)
    wocc: dict = {}  # (bank, write port) -> the cycles mod ii it writes, as bits (mrt's write entries)
    windows: dict = {}

    def window(r, n):
        """Bits r, r+1, …, r+n−1 (mod ii) of an ii-bit mask."""
        key = (r, n)
        if key not in windows:
            bits = 0
            for c in range(n):
                bits |= 1 << ((r + c) % ii)
            windows[key] = bits
        return windows[key]

    def unplace(v):
        u = units[v]
        key = grp.pop(v)
        starts[key].remove(v)
        if not starts[key]:
            del starts[key]
            for c in range(u.ii):
                del mrt[(u.name, key[1], (key[2] + c) % ii)]
            occ[(u.name, key[1])] &= ~window(key[2] % ii, u.ii)
            by_unit[u.name].discard(key)
        if wport[v]:
            k = wused.pop(v)
            del mrt[wkey(v, start[v], k)]
            wocc[(wport[v][0], k)] &= ~wbit(v, start[v])
        for r in rkeys(v, start[v]):
            del mrt[r]
        del start[v]
        todo.push(v)

    def put(i, t, slot, k):
        u = units[i]
        key = (u.name, slot, t)
        if key not in starts:
            starts[key] = []
            for c in range(u.ii):
                mrt[(u.name, slot, (t + c) % ii)] = key
            occ[(u.name, slot)] = occ.get((u.name, slot), 0) | window(t % ii, u.ii)
            by_unit.setdefault(u.name, set()).add(key)
        starts[key].append(i)
        grp[i] = key
        if wport[i]:
            mrt[wkey(i, t, k)] = i
            wused[i] = k
            wocc[(wport[i][0], k)] = wocc.get((wport[i][0], k), 0) | wbit(i, t)
        for r in rkeys(i, t):
            mrt[r] = i
        start[i] = t

    def joinable(i, t):
        """An instance started at t on op i's operand b with a free lane."""
        u = units[i]
        if u.lanes == 1:
            return None
        return next((g for g in range(u.count) if (u.name, g, t) in starts and len(starts[(u.name, g, t)]) < u.lanes
                     and bops[starts[(u.name, g, t)][0]] == bops[i]), None)

    full = (1 << ii) - 1

    def rot(mask, c):
        """Bit r of the result is bit (r + c) mod ii of ``mask``."""
        c %= ii
        return ((mask >> c) | (mask << (ii - c))) & full if c else mask

    lattice: dict = {}

    def residues(r0, step):
        """The cycles mod ii that are r0 mod step (step divides ii), as bits."""
        if (r0, step) not in lattice:
            lattice[(r0, step)] = sum(1 << r for r in range(r0, ii, step))
        return lattice[(r0, step)]

    def _write_free(i, t):
        """A free write port of op i's bank at its result's cycle (0: the bank is unlimited)."""
        wp = wport[i]
        if not wp:
            return 0
        bit = wbit(i, t)
        return next((k for k in range(wp[1]) if not wocc.get((wp[0], k), 0) & bit), None)

    def _free_instance(u, t, step, phase):
        wm = window(t % ii, u.ii)
        return next((k for k in range(u.count) if (t - phase[k]) % step == 0
                     and not occ.get((u.name, k), 0) & wm), None)

    def _first_fit_lanes(i, u, t0, hi, step, phase):
        """The first t in t0..hi where op i joins a started instance or starts a free one: the
        first start of a free instance (:func:`_first_fit`), or an earlier cycle at which one of
        the unit's instances starts on op i's operand b with a lane free (those are few: each is
        looked at)."""
        new = _first_fit(i, u, t0, hi, step, phase)
        end = hi if new is None else new[0]
        for t in sorted({key[2] for key in by_unit.get(u.name, ()) if t0 <= key[2] <= end}):
            slot = joinable(i, t)
            if slot is None:
                continue
            w = _write_free(i, t)
            if w is None or not reads_free(i, t):
                continue
            return t, slot, w
        return new

    def _first_fit(i, u, t0, hi, step, phase):
        """The first t in t0..hi where an instance is free for the unit's II cycles, a write port
        at the result's cycle and the read ports: whether t fits depends on t mod ii alone (step
        divides ii), so the residues that fit are one mask, its bits taken in order from t0."""
        fits = 0
        for k in range(u.count):
            # bit r of busy: the window r .. r+II−1 meets a start of instance k (windows doubled:
            # a span-s mask ORed with itself rotated by s covers 2s)
            busy, span = occ.get((u.name, k), 0), 1
            while busy and 2 * span <= u.ii:
                busy |= rot(busy, span)
                span *= 2
            if busy and span < u.ii:
                busy |= rot(busy, u.ii - span)
            fits |= ~busy & (full if step == 1 else residues(phase[k] % step, step))
        wp = wport[i]
        if wp:
            anyw = 0
            for k in range(wp[1]):
                anyw |= ~rot(wocc.get((wp[0], k), 0), u.latency) & full
            fits &= anyw
        fits = rot(fits, t0)  # bit j: t = t0 + j
        while fits:
            j = (fits & -fits).bit_length() - 1
            t = t0 + j
            if t > hi:
                return None
            fits &= fits - 1
            if not reads_free(i, t):
                continue
            return t, _free_instance(u, t, step, phase), _write_free(i, t)
        return None

    def in_the_way(i, t, k, w):
        """The placed ops op i evicts at cycle t on instance k and write port w: its dependences
        that t breaks, the ops holding the instance, the write port or its read ports then."""
        u = units[i]
        vs = {d for _, d, delay, dist in out[i] if d in start and d != i and start[d] - delay + dist * ii < t}
        vs |= {v for c in range(u.ii) if (u.name, k, (t + c) % ii) in mrt for v in starts[mrt[(u.name, k, (t + c) % ii)]]}
        vs |= {s for s, _, delay, dist in into[i] if s in start and s != i and start[s] + delay - dist * ii > t}
        if wport[i] and wkey(i, t, w) in mrt:
            vs.add(mrt[wkey(i, t, w)])
        vs |= {mrt[r] for r in rkeys(i, t) if r in mrt}
        return vs

    while todo:
        i = todo.pop()
        u = units[i]
        est, lst = 0, None
        for s, _, delay, dist in into[i]:
            if s in start and s != i:
                est = max(est, start[s] + delay - dist * ii)
        for _, d, delay, dist in out[i]:
            if d in start and d != i:
                v = start[d] - delay + dist * ii
                lst = v if lst is None else min(lst, v)
        step = u.ii if align and u.ii > 1 and ii % u.ii == 0 else 1
        # aligned, instance k issues at cycles ≡ k·ii_u/count (mod ii_u): the instances' slots are
        # staggered, so a ready product waits at most ii_u/count cycles for one of them
        phase = [(k * step) // u.count for k in range(u.count)] if step > 1 else [0] * u.count
        lo = -(-est // step) * step
        first = min((est + (phase[k] - est) % step for k in range(u.count)), default=lo)
        hi = lo + ii - 1 if lst is None else min(lst, lo + ii - 1)
        found = (_first_fit_lanes if u.lanes > 1 else _first_fit)(i, u, min(first, est) if u.lanes > 1 else first,
                                                                   hi, step, phase)
        if found:
            put(i, *found)
        else:
            budget -= 1
            if budget < 0:
                return None
            # place at the earliest time not tried before and evict whatever is in the way: on
            # instance 0 and write port 0, or (evict "fewest") on the instance, at its first issue
            # cycle from there, and the write port whose ops in the way are fewest
            t = max(lo, last_try.get(i, lo - step) + step)
            last_try[i] = t
            slots = [(t, 0, 0)]
            if fewest:
                slots = [(t + (phase[k] - t) % step, k, w) for k in range(u.count)
                         for w in range(wport[i][1] if wport[i] else 1)]
            ways = {slot: in_the_way(i, *slot) for slot in slots}
            t, k, w = min(slots, key=lambda s: (len(ways[s]), s[1], s[2]))
            for v in ways[(t, k, w)]:
                unplace(v)
            put(i, t, k, w)
    n = len(units)
    if any(start[d] < start[s] + delay - dist * ii for i in order for s, d, delay, dist in out[i]):
        return None  # pragma: no cover - every placement checks its edges
    inst = {}
    for (name, g, _), ops in starts.items():
        for lane, v in enumerate(ops):
            inst[v] = g * units[v].lanes + lane
    return [start[i] for i in range(n)], [inst[i] for i in range(n)]
