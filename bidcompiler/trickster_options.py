"""Trickster Cards' game options as a variant and house rules: the table in ``data/trickster-options.yaml``.

The mapping is data: which phrase means which house rule is written in the table, and
this module only reads it.  Phrases are compared without regard to case or spacing.
An option the table does not hold is *unknown*: the caller reports it by name, and
imports under the nearest rules (the others' mapping) only when the user asks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from .errors import CompileError
from .resources import data_path
from .yamlload import load_yaml

TABLE_NAME = "trickster-options.yaml"


@dataclass(frozen=True)
class OptionRule:
    """What one option phrase means: another variant (or None: the table's) and the house rules it adds."""

    variant: str | None
    with_rules: tuple[str, ...]


@dataclass
class OptionsTable:
    """The table: the variant Trickster games start from and each known phrase's meaning."""

    variant: str
    options: dict[str, OptionRule]


@dataclass
class MappedOptions:
    """A hand's options mapped: its variant and house rules, and the phrases with no rule here."""

    variant: str
    with_rules: list[str]
    unknown: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        """The rules as the command line names them: ``VARIANT+RULE+RULE``."""
        return "+".join([self.variant, *self.with_rules])


def normalise(phrase: str) -> str:
    """A phrase as the table compares it: lower case, single spaces."""
    return re.sub(r"\s+", " ", phrase.strip().lower())


def _problem(message: str) -> ValueError:
    return ValueError(f"{TABLE_NAME}: {message}")


def parse_table(text: str, filename: str = TABLE_NAME) -> OptionsTable:
    """Read a table's text; ValueError naming what is wrong with it."""
    try:
        data = load_yaml(text, filename).data
    except CompileError as exc:
        raise ValueError("; ".join(d.one_line() for d in exc.diagnostics)) from None
    if not isinstance(data, dict) or not isinstance(data.get("variant"), str):
        raise _problem("expected a mapping with `variant: NAME` and `options: [...]`")
    options: dict[str, OptionRule] = {}
    for i, entry in enumerate(data.get("options") or []):
        if not isinstance(entry, dict) or not isinstance(entry.get("phrase"), str):
            raise _problem(f"options[{i}] needs `phrase: TEXT`")
        extra = set(entry) - {"phrase", "variant", "with"}
        if extra:
            raise _problem(f"options[{i}] has unknown key {sorted(extra)[0]!r}")
        rules = entry.get("with") or []
        if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
            raise _problem(f"options[{i}].with must be a list of house-rule names")
        variant = entry.get("variant")
        if variant is not None and not isinstance(variant, str):
            raise _problem(f"options[{i}].variant must be a variant's name")
        key = normalise(entry["phrase"])
        if key in options:
            raise _problem(f"options[{i}]: the phrase {entry['phrase']!r} is listed twice")
        options[key] = OptionRule(variant, tuple(rules))
    return OptionsTable(data["variant"], options)


@lru_cache(maxsize=1)
def shipped_table() -> OptionsTable:
    """The table shipped with bidwhist."""
    return parse_table(data_path(TABLE_NAME).read_text(encoding="utf-8"))


def map_options(phrases: list[str], table: OptionsTable | None = None) -> MappedOptions:
    """The variant and house rules ``phrases`` mean, in the order they come; unknown phrases listed.

    ValueError when two options name different variants.
    """
    table = table or shipped_table()
    variant: str | None = None
    with_rules: list[str] = []
    unknown: list[str] = []
    for phrase in phrases:
        rule = table.options.get(normalise(phrase))
        if rule is None:
            unknown.append(phrase)
            continue
        if rule.variant is not None:
            if variant is not None and variant != rule.variant:
                raise ValueError(f"option {phrase!r} asks for variant {rule.variant}, another asks for {variant}")
            variant = rule.variant
        with_rules += [r for r in rule.with_rules if r not in with_rules]
    return MappedOptions(variant or table.variant, with_rules, unknown)
