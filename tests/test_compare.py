"""`bidwhist compare A B`: the same deals under two variants, paired differences, words.

* the deals really are the same, hand by hand, under two variants with one deck;
* ``standard`` against ``standard+min-bid-4`` finds that bids of 3 disappear
  (significant, and said in words), in games and in hands;
* a variant compared with itself shows no difference at all;
* the JSON shape, the readable report, ``--plot``, workers, and usage errors.
"""

from __future__ import annotations

import json

import pytest

from bidcompiler.pipeline import load_ruleset
from clirun import run
from runtime.simulate import play_game

PNG = b"\x89PNG\r\n\x1a\n"
# The statistical checks need bots that bid low when they can; heuristic bots do,
# random ones almost always end in a seven.


def by_metric(data: dict) -> dict:
    return {d["metric"]: d for d in data["differences"]}


def test_the_same_deals_under_both_variants():
    a, b = load_ruleset("standard"), load_ruleset("standard+min-bid-4")
    for g in range(5):
        pa, pb = play_game(a, 12, g, ("random",)), play_game(b, 12, g, ("random",))
        assert pa.first_dealer == pb.first_dealer
        for ha, hb in zip(pa.hands, pb.hands):
            assert ha.dealt == hb.dealt and ha.kitty == hb.kitty


def test_min_bid_4_makes_bids_of_3_disappear():
    result = run("compare", "standard", "standard+min-bid-4", "--games", "150", "--seed", "21", "--json",
                 "--bots", "heuristic")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["a"]["variant"] == "standard" and data["b"]["variant"] == "standard+min-bid-4"
    assert data["games"] == 150 and data["mode"] == "games"
    diffs = by_metric(data)
    for strain in ("uptown", "downtown", "notrump"):
        d = diffs[f"contract:3 {strain}"]
        assert d["a"]["value"] > 0.05 and d["b"]["value"] == 0
        assert d["significant"] and d["difference"]["high"] < 0
        assert d["difference"]["value"] == pytest.approx(-d["a"]["value"])
        assert d["sentence"].startswith(f"3 {strain} is bid ") and "less often" in d["sentence"]
        assert d["sentence"] in data["summary"]
        assert diffs[f"made:3 {strain}"]["b"]["value"] is None  # never bid: no make rate
    assert diffs["contract:4 uptown"]["significant"] and diffs["contract:4 uptown"]["difference"]["value"] > 0
    for d in data["differences"]:  # every figure has both sides, the difference and the verdict
        assert set(d) == {"metric", "label", "out_of", "kind", "a", "b", "difference", "significant", "sentence"}
        for part in ("a", "b", "difference"):
            assert set(d[part]) == {"value", "low", "high", "n"}
        assert (d["sentence"] is not None) == d["significant"]
    # Everything that is not significant is listed as such, in words.
    assert len(data["summary"]) + len(data["no_clear_difference"]) <= len(data["differences"])


def test_min_bid_4_in_hands_mode_too():
    result = run("compare", "standard", "standard+min-bid-4", "--hands", "300", "--seed", "5", "--json",
                 "--bots", "heuristic")
    data = json.loads(result.stdout)
    assert data["mode"] == "hands" and data["hands"] == 300 and data["games"] is None
    d = by_metric(data)["contract:3 notrump"]
    assert d["significant"] and d["b"]["value"] == 0 and d["difference"]["n"] == 300


