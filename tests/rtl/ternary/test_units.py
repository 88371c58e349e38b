"""The F_3^m units, simulated in the Amaranth simulator on hardware words (the two-bit trit
encoding of the field interface), equal the golden model trit for trit."""

import random

import pytest

from pairhw import params
from pairhw.fields.ternary import TernaryField
from pairhw.rtl.ternary.adder import OPS, AddSub3
from pairhw.rtl.ternary.catalogue import KindError, make_unit, ternary_field
from pairhw.rtl.ternary.powers import PowerUnit3
from pairhw.sim.amsim import simulate_comb, simulate_mul


def _small(m):
    """The least irreducible trinomial x^m + c_k·x^k + c_0 (tiny and odd sizes; no parameter set has
    these m, so the catalogue's search is the whole answer)."""
    return ternary_field(m)


FIELDS = {"m5": lambda: _small(5), "m7": lambda: _small(7), "f3-19": lambda: params.curve("f3-19").F,
          "f3-97": lambda: params.curve("f3-97").F}


def _edge(F):
    """0, 1, all ones, all twos, the top trit alone, alternating trits."""
    m = F.m
    return [F.ZERO, F.ONE, F.from_list([1] * m), F.from_list([2] * m), F.from_list([0] * (m - 1) + [1]),
            F.from_list([2] * (m - 1) + [1]), F.from_list([(i % 3) for i in range(m)])]


def _operands(F, n=12, seed=3):
    rng = random.Random(seed)
    e = _edge(F)
    return [(a, b) for a in e for b in e[:3]] + [(F.random(rng), F.random(rng)) for _ in range(n)]


def test_encoding_round_trip_and_layout():
    """word = L | H << m: bit i of L for trit 1, bit i of H for trit 2; 11 is not a trit."""
    F = FIELDS["f3-19"]()
    fi = TernaryField(F)
    assert fi.width == 38
    x = F.from_list([1, 2] + [0] * 17)
    assert fi.encode(x) == 0b01 | (0b10 << 19)
    rng = random.Random(1)
    for _ in range(50):
        v = F.random(rng)
        assert fi.decode(fi.encode(v)) == v
        assert fi.encode(v) & (fi.encode(v) >> 19) == 0


@pytest.mark.parametrize("name", list(FIELDS))
def test_adder_adds_subtracts_and_negates(name):
    F = FIELDS[name]()
    fi = TernaryField(F)
    unit = AddSub3(F)
    pairs = _operands(F)
    cases = [{"a": fi.encode(a), "b": fi.encode(b), "op": op} for a, b in pairs for op in range(3)]
    got = [fi.decode(w) for w in simulate_comb(unit, cases)]
    want = [fi.apply(OPS[op], [a, b][:fi.arity(OPS[op])]) for a, b in pairs for op in range(3)]
    assert got == want
    assert OPS == fi.unit_kinds["add"].ops  # the unit's op select follows the interface's order


@pytest.mark.parametrize("name,copies", [("m5", 5), ("m7", 3), ("f3-19", 2)])
def test_copies_of_the_adders_op_each_decide_their_own_trits(name, copies):
    """``copied``: op is ``copies`` ops side by side (the core's ``slice_controls``), copy j deciding
    the trits of ``copy_ranges`` j: the same value as one op where all copies agree, and where
    they differ each range is its own op's result."""
    from pairhw.rtl.select import copy_ranges

    F = FIELDS[name]()
    fi = TernaryField(F)
    unit = AddSub3(F).copied(copies)
    ranges = copy_ranges(F.m, copies)
    rng = random.Random(17 + copies)
    pairs = _operands(F, n=6)
    mixes = [[op] * copies for op in range(3)] + [[rng.randrange(3) for _ in range(copies)] for _ in range(4)]
    cases = [{"a": fi.encode(a), "b": fi.encode(b), "op": sum(op << 2 * j for j, op in enumerate(mix))}
             for a, b in pairs for mix in mixes]
    def want(a, b, mix):
        whole = [F.to_list(F.add(a, b)), F.to_list(F.sub(a, b)), F.to_list(F.neg(a))]
        return [whole[mix[j]][i] for j, (lo, hi) in enumerate(ranges) for i in range(lo, hi)]

    assert [F.to_list(fi.decode(w)) for w in simulate_comb(unit, cases)] == \
        [want(a, b, mix) for a, b in pairs for mix in mixes]


