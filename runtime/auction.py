"""The auction's one interpreter: who calls, which calls are legal, when it ends.

:class:`AuctionRules` is the only code that reads the Ruleset's auction settings
(``first_caller``, ``rounds``, ``passes_end``, ``if_all_pass``, ``dealer_may_take``,
``redeal_cards``, ``must_bid``, ``overcall_by``, ``overcall_partner``, ``dealer_bids_from``).
:class:`runtime.hand.HandState` keeps the auction's state (calls, passes, the high bid)
and asks this module what it means; bots, records and the terminal ask the hand (or
these rules), never the settings.
"""

from __future__ import annotations

from .errors import IllegalAction
from .ruleset import Ruleset
from .seats import describe, resolve


class AuctionRules:
    """The auction settings of one ruleset, read once, with the questions asked of them."""

    __slots__ = ("rules", "first_caller", "once", "passes_end", "all_pass", "may_take",
                 "redeal_cards", "must_bid", "overcall_by", "partner_bar", "dealer_from", "_by_situation")

    def __init__(self, rules: Ruleset):
        self.rules = rules
        self.first_caller = rules.first_caller
        self.once = rules.rounds == "once"
        self.passes_end = rules.passes_end
        self.all_pass = rules.if_all_pass
        self.may_take = rules.dealer_may_take
        self.redeal_cards = rules.redeal_cards
        # Seats named by role (from the dealer) whose first call may not be a pass.
        self.must_bid = rules.must_bid
        # How many rank steps an overcall must outrank the high bid by (first_above reads it).
        self.overcall_by = rules.overcall_by
        # A player may not bid while its partner holds the high bid (only where there are partners).
        self.partner_bar = not rules.overcall_partner and rules.sides < rules.players
        # The lowest number a dealer left to bid may bid (0: the ladder's lowest).
        self.dealer_from = rules.dealer_bids_from
        # The legal calls by situation (high bid, dealer on call after all passed, take open), where
        # nothing else decides them (no redeal call for weak hands, nobody bound to bid): remembered.
        self._by_situation: dict[tuple, tuple[int, ...]] | None = (
            None if self.redeal_cards or self.must_bid else {})

    # --------------------------------------------------------------- plain facts
    def first_seat(self, dealer: int) -> int:
        """The seat that makes the first call when ``dealer`` deals."""
        return (dealer + self.first_caller) % self.rules.players

    @property
    def offers_take(self) -> bool:
        """Whether the dealer may ever take a high bid by matching it (a ``take`` call exists)."""
        return self.may_take

    @property
    def offers_redeal(self) -> bool:
        """Whether a ``redeal`` call can ever be legal (a weak hand, or a dealer left to bid)."""
        return bool(self.redeal_cards) or self.all_pass == "dealer-bids-or-redeal"

    @property
    def all_pass_may_throw_in(self) -> bool:
        """Whether a hand everyone passes can end thrown in (not forced on the dealer)."""
        return self.all_pass in ("redeal", "dealer-bids-or-redeal")

    # --------------------------------------------------------------- legal calls
    def legal_calls(self, state) -> list[int]:
        """The calls the seat to act in ``state`` (a HandState in its auction) may make, by id."""
        return list(self.calls(state))

    def calls(self, state) -> tuple[int, ...] | list[int]:
        """:meth:`legal_calls`, for reading only: the list kept for this situation, not a copy of it."""
        known = self._by_situation
        if known is None:
            return self._legal_calls(state)
        seat = state.seat
        high_bid = state.high_bid
        key: tuple = (high_bid, high_bid < 0 and _everyone_else_passed(state),
               self.may_take and seat == state.dealer and high_bid >= 0 and state.high_seat != seat)
        if self.partner_bar:  # whether the high bid is the partner's decides the bids too
            key += (self._partner_holds_high(state),)
        legal = known.get(key)
        if legal is None:
            legal = known[key] = tuple(self._legal_calls(state))
        return legal

    def _legal_calls(self, state) -> list[int]:
        """:meth:`legal_calls` worked out from the rules."""
        rules = self.rules
        seat = state.seat
        first = rules.first_bid_action
        n_bids = len(rules.bids)
        high_bid = state.high_bid
        if high_bid < 0 and _everyone_else_passed(state):
            rule = self.all_pass
            if rule == "dealer-bids-lowest":
                legal = [first + i for i in self.dealer_lowest_bids()]  # from dealer_floor, found there once
            else:
                # A dealer left to bid bids from dealer_from up (the whole ladder where no floor is set).
                floor = 0 if rule == "redeal" else self.dealer_floor()
                legal = [] if rule != "redeal" else [rules.pass_action]
                legal.extend(range(first + floor, first + n_bids))
                if rule == "dealer-bids-or-redeal":
                    legal.append(rules.redeal_action)
        else:
            legal = [rules.pass_action]
            if self.partner_bar and self._partner_holds_high(state):
                lowest = n_bids  # no bid over the partner's
            else:
                lowest = 0 if high_bid < 0 else first_above(rules, high_bid)
            legal.extend(range(first + lowest, first + n_bids))
            if self.may_take and seat == state.dealer and high_bid >= 0 and state.high_seat != seat:
                legal.append(rules.take_action)
        if self.redeal_cards and rules.redeal_action not in legal and self._card_redeal_bar(state, seat) is None:
            legal.append(rules.redeal_action)
        if self.must_bid and self._bound_to_bid(state) is not None and len(legal) > 1 \
                and rules.pass_action in legal:
            legal.remove(rules.pass_action)  # its first call must be another call (a bid, take or redeal)
        return legal

    def why_no_bid(self, state) -> str:
        """Why the seat to act in ``state`` has no bid open while a high bid stands, in words
        (a hint's reason for its pass: the partner holds the high bid, or none outranks it enough)."""
        if self.partner_bar and self._partner_holds_high(state):
            return "the partner holds the high bid, and a player may not overcall their partner"
        if self.overcall_by > 1:
            return f"no bid is left that outranks the high bid by {self.overcall_by} steps"
        return "no bid is left that outranks the high bid"

    def dealer_floor(self) -> int:
        """The ladder index of the lowest bid a dealer left to bid (everyone else passed) may bid."""
        bids = self.rules.bids
        return next((i for i, bid in enumerate(bids) if bid.level >= self.dealer_from), len(bids) - 1)

    def dealer_lowest_bids(self) -> list[int]:
        """The ladder indices of the lowest bids a dealer left to bid may make: those of the
        lowest rank from :meth:`dealer_floor` up (all a dealer bound to the lowest bid may
        make; what the bots' auction model values a forced dealer at, runtime.bots.outbid)."""
        bids = self.rules.bids
        floor = self.dealer_floor()
        lowest = bids[floor].rank
        return [i for i in range(floor, len(bids)) if bids[i].rank == lowest]

    def _partner_holds_high(self, state) -> bool:
        """Whether the high bid in ``state`` is held by the partner of the seat to act."""
        high_seat = state.high_seat
        side_of = self.rules.side_of
        return state.high_bid >= 0 and high_seat != state.seat and side_of[high_seat] == side_of[state.seat]

    def _card_redeal_bar(self, state, seat: int) -> str | None:
        """Why ``seat`` may not throw its hand in for want of the ``redeal_cards`` (it holds
        one, or this would not be its first call), in the refusal's words; None where it may."""
        held = next((c for c in state.hands[seat] if c in self.redeal_cards), None)
        if held is not None:
            return f"it holds {self.rules.cards[held]}"
        if any(s == seat for s, _ in state.calls):
            return "it has called before"
        return None

    def _bound_to_bid(self, state):
        """The rule (a SeatRef of ``must_bid``) that forbids the seat to act a pass now, or None.

        Only a seat's first call is bound: once it has called, it may pass like anyone.
        """
        seat = state.seat
        if any(s == seat for s, _ in state.calls):
            return None
        players = self.rules.players
        for ref in self.must_bid:
            if resolve(ref, state.dealer, -1, players) == seat:
                return ref
        return None

    def as_take(self, state, action: int) -> int:
        """``action`` as the auction means it: the bid matching the high bid is ``take`` where take is legal.

        records.md and the terminal both let a dealer take by saying the bid it matches.
        """
        rules = self.rules
        if (state.high_bid >= 0 and action == rules.first_bid_action + state.high_bid
                and rules.take_action in state.legal_actions()):
            return rules.take_action
        return action

    # --------------------------------------------------------------- the order of calls
    def next_caller(self, seat: int, passed: list[bool], high_bid: int, high_seat: int, ncalls: int) -> int | None:
        """Who calls after ``seat``'s call (the auction as it then stands), or None when that call ended it."""
        n = self.rules.players
        if self.once:
            return (seat + 1) % n if ncalls < n else None
        passes = sum(passed)
        if passes < self.passes_end or (high_bid < 0 and passes < n):
            nxt = _next_active(seat, passed, n)
            if nxt != high_seat:
                return nxt
        return None

    def ends_auction(self, state, action: int) -> bool:
        """Whether ``action`` by the seat to act in ``state`` would end the auction."""
        rules = self.rules
        if action == rules.redeal_action or action == rules.take_action:
            return True
        passed, high_bid, high_seat = state.passed, state.high_bid, state.high_seat
        if action == rules.pass_action:
            passed = list(passed)
            passed[state.seat] = True
        else:
            high_bid, high_seat = action - rules.first_bid_action, state.seat
        return self.next_caller(state.seat, passed, high_bid, high_seat, len(state.calls) + 1) is None

    # --------------------------------------------------------------- refusals
    def explain(self, state, action: int, what: str) -> IllegalAction:
        """The IllegalAction for a refused call ``action`` (named ``what``), naming the rule."""
        rules = self.rules
        seat = state.seat
        if action == rules.pass_action:
            bound = self._bound_to_bid(state) if self.must_bid else None
            if bound is not None and not (state.high_bid < 0 and _everyone_else_passed(state)):
                role = "the first caller" if seat == self.first_seat(state.dealer) else describe(bound)
                return IllegalAction(seat, "must-bid", f"seat {seat} is {role} and may not pass")
            # Where the dealer may also throw the hand in, the message says so (a dealer's redeal).
            other = " or call redeal" if rules.redeal_action in self.legal_calls(state) else ""
            return IllegalAction(seat, "dealer-must-bid",
                                 f"seat {seat} is the dealer and must bid{other}: everyone else passed")
        if action == rules.take_action:
            if not self.may_take:
                why = "this variant has no take"
            elif seat != state.dealer:
                why = "only the dealer may, by matching another player's high bid"
            elif state.high_bid < 0:
                why = "there is no bid to match"
            else:
                why = "the high bid is its own"
            return IllegalAction(seat, "take", f"seat {seat} cannot take: {why}")
        if action == rules.redeal_action:
            return IllegalAction(seat, "redeal", f"seat {seat} cannot call redeal: {self._no_redeal(state)}")
        if rules.first_bid_action <= action < rules.first_trump_action:
            if state.high_bid >= 0:
                return self._refused_overcall(state, action, what)
            return self._refused_dealer_bid(state, rules.bids[action - rules.first_bid_action].level)
        return IllegalAction(seat, "wrong-phase", f"seat {seat} must pass or bid, not {what}")

    def _refused_dealer_bid(self, state, level: int) -> IllegalAction:
        """The IllegalAction for a bid at ``level`` refused to a dealer left to bid (everyone else
        passed), naming the rule it breaks: the floor ``dealer_bids_from`` sets, and where the
        dealer is bound to the lowest bid (``dealer-bids-lowest``), that bid."""
        rules = self.rules
        seat = state.seat
        open_calls = [rules.action_names[a] for a in self.legal_calls(state)]
        allowed = ", ".join(open_calls)
        floored = rules.bids[0].level < self.dealer_from
        below = floored and level < self.dealer_from
        must = [f"{self.dealer_from} or more"] if below else []
        if self.all_pass == "dealer-bids-lowest":
            at = f" at {rules.bids[self.dealer_floor()].level}" if floored else ""
            must.append(f"the lowest bid{at}")
        if not must:  # no rule of the dealer's own: say what is open
            return IllegalAction(seat, "dealer-bid", f"seat {seat} must call one of: {allowed}")
        return IllegalAction(seat, "dealer-bids-from" if below else "dealer-bid",
                             f"seat {seat} is the dealer, left to bid after everyone passed, and must bid "
                             f"{', '.join(must)}: " + (allowed if len(open_calls) == 1 else f"one of {allowed}"))

    def _refused_overcall(self, state, action: int, what: str) -> IllegalAction:
        """The IllegalAction for a bid ``action`` (named ``what``) refused over the high bid in ``state``."""
        rules = self.rules
        seat, high_seat = state.seat, state.high_seat
        high = rules.bids[state.high_bid].text
        if self.partner_bar and self._partner_holds_high(state):
            return IllegalAction(seat, "overcall-partner",
                                 f"seat {seat} may not bid over {high}: seat {high_seat}, the partner, holds it "
                                 "(a player may not overcall their partner)")
        bid = action - rules.first_bid_action
        if self.overcall_by > 1 and rules.bids[bid].rank > rules.bids[state.high_bid].rank:
            lowest = first_above(rules, state.high_bid)
            least = (f"an overcall must be {rules.bids[lowest].text} or higher" if lowest < len(rules.bids)
                     else "no bid of the ladder is that high")
            return IllegalAction(seat, "overcall-by",
                                 f"seat {seat} bid {what}, which does not outrank {high} (seat {high_seat}) by "
                                 f"{self.overcall_by} steps: {least}")
        return IllegalAction(seat, "bid-too-low",
                             f"seat {seat} bid {what}, which does not outrank {high} (seat {high_seat})")

    def _no_redeal(self, state) -> str:
        """Why the seat to act in ``state`` may not call redeal, with who may (the refusal's words)."""
        if not self.offers_redeal:
            passing = " (the hand is thrown in when everyone passes)" if self.all_pass_may_throw_in else ""
            return "this variant has no redeal call" + passing
        rules = self.rules
        who = []
        why = ""
        if self.redeal_cards:
            who.append(f"a hand without {_cards_words(rules, self.redeal_cards)}")
            bar = self._card_redeal_bar(state, state.seat)
            if bar is not None:
                why = bar + ", and "
        if self.all_pass == "dealer-bids-or-redeal":
            who.append("the dealer when everyone else passed")
        return why + f"only {who[0]} may" + "".join(f", or {w}" for w in who[1:])


