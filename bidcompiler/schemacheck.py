"""Validate loaded YAML against a JSON Schema, reporting every error with a position.

``jsonschema`` reports errors as data paths; :class:`~bidcompiler.yamlload.LoadedYaml`
turns a path back into ``file:line:col``.  This module adds what a person editing a
rules file needs on top of that:

* every error at once (``iter_errors``, never ``best_match`` of the whole lot);
* short messages (``unknown key 'dealr' (did you mean 'dealer'?)``) instead of
  jsonschema's, which embed Python reprs of whole sub-documents;
* ``required`` errors placed on the mapping, ``additionalProperties`` errors on the
  offending key, one diagnostic per key;
* for ``oneOf``/``anyOf``, the errors of the alternative the value came closest to;
* schema-directed string coercion: ``10`` where the schema wants a string becomes
  ``"10"`` (YAML had already read it as an integer), found by one walk down the
  data guided by the schema, before the one validation.

The module is generic: it knows nothing of the variant schema's content.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError
from yaml.nodes import ScalarNode

from runtime.cards import digits_note

from .errors import Diagnostic, SourcePos, close_matches
from .yamlload import FormulaNode, LoadedYaml, coerce_to_schema_strings

__all__ = ["validate"]

_COMBINATORS = ("oneOf", "anyOf")

_TYPE_NAMES = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "object": "a mapping",
    "array": "a list",
    "null": "null",
}


def _is_integer(checker, instance) -> bool:
    # JSON Schema counts 4.0 as an integer; a count of players or cards written
    # `4.0` is a mistake, and the engine cannot deal 12.0 cards.
    return isinstance(instance, int) and not isinstance(instance, bool)


_Validator = validators.extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
)


def validate(loaded: LoadedYaml, schema: dict) -> list[Diagnostic]:
    """Check ``loaded.data`` against ``schema`` (JSON Schema draft 2020-12).

    Returns every problem as a :class:`Diagnostic`, sorted by position and
    de-duplicated; an empty list means the data is valid.  As a side effect, plain
    YAML scalars that were read as numbers, booleans or null where the schema wants
    a string are replaced in ``loaded.data`` by their source text (see
    :func:`~bidcompiler.yamlload.coerce_to_schema_strings`), so callers must use
    ``loaded.data`` after validating.

    One pass: the schema guides the walk that coerces (:func:`coerce_guided`), and
    the coerced data is validated once.
    """
    validator = _Validator(schema)
    coerce_guided(loaded, schema, validator)
    errors = list(validator.iter_errors(loaded.data))
    if any(tuple(e.absolute_path) == ("kind",) for e in errors):
        # A misspelt `kind` (houserule) fails the test that tells a house rule from a whole
        # variant, and so asks for every section of one: say only what is wrong with `kind`.
        errors = [e for e in errors if not (e.absolute_schema_path and e.absolute_schema_path[0] == "then")]

    diagnostics: dict[tuple, Diagnostic] = {}
    whole = [e for e in errors if e.validator == "required" and not e.absolute_path
             and e.absolute_schema_path and e.absolute_schema_path[0] == "then"]
    if whole:
        # A file with neither `kind: house-rule` nor `extends` is a whole variant, so every
        # section it lacks is missing: most often a house rule that forgot to say so.  One
        # message, with both ways out, instead of one line per section.
        errors = [e for e in errors if e not in whole]
        missing = sorted({m.split("'")[1] for e in whole for m in _required_messages(e)})
        whist = loaded.filename.endswith(".whist")
        rule, base = ("`house-rule NAME` as its first line", "`extends VARIANT`") if whist else \
            ("`kind: house-rule`", "`extends: VARIANT`")
        diagnostic = Diagnostic(loaded.key_pos(()),
                                f"missing required key{'s' if len(missing) > 1 else ''} "
                                f"{', '.join(repr(k) for k in missing)}: a variant of its own gives every section",
                                hint=f"if this file changes a game, make it a house rule ({rule}); if it is a "
                                     f"variant built on another, name it ({base})")
        diagnostics[(diagnostic.pos.file, diagnostic.pos.line, diagnostic.pos.col, diagnostic.message)] = diagnostic
    errors, unindented = _unindented_blocks(loaded, errors, schema)
    # Words of one name written apart (`first caller`): one message, at the first word.
    apart = {(*tuple(e.absolute_path)[:-1], tuple(e.absolute_path)[-1] + k)
             for e in errors if _words_apart(loaded, e) for k in range(1, _words_apart_count(loaded, e))}
    errors = [e for e in errors if tuple(e.absolute_path) not in apart]
    for error in errors:
        for diagnostic in _diagnose(loaded, error, schema):
            if diagnostic.message.startswith("unknown key") and \
                    (diagnostic.pos.line, diagnostic.pos.col) in unindented.get("unknown", ()):
                continue
            key = (diagnostic.pos.file, diagnostic.pos.line, diagnostic.pos.col, diagnostic.message)
            diagnostics.setdefault(key, diagnostic)
    for diagnostic in unindented.get("", ()):
        assert isinstance(diagnostic, Diagnostic)
        diagnostics[(diagnostic.pos.file, diagnostic.pos.line, diagnostic.pos.col, diagnostic.message)] = diagnostic
    return [diagnostics[key] for key in sorted(diagnostics)]


def _takes_named_terms(root: dict, path: tuple) -> bool:
    """Whether the setting at ``path`` (keys only) may be a mapping of names of one's own choosing."""
    node: Any = root
    for key in path:
        node = _resolve(root, node)
        forms = [node, *(_resolve(root, b) for b in (*node.get("anyOf", ()), *node.get("oneOf", ())))] \
            if isinstance(node, dict) else []
        node = next((f["properties"][key] for f in forms if isinstance(f, dict) and key in f.get("properties", {})),
                    None)
        if node is None:
            return False
    node = _resolve(root, node)
    forms = [node, *(_resolve(root, b) for b in (*node.get("anyOf", ()), *node.get("oneOf", ())))]
    return any(isinstance(f, dict) and isinstance(f.get("additionalProperties"), dict) for f in forms)


