"""The engine: trace → fold → lower → fuse powers → schedule → allocate → assemble, with the schedule report."""

from __future__ import annotations

from dataclasses import dataclass

from pairhw.progress import plural

from .calls import compile_steps, step_of
from .datapath import Datapath, DatapathError
from .fuse import folds_additions, fuse_additions, fuse_powers
from .loop import fold_loop
from .lower import Flow, lower
from .microcode import Microcode, assemble
from .reassociate import reassociate
from .regalloc import Allocation, allocate
from .schedule import (BlockSchedule, LoopSchedule, Schedule, ScheduleError, Timeline, list_schedule,
                       modulo_schedule)
from .stream import StreamInterface
from .trace import trace_kernel, trace_pairing


@dataclass
class Compiled:
    flow: Flow
    dp: Datapath
    schedule: Schedule
    alloc: Allocation
    microcode: Microcode
    #: a check core (a design's ``"check": true``): the values each group of ``len(check)`` outputs
    #: (one pairing's; a batch has several) must equal; the core then streams out one element per
    #: group, 1 if they do, else 0
    check: tuple | None = None

    @property
    def pre(self) -> BlockSchedule:
        return self.schedule.pre

    @property
    def loop(self) -> LoopSchedule:
        return self.schedule.loop

    @property
    def post(self) -> BlockSchedule:
        return self.schedule.post

    @property
    def timeline(self) -> Timeline:
        return self.schedule.timeline

    @property
    def cycles(self) -> int:
        """Cycles per pairing (constant) (:class:`~pairhw.program.stream.CompiledProgram`)."""
        return self.microcode.cycles

    @property
    def stream(self) -> StreamInterface:
        """The core's stream interface: the datapath's field and stream width, the program's inputs
        and outputs."""
        n_out = len(self.microcode.outputs) // len(self.check) if self.check is not None else len(self.microcode.outputs)
        return StreamInterface(self.dp.F, self.dp.io_width, len(self.microcode.inputs), n_out)

    def run(self, values: list) -> tuple[list, int]:
        """The microcode's run (:meth:`~pairhw.program.microcode.Microcode.run`): outputs and cycles
        (a check core's outputs: per pairing, 1 if its outputs are :attr:`check`, else 0)."""
        out, cycles = self.microcode.run(values)
        if self.check is not None:
            out = check_bits(out, self.check)
        return out, cycles

    def rom_listing(self, title: str = "") -> str:
        """The microcode, one word a line."""
        return self.microcode.listing(title)

    def report(self) -> dict:
        """Cycles, the multiplier bound (products × II / units), utilisation, registers, microcode."""
        mul = self.dp.unit_for("mul")
        products = self.flow.products()
        bound = mul_bound(self.dp, products)
        mc = self.microcode
        body_products = sum(op.kind == "mul" for op in self.flow.body)
        tl = self.timeline
        several = len(self.dp.units_for("mul")) > 1
        return {
            "cycles": mc.cycles,
            "products": products,
            "multiplier": {"latency": mul.latency, "ii": mul.ii, "count": mul.count},
            **({"multipliers": [{"name": u.name, "latency": u.latency, "ii": u.ii, "count": u.count,
                                 "lanes": u.lanes} for u in self.dp.units_for("mul")]} if several else {}),
            "multiplier_bound": bound,
            "multiplier_utilisation": round(bound / mc.cycles, 4),
            "phases": {"pre": tl.loop_start, "loop": tl.loop_end - tl.loop_start, "post": tl.end - tl.post_start},
            "loop": {"trips": self.flow.trips, "ii": self.loop.ii, "mii": self.loop.mii,
                     "iterations_per_trip": self.flow.period,
                     "cycles_per_iteration": round(self.loop.ii / self.flow.period, 2),
                     "stages": self.loop.stages, "body_ops": len(self.flow.body),
                     "body_products": body_products,
                     "body_multiplier_bound": mul_bound(self.dp, body_products),
                     "kernel_repeats": mc.loop.count if mc.loop else 0},
            "registers": dict(self.alloc.used),
            "loop_shared_registers": dict(self.alloc.loop_shared),
            "microcode": {"words": len(mc.words), "width": mc.width,
                          **({"runs": len(mc.table)} if mc.table is not None else {})},
            "interconnect": {**{k: v for k, v in mc.interconnect().items() if k != "ports"},
                             **({"max_sources": self.dp.max_sources} if self.dp.max_sources else {})},
            # the register stages around the units (only when there are some: reports stay as they were)
            **({"pipeline": {u.name: list(u.pipeline) for u in self.dp.units if u.pipeline}}
               if any(u.pipeline for u in self.dp.units) else {}),
            **({"forward": True} if self.dp.forward else {}),
            # the registers inside power units' networks ("power": {"stages": n}), only where there are some
            **({"power_stages": staged} if (staged := power_stages(self.dp)) else {}),
            # (the registers the word passes: with rom_stage the block RAM's own one too)
            **({"word_stages": self.dp.word_registers} if self.dp.word_stages else {}),
        }


def power_stages(dp: Datapath) -> dict:
    """Unit name -> the registers inside its networks, for the power units that have some."""
    return {u.name: dict(u.options)["stages"] for u in dp.units
            if dp.F.unit_kinds[u.kind].power and dict(u.options).get("stages")}


