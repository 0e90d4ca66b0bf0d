"""Semantic checks over the IR: a tuple of plain functions, each adding diagnostics.

Each check looks at one concern and reports every problem it sees; ``run_checks``
runs them all so the user gets every error in one go.  A check never raises and
never changes the IR.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from runtime.game import LAST_TIE_BREAK
from runtime.notation import CALL_WORDS, ascii_lower
from runtime.variables import HAND_VARIABLES

from . import expressions, ir, resources
from .compose import FORMULA_PATHS, GAME_ENDS, ORDINARY, SET_PREFIX, set_layer
from .errors import DiagnosticSink, SourcePos, close_matches
from .schemacheck import validate
from .seatwords import DECLARER_SEATS, PARTNER_SEATS

HAND_NAMES = tuple(HAND_VARIABLES)


def check_deck(v: ir.Variant, sink: DiagnosticSink) -> None:
    """No card twice: ranks are distinct (``10`` is ``T``), extra cards repeat no suited card."""
    for rank, n in Counter(v.deck.ranks).items():
        if n > 1:
            same = " (10 and T are the same rank)" if rank == "T" else ""
            sink.error(v.at("deck", "ranks"), f"deck.ranks lists rank {rank} {n} times{same}: "
                                              "the deck would hold the same cards twice",
                       hint=f"list rank {rank} once in deck.ranks")
    suited = {r + s for s in v.deck.suits for r in v.deck.ranks}
    for card in v.deck.extra:
        if card in suited:
            conflict(sink, v, f"extra card {card} is already in the deck as a suited card",
                     ("deck", "extra"), ("deck", "ranks"), ("deck", "suits"),
                     fix=(f"take {card} out of deck.extra", "give the extra card another name"))
    full = suited | set(v.deck.extra)
    for card in v.deck.without:
        if card not in full:
            conflict(sink, v, f"deck.without takes out {card}, which is not a card of the deck "
                              f"({len(v.deck.suits)} suits {''.join(v.deck.suits)} x ranks {' '.join(v.deck.ranks)}"
                              + (f", and {' '.join(v.deck.extra)}" if v.deck.extra else "") + ")",
                     ("deck", "without"), ("deck", "ranks"), ("deck", "suits"), ("deck", "extra"),
                     fix=(f"take {card} out of deck.without", "name a card the deck holds"))
    for card, n in Counter(v.deck.without).items():
        if n > 1:
            # 10S and TS are one card: the schema's uniqueItems sees two spellings.
            sink.error(v.at("deck", "without"), f"deck.without names {card} {n} times (10 and T are the same rank)",
                       hint=f"name {card} once in deck.without")


def deck_size(v: ir.Variant) -> int:
    """How many cards the variant's deck has (less the cards taken out)."""
    return len(v.deck.cards())


@dataclass(frozen=True)
class Remove:
    """A way out offered by a check: take the setting at ``path`` away.

    It is written out in the syntax of the user's file (``orders: {downtown: ~}``,
    ``orders { remove downtown }`` or ``--set orders.downtown=~``), and offered only
    where the schema lets that setting be removed.
    """

    path: tuple


# The settings that decide how many books a hand has: the cards dealt to each player,
# and the kitty whose discards count as a book unless `kitty.discards: none`.  A file
# that changes any of them can make a ladder its base wrote too tall: the message leads
# with that file.
_BOOK_SETTINGS = (("deal", "hand"), ("deal", "kitty"), ("kitty", "discards"))
_COUNTS = ("auction", "levels", "counts")  # what a bid's number counts: over six leaves six books out


def conflict(sink: DiagnosticSink, v: ir.Variant, message: str, here: tuple, *there: tuple,
             fix: tuple = (), pair: tuple | None = None) -> None:
    """Report ``message`` about the setting ``here``, naming where the settings ``there`` were made.

    When an overlay does not fit its base the settings live in different files.  The
    message then leads with the user's file (a house rule or variant of their own, or
    a ``--set``), the one place they can edit, even when the setting it is about sits
    in a shipped file; the other places follow in brackets.  ``fix`` lists what the
    user can do (sentences, or :class:`Remove`), shown as "to fix: a, or b".  ``pair``
    is the other half of a pair of values the message is about with ``here`` (a
    strain's ``from`` for its ``to``): its place is named as ``here``'s is, shipped or not.
    """
    # A setting no file wrote (a default) has no place of its own to name.
    about = (here,) if pair is None else (here, pair)
    places = [(path, _where(v, path) if _written(v, path) else None) for path in (*about, *there)]
    lead_path, lead = places[0]
    if lead is None or resources.is_shipped(lead.file):
        named = [(path, pos) for path, pos in places if pos is not None]
        lead_path, lead = next(((path, pos) for path, pos in named if not resources.is_shipped(pos.file)),
                               named[0] if named else (here, _where(v, here)))
    others = []
    if lead_path != here and lead is not None:
        others.append(f"here: {_dotted(lead_path)}")
    for path, pos in places:
        if path == lead_path or pos is None or lead is None or pos.file == lead.file:
            continue
        # Past the user's own line, only the setting the message is about needs its
        # shipped place; the shipped file's other settings are not theirs to edit.
        if path in about or not resources.is_shipped(pos.file) or resources.is_shipped(lead.file):
            others.append(f"{_dotted(path)} at {_shown(pos)}")
    if others:
        message += " (" + "; ".join(dict.fromkeys(others)) + ")"
    ways = [w for w in (_way(v, item, lead) for item in fix) if w]
    sink.error(lead, message, hint=", or ".join(ways) if ways else None)


def _newest_part(v: ir.Variant, path: tuple, keys: tuple) -> tuple[tuple, tuple | None]:
    """The part of the section ``path`` (one of ``keys``) the newest layer wrote, else ``path``;
    and the other part, when some layer wrote it too (else None).

    A message about a pair of values (a strain's levels from and to) points at the
    value itself, not at the ``{`` of its section, and at the same column whether
    the section was written whole by one file or part by part over another; and it
    names where the other value was set (``from: 4`` in a house rule under ``to: 2``).
    """
    origin = v.origin
    if origin is None:
        return path, None
    written = [path + (key,) for key in keys if origin.is_set(path + (key,))]
    if not written:
        return path, None
    # max keeps the first of equals: ``from`` when one layer wrote both.
    newest = max(written, key=lambda part: (origin.newest_layer(part), -written.index(part)))
    return newest, next((part for part in written if part != newest), None)


def _where(v: ir.Variant, path: tuple) -> SourcePos | None:
    """Where the setting at ``path`` (or, for a section, its newest part) was made."""
    origin = v.origin
    return origin.newest_pos(path) if origin is not None else v.pos


