"""`bidwhist simulate`: statistics, games, records, workers, backends, plots, usage errors.

* ``runtime.stats`` against values computed by hand (and published tables);
* the report's JSON keys, and that ``--json`` is all of stdout while progress goes
  to stderr;
* the same result for ``--workers 1, 2, 3`` and on a Dask ``LocalCluster``, records
  included;
* records of games replay to the games the simulation played — one file holding
  every game, and one game record per file with ``{game}``, through the real
  ``bidwhist replay``;
* ``--plot`` writes a PNG, and says what to install when matplotlib is missing;
* bad arguments exit with status 2.
"""

from __future__ import annotations

import json
import math
import sys

import pytest

from bidcompiler.pipeline import load_ruleset
from clirun import run
from runtime import bots as bot_registry
from runtime import stats
from runtime.records import replay_game, replay_hand
from runtime.simulate import RunSpec, combine, play_game, play_hand, run_chunk
from bidcompiler.cli.replay import resolve_for_records

PNG = b"\x89PNG\r\n\x1a\n"
BOTS = "heuristic" if "heuristic" in bot_registry.BOTS else "random"


def close(a, b, tol=1e-4):
    return a is not None and b is not None and abs(a - b) <= tol


# --------------------------------------------------------------------------- stats by hand
def test_mean_interval_by_hand():
    iv = stats.mean_interval([1, 2, 3, 4, 5])
    # mean 3, s = sqrt(2.5), se = s / sqrt(5) = 0.70711, t(4) = 2.776445 -> ± 1.96324
    assert iv.value == 3 and iv.n == 5
    assert close(iv.low, 1.03676) and close(iv.high, 4.96324)
    assert stats.mean_interval([]).value is None
    single = stats.mean_interval([7])
    assert single.value == 7 and single.low is None and single.high is None


def test_t_quantiles_match_tables():
    for df, value in [(1, 12.7062), (4, 2.7764), (10, 2.2281), (11, 2.2010), (20, 2.0860),
                      (30, 2.0423), (100, 1.9840), (10**6, 1.9600)]:
        assert close(stats.t975(df), value), (df, stats.t975(df))


def test_wilson_by_hand():
    iv = stats.wilson(3, 10)  # the classic example: 0.1078 to 0.6032
    assert iv.value == 0.3 and close(iv.low, 0.10779) and close(iv.high, 0.60322)
    zero = stats.wilson(0, 10)  # upper bound z^2 / (n + z^2)
    z2 = stats.Z95 ** 2
    assert zero.low == 0 and close(zero.high, z2 / (10 + z2))
    full = stats.wilson(10, 10)
    assert full.high == 1 and close(full.low, 10 / (10 + z2))
    assert stats.wilson(0, 0).value is None


def test_paired_differences_by_hand():
    d = stats.paired_mean_difference([5, 7, 9], [4, 5, 6])
    # differences 1, 2, 3: mean 2, s = 1, se = 0.57735, t(2) = 4.302653 -> ± 2.48414
    assert d.value == 2 and close(d.low, -0.48414) and close(d.high, 4.48414)
    xs = [1, 1, 1, 0, 0, 1, 0, 1, 1, 0]
    ys = [1, 0, 0, 0, 1, 0, 0, 1, 0, 0]
    p = stats.paired_proportion_difference(xs, ys)
    # b = 4 (x only), c = 1 (y only): d = 0.3, se = sqrt(4 + 1 - 0.9) / 10 = 0.202485
    assert close(p.value, 0.3) and close(p.low, 0.3 - 1.959964 * 0.202485) and close(p.high, 0.3 + 0.396861)
    with pytest.raises(ValueError):
        stats.paired_proportion_difference([0, 2], [0, 1])


def test_significance_is_an_interval_that_excludes_zero():
    assert stats.significant(stats.Interval(0.1, 0.05, 0.2, 10))
    assert stats.significant(stats.Interval(-0.3, -0.5, -0.1, 10))
    assert not stats.significant(stats.Interval(0.1, -0.01, 0.2, 10))
    assert not stats.significant(stats.Interval(0.0, 0.0, 0.0, 10))  # identical runs
    assert not stats.significant(stats.Interval(None, None, None, 0))


