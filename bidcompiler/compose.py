"""Composition: ``extends``, house-rule overlays, ``--set`` — several documents, one variant.

A variant may ``extends:`` another; house rules (``kind: house-rule``) and
``--set path=value`` changes are laid over it in order.  An overlay changes only
what it names.  Layers merge like this:

* mappings merge key by key, and ``null`` removes a setting ("this game has no
  such rule"); so ``orders: {downtown-aces-bad: [...]}`` adds one order and
  ``orders: {downtown: ~}`` removes one;
* a list of named items (mappings with a ``name``, such as ``auction.strains``;
  any such list, not only that one) merges with the list below it by name: an
  item whose name is there merges into that item key by key, by these same rules;
  an item with a new name is added at the end; the items below keep their order.
  ``{name: X, remove: true}`` (``strains { remove X }`` in ``.whist``) removes
  item X; removing a name the list below does not have is an error.  Every item
  of such a list must have a name.  To replace an item whole, remove it and
  write it again (it then comes last);
* anything else — numbers, strings, lists of plain values such as
  ``deck.extra`` — replaces what was there (``deck.without`` takes single cards
  out of the deck).

Every value remembers the layer and position that set it, so a later check can
name both files when an overlay does not fit its base.  A formula in a later layer
may say ``base`` for the formula it replaces: ``if sweep then 2 * base else base``.

The game's ends (``game.win``, ``game.lose``) are one formula or a mapping of named
conditions, any of which ends the game.  Named conditions merge key by key like any
mapping, so a house rule adds (``win: {sweep: swept}``), replaces or removes
(``{sweep: ~}``) one condition and house rules combine in any order.  Besides:

* a plain formula laid over named conditions replaces them all; its ``base`` is
  their ``or``;
* named conditions laid over a plain formula keep that formula as the condition
  named ``target`` (:data:`ORDINARY`, the ordinary end): a rule naming ``target``
  replaces it, a rule naming another condition adds beside it;
* a named condition is written whole: it may not say ``base``; removing a name no
  layer below has is an error.

The defenders' score (``scoring.defender``) is one formula or named **terms**, whose
sum is the score, and merges the same way (:data:`NAMED_PARTS`): a plain formula laid
under terms is the term ``score``.  A rule is then stated once by the term it sets:
a game whose set scoring gives the defenders their books over six and a house rule
saying the defenders score those books both set the term ``over-six``, so laying one
over the other says the same thing once instead of counting those books twice.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from .errors import CompileError, Diagnostic, SourcePos, close_matches, printable, quoted
from .resources import shipped_files, shown_place
from .yamlload import LoadedYaml, load_yaml

# Settings that describe a layer itself rather than the game; never merged.
LAYER_KEYS = ("kind", "extends", "name", "title", "source", "description")
FORMULA_PATHS = {
    ("scoring", "made"), ("scoring", "declarer"), ("scoring", "defender"), ("scoring", "multiplier"),
    ("game", "win"), ("game", "lose"),
}
_BASE_RE = re.compile(r"\bbase\b")
# The settings that may be a mapping of named conditions, any of which ends the game.
GAME_ENDS = (("game", "win"), ("game", "lose"))
# The name a plain formula takes when named conditions are laid over it: the ordinary end.
ORDINARY = "target"


@dataclass(frozen=True)
class NamedParts:
    """How a setting written as named parts reads: the name a plain formula under them takes,
    how the parts join into one formula (``or``, ``+``), its value with no part, and the part's noun."""

    ordinary: str
    joiner: str
    empty: str
    noun: str


# Every setting that may be a mapping of named parts (``name: formula``), merged by name.
NAMED_PARTS = {
    ("game", "win"): NamedParts(ORDINARY, "or", "false", "condition"),
    ("game", "lose"): NamedParts(ORDINARY, "or", "false", "condition"),
    # The defenders' score: the sum of its terms ("score" is what a plain formula says).
    ("scoring", "defender"): NamedParts("score", "+", "0", "term"),
}