def _written(v: ir.Variant, path: tuple) -> bool:
    """Whether some file wrote the setting at ``path`` (or something inside it), or removed a
    section holding it (`declaration: ~`). A block written without the setting is no place of it:
    its default applies (`deck.without`, which a base game's `deck` block may not say)."""
    origin = v.origin
    if origin is None or origin.origins.get(path) or any(p[:len(path)] == path for p in origin.origins):
        return True
    cut = next((c for c in range(len(path) - 1, 0, -1) if origin.origins.get(path[:c])), 0)
    if not cut:
        return False
    node: object = origin.data
    for depth, key in enumerate(path):
        if isinstance(node, dict) and key in node:
            node = node[key]
        elif isinstance(node, list) and isinstance(key, int) and key < len(node):
            node = node[key]
        else:
            # Gone at the section a file set (removed whole), or missing inside a block it wrote.
            return depth < cut
    return True


def _dotted(path: tuple) -> str:
    return ".".join(map(str, path))


def _shown(pos: SourcePos) -> str:
    """A position as a message names it: a ``--set`` change is one argument, not a file with lines;
    a shipped file is named by its shipped name (:func:`resources.shown_place`)."""
    return pos.file if pos.file.startswith(SET_PREFIX) else resources.shown_place(pos.file, pos.line, pos.col)


def _way(v: ir.Variant, item, lead: SourcePos | None) -> str | None:
    """One way out, as text; a :class:`Remove` the schema does not allow is no way at all."""
    if not isinstance(item, Remove):
        return item

    def what(path: tuple) -> str:
        return f"`{path[-1]}` from `{_dotted(path[:-1])}`" if len(path) > 1 else f"`{path[0]}`"

    # Every file is shipped (the lead is one only then): none is the user's to edit, and its
    # installed path is no name they wrote; a --set takes the setting out for them.
    shipped = lead is not None and resources.is_shipped(lead.file)
    if lead is not None and not shipped and _only_setter(v, item.path) == lead.file:
        # Written in the user's file and nowhere below it: deleting the line will do.
        return f"remove {what(item.path)}"
    path = _removable(v, item.path)
    if path is None:
        return None
    where = lead.file if lead is not None else "your file"
    if shipped or where.startswith(SET_PREFIX):
        return f"remove {what(path)} with `--set {_dotted(path)}=~`"
    if where.endswith(".whist"):
        written = f"remove {path[-1]}"
        for key in reversed(path[:-1]):
            written = f"{key} {{ {written} }}"
    else:
        written = f"{path[-1]}: ~"
        for key in reversed(path[:-1]):
            written = f"{key}: {{{written}}}"
    return f"remove {what(path)} (in {where}: `{written}`)"


def _only_setter(v: ir.Variant, path: tuple) -> str | None:
    """The file of the one layer that writes ``path``, if exactly one does."""
    if v.origin is None:
        return None
    writers = []
    for layer in v.origin.layers:
        node = layer.data
        for key in path:
            node = node.get(key) if isinstance(node, dict) else None
        if node is not None:
            writers.append(layer.filename)
    return writers[0] if len(writers) == 1 else None


def _removable(v: ir.Variant, path: tuple) -> tuple | None:
    """``path``, or the section holding only it, if a layer may remove it; else None.

    ``declaration.when`` cannot be removed alone, but ``declaration`` holds nothing
    else, so removing ``declaration`` takes exactly that setting away.
    """
    while path:
        if _schema_allows_null(path):
            return path
        parent = path[:-1]
        node = v.origin.data if v.origin is not None else {}
        for key in parent:
            node = node.get(key, {}) if isinstance(node, dict) else {}
        if not (isinstance(node, dict) and set(node) == {path[-1]}):
            return None
        path = parent
    return None


@lru_cache(maxsize=128)
def _schema_allows_null(path: tuple) -> bool:
    """True if a house rule may write ``~`` (remove the setting) at ``path``: the schema says."""
    from .pipeline import variant_schema  # the pipeline imports this module

    return not validate(set_layer(f"{_dotted(path)}=~"), variant_schema())


def _cards(n: int) -> str:
    """``n`` cards, in words that agree with the number ("1 card", "0 cards")."""
    return f"{n} card" if n == 1 else f"{n} cards"


def check_deal(v: ir.Variant, sink: DiagnosticSink) -> None:
    """The deal must use the whole deck exactly: the hands, the kitty and the cards set aside."""
    aside = v.deal.undealt
    dealt = v.players * v.deal.hand + v.deal.kitty + aside
    size = deck_size(v)
    if dealt != size:
        settings = [("deal", "kitty"), ("deal", "hand"), ("deal", "undealt"), ("deck", "ranks"), ("deck", "suits"),
                    ("deck", "extra"), ("deck", "without"), ("players",)]
        latest = max(settings, key=lambda p: _layer_index(v, p))
        fix = []
        if (size - v.deal.kitty - aside) % v.players == 0 and size > v.deal.kitty + aside:
            fix.append(f"deal {_cards((size - v.deal.kitty - aside) // v.players)} a hand (deal.hand)")
        if 0 <= size - v.players * v.deal.hand - aside != v.deal.kitty:
            fix.append(f"make the kitty {_cards(size - v.players * v.deal.hand - aside)} (deal.kitty)")
        if aside or v.is_set("deal", "undealt"):
            if size - v.players * v.deal.hand - v.deal.kitty >= 0:
                fix.append(f"set {_cards(size - v.players * v.deal.hand - v.deal.kitty)} aside (deal.undealt)")
        fix.append(f"change the deck to {_cards(dealt)}")
        used = f"{v.players} players x {v.deal.hand} + kitty {v.deal.kitty}"
        used += f" + {aside} set aside" if aside else ""
        conflict(sink, v, f"the deal uses {dealt} cards ({used}) but the deck has {size}", latest,
                 *[p for p in settings if p != latest], fix=tuple(fix))


def check_sides(v: ir.Variant, sink: DiagnosticSink) -> None:
    """Partnerships need an even number of players."""
    if v.sides == "partners" and v.players % 2:
        conflict(sink, v, f"sides: partners needs an even number of players, not {v.players}",
                 ("sides",), ("players",), fix=("use an even number of players", "play `sides: individual`"))
    elif v.sides == "partners" and v.players < 4:
        # Two partnerships of at least two: with two players "partners" would be one side.
        conflict(sink, v, f"sides: partners needs at least 4 players (two partnerships), not {v.players}",
                 ("sides",), ("players",), fix=("play `sides: individual`", "use 4 players"))


def _seat_settings(v: ir.Variant) -> list[tuple[tuple, str]]:
    """Every (path, seat word) of a setting that names a seat."""
    found = [(("play", "first_lead"), v.play.first_lead), (("kitty", "taker"), v.kitty.taker)]
    found.extend((("auction", "must_bid", i), word) for i, word in enumerate(v.auction.must_bid))
    return found