def test_ratio_of_clusters_by_hand():
    # Three games with (points, hands) = (2, 4), (3, 5), (1, 3): R = 6/12 = 0.5;
    # residuals y - R n = 0, 0.5, -0.5; var = 3/2 * 0.5 / 12^2; t(2) = 4.302653.
    m = stats.moments_of([(2, 4), (3, 5), (1, 3)], 2)
    iv = stats.ratio_interval(3, m)
    half = 4.302653 * math.sqrt(1.5 * 0.5 / 144)
    assert iv.value == 0.5 and iv.n == 12 and close(iv.low, 0.5 - half) and close(iv.high, 0.5 + half)


def test_moment_forms_reduce_to_the_textbook_ones_with_one_trial_per_unit():
    xs, ys = [3, -1, 4, 1, -5, 9, 2, 6], [2, 7, -1, 8, 2, 8, 1, 8]
    m = stats.moments_of([(x, 1) for x in xs], 2)
    ratio, mean = stats.ratio_interval(len(xs), m), stats.mean_interval(xs)
    assert ratio.n == mean.n and all(close(getattr(ratio, k), getattr(mean, k), 1e-9) for k in ("value", "low", "high"))
    paired = stats.moments_of([(y, 1, x, 1) for x, y in zip(xs, ys)], 4)
    d = stats.paired_ratio_difference(len(xs), paired)  # b - a = x - y
    ref = stats.paired_mean_difference(xs, ys)
    assert close(d.value, ref.value, 1e-9) and close(d.low, ref.low, 1e-9) and close(d.high, ref.high, 1e-9)
    flags = [(1, 1), (0, 1), (1, 1), (1, 1)]
    assert stats.ratio_proportion_interval(stats.moments_of(flags, 2)) == stats.wilson(3, 4)


def test_units_without_the_figure_do_not_count_towards_its_interval():
    # Hand by hand, points per contract over 5 hands of which 2 were thrown in: the t
    # interval of the 3 contracts' points (2 degrees of freedom), not of 5 units.
    vectors = [(5, 1), (0, 0), (3, 1), (0, 0), (-2, 1)]
    iv, ref = stats.ratio_interval(5, stats.moments_of(vectors, 2)), stats.mean_interval([5, 3, -2])
    assert iv.value == ref.value and close(iv.low, ref.low, 1e-12) and close(iv.high, ref.high, 1e-12)
    one = stats.ratio_interval(2, stats.moments_of([(-6, 1), (0, 0)], 2))  # one contract: no interval
    assert one.value == -6 and one.low is None and one.high is None


def newcombe_paired(a: int, b: int, c: int, d: int) -> tuple[float, float]:
    """Newcombe (1998) method 10 for P(y) − P(x) from a 2×2 table of paired 0/1 results,
    written out independently: a = both, b = x only, c = y only, d = neither."""
    n = a + b + c + d
    x, y = stats.wilson(a + b, n), stats.wilson(a + c, n)
    margins = (a + b) * (c + d) * (a + c) * (b + d)
    phi = (a * d - b * c) / math.sqrt(margins) if margins else 0.0
    diff = y.value - x.value
    low = diff - math.sqrt((y.value - y.low) ** 2 - 2 * phi * (y.value - y.low) * (x.high - x.value)
                           + (x.high - x.value) ** 2)
    high = diff + math.sqrt((y.high - y.value) ** 2 - 2 * phi * (y.high - y.value) * (x.value - x.low)
                            + (x.value - x.low) ** 2)
    return low, high


@pytest.mark.parametrize("table", [(12, 5, 1, 22), (0, 3, 0, 0), (40, 9, 2, 149), (1, 0, 2, 97), (5, 5, 5, 5)])
def test_paired_proportions_by_hand_are_newcombes_interval(table):
    a, b, c, d = table
    units = [(1, 1)] * a + [(1, 0)] * b + [(0, 1)] * c + [(0, 0)] * d  # (x, y) per hand
    m = stats.moments_of([(x, 1, y, 1) for x, y in units], 4)
    got = stats.paired_proportion_ratio_difference(len(units), m)
    low, high = newcombe_paired(a, b, c, d)
    assert close(got.value, (c - b) / len(units), 1e-12)
    assert close(got.low, low, 1e-9) and close(got.high, high, 1e-9)


