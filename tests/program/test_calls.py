"""Calls (a datapath's ``"calls": true``): the program cut at the model's steps, identical steps stored
once, a run table that drives the sequencer; the words it runs are the straight-line program's."""

from __future__ import annotations

import dataclasses

import pytest

from pairhw import designs
from pairhw.designs import Design
from pairhw.program.calls import fragments
from pairhw.program.microcode import Key, Run

NAME = "ate-bn-tiny-calls"  # ate-bn-tiny-small with calls


def _pairs(d, n, seed):
    C, fi = d.curve(), d.field
    return [fi.vector_points(C, seed, i) for i in range(n)]


@pytest.fixture(scope="module")
def compiled():
    d = designs.get(NAME)
    return d, d.compile()


def test_calls_core_computes_the_pairing_in_constant_cycles(compiled):
    d, cp = compiled
    fi = d.field
    for P, Q in _pairs(d, 4, seed=11):
        assert cp.run(fi.point_values(P, Q)) == (list(d.model(P, Q)), cp.cycles)


def test_identical_steps_are_stored_once(compiled):
    """Fewer words than cycles, and fewer than the same datapath's straight-line microcode: the
    Miller loop's doublings and the exponentiations' squarings each have one copy (or two that
    alternate) however often they run."""
    d, cp = compiled
    mc = cp.microcode
    straight = designs.get("ate-bn-tiny-small").compile().microcode
    assert len(mc.words) < len(straight.words)
    assert any(r.count > 1 for r in mc.table)  # a step run back to back is one entry
    assert list(mc.pc_trace())[:1] == [mc.table[0].start]
    assert all(0 <= r.start <= r.end < len(mc.words) for r in mc.table)


def _broken(cp, table):
    return dataclasses.replace(cp.microcode, table=table)


@pytest.mark.parametrize("fault", ["end off by one", "count off by one", "entries swapped"])
def test_a_wrong_run_table_is_caught_by_the_model(compiled, fault):
    """A run that ends a word early (a call returning to the wrong word), a repeat count off by one
    (a loop's trips), two entries in the wrong order (a digit string read backwards): the
    microcode's run no longer computes the model's value."""
    d, cp = compiled
    table = list(cp.microcode.table)
    if fault == "end off by one":
        i = next(i for i, r in enumerate(table) if r.end > r.start and any(cp.microcode.words[r.end]))
        table[i] = Run(table[i].start, table[i].end - 1, table[i].count)
    elif fault == "count off by one":
        i = next(i for i, r in enumerate(table) if r.count > 1)
        table[i] = Run(table[i].start, table[i].end, table[i].count - 1)
    else:
        i = next(i for i in range(len(table) - 1) if table[i] != table[i + 1])
        table[i], table[i + 1] = table[i + 1], table[i]
    mc = _broken(cp, table)
    P, Q = _pairs(d, 1, seed=12)[0]
    try:
        out, _ = mc.run(d.field.point_values(P, Q))
    except RuntimeError:  # a write with no result due: caught too
        return
    assert out != list(d.model(P, Q))


def test_fragments_store_each_run_of_words_once_and_repeat_pairs():
    """Words between cuts X Y X Y X Y Z: X and Y stored once, the pair run three times, then Z."""
    mc = designs.get("ate-bn-tiny-small").compile().microcode
    X, Y, Z = [{Key.we("add"): 1, Key.w("add"): k} for k in (1, 2, 3)]
    words = [X, X, Y] * 3 + [Z]
    straight = dataclasses.replace(mc, words=words, comments=[[] for _ in words], loop=None, table=None)
    out = fragments(straight, [0, 2, 3, 5, 6, 8, 9])
    assert out.words == [X, X, Y, Z]
    assert out.table == [Run(0, 2, 3), Run(3, 3, 1)]
    assert list(out.pc_trace()) == [0, 1, 2] * 3 + [3]


