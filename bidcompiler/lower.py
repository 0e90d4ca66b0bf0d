"""Lower a checked IR ``Variant`` to the runtime's ``Ruleset``.

This is where the variant's words become the engine's tables: card ids, the bid
ladder with precedence ranks, and for every (trump, direction) pair each card's
effective suit and power, so the engine never interprets rules while playing.
"""

from __future__ import annotations

from runtime.formula import Formula
from runtime.seats import WORDS as SEAT_WORDS
from runtime.seats import SeatRef
from runtime.ruleset import (
    NO_SUIT, NO_TRUMP, TOP_SUIT, Bid, GameEnd, PlayTable, Ruleset, Scoring, Strain, build_action_names,
)

from . import ir
from .expressions import Binary, Bool, BoolOp, Call, Compare, IfElse, Name, Not, Num, Unary

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
TRUMP_BONUS = 1000
# Seats are numbered to the left; the next dealer is the dealer's seat plus this.
ROTATION_STEPS = {"left": 1, "right": -1}


def formula_tree(node) -> tuple:
    """The runtime's data form (runtime.formula) of a checked expression tree."""
    match node:
        case Num(value=value):
            return ("num", value)
        case Bool(value=value):
            return ("bool", value)
        case Name(name=name):
            return ("name", name)
        case Unary(operand=operand):
            return ("neg", formula_tree(operand))
        case Not(operand=operand):
            return ("not", formula_tree(operand))
        case Binary(op=op, left=left, right=right) | Compare(op=op, left=left, right=right) | \
                BoolOp(op=op, left=left, right=right):
            return (op, formula_tree(left), formula_tree(right))
        case IfElse(cond=cond, then=then, orelse=orelse):
            return ("if", formula_tree(cond), formula_tree(then), formula_tree(orelse))
        case Call(func=func, args=args):
            return ("call", func, *(formula_tree(a) for a in args))
    raise TypeError(f"not an expression node: {node!r}")


def formula(f: ir.Formula) -> Formula:
    """Lower an IR formula (checked and compiled by the builder) to runtime data."""
    return Formula(formula_tree(f.ast.ast), f.text, f.type)


def card_names(v: ir.Variant) -> list[str]:
    """Card ids in order: each suit's ranks in deck order, then the extra cards (less those taken out)."""
    return list(v.deck.cards())


def natural_suit(v: ir.Variant, name: str) -> int:
    """The suit index of a suited card, NO_SUIT for an extra card (a joker)."""
    if name in v.deck.extra:
        return NO_SUIT
    return v.deck.suits.index(name[-1])


def top_powers(v: ir.Variant, kind: str, strength: dict[str, int]) -> dict[str, int]:
    """The cards of role ``top`` under contracts of ``kind``, each with its power among them.

    Where several cards are top, the extra cards rank first in deck order (BJ over LJ),
    then suited cards by rank in the contract's direction, then by suit order: every
    power distinct, so one of them takes a trick.
    """
    tops = [card for card, role in v.play.roles_in(kind).items() if role == "top"]

    def rank_key(card: str):
        if card in v.deck.extra:
            return (0, v.deck.extra.index(card), 0)
        return (1, -strength[card[:-1]], v.deck.suits.index(card[-1]))

    ordered = sorted(tops, key=rank_key)
    return {card: len(ordered) - i for i, card in enumerate(ordered)}


def play_table(v: ir.Variant, trump: int, direction: int) -> PlayTable:
    """Effective suit and power of every card under one (trump, direction)."""
    names = card_names(v)
    order = v.orders[direction].ranks
    strength = {rank: len(order) - i for i, rank in enumerate(order)}
    suit_of, power = [], []
    # A card's role under this kind of contract comes before its place in trumps_above.
    top = top_powers(v, "notrump" if trump == NO_TRUMP else "suit", strength)
    promoted = {} if trump == NO_TRUMP else {
        card: TRUMP_BONUS + len(v.play.trumps_above) - i for i, card in enumerate(v.play.trumps_above)
    }
    for name in names:
        if name in top:  # the highest card of every trick it is played to (tricks.winning_index)
            suit_of.append(TOP_SUIT)
            power.append(top[name])
        elif name in promoted:
            suit_of.append(trump)
            power.append(promoted[name])
        elif natural_suit(v, name) != NO_SUIT:
            suit_of.append(natural_suit(v, name))
            power.append(strength[name[:-1]])
        else:  # an extra card that is not a trump here belongs to no suit
            suit_of.append(NO_SUIT)
            power.append(0)
    notrump = trump == NO_TRUMP
    return PlayTable(trump=trump, direction=direction, suit_of=tuple(suit_of), power=tuple(power),
                     free_no_suit=notrump and v.play.notrump_extras == "free",
                     no_suit_out=notrump and v.play.notrump_extras == "out")


