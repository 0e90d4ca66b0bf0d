"""The ``.whist`` front end: parse the text syntax into the same document the YAML loader makes.

``grammar/whist.lark`` (LALR, importing the expression grammar) parses the file;
this module turns the tree into a YAML node tree with positions and hands it to
the YAML loader's builder, so a ``.whist`` file yields a :class:`LoadedYaml` like
any YAML file and everything after loading — schema check, composition, IR, checks
— is shared.  Where the text syntax is shorter than YAML, the schema says what is
meant: a single value where a list is wanted is a list of one; the named blocks
inside ``strains { … }`` are list items whose ``name`` is the block's label, and
``remove NAME`` there is the item ``{name: NAME, remove: true}`` (a list of named
items merges by name, so this removes the item NAME of the layer below).

Syntax errors are reported in words ("missing `}` after the auction block",
"expected a value, found `=`") with the source line and a caret.

The parser skips comments, but tells this module of each as it goes; the loaded
document keeps them, with the last line of every setting, for ``bidwhist convert``
(see :meth:`LoadedYaml.comments`).
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import replace
from functools import lru_cache

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput
from yaml.error import Mark
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from . import resources
from .errors import QUOTED_CHARS, CompileError, Diagnostic, SourcePos, close_matches
from .yamlload import (
    BOOL_TAG,
    INT_TAG,
    MAP_TAG,
    MAX_NESTING,
    SEQ_TAG,
    STR_TAG,
    Comment,
    FormulaNode,
    LoadedYaml,
    loaded_from_node,
    nesting_message,
)

_INT = re.compile(r"^[-+]?[0-9]+$")

# Terminals in words, for syntax errors.
_WORDS = {
    "KEY": "a setting name",
    "WORD": "a value",
    "STRING": "a quoted text",
    "KIND": "`variant` or `house-rule`",
    "_LBRACE": "`{`",
    "_RBRACE": "`}`",
    "_LBRACKET": "`[`",
    "_RBRACKET": "`]`",
    "_COMMA": "`,`",
    "_SEMICOLON": "`;`",
    "_NEWLINE": "the end of the line",
    "_EQUALS": "`=`",
    "TIE": "`=`",
    "BELOW": "`<`",
    "_REMOVE": "`remove`",
    "$END": "the end of the file",
    "NAME": "a name",
    "INT": "a number",
}


# The comment tokens of the parse running in this thread (the parser is shared).
_comments = threading.local()


def _met_comment(token: Token) -> Token:
    found = getattr(_comments, "found", None)
    if found is not None:
        found.append(token)
    return token


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(resources.grammar_text("whist.lark"), parser="lalr", propagate_positions=True,
                import_paths=[str(resources.grammar_dir())], maybe_placeholders=False,
                lexer_callbacks={"COMMENT": _met_comment})


def _comment(text: str, token: Token) -> Comment:
    begin = text.rfind("\n", 0, token.start_pos) + 1
    return Comment(token.line, token.column, token.value[1:].rstrip(), not text[begin:token.start_pos].strip())


def _mark(filename: str, text: str, line: int, col: int, index: int) -> Mark:
    return Mark(filename, index, line - 1, col - 1, text, index)


class _NodeMaker:
    """Builds YAML nodes from the parse tree, shaped by the schema."""

    def __init__(self, text: str, filename: str, schema: dict):
        self.text = text
        self.filename = filename
        self.schema = schema
        # id(value node) -> the last line of its setting (the nodes have no end marks).
        self.last_lines: dict[int, int] = {}

    # -- marks -------------------------------------------------------------
    def mark(self, token: Token) -> Mark:
        return _mark(self.filename, self.text, token.line, token.column, token.start_pos)

    def scalar(self, token: Token, value: str | None = None, tag: str | None = None, style=None) -> ScalarNode:
        value = token.value if value is None else value
        if tag is None:
            tag = INT_TAG if _INT.match(value) else BOOL_TAG if value in ("true", "false") else STR_TAG
        start = self.mark(token)
        # The end too: positions inside a quoted text (content_pos) are measured
        # between the two marks.
        end = _mark(self.filename, self.text, token.end_line or token.line, token.end_column or token.column,
                    token.end_pos if token.end_pos is not None else token.start_pos)
        return ScalarNode(tag, value, start, end, style=style)

    # -- schema look-ups ---------------------------------------------------
    def _resolve(self, node: dict) -> dict:
        while isinstance(node, dict) and "$ref" in node:
            ref = node["$ref"].split("/")[-1]
            node = self.schema["definitions"][ref]
        return node if isinstance(node, dict) else {}

    def child_schema(self, schema: dict, key: str) -> dict:
        schema = self._resolve(schema)
        if key in schema.get("properties", {}):
            return self._resolve(schema["properties"][key])
        for branch in (*schema.get("anyOf", ()), *schema.get("oneOf", ())):
            # A setting that is a word or a block (kitty.show: `suit-contracts`, or
            # `{ when declaration; contracts suit }`): the block's keys are the block form's.
            branch = self._resolve(branch)
            if key in branch.get("properties", {}):
                return self._resolve(branch["properties"][key])
        extra = schema.get("additionalProperties")
        return self._resolve(extra) if isinstance(extra, dict) else {}

    def _raw_child_schema(self, schema: dict, key: str) -> object:
        """The schema of ``key`` in ``schema`` as written (its ``$ref`` not followed): a property,
        of the block or of one of its forms, or the schema of every other key (named terms)."""
        schema = self._resolve(schema)
        forms = [schema, *(self._resolve(b) for b in (*schema.get("anyOf", ()), *schema.get("oneOf", ())))]
        for form in forms:
            if key in form.get("properties", {}):
                return form["properties"][key]
        for form in forms:
            if isinstance(form.get("additionalProperties"), dict):
                return form["additionalProperties"]
        return None

    @staticmethod
    def _types(schema: dict) -> set:
        t = schema.get("type")
        types = set(t) if isinstance(t, list) else {t} if t else set()
        for branch in schema.get("anyOf", ()):
            b = branch.get("type")
            types |= set(b) if isinstance(b, list) else {b} if b else {"string"}
        return types

    def wants_list_only(self, schema: dict) -> bool:
        types = self._types(schema) - {"null"}
        return types == {"array"}

    def named_items(self, schema: dict) -> bool:
        """A list of mappings each with a ``name``: written as labelled blocks."""
        if not self.wants_list_only(schema):
            return False
        items = self._resolve(schema.get("items", {}))
        return "name" in items.get("properties", {})

    # -- tree -> nodes -----------------------------------------------------
    def document(self, tree: Tree) -> MappingNode:
        header, *statements = tree.children
        kind, name = header.children
        pairs = []
        if kind.value == "house-rule":
            pairs.append((self.scalar(kind, "kind", STR_TAG), self.scalar(kind, "house-rule", STR_TAG)))
        pairs.append((self.scalar(name, "name", STR_TAG), self.scalar(name, tag=STR_TAG)))
        pairs.extend(self.statement(s, self.schema) for s in statements)
        start = self.mark(kind)
        return MappingNode(MAP_TAG, pairs, start, start)

    def statement(self, tree: Tree, parent_schema: dict):
        key, value = self._statement(tree, parent_schema)
        self.last_lines[id(value)] = tree.meta.end_line
        return key, value

    def _statement(self, tree: Tree, parent_schema: dict):
        key_token = tree.children[0]
        key = self.scalar(key_token, tag=STR_TAG)
        schema = self.child_schema(parent_schema, key_token.value)
        kind = tree.data
        if kind == "setting":
            if len(tree.children) > 2 and _takes_formula(self._raw_child_schema(parent_schema, key_token.value)):
                # `multiplier if notrump then 3 else 1`: the words of a formula without its `=`.
                words = " ".join(str(c.value) if isinstance(c, Token) else "[…]" for c in tree.children[1:])
                raise _syntax(self, tree.children[1], f"`{key_token.value}` takes a formula, which follows `=`: "
                                                      f"write `{key_token.value} = {words}`")
            return key, self.values(tree.children[1:], schema)
        if kind == "formula":
            return key, self.formula(tree)
        if kind == "ladder":
            return key, self.ladder(tree.children[1:], key_token)
        if kind == "removal":
            return key, ScalarNode("tag:yaml.org,2002:null", "", key.start_mark, key.end_mark)
        # a block
        statements = tree.children[1:]
        start = self.mark(key_token)
        if self.named_items(schema):
            item_schema = self._resolve(schema.get("items", {}))
            items = []
            for s in statements:
                label = s.children[0]
                pairs = [(self.scalar(label, "name", STR_TAG), self.scalar(label, tag=STR_TAG))]
                if s.data == "removal":  # `remove NAME`: the item {name: NAME, remove: true}
                    pairs.append((self.scalar(label, "remove", STR_TAG), self.scalar(label, "true", BOOL_TAG)))
                elif s.data != "block":
                    raise _syntax(self, label, f"expected a `{label.value} {{ … }}` block or `remove {label.value}` "
                                               f"in {key_token.value}")
                pairs.extend(self.statement(inner, item_schema) for inner in s.children[1:])
                items.append(MappingNode(MAP_TAG, pairs, self.mark(label), self.mark(label)))
                self.last_lines[id(items[-1])] = s.meta.end_line
            return key, SequenceNode(SEQ_TAG, items, start, start, flow_style=False)
        pairs = [self.statement(s, schema) for s in statements]
        return key, MappingNode(MAP_TAG, pairs, start, start)

    def values(self, children, schema: dict):
        nodes = [self.value(c, schema) for c in children]
        if len(nodes) == 1 and not self.wants_list_only(schema):
            return nodes[0]
        if len(nodes) == 1 and isinstance(nodes[0], SequenceNode):
            return nodes[0]
        start = nodes[0].start_mark
        return SequenceNode(SEQ_TAG, nodes, start, start, flow_style=True)

    def value(self, child, schema: dict):
        if isinstance(child, Tree):  # a [bracketed, list]
            item_schema = self._resolve(self._resolve(schema).get("items", {}))
            nodes = [self.value(c, item_schema) for c in child.children]
            start = nodes[0].start_mark if nodes else _mark(self.filename, self.text, child.meta.line,
                                                            child.meta.column, child.meta.start_pos)
            return SequenceNode(SEQ_TAG, nodes, start, start, flow_style=True)
        if child.type == "STRING":
            try:  # the STRING terminal is a JSON string: read its escapes the same way
                inner = json.loads(child.value)
            except ValueError:
                inner = child.value[1:-1]
            return self.scalar(child, inner, STR_TAG, style='"')
        return self.scalar(child)

    def ladder(self, children, key_token: Token) -> SequenceNode:
        groups = [[self.scalar(children[0], tag=STR_TAG)]]
        for relation, word in zip(children[1::2], children[2::2]):
            if relation.type == "BELOW":
                groups.append([])
            groups[-1].append(self.scalar(word, tag=STR_TAG))
        start = self.mark(key_token)
        return SequenceNode(SEQ_TAG, [SequenceNode(SEQ_TAG, g, g[0].start_mark, g[0].start_mark, flow_style=True)
                                      for g in groups], start, start, flow_style=True)

    def formula(self, tree: Tree) -> ScalarNode:
        key_token = tree.children[0]
        # The formula's text: from after `=` to the end of the statement.
        begin = self.text.index("=", key_token.end_pos) + 1
        end = tree.meta.end_pos
        while begin < end and self.text[begin] in " \t":
            begin += 1
        # A line continued with `\` is one formula: blank the joins, keeping offsets.
        body = self.text[begin:end].rstrip().replace("\\\r\n", "   ").replace("\\\n", "  ")
        line = self.text.count("\n", 0, begin) + 1
        col = begin - (self.text.rfind("\n", 0, begin) + 1) + 1
        start = _mark(self.filename, self.text, line, col, begin)
        # The end mark where the text ends: a formula continued over lines is then placed
        # through its layout (LoadedYaml.content_pos), so a mistake on its second line is
        # blamed there, not at a column past the end of its first.
        stop = begin + len(body)
        end_line = self.text.count("\n", 0, stop) + 1
        end_mark = _mark(self.filename, self.text, end_line, stop - (self.text.rfind("\n", 0, stop) + 1) + 1, stop)
        return FormulaNode(STR_TAG, body, start, end_mark, style=None)


def _text_lines(text: str) -> list[str]:
    """The lines of ``text`` as the grammar counts them: Lark breaks lines at ``\n`` only
    (not at the other characters str.splitlines breaks at, such as U+2028), a ``\r``
    before it belonging to the break."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def _syntax(maker: _NodeMaker, token: Token, message: str) -> CompileError:
    lines = _text_lines(maker.text)
    source = lines[token.line - 1] if 0 < token.line <= len(lines) else None
    return CompileError([Diagnostic(SourcePos(maker.filename, token.line, token.column), message,
                                    source_line=source)])


