"""Scoring a hand: a pure function of the ruleset, the contract and the books taken.

Nothing here reads a HandState: :func:`score_hand` takes the contract, the books of
each side and the seats that reneged, and returns a :class:`HandScore`.  The hand,
records' claims and the bots' estimates all score through it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .contract import Contract
from .kitty import swept
from .ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class HandScore:
    """A scored hand: the books after renege penalties, whether the contract was made, each side's score."""

    books: list[int]
    made: bool
    score: list[int]


def penalised_books(rules: Ruleset, books: list[int], reneges: list[int]) -> list[int]:
    """Books after renege penalties: each renege (a seat, in order) gives the other side ``renege_books``.

    A side that took fewer books than it owes is scored as if the other side took
    every book of the hand.
    """
    steps = renege_penalties(rules, books, reneges)
    return steps[-1][1] if steps else list(books)


def renege_penalties(rules: Ruleset, books: list[int], reneges: list[int]) -> list[tuple[list[int], list[int], bool]]:
    """Each renege's penalty in turn as (books before, books after, short): ``short`` when the
    reneging side took fewer books than it owes, so that the hand is scored as if the
    other side took them all (no later renege moves anything then)."""
    owed = rules.renege_books
    books = list(books)
    total = sum(books)
    steps = []
    for seat in reneges:
        side = rules.side_of[seat]
        other = 1 - side
        if books[side] < owed:
            after = [0] * rules.sides
            after[other] = total
            steps.append((books, after, True))
            break
        after = list(books)
        after[side] -= owed
        after[other] += owed
        steps.append((books, after, False))
        books = after
    return steps


# Scores kept per ruleset (score_hand without reneges is a pure function of the key below); a
# ruleset has few (sides x levels x strains kinds x books splits), the cap only guards odd ones.
_MEMO_CAP = 4096


def score_hand(rules: Ruleset, contract: Contract, books: list[int], reneges: list[int] = ()) -> HandScore:
    """Score a hand played in ``contract`` where each side took ``books`` and ``reneges`` reneged."""
    if reneges:
        return _score(rules, contract, penalised_books(rules, books, reneges))
    # Without reneges the score depends on these alone: remembered, as the formulas cost a dict and
    # several calls a hand (simulations score many hands alike).  A fresh HandScore each time (its lists
    # are the caller's to keep).
    memo = rules.derived("score_memo", _new_memo)
    key = (contract.side, contract.level, contract.trump is None, tuple(books))
    known = memo.get(key)
    if known is None:
        result = _score(rules, contract, books)
        if len(memo) < _MEMO_CAP:
            memo[key] = (tuple(result.books), result.made, tuple(result.score))
        return result
    return HandScore(list(known[0]), known[1], list(known[2]))


def _new_memo(rules: Ruleset) -> dict:
    return {}


def _score(rules: Ruleset, contract: Contract, books: list[int]) -> HandScore:
    """:func:`score_hand` of ``books`` (renege penalties already taken)."""
    side = contract.side
    total = sum(books)
    declarer_books = books[side]
    defender_books = total - declarer_books
    env = {
        "bid": contract.level,
        "books": declarer_books,
        "over": declarer_books - 6,
        "defender_books": defender_books,
        "defender_over": defender_books - 6,
        "total_books": total,
        "notrump": contract.trump is None,
        "sweep": swept(rules, books, side)[side],
        "own_books": declarer_books,
    }
    scoring = rules.scoring
    made = bool(scoring.made(env))
    env["made"] = made
    multiplier = scoring.multiplier(env)
    score = [0] * rules.sides
    for s in range(rules.sides):
        if s == side:
            points = scoring.declarer(env)
            score[s] = points * multiplier if scoring.multiply_declarer else points
        else:
            env["own_books"] = books[s]
            points = scoring.defender(env)
            score[s] = points * multiplier if scoring.multiply_defenders else points
    return HandScore(list(books), made, score)
