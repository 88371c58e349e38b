"""The base-field interface: the only way the engine sees a field.

Every stage of the engine — tracing, folding, lowering, power fusion, scheduling, register
allocation, microcode, the core and its test bench — works on values of one base field (F_2^m,
F_3^m or F_p) through a :class:`BaseField`.  The concrete interfaces live beside the golden model
and the units they describe (:mod:`pairhw.fields`); nothing in :mod:`pairhw.program` imports a
concrete field.

What a field states
    ``width``
        bits of an element in hardware (m for F_2^m; 2m for F_3^m in the two-bit trit encoding).
    ``encode`` / ``decode``
        model value ↔ the ``width``-bit hardware word (register contents, stream I/O, constants).
    ``ops``
        the op kinds the field offers with their arity.  Every field has ``add``, ``mul`` and ``const``
        (arity 0); a traced program may also hold ``addc`` / ``mulc`` (an op with a constant operand,
        lowered to ``const`` + ``add`` / ``mul``).  Characteristic two adds ``sqr``/``sqrt``
        (x^(2^±k)); characteristic three ``sub``, ``neg``, ``cube``/``cbrt`` (x^(3^±k)); F_p ``sub``
        and ``neg``.
    ``powers``
        each k-fold power op and its inverse op: x^(p^−n) = x^(p^(m−n)) for the Frobenius powers of
        F_{p^m}, which lets :mod:`pairhw.program.fuse` move a chain to the other unit.
    scaled unit kinds
        a unit kind with ``scaled`` computes k·x for each small constant k of its ``ks`` (F_p's
        ``mulk``): like a power, its op carries k and the word selects the network; unlike a power
        it is not fused (:meth:`BaseField.takes_k`).
    ``unit_kinds``
        each unit kind a datapath may hold, with the op kinds it executes (the first is its own;
        a unit of several ops has an op-select field in the microcode word) and its input ports.
    ``apply``
        each op's value, taken from the golden model.
    ``tracer`` / ``curve_over``
        a look-alike of the model field that records ops (:mod:`pairhw.program.trace`), and the
        model's curve rebuilt over it, so that the model's own pairing code is traced.
    ``make_mul`` / ``build_unit``
        the hardware: a multiplier by catalogue name, and the Amaranth component of a unit.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass


class FieldInterfaceError(ValueError):
    """A field cannot do what was asked of it (no such op, no units for it yet)."""


@dataclass(frozen=True)
class UnitKind:
    """A unit kind of a field: the op kinds it executes (its own first) and its input ports."""

    ops: tuple
    ports: int
    power: bool = False  # a k-fold power unit: one network per k, selected per word
    scaled: bool = False  # a small-constant unit: k·x for each k of its ks, selected per word
    started: bool = False  # a multi-cycle unit: a start pulse, the result ``latency`` cycles later


class BaseField:
    """Base of the field interfaces (see the module docstring); subclasses fill in the tables."""

    family: str = ""
    #: op kind -> arity (number of field operands); ``const`` has none.
    ops: dict = {}
    #: power op kind -> its inverse op kind.
    powers: dict = {}
    #: unit kind -> :class:`UnitKind`.
    unit_kinds: dict = {}
    #: the model's 0 and 1
    zero = 0
    one = 1
    #: the op kinds of the scaled unit kinds (:meth:`takes_k`; set per class on first use)
    _scaled_ops: frozenset = frozenset()
    #: op kind -> the model field's method computing it (a power's method takes k as well)
    methods: dict = {}
    #: the model field's (to text, from text) methods of the CLI's element form
    text_methods = ("to_hex", "from_hex")
    #: the module holding the family's pairings (``ALGORITHMS``) and its multiplier catalogue (``make_unit``)
    pairings_module = ""
    catalogue_module = ""

    def __init__(self, F):
        self.F = F  # the golden model's field (opaque to the engine)

    # -- sizes -------------------------------------------------------------------------------------
    @property
    def m(self) -> int:
        """Extension degree (x^(p^m) = x): what power fusion reduces exponents modulo."""
        return self.F.m

    @property
    def width(self) -> int:
        raise NotImplementedError

    @property
    def name(self) -> str:
        raise NotImplementedError

    # -- values ------------------------------------------------------------------------------------
    def encode(self, v) -> int:
        """The hardware word of a model value."""
        raise NotImplementedError

    def decode(self, word: int):
        """The model value of a hardware word."""
        raise NotImplementedError

    def text(self, v) -> str:
        """A model value as the CLI writes it (hex, trits)."""
        return getattr(self.F, self.text_methods[0])(v)

    def parse(self, text: str):
        """A model value from the CLI's text form (raises the model's FieldError)."""
        return getattr(self.F, self.text_methods[1])(text)

    def word_hex(self, v) -> str:
        """The hardware word of ``v`` in hex, ⌈width/4⌉ digits (test-bench vector files)."""
        return f"{self.encode(v):0{-(-self.width // 4)}x}"

    def random(self, rng):
        return self.F.random(rng)

    def apply(self, kind: str, args, k: int = 1, const=None):
        """The value of one op on model values: the golden model's method for it (:attr:`methods`)."""
        try:
            fn = getattr(self.F, self.methods[kind])
        except KeyError:
            raise ValueError(f"unknown op {kind!r} in {self.name}") from None
        return fn(*args, k) if self.takes_k(kind) else fn(*args)

    def takes_k(self, kind: str) -> bool:
        """Whether op ``kind`` carries a k its unit selects per word: a k-fold power, or a product by
        the small constant k (a ``scaled`` unit kind's op)."""
        cls = type(self)
        if "_scaled_ops" not in cls.__dict__:  # once per field class: Microcode.run asks per op and cycle
            cls._scaled_ops = frozenset(op for u in self.unit_kinds.values() if u.scaled for op in u.ops)
        return kind in self.powers or kind in cls._scaled_ops

    def arity(self, kind: str) -> int:
        try:
            return self.ops[kind]
        except KeyError:
            raise FieldInterfaceError(f"{self.name} has no op {kind!r}; ops: {', '.join(self.ops)}") from None

    def is_power(self, kind: str) -> bool:
        return kind in self.powers

    def unit_kind(self, kind: str) -> UnitKind:
        try:
            return self.unit_kinds[kind]
        except KeyError:
            raise FieldInterfaceError(f"unknown unit kind {kind!r} for {self.name}; kinds: "
                                      f"{', '.join(self.unit_kinds)}") from None

    # -- tracing -----------------------------------------------------------------------------------
    def tracer(self, optimize: bool = True):
        """A :class:`pairhw.program.trace.Tracer` that looks like the model field."""
        raise NotImplementedError

    def curve_over(self, C, TF):
        """A copy of curve ``C`` whose field is the tracer ``TF``."""
        raise NotImplementedError

    def flatten(self, value) -> list:
        """The base-field coefficients of a pairing value, in output order."""
        return list(value)

    #: the names of the pairing's inputs (base-field values), in stream order
    pairing_inputs = ("xP", "yP", "xQ", "yQ")

    def points(self, syms):
        """(P, Q) from the input values in :attr:`pairing_inputs` order."""
        return (syms[0], syms[1]), (syms[2], syms[3])

    def point_values(self, P, Q) -> list:
        """The inverse of :meth:`points`: the base-field values of P and Q in input order."""
        return [*P, *Q]

    def check_points(self, C, P, Q) -> None:
        """Raise the model's PointError unless P and Q are points of the pairing's groups."""
        C.check(P)
        C.check(Q)

    def vector_points(self, C, seed: int, i: int):
        """The i-th pair (P, Q) of ``pairhw vectors --seed S`` on curve ``C``."""
        from pairhw.vectors import points

        return points(C, seed, i)

    def algorithm(self, name: str):
        """A pairing of the family's ``ALGORITHMS`` table by name."""
        from pairhw.names import current

        return importlib.import_module(self.pairings_module).ALGORITHMS[current(name)]

    #: how many independent pairings one run of a core computes (:meth:`with_batch`)
    batch = 1

    @property
    def unbatched(self) -> "BaseField":
        """The interface of one pairing of a batch (this one when it is not a batch)."""
        return self

    def with_batch(self, k: int):
        """This interface for a core that computes ``k`` independent pairings in one run
        (:class:`Batched`): one program, so the scheduler fills one pairing's idle multiplier slots
        with the others' products."""
        return self if k == 1 else Batched(self, k)

    # -- hardware ----------------------------------------------------------------------------------
    def for_datapath(self, spec: dict) -> "BaseField":
        """The interface a datapath of ``spec`` (a design's ``datapath`` dictionary) works in: this one,
        unless the family keeps values in another word form for some multipliers (F_p: seed 002's
        coefficient form)."""
        return self

    #: Verilog functions a core test bench needs for :meth:`tb_differ` (none: words compare as bits)
    tb_functions = ""
    #: how a core's outputs agree with the model when its test bench passes (``pairhw sim``'s wording)
    agreement = "bit-exact"

    def tb_differ(self, got: str, expected: str) -> str:
        """A Verilog expression, true when the words ``got`` and ``expected`` (M-bit expressions of a
        core test bench) are different field elements: a word form with one word per element
        compares bits."""
        return f"{got} !== {expected}"

    def make_mul(self, kind: str, **options):
        """A multiplier unit of this field by catalogue name (latency, initiation_interval, a, b, c)."""
        if not self.catalogue_module:
            raise FieldInterfaceError(f"no multiplier units for {self.name} yet")
        return importlib.import_module(self.catalogue_module).make_unit(kind, self.F, **options)

    def build_unit(self, spec):
        """The Amaranth component of a non-multiplier, non-constant unit ``spec`` (a UnitSpec)."""
        raise FieldInterfaceError(f"no {spec.kind} units for {self.name} yet")

    def no_options(self, spec) -> None:
        """Refuse options for a unit built without any (``spec.options``, e.g. ``"add": {...}``)."""
        if spec.options:
            raise FieldInterfaceError(f"the {'adder' if spec.kind == 'add' else spec.kind + ' unit'} of "
                                      f"{self.name} takes no options ({', '.join(k for k, _ in spec.options)})")


