"""Seats named by role: the one vocabulary of every rule that names a seat.

A rule that says who leads, who takes the kitty or who may not pass names a seat
by its role at the table — the dealer, the declarer, the declarer's partner, the
player left of one of them.  :class:`SeatRef` is that name as a value: a seat the
hand already knows (its ``anchor``) and how many seats to its left (``step``).
:func:`resolve` turns one into a seat number once the hand knows the dealer and
the declarer.  The compiler lowers the words of variant files (:data:`WORDS`) to
these values; the rule modules (tricks.py, kitty.py, auction.py) resolve them.
"""

from __future__ import annotations

from dataclasses import dataclass

# The seats a reference may count from.
ANCHORS = ("dealer", "declarer")


@dataclass(frozen=True, slots=True)
class SeatRef:
    """A seat named by role: ``step`` seats to the left of the ``anchor`` seat (``dealer`` or ``declarer``).

    ``across`` adds half the table: a partner sits opposite (``players // 2`` seats on),
    whatever the number of players.  ``SeatRef("declarer")`` is the declarer itself;
    ``SeatRef("dealer", 1)`` the player on the dealer's left; ``SeatRef("declarer",
    across=True)`` the declarer's partner.
    """

    anchor: str
    step: int = 0
    across: bool = False

    def to_json(self) -> dict:
        """The JSON form: ``{"anchor": ..., "step": ..., "across": ...}``."""
        return {"anchor": self.anchor, "step": self.step, "across": self.across}

    @classmethod
    def from_json(cls, data) -> "SeatRef":
        """The SeatRef of :meth:`to_json`'s form (or of a word of :data:`WORDS`); ValueError otherwise."""
        if isinstance(data, str):
            if data not in WORDS:
                raise ValueError(f"not a seat: {data!r}")
            return WORDS[data]
        if not isinstance(data, dict) or data.get("anchor") not in ANCHORS:
            raise ValueError(f"not a seat: {data!r}")
        step, across = data.get("step", 0), data.get("across", False)
        if not isinstance(step, int) or isinstance(step, bool) or not isinstance(across, bool):
            raise ValueError(f"not a seat: {data!r}")
        return cls(data["anchor"], step, across)

    @property
    def needs_declarer(self) -> bool:
        """Whether the seat is known only once the auction has a declarer."""
        return self.anchor == "declarer"


def resolve(ref: SeatRef, dealer: int, declarer: int, players: int) -> int:
    """The seat number ``ref`` names at a table of ``players`` where ``dealer`` deals and ``declarer`` declares.

    ValueError for a declarer-anchored seat while there is no declarer (``declarer`` < 0).
    """
    if ref.anchor == "dealer":
        base = dealer
    elif declarer >= 0:
        base = declarer
    else:
        raise ValueError(f"{describe(ref)} is not known before the auction is won")
    return (base + ref.step + (players // 2 if ref.across else 0)) % players


# The words of variant files (the schema's ``seat``), and the value each names.
# ``eldest`` is the old word for the player left of the dealer.  (The auction's
# ``first-caller`` is lowered from the auction's own first caller, not listed here.)
WORDS: dict[str, SeatRef] = {
    "dealer": SeatRef("dealer"),
    "left-of-dealer": SeatRef("dealer", 1),
    "eldest": SeatRef("dealer", 1),
    "right-of-dealer": SeatRef("dealer", -1),
    "partner-of-dealer": SeatRef("dealer", across=True),
    "declarer": SeatRef("declarer"),
    "left-of-declarer": SeatRef("declarer", 1),
    "right-of-declarer": SeatRef("declarer", -1),
    "partner": SeatRef("declarer", across=True),
}

_ANCHOR_WORDS = {"dealer": "the dealer", "declarer": "the declarer"}


def describe(ref: SeatRef) -> str:
    """The seat in words: ``the declarer``, ``the player left of the dealer``, ``the declarer's partner``."""
    who = _ANCHOR_WORDS.get(ref.anchor, ref.anchor)
    if ref.across and ref.step == 0:
        return f"{who}'s partner"
    if ref.step == 0 and not ref.across:
        return who
    side = "left" if ref.step > 0 else "right"
    count = abs(ref.step)
    place = f"{count} seats to the {side} of" if count > 1 else f"{side} of"
    if ref.across:
        return f"the player {place} {who}'s partner"
    return f"the player {place} {who}"
