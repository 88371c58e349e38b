"""SequentialMul: seed 000 §3.2's hybrid sequential/parallel multipliers."""

from __future__ import annotations

from functools import reduce
from operator import or_

from amaranth.hdl import Module, Mux, Signal

from pairhw.math.binary import mulalg
from pairhw.math.binary.field import GF2m

from pairhw.rtl.binary import nets
from .mulbase import MulUnit, _final_rotate, _require_trinomial, _sched_str, reduction_columns, toeplitz_columns
from pairhw.rtl.binary.plan import Plan


class SequentialMul(MulUnit):
    """Hybrid sequential/parallel multiplier: a :class:`~pairhw.rtl.binary.plan.Plan` on one parallel core.

    Pipeline (seed 000 Fig. 1): input registers (Tin/Rin); per step the Tnet/Vnet XOR networks feed
    registered core operands (Tint/Rint); the core's output is registered; OUTnet adds it into the
    accumulator (cleared by the first sub-product, so consecutive products overlap).  Tnet (with the
    CONVERTOR folded in) and Vnet are :func:`~pairhw.rtl.binary.nets.flagged_xor_net`: each operand bit is
    the XOR of the bits of A (B) it ever uses, each gated by a registered flag that is high in the
    steps that use it (:meth:`~pairhw.rtl.binary.plan.Plan.operand_cases`), rather than a step multiplexer
    over per-step XORs, which Yosys maps at several LUTs per bit (docs/results/multipliers-f2-1223.md).  Latency
    ``S + 3`` and initiation interval ``S`` for S sub-products; with ``reduce_cycle`` (Ghosh et al.:
    nine products and one cycle to recombine and reduce) one more cycle of each.

    Parameters
    ----------
    F : GF2m
    plan : Plan
        ``tmvp_plan(m, splits)`` (trinomials) or ``poly_plan(n, splits)``.
    core_schedule : tuple of int
        Splits of the parallel core (TMVP or Karatsuba, as the plan) down to a schoolbook base.
    reduce_cycle : bool
        Spend an extra cycle per product on the final reduction (polynomial plans).
    lut6 : bool
        The core's schoolbook base products from hand-packed ``LUT6`` primitives (as
        :class:`ParallelMul`); name suffix ``_l6``.
    stages : {1, 2, 3}
        The core's register stages: 2 registers every base product of the core's network
        (:func:`~pairhw.rtl.binary.nets.tmvp_net`'s ``cut``), between the operands' additions and
        base products and the output additions; 3 also registers the base products' operands
        (``cut_in``), between the operands' additions and the base products.  Each stage is a cycle
        more of latency at the same II; name suffix ``_p2``, ``_p3``.
    """

    def __init__(self, F: GF2m, plan: Plan, core_schedule=(), reduce_cycle: bool = False,
                 label: str = "SeqMul", lut6: bool = False, stages: int = 1):
        if stages not in (1, 2, 3):
            raise ValueError(f"a hybrid multiplier's core has 1, 2 or 3 stages, not {stages}")
        if stages > 1 and lut6:
            raise ValueError(f"a hybrid multiplier's core of {stages} stages is not built with lut6")
        if plan.kind == "tmvp":
            _require_trinomial(F, "a TMVP multiplier")
        self.plan = plan
        self.core_schedule = tuple(core_schedule)
        self.reduce_cycle = reduce_cycle
        self.lut6 = bool(lut6)
        self.stages = stages
        self.name = (f"{label}_m{F.m}_p{_sched_str(plan.splits)}_h{plan.h}"
                     f"_c{_sched_str(self.core_schedule)}" + ("_l6" if lut6 else "") + (f"_p{stages}" if stages > 1 else ""))
        super().__init__(F)

    @property
    def steps(self) -> int:
        return len(self.plan.products) + (1 if self.reduce_cycle else 0)

    @property
    def initiation_interval(self) -> int:
        return self.steps

    @property
    def latency(self) -> int:
        return self.steps + 2 + self.stages

    def emulate(self, a: int, b: int) -> int:
        if self.plan.kind == "tmvp":
            return mulalg.field_mul_tmvp(self.F, a, b, self.plan.splits + self.core_schedule)
        return mulalg.field_mul_karatsuba(self.F, a, b, self.plan.splits + self.core_schedule)

    # -- pieces shared with IterKaratsubaMul ------------------------------------------------------
    @property
    def last_issue(self) -> int:
        """Index of the sub-product issued last, whose accumulation completes a product."""
        return len(self.plan.products) - 1

    def _operand_rows(self):
        """Source rows of the first operand: T_A's diagonals in terms of A's bits (the CONVERTOR,
        from the model's Toeplitz map) for a TMVP plan; None (A itself) for a polynomial plan."""
        if self.plan.kind != "tmvp":
            return None
        return nets.linear_rows(toeplitz_columns(self.F), 2 * self.F.m - 1)

    def _core(self, m, x, y):
        P = self.plan

        def reg(w, name):  # every cycle, as the core's operand and product registers
            r = Signal(len(w), name=name)
            m.d.sync += r.eq(w)
            return r
        cut, cut_in = (reg if self.stages >= 2 else None), (reg if self.stages >= 3 else None)
        if P.kind == "tmvp":
            return nets.tmvp_net(m, x, y, P.h, self.core_schedule, "core", self.lut6, cut, cut_in)
        return nets.karatsuba_net(m, x, y, P.h, self.core_schedule, "core", self.lut6, cut, cut_in)

    def _accumulate(self, m, v, idx, pr):
        """OUTnet: add the tagged core result into the accumulator; drive ``c``/``done``."""
        F, P = self.F, self.plan
        acc = Signal(P.acc_width, name="acc")
        contrib = Signal(P.acc_width, name="contrib")
        with m.Switch(idx):
            for s, p in enumerate(P.products):
                with m.Case(s):
                    m.d.comb += contrib.eq(nets.xor_tree(
                        [pr[:ln].as_unsigned() << off for off, ln in p.out_terms]))
        acc_next = Signal(P.acc_width, name="acc_next")
        m.d.comb += acc_next.eq(Mux(idx == 0, 0, acc) ^ contrib)
        with m.If(v):
            m.d.sync += acc.eq(acc_next)
        last = Signal(name="last")
        m.d.comb += last.eq(v & (idx == self.last_issue))
        c = Signal(F.m, name="c_reg")
        done = Signal(name="done_reg")
        if self.reduce_cycle:
            # the extra cycle reduces straight from the accumulator: the next product's first
            # result lands no earlier than two cycles after the last one (II ≥ S + 1)
            src = acc
            fire = Signal(name="final_valid")
            m.d.sync += fire.eq(last)
        else:
            src, fire = acc_next, last
        if P.kind == "poly":
            final_src = nets.linear_net(m, src, reduction_columns(F, P.acc_width), F.m, "red")
        else:
            final_src = _final_rotate(F, src)
        with m.If(fire):
            m.d.sync += c.eq(final_src)
        m.d.sync += done.eq(fire)
        m.d.comb += [self.c.eq(c), self.done.eq(done)]

    def elaborate(self, platform):
        m = Module()
        F, P = self.F, self.plan
        S = len(P.products)
        steps = self.steps
        areg = Signal(F.m, name="tin")
        breg = Signal(F.m, name="rin")
        busy = Signal(name="busy")
        step = Signal(range(max(steps, 2)), name="step")
        step_next = Signal.like(step, name="step_next")
        m.d.comb += step_next.eq(step)
        with m.If(busy):
            m.d.comb += step_next.eq(Mux(step == steps - 1, 0, step + 1))
            with m.If(step == steps - 1):
                m.d.sync += busy.eq(0)
        with m.If(self.start):
            m.d.comb += step_next.eq(0)
            m.d.sync += [areg.eq(self.a), breg.eq(self.b), busy.eq(1)]
        m.d.sync += step.eq(step_next)

        # Tnet/Vnet (CONVERTOR included): each core operand bit is the XOR, over the bits of A (B),
        # of the bit gated by a registered flag that is high in the steps whose windows include it
        flags = {}

        def flag(cases):
            if len(cases) == S:
                return None
            if cases not in flags:
                f = flags[cases] = Signal(name="sel_" + "_".join(map(str, sorted(cases))))
                m.d.sync += f.eq(reduce(or_, [step_next == s for s in sorted(cases)]))
            return flags[cases]

        xw = P.x_width
        xs = nets.flagged_xor_net(m, areg, P.operand_cases("a", self._operand_rows()), flag, "tnet",
                                  self.lut6)
        ys = nets.flagged_xor_net(m, breg, P.operand_cases("b"), flag, "vnet", self.lut6)
        xr = Signal(xw, name="tint")
        yr = Signal(P.h, name="rint")
        v1 = Signal(name="v1")
        s1 = Signal(range(max(S, 2)), name="s1")
        m.d.sync += [xr.eq(xs), yr.eq(ys), v1.eq(busy & (step < S)), s1.eq(step)]
        core = self._core(m, xr, yr)
        for k in range(self.stages - 1):  # the core's own registers: the step's tag as many cycles later
            v1q, s1q = Signal(name=f"v1_q{k}"), Signal.like(s1, name=f"s1_q{k}")
            m.d.sync += [v1q.eq(v1), s1q.eq(s1)]
            v1, s1 = v1q, s1q
        pr = Signal(P.core_out_width, name="preg")
        v2 = Signal(name="v2")
        s2 = Signal(range(max(S, 2)), name="s2")
        m.d.sync += [pr.eq(core), v2.eq(v1), s2.eq(s1)]
        self._accumulate(m, v2, s2, pr)
        return m
