"""F_p inversion in a constant number of cycles: Kaliski's almost Montgomery inverse, one step a cycle.

Kaliski (IEEE Trans. Computers 44(8), 1995, "The Montgomery inverse and its applications", phase 1)
keeps u = p, v = a, r = 0, s = 1 with the invariants p = u·s + v·r and a·r ≡ −u·2^k, a·s ≡ v·2^k
(mod p) after k steps, and in each step

    u even:        u ← u/2,         s ← 2s
    v even:        v ← v/2,         r ← 2r
    u > v:         u ← (u − v)/2,   r ← r + s,   s ← 2s
    otherwise:     v ← (v − u)/2,   s ← s + r,   r ← 2r

until v = 0, after k ≤ 2·bits(p) steps, when −r ≡ a⁻¹·2^k (mod p) and r < 2p.  The data decides k,
so the unit runs a fixed number N ≥ 2·bits(p) of steps: once v = 0 every further step takes the
"v even" branch, which doubles r, here modulo p within [0, 2p) (r ← 2r − 2p when r ≥ p), so
−r ≡ a⁻¹·2^N after N steps whatever k was.  With N = 2·log2(R) for the cores' Montgomery factor R
the unit maps the Montgomery form a·R of a to (a·R)⁻¹·R² = a⁻¹·R, the Montgomery form of a⁻¹: the
word-level meaning of the field's ``inv``.

Every step is two subtractions (u − v, v − u), an addition (r + s), a comparison (r ≥ p) and
multiplexers on four registers; k steps are chained in a cycle (``per_cycle``): N/k + 1 cycles per
inversion, no multiplier, the same cycles for every input (0 gives 0).
"""

from __future__ import annotations

from amaranth.hdl import Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from pairhw.math.prime.field import PrimeField


def kaliski_steps(a: int, p: int, steps: int) -> int:
    """The unit's algorithm, step for step: a⁻¹·2^steps mod p for 0 < a < p (0 for a = 0)."""
    u, v, r, s = p, a, 0, 1
    for _ in range(steps):
        if u % 2 == 0:
            u, s = u >> 1, 2 * s
        elif v % 2 == 0:
            v, r = v >> 1, 2 * r - (2 * p if r >= p else 0)
        elif u > v:
            u, r, s = (u - v) >> 1, r + s, 2 * s
        else:
            v, s, r = (v - u) >> 1, s + r, 2 * r
    r = r - p if r >= p else r
    return p - r if r else 0


