"""Benchmark: Shu–Kwon–Gaj's Tate processors (Table 3) and their multiplier CA (Table 2) over F_2^239
and F_2^283 (writes JSON).

    python bench/tate_239_283.py [--verify N] [--digit D ...] [--designs-only | --ca-only] [--synth]
                                 [-o bench/out/tate_239_283.json]

The designs ``tate1-239-d16`` … ``tate2-283-d16``: cycles per pairing against Table 3 (µs × MHz) and
against the paper's latency models (9) and (10) evaluated for each row, the multiplier bound, the
pairings simulated in Verilator against the golden model (``--verify``, 2 by default), and with
``--synth`` the Yosys xc7 synthesis (LUT6 / FF / depth) against Table 3's LUT4 / FF.

For each field, scheme (1: six MSD multipliers, one round; 2: three, two rounds) and digit size D
(Table 2's 4, 8, 16): cycles per C·A (the paper's latency in ns over its clock period, and ours),
``--verify N`` random products simulated in Verilator against the golden model (plus 10 edge
cases), and the Yosys xc7 synthesis (LUT6 / FF / depth) beside the paper's Virtex-II Pro figures
(LUT4: comparable in kind, not one to one).
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


#: Shu–Kwon–Gaj Table 3: design -> (m, algorithm, D1, µs, MHz, LUT, FF); cycles = µs × MHz
TABLE3 = {
    "tate1-239-d16": (239, 1, 16, 47, 100, 34499, 10981), "tate1-239-d32": (239, 1, 32, 33, 83, 59971, 11077),
    "tate1-283-d16": (283, 1, 16, 76, 84, 42997, 12995), "tate1-283-d32": (283, 1, 32, 49, 72, 72961, 13007),
    "tate2-239-d16": (239, 2, 16, 34, 84, 48895, 14226), "tate2-283-d16": (283, 2, 16, 70, 56, 64845, 16563),
}


def latency_model(m: int, alg: int, d1: int) -> int:
    """The paper's eq. (9) (Alg. 1) or (10) (Alg. 2) in cycles, D1:D2:D3 = 4:1:2: T1 = ⌈m/D1⌉,
    T2 = ⌈m/D2⌉, T3 = 60 + 12⌈239/D3⌉ or 71 + 11⌈283/D3⌉ (the inversion), T4 = (m+1)/2 + 4(T1 + 2)."""
    t1, t2, d3 = -(-m // d1), -(-m // (d1 // 4)), d1 // 2
    t3 = 60 + 12 * -(-239 // d3) if m == 239 else 71 + 11 * -(-283 // d3)
    if alg == 1:
        return (m + 2) * (t1 + 2) + 3 * t2 + t3 + 8
    t4 = (m + 1) // 2 + 4 * (t1 + 2)
    return (m + 5) // 2 * (t1 + 2) + 3 * t2 + t3 + t4 + 8


def designs_bench(args) -> list:
    from pairhw import designs
    from pairhw import flow
    from pairhw.emit import unit_verilog
    from pairhw.synth.flows import synthesize

    rows = []
    for name, (m, alg, d1, us, mhz, lut, ff) in TABLE3.items():
        if args.design and name not in args.design:
            continue
        d = designs.get(name)
        t0 = time.time()
        rep = d.report()
        row = {"design": name, "m": m, "algorithm": d.algorithm, "digit": d1, "cycles": rep["cycles"],
               "multiplier_bound": rep["multiplier_bound"], "products": rep["products"],
               "registers": sum(rep["registers"].values()),
               "paper": {"cycles": us * mhz, "us": us, "mhz": mhz, "lut4": lut, "ff": ff},
               "model_9_10": latency_model(m, alg, d1)}
        if args.verify:
            res = flow.simulate(d, args.verify, 1)
            row.update(verified=res.verified, failed=res.failed, constant_time=res.constant_time)
        if args.synth:
            s = synthesize(unit_verilog(d.core()), d.top, "xc7")
            row.update(luts=s["luts"], ffs=s["ffs"], depth=s["depth"])
        row["seconds"] = round(time.time() - t0, 1)
        rows.append(row)
        print(f"[bench] {name}: {row['cycles']:,} cycles (Table 3 {us * mhz:,}, eq. {9 if alg == 1 else 10} "
              f"{row['model_9_10']:,}), bound {row['multiplier_bound']:,}"
              + (f", {row['verified']}/{args.verify} verified" if args.verify else ""), flush=True)
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default=os.path.join(os.path.dirname(__file__), "out", "tate_239_283.json"))
    ap.add_argument("--verify", type=int, default=10, metavar="N", help="random products in Verilator (0: none)")
    ap.add_argument("--digit", type=int, action="append", help="only these digit sizes (default 4, 8, 16)")
    ap.add_argument("--no-synth", action="store_true", help="CA: cycles and verification only")
    ap.add_argument("--designs-only", action="store_true", help="only the Table 3 processors")
    ap.add_argument("--ca-only", action="store_true", help="only the Table 2 multipliers")
    ap.add_argument("--design", action="append", help="only these Table 3 designs")
    ap.add_argument("--synth", action="store_true", help="also synthesize the Table 3 processors (slow)")
    args = ap.parse_args()
    procs = [] if args.ca_only else designs_bench(argparse.Namespace(
        design=args.design, synth=args.synth, verify=min(args.verify, 2)))
    if args.designs_only:
        write_json(args.output, {"designs": procs}, indent=1)
        _print_designs(procs)
        return 0

    from pairhw import params
    from pairhw.rtl.binary.catalogue import make_unit
    from pairhw.emit import unit_verilog
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
            from pairhw import flow

            res = flow.verify_unit(unit, args.verify, 1, "verilator")
            row.update(verified=res.verified, failed=res.failed)
        if not args.no_synth:
            s = synthesize(unit_verilog(unit), unit.name, "xc7")
            row.update(luts=s["luts"], ffs=s["ffs"], depth=s["depth"])
        row["seconds"] = round(time.time() - t0, 1)
        rows.append(row)
        print(f"[bench] {unit.name}: II {row['ii']} (paper {row['paper']['cycles']}), "
              + (f"{row['luts']:,} LUT6 (paper {lut:,} LUT4), {row['ffs']:,} FF (paper {ff:,}), depth {row['depth']}"
                 if "luts" in row else "not synthesized")
              + (f", {row['verified']}/{row['verified'] + row['failed']} verified" if args.verify else ""), flush=True)
    write_json(args.output, {"designs": procs, "ca": rows}, indent=1)
    _print_designs(procs)
    print()
    print("| field | scheme | D | cycles (paper) | LUT6 (paper LUT4) | FF (paper) | depth | verified |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        p = r["paper"]
        print(f"| F_2^{r['m']} | {r['scheme']} | {r['digit']} | {r['ii']} ({p['cycles']}) | "
              f"{r.get('luts', 0):,} ({p['lut4']:,}) | {r.get('ffs', 0):,} ({p['ff']:,}) | {r.get('depth', '–')} | "
              f"{str(r['verified']) + '/' + str(r['verified'] + r['failed']) if 'verified' in r else '–'} |")
    return 0


def _print_designs(rows) -> None:
    if not rows:
        return
    print()
    print("| design | cycles | Table 3 (µs × MHz) | eq. (9)/(10) | multiplier bound | registers | "
          "LUT6 (Table 3 LUT4) | FF (Table 3) | verified |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        p = r["paper"]
        print(f"| `{r['design']}` | {r['cycles']:,} | {p['cycles']:,} ({p['us']} × {p['mhz']}) | {r['model_9_10']:,} | "
              f"{r['multiplier_bound']:,} | {r['registers']} | "
              f"{format(r['luts'], ',') if 'luts' in r else '–'} ({p['lut4']:,}) | "
              f"{format(r['ffs'], ',') if 'ffs' in r else '–'} ({p['ff']:,}) | "
              f"{str(r['verified']) + '/' + str(r['verified'] + r['failed']) if 'verified' in r else '–'} |")


if __name__ == "__main__":
    sys.exit(main())
