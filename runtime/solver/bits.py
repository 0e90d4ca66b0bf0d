"""The cards of a bitmask one by one: the one helper every part of the solver shares.

Part of the double-dummy solver (runtime/solver/): the engine, the transposition
table and the DDS bridge all take masks of cards apart with it.
"""

from __future__ import annotations


def _bits(x: int) -> list[int]:
    """The single bits of ``x``, lowest first."""
    out = []
    while x:
        low = x & -x
        out.append(low)
        x ^= low
    return out
