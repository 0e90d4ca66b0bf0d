"""Load YAML into plain Python data without losing where each value came from.

PyYAML's defaults are wrong for a rules file in three ways (see "Traps already
known" in the architecture notes): it reads ``no``/``yes``/``on`` as booleans and
``2024-01-01`` as a date (YAML 1.1), it silently keeps the last of two duplicate
keys, and the data it builds has no positions.  This module composes the node tree
with a :class:`yaml.SafeLoader` subclass whose scalar resolution follows the YAML
1.2 *core* schema, builds the data itself (so duplicate keys can be reported, all
at once, naming both lines), and keeps the node tree so any later stage can turn a
data path such as ``("auction", "bids", 0)`` back into ``file:line:col``.

The module is generic: it knows nothing of the variant schema.  The one
schema-directed step, turning ``10`` back into ``"10"`` where a string is wanted,
is :func:`coerce_to_schema_strings`, driven by :mod:`bidcompiler.schemacheck`.

Comments never reach the data (nor the IR).  :meth:`LoadedYaml.comments` finds
them on demand — in the YAML text, between the scanner's tokens; for a ``.whist``
file, as its parser met them — and ties each to a data path by the positions the
node tree keeps, for ``bidwhist convert`` to print them in place.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .errors import CompileError, Diagnostic, DiagnosticSink, SourcePos
from .quoted import double_quoted_starts

__all__ = ["CoreSchemaLoader", "LoadedYaml", "load_yaml", "loaded_from_node", "coerce_to_schema_strings",
           "Comment", "CommentSlots"]

_TAG = "tag:yaml.org,2002:"
STR_TAG = _TAG + "str"
INT_TAG = _TAG + "int"
FLOAT_TAG = _TAG + "float"
BOOL_TAG = _TAG + "bool"
NULL_TAG = _TAG + "null"
SEQ_TAG = _TAG + "seq"
MAP_TAG = _TAG + "map"

# YAML 1.2 core schema, narrowed as the project wants: decimal integers only (no
# 0x/0o forms) and plain decimal/exponent floats only (no .inf/.nan, which JSON
# cannot carry anyway).  Anything else plain is a string.
_NULL_RE = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL_RE = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
_INT_RE = re.compile(r"^[-+]?[0-9]+$")
_FLOAT_RE = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$")

# Alias expansion can make a small file describe a huge value ("billion laughs"): the
# data is built with aliases expanded, so the values it would expand to are counted on
# the node graph first (each node once) and a document over the limit is refused before
# anything is built.  Far above any real file (the largest shipped one has a few
# hundred values), and low enough that building what passes takes a fraction of a
# second: a --set value expanding to a million values took 3.4 s to be refused.
MAX_VALUES = 100_000


# The deepest nesting of blocks, lists and mappings a variant file may have, in
# either syntax: far above any real file (the shipped ones nest at most 5 deep), and
# low enough that no stage that walks a document can exhaust the stack.
MAX_NESTING = 64


# The largest number (in absolute value) a variant file may write, as a setting or as
# a literal in a formula: far above any real one (scores and targets run to hundreds),
# and small enough that, with the bound on what a formula can compute
# (checks.MAX_HAND_SCORE), no score or total reaches a size a float or a decimal
# string cannot hold.
MAX_NUMBER = 1_000_000


# The most entries a list or mapping of a variant file may hold, in either syntax: far
# above any real one (the longest, a deck's ranks or an order, hold 13 or 14; a game has
# a handful of strains), and low enough that what grows with a list -- the bids (levels
# x strains), the checks that compare every pair of names, the messages about each
# entry -- stays small: thousands of strains or orders took seconds to compile.
MAX_ITEMS = 256


class FormulaNode(ScalarNode):
    """A `.whist` formula's text (``key = …``): a string to YAML, marked so that an error
    where a plain value belongs can say that ``=`` made it a formula (``from = 4``)."""


def too_many_message(kind: str, count: int) -> str:
    """The message for a list (``kind`` "list") or mapping ("mapping") longer than :data:`MAX_ITEMS`."""
    entries = "items" if kind == "list" else "settings"
    return (f"{kind} too long: {count:,} {entries} (a {kind} in a variant file holds at most "
            f"{MAX_ITEMS} {entries})")


def number_message(text: str) -> str:
    """The message for a number written beyond :data:`MAX_NUMBER`."""
    digits = len(text.lstrip("+-"))
    shown = text if digits <= 20 else f"a number of {digits} digits"
    return f"number too large: {shown} (numbers in a variant file are at most {MAX_NUMBER:,} in absolute value)"


def nesting_message() -> str:
    """The message for a document nested deeper than :data:`MAX_NESTING`."""
    return f"nested too deeply: at most {MAX_NESTING} blocks, lists and mappings may be inside one another"


_SURROGATE = re.compile("[\ud800-\udfff]")


# The messages for a quoted value whose escape names half of a UTF-16 pair ("\\uD800"), and
# for an escape beyond Unicode ("\\U00110000").
_SURROGATE_MESSAGE = ("a lone surrogate: an escape names half of a UTF-16 pair (\\uD800 to \\uDFFF), "
                      "not a character: write the character itself")
_ESCAPE_RANGE_MESSAGE = "an escape names no character: Unicode stops at \\U0010FFFF"


class _NestingLimit:
    """The composer's limit on nesting, for either parser (see :class:`CoreSchemaLoader`)."""

    _depth = 0

    # -- nesting: checked before recursing, so no input reaches Python's recursion limit
    def _enter(self) -> None:
        self._depth += 1
        if self._depth > MAX_NESTING:
            raise yaml.MarkedYAMLError(problem=nesting_message(), problem_mark=self.peek_event().start_mark)  # type: ignore[attr-defined]

    def compose_sequence_node(self, anchor):
        """As PyYAML's, refusing a list nested deeper than :data:`MAX_NESTING`."""
        self._enter()
        try:
            return super().compose_sequence_node(anchor)
        finally:
            self._depth -= 1

    def compose_mapping_node(self, anchor):
        """As PyYAML's, refusing a mapping nested deeper than :data:`MAX_NESTING`."""
        self._enter()
        try:
            return super().compose_mapping_node(anchor)
        finally:
            self._depth -= 1


