"""Drive a unit in the Amaranth simulator (small m: fast, no compiler needed): a multiplier through its
start/done contract, a combinational unit port by port."""

from __future__ import annotations

from dataclasses import dataclass, field

from amaranth.sim import Simulator


@dataclass
class MulRun:
    """Outcome of a simulated product stream: results in issue order and the observed timing."""

    results: list = field(default_factory=list)
    starts: list = field(default_factory=list)
    dones: list = field(default_factory=list)

    @property
    def latencies(self) -> list:
        return [d - s for s, d in zip(self.starts, self.dones)]


def simulate_mul(unit, pairs, gaps=None, vcd: str | None = None, progress=None) -> MulRun:
    """Issue ``pairs`` (operand tuples: (a, b), or (a,) for a one-operand unit) to ``unit``;
    product i starts ``gaps[i]`` cycles after the previous one (default: every
    ``initiation_interval`` cycles, back to back).  Results are collected when
    ``done`` is high; ``progress(results so far)`` is called on each.
    """
    pairs = list(pairs)
    ii = unit.initiation_interval
    if gaps is None:
        gaps = [ii] * len(pairs)
    if any(g < ii for g in gaps[1:]):
        raise ValueError("products cannot start closer than the initiation interval")
    run = MulRun()
    limit = sum(gaps) + unit.latency + 8
    ports = [unit.a, unit.b] if hasattr(unit, "b") else [unit.a]  # one-operand units (an inverter) too

    async def bench(ctx):
        cyc = 0
        nxt = 0
        due = 0
        while len(run.results) < len(pairs) and cyc <= limit:
            if nxt < len(pairs) and cyc == due:
                for port, v in zip(ports, pairs[nxt]):
                    ctx.set(port, v)
                ctx.set(unit.start, 1)
                run.starts.append(cyc)
                nxt += 1
                if nxt < len(pairs):
                    due = cyc + gaps[nxt]
            else:
                ctx.set(unit.start, 0)
                for port in ports:
                    ctx.set(port, 0)
            if ctx.get(unit.done):
                run.results.append(ctx.get(unit.c))
                run.dones.append(cyc)
                if progress is not None:
                    progress(len(run.results))
            await ctx.tick()
            cyc += 1

    sim = Simulator(unit)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    if vcd:
        with sim.write_vcd(vcd):
            sim.run()
    else:
        sim.run()
    return run


def simulate_comb(unit, cases) -> list:
    """Drive a unit that computes every cycle with ``cases``, each a dict port name -> value, one a
    cycle, and read its output ``c`` for each: at once (latency 0), or ``unit.latency`` cycles later
    (a pipelined unit, its cases back to back)."""
    out = []
    lat = getattr(unit, "latency", 0)

    async def bench(ctx):
        for i, case in enumerate(list(cases) + [None] * lat):
            for port, v in (case or {}).items():
                ctx.set(getattr(unit, port), v)
            if i >= lat:
                out.append(ctx.get(unit.c))
            if lat:
                await ctx.tick()

    sim = Simulator(unit)
    if lat:
        sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()
    return out
