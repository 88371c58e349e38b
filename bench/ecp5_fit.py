"""Benchmark: does a core fit an LFE5U-85F, when Yosys' full ECP5 flow takes hours? (writes JSON).

    python bench/ecp5_fit.py DESIGN [-o bench/out/ecp5_fit.json] [--record] [--units]

``pairhw synth DESIGN --target ecp5`` maps the netlist to LUT4s with ABC9's default script, whose
last steps (``&dch``, then ``&mfs``) ran for hours on the largest cores without finishing (docs/results/ecp5.md).  This script runs the same ``synth_ecp5`` with the native Yosys (pyosys), but
maps with ABC's LUT mapper alone (``abc9 -script +&if,-W,300,-v``): minutes instead of hours.  The
flip-flops, DSPs and block RAMs are mapped before ABC runs, so they are the full flow's; the LUT4
count is another mapping's, 0.82 to 2.83 times the full flow's on the cores measured both ways
(:data:`CALIBRATION`; the most where the microcode is a LUT ROM, whose redundancy the full script's
SAT sweeping removes).  So a core over the part by more than :data:`MARGIN` times does not fit
either way; one under the part may fit (``bench/ecp5.py`` places and routes it); one in between is
inconclusive.  Nothing is placed.

``--units`` synthesizes each unit of the core alone instead (the core's own Verilog, each of the
top's submodules as the top, ``synth_ecp5`` up to its LUT mapping): every unit's FFs, DSPs and block
RAMs as mapped before the LUT mapping, whose sum the core holds at least (flattening leaves a unit
whose inputs come from registers and whose outputs are all written whole).  A core whose units
alone are over the part does not fit; its LUT4s are not counted.  For the cores whose whole-core
synthesis runs for hours before ABC (``ate-bn254-fast``: Yosys' ``opt_clean`` for 21 minutes).

``--record`` writes a row into ``pairhw/report/recorded.json`` (section ``ecp5``, through
``bench/ecp5.py``'s ``record``) only for a core that does not fit: ``fits: false``, with a note that
says what was over the part and how it was counted (ABC's ``&if`` mapping, or the units alone).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from _common import write_json  # noqa: E402

#: synth_ecp5 up to its LUT mapping, ABC's LUT mapper alone, then the rest of synth_ecp5 (the labels
#: of ``help synth_lattice`` in Yosys 0.70; map_luts also maps latches, done here by hand)
SCRIPT = """read_verilog -sv design.v
synth_ecp5 -top {top} -run begin:map_luts
techmap -map +/lattice/latches_map.v
abc9 -W 300 -script +&if,-W,300,-v
clean
synth_ecp5 -top {top} -run map_cells:
tee -q -o stat.json stat -json
"""

#: (design, this mapping's LUT4s, the full flow's: ``pairhw synth DESIGN --target ecp5``, recorded.json)
CALIBRATION = (("ate-bn-tiny", 39766, 48565), ("f2-79-etat-tmvp3", 4745, 3839), ("tate1-239-d16", 560586, 197859))
#: a core whose LUT4 sites by this mapping exceed the part by more than this factor does not fit: the
#: largest ratio of this mapping to the full flow's in :data:`CALIBRATION` (2.83) is under it
MARGIN = 3.0

NOTE = "over the LFE5U-85F by ABC's LUT mapping alone (&if; {sites:,} LUT4 sites, {times:.1f} times the part)"

#: a unit of the core alone, up to the LUT mapping: its FFs, DSPs and block RAMs are mapped by then
UNIT_SCRIPT = """read_verilog -sv design.v
synth_ecp5 -top {top} -run begin:map_luts
tee -q -o stat.json stat -json
"""


def unit_modules(verilog: str, top: str) -> list[str]:
    """The modules of the core's units: the top's direct submodules (``{top}__{instance}``; the
    register banks and the ROM are memories of the top, not modules)."""
    import re

    return sorted(set(re.findall(rf"^module ({re.escape(top)}__[A-Za-z0-9_]+?)\s*\(", verilog, re.M))
                  - set(re.findall(rf"^module ({re.escape(top)}__[A-Za-z0-9_]+__[A-Za-z0-9_]+?)\s*\(", verilog, re.M)))


def module_text(verilog: str, mod: str) -> str:
    """The Verilog of module ``mod`` and of its submodules (``{mod}__…``), each with the attributes
    before it: a unit without the rest of the core, which Yosys would parse again for every unit."""
    import re

    blocks = re.findall(r"((?:^\(\*[^\n]*\*\)\n)*^module (\S+?)\s*\(.*?^endmodule\n)", verilog, re.M | re.S)
    return "".join(text for text, name in blocks if name == mod or name.startswith(mod + "__"))


def units_cells(verilog: str, top: str, log) -> dict:
    """{unit module: its cells} by :data:`UNIT_SCRIPT` (native Yosys), one unit at a time."""
    from pairhw.scratch import scratch_dir
    from pairhw.synth.flows import _stat_cells, _yosys

    out = {}
    for mod in unit_modules(verilog, top):
        log(f"yosys (native, up to the LUT mapping): {mod} alone")
        with scratch_dir("pairhw-fit-") as work:
            _yosys(UNIT_SCRIPT.format(top=mod), module_text(verilog, mod), work, log, yosys="native")
            out[mod] = _stat_cells(work, mod)
    return out


def main(argv=None) -> int:
    from pairhw import designs
    from pairhw import flow
    from pairhw.scratch import scratch_dir
    from pairhw.synth.flows import SynthError, _stat_cells, _yosys

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("design", help="a built-in design (pairhw designs)")
    ap.add_argument("-o", "--output", default="bench/out/ecp5_fit.json")
    ap.add_argument("--record", action="store_true", help="record a core over the part in recorded.json")
    ap.add_argument("--units", action="store_true", help="each unit of the core alone: FFs, DSPs, block RAMs")
    args = ap.parse_args(argv)
    if args.design not in designs.names():
        ap.error(f"no built-in design {args.design!r}; designs: pairhw designs")

    def log(msg):
        print(f"[ecp5_fit] {msg}", file=sys.stderr, flush=True)

    d = designs.get(args.design)
    verilog = flow.verilog(d)
    t0 = time.monotonic()
    try:
        if args.units:
            per = units_cells(verilog, d.top, log)
        else:
            log(f"yosys (native, ABC &if alone): synthesizing {d.top}")
            with scratch_dir("pairhw-fit-") as work:
                _yosys(SCRIPT.format(top=d.top), verilog, work, log, yosys="native")
                per = {d.top: _stat_cells(work, d.top)}
    except SynthError as e:
        print(f"ecp5_fit: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"ecp5_fit: stopped after {time.monotonic() - t0:.0f} s", file=sys.stderr)
        return 130
    row, message = (_units_row if args.units else _core_row)(d, per, round(time.monotonic() - t0, 1))
    write_json(args.output, row)
    print(f"{d.name}: {message}")
    if args.record and row["fits"] is False:
        from ecp5 import record

        record(row)
    return 0


def _over(hard: dict) -> str:
    """What a row's ``hard`` resources (``ecp5_excess`` but the LUT4 sites) say of the part."""
    from pairhw.synth.flows import ECP5_LIMITS

    return "; ".join(f"{n:,} {k} exceed the LFE5U-85F's {ECP5_LIMITS[k]:,}" for k, n in hard.items())


