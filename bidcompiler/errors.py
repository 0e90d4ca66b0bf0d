"""Diagnostics: positioned messages, and the one exception that carries them all.

Every stage of the compiler reports problems as :class:`Diagnostic` values and
collects them instead of stopping at the first (the sqlglot "raise once" mode), so
a user sees every mistake in a file in one run.  :class:`CompileError` is the only
exception the compiler raises for bad input; the CLI prints its diagnostics as
``file:line:col: message`` (then ``    to fix: …`` where the check knows what to do)
and exits with status 1.  A problem that spans a shipped file and a file of the user's
is placed in the user's file (see ``checks.conflict`` and ``resources.is_shipped``);
one placed in a shipped file leads with its shipped name and line (``Diagnostic.place``).

Both classes are plain data and survive pickling, because compile errors may cross
a process pool.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# How much of a name from someone else's file a message quotes.
QUOTED_CHARS = 60


def printable(text: str, keep_newlines: bool = True) -> str:
    """``text`` with each character a terminal would act on, or a reader could not see
    (controls such as ESC, line and paragraph separators), written as its escape
    (``\\x1b``, ``\\u2028``): a message quoting a hostile file prints what it says and
    nothing more.  Newlines stay where ``keep_newlines`` (a message's own lines)."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or (keep_newlines and c == "\n") else repr(c)[1:-1] for c in text)


def quoted(name: str, limit: int = QUOTED_CHARS) -> str:
    """``name`` in quotes for a message: escaped as :func:`printable` (newlines too) and,
    past ``limit`` characters (:data:`QUOTED_CHARS` unless a caller has its own), cut with
    its length said."""
    if len(name) > limit:
        return f"'{printable(name[:limit], False)}...' ({len(name)} characters)"
    return f"'{printable(name, False)}'"


def close_matches(word: str, possibilities, n: int = 3, cutoff: float = 0.6) -> list[str]:
    """``difflib.get_close_matches``, the "did you mean" of every message, without its cost on a
    hostile name: the same answer, but a word too long to come within ``cutoff`` of any of
    ``possibilities`` is not read (difflib indexes every character of ``word`` first: a 10 MB
    variant name in a record took seconds a look-up).

    Two texts of lengths a and b match at most 2 * min(a, b) / (a + b), so a possibility
    that cannot reach ``cutoff`` by length alone is one difflib would refuse anyway.
    """
    possible = [p for p in possibilities if 2 * min(len(word), len(p)) >= cutoff * (len(word) + len(p))]
    if not possible:
        return []
    import difflib  # only for a message: not on every start-up

    return difflib.get_close_matches(word, possible, n=n, cutoff=cutoff)


@dataclass(frozen=True, slots=True)
class SourcePos:
    """A place in a source file: 1-based line and column (0 means unknown)."""

    file: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        if self.line and self.col:
            return f"{self.file}:{self.line}:{self.col}"
        if self.line:
            return f"{self.file}:{self.line}"
        return self.file

    def shifted(self, line: int, col: int) -> "SourcePos":
        """The position of (line, col) of a text that starts at this position.

        Used for expressions embedded in a file: an error at line 1, column 5 of
        the expression text is four columns right of where the text starts.
        """
        if line <= 1:
            return SourcePos(self.file, self.line, self.col + col - 1 if self.col else 0)
        return SourcePos(self.file, self.line + line - 1, col)


# The most of a source line a message shows: a line of 200,000 characters was printed
# whole, and its caret line padded with as many spaces.
SNIPPET_CHARS = 120


def source_snippet(line: str, col: int) -> tuple[str, int]:
    """``line`` as a message shows it under ``file:line:col``, and the caret's offset in it.

    Escaped as :func:`printable`, the caret counted in the line as printed (escapes are
    wider); a line longer than :data:`SNIPPET_CHARS` is cut to that many characters
    around column ``col``, ``...`` marking each cut.
    """
    start, end = 0, len(line)
    if end > SNIPPET_CHARS:
        start = max(0, min(col - 1 - SNIPPET_CHARS // 2, end - SNIPPET_CHARS))
        end = start + SNIPPET_CHARS
    before = "..." if start > 0 else ""
    after = "..." if end < len(line) else ""
    caret_at = len(before) + len(printable(line[start:max(start, col - 1)], False))
    return before + printable(line[start:end], False) + after, caret_at


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem found in a source file."""

    pos: SourcePos
    message: str
    # An optional source line and caret column for display (``.whist`` syntax errors).
    source_line: str | None = field(default=None, compare=False)
    # Other places the message refers to ("first defined at ...").
    related: tuple[SourcePos, ...] = field(default=(), compare=False)
    # What the user can do about it, in a sentence ("remove `downtown` from `orders`, or ...").
    hint: str | None = field(default=None, compare=False)

    @property
    def place(self) -> str:
        """Where the message leads: ``file:line:col`` for a file of the user's (or a
        ``--set``), a shipped file by its shipped name and line (``shipped 'name', line 9``,
        :func:`resources.shown_place`), never by the path it is installed at, which the
        user did not write.  Every printed form of a diagnostic starts here."""
        from .resources import shown_place  # resources is a leaf, but keeps this module import-free

        return shown_place(self.pos.file, self.pos.line, self.pos.col) if self.pos.file else str(self.pos)

    def __str__(self) -> str:
        # Messages quote the user's values, and any text may come from a hostile file.
        text = printable(f"{self.place}: {self.message}")
        if self.source_line is not None and self.pos.col:
            shown, caret_at = source_snippet(self.source_line, self.pos.col)
            text += f"\n    {shown}\n    {' ' * caret_at}^"
        if self.hint:
            # On a line of its own, so the first line stays file:line:col: message for editors.
            text += f"\n    to fix: {printable(self.hint)}"
        return text

    def one_line(self) -> str:
        """The diagnostic on one line (for messages that must stay one line): ``pos: message; to fix: …``."""
        return printable(f"{self.place}: {self.message}" + (f"; to fix: {self.hint}" if self.hint else ""), False)


class CompileError(Exception):
    """Raised once with every diagnostic a stage (or several) collected."""

    def __init__(self, diagnostics: list[Diagnostic] | tuple[Diagnostic, ...]):
        self.diagnostics = tuple(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics))

    def __reduce__(self):
        return (CompileError, (self.diagnostics,))


class DiagnosticSink:
    """Collects diagnostics during a stage; ``raise_if_any`` ends the stage."""

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []

    def error(self, pos: SourcePos, message: str, **extra) -> None:
        """Record one problem at ``pos``."""
        self.items.append(Diagnostic(pos, message, **extra))

    def extend(self, diagnostics) -> None:
        """Record problems another stage found."""
        self.items.extend(diagnostics)

    def raise_if_any(self) -> None:
        """Raise a :class:`CompileError` holding everything collected so far."""
        if self.items:
            raise CompileError(sorted(self.items, key=lambda d: (d.pos.file, d.pos.line, d.pos.col)))
