"""rules.md read a second time, by hand: one hand of every game and house rule, as plain Python.

This module imports nothing from ``bidcompiler`` or ``runtime`` and reads no variant file:
each game (rules.md §1-§7, and ``two-handed`` of §9) and each house rule (§8, §9) is
written out here from the spec's own lines, quoted beside the setting they decide.
``tests/test_spec_oracle.py`` plays random hands through the engine and this reading
side by side and asks them to agree at every step: who acts, what that seat may do,
every hand's cards, the contract, every trick's winner, the books and the score.

``tests/plain_standard.py`` does the same for ``standard`` alone; this one covers the
other games and every house rule, so that a rule the engine reads differently from
the spec shows up as a disagreement on some random deal.

Cards are strings (``AS``, ``TH``, ``BJ``); calls and declarations are the engine's
action names (``pass``, ``4 uptown``, ``4``, ``take``, ``redeal``, ``trump S``,
``notrump``, ``direction downtown``), which records.md also uses.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

SUITS = "SHDC"
RANKS = "23456789TJQKA"
# rules.md, Terms: the three rank orders, highest first.
ORDERS = {
    "uptown": "AKQJT98765432",
    "downtown": "A23456789TJQK",
    "downtown-aces-bad": "23456789TJQKA",
}


@dataclass(frozen=True)
class Strain:
    """One kind of bid: how it is said, where it stands at one number, what the declarer then names."""

    name: str
    said: str                    # "{n} uptown", or "{n}" for a bare number
    group: int                   # bids of one number and one group are equal
    trumps: tuple[str, ...]      # what "trump X" may name ("NT": notrump); () = nothing is named
    directions: tuple[str, ...]  # one: fixed by the bid; more: the declarer chooses
    fixed_trump: str | None = None   # spades-trump: the suit is fixed, nobody names it
    notrump: bool = False        # the bid itself is notrump
    by_lead: bool = False        # oregon: notrump, or the first card led names trump
    from_level: int = 0          # notrump-from-4


@dataclass(frozen=True)
class Spec:
    """A game as rules.md states it, house rules applied."""

    name: str
    players: int = 4
    partners: bool = True
    jokers: tuple[str, ...] = ("BJ", "LJ")
    without: tuple[str, ...] = ()
    hand: int = 12
    kitty: int = 6
    undealt: int = 0
    rotation: int = 1
    levels: tuple[int, int] = (3, 7)
    strains: tuple[Strain, ...] = ()
    rounds: str = "once"                 # or "until-three-pass"
    all_pass: str = "dealer-must-bid"    # "dealer-bids-or-redeal", "dealer-bids-one", "redeal"
    all_pass_dealer: str = "next"
    dealer_take: bool = False
    redeal_without: tuple[str, ...] = ()  # ranks: a hand holding none of them may call redeal
    first_caller_bids: bool = False
    declare_first: bool = True           # name trump before taking the kitty
    taker: str = "declarer"              # or "partner"
    discards_book: str = "declarer"      # or "first-trick" (worth 2 books)
    first_lead: str = "declarer"         # or "eldest", "left-of-declarer"
    trumps_above: tuple[str, ...] = ("BJ", "LJ")
    notrump_jokers: str = "no-suit"      # "free", "out"; big joker: "no-suit", "top"
    big_joker_top: bool = False
    renege_penalty: bool = False
    show: str = "never"                  # "deal", "suit", "always" (after the auction)
    scoring: str = "standard"
    double_notrump: bool = True
    defenders_score: bool = False
    boston_x4: bool = False
    rise_and_fly: bool = False
    # Game end (rules.md: each game's "Game" line)
    target: int = 7
    lose_at_minus: bool = True
    game_end: str = "target"             # "hawaii", "ten-hands"
    sweep_wins: bool = False
    sets_lose: int = 0
    seven_set_loses: bool = False
    tie: str = "declarer"                # "declarer-higher-left"
    rubber: int = 1
    floor: int | None = None

    # ------------------------------------------------------------------ plain facts
    def deck(self) -> list[str]:
        """The cards of the game: the suits' cards less any taken out, then the jokers."""
        cards = [r + s for s in SUITS for r in RANKS if r + s not in self.without]
        return cards + list(self.jokers)

    def side(self, seat: int) -> int:
        """The side of ``seat``: partners opposite ({0, 2}, {1, 3}), else each seat its own."""
        return seat % 2 if self.partners else seat

    @property
    def sides(self) -> int:
        """How many sides score."""
        return 2 if self.partners else self.players

    def bids(self) -> list[tuple[tuple[int, int], int, Strain, str]]:
        """Every bid as (rank, level, strain, name), lowest first; equal ranks are equal bids."""
        out = []
        lo, hi = self.levels
        for n in range(lo, hi + 1):
            for s in self.strains:
                if n >= s.from_level:
                    out.append(((n, s.group), n, s, s.said.format(n=n)))
        return out


