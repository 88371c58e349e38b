"""A fully parallel, pipelined Karatsuba multiplier for F_3^m (Beuchat et al., CHES 2009 / IEEE TC
60(2) 2011, "Our parallel multiplier": recursive Karatsuba over F_3[x] with a split chosen per level —
two-way, three-way or odd–even — optional pipeline registers, and a final reduction by f).

The polynomial product of the two m-trit operands is built level by level (:data:`SPLITS`):

``2``  A = A0 + x^h·A1 (h = ⌈n/2⌉): 3 products, C = P0 + x^h·(P01 − P0 − P1) + x^2h·P1;
``3``  A = A0 + x^h·A1 + x^2h·A2 (h = ⌈n/3⌉): 6 products (P0, P1, P2, P01, P02, P12),
       C = P0 + x^h·(P01 − P0 − P1) + x^2h·(P02 − P0 − P2 + P1) + x^3h·(P12 − P1 − P2) + x^4h·P2;
``oe`` A = Ae(x²) + x·Ao(x²): 3 products as in ``2`` with x² for x^h and the halves interleaved.

Below the last split the base products are schoolbook (n·n' trit products summed per column), and
the 2m − 1 product trits are folded into m by the linear map x^j ↦ x^j mod f read off the golden model.
Every operation is the model's trit adder (:func:`pairhw.math.ternary.field.add_hl`) on the two-bit
encoding, so the unit's arithmetic is the model's.

Pipeline registers go at named cut points, in data-flow order: ``in`` (the operands), ``pre0`` …
``pre{L−1}`` (after each level's operand pre-additions), ``base`` (after the base products),
``post{L−1}`` … ``post0`` (after each level's recombination), and the output register after the
reduction, always present.  Latency = 1 + the number of cut points; one product per cycle (II 1).
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Module, Signal
from amaranth.lib import wiring

from pairhw.rtl.ports import mul_signature
from pairhw.math.ternary.field import GF3m

from . import nets

SPLITS = ("2", "3", "oe")


class ScheduleError(ValueError):
    """A split schedule or register placement that cannot be built."""


def default_schedule(m: int) -> tuple:
    """Two-way splits down to a schoolbook base of at most 7 trits (97 → 49 → 25 → 13 → 7)."""
    out, n = [], m
    while n > 7:
        out.append("2")
        n = -(-n // 2)
    return tuple(out)


def cut_points(levels: int) -> tuple:
    """The register cut points of a multiplier with ``levels`` split levels, in data-flow order."""
    return (("in",) + tuple(f"pre{d}" for d in range(levels)) + ("base",)
            + tuple(f"post{d}" for d in reversed(range(levels))))


def segment_depths(m: int, schedule) -> list:
    """Estimated trit-adder levels between consecutive cut points: before ``in`` (the operand
    multiplexers, 1), each pre-addition (1), the base products (1 + ⌈log2 n⌉ for the product and
    its adder tree), each recombination (3 two-way, 4 three-way), and the reduction (2, after the
    last cut point).  Entry i is the logic before cut point i of :func:`cut_points`; the last entry
    is the logic before the output register."""
    n = m
    for s in schedule:
        n = sizes(n, s)[0]
    post = [4 if s == "3" else 3 for s in reversed(schedule)]
    return [1] + [1] * len(schedule) + [1 + max(n - 1, 1).bit_length()] + post + [2]


def default_registers(m: int, schedule, stages: int) -> tuple:
    """The ``stages − 1`` cut points that make the deepest segment (:func:`segment_depths`) as
    shallow as possible; among those, the fewest flip-flops (:func:`cut_bits`)."""
    from itertools import combinations

    points = cut_points(len(schedule))
    if stages < 1 or stages - 1 > len(points):
        raise ScheduleError(f"a {len(schedule)}-level multiplier has 1 to {len(points) + 1} stages, "
                            f"not {stages}")
    depth = segment_depths(m, schedule)

    def worst(cut):
        seg, out, cuts = 0, 0, set(cut)
        for i, d in enumerate(depth):
            seg += d
            if i < len(points) and i in cuts:
                out, seg = max(out, seg), 0
        return max(out, seg)

    bits = cut_bits(m, schedule)
    best = min(combinations(range(len(points)), stages - 1),
               key=lambda c: (worst(c), sum(bits[i] for i in c), c))
    return tuple(points[i] for i in best)


def cut_bits(m: int, schedule) -> list:
    """Flip-flops a register at each cut point of :func:`cut_points` costs (two bits per trit)."""
    L = len(schedule)
    pre, post = [0] * L, [0] * L
    base = 0

    def walk(n, level):
        nonlocal base
        if level == L:
            base += 2 * (2 * n - 1)
            return
        subs = sizes(n, schedule[level])[1]
        pre[level] += 2 * 2 * sum(subs)
        post[level] += 2 * (2 * n - 1)
        for s in subs:
            walk(s, level + 1)

    walk(m, 0)
    return [4 * m] + pre + [base] + post[::-1]


def sizes(n: int, split: str) -> tuple:
    """(h, the sizes of the sub-products) of splitting an n-trit product by ``split``."""
    if split in ("2", "oe"):  # odd–even: the even trits are the ⌈n/2⌉ of the low half's place
        h = -(-n // 2)
        return h, (h, n - h, h)
    h = -(-n // 3)
    return h, (h, h, n - 2 * h, h, h, h)


def check_schedule(m: int, schedule) -> None:
    n = m
    for i, s in enumerate(schedule):
        if s not in SPLITS:
            raise ScheduleError(f"unknown split {s!r} (splits: {', '.join(SPLITS)})")
        h, subs = sizes(n, s)
        if min(subs) < 1 or h >= n:
            raise ScheduleError(f"split {i + 1} ({s}) of {n} trits leaves an empty part; the first "
                                f"{i} splits fit m = {m}")
        n = h


def _count(n: int, schedule) -> tuple:
    """(base products, trit products in them) of an n-trit product split by ``schedule``."""
    if not schedule:
        return 1, n * n
    _, subs = sizes(n, schedule[0])
    b = [_count(s, schedule[1:]) for s in subs]
    return sum(x for x, _ in b), sum(y for _, y in b)


class KaratsubaMul3(wiring.Component):
    """c = a·b in F_3^m, fully parallel Karatsuba (``schedule``: a split per level, outermost first)
    with pipeline registers at ``registers`` (cut points of :func:`cut_points`); II 1.

    Ports as the other multipliers: ``a``, ``b`` (2m-bit words, L | H << m) sampled when ``start``
    is high; ``c`` holds the product and ``done`` pulses ``latency`` cycles later.  Registers are
    free-running (no enable), so ``c`` is valid only in the ``done`` cycle.
    """

    initiation_interval = 1
    lut6 = False
    _MustUse__silence = True

    def __init__(self, F: GF3m, schedule=None, registers=None, stages: int | None = None):
        self.F = F
        self.schedule = tuple(str(s) for s in (default_schedule(F.m) if schedule is None else schedule))
        check_schedule(F.m, self.schedule)
        levels = len(self.schedule)
        if registers is not None and stages is not None:
            raise ScheduleError("give the register cut points or the number of stages, not both")
        if registers is None:
            registers = default_registers(F.m, self.schedule, stages if stages is not None else 1)
        points = cut_points(levels)
        bad = [r for r in registers if r not in points]
        if bad:
            raise ScheduleError(f"unknown register cut point {bad[0]!r}; this multiplier's points: "
                                f"{', '.join(points)}")
        self.registers = tuple(p for p in points if p in set(registers))
        self.latency = 1 + len(self.registers)
        self.base_products, self.trit_products = _count(F.m, self.schedule)
        sched = "_".join(self.schedule) or "sb"
        self.name = f"KaratsubaMul3_m{F.m}_s{sched}_l{self.latency}"
        w = 2 * F.m
        super().__init__(mul_signature(w))

    def emulate(self, a: int, b: int) -> int:
        return self.F.mul(a, b)

    def describe(self) -> dict:
        return {"name": self.name, "m": self.F.m, "field": self.F.poly_str(), "schedule": list(self.schedule),
                "registers": list(self.registers), "latency": self.latency, "ii": 1,
                "base_products": self.base_products, "trit_products": self.trit_products}

    # -- network ------------------------------------------------------------------------------------
    def _reg(self, m, point, vecs, name):
        """``vecs`` (a list of (H, L) pairs) through a register when ``point`` is a cut point."""
        if point not in self.registers:
            return vecs
        out = []
        for i, (h, l) in enumerate(vecs):
            rh, rl = Signal(len(h), name=f"{name}_{i}_rh"), Signal(len(l), name=f"{name}_{i}_rl")
            m.d.sync += [rh.eq(h), rl.eq(l)]
            out.append((rh, rl))
        return out

    def _poly(self, m, a, b, n, level, name):
        """(H, L) of the (2n − 1)-trit product of n-trit a and b (pairs of Signals)."""
        if level == len(self.schedule):
            return self._reg(m, "base", [_schoolbook(m, a, b, n, name)], name + "_b")[0]
        split = self.schedule[level]
        h, subs = sizes(n, split)
        if split == "oe":
            parts = [(_pick(a, 0, 2, n), _pick(b, 0, 2, n)), (_pick(a, 1, 2, n), _pick(b, 1, 2, n))]
        else:
            k = 2 if split == "2" else 3
            parts = [(_slice(a, i * h, min(n, (i + 1) * h)), _slice(b, i * h, min(n, (i + 1) * h)))
                     for i in range(k)]
        pairs = [(i,) for i in range(len(parts))] + ([(0, 1)] if len(parts) == 2 else [(0, 1), (0, 2), (1, 2)])
        ops = []
        for j, idx in enumerate(pairs):
            if len(idx) == 1:
                ops.append(parts[idx[0]])
            else:
                x, y = parts[idx[0]], parts[idx[1]]
                w = subs[j]
                ops.append((_add(m, x[0], y[0], w, f"{name}_pa{j}"), _add(m, x[1], y[1], w, f"{name}_pb{j}")))
        flat = self._reg(m, f"pre{level}", [v for op in ops for v in op], f"{name}_pre")
        prods = [self._poly(m, flat[2 * j], flat[2 * j + 1], subs[j], level + 1, f"{name}_{j}")
                 for j in range(len(ops))]
        W = 2 * n - 1
        if split in ("2", "oe"):
            p0, p1, p01 = prods
            wm = 2 * subs[2] - 1
            mid = _sub(m, _sub(m, p01, p0, wm, f"{name}_m0"), p1, wm, f"{name}_m1")
            if split == "2":
                base = _place(W, [(0, p0), (2 * h, p1)])
                mid = _place(W, [(h, mid)])
            else:  # even trits: P0(x²) + x²·P1(x²); odd trits: x·mid(x²)
                base = _add(m, _spread(p0, W, 0), _spread(p1, W, 2), W, f"{name}_ev")
                mid = _spread(mid, W, 1)
            out = _add(m, base, mid, W, f"{name}_c")
        else:
            p0, p1, p2, p01, p02, p12 = prods
            wm = 2 * h - 1
            m1 = _sub(m, _sub(m, p01, p0, wm, f"{name}_m1a"), p1, wm, f"{name}_m1")
            m2 = _sub(m, _sub(m, p02, p0, wm, f"{name}_m2a"), p2, wm, f"{name}_m2")
            m3 = _sub(m, _sub(m, p12, p1, wm, f"{name}_m3a"), p2, wm, f"{name}_m3")
            base = _place(W, [(0, p0), (2 * h, p1), (4 * h, p2)])
            odd = _place(W, [(h, m1), (3 * h, m3)])
            out = _add(m, _add(m, base, odd, W, f"{name}_c0"), _place(W, [(2 * h, m2)]), W, f"{name}_c")
        return self._reg(m, f"post{level}", [out], f"{name}_post")[0]

    def elaborate(self, platform):
        m = Module()
        F, n = self.F, self.F.m
        a = (self.a[n:], self.a[:n])
        b = (self.b[n:], self.b[:n])
        a, b = self._reg(m, "in", [a, b], "in")
        ph, pl = self._poly(m, a, b, n, 0, "k")
        cols = [F.to_list(F.reduce(1 << (16 * j))) for j in range(2 * n - 1)]
        rh, rl = nets.linear_net(m, ph, pl, nets.linear_rows(cols, n), "red")
        c, done = Signal(2 * n, name="c_reg"), Signal(self.latency, name="valid")
        m.d.sync += [c.eq(Cat(rl, rh)), done.eq(Cat(self.start, done[:-1]))]
        m.d.comb += [self.c.eq(c), self.done.eq(done[-1])]
        return m


# -- trit-vector helpers (pairs (H, L) of equal width) -------------------------------------------------

def _slice(v, lo, hi):
    return (v[0][lo:hi], v[1][lo:hi])


def _pick(v, offset, stride, n):
    """Trits offset, offset + stride, … of an n-trit vector."""
    idx = range(offset, n, stride)
    return (Cat(*[v[0][i] for i in idx]), Cat(*[v[1][i] for i in idx]))


def _ext(v, w):
    """Zero-extend (or keep) a trit vector to w trits."""
    h, l = v
    if len(h) == w:
        return v
    return (Cat(h, Const(0, w - len(h))), Cat(l, Const(0, w - len(l))))


def _place(w, parts):
    """A w-trit vector of non-overlapping ``parts`` (offset, vector), zeros elsewhere.  A part is cut
    at w: the trits above are zero in a product of degree < w (a three-way middle term of a short top
    part, whose padded width is larger than its degree)."""
    hs, ls, pos = [], [], 0
    for off, (h, l) in sorted(parts, key=lambda p: p[0]):
        assert off >= pos, "overlapping parts"
        if off + len(h) > w:
            h, l = h[:w - off], l[:w - off]
        if off > pos:
            hs.append(Const(0, off - pos))
            ls.append(Const(0, off - pos))
        hs.append(h)
        ls.append(l)
        pos = off + len(h)
    if pos < w:
        hs.append(Const(0, w - pos))
        ls.append(Const(0, w - pos))
    return (Cat(*hs), Cat(*ls))


def _spread(v, w, offset):
    """Trit i of v at position offset + 2i of a w-trit vector (the odd–even split's interleave)."""
    h, l = v
    zh = [Const(0, 1)] * w
    zl = [Const(0, 1)] * w
    for i in range(len(h)):
        if offset + 2 * i < w:
            zh[offset + 2 * i] = h[i]
            zl[offset + 2 * i] = l[i]
    return (Cat(*zh), Cat(*zl))


def _add(m, x, y, w, name):
    """x + y (trit-wise, both zero-extended to w trits), as Signals."""
    return nets.trit_add(m, _ext(x, w), _ext(y, w), w, name)


def _sub(m, x, y, w, name):
    """x − y = x + (−y); −y swaps H and L."""
    return _add(m, x, (y[1], y[0]), w, name)


def _schoolbook(m, a, b, n, name):
    """(H, L) of the (2n − 1)-trit product of n-trit vectors: Σ_i a_i·b·x^i, a balanced adder tree."""
    W = 2 * n - 1
    ah, al = a
    rows = [_place(W, [(i, nets.trit_scale(m, b, (ah[i], al[i]), f"{name}_r{i}"))]) for i in range(len(ah))]
    if len(rows) == 1:
        return _ext(rows[0], W)
    return nets.trit_sum(m, rows, W, f"{name}_s")
