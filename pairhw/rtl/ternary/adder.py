"""The F_3^m adder: a + b, a − b or −a, selected per word (latency 0)."""

from __future__ import annotations

from amaranth.hdl import Cat, Module, Mux
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from pairhw.math.ternary.field import GF3m
from pairhw.rtl.select import copy_ranges

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

    def __init__(self, F: GF3m, copies: int = 1):
        self.F = F
        self.name = f"AddSub3_m{F.m}"
        self.control_copies = copies
        self.ranges = copy_ranges(F.m, copies)
        w = 2 * F.m
        super().__init__({"a": In(w), "b": In(w), "op": In(2 * copies), "c": Out(w)})

    def copied(self, copies: int) -> "AddSub3":
        """This adder with ``copies`` copies of ``op`` side by side, copy j choosing the op of the
        trits of :func:`~pairhw.rtl.select.copy_ranges` j (the core's ``slice_controls``); the same
        values."""
        return AddSub3(self.F, copies)

    def emulate(self, a: int, b: int, op: int = 0) -> int:
        F = self.F
        return (F.add, F.sub, lambda x, _: F.neg(x))[op](a, b)

    def elaborate(self, platform):
        m = Module()
        n = self.F.m
        al, ah = self.a[:n], self.a[n:]
        bl, bh = self.b[:n], self.b[n:]
        if self.control_copies == 1:
            sub = self.op == 1
            bh2, bl2 = Mux(sub, bl, bh), Mux(sub, bh, bl)
            h, l = nets.trit_add(m, (ah, al), (bh2, bl2), n, "sum")
            m.d.comb += self.c.eq(Mux(self.op == 2, Cat(ah, al), Cat(l, h)))
            return m
        # each copy of op decides its own trits: a − b swaps b's words there, −a swaps a's
        ops = [self.op[2 * j:2 * j + 2] for j in range(self.control_copies)]
        bh2 = Cat(*(Mux(op == 1, bl[lo:hi], bh[lo:hi]) for op, (lo, hi) in zip(ops, self.ranges)))
        bl2 = Cat(*(Mux(op == 1, bh[lo:hi], bl[lo:hi]) for op, (lo, hi) in zip(ops, self.ranges)))
        h, l = nets.trit_add(m, (ah, al), (bh2, bl2), n, "sum")
        m.d.comb += self.c.eq(Cat(*(Mux(op == 2, ah[lo:hi], l[lo:hi]) for op, (lo, hi) in zip(ops, self.ranges)),
                                  *(Mux(op == 2, al[lo:hi], h[lo:hi]) for op, (lo, hi) in zip(ops, self.ranges))))
        return m
