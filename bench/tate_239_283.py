"""Benchmark: Shu–Kwon–Gaj's extension-field multiplier CA over F_2^239 and F_2^283 against their
Table 2 (writes JSON).

    python bench/tate_239_283.py [--verify N] [--digit D ...] [-o bench/out/tate_239_283.json]

For each field, scheme (1: six MSD multipliers, one round; 2: three, two rounds) and digit size D
(Table 2's 4, 8, 16): cycles per C·A (the paper's latency in ns over its clock period, and ours),
``--verify N`` random products simulated in Verilator against the golden model (plus 10 edge
cases), and the Yosys xc7 synthesis (LUT6 / FF / depth) beside the paper's Virtex-II Pro figures
(LUT4: comparable in kind, not one to one).  The Tate processors of the paper's Table 3 are not
designs yet (issue 21); this bench has their multiplier.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from _common import write_json  # noqa: E402

#: Shu–Kwon–Gaj Table 2 (XC2VP100): (m, scheme, D) -> (FF, LUT, slices, clock ns, latency ns)
TABLE2 = {
    (239, 1, 4): (3664, 7799, 4268, 9.61, 576.6), (239, 1, 8): (3664, 13508, 7094, 9.98, 299.4),
    (239, 1, 16): (3664, 20744, 10722, 9.99, 149.9), (239, 2, 4): (2675, 5580, 3617, 9.86, 1182.8),
    (239, 2, 8): (2675, 8439, 5331, 9.98, 598.8), (239, 2, 16): (2675, 12075, 7536, 9.76, 292.8),
    (283, 1, 4): (4324, 9273, 5070, 9.84, 698.6), (283, 1, 8): (4348, 16060, 8416, 9.98, 359.3),
    (283, 1, 16): (4348, 24729, 12856, 9.99, 179.8), (283, 2, 4): (3159, 6632, 3046, 8.89, 1262.4),
    (283, 2, 8): (3171, 10031, 4483, 9.99, 719.3), (283, 2, 16): (3171, 14428, 6306, 9.98, 359.3),
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default=os.path.join(os.path.dirname(__file__), "out", "tate_239_283.json"))
    ap.add_argument("--verify", type=int, default=10, metavar="N", help="random products in Verilator (0: none)")
    ap.add_argument("--digit", type=int, action="append", help="only these digit sizes (default 4, 8, 16)")
    ap.add_argument("--no-synth", action="store_true", help="cycles and verification only")
    args = ap.parse_args()

    from pairhw import params
    from pairhw.rtl.binary.catalogue import make_unit
    from pairhw.rtl.emit import unit_verilog
    from pairhw.synth.flows import synthesize

    rows = []
    for (m, scheme, D), (ff, lut, slices, clk, lat_ns) in TABLE2.items():
        if args.digit and D not in args.digit:
            continue
        F = params.curve(f"f2-{m}").F
        unit = make_unit(f"ca{scheme}", F, digit=D)
        t0 = time.time()
        row = {"m": m, "scheme": scheme, "digit": D, "unit": unit.name,
               "paper": {"ff": ff, "lut4": lut, "slices": slices, "clock_ns": clk, "latency_ns": lat_ns,
                         "cycles": round(lat_ns / clk)},
               "ii": unit.initiation_interval, "latency": unit.latency}
        if args.verify:
            from pairhw.cli.unit import _verify

            res = _verify(unit, args.verify, 1, "verilator")
            row.update(verified=res["verified"], failed=res["failed"])
        if not args.no_synth:
            s = synthesize(unit_verilog(unit), unit.name, "xc7")
            row.update(luts=s["luts"], ffs=s["ffs"], depth=s["depth"])
        row["seconds"] = round(time.time() - t0, 1)
        rows.append(row)
        print(f"[bench] {unit.name}: II {row['ii']} (paper {row['paper']['cycles']}), "
              + (f"{row['luts']:,} LUT6 (paper {lut:,} LUT4), {row['ffs']:,} FF (paper {ff:,}), depth {row['depth']}"
                 if "luts" in row else "not synthesized")
              + (f", {row['verified']}/{row['verified'] + row['failed']} verified" if args.verify else ""), flush=True)
    write_json(args.output, {"ca": rows}, indent=1)
    print()
    print("| field | scheme | D | cycles (paper) | LUT6 (paper LUT4) | FF (paper) | depth | verified |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        p = r["paper"]
        print(f"| F_2^{r['m']} | {r['scheme']} | {r['digit']} | {r['ii']} ({p['cycles']}) | "
              f"{r.get('luts', 0):,} ({p['lut4']:,}) | {r.get('ffs', 0):,} ({p['ff']:,}) | {r.get('depth', '–')} | "
              f"{str(r['verified']) + '/' + str(r['verified'] + r['failed']) if 'verified' in r else '–'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
