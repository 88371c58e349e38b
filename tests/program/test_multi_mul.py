"""Several multipliers in one datapath (different kinds and digit sizes) and multipliers with lanes
that share operand b (seed 001's groups): the scheduler's choices, the microcode and its model."""

import random

import pytest

from pairhw import designs, params
from pairhw.fields import of
from pairhw.program.datapath import DatapathError, build_datapath
from pairhw.program.engine import compile_kernel, mul_bound
from pairhw.program.microcode import fields

F47 = params.curve("f2-47").F


def dp(units):
    return build_datapath(of(F47), {"units": units + [{"name": "add", "kind": "add"},
                                                      {"name": "const", "kind": "const"}]})


def msd(name, digit, **kw):
    return {"name": name, "kind": "mul", "mul": {"kind": "msd", "digit": digit}, **kw}


def _check_run(cp, n_inputs, fn, trials=5):
    rng = random.Random(7)
    for _ in range(trials):
        xs = [rng.randrange(1 << 47) for _ in range(n_inputs)]
        want = fn(F47, *xs)
        assert cp.microcode.run(xs) == (list(want), cp.microcode.cycles)


def test_lanes_start_together_on_their_shared_operand():
    """a·b and c·b start in one cycle on the two lanes of one instance; d·e (another b) waits for a
    free instance; lane 1 has no go bit and no b field of its own; the microcode computes the model."""
    d = dp([msd("ca", 4, lanes=2)])
    fn = lambda TF, a, b, c, dd, e: [TF.mul(a, b), TF.mul(c, b), TF.mul(dd, e)]  # noqa: E731
    cp = compile_kernel(5, fn, d)
    pre = cp.pre
    muls = [i for i, op in enumerate(cp.flow.pre) if op.kind == "mul"]
    assert len(muls) == 3
    shared = [i for i in muls if cp.flow.pre[i].srcs[1][0] == "a1"]
    other = [i for i in muls if i not in shared]
    assert len(shared) == 2 and pre.start[shared[0]] == pre.start[shared[1]]
    assert sorted(pre.inst[i] for i in shared) == [0, 1]
    ii = d.unit_for("mul").ii
    assert pre.start[other[0]] >= pre.start[shared[0]] + ii and pre.inst[other[0]] % 2 == 0
    names = [n for n, _ in fields(d, cp.microcode.sizes)]
    assert "ca_0.go" in names and "ca_0.b" in names and "ca_1.a" in names
    assert "ca_1.go" not in names and "ca_1.b" not in names
    _check_run(cp, 5, lambda F, a, b, c, dd, e: [F.mul(a, b), F.mul(c, b), F.mul(dd, e)])


def test_products_go_to_the_unit_that_finishes_them_first():
    """A chain of products stays on the fast multiplier; independent products also use the slow one
    when it finishes them sooner, and the run is shorter than on the fast one alone; the bound counts
    both units' throughput."""
    fast, slow = msd("fast", 16), msd("slow", 4)
    two = dp([fast, slow])
    one = dp([fast])

    def chain(TF, a, b):
        x = a
        for _ in range(4):
            x = TF.mul(x, b)
        return [x]

    cp = compile_kernel(2, chain, two)
    assert {u.name for u, op in zip(cp.pre.units, cp.flow.pre) if op.kind == "mul"} == {"fast"}
    _check_run(cp, 2, lambda F, a, b: [F.mul(F.mul(F.mul(F.mul(a, b), b), b), b)])

    def many(TF, *xs):
        return [TF.mul(xs[i], xs[i + 1]) for i in range(0, 16, 2)]

    cp2, cp1 = compile_kernel(16, many, two), compile_kernel(16, many, one)
    used = [u.name for u, op in zip(cp2.pre.units, cp2.flow.pre) if op.kind == "mul"]
    assert "slow" in used and used.count("fast") > used.count("slow")
    assert cp2.microcode.cycles < cp1.microcode.cycles
    _check_run(cp2, 16, lambda F, *xs: [F.mul(xs[i], xs[i + 1]) for i in range(0, 16, 2)])
    f, s = two.units_for("mul")
    assert mul_bound(two, 8) == -(-8 * f.ii * s.ii // (f.ii + s.ii)) and mul_bound(one, 8) == 8 * f.ii


def test_lanes_are_for_msd_multipliers():
    with pytest.raises(DatapathError, match="lanes"):
        dp([{"name": "m", "kind": "mul", "mul": {"kind": "schoolbook"}, "lanes": 2}])
    with pytest.raises(DatapathError, match="lanes"):
        build_datapath(of(F47), {"units": [msd("m", 4), {"name": "add", "kind": "add", "lanes": 2}]})


def test_small_tate_core_with_groups_computes_the_model():
    """The test-size Table 3 datapath (CA lanes, Multiplier 1 to 3 of three digit sizes) runs Alg. 1
    with two interleaved chains to the golden model's value, in the schedule's cycles."""
    d = designs.get("tate1-47-d4")
    cp, C, fi = d.compile(), d.curve(), d.field
    assert len(d.datapath().units_for("mul")) == 4 and d.datapath().unit_for("mul").lanes == 2
    for i in range(2):
        P, Q = fi.vector_points(C, 4, i)
        assert cp.microcode.run(fi.point_values(P, Q)) == (d.model(P, Q), cp.microcode.cycles)