def _open_block(text: str, upto: int) -> tuple[str, int] | None:
    """The innermost block still open at ``upto``: (its name, the line it opened on)."""
    stack: list[tuple[str, int]] = []
    line = 1
    word = ""
    i = 0
    while i < upto:
        ch = text[i]
        if ch == "#":
            while i < upto and text[i] != "\n":
                i += 1
            continue
        if ch == '"':
            i += 1
            while i < upto and text[i] not in '"\n':
                i += 2 if text[i] == "\\" else 1
        elif ch == "\n":
            line += 1
        elif ch == "{":
            stack.append((word or "unnamed", line))
        elif ch == "}" and stack:
            stack.pop()
        if ch.isalnum() or ch in "-_":
            if i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "-_"):
                word = ""
            word += ch
        i += 1
    return stack[-1] if stack else None


_PUNCTUATION = {"LPAR": "`(`", "RPAR": "`)`", "MINUS": "`-`", "PLUS": "`+`", "STAR": "`*`",
                "SLASH": "`/`", "COMP_OP": "a comparison", "COMMA": "`,`"}


def _describe(names) -> str:
    """What the parser expected, in a few words (values and line ends collapsed)."""
    names = {n.removeprefix("expr__") for n in names}
    words = []
    if names & {"WORD", "STRING", "_LBRACKET"}:
        words.append("a value")
        names -= {"WORD", "STRING", "_LBRACKET"}
    if names & {"_NEWLINE", "_SEMICOLON"}:
        words.append("the end of the setting")
        names -= {"_NEWLINE", "_SEMICOLON"}
    if names & {"NAME", "INT"}:
        words.append("a number or a name")
        names -= {"NAME", "INT"}
    for n in sorted(names):
        if n in _WORDS:
            words.append(_WORDS[n])
        elif n in _PUNCTUATION:
            words.append(_PUNCTUATION[n])
        elif n.isalpha():
            words.append(f"`{n.lower()}`")
    words = list(dict.fromkeys(words))
    if not words:
        return "something else"
    if len(words) > 4:
        words = words[:4] + ["…"]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _found(token) -> str:
    if token is None or token.type == "$END":
        return "the end of the file"
    if token.type == "_NEWLINE":
        return "the end of the line"
    value = str(token.value)
    if len(value) > QUOTED_CHARS:  # a word of 200,000 letters is named, not printed whole
        return f"`{value[:QUOTED_CHARS]}...` ({len(value)} characters)"
    return f"`{value}`"


