"""A microcode word's layout: named fields packed least significant first, and the field names.

Both back ends (the scheduled :class:`~pairhw.program.microcode.Microcode` and the word-serial
ASIP's instruction ROM) describe their words with one :class:`WordLayout`; the names of the
scheduled microcode's fields are made only by :class:`Key`, so the assembler, the model
(:meth:`Microcode.run`) and the core (:class:`pairhw.cores.core.PairingCore`) cannot disagree on
them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

#: the names of a unit's input ports, in port order (an add3 unit has three; c is every unit's result)
PORT_NAMES = "abd"


@dataclass(frozen=True)
class Field:
    """One field of a word: ``width`` bits from bit ``offset``."""

    name: str
    width: int
    offset: int

    def get(self, word: int) -> int:
        """This field's value in a packed word."""
        return (word >> self.offset) & ((1 << self.width) - 1)


class WordLayout:
    """Fields packed in order, the first at bit 0.

    Parameters
    ----------
    fields : iterable of (str, int)
        (name, width) of each field, least significant first; names are unique.
    """

    def __init__(self, fields: Iterable[tuple[str, int]]):
        out, at = [], 0
        for name, width in fields:
            out.append(Field(name, width, at))
            at += width
        self.fields: tuple[Field, ...] = tuple(out)
        self._by_name = {f.name: f for f in self.fields}
        if len(self._by_name) != len(self.fields):
            raise ValueError("a word layout names a field twice")

    @property
    def width(self) -> int:
        """Bits of a word."""
        return sum(f.width for f in self.fields)

    def __iter__(self) -> Iterator[tuple[str, int]]:
        """(name, width) of each field, least significant first (as the layout was given)."""
        return iter([(f.name, f.width) for f in self.fields])

    def __len__(self) -> int:
        return len(self.fields)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __getitem__(self, name: str) -> Field:
        return self._by_name[name]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WordLayout) and self.fields == other.fields

    def __hash__(self) -> int:
        return hash(self.fields)

    def __repr__(self) -> str:
        return f"WordLayout({list(self)!r})"

    def offsets(self) -> dict[str, tuple[int, int]]:
        """name -> (offset, width)."""
        return {f.name: (f.offset, f.width) for f in self.fields}

    def replace(self, name: str, width: int) -> WordLayout:
        """This layout with field ``name`` ``width`` bits wide (the later fields move)."""
        return WordLayout((n, width if n == name else w) for n, w in self)

    def append(self, name: str, width: int) -> WordLayout:
        """This layout with one more field, the most significant."""
        return WordLayout([*self, (name, width)])

    def pack(self, values: Mapping[str, int]) -> int:
        """The word holding ``values`` (a field not given is 0).

        Raises
        ------
        AssertionError
            When a value does not fit its field (the assembler sized the fields; this is a bug).
        """
        word = 0
        for name, v in values.items():
            f = self._by_name[name]
            if not 0 <= v < (1 << f.width):
                raise AssertionError(f"word field {name} overflows: {v} in {f.width} bits")
            word |= v << f.offset
        return word

    def unpack(self, word: int) -> dict[str, int]:
        """The non-zero fields of a packed word (the inverse of :meth:`pack`)."""
        return {f.name: v for f in self.fields if (v := f.get(word))}


def _per_instance(suffix: str, what: str):
    """A :class:`Key` maker of instance ``p``'s field ``p.suffix``."""
    def key(p: str) -> str:
        return f"{p}.{suffix}"
    key.__doc__ = what
    return staticmethod(key)


class Key:
    """The names of the scheduled microcode's fields (the module docstring of
    :mod:`pairhw.program.microcode` says what each does).  ``p`` is a unit instance's name."""

    WAIT = "wait"
    go = _per_instance("go", "Start the unit's op (started units).")
    sel = _per_instance("sel", "The constant table's index.")
    power = _per_instance("k", "Which of a power unit's ``ks``.")
    op = _per_instance("op", "Which of the unit's op kinds.")
    we = _per_instance("we", "Write the unit's output this cycle.")
    w = _per_instance("w", "The register the output is written to.")

    @staticmethod
    def read(p: str, port: int) -> str:
        """The register address of input ``port`` of instance ``p``."""
        return f"{p}.{PORT_NAMES[port]}"

    @staticmethod
    def fwd(p: str, port: int) -> str:
        """Which unit output input ``port`` of instance ``p`` takes instead of its register (0: none)."""
        return f"{p}.{PORT_NAMES[port]}_fwd"

    @staticmethod
    def shared_read(bank: str, k: int) -> str:
        """The address of a bank's shared read port ``k``."""
        return f"{bank}.rd{k}"

    @staticmethod
    def bank(key: str) -> str:
        """The bank select beside a read or write address field ``key``."""
        return f"{key}_bank"

    @staticmethod
    def w_bank(p: str) -> str:
        """The bank the output is written to (units writing several)."""
        return Key.bank(Key.w(p))

    @staticmethod
    def is_sel(name: str) -> bool:
        return name.endswith(".sel")

    @staticmethod
    def instance(name: str) -> str:
        """The instance a field belongs to (``mul0.a`` -> ``mul0``)."""
        return name.rpartition(".")[0]
