"""``pairhw report``: every seed's table, measured figures that equal the engine's, recorded figures
with their commands, plots, offline HTML, deterministic and safe output."""

import json
import re
from pathlib import Path

import pytest

from pairhw import designs, published, report
from pairhw.cli import main

ROOT = Path(__file__).resolve().parents[2]
SECTIONS = ("adikari", "shu", "chavez", "nagl", "beuchat", "ate", "products", "designs")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def quick(monkeypatch):
    """The default report's plan, cut to what compiles in a second and one small simulation."""
    monkeypatch.setattr(report, "LIVE_SECONDS", 0.3)
    monkeypatch.setattr(report, "SIM_DESIGNS", ("asip-79-lsd5",))
    monkeypatch.setattr(report, "SYNTH_DESIGNS", ())


def test_report_tables_sources_and_determinism(capsys, tmp_path, quick):
    out = tmp_path / "r"
    code, text, err = run(capsys, "report", "-o", str(out), "--db", str(tmp_path / "s.sqlite"), "--json")
    assert code == 0, err
    summary = json.loads(text)
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted([*summary["files"], "manifest.json"]) and {"index.html", "report.md", "manifest.json",
                                          "pareto-f2-1223.svg", "pareto-f2-1223.png"} <= set(names)
    html = (out / "index.html").read_text()
    md = (out / "report.md").read_text()
    for s in SECTIONS:
        assert f'id="{s}"' in html
    assert not re.search(r"(src|href)=\"https?://", html)  # works offline: no CDN, no remote images
    # published figures, from pairhw.published
    for d, p in published.ADIKARI.items():
        assert f"{p['cycles']:,}" in md and f"{p['luts']:,}" in md
    for d in published.NAGL_ASIP:
        assert f"{published.nagl_cycles(d):,}" in md
    # products, checks and batches beside their single-pairing core: a batch's cycles per pairing
    prod = html.split('id="products"')[1].split("</table>")[0]
    row = next(r for r in prod.split("<tr>") if "<td>ate-bls12-381-fast-b2</td>" in r)
    assert "<td>ate-bls12-381-fast</td>" in row and "15,166" in row and "0.927" in row  # 30,332 / 2 / 16,359
    # a measured design: the engine's cycles and a Verilator run, marked as measured
    lsd5 = designs.get("asip-79-lsd5").report()["cycles"]
    every = html.split('id="designs"')[1]  # the design's row in "Every built-in design" (ECP5 has one too)
    row = next(r for r in every.split("<tr>") if "<td>asip-79-lsd5</td>" in r)
    assert f'<td class="measured">{lsd5:,}</td>' in row
    assert re.search(r'<td class="measured" title="pairhw sim asip-79-lsd5 -n 2 --seed 1, measured '
                     r'\d{4}-\d\d-\d\d">2/2, constant time</td>', row)
    # recorded figures carry a note whose command is listed
    rec = report.recorded()
    k153 = rec["synth"]["asip-1223-k153"]
    assert re.search(rf'class="recorded" title="python bench/asip1223.py --gates">{k153["ge"]:,}<sup>', html)
    assert "python bench/asip1223.py --gates" in summary["recorded_commands"]
    assert summary["measured"] >= 2
    # the ECP5 timing recorded by bench/ecp5.py: each row's Fmax (marked when the static placer placed it or
    # router2 routed it), with its command
    for e in rec.get("ecp5", []):
        if e.get("fmax_mhz"):
            mark = report.ecp5_how(e)
            assert re.search(rf'class="recorded" title="{re.escape(e["command"])}">{e["fmax_mhz"]:,.1f}'
                             rf'{re.escape(mark)}<sup>', html)
    assert ('id="ecp5"' in html) == bool(rec.get("ecp5"))
    # the same report again: identical files, from the store
    code, _, err = run(capsys, "report", "-o", str(out), "--db", str(tmp_path / "s.sqlite"))
    assert code == 0 and " 0 to compute" in err
    again = {p.name: p.read_bytes() for p in out.iterdir()}
    assert again["index.html"].decode() == html and again["report.md"].decode() == md


def test_report_refuses_a_foreign_directory_before_measuring(capsys, tmp_path, quick):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "keep.txt").write_text("mine")
    code, out, err = run(capsys, "report", "-o", str(tmp_path / "d"), "--db", str(tmp_path / "s.sqlite"))
    assert code == 2 and "--force" in err and out == ""
    assert [p.name for p in (tmp_path / "d").iterdir()] == ["keep.txt"] and not (tmp_path / "s.sqlite").exists()
    (tmp_path / "f").write_text("x")
    code, _, err = run(capsys, "report", "-o", str(tmp_path / "f"))
    assert code == 2 and "not a directory" in err


