import json
import subprocess
import sys

import pytest

from pairhw import cli, params
from pairhw.math.binary import pairing as pr


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def pt(C, P):
    return "inf" if P is None else f"{C.F.to_hex(P[0])},{C.F.to_hex(P[1])}"


def test_curves(capsys):
    code, out, err = run(capsys, "curves", "--json")
    assert code == 0
    rows = json.loads(out)
    assert {r["curve"] for r in rows} == set(params.names())
    assert all(r["security"] for r in rows)
    code, out, _ = run(capsys, "curves")
    assert code == 0 and "f2-1223" in out and "59 bits" in out


def test_point(capsys):
    C = params.curve("f2-79")
    code, out, err = run(capsys, "point", "f2-79", "--seed", "3", "--scalar", "5", "--json")
    assert code == 0 and "not secure" in err
    d = json.loads(out)
    assert d["point"] == [C.F.to_hex(c) for c in C.mul(5, C.point_from_seed(3))]
    code, out, _ = run(capsys, "point", "f2-79", "--seed", "3", "--scalar", str(C.r))
    assert out.strip() == "inf"


@pytest.mark.parametrize("alg", ["etat", "tate-alg1", "tate-alg2", "tate-reference", "etat-adikari12"])
def test_pair_json(capsys, alg):
    C = params.curve("f2-79")
    P, Q = C.point_from_seed(1), C.point_from_seed(2)
    code, out, _ = run(capsys, "pair", "f2-79", "--p", pt(C, P), "--q", pt(C, Q), "--algorithm", alg, "--json")
    assert code == 0
    d = json.loads(out)
    assert d["curve"] == "f2-79" and d["algorithm"] == alg
    expect = pr.ALGORITHMS[alg](C, P, Q)
    assert d["e"] == [C.F.to_hex(c) for c in expect]
    assert all(len(h) == (79 + 3) // 4 for h in d["e"])


def test_pair_default_is_etat_and_infinity_is_one(capsys):
    C = params.curve("f2-11")
    P = C.point_from_seed(1)
    code, out, _ = run(capsys, "pair", "f2-11", "--p", pt(C, P), "--q", "inf", "--json")
    assert code == 0 and json.loads(out) == {"curve": "f2-11", "algorithm": "etat",
                                              "e": ["001", "000", "000", "000"]}


@pytest.mark.parametrize("p,q,msg", [
    ("zz,1", None, "not a hex number"),
    ("1" * 30 + ",1", None, "has"),  # too many bits
    ("2,3", None, "not on"),
    ("1,1", None, "not of order r"),
    ("12", None, "expected X,Y"),
])
def test_bad_points_exit_2_one_line(capsys, p, q, msg):
    C = params.curve("f2-79")
    Q = pt(C, C.point_from_seed(2))
    code, out, err = run(capsys, "pair", "f2-79", "--p", p, "--q", q or Q)
    assert code == 2 and out == ""
    lines = [ln for ln in err.splitlines() if not ln.startswith("warning:")]
    assert len(lines) == 1 and msg in lines[0] and "Traceback" not in err


def test_usage_errors_exit_2(capsys):
    for argv in (["pair", "nope", "--p", "1,1", "--q", "1,1"], ["pair", "f2-79", "--p", "1,1"],
                 ["point", "f2-79", "--seed", "x"], ["frobnicate"],
                 ["pair", "f2-11", "--p", "inf", "--q", "inf", "--algorithm", "etat-adikari12"]):
        code, out, err = run(capsys, *argv)
        assert code == 2, argv
        assert len(err.strip().splitlines()[-1:]) == 1 and "error" in err and "Traceback" not in err


def test_vectors_format_and_determinism(capsys, tmp_path):
    f = tmp_path / "v.jsonl"
    code, _, _ = run(capsys, "vectors", "f2-29", "-n", "3", "--seed", "9", "-o", str(f))
    assert code == 0
    lines = f.read_text().splitlines()
    assert len(lines) == 3
    C = params.curve("f2-29")
    for line in lines:
        d = json.loads(line)
        assert set(d) == {"curve", "p", "q", "e"} and d["curve"] == "f2-29"
        P = tuple(C.F.from_hex(h) for h in d["p"])
        Q = tuple(C.F.from_hex(h) for h in d["q"])
        assert C.in_subgroup(P) and C.in_subgroup(Q)
        assert d["e"] == [C.F.to_hex(c) for c in pr.etat_reference(C, P, Q)]
    code, out, _ = run(capsys, "vectors", "f2-29", "-n", "3", "--seed", "9")
    assert out == f.read_text()
    code, _, err = run(capsys, "vectors", "f2-29", "-n", "1", "--seed", "1", "-o", str(tmp_path / "no" / "x"))
    assert code == 2 and not (tmp_path / "no").exists()


@pytest.mark.parametrize("curve", ["f2-29", "f3-19", "bn-tiny"])
def test_vectors_are_the_same_made_by_any_number_of_workers(capsys, curve):
    """``-j``: vectors made by one process or by worker processes are the same lines in the same order."""
    outs = []
    for jobs in ("1", "3"):
        code, out, _ = run(capsys, "vectors", curve, "-n", "7", "--seed", "5", "-j", jobs)
        assert code == 0
        outs.append(out)
    assert outs[0] == outs[1] and len(outs[0].splitlines()) == 7
    assert len(set(outs[0].splitlines())) == 7


def test_opcount(capsys):
    code, out, _ = run(capsys, "opcount", "f2-1223", "--json")
    assert code == 0
    d = json.loads(out)
    assert d["totals"]["miller"]["mul"] == 4285 and d["totals"]["final_exp"]["mul"] == 53
    assert d["final_exp_steps"]["step5"]["sqr+sqrt"] == 2444
    code, out, _ = run(capsys, "opcount", "f2-239", "--algorithm", "tate-alg2")
    assert code == 0 and "miller" in out


def test_installed_entry_point():
    """The console script and ``python -m pairhw.cli`` both run, with exit code 2 on bad input."""
    r = subprocess.run([sys.executable, "-m", "pairhw.cli", "curves", "--json"], capture_output=True, text=True)
    assert r.returncode == 0 and json.loads(r.stdout)
    r = subprocess.run([sys.executable, "-m", "pairhw.cli", "pair", "f2-11", "--p", "zz", "--q", "inf"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr
