"""Build the IR from a schema-valid YAML document, keeping every node's position.

The schema has already checked shapes and spellings; this stage fills in defaults,
normalises spellings (``10`` -> ``T``), parses and type-checks the formulas, and
attaches positions.  Cross-field checks (does the deal use the whole deck, does
every strain appear in the ranking …) are the job of :mod:`bidcompiler.checks`.
"""

from __future__ import annotations

from runtime.variables import GAME_VARIABLES, HAND_VARIABLES, MADE_VARIABLE, types_of

from . import ir
from .errors import CompileError, DiagnosticSink
from .expressions import compile_expression
from .yamlload import LoadedYaml

HAND_TYPES = types_of(HAND_VARIABLES)
HAND_TYPES_WITH_MADE = {**HAND_TYPES, MADE_VARIABLE[0]: MADE_VARIABLE[1][0]}
GAME_TYPES = types_of(GAME_VARIABLES)

# Which names each formula may use and what type it must give.
FORMULA_CONTEXTS = {
    ("scoring", "made"): (HAND_TYPES, "bool"),
    ("scoring", "declarer"): (HAND_TYPES_WITH_MADE, "int"),
    ("scoring", "defender"): (HAND_TYPES_WITH_MADE, "int"),
    ("scoring", "multiplier"): (HAND_TYPES_WITH_MADE, "int"),
    ("game", "win"): (GAME_TYPES, "bool"),
    ("game", "lose"): (GAME_TYPES, "bool"),
}
FORMULA_DEFAULTS = {("scoring", "multiplier"): "1", ("game", "lose"): "false"}


def normalise_rank(rank) -> str:
    """``10`` -> ``T``; other ranks are already canonical after the schema check."""
    text = str(rank).upper()
    return "T" if text == "10" else text


def build_variant(doc: LoadedYaml, sink: DiagnosticSink) -> ir.Variant:
    """Turn a schema-valid document into an IR ``Variant`` (errors go to ``sink``)."""
    data = doc.data

    def pos(*path):
        return doc.pos(path)

    def formula(section: str, key: str) -> ir.Formula:
        variables, expected = FORMULA_CONTEXTS[(section, key)]
        raw = data[section].get(key)
        if raw is None:
            text, origin = FORMULA_DEFAULTS[(section, key)], doc.pos((section,))
        else:
            # YAML may have read ``0`` or ``true`` as a number or boolean: a formula
            # is text either way.
            text = str(raw).lower() if isinstance(raw, bool) else str(raw)
            origin = doc.content_pos((section, key))
        try:
            compiled = compile_expression(text, variables, expected, origin)
        except CompileError as exc:  # collect and go on: report every error at once
            sink.extend(exc.diagnostics)
            return ir.Formula(text=text, type=expected, ast=None, pos=origin)
        return ir.Formula(text=compiled.text, type=expected, ast=compiled, pos=origin)

    deck_data = data["deck"]
    deck = ir.Deck(
        suits=tuple(deck_data["suits"]),
        ranks=tuple(normalise_rank(r) for r in deck_data["ranks"]),
        extra=tuple(deck_data.get("extra", ())),
        pos=pos("deck"),
    )
    deal_data = data["deal"]
    deal = ir.Deal(
        hand=deal_data["hand"],
        kitty=deal_data["kitty"],
        first_dealer=deal_data.get("first_dealer", "random"),
        rotation=deal_data.get("rotation", "left"),
        pos=pos("deal"),
    )
    orders = tuple(
        ir.Order(name=name, ranks=tuple(normalise_rank(r) for r in ranks), pos=pos("orders", name))
        for name, ranks in data["orders"].items()
    )
    auction_data = data["auction"]
    strains = []
    for i, s in enumerate(auction_data["strains"]):
        direction = s["direction"]
        directions = (direction,) if isinstance(direction, str) else tuple(direction)
        strains.append(ir.Strain(
            name=s["name"],
            aliases=tuple(a.lower() for a in s.get("aliases", ())),
            trump=s["trump"],
            directions=directions,
            pos=pos("auction", "strains", i),
        ))
    auction = ir.Auction(
        first_caller=auction_data.get("first_caller", "left-of-dealer"),
        rounds=auction_data.get("rounds", "once"),
        dealer_must_bid=auction_data.get("dealer_must_bid", False),
        min_level=auction_data["levels"]["from"],
        max_level=auction_data["levels"]["to"],
        strains=tuple(strains),
        ranking=tuple(tuple(group) for group in auction_data["ranking"]),
        pos=pos("auction"),
    )
    declaration = ir.Declaration(
        when=data["declaration"].get("when", "before-kitty"), pos=pos("declaration"))
    kitty = ir.Kitty(
        discards=data["kitty"].get("discards", "declarer-book" if deal.kitty else "none"),
        pos=pos("kitty"),
    )
    play_data = data["play"]
    play = ir.Play(
        first_lead=play_data.get("first_lead", "declarer"),
        trumps_above=tuple(play_data.get("trumps_above", ())),
        notrump_extras=play_data.get("notrump_extras", "no-suit"),
        renege=play_data.get("renege", "refuse"),
        pos=pos("play"),
    )
    scoring = ir.Scoring(
        made=formula("scoring", "made"),
        declarer=formula("scoring", "declarer"),
        defender=formula("scoring", "defender"),
        multiplier=formula("scoring", "multiplier"),
        pos=pos("scoring"),
    )
    game = ir.Game(
        win=formula("game", "win"),
        lose=formula("game", "lose"),
        tie=data["game"].get("tie", "declarer"),
        pos=pos("game"),
    )
    return ir.Variant(
        name=data["name"],
        title=data.get("title", data["name"]),
        source=data.get("source", ""),
        players=data["players"],
        sides=data["sides"],
        deck=deck,
        deal=deal,
        orders=orders,
        auction=auction,
        declaration=declaration,
        kitty=kitty,
        play=play,
        scoring=scoring,
        game=game,
        pos=pos(),
    )
