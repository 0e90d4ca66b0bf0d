"""One hand as a state machine: auction, declaration, kitty, play, scoring.

The API follows OpenSpiel's games: ``current_player()``, ``legal_actions()``,
``apply_action()``, ``clone()``, ``is_terminal()``, ``observation(seat)`` and the
scores.  The deal is given to the constructor (chance is explicit: the caller deals
with a seeded generator, or replays a recorded deal), so a deal and a list of
actions replay a hand exactly.  The one chance event inside a hand (players
swapping jokers for random discards where jokers leave play) draws from a generator
seeded by the deal itself, so a record replays it without saying more.

Actions are small ints (see :class:`runtime.ruleset.Ruleset` for the layout):
card ids for discards and play, then pass, the bids, trump and direction choices,
take and redeal.  Everything variant-specific is read from the Ruleset's tables;
nothing here knows a variant's name.
"""

from __future__ import annotations

import random

from .errors import IllegalAction
from .ruleset import NO_SUIT, NO_TRUMP, Ruleset

AUCTION, DECLARE_TRUMP, DECLARE_DIRECTION, DISCARD, PLAY, OVER = range(6)
PHASE_NAMES = ("auction", "declare", "declare", "discard", "play", "over")


class HandState:
    """The state of one hand of a variant, from the first call to the score."""

    __slots__ = (
        "rules", "dealer", "hands", "kitty", "phase", "seat", "calls", "high_bid",
        "high_seat", "passed", "declarer", "bid", "trump", "direction", "table",
        "discards", "pending", "trick", "leader", "tricks", "won", "books", "score",
        "made", "dealt", "redealt", "out", "discard_target", "kitty_seen", "reneges",
        "led", "_refuse", "_legal",
    )

    def __init__(self, rules: Ruleset, dealer: int, hands: list[list[int]], kitty: list[int]):
        n = rules.players
        if len(hands) != n:
            raise ValueError(f"expected {n} hands, got {len(hands)}")
        self.rules = rules
        self.dealer = dealer
        self.hands = [sorted(h) for h in hands]
        self.dealt = tuple(tuple(h) for h in self.hands)  # as dealt, for records
        self.kitty = list(kitty)
        self.phase = AUCTION
        self.seat = (dealer + rules.first_caller) % n
        self.calls: list[tuple[int, int]] = []  # (seat, action)
        self.high_bid = -1  # index into rules.bids
        self.high_seat = -1
        self.passed = [False] * n
        self.declarer = -1
        self.bid = -1
        self.trump = NO_TRUMP
        self.direction = -1
        self.table = None
        self.discards: list[int] = []
        self.discard_target = rules.kitty_size
        self.pending: list[int] = []  # declaration steps still to come
        self.trick: list[int] = []
        self.leader = -1
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []
        self.won = [0] * n  # tricks won by each seat
        self.books: list[int] | None = None
        self.score: list[int] | None = None
        self.made: bool | None = None
        self.redealt = False
        self.out: list[int] = []  # cards that left play (jokers out in notrump)
        self.kitty_seen = rules.kitty_show == "auction"
        self.reneges: list[int] = []  # seats that reneged, in order (renege: penalty)
        self.led = NO_SUIT  # the suit to follow in the current trick, once a card sets it
        self._refuse = rules.renege == "refuse"  # read on every card: a bool, not a string
        self._legal: list[int] | None = None

    # ------------------------------------------------------------------ queries
    def current_player(self) -> int:
        """The seat to act, or -1 when the hand is over."""
        return -1 if self.phase == OVER else self.seat

    def is_terminal(self) -> bool:
        """True once the hand is scored (or ended without a contract)."""
        return self.phase == OVER

    @property
    def phase_name(self) -> str:
        """``auction``, ``declare``, ``discard``, ``play`` or ``over``."""
        if self.phase == PLAY and self.table is None:
            return "declare"  # notrump, or trump by the first lead
        return PHASE_NAMES[self.phase]

    @property
    def contract(self) -> dict | None:
        """The contract once the auction is won: declarer, side, bid, strain, trump, direction."""
        if self.declarer < 0:
            return None
        rules = self.rules
        bid = rules.bids[self.bid]
        return {
            "declarer": self.declarer,
            "side": rules.side_of[self.declarer],
            "bid": bid.level,
            "strain": rules.strains[bid.strain].name,
            "trump": None if self.trump < 0 else rules.suits[self.trump],
            "direction": rules.orders[self.direction] if self.direction >= 0 else None,
        }

    def legal_actions(self) -> list[int]:
        """Every action the current player may take, in increasing id order."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
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
                    if table.free_no_suit:
                        follow.extend(c for c in hand if suit_of[c] == NO_SUIT)
                        follow.sort()
                    return follow
            return hand[:]
        rules = self.rules
        if phase == AUCTION:
            return self._auction_legal()
        if phase == DISCARD:
            return list(self.hands[self.seat])
        if phase == DECLARE_TRUMP:
            strain = rules.strains[rules.bids[self.bid].strain]
            legal = [rules.first_trump_action + s for s in range(len(rules.suits))]
            if strain.trump == "suit-or-none":
                legal.append(rules.no_trump_action)
            return legal
        if phase == DECLARE_DIRECTION:
            strain = rules.strains[rules.bids[self.bid].strain]
            return [rules.first_direction_action + d for d in strain.directions]
        return []

    def _follow_cards(self, hand: list[int]) -> list[int] | None:
        """The cards of ``hand`` that follow the suit led, or None when free to play any."""
        if self.led == NO_SUIT:
            return None  # nothing led yet but cards of no suit: anything goes
        table = self.table
        suit_of = table.suit_of
        follow = [c for c in hand if suit_of[c] == self.led]
        if not follow:
            return None
        if table.free_no_suit:
            follow.extend(c for c in hand if suit_of[c] == NO_SUIT)
            follow.sort()
        return follow

    def _auction_legal(self) -> list[int]:
        rules = self.rules
        seat = self.seat
        first = rules.first_bid_action
        n_bids = len(rules.bids)
        if self.high_bid < 0 and self._everyone_else_passed():
            rule = rules.if_all_pass
            if rule == "dealer-bids-lowest":
                lowest = rules.bids[0].rank
                legal = [first + i for i in range(n_bids) if rules.bids[i].rank == lowest]
            else:
                legal = [] if rule != "redeal" else [rules.pass_action]
                legal.extend(range(first, first + n_bids))
                if rule == "dealer-bids-or-redeal":
                    legal.append(rules.redeal_action)
        else:
            legal = [rules.pass_action]
            lowest = 0 if self.high_bid < 0 else _first_above(rules, self.high_bid)
            legal.extend(range(first + lowest, first + n_bids))
            if (rules.dealer_may_take and seat == self.dealer and self.high_bid >= 0
                    and self.high_seat != seat):
                legal.append(rules.take_action)
        if rules.redeal_cards and not self._has_called(seat) and rules.redeal_action not in legal:
            if not any(c in rules.redeal_cards for c in self.hands[seat]):
                legal.append(rules.redeal_action)
        return legal

    def _everyone_else_passed(self) -> bool:
        """True when every other player has passed and none has bid (the dealer is on call)."""
        return sum(self.passed) == self.rules.players - 1 and not self.passed[self.seat]

    def _has_called(self, seat: int) -> bool:
        return any(s == seat for s, _ in self.calls)

    # ------------------------------------------------------------------ actions
    def apply_action(self, action: int) -> None:
        """Apply one action of the current player; IllegalAction if the rules refuse it."""
        legal = self._legal
        if legal is None:
            legal = self._compute_legal()
        if action not in legal:
            raise self.explain_illegal(action)
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
            self._discard(action)
        elif phase == DECLARE_TRUMP:
            rules = self.rules
            self.trump = NO_TRUMP if action == rules.no_trump_action else action - rules.first_trump_action
            self._next_declaration()
        elif phase == DECLARE_DIRECTION:
            self.direction = action - self.rules.first_direction_action
            self._next_declaration()

    def _call(self, action: int) -> None:
        rules = self.rules
        seat = self.seat
        n = rules.players
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
        nxt = self._next_caller(seat, self.passed, self.high_bid, self.high_seat, len(self.calls))
        if nxt is not None:
            self.seat = nxt
        elif self.high_bid < 0:
            self._finish_without_contract()
        else:
            self._end_auction()

    def _next_caller(self, seat: int, passed: list[bool], high_bid: int, high_seat: int, ncalls: int) -> int | None:
        """Who calls after ``seat``'s call (given the auction as it then stands), or None
        when that call ended the auction."""
        rules = self.rules
        n = rules.players
        if rules.rounds == "once":
            return (seat + 1) % n if ncalls < n else None
        passes = sum(passed)
        if passes < rules.passes_end or (high_bid < 0 and passes < n):
            nxt = self._next_active(seat, passed)
            if nxt != high_seat:
                return nxt
        return None

    def ends_auction(self, action: int) -> bool:
        """Whether calling ``action`` now would end the auction: nobody could call after it.

        For bots: raising a bid to shut others out is pointless on the last call.
        """
        rules = self.rules
        if action == rules.redeal_action or action == rules.take_action:
            return True
        passed, high_bid, high_seat = self.passed, self.high_bid, self.high_seat
        if action == rules.pass_action:
            passed = list(passed)
            passed[self.seat] = True
        else:
            high_bid, high_seat = action - rules.first_bid_action, self.seat
        return self._next_caller(self.seat, passed, high_bid, high_seat, len(self.calls) + 1) is None

    def _next_active(self, seat: int, passed: list[bool]) -> int:
        n = self.rules.players
        for step in range(1, n + 1):
            s = (seat + step) % n
            if not passed[s]:
                return s
        return seat

    def _end_auction(self) -> None:
        rules = self.rules
        self.declarer = self.seat = self.high_seat
        self.bid = self.high_bid
        strain = rules.strains[rules.bids[self.bid].strain]
        pending = []
        if strain.trump in ("suit", "suit-or-none"):
            pending.append(DECLARE_TRUMP)
        if len(strain.directions) == 1:
            self.direction = strain.directions[0]
        else:
            pending.append(DECLARE_DIRECTION)
        self.pending = pending
        if strain.trump == "none-or-first-lead":
            self._take_kitty()  # then the first lead (or a notrump call) declares
        elif rules.declare_before_kitty:
            self._next_declaration()
        else:
            self._take_kitty()

    def _next_declaration(self) -> None:
        if self.pending:
            self.phase = self.pending.pop(0)
            return
        rules = self.rules
        self.table = rules.tables[(self.trump, self.direction)]
        if self.table.trump != NO_TRUMP and rules.kitty_show == "suit-contracts":
            self.kitty_seen = True
        if rules.declare_before_kitty:
            self._take_kitty()
        else:
            self._start_play()

    def _declare_by_lead(self, action: int) -> None:
        rules = self.rules
        if action == rules.no_trump_action:
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
        hand = self.hands[self.declarer]
        table = self.table
        if table is not None and table.no_suit_out:
            # Extra cards leave play: the kitty's stay out, the declarer sets its own aside.
            suit_of = table.suit_of
            self.out.extend(c for c in self.kitty if suit_of[c] == NO_SUIT)
            hand.extend(c for c in self.kitty if suit_of[c] != NO_SUIT)
            own = [c for c in hand if suit_of[c] == NO_SUIT]
            for c in own:
                hand.remove(c)
            self.out.extend(own)
        else:
            hand.extend(self.kitty)
        hand.sort()
        self.discard_target = len(hand) - rules.hand_size
        if self.discard_target <= 0:
            self._after_discards()
            return
        self.phase = DISCARD
        self.seat = self.declarer

    def _discard(self, card: int) -> None:
        self.hands[self.seat].remove(card)
        self.discards.append(card)
        if len(self.discards) == self.discard_target:
            self._after_discards()

    def _after_discards(self) -> None:
        table = self.table
        if table is not None and table.no_suit_out:
            self._swap_out_extras()
        if self.rules.declare_before_kitty or self.table is not None:
            self._start_play()
        else:
            self.seat = self.declarer
            self._next_declaration()

    def _swap_out_extras(self) -> None:
        """Other players swap their cards of no suit for random face-down discards.

        ``discards`` keeps what the declarer laid away (records list it); the cards
        drawn from it are moved into the drawers' hands and listed in ``out``'s
        stead by the jokers they replaced.
        """
        rules = self.rules
        suit_of = self.table.suit_of
        rng = random.Random(self.deal_key())
        pile = list(self.discards)
        for step in range(1, rules.players):
            seat = (self.declarer + step) % rules.players
            hand = self.hands[seat]
            for card in [c for c in hand if suit_of[c] == NO_SUIT]:
                if not pile:
                    break
                drawn = pile.pop(rng.randrange(len(pile)))
                hand.remove(card)
                hand.append(drawn)
                self.out.append(card)
            hand.sort()

    def deal_key(self) -> str:
        """A text naming the deal, seeding the hand's own chance events."""
        names = self.rules.cards
        parts = ["|".join(names[c] for c in h) for h in self.dealt]
        parts.append("|".join(names[c] for c in self.kitty))
        return f"{self.dealer}/" + "/".join(parts)

    def _start_play(self) -> None:
        rules = self.rules
        self.phase = PLAY
        if rules.first_leader == "eldest":
            self.seat = (self.dealer + 1) % rules.players
        else:
            self.seat = self.declarer
        self.leader = self.seat

    def _play(self, card: int) -> None:
        seat = self.seat
        hand = self.hands[seat]
        trick = self.trick
        if trick and not self._refuse:
            follow = self._follow_cards(hand)
            if follow is not None and card not in follow:
                self.reneges.append(seat)
        hand.remove(card)
        trick.append(card)
        if self.led == NO_SUIT:
            self.led = self.table.suit_of[card]
        n = self.rules.players
        if len(trick) < n:
            self.seat = (seat + 1) % n
            return
        winner = (self.leader + self._winning_index(trick)) % n
        self.tricks.append((self.leader, tuple(trick), winner))
        self.won[winner] += 1
        self.trick = []
        self.led = NO_SUIT
        if self.hands[winner]:
            self.seat = self.leader = winner
        else:
            self._finish()

    def _winning_index(self, trick: list[int]) -> int:
        """The position in ``trick`` of the card that takes it.

        The highest trump, else the highest card of the suit led.  A trick of cards
        that can none of them win (all of no suit: jokers in notrump, in a variant
        with at least as many such cards as players) goes to its leader.
        """
        table = self.table
        suit_of = table.suit_of
        power = table.power
        trump = table.trump
        led = self.led
        # Until a card of a suit is played, the suit led is "no suit", so a trick of
        # only such cards goes to its first card, the leader's.
        best = 0
        best_key = -1
        for i, card in enumerate(trick):
            suit = suit_of[card]
            if suit == trump:
                key = power[card] + 10000
            elif suit == led:
                key = power[card]
            else:
                continue
            if key > best_key:
                best_key = key
                best = i
        return best

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
        if self.discards:
            if rules.discards_book == "declarer":
                books[rules.side_of[self.declarer]] += 1
            elif rules.discards_book == "first-trick" and self.tricks:
                books[rules.side_of[self.tricks[0][2]]] += 1
        return books

    def _finish(self) -> None:
        self.phase = OVER
        self.seat = -1
        self.books = self.books_so_far()
        self.score = self.score_books(self.books)

    def penalised_books(self, books: list[int]) -> list[int]:
        """Books after renege penalties: each renege gives the other side ``renege_books``.

        A side that took fewer books than it owes is scored as if the other side took
        every book of the hand.
        """
        rules = self.rules
        books = list(books)
        total = sum(books)
        for seat in self.reneges:
            side = rules.side_of[seat]
            other = 1 - side
            if books[side] < rules.renege_books:
                books = [0] * rules.sides
                books[other] = total
                break
            books[side] -= rules.renege_books
            books[other] += rules.renege_books
        return books

    def score_books(self, books: list[int]) -> list[int]:
        """The score change of each side if the sides took ``books``; sets ``made``."""
        rules = self.rules
        if self.reneges:
            books = self.penalised_books(books)
            self.books = books
        side = rules.side_of[self.declarer]
        total = sum(books)
        declarer_books = books[side]
        defender_books = total - declarer_books
        bid = rules.bids[self.bid]
        env = {
            "bid": bid.level,
            "books": declarer_books,
            "over": declarer_books - 6,
            "defender_books": defender_books,
            "defender_over": defender_books - 6,
            "total_books": total,
            "notrump": self.trump == NO_TRUMP,
            "sweep": declarer_books == total,
            "own_books": declarer_books,
        }
        scoring = rules.scoring
        made = bool(scoring.made(env))
        self.made = made
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
        return score

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
        if seat == self.declarer:
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
        if phase == AUCTION:
            return self._explain_call(action, what)
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

    def _explain_call(self, action: int, what: str) -> IllegalAction:
        rules = self.rules
        seat = self.seat
        legal = self._compute_legal()
        if action == rules.pass_action:
            return IllegalAction(seat, "dealer-must-bid",
                                 f"seat {seat} is the dealer and must bid: everyone else passed")
        if action == rules.take_action:
            if not rules.dealer_may_take:
                why = "this variant has no take"
            elif seat != self.dealer:
                why = "only the dealer may, by matching another player's high bid"
            elif self.high_bid < 0:
                why = "there is no bid to match"
            else:
                why = "the high bid is its own"
            return IllegalAction(seat, "take", f"seat {seat} cannot take: {why}")
        if action == rules.redeal_action:
            return IllegalAction(seat, "redeal", f"seat {seat} cannot call redeal here")
        if rules.first_bid_action <= action < rules.first_trump_action:
            if self.high_bid >= 0:
                high = rules.bids[self.high_bid].text
                return IllegalAction(seat, "bid-too-low",
                                     f"seat {seat} bid {what}, which does not outrank {high} (seat {self.high_seat})")
            allowed = ", ".join(rules.action_names[a] for a in legal)
            return IllegalAction(seat, "dealer-bid", f"seat {seat} must call one of: {allowed}")
        return IllegalAction(seat, "wrong-phase", f"seat {seat} must pass or bid, not {what}")


def _first_above(rules: Ruleset, index: int) -> int:
    """The ladder index of the lowest bid that outranks bid ``index``."""
    bids = rules.bids
    rank = bids[index].rank
    i = index + 1
    while i < len(bids) and bids[i].rank <= rank:
        i += 1
    return i
