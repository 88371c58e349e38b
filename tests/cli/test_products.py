"""``pairhw pair CURVE --pairs FILE [--check]`` and ``pairhw vectors CURVE --pairs N`` (issue 53): the
product of pairings and the pairing check from the command line, against the model; bad input is one
line, exit 2, nothing on standard output."""

import json

import pytest

from pairhw import cli, params, vectors
from pairhw.math.prime import pairing as pp


def run(capsys, *argv):
    code = cli.main(["-q", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", ["bn-tiny", "bn254"])
def test_product_vectors_hold_the_product_and_the_check(capsys, tmp_path, name):
    """Each product vector's e is the product of its pairs' single pairings; the even-numbered ones
    pass the check, the odd-numbered do not; `pair --pairs` on a vector line gives its e and check."""
    C = params.curve(name)
    code, out, _ = run(capsys, "vectors", name, "-n", "2", "--pairs", "3", "-j", "1")
    assert code == 0
    recs = [json.loads(line) for line in out.splitlines()]
    assert [r["check"] for r in recs] == [True, False] and all(len(r["pairs"]) == 3 for r in recs)
    for i, r in enumerate(recs):
        want = C.T.ONE
        for P, Q in vectors.product_points(C, 1, i, 3):
            want = C.T.mul12(want, pp.optimal_ate(C, P, Q))
        assert r["e"] == pp.gt_to_hex(C, want)
        f = tmp_path / f"v{i}.json"
        f.write_text(json.dumps(r))
        code, out, _ = run(capsys, "pair", name, "--pairs", str(f), "--json")
        assert code == 0 and json.loads(out)["e"] == r["e"]
        code, out, _ = run(capsys, "pair", name, "--pairs", str(f), "--check", "--json")
        assert code == 0 and json.loads(out)["check"] is r["check"]


def test_an_invalid_point_makes_the_check_false_and_the_product_refused(capsys, tmp_path):
    C = params.curve("bn-tiny")
    (P, Q), = vectors.product_points(C, 1, 1, 1)
    R, _ = C.E2.raw_point(b"outsider")
    assert not C.E2.in_subgroup(R)
    h = C.F.to_hex
    f = tmp_path / "bad.json"
    f.write_text(json.dumps([{"p": [h(P[0]), h(P[1])], "q": "inf"},
                             {"p": f"{h(P[0])},{h(P[1])}", "q": [h(R[0][0]), h(R[0][1]), h(R[1][0]), h(R[1][1])]}]))
    code, out, _ = run(capsys, "pair", "bn-tiny", "--pairs", str(f), "--check", "--json")
    assert code == 0 and json.loads(out) == {"curve": "bn-tiny", "pairs": 2, "check": False,
                                             "invalid": "pair 1: q is on bn-tiny G2 but not of order r"}
    code, out, err = run(capsys, "pair", "bn-tiny", "--pairs", str(f))
    assert code == 2 and out == "" and "pair 1: q is on bn-tiny G2 but not of order r" in err


@pytest.mark.parametrize("content,argv,msg", [
    ('[{"p": ["1", "2"], "q": ["1", "2"]}]', [], "pair 0 q (G2: x0,x1,y0,y1): expected 4"),
    ('[{"p": ["1", "2", "3", "4"], "q": "inf"}]', [], "pair 0 p (G1: x,y): expected 2"),
    ('[{"p": "inf"}]', [], "expected a list of"),
    ("[]", [], "no pairs"),
    ("{", [], "not JSON"),
    ('[{"p": "inf", "q": "inf"}]', ["--p", "inf"], "not with --p / --q"),
    ('[{"p": "inf", "q": "inf"}]', ["--algorithm", "ate-reference"], "use optimal-ate"),
])
def test_bad_pairs_files_are_refused(capsys, tmp_path, content, argv, msg):
    f = tmp_path / "pairs.json"
    f.write_text(content)
    code, out, err = run(capsys, "pair", "bn-tiny", "--pairs", str(f), *argv)
    assert code == 2 and msg in err and out == "" and "Traceback" not in err


@pytest.mark.parametrize("argv,msg", [
    (["pair", "f2-11", "--pairs", "x.json"], "modelled on the prime sets"),
    (["vectors", "f3-19", "-n", "1", "--pairs", "2"], "modelled on the prime sets"),
    (["pair", "bn-tiny", "--p", "inf", "--q", "inf", "--check"], "--check: needs --pairs"),
    (["pair", "bn-tiny", "--p", "inf"], "give --p and --q, or --pairs"),
    (["pair", "bn-tiny", "--pairs", "/nonexistent/pairs.json"], "No such file"),
    (["vectors", "bn-tiny", "-n", "1", "--pairs", "0"], "--pairs"),
])
def test_bad_product_requests_are_refused(capsys, argv, msg):
    code, out, err = run(capsys, *argv)
    assert code == 2 and msg in err and out == "" and "Traceback" not in err


@pytest.mark.parametrize("change,msg", [
    ({"curve": "f2-47", "algorithm": "etat"}, "pairs: products of pairings are built on the prime sets"),
    ({"algorithm": "ate-reference"}, "pairs: a product of pairings is computed with optimal-ate"),
    ({"pairs": 17}, "pairs: must be at most 16"),
    ({"pairs": 0}, "pairs: must be at least 1"),
])
def test_a_bad_pairs_key_is_refused(capsys, tmp_path, change, msg):
    """The design key ``pairs``: prime sets and optimal-ate only, 1 to 16; refused naming the key."""
    _refused(capsys, tmp_path, "ate-bn-tiny-p2", change, msg)


def _refused(capsys, tmp_path, name, change, msg, ram=False):
    """Design ``name`` with ``change`` (on a binary set: a binary datapath; ``ram``: its bank a RAM) is
    refused by ``pairhw schedule``: one line saying ``msg``, exit 2, nothing on stdout."""
    from pairhw import designs

    data = json.loads(json.dumps(designs.get(name).data))
    if change.get("curve", "").startswith("f2"):
        data["datapath"] = json.loads(json.dumps(designs.get("f2-47-etat-banked").data["datapath"]))
    if ram:
        data["datapath"]["banks"] = [{"name": "r", "write_ports": 1}]
    data.update(change)
    f = tmp_path / "d.json"
    f.write_text(json.dumps(data))
    code, out, err = run(capsys, "schedule", str(f))
    assert code == 2 and msg in err and out == "" and "Traceback" not in err


def test_a_product_core_takes_n_pairs_and_gives_their_product():
    """ate-bn-tiny-p2: twelve inputs (two pairs), the program of multi_pairing on ate-bn-tiny's
    datapath; its microcode gives the product of the two pairings, 1 on a vector built to pass the
    check."""
    from pairhw import designs

    d = designs.get("ate-bn-tiny-p2")
    fi, C = d.field, d.curve()
    assert len(fi.pairing_inputs) == 12 and fi.pairing_inputs[6] == "xP_1"
    cp = d.compile()
    assert cp.cycles <= 1.45 * designs.get("ate-bn-tiny").compile().cycles
    for i in range(2):
        Ps, Qs = fi.vector_points(C, 5, i)
        out, cycles = cp.run(fi.point_values(Ps, Qs))
        want = C.T.mul12(pp.optimal_ate(C, Ps[0], Qs[0]), pp.optimal_ate(C, Ps[1], Qs[1]))
        assert tuple(out) == tuple(fi.flatten(want)) and cycles == cp.cycles
        assert (tuple(out) == tuple(fi.flatten(C.T.ONE))) == (i % 2 == 0)  # the even vector passes the check


@pytest.mark.parametrize("change,ram,msg", [
    ({"curve": "f2-47", "algorithm": "etat", "pairs": 1}, False, "check: a pairing check is built on the prime sets"),
    ({}, True, "check: a check core compares its outputs in flip-flop registers"),
])
def test_a_bad_check_key_is_refused(capsys, tmp_path, change, ram, msg):
    """The design key ``check``: prime sets only, and flip-flop registers; refused naming the key."""
    _refused(capsys, tmp_path, "ate-bn-tiny-check2", change, msg, ram)


def test_a_check_core_streams_out_one_element_1_or_0():
    """ate-bn-tiny-check2: the product program of ate-bn-tiny-p2, one output element: the program's
    run (the core's model) gives [1] on a vector built to pass and [0] on independent pairs and on a
    pair with one point changed, as the model's pairing_check; its Verilog compares the twelve
    outputs with 1's words."""
    from pairhw import designs
    from pairhw.flow import verilog

    d, p2 = designs.get("ate-bn-tiny-check2"), designs.get("ate-bn-tiny-p2")
    fi, C = d.field, d.curve()
    cp = d.compile()
    assert cp.stream.n_out == 1 and p2.compile().stream.n_out == 12 and cp.cycles == p2.compile().cycles
    for i, want in ((0, 1), (1, 0), (2, 1)):
        Ps, Qs = fi.vector_points(C, 9, i)
        assert cp.run(fi.point_values(Ps, Qs)) == ([want], cp.cycles)
        assert pp.pairing_check(C, list(zip(Ps, Qs))) == bool(want)
    Ps, Qs = fi.vector_points(C, 9, 0)
    moved = (Ps[0], C.E1.mul(2, Ps[1]))  # still in G1, the product no longer 1
    assert cp.run(fi.point_values(moved, Qs)) == ([0], cp.cycles)
    v = verilog(d)
    assert v.count("check_eq") >= 12 and "check_ok" in v


@pytest.mark.parametrize("name", ["ate-bn-tiny-check2v", pytest.param("ate-bn-tiny-check2", marks=pytest.mark.slow)])
def test_a_check_core_reads_product_vectors_as_their_check(capsys, tmp_path, name):
    """`pairhw sim ate-bn-tiny-check2v --vectors FILE`: a product vector's twelve words become the one
    expected output, 1 where the product is 1 (the even-numbered vectors), else 0; Verilator agrees
    on each (the bench of the default core test, cached)."""
    f = tmp_path / "v.jsonl"
    recs = [vectors.product_record("bn-tiny", 3, i, 2) for i in range(3)]
    assert [r["check"] for r in recs] == [True, False, True]
    f.write_text("".join(json.dumps(r) + "\n" for r in recs))
    code, out, err = run(capsys, "sim", name, "--vectors", str(f))
    assert code == 0 and "3 of 3 pairings bit-exact" in out, out + err


def _invalid_inputs(C, Ps, Qs) -> dict:
    """Each way a pair's point can be invalid, on a passing product vector (Ps, Qs): P1 off the
    curve, Q1 off the twist, Q2 on the twist but outside G2, and (on BLS12) P2 on the curve but
    outside G1."""
    from pairhw.math.prime import pairing as pp

    def outside(E, test):
        return next(R for i in range(20) if not test(C, R := E.raw_point(b"outside/%d" % i)[0]))

    out = {"P off the curve": (((Ps[0][0], C.F.add(Ps[0][1], 1)), Ps[1]), Qs),
           "Q off the twist": (Ps, ((Qs[0][0], C.K.add(Qs[0][1], C.K.one)), Qs[1])),
           "Q outside G2": (Ps, (Qs[0], outside(C.E2, pp.in_g2)))}
    if C.E1.cofactor != 1:
        out["P outside G1"] = ((Ps[0], outside(C.E1, pp.in_g1)), Qs)
    return out


@pytest.mark.parametrize("name", ["ate-bn-tiny-check2v", pytest.param("ate-bls12-381-fast-check2v", marks=pytest.mark.slow)])
def test_a_validating_check_core_answers_0_on_every_invalid_point(name):
    """ate-bn-tiny-check2v (and, `slow`, the BLS signature check ate-bls12-381-fast-check2v): the
    core's model gives 1 on a passing product vector, 0 on a failing one and 0 on each invalid point
    of a passing one, as the model's pairing_check, in the same cycles; the validation's products
    keep the multiplier busy (within 1 % of its bound)."""
    from pairhw import designs

    d = designs.get(name)
    fi, C, cp = d.field, d.curve(), d.compile()
    Ps, Qs = fi.vector_points(C, 9, 0)
    assert cp.run(fi.point_values(Ps, Qs)) == ([1], cp.cycles)
    assert cp.run(fi.point_values(*fi.vector_points(C, 9, 1))) == ([0], cp.cycles)
    cases = _invalid_inputs(C, Ps, Qs)
    assert len(cases) == (4 if C.family == "bls12" else 3)
    for why, (P2, Q2) in cases.items():
        assert not pp.pairing_check(C, list(zip(P2, Q2))), why
        assert cp.run(fi.point_values(P2, Q2)) == ([0], cp.cycles), why
        assert d.model(P2, Q2) == [0], why
    assert cp.cycles <= 1.01 * d.report()["multiplier_bound"]


@pytest.mark.parametrize("name", ["ate-bn-tiny-check2v", pytest.param("ate-bls12-381-fast-check2v", marks=pytest.mark.slow)])
def test_a_validating_check_core_is_bit_exact_in_verilator_on_invalid_points(name):
    """ate-bn-tiny-check2v in Verilator (the bench of the default core test, cached; `slow`: the
    full-size BLS signature check): 0 on each invalid point, 1 and 0 on a passing and a failing
    vector, every run in the scheduled cycles."""
    from pairhw import designs
    from pairhw.flow import simulate

    d = designs.get(name)
    fi, C = d.field, d.curve()
    Ps, Qs = fi.vector_points(C, 9, 0)
    inputs = [(Ps, Qs), fi.vector_points(C, 9, 1), *_invalid_inputs(C, Ps, Qs).values()]
    rows = [(*fi.point_values(P, Q), *d.model(P, Q)) for P, Q in inputs]
    assert [r[-1] for r in rows] == [1] + [0] * (len(rows) - 1)
    res = simulate(d, rows=rows)
    assert (res.verified, res.failed, res.timeout) == (len(rows), 0, False) and res.constant_time


@pytest.mark.slow
@pytest.mark.parametrize("name,one", [("ate-bn254-fast-check4", "ate-bn254-fast"),
                                      ("ate-bls12-381-fast-check4", "ate-bls12-381-fast")])
def test_a_four_pair_check_core_checks_a_groth16_shaped_product(name, one):
    """The four-pair check cores (the shape of a Groth16 proof check): their microcode gives 1 on a
    product vector built to pass and 0 on four independent pairs, as the model's pairing_check, in
    at most 2.2 × one pairing's cycles (issue 53)."""
    from pairhw import designs

    d = designs.get(name)
    fi, C, cp = d.field, d.curve(), d.compile()
    assert len(fi.pairing_inputs) == 24 and cp.stream.n_out == 1
    for i, want in ((0, 1), (1, 0)):
        Ps, Qs = fi.vector_points(C, 4, i)
        assert pp.pairing_check(C, list(zip(Ps, Qs))) == bool(want)
        assert cp.run(fi.point_values(Ps, Qs)) == ([want], cp.cycles)
    assert cp.cycles <= 2.2 * designs.get(one).compile().cycles
