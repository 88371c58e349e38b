"""Characteristic three: F_3^m (``field``), the F_{3^6m} tower (``tower``), supersingular curves
y² = x³ − x + b (``curve``) and seed 004's ηT pairing (``pairing``)."""
