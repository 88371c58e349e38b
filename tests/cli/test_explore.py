"""``pairhw explore``: the spec, the points it makes, the store (resume, no recompute), the local pool
and a Dask LocalCluster, the Pareto front and its plots."""

import json
import sqlite3
from pathlib import Path

import pytest

from pairhw import designs
from pairhw.cli import main
from pairhw.explore import pareto, run as runner, spec as specs
from pairhw.explore.store import Store, result_key

ROOT = Path(__file__).resolve().parents[2]
BASE = "f2-47-etat-banked"  # compiles in about a second

SPEC = f"""
base: {BASE}
axes:
  datapath.units[add].count: [1, 2, 3]
  powers:
    - label: k1
      datapath.units[sqr].k: [1]
    - label: k12
      datapath.units[sqr].k: [1, 2]
"""


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def spec_file(tmp_path):
    p = tmp_path / "s.yaml"
    p.write_text(SPEC)
    return p


def test_points_are_the_product_of_the_axes_with_the_edits_applied(spec_file):
    sp = specs.load(str(spec_file))
    pts = sp.points()
    assert sp.name == "s" and sp.tiers == ("schedule",) and len(pts) == 6
    assert [p.name for p in pts][:2] == [f"{BASE}-add_count1-k1", f"{BASE}-add_count1-k12"]
    base = designs.get(BASE).data
    for p in pts:
        units = {u["name"]: u for u in p.data["datapath"]["units"]}
        assert units["add"]["count"] == int(p.labels[0][-1])
        assert units["sqr"]["k"] == ([1] if p.labels[1] == "k1" else [1, 2])
        assert p.data["curve"] == base["curve"] and p.data["name"] == p.name
    assert designs.get(BASE).data == base  # the base design is not edited in place


def test_set_path_by_index_name_and_new_key():
    data = {"a": {"l": [{"name": "x", "v": 1}, {"name": "y", "v": 2}]}}
    specs.set_path(data, "a.l[y].v", 5)
    specs.set_path(data, "a.l[0].w", 7)
    assert data == {"a": {"l": [{"name": "x", "v": 1, "w": 7}, {"name": "y", "v": 5}]}}


@pytest.mark.parametrize("text, message", [
    ("base: nope\naxes: {datapath.io_width: [64]}", "base: unknown design 'nope'"),
    (f"base: {BASE}\naxes:\n  datapath.io_width: [64]\ncolour: red", "colour: unknown key"),
    (f"base: {BASE}\naxes:\n  datapath.units[bogus].count: [2]", "no element named 'bogus'"),
    (f"base: {BASE}\naxes:\n  datapath.units[add].mul.kind: [lsd]", "has no key 'mul' there"),
    (f"base: {BASE}\naxes:\n  datapath.io_width: []", "values: expected a non-empty list"),
    (f"base: {BASE}\naxes:\n  datapath.io_width: [64]\ntiers: [place]", "tiers: expected a list of"),
    (f"base: {BASE}\naxes:\n  datapath.units[add].colour: [red]", "colour: unknown key"),
    (f"base: {BASE}\naxes:\n  datapath.io_width: [64]\nsim: {{n: 0}}", "sim.n"),
    (f"base: {BASE}\naxes:\n  - [1, 2", "not YAML (line 3"),
])
def test_bad_specs_name_the_key_and_exit_2(capsys, tmp_path, text, message):
    p = tmp_path / "bad.yaml"
    p.write_text(text)
    code, out, err = run(capsys, "explore", str(p), "--db", str(tmp_path / "r.sqlite"))
    assert code == 2 and out == "" and message in err and "Traceback" not in err
    assert not (tmp_path / "r.sqlite").exists()  # nothing written for a bad spec


