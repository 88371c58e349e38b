"""The word-serial back end over F_2^m: Nagl et al.'s ASIP (seed 003), a compiler of its own beside
the scheduled engine (:mod:`pairhw.program`), sharing its tracer, lowering and loop folding.

:mod:`pairhw.asip.program` compiles a pairing into the ASIP's instruction list; its core is
:class:`pairhw.cores.asip.AsipCore`.
"""