def check_seats(v: ir.Variant, sink: DiagnosticSink) -> None:
    """Seats named by role must exist when the rule asks: a partner needs partnerships, the auction has no declarer.

    A first dealer named by number must be one of the players' seats.
    """
    first = v.deal.first_dealer
    if first != "random" and first >= v.players:
        conflict(sink, v, f"deal.first_dealer: seat {first} does not exist: the seats are 0 to {v.players - 1}",
                 ("deal", "first_dealer"), ("players",),
                 fix=(f"name a seat from 0 to {v.players - 1}", "draw the first dealer (`deal.first_dealer: random`)"))
    for path, word in _seat_settings(v):
        if word in PARTNER_SEATS and v.sides != "partners":
            conflict(sink, v, f"{_dotted(path)}: {word} names a partner, but each of the {v.players} players "
                              "plays alone", path, ("sides",),
                     fix=("name another seat (dealer, declarer, left-of-declarer ...)", "play in partnerships"))
        if path[0] == "auction" and word in DECLARER_SEATS:
            sink.error(v.at(*path), f"{_dotted(path)}: {word} names a seat from the declarer, "
                                    "and the auction has no declarer yet",
                       hint="name the seat from the dealer (first-caller, dealer, left-of-dealer ...)")


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
            conflict(sink, v, f"order '{order.name}' " + "; ".join(problems), ("orders", order.name),
                     ("deck", "ranks"),
                     fix=(f"list each rank of the deck ({' '.join(v.deck.ranks)}) once in orders.{order.name}",))
    check_order_aliases(v, sink)


def check_order_aliases(v: ir.Variant, sink: DiagnosticSink) -> None:
    """order_aliases name orders that exist, and no word names two orders."""
    names = {o.name for o in v.orders}
    given = v.origin.data.get("order_aliases") if v.origin is not None else None
    for name in (given or {}):
        if name not in names:
            conflict(sink, v, f"order_aliases names order '{name}', which is not one of the orders "
                              f"({', '.join(sorted(names))})", ("order_aliases", name), ("orders",),
                     fix=(f"name one of the orders instead of '{name}'", Remove(("order_aliases", name))))
    # Each word names one order: its name, its aliases, the aliases of a strain named after it.
    meaning: dict[str, str] = {o.name: o.name for o in v.orders}
    # The strains' words first, so a clash is reported at the alias written in order_aliases.
    words = [(alias, s.name) for s in v.auction.strains if s.name in names for alias in s.aliases]
    words += [(alias, o.name) for o in v.orders for alias in o.aliases]
    for word, order in words:
        if meaning.setdefault(word, order) != order:
            conflict(sink, v, f"order_aliases: '{word}' would name both order '{meaning[word]}' and order "
                              f"'{order}'", ("order_aliases", order), ("orders",), ("auction", "strains"),
                     fix=(f"give the word '{word}' to one order only",))


