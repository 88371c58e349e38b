"""A new user's probe (issue 48): 100 bad invocations of every verb, each exit 2 with one line on
stderr, no traceback, nothing written or deleted in the working directory, answered in under 2 s,
and the process's peak memory grows by less than 500 MB.  The list is ours; each case is what a user could plausibly type."""

import json
import resource
import time

import pytest

from pairhw.cli import main

D = "f2-47-etat-banked"
UNIT = ["unit", "sim", "--kind"]

PROBES = [
    # the command itself
    [], ["nosuchverb"], ["--nosuchflag"], ["-n", "3"], ["unit"], ["unit", "run"], ["fp"], ["fp", "add", "bn254", "1", "2"],
    # curves, point, pair
    ["curves", "extra"], ["curves", "--seed", "1"], ["point"], ["point", "f2-999"], ["point", "f2-11", "--scalar", "x"],
    ["point", "f2-11", "--group", "2"], ["point", "f2-11", "--group", "3"], ["point", "f2-11", "--seed", "-5"],
    ["point", "f2-11", "--seed", "1e3"], ["point", "f2-11", "--scalar", "1", "--scalar", "2"],
    ["pair", "f2-79"], ["pair", "f2-79", "--p", "2,3", "--q", "inf"], ["pair", "f2-79", "--p", "zz,1", "--q", "inf"],
    ["pair", "f2-79", "--p", "1", "--q", "1,2"], ["pair", "f2-79", "--p", "inf", "--q", "inf", "--algorithm", "ate"],
    ["pair", "bn254", "--p", "1,2", "--q", "1,2"], ["pair", "f3-19", "--p", "3,3", "--q", "inf"],
    ["pair", "f2-79", "--p", "1," + "f" * 5000, "--q", "inf"],
    # vectors, opcount
    ["vectors", "f2-11"], ["vectors", "f2-11", "-n", "0"], ["vectors", "f2-11", "-n", "-1"], ["vectors", "f2-11", "-n", "10001"],
    ["vectors", "f2-11", "-n", "1", "-o", "."], ["vectors", "f2-11", "-n", "1", "-o", "nodir/v.jsonl"],
    ["vectors", "f2-11", "-n", "1", "-o", "/proc/v.jsonl"], ["vectors", "nocurve", "-n", "1"],
    ["vectors", "f2-11", "-n", "1", "--seed", "s"], ["opcount", "f2-999"], ["opcount", "f2-79", "--algorithm", "x"],
    # fp mul
    ["fp", "mul", "f2-79", "1", "2"], ["fp", "mul", "bn254", "x", "2"], ["fp", "mul", "bn254", "1"],
    ["fp", "mul", "bn254", "1", "2", "--algorithm", "seed002"], ["fp", "mul", "bn-chavez11", "1", "2", "--algorithm", "fan", "--dsp"],
    ["fp", "mul", "bn254", "-1", "2"],
    # unit sim / build / synth
    [*UNIT, "lsb"], [*UNIT, "nosuch", "--m", "17"], [*UNIT, "lsb", "--m", "1"], [*UNIT, "lsb", "--m", "5000"],
    [*UNIT, "lsb", "--m", "x"], [*UNIT, "lsd", "--m", "17"], [*UNIT, "lsd", "--m", "17", "--digit", "18"],
    [*UNIT, "lsd", "--m", "17", "--digit", "0"], [*UNIT, "msd", "--m", "29", "--digit", "4", "--lanes", "100000"],
    [*UNIT, "msd", "--m", "29", "--digit", "4", "--lanes", "0"], [*UNIT, "karatsuba", "--m", "47", "--schedule", "3,3,3,3,3,3,3"],
    [*UNIT, "karatsuba", "--m", "47", "--schedule", "x"], [*UNIT, "karatsuba", "--m", "47", "--digit", "3"],
    [*UNIT, "lsb", "--m", "17", "--core", "77"], [*UNIT, "karatsuba", "--m", "17", "--stages", "3"],
    [*UNIT, "karatsuba", "--char", "3", "--m", "19", "--stages", "100"], [*UNIT, "karatsuba", "--char", "3", "--m", "19", "--registers", "x"],
    [*UNIT, "lsb", "--m", "17", "--curve", "f2-79"], [*UNIT, "lsb", "--curve", "nosuch"], [*UNIT, "lsb", "--p", "15"],
    [*UNIT, "montgomery-pipelined", "--p", "1" + "0" * 5000], [*UNIT, "montgomery-pipelined", "--p", "x"],
    [*UNIT, "montgomery-iterative", "--curve", "bn254", "--digit", "0"], [*UNIT, "lsb", "--m", "17", "-n", "100001"],
    [*UNIT, "lsb", "--m", "17", "--sim", "iverilog"], [*UNIT, "lsb", "--m", "17", "--char", "5"],
    ["unit", "build", "--kind", "lsb", "--m", "17"], ["unit", "build", "--kind", "lsb", "--m", "17", "-o", "mine"],
    ["unit", "build", "--kind", "lsb", "--m", "17", "-o", "notes.txt"], ["unit", "build", "--kind", "lsb", "--m", "17", "-o", "/proc/x"],
    ["unit", "synth", "--kind", "lsb", "--m", "17", "--target", "asic"], ["unit", "synth", "--kind", "lsb", "--m", "17", "--router", "router2"],
    # designs, schedule
    ["designs", "nosuch"], ["designs", D, "--schema"], ["designs", "--schema", "--listing"], ["designs", "bad.json"],
    ["schedule", "nosuch"], ["schedule", "missing.json"], ["schedule", "bad.json"], ["schedule", "notes.txt"],
    ["schedule", "/dev/urandom"], ["schedule", D, "--listing", "asm"], ["schedule", D, "--listing", "program", "--json"],
    ["schedule", "huge.json"], ["schedule", "list.json"],
    # build, sim, synth
    ["build", D], ["build", D, "-o", "mine"], ["build", D, "-o", "notes.txt"], ["build", D, "-o", "notes.txt/sub"],
    ["build", D, "-o", "x", "-n", "0"], ["build", D, "-o", "x", "--wrap", "apb"], ["build", D, "-o", "x", "--wrap", "axis", "--wrap", "axil"],
    ["build", "ate-bn-chavez11-toy", "-o", "x", "--cocotb"], ["sim", D], ["sim", D, "-n", "1", "--vectors", "v.jsonl"],
    ["sim", D, "--vectors", "notes.txt"], ["sim", D, "--vectors", "missing.jsonl"], ["sim", D, "--vectors", "/dev/urandom"],
    ["sim", D, "--seed", "3", "--vectors", "v.jsonl"], ["sim", D, "-n", "1", "--trace", "w.fst"], ["sim", D, "-n", "10001"],
    ["synth", D, "--target", "asic"], ["synth", D, "--placer", "static"], ["synth", "nosuch"],
    # explore, report
    ["explore"], ["explore", "missing.yaml"], ["explore", "notes.txt"], ["explore", "dup.yaml"], ["explore", "spec.yaml", "-j", "0"],
    ["explore", "spec.yaml", "-j", "2", "--cluster", "tcp://127.0.0.1:1"], ["report"], ["report", "-o", "mine"],
    ["report", "-o", "notes.txt"], ["report", "-o", "/proc/x"],
]