def is_formula_path(path: tuple) -> bool:
    """Whether the value at ``path`` is a formula: a formula setting or one named part of one."""
    return path in FORMULA_PATHS or (len(path) == 3 and path[:2] in NAMED_PARTS)


# Facts about a game that a house rule may state but not change: a rule stating another value
# is written for another kind of game (its numbers would mean other things there), so the two
# do not combine.  A game that does not write one states the setting's default.  A variant
# may change them (it is another game); so may ``--set``.
FACTS = {("auction", "levels", "counts")}
# The file name a ``--set`` change is loaded under: one argument of the command, not a file.
SET_PREFIX = "--set "
# In a list of named items, ``{name: X, remove: true}`` takes item X away.
REMOVE_KEY = "remove"

# The most variants one chain of ``extends`` may hold, the file named first included: a
# chain of 3,000 files was followed to its end (5 s, each file read and parsed), a
# longer one for as long as files came.  As many as a record's house rules (records.md).
MAX_EXTENDS = 32


@dataclass
class FormulaLayer:
    """One layer's text of a formula and where it was written."""

    text: str
    origin: SourcePos


@dataclass
class ComposedDocument:
    """The merged data of all layers, with the position of every value's source."""

    data: dict
    layers: list[LoadedYaml]
    # Path in ``data`` -> (the layer that set it, the path of that value in the layer).
    # The two paths differ below a list merged by name: the overlay's item 0 may be
    # the merged list's item 2.
    origins: dict[tuple, tuple[LoadedYaml, tuple]] = field(default_factory=dict)
    # For formula paths: every layer's text, lowest first, when later ones use `base`.
    formula_stack: dict[tuple, list[FormulaLayer]] = field(default_factory=dict)
    house_rules: list[str] = field(default_factory=list)

    def _origin(self, path: tuple) -> tuple[LoadedYaml, tuple]:
        """The layer that set ``path`` (or its nearest set ancestor) and the path there."""
        for cut in range(len(path), -1, -1):
            entry = self.origins.get(path[:cut])
            if entry is not None:
                doc, at = entry
                return doc, at + path[cut:]
        return self.layers[0], path

    def pos(self, path: tuple = ()) -> SourcePos:
        """Where the value at ``path`` was set (the nearest ancestor that was set)."""
        doc, p = self._origin(tuple(path))
        return doc.pos(p)

    def newest_pos(self, path: tuple) -> SourcePos:
        """Where the newest layer set ``path`` or anything below it.

        ``deck`` is set key by key (``deck.ranks`` in the base, ``deck.extra`` in a
        house rule); a message about the deck should point at the newest of them,
        the change most likely to have made the trouble.
        """
        _, doc, at = self._newest(tuple(path))
        return doc.pos(at)

    def newest_layer(self, path: tuple) -> int:
        """The index in ``layers`` of the newest layer that set ``path`` or anything below it."""
        return self._newest(tuple(path))[0]

    def _newest(self, path: tuple) -> tuple[int, LoadedYaml, tuple]:
        def rank(doc: LoadedYaml) -> int:
            return next((i for i, layer in enumerate(self.layers) if layer is doc), -1)

        doc, at = self._origin(path)
        best = (rank(doc), doc, at)
        for p, (d, there) in self.origins.items():
            if len(p) > len(path) and p[:len(path)] == path and rank(d) > best[0]:
                best = (rank(d), d, there)
        return best

    def content_pos(self, path: tuple) -> SourcePos:
        """Where the text of the scalar at ``path`` begins in the layer that set it."""
        doc, p = self._origin(tuple(path))
        return doc.content_pos(p)

    def is_set(self, path: tuple) -> bool:
        """True if some layer wrote this setting (as opposed to a default applying)."""
        node: Any = self.data
        for key in path:
            if isinstance(node, dict) and key in node:
                node = node[key]
            elif isinstance(node, list) and isinstance(key, int) and key < len(node):
                node = node[key]
            else:
                return False
        return True

    def file_of(self, path: tuple) -> str:
        """The file that set the value at ``path``."""
        return self._origin(tuple(path))[0].filename