class CoreSchemaLoader(_NestingLimit, yaml.SafeLoader):
    """A SafeLoader whose implicit scalar types are the YAML 1.2 core schema.

    Only the resolver is changed; the node tree it composes is turned into data by
    :func:`load_yaml`, not by PyYAML's constructor (which would drop positions and
    keep the last of two duplicate keys).
    """

    # A fresh table, not a copy of SafeLoader's: the 1.1 resolvers (yes/no/on/off
    # booleans, sexagesimal numbers, timestamps, merge keys) must not apply.
    yaml_implicit_resolvers: dict = {}

    # -- speed: PyYAML's reader moves one character at a time (about 0.5 MB/s);
    # these two do the same in slices, so a file of the size limit loads quickly.
    def forward(self, length=1):
        """As PyYAML's ``Reader.forward``, counting lines and columns a slice at a time."""
        if length < 16 or self.raw_buffer is not None:
            return super().forward(length)
        chunk = self.buffer[self.pointer:self.pointer + length]
        if any(ch in chunk for ch in "\r\x85\u2028\u2029\ufeff"):
            return super().forward(length)
        self.pointer += length
        self.index += length
        breaks = chunk.count("\n")
        if breaks:
            self.line += breaks
            self.column = length - 1 - chunk.rfind("\n")
        else:
            self.column += length

    def scan_to_next_token(self):
        """As PyYAML's, skipping a comment to its line end in one step."""
        while True:
            if self.index == 0 and self.peek() == "\ufeff":
                self.forward()
            while self.peek() == " ":
                self.forward()
            if self.peek() == "#":
                end = len(self.buffer) - 1
                for stop in "\0\r\n\x85\u2028\u2029":
                    found = self.buffer.find(stop, self.pointer, end)
                    if found != -1:
                        end = found
                self.forward(end - self.pointer)
            if self.scan_line_break():
                if not self.flow_level:
                    self.allow_simple_key = True
            else:
                break


# Order matters within a first character: PyYAML tries resolvers in the order they
# were added, so int must come before float (the float pattern also matches "10").
CoreSchemaLoader.add_implicit_resolver(NULL_TAG, _NULL_RE, ["~", "n", "N", ""])
CoreSchemaLoader.add_implicit_resolver(BOOL_TAG, _BOOL_RE, list("tTfF"))
CoreSchemaLoader.add_implicit_resolver(INT_TAG, _INT_RE, list("-+0123456789"))
CoreSchemaLoader.add_implicit_resolver(FLOAT_TAG, _FLOAT_RE, list("-+.0123456789"))


# The same composer (Python: the limits, the core schema) over libyaml's scanner and
# parser, about ten times faster than PyYAML's pure-Python ones: the fuzz tests spend most
# of their time reading YAML, and a compile reads its base variant every time.  Only for
# text the two parsers read alike (see _C_UNSAFE); whatever the C path refuses is read
# again by the pure-Python path, whose message and position are the ones given.
try:
    from yaml.cyaml import CParser as _CParser
except ImportError:  # PyYAML without libyaml: the pure-Python path does everything
    _CParser = None

# Text the C path leaves to the pure-Python one (found by reading mutated shipped files both
# ways, tests/test_yamlload.py): text not ending in a line break (the marks at its end
# differ), a byte-order mark (PyYAML counts it in its marks' index, libyaml does not), line
# breaks other than "\n" (counted otherwise in places), tabs (the two scanners disagree on
# where a tab may stand), a block scalar's header running into a comment (``|#``: libyaml
# reads it, PyYAML refuses it), lines longer than _C_LONGEST_LINE (PyYAML refuses a simple key
# over 1,024 characters where libyaml reads it), and any character PyYAML's reader refuses
# (its message stands).  Some values inside a flow collection are left to it too (see
# _CoreSchemaCLoader.compose_node).
_C_UNSAFE = re.compile("[\ufeff\r\x85\u2028\u2029\t]|[|>][-+0-9]*#|" + yaml.reader.Reader.NON_PRINTABLE.pattern)
_C_LONGEST_LINE = 1000


class _NotSure(Exception):
    """The C path met something it may read otherwise than PyYAML does: the pure path reads it."""


if _CParser is not None:
    from yaml.composer import Composer as _Composer

    class _CoreSchemaCLoader(_NestingLimit, _Composer, _CParser, yaml.resolver.BaseResolver):
        """:class:`CoreSchemaLoader`'s composer and resolver over libyaml's parser (same nodes)."""

        yaml_implicit_resolvers = CoreSchemaLoader.yaml_implicit_resolvers

        def __init__(self, text: str):
            _CParser.__init__(self, text)
            _Composer.__init__(self)
            yaml.resolver.BaseResolver.__init__(self)

        def compose_node(self, parent, index):
            """As PyYAML's; in a flow collection, an empty value (``{a: }``, ``[a: ]``: libyaml
            places it a character later), a value over several lines, and a plain one with a
            ``?`` (``{to? : 7}``: the scanners differ on where a key can start) are left to the
            pure path."""
            node = super().compose_node(parent, index)
            if parent is not None and parent.flow_style and isinstance(node, ScalarNode) and (
                    node.start_mark.line != node.end_mark.line
                    or (node.style is None and "?" in node.value)
                    or (node.value == "" and node.style is None and node.start_mark.index == node.end_mark.index)):
                raise _NotSure
            return node

        def compose_scalar_node(self, anchor):
            """As PyYAML's; a plain scalar's style is None, as PyYAML's parser gives it ('' from libyaml).

            A scalar tagged with a bare ``!`` is left to the pure path: libyaml marks an empty one
            (``a: !``) as not implicit, so it would be the text ``''`` where PyYAML reads nothing."""
            if self.peek_event().tag == "!":
                raise _NotSure
            node = super().compose_scalar_node(anchor)
            if node.style == "":
                node.style = None
            return node