def test_fragments_share_a_stored_run_inside_a_new_step():
    """``share``: a step whose words are new but hold a run of stored words (its head differs) stores
    its head alone and runs the stored run from where it is; without ``share`` it is stored whole.
    The words executed are the straight line's either way."""
    mc = designs.get("ate-bn-tiny-small").compile().microcode
    A, B, C, D, E, Z = [{Key.we("add"): 1, Key.w("add"): k} for k in range(1, 7)]
    words = [A, B, C, D, E] + [Z, B, C, D, E] + [A, B, C]
    straight = dataclasses.replace(mc, words=words, comments=[[] for _ in words], loop=None, table=None)
    shared = fragments(straight, [0, 5, 10], min_share=3)
    assert shared.words == [A, B, C, D, E, Z]
    assert shared.table == [Run(0, 5, 1), Run(1, 4, 1), Run(0, 2, 1)]
    assert [shared.words[pc] for pc in shared.pc_trace()] == words
    whole = fragments(straight, [0, 5, 10])
    assert len(whole.words) == len(words) and [whole.words[pc] for pc in whole.pc_trace()] == words
    short = fragments(straight, [0, 5, 10], min_share=5)  # no stored run of 5 words in a later step
    assert short.words == words


def test_shared_words_compute_the_pairing_in_the_same_cycles():
    """ate-bn-tiny-calls with ``"share": 4``: fewer words and more run-table entries, the same
    cycles, and the pairings the model computes (the microcode's run follows the table)."""
    d = _with(NAME, share=4)
    cp, plain = d.compile(), designs.get(NAME).compile()
    assert len(cp.microcode.words) < len(plain.microcode.words)
    assert len(cp.microcode.table) > len(plain.microcode.table)
    fi = d.field
    for P, Q in _pairs(d, 3, seed=14):
        assert cp.run(fi.point_values(P, Q)) == (list(d.model(P, Q)), plain.cycles)


@pytest.mark.parametrize("datapath,message", [
    ({"share": 1}, "datapath.share: 1 is not a whole number of words of at least 2"),
    ({"share": True}, "datapath.share: True is not"),
    ({"share": 4, "calls": None}, "datapath.share: needs calls"),
])
def test_a_share_the_engine_cannot_use_is_refused(datapath, message):
    data = {k: v for k, v in datapath.items() if v is not None}
    d = _with(NAME, **data)
    if "calls" in datapath:
        d.data["datapath"].pop("calls")
    with pytest.raises(Exception, match=message):
        d.datapath()


def test_calls_refused_for_a_program_that_folds_into_a_loop():
    d = designs.get("f2-47-etat-banked")
    data = {**d.data, "datapath": {**d.data["datapath"], "calls": "steps"}}
    bad = Design(d.name, d.description, d.params, d.algorithm, data)
    with pytest.raises(Exception, match="datapath.calls"):
        bad.compile()


def test_cuts_follow_the_model_steps():
    """The tracer cuts where each Miller-loop step and each squaring or product of an exponentiation
    begins and ends; the real field ignores the steps (same pairing value)."""
    d = designs.get(NAME)
    C = d.curve()
    P, Q = _pairs(d, 1, seed=5)[0]
    assert d.model(P, Q)  # runs through F.step on the real field
    from pairhw.program.engine import native_ops
    from pairhw.program.trace import trace_pairing
    dp = d.datapath()
    program = trace_pairing(dp.F, C, d.field.algorithm(d.algorithm), native=native_ops(dp))
    assert len(program.cuts) % 2 == 0 and program.cuts == sorted(program.cuts)
    naf_digits = len(bin(abs(C.ate_loop))) - 3
    assert len(program.cuts) // 2 >= naf_digits  # a doubling step per digit at least


def _with(name, **datapath):
    d = designs.get(name)
    data = {**d.data, "name": name + "-x", "datapath": {**d.data["datapath"], **datapath}}
    return Design(name + "-x", d.description, d.params, d.algorithm, data)


