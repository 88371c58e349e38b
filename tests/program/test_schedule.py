"""The scheduler: dependences, unit limits, loop-carried dependences and overlap of trips."""

import copy

import pytest

from pairhw import designs
from pairhw.fields import of
from pairhw.math.binary import pairing as pr
from pairhw.program.datapath import Bank, Datapath, DatapathError, UnitSpec
from pairhw.program.engine import compile_flow
from pairhw.program.loop import fold_loop
from pairhw.program.lower import Flow, LOp, lower
from pairhw.program.schedule import ScheduleError, list_schedule, modulo_schedule, unit_of
from pairhw.program.trace import trace_pairing
from pairhw.program.verify import verify

from ..conftest import curve


def dp_for(F, mul_latency=9, mul_ii=6, adders=1, banks=(Bank("r"),)):
    return Datapath(of(F), (UnitSpec("mul", "mul", mul_latency, mul_ii), UnitSpec("add", "add", count=adders),
                        UnitSpec("sqr", "sqr"), UnitSpec("sqrt", "sqrt"), UnitSpec("const", "const")), banks)


def flow_of(name, alg=pr.etat):
    return lower(fold_loop(trace_pairing(of(curve(name).F), curve(name), alg)))


def check_units(dp, ops, start, inst, ii=None):
    """No unit instance accepts two ops within its II (modulo the loop's ii, if given)."""
    busy = set()
    for i, op in enumerate(ops):
        u = unit_of(dp, op)
        for c in range(u.ii):
            t = start[i] + c
            key = (u.name, inst[i], t % ii if ii else t)
            assert key not in busy, f"{u.name}{inst[i]} double-booked at {t}"
            busy.add(key)


@pytest.mark.parametrize("name", ["f2-17", "f2-79"])
def test_list_schedule_respects_dependences_and_units(name):
    flow = flow_of(name)
    dp = dp_for(flow.F)
    for ops in (flow.pre, flow.post):
        s = list_schedule(ops, dp)
        where = {op.dst: i for i, op in enumerate(ops)}
        for i, op in enumerate(ops):
            for src, _ in op.srcs:
                if src in where:
                    p = where[src]
                    assert s.start[i] >= s.start[p] + unit_of(dp, ops[p]).delay
            assert s.start[i] + unit_of(dp, op).delay <= s.length
        check_units(dp, ops, s.start, s.inst)


@pytest.mark.parametrize("name,alg", [("f2-47", pr.etat), ("f2-79", pr.etat_adikari12), ("f2-1223", pr.etat)])
def test_modulo_schedule_respects_every_edge(name, alg):
    flow = flow_of(name, alg)
    dp = dp_for(flow.F)
    ls = modulo_schedule(flow.body, dp)
    assert ls.ii >= ls.mii >= sum(op.kind == "mul" for op in flow.body) * 6
    for s, d, delay, dist in ls.edges:
        assert ls.start[d] >= ls.start[s] + delay - dist * ls.ii
    # loop-carried reads, checked directly: trip i + 1 reads trip i's value after it is written
    where = {op.dst: i for i, op in enumerate(flow.body)}
    carried = 0
    for u, op in enumerate(flow.body):
        for src, dist in op.srcs:
            if dist == 1:
                carried += 1
                j = where[src]
                assert ls.start[u] + ls.ii >= ls.start[j] + unit_of(dp, flow.body[j]).delay
    assert carried > 0
    check_units(dp, flow.body, ls.start, ls.inst, ls.ii)


def _chain_flow(F, trips):
    """x ← x² each trip (a 1-cycle recurrence) and three dependent products per trip."""
    body = [LOp("@0", "sqr", (("@0", 1),)), LOp("@1", "mul", (("@0", 0), ("g", 0))),
            LOp("@2", "mul", (("@1", 0), ("g", 0))), LOp("@3", "mul", (("@2", 0), ("g", 0)))]
    pre = [LOp("x0", "add", (("a", 0), ("b", 0)))]
    post = [LOp("y", "add", (("z", 0), ("w", 0)))]
    return Flow(of(F), ["a", "b", "g", "w"], pre, body, trips, {"@0": "x0"}, {"z": "@3"}, post, ["y"])