# ============================================================================ the games
# §1: "Bids: 3–7 with uptown, downtown or notrump. At one number uptown and downtown are
# equal (neither overcalls the other) and notrump outranks both."
UP = Strain("uptown", "{n} uptown", 0, tuple(SUITS), ("uptown",))
DOWN = Strain("downtown", "{n} downtown", 0, tuple(SUITS), ("downtown",))
NT = Strain("notrump", "{n} notrump", 1, (), ("uptown", "downtown"), notrump=True)

STANDARD = Spec("standard", strains=(UP, DOWN, NT))

GAMES = {
    "standard": STANDARD,
    # §2 "52 cards, no jokers; 12 each, kitty of 4." "Bids are bare numbers 1–7."
    # "trump suit or notrump, and one of three orders".
    "northeast52": replace(
        STANDARD, name="northeast52", jokers=(), kitty=4, trumps_above=(), levels=(1, 7),
        strains=(Strain("number", "{n}", 0, (*SUITS, "NT"), tuple(ORDERS)),),
        dealer_take=True,                      # "The dealer may pass, bid higher, or take"
        all_pass="dealer-bids-or-redeal",      # "the dealer bids (1 or more) or calls redeal"
        all_pass_dealer="same",
        redeal_without=("K", "Q", "J"),        # "who holds no king, queen or jack may call redeal"
        discards_book="first-trick",           # "that trick is worth 2 books"
        scoring="northeast52", double_notrump=False,   # "Notrump is not doubled."
        target=21, lose_at_minus=False, floor=0),      # "first side to 21"; "Nobody's score goes below 0"
    # §3 "52 cards, no kitty, 13 each." "bare numbers from 1"; "until three players have passed"
    "oregon": replace(
        STANDARD, name="oregon", jokers=(), hand=13, kitty=0, trumps_above=(), levels=(1, 7),
        strains=(Strain("number", "{n}", 0, (), ("uptown",), by_lead=True),),
        rounds="until-three-pass", all_pass="dealer-bids-one",
        scoring="oregon", double_notrump=False, target=11, lose_at_minus=False, rubber=3),
    # §4 "a number 1–7 and uptown (said as the bare number), special (= downtown) or
    # notrump; special beats uptown and notrump beats both at one number"
    "cincinnati": replace(
        STANDARD, name="cincinnati", jokers=(), hand=13, kitty=0, trumps_above=(), levels=(1, 7),
        strains=(replace(UP, said="{n}"), replace(DOWN, group=1), replace(NT, group=2))),
    # §5 "12 each, kitty of 4. Bids are bare numbers 1–7, uptown only, no notrump bid."
    "rhode-island": replace(
        STANDARD, name="rhode-island", jokers=(), kitty=4, trumps_above=(), levels=(1, 7),
        strains=(Strain("number", "{n}", 0, (*SUITS, "NT"), ("uptown",)),),
        dealer_take=True,        # "the dealer only needs to match the high bid (and then takes it)"
        declare_first=False,     # "discards 4 of 16, and only then names trump or notrump"
        scoring="rhode-island", target=21, lose_at_minus=False),
    # §6 "kitty of 4 ... Bids bare numbers 3–7 ... the winner names trump or notrump; uptown only"
    "hawaii": replace(
        STANDARD, name="hawaii", jokers=(), kitty=4, trumps_above=(), levels=(3, 7),
        strains=(Strain("number", "{n}", 0, (*SUITS, "NT"), ("uptown",)),),
        scoring="hawaii", double_notrump=False, game_end="hawaii", lose_at_minus=False),
    # §7 "54 cards, 17 each, kitty of 3"; "bids 7–18 with uptown/downtown/notrump as in standard"
    "cutthroat": replace(
        STANDARD, name="cutthroat", players=3, partners=False, hand=17, kitty=3, levels=(7, 18),
        scoring="cutthroat", target=30, lose_at_minus=False, tie="declarer-higher-left"),
    # §9 two-handed: "two players, each its own side, 12 cards each, a kitty of 6, the other
    # 24 cards set aside unseen; bids 3–7 as in standard"
    "two-handed": replace(STANDARD, name="two-handed", players=2, partners=False, undealt=24),
}


