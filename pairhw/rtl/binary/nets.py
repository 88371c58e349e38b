"""Combinational network builders: each adds logic to a :class:`amaranth.hdl.Module` and returns a
``Signal`` holding the result.

Every recursion level drives its own named ``Signal`` (docs/ARCHITECTURE.md: a pure expression tree re-emits
shared sub-expressions and explodes); the structure mirrors :mod:`pairhw.math.binary.mulalg` line by line,
so each net computes exactly the model function of the same name.
"""

from __future__ import annotations

import re

from functools import reduce
from operator import xor

from amaranth.hdl import Cat, Const, Instance, Module, Signal

from pairhw.math.binary.mulalg import TMVP_SPLITS


def xor_tree(values):
    """Balanced XOR of a list of Values (each used once, so a plain expression is safe)."""
    values = list(values)
    if not values:
        return Const(0, 1)
    while len(values) > 1:
        values = [values[i] ^ values[i + 1] if i + 1 < len(values) else values[i]
                  for i in range(0, len(values), 2)]
    return values[0]


def linear_rows(columns, n_out: int) -> list:
    """The rows of M over F_2 given by its columns: row i lists the input bits j whose column
    ``columns[j]`` (int) has bit i set."""
    rows = [[] for _ in range(n_out)]
    for j, col in enumerate(columns):
        while col:
            low = col & -col
            rows[low.bit_length() - 1].append(j)
            col ^= low
    return rows


def linear_net(m: Module, x, columns, n_out: int, name: str, cuts=()) -> Signal:
    """y = M·x over F_2, M given by its columns: ``columns[j]`` (int) is the image of input bit j.

    Output bit i is the XOR of the input bits whose column has bit i set (one gate per extra term,
    no sharing: :func:`linear_xor_count` is the gate count of this net).  ``cuts``: each bit's XOR,
    then a balanced tree, registered after these levels (``{name}_r{n}``, a cycle of latency each;
    a bit whose tree ends first registered at its end: :func:`pairhw.rtl.select.stage_cuts`).
    """
    y = Signal(n_out, name=name)
    rows = linear_rows(columns, n_out)
    if not cuts:
        bits = [reduce(xor, [x[j] for j in r]) if r else Const(0, 1) for r in rows]
        m.d.comb += y.eq(Cat(*bits))
        return y
    # the terms of every row at once, level by level: each cut one register of all rows' partial sums
    parts = [[x[j] for j in r] or [Const(0, 1)] for r in rows]
    pending, level = sorted(cuts), 0
    while True:
        while pending and pending[0] <= level:
            flat = [v for p in parts for v in p]
            q = Signal(len(flat), name=f"{name}_r{len(cuts) - len(pending)}")
            m.d.sync += q.eq(Cat(*flat))
            it = iter(range(len(flat)))
            parts = [[q[next(it)] for _ in p] for p in parts]
            pending.pop(0)
        if not pending and all(len(p) == 1 for p in parts):
            break
        parts = [[p[i] ^ p[i + 1] if i + 1 < len(p) else p[i] for i in range(0, len(p), 2)] for p in parts]
        level += 1
    m.d.comb += y.eq(Cat(*(p[0] for p in parts)))
    return y


def linear_xor_count(columns, n_out: int) -> int:
    """Two-input XOR gates of :func:`linear_net` for these columns (Σ over outputs of terms − 1)."""
    return sum(max(len(r) - 1, 0) for r in linear_rows(columns, n_out))


def window_value(x, width: int, off: int, length: int):
    """Bits ``off .. off+length-1`` of a ``width``-bit Value, zero outside ``0 .. width-1``."""
    lo, hi = max(off, 0), min(off + length, width)
    if hi <= lo:
        return Const(0, length)
    parts = []
    if off < 0:
        parts.append(Const(0, lo - off))
    parts.append(x[lo:hi])
    return Cat(*parts)