def _quoted(names: list[str]) -> str:
    """``names`` quoted and joined for a message: 'a', 'a' and 'b', 'a', 'b' and 'c'."""
    quoted = [f"'{n}'" for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + f" and {quoted[-1]}"


def _s(names: list[str]) -> str:
    """The plural ending for a list of ``names``."""
    return "" if len(names) == 1 else "s"


def _is_not_strain(names: list[str]) -> str:
    """"is not a strain" or "are not strains", as ``names`` has one or more."""
    return "is not a strain" if len(names) == 1 else "are not strains"


def _misspelt_in_ranking(unknown: list[str], unranked: list[str]) -> dict[str, str]:
    """Each name of ``unknown`` (ranked, but no strain) that is a misspelling of a strain of
    ``unranked`` (a strain the ranking leaves out), with that strain: `uptown < dowtown <
    notrump` is one mistake, said once with its "did you mean", not two messages (a name
    that is no strain, a strain left unplaced) that leave the reader to pair them."""
    found: dict[str, str] = {}
    for name in unknown:
        close = close_matches(name, [n for n in unranked if n not in found.values()], n=1, cutoff=0.75)
        if close:
            found[name] = close[0]
    return found


def check_auction(v: ir.Variant, sink: DiagnosticSink) -> None:
    """Levels in range; strain names, aliases, directions and ranking consistent."""
    a = v.auction
    if a.min_level > a.max_level:
        conflict(sink, v, f"levels: from {a.min_level} is above to {a.max_level}",
                 ("auction", "levels", "from"), ("auction", "levels", "to"),
                 fix=(f"make auction.levels.from at most {a.max_level}",
                      f"auction.levels.to at least {a.min_level}"))
    for i, strain in enumerate(a.strains):
        if strain.levels is not None and strain.levels[0] > strain.levels[1]:
            low, high = strain.levels
            here, pair = _newest_part(v, ("auction", "strains", i, "levels"), ("from", "to"))
            conflict(sink, v, f"strain '{strain.name}' is bid from {low}, above its highest level {high}"
                              f" (auction.levels: {a.min_level} to {a.max_level})",
                     here, ("auction", "levels"), pair=pair,
                     fix=(f"give strain '{strain.name}' levels from at most {high}",
                          f"let strain '{strain.name}' go up to at least {low} (levels.to)"))
        elif strain.levels is not None and not a.min_level <= strain.levels[0] <= strain.levels[1] <= a.max_level:
            # A strain narrows the auction's numbers; one outside them would be a bid the
            # rest of the rules never priced (e.g. "notrump from 4" on a game whose bids
            # count books outright from 7: 4 notrump would be four books).
            low, high = strain.levels
            here, pair = _newest_part(v, ("auction", "strains", i, "levels"), ("from", "to"))
            conflict(sink, v, f"strain '{strain.name}' is bid from {low} to {high}, outside the auction's "
                              f"levels {a.min_level} to {a.max_level}",
                     here, ("auction", "levels"), pair=pair,
                     fix=(f"give strain '{strain.name}' levels within {a.min_level} to {a.max_level}",
                          "change auction.levels to include them"))
    order_names = {o.name for o in v.orders}
    seen: dict[str, tuple[str, tuple]] = {}  # word -> (strain, the setting that gives it the word)
    orderless: dict[str, list[int]] = {}  # an order no variant layer has -> the strains that play in it
    for i, strain in enumerate(a.strains):
        for k, word in enumerate((strain.name, *strain.aliases)):
            here = ("auction", "strains", i, "name" if k == 0 else "aliases")
            if ascii_lower(word) in CALL_WORDS:
                # `4 pass` would be a bid, `pass` the call: a record's or a player's words read two ways.
                call = ascii_lower(word)
                which = f"is named '{word}', as is" if k == 0 else f"has the alias '{word}', the word of"
                sink.error(v.at(*here), f"strain '{strain.name}' {which} the call '{call}': a bid of this strain "
                                        "and that call would read alike in records and at the table",
                           hint=f"give strain '{strain.name}' another word: none of {', '.join(CALL_WORDS)}")
            if word in seen and seen[word][0] == strain.name:
                # An alias repeating its own strain's name (or another of its aliases).
                conflict(sink, v, f"strain '{strain.name}' lists '{word}' among its aliases, which it is "
                                  "already called", here,
                         fix=(f"take '{word}' out of the aliases of strain '{strain.name}'",))
            elif word in seen:
                # The two strains may come from different files (a variant renaming what it extends).
                conflict(sink, v, f"'{word}' names both strain '{seen[word][0]}' and strain '{strain.name}'",
                         here, seen[word][1], fix=(f"give the word '{word}' to one strain only",))
            seen[word] = (strain.name, here)
        for d in strain.directions:
            if d not in order_names:
                orderless.setdefault(d, []).append(i)
    for d, indexes in orderless.items():
        # One message for each missing order, naming every strain that plays in it
        # (a rule removing the order two strains play in is one mistake, said once).
        who = [a.strains[i].name for i in indexes]
        names = " and ".join(f"'{n}'" for n in who) if len(who) <= 2 else \
            ", ".join(f"'{n}'" for n in who[:-1]) + f" and '{who[-1]}'"
        have = ", ".join(sorted(order_names))
        conflict(sink, v, f"strain{'s' if len(who) > 1 else ''} {names} play{'' if len(who) > 1 else 's'} in "
                          f"order '{d}', which is not among the orders ({have})",
                 ("auction", "strains", indexes[0]), *(("auction", "strains", i) for i in indexes[1:]), ("orders",),
                 fix=(f"add an order '{d}' to orders",
                      f"play {'them' if len(who) > 1 else f'strain {names}'} in one of {have}"))
    bare = [(i, s) for i, s in enumerate(a.strains) if s.bare]
    for i, strain in bare[1:]:
        # A bid of a bare strain is said (and recorded) as the number alone.
        sink.error(v.at("auction", "strains", i, "bare"),
                   f"strains '{bare[0][1].name}' and '{strain.name}' are both bare: a bid such as "
                   f"'{a.max_level}' would name both; at most one strain may be bare",
                   hint=f"remove `bare: true` from strain '{strain.name}'")
    names = [s.name for s in a.strains]
    ranked = Counter(name for group in a.ranking for name in group)
    ranking, strains = ("auction", "ranking"), ("auction", "strains")
    misspelt = _misspelt_in_ranking([n for n in ranked if n not in names], [n for n in names if not ranked[n]])
    unplaced = [n for n in names if ranked[n] == 0 and n not in misspelt.values()]  # a misspelling: below
    unknown = [n for n in ranked if n not in names and n not in misspelt]
    if unplaced and unknown:
        # A ranking written for other strains (a house rule ranking a base game's bids, laid over
        # a game that bids bare numbers) is one mistake: said once, not once for each name.
        conflict(sink, v, f"ranking names {_quoted(unknown)}, which {_is_not_strain(unknown)}, and does not "
                          f"place strain{_s(unplaced)} {_quoted(unplaced)}", ranking, strains,
                 fix=(f"rank the strains there are ({_quoted(names)}) in auction.ranking",
                      f"add {'a strain' if len(unknown) == 1 else 'strains'} named {_quoted(unknown)}"))
    elif unplaced:
        conflict(sink, v, f"ranking does not place strain{_s(unplaced)} {_quoted(unplaced)}", ranking, strains,
                 fix=(f"add {_quoted(unplaced)} to auction.ranking",))
    elif unknown:
        conflict(sink, v, f"ranking names {_quoted(unknown)}, which {_is_not_strain(unknown)}", ranking, strains,
                 fix=(f"take {_quoted(unknown)} out of auction.ranking",
                      f"add {'a strain' if len(unknown) == 1 else 'strains'} named {_quoted(unknown)}"))
    for name in names:
        if ranked[name] > 1:
            sink.error(v.at(*ranking), f"ranking places strain '{name}' more than once",
                       hint=f"name '{name}' once in auction.ranking")
    for name in ranked:
        if name in misspelt:
            conflict(sink, v, f"ranking names '{name}', which is not a strain (did you mean '{misspelt[name]}'?)",
                     ranking, strains, fix=(f"write '{misspelt[name]}' for '{name}' in auction.ranking",))
    used = {d for s in a.strains for d in s.directions}
    for order in v.orders:
        if order.name not in used and v.is_set("orders", order.name):
            conflict(sink, v, f"orders.{order.name} has no effect: no strain plays in it", ("orders", order.name),
                     strains, fix=(Remove(("orders", order.name)), f"keep a strain that plays {order.name}"))


def check_play(v: ir.Variant, sink: DiagnosticSink) -> None:
    """Promoted trumps must be cards of the deck."""
    cards = set(v.deck.cards())
    # One message for all the missing cards: a deck without jokers misses both at once.
    missing = [card for card in v.play.trumps_above if card not in cards]
    if missing:
        names = ", ".join(missing)
        out = [card for card in missing if card in v.deck.without]
        taken = f" (deck.without takes {', '.join(out)} out)" if out else ""
        which, them = ("which is", "it") if len(missing) == 1 else ("which are", "them")
        conflict(sink, v, f"trumps_above names {names}, {which} not in the deck{taken}",
                 ("play", "trumps_above"), ("deck", "extra"), ("deck", "ranks"), ("deck", "suits"),
                 ("deck", "without"),
                 fix=(f"take {names} out of play.trumps_above", Remove(("play", "trumps_above")),
                      f"keep {them} in the deck"))
    repeated = [c for c, n in Counter(v.play.trumps_above).items() if n > 1]
    for card in repeated:
        sink.error(v.at("play", "trumps_above"), f"trumps_above names {card} twice",
                   hint=f"name {card} once in play.trumps_above")
    # Card roles: each card must be one of the deck's (the schema checked the role's word).
    for kind, pairs in v.play.roles:
        for card, role in pairs:
            if card not in cards:
                out = " (deck.without takes it out)" if card in v.deck.without else ""
                conflict(sink, v, f"play.roles.{kind} gives {card} the role {role}, but {card} is not in the deck{out}",
                         _role_path(v, kind, card), ("deck", "extra"), ("deck", "ranks"), ("deck", "suits"),
                         ("deck", "without"),
                         fix=(f"take {card} out of play.roles.{kind}", "keep the card in the deck"))


def _role_path(v: ir.Variant, kind: str, card: str) -> tuple:
    """The path of a card's role as the file spelt it (``10H`` for the card ``TH``), for its position."""
    if v.origin is not None:
        written = ((v.origin.data.get("play") or {}).get("roles") or {}).get(kind) or {}
        for key in written:
            if str(key).upper().replace("10", "T", 1) == card:
                return ("play", "roles", kind, key)
    return ("play", "roles", kind)


SUIT_LETTERS = ("S", "H", "D", "C")


def check_auction_rules(v: ir.Variant, sink: DiagnosticSink) -> None:
    """Auction settings that need others: redeal ranks in the deck, passes that can end it."""
    a = v.auction
    for rank in a.redeal_without:
        if rank not in v.deck.ranks:
            conflict(sink, v, f"redeal_without names rank {rank}, which the deck does not have",
                     ("auction", "redeal_without"), ("deck", "ranks"),
                     fix=(f"take {rank} out of auction.redeal_without", Remove(("auction", "redeal_without"))))
    if a.rounds == "until-passed" and not 1 <= a.passes_end <= v.players - 1:
        conflict(sink, v, f"passes_end must be between 1 and {v.players - 1} with {v.players} players",
                 ("auction", "passes_end"), ("players",),
                 fix=(f"set auction.passes_end between 1 and {v.players - 1}",))
    if a.dealer_bids_from is not None and not a.min_level <= a.dealer_bids_from <= a.max_level:
        conflict(sink, v, f"dealer_bids_from must be a number the auction has, from {a.min_level} to {a.max_level}",
                 ("auction", "dealer_bids_from"), ("auction", "levels"),
                 fix=(f"set auction.dealer_bids_from between {a.min_level} and {a.max_level}",
                      Remove(("auction", "dealer_bids_from"))))
    for i, strain in enumerate(a.strains):
        if strain.trump in SUIT_LETTERS and strain.trump not in v.deck.suits:
            # A fixed trump suit (trump: S) must be one of the deck's suits.
            conflict(sink, v, f"strain '{strain.name}' fixes trump {strain.trump}, which is not a suit of the deck "
                              f"({', '.join(v.deck.suits)})",
                     ("auction", "strains", i, "trump"), ("deck", "suits"),
                     fix=(f"fix one of the deck's suits ({', '.join(v.deck.suits)}) as trump",
                          "let the declarer name trump (`trump: suit`)"))
        if strain.trump == "none-or-first-lead" and v.declaration.when == "after-kitty" and v.deal.kitty:
            conflict(sink, v, f"strain '{strain.name}' names trump by the first lead, "
                              "which cannot wait until after the kitty",
                     ("auction", "strains", i), ("declaration", "when"), ("deal", "kitty"),
                     fix=("declare before the kitty (`declaration.when: before-kitty`)",
                          f"let strain '{strain.name}' name trump another way"))
        if strain.trump == "none-or-first-lead" and len(strain.directions) > 1:
            # The first lead declares at once: the declarer gets no turn to choose an order.
            sink.error(v.at("auction", "strains", i, "direction"),
                       f"strain '{strain.name}' names trump by the first lead, so it plays in one order, "
                       f"not a choice of {', '.join(strain.directions)}",
                       hint=f"give strain '{strain.name}' one direction")
        if strain.trump == "none-or-first-lead" and v.play.first_lead != "declarer":
            # The lead that names trump is the declarer's: any other first leader would
            # name trump (or notrump) for the declaring side.
            conflict(sink, v, f"play.first_lead: {v.play.first_lead} cannot go with strain '{strain.name}', "
                              "which names trump by the declarer's first lead",
                     ("play", "first_lead"), ("auction", "strains", i, "trump"),
                     fix=("let the declarer lead first (`play.first_lead: declarer`)",
                          f"let strain '{strain.name}' name trump another way"))
    books = ir.books_of_hand(v.deal.hand, v.deal.kitty, v.kitty.discards)
    # The highest bid a hand's books can make: a bid of n over six asks for 6 + n books, so a
    # ladder to 8 in a hand of 13 books holds a bid no side could ever make.  What decides is
    # what a bid counts, or the variant's own `made`: a game whose bids count books outright and
    # that says so only in its formula (`books >= bid`) makes its top bid with every book.  Past
    # the books themselves the ladder is refused whatever the formula says (it would grow
    # without bound).
    left_out = ir.BOOKS_OVER[a.bids_count]

    def asks(level: int) -> str:
        return f" (a bid of {level + left_out} books)" if left_out else ""

    top = books - left_out

    def never_made(level: int) -> bool:
        # Above the bid of all the books by what a bid counts, unless `made` says otherwise.
        return level > books or (level > top and not _made_with_every_book(v, level, books, top))

    if never_made(a.max_level):
        conflict(sink, v, f"levels: to {a.max_level}{asks(a.max_level)} is more than the {books} books of a hand",
                 ("auction", "levels", "to"), *_BOOK_SETTINGS, _COUNTS,
                 fix=(f"set auction.levels.to to at most {top}",))
    for i, strain in enumerate(a.strains):
        if strain.levels is not None and never_made(strain.levels[1]):
            conflict(sink, v, f"strain '{strain.name}' goes up to {strain.levels[1]}{asks(strain.levels[1])}, "
                              f"more than the {books} books of a hand",
                     ("auction", "strains", i, "levels"), *_BOOK_SETTINGS, _COUNTS,
                     fix=(f"set the levels.to of strain '{strain.name}' to at most {top}",))


def check_counts_within_the_hand(v: ir.Variant, sink: DiagnosticSink) -> None:
    """Numbers that count books or rungs stay within what a hand has: a renege penalty of more
    books than a hand has, or an overcall that must climb more rungs than the ladder has.

    Past that bound every value means the same (a renege costs every book; no bid can ever
    be overcalled), so a larger one says something the game can never do; refused, as a
    ladder taller than the books is (:func:`check_auction_rules`), naming the largest value
    that still means what it says.
    """
    books = ir.books_of_hand(v.deal.hand, v.deal.kitty, v.kitty.discards)
    p = v.play
    if p.renege == "penalty" and p.renege_books > books:
        # rules.md: a side that took fewer than the penalty is scored as if the other side took
        # every book; at the hand's books the penalty already costs every book it could take.
        conflict(sink, v, f"renege_books: {p.renege_books} is more than the {books} books of a hand (a side "
                          f"cannot give more books than a hand has; {books} already costs every book)",
                 ("play", "renege_books"), *_BOOK_SETTINGS,
                 fix=(f"set play.renege_books to at most {books}",))
    a = v.auction
    groups = {name: g for g, group in enumerate(a.ranking) for name in group}
    rungs = {level * len(a.ranking) + groups[s.name] for s in a.strains if s.name in groups
             for level in range(a.levels_of(s)[0], a.levels_of(s)[1] + 1)}
    if rungs and a.overcall_by >= len(rungs) and v.is_set("auction", "overcall_by"):
        # Counting up from the lowest bid, the top bid is len(rungs) - 1 rungs above it.
        most = len(rungs) - 1
        can = f"at most {most} rung{'' if most == 1 else 's'}" if most else "no rung"
        conflict(sink, v, f"overcall_by: {a.overcall_by} is more rungs than the ladder has to climb (its {len(rungs)} "
                          f"rungs climb {can} from the lowest bid to the highest): no bid could ever be overcalled",
                 ("auction", "overcall_by"), ("auction", "levels"), ("auction", "strains"),
                 fix=(f"set auction.overcall_by to at most {most}" if most else Remove(("auction", "overcall_by")),))


def _made_with_every_book(v: ir.Variant, level: int, books: int, all_books_bid: int, kept: int = 0) -> bool:
    """Whether the variant's ``made`` holds for a bid of ``level`` when the declarers take every book
    they can, ``books`` (in a suit contract or in no trump), the defenders the ``kept`` books the
    declarers can never take; ``all_books_bid`` is the bid of all the books, as the caller worked
    it out from what a bid counts."""
    made = v.scoring.made.ast  # the builder's compiled, checked formula (expressions.CompiledExpr)
    if not callable(made):
        return False
    env = {"bid": level, "books": books, "over": books - 6, "defender_books": kept, "defender_over": kept - 6,
           "own_books": books, "total_books": books + kept, "sweep": True, "all_books_bid": all_books_bid}
    return any(bool(made({**env, "notrump": notrump})) for notrump in (False, True))


def warnings(v: ir.Variant) -> list:
    """What a checked variant says that is allowed but can never do what it seems to: each a
    diagnostic ``bidwhist check`` prints as a warning (the file still checks ok; a game may mean
    it, as a house rule written in one line over a game that did not mean it).  Today: bids the
    declaring side can never make, and formulas that divide by 0."""
    sink = DiagnosticSink()
    warn_certain_sets(v, sink)
    warn_division_by_zero(v, sink)
    return sink.items


def _formulas(v: ir.Variant):
    """(setting path, formula) of every formula of ``v``: the scoring's, and the game's ends
    by named condition (a plain formula is the one condition, at the setting itself)."""
    for section, key in sorted(FORMULA_PATHS):
        named = getattr(v.game, f"{key}_when") if (section, key) in GAME_ENDS else ()
        if named and not (len(named) == 1 and named[0].name == ORDINARY):
            for condition in named:
                yield (section, key, condition.name), condition.formula
        else:
            yield (section, key), getattr(getattr(v, section), key)


def divisions_by_zero(expr) -> list:
    """The divisions in the expression tree ``expr`` whose divisor is a constant 0 (``x / 0``,
    ``x / (2 - 2)``): allowed, and 0 by the language's definition, but never what is meant."""
    found = []
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, expressions.Binary) and node.op == "/" and \
                expressions.simplify(node.right) == expressions.Num(0):
            found.append(node)
        stack.extend(expressions.nodes._children(node))
    return found


