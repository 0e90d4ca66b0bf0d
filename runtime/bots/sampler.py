"""The sampler bot: determinised Monte Carlo over deals of the unseen cards, for discards and play."""

from __future__ import annotations

import random

from ..hand import DISCARD, PLAY, HandState
from ..ruleset import NO_SUIT
from .dealing import sample_deal
from .heuristic import HeuristicBot, discard_order
from .knowledge import rules_info


class SamplerBot:
    """Determinised Monte Carlo for the discards and the play.

    For a decision it deals the cards it cannot see ``samples`` times, each deal
    consistent with what the seat knows — its hand, the cards played, the suits each
    seat has shown out of, the kitty when it was shown (those cards are with the kitty's
    taker or among its discards), its own discards, cards out of play — and, for
    every distinct legal action, plays the deal out to the end of the hand with
    heuristic bots (``playout="heuristic"``), or asks the double-dummy solver for the
    books that follow (``playout="solver"``, which needs ``runtime.solver``).  The
    action with the best mean result for its side wins: the hand's score difference,
    with books as the tie-break.  The same deals are used for every action.

    The auction and the declaration are left to the heuristic bot (their value
    depends on a whole hand's play, which is the heuristic's estimate already).
    Deterministic for a given generator.
    """

    name = "sampler"

    def __init__(self, rng: random.Random, samples: int = 20, playout: str = "heuristic",
                 max_candidates: int = 6, auction_tries: int = 6):
        if playout not in ("heuristic", "solver"):
            raise ValueError(f"playout must be 'heuristic' or 'solver', not {playout!r}")
        self.rng = rng
        self.samples = samples
        self.playout = playout
        self.max_candidates = max_candidates
        self.auction_tries = auction_tries
        self.heuristic = HeuristicBot(rng)
        self._player = HeuristicBot(rng)  # plays every seat in the playouts
        self._judge = HeuristicBot(rng)  # replays the auction of a sampled deal
        self._solver = None
        if playout == "solver":
            try:
                from .. import solver  # noqa: PLC0415 - only a solver playout needs it
            except ImportError as exc:
                raise RuntimeError("the sampler's 'solver' playout needs runtime.solver "
                                   "(solve(state), solve_actions(state)), which is not available: "
                                   f"{exc}") from exc
            if not (hasattr(solver, "solve") and hasattr(solver, "solve_actions")):
                raise RuntimeError("runtime.solver must provide solve(state) and solve_actions(state)")
            self._solver = solver

    def choose(self, state: HandState) -> int:
        """The action with the best average outcome over sampled deals."""
        return self._decide(state, False)[0]

    def explain(self, state: HandState) -> tuple[int, str]:
        """The action and a one-line reason (the sampled mean of each candidate)."""
        return self._decide(state, True)

    def _decide(self, state: HandState, why: bool):
        phase = state.phase
        if phase not in (PLAY, DISCARD) or (phase == PLAY and state.table is None):
            action, reason = self.heuristic._decide(state, why)
            return action, (reason + " (heuristic)" if why else "")
        legal = state.legal_actions()
        candidates = self._candidates(state, legal)
        if len(candidates) == 1:
            return candidates[0], (f"{state.rules.action_names[candidates[0]]}: the only sensible choice"
                                   if why else "")
        seat = state.seat
        rules = state.rules
        totals = [0.0] * len(candidates)
        for _ in range(self.samples):
            world = self._sample(state, seat)
            if self._solver is not None and phase == PLAY:
                results = self._solve_all(world, candidates, seat)
                for i, r in enumerate(results):
                    totals[i] += r
                continue
            for i, a in enumerate(candidates):
                totals[i] += self._playout(world, a, seat)
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        action = candidates[best]
        if not why:
            return action, ""
        names = rules.action_names
        others = ", ".join(f"{names[a]} {totals[i] / self.samples:+.2f}"
                           for i, a in enumerate(candidates) if i != best)
        verb = "discard" if phase == DISCARD else "play"
        return action, (f"{verb} {names[action]}: best mean result over {self.samples} sampled deals "
                        f"({totals[best] / self.samples:+.2f}; {others})")

    def _sample(self, state: HandState, seat: int) -> HandState:
        """A deal consistent with the play, and as far as it can be with the calls.

        The calls are soft evidence: a deal is redrawn (up to ``auction_tries`` times)
        until the heuristic, holding the hands the deal gives each player, would have
        made the calls they made; otherwise the deal that explains the most calls is used.
        """
        best, best_misses = None, None
        for _ in range(max(1, self.auction_tries)):
            world = sample_deal(state, seat, self.rng)
            misses = self._auction_misses(state, world, seat) if self.auction_tries > 1 else 0
            if best is None or misses < best_misses:
                best, best_misses = world, misses
            if misses == 0:
                break
        return best

    def _auction_misses(self, state: HandState, world: HandState, seat: int) -> int:
        """How many of the other players' calls the heuristic would not make with ``world``'s hands.

        Each player's hand at the auction is its hand in ``world`` with the cards it has
        played (the kitty taker's exchange is not undone: unknown to the others).
        """
        rules = state.rules
        n = rules.players
        if not state.calls:
            return 0
        hands = [list(h) for h in world.hands]
        for leader, cards, _ in state.tricks:
            for i, c in enumerate(cards):
                hands[(leader + i) % n].append(c)
        for i, c in enumerate(state.trick):
            hands[(state.leader + i) % n].append(c)
        if state.kitty_seen and state.kitty:
            # A kitty everyone saw was nobody's at the auction.
            kitty = set(state.kitty)
            hands = [[c for c in h if c not in kitty] for h in hands]
        replay = HandState(rules, state.dealer, hands, list(state.kitty) if state.kitty_seen else [])
        # A fresh state already says whether the kitty lies face up from the deal on; one
        # shown later (once a suit contract is declared) must not be seen during this replay.
        replay.kitty_seen = state.kitty_seen and replay.kitty_seen
        judge = self._judge
        misses = 0

        def calls():
            # The calls replayed by the engine, each judged in the position it was made in
            # (the last one judged only: nothing follows it).
            nonlocal misses
            last = len(state.calls) - 1
            for i, (who, action) in enumerate(state.calls):
                if who != seat and replay.seat == who and judge.choose(replay) != action:
                    misses += 1
                if i < last:
                    yield action

        replay.replay(calls())
        return misses

    def _candidates(self, state: HandState, legal: list[int]) -> list[int]:
        """Distinct legal actions: of cards adjacent in power in one suit, one stands for all."""
        if len(legal) == 1:
            return legal
        if state.phase == DISCARD:
            # Only the heuristic's first few choices: discards are many and mostly alike.
            ti = self.heuristic._discard_table(state)
            return discard_order(ti, state.hands[state.seat], legal)[:self.max_candidates]
        info = rules_info(state.rules)
        ti = info.tables[(state.trump, state.direction)]
        seat = state.seat
        # A card is equivalent to the next lower one held when every card between is
        # gone (played or in this hand): keep the lowest of each run.
        gone = bytearray(len(state.rules.cards))
        for _, cards, _ in state.tricks:
            for c in cards:
                gone[c] = 1
        for c in state.trick:
            gone[c] = 1
        for c in state.hands[seat]:
            gone[c] = 2
        keep = []
        for c in legal:
            s = ti.suit_of[c]
            if s == NO_SUIT:
                keep.append(c)
                continue
            desc = ti.desc[s]
            r = ti.rank[c]
            j = r + 1
            while j < len(desc) and gone[desc[j]] == 1:
                j += 1
            if j < len(desc) and gone[desc[j]] == 2 and desc[j] in legal:
                continue  # the next lower card held plays the same
            keep.append(c)
        return keep

    def _utility(self, state: HandState, seat: int) -> float:
        rules = state.rules
        side = rules.side_of[seat]
        score = state.score
        others = [s for s in range(rules.sides) if s != side]
        diff = score[side] - sum(score[o] for o in others) / len(others)
        return diff + 0.01 * state.books[side]

    def _playout(self, world: HandState, action: int, seat: int) -> float:
        s = world.clone()
        s.apply_action(action)
        player = self._player
        if self._solver is not None:
            # Discards under the solver: the heuristic finishes them, the solver the play.
            while not s.is_terminal() and s.phase != PLAY:
                s.apply_action(player.choose(s))
            if not s.is_terminal() and s.table is not None:
                return self._score_tricks(s, self._solver.solve(s), seat)
        while not s.is_terminal():
            s.apply_action(player.choose(s))
        return self._utility(s, seat)

    def _solve_all(self, world: HandState, candidates: list[int], seat: int) -> list[float]:
        """Each candidate's utility in ``world`` with double-dummy play from here on."""
        values = self._solver.solve_actions(world)
        return [self._score_tricks(world, values[a], seat) for a in candidates]

    def _score_tricks(self, state: HandState, remaining: int, seat: int) -> float:
        """Utility when the declaring side takes ``remaining`` of the books not yet won.

        ``remaining`` counts as the solver does: the books still to be won by play
        (with the discards' book where it goes to the first trick, still unplayed).
        """
        rules = state.rules
        books = state.books_so_far()
        decl_side = rules.side_of[state.declarer]
        left = rules.hand_size - len(state.tricks)  # the trick in progress included
        if state.discards_book_pending():
            left += 1  # the discards' book goes with the first trick, still to be won
        remaining = max(0, min(remaining, left))
        rest = left - remaining
        books[decl_side] += remaining
        others = [s for s in range(rules.sides) if s != decl_side]
        for i, o in enumerate(others):  # the defenders' split is not solved: share it
            books[o] += rest // len(others) + (1 if i < rest % len(others) else 0)
        score = state.clone().score_books(books)
        side = rules.side_of[seat]
        rivals = [s for s in range(rules.sides) if s != side]
        return score[side] - sum(score[o] for o in rivals) / len(rivals) + 0.01 * books[side]
