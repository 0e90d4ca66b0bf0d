"""Reading the examples of a Markdown page, for the tests that keep README.md and docs/tutorial.md true.

A console block holds ``$ command`` lines, each followed by its expected output.  In
expected output a line ``...`` stands for any number of lines, and a line ending in
``...`` only has to start with the text before it.
"""

from __future__ import annotations

import re

BLOCK = re.compile(r"```(\w+)\n(.*?)```", re.S)


def blocks(text: str, lang: str) -> list[str]:
    """The bodies of the fenced blocks of ``text`` in language ``lang``, in order."""
    return [body for kind, body in BLOCK.findall(text) if kind == lang]


def console_steps(text: str) -> list[tuple[str, list[str]]]:
    """Every ``$ command`` of the console blocks of ``text``, with the lines shown after it."""
    steps = []
    for body in blocks(text, "console"):
        for chunk in body.split("$ ")[1:]:
            command, *expected = chunk.rstrip("\n").split("\n")
            steps.append((command, expected))
    return steps


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` lines are what ``expected`` shows (``...`` as said in the module's docstring)."""
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head == "...":
        return any(matches(rest, actual[i:]) for i in range(len(actual) + 1))
    if not actual:
        return False
    ok = actual[0].startswith(head[:-3]) if head.endswith("...") else actual[0].rstrip() == head.rstrip()
    return ok and matches(rest, actual[1:])