def test_trips_overlap_at_the_resource_bound():
    F = curve("f2-17").F
    dp = dp_for(F, mul_latency=9, mul_ii=1)
    ls = modulo_schedule(_chain_flow(F, 10).body, dp)
    assert (ls.ii, ls.mii) == (3, 3)  # three products per trip on one pipelined multiplier
    assert ls.stages > 1  # a trip spans several ii windows: trips overlap


def test_recurrence_bounds_the_initiation_interval():
    F = curve("f2-17").F
    dp = dp_for(F, mul_latency=9, mul_ii=1)
    body = [LOp("@0", "mul", (("@0", 1), ("g", 0)))]  # x ← x·g: the product feeds the next trip
    ls = modulo_schedule(body, dp)
    assert ls.mii == 1 and ls.ii == 10  # latency 9 + the register write


@pytest.mark.parametrize("trips", [1, 2, 3, 10])
def test_overlapped_loop_runs_exactly(trips, rng):
    """Prologue, kernel, epilogue (or the unrolled loop when trips < stages) compute the flow."""
    F = curve("f2-17").F
    flow = _chain_flow(F, trips)
    cp = compile_flow(flow, dp_for(F, mul_latency=9, mul_ii=1))
    assert (cp.microcode.loop is not None) == (trips >= cp.loop.stages)
    for _ in range(5):
        vals = [F.random(rng) for _ in flow.inputs]
        out, cycles = cp.microcode.run(vals)
        assert out == flow.run(dict(zip(flow.inputs, vals)))
        assert cycles == cp.microcode.cycles == cp.timeline.end


def test_reading_a_value_before_and_after_its_redefinition_is_refused():
    F = curve("f2-17").F
    body = [LOp("@0", "sqr", (("@1", 1),)), LOp("@1", "add", (("@0", 0), ("@1", 1))),
            LOp("@2", "add", (("@1", 1), ("@1", 0)))]
    with pytest.raises(ScheduleError, match="move"):
        modulo_schedule(body, dp_for(F))


def test_datapath_errors():
    F = curve("f2-17").F
    with pytest.raises(DatapathError, match="no unit computes sqrt"):
        Datapath(of(F), (UnitSpec("mul", "mul"),)).unit_for("sqrt")
    with pytest.raises(DatapathError, match="unknown kind"):
        Datapath(of(F), (UnitSpec("x", "div"),))
    with pytest.raises(DatapathError, match="no bank"):
        Datapath(of(F), (UnitSpec("add", "add", reads=(("q",), ("r",))),))
    flow = flow_of("f2-17")
    with pytest.raises(ScheduleError, match="full"):
        compile_flow(flow, dp_for(F, banks=(Bank("r", size=4),)))