else:  # pragma: no cover - PyYAML built without libyaml
    _CoreSchemaCLoader = None  # type: ignore[assignment,misc]


def _compose_fast(text: str) -> tuple[bool, Node | None]:
    """The node tree of ``text`` by the C path: ``(True, root)``, or ``(False, None)`` when the
    C path is absent, not sure to read ``text`` as PyYAML does, or refuses it."""
    if _CoreSchemaCLoader is None or not text.endswith("\n") or _C_UNSAFE.search(text):
        return False, None
    if max(map(len, text.split("\n"))) > _C_LONGEST_LINE:
        return False, None
    loader = None
    try:
        loader = _CoreSchemaCLoader(text)
        return True, loader.get_single_node()
    except Exception:  # any refusal is said by the pure-Python path, as it always was
        return False, None
    finally:
        if loader is not None:
            loader.dispose()


@dataclass(frozen=True, slots=True)
class Comment:
    """One comment of a source file: where its marker is and the text after the marker."""

    line: int  # 1-based, as marks count lines
    col: int  # 1-based column of the marker
    text: str  # everything after the marker, trailing white space removed
    own_line: bool  # nothing but white space before it on its line


@dataclass
class CommentSlots:
    """The comments belonging to one data path, by where they go.

    ``before``: full-line comments before the setting (for the path ``()``, the
    file's header); ``trailing``: comments at the end of the setting's line(s);
    ``end``: full-line comments after the last setting of a block (for ``()``,
    the end of the file).
    """

    before: list[str] = field(default_factory=list)
    trailing: list[str] = field(default_factory=list)
    end: list[str] = field(default_factory=list)


def _mark_pos(filename: str, mark: Any) -> SourcePos:
    """A PyYAML mark (0-based) as a 1-based :class:`SourcePos`."""
    if mark is None:
        return SourcePos(filename)
    return SourcePos(filename, mark.line + 1, mark.column + 1)