def test_paired_proportions_of_rare_events_are_not_overconfident():
    # A contract bid once under A (made) and three times under B (made once), among
    # 150 games: the Wald interval called this significant and went below -100 points.
    vectors = [(1, 1, 0, 0), (0, 0, 1, 1), (0, 0, 0, 1), (0, 0, 0, 1)] + [(0, 0, 0, 0)] * 146
    d = stats.paired_proportion_ratio_difference(150, stats.moments_of(vectors, 4))
    assert close(d.value, 1 / 3 - 1) and not d.significant and -1 <= d.low <= d.high <= 1
    # Three hands, a contract bid in all of them under A and in none under B: sure of
    # a drop, but not to ±0.
    d = stats.paired_proportion_ratio_difference(3, stats.moments_of([(1, 1, 0, 1)] * 3, 4))
    assert d.value == -1 and d.low == -1 and -0.5 < d.high < -0.1
    # The same events in every unit: no difference, with no spread.
    same = stats.paired_proportion_ratio_difference(4, stats.moments_of([(1, 2, 1, 2), (0, 1, 0, 1)] * 2, 4))
    assert (same.value, same.low, same.high) == (0, 0, 0)


def test_identical_sides_give_exactly_zero_width_for_means():
    vectors = [(y, n, y, n) for y, n in [(7, 3), (-4, 2), (11, 4), (0, 1), (3, 3)]]
    d = stats.paired_ratio_difference(5, stats.moments_of(vectors, 4))
    assert (d.value, d.low, d.high) == (0, 0, 0)


def test_moments_merge_exactly_in_any_order():
    vectors = [(i % 7 - 3, i % 3 + 1, i % 5, 1) for i in range(40)]
    forward, backward = stats.Moments(4), stats.Moments(4)
    for part in (vectors[:13], vectors[13:29], vectors[29:]):
        forward.merge(stats.moments_of(part, 4))
    for part in (vectors[29:], vectors[:13], vectors[13:29]):
        backward.merge(stats.moments_of(part, 4))
    assert forward == backward == stats.moments_of(vectors, 4)
    assert forward.product(2, 3) == sum(v[2] * v[3] for v in vectors)


# --------------------------------------------------------------------------- the report
def test_games_report_json_keys_and_clean_stdout():
    result = run("simulate", "standard", "--games", "20", "--seed", "11", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)  # the whole of stdout is one JSON document
    assert result.stderr == ""  # the seed was given and the run is short: nothing to say
    assert data["mode"] == "games" and data["games"] == 20 and data["seed"] == 11
    assert data["bots"] == [BOTS] * 4 and data["variant"] == "standard"
    assert data["hands"] == sum(int(k) * v for k, v in data["distributions"]["game_length"].items())
    figures = data["statistics"]
    for key in ("made", "set", "sweep", "redeal", "declarer-points", "points:0", "points:1", "length",
                "sets-per-game", "win:0", "win:1", "dealer-win:0", "dealer-win:1", "unfinished",
                "contract:4 notrump"):
        assert key in figures, key
    # Each figure says what it is counted over, and its n is that many.
    contracted = data["hands"] - data["no_contract"]
    counts = {"hands": data["hands"], "contracts": contracted, "games": 20}
    counts.update({f"{row['contract']} contracts": row["count"] for row in data["contracts"]})
    counts.update({f"{row['strain']} contracts": row["count"] for row in data["strains"]})
    for key, stat in figures.items():
        assert set(stat) == {"label", "out_of", "kind", "value", "low", "high", "n"}, key
        if stat["n"]:
            assert stat["n"] == counts[stat["out_of"]], key
        if stat["value"] is not None and stat["low"] is not None:
            assert stat["low"] <= stat["value"] <= stat["high"], key
    assert figures["length"]["n"] == 20 and figures["made"]["n"] == data["hands"] - data["no_contract"]
    assert figures["win:0"]["value"] + figures["win:1"]["value"] + figures["unfinished"]["value"] == pytest.approx(1)
    assert figures["dealer-win:0"]["value"] + figures["dealer-win:1"]["value"] == pytest.approx(
        figures["win:0"]["value"] + figures["win:1"]["value"])
    assert sum(r["count"] for r in data["contracts"]) + data["no_contract"] == data["hands"]
    assert "dealer_position" in data["definitions"]
    text = run("simulate", "standard", "--games", "20", "--seed", "11")
    assert text.exit_code == 0
    for words in ("20 games", "hands per game", "first dealer's side wins", "mean score", "contracts made"):
        assert words in text.stdout
    # Both say who the first dealer is, a rubber's where the variant plays rubbers (was: the text
    # left that out, from a second copy of the definition).
    who = "the seat that dealt the game's first hand (a rubber's first hand where the variant plays rubbers)"
    assert who in data["definitions"]["dealer_position"] and who in " ".join(text.stdout.split())


