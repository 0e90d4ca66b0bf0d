"""bench/playloss.py's split of the leads where the declaring side could draw trumps.

:func:`draw_split` names how a lead stands against double dummy's values of the legal
cards: drawing with the top trump or a smaller one where double dummy leads a side card,
draws with another trump or agrees, and not drawing where double dummy would.  The
values here are given by hand (no solver), on a real position: the first lead of a
trump contract dealt by the bench, led by the declaring side.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.cardplay import to_first_card  # noqa: E402
from bench.playloss import draw_split  # noqa: E402
from runtime.ruleset import NO_TRUMP  # noqa: E402


def _drawing_position():
    """The first dealt hand whose opening leader, on the declaring side, holds two trumps
    and a side card while an opponent holds a trump; with its side and those cards."""
    for index in range(40):
        state = to_first_card("standard", 1, index, "heuristic")
        if state is None or state.trump == NO_TRUMP:
            continue
        rules, table, seat = state.rules, state.table, state.current_player()
        side = rules.side_of[state.declarer]
        mine = sorted((c for c in state.hands[seat] if table.suit_of[c] == state.trump),
                      key=table.power.__getitem__)
        others = [c for c in state.legal_actions() if table.suit_of[c] != state.trump]
        theirs = any(table.suit_of[c] == state.trump for s, h in enumerate(state.hands)
                     if rules.side_of[s] != side for c in h)
        if rules.side_of[seat] == side and len(mine) >= 2 and others and theirs:
            return state, side, mine[-1], mine[0], others[0]
    raise AssertionError("no drawing position in the first 40 hands")


def test_draw_split_names_where_double_dummy_disagrees():
    state, side, top, small, other = _drawing_position()
    rest = {c: 0 for c in state.legal_actions()}
    side_best = {**rest, other: 3, top: 2, small: 2}
    assert draw_split(state, side_best, top, side) == "drew top: side only"
    assert draw_split(state, side_best, small, side) == "drew small: side only"
    small_best = {**rest, small: 3, top: 2, other: 2}
    assert draw_split(state, small_best, top, side) == "drew top: other trump"
    assert draw_split(state, small_best, other, side) == "kept: trumps only"
    both = {**rest, small: 3, other: 3, top: 1}
    assert draw_split(state, both, small, side) == "drew small: this one"
    assert draw_split(state, both, other, side) == "kept: ok"


def test_draw_split_is_empty_after_a_card_is_led():
    state, side, top, _small, _other = _drawing_position()
    state.apply_action(top)
    values = {c: 0 for c in state.legal_actions()}
    assert draw_split(state, values, state.legal_actions()[0], side) == ""