@pytest.mark.parametrize("ports", [1, 2])
def test_a_ram_bank_takes_at_most_its_write_ports_per_cycle(ports, rng):
    """Every result goes through the bank's write ports: the schedule (loop included) never writes
    more per cycle, the bound counts the body's writes, and the pairing is still exact."""
    from ..conftest import random_point

    C = curve("f2-79")
    flow = flow_of("f2-79", pr.etat_adikari12)
    cp = compile_flow(flow, dp_for(C.F, banks=(Bank("r", write_ports=ports),)))
    mc = cp.microcode
    assert max(sum(1 for k, v in wd.items() if k.endswith(".we") and v) for wd in mc.words) <= ports
    assert cp.loop.mii >= -(-len(flow.body) // ports)
    P, Q = random_point(C, rng), random_point(C, rng)
    out, cycles = mc.run([*P, *Q])
    assert tuple(out) == tuple(pr.etat_adikari12(C, P, Q)) and cycles == mc.cycles
    free = compile_flow(flow, dp_for(C.F))
    assert mc.cycles >= free.microcode.cycles


def test_write_port_limits_are_checked():
    F = curve("f2-17").F
    with pytest.raises(DatapathError, match="write_ports"):
        dp_for(F, banks=(Bank("r", write_ports=0),))
    with pytest.raises(DatapathError, match="limited write"):
        dp_for(F, banks=(Bank("r", write_ports=1), Bank("s")))


def dp_shared(F, ports, sqrt_via=(1,), banks=None):
    """dp_for's units reading one RAM bank through ``ports`` shared read ports (the square root's
    input through ``sqrt_via``, the others by default: input j through port j mod ports)."""
    return Datapath(of(F), (UnitSpec("mul", "mul", 9, 6), UnitSpec("add", "add"), UnitSpec("sqr", "sqr"),
                            UnitSpec("sqrt", "sqrt", read_via=sqrt_via), UnitSpec("const", "const")),
                    banks or (Bank("r", write_ports=1, read_ports=ports),))


@pytest.mark.parametrize("ports", [2, 3])
def test_a_shared_read_port_reads_one_register_a_cycle(ports, rng):
    """Every op reads through the ports its unit's inputs are bound to: no two ops take one port in
    a cycle (modulo ii in the loop), the loop's bound counts each port's reads, the words address
    each port once (no per-unit address fields), and the pairing is still exact."""
    from ..conftest import random_point

    C = curve("f2-79")
    dp = dp_shared(C.F, ports)
    cp = compile_flow(flow_of("f2-79", pr.etat_adikari12), dp)
    flow = cp.flow  # after the power chains are fused for the datapath
    for ops, sch, ii in ((flow.pre, cp.pre, None), (flow.body, cp.loop, cp.loop.ii), (flow.post, cp.post, None)):
        taken = [(dp.read_port(u, j), t % ii if ii else t)
                 for op, u, t in zip(ops, sch.units, sch.start) for j in range(len(op.srcs))]
        assert all(rp is not None for rp, _ in taken)
        assert len(taken) == len(set(taken)), "a read port taken twice in a cycle"
    per_port = {}
    for op, u in zip(flow.body, cp.loop.units):
        for j in range(len(op.srcs)):
            per_port[dp.read_port(u, j)] = per_port.get(dp.read_port(u, j), 0) + 1
    assert cp.loop.mii >= max(per_port.values())
    mc = cp.microcode
    names = [n for n, _ in mc.fields]
    assert [n for n in names if n.startswith("r.rd")] == [f"r.rd{k}" for k in range(ports)]
    assert not [n for n in names if n.endswith((".a", ".b"))]
    for _ in range(2):
        P, Q = random_point(C, rng), random_point(C, rng)
        out, cycles = mc.run([*P, *Q])
        assert tuple(out) == tuple(pr.etat_adikari12(C, P, Q)) and cycles == mc.cycles


def test_an_input_reads_through_the_port_it_is_bound_to():
    """read_via binds an input to a port; the default binds input j to port j mod read_ports."""
    dp = dp_shared(curve("f2-17").F, 3, sqrt_via=(2,))
    mul, add, sqr, sqrt = (dp.unit_for(k) for k in ("mul", "add", "sqr", "sqrt"))
    assert [dp.read_port(mul, 0), dp.read_port(mul, 1), dp.read_port(add, 1)] == [("r", 0), ("r", 1), ("r", 1)]
    assert (dp.read_port(sqr, 0), dp.read_port(sqrt, 0)) == (("r", 0), ("r", 2))
    assert dp_for(curve("f2-17").F, banks=(Bank("r", write_ports=1),)).read_port(mul, 0) is None


def test_shared_read_port_limits_are_checked():
    F = curve("f2-17").F
    with pytest.raises(DatapathError, match="read_ports"):  # registers, not a RAM
        dp_shared(F, 2, banks=(Bank("r", read_ports=2),))
    with pytest.raises(DatapathError, match="read_ports"):
        dp_shared(F, 0)
    with pytest.raises(DatapathError, match="distinct read port"):  # only ports 0 and 1
        dp_shared(F, 2, sqrt_via=(2,))
    with pytest.raises(DatapathError, match="distinct read port"):  # a two-input unit on one port
        dp_shared(F, 1, sqrt_via=(0,))
    with pytest.raises(DatapathError, match="read_via"):  # no bank with read_ports
        dp_shared(F, 2, banks=(Bank("r", write_ports=1),))
    with pytest.raises(DatapathError, match="alone"):  # a port that may read two banks
        dp_shared(F, 2, banks=(Bank("r", write_ports=1, read_ports=2), Bank("s")))

def test_few_trips_prefer_fewer_stages():
    """A loop of 4 trips takes the II whose (trips + stages − 1)·II is smallest, not the least II."""
    flow = flow_of("f2-47")
    dp = dp_for(flow.F)
    best = modulo_schedule(flow.body, dp, trips=flow.trips)
    least = modulo_schedule(flow.body, dp)
    assert (flow.trips + best.stages - 1) * best.ii <= (flow.trips + least.stages - 1) * least.ii


def _deeper_karatsuba(orders):
    """``etat3-97-fast-local`` with its Karatsuba multiplier a stage deeper (6 stages, latency 7) and
    ``modulo_orders`` set: a loop whose product bound is 17 and whose recurrences allow 13."""
    d = copy.deepcopy(designs.get("etat3-97-fast-local").data)
    d["name"] = f"etat3-97-karatsuba6-orders{orders}"
    d["datapath"]["units"][0]["mul"]["stages"] = 6
    d["datapath"]["modulo_orders"] = orders
    return designs.from_data(d)


def test_more_placement_orders_reach_the_product_bound_the_first_orders_miss(rng):
    """Rau's greedy placement in its own orders places the Miller loop's 53 ops at II 19 at the
    least, two cycles a trip above the multiplier's 17 products; 40 orders place them at 17, a
    schedule the verifier passes, whose microcode computes the pairing, and the same every time."""
    d = _deeper_karatsuba(40)
    one, many = _deeper_karatsuba(1).compile(), d.compile()
    assert (one.loop.ii, one.loop.mii) == (19, 17)
    assert (many.loop.ii, many.loop.mii) == (17, 17)
    assert many.report()["cycles"] < one.report()["cycles"]
    _valid_computing_and_repeatable(d, many, rng)


def _valid_computing_and_repeatable(d, c, rng):
    """Design ``d``'s compiled ``c``: a schedule the verifier passes, whose microcode computes two
    random pairings in its cycles, and whose loop is placed the same again."""
    assert verify(c) == []
    C, fi = d.curve(), d.field
    for i in range(2):
        P, Q = fi.vector_points(C, rng.randrange(1000), i)
        out, cycles = c.run(fi.point_values(P, Q))
        assert tuple(out) == tuple(d.model(P, Q)) and cycles == c.microcode.cycles
    flow = c.flow
    again = modulo_schedule(flow.body, c.dp, trips=flow.trips, shared=flow.carried())
    assert (again.start, again.inst) == (c.loop.start, c.loop.inst)


def _staged_adders(evict):
    """``etat3-97-fast-sliced`` with a results stage on its two adders (a cycle more on every chain
    of additions) and ``modulo_evict`` set, in one placement order."""
    d = copy.deepcopy(designs.get("etat3-97-fast-sliced").data)
    d["name"] = f"etat3-97-staged-adders-{evict}"
    d["datapath"]["modulo_evict"] = evict
    for u in d["datapath"]["units"]:
        if u["kind"] == "add":
            u["pipeline"] = ["operands", "results"]
    return designs.from_data(d)


def test_evicting_where_fewest_ops_are_in_the_way_reaches_a_smaller_interval(rng):
    """Placed by force, an op evicts what is in its way: on the adders' instance 0 and its write
    port 0 (``first``) the Miller loop of the F_3^97 core with staged adders settles at II 20; on
    the instance and port with the fewest ops in the way (``fewest``) at 19 (in six stages where
    ``first`` takes three: the interval, not always the loop's cycles), which the verifier passes,
    whose microcode computes the pairing in its cycles, and the same every time."""
    d = _staged_adders("fewest")
    first, fewest = _staged_adders("first").compile(), d.compile()
    assert (first.loop.ii, first.loop.mii) == (20, 17)
    assert (fewest.loop.ii, fewest.loop.mii) == (19, 17)
    _valid_computing_and_repeatable(d, fewest, rng)


def _exact(d, budget=10):
    """Design data ``d`` with the exact modulo scheduler's ``budget``."""
    d = copy.deepcopy(d)
    d["name"] += "-exact"
    d["datapath"]["modulo_exact"] = budget
    return designs.from_data(d)


def test_the_exact_modulo_scheduler_reaches_the_product_bound_the_greedy_placement_misses(rng):
    """The deeper Karatsuba loop the greedy placement puts at II 19 in its own orders: CP-SAT places
    it at the product bound, 17, in fewer loop cycles, a schedule the verifier passes, whose
    microcode computes the pairing, and the same every time."""
    greedy = _deeper_karatsuba(1)
    d = _exact(greedy.data)
    one, exact = greedy.compile(), d.compile()
    assert (one.loop.ii, one.loop.mii) == (19, 17)
    assert (exact.loop.ii, exact.loop.mii) == (17, 17)
    trips = exact.flow.trips
    assert (trips + exact.loop.stages - 1) * 17 < (trips + one.loop.stages - 1) * 19
    assert exact.report()["cycles"] < one.report()["cycles"]
    _valid_computing_and_repeatable(d, exact, rng)


@pytest.mark.parametrize("mul_latency,mul_ii,ports", [(3, 2, 1), (9, 6, 2)])
def test_exact_schedules_keep_every_port_and_instance_rule(mul_latency, mul_ii, ports):
    """On a loop with two adders, a bank of ``ports`` write ports and a shared read port per adder
    input, the solver's schedule passes the independent verifier and never takes more loop cycles
    than the greedy placement's; with a multiplier of II 6 it reaches the bound, 84, where the
    greedy placement stops at 88."""
    import dataclasses

    from pairhw.program.verify import verify_loop

    flow = flow_of("f2-79", pr.etat_adikari12)
    dp = dp_for(flow.F, mul_latency=mul_latency, mul_ii=mul_ii, adders=2,
                banks=(Bank("r", write_ports=ports, read_ports=2),))
    greedy = modulo_schedule(flow.body, dp, trips=flow.trips)
    exact = modulo_schedule(flow.body, dataclasses.replace(dp, modulo_exact=5), trips=flow.trips)
    assert verify_loop(flow.body, dp, exact) == []
    assert exact.mii <= exact.ii <= greedy.ii
    assert (flow.trips + exact.stages - 1) * exact.ii <= (flow.trips + greedy.stages - 1) * greedy.ii
    if mul_ii == 6:
        assert (greedy.ii, exact.ii, exact.mii) == (88, 84, 84)


def test_the_exact_model_does_not_cover_lanes():
    """A loop on a multiplier with lanes is refused by name, not scheduled wrong."""
    import dataclasses

    flow = flow_of("f2-47")
    dp = dp_for(flow.F)
    units = tuple(dataclasses.replace(u, lanes=2) if u.kind == "mul" else u for u in dp.units)
    with pytest.raises(ScheduleError, match="modulo_exact: the loop runs on a unit with lanes"):
        modulo_schedule(flow.body, dataclasses.replace(dp, units=units, modulo_exact=5), trips=flow.trips)