@dataclass(eq=False)
class LoadedYaml:
    """A loaded YAML document: its plain data plus the node tree for positions.

    ``data`` is plain Python (dict/list/str/int/float/bool/None) and may be edited
    in place by :func:`coerce_to_schema_strings`; the position methods walk the
    node tree, which is never edited, so they keep working after coercion.
    Mapping keys are always strings (see :func:`load_yaml`).
    """

    data: Any
    text: str
    filename: str
    root: Node | None = field(default=None, repr=False)
    # id(mapping node) -> {key: (key node, value node)}, for walking data paths.
    _keys: dict[int, dict[Hashable, tuple[Node, Node]]] = field(default_factory=dict, repr=False)
    # The source's comments, when the front end collected them while parsing (.whist);
    # None: find them in the YAML text when asked.
    _comment_list: list[Comment] | None = field(default=None, repr=False)
    # id(node) -> last source line of the node, where the node's marks do not say
    # (the .whist front end's nodes have no end marks); None: use the marks.
    _last_lines: dict[int, int] | None = field(default=None, repr=False)
    _comment_slots: dict | None = field(default=None, repr=False)

    # -- comments --------------------------------------------------------------

    def comments(self) -> dict[tuple, CommentSlots]:
        """The source's comments by the data path they belong to (see :func:`place_comments`)."""
        if self._comment_slots is None:
            found = self._comment_list if self._comment_list is not None else yaml_comments(self.text)
            self._comment_slots = place_comments(self, found)
        return self._comment_slots

    # -- walking ---------------------------------------------------------------

    def _walk(self, path: Iterable[Any]) -> tuple[Node | None, Node | None, bool]:
        """Follow ``path`` down the node tree.

        Returns ``(node, key_node, complete)``: the deepest node reached, the key
        node of the last mapping step *if that step was the last element of the
        path*, and whether the whole path existed.
        """
        node = self.root
        key_node = None
        if node is None:
            return None, None, not tuple(path)
        for element in path:
            key_node = None
            if isinstance(node, MappingNode):
                entry = self._keys.get(id(node), {}).get(element) if isinstance(element, Hashable) else None
                if entry is None:
                    return node, None, False
                key_node, node = entry
            elif isinstance(node, SequenceNode) and isinstance(element, int) and not isinstance(element, bool):
                if not -len(node.value) <= element < len(node.value):
                    return node, None, False
                node = node.value[element]
            else:
                return node, None, False
        return node, key_node, True

    def node(self, path: Iterable[Any]) -> Node | None:
        """The node at exactly ``path``, or None if the path does not exist."""
        node, _, complete = self._walk(path)
        return node if complete else None

    def _node_pos(self, node: Node | None) -> SourcePos:
        return _mark_pos(self.filename, node.start_mark) if node is not None else SourcePos(self.filename, 1, 1)

    # -- positions -------------------------------------------------------------

    def pos(self, path: Iterable[Any] = ()) -> SourcePos:
        """Position of the value at ``path`` (a tuple of keys and list indexes).

        For a path that does not exist, the position of its deepest existing
        ancestor.  For an empty document, line 1 column 1.  A value reached through
        an alias reports the position of the anchored node.
        """
        node, _, _ = self._walk(path)
        return self._node_pos(node)

    def key_pos(self, path: Iterable[Any]) -> SourcePos:
        """Position of the mapping key naming the last element of ``path``.

        Falls back to :meth:`pos` when the last element is a list index, the path
        is empty, or the key does not exist.
        """
        path = tuple(path)
        node, key_node, complete = self._walk(path)
        if complete and key_node is not None:
            return self._node_pos(key_node)
        return self._node_pos(node)

    def content_pos(self, path: Iterable[Any]) -> SourcePos:
        """Position of the first character of a scalar's *content*.

        After the opening quote for quoted scalars; for block scalars (``|``,
        ``>``) the first non-space column of the first non-blank content line; for
        plain scalars and collections the node start.  Callers use it to place
        errors inside embedded text (expressions) with :meth:`SourcePos.shifted`.
        """
        node, _, complete = self._walk(path)
        if not complete or not isinstance(node, ScalarNode):
            return self._node_pos(node)
        start = _mark_pos(self.filename, node.start_mark)
        if node.style in ("'", '"'):
            pos = SourcePos(self.filename, start.line, start.col + 1)
        elif node.style in ("|", ">") and node.value.strip():
            pos = self._block_content_pos(node, start)
        else:
            pos = start
        raw = self.text[node.start_mark.index:node.end_mark.index]
        if node.start_mark.line == node.end_mark.line and (node.style is None or raw[1:-1] == node.value):
            return pos  # the value is the source text: shifting by columns is exact
        return ScalarPos(pos.file, pos.line, pos.col, layout=self._layout(node))

    def _layout(self, node: ScalarNode) -> tuple:
        """Where each character of a scalar's value is in the file, line by line.

        YAML folds the lines of multi-line scalars, strips a block's indentation and
        reads escapes, so the value is not the source text.  A double-quoted value is
        decoded as the scanner decodes it (:mod:`bidcompiler.quoted`), each character
        placed where it begins in the source (an escape's backslash).  Any other (no
        escapes there: only folds, a block's indentation, a single quote's ``''``) has
        each character matched to the next occurrence of that character in the source
        (spaces, which folding makes from line breaks, to the current place).  The value
        is then split into lines as a parser counts them.  Each line ends with one more
        position, just after its last character.
        """
        text = self.text
        begin, end = node.start_mark.index, node.end_mark.index
        # The file (line, column) of every index of the node's source, counted as
        # PyYAML's reader counts them (so they agree with every other mark).
        where = []
        line, col = node.start_mark.line + 1, node.start_mark.column + 1
        for i in range(begin, end + 1):
            where.append((line, col))
            ch = text[i:i + 1]
            if ch and (ch in "\n\x85\u2028\u2029" or (ch == "\r" and text[i + 1:i + 2] != "\n")):
                line, col = line + 1, 1
            elif ch and ch != "\ufeff":
                col += 1
        starts = double_quoted_starts(text, begin, end) if node.style == '"' else None
        if starts is not None and len(starts) == len(node.value) + 1:
            # Decoded as the scanner decodes it: an escape's character is where the escape begins.
            return _rows(node.value, [where[i - begin] for i in starts])
        here = begin
        if node.style in ("|", ">"):  # the content starts after the header line
            newline = text.find("\n", begin, end)
            here = newline + 1 if newline != -1 else end
        elif node.style in ("'", '"'):
            here = begin + 1
        places = []
        for ch in node.value:
            if not ch.isspace():
                found = text.find(ch, here, end)
                if found != -1:
                    here = found
            places.append(where[min(here - begin, len(where) - 1)])
            if here < end and (not ch.isspace() or text[here].isspace()):
                here += 1
        places.append(where[min(here - begin, len(where) - 1)])
        return _rows(node.value, places)

    def _block_content_pos(self, node: ScalarNode, start: SourcePos) -> SourcePos:
        # The block header (indicator, optional chomping/indent, optional comment)
        # takes the rest of its line; content starts on a later line, possibly
        # after blank lines.
        text = self.text
        index = node.start_mark.index
        line = start.line
        newline = text.find("\n", index)
        while newline != -1:
            line += 1
            begin = newline + 1
            newline = text.find("\n", begin)
            body = text[begin : newline if newline != -1 else len(text)].rstrip("\r")
            stripped = body.lstrip(" ")
            if stripped.strip():
                return SourcePos(self.filename, line, len(body) - len(stripped) + 1)
        return start

    def source_line(self, line: int) -> str | None:
        """The text of 1-based ``line`` (without its line break), if it exists."""
        lines = _text_lines(self.text)
        return lines[line - 1] if 1 <= line <= len(lines) else None


def _rows(value: str, places: list[tuple[int, int]]) -> tuple:
    """The file (line, column) of each character of ``value``, split into the value's lines
    as a parser counts them; ``places`` has one more, just after the last character."""
    rows: list[list[tuple[int, int]]] = [[]]
    for ch, place in zip(value, places):
        rows[-1].append(place)
        if ch == "\n":
            rows.append([])
    rows[-1].append(places[-1])
    return tuple(tuple(row) for row in rows)


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class ScalarPos(SourcePos):
    """The start of a scalar whose value is not its source text, as ``content_pos`` gives it.

    Equal to the plain :class:`SourcePos` of the same place; what it adds is
    :meth:`shifted` through ``layout`` (see :meth:`LoadedYaml._layout`), so an error
    at line 2 of a folded formula lands on the file line and column it came from.
    """

    layout: tuple = ()

    def shifted(self, line: int, col: int) -> SourcePos:
        """The file position of ``line``:``col`` of the value, through its layout where the value was folded."""
        if 1 <= line <= len(self.layout) and self.layout[line - 1]:
            row = self.layout[line - 1]
            at_line, at_col = row[col - 1] if 1 <= col <= len(row) else (row[-1][0], row[-1][1] + col - len(row))
            return SourcePos(self.file, at_line, at_col)
        return SourcePos.shifted(SourcePos(self.file, self.line, self.col), line, col)

    def __eq__(self, other):
        if not isinstance(other, SourcePos):
            return NotImplemented
        return (self.file, self.line, self.col) == (other.file, other.line, other.col)

    def __hash__(self):
        return hash((self.file, self.line, self.col))

    def __repr__(self):
        return repr(SourcePos(self.file, self.line, self.col))

    def __reduce__(self):
        return (SourcePos, (self.file, self.line, self.col))