def _strains(spec: Spec, change) -> tuple[Strain, ...]:
    return tuple(change(s) for s in spec.strains)


# ============================================================================ house rules
def _no_jokers(spec: Spec, kitty: int, jokers=()) -> Spec:
    return replace(spec, jokers=jokers, kitty=kitty, trumps_above=jokers)


HOUSE_RULES = {
    # §8
    "min-bid-4": lambda s: replace(s, levels=(4, s.levels[1])),
    "low-beats-high": lambda s: replace(s, strains=_strains(
        s, lambda t: replace(t, group={"uptown": 0, "downtown": 1, "notrump": 2}[t.name]))),
    "level-only": lambda s: replace(s, strains=_strains(s, lambda t: replace(t, group=0))),
    "sport-kitty": lambda s: replace(s, show="suit"),
    "kitty-face-up": lambda s: replace(s, show="deal"),
    "jokers-out-in-notrump": lambda s: replace(s, notrump_jokers="out"),
    "jokers-free-in-notrump": lambda s: replace(s, notrump_jokers="free"),
    "one-joker": lambda s: _no_jokers(s, 5, ("BJ",)),
    "no-jokers": lambda s: _no_jokers(s, 4),
    "no-kitty": lambda s: replace(_no_jokers(s, 0), hand=13, levels=(1, s.levels[1])),
    # "2S is the second-highest trump in suit contracts ... in notrump it is an ordinary spade"
    "deuce-of-spades": lambda s: replace(s, jokers=("BJ",), kitty=5, trumps_above=("BJ", "2S")),
    # "both jokers, 2S third-highest trump, kitty of 6": the rule's own deal, as deuce-of-spades's
    "jokers-and-deuce": lambda s: replace(s, jokers=("BJ", "LJ"), kitty=6, trumps_above=("BJ", "LJ", "2S")),
    "defenders-score": lambda s: replace(s, defenders_score=True),
    "boston-x4": lambda s: replace(s, boston_x4=True),
    "boston-wins": lambda s: replace(s, sweep_wins=True),
    "two-sets": lambda s: replace(s, sets_lose=3),
    "plain-notrump": lambda s: replace(s, double_notrump=False),
    "to-5": lambda s: replace(s, target=5),
    "to-9": lambda s: replace(s, target=9),
    "eldest-leads": lambda s: replace(s, first_lead="eldest"),
    "all-pass-redeal": lambda s: replace(s, all_pass="redeal", all_pass_dealer="next"),
    "kitty-first": lambda s: replace(s, declare_first=False),
    "renege-penalty": lambda s: replace(s, renege_penalty=True),
    "rise-and-fly": lambda s: replace(s, rise_and_fly=True),
    # §9
    "no-red-deuces": lambda s: replace(s, without=("2H", "2D"), kitty=4),
    "big-joker-notrump": lambda s: replace(s, big_joker_top=True),
    "deal-right": lambda s: replace(s, rotation=-1),
    "partner-takes-kitty": lambda s: replace(s, taker="partner"),
    "left-of-declarer-leads": lambda s: replace(s, first_lead="left-of-declarer"),
    "first-caller-bids": lambda s: replace(s, first_caller_bids=True),
    "notrump-from-4": lambda s: replace(s, strains=_strains(
        s, lambda t: replace(t, from_level=4) if t.notrump else t)),
    "sport-kitty-always": lambda s: replace(s, show="always"),
    "seven-set-loses": lambda s: replace(s, seven_set_loses=True),
    "ten-hands": lambda s: replace(s, game_end="ten-hands", lose_at_minus=False),
    # "spades are always trump in a suit contract; an uptown or downtown bid names only the direction"
    "spades-trump": lambda s: replace(s, strains=_strains(
        s, lambda t: t if t.notrump else replace(t, trumps=(), fixed_trump="S"))),
}


def spec_of(variant: str, with_rules=()) -> Spec:
    """The game ``variant`` with the house rules ``with_rules`` laid over it, as rules.md states them."""
    spec = GAMES[variant]
    for rule in with_rules:
        spec = HOUSE_RULES[rule](spec)
    return spec