@pytest.mark.parametrize("kind", ["cube", "cbrt"])
def test_copies_of_a_power_select_each_choose_their_own_trits(kind):
    """``copied`` power units (f3-19, three copies of the select of k = 1, 2, 4): each range of trits
    is the power its own copy selects."""
    from pairhw.rtl.select import copy_ranges

    F = FIELDS["f3-19"]()
    fi = TernaryField(F)
    unit = PowerUnit3(F, kind, (1, 2, 4)).copied(3)
    ranges = copy_ranges(F.m, 3)
    rng = random.Random(29)
    vals = [a for a, _ in _operands(F, n=4)]
    mixes = [[s] * 3 for s in range(3)] + [[rng.randrange(3) for _ in range(3)] for _ in range(4)]
    cases = [{"a": fi.encode(a), "sel": sum(s << 2 * j for j, s in enumerate(mix))} for a in vals for mix in mixes]
    fn = F.cube_k if kind == "cube" else F.cbrt_k

    def want(a, mix):
        return [F.to_list(fn(a, (1, 2, 4)[mix[j]]))[i] for j, (lo, hi) in enumerate(ranges) for i in range(lo, hi)]

    assert [F.to_list(fi.decode(w)) for w in simulate_comb(unit, cases)] == [want(a, mix) for a in vals for mix in mixes]


# f3-97's networks in the Amaranth simulator: slow (17 s each); f3-19's run by default
@pytest.mark.parametrize("name", ["m5", "m7", "f3-19", pytest.param("f3-97", marks=pytest.mark.slow)])
@pytest.mark.parametrize("kind", ["cube", "cbrt"])
def test_power_networks_from_the_model(name, kind):
    """x^(3^±k) for k = 1, 2, 4 selected per word, equal to the model's cube_k / cbrt_k."""
    F = FIELDS[name]()
    fi = TernaryField(F)
    unit = PowerUnit3(F, kind, (1, 2, 4))
    vals = [a for a, _ in _operands(F, n=8)]
    cases = [{"a": fi.encode(a), "sel": s} for a in vals for s in range(3)]
    got = [fi.decode(w) for w in simulate_comb(unit, cases)]
    fn = F.cube_k if kind == "cube" else F.cbrt_k
    assert got == [fn(a, k) for a in vals for k in (1, 2, 4)]
    assert got == [unit.emulate(a, s) for a in vals for s in range(3)]


@pytest.mark.parametrize("name", ["m7", "f3-19"])
@pytest.mark.parametrize("kind", ["cube", "cbrt"])
@pytest.mark.parametrize("stages", [1, 2, 3])
def test_staged_power_networks_equal_the_model_stages_cycles_later(name, kind, stages):
    """A power unit with ``stages`` registers along its sums (and its select delayed with them):
    back-to-back cases, each x^(3^±k) of the model ``stages`` cycles later, k chosen per case; its
    copied form keeps the stages."""
    F = FIELDS[name]()
    fi = TernaryField(F)
    unit = PowerUnit3(F, kind, (1, 2, 4), stages=stages)
    assert unit.latency == len(unit.cuts) == stages and unit.copied(2).latency == stages
    rng = random.Random(37)
    vals = [a for a, _ in _operands(F, n=6)]
    sels = [rng.randrange(3) for _ in vals]
    got = [fi.decode(w) for w in simulate_comb(unit, [{"a": fi.encode(a), "sel": s} for a, s in zip(vals, sels)])]
    fn = F.cube_k if kind == "cube" else F.cbrt_k
    assert got == [fn(a, (1, 2, 4)[s]) for a, s in zip(vals, sels)]


def test_stages_cut_f3_97s_deepest_cube_evenly():
    """F_3^97's k = 4 cube sums up to 31 trits (five adder levels) and the select among k = 1, 2, 4
    is a sixth: one stage registers after level 3, two after levels 2 and 4; out-of-range stage
    counts are refused."""
    F = FIELDS["f3-97"]()
    assert max(map(len, PowerUnit3(F, "cube", (4,)).rows[0])) == 31
    assert PowerUnit3(F, "cube", (1, 2, 4), stages=1).cuts == [3]
    assert PowerUnit3(F, "cube", (1, 2, 4), stages=2).cuts == [2, 4]
    for bad in (4, -1, True):
        with pytest.raises(ValueError, match="0 to 3"):
            PowerUnit3(F, "cube", (1, 2, 4), stages=bad)


