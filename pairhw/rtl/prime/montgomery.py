"""Montgomery multipliers for any odd p: c = a·b·R⁻¹ mod p, R = 2^k, k = w·⌈bits(p)/w⌉.

Both units compute the golden model's :class:`pairhw.math.prime.field.Montgomery` product (word
``w`` = 17 by default, so R is the same for both) with operands and result fully reduced, in [0, p):
with R > p and a, b < p every intermediate t stays below 2p and one conditional subtraction of p
ends the product (Montgomery 1985; Koç, Acar, Kaliski, IEEE Micro 1996, §2).

* :class:`MontgomeryPipelined` — separated operand scanning, fully unrolled: T = a·b,
  q = (T mod R)·p' mod R, U = q·p, t = (T + U)/R, c = t − p if t ≥ p.  Each product is cut into
  24 × 17-bit pieces (one DSP48E1 each) summed by pipelined adder trees (:mod:`.dsp`); one product
  per cycle.  The low halves of T and U sum to 0 or R, so t = ⌊T/R⌋ + ⌊U/R⌋ + [T mod R ≠ 0] and the
  low k bits are never added.
* :class:`MontgomeryIterative` — finely integrated operand scanning (FIOS, Koç et al. §5): for each
  digit b_i of b, m = (t_0 + a_0·b_i)·p' mod 2^w, then t ← (t + a·b_i + m·p)/2^w one digit per cycle
  with two w × w products (a_j·b_i, m·p_j) per cycle; s(s + 2) + 1 cycles per product for s digits.
  With ``per_cycle`` K, K digits a cycle on 2K products (the middle kind between the two).
"""

from __future__ import annotations

import random

from amaranth.hdl import Array, Cat, Const, Module, Mux, Signal
from amaranth.lib import wiring

from pairhw.rtl.ports import mul_signature
from pairhw.math.prime.field import Montgomery, PrimeField

from .dsp import Pipe, digits, dsp_product, from_digits, product_cycles


class PrimeMul(wiring.Component):
    """What the F_p multipliers share: the start/done contract on ``width``-bit words, the model
    product (:meth:`emulate`) and the vectors of :func:`pairhw.emit.unit_vectors`."""

    lut6 = False
    _MustUse__silence = True

    def __init__(self, F: PrimeField, width: int):
        self.F, self.width = F, width
        super().__init__(mul_signature(width))

    def emulate(self, a: int, b: int) -> int:
        raise NotImplementedError

    def operands(self) -> list[int]:
        """Corner operands (field values the unit takes as they are)."""
        p = self.F.p
        return [0, 1, 2, p - 1, p - 2, (1 << (p.bit_length() - 1)), p >> 1]

    def vectors(self, n: int, seed: int = 1) -> list:
        """10 edge pairs then ``n`` seeded random pairs (a, b, c) of hardware words."""
        e = self.operands()
        edges = [(e[0], e[0]), (e[0], e[3]), (e[1], e[1]), (e[1], e[3]), (e[3], e[3]), (e[4], e[3]),
                 (e[5], e[5]), (e[5], e[3]), (e[6], e[2]), (e[3], e[6])]
        rng = random.Random(seed)
        pairs = edges + [(self.random(rng), self.random(rng)) for _ in range(n)]
        return [(a, b, self.emulate(a, b)) for a, b in pairs]

    def random(self, rng):
        return rng.randrange(self.F.p)

    def describe(self) -> dict:
        return {"name": self.name, "bits": self.F.bits, "p": hex(self.F.p), "latency": self.latency,
                "ii": self.initiation_interval}


class MontgomeryBase(PrimeMul):
    def __init__(self, F: PrimeField, word: int):
        if not 2 <= word <= 64:
            raise ValueError(f"the Montgomery word must be between 2 and 64 bits, not {word}")
        self.word = word
        self.model = Montgomery(F.p, word)
        self.k = self.model.k
        self.digits = self.k // word
        super().__init__(F, F.bits)

    @property
    def R(self) -> int:
        return self.model.R

    @property
    def encoding(self) -> str:
        return (f"F_p: the integer in [0, p), {self.F.bits} bits; c = a*b*R^-1 mod p, R = 2^{self.k} "
                f"(Montgomery form: a value v is the word v*R mod p)")

    def emulate(self, a: int, b: int) -> int:
        """a·b·R⁻¹ mod p: the golden model's Montgomery product."""
        return self.model.mul(a, b)

    def operands(self) -> list[int]:
        p = self.F.p
        return [0, 1, self.R % p, p - 1, p - 2, (1 << (p.bit_length() - 1)), p >> 1]