class _Builder:
    """Turns a composed node tree into plain data, collecting problems."""

    def __init__(self, loaded: LoadedYaml, sink: DiagnosticSink):
        self.loaded = loaded
        self.sink = sink
        # Nodes being built right now: a node met again here is a recursive alias.
        self.active: set[int] = set()
        # Mappings whose keys were already checked (an alias revisits them).
        self.indexed: set[int] = set()

    def pos(self, node: Node) -> SourcePos:
        return _mark_pos(self.loaded.filename, node.start_mark)

    def build(self, node: Node) -> Any:
        if id(node) in self.active:
            self.sink.error(self.pos(node), "recursive alias is not supported")
            return None
        self.active.add(id(node))
        try:
            if isinstance(node, ScalarNode):
                return self.scalar(node)
            if isinstance(node, (SequenceNode, MappingNode)) and len(node.value) > MAX_ITEMS:
                # Placed on the first entry past the limit; the rest is not built.
                kind = "list" if isinstance(node, SequenceNode) else "mapping"
                first_over = node.value[MAX_ITEMS]
                self.sink.error(self.pos(first_over if kind == "list" else first_over[0]),
                                too_many_message(kind, len(node.value)))
                return [] if kind == "list" else {}
            if isinstance(node, SequenceNode):
                self.check_tag(node, SEQ_TAG)
                return [self.build(item) for item in node.value]
            if isinstance(node, MappingNode):
                self.check_tag(node, MAP_TAG)
                return self.mapping(node)
            raise AssertionError(f"unknown node {node!r}")
        finally:
            self.active.discard(id(node))

    def check_tag(self, node: Node, expected: str) -> None:
        if node.tag != expected:
            self.sink.error(self.pos(node), f"unsupported tag '{_short_tag(node.tag)}'")

    def scalar(self, node: ScalarNode) -> Any:
        value = node.value
        tag = node.tag
        if _SURROGATE.search(value):
            # Half a character can come only from an escape ("\uD800" in YAML or .whist), and no
            # file, terminal or JSON reader downstream takes it.
            self.sink.error(self.pos(node), _SURROGATE_MESSAGE)
            return value
        if tag == STR_TAG:
            return value
        # Implicitly resolved plain scalars always match; only an explicit tag such
        # as `!!int abc` can fail here.
        checks = {NULL_TAG: _NULL_RE, BOOL_TAG: _BOOL_RE, INT_TAG: _INT_RE, FLOAT_TAG: _FLOAT_RE}
        pattern = checks.get(tag)
        if pattern is None:
            self.sink.error(self.pos(node), f"unsupported tag '{_short_tag(tag)}'")
            return value
        if not pattern.match(value):
            self.sink.error(self.pos(node), f"'{value}' is not a valid {_short_tag(tag)}")
            return value
        if tag == NULL_TAG:
            return None
        if tag == BOOL_TAG:
            return value.lower() == "true"
        if tag == INT_TAG:
            # Length first: int() refuses more digits than sys.get_int_max_str_digits().
            number = int(value) if len(value) <= 12 else None
            if number is None or abs(number) > MAX_NUMBER:
                self.sink.error(self.pos(node), number_message(value))
                return value
            return number
        try:
            real = float(value)
        except ValueError:  # not reached: the pattern matched
            self.sink.error(self.pos(node), f"'{value}' is not a valid float")
            return value
        if not abs(real) <= MAX_NUMBER:  # 1e400 was read as inf, and said "found inf"
            self.sink.error(self.pos(node), number_message(value))
            return value
        return real

    def mapping(self, node: MappingNode) -> dict:
        result: dict = {}
        first_key: dict[Hashable, Node] = {}
        index: dict[Hashable, tuple[Node, Node]] = {}
        report = id(node) not in self.indexed
        self.indexed.add(id(node))
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode):
                if report:
                    self.sink.error(self.pos(key_node), "a mapping key must be a single value, not a list or mapping")
                continue
            # Keys are always strings, whatever they look like: the data is checked
            # against a JSON Schema and JSON object keys are strings (`10:` is "10").
            key = key_node.value
            if key in first_key:
                if report:
                    first = self.pos(first_key[key])
                    # A block written twice (`game { … }` on two lines of a .whist file) is not
                    # merged: say where its settings go.
                    both_blocks = isinstance(value_node, MappingNode) and isinstance(index[key][1], MappingNode)
                    self.sink.error(
                        self.pos(key_node),
                        f"duplicate key '{key}' (first at line {first.line})",
                        related=(first,),
                        hint=f"a block is written once: move these settings into the '{key}' block at line "
                             f"{first.line}" if both_blocks else None,
                    )
                continue
            first_key[key] = key_node
            index[key] = (key_node, value_node)
            result[key] = self.build(value_node)
        self.loaded._keys[id(node)] = index
        return result


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_TAG) :] if tag.startswith(_TAG) else tag


# Where PyYAML's marks break lines (YAML 1.1's breaks, NEL and U+2028/U+2029 included):
# every position and source line this module reports counts lines the same way.
_LINE_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")


def _text_lines(text: str) -> list[str]:
    """The lines of ``text`` as PyYAML's marks count them (no empty line after a final break)."""
    lines = _LINE_BREAK.split(text)
    if lines[-1] == "":
        lines.pop()
    return lines