class Counting:
    """An executor that runs tasks in this process, counts them, and can stop after ``stop``."""

    def __init__(self, stop=None):
        self.ran, self.stop = 0, stop

    def map(self, tasks):
        for i, t in enumerate(tasks):
            if self.stop is not None and self.ran == self.stop:
                raise KeyboardInterrupt
            self.ran += 1
            yield i, runner.evaluate(t)

    def close(self):
        pass


def test_an_interrupted_sweep_resumes_without_recomputing(spec_file, tmp_path):
    sp = specs.load(str(spec_file))
    store = Store(tmp_path / "r.sqlite")
    first = Counting(stop=4)
    with pytest.raises(KeyboardInterrupt):
        runner.sweep(sp, store, first)
    assert first.ran == 4 and store.count() == 4  # what finished is stored
    second = Counting()
    rows = runner.sweep(sp, store, second)
    assert second.ran == 2 and store.count() == 6
    third = Counting()
    again = runner.sweep(sp, store, third)
    assert third.ran == 0 and all(r["schedule"]["stored"] for r in again)
    for r, a in zip(rows, again):
        want = designs.from_data(r["design"]).report()
        assert r["schedule"]["cycles"] == a["schedule"]["cycles"] == want["cycles"]
        assert r["schedule"]["multiplier_bound"] == want["multiplier_bound"]


def test_the_key_is_the_design_and_the_versions(monkeypatch):
    a = designs.get(BASE).data
    b = {**a, "name": "other", "description": "renamed"}
    c = json.loads(json.dumps(a))
    c["datapath"]["io_width"] = 16
    assert result_key(a, "schedule", {}) == result_key(b, "schedule", {})  # a name computes nothing
    assert result_key(a, "schedule", {}) != result_key(c, "schedule", {})
    assert result_key(a, "synth", {"target": "xc7"}) != result_key(a, "synth", {"target": "gates"})
    before = result_key(a, "schedule", {})
    monkeypatch.setattr("pairhw.designs.engine_digest", lambda: "another engine")
    assert result_key(a, "schedule", {}) != before  # a changed engine recomputes


def test_a_failing_point_is_a_stored_result_not_a_crash(tmp_path):
    bad = json.loads(json.dumps(designs.get(BASE).data))
    bad["datapath"]["units"] = [u for u in bad["datapath"]["units"] if u["kind"] != "sqrt"]  # no square root
    res = runner.evaluate({"design": bad, "tier": "schedule", "options": {}})
    assert "error" in res and "cycles" not in res


def test_cli_table_json_and_resume(capsys, spec_file, tmp_path):
    db = str(tmp_path / "r.sqlite")
    code, out, err = run(capsys, "explore", str(spec_file), "--db", db, "-j", "2")
    assert code == 0 and "6 to compute" in err
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["point", "cycles", "mul"] and len(lines) == 7
    code, out2, err = run(capsys, "explore", str(spec_file), "--db", db, "--json")
    assert code == 0 and "0 to compute, 6 from the store" in err
    doc = json.loads(out2)
    assert doc["base"] == BASE and len(doc["points"]) == 6
    by = {p["name"]: p for p in doc["points"]}
    assert by[f"{BASE}-add_count2-k12"]["schedule"]["cycles"] == int(
        next(l.split()[1] for l in lines if l.startswith(f"{BASE}-add_count2-k12")).replace(",", ""))
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT COUNT(*) FROM results WHERE tier = 'schedule'").fetchone()[0] == 6


def test_cli_flag_errors(capsys, spec_file, tmp_path):
    code, _, err = run(capsys, "explore", str(spec_file), "-j", "2", "--cluster", "tcp://x:1")
    assert code == 2 and "not both" in err
    code, _, err = run(capsys, "explore", str(spec_file), "--plot", str(tmp_path))
    assert code == 2 and "tiers must include synth" in err
    code, _, err = run(capsys, "explore", str(spec_file), "--db", str(tmp_path))
    assert code == 2 and "is a directory" in err
    code, _, err = run(capsys, "explore", str(tmp_path / "none.yaml"))
    assert code == 2 and "cannot read it" in err
    (tmp_path / "notes.txt").write_text("mine")
    code, _, err = run(capsys, "explore", str(spec_file), "--db", str(tmp_path / "notes.txt"))
    assert code == 2 and "not an SQLite database" in err and (tmp_path / "notes.txt").read_text() == "mine"
    code, _, err = run(capsys, "explore", str(spec_file), "-j", "0")
    assert code == 2 and "-j/--jobs: must be between 1 and 256, not 0" in err


