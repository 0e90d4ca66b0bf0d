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
from runtime.notation import ascii_lower
from runtime.variables import GAME_VARIABLES, HAND_VARIABLES, INT, MADE_VARIABLE, types_of

from . import expressions, ir, vocabulary
from .compose import _BASE_RE, NAMED_PARTS, ORDINARY, ComposedDocument, NamedParts, base_in_condition
from .errors import CompileError, Diagnostic, DiagnosticSink, SourcePos, quoted
from .expressions import IfElse, Name, Num, compile_ast, compile_expression, parse_expression

# Numbers of the variant itself that any formula may name: the builder writes each one's value
# into the formula (the engine never sees the name), so a house rule written with them means
# the same thing on every ladder ("a bid of all the books" is 7 over six in most games, 18
# books outright where bids count books outright).
BUILD_CONSTANTS: dict[str, tuple[str, str]] = {
    "all_books_bid": (INT, "the bid of all the books: the hand's books (its tricks, and the discards' "
                           "book where they count as one) less six where bids count books over six"),
}
BOOKS_OVER = ir.BOOKS_OVER
HAND_TYPES = {**types_of(HAND_VARIABLES), **types_of(BUILD_CONSTANTS)}
HAND_TYPES_WITH_MADE = {**HAND_TYPES, MADE_VARIABLE[0]: MADE_VARIABLE[1][0]}
GAME_TYPES = {**types_of(GAME_VARIABLES), **types_of(BUILD_CONSTANTS)}

# Which names each formula may use and what type it must give.
FORMULA_CONTEXTS = {
    ("scoring", "made"): (HAND_TYPES, "bool"),
    ("scoring", "declarer"): (HAND_TYPES_WITH_MADE, "int"),
    ("scoring", "defender"): (HAND_TYPES_WITH_MADE, "int"),
    ("scoring", "multiplier"): (HAND_TYPES_WITH_MADE, "int"),
    ("game", "win"): (GAME_TYPES, "bool"),
    ("game", "lose"): (GAME_TYPES, "bool"),
}
# Names a formula may not use that another may, and why: said in place of "unknown name"
# (`score` in a hand's scoring is a name of the game's end, not a misspelling of `sweep`).
_GAME_ONLY = "it is a name of the game's end (game.win, game.lose), judged after each hand, not of a hand's score"
_HAND_ONLY = ("it is a name of a hand's scoring (scoring.*), not of the game's end, which sees the hand "
              "just played as last_bid, last_declarer, last_made and swept")
_ELSEWHERE_HAND = {name: _GAME_ONLY for name in GAME_VARIABLES if name not in HAND_TYPES_WITH_MADE}
FORMULA_ELSEWHERE = {
    **{path: _ELSEWHERE_HAND for path in FORMULA_CONTEXTS if path[0] == "scoring"},
    ("scoring", "made"): {**_ELSEWHERE_HAND, MADE_VARIABLE[0]: "scoring.made is what decides `made`: write the "
                          "condition itself (e.g. `books >= 6 + bid`)"},
    **{path: {name: _HAND_ONLY for name in HAND_TYPES_WITH_MADE if name not in GAME_TYPES}
       for path in FORMULA_CONTEXTS if path[0] == "game"},
}
# A formula no file writes: the schema's default (``base`` in a house rule over none: 0).
FORMULA_DEFAULTS = {path: str(vocabulary.default(".".join(path))).lower()
                    for path in FORMULA_CONTEXTS if "default" in vocabulary.vocabulary().by_schema[".".join(path)].node}

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




def _tie_list(value) -> list[str]:
    """game.tie as a list of tie-breaks: a shorthand word stands for the list the schema gives it."""
    return vocabulary.shorthand("game.tie")[value] if isinstance(value, str) else list(value)


def normalise_rank(rank) -> str:
    """``10`` -> ``T``; other ranks are already canonical after the schema check."""
    text = str(rank).upper()
    return "T" if text == "10" else text