_FORMULA_REF = "#/definitions/formula"


def _takes_formula(schema: object) -> bool:
    """Whether ``schema`` (unresolved) takes a formula: the formula itself, or one of its forms."""
    if not isinstance(schema, dict):
        return False
    forms = (*schema.get("oneOf", ()), *schema.get("anyOf", ()))
    return any(isinstance(b, dict) and b.get("$ref") == _FORMULA_REF for b in (schema, *forms))


def _formula_keys(schema: dict) -> tuple[frozenset[str], frozenset[str]]:
    """The settings that take a formula, and the blocks whose every key takes one (named terms).

    Walked afresh for each hint: only a file with a syntax error asks, and the walk costs no
    more than serialising the schema to key a cache would."""
    keys: set[str] = set()
    blocks: set[str] = set()
    stack: list = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, sub in (node.get("properties") or {}).items():
                if _takes_formula(sub):
                    keys.add(key)
                    forms = (*sub.get("oneOf", ()), *sub.get("anyOf", ()))
                    if any(isinstance(f, dict) and _takes_formula(f.get("additionalProperties")) for f in forms):
                        blocks.add(key)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return frozenset(keys), frozenset(blocks)


def _formula_hint(text: str, at: int, schema: dict | None) -> str:
    """`` (a formula follows `=`: `KEY = …`)`` where a statement before ``at`` names a setting that
    takes a formula without the ``=`` (``multiplier if notrump then 3 else 1``), else ``""``."""
    if schema is None:
        return ""
    start = max(text.rfind(c, 0, at) for c in "{;\n") + 1
    end = min((i for i in (text.find(c, at) for c in "};\n#") if i >= 0), default=len(text))
    match = re.match(r"\s*([A-Za-z0-9_][A-Za-z0-9_-]*)\s+(?!=)(.*)", text[start:end], re.S)
    if match is None or match.group(1) == "remove":  # `remove NAME` (the grammar's _REMOVE) takes no formula
        return ""
    keys, blocks = _formula_keys(schema)
    block = _open_block(text, start)
    if match.group(1) not in keys and (block is None or block[0] not in blocks):
        return ""
    return f" (a formula follows `=`: `{match.group(1)} = {match.group(2).strip()}`)"


