"""Trickster Cards' game options as a variant and house rules: the table in ``data/trickster-options.yaml``.

The mapping is data: which phrase means which house rule is written in the table, and
this module only reads it.  Phrases are compared without regard to case or spacing.
An option the table does not hold is *unknown*: the caller reports it by name, and
imports under the nearest rules (the others' mapping) only when the user asks.

A hand states its options in words and in GameOptionsJson: :func:`map_sources` reads
both, cross-checks the settings each phrase ``sets`` (the table says which), and reads a
JSON key left out as the table's ``json-defaults`` phrase for it.
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
    sets: tuple[tuple[str, str], ...] = ()  # the app's settings it states, as (name, value)


@dataclass
class OptionsTable:
    """The table: the variant Trickster games start from and each known phrase's meaning."""

    variant: str
    options: dict[str, OptionRule]
    json_defaults: dict[str, str] = field(default_factory=dict)  # JSON key -> the phrase its absence means


@dataclass
class MappedOptions:
    """A hand's options mapped: its variant and house rules, and the phrases with no rule here."""

    variant: str
    with_rules: list[str]
    unknown: list[str] = field(default_factory=list)
    assumed: list[str] = field(default_factory=list)  # "key: phrase", the JSON defaults read in

    @property
    def name(self) -> str:
        """The rules as the command line names them: ``VARIANT+RULE+RULE``."""
        return "+".join([self.variant, *self.with_rules])


def normalise(phrase: str) -> str:
    """A phrase as the table compares it: lower case, single spaces."""
    return re.sub(r"\s+", " ", phrase.strip().lower())


def _problem(message: str) -> ValueError:
    return ValueError(f"{TABLE_NAME}: {message}")


def _scalar(value: object) -> str | None:
    """A setting's value as text (``true``, ``2``), or None when it is not a plain scalar."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, str)):
        return str(value).strip().lower()
    return None


def parse_table(text: str, filename: str = TABLE_NAME) -> OptionsTable:
    """Read a table's text; ValueError naming what is wrong with it."""
    try:
        data = load_yaml(text, filename).data
    except CompileError as exc:
        raise ValueError("; ".join(d.one_line() for d in exc.diagnostics)) from None
    if not isinstance(data, dict) or not isinstance(data.get("variant"), str):
        raise _problem("expected a mapping with `variant: NAME` and `options: [...]`")
    extra_top = set(data) - {"variant", "options", "json-defaults"}
    if extra_top:
        raise _problem(f"unknown key {sorted(extra_top)[0]!r}")
    options: dict[str, OptionRule] = {}
    for i, entry in enumerate(data.get("options") or []):
        if not isinstance(entry, dict) or not isinstance(entry.get("phrase"), str):
            raise _problem(f"options[{i}] needs `phrase: TEXT`")
        extra = set(entry) - {"phrase", "variant", "with", "sets"}
        if extra:
            raise _problem(f"options[{i}] has unknown key {sorted(extra)[0]!r}")
        rules = entry.get("with") or []
        if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
            raise _problem(f"options[{i}].with must be a list of house-rule names")
        variant = entry.get("variant")
        if variant is not None and not isinstance(variant, str):
            raise _problem(f"options[{i}].variant must be a variant's name")
        sets = entry.get("sets") or {}
        values = {str(k): _scalar(v) for k, v in sets.items()} if isinstance(sets, dict) else None
        if values is None or any(v is None for v in values.values()):
            raise _problem(f"options[{i}].sets must map setting names to plain values (true, 2, text)")
        key = normalise(entry["phrase"])
        if key in options:
            raise _problem(f"options[{i}]: the phrase {entry['phrase']!r} is listed twice")
        options[key] = OptionRule(variant, tuple(rules), tuple((k, str(v)) for k, v in values.items()))
    defaults = data.get("json-defaults") or {}
    if not isinstance(defaults, dict) or not all(isinstance(v, str) for v in defaults.values()):
        raise _problem("json-defaults must map GameOptionsJson keys to option phrases")
    return OptionsTable(data["variant"], options, {str(k): v for k, v in defaults.items()})


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