def _unindented_blocks(loaded: LoadedYaml, errors: list, root: dict) -> tuple[list, dict[str, Any]]:
    """A block left empty with its settings below it not indented under it (``auction:`` and then
    ``levels: …`` at the left margin): one message at the first of them, for what would be two
    (the block "found nothing", each setting "unknown here").

    Returns the errors less the empty block's, and what to leave out and add: under ``"unknown"``,
    the positions an unknown key is no longer reported at; under ``""``, the new diagnostics.
    """
    # The keys written with nothing after them, in the mappings that have unknown keys.
    empty = set()
    unknown: dict[tuple, set] = {}  # mapping path -> its unknown keys
    for error in errors:
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            unknown.setdefault(tuple(error.absolute_path), set()).update(_additional_keys(error))
            for key, value in error.instance.items():
                node = loaded.node((*error.absolute_path, key))
                if value is None and isinstance(node, ScalarNode) and node.style is None and node.value == "":
                    empty.add((*error.absolute_path, key))
    if not empty:
        return errors, {}
    skip: dict[str, Any] = {"": []}
    dropped = set()
    for path in sorted(empty, key=str):
        parent = loaded.data
        for part in path[:-1]:  # through list items too (a strain's `levels:` left empty)
            parent = _data_at(parent, (part,))
        if not isinstance(parent, dict):
            continue
        keys = list(parent)
        block = path[-1]
        run = []
        # A block of named terms (game.lose) takes any name: an unknown key below it is one.
        terms = _takes_named_terms(root, path)
        for key in keys[keys.index(block) + 1:] if block in keys else ():
            if not isinstance(key, str) or key not in unknown.get(tuple(path[:-1]), ()) or \
                    not (terms or _schema_path((*path, key)) in _homes(root, key)):
                break
            run.append(key)
        if not run:
            continue
        dropped.add(path)
        for key in run:
            pos = loaded.key_pos((*path[:-1], key))
            skip.setdefault("unknown", []).append((pos.line, pos.col))
        first = loaded.key_pos((*path[:-1], run[0]))
        names = " and ".join(f"'{k}'" for k in run) if len(run) <= 2 else \
            ", ".join(f"'{k}'" for k in run[:-1]) + f" and '{run[-1]}'"
        line = loaded.key_pos(path).line
        them = "them" if len(run) > 1 else "it"
        skip[""].append(Diagnostic(first, f"{names} {'are settings' if len(run) > 1 else 'is a setting'} of "
                                          f"'{block}' (line {line}), which is empty: indent {them} under "
                                          f"'{block}' (with spaces)"))
    # The empty block's own error ("expected a mapping, found nothing") is said by the new message.
    return [e for e in errors if not (tuple(e.absolute_path) in dropped and e.instance is None)], skip


def _schema_path(path: tuple) -> str:
    """``path`` dotted as :func:`_homes` writes a setting's place, a list index as ``[]``
    (("auction", "strains", 0, "levels") is auction.strains[].levels): so a block left
    empty inside a list item is found as one outside a list is."""
    dotted = ""
    for part in path:
        dotted += "[]" if isinstance(part, int) else ("." if dotted else "") + str(part)
    return dotted


# -- string coercion ---------------------------------------------------------------