class Batched:
    """``k`` independent pairings of the interface ``inner`` as one program (a design's ``batch``).

    Its inputs are the k pairings' inputs in turn (``xP_b0 … yQ_b0, xP_b1 …``), its "points" the
    k-tuples (P_0, …, P_{k−1}) and (Q_0, …, Q_{k−1}), its algorithm the k pairings, its outputs their
    values in turn; everything else (ops, units, encodings, tracing) is the inner interface's.  A
    wrapper rather than a subclass, so that the three families batch alike; a module-level class, so
    that compiled programs stay picklable.
    """

    def __init__(self, inner, k: int):
        self.inner, self.batch = inner, k

    def __getattr__(self, name):
        if name.startswith("__") or name == "inner":  # pickling and copying look these up first
            raise AttributeError(name)
        return getattr(self.inner, name)

    @property
    def unbatched(self):
        return self.inner

    def with_batch(self, k: int):
        return self.inner.with_batch(k)

    @property
    def pairing_inputs(self) -> tuple:
        return tuple(f"{x}_b{j}" for j in range(self.batch) for x in self.inner.pairing_inputs)

    def _split(self, values) -> list:
        n = len(self.inner.pairing_inputs)
        return [values[n * j:n * j + n] for j in range(self.batch)]

    def points(self, syms):
        pts = [self.inner.points(s) for s in self._split(syms)]
        return tuple(P for P, _ in pts), tuple(Q for _, Q in pts)

    def point_values(self, P, Q) -> list:
        return [v for Pj, Qj in zip(P, Q) for v in self.inner.point_values(Pj, Qj)]

    def check_points(self, C, P, Q) -> None:
        for Pj, Qj in zip(P, Q):
            self.inner.check_points(C, Pj, Qj)

    def vector_points(self, C, seed: int, i: int):
        """Run i of a batch: the inner interface's vectors i·k … i·k + k − 1 of ``seed``."""
        pts = [self.inner.vector_points(C, seed, i * self.batch + j) for j in range(self.batch)]
        return tuple(P for P, _ in pts), tuple(Q for _, Q in pts)

    def algorithm(self, name: str):
        fn = self.inner.algorithm(name)
        return lambda C, Ps, Qs: tuple(fn(C, P, Q) for P, Q in zip(Ps, Qs))

    def flatten(self, values) -> list:
        return [c for v in values for c in self.inner.flatten(v)]
