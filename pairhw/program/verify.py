"""An independent check of a schedule against its problem: the oracle the scheduler's tests use.

The schedulers (:func:`~pairhw.program.schedule.list_schedule`, :func:`~pairhw.program.schedule.modulo_schedule`)
search; this module only checks, from the ops, the datapath and the schedule, that

* each op runs on a unit that computes it (its kind and power), on an instance the unit has;
* each op issues after its operands are ready: the producer's issue + its unit's delay (latency
  + 1, the write; latency alone when the consumer's unit takes the result forwarded) — in a loop, for the edges with
  their trip distance, the dependence and the register anti-dependence (a value is read before the
  next trip overwrites it);
* an instance starts at most once every II cycles of its unit (in a loop, modulo the loop's II); the
  lanes of one start share their operand b and do not exceed the unit's lanes;
* a bank's limited write ports take at most that many results a cycle, and a shared read port serves
  at most one op a cycle (in a loop, modulo the II);
* a block is long enough for its last result, and a loop's stages span its last one.

Each check is written from the datapath's contract (docs/ARCHITECTURE.md), not from the schedulers'
code, so the two can disagree; :func:`verify` returns the list of what is wrong (empty: the schedule is
valid), naming the op, the unit and the cycle, as CIRCT's ``verify`` of a scheduling problem does.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from .datapath import Datapath
from .schedule import BlockSchedule, LoopSchedule, ScheduledOp, _b_operand, body_edges


def _ports(dp: Datapath, op, u, shared) -> tuple:
    """(the (bank, ports) op's result takes, the shared read ports (bank, index) it takes)."""
    wp = dp.shared_write_port(u) if op.dst in shared and u.writes_each else dp.write_port(u)
    rps = tuple(rp for port in range(len(op.srcs)) if (rp := dp.read_port(u, port)))
    return wp, rps


def _unit_checks(ops, dp: Datapath, units, inst, where: str) -> list[str]:
    out = []
    for i, (op, u) in enumerate(zip(ops, units)):
        able = dp.units_for(op.kind, op.k)
        if u is None or u not in able:
            out.append(f"{where} op {i} ({op.kind} → {op.dst}): unit {getattr(u, 'name', u)} does not compute it")
        elif not 0 <= inst[i] < u.slots:
            out.append(f"{where} op {i} ({op.kind} → {op.dst}): lane {inst[i]} of {u.name}, which has {u.slots}")
    return out


def _starts(placed: list[ScheduledOp]) -> dict:
    """{(unit name, instance, issue cycle): [op, …]}: the ops that share each start of an instance."""
    groups: dict = defaultdict(list)
    for r in placed:
        groups[(r.unit.name, r.instance, r.start)].append(r.op)
    return groups


def _lane_checks(ops, units, groups, inst, where: str) -> list[str]:
    out = []
    for (name, g, t), members in groups.items():
        u = units[members[0]]
        if len(members) > u.lanes:
            out.append(f"{where}: {len(members)} ops start {name}{g} at cycle {t}, which has {u.lanes} lane(s)")
        if len({_b_operand(ops[i]) for i in members}) > 1:
            out.append(f"{where}: the lanes of {name}{g} started at cycle {t} have different operands b")
        if len({inst[i] for i in members}) < len(members):
            out.append(f"{where}: two ops on one lane of {name}{g} at cycle {t}")
    return out


def verify_block(ops, dp: Datapath, sch: BlockSchedule, shared=frozenset()) -> list[str]:
    """What is wrong with the straight-line schedule ``sch`` of ``ops`` on ``dp`` (empty: valid)."""
    where = "block"
    n = len(ops)
    if not (len(sch.start) == len(sch.inst) == len(sch.units) == n):
        return [f"{where}: {n} ops but {len(sch.start)} starts, {len(sch.inst)} instances, {len(sch.units)} units"]
    out = _unit_checks(ops, dp, sch.units, sch.inst, where)
    if out:
        return out
    placed = sch.records()
    producer = {op.dst: i for i, op in enumerate(ops)}
    for r, op in zip(placed, ops):
        for s, _ in op.srcs:
            if s in producer:
                p = placed[producer[s]]
                if r.start < p.ready_for(r.unit):
                    out.append(f"{where} op {r.op} ({op.kind} → {op.dst}) issues at {r.start}, before its operand "
                               f"{s} is written (op {p.op} on {p.unit.name} at {p.start}, ready at "
                               f"{p.ready_for(r.unit)})")
    groups = _starts(placed)
    out += _lane_checks(ops, sch.units, groups, sch.inst, where)
    by_instance: dict = defaultdict(list)
    for name, g, t in groups:
        by_instance[(name, g)].append(t)
    ii = {u.name: u.ii for u in sch.units}
    for (name, g), ts in by_instance.items():
        ts.sort()
        for a, b in zip(ts, ts[1:]):
            if b - a < ii[name]:
                out.append(f"{where}: {name}{g} starts at {a} and again at {b}, less than its II {ii[name]} apart")
    writes: Counter = Counter()
    reads: Counter = Counter()
    limit = {}
    for i, (op, u, t) in enumerate(zip(ops, sch.units, sch.start)):
        wp, rps = _ports(dp, op, u, shared)
        if wp:
            writes[(wp[0], t + u.latency)] += 1
            limit[wp[0]] = wp[1]
        for r in rps:
            reads[(*r, t)] += 1
    out += [f"{where}: {k} results written through bank {b}'s {limit[b]} write port(s) at cycle {c}"
            for (b, c), k in sorted(writes.items()) if k > limit[b]]
    out += [f"{where}: {k} ops read through shared port {p} of bank {b} at cycle {c}"
            for (b, p, c), k in sorted(reads.items()) if k > 1]
    need = max((t + max(u.delay, u.ii) for u, t in zip(sch.units, sch.start)), default=0)
    if sch.length < need:
        out.append(f"{where}: length {sch.length}, but its last op needs {need} cycles")
    return out


def verify_loop(body, dp: Datapath, sch: LoopSchedule, shared=frozenset()) -> list[str]:
    """What is wrong with the modulo schedule ``sch`` of the loop ``body`` on ``dp`` (empty: valid)."""
    where = f"loop (II {sch.ii})"
    n, ii = len(body), sch.ii
    if n == 0:
        return []
    if not (len(sch.start) == len(sch.inst) == len(sch.units) == n):
        return [f"{where}: {n} ops but {len(sch.start)} starts, {len(sch.inst)} instances, {len(sch.units)} units"]
    out = _unit_checks(body, dp, sch.units, sch.inst, where)
    if out:
        return out
    for s, d, delay, dist in body_edges(body, sch.units):  # derived here from the ops and their units
        if sch.start[d] + dist * ii < sch.start[s] + delay:
            out.append(f"{where}: op {d} ({body[d].kind} → {body[d].dst}) at {sch.start[d]} + {dist}·II is before "
                       f"op {s} at {sch.start[s]} + {delay}")
    groups = _starts(sch.records())
    out += _lane_checks(body, sch.units, groups, sch.inst, where)
    busy: Counter = Counter()  # (unit, instance, cycle mod II): starts holding it
    for name, g, t in groups:
        u = next(x for x in sch.units if x.name == name)
        if u.ii > ii:
            out.append(f"{where}: {name} has II {u.ii}, longer than the loop's")
        for c in range(u.ii):
            busy[(name, g, (t + c) % ii)] += 1
    out += [f"{where}: {name}{g} is started twice for cycle {c} (mod II)" for (name, g, c), k in sorted(busy.items())
            if k > 1]
    writes: Counter = Counter()
    reads: Counter = Counter()
    limit = {}
    for op, u, t in zip(body, sch.units, sch.start):
        wp, rps = _ports(dp, op, u, shared)
        if wp:
            writes[(wp[0], (t + u.latency) % ii)] += 1
            limit[wp[0]] = wp[1]
        for r in rps:
            reads[(*r, t % ii)] += 1
    out += [f"{where}: {k} results written through bank {b}'s {limit[b]} write port(s) at cycle {c} (mod II)"
            for (b, c), k in sorted(writes.items()) if k > limit[b]]
    out += [f"{where}: {k} ops read through shared port {p} of bank {b} at cycle {c} (mod II)"
            for (b, p, c), k in sorted(reads.items()) if k > 1]
    last = max(t + u.latency for u, t in zip(sch.units, sch.start))
    if sch.stages != last // ii + 1:
        out.append(f"{where}: {sch.stages} stages, but its last result is in stage {last // ii + 1}")
    return out


def verify(compiled) -> list[str]:
    """What is wrong with a compiled program's three schedules (prologue, loop, epilogue) against
    its flow and datapath (:class:`~pairhw.program.engine.Compiled`); empty when all are valid."""
    flow, dp = compiled.flow, compiled.dp
    shared = flow.carried()
    return (verify_block(flow.pre, dp, compiled.pre, shared) + verify_loop(flow.body, dp, compiled.loop, shared)
            + verify_block(flow.post, dp, compiled.post, shared))