def _resolve(root: dict, schema: Any) -> Any:
    """``schema`` with local ``$ref``s followed; keywords beside a ``$ref`` are kept (draft 2020-12)."""
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and schema["$ref"].startswith("#"):
        target: Any = root
        for part in schema["$ref"].removeprefix("#").strip("/").split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")] if part else target
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}} if isinstance(target, dict) \
            else target
    return schema


def _accepts_type(validator, schema: dict, value: Any) -> bool:
    """Whether ``schema``'s ``type`` (if any) takes ``value`` as it is."""
    wanted = schema.get("type")
    if wanted is None:
        return True
    return any(validator.is_type(value, t) for t in ([wanted] if isinstance(wanted, str) else wanted))


def _wants_string(schema: dict) -> bool:
    wanted = schema.get("type")
    return wanted == "string" or (isinstance(wanted, list) and "string" in wanted)


def _string_wanted(loaded: LoadedYaml, root: dict, schema: dict, value: Any, path: tuple, validator) -> bool:
    """Whether the plain scalar ``value`` at ``path`` is one the schema wants as its text.

    The cases a validation would report and the text would mend: a ``type`` that
    takes a string but not this value; an ``enum``/``const`` of strings holding the
    value's source text (``enum: ["1", "2"]`` and a plain ``1``); an ``anyOf``/``oneOf``
    none of whose alternatives takes this kind of value, where one takes a string.
    """
    if isinstance(value, str) or isinstance(value, (dict, list)):
        return False
    if _wants_string(schema) and not _accepts_type(validator, schema, value):
        return True
    if "enum" in schema or "const" in schema:
        allowed = schema["enum"] if "enum" in schema else [schema["const"]]
        node = loaded.node(path)
        if isinstance(allowed, list) and value not in allowed and isinstance(node, ScalarNode) \
                and node.style is None and node.value in allowed:
            return True
    for keyword in _COMBINATORS:
        branches = [_resolve(root, b) for b in schema.get(keyword, ())]
        if branches and not any(_accepts_type(validator, b, value) for b in branches if isinstance(b, dict)):
            if any(isinstance(b, dict) and _wants_string(b) for b in branches):
                return True
    return False


def coerce_guided(loaded: LoadedYaml, schema: dict, validator=None) -> int:
    """Turn plain scalars the schema wants as strings into their source text, in one walk.

    The walk follows the data down the schema (``properties``, ``patternProperties``,
    ``additionalProperties``, ``items``, ``allOf``, local ``$ref``s) and coerces a value
    before looking inside it, so what the coerced value is goes on guiding the walk.
    For an ``anyOf``/``oneOf`` it goes into the alternatives that take the value's
    kind; when more than one does and none matches, into the one a validation would
    report (:func:`_closest_branch`), as :func:`_diagnose` reports it.  Returns how many
    values changed.
    """
    validator = validator or _Validator(schema)
    changed = 0

    def walk(sub: Any, value: Any, path: tuple) -> Any:
        nonlocal changed
        sub = _resolve(schema, sub)
        if not isinstance(sub, dict):
            return value
        if _string_wanted(loaded, schema, sub, value, path, validator) and coerce_to_schema_strings(loaded, [path]):
            changed += 1
            value = _at(loaded.data, path)
        if isinstance(value, dict):
            properties = sub.get("properties") or {}
            patterns = sub.get("patternProperties") or {}
            extra = sub.get("additionalProperties")
            for key in list(value):
                matched = [p for p in patterns if re.search(p, str(key))]
                for child in ([properties[key]] if key in properties else []) + [patterns[p] for p in matched]:
                    walk(child, value[key], path + (key,))
                if key not in properties and not matched and isinstance(extra, dict):
                    walk(extra, value[key], path + (key,))
        elif isinstance(value, list) and isinstance(sub.get("items"), dict):
            for i in range(len(value)):
                walk(sub["items"], value[i], path + (i,))
        for branch in sub.get("allOf", ()):
            value = walk(branch, value, path)
        for keyword in _COMBINATORS:
            branches = [(i, _resolve(schema, b)) for i, b in enumerate(sub.get(keyword, ()))]
            viable = [(i, b) for i, b in branches if isinstance(b, dict) and _accepts_type(validator, b, value)]
            if len(viable) > 1:
                if any(validator.evolve(schema=b).is_valid(value) for _, b in viable):
                    continue  # an alternative matches: nothing in it wants mending
                errors = {i: list(validator.evolve(schema=b).iter_errors(value)) for i, b in viable}
                viable = [(i, b) for i, b in viable if i == _closest_branch(errors)]
            for _, branch in viable:
                value = walk(branch, value, path)
        return _at(loaded.data, path)

    if loaded.data is not None:
        walk(schema, loaded.data, ())
    return changed


def _at(data: Any, path: tuple) -> Any:
    for element in path:
        data = data[element]
    return data


