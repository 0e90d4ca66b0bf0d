"""Card play for what the contract scores (runtime/bots/plan.py and its use in cardplay.py).

* the worth of each count of books comes from the engine's own scoring: in hawaii a
  made contract scores the same at any count, so books beyond it are worth nothing
  and the declaring side has books to spare; in standard every book scores;
* where books are to spare, a declaring side with three small trumps keeps them
  (it cashes a sure winner) instead of leading a small one to draw trumps.
"""

from __future__ import annotations

import random

from bidcompiler.pipeline import load_ruleset
from runtime.bots import HeuristicBot
from runtime.bots.plan import book_values, books_needed, books_to_spare
from runtime.hand import PLAY, HandState

HAWAII = load_ruleset("hawaii")


def _hawaii_after_one_trick() -> HandState:
    """Seat 3 (the dealer, forced) declares 3 in spades; seat 1, its partner, wins the AS.

    Seat 1 then holds 7-6-2 of spades, the A-K of hearts and the AD.
    """
    names = {n: i for i, n in enumerate(HAWAII.cards)}
    hands = ["7D QD 6H TC TD 7H AC TS QC 4C TH JH",
             "7S 9D AD 4H AH 4D 3C AS 8C 2S KH 6S",
             "3S KC 2D JS KD 6C 5D QS 8H 9C 2C 5H",
             "QH KS 3D 9H 3H 5S 8D 6D JD 9S 4S 7C"]
    state = HandState(HAWAII, 3, [[names[c] for c in h.split()] for h in hands],
                      [names[c] for c in "JC 8S 2H 5C".split()])
    for name in ["pass", "pass", "pass", "3", "trump S", "5C", "7C", "JC", "2H",
                 "4S", "TS", "AS", "3S"]:
        state.apply_action(HAWAII.action_names.index(name))
    assert state.phase == PLAY and state.seat == 1 and state.declarer == 3
    return state


def test_book_values_are_the_engines_scores():
    state = _hawaii_after_one_trick()
    values = book_values(state)
    assert len(values) == 14  # 0 .. 13 books: twelve tricks and the discards' book
    for k, v in enumerate(values):
        books = [0, 0]
        books[HAWAII.side_of[3]] = k
        books[1 - HAWAII.side_of[3]] = 13 - k
        score = state.clone().score_books(books)
        assert v == score[HAWAII.side_of[3]] - score[1 - HAWAII.side_of[3]]
    # hawaii (rules.md §6): made at 9 books (a bid of 3) scores the same at any count
    assert values[9:] == (values[9],) * 5 and values[8] < values[9]


def test_hawaii_has_books_to_spare_and_standard_none():
    state = _hawaii_after_one_trick()
    have = state.books_so_far()[HAWAII.side_of[3]]  # the discards' book and the AS
    assert have == 2
    assert books_needed(state) == 9 - have
    assert books_to_spare(state) == state.books_to_play() - (9 - have) > 0
    rules = load_ruleset("standard")
    cards = list(range(rules.n_cards))
    kitty = cards[-(rules.n_cards - 4 * rules.hand_size):]
    hands = [cards[i * rules.hand_size:(i + 1) * rules.hand_size] for i in range(4)]
    std = HandState(rules, 3, hands, kitty)
    bot = HeuristicBot(random.Random(1))
    while std.phase != PLAY:
        std.apply_action(bot.choose(std))
    assert books_needed(std) == std.books_to_play()  # every book scores
    assert books_to_spare(std) == 0


def test_with_books_to_spare_three_small_trumps_are_kept():
    # Seat 1 holds 7-6-2 of spades with six unseen, the KS, QS and JS among them; its partner
    # declared.  Counted for books, the side "holds most of the trumps" and seat 1
    # led the 7S; in hawaii a book beyond the contract is worth nothing, and a small
    # trump gives up the lead: it cashes the AH instead (the old play led the 7S).
    state = _hawaii_after_one_trick()
    action, reason = HeuristicBot(random.Random(0)).explain(state)
    assert action == HeuristicBot(random.Random(0)).choose(state)
    assert HAWAII.action_names[action] == "AH", (HAWAII.action_names[action], reason)
