"""The CLI verbs on prime-field sets and ``pairhw fp mul``."""

import json

import pytest

from pairhw import cli, params
from pairhw.math.prime import pairing as pp


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_curves_lists_prime_sets(capsys):
    code, out, _ = run(capsys, "curves", "--json")
    rows = {r["curve"]: r for r in json.loads(out)}
    assert rows["bn254"]["p_bits"] == 254 and rows["bls12-381"]["twist"] == "M"
    assert "100 bits" in rows["bn254"]["security"]
    code, out, _ = run(capsys, "curves")
    assert code == 0 and "bn-chavez11" in out


def test_point_and_pair(capsys):
    C = params.curve("bn254")
    code, out, _ = run(capsys, "point", "bn254", "--seed", "1", "--scalar", "3", "--json")
    assert code == 0
    P = C.E1.mul(3, C.E1.point_from_seed(1))
    assert json.loads(out)["point"] == [C.F.to_hex(P[0]), C.F.to_hex(P[1])]
    code, out, _ = run(capsys, "point", "bn254", "--seed", "2", "--group", "2")
    Q = C.E2.point_from_seed(2)
    assert out.strip().split(",") == [C.F.to_hex(x) for x in (*Q[0], *Q[1])]
    code, out, _ = run(capsys, "pair", "bn254", "--p", ",".join(C.F.to_hex(x) for x in P),
                       "--q", out.strip(), "--json")
    assert code == 0
    e = json.loads(out)["e"]
    assert e == pp.gt_to_hex(C, pp.optimal_ate(C, P, Q)) and len(e) == 12
    code, out, _ = run(capsys, "point", "bn254", "--seed", "1", "--scalar", str(C.r))
    assert out.strip() == "inf"


@pytest.mark.parametrize("argv,msg", [
    (["pair", "bn254", "--p", "1,3", "--q", "inf"], "not on bn254 G1"),
    (["pair", "bn254", "--p", "1,2", "--q", "1,2"], "expected 4"),
    (["pair", "bn254", "--p", "1,2", "--q", "inf", "--algorithm", "etat"], "not for a prime-field set"),
    (["pair", "f2-11", "--p", "inf", "--q", "inf", "--algorithm", "optimal-ate"], "not for a binary set"),
    (["pair", "bn254", "--p", "zz,2", "--q", "inf"], "not a hex"),
    (["point", "f2-11", "--seed", "1", "--group", "2"], "prime-field sets"),
    (["fp", "mul", "bls12-381", "1", "2"], "not a BN curve"),
    (["fp", "mul", "bn254", "1", "2", "--algorithm", "seed002"], "bn-chavez11"),
    (["fp", "mul", "bn254", "1", "2", "--dsp"], "--dsp applies to --algorithm chavez11"),
    (["fp", "mul", "bn-chavez11", "1", "f" * 70], "not below p"),
])
def test_bad_input(capsys, argv, msg):
    code, out, err = run(capsys, *argv)
    assert code == 2 and msg in err and "Traceback" not in err and out == ""


def test_pair_inf_is_one(capsys):
    code, out, _ = run(capsys, "pair", "bls12-381", "--p", "inf", "--q", "inf", "--json")
    assert json.loads(out)["e"] == [format(int(i == 0), "096x") for i in range(12)]


def test_vectors_and_opcount(capsys):
    C = params.curve("bn-chavez11")
    code, out, _ = run(capsys, "vectors", "bn-chavez11", "-n", "2", "--seed", "7")
    recs = [json.loads(x) for x in out.splitlines()]
    assert len(recs) == 2
    for r in recs:
        P = tuple(int(x, 16) for x in r["p"])
        q = [int(x, 16) for x in r["q"]]
        Q = ((q[0], q[1]), (q[2], q[3]))
        assert r["e"] == pp.gt_to_hex(C, pp.ate_reference(C, P, Q))
    code, out, _ = run(capsys, "opcount", "bn254", "--json")
    d = json.loads(out)
    assert code == 0 and d["totals"]["total"]["inv"] == 1 and d["totals"]["miller"]["mul"] > 0


@pytest.mark.parametrize("alg", ["fan", "chavez11", "seed002"])  # seed002: chavez11's old name
def test_fp_mul(capsys, alg):
    C = params.curve("bn-chavez11")
    a, b = C.p - 1, 0x1234567890ABCDEF
    code, out, _ = run(capsys, "fp", "mul", "bn-chavez11", format(a, "x"), format(b, "x"),
                       "--algorithm", alg, "--trace", "--json")
    d = json.loads(out)
    assert code == 0 and int(d["product"], 16) == a * b % C.p
    names = [k for k, _ in d["trace"]]
    assert ("p13" in names and "red4.mu" in names) if alg != "fan" else "step4.mu" in names
    code, out, _ = run(capsys, "fp", "mul", "bn-chavez11", "2", "3", "--dsp", "--trace")
    assert code == 0 and "dsp.row5" in out and out.rstrip().endswith("6")


def test_fp_mul_default_algorithm_works_on_every_bn_set(capsys):
    """Without --algorithm, `fp mul` takes the set's own: Alg. 2 on bn-chavez11, Fan et al. elsewhere."""
    for curve, alg in (("bn254", "fan"), ("bn-chavez11", "chavez11")):
        code, out, err = run(capsys, "fp", "mul", curve, "3", "5", "--json")
        assert code == 0, err
        d = json.loads(out)
        assert d["algorithm"] == alg and int(d["product"], 16) == 15


def test_opcount_sits_beside_the_literature(capsys):
    """The model's F_p products per phase, next to the literature's per-step costs on the same loop:
    the hard part below (signed windows), the Miller loop within 3 % (BN254's full F_p² b')."""
    code, out, _ = run(capsys, "opcount", "bn254", "--json")
    d = json.loads(out)
    lit, tot = d["literature_products"], d["totals"]
    assert tot["final_exp/hard"]["mul"] < lit["final_exp/hard"]
    assert lit["miller"] <= tot["miller"]["mul"] <= 1.03 * lit["miller"]
    code, out, _ = run(capsys, "opcount", "bls12-381")
    assert code == 0 and "Aranha et al. 2011" in out and "literature" in out


def test_a_prime_core_checks_a_vectors_file(capsys, tmp_path):
    """``pairhw vectors`` output runs through the bn-tiny core in Verilator, bit-exact; a corrupted
    value in the file is reported and fails the run."""
    code, out, _ = run(capsys, "vectors", "bn-tiny", "-n", "3", "--seed", "11")
    assert code == 0
    f = tmp_path / "v.jsonl"
    f.write_text(out)
    code, out, _ = run(capsys, "sim", "ate-bn-tiny", "--vectors", str(f), "--json")
    res = json.loads(out)
    assert code == 0 and res["verified"] == 3 and res["failed"] == 0 and res["constant_time"]
    recs = [json.loads(x) for x in f.read_text().splitlines()]
    recs[1]["e"][0] = format(int(recs[1]["e"][0], 16) ^ 1, f"0{len(recs[1]['e'][0])}x")
    f.write_text("\n".join(json.dumps(r) for r in recs) + "\n")
    code, out, _ = run(capsys, "sim", "ate-bn-tiny", "--vectors", str(f), "--json")
    res = json.loads(out)
    assert code == 1 and res["failed"] == 1 and res["model_disagrees_with_file"] == 1