@dataclass
class OptionSource:
    """One statement of a hand's options: where it is (tag name and line) and its phrases.

    ``json`` marks GameOptionsJson's ``key=value`` phrases, which leave out the settings
    at the app's defaults (the table's ``json-defaults`` say what each absence means).
    """

    name: str
    line: int
    phrases: list[str]
    json: bool = False


class OptionsDisagree(ValueError):
    """Two statements of a hand's options give one setting two values; ``line`` is where."""

    def __init__(self, line: int, message: str):
        self.line = line
        super().__init__(message)


@dataclass
class _Said:
    """One phrase a statement of the options says (or a JSON default read in its place), with
    its source and the table's rule for it (None: a phrase with no house rule here)."""

    phrase: str
    source: OptionSource
    rule: OptionRule | None
    default_of: str | None = None  # the JSON key whose absence this phrase stands for


def map_sources(sources: list[OptionSource], table: OptionsTable | None = None,
                prefer: str | None = None) -> MappedOptions:
    """The rules a hand's statements of its options mean together: what each knows is used.

    A setting stated by two sources with two values raises :class:`OptionsDisagree`
    unless ``prefer`` ("words" or "json") names the one to follow; the other's phrase is
    then not read.  A JSON key left out is read as the table's ``json-defaults`` phrase
    for it unless another source states that setting (then the default is not read);
    the defaults read are listed in ``assumed``.  ValueError when two options name
    different variants.
    """
    table = table or shipped_table()
    said: list[_Said] = []
    for source in sources:
        said += [_Said(p, source, table.options.get(normalise(p))) for p in source.phrases]
        if source.json:
            present = {normalise(p.partition("=")[0]) for p in source.phrases}
            said += [_Said(phrase, source, table.options.get(normalise(phrase)), key)
                     for key, phrase in table.json_defaults.items() if normalise(key) not in present]
    stated: dict[str, list[tuple[str, _Said]]] = {}
    for item in said:
        if item.rule is not None and item.default_of is None:
            for name, value in item.rule.sets:
                stated.setdefault(name, []).append((value, item))
    dropped: set[int] = set()
    for name, values in stated.items():
        if len({v for v, _ in values}) < 2:
            continue
        kinds = {_kind(i) for _, i in values}
        if prefer is not None and len(kinds) == 2:
            dropped |= {id(i) for _, i in values if _kind(i) != prefer}
            values = [(v, i) for v, i in values if _kind(i) == prefer]
        if len({v for v, _ in values}) > 1:
            (va, a), (vb, b) = values[0], next(x for x in values if x[0] != values[0][0])
            hint = ("; --options-from words or --options-from json says which to follow"
                    if _kind(a) != _kind(b) else "")
            raise OptionsDisagree(b.source.line, f"the game options disagree on {name}: {a.source.name} "
                                                 f"(line {a.source.line}) says {a.phrase!r} ({name} {va}), "
                                                 f"{b.source.name} (line {b.source.line}) says {b.phrase!r} "
                                                 f"({name} {vb}){hint}")
    kept = []
    for item in said:
        if id(item) in dropped:
            continue
        if item.default_of is not None and (item.default_of in stated or (
                item.rule is not None and any(n in stated for n, _ in item.rule.sets))):
            continue  # another statement says what the JSON's silence would have said
        kept.append(item)
    mapped = map_options([i.phrase for i in kept], table)
    defaults = {i.phrase: i.default_of for i in kept if i.default_of is not None}
    mapped.assumed = [f"{key}: {phrase!r}" for phrase, key in defaults.items()]
    mapped.unknown = [f"{p} (GameOptionsJson leaves {defaults[p]} out: the app's default)" if p in defaults else p
                      for p in mapped.unknown]
    return mapped


def _kind(said: _Said) -> str:
    """Which kind of statement a phrase comes from, as ``--options-from`` names it: "json" or "words"."""
    return "json" if said.source.json else "words"