def bid_ladder(v: ir.Variant) -> list[Bid]:
    """Every bid, lowest first; bids in one ranking group share a rank.

    A strain with its own levels has rungs only there (``4 notrump`` and up); the
    others keep the auction's.  The ranks stay those of the whole ladder, so a
    missing rung does not change what overcalls what.
    """
    a = v.auction
    strain_index = {s.name: i for i, s in enumerate(a.strains)}
    groups = len(a.ranking)
    levels = [a.levels_of(s) for s in a.strains]
    low = min(lo for lo, _ in levels)
    high = max(hi for _, hi in levels)
    bids = []
    for level in range(low, high + 1):
        for g, group in enumerate(a.ranking):
            for name in group:
                strain = a.strains[strain_index[name]]
                lo, hi = levels[strain_index[name]]
                if not lo <= level <= hi:
                    continue
                bids.append(Bid(level=level, strain=strain_index[name], rank=level * groups + g,
                                text=str(level) if strain.bare else f"{level} {name}"))
    return bids


# The auction's first caller, as a step from the dealer (the schema allows left-of-dealer only).
FIRST_CALLER_STEPS = {"left-of-dealer": 1}


def seat(word: str, v: ir.Variant) -> SeatRef:
    """The runtime value (runtime.seats) of a seat word of the schema's ``seat``."""
    if word == "first-caller":  # the seat that calls first, wherever the auction starts
        return SeatRef("dealer", FIRST_CALLER_STEPS[v.auction.first_caller])
    return SEAT_WORDS[word]


def lower(v: ir.Variant) -> Ruleset:
    """Build the runtime Ruleset of a variant that passed every check."""
    order_index = {o.name: i for i, o in enumerate(v.orders)}
    strains = tuple(
        Strain(name=s.name, aliases=s.aliases, trump=s.trump,
               directions=tuple(order_index[d] for d in s.directions), bare=s.bare)
        for s in v.auction.strains
    )
    order_aliases = dict(order_index)
    for order in v.orders:  # the variant's own words for its orders first
        for alias in order.aliases:
            order_aliases.setdefault(alias, order_index[order.name])
    for s in v.auction.strains:  # "high" names the uptown order as it names the strain
        if s.name in order_index:
            for alias in s.aliases:
                order_aliases.setdefault(alias, order_index[s.name])
    suits = range(len(v.deck.suits))
    tables = {
        (trump, d): play_table(v, trump, d)
        for trump in (NO_TRUMP, *suits) for d in range(len(v.orders))
    }
    names = card_names(v)
    if v.sides == "partners":
        side_of = tuple(seat % (v.players // 2) for seat in range(v.players))
    else:
        side_of = tuple(range(v.players))
    rules = Ruleset(
        name=v.name,
        players=v.players,
        side_of=side_of,
        sides=max(side_of) + 1,
        cards=tuple(names),
        card_suit=tuple(natural_suit(v, name) for name in names),
        suits=v.deck.suits,
        suit_names=tuple(SUIT_NAMES[s] for s in v.deck.suits),
        hand_size=v.deal.hand,
        kitty_size=v.deal.kitty,
        first_caller=FIRST_CALLER_STEPS[v.auction.first_caller],
        rounds=v.auction.rounds,
        passes_end=v.auction.passes_end,
        if_all_pass=v.auction.if_all_pass,
        dealer_may_take=v.auction.dealer_may_take,
        redeal_cards=frozenset(cid for cid, name in enumerate(names)
                               if natural_suit(v, name) != NO_SUIT and name[:-1] in v.auction.redeal_without),
        redeal_dealer=v.auction.redeal_dealer,
        all_pass_dealer=v.auction.all_pass_dealer,
        strains=strains,
        bids=tuple(bid_ladder(v)),
        orders=tuple(o.name for o in v.orders),
        order_aliases=order_aliases,
        declare_before_kitty=v.declaration.when == "before-kitty",
        discards_book={"declarer-book": "declarer", "defenders-book": "defenders"}.get(v.kitty.discards,
                                                                                       v.kitty.discards),
        kitty_show=v.kitty.show,
        kitty_show_contracts=v.kitty.show_contracts,
        first_leader=seat(v.play.first_lead, v),
        renege=v.play.renege,
        renege_books=v.play.renege_books,
        tables=tables,
        scoring=Scoring(made=formula(v.scoring.made), declarer=formula(v.scoring.declarer),
                        defender=formula(v.scoring.defender), multiplier=formula(v.scoring.multiplier),
                        multiply_declarer="declarer" in v.scoring.multiply,
                        multiply_defenders="defenders" in v.scoring.multiply),
        game_end=GameEnd(win=formula(v.game.win), lose=formula(v.game.lose), target=v.game.target,
                         floor=v.game.floor, rubber=v.game.rubber),
        tie_break=v.game.tie,
        first_dealer=v.deal.first_dealer,
        rotation=ROTATION_STEPS[v.deal.rotation],
        source=v.source,
        undealt=v.deal.undealt,
        kitty_taken_by=seat(v.kitty.taker, v),
        must_bid=tuple(seat(word, v) for word in v.auction.must_bid),
        overcall_by=v.auction.overcall_by,
        overcall_partner=v.auction.overcall_partner,
        dealer_bids_from=v.auction.dealer_bids_from or 0,
    )
    object.__setattr__(rules, "action_names", build_action_names(rules))
    return rules
