"""rules.md §8: house rules are "overlays on a variant; several may be combined" — read a
twentieth time, on combinations of three and four rules over every game.

``tests/test_spec_oracle.py`` plays each game alone, each house rule on each game and every
ordered pair of house rules on ``standard`` through the engine and through the spec's second
reading (``tests/spec_oracle.py``). These tests take a fixed sample of larger combinations
(of two to four house rules over any of the eight games; none to three for the solver) and
ask the same three questions:

- the engine and the oracle agree on every step of random hands (who acts, what may be done,
  the cards, the tricks, the books and the score);
- the engine's game tally and the oracle's agree on the totals and on who wins, for the rules
  that touch the score and the game's end;
- the double-dummy solver agrees with an exhaustive search over the engine's own moves in
  endgames (renege-penalty aside: the solver assumes that everyone follows suit,
  ``runtime/solver/__init__.py``).

A combination the files cannot express together is refused with a position in a shipped
file (exit 1 on the command line), never an internal error.
"""

from __future__ import annotations

import random
import re
from collections import Counter

from bidcompiler.errors import CompileError
from runtime.hand import OVER, PLAY, HandState
from runtime.ruleset import NO_TRUMP
from runtime.solver import solve
from spec_oracle import GAMES, HOUSE_RULES, spec_of
from test_solver import brute_force
from test_spec_oracle import fresh_ruleset, game_agrees, play_both

SHIPPED_PLACE = re.compile(r"shipped '[^']+', line \d+: ")

# The rules that change the score or the game's end (rules.md §8, §9), with two that change who
# deals and what a hand is worth.
GAME_RULES = ("boston-wins", "two-sets", "to-5", "to-9", "seven-set-loses", "ten-hands",
              "defenders-score", "boston-x4", "rise-and-fly", "plain-notrump", "deal-right",
              "renege-penalty", "min-bid-4")


def _combinations(seed: int, rules: tuple[str, ...], sizes: tuple[int, ...], wanted: int):
    """``wanted`` combinations (game, house rules) that compile, drawn from ``seed``, each with its
    ruleset; the refused ones drawn on the way are checked to be said at a shipped file's line."""
    rng = random.Random(seed)
    games = sorted(GAMES)
    found, refused, seen = [], 0, set()
    while len(found) < wanted:
        game = rng.choice(games)
        combo = tuple(rng.sample(rules, rng.choice(sizes)))
        if (game, combo) in seen:
            continue
        seen.add((game, combo))
        try:
            ruleset = fresh_ruleset(game, combo)
        except CompileError as exc:  # the rules cannot go together here: said with a position
            assert SHIPPED_PLACE.match(str(exc)), (game, combo, str(exc))
            refused += 1
            continue
        found.append((game, combo, ruleset))
    assert refused, "the sample met no refused combination"
    return found


def test_three_and_four_house_rules_on_every_game_play_as_the_spec_reads():
    """Random hands under 150 combinations of 2-4 house rules over the eight games: the engine
    and the oracle agree at every step."""
    seen: Counter = Counter()
    combos = _combinations(2020, tuple(HOUSE_RULES), (2, 3, 3, 4), 150)
    for number, (game, combo, ruleset) in enumerate(combos):
        for hand in range(2):
            play_both(game, combo, 20_000 + 2 * number + hand, seen, ruleset)
    assert {g for g, _, _ in combos} == set(GAMES)
    assert seen["made"] and seen["set"] and seen["notrump"] and seen["suit"], seen
    assert seen["swap"] and seen["renege"] and seen["thrown in"], seen


def test_game_end_rules_together_on_every_game_end_as_the_spec_reads():
    """The game tally under 80 combinations of 2-4 scoring and game-end rules over the eight
    games: the engine's totals, game winners and match winner are the oracle's, hand by hand."""
    won = 0
    for game, combo, rules in _combinations(2021, GAME_RULES, (2, 3, 4), 80):
        spec = spec_of(game, combo)
        won += sum(game_agrees(spec, rules, seed, f"{game}+{'+'.join(combo)}") for seed in range(15))
    assert won > 1000, won


def test_the_solver_agrees_with_exhaustive_search_under_combined_house_rules():
    """Endgames of two or three tricks under 120 combinations of 0-3 house rules (renege-penalty
    aside) over the eight games: the solver's books for the declaring side are those of an
    exhaustive search over the engine's legal moves."""
    rules_but_renege = tuple(r for r in HOUSE_RULES if r != "renege-penalty")
    rng = random.Random(2022)
    checked = Counter()
    for game, combo, rules in _combinations(2022, rules_but_renege, (0, 1, 2, 3), 120):
        cards = list(range(len(rules.cards)))
        rng.shuffle(cards)
        n, size, kitty = rules.players, rules.hand_size, rules.kitty_size
        state = HandState(rules, rng.randrange(n), [cards[i * size:(i + 1) * size] for i in range(n)],
                          cards[n * size:n * size + kitty])
        names = rules.action_names
        left = rng.choice((2, 3))
        while state.phase != OVER and not (state.phase == PLAY and max(map(len, state.hands)) <= left
                                           and not state.trick):
            legal = state.legal_actions()
            passes = [a for a in legal if names[a] == "pass"]
            state.apply_action(passes[0] if passes and rng.random() < 0.6 else rng.choice(legal))
        for _ in range(rng.randrange(n)):  # now and then from inside a trick
            if state.phase == PLAY:
                state.apply_action(rng.choice(state.legal_actions()))
        if state.phase != PLAY:
            continue
        assert solve(state) == brute_force(state), f"{game}+{'+'.join(combo)}"
        checked["notrump" if state.trump == NO_TRUMP else "suit"] += 1
    assert sum(checked.values()) > 80 and checked["notrump"] and checked["suit"], checked
