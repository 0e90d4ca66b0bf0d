"""The intermediate representation: a frozen, positioned description of one variant.

Every node is a frozen dataclass.  Its semantic fields come first; its source
position (``pos``) is left out of equality and ``repr`` (as CPython's ``ast`` does),
so two variants written in different files or syntaxes compare equal when they
mean the same game, while messages can still point at the line that said it.

The IR is the meeting point of the front ends (YAML today, ``.whist`` later) and the
back end (lowering to a runtime ``Ruleset``); ``irjson.to_json`` prints it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import SourcePos
from .vocabulary import default


def books_of_hand(hand: int, kitty: int, discards: str) -> int:
    """The books of a hand as the engine counts them (runtime.kitty): one a trick (each player
    plays its ``hand`` cards) and one for the discards where a kitty is laid away as a book.
    The one count the ladder is bounded by and the bid of all the books is derived from."""
    return hand + (1 if kitty and discards != "none" else 0)


def books_kept_from_declarers(kitty: int, discards: str) -> int:
    """The books of a hand the declaring side can never take: the discards' book where it is
    the defenders' (runtime.kitty's ``defenders_own_book``).  The declarers' most books are
    :func:`books_of_hand` less these, and taking them all is their sweep (runtime.kitty.swept)."""
    return 1 if kitty and discards == "defenders-book" else 0


# The books a bid's number leaves out, by what it counts (auction.levels.counts): a bid of n
# over six contracts for 6 + n books, a bid of n books outright for n.
BOOKS_OVER = {"books-over-six": 6, "books": 0}


def _pos() -> SourcePos | None:
    return field(default=None, compare=False, repr=False)


def _later(default):
    """A setting added after the golden IR files were written: printed only where it is not ``default``.

    (irjson leaves such a field out at its default, so the IR of every variant that
    does not use it prints as before.)
    """
    return field(default=default, metadata={"omit_default": True})


@dataclass(frozen=True, slots=True, kw_only=True)
class Formula:
    """An expression of the expression language, kept as parsed AST and canonical text."""

    text: str
    type: str  # "int" or "bool"
    ast: object = field(compare=False, repr=False)
    pos: SourcePos | None = _pos()


@dataclass(frozen=True, slots=True, kw_only=True)
class Deck:
    """The cards: suits x ranks, plus extra named cards (jokers), less the cards taken out."""

    suits: tuple[str, ...]
    ranks: tuple[str, ...]
    extra: tuple[str, ...]
    without: tuple[str, ...] = default("deck.without")  # cards taken out of the deck

    def cards(self) -> tuple[str, ...]:
        """Every card of the deck, in order: each suit's ranks, then the extra cards."""
        out = set(self.without)
        every = [r + s for s in self.suits for r in self.ranks] + list(self.extra)
        return tuple(c for c in every if c not in out)
    pos: SourcePos | None = _pos()


@dataclass(frozen=True, slots=True, kw_only=True)
class Deal:
    """How many cards each player and the kitty get (and how many are set aside), who deals first and next."""

    hand: int
    kitty: int
    first_dealer: str | int  # "random", or the seat that deals first
    rotation: str
    undealt: int = default("deal.undealt")  # cards set aside unseen after the deal
    pos: SourcePos | None = _pos()


@dataclass(frozen=True, slots=True, kw_only=True)
class Order:
    """A named rank order, highest rank first."""

    name: str
    ranks: tuple[str, ...]
    aliases: tuple[str, ...] = ()  # other words for it on input (order_aliases)
    pos: SourcePos | None = _pos()


@dataclass(frozen=True, slots=True, kw_only=True)
class Strain:
    """A strain of the bid ladder and what its winner declares."""

    name: str
    aliases: tuple[str, ...]
    bare: bool
    trump: str
    directions: tuple[str, ...]
    # This strain's own levels (from, to), where they differ from the auction's; None: the auction's.
    levels: tuple[int, int] | None = None
    pos: SourcePos | None = _pos()


@dataclass(frozen=True, slots=True, kw_only=True)
class Auction:
    """Who calls, how often, which bids exist and how they rank."""

    first_caller: str
    rounds: str
    passes_end: int
    if_all_pass: str
    dealer_may_take: bool
    redeal_without: tuple[str, ...]
    redeal_dealer: str
    all_pass_dealer: str
    min_level: int
    max_level: int
    strains: tuple[Strain, ...]
    ranking: tuple[tuple[str, ...], ...]
    # Seats (words of the schema's ``seat``) whose first call may not be a pass.
    must_bid: tuple[str, ...] = default("auction.must_bid")
    # What a bid's number counts (auction.levels.counts): books over six, or books outright.
    bids_count: str = default("auction.levels.counts")
    # How many rank steps an overcall must outrank the high bid by (1: any higher bid).
    overcall_by: int = _later(default("auction.overcall_by"))
    # Whether a player may bid over a high bid their partner holds.
    overcall_partner: bool = _later(default("auction.overcall_partner"))
    # The lowest number a dealer left to bid (everyone else passed) may bid; None: the ladder's lowest.
    dealer_bids_from: int | None = _later(default("auction.dealer_bids_from"))
    pos: SourcePos | None = _pos()

    def levels_of(self, strain: Strain) -> tuple[int, int]:
        """The lowest and highest number ``strain`` may be bid at."""
        return strain.levels if strain.levels is not None else (self.min_level, self.max_level)


