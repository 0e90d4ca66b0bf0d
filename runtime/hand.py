"""One hand as a state machine: auction, declaration, kitty, play, scoring.

The API follows OpenSpiel's games: ``current_player()``, ``legal_actions()``,
``apply_action()``, ``clone()``, ``is_terminal()``, ``observation(seat)`` and the
scores.  The deal is given to the constructor (chance is explicit: the caller deals
with a seeded generator, or replays a recorded deal), so a deal and a list of
actions replay a hand exactly.

Actions are small ints (see :class:`runtime.ruleset.Ruleset` for the layout):
card ids for discards and play, then pass, the bids, trump and direction choices.
Everything variant-specific is read from the Ruleset's tables; nothing here knows a
variant's name.
"""

from __future__ import annotations

from .errors import IllegalAction
from .ruleset import NO_SUIT, NO_TRUMP, Ruleset

AUCTION, DECLARE_TRUMP, DECLARE_DIRECTION, DISCARD, PLAY, OVER = range(6)
PHASE_NAMES = ("auction", "declare", "declare", "discard", "play", "over")


class HandState:
    """The state of one hand of a variant, from the first call to the score."""

    __slots__ = (
        "rules", "dealer", "hands", "kitty", "phase", "seat", "calls", "high_bid",
        "high_seat", "passes", "declarer", "bid", "trump", "direction", "table",
        "discards", "pending", "trick", "leader", "tricks", "won", "books", "score",
        "made", "dealt", "_legal",
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
        self.passes = 0
        self.declarer = -1
        self.bid = -1
        self.trump = NO_TRUMP
        self.direction = -1
        self.table = None
        self.discards: list[int] = []
        self.pending: list[int] = []  # declaration steps still to come
        self.trick: list[int] = []
        self.leader = -1
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []
        self.won = [0] * n  # tricks won by each seat
        self.books: list[int] | None = None
        self.score: list[int] | None = None
        self.made: bool | None = None
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
        rules = self.rules
        if phase == PLAY:
            hand = self.hands[self.seat]
            trick = self.trick
            if trick:
                suit_of = self.table.suit_of
                for card in trick:
                    led = suit_of[card]
                    if led != NO_SUIT:
                        follow = [c for c in hand if suit_of[c] == led]
                        if follow:
                            return follow
                        break
            return list(hand)
        if phase == AUCTION:
            legal = [] if self._dealer_forced() else [rules.pass_action]
            first = rules.first_bid_action
            lowest = 0 if self.high_bid < 0 else _first_above(rules, self.high_bid)
            legal.extend(range(first + lowest, first + len(rules.bids)))
            return legal
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

    def _dealer_forced(self) -> bool:
        rules = self.rules
        return (rules.dealer_must_bid and self.seat == self.dealer and self.high_bid < 0)

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
        self.calls.append((seat, action))
        if action == rules.pass_action:
            self.passes += 1
        else:
            self.high_bid = action - rules.first_bid_action
            self.high_seat = seat
        if len(self.calls) < rules.players:
            self.seat = (seat + 1) % rules.players
            return
        if self.high_bid < 0:
            self._finish_without_contract()
            return
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
        if rules.declare_before_kitty:
            self._next_declaration()
        else:
            self._take_kitty()

    def _next_declaration(self) -> None:
        if self.pending:
            self.phase = self.pending.pop(0)
            return
        rules = self.rules
        self.table = rules.tables[(self.trump, self.direction)]
        if rules.declare_before_kitty:
            self._take_kitty()
        else:
            self._start_play()

    def _take_kitty(self) -> None:
        rules = self.rules
        if rules.kitty_size and self.kitty:
            hand = self.hands[self.declarer]
            hand.extend(self.kitty)
            hand.sort()
            self.phase = DISCARD
            self.seat = self.declarer
        else:
            self._after_discards()

    def _discard(self, card: int) -> None:
        self.hands[self.seat].remove(card)
        self.discards.append(card)
        if len(self.discards) == self.rules.kitty_size:
            self._after_discards()

    def _after_discards(self) -> None:
        if self.rules.declare_before_kitty:
            self._start_play()
        else:
            self.seat = self.declarer
            self._next_declaration()

    def _start_play(self) -> None:
        rules = self.rules
        self.phase = PLAY
        if rules.first_leader == "eldest":
            self.seat = (self.dealer + 1) % rules.players
        else:
            self.seat = self.declarer
        self.leader = self.seat

    def _play(self, card: int) -> None:
        rules = self.rules
        self.hands[self.seat].remove(card)
        trick = self.trick
        trick.append(card)
        n = rules.players
        if len(trick) < n:
            self.seat = (self.seat + 1) % n
            return
        winner = (self.leader + self._winning_index(trick)) % n
        self.tricks.append((self.leader, tuple(trick), winner))
        self.won[winner] += 1
        self.trick = []
        if self.hands[winner]:
            self.seat = self.leader = winner
        else:
            self._finish()

    def _winning_index(self, trick: list[int]) -> int:
        table = self.table
        suit_of = table.suit_of
        power = table.power
        trump = table.trump
        led = NO_SUIT
        for card in trick:
            led = suit_of[card]
            if led != NO_SUIT:
                break
        best = -1
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

    def _finish(self) -> None:
        rules = self.rules
        self.phase = OVER
        self.seat = -1
        books = [0] * rules.sides
        for seat, won in enumerate(self.won):
            books[rules.side_of[seat]] += won
        side = rules.side_of[self.declarer]
        if rules.discards_book == "declarer" and self.discards:
            books[side] += 1
        self.books = books
        self.score = self.score_books(books)

    def score_books(self, books: list[int]) -> list[int]:
        """The score change of each side if the sides took ``books``; sets ``made``."""
        rules = self.rules
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
                env["own_books"] = declarer_books
                score[s] = scoring.declarer(env) * multiplier
            else:
                env["own_books"] = books[s]
                score[s] = scoring.defender(env) * multiplier
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
        other.discards = list(self.discards)
        other.pending = list(self.pending)
        other.trick = list(self.trick)
        other.tricks = list(self.tricks)
        other.won = list(self.won)
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
        }
        if seat == self.declarer:
            obs["discards"] = [cards[c] for c in self.discards]
        if self.phase == OVER:
            obs["books"] = self.books
            obs["score"] = self.score
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
            if action == rules.pass_action:
                return IllegalAction(seat, "dealer-must-bid",
                                     f"seat {seat} is the dealer and must bid: everyone else passed")
            if rules.first_bid_action <= action < rules.first_trump_action:
                high = rules.bids[self.high_bid].text
                return IllegalAction(seat, "bid-too-low",
                                     f"seat {seat} bid {what}, which does not outrank {high} (seat {self.high_seat})")
            return IllegalAction(seat, "wrong-phase", f"seat {seat} must pass or bid, not {what}")
        if phase in (DECLARE_TRUMP, DECLARE_DIRECTION):
            allowed = ", ".join(names[a] for a in self._compute_legal())
            return IllegalAction(seat, "declare", f"seat {seat} must declare one of: {allowed} (not {what})")
        if action >= rules.n_cards:
            return IllegalAction(seat, "wrong-phase",
                                 f"seat {seat} must {'discard' if phase == DISCARD else 'play'} a card, not {what}")
        if action not in self.hands[seat]:
            return IllegalAction(seat, "not-in-hand", f"seat {seat} does not hold {what}")
        # The only other reason a held card is refused: failing to follow suit.
        suit_of = self.table.suit_of
        led = next(suit_of[c] for c in self.trick if suit_of[c] != NO_SUIT)
        follow = [c for c in self.hands[seat] if suit_of[c] == led]
        led_name = "trumps" if led == self.trump else rules.suit_names[led]
        held = ", ".join(rules.cards[c] for c in follow)
        return IllegalAction(seat, "follow-suit", f"seat {seat} must follow {led_name} (holds {held})")


def _first_above(rules: Ruleset, index: int) -> int:
    """The ladder index of the lowest bid that outranks bid ``index``."""
    bids = rules.bids
    rank = bids[index].rank
    i = index + 1
    while i < len(bids) and bids[i].rank <= rank:
        i += 1
    return i