def normalise_card(card) -> str:
    """``10H`` -> ``TH``; a card name such as ``BJ`` is kept."""
    text = str(card).upper()
    return "T" + text[2:] if text.startswith("10") else text


def deck_of(deck_data: dict, pos: SourcePos | None = None) -> ir.Deck:
    """The :class:`ir.Deck` a document's ``deck`` section describes (with ``suits`` and ``ranks``),
    its ranks and cards spelt as the IR spells them (also read by composition, before the build)."""
    return ir.Deck(
        suits=tuple(deck_data["suits"]),
        ranks=tuple(normalise_rank(r) for r in deck_data["ranks"]),
        extra=tuple(deck_data.get("extra") or default("deck.extra")),
        without=tuple(normalise_card(c) for c in (deck_data.get("without") or default("deck.without"))),
        pos=pos,
    )


def kitty_show_words() -> dict[str, tuple[str, tuple[str, ...]]]:
    """kitty.show's shorthand words (the schema's ``x-shorthand``), each as its (when, contracts) pair."""
    return {word: kitty_show(meaning) for word, meaning in vocabulary.shorthand("kitty.show").items()}


def contract_kinds() -> tuple[str, ...]:
    """The kinds of contract kitty.show may name, sorted (its default: every one)."""
    return tuple(sorted(vocabulary.default("kitty.show.contracts")))


def kitty_show(value) -> tuple[str, tuple[str, ...]]:
    """kitty.show (a word, or ``{when, contracts}``) as (when, contracts), contracts sorted; () = every contract."""
    value = value or vocabulary.default("kitty.show")
    if isinstance(value, str):
        value = vocabulary.shorthand("kitty.show")[value]
    kinds = contract_kinds()
    contracts = tuple(sorted(set(value.get("contracts") or kinds)))
    return value["when"], (() if contracts == kinds else contracts)


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
    written = data.get("auction", {}).get("strains")
    written = written if isinstance(written, list) else []
    strains = [s for s in written if isinstance(s, dict)]
    incomplete: dict[tuple, list[int]] = {}
    for i, strain in enumerate(written):
        if not isinstance(strain, dict):
            continue
        missing = tuple(key for key in REQUIRED_STRAIN if key not in strain)
        if missing:
            # Strains one file left incomplete alike are one mistake, said once: most often a house
            # rule changing strains its game does not have (an uptown and a downtown given a
            # direction, over a game whose bids are bare numbers).
            incomplete.setdefault((doc.pos(("auction", "strains", i)).file, missing), []).append(i)
    for (_, missing), indexes in incomplete.items():
        # Strains merge by name, so naming a strain the game does not have made a new one.
        named = [str(written[i].get("name")) for i in indexes]
        others = [str(s.get("name")) for s in strains
                  if not any(s is written[i] for i in indexes) and all(k in s for k in REQUIRED_STRAIN)]
        keys = " and ".join(f"'{k}'" for k in missing)
        which = " and ".join(quoted(n) for n in named)
        add = f"to add strain{'s' if len(named) > 1 else ''} {which}, give {'each' if len(named) > 1 else 'it'} {keys}"
        hint = (f"the other strains are {', '.join(quoted(n) for n in others)}: to change one of them, use its name; "
                f"{add}") if others else add
        sink.error(doc.pos(("auction", "strains", indexes[0])),
                   f"auction.strains: strain{'s' if len(named) > 1 else ''} {which}: missing required "
                   f"key{'s' if len(missing) > 1 else ''} {', '.join(repr(k) for k in missing)}", hint=hint)


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
        # Named conditions (game.win: {sweep: swept}) are each a formula, without `base`.
        written = {(section, key, name): (text, variables) for name, text in value.items() if text is not None} \
            if isinstance(value, dict) else {(section, key): (value, {**variables, "base": expected})}
        for path, (text, names) in written.items():
            text = str(text).lower() if isinstance(text, bool) else str(text)
            if len(path) == 3 and _BASE_RE.search(text):
                problems.append(Diagnostic(doc.content_pos(path), base_in_condition(path[2], path[:2])))
                continue
            try:
                compile_expression(text, names, expected, doc.content_pos(path), FORMULA_ELSEWHERE[(section, key)])
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


