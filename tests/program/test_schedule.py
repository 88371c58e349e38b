"""The list scheduler respects dependences and unit limits, and reports the multiplier bound."""

import pytest

from pairhw.math import pairing2 as pr
from pairhw.program.schedule import Datapath, Unit, list_schedule
from pairhw.program.trace import trace_pairing

from ..conftest import curve

DP = Datapath((Unit("mul", ("mul", "mulc"), latency=9, ii=6),
               Unit("alu", ("add", "addc", "const"), latency=1),
               Unit("sqr", ("sqr",), latency=1), Unit("sqrt", ("sqrt",), latency=1)))


@pytest.mark.parametrize("name", ["f2-17", "f2-79"])
def test_dependences_and_resources(name):
    prog = trace_pairing(curve(name), pr.etat)
    s = list_schedule(prog, DP)
    producer = {op.dst: i for i, op in enumerate(prog.ops)}
    for i, op in enumerate(prog.ops):
        for src in op.srcs:
            if src in producer:
                p = producer[src]
                assert s.start[i] >= s.start[p] + DP.unit_for(prog.ops[p].kind).latency
    # one op per unit instance per II cycles
    by_unit = {}
    for i, (u, inst) in s.unit.items():
        by_unit.setdefault((u, inst), []).append(s.start[i])
    for (u, _), starts in by_unit.items():
        ii = next(x.ii for x in DP.units if x.name == u)
        starts.sort()
        assert all(b - a >= ii for a, b in zip(starts, starts[1:]))
    rep = s.report(prog, DP)
    assert rep["cycles"] >= rep["multiplier_bound"] == rep["products"] * 6
    assert 0 < rep["multiplier_utilisation"] <= 1


def test_two_multipliers_halve_the_bound():
    prog = trace_pairing(curve("f2-47"), pr.etat)
    dp2 = Datapath((Unit("mul", ("mul", "mulc"), latency=9, ii=6, count=2),) + DP.units[1:])
    one, two = list_schedule(prog, DP), list_schedule(prog, dp2)
    assert two.report(prog, dp2)["multiplier_bound"] * 2 <= one.report(prog, DP)["multiplier_bound"] + 6
    assert two.cycles < one.cycles


def test_unknown_op_kind_is_an_error():
    with pytest.raises(ValueError, match="no unit"):
        Datapath((Unit("alu", ("add",), 1),)).unit_for("mul")
