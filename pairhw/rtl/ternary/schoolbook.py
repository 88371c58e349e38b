"""A fully parallel schoolbook multiplier for F_3^m: one product per cycle, latency 1."""

from __future__ import annotations

from amaranth.hdl import Cat, Module, Signal
from amaranth.lib import wiring

from pairhw.rtl.ports import mul_signature
from pairhw.math.ternary.field import GF3m

from . import nets


class SchoolbookMul3(wiring.Component):
    """c = a·b in F_3^m (two-bit encoding): Σ_i a_i·(b·x^i mod f), latency 1 (output register).

    b·x^i is built from b·x^(i−1) by the model's multiply-by-x map (a shift folded by the trinomial,
    its matrix read off the model); a_i·v is v, its negation (H and L swapped) or 0; the m partial
    products are summed by a balanced tree of the model's trit adder.  Same contract as the F_2^m
    multipliers: ``a`` and ``b`` are sampled when ``start`` is high, ``c`` holds the product from the
    next cycle, when ``done`` pulses.
    """

    latency = 1
    initiation_interval = 1
    lut6 = False
    _MustUse__silence = True

    def __init__(self, F: GF3m):
        self.F = F
        self.name = f"SchoolbookMul3_m{F.m}"
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
        h, l = nets.trit_sum(m, parts, n, "acc")
        c, done = Signal(2 * n), Signal()
        with m.If(self.start):
            m.d.sync += c.eq(Cat(l, h))
        m.d.sync += done.eq(self.start)
        m.d.comb += [self.c.eq(c), self.done.eq(done)]
        return m