def check_bits(out, one: tuple) -> list:
    """A check core's outputs: per pairing (each ``len(one)`` coefficients of ``out``), 1 if its value
    is ``one``, else 0."""
    n = len(one)
    return [int(tuple(out[i:i + n]) == tuple(one)) for i in range(0, len(out), n)]


def mul_bound(dp: Datapath, products: int) -> int:
    """Cycles the datapath's multipliers need for ``products`` products at full throughput: products
    ÷ Σ lanes·count/II over the multiplier units (products × II / count with one unit)."""
    from fractions import Fraction

    rate = sum(Fraction(u.slots, u.ii) for u in dp.units_for("mul"))
    return -(-products // rate) if products else 0


def compile_flow(flow: Flow, dp: Datapath, balance: bool = True, program=None) -> Compiled:
    """Fuse power chains for ``dp``'s units (``balance``: share concurrent chains between squarer
    and square root, :func:`~pairhw.program.fuse.fuse_powers`) and additions for its three-operand
    adders (:func:`~pairhw.program.fuse.fuse_additions`), schedule, allocate and assemble.
    A datapath with ``calls`` schedules the traced ``program``'s steps one by one and stores each
    distinct step once (:mod:`pairhw.program.calls`)."""
    flow = fuse_powers(flow, dp, balance)
    if dp.reassociate:  # before the three-operand fusion, which then folds the rebuilt sums
        flow = reassociate(flow, dp)
    if folds_additions(dp):  # a three-operand adder's sums, each within its step (calls keep steps' ops)
        flow = fuse_additions(flow, dp, step_of(program, flow.pre) if dp.calls and program is not None else None)
    shared = flow.carried()
    if dp.calls and program is not None:
        sched, alloc, mc = compile_steps(flow, dp, program, shared)
        check_sources(mc)
        return Compiled(flow, dp, sched, alloc, mc)
    pre = list_schedule(flow.pre, dp, shared)
    loop = (modulo_schedule(flow.body, dp, trips=flow.trips, shared=shared) if flow.body
            else LoopSchedule([], [], 1, 1, 0, [], []))
    post = list_schedule(flow.post, dp, shared)
    sched = Schedule.of(pre, loop, post, flow.trips)
    alloc = allocate(flow, dp, sched)
    mc = assemble(flow, dp, sched, alloc)
    check_sources(mc)
    return Compiled(flow, dp, sched, alloc, mc)


def check_sources(mc: Microcode) -> None:
    """Refuse microcode whose unit input ports choose among more sources than the datapath's
    ``max_sources`` allows (:meth:`~pairhw.program.microcode.Microcode.interconnect`: registers, RAM
    banks and forwarded outputs, as the core builds them): the bound is the design's promise about
    its multiplexers, which set its clock (docs/ARCHITECTURE.md, "Where the clock goes")."""
    bound = mc.dp.max_sources
    if bound is None:
        return
    ports = mc.interconnect()["ports"]
    over = sorted((k for k, n in ports.items() if n > bound), key=lambda k: (-ports[k], k))
    if over:
        worst = over[0]
        more = f" (and {plural(len(over) - 1, 'more port')})" if len(over) > 1 else ""
        raise ScheduleError(f"datapath.max_sources: unit input {worst} chooses among {ports[worst]} sources, "
                            f"more than the bound {bound}{more}")


def compile_pairing(C, algorithm, dp: Datapath) -> Compiled:
    """Trace ``algorithm`` on curve ``C`` (over the datapath's field) and compile it for ``dp``."""
    if dp.inverse_window:
        if C.family != "bls12":
            raise DatapathError(f"datapath.inverse_window: the overlapped inversion is written for BLS12 curves' "
                                f"final exponentiation, not {C.family.upper()}")
        # the model's longest_inverse_window (the program layer imports no concrete field's model)
        if dp.inverse_window > (longest := abs(C.u - 1).bit_length() - 2):
            raise DatapathError(f"datapath.inverse_window: at most {longest} squarings (the first power of the hard "
                                f"part, by |u − 1|, has {longest + 1}), not {dp.inverse_window}")
    if dp.kept_copies and C.family != "bls12":
        raise DatapathError(f"datapath.kept_copies: the copies are of the powers a BLS12 final exponentiation "
                            f"keeps, not {C.family.upper()}'s")
    program = trace_pairing(dp.F, C, algorithm, native=native_ops(dp), copies=dp.table_copies,
                            inverse_window=dp.inverse_window, kept_copies=dp.kept_copies)
    return compile_flow(lower(fold_loop(program)), dp, program=program)


def compile_kernel(n_inputs: int, fn, dp: Datapath) -> Compiled:
    """Compile one straight-line operation (:func:`~pairhw.program.trace.trace_kernel`) over the
    datapath's field for ``dp``: its ``cycles`` are the latency of that operation alone."""
    return compile_flow(lower(fold_loop(trace_kernel(dp.F, n_inputs, fn, native=native_ops(dp)))), dp)


def native_ops(dp: Datapath) -> frozenset:
    """The op kinds ``dp``'s units execute (what a tracer may emit instead of expanding), and
    (kind, k) for each small constant k a scaled unit multiplies by (F_p's ``("mulk", 9)``)."""
    scaled = {(op, k) for u in dp.units if dp.F.unit_kind(u.kind).scaled for op in u.ops for k in u.ks}
    return frozenset({op for u in dp.units for op in u.ops} | scaled)
