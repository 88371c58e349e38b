"""The field interface of F_p (prime fields): ops and encodings for the engine.

Ops: ``add``, ``sub``, ``neg``, ``mul`` (and products by constants as ``mulc``; by a small constant k
as ``mulk`` when the datapath has a unit for k, else doublings and additions); a hardware
word is the canonical integer in [0, p), ⌈log2 p⌉ bits; text is big-endian hex.  Units
(:mod:`pairhw.rtl.prime`): the multipliers of :mod:`pairhw.rtl.prime.catalogue` (Montgomery,
pipelined and iterative; seed 002's polynomial Montgomery multiplier) and an adder that also
subtracts and negates, all on fully reduced words.  The Montgomery units compute a·b·R⁻¹: a core
keeps its values in Montgomery form, which comes with the pairing cores (issue 20).
"""

from __future__ import annotations

from pairhw.program.field import BaseField, FieldInterfaceError, UnitKind
from pairhw.program.trace import TraceError, Tracer

#: the Montgomery word of the core's multipliers: R = 2^(WORD·⌈bits/WORD⌉)
WORD = 17
#: products by constants k or −k with k ≤ SMALL are traced as doublings and additions
SMALL = 16
#: the multiplier kind whose cores keep seed 002's coefficient form (:class:`PolyMontField`)
POLYMONT = "polymont-chavez11"


class PrimeTracer(Tracer):
    """A :class:`~pairhw.math.prime.field.PrimeField` look-alike that records F_p operations: products
    by −1 are negations, a − b and −a are ops of their own, a square is a product, a product by a
    small constant is additions, and an inverse is one ``inv`` op when the datapath has an inverter
    unit, else Fermat's a^(p−2) by sliding windows, traced product by product (no branch on the value)."""

    def __init__(self, fi, optimize: bool = True):
        super().__init__(fi, optimize)
        self._negated: dict = {}  # name of a neg result -> the Sym it negates

    def _canon(self, x: int) -> int:
        return x % self._F.p

    def neg(self, a):
        a = self._check(a)
        if isinstance(a, int):
            return self._F.neg(a)
        if self.optimize and a.name in self._negated:
            return self._negated[a.name]
        out = self._emit("neg", (a,))
        self._negated[out.name] = a
        return out

    def sub(self, a, b):
        a, b = self._check(a), self._check(b)
        if isinstance(a, int) and isinstance(b, int):
            return self._F.sub(a, b)
        if isinstance(b, int):
            return self.add(a, self._F.neg(b))
        if isinstance(a, int):
            return self.add(self.neg(b), a) if a else self.neg(b)
        if a is b:
            return 0
        if self.optimize and b.name in self._negated:
            return self.add(a, self._negated[b.name])
        return self._emit("sub", (a, b))

    def _mul_const(self, a, c):
        p = self._F.p
        if c in (0, 1):
            return super()._mul_const(a, c)
        if ("mulk", c) in self.native:  # the datapath has a small-constant unit for c
            return self._emit("mulk", (a,), k=c)
        if ("mulk", p - c) in self.native:
            return self.neg(self._emit("mulk", (a,), k=p - c))
        if self.optimize and min(c, p - c) <= SMALL:  # k·a by doublings and additions
            return self.neg(self._small_multiple(a, p - c)) if p - c < c else self._small_multiple(a, c)
        if c == p - 1:
            return self.neg(a)
        return super()._mul_const(a, c)

    def _small_multiple(self, a, k: int):
        """k·a (1 ≤ k ≤ SMALL) left to right over the bits of k: a doubling per bit, an addition
        per set bit (3a: 2 additions, 9a: 4, 12a: 4), so the multiplier never sees a small constant."""
        r = a
        for bit in bin(k)[3:]:
            r = self._add_syms(r, r)
            if bit == "1":
                r = self._add_syms(r, a)
        return r

    # -- negations folded into additions: a + (−b) = a − b, a − (−b) = a + b ----------------------------
    def _add_syms(self, a, b):
        if self.optimize:
            if b.name in self._negated and a.name not in self._negated:
                return self.sub(a, self._negated[b.name])
            if a.name in self._negated and b.name not in self._negated:
                return self.sub(b, self._negated[a.name])
        return super()._add_syms(a, b)

    def sqr(self, a):
        return self.mul(a, a)

    def mul_int(self, a, k: int):
        return self.mul(a, k % self._F.p)

    def inv(self, a):
        a = self._check(a)
        if isinstance(a, int):
            return self._F.inv(a)
        if "inv" in self.native:  # the datapath has an inverter (rtl.prime.inverter)
            return self._emit("inv", (a,))
        from pairhw.math.curve import sliding_window_pow
        from pairhw.math.field import stepped

        # Fermat, a^(p−2), with 4-bit windows: the chain of products is what a core waits for; each
        # product a step (a core with calls stores a run of squarings once)
        return sliding_window_pow(a, self._F.p - 2, stepped(self.step, "sqr", self.sqr),
                                  stepped(self.step, "mul", self.mul))

    def is_zero(self, a):
        if isinstance(a, int):
            return self._F.is_zero(a)
        raise TraceError(f"zero test of the traced value {a.name}")

    def eq(self, a, b):
        if isinstance(a, int) and isinstance(b, int):
            return self._F.eq(a, b)
        raise TraceError("comparison of traced values")