default = vocabulary.default  # a setting's default lives in the schema (``default``)

# The defaults worked out from other settings, here in build_variant; the schema marks
# each with ``x-default-derived`` (saying how, for editors), and a test checks the two agree.
DERIVED_DEFAULTS = ("title", "auction.passes_end", "auction.strains[*].levels", "kitty.discards",
                    "play.notrump_extras")


def _all_books_bid(data: dict) -> int:
    """The bid of all the books (:data:`BUILD_CONSTANTS`): not the ladder's top, which a game or
    ``--set`` may cut short, but what a bid would count if it claimed every book of the hand.

    The books are counted as the engine counts them (:func:`ir.books_of_hand`, the count the
    ladder is bounded by).
    """
    deal = data.get("deal") or {}
    hand, kitty = deal.get("hand", 0), deal.get("kitty", 0)
    books = ir.books_of_hand(hand, kitty, _kitty_discards(data.get("kitty") or {}, kitty))
    return books - BOOKS_OVER[_bids_count((data.get("auction") or {}).get("levels") or {})]


def _kitty_discards(kitty_section: dict, kitty_cards: int) -> str:
    """kitty.discards as written, or its derived default: a book of the declarer's where there is a kitty."""
    return kitty_section.get("discards") or ("declarer-book" if kitty_cards else "none")


def _bids_count(levels: dict) -> str:
    """auction.levels.counts as written, or its default (books over six)."""
    return levels.get("counts", default("auction.levels.counts"))


