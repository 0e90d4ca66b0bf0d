"""Syntax errors of a formula in words: what the parser expected, where.

Part of the expression language of variant files (bidcompiler/expressions/): the parser
(parser.py) hands Lark's error here and raises the diagnostic it gets back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from ..errors import Diagnostic, SourcePos


# Terminal names (as Lark names them) grouped for messages.  The parser reports
# *sets* of acceptable terminals; listing all of them ("INT, NAME, LPAR, MINUS,
# TRUE, ...") is noise, so they are summarised in words instead.
_OPERAND_START = {"INT", "NAME", "LPAR", "TRUE", "FALSE", "MINUS", "NOT", "IF"}
_BINARY_OPERATORS = {"PLUS", "MINUS", "STAR", "SLASH", "COMP_OP", "AND", "OR"}
_STRUCTURAL = (
    ("THEN", "`then`"),
    ("ELSE", "`else`"),
    ("COMMA", "`,`"),
    ("RPAR", "`)`"),
    ("$END", "the end of the expression"),
)
# Characters people type from other languages, with what to write instead.
_CHAR_HINTS = {
    "=": "to compare, write `==`",
    "&": "write `and`",
    "|": "write `or`",
    "!": "write `not`, or `!=` to compare",
    ".": "numbers are whole numbers",
    "%": "there is no remainder operator",
    '"': "there are no strings in formulas",
    "'": "there are no strings in formulas",
}


def _terminal(name: str) -> str:
    # An importing grammar namespaces our terminals (expr__PLUS); messages do not care.
    return name if name.startswith("$") else name.rsplit("__", 1)[-1]


def _join_or(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def _describe_expected(expected: Iterable[str]) -> str:
    names = {_terminal(n) for n in expected}
    if names & {"INT", "NAME"}:
        # An operand is due: whatever else is allowed (`-`, `not`, `true`, `)` of an
        # empty call...) is a detail; these three say what the reader must write.
        return "a number, a name or `(`"
    items = []
    if names & _BINARY_OPERATORS:
        items.append("an operator")
    items.extend(words for key, words in _STRUCTURAL if key in names)
    return _join_or(items) if items else _join_or(sorted(names))


def _strip_comments(text: str) -> str:
    return re.sub(r"#[^\n]*", "", text)


def _acceptable(err: UnexpectedToken) -> set[str]:
    """The terminals that could really come next.

    LALR merges states, so ``err.expected`` may list tokens that are only valid in
    other contexts (``then`` and ``,`` after a top-level operand).  The interactive
    parser tries each candidate on a copy of the real parser state; it is slower,
    but only runs once per syntax error.
    """
    try:
        if err.interactive_parser is not None:
            return set(err.interactive_parser.accepts())
    except Exception:  # a best-effort refinement; never hide the real error
        pass
    return set(err.expected)


def _syntax_diagnostic(err: UnexpectedInput, text: str, origin: SourcePos) -> Diagnostic:
    """Turn a Lark parse failure into one human message at the right place."""
    if isinstance(err, UnexpectedCharacters):
        char = err.char if err.char.isprintable() else repr(err.char)
        message = f"unknown character `{char}`"
        hint = _CHAR_HINTS.get(err.char)
        after = text[err.pos_in_stream + 1:err.pos_in_stream + 2]
        if err.char == "=" and after in ("<", ">"):
            # `score => 7`: the comparison written the other way round, not an equality.
            hint = f"to compare, write `{after}=`"
        if hint is None and err.char.isalpha() and err.char.isupper():
            hint = "names are written in lowercase"
        if hint:
            message += f"; {hint}"
        return Diagnostic(origin.shifted(err.line, err.column), message)

    if isinstance(err, UnexpectedToken):
        token = err.token
        expected = {_terminal(n) for n in _acceptable(err)}
        operand_due = bool(expected & {"INT", "NAME"})
        if token.type == "$END":
            if not _strip_comments(text).strip():
                return Diagnostic(origin.shifted(1, 1), "the expression is empty")
            # Lark's end token borrows the last real token's span: point just after it.
            line = getattr(token, "end_line", None) or token.line or 1
            col = getattr(token, "end_column", None) or token.column or 1
            message = f"unexpected end of expression, expected {_describe_expected(expected)}"
            return Diagnostic(origin.shifted(line, col), message)
        kind = _terminal(token.type)
        if kind == "COMP_OP" and not operand_due:
            # The only way a comparison operator is unexpected after an operand is a
            # second comparison: the grammar makes them non-associative on purpose.
            message = (
                f"comparisons cannot be chained (found a second `{token}`); "
                "write `a < b and b < c` instead of `a < b < c`"
            )
        elif kind == "RPAR" and not operand_due and "RPAR" not in expected:
            message = "`)` without a matching `(`"
        elif str(token) == "*" and operand_due and token.start_pos and text[token.start_pos - 1] == "*":
            # The example multiplies the name the author raised to a power (`over ** 2`), else bid.
            base = re.search(r"([a-z_][a-z0-9_]*)\s*\*$", text[:token.start_pos])
            name = base.group(1) if base else "bid"
            message = f"there is no power operator `**`; multiply (`{name} * {name}`)"
        elif kind == "NAME" and not operand_due and token.start_pos and text[token.start_pos - 1].isdigit():
            # `2bid`: a number and a name written together.
            message = (f"expected an operator, found `{token}` right after a number; "
                       + ("numbers are written out in digits (no `e`)" if re.fullmatch(r"e\d+", str(token))
                          else f"to multiply, write `* {token}`"))
        elif not expected and str(token) in ("then", "else"):
            # The parser offers nothing here (its list is empty): a `then` or an `else` with
            # no `if` of its own left (`if a then b else c else d`).
            message = f"`{token}` without an `if` of its own: write `if CONDITION then A else B`"
        elif not expected:
            message = f"unexpected `{token}`"
        else:
            message = f"expected {_describe_expected(expected)}, found `{token}`"
        return Diagnostic(origin.shifted(token.line, token.column), message)

    # Other Lark failures (not expected with LALR) still become a positioned error.
    line = getattr(err, "line", 1) or 1
    col = getattr(err, "column", 1) or 1
    return Diagnostic(origin.shifted(line, col), "syntax error in expression")