def merge_layer(target: ComposedDocument, doc: LoadedYaml) -> None:
    """Lay ``doc``'s settings over ``target`` (the rules are in the module docstring).

    A removal that finds nothing to remove, or an item of a named list without a
    name, is a CompileError positioned in ``doc``; ``target`` is then left part-merged
    and must not be used.
    """
    problems: list[Diagnostic] = []

    def walk(into: dict, data: dict, path: tuple, at: tuple) -> None:
        # ``path``: where in the merged data; ``at``: where in ``doc``.  A fact (FACTS) is
        # checked first, against the game below as it stands before this layer changes it.
        refused = set()
        for key, value in data.items():
            p = path + (key,)
            if p in FACTS and doc.data.get("kind") == "house-rule" and not doc.filename.startswith(SET_PREFIX) \
                    and value is not None and value != _stated(into, p):
                message, hint = _fact_conflict(target, doc, p, value, into)
                problems.append(Diagnostic(doc.content_pos(at + (key,)), message, hint=hint))
                refused.add(key)
        for key, value in data.items():
            if (not path and key in LAYER_KEYS) or key in refused:
                continue
            p, q = path + (key,), at + (key,)
            if path in NAMED_PARTS:  # one named part: a condition of game.win, a term of scoring.defender
                if value is None and key not in into:
                    problems.append(Diagnostic(doc.pos(q), _no_such_condition(key, path, list(into))))
                    continue
                if isinstance(value, str) and _BASE_RE.search(value):
                    problems.append(Diagnostic(doc.content_pos(q), base_in_condition(key, path)))
                    continue
            if p in NAMED_PARTS and isinstance(value, dict):
                for name, text in value.items():  # a first mapping is not walked condition by condition
                    if key not in into and isinstance(text, str) and _BASE_RE.search(text):
                        problems.append(Diagnostic(doc.content_pos(q + (name,)), base_in_condition(name, p)))
                if key in into and not isinstance(into[key], dict):
                    _name_the_formula(target, into, key, p)
            if value is None:  # null removes the setting
                into.pop(key, None)
                _forget_stacks(target, p)
                _forget(target, p)
                target.origins[p] = (doc, q)
                continue
            if isinstance(value, dict) and isinstance(into.get(key), dict):
                walk(into[key], value, p, q)
                continue
            if _merges_by_name(into.get(key), value):
                merge_named(into[key], value, p, q)
                continue
            if p in FORMULA_PATHS and isinstance(value, str) and _BASE_RE.search(value):
                if isinstance(into.get(key), dict):  # over named conditions: base is their `or`
                    _stack_over_conditions(target, into[key], p)
                stack = target.formula_stack.setdefault(p, [])
                if not stack and key in into:
                    previous = target._origin(p)[0]
                    stack.append(FormulaLayer(_text(into[key]), previous.content_pos(p)))
                stack.append(FormulaLayer(value, doc.content_pos(q)))
            elif is_formula_path(p):
                _forget_stacks(target, p)
            _forget(target, p)
            into[key] = _without_nulls(value)
            target.origins[p] = (doc, q)
            if isinstance(value, list):
                for j, item in enumerate(value):
                    if _is_removal(item):  # a first list: nothing below it to remove
                        problems.append(Diagnostic(doc.pos(q + (j, "name")), _no_such_item(item["name"], p, [])))

    def merge_named(items: list, value: list, path: tuple, at: tuple) -> None:
        """Merge the overlay list ``value`` into the named ``items`` below it, in place."""
        # Every item below gets an origin of its own, so items can move (a removal
        # shifts the ones after it) and still point at the file and line that set them.
        for i in range(len(items)):
            if path + (i,) not in target.origins:
                target.origins[path + (i,)] = target._origin(path + (i,))
        names = [item["name"] for item in items]
        below = list(names)
        written: set = set()
        removed: set = set()
        for j, item in enumerate(value):
            q = at + (j,)
            if not (isinstance(item, dict) and isinstance(item.get("name"), str)):
                problems.append(Diagnostic(doc.pos(q), f"{_dotted(path)}: this item has no name; the items of "
                                                       f"{_dotted(path)} are merged by name, so each needs `name:`"))
                continue
            name = item["name"]
            removal = _is_removal(item)
            if name in written or (removal and name in removed):
                problems.append(Diagnostic(doc.pos(q + ("name",)),
                                           f"{_dotted(path)}: '{name}' is written twice in this list"))
                continue
            if removal:
                removed.add(name)
                extra = [k for k in item if k not in ("name", REMOVE_KEY)]
                if extra:
                    problems.append(Diagnostic(
                        doc.pos(q + (extra[0],)),
                        f"{_dotted(path)}: '{name}' is removed, so it cannot also set `{extra[0]}`",
                        hint=f"drop `{REMOVE_KEY}: true` to change '{name}', or its other settings to remove it"))
                elif name not in names:
                    problems.append(Diagnostic(doc.pos(q + ("name",)), _no_such_item(name, path, below)))
                else:
                    k = names.index(name)
                    del items[k], names[k]
                    _drop_item(target, path, k)
                continue
            written.add(name)
            body = {k: v for k, v in item.items() if k not in ("name", REMOVE_KEY)}
            if name in names:  # merges into the item of that name, key by key
                k = names.index(name)
                walk(items[k], body, path + (k,), q)
            else:  # a new item comes last
                items.append(_without_nulls({"name": name, **body}))
                names.append(name)
                target.origins[path + (len(items) - 1,)] = (doc, q)
        # The list as a whole was last written here (its items keep their own origins).
        target.origins[path] = (doc, at)

    changes_deck = isinstance(doc.data.get("deck"), dict)
    before = _deck_cards(target.data) if changes_deck else None
    walk(target.data, doc.data, (), ())
    if problems:
        raise CompileError(problems)
    if before:
        _take_parts_of_cards_gone(target, doc, before - (_deck_cards(target.data) or set()))
    target.layers.append(doc)