def test_overlapping_steps_compute_the_pairing_in_fewer_cycles():
    """``"calls": "overlap"`` on ate-bn-tiny's pipelined multiplier: a step's head fills the
    previous one's tail, bit-exact, and in fewer cycles than steps one after the other."""
    over, steps = _with("ate-bn-tiny", calls="overlap"), _with("ate-bn-tiny", calls="steps")
    cp = over.compile()
    fi = over.field
    for P, Q in _pairs(over, 3, seed=13):
        assert cp.run(fi.point_values(P, Q)) == (list(over.model(P, Q)), cp.cycles)
    assert cp.cycles < steps.compile().cycles


def test_a_step_without_words_of_its_own_leaves_the_next_one_the_free_cycles_before_it():
    """A step whose ops all fit in the words before it (a conjugation's negations) has no words of
    its own; the step after it still takes the cycles those words leave free, as it would with no
    such step between them."""
    from pairhw.program.calls import step_schedule
    from pairhw.program.lower import LOp

    dp = designs.get("ate-bn-tiny").datapath()
    # step 0: y = (a·b)², which waits the multiplier's latency; step 1: −a, issued in step 0's
    # words; step 2: c·d, independent, can issue while step 0 waits
    x, y = LOp("x", "mul", (("a", 0), ("b", 0))), LOp("y", "mul", (("x", 0), ("x", 0)))
    n, z = LOp("n", "neg", (("a", 0),)), LOp("z", "mul", (("c", 0), ("d", 0)))
    between, starts = step_schedule([x, y, n, z], [0, 0, 1, 2], dp, overlap=True)
    alone, _ = step_schedule([x, y, z], [0, 0, 2], dp, overlap=True)
    assert starts[1] == starts[2]  # step 1 has no words of its own
    assert between.start[3] == alone.start[2] < between.start[1]


def test_table_copies_make_every_product_of_the_powers_read_values_made_just_before_it():
    """``"table_copies"``: each product of the final exponentiation's windowed powers by u multiplies
    by a copy of its odd power, made in a step of its own just before it (12 additions of 0), so no
    product step reads the table of odd powers made steps earlier (what lets them share registers
    and words: test_table_copies_bring_the_bn254_core_under_4096_microcode_words); the program
    computes the same values."""
    from pairhw.program.calls import _spans, step_of
    from pairhw.program.engine import native_ops
    from pairhw.program.trace import trace_pairing

    d = designs.get("ate-bn254-fast-compact")
    dp, alg, fi = d.datapath(), d.field.algorithm(d.algorithm), d.field
    ages, programs = {}, {}
    for copies in (False, True):
        prog = programs[copies] = trace_pairing(dp.F, d.curve(), alg, native=native_ops(dp), copies=copies)
        spans = list(_spans(step_of(prog, prog.ops)))
        made = {op.dst: n for n, (i, j) in enumerate(spans) for op in prog.ops[i:j]}
        loads = [n for n, (i, j) in enumerate(spans) if j - i == 12 and all(op.kind == "addc" for op in prog.ops[i:j])]
        products = [n for n, (i, j) in enumerate(spans) if sum(op.kind == "mul" for op in prog.ops[i:j]) == 54]
        assert len(products) == 48 and len(loads) == (48 if copies else 0)
        # how many steps back the oldest value a product step reads was made
        ages[copies] = max(n - made[s] for n in products for op in prog.ops[slice(*spans[n])] for s in op.srcs
                           if s in made and made[s] < n)
    assert ages[True] <= 3 < ages[False]
    P, Q = fi.vector_points(d.curve(), 3, 0)
    values = dict(zip(programs[True].inputs, fi.point_values(P, Q)))
    assert programs[True].run(values) == programs[False].run(values)


def test_table_copies_compute_the_pairing_at_test_size():
    """ate-bn-tiny with calls that overlap and table copies: the microcode model gives the model's
    pairing in its constant cycles, with the copies' additions in it."""
    d = _with("ate-bn-tiny", calls="overlap", table_copies=True)
    cp, fi = d.compile(), d.field
    plain = _with("ate-bn-tiny", calls="overlap").compile()
    assert len(cp.flow.pre) > len(plain.flow.pre)
    for P, Q in _pairs(d, 3, seed=17):
        assert cp.run(fi.point_values(P, Q)) == (list(d.model(P, Q)), cp.cycles)


