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
    """No card twice: ranks are distinct (``10`` is ``T``), extra cards repeat no suited card."""
    for rank, n in Counter(v.deck.ranks).items():
        if n > 1:
            same = " (10 and T are the same rank)" if rank == "T" else ""
            sink.error(v.at("deck", "ranks"), f"deck.ranks lists rank {rank} {n} times{same}: "
                                              "the deck would hold the same cards twice")
    suited = {r + s for s in v.deck.suits for r in v.deck.ranks}
    for card in v.deck.extra:
        if card in suited:
            sink.error(v.deck.pos, f"extra card {card} is already in the deck as a suited card")


def deck_size(v: ir.Variant) -> int:
    """How many cards the variant's deck has."""
    return len(v.deck.suits) * len(v.deck.ranks) + len(v.deck.extra)


def conflict(sink: DiagnosticSink, v: ir.Variant, message: str, here: tuple, *there: tuple) -> None:
    """Report ``message`` at the setting ``here``, naming where the settings ``there`` were made.

    When an overlay does not fit its base the two settings live in different files;
    the message then names both places, so the user sees which line to change.
    """
    pos = v.at(*here)
    others = []
    for path in there:
        other = v.at(*path)
        if other is not None and pos is not None and other.file != pos.file:
            others.append(f"{'.'.join(map(str, path))} at {other}")
    if others:
        message += " (" + "; ".join(others) + ")"
    sink.error(pos, message)


def check_deal(v: ir.Variant, sink: DiagnosticSink) -> None:
    """The deal must use the whole deck exactly."""
    dealt = v.players * v.deal.hand + v.deal.kitty
    size = deck_size(v)
    if dealt != size:
        latest = max([("deal", "kitty"), ("deal", "hand"), ("players",), ("deck",)],
                     key=lambda p: _layer_index(v, p))
        others = [p for p in [("deal", "kitty"), ("deal", "hand"), ("deck",), ("players",)] if p != latest]
        conflict(sink, v, f"the deal uses {dealt} cards ({v.players} players x {v.deal.hand} + kitty "
                          f"{v.deal.kitty}) but the deck has {size}", latest, *others)


def check_sides(v: ir.Variant, sink: DiagnosticSink) -> None:
    """Partnerships need an even number of players."""
    if v.sides == "partners" and v.players % 2:
        conflict(sink, v, f"sides: partners needs an even number of players, not {v.players}",
                 ("sides",), ("players",))


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
    check_order_aliases(v, sink)


def check_order_aliases(v: ir.Variant, sink: DiagnosticSink) -> None:
    """order_aliases name orders that exist, and no word names two orders."""
    names = {o.name for o in v.orders}
    given = v.origin.data.get("order_aliases") if v.origin is not None else None
    for name in (given or {}):
        if name not in names:
            conflict(sink, v, f"order_aliases names order '{name}', which is not one of the orders "
                              f"({', '.join(sorted(names))})", ("order_aliases", name), ("orders",))
    # Each word names one order: its name, its aliases, the aliases of a strain named after it.
    meaning: dict[str, str] = {o.name: o.name for o in v.orders}
    # The strains' words first, so a clash is reported at the alias written in order_aliases.
    words = [(alias, s.name) for s in v.auction.strains if s.name in names for alias in s.aliases]
    words += [(alias, o.name) for o in v.orders for alias in o.aliases]
    for word, order in words:
        if meaning.setdefault(word, order) != order:
            conflict(sink, v, f"order_aliases: '{word}' would name both order '{meaning[word]}' and order "
                              f"'{order}'", ("order_aliases", order), ("orders",))


