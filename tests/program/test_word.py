"""The microcode word layout: packing is the inverse of unpacking, and both back ends' ROM words are
their layouts' packing of their field values."""

import random

import pytest

from pairhw import flow
from pairhw.program.word import Key, WordLayout


def test_pack_and_unpack_are_inverse_over_random_words():
    layout = WordLayout([("mul0.go", 1), ("mul0.a", 5), ("mul0.a_bank", 2), ("mul0.we", 1), ("wait", 16)])
    assert layout.width == 25
    assert layout.offsets() == {"mul0.go": (0, 1), "mul0.a": (1, 5), "mul0.a_bank": (6, 2), "mul0.we": (8, 1),
                                "wait": (9, 16)}
    rng = random.Random(50)
    for _ in range(200):
        word = rng.getrandbits(layout.width)
        assert layout.pack(layout.unpack(word)) == word
    assert layout.pack({}) == 0 and layout.unpack(0) == {}
    assert layout.pack({"wait": (1 << 16) - 1}) == ((1 << 16) - 1) << 9


def test_a_value_that_does_not_fit_its_field_is_a_bug():
    layout = WordLayout([("a", 3), ("b", 1)])
    with pytest.raises(AssertionError, match="field a overflows"):
        layout.pack({"a": 8})
    with pytest.raises(AssertionError, match="field b overflows"):
        layout.pack({"b": -1})
    with pytest.raises(ValueError, match="twice"):
        WordLayout([("a", 1), ("a", 2)])


def test_replace_and_append_move_the_later_fields():
    layout = WordLayout([("c0.sel", 8), ("c0.we", 1)])
    narrowed = layout.replace("c0.sel", 2).append(Key.WAIT, 4)
    assert list(narrowed) == [("c0.sel", 2), ("c0.we", 1), ("wait", 4)]
    assert narrowed["c0.we"].offset == 2 and narrowed["wait"].offset == 3
    assert list(layout) == [("c0.sel", 8), ("c0.we", 1)]  # layouts are values


def test_field_names_come_from_one_place():
    assert Key.read("mul0", 1) == "mul0.b" and Key.bank(Key.read("mul0", 1)) == "mul0.b_bank"
    assert Key.w_bank("add1") == "add1.w_bank" and Key.shared_read("r", 2) == "r.rd2"
    assert Key.instance(Key.sel("c0")) == "c0" and Key.is_sel(Key.sel("c0"))


@pytest.mark.parametrize("name", ["f2-47-etat-banked", "ate-bn-tiny", "asip-79-k10"])
def test_rom_words_are_the_layouts_packing(name):
    compiled = flow.compile(flow.design(name))
    if hasattr(compiled, "microcode"):
        mc = compiled.microcode
        assert mc.fields == list(mc.layout) and mc.width == mc.layout.width
        packed = mc.packed()
        assert [mc.layout.unpack(w) for w in packed] == [{k: v for k, v in wd.items() if v} for wd in mc.words]
    else:  # the word-serial ASIP's instruction ROM
        layout = compiled.fields()
        assert [layout.unpack(w) for w in compiled.rom_words()] == \
            [{k: v for k, v in vals.items() if v} for vals in compiled.encoded()]