def _core_row(d, per: dict, seconds: float) -> tuple[dict, str]:
    """The whole core by ABC's &if: its row, and what to print of it."""
    from pairhw.report import ECP5_FIT
    from pairhw.synth.flows import ECP5_LIMITS, ecp5_excess, ecp5_lut_sites

    cells = per[d.top]
    sites = ecp5_lut_sites(cells)
    # flip-flops, DSPs and block RAMs are the full flow's: over the part is over it
    hard = {k: n for k, n in ecp5_excess(cells).items() if k != "LUT4 sites"}
    times = sites / ECP5_LIMITS["LUT4 sites"]
    fits = False if hard or times > MARGIN else (True if times <= 1 else None)
    row = {"label": d.name, "command": ECP5_FIT + d.name, "lut4": cells.get("LUT4", 0),
           "ffs": cells.get("TRELLIS_FF", 0), "dsp": cells.get("MULT18X18D", 0), "ebr": cells.get("DP16KD", 0),
           "lut4_sites": sites, "fits": fits, "seconds": seconds, "cells": dict(sorted(cells.items()))}
    if fits is False:
        row["note"] = NOTE.format(sites=sites, times=times) if not hard else _over(hard)
    verdict = {True: "fits the LFE5U-85F by this mapping (place and route: bench/ecp5.py)", False: row.get("note"),
               None: f"inconclusive: {times:.1f} times the part, within the factor {MARGIN:g} by which this "
                     "mapping can exceed the full flow's"}[fits]
    return row, (f"{row['lut4']:,} LUT4 ({sites:,} sites), {row['ffs']:,} FFs, {row['dsp']} DSP, "
                 f"{row['ebr']} EBR by ABC's &if mapping: {verdict}")


def _units_row(d, per: dict, seconds: float) -> tuple[dict, str]:
    """``--units``: the core's units alone; over the part by their FFs, DSPs or block RAMs: does not fit."""
    from pairhw.report import ECP5_FIT
    from pairhw.synth.flows import ecp5_excess

    total = {}
    for cells in per.values():
        for k, n in cells.items():
            total[k] = total.get(k, 0) + n
    hard = {k: n for k, n in ecp5_excess(total).items() if k != "LUT4 sites"}
    units = {m[len(d.top) + 2:]: {"ffs": c.get("TRELLIS_FF", 0), "dsp": c.get("MULT18X18D", 0),
                                   "ebr": c.get("DP16KD", 0)} for m, c in per.items()}
    row = {"label": d.name, "command": f"{ECP5_FIT}--units {d.name}", "lut4": None,
           "ffs": total.get("TRELLIS_FF", 0), "dsp": total.get("MULT18X18D", 0), "ebr": total.get("DP16KD", 0),
           "fits": False if hard else None, "seconds": seconds, "units": units}
    if hard:
        big = max(units, key=lambda u: units[u]["dsp"] + units[u]["ffs"] + units[u]["ebr"])
        row["note"] = (f"its units alone: {_over(hard)} ({big}: {units[big]['ffs']:,} FFs, "
                       f"{units[big]['dsp']:,} DSP, {units[big]['ebr']:,} EBR)")
    return row, (f"its {len(units)} units alone: {row['ffs']:,} FFs, {row['dsp']:,} DSP, {row['ebr']:,} EBR: "
                 + (row["note"] if hard else "under the part (the core's fit is not decided by its units)"))


def _interrupt(signum, frame):
    raise KeyboardInterrupt


if __name__ == "__main__":
    # SIGTERM (a time limit) unwinds like Ctrl-C: the flow then stops Yosys and removes its directory
    signal.signal(signal.SIGTERM, _interrupt)
    sys.exit(main())