def test_cubing_is_cheap_and_cube_root_costs_what_x13_says():
    """Cubing a trinomial field permutes trits and folds: few adders; a cube root needs more, and
    the count grows with the weight of x^(1/3) (f3-97: 8 and 19, seed 004's trinomial)."""
    F = FIELDS["f3-97"]()
    cube, cbrt = PowerUnit3(F, "cube"), PowerUnit3(F, "cbrt")
    assert cube.add_count <= 2 * F.m < cbrt.add_count < 20 * F.m
    assert F.cbrt_weights == (8, 19)


# f3-97's in the Amaranth simulator is slow (40 s); tests/cli/test_unit_ternary.py's test_unit_sim_f3_97
# runs the same unit at f3-97 (16 products) by default
@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n == "f3-97" else n for n in FIELDS])
def test_schoolbook_multiplier_bit_exact_back_to_back(name):
    F = FIELDS[name]()
    fi = TernaryField(F)
    unit = make_unit("schoolbook", F)
    pairs = _operands(F, n=20 if F.m < 50 else 8)
    run = simulate_mul(unit, [(fi.encode(a), fi.encode(b)) for a, b in pairs])
    assert [fi.decode(w) for w in run.results] == [F.mul(a, b) for a, b in pairs]
    assert run.latencies == [unit.latency] * len(pairs) and unit.initiation_interval == 1


@pytest.mark.parametrize("name", ["m7", "f3-19"])
@pytest.mark.parametrize("stages", [2, 3])
def test_a_staged_schoolbook_multiplier_is_bit_exact_stages_cycles_later(name, stages):
    """The schoolbook multiplier with ``stages`` registers (its tree of partial products cut by
    stages − 1 of them, the output register the last): products back to back and at uneven gaps,
    each the model's ``stages`` cycles after its start; 4 stages refused."""
    F = FIELDS[name]()
    fi = TernaryField(F)
    unit = make_unit("schoolbook", F, stages=stages)
    assert unit.latency == stages and len(unit.cuts) == stages - 1
    pairs = _operands(F, n=8)
    ops = [(fi.encode(a), fi.encode(b)) for a, b in pairs]
    for gaps in (None, [1 + (i * 7) % 4 for i in range(len(pairs))]):
        run = simulate_mul(unit, ops, gaps=gaps)
        assert [fi.decode(w) for w in run.results] == [F.mul(a, b) for a, b in pairs]
        assert run.latencies == [stages] * len(pairs)
    with pytest.raises(KindError, match="1 to 3 stages, not 4"):
        make_unit("schoolbook", F, stages=4)


def test_unknown_multiplier_kind_and_options_are_refused():
    F = FIELDS["m5"]()
    with pytest.raises(KindError, match="schoolbook, karatsuba, msd"):
        make_unit("tmvp", F)
    with pytest.raises(KindError, match="takes stages"):
        make_unit("schoolbook", F, digit=3)
    with pytest.raises(KindError, match="needs a digit size"):
        make_unit("msd", F)
    with pytest.raises(KindError, match="takes schedule, stages, registers"):
        make_unit("karatsuba", F, digit=2)


KARATSUBA = [  # (field, schedule, stages): every split alone, mixed, tiny and odd sizes, the real one
    ("m5", (), 1), ("m7", ("2",), 3), ("m7", ("3",), 2), ("m7", ("oe",), 4),
    ("m13", ("oe", "3"), 7), ("m13", ("3", "2"), 5), ("f3-19", ("2", "3"), 4), ("f3-19", ("3", "oe", "2"), 9),
    ("f3-97", None, 5), ("f3-97", ("3", "2", "2", "2"), 7),
]


@pytest.mark.parametrize("name,schedule,stages", KARATSUBA)
def test_karatsuba_multiplier_bit_exact_pipelined(name, schedule, stages):
    """One product per cycle, back to back, each exactly `stages` cycles after its start."""
    from pairhw.rtl.ternary.karatsuba import KaratsubaMul3

    F = _small(13) if name == "m13" else FIELDS[name]()
    fi = TernaryField(F)
    unit = KaratsubaMul3(F, schedule, stages=stages)
    pairs = _operands(F, n=16 if F.m < 50 else 6)
    run = simulate_mul(unit, [(fi.encode(a), fi.encode(b)) for a, b in pairs])
    assert [fi.decode(w) for w in run.results] == [F.mul(a, b) for a, b in pairs]
    assert run.latencies == [stages] * len(pairs) and unit.latency == stages
    assert unit.initiation_interval == 1 and len(set(run.starts[i + 1] - run.starts[i]
                                                     for i in range(len(pairs) - 1))) == 1


