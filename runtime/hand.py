"""One hand as a state machine: auction, declaration, kitty, play, scoring.

The API follows OpenSpiel's games: ``current_player()``, ``legal_actions()``,
``apply_action()``, ``clone()``, ``is_terminal()``, ``observation(seat)`` and the
scores.  The deal is given to the constructor (chance is explicit: the caller deals
with a seeded generator, or replays a recorded deal), so a deal and a list of
actions replay a hand exactly.  The one chance event inside a hand (players
swapping jokers for random discards where jokers leave play) is explicit too: a
record says what was drawn (:attr:`HandState.swaps_given`); only when nobody says
(live play) is it drawn from a generator seeded by the deal itself.

Actions are small ints (see :class:`runtime.ruleset.Ruleset` for the layout):
card ids for discards and play, then pass, the bids, trump and direction choices,
take and redeal.  Everything variant-specific is read from the Ruleset's tables;
nothing here knows a variant's name.

The rules themselves are interpreted by one module per family — auction.py (calls),
contract.py (what a strain declares), kitty.py (kitty and discards' book),
tricks.py (leader, following, the winner), scoring.py (the score) — and this class
orchestrates the phases by asking them.  Code outside the engine asks this class
(``legal_actions``, ``kitty_visible_to``, ``discards_book_pending`` …) instead of
reading the Ruleset's settings.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING

from . import draws
from .auction import auction_rules
from .contract import Contract, Declaration, declaration, make_contract
from .errors import IllegalAction
from .kitty import kitty_rules
from .ruleset import NO_SUIT, NO_TRUMP, TOP_SUIT, PlayTable, Ruleset
from .scoring import penalised_books, score_hand
from .tricks import Trick, follow_cards, rules_led_keys, trick_rules, winning_index

if TYPE_CHECKING:  # game.py imports this module
    from .game import GameView

AUCTION, DECLARE_TRUMP, DECLARE_DIRECTION, DISCARD, PLAY, OVER = range(6)
# The exchanges of cards that leave play after the discard, waiting: live play makes them all with
# the last discard; only a record that stops partway through them (records.md in_progress) leaves
# a hand here, where nobody acts.
EXCHANGE = 6
# Building a Trick through tuple.__new__ skips the NamedTuple's Python-level __new__: once a trick, cheaply.
_new_tuple = tuple.__new__
PHASE_NAMES = ("auction", "declare", "declare", "discard", "play", "over", "exchange")


# The builders of the per-ruleset tables below are module-level functions, not defined inside the
# functions that look the tables up: those run every hand, and a nested def is a new function object each call.
def _build_playout_tables(r: Ruleset) -> dict:
    """The table of :func:`_playout_tables`, built."""
    keys = rules_led_keys(r)
    slots = len(r.suits) - TOP_SUIT
    return {key: (tuple(suit - TOP_SUIT for suit in table.suit_of), slots, keys[key])
            for key, table in r.tables.items()}


def _playout_tables(rules: Ruleset) -> dict[tuple[int, int], tuple[tuple[int, ...], int, dict]]:
    """For each play table of ``rules`` (by trump, direction): each card's slot (its effective suit
    minus TOP_SUIT), the number of slots, and :func:`runtime.tricks.led_keys`; built once per ruleset."""
    return rules.derived("playout_tables", _build_playout_tables)


def _build_follow_spans(r: Ruleset) -> dict:
    """The table of :func:`_follow_spans`, built."""
    out = {}
    for key, table in r.tables.items():
        spans: list[tuple[int, int] | None] = []
        for suit in range(len(r.suits)):
            ids = [c for c, s in enumerate(table.suit_of) if s == suit]
            spans.append((ids[0], ids[-1] + 1) if ids and ids[-1] - ids[0] + 1 == len(ids) else None)
        out[key] = tuple(spans)
    return out


def _follow_spans(rules: Ruleset) -> dict[tuple[int, int], tuple[tuple[int, int] | None, ...]]:
    """For each play table of ``rules`` (by trump, direction), each suit's cards as one span of ids
    ``(first, last + 1)`` where they are consecutive ids and nothing else follows the suit, else None.

    A hand is kept sorted, so the cards of such a suit in it are the slice between the span's ends
    (two bisections), in the hand's order: what filtering the hand by suit gives, cheaper."""
    return rules.derived("follow_spans", _build_follow_spans)


def _build_suit_runs(r: Ruleset) -> dict:
    """The table of :func:`_suit_runs`, built."""
    out = {}
    for key, table in r.tables.items():
        per_suit: list[tuple[int, int, int, int] | None] = []
        for suit in range(len(r.suits)):
            runs: list[list[int]] = []
            for c, s in enumerate(table.suit_of):
                if s != suit:
                    continue
                if runs and runs[-1][1] == c:
                    runs[-1][1] = c + 1
                else:
                    runs.append([c, c + 1])
            if len(runs) == 1:
                per_suit.append((runs[0][0], runs[0][1], -1, -1))
            elif len(runs) == 2:
                per_suit.append((runs[0][0], runs[0][1], runs[1][0], runs[1][1]))
            else:
                per_suit.append(None)
        out[key] = tuple(per_suit)
    return out


def _suit_runs(rules: Ruleset) -> dict[tuple[int, int], tuple[tuple[int, int, int, int] | None, ...]]:
    """For each play table of ``rules`` (by trump, direction), each suit's cards as at most two runs of
    consecutive ids ``(lo, hi, lo2, hi2)`` (``lo2 = hi2 = -1``: one run), or None where they are more
    runs (or no card follows the suit); built once per ruleset.

    The random playout's follows: in a sorted hand the cards of a run lie between two bisections,
    and a trump suit with the jokers beside it (two runs) is the first run's cards then the second's."""
    return rules.derived("suit_runs", _build_suit_runs)