def warn_division_by_zero(v: ir.Variant, sink: DiagnosticSink) -> None:
    """Warn of a formula that divides by a constant 0: the language makes ``x / 0`` 0 rather
    than fail (a formula is data and must not crash a game), so the division is silently 0."""
    for path, formula in _formulas(v):
        tree = getattr(formula.ast, "ast", None)
        if tree is None:
            continue
        for node in divisions_by_zero(tree):
            shown = expressions.unparse(node)
            conflict(sink, v, f"warning: {_dotted(path)}: `{shown}` divides by 0, and a division by 0 "
                              f"is 0 by definition, so that part of the formula is always 0",
                     path, fix=("divide by a number other than 0", "write 0 where 0 is meant"))
            break  # one warning a formula


def certain_sets(v: ir.Variant) -> tuple[int, list[int]]:
    """(the most books the declaring side can take, the levels of the ladder asking for more):
    where some book of the hand is never theirs (the discards, where they are the defenders'
    book), such a bid is always set.  What decides is ``made``, tried with every book the
    declarers can take, as for the ladder's bound (:func:`check_auction_rules`).  The one
    reading behind ``check``'s warning and the rulebook's sentence."""
    a = v.auction
    books = ir.books_of_hand(v.deal.hand, v.deal.kitty, v.kitty.discards)
    kept = ir.books_kept_from_declarers(v.deal.kitty, v.kitty.discards)
    most = books - kept
    if not kept:
        return most, []
    left_out = ir.BOOKS_OVER[a.bids_count]
    levels = sorted({level for strain in a.strains
                     for level in range(a.levels_of(strain)[0], a.levels_of(strain)[1] + 1)})
    return most, [level for level in levels
                  if level + left_out > most and not _made_with_every_book(v, level, most, books - left_out, kept)]


