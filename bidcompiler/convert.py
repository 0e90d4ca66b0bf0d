"""Print one layer (a variant or house-rule file) in either surface syntax, canonically.

Both printers take the loaded, schema-checked data of a file — not the compiled
variant — so an overlay stays an overlay and ``extends`` stays ``extends``.  The
layout is fixed (key order as in the source, one setting per line, short blocks
on one line), so converting the same file always prints the same text, and
converting back and forth compiles to the same IR.

Comments come along when the caller passes them (``LoadedYaml.comments()``: the
comments by data path, each before a setting, at the end of its line or at the end
of a block).  Both syntaxes write them after ``#``, so the text is carried as it
is.  A block with comments inside is never folded onto one line, and a comment
with no place left of its own is printed at the end of the file rather than lost.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from .compose import FORMULA_PATHS, NAMED_PARTS, REMOVE_KEY, is_formula_path
from .resources import SCHEMA_FILE
from .yamlload import CommentSlots

# The schema modeline YAML output starts with: editors that read it check the file as
# it is typed.  The path is relative to the file's own folder, so the caller says
# where the schema is (``bidwhist schema --write DIR`` puts one there).
MODELINE_PREFIX = "# yaml-language-server: $schema="


def modeline(schema: str = SCHEMA_FILE) -> str:
    """The modeline pointing at ``schema`` (a path relative to the file, or a URI)."""
    return MODELINE_PREFIX + schema


MODELINE = modeline()
HEADER_KEYS = ("kind", "name")
_WHIST_WORD = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")
_WHIST_KEYWORDS = {"variant", "house-rule", "remove"}
# Strings YAML 1.1 tools would read as something else, quoted for other tools' sake.
_YAML_AMBIGUOUS = re.compile(r"^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF|true|True|TRUE|"
                             r"false|False|FALSE|null|Null|NULL|~|)$")
_YAML_PLAIN = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_ ./+()<>=!*-]*$")
_YAML_FORMULA = re.compile(r"^[A-Za-z0-9_(][A-Za-z0-9_ ./+()<>=!*,-]*$")
_INLINE_WIDTH = 72
# Characters a YAML comment cannot hold: YAML reads the first three as line breaks
# (the rest of the comment would be read as settings) and refuses the others.
_YAML_COMMENT_UNSAFE = re.compile("[\x85\u2028\u2029\r]|[^\x09\x20-\x7E\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010FFFF]")
# Trailing comments of neighbouring lines line up, unless a line is longer than this.
_ALIGN_WIDTH = 48
# Formulas are never written in flow style, where `,` would end them.
_FORMULA_SECTIONS = {p[:-1] for p in FORMULA_PATHS} | set(NAMED_PARTS)  # game.win: {sweep: swept}


# --------------------------------------------------------------------------- both
def _literal(value) -> str | None:
    """``true``, ``false`` or a number as both syntaxes spell it; None for anything else."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    return None


def _scalar(value, plain: Callable[[str], bool]) -> str:
    """A single value: a literal, plain text where ``plain`` allows it, else a JSON-style quoted string."""
    literal = _literal(value)
    if literal is not None:
        return literal
    text = str(value)
    return text if plain(text) else json.dumps(text, ensure_ascii=False)


class _Notes:
    """The comments of one layer, handed out once each as the printer reaches their places."""

    def __init__(self, slots: dict[tuple, CommentSlots] | None):
        self.slots = {path: CommentSlots(list(s.before), list(s.trailing), list(s.end))
                      for path, s in (slots or {}).items() if s.before or s.trailing or s.end}

    def take(self, path: tuple, where: str) -> list[str]:
        slot = self.slots.get(path)
        if slot is None:
            return []
        found = getattr(slot, where)
        setattr(slot, where, [])
        return found

    def inside(self, path: tuple) -> bool:
        """Whether a comment is still to be printed within the block at ``path``."""
        n = len(path)
        return any((p == path and slot.end) or (len(p) > n and p[:n] == path
                                                and (slot.before or slot.trailing or slot.end))
                   for p, slot in self.slots.items())

    def rest(self) -> list[str]:
        """Every comment not printed yet (none, when the printer found every place)."""
        left = []
        for slot in self.slots.values():
            left.extend(slot.before + slot.trailing + slot.end)
        self.slots = {}
        return left


