"""Benchmark: isolated packed (``--lut6``) TMVP cores under different split schedules (JSON).

    python bench/tmvp_cores.py [--n 306 --n 408] [--schedule 233 --schedule 332 …]
                               [-o bench/out/tmvp_cores.json]

Each core is ``nets.tmvp_net(lut6=True)`` between input and output registers, synthesized with the
project's xc7 flow (cached by a hash of the Verilog).  Without ``--schedule``, each size is measured
with the schedule ``default_schedule(n, lut6=True)`` picks and with the schedules it was compared
against when it was chosen; the table also gives the cost model's estimate.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from amaranth.back import verilog  # noqa: E402
from amaranth.hdl import Module, Signal  # noqa: E402
from amaranth.lib import wiring  # noqa: E402
from amaranth.lib.wiring import In, Out  # noqa: E402

from pairhw.rtl.binary import nets  # noqa: E402
from pairhw.rtl.binary.catalogue import _lut6_tmvp_cost, default_schedule  # noqa: E402
from pairhw.synth.flows import synthesize  # noqa: E402

#: the schedules measured against the model's choice (digits: splits, outermost first)
COMPARED = {306: ["233", "323", "2222", "332", "2332", "3232", "3322"],
            408: ["2223", "2232", "2322", "3222", "3232", "332", "3322"]}


class TmvpCore(wiring.Component):
    """A registered n-bit packed TMVP core: T (2n - 1 diagonals) and V in, W out."""

    def __init__(self, n: int, schedule):
        self.n, self.schedule = n, tuple(schedule)
        super().__init__({"t": In(2 * n - 1), "v": In(n), "w": Out(n)})

    def elaborate(self, platform):
        m = Module()
        t, v, w = Signal(2 * self.n - 1), Signal(self.n), Signal(self.n)
        m.d.sync += [t.eq(self.t), v.eq(self.v)]
        m.d.sync += w.eq(nets.tmvp_net(m, t, v, self.n, self.schedule, "core", True))
        m.d.comb += self.w.eq(w)
        return m


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, action="append", help="core sizes (default 306 and 408)")
    ap.add_argument("--schedule", action="append", help="schedules as digits, e.g. 233 (default: see above)")
    ap.add_argument("-o", "--output", default=os.path.join(os.path.dirname(__file__), "out", "tmvp_cores.json"))
    args = ap.parse_args()
    rows = []
    for n in args.n or [306, 408]:
        chosen = "".join(map(str, default_schedule(n, lut6=True)))
        scheds = args.schedule or COMPARED.get(n, [chosen])
        for s in scheds:
            sched = tuple(int(c) for c in s)
            name = f"Core_{n}_{s}_l6"
            print(f"[bench] {name}: synthesizing", file=sys.stderr, flush=True)
            res = synthesize(verilog.convert(TmvpCore(n, sched), name=name, emit_src=False), name, "xc7")
            rows.append({"n": n, "schedule": s, "default": s == chosen, "luts": res["luts"],
                         "model": round(_lut6_tmvp_cost(n, sched)), "depth": res["depth"],
                         "seconds": res["seconds"], "cached": res["cached"]})
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w") as f:
        json.dump(rows, f, indent=1)
    print("| n | schedule | default | LUTs | model | LUT depth |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['n']} | {r['schedule']} | {'yes' if r['default'] else ''} | {r['luts']:,} | "
              f"{r['model']:,} | {r['depth']} |")
    print(f"\nwrote {args.output}")


if __name__ == "__main__":
    main()
