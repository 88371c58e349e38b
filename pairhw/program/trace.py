"""Trace a golden-model pairing into a straight-line program of base-field operations.

The model's code runs unchanged on a :class:`Tracer`, a look-alike of the model's field (each
field interface, :mod:`pairhw.program.field`, gives its own with the model's method names) whose
values are :class:`Sym` names: every product, power and addition is recorded as an :class:`Op`, while
operations on constants are folded through the real field.  A value-dependent branch on a traced
value raises :class:`TraceError`, so a program that traces is the same for every input (the
constant-time property of the cores).

Ops (``Op.kind``): the field's op kinds (``add``, ``mul``, ``sqr``/``sqrt`` or ``cube``/``cbrt``,
``sub``, ``neg``, with ``k`` the fold of a power: 1 as traced, a later pass may fuse chains), plus
``addc`` (a + constant), ``mulc`` (a·constant) and ``const`` (a constant).
"""

from __future__ import annotations

from collections import Counter
from typing import Any
from contextlib import contextmanager
from dataclasses import dataclass, field


class TraceError(RuntimeError):
    """The traced code branched on a value (or did something a program cannot express)."""


class Sym:
    """A traced F_2^m value: the name of the op (or input) that produced it."""

    __slots__ = ("tr", "name")

    def __init__(self, tr: "Tracer", name: str):
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

    def text(self, fi=None) -> str:
        """Assembly-like text; constants through the field interface ``fi`` (its CLI form)."""
        c = "" if self.const is None else const_text(fi, self.const)
        if self.kind == "const":
            return f"{self.dst} = const {c}"
        if self.kind in ("addc", "mulc"):
            return f"{self.dst} = {self.kind[:3]} {self.srcs[0]}, {c}"
        return f"{self.dst} = {op_body(self.kind, self.srcs, self.k)}"


def op_body(kind: str, srcs, k: int = 1, sep: str = ", ") -> str:
    """An op's text after ``=`` in every listing: ``mulk a, 9`` (a product by the small constant k),
    ``sqr^2 a`` (a k-fold power), ``add a, b`` (the sources joined by ``sep``)."""
    if kind == "mulk":
        return f"mulk {sep.join(srcs)}, {k}"
    return f"{kind}{'' if k == 1 else '^' + str(k)} {sep.join(srcs)}"


def const_text(fi, c) -> str:
    """A constant in listings: 0x + the hardware word's hex without leading zeros."""
    return "0x" + ((f"{fi.encode(c):x}" if fi is not None else f"{c:x}").lstrip("0") or "0")


def apply_op(fi, kind: str, args, k: int = 1, const=None):
    """The value of one op on concrete operands ``args`` (``addc``/``mulc`` through ``add``/``mul``)."""
    if kind == "addc":
        return fi.apply("add", [args[0], const])
    if kind == "mulc":
        return fi.apply("mul", [args[0], const])
    if kind == "const":
        return const
    return fi.apply(kind, args, k)


def run_ops(fi, ops, env: dict) -> None:
    """Interpret ``ops`` in order, reading and writing values by name in ``env``."""
    for op in ops:
        env[op.dst] = apply_op(fi, op.kind, [env[x] for x in op.srcs], op.k, op.const)


@dataclass
class Program:
    """A straight-line program: ``inputs`` are names, ``outputs`` are names or constants (ints)."""

    F: Any  # the field interface (pairhw.program.field.BaseField)
    inputs: list
    ops: list = field(default_factory=list)
    outputs: list = field(default_factory=list)
    marks: list = field(default_factory=list)  # op indices where a loop iteration starts
    mark_phase: str = ""  # the phase the iterations run in (the loop ends where it does)
    cuts: list = field(default_factory=list)  # op indices where a model step begins or ends (``step``)

    def counts(self, prefix: str = "") -> Counter:
        """Ops per kind (powers weighted by k) under a phase prefix."""
        c: Counter = Counter()
        for op in self.ops:
            if not prefix or op.phase == prefix or op.phase.startswith(prefix + "/"):
                c[op.kind] += op.k if self.F.is_power(op.kind) else 1
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
        outs = [o if isinstance(o, str) else const_text(self.F, o) for o in self.outputs]
        lines.append(f"; outputs: {', '.join(outs)}")
        return "\n".join(lines)


