"""Tracing the golden model into a program loses nothing: the program, interpreted with the real
field, computes the same pairing on any input."""

import pytest

from pairhw.fields import of
from pairhw.math import opcount
from pairhw.math.binary import pairing as pr
from pairhw.program.trace import Sym, TraceError, trace_pairing

from ..conftest import SMALL, curve, random_point


@pytest.mark.parametrize("name", SMALL + ["f2-239"])
@pytest.mark.parametrize("optimize", [False, True])
def test_traced_etat_equals_model(name, optimize, rng):
    C = curve(name)
    prog = trace_pairing(of(C.F), C, pr.etat, optimize)
    for _ in range(3):
        P, Q = random_point(C, rng), random_point(C, rng)
        got = prog.run({"xP": P[0], "yP": P[1], "xQ": Q[0], "yQ": Q[1]})
        assert tuple(got) == tuple(pr.etat(C, P, Q))


@pytest.mark.parametrize("alg", ["tate-alg1", "tate-alg2", "etat-adikari12"])
def test_other_algorithms_trace(alg, rng):
    C = curve("f2-79")
    prog = trace_pairing(of(C.F), C, pr.ALGORITHMS[alg])
    P, Q = random_point(C, rng), random_point(C, rng)
    assert tuple(prog.run({"xP": P[0], "yP": P[1], "xQ": Q[0], "yQ": Q[1]})) == tuple(pr.ALGORITHMS[alg](C, P, Q))


def test_counts_agree_with_opcount(rng):
    C = curve("f2-1223")
    P, Q = random_point(C, rng), random_point(C, rng)
    prog = trace_pairing(of(C.F), C, pr.etat, optimize=False)
    cnt = opcount.count_pairing(C, pr.etat, P, Q).total()
    c = prog.counts()
    assert (c["sqr"], c["sqrt"]) == (cnt["sqr"], cnt["sqrt"]) == (2447, 3666)
    # the model's three products by the constant 1 fold away in the trace
    assert c["mul"] == cnt["mul"] - 3 == 4335
    assert prog.counts("miller")["mul"] == 4282


def test_optimize_folds_and_shares():
    C = curve("f2-1223")
    plain, opt = trace_pairing(of(C.F), C, pr.etat, False), trace_pairing(of(C.F), C, pr.etat, True)
    assert len(opt.ops) < len(plain.ops)
    assert opt.counts()["mul"] == plain.counts()["mul"]


def test_branches_on_traced_values_are_refused():
    TF = of(curve("f2-17").F).tracer()
    x = TF.input("x")
    with pytest.raises(TraceError):
        bool(x)
    with pytest.raises(TraceError):
        _ = x == 0
    y = TF.add(x, 1)
    assert isinstance(y, Sym) and TF.add(y, 1) is x  # (x + 1) + 1 folds back to x
    assert TF.add(x, x) == 0 and TF.mul(x, 1) is x and TF.mul(x, 0) == 0


def test_listing_is_readable():
    prog = trace_pairing(of(curve("f2-17").F), curve("f2-17"), pr.etat)
    text = prog.listing()
    assert text.startswith("; inputs: xP, yP, xQ, yQ")
    assert "; -- miller" in text and "; -- final_exp/step2" in text
    assert " = mul " in text and " = sqrt " in text


@pytest.mark.parametrize("name", ["f2-47", "f2-79", "f2-113", "f2-1223"])
def test_folded_loop_equals_model(name, rng):
    from pairhw.program.loop import fold_loop

    C = curve(name)
    L = fold_loop(trace_pairing(of(C.F), C, pr.etat))
    P, Q = random_point(C, rng), random_point(C, rng)
    assert tuple(L.run({"xP": P[0], "yP": P[1], "xQ": Q[0], "yQ": Q[1]})) == tuple(pr.etat(C, P, Q))
    # the body is four ηT iterations (the constants s^(2^j), t^(2^j) repeat every 4): 7 products each
    assert L.period == 4
    assert sum(op.kind == "mul" for op in L.body) == 28
    if name == "f2-1223":
        assert L.trips == 151  # 612 iterations: 1 + 4·151 + 3 peeled