def bids_words(v: ir.Variant, levels: list[int]) -> str:
    """``levels`` as bids in words, each with the books it asks for where that differs: ``7 (13 books)``."""
    left_out = ir.BOOKS_OVER[v.auction.bids_count]
    return " and ".join(f"{level}{f' ({level + left_out} books)' if left_out else ''}" for level in levels)


def warn_certain_sets(v: ir.Variant, sink: DiagnosticSink) -> None:
    """Warn of the bids the declaring side can never make (:func:`certain_sets`)."""
    most, never = certain_sets(v)
    if not never:
        return
    top = never[0] - 1
    foot = min(v.auction.levels_of(strain)[0] for strain in v.auction.strains)
    if top >= foot:
        what = f"a bid of {bids_words(v, never)} can never be made (it is always set)"
        fix = (f"end the ladder at {top} (`auction.levels.to: {top}`)", "keep it as a bid that is always set")
    else:  # no ladder is left below the certain sets: ending it there would leave no bid
        what = f"every bid of the ladder is always set ({bids_words(v, never)} can never be made)"
        fix = ("keep the discards' book with the declarers (`kitty.discards: declarer-book`)",
               f"start the ladder lower (`auction.levels.from`, at most {top})")
    # A warning, not a refusal: the bid stays legal (a sacrifice no one makes), and a house rule
    # written in one line over a game (docs/tutorial.md) should not have to shorten its ladder.
    conflict(sink, v, f"warning: kitty.discards: {v.kitty.discards} leaves the declaring side at most the "
                      f"{most} tricks, so {what}",
             ("kitty", "discards"), ("auction", "levels", "to"), fix=fix)


