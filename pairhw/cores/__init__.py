"""The pairing cores around the units: the microcoded core of the engine's programs (``core``), Nagl et
al.'s word-serial ASIP (``asip``) and the bus wrappers of either (``wrap``)."""