def _recorded_cycles_match(limit: float):
    rec = report.recorded()["schedule"]
    assert set(rec) == set(designs.names())  # every built-in design has a recorded schedule
    for n, r in rec.items():
        if r["compile_seconds"] <= limit:
            rep = designs.get(n).report()
            assert report.schedule_summary(rep) == {k: v for k, v in r.items() if k != "compile_seconds"}, n


def test_recorded_schedules_are_the_engines_quick_ones():
    """Recorded cycles are what the engine gives (the designs that compile in seconds; all: slow)."""
    _recorded_cycles_match(3)


@pytest.mark.slow
def test_recorded_schedules_are_the_engines():
    _recorded_cycles_match(float("inf"))


def _docs_text() -> str:
    """The README and every documentation page, as one text."""
    return "\n".join(p.read_text() for p in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))])


def test_recorded_synthesis_figures_are_the_docs():
    """The recorded areas are the documentation's tables (one transcription, checked here)."""
    readme = _docs_text()
    for n, r in report.recorded()["synth"].items():
        key = "luts_incl_ram" if r["target"] == "xc7" else "ge"
        rows = [l for l in readme.splitlines() if l.startswith(f"| `{n}`") and f"{r[key]:,}" in l]
        assert rows, n
        # a results page's row has both (the README's prime table gives the area alone)
        second = f"{r['ffs']:,}" if "ffs" in r else f"{r['memory_bits']:,}"
        assert any(second in row for row in rows), n


def test_recorded_searches_are_the_docs_and_the_engines():
    """Each recorded explore point: its figures are a row of the documentation's search table, and its
    cycles are what the engine schedules for the spec's point of that name."""
    from pairhw.explore import spec as specs

    readme = _docs_text()
    entries = report.recorded()["explore"]
    assert entries
    points = {}
    for e in entries:
        rows = [f"{e['cycles']:,} | {luts} | {e['ffs']:,} | {e['depth']} |"
                for luts in (f"{e['luts_incl_ram']:,}", f"**{e['luts_incl_ram']:,}**")]
        assert any(r in readme for r in rows), e["point"]
        if e["spec"] not in points:
            points[e["spec"]] = {p.name: p for p in specs.load(str(ROOT / e["spec"])).points()}
        p = points[e["spec"]][e["point"]]
        assert designs.from_data(p.data).report()["cycles"] == e["cycles"]


@pytest.mark.slow
def test_the_default_report_on_a_cold_cache(capsys, tmp_path):
    """The README's main command, as a user runs it (a few minutes)."""
    code, _, err = run(capsys, "report", "-o", str(tmp_path / "out"), "--db", str(tmp_path / "s.sqlite"))
    assert code == 0, err
    html = (tmp_path / "out" / "index.html").read_text()
    for d in report.SIM_DESIGNS:
        row = next(r for r in html.split("<tr>") if f"<td>{d}</td>" in r)
        assert re.search(r'<td class="measured" title="pairhw sim [^"]*">2/2, constant time</td>', row)