def _sub_builder(m: Module, name: str, xw: int, yw: int, rec):
    """``sub(x, y)``: drive the i-th sub-problem's operands into named Signals and recurse on them
    (one Signal per recursion level, docs/ARCHITECTURE.md)."""
    count = [0]

    def sub(x, y):
        i = count[0]
        count[0] += 1
        xs = Signal(xw, name=f"{name}_x{i}")
        ys = Signal(yw, name=f"{name}_y{i}")
        m.d.comb += [xs.eq(x), ys.eq(y)]
        return rec(xs, ys, f"{name}_{i}")

    return sub


# ---------------------------------------------------------------------------------------------
# LUT6 leaves

#: Behavioural model of the Xilinx ``LUT6`` primitive (output = INIT bit selected by I5..I0), for
#: simulators and for the non-Xilinx synthesis flows; ``synth_xilinx`` uses its own cell.
LUT6_MODEL = """module LUT6 #(parameter [63:0] INIT = 64'h0) (output O, input I0, I1, I2, I3, I4, I5);
  assign O = INIT[{I5, I4, I3, I2, I1, I0}];
endmodule
"""


#: Behavioural model of the Xilinx ``DSP48E1`` primitive as the F_p units use it alone (no register,
#: OPMODE X = A:B, Y = C, Z = 0, ALUMODE 0: P = A:B + C, :func:`pairhw.rtl.prime.compress.dsp_add`),
#: for simulators and for the non-Xilinx synthesis flows; ``synth_xilinx`` uses its own cell.  The
#: parameters are those the units set, accepted and not read.
DSP_ADD_MODEL = """module DSP48E1 #(parameter AREG = 1, BREG = 1, CREG = 1, MREG = 1, PREG = 1, ACASCREG = 1,
    BCASCREG = 1, ADREG = 1, DREG = 1, ALUMODEREG = 1, CARRYINREG = 1, CARRYINSELREG = 1, INMODEREG = 1,
    OPMODEREG = 1, A_INPUT = "DIRECT", B_INPUT = "DIRECT", USE_DPORT = "FALSE", USE_MULT = "MULTIPLY",
    USE_SIMD = "ONE48") (input [29:0] A, input [17:0] B, input [47:0] C, input [6:0] OPMODE,
    input [3:0] ALUMODE, input [4:0] INMODE, input CARRYIN, input [2:0] CARRYINSEL, output [47:0] P);
  assign P = {A, B} + C;
endmodule
"""


def cell_models(verilog_text: str) -> str:
    """The models of the vendor cells ``verilog_text`` instantiates and does not define (a ``LUT6``
    of a ``lut6`` unit, a ``DSP48E1`` adder of an F_p unit's ``dsp_adders``), for a simulator's test
    bench or a flow without the cell; empty when it instantiates none."""
    out = ""
    for cell, model in (("LUT6", LUT6_MODEL), ("DSP48E1", DSP_ADD_MODEL)):
        if re.search(rf"^\s*{cell}\b", verilog_text, re.M) and f"module {cell}" not in verilog_text:
            out += "\n" + model
    return out


_SHAPES = {"p": (1, 1), "s": (1, 0)}


def _lut6_init(shapes) -> int:
    """INIT of the XOR of terms over the inputs in order.  A term's shape is ``(d, e)``: the XOR of
    the next ``d`` inputs, ANDed with one more input when ``e``; ``"p"`` (an AND of the next two) is
    ``(1, 1)`` and ``"s"`` (one input) is ``(1, 0)``."""
    init = 0
    for k in range(64):
        v, i = 0, 0
        for shape in shapes:
            d, e = _SHAPES.get(shape, shape)
            t = 0
            for _ in range(d):
                t ^= (k >> i) & 1
                i += 1
            if e:
                t &= (k >> i) & 1
                i += 1
            v ^= t
        init |= v << k
    return init


