"""Amaranth hardware generated from the golden model (see :mod:`pairhw.rtl.units`)."""