def test_progress_goes_to_stderr_only():
    # rich draws its bar (TERM=dumb, as some CI runners set it, would stop it drawing any)
    env = {"FORCE_COLOR": "1", "TTY_COMPATIBLE": "1", "TTY_INTERACTIVE": "1", "TERM": "xterm-256color"}
    result = run("simulate", "standard", "--hands", "600", "--seed", "4", "--json", env=env)
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["hands"] == 600
    assert "simulating" in result.stderr


@pytest.mark.parametrize("amount", [("--games", "3"), ("--hands", "40")])
def test_default_bots_are_heuristic_in_both_modes_and_the_header_says_so(amount):
    data = json.loads(run("simulate", "standard", *amount, "--seed", "1", "--json").stdout)
    assert data["bots"] == ["heuristic"] * 4 and data["bots_description"] == "heuristic"
    text = run("simulate", "standard", *amount, "--seed", "1")
    assert text.exit_code == 0
    header = text.stdout.splitlines()[0]
    assert header.startswith("standard: ") and "seed 1, bots: heuristic;" in header, header


def test_random_bots_still_play_when_asked():
    data = json.loads(run("simulate", "standard", "--hands", "40", "--seed", "1", "--bots", "random", "--json").stdout)
    assert data["bots"] == ["random"] * 4 and data["bots_description"] == "random"
    header = run("simulate", "standard", "--hands", "40", "--seed", "1", "--bots", "random").stdout.splitlines()[0]
    assert "bots: random;" in header
    # and they are not the heuristic bots: the same deals are bid and played otherwise
    default = json.loads(run("simulate", "standard", "--hands", "40", "--seed", "1", "--json").stdout)
    assert default["statistics"] != data["statistics"]


@pytest.mark.parametrize("amount", [("--games", "3"), ("--hands", "5")])
def test_default_bots_fall_back_to_random_with_a_note(monkeypatch, amount):
    monkeypatch.setattr(bot_registry, "BOTS", {"random": bot_registry.BOTS["random"]})
    result = run("simulate", "standard", *amount, "--seed", "1", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["bots"] == ["random"] * 4
    assert "heuristic bots are not available" in result.stderr


# A spec with house rules after + and with --with, and two --set (one needing quotes).
NAMED = ("standard+min-bid-4", "--with", "to-5", "--set", "auction.levels.from=4",
         "--set", "scoring.declarer=if made then base else 2 * base")
NAMED_TEXT = ("standard+min-bid-4+to-5 --set auction.levels.from=4 "
              "--set 'scoring.declarer=if made then base else 2 * base'")


def test_the_header_names_the_variant_as_given_house_rules_in_order_and_every_set():
    data = json.loads(run("simulate", *NAMED, "--hands", "30", "--seed", "3", "--json").stdout)
    assert data["variant"] == NAMED_TEXT
    assert data["base"] == "standard" and data["with"] == ["min-bid-4", "to-5"]
    assert data["set"] == ["auction.levels.from=4", "scoring.declarer=if made then base else 2 * base"]
    text = run("simulate", *NAMED, "--hands", "30", "--seed", "3")
    assert text.stdout.splitlines()[0].startswith(NAMED_TEXT + ": 30 hands, seed 3, bots: heuristic;")


@pytest.mark.parametrize("args, named", [
    (("standard",), "standard"),
    (("standard", "--with", "to-5", "--with", "min-bid-4"), "standard+to-5+min-bid-4"),
    (("standard+to-5", "--with", "min-bid-4"), "standard+to-5+min-bid-4"),
    (("standard", "--set", "auction.levels.from=4"), "standard --set auction.levels.from=4"),
])
def test_different_runs_have_different_headers(args, named):
    result = run("simulate", *args, "--hands", "10", "--seed", "3")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0].startswith(named + ": 10 hands"), result.stdout.splitlines()[0]


