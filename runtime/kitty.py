"""The kitty's one interpreter: who takes it, who sees it when, where its discards' book goes.

:class:`KittyRules` is the only code that reads ``declare_before_kitty``,
``discards_book``, ``kitty_show`` and ``kitty_taken_by``.  The hand asks it when the
kitty is shown, who takes it (the declarer, or another seat named by role), whether
the declarer declares before it is taken, and which side the laid-away cards' book
counts for; bots, the solver and ``analyze`` ask the hand
(:meth:`runtime.hand.HandState.discards_book_pending` and friends).
"""

from __future__ import annotations

import random

from .errors import IllegalAction
from .ruleset import NO_SUIT, NO_TRUMP, PlayTable, Ruleset
from .seats import resolve


class KittyRules:
    """The kitty settings of one ruleset, read once, with the questions asked of them."""

    __slots__ = ("rules", "size", "declare_first", "shown_at_deal", "shown_at_auction_end",
                 "shown_once_declared_in", "book_to_declarer", "book_to_defenders", "book_to_first_trick",
                 "taker")

    def __init__(self, rules: Ruleset):
        self.rules = rules
        self.size = rules.kitty_size
        # The declaration comes before the kitty is taken (except where the first lead names trump).
        self.declare_first = rules.declare_before_kitty
        # Face up for everyone from the deal on; or turned up once the auction is won, or
        # once the contract is declared, in the contracts kitty_show_contracts names
        # ("suit", "notrump"; none named: every contract).
        when = rules.kitty_show
        kinds = frozenset(rules.kitty_show_contracts or ("suit", "notrump"))
        self.shown_at_deal = when == "deal"
        # Where the kitty is taken before the declaration, "once declared" comes too late:
        # it is shown when the auction is won, where the bid itself says the contract's kind
        # (rules.md §8; checks.py refuses the strains whose bid does not say it).
        shown_on_bid = when == "auction-end" or (when == "declaration" and not self.declare_first)
        self.shown_at_auction_end = kinds if shown_on_bid else frozenset()
        self.shown_once_declared_in = kinds if when == "declaration" and self.declare_first else frozenset()
        # The laid-away cards count as one book: of the declaring side, of the side against it
        # (two sides: checks.py refuses the setting otherwise), or of the first trick's winner.
        self.book_to_declarer = rules.discards_book == "declarer"
        self.book_to_defenders = rules.discards_book == "defenders"
        self.book_to_first_trick = rules.discards_book == "first-trick"
        # Who picks the kitty up and lays cards away: a seat named by role (runtime.seats).
        self.taker = rules.kitty_taken_by

    def taker_seat(self, dealer: int, declarer: int) -> int:
        """The seat that takes the kitty and lays away as many cards, once ``declarer`` is known."""
        return resolve(self.taker, dealer, declarer, self.rules.players)

    @property
    def has_discards_book(self) -> bool:
        """Whether the cards laid away count as a book for some side at all."""
        return bool(self.size) and (self.book_to_declarer or self.book_to_defenders or self.book_to_first_trick)

    @property
    def defenders_own_book(self) -> int:
        """Books of a hand the declaring side can never take: 1 where the discards are the defenders' book."""
        return 1 if self.size and self.book_to_defenders else 0

    def declares_before_taking(self, by_first_lead: bool) -> bool:
        """Whether the declarer declares before taking the kitty (``by_first_lead``: the strain's lead names trump)."""
        return self.declare_first and not by_first_lead

    def shown_once_declared(self, table: PlayTable) -> bool:
        """Whether the kitty is turned face up once the contract is declared (played with ``table``).

        Also where it is shown at the auction's end in some contracts only and the
        declaration is what said which kind this is (see :meth:`shown_at_auction_won`).
        """
        kind = _kind(table.trump)
        return kind in self.shown_once_declared_in or kind in self.shown_at_auction_end

    def shown_at_auction_won(self, kind: str | None) -> bool:
        """Whether the kitty is turned face up as soon as the auction is won.

        ``kind`` is what the winning bid itself says of the contract (``suit``,
        ``notrump``, or None where the declaration decides: :attr:`Declaration.kind`).
        Where the kitty is shown in only some contracts and the kind is not known yet,
        it is shown once the declaration says it (:meth:`shown_once_declared`).
        """
        kinds = self.shown_at_auction_end
        if not kinds:
            return False
        if len(kinds) == 2:
            return True
        return kind in kinds

    def book_side(self, side_of, declarer: int, discards: list[int], tricks: list) -> int | None:
        """The side the discards' book counts for now, or None (no discards, no such book, or still pending)."""
        if not discards:
            return None
        if self.book_to_declarer:
            return side_of[declarer]
        if self.book_to_defenders:
            return 1 - side_of[declarer]  # the other of the two sides
        if self.book_to_first_trick and tricks:
            return side_of[tricks[0][2]]
        return None

    def book_pending(self, discards: list[int], tricks: list) -> bool:
        """True while the discards' book waits for the first trick's winner."""
        return self.book_to_first_trick and bool(discards) and not tricks

    # --------------------------------------------------------------- moving cards
    @staticmethod
    def pick_up(hand: list[int], kitty: list[int], table: PlayTable | None, out: list[int]) -> None:
        """The taker's ``hand`` takes ``kitty`` (sorted); where cards of no suit leave play, they go to ``out``."""
        if table is not None and table.no_suit_out:
            # Extra cards leave play: the kitty's stay out, the taker sets its own aside.
            suit_of = table.suit_of
            out.extend(c for c in kitty if suit_of[c] == NO_SUIT)
            hand.extend(c for c in kitty if suit_of[c] != NO_SUIT)
            own = [c for c in hand if suit_of[c] == NO_SUIT]
            for c in own:
                hand.remove(c)
            out.extend(own)
        else:
            hand.extend(kitty)
        hand.sort()

    @staticmethod
    def swaps_due(players: int, taker: int, declarer: int, hands: list[list[int]],
                  table: PlayTable) -> list[tuple[int, list[int]]]:
        """Who must give up which cards of no suit, as (seat, cards), in records' order.

        Every player but the kitty's ``taker`` holding cards of no suit swaps them;
        records.md lists the exchanges from the declarer's left (the declarer is
        the taker unless the rules name another seat, and comes last then).
        """
        suit_of = table.suit_of
        due = []
        for step in range(1, players + 1):
            seat = (declarer + step) % players
            extra = [c for c in hands[seat] if suit_of[c] == NO_SUIT]
            if seat != taker and extra:
                due.append((seat, extra))
        return due

    def swap_out(self, taker: int, declarer: int, hands: list[list[int]], discards: list[int],
                 table: PlayTable, out: list[int], key: str, given: list[tuple[int, int, int]] | None = None,
                 may_stop: bool = False) -> tuple[list[tuple[int, int, int]], bool]:
        """Other players swap their cards of no suit for face-down discards: the hand's one chance event.

        ``given`` says what was drawn, as (seat, card given, card drawn) in records'
        order (:meth:`swaps_due`); IllegalAction (rule ``swap``) where it is not the
        exchange the rules make, checked before anything moves.  Without it (live
        play) the cards are drawn at random from a generator seeded by ``key`` (the
        deal's text), from the taker's left, as they always were.  ``discards`` keeps
        what the taker laid away (records list it); the cards drawn move into the
        drawers' hands and the cards given are listed in ``out``.  Returns the
        exchanges made, in records' order, and whether they are all that are due:
        with ``may_stop`` (a record that stops partway through them) ``given`` may be
        the first of them only, and the rest wait.
        """
        players = self.rules.players
        due = self.swaps_due(players, taker, declarer, hands, table)
        owed = self._owed(due, discards)
        if given is None:
            rng = random.Random(key)
            pile = list(discards)
            drawn: dict[int, int] = {}
            for step in range(1, players):
                seat = (taker + step) % players
                for card in [c for c in hands[seat] if table.suit_of[c] == NO_SUIT]:
                    if not pile:
                        break
                    drawn[card] = pile.pop(rng.randrange(len(pile)))
            made = [(seat, card, drawn[card]) for seat, cards in due for card in cards if card in drawn]
        else:
            made = self._check_swaps(owed, discards, given, may_stop)
        for seat, card, draw in made:
            hand = hands[seat]
            hand.remove(card)
            hand.append(draw)
            hand.sort()
            out.append(card)
        # Live play draws every exchange due at once; only a record's may stop short.
        return made, given is None or len(made) == len(owed)

    @staticmethod
    def _owed(due: list[tuple[int, list[int]]], discards: list[int]) -> list[tuple[int, int]]:
        """Every exchange due, as (seat, card given), in records' order (no more than there are discards)."""
        return [(seat, card) for seat, cards in due for card in cards][:len(discards)]

    def _check_swaps(self, expected: list[tuple[int, int]], discards: list[int],
                     given: list[tuple[int, int, int]], may_stop: bool = False) -> list[tuple[int, int, int]]:
        """``given`` if it is exactly the exchanges owed (``expected``, :meth:`_owed`; a seat's cards
        in either order), or with ``may_stop`` the first of them; else IllegalAction."""
        names = self.rules.cards
        pile = set(discards)
        drawn: set[int] = set()
        for i, (seat, gave, drew) in enumerate(given):
            if i >= len(expected):
                count = len(expected)
                what = ("no other player holds a card that leaves play" if not count else
                        f"only {count} exchange{'s are' if count > 1 else ' is'} due")
                raise IllegalAction(seat, "swap", f"swaps[{i}]: seat {seat} exchanges nothing here: {what}")
            want_seat = expected[i][0]
            if seat != want_seat:
                raise IllegalAction(seat, "swap", f"swaps[{i}]: seat {want_seat} exchanges next (the exchanges go "
                                                  f"from the declarer's left), not seat {seat}")
            owed = [c for s, c in expected if s == seat]
            if gave not in owed or any(g == gave for s, g, _ in given[:i]):
                held = ", ".join(names[c] for c in owed)
                raise IllegalAction(seat, "swap", f"swaps[{i}]: seat {seat} gives {names[gave]}, but what it must "
                                                  f"give up is {held}")
            if drew not in pile:
                raise IllegalAction(seat, "swap", f"swaps[{i}]: seat {seat} draws {names[drew]}, which is not one "
                                                  "of the face-down discards it may draw from")
            if drew in drawn:
                raise IllegalAction(seat, "swap", f"swaps[{i}]: seat {seat} draws {names[drew]}, which an earlier "
                                                  "exchange drew")
            drawn.add(drew)
        if len(given) < len(expected) and not may_stop:
            seat, card = expected[len(given)]
            raise IllegalAction(seat, "swap", f"seat {seat} holds {names[card]}, which leaves play: it exchanges it "
                                              "for one of the discards, and the record does not say which")
        return list(given)


def _kind(trump: int) -> str:
    """The contract kind a trump names: ``notrump`` or ``suit`` (the words of kitty.show's contracts)."""
    return "notrump" if trump == NO_TRUMP else "suit"


def kitty_rules(rules: Ruleset) -> KittyRules:
    """The :class:`KittyRules` of ``rules``, built once per ruleset."""
    return rules.derived("kitty", KittyRules)


def swept(rules: Ruleset, books: list[int], declaring_side: int | None) -> tuple[bool, ...]:
    """Per side, whether it swept the hand: took every book its side could take.

    The one reading of a sweep, for the scoring's ``sweep``, the game end's ``swept``
    and the metrics' sweep figure (docs/rule-combinations.md).  Every book of the hand,
    except that the declaring side sweeps by taking every trick where the discards are
    the defenders' book (it can never take that one); a defending side sweeps only by
    taking every book, as before.  ``declaring_side`` None: no contract (nothing kept).
    At least that many: a renege penalty can hand the declarers the defenders' book too.
    """
    total = sum(books)
    if not total:
        return (False,) * len(books)
    kept = kitty_rules(rules).defenders_own_book
    return tuple(b >= total - (kept if s == declaring_side else 0) for s, b in enumerate(books))
