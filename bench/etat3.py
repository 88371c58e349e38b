"""Benchmark: Beuchat et al.'s ηT coprocessors in characteristic three against the open F_3^97 cores (writes JSON).

    python bench/etat3.py [--verify N] [--no-synth] [--design NAME ...] [-o bench/out/etat3.json]

For each design ``etat3-*`` (``pairhw designs``): cycles per pairing (pre-loop, loop, final
exponentiation), cycles per Miller-loop iteration, the multiplier bound (products × II / units) and
the utilisation, ``--verify N`` pairings simulated in Verilator bit-exact against the golden model,
and the core's Yosys xc7 synthesis (LUTs including LUT RAM, FFs, block RAM, LUT depth) with the
LUTs × cycles product.  The open cores freecores/pairing and tiny_tate are the rows of
``pairhw.published.OPEN_F3_97`` (measured with the same Yosys).  The core computes the final
exponentiation itself, so latency and the interval between pairings are the same number.

Synthesis is cached by a hash of the Verilog; cold, the F_3^97 cores take minutes, the larger
fields much longer (``--design`` picks a few).
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from _common import design_bench_parser, write_json  # noqa: E402

from pairhw import designs  # noqa: E402

#: the open F_3^97 cores as ``pairhw.published`` records them (Yosys 0.70 synth_xilinx -family xc7)
OPEN_CORES = [
    {"design": "freecores/pairing", "curve": "f3-97", "cycles": 75812, "luts": 37054, "ffs": 31380, "bram": 0,
     "note": "modified Duursma–Lee + final exponentiation; Virtex-4 30,149 slices, 131 MHz"},
    {"design": "freecores/tiny_tate", "curve": "f3-97", "cycles": 52512, "luts": 2975, "ffs": 1708,
     "bram": "12 RAMB18", "note": "microcoded ηT, +2,000 cycles of bit-serial I/O; 1,730 Spartan-3 slices"},
]

DESIGNS = ["etat3-97-fast", "etat3-97-small", "etat3-193-fast", "etat3-193-small", "etat3-313-fast",
           "etat3-313-small", "etat3-509-fast"]


def main() -> int:
    ap = design_bench_parser(__doc__, "etat3.json")
    ap.add_argument("--no-synth", action="store_true", help="skip Yosys")
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
        row = {"design": name, "curve": d.params, "algorithm": d.algorithm, "multiplier": mul.name, **rep,
               "latency_cycles": rep["cycles"], "interval_cycles": rep["cycles"],
               "cycles_per_iteration": rep["loop"]["cycles_per_iteration"]}
        print(f"[bench] {name}: {rep['cycles']} cycles, {row['cycles_per_iteration']:g} per Miller iteration, "
              f"bound {rep['multiplier_bound']} ({100 * rep['multiplier_utilisation']:.1f} %)", flush=True)
        if args.verify:
            res = flow.simulate(d, args.verify, seed=97)
            row["verilator"] = {k: getattr(res, k) for k in ("verified", "failed", "constant_time")}
            row["verilator"]["cycles"] = sorted({p["cycles"] for p in res.runs})
            print(f"[bench] {name}: Verilator {res.verified}/{args.verify} bit-exact", flush=True)
        if not args.no_synth:
            print(f"[bench] {name}: synthesizing (xc7)", flush=True)
            res = synthesize(unit_verilog(d.core()), d.top, "xc7")
            res["luts_with_ram"] = luts_with_ram(res)
            row["xc7"] = res
            row["luts_x_cycles"] = res["luts_with_ram"] * rep["cycles"]
            print(f"[bench] {name}: {res['luts_with_ram']} LUTs incl. LUT RAM, {res['ffs']} FFs, "
                  f"BRAM {res['bram']}, depth {res['depth']}", flush=True)
        row["seconds"] = round(time.time() - t0, 1)
        rows.append(row)
    for c in OPEN_CORES:
        c["luts_x_cycles"] = c["luts"] * c["cycles"]
    write_json(args.output, {"designs": rows, "open_cores": OPEN_CORES}, indent=1)

    print()
    print("| design | field | cycles per pairing | per Miller iteration | multiplier bound (utilisation) "
          "| LUTs incl. LUT RAM | FFs | BRAM | LUT depth | LUTs × cycles |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        x = r.get("xc7", {})
        lxc = f"{r['luts_x_cycles'] / 1e6:,.1f} M" if "luts_x_cycles" in r else "–"
        luts = f"{x['luts_with_ram']:,}" if x else "–"
        print(f"| {r['design']} | {r['curve']} | {r['cycles']:,} | {r['cycles_per_iteration']:g} | "
              f"{r['multiplier_bound']:,} ({100 * r['multiplier_utilisation']:.1f} %) | {luts} | "
              f"{x.get('ffs', '–')} | {x.get('bram', '–')} | {x.get('depth', '–')} | {lxc} |")
    for c in OPEN_CORES:
        print(f"| {c['design']} (pairhw/published.py) | {c['curve']} | {c['cycles']:,} | – | – | {c['luts']:,} | "
              f"{c['ffs']:,} | {c['bram']} | – | {c['luts_x_cycles'] / 1e6:,.1f} M |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