def lut6_xor_of_terms(m: Module, terms, name: str, late=()):
    """XOR of terms ``(data, enable)`` (the XOR of the bits ``data``, ANDed with ``enable`` unless it
    is None) and of the bits ``late``, packed by hand into ``LUT6`` primitives.  Returns a 1-bit Value.

    Terms are placed largest first, each LUT taking whole terms while its six inputs allow; every
    LUT's output becomes a one-input term placed after the rest, so k two-input products take
    ⌈(2k − 1)/5⌉ LUTs.  A term wider than a LUT is split (an AND distributes over the XOR).  The
    ``late`` bits (sums computed elsewhere, which arrive late) go into the last LUT when it has room,
    so adding up to its spare inputs costs neither a LUT nor a level.
    """
    items = []
    for data, en in terms:
        data = list(data)
        room = 6 - (en is not None)
        for i in range(0, len(data), room):
            items.append((data[i:i + room], en))
    late = [([x], None) for x in late]
    if not items:
        items, late = late, []
    if not items:
        return Const(0, 1)
    items.sort(key=lambda it: -(len(it[0]) + (it[1] is not None)))  # stable: pairs keep their order

    def cost(its):
        return sum(len(d) + (e is not None) for d, e in its)

    def single(its):
        return len(its) == 1 and its[0][1] is None and len(its[0][0]) == 1

    k = 0
    while True:
        # the late bits join once they fit beside the rest, or when nothing is left to reduce
        if late and (cost(items) + cost(late) <= 6 or single(items)):
            items, late = items + late, []
        if single(items):
            return items[0][0][0]
        cur, rest, width = [], [], 0
        for it in items:
            need = len(it[0]) + (it[1] is not None)
            if width + need <= 6:
                cur.append(it)
                width += need
            else:
                rest.append(it)
        o = Signal(name=f"{name}_l{k}")
        ins = [x for data, en in cur for x in data + ([] if en is None else [en])]
        ins += [Const(0, 1)] * (6 - len(ins))
        m.submodules[f"{name}_l{k}"] = Instance(
            "LUT6", p_INIT=Const(_lut6_init([(len(d), int(e is not None)) for d, e in cur]), 64),
            **{f"i_I{i}": ins[i] for i in range(6)}, o_O=o)
        k += 1
        items = rest + [([o], None)]


def lut6_sum_of_products(m: Module, pairs, name: str):
    """XOR of the two-input ANDs ``pairs`` packed by hand into ``LUT6`` primitives.

    Yosys' ABC maps a schoolbook AND–XOR tree at about 0.6 LUT per AND (a 16 × 16 TMVP: 151 LUTs);
    three products per LUT6, then partial sums two products and up to two partials at a time, reach
    ⌈(2k − 1)/5⌉ LUTs for k products (16 × 16: 112) (:func:`lut6_xor_of_terms`).  Returns a 1-bit Value.
    """
    return lut6_xor_of_terms(m, [([a], b) for a, b in pairs], name)


def flagged_xor_net(m: Module, src, bit_cases, flag, name: str, lut6: bool = False) -> Signal:
    """One of several linear maps of ``src``, chosen by case flags: a sequential multiplier's Tnet/Vnet.

    ``bit_cases[b]`` maps a bit i of ``src`` to the set C of cases in which output bit b includes it,
    so that output b is the XOR over i of ``src[i] & flag(C)`` (``flag`` returns a 1-bit Signal that
    is high in the cases C, or None when C is every case).  Bits with the same C share their flag:
    each output is a short XOR of gated XORs, instead of a multiplexer over the cases of XORs of up to
    a dozen bits each (which Yosys maps at about 8 LUTs per bit for seed 000's two-way Tnet).
    ``lut6``: each output by :func:`lut6_xor_of_terms`.
    """
    out = Signal(len(bit_cases), name=name)
    bits = []
    for b, cases in enumerate(bit_cases):
        groups = {}
        for i in sorted(cases):
            groups.setdefault(cases[i], []).append(src[i])
        terms = [(data, flag(C)) for C, data in sorted(groups.items(), key=lambda g: sorted(g[0]))]
        if lut6:
            bits.append(lut6_xor_of_terms(m, terms, f"{name}_b{b}"))
        else:
            bits.append(xor_tree([xor_tree(d) if e is None else xor_tree(d) & e for d, e in terms]))
    m.d.comb += out.eq(Cat(*bits))
    return out