# -- oneOf / anyOf -----------------------------------------------------------------


def _branches(error: ValidationError) -> dict[int, list[ValidationError]]:
    """The context errors of a combinator error, grouped by alternative index."""
    branches: dict[int, list[ValidationError]] = defaultdict(list)
    for sub in error.context or ():
        index = sub.relative_schema_path[0] if sub.relative_schema_path else 0
        branches[index if isinstance(index, int) else 0].append(sub)
    return dict(branches)


def _type_mismatch(errors: list[ValidationError]) -> bool:
    """Whether an alternative rejected the value for being the wrong kind."""
    return any(e.validator == "type" and not e.relative_path for e in errors)


def _closest_branch(branches: dict[int, list[ValidationError]]) -> int:
    """The alternative the value most likely meant.

    Not a list of words that refused a whole mapping (`show: {contracts: [nt]}` meant the
    block, not one of the words `never`, `auction` ...: its own mistakes are the ones to tell).
    Then prefer the one whose ``const``/``enum`` checks passed (a discriminator such as
    ``kind: bonus`` names the alternative), then the fewest errors, then the one
    whose errors are deepest (more of the value matched), then the first.
    """

    def score(item: tuple[int, list[ValidationError]]) -> tuple:
        index, errs = item
        words_for_a_block = any(e.validator in ("const", "enum") and not e.relative_path
                                and isinstance(e.instance, dict) for e in errs)
        discriminator_misses = sum(1 for e in errs if e.validator in ("const", "enum"))
        depth = max(len(e.relative_path) for e in errs)
        return (words_for_a_block, discriminator_misses, len(errs), -depth, index)

    return min(branches.items(), key=score)[0]


# -- messages ----------------------------------------------------------------------