def test_karatsuba_counts_and_register_points():
    """Two-way Karatsuba needs 3 products a level, three-way 6; registers go where asked."""
    from pairhw.rtl.ternary.karatsuba import KaratsubaMul3, cut_points, default_schedule

    F = FIELDS["f3-97"]()
    assert default_schedule(97) == ("2", "2", "2", "2")  # 97 → 49 → 25 → 13 → 7
    u = KaratsubaMul3(F)
    assert u.base_products == 3 ** 4 and u.latency == 1 and u.registers == ()
    assert KaratsubaMul3(F, ("3",)).base_products == 6
    assert cut_points(2) == ("in", "pre0", "pre1", "base", "post1", "post0")
    v = KaratsubaMul3(F, ("2", "2"), registers=("post0", "in", "pre1"))
    assert v.registers == ("in", "pre1", "post0") and v.latency == 4
    s = KaratsubaMul3(F, ("2", "2"), stages=6)
    assert s.latency == 6 and len(s.registers) == 5
    # the default cut points balance the estimated logic depth: never two cuts with nothing between
    from pairhw.rtl.ternary.karatsuba import default_registers, segment_depths
    assert default_registers(97, ("2",) * 4, 3) == ("base", "post1")
    assert segment_depths(97, ("2",) * 4) == [1, 1, 1, 1, 1, 4, 3, 3, 3, 3, 2]


def test_karatsuba_bad_schedules_are_refused():
    F = FIELDS["m7"]()
    with pytest.raises(KindError, match="unknown split"):
        make_unit("karatsuba", F, schedule=("4",))
    with pytest.raises(KindError, match="empty part"):
        make_unit("karatsuba", F, schedule=("3", "3", "3"))
    with pytest.raises(KindError, match="unknown register cut point 'pre3'"):
        make_unit("karatsuba", F, schedule=("2",), registers=("pre3",))
    with pytest.raises(KindError, match="1 to 5 stages"):
        make_unit("karatsuba", F, schedule=("2",), stages=9)


@pytest.mark.parametrize("name,digit", [("m5", 1), ("m7", 3), ("m7", 7), ("f3-19", 4), ("f3-97", 7)])
def test_digit_serial_multiplier_bit_exact(name, digit):
    """⌈m/D⌉ cycles per product, latency ⌈m/D⌉ + 1; its emulate is Horner's rule on the digits."""
    F = FIELDS[name]()
    fi = TernaryField(F)
    unit = make_unit("msd", F, digit=digit)
    pairs = _operands(F, n=12 if F.m < 50 else 4)
    assert all(unit.emulate(a, b) == F.mul(a, b) for a, b in pairs)
    run = simulate_mul(unit, [(fi.encode(a), fi.encode(b)) for a, b in pairs])
    assert [fi.decode(w) for w in run.results] == [F.mul(a, b) for a, b in pairs]
    T = -(-F.m // digit)
    assert unit.initiation_interval == T and run.latencies == [T + 1] * len(pairs)


@pytest.mark.parametrize("name,digit", [("m7", 3), ("f3-19", 4), ("f3-19", 1)])
@pytest.mark.parametrize("stages", [2, 3])
def test_a_staged_digit_serial_multiplier_is_bit_exact_a_cycle_later(name, digit, stages):
    """The msd multiplier with its digit-product sum registered (2 stages; 3: the x^j·b array too):
    ⌈m/D⌉ cycles a product as before, latency ⌈m/D⌉ + 2, products back to back and at uneven gaps
    equal to the model's; 4 stages refused."""
    F = FIELDS[name]()
    fi = TernaryField(F)
    unit = make_unit("msd", F, digit=digit, stages=stages)
    T = -(-F.m // digit)
    assert unit.initiation_interval == T and unit.latency == T + 2
    pairs = _operands(F, n=6)
    ops = [(fi.encode(a), fi.encode(b)) for a, b in pairs]
    for gaps in (None, [T + (i * 5) % 3 for i in range(len(pairs))]):
        run = simulate_mul(unit, ops, gaps=gaps)
        assert [fi.decode(w) for w in run.results] == [F.mul(a, b) for a, b in pairs]
        assert run.latencies == [T + 2] * len(pairs)
    with pytest.raises(KindError, match="1 to 3 stages, not 4"):
        make_unit("msd", F, digit=digit, stages=4)