# Characters no bare word holds (grammar/whist.lark: WORD) that a text often does: a path, an
# address, a sentence. (`,` `'` `"` and `:` after a key have hints of their own.)
_TEXT_SYMBOLS = frozenset("/.!?:()&*@%$^|")


def _statement_value(text: str, at: int) -> tuple[str, str, int] | None:
    """The statement around ``at`` read as ``KEY VALUE`` (no `=`, no quotes): the key, the value
    and where the value starts, if it starts at or before ``at``; else None."""
    start = max(text.rfind(c, 0, at) for c in "{;\n") + 1
    end = min((i for i in (text.find(c, at) for c in "};\n#") if i >= 0), default=len(text))
    match = re.match(r"[ \t]*([a-z][a-z0-9_]*)[ \t]+([^\s=\"][^=\"]*)$", text[start:end])
    if match is None or match.group(1) == "remove" or start + match.start(2) > at:
        return None
    return match.group(1), match.group(2).rstrip(), start + match.start(2)


def _value_before(text: str, at: int) -> bool:
    """Whether the statement holding ``at`` has a value before it (`title My game: …`, not `game:`)."""
    found = _statement_value(text, at)
    return found is not None and found[2] < at


def _quote_hint(text: str, at: int) -> str:
    """`` (text with spaces or symbols goes in double quotes: `extends "../mine.whist"`)`` where a
    setting's value holds a character no bare word may (``at``), else ``""``; `` (… `remove KEY` …)``
    where the value is YAML's `~`."""
    found = _statement_value(text, at)
    if found is None:
        return ""
    key, value, begin = found
    if value == "~":
        return f" (the .whist syntax takes a setting away with `remove {key}`; `~` is YAML's)"
    if text[at:at + 1] not in _TEXT_SYMBOLS:  # a slice: ``at`` is the text's end where it ends early
        return ""
    within = at - begin
    if value.count("[", 0, within) > value.count("]", 0, within):
        # Inside brackets the item goes in quotes, not the list: `aliases [nt, "n/t"]`.
        lo = max(value.rfind("[", 0, within), value.rfind(",", 0, within)) + 1
        hi = min((i for i in (value.find(",", within), value.find("]", within)) if i >= 0), default=len(value))
        item = value[lo:hi].strip()
        quoted = json.dumps(item, ensure_ascii=False) if len(item) <= QUOTED_CHARS else '"…"'
        shown = value[:lo] + value[lo:hi].replace(item, quoted, 1) + value[hi:]
        return (f" (text with spaces or symbols goes in double quotes: "
                f"`{key} {shown if len(shown) <= QUOTED_CHARS else quoted}`)")
    quoted = json.dumps(value, ensure_ascii=False) if len(value) <= QUOTED_CHARS else '"…"'
    return f" (text with spaces or symbols goes in double quotes: `{key} {quoted}`)"


