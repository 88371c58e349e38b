"""The CLI verbs on characteristic-three sets: trit-string points, ``pair --json`` with six
coefficients, bilinearity through the command line, op counts against seed 004, bad input."""

import json

import pytest

from pairhw import cli, params
from pairhw.math.ternary import pairing as p3


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def point(capsys, name, seed, scalar=1):
    code, out, _ = run(capsys, "point", name, "--seed", str(seed), "--scalar", str(scalar))
    assert code == 0
    return out.strip()


def pair(capsys, name, p, q, *extra):
    code, out, err = run(capsys, "pair", name, "--p", p, "--q", q, "--json", *extra)
    assert code == 0, err
    return json.loads(out)["e"]


def test_curves_lists_ternary_sets(capsys):
    code, out, _ = run(capsys, "curves", "--json")
    rows = {r["curve"]: r for r in json.loads(out)}
    assert rows["f3-97"]["r_bits"] == 151 and rows["f3-97"]["cofactor"] == "7"
    assert rows["f3-509"]["r_bits"] == 804 and "Adj" in rows["f3-509"]["security"]
    assert rows["f3-19"]["b"] == -1 and rows["f3-19"]["m"] <= 40
    code, out, _ = run(capsys, "curves")
    assert "x^97 + x^12 + 2" in out


def test_pair_f3_97_order_and_bilinearity(capsys):
    """`pairhw pair f3-97` on points of order r: a value of order dividing r, bilinear."""
    C = params.curve("f3-97")
    T = p3.tower(C)
    F = C.F
    a = 1234567
    P, Q = point(capsys, "f3-97", 1), point(capsys, "f3-97", 2)
    aP, aQ = point(capsys, "f3-97", 1, a), point(capsys, "f3-97", 2, a)
    e = pair(capsys, "f3-97", P, Q)
    assert len(e) == 6 and all(len(c) == 97 and set(c) <= set("012") for c in e)
    ev = tuple(F.from_trits(c) for c in e)
    assert T.pow6(ev, C.r) == T.ONE6 and ev != T.ONE6
    assert pair(capsys, "f3-97", aP, Q) == pair(capsys, "f3-97", P, aQ)
    assert [F.to_trits(c) for c in T.pow6(ev, a)] == pair(capsys, "f3-97", aP, Q)
    # the variants' documented relations
    assert pair(capsys, "f3-97", P, Q, "--algorithm", "etat-gorla") == e
    nocr = tuple(F.from_trits(c) for c in pair(capsys, "f3-97", P, Q, "--algorithm", "etat-nocr"))
    assert nocr == T.pow6(ev, 3 ** 48)
    tr = tuple(F.from_trits(c) for c in pair(capsys, "f3-97", P, Q, "--algorithm", "tate-reference"))
    assert T.pow6(tr, p3.etat_tate_exponent(C)) == ev


def test_pair_human_output_and_inf(capsys):
    code, out, _ = run(capsys, "pair", "f3-19", "--p", "inf", "--q", point(capsys, "f3-19", 1))
    assert code == 0
    assert out.splitlines() == ["c0 = " + "0" * 18 + "1"] + [f"c{i} = " + "0" * 19 for i in range(1, 6)]


def test_vectors_and_opcount(capsys):
    C = params.curve("f3-19")
    code, out, _ = run(capsys, "vectors", "f3-19", "-n", "2", "--seed", "3")
    recs = [json.loads(x) for x in out.splitlines()]
    assert len(recs) == 2
    for r in recs:
        P = tuple(C.F.from_trits(x) for x in r["p"])
        Q = tuple(C.F.from_trits(x) for x in r["q"])
        ref = p3.tower(C).pow6(p3.tate_reference(C, P, Q), p3.etat_tate_exponent(C))
        assert r["e"] == [C.F.to_trits(c) for c in ref]
    code, out, _ = run(capsys, "opcount", "f3-97", "--json")
    d = json.loads(out)
    it = d["per_iteration"]
    assert code == 0 and it["iterations"] == 49
    assert (it["mul"], it["sparse_mul"], it["sparse_add"]) == (17, 15, 29)
    assert (it["cbrt"], it["line_mul"]) == (2, 2)
    assert d["seed004"]["iteration"]["mul"] == 17
    code, out, _ = run(capsys, "opcount", "f3-19", "--algorithm", "etat-gorla")
    assert code == 0 and "12 products" in out


Z19 = "0" * 19


@pytest.mark.parametrize("argv,msg", [
    (["pair", "f3-19", "--p", "012,1", "--q", "inf"], "expected 19 trits"),
    (["pair", "f3-19", "--p", "3" * 19 + "," + Z19, "--q", "inf"], "'3' is not 0, 1 or 2"),
    (["pair", "f3-19", "--p", Z19 + "," + Z19, "--q", "inf"], "not on f3-19"),
    (["pair", "f3-19", "--p", Z19, "--q", "inf"], "expected X,Y"),
    (["pair", "f3-19", "--p", "inf", "--q", "inf", "--algorithm", "optimal-ate"], "not for a ternary set"),
    (["point", "f3-19", "--seed", "1", "--group", "2"], "prime-field sets"),
])
def test_bad_input(capsys, argv, msg):
    code, out, err = run(capsys, *argv)
    assert code == 2 and msg in err and "Traceback" not in err and out == ""


def test_point_not_in_subgroup(capsys):
    C = params.curve("f3-97")
    # a point of order 7: the cofactor part of a hashed point
    F = C.F
    R, v = None, 5
    while R is None:
        x = F.from_int(v)
        y = F.sqrt(C.rhs(x))
        if y is not None:
            R = C.mul(C.r, (x, y))
        v += 1
    code, _, err = run(capsys, "pair", "f3-97", "--p", ",".join(C.point_to_trits(R)), "--q", "inf")
    assert code == 2 and "not of order r" in err
