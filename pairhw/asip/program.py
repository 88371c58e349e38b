"""Nagl et al.'s word-serial ASIP (seed 003 Fig. 1): one arithmetic unit, single-port memories.

Every F_2^m value lives in one of two single-port data memories of N-bit words (a value is W = ⌈m/N⌉
consecutive words, a *slot*), or in a constant ROM of the same shape.  One instruction per field
operation (the "assembler-like metacode" of seed 003 §IV) runs in phases, one at a time, through a
result register R shared by the adder, the squarer, the square root and the multiplier (Fig. 1c):

========  =================================================================  ==========
phase     what it does                                                       cycles
========  =================================================================  ==========
``a``     read the words of operand a into R (into the multiplicand register  W + 1
          A for a digit-serial product); an addition whose b sits in the
          other memory or the constant ROM XORs b's words in on the way
``b``     R ^= the words of b (b in the same memory as a, or a in R)         W + 1
``x``     execute: a k-fold square or square root (one step per cycle), a    k, T + 1 or
          digit-serial product (T = ⌈m/D⌉ digit steps, b's words read from  the unit's
          memory as seed 003 does), or the iterative Karatsuba unit's
          microcode (operands read word by word from both memories)
``w``     write R's words to the result's slot (to both memories at once     W
          when the value is kept in both)
========  =================================================================  ==========

A read phase takes W + 1 cycles because the memories are synchronous (data one cycle after the
address).  A value used only by the next instruction stays in R (*chaining*: that instruction has
no ``a`` phase and the value no ``w`` phase), and a chain of squarings or square roots is one
instruction with its count k.  The Miller loop's body is kept twice (even and odd trips), so the
values a trip hands to the next alternate between two sets of slots and no copy is needed.

The instruction list is the one model of the hardware: :meth:`AsipProgram.run` executes it word by
word (values bit-exact, cycles exact) and :class:`pairhw.cores.asip.AsipCore` holds it in its ROM.
"""

from __future__ import annotations

from typing import Any
from dataclasses import dataclass

from pairhw.program.stream import StreamInterface
from pairhw.program.lower import Flow, lower
from pairhw.program.loop import fold_loop
from pairhw.program.trace import const_text, trace_pairing
from pairhw.program.word import WordLayout

#: instruction-word codes of the ops and operand sources (:meth:`AsipProgram.rom_words`)
OPS = {"add": 0, "sqr": 1, "sqrt": 2, "mul": 3}
SRCS = {"r": 0, "m0": 1, "m1": 2, "c": 3}
#: the op kinds the ASIP executes (everything else is expanded by the tracer)
NATIVE = frozenset({"add", "mul", "sqr", "sqrt", "const"})
#: the multiplier kinds of an ASIP and what they are
MUL_KINDS = {
    "iter-karatsuba": "Nagl et al.'s iterative Karatsuba (K153: core 153, three steps; K77: core 77, four)",
    "lsd": "Nagl et al. Alg. 1: least-significant-digit-first, digit D (LSD11, LSD9, LSD7)",
    "lsb": "bit-serial (LSD with D = 1: LSB153, LSB77)",
}


class AsipError(ValueError):
    """An ASIP configuration that cannot work (the message says which key and why)."""


@dataclass(frozen=True)
class Loc:
    """Where an operand is read: ``r`` (the result register), ``m0``/``m1`` (a data memory) or ``c``
    (the constant ROM), with its slot."""

    src: str
    slot: int = 0

    def text(self, W: int) -> str:
        if self.src == "r":
            return "R"
        base = self.slot * W
        return f"{self.src.upper()}[{base}:{base + W}]"


@dataclass(frozen=True)
class Instr:
    op: str  # add | sqr | sqrt | mul
    a: Loc
    b: Loc | None
    k: int
    wb: tuple  # the memories (0, 1) the result is written to; () keeps it in R for the next one
    d: int  # the result's slot
    name: str  # the program's value (listing)
    srcs: tuple  # the program's operand names (listing)

    @property
    def par(self) -> bool:
        """An addition whose ``a`` phase reads b in parallel (b in the other memory or the ROM)."""
        return (self.op == "add" and self.a.src != "r" and self.b is not None
                and self.b.src != self.a.src)


