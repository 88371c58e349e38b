"""ParallelMul: the fully parallel multipliers (schoolbook, Karatsuba, TMVP), one product per cycle."""

from __future__ import annotations

from amaranth.hdl import Module, Signal

from pairhw.math.binary import mulalg
from pairhw.math.binary.field import GF2m

from pairhw.rtl.binary import nets
from .mulbase import MulUnit, _final_rotate, _require_trinomial, _sched_str, reduction_columns, toeplitz_columns


class ParallelMul(MulUnit):
    """Fully parallel multiplier: one product per cycle, latency 1 (output register).

    Parameters
    ----------
    F : GF2m
    method : {"schoolbook", "karatsuba", "tmvp"}
        Polynomial product then reduction (schoolbook, Karatsuba) or seed 000's
        C = swap(T_A·B) with a recursive TMVP.
    schedule : tuple of int
        Splits (2 or 3) outermost first, down to a schoolbook base; seed 000 §3.2 uses
        (3, 3, 3, 2) for 408 → 136 → 46 → 16 → 8.
    lut6 : bool
        Build the schoolbook base products from hand-packed Xilinx ``LUT6`` primitives
        (:func:`pairhw.rtl.binary.nets.lut6_sum_of_products`; a TMVP's last split adds its output blocks in
        the base rows' spare inputs, :func:`pairhw.rtl.binary.nets.tmvp_net`); name suffix ``_l6``.
    stages : {1, 2}
        Register stages, the latency: 1, the product registered at the output; 2, also a register
        between the two linear parts, where the product's network is cut in two: after the Toeplitz
        vector (TMVP: T_A's diagonals and b registered, the recursive TMVP after) or before the
        reduction (schoolbook, Karatsuba: the 2m − 1-bit polynomial product registered). Still one
        product a cycle; name suffix ``_p2``.
    """

    initiation_interval = 1

    def __init__(self, F: GF2m, method: str = "karatsuba", schedule=(), lut6: bool = False, stages: int = 1):
        if stages not in (1, 2):
            raise ValueError(f"a parallel multiplier has 1 or 2 stages, not {stages}")
        if method == "tmvp":
            _require_trinomial(F, "a TMVP multiplier")
        if method not in ("schoolbook", "karatsuba", "tmvp"):
            raise ValueError(f"unknown parallel method {method!r}")
        self.method = method
        self.schedule = tuple(schedule) if method != "schoolbook" else ()
        self.lut6 = bool(lut6)
        self.stages = stages
        self.name = (f"{method.capitalize()}Mul_m{F.m}_s{_sched_str(self.schedule)}" + ("_l6" if lut6 else "")
                     + ("_p2" if stages == 2 else ""))
        super().__init__(F)

    @property
    def latency(self) -> int:
        """Cycles from start to the product: its register stages."""
        return self.stages

    def emulate(self, a: int, b: int) -> int:
        if self.method == "tmvp":
            return mulalg.field_mul_tmvp(self.F, a, b, self.schedule)
        if self.method == "karatsuba":
            return mulalg.field_mul_karatsuba(self.F, a, b, self.schedule)
        return mulalg.field_mul_schoolbook(self.F, a, b)

    def elaborate(self, platform):
        m = Module()
        F = self.F
        go = self.start  # the start of the stage that computes the output

        def cut(value, name):
            """``value`` registered at the first stage (``stages`` = 2), loaded on start."""
            if self.stages == 1:
                return value
            r = Signal(len(value), name=name)
            with m.If(self.start):
                m.d.sync += r.eq(value)
            return r

        if self.stages == 2:
            go = Signal(name="start_s1")
            m.d.sync += go.eq(self.start)
        if self.method == "tmvp":
            t = cut(nets.linear_net(m, self.a, toeplitz_columns(F), 2 * F.m - 1, "tdiag"), "tdiag_s1")
            cp = nets.tmvp_net(m, t, cut(self.b, "b_s1"), F.m, self.schedule, "tmvp", self.lut6)
            res = _final_rotate(F, cp)
        else:
            p = cut(nets.karatsuba_net(m, self.a, self.b, F.m, self.schedule, "pm", self.lut6), "pm_s1")
            res = nets.linear_net(m, p, reduction_columns(F, 2 * F.m - 1), F.m, "red")
        done = Signal()
        c = Signal(F.m)
        with m.If(go):
            m.d.sync += c.eq(res)
        m.d.sync += done.eq(go)
        m.d.comb += [self.c.eq(c), self.done.eq(done)]
        return m
