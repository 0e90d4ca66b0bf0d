"""The solver's public entry points: :class:`DoubleDummy`, :func:`solve`, :func:`solve_actions`.

Part of the double-dummy solver (runtime/solver/), its top: it checks a position,
keeps one engine (engine.py) per contract and declaring side, picks the backend
(the Python search, the compiled search of runtime/solver_fast.py, or DDS through
dds.py), values each legal card by runs of equivalent cards, and, where the first
card led names trump, values notrump and every lead.
"""

from __future__ import annotations

from ..hand import OVER, PLAY, HandState
from ..ruleset import NO_TRUMP, PlayTable, Ruleset
from .dds import _dds_actions, _dds_deal, _dds_value
from .engine import _Engine

#: The searches a :class:`DoubleDummy` can use.  ``own``: this module's search, for every
#: position (the default).  ``dds``: the DDS library (through the optional ``endplay``
#: package) for the positions it plays exactly as the variant's rules say, this module's
#: search for all others.  DDS answers a position when endplay is installed, the position
#: is in the play with its contract known (not the first card naming trump), four players
#: play as the partnerships of seats 0+2 and 1+3, no card of no suit is in play (in a
#: hand or the current trick) and no card of the role top is in the deck, no trick is
#: still worth the discards' book, the hands are of equal length (one card fewer for
#: those who played to the current trick), and every effective suit has at most 13 cards
#: in play.  Effective suits come from the contract's table (promoted trumps belong to
#: the trump suit, power gives the order, downtown included), so DDS sees the same suits
#: and order as our search; :func:`can_use_dds` tells whether it applies.  ``fast``:
#: this module's search compiled by numba (runtime/solver_fast.py, the optional extra
#: ``bidwhist[fast]``): the same search move for move, so the same answers and nodes,
#: each node far cheaper; used for every contract whose cards number at most 62, this
#: module's Python search for others and wherever numba is not installed.  Its first
#: use on a machine compiles it (cached on disk after that).
BACKENDS = ("own", "fast", "dds")