# ---------------------------------------------------------------------------------------------
# polynomial products


def schoolbook_net(m: Module, a, b, n: int, name: str, lut6: bool = False) -> Signal:
    """a·b for a, b of n bits: XOR over j of (b_j ? a·x^j : 0), as n shifted n-bit rows
    (``lut6``: each output bit by :func:`lut6_sum_of_products`)."""
    out = Signal(2 * n - 1, name=name)
    if lut6:
        bits = [lut6_sum_of_products(m, [(a[i], b[k - i]) for i in range(max(0, k - n + 1), min(k, n - 1) + 1)],
                                     f"{name}_c{k}") for k in range(2 * n - 1)]
        m.d.comb += out.eq(Cat(*bits))
        return out
    rows = [(a[:n] & b[j].replicate(n)) << j for j in range(n)]
    m.d.comb += out.eq(xor_tree(rows))
    return out


def karatsuba_net(m: Module, a, b, n: int, schedule, name: str, lut6: bool = False, cut=None,
                  cut_in=None) -> Signal:
    """Recursive Karatsuba (:func:`pairhw.math.binary.mulalg.karatsuba`), zero-padding each level;
    ``cut(signal, name)`` applied to every base product and ``cut_in`` to its operands (as
    :func:`tmvp_net`)."""
    if not schedule:
        if cut_in is not None:
            a, b = cut_in(a[:n], f"{name}_aq"), cut_in(b[:n], f"{name}_bq")
        w = schoolbook_net(m, a, b, n, name, lut6)
        return cut(w, f"{name}_q") if cut is not None else w
    k, rest = schedule[0], tuple(schedule[1:])
    h = -(-n // k)
    aa = Signal(k * h, name=f"{name}_a")
    bb = Signal(k * h, name=f"{name}_b")
    m.d.comb += [aa.eq(a[:n]), bb.eq(b[:n])]
    A = [aa[i * h:(i + 1) * h] for i in range(k)]
    B = [bb[i * h:(i + 1) * h] for i in range(k)]
    sub = _sub_builder(m, name, h, h, lambda x, y, nm: karatsuba_net(m, x, y, h, rest, nm, lut6, cut, cut_in))

    out = Signal(2 * n - 1, name=name)
    w = 2 * k * h
    if k == 2:
        p0, p1, p2 = sub(A[0], B[0]), sub(A[0] ^ A[1], B[0] ^ B[1]), sub(A[1], B[1])
        acc = [p0.as_unsigned(), (p0 ^ p1 ^ p2) << h, p2 << (2 * h)]
    elif k == 3:
        p00, p11, p22 = (sub(A[i], B[i]) for i in range(3))
        p01, p02, p12 = sub(A[0] ^ A[1], B[0] ^ B[1]), sub(A[0] ^ A[2], B[0] ^ B[2]), sub(A[1] ^ A[2], B[1] ^ B[2])
        acc = [p00.as_unsigned(), (p01 ^ p00 ^ p11) << h, (p02 ^ p00 ^ p22 ^ p11) << (2 * h),
               (p12 ^ p11 ^ p22) << (3 * h), p22 << (4 * h)]
    else:
        raise ValueError(f"split must be 2 or 3, not {k}")
    full = Signal(w, name=f"{name}_full")
    m.d.comb += full.eq(xor_tree(acc))
    m.d.comb += out.eq(full[:2 * n - 1])
    return out


# ---------------------------------------------------------------------------------------------
# Toeplitz matrix-vector products


def tmvp_schoolbook_net(m: Module, t, v, n: int, name: str, lut6: bool = False, extra=None) -> Signal:
    """T·V by columns: column j of T is diagonals n-1-j .. 2n-2-j, so W = XOR_j v_j·col_j
    (``lut6``: row i, the XOR over j of t_{i-j+n-1}·v_j and of the bits ``extra[i]``, by
    :func:`lut6_xor_of_terms`)."""
    out = Signal(n, name=name)
    if lut6:
        bits = [lut6_xor_of_terms(m, [([t[i - j + n - 1]], v[j]) for j in range(n)], f"{name}_w{i}",
                                  late=extra[i] if extra else ())
                for i in range(n)]
        m.d.comb += out.eq(Cat(*bits))
        return out
    assert not extra
    cols = [t[n - 1 - j:2 * n - 1 - j] & v[j].replicate(n) for j in range(n)]
    m.d.comb += out.eq(xor_tree(cols))
    return out


def lut6_spare_inputs(k: int) -> int:
    """Unused inputs of :func:`lut6_xor_of_terms`' LUTs for k two-input products: ⌈(2k − 1)/5⌉ LUTs
    take 5·L + 1 inputs."""
    return 5 * -(-(2 * k - 1) // 5) + 1 - 2 * k


def tmvp_net(m: Module, t, v, n: int, schedule, name: str, lut6: bool = False, cut=None, cut_in=None) -> Signal:
    """Seed 000 formulas (1) and (2), recursively (:func:`pairhw.math.binary.mulalg.tmvp`).

    ``lut6``: at the last split, when the base rows' LUTs have spare inputs
    (:func:`lut6_spare_inputs`), an output block's XOR is not a gate: the block's own product (P0,
    P1, P2) takes the products it shares with other blocks as late bits of its rows.
    ``cut``: ``cut(signal, name)`` is applied to every base product (a pipeline register between the
    operands' additions and base products on one side and the output additions on the other), and
    ``cut_in`` to every base product's operands (a register between the operands' additions and the
    base products); neither with ``lut6``, whose last split merges them.
    """
    if (cut is not None or cut_in is not None) and lut6:
        raise ValueError("a TMVP network cut at its base products is not built with lut6")
    if not schedule:
        if cut_in is not None:
            t, v = cut_in(t[:2 * n - 1], f"{name}_tq"), cut_in(v[:n], f"{name}_vq")
        w = tmvp_schoolbook_net(m, t, v, n, name, lut6)
        return cut(w, f"{name}_q") if cut is not None else w
    k, rest = schedule[0], tuple(schedule[1:])
    h = -(-n // k)
    pad = k * h - n
    tt = Signal((2 * k - 1) * h + h - 1, name=f"{name}_t")
    vv = Signal(k * h, name=f"{name}_v")
    m.d.comb += [tt.eq(Cat(Const(0, pad), t[:2 * n - 1]) if pad else t[:2 * n - 1]), vv.eq(v[:n])]
    T = [tt[d * h:d * h + 2 * h - 1] for d in range(2 * k - 1)]
    V = [vv[i * h:(i + 1) * h] for i in range(k)]
    if k not in TMVP_SPLITS:
        raise ValueError(f"split must be 2 or 3, not {k}")
    prods, blocks = TMVP_SPLITS[k]  # the model's formulas (1) and (2)
    count = [0]

    def sub(ds, vs, extra=None):
        i = count[0]
        count[0] += 1
        xs = Signal(2 * h - 1, name=f"{name}_x{i}")
        ys = Signal(h, name=f"{name}_y{i}")
        m.d.comb += [xs.eq(xor_tree([T[d] for d in ds])), ys.eq(xor_tree([V[j] for j in vs]))]
        if extra:
            return tmvp_schoolbook_net(m, xs, ys, h, f"{name}_{i}", lut6, extra)
        return tmvp_net(m, xs, ys, h, rest, f"{name}_{i}", lut6, cut, cut_in)

    if lut6 and not rest and lut6_spare_inputs(h) >= max(len(blk) - 1 for blk in blocks):
        shared = sorted({i for blk in blocks for i in blk[1:]})
        p = {i: sub(*prods[i]) for i in shared}
        for blk in blocks:
            p[blk[0]] = sub(*prods[blk[0]], [[p[i][r] for i in blk[1:]] for r in range(h)])
        outs = [p[blk[0]] for blk in blocks]
    else:
        p = [sub(ds, vs) for ds, vs in prods]
        outs = [xor_tree([p[i] for i in blk]) for blk in blocks]
    out = Signal(n, name=name)
    m.d.comb += out.eq(Cat(*outs)[:n])
    return out