def _show(value: Any, limit: int = 40) -> str:
    """A short, YAML-flavoured rendering of a value for a message."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        text = repr(value)
        return text if len(text) <= limit else text[: limit - 4] + "...'"
    return str(value)


def _plain(value: Any) -> str:
    """An allowed value in a list of choices: strings bare, others as shown."""
    return value if isinstance(value, str) else _show(value)


def _null_said(loaded: LoadedYaml, error: ValidationError) -> str:
    """How the file at hand has a setting be null: ``null`` in YAML; a .whist file cannot write
    null, it writes ``remove KEY`` (docs/whist-syntax.md), so its messages offer that."""
    key = error.absolute_path[-1] if error.absolute_path else None
    if loaded.filename.endswith(".whist") and isinstance(key, str):
        return f"`remove {key}`"
    return "null"


def _type_name(wanted: Any, null: str = "null") -> str:
    """The JSON Schema type(s) ``wanted`` in words; ``null`` as the file writes it (:func:`_null_said`)."""
    names = [wanted] if isinstance(wanted, str) else list(wanted)
    words = [null if name == "null" else _TYPE_NAMES.get(name, name) for name in dict.fromkeys(names)]
    if len(words) <= 1:
        return words[0] if words else "something else"
    return ", ".join(words[:-1]) + " or " + words[-1]


# What a quoted text may be meant as: a whole number or a truth value.
_QUOTED_WORD = re.compile(r"^[-+]?[0-9]+$|^(true|false)$")


def _wants_unquoted(error: ValidationError, word: str) -> bool:
    """Whether the place of ``error`` takes ``word`` written without quotes: an integer where an
    integer (or number) belongs, true or false where a truth value does; a type check or, for
    anyOf / oneOf, one of its forms.  (`target: "true"` is not told to write `true`.)"""
    wanted = "boolean" if word in ("true", "false") else "integer"
    if error.validator == "type":
        names = [error.validator_value] if isinstance(error.validator_value, str) else list(error.validator_value)
        return wanted in names or (wanted == "integer" and "number" in names)
    return any(_wants_unquoted(sub, word) for sub in error.context or ())


def _quoted_word(loaded: LoadedYaml, error: ValidationError) -> str | None:
    """The number or truth value that quotes made text of, where the place of ``error`` takes
    it written without them (`target: "7"`, `dealer_may_take: "true"`); else None."""
    node = loaded.node(error.absolute_path)
    if error.validator not in ("type", *_COMBINATORS) or not isinstance(node, ScalarNode) \
            or node.style not in ("'", '"') or not isinstance(error.instance, str):
        return None
    word = error.instance.strip()
    return word if _QUOTED_WORD.match(word) and _wants_unquoted(error, word) else None


def _found(loaded: LoadedYaml, error: ValidationError) -> str:
    node = loaded.node(error.absolute_path)
    if error.instance is None:
        if isinstance(node, ScalarNode) and node.style is None and node.value == "":
            return "nothing"
    key = error.absolute_path[-1] if error.absolute_path else None
    word = _quoted_word(loaded, error)
    if word is not None:
        # `target: "7"`, `dealer_may_take: "true"`: the quotes made text of a number or a truth value.
        return f"the text {_show(error.instance)} (the quotes make it text: write {word} without them)"
    if isinstance(error.instance, list) and 1 < len(error.instance) <= 8 \
            and all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in error.instance):
        # `first_lead left of declarer` in .whist: several words are a list; show them.
        return f"the list [{', '.join(str(v) for v in error.instance)}]"
    if isinstance(node, FormulaNode) and isinstance(key, str):
        # `from = 4` in .whist: the `=` made a formula where a plain value belongs.
        return f"the formula `{node.value}` (`=` starts a formula; write `{key} {node.value}`)"
    return _show(error.instance)


def _required_messages(error: ValidationError) -> list[str]:
    # jsonschema yields one error per missing key, naming it only inside the message
    # ("'deal' is a required property"); match the message to find which key.
    instance = error.instance if isinstance(error.instance, dict) else {}
    missing = [key for key in error.validator_value if key not in instance]
    for key in missing:
        if error.message == f"{key!r} is a required property":
            return [f"missing required key '{key}'"]
    return [f"missing required key '{key}'" for key in missing]


def _additional_keys(error: ValidationError) -> list[str]:
    """The keys an ``additionalProperties: false`` error is about."""
    schema = error.schema if isinstance(error.schema, dict) else {}
    properties = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    return [
        key
        for key in error.instance
        if key not in properties and not any(re.search(pattern, str(key)) for pattern in patterns)
    ]


def _homes(root: dict, key: str) -> list[str]:
    """The dotted paths where the schema ``root`` has a setting named ``key`` (play.first_lead)."""
    found: list[str] = []

    def walk(node: Any, path: tuple, depth: int) -> None:
        node = _resolve(root, node)
        if not isinstance(node, dict) or depth > 4:
            return
        for branch in (*node.get("anyOf", ()), *node.get("oneOf", ())):
            walk(branch, path, depth + 1)
        if isinstance(node.get("items"), dict):
            walk(node["items"], (*path[:-1], f"{path[-1]}[]") if path else path, depth + 1)
        for name, sub in (node.get("properties") or {}).items():
            if name == key:
                found.append(".".join((*path, name)))
            walk(sub, path + (name,), depth + 1)

    walk(root, (), 0)
    return sorted(set(found))


def _diagnose(loaded: LoadedYaml, error: ValidationError, root: dict | None = None) -> list[Diagnostic]:
    """One or more short, positioned diagnostics for one jsonschema error (``root``: the whole schema,
    to say where a key that is unknown here belongs)."""
    path = tuple(error.absolute_path)
    kind = error.validator
    value = error.instance

    def at(message: str, pos: SourcePos | None = None) -> list[Diagnostic]:
        return [Diagnostic(pos or loaded.pos(path), message)]

    if "propertyNames" in error.absolute_schema_path and isinstance(value, str):
        # The instance is a key of the mapping at `path`; point at that key.
        return [Diagnostic(loaded.key_pos(path + (value,)), _short_message(loaded, error))]
    if kind == "required":
        # Point at the key naming the mapping (or the mapping itself when it has no
        # key: the document root, a list item).
        return [Diagnostic(loaded.key_pos(path), message) for message in _required_messages(error)]
    if kind == "additionalProperties" and isinstance(value, dict):
        properties = list((error.schema or {}).get("properties", {}))
        result = []
        for key in _additional_keys(error):
            message = f"unknown key {_show(key)}"
            close = _closest(str(key), properties)
            # A key of another section written in the wrong block (`auction { first_lead eldest }`).
            homes = _homes(root, str(key)) if root is not None and isinstance(key, str) else []
            if homes and len(homes) <= 3:
                sections = [h.rsplit(".", 1)[0] if "." in h else "the top level" for h in homes]
                message += f" here: it is a setting of {' or '.join(sections)} " \
                           f"({', '.join(f'`{h}`' for h in homes)})"
            elif close:
                message += f" (did you mean '{close[0]}'?)"
            result.append(Diagnostic(loaded.key_pos(path + (key,)), message))
        return result or at("unknown keys")
    if kind in _COMBINATORS:
        if not error.context:
            # oneOf matched more than one alternative.
            return at("matches more than one of the allowed forms; make it unambiguous")
        word = _quoted_word(loaded, error)
        if word is not None:
            # `first_dealer: "2"` (random or a seat): the text's form is no match, but the number
            # written without its quotes is; say that, not which words the text is not.
            wanted_type = "boolean" if word in ("true", "false") else "integer"
            words = [str(v) for sub in error.context or () if sub.validator == "enum"
                     for v in sub.validator_value if isinstance(v, str)]
            also = f" or {' or '.join(words)}" if words else ""
            return at(f"expected {_type_name(wanted_type)}{also}, found {_found(loaded, error)}")
        branches = _branches(error)
        viable = {i: errs for i, errs in branches.items() if not _type_mismatch(errs)}
        if not viable:
            wanted: list[str] = []
            for errs in branches.values():
                for e in errs:
                    if e.validator == "type" and not e.relative_path:
                        wanted.extend([e.validator_value] if isinstance(e.validator_value, str) else e.validator_value)
            setting = _value_of_a_setting(root, error, path)
            lists = [e.schema for errs in branches.values() for e in errs if e.validator == "type"
                     and not e.relative_path and "array" in ([e.validator_value] if isinstance(e.validator_value, str)
                                                             else e.validator_value)]
            return at(f"expected {_type_name(wanted)}, found {_found(loaded, error)}"
                      + (f" (it is a block: {setting})" if setting else
                         _list_of_one(wanted, error.instance, lists[0] if lists else None, root)))
        closest = viable[_closest_branch(viable)]
        alternatives = _word_or_type(closest, [errs for i, errs in branches.items() if i not in viable])
        if alternatives:
            # `first_dealer: north` (a seat or random): every allowed form, not only the word's.
            # `tie: first-from-dealers-left`: a word the list form takes as an item, not alone.
            lists = [e.schema for i, errs in branches.items() if i not in viable for e in errs
                     if e.validator == "type" and not e.relative_path
                     and "array" in ([e.validator_value] if isinstance(e.validator_value, str) else e.validator_value)]
            one = _list_of_one(["array"], error.instance) if root is not None and lists \
                and _an_item_of(root, lists[0], error.instance) else ""
            return at(f"expected {alternatives}, found {_found(loaded, error)}{_did_you_mean(closest[0])}"
                      f"{digits_note(error.instance)}{one}")
        result = []
        for sub in closest:
            result.extend(_diagnose(loaded, sub, root))
        return result
    if kind == "type" and error.validator_value == "array" and isinstance(value, dict) and root is not None \
            and _named_items(root, error.schema):
        # `strains: {notrump: {levels: …}}`, as .whist writes it: YAML writes named items as a list.
        return at(_short_message(loaded, error) + " (in YAML the named items are a list, each item giving its "
                  "name first: `- name: NAME`, then its settings)")
    setting = _value_of_a_setting(root, error, path) if kind == "type" else ""
    if setting:
        message = _short_message(loaded, error, root)
        return at(message + (f" ({setting})" if "(a block of" in message else f" (it is a block: {setting})"))
    return at(_short_message(loaded, error, root))


def _value_of_a_setting(root: dict | None, error: ValidationError, path: tuple) -> str:
    """``'dealer' is a value of its setting kitty.taker`` where a block was given a word one of
    its settings takes (`kitty dealer` for `kitty { taker dealer }`); else empty."""
    if root is None or not isinstance(error.instance, str):
        return ""
    forms = [_resolve(root, error.schema)]
    forms += [_resolve(root, b) for b in (*forms[0].get("anyOf", ()), *forms[0].get("oneOf", ()))]
    keys = [key for form in forms if isinstance(form, dict)
            for key, sub in (form.get("properties") or {}).items()
            if error.instance in (_resolve(root, sub) or {}).get("enum", ())]
    if len(keys) != 1:
        return ""
    where = _schema_path((*path, keys[0]))
    return f"'{error.instance}' is a value of its setting {where}"


def _word_or_type(closest: list[ValidationError], others: list[list[ValidationError]]) -> str:
    """``an integer or random``: the words of an alternative that refused the value for being none of
    them (``closest``, an ``enum``) and the kinds of value the ``others`` take, which refused it as
    the wrong kind; empty when ``closest`` is not such a list of words or there are no others."""
    if len(closest) != 1 or closest[0].validator != "enum" or closest[0].relative_path or not others:
        return ""
    kinds = [e.validator_value for errs in others for e in errs if e.validator == "type" and not e.relative_path]
    if not kinds:
        return ""
    words = " or ".join(_plain(v) for v in closest[0].validator_value)
    return f"{_type_name([k for kind in kinds for k in ([kind] if isinstance(kind, str) else kind)])} or {words}"


def _did_you_mean(error: ValidationError) -> str:
    """`` (did you mean 'X'?)`` for a misspelt word of an ``enum`` (left-of-decalrer), or a text a
    ``pattern`` refuses that it takes in other case or with ``-`` for spaces (My_Rule: my-rule)."""
    value = error.instance
    if error.validator == "pattern" and isinstance(value, str) and isinstance(error.validator_value, str):
        for candidate in (re.sub(r"[^a-z0-9]+", "-", value.lower()).strip("-"), value.upper()):
            if candidate != value and re.search(error.validator_value, candidate):
                return f" (did you mean '{candidate}'?)"
        return ""
    if error.validator == "enum" and isinstance(value, list) and all(isinstance(v, str) for v in value) \
            and "-".join(value) in (error.validator_value or ()):
        # `first_lead left of declarer` in .whist: the words of one name, written apart.
        return f" (did you mean '{'-'.join(value)}'?)"
    if error.validator != "enum" or not isinstance(value, str) or not isinstance(error.validator_value, list):
        return ""
    words = [w for w in error.validator_value if isinstance(w, str)]
    close = _closest(error.instance, words)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _closest(word: str, words: list[str]) -> list[str]:
    """The one of ``words`` that ``word`` most likely meant, as a list of none or one: the
    word itself in other case or with `-` and `_` swapped first (`Game` is `game`, not the
    nearer spelling `name`; `dealer-may-take` is `dealer_may_take`), else the closest spelling."""
    folded = {w.lower().replace("-", "_"): w for w in words}
    same = folded.get(word.lower().replace("-", "_"))
    return [same] if same is not None else close_matches(word, words, n=1)


def _data_at(data: Any, path: tuple) -> Any:
    """The value at ``path`` (keys and list indexes) in ``data``, or None where there is none."""
    for part in path:
        if isinstance(data, dict) and part in data:
            data = data[part]
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return None
    return data


def _words_apart_count(loaded: LoadedYaml, error: ValidationError) -> int:
    """How many items of a list, from the one ``error`` is about, are the words of one allowed
    name written apart (`must_bid first caller` in .whist: 2), or 0."""
    path = tuple(error.absolute_path)
    words = error.validator_value if error.validator == "enum" else None
    if not path or not isinstance(path[-1], int) or not isinstance(words, list):
        return 0
    items = _data_at(loaded.data, path[:-1])
    if not isinstance(items, list):
        return 0
    i = path[-1]
    for n in (3, 2):
        if len(items[i:i + n]) == n and "-".join(str(v) for v in items[i:i + n]) in words:
            return n
    return 0


def _words_apart(loaded: LoadedYaml, error: ValidationError) -> str:
    """`` (did you mean 'first-caller'? …)`` where an item of a list and the items after it are the
    words of one allowed name written apart (:func:`_words_apart_count`), else ``""``."""
    n = _words_apart_count(loaded, error)
    if not n:
        return ""
    path = tuple(error.absolute_path)
    items = _data_at(loaded.data, path[:-1])
    joined = "-".join(str(v) for v in items[path[-1]:path[-1] + n])
    return f" (did you mean '{joined}'? the words of one name are joined by -)"


def _named_items(root: dict, schema: Any) -> bool:
    """Whether ``schema`` is a list of named items (blocks with a ``name``, as auction.strains)."""
    items = _resolve(root, schema.get("items")) if isinstance(schema, dict) else None
    return isinstance(items, dict) and "name" in (items.get("properties") or {})


def _first_repeated(items: list) -> Any:
    """The first item of ``items`` that an earlier one equals (as JSON Schema compares), or None."""
    for i, item in enumerate(items):
        if any(_json_equal(item, earlier) for earlier in items[:i]):
            return item
    return None


def _json_equal(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` are one JSON value as JSON Schema compares them, at every depth:
    ``true`` is not ``1`` (Python's ``True == 1``), ``1`` is ``1.0``, mappings by their keys."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def _list_of_one(wanted: list, value: Any, schema: Any = None, root: dict | None = None) -> str:
    """`` (a list of one is written [A])`` where a list is wanted and one plain word or number was
    given (`redeal_without: A`: the .whist syntax reads one word as a list of one, YAML does not);
    not where the list's items (``schema``'s, ``root`` resolving its references) are of another
    kind (`strains: uptown` wants blocks, `ranking: uptown` lists: `[uptown]` is wrong too)."""
    if "array" not in wanted or isinstance(value, (bool, dict, list)) or value is None:
        return ""
    if root is not None and not _items_take(root, schema, value):
        return ""
    shown = str(value)
    return f" (a list of one is written [{shown}])" if len(shown) <= 40 and "\n" not in shown else ""


def _item_forms(root: dict, schema: Any) -> list | None:
    """The forms an item of the list ``schema`` may take: its ``items`` and their alternatives
    (``root`` resolving references); None where the list says nothing of its items."""
    items = _resolve(root, schema.get("items")) if isinstance(schema, dict) else None
    if not isinstance(items, dict):
        return None
    return [items, *(_resolve(root, b) for k in _COMBINATORS for b in items.get(k, ()))]


def _an_item_of(root: dict, schema: Any, value: Any) -> bool:
    """Whether ``value`` is one of the words (``enum``, ``const``) the items of the list ``schema``
    name, theirs or their alternatives' (``root`` resolving references); False where they name none."""
    alternatives = _item_forms(root, schema)
    return alternatives is not None and any(
        isinstance(a, dict) and (any(_json_equal(value, w) for w in a.get("enum", ()))
                                 or ("const" in a and _json_equal(value, a["const"])))
        for a in alternatives)