class Tracer:
    """What every field's tracer shares: names, phases, loop marks, and recording an op with common
    subexpressions shared and constant additions merged.  A family's tracer (its field interface's
    :meth:`~pairhw.program.field.BaseField.tracer`) adds the model field's method names on top, folding
    operations on constants through the real field ``_F``; everything else passes through to it.

    ``const_neutral(kind, c)``, ``merge_addc(c0, c1)`` are the family's algebra of constants.
    """

    def __init__(self, fi, optimize: bool = True):
        self.fi = fi
        self._F = fi.F
        self.program = Program(fi, [])
        self.optimize = optimize
        self._stack: list[str] = []
        self._n = 0
        self._seen: dict = {}  # common subexpressions: key -> Sym
        #: op kinds the target datapath executes natively beyond the basic ones (e.g. ``inv``): a
        #: family's tracer emits such an op instead of expanding it
        self.native: frozenset = frozenset()
        self._addc: dict = {}  # name of an addc result -> (base Sym, constant)
        #: the model copies an exponentiation's table operand before each product (:meth:`copy`;
        #: a datapath's ``table_copies``)
        self.copies = False
        #: the model copies the powers a BLS12 final exponentiation keeps before their late reads
        #: (:meth:`~pairhw.math.prime.tower.Tower12.kept12`; a datapath's ``kept_copies``)
        self.kept_copies = False
        #: BLS12: the hard part's first squarings that overlap the final exponentiation's inversion
        #: (:func:`~pairhw.math.prime.pairing.final_exp_overlapped_bls12`; a datapath's
        #: ``inverse_window``; 0: the inverse first)
        self.inverse_window = 0

    def __getattr__(self, name):  # to_hex, poly_str, ZERO, ...: pass through
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

    @contextmanager
    def step(self, name: str):
        """A step the model repeats (``F.step``): the program is cut where it begins and ends, so a
        core with ``calls`` schedules it on its own and shares the words of identical steps."""
        self.program.cuts.append(len(self.program.ops))
        try:
            yield
        finally:
            self.program.cuts.append(len(self.program.ops))

    def mark(self, label: str) -> None:
        """A loop iteration starts here (see :func:`pairhw.program.loop.fold_loop`)."""
        self.program.marks.append(len(self.program.ops))
        self.program.mark_phase = "/".join(self._stack)

    def copy(self, a) -> Sym | int:
        """A new value equal to ``a``: ``addc a, 0``, never folded into ``a`` nor shared with another
        copy, so that it takes a register of its own (a constant is its own copy)."""
        a = self._check(a)
        if isinstance(a, int):
            return a
        opt, self.optimize = self.optimize, False
        try:
            return self._emit("addc", (a,), const=self.fi.zero)
        finally:
            self.optimize = opt

    def input(self, name: str) -> Sym:
        self.program.inputs.append(name)
        return Sym(self, name)

    def _emit(self, kind, srcs, k=1, const=None) -> Sym:
        names = tuple(s.name for s in srcs)
        if self.optimize:
            if kind == "addc" and names[0] in self._addc:  # (x + c1) + c2 = x + (c1 + c2)
                base, c0 = self._addc[names[0]]
                const = self.fi.apply("add", [const, c0])
                if const == self.fi.zero:
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
        return self._canon(x)

    def _canon(self, x: int) -> int:
        """A constant in the model's canonical form."""
        return x

    # -- the ops every field has ---------------------------------------------------------------------
    def add(self, a, b):
        a, b = self._check(a), self._check(b)
        if isinstance(a, int) and isinstance(b, int):
            return self.fi.apply("add", [a, b])
        if isinstance(a, int):
            a, b = b, a
        if isinstance(b, int):
            return a if b == self.fi.zero else self._emit("addc", (a,), const=b)
        return self._add_syms(a, b)

    def _add_syms(self, a, b):
        return self._emit("add", (a, b))

    def mul(self, a, b):
        a, b = self._check(a), self._check(b)
        if isinstance(a, int) and isinstance(b, int):
            return self.fi.apply("mul", [a, b])
        if isinstance(a, int):
            a, b = b, a
        if isinstance(b, int):
            return self._mul_const(a, b)
        return self._emit("mul", (a, b))

    def _mul_const(self, a, c):
        if c == self.fi.zero:
            return self.fi.zero
        return a if c == self.fi.one else self._emit("mulc", (a,), const=c)

    def _power(self, kind: str, a, k: int):
        """k single powers (constants fold through the real field)."""
        a = self._check(a)
        if isinstance(a, int):
            return self.fi.apply(kind, [a], k)
        for _ in range(k):
            a = self._emit(kind, (a,))
        return a

    def pow(self, a, e):  # pragma: no cover - not used by the traced pairings
        raise TraceError("pow is not traced")