class MontgomeryPipelined(MontgomeryBase):
    """c = a·b·R⁻¹ mod p, one product per cycle (see :mod:`the module docstring <.montgomery>`).

    ``xw`` × ``yw``: the DSP piece (24 × 17 for a DSP48E1); ``levels``: adder-tree levels between
    pipeline registers (1: a register after every level; more: a shorter latency, a deeper path).
    ``latency`` = input register + the three products' stages + the sum and the subtraction.
    """

    initiation_interval = 1

    def __init__(self, F: PrimeField, word: int = 17, xw: int = 24, yw: int = 17, levels: int = 1):
        if levels < 1:
            raise ValueError(f"levels (adder-tree levels per pipeline register) must be at least 1, not {levels}")
        self.xw, self.yw, self.levels = xw, yw, levels
        super().__init__(F, word)
        self.name = f"MontPipe_p{F.bits}_w{word}" + (f"_l{levels}" if levels > 1 else "")
        self.pprime = self.model.pinv  # −p⁻¹ mod R
        k, bits = self.k, F.bits
        self.product_stages = (product_cycles(bits, bits, xw, yw, levels=levels),
                               product_cycles(k, k, xw, yw, self.pprime, k, levels),
                               product_cycles(k, bits, xw, yw, F.p, levels=levels))

    @property
    def pieces(self) -> int:
        """The piece products of T = a·b, q and U = q·p: a DSP48E1 each, but the narrowest, which
        Yosys makes from LUTs (bn254: 422 pieces, 417 DSP48E1)."""
        from .dsp import digits, product_pieces

        k, bits, xw, yw = self.k, self.F.bits, self.xw, self.yw
        yd = (None, digits(self.pprime, yw, -(-k // yw)), digits(self.F.p, yw, -(-bits // yw)))
        shapes = ((bits, bits, None), (k, k, k), (k, bits, None))
        return sum(len(product_pieces(x, y, xw, yw, d, t)[0]) for (x, y, t), d in zip(shapes, yd))

    def describe(self) -> dict:
        return {**super().describe(), "levels": self.levels, "pieces": self.pieces}

    @property
    def latency(self) -> int:
        """Input register, the three products, the sum t and the subtraction."""
        return 1 + sum(self.product_stages) + 2

    def elaborate(self, platform):
        m = Module()
        p, k, bits = self.F.p, self.k, self.F.bits
        pipe = Pipe(m, "")
        a = pipe.reg(self.a, bits, "a_in")
        b = pipe.reg(self.b, bits, "b_in")
        T, c1 = dsp_product(m, pipe, a, bits, b, bits, "ab", self.xw, self.yw, levels=self.levels)
        q, c2 = dsp_product(m, pipe, T[:k], k, self.pprime, k, "q", self.xw, self.yw, trunc=k, levels=self.levels)
        U, c3 = dsp_product(m, pipe, q, k, p, bits, "qp", self.xw, self.yw, levels=self.levels)
        hi = T[k:] if len(T) > k else Const(0, 1)  # ⌊T/R⌋ (0 when p² < R)
        th = pipe.delay(hi, len(hi), c2 + c3, "th")
        nz = pipe.delay(T[:k].any(), 1, c2 + c3, "nz")
        t = pipe.reg(th + U[k:] + nz, bits + 1, "t")
        d = Signal(bits + 2, name="t_minus_p")
        m.d.comb += d.eq(t - p)
        assert (c1, c2, c3) == self.product_stages
        valid = pipe.delay(self.start, 1, self.latency - 1, "valid")
        c = pipe.reg(Mux(d[-1], t, d), bits, "c_out", en=valid)  # holds until the next result
        done = pipe.reg(valid, 1, "done")
        m.d.comb += [self.c.eq(c), self.done.eq(done)]
        return m


class MontgomeryCounters(MontgomeryPipelined):
    """:class:`MontgomeryPipelined` with a logic depth that does not grow with p: the products'
    pieces are summed by counter levels and segmented adders (:mod:`.compress`), ``seg``-bit carry
    chains at most, a register after every ``levels`` counter levels.

    T = a·b is reduced to two rows X_T, Y_T, and no carry runs across them before the next product:
    q = (T mod R)·p' mod R is taken from their low halves, each of q's pieces multiplying the sum of
    their 23-bit digits (a DSP48E1's pre-adder), and U = q'·p likewise from q's two rows, whose sum
    q' is q or q + R.  U' = q'·p is reduced together with ⌊T/R⌋ (T's high rows and the carry out of
    their low halves) and [T mod R ≠ 0], placed at column k, to two rows X, Y whose sum is
    t'·R + U mod R, t' = ⌊T/R⌋ + ⌊U'/R⌋ + [T mod R ≠ 0] = t + c·p, c = (q' − q)/R the carry out of
    q's rows (a carry tree beside U's product).  Their low halves are not added: U' mod R =
    −(T mod R) mod R is known, so the carry out of X's and Y's low halves is maj(x, y, x ⊕ y ⊕ u)
    of their bits k − 1 and that bit u of −(T mod R) (a sum bit is x ⊕ y ⊕ its carry in), the carry
    in of X_hi + Y_hi.  t = X_hi + Y_hi − c·p and d = t − p are each the rows plus a constant row
    that c picks, after one level of counters; d's sign picks t or d.  Latency: the input, two
    stages a product (its pieces, its counters) and two for the sum.

    ``chain`` > 1 (``cascade``): the pieces are 24 × 16 (T) and 16 + 1 × 24 (q, U: the pre-added digit
    times an odd digit of the constant), so that many start at the same bit, and those are summed
    ``chain`` at a time along DSP48E1 cascades (:func:`.compress.product_columns`), ``step`` (1 or 2)
    DSPs between registers: the counters reduce a few bits a column, for the runs' stages of latency.

    ``adders`` (``dsp_adders``, with ``chain`` > 1): that many pairs of runs of one offset are each
    summed by a DSP48E1 used as a 48-bit adder without a register (:func:`.compress.dsp_add`; with
    ``lut6``, else an addition, for the Amaranth simulator), between the runs' P registers and the
    counters: a column holds one sum where it held two, so the counters have ~40 bits fewer to reduce
    a pair, for the same latency.  U's pairs first (its columns are the tallest), then T's, then q's.
    """

    #: the x digits of a pre-added piece: their sum, a bit wider, fits a DSP48E1's 25-bit signed port
    PRE_DIGIT = 23

    #: the chain > 1 digits: T = a·b in 24 × 16-bit pieces; q and U a pre-added 16-bit digit (17 bits,
    #: the 18-bit port) times a 24-bit digit of the constant (the 25-bit port): every piece of the
    #: three products starts at a multiple of 8 bits, so the pieces of an offset can share a cascade
    CHAIN_DIGITS = (24, 16, 16, 24)

    def __init__(self, F: PrimeField, word: int = 17, xw: int = 24, yw: int = 17, levels: int = 5, seg: int = 23,
                 lut6: bool = False, chain: int = 1, step: int = 1, adders: int = 0):
        if seg < 2:
            raise ValueError(f"segment (bits of a carry-chain segment) must be at least 2, not {seg}")
        if not 1 <= chain <= self.MAX_CHAIN:
            raise ValueError(f"cascade (DSPs a chain) must be between 1 and {self.MAX_CHAIN}, not {chain}")
        if step not in (1, 2) or (step == 2 and chain == 1):
            raise ValueError(f"cascade_step (DSPs of a cascade between two registers) must be 1, or 2 with "
                             f"cascade > 1, not {step}")
        if adders and chain == 1:
            raise ValueError("dsp_adders (DSP48E1s adding pairs of cascades) go with cascade > 1")
        self.seg, self.lut6, self.chain, self.step = seg, lut6, chain, step
        if chain > 1:
            xw, yw, self.pre_digit, self.const_digit = self.CHAIN_DIGITS
        else:
            self.pre_digit, self.const_digit = self.PRE_DIGIT, yw
        super().__init__(F, word, xw, yw, levels)
        self.name = (f"MontCnt_p{F.bits}_w{word}_s{seg}_l{levels}" + ("_lut6" if lut6 else "")
                     + (f"_c{chain}" if chain > 1 else "") + (f"s{step}" if step > 1 else "")
                     + (f"_a{adders}" if adders else ""))
        from .compress import ADD_STAGES, product_heights, product_pairs, product_stages, reduce_stages

        k, bits, lv, pd, cw = self.k, F.bits, levels, self.pre_digit, self.const_digit
        shapes = ((bits, bits, xw, yw, None, None, False), (k, k, pd, cw, self.pprime, k, True),
                  (k, bits, pd, cw, F.p, None, True))
        # the DSP adders' pairs of runs: U's first (its columns are the tallest: its pieces, T's high
        # rows), then T's, then q's
        # (U's runs below column k − 1 are not built: its low half is known)
        avail = [product_pairs(*sh, chain=chain, floor=fl) for sh, fl in zip(shapes, (0, 0, self.k - 1))]
        if not 0 <= adders <= sum(avail):
            raise ValueError(f"dsp_adders must be between 0 and {sum(avail)} (the pairs of cascades of one "
                             f"offset at this p), not {adders}")
        left = adders
        #: pairs of runs a DSP48E1 adds, for T, q and U
        self.pairs = [0, 0, 0]
        for n in (2, 0, 1):
            self.pairs[n] = min(left, avail[n])
            left -= self.pairs[n]
        self.adders = adders
        #: register stages of the pieces (or the cascades) of T, q and U
        self.chain_stages = tuple(product_stages(xb, yb, dx, dy, y, tr, pre, chain, step)
                                  for xb, yb, dx, dy, y, tr, pre in shapes)
        self.reduce_stages = (
            reduce_stages(product_heights(bits, bits, xw, yw, chain=chain, pairs=self.pairs[0]), 2 * bits, lv),
            reduce_stages(product_heights(k, k, pd, cw, self.pprime, k, True, chain, pairs=self.pairs[1]), k, lv),
            reduce_stages(self._u_heights(), k + bits + 2, lv))
        # input register; for each of T, q and U: its pieces (cascades) and its counters; the sum t' and the result
        self._latency = 1 + sum(self.chain_stages) + sum(self.reduce_stages) + ADD_STAGES + 1

    #: the longest cascade: a run's sum of 32 pieces of 41 bits (46 bits) fits a DSP48E1's 48-bit P
    MAX_CHAIN = 32

    @property
    def pieces(self) -> int:
        """The piece products of T = a·b, q and U = q'·p (q's and U's on pre-added digits)."""
        from .compress import _layout

        k, bits, xw, yw, pw, cw, ch = self.k, self.F.bits, self.xw, self.yw, self.pre_digit, self.const_digit, self.chain
        return (len(_layout(bits, bits, xw, yw, chain=ch)[0]) + len(_layout(k, k, pw, cw, self.pprime, k, True, ch)[0])
                + len(_layout(k, bits, pw, cw, self.F.p, None, True, ch)[0]))

    @property
    def final_segment(self) -> int:
        """The segment of the last sums t and d (``bits`` + 2 bits each): of ``seg`` to ``seg`` + 7, the
        first whose deeper half is shallowest.  Their first half is one chain of a segment (a LUT and
        ⌈s/4⌉ CARRY4); the second is a LUT, the chain over the segments' generate and propagate bits
        (⌈(n + 1)/4⌉ CARRY4 for n segments), then three LUT levels to the result (the carry into a
        segment, its sum, the choice by d's sign): at bls12-381 23 bits give 7 and 9, 26 give 8 and 8."""
        from .compress import segment_count

        W = self.F.bits + 2

        def depth(s):
            n = segment_count(W, s, True)[1]
            return max(1 + -(-s // 4), 4 + -(-(n + 1) // 4))

        return min(range(self.seg, self.seg + 8), key=lambda s: (depth(s), s))

    @property
    def _t_width(self) -> int:
        """Bits of ⌊T/R⌋'s rows that can be set: ⌊T/R⌋ < p, so none at or above bits + 2."""
        return min(2 * self.F.bits - self.k, self.F.bits + 2)

    def _u_heights(self) -> dict:
        """Columns of U' + (⌊T/R⌋ + [T mod R ≠ 0])·R: U's pieces, T's two high rows and two bits."""
        from .compress import product_heights

        k = self.k
        h = product_heights(k, self.F.bits, self.pre_digit, self.const_digit, self.F.p, pre_add=True, chain=self.chain,
                            summed=k + self.F.bits + 2, pairs=self.pairs[2], floor=k - 1)
        for c in range(max(self._t_width, 0)):
            h[k + c] = h.get(k + c, 0) + 2
        h[k] = h.get(k, 0) + 2
        return h

    @property
    def latency(self) -> int:
        return self._latency

    def describe(self) -> dict:
        return {**super().describe(), "seg": self.seg, "final_seg": self.final_segment, "lut6": self.lut6,
                **({"cascade": self.chain, "cascade_step": self.step, "cascade_stages": list(self.chain_stages)}
                   if self.chain > 1 else {}),
                **({"dsp_adders": self.adders} if self.adders else {})}

    def elaborate(self, platform):
        from .compress import carry_out, live_bits, product_columns, reduce, segmented_add, zero_sum

        m = Module()
        p, k, bits, lv, seg = self.F.p, self.k, self.F.bits, self.levels, self.seg
        pd, cw, ch, st = self.pre_digit, self.const_digit, self.chain, self.step
        r1, r2, r3 = self.reduce_stages
        # c1, c2, c3: the pieces' stages of T, q and U (1 each, their M registers; with cascades
        # the longest run); the times below are for c = 1, the delays count the others
        c1, c2, c3 = self.chain_stages
        assert r3 >= 1  # U's column k holds at least a piece, two rows of ⌊T/R⌋ and two bits
        W = bits + 2  # t < 2p and d = t − p > −p: both fit W bits, d's sign in its top bit
        pipe = Pipe(m, "")
        a = pipe.reg(self.a, bits, "a_in")
        b = pipe.reg(self.b, bits, "b_in")
        pt, pq, pu = self.pairs
        (xt, yt), _ = reduce(m, pipe, product_columns(pipe, a, bits, b, bits, "ab", self.xw, self.yw, chain=ch, step=st,
                                                      pairs=pt, cells=self.lut6),
                             2 * bits, lv, "ab", lut6=self.lut6)  # T's rows at 2 + r1
        x0, y0 = Signal(k, name="t_row0_lo"), Signal(k, name="t_row1_lo")  # (T below R for a tiny p)
        m.d.comb += [x0.eq(xt[:k]), y0.eq(yt[:k])]
        (xq, yq), _ = reduce(m, pipe, product_columns(pipe, (x0, y0), k, self.pprime, k, "q", pd, cw, trunc=k,
                                                      chain=ch, step=st, pairs=pq, cells=self.lut6), k, lv, "q",
                             lut6=self.lut6)  # at 3 + r1 + r2
        # only the rows' columns from k − 1 up are read (U mod R is known): the pieces the counters
        # below them need are built, the others not
        uids, ulive = live_bits(self._u_heights(), k + W, k - 1)
        ucols = product_columns(pipe, (xq, yq), k, p, bits, "qp", pd, cw, live=ulive, chain=ch,
                                summed=k + W, step=st, pairs=pu, floor=k - 1, cells=self.lut6)  # at 4 + r1 + r2
        # ⌊T/R⌋ (T's high rows and the carry out of their low halves) and [T mod R ≠ 0] at column k,
        # off the products' path: the low halves' sum (one segmented adder) and, without it, whether
        # it is 0 mod R (x + y ≡ 0 mod 2^k iff x_0 = y_0 and x_i ⊕ y_i = x_(i−1) | y_(i−1) above:
        # the carry that a 0 sum bit needs, no carry chain)
        tlo, ct = segmented_add(m, pipe, x0, y0, k, seg, "tlo")  # at 3 + r1
        # with cascades, a tree of six-input levels (:func:`zero_sum`: ABC maps the plain reduction of
        # some netlists to a ripple of LUTs, 11 levels at bn254 with two DSPs a register); without,
        # as the recorded cores have it (the bits are built either way, so the measured units stay
        # as they were measured)
        zero = Signal(k, name="tlo_zero_bits")
        m.d.comb += zero.eq(Cat(~(x0[0] ^ y0[0]), *[~(x0[i] ^ y0[i] ^ (x0[i - 1] | y0[i - 1])) for i in range(1, k)]))
        allz = zero_sum(m, x0, y0, k, "tlo_zero", self.lut6) if ch > 1 else zero.all()
        nz = pipe.delay(pipe.reg(~allz, 1, "tlo_nz"), 1, c2 + c3 - 1 + r2, "nz")
        held = pipe.reg(tlo, k, "tlo_held")  # at 4 + r1
        low = ~held[:k - 1].any() if k > 1 else Const(1, 1)  # no bit below the top
        u = pipe.delay(pipe.reg(~held[k - 1] ^ low, 1, "ulo_top"), 1, c2 + c3 - 3 + r2 + r3, "u")
        hw = self._t_width
        for i, r in enumerate((xt, yt)) if hw > 0 else ():
            row = pipe.delay(r[k:k + hw], hw, c2 + c3 + r2, f"th{i}")
            for c in range(hw):
                ucols.setdefault(k + c, []).append(row[c])
        ucols.setdefault(k, []).extend([pipe.delay(ct, 1, c2 + c3 - 1 + r2, "tcarry"), nz])
        # q' = q + c·R with c the carry out of q's rows, so t = t' − c·p: t and d = t − p are X + Y + a
        # constant row that c picks (0 or 2^W − p; 2^W − p or 2^W − 2p), one level of counters each
        # that shares a stage with the rows' last level; c by a carry tree, registered before it
        # (LUT6 primitives with cascades and lut6; without, as the recorded cores have it)
        cq = pipe.delay(pipe.reg(carry_out(m, xq, yq, k, "q_carry", self.lut6 and ch > 1), 1, "q_c"), 1, c3 - 2 + r3,
                        "q_cd")
        (xs, ys), got = reduce(m, pipe, ucols, k + W, lv, "qp", last=False, live=uids, lut6=self.lut6)
        X, Y = xs[k:], ys[k:]
        rows = [xs, ys]
        for name, k0, k1 in (("t", 0, (1 << W) - p), ("d", (1 << W) - p, (1 << W) - 2 * p)):
            K = Signal(W, name=f"{name}_const")
            m.d.comb += K.eq(Mux(cq, Const(k1, W), Const(k0, W)))
            s_, c_ = Signal(W, name=f"{name}_sum"), Signal(W, name=f"{name}_carry")
            m.d.comb += [s_.eq(X ^ Y ^ K), c_.eq(Cat(Const(0, 1), ((X & Y) | (K & (X ^ Y)))[:W - 1]))]
            rows += [s_, c_]
        xs, ys, ts, tc, ds, dc = (pipe.reg(v, len(v), f"qp_last{i}") for i, v in enumerate(rows))
        assert got + 1 == r3
        x, y = xs[k - 1], ys[k - 1]
        cu = Signal(name="u_carry")  # the carry out of the rows' low halves
        m.d.comb += cu.eq((x & y) | ((x ^ y ^ u) & (x ^ y)))
        d, _ = segmented_add(m, pipe, ds, dc, W, self.final_segment, "d", cin=cu)
        t, _ = segmented_add(m, pipe, ts, tc, W, self.final_segment, "t", cin=cu)
        valid = pipe.delay(self.start, 1, self.latency - 1, "valid")
        c = pipe.reg(Mux(d[-1], t, d), bits, "c_out", en=valid)  # holds until the next result
        done = pipe.reg(valid, 1, "done")
        m.d.comb += [self.c.eq(c), self.done.eq(done)]
        return m


class MontgomeryIterative(MontgomeryBase):
    """c = a·b·R⁻¹ mod p by FIOS, ``per_cycle`` w-bit digits of a per cycle (see :mod:`the module
    docstring <.montgomery>`).

    Per digit b_i of b: one cycle computes m = (t_0 + a_0·b_i)·p' mod 2^w (and pushes the previous
    digit's carry into t), then ⌈(s + 1)/K⌉ cycles each add a_J·b_i + m·p_J + carry to the K digits
    t_J, J = j … j + K − 1 (K = ``per_cycle``: K·w × w bits of a·b_i and of m·p a cycle, K DSP
    pieces each), shifting t down K digits (the low digit, 0 by the choice of m, falls out at the
    push).  a, p and t are padded with zero digits to L = K·⌈(s + 1)/K⌉: t < 2p < 2R keeps the
    digits above s zero after each digit of b (Koç et al. §5's bound), so the padding changes no
    value.  II = s(1 + L/K) + 1 (K = 1: s(s + 2) + 1; the last cycle pushes the final carry and
    subtracts p), latency II + 1.  ``stages`` 2 shortens the cycle without changing the steps: the
    digits of p from a register that rotates with a's (the products' operands all flip-flops, no
    lookup of p's digits by the step counter before the DSPs), a_0·b_i mod 2^w of the m cycle from a
    register loaded the cycle before (one w × w product more), so that cycle is one product, not two
    in series, and the pushed t registered and p subtracted in a cycle of its own (the bits-wide
    carry chain apart from the digit products): latency II + 2, the same II.  ``stages`` 3: as 2,
    the subtraction in two cycles, the low half's difference and borrow registered: latency II + 3.
    """

    def __init__(self, F: PrimeField, word: int = 17, per_cycle: int = 1, stages: int = 1):
        super().__init__(F, word)
        if not 1 <= per_cycle <= self.digits + 1:
            raise ValueError(f"per_cycle must be between 1 and s + 1 = {self.digits + 1} digits, not {per_cycle}")
        if stages not in (1, 2, 3):
            raise ValueError(f"montgomery-iterative has 1 to 3 stages (2: p's digits and a_0*b_i from registers, "
                             f"the final subtraction a cycle of its own; 3: that subtraction in two), not {stages}")
        self.per_cycle, self.stages = per_cycle, stages
        self.name = (f"MontIter_p{F.bits}_w{word}" + (f"_k{per_cycle}" if per_cycle > 1 else "")
                     + (f"_p{stages}" if stages > 1 else ""))

    @property
    def padded(self) -> int:
        """L: the digits of a, p and t, s + 1 rounded up to a multiple of ``per_cycle``."""
        K = self.per_cycle
        return -(-(self.digits + 1) // K) * K

    @property
    def initiation_interval(self) -> int:
        return self.digits * (1 + self.padded // self.per_cycle) + 1

    @property
    def latency(self) -> int:
        return self.initiation_interval + self.stages

    def describe(self) -> dict:
        return {**super().describe(), "per_cycle": self.per_cycle,
                **({"stages": self.stages} if self.stages > 1 else {})}

    def fios(self, a: int, b: int) -> int:
        """The unit's algorithm step by step (the same cycles and K-digit windows as the hardware)."""
        w, s, p, K, L = self.word, self.digits, self.F.p, self.per_cycle, self.padded
        W, WK = 1 << w, 1 << (w * K)
        pd = digits(p, w, L)
        ad = digits(a, w, L)
        bd = digits(b, w, s)
        pp = self.model.pinv % W
        T, C = [0] * L, 0
        for i in range(s):
            T, C, mm = T[1:] + [C], 0, ((T[1] + ad[0] * bd[i]) % W) * pp % W  # push / m cycle
            for j in range(0, L, K):
                x = from_digits(T[:K], w) + from_digits(ad[j:j + K], w) * bd[i] + mm * from_digits(pd[j:j + K], w) + C
                T, C = T[K:] + digits(x % WK, w, K), x >> (w * K)
        T = T[1:] + [C]
        t = from_digits(T, w)
        return t - p if t >= p else t

    def elaborate(self, platform):
        m = Module()
        w, s, p, bits, K, L = self.word, self.digits, self.F.p, self.F.bits, self.per_cycle, self.padded
        W, steps = 1 << w, L // K
        A = Signal(L * w, name="A")  # a, digits s … L − 1 = 0; rotates K digits per accumulate cycle
        B = Signal(s * w, name="B")  # b, shifts a digit per iteration
        T = Signal(L * w, name="T")
        C = Signal(w + 1, name="carry")
        mm = Signal(w, name="m")
        i = Signal(range(s + 1), name="i")
        k = Signal(range(steps + 1), name="k")
        busy = Signal(name="busy")
        last = Signal(name="last")
        m.d.comb += last.eq(busy & (i == s))
        pd = digits(p, w, L)
        ab = Signal((K + 1) * w, name="ab")
        mp = Signal((K + 1) * w, name="mp")
        if self.stages >= 2:  # p's digits from a register that rotates with a's: the products read flip-flops
            P = Signal(L * w, name="P", init=from_digits(pd, w))
            m.d.comb += [ab.eq(A[:K * w] * B[:w]), mp.eq(mm * P[:K * w])]
        else:
            pj = Array(Const(from_digits(pd[j:j + K], w), K * w) for j in range(0, L, K))
            m.d.comb += [ab.eq(A[:K * w] * B[:w]), mp.eq(mm * pj[k - 1])]
        x = Signal((K + 1) * w + 2, name="x")
        m.d.comb += x.eq(T[:K * w] + ab + mp + C)
        u = Signal(w, name="u")
        if self.stages >= 2:  # a_0·b_i mod 2^w of the m cycle from a register, loaded the cycle before it
            a0b = Signal(w, name="a0b")
            m.d.comb += u.eq(T[w:2 * w] + a0b)
        else:
            m.d.comb += u.eq(T[w:2 * w] + ab[:w])
        mnext = Signal(2 * w, name="m_next")
        m.d.comb += mnext.eq(u * Const(self.model.pinv % W, w))
        pushed = Signal(L * w, name="pushed")
        m.d.comb += pushed.eq(Cat(T[w:], C, Const(0, w - 1)))
        with m.If(busy):
            with m.If(k == 0):  # push the carry, compute m
                m.d.sync += [T.eq(pushed), C.eq(0), mm.eq(mnext[:w]), k.eq(1)]
            with m.Else():  # digits J = K·(k − 1) …
                m.d.sync += [T.eq(Cat(T[K * w:], x[:K * w])), C.eq(x[K * w:]), A.eq(Cat(A[K * w:], A[:K * w])),
                             k.eq(k + 1)]
                if self.stages >= 2:
                    m.d.sync += P.eq(Cat(P[K * w:], P[:K * w]))
                with m.If(k == steps):
                    m.d.sync += [B.eq(B >> w), k.eq(0), i.eq(i + 1)]
                    if self.stages >= 2:  # a's first digit after the rotation, b's next digit
                        m.d.sync += a0b.eq((Cat(A[K * w:], A[:K * w])[:w] * B[w:2 * w])[:w])
            with m.If(last):
                m.d.sync += busy.eq(0)
        t = pushed[:bits + 1]
        if self.stages >= 2:  # t registered at the last cycle, p subtracted the cycle after
            treg, final = Signal(bits + 1, name="t_reg"), Signal(name="t_valid")
            with m.If(last):
                m.d.sync += treg.eq(t)
            m.d.sync += final.eq(last)
            t, last = treg, final
        d = Signal(bits + 2, name="t_minus_p")
        if self.stages == 3:  # the low half's difference and borrow a cycle before the high half's
            h = (bits + 1) // 2
            lo, t_hi, t_lo = Signal(h + 1, name="lo_diff"), Signal(bits + 1 - h, name="t_hi"), Signal(h, name="t_lo")
            final = Signal(name="lo_valid")
            with m.If(last):
                m.d.sync += [lo.eq(t[:h] - (p & ((1 << h) - 1))), t_hi.eq(t[h:]), t_lo.eq(t[:h])]
            m.d.sync += final.eq(last)
            hi = Signal(bits + 2 - h, name="hi_diff")  # its top bit the sign, as d's
            m.d.comb += [hi.eq(t_hi - (p >> h) - lo[h]), d.eq(Cat(lo[:h], hi))]
            t, last = Cat(t_lo, t_hi), final
        else:
            m.d.comb += d.eq(t - p)
        c, done = Signal(bits, name="c_reg"), Signal(name="done_reg")
        with m.If(last):
            m.d.sync += c.eq(Mux(d[-1], t, d))
        m.d.sync += done.eq(last)
        with m.If(self.start):
            m.d.sync += [A.eq(self.a), B.eq(self.b), T.eq(0), C.eq(0), i.eq(0), k.eq(0), busy.eq(1)]
            if self.stages >= 2:
                m.d.sync += [P.eq(from_digits(pd, w)), a0b.eq((self.a[:w] * self.b[:w])[:w])]
        m.d.comb += [self.c.eq(c), self.done.eq(done)]
        return m
