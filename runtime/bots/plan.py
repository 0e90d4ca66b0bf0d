"""What a book is worth to the declaring side in the hand being played, from the engine's scoring.

:func:`book_values` scores the hand once for every count of the declaring side's books
(the engine's own :meth:`HandState.score_books`, so every variant's table, sweep bonus,
doubling or per-player books is read from the rules, never named here) and caches it
per contract.  :func:`books_needed` reads it: how many more books the declaring side
needs before further books change nothing it can still reach.  Where a made
contract scores the same at any count (a variant without overtricks) that is the
contract; where each book scores, it is every book left.
"""

from __future__ import annotations

_CACHE: dict = {}
_CACHE_MAX = 512


def book_values(state) -> tuple[float, ...]:
    """The declaring side's score less the others' mean, if it ends the hand with k books (k = 0..all).

    The other sides share the rest of the books evenly (as the sampler's solver does).
    Computed once per contract and hand size; a hand with reneges is scored afresh.
    """
    return _book_values(state, sum(state.books_so_far()) + state.books_to_play())


def _book_values(state, total: int) -> tuple[float, ...]:
    """:func:`book_values` of a hand of ``total`` books in all."""
    rules = state.rules
    # The contract keyed by the engine's indices HandState.contract_value makes it from:
    # the same key, without finding the contract value on every call.
    key = (id(rules), state.declarer, state.bid, state.trump, state.direction, state.table is not None, total)
    if not state.reneges:
        got = _CACHE.get(key)
        if got is not None and got[0] is rules:
            return got[1]
    decl = rules.side_of[state.declarer]
    others = [s for s in range(rules.sides) if s != decl]
    probe = state.clone()
    values = []
    for k in range(total + 1):
        books = [0] * rules.sides
        books[decl] = k
        rest = total - k
        for i, o in enumerate(others):
            books[o] = rest // len(others) + (1 if i < rest % len(others) else 0)
        score = probe.score_books(books)
        mean = sum(score[o] for o in others) / len(others) if others else 0.0
        values.append(score[decl] - mean)
    result = tuple(values)
    if not state.reneges:
        if len(_CACHE) >= _CACHE_MAX:
            _CACHE.clear()
        _CACHE[key] = (rules, result)
    return result


def books_needed(state) -> int:
    """Books the declaring side still needs before no further book it can reach changes its score.

    0 when nothing it can still take changes the score (the contract made in a
    variant without overtricks, or lost beyond saving).  The first count reaching the
    best score still within reach is the one that matters.
    """
    return _needed(state)[0]


def _needed(state) -> tuple[int, int]:
    """(:func:`books_needed`, the books still to play): the engine asked once for each count."""
    so_far = state.books_so_far()
    left = state.books_to_play()
    values = _book_values(state, sum(so_far) + left)
    have = so_far[state.rules.side_of[state.declarer]]
    reach = values[have:have + left + 1]
    if not reach:
        return 0, left
    best = max(reach)
    if all(v == best for v in reach):
        return 0, left
    return reach.index(best), left  # the first count reaching the best score


def books_to_spare(state) -> int:
    """Books the declaring side can lose and still take every book that counts (0: none).

    More than 0 only where the books that still change the score stop short of all
    the books left: further books are worth nothing, and what matters is the chance
    of taking the ones that count, not how many.  0 where every book left scores
    (each overtrick counts) and where nothing the side can reach changes the score.
    """
    need, left = _needed(state)
    if need <= 0:
        return 0
    return max(0, left - need)