@pytest.mark.parametrize("mode", ["--games", "--hands"])
def test_a_variant_against_itself_shows_no_difference(mode):
    count = "60" if mode == "--games" else "300"
    result = run("compare", "standard", "standard", mode, count, "--seed", "3", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["summary"] == []
    assert data["a"]["hands"] == data["b"]["hands"]
    for d in data["differences"]:
        assert not d["significant"], d
        assert d["a"] == d["b"]
        if d["difference"]["value"] is not None:
            assert d["difference"]["value"] == 0
            if d["difference"]["low"] is not None:  # exactly: no rounding noise around 0
                assert d["difference"]["low"] == d["difference"]["high"] == 0, d
    assert data["no_clear_difference"]
    # The text report of the same finding: A against itself is the same at any size (proven
    # figure by figure above), so a smaller run (a sixth) shows the words.
    small = "10" if mode == "--games" else "50"
    text = run("compare", "standard", "standard", mode, small, "--seed", "3")
    assert text.exit_code == 0 and "No significant difference" in text.stdout


def test_readable_report_says_it_in_words(tmp_path):
    path = tmp_path / "cmp.png"
    result = run("compare", "standard", "standard+min-bid-4", "--games", "80", "--seed", "21",
                 "--bots", "heuristic", "--plot", str(path))
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "standard (A) against standard+min-bid-4 (B)" in out
    assert "3 notrump is bid" in out and "less often" in out
    assert "No clear difference in" in out or "No significant difference" in out
    with pytest.raises(json.JSONDecodeError):
        json.loads(out)
    assert path.read_bytes()[:8] == PNG


def test_compare_does_not_depend_on_workers():
    args = ("compare", "standard", "standard+to-5", "--games", "110", "--seed", "6", "--json")
    one, three = run(*args), run(*args, "--workers", "3")
    assert one.exit_code == three.exit_code == 0
    assert one.stdout == three.stdout


@pytest.mark.parametrize("args, words", [
    (("standard",), "B"),                                               # B is missing
    (("standard", "standard+min-bid-4"), "--games"),                    # how much to play?
    (("standard", "standard", "--games", "2", "--hands", "2"), "not both"),
    (("standard", "no-such-variant", "--games", "2"), "no-such-variant"),
    (("standard", "standard", "--games", "2", "--workers", "0"), "--workers"),
    (("standard", "cutthroat", "--games", "2", "--bots", "random,random"), "--bots"),  # 2 and 3 sides
    (("standard", "cutthroat", "--games", "2", "--bots", "random,heuristic"), "A has 2 sides and B 3"),
])
def test_bad_arguments_exit_2(args, words):
    result = run("compare", *args, "--seed", "1")
    assert result.exit_code == 2, result.stdout + result.stderr
    assert result.stdout == "" and words in result.stderr


def test_the_report_says_when_the_decks_differ():
    same = json.loads(run("compare", "standard", "standard+min-bid-4", "--hands", "20", "--seed", "2", "--json").stdout)
    assert same["same_deals"] is True
    other = run("compare", "standard", "standard+no-jokers", "--hands", "20", "--seed", "2")
    assert other.exit_code == 0 and "on the same deals" not in other.stdout
    assert "the decks or hand sizes differ" in other.stdout
    data = json.loads(run("compare", "standard", "standard+no-jokers", "--hands", "20", "--seed", "2", "--json").stdout)
    assert data["same_deals"] is False


# --------------------------------------------------------------------------- what was run, said
@pytest.mark.parametrize("amount", [("--games", "5"), ("--hands", "40")])
def test_default_bots_are_heuristic_in_both_modes_and_the_header_says_so(amount):
    data = json.loads(run("compare", "standard", "standard+to-5", *amount, "--seed", "4", "--json").stdout)
    assert data["bots"] == ["heuristic"] and data["bots_description"] == "heuristic"
    text = run("compare", "standard", "standard+to-5", *amount, "--seed", "4")
    assert text.exit_code == 0
    assert text.stdout.splitlines()[0].endswith("seed 4, bots: heuristic")


def test_random_and_per_side_bots_are_said():
    data = json.loads(run("compare", "standard", "standard+to-5", "--hands", "20", "--seed", "4", "--bots", "random",
                          "--json").stdout)
    assert data["bots"] == ["random"] and data["bots_description"] == "random"
    text = run("compare", "standard", "standard+to-5", "--hands", "20", "--seed", "4", "--bots", "heuristic,random")
    assert text.stdout.splitlines()[0].endswith("bots: side 0 heuristic, side 1 random")


def test_a_and_b_are_named_as_given_house_rules_in_order(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.whist").write_text('house-rule mine\ndescription "to 5"\ngame { win = score >= 5 }\n',
                                          encoding="utf-8")
    a, b = "standard+min-bid-4+to-9", "standard+to-9+mine.whist"
    data = json.loads(run("compare", a, b, "--hands", "20", "--seed", "4", "--json").stdout)
    assert data["a"]["variant"] == a and data["a"]["with"] == ["min-bid-4", "to-9"] and data["a"]["set"] == []
    assert data["b"]["variant"] == b and data["b"]["base"] == "standard" and data["b"]["with"] == ["to-9", "mine.whist"]
    header = run("compare", a, b, "--hands", "20", "--seed", "4").stdout.splitlines()[0]
    assert header.startswith(f"{a} (A) against {b} (B): 20 hands"), header


def test_the_plot_title_names_both_variants_and_the_bots(tmp_path, monkeypatch):
    from bidcompiler.cli import plots
    drawn = []
    monkeypatch.setattr(plots, "_draw", lambda series, mode, heading, path: drawn.append(
        ([name for name, _, _ in series], heading)))
    result = run("compare", "standard", "standard+min-bid-4+to-5", "--hands", "20", "--seed", "4",
                 "--plot", str(tmp_path / "c.png"))
    assert result.exit_code == 0, result.stderr
    assert drawn == [(["A: standard", "B: standard+min-bid-4+to-5"],
                      "standard against standard+min-bid-4+to-5: 20 hands on the same deals, seed 4, bots: heuristic")]


def test_an_interval_just_off_zero_is_written_as_its_range_not_a_plus_minus_that_reaches_zero():
    """A paired proportions' interval (-2.430, -0.002) around -1.211 is nearly centred, but
    "-1.211 ± 1.214" would include zero while the interval (and the * beside it) does not:
    the words give the range instead (it printed "1.211037% ± 1.219156% less often")."""
    from bidcompiler.cli.report import _plusminus, is_symmetric
    from runtime.stats import Interval

    just_off = Interval(-0.01211037, -0.02430193, -0.00002, 4000)
    assert not is_symmetric(just_off)
    words = _plusminus(just_off, True)
    assert "±" not in words and words == "1% (0.002% to 2%)", words
    centred = Interval(-0.05, -0.07, -0.03, 4000)
    assert is_symmetric(centred) and _plusminus(centred, True) == "5% ± 2%"


def test_readable_report_fits_80_columns_and_heads_each_group_with_its_base():
    result = run("compare", "standard", "standard+to-5", "--games", "4", "--seed", "2", "--bots", "random")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    # The first line names the run as typed, to be copied whole; prose after it is wrapped.
    assert all(len(line) <= 80 for line in lines[1:]), [line for line in lines[1:] if len(line) > 80]
    assert all(line == line.rstrip() for line in lines)
    # Labels wrap where space is short, numbers never: no cell of B − A holds "pts" alone.
    assert not [line for line in lines if line.count("│") == 6 and line.split("│")[-3].strip() == "pts"]
    # Figures sit under a row saying what they are counted over: hands, contracts, games.
    order = [next(i for i, line in enumerate(lines) if text in line)
             for text in ("of the hands dealt", "side 0 points per hand", "of the contracts ", "contracts set",
                          "of its own contracts", "7 downtown made", "of the games", "hands per game")]
    assert order == sorted(order)


@pytest.mark.parametrize("amount", ["8.4% ± 0.6%", "100% (21% to 100%)", "1.2 ± 0.2"])
def test_a_summary_bullet_never_splits_a_figure_over_two_lines(amount):
    """What changes under B is wrapped at 80 columns between words, but a size and its
    interval ("8.4% ± 0.6%", "100% (21% to 100%)") stay on one line wherever the line
    happens to end: "8.4%" at a line's end and "± 0.6%" below read as two figures."""
    from io import StringIO

    from rich.console import Console

    from bidcompiler.cli.render import _bullet

    for pad in range(60):  # every place in the line the figure can fall
        out = StringIO()
        _bullet(Console(file=out, width=80, soft_wrap=True), f"{'x' * pad} is bid {amount} more often than before.")
        lines = out.getvalue().splitlines()
        assert all(len(line) <= 80 for line in lines)
        assert any(amount in line for line in lines), (pad, lines)