# The settings that give single cards a part in play: a card's role in a kind of contract
# (``play.roles.KIND.CARD``) and its place among the trumps above the trump suit.
CARD_ROLES = ("play", "roles")
CARD_TRUMPS = ("play", "trumps_above")


def _deck_cards(data: dict) -> set[str] | None:
    """The cards of the deck the merged ``data`` describes (suits x ranks and extra cards, less
    the cards taken out), spelt as the IR spells them; None where it describes no whole deck yet."""
    from .build import deck_of  # the builder imports this module

    deck = data.get("deck")
    if not isinstance(deck, dict) or not isinstance(deck.get("suits"), list) or not isinstance(deck.get("ranks"), list):
        return None
    return set(deck_of(deck).cards())


def _take_parts_of_cards_gone(target: ComposedDocument, doc: LoadedYaml, gone: set[str]) -> None:
    """A layer that takes cards out of the deck takes their parts in play with them.

    A role (``play.roles``) or a place among the trumps above the suit (``play.trumps_above``)
    that a layer *below* ``doc`` gave a card ``doc`` takes out of the deck goes with the card:
    the later rule holds, as it does for any setting it writes (docs/rule-combinations.md).
    A part ``doc`` itself gives a card it takes out is left for the checks to refuse (one file
    saying both), and so is a part a later layer gives a card no longer in the deck.
    """
    if not gone:
        return
    from .build import normalise_card  # the builder imports this module

    play = target.data.get("play")
    if not isinstance(play, dict):
        return
    roles = play.get(CARD_ROLES[1])
    for kind, cards in (roles.items() if isinstance(roles, dict) else ()):
        if not isinstance(cards, dict):
            continue
        for card in [c for c in cards if normalise_card(c) in gone]:
            path = CARD_ROLES + (kind, card)
            if target._origin(path)[0] is not doc:
                del cards[card]
                _forget(target, path)
                target.origins.pop(path, None)
    trumps = play.get(CARD_TRUMPS[1])
    if isinstance(trumps, list) and target._origin(CARD_TRUMPS)[0] is not doc:
        kept = [c for c in trumps if normalise_card(c) not in gone]
        if not kept:
            del play[CARD_TRUMPS[1]]
            _forget(target, CARD_TRUMPS)
            target.origins.pop(CARD_TRUMPS, None)
        elif len(kept) < len(trumps):
            play[CARD_TRUMPS[1]] = kept