def _offset_pos(text: str, filename: str, offset: int) -> SourcePos:
    """1-based line/col of a character offset (for errors that carry no mark), lines
    counted as PyYAML's marks count them."""
    offset = max(0, min(offset, len(text)))
    line, start = 1, 0
    for brk in _LINE_BREAK.finditer(text, 0, offset):
        line, start = line + 1, brk.end()
    return SourcePos(filename, line, offset - start + 1)


def _yaml_words(exc: yaml.MarkedYAMLError, message: str, line: str) -> str:
    """PyYAML's message for the mistakes of indentation an author makes, in words (its own
    names `<block end>` and `<block mapping start>` say nothing to one); ``line``: the line
    of the problem."""
    problem = exc.problem or ""
    if (problem == "expected <block end>, but found '-'" and exc.context_mark is not None
            and exc.problem_mark is not None and exc.problem_mark.column == exc.context_mark.column):
        # `- LJ` in line with the keys of a mapping (an item of the list above, not indented as far
        # as its fellows): it does line up with a key, so "lines up with no key" would be wrong.
        return (f"bad indentation: a list item in line with the keys of the block that started at line "
                f"{exc.context_mark.line + 1}; a block holds keys or `- ` items, not both: indent the item "
                f"under its key, in line with the items above it")
    if problem.startswith("expected <block end>") and exc.context_mark is not None:
        return (f"bad indentation: this line lines up with no key above it (the block it is in "
                f"started at line {exc.context_mark.line + 1}); the keys of one block start in one column")
    if problem == "mapping values are not allowed here" and re.match(r"\s+[^\s:#]+$", line[:exc.problem_mark.column]):
        # `key: value` alone on a line indented deeper than the key above: YAML read the line as
        # the rest of that key's value, and then met the `:`.
        return ("bad indentation: this line is indented deeper than the key above it, so it reads as the rest "
                "of that key's value; line it up with the key above (or give that key no value, to open a block)")
    if problem == "mapping values are not allowed here":
        return ("`: ` inside a value: quote the value (\"a: b\"), or put each key of a block on a line of "
                "its own, indented under the key it belongs to")
    if "'\\t'" in problem:
        return f"{message} (indent with spaces: YAML does not allow tabs there)"
    return message


def _yaml_error(exc: yaml.YAMLError, text: str, filename: str) -> CompileError:
    """A PyYAML error as a one-diagnostic :class:`CompileError`."""
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        pos = _mark_pos(filename, mark)
        message = exc.problem or exc.context or "invalid YAML"
        related: tuple[SourcePos, ...] = ()
        # "while scanning a quoted scalar" etc.: say where that construct began,
        # which is often the real mistake (an unclosed quote or bracket).
        if exc.context and exc.problem and exc.context_mark is not None:
            context_pos = _mark_pos(filename, exc.context_mark)
            if exc.context == "while scanning a simple key" and exc.problem_mark is not None \
                    and exc.problem_mark.line == exc.context_mark.line \
                    and exc.problem_mark.index - exc.context_mark.index > 1024:
                # YAML reads a key of at most 1024 characters: "could not find expected ':'"
                # was said of a line that had its ':' right there, after a longer key.  (A long
                # line with no ':' is found missing one at the next line: that message stands.)
                pos = context_pos
                message = (f"a key of {exc.problem_mark.index - exc.context_mark.index:,} characters: "
                           "YAML reads a key of at most 1024")
            elif exc.context.startswith("while "):
                if (context_pos.line, context_pos.col) != (pos.line, pos.col):
                    context = exc.context.removeprefix("while ")
                    message = f"{message} ({context} that started at line {context_pos.line})"
                    related = (context_pos,)
            elif exc.problem.startswith("but "):
                # "expected a single document in the stream" / "but found another document"
                message = f"{exc.context}, {exc.problem}"
            else:
                # "found duplicate anchor 'x'; first occurrence" / "second occurrence"
                message = f"{exc.context} at line {context_pos.line}; {exc.problem} here"
                related = (context_pos,)
        lines = _text_lines(text)
        message = _yaml_words(exc, message, lines[pos.line - 1] if 1 <= pos.line <= len(lines) else "")
    elif isinstance(exc, yaml.reader.ReaderError):
        pos = _offset_pos(text, filename, exc.position)
        character = exc.character if isinstance(exc.character, int) else ord(exc.character[:1] or "\0")
        message = f"unacceptable character #x{character:04x}: {exc.reason}"
        related = ()
    else:
        pos = SourcePos(filename)
        message = str(exc)
        related = ()
    lines = _text_lines(text)
    source_line = lines[pos.line - 1] if 1 <= pos.line <= len(lines) else None
    return CompileError([Diagnostic(pos, message.strip(), source_line=source_line, related=related)])


def load_yaml(text: str, filename: str) -> LoadedYaml:
    """Parse one YAML document, keeping positions.

    Scalars follow the YAML 1.2 core schema (``yes``/``no``/``on``/``T`` and dates
    stay strings; quoted scalars are always strings); mapping keys are always
    strings.  An empty document gives ``data`` None.  Raises :class:`CompileError`
    for malformed YAML (one diagnostic at the problem mark) and, all at once, for
    duplicate keys, non-scalar keys, unsupported tags and recursive aliases.
    """
    fast, root = _compose_fast(text)
    if not fast:
        root = _compose_pure(text, filename)
    if root is None:
        return LoadedYaml(data=None, text=text, filename=filename, root=root)
    return loaded_from_node(root, text, filename)


