"""Datapath configurations as data: functional units, register banks, connectivity, I/O word width.

A unit executes one op kind (``mul``, ``add``, ``sqr``, ``sqrt``, ``const``).  Its hardware latency
``latency`` is the cycle, counted from the issue cycle t, in which its result is on its output
(0: combinational); the result is written to a register at the end of that cycle, so a consumer may
issue at ``t + latency + 1`` (:attr:`UnitSpec.delay`).  ``ii`` is the initiation interval and ``count``
the number of identical instances.  A squarer or square-root unit raises to the powers 2^(±k) for
each k in ``ks`` (one XOR network per k behind one read port; the word selects which).  ``reads``
lists, per input port, the banks the port can read and ``writes`` the banks the result can be
written to (empty: every bank).  The stream loader writes and the unloader reads every bank.

A bank with ``write_ports`` set is a RAM (LUTRAM on an FPGA) rather than a set of registers with
their own multiplexers: at most that many results are written to it per cycle (a scheduling resource,
:mod:`pairhw.program.schedule`), and every unit that writes it writes no other bank, so the scheduler
knows which port a result takes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pairhw.math.binary.field import GF2m

#: Input ports of each op kind.
PORTS = {"mul": 2, "add": 2, "sqr": 1, "sqrt": 1, "const": 0}


class DatapathError(ValueError):
    """A datapath configuration that cannot work (unknown kind, missing unit, bad connectivity)."""


@dataclass(frozen=True)
class Bank:
    name: str
    size: int | None = None  # registers; None: as many as the allocation needs
    write_ports: int | None = None  # None: registers with per-register write multiplexers


@dataclass(frozen=True)
class UnitSpec:
    name: str
    kind: str
    latency: int = 0
    ii: int = 1
    count: int = 1
    ks: tuple = (1,)  # sqr/sqrt: the k-fold powers x^(2^±k) the unit computes (selected per word)
    reads: tuple = ()
    writes: tuple = ()
    options: tuple = ()  # for kind "mul": (key, value) pairs of pairhw.rtl.binary.catalogue.make_unit

    @property
    def ports(self) -> int:
        return PORTS[self.kind]

    @property
    def delay(self) -> int:
        """Cycles from issue until a consumer can read the result from a register."""
        return self.latency + 1

    def instance_names(self) -> list[str]:
        return [self.name] if self.count == 1 else [f"{self.name}{i}" for i in range(self.count)]


@dataclass(frozen=True)
class Datapath:
    F: GF2m
    units: tuple
    banks: tuple = (Bank("r"),)
    io_width: int = 64
    mul_unit: object = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        names = [b.name for b in self.banks]
        if not names or len(set(names)) != len(names):
            raise DatapathError("bank names must be distinct and at least one bank is needed")
        for u in self.units:
            if u.kind not in PORTS:
                raise DatapathError(f"unit {u.name}: unknown kind {u.kind!r}; kinds: {', '.join(PORTS)}")
            if u.reads and len(u.reads) != u.ports:
                raise DatapathError(f"unit {u.name}: reads lists {len(u.reads)} ports, the kind has {u.ports}")
            for b in [b for r in u.reads for b in r] + list(u.writes):
                if b not in names:
                    raise DatapathError(f"unit {u.name}: no bank {b!r}")
            if u.count < 1 or u.ii < 1 or u.latency < 0:
                raise DatapathError(f"unit {u.name}: count and ii must be ≥ 1 and latency ≥ 0")
            if not u.ks or len(set(u.ks)) != len(u.ks) or min(u.ks) < 1 \
                    or (u.ks != (1,) and u.kind not in ("sqr", "sqrt")):
                raise DatapathError(f"unit {u.name}: k must be distinct integers ≥ 1, and only sqr and sqrt take k")
        for b in self.banks:
            if b.write_ports is not None and b.write_ports < 1:
                raise DatapathError(f"bank {b.name}: write_ports must be ≥ 1")
        for u in self.units:
            wb = self.write_banks(u)
            if len(wb) > 1 and any(self.bank(b).write_ports for b in wb):
                raise DatapathError(f"unit {u.name} writes several banks, one of them with limited write "
                                    "ports; give it \"writes\": [that bank]")
        if self.io_width < 1:
            raise DatapathError("the I/O word width must be at least 1")

    def unit_for(self, kind: str, k: int = 1) -> UnitSpec:
        for u in self.units:
            if u.kind == kind and (kind not in ("sqr", "sqrt") or k in u.ks):
                return u
        what = kind if k == 1 or kind not in ("sqr", "sqrt") else f"{kind}^{k}"
        raise DatapathError(f"the datapath has no unit for {what}")

    def bank(self, name: str) -> Bank:
        return next(b for b in self.banks if b.name == name)

    def write_port(self, u: UnitSpec):
        """(bank, ports) when ``u``'s results go through a bank's limited write ports, else None."""
        wb = self.write_banks(u)
        b = self.bank(wb[0])
        return (b.name, b.write_ports) if len(wb) == 1 and b.write_ports else None

    def bank_names(self) -> list[str]:
        return [b.name for b in self.banks]

    def powers(self, kind: str) -> tuple:
        """The k of every k-fold ``kind`` (sqr or sqrt) some unit computes, largest first."""
        return tuple(sorted({k for u in self.units if u.kind == kind for k in u.ks}, reverse=True))

    def read_banks(self, u: UnitSpec, port: int) -> tuple:
        return tuple(u.reads[port]) if u.reads else tuple(self.bank_names())

    def write_banks(self, u: UnitSpec) -> tuple:
        return tuple(u.writes) if u.writes else tuple(self.bank_names())

    @property
    def io_beats(self) -> int:
        """Stream words per field element."""
        return -(-self.F.m // self.io_width)


def build_datapath(F: GF2m, spec: dict) -> Datapath:
    """A :class:`Datapath` from a design's ``datapath`` dictionary.

    ``spec["units"]`` is a list of ``{"name", "kind", ...}``; a ``sqr`` or ``sqrt`` unit may give
    ``"k": 4`` or ``"k": [1, 2, 4]`` (the powers it computes, see :class:`UnitSpec`); a ``mul``
    unit names a multiplier of :mod:`pairhw.rtl.binary.catalogue` (``"mul": {"kind": "karatsuba", ...}``)
    whose latency and II are taken from the built unit.  ``spec["banks"]`` is a list of
    ``{"name", "size", "write_ports"}`` (default one unbounded bank ``r``; ``"write_ports": 1``
    makes a bank a RAM), ``spec["io_width"]`` the stream word width (default 64).
    """
    from pairhw.rtl.binary.catalogue import make_unit

    banks = tuple(Bank(b["name"], b.get("size"), b.get("write_ports")) for b in spec.get("banks", [{"name": "r"}]))
    units, mul_unit = [], None
    for u in spec["units"]:
        k = u.get("k", 1)
        ks = tuple(k) if isinstance(k, list) else (k,)
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in ks):
            raise DatapathError(f"unit {u['name']}: k must be an integer or a list of integers")
        kw = dict(name=u["name"], kind=u["kind"], count=u.get("count", 1), ks=ks,
                  reads=tuple(tuple(r) for r in u.get("reads", ())), writes=tuple(u.get("writes", ())))
        if u["kind"] == "mul" and "mul" not in u:
            raise DatapathError(f"unit {u['name']}: a mul unit needs \"mul\": {{\"kind\": ...}}")
        if u["kind"] == "mul":
            opts = dict(u["mul"])
            mul_unit = make_unit(opts.pop("kind"), F, **opts)
            kw.update(latency=mul_unit.latency, ii=mul_unit.initiation_interval,
                      options=tuple(sorted((k, tuple(v) if isinstance(v, list) else v)
                                             for k, v in u["mul"].items())))
        units.append(UnitSpec(**kw))
    return Datapath(F, tuple(units), banks, spec.get("io_width", 64), mul_unit)
