"""Benchmark: the optimal-ate pairing cores on BN254, BLS12-381 and bn-chavez11 against zcash-fpga (writes JSON).

    python bench/ate.py [--verify N] [--synth] [--design NAME ...] [-o bench/out/ate.json]

For each design ``ate-*`` (``pairhw designs``): cycles per pairing, the multiplier bound (products × II /
units) and the utilisation, the program's critical path (the longest chain of unit delays, what a
one-multiplier core cannot beat however it schedules), the F_p products per pairing, ``--verify N``
pairings simulated in Verilator bit-exact against the golden model (and so py_ecc), and with
``--synth`` the core's Yosys xc7 synthesis (minutes to hours at full size: the microcode ROM holds one
word per cycle).  zcash-fpga's BLS12-381 core is ``pairhw.published.ZCASH_BLS12_381``: 126,644 cycles per
pairing at 200 MHz.
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from _common import design_bench_parser, write_json  # noqa: E402

from pairhw import designs  # noqa: E402

ZCASH_FPGA = {"design": "zcash-fpga (BLS12-381)", "cycles": 126644, "mhz": 200}
DESIGNS = ["ate-bn-tiny", "ate-bn254-fast", "ate-bls12-381-fast", "ate-bn-chavez11-toy", "ate-bn-chavez11"]


def critical_path(cp) -> int:
    """The longest chain of unit delays through the straight-line program (cycles)."""
    from pairhw.program.schedule import unit_of

    ready = {}
    for op in cp.flow.pre:
        t = max([ready.get(s, 0) for s, _ in op.srcs] + [0])
        ready[op.dst] = t + unit_of(cp.dp, op).delay
    return max(ready.values(), default=0)


def main() -> int:
    ap = design_bench_parser(__doc__, "ate.json")
    ap.add_argument("--synth", action="store_true", help="also synthesize (Yosys xc7; slow at full size)")
    args = ap.parse_args()

    from pairhw import flow
    from pairhw.emit import unit_verilog
    from pairhw.synth.flows import luts_with_ram, synthesize

    rows = []
    for name in args.design or DESIGNS:
        d = designs.get(name)
        t0 = time.time()
        cp = d.compile()
        rep, mul = cp.report(), cp.dp.mul_unit
        row = {"design": name, "curve": d.params, "multiplier": mul.name, "latency": mul.latency,
               "cycles": rep["cycles"], "products": rep["products"], "multiplier_bound": rep["multiplier_bound"],
               "utilisation": rep["multiplier_utilisation"], "critical_path": critical_path(cp),
               "microcode_words": rep["microcode"]["words"],
               "inverter": next((u.latency for u in cp.dp.units if u.kind == "inv"), None)}
        if args.verify:
            res = flow.simulate(d, args.verify, seed=1)
            row.update(verified=res.verified, failed=res.failed, constant_time=res.constant_time)
        if args.synth:
            s = synthesize(unit_verilog(d.core()), d.top, "xc7")
            row.update(luts=luts_with_ram(s), ffs=s["ffs"], dsp=s["dsp"], bram=s["bram"], depth=s["depth"])
        row["seconds"] = round(time.time() - t0, 1)
        rows.append(row)
        print(f"[bench] {name}: {row['cycles']} cycles, bound {row['multiplier_bound']} "
              f"({100 * row['utilisation']:.1f} %), critical path {row['critical_path']}"
              + (f", {row['verified']}/{args.verify} verified" if args.verify else ""), flush=True)
    write_json(args.output, {"designs": rows, "reference": ZCASH_FPGA}, indent=1)
    print()
    print("| design | multiplier (latency) | cycles | F_p products (bound) | utilisation | critical path | verified |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['design']} | {r['multiplier']} ({r['latency']}) | {r['cycles']:,} | {r['multiplier_bound']:,} | "
              f"{100 * r['utilisation']:.1f} % | {r['critical_path']:,} | "
              f"{str(r.get('verified', '–')) + '/' + str(args.verify) if args.verify else '–'} |")
    print(f"| {ZCASH_FPGA['design']} | – | {ZCASH_FPGA['cycles']:,} | – | – | – | – |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