def _compose_pure(text: str, filename: str) -> Node | None:
    """The node tree of ``text`` by PyYAML's pure-Python parser; :class:`CompileError` for malformed YAML."""
    loader = None
    try:
        # The reader checks for unprintable characters already in the constructor.
        loader = CoreSchemaLoader(text)
        return loader.get_single_node()
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, text, filename) from None
    except RecursionError:
        raise CompileError([Diagnostic(SourcePos(filename), "YAML nested too deeply")]) from None
    except (ValueError, OverflowError):
        # PyYAML's scanner turns a "\U00110000" escape into chr() of it unchecked; it stopped at
        # the escape's digits, where its own escape errors point.
        assert loader is not None
        raise _yaml_error(yaml.MarkedYAMLError(problem=_ESCAPE_RANGE_MESSAGE, problem_mark=loader.get_mark()),
                          text, filename) from None
    finally:
        if loader is not None:
            loader.dispose()


def loaded_from_node(root: Node, text: str, filename: str) -> LoadedYaml:
    """Build the data of a node tree, keeping positions (duplicate keys reported).

    Used for YAML files and for the ``.whist`` front end, which makes the same node
    tree from its own syntax so everything after loading is shared.
    """
    loaded = LoadedYaml(data=None, text=text, filename=filename, root=root)
    sink = DiagnosticSink()
    too_big = _first_too_big(root)
    if too_big is not None:
        sink.error(_mark_pos(filename, too_big.start_mark),
                   f"document too large: this expands to more than {MAX_VALUES:,} values (through aliases)")
        sink.raise_if_any()
    try:
        loaded.data = _Builder(loaded, sink).build(root)
    except RecursionError:
        sink.error(_mark_pos(filename, root.start_mark), "nested too deeply")
    sink.raise_if_any()
    return loaded


def _first_too_big(root: Node) -> Node | None:
    """The first node (innermost, in document order) whose value, aliases expanded, holds more
    than :data:`MAX_VALUES` values; None when the whole document holds no more.

    Values are counted as the builder builds them (a mapping's keys are not values).  Each
    node is counted once, so a document that aliases itself a billion times is refused in
    the time its text takes to read; a recursive alias counts once (the builder refuses it).
    """
    sizes: dict[int, int] = {}
    counting: set[int] = set()
    found: list[Node] = []

    def size(node: Node) -> int:
        known = sizes.get(id(node))
        if known is not None:
            return known
        if id(node) in counting:  # a recursive alias
            return 1
        counting.add(id(node))
        if isinstance(node, SequenceNode) and len(node.value) <= MAX_ITEMS:
            total = 1 + sum(size(item) for item in node.value)
        elif isinstance(node, MappingNode) and len(node.value) <= MAX_ITEMS:
            total = 1 + sum(size(value) for _, value in node.value)
        else:  # a scalar, or a list or mapping too long to be built (the builder says so)
            total = 1
        counting.discard(id(node))
        sizes[id(node)] = total
        if total > MAX_VALUES and not found:
            found.append(node)
        return total

    try:
        size(root)
    except RecursionError:  # said by the builder, which meets the same nesting
        return None
    return found[0] if found else None


def coerce_to_schema_strings(loaded: LoadedYaml, paths: Iterable[Iterable[Any]]) -> int:
    """Turn plain-scalar non-strings at ``paths`` back into their source text.

    For each path whose value in ``loaded.data`` is an int, float, bool or None
    that came from a plain (unquoted, non-block) scalar, replace it in place by the
    scalar's exact text: ``10`` -> ``"10"``, ``1.50`` -> ``"1.50"``, ``true`` ->
    ``"true"``, ``~`` -> ``"~"``.  An *empty* value is left as None, so a missing
    string is still reported as missing rather than accepted as ``""``.  Paths that
    do not exist are ignored.  Returns how many values changed.
    """
    changed = 0
    for path in paths:
        path = tuple(path)
        node = loaded.node(path)
        if not isinstance(node, ScalarNode) or node.style is not None or node.value == "":
            continue
        if not path:
            if not isinstance(loaded.data, str):
                loaded.data = node.value
                changed += 1
            continue
        parent = loaded.data
        try:
            for element in path[:-1]:
                parent = parent[element]
            value = parent[path[-1]]
        except (KeyError, IndexError, TypeError):
            continue
        if isinstance(value, (bool, int, float)) or value is None:
            parent[path[-1]] = node.value
            changed += 1
    return changed


# --------------------------------------------------------------------------- comments
# Characters PyYAML's reader counts as line breaks (its marks' lines count them).
_BREAKS = "\n\x85\u2028\u2029"
_BLOCK_HEADER_COMMENT = re.compile(r"[|>][-+0-9]*[ \t]+#")
# The schema modeline at the top of a YAML file: the YAML printer writes its own.
_MODELINE_TEXT = "yaml-language-server:"


def _line_starts(text: str) -> list[int]:
    """The index each line starts at, lines counted as PyYAML's reader counts them."""
    starts = [0]
    for i, ch in enumerate(text):
        if ch in _BREAKS or (ch == "\r" and text[i + 1:i + 2] != "\n"):
            starts.append(i + 1)
    return starts


def yaml_comments(text: str) -> list[Comment]:
    """The comments of YAML text, in order.

    A comment can only stand where the scanner makes no token, so the gaps between
    tokens are searched (a ``#`` inside a quoted or block scalar is in a token);
    the one exception is the comment on a block scalar's header line (``key: |  #
    note``), which is inside the scalar's token.
    """
    try:
        tokens = list(yaml.scan(text, Loader=CoreSchemaLoader))
    except yaml.YAMLError:
        return []
    starts = _line_starts(text)
    found: list[Comment] = []

    def comment_at(index: int, stop: int) -> int:
        end = index
        while end < stop and text[end] not in _BREAKS and text[end] != "\r":
            end += 1
        line = bisect_right(starts, index)
        begin = starts[line - 1]
        found.append(Comment(line, index - begin + 1, text[index + 1:end].rstrip(),
                             not text[begin:index].strip()))
        return end

    def search(begin: int, stop: int) -> None:
        i = text.find("#", begin, stop)
        while i != -1:
            i = text.find("#", comment_at(i, stop), stop)

    covered = 0
    for token in sorted(tokens, key=lambda t: t.start_mark.index):
        start, end = token.start_mark.index, token.end_mark.index
        if start > covered:
            search(covered, start)
        if isinstance(token, yaml.ScalarToken) and token.style in ("|", ">"):
            header = _BLOCK_HEADER_COMMENT.match(text, start)
            if header:
                comment_at(header.end() - 1, end)
        covered = max(covered, end)
    search(covered, len(text))
    return found


