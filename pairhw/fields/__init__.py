"""The field interfaces (:class:`pairhw.program.field.BaseField`) of the three families.

:func:`of` gives the interface of a model field, :func:`for_params` that of a parameter set.
Each family's interface names its op kinds, unit kinds and encodings, takes each op's value from
the golden model, traces the model's pairings, and builds its units: ``binary`` (F_2^m, every unit),
``ternary`` (F_3^m: adder/subtractor, cubing and cube-root networks, schoolbook multiplier) and
``prime`` (F_p: the ops and encodings; its units come with the prime-field multipliers).
"""

from __future__ import annotations

from functools import lru_cache


def of(F):
    """The field interface of a golden-model field (GF2m, GF3m or PrimeField); an interface is
    returned as it is."""
    from pairhw.program.field import BaseField, Batched

    if isinstance(F, (BaseField, Batched)):
        return F
    from pairhw.math.binary.field import GF2m
    from pairhw.math.prime.field import PrimeField
    from pairhw.math.ternary.field import GF3m

    if isinstance(F, GF2m):
        from .binary import BinaryField

        return BinaryField(F)
    if isinstance(F, GF3m):
        from .ternary import TernaryField

        return TernaryField(F)
    if isinstance(F, PrimeField):
        from .prime import PrimeFieldInterface

        return PrimeFieldInterface(F)
    raise TypeError(f"no field interface for {type(F).__name__}")


@lru_cache(maxsize=None)
def for_params(name: str):
    """The field interface of a parameter set's base field."""
    from pairhw import params

    return of(params.curve(name).F)