class DoubleDummy:
    """Double-dummy analysis of the positions of hands of one variant.

    Keeps one search engine per contract and declaring side, with its transposition
    table, so solving many positions of the same deal (a replay, a sampler) is much
    cheaper than the first.  ``solve`` and ``solve_actions`` of this module use a
    shared instance.

    ``backend`` (see :data:`BACKENDS`): ``"own"`` (default) the pure-Python search;
    ``"fast"`` the same search compiled by numba where the ``fast`` extra is installed
    (the same answers; its first use on a machine compiles it, minutes of CPU, cached
    on disk after that), the pure-Python search where it is not; ``"dds"`` DDS where it
    plays a position exactly.
    """

    def __init__(self, max_engines: int = 8, backend: str = "own"):
        if backend not in BACKENDS:
            raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
        self._engines: dict = {}
        self._max_engines = max_engines
        self.backend = backend
        # How many answers came from DDS and how many from our own search (backend "dds").
        self.dds_calls = 0
        self.own_calls = 0

    def _engine(self, rules: Ruleset, table: PlayTable, declarer: int) -> _Engine:
        side = rules.side_of[declarer]
        max_seat = tuple(rules.side_of[s] == side for s in range(rules.players))
        key = (rules.players, rules.n_cards, table, max_seat)
        engine = self._engines.get(key)
        if engine is None:
            if len(self._engines) >= self._max_engines:
                self._engines.pop(next(iter(self._engines)))
            engine = self._engines[key] = _Engine(rules.players, rules.n_cards, table, max_seat)
            if self.backend == "fast":
                engine.use_kernel()
        return engine

    @staticmethod
    def _bonus(state: HandState) -> int:
        """1 while the trick that also wins the discards' book is still to be won."""
        return 1 if state.discards_book_pending() else 0

    def _root(self, state: HandState, table: PlayTable, trick: list[int], leader: int):
        engine = self._engine(state.rules, table, state.declarer)
        root = engine.load(state.hands, trick, leader)
        engine.bonus[0] = root["ntricks"] if self._bonus(state) else -1
        return engine, root

    def solve(self, state: HandState) -> int:
        """Books the declaring side takes from here with perfect play by all (see module doc)."""
        if state.phase == OVER:
            return 0
        _check(state)
        if state.table is None:
            values = self.solve_actions(state)
            mine = state.rules.side_of[state.seat] == state.rules.side_of[state.declarer]
            return max(values.values()) if mine else min(values.values())
        engine, root = self._root(state, state.table, state.trick, state.leader)
        if self.backend == "dds":
            deal = _dds_deal(engine, state)
            if deal is not None:
                self.dds_calls += 1
                return _dds_value(deal, engine, state)
            self.own_calls += 1
        return engine.value(root)

    def solve_actions(self, state: HandState) -> dict[int, int]:
        """Each legal action of the player to move -> the declaring side's books after it."""
        if state.phase == OVER:
            return {}
        _check(state)
        if state.table is None:
            return self._declare_by_lead(state)
        engine, root = self._root(state, state.table, state.trick, state.leader)
        legal = state.legal_actions()
        if self.backend == "dds":
            deal = _dds_deal(engine, state)
            if deal is not None:
                found = _dds_actions(deal, engine, state)
                if all(a in found for a in legal):  # else a renege the rules let stand: our search
                    self.dds_calls += 1
                    return {a: found[a] for a in legal}
            self.own_calls += 1
        bit_of = engine.bit_of
        moves = [bit_of[c] for c in legal]
        values: dict[int, int] = {}
        if set(moves) <= set(engine.root_moves(root)):
            groups = engine.runs(root, moves)
        else:  # a renege the rules let stand: value each card on its own
            groups = [[m] for m in moves]
        guess = None
        for run in groups:
            v = engine.value(root, [run[0]], guess)
            guess = v
            for m in run:
                values[engine.card_of[m]] = v
        return {a: values[a] for a in legal}

    def _declare_by_lead(self, state: HandState) -> dict[int, int]:
        """The first card led names trump: value notrump and every lead, each under its own table."""
        rules = state.rules
        values: dict[int, int] = {}
        by_suit: dict[int, list[int]] = {}
        for action in state.legal_actions():
            if action == rules.no_trump_action:
                table = rules.tables[(NO_TRUMP, state.direction)]
                engine, root = self._root(state, table, [], state.seat)
                values[action] = engine.value(root)
            else:
                by_suit.setdefault(rules.card_suit[action], []).append(action)
        for suit, cards in by_suit.items():
            table = rules.tables[(suit, state.direction)]
            engine, root = self._root(state, table, [], state.seat)
            guess = None
            for run in engine.runs(root, [engine.bit_of[c] for c in cards]):
                v = engine.value(root, [run[0]], guess)
                guess = v
                for m in run:
                    values[engine.card_of[m]] = v
        return {a: values[a] for a in state.legal_actions()}


def can_use_dds(state: HandState) -> bool:
    """Whether the ``dds`` backend answers this position with DDS (see :data:`BACKENDS`)."""
    if state.phase != PLAY or state.table is None:
        return False
    engine, _ = DoubleDummy()._root(state, state.table, state.trick, state.leader)
    return _dds_deal(engine, state) is not None


def _check(state: HandState) -> None:
    if state.phase != PLAY:
        raise ValueError("the solver works on positions of the play (phase 'play')")


_SHARED = DoubleDummy()


def solve(state: HandState) -> int:
    """The books the declaring side takes from the remaining play, double dummy.

    ``state`` is a position of the play, possibly in the middle of a trick, or the
    moment the declarer names trump by leading (it then picks the best of notrump
    and every lead).  Everyone plays perfectly with all hands known; with more than
    two sides the declarer's opponents play as one team.  The state is not changed.
    The count is of tricks still to be won, plus the discards' book while the trick
    it goes with is still to be won (where the variant says so); 0 when the hand is over.
    """
    return _SHARED.solve(state)


def solve_actions(state: HandState) -> dict[int, int]:
    """For each legal action of the player to move, the books the declaring side takes
    if that action is played and everyone then plays perfectly (counted as in :func:`solve`)."""
    return _SHARED.solve_actions(state)
