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
    """

    latency = 1
    initiation_interval = 1

    def __init__(self, F: GF2m, method: str = "karatsuba", schedule=(), lut6: bool = False):
        if method == "tmvp":
            _require_trinomial(F, "a TMVP multiplier")
        if method not in ("schoolbook", "karatsuba", "tmvp"):
            raise ValueError(f"unknown parallel method {method!r}")
        self.method = method
        self.schedule = tuple(schedule) if method != "schoolbook" else ()
        self.lut6 = bool(lut6)
        self.name = f"{method.capitalize()}Mul_m{F.m}_s{_sched_str(self.schedule)}" + ("_l6" if lut6 else "")
        super().__init__(F)

    def emulate(self, a: int, b: int) -> int:
        if self.method == "tmvp":
            return mulalg.field_mul_tmvp(self.F, a, b, self.schedule)
        if self.method == "karatsuba":
            return mulalg.field_mul_karatsuba(self.F, a, b, self.schedule)
        return mulalg.field_mul_schoolbook(self.F, a, b)

    def elaborate(self, platform):
        m = Module()
        F = self.F
        if self.method == "tmvp":
            t = nets.linear_net(m, self.a, toeplitz_columns(F), 2 * F.m - 1, "tdiag")
            cp = nets.tmvp_net(m, t, self.b, F.m, self.schedule, "tmvp", self.lut6)
            res = _final_rotate(F, cp)
        else:
            p = nets.karatsuba_net(m, self.a, self.b, F.m, self.schedule, "pm", self.lut6)
            res = nets.linear_net(m, p, reduction_columns(F, 2 * F.m - 1), F.m, "red")
        done = Signal()
        c = Signal(F.m)
        with m.If(self.start):
            m.d.sync += c.eq(res)
        m.d.sync += done.eq(self.start)
        m.d.comb += [self.c.eq(c), self.done.eq(done)]
        return m