def test_the_same_spec_on_a_two_worker_dask_cluster(capsys, spec_file, tmp_path):
    from dask.distributed import LocalCluster

    code, local, _ = run(capsys, "explore", str(spec_file), "--db", str(tmp_path / "a.sqlite"), "--json")
    assert code == 0
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        code, out, err = run(capsys, "explore", str(spec_file), "--db", str(tmp_path / "b.sqlite"), "--json",
                             "--cluster", cluster.scheduler_address)
    assert code == 0 and "6 to compute" in err
    strip = lambda doc: [(p["name"], p["schedule"]["cycles"], p["schedule"]["multiplier_bound"])
                         for p in json.loads(doc)["points"]]
    assert strip(out) == strip(local)


def test_front_and_mark():
    pts = [(10, 5), (8, 9), (12, 4), (10, 6), (8, 10), (20, 4)]
    assert pareto.front(pts) == [1, 0, 2]
    rows = [{"schedule": {"cycles": c}, "synth": {"luts_incl_ram": a}} for c, a in pts] + [{"schedule": {"cycles": 1}}]
    pareto.mark(rows, "xc7")
    assert [r["pareto"] for r in rows] == [True, True, True, False, False, False, None]


def test_plots_are_written_and_deterministic(tmp_path):
    pts = [{"name": "a", "cycles": 100, "area": 50, "pareto": True}, {"name": "b", "cycles": 120, "area": 60}]
    refs = [{"label": "paper", "cycles": 110, "area": 70}]
    one = pareto.plot(pts, refs, tmp_path / "x" / "p", "t", "LUTs")
    two = pareto.plot(pts, refs, tmp_path / "y" / "p", "t", "LUTs")
    assert [f.name for f in one] == ["p.png", "p.svg"]
    assert one[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and b"<svg" in one[1].read_bytes()
    assert [f.read_bytes() for f in one] == [f.read_bytes() for f in two]


def test_sim_and_synth_tiers_and_the_plot(capsys, tmp_path):
    """One ASIP point through every tier (gate equivalents), with the published references drawn."""
    p = tmp_path / "a.json"
    p.write_text(json.dumps({"base": "asip-79-lsd5", "axes": {"asip.mul.digit": [5]},
                             "tiers": ["sim", "synth"], "sim": {"n": 2}, "synth": {"target": "gates-ram"}}))
    code, out, err = run(capsys, "explore", str(p), "--db", str(tmp_path / "r.sqlite"), "--plot",
                         str(tmp_path / "plots"), "--json")
    assert code == 0, err
    pt = json.loads(out)["points"][0]
    assert pt["sim"]["verified"] == 2 and pt["sim"]["constant_time"] and pt["sim"]["cycles"] == pt["schedule"]["cycles"]
    assert pt["synth"]["ge"] > 0 and pt["synth"]["memory_bits"] > 0 and pt["pareto"] is True
    assert sorted(f.name for f in (tmp_path / "plots").iterdir()) == ["a-pareto.png", "a-pareto.svg"]


@pytest.mark.parametrize("path", sorted((ROOT / "examples" / "explore").glob("*.yaml")), ids=lambda p: p.name)
def test_the_example_specs_load_and_make_valid_points(path):
    sp = specs.load(str(path))
    pts = sp.points()
    assert len(pts) >= 2 and len({p.name for p in pts}) == len(pts)
    assert "schedule" in sp.tiers