class InvP(wiring.Component):
    """c = a⁻¹·2^N mod p after ⌈N/k⌉ + 2 cycles (see the module docstring), a new operand every
    ⌈N/k⌉ + 1, for k = ``per_cycle`` steps a cycle.

    Parameters
    ----------
    F : PrimeField
    steps : int
        N, at least 2·bits(p); the cores use 2·log2(R) so that the unit inverts Montgomery forms.
    per_cycle : int
        k, steps chained in one cycle (k times the logic depth of a step, 1/k of the cycles).

    Ports: ``a`` and ``start`` (the operand is taken in the start cycle), ``c`` and ``done`` (high in
    the cycle the result is on ``c``, ``latency`` cycles after the start; ``c`` holds it until the next
    result).
    """

    _MustUse__silence = True

    def __init__(self, F: PrimeField, steps: int | None = None, per_cycle: int = 1):
        n = F.bits
        steps = 2 * n if steps is None else int(steps)
        if steps < 2 * n:
            raise ValueError(f"the inverter needs at least 2·bits(p) = {2 * n} steps, not {steps}")
        if not 1 <= per_cycle <= 8:
            raise ValueError(f"steps per cycle must be between 1 and 8, not {per_cycle}")
        # whole cycles: N rounded up to a multiple of k (more steps only double r modulo p more often)
        steps = -(-steps // per_cycle) * per_cycle
        self.F, self.steps, self.per_cycle = F, steps, per_cycle
        self.name = f"InvP_p{n}_n{steps}" + (f"_k{per_cycle}" if per_cycle > 1 else "")
        super().__init__({"a": In(n), "start": In(1), "c": Out(n), "done": Out(1)})

    @property
    def cycles(self) -> int:
        """Cycles of the steps: N/k."""
        return self.steps // self.per_cycle

    @property
    def initiation_interval(self) -> int:
        return self.cycles + 1

    @property
    def latency(self) -> int:
        return self.cycles + 2

    def emulate(self, a: int) -> int:
        return kaliski_steps(a, self.F.p, self.steps)

    def _step(self, m, u, v, r, s, j):
        """One step on signals (u, v, r, s), combinationally: the next (u, v, r, s)."""
        p, n = self.F.p, self.F.bits
        u_v, v_u = Signal(n + 1, name=f"u_minus_v{j}"), Signal(n + 1, name=f"v_minus_u{j}")
        rs, r_p = Signal(n + 2, name=f"r_plus_s{j}"), Signal(n + 2, name=f"r_minus_p{j}")
        m.d.comb += [u_v.eq(u - v), v_u.eq(v - u), rs.eq(r + s), r_p.eq(r - p)]
        nu, nv = Signal(n, name=f"u{j}"), Signal(n, name=f"v{j}")
        nr, ns = Signal(n + 1, name=f"r{j}"), Signal(n + 1, name=f"s{j}")
        m.d.comb += [nu.eq(u), nv.eq(v), nr.eq(r), ns.eq(s)]
        with m.If(~u[0]):
            m.d.comb += [nu.eq(u >> 1), ns.eq(s << 1)]
        with m.Elif(~v[0]):
            m.d.comb += [nv.eq(v >> 1), nr.eq(Mux(r_p[-1], r, r_p[:n + 1]) << 1)]
        with m.Elif(~u_v[-1] & (u_v != 0)):  # u > v
            m.d.comb += [nu.eq(u_v[1:n + 1]), nr.eq(rs), ns.eq(s << 1)]
        with m.Else():
            m.d.comb += [nv.eq(v_u[1:n + 1]), ns.eq(rs), nr.eq(r << 1)]
        return nu, nv, nr, ns

    def elaborate(self, platform):
        m = Module()
        p, n = self.F.p, self.F.bits
        u, v = Signal(n, name="u"), Signal(n, name="v")
        r, s = Signal(n + 1, name="r"), Signal(n + 1, name="s")  # r, s < 2p
        k = Signal(range(self.cycles + 1), name="k")
        busy, last = Signal(name="busy"), Signal(name="last")
        m.d.comb += last.eq(busy & (k == self.cycles - 1))
        nxt = (u, v, r, s)
        for j in range(self.per_cycle):
            nxt = self._step(m, *nxt, j)
        with m.If(busy):
            m.d.sync += [k.eq(k + 1), u.eq(nxt[0]), v.eq(nxt[1]), r.eq(nxt[2]), s.eq(nxt[3])]
            with m.If(last):
                m.d.sync += busy.eq(0)
        # the result, a cycle after the last step: −r mod p from r in [0, 2p)
        r_p, fin = Signal(n + 2, name="r_minus_p"), Signal(n + 1, name="r_mod_p")
        m.d.comb += [r_p.eq(r - p), fin.eq(Mux(r_p[-1], r, r_p[:n + 1]))]
        c, done, finish = Signal(n, name="c_reg"), Signal(name="done_reg"), Signal(name="finish")
        m.d.sync += [finish.eq(last), done.eq(finish)]
        with m.If(finish):
            m.d.sync += c.eq(Mux(fin == 0, 0, p - fin))
        with m.If(self.start):
            m.d.sync += [u.eq(p), v.eq(self.a), r.eq(0), s.eq(1), k.eq(0), busy.eq(1)]
        m.d.comb += [self.c.eq(c), self.done.eq(done)]
        return m
