"""The field interface of F_3^m (characteristic three).

Ops: ``add``, ``sub``, ``neg``, ``mul``, ``cube`` / ``cbrt`` (x^(3^±k), linear); products by ±1 are
free in tracing (a product by −1 is a ``neg``, and a ``neg`` feeding an addition becomes a
subtraction).  A hardware word is the two-bit trit encoding of :mod:`pairhw.params`: 2m bits, the
L word (bit i set iff a_i = 1) in bits 0..m−1 and the H word (bit i set iff a_i = 2) in bits
m..2m−1.  Units (:mod:`pairhw.rtl.ternary`): an adder that also subtracts and negates (selected per
word), cubing and cube-root networks with k-fold powers, and the multipliers of
:mod:`pairhw.rtl.ternary.catalogue` (schoolbook, Beuchat et al.'s pipelined Karatsuba, digit-serial).
"""

from __future__ import annotations

from pairhw.math.ternary.curve import Curve3
from pairhw.math.ternary.field import itoh_tsujii3
from pairhw.program.field import BaseField, UnitKind
from pairhw.program.trace import Tracer


class TernaryTracer(Tracer):
    """A :class:`~pairhw.math.ternary.field.GF3m` look-alike that records F_3^m operations."""

    def __init__(self, fi, optimize: bool = True):
        super().__init__(fi, optimize)
        self._negated: dict = {}  # name of a neg result -> the Sym it negates
        self._minus_one = fi.F.neg(fi.F.ONE)

    def neg(self, a):
        a = self._check(a)
        if isinstance(a, int):
            return self._F.neg(a)
        if self.optimize and a.name in self._negated:
            return self._negated[a.name]
        out = self._emit("neg", (a,))
        self._negated[out.name] = a
        return out

    def _add_syms(self, a, b):
        if self.optimize:  # a + (−b) = a − b
            if b.name in self._negated:
                return self.sub(a, self._negated[b.name])
            if a.name in self._negated:
                return self.sub(b, self._negated[a.name])
        if a is b:  # 2a = −a
            return self.neg(a)
        return self._emit("add", (a, b))

    def sub(self, a, b):
        a, b = self._check(a), self._check(b)
        if isinstance(b, int):
            return self.add(a, self._F.neg(b))
        if isinstance(a, int):
            return self.add(self.neg(b), a)
        if a is b:
            return self.fi.zero
        if self.optimize and b.name in self._negated:  # a − (−b) = a + b
            return self.add(a, self._negated[b.name])
        return self._emit("sub", (a, b))

    def _mul_const(self, a, c):
        if c == self._minus_one:
            return self.neg(a)
        return super()._mul_const(a, c)

    def sqr(self, a):
        return self.mul(a, a)

    def cube_k(self, a, k: int):
        return self._power("cube", a, k)

    def cbrt_k(self, a, k: int):
        return self._power("cbrt", a, k)

    def cube(self, a):
        return self.cube_k(a, 1)

    def cbrt(self, a):
        return self.cbrt_k(a, 1)

    def inv(self, a):
        a = self._check(a)
        if isinstance(a, int):
            return self._F.inv(a)
        return itoh_tsujii3(self, a)  # traced op by op


class TernaryField(BaseField):
    """F_3^m for the engine (see the module docstring)."""

    family = "ternary"
    ops = {"add": 2, "sub": 2, "neg": 1, "mul": 2, "cube": 1, "cbrt": 1, "const": 0}
    powers = {"cube": "cbrt", "cbrt": "cube"}
    unit_kinds = {
        "mul": UnitKind(("mul",), 2, started=True),
        "add": UnitKind(("add", "sub", "neg"), 2),
        "cube": UnitKind(("cube",), 1, power=True),
        "cbrt": UnitKind(("cbrt",), 1, power=True),
        "const": UnitKind(("const",), 0),
    }
    methods = {"add": "add", "sub": "sub", "neg": "neg", "mul": "mul", "cube": "cube_k", "cbrt": "cbrt_k"}
    text_methods = ("to_trits", "from_trits")
    pairings_module = "pairhw.math.ternary.pairing"
    catalogue_module = "pairhw.rtl.ternary.catalogue"

    @property
    def width(self) -> int:
        return 2 * self.F.m

    @property
    def name(self) -> str:
        return f"F_3^{self.F.m}"

    def encode(self, v: int) -> int:
        h, l = self.F.to_hl(v)
        return l | (h << self.F.m)

    def decode(self, word: int) -> int:
        m = self.F.m
        return self.F.from_hl((word >> m, word & ((1 << m) - 1)))


    def tracer(self, optimize: bool = True):
        return TernaryTracer(self, optimize)

    def curve_over(self, C, TF):
        return Curve3(TF, C.b, C.r, name=C.name)

    def build_unit(self, spec):
        from pairhw.rtl.ternary.adder import AddSub3
        from pairhw.rtl.ternary.powers import PowerUnit3

        if spec.kind == "add":
            self.no_options(spec)
            return AddSub3(self.F)
        return PowerUnit3(self.F, spec.kind, spec.ks, stages=dict(spec.options).get("stages", 0))


