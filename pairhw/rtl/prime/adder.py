"""F_p adder/subtractor/negation and small-constant products, fully reduced: operands and results
in [0, p), the range the Montgomery multipliers of :mod:`.montgomery` take and give."""

from __future__ import annotations

from amaranth.hdl import Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from pairhw.math.prime.field import PrimeField

#: the op selected by ``op`` (the field interface's order for unit kind ``add``)
OPS = ("add", "sub", "neg")


class AddSubP(wiring.Component):
    """c = a + b (op 0), a − b (op 1) or −a (op 2) mod p, latency 0.

    Negation is 0 − a.  The sum is corrected by one conditional subtraction of p, the difference by
    one conditional addition (both exact for operands in [0, p)).
    """

    latency = 0
    initiation_interval = 1
    _MustUse__silence = True

    def __init__(self, F: PrimeField):
        self.F = F
        self.name = f"AddSubP_p{F.bits}"
        w = F.bits
        super().__init__({"a": In(w), "b": In(w), "op": In(2), "c": Out(w)})

    def emulate(self, a: int, b: int, op: int = 0) -> int:
        F = self.F
        return (F.add, F.sub, lambda x, _: F.neg(x))[op](a, b)

    def elaborate(self, platform):
        m = Module()
        p, w = self.F.p, self.F.bits
        neg = self.op == 2
        x = Mux(neg, 0, self.a)
        y = Mux(neg, self.a, self.b)
        s, s_p = Signal(w + 1, name="sum"), Signal(w + 2, name="sum_minus_p")
        d, d_p = Signal(w + 1, name="diff"), Signal(w + 1, name="diff_plus_p")
        m.d.comb += [s.eq(x + y), s_p.eq(s - p), d.eq(x - y), d_p.eq(d + p)]
        add = Mux(s_p[-1], s, s_p)  # s − p < 0: keep s
        sub = Mux(d[-1], d_p, d)  # x − y < 0: add p
        m.d.comb += self.c.eq(Mux(self.op == 0, add, sub))
        return m


class MulSmallP(wiring.Component):
    """c = k·a mod p for a small integer constant k of ``ks``, selected by ``op``, latency 0.

    k·a is shifts and adds of k's signed digits; ⌊|k|·a/p⌋ < |k| is found by comparing |k|·a with
    each j·p in parallel, and a negative k negates the result.
    """

    latency = 0
    initiation_interval = 1
    _MustUse__silence = True

    def __init__(self, F: PrimeField, ks):
        ks = tuple(int(k) for k in ks)
        if not ks or any(k == 0 or abs(k) > 64 for k in ks):
            raise ValueError(f"small constants must be non-zero and at most 64 in magnitude, not {ks}")
        self.F, self.ks = F, ks
        self.name = f"MulSmallP_p{F.bits}_" + "_".join(str(k).replace("-", "m") for k in ks)
        w = F.bits
        super().__init__({"a": In(w), "op": In(max(1, (len(ks) - 1).bit_length())), "c": Out(w)})

    def emulate(self, a: int, op: int = 0) -> int:
        return self.F.mul_int(a, self.ks[op])

    def elaborate(self, platform):
        from .polymont import const_mul

        m = Module()
        p, w = self.F.p, self.F.bits
        outs = []
        for n, k in enumerate(self.ks):
            K = abs(k)
            v = Signal(w + K.bit_length(), name=f"k{n}_a")
            m.d.comb += v.eq(const_mul(self.a, K))
            r = v
            for j in range(1, K):  # largest j with v − j·p ≥ 0
                dj = Signal(len(v) + 1, name=f"k{n}_minus_{j}p")
                m.d.comb += dj.eq(v - j * p)
                r = Mux(dj[-1], r, dj[:w + 1])
            res = Signal(w, name=f"k{n}_mod_p")
            m.d.comb += res.eq(r)
            if k < 0:
                neg = Signal(w, name=f"k{n}_neg")
                m.d.comb += neg.eq(Mux(res == 0, 0, p - res))
                res = neg
            outs.append(res)
        out = outs[0]
        for n in range(1, len(outs)):
            out = Mux(self.op == n, outs[n], out)
        m.d.comb += self.c.eq(out)
        return m
