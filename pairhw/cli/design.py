"""``pairhw designs | schedule | build | sim | synth DESIGN``: the named pairing cores."""

from __future__ import annotations

import json
import time
from pathlib import Path

from pairhw import flow
from pairhw.cli.common import MAX_PAIRINGS, add_count, add_json, add_output_dir, add_seed, given, table
from pairhw.output import check_target, read_text
from pairhw.cli.unit import add_target, check_router, synth_text, tell_tree
from pairhw.progress import log, plural, ticker


def _design(name: str, UsageError):
    """A built-in design by name or a design file by path (checked against the format)."""
    from pairhw.designs import DesignError

    try:
        return flow.design(name)
    except DesignError as e:
        raise UsageError(str(e)) from None


def _summary(d, shipped: dict | None = None) -> dict:
    """A design's row of ``pairhw designs``: from the shipped schedule figures of a built-in design
    (no compile), else from its schedule report (compiled once, then cached)."""
    rep = shipped or d.report(log=log)
    return {"design": d.name, "curve": d.params, "algorithm": d.algorithm, "multiplier": d.multiplier,
            "cycles": rep["cycles"], "multiplier_bound": rep["multiplier_bound"],
            **({"batch": d.batch} if d.batch > 1 else {}), "description": d.description}


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
        *([f"cycles per pairing   {rep['cycles']}  (pre {ph['pre']}, loop {ph['loop']}, post {ph['post']})"]
          if "batch" not in rep else
          [f"cycles per run       {rep['cycles']}  (pre {ph['pre']}, loop {ph['loop']}, post {ph['post']}) for a "
           f"batch of {rep['batch']['k']}",
           f"cycles per pairing   {rep['batch']['cycles_per_pairing']:g}  (one pairing alone on this datapath: "
           f"{rep['batch']['single_pairing_cycles']})"]),
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
        *([_interconnect_text(rep["interconnect"])] if "interconnect" in rep else []),
        *([_pipeline_line(rep)] if "pipeline" in rep or "power_stages" in rep else []),
        f"microcode            {rep['microcode']['words']} words × {rep['microcode']['width']} bits"
        + (f"; calls: a run table of {rep['microcode']['runs']} entries" if "runs" in rep["microcode"] else "")
        + _word_stages_text(rep.get("word_stages", 0)),
    ])


def _word_stages_text(n: int) -> str:
    """The microcode line's word registers: none, one, or n (a cycle each a run)."""
    if not n:
        return ""
    if n == 1:
        return "; the word registered (a cycle per run)"
    return f"; the word registered {n} times (a cycle each per run)"


def _pipeline_line(rep: dict) -> str:
    """The pipeline line: the stages around the units, forwarding, and the registers inside power units."""
    parts = [_pipeline_text(rep["pipeline"]) + ("; results forwarded into the operand registers"
                                               if rep.get("forward") else "")] if "pipeline" in rep else []
    parts += [f"{plural(n, 'register stage')} inside {u}" for u, n in rep.get("power_stages", {}).items()]
    return "pipeline             " + "; ".join(parts)


def _pipeline_text(pipe: dict) -> str:
    """The register stages around the units (units with the same stages together)."""
    by: dict = {}
    for unit, stages in pipe.items():
        by.setdefault(" + ".join(stages), []).append(unit)
    return "; ".join(f"{st} registered on {', '.join(us)}" for st, us in by.items()) \
        + " (a cycle of latency each)"


def _interconnect_text(ic: dict) -> str:
    """The register file's multiplexers in one line (:meth:`~pairhw.program.microcode.Microcode.interconnect`)."""
    ram = f", {plural(ic['ram_banks'], 'RAM bank')}" if ic["ram_banks"] else ""
    return (f"interconnect         {plural(ic['read_ports'], 'unit port')} reading "
            f"{plural(ic['read_inputs'], 'source')} (at most {ic['read_inputs_max']} a port"
            + (f", bound {ic['max_sources']}" if "max_sources" in ic else "") + "); "
            + (f"{plural(ic['registers'], 'flip-flop register')} written from {plural(ic['write_inputs'], 'source')} "
               f"(at most {ic['write_inputs_max']})" if ic["registers"] else "no flip-flop registers")
            + f"{ram}; connect {ic['connect']}"
            + (f"; {ic['copies']['count']:,} LUT RAM cop{'y' if ic['copies']['count'] == 1 else 'ies'} "
               f"({ic['copies']['over_32']} over 32 words, {ic['copies']['over_64']} over 64)" if "copies" in ic else ""))


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
        print(cp.rom_listing(f"{d.name}: instruction ROM" if d.is_asip else f"{d.name}: microcode"))
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