def _items_take(root: dict, schema: Any, value: Any) -> bool:
    """Whether the items of the list ``schema`` may be of ``value``'s kind (a text, a number), as
    far as their ``type`` says (their alternatives' too); True where it says nothing."""
    alternatives = _item_forms(root, schema)
    if alternatives is None:
        return True
    kinds: set[str] = set()
    for alternative in alternatives:
        if isinstance(alternative, dict) and "type" in alternative:
            kind = alternative["type"]
            kinds.update([kind] if isinstance(kind, str) else kind)
    if not kinds:
        return True
    # A number is read as its text where the items are texts (`redeal_without: [9]`, a rank).
    own = {"string"} if isinstance(value, str) else {"number", "integer", "string"} if isinstance(value, int) \
        else {"number", "string"}
    return bool(kinds & own)


def _short_message(loaded: LoadedYaml, error: ValidationError, root: dict | None = None) -> str:
    """A message for a keyword that needs no special placement (``root``: the whole schema)."""
    kind = error.validator
    want = error.validator_value
    value = error.instance
    if kind == "type":
        wanted = _type_name(want, _null_said(loaded, error))
        message = f"expected {wanted}, found {_found(loaded, error)}{digits_note(value)}"
        message += _list_of_one([want] if isinstance(want, str) else list(want), value, error.schema, root)
        keys = list((error.schema or {}).get("properties") or {}) if isinstance(error.schema, dict) else []
        if want == "object" and keys and error.instance is not None and not isinstance(error.instance, dict):
            # `levels: 4`: say which settings the block holds (levels: {from: 4}).
            message += f" (a block of {', '.join(keys)})"
        return message
    title = error.schema.get("title") if isinstance(error.schema, dict) else None
    if title and kind in ("enum", "pattern"):
        # The schema names what belongs here ("a suit"): say it in those words.
        article = "an" if title[:1] in "aeiou" else "a"
        suggestion = _did_you_mean(error) or _words_apart(loaded, error)
        return f"expected {article} {title}, found {_found(loaded, error)}{suggestion}"
    if kind == "enum" and isinstance(want, list):
        null = _null_said(loaded, error)
        return (f"{_show(value)} is not one of: {', '.join(null if v is None else _plain(v) for v in want)}"
                f"{_did_you_mean(error) or _words_apart(loaded, error)}")
    if kind == "const":
        return f"expected {_show(want)}, found {_show(value)}"
    if kind == "pattern":
        return f"{_show(value)} does not match the pattern {want}{_did_you_mean(error)}"
    bounds = {
        "minimum": ("small", "at least"),
        "exclusiveMinimum": ("small", "more than"),
        "maximum": ("large", "at most"),
        "exclusiveMaximum": ("large", "less than"),
    }
    if kind in bounds:
        size, relation = bounds[kind]
        return f"{_show(value)} is too {size}: must be {relation} {want}"
    if kind in ("minItems", "maxItems") and isinstance(value, list):
        bound = "at least" if kind == "minItems" else "at most"
        return f"expected {bound} {want} item{'s' if want != 1 else ''}, found {len(value)}"
    if kind in ("minLength", "maxLength") and isinstance(value, str):
        bound = "at least" if kind == "minLength" else "at most"
        size = "short" if kind == "minLength" else "long"
        return f"{_show(value)} is too {size}: {bound} {want} character{'s' if want != 1 else ''}"
    if kind in ("minProperties", "maxProperties") and isinstance(value, dict):
        bound = "at least" if kind == "minProperties" else "at most"
        return f"expected {bound} {want} key{'s' if want != 1 else ''}, found {len(value)}"
    if kind == "uniqueItems":
        twice = _first_repeated(value) if isinstance(value, list) else None
        if twice is not None:
            return f"{_show(twice)} is listed twice: each item is written once"
        return "items must be unique"
    if kind == "multipleOf":
        return f"{_show(value)} is not a multiple of {want}"
    if kind == "not":
        return f"{_show(value)} is not allowed here"
    if kind in _COMBINATORS or kind == "allOf":
        return f"{_show(value)} does not match any allowed form"
    # Anything else: jsonschema's own message, kept short (they embed reprs).
    message = error.message
    return message if len(message) <= 120 else message[:117] + "..."
