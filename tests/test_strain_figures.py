"""The strain figures of `simulate` and `compare`: each strain's share of the contracts
and its make rate, with 95% intervals.

* the strains are the ladder's own (asked of the ruleset); for a ladder of one strain,
  the kinds its declarers declare (a rank order with a trump suit, or notrump);
* their moment sums are exactly those of per-unit counts made from the played hands
  themselves, in hands mode (counted by outcome) and in games mode (one unit a game);
* ``--json`` adds ``strains`` and the ``strain:``/``strain-made:`` statistics and
  leaves every other field as it was; the text report has a strain table;
* ``compare`` gives them as paired differences, worded as the other figures are.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from bidcompiler.cli.report import difference_sentence, metric_label, metric_noun
from bidcompiler.pipeline import load_ruleset
from clirun import run
from runtime import metrics, stats
from runtime.simulate import RunSpec, play_game, play_hand, run_chunk, run_compare_chunk


@pytest.fixture(scope="module")
def several():
    """A ruleset whose ladder has several strains."""
    return load_ruleset("standard")


@pytest.fixture(scope="module")
def one_strain():
    """A ruleset whose ladder is one bare-number strain."""
    rules = load_ruleset("hawaii")
    assert len(rules.strains) == 1 and rules.strains[0].bare
    return rules


def test_the_strains_are_the_ladders_own_in_its_order(several):
    strains = metrics.strain_ladder(several)
    assert strains.names == tuple(s.name for s in several.strains)
    assert len(strains.names) > 1
    for bid in several.bids:
        assert strains.names[strains.of_contract[bid.text]] == several.strains[bid.strain].name


def test_a_ladder_of_one_strain_has_the_declared_kinds_as_its_strains(one_strain):
    # The bid names no strain: the declarer names a trump suit (played in the one rank
    # order) or notrump, and those kinds are the strain figures.
    strains = metrics.strain_ladder(one_strain)
    assert strains.names == (one_strain.orders[0], "notrump") and not strains.of_contract
    assert set(strains.of_table.values()) == {0, 1}
    spec = RunSpec("hands", 60, 3, ("random",))
    moments = run_chunk(one_strain, spec, 0).moments
    assert {k for k in moments if k.startswith("strain:")} == {f"strain:{n}" for n in strains.names}


def _kind_vectors(rules, states_by_unit):
    """Per unit and declared kind, (contracts of the kind, contracts) and (made, contracts of the
    kind), counted straight from the hands played: notrump, else the rank order played."""
    return _vectors_by(states_by_unit, [*rules.orders, "notrump"],
                       lambda s: "notrump" if s.trump < 0 else rules.orders[s.direction])


def _vectors_by(states_by_unit, names, name_of):
    """Per unit and name of ``names``, (contracts whose ``name_of`` is the name, contracts) and
    (made, contracts of the name), counted straight from the hands played."""
    share = {n: [] for n in names}
    made = {n: [] for n in names}
    for states in states_by_unit:
        contracted = [s for s in states if s.declarer >= 0]
        if not contracted:
            continue  # a unit without a contract has no share to count (n = 0)
        for name in names:
            mine = [s for s in contracted if name_of(s) == name]
            share[name].append((len(mine), len(contracted)))
            if mine:
                made[name].append((sum(1 for s in mine if s.made), len(mine)))
    return share, made


def _run_and_units(rules, mode, count):
    """A chunk's moments for ``count`` hands or games of ``rules`` (seed 5, random bots) and
    the same units played one by one: per unit, the states of its hands."""
    spec = RunSpec(mode, count, 5, ("random",))
    moments = run_chunk(rules, spec, 0).moments
    if mode == "hands":
        return moments, [[play_hand(rules, 5, u, "random")] for u in range(count)]
    return moments, [play_game(rules, 5, u, "random", spec.max_hands).hands for u in range(count)]


@pytest.mark.parametrize("mode, count", [("hands", 300), ("games", 4)])
def test_declared_kind_sums_are_those_of_the_hands_played(one_strain, mode, count):
    moments, units = _run_and_units(one_strain, mode, count)
    share, made = _kind_vectors(one_strain, units)
    assert all(share.values()) and made["notrump"] and made[one_strain.orders[0]]  # both kinds were declared
    for name in share:
        assert moments[f"strain:{name}"] == stats.moments_of(share[name], 2), name
        assert moments[f"strain-made:{name}"] == stats.moments_of(made[name], 2), name


def _unit_vectors(rules, states_by_unit):
    """Per unit and strain, (contracts of the strain, contracts) and (made, contracts of the strain),
    counted straight from the hands played."""
    names = [s.name for s in rules.strains]
    return _vectors_by(states_by_unit, names, lambda s: names[rules.bids[s.bid].strain])


@pytest.mark.parametrize("mode, count", [("hands", 300), ("games", 12)])
def test_strain_sums_are_those_of_the_hands_played(several, mode, count):
    moments, units = _run_and_units(several, mode, count)
    share, made = _unit_vectors(several, units)
    assert sum(len(v) for v in made.values()) > 0
    for name in share:
        assert moments[f"strain:{name}"] == stats.moments_of(share[name], 2), name
        if made[name]:
            assert moments[f"strain-made:{name}"] == stats.moments_of(made[name], 2), name
        else:
            assert f"strain-made:{name}" not in moments
    # The shares add up to every contract, and each strain's trials are its contracts' trials.
    assert sum(moments[f"strain:{n}"].total(0) for n in share) == moments["made"].total(1)
    for name in made:
        if made[name]:
            members = [b.text for b in several.bids if several.strains[b.strain].name == name]
            bid = sum(moments[f"made:{c}"].total(1) for c in members if f"made:{c}" in moments)
            assert moments[f"strain-made:{name}"].total(1) == bid


def test_strains_come_after_the_contracts_in_the_ladders_order(several):
    strains = metrics.strain_names(metrics.strain_ladder(several))
    keys = [f"strain:{n}" for n in reversed(strains)] + ["set", "made:3 uptown", "made", "contract:3 uptown"]
    keys += [f"strain-made:{n}" for n in strains]
    ordered = metrics.metric_order(keys, metrics.ladder(several), strains)
    assert ordered[:3] == ["contract:3 uptown", "made", "made:3 uptown"]
    assert ordered[3:3 + len(strains)] == [f"strain:{n}" for n in strains]
    assert ordered[-1] == "set"


def test_json_has_the_strain_rows_and_the_text_a_strain_table():
    result = run("simulate", "standard", "--hands", "200", "--seed", "2", "--bots", "random", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    rows = data["strains"]
    assert [r["strain"] for r in rows] == ["uptown", "downtown", "notrump"]  # the ladder's strains, in order
    contracted = data["hands"] - data["no_contract"]
    assert sum(r["count"] for r in rows) == contracted
    assert sum(r["share"] for r in rows) == pytest.approx(1)
    for r in rows:
        stat = data["statistics"][f"strain:{r['strain']}"]
        assert r["share"] == stat["value"] == r["count"] / contracted and stat["n"] == contracted
        assert stat["low"] <= stat["value"] <= stat["high"]
        assert stat["label"] == metric_label(f"strain:{r['strain']}")
        if r["count"]:
            made = data["statistics"][f"strain-made:{r['strain']}"]
            assert r["make_rate"] == made["value"] == r["made"] / r["count"] and made["n"] == r["count"]
            assert r["make_rate_interval"]["low"] <= r["make_rate"] <= r["make_rate_interval"]["high"]
    # A contract row's count of a strain adds up to the strain's.
    by_strain = Counter()
    for row in data["contracts"]:
        by_strain[row["contract"].split()[-1]] += row["count"]
    assert {r["strain"]: r["count"] for r in rows if r["count"]} == dict(by_strain)
    text = run("simulate", "standard", "--hands", "200", "--seed", "2", "--bots", "random")
    assert "share of contracts" in text.stdout
    assert text.stdout.count("notrump") >= 3  # 3, 4 ... notrump contracts, then the strain's row


def test_a_ladder_of_one_strain_shows_its_declared_kinds():
    data = json.loads(run("simulate", "hawaii", "--hands", "40", "--seed", "2", "--bots", "random",
                          "--json").stdout)
    rows = data["strains"]
    assert [r["strain"] for r in rows] == ["uptown", "notrump"]
    assert sum(r["count"] for r in rows) == data["hands"] - data["no_contract"]
    assert {k for k in data["statistics"] if k.startswith("strain:")} == {"strain:uptown", "strain:notrump"}
    text = run("simulate", "hawaii", "--hands", "40", "--seed", "2", "--bots", "random")
    assert text.exit_code == 0 and "share of contracts" in text.stdout


def test_compare_pairs_the_strain_figures_on_the_same_units(several):
    b = load_ruleset("standard", with_rules=("min-bid-4",))
    spec = RunSpec("hands", 150, 4, ("random",))
    result = run_compare_chunk(several, b, spec, 0)
    m = result.moments["strain:notrump"]
    # Components a (0, 1) and b (2, 3) are each variant's own sums, as a simulation alone gives them.
    for rules, (y, n) in ((several, (0, 1)), (b, (2, 3))):
        alone = run_chunk(rules, spec, 0).moments["strain:notrump"]
        assert (m.total(y), m.total(n)) == (alone.total(0), alone.total(1))
    data = json.loads(run("compare", "standard", "standard+min-bid-4", "--hands", "150", "--seed", "4",
                          "--bots", "random", "--json").stdout)
    rows = {d["metric"]: d for d in data["differences"]}
    d = rows["strain:notrump"]
    assert d["difference"]["value"] == pytest.approx(d["b"]["value"] - d["a"]["value"])
    assert d["difference"]["low"] <= d["difference"]["value"] <= d["difference"]["high"]
    assert d["label"] == "notrump share of contracts"


def test_strain_differences_in_words():
    a = stats.Interval(0.15, 0.13, 0.17, 1000)
    b = stats.Interval(0.05, 0.04, 0.06, 1000)
    d = stats.Interval(-0.10, -0.12, -0.08, 1000)
    assert difference_sentence("strain:notrump", a, b, d) == (
        "the contract is notrump 10% ± 2% less often (in 5% of contracts, instead of 15%)")
    assert difference_sentence("strain-made:notrump", a, b, d) == (
        "notrump contracts are made 10% ± 2% less often (5% of the time, instead of 15%)")
    # A strain a rule takes off the ladder is never bid, as the contracts' sentences say it.
    zero = stats.Interval(0.0, 0.0, 0.004, 1000)
    gone = stats.Interval(-0.15, -0.17, -0.13, 1000)
    assert difference_sentence("strain:notrump", a, zero, gone) == (
        "the contract is notrump 15% ± 2% less often (never, instead of in 15% of contracts)")
    assert difference_sentence("strain:notrump", zero, a, stats.Interval(0.15, 0.13, 0.17, 1000)) == (
        "the contract is notrump 15% ± 2% more often (in 15% of contracts, instead of never)")
    assert metric_noun("strain:notrump") == "how often the contract is notrump"
    assert metric_label("strain-made:uptown") == "uptown contracts made"