# ============================================================================ one hand
@dataclass
class Hand:
    """One hand played by rules.md: drive it with :meth:`legal` and :meth:`apply`."""

    spec: Spec
    dealer: int
    hands: list[list[str]]
    kitty: list[str]
    phase: str = "auction"
    seat: int = -1
    calls: list[tuple[int, str]] = field(default_factory=list)
    passed: set = field(default_factory=set)
    high: tuple | None = None            # (rank, level, strain, seat)
    declarer: int = -1
    level: int = 0
    strain: Strain | None = None
    trump: str | None = None             # a suit, "NT", or None while unnamed
    direction: str | None = None
    steps: list[str] = field(default_factory=list)   # declaration steps still to come
    kitty_taken: bool = False
    discards: list[str] = field(default_factory=list)
    to_discard: int = 0
    out: list[str] = field(default_factory=list)
    trick: list[str] = field(default_factory=list)
    leader: int = -1
    tricks: list[tuple[int, list[str], int]] = field(default_factory=list)
    reneges: list[int] = field(default_factory=list)
    books: list[int] | None = None
    score: list[int] | None = None
    made: bool | None = None
    thrown_in: bool = False
    redeal_called: bool = False          # thrown in by a `redeal` call, not by everyone passing

    def __post_init__(self):
        self.hands = [list(h) for h in self.hands]
        self.seat = (self.dealer + 1) % self.spec.players

    # ------------------------------------------------------------------ the auction
    def _everyone_else_passed(self) -> bool:
        return self.high is None and len(self.passed) == self.spec.players - 1 and self.seat not in self.passed

    def legal(self) -> set[str]:
        """Everything the seat to act may do now."""
        spec = self.spec
        if self.phase == "auction":
            return self._legal_calls()
        if self.phase == "trump":
            return {"notrump" if t == "NT" else f"trump {t}" for t in self.strain.trumps}
        if self.phase == "direction":
            return {f"direction {d}" for d in self.strain.directions}
        if self.phase == "discard":
            return set(self.hands[self.seat])  # "discards 6, any cards, jokers included"
        if self.phase == "lead-or-notrump":
            # oregon: "either declares notrump, or names trump by leading"
            return {c for c in self.hands[self.seat] if c not in spec.jokers} | {"notrump"}
        if self.phase == "play":
            return set(self._legal_cards())
        return set()

    def _legal_calls(self) -> set[str]:
        spec = self.spec
        bids = spec.bids()
        seat = self.seat
        first_call = all(s != seat for s, _ in self.calls)
        if self._everyone_else_passed():
            # §1 "If the first three pass, the dealer must bid."
            if spec.all_pass == "dealer-bids-one":   # §3 "the dealer must take a bid of 1 (exactly 1)"
                legal = {name for _, n, _, name in bids if n == spec.levels[0]}
            else:
                legal = {name for *_, name in bids}
                if spec.all_pass == "dealer-bids-or-redeal":   # §2 "or calls redeal"
                    legal.add("redeal")
                if spec.all_pass == "redeal":                   # §8 all-pass-redeal: the dealer may pass
                    legal.add("pass")
        else:
            # "Each call is pass or a bid above the highest so far."
            legal = {"pass"} | {name for rank, _, _, name in bids if self.high is None or rank > self.high[0]}
            # §2 "The dealer may ... take the contract by matching the high bid (even from partner)"
            if spec.dealer_take and seat == self.dealer and self.high is not None and self.high[3] != seat:
                legal.add("take")
        # §2 "Any player ... who holds no king, queen or jack may call redeal instead of
        # bidding on their turn ... not after passing or bidding."
        if spec.redeal_without and first_call and not any(c[0] in spec.redeal_without for c in self.hands[seat]):
            legal.add("redeal")
        # §9 first-caller-bids: "the first caller (left of the dealer) may not pass"
        if spec.first_caller_bids and first_call and seat == (self.dealer + 1) % spec.players:
            legal.discard("pass")
        return legal

    def _call(self, name: str) -> None:
        spec = self.spec
        seat = self.seat
        self.calls.append((seat, name))
        if name == "redeal":
            # §2 "(same dealer deals again)", whether a hand without face cards or the dealer
            # after three passes calls it; all-pass-redeal's "next dealer" is for all passing
            self.redeal_called = True
            self._throw_in()
            return
        if name == "take":
            self._won(seat, self.high[1], self.high[2])
            return
        if name == "pass":
            self.passed.add(seat)
        else:
            rank, level, strain = next((r, n, s) for r, n, s, nm in spec.bids() if nm == name)
            self.high = (rank, level, strain, seat)
        n = spec.players
        if spec.rounds == "once":
            if len(self.calls) < n:
                self.seat = (seat + 1) % n
                return
        else:
            # §3 "The auction goes round as often as needed until three players have passed;
            # a player who passed is out of it."
            if len(self.passed) < 3 or (self.high is None and len(self.passed) < n):
                nxt = next((seat + k) % n for k in range(1, n + 1) if (seat + k) % n not in self.passed)
                if self.high is None or nxt != self.high[3]:
                    self.seat = nxt
                    return
        if self.high is None:
            self._throw_in()
        else:
            self._won(self.high[3], self.high[1], self.high[2])

    def _throw_in(self) -> None:
        self.thrown_in = True
        self.phase = "over"
        self.seat = -1
        self.books = [0] * self.spec.sides
        self.score = [0] * self.spec.sides

    # ------------------------------------------------------------------ declaration and kitty
    def _won(self, declarer: int, level: int, strain: Strain) -> None:
        self.declarer = self.seat = declarer
        self.level, self.strain = level, strain
        if strain.notrump:
            self.trump = "NT"
        if strain.fixed_trump:
            self.trump = strain.fixed_trump
        steps = []
        if strain.trumps:
            steps.append("trump")
        if len(strain.directions) > 1:
            steps.append("direction")
        else:
            self.direction = strain.directions[0]
        self.steps = steps
        if strain.by_lead or not self.spec.declare_first:
            self._take_kitty()
        else:
            self._next_step()

    def _next_step(self) -> None:
        if self.steps:
            self.phase = self.steps.pop(0)
            self.seat = self.declarer
        elif not self.kitty_taken and self.spec.declare_first:
            self._take_kitty()
        else:
            self._start_play()

    def kitty_taker(self) -> int:
        """The seat that takes the kitty (-1 before the auction is won)."""
        if self.declarer < 0:
            return -1
        # §9 partner-takes-kitty: "the declarer's partner takes the kitty"
        return (self.declarer + 2) % self.spec.players if self.spec.taker == "partner" else self.declarer

    def jokers_leave(self) -> bool:
        """Whether the jokers leave play in this contract (jokers-out-in-notrump, in notrump)."""
        return self.trump == "NT" and self.spec.notrump_jokers == "out"

    def _take_kitty(self) -> None:
        self.kitty_taken = True
        if not self.kitty:
            self._after_discards()
            return
        taker = self.kitty_taker()
        hand = self.hands[taker]
        if self.jokers_leave():
            # §8 jokers-out-in-notrump: "jokers in the kitty stay out, the declarer discards down
            # to the hand size with any jokers it holds among the discards (laid apart)"
            self.out += [c for c in self.kitty if c in self.spec.jokers]
            hand += [c for c in self.kitty if c not in self.spec.jokers]
            own = [c for c in hand if c in self.spec.jokers]
            for c in own:
                hand.remove(c)
            self.out += own
        else:
            hand += self.kitty
        self.to_discard = len(hand) - self.spec.hand
        if self.to_discard <= 0:
            self._after_discards()
            return
        self.phase = "discard"
        self.seat = taker

    def _after_discards(self) -> None:
        if self.spec.declare_first or self.strain.by_lead:
            self._start_play()
        else:
            self._next_step()

    def swaps_due(self) -> list[tuple[int, str]]:
        """§8 jokers-out-in-notrump: "each other player holding one swaps it for a random card
        from the declarer's other, face-down discards" — (seat, joker) to swap."""
        taker = self.kitty_taker()
        return [(s, c) for s in range(self.spec.players) if s != taker
                for c in self.hands[s] if c in self.spec.jokers]

    def swap(self, seat: int, joker: str, drawn: str) -> None:
        """Apply one exchange the engine drew (checked by the caller against :meth:`swaps_due`)."""
        self.hands[seat].remove(joker)
        self.hands[seat].append(drawn)
        self.out.append(joker)

    # ------------------------------------------------------------------ play
    def _start_play(self) -> None:
        spec = self.spec
        n = spec.players
        # §1 "the declarer leads to the first trick"; eldest-leads; left-of-declarer-leads
        lead = {"declarer": self.declarer, "eldest": (self.dealer + 1) % n,
                "left-of-declarer": (self.declarer + 1) % n}[spec.first_lead]
        self.leader = self.seat = lead
        self.phase = "lead-or-notrump" if self.trump is None else "play"

    def suit_of(self, card: str) -> str | None:
        """The suit a card counts as in this contract (None: no suit)."""
        if self.trump not in (None, "NT"):
            # §1 "In a suit contract the jokers are the two highest trumps"; §8 "2S ... counts
            # as a trump, not a spade, there"
            if card in self.spec.trumps_above:
                return self.trump
        if card in ("BJ", "LJ"):
            return None  # §1 "in no trump ... they belong to no suit"
        return card[1]

    def _led(self) -> str | None:
        """The suit to follow: "the first non-joker card played sets the suit to follow"."""
        for c in self.trick:
            s = self.suit_of(c)
            if s is not None:
                return s
        return None

    def _following(self) -> list[str]:
        """The cards the seat to act may play without reneging (its whole hand when void)."""
        hand = self.hands[self.seat]
        led = self._led()
        follow = [c for c in hand if self.suit_of(c) == led] if led is not None else []
        if not follow:
            return list(hand)
        if self.trump == "NT" and self.spec.notrump_jokers == "free":
            # §8 jokers-free-in-notrump: "a joker may be played even when able to follow suit"
            follow += [c for c in hand if c in ("BJ", "LJ")]
        return follow

    def _legal_cards(self) -> list[str]:
        if self.spec.renege_penalty:
            return list(self.hands[self.seat])   # renege-penalty: "a renege stands and is scored"
        return self._following()

    def power(self, card: str) -> int:
        """A card's strength among the cards of its own suit in this contract (bigger wins)."""
        order = ORDERS[self.direction]
        if self.trump not in (None, "NT") and card in self.spec.trumps_above:
            return 100 - self.spec.trumps_above.index(card)
        return len(order) - order.index(card[0])

    def winner(self, leader: int, cards: list[str]) -> int:
        """The seat that wins the trick ``cards`` led by ``leader``."""
        n = self.spec.players
        if self.trump == "NT" and self.spec.big_joker_top and "BJ" in cards:
            # §9 big-joker-notrump: "the big joker is the highest card of every trick it is played to"
            return (leader + cards.index("BJ")) % n
        led = None
        for c in cards:
            if self.suit_of(c) is not None:
                led = self.suit_of(c)
                break
        if led is None:
            return leader  # only cards that never win: nothing beats the lead
        trump = self.trump if self.trump != "NT" else None
        best = None
        for i, c in enumerate(cards):
            s = self.suit_of(c)
            key = None
            if trump is not None and s == trump:
                key = (1, self.power(c))   # "Highest trump wins,"
            elif s == led:
                key = (0, self.power(c))   # "else the highest card of the suit led"
            if key is not None and (best is None or key > best[0]):
                best = (key, i)
        return (leader + best[1]) % n

    def _play(self, card: str) -> None:
        spec = self.spec
        hand = self.hands[self.seat]
        if self.trick and spec.renege_penalty and card not in self._following():
            # "not following when able"; a joker jokers-free-in-notrump lets go is no renege
            self.reneges.append(self.seat)
        hand.remove(card)
        self.trick.append(card)
        n = spec.players
        if len(self.trick) < n:
            self.seat = (self.seat + 1) % n
            return
        win = self.winner(self.leader, self.trick)
        self.tricks.append((self.leader, self.trick, win))
        self.trick = []
        if self.hands[win]:
            self.leader = self.seat = win
        else:
            self._finish()

    # ------------------------------------------------------------------ apply
    def apply(self, action: str) -> None:
        """Apply one action of the seat to act (the caller has checked it is legal)."""
        phase = self.phase
        if phase == "auction":
            self._call(action)
        elif phase == "trump":
            self.trump = "NT" if action == "notrump" else action.split()[1]
            self._next_step()
        elif phase == "direction":
            self.direction = action.split()[1]
            self._next_step()
        elif phase == "discard":
            self.hands[self.seat].remove(action)
            self.discards.append(action)
            if len(self.discards) == self.to_discard:
                self._after_discards()
        elif phase == "lead-or-notrump":
            if action == "notrump":
                self.trump = "NT"
                self.phase = "play"
            else:
                self.trump = action[1]   # "the suit of the first card the declarer leads becomes trump"
                self.phase = "play"
                self._play(action)
        elif phase == "play":
            self._play(action)

    # ------------------------------------------------------------------ kitty shown
    def kitty_seen_by_all(self) -> bool:
        """Whether every seat has seen the kitty by now (asked once the auction is won)."""
        show = self.spec.show
        if not self.kitty:
            return False
        if show == "deal":          # kitty-face-up: "it lies face up through the auction"
            return True
        if self.declarer < 0:
            return False
        if show == "always":        # sport-kitty-always: "after the auction ... in every contract"
            return True
        if show == "suit":
            # sport-kitty: "in suit contracts the kitty is shown to all before the declarer
            # takes it ... It combines with kitty-first wherever the bid itself says whether
            # there will be a trump suit"
            if self.trump is not None:
                return self.trump != "NT"
            return not self.strain.notrump and "NT" not in self.strain.trumps and not self.strain.by_lead
        return False

    # ------------------------------------------------------------------ the score
    def _finish(self) -> None:
        spec = self.spec
        self.phase = "over"
        self.seat = -1
        books = [0] * spec.sides
        for _, _, w in self.tricks:
            books[spec.side(w)] += 1
        if self.discards:
            if spec.discards_book == "declarer":
                books[spec.side(self.declarer)] += 1   # "The discards are the declaring side's first book."
            else:
                books[spec.side(self.tricks[0][2])] += 1   # §2 "that trick is worth 2 books"
        total = sum(books)
        for seat in self.reneges:
            # §8 renege-penalty: "3 of the reneging side's books go to the other side; if it took
            # fewer than 3, the hand is scored as if the other side took all 13"
            side = spec.side(seat)
            if books[side] < 3:
                books = [0] * spec.sides
                books[1 - side] = total
                break
            books[side] -= 3
            books[1 - side] += 3
        self.books = books
        self.score = score(spec, self.declarer, self.level, self.trump == "NT", books)
        self.made = is_made(spec, self.level, books[spec.side(self.declarer)], total)