def build_variant(doc: ComposedDocument, sink: DiagnosticSink) -> ir.Variant:
    """Turn a composed document into an IR ``Variant`` (errors go to ``sink``)."""
    check_complete(doc, sink)
    sink.raise_if_any()
    data = doc.data

    def pos(*path):
        return doc.pos(path)

    def section(name: str) -> dict:
        return data.get(name) or {}

    constants = {"all_books_bid": _all_books_bid(data)}

    def with_constants(compiled, variables, expected, origin):
        """``compiled`` with the variant's own numbers (:data:`BUILD_CONSTANTS`) written in."""
        named = [name for name in constants if name in compiled.names]
        if not named:
            return compiled
        tree = compiled.ast
        for name in named:
            tree = _substitute(tree, name, Num(constants[name]))
        return compile_ast(tree, variables, expected, origin)

    def formula(sec: str, key: str, *condition: str) -> ir.Formula:
        # ``condition``: the name of one named condition of a game end (game.win.sweep).
        variables, expected = FORMULA_CONTEXTS[(sec, key)]
        elsewhere = FORMULA_ELSEWHERE[(sec, key)]
        path = (sec, key, *condition)
        stack = doc.formula_stack.get(path)
        origin = doc.content_pos(path) if key in section(sec) else doc.pos((sec,))
        try:
            if stack:  # house rules that build on the formula they replace
                lowest = stack[0]
                tree = parse_expression(lowest.text, lowest.origin)
                if "base" in [n.name for n in _names(tree)]:
                    default = parse_expression(FORMULA_DEFAULTS.get((sec, key), "0"), lowest.origin)
                    tree = _substitute(tree, "base", default)
                compile_ast(tree, variables, expected, lowest.origin, elsewhere)
                for layer in stack[1:]:
                    upper = parse_expression(layer.text, layer.origin)
                    compile_ast(upper, {**variables, "base": expected}, expected, layer.origin, elsewhere)
                    tree = _substitute(upper, "base", tree)
                compiled = compile_ast(simplify(tree), variables, expected, origin)
            else:
                raw = section(sec).get(key, FORMULA_DEFAULTS.get((sec, key)))
                if condition:
                    raw = raw[condition[0]]
                # YAML may have read ``0`` or ``true`` as a number or boolean: a
                # formula is text either way.
                text = str(raw).lower() if isinstance(raw, bool) else str(raw)
                compiled = compile_expression(text, variables, expected, origin, elsewhere)
            compiled = with_constants(compiled, variables, expected, origin)
        except CompileError as exc:  # collect and go on: report every error at once
            sink.extend(exc.diagnostics)
            return ir.Formula(text="", type=expected, ast=None, pos=origin)
        return ir.Formula(text=compiled.text, type=expected, ast=compiled, pos=origin)

    def game_end(key: str) -> tuple[ir.Formula, tuple[ir.Condition, ...]]:
        """game.win or game.lose: the ``or`` of its named conditions, and the conditions."""
        value = section("game").get(key)
        if not isinstance(value, dict):  # one plain formula: the ordinary end
            whole = formula("game", key)
            return whole, (ir.Condition(name=ORDINARY, formula=whole),)
        when = tuple(ir.Condition(name=name, formula=formula("game", key, name)) for name in value)
        try:
            joined = or_of(when, doc.content_pos(("game", key)), f"game.{key}")
        except CompileError as exc:
            sink.extend(exc.diagnostics)
            return ir.Formula(text="", type="bool", ast=None, pos=doc.content_pos(("game", key))), when
        return joined, when

    def plain_value(end: ir.Formula) -> object:
        """game.win's or game.lose's value when it is plainly ``true`` or ``false`` (written so,
        folded to it, or every named condition removed): ``True``, ``False``; else ``None``."""
        tree = getattr(end.ast, "ast", None)
        plain = expressions.simplify(tree) if tree is not None else None
        return plain.value if isinstance(plain, expressions.Bool) else None

    def no_game_end(win: ir.Formula, win_when: tuple[ir.Condition, ...], lose: ir.Formula) -> None:
        """Refuse game ends under which no game could end. A win that is plainly ``false``
        (written so, folded to it, or every condition removed) is refused only where game.lose
        is plainly ``false`` too: a side meeting a losing condition leaves the side still
        standing the winner, so a game may end by its losing condition alone. A lose that is
        plainly ``true`` is refused: every side would lose every hand, which leaves no side
        standing to win, so the game would go on for ever."""
        if plain_value(win) is False and plain_value(lose) is False:
            if isinstance(section("game").get("win"), dict) and not win_when:
                # The layer that removed the last condition, not the one that first wrote game.win.
                sink.error(doc.newest_pos(("game", "win")), "game.win: every condition is removed, so "
                           "no side could ever win",
                           hint="keep or add one condition (e.g. `target: score >= target`)")
            else:
                sink.error(doc.newest_pos(("game", "win")), "game.win is always false, so no side "
                           "could ever win",
                           hint="write a condition a side can meet (e.g. `score >= target`)")
        if plain_value(lose) is True:
            sink.error(doc.newest_pos(("game", "lose")), "game.lose is always true, so every side would lose "
                       "every hand, no side would be left standing to win, and the game would never end",
                       hint="write a condition only some sides meet (e.g. `score <= -target`), or `false` "
                            "for no losing end")

    def defenders_score() -> tuple[ir.Formula, tuple[ir.Condition, ...]]:
        """scoring.defender: one formula, or the sum of its named terms (each a formula of its own); and the terms."""
        value = section("scoring").get("defender")
        if not isinstance(value, dict):
            plain = formula("scoring", "defender")
            return plain, (ir.Condition(name="score", formula=plain),)
        terms = tuple(ir.Condition(name=name, formula=formula("scoring", "defender", name)) for name in value)
        try:
            return sum_of(terms, doc.content_pos(("scoring", "defender"))), terms
        except CompileError as exc:
            sink.extend(exc.diagnostics)
            return ir.Formula(text="", type="int", ast=None, pos=doc.content_pos(("scoring", "defender"))), terms

    deck = deck_of(section("deck"), pos("deck"))
    deal_data = section("deal")
    deal = ir.Deal(
        hand=deal_data["hand"],
        kitty=deal_data["kitty"],
        first_dealer=deal_data.get("first_dealer", default("deal.first_dealer")),
        rotation=deal_data.get("rotation", default("deal.rotation")),
        undealt=deal_data.get("undealt", default("deal.undealt")),
        pos=pos("deal"),
    )
    aliases = data.get("order_aliases") or default("order_aliases")
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
            # In ASCII case, as calls are read (runtime.notation): Unicode's lower() would make an
            # alias written `ÜBER` the word `über`, which the call `4 ÜBER` then does not match.
            aliases=tuple(ascii_lower(x) for x in s.get("aliases", default("auction.strains[*].aliases"))),
            bare=s.get("bare", default("auction.strains[*].bare")),
            trump=s["trump"],
            directions=(direction,) if isinstance(direction, str) else tuple(direction),
            levels=levels,
            pos=pos("auction", "strains", i),
        ))
    players = data["players"]
    auction = ir.Auction(
        first_caller=a.get("first_caller", default("auction.first_caller")),
        rounds=a.get("rounds", default("auction.rounds")),
        # Only an auction that goes round until enough have passed counts passes.
        passes_end=a.get("passes_end", players - 1) if a.get("rounds") == "until-passed" else 0,
        if_all_pass=a.get("if_all_pass", default("auction.if_all_pass")),
        dealer_may_take=a.get("dealer_may_take", default("auction.dealer_may_take")),
        redeal_without=tuple(normalise_rank(r) for r in (a.get("redeal_without") or default("auction.redeal_without"))),
        redeal_dealer=a.get("redeal_dealer", default("auction.redeal_dealer")),
        all_pass_dealer=a.get("all_pass_dealer", default("auction.all_pass_dealer")),
        min_level=a["levels"]["from"],
        max_level=a["levels"]["to"],
        strains=tuple(strains),
        ranking=tuple(tuple(group) for group in a["ranking"]),
        must_bid=tuple(a.get("must_bid") or default("auction.must_bid")),
        bids_count=_bids_count(a["levels"]),
        overcall_by=a.get("overcall_by", default("auction.overcall_by")),
        overcall_partner=a.get("overcall_partner", default("auction.overcall_partner")),
        dealer_bids_from=a.get("dealer_bids_from", default("auction.dealer_bids_from")),
        pos=pos("auction"),
    )
    declaration = ir.Declaration(when=section("declaration").get("when", default("declaration.when")),
                                 pos=pos("declaration"))
    k = section("kitty")
    show_when, show_contracts = kitty_show(k.get("show"))
    kitty = ir.Kitty(
        discards=_kitty_discards(k, deal.kitty),
        show=show_when,
        show_contracts=show_contracts,
        taker=k.get("taker") or default("kitty.taker"),
        pos=pos("kitty"),
    )
    p = section("play")
    play = ir.Play(
        first_lead=p.get("first_lead", default("play.first_lead")),
        trumps_above=tuple(normalise_card(c) for c in (p.get("trumps_above") or default("play.trumps_above"))),
        notrump_extras=p.get("notrump_extras") or ("no-suit" if deck.extra else "none"),
        renege=p.get("renege", default("play.renege")),
        renege_books=p.get("renege_books", default("play.renege_books")),
        roles=card_roles(p.get("roles") or default("play.roles")),
        pos=pos("play"),
    )
    defender, defender_terms = defenders_score()
    scoring = ir.Scoring(
        made=formula("scoring", "made"),
        declarer=formula("scoring", "declarer"),
        defender=defender,
        defender_terms=defender_terms,
        multiplier=formula("scoring", "multiplier"),
        multiply=tuple(section("scoring").get("multiply", default("scoring.multiply"))),
        pos=pos("scoring"),
    )
    g = section("game")
    win, win_when = game_end("win")
    lose, lose_when = game_end("lose")
    no_game_end(win, win_when, lose)
    game = ir.Game(
        win=win,
        lose=lose,
        win_when=win_when,
        lose_when=lose_when,
        target=g.get("target", default("game.target")),
        tie=tie_breaks(_tie_list(g.get("tie", default("game.tie")))),
        floor=g.get("floor", default("game.floor")),
        rubber=g.get("rubber", default("game.rubber")),
        pos=pos("game"),
    )
    return ir.Variant(
        name=data["name"],
        title=data.get("title", data["name"]),
        source=data.get("source", default("source")),
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


def or_of(conditions: tuple[ir.Condition, ...], pos, path: str = "game.win") -> ir.Formula:
    """One condition that holds when any of ``conditions`` does (the engine reads one formula).

    A condition that is plainly ``false`` adds nothing and is left out
    (``lose: {target: false, sets: sets >= 3}`` is ``sets >= 3``); one condition is
    itself, so a variant with one condition compiles as before.

    Each condition was checked alone; joined, one may still be refused (nested one
    level too deep under the ``or``).  The error then names that condition at its own
    place (``path``.NAME, in the file that wrote it): the joined text is written
    nowhere, so a column in it would point past the end of some other file's line.
    """
    return _joined(conditions, pos, path, NAMED_PARTS[("game", "win")], GAME_TYPES, "bool")


def sum_of(terms: tuple[ir.Condition, ...], pos, path: str = "scoring.defender") -> ir.Formula:
    """The sum of named ``terms`` (the defenders' score), as :func:`or_of` joins conditions.

    A term that is plainly ``0`` adds nothing and is left out, so ``{score: 0,
    over-six: ...}`` (a game whose defenders score nothing, with a rule adding their
    books over six) is the over-six term alone.
    """
    return _joined(terms, pos, path, NAMED_PARTS[("scoring", "defender")], HAND_TYPES_WITH_MADE, "int")


def _joined(parts: tuple[ir.Condition, ...], pos, path: str, how: NamedParts, variables, kind: str) -> ir.Formula:
    """``parts``' formulas joined as ``how`` says (compose's :data:`NAMED_PARTS`: ``or``, ``+``) into
    one (see :func:`or_of`); ``how.empty`` when there are none."""
    joiner, empty, noun = how.joiner, how.empty, how.noun + "s"
    formulas = tuple(c.formula for c in parts)
    if any(not f.text for f in formulas):  # a part had an error, reported already
        return ir.Formula(text="", type=kind, ast=None, pos=pos)
    kept = [c for c in parts if c.formula.text != empty] or list(parts[:1])
    if not kept:  # no part at all: the empty value (the game never ends this way; no points)
        compiled = compile_expression(empty, variables, kind, pos)
        return ir.Formula(text=compiled.text, type=kind, ast=compiled, pos=pos)
    if len(kept) == 1 and kept[0].formula.ast is not None:
        return kept[0].formula
    spans, texts, col = [], [], 1
    for c in kept:
        part = f"({c.formula.text})"
        spans.append((col, col + len(part), c))
        texts.append(part)
        col += len(part) + len(f" {joiner} ")
    try:
        compiled = compile_expression(f" {joiner} ".join(texts), variables, kind, _JOINED)
    except CompileError as exc:
        def placed(d: Diagnostic) -> Diagnostic:
            at = d.pos.col if d.pos.file == _JOINED.file and d.pos.line == 1 else 0
            c = next((c for begin, end, c in spans if begin <= at < end), kept[-1])
            return Diagnostic(c.formula.pos or pos,
                              f"{path}.{c.name}: {d.message} (joined by `{joiner}` to the other {noun} of {path})",
                              hint=d.hint)
        raise CompileError([placed(d) for d in exc.diagnostics]) from None
    return ir.Formula(text=compiled.text, type=kind, ast=compiled, pos=pos)


# The joined text of :func:`or_of` is in no file: its errors are placed by hand.
_JOINED = SourcePos("<joined conditions>", 1, 1)


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