def _formula_error(text: str, at: int, filename: str) -> Diagnostic | None:
    """The formula language's own message where a syntax error at ``at`` lies inside a formula
    (``key = …`` on one line), or None.

    The file's parser knows the formula only as part of the whole file, and so names what the
    file could hold next (``the end of the setting``, ``}``); the formula's own parser says
    what is wrong with the formula (``to compare, write ==``), as for a formula in YAML.
    """
    from .expressions import parse_expression

    line_start = text.rfind("\n", 0, at) + 1
    start = max(line_start, text.rfind("{", line_start, at) + 1, text.rfind(";", line_start, at) + 1)
    match = re.match(r"[ \t]*[A-Za-z0-9_][A-Za-z0-9_-]*[ \t]*=(?!=)[ \t]*", text[start:at])
    if match is None:
        return None
    begin = start + match.end()
    # The formula ends at the first `}`, `;`, `#` or line end after its `=`; an error past that
    # (`lose = sets >= 3 } }`: the second `}`) is the file's, not the formula's.
    ends = [i for i in (text.find(c, begin) for c in "};#\n") if i >= 0]
    end = min(ends, default=len(text))
    # A comment after the formula is not past it: an error at the comment's line end (a bracket
    # left open before it) is still the formula's.
    after_comment = text.startswith("#", end) and "\n" not in text[end:at]
    if at > end and not after_comment:
        return None
    if text[begin:end].rstrip().endswith("\\"):
        return None  # a formula continued on the next line: the file's parser has said it
    line = text.count("\n", 0, begin) + 1
    try:
        parse_expression(text[begin:end], SourcePos(filename, line, begin - line_start + 1))
    except CompileError as exc:
        found = exc.diagnostics[0]
        at_end = line_start + found.pos.col - 1 >= begin + len(text[begin:end].rstrip())
        if at_end and text[end:end + 1] in ("\n", "#") and _brackets_open(text[begin:end]):
            # Broken over lines inside brackets, as many languages allow: the formula ends with
            # its line (a comment ends it too), so say how it goes on (docs/whist-syntax.md).
            # Only where the formula ran out, not at a mistake before (`(bid + 1 else base`).
            return replace(found, message=found.message + _CONTINUED)
        return found
    return None


