"""Characteristic two: F_2^m (``field``), the F_{2^4m} tower (``tower``), supersingular curves
y² + y = x³ + x + b (``curve``), ηT and Tate pairings (``pairing``) and the multiplication
algorithms of the hardware catalogue (``mulalg``)."""