def _name_the_formula(target: ComposedDocument, into: dict, key: str, path: tuple) -> None:
    """Turn the plain formula at ``into[key]`` into the named part its setting calls ordinary
    (:data:`ORDINARY` for a game end, ``score`` for the defenders' score).

    Named parts are about to be laid over it; it keeps its origin and, if it
    builds on a formula below (``base``), the layers it builds on.
    """
    ordinary = NAMED_PARTS[path].ordinary
    origin = target._origin(path)
    into[key] = {ordinary: into[key]}
    _forget(target, path)
    target.origins[path + (ordinary,)] = origin
    stack = target.formula_stack.pop(path, None)
    if stack:
        target.formula_stack[path + (ordinary,)] = stack


def _stack_over_conditions(target: ComposedDocument, conditions: dict, path: tuple) -> None:
    """Start the formula stack at ``path`` with the join (``or``, ``+``) of the named ``conditions`` below it.

    A plain formula saying ``base`` replaces them; the ordinary part may
    itself build on a formula below (the only one that can), whose layers come first.
    """
    parts = NAMED_PARTS[path]
    stack: list[FormulaLayer] = []
    texts = []
    for name, text in conditions.items():
        lower = target.formula_stack.get(path + (name,))
        if lower:
            stack = list(lower)
            texts.append("(base)")
        else:
            texts.append(f"({_text(text)})")
    where = target.content_pos(path + (next(iter(conditions)),)) if conditions else target.pos(path)
    combined = f" {parts.joiner} ".join(texts) if texts else parts.empty
    target.formula_stack[path] = stack + [FormulaLayer(combined, where)]
    _forget_stacks(target, path, keep_own=True)


def _forget_stacks(target: ComposedDocument, path: tuple, keep_own: bool = False) -> None:
    """Drop the formula stacks at ``path`` (unless ``keep_own``) and below it: the value is replaced."""
    for p in [p for p in target.formula_stack if p[:len(path)] == path and (len(p) > len(path) or not keep_own)]:
        del target.formula_stack[p]


def _stated(into: dict, path: tuple) -> Any:
    """The fact at ``path`` as the game below states it: its own value, or the setting's default
    where no layer writes it (a game that says nothing about it states the default)."""
    from .vocabulary import default  # vocabulary imports nothing of this module

    return into[path[-1]] if path[-1] in into else default(_dotted(path))


def _fact_conflict(target: ComposedDocument, doc: LoadedYaml, path: tuple, value: Any,
                   into: dict) -> tuple[str, str]:
    """The message, and its hint, for a house rule stating a fact (:data:`FACTS`) the game below
    states otherwise.  A house rule only states the fact; changing it is a variant's to do."""
    from .vocabulary import vocabulary  # the words of the values (vocabulary imports nothing of this module)

    words = vocabulary().by_schema[_dotted(path)].node.get("x-words", {})
    below, where = target._origin(path)  # where no layer writes the fact: where its section is written
    here, there = doc.data.get("name") or doc.filename, below.data.get("name") or below.filename
    levels = f" (bids {into['from']} to {into['to']})" if {"from", "to"} <= set(into) else ""
    stated = _stated(into, path)
    at = below.content_pos(where)
    shown = at.file if at.file.startswith(SET_PREFIX) else shown_place(at.file, at.line, at.col)
    if shown.startswith("shipped '"):  # the name is quoted already: only the line is new
        shown = "shipped" + shown[shown.index(","):] if "," in shown else "shipped"
    by_default = "" if path[-1] in into else " (the default: it does not say)"
    message = (f"{_dotted(path)}: {quoted(str(here))} is written for bids that count {words.get(value, value)}, "
               f"but {quoted(str(there))} ({shown}) counts {words.get(stated, stated)}{by_default}"
               f"{levels}: its numbers would mean other books there, so the two do not combine")
    # The variant at the bottom of the stack, not a house rule below this one that states
    # the fact too: only a variant can be extended.
    game = next((layer for layer in reversed(target.layers) if layer.data.get("kind") != "house-rule"
                 and not layer.filename.startswith(SET_PREFIX)), below)
    name = game.data.get("name")
    extended = name if name in shipped_files(None) else game.filename  # a file of the user's: its path
    hint = (f"lay {quoted(str(here))} over a game whose bids count {words.get(value, value)}, or, to change "
            f"what the bids of {quoted(str(name or extended))} count, write a variant (`extends: {extended}`, "
            f"not a house rule)")
    return message, hint


