"""The words of a simulation's report: labels, sentences and definitions for people.

The runtime measures (:mod:`runtime.metrics` gives every figure as plain data);
this module says what the figures are.  :func:`simulation_summary` and
:func:`comparison_summary` are the JSON of ``simulate --json`` and ``compare
--json``: the runtime's figures with the words added in place — a label for
every figure, the sentence of each significant difference, the bots in words,
and the definitions.  :mod:`bidcompiler.cli.render` draws the same data as text.
"""

from __future__ import annotations

import math
from typing import NamedTuple, Sequence

from runtime import metrics, stats
from runtime.metrics import kind_of
from runtime.ruleset import Ruleset
from runtime.simulate import RunSpec, Totals

# Who the first dealer is, said once for the JSON's definition and the text's note (render.py)
# alike: a games run plays rubbers where the variant does, and its first dealer is the rubber's.
FIRST_DEALER = "the seat that dealt the game's first hand (a rubber's first hand where the variant plays rubbers)"

DEALER_POSITION = ("Wins by dealer position count, for each game, the position of the winning side "
                   f"relative to {FIRST_DEALER}: position 0 is that dealer's own side, position 1 the side "
                   "of the player on its left, and so on (with partners: the dealer's side, the other side).")

DIFFERENCE = ("b minus a, over the same deals (same_deals: the same cards; else the same seeds, but the "
              "decks differ); percentages of proportions are percentage points")


def bots_description(bots: str | Sequence[str]) -> str:
    """The bots of a run in words, as a report's header gives them: ``heuristic``, or
    ``side 0 heuristic, side 1 random`` when each side has its own kind."""
    kinds = (bots,) if isinstance(bots, str) else tuple(bots)
    if len(set(kinds)) == 1:
        return kinds[0]
    return ", ".join(f"side {side} {kind}" for side, kind in enumerate(kinds))


def position_name(position: int) -> str:
    """Words for a side's position relative to the first dealer."""
    if position == 0:
        return "the first dealer's side"
    if position == 1:
        return "the side on the first dealer's left"
    return f"the side {position} seats left of the first dealer"


class _Words(NamedTuple):
    """How a figure family is named: in tables, in a list of nouns, and in a sentence."""

    label: str     # a table's row: "side {arg} wins"
    noun: str      # after "no clear difference in": "how often side {arg} wins"
    sentence: str  # a difference b − a, see difference_sentence: "side {arg} wins {amount} {often}"


# The words of every family of runtime.metrics.METRIC_KINDS but ``contract`` and
# ``made`` (whose words depend on whether a contract is named), side by side so that
# a new family gets all of them at once.  ``{arg}`` is the key's side, or for
# ``dealer-win`` its position in words.
_WORDS = {
    "strain": _Words("{arg} share of contracts", "how often the contract is {arg}",
                     "the contract is {arg} {amount} {often}"),
    "strain-made": _Words("{arg} contracts made", "how often {arg} contracts are made",
                          "{arg} contracts are made {amount} {often}"),
    "set": _Words("contracts set", "how often declarers are set",
                  "declarers are set {amount} {often}"),
    "sweep": _Words("sweeps (every book a side can take)", "sweeps",
                    "a side takes every book it can take {amount} {often}"),
    "redeal": _Words("hands thrown in (no contract)", "hands thrown in",
                     "hands are thrown in {amount} {often}"),
    "declarer-points": _Words("declarers' points per contract", "declarers' points per contract",
                              "declarers score {amount} {more} points per contract"),
    "points": _Words("side {arg} points per hand", "side {arg}'s points per hand",
                     "side {arg} scores {amount} {more} points per hand"),
    "length": _Words("hands per game", "game length",
                     "games are {amount} hands {longer}"),
    "sets-per-game": _Words("sets per game", "sets per game",
                            "games have {amount} {more} sets"),
    "win": _Words("side {arg} wins", "how often side {arg} wins",
                  "side {arg} wins {amount} {often}"),
    "dealer-win": _Words("{arg} wins", "how often {arg} wins",
                         "{arg} wins {amount} {often}"),
    "unfinished": _Words("games unfinished at the hand limit", "unfinished games",
                         "games reach the hand limit undecided {amount} {often}"),
}


# What each family's figure is counted over, as runtime.metrics.METRIC_KINDS gives its n:
# said beside every figure (a share of hands and a share of contracts look alike).
_OUT_OF = {
    "contract": "hands", "made": "contracts", "strain": "contracts", "strain-made": "contracts",
    "set": "contracts", "sweep": "contracts", "redeal": "hands", "declarer-points": "contracts",
    "points": "hands", "length": "games", "sets-per-game": "games", "win": "games",
    "dealer-win": "games", "unfinished": "games",
}


