"""Trace a golden-model pairing into a straight-line program of F_2^m operations.

The model's code runs unchanged on a :class:`TraceField`, whose values are :class:`Sym` names: every
product, squaring, square root and addition is recorded as an :class:`Op`, while operations on
constants are folded.  A value-dependent branch on a traced value raises :class:`TraceError`, so a
program that traces is the same for every input (the constant-time property of the cores).

Ops (``Op.kind``): ``add`` (a + b), ``addc`` (a + constant), ``mul`` (a·b), ``mulc`` (a·constant),
``sqr`` (a^(2^k)), ``sqrt`` (a^(2^-k)), ``const`` (a constant).  ``k`` is 1 as traced; a later pass
may fuse chains into k-fold units.
"""

from __future__ import annotations

from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field

from pairhw.math.binary.field import GF2m


class TraceError(RuntimeError):
    """The traced code branched on a value (or did something a program cannot express)."""


class Sym:
    """A traced F_2^m value: the name of the op (or input) that produced it."""

    __slots__ = ("tr", "name")

    def __init__(self, tr: "TraceField", name: str):
        self.tr = tr
        self.name = name

    def __xor__(self, other):
        return self.tr.add(self, other)

    __rxor__ = __xor__

    def __bool__(self):
        raise TraceError(f"branch on the traced value {self.name}")

    def __eq__(self, other):
        if isinstance(other, Sym):
            return self is other
        raise TraceError(f"comparison of the traced value {self.name} with a constant")

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"Sym({self.name})"


@dataclass(frozen=True)
class Op:
    dst: str
    kind: str
    srcs: tuple
    k: int = 1
    const: int | None = None
    phase: str = ""

    def text(self, F: GF2m | None = None) -> str:
        c = "" if self.const is None else (F.to_hex(self.const).lstrip("0") or "0") if F else hex(self.const)
        if self.kind == "const":
            return f"{self.dst} = const 0x{c}"
        if self.kind in ("addc", "mulc"):
            return f"{self.dst} = {self.kind[:3]} {self.srcs[0]}, 0x{c}"
        if self.kind in ("sqr", "sqrt"):
            return f"{self.dst} = {self.kind}{'' if self.k == 1 else '^' + str(self.k)} {self.srcs[0]}"
        return f"{self.dst} = {self.kind} {', '.join(self.srcs)}"


def apply_op(F: GF2m, kind: str, args, k: int = 1, const: int | None = None) -> int:
    """The value of one op on concrete operands ``args``."""
    if kind == "add":
        return args[0] ^ args[1]
    if kind == "addc":
        return args[0] ^ const
    if kind == "mul":
        return F.mul(args[0], args[1])
    if kind == "mulc":
        return F.mul(args[0], const)
    if kind == "sqr":
        return F.sqr_k(args[0], k)
    if kind == "sqrt":
        return F.sqrt_k(args[0], k)
    if kind == "const":
        return const
    raise ValueError(f"unknown op {kind!r}")  # pragma: no cover - ops are made by TraceField


def run_ops(F: GF2m, ops, env: dict) -> None:
    """Interpret ``ops`` in order, reading and writing values by name in ``env``."""
    for op in ops:
        env[op.dst] = apply_op(F, op.kind, [env[x] for x in op.srcs], op.k, op.const)


@dataclass
class Program:
    """A straight-line program: ``inputs`` are names, ``outputs`` are names or constants (ints)."""

    F: GF2m
    inputs: list
    ops: list = field(default_factory=list)
    outputs: list = field(default_factory=list)
    marks: list = field(default_factory=list)  # op indices where a loop iteration starts

    def counts(self, prefix: str = "") -> Counter:
        """Ops per kind (squarings and square roots weighted by k) under a phase prefix."""
        c = Counter()
        for op in self.ops:
            if not prefix or op.phase == prefix or op.phase.startswith(prefix + "/"):
                c[op.kind] += op.k if op.kind in ("sqr", "sqrt") else 1
        return c

    def run(self, values: dict) -> list:
        """Interpret the program with the real field (the check that tracing lost nothing)."""
        env = dict(values)
        run_ops(self.F, self.ops, env)
        return [env[o] if isinstance(o, str) else o for o in self.outputs]

    def listing(self) -> str:
        """Readable assembly-like text, one op per line, phases as comments."""
        lines, phase = [], None
        lines.append(f"; inputs: {', '.join(self.inputs)}")
        for op in self.ops:
            if op.phase != phase:
                phase = op.phase
                lines.append(f"; -- {phase or '(top)'}")
            lines.append("    " + op.text(self.F))
        outs = [o if isinstance(o, str) else f"0x{o:x}" for o in self.outputs]
        lines.append(f"; outputs: {', '.join(outs)}")
        return "\n".join(lines)