def test_a_house_rule_file_is_named_as_given(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.whist").write_text('house-rule mine\ndescription "to 5"\ngame { win = score >= 5 }\n',
                                          encoding="utf-8")
    data = json.loads(run("simulate", "standard+mine.whist", "--with", "min-bid-4", "--hands", "10", "--seed", "3",
                          "--json").stdout)
    assert data["variant"] == "standard+mine.whist+min-bid-4" and data["with"] == ["mine.whist", "min-bid-4"]


def test_per_side_bots_are_said_by_side():
    result = run("simulate", "standard", "--hands", "20", "--seed", "2", "--bots", "heuristic,random")
    assert "bots: side 0 heuristic, side 1 random;" in result.stdout.splitlines()[0]


def test_one_bot_kind_per_side():
    result = run("simulate", "standard", "--games", "5", "--seed", "2", "--bots", f"{BOTS},random", "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["bots"] == [BOTS, "random", BOTS, "random"]


# --------------------------------------------------------------------------- workers and backends
def test_results_do_not_depend_on_workers(tmp_path):
    outputs, records = set(), set()
    for workers in (1, 2, 3):
        out = tmp_path / f"w{workers}.jsonl"
        result = run("simulate", "standard", "--games", "120", "--seed", "77", "--json",  # 3 chunks
                     "--workers", str(workers), "--records", str(out))
        assert result.exit_code == 0, result.stderr
        outputs.add(result.stdout)
        records.add(out.read_text(encoding="utf-8"))
    assert len(outputs) == 1 and len(records) == 1
    hands = set()
    for workers in (1, 3):  # hands mode too: 1,200 hands are 3 chunks
        result = run("simulate", "standard", "--hands", "1200", "--seed", "5", "--json", "--workers", str(workers))
        hands.add(result.stdout)
    assert len(hands) == 1


def test_chunks_combine_the_same_in_any_order():
    rules = load_ruleset("standard")
    spec = RunSpec("games", 12, 3, ("random",), chunk_size=4)
    chunks = [run_chunk(rules, spec, i) for i in range(spec.chunks)]
    a, b = combine(chunks), combine(chunks[::-1])
    assert a.units == b.units == 12 and a.hands == b.hands
    assert a.moments == b.moments and a.histograms == b.histograms
    whole = combine([run_chunk(rules, RunSpec("games", 12, 3, ("random",), chunk_size=12), 0)])
    assert whole.moments == a.moments


@pytest.fixture(scope="module")
def dask_cluster():
    import dask.distributed as distributed  # the test extra installs it: never skip
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        yield cluster


def test_dask_backend_gives_the_same_result(dask_cluster, tmp_path):
    args = ("simulate", "standard", "--games", "120", "--seed", "77", "--json")
    local = run(*args, "--records", str(tmp_path / "local.jsonl"))
    remote = run(*args, "--backend", "dask", "--scheduler", dask_cluster.scheduler_address,
                 "--records", str(tmp_path / "dask.jsonl"))
    assert remote.exit_code == 0, remote.stderr
    assert remote.stdout == local.stdout
    assert (tmp_path / "dask.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()
    cmp_args = ("compare", "standard", "standard+min-bid-4", "--games", "60", "--seed", "8", "--json")
    assert run(*cmp_args, "--backend", "dask", "--scheduler", dask_cluster.scheduler_address).stdout == \
        run(*cmp_args, "--workers", "2").stdout


def _chunk_number(offset, i):
    """A chunk's result for the window test: cheap, and says which chunk it was."""
    return offset + i


def test_dask_backend_keeps_a_bounded_window_of_chunks(dask_cluster):
    """Dask is sent a window of chunks at a time, not all of them: the scheduler never holds
    many more tasks than the window (2 threads x WINDOW_PER_WORKER), and the results still
    come in chunk order."""
    from runtime.backends import WINDOW_PER_WORKER, run_chunks
    held, seen = [], []

    def on_result(i, result):
        held.append(len(dask_cluster.scheduler.tasks))  # the tasks Dask holds right now
        seen.append((i, result))

    n_chunks = 120
    run_chunks(_chunk_number, (1000,), n_chunks, backend="dask", scheduler=dask_cluster.scheduler_address,
               on_result=on_result, keep=False)
    assert seen == [(i, 1000 + i) for i in range(n_chunks)]
    # A few over the window: tasks a result has just released may not have left yet.
    assert max(held) <= 2 * WINDOW_PER_WORKER + 4, held


@pytest.mark.parametrize("address, words", [
    ("nonsense", "nonsense is not a Dask scheduler address: missing port number"),
    ("tcp://somehost", "tcp://somehost is not a Dask scheduler address: missing port number"),
    ("inproc://x", "inproc://x is not a Dask scheduler address: no scheduler of this process listens there"),
])
def test_a_dask_address_that_cannot_work_is_refused_at_once(address, words):
    # Was: a Client half built, its __del__ printing a traceback after a 20 s timeout.
    # (Here, beside the other Dask tests, not in test_cli_usage.py: importing distributed
    # installs tblib's exception pickling for the whole process, after which a CompileError
    # no longer pickles, and tests/test_expressions.py, run later, checks that it does.)
    pytest.importorskip("dask.distributed")
    result = run("simulate", "standard", "--hands", "1", "--seed", "1", "--backend", "dask", "--scheduler", address)
    assert result.exit_code == 2 and result.stdout == ""
    assert words in result.stderr


def test_dask_backend_without_the_extra_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    result = run("simulate", "standard", "--games", "2", "--seed", "1", "--backend", "dask",
                 "--scheduler", "tcp://127.0.0.1:8786")
    assert result.exit_code == 2 and result.stdout == ""
    assert "bidwhist[distributed]" in result.stderr


def test_a_refused_dask_run_leaves_an_existing_records_file_as_it_was(tmp_path):
    # Was: the file was opened (emptied) before the backend was asked, so a scheduler
    # address that could not work wiped the records of an earlier run.
    pytest.importorskip("dask.distributed")
    out = tmp_path / "hands.jsonl"
    out.write_text("earlier records\n", encoding="utf-8")
    result = run("simulate", "standard", "--hands", "1", "--seed", "1", "--backend", "dask",
                 "--scheduler", "nonsense", "--records", str(out))
    assert result.exit_code == 2 and "not a Dask scheduler address" in result.stderr
    assert out.read_text(encoding="utf-8") == "earlier records\n"


def test_dask_missing_is_said_before_the_run_starts(monkeypatch, tmp_path):
    from runtime import backends

    monkeypatch.setattr(backends, "dask_installed", lambda: False)
    out = tmp_path / "hands.jsonl"
    out.write_text("earlier records\n", encoding="utf-8")
    result = run("simulate", "standard", "--hands", "1", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:8786",
                 "--records", str(out))
    assert result.exit_code == 2 and result.stdout == ""
    # One line of error, before a seed is drawn (no "seed: N") or the file touched.
    assert result.stderr.splitlines()[-1] == f"Error: {backends.DASK_MISSING}"
    assert "seed:" not in result.stderr and out.read_text(encoding="utf-8") == "earlier records\n"


# --------------------------------------------------------------------------- records
def test_game_records_replay_to_the_games_played(tmp_path):
    games, seed = 25, 31
    out = tmp_path / "games.jsonl"
    result = run("simulate", "standard", "--games", str(games), "--seed", str(seed), "--json", "--records", str(out))
    assert result.exit_code == 0
    assert "will hold 25 games one after another" in result.stderr and "{game}" in result.stderr
    data = json.loads(result.stdout)
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == data["hands"]
    rules = load_ruleset("standard")
    at = 0
    for g in range(games):
        play = play_game(rules, seed, g, (BOTS,))
        chunk = lines[at:at + len(play.hands)]
        at += len(play.hands)
        for record, state in zip(chunk, play.hands):  # each line replays alone
            replayed = replay_hand(rules, record).state
            assert (replayed.contract, replayed.score, replayed.books) == (state.contract, state.score, state.books)
        replays, tally = replay_game(chunk, resolve_for_records)  # the lines of a game form a game record
        assert tally.winner == play.winner and tally.totals == play.tally.totals
    assert at == len(lines)


def test_one_game_record_per_file_replays_with_the_cli(tmp_path):
    games, seed = 6, 4
    pattern = tmp_path / "out" / "game-{game:02d}.jsonl"
    pattern.parent.mkdir()
    result = run("simulate", "standard+to-5", "--games", str(games), "--seed", str(seed), "--json",
                 "--records", str(pattern))
    assert result.exit_code == 0, result.stderr
    files = sorted((tmp_path / "out").iterdir())
    assert [f.name for f in files] == [f"game-{g:02d}.jsonl" for g in range(games)]
    rules = load_ruleset("standard+to-5")
    total = 0
    for g, path in enumerate(files):
        replayed = run("replay", str(path), "--json")
        assert replayed.exit_code == 0, (path, replayed.stdout, replayed.stderr)
        got = json.loads(replayed.stdout)
        play = play_game(rules, seed, g, (BOTS,))
        assert got["winner"] == play.winner is not None and got["totals"] == play.tally.totals
        assert len(got["hands"]) == len(play.hands)
        total += len(play.hands)
    assert total == json.loads(result.stdout)["hands"]


def test_hand_records_from_many_workers_replay(tmp_path):
    out = tmp_path / "hands.jsonl"
    result = run("simulate", "standard", "--hands", "1100", "--seed", "9", "--json", "--workers", "2",
                 "--records", str(out))
    assert result.exit_code == 0
    rules = load_ruleset("standard")
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1100
    for i in (0, 499, 500, 1099):  # chunk edges
        state = play_hand(rules, 9, i, BOTS)  # the default bots
        replayed = replay_hand(rules, json.loads(lines[i])).state
        assert (replayed.contract, replayed.score) == (state.contract, state.score)


# --------------------------------------------------------------------------- plots
def test_plot_writes_a_png(tmp_path):
    path = tmp_path / "sim.png"
    result = run("simulate", "standard", "--games", "10", "--seed", "3", "--json", "--plot", str(path))
    assert result.exit_code == 0, result.stderr
    json.loads(result.stdout)
    assert path.read_bytes()[:8] == PNG
    hands = tmp_path / "hands.png"
    assert run("simulate", "standard", "--hands", "50", "--seed", "3", "--plot", str(hands)).exit_code == 0
    assert hands.read_bytes()[:8] == PNG


def test_the_plot_title_names_the_variant_and_bots_as_the_header_does(tmp_path, monkeypatch):
    from bidcompiler.cli import plots
    drawn = []
    monkeypatch.setattr(plots, "_draw", lambda series, mode, heading, path: drawn.append((series[0][0], heading)))
    result = run("simulate", *NAMED, "--hands", "20", "--seed", "3", "--plot", str(tmp_path / "p.png"))
    assert result.exit_code == 0, result.stderr
    assert drawn == [(NAMED_TEXT, f"{NAMED_TEXT}: 20 hands, seed 3, bots: heuristic")]


def test_plot_without_matplotlib_says_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    result = run("simulate", "standard", "--games", "2", "--seed", "1", "--plot", str(tmp_path / "x.png"))
    assert result.exit_code == 2 and result.stdout == ""
    assert "matplotlib" in result.stderr and "bidwhist[plot]" in result.stderr


@pytest.mark.parametrize("name, words", [
    ("sim.txt", "cannot draw a 'txt' file"),
    ("missing/sim.png", "does not exist"),
])
def test_plot_path_is_checked_before_the_run(tmp_path, name, words):
    """A misspelt picture name fails at once, not after a long simulation."""
    result = run("simulate", "standard", "--games", "2", "--seed", "1", "--plot", str(tmp_path / name))
    assert result.exit_code == 2 and result.stdout == ""
    assert words in result.stderr and "--plot" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_plot_without_extension_is_refused_before_the_run(tmp_path):
    # Issue 15: the format is never guessed (it was PNG); the usage error names the formats.
    path = tmp_path / "picture"
    result = run("simulate", "standard", "--hands", "20", "--seed", "3", "--plot", str(path))
    assert result.exit_code == 2 and result.stdout == ""
    assert f"{path} has no extension: give a name ending in one of " in result.stderr and ".png" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_plot_that_fails_at_the_end_keeps_the_report(monkeypatch, tmp_path):
    from bidcompiler.cli import plots

    def full_disk(data, path):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(plots, "plot_simulation", full_disk)
    result = run("simulate", "standard", "--hands", "20", "--seed", "3", "--json", "--plot", str(tmp_path / "x.png"))
    assert result.exit_code == 1
    assert json.loads(result.stdout)["hands"] == 20  # the report was printed in full
    assert "No space left on device" in result.stderr


@pytest.mark.parametrize("name", ["g-{game:q}.jsonl", "g-{game:s}.jsonl"])
def test_a_records_name_with_a_bad_game_format_is_a_usage_error(tmp_path, name):
    result = run("simulate", "standard", "--games", "2", "--seed", "1", "--records", str(tmp_path / name))
    assert result.exit_code == 2 and result.stdout == ""
    assert "{game:04d}" in result.stderr and "--records" in result.stderr
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------- usage errors
@pytest.mark.parametrize("args", [
    ("--games", "2", "--hands", "2"),
    (),
    ("--games", "2", "--workers", "0"),
    ("--games", "0"),
    ("--games", "2", "--bots", "nobody"),
    ("--games", "2", "--bots", "random,random,random"),       # standard has two sides
    ("--games", "2", "--scheduler", "tcp://127.0.0.1:8786"),  # without --backend dask
    ("--games", "2", "--backend", "dask"),                    # without --scheduler
    ("--games", "2", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:8786", "--workers", "2"),
    ("--games", "2", "--backend", "dask", "--scheduler", "nonsense://x"),
    ("--games", "2", "--backend", "elsewhere"),
    ("--games", "2", "--max-hands", "0"),
])
def test_bad_arguments_exit_2(args):
    result = run("simulate", "standard", "--seed", "1", *args)
    assert result.exit_code == 2, (args, result.stdout, result.stderr)
    assert result.stdout == ""


def test_records_in_a_missing_folder_is_a_usage_error(tmp_path):
    result = run("simulate", "standard", "--games", "2", "--seed", "1",
                 "--records", str(tmp_path / "nowhere" / "game-{game}.jsonl"))
    assert result.exit_code == 2 and "--records" in result.stderr


def test_readable_report_fits_80_columns_and_says_what_each_figure_is_counted_over():
    args = ("simulate", "standard+min-bid-4", "--games", "3", "--seed", "4", "--bots", "random")
    data = json.loads(run(*args, "--json").stdout)
    lines = run(*args).stdout.splitlines()
    assert all(len(line) <= 80 for line in lines[1:]), [line for line in lines[1:] if len(line) > 80]
    headings = [line.strip("│ ") for line in lines if line.startswith("│ of the ")]
    contracted = data["hands"] - data["no_contract"]
    assert headings == [f"of the {contracted} contracts", f"of the {data['hands']} hands dealt", "of the 3 games"]
