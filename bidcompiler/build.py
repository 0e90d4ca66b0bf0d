"""Build the IR from a composed, schema-valid document, keeping every value's position.

The schema has already checked each file's shapes and spellings; this stage checks
that the composed variant is complete, fills in defaults, normalises spellings
(``10`` -> ``T``), compiles the formulas (inlining ``base`` where a house rule
builds on the formula it replaces) and attaches positions.  Cross-field checks
(does the deal use the whole deck …) are the job of :mod:`bidcompiler.checks`.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass, replace

from runtime.game import tie_breaks
from runtime.variables import GAME_VARIABLES, HAND_VARIABLES, MADE_VARIABLE, types_of

from . import ir
from .compose import ComposedDocument
from .errors import CompileError, DiagnosticSink
from .expressions import IfElse, Name, compile_ast, compile_expression, parse_expression

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

# What a complete variant must say after every layer is merged (section -> keys).
REQUIRED = {
    "deck": ("suits", "ranks"),
    "deal": ("hand", "kitty"),
    "auction": ("levels", "strains", "ranking"),
    "scoring": ("made", "declarer", "defender"),
    "game": ("win",),
}
REQUIRED_LEVELS = ("from", "to")
# What every strain must say once the layers are merged.  A layer need not say it:
# strains merge by name, and ``- name: notrump`` with ``levels`` only changes a strain
# the variant below defines whole.
REQUIRED_STRAIN = ("trump", "direction")
# Top-level settings (a variant may extend a file that lacks them, such as a house rule).
REQUIRED_TOP = ("players", "sides")


# game.target when no file sets one: the standard game's 7.
DEFAULT_TARGET = 7


def normalise_rank(rank) -> str:
    """``10`` -> ``T``; other ranks are already canonical after the schema check."""
    text = str(rank).upper()
    return "T" if text == "10" else text


def normalise_card(card) -> str:
    """``10H`` -> ``TH``; a card name such as ``BJ`` is kept."""
    text = str(card).upper()
    return "T" + text[2:] if text.startswith("10") else text


# kitty.show's words, each shorthand for a (when, contracts) pair; contracts () = every contract.
KITTY_SHOW_WORDS = {
    "never": ("never", ()),
    "auction": ("deal", ()),                   # face up from the deal, through the auction
    "suit-contracts": ("declaration", ("suit",)),  # shown once a suit contract is declared
}
CONTRACT_KINDS = ("notrump", "suit")


def kitty_show(value) -> tuple[str, tuple[str, ...]]:
    """kitty.show (a word, or ``{when, contracts}``) as (when, contracts), contracts sorted; () = every contract."""
    if not value:
        return "never", ()
    if isinstance(value, str):
        return KITTY_SHOW_WORDS[value]
    contracts = tuple(sorted(set(value.get("contracts") or CONTRACT_KINDS)))
    return value["when"], (() if contracts == CONTRACT_KINDS else contracts)


def card_roles(value) -> tuple:
    """play.roles (contract kind -> card -> role) as sorted pairs, cards normalised (``10H`` -> ``TH``)."""
    out = []
    for kind, cards in sorted((value or {}).items()):
        pairs = tuple(sorted((normalise_card(card), role) for card, role in (cards or {}).items() if role))
        if pairs:
            out.append((kind, pairs))
    return tuple(out)


def check_complete(doc: ComposedDocument, sink: DiagnosticSink) -> None:
    """Every required setting is present once all layers are merged."""
    data = doc.data
    where = doc.pos(())
    for key in REQUIRED_TOP:
        if key not in data:
            sink.error(where, f"missing required key '{key}'")
    for section, keys in REQUIRED.items():
        if not isinstance(data.get(section), dict):
            sink.error(where, f"missing required section '{section}'")
            continue
        for key in keys:
            if key not in data[section]:
                sink.error(doc.pos((section,)), f"{section}: missing required key '{key}'")
    levels = data.get("auction", {}).get("levels")
    if isinstance(levels, dict):
        for key in REQUIRED_LEVELS:
            if key not in levels:
                sink.error(doc.pos(("auction", "levels")), f"auction.levels: missing required key '{key}'")
    strains = data.get("auction", {}).get("strains")
    for i, strain in enumerate(strains if isinstance(strains, list) else ()):
        for key in REQUIRED_STRAIN:
            if isinstance(strain, dict) and key not in strain:
                sink.error(doc.pos(("auction", "strains", i)),
                           f"auction.strains: strain '{strain.get('name')}': missing required key '{key}'")


def check_layer_formulas(doc) -> list:
    """Type-check the formulas one file writes, on their own (``base`` allowed).

    A house rule is only compiled whole when laid over a variant; this lets
    ``bidwhist check`` catch a misspelt name in it without one.
    """
    problems = []
    for (section, key), (variables, expected) in FORMULA_CONTEXTS.items():
        value = (doc.data.get(section) or {}).get(key) if isinstance(doc.data.get(section), dict) else None
        if value is None:
            continue
        text = str(value).lower() if isinstance(value, bool) else str(value)
        try:
            compile_expression(text, {**variables, "base": expected}, expected, doc.content_pos((section, key)))
        except CompileError as exc:
            problems.extend(exc.diagnostics)
    return problems


def simplify(expr, known: tuple = ()):
    """Fold the conditionals that inlining ``base`` leaves repeated.

    Inside ``if c then A else B``, ``c`` is known true in ``A`` and false in ``B``;
    a conditional on a known condition is replaced by the branch it takes.  So a
    house rule saying ``if made then base else 2 * base`` over
    ``if made then over else -bid`` reads back as
    ``if made then over else 2 * -bid``, as meant.  ``known`` holds
    (condition, value) pairs.
    """
    if isinstance(expr, IfElse):
        for cond, value in known:
            if cond == expr.cond:
                return simplify(expr.then if value else expr.orelse, known)
        return replace(expr, cond=simplify(expr.cond, known),
                       then=simplify(expr.then, known + ((expr.cond, True),)),
                       orelse=simplify(expr.orelse, known + ((expr.cond, False),)))
    return _map_children(expr, lambda child: simplify(child, known))


def _map_children(expr, fn):
    """``expr`` with ``fn`` applied to each sub-expression (positions are not children)."""
    if not is_dataclass(expr):
        return expr
    changes = {}
    for f in fields(expr):
        if not f.compare:
            continue
        value = getattr(expr, f.name)
        if is_dataclass(value):
            changes[f.name] = fn(value)
        elif isinstance(value, tuple) and value and is_dataclass(value[0]):
            changes[f.name] = tuple(fn(v) for v in value)
    return replace(expr, **changes) if changes else expr


def _substitute(expr, name: str, replacement):
    """``expr`` with every variable ``name`` replaced by the tree ``replacement``."""
    if isinstance(expr, Name):
        return replacement if expr.name == name else expr
    return _map_children(expr, lambda child: _substitute(child, name, replacement))


def build_variant(doc: ComposedDocument, sink: DiagnosticSink) -> ir.Variant:
    """Turn a composed document into an IR ``Variant`` (errors go to ``sink``)."""
    check_complete(doc, sink)
    sink.raise_if_any()
    data = doc.data

    def pos(*path):
        return doc.pos(path)

    def section(name: str) -> dict:
        return data.get(name) or {}

    def formula(sec: str, key: str) -> ir.Formula:
        variables, expected = FORMULA_CONTEXTS[(sec, key)]
        stack = doc.formula_stack.get((sec, key))
        origin = doc.content_pos((sec, key)) if key in section(sec) else doc.pos((sec,))
        try:
            if stack:  # house rules that build on the formula they replace
                lowest = stack[0]
                tree = parse_expression(lowest.text, lowest.origin)
                if "base" in [n.name for n in _names(tree)]:
                    default = parse_expression(FORMULA_DEFAULTS.get((sec, key), "0"), lowest.origin)
                    tree = _substitute(tree, "base", default)
                compile_ast(tree, variables, expected, lowest.origin)
                for layer in stack[1:]:
                    upper = parse_expression(layer.text, layer.origin)
                    compile_ast(upper, {**variables, "base": expected}, expected, layer.origin)
                    tree = _substitute(upper, "base", tree)
                compiled = compile_ast(simplify(tree), variables, expected, origin)
            else:
                raw = section(sec).get(key, FORMULA_DEFAULTS.get((sec, key)))
                # YAML may have read ``0`` or ``true`` as a number or boolean: a
                # formula is text either way.
                text = str(raw).lower() if isinstance(raw, bool) else str(raw)
                compiled = compile_expression(text, variables, expected, origin)
        except CompileError as exc:  # collect and go on: report every error at once
            sink.extend(exc.diagnostics)
            return ir.Formula(text="", type=expected, ast=None, pos=origin)
        return ir.Formula(text=compiled.text, type=expected, ast=compiled, pos=origin)

    deck_data = section("deck")
    deck = ir.Deck(
        suits=tuple(deck_data["suits"]),
        ranks=tuple(normalise_rank(r) for r in deck_data["ranks"]),
        extra=tuple(deck_data.get("extra") or ()),
        without=tuple(normalise_card(c) for c in (deck_data.get("without") or ())),
        pos=pos("deck"),
    )
    deal_data = section("deal")
    deal = ir.Deal(
        hand=deal_data["hand"],
        kitty=deal_data["kitty"],
        first_dealer=deal_data.get("first_dealer", "random"),
        rotation=deal_data.get("rotation", "left"),
        undealt=deal_data.get("undealt", 0),
        pos=pos("deal"),
    )
    aliases = data.get("order_aliases") or {}
    orders = tuple(
        ir.Order(name=name, ranks=tuple(normalise_rank(r) for r in ranks), aliases=tuple(aliases.get(name) or ()),
                 pos=pos("orders", name))
        for name, ranks in section("orders").items()
    )
    a = section("auction")
    strains = []
    for i, s in enumerate(a["strains"]):
        direction = s["direction"]
        own = s.get("levels")
        # A strain's own levels: what it gives, the auction's for what it leaves out.
        levels = None if own is None else (own.get("from", a["levels"]["from"]), own.get("to", a["levels"]["to"]))
        strains.append(ir.Strain(
            name=s["name"],
            aliases=tuple(x.lower() for x in s.get("aliases", ())),
            bare=s.get("bare", False),
            trump=s["trump"],
            directions=(direction,) if isinstance(direction, str) else tuple(direction),
            levels=levels,
            pos=pos("auction", "strains", i),
        ))
    players = data["players"]
    auction = ir.Auction(
        first_caller=a.get("first_caller", "left-of-dealer"),
        rounds=a.get("rounds", "once"),
        # Only an auction that goes round until enough have passed counts passes.
        passes_end=a.get("passes_end", players - 1) if a.get("rounds") == "until-passed" else 0,
        if_all_pass=a.get("if_all_pass", "redeal"),
        dealer_may_take=a.get("dealer_may_take", False),
        redeal_without=tuple(normalise_rank(r) for r in (a.get("redeal_without") or ())),
        redeal_dealer=a.get("redeal_dealer", "next"),
        all_pass_dealer=a.get("all_pass_dealer", "next"),
        min_level=a["levels"]["from"],
        max_level=a["levels"]["to"],
        strains=tuple(strains),
        ranking=tuple(tuple(group) for group in a["ranking"]),
        must_bid=tuple(a.get("must_bid") or ()),
        pos=pos("auction"),
    )
    declaration = ir.Declaration(when=section("declaration").get("when", "before-kitty"), pos=pos("declaration"))
    k = section("kitty")
    show_when, show_contracts = kitty_show(k.get("show"))
    kitty = ir.Kitty(
        discards=k.get("discards") or ("declarer-book" if deal.kitty else "none"),
        show=show_when,
        show_contracts=show_contracts,
        taker=k.get("taker") or "declarer",
        pos=pos("kitty"),
    )
    p = section("play")
    play = ir.Play(
        first_lead=p.get("first_lead", "declarer"),
        trumps_above=tuple(p.get("trumps_above") or ()),
        notrump_extras=p.get("notrump_extras") or ("no-suit" if deck.extra else "none"),
        renege=p.get("renege", "refuse"),
        renege_books=p.get("renege_books", 3),
        roles=card_roles(p.get("roles")),
        pos=pos("play"),
    )
    scoring = ir.Scoring(
        made=formula("scoring", "made"),
        declarer=formula("scoring", "declarer"),
        defender=formula("scoring", "defender"),
        multiplier=formula("scoring", "multiplier"),
        multiply=tuple(section("scoring").get("multiply", ("declarer", "defenders"))),
        pos=pos("scoring"),
    )
    g = section("game")
    game = ir.Game(
        win=formula("game", "win"),
        lose=formula("game", "lose"),
        target=g.get("target", DEFAULT_TARGET),
        tie=tie_breaks(g.get("tie", "declarer")),
        floor=g.get("floor"),
        rubber=g.get("rubber", 1),
        pos=pos("game"),
    )
    return ir.Variant(
        name=data["name"],
        title=data.get("title", data["name"]),
        source=data.get("source", ""),
        house_rules=tuple(doc.house_rules),
        players=players,
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
        origin=doc,
    )


def _names(tree):
    """Every Name node of an expression tree."""
    if isinstance(tree, Name):
        yield tree
        return
    if is_dataclass(tree):
        for f in fields(tree):
            if not f.compare:
                continue
            value = getattr(tree, f.name)
            if isinstance(value, tuple):
                for v in value:
                    yield from _names(v)
            else:
                yield from _names(value)