@dataclass
class _Anchor:
    """A place a comment can belong to: a setting (or a list item named in its block)."""

    path: tuple
    line: int
    col: int
    last: int  # the setting's last line
    children: list[_Anchor] | None  # None: a single value, whatever its shape


def _named_items(value: Any) -> bool:
    """A list of mappings each with a ``name``: its items are settings of their own."""
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) and "name" in v for v in value)


def _outline(loaded: LoadedYaml) -> _Anchor:
    """The settings of a loaded file as a tree of anchors, in source order."""
    text = loaded.text
    ends = loaded._last_lines
    lasts: dict[int, int] = {}
    seen: set[int] = set()

    def last_line(node: Node) -> int:
        if ends is not None:
            return ends.get(id(node), node.start_mark.line + 1)
        if id(node) in lasts:
            return lasts[id(node)]
        lasts[id(node)] = node.start_mark.line + 1  # an alias loop stops here
        if isinstance(node, ScalarNode) or getattr(node, "flow_style", False):
            # The end mark is exact but for the white space a block scalar takes.
            end, line = node.end_mark.index, node.end_mark.line + 1
            while end > node.start_mark.index and text[end - 1:end].isspace():
                end -= 1
                line -= text[end] in _BREAKS
            result = max(line, node.start_mark.line + 1)
        else:
            children = [n for pair in node.value for n in pair] if isinstance(node, MappingNode) else node.value
            result = max([node.start_mark.line + 1] + [last_line(n) for n in children])
        lasts[id(node)] = result
        return result

    def entries(node: Node, data: Any, path: tuple) -> list[_Anchor]:
        if not isinstance(node, MappingNode) or not isinstance(data, dict) or id(node) in seen:
            return []
        seen.add(id(node))
        found = []
        keys = set()
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode) or key_node.value in keys or key_node.value not in data:
                continue
            key = key_node.value
            keys.add(key)
            value, p = data[key], path + (key,)
            line, col = key_node.start_mark.line + 1, key_node.start_mark.column + 1
            children = None
            if isinstance(value, dict) and isinstance(value_node, MappingNode) and id(value_node) not in seen:
                children = entries(value_node, value, p)
            elif (_named_items(value) and isinstance(value_node, SequenceNode) and id(value_node) not in seen
                  and len(value_node.value) == len(value)):
                seen.add(id(value_node))
                dash = value_node.start_mark.column + 1  # where a block sequence's `-` stand
                children = [_Anchor(p + (i,), item.start_mark.line + 1, dash, last_line(item),
                                    entries(item, value[i], p + (i,)))
                            for i, item in enumerate(value_node.value)]
            found.append(_Anchor(p, line, col, max(line, last_line(value_node)), children))
        return found

    root = loaded.root
    children = entries(root, loaded.data, ()) if root is not None else []
    return _Anchor((), 0, 0, 1 << 30, children)


def _find_place(container: _Anchor, comment: Comment, indented: bool) -> tuple[tuple, str]:
    """The data path and slot a comment belongs to, looked for inside ``container``."""
    line = comment.line
    kids = container.children or []
    if not comment.own_line:
        # After code on its line: the outermost setting that starts on the line.
        on_line = [k for k in kids if k.line == line]
        if on_line:
            return on_line[-1].path, "trailing"
    before = [k for k in kids if k.line < line]
    after = [k for k in kids if k.line >= line]
    prev = before[-1] if before else None
    if prev is not None and prev.last >= line:  # inside it (a block, or a value over several lines)
        if prev.children is not None:
            return _find_place(prev, comment, indented)
        return prev.path, "before" if comment.own_line else "trailing"
    # Between settings.  In YAML a comment indented under the block before it is in
    # that block (the end of it); in .whist the braces have said so already.
    if indented and comment.own_line and prev is not None and prev.children is not None and comment.col > prev.col:
        return _find_place(prev, comment, indented)
    if after:
        return (((), "before") if not container.path and prev is None else (after[0].path, "before"))
    return container.path, "end"


def place_comments(loaded: LoadedYaml, comments: Iterable[Comment]) -> dict[tuple, CommentSlots]:
    """Tie each comment to the data path it belongs to, in a slot saying where it goes.

    A full-line comment goes before the next setting of its block (before the first
    setting of the file: the header) or, after the last one, at the end of the
    block; a comment after code goes with the outermost setting starting on that
    line.  A comment that cannot keep its exact place — inside a list written on
    several lines, say — goes with the nearest setting around it.  The schema
    modeline at the top of a YAML file is left out (the YAML printer writes one).
    """
    root = _outline(loaded)
    indented = loaded._last_lines is None
    first = root.children[0].line if root.children else 1 << 30
    slots: dict[tuple, CommentSlots] = {}
    for comment in comments:
        if comment.own_line and comment.line < first and comment.text.strip().startswith(_MODELINE_TEXT):
            continue
        path, where = _find_place(root, comment, indented)
        getattr(slots.setdefault(path, CommentSlots()), where).append(comment.text)
    return slots