def check_auction(v: ir.Variant, sink: DiagnosticSink) -> None:
    """Levels in range; strain names, aliases, directions and ranking consistent."""
    a = v.auction
    if a.min_level > a.max_level:
        conflict(sink, v, f"levels: from {a.min_level} is above to {a.max_level}",
                 ("auction", "levels", "from"), ("auction", "levels", "to"))
    order_names = {o.name for o in v.orders}
    seen: dict[str, str] = {}
    for i, strain in enumerate(a.strains):
        for word in (strain.name, *strain.aliases):
            if word in seen:
                sink.error(strain.pos, f"'{word}' names both strain '{seen[word]}' and strain '{strain.name}'")
            seen[word] = strain.name
        for d in strain.directions:
            if d not in order_names:
                conflict(sink, v, f"strain '{strain.name}' plays in order '{d}', which is not among the "
                                  f"orders ({', '.join(sorted(order_names))})",
                         ("auction", "strains", i), ("orders",))
    bare = [(i, s) for i, s in enumerate(a.strains) if s.bare]
    for i, strain in bare[1:]:
        # A bid of a bare strain is said (and recorded) as the number alone.
        sink.error(v.at("auction", "strains", i, "bare"),
                   f"strains '{bare[0][1].name}' and '{strain.name}' are both bare: a bid such as "
                   f"'{a.max_level}' would name both; at most one strain may be bare")
    names = [s.name for s in a.strains]
    ranked = Counter(name for group in a.ranking for name in group)
    ranking, strains = ("auction", "ranking"), ("auction", "strains")
    for name in names:
        if ranked[name] == 0:
            conflict(sink, v, f"ranking does not place strain '{name}'", ranking, strains)
        elif ranked[name] > 1:
            sink.error(v.at(*ranking), f"ranking places strain '{name}' more than once")
    for name in ranked:
        if name not in names:
            conflict(sink, v, f"ranking names '{name}', which is not a strain", ranking, strains)
    used = {d for s in a.strains for d in s.directions}
    for order in v.orders:
        if order.name not in used and v.is_set("orders", order.name):
            conflict(sink, v, f"orders.{order.name} has no effect: no strain plays in it", ("orders", order.name),
                     strains)


def check_play(v: ir.Variant, sink: DiagnosticSink) -> None:
    """Promoted trumps must be cards of the deck."""
    cards = {r + s for s in v.deck.suits for r in v.deck.ranks} | set(v.deck.extra)
    for card in v.play.trumps_above:
        if card not in cards:
            conflict(sink, v, f"trumps_above names {card}, which is not in the deck",
                     ("play", "trumps_above"), ("deck",))
    repeated = [c for c, n in Counter(v.play.trumps_above).items() if n > 1]
    for card in repeated:
        sink.error(v.at("play", "trumps_above"), f"trumps_above names {card} twice")


def check_auction_rules(v: ir.Variant, sink: DiagnosticSink) -> None:
    """Auction settings that need others: redeal ranks in the deck, passes that can end it."""
    a = v.auction
    for rank in a.redeal_without:
        if rank not in v.deck.ranks:
            conflict(sink, v, f"redeal_without names rank {rank}, which the deck does not have",
                     ("auction", "redeal_without"), ("deck", "ranks"))
    if a.rounds == "until-passed" and not 1 <= a.passes_end <= v.players - 1:
        conflict(sink, v, f"passes_end must be between 1 and {v.players - 1} with {v.players} players",
                 ("auction", "passes_end"), ("players",))
    for i, strain in enumerate(a.strains):
        if strain.trump == "none-or-first-lead" and v.declaration.when == "after-kitty" and v.deal.kitty:
            sink.error(strain.pos, f"strain '{strain.name}' names trump by the first lead, "
                                   "which cannot wait until after the kitty")
        if strain.trump == "none-or-first-lead" and len(strain.directions) > 1:
            # The first lead declares at once: the declarer gets no turn to choose an order.
            sink.error(v.at("auction", "strains", i, "direction"),
                       f"strain '{strain.name}' names trump by the first lead, so it plays in one order, "
                       f"not a choice of {', '.join(strain.directions)}")
        if strain.trump == "none-or-first-lead" and v.play.first_lead != "declarer":
            # The lead that names trump is the declarer's: any other first leader would
            # name trump (or notrump) for the declaring side.
            conflict(sink, v, f"play.first_lead: {v.play.first_lead} cannot go with strain '{strain.name}', "
                              "which names trump by the declarer's first lead",
                     ("play", "first_lead"), ("auction", "strains", i, "trump"))
    books = v.deal.hand + (1 if v.deal.kitty and v.kitty.discards != "none" else 0)
    if a.max_level > books:
        # Beyond every book of a hand no bid can be made, and the ladder would grow without bound.
        conflict(sink, v, f"levels: to {a.max_level} is more than the {books} books of a hand",
                 ("auction", "levels", "to"), ("deal", "hand"))


