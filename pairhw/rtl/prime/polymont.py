"""Seed 002's polynomial Montgomery multiplier (Chávez Corona et al., §III–IV) in hardware.

The golden model is :meth:`pairhw.math.prime.polymont.PolyMont.alg2` with
:func:`~pairhw.math.prime.polymont.mul64_dsp` as the coefficient product; this unit runs the same
steps on the same values:

1. the 14 operand pairs of the five-term Karatsuba (Alg. 3), pre-added from the registered inputs and
   sent one per cycle through one 64 × 64 sign-magnitude multiplier: 12 pieces of 24 × 17 bits (one
   DSP48E1 each) packed into 6 rows, summed by a three-level adder tree (§IV, Fig. 2–3);
2. each product, as it leaves the multiplier, added to or subtracted from the coefficients c_0..c_8
   it appears in (the ±1 pattern is read off the model's Alg. 3 by running it on symbols);
3. the five Montgomery steps (split c_0 = μ·2ⁿ + r, γ = r − μs; c_k ← c_{k+1} − γ·p_{k+1},
   c_0 += μ), one pipeline stage each, and the model's ``carry_rounds`` rounds of four splits, one
   stage per split; products by the constants s and p_k are shifts and adds of their signed digits.

Every register is as wide as the model's range analysis (:meth:`PolyMont.ranges`, on the closed
coefficient domain) says; sums are computed modulo 2^width, which is exact because the final value
fits.  A new product starts every 14 cycles (the multiplier is busy every cycle); the reduction is
pipelined behind it.
"""

from __future__ import annotations

import random

from amaranth.hdl import Array, Cat, Const, Module, Mux, Signal, signed

from pairhw.math.prime.field import PrimeField
from pairhw.math.prime.polymont import A_PIECES, B_PIECES, P_COEFFS, Interval, PolyMont, karatsuba5, mul64_dsp

from .dsp import Pipe, dsp_product, product_cycles
from .montgomery import PrimeMul

XW, YW = A_PIECES[0], B_PIECES[0]  # 24 × 17: the DSP pieces of mul64_dsp


class _Lin(dict):
    """A linear combination of named terms (to read Alg. 3's structure off the model)."""

    def __add__(self, o):
        out = _Lin(self)
        for k, v in o.items():
            out[k] = out.get(k, 0) + v
        return _Lin({k: v for k, v in out.items() if v})

    __radd__ = __add__

    def __neg__(self):
        return _Lin({k: -v for k, v in self.items()})

    def __sub__(self, o):
        return self + (-o)


def karatsuba_structure():
    """Alg. 3 as the model computes it: the operand of product k as coefficients of a_0..a_4
    (the same for b), and c_i as ±1 coefficients of the products p_0..p_13."""
    ops, cs, count = {}, {}, [0]

    def mul(x, y):
        count[0] += 1
        return _Lin({count[0] - 1: 1})

    def rec(name, v):
        if name.endswith(".a"):
            ops[int(name[1:-2])] = dict(v)
        elif name[0] == "c":
            cs[int(name[1:])] = dict(v)

    karatsuba5([_Lin({i: 1}) for i in range(5)], [_Lin({i: 1}) for i in range(5)], mul=mul, trace=rec)
    return [ops[k] for k in range(len(ops))], [cs[i] for i in range(len(cs))]


def const_mul(x, k: int):
    """x·k by shifts and adds of k's non-adjacent form (no multiplier)."""
    out, e = None, 0
    while k:
        if k & 1:
            d = 2 - (k & 3)  # ±1
            k -= d
            term = x << e
            out = (term if d > 0 else -term) if out is None else (out + term if d > 0 else out - term)
        k >>= 1
        e += 1
    return Const(0, 1) if out is None else out


def pack_coeffs(c, widths) -> int:
    """Signed coefficients as one word: two's complement, each ``widths[i]`` bits, c_0 lowest."""
    out, o = 0, 0
    for v, w in zip(c, widths):
        out |= (v & ((1 << w) - 1)) << o
        o += w
    return out


def unpack_coeffs(word: int, widths) -> list[int]:
    """The inverse of :func:`pack_coeffs`."""
    out, o = [], 0
    for w in widths:
        v = (word >> o) & ((1 << w) - 1)
        out.append(v - (1 << w) if v >> (w - 1) else v)
        o += w
    return out