def out_of(key: str) -> str:
    """What a figure is counted over: ``hands``, ``contracts``, ``games``, or for the
    make rate of one contract or strain its own contracts (``3 notrump contracts``)."""
    family, _, arg = key.partition(":")
    if family in ("made", "strain-made") and arg:
        return f"{arg} contracts"
    return _OUT_OF[family]


def _words(family: str, arg: str, form: str, **fields) -> str:
    """One of the ``_WORDS`` of ``family`` (``form``: label, noun or sentence), filled in."""
    if family == "dealer-win":
        arg = position_name(int(arg or 0))
    return getattr(_WORDS[family], form).format(arg=arg, **fields)


def metric_label(key: str) -> str:
    """A short label for tables: ``4 notrump bid``, ``hands per game``."""
    family, _, arg = key.partition(":")
    if family == "contract":
        return f"{arg} bid"
    if family == "made":
        return f"{arg} made" if arg else "contracts made"
    return _words(family, arg, "label")


def metric_noun(key: str) -> str:
    """The figure in words, for "no clear difference in …"."""
    family, _, arg = key.partition(":")
    if family == "contract":
        return f"how often {arg} is bid"
    if family == "made":
        return f"how often {arg} is made" if arg else "how often contracts are made"
    return _words(family, arg, "noun")


# --------------------------------------------------------------------------- numbers in words
def _decimals(half_width: float) -> int:
    """Decimals that show one significant digit of a ``±``."""
    if not half_width or half_width <= 0 or not math.isfinite(half_width):
        return 1
    return max(0, -math.floor(math.log10(half_width)))


def _percent(value: float, half: float | None = None) -> str:
    digits = _decimals(half * 100) if half else 0
    while value and round(value * 100, digits) == 0 and digits < 6:
        digits += 1  # a figure that happened is not shown as 0%
    return f"{value * 100:.{digits}f}%"


def is_symmetric(interval: stats.Interval) -> bool:
    """Whether an interval is centred on its value closely enough for ``value ± half`` to say it.

    Means and their differences are; a difference of proportions near 0 or 1 often is
    not (its interval stops at ±100 points), and is then written as a range.  Nor is an
    interval that only just excludes zero on one side while ``value ± half`` (half its
    width) would reach past zero, or the reverse: the words must say what the interval
    says (a paired proportions' interval is a little lopsided, and there it shows).
    """
    below, above = interval.value - interval.low, interval.high - interval.value
    if abs(above - below) > 0.1 * max(above, below):
        return False
    excludes_zero = interval.low > 0 or interval.high < 0
    return excludes_zero == (abs(interval.value) > (above + below) / 2)


def _plusminus(d: stats.Interval, percent: bool) -> str:
    """The size of a significant difference: ``31% ± 3%``, or ``100% (21% to 100%)`` where its
    interval is lopsided; in as many decimals as it takes for the printed interval to
    stay clear of zero, as the interval does."""
    scale, unit = (100, "%") if percent else (1, "")
    size = abs(d.value) * scale
    if is_symmetric(d):
        half = (d.high - d.low) / 2 * scale
        digits = _decimals(half)
        while digits < 6 and round(size, digits) <= round(half, digits):
            digits += 1
        return f"{size:.{digits}f}{unit} ± {half:.{digits}f}{unit}"
    near, far = sorted((abs(d.low) * scale, abs(d.high) * scale))
    digits = _decimals(min(size - near, far - size) or (far - near))
    close = digits  # the bound nearest zero gets the decimals that keep it off zero
    while close < 6 and round(near, close) == 0:
        close += 1
    return f"{size:.{digits}f}{unit} ({near:.{close}f}{unit} to {far:.{digits}f}{unit})"