def test_a_calls_mode_that_does_not_exist_is_refused():
    with pytest.raises(Exception, match="datapath.calls: 'yes' is not steps or overlap"):
        _with("ate-bn-tiny", calls="yes").datapath()


def test_the_lookahead_of_overlapping_steps_is_a_design_key():
    """``"lookahead"``: the steps an overlapping step's priorities look ahead.  The default is
    :data:`~pairhw.program.calls.LOOKAHEAD` (the same schedule as without the key); another value
    gives another schedule, and each computes the model's pairing in its own constant cycles."""
    from pairhw.program.calls import LOOKAHEAD

    base = _with("ate-bn-tiny", calls="overlap")
    same = _with("ate-bn-tiny", calls="overlap", lookahead=LOOKAHEAD).compile()
    assert same.schedule.pre.start == base.compile().schedule.pre.start
    fi = base.field
    starts = {LOOKAHEAD: same.schedule.pre.start}
    for la in (1, 4):
        d = _with("ate-bn-tiny", calls="overlap", lookahead=la)
        cp = d.compile()
        starts[la] = cp.schedule.pre.start
        for P, Q in _pairs(d, 2, seed=15):
            assert cp.run(fi.point_values(P, Q)) == (list(d.model(P, Q)), cp.cycles)
    assert len({tuple(s) for s in starts.values()}) == 3


@pytest.mark.parametrize("datapath,message", [
    ({"calls": "overlap", "lookahead": 0}, "datapath.lookahead: 0 is not a whole number of steps of at least 1"),
    ({"calls": "overlap", "lookahead": True}, "datapath.lookahead: True is not"),
    ({"calls": "steps", "lookahead": 2}, "datapath.lookahead: needs calls overlap"),
])
def test_a_lookahead_the_engine_cannot_use_is_refused(datapath, message):
    with pytest.raises(Exception, match=message):
        _with("ate-bn-tiny", **datapath).datapath()


def _tiny_batch(interleave: bool):
    """ate-bn254-fast-local's datapath (calls overlap, eight adders) on bn-tiny, a batch of two."""
    data = designs.get("ate-bn254-fast-local").data
    data = {**data, "curve": "bn-tiny", "batch": 2, "name": "bn-tiny-b2" + ("-interleave" if interleave else ""),
            "datapath": {**data["datapath"], **({"interleave": True} if interleave else {})}}
    return designs.from_data(data)


def test_interleave_takes_turns_between_the_pairings_of_a_batch():
    """Two pairings traced one after another (the second's first step shares the first's last step
    index, as a batch's trace does; a constant the lowering made sits before its reader): the
    reordered ops take the pairings' steps in turn, each pairing's ops in their order, the constant
    with its reader, the steps numbered anew; an op reading both pairings is refused."""
    from pairhw.program.calls import interleave
    from pairhw.program.lower import LOp
    from pairhw.program.schedule import ScheduleError

    def op(dst, kind, *srcs):
        return LOp(dst, kind, tuple((s, 0) for s in srcs), 1, None)

    inputs = ("a_b0", "b_b0", "a_b1", "b_b1")
    ops = [op("p0", "mul", "a_b0", "b_b0"), LOp("kc", "const", (), 1, 3), op("q0", "add", "p0", "kc"),
           op("r0", "mul", "q0", "q0"), op("p1", "mul", "a_b1", "b_b1"), op("q1", "add", "p1", "kc"),
           op("r1", "mul", "q1", "q1")]
    steps = [0, 1, 1, 2, 2, 3, 4]
    got, new = interleave(ops, steps, inputs, 2)
    assert [o.dst for o in got] == ["p0", "p1", "kc", "q0", "q1", "r0", "r1"]
    assert new == [0, 1, 2, 2, 3, 4, 5]
    with pytest.raises(ScheduleError, match="reads values of pairings \\[0, 1\\]"):
        interleave(ops + [op("x", "add", "r0", "r1")], steps + [4], inputs, 2)


