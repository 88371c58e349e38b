"""F_p adder/subtractor/negation and small-constant products, fully reduced: operands and results
in [0, p), the range the Montgomery multipliers of :mod:`.montgomery` take and give."""

from __future__ import annotations

from amaranth.hdl import Array, Cat, Const, Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from pairhw.math.prime.field import PrimeField

from .dsp import Pipe

#: the op selected by ``op`` (the field interface's order for unit kind ``add``)
OPS = ("add", "sub", "neg")


def quotients_by_top(p: int, width: int, least: int, most: int) -> tuple[int, list[int]]:
    """(s, qs) for a value t in [least, most] held in ``width`` bits (two's complement where least < 0):
    s = bits(p) − 1 (2^s ≤ p), and for each value h of t's bits from s up, q = ⌊lo/p⌋ for the least
    t they allow (lo = h·2^s, signed; 0 where no t has them).  t − q·p ≥ 0, and t < lo + 2^s ≤ lo + p
    makes t − q·p < 2p: of t − q·p and t − (q + 1)·p, the second where non-negative is t mod p.  So
    the top bits of a sum pick the constants of two subtractions side by side (:class:`Add3P`), where
    a correction by each multiple of p took one each."""
    s = p.bit_length() - 1
    n = width - s
    qs = []
    for h in range(1 << n):
        lo = (h - (1 << n) if least < 0 and h >> (n - 1) else h) << s
        hi = lo + (1 << s) - 1
        qs.append(max(lo, least) // p if hi >= least and lo <= most else 0)
    return s, qs


def reduce_by_top(m: Module, t, width: int, p: int, least: int, most: int, w: int, prefix: str = ""):
    """t mod p (``w`` bits) for t in [least, most] in ``width`` bits: the two subtractions of
    :func:`quotients_by_top`, their constants picked by t's top bits, the second if non-negative."""
    s, qs = quotients_by_top(p, width, least, most)
    cands = []
    for n, dq in enumerate((0, 1)):
        const = Signal(width, name=f"{prefix}j{n}_p")
        m.d.comb += const.eq(Array(Const(-(q + dq) * p % (1 << width), width) for q in qs)[t[s:width]])
        v = Signal(width, name=f"{prefix}cand{n}")
        m.d.comb += v.eq(t + const)
        cands.append(v)
    res = Signal(w, name=f"{prefix}res")
    m.d.comb += res.eq(Mux(cands[1][-1], cands[0][:w], cands[1][:w]))
    return res


class AddSubP(wiring.Component):
    """c = a + b (op 0), a − b (op 1) or −a (op 2) mod p, latency ``stages`` (default 0).

    Negation is 0 − a.  The sum is corrected by one conditional subtraction of p, the difference by
    one conditional addition (both exact for operands in [0, p)).  That is two carry chains of p's
    width one after the other; ``stages`` 1 registers the sum and the difference between them, 2
    also the result, so that no path holds more than one chain (at 381 bits a chain is about what
    the iterative multiplier's cycle holds on the ECP5).

    With ``fused`` the sum and the difference are one carry chain, x + (y ⊕ s) + s with s the
    op's subtract bit, and their corrections one more, t − p or t + p by the op (each chain's bit a
    LUT with its carry): two chains, where the sum, the difference and their corrections are four.
    """

    initiation_interval = 1
    _MustUse__silence = True

    def __init__(self, F: PrimeField, stages: int = 0, fused: bool = False):
        if not isinstance(stages, int) or isinstance(stages, bool) or not 0 <= stages <= 2:
            raise ValueError(f"stages must be 0, 1 (the sum registered before its correction) or 2 (the "
                             f"result registered too), not {stages!r}")
        if not isinstance(fused, bool):
            raise ValueError(f"fused must be true or false, not {fused!r}")
        self.F, self.stages, self.latency, self.fused = F, stages, stages, fused
        self.name = f"AddSubP_p{F.bits}" + (f"_s{stages}" if stages else "") + ("_fused" if fused else "")
        w = F.bits
        super().__init__({"a": In(w), "b": In(w), "op": In(2), "c": Out(w)})

    def emulate(self, a: int, b: int, op: int = 0) -> int:
        F = self.F
        return (F.add, F.sub, lambda x, _: F.neg(x))[op](a, b)

    def elaborate(self, platform):
        if self.fused:
            return self._fused()
        m = Module()
        p, w = self.F.p, self.F.bits
        neg = self.op == 2
        x = Mux(neg, 0, self.a)
        y = Mux(neg, self.a, self.b)
        s, s_p = Signal(w + 1, name="sum"), Signal(w + 2, name="sum_minus_p")
        d, d_p = Signal(w + 1, name="diff"), Signal(w + 1, name="diff_plus_p")
        m.d.comb += [s.eq(x + y), d.eq(x - y)]
        is_add = self.op == 0
        pipe = Pipe(m, "")
        if self.stages:  # the first chains registered, with the op that picks between them
            s, d, is_add = pipe.reg(s, w + 1, "sum_q"), pipe.reg(d, w + 1, "diff_q"), pipe.reg(is_add, 1, "add_q")
        m.d.comb += [s_p.eq(s - p), d_p.eq(d + p)]
        add = Mux(s_p[-1], s, s_p)  # s − p < 0: keep s
        sub = Mux(d[-1], d_p, d)  # x − y < 0: add p
        res = Signal(w, name="res")
        m.d.comb += res.eq(Mux(is_add, add, sub))
        m.d.comb += self.c.eq(pipe.reg(res, w, "res_q") if self.stages == 2 else res)
        return m

    def _fused(self):
        m = Module()
        p, w = self.F.p, self.F.bits
        neg, sub = self.op == 2, self.op != 0
        x = Signal(w, name="x")
        y = Signal(w, name="y_or_not_y")
        m.d.comb += [x.eq(Mux(neg, 0, self.a)), y.eq(Mux(neg, self.a, self.b) ^ sub.replicate(w))]
        # t = x ± y in [−p, 2p): w + 2 bits, two's complement (y's complement plus the carry in)
        t = Signal(w + 2, name="sum_or_diff")
        m.d.comb += t.eq(x + Cat(y, sub.replicate(2)) + sub)
        is_add = Signal(name="is_add")
        m.d.comb += is_add.eq(~sub)
        pipe = Pipe(m, "")
        if self.stages:
            t, is_add = pipe.reg(t, w + 2, "sum_or_diff_q"), pipe.reg(is_add, 1, "add_q")
        # u = t − p (a sum) or t + p (a difference), one chain: the constant's bits chosen by the op
        minus_p, plus_p = (-p) % (1 << (w + 2)), p
        k = Signal(w + 2, name="minus_or_plus_p")
        m.d.comb += k.eq(Mux(is_add, minus_p, plus_p))
        u = Signal(w + 2, name="corrected")
        m.d.comb += u.eq(t + k)
        # a sum keeps t when t − p < 0; a difference takes t + p when t < 0
        take_u = Signal(name="take_corrected")
        m.d.comb += take_u.eq(Mux(is_add, ~u[-1], t[-1]))
        res = Signal(w, name="res")
        m.d.comb += res.eq(Mux(take_u, u[:w], t[:w]))
        m.d.comb += self.c.eq(pipe.reg(res, w, "res_q") if self.stages == 2 else res)
        return m


#: the ops of an ``add3`` unit, selected by ``op`` (the field interface's order for unit kind ``add3``)
OPS3 = ("add3", "addsub", "sub2", "add", "sub", "neg")


class Add3P(wiring.Component):
    """c = a + b + d (op 0), a + b − d (1), a − b − d (2), a + b (3), a − b (4) or −a (5) mod p,
    latency ``stages`` (default 0): a chain of two additions or subtractions in one op.

    x + σ·y + τ·z with σ, τ ∈ {+1, −1} (a two-operand op has z = 0, a negation x = 0 and y = a) is
    one carry chain after a carry-save step: x ⊕ y' ⊕ z' and the majority of the three shifted up
    by a bit, where y' and z' are y and z, or their complements with the +1s as carries in.  For
    operands in [0, p) the result t lies in (−2p, 3p).  Its top four bits bound it from below, and
    that bound's quotient by p gives j with t + j·p in [0, 2p) (:func:`quotients_by_top`): the result
    is t + (j − 1)·p where that is non-negative, else t + j·p.  The two candidates are two chains side
    by side after t's (three in all, where one candidate for each of the three j the op's subtractions
    allow took four); their constants wait for t's top bits, so the chains run one after the other
    as :class:`AddSubP`'s ``fused`` adder's two.  ``stages`` 1 registers t between them.
    """

    initiation_interval = 1
    _MustUse__silence = True

    def __init__(self, F: PrimeField, stages: int = 0):
        if not isinstance(stages, int) or isinstance(stages, bool) or not 0 <= stages <= 1:
            raise ValueError(f"stages must be 0 or 1 (the sum registered before its correction by p), "
                             f"not {stages!r}")
        self.F, self.stages, self.latency = F, stages, stages
        self.name = f"Add3P_p{F.bits}" + (f"_s{stages}" if stages else "")
        w = F.bits
        super().__init__({"a": In(w), "b": In(w), "d": In(w), "op": In(3), "c": Out(w)})

    def emulate(self, a: int, b: int, d: int = 0, op: int = 0) -> int:
        F = self.F
        return (lambda: F.add(F.add(a, b), d), lambda: F.sub(F.add(a, b), d), lambda: F.sub(F.sub(a, b), d),
                lambda: F.add(a, b), lambda: F.sub(a, b), lambda: F.neg(a))[op]()

    def elaborate(self, platform):
        m = Module()
        p, w = self.F.p, self.F.bits
        tw = w + 3  # t in (−2p, 3p), two's complement
        op = self.op
        neg = op == 5
        sub_y = Signal(name="sub_y")  # σ = −1: a − b …, and −a (0 − a)
        sub_z = Signal(name="sub_z")  # τ = −1
        three = Signal(name="three_operands")
        m.d.comb += [sub_y.eq((op == 2) | (op == 4) | neg), sub_z.eq((op == 1) | (op == 2)), three.eq(op < 3)]
        x, y, z = Signal(w, name="x"), Signal(w, name="y"), Signal(w, name="z")
        m.d.comb += [x.eq(Mux(neg, 0, self.a)), y.eq(Mux(neg, self.a, self.b)), z.eq(Mux(three, self.d, 0))]
        # y' and z' in tw bits: the operand, or its complement (sign-extended ones) with a carry in
        yc, zc = Signal(tw, name="y_or_not_y"), Signal(tw, name="z_or_not_z")
        m.d.comb += [yc.eq(Cat(y, Const(0, 3)) ^ sub_y.replicate(tw)),
                     zc.eq(Cat(z, Const(0, 3)) ^ sub_z.replicate(tw))]
        xe = Cat(x, Const(0, 3))
        # carry-save: one chain adds the bitwise sum and the majority shifted (σ's +1 in its bit 0)
        save, carry = Signal(tw, name="save"), Signal(tw, name="carry")
        m.d.comb += [save.eq(xe ^ yc ^ zc),
                     carry.eq(Cat(sub_y, ((xe & yc) | (xe & zc) | (yc & zc))[:tw - 1]))]
        t = Signal(tw, name="sum3")
        m.d.comb += t.eq(save + carry + sub_z)
        pipe = Pipe(m, "")
        if self.stages:
            t = pipe.reg(t, tw, "sum3_q")
        # t mod p from two subtractions whose constants t's top bits pick (reduce_by_top): two
        # chains, not one for each multiple the op's subtractions allow
        m.d.comb += self.c.eq(reduce_by_top(m, t, tw, p, -2 * p + 1, 3 * p - 3, w))
        return m


class MulSmallP(wiring.Component):
    """c = k·a mod p for a small integer constant k of ``ks``, selected by ``sel``, latency 0.

    k·a is shifts and adds of k's signed digits; ⌊|k|·a/p⌋ < |k| is found by comparing |k|·a with
    each j·p in parallel, and a negative k negates the result.
    """

    latency = 0
    initiation_interval = 1
    #: the largest |k|: ⌊k·a/p⌋ is found by k − 1 comparisons side by side
    MAX_K = 64
    _MustUse__silence = True

    def __init__(self, F: PrimeField, ks):
        ks = tuple(int(k) for k in ks)
        if not ks or any(k == 0 or abs(k) > self.MAX_K for k in ks):
            raise ValueError(f"k must be non-zero constants of at most {self.MAX_K} in magnitude (k·a is compared "
                             f"with k − 1 multiples of p at once), not {list(ks)}")
        self.F, self.ks = F, ks
        self.name = f"MulSmallP_p{F.bits}_" + "_".join(str(k).replace("-", "m") for k in ks)
        w = F.bits
        super().__init__({"a": In(w), "sel": In(max(1, (len(ks) - 1).bit_length())), "c": Out(w)})

    def emulate(self, a: int, sel: int = 0) -> int:
        return self.F.mul_int(a, self.ks[sel])

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
            out = Mux(self.sel == n, outs[n], out)
        m.d.comb += self.c.eq(out)
        return m
