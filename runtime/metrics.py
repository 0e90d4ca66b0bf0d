"""What a simulation measures: the figures, their observations per unit, and their intervals.

Every figure is a ratio ``sum(y) / sum(n)`` over a run's units (hands or games); its
key names it, and :data:`METRIC_KINDS` says how each family is estimated.  The
driver (:mod:`runtime.simulate`) asks :func:`hands_observation` and
:func:`game_observation` for each unit's ``(y, n)`` and sums them into
:class:`runtime.stats.Moments`; :func:`simulation_figures` and
:func:`comparison_figures` turn the sums into figures with 95% intervals, as plain
data for programs.  Nothing here is worded: the labels and sentences a person
reads are the command line's (``bidcompiler/cli/report.py``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping, Sequence

from . import stats
from .contract import declarations
from .hand import HandState
from .kitty import swept
from .ruleset import NO_TRUMP, Ruleset

if TYPE_CHECKING:  # the driver's types; it imports this module
    from .simulate import GamePlay, RunSpec, Totals

# Every figure is a ratio sum(y) / sum(n) over the run's units; its key names it.
# ``proportion`` figures count events among trials (Wilson intervals), ``mean`` ones
# average a quantity (t intervals).  Keys with a ``:`` carry a contract, side or position.
# The families are listed in the order reports show them (metric_order).
METRIC_KINDS = {
    "contract": "proportion",        # y: hands with this contract, n: hands dealt
    "made": "proportion",            # made:<contract> / made: y made, n contracts
    "strain": "proportion",          # strain:<strain>: y contracts of this strain, n contracts
    "strain-made": "proportion",     # strain-made:<strain>: y made, n contracts of this strain
    "set": "proportion",             # y: contracts set, n: contracts
    "sweep": "proportion",           # y: one side swept (runtime.kitty.swept), n: contracts
    "redeal": "proportion",          # y: hands that ended without a contract, n: hands dealt
    "declarer-points": "mean",       # y: the declaring side's score, n: contracts
    "points": "mean",                # points:<side>: y its score, n: hands dealt
    "length": "mean",                # y: hands in the game (thrown-in hands count), n: 1 per game
    "sets-per-game": "mean",         # y: contracts set in the game, n: 1 per game
    "win": "proportion",             # win:<side>: y 1 if it won the game, n: 1 per game
    "dealer-win": "proportion",      # dealer-win:<position>: the winning side's position from the first dealer
    "unfinished": "proportion",      # y: the game reached the hand limit undecided, n: 1 per game
}


def kind_of(key: str) -> str:
    """``proportion`` or ``mean``: how a figure is estimated."""
    return METRIC_KINDS[key.split(":", 1)[0]]


def metric_order(keys, contracts: Sequence[str], strains: Sequence[str] = ()) -> list[str]:
    """``keys`` in the order reports show them: contracts in ladder order, strains in
    the variant's order (``strains``: their names), then the rest."""
    rank = {c: i for i, c in enumerate(contracts)}
    strain_rank = {s: i for i, s in enumerate(strains)}
    families = tuple(METRIC_KINDS)  # listed there in report order

    def order(key):
        family, _, arg = key.partition(":")
        if family in ("contract", "made") and arg:
            sub = (rank.get(arg, len(rank)), arg)
        elif family in ("strain", "strain-made"):
            sub = (strain_rank.get(arg, len(strain_rank)), arg)
        elif arg:
            sub = (int(arg), "")
        else:
            sub = (-1, "")
        return (families.index(family), sub)

    return sorted(keys, key=order)


def ladder(rules: Ruleset) -> list[str]:
    """The contracts of a variant's bid ladder, lowest first (names as bid)."""
    return [b.text for b in rules.bids]


# The declared kind of a contract without trumps (the word kitty.show's contracts use).
NOTRUMP_KIND = "notrump"


