"""Batches (issue 53): a design's ``"batch": k`` schedules k independent pairings (or products, or
checks) as one program on one datapath.  Each pairing of a run equals the model's, the run takes the
same cycles on every input, and the batch costs fewer cycles per pairing than one pairing alone."""

import json

import pytest

from pairhw import designs
from pairhw.program.field import Batched


def batched(name: str, k: int = 2):
    """Built-in design ``name`` with ``"batch": k``."""
    data = json.loads(json.dumps(designs.get(name).data))
    return designs.from_data({**data, "name": f"{name}-b{k}", "batch": k})


def test_a_batch_streams_each_pairing_in_turn():
    """The batch's inputs are the single design's, pairing by pairing; its points are k-tuples, and
    run i holds the single design's vectors i·k … i·k + k − 1 (the lines of ``pairhw vectors``)."""
    d, one = designs.get("ate-bn-tiny-b2"), designs.get("ate-bn-tiny")
    fi, fi1, C = d.field, one.field, d.curve()
    assert isinstance(fi, Batched) and fi.batch == 2 and fi.unbatched.pairing_inputs == fi1.pairing_inputs
    assert fi.pairing_inputs == tuple(f"{x}_b{j}" for j in range(2) for x in fi1.pairing_inputs)
    Ps, Qs = fi.vector_points(C, 3, 1)
    assert (Ps[0], Qs[0]) == fi1.vector_points(C, 3, 2) and (Ps[1], Qs[1]) == fi1.vector_points(C, 3, 3)
    values = fi.point_values(Ps, Qs)
    assert values == [*fi1.point_values(Ps[0], Qs[0]), *fi1.point_values(Ps[1], Qs[1])]
    assert fi.points(values) == (Ps, Qs)
    assert d.model(Ps, Qs) == [*one.model(Ps[0], Qs[0]), *one.model(Ps[1], Qs[1])]


def test_a_batch_of_two_pairings_is_each_pairing_in_fewer_cycles():
    """ate-bn-tiny-b2: the microcode (the core's bit- and cycle-exact model) gives both pairings'
    values, in the same cycles on every input, fewer per pairing than ate-bn-tiny's alone and within
    1 % of the multiplier bound; the report puts the two side by side."""
    d, one = designs.get("ate-bn-tiny-b2"), designs.get("ate-bn-tiny")
    fi, C, cp = d.field, d.curve(), d.compile()
    for i in range(3):
        Ps, Qs = fi.vector_points(C, 11, i)
        out, cycles = cp.run(fi.point_values(Ps, Qs))
        assert out == [c for P, Q in zip(Ps, Qs) for c in one.model(P, Q)] and cycles == cp.cycles
    rep = d.report()
    assert rep["batch"] == {"k": 2, "cycles_per_pairing": cp.cycles / 2, "single_pairing_cycles": one.compile().cycles}
    assert cp.cycles < 2 * one.compile().cycles and cp.cycles <= 1.01 * rep["multiplier_bound"]
    assert cp.stream.n_out == 24 and len(cp.microcode.inputs) == 12


@pytest.mark.parametrize("name", ["f2-47-etat-banked", "f3-19-etat-schoolbook"])
def test_binary_and_ternary_designs_batch_too(name):
    """The batch wraps any family's interface: two ηT pairings on a binary and a ternary datapath
    (each pairing's Miller loop is found on its own, not the two pairings as one loop) equal the model
    and take fewer cycles than two runs."""
    d, one = batched(name), designs.get(name)
    fi, C, cp = d.field, d.curve(), d.compile()
    for i in range(2):
        Ps, Qs = fi.vector_points(C, 5, i)
        out, cycles = cp.run(fi.point_values(Ps, Qs))
        assert out == one.model(Ps[0], Qs[0]) + one.model(Ps[1], Qs[1]) and cycles == cp.cycles
    assert cp.cycles < 2 * one.compile().cycles and cp.flow.trips == one.compile().flow.trips


def test_a_batch_of_checks_answers_each_check():
    """ate-bn-tiny-check2 with batch 2: one output element per check, 1 where that check's product is
    1; a run of a passing and a failing check gives [1, 0], and swapped [0, 1]."""
    d, one = batched("ate-bn-tiny-check2"), designs.get("ate-bn-tiny-check2")
    fi, C, cp = d.field, d.curve(), d.compile()
    assert cp.stream.n_out == 2 and cp.check == one.compile().check
    Ps, Qs = fi.vector_points(C, 9, 0)  # product vectors 0 (passes) and 1 (independent pairs)
    assert cp.run(fi.point_values(Ps, Qs)) == ([1, 0], cp.cycles) == (d.model(Ps, Qs), cp.cycles)
    swapped = fi.point_values(Ps[::-1], Qs[::-1])
    assert cp.run(swapped) == ([0, 1], cp.cycles)