# The hint for a formula cut at a line end with a bracket still open.
_CONTINUED = " (a formula goes on to the next line only after a `\\` at the end of its line)"


def _brackets_open(formula: str) -> bool:
    """Whether ``formula`` leaves a bracket open: more `(` or `[` than closed, quoted text aside."""
    bare = re.sub(r'"(?:[^"\\]|\\.)*"?', "", formula)
    return bare.count("(") + bare.count("[") > bare.count(")") + bare.count("]")


def _syntax_error(exc: UnexpectedInput, text: str, filename: str, schema: dict | None = None) -> CompileError:
    lines = _text_lines(text)
    line = getattr(exc, "line", 0) or len(lines)
    col = getattr(exc, "column", 0) or (len(lines[-1]) + 1 if lines else 1)
    if isinstance(exc, UnexpectedCharacters):
        char = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else ""
        message = f"unexpected character `{char}`"
        if char == "'":
            message += " (quote text with double quotes)"
        elif char == ":" and text[exc.pos_in_stream + 1:exc.pos_in_stream + 2] in ("", " ", "\t", "\r", "\n") \
                and not _value_before(text, exc.pos_in_stream):
            # `game:` or `target: 9`, written as in YAML: the .whist form is `game { … }`, `target 9`.
            message += (" (the .whist syntax writes no `:` after a key: a setting is `key value`, a block "
                        "`key { … }`, as docs/whist-syntax.md shows)")
        elif char == '"':  # a string is one line (grammar/whist.lark: STRING)
            message = "a string not closed on its line: end it with `\"` before the line ends"
        else:
            message += _formula_hint(text, exc.pos_in_stream, schema) or _quote_hint(text, exc.pos_in_stream)
    else:
        token = getattr(exc, "token", None)
        expected = set(getattr(exc, "expected", ()) or getattr(exc, "accepts", ()) or ())
        # What the parser would take here: lark's `accepts` where it has one (its `expected`, after a
        # line end inside the file, also lists the first line's `variant`/`house-rule`).
        accepts = set(getattr(exc, "accepts", ()) or ()) or expected
        at = token.start_pos if token is not None and token.type != "$END" else len(text)
        if isinstance(exc, UnexpectedEOF) or token is None or token.type == "$END":
            line, col = len(lines) or 1, (len(lines[-1]) + 1 if lines else 1)
            at = len(text)
        block = _open_block(text, at)
        closing_wanted = "_RBRACE" in expected
        if block and (token is None or token.type in ("$END", "KIND")) and closing_wanted:
            message = f"missing `}}` after the {block[0]} block (opened at line {block[1]})"
        elif token is not None and token.type == "_RBRACE" and block is None:
            message = "unexpected `}`: no block is open here"
        elif "KIND" in accepts and token is not None and token.type != "$END":
            # The first line misspelt (`hous-rule mine`, `House-rule mine`): what it must say.
            word = re.match(r"[\w-]{0,41}", text[at:]).group()
            close = close_matches(word.lower(), ["house-rule", "variant"], n=1, cutoff=0.6)
            # A line may be 100,000 long (cut), or start with no word (`"mine"`): the token as found.
            shown = f"`{word}`" if 0 < len(word) <= 40 else _found(token)
            message = (f"a .whist file starts with `house-rule NAME` or `variant NAME`, found {shown}"
                       + (f" (did you mean `{close[0]}`?)" if close else ""))
        else:
            message = f"expected {_describe(accepts)}, found {_found(token)}"
            message += _formula_hint(text, at, schema) or _quote_hint(text, at)
            if (token is not None and token.type == "_COMMA" and "_COMMA" not in expected
                    and expected & {"WORD", "STRING"}):
                # `trumps_above BJ, LJ`: commas belong inside brackets only (after a setting's
                # value, where another value may come; not after a block's `}`).
                message += " (a list is written `BJ LJ`, or `[BJ, LJ]` with the commas inside brackets)"
            if block is not None and closing_wanted and token is not None and token.type in ("$END",):
                message += f" (the {block[0]} block opened at line {block[1]} is not closed)"
    where = exc.pos_in_stream if isinstance(exc, UnexpectedCharacters) else at
    inside = _formula_error(text, where, filename) if where is not None else None
    if inside is not None:
        line, col, message = inside.pos.line, inside.pos.col, inside.message
    elif where is not None:
        message = _header_message(text, where) or message
    source = lines[line - 1] if 0 < line <= len(lines) else None
    return CompileError([Diagnostic(SourcePos(filename, line, col), message, source_line=source)])