def _cards_words(rules: Ruleset, cards: frozenset) -> str:
    """A set of cards in a few words: ``any J, Q or K`` where it is every card of some ranks
    (rank then suit, records.md's spelling), else the cards themselves."""
    suited = {i for i, name in enumerate(rules.cards) if name[-1:] in rules.suits}
    ranks = list(dict.fromkeys(rules.cards[c][:-1] for c in sorted(cards) if c in suited))  # in deck order
    every = {c for c in suited if rules.cards[c][:-1] in ranks}
    if ranks and every == set(cards):
        words = ranks
        prefix = "any "
    else:
        words = [rules.cards[c] for c in sorted(cards)]
        prefix = "any of "
    text = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
    return prefix + text


def auction_rules(rules: Ruleset) -> AuctionRules:
    """The :class:`AuctionRules` of ``rules``, built once per ruleset."""
    return rules.derived("auction", AuctionRules)


def first_above(rules: Ruleset, index: int) -> int:
    """The ladder index of the lowest bid that may overcall bid ``index``: one at least
    ``overcall_by`` rungs of the ladder above it (past the ladder's end where none is).

    A rung is a rank some bid has (a ``<`` of the ladder as the rulebook writes it): a rung a
    strain's levels leave out (3 notrump where notrump starts at 4) is no step, as a player
    counting up the ladder does not count it."""
    bids = rules.bids
    rank = bids[index].rank
    steps = rules.overcall_by
    i = index + 1
    while i < len(bids):
        if bids[i].rank != rank:  # the ladder is sorted by rank: a new rank is the next rung
            rank = bids[i].rank
            steps -= 1
            if not steps:
                break
        i += 1
    return i


def _everyone_else_passed(state) -> bool:
    """True when every other player has passed and none has bid (the dealer is on call)."""
    return sum(state.passed) == state.rules.players - 1 and not state.passed[state.seat]


def _next_active(seat: int, passed: list[bool], n: int) -> int:
    """The next seat after ``seat`` that has not passed (``seat`` itself when all others have)."""
    for step in range(1, n + 1):
        s = (seat + step) % n
        if not passed[s]:
            return s
    return seat
