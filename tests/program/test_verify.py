"""The schedule verifier: every built-in design's schedules pass it, and it finds each kind of fault
put into a valid schedule."""

import copy

import pytest

from pairhw import designs
from pairhw.program.verify import verify, verify_block, verify_loop


SMALL = ["f2-47-etat-banked", "f2-79-etat-tmvp3", "f2-79-etat-karatsuba", "f3-19-etat-schoolbook", "ate-bn-tiny",
         "ate-bn-tiny-small", "etat3-97-fast", "etat3-97-small", "tate1-47-d4"]


def _engine_designs():
    return [n for n in designs.names() if not designs.get(n).is_asip]


@pytest.mark.parametrize("name", SMALL)
def test_the_schedules_of_small_designs_are_valid(name):
    assert verify(designs.get(name).compile()) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in _engine_designs() if n not in SMALL])
def test_the_schedules_of_every_design_are_valid(name):
    """Slow: the full-size designs compile for minutes cold."""
    assert verify(designs.get(name).compile()) == []


@pytest.fixture(scope="module")
def banked():
    return designs.get("f2-47-etat-banked").compile()


def _with_producer(ops):
    """(consumer, producer) indices of the first op whose operand is made in the same block."""
    producer = {op.dst: i for i, op in enumerate(ops)}
    for i, op in enumerate(ops):
        for s, _ in op.srcs:
            if s in producer:
                return i, producer[s]
    raise AssertionError("no dependence in the block")


def test_an_op_before_its_operand_is_found(banked):
    flow, sch = banked.flow, copy.deepcopy(banked.pre)
    i, p = _with_producer(flow.pre)
    sch.start[i] = sch.start[p] + sch.units[p].delay - 1
    bad = verify_block(flow.pre, banked.dp, sch, flow.carried())
    assert any(f"op {i} " in b and "before its operand" in b for b in bad), bad


def test_two_starts_of_one_instance_within_its_ii_are_found(banked):
    flow, sch = banked.flow, copy.deepcopy(banked.pre)
    muls = [i for i, op in enumerate(flow.pre) if op.kind == "mul"]
    a, b = muls[0], muls[1]
    u = sch.units[a]
    assert u == sch.units[b] and u.count == 1
    sch.start[b] = sch.start[a] + u.ii - 1 if u.ii > 1 else sch.start[a]
    bad = verify_block(flow.pre, banked.dp, sch, flow.carried())
    assert any(u.name in x and ("II" in x or "lane" in x) for x in bad), bad


def test_an_op_on_a_unit_that_cannot_compute_it_is_found(banked):
    flow, sch = banked.flow, copy.deepcopy(banked.pre)
    mul = next(i for i, op in enumerate(flow.pre) if op.kind == "mul")
    other = next(u for u in banked.dp.units if "mul" not in u.ops)
    sch.units[mul] = other
    assert any("does not compute it" in x for x in verify_block(flow.pre, banked.dp, sch, flow.carried()))


def test_a_loop_at_a_smaller_ii_or_with_a_dependence_broken_is_found(banked):
    flow, loop = banked.flow, banked.loop
    assert verify_loop(flow.body, banked.dp, loop, flow.carried()) == []
    tighter = copy.deepcopy(loop)
    tighter.ii = loop.mii - 1 if loop.mii > 1 else 1
    tighter.stages = max(t + u.latency for u, t in zip(tighter.units, tighter.start)) // tighter.ii + 1
    assert verify_loop(flow.body, banked.dp, tighter, flow.carried())
    broken = copy.deepcopy(loop)
    i, p = _with_producer(flow.body)
    broken.start[i] = broken.start[p]
    broken.stages = max(t + u.latency for u, t in zip(broken.units, broken.start)) // broken.ii + 1
    assert any(f"op {i} " in x for x in verify_loop(flow.body, banked.dp, broken, flow.carried()))


def test_a_full_write_port_is_found():
    """Two results through a one-port bank in the same cycle: f2-79-etat-tmvp3's datapath writes its
    multiplier's results through limited ports."""
    cp = designs.get("f2-79-etat-tmvp3").compile()
    flow, sch, dp = cp.flow, copy.deepcopy(cp.pre), cp.dp
    limited = [i for i, (op, u) in enumerate(zip(flow.pre, sch.units)) if dp.write_port(u)]
    if len(limited) < 2:
        pytest.skip("no two results through a limited write port")
    a, b = limited[0], next(j for j in limited[1:] if dp.write_port(sch.units[j]) == dp.write_port(sch.units[limited[0]]))
    ports = dp.write_port(sch.units[a])[1]
    same = [j for j in limited if dp.write_port(sch.units[j]) == dp.write_port(sch.units[a])][:ports + 1]
    if len(same) <= ports:
        pytest.skip("fewer results than ports")
    for j in same:  # all at one result cycle
        sch.start[j] = sch.start[a] + sch.units[a].latency - sch.units[j].latency
    assert any("write port" in x for x in verify_block(flow.pre, dp, sch, flow.carried()))
    assert b in limited
