"""Wide sums with a bounded logic depth: counter trees and segmented adders.

The pipelined Montgomery unit's products are sums of many DSP piece products.  Summed by a tree of
two-input adders, every level is a carry chain as wide as the product (125–188 CARRY4 levels at
bn254 and bls12-381).  Here the depth between two registers does not grow with the width:

* **counter levels** (:func:`reduce`): each column of the bit matrix is cut into groups of up to
  six bits, and each group is replaced by its count, three bits in that column and the next two (a
  6:3 counter; 3:2, 4:3 and 5:3 ones for a column's last bits).  Every output bit is a function of at
  most six inputs, one LUT6, no carry chain; a level about halves the tallest column.  These are
  the single-column kind of the generalized parallel counters Parandeh-Afshar, Brisk and Ienne build
  FPGA compressor trees from; which groups a column needs follows Dadda's rule (Dadda, Alta
  Frequenza 1965: reduce each column only to the level's target height).  Levels repeat until no
  column holds more than two bits.
* **a segmented adder** (:func:`segmented_add`) adds the two rows left: (A) every ``seg``-bit
  segment's sums with a carry in of 0 and of 1, and whether the segment propagates (its operands'
  XOR is all ones), registered; (B) the carries into the segments, by one addition over the
  segments' generate and propagate bits (the carry into segment j is bit j of
  ((g | p) + g) ⊕ (g | p) ⊕ g), each choosing its segment's sum (carry select).  (A) is one carry
  chain of ``seg`` bits, (B) one of a bit per segment and a multiplexer.

A column's bits, weighed by 2^column, sum to the value: every level keeps that sum mod 2^width
(``tests/rtl/prime/test_compress.py`` checks it on random bit matrices, level by level).
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Mux, Signal

from .dsp import Pipe, digits, product_pieces

#: the largest group a counter takes: six inputs, one LUT6 per output bit
GROUP = 6


def count_bits(bits: list) -> list:
    """The count of 1 to 6 bits as ``len(bin(len(bits)))`` bits, least significant first, from
    AND/OR/XOR only (full and half adders), so that Yosys maps no carry chain and ABC packs each
    output, a function of at most six inputs, into one LUT."""
    def fa(a, b, c):
        return a ^ b ^ c, (a & b) | (c & (a ^ b))

    def ha(a, b):
        return a ^ b, a & b

    n = len(bits)
    if n == 1:
        return [bits[0]]
    if n == 2:
        return list(ha(*bits))
    if n == 3:
        return list(fa(*bits))
    s1, c1 = fa(*bits[:3])
    if n == 4:
        s0, k = ha(s1, bits[3])
        b1, b2 = ha(c1, k)
        return [s0, b1, b2]
    s2, c2 = fa(*bits[3:6]) if n == 6 else ha(*bits[3:5])
    s0, k = ha(s1, s2)
    b1, b2 = fa(c1, c2, k)
    return [s0, b1, b2]


def count_lut6(m, bits: list, name: str, wanted=None) -> list:
    """:func:`count_bits` as one Xilinx ``LUT6`` primitive an output bit (INIT: that bit of the count
    of the inputs I0…, the unused inputs tied to 0), so that no mapper re-cuts a counter level
    (:data:`pairhw.rtl.binary.nets.LUT6_MODEL` is its model elsewhere); only the outputs ``wanted``
    (all by default) are built, the others are 0."""
    n = len(bits)
    if n == 1:
        return [bits[0]]
    outs = []
    for w in range(n.bit_length()):
        if wanted is not None and w not in wanted:  # an output nothing reads: no cell
            outs.append(Const(0, 1))
            continue
        init = sum(((bin(j & ((1 << n) - 1)).count("1") >> w) & 1) << j for j in range(64))
        outs.append(lut6_cell(m, bits, init, f"{name}_lut{w}", f"{name}_b{w}"))
    return outs


def lut6_cell(m, ins: list, init: int, cell: str, out: str):
    """A Xilinx ``LUT6`` primitive (submodule ``cell``, output Signal ``out``) over ``ins``, the
    unused inputs tied to 0."""
    from amaranth.hdl import Instance

    o = Signal(name=out)
    pad = list(ins) + [Const(0, 1)] * (6 - len(ins))
    m.submodules[cell] = Instance("LUT6", p_INIT=Const(init, 64), o_O=o, **{f"i_I{i}": pad[i] for i in range(6)})
    return o


def counter_level(cols: dict, width: int, target: int, make=count_bits) -> dict:
    """One level of counters that leaves at most ``target`` bits in each column where it can:
    columns are taken from the least significant up, knowing how many carries the lower columns'
    counters send in; a column takes just the counters (2 to 6 of its bits each, the largest first)
    that bring its own bits plus those carries down to ``target`` (Dadda's rule, for counters of
    any size).  Columns at or above ``width`` are dropped (the sum is taken mod 2^width)."""
    out: dict = {}
    inc: dict = {}
    for c in sorted(cols):
        rest = list(cols[c])
        need = len(rest) + inc.get(c, 0) - target
        while need > 0 and len(rest) >= 2:
            g = min(need + 1, GROUP, len(rest))
            group, rest = rest[:g], rest[g:]
            need -= g - 1
            for w, bit in enumerate(make(group)):
                if c + w < width:
                    out.setdefault(c + w, []).append(bit)
                    if w:
                        inc[c + w] = inc.get(c + w, 0) + 1
        out.setdefault(c, []).extend(rest)
    return out


def height(cols: dict) -> int:
    return max((len(v) for v in cols.values()), default=0)


def next_target(h: int) -> int:
    """The next level's column height: the largest of 2, 3, 6, 12, 24, … below ``h``.  A column of
    six bits and the carries from below fits three (a 6:3 counter's own bit and one from each of the
    two columns below), and doubling both keeps it so; three bits fit two (a 3:2 counter and the
    carry from the column below), the last level."""
    t = 2 if h <= 3 else 3
    while 2 * t < h:
        t *= 2
    return t


def _dry(group):
    return [None] * (len(group).bit_length())


def plan(heights: dict, width: int) -> int:
    """Counter levels until no column of ``heights`` (column -> bits) holds more than two bits."""
    cols = {c: [None] * h for c, h in heights.items() if h}
    levels = 0
    while height(cols) > 2:
        cols = counter_level(cols, width, next_target(height(cols)), make=_dry)
        levels += 1
    return levels


def reduce_stages(heights: dict, width: int, levels: int) -> int:
    """Register stages :func:`reduce` takes: one after every ``levels`` counter levels."""
    return -(-plan(heights, width) // levels)


def _tagged(cols: dict) -> tuple[dict, int]:
    """Each bit of ``cols`` with an id, column by column from the least significant, bottom up."""
    out, n = {}, 0
    for c in sorted(cols):
        out[c] = [(n + r, v) for r, v in enumerate(cols[c])]
        n += len(cols[c])
    return out, n


def live_bits(heights: dict, width: int, read_from: int = 0) -> tuple[set, set]:
    """The bits of :func:`reduce`'s counter levels over ``heights`` that the two rows' columns at or
    above ``read_from`` depend on: (their ids, as :func:`reduce` numbers them; the (column, row)
    positions of the live bits of the first level).  A counter output depends on all its inputs."""
    cols, n = _tagged({c: [None] * h for c, h in heights.items() if h})
    first = {i: (c, r) for c, bits in cols.items() for r, (i, _) in enumerate(bits)}
    deps: dict = {}

    def make(group):
        nonlocal n
        outs = []
        for _ in range(len(group).bit_length()):
            deps[n] = [i for i, _ in group]
            outs.append((n, None))
            n += 1
        return outs

    while height(cols) > 2:
        cols = counter_level(cols, width, next_target(height(cols)), make=make)
    live = {i for c, bits in cols.items() if c >= read_from for i, _ in bits}
    todo = list(live)
    while todo:
        for j in deps.get(todo.pop(), ()):
            if j not in live:
                live.add(j)
                todo.append(j)
    return live, {first[i] for i in live if i in first}


def reduce(m, pipe: Pipe, cols: dict, width: int, levels: int, name: str, last: bool = True,
           live: set | None = None, lut6: bool = False):
    """Counter levels over ``cols`` (column -> list of 1-bit values) until every column has at most
    two bits, a register after every ``levels`` levels and after the last (unless not ``last``: the
    caller registers the rows, after a level of its own); returns the two rows (``width``-bit
    Signals, their sum ≡ the columns' sum mod 2^width) and the register stages taken.  ``live``: the
    ids of :func:`live_bits` over these columns' heights, when only some of the rows' columns are
    read: the other bits are 0, no logic (default: all are read).

    Every level's bits are kept wires (a Yosys boundary), so that ABC maps each level to one LUT an
    output bit, each a function of at most six bits of the level below, instead of re-cutting the
    levels between two registers into a deeper network (bn254: 9 LUT levels for 5); ``lut6``: each
    counter output is a ``LUT6`` primitive (:func:`count_lut6`), which ABC9, whose mapping may still
    cross kept wires, leaves as it is."""
    if live is None and lut6:  # a counter output above the width is dropped: no LUT6 for it
        live, _ = live_bits({c: len(v) for c, v in cols.items()}, width)
    cols, n = _tagged(cols)

    def make(group):
        nonlocal n
        values = [v for _, v in group]
        if lut6:
            wanted = {w for w in range(len(values).bit_length()) if n + w in live}
            counted = count_lut6(m, values, f"{pipe.prefix}{name}_n{n}", wanted)
        else:
            counted = count_bits(values)
        outs = [(n + w, bit) for w, bit in enumerate(counted)]
        n += len(outs)
        return outs

    stage, level = 0, 0
    while height(cols) > 2:
        cols = counter_level(cols, width, next_target(height(cols)), make=make)
        level += 1
        if (level % levels == 0 or height(cols) <= 2) and (last or height(cols) > 2):
            cols = register_columns(pipe, cols, width, f"{name}_c{stage}", live=live)
            stage += 1
        else:  # named wires between levels: each level's bits are written once, not inlined in the next
            cols = register_columns(pipe, cols, width, f"{name}_w{level}", m=m, live=live)
    rows = []
    for r in range(2):
        s = Signal(width, name=f"{pipe.prefix}{name}_row{r}")
        m.d.comb += s.eq(Cat(*[cols[c][r][1] if len(cols.get(c, ())) > r and (live is None or cols[c][r][0] in live)
                               else Const(0, 1) for c in range(width)]))
        rows.append(s)
    return rows, stage


def register_columns(pipe: Pipe, cols: dict, width: int, name: str, m=None, live=None) -> dict:
    """The bit matrix of (id, bit) pairs registered row by row (row r: the r-th bit of every column
    that has one; a bit whose id is not in ``live`` is 0); with ``m``, put on kept combinational
    Signals of module ``m`` instead (no register)."""
    out: dict = {}
    for r in range(height(cols)):
        present = [c for c in range(width) if len(cols.get(c, ())) > r]
        lo, hi = present[0], present[-1] + 1
        bits = {c: cols[c][r] for c in present}
        value = Cat(*[bits[c][1] if c in bits and (live is None or bits[c][0] in live) else Const(0, 1)
                      for c in range(lo, hi)])
        if m is None:
            reg = pipe.reg(value, hi - lo, f"{name}r{r}")
        else:
            reg = Signal(hi - lo, name=f"{pipe.prefix}{name}r{r}", attrs={"keep": 1})
            m.d.comb += reg.eq(value)
        for c in present:
            out.setdefault(c, []).append((bits[c][0], reg[c - lo]))
    return out


def chains(pieces: list, chain: int, alone=(), step: int = 1) -> tuple[list, int]:
    """The piece products grouped for DSP cascades: pieces of one offset (a column of the bit matrix
    that many pieces start in) in runs of at most ``chain``, each run summed along a chain of DSPs,
    the piece before adding into the next (P ← x·y + P, a DSP48E1's post-adder), a register after
    each.  Returns ([(offset, [pieces])], stages): every run ends at the same stage, a run of r
    pieces starting ``stages`` − r stages in.  ``chain`` 1: each piece alone, one stage (its M
    register).  Pieces (i, j) in ``alone`` are runs of their own (a product by a constant 1 is no
    DSP product, and its sum with a run's would be a carry chain).  ``step``: DSPs between two of a
    run's registers (2: a DSP's P goes on to the next one's adder unregistered, a run of r pieces
    takes ⌈r/2⌉ stages)."""
    if chain == 1:  # the pieces in their own order (as the units without cascades always had them)
        return [(pc[2], [pc]) for pc in pieces], 1 if pieces else 0
    by_off: dict = {}
    for pc in pieces:
        if pc[:2] not in alone:
            by_off.setdefault(pc[2], []).append(pc)
    runs = [(off, group[s:s + chain]) for off, group in sorted(by_off.items()) for s in range(0, len(group), chain)]
    runs += [(pc[2], [pc]) for pc in pieces if pc[:2] in alone]
    return runs, max((-(-len(r) // step) for _, r in runs), default=0)


def run_width(run: list) -> int:
    """Bits of a run's sum: its widest piece and ⌈log2(pieces)⌉ more."""
    return max(pw for *_, pw in run) + (len(run) - 1).bit_length()


#: a DSP48E1's ALU: 48 bits (its P output); a pair's sum must fit it
DSP_ADD_BITS = 48


def _pairable(runs: list, floor: int) -> dict:
    """offset -> the indices of the runs there that reach column ``floor``."""
    by: dict = {}
    for n, (off, run) in enumerate(runs):
        if off + run_width(run) > floor:
            by.setdefault(off, []).append(n)
    return by


def run_pairs(runs: list, floor: int = 0) -> int:
    """How many pairs of runs :func:`pair_runs` can make: two runs of one offset a pair."""
    return sum(len(idx) // 2 for idx in _pairable(runs, floor).values())


def pair_runs(runs: list, pairs: int, floor: int = 0) -> list:
    """The runs (:func:`chains`) in groups whose sums one column holds: ``pairs`` of them two runs of
    one offset, added by a DSP48E1 used as an adder (:func:`dsp_add`), the rest alone.  Only runs
    that reach column ``floor`` pair (below it the caller reads no column: U's low half, whose pieces
    are not built).  Pairs are taken at the offsets with the most runs first (the tallest columns),
    lowest offset first among equals; the groups keep the runs' order (a pair at its first run's
    place)."""
    by = _pairable(runs, floor)
    mate: dict = {}
    for off in sorted(by, key=lambda o: (-len(by[o]), o)):
        idx = by[off]
        for a, b in zip(idx[0::2], idx[1::2]):
            if len(mate) // 2 >= pairs:
                break
            mate[a], mate[b] = b, a
    groups = []
    for n, (off, run) in enumerate(runs):
        if n not in mate:
            groups.append((off, [run]))
        elif mate[n] > n:
            groups.append((off, [run, runs[mate[n]][1]]))
    return groups


def group_width(group: list) -> int:
    """Bits of a group's sum (:func:`pair_runs`): its widest run's and one more for a pair."""
    return max(run_width(run) for run in group) + len(group) - 1


def dsp_add(m, x, y, width: int, name: str, cell: bool = True):
    """x + y (each under 2^47) as a Signal of ``width`` bits: with ``cell``, a Xilinx ``DSP48E1``
    primitive as an adder, no register (P = A:B + C: OPMODE X = A:B, Y = C, Z = 0; ALUMODE 0), so
    that its sum is a cell of one level between the runs' P registers and the counters, not a carry
    chain (:data:`pairhw.rtl.binary.nets.DSP_ADD_MODEL` is its model elsewhere); without, the
    addition itself (the Amaranth simulator has no cell)."""
    from amaranth.hdl import Instance

    assert width <= DSP_ADD_BITS, width
    s = Signal(width, name=f"{name}_sum")
    if not cell:
        m.d.comb += s.eq(x + y)
        return s
    ab = Signal(DSP_ADD_BITS, name=f"{name}_ab")
    c = Signal(DSP_ADD_BITS, name=f"{name}_c")
    p = Signal(DSP_ADD_BITS, name=f"{name}_p")
    m.d.comb += [ab.eq(x), c.eq(y), s.eq(p[:width])]
    regs = ("AREG", "BREG", "CREG", "MREG", "PREG", "ACASCREG", "BCASCREG", "ADREG", "DREG", "ALUMODEREG",
            "CARRYINREG", "CARRYINSELREG", "INMODEREG", "OPMODEREG")
    m.submodules[f"{name}_dsp"] = Instance(
        "DSP48E1", **{f"p_{r}": 0 for r in regs}, p_A_INPUT="DIRECT", p_B_INPUT="DIRECT", p_USE_DPORT="FALSE",
        p_USE_MULT="NONE", p_USE_SIMD="ONE48",
        i_A=ab[18:], i_B=ab[:18], i_C=c, i_OPMODE=Const(0b0001111, 7), i_ALUMODE=Const(0, 4),
        i_INMODE=Const(0, 5), i_CARRYIN=Const(0, 1), i_CARRYINSEL=Const(0, 3), o_P=p)
    return s


def odd_digits(value: int, width: int, count: int) -> list[int]:
    """An odd ``value``'s ``count`` digits of ``width`` bits, each odd, signed in (−2^width, 2^width):
    where a digit is even, the one below lends it 2^width (it goes negative, keeping its parity),
    so the digits still sum to ``value``.  Why: Yosys packs P ← x·K + P into one DSP48E1 (the
    post-adder) only where the constant K is odd; with trailing zero bits, the product's low bits
    are constants, and the adder goes to carry chains."""
    ds = digits(value, width, count)
    for j in range(1, count):
        if ds[j] % 2 == 0:
            ds[j - 1] -= 1 << width
            ds[j] += 1
    return ds


def _layout(xbits: int, ybits: int, xw: int, yw: int, y=None, trunc: int | None = None, pre_add: bool = False,
            chain: int = 1, summed: int | None = None, step: int = 1, pairs: int = 0, floor: int = 0):
    """What :func:`product_columns` builds, and :func:`product_heights` and :func:`product_stages`
    plan: (pieces, x digit widths, y digit widths, y's constant digits, the runs in groups
    (:func:`pair_runs`: ``pairs`` of them two runs a DSP adds, of the runs reaching column
    ``floor``), stages, a constant to add, the width).  With ``chain`` > 1 a constant y takes
    :func:`odd_digits`; a piece of a negative digit −m multiplies m by x's complement x̄ = 2^b − 1 − x (b: x's bits), since
    −x·m = x̄·m − (2^b − 1)·m: every DSP product stays unsigned by a positive odd constant, and
    the constants −(2^b − 1)·m·2^offset, summed mod 2^``summed`` (the width the caller sums the
    columns to, with other rows: the product's own width by default), are one row of constant
    bits.  The last item is the constant's width."""
    const = isinstance(y, int)
    ny = -(-ybits // yw)
    width = trunc if trunc is not None else xbits + ybits + pre_add
    odd = const and chain > 1
    yd = (odd_digits(y, yw, ny) if odd else digits(y, yw, ny)) if const else None
    pieces, xws, yws = product_pieces(xbits, ybits, xw, yw, yd, trunc, pre_add)
    k = 0
    alone = set()
    if odd:  # a negative digit's piece: |digit| bits
        assert yd is not None
        alone = {(i, j) for i, j, _o, _w in pieces if abs(yd[j]) == 1}
        pieces = [(i, j, off, xws[i] + pre_add + abs(yd[j]).bit_length()) for i, j, off, _pw in pieces]
        k = sum(-((1 << (xws[i] + pre_add)) - 1) * -yd[j] << off for i, j, off, _pw in pieces if yd[j] < 0)
        k %= 1 << (summed or width)
    runs, stages = chains(pieces, chain, alone, step)
    return pieces, xws, yws, yd, pair_runs(runs, pairs, floor), stages, k, width, summed or width


def product_heights(xbits: int, ybits: int, xw: int, yw: int, y=None, trunc: int | None = None,
                    pre_add: bool = False, chain: int = 1, summed: int | None = None, pairs: int = 0,
                    floor: int = 0) -> dict:
    """Column -> bits of the piece products (or, with ``chain``, their runs' sums, a pair of runs'
    sum with ``pairs``) of :func:`product_columns` (no logic: for planning)."""
    _p, _x, _y, _d, groups, _s, k, width, kw = _layout(xbits, ybits, xw, yw, y, trunc, pre_add, chain, summed,
                                                       pairs=pairs, floor=floor)
    h: dict = {}
    for off, group in groups:
        for c in range(off, min(off + group_width(group), width)):
            h[c] = h.get(c, 0) + 1
    for c in range(kw):
        if (k >> c) & 1:
            h[c] = h.get(c, 0) + 1
    return h


def product_stages(xbits: int, ybits: int, xw: int, yw: int, y=None, trunc: int | None = None,
                   pre_add: bool = False, chain: int = 1, step: int = 1) -> int:
    """Register stages of :func:`product_columns`: 1 for the pieces; with ``chain``, the longest
    run's, ``step`` DSPs a stage."""
    return _layout(xbits, ybits, xw, yw, y, trunc, pre_add, chain, step=step)[5]


def product_pairs(xbits: int, ybits: int, xw: int, yw: int, y=None, trunc: int | None = None,
                  pre_add: bool = False, chain: int = 1, floor: int = 0) -> int:
    """How many pairs of runs reaching column ``floor`` :func:`product_columns` can sum by DSP
    adders (:func:`run_pairs`; no logic: for planning)."""
    groups = _layout(xbits, ybits, xw, yw, y, trunc, pre_add, chain)[4]  # unpaired: a run a group
    return run_pairs([(off, run) for off, (run,) in groups], floor)


def product_columns(pipe: Pipe, x, xbits: int, y, ybits: int, name: str, xw: int = 24, yw: int = 17,
                    trunc: int | None = None, live: set | None = None, chain: int = 1,
                    summed: int | None = None, step: int = 1, pairs: int = 0, floor: int = 0,
                    cells: bool = True) -> dict:
    """The piece products of x·y (``y`` a Value or an int constant), each registered (one stage:
    the DSP's M register), as columns of bits (mod 2^trunc with ``trunc``).  ``x`` may be a pair of
    ``xbits``-bit rows: each piece then multiplies the sum of their digits (a DSP48E1's pre-adder
    where Yosys packs it, else one short carry chain before the DSP), and no carry runs across x.

    ``chain`` > 1: the pieces of an offset are summed in runs of up to ``chain`` along DSP
    cascades (:func:`chains`; piece t of a run takes its operands t register stages later and adds
    the run's sum so far, P ← x·y + P), so that a column of the bit matrix holds a run's sum where
    it held each piece: the counters that follow have a few bits a column to reduce, not dozens.
    Pieces of one offset need operands whose digit offsets add up to the same bit, as 24 × 16
    digits do (every offset a multiple of 8); the caller picks such digits.  A constant y is cut
    into :func:`odd_digits`, a negative one multiplying x's complement and adding a constant
    row (:func:`_layout`), which takes ``summed``: the width the caller sums the columns to.

    ``pairs``: that many pairs of runs of one offset are each summed by a DSP48E1 used as an adder
    (:func:`pair_runs`, of the runs reaching column ``floor``; :func:`dsp_add`; ``cells`` False: by
    an addition, for the Amaranth simulator), so that a column holds one sum where it held two.

    ``live``: the (column, row) positions read (:func:`live_bits`); a piece (or a run, or a pair)
    with none of them is not built (its bits are 0).  A piece's register is kept whole, so that
    Yosys does not narrow a piece of a few read bits to a multiplier of LUTs (a deep network behind
    the previous sum's carry select, where a DSP48E1 takes the operands as they are)."""
    const = isinstance(y, int)
    pre_add = isinstance(x, tuple)
    pieces, xws, yws, yd, groups, stages, k, width, kw = _layout(xbits, ybits, xw, yw, y, trunc, pre_add, chain,
                                                                summed, step, pairs, floor)
    cols: dict = {}
    late: dict = {}  # (operand, digit, stages) -> the digit that many stages later

    def x_digit(i, stage=0, inverted=False):
        key = ("~x" if inverted else "x", i, stage)
        if key in late:
            return late[key]
        if stage:
            v = pipe.reg(x_digit(i, stage - 1, inverted), xws[i] + pre_add, f"{name}_{'n' if inverted else ''}x{i}d{stage}")
        elif inverted:  # x̄: an inverter a bit (Yosys: INV cells, a LUT each) in front of the DSP
            v = Signal(xws[i] + pre_add, name=f"{pipe.prefix}{name}_nx{i}")
            pipe.m.d.comb += v.eq(~x_digit(i))
        elif pre_add:  # a pre-added digit, once for all its pieces (kept: a carry chain of its own)
            v = Signal(xws[i] + 1, name=f"{pipe.prefix}{name}_xsum{i}", attrs={"keep": 1})
            pipe.m.d.comb += v.eq(x[0][xw * i: xw * i + xws[i]] + x[1][xw * i: xw * i + xws[i]])
        else:
            v = x[xw * i: xw * i + xws[i]]
        late[key] = v
        return v

    def y_digit(i, j, pw, stage=0):
        if const:
            return Const(abs(yd[j]), pw - xws[i] - pre_add)
        if ("y", j, stage) not in late:
            late["y", j, stage] = (pipe.reg(y_digit(i, j, pw, stage - 1), yws[j], f"{name}_y{j}d{stage}") if stage
                                   else y[yw * j: yw * j + yws[j]])
        return late["y", j, stage]

    def run_sum(r, run):
        total = None
        for t, (i, j, _off, pw) in enumerate(run):
            back = (len(run) - 1 - t) // step  # the run's registers after this piece's
            stage = stages - 1 - back
            prod = x_digit(i, stage, const and yd[j] < 0) * y_digit(i, j, pw, stage)
            if chain == 1:
                total = pipe.reg(prod, pw, f"{name}_x{i}y{j}")
                continue
            # the run's sum so far, one DSP48E1 a piece (multiplier, post-adder), registered
            # (its P register) where the next piece is a stage later
            value = prod if total is None else prod + total
            if t == len(run) - 1 or (len(run) - 2 - t) // step != back:
                total = pipe.reg(value, run_width(run[:t + 1]), f"{name}_run{r}p{t}")
            else:
                total = Signal(run_width(run[:t + 1]), name=f"{pipe.prefix}{name}_run{r}s{t}")
                pipe.m.d.comb += total.eq(value)
        assert total is not None
        total.attrs["keep"] = 1
        return total

    r = 0  # the runs numbered as chains() gives them, paired or not
    for off, group in groups:
        span = range(off, min(off + group_width(group), width))
        if live is not None and not any((c, len(cols.get(c, ()))) in live for c in span):
            for c in span:
                cols.setdefault(c, []).append(Const(0, 1))
            r += len(group)
            continue
        sums = [run_sum(r + n, run) for n, run in enumerate(group)]
        total = sums[0] if len(sums) == 1 else dsp_add(pipe.m, sums[0], sums[1], group_width(group),
                                                       f"{pipe.prefix}{name}_pair{r}", cells)
        r += len(group)
        for c in span:
            cols.setdefault(c, []).append(total[c - off])
    for c in range(kw):
        if (k >> c) & 1:
            cols.setdefault(c, []).append(Const(1, 1))
    return cols


def segment_count(width: int, seg: int, cin: bool) -> tuple[int, int]:
    """(the first segment's bits, the number of segments) of :func:`segmented_add`: with a carry
    in, the first segment is a bit shorter, so that its chain (the carry in below, the carry out
    above) is as long as the others'."""
    first = seg - 1 if cin else seg
    return first, 1 + max(0, -(-(width - first) // seg))


def segmented_add(m, pipe: Pipe, x, y, width: int, seg: int, name: str, cin=None):
    """x + y (+ ``cin``, a bit) for ``width``-bit x, y: one register stage of ``seg``-bit carry chains, then logic of
    one carry chain of a bit per segment (see the module docstring); returns (the sum mod 2^width,
    its carry out), combinational after the register: the caller registers them, or feeds them
    to the next product's DSPs."""
    first, n = segment_count(width, seg, cin is not None)
    spans = [(0, min(first, width))] + [(first + seg * j, min(first + seg * (j + 1), width)) for j in range(n - 1)]
    # (A) each segment's sum with a carry in of 0 and of 1, and whether it propagates a carry
    # the first segment takes the carry in (no carry comes into it from below).  A carry in is an
    # operand bit below the LSB, {x, c} + {y, 1}: one carry chain, where x + y + c would be two
    def add(lo, hi, c):
        if c is None:
            return x[lo:hi] + y[lo:hi]
        s = Signal(hi - lo + 2, name=f"{pipe.prefix}{name}_ci{lo}")
        m.d.comb += s.eq(Cat(c, x[lo:hi]) + Cat(Const(1, 1), y[lo:hi]))
        return s[1:]

    s0 = [pipe.reg(add(lo, hi, cin if j == 0 else None), hi - lo + 1, f"{name}_s0_{j}")
          for j, (lo, hi) in enumerate(spans)]
    s1 = [None] + [pipe.reg(add(lo, hi, Const(1, 1)), hi - lo, f"{name}_s1_{j}") for j, (lo, hi) in enumerate(spans)
                   if j]
    prop = pipe.reg(Cat(Const(0, 1), *[(x[lo:hi] ^ y[lo:hi]).all() for lo, hi in spans[1:]]), n, f"{name}_p")
    # (B) the carries into the segments: (g | p) + g carries where a generate runs into propagates;
    # each segment takes the sum its carry in chose
    gen = Signal(n, name=f"{pipe.prefix}{name}_g")
    gp = Signal(n, name=f"{pipe.prefix}{name}_gp")
    tot = Signal(n + 1, name=f"{pipe.prefix}{name}_cs")
    into = Signal(n, name=f"{pipe.prefix}{name}_cin")
    total = Signal(width, name=f"{pipe.prefix}{name}_sum")
    m.d.comb += [gen.eq(Cat(*[s[-1] for s in s0])), gp.eq(gen | prop), tot.eq(gp + gen),
                 into.eq(tot[:n] ^ gp ^ gen),
                 total.eq(Cat(s0[0][:-1], *[Mux(into[j], s1[j], s0[j][:-1]) for j in range(1, n)]))]
    return total, tot[n]


def _lut6(m, ins: list, fn, name: str):
    """:func:`lut6_cell` computing ``fn`` (a function of up to six bits) of ``ins``: its INIT from
    ``fn``'s truth table, so that no mapper re-cuts the level."""
    n = len(ins)
    init = sum(fn([(j >> b) & 1 for b in range(n)]) << j for j in range(1 << n))
    return lut6_cell(m, ins, init, f"{name}_lut", f"{name}_o")


def zero_sum(m, x, y, width: int, name: str, lut6: bool = False):
    """Whether x + y ≡ 0 (mod 2^width): x_0 = y_0 and, above, x_i ⊕ y_i equal to the carry a 0 sum
    bit needs, x_(i−1) | y_(i−1) (no carry chain): each such bit of two neighbouring positions a
    function of six inputs, then ANDs of six, each level on kept wires; with ``lut6``, every level
    LUT6 primitives (ABC9, whose mapping crosses kept wires, maps the plain AND of some netlists to
    a ripple of LUTs).  ⌈log6(width/2)⌉ + 1 LUT levels.  Returns a 1-bit Signal."""
    def ok(i, b):  # the bit of position i from its inputs b = (x_i, y_i, x_(i−1), y_(i−1))
        return 1 - (b[0] ^ b[1]) if i == 0 else 1 - (b[0] ^ b[1] ^ (b[2] | b[3]))

    if lut6:  # two neighbouring positions a LUT6: their bits and the ones below
        cells = []
        for q, i in enumerate(range(0, width, 2)):
            pos = [i, i + 1] if i + 1 < width else [i]
            srcs = sorted({j for p in pos for j in (p, p - 1) if j >= 0})

            def fn(b, pos=pos, srcs=srcs):
                val = {j: (b[2 * k], b[2 * k + 1]) for k, j in enumerate(srcs)}
                return int(all(ok(p, val[p] + (val[p - 1] if p else (0, 0))) for p in pos))
            cells.append(_lut6(m, [v for j in srcs for v in (x[j], y[j])], fn, f"{name}_p{q}"))
        level = Cat(*cells)
    else:
        level = Signal(-(-width // 2), name=f"{name}_p", attrs={"keep": 1})
        zs = []
        for p in range(width):
            zs.append(~(x[0] ^ y[0]) if p == 0 else ~(x[p] ^ y[p] ^ (x[p - 1] | y[p - 1])))
        m.d.comb += level.eq(Cat(*[Cat(*zs[i:i + 2]).all() for i in range(0, width, 2)]))
    n = 0
    while len(level) > 1:
        groups = [level[lo:lo + 6] for lo in range(0, len(level), 6)]
        if lut6:
            level = Cat(*[_lut6(m, [g[b] for b in range(len(g))], lambda b: int(all(b)), f"{name}_a{n}_{i}")
                          for i, g in enumerate(groups)])
        else:
            nxt = Signal(len(groups), name=f"{name}_a{n}", attrs={"keep": 1})
            m.d.comb += nxt.eq(Cat(*[g.all() for g in groups]))
            level = nxt
        n += 1
    out = Signal(name=name)
    m.d.comb += out.eq(level[0])
    return out


def carry_out(m, x, y, width: int, name: str, lut6: bool = False):
    """The carry out of x + y (``width`` bits each) without a carry chain: generate and propagate
    bits of groups of three bits (one LUT6 each), then of three groups at a time (g2 | p2·g1 |
    p2·p1·g0: five inputs), each level on kept wires (one LUT an output bit): ⌈log3(width)⌉ + 1 LUT
    levels, 7 at 391 bits.  With ``lut6``, each output a LUT6 primitive (ABC9 splits some levels
    of the kept wires in two: 9 levels at bn254 in the cascade unit).  Returns a 1-bit Signal."""
    if lut6:
        return _carry_out_lut6(m, x, y, width, name)

    def kept(value, label):
        s = Signal(len(value), name=label, attrs={"keep": 1})
        m.d.comb += s.eq(value)
        return s

    # the first level combines the operands' own generate and propagate bits, unkept (one LUT6 a
    # group of three bits); the next levels the kept bits of the level below
    gs, ps = [x[i] & y[i] for i in range(width)], [x[i] ^ y[i] for i in range(width)]
    level = 0
    while True:
        groups = [range(lo, min(lo + 3, len(gs))) for lo in range(0, len(gs), 3)]
        cg, cp = [], []
        for grp in groups:
            g, p = Const(0, 1), Const(1, 1)
            for i in grp:
                g, p = gs[i] | (ps[i] & g), p & ps[i]
            cg.append(g)
            cp.append(p)
        G, P = kept(Cat(*cg), f"{name}_g{level}"), kept(Cat(*cp), f"{name}_p{level}")
        if len(cg) == 1:
            return G
        gs, ps = [G[i] for i in range(len(cg))], [P[i] for i in range(len(cp))]
        level += 1


def _carry_out_lut6(m, x, y, width: int, name: str):
    """:func:`carry_out` from LUT6 primitives: a group of three bit positions (six operand bits)
    gives its generate and propagate bits, a group of three groups (g2, p2, g1, p1, g0; p2, p1,
    p0) its own, up to one generate bit."""
    def gen(bits):  # bits: (g_or_x, p_or_y) pairs from least significant; raw operands: g = x·y, p = x ⊕ y
        g = 0
        for a, b in bits:
            g = a | (b & g)
        return g

    pairs = [(x[i], y[i]) for i in range(width)]
    raw, level = True, 0
    while True:
        nxt = []
        for n, lo in enumerate(range(0, len(pairs), 3)):
            grp = pairs[lo:lo + 3]
            ins = [v for pr in grp for v in pr]
            if raw:  # from the operand bits: g_i = x_i·y_i, p_i = x_i ⊕ y_i
                fg = (lambda b, k=len(grp): gen([(b[2 * i] & b[2 * i + 1], b[2 * i] ^ b[2 * i + 1]) for i in range(k)]))
                fp = (lambda b, k=len(grp): int(all(b[2 * i] ^ b[2 * i + 1] for i in range(k))))
            else:
                fg = (lambda b, k=len(grp): gen([(b[2 * i], b[2 * i + 1]) for i in range(k)]))
                fp = (lambda b, k=len(grp): int(all(b[2 * i + 1] for i in range(k))))
            g = _lut6(m, ins, fg, f"{name}_g{level}_{n}")
            if len(pairs) <= 3:
                return g
            nxt.append((g, _lut6(m, ins, fp, f"{name}_p{level}_{n}")))
        pairs, raw, level = nxt, False, level + 1


#: register stages of :func:`segmented_add` (its second half is logic after the register)
ADD_STAGES = 1