def is_made(spec: Spec, bid: int, own: int, total: int) -> bool:
    """Whether the declaring side made a bid of ``bid`` taking ``own`` of ``total`` books."""
    if spec.scoring == "hawaii":
        return total - own < 8 - bid   # §6 "The opponents set the contract with 8 − bid books."
    if spec.scoring == "cutthroat":
        return own >= bid              # §7 "Bids count books outright"
    return own >= 6 + bid              # "A bid of n contracts to take at least 6 + n"


def score(spec: Spec, declarer: int, bid: int, notrump: bool, books: list[int]) -> list[int]:
    """Each side's points for a hand: each game's "Scoring" line, and the house rules on it."""
    side = spec.side(declarer)
    own = books[side]
    total = sum(books)
    over = own - 6
    made = is_made(spec, bid, own, total)
    out = [0] * spec.sides
    kind = spec.scoring
    if kind == "standard":
        # §1 "it then scores all its books over six ... If set, it loses the bid."
        out[side] = over if made else -bid
    elif kind == "northeast52":
        # §2 "made: ... books over six. Set: the opponents score the bid."
        if made:
            out[side] = over
        else:
            out[1 - side] = bid
    elif kind == "oregon":
        # §3 "made: books over six; set: minus the bid. The side that did not win the
        # contract scores one point per trick it took, every hand."
        out[side] = over if made else -bid
        out[1 - side] = books[1 - side]
    elif kind == "rhode-island":
        # §5 "made: one point for each book the side took ... Set: the opponents score the
        # bid, plus one per book over six they took."
        if made:
            out[side] = own
        else:
            out[1 - side] = bid + max(0, books[1 - side] - 6)
    elif kind == "hawaii":
        # §6 "made: +1 to the declaring side; set: +2 to the opponents."
        if made:
            out[side] = 1
        else:
            out[1 - side] = 2
    elif kind == "cutthroat":
        # §7 "made: the declarer scores the books taken; set: minus the bid; ... each
        # defender scores the books they took themselves, every hand."
        out = list(books)
        out[side] = own if made else -bid
    if spec.boston_x4 and made and bid == spec.levels[1]:
        out[side] *= 4        # §8 "a made bid of 7 scores four times over (28)": all the books (the top of every ladder played here)
    if spec.rise_and_fly and own == total:
        out[side] *= 2        # §8 "a sweep of all 13 books by the declaring side scores double"
    if spec.defenders_score:
        # §8 "the defending side scores one per book over six it took": a fact about the scoring,
        # so it adds nothing where the game already scores those books (rhode-island's set, oregon's
        # and cutthroat's defenders every hand; rhode-island's made hand leaves the defenders six or less)
        already = kind in ("rhode-island", "oregon", "cutthroat")
        for s in range(spec.sides):
            if s != side and not already:
                out[s] += max(0, books[s] - 6)
    if notrump and spec.double_notrump:
        # §1 "Notrump doubles the hand's score, made or set"; §7 "notrump doubles the declarer's score"
        out = [p * 2 if (s == side or kind != "cutthroat") else p for s, p in enumerate(out)]
    return out