def test_an_interleaved_batch_computes_its_pairings_in_fewer_cycles():
    """A batch of two on bn-tiny with ``"interleave": true``: fewer cycles a run than the pairings one
    after the other on the same datapath (each step's multiplier latency filled by the other
    pairing's step), and the microcode (``Microcode.run``, the RTL's contract) computes both
    pairings of three runs."""
    plain, d = _tiny_batch(False), _tiny_batch(True)
    cp = d.compile()
    assert cp.cycles < plain.compile().cycles
    fi = d.field
    for i in range(3):
        Ps, Qs = fi.vector_points(d.curve(), 5, i)
        assert cp.run(fi.point_values(Ps, Qs)) == (list(d.model(Ps, Qs)), cp.cycles)


@pytest.mark.slow
def test_an_interleaved_batch_is_bit_exact_in_verilator():
    """The interleaved batch of two on bn-tiny in Verilator: 4 pairings (2 runs) bit-exact in
    constant cycles."""
    from pairhw.flow import pairings, simulate

    d = _tiny_batch(True)
    res = simulate(d, rows=pairings(d, 4, seed=3))
    assert (res.verified, res.failed, res.timeout) == (2, 0, False)
    assert {p["cycles"] for p in res.runs} == {d.compile().cycles}
    assert res.constant_time


def test_a_design_file_with_an_interleaved_batch_loads(tmp_path):
    """A design file's schema check builds its datapath for the batch's pairings, so ``interleave``
    with ``batch`` 2 passes it (and the same file without the batch is refused, naming the key)."""
    import json

    from pairhw.designs import DesignError, load

    data = _tiny_batch(True).data
    path = tmp_path / "b2.json"
    path.write_text(json.dumps(data))
    assert load(str(path)).compile().cycles == _tiny_batch(True).compile().cycles
    path.write_text(json.dumps({k: v for k, v in data.items() if k != "batch"}))
    with pytest.raises(DesignError, match="datapath.interleave: needs a batch"):
        load(str(path))