@dataclass(frozen=True)
class Strains:
    """A ladder's strains, for the strain figures: their names in the ladder's order,
    each contract's strain, and the figures' keys, made once per run (a unit only
    looks them up).

    For a ladder of one strain (the bid names none) the figures are of the kinds the
    declarers declare instead (:meth:`declared`): ``of_table`` then gives each contract's
    kind from its play table, ``(trump, direction)``, and ``of_contract`` is empty.
    """

    names: tuple[str, ...]
    of_contract: Mapping[str, int]  # contract as bid -> index in names
    share_keys: tuple[str, ...]     # strain:<name>
    made_keys: tuple[str, ...]      # strain-made:<name>
    of_table: Mapping[tuple[int, int], int] | None = None  # (trump, direction) -> index in names

    @classmethod
    def of(cls, rules: Ruleset) -> Strains:
        """The strains of ``rules``' ladder."""
        names = tuple(strain.name for strain in rules.strains)
        return cls(names, {b.text: b.strain for b in rules.bids},
                   tuple(f"strain:{n}" for n in names), tuple(f"strain-made:{n}" for n in names))

    @classmethod
    def declared(cls, rules: Ruleset) -> Strains:
        """The kinds of contract ``rules``' declarers may declare: each rank order played
        with a trump suit (by its name), then ``notrump`` (either order), in the order
        the declarations list their play tables."""
        kinds: dict[str, int] = {}
        of_table: dict[tuple[int, int], int] = {}
        for decl in declarations(rules):
            for trump, direction in decl.contract_keys(rules):
                kind = NOTRUMP_KIND if trump == NO_TRUMP else rules.orders[direction]
                of_table[(trump, direction)] = kinds.setdefault(kind, len(kinds))
        names = tuple(kinds)
        return cls(names, {}, tuple(f"strain:{n}" for n in names), tuple(f"strain-made:{n}" for n in names),
                   of_table)

    def of_hand(self, state: HandState) -> int:
        """The index in ``names`` of a contracted hand's strain (or declared kind)."""
        if self.of_table is not None:
            return self.of_table[(state.trump, state.direction)]
        return self.of_contract[state.rules.bids[state.bid].text]


def strain_ladder(rules: Ruleset) -> Strains | None:
    """The strains of a variant's ladder (:class:`Strains`); for a ladder of one strain
    (one bare number, say), where every contract is of that strain, the kinds its
    declarers declare (:meth:`Strains.declared`); None where there are fewer than two
    of those too: one share of every contract says nothing."""
    if len(rules.strains) > 1:
        return Strains.of(rules)
    declared = Strains.declared(rules)
    return declared if len(declared.names) > 1 else None


def strain_names(strains: Strains | None) -> list[str]:
    """The names of a :func:`strain_ladder`'s strains, in its order (none for None)."""
    return list(strains.names) if strains else []


# --------------------------------------------------------------------------- observations
def _count(obs: dict, key: str, y: int) -> None:
    """Add one trial with value ``y`` to figure ``key`` of an observation (key -> [y, n])."""
    entry = obs.setdefault(key, [0, 0])
    entry[0] += y
    entry[1] += 1


def add_strains(obs: dict, strains: Strains, in_strain: Sequence[int], made: Sequence[int]) -> None:
    """Add each strain's figures to a unit's observation, from its contracts of each strain.

    ``in_strain[s]`` counts the unit's contracts of strain ``s`` (:meth:`Strains.of_hand`),
    ``made[s]`` those made; ``obs`` holds the unit's ``made`` already.  ``strain:<name>``
    counts the unit's contracts of the strain among all its contracts (every strain, bid
    or not: a share of zero is a figure); ``strain-made:<name>`` those made among them
    (only where the strain was bid, as ``made:<contract>``).  Once per unit (or per
    distinct hand outcome).
    """
    contracted = obs.get("made", (0, 0))[1]
    if not contracted:
        return
    for s, key in enumerate(strains.share_keys):
        obs[key] = [in_strain[s], contracted]
        if in_strain[s]:
            obs[strains.made_keys[s]] = [made[s], in_strain[s]]


def hands_observation(obs: dict, states: Sequence[HandState], contracts: Sequence[str],
                      strains: Strains | None = None) -> None:
    """Add the hand-level figures of one unit's hands to ``obs`` (key -> [y, n]);
    ``strains`` (:func:`strain_ladder`) adds the strains' figures (:func:`add_strains`)."""
    # _count written out: this runs for every hand of a simulation, a dozen figures each.
    counts: Counter = Counter()
    thrown_in = 0
    rules = states[0].rules if states else None
    get = obs.get
    in_strain = [0] * len(strains.names) if strains else []
    made_in_strain = list(in_strain)
    for state in states:
        score = state.score
        for side, points in enumerate(score):
            key = f"points:{side}"
            entry = get(key)
            if entry is None:
                obs[key] = [points, 1]
            else:
                entry[0] += points
                entry[1] += 1
        if state.declarer < 0:
            thrown_in += 1
            continue
        name = rules.bids[state.bid].text
        counts[name] += 1
        made = 1 if state.made else 0
        if strains:
            s = strains.of_hand(state)
            in_strain[s] += 1
            made_in_strain[s] += made
        for key, y in ((f"made:{name}", made), ("made", made), ("set", 1 - made),
                       ("sweep", 1 if any(swept(rules, state.books, rules.side_of[state.declarer])) else 0),
                       ("declarer-points", score[rules.side_of[state.declarer]])):
            entry = get(key)
            if entry is None:
                obs[key] = [y, 1]
            else:
                entry[0] += y
                entry[1] += 1
    hands = len(states)
    # Every contract of the ladder gets its share, bid or not: a share of zero is a figure.
    for name in contracts:
        obs[f"contract:{name}"] = [counts.get(name, 0), hands]
    obs["redeal"] = [thrown_in, hands]
    if strains:
        add_strains(obs, strains, in_strain, made_in_strain)