def trace_kernel(fi, inputs, fn, optimize: bool = True, native=frozenset(), copies: bool = False,
                 inverse_window: int = 0, kept_copies: bool = False) -> Program:
    """Trace ``fn(TF, *values)`` on symbolic elements of the field ``fi`` (an interface of
    :mod:`pairhw.program.field`) named ``inputs`` (a list of names, or a count n for ``a0`` …
    ``a(n-1)``); ``fn`` returns the outputs.  Besides the pairings, for measuring one operation on a
    datapath: an inversion, an F_{2^4m} product.  ``copies``: :attr:`Tracer.copies`;
    ``inverse_window``: :attr:`Tracer.inverse_window`; ``kept_copies``: :attr:`Tracer.kept_copies`."""
    TF = fi.tracer(optimize)
    TF.native = frozenset(native)
    TF.copies = copies
    TF.inverse_window = inverse_window
    TF.kept_copies = kept_copies
    names = [f"a{i}" for i in range(inputs)] if isinstance(inputs, int) else list(inputs)
    out = fn(TF, *[TF.input(x) for x in names])
    TF.program.outputs = [o.name if isinstance(o, Sym) else o for o in out]
    return TF.program


def trace_pairing(fi, C, algorithm, optimize: bool = True, native=frozenset(), copies: bool = False,
                  inverse_window: int = 0, kept_copies: bool = False) -> Program:
    """Trace ``algorithm(C', P, Q)`` (a pairing of the model, on curve ``C`` rebuilt over the tracer
    of the field interface ``fi``) with symbolic inputs, the interface's ``pairing_inputs`` (``xP, yP,
    xQ, yQ``, or the six F_p values of a G1 × G2 pair); the outputs are the base-field coefficients of
    the pairing value (``fi.flatten``).

    With ``optimize``, constant additions are folded ((x + c1) + c2 = x + (c1 + c2)) and repeated
    operations on the same operands are computed once; without it, the program has exactly the
    model's operations (the counts of :mod:`pairhw.math.opcount`).  ``native``: op kinds the target
    datapath executes (:attr:`Tracer.native`); ``copies``: an exponentiation's products read copies of
    their table operand (:attr:`Tracer.copies`); ``inverse_window``: the final exponentiation's
    squarings that overlap its inversion (:attr:`Tracer.inverse_window`); ``kept_copies``: the powers a
    BLS12 final exponentiation keeps are copied before their late reads (:attr:`Tracer.kept_copies`).
    """

    def fn(TF, *inputs):
        return fi.flatten(algorithm(fi.curve_over(C, TF), *fi.points(inputs)))

    return trace_kernel(fi, list(fi.pairing_inputs), fn, optimize, native, copies, inverse_window, kept_copies)
