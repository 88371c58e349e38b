"""List scheduling of straight-line programs onto functional units (the first piece of the engine).

A :class:`Datapath` names functional units, each executing some op kinds with a latency and an
initiation interval (issue 6 will add register banks and connectivity).  :func:`list_schedule`
places every op at the earliest cycle where its operands are ready and a unit is free, preferring
the ops on the longest path to the end (critical-path priority).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Unit:
    name: str
    kinds: tuple
    latency: int
    ii: int = 1
    count: int = 1


@dataclass(frozen=True)
class Datapath:
    units: tuple

    def unit_for(self, kind: str) -> Unit:
        for u in self.units:
            if kind in u.kinds:
                return u
        raise ValueError(f"no unit executes {kind!r}")


@dataclass
class Schedule:
    start: dict = field(default_factory=dict)  # op index -> cycle
    unit: dict = field(default_factory=dict)  # op index -> (unit name, instance)
    cycles: int = 0

    def report(self, program, dp: Datapath) -> dict:
        mul = dp.unit_for("mul")
        products = sum(op.kind in mul.kinds for op in program.ops)
        bound = products * mul.ii // mul.count
        return {"cycles": self.cycles, "products": products, "multiplier_bound": bound,
                "multiplier_utilisation": round(bound / self.cycles, 4) if self.cycles else 0.0}


def list_schedule(program, dp: Datapath) -> Schedule:
    ops = program.ops
    producer = {op.dst: i for i, op in enumerate(ops)}
    preds = [[producer[s] for s in op.srcs if s in producer] for op in ops]
    lat = [dp.unit_for(op.kind).latency for op in ops]
    succs = [[] for _ in ops]
    for i, ps in enumerate(preds):
        for p in ps:
            succs[p].append(i)
    height = [0] * len(ops)
    for i in reversed(range(len(ops))):
        height[i] = lat[i] + max((height[s] for s in succs[i]), default=0)
    ready_at = [0] * len(ops)
    waiting = [len(ps) for ps in preds]
    busy: dict = {}  # (unit name, instance) -> first cycle it can accept a new op
    sched = Schedule()
    ready = [i for i in range(len(ops)) if waiting[i] == 0]
    cycle = 0
    done = 0
    while done < len(ops):
        ready.sort(key=lambda i: (-height[i], i))
        issued = []
        for i in ready:
            if ready_at[i] > cycle:
                continue
            u = dp.unit_for(ops[i].kind)
            for inst in range(u.count):
                if busy.get((u.name, inst), 0) <= cycle:
                    busy[(u.name, inst)] = cycle + u.ii
                    sched.start[i], sched.unit[i] = cycle, (u.name, inst)
                    issued.append(i)
                    break
        for i in issued:
            ready.remove(i)
            done += 1
            fin = cycle + lat[i]
            sched.cycles = max(sched.cycles, fin)
            for s in succs[i]:
                ready_at[s] = max(ready_at[s], fin)
                waiting[s] -= 1
                if waiting[s] == 0:
                    ready.append(s)
        cycle += 1
    return sched