@dataclass(frozen=True)
class AsipConfig:
    """Word width, multiplier, field.  ``mul`` is the built multiplier unit (its microcode for
    iter-karatsuba, its digit for lsd/lsb)."""

    fi: Any
    word: int
    kind: str
    digit: int = 1
    mul: Any = None

    @property
    def m(self) -> int:
        return self.fi.width

    @property
    def W(self) -> int:
        """Memory words per field element."""
        return -(-self.m // self.word)

    @property
    def steps(self) -> int:
        """Digit steps of a digit-serial product (⌈m/D⌉)."""
        return -(-self.m // self.digit)

    @property
    def product_cycles(self) -> int:
        """The x phase of a product.  Digit-serial: one cycle to address b's first word, then a digit
        step a cycle.  Iterative Karatsuba: the unit's microcode (II cycles, one word pair each), one
        cycle for the synchronous read, the unit's pipeline until the reduced product is on its output
        (latency − II, :meth:`IterKaratsubaMul.attach`), where R takes it."""
        return self.mul.latency + 1 if self.kind == "iter-karatsuba" else self.steps + 1

    def x_cycles(self, ins: Instr) -> int:
        if ins.op in ("sqr", "sqrt"):
            return ins.k
        return self.product_cycles if ins.op == "mul" else 0

    def phases(self, ins: Instr) -> list:
        """(phase, cycles) of one instruction, in order (the module docstring's table)."""
        W = self.W
        out = []
        if ins.a.src != "r":
            if not (ins.op == "mul" and self.kind == "iter-karatsuba"):
                out.append(("a", W + 1))
        if ins.op == "add" and not ins.par:
            out.append(("b", W + 1))
        x = self.x_cycles(ins)
        if x:
            out.append(("x", x))
        if ins.wb:
            out.append(("w", W))
        return out

    def cycles(self, ins: Instr) -> int:
        return sum(c for _, c in self.phases(ins))


def asip_config(fi, spec: dict) -> AsipConfig:
    """An :class:`AsipConfig` from a design's ``asip`` object ``{"word": N, "mul": {"kind": ...}}``."""
    if fi.family != "binary":
        raise AsipError(f"asip: the word-serial processor is for binary fields (F_2^m), not {fi.name}")
    mul = dict(spec.get("mul", {}))
    kind = mul.pop("kind", None)
    if kind not in MUL_KINDS:
        raise AsipError(f"asip.mul.kind: {kind!r} is not an ASIP multiplier; kinds: {', '.join(MUL_KINDS)}")
    word = spec.get("word")
    digit = 1
    unit = None
    if kind == "iter-karatsuba":
        extra = set(mul) - {"core"}
        if extra:
            raise AsipError(f"asip.mul: iter-karatsuba takes only core, not {', '.join(sorted(extra))}")
        try:
            unit = fi.make_mul("iter-karatsuba", **mul)
        except ValueError as e:
            raise AsipError(f"asip.mul: {e}") from None
        if word is None:
            word = unit.word
        if word != unit.word:
            raise AsipError(f"asip.word: iter-karatsuba {mul.get('core', 153)} reads {unit.word}-bit words at "
                            f"m = {fi.width}, not {word}")
        if unit.plan.n // unit.word < -(-fi.width // word):
            raise AsipError("asip: the Karatsuba plan covers fewer words than an element")
    else:
        if kind == "lsd":
            if set(mul) != {"digit"}:
                raise AsipError("asip.mul: lsd takes exactly one option, digit")
            digit = mul["digit"]
        elif mul:
            raise AsipError("asip.mul: lsb takes no options")
        if not isinstance(word, int) or isinstance(word, bool) or word < 1:
            raise AsipError("asip.word: the memory word width N, an integer ≥ 1, is required for lsd and lsb")
        if not isinstance(digit, int) or isinstance(digit, bool) or not 1 <= digit <= word or word % digit:
            raise AsipError(f"asip.mul.digit: the digit size must divide the word width {word} "
                            f"(a digit is read from one memory word), not {digit!r}")
    if word > fi.width:
        raise AsipError(f"asip.word: {word} is wider than an element ({fi.width} bits)")
    return AsipConfig(fi, word, kind, digit, unit)


# -- the compiler -------------------------------------------------------------------------------------


@dataclass
class AsipProgram:
    cfg: AsipConfig
    flow: Flow
    pre: list  # of Instr
    body: tuple  # (even trips, odd trips): lists of Instr
    post: list
    pairs: int  # repeats of the even+odd body pair
    extra: bool  # one more even body after the pairs (odd trip count)
    consts: list  # constant ROM values, slot order
    inputs: list  # (name, rams, slot)
    outputs: list  # Loc of each output
    slots: int  # slots per data memory

    # -- the instruction stream ----------------------------------------------------------------
    def rom(self) -> list:
        """The instruction ROM: pre, even body, odd body, (even body again), post."""
        e, o = self.body
        return self.pre + e + o + (e if self.extra else []) + self.post

    @property
    def loop(self) -> tuple | None:
        """(first, last) ROM index of the repeated pair and its repeat count (None without a loop)."""
        if not self.pairs:
            return None
        s = len(self.pre)
        return (s, s + 2 * len(self.body[0]) - 1, self.pairs)

    def executed(self):
        """The instructions in execution order (a generator)."""
        e, o = self.body
        yield from self.pre
        for _ in range(self.pairs):
            yield from e
            yield from o
        if self.extra:
            yield from e
        yield from self.post

    @property
    def run_overhead(self) -> int:
        """Cycles of the run besides the instructions: the first output word's read."""
        return 1

    @property
    def cycles(self) -> int:
        """Cycles from the cycle after the last input word to the first output word."""
        return sum(self.cfg.cycles(i) for i in self.executed()) + self.run_overhead

    def cycles_by_op(self) -> dict:
        """Cycles spent per op kind (the write-back of a result counted with its op)."""
        out: dict = {}
        n: dict = {}
        for ins in self.executed():
            out[ins.op] = out.get(ins.op, 0) + self.cfg.cycles(ins)
            n[ins.op] = n.get(ins.op, 0) + (ins.k if ins.op in ("sqr", "sqrt") else 1)
        return {k: {"ops": n[k], "cycles": out[k]} for k in sorted(out)}

    # -- the instruction words ------------------------------------------------------------------
    @property
    def stream(self) -> StreamInterface:
        """The core's stream interface: N-bit words, W per element
        (:class:`~pairhw.program.stream.CompiledProgram`)."""
        return StreamInterface(self.cfg.fi, self.cfg.word, len(self.inputs), len(self.outputs))

    def fields(self) -> WordLayout:
        """The instruction word's layout."""
        rom = self.rom()
        sbits = max(self.slots, len(self.consts), 2).bit_length()
        xmax = max([self.cfg.x_cycles(i) for i in rom] + [1])
        return WordLayout([("op", 2), ("asrc", 2), ("aslot", sbits), ("bsrc", 2), ("bslot", sbits),
                           ("pha", 1), ("phb", 1), ("par", 1), ("xlen", xmax.bit_length()), ("wb", 2),
                           ("dslot", sbits), ("last", 1)])

    def encode(self, ins: Instr, last: bool) -> dict:
        """The field values of one instruction (the phases' presence and the x phase's length)."""
        ph = dict(self.cfg.phases(ins))
        return {"op": OPS[ins.op], "asrc": SRCS[ins.a.src], "aslot": ins.a.slot,
                "bsrc": SRCS[ins.b.src] if ins.b else 0, "bslot": ins.b.slot if ins.b else 0,
                "pha": int("a" in ph), "phb": int("b" in ph), "par": int(ins.par),
                "xlen": ph.get("x", 0), "wb": sum(1 << r for r in ins.wb), "dslot": ins.d, "last": int(last)}

    def encoded(self) -> list:
        """The field values of every ROM word (:meth:`encode`), the last one marked."""
        rom = self.rom()
        return [self.encode(ins, n == len(rom) - 1) for n, ins in enumerate(rom)]

    def rom_words(self) -> list:
        """The instruction ROM's words."""
        layout = self.fields()
        return [layout.pack(vals) for vals in self.encoded()]

    def rom_listing(self, title: str = "") -> str:
        """The instruction ROM: address, word, fields."""
        layout = self.fields()
        width = layout.width
        out = [f"; {title}" if title else "; instruction ROM",
               f"; {len(self.rom())} words x {width} bits; fields (lsb first): "
               + ", ".join(f"{n}:{w}" for n, w in layout)]
        if self.loop:
            out.append(f"; loop: words {self.loop[0]}..{self.loop[1]} repeated {self.loop[2]} times")
        for n, vals in enumerate(self.encoded()):
            out.append(f"{n:5d}  {layout.pack(vals):0{-(-width // 4)}x}  "
                       + " ".join(f"{k}={v}" for k, v in vals.items()))
        return "\n".join(out)

    def words(self, v: int) -> list:
        """A W-word element value as its N-bit memory words, least significant first."""
        W, N = self.cfg.W, self.cfg.word
        return [(v >> (N * w)) & ((1 << N) - 1) for w in range(W)]

    def const_words(self) -> list:
        """The constant ROM's words, slot by slot."""
        return [x for v in self.consts for x in self.words(v)]

    # -- the model -----------------------------------------------------------------------------
    def run(self, values: list) -> tuple[list, int]:
        """Execute the ROM on the inputs (field elements in ``inputs`` order) word by word: the
        outputs (field elements) and the cycles.  Bit- and cycle-exact model of
        :class:`~pairhw.cores.asip.AsipCore` (its cycles do not depend on the values)."""
        cfg, fi = self.cfg, self.cfg.fi
        W, N = cfg.W, cfg.word
        mem = [[0] * (self.slots * W) for _ in range(2)]
        crom = self.const_words()
        words = self.words

        def value(ws):
            return sum(x << (N * i) for i, x in enumerate(ws))

        def read(loc: Loc):
            if loc.src == "c":
                return crom[loc.slot * W:(loc.slot + 1) * W]
            return mem[int(loc.src[1])][loc.slot * W:(loc.slot + 1) * W]

        for (name, rams, slot), v in zip(self.inputs, values):
            for r in rams:
                mem[r][slot * W:(slot + 1) * W] = words(fi.encode(v))
        R = 0
        for ins in self.executed():
            a = R if ins.a.src == "r" else value(read(ins.a))
            if ins.op == "add":
                R = a ^ value(read(ins.b))
            elif ins.op == "mul":
                R = fi.encode(fi.apply("mul", [fi.decode(a), fi.decode(value(read(ins.b)))]))
            else:
                R = fi.encode(fi.apply(ins.op, [fi.decode(a)], ins.k))
            for r in ins.wb:
                mem[r][ins.d * W:(ins.d + 1) * W] = words(R)
        return [fi.decode(value(read(o))) for o in self.outputs], self.cycles

    # -- listings and report -------------------------------------------------------------------
    def listing(self, title: str = "") -> str:
        """The program as seed 003's metacode: one line per field operation with its operand
        addresses, word counts and cycles."""
        cfg = self.cfg
        W = cfg.W
        out = [f"; {title}" if title else "; ASIP program",
               f"; {cfg.m}-bit elements as {W} words of {cfg.word} bits; memories M0, M1: {self.slots} slots "
               f"({self.slots * W} words) each; constant ROM C: {len(self.consts)} slot(s)",
               f"; multiplier {cfg.kind}" + (f" D={cfg.digit}" if cfg.kind == "lsd" else "")
               + f"; {self.cycles} cycles per pairing",
               "; op     dst              a                b                k     cycles  value"]
        for name, rams, slot in self.inputs:
            out.append(f"; input {name} -> " + ", ".join(Loc(f"m{r}", slot).text(W) for r in rams))
        for i, c in enumerate(self.consts):
            out.append(f"; const C slot {i} = {const_text(cfg.fi, c)}")
        e, o = self.body
        loop = f" x{self.pairs}"
        blocks = [("pre:", self.pre), ("loop even trips:" + loop, e), ("loop odd trips:" + loop, o)]
        if self.extra:
            blocks.append(("loop even (last trip):", e))
        blocks.append(("post:", self.post))
        for label, block in blocks:
            out.append(label)
            for ins in block:
                dst = " & ".join(Loc(f"m{r}", ins.d).text(W) for r in ins.wb) or "R"
                b = ins.b.text(W) if ins.b else "-"
                out.append(f"  {ins.op:6} {dst:16} {ins.a.text(W):16} {b:16} {ins.k:<5} {cfg.cycles(ins):<7} "
                           f"{ins.name} = {ins.op}{'' if ins.k == 1 else '^' + str(ins.k)} {', '.join(ins.srcs)}")
        out.append("outputs: " + ", ".join(o.text(W) for o in self.outputs))
        return "\n".join(out)

    def report(self) -> dict:
        cfg = self.cfg
        rom = self.rom()
        ops = self.cycles_by_op()
        per_product = cfg.product_cycles
        products = ops.get("mul", {}).get("ops", 0)
        return {
            "cycles": self.cycles,
            "products": products,
            "multiplier_bound": products * per_product,
            "multiplier_utilisation": round(products * per_product / self.cycles, 4),
            "processor": "asip",
            "word": cfg.word, "words_per_element": cfg.W,
            "multiplier": {"kind": cfg.kind, **({"digit": cfg.digit} if cfg.kind == "lsd" else {}),
                           "cycles_per_product": per_product},
            "ops": ops,
            "instructions": len(rom),
            "loop": {"trips": self.flow.trips, "iterations_per_trip": self.flow.period,
                     "pairs": self.pairs, "extra_trip": self.extra},
            "memory": {"slots": self.slots, "words": self.slots * cfg.W, "bits": 2 * self.slots * cfg.W * cfg.word,
                       "constant_words": len(self.consts) * cfg.W},
        }


def compile_asip(C, algorithm, cfg: AsipConfig) -> AsipProgram:
    """Trace ``algorithm`` on curve ``C`` and compile it for the ASIP ``cfg``."""
    flow = lower(fold_loop(trace_pairing(cfg.fi, C, algorithm, native=NATIVE)))
    return _Compiler(cfg, flow).program()


class _Compiler:
    """pre, the body twice (even and odd trips) and post in one linear order; every operand resolved
    to the definition it reads; chaining, memories and slots decided on that order."""

    def __init__(self, cfg: AsipConfig, flow: Flow):
        self.cfg, self.flow = cfg, flow

    @staticmethod
    def _fuse(ops, keep):
        """Merge a power op into the next one of the same kind when that op is its only reader (and
        it is not in ``keep``): one instruction with k = the chain's length."""
        readers: dict = {}
        for i, op in enumerate(ops):
            for s, dist in op.srcs:
                if dist == 0:
                    readers.setdefault(s, []).append(i)
        out: list = []
        for i, op in enumerate(ops):
            if (out and op.kind in ("sqr", "sqrt") and out[-1].kind == op.kind
                    and op.srcs == ((out[-1].dst, 0),) and readers.get(out[-1].dst) == [i]
                    and out[-1].dst not in keep):
                prev = out.pop()
                op = type(op)(op.dst, op.kind, prev.srcs, prev.k + op.k, None)
            out.append(op)
        return out

    def program(self) -> AsipProgram:
        cfg, flow = self.cfg, self.flow
        outs = {o for o in flow.outputs if isinstance(o, str)}
        keep_pre = set(flow.init.values()) | {s for op in flow.body for s, _ in op.srcs} \
            | {s for op in flow.post for s, _ in op.srcs} | outs
        keep_body = set(flow.final.values()) | {s for op in flow.body for s, d in op.srcs if d}
        pre = self._fuse(flow.pre, keep_pre)
        body = self._fuse(flow.body, keep_body) if flow.trips else []
        post = self._fuse(flow.post, outs)
        const_of = {op.dst: op.const for blk in (pre, body, post) for op in blk if op.kind == "const"}
        consts: dict = {}
        for blk in (pre, body, post):
            for op in blk:
                if op.kind == "const":
                    consts.setdefault(op.const, len(consts))
        for o in flow.outputs:
            if not isinstance(o, str):
                consts.setdefault(o, len(consts))
        trips = flow.trips if body else 0
        pairs, extra = trips // 2, bool(trips % 2)
        copies = ["e", "o"] * (1 if pairs else 0) + (["x"] if extra else [])

        def real(blk):
            return [op for op in blk if op.kind != "const"]

        pre_r, body_r, post_r = real(pre), real(body), real(post)
        order = ([("p", op) for op in pre_r] + [(c, op) for c in copies for op in body_r]
                 + [("q", op) for op in post_r])
        n_pre, n_body = len(pre_r), len(body_r)
        start_e = n_pre
        end_loop = n_pre + len(copies) * n_body - 1
        last_copy = copies[-1] if copies else None

        def bk(c):
            return "e" if c == "x" else c

        def key_of_def(c, name):
            return (bk(c), name) if c in ("e", "o", "x") else ("g", name)

        defs: dict = {("g", n): [-1] for n in flow.inputs}
        for i, (c, op) in enumerate(order):
            defs.setdefault(key_of_def(c, op.dst), []).append(i)

        def before(key, i):
            return max(p for p in defs[key] if p < i)

        def resolve(i, c, s, dist):
            """The definitions (key, position) an operand of op i in copy c reads."""
            if s in const_of:
                return []
            if c in ("p", "q"):
                key = (bk(last_copy), flow.final[s]) if c == "q" and s in flow.final else ("g", s)
                return [(key, before(key, i))]
            if dist == 0:
                key = (bk(c), s) if s.startswith("@") else ("g", s)
                return [(key, before(key, i))]
            init = ("g", flow.init[s])
            if c == "o":
                return [(("e", s), before(("e", s), i))]
            if "o" in copies:
                if c == "x":
                    return [(("o", s), before(("o", s), i))]
                return [(init, defs[init][0]), (("o", s), defs[("o", s)][0])]
            return [(init, defs[init][0])]

        # a carried value shares its slot with its initial value (the even copy reads either)
        parent: dict = {}

        def find(x):
            while parent.get(x, x) != x:
                x = parent[x]
            return x

        if copies:
            for b, init in flow.init.items():
                a, z = find(("g", init)), find(("o" if "o" in copies else "e", b))
                if a != z:
                    parent[z] = a
        reads: dict = {}  # (key, def position) -> positions of its reads
        ivs: dict = {}  # key -> live intervals (doubled time: def at 2d+1, read at 2i)
        for i, (c, op) in enumerate(order):
            for s, dist in op.srcs:
                for key, d in resolve(i, c, s, dist):
                    reads.setdefault((key, d), []).append(i)
                    if d > i:  # the odd copy's value through the back edge
                        ivs.setdefault(key, []).extend([(2 * d + 1, 2 * end_loop + 1), (2 * start_e - 1, 2 * i)])
                    elif c in ("e", "o", "x") and key[0] == "g" and dist == 0:  # loop-invariant
                        ivs.setdefault(key, []).append((2 * d + 1, 2 * end_loop + 1))
                    else:
                        ivs.setdefault(key, []).append((2 * d + 1, 2 * i))
        out_defs = []
        for o in flow.outputs:
            if isinstance(o, str) and o not in const_of:
                key = (bk(last_copy), flow.final[o]) if o in flow.final else ("g", o)
                d = max(defs[key])
                out_defs.append((key, d))
                reads.setdefault((key, d), []).append(len(order))
                ivs.setdefault(key, []).append((2 * d + 1, 2 * len(order) + 1))
        grouped = {k for k in parent} | set(parent.values())

        # chaining: a definition read once, by the next instruction of the same block, which can take
        # it from R (an iterative Karatsuba product reads both operands from memory)
        def chainable(i):
            c, op = order[i]
            key = key_of_def(c, op.dst)
            if i + 1 >= len(order) or order[i + 1][0] != c or key in grouped:
                return False
            if reads.get((key, i)) != [i + 1]:
                return False
            nxt = order[i + 1][1]
            return not (nxt.kind == "mul" and cfg.kind == "iter-karatsuba")

        chained = {i for i in range(len(order)) if chainable(i)}
        for j in range(n_body):  # every copy of a body op must agree (the copies share their words)
            pos = [n_pre + ci * n_body + j for ci in range(len(copies))]
            if not all(p in chained for p in pos):
                chained -= set(pos)
        stored = ({find(key_of_def(c, op.dst)) for i, (c, op) in enumerate(order) if i not in chained}
                  | {find(("g", n)) for n in flow.inputs})
        live: dict = {}
        for key, iv in ivs.items():
            if find(key) in stored:
                live.setdefault(find(key), []).extend(iv)
        for key in stored:
            live.setdefault(key, [(0, 0)])

        def operand_keys(i):
            c, op = order[i]
            out = []
            for s, dist in op.srcs:
                r = resolve(i, c, s, dist)
                if r and not (r[0][1] == i - 1 and (i - 1) in chained):
                    out.append(find(r[0][0]))
            return out

        # memories: the Karatsuba unit reads a and b at once (they must be in different memories);
        # an addition of two stored values takes one read phase instead of two when they differ
        hard: dict = {}
        soft: dict = {}
        for i, (c, op) in enumerate(order):
            ks = operand_keys(i)
            if op.kind in ("add", "mul") and len(ks) == 2 and ks[0] != ks[1]:
                tgt = hard if op.kind == "mul" and cfg.kind == "iter-karatsuba" else soft
                tgt.setdefault(ks[0], []).append(ks[1])
                tgt.setdefault(ks[1], []).append(ks[0])
        by_start = sorted(stored, key=lambda k: (min(lo for lo, _ in live[k]), str(k)))
        ram: dict = {}
        for key in by_start:
            cost = [0, 0]
            for r in (0, 1):
                cost[r] += 1000 * sum(ram.get(y) == (r,) for y in hard.get(key, []))
                cost[r] += sum(ram.get(y) == (r,) for y in soft.get(key, []))
            r = 0 if cost[0] <= cost[1] else 1
            ram[key] = (0, 1) if min(cost) >= 1000 else (r,)
        for key, ys in hard.items():  # a later value may have made an earlier one's pair collide
            for y in ys:
                if len(ram[key]) == 1 and ram[key] == ram[y]:
                    ram[y] = (0, 1)

        # slots: first fit in order of the first live point, the same index in each of its memories
        occ: dict = {0: {}, 1: {}}
        slot: dict = {}

        def clash(a, b):
            return any(lo <= h2 and lo2 <= hi for lo, hi in a for lo2, h2 in b)

        for key in by_start:
            s = 0
            while any(clash(live[key], other) for r in ram[key] for other in occ[r].get(s, [])):
                s += 1
            slot[key] = s
            for r in ram[key]:
                occ[r].setdefault(s, []).append(live[key])

        def instr(i):
            c, op = order[i]
            locs: list = []
            for s, dist in op.srcs:
                if s in const_of:
                    locs.append(Loc("c", consts[const_of[s]]))
                    continue
                key, d = resolve(i, c, s, dist)[0]
                if d == i - 1 and (i - 1) in chained:
                    locs.append(Loc("r"))
                else:
                    locs.append(("mem", find(key)))
            names = [s for s, _ in op.srcs]
            if len(locs) == 2 and (locs[1] == Loc("r") or (isinstance(locs[0], Loc) and locs[0].src == "c")):
                locs, names = locs[::-1], names[::-1]
            # each stored operand's memory: different ones when both operands have a choice
            cands = [[l] if isinstance(l, Loc) else [Loc(f"m{r}", slot[l[1]]) for r in ram[l[1]]] for l in locs]
            pairs_ = [(x, y) for x in cands[0] for y in cands[1]] if len(cands) == 2 else [(x,) for x in cands[0]]
            chosen = next((p for p in pairs_ if len(p) == 1 or p[0].src != p[1].src), pairs_[0])
            a, b = chosen[0], chosen[1] if len(chosen) == 2 else None
            if op.kind == "mul" and cfg.kind == "iter-karatsuba" and b is not None \
                    and (a.src == b.src or "r" in (a.src, b.src)):
                raise AssertionError(f"{op.dst}: the Karatsuba unit's operands must be in different memories")
            key = find(key_of_def(c, op.dst))
            wb, d = ((), 0) if i in chained else (ram[key], slot[key])
            return Instr(op.kind, a, b, op.k, wb, d, op.dst, tuple(names))

        ins = [instr(i) for i in range(len(order))]
        pre_i, post_i = ins[:n_pre], ins[n_pre + len(copies) * n_body:]
        bodies = {c: ins[n_pre + ci * n_body:n_pre + (ci + 1) * n_body] for ci, c in enumerate(copies)}
        if "x" in bodies and "e" in bodies and bodies["x"] != bodies["e"]:
            raise AssertionError("the last even trip's instructions differ from the even body's")
        e, o = bodies.get("e", bodies.get("x", [])), bodies.get("o", [])
        inputs = [(n, ram[find(("g", n))], slot[find(("g", n))]) for n in flow.inputs]
        outputs = []
        od = iter(out_defs)
        for o_ in flow.outputs:
            if isinstance(o_, str) and o_ in const_of:
                outputs.append(Loc("c", consts[const_of[o_]]))
            elif isinstance(o_, str):
                key = find(next(od)[0])
                outputs.append(Loc(f"m{ram[key][0]}", slot[key]))
            else:
                outputs.append(Loc("c", consts[o_]))
        return AsipProgram(cfg, flow, pre_i, (e, o), post_i, pairs, extra,
                           [v for v, _ in sorted(consts.items(), key=lambda kv: kv[1])],
                           inputs, outputs, max([s + 1 for s in slot.values()] or [1]))