class _Out:
    """Printed lines: code with an optional trailing comment, and full-line comments."""

    def __init__(self, clean: Callable[[str], str] = str):
        self.lines: list[tuple[str, str | None]] = []
        self.clean = clean  # makes a comment's text safe for the syntax written

    def comments(self, indent: str, texts: list[str]) -> None:
        self.lines.extend((f"{indent}#{self.clean(text)}", None) for text in texts)

    def line(self, indent: str, code: str, before: list[str] = (), trailing: list[str] = ()) -> None:
        """One line of code; of several trailing comments the last stays on the line."""
        self.comments(indent, [*before, *trailing[:-1]])
        self.lines.append((indent + code, self.clean(trailing[-1]) if trailing else None))

    def drop_blank_top(self, start: int = 0) -> None:
        """Remove the empty ``#`` lines from ``start`` up to the first line with text.

        The loader drops a source file's modeline; the empty line that set its
        header off from it would otherwise be a stray first line.  Dropping every
        such line (wherever the comment came from) keeps the output a fixed point:
        converting it again prints the same text.
        """
        while (start < len(self.lines) and self.lines[start][1] is None
               and self.lines[start][0].lstrip().startswith("#") and not self.lines[start][0].lstrip()[1:].strip()):
            del self.lines[start]

    def text(self) -> str:
        out = []
        i = 0
        while i < len(self.lines):
            j = i
            while j < len(self.lines) and self.lines[j][1] is not None:
                j += 1
            if j == i:
                out.append(self.lines[i][0])
                i += 1
                continue
            run = self.lines[i:j]
            width = max((len(code) for code, _ in run if len(code) <= _ALIGN_WIDTH), default=0)
            out.extend(f"{code.ljust(width)}  #{note}" for code, note in run)
            i = j
        return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- .whist
def _whist_plain(text: str) -> bool:
    return bool(_WHIST_WORD.match(text)) and text not in _WHIST_KEYWORDS


def _whist_scalar(value) -> str:
    return _scalar(value, _whist_plain)


def _whist_value(value, list_only: bool) -> str:
    if isinstance(value, list):
        if value and all(not isinstance(v, (list, dict)) for v in value) and (len(value) > 1 or list_only):
            return " ".join(_whist_scalar(v) for v in value)
        return _whist_brackets(value)
    return _whist_scalar(value)


def _whist_brackets(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_whist_brackets(v) for v in value) + "]"
    return _whist_scalar(value)


def _is_ladder(value) -> bool:
    return (isinstance(value, list) and value and (len(value) > 1 or len(value[0]) > 1)
            and all(isinstance(g, list) and g and all(isinstance(x, str) and _WHIST_WORD.match(x) for x in g)
                    for g in value))


def _named_items(value) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) and "name" in v for v in value)


def _is_removal(item) -> bool:
    """``{name: X, remove: true}`` and nothing else: ``remove X`` inside a block of named items."""
    return isinstance(item, dict) and set(item) == {"name", REMOVE_KEY} and item[REMOVE_KEY] is True


