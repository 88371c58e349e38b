"""A fully parallel schoolbook multiplier for F_3^m: one product per cycle, latency ``stages``
(default 1)."""

from __future__ import annotations

from amaranth.hdl import Cat, Module, Signal
from amaranth.lib import wiring

from pairhw.rtl.ports import mul_signature
from pairhw.rtl.select import delayed, stage_cuts
from pairhw.math.ternary.field import GF3m

from . import nets


class SchoolbookMul3(wiring.Component):
    """c = a·b in F_3^m (two-bit encoding): Σ_i a_i·(b·x^i mod f), latency 1 (output register).

    b·x^i is built from b·x^(i−1) by the model's multiply-by-x map (a shift folded by the trinomial,
    its matrix read off the model); a_i·v is v, its negation (H and L swapped) or 0; the m partial
    products are summed by a balanced tree of the model's trit adder.  Same contract as the F_2^m
    multipliers: ``a`` and ``b`` are sampled when ``start`` is high, ``c`` holds the product from the
    next cycle, when ``done`` pulses.  ``stages`` (1 to 3) is the latency: the registers but the
    output's cut the tree of partial products evenly (:func:`~pairhw.rtl.select.stage_cuts`), ``c``
    then holding the product ``stages`` cycles after ``start``.
    """

    initiation_interval = 1
    lut6 = False
    _MustUse__silence = True

    def __init__(self, F: GF3m, stages: int = 1):
        if isinstance(stages, bool) or not isinstance(stages, int) or not 1 <= stages <= 3:
            raise ValueError(f"the schoolbook F_3^m multiplier has 1 to 3 stages, not {stages!r}")
        self.F, self.stages, self.latency = F, stages, stages
        self.cuts = stage_cuts(F.m, 1, stages - 1)
        self.name = f"SchoolbookMul3_m{F.m}" + (f"_s{stages}" if stages > 1 else "")
        self.xrows = nets.linear_rows(nets.basis_images(F, lambda v: F.mul(F.X, v)), F.m)
        w = 2 * F.m
        super().__init__(mul_signature(w))

    def emulate(self, a: int, b: int) -> int:
        return self.F.mul(a, b)

    def describe(self) -> dict:
        return {"name": self.name, "m": self.F.m, "field": self.F.poly_str(),
                "latency": self.latency, "ii": self.initiation_interval}

    def elaborate(self, platform):
        m = Module()
        n = self.F.m
        al, ah = self.a[:n], self.a[n:]
        vh, vl = self.b[n:], self.b[:n]
        parts = []
        for i in range(n):
            if i:
                vh, vl = nets.linear_net(m, vh, vl, self.xrows, f"bx{i}")
            parts.append(nets.trit_scale(m, (vh, vl), (ah[i], al[i]), f"pp{i}"))
        h, l = nets.trit_sum(m, parts, n, "acc", self.cuts)
        start = delayed(m, self.start, self.stages - 1, "start")  # with the partial sums it starts
        c, done = Signal(2 * n), Signal()
        with m.If(start):
            m.d.sync += c.eq(Cat(l, h))
        m.d.sync += done.eq(start)
        m.d.comb += [self.c.eq(c), self.done.eq(done)]
        return m
