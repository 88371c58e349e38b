"""Wide integer products from DSP-sized pieces, and the pipeline registers between them.

A product x·y of wide unsigned operands is cut into digits (x in ``xw``-bit digits, y in ``yw``-bit
digits: 24 × 17 fits the 25 × 18 signed ports of a Xilinx DSP48E1 with the sign bit kept, seed 002
§IV), one ``*`` per digit pair (Yosys maps each to a DSP), and the piece products are placed in rows
of non-overlapping bit ranges (concatenations, no logic: :func:`pairhw.math.prime.polymont.pack_rows`,
the packing seed 002 uses for its 64 × 64 multiplier) that a tree of two-input adders sums, one
pipeline register per tree level.
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Module, Signal, signed

from pairhw.math.prime.polymont import pack_rows


def digits(value: int, width: int, count: int) -> list[int]:
    """The ``count`` ``width``-bit digits of an int, least significant first."""
    return [(value >> (width * i)) & ((1 << width) - 1) for i in range(count)]


def from_digits(ds, width: int) -> int:
    """The int of ``width``-bit digits ``ds``, least significant first (:func:`digits` undone)."""
    return sum(d << (width * i) for i, d in enumerate(ds))


class Pipe:
    """Pipeline registers with names under a prefix."""

    def __init__(self, m: Module, prefix: str):
        self.m, self.prefix = m, prefix

    def reg(self, value, width: int, name: str, sign: bool = False, en=None) -> Signal:
        """``value`` registered (one cycle later), ``width`` bits (two's complement with ``sign``);
        with ``en``, loaded only when ``en`` is high (an output that holds)."""
        s = Signal(signed(width) if sign else width, name=f"{self.prefix}{name}")
        if en is None:
            self.m.d.sync += s.eq(value)
        else:
            with self.m.If(en):
                self.m.d.sync += s.eq(value)
        return s

    def delay(self, value, width: int, cycles: int, name: str) -> Signal:
        """``value`` ``cycles`` cycles later."""
        for k in range(cycles):
            value = self.reg(value, width, f"{name}_d{k}")
        return value


def product_pieces(xbits: int, ybits: int, xw: int, yw: int, ydigits=None, trunc: int | None = None,
                   pre_add: bool = False):
    """The piece products (i, j, offset, width) of an ``xbits`` × ``ybits`` product in ``xw`` × ``yw``
    digits; pieces of a zero constant digit (``ydigits``) and, with ``trunc``, pieces at or above bit
    ``trunc`` are left out.  ``pre_add``: x is the sum of two ``xbits``-bit rows, each piece taking
    the sum of their digits (a bit wider: a DSP48E1's pre-adder)."""
    nx, ny = -(-xbits // xw), -(-ybits // yw)
    xws = [min(xw, xbits - xw * i) for i in range(nx)]
    yws = [min(yw, ybits - yw * j) for j in range(ny)]
    out = []
    for i in range(nx):
        for j in range(ny):
            off = xw * i + yw * j
            if (ydigits is not None and ydigits[j] == 0) or (trunc is not None and off >= trunc):
                continue
            pw = xws[i] + pre_add + (ydigits[j].bit_length() if ydigits is not None else yws[j])
            out.append((i, j, off, pw))
    return out, xws, yws


def product_cycles(xbits: int, ybits: int, xw: int, yw: int, y=None, trunc: int | None = None,
                   levels: int = 1) -> int:
    """Pipeline stages of :func:`dsp_product`: the piece products' register, then one per ``levels``
    levels of the adder tree over the packed rows (0 for a product that is identically zero)."""
    yd = digits(y, yw, -(-ybits // yw)) if isinstance(y, int) else None
    pieces = product_pieces(xbits, ybits, xw, yw, yd, trunc)[0]
    if not pieces:
        return 0
    n = len(pack_rows([(off, pw, (i, j)) for i, j, off, pw in pieces]))
    return 1 + -(-(n - 1).bit_length() // levels)


def dsp_product(m: Module, pipe: Pipe, x, xbits: int, y, ybits: int, name: str, xw: int = 24, yw: int = 17,
                trunc: int | None = None, levels: int = 1):
    """x·y (or x·y mod 2^trunc), unsigned; ``y`` is a Value or an int constant.

    Returns (Signal, cycles): the product registered after the piece products (one stage: the
    DSP's M register) and after every ``levels`` levels of the adder tree over the packed rows (and
    after its last level).
    """
    const = isinstance(y, int)
    yd = digits(y, yw, -(-ybits // yw)) if const else None
    pieces, xws, yws = product_pieces(xbits, ybits, xw, yw, yd, trunc)
    width = trunc if trunc is not None else xbits + ybits
    if not pieces:
        return Const(0, width), 0
    xs = [x[xw * i: xw * i + xws[i]] for i in range(len(xws))]
    ys = yd if const else [y[yw * j: yw * j + yws[j]] for j in range(len(yws))]
    prods = {}
    for i, j, _off, pw in pieces:
        prods[i, j] = pipe.reg(xs[i] * (Const(ys[j], pw - xws[i]) if const else ys[j]), pw, f"{name}_x{i}y{j}")
    rows = pack_rows([(off, pw, (i, j)) for i, j, off, pw in pieces])
    terms = []
    for k, row in enumerate(rows):
        parts, at = [], 0
        for off, pw, key in row:
            if off > at:
                parts.append(Const(0, off - at))
            parts.append(prods[key])
            at = off + pw
        s = Signal(min(at, width), name=f"{pipe.prefix}{name}_row{k}")
        m.d.comb += s.eq(Cat(*parts))
        terms.append(s)
    cycles, level = 1, 0
    while len(terms) > 1:
        registered = (level + 1) % levels == 0 or len(terms) <= 2

        def stage(value, w, label):
            if registered:
                return pipe.reg(value, w, label)
            s = Signal(w, name=f"{pipe.prefix}{label}")
            m.d.comb += s.eq(value)
            return s

        nxt = []
        for k in range(0, len(terms) - 1, 2):
            a, b = terms[k], terms[k + 1]
            w = min(max(len(a), len(b)) + 1, width)
            nxt.append(stage(a + b, w, f"{name}_l{level}s{k // 2}"))
        if len(terms) % 2:  # the odd one waits a stage
            t = terms[-1]
            nxt.append(stage(t, len(t), f"{name}_l{level}s{len(terms) // 2}"))
        terms, level, cycles = nxt, level + 1, cycles + registered
    return terms[0], cycles