def _whist_lines(out: _Out, data: dict, path: tuple, shape, indent: str, notes: _Notes) -> None:
    for key, value in data.items():
        if not path and key in HEADER_KEYS:
            continue
        p = path + (key,)
        before, trailing = notes.take(p, "before"), notes.take(p, "trailing")
        if value is None:
            out.line(indent, f"remove {key}", before, trailing)
        elif is_formula_path(p) and not isinstance(value, (dict, list)):
            text = value if isinstance(value, str) else _whist_scalar(value)
            out.line(indent, f"{key} = {' '.join(str(text).split())}", before, trailing)
        elif isinstance(value, dict):
            _whist_block(out, key, value, p, shape, indent, notes, before, trailing)
        elif _named_items(value):
            out.line(indent, f"{key} {{", before, trailing)
            for i, item in enumerate(value):
                q = p + (i,)
                if _is_removal(item):  # {name: X, remove: true}
                    out.line(indent + "  ", f"remove {_whist_scalar(item['name'])}",
                             [c for k in ((), ("name",), ("remove",)) for c in notes.take(q + k, "before")],
                             [c for k in ((), ("name",), ("remove",)) for c in notes.take(q + k, "trailing")])
                    continue
                rest = {k: v for k, v in item.items() if k != "name"}
                # The label line is the item's and its name's: their comments go there.
                _whist_block(out, str(item["name"]), rest, q, shape, indent + "  ", notes,
                             notes.take(q, "before") + notes.take(q + ("name",), "before"),
                             notes.take(q, "trailing") + notes.take(q + ("name",), "trailing"))
            out.comments(indent + "  ", notes.take(p, "end"))
            out.line(indent, "}")
        elif _is_ladder(value):
            out.line(indent, f"{key} " + " < ".join(" = ".join(g) for g in value), before, trailing)
        else:
            out.line(indent, f"{key} {_whist_value(value, shape(p))}", before, trailing)


def _whist_block(out: _Out, key: str, value: dict, path: tuple, shape, indent: str, notes: _Notes,
                 before: list[str], trailing: list[str]) -> None:
    if not notes.inside(path):
        inner = _Out()
        _whist_lines(inner, value, path, shape, "", notes)
        codes = [code for code, _ in inner.lines]
        one_line = f"{key} {{ {'; '.join(codes)} }}" if codes else f"{key} {{ }}"
        if all("{" not in code for code in codes) and len(indent + one_line) <= _INLINE_WIDTH:
            out.line(indent, one_line, before, trailing)
            return
    out.line(indent, f"{key} {{", before, trailing)
    _whist_lines(out, value, path, shape, indent + "  ", notes)
    out.comments(indent + "  ", notes.take(path, "end"))
    out.line(indent, "}")


def to_whist(data: dict, list_only=lambda path: True, comments: dict[tuple, CommentSlots] | None = None) -> str:
    """The ``.whist`` text of one layer's data.

    ``list_only(path)`` says whether the schema wants only a list at ``path`` (then
    a one-item list can be written as a bare value); pass the schema-aware version
    from :func:`schema_shape`.  ``comments`` (from ``LoadedYaml.comments()``) are
    printed in their places.
    """
    notes = _Notes(comments)
    out = _Out()
    kind = "house-rule" if data.get("kind") == "house-rule" else "variant"
    header = [(k,) for k in ("name", "kind")]
    out.comments("", notes.take((), "before"))
    out.line("", f"{kind} {_whist_scalar(data.get('name', 'unnamed'))}",
             [c for p in header for c in notes.take(p, "before")],
             [c for p in header for c in notes.take(p, "trailing")])
    _whist_lines(out, data, (), list_only, "", notes)
    out.comments("", notes.take((), "end") + notes.rest())
    out.drop_blank_top()
    return out.text()


# --------------------------------------------------------------------------- YAML
def _yaml_comment(text: str) -> str:
    """A comment's text as YAML can hold it: what it cannot is spelled ``\\uXXXX``."""
    return _YAML_COMMENT_UNSAFE.sub(lambda m: "\\u%04x" % ord(m.group()) if ord(m.group()) < 0x10000
                                    else "\\U%08x" % ord(m.group()), text)


def _yaml_plain(text: str) -> bool:
    return not (_YAML_AMBIGUOUS.match(text) or not _YAML_PLAIN.match(text) or ": " in text or " #" in text
                or text != text.strip())


def _yaml_scalar(value) -> str:
    return "~" if value is None else _scalar(value, _yaml_plain)


def _yaml_flow(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_yaml_flow(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_yaml_flow(v)}" for k, v in value.items()) + "}"
    return _yaml_scalar(value)


def _flat(value) -> bool:
    """Short enough and simple enough for one line of flow style."""
    if isinstance(value, list):
        return all(not isinstance(v, dict) and _flat(v) for v in value)
    if isinstance(value, dict):
        return all(not isinstance(v, (dict, list)) for v in value.values()) and len(value) <= 3
    return True


