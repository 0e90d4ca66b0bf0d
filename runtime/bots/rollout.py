"""A close bid checked on deals consistent with the auction, played out by the bots.

The heuristic values a bid from its own hand's estimate and an average share of its
partner's tricks: the estimate's spread (about 1.55 books in suit contracts, against
double dummy) makes the contracts it cannot make.  Where the choice between a bid and
passing is close, this module asks the cards: it deals the unseen cards at random to
the other seats, keeps only the deals where the heuristic, holding each other seat's
cards, makes the calls that seat made (rejection sampling: the deals consistent with
the auction), and plays each kept deal out twice with heuristic bots at every seat,
once after the bid and once after a pass.  The paired difference of the bidder's
side's score is what the bid is worth over passing on those deals.

Inside a playout no bot checks again (:data:`_ACTIVE`): one level, never recursive.
The generator of the deals is seeded from the deal and the call, so a bot stays
deterministic.
"""

from __future__ import annotations

import random
import threading

from ..hand import HandState

_ACTIVE = threading.local()


def active() -> bool:
    """Whether a playout of this module is running in this thread (no check inside one)."""
    return getattr(_ACTIVE, "on", False)


def _deal_consistent(state: HandState, seat: int, rng: random.Random, judge, tries: int) -> HandState | None:
    """A fresh hand at the auction's start, ``seat`` holding its cards and the other seats
    cards drawn at random among the unseen ones, whose calls so far ``judge`` would make
    for every seat but ``seat``; None if no such deal is found in ``tries`` shuffles."""
    rules = state.rules
    mine = state.dealt[seat]
    own = set(mine)
    unseen = [c for c in range(rules.n_cards) if c not in own]
    size = rules.hand_size
    for _ in range(tries):
        rng.shuffle(unseen)
        hands, used = [], 0
        for s in range(rules.players):
            if s == seat:
                hands.append(list(mine))
            else:
                hands.append(unseen[used:used + size])
                used += size
        trial = HandState(rules, state.dealer, hands, unseen[used:used + rules.kitty_size])
        ok = True
        for s, action in state.calls:
            if s != seat and judge.choose(trial) != action:
                ok = False
                break
            trial.apply_action(action)
        if ok:
            return trial
    return None


def _play_out(state: HandState, make_bot) -> None:
    """Play ``state`` to its end with a fresh heuristic bot at every seat."""
    bots = [make_bot() for _ in range(state.rules.players)]
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].choose(state))


def bid_over_pass(state: HandState, bid: int, pass_action: int, make_bot, samples: int, tries: int,
                  least: int) -> tuple[float, int, float] | None:
    """(mean of the bidder's side's score after ``bid`` minus after ``pass_action``, the
    deals it is the mean of), over up to ``samples`` deals consistent with the calls so
    far (each found in up to ``tries`` shuffles), and the share of the deals our side
    declared after ``bid`` where its contract was made; None where fewer than ``least``
    such deals were found (the auction too rare to sample: the caller keeps its own choice)."""
    seat = state.seat
    rules = state.rules
    side = rules.side_of[seat]
    rng = random.Random(f"rollout:{state.deal_key()}:{seat}:{len(state.calls)}")
    _ACTIVE.on = True
    try:
        judge = make_bot()
        diffs = []
        ours = made = 0
        for _ in range(samples):
            trial = _deal_consistent(state, seat, rng, judge, tries)
            if trial is None:
                continue
            result = []
            for action in (bid, pass_action):
                branch = trial.clone()
                branch.apply_action(action)
                _play_out(branch, make_bot)
                score = branch.score or [0] * rules.sides
                result.append(score[side] - max(score[o] for o in range(rules.sides) if o != side))
                if action == bid and branch.declarer >= 0 and rules.side_of[branch.declarer] == side:
                    ours += 1
                    made += bool(branch.made)
            diffs.append(result[0] - result[1])
    finally:
        _ACTIVE.on = False
    if len(diffs) < least:
        return None
    return sum(diffs) / len(diffs), len(diffs), (made / ours if ours else 1.0)
