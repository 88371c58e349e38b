"""Register allocation within the banks of a datapath, for a scheduled :class:`Flow`.

The run is one timeline: ``pre`` in cycles [0, loop_start), trip j of the loop body's event at
relative cycle τ in cycle loop_start + j·ii + τ, the loop's code ending at ``loop_end``
= loop_start + (trips + stages − 1)·ii, then ``post`` and the unload at ``end``.  A value occupies
its register from the cycle it becomes readable to its last read (both included); a value written
at the end of a cycle may replace one whose last read is that cycle.

* Loop-body values read only by their own trip share registers whenever their occupancy windows,
  taken modulo ii, are disjoint (circular-arc first fit); the scheduler's anti-dependences keep
  every window within ii cycles.
* A loop-carried value (read by the next trip) or a value read after the loop keeps a register of
  its own for the whole loop, shared with its initial value before the loop and its reader after.
* Every other value (straight-line code, loop invariants, inputs, outputs) gets an interval, and the
  intervals are coloured first-fit in order of their start (optimal for interval graphs).
* When the core builds only the connections its words use (``"connect": "program"``), a value takes,
  of the registers free for it, the one its readers (unit ports) and its writer already reach most
  (fewest new connections; the lowest index on a tie), instead of the first.  For the intervals
  any free register keeps the count optimal; for the loop's arcs the count may differ from first
  fit's (it does not on tate1-47-d4, tests/program/test_engine.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .datapath import Datapath
from .schedule import Schedule, ScheduleError, Timeline

__all__ = ["Allocation", "Timeline", "allocate"]


@dataclass
class Allocation:
    reg: dict = field(default_factory=dict)  # value name -> (bank, index)
    used: dict = field(default_factory=dict)  # bank -> registers used
    loop_shared: dict = field(default_factory=dict)  # bank -> registers shared by the loop's locals


def allowed_banks(flow, dp: Datapath, sched: Schedule) -> dict:
    """value -> the banks that may hold it: those its writer writes and each of its readers reads."""
    pre, loop, post = sched.pre, sched.loop, sched.post
    shared = flow.carried()
    allowed: dict = {}  # value -> set of banks

    def restrict(name, banks, why):
        cur = allowed.get(name)
        allowed[name] = set(banks) if cur is None else cur & set(banks)
        if not allowed[name]:
            raise ScheduleError(f"no register bank can hold {name}: {why} (check the datapath's reads/writes)")

    for x in flow.inputs:
        restrict(x, dp.bank_names(), "loaded")
    for ops, sch in ((flow.pre, pre), (flow.body, loop), (flow.post, post)):
        for r in sch.records():
            op, u = ops[r.op], r.unit
            banks = dp.write_banks(u, r.slot)
            if dp.shared_write_port(u):  # the scheduler counted the write on one of the two banks
                banks = banks[1:] if op.dst in shared else banks[:1]
            restrict(op.dst, banks, f"written by {u.name}")
            for port, (s, _) in enumerate(op.srcs):
                restrict(s, dp.read_banks(u, port), f"read by port {port} of {u.name}")
    return allowed


def allocate(flow, dp: Datapath, sched: Schedule) -> Allocation:
    """Assign every value of ``flow`` a register in the banks of ``dp``, for its schedule ``sched``."""
    pre, loop, post, tl = sched.pre, sched.loop, sched.post, sched.timeline
    ii = loop.ii
    Ls, Le, end = tl.loop_start, tl.loop_end, tl.end
    allowed = allowed_banks(flow, dp, sched)
    # a loop-carried value shares its register with its initial value and its reader after the loop
    group = {b: {b} for b in flow.init} | {b: {b} for b in flow.final.values()}
    for b, x in flow.init.items():
        group[b].add(x)
    for x, b in flow.final.items():
        group[b].add(x)
    for b, members in group.items():
        common = set.intersection(*(allowed[n] for n in members))
        if not common:
            raise ScheduleError(f"no register bank can hold the loop-carried value {b} and {sorted(members)}")
        for n in members:
            allowed[n] = common

    # with "connect": "program" the core builds only the connections the words use, so a free
    # register is chosen to add the fewest: keys[v] are the unit ports that read v and the unit
    # instance that writes it (a lane's operand b is lane 0's port)
    keys: dict = {}
    if dp.connect == "program":
        for ops, sch in ((flow.pre, pre), (flow.body, loop), (flow.post, post)):
            for r in sch.records():
                op, u, inst = ops[r.op], r.unit, r.slot
                keys.setdefault(op.dst, set()).add(("w", u.name, inst))
                for port, (src, _) in enumerate(op.srcs):
                    reader = inst - inst % u.lanes if port == 1 else inst
                    keys.setdefault(src, set()).add(("r", u.name, reader, port))

    # last reads on the timeline
    last: dict = {}

    def read(name, t):
        last[name] = max(last.get(name, -1), t)

    for r in pre.records():
        for s, _ in flow.pre[r.op].srcs:
            read(s, r.start)
    for op in flow.body:
        for s, _ in op.srcs:
            if not s.startswith("@"):
                read(s, Le - 1)  # loop invariant: held for the whole loop
    for r in post.records():
        for s, _ in flow.post[r.op].srcs:
            read(s, tl.post_start + r.start)
    for o in flow.outputs:
        read(o, end)

    written = {x: 0 for x in flow.inputs}
    for r in pre.records():
        written[flow.pre[r.op].dst] = r.ready
    for r in post.records():
        written[flow.post[r.op].dst] = tl.post_start + r.ready

    entities = []  # (start, end, banks, names)
    for b, members in sorted(group.items(), key=lambda kv: int(kv[0][1:]) if kv[0][1:].isdigit() else 0):
        x = flow.init.get(b)
        if x is not None and last.get(x, -1) >= Ls:
            raise ScheduleError(f"{x} is the loop's initial value of {b} and is read after the loop starts; "
                                "the engine would need a move")
        s = written[x] if x is not None else Ls
        e = max([Le - 1] + [last.get(n, -1) for n in members if n in flow.final])
        entities.append((s, e, allowed[b], sorted(members)))

    # prefer the bank fewest ports read: widely read banks stay free for the values that need them
    readers = {b: sum(b in dp.read_banks(u, p) for u in dp.units for p in range(u.ports)) for b in dp.bank_names()}
    pref = sorted(dp.bank_names(), key=lambda b: (readers[b], dp.bank_names().index(b)))
    # loop-local values: circular-arc first fit per bank
    body_idx = {op.dst: i for i, op in enumerate(flow.body)}
    rlast: dict = {}
    for r in loop.records():
        for s, dist in flow.body[r.op].srcs:
            if s in body_idx:
                rlast[s] = max(rlast.get(s, -1), r.start + dist * ii)
    arcs: dict = {}  # bank -> list of sets of cells
    arc_keys: dict = {}  # bank -> per register, the keys of its values
    local_slot: dict = {}
    locals_ = [op.dst for op in flow.body if op.dst not in group]
    wb = {flow.body[r.op].dst: r.ready for r in loop.records()}
    for v in sorted(locals_, key=lambda v: (wb[v], body_idx[v])):
        w, r = wb[v], max(rlast.get(v, wb[v]), wb[v])
        if r - w + 1 > ii:  # pragma: no cover - the anti-dependences rule this out
            raise ScheduleError(f"{v} lives {r - w + 1} cycles, longer than the loop's ii {ii}")
        cells = {(w + c) % ii for c in range(r - w + 1)}
        bank = min(allowed[v], key=pref.index)
        regs = arcs.setdefault(bank, [])
        held, need = arc_keys.setdefault(bank, []), keys.get(v, set())
        fits = [k for k, occ in enumerate(regs) if not occ & cells]
        if fits:  # the register whose values' ports already reach v's most (the first one without keys)
            k = min(fits, key=lambda k: (len(need - held[k]), k))
            regs[k] |= cells
        else:
            k = len(regs)
            regs.append(set(cells))
            held.append(set())
        held[k] |= need
        local_slot[v] = (bank, k)
    shared_ids = {}
    for bank, regs in arcs.items():
        for k in range(len(regs)):
            shared_ids[(bank, k)] = f"<loop {bank}{k}>"
            entities.append((Ls, Le - 1, {bank}, [shared_ids[(bank, k)]]))
            keys[shared_ids[(bank, k)]] = arc_keys[bank][k]

    grouped = set().union(*group.values())
    for v, w in written.items():
        if v in grouped:
            continue
        entities.append((w, max(last.get(v, w), w), allowed[v], [v]))

    alloc = Allocation()
    free_at: dict = {b: [] for b in dp.bank_names()}  # bank -> per register, the last occupied cycle
    reg_keys: dict = {b: [] for b in dp.bank_names()}  # bank -> per register, the keys of its values
    size = {b.name: b.size for b in dp.banks}
    for s, e, banks, names in sorted(entities, key=lambda en: (en[0], en[1], en[3])):
        need = set().union(*(keys.get(n, ()) for n in names))
        for bank in sorted(banks, key=pref.index):
            regs, held = free_at[bank], reg_keys[bank]
            # any free register keeps first fit's count (intervals in order of start); the one that
            # gains the fewest connections (without keys, the first: first fit)
            free = [k for k, f in enumerate(regs) if f < s]
            reg = min(free, key=lambda k: (len(need - held[k]), k)) if free else None
            if reg is None and (size[bank] is None or len(regs) < size[bank]):
                reg = len(regs)
                regs.append(-1)
                held.append(set())
            if reg is not None:
                regs[reg] = e
                held[reg] |= need
                for n in names:
                    alloc.reg[n] = (bank, reg)
                break
        else:
            raise ScheduleError(f"datapath.banks: {', '.join(sorted(banks))} {'is' if len(banks) == 1 else 'are'} "
                                f"full at cycle {s} of the schedule (size {', '.join(f'{b}: {size[b]}' for b in sorted(banks))}); "
                                "give a larger size, or none")
    for v, slot in local_slot.items():
        alloc.reg[v] = alloc.reg[shared_ids[slot]]
    for b, regs in free_at.items():
        alloc.used[b] = len(regs)
    alloc.loop_shared = {b: len(r) for b, r in arcs.items()}
    for sid in shared_ids.values():
        del alloc.reg[sid]
    return alloc
