"""The Pareto front of a sweep (cycles against area; area × time) and its plots.

Area is the synthesis figure of the sweep's target: LUTs including LUT RAM (``xc7``), gate
equivalents (``gates``, ``gates-ram``) or LUT4s (``ecp5``).  Plots are matplotlib PNG and SVG,
deterministic (no dates in the files), with published designs drawn as reference points.
"""

from __future__ import annotations

from pathlib import Path

AREA = {"xc7": ("luts_incl_ram", "LUTs incl. LUT RAM (Yosys xc7)"), "gates": ("ge", "gate equivalents"),
        "gates-ram": ("ge", "gate equivalents (RAMs as macros)"), "ecp5": ("luts", "LUT4s (ECP5)")}


def area(row: dict, target: str):
    """The point's area on ``target``, or None if it was not synthesized (or failed)."""
    s = row.get("synth") or {}
    return s.get(AREA[target][0]) if "error" not in s else None


def cycles(row: dict):
    s = row.get("schedule") or {}
    return s.get("cycles")


def front(items: list[tuple]) -> list[int]:
    """Indices of the non-dominated items of ``[(x, y), ...]`` (both minimised), by increasing x."""
    order = sorted(range(len(items)), key=lambda i: (items[i][0], items[i][1]))
    out, best = [], None
    for i in order:
        if best is None or items[i][1] < best:
            out.append(i)
            best = items[i][1]
    return out


def mark(rows: list[dict], target: str) -> None:
    """Set ``row["pareto"]`` (cycles × area) on every row with both figures."""
    have = [i for i, r in enumerate(rows) if cycles(r) is not None and area(r, target) is not None]
    on = {have[j] for j in front([(cycles(rows[i]), area(rows[i], target)) for i in have])}
    for i, r in enumerate(rows):
        r["pareto"] = i in on if i in have else None


def references(curve: str, target: str) -> list[dict]:
    """Published designs on ``curve`` to draw beside a sweep's points (cycles × the same kind of area)."""
    from pairhw import published as pub

    if curve == "f2-1223" and target == "xc7":
        return [{"label": f"Adikari et al. {r['label']}", "cycles": r["cycles"], "area": r["luts"]}
                for r in pub.ADIKARI.values()]
    if curve == "f2-1223" and target.startswith("gates"):
        return [{"label": f"Nagl et al. {d.split('-')[-1].upper()}", "cycles": pub.nagl_cycles(d),
                 "area": round(r["kge_synth"] * 1000)} for d, r in pub.NAGL_ASIP.items()]
    if curve == "f3-97" and target == "xc7":
        return [{"label": k, "cycles": r["cycles"], "area": r["luts"]} for k, r in pub.OPEN_F3_97.items()]
    return []


def plot(points: list[dict], refs: list[dict], path_stem: Path, title: str, ylabel: str) -> list[Path]:
    """Scatter ``points`` ({name, cycles, area, pareto}) and ``refs`` (published: {label, cycles,
    area}) as cycles × area, the front as a line; writes ``<stem>.png`` and ``<stem>.svg``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "pairhw"
    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=100)
    ours = [p for p in points if p["cycles"] is not None and p["area"] is not None]
    ax.scatter([p["cycles"] for p in ours], [p["area"] for p in ours], s=18, c="#4477aa", label="pairhw")
    fr = sorted((p for p in ours if p.get("pareto")), key=lambda p: p["cycles"])
    if fr:
        ax.step([p["cycles"] for p in fr], [p["area"] for p in fr], where="post", c="#4477aa", lw=1)
        for p in fr:
            ax.annotate(p["name"], (p["cycles"], p["area"]), fontsize=6, xytext=(3, 3), textcoords="offset points")
    if refs:
        ax.scatter([r["cycles"] for r in refs], [r["area"] for r in refs], s=30, marker="x", c="#cc3311",
                   label="published")
        for r in refs:
            ax.annotate(r["label"], (r["cycles"], r["area"]), fontsize=6, color="#cc3311", xytext=(3, -8),
                        textcoords="offset points")
    ax.set_xlabel("cycles per pairing")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9)
    ax.grid(True, lw=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    path_stem.parent.mkdir(parents=True, exist_ok=True)
    out = []
    for ext, meta in ((".png", {"Software": None}), (".svg", {"Date": None, "Creator": None})):
        p = path_stem.with_suffix(ext)
        fig.savefig(p, metadata=meta)
        out.append(p)
    plt.close(fig)
    return out