def check_settings_take_effect(v: ir.Variant, sink: DiagnosticSink) -> None:
    """A setting written in a file must be able to change something.

    Other engines silently ignore such settings (a kitty rule in a game without a
    kitty); here they are errors, naming the setting and what makes it idle.
    """
    def idle(path: tuple, reason: str, because: tuple, otherwise: str) -> None:
        # ``otherwise``: the other way out, making the setting count again.
        if v.is_set(*path):
            conflict(sink, v, f"{'.'.join(path)} has no effect: {reason}", path, because,
                     fix=(Remove(path), otherwise))

    has_kitty = v.deal.kitty > 0
    if not has_kitty:
        for path in (("kitty", "discards"), ("kitty", "show"), ("kitty", "taker")):
            idle(path, "there is no kitty", ("deal", "kitty"), "deal a kitty (deal.kitty)")
        idle(("declaration", "when"), "there is no kitty to take", ("deal", "kitty"), "deal a kitty (deal.kitty)")
    if not v.deck.extra:
        idle(("play", "notrump_extras"), "the deck has no extra cards such as jokers", ("deck", "extra"),
             "keep extra cards in the deck (deck.extra)")
    notrump_possible = any(s.trump in ("none", "suit-or-none", "none-or-first-lead") for s in v.auction.strains)
    if not notrump_possible:
        idle(("play", "notrump_extras"), "no contract is played without trump", ("auction", "strains"),
             "keep a strain played without trump")
    suit_possible = any(s.trump != "none" for s in v.auction.strains)
    if not notrump_possible:
        idle(("play", "roles", "notrump"), "no contract is played without trump", ("auction", "strains"),
             "keep a strain played without trump")
    if not suit_possible:
        idle(("play", "trumps_above"), "no contract has a trump suit", ("auction", "strains"),
             "keep a strain with a trump suit")
        idle(("play", "roles", "suit"), "no contract has a trump suit", ("auction", "strains"),
             "keep a strain with a trump suit")
        if v.kitty.show_contracts == ("suit",):
            idle(("kitty", "show"), "no contract has a trump suit", ("auction", "strains"),
                 "keep a strain with a trump suit")
    # Two players each alone are two sides: "the other side" is the other player.
    if v.play.renege == "penalty" and v.sides == "individual" and v.players != 2:
        conflict(sink, v, "renege: penalty moves books to 'the other side', which needs two sides, not "
                          f"{v.players} players each alone", ("play", "renege"), ("sides",),
                 fix=("refuse reneges (`play.renege: refuse`)", "play in partnerships"))
    sides = v.players // 2 if v.sides == "partners" else v.players
    if v.kitty.discards == "defenders-book" and has_kitty and sides != 2:
        # With three sides or more "the defenders" are two sides or more, and a book is one side's.
        conflict(sink, v, f"kitty.discards: defenders-book gives the discards' book to the side against the "
                          f"declarer, which needs two sides, not {sides}", ("kitty", "discards"), ("sides",),
                 fix=("give the discards' book another way (kitty.discards)", "play in two partnerships"))
    if v.play.renege != "penalty":
        idle(("play", "renege_books"), "reneges are refused, not penalised", ("play", "renege"),
             "penalise reneges (`play.renege: penalty`)")
    # A target laid over a variant (by a house rule or --set) changes the game only
    # where its formulas say `target`; a variant's own target may lie unused under a
    # house rule that ends the game another way (a fixed number of hands).
    if _set_by_overlay(v, ("game", "target")) and \
            not any(re.search(r"\btarget\b", f.text) for f in (v.game.win, v.game.lose)):
        idle(("game", "target"), "the game's end (game.win, game.lose) does not use `target`", ("game", "win"),
             "say `target` in game.win or game.lose")
    won_at = _plainly_won_at(v.game.win.text, v.game.target)
    if v.game.floor is not None and v.game.floor > 0 and won_at is not None and v.game.floor >= won_at[0]:
        # Every side starts a game at 0, and a floor lifts every total to it on the first hand,
        # whatever was scored: where game.win plainly says "score >= X" (one of its `or`s) and the
        # floor reaches X, every game ends at once (a game to 7 over a floor of 100).  Below it a
        # game merely starts at the floor (21 over 5); a win written otherwise is not judged.
        limit, said = won_at
        conflict(sink, v, f"game.floor: {v.game.floor} is not below {said} ({limit}), so every "
                          f"total would be {v.game.floor} or more after the first hand, whatever was scored, "
                          f"and every game would end on its first hand",
                 ("game", "floor"), fix=(f"set game.floor below {limit}", Remove(("game", "floor"))))
    written_tie = ((v.origin.data.get("game") or {}).get("tie")) if v.origin is not None else None
    if isinstance(written_tie, list) and LAST_TIE_BREAK in written_tie[:-1]:
        # It always decides (one side is first from the dealer's left), so the engine stops there.
        after = ", ".join(map(str, written_tie[written_tie.index(LAST_TIE_BREAK) + 1:]))
        conflict(sink, v, f"game.tie: {after} after {LAST_TIE_BREAK} has no effect: {LAST_TIE_BREAK} "
                          "always decides, so no tie-break after it is reached", ("game", "tie"),
                 fix=(f"put {LAST_TIE_BREAK} last, or leave it out (it decides after the others anyway)",))
    a = v.auction
    if a.rounds != "until-passed":
        idle(("auction", "passes_end"), "the auction goes round once", ("auction", "rounds"),
             "bid until passed (`auction.rounds: until-passed`)")
    if a.if_all_pass != "dealer-bids-or-redeal" and not a.redeal_without:
        idle(("auction", "redeal_dealer"), "no player may call redeal", ("auction", "if_all_pass"),
             "let the dealer call redeal (`auction.if_all_pass: dealer-bids-or-redeal`)")
    if a.if_all_pass != "redeal":
        idle(("auction", "all_pass_dealer"), "a hand where all pass is not thrown in", ("auction", "if_all_pass"),
             "throw the hand in when all pass (`auction.if_all_pass: redeal`)")
    else:
        idle(("auction", "dealer_bids_from"), "no dealer is left to bid (a hand where all pass is thrown in)",
             ("auction", "if_all_pass"), "make the dealer bid when all pass (`auction.if_all_pass: dealer-must-bid`)")
    lowest = min(a.levels_of(s)[0] for s in a.strains)
    if a.if_all_pass != "redeal" and a.dealer_bids_from is not None and a.min_level <= a.dealer_bids_from <= lowest:
        # A floor at or below the ladder's lowest number leaves the dealer every bid it had
        # (one below the ladder altogether is refused as out of range, once, above).
        idle(("auction", "dealer_bids_from"), f"no bid is below {a.dealer_bids_from} (the ladder starts at {lowest})",
             ("auction", "levels"), f"set it above {lowest}")
    if v.sides != "partners":
        idle(("auction", "overcall_partner"), "no player has a partner", ("sides",), "play in partnerships")
    if v.kitty.show in ("deal", "never") and v.kitty.show_contracts:
        # Nobody knows the contract at the deal: the kitty is face up in every hand or in none.
        sink.error(v.at("kitty", "show", "contracts"),
                   f"kitty.show: contracts has no effect with when: {v.kitty.show} (the contract is not known "
                   "until the auction is won)",
                   hint="leave out contracts, or show the kitty later (when: auction-end or declaration)")
    # rules.md §8: with the kitty taken before the declaration, a kitty shown "once declared"
    # in some contracts is shown when the bid itself says the contract's kind; a strain
    # whose bid leaves notrump open (the declaration or the first lead decides) cannot say.
    undecided = [s.name for s in v.auction.strains if s.trump in ("suit-or-none", "none-or-first-lead")]
    if (v.kitty.show == "declaration" and v.declaration.when == "after-kitty"
            and len(v.kitty.show_contracts) == 1 and undecided):
        said = "suit-contracts" if v.kitty.show_contracts == ("suit",) else "when: declaration"
        conflict(sink, v, f"kitty.show: {said} needs the bid to say whether there is a trump suit when the "
                          f"kitty is taken before trump is named, and a {undecided[0]} bid does not",
                 ("kitty", "show"), ("declaration", "when"),
                 fix=("name trump before the kitty (`declaration.when: before-kitty`)",
                      "show the kitty another way (kitty.show)"))
    if v.play.notrump_extras == "out" and v.deal.kitty < len(v.deck.extra):
        # The declarer's own extras are replaced from the kitty and the others' from the
        # discards: with fewer kitty cards than extras, a hand can come up short.
        conflict(sink, v, f"notrump_extras: out needs a kitty of at least {len(v.deck.extra)} cards "
                          f"(one per extra card), not {v.deal.kitty}",
                 ("play", "notrump_extras"), ("deal", "kitty"), ("deck", "extra"),
                 fix=(f"deal a kitty of {len(v.deck.extra)} cards or more",
                      "treat the extra cards another way in notrump (play.notrump_extras)"))
    # An extra card that leaves play in notrump can have no part to play there: a notrump role on
    # it and `notrump_extras: out` are two rules about the same card in the same contracts, and
    # they disagree (the card wins every trick it is played to / it is never played).  Neither is
    # "more specific", and house rules laid in either order would each claim the last word, so
    # the two are refused together, whatever files or --set they come from.
    kept = [card for card in v.play.roles_in("notrump") if card in v.deck.extra]
    if v.play.notrump_extras == "out" and kept:
        named = ", ".join(kept)
        conflict(sink, v, f"play.roles.notrump gives {named} a part in notrump, but notrump_extras: out takes "
                          f"the extra cards ({', '.join(v.deck.extra)}) out of play in notrump: the two rules "
                          f"disagree about {named}, so they do not combine",
                 ("play", "roles", "notrump"), ("play", "notrump_extras"),
                 fix=(f"keep {named} out of play.roles.notrump",
                      "treat the extra cards another way in notrump (play.notrump_extras)"))
    # The extras leave play as the kitty is taken: with the kitty taken before the
    # declaration, only where the bid itself says notrump (as kitty.show above).
    if v.play.notrump_extras == "out" and v.declaration.when == "after-kitty" and has_kitty and undecided:
        conflict(sink, v, "notrump_extras: out needs notrump known before the kitty is taken, and a "
                          f"{undecided[0]} bid leaves it to the declaration",
                 ("play", "notrump_extras"), ("declaration", "when"),
                 fix=("declare before the kitty (`declaration.when: before-kitty`)",
                      "treat the extra cards another way in notrump (play.notrump_extras)"))