class TraceField:
    """A :class:`~pairhw.math.binary.field.GF2m` look-alike that records operations on :class:`Sym` values."""

    def __init__(self, F: GF2m, optimize: bool = True):
        self._F = F
        self.m, self.mask, self.middle, self.chain = F.m, F.mask, F.middle, F.chain
        self.program = Program(F, [])
        self.optimize = optimize
        self._stack: list[str] = []
        self._n = 0
        self._seen: dict = {}  # common subexpressions: key -> Sym
        self._addc: dict = {}  # name of an addc result -> (base Sym, constant)

    def __getattr__(self, name):  # to_hex, poly_str, ...: pass through
        return getattr(self._F, name)

    @contextmanager
    def _ctx(self, name):
        self._stack.append(name)
        try:
            yield
        finally:
            self._stack.pop()

    def phase(self, name: str):
        return self._ctx(name)

    def mark(self, label: str) -> None:
        """A loop iteration starts here (see :func:`pairhw.program.loop.fold_loop`)."""
        self.program.marks.append(len(self.program.ops))

    def input(self, name: str) -> Sym:
        self.program.inputs.append(name)
        return Sym(self, name)

    def _emit(self, kind, srcs, k=1, const=None) -> Sym:
        names = tuple(s.name for s in srcs)
        if self.optimize:
            if kind == "addc" and names[0] in self._addc:  # (x + c1) + c2 = x + (c1 + c2)
                base, c0 = self._addc[names[0]]
                const ^= c0
                if const == 0:
                    return base
                srcs, names = (base,), (base.name,)
            key = (kind, tuple(sorted(names)) if kind in ("add", "mul") else names, k, const)
            if key in self._seen:
                return self._seen[key]
        name = f"v{self._n}"
        self._n += 1
        self.program.ops.append(Op(name, kind, names, k, const, "/".join(self._stack)))
        out = Sym(self, name)
        if self.optimize:
            self._seen[key] = out
            if kind == "addc":
                self._addc[name] = (srcs[0], const)
        return out

    def _check(self, x):
        if isinstance(x, Sym):
            if x.tr is not self:
                raise TraceError("value from another trace")
            return x
        if not isinstance(x, int):
            raise TraceError(f"cannot trace a {type(x).__name__}")
        return x & self.mask

    # -- operations ----------------------------------------------------------------------------
    def add(self, a, b):
        a, b = self._check(a), self._check(b)
        if isinstance(a, int) and isinstance(b, int):
            return a ^ b
        if isinstance(a, int):
            a, b = b, a
        if isinstance(b, int):
            return a if b == 0 else self._emit("addc", (a,), const=b)
        if a is b:
            return 0
        return self._emit("add", (a, b))

    def mul(self, a, b):
        a, b = self._check(a), self._check(b)
        if isinstance(a, int) and isinstance(b, int):
            return self._F.mul(a, b)
        if isinstance(a, int):
            a, b = b, a
        if isinstance(b, int):
            if b == 0:
                return 0
            return a if b == 1 else self._emit("mulc", (a,), const=b)
        return self._emit("mul", (a, b))

    def _repeat(self, kind: str, a, k: int):
        """k single squarings or square roots (constants fold through the real field)."""
        a = self._check(a)
        if isinstance(a, int):
            return apply_op(self._F, kind, [a], k)
        for _ in range(k):
            a = self._emit(kind, (a,))
        return a

    def sqr_k(self, a, k: int):
        return self._repeat("sqr", a, k)

    def sqrt_k(self, a, k: int):
        return self._repeat("sqrt", a, k)

    def sqr(self, a):
        return self.sqr_k(a, 1)

    def sqrt(self, a):
        return self.sqrt_k(a, 1)

    def inv(self, a):
        a = self._check(a)
        if isinstance(a, int):
            return self._F.inv(a)
        return self._F.chain.run(self, a)  # Itoh–Tsujii, traced op by op

    def pow(self, a, e):  # pragma: no cover - not used by the traced pairings
        raise TraceError("pow is not traced")

    def const(self, c: int) -> Sym:
        return self._emit("const", (), const=c & self.mask)


def trace_kernel(F: GF2m, inputs, fn, optimize: bool = True) -> Program:
    """Trace ``fn(TF, *values)`` on symbolic field elements named ``inputs`` (a list of names, or a
    count n for ``a0`` … ``a(n-1)``); ``fn`` returns the outputs.  Besides the pairings, for
    measuring one operation on a datapath: an inversion, an F_{2^4m} product."""
    TF = TraceField(F, optimize)
    names = [f"a{i}" for i in range(inputs)] if isinstance(inputs, int) else list(inputs)
    out = fn(TF, *[TF.input(x) for x in names])
    TF.program.outputs = [o.name if isinstance(o, Sym) else o for o in out]
    return TF.program


def trace_pairing(C, algorithm, optimize: bool = True) -> Program:
    """Trace ``algorithm(C', P, Q)`` (a :data:`pairhw.math.binary.pairing.ALGORITHMS` function) with symbolic
    inputs ``xP, yP, xQ, yQ``; outputs are the four F_2^m coefficients of the pairing value.

    With ``optimize``, constant additions are folded ((x + c1) + c2 = x + (c1 + c2)) and repeated
    operations on the same operands are computed once; without it, the program has exactly the
    model's operations (the counts of :mod:`pairhw.math.opcount`).
    """
    from pairhw.math.binary.curve import Curve2

    def fn(TF, xP, yP, xQ, yQ):
        return algorithm(Curve2(TF, C.b, C.order, C.r, name=C.name), (xP, yP), (xQ, yQ))

    return trace_kernel(C.F, ["xP", "yP", "xQ", "yQ"], fn, optimize)
