"""The game around a hand, for the bidding: what a result is worth once the game score counts.

A hand played as part of a game carries a :class:`runtime.game.GameView` (``state.game``):
the totals so far and, for any result of this hand, which side the game's own win and
lose conditions would then make the winner.  :class:`GameValues` turns that into the
value the heuristic's bidding compares, in points like its hand-by-hand values:

* a result that ends the game is worth +1 (our side wins) or -1 (it loses);
* any other is worth the score difference it leaves, ``(ours - best other) / (2 * target)``,
  kept inside (-0.9, +0.9) so that ending the game always counts for more;
* the value of a contract is the expected change of that, times ``2 * target``.

Away from the game's end this is the hand's score difference, as before; near it a
contract whose set loses the game (``seven-set-loses``, ``score <= -target``) is worth
much less, one whose success wins it (a boston under ``boston-wins``) much more, and a
side about to lose bids more boldly.  Nothing here knows a rule by name: the engine
(:mod:`runtime.game`, :mod:`runtime.scoring`) says what each result scores and does.
"""

from __future__ import annotations

from ..hand import HandState
from ..ruleset import NO_TRUMP
from .knowledge import RulesInfo

# A position that has not ended the game is worth at most this much (a win is 1).
_CLAMP = 0.9


class GameValues:
    """The game-aware expected values of one seat's contracts in one hand of a game."""

    def __init__(self, state: HandState, info: RulesInfo, seat: int):
        rules = state.rules
        self.info = info
        view = state.game
        assert view is not None  # game_values makes one only for a hand of a game
        self.view = view
        self.seat = seat
        self.side = rules.side_of[seat]
        self.dealer = state.dealer
        # Who would declare: this seat for our contracts, the opponent holding the high
        # bid (else the next opponent) for theirs.  Only their side and the tie-breaks use it.
        opponents = info.opponents[seat]
        high = state.high_seat
        self.declarers = (seat, high if high in opponents else (opponents[0] if opponents else seat))
        self.scale = 2.0 * max(1, self.view.target)
        self.totals = self.view.totals
        self.now = self._position(self.totals, None)
        self.scratch = state.clone()
        self.scratch.reneges = []
        # Rows depend on the declaring side, the bid and the strain kind only: shared by
        # every seat's calls in the hand (per side of the seat asking).
        self._rows: dict = self.view.cache.setdefault(("rows", self.side), {})
        self._eu: dict = {}

    def _position(self, totals: list[int], winner: int | None) -> float:
        """The value of a position for our side: +1 won, -1 lost, else the clamped score difference."""
        if winner is not None:
            return 1.0 if winner == self.side else -1.0
        ours = totals[self.side]
        others = max((t for s, t in enumerate(totals) if s != self.side), default=0)
        return max(-_CLAMP, min(_CLAMP, (ours - others) / self.scale))

    def row(self, table: int, bid: int, nt: int) -> list[float]:
        """Per book count of the declaring side: the change of our position's value, in points."""
        key = (self.info.rules.side_of[self.declarers[table]], bid, nt)
        row = self._rows.get(key)
        if row is not None:
            return row
        rules = self.info.rules
        declarer = self.declarers[table]
        dside = rules.side_of[declarer]
        others = [s for s in range(rules.sides) if s != dside]
        scratch = self.scratch
        scratch.declarer = declarer
        scratch.bid = bid
        scratch.trump = NO_TRUMP if nt else 0
        total = self.info.total_books
        row = []
        for k in range(total + 1):
            books = [0] * rules.sides
            books[dside] = k
            rest = total - k
            for i, o in enumerate(others):  # the other sides share the rest evenly
                books[o] = rest // len(others) + (1 if i < rest % len(others) else 0)
            score = scratch.score_books(books)
            winner = self.view.winner_after(score, books, declarer, bid, scratch.made, self.dealer)
            after = [t + p for t, p in zip(self.totals, score)]
            row.append((self._position(after, winner) - self.now) * self.scale)
        self._rows[key] = row
        return row

    def expected(self, table: int, bid: int, nt: int, books: float) -> float:
        """As :meth:`RulesInfo.expected` (``table`` 0: we declare, 1: they do), with the game counted."""
        key = (table, bid, nt, int(books * 10 + 0.5))
        v = self._eu.get(key)
        if v is None:
            row = self.row(table, bid, nt)
            v = self._eu[key] = sum(w * row[k] for k, w in self.info.weights(key[3] / 10))
        return v

    def best_of(self, nt: int, books: float, strain: int, allowed: frozenset[int],
                tolerance: float) -> tuple[int, float]:
        """As :meth:`RulesInfo.best_of`: the best of ``strain``'s allowed bids (the highest of
        those within ``tolerance``) and its value, or (-1, 0.0)."""
        bids = [b for b in self.info.strain_bids[strain] if b in allowed]
        if not bids:
            return -1, 0.0
        values = {b: self.expected(0, b, nt, books) for b in bids}
        best = max(values.values())
        b = max(b for b in bids if values[b] >= best - tolerance)
        return b, values[b]


def game_values(state: HandState, info: RulesInfo, seat: int) -> GameValues | None:
    """The game-aware values for ``seat`` in ``state``, or None for a hand played outside a game."""
    if state.game is None:
        return None
    return GameValues(state, info, seat)