def _set_by_overlay(v: ir.Variant, path: tuple) -> bool:
    """True if a house rule or a ``--set`` (not the variant's own files) set ``path`` last."""
    origin = v.origin
    if origin is None or not origin.is_set(path):
        return False
    layer = origin.layers[max(origin.newest_layer(path), 0)]
    return layer.filename.startswith(SET_PREFIX) or (
        isinstance(layer.data, dict) and layer.data.get("kind") == "house-rule")


def _layer_index(v: ir.Variant, path: tuple) -> int:
    """How late a layer set ``path`` (higher = later), to blame the newest setting."""
    origin = v.origin
    if origin is None:
        return 0
    return max(origin.newest_layer(path), 0)


# The most a hand's score formulas can give a side (formula results times the
# multiplier), checked for every possible hand: with it, a side's total over any
# simulation stays far inside what a float holds exactly enough for averages, and its
# decimal text is short (the fuzzing saw 310-digit scores overflow a float, and
# 3,000-digit products pass the limit of 4,300 digits Python converts).
MAX_HAND_SCORE = 10**12


def _magnitude(node, names: dict[str, int]) -> int:
    """An upper bound of ``abs(value)`` of an integer formula, each name at most ``names[name]``.

    Recursive, but formulas are at most expressions.MAX_DEPTH levels deep.
    """
    match node:
        case expressions.Num(value=value):
            return abs(value)
        case expressions.Name(name=name):
            return names.get(name, 1)
        case expressions.Unary(operand=operand):
            return _magnitude(operand, names)
        case expressions.Binary(op=op, left=left, right=right):
            a, b = _magnitude(left, names), _magnitude(right, names)
            if op in "+-":
                return a + b
            return a * b if op == "*" else a  # `/` floors, and x / 0 is 0: never above |x|
        case expressions.IfElse(then=then, orelse=orelse):
            return max(_magnitude(then, names), _magnitude(orelse, names))
        case expressions.Call(args=args):
            return max((_magnitude(a, names) for a in args), default=0)
    return 1  # true/false, comparisons


def check_score_bounds(v: ir.Variant, sink: DiagnosticSink) -> None:
    """A hand's score can never pass MAX_HAND_SCORE, whatever the hand.

    Every number a hand-scoring formula reads (the bid, books, books over six, ...)
    is at most the deck's size plus the highest level plus six; the bound of each
    formula follows from its literals and operators (see ``_magnitude``).
    """
    scoring = v.scoring
    formulas = (scoring.declarer, scoring.defender, scoring.multiplier)
    if any(f.ast is None for f in formulas):
        return  # a formula already reported as wrong
    top = max([v.auction.max_level] + [v.auction.levels_of(s)[1] for s in v.auction.strains])
    each = deck_size(v) + abs(top) + 6
    names = dict.fromkeys(HAND_NAMES, each)
    multiplier = _magnitude(scoring.multiplier.ast.ast, names)
    for key, formula in (("declarer", scoring.declarer), ("defender", scoring.defender)):
        bound = _magnitude(formula.ast.ast, names) * max(multiplier, 1)
        if bound > MAX_HAND_SCORE:
            sink.error(formula.pos or SourcePos("<variant>"),
                       f"scoring.{key}: a hand could score up to {_big(bound)} (times the multiplier), "
                       f"more than the limit of {MAX_HAND_SCORE:,} points a hand",
                       hint="use smaller numbers; every number a formula reads is at most "
                            f"{each:,} here (the deck's size plus the highest level plus six)")


def _big(n: int) -> str:
    """A bound in words: the number itself, or its number of digits when it is long."""
    return f"{n:,}" if n < 10**15 else f"a number of {len(str(n)) if n < 10**4000 else 'over 4,000'} digits"


CHECKS = (check_deck, check_deal, check_sides, check_seats, check_orders, check_auction, check_play,
          check_auction_rules, check_counts_within_the_hand, check_settings_take_effect, check_score_bounds)


def run_checks(v: ir.Variant, sink: DiagnosticSink) -> None:
    """Run every check; diagnostics accumulate in ``sink``."""
    for check in CHECKS:
        check(v, sink)


# One alternative of game.win that is met at a plain score: "score >= target", "score > 40".
_WON_AT = re.compile(r"\(?\s*score\s*(>=|>)\s*(target|-?\d+)\s*\)?")


def _plainly_won_at(win: str, target: int) -> tuple[int, str] | None:
    """The lowest total at which ``win`` (game.win's text) is plainly met, and how to name it,
    where one of its top-level ``or`` alternatives is nothing but ``score >= X`` or
    ``score > X`` (X the target or a number); None where it says anything else."""
    found = None
    for alternative in win.split(" or "):
        match = _WON_AT.fullmatch(alternative.strip())
        if match is None:
            continue
        limit = target if match[2] == "target" else int(match[2])
        limit += match[1] == ">"
        said = "game.target" if match[2] == "target" and match[1] == ">=" else "the score game.win is met at"
        if found is None or limit < found[0]:
            found = (limit, said)
    return found