def difference_sentence(key: str, a: stats.Interval, b: stats.Interval, d: stats.Interval) -> str:
    """A player's sentence for a difference ``b − a`` ("4 notrump is bid 31% ± 3% less often")."""
    family, _, arg = key.partition(":")
    up = d.value > 0
    half = d.half_width or 0.0
    pct = kind_of(key) == "proportion"
    amount = _plusminus(d, pct)
    often = "more often" if up else "less often"
    more = "more" if up else "fewer"
    if family == "contract":
        now = "never" if b.value == 0 else f"in {_percent(b.value, half)} of hands"
        before = "never" if a.value == 0 else f"in {_percent(a.value, half)}"
        if b.value == 0:
            before += " of hands"
        return f"{arg} is bid {amount} {often} ({now}, instead of {before})"
    if family == "made":
        what = arg or "contracts"
        verb = "is" if arg else "are"
        return (f"{what} {verb} made {amount} {often} "
                f"({_percent(b.value, half)} of the time, instead of {_percent(a.value, half)})")
    if family == "strain":
        # As the contracts' own: a strain no longer (or not yet) bid is "never", not "in 0%".
        now = "never" if b.value == 0 else f"in {_percent(b.value, half)} of contracts"
        before = "never" if a.value == 0 else _percent(a.value, half)
        if b.value == 0:
            before = f"in {before} of contracts"
        return f"the contract is {arg} {amount} {often} ({now}, instead of {before})"
    if family == "strain-made":
        return (f"{arg} contracts are made {amount} {often} "
                f"({_percent(b.value, half)} of the time, instead of {_percent(a.value, half)})")
    if family not in _WORDS:
        raise KeyError(key)
    return _words(family, arg, "sentence", amount=amount, often=often, more=more,
                  longer="longer" if up else "shorter")


# --------------------------------------------------------------------------- the reports' data
def simulation_summary(rules: Ruleset, spec: RunSpec, totals: Totals, variant: dict | None = None) -> dict:
    """The figures of a simulation for programs (``simulate --json``), with their words.

    ``variant`` says what was run as the user named it (``{"variant": the full
    description, ...its parts}``, see ``bidwhist simulate``); without it the
    ruleset's own name stands.  The rest is :func:`runtime.metrics.simulation_figures`
    with ``bots_description`` (the bots in words, as the text header says them)
    after ``bots``, on every figure of ``statistics`` a ``label`` and what it is
    counted over (``out_of``, :func:`out_of`), and the ``definitions`` at the end
    (docs/json.md lists every key).
    """
    out = dict(variant or {"variant": rules.name})
    for key, value in metrics.simulation_figures(rules, spec, totals).items():
        if key == "statistics":
            value = {k: {"label": metric_label(k), "out_of": out_of(k), **stat} for k, stat in value.items()}
        out[key] = value
        if key == "bots":
            out["bots_description"] = bots_description(spec.bots)
    out["definitions"] = {"dealer_position": DEALER_POSITION} if spec.mode == "games" else {}
    return out


def _worded(difference: dict) -> dict:
    """A difference of :func:`runtime.metrics.comparison_figures` with its label and, if significant, its sentence."""
    key = difference["metric"]
    sentence = None
    if difference["significant"]:
        a, b, d = (stats.Interval(**difference[part]) for part in ("a", "b", "difference"))
        sentence = difference_sentence(key, a, b, d)
    return {"metric": key, "label": metric_label(key), "out_of": out_of(key),
            **{k: v for k, v in difference.items() if k != "metric"}, "sentence": sentence}


def comparison_summary(rules_a: Ruleset, rules_b: Ruleset, spec: RunSpec, totals: Totals,
                       names: tuple[str | dict, str | dict]) -> dict:
    """The paired differences of a comparison (``b − a``), for programs and for words.

    ``names`` says what A and B are, as the user named them: each a name, or a
    description ``{"variant": the full description, ...its parts}``.  The rest is
    :func:`runtime.metrics.comparison_figures` with ``bots_description`` (the bots
    in words) after ``bots`` and the definitions at the end.

    Each entry of ``differences`` gets its ``label``, its ``out_of`` and, if it is significant,
    the ``sentence`` that says it; ``summary`` lists those sentences and
    ``no_clear_difference`` the figures whose intervals include 0.
    """
    described = [name if isinstance(name, dict) else {"variant": name} for name in names]
    out: dict = {}
    for key, value in metrics.comparison_figures(rules_a, rules_b, spec, totals).items():
        if key in ("a", "b"):
            value = {**described[0 if key == "a" else 1], **value}
        elif key == "differences":
            value = [_worded(d) for d in value]
        out[key] = value
        if key == "bots":
            out["bots_description"] = bots_description(spec.bots)
        elif key == "differences":
            out["summary"] = [d["sentence"] for d in value if d["significant"]]
            # Figures that never occurred under either variant (a contract nobody bid) say nothing.
            out["no_clear_difference"] = [metric_noun(d["metric"]) for d in value
                                          if not d["significant"] and d["difference"]["value"] is not None
                                          and not d["a"]["value"] == d["b"]["value"] == 0]
    out["definitions"] = {"difference": DIFFERENCE,
                          **({"dealer_position": DEALER_POSITION} if spec.mode == "games" else {})}
    return out
