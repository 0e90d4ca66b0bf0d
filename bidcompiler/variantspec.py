"""How a user names a variant (``NAME+RULE+RULE``, ``--with``, ``--set``): cheap to import.

Kept apart from the pipeline so that the command line can parse a variant's name and
look it up in the rule cache (bidcompiler.rulecache) without importing the compiler.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from .errors import CompileError


class VariantNotFound(CompileError):
    """A variant or house rule named on the command line or in a record does not exist."""


class NotAHouseRule(CompileError):
    """A shipped variant named where a house rule goes (``--with VARIANT``, ``NAME+VARIANT``):
    a misuse of the name, not a fault of the shipped file, so the command line reports it as
    bad usage; ``rule`` is the name as given."""

    def __init__(self, diagnostics, rule: str):
        super().__init__(diagnostics)
        self.rule = rule


class NotAVariant(CompileError):
    """A house rule named where the variant goes (``rules RULE``, ``compare RULE B``): a house
    rule always says it is one (``kind: house-rule``), so the file is right and the name misused,
    and the command line reports it as bad usage, with the name as the user gave it."""

    @staticmethod
    def said(name: str) -> str:
        """The message for the house rule ``name`` named as the variant: what to do first, then why
        (as a shipped variant named as a house rule is said)."""
        from .errors import quoted

        return (f"lay {quoted(name)} over a variant, after the variant's name (VARIANT+{name}; "
                "`bidwhist variants` lists the variants): it is a house rule, not a variant")


@dataclass(frozen=True)
class VariantSpec:
    """A variant as named by a user: base, house rules in order, one-off settings."""

    base: str
    with_rules: tuple[str, ...] = ()
    sets: tuple[str, ...] = ()

    @staticmethod
    def parse(text: str, with_rules=(), sets=()) -> "VariantSpec":
        """Read ``NAME+RULE+RULE`` (a path holding ``+`` is taken whole if it exists)."""
        # os.path.exists, not Path.exists: a name too long for a file name is no file, not an OSError
        if "+" in text and not os.path.exists(text):
            base, *rules = text.split("+")
        else:
            base, rules = text, []
        return VariantSpec(base, tuple(rules) + tuple(with_rules), tuple(sets))

    def __str__(self) -> str:
        return "+".join((self.base, *self.with_rules))