class PolyMontMul(PrimeMul):
    """c(t) = a(t)·b(t)·t⁻⁵ mod p(t) as seed 002's multiplier (see :mod:`the module docstring
    <.polymont>`).

    Words: the five coefficients, two's complement, each as wide as the domain closed under products
    and the adder's sums needs (:attr:`PolyMont.arith_domain`: a core's words), coefficient 0 in the
    low bits.  Outputs lie in the same domain, so a result is a valid operand.
    """

    def __init__(self, F: PrimeField, pm: PolyMont, levels: int = 1):
        if levels < 1:
            raise ValueError(f"levels: adder-tree levels per register, at least 1, not {levels}")
        self.pm, self.levels = pm, levels
        self.ranges = pm.ranges(pm.arith_domain)
        self.cw = pm.word_bits
        ops = [k for k in self.ranges if k.startswith("p") and k.endswith((".a", ".b"))]
        widest = max(self.ranges[k].mag_bits for k in ops)
        if widest > 64:
            raise ValueError(f"{pm}: Karatsuba operands of {widest} bits exceed seed 002's 64 × 64 multiplier")
        self.operand_sums, self.c_terms = karatsuba_structure()
        self.products = len(self.operand_sums)
        super().__init__(F, sum(self.cw))
        self.name = f"PolyMont_p{F.bits}_n{pm.n}" + (f"_l{levels}" if levels > 1 else "")

    @property
    def R(self) -> int:
        """The Montgomery factor t⁵ mod p: c(t) ≡ a(t)·b(t)·R⁻¹."""
        return self.pm.R

    @property
    def encoding(self) -> str:
        return (f"five coefficients c_0..c_4 of c(t) = sum c_i t^i, t = {self.pm.t}, two's complement, "
                f"{'+'.join(map(str, self.cw))} bits, c_0 lowest; c(t) = a(t)*b(t)*t^-5 mod p "
                f"(a value v is the polynomial of v*t^5 mod p)")

    # -- the words --------------------------------------------------------------------------------
    def pack(self, c) -> int:
        return pack_coeffs(c, self.cw)

    def unpack(self, word: int) -> list[int]:
        return unpack_coeffs(word, self.cw)

    def emulate(self, a: int, b: int) -> int:
        """The model's Alg. 2 with the DSP product, on the unpacked coefficients."""
        return self.pack(self.pm.alg2(self.unpack(a), self.unpack(b), mul=mul64_dsp))

    def random(self, rng):
        return self.pack(self.pm.to_mont(rng.randrange(self.F.p)))

    def vectors(self, n: int, seed: int = 1) -> list:
        """10 edge pairs (the model's extreme representatives, 0, 1 and p − 1 in Montgomery form)
        then ``n`` random Montgomery-form pairs."""
        pm = self.pm
        ext = [self.pack(v) for v in pm.extremes()]  # all low, all high, one high each
        small = [self.pack(pm.to_mont(v)) for v in (0, 1, self.F.p - 1)]
        edges = [(ext[0], ext[0]), (ext[1], ext[1]), (ext[0], ext[1]), (ext[2], ext[6]), (ext[3], ext[4]),
                 (ext[5], ext[1]), (small[0], ext[1]), (small[1], small[1]), (small[2], small[2]),
                 (small[2], ext[1])]
        rng = random.Random(seed)
        pairs = edges + [(self.random(rng), self.random(rng)) for _ in range(n)]
        return [(a, b, self.emulate(a, b)) for a, b in pairs]

    def describe(self) -> dict:
        return {**super().describe(), "t": str(self.pm.t), "n": self.pm.n, "s": self.pm.s,
                "coefficient_bits": self.cw, "carry_rounds": self.pm.carry_rounds}

    # -- timing -----------------------------------------------------------------------------------
    @property
    def initiation_interval(self) -> int:
        return self.products

    @property
    def multiplier_stages(self) -> int:
        """Operand register, then the DSP pieces and the adder tree over the rows, a register every
        ``levels`` levels."""
        return 1 + product_cycles(64, 64, XW, YW, levels=self.levels)

    @property
    def latency(self) -> int:
        """Input register, 14 issue cycles, the multiplier, the last accumulation, the five
        Montgomery steps and 4 splits per carry round."""
        return 1 + self.products + self.multiplier_stages + 5 + 4 * self.pm.carry_rounds

    # -- hardware ---------------------------------------------------------------------------------
    def elaborate(self, platform):
        m = Module()
        pm, R, n = self.pm, self.ranges, self.pm.n
        pipe = Pipe(m, "")

        def sreg(value, rng: Interval, name: str):  # a signed stage register as wide as its range
            return pipe.reg(value, rng.bits, name, sign=True)

        # inputs, registered at start
        ar = [Signal(signed(w), name=f"a{i}") for i, w in enumerate(self.cw)]
        br = [Signal(signed(w), name=f"b{i}") for i, w in enumerate(self.cw)]
        issuing = Signal(name="issuing")
        j = Signal(range(self.products), name="issue")
        with m.If(issuing):
            m.d.sync += j.eq(j + 1)
            with m.If(j == self.products - 1):
                m.d.sync += [issuing.eq(0), j.eq(0)]
        with m.If(self.start):
            m.d.sync += [issuing.eq(1), j.eq(0)]
            o = 0
            for i, w in enumerate(self.cw):
                m.d.sync += [ar[i].eq(self.a[o:o + w]), br[i].eq(self.b[o:o + w])]
                o += w

        # the 14 operand pairs (Alg. 3), one per cycle into the multiplier
        def operand(regs, k, side):
            s = Signal(signed(R[f"p{k}.{side}"].bits), name=f"p{k}_{side}")
            terms = [regs[i] if c == 1 else -regs[i] for i, c in sorted(self.operand_sums[k].items())]
            expr = terms[0]
            for t in terms[1:]:
                expr = expr + t
            m.d.comb += s.eq(expr)
            return s

        xa = Array(operand(ar, k, "a") for k in range(self.products))
        xb = Array(operand(br, k, "b") for k in range(self.products))
        x, y = Signal(signed(66), name="mx"), Signal(signed(66), name="my")
        m.d.comb += [x.eq(xa[j]), y.eq(xb[j])]
        # stage: sign and magnitudes (seed 002's multiplier is sign-magnitude)
        mx = pipe.reg(Mux(x < 0, -x, x), 64, "mag_a")
        my = pipe.reg(Mux(y < 0, -y, y), 64, "mag_b")
        sign = pipe.reg((x < 0) ^ (y < 0), 1, "sign")
        k0 = pipe.reg(j, len(j), "k_m")
        v0 = pipe.reg(issuing, 1, "v_m")
        prod, cyc = dsp_product(m, pipe, mx, 64, my, 64, "mul", XW, YW, levels=self.levels)
        assert 1 + cyc == self.multiplier_stages
        sign = pipe.delay(sign, 1, cyc, "sign")
        kk = pipe.delay(k0, len(j), cyc, "k")
        valid = pipe.delay(v0, 1, cyc, "v")

        # accumulate each product into the coefficients it appears in; the last one goes on
        c0 = []
        for i, terms in enumerate(self.c_terms):
            rng = R[f"c{i}"]
            w = rng.bits
            acc = Signal(signed(w), name=f"acc{i}")
            uses = Array(Const(int(k in terms), 1) for k in range(self.products))
            negs = Array(Const(int(terms.get(k, 0) < 0), 1) for k in range(self.products))
            mag = prod[:w] if len(prod) >= w else prod
            term = Signal(signed(w), name=f"term{i}")
            m.d.comb += term.eq(Mux(uses[kk], Mux(negs[kk] ^ sign, -mag, mag), 0))
            total = Signal(signed(w), name=f"sum{i}")
            m.d.comb += total.eq(Mux(kk == 0, 0, acc) + term)
            with m.If(valid):
                m.d.sync += acc.eq(total)
            out = Signal(signed(w), name=f"c{i}")
            with m.If(valid & (kk == self.products - 1)):
                m.d.sync += out.eq(total)
            c0.append(out)
        stage_valid = pipe.reg(valid & (kk == self.products - 1), 1, "v_c")

        # five Montgomery steps, one stage each (Alg. 2 lines 5–8)
        c = c0
        for step in range(5):
            mu = c[0] >> n
            gamma = Signal(signed(R[f"red{step}.gamma"].bits), name=f"red{step}_gamma")
            m.d.comb += gamma.eq(c[0][:n] - const_mul(mu, pm.s))
            nxt = []
            for k in range(len(c) - 1):
                v = c[k + 1] - const_mul(gamma, P_COEFFS[k + 1]) if k < 4 else c[k + 1]
                if k == 0:
                    v = v + mu
                nxt.append(sreg(v, R[f"red{step}.c{k}"], f"red{step}_c{k}"))
            c = nxt
            stage_valid = pipe.reg(stage_valid, 1, f"v_red{step}")

        # carry rounds: four splits each, one stage per split (Alg. 2 line 9, repeated)
        c = c + [Const(0, 1)]
        span = [R[f"red4.c{k}"] for k in range(4)] + [Interval(0, 0)]
        for r in range(pm.carry_rounds):
            for i in range(4):
                mu_rng, gamma_rng = pm.split(span[i])
                span[i + 1] = span[i + 1] + mu_rng
                span[i] = gamma_rng
                if i == 3:  # the round's named ranges (the intervals above are the same)
                    span = [R[f"carry{r}.c{k}"] for k in range(5)]
                mu = c[i] >> n
                nxt = list(c)
                nxt[i + 1] = c[i + 1] + mu
                nxt[i] = c[i][:n] - const_mul(mu, pm.s)
                final = r == pm.carry_rounds - 1 and i == 3  # the output holds until the next result
                c = [pipe.reg(v, span[k].bits, f"carry{r}_{i}_c{k}", sign=True, en=stage_valid if final else None)
                     for k, v in enumerate(nxt)]
                stage_valid = pipe.reg(stage_valid, 1, f"v_carry{r}_{i}")
        # each coefficient as wide as its word field: cut, or sign-extended when its range is narrower
        fields = [v.as_unsigned()[:w] if len(v) >= w else Cat(v, v[-1].replicate(w - len(v)))
                  for v, w in zip(c, self.cw)]
        m.d.comb += [self.c.eq(Cat(*fields)), self.done.eq(stage_valid)]
        return m
