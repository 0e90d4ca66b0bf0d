"""Lower a checked IR ``Variant`` to the runtime's ``Ruleset``.

This is where the variant's words become the engine's tables: card ids, the bid
ladder with precedence ranks, and for every (trump, direction) pair each card's
effective suit and power, so the engine never interprets rules while playing.
"""

from __future__ import annotations

from runtime.formula import Formula
from runtime.ruleset import (
    NO_SUIT, NO_TRUMP, Bid, GameEnd, PlayTable, Ruleset, Scoring, Strain, build_action_names,
)

from . import ir
from .expressions import Binary, Bool, BoolOp, Call, Compare, IfElse, Name, Not, Num, Unary

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
TRUMP_BONUS = 1000


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
    """Card ids in order: each suit's ranks in deck order, then the extra cards."""
    return [r + s for s in v.deck.suits for r in v.deck.ranks] + list(v.deck.extra)


def play_table(v: ir.Variant, trump: int, direction: int) -> PlayTable:
    """Effective suit and power of every card under one (trump, direction)."""
    names = card_names(v)
    order = v.orders[direction].ranks
    strength = {rank: len(order) - i for i, rank in enumerate(order)}
    n_suited = len(v.deck.suits) * len(v.deck.ranks)
    suit_of, power = [], []
    promoted = {} if trump == NO_TRUMP else {
        card: TRUMP_BONUS + len(v.play.trumps_above) - i for i, card in enumerate(v.play.trumps_above)
    }
    for cid, name in enumerate(names):
        if name in promoted:
            suit_of.append(trump)
            power.append(promoted[name])
        elif cid < n_suited:
            suit_of.append(cid // len(v.deck.ranks))
            power.append(strength[name[:-1]])
        else:  # an extra card that is not a trump here belongs to no suit
            suit_of.append(NO_SUIT)
            power.append(0)
    notrump = trump == NO_TRUMP
    return PlayTable(trump=trump, direction=direction, suit_of=tuple(suit_of), power=tuple(power),
                     free_no_suit=notrump and v.play.notrump_extras == "free",
                     no_suit_out=notrump and v.play.notrump_extras == "out")


def bid_ladder(v: ir.Variant) -> list[Bid]:
    """Every bid, lowest first; bids in one ranking group share a rank."""
    a = v.auction
    strain_index = {s.name: i for i, s in enumerate(a.strains)}
    groups = len(a.ranking)
    bids = []
    for level in range(a.min_level, a.max_level + 1):
        for g, group in enumerate(a.ranking):
            for name in group:
                strain = a.strains[strain_index[name]]
                bids.append(Bid(level=level, strain=strain_index[name], rank=level * groups + g,
                                text=str(level) if strain.bare else f"{level} {name}"))
    return bids


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
    n_suited = len(v.deck.suits) * len(v.deck.ranks)
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
        card_suit=tuple(cid // len(v.deck.ranks) if cid < n_suited else NO_SUIT for cid in range(len(names))),
        suits=v.deck.suits,
        suit_names=tuple(SUIT_NAMES[s] for s in v.deck.suits),
        hand_size=v.deal.hand,
        kitty_size=v.deal.kitty,
        first_caller=1,
        rounds=v.auction.rounds,
        passes_end=v.auction.passes_end,
        if_all_pass=v.auction.if_all_pass,
        dealer_may_take=v.auction.dealer_may_take,
        redeal_cards=frozenset(cid for cid, name in enumerate(names)
                               if cid < n_suited and name[:-1] in v.auction.redeal_without),
        redeal_dealer=v.auction.redeal_dealer,
        all_pass_dealer=v.auction.all_pass_dealer,
        strains=strains,
        bids=tuple(bid_ladder(v)),
        orders=tuple(o.name for o in v.orders),
        order_aliases=order_aliases,
        declare_before_kitty=v.declaration.when == "before-kitty",
        discards_book={"declarer-book": "declarer"}.get(v.kitty.discards, v.kitty.discards),
        kitty_show=v.kitty.show,
        first_leader=v.play.first_lead,
        renege=v.play.renege,
        renege_books=v.play.renege_books,
        tables=tables,
        scoring=Scoring(made=formula(v.scoring.made), declarer=formula(v.scoring.declarer),
                        defender=formula(v.scoring.defender), multiplier=formula(v.scoring.multiplier),
                        multiply_declarer="declarer" in v.scoring.multiply,
                        multiply_defenders="defenders" in v.scoring.multiply),
        game_end=GameEnd(win=formula(v.game.win), lose=formula(v.game.lose), floor=v.game.floor, rubber=v.game.rubber),
        tie_break=v.game.tie,
        first_dealer=v.deal.first_dealer,
        rotation=1,
        source=v.source,
    )
    object.__setattr__(rules, "action_names", build_action_names(rules))
    return rules