def _file_rows(d, path: str, UsageError) -> tuple[list, int]:
    """Rows of a ``pairhw vectors`` file (a batch's: ``k`` lines a row); also the number whose ``e``
    disagrees with the model."""
    C, fi, k = d.curve(), d.field.unbatched, d.batch
    n_out = d.compile().stream.n_out // k
    check = getattr(d.compile(), "check", None)
    lines = read_text(path, "--vectors").splitlines()
    items, model_bad = [], 0
    tick = ticker(f"checking {path} against the golden model", len(lines))
    for no, line in enumerate(lines, 1):
        tick(no - 1)
        if not line.strip():
            continue
        try:
            v = json.loads(line)
            if v["curve"] != d.params:
                raise UsageError(f"--vectors line {no}: curve {v['curve']} but {d.name} is on {d.params}")
            npairs = getattr(fi, "pairs", 1)
            if npairs > 1:  # a product core: a line of pairhw vectors --pairs N
                if len(v.get("pairs", ())) != npairs:
                    raise UsageError(f"--vectors line {no}: {d.name} takes {npairs} pairs a product "
                                     f"(pairhw vectors {d.params} --pairs {npairs}), not {len(v.get('pairs', ()))}")
                pts = [(x["p"], x["q"]) for x in v["pairs"]]
            else:
                pts = [(v["p"], v["q"])]
            if any(p in ("inf", None) or q in ("inf", None) for p, q in pts):
                raise UsageError(f"--vectors line {no}: the core takes affine points, not inf")
            if any(len(p) != 2 for p, _ in pts):
                raise UsageError(f"--vectors line {no}: expected p=[x,y]")
            values = [fi.parse(x) for p, q in pts for x in [*p, *q]]
            e = tuple(fi.parse(x) for x in v["e"])
            if check is not None and len(e) != n_out:  # a check core: the value's comparison with 1
                e = (int(e == tuple(check[:len(e)])),)  # (the file's points are valid: checked below)
            if len(values) != len(fi.pairing_inputs) or len(e) != n_out:
                nq = len(fi.pairing_inputs) // npairs - 2
                raise UsageError(f"--vectors line {no}: expected p=[x,y], q=[{nq} coordinates], "
                                 f"e=[c0..c{n_out - 1}]")
            P, Q = fi.points(values)
            fi.check_points(C, P, Q)
        except UsageError:
            raise
        except Exception as ex:  # bad JSON, missing key, bad hex, point off the curve
            raise UsageError(f"--vectors line {no}: not a pairhw vector ({type(ex).__name__}: {ex})") from None
        items.append((values, e, P, Q))
    if not items:
        raise UsageError(f"--vectors: {path} has no vectors")
    if len(items) % k:
        raise UsageError(f"--vectors: {d.name} computes {k} pairings a run (batch {k}); {path} has "
                         f"{len(items)} vectors, not a multiple of {k}")
    rows = []
    for i in range(0, len(items), k):  # a run: k vectors in turn
        run = items[i:i + k]
        e = tuple(x for _, ej, _, _ in run for x in ej)
        Ps, Qs = tuple(it[2] for it in run), tuple(it[3] for it in run)
        model = d.model(Ps, Qs) if k > 1 else d.model(Ps[0], Qs[0])
        model_bad += tuple(model) != e
        rows.append((*(v for vj, _, _, _ in run for v in vj), *e))
    return rows, model_bad


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
        rows = flow.pairings(d, args.n, args.seed)
    t0 = time.monotonic()
    res = flow.simulate(d, rows=rows, trace=args.trace)
    failed = res.failed + model_bad
    k = d.batch
    out = {"design": d.name, "curve": d.params, "pairings": len(rows) * k,
           **({"batch": k, "runs": len(rows)} if k > 1 else {}), "seed": None if args.vectors else args.seed,
           "cycles": res.cycles_max, "verified": res.verified,
           "failed": res.failed, "model_disagrees_with_file": model_bad, "constant_time": res.constant_time,
           "expected_cycles": res.expected_cycles, "seconds": round(time.monotonic() - t0, 2)}
    if args.trace:
        out["trace"] = args.trace
    if args.json:
        print(json.dumps(out))
    else:
        src = f"{args.vectors}" if args.vectors else f"{args.n} random pairs (seed {args.seed})"
        what = f"runs of {k} pairings" if k > 1 else "pairings"
        print(f"{d.name}: {res.verified} of {len(rows)} {what} {d.field.agreement} ({src}), {res.failed} failed")
        print(f"cycles per {'run' if k > 1 else 'pairing'} {res.cycles_min}" + ("" if res.cycles_min == res.cycles_max
                                                                                else f"..{res.cycles_max}")
              + f" (schedule: {res.expected_cycles}); constant time: {'yes' if res.constant_time else 'NO'}")
        for line in res.mismatches[:5]:
            print(line)
        if model_bad:
            print(f"the golden model disagrees with {model_bad} of the file's values")
        if args.trace:
            print(f"waveform: {args.trace}")
    return 0 if failed == 0 and res.constant_time and res.verified == len(rows) else 1


def cmd_build(args, UsageError) -> int:
    d = _design(args.design, UsageError)
    check_target(args.output, ("design", d.name), args.force)
    b = flow.build(d, args.n, args.seed, wrap=args.wrap, cocotb=args.cocotb)
    tell_tree(args.output, b.write(args.output, force=args.force))
    if args.json:
        print(json.dumps({"output": args.output, **b.manifest}))
        return 0
    print(f"wrote {', '.join(b.files)} to {args.output}")
    print(_report_text(d, b.manifest["schedule"]))
    print(f"run the bench: make -C {args.output} sim" + (" | fusesoc | cocotb" if "cocotb" in b.manifest else " | fusesoc"))
    return 0


def cmd_synth_design(args, UsageError) -> int:
    check_router(args, UsageError)
    d = _design(args.design, UsageError)
    res = flow.synthesize(d, args.target, router=args.router, placer=args.placer, yosys=args.yosys)
    if args.json:
        print(json.dumps(res))
        return 0
    print(synth_text(d.name, res, args.target))
    # a batch's run computes d.batch pairings (as pairhw schedule and sim say it)
    print(f"cycles per run {res['cycles']} (a batch of {d.batch})" if d.batch > 1
          else f"cycles per pairing {res['cycles']}")
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