# The first line, once its kind is read: `house-rule` or `variant`, then the rest of the line.
_HEADER = re.compile(r"(?:[ \t]*(?:#[^\n]*)?\r?\n)*[ \t]*(variant|house-rule)\b([^\n#;]*)")


def _header_message(text: str, at: int) -> str | None:
    """What the first line must say, where a syntax error at ``at`` lies on it after its kind
    (`house-rule "Our Rule"`, `house-rule our rule`, `house-rule` alone); else None."""
    match = _HEADER.match(text)
    # On the first line, before any `;` (a setting may follow on the same line) or line end.
    if match is None or at < match.end(1) or any(c in text[match.end(1):at] for c in ";\n"):
        return None
    kind, rest = match.group(1), match.group(2).strip()
    name = re.sub(r"[^a-z0-9]+", "-", rest.lower()).strip("-")[:QUOTED_CHARS].rstrip("-") \
        or ("our-rule" if kind == "house-rule" else "our-game")
    found = f"`{rest}`" if rest and len(rest) <= QUOTED_CHARS else ("nothing" if not rest else "a long text")
    return (f"the first line is `{kind} NAME`, one name of lower case letters, digits and - "
            f"(e.g. `{kind} {name}`), found {found}")


# What the nesting check looks at: quoted texts and comments (skipped whole), and brackets.
_NESTING_TOKENS = re.compile(r'"(?:[^"\\\n]|\\.)*+"|#[^\n]*|[\[\]{}]')


def _check_nesting(text: str, filename: str) -> None:
    """Refuse blocks and lists nested deeper than MAX_NESTING, before parsing.

    One pass over the text, without recursion, so the tree walks after the parse
    (which recurse once a level) stay far from Python's recursion limit.
    """
    depth = 0
    for match in _NESTING_TOKENS.finditer(text):
        token = match.group()
        if token in "{[":
            depth += 1
            if depth > MAX_NESTING:
                at = match.start()
                line = text.count("\n", 0, at) + 1
                col = at - (text.rfind("\n", 0, at) + 1) + 1
                lines = _text_lines(text)
                source = lines[line - 1] if 0 < line <= len(lines) else None
                raise CompileError([Diagnostic(SourcePos(filename, line, col), nesting_message(),
                                               source_line=source)])
        elif token in "}]":
            depth = max(depth - 1, 0)


def load_whist(text: str, filename: str, schema: dict) -> LoadedYaml:
    """Parse ``.whist`` text into a loaded document (data plus positions).

    A byte-order mark at the start (Windows editors write one) is dropped, as YAML's
    reader does: it is no character of the file's text, and columns count without it.
    """
    text = text.removeprefix("\ufeff")
    if not text.strip():
        return LoadedYaml(data=None, text=text, filename=filename)
    _check_nesting(text, filename)
    _comments.found = found = []
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as exc:
        error = _syntax_error(exc, text, filename, schema)
    else:
        error = None
    finally:
        _comments.found = None
    if error is not None:
        # Raised outside the handler: the Lark exception must not ride along as its
        # __context__ (parser state; unpicklable once tblib pickles contexts, as with dask).
        raise error
    maker = _NodeMaker(text, filename, schema)
    root = maker.document(tree)
    loaded = loaded_from_node(root, text, filename)
    loaded._comment_list = [_comment(text, token) for token in found]
    loaded._last_lines = maker.last_lines
    return loaded