def test_copies_allocation_keeps_the_ports_copies_shallower_and_the_pairing():
    """``"allocate": "copies"`` on ate-bn254-fast-add3's datapath over the 110-bit BN curve: the same
    schedule (each op at the same cycle on the same unit), the model's pairing in the same constant
    cycles, and LUT RAM copies (each holds the registers its port reads and a word of zeros) that
    take fewer 32-word RAM32M blocks, far fewer of them deeper than one, than the lowest free
    register gives."""
    got = {}
    for alloc in ("first", "copies"):
        data = {**designs.get("ate-bn254-fast-add3").data, "curve": "bn-chavez11-toy", "name": f"toy-{alloc}"}
        data["datapath"] = {**data["datapath"], "allocate": alloc}
        d = designs.from_data(data)
        got[alloc] = d, d.compile()
    (first, a), (d, b) = got["first"], got["copies"]
    assert (b.pre.start, b.pre.inst, b.cycles) == (a.pre.start, a.pre.inst, a.cycles)
    fi = d.field
    for P, Q in _pairs(d, 2, seed=19):
        assert b.run(fi.point_values(P, Q)) == (list(d.model(P, Q)), b.cycles)
    deep, blocks = {}, {}
    for alloc, (_, cp) in got.items():
        depths = cp.microcode.copy_depths()
        deep[alloc], blocks[alloc] = sum(n > 32 for n in depths), sum(-(-n // 32) for n in depths)
        assert cp.report()["interconnect"]["copies"] == {"count": len(depths), "over_32": deep[alloc],
                                                         "over_64": sum(n > 64 for n in depths)}
    assert blocks["copies"] < blocks["first"] and 3 * deep["copies"] < 2 * deep["first"]


def test_a_later_far_bound_keeps_the_schedule_and_the_pairing_with_shallower_copies():
    """``"near_steps"``: on ate-bn254-fast-add3's datapath over the 110-bit BN curve, with allocate
    copies, values read up to 8 steps on share the steps' registers (2 by default): the same schedule,
    the model's pairing in the same constant cycles, and fewer LUT RAM copies over 32 words."""
    got = {}
    for near in (None, 8):
        data = {**designs.get("ate-bn254-fast-add3").data, "curve": "bn-chavez11-toy", "name": f"toy-near-{near}"}
        data["datapath"] = {**data["datapath"], **({"near_steps": near} if near else {})}
        d = designs.from_data(data)
        got[near] = d, d.compile()
    (_, a), (d, b) = got[None], got[8]
    assert d.datapath().near_steps == 8 and (b.pre.start, b.pre.inst, b.cycles) == (a.pre.start, a.pre.inst, a.cycles)
    fi = d.field
    for P, Q in _pairs(d, 2, seed=23):
        assert b.run(fi.point_values(P, Q)) == (list(d.model(P, Q)), b.cycles)
    deep = {n: sum(x > 32 for x in cp.microcode.copy_depths()) for n, (_, cp) in got.items()}
    assert deep[8] < deep[None]


def test_kept_copies_keep_the_traced_pairing():
    """``"kept_copies"`` (ate-bls12-381-fast-dsp): the traced program copies the powers the hard part
    keeps (A twice, B, C and f: 5 × 12 coefficients) before their late reads, and computes the
    model's pairing; a BN curve's final exponentiation has none, and a design asking is refused."""
    from pairhw.program.engine import native_ops
    from pairhw.program.trace import trace_pairing

    d = designs.get("ate-bls12-381-fast-dsp")
    dp, C, fi = d.datapath(), d.curve(), d.field
    assert dp.kept_copies
    prog = trace_pairing(dp.F, C, fi.algorithm(d.algorithm), native=native_ops(dp), copies=True,
                         inverse_window=dp.inverse_window, kept_copies=True)
    plain = trace_pairing(dp.F, C, fi.algorithm(d.algorithm), native=native_ops(dp), copies=True,
                          inverse_window=dp.inverse_window)
    assert sum(op.kind == "addc" for op in prog.ops) == sum(op.kind == "addc" for op in plain.ops) + 60
    P, Q = fi.vector_points(C, 31, 0)
    assert prog.run(dict(zip(prog.inputs, fi.point_values(P, Q)))) == list(d.model(P, Q))


def test_an_overlapped_inverse_keeps_the_traced_pairing():
    """``"inverse_window": 16`` (ate-bls12-381-fast-overlap): the traced program, the hard part's
    first 16 squarings done before the division by the inverse, computes the model's pairing."""
    from pairhw.program.engine import native_ops
    from pairhw.program.trace import trace_pairing

    d = designs.get("ate-bls12-381-fast-overlap")
    dp, C, fi = d.datapath(), d.curve(), d.field
    assert dp.inverse_window == 16
    prog = trace_pairing(dp.F, C, fi.algorithm(d.algorithm), native=native_ops(dp), copies=True,
                         inverse_window=16)
    plain = trace_pairing(dp.F, C, fi.algorithm(d.algorithm), native=native_ops(dp), copies=True)
    assert sum(op.kind == "mul" for op in prog.ops) > sum(op.kind == "mul" for op in plain.ops)
    P, Q = fi.vector_points(C, 29, 0)
    assert prog.run(dict(zip(prog.inputs, fi.point_values(P, Q)))) == list(d.model(P, Q))


@pytest.mark.slow
def test_an_overlapped_inverse_fills_the_inverters_wait():
    """The same datapath waiting for its one-step-a-cycle inverter takes more cycles: the window's
    products run while the inverter does."""
    d = designs.get("ate-bls12-381-fast-overlap")
    assert d.compile().cycles < _with("ate-bls12-381-fast-overlap", inverse_window=0).compile().cycles
