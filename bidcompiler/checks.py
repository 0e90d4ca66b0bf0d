"""Semantic checks over the IR: a tuple of plain functions, each adding diagnostics.

Each check looks at one concern and reports every problem it sees; ``run_checks``
runs them all so the user gets every error in one go.  A check never raises and
never changes the IR.
"""

from __future__ import annotations

from collections import Counter

from . import ir
from .errors import DiagnosticSink


def check_deck(v: ir.Variant, sink: DiagnosticSink) -> None:
    """Extra cards must not repeat a suited card."""
    suited = {r + s for s in v.deck.suits for r in v.deck.ranks}
    for card in v.deck.extra:
        if card in suited:
            sink.error(v.deck.pos, f"extra card {card} is already in the deck as a suited card")


def deck_size(v: ir.Variant) -> int:
    """How many cards the variant's deck has."""
    return len(v.deck.suits) * len(v.deck.ranks) + len(v.deck.extra)


def check_deal(v: ir.Variant, sink: DiagnosticSink) -> None:
    """The deal must use the whole deck exactly."""
    dealt = v.players * v.deal.hand + v.deal.kitty
    size = deck_size(v)
    if dealt != size:
        sink.error(v.deal.pos,
                   f"the deal uses {dealt} cards ({v.players} players x {v.deal.hand} + kitty "
                   f"{v.deal.kitty}) but the deck has {size}")


def check_sides(v: ir.Variant, sink: DiagnosticSink) -> None:
    """Partnerships need an even number of players."""
    if v.sides == "partners" and v.players % 2:
        sink.error(v.pos, f"sides: partners needs an even number of players, not {v.players}")


def check_orders(v: ir.Variant, sink: DiagnosticSink) -> None:
    """Every rank order must list each of the deck's ranks exactly once."""
    ranks = set(v.deck.ranks)
    for order in v.orders:
        listed = Counter(order.ranks)
        missing = [r for r in v.deck.ranks if r not in listed]
        extra = [r for r in listed if r not in ranks]
        twice = [r for r, n in listed.items() if n > 1]
        problems = []
        if missing:
            problems.append("lacks " + " ".join(missing))
        if extra:
            problems.append("has ranks not in the deck: " + " ".join(extra))
        if twice:
            problems.append("repeats " + " ".join(twice))
        if problems:
            sink.error(order.pos, f"order '{order.name}' " + "; ".join(problems))


def check_auction(v: ir.Variant, sink: DiagnosticSink) -> None:
    """Levels in range; strain names, aliases, directions and ranking consistent."""
    a = v.auction
    if a.min_level > a.max_level:
        sink.error(a.pos, f"levels: from {a.min_level} is above to {a.max_level}")
    order_names = {o.name for o in v.orders}
    seen: dict[str, str] = {}
    for strain in a.strains:
        for word in (strain.name, *strain.aliases):
            if word in seen:
                sink.error(strain.pos, f"'{word}' names both strain '{seen[word]}' and strain '{strain.name}'")
            seen[word] = strain.name
        for d in strain.directions:
            if d not in order_names:
                sink.error(strain.pos, f"strain '{strain.name}' plays in order '{d}', which is not "
                                       f"among the orders ({', '.join(sorted(order_names))})")
    names = [s.name for s in a.strains]
    ranked = Counter(name for group in a.ranking for name in group)
    for name in names:
        if ranked[name] == 0:
            sink.error(a.pos, f"ranking does not place strain '{name}'")
        elif ranked[name] > 1:
            sink.error(a.pos, f"ranking places strain '{name}' more than once")
    for name in ranked:
        if name not in names:
            sink.error(a.pos, f"ranking names '{name}', which is not a strain")


def check_play(v: ir.Variant, sink: DiagnosticSink) -> None:
    """Promoted trumps must be cards of the deck."""
    cards = {r + s for s in v.deck.suits for r in v.deck.ranks} | set(v.deck.extra)
    for card in v.play.trumps_above:
        if card not in cards:
            sink.error(v.play.pos, f"trumps_above names {card}, which is not in the deck")
    repeated = [c for c, n in Counter(v.play.trumps_above).items() if n > 1]
    for card in repeated:
        sink.error(v.play.pos, f"trumps_above names {card} twice")


CHECKS = (check_deck, check_deal, check_sides, check_orders, check_auction, check_play)


def run_checks(v: ir.Variant, sink: DiagnosticSink) -> None:
    """Run every check; diagnostics accumulate in ``sink``."""
    for check in CHECKS:
        check(v, sink)
