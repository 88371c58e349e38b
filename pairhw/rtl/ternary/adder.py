"""The F_3^m adder: a + b, a − b or −a, selected per word (latency 0)."""

from __future__ import annotations

from amaranth.hdl import Cat, Module, Mux
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from pairhw.math.ternary.field import GF3m

from . import nets

#: the op selected by ``op`` (the field interface's order for unit kind ``add``)
OPS = ("add", "sub", "neg")


class AddSub3(wiring.Component):
    """c = a + b (op 0), a − b (op 1) or −a (op 2) in F_3^m, two-bit encoding, latency 0.

    Negation swaps the H and L words; the sum is the model's :func:`~pairhw.math.ternary.field.add_hl`
    (six bitwise operations per trit), so a − b is a + swap(b).
    """

    latency = 0
    initiation_interval = 1
    _MustUse__silence = True

    def __init__(self, F: GF3m):
        self.F = F
        self.name = f"AddSub3_m{F.m}"
        w = 2 * F.m
        super().__init__({"a": In(w), "b": In(w), "op": In(2), "c": Out(w)})

    def emulate(self, a: int, b: int, op: int = 0) -> int:
        F = self.F
        return (F.add, F.sub, lambda x, _: F.neg(x))[op](a, b)

    def elaborate(self, platform):
        m = Module()
        n = self.F.m
        al, ah = self.a[:n], self.a[n:]
        bl, bh = self.b[:n], self.b[n:]
        sub = self.op == 1
        bh2, bl2 = Mux(sub, bl, bh), Mux(sub, bh, bl)
        h, l = nets.trit_add(m, (ah, al), (bh2, bl2), n, "sum")
        m.d.comb += self.c.eq(Mux(self.op == 2, Cat(ah, al), Cat(l, h)))
        return m