def hand_outcome(state: HandState, strains: Strains | None = None) -> tuple:
    """What the hand-level figures read of a finished hand, as one hashable value.

    ``(score, bid, made, sweep, declarer's points, strain)`` (bid -1 and the rest None
    for a hand without a contract): two hands with the same outcome give the same
    observation, so :func:`add_hand_outcomes` can count many one-hand units at once.
    ``strain`` is the index of the declared kind where ``strains`` is one
    (:meth:`Strains.declared`: the bid does not say it), else None.
    """
    return outcome_of(state.rules, hand_key(state), strains)


def hand_key(state: HandState) -> tuple:
    """The facts of a finished hand that :func:`hand_outcome` is worked out from, as one hashable value.

    Cheap to take (no rule is asked): the simulation driver counts its hands by this
    key and works out each distinct key's :func:`outcome_of` once, not once a hand.
    """
    return (tuple(state.score), state.declarer, state.bid, state.made, tuple(state.books),
            state.trump, state.direction)


def outcome_of(rules: Ruleset, key: tuple, strains: Strains | None = None) -> tuple:
    """:func:`hand_outcome` of a hand of ``rules`` whose :func:`hand_key` is ``key``."""
    score, declarer, bid, made, books, trump, direction = key
    if declarer < 0:
        return (score, -1, None, None, None, None)
    side = rules.side_of[declarer]
    kind = strains.of_table[(trump, direction)] if strains is not None and strains.of_table is not None else None
    return (score, bid, 1 if made else 0, 1 if any(swept(rules, list(books), side)) else 0, score[side], kind)


def add_hand_outcomes(moments: dict[str, stats.Moments], histogram: Counter, outcomes: Counter,
                      rules: Ruleset, contracts: Sequence[str],
                      strains: Strains | None = None, rows_memo: dict | None = None) -> None:
    """Count one-hand units by their :func:`hand_outcome`: each outcome's observation ``count`` times.

    The same sums as :func:`hands_observation` of each hand, then :func:`add_moments`
    of each figure, then the declarer's points into ``histogram`` (integer sums: equal
    exactly), with one observation built per distinct outcome instead of per hand —
    the simulation driver's hands mode, where most hands repeat an earlier outcome.
    ``rows_memo`` (outcome -> :func:`outcome_rows`), where given, keeps each outcome's
    figures across calls: the caller's to keep, for one ``rules``, ``contracts`` and
    ``strains`` only (the driver keeps one per ruleset: the same outcomes recur in every
    chunk, and building their figures was most of a chunk's bookkeeping).
    """
    for outcome, count in outcomes.items():
        rows = rows_memo.get(outcome) if rows_memo is not None else None
        if rows is None:
            rows = outcome_rows(rules, outcome, contracts, strains)
            if rows_memo is not None and len(rows_memo) < _ROWS_MEMO_CAP:
                rows_memo[outcome] = rows
        if outcome[1] >= 0:  # a contract: its declarer's points
            histogram[outcome[4]] += count
        for key, y, n, yy, yn, nn in rows:  # Moments.add_times of (y, n), written out
            m = moments.get(key)
            if m is None:
                m = moments[key] = stats.Moments(2)
            sums = m.sums
            sums[0] += y * count
            sums[1] += n * count
            sums[2] += yy * count
            sums[3] += yn * count
            sums[4] += nn * count


# A bound on the outcomes an add_hand_outcomes memo keeps (a few hundred in any variant).
_ROWS_MEMO_CAP = 50_000