def test_ecp5_rows_and_what_the_depth_suggests_for_unplaced_cores():
    """Placed cores give Fmax × xc7 depth (1,000, 800 and 1,200 MHz·levels here); a core over the part
    is estimated at the median over its depth, and a unit without a recorded depth is not."""
    rec = {"synth": {"a": {"target": "xc7", "depth": 10}, "b": {"target": "xc7", "depth": 16},
                     "c": {"target": "xc7", "depth": 20}, "big": {"target": "xc7", "depth": 13},
                     "g": {"target": "gates-ram", "depth": 30}},
           "schedule": {"big": {"cycles": 26000}},
           "ecp5": [{"label": "a", "command": "x", "lut4": 10, "ffs": 1, "fits": True, "fmax_mhz": 100.0, "cycles": 500},
                    {"label": "b", "command": "x", "lut4": 10, "ffs": 1, "fits": True, "fmax_mhz": 50.0},
                    {"label": "c", "command": "x", "lut4": 10, "ffs": 1, "fits": True, "fmax_mhz": 60.0},
                    {"label": "g", "command": "x", "lut4": 10, "ffs": 1, "fits": True, "fmax_mhz": 10.0},
                    {"label": "big", "command": "x", "lut4": 90000, "ffs": 1, "fits": False},
                    {"label": "slow", "command": "x", "lut4": 40000, "ffs": 1, "fits": True,
                     "note": "not placed and routed within 600 s"},
                    {"label": "unit", "command": "x", "lut4": 345, "ffs": 1, "dsp": 800, "fits": False},
                    {"label": "r2", "command": "x --router router2", "lut4": 50000, "ffs": 1, "fits": True,
                     "fmax_mhz": 27.5, "pnr": "nextpnr-ecp5 --85k --router router2"},
                    {"label": "st", "command": "x --placer static", "lut4": 20000, "ffs": 1, "fits": True,
                     "fmax_mhz": 57.0, "pnr": "nextpnr-ecp5 --85k --placer static"},
                    {"label": "st2", "command": "x --placer static --router router2", "lut4": 20000, "ffs": 1,
                     "fits": True, "fmax_mhz": 51.0, "pnr": "nextpnr-ecp5 --85k --placer static --router router2"}]}
    rec["synth"]["r2"] = {"target": "xc7", "depth": 8}  # 220 MHz·levels: routed by router2, not in the median
    rec["synth"]["st"] = {"target": "xc7", "depth": 5}  # 285 MHz·levels: placed by static, not in the median
    est = report.ecp5_depth_estimates(rec)
    assert est["mhz_levels"] == 1000 and est["placed"] == ["b", "a", "c"] and est["range"] == (800, 1200)
    assert [(x["design"], round(x["fmax_mhz"], 2), x["fits"]) for x in est["estimates"]] == [("big", 76.92, False)]
    assert report.ecp5_cells(rec["ecp5"][0])[5:] == ["100.0", "500", "5.0"]
    assert report.ecp5_cells(rec["ecp5"][5])[5] == "not placed and routed within 600 s"
    assert report.ecp5_cells(rec["ecp5"][6])[5] == "does not fit"
    assert report.ecp5_cells(rec["ecp5"][7])[5] == "27.5 (router2)"
    assert report.ecp5_cells(rec["ecp5"][8])[5] == "57.0 (static placer)"
    assert report.ecp5_cells(rec["ecp5"][9])[5] == "51.0 (static placer, router2)"
    fit = {"label": "toy", "command": "python bench/ecp5_fit.py toy", "lut4": 336180, "ffs": 1, "fits": False}
    assert report.ecp5_cells(fit)[5] == "does not fit (native Yosys, ABC's &if mapping alone: bench/ecp5_fit.py)"
    md = report.ecp5_markdown(rec)
    assert "| `unit` | 345 | 1 | 800 | 0 | does not fit | – | – |" in md
    assert "median 1,000 MHz·levels (800–1,200)" in md
    assert "- `big` (over the LFE5U-85F): xc7 depth 13, about 77 MHz, 338.0 µs per pairing." in md
    assert report.ecp5_estimate_text({"ecp5": rec["ecp5"][4:]}) == []


def test_ecp5_table_lists_every_entry_and_says_why_one_has_no_figures():
    """Given the bench's labels, the table has a row for each, in their order: a recorded Yosys
    failure says what failed, an entry without a row says "not measured"; and the depth estimate of a
    core without an ECP5 netlist does not call it over the part."""
    rec = {"synth": {"a": {"target": "xc7", "depth": 10}, "crashed": {"target": "xc7", "depth": 20}},
           "ecp5": [{"label": "crashed", "command": "x", "error": "yosys stopped with a WebAssembly exception during ABC9"},
                    {"label": "a", "command": "x", "lut4": 10, "ffs": 1, "fits": True, "fmax_mhz": 100.0}]}
    md = report.ecp5_markdown(rec, ["a", "never", "crashed"]).splitlines()
    assert [line.split(" | ")[0] for line in md[2:5]] == ["| `a`", "| `never`", "| `crashed`"]
    assert md[3] == "| `never` | – | – | – | – | not measured | – | – |"
    assert md[4] == "| `crashed` | – | – | – | – | yosys stopped with a WebAssembly exception during ABC9 | – | – |"
    assert "- `crashed` (no ECP5 netlist): xc7 depth 20, about 50 MHz." in md
    assert "never" not in report.ecp5_markdown(rec)  # without labels: the recorded rows only


def test_docs_ecp5_table_has_a_row_for_every_bench_entry():
    """The done-when of issue 24: the ECP5 results page lists every unit and core of the ECP5 bench."""
    import importlib.util

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("render_docs", root / "scripts" / "render_docs.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    table = (root / "docs" / "results" / "ecp5.md").read_text().split("<!-- ecp5-table")[1].split("<!-- /ecp5-table")[0]
    labels = mod.bench_ecp5_labels()
    assert len(labels) > 40
    assert [m for m in re.findall(r"^\| `([^`]+)` \|", table, re.M)] == labels