# ============================================================================ the game
@dataclass
class Game:
    """A game (or rubber) scored by rules.md: add each hand's result with :meth:`add`."""

    spec: Spec
    totals: list[int] = field(default_factory=list)
    sets: list[int] = field(default_factory=list)
    played: int = 0
    games_won: list[int] = field(default_factory=list)
    game_winners: list[int] = field(default_factory=list)
    winner: int | None = None

    def __post_init__(self):
        self.totals = [0] * self.spec.sides
        self.sets = [0] * self.spec.sides
        self.games_won = [0] * self.spec.sides

    def add(self, dealer: int, declarer: int, level: int, made: bool | None, points: list[int],
            books: list[int]) -> None:
        """Add one hand: ``declarer`` -1 for a hand thrown in."""
        spec = self.spec
        side = spec.side(declarer) if declarer >= 0 else None
        for s, p in enumerate(points):
            self.totals[s] += p
            if spec.floor is not None:   # §2 "Nobody's score goes below 0."
                self.totals[s] = max(spec.floor, self.totals[s])
        if side is not None:
            self.played += 1             # ten-hands: "thrown-in hands do not count"
            if not made:
                self.sets[side] += 1
        winners, losers = [], []
        for s in range(spec.sides):
            me = self.totals[s]
            other = max(t for o, t in enumerate(self.totals) if o != s)
            if spec.game_end == "hawaii":
                # §6 "7 up with the other side at 0, or 11 points ahead, or at 21 or more with
                # the other side at least 2 behind"
                wins = (me >= 7 and other == 0) or me - other >= 11 or (me >= 21 and me - other >= 2)
            elif spec.game_end == "ten-hands":
                # §9 "the game is ten hands ...; the higher total wins; on a tie, one more hand"
                wins = self.played >= 10 and me > other
            else:
                wins = me >= spec.target
            # §8 boston-wins: "taking all 13 books wins the game at once"
            wins = wins or (spec.sweep_wins and sum(books) > 0 and books[s] == sum(books))
            loses = spec.lose_at_minus and me <= -spec.target
            loses = loses or (spec.sets_lose and self.sets[s] >= spec.sets_lose)   # §8 two-sets
            # §9 seven-set-loses: "a side set on a bid of 7 loses the game at once"
            # (7: a bid of all the books, the top of every ladder played here)
            loses = loses or (spec.seven_set_loses and s == side and level == spec.levels[1] and not made)
            # "loses it", "loses the game at once": a side that meets a losing condition does not win
            if loses:
                losers.append(s)
            elif wins:
                winners.append(s)
        if winners:
            game_winner = self._tie(winners, side, dealer)
        elif losers and len(losers) < spec.sides:
            game_winner = self._tie([s for s in range(spec.sides) if s not in losers], None, dealer)
        else:
            return
        self.game_winners.append(game_winner)
        self.games_won[game_winner] += 1
        if self.games_won[game_winner] * 2 > spec.rubber:   # §3 "A rubber is the best of three games"
            self.winner = game_winner
        else:
            self.totals = [0] * spec.sides
            self.sets = [0] * spec.sides
            self.played = 0

    def _tie(self, sides: list[int], declaring: int | None, dealer: int) -> int:
        # §3 "if both sides reach 11 on the same hand, the contracting side wins"; §7 "the
        # declarer wins if it is one of them, otherwise the highest score (on a tie, the
        # first of them from the dealer's left)"; the other games as standard.yaml decides.
        if declaring in sides:
            return declaring
        best = max(self.totals[s] for s in sides)
        sides = [s for s in sides if self.totals[s] == best]
        for k in range(1, self.spec.players + 1):
            if self.spec.side((dealer + k) % self.spec.players) in sides:
                return self.spec.side((dealer + k) % self.spec.players)
        return sides[0]