@dataclass(frozen=True, slots=True, kw_only=True)
class Declaration:
    """When the declarer names trump and direction."""

    when: str
    pos: SourcePos | None = _pos()


@dataclass(frozen=True, slots=True, kw_only=True)
class Kitty:
    """Who takes the kitty, what becomes of the discards, and who sees the kitty when."""

    discards: str
    # When the kitty is shown to all: never, deal (face up from the deal), auction-end
    # (once the auction is won) or declaration (once the contract is declared) ...
    show: str
    # ... and in which contracts (suit, notrump; empty: every contract).
    show_contracts: tuple[str, ...] = _later(())
    # Who takes the kitty and lays cards away (a word of the schema's ``seat``).
    taker: str = default("kitty.taker")
    pos: SourcePos | None = _pos()


@dataclass(frozen=True, slots=True, kw_only=True)
class Play:
    """Trick play: first lead, promoted trumps, extra cards in notrump, reneges."""

    first_lead: str
    trumps_above: tuple[str, ...]
    notrump_extras: str
    renege: str
    renege_books: int
    # Card roles per contract kind: ((kind, ((card, role), ...)), ...), sorted; e.g.
    # (("notrump", (("BJ", "top"),)),): in notrump the big joker wins every trick.
    roles: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = _later(())
    pos: SourcePos | None = _pos()

    def roles_in(self, kind: str) -> dict[str, str]:
        """Card -> role under contracts of ``kind`` (``notrump`` or ``suit``)."""
        return dict(dict(self.roles).get(kind, ()))


@dataclass(frozen=True, slots=True, kw_only=True)
class Scoring:
    """Hand scoring formulas.

    ``defender`` is the sum of the defenders' named terms, one formula as the engine
    reads it; ``defender_terms`` keeps the terms by name for the rulebook and ``diff``
    (a plain formula is the one term ``score``).  Not compared: the sum says what the
    game means.
    """

    made: Formula
    declarer: Formula
    defender: Formula
    multiplier: Formula
    multiply: tuple[str, ...]
    pos: SourcePos | None = _pos()
    defender_terms: tuple[Condition, ...] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Condition:
    """One named part: a way the game ends (a condition of game.win or game.lose) or a term of scoring.defender."""

    name: str
    formula: Formula


@dataclass(frozen=True, slots=True, kw_only=True)
class Game:
    """Game-end conditions, the target they may name, and the tie-breaks.

    ``win`` and ``lose`` are each the ``or`` of their named conditions, one formula
    as the engine reads it; ``win_when`` and ``lose_when`` keep the conditions by
    name for the rulebook and ``diff`` (a plain formula is the one condition
    ``target``).  They are not compared: the formulas say what the game means.
    """

    win: Formula
    lose: Formula
    win_when: tuple[Condition, ...] = field(default=(), compare=False)
    lose_when: tuple[Condition, ...] = field(default=(), compare=False)
    target: int  # the formulas' ``target``
    tie: tuple[str, ...]  # tie-breaks in order; the first from the dealer's left decides last
    floor: int | None
    rubber: int
    pos: SourcePos | None = _pos()


@dataclass(frozen=True, slots=True, kw_only=True)
class Variant:
    """A whole variant."""

    name: str
    title: str
    source: str
    house_rules: tuple[str, ...]
    players: int
    sides: str
    deck: Deck
    deal: Deal
    orders: tuple[Order, ...]
    auction: Auction
    declaration: Declaration
    kitty: Kitty
    play: Play
    scoring: Scoring
    game: Game
    pos: SourcePos | None = _pos()
    # Where every setting came from (a composed document); for messages only.
    origin: object = field(default=None, compare=False, repr=False)

    def at(self, *path) -> SourcePos | None:
        """The position of the setting at ``path`` in the file that set it."""
        return self.origin.pos(path) if self.origin is not None else self.pos

    def is_set(self, *path) -> bool:
        """True if a file wrote this setting (rather than a default applying)."""
        return self.origin is not None and self.origin.is_set(path)

    def names_read(self) -> frozenset[str]:
        """The variables the game's formulas read (scoring and game end), as compiled."""
        formulas = (self.scoring.made, self.scoring.declarer, self.scoring.defender, self.scoring.multiplier,
                    self.game.win, self.game.lose)
        # An empty formula (no condition left) has no compiled form and reads nothing.
        return frozenset().union(*(f.ast.names for f in formulas if f.ast is not None))