@pytest.mark.parametrize("change,msg", [
    ({"batch": 0}, "batch: must be at least 1"),
    ({"batch": 17}, "batch: must be at most 16"),
    ({"batch": True}, "batch: expected an integer"),
])
def test_a_bad_batch_key_is_refused(capsys, tmp_path, change, msg):
    from pairhw import cli

    data = {**designs.get("ate-bn-tiny").data, **change}
    f = tmp_path / "d.json"
    f.write_text(json.dumps(data))
    code = cli.main(["-q", "schedule", str(f)])
    out, err = capsys.readouterr()
    assert code == 2 and msg in err and out == "" and "Traceback" not in err


def test_a_batch_on_the_word_serial_processor_is_refused(capsys, tmp_path):
    from pairhw import cli

    f = tmp_path / "d.json"
    f.write_text(json.dumps({**designs.get("asip-79-lsd5").data, "batch": 2}))
    code = cli.main(["-q", "schedule", str(f)])
    out, err = capsys.readouterr()
    assert code == 2 and "batch: a batch of pairings is scheduled on the engine's datapath" in err and out == ""


@pytest.mark.slow
def test_a_batch_of_two_bls12_381_pairings_is_within_2_percent_of_the_multiplier_bound():
    """Issue 53's batch criterion: two interleaved pairings on ate-bls12-381-fast's datapath take at
    most 1.02 × the multiplier bound (one pairing alone: 1.096 ×), each pairing equal to the model."""
    d, one = designs.get("ate-bls12-381-fast-b2"), designs.get("ate-bls12-381-fast")
    fi, C, cp = d.field, d.curve(), d.compile()
    rep = d.report()
    assert cp.cycles <= 1.02 * rep["multiplier_bound"] and cp.cycles / 2 < one.compile().cycles
    Ps, Qs = fi.vector_points(C, 2, 0)
    out, cycles = cp.run(fi.point_values(Ps, Qs))
    assert out == d.model(Ps, Qs) and cycles == cp.cycles


def _sim(capsys, *argv):
    from pairhw import cli

    code = cli.main(["-q", "sim", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_sim_reads_a_vectors_file_k_lines_a_run(capsys, tmp_path):
    """`pairhw sim ate-bn-tiny-b2 --vectors FILE`: four lines of `pairhw vectors` are two runs of two
    pairings, bit-exact in Verilator (the bench of the default core test, cached); three lines, or
    -n 3, are refused in one line, exit 2, before anything is built."""
    from pairhw import vectors

    recs = list(vectors.records("bn-tiny", 4, 4, 1))
    f = tmp_path / "v.jsonl"
    f.write_text("".join(json.dumps(r) + "\n" for r in recs))
    code, out, err = _sim(capsys, "ate-bn-tiny-b2", "--vectors", str(f), "--json")
    res = json.loads(out)
    assert code == 0 and (res["pairings"], res["runs"], res["batch"], res["verified"], res["failed"]) == (4, 2, 2, 2, 0)
    assert res["cycles"] == designs.get("ate-bn-tiny-b2").compile().cycles and res["constant_time"]
    f.write_text("".join(json.dumps(r) + "\n" for r in recs[:3]))
    code, out, err = _sim(capsys, "ate-bn-tiny-b2", "--vectors", str(f))
    assert code == 2 and out == "" and "has 3 vectors, not a multiple of 2" in err and "Traceback" not in err
    code, out, err = _sim(capsys, "ate-bn-tiny-b2", "-n", "3")
    assert code == 2 and out == "" and "give a multiple of 2 pairings, not 3" in err


@pytest.mark.slow
def test_a_batch_of_checks_core_answers_each_check_in_verilator():
    """A core of two checks of two pairs (ate-bn-tiny-check2 with batch 2): Verilator gives [1, 0]
    on each run of a passing and a failing product vector, [0, 1] swapped, in constant cycles."""
    from pairhw.flow import pairings, simulate

    d = batched("ate-bn-tiny-check2")
    fi, C = d.field, d.curve()
    rows = pairings(d, 4, seed=9)
    Ps, Qs = fi.vector_points(C, 9, 0)
    rows.append((*fi.point_values(Ps[::-1], Qs[::-1]), 0, 1))
    assert [r[-2:] for r in rows] == [(1, 0), (1, 0), (0, 1)]
    res = simulate(d, rows=rows)
    assert (res.verified, res.failed, res.timeout) == (3, 0, False) and res.constant_time


def test_build_refuses_a_count_that_is_not_whole_runs(capsys, tmp_path):
    """`pairhw build ate-bn-tiny-b2 -n 3`: one line, exit 2, nothing written."""
    from pairhw import cli

    out_dir = tmp_path / "b"
    code = cli.main(["-q", "build", "ate-bn-tiny-b2", "-n", "3", "-o", str(out_dir)])
    out, err = capsys.readouterr()
    assert code == 2 and "give a multiple of 2 pairings, not 3" in err and out == ""
    assert not out_dir.exists() or not any(out_dir.iterdir())