def _yaml_formula(value) -> str:
    """A formula as YAML: plain text wherever YAML allows, whatever it looks like."""
    # Formulas hold no strings, so runs of white space (a `\` continuation, a YAML
    # block scalar) are one blank, as in the .whist printer.
    text = _literal(value) or " ".join(str(value).split())
    if _YAML_FORMULA.match(text) and ": " not in text and " #" not in text:
        return text
    return json.dumps(text, ensure_ascii=False)


def _yaml_lines(out: _Out, data: dict, indent: str, path: tuple, notes: _Notes,
                first: tuple[str, list[str], list[str]] | None = None) -> None:
    """The settings of a mapping; ``first``: the `- ` of a list item, its comments, for the first line."""
    for key, value in data.items():
        p = path + (key,)
        before, trailing = notes.take(p, "before"), notes.take(p, "trailing")
        here = indent
        if first is not None:  # the item's `- ` line: its comments stand before the `-`
            dash, item_before, item_trailing = first
            before, trailing, here, first = item_before + before, item_trailing + trailing, dash, None
            out.comments(here, before)
            before, here = [], here + "- "
        if is_formula_path(p) and value is not None and not isinstance(value, (dict, list)):
            out.line(here, f"{key}: {_yaml_formula(value)}", before, trailing)
        elif isinstance(value, dict) and value and (p in _FORMULA_SECTIONS or notes.inside(p)
                                                    or not (_flat(value) and len(_yaml_flow(value)) < 40)):
            out.line(here, f"{key}:", before, trailing)
            _yaml_lines(out, value, indent + "  ", p, notes)
            out.comments(indent + "  ", notes.take(p, "end"))
        elif isinstance(value, list) and value and any(isinstance(v, dict) for v in value):
            out.line(here, f"{key}:", before, trailing)
            for i, item in enumerate(value):
                q = p + (i,)
                item_before, item_trailing = notes.take(q, "before"), notes.take(q, "trailing")
                if isinstance(item, dict) and item:
                    _yaml_lines(out, item, indent + "    ", q, notes, (indent + "  ", item_before, item_trailing))
                else:
                    out.line(indent + "  ", f"- {_yaml_flow(item)}", item_before, item_trailing)
                out.comments(indent + "    ", notes.take(q, "end"))
            out.comments(indent + "  ", notes.take(p, "end"))
        else:
            out.line(here, f"{key}: {_yaml_flow(value)}", before, trailing)
            out.comments(indent + "  ", notes.take(p, "end"))


def to_yaml(data: dict, comments: dict[tuple, CommentSlots] | None = None, schema: str = SCHEMA_FILE) -> str:
    """The YAML text of one layer's data, starting with the schema modeline.

    ``comments`` (from ``LoadedYaml.comments()``) are printed in their places;
    ``schema`` is the modeline's path to the schema, relative to where the text
    will be saved.
    """
    notes = _Notes(comments)
    ordered = {k: data[k] for k in ("name", "kind") if k in data}
    ordered.update((k, v) for k, v in data.items() if k not in ordered)
    out = _Out(_yaml_comment)
    out.comments("", [modeline(schema)[1:]] + notes.take((), "before"))
    _yaml_lines(out, ordered, "", (), notes)
    out.comments("", notes.take((), "end") + notes.rest())
    out.drop_blank_top(1)  # below the modeline
    return out.text()


# --------------------------------------------------------------------------- schema help
def schema_shape(schema: dict):
    """A function telling whether the schema wants only a list at a data path."""
    definitions = schema.get("definitions", {})

    def resolve(node):
        while isinstance(node, dict) and "$ref" in node:
            node = definitions[node["$ref"].split("/")[-1]]
        return node if isinstance(node, dict) else {}

    def at(path):
        node = resolve(schema)
        for key in path:
            if isinstance(key, int):
                node = resolve(node.get("items", {}))
            elif key in node.get("properties", {}):
                node = resolve(node["properties"][key])
            else:
                node = resolve(node.get("additionalProperties", {}))
        return node

    def list_only(path) -> bool:
        node = at(path)
        t = node.get("type")
        types = set(t) if isinstance(t, list) else {t} if t else set()
        if "anyOf" in node:
            return False
        return types - {"null"} == {"array"}

    return list_only