def _no_such_condition(name: str, path: tuple, names: list) -> str:
    """The message for removing part ``name`` that no layer below has (``names``: what it has)."""
    close = close_matches(name, names, n=1)
    there = f"did you mean '{close[0]}'?" if close else ("there: " + ", ".join(names) if names else "it has none")
    return f"{_dotted(path)}: cannot remove the {NAMED_PARTS[path].noun} '{name}': no layer below has it ({there})"


def base_in_condition(name: str, path: tuple) -> str:
    """The message for ``base`` in a named condition (or term)."""
    parts = NAMED_PARTS[path]
    # The parts are joined (`or` of the conditions, `+` of the terms), so a part says only itself.
    what = ("'{name}' is one more way the game ends, beside the others (their `or`): write only its own condition"
            if parts.noun == "condition" else
            "the terms are added up: write only what '{name}' adds to the score")
    return (f"{_dotted(path)}.{name}: a named {parts.noun} is written whole and cannot say `base`; "
            + what.format(name=name))


def _merges_by_name(below: Any, value: Any) -> bool:
    """Whether ``value`` merges into ``below`` item by item: both lists, ``below`` of named mappings.

    An empty list below merges by name when the overlay's items have names.
    """
    if not (isinstance(below, list) and isinstance(value, list)):
        return False
    if below:
        return all(isinstance(item, dict) and "name" in item for item in below)
    return any(isinstance(item, dict) and "name" in item for item in value)


def _is_removal(item: Any) -> bool:
    """``{name: X, remove: true}``: the item that removes X."""
    return isinstance(item, dict) and "name" in item and item.get(REMOVE_KEY) is True


def _no_such_item(name: str, path: tuple, names: list) -> str:
    """The message for removing ``name`` from a list below that lacks it (``names``: what it has)."""
    if not names:
        return f"{_dotted(path)}: cannot remove '{name}': no layer below this file has {_dotted(path)}"
    close = close_matches(name, names, n=1)
    there = f"did you mean '{close[0]}'?" if close else "there: " + ", ".join(names)
    return f"{_dotted(path)}: cannot remove '{name}': no layer below has an item of that name ({there})"


def _dotted(path: tuple) -> str:
    return ".".join(map(str, path))


def _drop_item(target: ComposedDocument, path: tuple, index: int) -> None:
    """Forget the origins of item ``index`` of the list at ``path``; later items move up one."""
    n = len(path)
    moved = {}
    for p in list(target.origins):
        if len(p) > n and p[:n] == path and isinstance(p[n], int) and p[n] >= index:
            entry = target.origins.pop(p)
            if p[n] > index:
                moved[path + (p[n] - 1,) + p[n + 1:]] = entry
    target.origins.update(moved)


def _without_nulls(value: Any) -> Any:
    """A copy of ``value`` in which ``null`` removes settings of a new mapping too.

    ``orders: {downtown: ~}`` in the first file that writes ``orders`` means "no
    such order", exactly as it would over an ``orders`` mapping already there.
    """
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    return copy.deepcopy(value)


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _forget(target: ComposedDocument, path: tuple) -> None:
    """Drop origins below ``path``: the value there is being replaced whole."""
    for p in [p for p in target.origins if p[:len(path)] == path and len(p) > len(path)]:
        del target.origins[p]