def check_settings_take_effect(v: ir.Variant, sink: DiagnosticSink) -> None:
    """A setting written in a file must be able to change something.

    Other engines silently ignore such settings (a kitty rule in a game without a
    kitty); here they are errors, naming the setting and what makes it idle.
    """
    def idle(path: tuple, reason: str, *because: tuple) -> None:
        if v.is_set(*path):
            conflict(sink, v, f"{'.'.join(path)} has no effect: {reason}", path, *because)

    has_kitty = v.deal.kitty > 0
    if not has_kitty:
        idle(("kitty", "discards"), "there is no kitty", ("deal", "kitty"))
        idle(("kitty", "show"), "there is no kitty", ("deal", "kitty"))
        idle(("declaration", "when"), "there is no kitty to take", ("deal", "kitty"))
    if not v.deck.extra:
        idle(("play", "notrump_extras"), "the deck has no extra cards such as jokers", ("deck", "extra"))
    notrump_possible = any(s.trump in ("none", "suit-or-none", "none-or-first-lead") for s in v.auction.strains)
    if not notrump_possible:
        idle(("play", "notrump_extras"), "no contract is played without trump", ("auction", "strains"))
    suit_possible = any(s.trump != "none" for s in v.auction.strains)
    if not suit_possible:
        idle(("play", "trumps_above"), "no contract has a trump suit", ("auction", "strains"))
        idle(("kitty", "show"), "no contract has a trump suit", ("auction", "strains"))
    if v.play.renege == "penalty" and v.sides == "individual":
        conflict(sink, v, "renege: penalty moves books to 'the other side', which needs two sides, not "
                          f"{v.players} players each alone", ("play", "renege"), ("sides",))
    if v.play.renege != "penalty":
        idle(("play", "renege_books"), "reneges are refused, not penalised", ("play", "renege"))
    a = v.auction
    if a.rounds != "until-passed":
        idle(("auction", "passes_end"), "the auction goes round once", ("auction", "rounds"))
    if a.if_all_pass != "dealer-bids-or-redeal" and not a.redeal_without:
        idle(("auction", "redeal_dealer"), "no player may call redeal", ("auction", "if_all_pass"))
    if a.if_all_pass != "redeal":
        idle(("auction", "all_pass_dealer"), "a hand where all pass is not thrown in", ("auction", "if_all_pass"))
    if v.kitty.show == "suit-contracts" and v.declaration.when == "after-kitty":
        conflict(sink, v, "kitty.show: suit-contracts needs the trump named before the kitty is taken",
                 ("kitty", "show"), ("declaration", "when"))
    if v.play.notrump_extras == "out" and v.deal.kitty < len(v.deck.extra):
        # The declarer's own extras are replaced from the kitty and the others' from the
        # discards: with fewer kitty cards than extras, a hand can come up short.
        conflict(sink, v, f"notrump_extras: out needs a kitty of at least {len(v.deck.extra)} cards "
                          f"(one per extra card), not {v.deal.kitty}",
                 ("play", "notrump_extras"), ("deal", "kitty"), ("deck", "extra"))
    if v.play.notrump_extras == "out" and v.declaration.when == "after-kitty" and has_kitty:
        conflict(sink, v, "notrump_extras: out needs notrump declared before the kitty is taken",
                 ("play", "notrump_extras"), ("declaration", "when"))


def _layer_index(v: ir.Variant, path: tuple) -> int:
    """How late a layer set ``path`` (higher = later), to blame the newest setting."""
    origin = v.origin
    if origin is None:
        return 0
    doc, _ = origin._origin(path)
    return origin.layers.index(doc) if doc in origin.layers else 0


CHECKS = (check_deck, check_deal, check_sides, check_orders, check_auction, check_play,
          check_auction_rules, check_settings_take_effect)


def run_checks(v: ir.Variant, sink: DiagnosticSink) -> None:
    """Run every check; diagnostics accumulate in ``sink``."""
    for check in CHECKS:
        check(v, sink)