def outcome_rows(rules: Ruleset, outcome: tuple, contracts: Sequence[str],
                 strains: Strains | None = None) -> tuple[tuple, ...]:
    """The figures one hand of :func:`hand_outcome` ``outcome`` adds, in the order a unit's
    observation lists them: ``(key, y, n, y * y, y * n, n * n)`` each (the products
    :class:`runtime.stats.Moments` sums)."""
    score, bid, made, sweep, declarer_points, kind = outcome
    bids = rules.bids
    obs: dict[str, list[int]] = {}
    for side, points in enumerate(score):
        obs[f"points:{side}"] = [points, 1]
    if bid >= 0:
        name = bids[bid].text
        for key, y in ((f"made:{name}", made), ("made", made), ("set", 1 - made), ("sweep", sweep),
                       ("declarer-points", declarer_points)):
            obs[key] = [y, 1]
    for name in contracts:
        obs[f"contract:{name}"] = [1 if bid >= 0 and bids[bid].text == name else 0, 1]
    obs["redeal"] = [1 if bid < 0 else 0, 1]
    if strains and bid >= 0:
        s = kind if kind is not None else strains.of_contract[bids[bid].text]
        one = [0] * len(strains.names)
        one[s] = 1
        add_strains(obs, strains, one, [made * x for x in one])
    return tuple((key, y, n, y * y, y * n, n * n) for key, (y, n) in obs.items())


def game_observation(obs: dict, play: GamePlay) -> None:
    """Add the game-level figures of one game to ``obs``."""
    rules = play.tally.rules
    obs["length"] = [len(play.hands), 1]
    obs["sets-per-game"] = [sum(1 for s in play.hands if s.made is False), 1]
    winner = play.winner
    position = None
    if winner is not None:
        position = min((s - play.first_dealer) % rules.players
                       for s in range(rules.players) if rules.side_of[s] == winner)
    for side in range(rules.sides):
        obs[f"win:{side}"] = [1 if side == winner else 0, 1]
    # A side's position is the smallest offset of its seats from the first dealer;
    # sides sit interleaved around the table, so the positions are 0 .. sides - 1.
    for p in range(rules.sides):
        obs[f"dealer-win:{p}"] = [1 if position == p else 0, 1]
    obs["unfinished"] = [1 if winner is None else 0, 1]


def add_moments(moments: dict[str, stats.Moments], key: str, vector: tuple[int, ...]) -> None:
    """Count one unit's vector of figure ``key``, starting its sums the first time the figure is seen."""
    m = moments.get(key)
    if m is None:
        m = moments[key] = stats.Moments(len(vector))
    m.add(vector)


# --------------------------------------------------------------------------- intervals
def interval(units: int, m: stats.Moments, kind: str, y: int = 0, n: int = 1) -> stats.Interval:
    """A figure's estimate and 95% interval from its sums (components ``y`` and ``n`` of ``m``)."""
    if kind == "proportion":
        return stats.ratio_proportion_interval(m, y, n)
    return stats.ratio_interval(units, m, y, n)


def difference(units: int, m: stats.Moments, kind: str) -> stats.Interval:
    """The paired difference b − a of a figure (components 0, 1 for a; 2, 3 for b), as :func:`interval` estimates it."""
    if kind == "proportion":
        return stats.paired_proportion_ratio_difference(units, m)
    return stats.paired_ratio_difference(units, m)


def histogram_json(hist: Counter | None) -> dict:
    """A histogram as ``{value: count}`` in increasing order of value (keys as strings, for JSON)."""
    return {str(k): hist[k] for k in sorted(hist)} if hist else {}


def same_deals(rules_a: Ruleset, rules_b: Ruleset) -> bool:
    """Whether a seed deals the same cards under both variants: the same deck, players,
    hand size and kitty.  (Otherwise a comparison still draws both from the same seeds,
    but the cards differ.)"""
    return (rules_a.deck() == rules_b.deck() and rules_a.players == rules_b.players
            and rules_a.hand_size == rules_b.hand_size and rules_a.kitty_size == rules_b.kitty_size)


# --------------------------------------------------------------------------- the figures
def _bare(stat: dict) -> dict:
    return {k: stat[k] for k in ("value", "low", "high", "n")}


