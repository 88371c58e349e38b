"""Pairings as programs of base-field operations (traced from the golden model)."""