def _build_playout_by_table(r: Ruleset) -> dict:
    """The table of :func:`_playout_by_table`, built."""
    tables, runs = _playout_tables(r), _suit_runs(r)
    return {key: (slot_of, led_keys, runs[key]) for key, (slot_of, _, led_keys) in tables.items()}


def _playout_by_table(rules: Ruleset) -> dict[tuple[int, int], tuple[tuple[int, ...], dict, tuple]]:
    """For each play table of ``rules`` (by trump, direction): :func:`_playout_tables`' slots and keys
    and :func:`_suit_runs`' runs, together: what the random playout's tricks look up once a hand
    (one look-up instead of two)."""
    return rules.derived("playout_by_table", _build_playout_by_table)


# A bound on the scores :meth:`HandState._finish` keeps per ruleset (sides x bids x 2 x books splits:
# a few thousand in any variant; the bound only guards odd rules).
_FINISH_MEMO_CAP = 8192


def _new_store(rules: Ruleset) -> dict:
    """An empty per-ruleset store, for ``rules.derived`` (a module-level function: a lambda would be
    a new object every hand)."""
    return {}


_FOLLOWERS: dict[int, tuple[tuple[tuple[int, int], ...], ...]] = {}


def _followers(n: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each leader of ``n`` players, the (position in the trick, seat) of the seats that follow it."""
    known = _FOLLOWERS.get(n)
    if known is None:
        known = _FOLLOWERS[n] = tuple(tuple((i, (leader + i) % n) for i in range(1, n)) for leader in range(n))
    return known


def _interpreters(rules: Ruleset) -> tuple:
    """The rule interpreters a hand asks: auction, kitty and tricks (each built once per ruleset)."""
    return auction_rules(rules), kitty_rules(rules), trick_rules(rules)


class HandState:
    """The state of one hand of a variant, from the first call to the score."""

    __slots__ = (
        "rules", "dealer", "hands", "kitty", "phase", "seat", "calls", "high_bid",
        "high_seat", "passed", "declarer", "bid", "trump", "direction", "table",
        "discards", "pending", "trick", "leader", "tricks", "won", "books", "score",
        "made", "dealt", "redealt", "out", "discard_target", "kitty_seen", "reneges",
        "led", "swaps", "swaps_given", "swaps_may_stop", "renege_plays", "_refuse", "_legal", "_spans", "_steps",
        "_auction", "_kittyr", "_tricksr", "_taker", "game",
    )

    def __init__(self, rules: Ruleset, dealer: int, hands: list[list[int]], kitty: list[int]):
        n = rules.players
        if len(hands) != n:
            raise ValueError(f"expected {n} hands, got {len(hands)}")
        self.rules = rules
        self.dealer = dealer
        self.hands = list(map(sorted, hands))
        self.dealt = tuple(map(tuple, self.hands))  # as dealt, for records
        self.kitty = list(kitty)
        self.phase = AUCTION
        # The rule interpreters, built once per ruleset (one cache look-up here).
        self._auction, self._kittyr, self._tricksr = rules.derived("interpreters", _interpreters)
        self.seat = self._auction.first_seat(dealer)
        self.calls: list[tuple[int, int]] = []  # (seat, action)
        self.high_bid = -1  # index into rules.bids
        self.high_seat = -1
        self.passed = [False] * n
        self.declarer = -1
        self._taker = -1  # the kitty's taker, once the declarer is known (asked often by bots)
        self.bid = -1
        self.trump = NO_TRUMP
        self.direction = -1
        self.table = None
        self.discards: list[int] = []
        self.discard_target = rules.kitty_size
        self.pending: list[int] = []  # declaration steps still to come
        self.trick: list[int] = []
        self.leader = -1
        self.tricks: list[Trick] = []
        self.won = [0] * n  # tricks won by each seat
        self.books: list[int] | None = None
        self.score: list[int] | None = None
        self.made: bool | None = None
        self.redealt = False
        self.out: list[int] = []  # cards that left play (jokers out in notrump)
        self.kitty_seen = self._kittyr.shown_at_deal
        self.reneges: list[int] = []  # seats that reneged, in order (renege: penalty)
        # Each renege that stood, as (index of the card in the play, seat, suit it failed to follow).
        self.renege_plays: list[tuple[int, int, int]] = []
        # The exchanges of cards that leave play, as (seat, card given, card drawn), once made;
        # swaps_given: what a record says was drawn (None in live play: drawn at random).
        self.swaps: list[tuple[int, int, int]] = []
        self.swaps_given: list[tuple[int, int, int]] | None = None
        # A record that stops partway through the exchanges (in progress) may give fewer than are
        # due: those given are made and the hand waits in EXCHANGE for the rest.
        self.swaps_may_stop = False
        self.led = NO_SUIT  # the suit to follow in the current trick, once a card sets it
        self._refuse = self._tricksr.refuse  # read on every card: a plain bool
        self._legal: list[int] | None = None
        # (play table, its _follow_spans), looked up on the first card that must follow suit.
        self._spans: tuple | None = None
        # The (seat, action) of declarations, discards and a declared notrump, in order:
        # with the calls and the tricks they make :attr:`history` (cards are not
        # logged twice, so playing a card costs nothing more).
        self._steps: list[tuple[int, int]] = []
        # The game this hand is part of, as its players may know it (runtime.game.GameView:
        # the totals and what a result would do); None for a hand played alone.
        self.game: GameView | None = None

    @classmethod
    def from_actions(cls, rules: Ruleset, dealer: int, hands: list[list[int]], kitty: list[int],
                     actions) -> "HandState":
        """The hand dealt so, after ``actions``: the one replayer of the engine.

        ``actions`` is an iterable of action ids or of (seat, action) pairs (a
        :attr:`history`; each seat must be the one to act), or a function of the
        state being built returning such an iterable — for callers that choose each
        action by looking at the state (records: a matching bid means take, the
        declaration comes where the game asks for it).  An illegal action raises
        :class:`IllegalAction` with ``index``, the number of actions applied before it.
        """
        state = cls(rules, dealer, hands, kitty)
        state.replay(actions(state) if callable(actions) else actions)
        return state

    def replay(self, actions) -> None:
        """Apply ``actions`` (ids or (seat, action) pairs) in order; see :meth:`from_actions`."""
        for index, action in enumerate(actions):
            if isinstance(action, tuple):
                seat, action = action
                if seat != self.current_player():
                    exc = IllegalAction(seat, "not-your-turn",
                                        f"seat {seat} is not to act (seat {self.current_player()} is)")
                    exc.index = index
                    raise exc
            try:
                self.apply_action(action)
            except IllegalAction as exc:
                exc.index = index
                raise

    def history_before_play(self) -> list[tuple[int, int]]:
        """The (seat, action) of the calls, declarations and discards: :attr:`history` up to the first card."""
        return list(self.calls) + self._steps

    @property
    def history(self) -> list[tuple[int, int]]:
        """Every (seat, action) of the hand so far, in the order played.

        ``HandState.from_actions(rules, dealer, dealt, kitty, history)`` rebuilds this
        state exactly (a claim, which ends a hand from outside, is not an action).
        """
        n = self.rules.players
        out = list(self.calls)
        out.extend(self._steps)
        for leader, cards, _ in self.tricks:
            out.extend(((leader + i) % n, c) for i, c in enumerate(cards))
        leader = self.leader
        out.extend(((leader + i) % n, c) for i, c in enumerate(self.trick))
        return out

    # ------------------------------------------------------------------ queries
    def current_player(self) -> int:
        """The seat to act, or -1 when nobody acts: the hand is over (or waits on the exchanges
        of a record that stops partway through them)."""
        return -1 if self.phase >= OVER else self.seat

    def is_terminal(self) -> bool:
        """True once the hand is scored (or ended without a contract)."""
        return self.phase == OVER

    @property
    def phase_name(self) -> str:
        """``auction``, ``declare``, ``discard``, ``play`` or ``over`` (``exchange`` where a record stops
        partway through the exchanges of cards that leave play)."""
        if self.phase == PLAY and self.table is None:
            return "declare"  # notrump, or trump by the first lead
        return PHASE_NAMES[self.phase]

    @property
    def contract(self) -> dict | None:
        """The contract once the auction is won, as JSON: declarer, side, bid, strain, trump, direction."""
        value = self.contract_value
        return None if value is None else value.as_json(self.rules)

    @property
    def contract_value(self) -> Contract | None:
        """The contract once the auction is won, as a :class:`Contract` value (None before, or without one)."""
        if self.declarer < 0:
            return None
        return make_contract(self.rules, self.declarer, self.bid, self.trump, self.direction,
                             self.table is not None)

    @property
    def decided_contract(self) -> dict | None:
        """:attr:`contract` without the terms not decided yet (:meth:`undecided_terms`): what a
        record of a hand in progress reports (records.md "contract holds what is decided")."""
        contract = self.contract
        if contract is not None:
            for term in self.undecided_terms():
                del contract[term]
        return contract

    def undecided_terms(self) -> tuple[str, ...]:
        """The terms of the contract (``trump``, ``direction``) not decided yet: the declarer has still
        to name them (or the first lead to decide trump).  Empty once declared, and before a contract.

        The engine keeps "no trump" for a trump not named yet; a record tells the two apart
        (records.md: ``trump`` null is notrump, and a contract in progress holds what is decided).
        """
        if self.declarer < 0 or self.table is not None:
            return ()
        decl = declaration(self.rules, self.bid)
        # A step is still to come while it is pending or being asked now.
        todo = set(self.pending) | {self.phase}
        out = []
        if decl.by_first_lead or (decl.names_suit and DECLARE_TRUMP in todo):
            out.append("trump")
        if decl.chooses_direction and DECLARE_DIRECTION in todo:
            out.append("direction")
        return tuple(out)

    @property
    def declaration(self) -> Declaration | None:
        """What the contract's strain lets the declarer declare (None before the auction is won)."""
        return None if self.declarer < 0 else declaration(self.rules, self.bid)

    # ------------------------------------------------------------------ what the rules say here
    def declares_before_kitty(self) -> bool:
        """Whether this hand's declarer declares before taking the kitty (False before a contract)."""
        if self.declarer < 0:
            return False
        return self._kittyr.declares_before_taking(declaration(self.rules, self.bid).by_first_lead)

    def kitty_taker(self) -> int:
        """The seat that takes the kitty and lays cards away; -1 before a contract.

        kitty.py says which: the declarer, or a seat the rules name by role.
        """
        return self._taker

    def first_lead_seat(self) -> int:
        """The seat that leads (or led) the first trick; -1 before a contract.

        tricks.py says which: the declarer, or a seat the rules name by role.
        """
        if self.declarer < 0:
            return -1
        return self._tricksr.first_leader(self.dealer, self.declarer)

    def kitty_taken(self) -> bool:
        """True once the kitty's taker (:meth:`kitty_taker`) has picked it up (and so knows it)."""
        if self.declarer < 0 or not self.kitty:
            return False
        if self.phase in (DISCARD, PLAY, OVER, EXCHANGE):  # EXCHANGE: after the discards, so taken
            return True
        return self.phase in (DECLARE_TRUMP, DECLARE_DIRECTION) and not self._kittyr.declare_first

    def kitty_visible_to(self, seat: int) -> bool:
        """Whether ``seat`` has seen the kitty by now: face up for all, or picked up as its taker."""
        if not self.kitty:
            return False
        return self.kitty_seen or (seat == self.kitty_taker() and self.kitty_taken())

    def shown_to(self, seat: int) -> list[tuple[int, tuple[int, ...]]]:
        """The cards ``seat`` has been shown that another seat holds: ``(holder, cards)`` pairs.

        Today the kitty, once the rules turn it face up (kitty.py says when): held by
        its taker once picked up (who may lay some of it away again), ``holder`` -1 while
        it lies on the table.  Nothing for the taker itself, nor for cards never shown.
        """
        if not self.kitty or not self.kitty_seen:
            return []
        holder = self.kitty_taker() if self.kitty_taken() else -1
        if holder == seat:
            return []
        return [(holder, tuple(self.kitty))]

    def discards_book_pending(self) -> bool:
        """True while the discards' book is still to be won with the first trick."""
        return self._kittyr.book_pending(self.discards, self.tricks)

    def discards_book_side(self) -> int | None:
        """The side the discards' book counts for so far (None: no such book, or still pending)."""
        return self._kittyr.book_side(self.rules.side_of, self.declarer, self.discards, self.tricks)

    def books_to_play(self) -> int:
        """Books still to be won by play from here: the tricks left, and a pending discards' book."""
        left = self.rules.hand_size - len(self.tricks)
        return left + (1 if self.discards_book_pending() else 0)

    def refuses_renege(self) -> bool:
        """Whether a card that fails to follow suit is refused (else played, and penalised at the end)."""
        return self._refuse

    def call_meaning(self, action: int) -> int:
        """``action`` as a call means it now: the bid matching the high bid is ``take`` where take is legal."""
        return self._auction.as_take(self, action)

    def legal_actions(self) -> list[int]:
        """Every action the current player may take, in increasing id order."""
        legal = self._legal
        if legal is not None:
            return legal
        table = self.table
        if self.phase == PLAY and table is not None:  # the hot path of _compute_legal, without its call
            hand = self.hands[self.seat]
            led = self.led
            if led != NO_SUIT and self._refuse and not table.free_no_suit:
                spans = self._spans  # (the table, its spans): looked up once a hand
                if spans is None or spans[0] is not table:
                    spans = self._spans = (table, _follow_spans(self.rules)[(self.trump, self.direction)])
                span = spans[1][led]
                if span is None:
                    suit_of = table.suit_of
                    legal = [c for c in hand if suit_of[c] == led] or hand[:]
                else:  # the suit's cards are one run of ids: a slice of the sorted hand
                    legal = hand[bisect_left(hand, span[0]):bisect_left(hand, span[1])] or hand[:]
            elif led == NO_SUIT:
                legal = hand[:]
            else:
                legal = self._compute_legal()
        else:
            legal = self._compute_legal()
        self._legal = legal
        return legal

    def _compute_legal(self) -> list[int]:
        phase = self.phase
        if phase == PLAY:
            table = self.table
            hand = self.hands[self.seat]
            if table is None:  # the declarer declares notrump or names trump by leading
                card_suit = self.rules.card_suit
                return [c for c in hand if card_suit[c] >= 0] + [self.rules.no_trump_action]
            led = self.led
            if led != NO_SUIT and self._refuse:  # the hot path: follow suit when able
                suit_of = table.suit_of
                follow = [c for c in hand if suit_of[c] == led]
                if follow:
                    if table.free_no_suit:  # cards of no suit, and top cards (tricks.follow_cards)
                        follow.extend(c for c in hand if suit_of[c] < 0)
                        follow.sort()
                    return follow
            return hand[:]
        rules = self.rules
        if phase == AUCTION:
            return self._auction_legal()
        if phase == DISCARD:
            return list(self.hands[self.seat])
        if phase == DECLARE_TRUMP:
            legal = [rules.first_trump_action + s for s in range(len(rules.suits))]
            if declaration(rules, self.bid).may_notrump:
                legal.append(rules.no_trump_action)
            return legal
        if phase == DECLARE_DIRECTION:
            return [rules.first_direction_action + d for d in declaration(rules, self.bid).directions]
        return []

    def _auction_legal(self) -> list[int]:
        return self._auction.legal_calls(self)

    # ------------------------------------------------------------------ actions
    def apply_action(self, action: int) -> None:
        """Apply one action of the current player; IllegalAction if the rules refuse it."""
        legal = self._legal
        if legal is None:
            legal = self._compute_legal()
        if action not in legal:
            raise self.explain_illegal(action)
        if self.phase == PLAY and self.table is not None:  # the hot path: a card played (as _apply plays it)
            self._legal = None
            trick = self.trick
            if self._refuse and len(trick) < self.rules.players - 1:
                # Neither the trick's last card nor a renege to note: _play's first steps, without its call.
                self.hands[self.seat].remove(action)
                trick.append(action)
                if self.led == NO_SUIT:
                    suit = self.table.suit_of[action]
                    if suit >= 0:  # tricks.sets_led
                        self.led = suit
                self.seat = (self.seat + 1) % self.rules.players
                return
            self._play(action)
            return
        self._apply(action)

    def _apply(self, action: int) -> None:
        """Apply ``action``, known to be legal (:meth:`apply_action` after its check)."""
        self._legal = None
        phase = self.phase
        if phase == PLAY:
            if self.table is None:
                self._declare_by_lead(action)
            else:
                self._play(action)
        elif phase == AUCTION:
            self._call(action)
        elif phase == DISCARD:
            self._steps.append((self.seat, action))
            self._discard(action)
        elif phase == DECLARE_TRUMP:
            self._steps.append((self.seat, action))
            rules = self.rules
            self.trump = NO_TRUMP if action == rules.no_trump_action else action - rules.first_trump_action
            self._next_declaration()
        elif phase == DECLARE_DIRECTION:
            self._steps.append((self.seat, action))
            self.direction = action - self.rules.first_direction_action
            self._next_declaration()

    def _call(self, action: int) -> None:
        rules = self.rules
        seat = self.seat
        self.calls.append((seat, action))
        if action == rules.redeal_action:
            self.redealt = True
            self._finish_without_contract()
            return
        if action == rules.take_action:
            self.high_seat = seat
            self._end_auction()
            return
        if action == rules.pass_action:
            self.passed[seat] = True
        else:
            self.high_bid = action - rules.first_bid_action
            self.high_seat = seat
        nxt = self._auction.next_caller(seat, self.passed, self.high_bid, self.high_seat, len(self.calls))
        if nxt is not None:
            self.seat = nxt
        elif self.high_bid < 0:
            self._finish_without_contract()
        else:
            self._end_auction()

    def ends_auction(self, action: int) -> bool:
        """Whether calling ``action`` now would end the auction: nobody could call after it.

        For bots: raising a bid to shut others out is pointless on the last call.
        """
        return self._auction.ends_auction(self, action)

    def _end_auction(self) -> None:
        rules = self.rules
        self.declarer = self.seat = self.high_seat
        self._taker = self._kittyr.taker_seat(self.dealer, self.declarer)
        self.bid = self.high_bid
        decl = declaration(rules, self.bid)
        if decl.fixed_suit is not None:  # the strain's trump is fixed: nobody names it
            self.trump = decl.fixed_suit
        if self._kittyr.shown_at_auction_won(decl.kind):  # the contract's kind, if the bid says it
            self.kitty_seen = True
        pending = []
        if decl.names_suit:
            pending.append(DECLARE_TRUMP)
        if decl.chooses_direction:
            pending.append(DECLARE_DIRECTION)
        else:
            self.direction = decl.directions[0]
        self.pending = pending
        if decl.by_first_lead:
            self._take_kitty()  # then the first lead (or a notrump call) declares
        elif self._kittyr.declare_first:
            self._next_declaration()
        else:
            self._take_kitty()

    def _next_declaration(self) -> None:
        if self.pending:
            self.phase = self.pending.pop(0)
            return
        rules = self.rules
        self.table = rules.tables[(self.trump, self.direction)]
        if self._kittyr.shown_once_declared(self.table):
            self.kitty_seen = True
        if self._kittyr.declare_first:
            self._take_kitty()
        else:
            self._start_play()

    def _declare_by_lead(self, action: int) -> None:
        rules = self.rules
        if action == rules.no_trump_action:
            self._steps.append((self.seat, action))
            self.trump = NO_TRUMP
            self.table = rules.tables[(NO_TRUMP, self.direction)]
            return
        self.trump = rules.card_suit[action]
        self.table = rules.tables[(self.trump, self.direction)]
        self._play(action)

    def _take_kitty(self) -> None:
        rules = self.rules
        if not (rules.kitty_size and self.kitty):
            self._after_discards()
            return
        taker = self.kitty_taker()  # the declarer, or the seat the rules name (kitty.py)
        hand = self.hands[taker]
        self._kittyr.pick_up(hand, self.kitty, self._kitty_table(), self.out)
        self.discard_target = len(hand) - rules.hand_size
        if self.discard_target <= 0:
            self._after_discards()
            return
        self.phase = DISCARD
        self.seat = taker

    def _discard(self, card: int) -> None:
        self.hands[self.seat].remove(card)
        self.discards.append(card)
        if len(self.discards) == self.discard_target:
            self._after_discards()

    def _kitty_table(self) -> PlayTable | None:
        """The play table the kitty is taken and laid away under: the contract's, or before
        the declaration a notrump table where the bid itself is notrump (which cards leave
        play in notrump is known then; it does not hang on the direction), else None."""
        if self.table is not None:
            return self.table
        decl = declaration(self.rules, self.bid)
        if decl.kind != "notrump":
            return None
        return self.rules.tables[(NO_TRUMP, decl.directions[0])]  # every (trump, direction) pair is built

    def _after_discards(self) -> None:
        table = self._kitty_table()
        if table is not None and table.no_suit_out and not self._swap_out_extras(table):
            self.phase = EXCHANGE  # a record stops partway through the exchanges: the hand waits here
            return
        if self._kittyr.declare_first or self.table is not None:
            self._start_play()
        else:
            self.seat = self.declarer
            self._next_declaration()

    def _swap_out_extras(self, table: PlayTable) -> bool:
        """Other players swap their cards of no suit for face-down discards: as given, else at random
        (kitty.py).  False where a record that may stop here gave only some of the exchanges due."""
        self.swaps, done = self._kittyr.swap_out(self.kitty_taker(), self.declarer, self.hands, self.discards,
                                                 table, self.out, self.deal_key(), self.swaps_given,
                                                 self.swaps_may_stop)
        return done

    def laid_out(self) -> list[int]:
        """The cards the kitty's taker laid away because they leave play (its jokers in notrump, say).

        Records list them in ``discard`` with the cards it chose to lay away.
        """
        taker = self.kitty_taker()
        if taker < 0:
            return []
        own = self.dealt[taker]
        return [c for c in self.out if c in own]

    def deal_key(self) -> str:
        """A text naming the deal, seeding the hand's own chance events."""
        names = self.rules.cards
        parts = ["|".join(names[c] for c in h) for h in self.dealt]
        parts.append("|".join(names[c] for c in self.kitty))
        return f"{self.dealer}/" + "/".join(parts)

    def _start_play(self) -> None:
        self.phase = PLAY
        self.seat = self.leader = self.first_lead_seat()

    def _play(self, card: int) -> None:
        seat = self.seat
        hand = self.hands[seat]
        trick = self.trick
        if trick and not self._refuse:
            follow = follow_cards(self.table, self.led, hand)
            if follow is not None and card not in follow:
                self.reneges.append(seat)
                self.renege_plays.append((len(self.tricks) * self.rules.players + len(trick), seat, self.led))
        hand.remove(card)
        trick.append(card)
        if self.led == NO_SUIT:
            suit = self.table.suit_of[card]
            if suit >= 0:  # tricks.sets_led: only a card of a suit sets the suit to follow
                self.led = suit
        n = self.rules.players
        if len(trick) < n:
            self.seat = (seat + 1) % n
            return
        winner = (self.leader + winning_index(self.table, self.led, trick)) % n
        self.tricks.append(_new_tuple(Trick, (self.leader, tuple(trick), winner)))
        self.won[winner] += 1
        self.trick = []
        self.led = NO_SUIT
        if self.hands[winner]:
            self.seat = self.leader = winner
        else:
            self._finish()

    # ------------------------------------------------------------------ random play
    def play_random(self, rng) -> None:
        """Play the hand to its end, every action drawn uniformly among the legal ones with ``rng``.

        The same hand, draw for draw, as ``while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))`` (what the ``random``
        bot does at every seat), only faster: the tricks of a contract that refuses
        reneges are played in one loop (the legal cards as :meth:`legal_actions`
        lists them, the draw as :mod:`runtime.draws` makes it, the winner by
        :func:`runtime.tricks.led_keys`, :func:`runtime.tricks.winning_index`'s order),
        and so are the discards; the calls are drawn from the auction's legal calls
        and made by the auction's own step; every other action (declarations, a lead
        naming trump, cards of a contract that penalises reneges) is drawn from
        :meth:`legal_actions`' list and applied as :meth:`apply_action` applies it.
        A generator other than a plain ``random.Random`` is left to its own
        ``choice``, action by action (:func:`runtime.draws.exact`).
        """
        if not draws.exact(rng):  # a generator of its own: its own choice, action by action
            choice = rng.choice
            while self.phase != OVER:
                self.apply_action(choice(self.legal_actions()))
            return
        getrandbits = rng.getrandbits
        bits = draws.BITS
        steps = self._steps
        auction = self._auction
        while self.phase != OVER:
            phase = self.phase
            if phase == PLAY and self.table is not None and self._refuse:
                self._random_tricks(rng)
            elif phase == DISCARD:  # any card of the hand: apply_action's discards, drawn as choice draws
                self._legal = None
                seat = self.seat
                hand = self.hands[seat]
                discards = self.discards
                target = self.discard_target
                while True:  # _discard, written out
                    k = len(hand)
                    if not k:
                        raise IndexError("Cannot choose from an empty sequence")
                    b = bits[k]
                    r = getrandbits(b)
                    while r >= k:
                        r = getrandbits(b)
                    card = hand.pop(r)
                    steps.append((seat, card))
                    discards.append(card)
                    if len(discards) == target:
                        break
                self._after_discards()
            elif phase == AUCTION:  # the calls, as apply_action makes them
                self._legal = None
                legal = auction.calls(self)  # read only: no copy
                k = len(legal)
                if not k:
                    raise IndexError("Cannot choose from an empty sequence")
                b = bits[k]
                r = getrandbits(b)
                while r >= k:
                    r = getrandbits(b)
                self._call(legal[r])
            else:  # choice(legal_actions()) then apply_action, without choice's layers nor the legality check
                legal = self._compute_legal()
                if not legal:
                    raise IndexError("Cannot choose from an empty sequence")
                self._apply(legal[draws.below(getrandbits, len(legal))])

    def _random_tricks(self, rng) -> None:
        """The rest of the hand's play with random legal cards: :meth:`_compute_legal` and :meth:`_play` fused
        (renege refused, the contract declared); the state ends as they would leave it.

        A trick begun before (a lead that named trump) is finished card by card as
        :meth:`apply_action` would; then whole tricks are played in one loop.  Where the
        cards that follow the suit led are one or two runs of ids (:func:`_suit_runs`),
        a follower's legal cards are counted and indexed in its sorted hand by bisection
        (the same list as the filter's, in the hand's order, never built); else filtered.
        """
        bits = draws.BITS
        getrandbits = rng.getrandbits
        self._legal = None
        while self.trick:  # finish a trick already begun, as the per-action path plays it
            legal = self._compute_legal()
            k = len(legal)
            if not k:
                raise IndexError("Cannot choose from an empty sequence")
            b = bits[k]
            r = getrandbits(b)
            while r >= k:
                r = getrandbits(b)
            self._play(legal[r])
            if self.phase == OVER:
                return
        table = self.table
        suit_of = table.suit_of
        free = table.free_no_suit
        hands = self.hands
        n = self.rules.players
        tricks = self.tricks
        won = self.won
        leader = self.leader
        # Per contract, built once per ruleset: each card's slot (the compiled kernel's), the keys by suit
        # led, and (below) the runs of ids that follow each suit.
        slot_of, led_keys, runs_of = _playout_by_table(self.rules)[(self.trump, self.direction)]
        fast = draws.compiled()
        if fast and hands[0] and len(set(map(len, hands))) == 1:  # the same loop compiled (runtime/playout_fast.py)
            self._compiled_tricks(fast, rng, slot_of, led_keys)
            return
        # followers[leader]: (position in the trick, seat) of the seats that play after the leader.
        followers = _followers(n)
        # runs_of[suit]: the ids of the cards that follow ``suit`` as one or two runs (lo, hi), else None.
        # A hand is kept sorted, so the cards of a run in it lie between two bisections, in the
        # hand's order: what _compute_legal's filter lists, counted and indexed without a list.
        trick = [0] * n
        while True:
            # The lead: any card of the leader's hand (nothing is led yet).
            hand = hands[leader]
            k = len(hand)
            if not k:
                raise IndexError("Cannot choose from an empty sequence")
            b = bits[k]  # draws.below, written out: the hot loop of random play
            r = getrandbits(b)
            while r >= k:
                r = getrandbits(b)
            card = hand.pop(r)
            led = suit_of[card]
            trick[0] = card
            runs = runs_of[led] if led >= 0 and not free else None
            if runs is not None:
                # The usual trick: the lead set the suit to follow (tricks.sets_led) and only it may
                # follow; the winner is kept as the cards come (winning_index's keys, first highest).
                keys = led_keys[led]
                best = 0
                best_key = keys[card]
                if best_key < -1:  # as winning_index starts: no card yet, key -1
                    best_key = -1
                lo, hi, lo2, hi2 = runs
                for i, seat in followers[leader]:
                    hand = hands[seat]
                    a = bisect_left(hand, lo)
                    k = bisect_left(hand, hi, a) - a
                    if lo2 < 0:
                        first = k
                    else:  # a second run (a trump suit with the jokers): after the first in the hand
                        a2 = bisect_left(hand, lo2, a + k)
                        first = k
                        k += bisect_left(hand, hi2, a2) - a2
                    if not k:  # void in the suit led: any card
                        k = len(hand)
                        if not k:
                            raise IndexError("Cannot choose from an empty sequence")
                        a = 0
                        first = k
                    b = bits[k]
                    r = getrandbits(b)
                    while r >= k:
                        r = getrandbits(b)
                    card = hand.pop(a + r if r < first else a2 + r - first)
                    trick[i] = card
                    key = keys[card]
                    if key > best_key:
                        best_key = key
                        best = i
            else:  # a lead of no suit (the next card of a suit sets it), cards of no suit free to play,
                # or a suit whose cards are not one or two runs of ids: the legal cards filtered
                if led < 0:
                    led = NO_SUIT
                for i, seat in followers[leader]:
                    hand = hands[seat]
                    legal = hand
                    if led != NO_SUIT:
                        follow = [c for c in hand if suit_of[c] == led]
                        if follow:
                            if free:  # cards of no suit, and top cards (tricks.follow_cards)
                                follow += [c for c in hand if suit_of[c] < 0]
                                follow.sort()
                            legal = follow
                    k = len(legal)
                    if not k:
                        raise IndexError("Cannot choose from an empty sequence")
                    b = bits[k]
                    r = getrandbits(b)
                    while r >= k:
                        r = getrandbits(b)
                    card = legal[r]
                    hand.remove(card)
                    trick[i] = card
                    if led == NO_SUIT:
                        suit = suit_of[card]
                        if suit >= 0:  # tricks.sets_led
                            led = suit
                keys = led_keys[led]  # winning_index, by looking the keys up
                best = 0
                best_key = -1
                for i, card in enumerate(trick):
                    key = keys[card]
                    if key > best_key:
                        best_key = key
                        best = i
            winner = (leader + best) % n
            tricks.append(_new_tuple(Trick, (leader, tuple(trick), winner)))
            won[winner] += 1
            if not hands[winner]:
                break
            leader = winner
        self._tricks_over(leader, winner)

    def _compiled_tricks(self, fast, rng, slot_of, led_keys) -> None:
        """:meth:`_random_tricks`'s whole tricks played by runtime.playout_fast's kernel, which draws from
        ``rng``'s own state (the same draws, so the same cards); the state ends as the loop leaves it."""
        table = self.table
        key = ("playout_fast", self.trump, self.direction)
        store = self.rules.derived("playout_fast_tables", _new_store)
        tables = store.get(key)
        if tables is None:
            tables = store[key] = fast.tables(slot_of, table.suit_of, led_keys, len(self.rules.suits))
        played = fast.play_tricks(rng, self.hands, self.leader, tables, table.free_no_suit)
        won = self.won
        self.tricks += [_new_tuple(Trick, (row[0], tuple(row[1:-1]), row[-1])) for row in played]
        for row in played:
            won[row[-1]] += 1
        self._tricks_over(played[-1][0], played[-1][-1])

    def _tricks_over(self, leader: int, winner: int) -> None:
        """Leave the state as :meth:`_play` leaves it after the last trick (led by ``leader``, won by
        ``winner``), then score the hand: the end of both random playouts, Python's and the compiled."""
        self.trick = []
        self.led = NO_SUIT
        self.seat = winner
        self.leader = leader
        self._finish()

    # ------------------------------------------------------------------ scoring
    def _finish_without_contract(self) -> None:
        self.phase = OVER
        self.seat = -1
        self.books = [0] * self.rules.sides
        self.score = [0] * self.rules.sides
        self.made = None

    def books_so_far(self) -> list[int]:
        """Books of each side from the tricks played, plus the discards' book."""
        rules = self.rules
        books = [0] * rules.sides
        for seat, won in enumerate(self.won):
            books[rules.side_of[seat]] += won
        # The discards form a book only once all are laid away (a hand stopped mid-discard,
        # records.md in_progress, has no book of the cards laid away so far).
        side = None if self.phase == DISCARD else self._kittyr.book_side(
            rules.side_of, self.declarer, self.discards, self.tricks)
        if side is not None:
            books[side] += 1
        return books

    def _finish(self) -> None:
        self.phase = OVER
        self.seat = -1
        books = self.books = self.books_so_far()
        if self.reneges:
            self.score = self.score_books(books)
            return
        # Without reneges the score and ``made`` hang on the declaring side, the bid, whether it is
        # played without trumps and the books alone (scoring.score_hand's memo): remembered per
        # ruleset by those, as finding them costs less than the contract's look-up and the call.
        rules = self.rules
        key = (rules.side_of[self.declarer], self.bid, self.trump == NO_TRUMP, tuple(books))
        memo = rules.derived("finish_memo", _new_store)
        known = memo.get(key)
        if known is None:
            score = self.score = self.score_books(books)
            if len(memo) < _FINISH_MEMO_CAP:
                memo[key] = (self.made, tuple(score))
            return
        self.made = known[0]
        self.score = list(known[1])

    def penalised_books(self, books: list[int]) -> list[int]:
        """Books after this hand's renege penalties (scoring.py)."""
        return penalised_books(self.rules, books, self.reneges)

    def score_books(self, books: list[int]) -> list[int]:
        """The score change of each side if the sides took ``books``; sets ``made`` (scoring.py)."""
        result = score_hand(self.rules, self.contract_value, books, self.reneges)
        if self.reneges:
            self.books = result.books
        self.made = result.made
        return result.score

    # ------------------------------------------------------------------ copies and views
    def clone(self) -> "HandState":
        """An independent copy: applying actions to it leaves this state unchanged."""
        other = HandState.__new__(HandState)
        for name in HandState.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = [list(h) for h in self.hands]
        other.kitty = list(self.kitty)
        other.calls = list(self.calls)
        other.passed = list(self.passed)
        other.discards = list(self.discards)
        other.pending = list(self.pending)
        other.trick = list(self.trick)
        other.tricks = list(self.tricks)
        other.won = list(self.won)
        other.out = list(self.out)
        other.reneges = list(self.reneges)
        other.renege_plays = list(self.renege_plays)
        other._steps = list(self._steps)
        other.books = None if self.books is None else list(self.books)
        other.score = None if self.score is None else list(self.score)
        other._legal = None
        return other

    def observation(self, seat: int) -> dict:
        """What ``seat`` may know at this point, as plain data (card and call names)."""
        rules = self.rules
        names = rules.action_names
        cards = rules.cards
        obs = {
            "seat": seat,
            "dealer": self.dealer,
            "phase": self.phase_name,
            "to_move": self.current_player(),
            "hand": [cards[c] for c in self.hands[seat]],
            "auction": [names[a] for _, a in self.calls],
            "contract": self.contract,
            "trick": [cards[c] for c in self.trick],
            "trick_leader": self.leader if self.phase == PLAY else None,
            "tricks": [
                {"leader": l, "cards": [cards[c] for c in t], "winner": w}
                for l, t, w in self.tricks
            ],
            "tricks_won": list(self.won),
            "kitty": [cards[c] for c in self.kitty] if self.kitty_seen else None,
            "out": [cards[c] for c in self.out],
        }
        if seat == self.kitty_taker():  # the seat that laid them away (the declarer unless the rules say)
            obs["discards"] = [cards[c] for c in self.discards]
        if self.phase == OVER:
            obs["books"] = list(self.books)
            obs["score"] = list(self.score)
        return obs

    # ------------------------------------------------------------------ errors
    def explain_illegal(self, action: int) -> IllegalAction:
        """The IllegalAction for ``action`` here, naming the rule and the seat."""
        rules = self.rules
        seat = self.seat
        phase = self.phase
        names = rules.action_names
        what = names[action] if 0 <= action < len(names) else repr(action)
        if phase == OVER:
            return IllegalAction(None, "hand-over", f"the hand is over; {what} cannot be played")
        if phase == EXCHANGE:
            return IllegalAction(None, "swap", f"the hand waits for the exchanges of the cards that leave play; "
                                               f"{what} cannot be played")
        if phase == AUCTION:
            return self._auction.explain(self, action, what)
        if phase in (DECLARE_TRUMP, DECLARE_DIRECTION):
            allowed = ", ".join(names[a] for a in self._compute_legal())
            return IllegalAction(seat, "declare", f"seat {seat} must declare one of: {allowed} (not {what})")
        if action >= rules.n_cards:
            if phase == PLAY and self.table is None:
                return IllegalAction(seat, "declare",
                                     f"seat {seat} must lead a card (its suit is trump) or declare notrump, not {what}")
            return IllegalAction(seat, "wrong-phase",
                                 f"seat {seat} must {'discard' if phase == DISCARD else 'play'} a card, not {what}")
        if action not in self.hands[seat]:
            return IllegalAction(seat, "not-in-hand", f"seat {seat} does not hold {what}")
        if self.table is None:
            return IllegalAction(seat, "declare", f"seat {seat} cannot name trump with {what}: it has no suit")
        # The only other reason a held card is refused: failing to follow suit.
        suit_of = self.table.suit_of
        led = self.led
        follow = [c for c in self.hands[seat] if suit_of[c] == led]
        held = ", ".join(rules.cards[c] for c in follow)
        # Jokers and promoted cards follow the trump suit without being of it: say so.
        odd = [rules.cards[c] for c in follow if rules.card_suit[c] != led]
        if odd:
            held += f"; {', '.join(odd)} {'is a trump' if len(odd) == 1 else 'are trumps'}"
        return IllegalAction(seat, "follow-suit", f"seat {seat} must follow {rules.suit_names[led]} (holds {held})")
