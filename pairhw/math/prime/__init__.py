"""Prime fields: F_p (``field``), the F_p^12 tower (``tower``), curves y² = x³ + b (``curve``), the
optimal ate pairing on BN and BLS12 curves (``pairing``) and seed 002's polynomial Montgomery
multiplier (``polymont``)."""
