"""The adder of a core that keeps seed 002's coefficient form: c = a + b, a − b or −a, latency 0,
or ``stages`` cycles with registers spread over its chain of ten carry-chain steps.

Chávez Corona et al.'s multiplier (:mod:`.polymont`) takes and gives the five signed coefficients of
c(t) = Σ c_i·t^i, t = 2ⁿ + s; a pairing core built on it adds and subtracts in the same form.  This
unit is :meth:`pairhw.math.prime.polymont.PolyMont.add_norm` as hardware: the coefficient sums, one
fold of the top coefficient by p(t) (c4 = 32k + r: c4 ← r − 4k, c_i −= k·p_i), then two carry rounds
of Alg. 2's splits (c_i = μ·2ⁿ + r: c_i ← r − μ·s, c_(i+1) += μ).  Words of both operands and of
the result lie in :attr:`~pairhw.math.prime.polymont.PolyMont.arith_domain`, which the model shows is
closed under products and sums, so any chain of them stays in range.  Every signal is as wide as the
model's range analysis (:meth:`~pairhw.math.prime.polymont.PolyMont.add_ranges`) says; sums are
computed modulo 2^width, exact because the final value fits.  Products by the constants s and p_k
are shift-adds of their signed digits (no multiplier).

Unstaged, the chain is ten dependent carry chains of about n = 63 bits each: nextpnr estimated
``ate-bn-chavez11-small`` on it at 15 MHz after placement on the ECP5.  With ``stages`` the unit computes every
cycle, each result ``stages`` cycles after its operands, as the schedulers count (the datapath key
``"add": {"stages": k}``).
"""

from __future__ import annotations

from amaranth.hdl import Cat, Module, Mux, Signal, signed
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from pairhw.math.prime.field import PrimeField
from pairhw.math.prime.polymont import P_COEFFS, PolyMont

from .dsp import Pipe
from .polymont import const_mul, pack_coeffs, unpack_coeffs

#: the op selected by ``op`` (the field interface's order for unit kind ``add``)
OPS = ("add", "sub", "neg")


class PolyAddSub(wiring.Component):
    """c = a + b (op 0), a − b (op 1) or −a (op 2) in seed 002's coefficient form (see the module
    docstring); words pack c_0..c_4 in two's complement, c_0 lowest, each as wide as
    :attr:`PolyMont.arith_domain` needs."""

    initiation_interval = 1
    _MustUse__silence = True

    #: the adder's chain of dependent steps: the sums, the fold, then the two carry rounds' four
    #: splits each (every step a carry chain of about n bits)
    STEPS = 10

    def __init__(self, F: PrimeField, pm: PolyMont, stages: int = 0):
        if not isinstance(stages, int) or isinstance(stages, bool) or not 0 <= stages <= self.STEPS:
            raise ValueError(f"stages must be 0 to {self.STEPS} (registers in its chain of {self.STEPS} "
                             f"carry-chain steps), not {stages!r}")
        self.F, self.pm, self.stages = F, pm, stages
        self.latency = stages
        self.domain = pm.arith_domain
        self.cw = pm.word_bits
        self.ranges = pm.add_ranges()
        self.width = sum(self.cw)
        self.name = f"PolyAddSub_p{F.bits}_n{pm.n}" + (f"_s{stages}" if stages else "")
        super().__init__({"a": In(self.width), "b": In(self.width), "op": In(2), "c": Out(self.width)})

    def pack(self, c) -> int:
        return pack_coeffs(c, self.cw)

    def unpack(self, word: int) -> list[int]:
        return unpack_coeffs(word, self.cw)

    def emulate(self, a: int, b: int, op: int = 0) -> int:
        pm = self.pm
        if op == 2:
            return self.pack(pm.add_norm([0] * 5, self.unpack(a), -1))
        return self.pack(pm.add_norm(self.unpack(a), self.unpack(b), 1 if op == 0 else -1))

    def cuts(self) -> list[int]:
        """The steps (1 to :data:`STEPS`) after which a register stands: ``stages`` of them spread
        evenly, the last after the last step (the output is registered)."""
        return [-(-self.STEPS * j // self.stages) for j in range(1, self.stages + 1)]

    def elaborate(self, platform):
        m = Module()
        pm, R, n = self.pm, self.ranges, self.pm.n
        cuts, step, pipe = self.cuts(), [0], Pipe(m, "")

        def sig(name, value):
            s = Signal(signed(R[name].bits), name=name.replace(".", "_"))
            m.d.comb += s.eq(value)
            return s

        def after_step(c):
            """The coefficients after one more step: registered where a cut stands."""
            step[0] += 1
            if step[0] not in cuts:
                return c
            return [pipe.reg(v, len(v), f"stage{cuts.index(step[0])}_c{k}", sign=True) for k, v in enumerate(c)]

        def coeffs(word):
            out, o = [], 0
            for w in self.cw:
                out.append(word[o:o + w].as_signed())
                o += w
            return out

        neg = self.op == 2
        x = [Mux(neg, 0, v) for v in coeffs(self.a)]
        y = [Mux(neg, v, u) for v, u in zip(coeffs(self.a), coeffs(self.b))]
        sub = self.op != 0
        c = after_step([sig(f"sum.c{k}", Mux(sub, xi - yi, xi + yi)) for k, (xi, yi) in enumerate(zip(x, y))])
        k = sig("fold.k", c[4] >> pm.FOLD_SHIFT)
        top = c[4][:pm.FOLD_SHIFT] - const_mul(k, P_COEFFS[4] - (1 << pm.FOLD_SHIFT))
        c = after_step([sig(f"fold.c{i}", c[i] - const_mul(k, P_COEFFS[i])) for i in range(4)] + [sig("fold.c4", top)])
        for r in range(2):
            for i in range(4):
                mu = c[i] >> n
                nxt = list(c)
                nxt[i + 1] = c[i + 1] + mu
                nxt[i] = c[i][:n] - const_mul(mu, pm.s)
                c = after_step([sig(f"carry{r}_{i}.c{j}", v) for j, v in enumerate(nxt)])
        assert step[0] == self.STEPS
        out = [Signal(signed(w), name=f"c{j}") for j, w in enumerate(self.cw)]  # sign-extended
        m.d.comb += [o.eq(v) for o, v in zip(out, c)]
        m.d.comb += self.c.eq(Cat(*(o.as_unsigned() for o in out)))
        return m