def compose(layers: list[LoadedYaml], house_rules: list[str]) -> ComposedDocument:
    """Merge complete-variant layers (base first) and house rules into one document."""
    doc = ComposedDocument(data={}, layers=[])
    for layer in layers:
        merge_layer(doc, layer)
    top = layers[-1].data
    for key in ("name", "title", "source"):
        if key in top:
            doc.data[key] = top[key]
            doc.origins[(key,)] = (layers[-1], (key,))
    doc.house_rules = list(house_rules)
    return doc


# What YAML reads as the end of a line (YAML 1.1, as PyYAML reads it): LF, CR, NEL, LS, PS.
_LINE_BREAKS = "\n\r\x85\u2028\u2029"


def set_layer(assignment: str, schema: dict | None = None) -> LoadedYaml:
    """A one-line ``--set path=value`` change as a layer of its own.

    The path is dotted (``auction.levels.from``); the value is read as YAML, so ``4``
    is a number and ``[BJ]`` a list.  In a list of named items the next name picks
    the item: ``auction.strains.notrump.levels.from=4`` changes strain notrump (a
    new name adds an item), and ``auction.strains.notrump=~`` removes it.  Which
    lists hold named items the ``schema`` says (the variant schema by default).
    """
    name = f"{SET_PREFIX}{assignment}"
    if "=" not in assignment:
        raise CompileError([Diagnostic(SourcePos(name), "expected PATH=VALUE, e.g. auction.levels.from=4")])
    path_text, value_text = assignment.split("=", 1)
    breaks = [c for c in value_text if c in _LINE_BREAKS]
    if breaks:  # the value is spliced into YAML text: a second line would be a setting of its own
        raise CompileError([Diagnostic(SourcePos(name), (
            f"the value holds a line break ({printable(breaks[0], False)}); a --set value is one line "
            "(write a list as [A, B] and a mapping as {KEY: VALUE})"))])
    keys = [k.strip() for k in path_text.strip().split(".")]
    if not all(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", k) for k in keys):
        raise CompileError([Diagnostic(SourcePos(name), f"'{path_text}' is not a dotted path of setting names")])
    if keys[0] in LAYER_KEYS:  # they describe a file, so a change of one would be silently ignored
        raise CompileError([Diagnostic(SourcePos(name), (
            f"'{keys[0]}' describes a variant file, not a rule of the game: --set cannot change it "
            "(to build on another variant, name it, or write a file that extends it)"))])
    if schema is None:
        from .pipeline import variant_schema  # the pipeline imports this module

        schema = variant_schema()
    # Build nested YAML text so the value keeps YAML's reading and a position.
    # It is validated like a house rule, so it says it is one.
    lines = ["kind: house-rule", "name: set"]
    indent = ""
    node: dict | None = schema
    for i, key in enumerate(keys):
        last = i == len(keys) - 1
        items = _named_items_schema(schema, node)
        if items is not None:  # ``key`` names an item of this list
            if last:
                if value_text.strip() not in ("~", "null", "Null", "NULL"):
                    raise CompileError([Diagnostic(SourcePos(name), (
                        f"'{path_text}' is an item of {'.'.join(keys[:-1])}: set one of its settings "
                        f"({path_text}.SETTING=VALUE), or remove it with {path_text}=~"))])
                lines.append(f"{indent}- {{name: {_json_text(key)}, {REMOVE_KEY}: true}}")
                return _set_yaml("\n".join(lines) + "\n", name)
            lines.append(f"{indent}- name: {_json_text(key)}")
            indent += "  "
            node = items
            continue
        lines.append(f"{indent}{key}:")
        indent += "  "
        node = _schema_child(schema, node, key)
    lines[-1] += " " + value_text.strip()
    return _set_yaml("\n".join(lines) + "\n", name)


# "(parsing a flow sequence that started at line 4)": a line of the YAML text a --set is
# spliced into, which the user never wrote (their change is one line).
_SPLICED_LINE = re.compile(r" that started at line \d+")


def _set_yaml(text: str, name: str):
    """The YAML text made of one ``--set`` loaded, its errors naming no line of that text."""
    try:
        return load_yaml(text, name)
    except CompileError as exc:
        raise CompileError([replace(d, message=_SPLICED_LINE.sub("", d.message), related=())
                            for d in exc.diagnostics]) from None


def _json_text(text: str) -> str:
    """``text`` quoted, so YAML reads a name such as ``no`` as text."""
    return json.dumps(text)


def _schema_resolve(schema: dict, node: Any) -> dict | None:
    while isinstance(node, dict) and "$ref" in node:
        node = schema.get("definitions", {}).get(node["$ref"].split("/")[-1])
    return node if isinstance(node, dict) else None


def _schema_child(schema: dict, node: dict | None, key: str) -> dict | None:
    """The schema of setting ``key`` inside ``node`` (None where the schema does not say)."""
    node = _schema_resolve(schema, node)
    if node is None:
        return None
    if key in node.get("properties", {}):
        return _schema_resolve(schema, node["properties"][key])
    return _schema_resolve(schema, node.get("additionalProperties"))


def _named_items_schema(schema: dict, node: dict | None) -> dict | None:
    """The item schema if ``node`` is a list of named items (items with a ``name``), else None."""
    node = _schema_resolve(schema, node)
    if node is None or node.get("type") != "array":
        return None
    items = _schema_resolve(schema, node.get("items"))
    return items if items is not None and "name" in items.get("properties", {}) else None


def resolve_extends(load: Callable[[str, Path | None], LoadedYaml], first: LoadedYaml) -> list[LoadedYaml]:
    """The chain of variant layers, base first, following ``extends`` (cycles, and chains
    longer than :data:`MAX_EXTENDS`, refused)."""
    chain = [first]
    seen = {same_file_key(first.filename)}
    current = first
    while isinstance(current.data, dict) and current.data.get("extends"):
        target = current.data["extends"]
        try:
            parent = load(target, Path(current.filename).parent)
        except CompileError as exc:
            raise _at_extends(exc, current, target) from None
        if isinstance(parent.data, dict) and parent.data.get("kind") == "house-rule":
            # A house rule gives only what it changes: built on, it would leave the variant
            # without its deck, auction and scoring (one line for each, none saying why).
            raise CompileError([Diagnostic(current.content_pos(("extends",)),
                                           f"extends {quoted(target)}, which is a house rule, not a variant: a "
                                           "variant extends a variant",
                                           hint=f"extend the variant the rule is laid over (`extends: VARIANT`) "
                                                f"and lay the rule over yours (YOURS+{printable(target, False)}, "
                                                "or --with), or write its settings into your file")])
        if same_file_key(parent.filename) in seen:
            raise CompileError([Diagnostic(current.pos(("extends",)),
                                           f"extends '{target}' makes a cycle of variants")])
        if len(chain) >= MAX_EXTENDS:
            raise CompileError([Diagnostic(current.pos(("extends",)),
                                           f"extends {quoted(target)}: a chain of more than {MAX_EXTENDS} "
                                           f"variants, each extending the next (from {first.filename})",
                                           hint="extend a variant nearer the base, or write the settings of "
                                                "some of the chain into one file")])
        seen.add(same_file_key(parent.filename))
        chain.append(parent)
        current = parent
    return list(reversed(chain))


def same_file_key(filename: str) -> str:
    """One spelling per file (``dir/../dir/x.yaml`` is ``x.yaml``), so every cycle (or a house
    rule laid twice under two names) is seen; the name itself where it cannot be resolved."""
    try:
        return str(Path(filename).resolve())
    except (OSError, RuntimeError, ValueError):
        return filename


def _at_extends(exc: CompileError, current: LoadedYaml, target: str) -> CompileError:
    """Problems finding or reading the file ``extends`` names, placed on the ``extends`` line.

    An unknown name or an unreadable file has no position of its own; the mistake
    the user can fix is the ``extends:`` setting.  Problems inside the file it names
    keep their own positions.
    """
    where = current.content_pos(("extends",))
    diagnostics = []
    for d in exc.diagnostics:
        if d.pos.line:
            diagnostics.append(d)
            continue
        message = d.message if quoted(target) in d.message else f"extends {quoted(target)}: {d.message}"
        diagnostics.append(Diagnostic(where, message, related=d.related))
    return CompileError(diagnostics)