USER = {"notes.txt": "my notes\n", "mine/keep.v": "module keep; endmodule\n", "bad.json": "{",
        "list.json": "[1, 2]", "dup.yaml": "design: f2-47-etat-banked\ndesign: f2-79-etat-tmvp3\n",
        "spec.yaml": f"design: {D}\naxes: {{}}\n", "v.jsonl": ""}


def _tree(root):
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_the_probe_has_a_hundred_cases():
    assert len(PROBES) >= 100 and len({json.dumps(p) for p in PROBES}) == len(PROBES)


@pytest.mark.parametrize("argv", PROBES, ids=lambda a: " ".join(a)[:60] or "(none)")
def test_bad_input_is_exit_2_one_line_nothing_touched(capsys, tmp_path, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PAIRHW_QUIET", "1")
    for name, text in USER.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    (tmp_path / "huge.json").write_text(json.dumps({"name": "x", "description": "y" * (1 << 20)}))
    before = _tree(tmp_path)
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kB: the process's peak so far
    t0 = time.monotonic()
    try:
        code = main(argv)
    except SystemExit as e:  # only --help and --version exit from argparse
        code = e.code
    seconds = time.monotonic() - t0
    grew = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss0  # what this case added to the peak
    out, err = capsys.readouterr()
    lines = [ln for ln in err.strip().splitlines() if not ln.startswith("[pairhw]")]
    assert code == 2, (code, err[-2000:])
    if argv:  # bare `pairhw` prints the usage, as a bad invocation
        assert len(lines) == 1 and lines[0].startswith("pairhw: error: "), err[-2000:]
    assert "Traceback" not in err and "internal error" not in err
    assert _tree(tmp_path) == before
    assert seconds < 2.0, f"{seconds:.1f} s"
    assert grew < 500 << 10, f"the peak memory grew by {grew >> 10} MB"