def simulation_figures(rules: Ruleset, spec: RunSpec, totals: Totals) -> dict:
    """The figures of a simulation as plain data, without words.

    ``statistics`` holds every figure as ``{kind, value, low, high, n}`` in report
    order; beside it are the plain figures of earlier versions (``contracts``,
    ``make_rate``, ``mean_score``, ``mean_declarer_score``, ``no_contract``), the
    ``strains`` (:func:`strain_rows`) and the ``distributions``.  ``bots`` is the bot
    kind of each seat.  The command line's report adds the labels and definitions (``bidcompiler/cli/report.py``).
    """
    from .simulate import seat_bots  # the driver imports this module

    m = totals.moments
    contracts = ladder(rules)
    strains = strain_ladder(rules)
    keys = metric_order(m, contracts, strain_names(strains))
    statistics = {k: {"kind": kind_of(k), **interval(totals.units, m[k], kind_of(k)).as_json()} for k in keys}
    hands = totals.hands[0]

    def count(key):
        return m[key].total(0) if key in m else 0

    rows = []
    for name in contracts:
        n = count(f"contract:{name}")
        if not n:
            continue
        made = count(f"made:{name}")
        rows.append({"contract": name, "count": n, "share": n / hands, "made": made, "make_rate": made / n,
                     "share_interval": _bare(statistics[f"contract:{name}"]),
                     "make_rate_interval": _bare(statistics[f"made:{name}"])})
    contracted = m["made"].total(1) if "made" in m else 0
    return {
        "mode": spec.mode,
        "seed": spec.seed,
        "bots": list(seat_bots(rules, spec.bots)),
        "games": totals.units if spec.mode == "games" else None,
        "hands": hands,
        "max_hands": spec.max_hands if spec.mode == "games" else None,
        "no_contract": count("redeal"),
        "contracts": rows,
        "strains": strain_rows(strains, m, statistics),
        "make_rate": (count("made") / contracted) if contracted else None,
        "mean_score": [m[f"points:{s}"].total(0) / hands for s in range(rules.sides)],
        "mean_declarer_score": (count("declarer-points") / contracted) if contracted else None,
        "statistics": statistics,
        "distributions": {
            "declarer_points": histogram_json(totals.histograms.get("declarer-points")),
            "game_length": histogram_json(totals.histograms.get("length")),
        },
    }


def strain_rows(strains: Strains | None, m: dict[str, stats.Moments],
                statistics: dict) -> list[dict]:
    """Each strain's contracts, share of contracts and make rate, as ``simulate --json``'s ``strains``.

    One row per strain of :func:`strain_ladder` (per declared kind for a ladder of one strain),
    bid or not (a share of zero is a figure): ``{strain, count, share, made,
    make_rate, share_interval, make_rate_interval}``; the make rate and its
    interval are None for a strain never bid, and the list is empty where no hand
    had a contract.
    """
    rows: list[dict] = []
    for name in strain_names(strains):
        share = statistics.get(f"strain:{name}")
        if share is None:
            continue
        made_key = f"strain-made:{name}"
        count = m[made_key].total(1) if made_key in m else 0
        made = m[made_key].total(0) if made_key in m else 0
        rows.append({"strain": name, "count": count, "share": share["value"], "made": made,
                     "make_rate": made / count if count else None, "share_interval": _bare(share),
                     "make_rate_interval": _bare(statistics[made_key]) if count else None})
    return rows


def comparison_figures(rules_a: Ruleset, rules_b: Ruleset, spec: RunSpec, totals: Totals) -> dict:
    """The paired differences of a comparison (``b − a``) as plain data, without words.

    Each entry of ``differences`` holds the figure's key (``metric``), its kind,
    both variants' figures, the difference with its interval and whether it is
    significant (the interval excludes 0).  ``bots`` are the kinds as given (one
    for every seat, or one per side).  The command line's report adds the labels,
    the sentences and what A and B were (``bidcompiler/cli/report.py``).
    """
    contracts = list(dict.fromkeys(ladder(rules_a) + ladder(rules_b)))
    strains = list(dict.fromkeys(strain_names(strain_ladder(rules_a)) + strain_names(strain_ladder(rules_b))))
    units = totals.units
    differences = []
    for key in metric_order(totals.moments, contracts, strains):
        m = totals.moments[key]
        kind = kind_of(key)
        a = interval(units, m, kind, 0, 1)
        b = interval(units, m, kind, 2, 3)
        d = difference(units, m, kind)
        differences.append({
            "metric": key, "kind": kind,
            "a": a.as_json(), "b": b.as_json(), "difference": d.as_json(),
            "significant": d.value is not None and d.significant,
        })
    return {
        "a": {"hands": totals.hands[0]},
        "b": {"hands": totals.hands[1]},
        "mode": spec.mode,
        "seed": spec.seed,
        "bots": list(spec.bots),
        "games": units if spec.mode == "games" else None,
        "hands": units if spec.mode == "hands" else None,
        "max_hands": spec.max_hands if spec.mode == "games" else None,
        "same_deals": same_deals(rules_a, rules_b),
        "differences": differences,
        "distributions": {
            side: {"declarer_points": histogram_json(totals.histograms.get(f"{side}:declarer-points")),
                   "game_length": histogram_json(totals.histograms.get(f"{side}:length"))}
            for side in ("a", "b")
        },
    }
