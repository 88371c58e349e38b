"""Sums rebuilt latest term last (pairhw.program.reassociate): the same values, as many additions,
shorter recurrences."""

from collections import Counter

import pytest

from pairhw import designs
from pairhw.program.engine import native_ops
from pairhw.program.loop import fold_loop
from pairhw.program.lower import Flow, LOp, lower
from pairhw.program.reassociate import _rec_mii, reassociate
from pairhw.program.schedule import assign_units, body_edges
from pairhw.program.trace import trace_pairing


def _flow(name, **datapath):
    d = designs.get(name)
    if datapath:
        d = designs.from_data({**d.data, "datapath": {**d.data["datapath"], **datapath}})
    dp = d.datapath()
    program = trace_pairing(dp.F, d.curve(), d.field.algorithm(d.algorithm), native=native_ops(dp))
    return d, dp, lower(fold_loop(program))


def _binary_ops(flow):
    return sum(op.kind in ("add", "sub") for _, ops in flow.blocks() for op in ops)


def _rec(body, dp):
    """The recurrence bound of a loop body over its true dependences."""
    return _rec_mii(len(body), body_edges(body, assign_units(body, dp), anti=False))


@pytest.mark.parametrize("name", ["etat3-97-fast-cubebank", "f2-47-etat-banked", "ate-bn-tiny"])
def test_a_reassociated_flow_computes_the_same_pairing_with_as_many_additions(name):
    """Over F_3^97, F_2^47 and a tiny BN curve: the rebuilt flow's pairing values are the flow's and
    the model's; two-input additions and subtractions as many as before, negations no more, and
    every other op as it was."""
    d, dp, flow = _flow(name)
    new = reassociate(flow, dp)
    assert new.body != flow.body or new.pre != flow.pre or new.post != flow.post
    assert _binary_ops(new) == _binary_ops(flow)
    count = lambda f: Counter(op.kind for _, ops in f.blocks() for op in ops)  # noqa: E731
    old, now = count(flow), count(new)
    assert now["neg"] <= old["neg"]
    assert {k: v for k, v in now.items() if k not in ("add", "sub", "neg")} == \
        {k: v for k, v in old.items() if k not in ("add", "sub", "neg")}
    fi = d.field
    for i in range(2):
        P, Q = fi.vector_points(d.curve(), 11, i)
        values = dict(zip(flow.inputs, fi.point_values(P, Q)))
        assert new.run(values) == flow.run(values) == list(d.model(P, Q))


def test_the_ternary_loops_recurrence_falls_and_its_interval_with_it():
    """etat3-97's Miller-loop body: the cycle through a Karatsuba coefficient's sum (the product of
    the previous trip's sum, then four additions) is 17 cycles with the model's order and 14 with the
    product added last; the modulo schedule then meets the multiplier's bound, II 17 (18 before)."""
    from pairhw.program.schedule import modulo_schedule

    _, dp, flow = _flow("etat3-97-fast-cubebank")
    from pairhw.program.fuse import fuse_powers
    flow = fuse_powers(flow, dp, True)
    new = reassociate(flow, dp)
    assert (_rec(flow.body, dp), _rec(new.body, dp)) == (17, 14)
    shared = new.carried()
    assert modulo_schedule(new.body, dp, trips=new.trips, shared=shared).ii == 17


def _op(dst, kind, *srcs):
    return LOp(dst, kind, tuple((s, 0) for s in srcs))


def test_the_latest_term_goes_last_and_a_negation_only_when_every_term_is_subtracted():
    """u = ((p + x) − y) + z with p a product (the latest term): rebuilt (x − y) + z first, p last;
    w = −((x + y) + z) keeps its one negation, at the root; a sum read twice is a term of its readers."""
    _, dp, flow = _flow("ate-bn-tiny")
    pre = [_op("p", "mul", "x", "y"), _op("s", "add", "p", "x"), _op("t", "sub", "s", "y"), _op("u", "add", "t", "z"),
           _op("a", "add", "x", "y"), _op("b", "add", "a", "z"), _op("w", "neg", "b"),
           _op("r", "sub", "x", "z"), _op("q", "add", "r", "y"), _op("v", "add", "q", "r")]
    hand = Flow(flow.F, ["x", "y", "z"], pre, [], 0, {}, {}, [], ["u", "w", "v"])
    out = reassociate(hand, dp).pre
    u = [o for o in out if o.dst.startswith("u")]
    assert u[-1] == LOp("u", "add", (("u~s1", 0), ("p", 0)))  # the product last
    assert {o.kind for o in u} == {"add", "sub"} and len(u) == 3
    w = [o for o in out if o.dst.startswith("w")]
    assert [o.kind for o in w] == ["add", "add", "neg"] and w[-1].dst == "w"
    assert any(o.dst == "r" for o in out)  # read twice: not folded into q
    values = {"x": 5, "y": 90, "z": 17}
    assert reassociate(hand, dp).run(values) == hand.run(values)
