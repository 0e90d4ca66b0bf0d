"""The names a variant's formulas may use, with their types and meanings.

The engine fills these in (``HandState.score_books`` for hand scoring,
``GameTally`` for the game end); the compiler type-checks formulas against the same
tables, so a formula can only name what the engine really provides.
"""

from __future__ import annotations

from collections.abc import Iterable

INT, BOOL = "int", "bool"

# Known while scoring a hand.  "Declaring side" is the side that won the auction.
HAND_VARIABLES: dict[str, tuple[str, str]] = {
    "bid": (INT, "the number bid by the declaring side"),
    "books": (INT, "books taken by the declaring side (discards included where they count)"),
    "over": (INT, "books over six of the declaring side (books - 6)"),
    "defender_books": (INT, "books taken by the defending side(s) together"),
    "defender_over": (INT, "books over six of the defenders together (defender_books - 6, below 0 when they "
                           "took fewer than six)"),
    "own_books": (INT, "books taken by the side being scored"),
    "total_books": (INT, "books in the hand"),
    "notrump": (BOOL, "the contract has no trump"),
    "sweep": (BOOL, "the declaring side took every book it could take (every trick where the discards are "
                     "the defenders' book)"),
}
# ``made`` is the result of the ``made`` formula, so that formula cannot use it.
MADE_VARIABLE = ("made", (BOOL, "the declaring side made its bid"))

# Known while deciding whether the game is over, evaluated for each side.
GAME_VARIABLES: dict[str, tuple[str, str]] = {
    "score": (INT, "this side's total score"),
    "opponent_score": (INT, "the best total among the other sides"),
    "sets": (INT, "times this side has been set in this game"),
    "sets_in_a_row": (INT, "this side's contracts set one after another in this game (a contract it makes "
                           "ends the row; hands the other side declares or throws in do not)"),
    "hands": (INT, "hands played in this game"),
    "swept": (BOOL, "this side took every book it could take in the hand just played"),
    "games": (INT, "games this side has won in the rubber"),
    "target": (INT, "the game's target score (game.target)"),
    "played": (INT, "hands played with a contract in this game (thrown-in hands do not count)"),
    # The hand just played, seen from the side being judged (0 / false after a throw-in).
    "last_bid": (INT, "the number bid in the hand just played (0 if it was thrown in)"),
    "last_declarer": (BOOL, "this side declared the hand just played"),
    "last_made": (BOOL, "the declaring side made its bid in the hand just played"),
}


# The variables that read a sweep (runtime.kitty.swept): the hand scoring's and the game end's.
SWEEP_VARIABLES = frozenset({"sweep", "swept"})


def reads_sweep(names: Iterable[str]) -> bool:
    """Whether formulas reading the variables ``names`` read a sweep (``sweep`` or ``swept``):
    the one answer for the rulebook's sweep sentence and the game end's memo key."""
    return not SWEEP_VARIABLES.isdisjoint(names)


def types_of(table: dict[str, tuple[str, str]]) -> dict[str, str]:
    """Name -> type, as the expression checker wants it."""
    return {name: t for name, (t, _) in table.items()}