def _coefficients(value) -> list:
    """The 12 F_p coefficients of an F_p¹² value, in ``Tower12.flatten``'s order."""
    return [c for six in value for two in six for c in two]


class PrimeFieldInterface(BaseField):
    """F_p for the engine (see the module docstring)."""

    family = "prime"
    ops = {"add": 2, "sub": 2, "neg": 1, "mul": 2, "inv": 1, "mulk": 1, "const": 0,
           "add3": 3, "addsub": 3, "sub2": 3}
    powers: dict = {}
    unit_kinds = {
        "mul": UnitKind(("mul",), 2, started=True),
        "add": UnitKind(("add", "sub", "neg"), 2),
        # x + y + z, x + y − z, x − y − z besides the adder's ops: an addition chain in one op
        # (pairhw.program.fuse.fuse_additions folds a sum or difference that one other alone reads)
        "add3": UnitKind(("add3", "addsub", "sub2", "add", "sub", "neg"), 3),
        "const": UnitKind(("const",), 0),
        "inv": UnitKind(("inv",), 1, started=True),
        # k·a for the small constants k of the unit's "k" (ξ = 9 + u's 9·a in one op, not four additions)
        "mulk": UnitKind(("mulk",), 1, scaled=True),
    }
    methods = {"add": "add", "sub": "sub", "neg": "neg", "mul": "mul", "inv": "inv", "mulk": "mul_int"}
    #: a three-operand addition's value: the model's two ops, (x op1 y) op2 z
    TERNARY = {"add3": ("add", "add"), "addsub": ("add", "sub"), "sub2": ("sub", "sub")}
    pairings_module = "pairhw.math.prime.pairing"
    catalogue_module = "pairhw.rtl.prime.catalogue"

    #: one pair's inputs: P = (xP, yP) ∈ G1, Q = (xQ0 + xQ1·u, yQ0 + yQ1·u) ∈ G2
    PAIR_INPUTS = ("xP", "yP", "xQ0", "xQ1", "yQ0", "yQ1")
    #: how many pairs the core takes (:meth:`with_pairs`): 1, a pairing; n, the product of n pairings
    pairs = 1
    #: whether the program also computes the validation residues of its points (:meth:`with_validation`)
    validate = False

    def apply(self, kind: str, args, k: int = 1, const=None):
        """The value of one op on model values (:attr:`TERNARY` for the three-operand additions)."""
        two = self.TERNARY.get(kind)
        if two is None:
            return super().apply(kind, args, k, const)
        x, y, z = args
        return getattr(self.F, two[1])(getattr(self.F, two[0])(x, y), z)

    @property
    def pairing_inputs(self) -> tuple:
        """The inputs in stream order: one pair's, or each pair's in turn (``xP_0 … yQ1_0, xP_1 …``)."""
        if self.pairs == 1:
            return self.PAIR_INPUTS
        return tuple(f"{x}_{i}" for i in range(self.pairs) for x in self.PAIR_INPUTS)

    def with_pairs(self, n: int):
        """This interface for a core computing the product of ``n`` pairings: its "points" are the
        tuples (P_1, …, P_n) and (Q_1, …, Q_n), its algorithm :func:`~pairhw.math.prime.pairing.multi_pairing`
        (one Miller loop, one final exponentiation), its vectors :func:`pairhw.vectors.product_points`."""
        if n == self.pairs:
            return self
        import copy

        out = copy.copy(self)
        out.pairs = n
        return out

    def with_validation(self):
        """This interface for a check core that also validates its points: its algorithm's value is
        (the pairing or product, the residues of :func:`pairhw.math.prime.validate.residues` for each
        pair), all 0 exactly when every P is in G1 and every Q in G2; its outputs the 12 coefficients
        then the residues."""
        import copy

        out = copy.copy(self)
        out.validate = True
        return out

    def check_value(self, C) -> tuple:
        """A check core's reference outputs: the coefficients of the pairing value 1, and with
        :attr:`validate` a 0 for each residue."""
        from pairhw.math.prime import validate

        return tuple(_coefficients(C.T.ONE) + [0] * (validate.count(C) * self.pairs if self.validate else 0))

    @property
    def m(self) -> int:
        return 1

    @property
    def R(self) -> int:
        """The Montgomery factor of the core's words (the Montgomery multipliers' R)."""
        return 1 << (WORD * -(-self.F.p.bit_length() // WORD))

    @property
    def width(self) -> int:
        return self.F.p.bit_length()

    @property
    def name(self) -> str:
        return f"F_p ({self.F.p.bit_length()} bits)"

    def encode(self, v: int) -> int:
        """A core's word is the Montgomery form v·R mod p, the form its multipliers work in."""
        return v * self.R % self.F.p

    def decode(self, word: int) -> int:
        return word * pow(self.R, -1, self.F.p) % self.F.p

    # -- tracing -------------------------------------------------------------------------------------
    def tracer(self, optimize: bool = True):
        return PrimeTracer(self, optimize)

    def curve_over(self, C, TF):
        return C.over_field(TF)

    def flatten(self, value) -> list:
        """The 12 F_p coefficients of an F_p¹² value (basis 1, u, v, uv, …, uv²w: ``Tower12.flatten``);
        with :attr:`validate`, of (value, residues): the 12, then the residues."""
        if self.validate:
            value, residues = value
            return _coefficients(value) + list(residues)
        return _coefficients(value)

    def points(self, syms):
        if self.pairs > 1:
            pairs = [self.with_pairs(1).points(syms[6 * i:6 * i + 6]) for i in range(self.pairs)]
            return tuple(P for P, _ in pairs), tuple(Q for _, Q in pairs)
        xp, yp, x0, x1, y0, y1 = syms
        return (xp, yp), ((x0, x1), (y0, y1))

    def point_values(self, P, Q) -> list:
        if self.pairs > 1:
            one = self.with_pairs(1)
            return [v for Pi, Qi in zip(P, Q) for v in one.point_values(Pi, Qi)]
        return [P[0], P[1], Q[0][0], Q[0][1], Q[1][0], Q[1][1]]

    def check_points(self, C, P, Q) -> None:
        for Pi, Qi in (zip(P, Q) if self.pairs > 1 else [(P, Q)]):
            C.E1.check(Pi)
            C.E2.check(Qi)

    def vector_points(self, C, seed: int, i: int):
        if self.pairs == 1:
            return super().vector_points(C, seed, i)
        from pairhw.vectors import product_points

        pairs = product_points(C, seed, i, self.pairs)
        return tuple(P for P, _ in pairs), tuple(Q for _, Q in pairs)

    def algorithm(self, name: str):
        fn = super().algorithm(name)
        if self.pairs > 1:
            from pairhw.math.prime.pairing import multi_pairing, optimal_ate

            if fn is not optimal_ate:
                raise FieldInterfaceError(f"pairs: a product of pairings is computed with optimal-ate, not {name}")
            fn = lambda C, Ps, Qs: multi_pairing(C, list(zip(Ps, Qs)))  # noqa: E731
        if not self.validate:
            return fn
        from pairhw.math.prime.validate import residues

        def validated(C, P, Q):
            pairs = list(zip(P, Q)) if self.pairs > 1 else [(P, Q)]
            return fn(C, P, Q), [x for Pi, Qi in pairs for x in residues(C, Pi, Qi)]

        return validated

    # -- hardware ------------------------------------------------------------------------------------
    def for_datapath(self, spec: dict):
        """Seed 002's coefficient form (:class:`PolyMontField`) when the datapath's multiplier is
        ``polymont-chavez11``, else the canonical Montgomery words of this interface."""
        kinds = {u.get("mul", {}).get("kind") for u in spec.get("units", ()) if u.get("kind") == "mul"}
        if POLYMONT in kinds:
            from pairhw.rtl.prime.catalogue import KindError, polymont_of

            try:
                return PolyMontField(self.F, polymont_of(self.F))
            except KindError as e:
                raise FieldInterfaceError(str(e)) from None
        return self

    def make_mul(self, kind: str, **options):
        unit = super().make_mul(kind, **options)
        if getattr(unit, "R", None) != self.R:
            raise FieldInterfaceError(
                f"a pairing core over F_p keeps its values in Montgomery form with R = 2^"
                f"{self.R.bit_length() - 1}: its multiplier must be montgomery-pipelined or "
                f"montgomery-iterative with the default 17-bit word (not {kind} {options or ''})".rstrip())
        return unit

    def build_unit(self, spec):
        from pairhw.rtl.prime.adder import Add3P, AddSubP, MulSmallP
        from pairhw.rtl.prime.inverter import InvP

        if spec.kind == "add":
            try:
                return AddSubP(self.F, **dict(spec.options))
            except TypeError as e:  # an option the adder does not take
                raise FieldInterfaceError(f"add: {e}") from None
        if spec.kind == "add3":
            try:
                return Add3P(self.F, **dict(spec.options))
            except TypeError:  # an option the adder does not take
                extra = sorted(set(dict(spec.options)) - {"stages"})
                raise FieldInterfaceError(f"add3: the three-operand adder takes stages, not "
                                          f"{', '.join(extra)}") from None
        if spec.kind == "mulk":  # k·(vR) = (k·v)R: a constant product keeps the Montgomery form
            self.no_options(spec)
            return MulSmallP(self.F, spec.ks)
        if spec.kind == "inv":  # 2·log2(R) steps: Montgomery form in, Montgomery form out
            try:
                return InvP(self.F, steps=2 * (self.R.bit_length() - 1), **dict(spec.options))
            except TypeError as e:  # an option the inverter does not take
                raise FieldInterfaceError(f"inv: {e}") from None
        raise FieldInterfaceError(f"no {spec.kind} units for {self.name}")


class PolyMontField(PrimeFieldInterface):
    """F_p in seed 002's coefficient form, for cores built on ``polymont-chavez11`` (Chávez Corona et
    al. §III): a word is the five signed coefficients of a polynomial c(t) with c(t) ≡ v·t⁵ (mod p),
    packed as :class:`~pairhw.rtl.prime.polymont.PolyMontMul` packs them (each as wide as
    :attr:`~pairhw.math.prime.polymont.PolyMont.arith_domain` needs).  The multiplier and the adder
    (:class:`~pairhw.rtl.prime.polyadd.PolyAddSub`) keep every word in that domain but not canonical:
    one element has many words, so a core's outputs are compared by value (:meth:`tb_differ`) and
    decoded by evaluating the polynomial at t.  Inputs and constants are encoded with the canonical
    base-t digits."""

    agreement = "equal to the model mod p"

    def __init__(self, F, pm):
        super().__init__(F)
        self.pm = pm
        self.cw = pm.word_bits

    @property
    def R(self) -> int:
        return self.pm.R

    @property
    def width(self) -> int:
        return sum(self.cw)

    @property
    def name(self) -> str:
        return f"F_p ({self.F.p.bit_length()} bits, seed 002's coefficient form)"

    def encode(self, v: int) -> int:
        from pairhw.rtl.prime.polymont import pack_coeffs

        return pack_coeffs(self.pm.to_mont(v), self.cw)

    def decode(self, word: int) -> int:
        from pairhw.rtl.prime.polymont import unpack_coeffs

        return self.pm.from_mont(unpack_coeffs(word, self.cw))

    @property
    def tb_functions(self) -> str:
        """``pm_value(w)``: Σ c_i·t^i of a word's coefficients (sign-extended), as a signed integer."""
        # |c_i·t^i| < 2^(cw_i − 1 + i·bits(t)); five terms and the difference of two values: 4 bits more
        vb = max(w + i * self.pm.t.bit_length() for i, w in enumerate(self.cw)) + 4
        lines = [f"  function signed [{vb - 1}:0] pm_value(input [{self.width - 1}:0] w);",
                 "    begin"]
        offsets = [sum(self.cw[:i]) for i in range(5)]
        lines.append(f"      pm_value = $signed(w[{offsets[4]} +: {self.cw[4]}]);")
        for i in (3, 2, 1, 0):
            lines.append(f"      pm_value = pm_value * PM_T + $signed(w[{offsets[i]} +: {self.cw[i]}]);")
        lines += ["    end", "  endfunction"]
        return ("\n  // seed 002's words: equal elements when the polynomials agree mod p at t\n"
                f"  localparam signed [{vb - 1}:0] PM_T = {vb}'sd{self.pm.t};\n"
                f"  localparam signed [{vb - 1}:0] PM_P = {vb}'sd{self.F.p};\n" + "\n".join(lines))

    def tb_differ(self, got: str, expected: str) -> str:
        return f"(pm_value({got}) - pm_value({expected})) % PM_P != 0"

    def make_mul(self, kind: str, **options):
        if kind != POLYMONT:
            raise FieldInterfaceError(f"a core in seed 002's coefficient form has {POLYMONT} multipliers "
                                      f"only (not {kind})")
        return super().make_mul(kind, **options)

    def build_unit(self, spec):
        from pairhw.rtl.prime.polyadd import PolyAddSub

        if spec.kind == "add3":
            raise FieldInterfaceError("add3: the coefficient-form adder (Chávez Corona et al.'s words) has two "
                                      "operands; there is no three-operand one")
        if spec.kind == "add":
            try:
                return PolyAddSub(self.F, self.pm, **dict(spec.options))
            except TypeError:  # an option the adder does not take
                extra = sorted(set(dict(spec.options)) - {"stages"})
                raise FieldInterfaceError("add: the coefficient-form adder (Chávez Corona et al.'s words) "
                                          f"takes stages, not {', '.join(extra)}") from None
        raise FieldInterfaceError(f"no {spec.kind} units for {self.name} (the inverter works on canonical "
                                  f"words; inversion is Fermat's a^(p-2) on the multiplier)")
